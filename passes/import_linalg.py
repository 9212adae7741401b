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
`linalg.batch_matmul` (lasscc.linalg_batch: D[b] += A[b] . B[b], 3-d batch-first memrefs, each
matrix row- or column-major through its strides) becomes the batched `lass.gemm {alpha = 1.0,
beta = 1.0}` on the same memrefs; only its default indexing maps are accepted.
Everything else (including IR without linalg.matmul) is left alone; lasscc-tile-threadblock
checks the layouts and element types and names the place when it cannot handle them.

Rejected: a linalg.matmul or linalg.batch_matmul on tensors (expected memrefs), a batch_matmul on
operands that are not 3-d or with other indexing maps, indexing maps other than the default
ones with any of A, B, C transposed, a transposed operand that is not a function argument used
only by the matmul.
"""

from __future__ import annotations

from dataclasses import dataclass

from lasscc.dialects.lass import GemmOp
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import BlockArgument
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import PassFailedException

from lasscc.locations import move_location, op_location
from lasscc.universe import linalg_loaded


@dataclass(frozen=True)
class ImportLinalgPass(ModulePass):
    name = "lasscc-import-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not linalg_loaded():  # no linalg op in any IR: nothing to import (nor xDSL's linalg to load)
            return None
        from xdsl.dialects.linalg.ops import MatmulOp

        from lasscc.linalg import TRANSPOSED_MAPS, operand_views
        from lasscc.linalg_batch import BatchMatmulOp

        for bm in [o for o in op.walk() if isinstance(o, BatchMatmulOp)]:
            self._import_batch(bm)
        for mm in [o for o in op.walk() if isinstance(o, MatmulOp)]:
            where = op_location(mm)
            operands = [*mm.inputs, *mm.outputs]
            if len(operands) != 3 or not all(isinstance(v.type, MemRefType) for v in operands):
                raise PassFailedException(
                    f"{where}: error: expected linalg.matmul on three memrefs (bufferized), got "
                    f"{', '.join(str(v.type) for v in operands)}"
                )
            views = operand_views(mm)
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
    def _import_batch(bm: BatchMatmulOp) -> None:
        from lasscc.linalg_batch import DEFAULT_MAPS as BATCH_MAPS

        where = op_location(bm)
        operands = [*bm.inputs, *bm.outputs]
        if len(operands) != 3 or not all(isinstance(v.type, MemRefType) and v.type.get_num_dims() == 3
                                         for v in operands):
            raise PassFailedException(
                f"{where}: error: expected linalg.batch_matmul on three 3-d memrefs (bufferized, batch first), got "
                f"{', '.join(str(v.type) for v in operands)}")
        maps = tuple(str(m.data) for m in bm.get_indexing_maps().data)
        if maps != BATCH_MAPS:
            raise PassFailedException(
                f"{where}: error: expected the default linalg.batch_matmul indexing maps ({', '.join(BATCH_MAPS)}), "
                f"got {', '.join(maps)}")
        gemm = GemmOp(*operands, alpha=1.0, beta=1.0)
        Rewriter.replace_op(bm, gemm)
        move_location(bm, gemm)

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
        from lasscc.linalg import transposed_type

        Rewriter.replace_value_with_new_type(v, transposed_type(v.type))
        fn.function_type = func.FunctionType.from_lists(list(fn.body.block.arg_types), list(fn.function_type.outputs))
