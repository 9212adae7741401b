"""The Python API with torch tensors on the GPU: no copies, the kernel reads and writes them in place.

    python3 examples/api_torch.py [--m 4096 --n 4096 --k 4096] [--d-dtype f32|f16] [--iters 50]

A is M x K row-major f16, B must be K x N column-major: the transpose view `b_nk.t()` of a
contiguous N x K tensor is exactly that.  D is M x N row-major.  Prints the relative error against
torch.matmul in float64 and the TFLOP/s of lasscc and of torch.matmul (cuBLAS) timed the same way.
"""

from __future__ import annotations

import argparse
import sys

import lasscc


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--m", type=int, default=4096)
    p.add_argument("--n", type=int, default=4096)
    p.add_argument("--k", type=int, default=4096)
    p.add_argument("--d-dtype", default="f32", choices=["f32", "f16"])
    p.add_argument("--arch", default="sm_80", choices=["sm_80", "sm_90a"])
    p.add_argument("--iters", type=int, default=50)
    args = p.parse_args()
    try:
        import torch
    except ImportError:
        print("api_torch.py needs torch (pip install torch)", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("api_torch.py needs a CUDA GPU: torch.cuda.is_available() is False", file=sys.stderr)
        return 2

    k = lasscc.gemm(d_dtype=args.d_dtype, threadblock=(128, 128, 32), warp=(64, 64, 32), stages=3, arch=args.arch)
    print(k)
    m, n, kk = args.m, args.n, args.k
    dt = {"f32": torch.float32, "f16": torch.float16}[args.d_dtype]
    g = torch.Generator(device="cuda").manual_seed(0)
    a = torch.rand(m, kk, device="cuda", dtype=torch.float16, generator=g) * 2 - 1
    b_nk = torch.rand(n, kk, device="cuda", dtype=torch.float16, generator=g) * 2 - 1
    b = b_nk.t()  # K x N, column-major: what the kernel reads
    d = torch.full((m, n), float("nan"), device="cuda", dtype=dt)

    try:
        k(a, b, d)  # launched on the legacy default stream (torch's default); asynchronous
    except lasscc.LaunchError as e:
        print(e, file=sys.stderr)
        return 2
    torch.cuda.synchronize()
    ref = a.double() @ b.double()
    err = ((d.double() - ref).norm() / ref.norm()).item()
    tol = 1e-3 if args.d_dtype == "f32" else 1e-2
    ok = bool(torch.isfinite(d).all().item()) and err <= tol
    print(f"  check {'PASS' if ok else 'FAIL'}  rel_err {err:.2e} vs torch.matmul in float64 (limit {tol:.0e})")

    def timed(fn) -> float:
        for _ in range(5):
            fn()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(args.iters):
            fn()
        end.record()
        torch.cuda.synchronize()
        return start.elapsed_time(end) / args.iters  # ms per call

    flops = 2.0 * m * n * kk
    ms = timed(lambda: k(a, b, d))
    print(f"  lasscc        {ms:8.4f} ms  {flops / ms / 1e9:8.2f} TFLOP/s  ({m} x {n} x {kk}, {torch.cuda.get_device_name()})")
    ms_t = timed(lambda: torch.matmul(a, b))  # f16 output: cuBLAS's usual TN GEMM
    print(f"  torch.matmul  {ms_t:8.4f} ms  {flops / ms_t / 1e9:8.2f} TFLOP/s  (cuBLAS, f16 out)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
