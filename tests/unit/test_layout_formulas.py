"""Unit tests for the pure layout math in `lasscc/layout.py`.

Every check here is made against an encoding written out independently from the PTX ISA text
(the tables below), not by re-deriving the formulas in layout.py, so a typo in one of them shows
up as a disagreement.

PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point type" (.f16):
  A (16x16, four .f16x2 registers holding a0..a7):
      row = groupID        for a0, a1, a4, a5
            groupID + 8    for a2, a3, a6, a7
      col = threadID_in_group * 2 + (i & 1)        for a0..a3
            threadID_in_group * 2 + (i & 1) + 8    for a4..a7
  B (16x8, two .f16x2 registers holding b0..b3):
      row (k) = threadID_in_group * 2 + (i & 1)        for b0, b1
                threadID_in_group * 2 + (i & 1) + 8    for b2, b3
      col (n) = groupID
  C/D (16x8, four .f32 registers c0..c3):
      row = groupID for c0, c1;  groupID + 8 for c2, c3
      col = threadID_in_group * 2 + (i & 1)
  with groupID = laneid >> 2 and threadID_in_group = laneid % 4.  Register r holds elements
  2r (low half) and 2r + 1 (high half).

PTX ISA, "ldmatrix" (.m8n8 .x4 .b16, no .trans):
  threads 8p .. 8p+7 supply the addresses of rows 0..7 of matrix p (lane l -> matrix l // 8,
  row l % 8); destination register p of thread t receives row t // 4, columns 2*(t % 4) and
  2*(t % 4) + 1 of matrix p (low and high half).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from lasscc import layout as L

LANES = range(32)

# ---- independent PTX ISA tables ---------------------------------------------------------------


def ptx_group(lane):
    return lane >> 2


def ptx_tig(lane):
    return lane % 4


def ptx_a(lane, i):
    """(row, col) of A element a_i (i in 0..7) held by `lane`."""
    row = ptx_group(lane) if i in (0, 1, 4, 5) else ptx_group(lane) + 8
    col = ptx_tig(lane) * 2 + (i & 1) + (8 if i >= 4 else 0)
    return row, col


def ptx_b(lane, i):
    """(row = k, col = n) of B element b_i (i in 0..3) held by `lane`."""
    row = ptx_tig(lane) * 2 + (i & 1) + (8 if i >= 2 else 0)
    return row, ptx_group(lane)


def ptx_c(lane, i):
    """(row, col) of C/D element c_i (i in 0..3) held by `lane`."""
    row = ptx_group(lane) if i < 2 else ptx_group(lane) + 8
    return row, ptx_tig(lane) * 2 + (i & 1)


def ptx_ldmatrix_src(lane):
    """(matrix, row within matrix) whose address `lane` supplies in ldmatrix.x4."""
    return lane // 8, lane % 8


def ptx_ldmatrix_dst(thread, half):
    """(row, col) within each 8x8 matrix that `thread` receives in the low/high half of its register."""
    return thread // 4, 2 * (thread % 4) + half


# ---- mma.m16n8k16 fragments -------------------------------------------------------------------


@pytest.mark.parametrize("lane", LANES)
def test_mma_a_coord_matches_ptx_table(lane):
    for reg, half in itertools.product(range(4), range(2)):
        assert L.mma_a_coord(lane, reg, half) == ptx_a(lane, 2 * reg + half)


@pytest.mark.parametrize("lane", LANES)
def test_mma_b_coord_matches_ptx_table(lane):
    for reg, half in itertools.product(range(2), range(2)):
        assert L.mma_b_coord(lane, reg, half) == ptx_b(lane, 2 * reg + half)


@pytest.mark.parametrize("lane", LANES)
def test_mma_c_coord_matches_ptx_table(lane):
    for idx in range(4):
        assert L.mma_c_coord(lane, idx) == ptx_c(lane, idx)


def _assert_exact_cover(coords, shape):
    coords = list(coords)
    assert len(coords) == len(set(coords)), "an element is held twice"
    assert set(coords) == set(itertools.product(range(shape[0]), range(shape[1])))


def test_mma_a_fragment_covers_tile_once():
    assert (L.MMA_M, L.MMA_N, L.MMA_K) == (16, 8, 16)
    _assert_exact_cover(
        (L.mma_a_coord(lane, reg, half) for lane in LANES for reg in range(4) for half in range(2)),
        (L.MMA_M, L.MMA_K),
    )


def test_mma_b_fragment_covers_tile_once():
    _assert_exact_cover(
        (L.mma_b_coord(lane, reg, half) for lane in LANES for reg in range(2) for half in range(2)),
        (L.MMA_K, L.MMA_N),
    )


def test_mma_c_fragment_covers_tile_once():
    _assert_exact_cover((L.mma_c_coord(lane, idx) for lane in LANES for idx in range(4)), (L.MMA_M, L.MMA_N))


def test_mma_coords_broadcast_over_numpy():
    lanes = np.arange(32)
    rows, ks = L.mma_a_coord(lanes, 3, 1)
    assert [tuple(x) for x in zip(rows.tolist(), ks.tolist())] == [ptx_a(int(l), 7) for l in lanes]
    rows, ns = L.mma_c_coord(lanes, 2)
    assert [tuple(x) for x in zip(rows.tolist(), ns.tolist())] == [ptx_c(int(l), 2) for l in lanes]


# ---- ldmatrix ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lane", LANES)
def test_ldmatrix_dest_coord_matches_ptx(lane):
    for half in range(2):
        assert L.ldmatrix_dest_coord(lane, half) == ptx_ldmatrix_dst(lane, half)


def test_ldmatrix_dest_covers_8x8_once():
    _assert_exact_cover((L.ldmatrix_dest_coord(t, h) for t in LANES for h in range(2)), (8, 8))


def _ldmatrix_x4_delivers(lane_src, thread, reg, half):
    """(row, col) in SMEM that ldmatrix.x4 puts into `thread`'s register `reg`, half `half`,
    when lane l supplies the address of the 8-element row starting at lane_src(l)."""
    r, c = ptx_ldmatrix_dst(thread, half)
    # the lane that supplies row r of matrix `reg`
    (src_lane,) = [l for l in LANES if ptx_ldmatrix_src(l) == (reg, r)]
    row0, col0 = lane_src(src_lane)
    return row0, col0 + c


def test_ldmatrix_a_rows_are_aligned_8_element_rows():
    srcs = [L.ldmatrix_a_lane_src(lane) for lane in LANES]
    assert all(k % 8 == 0 and 0 <= k < 16 and 0 <= row < 16 for row, k in srcs)
    assert len(set(srcs)) == 32  # 4 matrices x 8 rows, each row once


def test_ldmatrix_a_composes_to_mma_a_fragment():
    """ldmatrix.x4 with the ldmatrix_a_lane_src addresses delivers exactly mma A register i."""
    for t in LANES:
        for reg, half in itertools.product(range(4), range(2)):
            assert _ldmatrix_x4_delivers(L.ldmatrix_a_lane_src, t, reg, half) == ptx_a(t, 2 * reg + half)


def test_ldmatrix_b_composes_to_mma_b_fragments_of_two_n8_blocks():
    """B stored N x K (K-major): ldmatrix rows are n, columns k.  Registers 0,1 are b-registers
    0,1 of the n-block 0..7, registers 2,3 those of the n-block 8..15."""
    srcs = [L.ldmatrix_b_lane_src(lane) for lane in LANES]
    assert all(k % 8 == 0 and 0 <= k < 16 and 0 <= n < 16 for n, k in srcs)
    assert len(set(srcs)) == 32
    for t in LANES:
        for reg, half in itertools.product(range(4), range(2)):
            n, k = _ldmatrix_x4_delivers(L.ldmatrix_b_lane_src, t, reg, half)
            block, breg = reg >> 1, reg & 1
            want_k, want_n = ptx_b(t, 2 * breg + half)
            assert (k, n) == (want_k, want_n + 8 * block)


# ---- swizzle ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 8, 16, 64, 256])
def test_swizzle_chunk_is_bijection(n):
    chunks = np.arange(8 * n)
    phys = L.swizzle_chunk(chunks)
    assert sorted(phys.tolist()) == chunks.tolist()
    # ints and arrays agree, and a chunk never leaves its 128-byte line
    assert [L.swizzle_chunk(int(c)) for c in chunks] == phys.tolist()
    assert np.array_equal(phys >> 3, chunks >> 3)


def test_swizzle_chunk_values():
    # line 0 is unchanged, line 1 swaps neighbours, line 7 reverses
    assert [L.swizzle_chunk(c) for c in range(8)] == list(range(8))
    assert [L.swizzle_chunk(8 + c) for c in range(8)] == [9, 8, 11, 10, 13, 12, 15, 14]
    assert [L.swizzle_chunk(56 + c) for c in range(8)] == [63, 62, 61, 60, 59, 58, 57, 56]
    assert L.swizzle_chunk(64) == 64  # period 8 lines


def test_swizzle_byte_offset_keeps_bytes_within_chunk():
    offs = np.arange(4096)
    phys = L.swizzle_byte_offset(offs)
    assert sorted(phys.tolist()) == offs.tolist()
    assert np.array_equal(phys & 15, offs & 15)
    assert np.array_equal(phys >> 4, L.swizzle_chunk(offs >> 4))


TILE_ROWS = [32, 64, 128, 256]
ROW_ELEMS = [16, 32, 64, 128]  # BK in f16: 32-, 64-, 128-, 256-byte rows
F16 = 2


@pytest.mark.parametrize("rows", TILE_ROWS)
@pytest.mark.parametrize("row_elems", ROW_ELEMS)
@pytest.mark.parametrize("swizzled", [True, False])
def test_kmajor_tile_offset_is_bijection(rows, row_elems, swizzled):
    r, k = np.meshgrid(np.arange(rows), np.arange(row_elems), indexing="ij")
    offs = L.kmajor_tile_offset(r, k, row_elems, F16, swizzled=swizzled)
    assert sorted(offs.ravel().tolist()) == list(range(0, rows * row_elems * F16, F16))
    # an 8-element (16-byte) k-chunk stays contiguous and 16-byte aligned: ldmatrix / cp.async ok
    chunk_start = offs[:, ::8]
    assert np.all(chunk_start % 16 == 0)
    for j in range(8):
        assert np.array_equal(offs[:, j::8], chunk_start + j * F16)


def test_kmajor_tile_offset_unswizzled_is_row_major():
    assert L.kmajor_tile_offset(3, 5, 32, F16, swizzled=False) == (3 * 32 + 5) * 2
    assert L.kmajor_tile_offset(0, 0, 64, F16) == 0


def _phase_addrs(row0, kchunk, row_elems, swizzled=True):
    """The 8 byte addresses of one ldmatrix phase: rows row0..row0+7 at k = 8 * kchunk."""
    return [L.kmajor_tile_offset(row0 + i, 8 * kchunk, row_elems, F16, swizzled=swizzled) for i in range(8)]


def _ldmatrix_phase_cases(rows, row_elems):
    for row0 in range(0, rows, 8):
        for kchunk in range(row_elems // 8):
            yield row0, kchunk


# Row widths (BK in f16) that GemmConfig.validate accepts: 32-, 64- and 128-byte rows.  256-byte rows
# (BK=128) are rejected there because Swizzle<3,4,3> is not conflict-free on them (see
# test_swizzled_256_byte_rows_conflict); tests/unit/test_config.py ties the two together.
ROW_ELEMS_CONFLICT_FREE = [16, 32, 64]


@pytest.mark.parametrize("rows", TILE_ROWS)
@pytest.mark.parametrize("row_elems", ROW_ELEMS_CONFLICT_FREE)
def test_swizzled_ldmatrix_phase_is_conflict_free(rows, row_elems):
    for row0, kchunk in _ldmatrix_phase_cases(rows, row_elems):
        addrs = _phase_addrs(row0, kchunk, row_elems)
        groups = {(a % L.SMEM_WAVEFRONT_BYTES) // 16 for a in addrs}
        assert len(groups) == 8, (row0, kchunk, addrs)
        assert L.wavefronts(addrs, 16) == 1 == L.ideal_wavefronts(8, 16), (row0, kchunk, addrs)


def test_swizzled_256_byte_rows_conflict():
    """Why GemmConfig rejects BK=128: with 256-byte rows Swizzle<3,4,3> XORs with (2*row + k//64) & 7,
    so rows r and r+4 of a phase share a 16-byte bank group: 2 wavefronts per ldmatrix phase."""
    addrs = _phase_addrs(0, 0, 128)
    assert addrs == [0, 288, 576, 864, 1024, 1312, 1600, 1888]
    assert L.wavefronts(addrs, 16) == 2
    assert max(L.wavefronts(_phase_addrs(r0, kc, 128), 16) for r0, kc in _ldmatrix_phase_cases(64, 128)) == 2


@pytest.mark.parametrize("row_elems", [32, 64])
def test_unswizzled_ldmatrix_phase_conflicts(row_elems):
    worst = max(
        L.wavefronts(_phase_addrs(row0, kchunk, row_elems, swizzled=False), 16)
        for row0, kchunk in _ldmatrix_phase_cases(64, row_elems)
    )
    assert worst > 1
    # 128-byte rows: all 8 rows hit the same bank group -> 8-way conflict
    if row_elems == 64:
        assert L.wavefronts(_phase_addrs(0, 0, 64, swizzled=False), 16) == 8
    else:
        assert L.wavefronts(_phase_addrs(0, 0, 32, swizzled=False), 16) == 4


# ---- copy thread map --------------------------------------------------------------------------

COPY_CASES = [
    # (rows, row_elems, threads)
    (32, 16, 64),
    (64, 32, 128),
    (128, 32, 128),
    (128, 32, 256),
    (256, 32, 256),
    (128, 64, 128),
    (256, 64, 256),
    (64, 64, 512),
    (128, 128, 256),
    (32, 64, 256),  # one iteration
]


@pytest.mark.parametrize("rows,row_elems,threads", COPY_CASES)
def test_copy_thread_map_covers_tile_once(rows, row_elems, threads):
    iters = L.copy_iterations(rows, row_elems, F16, threads)
    chunks = rows * row_elems * F16 // 16
    assert iters == chunks // threads
    got = [L.copy_thread_map(t, it, threads, row_elems, F16) for it in range(iters) for t in range(threads)]
    want = [(r, k) for r in range(rows) for k in range(0, row_elems, 8)]
    assert len(got) == len(set(got))
    assert set(got) == set(want)


def test_copy_iterations_rounds_up():
    assert L.copy_iterations(32, 16, F16, 128) == 1  # 64 chunks, 128 threads
    assert L.copy_iterations(128, 32, F16, 128) == 4
    assert L.copy_iterations(24, 16, F16, 32) == 2  # 48 chunks


@pytest.mark.parametrize("rows,row_elems,threads", COPY_CASES)
def test_copy_global_reads_are_coalesced(rows, row_elems, threads):
    """Consecutive threads read consecutive 16-byte chunks of the row-major tile."""
    for t in range(threads - 1):
        r0, k0 = L.copy_thread_map(t, 0, threads, row_elems, F16)
        r1, k1 = L.copy_thread_map(t + 1, 0, threads, row_elems, F16)
        assert (r1 * row_elems + k1) - (r0 * row_elems + k0) == 8


@pytest.mark.parametrize("rows,row_elems,threads", COPY_CASES)
def test_copy_swizzled_smem_writes_conflict_free(rows, row_elems, threads):
    iters = L.copy_iterations(rows, row_elems, F16, threads)
    for it in range(iters):
        for t0 in range(0, threads, 8):
            addrs = []
            for t in range(t0, t0 + 8):
                r, k = L.copy_thread_map(t, it, threads, row_elems, F16)
                addrs.append(L.kmajor_tile_offset(r, k, row_elems, F16))
            assert L.wavefronts(addrs, 16) == 1, (it, t0, addrs)


def test_copy_thread_map_numpy():
    t = np.arange(128)
    r, k = L.copy_thread_map(t, 1, 128, 32, F16)
    assert [tuple(x) for x in zip(r.tolist(), k.tolist())] == [
        L.copy_thread_map(int(i), 1, 128, 32, F16) for i in t
    ]


# ---- raster_tile ------------------------------------------------------------------------------

RASTER_CASES = [
    (1, 1, 1),
    (8, 8, 8),
    (8, 8, 4),
    (7, 5, 3),
    (10, 3, 4),
    (13, 17, 8),
    (5, 9, 8),  # group larger than tiles_m
    (16, 1, 8),
    (1, 16, 8),
    (9, 9, 1),
    (33, 7, 6),
]


@pytest.mark.parametrize("tm,tn,group", RASTER_CASES)
def test_raster_tile_is_bijection(tm, tn, group):
    got = [L.raster_tile(pid, tm, tn, group) for pid in range(tm * tn)]
    assert all(isinstance(m, int) and isinstance(n, int) for m, n in got)
    assert sorted(got) == [(m, n) for m in range(tm) for n in range(tn)]


@pytest.mark.parametrize("tm,tn,group", RASTER_CASES)
def test_raster_tile_numpy_matches_int(tm, tn, group):
    pids = np.arange(tm * tn)
    m, n = L.raster_tile(pids, tm, tn, group)
    assert isinstance(m, np.ndarray) and isinstance(n, np.ndarray)
    assert [tuple(x) for x in zip(m.tolist(), n.tolist())] == [L.raster_tile(int(p), tm, tn, group) for p in pids]


def test_raster_tile_walks_down_group_rows_first():
    # consecutive pids walk down `group` tile rows (column-major inside a group)
    assert [L.raster_tile(p, 8, 8, 4) for p in range(6)] == [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (1, 1)]
    # second group starts at tile row 4
    assert L.raster_tile(32, 8, 8, 4) == (4, 0)
    # group 1: one tile row at a time, walking n (plain row-major order)
    assert [L.raster_tile(p, 3, 4, 1) for p in range(5)] == [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0)]
    # last, short group (7 rows, group 3: rows 6..6)
    assert [L.raster_tile(p, 7, 5, 3) for p in range(30, 35)] == [(6, n) for n in range(5)]


def test_raster_tile_numpy_scalar_pid():
    m, n = L.raster_tile(np.int64(33), 7, 5, 3)
    assert (int(m), int(n)) == L.raster_tile(33, 7, 5, 3)


# ---- wavefront counting -----------------------------------------------------------------------


def test_wavefronts_sanity():
    # 32 threads x 4 consecutive bytes: one wavefront
    assert L.wavefronts([4 * t for t in range(32)], 4) == 1
    # everyone reads the same word: broadcast
    assert L.wavefronts([0] * 32, 4) == 1
    assert L.wavefronts([64] * 8, 16) == 1
    # stride 128 bytes: all in bank 0, 32 distinct words
    assert L.wavefronts([128 * t for t in range(32)], 4) == 32
    # stride 8 bytes: 2-way conflict
    assert L.wavefronts([8 * t for t in range(32)], 4) == 2
    # 8 x 16 B contiguous: one 128-byte wavefront; 32 x 16 B contiguous: 4
    assert L.wavefronts([16 * t for t in range(8)], 16) == 1
    assert L.wavefronts([16 * t for t in range(32)], 16) == 4
    # two 16-byte accesses 128 bytes apart share banks
    assert L.wavefronts([0, 128], 16) == 2
    # an unaligned 4-byte access touches two words
    assert L.wavefronts([2, 130], 4) == 2
    # numpy input works
    assert L.wavefronts(np.arange(8) * 16, 16) == 1
    assert L.wavefronts([], 16) == 0


def test_ideal_wavefronts():
    assert L.ideal_wavefronts(32, 4) == 1
    assert L.ideal_wavefronts(8, 16) == 1
    assert L.ideal_wavefronts(32, 16) == 4
    assert L.ideal_wavefronts(32, 8) == 2
    assert L.ideal_wavefronts(1, 4) == 1
    assert L.ideal_wavefronts(9, 16) == 2


def test_wavefronts_never_below_ideal():
    rng = np.random.default_rng(0)
    for _ in range(200):
        n = int(rng.integers(1, 33))
        size = int(rng.choice([4, 8, 16]))
        addrs = (rng.integers(0, 512, size=n) * size).tolist()
        distinct = len(set(addrs))
        assert L.wavefronts(addrs, size) >= L.ideal_wavefronts(distinct, size)


def test_hardware_constants():
    assert L.WARP_SIZE == 32
    assert L.SMEM_WAVEFRONT_BYTES == 128
    assert L.ACCESS_BYTES == 16
    assert (L.SWIZZLE_BITS, L.SWIZZLE_BASE, L.SWIZZLE_SHIFT) == (3, 4, 3)


def test_swizzle_general_form_matches_the_fixed_one():
    import numpy as np

    from lasscc.layout import swizzle, swizzle_byte_offset, swizzle_chunk

    x = np.arange(1 << 12)
    assert np.array_equal(swizzle(x), swizzle_byte_offset(x))
    assert np.array_equal(swizzle(x, base=0), swizzle_chunk(x))
    assert sorted(swizzle(x, 2, 4, 3)) == list(x)  # any Swizzle<B,M,S> with S >= B is a bijection


def test_warp_tile_coord_covers_the_warp_grid():
    from lasscc.layout import warp_tile_coord

    assert sorted(warp_tile_coord(w, 2) for w in range(8)) == [(m, n) for m in range(2) for n in range(4)]
    assert warp_tile_coord(3, 2) == (1, 1)


# ---- swizzle_offset_split: constants out of the swizzle ------------------------------------------
@pytest.mark.parametrize("row_bytes", [32, 64, 128, 256, 512])
def test_swizzle_offset_split_exact(row_bytes):
    """(swizzle(x) ^ xor_c) + add_c == swizzle(x + k_const + row_const * row_bytes) for every lane
    offset x an ldmatrix row address can have (row any, k part 0 or 16 bytes)."""
    from lasscc.layout import swizzle, swizzle_offset_split

    rows = np.arange(0, 64)[:, None]
    lane_k = np.array([0, 16])[None, :]
    x = rows * row_bytes + lane_k
    checked = 0
    for row_const in range(0, 130, 2):
        for k_const in range(0, row_bytes, 16):
            split = swizzle_offset_split(row_const, k_const, row_bytes, 16)
            if split is None:
                continue
            xor_c, add_c = split
            want = swizzle(x + k_const + row_const * row_bytes)
            assert np.array_equal((swizzle(x) ^ xor_c) + add_c, want), (row_const, k_const)
            checked += 1
    assert checked > 0


def test_swizzle_offset_split_refuses_inexact():
    from lasscc.layout import swizzle_offset_split

    assert swizzle_offset_split(0, 16, 64, 16) is None  # k constant overlaps the lane's 16-byte offset
    assert swizzle_offset_split(1, 0, 64, 16) is None  # 64 bytes: not a multiple of the 1024-byte period
    assert swizzle_offset_split(0, 0, 96, 16) is None  # rows not a power of two bytes
    assert swizzle_offset_split(0, 64, 64, 16) is None  # constant leaves the row
    assert swizzle_offset_split(16, 32, 64, 16) == (32, 1024)
    assert swizzle_offset_split(0, 128, 256, 16) == (128 ^ (1 << 4), 0)  # bit 7 also moves the XOR source
# ---- MN-major ("congruous") tiles and ldmatrix .trans -----------------------------------------
# PTX ISA, "ldmatrix": "Optional qualifier .trans indicates that the matrix is loaded in
# column-major format": the addresses are those of the stored rows as without .trans, and thread t
# receives the elements of the TRANSPOSED 8x8 matrix at the non-.trans positions, i.e. stored row
# 2*(t % 4) + half, column t // 4.


def ptx_ldmatrix_trans_dst(thread, half):
    """(stored row, stored col) of the 8x8 matrix that `thread` receives in `half` with .trans."""
    r, c = ptx_ldmatrix_dst(thread, half)
    return c, r


def _ldmatrix_x4_trans_delivers(lane_src, thread, reg, half):
    """(row, k) of the MN-major tile that ldmatrix.x4.trans puts into `thread`'s register `reg`,
    half `half`, when lane l supplies the address of the 8 contiguous elements (row0..row0+7, k)
    at lane_src(l): stored row = k line, stored column = row (M or N) offset."""
    line, col = ptx_ldmatrix_trans_dst(thread, half)
    (src_lane,) = [l for l in LANES if ptx_ldmatrix_src(l) == (reg, line)]
    row0, k = lane_src(src_lane)
    return row0 + col, k


@pytest.mark.parametrize("lane", LANES)
def test_ldmatrix_trans_dest_coord_matches_ptx(lane):
    for half in range(2):
        assert L.ldmatrix_trans_dest_coord(lane, half) == ptx_ldmatrix_trans_dst(lane, half)


def test_ldmatrix_a_trans_composes_to_mma_a_fragment():
    """A stored M-major (k-lines of 8 contiguous m): .trans delivers exactly mma A register i."""
    srcs = [L.ldmatrix_a_trans_lane_src(lane) for lane in LANES]
    assert all(row % 8 == 0 and 0 <= row < 16 and 0 <= k < 16 for row, k in srcs)
    assert len(set(srcs)) == 32
    for t in LANES:
        for reg, half in itertools.product(range(4), range(2)):
            assert _ldmatrix_x4_trans_delivers(L.ldmatrix_a_trans_lane_src, t, reg, half) == ptx_a(t, 2 * reg + half)


def test_ldmatrix_b_trans_composes_to_mma_b_fragments_of_two_n8_blocks():
    srcs = [L.ldmatrix_b_trans_lane_src(lane) for lane in LANES]
    assert all(n % 8 == 0 and 0 <= n < 16 and 0 <= k < 16 for n, k in srcs)
    assert len(set(srcs)) == 32
    for t in LANES:
        for reg, half in itertools.product(range(4), range(2)):
            n, k = _ldmatrix_x4_trans_delivers(L.ldmatrix_b_trans_lane_src, t, reg, half)
            block, breg = reg >> 1, reg & 1
            want_k, want_n = ptx_b(t, 2 * breg + half)
            assert (k, n) == (want_k, want_n + 8 * block)


MN_ROWS = [16, 32, 48, 64, 96, 128, 256]  # BM / BN values (f16); BK below


@pytest.mark.parametrize("rows", MN_ROWS)
@pytest.mark.parametrize("bk", [16, 32, 64])
@pytest.mark.parametrize("swizzled", [False, True])
def test_mnmajor_tile_offset_is_bijection_in_16_byte_runs(rows, bk, swizzled):
    r, k = np.meshgrid(np.arange(rows), np.arange(bk), indexing="ij")
    off = L.mnmajor_tile_offset(r, k, rows, bk, F16, swizzled)
    assert sorted(off.reshape(-1).tolist()) == list(range(0, rows * bk * F16, F16))
    # 8 elements (r0..r0+7, k) with r0 % 8 == 0 stay one contiguous 16-byte chunk (one access)
    inner = np.arange(rows - 1) % 8 != 7
    assert np.all((off[1:] - off[:-1])[inner] == F16)
    assert np.all(off[::8, :] % 16 == 0)


def test_mnmajor_tile_offset_unswizzled_layout():
    # 128 x 32 tile: two 64-wide atoms of 32 lines of 128 bytes; 32 x 32: one atom, 64-byte lines
    assert L.mnmajor_tile_offset(0, 1, 128, 32, F16, False) == 128
    assert L.mnmajor_tile_offset(64, 0, 128, 32, F16, False) == 32 * 128
    assert L.mnmajor_tile_offset(65, 2, 128, 32, F16, False) == 32 * 128 + 2 * 128 + 2
    assert L.mnmajor_tile_offset(3, 1, 32, 32, F16, False) == 64 + 6
    assert L.tile_offset(3, 5, 128, 32, F16, L.K_MAJOR) == L.kmajor_tile_offset(3, 5, 32, F16)
    assert L.tile_offset(3, 5, 128, 32, F16, L.MN_MAJOR) == L.mnmajor_tile_offset(3, 5, 128, 32, F16)


def _trans_phase_addrs(row0, k0, rows, bk, swizzled=True):
    """One ldmatrix.trans phase: k-lines k0..k0+7 at rows row0..row0+7."""
    return [L.mnmajor_tile_offset(row0, k0 + i, rows, bk, F16, swizzled) for i in range(8)]


@pytest.mark.parametrize("rows", MN_ROWS)
@pytest.mark.parametrize("bk", [16, 32, 64])
def test_swizzled_ldmatrix_trans_phase_is_conflict_free(rows, bk):
    for row0 in range(0, rows, 8):
        for k0 in range(0, bk, 8):
            addrs = _trans_phase_addrs(row0, k0, rows, bk)
            assert L.wavefronts(addrs, 16) == 1, (row0, k0, addrs)


def test_unswizzled_ldmatrix_trans_phase_conflicts():
    assert L.wavefronts(_trans_phase_addrs(0, 0, 128, 32, swizzled=False), 16) == 8


def test_one_256_byte_line_per_k_would_conflict():
    """Why MN-major atoms are 128 bytes wide: lines of 256 bytes (all 128 rows of a BM = 128 tile)
    put k-lines k and k+4 of a phase in one bank group under Swizzle<3,4,3>: 2 wavefronts."""
    addrs = [L.swizzle_byte_offset((k * 128) * F16) for k in range(8)]
    assert L.wavefronts(addrs, 16) == 2


MN_COPY_CASES = [(rows, bk, threads) for rows, bk, threads in COPY_CASES if rows in MN_ROWS] + [(32, 32, 128)]


@pytest.mark.parametrize("rows,bk,threads", MN_COPY_CASES)
def test_mnmajor_copy_map_covers_coalesces_and_is_conflict_free(rows, bk, threads):
    iters = L.copy_iterations(rows, bk, F16, threads)
    got = [L.tile_copy_map(t, it, threads, rows, bk, F16, L.MN_MAJOR) for it in range(iters) for t in range(threads)]
    got = [g for g in got if g[1] < bk]  # a last partial iteration
    assert sorted(got) == sorted((r, k) for r in range(0, rows, 8) for k in range(bk))
    for it in range(iters):
        pts = [L.tile_copy_map(t, it, threads, rows, bk, F16, L.MN_MAJOR) for t in range(threads)]
        # global (column-major: element (r, k) at k * ld + r): consecutive threads, consecutive chunks
        for (r0, k0), (r1, k1) in zip(pts, pts[1:]):
            assert (k1 == k0 and r1 == r0 + 8) or (k1 == k0 + 1 and r1 == 0)
        for t0 in range(0, threads, 8):
            addrs = [L.mnmajor_tile_offset(r, k, rows, bk, F16) for r, k in pts[t0:t0 + 8] if k < bk]
            assert L.wavefronts(addrs, 16) == 1, (it, t0, addrs)


def test_tile_copy_map_kmajor_is_copy_thread_map():
    assert L.tile_copy_map(37, 2, 128, 128, 32, F16) == L.copy_thread_map(37, 2, 128, 32, F16)


# ---- the staged epilogue -------------------------------------------------------------------------
def _conflicting_wavefronts(addrs, width):
    """Extra wavefronts of one shared-memory access of `width` bytes per lane at byte `addrs`
    (lanes in order): lanes are served 128 // width at a time; within such a group two different
    4-byte words in one bank cost one more wavefront each."""
    per = max(1, L.SMEM_WAVEFRONT_BYTES // width)
    extra = 0
    for g0 in range(0, len(addrs), per):
        words = {a // 4 + i for a in addrs[g0:g0 + per] for i in range(max(1, width // 4))}
        banks = [w % L.SMEM_BANKS for w in words]
        extra += max(banks.count(b) for b in set(banks)) - 1
    return extra


@pytest.mark.parametrize("warp_n", [16, 32, 64, 128])
@pytest.mark.parametrize("out_bytes", [2, 4])
def test_epilogue_stage_pair_writes_are_conflict_free(warp_n, out_bytes):
    """Lane 4g + t writes the pair of row g (and g + 8), column 2t + 8 n: each such write of the
    warp takes the ideal wavefronts with the padded stride."""
    stride = L.epilogue_stage_stride(warp_n, out_bytes)
    assert stride >= warp_n * out_bytes and stride % 16 == 0
    for h in (0, 8):
        for n in range(warp_n // 8):
            addrs = [(l // 4 + h) * stride + (2 * (l % 4) + 8 * n) * out_bytes for l in range(32)]
            assert _conflicting_wavefronts(addrs, 2 * out_bytes) == 0, (h, n, addrs)
    # unpadded rows would conflict (why the padding exists)
    flat = [(l // 4) * warp_n * out_bytes + 2 * (l % 4) * out_bytes for l in range(32)]
    assert warp_n * out_bytes % 128 or _conflicting_wavefronts(flat, 2 * out_bytes) > 0


@pytest.mark.parametrize("row_bytes", [32, 64, 128, 256, 512])
def test_epilogue_read_map_reads_whole_sectors_without_conflicts(row_bytes):
    """A pass covers 512 / row_bytes rows, every chunk once; with the padded stride of 16-bit D the
    reads are conflict-free.  Each quarter-warp reads 128 bytes made of whole rows (narrow rows) or
    128 contiguous bytes of one row, so its stores to D are whole 32-byte sectors."""
    stride = L.epilogue_stage_stride(row_bytes // 2, 2)
    seen = {L.epilogue_read_map(lane, row_bytes) for lane in range(32)}
    assert seen == {(r, c) for r in range(512 // row_bytes) for c in range(row_bytes // 16)}
    addrs = [L.epilogue_read_map(l, row_bytes)[0] * stride + 16 * L.epilogue_read_map(l, row_bytes)[1] for l in range(32)]
    assert _conflicting_wavefronts(addrs, 16) == 0, addrs
    for q in range(4):
        pieces = [L.epilogue_read_map(l, row_bytes) for l in range(8 * q, 8 * q + 8)]
        rows = {r for r, _ in pieces}
        assert len(rows) == max(1, 128 // row_bytes)
        for r in rows:
            cols = sorted(c for rr, c in pieces if rr == r)
            assert cols == list(range(cols[0], cols[0] + len(cols))) and len(cols) * 16 >= 32
    # the natural map (consecutive lanes, consecutive chunks) conflicts on narrow rows: why it exists
    natural = [(l // (row_bytes // 16)) * stride + 16 * (l % (row_bytes // 16)) for l in range(32)]
    assert row_bytes >= 128 or _conflicting_wavefronts(natural, 16) > 0


def test_epilogue_read_map_takes_numpy_lanes():
    lanes = np.arange(32)
    r, c = L.epilogue_read_map(lanes, 64)
    assert list(zip(r.tolist(), c.tolist())) == [L.epilogue_read_map(int(l), 64) for l in lanes]
