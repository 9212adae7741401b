"""Does `lasscc.gemm(shape=...)` with a fused epilogue run faster on the persistent cooperative TMA-store
kernel (DP_KERNEL's keys: the default since session 12) than on the plain kernel (session 9's choice)?
Per epilogue: both kernels of the shape default's tile, compiled here, checked against float64 at the
first size, then timed in rounds (each round starting at the next kernel), CUDA events, random normal.

    python3 scripts/fused_default_ab.py [--sizes 4096,8192] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys

# (name, D type, EpilogueSpec arguments: bias, scale, activation, residual, extras' dtype)
CASES = [("bias_n+gelu f16 D", "f16", ("n", None, "gelu", False, "f32")),
         ("bias_n+gelu f32 D", "f32", ("n", None, "gelu", False, "f32")),
         ("scale_m+bias_n+silu+residual(f16) f16 D", "f16", ("n", "m", "silu", True, "f16")),
         ("bias_m+relu f16 D", "f16", ("m", None, "relu", False, "f32"))]


def build(size: int, d: str, spec, persistent: bool):
    from lasscc.api import _shape_default, gemm_mlir
    from lasscc.driver import compile_module
    from lasscc.epilogue_api import gemm_epilogue_mlir
    from lasscc.source import parse_mlir

    tb, _, stages, _, _, kernel = _shape_default((size, size, size), "f16", 132, "sm_90a", None, None,
                                                 d if persistent else None)
    text = gemm_epilogue_mlir(spec, gemm_mlir("f16", None, d, "TN", 1.0, 0.0, tb, None, stages, 8, "gemm",
                                              kernel=kernel))
    res = compile_module(parse_mlir(text, "<ab>"), "sm_90a", "<ab>", keep_stages=False)
    return res.ptx, res.specs[0]


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="4096,8192")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--iters", type=int, default=30)
    args = p.parse_args()
    from lasscc.epilogue_api import EpilogueSpec
    from lasscc.runtime.gemm_runner import run_gemm

    sizes = [int(s) for s in args.sizes.split(",")]
    ok = True
    for name, d, spec_args in CASES:
        spec = EpilogueSpec(*spec_args)
        kernels = {kind: build(sizes[0], d, spec, kind == "persistent") for kind in ("persistent", "plain")}
        for kind, (ptx, kspec) in kernels.items():
            r = run_gemm(ptx, kspec, 1000, 1032, 520, check=True, seed=1, epilogue=spec)  # partial tiles
            r2 = run_gemm(ptx, kspec, sizes[0], sizes[0], sizes[0], check=True, seed=1, epilogue=spec)
            ok &= r["ok"] and r2["ok"]
            tma = "TMA store" if any(t[0] == "D" for t in kspec.tensor_maps) else "direct"
            print(f"{name} {kind}: persistent {kspec.persistent}, {tma}, {kspec.tile_m}x{kspec.tile_n}x{kspec.tile_k}, "
                  f"{kspec.threads} threads: 1000x1032x520 rel_err {r['rel_err']:.1e} {'PASS' if r['ok'] else 'FAIL'}, "
                  f"{sizes[0]}^3 {r2['rel_err']:.1e} {'PASS' if r2['ok'] else 'FAIL'}, regs {r2.get('regs')}, "
                  f"local {r2.get('local_bytes')}", flush=True)
        for size in sizes:
            times = {k: [] for k in kernels}
            order = list(kernels)
            for rnd in range(args.rounds):
                for kind in order[rnd % 2:] + order[:rnd % 2]:
                    r = run_gemm(*kernels[kind], size, size, size, check=False, bench=True, iters=args.iters,
                                 seed=1, cublas=False, epilogue=spec)
                    times[kind].append(r["ms_median"])
            med = {k: statistics.median(t) for k, t in times.items()}
            print(f"| {name} | {size}^3 | {med['persistent']:.4f} | {med['plain']:.4f} | "
                  f"{med['plain'] / med['persistent']:.3f}x | {' '.join(f'{t:.4f}' for t in times['persistent'])} / "
                  f"{' '.join(f'{t:.4f}' for t in times['plain'])} |", flush=True)
    print("all checks PASS" if ok else "some check FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
