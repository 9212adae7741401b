"""Run, check and time one emitted GEMM kernel on the GPU (and cuBLAS beside it, through torch).

Kernel ABI (KernelSpec.params, in lasscc.config.kernel_params' order):
    (A: u64, B: u64, D: u64, M: i32, N: i32, K: i32, alpha: f32, beta: f32) then, where the kernel
    has them, the tensor maps, split-K's workspace W and the fused epilogue's extras.
An sm_90a kernel with KernelSpec.tensor_maps names its parameters (`param_values`): `tmap_A` /
`tmap_B` get the TMA tensor map of the kernel's operand (the caller's B and A for a column-major D),
lasscc.runtime.tma.operand_map's over the uploaded matrix with the spec's box, swizzle and major
(3-d over the batch for a batched kernel), encoded by cuTensorMapEncodeTiled (128 bytes, 64-byte
aligned).
A is M x K row-major (a[i, k] at i*K + k); B is K x N column-major (b[k, j] at j*K + k), i.e. on
the host an N x K row-major array `b_nk`; both f16, bf16, f32 (tf32 mma) or i8 (KernelSpec.a_dtype
/ b_dtype).  D is M x N f32, f16, bf16 or i32, read as C when beta != 0 and overwritten with
alpha * A.B + beta * C.  i8 operands (and an i32 C) are drawn uniform in [-8, 8); the tolerance per
type (tf32 2e-3, f16 accumulation growing with sqrt(K/16), i8 exact) is
lasscc.interp.mma_math.tolerance's, whose docstring gives the reasons.  cuBLAS is compared for
f16 / bf16 inputs only, timed interleaved with the kernel (A B B A blocks, `_interleaved`).
This is the "TN" GEMM of BLAS terms.  The pointers are to 2-byte elements for f16 and bf16 alike.
D is row-major (d[i, j] at i*N + j), or column-major for a kernel with KernelSpec.d_layout == "col"
(d[i, j] at j*M + i: on the host an N x M row-major array `d_nm`).  Such a kernel computes
D^T = B^T . A^T (KernelSpec.swap_ab): it is launched with (B, A, D, N, M, K) and N x M tiles
(KernelSpec.launch_args / grid), and cuBLAS beside it computes the same swapped product.  A
row-major D's kernel with config swap_ab = 1 computes D^T too (launched the same way), storing it
column-major into the row-major D; cuBLAS computes the plain product beside it.

Batched kernels (KernelSpec.batched: 3-d batch-first operands, packed) run `batch` GEMMs in one
launch, grid z = batch: the host arrays get a leading batch dimension (a [batch, M, K], b_nk
[batch, N, K], D [batch, M, N] or, column-major, [batch, N, M]) -- always, also for batch == 1 --,
the reference is one float64 product per batch, cuBLAS beside it is torch.bmm / baddbmm on the
same batched problem, and TFLOP/s count the flops of all batches (2 * batch * M * N * K).

numpy has no bf16: bf16 host arrays are uint16 bit patterns (lasscc.interp.bf16: exact decoding,
round-to-nearest-even encoding).  The random inputs are drawn standard normal and rounded to
the input type, and the float64 reference is computed from those exact rounded values, so the
check measures only the kernel's accumulation and D's own rounding.
"""

from __future__ import annotations

import statistics

import numpy as np

from lasscc.diagnostics import LassError
from lasscc.interp.bf16 import BF16, QNAN, as_f64, store_as
from lasscc.runtime import cuda
from lasscc.runtime.launch import free_all, gemm_launcher, grid_sms
from lasscc.runtime.tma import kernel_tensor_maps

NP_DTYPE = {"f16": np.float16, "f32": np.float32, "bf16": BF16, "i8": np.int8, "i32": np.int32}  # bf16: uint16 bit patterns
# Relative Frobenius error allowed against the float64 reference (computed from the exact rounded
# inputs, so input rounding does not count): f32 output only loses the accumulation order (~1e-6
# in practice); f16 output is rounded to 11 significant bits (~5e-4 per element); bf16 output to 8
# significant bits: unit roundoff 2^-8 ~ 3.9e-3 bounds every element's relative error, hence the
# Frobenius relative error too (1.7e-3 measured), and 1e-2 keeps 2.5x headroom over that bound
# while a wrong tile or lane map still gives errors of order 1e-1 to 1.
REL_TOL = {"f32": 1e-3, "f16": 1e-2, "bf16": 1e-2}
SUPPORTED = {"a_dtype": ("f16", "bf16", "f32", "i8"), "b_dtype": ("f16", "bf16", "f32", "i8"),
             "d_dtype": ("f32", "f16", "bf16", "i32", "i8"),
             "a_layout": ("row", "col"), "b_layout": ("col", "row"), "d_layout": ("row", "col")}


def random_operand(rng: np.random.Generator, shape, dtype: str) -> np.ndarray:
    """Random normal draws rounded to `dtype` ("f16", "f32", or "bf16" as uint16 patterns): timings
    on low-entropy data (small integers, zeros, a narrow uniform range) flatter the GPU's power
    draw; integers ("i8", "i32") uniform in [-8, 8) (so an i32 sum stays exact)."""
    if dtype in ("i8", "i32"):
        return rng.integers(-8, 8, shape).astype(NP_DTYPE[dtype])
    return store_as(rng.standard_normal(shape), NP_DTYPE[dtype])


def reference(a: np.ndarray, b_nk: np.ndarray, c: np.ndarray | None, alpha: float, beta: float) -> np.ndarray:
    """alpha * A @ B + beta * C in float64 from the exact input values (B given as its N x K
    storage; uint16 arrays are bf16 bit patterns, decoded exactly)."""
    ref = alpha * (as_f64(a) @ np.swapaxes(as_f64(b_nk), -1, -2))  # [batch,] M x N
    if c is not None and beta != 0:
        ref += beta * as_f64(c)
    return ref


def rel_error(d: np.ndarray, ref: np.ndarray) -> float:
    """||D - ref||_F / ||ref||_F (the plain norm of the difference when ref is all zero); NaN if D
    has NaN.  A uint16 D is bf16 bit patterns."""
    diff = np.linalg.norm(as_f64(d) - ref)
    denom = np.linalg.norm(ref)
    return float(diff / denom) if denom > 0 else float(diff)


def tolerance(d_dtype: str, ab: str = "f16", acc: str = "f32", k: int = 0, ref=None, alpha=1.0, beta=0.0) -> float:
    """REL_TOL[d_dtype] for f16 / bf16 inputs with f32 accumulation; an i8 D of float inputs (a
    fused epilogue's saturating cast) 0.5 per element; the other types: lasscc.interp.mma_math.
    tolerance (tf32, f16 accumulation, i8)."""
    if d_dtype == "i8" and ab != "i8":  # a fused epilogue's quantized D: to nearest, at most 0.5 off
        norm = float(np.linalg.norm(ref)) if ref is not None else 0.0  # (lasscc.interp.check's rule)
        return 0.5 * np.sqrt(np.size(ref)) / norm + 1e-6 if norm > 0 else 0.5
    if ab in ("f16", "bf16") and acc == "f32":
        return REL_TOL[d_dtype]
    from lasscc.interp.mma_math import tolerance as mma_tolerance

    return mma_tolerance(NP_DTYPE[d_dtype], ab, acc, k, ref, alpha, beta)


def check_output(d: np.ndarray, ref: np.ndarray, d_dtype: str, tol: float | None = None) -> tuple[float, bool]:
    """(relative error, ok): ok needs every element finite and the error within `tol`
    (default REL_TOL[d_dtype])."""
    err = rel_error(d, ref)
    tol = REL_TOL[d_dtype] if tol is None else tol
    return err, bool(np.isfinite(as_f64(d)).all() and err <= tol)


def tflops(m: int, n: int, k: int, ms: float, batch: int = 1) -> float:
    """2*batch*m*n*k floating-point operations in `ms` milliseconds, in TFLOP/s."""
    return 2.0 * batch * m * n * k / (ms * 1e-3) / 1e12


def _check_spec(spec, m: int, n: int, k: int, batch: int = 1) -> None:
    """Refuse what this runner cannot feed: other dtypes/layouts, non-positive sizes, i32 overflow."""
    for fld, allowed in SUPPORTED.items():
        if getattr(spec, fld) not in allowed:
            raise LassError(f"kernel '{spec.name}': {fld} = {getattr(spec, fld)!r}; the runner supports {', '.join(allowed)}")
    if spec.d_layout == "col" and not spec.swap_ab:
        raise LassError(f"kernel '{spec.name}': d_layout = {spec.d_layout!r} with swap_ab = {spec.swap_ab}; a "
                        f"column-major D is computed as D^T = B^T . A^T (swap_ab) and only so")
    if spec.a_dtype != spec.b_dtype:
        raise LassError(f"kernel '{spec.name}': a_dtype = {spec.a_dtype!r} and b_dtype = {spec.b_dtype!r}; "
                        f"the runner (like mma.sync) needs A and B of one type")
    from lasscc.config import alignment_error, size_limit_error

    if batch != 1 and not getattr(spec, "batched", False):
        raise LassError(f"kernel '{spec.name}' is not batched (2-d operands): expected batch = 1, got {batch}")
    bad = size_limit_error(m, n, k, batch)  # i32 sizes and offsets, grid z
    if bad:
        raise LassError(f"{bad[0]} = {(m, n, k, batch)[('M', 'N', 'K', 'batch').index(bad[0])]}: {bad[1]}")
    bad = alignment_error(m, n, k, spec.a_layout, spec.b_layout, spec.a_dtype,
                          (getattr(spec, "a_align", 8), getattr(spec, "b_align", 8)))
    if bad:  # the kernel reads each operand in accesses of its align (KernelSpec.a_align / b_align)
        raise LassError(f"{bad[0]} = {(m, n, k)['MNK'.index(bad[0])]}: {bad[1].rsplit(', got', 1)[0]} for kernel "
                        f"'{spec.name}'")


def _torch_cuda():
    """torch with its CUDA initialised, or None when torch or its CUDA is missing.

    Called before our own context() so the runtime creates/retains device 0's primary context
    first and we retain that same one: one context, one default stream, for both.
    """
    try:
        import torch
    except ImportError:
        return None
    try:
        if not torch.cuda.is_available():
            return None
        torch.cuda.init()
        return torch
    except Exception:  # noqa: BLE001 -- a broken torch CUDA only means no cuBLAS comparison
        return None


def _time_torch(torch, fn, warmup: int, iters: int) -> list[float]:
    """Same method as cuda.time_launches (head start included), with torch.cuda.Event.

    torch's current stream is the legacy default stream, the one cuda.gpu_sleep() queues on.
    """
    for _ in range(warmup):
        fn()
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(iters)]
    cuda.context()
    cuda.gpu_sleep(cuda.head_start_ms(iters))
    for start, end in events:
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    return [start.elapsed_time(end) for start, end in events]


def _to_torch(torch, arr: np.ndarray):
    """A CUDA tensor of a host array; uint16 arrays are bf16 patterns and become torch.bfloat16
    (through int16: torch.from_numpy has no uint16 on older versions)."""
    if arr.dtype == BF16:
        return torch.from_numpy(np.ascontiguousarray(arr).view(np.int16)).view(torch.bfloat16).cuda()
    return torch.from_numpy(np.ascontiguousarray(arr)).cuda()


def _cublas(torch, a, b_nk, c, alpha, beta, d_dtype, ref) -> tuple | None:
    """Time cuBLAS (torch) on the same problem in TN layouts (whatever the kernel's A / B layouts);
    f32 output via out_dtype where torch has it.  (label, the call, its rel_err vs ref), or None;
    the caller times the call (`_interleaved`).

    Inputs are torch.float16 or torch.bfloat16 (bf16 host patterns reinterpreted, not converted);
    without out_dtype the output has the input type.  For a column-major D the caller passes the
    swapped problem D^T = B^T . A^T (a = B's N x K storage, b_nk = A, c and ref transposed), whose
    row-major N x M output is D column-major: the same product, layouts and flops as the kernel's."""
    ta = _to_torch(torch, a)
    tb = _to_torch(torch, b_nk).transpose(-1, -2)  # K x N view of an N x K contiguous tensor: column-major B
    tc = _to_torch(torch, c) if c is not None else None
    f32 = torch.float32
    in_name = "bf16" if a.dtype == BF16 else "f16"
    batched = a.ndim == 3  # [batch, M, K]: torch.bmm / baddbmm, one cuBLAS batched call
    mm, addmm = (torch.bmm, torch.baddbmm) if batched else (torch.mm, torch.addmm)
    mm_name, addmm_name = ("torch.bmm", "torch.baddbmm") if batched else ("torch.mm", "torch.addmm")
    candidates = []
    if d_dtype == "f32" and beta == 0:
        candidates.append((f"{mm_name}(out_dtype=float32)", lambda: mm(ta, tb, out_dtype=f32)))
    if d_dtype == "f32" and beta != 0:
        candidates.append((f"{addmm_name}(out_dtype=float32)",
                           lambda: addmm(tc, ta, tb, beta=beta, alpha=alpha, out_dtype=f32)))
    plain = f"{mm_name if batched else 'torch.matmul'} ({in_name} out)"
    if beta == 0:
        candidates.append((plain, lambda: torch.matmul(ta, tb)))
    else:
        tc_in = tc.to(ta.dtype)
        candidates.append((f"{addmm_name} ({in_name} out)",
                           lambda: addmm(tc_in, ta, tb, beta=beta, alpha=alpha)))
    for label, fn in candidates:
        try:
            out = fn()
            torch.cuda.synchronize()
        except (TypeError, RuntimeError):  # older torch: no out_dtype
            continue
        scale = 1.0 if "addmm" in label else alpha  # mm / matmul take no alpha: scale their product
        got = out.float().cpu().numpy() * scale
        return label, fn, rel_error(got, ref)
    return None


def _interleaved(launch, torch, fn, warmup: int, iters: int) -> tuple[list[float], list[float]]:
    """Time our launch and cuBLAS's call in A B B A order, `iters` launches each in all: half of
    ours, half of theirs, the other half of theirs, the other half of ours (each block after its
    own warm-up).  A drift of the GPU's clock or temperature during the measurement (at 8192^3 one
    side's block takes ~0.1 s) then falls on both sides alike instead of on whichever runs second."""
    first = max(1, iters // 2)
    ours = cuda.time_launches(launch, warmup, first)
    theirs = _time_torch(torch, fn, warmup, first)
    if iters > first:
        theirs += _time_torch(torch, fn, warmup, iters - first)
        ours += cuda.time_launches(launch, warmup, iters - first)
    return ours, theirs


def _release(buffers, module) -> None:
    """Best-effort cleanup: after a kernel fault the context is dead and every call fails."""
    free_all(buffers)
    if module is not None:
        try:
            cuda.unload_module(module)
        except LassError:
            pass


_tensor_map = kernel_tensor_maps  # (lasscc.runtime.tma's; the name the runner's callers know)


def _approx_tolerance(epilogue) -> float:
    """What the GPU's approximate epilogue math may add to the relative error beyond the CPU model
    (lasscc.epilogue_math.approx_tolerance) for run_gemm's `epilogue` (an EpilogueSpec or epilogue_of's
    (region, kinds, types))."""
    import re

    from lasscc.epilogue_math import approx_tolerance

    if hasattr(epilogue, "operands"):
        return approx_tolerance(re.findall(r"math\.\w+", epilogue.region("f32")[3]))
    return approx_tolerance(o.name for o in epilogue[0].walk())


def run_gemm(ptx: str, spec, m: int, n: int, k: int, alpha: float = 1.0, beta: float = 0.0,
             check: bool = True, bench: bool = False, warmup: int = 10, iters: int = 50,
             seed: int | None = None, cublas: bool = True, batch: int = 1, epilogue=None) -> dict:
    """Load `ptx`, run kernel `spec.name` on fresh random data, check it and/or time it.

    check: one launch into a NaN-poisoned D (or random C when beta != 0), compared with a float64
    reference; sets rel_err and ok.  bench: median of `iters` event-timed launches after `warmup`;
    sets ms_median and tflops, and with torch+CUDA also cublas_ms, cublas_tflops and ratio
    (lasscc TFLOP/s / cuBLAS TFLOP/s).  Always sets regs and local_bytes (spills) from the driver.
    batch: GEMMs of a batched kernel (spec.batched; grid z); its arrays are [batch, ...] (see above).
    epilogue: for a kernel with a fused epilogue (spec.epilogue), the lasscc.epilogue_api.EpilogueSpec
    it was made from (its float64 reference), or lasscc.interp.check.epilogue_of of its input (the
    region's own semantics on the float64 product): its extras are drawn random normal; an i8
    D must equal the reference rounded and saturated within 1 (a tie rounded the other way).
    """
    if spec.epilogue and epilogue is None:
        raise LassError(f"kernel '{spec.name}' has a fused epilogue: run_gemm needs its EpilogueSpec (epilogue=)")
    batch = int(batch)
    _check_spec(spec, m, n, k, batch)
    batched = bool(getattr(spec, "batched", False))
    lead = (batch,) if batched else ()  # batched kernels: always a leading batch dimension
    bsz = batch if batched else 1
    # cuBLAS beside it for f16 / bf16 inputs (what _cublas feeds torch)
    torch = _torch_cuda() if bench and cublas and spec.a_dtype in ("f16", "bf16") else None  # before our context: see _torch_cuda
    cuda.context()
    d_np = NP_DTYPE[spec.d_dtype]
    col = spec.d_layout == "col"  # D stored N x M row-major (element (i, j) at j*M + i)
    d_shape = lead + ((n, m) if col else (m, n))
    # a stream-K or persistent kernel's grid: from the device's SM count (lasscc.streamk; one CTA per SM)
    sms = grid_sms(cuda, spec)
    grid, block = spec.grid(m, n, batch, sms), (spec.threads, 1, 1)
    result: dict = {"name": spec.name, "m": m, "n": n, "k": k, "alpha": alpha, "beta": beta,
                    "ab_dtype": spec.a_dtype, "d_dtype": spec.d_dtype, "d_layout": spec.d_layout, "grid": grid,
                    "block": block, "smem_bytes": spec.smem_bytes, "rel_err": None, "ok": None,
                    "tol": tolerance(spec.d_dtype, spec.a_dtype, getattr(spec, "acc_dtype", "f32"), k), "batch": bsz}

    rng = np.random.default_rng(seed)
    a = random_operand(rng, lead + (m, k), spec.a_dtype)
    b_nk = random_operand(rng, lead + (n, k), spec.b_dtype)
    c = random_operand(rng, lead + (m, n), spec.d_dtype) if beta != 0 else None  # C[.., i, j], M x N
    extra_host, epi_ref = [], None  # the extras in their memory order; ref -> the epilogue's reference
    if epilogue is not None and hasattr(epilogue, "operands"):  # an EpilogueSpec: its float64 reference
        from lasscc.epilogue_api import broadcast_extras, make_extras

        extras = make_extras(epilogue, m, n, rng)
        extra_host = [np.ascontiguousarray(extras[x].T) if col and kind == "mn" else extras[x]
                      for x, kind in epilogue.operands]

        def epi_ref(ref):
            return epilogue.reference(ref, broadcast_extras(epilogue, m, n, extras))
    elif epilogue is not None:  # (region, kinds, types) of lasscc.interp.check.epilogue_of: the region's semantics
        from lasscc.interp.check import _epilogue_extras
        from lasscc.interp.epilogue import run_region

        extra_host, elems = _epilogue_extras(epilogue, m, n, seed or 0, "col" if col else "row", bsz)

        def epi_ref(ref):
            return run_region(epilogue[0], ref.astype(np.float32), elems).astype(np.float64)
    # C in D's memory order
    c_store = np.ascontiguousarray(np.swapaxes(c, -1, -2)) if col and c is not None else c
    module, buffers, ref = None, [], None
    try:
        module = cuda.load_module(ptx)
        func = cuda.get_function(module, spec.name)
        cuda.set_dynamic_smem(func, spec.smem_bytes)
        attrs = cuda.func_attributes(func)
        result.update(regs=attrs["regs"], local_bytes=attrs["local_bytes"], static_smem_bytes=attrs["static_smem_bytes"])

        # A and B in the kernel's layouts: a column-major A is stored K x M, a row-major B K x N
        a_store = np.ascontiguousarray(np.swapaxes(a, -1, -2)) if spec.a_layout == "col" else a
        b_store = np.ascontiguousarray(np.swapaxes(b_nk, -1, -2)) if spec.b_layout == "row" else b_nk
        buffers = [cuda.DeviceBuffer.from_array(a_store), cuda.DeviceBuffer.from_array(b_store),
                   cuda.DeviceBuffer.alloc(bsz * m * n * np.dtype(d_np).itemsize)]
        d_buf = buffers[2]
        # a split-K kernel's semaphores (lasscc.splitk): zeroed once; every launch leaves them zero
        ws_bytes = spec.workspace_bytes(m, n, bsz, sms) if "W" in spec.params else 0
        result["workspace_bytes"] = ws_bytes
        if ws_bytes:
            buffers.append(cuda.DeviceBuffer.from_array(np.zeros(ws_bytes // 4, np.int32)))
        extra_bufs = [x if np.ndim(x) == 0 else cuda.DeviceBuffer.from_array(x) for x in extra_host]
        buffers += [x for x in extra_bufs if np.ndim(x) != 0]
        # the kernel's order: (B, A, D, N, M, K, ...) for a column-major D (swap_ab)
        # parameters by name (lasscc.config.kernel_params); an sm_90a kernel's TMA maps built here
        kargs = spec.param_values(buffers[0], buffers[1], d_buf, m, n, k, alpha, beta, _tensor_map(spec, bsz),
                                  buffers[3] if ws_bytes else None, extra_bufs)
        args = cuda.pack_args(spec.typed_params(kargs))

        reduce = cuda.get_function(module, spec.reduce_name) if getattr(spec, "reduce_name", None) else None
        launch = gemm_launcher(cuda, spec, func, reduce, args, m, n, batch, sms)

        if check:
            poison = QNAN if np.dtype(d_np) == BF16 else (np.iinfo(d_np).min if np.dtype(d_np).kind == "i" else np.nan)
            d_buf.upload(c_store if c is not None else np.full(d_shape, poison, dtype=d_np))
            launch()
            cuda.synchronize()
            d = d_buf.download(d_shape, d_np)
            if col:
                d = np.swapaxes(d, -1, -2)  # the user's M x N view of the column-major D
            ref = reference(a, b_nk, c, alpha, beta)
            if epi_ref is not None:
                ref = epi_ref(ref)
            if spec.d_dtype == "i8":  # rounded and saturated: within 1 of the reference's rounding
                want = np.clip(np.rint(ref), -128, 127)
                result["tol"] = 1.0
                result["rel_err"] = float(np.abs(d.astype(np.float64) - want).max())
                result["ok"] = result["rel_err"] <= 1.0
            else:
                result["tol"] = tolerance(spec.d_dtype, spec.a_dtype, getattr(spec, "acc_dtype", "f32"), k, ref, alpha,
                                          beta) + (_approx_tolerance(epilogue) if epilogue is not None else 0.0)
                result["rel_err"], result["ok"] = check_output(d, ref, spec.d_dtype, result["tol"])
        if bench:
            cb = None  # cuBLAS beside it (scripts/epilogue_bench.py times torch's unfused epilogue itself)
            if torch is not None and epilogue is None:
                if ref is None:
                    ref = reference(a, b_nk, c, alpha, beta)
                if col:  # the same swapped product: N x M row-major output = D column-major
                    cb = _cublas(torch, b_nk, a, c_store, alpha, beta, spec.d_dtype, np.swapaxes(ref, -1, -2))
                    if cb:
                        cb = (cb[0] + " [D^T = B^T.A^T]",) + cb[1:]
                else:
                    cb = _cublas(torch, a, b_nk, c, alpha, beta, spec.d_dtype, ref)
            if c is not None:
                d_buf.upload(c_store)
            if cb:
                times, theirs = _interleaved(launch, torch, cb[1], warmup, iters)
                cuda.context()  # torch may have changed the current context; put ours (the same) back
            else:
                times = cuda.time_launches(launch, warmup, iters)
            result["ms_median"] = statistics.median(times)
            result["ms_min"] = min(times)
            result["tflops"] = tflops(m, n, k, result["ms_median"], bsz)
            if cb:
                ms = statistics.median(theirs)
                result.update(cublas_op=cb[0], cublas_ms=ms, cublas_rel_err=cb[2], cublas_tflops=tflops(m, n, k, ms, bsz))
                result["ratio"] = result["tflops"] / result["cublas_tflops"]
    finally:
        _release(buffers, module)
    return result


def format_report(result: dict, m: int, n: int, k: int) -> str:
    """A short human table of run_gemm's result."""
    ab = result.get("ab_dtype", "f16")
    ab_text = f"  A/B {ab}" if ab != "f16" else ""  # f16 inputs: the line as it always was
    d_text = " col-major" if result.get("d_layout") == "col" else ""  # row-major D: as it always was
    batch_text = f"  batch={result['batch']}" if result.get("batch", 1) > 1 else ""
    lines = [f"{result.get('name', 'kernel')}  M={m} N={n} K={k}{batch_text}{ab_text}  D {result.get('d_dtype', '?')}{d_text}"
             f"  grid {result.get('grid')} block {result.get('block')} smem {result.get('smem_bytes', 0) // 1024} KB"
             f"  regs {result.get('regs', '?')} spill {result.get('local_bytes', '?')} B"
             + (f"  workspace {result['workspace_bytes']} B" if result.get("workspace_bytes") else "")]
    if result.get("ok") is not None:
        verdict = "PASS" if result["ok"] else "FAIL"
        lines.append(f"  check   {verdict}  rel_err {result['rel_err']:.2e} (limit {result['tol']:.0e})")
    if "ms_median" in result:
        lines.append(f"  lasscc  {result['ms_median']:9.4f} ms  {result['tflops']:8.2f} TFLOP/s")
    if "cublas_ms" in result:
        lines.append(f"  cuBLAS  {result['cublas_ms']:9.4f} ms  {result['cublas_tflops']:8.2f} TFLOP/s"
                     f"  ({result['cublas_op']})  lasscc/cuBLAS = {result['ratio']:.2f}")
    return "\n".join(lines)
