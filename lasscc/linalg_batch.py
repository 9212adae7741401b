"""`linalg.batch_matmul`, which xDSL 0.74's linalg dialect lacks: upstream's named op
(D[b] += A[b] . B[b] on 3-d batch-first operands), parsed and printed like xDSL's linalg.matmul
(`linalg.batch_matmul ins(%a, %b : ...) outs(%d : ...)`, the mul-add body hidden).  Loaded into
every context (lasscc.universe.make_context); lasscc-import-linalg turns it into a batched lass.gemm."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr
from xdsl.dialects.linalg.ops import IteratorTypeAttr, MatmulOp, NamedOperation
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_op_definition, prop_def


@irdl_op_definition
class BatchMatmulOp(NamedOperation):
    """linalg.batch_matmul: (b, i, j, k) -> A (b, i, k), B (b, k, j), D (b, i, j) (upstream's default maps)."""

    name = "linalg.batch_matmul"
    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True
    indexing_maps = prop_def(
        ArrayAttr[AffineMapAttr],
        default_value=ArrayAttr([
            AffineMapAttr(AffineMap.from_callable(lambda b, i, _, k: (b, i, k))),
            AffineMapAttr(AffineMap.from_callable(lambda b, _, j, k: (b, k, j))),
            AffineMapAttr(AffineMap.from_callable(lambda b, i, j, _: (b, i, j))),
        ]),
    )

    # the rest as linalg.matmul's: the constructor, the hidden mul-add body and the map accessors
    def __init__(self, inputs, outputs=(), res=None, attributes=None):
        MatmulOp.__init__(self, inputs, outputs, res, attributes)

    @classmethod
    def get_hidden_region(cls, inputs, outputs):
        return MatmulOp.get_hidden_region.__func__(cls, inputs, outputs)

    def get_default_indexing_maps(self):
        return tuple(m.data for m in self.indexing_maps.data)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr.parallel()] * 3 + [IteratorTypeAttr.reduction()])


DEFAULT_MAPS = tuple(str(m.data) for m in BatchMatmulOp.get_irdl_definition().properties["indexing_maps"].default_value.data)
