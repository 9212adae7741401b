"""`lass_tb`: the threadblock level (output of `lasscc-tile-threadblock`).

One threadblock computes one `tile[0] x tile[1]` block of D.  Values of `!lass_tb.tile` are
shared-memory tiles of logical shape `rows x BK`, element (r, k) is operand row r (M for A, N for
B) and reduction index k; stored K-major, or MN-major (`!lass_tb.tile<128x32xf16, mn>`) when the
operand is contiguous along M or N (a column-major A, a row-major B).  `!lass_tb.acc` is the block's
accumulator (f32; f16 for f16 tiles with `lass.gemm {acc = f16}`; i32 for i8 tiles).
Nothing here says how threads share the work: that is the warp level's job.

    %m0, %n0 = lass_tb.block_tile %M, %N {tile = [128, 128], raster = 8}
    %acc0 = lass_tb.zero_acc : !lass_tb.acc<128x128xf32>
    %r = scf.for %k0 = %c0 to %K step %c32 iter_args(%acc = %acc0) -> (!lass_tb.acc<128x128xf32>) : i32 {
      %ta = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16> -> !lass_tb.tile<128x32xf16>
      %tb = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<128x32xf16>
      %acc1 = lass_tb.mma %ta, %tb, %acc : !lass_tb.tile<128x32xf16>, !lass_tb.tile<128x32xf16>, !lass_tb.acc<128x128xf32>
      scf.yield %acc1 : !lass_tb.acc<128x128xf32>
    }
    lass_tb.epilogue %r, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<128x128xf32>, memref<?x?xf32>
"""

from __future__ import annotations

from typing import ClassVar

from lasscc.dialects._common import MajorTileBase, ShapedTileBase, check_major, int_list
from lasscc.dialects.lass import OperandAttr
from xdsl.dialects.builtin import (
    ArrayAttr,
    IntAttr,
    IntegerAttr,
    MemRefType,
    StridedLayoutAttr,
    StringAttr,
    f32,
    i32,
)
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    attr_def,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    opt_region_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException


@irdl_attr_definition
class TileType(MajorTileBase):
    """A shared-memory tile `rows x BK` of the A or B operand, element (r, k) = operand row r,
    reduction index k; stored K-major (`<128x32xf16>`) or MN-major (`<128x32xf16, mn>`: BK lines
    of contiguous M or N elements, for a column-major A or a row-major B)."""

    name = "lass_tb.tile"
    # re-declared so the generated __eq__/__hash__ compare them (a base class's fields are not)
    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    major: StringAttr


@irdl_attr_definition
class AccType(ShapedTileBase):
    """The threadblock accumulator `BM x BN` (f32, f16 or i32: lass.ACC_TYPES)."""

    name = "lass_tb.acc"
    # re-declared so the generated __eq__/__hash__ compare them (a base class's fields are not)
    shape: ArrayAttr[IntAttr]
    element_type: Attribute


@irdl_op_definition
class BlockTileOp(IRDLOperation):
    """Origin (m0, n0) in D of this threadblock's tile, from the linear block id.

    Grouped rasterization (lasscc.layout.raster_tile): `raster` tile rows are walked together so
    that concurrently running blocks share A and B panels in L2.  The grid is 1-d:
    ceil(M/tile[0]) * ceil(N/tile[1]) blocks.
    """

    name = "lass_tb.block_tile"
    traits = traits_def(Pure())
    M = operand_def(i32)
    N = operand_def(i32)
    m0 = result_def(i32)
    n0 = result_def(i32)
    tile = attr_def(ArrayAttr)
    raster = attr_def(IntegerAttr)
    assembly_format = "$M `,` $N attr-dict"

    def verify_(self) -> None:
        t = int_list(self.tile)
        if len(t) != 2 or min(t) <= 0:
            raise VerifyException(f"expected tile = [BM, BN] with positive sizes, got {t}")
        if self.raster.value.data < 1:
            raise VerifyException(f"expected raster >= 1, got {self.raster.value.data}")


@irdl_op_definition
class ZeroAccOp(IRDLOperation):
    """A zero accumulator."""

    name = "lass_tb.zero_acc"
    traits = traits_def(Pure())
    result = result_def(AccType)
    assembly_format = "attr-dict `:` type($result)"


@irdl_op_definition
class LoadTileOp(IRDLOperation):
    """Copy the operand tile starting at (row0, k0) from global to shared memory.

    For A (M x K) tile[r, k] = A[row0 + r, k0 + k]; for B (K x N) tile[r, k] = B[k0 + k, row0 + r].
    `operand` says which.  The tile is stored the way the source is contiguous: K-major for a
    row-major A or column-major B, MN-major for a column-major A or row-major B.
    """

    name = "lass_tb.load_tile"
    traits = traits_def(MemoryReadEffect())
    source = operand_def(MemRefType)
    row0 = operand_def(i32)
    k0 = operand_def(i32)
    result = result_def(TileType)
    operand = prop_def(OperandAttr)
    assembly_format = "$operand $source `[` $row0 `,` $k0 `]` attr-dict `:` type($source) `->` type($result)"

    def verify_(self) -> None:
        if self.source.type.get_element_type() != self.result.type.element_type:
            raise VerifyException(
                f"expected tile element type {self.source.type.get_element_type()}, got {self.result.type.element_type}"
            )
        check_major(self.result.type, self.source.type, self.operand.data, "tile")


def _verify_acc_elem(ta, tb, tacc) -> None:
    """Tiles of one element type, and an accumulator type the mma.sync offers for it."""
    from lasscc.dialects.lass import ACC_TYPES

    if ta != tb:
        raise VerifyException(f"expected A and B tiles of one element type, got {ta} and {tb}")
    allowed = ACC_TYPES.get(str(ta))
    if allowed is not None and str(tacc) not in allowed:
        raise VerifyException(f"expected a {' or '.join(allowed)} accumulator for {ta} tiles, got {tacc}")


@irdl_op_definition
class MmaOp(IRDLOperation):
    """acc + a . b^T on K-major tiles: result[m, n] = acc[m, n] + sum_k a[m, k] * b[n, k].

    The numerics are the mma.sync's of the tile types: f16/bf16 -> f32 exact products, f32 sums;
    f32 tiles are rounded to tf32 (round to nearest, ties away) first; f16 -> f16 adds each k16
    step's exact sum to the accumulator rounded to f16; i8 -> i32 is exact (saturating).
    """

    name = "lass_tb.mma"
    traits = traits_def(Pure())
    a = operand_def(TileType)
    b = operand_def(TileType)
    ACC: ClassVar = VarConstraint("ACC", base(AccType))
    acc = operand_def(ACC)
    result = result_def(ACC)
    assembly_format = "$a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `,` type($acc)"

    def __init__(self, a, b, acc):
        super().__init__(operands=[a, b, acc], result_types=[acc.type])

    def verify_(self) -> None:
        (am, ak), (bn, bk) = self.a.type.get_shape(), self.b.type.get_shape()
        cm, cn = self.acc.type.get_shape()
        if ak != bk or am != cm or bn != cn:
            raise VerifyException(f"expected tiles MxK, NxK and acc MxN to agree, got {am}x{ak}, {bn}x{bk}, {cm}x{cn}")
        if self.result.type != self.acc.type:
            raise VerifyException(f"expected result type {self.acc.type}, got {self.result.type}")
        _verify_acc_elem(self.a.type.element_type, self.b.type.element_type, self.acc.type.element_type)


@irdl_op_definition
class EpilogueOp(IRDLOperation):
    """D[m0 + i, n0 + j] = alpha * acc[i, j] + beta * C[m0 + i, n0 + j]; C is read only when beta != 0.

    With a fused epilogue (` epilogue(%extras [kind] : types) {region}`, lasscc.dialects.epilogue,
    the kinds in the kernel's terms: `epilogue_kinds`) D[m0 + i, n0 + j] is the region applied to
    that value and the extra operands' elements for (m0 + i, n0 + j)."""

    name = "lass_tb.epilogue"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    acc = operand_def(AccType)
    dest = operand_def(MemRefType)
    m0 = operand_def(i32)
    n0 = operand_def(i32)
    alpha = operand_def(f32)
    beta = operand_def(f32)
    extras = var_operand_def()
    epilogue_kinds = opt_attr_def(ArrayAttr)
    epilogue = opt_region_def()

    @property
    def has_epilogue(self) -> bool:
        return self.epilogue is not None and bool(self.epilogue.blocks)

    @property
    def kinds(self) -> tuple[str, ...]:
        from lasscc.dialects.epilogue import kinds_of

        return kinds_of(self.epilogue_kinds)

    def verify_(self) -> None:
        from lasscc.dialects.epilogue import verify_region

        if self.has_epilogue:
            verify_region(self.epilogue, self.extras, self.kinds, self.dest.type, "lass_tb.epilogue")
        elif self.extras or self.kinds:
            raise VerifyException("expected an epilogue region with the epilogue's extra operands")

    def print(self, printer: Printer) -> None:
        from lasscc.dialects.epilogue import print_epilogue

        printer.print_string(" ")
        printer.print_operand(self.acc)
        printer.print_string(", ")
        printer.print_operand(self.dest)
        printer.print_string("[")
        printer.print_list((self.m0, self.n0), printer.print_operand)
        printer.print_string("], ")
        printer.print_list((self.alpha, self.beta), printer.print_operand)
        printer.print_op_attributes(self.attributes, reserved_attr_names=("epilogue_kinds",))
        printer.print_string(f" : {self.acc.type}, {self.dest.type}")
        if self.has_epilogue:
            print_epilogue(printer, self.extras, self.kinds, self.epilogue)

    @classmethod
    def parse(cls, parser: Parser) -> EpilogueOp:
        from lasscc.dialects.epilogue import kinds_attr, parse_epilogue

        acc = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        dest = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        m0 = parser.parse_operand(i32)
        parser.parse_punctuation(",")
        n0 = parser.parse_operand(i32)
        parser.parse_punctuation("]")
        parser.parse_punctuation(",")
        alpha = parser.parse_operand(f32)
        parser.parse_punctuation(",")
        beta = parser.parse_operand(f32)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        acc_t = parser.parse_type()
        parser.parse_punctuation(",")
        dest_t = parser.parse_type()
        operands = [parser.resolve_operand(acc, acc_t), parser.resolve_operand(dest, dest_t), m0, n0, alpha, beta]
        epi = parse_epilogue(parser)
        regions = []
        if epi is not None:
            extras, kinds, region = epi
            operands += extras
            attrs["epilogue_kinds"] = kinds_attr(kinds)
            regions = [region]
        return cls.create(operands=operands, attributes=attrs, regions=regions)


@irdl_op_definition
class BatchIndexOp(IRDLOperation):
    """Which batch this threadblock works on (the grid's z index) in a batched GEMM."""

    name = "lass_tb.batch_index"
    traits = traits_def(Pure())
    result = result_def(i32)
    assembly_format = "attr-dict"


@irdl_op_definition
class PersistentCtaOp(IRDLOperation):
    """(cta, ctas): this threadblock's index in a persistent grid and the grid's size, a stream-K
    kernel's (lasscc.streamk; the grid is chosen at launch from the SM count)."""

    name = "lass_tb.persistent_cta"
    traits = traits_def(Pure())
    cta = result_def(i32)
    ctas = result_def(i32)
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[i32, i32])


def batch_view_type(t: MemRefType) -> MemRefType:
    """The type of one batch of a batch-first memref type: the 2-d matrix of a 3-d one, the vector
    of a 2-d one (a fused epilogue's per-batch [batch, N] operand)."""
    layout = t.layout
    if isinstance(layout, StridedLayoutAttr):
        layout = StridedLayoutAttr(layout.get_strides()[1:])
        return MemRefType(t.get_element_type(), t.get_shape()[1:], layout)
    return MemRefType(t.get_element_type(), t.get_shape()[1:])


@irdl_op_definition
class BatchViewOp(IRDLOperation):
    """Matrix `index` of a batched (3-d, batch-first) operand: the elements from index * stride on
    (vector `index` of a 2-d [batch, N] one).

    `stride` is the number of elements between batches (M*K for A, N*K for B, M*N for D when the
    batches are packed); the lowering computes the offset in 64 bits.
    """

    name = "lass_tb.batch_view"
    traits = traits_def(Pure())
    source = operand_def(MemRefType)
    index = operand_def(i32)
    stride = operand_def(i32)
    result = result_def(MemRefType)
    assembly_format = "$source `[` $index `]` `,` $stride attr-dict `:` type($source) `->` type($result)"

    def __init__(self, source, index, stride):
        super().__init__(operands=[source, index, stride], result_types=[batch_view_type(source.type)])

    def verify_(self) -> None:
        if self.source.type.get_num_dims() not in (2, 3):
            raise VerifyException(f"expected a 3-d (batch-first) memref (2-d: a per-batch vector), got {self.source.type}")
        want = batch_view_type(self.source.type)
        if self.result.type != want:
            raise VerifyException(f"expected result type {want}, got {self.result.type}")


# ---- split-K (lasscc.splitk) ------------------------------------------------------------------


@irdl_op_definition
class KPartitionOp(IRDLOperation):
    """This threadblock's split-K partition (the grid's y index) and its K range [k_begin, k_end):
    whole k-tiles of `tile_k` (lasscc.splitk.partition_range over `split` partitions)."""

    name = "lass_tb.k_partition"
    traits = traits_def(Pure())
    K = operand_def(i32)
    part = result_def(i32)
    k_begin = result_def(i32)
    k_end = result_def(i32)
    split = attr_def(IntegerAttr)
    tile_k = attr_def(IntegerAttr)
    assembly_format = "$K attr-dict"

    def verify_(self) -> None:
        from lasscc.splitk import split_k_error

        bad = split_k_error(self.split.value.data)
        if bad or self.tile_k.value.data < 1:
            raise VerifyException(bad or f"expected tile_k >= 1, got {self.tile_k.value.data}")


class _SemaphoreOpBase(IRDLOperation):
    sem = operand_def(MemRefType)
    index = operand_def(i32)
    value = operand_def(i32)
    assembly_format = "$sem `[` $index `]` `,` $value attr-dict `:` type($sem)"

    def verify_(self) -> None:
        t = self.sem.type
        if t.get_num_dims() != 1 or str(t.get_element_type()) != "i32":
            raise VerifyException(f"expected a 1-d i32 memref (the semaphore workspace), got {t}")


@irdl_op_definition
class SemaphoreWaitOp(_SemaphoreOpBase):
    """The whole threadblock waits until word `index` of the workspace equals `value`, with acquire
    semantics: what the CTA that stored the value released is visible to every thread after it
    (CUTLASS Semaphore::wait)."""

    name = "lass_tb.semaphore_wait"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())


@irdl_op_definition
class SemaphoreReleaseOp(_SemaphoreOpBase):
    """After every thread of the block is done with its stores, word `index` of the workspace
    becomes `value`, with release semantics (CUTLASS Semaphore::release)."""

    name = "lass_tb.semaphore_release"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())


# ---- stream-K's fix-up through the workspace (lasscc.streamk) ------------------------------------


class _PartialOpBase(IRDLOperation):
    acc = operand_def(AccType)
    sem = operand_def(MemRefType)
    slot = operand_def(i32)

    def verify_(self) -> None:
        t = self.sem.type
        if t.get_num_dims() != 1 or str(t.get_element_type()) != "i32":
            raise VerifyException(f"expected a 1-d i32 memref (the stream-K workspace), got {t}")


@irdl_op_definition
class PartialStoreOp(_PartialOpBase):
    """The block's raw accumulator to partial-sum slot `slot` of the stream-K workspace (words
    lasscc.streamk.partial_word(slot) .. + BM*BN, as f32 bits; i32 for an i32 accumulator, an f16
    one widened to f32), in an order of the lowering's choosing: only the same kernel's
    `lass_tb.partial_add` reads it."""

    name = "lass_tb.partial_store"
    traits = traits_def(MemoryWriteEffect())
    assembly_format = "$acc `,` $sem `[` $slot `]` attr-dict `:` type($acc) `,` type($sem)"


@irdl_op_definition
class PartialAddOp(_PartialOpBase):
    """acc + the partial sum in slot `slot` (written by `lass_tb.partial_store`), added in f32 (i32
    for an i32 accumulator; an f16 accumulator rounded once after the add)."""

    name = "lass_tb.partial_add"
    traits = traits_def(MemoryReadEffect())
    result = result_def(AccType)
    assembly_format = "$acc `,` $sem `[` $slot `]` attr-dict `:` type($acc) `,` type($sem) `->` type($result)"

    def __init__(self, acc, sem, slot):
        super().__init__(operands=[acc, sem, slot], result_types=[acc.type])


@irdl_op_definition
class ClusterReduceOp(IRDLOperation):
    """Cluster split-K's reduction (lasscc.cluster_splitk, `split_k_mode = "cluster"`): every CTA
    of the cluster (its `split` ranks, the K partitions of one tile) contributes `acc`; the result
    holds, in this CTA's column window (cluster_splitk.col_window of its %cluster_ctarank), the
    sum of the `split` accumulators in rank order (f32; i32 for an i32 accumulator; an f16 one
    rounded once after), elsewhere this CTA's own `acc`.  Every CTA of the cluster executes it
    (it holds the cluster barriers)."""

    name = "lass_tb.cluster_reduce"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    acc = operand_def(AccType)
    split = attr_def(IntegerAttr)
    result = result_def(AccType)
    assembly_format = "$acc attr-dict `:` type($acc) `->` type($result)"

    def __init__(self, acc, split: int):
        super().__init__(operands=[acc], result_types=[acc.type], attributes={"split": IntegerAttr(split, 64)})

    def verify_(self) -> None:
        if self.result.type != self.acc.type:
            raise VerifyException(f"expected the result type {self.acc.type}, got {self.result.type}")
        s, bn = self.split.value.data, self.acc.type.get_shape()[1]
        if s < 2 or bn % s:
            raise VerifyException(f"expected split >= 2 dividing the tile's {bn} columns, got {s}")


# lass_tb.epilogue's attribute (integer S) of a cluster split-K kernel: the CTA stores only its
# column window of the tile (lasscc.cluster_splitk.col_window of its %cluster_ctarank)
CLUSTER_SPLIT_ATTR = "cluster_split"


LassTB = Dialect(
    "lass_tb",
    [BlockTileOp, ZeroAccOp, LoadTileOp, MmaOp, EpilogueOp, BatchIndexOp, BatchViewOp, KPartitionOp, PersistentCtaOp,
     SemaphoreWaitOp, SemaphoreReleaseOp, PartialStoreOp, PartialAddOp, ClusterReduceOp],
    [TileType, AccType],
)
