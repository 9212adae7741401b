"""`lass_warp`: warp-level fragment loads (output of `lasscc-warp-mma`).

From this level on the IR is the program of ONE thread (SIMT): values are per-thread registers.
The warp-mma pass unrolls each warp's tile into `lass_nv.mma_sync` ops on fragments; the
fragments come from these ops, which still address shared memory logically (ring slot, row, k):
`lasscc-swizzle-smem` turns them into `ldmatrix.x4` on physical, swizzled addresses.

    %a0, %a1, %a2, %a3 = lass_warp.load_frag_a %ra[%slot], %row, %k : !lass_pipe.ring<3x128x32xf16>
    %b0, %b1, %b2, %b3 = lass_warp.load_frag_b %rb[%slot], %n, %k : !lass_pipe.ring<3x128x32xf16>
"""

from __future__ import annotations

from lasscc.dialects.lass_pipe import RingType
from xdsl.dialects.builtin import UnitAttr, i32
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_prop_def, result_def, traits_def
from xdsl.traits import MemoryReadEffect


class _LoadFragBase(IRDLOperation):
    traits = traits_def(MemoryReadEffect())
    ring = operand_def(RingType)
    slot = operand_def(i32)
    row = operand_def(i32)
    k = operand_def(i32)
    r0 = result_def(i32)
    r1 = result_def(i32)
    r2 = result_def(i32)
    r3 = result_def(i32)
    # rows (A) / columns (B) paired: see the op docstrings and lasscc.layout.frag_interleave
    interleaved = opt_prop_def(UnitAttr)
    assembly_format = "$ring `[` $slot `]` `,` $row `,` $k (`interleaved` $interleaved^)? attr-dict `:` type($ring)"


@irdl_op_definition
class LoadFragAOp(_LoadFragBase):
    """This lane's share of the 16-row A fragment of one k-group (32 bytes of K) at (row, k) of
    ring[slot], as the four 32-bit registers of the mma's A operand (PTX ISA fragment layout:
    f16x2 / bf16x2 for m16n8k16, one f32 (to be rounded to tf32) for m16n8k8, four s8 for
    m16n8k32; lasscc.layout.mma_a_coord).  With `interleaved`, fragment row g + 8h (h = 0, 1) holds
    tile row row + 2g + h (lasscc.layout.frag_interleave): lasscc-warp-mma asks for it on MN-major
    tf32 and s8 tiles, whose loads pair adjacent rows, and stores the accumulators to match."""

    name = "lass_warp.load_frag_a"


@irdl_op_definition
class LoadFragBOp(_LoadFragBase):
    """This lane's share of two 16(k) x 8(n) B fragments at (n, k) and (n + 8, k) of ring[slot]:
    registers 0, 1 are mma B registers of the first n8 block, 2, 3 those of the second.  With
    `interleaved`, column g of block h holds tile column n + 2g + h (lasscc.layout.frag_interleave).

        %b0, %b1, %b2, %b3 = lass_warp.load_frag_b %rb[%slot], %n, %k interleaved : !lass_pipe.ring<3x128x16xf32, mn>
    """

    name = "lass_warp.load_frag_b"


LassWarp = Dialect("lass_warp", [LoadFragAOp, LoadFragBOp], [])
