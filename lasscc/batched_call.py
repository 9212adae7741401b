"""Calling a batched kernel from Python (`lasscc.gemm(..., batched=True)`: 3-d batch-first memrefs,
grid z = batch; with or without a fused epilogue).

    k = lasscc.gemm(d_dtype="f16", batched=True, bias="n", activation="gelu")
    k(a, b, d, bias=bias)    # a [batch, M, K], b [batch, K, N], d [batch, M, N]; bias [N]

The arrays are numpy, batch first, each matrix as the 2-d call takes it (b[i] K x N, any memory
order: it is copied into the kernel's layout); the epilogue's vectors ([N] / [M]) are shared by every
batch, its residual is one M x N matrix per batch ([batch, M, N]).  Each matrix is checked as the 2-d
call checks it (dtypes, tile multiples, alignment: Kernel.check_operands on batch 0).  CUDA arrays:
not supported (a LaunchError says so)."""

from __future__ import annotations

import numpy as np

from lasscc import interop
from lasscc.diagnostics import LassError, LaunchError


def _batched_operands(a, b, d):
    ops = [interop.operand(name, x) for name, x in (("a", a), ("b", b), ("d", d))]
    for op in ops:
        if op.on_device:
            raise LaunchError(f"{op.name}: a batched kernel takes numpy arrays (batch first); CUDA arrays are not "
                              "supported yet")
        if len(op.shape) != 3:
            raise LaunchError(f"{op.name}: expected a 3-d array (batch first) for a batched kernel, got shape "
                              f"{op.shape}")
    batch = ops[0].shape[0]
    for op in ops[1:]:
        if op.shape[0] != batch:
            raise LaunchError(f"{op.name}: expected batch {batch} (a's first dimension), got shape {op.shape}")
    if batch < 1:
        raise LaunchError(f"a: expected at least one batch, got shape {ops[0].shape}")
    return ops, batch


def call_batched(kern, a, b, d, alpha, beta, given: dict, target: str, sync):
    """Run batched kernel `kern` (a lasscc.api.Kernel, spec.batched) on numpy [batch, ...] arrays;
    `given`: the epilogue's extras by name (EpilogueKernel; {} for a plain kernel).  Returns d."""
    (A, B, D), batch = _batched_operands(a, b, d)
    _, _, _, m, n, k = kern.check_operands(A.host[0], B.host[0], D.host[0])
    spec = kern.spec
    col_d = spec.d_layout == "col"
    epi = getattr(kern, "epilogue", None)
    extras = []
    for name, kind in (epi.operands if epi is not None else []):
        x = given.get(name)
        if x is None:
            raise LaunchError(f"{name}: kernel '{spec.name}' has a fused {name} ({kind}); pass {name}=...")
        op = interop.operand(name, x)
        want = {"n": (n,), "m": (m,), "mn": (batch, m, n)}[kind]
        if op.on_device or op.shape != want:
            raise LaunchError(f"{name}: expected a numpy array of shape {want}, got "
                              f"{'a CUDA array' if op.on_device else op.shape}")
        if op.dtype != epi.dtype and not (epi.dtype == "bf16" and op.dtype == "uint16"):
            raise LaunchError(f"{name}: expected dtype {epi.dtype}, got {op.dtype}")
        host = op.host
        extras.append(np.ascontiguousarray(np.swapaxes(host, 1, 2) if kind == "mn" and col_d else host))
    for name, x in given.items():
        if x is not None and name not in dict(epi.operands if epi is not None else []):
            raise LaunchError(f"{name}: kernel '{spec.name}' has no fused {name}")
    # the kernel's memory order of each matrix (as Kernel._run_cpu / _run_gpu for one)
    a_mem = np.ascontiguousarray(np.swapaxes(A.host, 1, 2) if spec.a_layout == "col" else A.host)
    b_mem = np.ascontiguousarray(B.host if spec.b_layout == "row" else np.swapaxes(B.host, 1, 2))
    d_work = np.ascontiguousarray(np.swapaxes(D.host, 1, 2) if col_d else D.host).copy()
    if target == "cpu":
        from lasscc.interp import execute_kernel

        execute_kernel(kern.stages["lasscc-swizzle-smem"], m, n, k, a_mem, b_mem, d_work, alpha, beta,
                       batch=batch, extras=extras or None)
    elif target == "gpu":
        _run_gpu(kern, a_mem, b_mem, d_work, m, n, k, alpha, beta, batch, extras)
    else:
        raise LaunchError(f"target: expected 'gpu' or 'cpu', got {target!r}")
    D.host[...] = np.swapaxes(d_work, 1, 2) if col_d else d_work
    return D.host


def _run_gpu(kern, a_mem, b_mem, d_work, m, n, k, alpha, beta, batch, extras) -> None:
    """One launch of `batch` GEMMs (grid z), the host arrays copied in and D copied back."""
    from lasscc.runtime import cuda
    from lasscc.runtime.launch import free_all, gemm_launcher, grid_sms
    from lasscc.runtime.tma import kernel_tensor_maps as _tensor_map

    reason = cuda.driver_status()
    if reason is not None:
        raise LaunchError(f"no GPU to run on ({reason}); use target='cpu'")
    spec = kern.spec
    buffers = []
    try:
        cuda.context()
        func = kern._function(cuda)
        sms = grid_sms(cuda, spec)  # a persistent or stream-K kernel's grid, and its workspace
        for host in (a_mem, b_mem, *extras):
            buffers.append(cuda.DeviceBuffer.from_array(host))
        dbuf = cuda.DeviceBuffer.from_array(d_work) if beta != 0 else cuda.DeviceBuffer.alloc(d_work.nbytes)
        buffers.append(dbuf)
        ws = None
        if "W" in spec.params:  # split-K's / stream-K's semaphores, zeroed
            wbuf = cuda.DeviceBuffer.from_array(np.zeros(max(1, spec.workspace_bytes(m, n, batch, sms) // 4), np.int32))
            buffers.append(wbuf)
            ws = np.uint64(wbuf.ptr)
        ptr = [np.uint64(buf.ptr) for buf in buffers]
        kargs = spec.param_values(ptr[0], ptr[1], np.uint64(dbuf.ptr), m, n, k, alpha, beta,
                                  _tensor_map(spec, batch), ws, [buf.ptr for buf in buffers[2:2 + len(extras)]])
        args = spec.typed_params(kargs)
        if getattr(spec, "reduce_name", None) and kern._reduce is None:  # parallel split-K's reduction
            kern._reduce = cuda.get_function(kern._module, spec.reduce_name)
        gemm_launcher(cuda, spec, func, kern._reduce, args, m, n, batch, sms)()
        cuda.synchronize()
        d_work[...] = dbuf.download(d_work.shape, d_work.dtype)
    except LaunchError:
        raise
    except LassError as e:
        raise LaunchError(str(e)) from None
    finally:
        free_all(buffers)
