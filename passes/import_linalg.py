"""lasscc-import-linalg: upstream `linalg.matmul` on memrefs -> `lass.gemm`.

Input contract: `linalg.matmul ins(%a, %b : memref<MxK>, memref<KxN>) outs(%c : memref<MxN>)` as
MLIR tools write it.  linalg.matmul accumulates into its output (C += A.B), so it becomes
`lass.gemm {alpha = 1.0, beta = 1.0}` with the default tiling config (the CLI's --threadblock /
--warp / --stages override it afterwards).  Layouts travel in the memref types, so a
column-major B (`strided<[1, ?]>`) is the "transposed operand" form lasscc runs natively.
Any operand may be row- or column-major (A `memref<?x?xf16, strided<[1, ?]>>` is a column-major A).
Transposed operands through `indexing_maps` are accepted in the form xDSL 0.74 parses, the
attribute dictionary in front: `linalg.matmul {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
...]} ins(...)` (A given K x M); upstream's bare `indexing_maps = [...]` syntax makes xDSL 0.74's
parser fail (reported at the op).  A transposed operand must be a function argument used only by
the matmul: its type is rewritten to the M x K (K x N, M x N) view of the same memory with the
other layout (row-major K x M == column-major M x K), so the maps become the default ones.
Everything else (including IR without linalg.matmul) is left alone; lasscc-tile-threadblock
checks the layouts and element types and names the place when it cannot handle them.

Rejected: a linalg.matmul on tensors (expected memrefs), indexing maps other than the default
ones with any of A, B, C transposed, a transposed operand that is not a function argument used
only by the matmul.
"""

from __future__ import annotations

from dataclasses import dataclass

from lasscc.dialects.lass import GemmOp
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp, NoneAttr, StridedLayoutAttr
from xdsl.ir import BlockArgument
from xdsl.dialects.linalg.ops import MatmulOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import PassFailedException

from lasscc.locations import move_location, op_location

DEFAULT_MAPS = ["(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)", "(d0, d1, d2) -> (d0, d1)"]
# the same operands given transposed (A as K x M, B as N x K, C as N x M)
TRANSPOSED_MAPS = ["(d0, d1, d2) -> (d2, d0)", "(d0, d1, d2) -> (d1, d2)", "(d0, d1, d2) -> (d1, d0)"]


def _operand_views(mm: MatmulOp) -> list[bool] | None:
    """Which of A, B, C the indexing maps give transposed; None for maps lasscc does not read."""
    maps = mm.properties.get("indexing_maps") or mm.attributes.get("indexing_maps")
    if maps is None:
        return [False, False, False]
    got = [str(m.data) for m in maps.data]
    if len(got) != 3:
        return None
    out = []
    for g, plain, trans in zip(got, DEFAULT_MAPS, TRANSPOSED_MAPS):
        if g not in (plain, trans):
            return None
        out.append(g == trans)
    return out


def transposed_type(t: MemRefType) -> MemRefType:
    """The 2-d memref type of the transpose of `t`'s matrix, on the same memory: shape swapped,
    row-major <-> column-major (strided<[1, ?]>)."""
    rows, cols = t.get_shape()
    layout = t.layout
    is_row = layout is None or isinstance(layout, NoneAttr) or (
        isinstance(layout, StridedLayoutAttr) and layout.get_strides()[-1] == 1)
    new_layout = StridedLayoutAttr([1, None]) if is_row else NoneAttr()
    return MemRefType(t.get_element_type(), [cols, rows], new_layout)


def _convert(v, to):
    """`v` converted to type `to` the way upstream linalg.matmul's body does (cast_signed: signed
    integers; a narrower output truncates), or None when it already has that type."""
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import IntegerType

    if v.type == to:
        return None
    src_int, dst_int = isinstance(v.type, IntegerType), isinstance(to, IntegerType)
    if src_int != dst_int:
        return arith.SIToFPOp(v, to) if src_int else arith.FPToSIOp(v, to)
    narrower = to.bitwidth < v.type.bitwidth
    if src_int:
        return arith.TruncIOp(v, to) if narrower else arith.ExtSIOp(v, to)
    return arith.TruncFOp(v, to) if narrower else arith.ExtFOp(v, to)


def repair_mixed_precision_body(mm: MatmulOp) -> None:
    """Give a mixed-precision linalg.matmul (f16 x f16 -> f32, i8 x i8 -> i32 or f32) the body
    upstream MLIR prints.

    xDSL 0.74 builds the implicit body of `linalg.matmul` from the input element type alone
    (`mulf f16; addf (f16, f32) -> f16`, `muli i8; addi (i8, i32)`), which does not verify when the
    output is wider; upstream MLIR converts the inputs to the output type first (extf for floats,
    extsi / sitofp for signed integers).  The body is only a description of the semantics, which
    lasscc takes from the op itself, so it is rebuilt as `convert, convert, mul, add, yield` with
    the integer or float arithmetic of the output type.
    """
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import IntegerType
    from xdsl.dialects.linalg.ops import YieldOp
    from xdsl.ir import Block

    body = mm.body.block
    types = [a.type for a in body.args]
    if len(types) != 3 or types[0] == types[1] == types[2]:
        return
    out_t = types[2]
    new = Block(arg_types=types)
    convs = [_convert(new.args[i], out_t) for i in (0, 1)]
    lhs, rhs = (c.result if c is not None else new.args[i] for i, c in enumerate(convs))
    mul_op, add_op = (arith.MuliOp, arith.AddiOp) if isinstance(out_t, IntegerType) else (arith.MulfOp, arith.AddfOp)
    mul = mul_op(lhs, rhs)
    add = add_op(new.args[2], mul.result)
    new.add_ops([*(c for c in convs if c is not None), mul, add, YieldOp(add.result)])
    mm.body.insert_block_before(new, body)
    for o in reversed(list(body.ops)):
        o.detach()
        o.erase(safe_erase=False)
    mm.body.detach_block(body)


def matmul_operand_types(mm: MatmulOp) -> list[MemRefType] | None:
    """The memref types of A (M x K), B (K x N), C of a linalg.matmul (see _operand_views); None
    when it is not on memrefs or its maps are not ones lasscc reads."""
    operands = [*mm.inputs, *mm.outputs]
    if len(operands) != 3 or not all(isinstance(v.type, MemRefType) for v in operands):
        return None
    views = _operand_views(mm)
    if views is None:
        return None
    return [transposed_type(v.type) if t else v.type for v, t in zip(operands, views)]


@dataclass(frozen=True)
class ImportLinalgPass(ModulePass):
    name = "lasscc-import-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for mm in [o for o in op.walk() if isinstance(o, MatmulOp)]:
            where = op_location(mm)
            operands = [*mm.inputs, *mm.outputs]
            if len(operands) != 3 or not all(isinstance(v.type, MemRefType) for v in operands):
                raise PassFailedException(
                    f"{where}: error: expected linalg.matmul on three memrefs (bufferized), got "
                    f"{', '.join(str(v.type) for v in operands)}"
                )
            views = _operand_views(mm)
            if views is None:
                maps = mm.properties.get("indexing_maps") or mm.attributes.get("indexing_maps")
                raise PassFailedException(
                    f"{where}: error: expected the default linalg.matmul indexing maps, with A, B or C at most "
                    f"transposed ({', '.join(TRANSPOSED_MAPS)}), got {', '.join(str(m.data) for m in maps.data)}"
                )
            for name, v, transposed in zip("ABC", operands, views):
                if transposed:
                    self._transpose_argument(mm, name, v, where)
            operands = [*mm.inputs, *mm.outputs]  # the retyped arguments
            gemm = GemmOp(*operands, alpha=1.0, beta=1.0)
            Rewriter.replace_op(mm, gemm)
            move_location(mm, gemm)

    @staticmethod
    def _transpose_argument(mm: MatmulOp, name: str, v, where: str) -> None:
        """Give function argument `v` the type of its transpose (see the module docstring)."""
        fn = mm.parent_op()
        if not (isinstance(v, BlockArgument) and isinstance(fn, func.FuncOp) and v.block is fn.body.block
                and len(list(v.uses)) == 1 and v.type.get_num_dims() == 2):
            raise PassFailedException(
                f"{where}: error: expected the transposed {name} (indexing_maps) to be a 2-d function argument "
                "used only by this linalg.matmul (its type is rewritten to the transposed view)"
            )
        Rewriter.replace_value_with_new_type(v, transposed_type(v.type))
        fn.function_type = func.FunctionType.from_lists(list(fn.body.block.arg_types), list(fn.function_type.outputs))
