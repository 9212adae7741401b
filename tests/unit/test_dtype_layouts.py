"""tf32 and int8 in every operand layout (issue "General GEMM"): A and B each row- or column-major.

MN-major tiles of 32- and 8-bit elements cannot be read with ldmatrix .trans (it transposes 16-bit
elements); lasscc-warp-mma marks their fragment loads `interleaved` (fragment row g + 8h = tile
row 2g + h) and lasscc-swizzle-smem reads them with ld.shared.v2 (tf32) or ldmatrix.x4.trans +
prmt (s8).

1. The pure functions of lasscc.layout against independent encodings of the PTX ISA tables
   (m16n8k8 .tf32, m16n8k32 .s8 fragments; ldmatrix .trans; prmt), and the bank conflicts of the
   new loads (none; Swizzle<3,4,3> would give the tf32 loads 2 wavefronts instead of 1).
2. The CPU matrix: {tf32, int8} x A row/col x B row/col x two configs (D row-major in one, column-
   major in the other) x odd shapes (1, 7, 33, 127, 129 where the alignment rule allows: each
   operand's contiguous dimension a multiple of 16 bytes, 4 f32 / 16 i8), at the final (swizzled)
   level against float64, fresh random data, NaN-poisoned D, and no bank conflicts.
3. Each pass keeps the product (int8 bit for bit; tf32 to float32 rounding where the K sum
   re-associates), which runs the level-3 `interleaved` loads on the logical ring.
4. The executor's checks on the new ops (alignment, uninitialised reads, races).
5. ptxas: the kernels assemble for sm_80 and sm_90a without spills.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest
from _stage_checks import assert_passes_keep_d

from lasscc import layout as L
from lasscc.config import alignment_error, alignment_rules
from lasscc.interp import execute_kernel, run_check
from lasscc.interp.errors import MisalignedAccessError, RaceError, UninitializedReadError
from lasscc.driver import compile_module, make_pass, run_pass
from lasscc.source import parse_mlir

LANES = range(32)


# ---- 1. pure functions against the PTX ISA ---------------------------------------------------------
def ptx_tf32_a(lane, i):
    """(row, col) of a_i of mma.m16n8k8 .tf32 (PTX ISA "Matrix Fragments for mma.m16n8k8")."""
    group, tig = lane // 4, lane % 4
    return (group if i in (0, 2) else group + 8), (tig if i in (0, 1) else tig + 4)


def ptx_tf32_b(lane, i):
    """(k, n) of b_i of mma.m16n8k8 .tf32."""
    return lane % 4 + 4 * i, lane // 4


def ptx_s8_a(lane, i):
    """(row, col) of a_i, i in 0..15, of mma.m16n8k32 .s8 (a0..a3 in register 0, ...)."""
    group, tig = lane // 4, lane % 4
    row = group if (i < 4 or 8 <= i < 12) else group + 8
    return row, tig * 4 + (i & 3) + (16 if i >= 8 else 0)


def ptx_s8_b(lane, i):
    """(k, n) of b_i, i in 0..7, of mma.m16n8k32 .s8."""
    return (lane % 4) * 4 + (i & 3) + (16 if i >= 4 else 0), lane // 4


def interleaved(i):
    """Written out: fragment rows 0..7 are tile rows 0, 2, .., 14; rows 8..15 are 1, 3, .., 15."""
    return [0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15][i % 16] + 16 * (i // 16)


def test_frag_interleave():
    assert [L.frag_interleave(i) for i in range(32)] == [interleaved(i) for i in range(32)]


@pytest.mark.parametrize("lane", LANES)
def test_tf32_mn_loads_deliver_the_ptx_fragments(lane):
    """ld.shared.v2 `load` of lane reads tile (row, k), (row + 1, k): A registers 2 load, 2 load + 1
    (fragment rows g, g + 8), or for B register `load` of n8 blocks 0 and 1."""
    for load in range(2):
        row, k = L.tf32_mn_lane_src(lane, load)
        for j in range(2):  # the two words of the v2 load
            fr, fk = ptx_tf32_a(lane, 2 * load + j)
            assert (interleaved(fr), fk) == (row + j, k)
            bk, bn = ptx_tf32_b(lane, load)
            assert (bk, interleaved(8 * j + bn)) == (k, row + j)


def ldmatrix_trans_x4(line_of_lane, tile):
    """Registers [32 lanes][4] of ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 (PTX ISA
    "ldmatrix"): lanes 8i..8i+7 give the 8 row addresses of matrix i (here: rows of 16 bytes of
    `tile`, tile[line_of_lane(l)]); with .trans, lane l receives in register i the 16-bit elements
    (row 2 (l % 4), column l / 4) and (row 2 (l % 4) + 1, column l / 4) of matrix i, low half first."""
    regs = np.zeros((32, 4), np.int64)
    for lane in LANES:
        for i in range(4):
            word = 0
            for half in range(2):
                row = tile[line_of_lane(8 * i + 2 * (lane % 4) + half)]
                b16 = int(row[2 * (lane // 4)]) | int(row[2 * (lane // 4) + 1]) << 8
                word |= b16 << (16 * half)
            regs[lane, i] = word
    return regs


def test_prmt_generic_form():
    a, b = 0x03020100, 0x07060504  # {b, a} bytes 7..0
    assert L.prmt(a, b, 0x7531) == 0x07050301  # the CUB example
    assert L.prmt(a, b, 0x6420) == 0x06040200
    assert L.prmt(a, b, 0x2064) == 0x02000604
    # bit 3 of a selector replicates the sign of the byte: 0x80 -> 0xff, 0x7f -> 0x00
    assert L.prmt(0x80, 0x7F00, 0x5800) == 0x7FFF8080 and L.prmt(0x80, 0x7F00, 0xDDDD) == 0
    assert L.prmt(a, b, 0x12345 << 4) == L.prmt(a, b, 0x2345 << 4)  # only 16 bits of the selector
    assert list(L.prmt(np.array([a, a]), b, np.array([0x7531, 0x6420]))) == [0x07050301, 0x06040200]
    assert L.s8_mn_prmt_selectors(0) == (0x6420, 0x7531) and L.s8_mn_prmt_selectors(2) == (0x2064, 0x3175)


@pytest.mark.parametrize("operand", ["A", "B"])
def test_s8_mn_trans_and_prmt_deliver_the_ptx_fragments(operand):
    """ldmatrix.x4.trans at s8_mn_trans_lane_src, then prmt per matrix pair: the m16n8k32 .s8
    registers of an interleaved fragment (A: rows 2g, 2g + 1; B: n8 blocks of even / odd n)."""
    rng = np.random.default_rng(1)
    tile = rng.integers(0, 256, (32, 16))  # [k-line, 16 M or N]: an MN-major slice, 1 byte each
    regs = ldmatrix_trans_x4(lambda l: L.s8_mn_trans_lane_src(l)[1], tile)
    for lane in LANES:
        assert L.s8_mn_trans_lane_src(lane)[0] == 0
        lo, hi = L.s8_mn_prmt_selectors(lane)
        q = {(n, p): L.prmt(regs[lane, 2 * p], regs[lane, 2 * p + 1], sel)
             for n, sel in (("lo", lo), ("hi", hi)) for p in range(2)}
        out = ([q["lo", 0], q["hi", 0], q["lo", 1], q["hi", 1]] if operand == "A"
               else [q["lo", 0], q["lo", 1], q["hi", 0], q["hi", 1]])
        for reg, byte in itertools.product(range(4), range(4)):
            got = (out[reg] >> (8 * byte)) & 0xFF
            if operand == "A":
                row, k = ptx_s8_a(lane, 4 * reg + byte)
                assert got == tile[k, interleaved(row)], (lane, reg, byte)
            else:
                block, breg = reg // 2, reg % 2
                k, n = ptx_s8_b(lane, 4 * breg + byte)
                assert got == tile[k, interleaved(8 * block + n)], (lane, reg, byte)


TILE_ROWS = (32, 48, 64, 96, 128, 256)


@pytest.mark.parametrize("rows", TILE_ROWS)
def test_new_loads_are_conflict_free(rows):
    """Every ldmatrix phase (8 lanes x 16 B) of the s8 loads and every half-warp (16 lanes x 8 B)
    of the tf32 loads takes one wavefront, for every k-group of every BK and every 16 rows."""
    for bk in (32, 64, 128):  # s8
        for r0, kb, j in itertools.product(range(0, rows, 16), range(0, bk, 32), range(4)):
            addrs = [L.mnmajor_tile_offset(r0, kb + L.s8_mn_trans_lane_src(8 * j + r)[1], rows, bk, 1)
                     for r in range(8)]
            assert L.wavefronts(addrs, 16) == 1
    for bk in (8, 16, 32):  # tf32
        for r0, kb, load, half in itertools.product(range(0, rows, 16), range(0, bk, 8), range(2), range(2)):
            addrs = [L.mnmajor_tile_offset(r0 + L.tf32_mn_lane_src(l, load)[0], kb + L.tf32_mn_lane_src(l, load)[1],
                                           rows, bk, 4) for l in range(16 * half, 16 * half + 16)]
            assert L.wavefronts(addrs, 8) == 1


def test_swizzle_343_would_conflict_for_tf32():
    """Why 32-bit MN-major tiles use Swizzle<2,5,2>: under Swizzle<3,4,3> (the 16-bit tiles')
    k-lines t and t ^ 1 put the same 32 bytes in the same banks: 2 wavefronts per half-warp."""
    assert L.mn_swizzle_params(4) == (2, 5, 2) and L.mn_swizzle_params(2) == L.mn_swizzle_params(1) == (3, 4, 3)
    rows, bk = 128, 16

    def old(r, k):
        return L.swizzle((((r // 32) * bk + k) * 32 + r % 32) * 4)

    addrs = [old(*L.tf32_mn_lane_src(lane, 0)) for lane in range(16)]
    assert L.wavefronts(addrs, 8) == 2


# ---- 2. the CPU matrix ----------------------------------------------------------------------------
TYPES = {"tf32": ("f32", "f32", 16), "int8": ("i8", "i32", 64)}  # A/B, D, BK (64 bytes of K)
CONFIGS = {"tb128-s3": ((128, 128), (64, 64), 3, "row"), "tb64-s2": ((64, 64), (32, 32), 2, "col")}
STRIDE = {"row": "", "col": ", strided<[1, ?]>"}
AB_LAYOUTS = list(itertools.product(["row", "col"], ["row", "col"]))


def gemm_text(dtype, la, lb, config, beta=0.0):
    ab, d, bk = TYPES[dtype]
    (bm, bn), (wm, wn), stages, ld = CONFIGS[config]
    ta, tb, td = f"memref<?x?x{ab}{STRIDE[la]}>", f"memref<?x?x{ab}{STRIDE[lb]}>", f"memref<?x?x{d}{STRIDE[ld]}>"
    return (f"func.func @gemm(%a: {ta}, %b: {tb}, %d: {td}) {{\n"
            f"  lass.gemm {{alpha = 1.5 : f32, beta = {beta} : f32, config = {{threadblock = [{bm}, {bn}, {bk}], "
            f"warp = [{wm}, {wn}, {bk}], stages = {stages}}}}}\n"
            f"      ins(%a, %b : {ta}, {tb}) outs(%d : {td})\n  func.return\n}}\n")


@functools.lru_cache(maxsize=None)
def stages_of(dtype, la, lb, config, beta=0.0):
    """The module after each executable pass (shared by the tests; the executor only reads them)."""
    module = parse_mlir(gemm_text(dtype, la, lb, config, beta), f"<{dtype}-{la}-{lb}-{config}>")
    out = {"input": module.clone()}
    for name in ("lasscc-tile-threadblock", "lasscc-pipeline", "lasscc-warp-mma", "lasscc-swizzle-smem"):
        run_pass(module, make_pass(name, "sm_80"))
        out[name] = module.clone()
    return out


def odd_shape(dtype, la, lb, odd):
    """`odd` (M, N, K) with the dimensions the alignment rule constrains rounded up to its multiple."""
    rules = alignment_rules(la, lb, TYPES[dtype][0])
    m, n, k = (-(-v // rules[d]) * rules[d] for d, v in zip("MNK", odd))
    assert alignment_error(m, n, k, la, lb, TYPES[dtype][0]) is None
    return m, n, k


SHAPES = {"tb128-s3": [(129, 33, 127), (1, 7, 33)], "tb64-s2": [(127, 129, 7), (33, 1, 129)]}


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("la,lb", AB_LAYOUTS, ids=[f"A{a}-B{b}" for a, b in AB_LAYOUTS])
@pytest.mark.parametrize("dtype", TYPES)
def test_matrix_final_level(dtype, la, lb, config):
    module = stages_of(dtype, la, lb, config)["lasscc-swizzle-smem"]
    for i, odd in enumerate(SHAPES[config]):
        m, n, k = odd_shape(dtype, la, lb, odd)
        r = run_check(module, m, n, k, seed=m * 31 + n * 7 + k, report_banks=(i == 0))
        assert r["level"] == 4
        assert r["ok"], f"{dtype} A {la} B {lb} {config} {m}x{n}x{k}: rel_err {r['rel_err']:.3e} > {r['tolerance']:.1e}"
        if dtype == "int8":
            assert r["rel_err"] == 0.0  # exact
        if i == 0:
            rep = r["bank_report"]
            assert rep, "expected a bank report"
            assert all(row["wavefronts"] == row["ideal"] for row in rep), \
                [row for row in rep if row["wavefronts"] != row["ideal"]]
            ops = {row["op"] for row in rep}
            if (la, lb) != ("row", "col"):  # an MN-major operand (the swap of a column-major D keeps one)
                assert ("lass_nv.ld_shared" in ops) == (dtype == "tf32")


def test_mn_major_loads_in_the_ir():
    tf = str(stages_of("tf32", "col", "row", "tb64-s2")["lasscc-swizzle-smem"])
    assert "lass_nv.ld_shared" in tf and "ldmatrix_x4" not in tf
    assert "{bits = 2 : i64, base = 5 : i64, shift = 2 : i64}" in tf
    s8 = str(stages_of("int8", "col", "row", "tb64-s2")["lasscc-swizzle-smem"])
    lines = [ln for ln in s8.splitlines() if "ldmatrix_x4" in ln]
    assert lines and all(ln.rstrip().endswith(" trans") for ln in lines) and "lass_nv.prmt" in s8
    mixed = str(stages_of("int8", "row", "row", "tb64-s2")["lasscc-warp-mma"])  # D col: swapped
    assert mixed.count(" interleaved : ") > 0
    tn = str(stages_of("int8", "row", "col", "tb128-s3")["lasscc-swizzle-smem"])
    assert "prmt" not in tn and " trans" not in tn


# ---- 3. each pass keeps the product -------------------------------------------------------------------


@pytest.mark.parametrize("dtype,la,lb", [("int8", "col", "row"), ("tf32", "col", "col"), ("int8", "row", "row")])
def test_each_pass_preserves_the_product(dtype, la, lb):
    m, n, k = odd_shape(dtype, la, lb, (65, 47, 131))
    ds = {}
    for name, module in stages_of(dtype, la, lb, "tb64-s2", 0.5).items():
        r = run_check(module, m, n, k, seed=3, alpha=1.5, beta=0.5, report_banks=False)
        assert r["ok"], f"{dtype} after {name}: rel_err {r['rel_err']:.3e} > {r['tolerance']:.1e}"
        ds[name] = r["result"].d.copy()
    assert_passes_keep_d(ds, dtype, f"{dtype} {la} {lb}")


# ---- 4. the executor's checks on ld.shared / prmt -----------------------------------------------------
def simt(body: str) -> str:
    sig = ("%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, "
           "%M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32")
    return f"""func.func @simt({sig}) attributes {{lass.kernel = #lass.kernel<config = {{threadblock = [16, 16, 16],
    warp = [16, 16, 16], instruction = [16, 8, 16], stages = 2, raster = 1}}>}} {{
  %tid = lass_nv.thread_id
  %true = arith.constant true
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c16 = arith.constant 16 : i32
  %addr = arith.muli %tid, %c16 : i32
{body}
  func.return
}}
"""


def run_simt(body):
    d = np.zeros((2, 16), np.float32)
    z = np.zeros((2, 16), np.float16)
    return execute_kernel(simt(body), 2, 16, 16, z, np.zeros((16, 16), np.float16), d, 1.0, 0.0, report_banks=True)


STORE = "  lass_nv.st_shared_v4 %addr, %tid, %tid, %tid, %tid\n"


def test_ld_shared_and_prmt_values():
    body = STORE + """  lass_nv.bar_sync
  %w0, %w1 = lass_nv.ld_shared %addr x 2
  %sel = arith.constant 25632 : i32
  %p = lass_nv.prmt %w0, %tid, %sel
  %f = arith.sitofp %p : i32 to f32
  lass_nv.st_global %D[%tid], %f if %true : memref<?x?xf32>, f32
"""
    res = run_simt(body)
    tid = np.arange(32)
    want = L.prmt(tid, tid, 0x6420)  # bytes 0, 2 of the loaded word (= tid) and of tid
    np.testing.assert_array_equal(res.d.reshape(-1), want.astype(np.float32))
    rows = {row["op"]: row for row in res.bank_report}
    # 8-byte accesses at a 16-byte stride: a half-warp's 16 lanes hit each bank pair twice
    assert rows["lass_nv.ld_shared"]["access_bytes"] == 8
    assert (rows["lass_nv.ld_shared"]["wavefronts"], rows["lass_nv.ld_shared"]["ideal"]) == (4, 2)


def test_ld_shared_misaligned():
    with pytest.raises(MisalignedAccessError) as info:
        run_simt(STORE + "  lass_nv.bar_sync\n  %a4 = arith.addi %addr, %c4 : i32\n  %x, %y = lass_nv.ld_shared %a4 x 2\n")
    assert "lass_nv.ld_shared" in str(info.value)


def test_ld_shared_uninitialised():
    with pytest.raises(UninitializedReadError) as info:
        run_simt("  %x = lass_nv.ld_shared %addr x 1\n")
    assert "lass_nv.ld_shared" in str(info.value)


def test_ld_shared_race_without_barrier():
    body = STORE + """  %c512 = arith.constant 512 : i32
  %a16 = arith.addi %addr, %c16 : i32
  %nxt = arith.remui %a16, %c512 : i32
  %x = lass_nv.ld_shared %nxt x 1
"""
    with pytest.raises(RaceError) as info:
        run_simt(body)
    assert "lass_nv.ld_shared" in str(info.value) and "lass_nv.st_shared_v4" in str(info.value)


# ---- 5. ptxas ------------------------------------------------------------------------------------------
PTX_CASES = [  # (dtype, A, B, config, arch)
    ("tf32", "col", "col", "threadblock = [128, 128, 16], warp = [64, 64, 16], stages = 3", "sm_80"),
    ("tf32", "row", "row", "threadblock = [128, 128, 16], warp = [64, 64, 16], stages = 3", "sm_90a"),
    ("tf32", "col", "row", "threadblock = [128, 256, 16], warp = [64, 64, 16], stages = 4, prefetch = 1", "sm_80"),
    ("int8", "col", "col", "threadblock = [128, 128, 64], warp = [64, 64, 64], stages = 3", "sm_80"),
    ("int8", "row", "row", "threadblock = [128, 128, 64], warp = [64, 64, 64], stages = 3", "sm_90a"),
    ("int8", "col", "row", "threadblock = [128, 256, 64], warp = [64, 64, 64], stages = 4, prefetch = 1", "sm_90a"),
]


@pytest.mark.parametrize("dtype,la,lb,cfg,arch", PTX_CASES)
def test_kernel_assembles_without_spills(dtype, la, lb, cfg, arch):
    from lasscc.emit import ptxas_info

    text = gemm_text(dtype, la, lb, "tb64-s2").replace(
        "threadblock = [64, 64, {0}], warp = [32, 32, {0}], stages = 2".format(TYPES[dtype][2]), cfg)
    res = compile_module(parse_mlir(text, "t.mlir"), arch=arch)
    if dtype == "tf32":
        assert "ld.shared.b64" in res.ptx and "cvt.rna.tf32.f32" in res.ptx
    else:
        assert "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16" in res.ptx and "prmt.b32" in res.ptx
    info = ptxas_info(res.ptx, arch)
    if info is None:
        pytest.skip("ptxas not on PATH")
    assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0, info.line
    assert 0 < info.registers <= 255
