"""Layout math as pure functions: the one place every formula lives.

Passes call these to compute what they write into the IR; the CPU interpreter and the unit
tests call the same functions, so a formula is written once.  The formulas are plain integer
arithmetic with Python operators: on ints, on numpy arrays (broadcasting works), and on IR values
(lasscc.ir_math.Idx), where each operator emits its op, so the passes write the formula tested
here into the kernel.  They therefore branch only on compile-time ints (shapes, element bytes),
never on a coordinate, and take a minimum through `minimum`.

Sources: PTX ISA "Matrix Fragments for mma.m16n8k16 with floating point type" and
"Warp-level matrix load instruction: ldmatrix"; CUTLASS TensorOpMultiplicandCrosswise
(reference 003) for the idea of the XOR swizzle, whose exact bits we take from CuTe's
Swizzle<3,4,3> (reference 004) because it is conflict-free for every K-major row width we emit.
MN-major ("congruous", TensorOpMultiplicandCongruous) tiles use the same swizzle on 128-byte
atoms along M or N (CuTe's SM80 MN-major f16 atom: Swizzle<3,3,3> o 64 x 8 elements), read with
ldmatrix .trans.
"""

from __future__ import annotations

# ---- hardware numbers -------------------------------------------------------------------------
WARP_SIZE = 32  # threads per warp (PTX ISA: warp)
SMEM_BANKS = 32  # shared-memory banks, each 4 bytes wide (CUDA C guide, compute capability 8.x/9.x)
SMEM_BANK_BYTES = 4
SMEM_WAVEFRONT_BYTES = SMEM_BANKS * SMEM_BANK_BYTES  # 128 bytes served per wavefront
ACCESS_BYTES = 16  # widest per-thread access: cp.async.cg 16, ld/st .v4.b32, one ldmatrix row
ACCESS_LANES_PER_WAVEFRONT = SMEM_WAVEFRONT_BYTES // ACCESS_BYTES  # 8 lanes of 16-byte accesses fill one wavefront (a quarter-warp)
LDMATRIX_ROWS = 8  # an 8x8 b16 matrix: 8 rows of 16 bytes, one row address per lane of a phase
# cp.async (PTX ISA 9.7.9.25.3): .cg (cache at L2 only) copies exactly 16 bytes; .ca (all levels)
# copies 4, 8 or 16.  Narrower accesses have no cp.async: a predicated ld.global + st.shared.
CP_ASYNC_CG_BYTES = 16
CP_ASYNC_CA_BYTES = (4, 8, 16)

# ---- the XOR swizzle --------------------------------------------------------------------------
# Swizzle<B=3, M=4, S=3> on byte offsets: bits [4, 7) (the 16-byte chunk within a 128-byte line)
# are XORed with bits [7, 10) (the line index modulo 8).  In units of 16-byte chunks that is
#     phys_chunk = chunk ^ ((chunk >> 3) & 7)
SWIZZLE_BITS = 3  # B: 8 chunks per 128-byte line are permuted
SWIZZLE_BASE = 4  # M: 16-byte atoms are kept whole (log2 ACCESS_BYTES)
SWIZZLE_SHIFT = 3  # S: XOR source sits 3 bits above the permuted bits


def swizzle(x, bits=SWIZZLE_BITS, base=SWIZZLE_BASE, shift=SWIZZLE_SHIFT):
    """Swizzle<bits, base, shift> of offset `x` (int or numpy array): bits [base, base+bits) are
    XORed with bits [base+shift, base+shift+bits).  The one formula behind `lass_smem.swizzle`."""
    return x ^ (((x >> (base + shift)) & ((1 << bits) - 1)) << base)


def swizzle_chunk(chunk):
    """Physical 16-byte chunk index of logical chunk index `chunk` (int or numpy array).

    A bijection on every range [0, 8*n): only the low 3 bits change, and they change by a value
    that depends only on the bits above them.
    """
    return swizzle(chunk, base=0)


def swizzle_byte_offset(byte_offset):
    """Physical byte offset of a logical byte offset (16-byte granules move as a whole)."""
    return swizzle(byte_offset)


# XOR-period of Swizzle<3,4,3>: it reads bits [7, 10) and writes bits [4, 7), so adding a multiple
# of 2**10 bytes commutes with it.
SWIZZLE_PERIOD_BYTES = 1 << (SWIZZLE_BASE + SWIZZLE_SHIFT + SWIZZLE_BITS)


def swizzle_offset_split(row_const, k_const_bytes, row_bytes, lane_k_bytes_max):
    """Split the swizzled address of a K-major element into a loop-invariant register and constants.

    The address of (row_var + row_const, k_var + k_const) is `swizzle(x + k_const_bytes +
    row_const * row_bytes)` with x = row_var * row_bytes + k_var_bytes.  Returns (xor_c, add_c) with

        swizzle(x + k_const_bytes + row_const * row_bytes) == (swizzle(x) ^ xor_c) + add_c

    for every x of that form whose k part lies in [0, lane_k_bytes_max], or None when the identity
    does not hold.  It holds when (1) rows are a power of two bytes, so the row part of x only has
    bits >= log2(row_bytes); (2) k_const_bytes is a multiple of the smallest power of two above
    lane_k_bytes_max and below row_bytes, so x + k_const_bytes == x ^ k_const_bytes (no carries) and
    the swizzle, being XOR-linear, gives swizzle(x) ^ swizzle(k_const_bytes); (3) row_const *
    row_bytes is a multiple of SWIZZLE_PERIOD_BYTES, so it commutes with the swizzle.  This is
    CUTLASS's warp iterator trick (reference 000/003): one base register per k-group, the m/n
    fragments at immediate offsets.
    """
    if row_bytes <= 0 or row_bytes & (row_bytes - 1):
        return None
    add_c = row_const * row_bytes
    if add_c % SWIZZLE_PERIOD_BYTES:
        return None
    lane_span = 1
    while lane_span <= lane_k_bytes_max:
        lane_span <<= 1
    if k_const_bytes % lane_span or not 0 <= k_const_bytes < row_bytes:
        return None
    return swizzle(k_const_bytes), add_c


def kmajor_tile_offset(row, k, row_elems, elem_bytes, swizzled=True):
    """Byte offset of element (row, k) in a K-major SMEM tile with `row_elems` elements per row.

    Logical layout: row-major, rows of row_elems*elem_bytes bytes.  With `swizzled`, the 16-byte
    chunk index is passed through `swizzle_chunk` (the crosswise layout of reference 003).
    """
    logical = row * (row_elems * elem_bytes) + k * elem_bytes
    return swizzle_byte_offset(logical) if swizzled else logical


# ---- MN-major ("congruous") tiles ------------------------------------------------------------
# An MN-major operand (column-major A, row-major B) is contiguous along M (or N).  Its SMEM tile is
# stored as atoms MN_ATOM_BYTES wide along M/N, one after the other; an atom is BK lines of
# W = mn_atom_elems contiguous elements, line k holding elements (r0 .. r0+W-1, k).  A 128-byte
# line makes the 8 k-lines an ldmatrix.trans matrix reads 8 different lines, whose 16-byte chunks
# the swizzle puts in 8 different bank groups; wider lines (256 B for BM = 128) would pair them up.
MN_ATOM_BYTES = SMEM_WAVEFRONT_BYTES
K_MAJOR, MN_MAJOR = "k", "mn"  # how operand tiles are stored (the `major` of lass tile/ring types)


def mn_atom_elems(rows, elem_bytes):
    """Width W (elements along M or N) of an MN-major tile's atoms: 128 bytes, or the largest power
    of two below that dividing `rows` (e.g. 32 for rows = 96, 16 for 48; still conflict-free: the
    8 lines of a phase then share a 128-byte line 2 or 4 at a time, in different chunks)."""
    import math

    return math.gcd(int(rows), MN_ATOM_BYTES // elem_bytes)


# The swizzle of MN-major tiles, by element bytes.  16- and 8-bit tiles use Swizzle<3,4,3>: the 8
# k-lines an ldmatrix .trans phase reads (8 consecutive ones for 16-bit elements, the spread set of
# s8_mn_trans_lane_src for 8-bit ones) land in 8 different 16-byte bank groups.  32-bit tiles are
# read with ld.shared (tf32_mn_lane_src): a half-warp reads 32 bytes (8 M or N) of 4 consecutive
# k-lines, and under Swizzle<3,4,3> lines k and k^1 put the two 16-byte chunks of a 32-byte piece
# in swapped places, i.e. the same banks (2 wavefronts instead of 1).  Swizzle<2,5,2> permutes
# 32-byte pieces by the line index mod 4 instead (CUTLASS's TensorOpMultiplicandCongruous<32, 32>:
# vector c of line s at c ^ 2s): 4 lines x 32 bytes hit all 32 banks once.  Both keep every
# 16-byte chunk whole inside its 128-byte line, so the 16-byte copies stay conflict-free.
MN_SWIZZLE = {1: (3, 4, 3), 2: (3, 4, 3), 4: (2, 5, 2)}  # elem bytes -> (bits, base, shift)


def mn_swizzle_params(elem_bytes):
    """(bits, base, shift) of the Swizzle an MN-major tile of `elem_bytes` elements uses."""
    return MN_SWIZZLE[elem_bytes]


def mnmajor_tile_offset(row, k, rows, bk, elem_bytes, swizzled=True):
    """Byte offset of element (row, k) in an MN-major SMEM tile of logical shape rows x bk.

    Logical layout: atom row // W, line k, element row % W (W = mn_atom_elems); with `swizzled`,
    the Swizzle of mn_swizzle_params(elem_bytes) on the byte offset (Swizzle<3,4,3>, the K-major
    one, for 8- and 16-bit elements; Swizzle<2,5,2> for 32-bit ones).
    """
    w = mn_atom_elems(rows, elem_bytes)
    if w == rows:  # one atom: row // w == 0 and row % w == row for row < rows (no division in IR)
        logical = k * (w * elem_bytes) + row * elem_bytes
    else:
        logical = ((row // w) * bk + k) * (w * elem_bytes) + (row % w) * elem_bytes
    return swizzle(logical, *mn_swizzle_params(elem_bytes)) if swizzled else logical


def tile_offset(row, k, rows, bk, elem_bytes, major=K_MAJOR, swizzled=True):
    """Byte offset of element (row, k) of a rows x bk operand tile stored `major` ("k" or "mn")."""
    if major == MN_MAJOR:
        return mnmajor_tile_offset(row, k, rows, bk, elem_bytes, swizzled)
    return kmajor_tile_offset(row, k, bk, elem_bytes, swizzled)


# ---- mma.sync fragments (PTX ISA tables) ------------------------------------------------------
MMA_M, MMA_N, MMA_K = 16, 8, 16  # m16n8k16 (f16 / bf16 inputs)
# Every mma.sync shape lasscc uses reads 32 bytes of K per k-group: m16n8k16 x 2 B (f16, bf16),
# m16n8k8 x 4 B (tf32), m16n8k32 x 1 B (s8).  So one ldmatrix.x4 (8 rows x 16 B per matrix)
# delivers the A (or two n8 B) fragments of one k-group for each of them.
MMA_K_BYTES = 32
# A/B element type (MLIR name) -> (bytes per element, mma.sync shape (M, N, K), PTX operand type)
MMA_INPUTS = {
    "f16": (2, (16, 8, 16), "f16"),
    "bf16": (2, (16, 8, 16), "bf16"),
    "f32": (4, (16, 8, 8), "tf32"),  # f32 operands are rounded to tf32 (lasscc-warp-mma)
    "i8": (1, (16, 8, 32), "s8"),
}


def mma_shape(ab_type: str) -> tuple[int, int, int]:
    """The mma.sync (M, N, K) for A/B elements of MLIR type `ab_type` ("f16", "bf16", "f32", "i8")."""
    return MMA_INPUTS[ab_type][1]


def elem_bytes(ab_type: str) -> int:
    return MMA_INPUTS[ab_type][0]


def mma_a_coord(lane, reg, half, elem_bytes=2):
    """(row, k) of A element held by `lane` in 32-bit register `reg` (0..3), element `half` of the
    register (0..4/elem_bytes-1; for f16 the half).  `elem_bytes` 2 is m16n8k16 (f16/bf16), 4 is
    m16n8k8 (tf32, one element per register), 1 is m16n8k32 (s8, four per register): in bytes the
    three tables are one, a k-group spans MMA_K_BYTES of K (PTX ISA "Matrix Fragments for
    mma.m16n8k8 / m16n8k16 / m16n8k32")."""
    group, tig = lane >> 2, lane & 3
    per_reg = 4 // elem_bytes
    row = group + 8 * (reg & 1)
    k = tig * per_reg + half + (MMA_K_BYTES // 2 // elem_bytes) * (reg >> 1)
    return row, k


def mma_b_coord(lane, reg, half, elem_bytes=2):
    """(k, n) of B element held by `lane` in register `reg` (0..1), element `half` of it (see
    mma_a_coord for `elem_bytes`)."""
    group, tig = lane >> 2, lane & 3
    per_reg = 4 // elem_bytes
    return tig * per_reg + half + (MMA_K_BYTES // 2 // elem_bytes) * reg, group


def mma_c_coord(lane, idx):
    """(row, n) of accumulator element `idx` (0..3) held by `lane`."""
    group, tig = lane >> 2, lane & 3
    return group + 8 * (idx >> 1), tig * 2 + (idx & 1)


# ---- ldmatrix.x4 ------------------------------------------------------------------------------
def ldmatrix_dest_coord(lane, half):
    """(row, col) within an 8x8 b16 matrix that `lane` receives in element `half` of its register."""
    return lane >> 2, (lane & 3) * 2 + half


def ldmatrix_a_lane_src(lane, elem_bytes=2):
    """(row, k) of the 16-byte row whose address `lane` supplies for an A 16-row x4 load.

    Matrices 0..3 are (rows 0-7, bytes 0-15 of the k-group), (rows 8-15, bytes 0-15), (rows 0-7,
    bytes 16-31), (rows 8-15, bytes 16-31) so that destination register i is exactly mma A register
    i (for f16: k 0-7 / 8-15; tf32: k 0-3 / 4-7; s8: k 0-15 / 16-31).
    """
    return (lane & 7) + 8 * ((lane >> 3) & 1), (ACCESS_BYTES // elem_bytes) * (lane >> 4)


def ldmatrix_b_lane_src(lane, elem_bytes=2):
    """(n, k) of the row whose address `lane` supplies for a B (N x K, K-major) x4 load of two n8 blocks.

    Matrices 0..3 are (n 0-7, bytes 0-15), (n 0-7, bytes 16-31), (n 8-15, bytes 0-15), (n 8-15,
    bytes 16-31): registers 0,1 are B registers 0,1 of the first n8 block, registers 2,3 those of
    the second.
    """
    return (lane & 7) + 8 * (lane >> 4), (ACCESS_BYTES // elem_bytes) * ((lane >> 3) & 1)


# ---- ldmatrix.x4.trans (MN-major tiles) ---------------------------------------------------------
# With .trans each 8x8 matrix is transposed on the way: the 8 addresses of a matrix point at its 8
# k-lines (8 contiguous M or N elements each), and lane l receives elements (m or n = l/4,
# k = 2(l%4), +1): exactly the mma fragment layout, so the registers match the K-major loads.
def ldmatrix_trans_dest_coord(lane, half):
    """(row, col) within the STORED 8x8 b16 matrix that `lane` receives in element `half` with .trans."""
    return (lane & 3) * 2 + half, lane >> 2


def ldmatrix_a_trans_lane_src(lane):
    """(row, k) of the first of the 8 contiguous A elements (rows row..row+7 at one k) whose
    address `lane` supplies for an A 16x16 x4.trans load from an MN-major tile.

    Matrices 0..3 are (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15),
    as for ldmatrix_a_lane_src; lane 8i + j gives line k = j of matrix i.
    """
    return 8 * ((lane >> 3) & 1), (lane & 7) + 8 * (lane >> 4)


def ldmatrix_b_trans_lane_src(lane):
    """(n, k) of the first of the 8 contiguous B elements (n..n+7 at one k) whose address `lane`
    supplies for a B x4.trans load of two n8 blocks from an N-major tile; matrices as in
    ldmatrix_b_lane_src: (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7), (n 8-15, k 8-15)."""
    return 8 * (lane >> 4), (lane & 7) + 8 * ((lane >> 3) & 1)


# ---- fragments of MN-major tf32 and s8 tiles ------------------------------------------------------
# ldmatrix .trans moves 16-bit elements, so it cannot transpose 32- or 8-bit ones.  These loads
# instead pair adjacent M (or N) elements: a lane's fragment row g + 8h (A; for B: column g of n8
# block h) holds tile row (column) 2g + h of the 16 the fragment covers, which puts a lane's two
# rows next to each other in the MN-major line.  lasscc-warp-mma writes the epilogue for that
# order (mma_c_coord through frag_interleave) and marks the loads `interleaved`.
def frag_interleave(i):
    """Tile row (A) or column (B) offset of fragment row / column i (0..15; for B, i = 8 * block +
    column) when the fragment is `interleaved`: 2 (i % 8) + i // 8, and blocks of 16 stay put."""
    return 16 * (i // 16) + 2 * (i % 8) + (i // 8) % 2


def tf32_mn_lane_src(lane, load):
    """(row, k) of the two adjacent 32-bit elements lane `lane` reads with ld.shared.v2 number
    `load` (0, 1) of an interleaved m16n8k8 tf32 A fragment (or B: row = n) from an MN-major tile.

    They are (2g, t + 4 load) and (2g + 1, t + 4 load), g = lane / 4, t = lane % 4: registers
    a_{2 load} and a_{2 load + 1} of the PTX m16n8k8 table (rows g and g + 8 there), or for B the
    b_load registers of the two n8 blocks."""
    return 2 * (lane >> 2), (lane & 3) + 4 * load


# An s8 fragment from an MN-major tile: one ldmatrix.x4.trans (b16) and 4 prmt.  With .trans,
# lane (g, t) receives from matrix j the b16 element g of stored rows 2t and 2t + 1: bytes
# (2g, 2g + 1) of two k-lines, i.e. a 2 x 2 block (M or N 2g, 2g+1) x (two k).  Two matrices
# give it the 4 k of its m16n8k32 register (k 4t .. 4t+3 of a 16-k half) for both M 2g (fragment
# row g) and 2g + 1 (row g + 8): a prmt picks the M 2g bytes of both, another the M 2g + 1 bytes.
# Matrices 2p, 2p + 1 cover k half p (k 16p .. 16p + 15); of the 4 k of lane t, one matrix holds
# k 4t, 4t+1 and the other 4t+2, 4t+3, swapped for t >= 2 so that each matrix's 8 k-lines are 8
# different lines mod 8 (different bank groups under Swizzle<3,4,3>; consecutive pairs would put
# lines k and k + 8 in one phase).
S8_MN_PRMT_LO, S8_MN_PRMT_HI = 0x6420, 0x7531  # bytes 0, 2 of a and of b; bytes 1, 3 of a and b
S8_MN_PRMT_SWAP = 0x4444  # XORed in for lanes with t >= 2: take b's bytes first (0x2064, 0x3175)


def s8_mn_trans_lane_src(lane):
    """(row, k) of the 16 contiguous s8 elements (M or N row..row+15 at one k-line) whose address
    `lane` supplies for the x4.trans load of an interleaved m16n8k32 fragment from an MN-major
    tile: matrix j = lane / 8, its stored row r = lane % 8 (received by lanes t = r / 2) is k-line
    16 (j / 2) + 4 (r / 2) + r % 2 + 2 ((j % 2) ^ (r / 4)), written on the lane's bits (j / 2 =
    lane >> 4, r / 2 = (lane >> 1) & 3, r / 4 = (lane >> 2) & 1)."""
    return 0, 16 * (lane >> 4) + 4 * ((lane >> 1) & 3) + (lane & 1) + 2 * (((lane >> 3) & 1) ^ ((lane >> 2) & 1))


def s8_mn_prmt_selectors(lane):
    """(lo, hi) prmt selectors of `lane`: lo gathers its fragment row g (M 2g) from the pair of
    ldmatrix registers (matrix 2p, 2p + 1), hi row g + 8 (M 2g + 1)."""
    swap = ((lane >> 1) & 1) * S8_MN_PRMT_SWAP
    return S8_MN_PRMT_LO ^ swap, S8_MN_PRMT_HI ^ swap


def prmt(a, b, c):
    """prmt.b32 d, a, b, c (generic form; PTX ISA "prmt"): byte i of d is byte (c >> 4i) & 7 of
    the 8-byte {b, a} (a the low word), or that byte's sign replicated when bit (4i + 3) of c is
    set.  Ints or numpy arrays of unsigned 32-bit values."""
    import numpy as np

    a, b, c = (np.asarray(x, np.int64) & 0xFFFFFFFF for x in (a, b, c))
    src = a | (b << 32)
    out = np.zeros(np.broadcast(a, b, c).shape, np.int64)
    for i in range(4):
        ctl = (c >> (4 * i)) & 0xF
        byte = (src >> (8 * (ctl & 7))) & 0xFF
        byte = np.where(ctl & 8, np.where(byte & 0x80, 0xFF, 0), byte)
        out |= byte << (8 * i)
    return int(out) if out.ndim == 0 else out


# ---- thread maps for tile copies --------------------------------------------------------------
def copy_kind(access_bytes):
    """How lasscc-swizzle-smem moves one `access_bytes` global -> shared access of a multistage
    (cp.async) copy: "cg" (cp.async.cg, 16 bytes), "ca" (cp.async.ca, 4 or 8 bytes) or "sync" (1 or
    2 bytes: no cp.async exists; a predicated ld.global + st.shared, made visible by the barrier
    that precedes every read of the slot)."""
    if access_bytes == CP_ASYNC_CG_BYTES:
        return "cg"
    if access_bytes in CP_ASYNC_CA_BYTES:
        return "ca"
    if access_bytes in (1, 2):
        return "sync"
    raise ValueError(f"expected an access of 1, 2, 4, 8 or 16 bytes, got {access_bytes}")


def copy_thread_map(thread, iteration, threads, row_elems, elem_bytes, access_bytes=ACCESS_BYTES):
    """(row, k) of the first element of the `access_bytes` access made by `thread` in `iteration`.

    Consecutive threads take consecutive accesses of a row-major tile, so a warp reads contiguous
    global memory (coalesced) and, for 16-byte accesses, writes 8 chunks of each 128-byte line.
    An access of w bytes starts at a multiple of w, so it stays inside one 16-byte swizzle chunk.

    When `threads` is a multiple of the accesses per row, an iteration moves whole rows: the row
    splits into a thread part and an iteration part and the column does not depend on the
    iteration, so copy_thread_map(t, it) == copy_thread_map(t, 0) + copy_thread_map(0, it)
    (lasscc-swizzle-smem computes the thread part once).
    """
    per_row = row_elems * elem_bytes // access_bytes
    elems = access_bytes // elem_bytes
    if copy_whole_rows(threads, row_elems, elem_bytes, access_bytes):
        # (+ 0 * iteration: numpy thread and iteration arrays broadcast to one shape; folds away on Idx)
        return thread // per_row + iteration * (threads // per_row), (thread % per_row) * elems + 0 * iteration
    access = thread + iteration * threads
    return access // per_row, (access % per_row) * elems


def copy_whole_rows(threads, row_elems, elem_bytes, access_bytes=ACCESS_BYTES):
    """Whether each iteration of copy_thread_map moves whole rows (`threads` a multiple of the
    accesses per row), so that copy_thread_map(t, it) == copy_thread_map(t, 0) + copy_thread_map(0, it)."""
    return threads % (row_elems * elem_bytes // access_bytes) == 0


def tile_copy_whole_lines(threads, rows, bk, elem_bytes, major=K_MAJOR, access_bytes=ACCESS_BYTES):
    """copy_whole_rows of tile_copy_map's walk (lines of bk, or of `rows` when MN-major): then
    tile_copy_map(t, it, ...) == tile_copy_map(t, 0, ...) + tile_copy_map(0, it, ...)."""
    return copy_whole_rows(threads, rows if major == MN_MAJOR else bk, elem_bytes, access_bytes)


def tile_copy_map(thread, iteration, threads, rows, bk, elem_bytes, major=K_MAJOR, access_bytes=ACCESS_BYTES):
    """(row, k) of the first element of `thread`'s `access_bytes` access in `iteration` of a rows x
    bk operand tile; the access covers access_bytes / elem_bytes elements along k (K-major) or along
    row (MN-major).

    The tile is walked in its global order: K-major by rows of bk, MN-major by k-lines of `rows`
    (copy_thread_map of the transposed tile), so a warp reads contiguous global memory.
    """
    if major == MN_MAJOR:
        k, row = copy_thread_map(thread, iteration, threads, rows, elem_bytes, access_bytes)
        return row, k
    return copy_thread_map(thread, iteration, threads, bk, elem_bytes, access_bytes)


def copy_iterations(rows, row_elems, elem_bytes, threads, access_bytes=ACCESS_BYTES):
    """Number of `access_bytes` accesses each thread makes to copy a rows x row_elems tile."""
    accesses = rows * row_elems * elem_bytes // access_bytes
    return -(-accesses // threads)




# ---- the staged epilogue (lasscc-warp-mma) -------------------------------------------------------
def epilogue_stage_stride(warp_n, out_bytes):
    """Bytes per row of a warp's epilogue staging buffer in shared memory: the warp tile's row of D
    plus padding that keeps the accumulator-pair writes conflict-free.

    Lane 4g + t writes its pair of row g at column 2t (+ 8 per n8 block): 4 bytes for 16-bit D, one
    wavefront for the warp when the 8 rows start 4 banks apart (row words = 4 mod 8, e.g. 144 bytes
    for 64 f16); 8 bytes for 32-bit D, two wavefronts (half-warps of rows g < 4) when the rows start
    8 banks apart (288 bytes for 64 f32).  tests/unit/test_layout_formulas.py counts the wavefronts.
    """
    row = warp_n * out_bytes
    return row + (16 if out_bytes == 2 else 32)


def epilogue_read_map(lane, row_bytes):
    """(row, 16-byte chunk) that `lane` reads back from the staging buffer in the first pass; pass
    p reads rows p * 512 / row_bytes further.  `row_bytes` is a power of two from 32 to 512 (a
    row of whole 16-byte chunks; a pass is 32 lanes x 16 bytes = 512 / row_bytes rows).

    Rows of 128 bytes or more: row_bytes / 16 consecutive lanes read a row, so each quarter-warp
    reads (and then stores to D) 128 contiguous bytes.  Narrower rows (c = row_bytes / 16 < 8
    chunks): a quarter-warp serves 8 lanes at once and so reads 8 / c rows; with the padded
    stride (row words = 4 mod 8, epilogue_stage_stride) consecutive rows start 4 (mod 8) banks
    apart, so quarter-warp q takes rows c apart, (q % c) + 8 (q // c) + c i, whose starts are
    32 / (8 / c) banks apart: conflict-free, and each piece of D is still whole 32-byte sectors.
    Works on ints and on numpy arrays (power-of-two divisions).
    """
    chunks = row_bytes // ACCESS_BYTES
    if chunks >= ACCESS_LANES_PER_WAVEFRONT:
        return lane // chunks, lane % chunks
    q, i = lane // ACCESS_LANES_PER_WAVEFRONT, lane % ACCESS_LANES_PER_WAVEFRONT
    return q % chunks + ACCESS_LANES_PER_WAVEFRONT * (q // chunks) + chunks * (i // chunks), i % chunks


# ---- warps in a threadblock -------------------------------------------------------------------
def warp_tile_coord(warp, warps_m):
    """(warp_m, warp_n) of the warp tile that warp `warp` computes (lasscc-warp-mma): warps walk
    the threadblock's warp grid column-major, warp_m = warp % warps_m."""
    return warp % warps_m, warp // warps_m


# ---- an M x N matrix in global memory ---------------------------------------------------------
def matrix_offset(row, col, rows, cols, col_major=False):
    """Element offset of (row, col) in a packed `rows` x `cols` matrix: row-major row * cols + col,
    column-major (`col_major`, a compile-time bool) col * rows + row.  The kernel's D, its C, an
    [mn] epilogue operand and parallel split-K's partial sums are stored so (col_major: a row-major
    D computed transposed, config swap_ab = 1: the kernel's D^T is D's memory read column-major)."""
    return col * rows + row if col_major else row * cols + col


def matrix_coord(offset, rows, cols, col_major=False):
    """(row, col) of element `offset` of a packed `rows` x `cols` matrix: `matrix_offset` inverted."""
    return (offset % rows, offset // rows) if col_major else (offset // cols, offset % cols)


# ---- threadblock rasterization ----------------------------------------------------------------
def raster_tile(pid, tiles_m, tiles_n, group):
    """(tile_m, tile_n) of linear block id `pid` under grouped (swizzled) rasterization.

    Blocks walk down `group` tile rows at a time (column-major inside a group), so blocks running
    together share A row-panels and B column-panels in L2 (reference 002, ThreadblockSwizzle).
    """
    per_group = group * tiles_n
    first_m = pid // per_group * group
    size_m = minimum(tiles_m - first_m, group)
    in_group = pid % per_group
    return first_m + in_group % size_m, in_group // size_m


def minimum(a, b):
    """min(a, b) of ints, numpy arrays or scalars (elementwise), or IR values (lasscc.ir_math.Idx:
    arith.minui)."""
    for x, y in ((a, b), (b, a)):
        if hasattr(x, "minimum"):
            return x.minimum(y)
    if isinstance(a, int) and isinstance(b, int):
        return min(a, b)
    import numpy as np

    return np.minimum(a, b)


# ---- wavefront counting (bank conflicts) ------------------------------------------------------
def wavefronts(byte_addrs, access_bytes):
    """Wavefronts a set of simultaneous SMEM accesses needs (32 banks x 4 bytes per wavefront).

    Each access covers `access_bytes` contiguous bytes.  Distinct 4-byte words in one bank each
    need their own wavefront; the same word read by several threads is broadcast.  Accesses wider
    than 4 bytes are split by hardware into 128-byte wavefront groups first (e.g. 8 threads x 16 B).
    """
    words_per_bank: dict[int, set[int]] = {}
    for addr in byte_addrs:
        for w in range(int(addr) // 4, (int(addr) + access_bytes + 3) // 4):
            words_per_bank.setdefault(w % SMEM_BANKS, set()).add(w)
    return max((len(v) for v in words_per_bank.values()), default=0)


def ideal_wavefronts(n_accesses, access_bytes):
    """The fewest wavefronts `n_accesses` accesses of `access_bytes` each can take."""
    return max(1, -(-n_accesses * access_bytes // SMEM_WAVEFRONT_BYTES))
