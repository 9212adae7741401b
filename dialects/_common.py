"""Pieces shared by the lasscc dialects: the `<AxBxT>` shaped-type syntax and small helpers."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, IntAttr
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


def int_list(attr) -> list[int]:
    """[128, 128, 32] from an ArrayAttr of IntegerAttr/IntAttr."""
    out = []
    for a in attr.data:
        v = a.value.data if hasattr(a, "value") else a.data
        out.append(int(v))
    return out
