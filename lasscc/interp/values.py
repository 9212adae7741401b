"""How the executor represents IR values, and the integer/float helpers the op handlers share.

A value is either *uniform* (the same for every thread: a Python int / bool, or a numpy float
scalar of the IR type's precision) or *per lane*: a numpy array whose first axis runs over the
lanes of the batch (threads of the batch's blocks at the per-thread levels, blocks at the block
level).  Integers of every width are kept as their signed value in Python ints or int64 arrays and
wrapped to the IR width after every op (i1 is bool); f16 / f32 / f64 are numpy float16 / float32 /
float64; bf16 (no numpy dtype) is its bit pattern in a numpy uint16, in SSA values and in memory
alike (lasscc.interp.bf16 converts exactly).  Non-numeric values: `GlobalBuffer` (a memref kernel
argument), `RingInfo` (a shared-memory ring), and tile / accumulator / staged arrays `[lanes, ...]`
at the block level.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
)

from lasscc.interp.bf16 import BF16, bf16_to_f32, to_bf16
from lasscc.interp.errors import UnsupportedError


@dataclass
class GlobalBuffer:
    """A global-memory kernel argument: a flat element array with its logical row-major shape."""

    role: str  # "A", "B" or "D"
    array: np.ndarray  # flat, contiguous view of the caller's array
    rows: int  # logical rows: M for A, N for B (stored N x K), M for D
    cols: int  # K for A and B, N for D
    mlir_type: MemRefType
    batch: int = 1  # matrices packed one after the other (a 3-d, batch-first memref)
    offset: int = 0  # a lass_tb.batch_view: element offset of `array` in the kernel argument
    whole: int | None = None  # a batch_view: elements of the whole kernel argument
    mn_major: bool = False  # stored cols x rows (column-major A, row-major B): (r, c) at c * rows + r

    @property
    def where(self) -> str:
        """How messages name the buffer: the kernel argument, or a batch view of it."""
        if not self.offset and self.whole is None:
            return self.role
        return f"{self.role} (a batch view at element {self.offset} of its {self.whole} elements)"

    @property
    def dtype(self):
        return self.array.dtype


@dataclass
class RingInfo:
    """A `lass_pipe.ring`: `stages` tiles of rows x bk elements at byte `offset`, K- or MN-major."""

    offset: int
    stages: int
    rows: int
    bk: int
    esize: int
    opid: int
    dtype: np.dtype | None = None  # storage dtype of the elements (uint16 = bf16); None: by esize
    major: str = "k"  # "mn": MN-major tiles (lasscc.layout.tile_offset)

    def offsets(self, r, k):
        """Unswizzled byte offsets within a slot of elements (r, k) (lasscc.layout.tile_offset)."""
        from lasscc.layout import tile_offset

        return tile_offset(r, k, self.rows, self.bk, self.esize, self.major, swizzled=False)

    @property
    def tile_bytes(self) -> int:
        return self.rows * self.bk * self.esize


def int_width(t) -> int | None:
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, IndexType):
        return 64
    return None


def is_bf16_type(t) -> bool:
    return isinstance(t, BFloat16Type)


def float_dtype(t):
    """numpy dtype of an f16 / f32 / f64 type; None otherwise (bf16 included: see float_codec)."""
    if isinstance(t, Float16Type):
        return np.float16
    if isinstance(t, Float32Type):
        return np.float32
    if isinstance(t, Float64Type):
        return np.float64
    return None


def _cast_to(fd):
    def enc(x):
        return np.asarray(x).astype(fd) if isinstance(x, np.ndarray) and x.ndim else fd(x)

    return enc


def float_codec(t):
    """(encode, decode, compute dtype) of a float type, or None for other types.

    encode: computed float values (numpy arrays or scalars of any float precision) -> the
    executor's representation of the type (correctly rounded); decode: representation -> numpy
    float values to compute with.  f16 / f32 / f64: a cast and the identity; bf16: rounding to
    uint16 bit patterns and their exact float32 values (bf16 arithmetic then runs in float32 and
    is rounded once: correctly rounded for + - * / of 8-bit significands, as 24 >= 2*8 + 2)."""
    if isinstance(t, BFloat16Type):
        return to_bf16, bf16_to_f32, np.float32
    fd = float_dtype(t)
    if fd is None:
        return None
    return _cast_to(fd), (lambda x: x), fd


def numpy_dtype(t, what: str = "type"):
    """numpy dtype of memory holding elements of type t (bf16: its uint16 bit patterns)."""
    if isinstance(t, BFloat16Type):
        return BF16
    fd = float_dtype(t)
    if fd is not None:
        return np.dtype(fd)
    w = int_width(t)
    if w in (8, 16, 32, 64):
        return np.dtype(f"int{w}")
    raise UnsupportedError(f"unsupported {what} {t}")


def wrap(x, width: int):
    """The signed `width`-bit value of integer x (Python int or int64 array); i1 gives bool."""
    if width == 1:
        if isinstance(x, np.ndarray):
            return (x & 1).astype(bool) if x.dtype != bool else x
        return bool(int(x) & 1)
    if width >= 64:
        if isinstance(x, np.ndarray):
            return x.astype(np.int64, copy=False)
        x = int(x)
        return ((x + (1 << 63)) & ((1 << 64) - 1)) - (1 << 63)
    half = 1 << (width - 1)
    mask = (1 << width) - 1
    if isinstance(x, np.ndarray):
        if x.dtype == bool or x.dtype.itemsize < 8:  # e.g. an int32 array loaded from an i32 D
            x = x.astype(np.int64)
        return ((x + half) & mask) - half
    x = int(x)
    return ((x + half) & mask) - half


def unsigned(x, width: int):
    """The unsigned value of a signed `width`-bit integer."""
    if width == 1:
        return x.astype(np.int64) if isinstance(x, np.ndarray) else int(bool(x))
    if isinstance(x, np.ndarray):
        if x.dtype == bool:
            x = x.astype(np.int64)
        if width >= 64:
            return x.astype(np.uint64)
        return x & ((1 << width) - 1)
    return int(x) & ((1 << width) - 1)


def is_lanes(v) -> bool:
    return isinstance(v, np.ndarray) and v.ndim >= 1


# ---- f16x2 packing (i32 registers holding two f16 bit patterns) --------------------------------
def i32_from_bytes(b: np.ndarray) -> np.ndarray:
    """[..., 4] uint8 (little endian) -> int64 signed i32 values [...]."""
    b = np.ascontiguousarray(b, np.uint8)
    return b.view("<i4")[..., 0].astype(np.int64)


def bytes_from_i32(v: np.ndarray) -> np.ndarray:
    """int values (signed or unsigned i32) [...] -> [..., 4] uint8."""
    v = np.asarray(v).astype(np.int64) & 0xFFFFFFFF
    return np.ascontiguousarray(v.astype("<u4")[..., None]).view(np.uint8)


def f16_pair_to_i32(lo, hi) -> np.ndarray:
    """Pack two f16 arrays into signed i32 (low half = lo)."""
    lo16 = np.asarray(lo, np.float16).view(np.uint16).astype(np.int64)
    hi16 = np.asarray(hi, np.float16).view(np.uint16).astype(np.int64)
    return wrap(lo16 | (hi16 << 16), 32)


def i32_to_f16_pair(v):
    """(lo, hi) f16 arrays of i32 registers."""
    u = np.asarray(v).astype(np.int64) & 0xFFFFFFFF
    lo = (u & 0xFFFF).astype(np.uint16).view(np.float16)
    hi = (u >> 16).astype(np.uint16).view(np.float16)
    return lo, hi


def host_tensor_map(prog, tmap_type, buf):
    """The HostTensorMap of a `!lass_nv.tensor_map` parameter of a wgmma kernel over its operand
    buffer `buf` (the kernel's A or B: rows x K stored K-major, or K x rows MN-major; all its
    batches for a batched map), built by lasscc.runtime.tma.operand_map as the GPU launcher does."""
    from lasscc.interp.errors import KernelArgumentError
    from lasscc.runtime.tma import HostTensorMap, operand_map

    if buf is None or (buf.batch != 1 and not tmap_type.batched):
        raise KernelArgumentError(f"kernel @{prog.name}: a 2-d tensor map needs a non-batched A, B or D operand")
    box_rows, box_cols = tmap_type.box
    if buf.role == "D":  # the TMA-store epilogue's map (a placeholder where the kernel stores D directly)
        from lasscc.runtime.tma import store_map

        spec, usable = store_map(tmap_type.element_name, buf.rows, buf.cols, box_rows, box_cols,
                                 tmap_type.swizzle_mode, buf.batch if tmap_type.batched else None,
                                 buf.offset * buf.array.dtype.itemsize)
        n = buf.batch * buf.rows * buf.cols if tmap_type.batched else buf.rows * buf.cols
        return HostTensorMap(spec, buf.array[:n].reshape(spec.shape) if usable else np.zeros(spec.shape, buf.array.dtype))
    spec = operand_map(tmap_type.element_name, buf.rows, buf.cols, box_rows, box_cols, tmap_type.swizzle_mode,
                       "mn" if buf.mn_major else "k", buf.batch if tmap_type.batched else None)
    return HostTensorMap(spec, buf.array[:buf.batch * buf.rows * buf.cols].reshape(spec.shape)
                         if tmap_type.batched else buf.array[:buf.rows * buf.cols].reshape(spec.shape))
