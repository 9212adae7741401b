"""The numerics of the mma and the epilogue per element type, shared by every level of the CPU
executor (lass.gemm, lass_tb.mma / epilogue, lass_pipe.mma, lass_nv.mma_sync), the checker and the
GPU runner, so that all of them compute (and tolerate) alike.

Arrays carry their type in their numpy dtype: A/B float16, uint16 (bf16 patterns), float32 (tf32
mma) or int8; accumulators float32, float16 or int32/int64 (i32).

  f16 / bf16 -> f32   exact products (float32 holds them), float32 sums.
  f32 (tf32) -> f32   A and B rounded to tf32 first: round to nearest, ties away from zero
                      (cvt.rna.tf32.f32; CUTLASS's round_half_ulp_truncate, see
                      lasscc.dialects.lass_nv.CvtRnaTf32Op), then exact products, float32 sums.
                      mma.sync itself is emulated as reading only the top 19 bits (truncation): the
                      fragments reaching it were rounded by the explicit cvt op.
  f16 -> f16          PTX leaves an f16-accumulating mma's internal order and precision open;
                      emulated as: for each k step of F16_ACC_K (the instruction's K), the exact
                      sum of its products (float64: exact for the data we draw) added to the
                      accumulator and rounded once to f16.  Every level walks K in the same
                      order, so all levels agree bit for bit.
  i8 -> i32           exact (float64 matmul of integers below 2^53), `.satfinite`: clamped to the
                      s32 range after each mma (CUTLASS's default OpMultiplyAddSaturate).

Epilogue (CUTLASS LinearCombination / LinearCombinationClamp<int32, float> for i32): f32 alpha *
f32(acc) + beta * f32(C) (C read only when beta != 0), rounded once to D's type; an i32 D rounds
to nearest even and saturates (cvt.rni.s32.f32), except that with alpha == 1 and beta == 0 the
exact i32 accumulator is stored.
"""

from __future__ import annotations

import numpy as np

from lasscc.interp.bf16 import BF16, as_f32, store_as

F16_ACC_K = 16  # mma.m16n8k16: one f16-accumulator rounding per 16 k
TF32_LOW = np.uint32(0x1FFF)  # the 13 f32 fraction bits tf32 drops
I32_MIN, I32_MAX = -(2**31), 2**31 - 1


def tf32_rna(x):
    """float32 values rounded to tf32: to nearest, ties away from zero (cvt.rna.tf32.f32)."""
    f = np.asarray(x, np.float32)
    u = f.view(np.uint32)
    r = np.where(np.isfinite(f), (u + np.uint32(0x1000)) & ~TF32_LOW, u).astype(np.uint32)
    return r.view(np.float32)


def tf32_trunc(x):
    """float32 values with the 13 low fraction bits cleared (what a tf32 mma reads of them)."""
    f = np.asarray(x, np.float32)
    return (f.view(np.uint32) & ~TF32_LOW).view(np.float32)


def f32_to_s32(x):
    """cvt.rni.s32.f32: round to nearest even, saturate to the s32 range, NaN -> 0 (int64 values)."""
    with np.errstate(invalid="ignore"):
        r = np.rint(np.asarray(x, np.float64))
        r = np.where(np.isnan(r), 0.0, np.clip(r, I32_MIN, I32_MAX))
    return r.astype(np.int64)


def acc_dtype(name: str) -> np.dtype:
    return np.dtype({"f32": np.float32, "f16": np.float16, "i32": np.int32}[name])


def mma(a, b, acc, tf32_round=tf32_rna):
    """acc + a . b^T for K-major a [..., M, K] and b [..., N, K], in the numerics of the types.

    `tf32_round` is applied to f32 operands (tf32_rna at the block levels, where the tiles hold
    plain f32; tf32_trunc for mma_sync, whose fragments the IR rounded already)."""
    a, b = np.asarray(a), np.asarray(b)
    acc = np.asarray(acc)
    if a.dtype.kind == "i":
        prod = np.matmul(a.astype(np.float64), np.swapaxes(b.astype(np.float64), -1, -2))
        out = np.clip(acc.astype(np.int64) + prod.astype(np.int64), I32_MIN, I32_MAX)
        return out.astype(acc.dtype)
    if a.dtype == np.float32:
        a, b = tf32_round(a), tf32_round(b)
    if acc.dtype == np.float16:
        out = acc.copy()
        af, bf = as_f32(a).astype(np.float64), as_f32(b).astype(np.float64)
        for k0 in range(0, a.shape[-1], F16_ACC_K):
            step = np.matmul(af[..., k0:k0 + F16_ACC_K], np.swapaxes(bf[..., k0:k0 + F16_ACC_K], -1, -2))
            out = (out.astype(np.float64) + step).astype(np.float16)
        return out
    # contiguous operands: numpy's batched matmul falls back to a slow loop on transposed views
    bt = np.ascontiguousarray(as_f32(np.swapaxes(b, -1, -2)))
    return acc.astype(np.float32) + np.matmul(np.ascontiguousarray(as_f32(a)), bt)


def to_f32(x):
    """Accumulator or C values as float32 (f16 / bf16 exactly, i32 rounded to nearest)."""
    x = np.asarray(x)
    return as_f32(x) if x.dtype == BF16 or x.dtype.kind == "f" else x.astype(np.float32)


def epilogue(acc, alpha, beta, c, d_dtype):
    """alpha * acc + beta * C in f32, converted for storage in `d_dtype` (see the module doc).
    `c` is C's stored values where beta != 0 is to be applied, or None; alpha / beta broadcast."""
    d_dtype = np.dtype(d_dtype)
    al, be = np.float32(alpha) if np.ndim(alpha) == 0 else np.asarray(alpha, np.float32), beta
    out = al * to_f32(acc)
    if c is not None:
        be = np.float32(beta) if np.ndim(beta) == 0 else np.asarray(beta, np.float32)
        out = out + be * to_f32(c)
    if d_dtype.kind == "i":
        conv = f32_to_s32(out)
        if c is None:
            exact = np.asarray(al == np.float32(1.0))
            conv = np.where(exact, np.asarray(acc).astype(np.int64), conv)
        return conv.astype(d_dtype)
    return store_as(out, d_dtype)


# ---- checking against a float64 reference --------------------------------------------------------
# run_check's pass mark per D dtype (relative Frobenius error) for f16/bf16 inputs; `tolerance` refines it
TOLERANCE = {np.dtype(np.float32): 1e-3, np.dtype(np.float16): 5e-3, BF16: 1e-2}
F16_U = 2.0 ** -11  # unit roundoff of f16 (11 significant bits) and of tf32 (the same 10+1 bits)


def tolerance(d_dtype, ab: str = "f16", acc: str = "f32", k: int = 0, ref=None, alpha=1.0, beta=0.0) -> float:
    """Relative Frobenius error ||D - ref|| / ||ref|| allowed for a GEMM of these types.

    f16/bf16 -> f32 (and the D rounding of f16/bf16 D): TOLERANCE.
    tf32 (f32 A and B): each input is rounded by at most 2^-11 relative (rna), so each product by
      2^-10; random-sign data averages these out to ~2^-11 (measured 3e-4 .. 5e-4): 2e-3 (4 u).
    f16 accumulation: each of the S = ceil(K/16) steps rounds the running sum by at most 2^-11
      relative; the errors are unbiased and independent for random data, so they grow as sqrt(S):
      max(5e-3, 4 * sqrt(S + 1) * 2^-11) (the +1: an f16 D's own rounding; 4 sigma-ish headroom
      over u * sqrt(S/3), which the measured errors stay well below).
    i8 -> i32 D: exact (0) for alpha = 1, beta = 0; otherwise the f32 epilogue rounds each element
      to an integer, at most 0.5 off (f32 is exact below 2^24): 0.5 * sqrt(M*N) / ||ref|| + 1e-6.
    i8 -> f32 D: f32 rounding of the exact sums, 1e-6.
    """
    d_dtype = np.dtype(d_dtype)
    if ab == "i8":
        if d_dtype.kind == "i":
            if alpha == 1.0 and beta == 0.0:
                return 0.0
            den = float(np.linalg.norm(ref)) if ref is not None else 0.0
            return (0.5 * np.sqrt(np.size(ref)) / den if den > 0 else 0.5) + 1e-6
        return 1e-6
    base = TOLERANCE.get(d_dtype, 1e-3)
    if ab == "f32":
        return max(base, 2e-3)
    if acc == "f16":
        steps = -(-max(int(k), 1) // F16_ACC_K)
        return max(5e-3, 4 * np.sqrt(steps + 1) * F16_U)
    return base


F32_U = 2.0 ** -24  # unit roundoff of f32
D_ROUNDING = {np.dtype(np.float16): (2.0 ** -11, 2.0 ** -25), BF16: (2.0 ** -8, 2.0 ** -134)}  # (u, half the
# smallest subnormal) of a 16-bit D's rounding; f32 D's is in the f32 terms below


def elementwise_bound(d_dtype, ab: str, acc: str, k: int, scale, ref, alpha: float = 1.0, beta: float = 0.0):
    """Per element, the |D - ref| allowed (an array like `ref`): atol + rtol * |ref|, with the
    absolute part proportional to `scale` (lasscc.interp.check.reference_scale: |alpha| |A|.|B| +
    |beta| |C|, which bounds every partial sum).  Worst-case rounding analysis, no statistics:

      f32 accumulation (f16 / bf16 / tf32 / i8 -> f32): K - 1 float32 additions plus the f32
        epilogue's alpha * acc + beta * C (and alpha, beta themselves rounded to f32):
        (K + 4) * 2^-24 * scale.
      tf32: A and B each rounded to 11 significant bits (cvt.rna): each product off by at most
        (2u + u^2) |a b|, u = 2^-11; added to the f32 terms.
      f16 accumulation: each of the S = ceil(K/16) steps (mma_math.mma) rounds the running sum,
        |partial sum| <= scale, by at most u = 2^-11 relative or, below f16's smallest normal, half
        a subnormal step 2^-25: S * (u * (1 + S * u) * scale + 2^-25 * |alpha|), plus the f32
        epilogue.
      i8 -> i32 accumulation: exact; an i32 D with alpha = 1, beta = 0 is exact (bound 0), else
        the f32 epilogue's roundings plus 0.5 for cvt.rni to an integer.
      a 16-bit D: rounding to D's type, u_D * (|ref| + the accumulation bound) + half its
        smallest subnormal.
    """
    d_dtype = np.dtype(d_dtype)
    scale = np.asarray(scale, np.float64)
    absref = np.abs(np.asarray(ref, np.float64))
    k = max(int(k), 1)
    if ab == "i8":
        if d_dtype.kind == "i":
            if alpha == 1.0 and beta == 0.0:
                return np.zeros_like(absref)
            return 4 * F32_U * scale + 0.5
        return 4 * F32_U * scale
    bound = (k + 4) * F32_U * scale
    if ab == "f32":
        bound = bound + (2 * F16_U + F16_U ** 2) * scale
    if acc == "f16":
        steps = -(-k // F16_ACC_K)
        bound = bound + steps * (F16_U * (1 + steps * F16_U) * scale + D_ROUNDING[np.dtype(np.float16)][1] * abs(alpha))
    if d_dtype in D_ROUNDING:
        u_d, tiny = D_ROUNDING[d_dtype]
        bound = bound + u_d * (absref + bound) + tiny
    return bound


def draw(rng, shape, dtype):
    """Random operands: uniform [-1, 1) rounded to a float dtype (uint16: bf16 patterns); integers
    uniform in [-8, 8) (int8 A/B and an i32 C: products and sums stay far from overflow)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "i":
        return rng.integers(-8, 8, shape).astype(dtype)
    return store_as(rng.uniform(-1.0, 1.0, shape), dtype)
