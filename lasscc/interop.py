"""Arrays from other libraries as kernel operands: numpy arrays, and CUDA arrays through
`__cuda_array_interface__` (v3, with its stream) or DLPack (a `dltensor` capsule read with ctypes).

`operand(name, x)` normalises one array into an `Operand`: a host array (numpy, copied by the
launcher) or a device pointer with its shape, lasscc dtype name ('f16', 'bf16', 'f32', 'i8',
'i32') and element strides (None = C-contiguous); `same_strides` compares strides with the ones a
layout needs.  Every array the launcher cannot take is a LaunchError naming the operand.
"""

from __future__ import annotations

import ctypes

from lasscc.diagnostics import LaunchError

_DL_CPU, _DL_CUDA, _DL_CUDA_HOST, _DL_CUDA_MANAGED = 1, 2, 3, 13
_DL_INT, _DL_FLOAT, _DL_BFLOAT = 0, 2, 4


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class Operand:
    """One operand, normalised: host (numpy) or device (pointer + element strides)."""

    def __init__(self, name: str, obj, shape, dtype: str, host=None, ptr: int = 0, strides=None, keep=None,
                 readonly: bool = False, stream=None):
        self.name, self.obj, self.shape, self.dtype = name, obj, tuple(int(s) for s in shape), dtype
        self.host, self.ptr, self.strides, self.keep = host, int(ptr), strides, keep
        self.readonly, self.stream = readonly, stream

    @property
    def on_device(self) -> bool:
        return self.host is None


def np_dtype_name(dt) -> str:
    import numpy as np

    dt = np.dtype(dt)
    return {"float16": "f16", "float32": "f32", "bfloat16": "bf16", "int8": "i8", "int32": "i32"}.get(dt.name, dt.name)


def _opaque(typestr) -> bool:
    """A __cuda_array_interface__ typestr of raw bytes ("<V2"), which names no element type."""
    import numpy as np

    try:
        return np.dtype(typestr).kind == "V"
    except TypeError:
        return False


def operand(name: str, x) -> Operand:
    import numpy as np

    if isinstance(x, np.ndarray):
        return Operand(name, x, x.shape, np_dtype_name(x.dtype), host=x, readonly=not x.flags.writeable)
    try:
        cai = getattr(x, "__cuda_array_interface__", None)
    except Exception:  # noqa: BLE001 -- e.g. a CPU torch tensor raising inside the property
        cai = None
    if cai is not None and _opaque(cai.get("typestr")) and hasattr(x, "__dlpack__"):
        cai = None  # opaque bytes (torch names bfloat16 "<V2"): DLPack's dtype code says what they are
    if cai is not None:
        if cai.get("mask") is not None:
            raise LaunchError(f"{name}: masked CUDA arrays are not supported")
        try:
            dt = np_dtype_name(np.dtype(cai["typestr"]))
        except TypeError:
            dt = cai["typestr"]
        itemsize = np.dtype(cai["typestr"]).itemsize
        ptr, readonly = cai["data"]
        strides = cai.get("strides")
        if strides is not None:
            if any(s % itemsize for s in strides):
                raise LaunchError(f"{name}: strides {strides} bytes are not whole elements")
            strides = tuple(s // itemsize for s in strides)
        return Operand(name, x, cai["shape"], dt, ptr=ptr or 0, strides=strides, keep=x, readonly=bool(readonly),
                        stream=cai.get("stream"))
    if hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        dev_type, dev_id = x.__dlpack_device__()
        dev_type = int(dev_type)
        if dev_type not in (_DL_CUDA, _DL_CUDA_MANAGED):
            where = {_DL_CPU: "CPU", _DL_CUDA_HOST: "pinned host"}.get(dev_type, f"DLPack device type {dev_type}")
            raise LaunchError(f"{name}: a {type(x).__name__} in {where} memory; pass a numpy array (e.g. t.numpy()) "
                              "or an array on the CUDA device (e.g. t.cuda())")
        if int(dev_id) != 0:
            raise LaunchError(f"{name}: on CUDA device {dev_id}; lasscc runs on device 0 (select the GPU with "
                              "CUDA_VISIBLE_DEVICES)")
        return from_dlpack(name, x)
    if type(x).__module__.startswith("torch"):
        raise LaunchError(f"{name}: a CPU torch tensor; pass t.numpy() or t.cuda()")
    raise LaunchError(f"{name}: expected a numpy array or a CUDA array (torch, cupy: __cuda_array_interface__ or "
                      f"DLPack), got {type(x).__name__}")


def from_dlpack(name: str, x) -> Operand:
    capsule = x.__dlpack__()
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    try:
        addr = get(capsule, b"dltensor")
    except ValueError:
        raise LaunchError(f"{name}: __dlpack__ did not return a 'dltensor' capsule") from None
    t = _DLTensor.from_address(addr)
    ndim = t.ndim
    shape = tuple(t.shape[i] for i in range(ndim))
    strides = tuple(t.strides[i] for i in range(ndim)) if t.strides else None
    code, bits, lanes = t.dtype.code, t.dtype.bits, t.dtype.lanes
    if code == _DL_FLOAT and lanes == 1:
        dt = f"f{bits}"
    elif code == _DL_BFLOAT and bits == 16 and lanes == 1:
        dt = "bf16"
    elif code == _DL_INT and bits in (8, 32) and lanes == 1:
        dt = f"i{bits}"
    else:
        dt = f"dlpack(code={code}, bits={bits}, lanes={lanes})"
    # the capsule keeps the producer's tensor alive; it is released when the operand is dropped
    return Operand(name, x, shape, dt, ptr=(t.data or 0) + t.byte_offset, strides=strides, keep=(x, capsule))


def contiguous_strides(shape) -> tuple[int, ...]:
    out, acc = [], 1
    for s in reversed(shape):
        out.append(acc)
        acc *= s
    return tuple(reversed(out))


def same_strides(strides, want, shape) -> bool:
    """Element strides equal `want` (None = C-contiguous); dimensions of size 1 may have any stride."""
    if strides is None:
        strides = contiguous_strides(shape)
    return all(s == w or n == 1 for s, w, n in zip(strides, want, shape))



def ptr_align(ptr: int) -> int:
    """The largest power of two up to 16 dividing a device address (16 for host data: its device
    copy is freshly allocated)."""
    a = 16
    while a > 1 and ptr % a:
        a //= 2
    return a



def check_device_pointer(cuda, op: Operand) -> None:
    """The pointer is device memory of device 0 (the context lasscc launches in)."""
    try:
        cu = cuda._driver()
        attr = cu.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
        err, ordinal = cu.cuPointerGetAttribute(attr, op.ptr)
    except Exception:  # noqa: BLE001 -- bindings without this query: the launch reports bad pointers
        return
    if err != cu.CUresult.CUDA_SUCCESS:
        raise LaunchError(f"{op.name}: 0x{op.ptr:x} is not CUDA device memory ({cuda.error_name(err)})")
    if int(ordinal) != 0:
        raise LaunchError(f"{op.name}: on CUDA device {int(ordinal)}; lasscc runs on device 0 (select the GPU with "
                          "CUDA_VISIBLE_DEVICES)")


def wait_stream(cuda, op: Operand) -> None:
    """__cuda_array_interface__ v3: work on the producer's stream must finish before we read the data.

    1 (legacy default) and 2 (per-thread default) and None need nothing from a launch on the legacy
    default stream; any other stream is synchronized."""
    s = op.stream
    if s is None or s in (0, 1, 2):
        return
    cu = cuda._driver()
    cuda._call("cuStreamSynchronize", cu.CUstream(int(s)))
