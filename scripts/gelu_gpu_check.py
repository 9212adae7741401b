"""lass.gelu on the GPU against float64 and against the CPU model (lasscc.epilogue_math.gelu), element by
element: D = gelu(A.B + bias) with A = B = 0, so D[i, j] = gelu(bias[j]) for a bias that sweeps x
(dense over [-20, 20], tails, -0, NaN, +-inf).  Prints the max error in ulp of D where D's GELU_FITS
entry bounds it (f32: x >= -3), the max absolute error, the GPU - CPU-model gap (ex2.approx: at most
2^-22 relative before D's rounding), and the special values; PASS when within the entry's bound.

    python3 scripts/gelu_gpu_check.py [--n 262144] [--target cpu] [--d-dtype f32|f16|bf16]
"""

from __future__ import annotations

import argparse
import math
import sys

import numpy as np


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=262144)
    p.add_argument("--target", default="gpu", choices=("gpu", "cpu"), help="cpu: the script's own check (small --n)")
    p.add_argument("--d-dtype", default="f32", choices=("f32", "f16", "bf16"))
    args = p.parse_args()
    import lasscc
    from lasscc.epilogue_math import EX2_APPROX_REL_ERR, GELU_FITS, evaluate, round_to, ulp_of
    from lasscc.interp.bf16 import as_f64
    from lasscc.runtime.gemm_runner import NP_DTYPE

    specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, -1e-40, 16.0, -16.0, 1e30, -1e30], np.float32)
    n = args.n
    x = np.concatenate([specials, np.linspace(-20, 20, n - len(specials) - 2000),
                        -np.geomspace(1e-30, 20, 1000), np.geomspace(1e-30, 20, 1000)]).astype(np.float32)
    m, k = (64, 64) if args.target == "gpu" else (16, 16)
    dt = args.d_dtype
    fit = GELU_FITS[dt]
    ab = "bf16" if dt == "bf16" else "f16"  # a bf16 D takes bf16 A and B (f32 accumulation's rule)
    kern = lasscc.gemm(a_dtype=ab, d_dtype=dt, bias="n", activation="gelu")
    text = kern.ir("lasscc-fuse-epilogue")
    print(f"kernel: {kern.config}; D {dt}; lass.gelu in it: {'lass.gelu' in text}, "
          f"rounded_to = {dt}: {f'rounded_to = {dt}' in text}")
    if dt == "bf16":  # numpy has no bf16: torch tensors (the kernel takes them through DLPack)
        import torch

        dev = "cuda" if args.target == "gpu" else "cpu"
        a, b = (torch.zeros(s, dtype=torch.bfloat16, device=dev) for s in ((m, k), (k, n)))
        dd = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device=dev)
        kern(a, b, dd, bias=torch.from_numpy(x).to(dev), target=args.target)
        d = dd.float().cpu().numpy()
    else:
        a, b = np.zeros((m, k), NP_DTYPE[ab]), np.zeros((k, n), NP_DTYPE[ab])
        d = np.full((m, n), np.nan, np.float32).astype(NP_DTYPE[dt])
        kern(a, b, d, bias=x, target=args.target)
    np.seterr(all="ignore")  # NaN / inf inputs
    g = as_f64(d[0])
    same_rows = bool(np.array_equal(d, np.broadcast_to(d[0], d.shape), equal_nan=True))
    cpu = round_to(evaluate("lass.gelu", x, dt), dt)
    x64 = x.astype(np.float64)
    ref = x64 * np.array([0.5 * math.erfc(-v / math.sqrt(2.0)) if np.isfinite(v) else float(v > 0) for v in x64])
    fin = np.isfinite(x) & np.isfinite(round_to(ref.astype(np.float32), dt))
    err = np.abs(g - ref)[fin]
    ulp = ulp_of(ref[fin], dt)
    core, tail = x[fin] >= fit.ulp_from, x[fin] < fit.abs_below
    gap = np.abs(g - cpu)[fin] / np.maximum(np.abs(cpu[fin]), 1e-30)
    print(f"rows equal: {same_rows}")
    print(f"GPU vs float64: max {np.max(err[core] / ulp[core]):.3f} ulp of {dt} for x >= {fit.ulp_from} (bound "
          f"{fit.max_ulp}), max abs {err.max():.3g} at x = {x[fin][err.argmax()]!r}"
          + (f", below {fit.abs_below} {err[tail].max():.3g} (bound {fit.max_abs})" if tail.any() and fit.max_abs else ""))
    print(f"GPU vs CPU model: max rel gap {gap[np.abs(cpu[fin]) > 1e-30].max():.3g} (ex2.approx bound 2^-22 = "
          f"{2.0 ** -22:.3g}{'' if dt == 'f32' else ', then the rounding to ' + dt}), bit-identical "
          f"{np.mean(g[fin] == cpu[fin]) * 100:.2f} %")
    print("specials:", ", ".join(f"{xv!r} -> {gv!r} (cpu {cv!r})" for xv, gv, cv in
                                 zip(specials, d[0][:len(specials)], cpu[:len(specials)].astype(np.float32))))
    margin = 4 if dt == "f32" else EX2_APPROX_REL_ERR * 2.0 ** 11  # ex2.approx beyond the CPU model
    ok = np.max(err[core] / ulp[core]) <= fit.max_ulp + margin and same_rows
    ok = ok and (not tail.any() or fit.max_abs is None or err[tail].max() <= fit.max_abs)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
