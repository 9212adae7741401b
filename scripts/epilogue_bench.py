"""Issue 18's targets on the GPU: a fused bias + GELU epilogue against the plain GEMM with the same
config, and against torch doing the same computation as `matmul` then `bias + gelu` (the unfused
cost: a second read and write of D), all in one process, CUDA events, random normal data.

    python3 scripts/epilogue_bench.py [--sizes 4096,8192] [--arch sm_90a] [--d-dtype f16]
        [--activation gelu|gelu_tanh|...] [--threadblock 256x128x64 --warp 64x64x64 --stages 4 --prefetch 1]

Per size it prints: the fused kernel checked against float64 (rel_err), its time, the plain kernel's
time (same config, no epilogue), the fused overhead (target <= 3%), torch's `F.gelu(a @ b + bias)`
time (cuBLAS matmul + elementwise ops in f16; torch.compile is not used) and the speed-up of the
fused kernel over it (target >= 1.2x).  Needs cuda-bindings and torch with CUDA.
"""

from __future__ import annotations

import argparse
import statistics
import sys


def _tile(text: str) -> tuple[int, int, int]:
    return tuple(int(x) for x in text.lower().split("x"))  # type: ignore[return-value]


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="4096,8192")
    p.add_argument("--arch", default="sm_90a")
    p.add_argument("--d-dtype", default="f16", choices=("f16", "f32"))
    p.add_argument("--activation", default="gelu")
    p.add_argument("--threadblock", default="256x128x64")
    p.add_argument("--warp", default="64x64x64")
    p.add_argument("--stages", type=int, default=4)
    p.add_argument("--prefetch", type=int, default=1)
    p.add_argument("--iters", type=int, default=30)
    args = p.parse_args()

    import numpy as np

    from lasscc.api import gemm_mlir
    from lasscc.epilogue_api import ACTIVATIONS, EpilogueSpec, gemm_epilogue_mlir
    from lasscc.driver import compile_module
    from lasscc.runtime.gemm_runner import _time_torch, _to_torch, _torch_cuda, run_gemm
    from lasscc.source import parse_mlir

    torch = _torch_cuda()  # first: one primary context for torch and lasscc
    if torch is None:
        print("epilogue_bench: needs torch with CUDA", file=sys.stderr)
        return 2
    import torch.nn.functional as F

    tb, wp = _tile(args.threadblock), _tile(args.warp)
    plain_text = gemm_mlir("f16", d_dtype=args.d_dtype, threadblock=tb, warp=wp, stages=args.stages)
    plain_text = plain_text.replace("raster = 8", f"raster = 8, prefetch = {args.prefetch}")
    spec = EpilogueSpec(bias="n", activation=args.activation)
    fused_text = gemm_epilogue_mlir(spec, plain_text)
    kernels = {}
    for name, text in (("plain", plain_text), ("fused", fused_text)):
        res = compile_module(parse_mlir(text, f"<{name}>"), args.arch, f"<{name}>", keep_stages=False)
        kernels[name] = (res.ptx, res.specs[0])
    torch_act = {"gelu": lambda x: F.gelu(x), "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
                 "relu": F.relu, "silu": F.silu, "sigmoid": torch.sigmoid, "tanh": torch.tanh}[args.activation]
    assert args.activation in ACTIVATIONS
    print(f"config {args.threadblock} / {args.warp} / {args.stages} stages / prefetch {args.prefetch}, "
          f"f16 in, D {args.d_dtype}, bias [n] f32 + {args.activation}, {args.arch}")
    print("| size | fused rel. error | fused ms | plain ms | fused overhead | torch matmul+bias+act ms | "
          "fused speed-up |\n|---|---|---|---|---|---|---|")
    for size in (int(s) for s in args.sizes.split(",")):
        fused = run_gemm(*kernels["fused"], size, size, size, check=True, bench=True, iters=args.iters,
                         seed=1, epilogue=spec)
        plain = run_gemm(*kernels["plain"], size, size, size, check=False, bench=True, iters=args.iters,
                         seed=1, cublas=False)
        rng = np.random.default_rng(2)
        a = _to_torch(torch, rng.standard_normal((size, size)).astype(np.float16))
        b = _to_torch(torch, rng.standard_normal((size, size)).astype(np.float16)).t()  # column-major B
        bias = _to_torch(torch, rng.standard_normal(size).astype(np.float32)).to(torch.float16)
        out_f32 = args.d_dtype == "f32"

        def unfused():
            y = torch.matmul(a, b) + bias
            y = torch_act(y)
            return y.float() if out_f32 else y

        t_ms = statistics.median(_time_torch(torch, unfused, 10, args.iters))
        over = fused["ms_median"] / plain["ms_median"] - 1
        print(f"| {size}^3 | {fused['rel_err']:.1e} ({'PASS' if fused['ok'] else 'FAIL'}) | "
              f"{fused['ms_median']:.3f} | {plain['ms_median']:.3f} | {100 * over:+.1f}% | {t_ms:.3f} | "
              f"{t_ms / fused['ms_median']:.2f}x |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
