"""Rolled fragment loops: per-fragment code written once, as a static `scf.for` that LLVM unrolls.

An epilogue does the same thing for every accumulator pair of a thread (64 of them for a 64 x 64
warp tile); written out in Python it was most of the kernel's IR, and every pass and the LLVM
lowering paid for each copy.  `rolled_pairs` emits the body once, in a loop over the pairs:

- the pairs' accumulator values and their constant (row, column) offsets are loop-carried values
  in the order the loop visits them; the body uses the first pair and yields the lists rotated by
  one pair, so iteration q sees pair q.  That is "element q of the accumulator list" in plain SSA:
  no new op, the CPU executor runs it as any `scf.for`, and the (row, column) of each pair is what
  the caller computed with lasscc.layout (no formula of q is written here);
- the loop carries UNROLL_FULL_ATTR.  lasscc-lower-to-llvm keeps it on the loop's back edge, and
  lasscc.emit.unroll_full_metadata writes it as LLVM's `!llvm.loop !{!"llvm.loop.unroll.full"}`,
  so LLVM's O3 unrolls the loop completely (the trip count is a constant); after that the
  rotation is only renaming: the phis fold to the accumulator registers and the offsets to
  immediates, as in the code the unrolled Python emitted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import scf
from xdsl.dialects.builtin import UnitAttr, i32
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from lasscc.passes._build import ArithBuilder

# marks an scf.for (and, after lasscc-lower-to-llvm, its back-edge llvm.br) to be fully unrolled by LLVM
UNROLL_FULL_ATTR = "lass.unroll_full"


def rolled_pairs(b: ArithBuilder, pairs: Sequence[tuple[int, int, Sequence[int]]], acc: Sequence[SSAValue],
                 body: Callable[[ArithBuilder, list[SSAValue], SSAValue, SSAValue], None]) -> scf.ForOp:
    """One `scf.for q in [0, len(pairs))` (i32, marked UNROLL_FULL_ATTR) whose iteration q calls
    `body(builder, [acc[i] for i in pairs[q][2]], row_q, col_q)` with row_q, col_q the i32 values
    pairs[q][0], pairs[q][1]: `body` emits the code of one pair, as the unrolled caller does."""
    width = len(pairs[0][2])
    consts: dict[int, SSAValue] = {}

    def const(x: int) -> SSAValue:
        if x not in consts:
            consts[x] = b.const(x)
        return consts[x]

    vals = [acc[i] for _, _, ix in pairs for i in ix]
    rows = [const(r) for r, _, _ in pairs]
    cols = [const(c) for _, c, _ in pairs]
    inits = vals + rows + cols
    blk = Block(arg_types=[i32] + [v.type for v in inits])
    blk.args[0].name_hint = "pair"
    n, nv = len(pairs), len(vals)
    a, r, c = list(blk.args[1:1 + nv]), list(blk.args[1 + nv:1 + nv + n]), list(blk.args[1 + nv + n:])
    ib = ArithBuilder(InsertPoint.at_end(blk))
    body(ib, a[:width], r[0], c[0])
    ib.insert(scf.YieldOp(*(a[width:] + a[:width] + r[1:] + r[:1] + c[1:] + c[:1])))
    loop = scf.ForOp(const(0), const(n), const(1), inits, Region(blk))
    loop.attributes[UNROLL_FULL_ATTR] = UnitAttr()
    b.insert(loop)
    return loop
