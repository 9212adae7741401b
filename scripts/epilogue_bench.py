"""Issue 18's targets on the GPU: a fused bias + GELU epilogue against the plain GEMM with the same
config, and against torch doing the same computation as `matmul` then `bias + gelu` (the unfused
cost: a second read and write of D), all in one process, CUDA events, random normal data.

    python3 scripts/epilogue_bench.py [--sizes 4096,8192] [--arch sm_90a] [--d-dtype f16]
        [--activation gelu|gelu_tanh|...] [--threadblock 256x128x64 --warp 64x64x64 --stages 4 --prefetch 1]
        [--mma wgmma]  (the Hopper path; default tile WGMMA_TILE 128x256x64, 4 stages; no warp / prefetch)
        [--extra 'epilogue = "tma"']  (more config keys for the wgmma kernels, e.g. the TMA-store epilogue)
        [--dry-run]    (no GPU: compile both kernels, print ptxas's registers and the PTX instructions
                        the epilogue adds, by opcode)

Per size it prints: the fused kernel checked against float64 (rel_err), its time, the plain kernel's
time (same config, no epilogue), the fused overhead (target <= 3%), torch's `F.gelu(a @ b + bias)`
time (cuBLAS matmul + elementwise ops in f16; torch.compile is not used) and the speed-up of the
fused kernel over it (target >= 1.2x).  Needs cuda-bindings and torch with CUDA.
"""

from __future__ import annotations

import argparse
import statistics
import sys


WGMMA_TILE = "128x256x64"  # the Hopper path's best tile (BENCHMARKS.md: 0.93-1.01x cuBLAS, 4 stages)


def _tile(text: str) -> tuple[int, int, int]:
    return tuple(int(x) for x in text.lower().split("x"))  # type: ignore[return-value]


def kernel_texts(args):
    """(plain, fused, EpilogueSpec): the GEMM without and with bias [n] f32 + the activation, same config."""
    from lasscc.api import gemm_mlir
    from lasscc.epilogue_api import EpilogueSpec, gemm_epilogue_mlir

    if args.mma == "wgmma":
        extra = getattr(args, "extra", "")  # (callers may pass a Namespace without it)
        bm, bn, bk = _tile(args.threadblock or WGMMA_TILE)
        ta, tb, td = "memref<?x?xf16>", "memref<?x?xf16, strided<[1, ?]>>", f"memref<?x?x{args.d_dtype}>"
        plain = (f"func.func @gemm(%a: {ta}, %b: {tb}, %d: {td}) {{\n"
                 f"  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32, config = {{mma = \"wgmma\", "
                 f"threadblock = [{bm}, {bn}, {bk}], stages = {args.stages}"
                 f"{', ' + extra if extra else ''}}}}}\n"
                 f"      ins(%a, %b : {ta}, {tb}) outs(%d : {td})\n  func.return\n}}\n")
    else:
        plain = gemm_mlir("f16", d_dtype=args.d_dtype, threadblock=_tile(args.threadblock or "256x128x64"),
                          warp=_tile(args.warp), stages=args.stages)
        plain = plain.replace("raster = 8", f"raster = 8, prefetch = {args.prefetch}")
    spec = EpilogueSpec(bias="n", activation=args.activation)
    return plain, gemm_epilogue_mlir(spec, plain), spec


def ptx_opcodes(ptx: str):
    """collections.Counter of the PTX instructions (opcode with its modifiers) of `ptx`."""
    import collections
    import re

    ops = collections.Counter()
    for line in ptx.splitlines():
        line = line.strip()
        if not line or line.startswith(("//", ".", "{", "}")) or line.endswith(":"):  # not instructions
            continue
        m = re.match(r"(?:@!?%\w+\s+)?([a-z][\w.]*)", line)
        if m:
            ops[m.group(1)] += 1
    return ops


def dry_run(kernels: dict, arch: str) -> None:
    """ptxas's line per kernel and the instructions the fused kernel adds over the plain one."""
    from lasscc.emit import ptxas_info

    for name, (ptx, _) in kernels.items():
        info = ptxas_info(ptx, arch)
        print(f"{name}: {info.line if info is not None else 'ptxas not on PATH'}")
    plain, fused = (ptx_opcodes(kernels[k][0]) for k in ("plain", "fused"))
    extra = fused - plain
    print(f"PTX instructions: plain {sum(plain.values())}, fused {sum(fused.values())} (+{sum(extra.values())}); "
          "added by the epilogue:")
    for op, count in extra.most_common():
        print(f"  {count:6d}  {op}")


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="4096,8192")
    p.add_argument("--arch", default="sm_90a")
    p.add_argument("--d-dtype", default="f16", choices=("f16", "f32"))
    p.add_argument("--activation", default="gelu")
    p.add_argument("--threadblock", default=None, help=f"default 256x128x64 (mma.sync), {WGMMA_TILE} (wgmma)")
    p.add_argument("--warp", default="64x64x64")
    p.add_argument("--stages", type=int, default=4)
    p.add_argument("--prefetch", type=int, default=1)
    p.add_argument("--mma", default="mma.sync", choices=("mma.sync", "wgmma"))
    p.add_argument("--extra", default="", help='more wgmma config keys, e.g. \'epilogue = "tma"\'')
    p.add_argument("--dry-run", action="store_true", help="compile and count instructions only (no GPU)")
    p.add_argument("--iters", type=int, default=30)
    args = p.parse_args()
    if args.extra and args.mma != "wgmma":
        p.error("option --extra: config keys for the wgmma kernels; add --mma wgmma")
    if args.mma == "wgmma" and args.arch != "sm_90a":
        p.error(f"option --mma: wgmma needs --arch sm_90a, got --arch {args.arch}")

    from lasscc.driver import compile_module
    from lasscc.epilogue_api import ACTIVATIONS
    from lasscc.source import parse_mlir

    if args.activation not in ACTIVATIONS:
        p.error(f"option --activation: expected one of {', '.join(ACTIVATIONS)}, got {args.activation}")
    plain_text, fused_text, spec = kernel_texts(args)
    kernels = {}
    for name, text in (("plain", plain_text), ("fused", fused_text)):
        res = compile_module(parse_mlir(text, f"<{name}>"), args.arch, f"<{name}>", keep_stages=False)
        kernels[name] = (res.ptx, res.specs[0])
    if args.dry_run:
        dry_run(kernels, args.arch)
        return 0

    import numpy as np

    from lasscc.runtime.gemm_runner import _time_torch, _to_torch, _torch_cuda, run_gemm

    torch = _torch_cuda()  # before lasscc's first context use: one primary context for torch and lasscc
    if torch is None:
        print("epilogue_bench: needs torch with CUDA", file=sys.stderr)
        return 2
    import torch.nn.functional as F
    torch_act = {"gelu": lambda x: F.gelu(x), "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
                 "relu": F.relu, "silu": F.silu, "sigmoid": torch.sigmoid, "tanh": torch.tanh}[args.activation]
    cfg = (f"wgmma {args.threadblock or WGMMA_TILE} / {args.stages} stages{' / ' + args.extra if args.extra else ''}"
           if args.mma == "wgmma" else
           f"{args.threadblock or '256x128x64'} / {args.warp} / {args.stages} stages / prefetch {args.prefetch}")
    print(f"config {cfg}, f16 in, D {args.d_dtype}, bias [n] f32 + {args.activation}, {args.arch}")
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
