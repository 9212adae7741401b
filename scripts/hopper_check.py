"""GPU check and benchmark of the Hopper (mma = "wgmma") path, for an H100 / H200 (sm_90a).

Compiles the wgmma configs (128x128x64 and 128x256x64, 3 and 4 stages, f16 and bf16 in, f32 D, TN),
then on the GPU for each: one launch into a NaN-poisoned D on random normal data checked against a
float64 reference (and with beta != 0 on C), at 4096^3, 8192^3 and odd shapes; then timings with
CUDA events after warm-up (median) beside torch.matmul (cuBLAS) in the same process, printing
TFLOP/s and the ratio.  Also prints ptxas -v (registers, spills) per kernel.

    python3 scripts/hopper_check.py [--quick] [--no-bench] [--iters 50] [--list] [--tma-store] [--cluster]

`--tma-store` runs TMA_STORE_CASES instead: 128x256x64 / 4 stages, f16 in, f16 and f32 D, the
direct epilogue and `epilogue = "tma"` (default schedule, and cooperative persistent).

`--list` prints the cases and exits (no GPU needed); `--quick` runs one config per type.
`--cluster` runs the thread block cluster cases instead (CLUSTER_CASES: 128x256x64 / 4 stages with
cluster = [2, 1] and [1, 2], TMA multicast, in the default, the cooperative and the persistent
cooperative schedule (f32 D, and f16 D with epilogue = "tma"), beside the same tile unclustered);
with `--quick`, f16 2x1 and its baseline only.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CONFIGS = [  # (threadblock, stages)
    ((128, 128, 64), 4),
    ((128, 256, 64), 3),
    ((128, 128, 64), 3),
    ((128, 256, 64), 4),
]
TYPES = ("f16", "bf16")
CHECK_SHAPES = [  # (M, N, K, beta): K a multiple of 8 (the TMA's 16-byte global stride)
    (4096, 4096, 4096, 0.0),
    (1000, 1000, 1000, 0.0),
    (129, 257, 72, 0.0),
    (777, 333, 1016, 0.5),
    (8, 8, 8, 0.0),
]
BENCH_SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192)]
# --tma-store: the TMA-store epilogue (config epilogue = "tma", passes/tma_store.py) beside the direct
# one, f16 and f32 D: (name, A/B type, D type, threadblock, stages, extra config text)
TMA = 'epilogue = "tma"'
PERSISTENT = 'schedule = "cooperative", persistent = 1'
TMA_STORE_CASES = [(f"f16 D {d} 128x256x64/4 {name}", "f16", d, (128, 256, 64), 4, extra)
                   for d in ("f16", "f32")
                   for name, extra in (("direct", ""), ("tma", TMA), ("persistent direct", PERSISTENT),
                                       ("persistent tma", f"{PERSISTENT}, {TMA}"))
                   if not (d == "f16" and extra == PERSISTENT)]  # a persistent 16-bit D needs the TMA store
CLUSTER_TILE = ((128, 256, 64), 4)
CLUSTER_CASES = [  # (label, D type, extra config text): lasscc.cluster's shapes, each schedule with its baseline
    ("", "f32", ""),
    ("cluster 2x1", "f32", "cluster = [2, 1]"),
    ("cluster 1x2", "f32", "cluster = [1, 2]"),
    ("cooperative", "f32", 'schedule = "cooperative"'),
    ("cooperative cluster 2x1", "f32", 'schedule = "cooperative", cluster = [2, 1]'),
    ("cooperative cluster 1x2", "f32", 'schedule = "cooperative", cluster = [1, 2]'),
    # the persistent cooperative kernel walking cluster tiles (cuBLAS's nvjet ..._2x1_v_bz_coopA), beside
    # the unclustered persistent one; f32 D, and f16 D with the TMA-store epilogue
    ("persistent", "f32", PERSISTENT),
    ("persistent cluster 2x1", "f32", f"{PERSISTENT}, cluster = [2, 1]"),
    ("persistent cluster 1x2", "f32", f"{PERSISTENT}, cluster = [1, 2]"),
    ("D f16 persistent tma", "f16", f"{PERSISTENT}, {TMA}"),
    ("D f16 persistent tma cluster 2x1", "f16", f"{PERSISTENT}, {TMA}, cluster = [2, 1]"),
    ("D f16 persistent tma cluster 1x2", "f16", f"{PERSISTENT}, {TMA}, cluster = [1, 2]"),
]


def gemm_text(ab: str, tb, stages: int, d: str = "f32", extra: str = "") -> str:
    """The TN lass.gemm of `ab` in, `d` out with mma = "wgmma", the tile, stages and `extra` config text."""
    a, b, dm = f"memref<?x?x{ab}>", f"memref<?x?x{ab}, strided<[1, ?]>>", f"memref<?x?x{d}>"
    more = f", {extra}" if extra else ""
    return (f"func.func @gemm(%a: {a}, %b: {b}, %d: {dm}) {{\n"
            f"  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32, config = {{mma = \"wgmma\", "
            f"threadblock = [{tb[0]}, {tb[1]}, {tb[2]}], stages = {stages}{more}}}}}\n"
            f"      ins(%a, %b : {a}, {b}) outs(%d : {dm})\n  func.return\n}}\n")


def compile_case(ab: str, tb, stages: int, d: str = "f32", extra: str = ""):
    from lasscc.driver import compile_module
    from lasscc.emit import ptxas_info
    from lasscc.source import parse_mlir

    res = compile_module(parse_mlir(gemm_text(ab, tb, stages, d, extra), "hopper_check.mlir"), arch="sm_90a")
    return res.ptx, res.specs[0], ptxas_info(res.ptx, "sm_90a")


def add_options(ap: argparse.ArgumentParser, quick_help: str) -> None:
    ap.add_argument("--quick", action="store_true", help=quick_help)
    ap.add_argument("--no-bench", action="store_true", help="correctness only")
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--list", action="store_true", help="print the cases and exit")


def run_cases(cases, args) -> int:
    """Check (CHECK_SHAPES) and time (BENCH_SHAPES, unless --no-bench) each (name, A/B type, D type,
    threadblock, stages, extra config text) on the GPU beside cuBLAS; a table last.  The exit code."""
    from lasscc.runtime import cuda
    from lasscc.runtime.gemm_runner import run_gemm

    status = cuda.driver_status()
    if status is not None:
        print(f"no GPU: {status}")
        return 2
    print(f"device: {cuda.device_name()} ({cuda.device_arch()})")
    failures, rows = 0, []
    for name, ab, d, tb, stages, extra in cases:
        t0 = time.time()
        ptx, spec, info = compile_case(ab, tb, stages, d, extra)
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
            print(f"  bench {m}x{n}x{k}: {r.get('tflops', 0):.1f} TFLOP/s (median {r.get('ms_median', 0):.3f} ms); "
                  f"cuBLAS {r.get('cublas_tflops') or 0:.1f}; ratio {r.get('ratio') or 0:.3f}", flush=True)
    if rows:
        print("\n| kernel | shape | lasscc TFLOP/s | cuBLAS TFLOP/s | ratio |\n|---|---|---|---|---|")
        for name, shape, t, c, ratio in rows:
            print(f"| {name} | {shape} | {t or 0:.1f} | {c or 0:.1f} | {ratio or 0:.3f} |")
    print(f"\n{failures} check failure(s)")
    return 1 if failures else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_options(ap, "one config per type")
    ap.add_argument("--tma-store", action="store_true",
                    help='the TMA-store epilogue (epilogue = "tma") beside the direct one, f16 and f32 D, 128x256x64')
    ap.add_argument("--cluster", action="store_true", help="the thread block cluster cases (CLUSTER_CASES)")
    args = ap.parse_args()
    configs = CONFIGS[:1] if args.quick else CONFIGS
    cases = [(f"{ab} {'x'.join(map(str, tb))}/{s}", ab, "f32", tb, s, "") for ab in TYPES for tb, s in configs]
    if args.tma_store:
        cases = TMA_STORE_CASES
    if args.cluster:
        (tb, s), chosen = CLUSTER_TILE, CLUSTER_CASES[:2] if args.quick else CLUSTER_CASES
        cases = [(f"{ab} {'x'.join(map(str, tb))}/{s}{' ' + label if label else ''}", ab, d, tb, s, extra)
                 for ab in (TYPES[:1] if args.quick else TYPES) for label, d, extra in chosen
                 if not (ab == "bf16" and d == "f16")]  # a bf16 kernel's 16-bit D is bf16: f16 in only
    if args.list:
        for name, ab, d, tb, s, extra in cases:
            print(f"{ab} TN D {d} {'x'.join(map(str, tb))} stages {s}{' ' + extra if extra else ''}: check "
                  f"{CHECK_SHAPES}; bench {BENCH_SHAPES}")
        return 0
    return run_cases(cases, args)


if __name__ == "__main__":
    sys.exit(main())
