"""Semantics of the elementwise linalg ops that lasscc-fuse-epilogue folds (linalg.generic and the
named elementwise ops on a GEMM's D, lasscc.passes.fuse_epilogue.analyze), at level 0: the
unfused program, so the pass can be checked by numbers before and after.  The body runs by the
executor's op handlers (lasscc.interp.epilogue.run_body) on whole M x N arrays; D is rewritten in
place, in its own element type."""

from __future__ import annotations

import numpy as np

from lasscc.dialects._common import memref_layout
from lasscc.interp.epilogue import run_body
from lasscc.interp.errors import UnsupportedError
from lasscc.interp.executor import Executor, handler
from lasscc.interp.values import GlobalBuffer
from lasscc.passes.fuse_epilogue import ELEMENTWISE, analyze
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp


def _matrix(buf: GlobalBuffer, t, m: int, n: int) -> np.ndarray:
    """The M x N view of a matrix buffer in its memref's layout."""
    return buf.array.reshape(m, n) if memref_layout(t) == "row" else buf.array.reshape(n, m).T


def _elementwise(ex: Executor, op, vals):
    if ex.prog.level != 0:
        raise UnsupportedError(f"{ex.where(op)}: '{op.name}' runs only beside a lass.gemm (level 0)")
    d = op.outputs[0]
    fold = analyze(op, d)
    if isinstance(fold, str):
        raise UnsupportedError(f"{ex.where(op)}: the CPU executor runs the elementwise ops "
                               f"lasscc-fuse-epilogue folds; this one does not: {fold}")
    m, n = ex.launch.m, ex.launch.n
    dbuf = vals[len(op.inputs)]
    D = _matrix(dbuf, d.type, m, n)
    args = []
    for a, x in zip(fold.args, vals):
        if a == "v":
            args.append(D.copy())
            continue
        kind = a[1]
        if kind == "scalar":
            args.append(np.float32(x))
        elif kind == "n":
            args.append(x.array.reshape(1, n))
        elif kind == "m":
            args.append(x.array.reshape(m, 1))
        else:
            args.append(_matrix(x, a[0].type, m, n))
    args.append(D.copy())  # the output's block argument
    out = run_body(op.regions[0].block, args, LinalgYieldOp)
    D[...] = np.broadcast_to(np.asarray(out, D.dtype), D.shape)
    return []


for _cls in ELEMENTWISE:
    handler(_cls)(_elementwise)


@handler(LinalgYieldOp)
def _linalg_yield(ex, op, vals):  # ends a body, which run_body evaluates
    return []
