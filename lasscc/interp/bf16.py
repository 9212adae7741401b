"""bfloat16 without a numpy dtype: a bf16 value is its 16-bit pattern in a numpy uint16.

bf16 is the top half of an IEEE binary32: 1 sign bit, 8 exponent bits (f32's range), 7 stored
fraction bits (8 significant bits).  So

  * bf16 -> f32 is exact: the pattern shifted left by 16 (`bf16_to_f32`);
  * f32 -> bf16 rounds to nearest, ties to even, on the bits (`f32_to_bf16`): add 0x7FFF plus the
    lowest kept bit, drop the low 16 bits.  Overflow gives +-inf the way IEEE rounding does (a
    carry into the exponent), subnormals round like any other value, and a NaN stays a NaN (its
    sign and top payload bits are kept and the quiet bit is set, so dropping the low payload bits
    can never turn it into an infinity);
  * f64 -> bf16 (`to_bf16`) first rounds to f32 *to odd* (truncate, then set the last bit if
    anything was dropped) and then to bf16 to nearest even: with 16 spare bits that is the
    correctly rounded f64 -> bf16 result, free of double rounding.

Throughout lasscc's CPU executor, its checker and the GPU runner, a numpy array of dtype uint16
holding GEMM data *is* bf16 (no integer memref type maps to uint16: integers are signed), so
`as_f32` / `as_f64` decode it and leave other float arrays to a plain cast.
"""

from __future__ import annotations

import numpy as np

BF16 = np.dtype(np.uint16)  # storage dtype of bf16 bit patterns
QNAN = np.uint16(0x7FC0)  # the canonical quiet NaN (what NaN-poisoned bf16 buffers hold)


def _out(r: np.ndarray, like):
    """0-d results as numpy scalars (the executor's uniform values), arrays as they are."""
    return r[()] if np.ndim(like) == 0 and isinstance(r, np.ndarray) and r.ndim == 0 else r


def is_bf16(dtype) -> bool:
    return dtype is not None and np.dtype(dtype) == BF16


def bf16_to_f32(bits):
    """uint16 bit patterns -> float32 values (exact)."""
    u = np.asarray(bits)
    if u.dtype != BF16:
        u = u.astype(np.int64) & 0xFFFF  # signed i16 views (arith.bitcast) or Python ints
    r = (u.astype(np.uint32) << np.uint32(16)).view(np.float32)
    return _out(r, bits)


def f32_to_bf16(x):
    """float32 values -> uint16 bf16 patterns, round to nearest even; NaN stays NaN (quieted)."""
    f = np.asarray(x, np.float32)
    u = f.view(np.uint32).astype(np.uint64)  # 64-bit: the rounding add of a NaN pattern must not wrap
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    nan = (u >> 16) | 0x0040
    r = np.where(np.isnan(f), nan, rounded).astype(np.uint16)
    return _out(r, x)


def _f64_to_f32_round_to_odd(x: np.ndarray) -> np.ndarray:
    """float64 -> float32 rounded to odd: the truncation toward zero, with the last bit set if
    it was inexact.  Overflow gives +-FLT_MAX (odd), which bf16 rounding then takes to +-inf."""
    with np.errstate(over="ignore", invalid="ignore"):
        r = x.astype(np.float32)
    r64 = r.astype(np.float64)
    inexact = np.isfinite(x) & (r64 != x)
    u = r.view(np.uint32).copy()
    away = inexact & (np.abs(r64) > np.abs(x))  # RNE rounded away from zero: step back one ulp
    u[away] -= np.uint32(1)
    u[inexact] |= np.uint32(1)
    return u.view(np.float32)


def to_bf16(x):
    """Any float / int values (or bf16 patterns, returned unchanged) -> uint16 bf16 patterns,
    correctly rounded to nearest even."""
    a = np.asarray(x)
    if a.dtype == BF16:
        return x
    if a.dtype == np.float64 or a.dtype.kind in "iub":
        return _out(f32_to_bf16(_f64_to_f32_round_to_odd(np.asarray(a, np.float64))), x)
    if a.dtype.kind == "f" and a.dtype.itemsize > 8:  # long double: via float64 (not used by lasscc)
        return to_bf16(a.astype(np.float64))
    return _out(f32_to_bf16(a.astype(np.float32)), x)  # f16 / f32: exact in f32


def as_f32(a):
    """float32 values of an array: bf16 patterns decoded, other floats cast."""
    a = np.asarray(a)
    return bf16_to_f32(a) if a.dtype == BF16 else a.astype(np.float32, copy=False)


def as_f64(a):
    """float64 values of an array: bf16 patterns decoded (exactly), other floats cast."""
    a = np.asarray(a)
    with np.errstate(invalid="ignore"):  # signalling NaN patterns raise 'invalid' when widened
        return bf16_to_f32(a).astype(np.float64) if a.dtype == BF16 else a.astype(np.float64, copy=False)


def store_as(values, dtype):
    """`values` converted for storage in an array of `dtype`: rounded to bf16 patterns when dtype
    is the bf16 storage (unless they already are patterns), a plain cast otherwise."""
    dtype = np.dtype(dtype)
    v = np.asarray(values)
    if dtype == BF16:
        return v if v.dtype == BF16 else np.asarray(to_bf16(v))
    if v.dtype == BF16:
        return bf16_to_f32(v).astype(dtype)
    return v.astype(dtype, copy=False)


__all__ = ["BF16", "QNAN", "is_bf16", "bf16_to_f32", "f32_to_bf16", "to_bf16", "as_f32", "as_f64", "store_as"]
