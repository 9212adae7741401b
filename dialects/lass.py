"""`lass`: the input level.  One op, `lass.gemm`, in the style of linalg.

    D = alpha * A . B + beta * C      (C is read from and D written to the `outs` buffer)

A is M x K, B is K x N, D is M x N, all memrefs; the layout is the memref's: an identity layout is
row-major, `strided<[1, ?]>` is column-major.  Sizes are dynamic and reach the kernel at launch.
Batched GEMM: all three memrefs 3-d with the batch first (`memref<?x?x?xf16>`,
`memref<?x?x?xf16, strided<[?, 1, ?]>>`), batches packed one after the other.

Element types (A and B alike) and the accumulator `acc` (optional, a type; the default is f32, or
i32 for i8): f16 -> acc f32 or f16; bf16 -> f32; f32 (multiplied as tf32) -> f32; i8 -> i32.

Example (round-trips):

    func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
      lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32, config = {stages = 3 : i64}}
          ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
      func.return
    }
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DictionaryAttr,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    f32,
    i32,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Dialect, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import IRDLOperation, irdl_attr_definition, irdl_op_definition, operand_def, opt_attr_def, traits_def
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum


def memref_layout(t: MemRefType) -> str:
    """Layout of the matrix (the last two dimensions; a leading one is the batch):
    'row' (identity or strided<[.., ?, 1]>), 'col' (strided<[.., 1, ?]>), or 'other'."""
    layout = t.layout
    if isinstance(layout, StridedLayoutAttr):
        strides = layout.get_strides()[-2:]
        if len(strides) == 2 and strides[1] == 1:
            return "row"
        if len(strides) == 2 and strides[0] == 1:
            return "col"
        return "other"
    if layout is None or layout.__class__.__name__ == "NoneAttr":
        return "row"
    return "other"


# accumulator types the mma.sync instructions offer per A/B element type (PTX ISA "mma"): the first
# is the default.  f16 -> f16 is m16n8k16 .f16.f16.f16.f16; f32 inputs run as tf32 (m16n8k8); i8
# as s8 (m16n8k32, s32 accumulators).
ACC_TYPES = {"f16": ("f32", "f16"), "bf16": ("f32",), "f32": ("f32",), "i8": ("i32",)}
class Operand(StrEnum):
    """Which GEMM operand a tile copy moves: A (M x K) or B (K x N).  Compares equal to "A" / "B"."""

    A = "A"
    B = "B"


@irdl_attr_definition
class OperandAttr(EnumAttribute[Operand], SpacedOpaqueSyntaxAttribute):
    """The `operand` of the tile copies (lass_tb.load_tile, lass_pipe.copy_async / load_regs):
    `A` or `B` in their syntax, `#lass<operand A>` in the generic form."""

    name = "lass.operand"


def operand_attr(operand: str) -> OperandAttr:
    return OperandAttr(Operand(operand))


def operand_major(t: MemRefType, operand: str) -> str | None:
    """How kernel operand `operand` ("A": M x K, "B": K x N) of memref type `t` is stored:
    "k" when K is its contiguous dimension (row-major A, column-major B), "mn" when M or N is
    (column-major A, row-major B); None for another layout."""
    layout = memref_layout(t)
    if layout == "other":
        return None
    return "k" if (layout == "row") == (operand == "A") else "mn"


@irdl_op_definition
class GemmOp(IRDLOperation):
    """D = alpha * A . B + beta * C on memrefs; `outs` is both C and D.

    `config` holds the tiling (`threadblock`, `warp`, `instruction`, `stages`, `raster`); every key
    has a default (lasscc.config.GemmConfig).  `acc` is the accumulator type (ACC_TYPES).
    """

    name = "lass.gemm"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    a = operand_def(MemRefType)
    b = operand_def(MemRefType)
    d = operand_def(MemRefType)
    alpha = opt_attr_def(FloatAttr)
    beta = opt_attr_def(FloatAttr)
    config = opt_attr_def(DictionaryAttr)
    acc = opt_attr_def(Attribute)

    assembly_format = (
        "attr-dict `ins` `(` $a `,` $b `:` type($a) `,` type($b) `)` `outs` `(` $d `:` type($d) `)`"
    )

    def __init__(self, a, b, d, alpha: float = 1.0, beta: float = 0.0, config: DictionaryAttr | None = None):
        attrs = {"alpha": FloatAttr(alpha, Float32Type()), "beta": FloatAttr(beta, Float32Type())}
        if config is not None:
            attrs["config"] = config
        super().__init__(operands=[a, b, d], attributes=attrs)

    def verify_(self) -> None:
        ta, tb, td = (v.type for v in (self.a, self.b, self.d))
        rank = ta.get_num_dims()
        for name, t in (("A", ta), ("B", tb), ("D", td)):
            assert isinstance(t, MemRefType)
            if t.get_num_dims() not in (2, 3) or t.get_num_dims() != rank:
                raise VerifyException(
                    f"expected 2-d memrefs (or 3-d, batch first, for all three) for A, B and D, got {t} for {name}"
                )
            if 0 in t.get_shape():
                raise VerifyException(f"expected non-zero sizes for {name} (a GEMM of an empty matrix), got {t}")
            if not isinstance(t.memory_space, NoneAttr) and t.memory_space != IntegerAttr(0, i64):
                raise VerifyException(f"expected {name} in global memory (a memref without a memory space), got {t}")
        if ta.get_element_type() != tb.get_element_type():
            raise VerifyException(
                f"expected A and B of one element type, got {ta.get_element_type()} and {tb.get_element_type()}"
            )
        self._verify_acc(str(ta.get_element_type()))
        if rank == 3:
            batches = {t.get_shape()[0] for t in (ta, tb, td)} - {DYNAMIC_INDEX}
            if len(batches) > 1:
                raise VerifyException(f"expected one batch size for A, B and D, got {sorted(batches)}")
        (m, ka), (kb, n), (md, nd) = ta.get_shape()[-2:], tb.get_shape()[-2:], td.get_shape()[-2:]
        for what, x, y in (("K of A and K of B", ka, kb), ("M of A and M of D", m, md), ("N of B and N of D", n, nd)):
            if x >= 0 and y >= 0 and x != y:
                raise VerifyException(f"expected {what} to agree, got {x} and {y}")

    def _verify_acc(self, ab: str) -> None:
        if self.acc is None:
            return
        allowed = ACC_TYPES.get(ab)
        if str(self.acc) not in ("f32", "f16", "i32") or (allowed is not None and str(self.acc) not in allowed):
            raise VerifyException(
                f"expected acc {' or '.join(allowed or ('f32', 'f16', 'i32'))}"
                + (f" for {ab} A and B" if allowed else "") + f", got {self.acc}"
            )

    @property
    def acc_type(self) -> Attribute:
        """The accumulator type: `acc`, or the default for the input type (f32; i32 for i8)."""
        if self.acc is not None:
            return self.acc
        return i32 if str(self.a.type.get_element_type()) == "i8" else f32

    @property
    def alpha_value(self) -> float:
        return 1.0 if self.alpha is None else float(self.alpha.value.data)

    @property
    def beta_value(self) -> float:
        return 0.0 if self.beta is None else float(self.beta.value.data)


Lass = Dialect("lass", [GemmOp], [OperandAttr])
