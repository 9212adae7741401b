"""The f32 formulas of the transcendental ops an epilogue region may use (math.exp / tanh / erf),
written once over a small backend so that the same function is both the CPU executor's
semantics (NumpyF32: numpy float32) and the kernel's code (lasscc-lower-to-llvm's backend emits
llvm ops), and tests measure its accuracy against float64.

A backend provides: const(x), add, sub, mul, div, neg, fma (one rounding: fma.rn.f32), copysign(a, b),
lt / gt (ordered comparisons), select(c, a, b), abs, ex2 (2^x), tanh_approx (the hardware tanh),
fmin (min.f32: a NaN operand gives the other) and max_nan (max.NaN.f32, sm_80+: NaN if either is).
NumpyF32's ex2 is np.exp2 in float64 rounded to f32; the GPU's is `ex2.approx.ftz.f32`
(PTX ISA: maximum relative error 2^-22 for the full range; subnormal results flush to zero).
NumpyF32's div is correctly rounded; the GPU's is `div.full.f32` (at most 2 ulp), which adds at
most 2 ulp to tanh_rational; NumpyF32's fma is exactly fma.rn.f32 (fma_f32), so the polynomials
are bit-identical on both.

Accuracy (measured by tests/unit/test_epilogue.py and test_erf.py against float64 on NumpyF32):
  exp(x)  = ex2(x * log2 e): the rounding of x * log2 e costs |x| * 2^-24 * ln 2 relative, so about
            2^-17 at |x| = 88 and under 2^-22 for |x| < 1; ex2.approx adds 2^-22.
  tanh(x) = TANH_FORM "approx" (the default): the hardware's `tanh.approx.f32` (sm_75+; PTX ISA
            9.7.4.x: max relative error 2^-10.987, TANH_APPROX_REL_ERR), one instruction; the CPU
            models it as tanh rounded to f32 (tanh_approx), within that error of the GPU's result,
            and a GPU check adds approx_tolerance(ops) to its tolerance.
            TANH_FORM "rational" (tanh_rational): x * P(x^2) / Q(x^2) on |x| <= 7.905 (+-1 beyond,
            in f32), x for |x| < 4e-4: Eigen's / XLA's rational approximation (degree 13 / 6), max
            relative error 4e-7 (~3 ulp), a dozen FMAs and a division.
  erf(x)  = x + x Q(x^2) for |x| < 1, copysign(1 - 2^L(|x|), x) beyond (L ~ log2 erfc, clamped
            at 3.92 where erf rounds to 1): our own minimax fits (scripts/fit_erf.py), 6 + 6 FMAs,
            one ex2, no division.  Max error over a dense sweep of f32 inputs against float64:
            1.05 ulp on NumpyF32 (ERF_MAX_ULP), plus at most 2^-22 erfc(|x|) from ex2.approx on the
            GPU (0.62 ulp, at |x| = 1): under 2 ulp; absolute error under 7e-8.
  gelu(x) = x Phi(x) (lass.gelu: lasscc-fuse-epilogue recognizes 0.5 x (1 + erf(x / sqrt 2)) as a whole):
            e = Phi(-a) = 2^P(a), a = |x|, P ~ log2 Phi(-a) (scripts/fit_erf.py), then relu(x) - a e in
            one fma (x - x e for x >= 0, x e for x < 0): no cancellation for either sign.  P by the type
            the result is rounded to (GELU_FITS; lass.gelu's `rounded_to`, which lasscc-fuse-epilogue
            sets when the region yields the GELU to an f16 / bf16 D): f32 degree 10, 14 instructions
            (11 FMAs, one ex2, min, max; the composed erf form takes ~26): 12 ulp for x >= -3 (the
            function's condition number there is ~11: |x phi / Phi| + 1), absolute 3e-7 everywhere
            (the composed erf form: 2.2 / 14.7 / 108 ulp for x >= -1 / -2 / -3, cancellation in 1 + erf);
            f16 / bf16 degree 5, 9 instructions: 0.7 ulp of D after its rounding (GeluFit states each
            bound; tests/unit/test_gelu.py measures them against float64 on a dense f32 sweep).  On the
            GPU ex2.approx adds at most 2^-22 relative.  +-0 -> a zero, NaN -> NaN, +inf -> +inf,
            -inf -> 0 (the limit; the composed form gives NaN: -inf * 0).
NaN propagates through all of them (the clamps are ordered selects, not min / max).  No libdevice:
the kernel stays one PTX file.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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
# erf (see erf()): split at |x| = ERF_SPLIT; Q (x^0 .. x^12 in x^2) and L (a^0 .. a^6), weighted
# minimax fits rounded to f32 by scripts/fit_erf.py (which documents the method; rerun it to refit)
ERF_SPLIT = 1.0
ERF_CLAMP = 3.92  # erfc(3.92) = 1.2e-8 < 2^-25: erf rounds to 1 in f32 from here on
ERF_MAX_ULP = 1.1  # NumpyF32's erf against float64 (tests/unit/test_erf.py)
ERF_SMALL = (0.12837916612625122, -0.3761262893676758, 0.11283618211746216, -0.02685512602329254,
             0.005190733354538679, -0.0008030750323086977, 7.920303323771805e-05)
# gelu: P(a) ~ log2 Phi(-a) by D's type (GELU_FITS, fitted by scripts/fit_erf.py).  f32: a^0 .. a^10,
# fitted on [0, fit_max] with full weight up to GELU_FIT_FULL and weight Phi(-a) / Phi(-GELU_FIT_FULL)
# beyond (GELU's absolute error in the tail); an even degree with a negative leading term, so P
# decreases to -inf past the fit (e -> 0).  f16 / bf16: degree 5 (odd, negative leading term), weighted
# so that the fit's error is under 1/4 ulp of D (see GeluFit)
GELU_CLAMP = 16.0  # |x| beyond: e = 0 already (P < -126: flushed); each P is checked down to it
GELU_FIT_FULL = 2.5


@dataclass(frozen=True)
class GeluFit:
    """One D type's P(a) ~ log2 Phi(-a) and the error bound of gelu(F, x, d_type) against float64
    x Phi(x), after the rounding to D (tests/unit/test_gelu.py measures it on a dense f32 sweep).

    The bound is max_ulp ulp of D for x >= ulp_from and max_abs absolute for x < abs_below (f32:
    everywhere; bf16: the tail the ulp bound leaves out; f16: None, the ulp bound holds everywhere: in
    its subnormal range the ulp is fixed, 2^-24, so it is an absolute bound there).
    For f16 / bf16 it is D's rounding (1/2 ulp) plus the fit's share (under 1/4 ulp: a relative error
    dP ln2 of e moves GELU by at most that, relative, for either sign) plus f32's and ex2.approx's
    roundings (2^-22 relative: under 2^-11 ulp of f16): so at most ~1/4 ulp beyond a correctly rounded
    result, and never worse than torch's unfused path, which rounds x (the GEMM's output, then x + bias)
    to D before its f32 GELU (the function's condition number, up to ~11 for x >= -3, scales that
    rounding: several ulp; test_gelu.py compares both on the same inputs)."""

    coeffs: tuple[float, ...]  # a^0 .. a^degree
    fit_max: float  # fitted on [0, fit_max] (f16: past it GELU rounds to 0 for x < 0, to x for x > 0)
    max_ulp: float  # ulp of D (f32: of the float64 value's f32 spacing)
    ulp_from: float  # the ulp bound holds for x >= ulp_from
    max_abs: float | None
    abs_below: float = math.inf


GELU_FITS = {
    # x >= -3: the function's condition number reaches ~11 there (|x phi / Phi| + 1); the tail x < -6,
    # where GELU > -6e-9, is only absolutely accurate; the largest absolute error: at x ~ 4.1, half an
    # ulp of GELU(x) ~ x
    "f32": GeluFit((-1.0, -1.1511043310165405, -0.4592214822769165, -0.0524308942258358, 0.0069148363545536995,
                    4.40348158008419e-05, -0.00031183750252239406, 8.978213736554608e-05, -1.4101219676376786e-05,
                    1.2485694469432929e-06, -4.872283554391288e-08), fit_max=6.0, max_ulp=12.0, ulp_from=-3.0,
                   max_abs=3e-7),
    # x < -5.75: GELU rounds to -0 in f16 (|GELU| < 2^-25), so a fit to 6 covers f16's every nonzero value
    "f16": GeluFit((-1.0001206398010254, -1.1491764783859253, -0.46412014961242676, -0.04823761805891991,
                    0.005827362649142742, -0.00032051661401055753), fit_max=6.0, max_ulp=0.7, ulp_from=-math.inf, max_abs=None),
    # bf16 has f32's exponent range: relative to x = -7 (|GELU| > 9e-12), absolute beyond (torch's erf
    # form rounds to 0 from x ~ -5.9 on: 1 + erf(x / sqrt 2) cancels)
    "bf16": GeluFit((-1.001019835472107, -1.1397005319595337, -0.47977298498153687, -0.03929392248392105,
                     0.003750529605895281, -0.0001515815529273823), fit_max=7.0, max_ulp=0.7, ulp_from=-7.0, max_abs=1e-11,
                     abs_below=-7.0),
}
# D's significand bits and smallest normal exponent, for the bounds' "ulp of D" (bf16: f32's range)
D_FORMAT = {"f16": (11, -14), "bf16": (8, -126)}


def ulp_of(ref, d_type: str):
    """An ulp of D at the float64 values `ref` (numpy): the spacing of D's binade holding |ref|, its
    subnormal spacing below the normal range (f32: np.spacing of the f32 nearest |ref|)."""
    ref = np.abs(np.asarray(ref, np.float64))
    if d_type == "f32":
        return np.spacing(ref.astype(np.float32)).astype(np.float64)
    bits, emin = D_FORMAT[d_type]
    with np.errstate(divide="ignore"):
        return np.exp2(np.maximum(np.floor(np.log2(ref)), emin) - (bits - 1))


def round_to(v, d_type: str):
    """f32 values `v` rounded to D (nearest even, as the kernel's cvt.rn), as float64."""
    v = np.asarray(v, np.float32)
    if d_type == "f16":
        with np.errstate(over="ignore"):
            return v.astype(np.float16).astype(np.float64)
    if d_type == "bf16":
        from lasscc.interp.bf16 import bf16_to_f32, f32_to_bf16

        return np.asarray(bf16_to_f32(f32_to_bf16(v)), np.float64)
    return v.astype(np.float64)


EX2_APPROX_REL_ERR = 2.0 ** -22  # PTX ISA, ex2.approx.ftz.f32: maximum relative error, full range
ERF_LOG2_ERFC = (-0.0005102661671116948, -1.625975251197815, -0.920764684677124, -0.1486518532037735,
                 0.031458642333745956, -0.0042410301975905895, 0.00026773702120408416)


def _poly(F, coeffs, x2, fused: bool = False):
    """coeffs[0] + coeffs[1] x2 + ... by Horner's rule: a mul and an add a coefficient, or one fma
    (`fused`; erf's fits assume it; tanh_rational's clamp, where it rounds to 1, assumes mul + add)."""
    acc = F.const(coeffs[-1])
    for c in reversed(coeffs[:-1]):
        acc = F.fma(acc, x2, F.const(c)) if fused else F.add(F.mul(acc, x2), F.const(c))
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
    """|x| < ERF_SPLIT: x + x Q(x^2) (one rounding at the end); beyond: copysign(1 - 2^L(a), x) with
    a = min(|x|, ERF_CLAMP) and L ~ log2 erfc (scripts/fit_erf.py).  Both pieces are computed and
    one selected (no divergence); NaN takes the second (unordered compares) and stays NaN."""
    small = F.fma(x, _poly(F, ERF_SMALL, F.mul(x, x), fused=True), x)
    a = F.abs(x)
    clamped = F.select(F.gt(a, F.const(ERF_CLAMP)), F.const(ERF_CLAMP), a)
    large = F.copysign(F.sub(F.const(1.0), F.ex2(_poly(F, ERF_LOG2_ERFC, clamped, fused=True))), x)
    return F.select(F.lt(a, F.const(ERF_SPLIT)), small, large)


def gelu(F, x, d_type: str = "f32"):
    """x Phi(x) = relu(x) - a e with a = min(|x|, GELU_CLAMP) and e = Phi(-a) = 2^P(a) (one fma: x - x e
    for x >= 0, x e for x < 0, no cancellation; e <= 1/2), P = GELU_FITS[d_type]'s: accurate to the
    rounding to `d_type` (f32, f16, bf16) that follows (lass.gelu's `rounded_to`), within that entry's
    bound.  e underflows to 0 (ex2.approx.ftz) before |x| = GELU_CLAMP, so the clamp changes nothing
    finite but keeps a e = 0 at +-inf: +inf -> +inf, -inf -> 0 (GELU's limit), and NaN -> NaN through
    max.NaN."""
    a = F.fmin(F.abs(x), F.const(GELU_CLAMP))
    e = F.ex2(_poly(F, GELU_FITS[d_type].coeffs, a, fused=True))
    return F.fma(F.neg(a), e, F.max_nan(x, F.const(0.0)))


FORMULAS = {"math.exp": exp, "math.tanh": tanh, "math.erf": erf, "lass.gelu": gelu}


def approx_tolerance(op_names) -> float:
    """Relative error an epilogue of these ops (names: "math.tanh", ...) may add on the GPU beyond
    the CPU executor's model: a hardware tanh is modelled exactly (tanh rounded to f32) but may be
    off by TANH_APPROX_REL_ERR; through GELU's 0.5 x (1 + tanh) that stays within 2x of it in the
    relative (Frobenius) error of D.  The ops built on ex2 (exp, erf, lass.gelu, which
    lasscc-fuse-epilogue makes of GELU's erf form) add EX2_APPROX_REL_ERR: ex2.approx's relative error
    moves exp, erf (1 - 2^L, |x| >= 1) and x (1 - e) / x e (e <= 1/2) by at most that much, relative."""
    names = set(op_names)
    tol = 2 * TANH_APPROX_REL_ERR if TANH_FORM == "approx" and "math.tanh" in names else 0.0
    return tol + (EX2_APPROX_REL_ERR if names & {"math.exp", "math.erf", "lass.gelu"} else 0.0)


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

    def fma(self, a, b, c):
        return fma_f32(a, b, c)

    def copysign(self, a, b):
        return np.copysign(np.asarray(a, np.float32), np.asarray(b, np.float32))

    def lt(self, a, b):
        return np.less(a, b)

    def gt(self, a, b):
        return np.greater(a, b)

    def select(self, c, a, b):
        return np.where(c, a, b).astype(np.float32)

    def abs(self, a):
        return np.abs(np.asarray(a, np.float32))

    def fmin(self, a, b):
        return np.fmin(np.asarray(a, np.float32), np.float32(b))

    def max_nan(self, a, b):
        return np.maximum(np.asarray(a, np.float32), np.float32(b))

    def tanh_approx(self, a):
        """tanh.approx.f32's model: tanh rounded to f32 (the hardware is within TANH_APPROX_REL_ERR
        of it; NaN stays NaN, +-inf gives +-1)."""
        return np.tanh(np.asarray(a, np.float32).astype(np.float64)).astype(np.float32)

    def ex2(self, a):
        # in float64, then rounded: numpy's own float32 exp2 differs between CPUs (its SIMD paths are
        # not correctly rounded), which moved erf's measured error from host to host
        with np.errstate(all="ignore"):
            r = np.exp2(np.asarray(a, np.float32).astype(np.float64)).astype(np.float32)
        # ex2.approx.ftz: a subnormal result is flushed to zero
        return np.where(np.abs(r) < np.finfo(np.float32).tiny, np.float32(0), r).astype(np.float32)


def fma_f32(a, b, c):
    """a * b + c rounded once to f32 (fma.rn.f32), on numpy f32 values.  The product of two f32 is
    exact in float64; the float64 sum is rounded to odd (made odd by one float64 ulp toward the
    exact sum when inexact, found by TwoSum) so that rounding it to f32 is the single rounding of
    the exact result (53 >= 24 + 2 bits)."""
    a, b, c = (np.asarray(v, np.float32).astype(np.float64) for v in (a, b, c))
    with np.errstate(all="ignore"):
        p = a * b
        s = p + c
        t = s - p
        err = (p - (s - t)) + (c - t)  # s + err == p + c exactly (TwoSum)
        fix = (err != 0) & np.isfinite(s) & ((s.view(np.uint64) & 1) == 0)
        s = np.where(fix, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)
        r = s.astype(np.float32)
    return r if r.ndim else np.float32(r)


def evaluate(name: str, x, *args):
    """math op `name` on f32 values `x` (numpy), as the kernel computes it (up to ex2.approx); `args`:
    the formula's own (gelu's D type: lasscc.dialects.epilogue.formula_args)."""
    with np.errstate(all="ignore"):
        r = FORMULAS[name](NumpyF32(), np.asarray(x, np.float32), *args)
    return r.astype(np.float32) if np.ndim(r) else np.float32(r)
