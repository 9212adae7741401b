"""Epilogue code shared by the GEMM kernels' stores (lasscc-warp-mma, whose pairs also serve the
wgmma path) and parallel split-K's reduction kernel (passes/splitk_reduce.py): D's conversion from
the f32 epilogue value, and one element's fused epilogue (its extras read at (row, col), the
region inlined).  Built once here so that both apply the same semantics (lasscc.dialects.epilogue)."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, f32, i32
from xdsl.ir import Region, SSAValue

from lasscc.dialects import lass_nv
from lasscc.dialects.epilogue import YieldOp, clone_region_into
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


def alpha_bias_add(block):
    """The region's `arith.addf` of its value v and another operand (a bias) when that is v's only
    use, else None: v = alpha * acc then v + b is then one fma(alpha, acc, b) (`fused_alpha_fma`)."""
    v = block.args[0]
    uses = list(v.uses)
    if len(uses) != 1 or not isinstance(uses[0].operation, arith.AddfOp):
        return None
    add = uses[0].operation
    return add if (add.lhs is v) != (add.rhs is v) else None


def fused_alpha_fma(bb: ArithBuilder, block, alpha: SSAValue, a: SSAValue, elems) -> SSAValue:
    """The region `block` (`alpha_bias_add` not None) inlined for v = alpha * a (f32) and the extras'
    elements `elems`, its v + b computed as fma(alpha, a, b): one rounding, where the product and
    the add round each (equal for alpha = 1 or a power of two: the product is exact); one FFMA an
    element instead of FMUL + FADD (BENCHMARKS.md session 14, epi18d)."""
    add = alpha_bias_add(block)
    mapping: dict[SSAValue, SSAValue] = dict(zip(block.args[1:], elems))
    for op in block.ops:
        if isinstance(op, YieldOp):
            return mapping[op.values[0]]
        if op is add:
            b = add.rhs if add.lhs is block.args[0] else add.lhs
            from xdsl.dialects import math  # here only: a compile without an epilogue does not load it

            mapping[add.result] = bb.emit(math.FmaOp(alpha, a, mapping.get(b, b)))
            continue
        new = op.clone(value_mapper=mapping)
        bb.insert(new)
        for old, nv in zip(op.results, new.results):
            mapping[old] = nv
    raise AssertionError("an epilogue region ends with lass.yield")
