"""Refit lasscc.epilogue_math's erf and gelu coefficients (ERF_SMALL, ERF_LOG2_ERFC, and each D type's
GELU_FITS entry) and print them.

    python3 scripts/fit_erf.py        (numpy + scipy; about 80 s on the 2-core machine)

The formula (epilogue_math.erf) has two pieces, split at |x| = ERF_SPLIT:
  |x| <  ERF_SPLIT:  erf(x) = x + x * Q(x^2)      Q ~ erf(x)/x - 1, degree 6 in x^2: the final fma
                     rounds once and Q's own error is scaled by |Q| <= 0.16, so about half an ulp.
  |x| >= ERF_SPLIT:  erf(x) = copysign(1 - 2^L(a), x), a = min(|x|, ERF_CLAMP),
                     L ~ log2(erfc(a)), degree 6 in a.  An error dL costs erf ln2 * erfc(a) * dL
                     absolute, so L is fitted with weight erfc(a).
gelu (epilogue_math.gelu): P(a) ~ log2 Phi(-a), degree 10 in a = |x| on [0, fit_max], weight 1
up to GELU_FIT_FULL (x Phi(x)'s relative error on both sides is ln2 |dP| there) and Phi(-a) /
Phi(-GELU_FIT_FULL) beyond (the absolute error x Phi(-a) ln2 dP of the tail): GELU_FITS["f32"].
For an f16 / bf16 D (GELU_FITS["f16"], ["bf16"]: degree 5 on [0, fit_max]) P only needs D's accuracy:
an error dP moves GELU by a e ln2 dP (e = Phi(-a)), which in ulp of D is at most 2^p ln2 dP times
max(e / (1 - e), min(1, a e / D's smallest normal)) (p = D's significand bits; x >= 0: GELU >= a (1 - e);
x < 0 down to the subnormal range: GELU = a e; below it the ulp is fixed): that is the weight
(gelu_weight), so the fit's weighted error is its share of an ulp of D before D's rounding.
Each polynomial is a weighted minimax fit (Lawson's iteratively reweighted least squares on a dense
grid, float64), then rounded to f32 one coefficient at a time from the constant term, the others
refitted after each rounding (so the rounding of a low-order term is compensated by the higher ones).
"""

from __future__ import annotations

import numpy as np

GRID = 20_000  # points per piece
LAWSON_ITERS = 200


def lawson(f, t, w, powers):
    """Coefficients c (float64) of sum c_i t^powers[i] minimizing max |w (sum - f)| (Lawson's algorithm)."""
    basis = np.stack([t ** p for p in powers], 1)
    lw = np.full(len(t), 1.0 / len(t))
    c = None
    for _ in range(LAWSON_ITERS):
        s = np.sqrt(lw) * w
        c, *_ = np.linalg.lstsq(basis * s[:, None], f * s, rcond=None)
        err = np.abs(w * (basis @ c - f))
        lw = lw * err
        lw /= lw.sum()
    return c


def fit_f32(f, t, w, degree: int) -> list[float]:
    """Degree-`degree` weighted minimax coefficients of f(t), rounded to f32 one at a time."""
    fixed: list[float] = []
    for k in range(degree + 1):
        rest = f - sum(c * t ** i for i, c in enumerate(fixed))
        fixed.append(float(np.float32(lawson(rest, t, w, range(k, degree + 1))[0])))
    return fixed


# D's significand bits and smallest normal (f32's numbers for bf16: its exponent range)
D_BITS = {"f16": (11, 2.0 ** -14), "bf16": (8, 2.0 ** -126)}
GELU_DEGREE = {"f32": 10, "f16": 5, "bf16": 5}


def gelu_weight(a: np.ndarray, d_type: str) -> np.ndarray:
    """The weight of P's error dP at a = |x| (see the module doc); f32: 1 up to GELU_FIT_FULL, then the
    tail's absolute error.  For f16 / bf16 the weighted error times 2^p ln2 is in ulp of D."""
    from scipy.special import ndtr

    from lasscc.epilogue_math import GELU_FIT_FULL

    e = ndtr(-a)
    if d_type == "f32":
        return np.minimum(1.0, e / ndtr(-GELU_FIT_FULL))
    tiny = D_BITS[d_type][1]
    return np.maximum(e / (1 - e), np.minimum(1.0, a * e / tiny))


def fit_gelu(d_type: str) -> tuple[list[float], float]:
    """GELU_FITS[d_type]'s coefficients, and (f16 / bf16) the fit's own error in ulp of D."""
    from scipy.special import log_ndtr

    from lasscc.epilogue_math import GELU_FITS

    a = np.linspace(0.0, GELU_FITS[d_type].fit_max, GRID)
    f, w = log_ndtr(-a) / np.log(2), gelu_weight(a, d_type)
    c = fit_f32(f, a, w, GELU_DEGREE[d_type])
    p = sum(ci * a ** i for i, ci in enumerate(c))
    ulps = np.abs(p - f).max() if d_type == "f32" else (np.abs(p - f) * w).max() * np.log(2) * 2 ** D_BITS[d_type][0]
    return c, float(ulps)


def main() -> None:
    from scipy.special import erf, erfc

    from lasscc.epilogue_math import ERF_CLAMP, ERF_SPLIT, GELU_FITS

    x = np.linspace(1e-6, ERF_SPLIT, GRID)
    small = fit_f32(erf(x) / x - 1, x * x, np.ones_like(x), 6)
    a = np.linspace(ERF_SPLIT, ERF_CLAMP, GRID)
    log2_erfc = fit_f32(np.log2(erfc(a)), a, erfc(a), 6)
    print("ERF_SMALL =", tuple(small))
    print("ERF_LOG2_ERFC =", tuple(log2_erfc))
    for d_type in GELU_FITS:
        c, err = fit_gelu(d_type)
        what = "max |dP|" if d_type == "f32" else "its share of an ulp of D"
        print(f"GELU_FITS[{d_type!r}] coefficients = {tuple(c)}  ({what}: {err:.3g})")


if __name__ == "__main__":
    main()
