"""Element types beyond f16/bf16 -> f32: tf32 (f32 A/B), int8 (s8 -> s32) and f16 accumulation.

1. Fragment maps: the byte-level mma_a/b_coord of lasscc.layout against independent encodings of
   the PTX ISA tables for m16n8k8 .tf32 and m16n8k32 .s8, and ldmatrix.x4 with the same 16-byte
   row addresses delivering exactly those registers (the K-major SMEM path is shared by all types).
2. The numerics (lasscc.interp.mma_math): tf32 rounding, f16 accumulation, saturation.
3. Every type x odd shapes (1, 7, 33, 127, 129 in M, N, K; K a multiple of 16 / element bytes) x
   two configs (128x128 / 64x64 warps, 3 stages; 64x64 / 32x32 warps, 2 stages: the register-staged
   path) on the CPU executor at the final level (after lasscc-swizzle-smem) against float64.
4. Each pass before and after on the same data: data-movement passes bit for bit; tile-threadblock
   and warp-mma bit for bit for i8 (exact) and f16 accumulation (every level walks K in the same
   k16 steps), to float32 rounding for tf32 (the K sum re-associates).
5. ptxas: each type assembles for sm_80 and sm_90a without spills.
6. Bad input: a located error, exit 2, no traceback, no output file.
"""

from __future__ import annotations

import functools
import itertools
import subprocess

import numpy as np
import pytest
from _stage_checks import assert_passes_keep_d

from lasscc import layout as L
from lasscc.interp import mma_math as MM
from lasscc.interp import run_check
from lasscc.driver import compile_module, make_pass, run_pass
from lasscc.source import parse_mlir
from lit_zygote import lasscc_command  # tests/lit_zygote.py: the CLI through the suite's fork server

LANES = range(32)


# ---- 1. fragment maps (PTX ISA "Matrix Fragments for mma.m16n8k8" (.tf32) / "mma.m16n8k32" (.s8)) ----
def ptx_tf32_a(lane, i):
    """(row, col) of a_i, i in 0..3, of m16n8k8 .tf32 (one element per register)."""
    group, tig = lane // 4, lane % 4
    row = group if i in (0, 2) else group + 8
    col = tig if i in (0, 1) else tig + 4
    return row, col


def ptx_tf32_b(lane, i):
    """(row = k, col = n) of b_i, i in 0..1, of m16n8k8 .tf32."""
    return (lane % 4) + 4 * i, lane // 4


def ptx_s8_a(lane, i):
    """(row, col) of a_i, i in 0..15, of m16n8k32 .s8 (four per register: a0..a3 in register 0)."""
    group, tig = lane // 4, lane % 4
    row = group if (i < 4 or 8 <= i < 12) else group + 8
    col = tig * 4 + (i & 3) + (16 if i >= 8 else 0)
    return row, col


def ptx_s8_b(lane, i):
    """(row = k, col = n) of b_i, i in 0..7, of m16n8k32 .s8."""
    return (lane % 4) * 4 + (i & 3) + (16 if i >= 4 else 0), lane // 4


@pytest.mark.parametrize("lane", LANES)
def test_tf32_fragments_match_ptx_table(lane):
    for reg in range(4):
        assert L.mma_a_coord(lane, reg, 0, 4) == ptx_tf32_a(lane, reg)
    for reg in range(2):
        assert L.mma_b_coord(lane, reg, 0, 4) == ptx_tf32_b(lane, reg)


@pytest.mark.parametrize("lane", LANES)
def test_s8_fragments_match_ptx_table(lane):
    for reg, i in itertools.product(range(4), range(4)):
        assert L.mma_a_coord(lane, reg, i, 1) == ptx_s8_a(lane, 4 * reg + i)
    for reg, i in itertools.product(range(2), range(4)):
        assert L.mma_b_coord(lane, reg, i, 1) == ptx_s8_b(lane, 4 * reg + i)


@pytest.mark.parametrize("eb,shape", [(4, (16, 8, 8)), (1, (16, 8, 32))])
def test_fragments_cover_the_instruction_once(eb, shape):
    m, n, k = shape
    per = 4 // eb
    a = [L.mma_a_coord(t, r, i, eb) for t in LANES for r in range(4) for i in range(per)]
    b = [L.mma_b_coord(t, r, i, eb) for t in LANES for r in range(2) for i in range(per)]
    assert sorted(a) == [(r, c) for r in range(m) for c in range(k)]
    assert sorted(b) == [(r, c) for r in range(k) for c in range(n)]
    assert L.mma_shape({4: "f32", 1: "i8"}[eb]) == shape and L.MMA_K_BYTES == k * eb


def _ldmatrix_bytes(lane_src, eb, thread, reg, byte):
    """(row, k element) whose byte `byte` (0..3) ldmatrix.x4 puts into `thread`'s register `reg`
    when lane l supplies the 16-byte row at lane_src(l, eb) (PTX ldmatrix: lane t receives bytes
    4*(t%4).. of row t/4 of matrix reg; lanes 8*reg..8*reg+7 give that matrix's rows)."""
    src_lane = 8 * reg + thread // 4
    row, k0 = lane_src(src_lane, eb)
    return row, k0 + (4 * (thread % 4) + byte) // eb


@pytest.mark.parametrize("eb", [4, 1])
def test_ldmatrix_x4_delivers_the_fragments(eb):
    """The K-major 16-byte rows addressed for f16 deliver the tf32 and s8 A/B registers too."""
    per = 4 // eb
    for t in LANES:
        for reg, i in itertools.product(range(4), range(per)):
            assert _ldmatrix_bytes(L.ldmatrix_a_lane_src, eb, t, reg, i * eb) == L.mma_a_coord(t, reg, i, eb)
            n, k = _ldmatrix_bytes(L.ldmatrix_b_lane_src, eb, t, reg, i * eb)
            kk, nn = L.mma_b_coord(t, reg & 1, i, eb)
            assert (k, n) == (kk, nn + 8 * (reg >> 1))


# ---- 2. numerics --------------------------------------------------------------------------------
def test_tf32_rounding_is_to_nearest_ties_away():
    one = np.float32(1.0)
    ulp = np.float32(2.0 ** -10)  # tf32 ulp at 1
    cases = {1 + 2.0 ** -11: 1 + 2.0 ** -10, -(1 + 2.0 ** -11): -(1 + 2.0 ** -10),  # ties away from zero
             1 + 2.0 ** -12: 1.0, 1 + 3 * 2.0 ** -12: 1 + 2.0 ** -10, float(np.finfo(np.float32).max): np.inf}
    for x, want in cases.items():
        assert MM.tf32_rna(np.float32(x)) == np.float32(want), x
    assert MM.tf32_trunc(np.float32(one + ulp - np.float32(2.0 ** -20))) == one
    assert np.isnan(MM.tf32_rna(np.float32(np.nan)))


def test_f16_accumulation_rounds_per_k16_step():
    a = np.ones((1, 1, 32), np.float16)
    b = np.ones((1, 1, 32), np.float16)
    acc = np.full((1, 1, 1), 2048, np.float16)
    # 2048 + 16 -> 2064 (exact in f16), + 16 -> 2080: per-step sums are exact, then rounded
    assert MM.mma(a, b, acc)[0, 0, 0] == np.float16(2080)
    b[..., 0] = np.float16(0.5)  # step 1 sums to 15.5: 2063.5 rounds to 2064 (ulp 2, ties to even)
    assert MM.mma(a, b, acc)[0, 0, 0] == np.float16(2080)


def test_int8_mma_is_exact_and_saturates():
    a = np.full((1, 1, 32), 127, np.int8)
    b = np.full((1, 1, 32), -128, np.int8)
    assert MM.mma(a, b, np.zeros((1, 1, 1), np.int32))[0, 0, 0] == 32 * 127 * -128
    assert MM.mma(a, b, np.full((1, 1, 1), -(2**31) + 5, np.int32))[0, 0, 0] == -(2**31)  # .satfinite


def test_int_epilogue_exact_or_rounded():
    acc = np.array([2**24 + 1, -3, 7], np.int32)
    assert list(MM.epilogue(acc, 1.0, 0.0, None, np.int32)) == [2**24 + 1, -3, 7]  # exact path
    assert list(MM.epilogue(acc, 0.5, 0.0, None, np.int32)) == [2**23, -2, 4]  # f32, nearest even
    assert list(MM.epilogue(acc[1:], 1.0, 2.0, np.array([1, 1], np.int32), np.int32)) == [-1, 9]


# ---- 3. every type x odd shapes x two configs at the final level ------------------------------------
TYPES = {  # name: (A/B, acc or None, D, BK, Ks: multiples of 16 / element bytes)
    "tf32": ("f32", None, "f32", 16, (4, 36, 132)),
    "int8": ("i8", None, "i32", 64, (16, 48, 144)),
    "f16acc": ("f16", "f16", "f16", 32, (8, 40, 136)),
}
CONFIGS = {"default": ((128, 128), (64, 64), 3), "small-s2": ((64, 64), (32, 32), 2)}
SHAPES = [(1, 7, 0), (33, 127, 1), (129, 1, 2), (127, 33, 1)]  # K: an index into the type's Ks

GEMM = """func.func @gemm(%a: memref<?x?x{ab}>, %b: memref<?x?x{ab}, strided<[1, ?]>>, %d: memref<?x?x{d}{dlay}>) {{
  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32,{acc} config = {{threadblock = [{tb}], warp = [{w}], stages = {s}}}}}
      ins(%a, %b : memref<?x?x{ab}>, memref<?x?x{ab}, strided<[1, ?]>>) outs(%d : memref<?x?x{d}{dlay}>)
  func.return
}}
"""


def gemm_text(dtype: str, config: str, d: str | None = None, d_col: bool = False) -> str:
    ab, acc, d0, bk, _ = TYPES[dtype]
    (bm, bn), (wm, wn), s = CONFIGS[config]
    return GEMM.format(ab=ab, d=d or d0, acc=f" acc = {acc}," if acc else "", tb=f"{bm}, {bn}, {bk}",
                       w=f"{wm}, {wn}, {bk}", s=s, dlay=", strided<[1, ?]>" if d_col else "")


@functools.lru_cache(maxsize=None)
def stages(dtype: str, config: str, d: str | None = None, d_col: bool = False) -> dict:
    module = parse_mlir(gemm_text(dtype, config, d, d_col), f"<{dtype}-{config}>")
    out = {"input": module.clone()}
    for name in ("lasscc-tile-threadblock", "lasscc-pipeline", "lasscc-warp-mma", "lasscc-swizzle-smem"):
        run_pass(module, make_pass(name, "sm_80"))
        out[name] = module.clone()
    return out


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("shape", SHAPES, ids=[f"{m}x{n}xK{k}" for m, n, k in SHAPES])
@pytest.mark.parametrize("dtype", TYPES)
def test_final_level_matches_float64(dtype, shape, config):
    m, n, ki = shape
    k = TYPES[dtype][4][ki]
    r = run_check(stages(dtype, config)["lasscc-swizzle-smem"], m, n, k, seed=m + n + k, report_banks=False)
    assert r["level"] == 4
    assert r["ok"], f"{dtype} {config} {m}x{n}x{k}: rel_err {r['rel_err']:.3e} > {r['tolerance']:.1e}"
    if dtype == "int8":
        assert r["rel_err"] == 0.0  # exact


@pytest.mark.parametrize("dtype,d,alpha,beta,d_col", [
    ("int8", "i32", 1.5, -2.0, False),  # the f32 epilogue, rounded to nearest and saturated
    ("int8", "f32", 0.5, 1.0, False),   # s32 accumulators converted to an f32 D
    ("int8", "i32", 1.0, 0.0, True),    # column-major D: the swapped product D^T = B^T . A^T
    ("f16acc", "f32", 2.0, 0.5, False),  # f16 accumulators, f32 D with C
    ("tf32", "f32", 1.0, -1.0, True),
])
def test_epilogue_variants(dtype, d, alpha, beta, d_col):
    m, n, k = 70, 33, TYPES[dtype][4][1]
    r = run_check(stages(dtype, "small-s2", d, d_col)["lasscc-swizzle-smem"], m, n, k, seed=5, alpha=alpha,
                  beta=beta, report_banks=False)
    assert r["ok"], f"rel_err {r['rel_err']:.3e} > {r['tolerance']:.1e}"


# ---- 4. each pass keeps the product ------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("dtype", TYPES)
def test_each_pass_preserves_the_product(dtype, config):
    m, n, k = 129, 65, TYPES[dtype][4][2]
    alpha, beta = (1.0, 0.0) if config == "default" else (1.5, 0.5)
    ds = {}
    for name, module in stages(dtype, config).items():
        r = run_check(module, m, n, k, seed=3, alpha=alpha, beta=beta, report_banks=False)
        assert r["ok"], f"{dtype} after {name}: rel_err {r['rel_err']:.3e} > {r['tolerance']:.1e}"
        ds[name] = r["result"].d.copy()
    assert_passes_keep_d(ds, dtype, f"{dtype} {config}")


# ---- 5. ptxas ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
@pytest.mark.parametrize("dtype", TYPES)
def test_assembles_without_spills(dtype, arch):
    from lasscc.emit import ptxas_info

    res = compile_module(parse_mlir(gemm_text(dtype, "default"), "t.mlir"), arch=arch)
    want = {"tf32": "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
            "int8": "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32",
            "f16acc": "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"}[dtype]
    assert want in res.ptx
    if dtype == "tf32":
        assert "cvt.rna.tf32.f32" in res.ptx
    ab, _, _, bk, _ = TYPES[dtype]
    assert res.specs[0].smem_bytes == 3 * 256 * bk * L.elem_bytes(ab)
    info = ptxas_info(res.ptx, arch)
    if info is None:
        pytest.skip("ptxas not on PATH")
    assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0, info.line


# ---- 6. bad input -----------------------------------------------------------------------------------
BAD = {
    "i8-f16": ("memref<?x?xi8>", "memref<?x?xf16, strided<[1, ?]>>", "memref<?x?xf32>", "",
               "t.mlir:2:3: error: expected A and B of one element type, got i8 and f16"),
    "f64": ("memref<?x?xf64>", "memref<?x?xf64, strided<[1, ?]>>", "memref<?x?xf64>", "",
            "t.mlir:2:3: error: expected f16, bf16, f32 (tf32) or i8 A and B, got f64"),
    "i8-f16-d": ("memref<?x?xi8>", "memref<?x?xi8, strided<[1, ?]>>", "memref<?x?xf16>", "",
                 "t.mlir:2:3: error: expected i32 or f32 D for i8 A and B with i32 accumulation, got f16"),
    "bf16-acc-f16": ("memref<?x?xbf16>", "memref<?x?xbf16, strided<[1, ?]>>", "memref<?x?xf32>", "acc = f16, ",
                     "t.mlir:2:3: error: expected acc f32 for bf16 A and B, got f16"),
    "i8-bad-bk": ("memref<?x?xi8>", "memref<?x?xi8, strided<[1, ?]>>", "memref<?x?xi32>",
                  "config = {threadblock = [128, 128, 16], warp = [64, 64, 16]}, ",
                  "t.mlir:2:3: error: config: expected threadblock K (16) to be a multiple of the instruction K (32)"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_input_is_a_located_error(case, tmp_path):
    ta, tb, td, extra, want = BAD[case]
    src = tmp_path / "t.mlir"
    src.write_text(f"func.func @g(%a: {ta}, %b: {tb}, %d: {td}) {{\n"
                   f"  lass.gemm {{{extra}alpha = 1.0 : f32}} ins(%a, %b : {ta}, {tb}) outs(%d : {td})\n"
                   f"  func.return\n}}\n")
    out = tmp_path / "out.ptx"
    proc = subprocess.run([*lasscc_command(), "compile", str(src), "-o", str(out)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert want in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    assert not out.exists()


def test_k_alignment_rule_per_type(tmp_path):
    """With 16-byte accesses (--align of the full width) `lasscc run` checks K % (16 / element bytes)
    before anything else (lasscc.cli.k_align); without --align it narrows the accesses instead."""
    from lasscc.cli import k_align

    assert (k_align("f16"), k_align("bf16"), k_align("f32"), k_align("i8")) == (8, 8, 4, 16)
    src = tmp_path / "t.mlir"
    src.write_text(gemm_text("int8", "small-s2"))
    proc = subprocess.run([*lasscc_command(), "run", str(src), "--target", "cpu", "--m", "8",
                           "--n", "8", "--k", "24", "--align", "16,16"], capture_output=True, text=True)
    assert proc.returncode == 2 and "option --k: expected a multiple of 16" in proc.stderr, proc.stderr
