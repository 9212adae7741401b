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
  lasscc.emit._w_br (the llvm.br writer) writes it as LLVM's `!llvm.loop !{!"llvm.loop.unroll.full"}`,
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


def rolled_loop(b: ArithBuilder, n: int, fields: Sequence[Sequence[SSAValue]],
                body: Callable[[ArithBuilder, list[list[SSAValue]]], list[list[SSAValue]]],
                name: str, const: Callable[[int], SSAValue] | None = None) -> list[list[SSAValue]]:
    """One `scf.for q in [0, n)` (i32, named `name`, marked UNROLL_FULL_ATTR) over per-iteration
    slices of `fields`: field k holds n * w_k values, w_k for each iteration in iteration order.
    Iteration q's `body(builder, slices)` gets each field's q-th slice of w_k values and returns
    their replacements (the same values where it changes none); each field is carried rotated by
    one slice, so after the loop it is back in order: returns the fields' final values (slice q
    replaced by what iteration q returned)."""
    const = const or b.const
    widths = [len(f) // n for f in fields]
    assert all(w * n == len(f) and w for w, f in zip(widths, fields)), "every field: w values per iteration"
    inits = [v for f in fields for v in f]
    blk = Block(arg_types=[i32] + [v.type for v in inits])
    blk.args[0].name_hint = name
    args, at = [], 1
    for f in fields:
        args.append(list(blk.args[at:at + len(f)]))
        at += len(f)
    ib = ArithBuilder(InsertPoint.at_end(blk))
    new = body(ib, [a[:w] for a, w in zip(args, widths)])
    ib.insert(scf.YieldOp(*(v for a, w, x in zip(args, widths, new) for v in a[w:] + list(x))))
    loop = scf.ForOp(const(0), const(n), const(1), inits, Region(blk))
    loop.attributes[UNROLL_FULL_ATTR] = UnitAttr()
    b.insert(loop)
    out, at = [], 0
    for f in fields:
        out.append(list(loop.results[at:at + len(f)]))
        at += len(f)
    return out


def rolled_pairs(b: ArithBuilder, pairs: Sequence[tuple[int, int, Sequence[int]]], acc: Sequence[SSAValue],
                 body: Callable[[ArithBuilder, list[SSAValue], SSAValue, SSAValue], None]) -> None:
    """rolled_loop over `pairs` (row, column, accumulator indices): iteration q calls
    `body(builder, [acc[i] for i in pairs[q][2]], row_q, col_q)` with row_q, col_q the i32 values
    pairs[q][0], pairs[q][1]: `body` emits the code of one pair, as the unrolled caller does."""
    consts: dict[int, SSAValue] = {}

    def const(x: int) -> SSAValue:
        if x not in consts:
            consts[x] = b.const(x)
        return consts[x]

    fields = [[acc[i] for _, _, ix in pairs for i in ix], [const(r) for r, _, _ in pairs],
              [const(c) for _, c, _ in pairs]]

    def step(ib: ArithBuilder, s: list[list[SSAValue]]) -> list[list[SSAValue]]:
        body(ib, s[0], s[1][0], s[2][0])
        return s
    rolled_loop(b, len(pairs), fields, step, "pair", const)
