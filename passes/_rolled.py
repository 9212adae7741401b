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

A fused epilogue is rolled by columns, then rows (`rolled_columns`, two nested loops): an
iteration of the outer loop reads the column's [n] extras once, as the unrolled code read them once
per column (predicated loads are not merged by LLVM: a loop over single pairs would read them once
per pair), and its inner loop stores the column's pairs; the [m] extras, the same rows in every
column, are read ahead of both loops and carried by the inner one (lasscc-warp-mma).
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


def rolled_columns(b: ArithBuilder, pairs: Sequence[tuple[int, int, Sequence[int]]], acc: Sequence[SSAValue],
                   column: Callable[[ArithBuilder, SSAValue], object],
                   pair: Callable[..., None], row_fields: Sequence[Sequence[SSAValue]] = ()) -> None:
    """Two nested rolled loops over `pairs` (row, column, accumulator indices; every column has
    the same rows, the fragment grid's): `scf.for column` over the columns (in the order the pairs
    first name them), whose iteration q calls `column(builder, col_q)` (col_q the i32 value of
    the column: e.g. to read the column's values once) and then runs `scf.for row` over the rows
    (ascending), whose iteration r calls `pair(builder, ctx, [acc[i] for i in pair's indices],
    row_r, col_q, *slices)`: ctx what `column` returned, row_r the row's i32 value, `slices` row
    r's value of each of `row_fields` (a field: one value per row, e.g. a row's extras read ahead)."""
    by_col: dict[int, list[tuple[int, Sequence[int]]]] = {}
    for r, c, ix in pairs:
        by_col.setdefault(c, []).append((r, ix))
    cols = list(by_col)
    rows = sorted(r for r, _ in by_col[cols[0]])
    assert all(sorted(r for r, _ in g) == rows for g in by_col.values()), "every column has the same rows"
    for g in by_col.values():
        g.sort(key=lambda p: p[0])
    assert all(len(f) == len(rows) for f in row_fields), "a row field: one value per row"
    consts: dict[int, SSAValue] = {}

    def const(x: int) -> SSAValue:
        if x not in consts:
            consts[x] = b.const(x)
        return consts[x]

    row_vals = [const(r) for r in rows]
    fields = [[acc[i] for c in cols for _, ix in by_col[c] for i in ix], [const(c) for c in cols]]

    def one_column(ib: ArithBuilder, s: list[list[SSAValue]]) -> list[list[SSAValue]]:
        col_q = s[1][0]
        ctx = column(ib, col_q)

        def one_row(jb: ArithBuilder, t: list[list[SSAValue]]) -> list[list[SSAValue]]:
            pair(jb, ctx, t[0], t[1][0], col_q, *(x[0] for x in t[2:]))
            return t
        rolled_loop(ib, len(rows), [s[0], row_vals, *row_fields], one_row, "row", const)
        return s
    rolled_loop(b, len(cols), fields, one_column, "column", const)
