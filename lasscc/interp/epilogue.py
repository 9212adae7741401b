"""The semantics of an epilogue region (lasscc.dialects.epilogue), defined once: `run_region`
evaluates the region's ops with the CPU executor's own op handlers (arith_ops, math_ops) on numpy
arrays that broadcast.  The executor's lass.gemm and lass_tb.epilogue use it, through
`mma_math.epilogue`; after lasscc-warp-mma the region's ops are ordinary per-thread ops the
executor runs one by one with the same handlers."""

from __future__ import annotations

import numpy as np
from xdsl.ir import Region

from lasscc.dialects.epilogue import YieldOp
from lasscc.interp.errors import UnsupportedError
from lasscc.interp.executor import HANDLERS


class _RegionExec:
    """What a handler may ask of its executor, for values that are whole arrays (no lanes)."""

    mask = None

    def where(self, op) -> str:
        return f"'{op.name}' in an epilogue region"

    @staticmethod
    def select_lanes(c, a, b):
        return np.where(np.asarray(c, bool), a, b)


def run_region(region: Region, value, extras) -> np.ndarray:
    """The region applied elementwise: `value` f32 (alpha * acc + beta * C), `extras` one array or
    scalar per extra operand, already in its block argument's representation (f16 numpy, bf16 as
    uint16 patterns, f32) and broadcastable against `value`.  Returns the yielded f32 values in
    value's shape."""
    out = run_body(region.block, [np.asarray(value, np.float32), *extras], YieldOp)
    return np.broadcast_to(np.asarray(out, np.float32), np.shape(value)).astype(np.float32)


def run_body(block, args, terminator):
    """The value `block`'s `terminator` yields, its ops run by the executor's handlers on `args`."""
    env = dict(zip(block.args, args))
    ex = _RegionExec()
    for op in block.ops:
        if isinstance(op, terminator):
            return env[op.operands[0]]
        fn = HANDLERS.get(type(op))
        if fn is None:
            raise UnsupportedError(f"'{op.name}' in an elementwise body has no CPU semantics")
        prep = getattr(fn, "prepare", None)
        run = prep(op) if prep is not None else fn
        for r, v in zip(op.results, run(ex, op, [env[x] if x in env else _outside(x) for x in op.operands])):
            env[r] = v
    raise UnsupportedError(f"a body without {terminator.name}")


def _outside(x):
    """A value the body captures: an arith.constant defined outside it."""
    from xdsl.dialects import arith

    owner = getattr(x, "owner", None)
    if isinstance(owner, arith.ConstantOp):
        fn = HANDLERS[arith.ConstantOp]
        prep = getattr(fn, "prepare", None)
        return (prep(owner) if prep else fn)(_RegionExec(), owner, [])[0]
    raise UnsupportedError("an elementwise body uses a value defined outside it that is not a constant")
