"""`lass_nv`: one op per PTX instruction the kernels use (input of `lasscc-lower-to-llvm`).

Per-thread semantics, as in the PTX ISA (section named on each op).  Shared-memory addresses are
i32 byte offsets into the kernel's dynamic shared memory; global addresses are a memref operand
plus an i32 element offset (the lowering widens it to 64 bits).  32-bit registers holding two
f16 values (`.f16x2`) are i32 here; the lowering bitcasts.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    MemRefType,
    StringAttr,
    UnitAttr,
    f16,
    f32,
    i1,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (Attribute, Dialect, Operation, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute, SSAValue,
                     TypeAttribute)
from xdsl.irdl import (
    AnyOf,
    AttrSizedOperandSegments,
    EqAttrConstraint,
    IRDLOperation,
    VarConstraint,
    attr_def,
    irdl_attr_definition,
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
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from lasscc import sm90_layout as S

CP_ASYNC_BYTES = (4, 8, 16)  # cp.async cp-size: 16 -> .cg (L2 only), 4 and 8 -> .ca (.cg takes 16 only)
# narrow accesses of lasscc-swizzle-smem's tile copies that have no cp.async (and the 4 / 8 byte
# ones of register-staged tiles): ld.global / st.shared of 1, 2, 4 or 8 bytes
NARROW_BYTES = (1, 2, 4, 8)
# mma.sync shape per A/B register type (PTX ISA "Matrix shape"; each k-group is 32 bytes of K)
MMA_SHAPES = {"f16": "m16n8k16", "bf16": "m16n8k16", "tf32": "m16n8k8", "s8": "m16n8k32"}
MMA_INPUT_TYPES = tuple(MMA_SHAPES)
MMA_ACC_TYPES = {"f16": ("f32", "f16"), "bf16": ("f32",), "tf32": ("f32",), "s8": ("i32",)}


class DimensionEnum(StrEnum):
    """A grid axis: x, y or z."""

    X = "x"
    Y = "y"
    Z = "z"


@irdl_attr_definition
class DimensionAttr(EnumAttribute[DimensionEnum], SpacedOpaqueSyntaxAttribute):
    """The axis of lass_nv.block_id (`#lass_nv<dim x>` in generic form; `x` in the op's).  lass_nv's own
    rather than xDSL's `gpu.dim`: importing that pulls in xDSL's gpu and memref dialects (~0.02 s of every
    compile, whose IR has no gpu or memref op)."""

    name = "lass_nv.dim"


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
    %ctaid.z (`lass_nv.block_id z`: the batch of a batched GEMM) (PTX ISA 10.6); the axis is a DimensionAttr."""

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
class GridDimOp(IRDLOperation):
    """%nctaid.x (PTX ISA 10.7): the CTAs of the grid, a stream-K kernel's persistent grid
    (lasscc.streamk), chosen at launch from the GPU's SM count."""

    name = "lass_nv.grid_dim"
    traits = traits_def(Pure())
    result = result_def(i32)
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[i32])


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


# ==== sm_90a: TMA, mbarrier and wgmma (issue 14) ===============================================
# One op per PTX instruction, as above.  Shared-memory operands are i32 byte offsets into the
# dynamic shared memory like every other op here; `shared_address` gives the absolute .shared
# window address a wgmma matrix descriptor holds.  The CPU semantics are lasscc/interp/sm90_ops.py.

# The facts of the sm_90a layouts (swizzle modes, TMA box rules, wgmma shapes and fragments) are
# lasscc.sm90_layout's; the ops below only name them.
# TMA swizzle modes as the IR spells them (`swizzle_128b`): sm90_layout.SwizzleMode's labels
TMA_SWIZZLE_NAMES = {m.label.lower(): m.name for m in S.SwizzleMode}
TMA_SWIZZLES = tuple(TMA_SWIZZLE_NAMES)
TMA_ELEMENT_TYPES = ("f16", "bf16", "f32", "i8", "i32")  # lasscc.runtime.tma.DATA_TYPES (i32: an s8 GEMM's D)
BULK_GROUPS_MAX = 7  # cp.async.bulk.wait_group N: the epilogue waits with 0 or 1 pending
TMA_BATCH_BOX_DEPTH = S.TMA_BATCH_BOX_DEPTH
MBARRIER_BYTES = 8  # an mbarrier object is a .b64 in shared memory, 8-byte aligned (PTX ISA 9.7.13.15.1)
MBARRIER_TX_MAX = (1 << 20) - 1  # tx-count range (PTX ISA 9.7.13.15.1 "Contents of the mbarrier object")
MBARRIER_COUNT_MAX = (1 << 20) - 1  # expected-arrival count range, same section
WARPGROUP_THREADS = S.WARPGROUP_THREADS
WGMMA_AB_TYPES = ("f16", "bf16", "tf32", "s8")  # the wgmma_mma_async ab_type values (PTX .atype names)
WGMMA_GROUPS_MAX = 7  # wgmma.wait_group N takes 0..7 here (PTX: an integer constant; more is pointless)


def wgmma_acc_count(n: int) -> int:
    """Accumulator values per thread of m64nN (f16 ones packed two per register by the lowering)."""
    return S.acc_values(n)


@irdl_attr_definition
class TensorMapType(ParametrizedAttribute, TypeAttribute):
    """A CUtensorMap kernel parameter: `!lass_nv.tensor_map<64x64xf16, swizzle_128b>` is a 2-d
    tiled tensor map whose box is 64 rows (outer dimension) x 64 elements (inner, contiguous
    dimension) of f16, stored in shared memory under the 128-byte swizzle.  The host builds the
    128 opaque bytes with cuTensorMapEncodeTiled (lasscc/runtime/tma.py) from the global matrix
    and this box and swizzle; the kernel takes them as a 64-byte aligned grid-constant `.param`
    (lasscc-lower-to-llvm).  A pass refers to the map by the function argument of this type.
    Element types: f16, bf16, f32 (tf32 operands), i8; the box obeys cuTensorMapEncodeTiled's
    rules (sm90_layout.tma_box_error: 1..256 per dimension, the inner extent a multiple of 16
    bytes and at most the swizzle span).  `!lass_nv.tensor_map<1x64x64xf16, swizzle_128b>` is a
    3-d map over batch-first matrices (a batched GEMM's operand): the batch is its outermost
    dimension and the box one matrix deep (TMA_BATCH_BOX_DEPTH), so a box past a matrix's edge
    reads zeros, never the next batch's rows."""

    name = "lass_nv.tensor_map"
    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    swizzle: StringAttr

    def __init__(self, rows: int, cols: int, element_type: Attribute, swizzle: str, batched: bool = False):
        dims = ([TMA_BATCH_BOX_DEPTH] if batched else []) + [rows, cols]
        super().__init__(ArrayAttr([IntAttr(d) for d in dims]), element_type, StringAttr(swizzle))

    @property
    def rank(self) -> int:
        """2, or 3 for a batched map (batch outermost)."""
        return len(self.shape.data)

    @property
    def batched(self) -> bool:
        return self.rank == 3

    @property
    def box(self) -> tuple[int, int]:
        """(rows, cols): outer x inner box extent in elements of one matrix (a batched map's box is
        one matrix deep)."""
        return tuple(d.data for d in self.shape.data[-2:])

    @property
    def swizzle_mode(self) -> str:
        return self.swizzle.data

    @property
    def mode(self) -> S.SwizzleMode:
        """The sm90_layout.SwizzleMode of `swizzle`."""
        return S.SwizzleMode[TMA_SWIZZLE_NAMES[self.swizzle.data]]

    @property
    def element_name(self) -> str:
        return "i8" if str(self.element_type) == "i8" else str(self.element_type)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string("".join(f"{d.data}x" for d in self.shape.data))
            printer.print_attribute(self.element_type)
            printer.print_string(f", swizzle_{self.swizzle.data}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            dims, elem = parser.parse_ranked_shape()
            parser.parse_punctuation(",", " before the swizzle mode")
            word = parser.parse_identifier(" (the swizzle mode: swizzle_none, swizzle_32b, swizzle_64b, swizzle_128b)")
            if not word.startswith("swizzle_") or word[len("swizzle_"):] not in TMA_SWIZZLES:
                parser.raise_error(f"expected swizzle_none, swizzle_32b, swizzle_64b or swizzle_128b, got {word}")
        return (ArrayAttr([IntAttr(d) for d in dims]), elem, StringAttr(word[len("swizzle_"):]))

    def verify(self) -> None:
        dims = [d.data for d in self.shape.data]
        if len(dims) not in (2, 3) or (len(dims) == 3 and dims[0] != TMA_BATCH_BOX_DEPTH):
            raise VerifyException(f"expected a 2-d box (rows x cols) or a 3-d one {TMA_BATCH_BOX_DEPTH} matrix deep "
                                  f"(batch x rows x cols), got {dims}")
        dims = dims[-2:]
        if self.element_name not in TMA_ELEMENT_TYPES:
            raise VerifyException(f"expected an element type of {', '.join(TMA_ELEMENT_TYPES)}, got {self.element_type}")
        if self.swizzle.data not in TMA_SWIZZLES:
            raise VerifyException(f"expected swizzle one of {', '.join(TMA_SWIZZLES)}, got {self.swizzle.data}")
        eb = self.element_type.bitwidth // 8
        err = S.tma_box_error((dims[1], dims[0]), eb, self.mode)
        if err:
            raise VerifyException(f"expected a TMA box: {err}")


@irdl_op_definition
class SharedAddressOp(IRDLOperation):
    """The 32-bit .shared window address of dynamic shared-memory byte `offset` (PTX ISA 5.1.3
    "Shared State Space"; `mov.u32 r, lass_smem` plus the offset: what `cvta.to.shared` gives
    for a generic pointer).  wgmma matrix descriptors hold this address >> 4; the dynamic shared
    memory need not start at window address 0, so descriptors are built from it, never from the
    offset.

        %a = lass_nv.shared_address %off
    """

    name = "lass_nv.shared_address"
    traits = traits_def(Pure())
    offset = operand_def(i32)
    result = result_def(i32)
    assembly_format = "$offset attr-dict"


@irdl_op_definition
class WarpBroadcastOp(IRDLOperation):
    """shfl.sync.idx.b32 %r, %x, 0, 0x1f, 0xffffffff (PTX ISA 9.7.9.6 "shfl.sync"): lane 0's value
    of %x in every lane of the (fully active) warp.  Used on values that are warp-uniform but
    derive from %tid.x (a warpgroup's index): ptxas then knows the result is uniform and keeps what
    is computed from it (wgmma descriptors) in uniform registers, not per-thread registers moved
    over with R2UR before each wgmma (CUTLASS's canonical_warp_group_idx does the same)."""

    name = "lass_nv.warp_broadcast"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())  # warp-collective: never merged or moved
    value = operand_def(i32)
    result = result_def(i32)
    assembly_format = "$value attr-dict"


@irdl_op_definition
class ElectSyncOp(IRDLOperation):
    """elect.sync %r|%p, 0xffffffff (PTX ISA 9.7.13.9 "elect.sync"): true in exactly one lane of
    the (fully active) warp, the lowest-numbered one.  The TMA producer's issuing thread."""

    name = "lass_nv.elect_sync"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())  # warp-collective: never merged or moved
    result = result_def(i1)
    assembly_format = "attr-dict"


@irdl_op_definition
class MbarrierInitOp(IRDLOperation):
    """mbarrier.init.shared::cta.b64 [bar], count (PTX ISA 9.7.13.15.9): the mbarrier at shared
    byte `bar` (8-byte aligned) starts phase 0 expecting `count` arrivals (1 to 2^20 - 1) and a
    tx-count of 0.  Make it visible with fence.mbarrier_init / a barrier before other threads use
    it."""

    name = "lass_nv.mbarrier_init"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    bar = operand_def(i32)
    count = operand_def(i32)
    assembly_format = "$bar `,` $count attr-dict"


@irdl_op_definition
class MbarrierArriveOp(IRDLOperation):
    """mbarrier.arrive.shared::cta.b64 _, [bar] (PTX ISA 9.7.13.15.13, release at CTA scope): one
    arrival on the current phase; the phase completes when its pending arrivals reach 0 and its
    tx-count is 0 (the state result is not used here)."""

    name = "lass_nv.mbarrier_arrive"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    bar = operand_def(i32)
    assembly_format = "$bar attr-dict"


@irdl_op_definition
class MbarrierArriveExpectTxOp(IRDLOperation):
    """mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], tx (PTX ISA 9.7.13.15.12 + .13): raise
    the current phase's tx-count by `tx` bytes (the bytes the TMA copies signalling this barrier
    will complete), then arrive once."""

    name = "lass_nv.mbarrier_arrive_expect_tx"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    bar = operand_def(i32)
    tx = operand_def(i32)
    assembly_format = "$bar `,` $tx attr-dict"


@irdl_op_definition
class MbarrierWaitParityOp(IRDLOperation):
    """Wait until the phase of parity `parity` (0 or 1) of the mbarrier at `bar` has completed:
    the loop `L: mbarrier.try_wait.parity.shared::cta.b64 p, [bar], parity; @!p bra L` (PTX ISA
    9.7.13.15.16, acquire at CTA scope; the lowering writes the loop).  try_wait.parity succeeds
    when the barrier's current (incomplete) phase has the other parity; once it returns, the
    bytes the phase's TMA copies wrote are visible to the waiting thread."""

    name = "lass_nv.mbarrier_wait_parity"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    bar = operand_def(i32)
    parity = operand_def(i32)
    assembly_format = "$bar `,` $parity attr-dict"


@irdl_op_definition
class FenceProxyAsyncOp(IRDLOperation):
    """fence.proxy.async.shared::cta (PTX ISA 9.7.13.4 "membar/fence", proxy fence): orders this
    thread's generic-proxy shared-memory accesses with later async-proxy ones (TMA, wgmma operand
    reads) and the other way round."""

    name = "lass_nv.fence_proxy_async"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "attr-dict"


@irdl_op_definition
class FenceMbarrierInitOp(IRDLOperation):
    """fence.mbarrier_init.release.cluster (PTX ISA 9.7.13.4): makes this thread's prior
    mbarrier.init visible to the async proxy (TMA complete_tx) and other threads after a
    barrier."""

    name = "lass_nv.fence_mbarrier_init"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "attr-dict"


@irdl_op_definition
class TmaLoad2dOp(IRDLOperation):
    """cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
    [dst], [tmap, {c0, c1}], [bar] (PTX ISA 9.7.9.27.1.2 "cp.async.bulk.tensor"): copy the box of
    the tensor map at element coordinates (c0 inner, c1 outer; may lie partly or wholly outside
    the matrix: those elements are zero-filled) to shared byte `dst` (128-byte aligned; 1024 for
    the 128-byte swizzle) in the map's swizzle, and complete the box's bytes as transactions on
    the mbarrier at `bar`.  Issued by one thread.

        lass_nv.tma_load_2d %tmap[%c0, %c1], %dst, %bar : !lass_nv.tensor_map<64x64xf16, swizzle_128b>
    """

    name = "lass_nv.tma_load_2d"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    tmap = operand_def(TensorMapType)
    c0 = operand_def(i32)
    c1 = operand_def(i32)
    dst = operand_def(i32)
    bar = operand_def(i32)
    assembly_format = "$tmap `[` $c0 `,` $c1 `]` `,` $dst `,` $bar attr-dict `:` type($tmap)"

    def verify_(self) -> None:
        if self.tmap.type.rank != 2:
            raise VerifyException(f"expected a 2-d tensor map, got {self.tmap.type} (tma_load_3d loads a 3-d one)")


@irdl_op_definition
class TmaLoad3dOp(IRDLOperation):
    """cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
    [dst], [tmap, {c0, c1, c2}], [bar]: tma_load_2d on a 3-d (batched) tensor map, c2 the batch
    (outermost; the box is TMA_BATCH_BOX_DEPTH matrix deep, so it lands exactly the bytes the
    2-d box of one matrix does, zero-filled outside that matrix and outside the batches).

        lass_nv.tma_load_3d %tmap[%c0, %c1, %c2], %dst, %bar : !lass_nv.tensor_map<1x64x64xf16, swizzle_128b>
    """

    name = "lass_nv.tma_load_3d"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    tmap = operand_def(TensorMapType)
    c0 = operand_def(i32)
    c1 = operand_def(i32)
    c2 = operand_def(i32)
    dst = operand_def(i32)
    bar = operand_def(i32)
    assembly_format = "$tmap `[` $c0 `,` $c1 `,` $c2 `]` `,` $dst `,` $bar attr-dict `:` type($tmap)"

    def verify_(self) -> None:
        if self.tmap.type.rank != 3:
            raise VerifyException(f"expected a 3-d (batched) tensor map, got {self.tmap.type}")


@irdl_op_definition
class WgmmaFenceOp(IRDLOperation):
    """wgmma.fence.sync.aligned (PTX ISA 9.7.15.7.1): orders earlier register (accumulator, RS
    A) and shared-memory accesses before the next wgmma.mma_async of the warpgroup; required
    before the first wgmma and whenever the accumulators were touched outside wgmma."""

    name = "lass_nv.wgmma_fence"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "attr-dict"


@irdl_op_definition
class WgmmaCommitGroupOp(IRDLOperation):
    """wgmma.commit_group.sync.aligned (PTX ISA 9.7.15.7.2): the warpgroup's uncommitted
    wgmma.mma_async ops become one wgmma-group."""

    name = "lass_nv.wgmma_commit_group"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "attr-dict"


@irdl_op_definition
class WgmmaWaitGroupOp(IRDLOperation):
    """wgmma.wait_group.sync.aligned N (PTX ISA 9.7.15.7.3): wait until at most `pending` of the
    warpgroup's committed wgmma-groups are still running; only then may their accumulators be
    read (or their shared-memory operands overwritten)."""

    name = "lass_nv.wgmma_wait_group"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    pending = attr_def(IntegerAttr)
    assembly_format = "attr-dict"

    def verify_(self) -> None:
        n = self.pending.value.data
        if not 0 <= n <= WGMMA_GROUPS_MAX:
            raise VerifyException(f"expected pending in 0..{WGMMA_GROUPS_MAX}, got {n}")


@irdl_op_definition
class WgmmaMmaAsyncOp(IRDLOperation):
    """wgmma.mma_async.sync.aligned.m64n{N}k{K}.{acc}.{ab}.{ab} d, a, b-desc, scale-d[, imm-scale-a,
    imm-scale-b[, imm-trans-a, imm-trans-b]] (PTX ISA 9.7.15.5.2 "wgmma.mma_async"), issued by the
    128 threads of a warpgroup:  D (64 x N) = A (64 x K) . B (K x N) + (scale_d ? C : 0).

    a: one i64 matrix descriptor (SS: A in shared memory) or 4 x i32 registers (RS: A's fragment,
    K-major, PTX ISA 9.7.15.5.1 "Register fragments"); b_desc: i64 descriptor of B (N x K in the
    ISA's terms "K x N", stored per the descriptor, PTX ISA 9.7.15.5.1 "Matrix descriptor").
    c: the thread's N/2 accumulator values (f32, f16 for f16 inputs, i32 for s8), d the same
    after the op, in the accumulator fragment layout (PTX ISA 9.7.15.5.1 "Register fragments:
    D"); the values of d may be read only after a wgmma.wait_group retires the op's group
    (another wgmma of the same shape may take them as its c before that).  scale_d: i1 (false:
    C is ignored, the first K step).  Attributes: n, ab_type (f16 default, bf16, tf32, s8),
    scale_a / scale_b (1 or -1, f16/bf16/tf32), trans_a / trans_b (0 or 1: MN-major operand,
    f16/bf16 only; trans_a only for SS).  s8 uses `.satfinite`.

        %d0, ... = lass_nv.wgmma_mma_async a(%da) b(%db) c(%c0, ...) scale_d %p {n = 64 : i64} : f32
    """

    name = "lass_nv.wgmma_mma_async"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())  # reads shared memory asynchronously
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    a = var_operand_def()
    b_desc = operand_def(i64)
    c = var_operand_def()
    scale_d = operand_def(i1)
    d = var_result_def()
    n = attr_def(IntegerAttr)
    ab_type = opt_attr_def(StringAttr)
    scale_a = opt_attr_def(IntegerAttr)
    scale_b = opt_attr_def(IntegerAttr)
    trans_a = opt_attr_def(IntegerAttr)
    trans_b = opt_attr_def(IntegerAttr)

    def __init__(self, a, b_desc, c, scale_d, n: int, ab_type: str = "f16", *, scale_a: int = 1,
                 scale_b: int = 1, trans_a: int = 0, trans_b: int = 0):
        a = [a] if isinstance(a, (SSAValue, Operation)) else list(a)
        c = list(c)
        attrs = {"n": IntegerAttr(n, 64)}
        if ab_type != "f16":
            attrs["ab_type"] = StringAttr(ab_type)
        for key, val, default in (("scale_a", scale_a, 1), ("scale_b", scale_b, 1), ("trans_a", trans_a, 0),
                                  ("trans_b", trans_b, 0)):
            if val != default:
                attrs[key] = IntegerAttr(val, 64)
        acc_t = SSAValue.get(c[0]).type if c else f32
        super().__init__(operands=[a, b_desc, c, scale_d], result_types=[[acc_t] * len(c)], attributes=attrs)

    @property
    def input_type(self) -> str:
        return "f16" if self.ab_type is None else self.ab_type.data

    @property
    def n_value(self) -> int:
        return self.n.value.data

    @property
    def k_value(self) -> int:
        return S.wgmma_type(self.input_type).k if self.input_type in WGMMA_AB_TYPES else 16

    @property
    def is_rs(self) -> bool:
        return len(self.a) != 1

    @property
    def acc_type(self):
        return self.c[0].type if self.c else f32

    def imm(self, key: str) -> int:
        attr = getattr(self, key)
        return {"scale_a": 1, "scale_b": 1, "trans_a": 0, "trans_b": 0}[key] if attr is None else attr.value.data

    @property
    def shape(self) -> str:
        return f"m64n{self.n_value}k{self.k_value}"

    def verify_(self) -> None:
        ab = self.input_type
        if ab not in WGMMA_AB_TYPES:
            raise VerifyException(f"expected ab_type one of {', '.join(WGMMA_AB_TYPES)}, got \"{ab}\"")
        n = self.n_value
        t = S.wgmma_type(ab)
        if n not in t.n_values:
            raise VerifyException(f"expected n one of {', '.join(map(str, t.n_values))} for ab_type {ab}, got {n}")
        a_types = [str(x.type) for x in self.a]
        if a_types != ["i64"] and a_types != ["i32"] * S.A_FRAG_REGS:
            raise VerifyException(
                f"expected a = one i64 descriptor (SS) or {S.A_FRAG_REGS} i32 registers (RS), got {a_types}")
        want_n = wgmma_acc_count(n)
        c_types = [str(x.type) for x in self.c]
        if len(c_types) != want_n or len(set(c_types)) != 1:
            raise VerifyException(f"expected {want_n} accumulator values of one type for m64n{n}, got {len(c_types)}: "
                                  f"{sorted(set(c_types))}")
        accs = ["i32" if x == "s32" else x for x in t.acc_types]
        if c_types[0] not in accs:
            raise VerifyException(f"expected a {' or '.join(accs)} accumulator for ab_type {ab}, got {c_types[0]}")
        if [str(x.type) for x in self.d] != c_types:
            raise VerifyException(f"expected results of the accumulator types {c_types[0]} x {want_n}, got "
                                  f"{[str(x.type) for x in self.d][:2]}... ({len(self.d)})")
        for key in ("scale_a", "scale_b"):
            v = self.imm(key)
            if v not in (1, -1) or (ab == "s8" and v != 1):
                raise VerifyException(f"expected {key} = 1{' or -1' if ab != 's8' else ' (s8 has no imm-scale)'}, got {v}")
        for key in ("trans_a", "trans_b"):
            v = self.imm(key)
            if v not in (0, 1) or (v and not t.mn_major):
                raise VerifyException(f"expected {key} = 0{' or 1' if ab in ('f16', 'bf16') else ' (transpose is for f16/bf16 only)'}, got {v}")
        if self.is_rs and self.imm("trans_a"):
            raise VerifyException("expected trans_a = 0 with A from registers (RS: A is K-major), got 1")

    def print(self, printer: Printer) -> None:
        for key, vals in (("a", self.a), ("b", (self.b_desc,)), ("c", self.c)):
            printer.print_string(f" {key}(")
            printer.print_list(vals, printer.print_operand)
            printer.print_string(")")
        printer.print_string(" scale_d ")
        printer.print_operand(self.scale_d)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.acc_type)

    @classmethod
    def parse(cls, parser: Parser) -> "WgmmaMmaAsyncOp":
        groups = []
        for key in ("a", "b", "c"):
            parser.parse_keyword(key)
            groups.append(parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand))
        parser.parse_keyword("scale_d")
        scale = parser.parse_operand(i1)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":", " before the accumulator type")
        acc_t = parser.parse_type()
        a_t = i64 if len(groups[0]) == 1 else i32
        a = [parser.resolve_operand(x, a_t) for x in groups[0]]
        if len(groups[1]) != 1:
            parser.raise_error(f"expected one operand in b(...), got {len(groups[1])}")
        b = parser.resolve_operand(groups[1][0], i64)
        c = [parser.resolve_operand(x, acc_t) for x in groups[2]]
        op = cls.create(operands=[*a, b, *c, scale], result_types=[acc_t] * len(c), attributes=attrs,
                        properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [len(a), 1, len(c), 1])})
        return op


@irdl_op_definition
class StmatrixX4Op(IRDLOperation):
    """stmatrix.sync.aligned.m8n8.x4.shared.b16 [addr], {r0, r1, r2, r3} (PTX ISA 9.7.14.5.16), warp-wide:
    lanes 8i .. 8i + 7 give the shared byte addresses (16-byte aligned) of rows 0..7 of matrix i;
    register ri of lane l holds row l / 4, columns 2 (l % 4), 2 (l % 4) + 1 of matrix i.  Here the
    registers are given as their 8 16-bit values (value 2i the low half of ri), packed by the
    lowering.  The TMA-store epilogue writes a 16-bit D's accumulator fragment with it.

        lass_nv.stmatrix_x4 %addr, %v0, ..., %v7 : f16, ..., f16
    """

    name = "lass_nv.stmatrix_x4"
    traits = traits_def(MemoryWriteEffect())
    addr = operand_def(i32)
    values = var_operand_def()
    assembly_format = "$addr `,` $values attr-dict `:` type($values)"

    def verify_(self) -> None:
        types = [str(v.type) for v in self.values]
        if len(types) != 8 or len(set(types)) != 1 or types[0] not in ("f16", "bf16"):
            raise VerifyException(f"expected 8 values of one 16-bit type (f16 or bf16), got {types}")


@irdl_op_definition
class TmaStore2dOp(IRDLOperation):
    """cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [tmap, {c0, c1}], [src] (PTX ISA
    9.7.9.27.1.2): copy the box of the tensor map from shared byte `src` (its pattern-aligned start,
    read through the map's swizzle) to the global tensor at element coordinates (c0 inner, c1
    outer); elements outside the tensor are not written.  Issued by one thread; the store joins
    the thread's open bulk async-group (bulk_commit_group), and its source may be overwritten only
    after a bulk_wait_group_read retired that group.  Generic writes of the source must be made
    visible to the async proxy first (fence_proxy_async).

        lass_nv.tma_store_2d %tmap[%c0, %c1], %src : !lass_nv.tensor_map<128x64xf16, swizzle_128b>
    """

    name = "lass_nv.tma_store_2d"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    tmap = operand_def(TensorMapType)
    c0 = operand_def(i32)
    c1 = operand_def(i32)
    src = operand_def(i32)
    assembly_format = "$tmap `[` $c0 `,` $c1 `]` `,` $src attr-dict `:` type($tmap)"

    def verify_(self) -> None:
        if self.tmap.type.rank != 2:
            raise VerifyException(f"expected a 2-d tensor map, got {self.tmap.type} (tma_store_3d stores a 3-d one)")


@irdl_op_definition
class TmaStore3dOp(IRDLOperation):
    """tma_store_2d on a 3-d (batched) tensor map, c2 the batch: the box of one matrix, clipped at
    that matrix's bounds (nothing is written for c2 outside the batch).

        lass_nv.tma_store_3d %tmap[%c0, %c1, %c2], %src : !lass_nv.tensor_map<1x128x64xf16, swizzle_128b>
    """

    name = "lass_nv.tma_store_3d"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    tmap = operand_def(TensorMapType)
    c0 = operand_def(i32)
    c1 = operand_def(i32)
    c2 = operand_def(i32)
    src = operand_def(i32)
    assembly_format = "$tmap `[` $c0 `,` $c1 `,` $c2 `]` `,` $src attr-dict `:` type($tmap)"

    def verify_(self) -> None:
        if self.tmap.type.rank != 3:
            raise VerifyException(f"expected a 3-d (batched) tensor map, got {self.tmap.type}")


@irdl_op_definition
class BulkCommitGroupOp(IRDLOperation):
    """cp.async.bulk.commit_group (PTX ISA 9.7.9.27.3): this thread's bulk copies since the last
    commit (TMA stores) become one bulk async-group."""

    name = "lass_nv.bulk_commit_group"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "attr-dict"


@irdl_op_definition
class BulkWaitGroupReadOp(IRDLOperation):
    """cp.async.bulk.wait_group.read N (PTX ISA 9.7.9.27.4): wait until at most `pending` of this
    thread's bulk async-groups have not finished reading their shared-memory source (their
    global writes may still be in flight); only then may those sources be overwritten."""

    name = "lass_nv.bulk_wait_group_read"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    pending = attr_def(IntegerAttr)
    assembly_format = "attr-dict"

    def verify_(self) -> None:
        n = self.pending.value.data
        if not 0 <= n <= BULK_GROUPS_MAX:
            raise VerifyException(f"expected pending in 0..{BULK_GROUPS_MAX}, got {n}")


SM90_OPS = [
    SharedAddressOp,
    ElectSyncOp,
    WarpBroadcastOp,
    MbarrierInitOp,
    MbarrierArriveOp,
    MbarrierArriveExpectTxOp,
    MbarrierWaitParityOp,
    FenceProxyAsyncOp,
    FenceMbarrierInitOp,
    TmaLoad2dOp,
    TmaLoad3dOp,
    WgmmaFenceOp,
    WgmmaCommitGroupOp,
    WgmmaWaitGroupOp,
    WgmmaMmaAsyncOp,
    StmatrixX4Op,
    TmaStore2dOp,
    TmaStore3dOp,
    BulkCommitGroupOp,
    BulkWaitGroupReadOp,
]
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
        *SM90_OPS,
        SpinAcquireOp,
        GridDimOp,
        StReleaseOp,
    ],
    [TensorMapType, DimensionAttr],
)
