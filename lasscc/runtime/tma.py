"""TMA tensor maps on the host: what a `!lass_nv.tensor_map` kernel parameter describes, and the
128 bytes the driver builds for it (`cuTensorMapEncodeTiled`, NVIDIA cuda-bindings).

    spec = TensorMapSpec.of_matrix("f16", rows=M, cols=K, box_rows=64, box_cols=64, swizzle="128b")
    param = encode(spec, device_address)            # GPU: a 64-byte aligned 128-byte kernel param
    HostTensorMap(spec, a)                          # CPU executor: the spec and the numpy matrix

One description (`TensorMapSpec`: element type, the global 2-D matrix, the box, the swizzle) serves
both: `encode_args` turns it into cuTensorMapEncodeTiled's arguments as plain numbers (checked on
the CPU), `encode` makes the driver call (cuda-bindings imported lazily: importing lasscc never
needs CUDA), and the CPU executor lands boxes with `lasscc.sm90_layout.tma_box_bytes` under the
same `SwizzleMode`.  Dimension order is the driver's: dims[0] is the inner (contiguous) one.

The kernel side (`lass_nv.tensor_map<ROWSxCOLSxT, swizzle_S>`) names the box as rows x cols (outer
x inner) like a memref shape; `TensorMapSpec.for_type` reads it.  A batched kernel's map is 3-d
(`<1xROWSxCOLSxT, ...>`): `batch` matrices one after the other, the batch the outermost dimension
and the box one matrix deep, so TMA zero-fills past a matrix's edge instead of reading the next one.

`operand_map` is the one rule for the map of a GEMM kernel's operand (its A or B in the kernel's
order: the caller's B and A for a column-major D), used by the GPU runner and the CPU executor.
"""

from __future__ import annotations

import ctypes
import dataclasses
from dataclasses import dataclass

import numpy as np

from lasscc.diagnostics import LassError
from lasscc.layout import MN_MAJOR
from lasscc.sm90_layout import TMA_BATCH_BOX_DEPTH, TMA_GLOBAL_ALIGN, SwizzleMode, tma_box_error, tma_global_error

TENSOR_MAP_BYTES = 128  # sizeof(CUtensorMap)
TMA_DIM_MAX = 1 << 32  # cuTensorMapEncodeTiled: every global dimension in 1..2**32
TENSOR_MAP_ALIGN = 64  # CUtensorMap is alignas(64) (cuda.h); the kernel's .param is .align 64
# The IR spelling of the swizzle modes (lass_nv.TMA_SWIZZLES) -> the one SwizzleMode of sm90_layout
SWIZZLES = {m.label.lower(): m for m in SwizzleMode}
# CUtensorMapDataType of lasscc's element types (cuda.h: UINT8 0, FLOAT16 6, FLOAT32 7, BFLOAT16 9,
# TFLOAT32 12): i8 is moved as bytes (UINT8: the TMA does not convert), f32 operands of a tf32 GEMM
# as FLOAT32 (the wgmma reads their top 19 bits)
DATA_TYPES = {"f16": "CU_TENSOR_MAP_DATA_TYPE_FLOAT16", "bf16": "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16",
              "f32": "CU_TENSOR_MAP_DATA_TYPE_FLOAT32", "i8": "CU_TENSOR_MAP_DATA_TYPE_UINT8",
              "i32": "CU_TENSOR_MAP_DATA_TYPE_INT32"}  # i32: an s8 GEMM's D (the TMA-store epilogue)
ELEM_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1, "i32": 4}
SWIZZLE_ENUMS = {SwizzleMode.NONE: "CU_TENSOR_MAP_SWIZZLE_NONE", SwizzleMode.B32: "CU_TENSOR_MAP_SWIZZLE_32B",
                 SwizzleMode.B64: "CU_TENSOR_MAP_SWIZZLE_64B", SwizzleMode.B128: "CU_TENSOR_MAP_SWIZZLE_128B"}
# L2 promotion of a box's lines: 128 B, the TMA's usual choice for GEMM operands (CUTLASS uses
# L2_128B for its operand maps); out-of-bounds elements are filled with zeros (FLOAT_OOB_FILL_NONE:
# NaN fill is the other option), which is what lets any M, N, K run without predicates.
L2_PROMOTION = "CU_TENSOR_MAP_L2_PROMOTION_L2_128B"
OOB_FILL = "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE"
INTERLEAVE = "CU_TENSOR_MAP_INTERLEAVE_NONE"


def swizzle_mode(name: str) -> SwizzleMode:
    """The SwizzleMode of the IR name ("none", "32b", "64b", "128b")."""
    try:
        return SWIZZLES[name]
    except KeyError:
        raise LassError(f"expected a swizzle mode of {', '.join(SWIZZLES)}, got '{name}'") from None


@dataclass(frozen=True)
class TensorMapSpec:
    """A 2-D tiled tensor map: `rows` lines of `cols` elements of `dtype`, lines `row_stride`
    bytes apart in global memory, boxes of box_rows x box_cols elements (outer x inner), landed in
    shared memory under `swizzle` ("none", "32b", "64b", "128b").  `batch` (not None): a 3-D map
    of `batch` such matrices packed one after the other (rows * row_stride bytes apart), boxes
    one matrix deep (sm90_layout.TMA_BATCH_BOX_DEPTH)."""

    dtype: str
    rows: int
    cols: int
    row_stride: int
    box_rows: int
    box_cols: int
    swizzle: str
    batch: int | None = None

    @classmethod
    def of_matrix(cls, dtype: str, rows: int, cols: int, box_rows: int, box_cols: int, swizzle: str,
                  row_stride: int | None = None) -> "TensorMapSpec":
        """A map of a densely stored row-major rows x cols matrix (row_stride = cols * element bytes)."""
        if dtype not in ELEM_BYTES:
            raise LassError(f"expected a tensor-map element type of {', '.join(ELEM_BYTES)}, got '{dtype}'")
        stride = cols * ELEM_BYTES[dtype] if row_stride is None else row_stride
        return cls(dtype, rows, cols, stride, box_rows, box_cols, swizzle)

    @classmethod
    def for_type(cls, tmap_type, rows: int, cols: int, row_stride: int | None = None,
                 batch: int | None = None) -> "TensorMapSpec":
        """The map a `!lass_nv.tensor_map` parameter of this box and swizzle needs over a rows x cols
        matrix (a batched parameter: over `batch` of them)."""
        box_rows, box_cols = tmap_type.box
        spec = cls.of_matrix(tmap_type.element_name, rows, cols, box_rows, box_cols, tmap_type.swizzle_mode, row_stride)
        if tmap_type.batched:
            return dataclasses.replace(spec, batch=1 if batch is None else batch)
        return spec

    @property
    def rank(self) -> int:
        return 2 if self.batch is None else 3

    @property
    def shape(self) -> tuple[int, ...]:
        """The global tensor as a row-major numpy shape: (rows, cols) or (batch, rows, cols)."""
        return (self.rows, self.cols) if self.batch is None else (self.batch, self.rows, self.cols)

    @property
    def elem_bytes(self) -> int:
        return ELEM_BYTES[self.dtype]

    @property
    def mode(self) -> SwizzleMode:
        return swizzle_mode(self.swizzle)

    @property
    def box(self) -> tuple[int, int]:
        """(inner, outer): sm90_layout's / the driver's order."""
        return (self.box_cols, self.box_rows)

    @property
    def box_bytes(self) -> int:
        """Bytes one box writes to shared memory (out-of-bounds parts included: zero-filled), i.e.
        the transaction bytes it completes on its mbarrier."""
        return self.box_rows * self.box_cols * self.elem_bytes

    def error(self, address: int = 0) -> str | None:
        """Why cuTensorMapEncodeTiled would refuse this map at global `address`, or None."""
        if self.dtype not in ELEM_BYTES:
            return f"element type '{self.dtype}' is not one of {', '.join(ELEM_BYTES)}"
        if self.swizzle not in SWIZZLES:
            return f"swizzle '{self.swizzle}' is not one of {', '.join(SWIZZLES)}"
        if self.batch is not None and not 1 <= self.batch <= TMA_DIM_MAX:
            return f"the batch dimension is {self.batch}: it must be in 1..{TMA_DIM_MAX}"
        return (tma_global_error((self.cols, self.rows), self.row_stride, self.elem_bytes, address)
                or tma_box_error(self.box, self.elem_bytes, self.mode))

    def check(self, what: str, address: int = 0) -> None:
        """LassError naming `what` (e.g. "tensor map of A") when error() has a reason."""
        err = self.error(address)
        if err:
            raise LassError(f"{what}: cannot build the TMA tensor map: {err}")

    def encode_args(self, address: int) -> dict:
        """cuTensorMapEncodeTiled's arguments as plain values (enum members by name), in its order."""
        batch = [] if self.batch is None else [self.batch]
        return {
            "tensorDataType": DATA_TYPES[self.dtype],
            "tensorRank": self.rank,
            "globalAddress": int(address),
            "globalDim": [self.cols, self.rows] + batch,
            # rank - 1 strides, in bytes; dims[0] is contiguous; the batches are packed
            "globalStrides": [self.row_stride] + ([self.rows * self.row_stride] if batch else []),
            "boxDim": [self.box_cols, self.box_rows] + ([TMA_BATCH_BOX_DEPTH] if batch else []),
            "elementStrides": [1] * self.rank,
            "interleave": INTERLEAVE,
            "swizzle": SWIZZLE_ENUMS[self.mode],
            "l2Promotion": L2_PROMOTION,
            "oobFill": OOB_FILL,
        }


def operand_map(dtype: str, rows: int, k: int, box_rows: int, box_cols: int, swizzle: str, major: str,
                batch: int | None = None) -> TensorMapSpec:
    """The tensor map of a GEMM kernel's operand (its A: rows = M, or B: rows = N; in the kernel's
    order, so the caller's B and A for a column-major D) stored as the kernel reads it: K-major
    ("k") rows lines of K elements, MN-major ("mn") K lines of rows elements, densely; the box and
    swizzle of KernelSpec.tensor_maps (lasscc.passes.hopper_smem.kernel_tensor_maps); `batch`
    (a batched kernel): 3-D over the packed batch."""
    lines, width = (k, rows) if major == MN_MAJOR else (rows, k)
    spec = TensorMapSpec.of_matrix(dtype, lines, width, box_rows, box_cols, swizzle)
    return spec if batch is None else dataclasses.replace(spec, batch=batch)


def store_map(dtype: str, rows: int, cols: int, box_rows: int, box_cols: int, swizzle: str,
              batch: int | None = None, address: int = 0) -> tuple[TensorMapSpec, bool]:
    """(map, usable) of the kernel's D (rows = M, cols = N, row-major; the box and swizzle of its
    KernelSpec.tensor_maps entry) for the TMA-store epilogue (config epilogue = "tma").  A D no map
    can describe at `address` (rows not a multiple of 16 bytes apart, an address not 16-byte
    aligned: `TensorMapSpec.error`) gets a placeholder map of one box (usable False): the kernel
    tests the same two conditions and stores such a D directly (passes/tma_store.py), never through
    the map."""
    spec = operand_map(dtype, rows, cols, box_rows, box_cols, swizzle, "k", batch)
    if spec.error(address) is None:
        return spec, True
    ph = TensorMapSpec.of_matrix(dtype, box_rows, box_cols, box_rows, box_cols, swizzle)
    return (ph if batch is None else dataclasses.replace(ph, batch=1)), False


class TensorMapParam:
    """The 128 opaque bytes of a CUtensorMap, held 64-byte aligned for cuLaunchKernel (the driver
    copies a kernel parameter from the address its kernelParams entry gives).  `as_kernel_param()`
    is the ctypes object lasscc.runtime.cuda packs."""

    def __init__(self, raw: bytes):
        if len(raw) != TENSOR_MAP_BYTES:
            raise LassError(f"expected a {TENSOR_MAP_BYTES}-byte tensor map, got {len(raw)} bytes")
        self._buf = ctypes.create_string_buffer(TENSOR_MAP_BYTES + TENSOR_MAP_ALIGN)
        pad = (-ctypes.addressof(self._buf)) % TENSOR_MAP_ALIGN
        self._view = (ctypes.c_uint8 * TENSOR_MAP_BYTES).from_buffer(self._buf, pad)
        ctypes.memmove(self._view, raw, TENSOR_MAP_BYTES)

    @property
    def address(self) -> int:
        return ctypes.addressof(self._view)

    @property
    def raw(self) -> bytes:
        return bytes(self._view)

    def as_kernel_param(self):
        return self._view


def encode(spec: TensorMapSpec, address: int, what: str = "tensor map") -> TensorMapParam:
    """cuTensorMapEncodeTiled for `spec` over device memory at `address` (GPU only)."""
    from lasscc.runtime.cuda import _call, _driver

    spec.check(what, address)
    cu = _driver()
    args = spec.encode_args(address)
    enum = lambda cls, name: getattr(getattr(cu, cls), name)  # noqa: E731
    tmap = _call(
        "cuTensorMapEncodeTiled",
        enum("CUtensorMapDataType", args["tensorDataType"]), args["tensorRank"], args["globalAddress"],
        [cu.cuuint64_t(x) for x in args["globalDim"]], [cu.cuuint64_t(x) for x in args["globalStrides"]],
        [cu.cuuint32_t(x) for x in args["boxDim"]], [cu.cuuint32_t(x) for x in args["elementStrides"]],
        enum("CUtensorMapInterleave", args["interleave"]), enum("CUtensorMapSwizzle", args["swizzle"]),
        enum("CUtensorMapL2promotion", args["l2Promotion"]), enum("CUtensorMapFloatOOBfill", args["oobFill"]),
        what=f"cuTensorMapEncodeTiled ({what}: {spec})",
    )
    return TensorMapParam(_tensor_map_bytes(tmap))


def _tensor_map_bytes(tmap) -> bytes:
    """The 128 bytes of a cuda-bindings CUtensorMap: read at its address (getPtr), else from its
    `opaque` list of 16 cuuint64_t."""
    get_ptr = getattr(tmap, "getPtr", None)
    if get_ptr is not None:
        return ctypes.string_at(int(get_ptr()), TENSOR_MAP_BYTES)
    words = [int(getattr(w, "value", w)) if not isinstance(w, int) else w for w in tmap.opaque]
    return np.array(words, dtype="<u8").tobytes()


@dataclass(frozen=True)
class HostTensorMap:
    """A tensor map as the CPU executor takes it: the spec and the global tensor it describes
    (a rows x cols numpy array of the spec's type, bf16 as uint16 bit patterns, i8 as int8; batch
    x rows x cols for a 3-D map)."""

    spec: TensorMapSpec
    array: np.ndarray

    def __post_init__(self):
        a = self.array
        if a.shape != self.spec.shape:
            raise LassError(f"expected a {' x '.join(map(str, self.spec.shape))} array for the tensor map, got shape "
                            f"{a.shape}")
        if a.dtype.itemsize != self.spec.elem_bytes:
            raise LassError(f"expected {self.spec.elem_bytes}-byte elements ({self.spec.dtype}), got {a.dtype}")
        self.spec.check("tensor map")


def kernel_tensor_maps(spec, batch: int = 1):
    """KernelSpec.param_values' tensor_map callback: lasscc.runtime.tma.operand_map of the kernel's
    operand (its order and majors: KernelSpec.tensor_maps), over all `batch` matrices for a batched
    kernel, encoded by cuTensorMapEncodeTiled; the operand is a DeviceBuffer or a device address.
    The runner, lasscc.api and lasscc.batched_call launch wgmma kernels through it."""

    def build(operand, buf, rows, k, box_rows, box_cols, swizzle, major):
        address = int(getattr(buf, "ptr", buf))  # a DeviceBuffer, or a device address (the API's)
        if operand == "D":  # the TMA-store epilogue: rows x k is M x N; a placeholder the kernel never uses
            tspec, usable = store_map(spec.d_dtype, rows, k, box_rows, box_cols, swizzle,
                                      batch if spec.batched else None, address)
            address = address if usable else address & ~(TMA_GLOBAL_ALIGN - 1)
        else:
            tspec = operand_map(spec.a_dtype, rows, k, box_rows, box_cols, swizzle, major,
                                batch if spec.batched else None)
        return encode(tspec, address, what=f"kernel '{spec.name}': tensor map of its {operand}")

    return build
