"""Issue 18's residual question: why is scale [m] + bias [n] + SiLU + residual [mn] (f16) slower on the
persistent cooperative TMA-store kernel than on the plain one (session 12: 0.966x / 0.981x)?  Builds
(CPU) and times (GPU) the shape default's persistent kernel with passes/tma_store.PRELOAD_MN off (the
residual read in each window's math, after its barrier) and on (read one window ahead, as the [n]
extras), beside the plain (non-persistent) kernel; each checked against float64 (partial tiles and the
first size), then timed in rounds, each starting at the next kernel.

    python3 scripts/residual_ab.py build OUT.pkl [--size 4096] [--rolled 2] [--no-preload-off]
        (no GPU: compile, ptxas info; --rolled N adds persistent-preload-mn-rN: tma_store.ROLLED_SUBTILES = N;
        --no-preload-off leaves out the persistent kernel without the preload)
    python3 scripts/residual_ab.py time OUT.pkl [--sizes 4096,8192] [--rounds 3]
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys

SPEC = ("n", "m", "silu", True, "f16")  # EpilogueSpec(bias, scale, activation, residual, extras' dtype)


def build(size: int, out: str, rolled: list[int] = (), preload_off: bool = True) -> None:
    from lasscc.api import _shape_default, gemm_mlir
    from lasscc.driver import compile_module
    from lasscc.emit import ptxas_info
    from lasscc.epilogue_api import EpilogueSpec, gemm_epilogue_mlir
    from lasscc.passes import tma_store
    from lasscc.source import parse_mlir

    spec = EpilogueSpec(*SPEC)
    kernels = {}
    base_rolled, base_pre = tma_store.ROLLED_SUBTILES, tma_store.PRELOAD_MN
    todo = [("plain-kernel", False, False, base_rolled)] + [("persistent", True, False, base_rolled)] * preload_off
    todo += [("persistent-preload-mn", True, True, base_rolled)]
    todo += [(f"persistent-preload-mn-r{r}", True, True, r) for r in rolled]
    for name, persistent, pre, per in todo:
        tb, _, stages, _, _, kernel = _shape_default((size, size, size), "f16", 132, "sm_90a", None, None,
                                                     "f16" if persistent else None)
        text = gemm_epilogue_mlir(spec, gemm_mlir("f16", None, "f16", "TN", 1.0, 0.0, tb, None, stages, 8, "gemm",
                                                  kernel=kernel))
        tma_store.PRELOAD_MN, tma_store.ROLLED_SUBTILES = pre, per
        try:
            res = compile_module(parse_mlir(text, f"<{name}>"), "sm_90a", f"<{name}>", keep_stages=False)
        finally:
            tma_store.PRELOAD_MN, tma_store.ROLLED_SUBTILES = base_pre, base_rolled
        info = ptxas_info(res.ptx, "sm_90a")
        print(f"{name}: {res.specs[0].config if hasattr(res.specs[0], 'config') else ''} ptxas: {info.line if info else '-'}",
              flush=True)
        kernels[name] = (res.ptx, res.specs[0])
    with open(out, "wb") as f:
        pickle.dump(kernels, f)


def time(path: str, sizes: list[int], rounds: int, iters: int) -> bool:
    from lasscc.epilogue_api import EpilogueSpec
    from lasscc.runtime.gemm_runner import run_gemm

    spec = EpilogueSpec(*SPEC)
    with open(path, "rb") as f:
        kernels = pickle.load(f)
    ok = True
    for name, (ptx, kspec) in kernels.items():
        r = run_gemm(ptx, kspec, 1000, 1032, 520, check=True, seed=1, epilogue=spec)
        r2 = run_gemm(ptx, kspec, sizes[0], sizes[0], sizes[0], check=True, seed=1, epilogue=spec)
        ok &= r["ok"] and r2["ok"]
        print(f"{name}: 1000x1032x520 rel_err {r['rel_err']:.1e} {'PASS' if r['ok'] else 'FAIL'}, {sizes[0]}^3 "
              f"{r2['rel_err']:.1e} {'PASS' if r2['ok'] else 'FAIL'}, regs {r2.get('regs')}, local {r2.get('local_bytes')}",
              flush=True)
    names = list(kernels)
    for size in sizes:
        times = {k: [] for k in names}
        for rnd in range(rounds):
            for k in names[rnd % len(names):] + names[:rnd % len(names)]:
                r = run_gemm(*kernels[k], size, size, size, check=False, bench=True, iters=iters, seed=1,
                             cublas=False, epilogue=spec)
                times[k].append(r["ms_median"])
        med = {k: statistics.median(t) for k, t in times.items()}
        base = med["plain-kernel"]
        for k in names:
            print(f"| {size}^3 | {k} | {med[k]:.4f} | {base / med[k]:.3f}x the plain kernel | "
                  f"{' '.join(f'{t:.4f}' for t in times[k])} |", flush=True)
    return ok


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=("build", "time"))
    p.add_argument("pickle")
    p.add_argument("--size", type=int, default=4096)
    p.add_argument("--sizes", default="4096,8192")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--iters", type=int, default=30)
    p.add_argument("--rolled", default="", help="build: ROLLED_SUBTILES values of extra preload variants, e.g. 2")
    p.add_argument("--no-preload-off", action="store_true", help="build: no persistent kernel without the preload")
    args = p.parse_args()
    if args.mode == "build":
        build(args.size, args.pickle, [int(r) for r in args.rolled.split(",") if r], not args.no_preload_off)
        return 0
    ok = time(args.pickle, [int(s) for s in args.sizes.split(",")], args.rounds, args.iters)
    print("all checks PASS" if ok else "some check FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
