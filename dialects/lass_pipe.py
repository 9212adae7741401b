"""`lass_pipe`: the software-pipelined threadblock (output of `lasscc-pipeline`).

Shared memory is explicit: each operand has a ring of `stages` tiles at a byte offset of the
kernel's dynamic shared memory, stored K-major or (`, mn`) MN-major as lass_tb.tile.  Copies name the ring slot they fill; the MMA names the slot
it reads; barriers and cp.async groups are explicit ops, so the schedule can be read (and checked
for races by the CPU executor) from the IR.

stages >= 3 (CUTLASS MmaMultistage): `copy_async` (cp.async, completes at `wait`).
stages == 2 (CUTLASS MmaPipelined): `load_regs` (GMEM -> registers) then `store_regs` (-> SMEM).

    %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x32xf16>
    lass_pipe.copy_async A %A[%m0, %k0], %ra[%slot], %pred : memref<?x?xf16>, !lass_pipe.ring<3x128x32xf16>
    lass_pipe.commit
    lass_pipe.wait {pending = 1 : i64}
    lass_pipe.barrier
    %acc1 = lass_pipe.mma %ra[%slot], %rb[%slot], %acc : !lass_pipe.ring<3x128x32xf16>, !lass_pipe.ring<3x128x32xf16>, !lass_tb.acc<128x128xf32>

The TMA ring (a `mma = "wgmma"` kernel, CUTLASS's PipelineTmaAsync): a full and an empty barrier
per slot (`lass_pipe.tma_pipeline`), written as the four verbs of a producer / consumer pipeline.
The producer (one thread) acquires a slot (waits until its consumers released it) and announces
the stage's bytes; its `tma_load`s complete them on the slot's full barrier; the consumers wait
for the full barrier's phase, read the slot and release it (arrive on the empty barrier).  Phases
alternate 0, 1, 0, ... per use of a slot: use u = tile / stages has phase u % 2.

    %p = lass_pipe.tma_pipeline {offset = 131072 : i64, arrivals = 256 : i64} : !lass_pipe.barriers<4>
    lass_pipe.producer_acquire %p[%slot], %phase, %pred {tx = 32768 : i64} : !lass_pipe.barriers<4>
    lass_pipe.tma_load A %A[%m0, %k0], %ra[%slot], %p, %pred : memref<?x?xf16>, !lass_pipe.ring<4x128x64xf16>, !lass_pipe.barriers<4>
    lass_pipe.consumer_wait %p[%slot], %phase : !lass_pipe.barriers<4>
    lass_pipe.consumer_release %p[%slot], %pred : !lass_pipe.barriers<4>
"""

from __future__ import annotations

from typing import ClassVar

from lasscc.dialects._common import MajorTileBase, check_major
from lasscc.dialects.lass import OperandAttr
from lasscc.dialects.lass_tb import AccType
from xdsl.dialects.builtin import (
    ArrayAttr,
    IntAttr,
    IntegerAttr,
    MemRefType,
    StringAttr,
    i1,
    i32,
)
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    attr_def,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException


@irdl_attr_definition
class RingType(MajorTileBase):
    """`stages x rows x BK` tiles in shared memory, one per pipeline stage; `, mn` = MN-major
    (lasscc.layout.tile_offset gives the byte of element (row, k) for either)."""

    name = "lass_pipe.ring"
    RANK: ClassVar[int] = 3  # stages x rows x k
    # re-declared so the generated __eq__/__hash__ compare them (a base class's fields are not)
    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    major: StringAttr

    def tile_bytes(self) -> int:
        _, rows, k = self.get_shape()
        return rows * k * self.element_type.bitwidth // 8


@irdl_attr_definition
class StagedType(MajorTileBase):
    """A `rows x BK` tile held in registers between its global load and its shared store; the
    16-byte pieces run along k (K-major) or along rows (`, mn`), as in the ring it is stored to."""

    name = "lass_pipe.staged"
    # re-declared so the generated __eq__/__hash__ compare them (a base class's fields are not)
    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    major: StringAttr


@irdl_op_definition
class RingOp(IRDLOperation):
    """A ring of shared-memory tiles at byte `offset` of the dynamic shared memory."""

    name = "lass_pipe.ring"
    traits = traits_def(Pure())
    offset = attr_def(IntegerAttr)
    result = result_def(RingType)
    assembly_format = "attr-dict `:` type($result)"

    def verify_(self) -> None:
        if len(self.result.type.get_shape()) != 3:
            raise VerifyException(f"expected a stages x rows x k ring, got {self.result.type}")
        if self.offset.value.data % 128:
            raise VerifyException(f"expected a 128-byte aligned offset, got {self.offset.value.data}")


def _check_operand(source: MemRefType, tile_t, operand: str, what: str) -> None:
    if source.get_element_type() != tile_t.element_type:
        raise VerifyException(f"expected element type {source.get_element_type()}, got {tile_t.element_type}")
    check_major(tile_t, source, operand, what)


@irdl_op_definition
class CopyAsyncOp(IRDLOperation):
    """Start copying tile (row0, k0) of `source` into `ring[slot]` (cp.async); zero-fill when !pred.

    The data is in shared memory only after a `wait` that retires the group this copy was committed in.
    """

    name = "lass_pipe.copy_async"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    source = operand_def(MemRefType)
    row0 = operand_def(i32)
    k0 = operand_def(i32)
    ring = operand_def(RingType)
    slot = operand_def(i32)
    pred = operand_def(i1)
    operand = prop_def(OperandAttr)
    assembly_format = (
        "$operand $source `[` $row0 `,` $k0 `]` `,` $ring `[` $slot `]` `,` $pred attr-dict `:` type($source) `,` "
        "type($ring)"
    )

    def verify_(self) -> None:
        _check_operand(self.source.type, self.ring.type, self.operand.data, "ring")


@irdl_op_definition
class LoadRegsOp(IRDLOperation):
    """Load tile (row0, k0) of `source` into registers (zeros when !pred)."""

    name = "lass_pipe.load_regs"
    traits = traits_def(MemoryReadEffect())
    source = operand_def(MemRefType)
    row0 = operand_def(i32)
    k0 = operand_def(i32)
    pred = operand_def(i1)
    operand = prop_def(OperandAttr)
    result = result_def(StagedType)
    assembly_format = "$operand $source `[` $row0 `,` $k0 `]` `,` $pred attr-dict `:` type($source) `->` type($result)"

    def verify_(self) -> None:
        _check_operand(self.source.type, self.result.type, self.operand.data, "staged tile")


@irdl_op_definition
class StoreRegsOp(IRDLOperation):
    """Store a register-staged tile into `ring[slot]`."""

    name = "lass_pipe.store_regs"
    traits = traits_def(MemoryWriteEffect())
    value = operand_def(StagedType)
    ring = operand_def(RingType)
    slot = operand_def(i32)
    assembly_format = "$value `,` $ring `[` $slot `]` attr-dict `:` type($value) `,` type($ring)"

    def verify_(self) -> None:
        if self.value.type.element_type != self.ring.type.element_type:
            raise VerifyException(f"expected element type {self.ring.type.element_type}, got {self.value.type.element_type}")
        if self.value.type.get_shape() != self.ring.type.get_shape()[1:]:
            raise VerifyException(f"expected a {self.ring.type.get_shape()[1:]} tile, got {self.value.type.get_shape()}")
        if self.value.type.major != self.ring.type.major:
            raise VerifyException(
                f"expected a staged tile stored like the ring ({self.ring.type.major.data}-major), "
                f"got {self.value.type.major.data}-major"
            )


@irdl_op_definition
class CommitOp(IRDLOperation):
    """Close the current group of async copies (cp.async.commit_group)."""

    name = "lass_pipe.commit"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "attr-dict"


@irdl_op_definition
class WaitOp(IRDLOperation):
    """Wait until at most `pending` committed copy groups are still in flight (cp.async.wait_group)."""

    name = "lass_pipe.wait"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    pending = attr_def(IntegerAttr)
    assembly_format = "attr-dict"

    def verify_(self) -> None:
        if self.pending.value.data < 0:
            raise VerifyException(f"expected pending >= 0, got {self.pending.value.data}")


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """All threads of the block reach this point before any goes on (bar.sync 0)."""

    name = "lass_pipe.barrier"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "attr-dict"


@irdl_op_definition
class MmaOp(IRDLOperation):
    """acc + a[slot_a] . b[slot_b]^T on ring slots (see lass_tb.mma)."""

    name = "lass_pipe.mma"
    traits = traits_def(MemoryReadEffect())
    a = operand_def(RingType)
    slot_a = operand_def(i32)
    b = operand_def(RingType)
    slot_b = operand_def(i32)
    ACC: ClassVar = VarConstraint("ACC", base(AccType))
    acc = operand_def(ACC)
    result = result_def(ACC)
    assembly_format = (
        "$a `[` $slot_a `]` `,` $b `[` $slot_b `]` `,` $acc attr-dict `:` type($a) `,` type($b) `,` type($acc)"
    )

    def __init__(self, a, slot_a, b, slot_b, acc):
        super().__init__(operands=[a, slot_a, b, slot_b, acc], result_types=[acc.type])

    def verify_(self) -> None:
        (_, am, ak), (_, bn, bk) = self.a.type.get_shape(), self.b.type.get_shape()
        cm, cn = self.acc.type.get_shape()
        if ak != bk or am != cm or bn != cn:
            raise VerifyException(f"expected rings of MxK, NxK and acc MxN to agree, got {am}x{ak}, {bn}x{bk}, {cm}x{cn}")
        from lasscc.dialects.lass_tb import _verify_acc_elem

        _verify_acc_elem(self.a.type.element_type, self.b.type.element_type, self.acc.type.element_type)


# ---- the TMA ring (mma = "wgmma") ------------------------------------------------------------------
@irdl_attr_definition
class BarriersType(ParametrizedAttribute, TypeAttribute):
    """`!lass_pipe.barriers<S>`: a full and an empty barrier for each of the S slots of a TMA ring."""

    name = "lass_pipe.barriers"
    stages: IntAttr

    def __init__(self, stages: int):
        super().__init__(IntAttr(stages))

    @property
    def count(self) -> int:
        return self.stages.data

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.stages.data}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            n = parser.parse_integer(allow_negative=False, allow_boolean=False)
        return (IntAttr(n),)

    def verify(self) -> None:
        if self.stages.data < 1:
            raise VerifyException(f"expected at least 1 stage, got {self.stages.data}")


@irdl_op_definition
class TmaPipelineOp(IRDLOperation):
    """The barriers of a TMA ring at byte `offset` of the dynamic shared memory (8-byte aligned):
    full barrier of slot s at offset + 8 s, empty barrier at offset + 8 (S + s).  Full barriers
    expect one arrival (the producer's, with the stage's transaction bytes); empty ones `arrivals`
    (every consumer thread releases the slot).  All start in phase 0, made before the first use."""

    name = "lass_pipe.tma_pipeline"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())  # initialises the barriers: kept, not merged
    offset = attr_def(IntegerAttr)
    arrivals = attr_def(IntegerAttr)
    result = result_def(BarriersType)
    assembly_format = "attr-dict `:` type($result)"

    def verify_(self) -> None:
        if self.offset.value.data % 8:
            raise VerifyException(f"expected an 8-byte aligned offset, got {self.offset.value.data}")
        if self.arrivals.value.data < 1:
            raise VerifyException(f"expected arrivals >= 1, got {self.arrivals.value.data}")


@irdl_op_definition
class ProducerAcquireOp(IRDLOperation):
    """When `pred`: wait until the empty barrier of `slot` has completed the phase before `phase`
    (the slot's previous contents were released; a slot's first use, phase 0, passes at once),
    then arrive on its full barrier announcing `tx` bytes (the stage's TMA boxes).  Executed by
    the one producer thread."""

    name = "lass_pipe.producer_acquire"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    barriers = operand_def(BarriersType)
    slot = operand_def(i32)
    phase = operand_def(i32)
    pred = operand_def(i1)
    tx = attr_def(IntegerAttr)
    assembly_format = "$barriers `[` $slot `]` `,` $phase `,` $pred attr-dict `:` type($barriers)"


@irdl_op_definition
class TmaLoadOp(IRDLOperation):
    """When `pred`: copy tile (row0, k0) of `source` into `ring[slot]` by TMA (elements outside the
    matrix zero-filled) and complete its bytes as transactions on the slot's full barrier.  The
    data may be read only after a consumer_wait on that barrier's phase."""

    name = "lass_pipe.tma_load"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    source = operand_def(MemRefType)
    row0 = operand_def(i32)
    k0 = operand_def(i32)
    ring = operand_def(RingType)
    slot = operand_def(i32)
    barriers = operand_def(BarriersType)
    pred = operand_def(i1)
    operand = prop_def(OperandAttr)
    assembly_format = (
        "$operand $source `[` $row0 `,` $k0 `]` `,` $ring `[` $slot `]` `,` $barriers `,` $pred attr-dict `:` "
        "type($source) `,` type($ring) `,` type($barriers)"
    )

    def verify_(self) -> None:
        _check_operand(self.source.type, self.ring.type, self.operand.data, "ring")
        if self.ring.type.get_shape()[0] != self.barriers.type.count:
            raise VerifyException(f"expected a ring of {self.barriers.type.count} slots (the barriers'), "
                                  f"got {self.ring.type.get_shape()[0]}")


@irdl_op_definition
class ConsumerWaitOp(IRDLOperation):
    """Wait until the full barrier of `slot` completes phase `phase` (0 or 1): the slot's TMA bytes
    have landed and are visible to the waiting threads."""

    name = "lass_pipe.consumer_wait"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    barriers = operand_def(BarriersType)
    slot = operand_def(i32)
    phase = operand_def(i32)
    assembly_format = "$barriers `[` $slot `]` `,` $phase attr-dict `:` type($barriers)"


@irdl_op_definition
class ConsumerReleaseOp(IRDLOperation):
    """When `pred`: arrive on the empty barrier of `slot` (this thread is done reading it).  At the
    block level the op is every consumer thread's arrival."""

    name = "lass_pipe.consumer_release"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    barriers = operand_def(BarriersType)
    slot = operand_def(i32)
    pred = operand_def(i1)
    assembly_format = "$barriers `[` $slot `]` `,` $pred attr-dict `:` type($barriers)"


TMA_PIPE_OPS = (TmaPipelineOp, ProducerAcquireOp, TmaLoadOp, ConsumerWaitOp, ConsumerReleaseOp)

LassPipe = Dialect(
    "lass_pipe",
    [RingOp, CopyAsyncOp, LoadRegsOp, StoreRegsOp, CommitOp, WaitOp, BarrierOp, MmaOp, *TMA_PIPE_OPS],
    [RingType, StagedType, BarriersType],
)
