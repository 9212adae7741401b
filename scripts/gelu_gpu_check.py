"""lass.gelu on the GPU against float64 and against the CPU model (lasscc.epilogue_math.gelu), element by
element: D = gelu(A.B + bias) with A = B = 0, so D[i, j] = gelu(bias[j]) for a bias that sweeps x
(dense over [-20, 20], tails, -0, NaN, +-inf).  Prints the max error in ulp for x >= -3, the max
absolute error, the GPU - CPU-model gap (ex2.approx: at most 2^-22 relative), and the special values.

    python3 scripts/gelu_gpu_check.py [--n 262144] [--target cpu]
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
    args = p.parse_args()
    import lasscc
    from lasscc.epilogue_math import evaluate

    specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, -1e-40, 16.0, -16.0, 1e30, -1e30], np.float32)
    n = args.n
    x = np.concatenate([specials, np.linspace(-20, 20, n - len(specials) - 2000),
                        -np.geomspace(1e-30, 20, 1000), np.geomspace(1e-30, 20, 1000)]).astype(np.float32)
    m, k = (64, 64) if args.target == "gpu" else (16, 16)
    kern = lasscc.gemm(d_dtype="f32", bias="n", activation="gelu")
    text = kern.ir("lasscc-fuse-epilogue")
    print(f"kernel: {kern.config}; lass.gelu in it: {'lass.gelu' in text}")
    a, b = np.zeros((m, k), np.float16), np.zeros((k, n), np.float16)
    d = np.full((m, n), np.nan, np.float32)
    kern(a, b, d, bias=x, target=args.target)
    np.seterr(all="ignore")  # NaN / inf inputs
    g = d[0].astype(np.float64)
    same_rows = bool(np.array_equal(d, np.broadcast_to(d[0], d.shape), equal_nan=True))
    cpu = evaluate("lass.gelu", x).astype(np.float64)
    x64 = x.astype(np.float64)
    ref = x64 * np.array([0.5 * math.erfc(-v / math.sqrt(2.0)) if np.isfinite(v) else float(v > 0) for v in x64])
    fin = np.isfinite(x)
    err = np.abs(g - ref)[fin]
    ulp = np.spacing(np.abs(ref[fin]).astype(np.float32)).astype(np.float64)
    core = x[fin] >= -3
    gap = np.abs(g - cpu)[fin] / np.maximum(np.abs(cpu[fin]), 1e-30)
    print(f"rows equal: {same_rows}")
    print(f"GPU vs float64: max {np.max(err[core] / ulp[core]):.2f} ulp for x >= -3, max abs {err.max():.3g} "
          f"at x = {x[fin][err.argmax()]!r}")
    print(f"GPU vs CPU model: max rel gap {gap[np.abs(cpu[fin]) > 1e-30].max():.3g} (ex2.approx bound 2^-22 = "
          f"{2.0 ** -22:.3g}), bit-identical {np.mean(g[fin] == cpu[fin]) * 100:.1f} %")
    print("specials:", ", ".join(f"{xv!r} -> {gv!r} (cpu {cv!r})" for xv, gv, cv in
                                 zip(specials, d[0][:len(specials)], cpu[:len(specials)].astype(np.float32))))
    ok = np.max(err[core] / ulp[core]) <= 16 and err.max() <= 1e-6 and same_rows
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
