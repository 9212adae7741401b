"""Compiler variants of example kernels against each other in one GPU process (a PTX-changing branch's
check): kernels compiled on the CPU machine by each tree, pickled, then checked and timed on the GPU.

    # CPU machine, once per tree (with the interpreter whose `import lasscc` is that tree):
    python3 scripts/kernel_ab.py build AB.pkl VARIANT examples/X.mlir[:ARCH] ...   (ARCH default sm_90a)
    # GPU machine:
    python3 scripts/kernel_ab.py run AB.pkl [--sizes 4096,8192] [--shapes 1000x1032x520,...]
                                            [--betas 0,0.5] [--bench-betas 0,0.5] [--rounds 3] [--iters 30]

`run` checks every kernel of every variant against float64 at each --shapes shape (alpha 1.5, each
--betas value; a fused example with its region's own float64 semantics) and at each size and
--bench-betas value, then times them there in rounds (all variants of an example per round, each round starting at
the next variant; CUDA events, median of --iters launches after warm-up, fresh random normal data,
D poisoned: lasscc.runtime.gemm_runner.run_gemm) beside cuBLAS (torch.matmul of the same shape in the
same process, what run_gemm reports), and prints per example and size the median over rounds and the
ratio to cuBLAS and to the first variant.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys
from pathlib import Path


def build(args) -> int:
    from lasscc.driver import compile_module
    from lasscc.interp.check import epilogue_of
    from lasscc.source import parse_mlir

    out = Path(args.pickle)
    kernels = pickle.loads(out.read_bytes()) if out.exists() else {}
    for item in args.examples:
        path, _, arch = item.partition(":")
        arch = arch or "sm_90a"
        text = Path(path).read_text()
        mod = parse_mlir(text, path)
        epi = epilogue_of(parse_mlir(text, path))
        res = compile_module(mod, arch, path, keep_stages=False)
        key = f"{Path(path).stem}.{arch}"
        kernels.setdefault(key, {})[args.variant] = (res.ptx, res.specs[0], epi)
        print(f"{key} {args.variant}: {len(res.ptx.splitlines())} PTX lines")
    out.write_bytes(pickle.dumps(kernels))
    return 0


def run(args) -> int:
    from lasscc.runtime.gemm_runner import run_gemm

    with open(args.pickle, "rb") as f:
        kernels = pickle.load(f)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    shapes = [tuple(int(x) for x in s.split("x")) for s in args.shapes.split(",") if s]
    betas = [float(b) for b in args.betas.split(",")]
    bench_betas = [float(b) for b in args.bench_betas.split(",")]
    fails = 0
    for key, variants in kernels.items():
        names = list(variants)
        for v in names:
            ptx, spec, epi = variants[v]
            for shape in shapes:
                for beta in betas:
                    r = run_gemm(ptx, spec, *shape, alpha=1.5, beta=beta, check=True, bench=False, seed=3, epilogue=epi)
                    fails += not r["ok"]
                    print(f"{key} {v} {'x'.join(map(str, shape))} beta {beta}: rel_err {r['rel_err']:.1e} "
                          f"{'PASS' if r['ok'] else 'FAIL'}", flush=True)
        for size, beta in ((s, b) for s in sizes for b in bench_betas):
            for v in names:
                ptx, spec, epi = variants[v]
                r = run_gemm(ptx, spec, size, size, size, beta=beta, check=True, bench=False, seed=1, epilogue=epi)
                fails += not r["ok"]
                print(f"{key} {v} {size}^3 beta {beta}: rel_err {r['rel_err']:.1e} {'PASS' if r['ok'] else 'FAIL'}, "
                      f"regs {r.get('regs')}, local {r.get('local_bytes')}", flush=True)
            ms: dict = {v: [] for v in names}
            cub: list = []
            for rnd in range(args.rounds):
                for v in names[rnd % len(names):] + names[:rnd % len(names)]:
                    ptx, spec, epi = variants[v]
                    r = run_gemm(ptx, spec, size, size, size, beta=beta, check=False, bench=True, iters=args.iters,
                                 seed=1, epilogue=epi)
                    ms[v].append(r["ms_median"])
                    if r.get("cublas_ms"):
                        cub.append(r["cublas_ms"])
            flop = 2.0 * size ** 3
            cb = statistics.median(cub) if cub else None
            base = statistics.median(ms[names[0]])
            print(f"| {key} {size}^3 beta {beta} | variant | ms | TFLOP/s | vs cuBLAS | vs {names[0]} | rounds |\n|---|---|---|---|---|---|---|")
            for v in names:
                m = statistics.median(ms[v])
                ratio = f"{cb / m:.3f}" if cb else "-"
                print(f"| | {v} | {m:.4f} | {flop / m / 1e9:.1f} | {ratio} | {base / m:.3f} | "
                      f"{' '.join(f'{t:.4f}' for t in ms[v])} |", flush=True)
    print(f"kernel_ab: {fails} check failures")
    return 1 if fails else 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("pickle")
    b.add_argument("variant")
    b.add_argument("examples", nargs="+")
    r = sub.add_parser("run")
    r.add_argument("pickle")
    r.add_argument("--sizes", default="4096")
    r.add_argument("--shapes", default="1000x1032x520")
    r.add_argument("--betas", default="0,0.5")
    r.add_argument("--bench-betas", default="0")
    r.add_argument("--rounds", type=int, default=3)
    r.add_argument("--iters", type=int, default=30)
    args = p.parse_args(argv)
    return build(args) if args.cmd == "build" else run(args)


if __name__ == "__main__":
    sys.exit(main())
