"""lasscc-import-linalg: upstream `linalg.matmul` on memrefs -> `lass.gemm`.

Input contract: `linalg.matmul ins(%a, %b : memref<MxK>, memref<KxN>) outs(%c : memref<MxN>)` as
MLIR tools write it.  linalg.matmul accumulates into its output (C += A.B), so it becomes
`lass.gemm {alpha = 1.0, beta = 1.0}` with the default tiling config (the CLI's --threadblock /
--warp / --stages override it afterwards).  Layouts travel in the memref types, so a
column-major B (`strided<[1, ?]>`) is the "transposed operand" form lasscc runs natively.
Everything else (including IR without linalg.matmul) is left alone; lasscc-tile-threadblock
checks the layouts and element types and names the place when it cannot handle them.

Rejected: a linalg.matmul on tensors (expected memrefs), or with a non-default indexing map.
"""

from __future__ import annotations

from dataclasses import dataclass

from lasscc.dialects.lass import GemmOp
from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.dialects.linalg.ops import MatmulOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import PassFailedException

from lasscc.source import move_location, op_location

DEFAULT_MAPS = ["(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)", "(d0, d1, d2) -> (d0, d1)"]


def repair_mixed_precision_body(mm: MatmulOp) -> None:
    """Give a mixed-precision linalg.matmul (f16 x f16 -> f32) the body upstream MLIR prints.

    xDSL 0.74 builds the implicit body of `linalg.matmul` from the input element type alone
    (`mulf f16; addf (f16, f32) -> f16`), which does not verify when the output is wider; upstream
    MLIR extends the inputs first.  The body is only a description of the semantics, which
    lasscc takes from the op itself, so it is rebuilt as `extf, extf, mulf, addf, yield`.
    """
    from xdsl.dialects import arith
    from xdsl.dialects.linalg.ops import YieldOp
    from xdsl.ir import Block

    body = mm.body.block
    types = [a.type for a in body.args]
    if len(types) != 3 or types[0] == types[2]:
        return
    out_t = types[2]
    new = Block(arg_types=types)
    a, b = (arith.ExtFOp(new.args[i], out_t) if types[i] != out_t else None for i in (0, 1))
    ops = [o for o in (a, b) if o is not None]
    lhs = a.result if a is not None else new.args[0]
    rhs = b.result if b is not None else new.args[1]
    mul = arith.MulfOp(lhs, rhs)
    add = arith.AddfOp(new.args[2], mul.result)
    new.add_ops([*ops, mul, add, YieldOp(add.result)])
    mm.body.insert_block_before(new, body)
    for o in reversed(list(body.ops)):
        o.detach()
        o.erase(safe_erase=False)
    mm.body.detach_block(body)


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
            maps = mm.properties.get("indexing_maps") or mm.attributes.get("indexing_maps")
            if maps is not None and [str(m.data) for m in maps.data] != DEFAULT_MAPS:
                raise PassFailedException(
                    f"{where}: error: expected the default linalg.matmul indexing maps; express a "
                    "transposed operand through its memref layout (e.g. strided<[1, ?]>)"
                )
            gemm = GemmOp(*operands, alpha=1.0, beta=1.0)
            Rewriter.replace_op(mm, gemm)
            move_location(mm, gemm)
