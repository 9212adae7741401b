"""The Python API with numpy: compile, look at the stages, check on the CPU, run on the GPU if any.

    python3 examples/api_numpy.py [--m 512 --n 384 --k 256] [--file examples/gemm_small_tiles.mlir]

1. `lasscc.gemm(...)` builds the lass.gemm text from shapes/dtypes and compiles it (or --file: any .mlir);
2. `lasscc.interp.run_check` executes the swizzled per-thread IR on the CPU against a float64
   reference (small sizes: the CPU executor runs every thread);
3. `k(a, b, d)` runs the PTX on the GPU with numpy arrays (copied in, D copied back) and is checked
   the same way.  Without a GPU it says why and stops after step 2.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

import lasscc
from lasscc.interp import run_check
from lasscc.runtime import cuda


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--m", type=int, default=512)
    p.add_argument("--n", type=int, default=384)
    p.add_argument("--k", type=int, default=256)
    p.add_argument("--file", help="compile this .mlir instead of lasscc.gemm(...)")
    p.add_argument("--arch", default="sm_80", choices=["sm_80", "sm_90a"])
    args = p.parse_args()

    try:
        if args.file:
            k = lasscc.compile(args.file, arch=args.arch)
        else:
            k = lasscc.gemm(a_dtype="f16", d_dtype="f32", layout="TN", alpha=1.0, beta=0.0,
                            threadblock=(64, 64, 32), warp=(32, 32, 32), stages=3, arch=args.arch)
    except lasscc.CompileError as e:
        print(e, file=sys.stderr)
        return 2
    print(k, "(from the cache)" if k.cache_hit else "")
    print("  resources:", k.resources)
    print("  after lasscc-pipeline:", len(k.ir("pipeline").splitlines()), "lines;",
          "PTX:", len(k.ptx.splitlines()), "lines,", k.ptx.count("mma.sync"), "mma.sync")

    # 2. the CPU executor on the IR after lasscc-swizzle-smem (small problem: it runs every thread)
    r = run_check(k.ir("swizzle-smem"), 128, 128, 64, seed=0)
    print(f"  CPU  check {'PASS' if r['ok'] else 'FAIL'}  rel_err {r['rel_err']:.2e}  ({r['seconds']:.2f} s, "
          f"128 x 128 x 64, level {r['level']})")
    if not r["ok"]:
        return 1

    # 3. the GPU, with numpy arrays: A M x K row-major, B K x N (made column-major by the call), D M x N
    reason = cuda.driver_status()
    if reason is not None:
        print(f"  GPU  skipped: {reason}")
        return 0
    rng = np.random.default_rng(1)
    m, n, kk = args.m, args.n, args.k
    a = rng.uniform(-1, 1, (m, kk)).astype(np.float16)
    b = rng.uniform(-1, 1, (kk, n)).astype(np.float16)
    d = np.full((m, n), np.nan, dtype=np.float32)
    try:
        k(a, b, d)
    except lasscc.LaunchError as e:
        print(e, file=sys.stderr)
        return 2
    ref = a.astype(np.float64) @ b.astype(np.float64)
    err = float(np.linalg.norm(d - ref) / np.linalg.norm(ref))
    ok = bool(np.isfinite(d).all() and err <= 1e-3)
    print(f"  GPU  check {'PASS' if ok else 'FAIL'}  rel_err {err:.2e}  ({m} x {n} x {kk}, {cuda.device_name()})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
