"""Refit lasscc.epilogue_math's erf and gelu coefficients (ERF_SMALL, ERF_LOG2_ERFC, GELU_LOG2_PHI)
and print them.

    python3 scripts/fit_erf.py        (numpy + scipy; about 20 s)

The formula (epilogue_math.erf) has two pieces, split at |x| = ERF_SPLIT:
  |x| <  ERF_SPLIT:  erf(x) = x + x * Q(x^2)      Q ~ erf(x)/x - 1, degree 6 in x^2: the final fma
                     rounds once and Q's own error is scaled by |Q| <= 0.16, so about half an ulp.
  |x| >= ERF_SPLIT:  erf(x) = copysign(1 - 2^L(a), x), a = min(|x|, ERF_CLAMP),
                     L ~ log2(erfc(a)), degree 6 in a.  An error dL costs erf ln2 * erfc(a) * dL
                     absolute, so L is fitted with weight erfc(a).
gelu (epilogue_math.gelu): P(a) ~ log2 Phi(-a), degree 10 in a = |x| on [0, GELU_FIT_MAX], weight 1
up to GELU_FIT_FULL (x Phi(x)'s relative error on both sides is ln2 |dP| there) and Phi(-a) /
Phi(-GELU_FIT_FULL) beyond (the absolute error x Phi(-a) ln2 dP of the tail).
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


def main() -> None:
    from scipy.special import erf, erfc, log_ndtr, ndtr

    from lasscc.epilogue_math import ERF_CLAMP, ERF_SPLIT, GELU_FIT_FULL, GELU_FIT_MAX

    x = np.linspace(1e-6, ERF_SPLIT, GRID)
    small = fit_f32(erf(x) / x - 1, x * x, np.ones_like(x), 6)
    a = np.linspace(ERF_SPLIT, ERF_CLAMP, GRID)
    log2_erfc = fit_f32(np.log2(erfc(a)), a, erfc(a), 6)
    print("ERF_SMALL =", tuple(small))
    print("ERF_LOG2_ERFC =", tuple(log2_erfc))
    a = np.linspace(0.0, GELU_FIT_MAX, GRID)
    gelu = fit_f32(log_ndtr(-a) / np.log(2), a, np.minimum(1.0, ndtr(-a) / ndtr(-GELU_FIT_FULL)), 10)
    print("GELU_LOG2_PHI =", tuple(gelu))


if __name__ == "__main__":
    main()
