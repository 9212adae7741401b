"""Semantics of the `math` ops an epilogue region may hold (lasscc.dialects.epilogue.MATH_OPS; and lass.gelu),
on f32 values (uniform numpy scalars or per-lane arrays), and of `lass.yield`.

exp / tanh / erf / lass.gelu are the formulas the kernel runs (lasscc.epilogue_math, one definition for both);
absf and sqrt are exact / correctly rounded (abs.f32, sqrt.rn.f32); fma rounds once, exactly as
fma.rn.f32 (lasscc.epilogue_math.fma_f32)."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import math

from lasscc.dialects.epilogue import GeluOp, YieldOp, formula_args
from lasscc.epilogue_math import evaluate, fma_f32
from lasscc.interp.executor import handler
from lasscc.interp.values import is_lanes


def _f32(r, like):
    return np.asarray(r, np.float32) if is_lanes(like) or np.ndim(r) else np.float32(r)


def _formula(name: str):
    def run(ex, op, vals):
        return [_f32(evaluate(name, vals[0], *formula_args(op)), vals[0])]

    return run


for _cls in (math.ExpOp, math.TanhOp, math.ErfOp, GeluOp):
    handler(_cls)(_formula(_cls.name))


@handler(math.AbsFOp)
def _absf(ex, op, vals):
    return [_f32(np.abs(np.float32(vals[0]) if np.ndim(vals[0]) == 0 else vals[0]), vals[0])]


@handler(math.SqrtOp)
def _sqrt(ex, op, vals):
    with np.errstate(all="ignore"):
        return [_f32(np.sqrt(np.asarray(vals[0], np.float32)), vals[0])]


@handler(math.FmaOp)
def _fma(ex, op, vals):
    r = fma_f32(*vals)
    return [_f32(r, vals[0] if is_lanes(vals[0]) else (vals[1] if is_lanes(vals[1]) else vals[2]))]


@handler(YieldOp)
def _yield(ex, op, vals):  # only ends an epilogue region, which run_region evaluates
    return []
