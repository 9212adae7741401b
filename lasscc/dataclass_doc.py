"""The docstring `@dataclass` writes for a class without one, computed when it is first read.

Python's dataclasses give such a class `__doc__ = Name + str(inspect.signature(cls))` while they
process it: ~85 of the dataclasses a `lasscc compile` imports (xDSL's and lasscc's), ~0.03 s of CPU
(inspect's signature machinery, and on the first class with `object`'s signature a compile of
tokenize's big regular expression), for text that a compile never reads.

install() wraps the dataclasses module's `_process_class` (its module global, which `@dataclass`
calls): a class that has no docstring gets a _DeferredDoc descriptor as `__doc__` before dataclasses
looks at it.  While the class is being processed the descriptor reads as a placeholder (non-empty,
so dataclasses leaves it: the only `__doc__` read there); afterwards its first read computes exactly
dataclasses' text (the same expression and error handling) for the class as processed, and keeps it.
`cls.__doc__`, `instance.__doc__`, `help()` and `inspect.getdoc` all read through it.  Only on the
Python versions whose dataclasses read and write `__doc__` this way (3.10 to 3.13); elsewhere
nothing is changed.  tests/unit/test_dataclass_doc.py compares the texts with dataclasses' own."""

from __future__ import annotations

import dataclasses
import sys

_VERSIONS = ((3, 10), (3, 11), (3, 12), (3, 13))  # dataclasses' `if not getattr(cls, '__doc__')` block
_PENDING = "(dataclass being processed)"  # what `__doc__` reads while dataclasses runs on the class
_ORIGINAL = dataclasses.__dict__.get("_process_class")


def _dataclass_doc(cls) -> str:
    """dataclasses' docstring of `cls` (Python 3.10-3.13 `_process_class`, verbatim)."""
    import inspect

    try:
        text_sig = str(inspect.signature(cls)).replace(" -> None", "")
    except (TypeError, ValueError):
        text_sig = ""
    return cls.__name__ + text_sig


class _DeferredDoc:
    """A class's `__doc__` that is dataclasses' text for `cls`, computed on first read."""

    __slots__ = ("cls", "doc")

    def __init__(self, cls) -> None:
        self.cls = cls  # the class dataclasses processed (slots=True then copies its dict to a new one)
        self.doc: str | None = None  # None: still being processed, or not read yet

    def __get__(self, obj, owner=None) -> str:
        if self.doc is None:
            if self.cls is None:
                return _PENDING
            self.doc = _dataclass_doc(self.cls)
            self.cls = None
        return self.doc


def _process_class(cls, *args, **kwargs):
    if getattr(cls, "__doc__"):
        return _ORIGINAL(cls, *args, **kwargs)
    old = cls.__dict__.get("__doc__")
    deferred = _DeferredDoc(None)  # reads as _PENDING while processed
    cls.__doc__ = deferred
    try:
        result = _ORIGINAL(cls, *args, **kwargs)
    except BaseException:
        cls.__doc__ = old
        raise
    deferred.cls = cls
    return result


def install() -> None:
    """Wrap dataclasses' `_process_class` (idempotent; nothing on other Python versions)."""
    if sys.version_info[:2] in _VERSIONS and _ORIGINAL is not None and dataclasses._process_class is _ORIGINAL:
        dataclasses._process_class = _process_class


def installed() -> bool:
    return dataclasses.__dict__.get("_process_class") is _process_class
