"""GPU check and benchmark of the warp-specialized Hopper schedules beside today's (issue 15).

For each case (A/B type, D type, threadblock / stages, `schedule`): compile (ptxas -v printed, a
spill flagged), one launch into a NaN-poisoned D on random normal data checked against a float64
reference (and with beta != 0), at 4096^3 and odd shapes; then CUDA-event timings (median after
warm-up) at 4096^3 and 8192^3 beside torch.matmul (cuBLAS) in the same process.  A short table last.

    python3 scripts/hopper_ws_check.py [--quick] [--no-bench] [--iters 50] [--list]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# (A/B type, D type, threadblock, stages, extra config text)
CASES = [
    ("f16", "f32", (128, 256, 64), 4, ""),
    ("f16", "f32", (128, 256, 64), 4, 'schedule = "cooperative"'),
    ("f16", "f16", (128, 256, 64), 4, ""),
    ("f16", "f16", (128, 256, 64), 4, 'schedule = "cooperative"'),
    ("bf16", "f32", (128, 256, 64), 4, ""),
    ("bf16", "f32", (128, 256, 64), 4, 'schedule = "cooperative"'),
    ("f16", "f32", (128, 256, 64), 4, 'schedule = "cooperative", persistent = 1'),
    ("bf16", "f32", (128, 256, 64), 4, 'schedule = "cooperative", persistent = 1'),
    ("f16", "f32", (128, 128, 64), 6, 'schedule = "cooperative", persistent = 1'),
]
CHECK_SHAPES = [(4096, 4096, 4096, 0.0), (1000, 1000, 1000, 0.0), (129, 257, 72, 0.0), (777, 333, 1016, 0.5),
                (8, 8, 8, 0.0)]
BENCH_SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192)]


def gemm_text(ab: str, d: str, tb, stages: int, extra: str) -> str:
    a, b, dm = f"memref<?x?x{ab}>", f"memref<?x?x{ab}, strided<[1, ?]>>", f"memref<?x?x{d}>"
    more = f", {extra}" if extra else ""
    return (f"func.func @gemm(%a: {a}, %b: {b}, %d: {dm}) {{\n"
            f"  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32, config = {{mma = \"wgmma\", "
            f"threadblock = [{tb[0]}, {tb[1]}, {tb[2]}], stages = {stages}{more}}}}}\n"
            f"      ins(%a, %b : {a}, {b}) outs(%d : {dm})\n  func.return\n}}\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="the default, cooperative and persistent f16 -> f32 cases only")
    ap.add_argument("--no-bench", action="store_true", help="correctness only")
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--list", action="store_true", help="print the cases and exit")
    args = ap.parse_args()
    cases = [CASES[0], CASES[1], CASES[6]] if args.quick else CASES
    if args.list:
        for c in cases:
            print(c)
        return 0
    from lasscc.driver import compile_module
    from lasscc.emit import ptxas_info
    from lasscc.runtime import cuda
    from lasscc.runtime.gemm_runner import run_gemm
    from lasscc.source import parse_mlir

    status = cuda.driver_status()
    if status is not None:
        print(f"no GPU: {status}")
        return 2
    print(f"device: {cuda.device_name()} ({cuda.device_arch()})")
    failures, rows = 0, []
    for ab, d, tb, stages, extra in cases:
        kind = ("persistent" if "persistent" in extra else "cooperative") if extra else "default"
        name = f"{ab}->{d} {'x'.join(map(str, tb))}/{stages} {kind}"
        t0 = time.time()
        res = compile_module(parse_mlir(gemm_text(ab, d, tb, stages, extra), "hopper_ws_check.mlir"), arch="sm_90a")
        ptx, spec = res.ptx, res.specs[0]
        info = ptxas_info(ptx, "sm_90a")
        print(f"{name}: compiled in {time.time() - t0:.1f} s, {spec.threads} threads; ptxas: "
              f"{info.line if info else 'not found'}{'' if info is None or info.spill_stores == 0 else '  SPILL'}",
              flush=True)
        for m, n, k, beta in CHECK_SHAPES:
            r = run_gemm(ptx, spec, m, n, k, alpha=1.0, beta=beta, check=True, bench=False, seed=7)
            ok = bool(r["ok"])
            failures += not ok
            print(f"  check {m}x{n}x{k} beta={beta}: rel_err {r['rel_err']:.2e} (tol {r['tol']:.1e}) "
                  f"{'ok' if ok else 'FAIL'}  regs {r.get('regs')} local {r.get('local_bytes')}", flush=True)
        if args.no_bench:
            continue
        for m, n, k in BENCH_SHAPES:
            r = run_gemm(ptx, spec, m, n, k, check=False, bench=True, warmup=args.warmup, iters=args.iters, seed=7)
            rows.append((name, f"{m}^3" if m == n == k else f"{m}x{n}x{k}", r.get("tflops"), r.get("cublas_tflops"),
                         r.get("ratio")))
            print(f"  bench {m}x{n}x{k}: {r.get('tflops', 0):.1f} TFLOP/s; cuBLAS {r.get('cublas_tflops') or 0:.1f}; "
                  f"ratio {r.get('ratio') or 0:.3f}", flush=True)
    if rows:
        print("\n| kernel | shape | lasscc TFLOP/s | cuBLAS TFLOP/s | ratio |\n|---|---|---|---|---|")
        for name, shape, t, c, ratio in rows:
            print(f"| {name} | {shape} | {t or 0:.1f} | {c or 0:.1f} | {ratio or 0:.3f} |")
    print(f"\n{failures} check failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
