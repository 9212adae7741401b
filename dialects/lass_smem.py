"""`lass_smem`: physical shared-memory addressing (output of `lasscc-swizzle-smem`).

    %phys = lass_smem.swizzle %logical {bits = 3 : i64, base = 4 : i64, shift = 3 : i64}

maps a logical byte offset within a tile to its physical offset under Swizzle<bits, base, shift>
(lasscc.layout.swizzle_byte_offset holds the formula).  Kept as one op, not inlined arithmetic,
so dumps show where the swizzle applies; `lasscc-lower-to-llvm` expands it into shifts and XORs.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Dialect
from xdsl.irdl import (
    IRDLOperation,
    attr_def,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class SwizzleOp(IRDLOperation):
    """phys = logical ^ (((logical >> (base + shift)) & (2^bits - 1)) << base)."""

    name = "lass_smem.swizzle"
    traits = traits_def(Pure())
    logical = operand_def(i32)
    result = result_def(i32)
    bits = attr_def(IntegerAttr)
    base = attr_def(IntegerAttr)
    shift = attr_def(IntegerAttr)
    assembly_format = "$logical attr-dict"

    def verify_(self) -> None:
        b, m, s = (a.value.data for a in (self.bits, self.base, self.shift))
        if not (0 <= b <= 8 and 0 <= m <= 8 and s >= b):
            raise VerifyException(f"expected 0 <= bits, base <= 8 and shift >= bits, got bits={b} base={m} shift={s}")

    def params(self) -> tuple[int, int, int]:
        return self.bits.value.data, self.base.value.data, self.shift.value.data


LassSmem = Dialect("lass_smem", [SwizzleOp], [])
