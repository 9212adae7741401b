"""Errors the CPU executor raises, and how it names the op that caused one.

Every error is a `lasscc.diagnostics.LassError` subclass whose message names the op by its
position in the kernel function (`op #12`, a pre-order walk of the function body starting at 0),
its name, its printed form (first line), and its source location when the parser recorded one.
Races name both ops involved; per-thread errors name the block and thread.
"""

from __future__ import annotations

from lasscc.diagnostics import LassError
from lasscc.source import op_location


class InterpError(LassError):
    """Something the executor found wrong while running a kernel (base class)."""


class UnsupportedError(InterpError):
    """An op, type or construct the executor does not run (names the op)."""


class KernelArgumentError(InterpError):
    """The arrays or sizes handed to `execute_kernel` do not fit the kernel's signature."""


class OutOfBoundsError(InterpError):
    """A shared- or global-memory access outside the buffer (or outside a ring slot)."""


class MisalignedAccessError(InterpError):
    """A shared- or global-memory access that is not aligned to its width (ldmatrix rows, copies of
    4, 8 or 16 bytes, vector loads and stores of D)."""


class UninitializedReadError(InterpError):
    """A read of shared-memory bytes that no thread of the block wrote since the kernel started."""


class RaceError(InterpError):
    """Two threads touch the same shared-memory bytes (at least one writes) with no barrier between."""


class AsyncHazardError(RaceError):
    """An access to shared-memory bytes that a cp.async (copy_async) is still writing: the copy
    has not been retired by a wait, so the bytes may change at any moment."""


class DivergenceError(InterpError):
    """A warp- or block-collective op (mma_sync, ldmatrix, barrier) reached by only some threads."""


class DeadlockError(InterpError):
    """A wait that can never complete: an mbarrier phase whose arrivals or transaction bytes no
    thread will supply (names the wait and the ops that last touched the barrier)."""


class MbarrierError(InterpError):
    """An mbarrier used against its rules: not initialised, too many arrivals in a phase, more
    transaction bytes completed than expected (tx-count underflow), a phase completing again
    before any thread waited for the previous one."""


class InFlightRead(Exception):
    """Raised by a value still being computed asynchronously (a wgmma accumulator before the
    wgmma.wait_group that retires its group) when an op uses it; the executor turns it into an
    AsyncHazardError naming that op.  Not a LassError: it never leaves the executor."""


def op_text(op, limit: int = 160) -> str:
    """The first line of the op's printed form, shortened to `limit` characters."""
    try:
        text = str(op).splitlines()[0].strip()
    except Exception:  # printing a half-built op must never hide the real error
        text = op.name
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text


def source_location(op) -> str | None:
    """Where the op (or its nearest located ancestor) was written, when the parser recorded it."""
    loc = op_location(op)
    return None if not loc or loc.startswith("<unknown") else loc


def describe_op(index: int, op, text: str | None = None) -> str:
    """`op #12 'lass_nv.ldmatrix_x4' (`%r0, ... = lass_nv.ldmatrix_x4 %a`)` plus the source
    location (of the op or of its nearest parsed ancestor) when known.  `text` is the op's line
    in the printed function (SSA names as in a dump); by default the op is printed alone."""
    loc = source_location(op)
    where = f" [source: {loc}]" if loc else ""
    return f"op #{index} '{op.name}' (`{text or op_text(op)}`){where}"


def function_op_lines(func, ops, limit: int = 160) -> list | None:
    """The line of each op of `ops` (func.body.walk() order) in the printed function, so messages
    show the SSA names of a dump; None entries for elided terminators; None if it cannot align."""
    try:
        lines = [ln.strip() for ln in str(func).splitlines()[1:]]
    except Exception:
        return None
    cand = [ln for ln in lines if ln and not ln.startswith(("}", "^"))]
    out: list = []
    j = 0
    for op in ops:
        if j < len(cand) and op.name in cand[j]:
            t = cand[j]
            out.append(t if len(t) <= limit else t[: limit - 3] + "...")
            j += 1
        elif op.name in ("scf.yield", "func.return") and not op.operands:
            out.append(None)  # the printer elides empty terminators
        else:
            return None
    return out


__all__ = [
    "InterpError",
    "UnsupportedError",
    "KernelArgumentError",
    "OutOfBoundsError",
    "MisalignedAccessError",
    "UninitializedReadError",
    "RaceError",
    "AsyncHazardError",
    "DivergenceError",
    "DeadlockError",
    "MbarrierError",
    "describe_op",
    "op_text",
    "op_location",
]
