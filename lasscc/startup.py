"""What the `lasscc` command's start-up skips (issue 16: a compile is a short process).

xDSL's dialect modules mark functions `@typing_extensions.deprecated(...)`.  On Python < 3.13
typing_extensions' decorator imports `asyncio.coroutines` for every function it wraps, only to ask
whether the function is a coroutine function; the `asyncio` package's import (sockets, ssl,
concurrent.futures, ~0.03-0.05 s of CPU) is then the largest single item of a compile's imports,
and nothing else of a compile uses asyncio."""

from __future__ import annotations

import sys
from contextlib import contextmanager


def _plain_function(arg) -> bool:
    """`arg` is a callable that asyncio would not call a coroutine function (the question
    typing_extensions asks asyncio.coroutines, answered without importing it)."""
    import inspect

    return (callable(arg) and not isinstance(arg, type) and not inspect.iscoroutinefunction(arg)
            and getattr(arg, "_is_coroutine", None) is None)


@contextmanager
def deprecations_without_asyncio():
    """While inside: typing_extensions' `@deprecated` wraps a plain function as it does itself
    (a `functools.wraps` wrapper that warns with the decorator's category and stacklevel; the
    message in `__deprecated__` of both), without importing asyncio.  Classes, coroutine functions,
    `category=None`, a process that has imported asyncio, and a typing_extensions whose `deprecated`
    is not its own class (Python >= 3.13 re-exports `warnings.deprecated`) go the library's way."""
    try:
        import typing_extensions
    except ImportError:
        yield
        return
    cls = typing_extensions.deprecated
    if not isinstance(cls, type) or cls.__module__ != "typing_extensions" or "asyncio" in sys.modules:
        yield
        return
    original = cls.__call__

    def __call__(self, arg, /):
        if self.category is None or "asyncio" in sys.modules or not _plain_function(arg):
            return original(self, arg)
        import functools
        import warnings

        msg, category, stacklevel = self.message, self.category, self.stacklevel

        @functools.wraps(arg)
        def wrapper(*args, **kwargs):
            warnings.warn(msg, category=category, stacklevel=stacklevel + 1)
            return arg(*args, **kwargs)

        arg.__deprecated__ = wrapper.__deprecated__ = msg
        return wrapper

    cls.__call__ = __call__
    try:
        yield
    finally:
        cls.__call__ = original
