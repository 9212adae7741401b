"""`lass_wg`: warpgroup-level MMA (output of `lasscc-warpgroup-mma`, the wgmma beside the warp level).

The program of ONE thread (SIMT), as at the warp level; four consecutive warps (128 threads, thread
ids 128 g .. 128 g + 127) form warpgroup g, which issues wgmma together.  A warpgroup's accumulator
of 64 x N values is spread over its threads as SSA values, N/2 per thread, value v of thread t at
(row, col) = lasscc.sm90_layout.acc_coord(t % 128, v): warp w of the group holds rows 16 w ..
16 w + 15 and, per 8 columns, the mma.sync m16n8 C fragment (layout.mma_c_coord).  The operands
still come from ring slots addressed logically; `lasscc-hopper-smem` turns them into matrix
descriptors of the physical (TMA-swizzled) slots.

    lass_wg.fence
    %d0, ... = lass_wg.mma %ra[%slot] rows %row, %rb[%slot] k 16 acc(%c0, ...) : !lass_pipe.ring<4x128x64xf16>, !lass_pipe.ring<4x128x64xf16>, f32
    lass_wg.commit
    lass_wg.wait {pending = 1 : i64}

Warp specialization (`lasscc-warp-specialize`, config `schedule = "cooperative"`): the block's
threads split into roles, each a region run by its own warpgroups, the two concurrently:

    lass_wg.warp_specialize %is_producer producer {
      lass_wg.setmaxnreg dec 40
      ...                                   // the TMA loads
    } consumer {
      lass_wg.setmaxnreg inc 232
      ...                                   // consumer_wait, wgmma, consumer_release, epilogue
    }
    lass_wg.named_barrier {id = 1 : i64, threads = 256 : i64}   // bar.sync 1, 256: the consumers only

The TMA-store epilogue (config `epilogue = "tma"`, passes/tma_store.py) stores a staged subtile with
`lass_wg.tma_store %D[%row, %col], %src : memref<?x?xf16>`; lasscc-hopper-smem gives it D's tensor map.
"""

from __future__ import annotations

from lasscc.dialects.lass_pipe import RingType
from xdsl.dialects.builtin import IntegerAttr, MemRefType, StringAttr, UnitAttr, i1, i32
from xdsl.ir import Dialect
from xdsl.irdl import (
    IRDLOperation,
    attr_def,
    opt_attr_def,
    region_def,
    irdl_op_definition,
    operand_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, NoTerminator
from xdsl.utils.exceptions import VerifyException

WARPGROUP_THREADS = 128
WGMMA_M = 64
WGMMA_K_BYTES = 32
WAIT_GROUPS_MAX = 7  # wgmma.wait_group takes 0..7 here (more is pointless)


@irdl_op_definition
class MmaOp(IRDLOperation):
    """One wgmma.m64nNkK of this thread's warpgroup, A and B from shared memory (SS):
    D (64 x N) = A . B^T + C with A = rows `row` .. row + 63 and B = all N rows of the slots,
    both at k .. k + K (K = 32 bytes of the element type: 16 f16/bf16, 8 tf32, 32 s8).

    The optional `b_row` attribute (default 0) makes B rows b_row .. b_row + N - 1 of the slots,
    N = 2 x the accumulator values (an accumulator chain of a split BN, resources.wgmma_chains);
    b_row must be a multiple of 8 (the core matrix) and the rows inside the slot.

    `row` must be the same for the 128 threads of a warpgroup; `c` are this thread's N/2
    accumulator values (f32; f16 for f16 inputs with an f16 accumulator; i32 for i8), `d` the
    same after the op.  The op is asynchronous: its shared-memory reads and its results are
    complete only when a `lass_wg.wait` retires the group a `lass_wg.commit` closed around it;
    until then the slots must not be released or overwritten (another lass_wg.mma may take `d`
    as its `c`).  Numerics as lass_pipe.mma (lasscc.interp.mma_math)."""

    name = "lass_wg.mma"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())  # async: ordered with fence/commit/wait
    a = operand_def(RingType)
    slot_a = operand_def(i32)
    row = operand_def(i32)
    b = operand_def(RingType)
    slot_b = operand_def(i32)
    c = var_operand_def()
    d = var_result_def()
    k = attr_def(IntegerAttr)

    def __init__(self, a, slot_a, row, b, slot_b, k: int, c, b_row: int = 0):
        c = list(c)
        from xdsl.ir import SSAValue

        attrs = {"k": IntegerAttr(k, 64), **({"b_row": IntegerAttr(b_row, 64)} if b_row else {})}
        super().__init__(operands=[a, slot_a, row, b, slot_b, c],
                         result_types=[[SSAValue.get(x).type for x in c]], attributes=attrs)

    @property
    def n(self) -> int:
        """The wgmma N: 2 accumulator values per thread and column pair (64 x N / 128 threads)."""
        return len(self.c) * WARPGROUP_THREADS // WGMMA_M

    @property
    def b_row(self) -> int:
        """The first B row this wgmma reads (0 unless a split chain's)."""
        attr = self.attributes.get("b_row")
        return 0 if attr is None else int(attr.value.data)

    @property
    def k_elems(self) -> int:
        return WGMMA_K_BYTES * 8 // self.a.type.element_type.bitwidth

    def verify_(self) -> None:
        (_, am, ak), (_, bn, bk) = self.a.type.get_shape(), self.b.type.get_shape()
        if self.a.type.element_type != self.b.type.element_type:
            raise VerifyException(f"expected A and B rings of one element type, got {self.a.type} and {self.b.type}")
        if ak != bk:
            raise VerifyException(f"expected rings of one BK, got {ak} and {bk}")
        if am % WGMMA_M:
            raise VerifyException(f"expected an A ring of a multiple of {WGMMA_M} rows, got {am}")
        k, kk = self.k.value.data, self.k_elems
        if k % kk or not 0 <= k < ak:
            raise VerifyException(f"expected k a multiple of the wgmma K {kk} inside BK = {ak}, got {k}")
        n, b0 = self.n, self.b_row
        if len(self.d) != len(self.c) or not len(self.c) or b0 % 8 or b0 < 0 or b0 + n > bn:
            raise VerifyException(f"expected B rows b_row .. b_row + N - 1 inside the {bn}-row B slot, b_row a "
                                  f"multiple of 8 and as many results as accumulators; got b_row = {b0}, N = {n} "
                                  f"({len(self.c)} accumulator values per thread) and {len(self.d)} results")
        types = {str(v.type) for v in self.c} | {str(v.type) for v in self.d}
        if len(types) != 1:
            raise VerifyException(f"expected accumulators of one type, got {sorted(types)}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.a)
        printer.print_string("[")
        printer.print_operand(self.slot_a)
        printer.print_string("] rows ")
        printer.print_operand(self.row)
        printer.print_string(", ")
        printer.print_operand(self.b)
        printer.print_string("[")
        printer.print_operand(self.slot_b)
        printer.print_string(f"] k {self.k.value.data} acc(")
        printer.print_list(self.c, printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes, reserved_attr_names=("k",))
        printer.print_string(" : ")
        printer.print_attribute(self.a.type)
        printer.print_string(", ")
        printer.print_attribute(self.b.type)
        printer.print_string(", ")
        printer.print_attribute(self.c[0].type if self.c else i32)

    @classmethod
    def parse(cls, parser: Parser) -> "MmaOp":
        a = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        sa = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        parser.parse_keyword("rows")
        row = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        b = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        sb = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        parser.parse_keyword("k")
        k = parser.parse_integer(allow_negative=False, allow_boolean=False)
        parser.parse_keyword("acc")
        c = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ta = parser.parse_type()
        parser.parse_punctuation(",")
        tb = parser.parse_type()
        parser.parse_punctuation(",")
        tc = parser.parse_type()
        ops = [parser.resolve_operand(a, ta), parser.resolve_operand(sa, i32), parser.resolve_operand(row, i32),
               parser.resolve_operand(b, tb), parser.resolve_operand(sb, i32)]
        cs = [parser.resolve_operand(x, tc) for x in c]
        op = cls(*ops, k, cs)
        op.attributes.update(attrs)
        return op


@irdl_op_definition
class FenceOp(IRDLOperation):
    """wgmma.fence: orders this thread's earlier accumulator and shared-memory accesses before the
    warpgroup's next lass_wg.mma (needed before the first one of each k-tile)."""

    name = "lass_wg.fence"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "attr-dict"


@irdl_op_definition
class CommitOp(IRDLOperation):
    """Close the warpgroup's uncommitted lass_wg.mma ops into one group."""

    name = "lass_wg.commit"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "attr-dict"


@irdl_op_definition
class WaitOp(IRDLOperation):
    """Wait until at most `pending` of the warpgroup's committed groups are in flight: the others'
    results may be read and their slots released."""

    name = "lass_wg.wait"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    pending = attr_def(IntegerAttr)
    assembly_format = "attr-dict"

    def verify_(self) -> None:
        n = self.pending.value.data
        if not 0 <= n <= WAIT_GROUPS_MAX:
            raise VerifyException(f"expected pending in 0..{WAIT_GROUPS_MAX}, got {n}")


@irdl_op_definition
class WarpSpecializeOp(IRDLOperation):
    """The block's roles: threads where `is_producer` holds run the `producer` region, the others
    the `consumer` region, concurrently (each role waits only on mbarriers the other arrives on;
    a role is whole warpgroups).  Both regions fall through to the op's successor.  Lowered to
    `scf.if %is_producer` by lasscc-lower-to-llvm (passes/warp_specialize.lower_roles).
    `independent_consumers` (the pingpong schedule): each consumer warpgroup runs the consumer
    region as a role of its own, on its own tiles, in no lockstep with the other consumers (they
    order themselves through mbarriers only); without it the consumer warpgroups share the work of
    every tile and may meet at named barriers."""

    name = "lass_wg.warp_specialize"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect(), NoTerminator())
    is_producer = operand_def(i1)
    independent_consumers = opt_attr_def(UnitAttr)
    producer = region_def("single_block")
    consumer = region_def("single_block")
    assembly_format = "$is_producer `producer` $producer `consumer` $consumer attr-dict"


SETMAXNREG_ACTIONS = ("inc", "dec")


@irdl_op_definition
class SetMaxNRegOp(IRDLOperation):
    """setmaxnreg.{inc,dec}.sync.aligned.u32 `regs`: this warpgroup's registers per thread become
    `regs` (a multiple of 8 in 24..256); `inc` blocks until the block's register file has them
    (another role's `dec` releases them).  All 128 threads of the warpgroup execute it."""

    name = "lass_wg.setmaxnreg"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    action = attr_def(StringAttr)
    regs = attr_def(IntegerAttr)

    def __init__(self, action: str, regs: int):
        super().__init__(attributes={"action": StringAttr(action), "regs": IntegerAttr(regs, 64)})

    def verify_(self) -> None:
        from lasscc.resources import setmaxnreg_error

        if self.action.data not in SETMAXNREG_ACTIONS:
            raise VerifyException(f"expected inc or dec, got {self.action.data}")
        bad = setmaxnreg_error(self.regs.value.data)
        if bad:
            raise VerifyException(bad)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.action.data} {self.regs.value.data}")
        printer.print_op_attributes(self.attributes, reserved_attr_names=("action", "regs"))

    @classmethod
    def parse(cls, parser: Parser) -> "SetMaxNRegOp":
        action = parser.parse_identifier()
        regs = parser.parse_integer(allow_negative=False, allow_boolean=False)
        op = cls(action, regs)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op


NAMED_BARRIER_MAX = 16  # bar.sync takes barrier ids 0..15


@irdl_op_definition
class NamedBarrierOp(IRDLOperation):
    """bar.sync `id`, `threads`: the `threads` threads (whole warps) of one role reach this point
    before any of them goes on (the block barrier 0 would wait for the other role too)."""

    name = "lass_wg.named_barrier"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    id = attr_def(IntegerAttr)
    threads = attr_def(IntegerAttr)
    assembly_format = "attr-dict"

    def verify_(self) -> None:
        i, t = self.id.value.data, self.threads.value.data
        if not 1 <= i < NAMED_BARRIER_MAX:
            raise VerifyException(f"expected id in 1..{NAMED_BARRIER_MAX - 1} (0 is the block's barrier), got {i}")
        if t <= 0 or t % 32:
            raise VerifyException(f"expected threads a positive multiple of 32 (whole warps), got {t}")


@irdl_op_definition
class TmaStoreOp(IRDLOperation):
    """The TMA-store epilogue's store of one staged subtile (config epilogue = "tma"): the box of
    D's tensor map held at shared byte `src` goes to D at element (row, col) (`dest` a kernel
    argument or a `lass_tb.batch_view` of one).  lasscc-hopper-smem adds D's tensor map parameter
    and makes it `lass_nv.tma_store_2d` / `_3d` (a batch view's index the third coordinate).

        lass_wg.tma_store %D[%row, %col], %src : memref<?x?xf16>
    """

    name = "lass_wg.tma_store"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    dest = operand_def(MemRefType)
    row = operand_def(i32)
    col = operand_def(i32)
    src = operand_def(i32)
    assembly_format = "$dest `[` $row `,` $col `]` `,` $src attr-dict `:` type($dest)"


LassWG = Dialect("lass_wg", [MmaOp, FenceOp, CommitOp, WaitOp, WarpSpecializeOp, SetMaxNRegOp, NamedBarrierOp,
                             TmaStoreOp], [])
