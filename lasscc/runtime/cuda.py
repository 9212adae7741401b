"""A thin, checked wrapper over the CUDA driver API (NVIDIA `cuda-bindings`).

lasscc emits PTX text; this module loads it with the driver's JIT (`cuModuleLoadDataEx`), launches
it and times it.  Every driver call goes through `_call`, which checks the returned CUresult and
raises `LassError("cuXxx failed: CUDA_ERROR_NAME (description)")`, so a failure always names the
call that broke.  `driver_status()` answers "can we run at all?" with a plain reason, never a
traceback, so the CLI and the tests can say why they skip.

We use device 0's *primary* context (cuDevicePrimaryCtxRetain), the one the CUDA runtime and
therefore PyTorch use too: buffers, modules and events from both live in one context, so cuBLAS
(through torch) can be timed in the same process on the same stream (the legacy default stream 0).
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence

import numpy as np

from lasscc.resources import SMEM_DEFAULT_LIMIT  # 48 KB: dynamic smem above this needs an opt-in
from lasscc.diagnostics import LassError

JIT_LOG_BYTES = 16 * 1024  # size of the JIT error-log buffer handed to cuModuleLoadDataEx
DEFAULT_STREAM = 0  # the legacy default stream, shared with the CUDA runtime (and torch)

_cu = None  # the imported driver module, set by _driver()
_ctx = None  # device 0's retained primary context, set by context()


def _driver():
    """Import the driver bindings on first use (so importing lasscc never needs CUDA).

    cuda-bindings >= 12.6 is `cuda.bindings.driver`; older cuda-python spelled it `cuda.cuda`.
    """
    global _cu
    if _cu is None:
        try:
            from cuda.bindings import driver as cu
        except ImportError:
            try:
                from cuda import cuda as cu  # type: ignore[no-redef]
            except ImportError as exc:
                raise LassError("cuda-bindings is not installed (pip install cuda-bindings)") from exc
        _cu = cu
    return _cu


def error_name(err) -> str:
    """'CUDA_ERROR_X (what it means)' for a CUresult, via cuGetErrorName/cuGetErrorString."""
    cu = _driver()
    try:
        e1, name = cu.cuGetErrorName(err)
        e2, desc = cu.cuGetErrorString(err)
        if e1 == cu.CUresult.CUDA_SUCCESS and e2 == cu.CUresult.CUDA_SUCCESS:
            return f"{name.decode()} ({desc.decode()})"
    except Exception:  # noqa: BLE001 -- the driver may be unusable; fall back to the enum name
        pass
    return getattr(err, "name", str(err))


def _check(what: str, result):
    """Raise LassError naming `what` unless result[0] is CUDA_SUCCESS; return the other values.

    The bindings return a tuple (CUresult, value...): no value -> None, one -> it, more -> tuple.
    """
    cu = _driver()
    err, *vals = result if isinstance(result, tuple) else (result,)
    if err != cu.CUresult.CUDA_SUCCESS:
        raise LassError(f"{what} failed: {error_name(err)}")
    if not vals:
        return None
    return vals[0] if len(vals) == 1 else tuple(vals)


def _call(name: str, *args, what: str | None = None):
    """Call driver function `name` with `args`, check its CUresult and return its value(s)."""
    return _check(what or name, getattr(_driver(), name)(*args))


def driver_status() -> str | None:
    """None when the driver and a GPU are usable, else a short plain reason (never raises)."""
    try:
        cu = _driver()
    except LassError:
        return "cuda-bindings is not installed"
    try:
        (err,) = cu.cuInit(0)
    except Exception:  # noqa: BLE001 -- cuda-bindings >= 12.9 raises when libcuda.so is missing
        return "no CUDA driver found"
    try:
        if err == cu.CUresult.CUDA_ERROR_NO_DEVICE:
            return "no GPU"
        no_driver = [getattr(cu.CUresult, n, None) for n in ("CUDA_ERROR_STUB_LIBRARY", "CUDA_ERROR_NOT_FOUND")]
        if err in no_driver:
            return "no CUDA driver found"
        if err != cu.CUresult.CUDA_SUCCESS:
            return f"CUDA driver unusable: cuInit failed: {error_name(err)}"
        err, count = cu.cuDeviceGetCount()
        if err != cu.CUresult.CUDA_SUCCESS or count == 0:
            return "no GPU"
    except Exception as exc:  # noqa: BLE001 -- a reason, never a traceback
        return f"CUDA driver unusable: {exc}"
    return None


def context():
    """Make device 0's primary context current on this thread (retaining it once) and return it.

    The primary context is the one the CUDA runtime (and torch) use, so both share memory and
    the default stream.  Raises LassError with driver_status()'s reason when there is no GPU.
    """
    global _ctx
    if _ctx is None:
        reason = driver_status()
        if reason:
            raise LassError(f"cannot run on the GPU: {reason}")
        dev = _call("cuDeviceGet", 0)
        _ctx = _call("cuDevicePrimaryCtxRetain", dev)
    _call("cuCtxSetCurrent", _ctx)
    return _ctx


def synchronize() -> None:
    """Wait for all work in the context; asynchronous kernel faults surface here."""
    _call("cuCtxSynchronize")


def device_name() -> str:
    """Device 0's marketing name (e.g. 'NVIDIA H100 80GB HBM3')."""
    context()
    raw = _call("cuDeviceGetName", 256, _call("cuDeviceGet", 0))
    return raw.split(b"\0", 1)[0].decode()


def device_arch() -> str:
    """lasscc's target for device 0: sm_90a on compute capability 9.x, sm_80 below (8.x runs sm_80 PTX)."""
    context()
    dev = _call("cuDeviceGet", 0)
    attr = _driver().CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
    return "sm_90a" if _call("cuDeviceGetAttribute", attr, dev) == 9 else "sm_80"


def sm_count() -> int:
    """Streaming multiprocessors of device 0 (split-K's search sizes its grid against them)."""
    context()
    dev = _call("cuDeviceGet", 0)
    attr = _driver().CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
    return int(_call("cuDeviceGetAttribute", attr, dev))


# --- modules and functions -------------------------------------------------------------------


def load_module(ptx: str):
    """JIT-compile PTX text into a CUmodule in the current context.

    The image is passed NUL-terminated (the driver reads PTX as a C string).  We use
    cuModuleLoadDataEx with an error-log buffer so a rejected PTX reports the ptxas message
    (line number and reason) and not only CUDA_ERROR_INVALID_PTX.
    """
    cu = _driver()
    context()
    image = ctypes.create_string_buffer(ptx.encode())  # adds the terminating NUL
    log = bytearray(JIT_LOG_BYTES)  # the bindings pass a bytearray as the char* the driver writes
    opts = [cu.CUjit_option.CU_JIT_ERROR_LOG_BUFFER, cu.CUjit_option.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES]
    try:
        err, module = cu.cuModuleLoadDataEx(ctypes.addressof(image), len(opts), opts, [log, JIT_LOG_BYTES])
    except TypeError:  # bindings that marshal JIT options differently: load without the log
        return _call("cuModuleLoadData", ctypes.addressof(image))
    if err != cu.CUresult.CUDA_SUCCESS:
        text = log.split(b"\0", 1)[0].decode(errors="replace").strip()
        raise LassError(f"cuModuleLoadDataEx failed: {error_name(err)}" + (f"\nJIT log:\n{text}" if text else ""))
    return module


def unload_module(module) -> None:
    """Release a module loaded by load_module."""
    _call("cuModuleUnload", module)


def get_function(module, name: str):
    """The CUfunction of kernel `name` (the PTX `.entry` name) in `module`."""
    return _call("cuModuleGetFunction", module, name.encode(), what=f"cuModuleGetFunction('{name}')")


def set_dynamic_smem(func, nbytes: int) -> None:
    """Opt `func` in to `nbytes` of dynamic shared memory when that exceeds the 48 KB default.

    Without the opt-in a launch asking for more than SMEM_DEFAULT_LIMIT fails with
    CUDA_ERROR_INVALID_VALUE; the per-arch maximum (e.g. 227 KB on sm_90) is the driver's to check.
    """
    if nbytes > SMEM_DEFAULT_LIMIT:
        cu = _driver()
        attr = cu.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
        _call("cuFuncSetAttribute", func, attr, nbytes, what=f"cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES={nbytes})")


def func_attributes(func) -> dict[str, int]:
    """What ptxas made of the kernel: registers per thread, static smem, local (spill) bytes, max threads."""
    a = _driver().CUfunction_attribute
    keys = {
        "regs": a.CU_FUNC_ATTRIBUTE_NUM_REGS,
        "static_smem_bytes": a.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
        "local_bytes": a.CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
        "max_threads": a.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
    }
    return {k: int(_call("cuFuncGetAttribute", attr, func, what=f"cuFuncGetAttribute({attr.name})")) for k, attr in keys.items()}


# --- device memory ---------------------------------------------------------------------------


class DeviceBuffer:
    """A device allocation: its address (`ptr`, an int) and size.  Free it with free() or `with`."""

    def __init__(self, ptr: int, nbytes: int):
        self.ptr = int(ptr)
        self.nbytes = nbytes

    @classmethod
    def alloc(cls, nbytes: int) -> DeviceBuffer:
        """cuMemAlloc `nbytes` (at least 1: the driver rejects 0)."""
        context()
        return cls(int(_call("cuMemAlloc", max(nbytes, 1))), nbytes)

    @classmethod
    def from_array(cls, arr: np.ndarray) -> DeviceBuffer:
        """Allocate a buffer of arr's size and copy arr into it."""
        buf = cls.alloc(arr.nbytes)
        buf.upload(arr)
        return buf

    def upload(self, arr: np.ndarray) -> None:
        """Copy a host array (made C-contiguous) into the start of the buffer (cuMemcpyHtoD)."""
        arr = np.ascontiguousarray(arr)
        if arr.nbytes > self.nbytes:
            raise LassError(f"upload of {arr.nbytes} bytes into a {self.nbytes}-byte device buffer")
        _call("cuMemcpyHtoD", self.ptr, arr.ctypes.data, arr.nbytes)

    def download(self, shape, dtype) -> np.ndarray:
        """Copy the buffer's first prod(shape) elements back into a new host array (cuMemcpyDtoH)."""
        out = np.empty(shape, dtype=dtype)
        if out.nbytes > self.nbytes:
            raise LassError(f"download of {out.nbytes} bytes from a {self.nbytes}-byte device buffer")
        _call("cuMemcpyDtoH", out.ctypes.data, self.ptr, out.nbytes)
        return out

    def free(self) -> None:
        """cuMemFree, once."""
        if self.ptr:
            ptr, self.ptr = self.ptr, 0
            _call("cuMemFree", ptr)

    def __enter__(self) -> DeviceBuffer:
        return self

    def __exit__(self, *exc) -> None:
        self.free()

    def __repr__(self) -> str:
        return f"DeviceBuffer(0x{self.ptr:x}, {self.nbytes})"


# --- launching -------------------------------------------------------------------------------


class PackedArgs:
    """Kernel arguments as the driver wants them: a void*[] whose entries point at each value.

    `values` holds the ctypes scalars (u64 for pointers and np.uint64, i32, f32) and `pointers`
    the array of their addresses; both live as long as this object.  `address` is what
    cuLaunchKernel takes as kernelParams (the driver copies the values at launch).
    """

    def __init__(self, args: Sequence[object]):
        self.values: list[ctypes._SimpleCData] = [_to_ctype(i, a) for i, a in enumerate(args)]
        self.pointers = (ctypes.c_void_p * max(len(self.values), 1))(*[ctypes.addressof(v) for v in self.values])

    @property
    def address(self) -> int:
        return ctypes.addressof(self.pointers)


def _to_ctype(index: int, arg: object) -> ctypes._SimpleCData:
    """One kernel argument as a ctypes value of the PTX parameter's width."""
    if isinstance(arg, DeviceBuffer):
        return ctypes.c_uint64(arg.ptr)  # .param .u64: a generic/global address
    if isinstance(arg, np.int32):
        return ctypes.c_int32(int(arg))
    if isinstance(arg, np.uint64):
        return ctypes.c_uint64(int(arg))
    if isinstance(arg, np.float32):
        return ctypes.c_float(float(arg))
    if hasattr(arg, "as_kernel_param"):  # lasscc.runtime.tma.TensorMapParam: 128 bytes, 64-byte aligned
        return arg.as_kernel_param()
    raise LassError(
        f"kernel argument {index}: expected DeviceBuffer, numpy.int32, numpy.uint64, numpy.float32 or a tensor map, "
        f"got {type(arg).__name__} (plain Python numbers are refused: their width is ambiguous)"
    )


def pack_args(args: Sequence[object]) -> PackedArgs:
    """Pack DeviceBuffer / numpy.int32 / numpy.uint64 / numpy.float32 arguments for cuLaunchKernel."""
    return PackedArgs(args)


def launch(func, grid: Sequence[int], block: Sequence[int], smem_bytes: int, args, cluster=None) -> None:
    """Enqueue `func` on the default stream; `args` is a list (packed here) or a PackedArgs.
    `cluster`: the thread block cluster dims (KernelSpec.cluster_dims; the kernel's
    .reqnctapercluster), launched by cuLaunchKernelEx with CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    None: cuLaunchKernel.

    Asynchronous: a fault in the kernel shows up at the next synchronize().  Pre-pack the
    arguments when timing, so the launch itself is all that runs between the events.
    """
    packed = args if isinstance(args, PackedArgs) else PackedArgs(args)
    gx, gy, gz = (tuple(grid) + (1, 1))[:3]
    bx, by, bz = (tuple(block) + (1, 1))[:3]
    if cluster is not None:
        cu = _driver()
        attr = cu.CUlaunchAttribute()
        attr.id = cu.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
        attr.value.clusterDim.x, attr.value.clusterDim.y, attr.value.clusterDim.z = (int(c) for c in cluster)
        cfg = cu.CUlaunchConfig()
        cfg.gridDimX, cfg.gridDimY, cfg.gridDimZ = gx, gy, gz
        cfg.blockDimX, cfg.blockDimY, cfg.blockDimZ = bx, by, bz
        cfg.sharedMemBytes, cfg.hStream = smem_bytes, cu.CUstream(DEFAULT_STREAM)
        cfg.attrs, cfg.numAttrs = [attr], 1
        _call("cuLaunchKernelEx", cfg, func, packed.address, 0,
              what=f"cuLaunchKernelEx(grid=({gx},{gy},{gz}), block=({bx},{by},{bz}), smem={smem_bytes}, "
                   f"cluster={tuple(cluster)})")
        return
    _call("cuLaunchKernel", func, gx, gy, gz, bx, by, bz, smem_bytes, DEFAULT_STREAM, packed.address, 0,
          what=f"cuLaunchKernel(grid=({gx},{gy},{gz}), block=({bx},{by},{bz}), smem={smem_bytes})")


# A kernel that spins on %globaltimer (ns) for `ns` nanoseconds: queued before the timed launches,
# it keeps the GPU busy while the host enqueues them, so no host gap lands between two events.
_SPIN_PTX = """
.version 7.0
.target sm_70
.address_size 64
.visible .entry lasscc_spin(.param .u64 ns)
{
    .reg .pred %p;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [ns];
    mov.u64 %rd2, %globaltimer;
SPIN:
    mov.u64 %rd3, %globaltimer;
    sub.u64 %rd3, %rd3, %rd2;
    setp.lt.u64 %p, %rd3, %rd1;
    @%p bra SPIN;
    ret;
}
"""
HOST_US_PER_TIMED_LAUNCH = 50  # generous host cost of one event-record/launch/event-record round
MAX_HEAD_START_MS = 100.0
_spin_func = None


def gpu_sleep(ms: float) -> None:
    """Enqueue a one-thread kernel that keeps the GPU busy for `ms` on the default stream."""
    global _spin_func
    if _spin_func is None:
        _spin_func = get_function(load_module(_SPIN_PTX), "lasscc_spin")
    launch(_spin_func, (1,), (1,), 0, [np.uint64(ms * 1e6)])


def head_start_ms(iters: int) -> float:
    """How long to keep the GPU busy so the host can enqueue `iters` timed launches behind it."""
    return min(iters * HOST_US_PER_TIMED_LAUNCH / 1000.0, MAX_HEAD_START_MS)


def time_launches(fn_launch: Callable[[], None], warmup: int = 10, iters: int = 50) -> list[float]:
    """Milliseconds of each of `iters` calls of fn_launch, after `warmup` untimed calls.

    Each call is bracketed by its own pair of CUDA events on the default stream.  All events are
    created up front, a gpu_sleep() head start is queued first, and the times are read after one
    final synchronize: the GPU runs the launches back to back, so a small kernel's time does not
    include the host's launch overhead.  The caller takes the median.
    """
    context()
    for _ in range(warmup):
        fn_launch()
    events = [(_call("cuEventCreate", 0), _call("cuEventCreate", 0)) for _ in range(iters)]
    try:
        gpu_sleep(head_start_ms(iters))
        for start, end in events:
            _call("cuEventRecord", start, DEFAULT_STREAM)
            fn_launch()
            _call("cuEventRecord", end, DEFAULT_STREAM)
        synchronize()
        return [float(_call("cuEventElapsedTime", start, end)) for start, end in events]
    finally:
        for pair in events:
            for ev in pair:
                _driver().cuEventDestroy(ev)
