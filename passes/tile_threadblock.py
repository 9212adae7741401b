"""lasscc-tile-threadblock: `lass.gemm` -> a kernel of threadblock-level `lass_tb` ops.

Input contract: a `func.func` whose body is one `lass.gemm` on the function's three memref
arguments (A M x K and B K x N, each row- or column-major; D M x N row- or column-major) and
`func.return`.  Functions without `lass.gemm` are left alone.  Element types (INPUT_TYPES; A and B
alike) with the accumulator (`acc`) and D types each allows:
    f16  acc f32: D f32 or f16      acc f16: D f16 or f32  (mma m16n8k16 .f16 accumulators)
    bf16 acc f32: D f32 or bf16
    f32  acc f32: D f32            (multiplied as tf32, mma m16n8k8)
    i8   acc i32: D i32 or f32     (s8, mma m16n8k32)
every type in every layout of A and B (NN, NT, TN, TT; the MN-major tf32 and s8 fragments are
loaded by lasscc-swizzle-smem without ldmatrix .trans, see there).
A `config` without `instruction` gets the type's mma.sync shape.  `align = [a, b]` (elements per
global copy access of A and B, CUTLASS's AlignmentA/B; absent: 16 bytes) must be powers of two of
at most 16 bytes (GemmConfig.validate); with a column-major D the kernel's A is the caller's B, so
the kernel's config holds them swapped.

Output contract: the function becomes the kernel, with the fixed parameter list
`(A, B, D, M: i32, N: i32, K: i32, alpha: f32, beta: f32)` and one attribute, `lass.kernel =
#lass.kernel<...>` (lass.KernelAttr: the A/B, accumulator and D types, the caller's layouts of A,
B and D, batched, the op's alpha / beta for `lasscc run`, the whole validated tiling config in the
kernel's operand order).  Its body: `lass_tb.block_tile` (rasterized tile origin), an `scf.for` over K
in steps of BK carrying a `!lass_tb.acc`, with `lass_tb.load_tile` for A and B and `lass_tb.mma`
inside, then `lass_tb.epilogue`.  Each tile is stored the way its operand is contiguous
(`!lass_tb.tile<..., mn>` for a column-major A or a row-major B: lass.operand_major).

Rejected (PassFailedException naming file:line:col): other element types, a layout that is
neither row- nor column-major, a config that
fails GemmConfig.validate, a `lass.gemm` not on the function's arguments.
"""

from __future__ import annotations

from dataclasses import dataclass

from lasscc.dialects import lass, lass_tb
from lasscc.dialects.lass import config_from_attr
from lasscc.passes._build import ArithBuilder
from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StridedLayoutAttr,
    f32,
    i32,
)
from xdsl.ir import Block, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException

from lasscc.config import default_config
from lasscc.diagnostics import LassError
from lasscc.source import op_location

INPUT_TYPES = ("f16", "bf16", "f32", "i8")  # lasscc.layout.MMA_INPUTS: the mma.sync of each
D_TYPES = lass.D_TYPES


def _check_operands(op: lass.GemmOp, where: str) -> None:
    ta, tb, td = op.a.type, op.b.type, op.d.type
    et, dt = str(ta.get_element_type()), str(td.get_element_type())
    if et not in INPUT_TYPES:
        raise PassFailedException(
            f"{where}: error: expected f16, bf16, f32 (tf32) or i8 A and B, got {et}"
        )
    acc = str(op.acc_type)
    allowed = D_TYPES.get((et, acc), ())
    if dt not in allowed:
        raise PassFailedException(
            f"{where}: error: expected {' or '.join(allowed)} D for {et} A and B with {acc} accumulation, got {dt}"
        )
    for name, t in (("A", ta), ("B", tb), ("D", td)):
        if lass.memref_layout(t) not in ("row", "col"):
            raise PassFailedException(
                f"{where}: error: expected {name} row-major (identity layout) or column-major (strided<[1, ?]>), "
                f"got {t.layout}"
            )


def _kernel_types(facts: lass.KernelFacts, g: lass.GemmOp) -> tuple[MemRefType, MemRefType, MemRefType]:
    """The kernel's A, B and D memref types: the op's, or for a column-major D (D^T = B^T . A^T)
    A and B in facts.kernel_layouts (B^T is N x K and A^T K x M, each in the other layout, a
    transpose of the same memory) and D row-major (D^T is N x M), batch first if any."""
    if not facts.swap_ab:
        return g.a.type, g.b.type, g.d.type
    elem, d_elem = g.a.type.get_element_type(), g.d.type.get_element_type()
    dyn = [DYNAMIC_INDEX] * (3 if facts.batched else 2)
    col = StridedLayoutAttr([None, 1, None] if facts.batched else [1, None])
    a, b = (MemRefType(elem, dyn, col) if layout == "col" else MemRefType(elem, dyn) for layout in facts.kernel_layouts)
    return a, b, MemRefType(d_elem, dyn)


@dataclass(frozen=True)
class TileThreadblockPass(ModulePass):
    name = "lasscc-tile-threadblock"
    arch: str = "sm_80"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in list(op.walk()):
            if isinstance(fn, func.FuncOp):
                gemms = [o for o in fn.walk() if isinstance(o, lass.GemmOp)]
                if gemms:
                    self._tile(fn, gemms)

    def _tile(self, fn: func.FuncOp, gemms: list[lass.GemmOp]) -> None:
        g = gemms[0]
        where = op_location(g)
        if len(gemms) != 1:
            raise PassFailedException(f"{op_location(gemms[1])}: error: expected one lass.gemm per function, got {len(gemms)}")
        args = fn.body.block.args
        if tuple(g.operands) != tuple(args[:3]) or len(args) != 3:
            raise PassFailedException(
                f"{where}: error: expected lass.gemm on the function's three arguments (A, B, D) in order"
            )
        others = [o for o in fn.body.block.ops if o is not g and not isinstance(o, func.ReturnOp)]
        if others:
            raise PassFailedException(f"{op_location(others[0])}: error: expected only lass.gemm and func.return in the function, got '{others[0].name}'")
        _check_operands(g, where)
        ab = str(g.a.type.get_element_type())
        try:
            facts = lass.KernelFacts.of_gemm(g, config_from_attr(g.config, default_config(ab)))
            facts.validate(self.arch, f"{where}: error: config")
        except ValueError as e:
            raise PassFailedException(f"{where}: error: {e}") from None
        except LassError as e:
            raise PassFailedException(str(e)) from None

        # Column-major D: compute D^T = B^T . A^T, a row-major product with the operands (and M, N)
        # swapped (KernelFacts.swap_ab); the launcher passes (B, A, D, N, M, K).  The config's
        # access widths follow their operands into the kernel's order (facts.config).
        cfg = facts.config
        bm, bn, bk = cfg.threadblock
        elem = g.a.type.get_element_type()
        a_t, b_t, d_t = _kernel_types(facts, g)
        acc_t = lass_tb.AccType((bm, bn), g.acc_type)

        # New kernel body on the fixed parameter list.
        block = Block(arg_types=[a_t, b_t, d_t, i32, i32, i32, f32, f32])
        A, B, D, M, N, K, alpha, beta = block.args
        for arg, name in zip(block.args, ("A", "B", "D", "M", "N", "K", "alpha", "beta")):
            arg.name_hint = name
        b = ArithBuilder(InsertPoint.at_end(block))
        if facts.batched:
            # one batch per grid z index; the matrices of a batch are views of the packed operands
            z = b.emit(lass_tb.BatchIndexOp.build(result_types=[i32]))
            z.name_hint = "batch"
            A, B, D = (b.emit(lass_tb.BatchViewOp(v, z, b.mul(x, y)))
                       for v, (x, y) in zip((A, B, D), ((M, K), (N, K), (M, N))))
            A.name_hint, B.name_hint, D.name_hint = "A_b", "B_b", "D_b"
        tile_op = b.insert(
            lass_tb.BlockTileOp.build(
                operands=[M, N],
                result_types=[i32, i32],
                attributes={
                    "tile": ArrayAttr([IntegerAttr(bm, 64), IntegerAttr(bn, 64)]),
                    "raster": IntegerAttr(cfg.raster, 64),
                },
            )
        )
        m0, n0 = tile_op.results
        m0.name_hint, n0.name_hint = "m0", "n0"
        acc0 = b.emit(lass_tb.ZeroAccOp.build(result_types=[acc_t]))
        c0, step = b.const(0), b.const(bk)

        body = Block(arg_types=[i32, acc_t])
        k0, acc = body.args
        k0.name_hint, acc.name_hint = "k0", "acc"
        bb = ArithBuilder(InsertPoint.at_end(body))
        # each tile is stored the way its operand is contiguous in global memory (K- or MN-major)
        tile_a_t = lass_tb.TileType((bm, bk), elem, lass.operand_major(a_t, "A"))
        tile_b_t = lass_tb.TileType((bn, bk), elem, lass.operand_major(b_t, "B"))
        ta = bb.emit(lass_tb.LoadTileOp.build(operands=[A, m0, k0], result_types=[tile_a_t],
                                           properties={"operand": lass.operand_attr("A")}))
        tb_ = bb.emit(lass_tb.LoadTileOp.build(operands=[B, n0, k0], result_types=[tile_b_t],
                                            properties={"operand": lass.operand_attr("B")}))
        acc1 = bb.emit(lass_tb.MmaOp(ta, tb_, acc))
        bb.insert(scf.YieldOp(acc1))
        loop = b.insert(scf.ForOp(c0, K, step, [acc0], Region(body)))
        b.insert(lass_tb.EpilogueOp.build(operands=[loop.results[0], D, m0, n0, alpha, beta]))
        b.insert(func.ReturnOp())

        old = fn.body.blocks[0]
        fn.body.insert_block_before(block, old)
        old_ops = list(old.ops)
        for o in reversed(old_ops):
            o.detach()
            o.erase(safe_erase=False)
        fn.body.detach_block(old)
        fn.function_type = func.FunctionType.from_lists(list(block.arg_types), [])
        fn.attributes[lass.KERNEL_ATTR] = lass.KernelAttr.from_facts(facts)
