#!/usr/bin/env python3
"""GPU probe of lasscc's sm_90a instruction level (TMA + mbarrier + wgmma), for an H100 / H200.

Compiles lasscc.sm90_tile_kernel's hand-built kernel (one CTA of one warpgroup: TMA boxes of a
64 x K A and an N x K B onto one mbarrier, wgmma.mma_async over K, accumulators stored by the
fragment map) for every case below, builds the tensor maps with cuTensorMapEncodeTiled, launches,
and compares D with torch.matmul in float64 (numpy float64 when torch is missing).  Each case runs
twice: "direct" (this script's own launch, D compared element by element) and "runner" (the same
kernel through lasscc.runtime.gemm_runner.run_gemm, i.e. KernelSpec.tensor_maps / param_values).
Prints one PASS / FAIL line per case and run, the reason on failure, and a summary; exit status 0
only when every case passes.  The same kernels run on the CPU executor in tests/unit/test_sm90_ops.py.

    python3 scripts/sm90_probe.py                 # all cases
    python3 scripts/sm90_probe.py --only f16      # cases whose name contains "f16"
    python3 scripts/sm90_probe.py --keep /tmp/ptx # also write each kernel's PTX there
    python3 scripts/sm90_probe.py --cpu           # no GPU: the same checks on the CPU executor

Needs: lasscc installed from this checkout (pip install -e .), cuda-bindings, a GPU of compute
capability 9.0, xdsl/llvmlite (lasscc's own requirements);
torch is optional (reference), ptxas optional (the `ptxas -v` line: registers, no spills, no wgmma
serialization warning).  Sizes per case (`sizes`): odd ones inside the tile (every TMA box
partly out of bounds: zero-filled), and the full 64 x n x k.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path

import numpy as np


# Sm90TileKernel arguments: every swizzle mode for f16, the other types, a wide N, MN-major A / B
# (the descriptors' transpose bits), A from registers (wgmma RS)
CASES = [
    dict(ab_type="f16", n=64, k=128, swizzle="128b"),
    dict(ab_type="f16", n=64, k=64, swizzle="64b"),
    dict(ab_type="f16", n=32, k=64, swizzle="32b"),
    dict(ab_type="f16", n=24, k=32, swizzle="none"),
    dict(ab_type="f16", n=256, k=128, swizzle="128b"),
    dict(ab_type="bf16", n=128, k=128, swizzle="128b"),
    dict(ab_type="tf32", n=64, k=64, swizzle="64b"),
    dict(ab_type="tf32", n=128, k=64, swizzle="128b"),
    dict(ab_type="s8", n=48, k=128, swizzle="128b"),
    dict(ab_type="s8", n=64, k=128, swizzle="none"),
    dict(ab_type="f16", n=64, k=64, swizzle="128b", a_major="mn"),
    dict(ab_type="bf16", n=64, k=64, swizzle="64b", b_major="mn"),
    dict(ab_type="f16", n=128, k=64, swizzle="128b", a_major="mn", b_major="mn"),
    dict(ab_type="f16", n=64, k=32, swizzle="none", a_major="mn", b_major="mn"),
    dict(ab_type="f16", n=64, k=128, swizzle="128b", a_regs=True),
    dict(ab_type="bf16", n=64, k=64, swizzle="32b", a_regs=True, b_major="mn"),
    dict(ab_type="tf32", n=32, k=64, swizzle="none", a_regs=True),
    dict(ab_type="s8", n=64, k=128, swizzle="64b", a_regs=True),
    dict(ab_type="f16", n=64, k=128, swizzle="128b", f16_acc=True),
    dict(ab_type="f16", n=32, k=64, swizzle="64b", a_regs=True, b_major="mn", f16_acc=True),
    # the k-tiles as an scf.for (loop-carried accumulators, runtime parity and scale-d)
    dict(ab_type="f16", n=128, k=512, swizzle="128b", loop=True),
    dict(ab_type="bf16", n=64, k=128, swizzle="64b", a_major="mn", loop=True),
    dict(ab_type="s8", n=32, k=128, swizzle="none", a_regs=True, loop=True),
    dict(ab_type="f16", n=64, k=128, swizzle="32b", f16_acc=True, loop=True),
]


def case_name(kern) -> str:
    majors = f"-{kern.a_major}{kern.b_major}" if (kern.a_major, kern.b_major) != ("k", "k") else ""
    return (f"{kern.ab_type}-n{kern.n}-k{kern.k}-{kern.swizzle}{majors}{'-rs' if kern.a_regs else ''}"
            f"{'-f16acc' if kern.f16_acc else ''}{'-loop' if kern.loop else ''}")


def sizes(kern):
    """(M, N, K): odd sizes inside the tile (every TMA box partly out of bounds; the stored rows a
    multiple of 16 bytes: K for K-major operands, M / N for MN-major ones), then the full tile."""
    step = 16 // kern.elem_bytes
    m = 64 - step if kern.a_major == "mn" else 50
    n = kern.n - step if kern.b_major == "mn" else kern.n - 3
    return [(m, n, kern.k - step), (64, kern.n, kern.k)]


def compile_kernel(kern, keep: Path | None):
    from lasscc import emit
    from lasscc.passes.lower_to_llvm import LowerToLLVMPass
    from lasscc.universe import make_context

    module = kern.module()
    module.verify()
    LowerToLLVMPass().apply(make_context(), module)
    ptx = emit.to_ptx(emit.to_llvm_ir(module), "sm_90a")
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        (keep / f"{case_name(kern)}.ptx").write_text(ptx)
    info = emit.ptxas_info(ptx, "sm_90a")  # None without ptxas; raises on a wgmma serialization warning
    if info is not None and (info.spill_stores or info.spill_loads):
        raise RuntimeError(f"ptxas spills: {info.line}")
    return ptx, info


def operands(kern, m, n, k, rng):
    """A (m x k), B (n x k) in the kernel's memory type, and their float64 values."""
    from lasscc.interp.bf16 import bf16_to_f32, to_bf16

    if kern.ab_type == "s8":
        a = rng.integers(-8, 8, (m, k)).astype(np.int8)
        b = rng.integers(-8, 8, (n, k)).astype(np.int8)
        return a, b, a.astype(np.float64), b.astype(np.float64)
    a, b = rng.standard_normal((m, k)), rng.standard_normal((n, k))
    if kern.ab_type == "bf16":
        a, b = to_bf16(a), to_bf16(b)
        return a, b, bf16_to_f32(a).astype(np.float64), bf16_to_f32(b).astype(np.float64)
    dt = np.float16 if kern.ab_type == "f16" else np.float32
    a, b = a.astype(dt), b.astype(dt)
    return a, b, a.astype(np.float64), b.astype(np.float64)


def reference(a64, b64):
    """A . B^T in float64: torch.matmul on the GPU when torch has CUDA, else numpy."""
    try:
        import torch

        if torch.cuda.is_available():
            ta = torch.from_numpy(a64).cuda()
            tb = torch.from_numpy(b64).cuda()
            return torch.matmul(ta, tb.T).cpu().numpy(), "torch.matmul f64"
    except ImportError:
        pass
    return a64 @ b64.T, "numpy f64"


def launch_gpu(kern, ptx, a, b, m, n, k, acc_np, poison):
    """D (m x n) of one launch: tensor maps by cuTensorMapEncodeTiled over the uploaded A and B."""
    from lasscc.runtime import cuda, tma

    spec_a, spec_b = kern.tensor_map_specs(m, n, k)
    module = cuda.load_module(ptx)
    bufs = []
    try:
        func = cuda.get_function(module, "sm90_tile")
        cuda.set_dynamic_smem(func, kern.smem_bytes)
        bufs = [cuda.DeviceBuffer.from_array(np.ascontiguousarray(a)), cuda.DeviceBuffer.from_array(np.ascontiguousarray(b)),
                cuda.DeviceBuffer.from_array(np.full((m, n), poison, acc_np))]
        tm_a = tma.encode(spec_a, bufs[0].ptr, "tensor map of A")
        tm_b = tma.encode(spec_b, bufs[1].ptr, "tensor map of B")
        cuda.launch(func, (1, 1, 1), (128, 1, 1), kern.smem_bytes, [tm_a, tm_b, bufs[2], np.int32(m), np.int32(n)])
        cuda.synchronize()
        d = bufs[2].download((m, n), acc_np).astype(np.float64)
    finally:
        for buf in bufs:
            buf.free()
        cuda.unload_module(module)
    return d


def launch_cpu(kern, ptx, a, b, m, n, k, acc_np, poison):
    """D from lasscc's CPU executor (--cpu: checks this script's plumbing without a GPU)."""
    from lasscc.interp.sm90_ops import execute_sm90
    from lasscc.runtime.tma import HostTensorMap

    spec_a, spec_b = kern.tensor_map_specs(m, n, k)
    d = np.full((m, n), poison, acc_np)
    execute_sm90(kern.module(), [HostTensorMap(spec_a, a), HostTensorMap(spec_b, b), d, m, n], threads=128,
                 smem_bytes=kern.smem_bytes)
    return d.astype(np.float64)


def direct(kern, ptx, m, n, k, seed: int = 0, launch=launch_gpu) -> str:
    """Launch with this script's own tensor maps and buffers; '' on success, else the reason."""
    from lasscc.interp import mma_math as MM

    rng = np.random.default_rng(seed)
    a, b, a64, b64 = operands(kern, m, n, k, rng)
    acc_np = {"i32": np.int32, "f16": np.float16}.get(kern.acc_type, np.float32)
    poison = np.iinfo(np.int32).min if acc_np is np.int32 else np.nan
    # as stored: an MN-major A is column-major (K x M in memory), an MN-major B row-major (K x N)
    a_st = a if kern.a_major == "k" else np.ascontiguousarray(a.T)
    b_st = b if kern.b_major == "k" else np.ascontiguousarray(b.T)
    d = launch(kern, ptx, a_st, b_st, m, n, k, acc_np, poison)
    ref, how = reference(a64, b64)
    if np.isnan(d).any():
        r, c = np.argwhere(np.isnan(d))[0]
        return f"D[{r}, {c}] still holds the NaN poison ({int(np.isnan(d).sum())} elements unwritten)"
    ab = {"f16": "f16", "bf16": "bf16", "tf32": "f32", "s8": "i8"}[kern.ab_type]
    tol = MM.tolerance(np.dtype(acc_np), ab, kern.acc_type, k, ref)
    err = float(np.linalg.norm(d - ref) / max(np.linalg.norm(ref), 1e-30))
    if err > tol:
        r, c = np.unravel_index(int(np.argmax(np.abs(d - ref))), d.shape)
        return (f"relative error {err:.3e} > {tol:.1e} vs {how}; worst D[{r}, {c}] = {d[r, c]!r}, "
                f"expected {ref[r, c]!r}")
    return ""


def runner(kern, ptx, m, n, k) -> str:
    from lasscc.runtime.gemm_runner import run_gemm

    res = run_gemm(ptx, kern.kernel_spec(), m, n, k, check=True, seed=1)
    if not res["ok"]:
        return f"gemm_runner: relative error {res['rel_err']:.3e} > {res['tol']:.1e}"
    return ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="run only the cases whose name contains this text")
    ap.add_argument("--keep", type=Path, default=None, help="write each kernel's PTX into this folder")
    ap.add_argument("--cpu", action="store_true",
                    help="no GPU: run the 'direct' checks on lasscc's CPU executor instead (checks this script)")
    ap.add_argument("-v", action="store_true", help="print the traceback of a failing run")
    args = ap.parse_args()

    try:
        from lasscc.runtime import cuda
        from lasscc.sm90_tile_kernel import Sm90TileKernel
    except ImportError as e:
        print(f"SKIP: lasscc is not importable ({e}): install the checkout first (`python3 -m pip install "
              f"--no-build-isolation --no-deps -e .`, with the wheels of ../shared/device/wheels.sh on a GPU machine)")
        return 2

    runs = (("direct", direct), ("runner", runner))
    if args.cpu:
        runs = (("cpu", lambda *a: direct(*a, launch=launch_cpu)),)
    else:
        why = cuda.driver_status()
        if why:
            print(f"SKIP: no usable CUDA driver: {why} (--cpu runs the checks on the CPU executor)")
            return 2
        arch = cuda.device_arch()
        print(f"device: {cuda.device_name()} ({arch})")
        if not arch.startswith("sm_90"):
            print(f"SKIP: the sm_90a kernels need compute capability 9.0, this GPU is {arch}")
            return 2
    cases = [k for k in (Sm90TileKernel(**c) for c in CASES) if args.only in case_name(k)]
    failures = 0
    for kern in cases:
        try:
            ptx, info = compile_kernel(kern, args.keep)
            line = info.line.replace("ptxas info    : ", "") if info else "ptxas not found"
        except Exception as e:  # noqa: BLE001 -- report and go on with the next case
            print(f"FAIL {case_name(kern):26s} compile: {e}")
            failures += 2 * len(runs)
            if args.v:
                traceback.print_exc()
            continue
        for m, n, k in sizes(kern):
            for what, run in runs:
                try:
                    reason = run(kern, ptx, m, n, k)
                except Exception as e:  # noqa: BLE001
                    reason = f"{type(e).__name__}: {e}"
                    if args.v:
                        traceback.print_exc()
                verdict = "FAIL" if reason else "PASS"
                failures += bool(reason)
                print(f"{verdict} {case_name(kern):26s} {what:6s} M={m:<3d} N={n:<3d} K={k:<3d} [{line}]"
                      + (f"\n     {reason}" if reason else ""), flush=True)
    total = 2 * len(runs) * len(cases)
    print(f"summary: {total - failures} of {total} runs passed" + ("" if not failures else f", {failures} failed"))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
