"""Pieces shared by the lasscc dialects: the `<AxBxT>` shaped-type syntax and small helpers.

Every lasscc op declares its memory effects (xDSL traits), so the CSE and dead-code elimination
that run after every pass see through them, as MLIR's NVGPU / NVVM ops declare theirs: ops that
compute a value from their operands (and thread / block ids) are `Pure` (merged when identical,
removed when unused); loads are `MemoryReadEffect` (merged only with an identical load and no write
in between, removed when unused); stores are `MemoryWriteEffect`; asynchronous copies, cp.async
commit / wait and barriers read and write, so they are never merged or removed and no load is
merged across them.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, IntAttr, MemRefType, StridedLayoutAttr, StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


class ShapedTileBase(ParametrizedAttribute, TypeAttribute):
    """A statically shaped tile `!dialect.name<128x32xf16>`; subclasses give the name and meaning."""

    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    RANK: ClassVar[int] = 2  # subclasses with another rank override it

    def __init__(self, shape, element_type: Attribute):
        super().__init__(ArrayAttr([IntAttr(d) for d in shape]), element_type)

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            for d in self.get_shape():
                printer.print_string(f"{d}x")
            printer.print_attribute(self.element_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            dims, elem = parser.parse_ranked_shape()
        if any(d < 0 for d in dims):
            parser.raise_error(f"expected a static shape for {cls.name}, got a dynamic dimension")
        return (ArrayAttr([IntAttr(d) for d in dims]), elem)

    def verify(self) -> None:
        if len(self.shape.data) != self.RANK:
            raise VerifyException(f"expected a rank-{self.RANK} shape for {self.name}, got {self.get_shape()}")
        if any(d.data <= 0 for d in self.shape.data):
            raise VerifyException(f"expected positive dimensions in {self.name}, got {self.get_shape()}")


# How an operand tile is stored in shared memory (lasscc.layout.K_MAJOR / MN_MAJOR).
MAJORS = {"k": "K-major", "mn": "MN-major"}


class MajorTileBase(ShapedTileBase):
    """An operand tile type with its storage order: `<128x32xf16>` is K-major (the default, not
    printed), `<128x32xf16, mn>` MN-major.  The shape stays logical (rows x BK) either way."""

    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    major: StringAttr

    def __init__(self, shape, element_type: Attribute, major: str = "k"):
        ParametrizedAttribute.__init__(self, ArrayAttr([IntAttr(d) for d in shape]), element_type, StringAttr(major))

    @property
    def is_mn_major(self) -> bool:
        return self.major.data == "mn"

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            for d in self.get_shape():
                printer.print_string(f"{d}x")
            printer.print_attribute(self.element_type)
            if self.major.data != "k":
                printer.print_string(f", {self.major.data}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            dims, elem = parser.parse_ranked_shape()
            major = "k"
            if parser.parse_optional_punctuation(","):
                major = parser.parse_identifier(f"expected the storage order of {cls.name}: k or mn")
                if major not in MAJORS:
                    parser.raise_error(f"expected the storage order of {cls.name} to be k or mn, got {major}")
        if any(d < 0 for d in dims):
            parser.raise_error(f"expected a static shape for {cls.name}, got a dynamic dimension")
        return (ArrayAttr([IntAttr(d) for d in dims]), elem, StringAttr(major))

    def verify(self) -> None:
        super().verify()
        if self.major.data not in MAJORS:
            raise VerifyException(f"expected major = k or mn for {self.name}, got {self.major.data}")


def check_major(got, source_type, operand: str, what: str) -> None:
    """VerifyException unless tile type `got` is stored the way `operand` ("A"/"B") of memref
    `source_type` needs (operand_major)."""
    want = operand_major(source_type, operand)
    if want is not None and got.major.data != want:
        layout = {"row": "row-major", "col": "column-major"}[memref_layout(source_type)]
        raise VerifyException(
            f"expected {'an' if want == 'mn' else 'a'} {MAJORS[want]} {what} for a {layout} {operand}, "
            f"got {MAJORS.get(got.major.data, got.major.data)}"
        )


def int_list(attr) -> list[int]:
    """[128, 128, 32] from an ArrayAttr of IntegerAttr/IntAttr."""
    out = []
    for a in attr.data:
        v = a.value.data if hasattr(a, "value") else a.data
        out.append(int(v))
    return out


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


def layout_major(layout: str, operand: str) -> str:
    """How operand `operand` ("A": M x K, "B": K x N) in layout `layout` ("row" / "col") is stored:
    "k" when K is its contiguous dimension (row-major A, column-major B), "mn" when M or N is
    (column-major A, row-major B)."""
    return "k" if (layout == "row") == (operand == "A") else "mn"


def operand_major(t: MemRefType, operand: str) -> str | None:
    """layout_major of the memref type `t`; None for a layout that is neither row- nor column-major."""
    layout = memref_layout(t)
    return None if layout == "other" else layout_major(layout, operand)
