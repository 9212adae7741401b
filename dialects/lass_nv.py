"""`lass_nv`: one op per PTX instruction the kernels use (input of `lasscc-lower-to-llvm`).

Per-thread semantics, as in the PTX ISA (section named on each op).  Shared-memory addresses are
i32 byte offsets into the kernel's dynamic shared memory; global addresses are a memref operand
plus an i32 element offset (the lowering widens it to 64 bits).  32-bit registers holding two
f16 values (`.f16x2`) are i32 here; the lowering bitcasts.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, MemRefType, StringAttr, UnitAttr, f16, f32, i1, i32
from xdsl.dialects.gpu import DimensionAttr, DimensionEnum
from xdsl.ir import Dialect, SSAValue
from xdsl.irdl import (
    AnyOf,
    EqAttrConstraint,
    IRDLOperation,
    VarConstraint,
    attr_def,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

CP_ASYNC_BYTES = (4, 8, 16)  # cp.async cp-size: 16 -> .cg (L2 only), 4 and 8 -> .ca (.cg takes 16 only)
# narrow accesses of lasscc-swizzle-smem's tile copies that have no cp.async (and the 4 / 8 byte
# ones of register-staged tiles): ld.global / st.shared of 1, 2, 4 or 8 bytes
NARROW_BYTES = (1, 2, 4, 8)
# mma.sync shape per A/B register type (PTX ISA "Matrix shape"; each k-group is 32 bytes of K)
MMA_SHAPES = {"f16": "m16n8k16", "bf16": "m16n8k16", "tf32": "m16n8k8", "s8": "m16n8k32"}
MMA_INPUT_TYPES = tuple(MMA_SHAPES)
MMA_ACC_TYPES = {"f16": ("f32", "f16"), "bf16": ("f32",), "tf32": ("f32",), "s8": ("i32",)}


@irdl_op_definition
class ThreadIdOp(IRDLOperation):
    """%tid.x (PTX ISA 10.1)."""

    name = "lass_nv.thread_id"
    traits = traits_def(Pure())
    result = result_def(i32)
    assembly_format = "attr-dict"


@irdl_op_definition
class BlockIdOp(IRDLOperation):
    """%ctaid.x (`lass_nv.block_id x`), %ctaid.y (`y`: the split-K partition, lasscc.splitk) or
    %ctaid.z (`lass_nv.block_id z`: the batch of a batched GEMM) (PTX ISA 10.6); the axis is xDSL's gpu dimension attribute, as in gpu.block_id."""

    name = "lass_nv.block_id"
    traits = traits_def(Pure())
    result = result_def(i32)
    dim = prop_def(DimensionAttr)
    assembly_format = "$dim attr-dict"

    def __init__(self, axis: str = "x"):
        super().__init__(result_types=[i32], properties={"dim": DimensionAttr(DimensionEnum(axis))})

    @property
    def axis(self) -> str:
        return self.dim.data.value


@irdl_op_definition
class CpAsyncOp(IRDLOperation):
    """cp.async.{cg|ca}.shared.global [dst], [src + offset], w, (pred ? w : 0)  (PTX ISA 9.7.9.25.3).

    w = `bytes`: 16 is cp.async.cg (cached in L2 only); 4 and 8 are cp.async.ca (.cg allows only
    16).  `dst` and the global address must be w-byte aligned.  With pred false the source size is
    0 and the w destination bytes are zero-filled.
    """

    name = "lass_nv.cp_async"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    source = operand_def(MemRefType)
    offset = operand_def(i32)
    dst = operand_def(i32)
    pred = operand_def(i1)
    bytes = attr_def(IntegerAttr)
    assembly_format = "$source `[` $offset `]` `,` $dst `,` $pred attr-dict `:` type($source)"

    def verify_(self) -> None:
        if self.bytes.value.data not in CP_ASYNC_BYTES:
            raise VerifyException(f"expected bytes = 4, 8 (cp.async.ca) or 16 (cp.async.cg), got {self.bytes.value.data}")


@irdl_op_definition
class CpAsyncCommitOp(IRDLOperation):
    """cp.async.commit_group (PTX ISA 9.7.9.25.3.2)."""

    name = "lass_nv.cp_async_commit"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "attr-dict"


@irdl_op_definition
class CpAsyncWaitOp(IRDLOperation):
    """cp.async.wait_group N (PTX ISA 9.7.9.25.3.3)."""

    name = "lass_nv.cp_async_wait"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    pending = attr_def(IntegerAttr)
    assembly_format = "attr-dict"

    def verify_(self) -> None:
        if self.pending.value.data < 0:
            raise VerifyException(f"expected pending >= 0, got {self.pending.value.data}")


@irdl_op_definition
class BarSyncOp(IRDLOperation):
    """bar.sync 0 (PTX ISA 9.7.13.4)."""

    name = "lass_nv.bar_sync"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "attr-dict"


@irdl_op_definition
class LdmatrixX4Op(IRDLOperation):
    """ldmatrix.sync.aligned.m8n8.x4.shared.b16 (PTX ISA 9.7.14.5.15).

    Lanes 8i..8i+7 give the row addresses of matrix i; result ri is this lane's part of matrix i:
    row lane/4, columns 2*(lane%4) and 2*(lane%4)+1.  With `trans` (`.trans`, for MN-major tiles)
    the matrix is transposed on the way: ri holds stored rows 2*(lane%4), +1 of column lane/4.
    """

    name = "lass_nv.ldmatrix_x4"
    traits = traits_def(MemoryReadEffect())
    addr = operand_def(i32)
    r0 = result_def(i32)
    r1 = result_def(i32)
    r2 = result_def(i32)
    r3 = result_def(i32)
    trans = opt_prop_def(UnitAttr)
    assembly_format = "$addr (`trans` $trans^)? attr-dict"


@irdl_op_definition
class LdSharedOp(IRDLOperation):
    """ld.shared.b32 / ld.shared.v2.b32 / ld.shared.v4.b32 (PTX ISA 9.7.9.8 "ld"): 4, 8 or 16 bytes
    at shared byte address `addr` (aligned to that size) into 1, 2 or 4 32-bit registers, the
    lowest-addressed word first.  lasscc-swizzle-smem reads tf32 fragments of MN-major tiles with it
    (lasscc.layout.tf32_mn_lane_src), as CUTLASS reads 32-bit congruous operands with LDS.

        %r0, %r1 = lass_nv.ld_shared %addr x 2
    """

    name = "lass_nv.ld_shared"
    traits = traits_def(MemoryReadEffect())
    addr = operand_def(i32)
    values = var_result_def()

    def __init__(self, addr, count: int):
        super().__init__(operands=[addr], result_types=[[i32] * count])

    def verify_(self) -> None:
        types = [str(v.type) for v in self.values]
        if len(types) not in (1, 2, 4) or any(t != "i32" for t in types):
            raise VerifyException(f"expected 1, 2 or 4 i32 results (ld.shared.b32 / .v2 / .v4), got {types}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.addr)
        printer.print_string(f" x {len(self.values)}")
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> "LdSharedOp":
        addr = parser.parse_operand(i32)
        parser.parse_characters("x", " before the register count")
        count = parser.parse_integer()
        attrs = parser.parse_optional_attr_dict()
        op = cls(addr, count)
        op.attributes.update(attrs)
        return op


# prmt's generic form reads only the low 16 bits of the selector (four 4-bit byte selectors)
PRMT_SELECTOR_BITS = 16


@irdl_op_definition
class PrmtOp(IRDLOperation):
    """prmt.b32 d, a, b, c (PTX ISA 9.7.9 "Data Movement and Conversion Instructions: prmt", the
    generic form): byte i of d is byte (c >> 4i) & 7 of the 8 bytes {b, a} (a the low word), or its
    sign replicated when bit 4i + 3 of c is set (lasscc.layout.prmt).  lasscc-swizzle-smem
    transposes 8-bit elements with it (lasscc.layout.s8_mn_prmt_selectors).  A constant selector
    must fit in 16 bits (the hardware ignores the rest; a wider one is a mistake).

        %d = lass_nv.prmt %a, %b, %sel
    """

    name = "lass_nv.prmt"
    traits = traits_def(Pure())
    a = operand_def(i32)
    b = operand_def(i32)
    sel = operand_def(i32)
    result = result_def(i32)
    assembly_format = "$a `,` $b `,` $sel attr-dict"

    def verify_(self) -> None:
        from xdsl.dialects import arith

        owner = self.sel.owner
        if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
            c = owner.value.value.data
            if not 0 <= c < 1 << PRMT_SELECTOR_BITS:
                raise VerifyException(
                    f"expected a selector of {PRMT_SELECTOR_BITS} bits (four byte selectors, 0 to 0xffff), "
                    f"got {c & 0xFFFFFFFF:#x}")


@irdl_op_definition
class MmaSyncOp(IRDLOperation):
    """mma.sync.aligned.{shape}.row.col.{acc}.{ab}.{ab}.{acc} (PTX ISA 9.7.14.5.14 "mma"), by `ab_type`:

        f16, bf16  m16n8k16, c/d f32 (or f16 for f16: .f16.f16.f16.f16, two f16 per register)
        tf32       m16n8k8,  c/d f32 (a/b registers hold one tf32 each)
        s8         m16n8k32, c/d i32, `.satfinite` (CUTLASS's default int8 OpMultiplyAddSaturate)

    a: 4 x i32, b: 2 x i32 (packed elements), c/d: 4 values of the accumulator type, in the ISA's
    fragment layouts (lasscc.layout.mma_a/b/c_coord: in bytes they are one table for all shapes).
    An f16 accumulator is 4 f16 values here, element i at mma_c_coord(lane, i) as for f32; the
    lowering packs them into the two f16x2 registers.  Printed `: f16` / `: i32` after the
    attributes when the accumulator is not f32.
    """

    name = "lass_nv.mma_sync"
    traits = traits_def(Pure())
    a0 = operand_def(i32)
    a1 = operand_def(i32)
    a2 = operand_def(i32)
    a3 = operand_def(i32)
    b0 = operand_def(i32)
    b1 = operand_def(i32)
    ACC: ClassVar = VarConstraint("ACC", AnyOf([EqAttrConstraint(t) for t in (f32, f16, i32)]))
    c0 = operand_def(ACC)
    c1 = operand_def(ACC)
    c2 = operand_def(ACC)
    c3 = operand_def(ACC)
    d0 = result_def(ACC)
    d1 = result_def(ACC)
    d2 = result_def(ACC)
    d3 = result_def(ACC)
    shape = attr_def(StringAttr)
    ab_type = opt_attr_def(StringAttr)  # "f16" (default), "bf16", "tf32" or "s8": what the A/B registers pack

    def __init__(self, a, b, c, ab_type: str = "f16"):
        attrs = {"shape": StringAttr(MMA_SHAPES.get(ab_type, "m16n8k16"))}
        if ab_type != "f16":
            attrs["ab_type"] = StringAttr(ab_type)
        acc_t = SSAValue.get(c[0]).type
        super().__init__(operands=[*a, *b, *c], result_types=[acc_t] * 4, attributes=attrs)

    @property
    def input_type(self) -> str:
        return "f16" if self.ab_type is None else self.ab_type.data

    @property
    def acc_type(self):
        return self.c0.type

    def verify_(self) -> None:
        if self.input_type not in MMA_INPUT_TYPES:
            raise VerifyException(f"expected ab_type one of {', '.join(MMA_INPUT_TYPES)}, got \"{self.input_type}\"")
        want = MMA_SHAPES[self.input_type]
        if self.shape.data != want:
            raise VerifyException(f"expected shape = \"{want}\" for ab_type {self.input_type}, got \"{self.shape.data}\"")
        accs = MMA_ACC_TYPES[self.input_type]
        if str(self.acc_type) not in accs:
            raise VerifyException(
                f"expected a {' or '.join(accs)} accumulator for ab_type {self.input_type}, got {self.acc_type}")

    def print(self, printer: Printer) -> None:
        for key, vals in (("a", (self.a0, self.a1, self.a2, self.a3)), ("b", (self.b0, self.b1)),
                          ("c", (self.c0, self.c1, self.c2, self.c3))):
            printer.print_string(f" {key}(")
            printer.print_list(vals, printer.print_operand)
            printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        if self.acc_type != f32:
            printer.print_string(" : ")
            printer.print_attribute(self.acc_type)

    @classmethod
    def parse(cls, parser: Parser) -> "MmaSyncOp":
        groups = []
        for key, n in (("a", 4), ("b", 2), ("c", 4)):
            parser.parse_keyword(key)
            ops = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
            if len(ops) != n:
                parser.raise_error(f"expected {n} operands in {key}(...), got {len(ops)}")
            groups.append(ops)
        attrs = parser.parse_optional_attr_dict()
        acc_t = f32
        if parser.parse_optional_punctuation(":") is not None:
            acc_t = parser.parse_type()
        a = [parser.resolve_operand(x, i32) for x in groups[0]]
        b = [parser.resolve_operand(x, i32) for x in groups[1]]
        c = [parser.resolve_operand(x, acc_t) for x in groups[2]]
        op = cls.create(operands=[*a, *b, *c], result_types=[acc_t] * 4, attributes=attrs)
        return op


@irdl_op_definition
class CvtRnaTf32Op(IRDLOperation):
    """cvt.rna.tf32.f32 (PTX ISA 9.7.9.21 "cvt"): the f32 in 32-bit register `x` rounded to tf32, to
    nearest with ties away from zero; the result is an f32 bit pattern whose low 13 bits are 0.

    CUTLASS's default sm80 tf32 GEMM rounds the same way: MmaTensorOp::transform converts the f32
    fragments with PreferredRoundingMode<tfloat32_t, float> = round_half_ulp_truncate (add half a
    tf32 ulp, 0x1000, to the bits of a finite value; the mma ignores the low 13 bits), i.e. round
    to nearest, ties away (cutlass/numeric_conversion.h, cutlass/gemm/warp/mma_tensor_op.h).
    """

    name = "lass_nv.cvt_rna_tf32"
    traits = traits_def(Pure())
    x = operand_def(i32)
    result = result_def(i32)
    assembly_format = "$x attr-dict"


@irdl_op_definition
class CvtRniS32Op(IRDLOperation):
    """cvt.rni.s32.f32 (PTX ISA 9.7.9.21 "cvt"): f32 -> s32 rounded to nearest even; float-to-int
    conversions saturate (out-of-range values clamp to the s32 range) and NaN gives 0.  The s32
    epilogue's conversion (CUTLASS NumericConverter<int32_t, float, round_to_nearest>: __float2int_rn)."""

    name = "lass_nv.cvt_rni_s32"
    traits = traits_def(Pure())
    x = operand_def(f32)
    result = result_def(i32)
    assembly_format = "$x attr-dict"


@irdl_op_definition
class LdGlobalV4Op(IRDLOperation):
    """ld.global.v4.b32: 16 bytes at source[offset] (elements), zeros when !pred (PTX ISA 9.7.9.8)."""

    name = "lass_nv.ld_global_v4"
    traits = traits_def(MemoryReadEffect())
    source = operand_def(MemRefType)
    offset = operand_def(i32)
    pred = operand_def(i1)
    r0 = result_def(i32)
    r1 = result_def(i32)
    r2 = result_def(i32)
    r3 = result_def(i32)
    assembly_format = "$source `[` $offset `]` `,` $pred attr-dict `:` type($source)"


@irdl_op_definition
class StSharedV4Op(IRDLOperation):
    """st.shared.v4.b32 [addr], {v0, v1, v2, v3} (PTX ISA 9.7.9.9)."""

    name = "lass_nv.st_shared_v4"
    traits = traits_def(MemoryWriteEffect())
    addr = operand_def(i32)
    v0 = operand_def(i32)
    v1 = operand_def(i32)
    v2 = operand_def(i32)
    v3 = operand_def(i32)
    assembly_format = "$addr `,` $v0 `,` $v1 `,` $v2 `,` $v3 attr-dict"


def _narrow_regs(nbytes: int) -> int:
    """32-bit registers holding an access of `nbytes` (1 and 2 bytes: the low bits of one)."""
    return max(1, nbytes // 4)


def _verify_narrow(op, what: str) -> None:
    """op.bytes is a narrow width and op.values has its registers (`what`: result / value)."""
    w = op.bytes.value.data
    if w not in NARROW_BYTES:
        raise VerifyException(f"expected bytes = 1, 2, 4 or 8, got {w}")
    if len(op.values) != _narrow_regs(w):
        raise VerifyException(f"expected {_narrow_regs(w)} i32 {what}(s) for {w} bytes, got {len(op.values)}")


@irdl_op_definition
class LdGlobalBOp(IRDLOperation):
    """ld.global.b{8w} of w = `bytes` (1, 2, 4 or 8) bytes at source[offset] (elements) into
    max(1, w/4) 32-bit registers, zeros when !pred (PTX ISA 9.7.9.8, guarded by a predicate).  A
    1- or 2-byte value is zero-extended into its register (ld.u8 / ld.u16 into a .b32 register);
    an 8-byte one is two registers, the lower-addressed 4 bytes first.  The address must be w-byte
    aligned.  The narrow access of a tile copy (lasscc-swizzle-smem)."""

    name = "lass_nv.ld_global_b"
    traits = traits_def(MemoryReadEffect())
    source = operand_def(MemRefType)
    offset = operand_def(i32)
    pred = operand_def(i1)
    bytes = attr_def(IntegerAttr)
    values = var_result_def(i32)
    assembly_format = "$source `[` $offset `]` `,` $pred attr-dict `:` type($source) `->` type($values)"

    def __init__(self, source, offset, pred, nbytes: int):
        super().__init__(operands=[source, offset, pred], result_types=[[i32] * _narrow_regs(nbytes)],
                         attributes={"bytes": IntegerAttr(nbytes, 64)})

    def verify_(self) -> None:
        _verify_narrow(self, "result")


@irdl_op_definition
class StSharedBOp(IRDLOperation):
    """st.shared.b{8w} [addr], values: w = `bytes` (1, 2, 4 or 8) bytes from max(1, w/4) 32-bit
    registers (1 or 2 bytes: the low bits of one; 8: two, the first at the lower address)
    (PTX ISA 9.7.9.9).  `addr` must be w-byte aligned."""

    name = "lass_nv.st_shared_b"
    traits = traits_def(MemoryWriteEffect())
    addr = operand_def(i32)
    values = var_operand_def(i32)
    bytes = attr_def(IntegerAttr)
    assembly_format = "$addr `,` $values attr-dict `:` type($values)"

    def verify_(self) -> None:
        _verify_narrow(self, "value")


@irdl_op_definition
class LdGlobalOp(IRDLOperation):
    """ld.global of len(results) consecutive elements at source[offset] (vectorised when 2 or 4);
    zeros, and no memory access, where `pred` is false (PTX ISA 9.7.9.8, guarded by a predicate)."""

    name = "lass_nv.ld_global"
    traits = traits_def(MemoryReadEffect())
    source = operand_def(MemRefType)
    offset = operand_def(i32)
    pred = operand_def(i1)
    values = var_result_def()

    def __init__(self, source, offset, pred, count: int):
        et = source.type.get_element_type()
        super().__init__(operands=[source, offset, pred], result_types=[[et] * count])

    def verify_(self) -> None:
        et = self.source.type.get_element_type()
        if len(self.values) not in (1, 2, 4) or any(v.type != et for v in self.values):
            raise VerifyException(f"expected 1, 2 or 4 results of type {et}, got {[str(v.type) for v in self.values]}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string("[")
        printer.print_operand(self.offset)
        printer.print_string(f"] x {len(self.values)} if ")
        printer.print_operand(self.pred)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)

    @classmethod
    def parse(cls, parser: Parser) -> "LdGlobalOp":
        src = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        off = parser.parse_operand(i32)
        parser.parse_punctuation("]")
        parser.parse_characters("x", " before the element count")
        count = parser.parse_integer()
        parser.parse_keyword("if")
        pred = parser.parse_operand(i1)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        t = parser.parse_type()
        if not isinstance(t, MemRefType):
            parser.raise_error(f"expected a memref type, got {t}", pos, parser.pos)
        op = cls(parser.resolve_operand(src, t), off, pred, count)
        op.attributes.update(attrs)
        return op


@irdl_op_definition
class StGlobalOp(IRDLOperation):
    """st.global of len(values) consecutive elements at dest[offset] (vectorised when 2 or 4), only
    where `pred` is true (a guarded store: the epilogue's bounds check)."""

    name = "lass_nv.st_global"
    traits = traits_def(MemoryWriteEffect())
    dest = operand_def(MemRefType)
    offset = operand_def(i32)
    pred = operand_def(i1)
    values = var_operand_def()
    assembly_format = (
        "$dest `[` $offset `]` `,` $values `if` $pred attr-dict `:` type($dest) `,` type($values)"
    )

    def verify_(self) -> None:
        et = self.dest.type.get_element_type()
        if len(self.values) not in (1, 2, 4) or any(v.type != et for v in self.values):
            raise VerifyException(f"expected 1, 2 or 4 values of type {et}, got {[str(v.type) for v in self.values]}")


@irdl_op_definition
class StSharedOp(IRDLOperation):
    """st.shared (.v2 / .v4) of 2 or 4 consecutive values of one 16- or 32-bit type at shared byte
    address `addr`, aligned to their total size, lowest-addressed value first (PTX ISA 9.7.9.9).
    The staged epilogue writes accumulator pairs with it (lasscc-warp-mma).

        lass_nv.st_shared %addr, %v0, %v1 : f32, f32
    """

    name = "lass_nv.st_shared"
    traits = traits_def(MemoryWriteEffect())
    addr = operand_def(i32)
    values = var_operand_def()
    assembly_format = "$addr `,` $values attr-dict `:` type($values)"

    def verify_(self) -> None:
        types = [v.type for v in self.values]
        ok = {"f16", "bf16", "f32", "i32"}
        if len(types) not in (2, 4) or len(set(types)) != 1 or str(types[0]) not in ok:
            raise VerifyException(f"expected 2 or 4 values of one type of {sorted(ok)}, got {[str(t) for t in types]}")


@irdl_op_definition
class StGlobalV4Op(IRDLOperation):
    """st.global.v4.b32: the 16 bytes of r0..r3 (r0 at the lowest address) at dest[offset]
    (elements; 16-byte aligned), only where `pred` is true (PTX ISA 9.7.9.9).  The staged
    epilogue's coalesced stores (lasscc-warp-mma)."""

    name = "lass_nv.st_global_v4"
    traits = traits_def(MemoryWriteEffect())
    dest = operand_def(MemRefType)
    offset = operand_def(i32)
    r0 = operand_def(i32)
    r1 = operand_def(i32)
    r2 = operand_def(i32)
    r3 = operand_def(i32)
    pred = operand_def(i1)
    assembly_format = "$dest `[` $offset `]` `,` $r0 `,` $r1 `,` $r2 `,` $r3 `if` $pred attr-dict `:` type($dest)"


@irdl_op_definition
class AlignedOp(IRDLOperation):
    """True when the address of `source` (its element 0) is a multiple of `bytes`: the uniform test
    that guards 16-byte accesses to a kernel argument the caller may have offset."""

    name = "lass_nv.aligned"
    traits = traits_def(Pure())
    source = operand_def(MemRefType)
    bytes = attr_def(IntegerAttr)
    result = result_def(i1)
    assembly_format = "$source attr-dict `:` type($source)"

    def verify_(self) -> None:
        w = self.bytes.value.data
        if w < 1 or w & (w - 1):
            raise VerifyException(f"expected bytes a power of two, got {w}")


# ---- inter-CTA synchronisation: split-K's semaphore (lasscc.splitk) -----------------------------


def _verify_word(op) -> None:
    t = op.sem.type
    if str(t.get_element_type()) != "i32":
        raise VerifyException(f"expected an i32 memref (semaphore words), got {t}")


@irdl_op_definition
class SpinAcquireOp(IRDLOperation):
    """Spin until the 32-bit word sem[offset] equals `value`: a loop of
    `ld.acquire.gpu.global.b32` (PTX ISA 9.7.9.8, .acquire: memory model section 8; CUTLASS
    Semaphore::fetch / wait).  The load that sees `value` is an acquire at GPU scope: what the
    thread that released it made visible is visible to this thread from then on (to the rest of
    its CTA after a following bar.sync)."""

    name = "lass_nv.spin_acquire"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    sem = operand_def(MemRefType)
    offset = operand_def(i32)
    value = operand_def(i32)
    assembly_format = "$sem `[` $offset `]` `,` $value attr-dict `:` type($sem)"

    def verify_(self) -> None:
        _verify_word(self)


@irdl_op_definition
class StReleaseOp(IRDLOperation):
    """`st.release.gpu.global.b32` of `value` at sem[offset] (PTX ISA 9.7.9.9, .release: memory
    model section 8; CUTLASS Semaphore::release): the writes this thread observed before it (its
    CTA's, after a bar.sync) are visible to a thread that acquires the value."""

    name = "lass_nv.st_release"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    sem = operand_def(MemRefType)
    offset = operand_def(i32)
    value = operand_def(i32)
    assembly_format = "$sem `[` $offset `]` `,` $value attr-dict `:` type($sem)"

    def verify_(self) -> None:
        _verify_word(self)


LassNV = Dialect(
    "lass_nv",
    [
        ThreadIdOp,
        BlockIdOp,
        CpAsyncOp,
        CpAsyncCommitOp,
        CpAsyncWaitOp,
        BarSyncOp,
        LdmatrixX4Op,
        LdSharedOp,
        PrmtOp,
        MmaSyncOp,
        CvtRnaTf32Op,
        CvtRniS32Op,
        LdGlobalV4Op,
        StSharedV4Op,
        LdGlobalBOp,
        StSharedBOp,
        LdGlobalOp,
        StGlobalOp,
        StSharedOp,
        StGlobalV4Op,
        AlignedOp,
        SpinAcquireOp,
        StReleaseOp,
    ],
    [],
)
