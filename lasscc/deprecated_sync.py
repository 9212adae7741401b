"""typing_extensions' `@deprecated` on a plain function without importing asyncio.

xDSL decorates a dozen of its functions and methods with `typing_extensions.deprecated` when its
modules are imported.  Before Python 3.13 (whose `warnings.deprecated` typing_extensions re-exports)
every such decoration of a callable runs `import asyncio.coroutines` to ask whether it is a coroutine
function, and importing asyncio (its package imports its event loops, ssl, socket, ...) is ~43 ms
of CPU, ~3.5 % of a cold `lasscc compile`, which never runs an event loop.  `install()` gives
typing_extensions a subclass of its `deprecated` that wraps a callable which is plainly not a
coroutine function (inspect says no and it has no `_is_coroutine` marker, the two things asyncio
checks) exactly as typing_extensions does; classes, coroutine functions and everything else go to
typing_extensions' own code.  The same decorator, minus an import."""

from __future__ import annotations

import functools
import inspect
import sys
import warnings


def install() -> None:
    """Before xDSL is imported (lasscc/__init__.py); idempotent, a no-op on Python >= 3.13."""
    if sys.version_info >= (3, 13):
        return
    import typing_extensions

    base = typing_extensions.deprecated
    if getattr(base, "_lasscc_sync", False) or base is getattr(warnings, "deprecated", None):
        return

    class deprecated(base):  # noqa: N801 (typing_extensions' name)
        _lasscc_sync = True

        def __call__(self, arg, /):
            if (self.category is None or isinstance(arg, type) or not callable(arg)
                    or inspect.iscoroutinefunction(arg) or hasattr(arg, "_is_coroutine")):
                return super().__call__(arg)
            msg, category, stacklevel = self.message, self.category, self.stacklevel

            @functools.wraps(arg)
            def wrapper(*args, **kwargs):
                warnings.warn(msg, category=category, stacklevel=stacklevel + 1)
                return arg(*args, **kwargs)

            arg.__deprecated__ = wrapper.__deprecated__ = msg
            return wrapper

    deprecated.__module__, deprecated.__qualname__, deprecated.__doc__ = base.__module__, base.__qualname__, base.__doc__
    typing_extensions.deprecated = deprecated
