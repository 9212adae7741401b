"""What lasscc reads from an upstream `linalg.matmul` on memrefs: the indexing maps it accepts
(each of A, B, C plain or transposed), the operand types those maps give, and the body xDSL builds
for mixed precision.  The parser (lasscc.source), the driver and the CLI read inputs with these;
lasscc-import-linalg rewrites the op into `lass.gemm` with them."""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType, NoneAttr, StridedLayoutAttr
from xdsl.dialects.linalg.ops import MatmulOp

DEFAULT_MAPS = ["(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)", "(d0, d1, d2) -> (d0, d1)"]
# the same operands given transposed (A as K x M, B as N x K, C as N x M)
TRANSPOSED_MAPS = ["(d0, d1, d2) -> (d2, d0)", "(d0, d1, d2) -> (d1, d2)", "(d0, d1, d2) -> (d1, d0)"]


def operand_views(mm: MatmulOp) -> list[bool] | None:
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
    """The memref types of A (M x K), B (K x N), C of a linalg.matmul (see operand_views); None
    when it is not on memrefs or its maps are not ones lasscc reads."""
    operands = [*mm.inputs, *mm.outputs]
    if len(operands) != 3 or not all(isinstance(v.type, MemRefType) for v in operands):
        return None
    views = operand_views(mm)
    if views is None:
        return None
    return [transposed_type(v.type) if t else v.type for v, t in zip(operands, views)]
