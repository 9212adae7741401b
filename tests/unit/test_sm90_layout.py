"""lasscc.sm90_layout: the Hopper swizzle modes, TMA box placement, wgmma descriptors and fragments.

The round trips land tiles with the TMA model (`tma_box_bytes`) and read them back with the wgmma
model (`read_operand`), which decodes the descriptor's fields by the ISA's core-matrix rules; the
planted-bug tests show that a wrong start address, LBO, SBO or swizzle mode reads a different
matrix, so the CPU executor catches such a descriptor.  Fragment maps are checked against CuTe's
(thread, value) layouts written out independently here (CLayout_64xN, ALayout_64x8/16/32).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from lasscc import layout as L
from lasscc import sm90_layout as H
from lasscc.sm90_layout import K_MAJOR, MN_MAJOR, MatrixDescriptor, SwizzleMode

MODES = list(SwizzleMode)
SWIZZLED = [SwizzleMode.B128, SwizzleMode.B64, SwizzleMode.B32]
# element type under test -> numpy dtype (bf16 as its uint16 pattern, tf32 in f32 containers)
TYPES = {"f16": np.float16, "bf16": np.uint16, "tf32": np.float32, "s8": np.int8}
SMEM_BYTES = 96 * 1024
TILE_BASE = 2048  # pattern-aligned for every mode


def _random(shape, dtype, rng):
    if np.dtype(dtype).kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, endpoint=True).astype(dtype)


def land_tile(global_tensor, origin, rows, k_elems, major, mode, base=TILE_BASE, smem=None):
    """Shared memory after the TMA boxes of `H.tile_boxes` landed the tile at `origin` (tensor-map
    order) of `global_tensor` at `base`."""
    smem = np.zeros(SMEM_BYTES, np.uint8) if smem is None else smem
    eb = global_tensor.dtype.itemsize
    for box, (c0, c1), off in H.tile_boxes(rows, k_elems, eb, major, mode):
        dst = base + off
        assert H.tma_smem_align_error(dst, mode) is None
        data = H.tma_box_bytes(global_tensor, (origin[0] + c0, origin[1] + c1), box, mode)
        smem[dst:dst + data.size] = data
    return smem


def logical_tile(global_tensor, origin, rows, k_elems, major):
    """The rows x K operand tile (zero outside the tensor) the boxes at `origin` cover."""
    if major == K_MAJOR:  # global: rows x K, K innermost; origin = (k0, row0)
        k0, r0 = origin
        g = global_tensor
    else:  # global: K x rows, rows innermost; origin = (row0, k0)
        r0, k0 = origin
        g = global_tensor.T
    out = np.zeros((rows, k_elems), global_tensor.dtype)
    for r, k in itertools.product(range(rows), range(k_elems)):
        if 0 <= r0 + r < g.shape[0] and 0 <= k0 + k < g.shape[1]:
            out[r, k] = g[r0 + r, k0 + k]
    return out


def _cases():
    for t, mode, major in itertools.product(TYPES, MODES, (K_MAJOR, MN_MAJOR)):
        if major == MN_MAJOR and np.dtype(TYPES[t]).itemsize != 2:
            continue
        yield t, mode, major


# ---- the swizzle --------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_swizzle_is_cute_swizzle_b43(mode):
    x = np.arange(8192, dtype=np.int64)
    b = {SwizzleMode.NONE: 0, SwizzleMode.B32: 1, SwizzleMode.B64: 2, SwizzleMode.B128: 3}[mode]
    assert np.array_equal(H.swizzle(x, mode), x ^ (((x >> 7) & ((1 << b) - 1)) << 4))
    # a permutation of every pattern period that keeps 16-byte chunks whole
    for a in range(0, 8192, mode.atom_bytes):
        blk = H.swizzle(x[a:a + mode.atom_bytes], mode)
        assert sorted(blk.tolist()) == list(range(a, a + mode.atom_bytes))
    assert np.array_equal(H.swizzle(x, mode) % 16, x % 16)
    assert mode.width_bytes == {0: 16, 1: 128, 2: 64, 3: 32}[int(mode)]
    assert mode.tensor_map_enum == {0: 0, 1: 3, 2: 2, 3: 1}[int(mode)]  # CU_TENSOR_MAP_SWIZZLE_*


def test_swizzle_128b_is_the_sm80_swizzle():
    x = np.arange(4096)
    assert np.array_equal(H.swizzle(x, SwizzleMode.B128), L.swizzle_byte_offset(x))


# ---- TMA ----------------------------------------------------------------------------------------
def test_tma_box_swizzles_each_line():
    g = np.arange(16 * 64, dtype=np.uint16).reshape(16, 64)  # 16 lines of 128 bytes
    out = H.tma_box_bytes(g, (0, 0), (64, 16), SwizzleMode.B128)
    words = out.view(np.uint16).reshape(16, 64)
    for line in range(16):
        for chunk in range(8):  # chunk c of line r lands at chunk c ^ (r % 8) of the same line
            phys = chunk ^ (line % 8)
            assert np.array_equal(words[line, phys * 8:phys * 8 + 8], g[line, chunk * 8:chunk * 8 + 8])
    plain = H.tma_box_bytes(g, (0, 0), (64, 16), SwizzleMode.NONE)
    assert np.array_equal(plain.view(np.uint16).reshape(16, 64), g)


def test_tma_box_out_of_bounds_is_zero():
    rng = np.random.default_rng(1)
    g = _random((20, 40), np.float16, rng)  # dims: 40 inner, 20 outer
    for coords in ((-8, -3), (32, 15), (-64, 0), (0, 20), (16, -30)):
        out = H.tma_box_bytes(g, coords, (16, 8), SwizzleMode.B32)
        unswizzled = np.empty_like(out)
        unswizzled[:] = out[H.swizzle(np.arange(out.size), SwizzleMode.B32)]
        box = unswizzled.view(np.float16).reshape(8, 16)
        for j, e in itertools.product(range(8), range(16)):
            r, c = coords[1] + j, coords[0] + e
            inside = 0 <= r < 20 and 0 <= c < 40
            assert box[j, e] == (g[r, c] if inside else 0)


@pytest.mark.parametrize("mode", MODES)
def test_tma_store_inverts_load(mode):
    rng = np.random.default_rng(int(mode))
    g = _random((24, 80), np.float16, rng)
    box = (mode.width_bytes // 2, 16)
    for coords in ((0, 0), (72, 20), (-4, -8)):
        data = H.tma_box_bytes(g, coords, box, mode)
        out = np.full_like(g, np.nan)
        H.tma_box_store(out, data, coords, box, mode)
        c0, c1 = coords
        inside = np.zeros(g.shape, bool)
        inside[max(c1, 0):c1 + box[1], max(c0, 0):c0 + box[0]] = True
        assert np.array_equal(out[inside], g[inside]) and np.isnan(out[~inside]).all()
    with pytest.raises(ValueError, match="bytes, got"):
        H.tma_box_store(g, data[:-2], (0, 0), box, mode)


@pytest.mark.parametrize("box,eb,mode,msg", [
    ((128, 8), 2, SwizzleMode.B128, "at most 128 bytes"),
    ((32, 8), 4, SwizzleMode.B64, "at most 64 bytes"),
    ((4, 8), 2, SwizzleMode.NONE, "multiple of 16"),
    ((8, 257), 2, SwizzleMode.B32, "1..256"),
    ((0, 8), 2, SwizzleMode.NONE, "1..256"),
])
def test_tma_box_rules(box, eb, mode, msg):
    err = H.tma_box_error(box, eb, mode)
    assert err and msg in err
    with pytest.raises(ValueError, match=msg.replace(".", r"\.")):
        H.tma_box_bytes(np.zeros((300, 300), np.dtype(f"u{eb}")), (0, 0), box, mode)


def test_tma_box_rules_accept_the_span():
    assert H.tma_box_error((64, 256), 2, SwizzleMode.B128) is None
    assert H.tma_box_error((8, 1), 2, SwizzleMode.NONE) is None
    assert H.tma_box_error((256, 4), 1, SwizzleMode.NONE) is None


def test_tma_alignment_and_global_rules():
    assert [H.tma_smem_align(m) for m in MODES] == [128, 1024, 512, 256]
    assert H.tma_smem_align_error(1024 * 5, SwizzleMode.B128) is None
    assert "1024-byte aligned" in H.tma_smem_align_error(1024 + 512, SwizzleMode.B128)
    assert H.tma_smem_align_error(512, SwizzleMode.B64) is None
    assert "128-byte aligned" in H.tma_smem_align_error(64, SwizzleMode.NONE)
    assert H.tma_global_error((100, 7), 208, 2) is None
    assert "multiple of 16" in H.tma_global_error((100, 7), 200, 2)
    assert "16-byte aligned" in H.tma_global_error((100, 7), 208, 2, base_addr=8)
    assert "less than a line" in H.tma_global_error((100, 7), 192, 2)


# ---- round trips: TMA places, wgmma reads back ------------------------------------------------
@pytest.mark.parametrize("t,mode,major", list(_cases()))
def test_round_trip(t, mode, major):
    """A 128 x (2 wgmma K) tile (128 rows: two m64 A slices or an N = 128 B) landed from inside a
    larger tensor reads back exactly, for every row slice and K step."""
    dtype = TYPES[t]
    eb = np.dtype(dtype).itemsize
    wk = H.WGMMA_K_BYTES // eb
    rows = 128
    k_elems = max(2 * wk, mode.width_bytes // eb) if major == K_MAJOR else 2 * wk
    rng = np.random.default_rng(hash((t, int(mode), major)) & 0xFFFF)
    if major == K_MAJOR:
        g = _random((rows + 24, k_elems + 3 * wk), dtype, rng)
        origin = (wk, 16)
    else:
        g = _random((k_elems + 40, rows + 64), dtype, rng)
        origin = (64, 8)
    smem = land_tile(g, origin, rows, k_elems, major, mode)
    tile = logical_tile(g, origin, rows, k_elems, major)
    boxes = H.tile_boxes(rows, k_elems, eb, major, mode)
    assert sum(b[0] * b[1] * eb for b, _, _ in boxes) == H.tile_tx_bytes(rows, k_elems, eb)
    assert max(off for _, _, off in boxes) + boxes[0][0][0] * boxes[0][0][1] * eb == H.tile_tx_bytes(rows, k_elems, eb)
    for n_read, row_offset in ((64, 0), (64, 64), (128, 0)):
        for k_off in range(0, k_elems, wk):
            d = H.tile_descriptor(TILE_BASE, rows, k_elems, eb, major, mode, k_offset=k_off, row_offset=row_offset)
            got = H.read_operand(smem, d.encode(), n_read, wk, dtype, H.TRANS_BIT[major])
            want = tile[row_offset:row_offset + n_read, k_off:k_off + wk]
            assert np.array_equal(got.view(np.uint8), want.view(np.uint8)), (n_read, row_offset, k_off)


def test_round_trip_out_of_bounds_tile():
    """A tile hanging over the tensor's edges reads back with zeros there."""
    rng = np.random.default_rng(7)
    g = _random((40, 50), np.float16, rng)  # 40 rows x 50 K (K-major), ragged edges
    smem = land_tile(g, (32, 16), 64, 64, K_MAJOR, SwizzleMode.B128)
    tile = logical_tile(g, (32, 16), 64, 64, K_MAJOR)
    assert (tile[24:] == 0).all() and (tile[:, 18:] == 0).all() and (tile[:24, :18] != 0).any()
    for k_off in range(0, 64, 16):
        d = H.tile_descriptor(TILE_BASE, 64, 64, 2, K_MAJOR, SwizzleMode.B128, k_offset=k_off)
        assert np.array_equal(H.read_operand(smem, d, 64, 16, np.float16, 0), tile[:, k_off:k_off + 16])


# ---- descriptor encoding ----------------------------------------------------------------------
def test_descriptor_bit_positions():
    d = MatrixDescriptor(0x3FFF0, 0x3FFF0, 0x3FFF0, 7, SwizzleMode.B32)
    assert d.encode() == (0x3FFF | 0x3FFF << 16 | 0x3FFF << 32 | 7 << 49 | 3 << 62)
    for field, bit in (("start_address", 0), ("leading_byte_offset", 16), ("stride_byte_offset", 32)):
        one = MatrixDescriptor(**{**dict(start_address=0, leading_byte_offset=0, stride_byte_offset=0), field: 16})
        assert one.encode() == 1 << bit
    assert MatrixDescriptor(0, 0, 0, 1).encode() == 1 << 49
    assert [MatrixDescriptor(0, 0, 0, 0, m).encode() >> 62 for m in MODES] == [0, 1, 2, 3]


def test_descriptor_known_values():
    """64-bit values derived from CUTLASS (include/cute/atom/mma_traits_sm90_gmma.hpp make_gmma_desc
    and include/cute/arch/mma_sm90_desc.hpp GmmaDescriptor, LayoutType B128 = 1):

    * K-major SW128 f16, Layout_K_SW128_Atom<half_t> tiled to 128 x 64 at smem 0x400:
      ((8,16),(8,2)):((8,SBO),(1,T)) in uint128 -> layout_type 1, start 0x400 >> 4 = 0x40,
      LBO = stride_10 = 1 ("assumed 1"), SBO = stride_01 = 64 (8 lines x 128 B / 16)
      = 0x4000004000010040; the next k16 block is 32 B on (DescriptorIterator adds 2).  The same
      fields (layout 1, LBO 1, SBO 64) are a public Hopper GEMM's hand-written descriptor
      (KnowingNothing/MatmulTutorial matmul-pingpong-v1.cu, quoted in its issue #10).
    * K-major INTERLEAVE f16, Layout_K_INTER_Atom (8 x 16 B core matrices) tiled to 64 x 16 at
      0x800: ((8,8),(T,2)):((1T,SBO),(1,LBO)) -> SBO = 8 (128 B), LBO = 64 (1024 B), layout 0.
    * MN-major SW128 f16, two 64-wide atoms along N of 64 K lines at 0x2000: B128 MN
      ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO)) -> LBO = 64 x 128 B / 16 = 512, SBO = 1024 / 16 = 64.
    """
    k128 = H.tile_descriptor(0x400, 128, 64, 2, K_MAJOR, SwizzleMode.B128)
    assert k128.encode() == 0x4000004000010040
    assert H.tile_descriptor(0x400, 128, 64, 2, K_MAJOR, SwizzleMode.B128, k_offset=16).encode() == 0x4000004000010042
    assert H.tile_descriptor(0x400, 128, 64, 2, K_MAJOR, SwizzleMode.B128, k_offset=48).encode() == 0x4000004000010046
    assert H.tile_descriptor(0x400, 128, 64, 2, K_MAJOR, SwizzleMode.B128, row_offset=64).encode() == 0x4000004000010240
    inter = H.tile_descriptor(0x800, 64, 16, 2, K_MAJOR, SwizzleMode.NONE)
    assert inter.encode() == (8 << 32) | (64 << 16) | (0x800 >> 4) == 0x0000000800400080
    mn = H.tile_descriptor(0x2000, 128, 64, 2, MN_MAJOR, SwizzleMode.B128)
    assert mn.encode() == (1 << 62) | (64 << 32) | (512 << 16) | (0x2000 >> 4) == 0x4000004002000200
    assert H.tile_descriptor(0x2000, 128, 64, 2, MN_MAJOR, SwizzleMode.B128, k_offset=16).encode() == mn.encode() + 0x80


def test_descriptor_decode_round_trip():
    rng = np.random.default_rng(3)
    for _ in range(200):
        d = MatrixDescriptor(int(rng.integers(0, 1 << 14)) * 16, int(rng.integers(0, 1 << 14)) * 16,
                             int(rng.integers(0, 1 << 14)) * 16, int(rng.integers(0, 8)),
                             SwizzleMode(int(rng.integers(0, 4))))
        assert MatrixDescriptor.decode(d.encode()) == d
    assert "multiple of 16" in MatrixDescriptor(8, 16, 16).error()
    with pytest.raises(ValueError, match="base_offset"):
        MatrixDescriptor(0, 16, 16, 8).encode()
    rows = dict((f, v) for f, _, v in H.tile_descriptor(0x400, 128, 64, 2, K_MAJOR, SwizzleMode.B128).describe())
    assert rows["stride byte offset"] == "1024 B (field 64)" and rows["swizzle mode"] == "1 (128B)"
    assert rows["start address"] == "0x400 (field 0x40)"


def test_descriptor_low_word_in_ir():
    """tile_descriptor on an Idx base writes the low word's formula into IR; its value matches."""
    from test_ir_math import emitted

    def low(base):
        return H.tile_descriptor(base, 128, 64, 2, K_MAJOR, SwizzleMode.B128, k_offset=32).words()[0]

    bases = np.arange(0, 200 * 1024, 1024)
    (vals,), n_ops = emitted(low, 1, bases)
    assert list(vals) == [low(int(b)) for b in bases]
    assert n_ops <= 8
    hi = H.tile_descriptor(0, 128, 64, 2, K_MAJOR, SwizzleMode.B128).words()[1]
    assert isinstance(hi, int) and hi == 0x40000040


def test_formulas_in_ir():
    """The formulas a pass writes into IR (thread id, addresses as Idx) compute what they compute on ints."""
    from test_ir_math import emitted

    threads = np.arange(128)
    for v in (0, 1, 2, 3, 5, 62):
        (r, c), _ = emitted(lambda t, v=v: H.acc_coord(t, v), 1, threads)
        assert [(int(a), int(b)) for a, b in zip(r, c)] == [H.acc_coord(int(t), v) for t in threads]
    for eb, reg, part in ((2, 3, 1), (4, 2, 0), (1, 1, 3)):
        (r, k), _ = emitted(lambda t, eb=eb, reg=reg, part=part: H.a_frag_coord(t, reg, part, eb), 1, threads)
        assert [(int(a), int(b)) for a, b in zip(r, k)] == [H.a_frag_coord(int(t), reg, part, eb) for t in threads]
    addrs = np.arange(0, 4096, 16)
    for mode in MODES:
        (out,), n_ops = emitted(lambda a, mode=mode: H.swizzle(a, mode), 1, addrs)
        assert list(out) == [H.swizzle(int(a), mode) for a in addrs]
        assert (n_ops == 0) == (mode is SwizzleMode.NONE)
    rows_k = np.array([(r, k) for r in range(0, 128, 9) for k in range(0, 64, 5)])
    for major, mode in ((K_MAJOR, SwizzleMode.B128), (MN_MAJOR, SwizzleMode.B64), (K_MAJOR, SwizzleMode.NONE)):
        f = lambda r, k, major=major, mode=mode: H.swizzle(1024 + H.tile_offset(r, k, 128, 64, 2, major, mode), mode)
        (out,), _ = emitted(f, 2, rows_k[:, 0], rows_k[:, 1])
        assert list(out) == [f(int(r), int(k)) for r, k in rows_k]


# ---- planted bugs: a wrong field reads a different matrix -----------------------------------------
def _landed(dtype, rows, k_elems, major, mode):
    rng = np.random.default_rng(11)
    eb = np.dtype(dtype).itemsize
    shape = (rows, k_elems) if major == K_MAJOR else (k_elems, rows)
    g = _random(shape, dtype, rng)
    smem = land_tile(g, (0, 0), rows, k_elems, major, mode)
    return smem, logical_tile(g, (0, 0), rows, k_elems, major), eb


def _read(smem, d, rows, eb, dtype, major):
    return H.read_operand(smem, d.encode(), rows, H.WGMMA_K_BYTES // eb, dtype, H.TRANS_BIT[major])


@pytest.mark.parametrize("major,mode,field,wrong", [
    (K_MAJOR, SwizzleMode.B128, "stride_byte_offset", 512),
    (K_MAJOR, SwizzleMode.B128, "stride_byte_offset", 2048),
    (K_MAJOR, SwizzleMode.B128, "swizzle", SwizzleMode.B64),
    (K_MAJOR, SwizzleMode.B128, "swizzle", SwizzleMode.NONE),
    (K_MAJOR, SwizzleMode.B64, "swizzle", SwizzleMode.B128),
    (K_MAJOR, SwizzleMode.B32, "swizzle", SwizzleMode.B64),
    (K_MAJOR, SwizzleMode.B128, "start_address", +16),
    (K_MAJOR, SwizzleMode.B128, "start_address", +1024),
    (K_MAJOR, SwizzleMode.NONE, "leading_byte_offset", 128),
    (K_MAJOR, SwizzleMode.NONE, "stride_byte_offset", 256),
    (MN_MAJOR, SwizzleMode.B128, "leading_byte_offset", 1024),
    (MN_MAJOR, SwizzleMode.B128, "stride_byte_offset", 2048),
    (MN_MAJOR, SwizzleMode.B64, "leading_byte_offset", 2048),
    (MN_MAJOR, SwizzleMode.B128, "swizzle", SwizzleMode.B32),
    (MN_MAJOR, SwizzleMode.NONE, "leading_byte_offset", 256),
    (MN_MAJOR, SwizzleMode.NONE, "stride_byte_offset", 128),
    (MN_MAJOR, SwizzleMode.B128, "start_address", +2048),
])
def test_wrong_descriptor_reads_wrong_matrix(major, mode, field, wrong):
    rows, k_elems = 128, 64
    smem, tile, eb = _landed(np.float16, rows, k_elems, major, mode)
    good = H.tile_descriptor(TILE_BASE, rows, k_elems, eb, major, mode, k_offset=16)
    truth = tile[:, 16:32]
    assert np.array_equal(_read(smem, good, rows, eb, np.float16, major), truth)
    if field == "start_address":
        wrong = good.start_address + wrong
    bad = MatrixDescriptor(**{**good.__dict__, field: wrong})
    assert bad != good
    assert not np.array_equal(_read(smem, bad, rows, eb, np.float16, major), truth)


# CUTLASS's canonical GMMA layouts (mma_traits_sm90_gmma.hpp, the make_gmma_desc comment), in
# elements with T = 16 bytes of elements, LBO / SBO in elements: (shape, stride) of (MN, K) modes.
def _canonical(major, mode, t, lbo, sbo, m, k):
    if major == K_MAJOR:
        w = {SwizzleMode.NONE: 1, SwizzleMode.B32: 2, SwizzleMode.B64: 4, SwizzleMode.B128: 8}[mode]
        if mode is SwizzleMode.NONE:  # ((8,m),(T,2)):((1T,SBO),(1,LBO))
            return ((8, m), (t, 2)), ((t, sbo), (1, lbo))
        return ((8, m), (t, 2)), ((w * t, sbo), (1, t))  # ((8,m),(T,2)):((wT,SBO),(1,T))
    if mode is SwizzleMode.NONE:  # ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
        return ((t, 1, m), (8, k)), ((1, t, sbo), (t, lbo))
    w = {SwizzleMode.B32: 2, SwizzleMode.B64: 4, SwizzleMode.B128: 8}[mode]
    return ((t, w, m), (8, k)), ((1, t, lbo), (w * t, sbo))  # ((T,w,m),(8,k)):((1,T,LBO),(wT,SBO))


def _eval_mode(x, shape, stride):
    off = 0
    for s_, d in zip(shape, stride):
        off += (x % s_) * d
        x //= s_
    return off


@pytest.mark.parametrize("major,mode", [(mj, md) for mj in (K_MAJOR, MN_MAJOR) for md in MODES])
def test_read_rules_are_cutlass_canonical_layouts(major, mode):
    """operand_addresses (from the descriptor's fields) equals CUTLASS's canonical layout for the
    same LBO / SBO, for f16 (T = 8), including the MN-major no-swizzle role swap."""
    eb, t, rows, k = 2, 8, 64, 16
    rng = np.random.default_rng(5)
    for _ in range(5):
        lbo, sbo = (int(x) * 16 for x in rng.integers(1, 256, size=2))
        if major == K_MAJOR and mode is not SwizzleMode.NONE:
            lbo = 16  # unused
        start = int(rng.integers(0, 16)) * 1024 + (32 if major == K_MAJOR and mode.width_bytes >= 64 else 0)
        d = MatrixDescriptor(start, lbo, sbo, 0, mode)
        got = H.operand_addresses(d, rows, k, eb, H.TRANS_BIT[major])
        m_groups = rows // 8 if major == K_MAJOR else max(1, rows * eb // mode.width_bytes)
        (smn, sk), (dmn, dk) = _canonical(major, mode, t, lbo // eb, sbo // eb, m_groups, k // 8)
        for r, kk in itertools.product(range(rows), range(k)):
            elems = _eval_mode(r, smn, dmn) + _eval_mode(kk, sk, dk)
            assert got[r, kk] == H.swizzle(start + elems * eb, mode), (r, kk)


def test_wrong_transpose_bit_reads_wrong_matrix():
    smem, tile, eb = _landed(np.float16, 64, 64, MN_MAJOR, SwizzleMode.B128)
    d = H.tile_descriptor(TILE_BASE, 64, 64, eb, MN_MAJOR, SwizzleMode.B128)
    assert np.array_equal(H.read_operand(smem, d, 64, 16, np.float16, 1), tile[:, :16])
    assert not np.array_equal(H.read_operand(smem, d, 64, 16, np.float16, 0), tile[:, :16])


def test_swizzled_k_major_ignores_lbo():
    """PTX ISA: the LBO of a swizzled K-major layout is not used (the wgmma K fits one line)."""
    smem, tile, eb = _landed(np.float16, 64, 64, K_MAJOR, SwizzleMode.B128)
    d = H.tile_descriptor(TILE_BASE, 64, 64, eb, K_MAJOR, SwizzleMode.B128)
    assert d.leading_byte_offset == H.UNUSED_LBO
    other = MatrixDescriptor(**{**d.__dict__, "leading_byte_offset": 4096})
    assert np.array_equal(_read(smem, other, 64, eb, np.float16, K_MAJOR), tile[:, :16])


def test_read_operand_rejects():
    smem = np.zeros(4096, np.uint8)
    d = MatrixDescriptor(0, 16, 1024, 0, SwizzleMode.B128)
    with pytest.raises(ValueError, match="only for .f16"):
        H.read_operand(smem, d, 64, 8, np.float32, 1)
    with pytest.raises(ValueError, match="base offset"):
        H.read_operand(smem, MatrixDescriptor(0, 16, 1024, 2, SwizzleMode.B128), 64, 16, np.float16, 0)
    with pytest.raises(ValueError, match="32 bytes of K"):
        H.read_operand(smem, d, 64, 32, np.float16, 0)
    with pytest.raises(ValueError, match="shared memory"):
        H.read_operand(smem, d, 64, 16, np.float16, 0)


def test_tile_rules():
    assert "K-major" in H.wgmma_shape_error("tf32", 64, "f32", major_b=MN_MAJOR)
    assert "16-bit" in H.tile_error(64, 32, 4, MN_MAJOR, SwizzleMode.B128)
    assert "multiple of the 128-byte" in H.tile_error(64, 32, 2, K_MAJOR, SwizzleMode.B128)
    assert "multiple of 8" in H.tile_error(60, 64, 2, K_MAJOR, SwizzleMode.B128)
    with pytest.raises(ValueError, match="k_offset"):
        H.tile_descriptor(0, 64, 64, 2, K_MAJOR, SwizzleMode.B128, k_offset=8)
    with pytest.raises(ValueError, match="row_offset"):
        H.tile_descriptor(0, 128, 64, 2, MN_MAJOR, SwizzleMode.B128, row_offset=32)


# ---- wgmma shapes -------------------------------------------------------------------------------
def test_wgmma_shapes():
    assert H.wgmma_type("f16").k == 16 and H.wgmma_type("f32").ptx == "tf32" and H.wgmma_type("i8").ptx == "s8"
    assert [H.wgmma_type(t).k * H.wgmma_type(t).elem_bytes for t in H.WGMMA_TYPES] == [32] * len(H.WGMMA_TYPES)
    assert H.wgmma_shape_error("bf16", 256, "f32", MN_MAJOR, MN_MAJOR) is None
    assert "N = 260" in H.wgmma_shape_error("f16", 260, "f32")
    assert H.wgmma_shape_error("s8", 240, "s32") is None
    assert "N = 40" in H.wgmma_shape_error("s8", 40, "s32")
    assert "accumulates" in H.wgmma_shape_error("bf16", 64, "f16")
    assert "registers" in H.wgmma_shape_error("f16", 64, "f32", major_a=MN_MAJOR, a_from_registers=True)
    assert len(H.N_DENSE) == 32 and len(H.N_INT) == 18


# ---- register fragments -------------------------------------------------------------------------
def _cute(thr, val, thr_shape, thr_stride, val_shape, val_stride, m=64):
    """A CuTe (thread, value) -> col-major (m x .) coordinate layout, evaluated."""
    idx = 0
    for x, shape, stride in ((thr, thr_shape, thr_stride), (val, val_shape, val_stride)):
        for s, d in zip(shape, stride):
            idx += (x % s) * d
            x //= s
    return idx % m, idx // m


@pytest.mark.parametrize("n", [8, 16, 24, 64, 136, 256])
def test_accumulator_map(n):
    nv = H.acc_values(n)
    assert nv == n // 2
    t, v = np.meshgrid(np.arange(128), np.arange(nv), indexing="ij")
    r, c = H.acc_coord(t, v)
    assert sorted(zip(r.ravel().tolist(), c.ravel().tolist())) == [(i, j) for i in range(64) for j in range(n)]
    for ti, vi in itertools.product(range(0, 128, 5), range(nv)):  # CuTe GMMA::CLayout_64xN
        assert H.acc_coord(ti, vi) == _cute(ti, vi, (4, 8, 4), (128, 1, 16), (2, 2, n // 8), (64, 8, 512))
    rows, cols = H.acc_coords(n)
    d = np.arange(64 * n).reshape(64, n)
    frag = d[rows, cols]
    assert frag.shape == (128, nv) and frag[5, 3] == d[H.acc_coord(5, 3)]
    back = np.zeros_like(d)
    back[rows, cols] = frag
    assert np.array_equal(back, d)
    reg, half = H.acc_f16_register(np.arange(nv))
    assert reg.max() == n // 4 - 1 and (np.bincount(reg) == 2).all()
    assert (H.acc_coord(0, 2 * reg[::2] + 1)[1] == H.acc_coord(0, 2 * reg[::2])[1] + 1).all()  # one f16x2: adjacent cols


@pytest.mark.parametrize("eb,k,cute", [
    (2, 16, ((128, 1, 16), (2, 2, 2), (64, 8, 512))),  # ALayout_64x16 (= CLayout_64x16)
    (4, 8, ((64, 1, 16), (2, 2), (8, 256))),  # ALayout_64x8 (tf32)
    (1, 32, ((256, 1, 16), (4, 2, 2), (64, 8, 1024))),  # ALayout_64x32 (8-bit)
])
def test_a_register_fragment_map(eb, k, cute):
    per = 4 // eb
    seen = set()
    for t, reg, part in itertools.product(range(128), range(H.A_FRAG_REGS), range(per)):
        rc = H.a_frag_coord(t, reg, part, eb)
        seen.add(rc)
        v = part + per * reg  # CuTe's value index: the register's elements first
        assert rc == _cute(t, v, (4, 8, 4), cute[0], cute[1], cute[2]), (t, reg, part)
    assert seen == {(i, j) for i in range(64) for j in range(k)}
    rows, ks = H.a_frag_coords(eb)
    assert rows.shape == (128, 4, per) and (rows[37, 2, per - 1], ks[37, 2, per - 1]) == H.a_frag_coord(37, 2, per - 1, eb)


# ---- bank picture -------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_core_matrix_phase_hits_all_banks(mode):
    g = H.bank_groups(mode)
    assert g.shape == (8, mode.width_bytes // 16)
    for chunk in range(g.shape[1]):
        banks = H.core_matrix_banks(mode, chunk)
        assert sorted(banks.ravel().tolist()) == list(range(32))
    pic = H.bank_picture(mode)
    assert pic.count("line") == 9 and mode.label in pic


def test_unswizzled_wide_lines_conflict():
    """Why the swizzle: 8 lines of 128 B read at one chunk hit one bank group without it."""
    r = np.arange(8)
    phys = H.swizzle(r * 128 + 16, SwizzleMode.NONE)
    assert len(set(((phys // 16) % 8).tolist())) == 1
    assert H.bank_groups(SwizzleMode.B128)[:, 1].tolist() == [1, 0, 3, 2, 5, 4, 7, 6]


@pytest.mark.parametrize("major_a,major_b,mode_a,mode_b", [
    (K_MAJOR, K_MAJOR, SwizzleMode.B128, SwizzleMode.B128),
    (MN_MAJOR, K_MAJOR, SwizzleMode.B64, SwizzleMode.B32),
    (K_MAJOR, MN_MAJOR, SwizzleMode.NONE, SwizzleMode.B128),
    (MN_MAJOR, MN_MAJOR, SwizzleMode.B128, SwizzleMode.NONE),
])
def test_gemm_through_descriptors(major_a, major_b, mode_a, mode_b):
    """A 64 x 64 x 64 f16 GEMM from TMA-landed A and B tiles through four m64n64k16 descriptor
    pairs equals the float64 product; the same with a planted SBO bug does not."""
    rng = np.random.default_rng(2)
    a = rng.standard_normal((64, 64)).astype(np.float16)  # M x K
    b = rng.standard_normal((64, 64)).astype(np.float16)  # N x K (B transposed)
    smem = np.zeros(SMEM_BYTES, np.uint8)
    base_b = TILE_BASE + 16 * 1024
    land_tile(a if major_a == K_MAJOR else np.ascontiguousarray(a.T), (0, 0), 64, 64, major_a, mode_a, smem=smem)
    land_tile(b if major_b == K_MAJOR else np.ascontiguousarray(b.T), (0, 0), 64, 64, major_b, mode_b,
              base=base_b, smem=smem)

    def gemm(sbo_bug=0):
        d = np.zeros((64, 64))
        for k0 in range(0, 64, 16):
            da = H.tile_descriptor(TILE_BASE, 64, 64, 2, major_a, mode_a, k_offset=k0)
            db = H.tile_descriptor(base_b, 64, 64, 2, major_b, mode_b, k_offset=k0)
            db = MatrixDescriptor(**{**db.__dict__, "stride_byte_offset": db.stride_byte_offset + sbo_bug})
            ta = H.read_operand(smem, da.encode(), 64, 16, np.float16, H.TRANS_BIT[major_a])
            tb = H.read_operand(smem, db.encode(), 64, 16, np.float16, H.TRANS_BIT[major_b])
            d += ta.astype(np.float64) @ tb.astype(np.float64).T
        return d

    want = a.astype(np.float64) @ b.astype(np.float64).T
    assert np.allclose(gemm(), want, rtol=1e-12, atol=1e-12)
    assert not np.allclose(gemm(sbo_bug=16), want, rtol=1e-3, atol=1e-3)
