"""Semantics of the elementwise linalg ops that lasscc-fuse-epilogue folds (linalg.generic and the
named elementwise ops on a GEMM's D, lasscc.passes.fuse_epilogue.analyze), at level 0: the
unfused program, so the pass can be checked by numbers before and after.  The body runs by the
executor's op handlers (lasscc.interp.epilogue.run_body) on whole M x N arrays (batch x M x N for a
batched GEMM's 3-d D, from linalg.batch_matmul; an extra without the batch dimension broadcast
over it); D is rewritten in place, in its own element type."""

from __future__ import annotations

import numpy as np

from lasscc.dialects._common import memref_layout
from lasscc.interp.epilogue import run_body
from lasscc.interp.errors import UnsupportedError
from lasscc.interp.executor import Executor, handler
from lasscc.interp.values import GlobalBuffer
from lasscc.passes.fuse_epilogue import ELEMENTWISE, analyze
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp


def _matrix(buf: GlobalBuffer, t, m: int, n: int, batch: int = 1) -> np.ndarray:
    """The M x N view of a matrix buffer in its memref's layout ([batch, M, N] for a 3-d memref)."""
    lead = (batch,) if t.get_num_dims() == 3 else ()
    if memref_layout(t) == "row":
        return buf.array.reshape(*lead, m, n)
    return np.swapaxes(buf.array.reshape(*lead, n, m), -1, -2)


def _elementwise(ex: Executor, op, vals):
    if ex.prog.level != 0:
        raise UnsupportedError(f"{ex.where(op)}: '{op.name}' runs only beside a lass.gemm (level 0)")
    d = op.outputs[0]
    fold = analyze(op, d)
    if isinstance(fold, str):
        raise UnsupportedError(f"{ex.where(op)}: the CPU executor runs the elementwise ops "
                               f"lasscc-fuse-epilogue folds; this one does not: {fold}")
    m, n, batch = ex.launch.m, ex.launch.n, ex.launch.batch
    dbuf = vals[len(op.inputs)]
    D = _matrix(dbuf, d.type, m, n, batch)
    args = []
    for a, x in zip(fold.args, vals):
        if a == "v":
            args.append(D.copy())
            continue
        kind = a[1]
        if kind == "scalar":
            args.append(np.float32(x))
        elif kind in ("n", "m"):  # a leading batch dimension when the memref has one
            lead = (batch,) if a[0].type.get_num_dims() == 2 else ()
            args.append(x.array.reshape(*lead, 1, n) if kind == "n" else x.array.reshape(*lead, m, 1))
        else:
            args.append(_matrix(x, a[0].type, m, n, batch))
    args.append(D.copy())  # the output's block argument
    out = run_body(op.regions[0].block, args, LinalgYieldOp)
    D[...] = np.broadcast_to(np.asarray(out, D.dtype), D.shape)
    return []


for _cls in ELEMENTWISE:
    handler(_cls)(_elementwise)


@handler(LinalgYieldOp)
def _linalg_yield(ex, op, vals):  # ends a body, which run_body evaluates
    return []
