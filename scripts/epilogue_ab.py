"""Time compiler variants of one bias + activation GEMM against each other in one process (GPU):
kernels compiled elsewhere (e.g. from two source trees, or with a module constant changed) and
pickled as {(variant, "plain" | "fused"): (ptx, KernelSpec)}; each fused kernel checked against
float64 once per size, then every kernel timed in rounds (all variants per round, each round
starting at the next one; the median of `--rounds` round medians), beside torch's `matmul` then
`bias + act`.

    python3 scripts/epilogue_ab.py VARIANTS.pkl [--sizes 4096,8192] [--activation gelu] [--rounds 3]
        [--profile VARIANT] [--torch-dtype f16|bf16] [--bias n|m] [--no-check]  (one checked launch of that fused kernel at the first size: under ncu)
        [--check-shapes MxNxK,...]  (each fused kernel also checked at these shapes first, alpha 1 and 1.5)

One plain kernel (the overheads' reference) and any number of fused ones.

Writing the pickle (no GPU): `pickle.dump({(name, kind): (res.ptx, res.specs[0])}, f)` for
compile_module results (scripts/epilogue_bench.py's kernel_texts gives the two texts).
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("pickle")
    p.add_argument("--sizes", default="4096,8192")
    p.add_argument("--activation", default="gelu")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--iters", type=int, default=30)
    p.add_argument("--profile", default=None)
    p.add_argument("--bias", default="n", choices=("n", "m"), help="the kernels' bias: [n] or [m] f32")
    p.add_argument("--no-check", action="store_true",
                   help="no float64 check (the same pickle's kernels checked by an earlier run: 8192^3's is slow)")
    p.add_argument("--check-shapes", default="", help="MxNxK,...: each fused kernel also checked there first")
    p.add_argument("--torch-dtype", default="f16", choices=("f16", "bf16"), help="torch's A, B and bias (its D)")
    args = p.parse_args()
    with open(args.pickle, "rb") as f:
        kernels = pickle.load(f)

    import numpy as np

    from lasscc.epilogue_api import EpilogueSpec
    from lasscc.runtime.gemm_runner import _time_torch, _to_torch, _torch_cuda, run_gemm

    torch = _torch_cuda()
    if torch is None:
        print("epilogue_ab: needs torch with CUDA", file=sys.stderr)
        return 2
    import torch.nn.functional as F
    act = {"gelu": F.gelu, "relu": F.relu, "silu": F.silu}[args.activation]
    spec = EpilogueSpec(bias=args.bias, activation=args.activation)
    names = sorted(kernels, key=str)
    if args.profile is not None:
        size = int(args.sizes.split(",")[0])
        r = run_gemm(*kernels[(args.profile, "fused")], size, size, size, check=True, bench=False, seed=1,
                     epilogue=spec)
        print(f"{args.profile} {size}^3: rel_err {r['rel_err']:.1e} {'PASS' if r['ok'] else 'FAIL'}")
        return 0
    print(f"variants: {', '.join(f'{v}/{k}' for v, k in names)}; bias [{args.bias}] f32 + {args.activation}")
    for shape in filter(None, args.check_shapes.split(",")):
        m, n, k = (int(x) for x in shape.split("x"))
        for (v, kind) in names:
            for alpha in (1.0, 1.5):  # 1.5: alpha * acc is not exact (the alpha fold's one rounding)
                if kind == "fused":
                    r = run_gemm(*kernels[(v, kind)], m, n, k, alpha=alpha, check=True, bench=False, seed=1,
                                 epilogue=spec)
                    print(f"  {shape} alpha {alpha} {v}: rel_err {r['rel_err']:.1e} {'PASS' if r['ok'] else 'FAIL'}",
                          flush=True)
    for size in (int(s) for s in args.sizes.split(",")):
        for (v, kind) in names:
            if kind == "fused" and not args.no_check:
                r = run_gemm(*kernels[(v, kind)], size, size, size, check=True, bench=False, seed=1, epilogue=spec)
                print(f"  {size}^3 {v}: rel_err {r['rel_err']:.1e} {'PASS' if r['ok'] else 'FAIL'}, "
                      f"regs {r.get('regs')}, local {r.get('local_bytes')}", flush=True)
        rng = np.random.default_rng(2)
        tdt = torch.bfloat16 if args.torch_dtype == "bf16" else torch.float16
        a = _to_torch(torch, rng.standard_normal((size, size)).astype(np.float32)).to(tdt)
        b = _to_torch(torch, rng.standard_normal((size, size)).astype(np.float32)).to(tdt).t()
        bias = _to_torch(torch, rng.standard_normal(size).astype(np.float32)).to(tdt)
        if args.bias == "m":
            bias = bias[:, None]
        times: dict = {key: [] for key in names}
        times["torch"] = []
        for rnd in range(args.rounds):
            for key in names[rnd % len(names):] + names[:rnd % len(names)]:  # each round starts elsewhere
                r = run_gemm(*kernels[key], size, size, size, check=False, bench=True, iters=args.iters, seed=1,
                             cublas=False, epilogue=spec if key[1] == "fused" else None)
                times[key].append(r["ms_median"])
            times["torch"].append(statistics.median(_time_torch(torch, lambda: act(torch.matmul(a, b) + bias),
                                                                10, args.iters)))
        med = {key: statistics.median(t) for key, t in times.items()}
        pl = next((med[key] for key in names if key[1] == "plain"), None)
        print(f"| {size}^3 | variant | fused ms | plain ms | overhead | torch ms | speed-up | rounds (fused) |\n"
              "|---|---|---|---|---|---|---|---|")
        for v in sorted({v for v, _ in names}, key=str):
            fu = med.get((v, "fused"))
            if fu is None:
                continue
            over = f"{100 * (fu / pl - 1):+.1f}%" if pl else "-"
            print(f"| | {v} | {fu:.4f} | {pl:.4f} | {over} | {med['torch']:.4f} | {med['torch'] / fu:.2f}x | "
                  f"{' '.join(f'{t:.4f}' for t in times[(v, 'fused')])} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
