"""Hopper (sm_90a) layouts: the swizzle modes, TMA box placement, wgmma matrix descriptors and fragments.

One formula per fact, shared by the passes (on `lasscc.ir_math.Idx` where they emit IR), the CPU
executor and the tests, like lasscc.layout:

* `swizzle(addr, mode)`: the 128B / 64B / 32B swizzle of a shared-memory byte address.  The TMA
  writes a box through it (`tma_box_bytes`) and wgmma reads through it (`read_operand`): the tensor
  map's swizzle and the descriptor's swizzle mode are one `SwizzleMode`, so they cannot disagree.
* `tile_offset` / `tile_descriptor`: where the TMA lands an operand tile (K-major or MN-major) and
  the descriptor that makes wgmma read a 64 x K (A) or N x K (B) slice of it.
* `read_operand`: what wgmma reads through a descriptor, decoded field by field by the ISA's
  core-matrix rules (not by inverting `tile_descriptor`), so a wrong start address, LBO, SBO or
  swizzle mode reads a different matrix.
* `acc_coord` / `a_frag_coord`: the wgmma register fragments (accumulator, A from registers).
* `WGMMA_TYPES`: shapes and operand rules as data.

Sources (the PTX ISA decides where they differ):
  PTX ISA 9.7.15.5.1.2 "Shared Memory Matrix Layout" (swizzle atoms: 8 lines of 128/64/32 B, or
    8 x 16 B core matrices without swizzle; imm-trans 0 = K-major, 1 = MN-major), 9.7.15.5.1.2.2
    "Matrix Descriptor Format" (bit fields, matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4, base
    offset 0 when the swizzle pattern starts on a 1024 / 512 / 256-byte boundary), the tcgen05
    "Leading Dimension Stride" table (LBO: K-major no-swizzle = stride between the two K core
    matrices, K-major swizzled = unused, "assumed to be 1"; MN-major interleave = stride between
    8-column (8 K) groups, MN-major swizzled = stride between swizzle atoms along MN), wgmma
    "Register Fragments" figures for m64nNk16 / k8 / k32, and the instruction's shape lists.
  CUTLASS include/cute/atom/mma_traits_sm90_gmma.hpp: make_gmma_desc and the canonical GMMA layouts
    in its comments (K-major SW128 ((8,m),(T,2)):((8T,SBO),(1,T)); MN-major SW128
    ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO)); MN-major INTERLEAVE swaps the roles: SBO along MN, LBO
    along K), Layout_{K,MN}_SW{32,64,128}_Atom (Swizzle<1|2|3,4,3> on 8 x 256/512/1024-bit lines),
    CLayout_64xN and ALayout_64x8 / 64x16 / 64x32; include/cute/arch/mma_sm90_desc.hpp
    (GmmaDescriptor bit fields, LayoutType B128 = 1, B64 = 2, B32 = 3).
  CUDA driver API cuTensorMapEncodeTiled: box dims 1..256, inner box bytes a multiple of 16 and at
    most the swizzle span for a swizzled map, out-of-bounds elements filled with zeros.
  ptxas 13.0 (sm_90a), checked here: integer wgmma accepts N = 8, 16, 24 and 32..256 step 16
    (m64n240k32 / m64n256k32 assemble, m64n40k32 / m64n248k32 are "Illegal matrix shape").

Not modelled (say so rather than guess): a descriptor base offset other than 0 (`read_operand`
rejects it; lasscc aligns every swizzled tile to its pattern, so it never needs one), and a TMA
box narrower than the swizzle span (allowed by the driver; lasscc always fills the span, and we
pack such rows densely under the same address-bit swizzle, which we have not checked on hardware).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from lasscc import layout as L
from lasscc.lazy import lazy_module

np = lazy_module("numpy")  # the CPU executor's helpers use it; the compile path does not

# ---- hardware numbers -------------------------------------------------------------------------
CHUNK_BYTES = 16  # a swizzle moves 16-byte chunks whole; also the descriptor fields' unit (4 LSBs dropped)
CORE_ROWS = 8  # a core matrix / swizzle atom is 8 lines (PTX ISA "Shared Memory Matrix Layout")
CORE_MATRIX_BYTES = CORE_ROWS * CHUNK_BYTES  # 8 rows x 16 bytes
SWIZZLE_BASE, SWIZZLE_SHIFT = 4, 3  # Swizzle<B, 4, 3>: chunk bits [4, 4+B) ^= line bits [7, 7+B)
DESC_ADDR_MASK = 0x3FFFF  # matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4: 18-bit byte addresses
DESC_FIELD_BITS = 14  # start address, LBO and SBO fields, in 16-byte units
DESC_LBO_SHIFT, DESC_SBO_SHIFT = 16, 32  # bits 16-29 and 32-45
DESC_BASE_OFFSET_SHIFT, DESC_BASE_OFFSET_BITS = 49, 3  # bits 49-51
DESC_SWIZZLE_SHIFT = 62  # bits 62-63
TMA_BOX_MAX = 256  # cuTensorMapEncodeTiled: every box dimension in 1..256
TMA_INNER_BYTES_MULTIPLE = 16  # ... and the inner box dimension a multiple of 16 bytes
# A batched operand's tensor map (3-d, batch outermost) loads one matrix per box, so the zero fill
# past M / N / K stays inside the batch (a 2-d map over [batch * rows] would read the next batch)
TMA_BATCH_BOX_DEPTH = 1
TMA_GLOBAL_ALIGN = 16  # cuTensorMapEncodeTiled: the global address and line strides are multiples of 16 bytes
TMA_SMEM_ALIGN = 128  # cp.async.bulk.tensor's shared-memory destination: 128-byte aligned (CUDA guide, TMA)
WARPGROUP_THREADS = 128  # wgmma is issued by 4 warps
WGMMA_M = 64  # every wgmma shape is m64nNkK
WGMMA_K_BYTES = 32  # K of every dense wgmma is 32 bytes: k16 x 2 B, k8 x 4 B (tf32), k32 x 1 B


class SwizzleMode(IntEnum):
    """A swizzle mode, valued by the wgmma descriptor's encoding (bits 62-63).  The TMA tensor map's
    CUtensorMapSwizzle numbers them differently (NONE 0, 32B 1, 64B 2, 128B 3): `tensor_map_enum`."""

    NONE = 0
    B128 = 1
    B64 = 2
    B32 = 3

    @property
    def bits(self) -> int:
        """B of Swizzle<B, 4, 3>: log2 of the 16-byte chunks a line's swizzle permutes."""
        return {SwizzleMode.NONE: 0, SwizzleMode.B32: 1, SwizzleMode.B64: 2, SwizzleMode.B128: 3}[self]

    @property
    def width_bytes(self) -> int:
        """Bytes of one line of the swizzle atom: 128 / 64 / 32, and 16 (one core-matrix row) for NONE."""
        return CHUNK_BYTES << self.bits

    @property
    def atom_bytes(self) -> int:
        """Bytes of one swizzle atom (8 lines): the period of the pattern, 1024 / 512 / 256 (128 for NONE)."""
        return CORE_ROWS * self.width_bytes

    @property
    def tensor_map_enum(self) -> int:
        """The CUtensorMapSwizzle value for cuTensorMapEncodeTiled."""
        return self.bits

    @property
    def label(self) -> str:
        return "none" if self is SwizzleMode.NONE else f"{self.width_bytes}B"


def swizzle(addr, mode: SwizzleMode):
    """Physical shared-memory byte address of logical byte address `addr` (int, numpy array or Idx)
    under `mode`: CuTe's Swizzle<B,4,3> (B = 3 / 2 / 1 for 128B / 64B / 32B, identity for NONE): the
    16-byte chunk bits [4, 4+B) are XORed with the line bits [7, 7+B).  It acts on address bits, so
    a tile aligned to `mode.atom_bytes` (the PTX ISA's pattern boundary) is swizzled relative to its
    own start.  The one formula behind TMA placement (`tma_box_bytes`) and wgmma reads (`read_operand`)."""
    bits = SwizzleMode(mode).bits
    if not bits:  # NONE: emit nothing for an Idx
        return addr
    return L.swizzle(addr, bits, SWIZZLE_BASE, SWIZZLE_SHIFT)


# ---- TMA --------------------------------------------------------------------------------------
def tma_box_error(box, elem_bytes: int, mode: SwizzleMode) -> str | None:
    """Why a 2-D box (box[0] elements innermost, box[1] lines) cannot be a TMA box of a tensor map
    with `mode`, or None (cuTensorMapEncodeTiled's rules)."""
    mode = SwizzleMode(mode)
    if len(box) != 2:
        return f"a 2-D box has 2 dimensions, got {len(box)}"
    for d, b in enumerate(box):
        if not 1 <= b <= TMA_BOX_MAX:
            return f"box dimension {d} is {b}: it must be in 1..{TMA_BOX_MAX}"
    inner = box[0] * elem_bytes
    if inner % TMA_INNER_BYTES_MULTIPLE:
        return f"the inner box dimension is {inner} bytes: it must be a multiple of {TMA_INNER_BYTES_MULTIPLE}"
    if mode is not SwizzleMode.NONE and inner > mode.width_bytes:
        return (f"the inner box dimension is {inner} bytes: with the {mode.label} swizzle it must be at most "
                f"{mode.width_bytes} bytes (use several boxes)")
    return None


def tma_smem_align(mode: SwizzleMode) -> int:
    """Alignment lasscc requires of a TMA box's shared-memory destination: the swizzle pattern's period
    (1024 / 512 / 256 B), so the box's swizzle starts with the pattern and a descriptor with base
    offset 0 reads it (PTX ISA matrix-descriptor table); 128 B (the bulk copy's own rule) for NONE."""
    mode = SwizzleMode(mode)
    return TMA_SMEM_ALIGN if mode is SwizzleMode.NONE else max(TMA_SMEM_ALIGN, mode.atom_bytes)


def tma_smem_align_error(smem_addr: int, mode: SwizzleMode) -> str | None:
    """Why `smem_addr` cannot be the destination of a TMA box with `mode`, or None."""
    a = tma_smem_align(mode)
    if smem_addr % a:
        return (f"shared-memory destination {smem_addr:#x} of a {SwizzleMode(mode).label}-swizzled TMA box "
                f"is not {a}-byte aligned")
    return None


def tma_global_error(dims, row_stride_bytes: int, elem_bytes: int, base_addr: int = 0) -> str | None:
    """Why a 2-D global tensor (dims[0] innermost elements, dims[1] lines `row_stride_bytes` apart,
    starting at `base_addr`) cannot be described by a tensor map, or None (cuTensorMapEncodeTiled:
    address 16-byte aligned, strides multiples of 16 below 2**40, dims in 1..2**32)."""
    if base_addr % 16:
        return f"global address {base_addr:#x} is not 16-byte aligned"
    for d, n in enumerate(dims):
        if not 1 <= n <= 1 << 32:
            return f"global dimension {d} is {n}: it must be in 1..2**32"
    if row_stride_bytes % 16 or not 0 < row_stride_bytes < 1 << 40:
        return f"the line stride is {row_stride_bytes} bytes: it must be a positive multiple of 16 below 2**40"
    if row_stride_bytes < dims[0] * elem_bytes:
        return f"the line stride {row_stride_bytes} B is less than a line ({dims[0]} x {elem_bytes} B)"
    return None


def tma_box_bytes(global_tensor: np.ndarray, coords, box, mode: SwizzleMode) -> np.ndarray:
    """The bytes (uint8, box[1] * box[0] * itemsize of them) a `cp.async.bulk.tensor.2d` load of the
    box at `coords` writes to shared memory, from its (pattern-aligned) destination on.

    `global_tensor` is a row-major 2-D array in tensor-map order: dims[0] (innermost) is its last
    axis, so coords / box are (inner, outer).  Box line j holds global_tensor[c1 + j, c0 : c0 + box[0]]
    packed (line pitch box[0] * itemsize), elements outside the tensor (negative coordinates
    included) are zero, and each byte lands at `swizzle(offset, mode)`.

    A 3-d `global_tensor` (batch, rows, cols) with coords (c0, c1, c2) is a `.3d` load of a batched
    map whose box is one matrix deep: the box of matrix c2, all zeros for c2 outside the batch."""
    mode = SwizzleMode(mode)
    err = tma_box_error(tuple(box), global_tensor.dtype.itemsize, mode)
    if err:
        raise ValueError(err)
    if global_tensor.ndim == 3:
        if len(coords) != 3:
            raise ValueError(f"a 3-d tensor map takes 3 coordinates, got {len(coords)}")
        c2 = coords[2]
        inside = 0 <= c2 < global_tensor.shape[0]
        mat = global_tensor[c2] if inside else np.zeros(global_tensor.shape[1:], global_tensor.dtype)
        return tma_box_bytes(mat, coords[:2], box, mode)
    if len(coords) != 2 or global_tensor.ndim != 2:
        raise ValueError(f"expected a 2-d tensor and 2 coordinates, got {global_tensor.ndim}-d and {len(coords)}")
    g = np.ascontiguousarray(global_tensor)
    eb = g.dtype.itemsize
    b0, b1 = box
    c0, c1 = coords
    tile = np.zeros((b1, b0), dtype=g.dtype)
    r_lo, r_hi = max(c1, 0), min(c1 + b1, g.shape[0])
    e_lo, e_hi = max(c0, 0), min(c0 + b0, g.shape[1])
    if r_lo < r_hi and e_lo < e_hi:
        tile[r_lo - c1:r_hi - c1, e_lo - c0:e_hi - c0] = g[r_lo:r_hi, e_lo:e_hi]
    logical = tile.view(np.uint8).reshape(-1)
    out = np.empty_like(logical)
    out[swizzle(np.arange(logical.size, dtype=np.int64), mode)] = logical
    assert b0 * eb * b1 == out.size
    return out


def tma_box_store(global_tensor: np.ndarray, box_bytes: np.ndarray, coords, box, mode: SwizzleMode) -> None:
    """The inverse of `tma_box_bytes` (`cp.async.bulk.tensor.2d` shared -> global): write the box
    held in `box_bytes` (its shared-memory bytes from the pattern-aligned start, swizzled by `mode`)
    into `global_tensor` at `coords`, in place; elements outside the tensor are not written."""
    mode = SwizzleMode(mode)
    g = global_tensor
    err = tma_box_error(tuple(box), g.dtype.itemsize, mode)
    if err:
        raise ValueError(err)
    b0, b1 = box
    n = b0 * b1 * g.dtype.itemsize
    if box_bytes.size != n:
        raise ValueError(f"a {b0} x {b1} box of {g.dtype.itemsize}-byte elements is {n} bytes, got {box_bytes.size}")
    tile = np.ascontiguousarray(box_bytes[swizzle(np.arange(n, dtype=np.int64), mode)]).view(g.dtype).reshape(b1, b0)
    c0, c1 = coords
    r_lo, r_hi = max(c1, 0), min(c1 + b1, g.shape[0])
    e_lo, e_hi = max(c0, 0), min(c0 + b0, g.shape[1])
    if r_lo < r_hi and e_lo < e_hi:
        g[r_lo:r_hi, e_lo:e_hi] = tile[r_lo - c1:r_hi - c1, e_lo - c0:e_hi - c0]


# ---- operand tiles as the TMA lands them --------------------------------------------------------
K_MAJOR, MN_MAJOR = L.K_MAJOR, L.MN_MAJOR
TRANS_BIT = {K_MAJOR: 0, MN_MAJOR: 1}  # wgmma imm-trans-a / imm-trans-b: 0 = K-major, 1 = MN-major


def tile_boxes(rows: int, k_elems: int, elem_bytes: int, major: str, mode: SwizzleMode):
    """The TMA boxes that land a rows x k_elems operand tile (rows = M or N): a list of
    (box, coords, smem_offset), box and coords (relative to the tile's origin) in tensor-map order
    (inner, outer): the inner dimension is K for a K-major tile (global row-major rows x K) and rows
    for an MN-major one (global K x rows); each box is one swizzle line wide (16 B for NONE) and
    all of the other dimension, and box j lands `smem_offset` bytes after the tile base."""
    mode = SwizzleMode(mode)
    per_line = mode.width_bytes // elem_bytes  # elements in one line of the atom
    if major == K_MAJOR:
        return [((per_line, rows), (j * per_line, 0), j * rows * mode.width_bytes)
                for j in range(k_elems // per_line)]
    return [((per_line, k_elems), (j * per_line, 0), j * k_elems * mode.width_bytes)
            for j in range(rows // per_line)]


def tile_error(rows: int, k_elems: int, elem_bytes: int, major: str, mode: SwizzleMode) -> str | None:
    """Why a rows x k_elems tile of `major` cannot be laid out in `mode`, or None."""
    mode = SwizzleMode(mode)
    if major not in (K_MAJOR, MN_MAJOR):
        return f"major must be {K_MAJOR!r} or {MN_MAJOR!r}, got {major!r}"
    if major == MN_MAJOR and elem_bytes != 2:
        return "only 16-bit operands (f16, bf16) may be MN-major (PTX ISA: imm-trans is .f16/.bf16 only)"
    w = mode.width_bytes
    along_k, along_rows = (k_elems, rows) if major == K_MAJOR else (rows, k_elems)
    if along_k * elem_bytes % w:  # the contiguous dimension fills whole lines
        what = "K" if major == K_MAJOR else "rows"
        return f"{what} = {along_k} elements of {elem_bytes} B is not a multiple of the {w}-byte {mode.label} line"
    if along_rows % CORE_ROWS:
        what = "rows" if major == K_MAJOR else "K"
        return f"{what} = {along_rows} is not a multiple of {CORE_ROWS}"
    if along_rows > TMA_BOX_MAX:
        return f"{along_rows} lines exceed one TMA box ({TMA_BOX_MAX})"
    return None


def tile_tx_bytes(rows: int, k_elems: int, elem_bytes: int) -> int:
    """Bytes the boxes of one tile deliver: the mbarrier expect-tx count (a box always delivers all
    its bytes, the zero-filled out-of-bounds ones included)."""
    return rows * k_elems * elem_bytes


def tile_offset(row, k, rows: int, k_elems: int, elem_bytes: int, major: str, mode: SwizzleMode):
    """Logical (pre-swizzle) byte offset of element (row, k) in a rows x k_elems tile landed by
    `tile_boxes`: K-major, line `row` of box k // per_line; MN-major, line `k` of box row // per_line.
    The physical address is `swizzle(tile_base + tile_offset(...), mode)` with a pattern-aligned base."""
    w = SwizzleMode(mode).width_bytes
    per_line = w // elem_bytes
    if major == K_MAJOR:
        return (k // per_line) * (rows * w) + row * w + (k % per_line) * elem_bytes
    return (row // per_line) * (k_elems * w) + k * w + (row % per_line) * elem_bytes


# ---- wgmma matrix descriptor --------------------------------------------------------------------
@dataclass(frozen=True)
class MatrixDescriptor:
    """A wgmma shared-memory matrix descriptor, in bytes (PTX ISA "Matrix Descriptor Format").

    start_address: shared-memory byte address (int, or an Idx in a pass: `words()` then emits the low
    word); leading_byte_offset / stride_byte_offset: LBO / SBO in bytes (multiples of 16);
    base_offset: bits 49-51 (0 for pattern-aligned tiles); swizzle: the mode (bits 62-63)."""

    start_address: object
    leading_byte_offset: int
    stride_byte_offset: int
    base_offset: int = 0
    swizzle: SwizzleMode = SwizzleMode.NONE

    def error(self) -> str | None:
        """Why the fields cannot be encoded, or None (16-byte units, 14-bit fields)."""
        for name in ("leading_byte_offset", "stride_byte_offset") + (
                ("start_address",) if isinstance(self.start_address, int) else ()):
            v = getattr(self, name)
            if v % CHUNK_BYTES or not 0 <= v <= DESC_ADDR_MASK:
                return f"{name} = {v} is not a multiple of {CHUNK_BYTES} in 0..{DESC_ADDR_MASK}"
        if not 0 <= self.base_offset < 1 << DESC_BASE_OFFSET_BITS:
            return f"base_offset = {self.base_offset} is not in 0..7"
        return None

    def words(self):
        """(low, high) 32-bit words of the descriptor; `low` holds the start address and LBO and is an
        Idx when start_address is one, `high` (SBO, base offset, swizzle) is always an int."""
        err = self.error()
        if err:
            raise ValueError(err)
        lo = ((self.start_address & DESC_ADDR_MASK) >> 4) | (
            (self.leading_byte_offset & DESC_ADDR_MASK) >> 4 << DESC_LBO_SHIFT)
        hi = ((self.stride_byte_offset & DESC_ADDR_MASK) >> 4) | (
            self.base_offset << (DESC_BASE_OFFSET_SHIFT - 32)) | (int(self.swizzle) << (DESC_SWIZZLE_SHIFT - 32))
        return lo, hi

    def encode(self) -> int:
        """The 64-bit descriptor (start_address must be an int)."""
        lo, hi = self.words()
        return lo | hi << 32

    @classmethod
    def decode(cls, value: int) -> "MatrixDescriptor":
        """The fields of a 64-bit descriptor (addresses in bytes; unused bits ignored)."""
        field = (1 << DESC_FIELD_BITS) - 1
        return cls(start_address=(value & field) << 4,
                   leading_byte_offset=(value >> DESC_LBO_SHIFT & field) << 4,
                   stride_byte_offset=(value >> DESC_SBO_SHIFT & field) << 4,
                   base_offset=value >> DESC_BASE_OFFSET_SHIFT & ((1 << DESC_BASE_OFFSET_BITS) - 1),
                   swizzle=SwizzleMode(value >> DESC_SWIZZLE_SHIFT & 3))

    def describe(self) -> list[tuple[str, str, str]]:
        """(field, bits, value) rows for explain: the descriptor decoded field by field."""
        def enc(v):  # matrix-descriptor-encode
            return (v & DESC_ADDR_MASK) >> 4

        start = self.start_address
        return [("start address", "0-13",
                 f"{start:#x} (field {enc(start):#x})" if isinstance(start, int) else "(computed in the kernel)"),
                ("leading byte offset", "16-29", f"{self.leading_byte_offset} B (field {enc(self.leading_byte_offset)})"),
                ("stride byte offset", "32-45", f"{self.stride_byte_offset} B (field {enc(self.stride_byte_offset)})"),
                ("base offset", "49-51", str(self.base_offset)),
                ("swizzle mode", "62-63", f"{int(self.swizzle)} ({self.swizzle.label})")]


# LBO of a swizzled K-major descriptor: the ISA says "not used, assumed to be 1"; CUTLASS writes 1
# (16 bytes), and so do we.
UNUSED_LBO = CHUNK_BYTES


def tile_descriptor(tile_base_addr, rows: int, k_elems: int, elem_bytes: int, major: str, mode: SwizzleMode,
                    k_offset: int = 0, row_offset: int = 0) -> MatrixDescriptor:
    """Descriptor of the wgmma operand slice (rows row_offset.. of A (64 of them) or B (N), K
    k_offset .. k_offset + wgmma K) of a rows x k_elems tile landed by `tile_boxes` at
    `tile_base_addr` (int or Idx, pattern-aligned).  Stepping K by one wgmma K (32 bytes) adds 32 B
    to the start address inside a swizzled K-major line, one box (rows * 16 B) without swizzle, and
    16 K-lines (16 * line bytes) MN-major.

    K-major: 8-row groups are SBO = 8 lines apart; without swizzle the K core matrices are one box
    (LBO = rows * 16 B) apart.  MN-major swizzled: LBO = one box (k_elems lines) between atoms along
    rows, SBO = 8 lines between 8-K groups; MN-major without swizzle the roles swap (CUTLASS
    make_gmma_desc<Major::MN>, INTERLEAVE): SBO = one box between 16-byte row chunks, LBO = 128 B
    between 8-K groups."""
    mode = SwizzleMode(mode)
    err = tile_error(rows, k_elems, elem_bytes, major, mode)
    if err:
        raise ValueError(err)
    w = mode.width_bytes
    wk = WGMMA_K_BYTES // elem_bytes
    if k_offset % wk or not 0 <= k_offset < k_elems:
        raise ValueError(f"k_offset {k_offset} is not a multiple of the wgmma K {wk} inside K = {k_elems}")
    if row_offset % CORE_ROWS or not 0 <= row_offset < rows or (
            major == MN_MAJOR and row_offset * elem_bytes % w):
        raise ValueError(f"row_offset {row_offset} does not start a core-matrix group of the {rows}-row tile")
    start = tile_base_addr + tile_offset(row_offset, k_offset, rows, k_elems, elem_bytes, major, mode)
    if major == K_MAJOR:
        lbo = rows * w if mode is SwizzleMode.NONE else UNUSED_LBO
        sbo = CORE_ROWS * w
    elif mode is SwizzleMode.NONE:
        lbo, sbo = CORE_ROWS * w, k_elems * w
    else:
        lbo, sbo = k_elems * w, CORE_ROWS * w
    return MatrixDescriptor(start, lbo, sbo, 0, mode)


def operand_addresses(desc: MatrixDescriptor, rows: int, k: int, elem_bytes: int, trans: int) -> np.ndarray:
    """Physical byte address of each element (row, kk) of the rows x k operand wgmma reads through
    `desc` with imm-trans `trans` (0 K-major, 1 MN-major), from the descriptor's fields alone.

    A core matrix is 8 lines x 16 bytes.  K-major: a line is 16 bytes of K of one row; the 8 rows of
    a core matrix are `w` bytes apart (the swizzle line, 16 without swizzle), 8-row groups SBO apart,
    and the next 16 bytes of K are LBO away without swizzle or the next chunk of the line (LBO
    unused) with it.  MN-major: a line is 16 bytes of rows at one k; lines k are `w` apart, 8-k
    groups SBO apart (LBO without swizzle) and the next 16 bytes of rows are the next chunk up to a
    line of `w` bytes, then LBO (SBO without swizzle) to the next atom.  Then `swizzle(addr, mode)`."""
    mode = desc.swizzle
    w = mode.width_bytes
    r = np.arange(rows, dtype=np.int64)[:, None]
    kk = np.arange(k, dtype=np.int64)[None, :]
    start = int(desc.start_address)
    lbo, sbo = desc.leading_byte_offset, desc.stride_byte_offset
    if trans == 0:
        kb = kk * elem_bytes
        if mode is SwizzleMode.NONE:
            k_part = (kb // CHUNK_BYTES) * lbo + kb % CHUNK_BYTES
        else:
            k_part = kb  # one line of w >= 32 bytes holds the whole wgmma K
        addr = start + (r // CORE_ROWS) * sbo + (r % CORE_ROWS) * w + k_part
    else:
        rb = r * elem_bytes
        if mode is SwizzleMode.NONE:
            row_part = (rb // CHUNK_BYTES) * sbo + rb % CHUNK_BYTES
            k_group = lbo
        else:
            row_part = (rb // w) * lbo + rb % w
            k_group = sbo
        addr = start + row_part + (kk // CORE_ROWS) * k_group + (kk % CORE_ROWS) * w
    return swizzle(addr, mode)


def read_operand(smem: np.ndarray, desc: MatrixDescriptor | int, rows: int, k: int, dtype, trans: int) -> np.ndarray:
    """The rows x k matrix (A: rows = 64; B: rows = N, i.e. B transposed, N x K) wgmma reads from
    `smem` (uint8 array indexed by shared-memory address) through `desc` (a MatrixDescriptor or its
    64-bit encoding) with imm-trans `trans`, as elements of numpy `dtype` (bf16: uint16 patterns).

    Raises ValueError for what the ISA forbids or lasscc does not model: trans = 1 with non-16-bit
    elements, a base offset other than 0, a K that is not the wgmma K, reads outside `smem`.  A start
    address with swizzle-line bits set (bits [7, 7+B), which the ISA pairs with a base offset) is
    read through the same address-bit swizzle: our model, not checked on hardware; `tile_descriptor`
    never produces one (row offsets are whole 8-line groups, K steps stay inside a line)."""
    if isinstance(desc, int):
        desc = MatrixDescriptor.decode(desc)
    dtype = np.dtype(dtype)
    eb = dtype.itemsize
    if trans not in (0, 1):
        raise ValueError(f"imm-trans must be 0 or 1, got {trans}")
    if trans and eb != 2:
        raise ValueError("imm-trans 1 (MN-major) exists only for .f16 / .bf16 operands")
    if k * eb != WGMMA_K_BYTES:
        raise ValueError(f"a wgmma reads {WGMMA_K_BYTES} bytes of K: k = {k} of {eb}-byte elements is not that")
    if rows % CORE_ROWS:
        raise ValueError(f"rows = {rows} is not a multiple of {CORE_ROWS}")
    if desc.base_offset:
        raise ValueError(f"descriptor base offset {desc.base_offset}: not modelled (lasscc aligns tiles to the pattern)")
    addr = operand_addresses(desc, rows, k, eb, trans)
    if addr.max() + eb > smem.size:
        raise ValueError(f"the descriptor reads up to byte {int(addr.max()) + eb} of a {smem.size}-byte shared memory")
    idx = addr[..., None] + np.arange(eb)
    return np.ascontiguousarray(smem[idx]).view(dtype).reshape(rows, k)


# ---- wgmma shapes and operand rules -------------------------------------------------------------
N_DENSE = tuple(range(8, 257, 8))  # f16, bf16, tf32, e4m3/e5m2: m64nNk*, N = 8..256 step 8
N_INT = (8, 16, 24) + tuple(range(32, 257, 16))  # s8/u8 (and b1): 8, 16, 24, 32..256 step 16 (ptxas-checked)


@dataclass(frozen=True)
class WgmmaType:
    """One A/B element type of wgmma.mma_async (PTX ISA syntax lists)."""

    ptx: str  # the .atype / .btype
    elem_bytes: int
    k: int  # K of the instruction
    n_values: tuple[int, ...]  # valid N
    acc_types: tuple[str, ...]  # valid .dtype
    mn_major: bool  # imm-trans allowed (MN-major operands from shared memory)


WGMMA_TYPES = {t.ptx: t for t in (
    WgmmaType("f16", 2, 16, N_DENSE, ("f16", "f32"), True),
    WgmmaType("bf16", 2, 16, N_DENSE, ("f32",), True),
    WgmmaType("tf32", 4, 8, N_DENSE, ("f32",), False),
    WgmmaType("e4m3", 1, 32, N_DENSE, ("f16", "f32"), False),
    WgmmaType("e5m2", 1, 32, N_DENSE, ("f16", "f32"), False),
    WgmmaType("s8", 1, 32, N_INT, ("s32",), False),
    WgmmaType("u8", 1, 32, N_INT, ("s32",), False),
)}


def wgmma_type(ab_type: str) -> WgmmaType:
    """The WgmmaType of A/B elements named by PTX ("f16", "tf32", "s8", ...) or by lasscc's MLIR
    name ("f16", "bf16", "f32" -> tf32, "i8" -> s8, through layout.MMA_INPUTS)."""
    if ab_type in L.MMA_INPUTS:
        ab_type = L.MMA_INPUTS[ab_type][2]
    return WGMMA_TYPES[ab_type]


def wgmma_shape_error(ab_type: str, n: int, acc_type: str, major_a: str = K_MAJOR, major_b: str = K_MAJOR,
                      a_from_registers: bool = False) -> str | None:
    """Why wgmma m64 x n with these operands does not exist, or None."""
    t = wgmma_type(ab_type)
    if n not in t.n_values:
        return f"wgmma .{t.ptx} has no N = {n} (valid: {', '.join(map(str, t.n_values))})"
    if acc_type not in t.acc_types:
        return f"wgmma .{t.ptx} accumulates in {' or '.join(t.acc_types)}, not {acc_type}"
    if a_from_registers and major_a != K_MAJOR:
        return "A from registers must be K-major"
    for name, major in (("A", major_a), ("B", major_b)):
        if major == MN_MAJOR and not t.mn_major:
            return f"{name} of .{t.ptx} must be K-major (imm-trans is .f16 / .bf16 only)"
    return None


# ---- register fragments (PTX ISA wgmma register fragment figures; CuTe CLayout_64xN / ALayout) ----
def acc_coord(thread, v):
    """(row, col) in the 64 x N accumulator of value `v` (0 .. N/2 - 1) held by `thread` (0..127)
    of the warpgroup, for f32 / s32 accumulators (one value per register) and f16 ones (two per
    register: `acc_f16_register`).  Warp w owns rows 16w .. 16w+15 and, per 8 columns i = v // 4,
    holds the mma.sync m16n8 C fragment (layout.mma_c_coord) of that 16 x 8 block."""
    warp, lane = thread >> 5, thread & 31
    r, c = L.mma_c_coord(lane, v & 3)
    return 16 * warp + r, 8 * (v >> 2) + c


def acc_coords(n: int):
    """(rows, cols): two (128, N/2) int arrays, acc_coord for every thread and value of m64nN, so a
    64 x N matrix D gives each thread's accumulator fragment as D[rows, cols] (and back)."""
    t, v = np.meshgrid(np.arange(WARPGROUP_THREADS), np.arange(acc_values(n)), indexing="ij")
    return acc_coord(t, v)


def acc_values(n: int) -> int:
    """Accumulator values per thread of m64nN: 64 * N / 128."""
    return WGMMA_M * n // WARPGROUP_THREADS


def acc_f16_register(v):
    """(register, half) of f16 accumulator value `v`: values 2j and 2j+1 (adjacent columns) share
    .f16x2 register j, 2j in the low 16 bits (the pairing of CuTe's uint32_t[N/4] CRegisters over
    CLayout_64xN, the same as mma.sync's f16 C)."""
    return v >> 1, v & 1


def a_frag_coord(thread, reg, part, elem_bytes: int):
    """(row, k) of the A element that `thread` (0..127) holds in 32-bit register `reg` (0..3), element
    `part` of it (0 .. 4 / elem_bytes - 1), for wgmma with A from registers (RS): elem_bytes 2 is
    m64nNk16 (f16 / bf16), 4 is k8 (tf32), 1 is k32 (s8 / u8).  Warp w holds rows 16w .. 16w+15 as
    the mma.sync m16 A fragment of the same K bytes (layout.mma_a_coord); CuTe ALayout_64x16 /
    64x8 / 64x32 say the same."""
    warp, lane = thread >> 5, thread & 31
    r, kk = L.mma_a_coord(lane, reg, part, elem_bytes)
    return 16 * warp + r, kk


def a_frag_coords(elem_bytes: int):
    """(rows, ks): two (128, A_FRAG_REGS, 4 // elem_bytes) int arrays, a_frag_coord for every thread,
    register and element of it: A[rows, ks] is each thread's RS A fragment."""
    t, reg, part = np.meshgrid(np.arange(WARPGROUP_THREADS), np.arange(A_FRAG_REGS), np.arange(4 // elem_bytes),
                               indexing="ij")
    return a_frag_coord(t, reg, part, elem_bytes)


A_FRAG_REGS = 4  # 32-bit registers of A per thread for every RS wgmma (64 x 32 bytes / 128 threads / 4 B)


# ---- bank picture -------------------------------------------------------------------------------
def bank_groups(mode: SwizzleMode) -> np.ndarray:
    """(8, line chunks) int array: the 4-bank group (0..7, banks 4g .. 4g+3) where logical 16-byte
    chunk c of line r of a `mode` swizzle atom lands (lines `mode.width_bytes` apart).  A wgmma core
    matrix reads one chunk column: conflict-free when the column's 8 groups differ."""
    mode = SwizzleMode(mode)
    w = mode.width_bytes
    r = np.arange(CORE_ROWS)[:, None]
    c = np.arange(w // CHUNK_BYTES)[None, :]
    phys = swizzle(r * w + c * CHUNK_BYTES, mode)
    return (phys // CHUNK_BYTES) % (L.SMEM_BANKS * L.SMEM_BANK_BYTES // CHUNK_BYTES)


def core_matrix_banks(mode: SwizzleMode, chunk: int) -> np.ndarray:
    """(8, 4) banks touched by reading logical chunk `chunk` of the atom's 8 lines (one core matrix,
    one 8-line phase): all 32 banks once when the swizzle works."""
    g = bank_groups(mode)[:, chunk]
    per = CHUNK_BYTES // L.SMEM_BANK_BYTES
    return g[:, None] * per + np.arange(per)[None, :]


def bank_picture(mode: SwizzleMode) -> str:
    """Text picture of `mode`'s swizzle atom: one row per line, each logical chunk shown as its bank
    group (banks 4g..4g+3)."""
    mode = SwizzleMode(mode)
    g = bank_groups(mode)
    head = f"{mode.label} swizzle: line -> bank group (banks 4g..4g+3) of logical 16-byte chunk 0..{g.shape[1] - 1}"
    return "\n".join([head] + [f"  line {r}: " + " ".join(str(int(x)) for x in g[r]) for r in range(CORE_ROWS)])


# ---- the TMA-store epilogue (config epilogue = "tma"; CUTLASS's sm90 TMA epilogue) ---------------
# Accumulators -> a staging subtile in shared memory (stmatrix for a 16-bit D, st.shared.v2
# otherwise) -> one TMA store per subtile (cp.async.bulk.tensor shared -> global, clipped at D's
# bounds).  A subtile is the block's BM rows x `epilogue_subtile` columns, one swizzle line per row,
# so the staging writes and the store agree on one SwizzleMode (the D tensor map's).
EPILOGUE_STAGE_ROW_BYTES = 128  # a subtile row at most: the 128B swizzle's line (a swizzled box's inner limit)
EPILOGUE_STAGE_BUFFERS = 2  # double buffer: a subtile is written while the store of the previous one reads the other
STMATRIX_BLOCK = 16  # stmatrix.m8n8.x4 writes a 16 x 16 block of 16-bit elements: four 8 x 8 matrices
STMATRIX_ROWS = 8  # rows of one 8 x 8 matrix (one lane's address each)


def epilogue_subtile(bn: int, d_bytes: int) -> tuple[int, SwizzleMode] | None:
    """(columns, swizzle) of the staging subtile of a BN-wide tile of `d_bytes`-byte D elements: the
    widest swizzle line (128, 64, 32 bytes) that divides the tile's row, so the subtiles cover the
    tile exactly (a box past BN would store into the next tile); None when no line divides it."""
    for mode in (SwizzleMode.B128, SwizzleMode.B64, SwizzleMode.B32):
        if (bn * d_bytes) % mode.width_bytes == 0:
            return mode.width_bytes // d_bytes, mode
    return None


def epilogue_stage_offset(row, col, d_bytes: int, mode: SwizzleMode):
    """Physical byte offset of D element (row, col) in a staging subtile (int, numpy array or Idx),
    relative to the subtile's pattern-aligned base: line `row` of `mode.width_bytes`, swizzled as
    the D tensor map's box (`tma_box_store` reads it back through the same swizzle)."""
    mode = SwizzleMode(mode)
    return swizzle(row * mode.width_bytes + col * d_bytes, mode)


def stmatrix_lane_cell(lane):
    """(row, col) in the 16 x 16 block of a stmatrix.x4 whose row address lane `lane` gives (int or
    Idx): lanes 8q .. 8q + 7 address rows 0..7 of matrix q (PTX ISA 9.7.14.5.16 "stmatrix"), and the
    epilogue's matrix q is rows 8 (q & 1).., columns 8 (q >> 1).. (`stmatrix_matrix_origin`)."""
    q = lane >> 3
    return (lane & 7) + (q & 1) * STMATRIX_ROWS, (q >> 1) * STMATRIX_ROWS


def stmatrix_matrix_origin(q: int) -> tuple[int, int]:
    """(row, col) of matrix q (register q of every lane) in the epilogue's 16 x 16 block: the
    wgmma accumulator's m16n8 fragment puts a lane's pair (row g, cols 2t, 2t + 1) of each 8 x 8
    quarter in one register, exactly the stmatrix (and ldmatrix) fragment of that quarter."""
    return (q & 1) * STMATRIX_ROWS, (q >> 1) * STMATRIX_ROWS
