"""Epilogue code shared by the GEMM kernels' stores (lasscc-warp-mma, whose pairs also serve the
wgmma path) and parallel split-K's reduction kernel (passes/splitk_reduce.py): D's conversion from
the f32 epilogue value, and one element's fused epilogue (its extras read at (row, col), the
region inlined).  Built once here so that both apply the same semantics (lasscc.dialects.epilogue)."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, f32, i32
from xdsl.ir import Region, SSAValue

from lasscc.dialects import lass_nv
from lasscc.dialects.epilogue import clone_region_into
from lasscc.passes._build import ArithBuilder


def batch_extras(bb: ArithBuilder, extras, kinds, z, M, N) -> list:
    """A batched kernel's extras for batch `z`: each per-batch one (lasscc.dialects.epilogue.
    is_per_batch: [batch, N] / [batch, M] vectors, [batch, M, N] matrices, `kinds` in the kernel's
    terms) a lass_tb.batch_view of its batch, the shared ones as they are."""
    from lasscc.dialects import lass_tb
    from lasscc.dialects.epilogue import is_per_batch

    out = []
    for kind, x in zip(kinds, extras):
        if is_per_batch(kind, x.type):
            v = bb.emit(lass_tb.BatchViewOp(x, z, {"n": N, "m": M}.get(kind) or bb.mul(M, N)))
            v.name_hint = f"{x.name_hint or 'E'}_b"
            x = v
        out.append(x)
    return out


def d_from_f32(bb: ArithBuilder, x: SSAValue, out_t) -> SSAValue:
    """The f32 epilogue value `x` in D's element type `out_t`: f32 as is, f16 / bf16 rounded to
    nearest even; an integer D to nearest even, saturated (cvt.rni.s32, an i8 D clamped to
    [-128, 127] after)."""
    if isinstance(out_t, IntegerType):
        r = bb.emit(lass_nv.CvtRniS32Op.build(operands=[x], result_types=[i32]))
        if out_t.width.data == 32:
            return r
        lo, hi = -(1 << (out_t.width.data - 1)), (1 << (out_t.width.data - 1)) - 1
        r = bb.emit(arith.MinSIOp(bb.emit(arith.MaxSIOp(r, bb.const(lo))), bb.const(hi)))
        return bb.emit(arith.TruncIOp(r, out_t))
    return x if out_t == f32 else bb.emit(arith.TruncFOp(x, out_t))


def fused_element(bb: ArithBuilder, region: Region, kinds, extras, v: SSAValue, row, col, off, ok) -> SSAValue:
    """The fused epilogue `region` applied to the f32 value `v` of D's element (row, col) at offset
    `off` of the (kernel's row-major) D: [n] extras read at col, [m] at row, [mn] at off, scalars as
    they are; the reads predicated on `ok` (zeros elsewhere)."""
    elems = []
    for kind, x in zip(kinds, extras):
        if kind == "scalar":
            elems.append(x)
        else:
            at = {"n": col, "m": row, "mn": off}[kind]
            elems.append(bb.insert(lass_nv.LdGlobalOp(x, at, ok, 1)).results[0])
    return clone_region_into(region.block, [v, *elems], bb.insert)
