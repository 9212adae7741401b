"""Python's cyclic garbage collector paused while the compiler runs (`with gc_paused(): ...`).

Each collection walks every live object, and a kernel's IR is a few hundred thousand of them: the
collector took ~0.3 s CPU of a `lasscc compile examples/gemm.mlir`, for ~5 MB less peak memory.
Paused per compile (and per `lasscc compile` / `opt` command), not per process: a long `lasscc
tune` or an API user compiling many kernels gets the garbage of each collected after it."""

from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def gc_paused():
    """The collector off inside, back on after when it was on before (nesting is fine)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
