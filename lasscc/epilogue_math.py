"""The f32 formulas of the transcendental ops an epilogue region may use (math.exp / tanh / erf),
written once over a small backend so that the same function is both the CPU executor's
semantics (NumpyF32: numpy float32) and the kernel's code (lasscc-lower-to-llvm's backend emits
llvm ops), and tests measure its accuracy against float64.

A backend provides: const(x), add, sub, mul, div, neg, lt / gt (ordered comparisons), select(c, a, b),
abs, ex2 (2^x), tanh_approx (the hardware tanh).  NumpyF32's ex2 is np.exp2 rounded to f32; the GPU's is `ex2.approx.ftz.f32`
(PTX ISA: maximum relative error 2^-22 for the full range; subnormal results flush to zero).
NumpyF32's div is correctly rounded; the GPU's is `div.full.f32` (at most 2 ulp), which adds at
most 2 ulp to tanh and erf.

Accuracy (measured by tests/unit/test_epilogue_math.py against float64 on NumpyF32):
  exp(x)  = ex2(x * log2 e): the rounding of x * log2 e costs |x| * 2^-24 * ln 2 relative, so about
            2^-17 at |x| = 88 and under 2^-22 for |x| < 1; ex2.approx adds 2^-22.
  tanh(x) = TANH_FORM "approx" (the default): the hardware's `tanh.approx.f32` (sm_75+; PTX ISA
            9.7.4.x: max relative error 2^-10.987, TANH_APPROX_REL_ERR), one instruction; the CPU
            models it as tanh rounded to f32 (tanh_approx), within that error of the GPU's result,
            and a GPU check adds approx_tolerance(ops) to its tolerance.
            TANH_FORM "rational" (tanh_rational): x * P(x^2) / Q(x^2) on |x| <= 7.905 (+-1 beyond,
            in f32), x for |x| < 4e-4: Eigen's / XLA's rational approximation (degree 13 / 6), max
            relative error 4e-7 (~3 ulp), a dozen FMAs and a division.
  erf(x)  = x * P(x^2) / Q(x^2) on |x| <= 4 (+-1 beyond): Eigen's / XLA's (degree 13 / 8),
            max absolute error 5e-7.
NaN propagates through all three (the clamps are ordered selects, not min / max).  These cost a few
FMAs and one division each, no libdevice: the kernel stays one PTX file.
"""

from __future__ import annotations

from lasscc.lazy import lazy_module

np = lazy_module("numpy")  # NumpyF32 (the CPU executor) uses it; the kernel's backend does not

LOG2E = 1.4426950408889634
# tanh(x) = x * P(x^2) / Q(x^2), |x| <= TANH_CLAMP (tanh(7.905) rounds to 1 in f32); coefficients of
# P (x^0 .. x^12) and Q (x^0 .. x^6) from Eigen's generic_fast_tanh_float (also XLA's)
TANH_CLAMP = 7.90531110763549805
TANH_TINY = 0.0004  # below it tanh(x) = x in f32
TANH_P = (4.89352455891786e-03, 6.37261928875436e-04, 1.48572235717979e-05, 5.12229709037114e-08,
          -8.60467152213735e-11, 2.00018790482477e-13, -2.76076847742355e-16)
TANH_Q = (4.89352518554385e-03, 2.26843463243900e-03, 1.18534705686654e-04, 1.19825839466702e-06)
# erf(x) = x * P(x^2) / Q(x^2), |x| <= ERF_CLAMP (erf(4) rounds to 1 in f32); Eigen's generic_fast_erf_float
ERF_CLAMP = 4.0
ERF_P = (-1.60960333262415e-02, -2.95459980854025e-03, -7.34990630326855e-04, -5.69250639462346e-05,
         -2.10102402082508e-06, 2.77068142495902e-08, -2.72614225801306e-10)
ERF_Q = (-1.42647390514189e-02, -7.37332916720468e-03, -1.68282697438203e-03, -2.13374055278905e-04,
         -1.45660718464996e-05)


def _poly(F, coeffs, x2):
    """coeffs[0] + coeffs[1] x2 + ... by Horner's rule."""
    acc = F.const(coeffs[-1])
    for c in reversed(coeffs[:-1]):
        acc = F.add(F.mul(acc, x2), F.const(c))
    return acc


def _clamp(F, x, lim: float):
    """x limited to [-lim, lim] by ordered compares (NaN stays NaN)."""
    hi, lo = F.const(lim), F.const(-lim)
    return F.select(F.gt(x, hi), hi, F.select(F.lt(x, lo), lo, x))


def exp(F, x):
    return F.ex2(F.mul(x, F.const(LOG2E)))


# math.tanh's form: "approx", the hardware's tanh.approx.f32 (GELU's tanh form costs one MUFU op
# instead of ~20 instructions: BENCHMARKS.md), or "rational", tanh_rational (~3 ulp)
TANH_FORM = "approx"
TANH_APPROX_REL_ERR = 2.0 ** -10.987  # PTX ISA, tanh.approx.f32: maximum relative error, full range


def tanh(F, x):
    """math.tanh as the kernel computes it (TANH_FORM)."""
    return F.tanh_approx(x) if TANH_FORM == "approx" else tanh_rational(F, x)


def tanh_rational(F, x):
    c = _clamp(F, x, TANH_CLAMP)
    x2 = F.mul(c, c)
    r = F.div(F.mul(c, _poly(F, TANH_P, x2)), _poly(F, TANH_Q, x2))
    return F.select(F.lt(F.abs(x), F.const(TANH_TINY)), x, r)


def erf(F, x):
    c = _clamp(F, x, ERF_CLAMP)
    x2 = F.mul(c, c)
    return F.div(F.mul(c, _poly(F, ERF_P, x2)), _poly(F, ERF_Q, x2))


FORMULAS = {"math.exp": exp, "math.tanh": tanh, "math.erf": erf}


def approx_tolerance(op_names) -> float:
    """Relative error an epilogue of these ops (names: "math.tanh", ...) may add on the GPU beyond
    the CPU executor's model: a hardware tanh is modelled exactly (tanh rounded to f32) but may be
    off by TANH_APPROX_REL_ERR; through GELU's 0.5 x (1 + tanh) that stays within 2x of it in the
    relative (Frobenius) error of D."""
    return 2 * TANH_APPROX_REL_ERR if TANH_FORM == "approx" and "math.tanh" in set(op_names) else 0.0


class NumpyF32:
    """The formulas on numpy float32 arrays or scalars (the CPU executor's math ops)."""

    @property
    def F(self):
        return np.float32

    def const(self, x):
        return np.float32(x)

    def add(self, a, b):
        return np.float32(a) + np.float32(b) if np.ndim(a) == 0 and np.ndim(b) == 0 else np.add(a, b, dtype=np.float32)

    def sub(self, a, b):
        return np.subtract(a, b, dtype=np.float32)

    def mul(self, a, b):
        return np.multiply(a, b, dtype=np.float32)

    def div(self, a, b):
        with np.errstate(all="ignore"):
            return np.divide(a, b, dtype=np.float32)

    def neg(self, a):
        return np.negative(a, dtype=np.float32)

    def lt(self, a, b):
        return np.less(a, b)

    def gt(self, a, b):
        return np.greater(a, b)

    def select(self, c, a, b):
        return np.where(c, a, b).astype(np.float32)

    def abs(self, a):
        return np.abs(np.asarray(a, np.float32))

    def tanh_approx(self, a):
        """tanh.approx.f32's model: tanh rounded to f32 (the hardware is within TANH_APPROX_REL_ERR
        of it; NaN stays NaN, +-inf gives +-1)."""
        return np.tanh(np.asarray(a, np.float32).astype(np.float64)).astype(np.float32)

    def ex2(self, a):
        with np.errstate(all="ignore"):
            r = np.exp2(np.asarray(a, np.float32)).astype(np.float32)
        # ex2.approx.ftz: a subnormal result is flushed to zero
        return np.where(np.abs(r) < np.finfo(np.float32).tiny, np.float32(0), r).astype(np.float32)


def evaluate(name: str, x):
    """math op `name` on f32 values `x` (numpy), as the kernel computes it (up to ex2.approx)."""
    with np.errstate(all="ignore"):
        r = FORMULAS[name](NumpyF32(), np.asarray(x, np.float32))
    return r.astype(np.float32) if np.ndim(r) else np.float32(r)
