"""`lasscc explain` (lasscc/explain/): the numbers of the tile hierarchy, the maps it draws from
lasscc.layout, the text sections per stage, and the PNGs (when matplotlib is importable)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from lasscc import explain as ex
from lasscc.config import GemmConfig
from lasscc.resources import stage_plan
from lasscc.source import parse_mlir
from lit_zygote import lasscc_command  # tests/lit_zygote.py: the CLI through the suite's fork server

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "gemm.mlir"
SMALL = ROOT / "examples" / "gemm_small_tiles.mlir"


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("LASSCC_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "explain-cache"))


def _expected(tb, warp, stages):
    """The numbers, counted independently of lasscc.explain (plain arithmetic on the PTX shapes)."""
    bm, bn, bk = tb
    wm, wn, _ = warp
    warps = (bm // wm) * (bn // wn)
    mma_m, mma_n, kg = wm // 16, wn // 8, bk // 16
    return {
        "warps": warps, "mma_m": mma_m, "mma_n": mma_n, "kgroups": kg,
        "mma_kgroup": mma_m * mma_n, "mma_ktile": mma_m * mma_n * kg, "mma_cta": mma_m * mma_n * kg * warps,
        # per thread: A m16 x k16 f16 = 256 elements / 32 lanes = 8 f16 = 4 regs; B k16 x n8 = 2 regs; C 4 f32
        "a_regs": mma_m * 4, "b_regs": mma_n * 2, "acc": mma_m * mma_n * 4,
        "stage": (bm + bn) * bk * 2, "total": (bm + bn) * bk * 2 * stages,
    }


@pytest.mark.parametrize("tb,warp,stages", [((128, 128, 32), (64, 64, 32), 3), ((64, 64, 32), (32, 32, 32), 3),
                                            ((128, 256, 64), (64, 64, 64), 2)])
def test_numbers(tb, warp, stages):
    n = ex.numbers(GemmConfig(threadblock=tb, warp=warp, stages=stages), "sm_90a")
    e = _expected(tb, warp, stages)
    assert n.warps == e["warps"] and n.threads == 32 * e["warps"]
    assert (n.mma_m, n.mma_n, n.kgroups) == (e["mma_m"], e["mma_n"], e["kgroups"])
    assert (n.mma_per_kgroup, n.mma_per_ktile, n.mma_per_ktile_cta) == (e["mma_kgroup"], e["mma_ktile"], e["mma_cta"])
    assert (n.a_regs, n.b_regs, n.acc_regs) == (e["a_regs"], e["b_regs"], e["acc"])
    assert (n.smem_stage, n.smem_total, n.smem_limit) == (e["stage"], e["total"], 227 * 1024)
    assert n.stages_fit == 227 * 1024 // e["stage"]


def test_default_config_text():
    module = parse_mlir(EXAMPLE.read_text(), str(EXAMPLE))
    text = ex.explain(module, "sm_80", str(EXAMPLE), resources=False)
    # 128x128x32 / 64x64x32 / 3 stages: 2 x 2 = 4 warps, 4 x 8 = 32 mma.sync per k-group, 2 k-groups
    for want in ["threadblock 128x128x32, warp 64x64x32, 3 stages",
                 "2 x 2 = 4 warps per CTA",
                 "4 (m) x 8 (n)", "= 32 mma.sync per warp per k-group",
                 "32 / 16 = 2", "per k-tile: 64 mma.sync per warp, 256 per CTA",
                 "A  4 m16k16 fragments x 4  16", "B  8 k16n8 fragments x 2   16", "C  32 m16n8 tiles x 4 f32  128",
                 "per stage    A + B               16384 B   16 KB",
                 "total        3 stages            49152 B   48 KB",
                 f"sm_80 limit  per block (opt-in)  {163 * 1024} B",
                 "at most 10 stages of this tile fit",
                 "4 ldmatrix.x4 for A + 4 for B",
                 "m 0..63    warp 0   warp 2", "m 64..127  warp 1   warp 3",
                 "Tile hierarchy", "Threadblock rasterization", "Shared memory", "Shared-memory banks",
                 "ldmatrix.x4", "Resources (sm_80)"]:
        assert want in text, want
    # wavefronts of the 8-row ldmatrix phases: 4 unswizzled (64-byte rows, 2 rows per 128-byte line
    # -> 4 rows on the same banks), 1 swizzled
    assert "A  0        4 -> 1   4 -> 1   4 -> 1   4 -> 1" in text
    # the first rows of the bank table: row 2 of the swizzled tile starts at bank 4 (chunk 0 ^ 1)
    assert "    row2    4*  5*  6*  7*  0   1   2   3  12  13  14  15   8   9  10  11" in text
    assert "    row2    0*  1*  2*  3*  4   5   6   7   8   9  10  11  12  13  14  15" in text  # unswizzled


def test_stage_sections():
    module = parse_mlir(EXAMPLE.read_text(), str(EXAMPLE))
    only_pipe = ex.explain(module, "sm_80", "f", stage="pipeline", resources=False)
    assert "Shared memory" in only_pipe and "Tile hierarchy" not in only_pipe and "Warps" not in only_pipe
    only_warp = ex.explain(module, "sm_80", "f", stage="lasscc-warp-mma", resources=False)
    assert "Warps" in only_warp and "mma.m16n8k16 fragments" in only_warp and "Shared memory" not in only_warp
    swz = ex.explain(module, "sm_80", "f", stage="swizzle", resources=False)
    assert "Shared-memory banks" in swz and "ldmatrix.x4" in swz and "Warps" not in swz
    from lasscc.api import CompileError

    with pytest.raises(CompileError, match="option --stage: unknown stage 'bogus'; expected one of input"):
        ex.explain(module, "sm_80", "f", stage="bogus")


def test_bad_config_is_the_compiler_error():
    from lasscc.diagnostics import LassError

    text = EXAMPLE.read_text().replace("stages = 3", "stages = 40")
    with pytest.raises(LassError, match=r"t.mlir:\d+:\d+: error: config: stages=40 needs"):
        ex.explain(parse_mlir(text, "t.mlir"), "sm_80", "t.mlir", resources=False)


def test_maps_come_from_layout():
    from lasscc.layout import mma_a_coord

    lanes, regs, halves = ex.mma_lane_map("A")
    assert lanes.shape == (16, 16) and (lanes >= 0).all()
    assert sorted(np.bincount(lanes.ravel())) == [8] * 32  # each lane holds 8 f16 of A
    for lane in (0, 5, 31):
        for reg in range(4):
            for half in range(2):
                r, k = mma_a_coord(lane, reg, half)
                assert (lanes[r, k], regs[r, k], halves[r, k]) == (lane, reg, half)
    lanes_b, _, _ = ex.mma_lane_map("B")
    lanes_c, regs_c, _ = ex.mma_lane_map("C")
    assert lanes_b.shape == (16, 8) and sorted(np.bincount(lanes_b.ravel())) == [4] * 32
    assert lanes_c.shape == (16, 8) and sorted(np.bincount(lanes_c.ravel())) == [4] * 32
    src = ex.ldmatrix_src_map("A")
    assert sorted(src.ravel()) == list(range(32))
    assert list(src[:8, 0]) == list(range(8))  # phase 0 = lanes 0-7: rows 0-7 of k 0-7
    dest, _ = ex.ldmatrix_dest_map()
    assert sorted(np.bincount(dest.ravel())) == [2] * 32


def test_raster_order_is_a_permutation_grouped_by_raster():
    order = ex.raster_order(12, 8, 8)
    assert sorted(order.ravel()) == list(range(96))
    assert list(order[:8, 0]) == list(range(8))  # down the first group's first column
    assert order[8, 0] == 64  # the second (partial) group starts after 8 x 8 blocks
    assert (ex.raster_order(4, 3, 1) == np.arange(12).reshape(4, 3)).all()  # raster 1: row by row


def test_bank_grid_and_wavefronts():
    plain = ex.bank_grid(8, 32, False)
    swz = ex.bank_grid(8, 32, True)
    assert list(plain[:, 0]) == [0, 16] * 4  # 64-byte rows: even rows start at bank 0, odd at 16
    assert sorted(set(swz[:, 0] // 4 * 4)) == [0, 4, 8, 12, 16, 20, 24, 28]  # 8 rows -> 8 distinct chunks
    assert ex.phase_wavefronts("A", 0, 0, 32, False) == 4 and ex.phase_wavefronts("A", 0, 0, 32, True) == 1
    assert ex.phase_wavefronts("B", 3, 1, 64, False) == 8 and ex.phase_wavefronts("B", 3, 1, 64, True) == 1


def _cli(*args, env=None):
    return subprocess.run([*lasscc_command(), "explain", *args], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, **(env or {})})


def test_cli_explain(tmp_path):
    env = {"LASSCC_CACHE_DIR": str(tmp_path / "cache")}
    p = _cli(str(SMALL), env=env)
    assert p.returncode == 0, p.stderr
    assert "2 x 2 = 4 warps per CTA" in p.stdout and "2 (m) x 4 (n)" in p.stdout
    assert "per k-tile: 16 mma.sync per warp, 64 per CTA" in p.stdout
    import shutil

    if shutil.which("ptxas"):
        assert "ptxas -v:" in p.stdout and "0 B spill stores" in p.stdout
    p = _cli(str(SMALL), "--stage", "nope", env=env)
    assert p.returncode == 2 and "option --stage: unknown stage 'nope'" in p.stderr and "Traceback" not in p.stderr
    p = _cli(str(EXAMPLE), "--warp", "48x64x32", "--stage", "pipeline", env=env)
    assert p.returncode == 2 and p.stderr.startswith("option --warp: config: expected warp tile 48x64")
    p = _cli(str(EXAMPLE), "--stage", "threadblock", "--grid", "5x3", "--raster", "2", env=env)
    assert p.returncode == 0 and "launch order on a 5 x 3 grid" in p.stdout


def test_explain_linalg_input():
    linalg = ROOT / "examples" / "linalg_matmul.mlir"
    if not linalg.exists():
        pytest.skip("no linalg example in this tree")
    module = parse_mlir(linalg.read_text(), str(linalg))
    text = ex.explain(module, "sm_80", str(linalg), stage="threadblock", resources=False)
    assert "2 x 2 = 4 warps per CTA" in text


def test_png(tmp_path):
    pytest.importorskip("matplotlib")
    p = _cli(str(EXAMPLE), "--png", str(tmp_path / "png"), "--stage", "swizzle")
    assert p.returncode == 0, p.stderr
    assert sorted(f.name for f in (tmp_path / "png").iterdir()) == ["ldmatrix_x4.png", "smem_banks.png"]
    files = ex.write_pngs(GemmConfig(threadblock=(128, 128, 64), warp=(64, 64, 64)), tmp_path / "all", "sm_80")
    assert sorted(f.name for f in files) == sorted(ex.PNGS.values())
    for f in files:
        data = f.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000, f


def test_png_without_matplotlib(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    from lasscc.cli import main

    rc = main(["explain", str(SMALL), "--stage", "pipeline", "--png", str(tmp_path / "png")])
    out = capsys.readouterr()
    assert rc == 0
    assert "Shared memory" in out.out
    assert "matplotlib is not installed" in out.err
    assert not (tmp_path / "png").exists()


# ---- A/B element types other than f16, copy widths, the epilogue --------------------------------
# From the PTX ISA, written out here (not lasscc.layout): bytes per A/B element, the mma's A/B type
# and accumulator.  Every mma.sync shape reads 32 bytes of K: its K is 32 / bytes.
PTX = {"f16": (2, "f16", "f32"), "bf16": (2, "bf16", "f32"), "f32": (4, "tf32", "f32"), "i8": (1, "s8", "s32")}
TF32 = ROOT / "examples" / "tf32.mlir"
INT8 = ROOT / "examples" / "int8.mlir"
BF16 = ROOT / "examples" / "gemm_bf16.mlir"


def _typed(ab, tb, warp, stages, access=(16, 16)):
    """The numbers of a TN GEMM of A/B type `ab`, counted by hand: tiles in bytes, 32-bit registers
    per thread, global -> shared accesses of `access` bytes."""
    eb, ptx, acc = PTX[ab]
    bm, bn, bk = tb
    wm, wn, _ = warp
    ik = 32 // eb
    threads = 32 * (bm // wm) * (bn // wn)
    mma_m, mma_n = wm // 16, wn // 8
    a_frag = 16 * ik * eb // 32 // 4  # bytes of a 16 x IK A fragment per lane, in registers
    b_frag = ik * 8 * eb // 32 // 4
    acc_name = f"{acc}.{ptx}.{ptx}.{acc}"
    return {
        "ik": ik, "ptx": ptx, "acc": acc, "kgroups": bk // ik,
        "instr": f"mma.sync.aligned.m16n8k{ik}.row.col{'.satfinite' if ptx == 's8' else ''}.{acc_name}",
        "a_tile": bm * bk * eb, "b_tile": bn * bk * eb, "total": (bm + bn) * bk * eb * stages,
        "a_acc": bm * bk * eb // access[0], "b_acc": bn * bk * eb // access[1],
        "a_per": bm * bk * eb // access[0] // threads, "b_per": bn * bk * eb // access[1] // threads,
        "mma_m": mma_m, "mma_n": mma_n, "a_frag": a_frag, "b_frag": b_frag,
        "a_regs": mma_m * a_frag, "b_regs": mma_n * b_frag, "acc_regs": mma_m * mma_n * 4,
    }


def _text(path_or_text, name="t.mlir", stage=None):
    text = path_or_text.read_text() if isinstance(path_or_text, Path) else path_or_text
    return ex.explain(parse_mlir(text, name), "sm_80", name, stage=stage, resources=False)


@pytest.mark.parametrize("path,ab,tb,warp", [(TF32, "f32", (128, 128, 16), (64, 64, 16)),
                                             (INT8, "i8", (128, 128, 64), (64, 64, 64)),
                                             (BF16, "bf16", (128, 128, 32), (64, 64, 32))])
def test_element_types(path, ab, tb, warp):
    e = _typed(ab, tb, warp, 3)
    text = _text(path)
    bm, bn, bk = tb
    assert f"instruction    16 x 8 x {e['ik']}" in text and e["instr"] in text
    assert f"{bk} / {e['ik']} = {e['kgroups']}" in text
    assert re.search(rf"A tile\s+{bm} x {bk} {ab}\s+{e['a_tile']} B", text), text
    assert re.search(rf"B tile\s+{bn} x {bk} {ab}\s+{e['b_tile']} B", text)
    assert re.search(rf"total\s+3 stages\s+{e['total']} B", text)
    assert (f"A {e['a_acc']} x 16 B chunks = {e['a_per']} per thread, B {e['b_acc']} = {e['b_per']} per thread "
            "(cp.async.cg 16 B" in text)
    assert re.search(rf"A\s+{e['mma_m']} m16k{e['ik']} fragments x {e['a_frag']}\s+{e['a_regs']}\s", text)
    assert re.search(rf"B\s+{e['mma_n']} k{e['ik']}n8 fragments x {e['b_frag']}\s+{e['b_regs']}\s", text)
    assert re.search(rf"C\s+{e['mma_m'] * e['mma_n']} m16n8 tiles x 4 {e['acc']}\s+{e['acc_regs']}\s", text)
    assert f"mma.m16n8k{e['ik']} fragments" in text and f"A 16 x {e['ik']} (row x k), {e['ptx']}" in text
    assert f"C/D 16 x 8 (row x n), {e['acc']}" in text
    assert f"one 4-byte word = {4 // PTX[ab][0]} {ab} = one bank of 32" in text
    if ab != "f16":
        assert not re.search(r"\bf16", text), "a non-f16 GEMM explained with f16 facts"
    # the same numbers from the dataclass
    cfg = ex.gemm_config(parse_mlir(path.read_text(), str(path))).config
    n = ex.numbers(cfg, "sm_80", ab)
    assert (n.ik, n.kgroups, n.smem_a_tile, n.smem_total) == (e["ik"], e["kgroups"], e["a_tile"], e["total"])
    assert (n.copy_a_chunks, n.copy_a_per_thread, n.copy_b_per_thread) == (e["a_acc"], e["a_per"], e["b_per"])
    assert (n.a_regs, n.b_regs, n.acc_regs) == (e["a_regs"], e["b_regs"], e["acc_regs"])


@pytest.mark.parametrize("path,align,ab,how_a,how_b", [
    (EXAMPLE, (2, 2), "f16", "cp.async.ca 4 B", "cp.async.ca 4 B"),
    (ROOT / "examples" / "gemm_odd_k.mlir", None, "f16", "ld.global + st.shared 2 B", "ld.global + st.shared 2 B"),
    (TF32, (1, 4), "f32", "cp.async.ca 4 B", "cp.async.cg 16 B"),
    (INT8, (2, 1), "i8", "ld.global + st.shared 2 B", "ld.global + st.shared 1 B"),
    (ROOT / "examples" / "gemm_stages2.mlir", (4, 2), "f16", "ld.global + st.shared 8 B", "ld.global + st.shared 4 B"),
])
def test_narrow_copies(path, align, ab, how_a, how_b):
    """config `align` (elements per access): accesses of align x element bytes, counted per thread."""
    src = path.read_text()
    if align is not None:
        src = src.replace("stages = ", f"align = [{align[0]}, {align[1]}], stages = ", 1)
    info = ex.gemm_config(parse_mlir(src, "t.mlir"))
    cfg = info.config
    eb = PTX[ab][0]
    align = cfg.align
    assert align is not None
    e = _typed(ab, cfg.threadblock, cfg.warp, cfg.stages, (align[0] * eb, align[1] * eb))
    text = _text(src)
    for op, elems, how in (("A", align[0], how_a), ("B", align[1], how_b)):
        w = elems * eb
        k = op.lower()
        line = f"    {op} {e[k + '_acc']} x {w} B accesses ({elems} {ab} along k) = {e[k + '_per']} per thread ({how}"
        assert line in text, (line, text)
        full = next(x for x in text.splitlines() if x.startswith(line))
        # multistage copies of more than COPY_UNROLL_MAX (8) accesses per thread are a loop
        assert ("an scf.for over them" in full) == (cfg.stages >= 3 and e[k + "_per"] > 8), full
        assert f"{op} tile copy, one warp's 32 x {w} B stores" in text
    n = ex.numbers(cfg, "sm_80", ab)
    assert (n.access_a, n.access_b) == (align[0] * eb, align[1] * eb)
    assert (n.copy_a_per_thread, n.copy_b_per_thread) == (e["a_per"], e["b_per"])


def test_column_major_d_swaps_the_copy_widths():
    """A column-major D runs D^T = B^T A^T: the kernel's A is the caller's B, with B's `align`."""
    src = (ROOT / "examples" / "gemm_col_d.mlir").read_text().replace("stages = 3", "stages = 3, align = [1, 8]")
    text = _text(src)
    assert "D f32 column-major" in text and "D^T = B^T . A^T" in text
    assert "    A 512 x 16 B accesses (8 f16 along k) = 4 per thread (cp.async.cg 16 B)" in text
    assert "    B 4096 x 2 B accesses (1 f16 along k) = 32 per thread (ld.global + st.shared 2 B" in text


def _stride_16bit(row_bytes):
    """Padded row of the staging buffer: the first multiple of 16 bytes from row_bytes whose 4-byte
    words are 4 mod 8 (8 rows of pairs then start 4 banks apart)."""
    s = row_bytes
    while s % 16 or (s // 4) % 8 != 4:
        s += 1
    return s


def _staged(tb, warp, stages, d_bytes=2, eb=2):
    """(rows per chunk, stride): the most 16-row bands per chunk (dividing WM / 16) whose buffers
    for all warps fit in the rings' shared memory."""
    bm, bn, bk = tb
    wm, wn, _ = warp
    warps = (bm // wm) * (bn // wn)
    smem = (bm + bn) * bk * eb * stages
    stride = _stride_16bit(wn * d_bytes)
    for bands in range(wm // 16, 0, -1):
        if (wm // 16) % bands == 0 and warps * bands * 16 * stride <= smem:
            return bands * 16, stride
    return None


@pytest.mark.parametrize("tb,warp,stages", [((128, 128, 32), (64, 64, 32), 3), ((128, 128, 32), (64, 64, 32), 2),
                                            ((64, 64, 32), (32, 32, 32), 3)])
def test_staged_epilogue_f16_d(tb, warp, stages):
    src = EXAMPLE.read_text().replace("memref<?x?xf32>", "memref<?x?xf16>")
    src = src.replace("threadblock = [128, 128, 32], warp = [64, 64, 32]",
                      f"threadblock = {list(tb)}, warp = {list(warp)}").replace("stages = 3", f"stages = {stages}")
    rows, stride = _staged(tb, warp, stages)
    chunks = warp[0] // rows
    text = _text(src, stage="warp-mma")
    assert "Epilogue (lasscc-warp-mma): D f16, 2 B per element" in text
    assert "staged (stage_plan of lasscc-warp-mma) when beta == 0 on a whole block with N a multiple of 8" in text
    assert f"{rows} rows per chunk ({chunks} chunk{'s' if chunks > 1 else ''};" in text
    assert f"row stride {stride} B = {warp[1] * 2} B of D + {stride - warp[1] * 2} B padding" in text
    assert "this GEMM's beta = 0 (" in text and "whole blocks take the staged path" in text
    cfg = ex.gemm_config(parse_mlir(src, "t.mlir")).config
    assert stage_plan(cfg, "f16", 2) == (rows, stride)


def test_epilogue_not_staged():
    f32_d = _text(EXAMPLE, stage="warp-mma")
    assert "D f32, 4 B per element" in f32_d and "D is stored per thread in pairs" in f32_d
    assert "staged (" not in f32_d and "no staged epilogue: only a 16-bit D is staged" in f32_d
    # f16 D, beta != 0: the staged path is compiled in, but this GEMM's C read takes the other one
    f16_c = _text(ROOT / "examples" / "gemm_f16_out.mlir", stage="warp-mma")
    assert "staged (stage_plan" in f16_c and "beta = 0.5" in f16_c and "every block takes the per-thread path" in f16_c
    # a 48-column f16 warp row is 96 bytes, 6 chunks: not a power of two, no staging
    odd = EXAMPLE.read_text().replace("memref<?x?xf32>", "memref<?x?xf16>").replace(
        "threadblock = [128, 128, 32], warp = [64, 64, 32]", "threadblock = [128, 96, 32], warp = [64, 48, 32]")
    assert "no staged epilogue for this warp tile" in _text(odd, stage="warp-mma")
    i32_d = _text(INT8, stage="warp-mma")
    assert "D i32, 4 B per element" in i32_d and "exact s32 accumulator" in i32_d and "staged (" not in i32_d


def test_f16_accumulators_and_prefetch():
    text = _text(ROOT / "examples" / "f16_acc.mlir")
    assert "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16" in text
    # 4 f16 accumulators of an m16n8 tile per lane, packed two per register
    assert re.search(r"C\s+32 m16n8 tiles x 4 f16 \(2 registers\)\s+64\s", text)
    plain = _text(EXAMPLE, stage="warp-mma")
    assert "128 accumulators + 2 x 32 fragments = 192 (2 fragment sets: double buffering)" in plain
    pre = EXAMPLE.read_text().replace("stages = 3", "stages = 3, prefetch = 1")
    assert ("128 accumulators + 3 x 32 fragments = 224 (3 fragment sets: double buffering + cross-stage prefetch "
            "(config prefetch = 1))") in _text(pre, stage="warp-mma")
    # the two-stage (register double buffer) main loop has no cross-stage prefetch; its next k-tile's
    # copies are held in registers (lasscc.resources.register_estimate counts them)
    pre2 = _text(EXAMPLE.read_text().replace("stages = 3", "stages = 2, prefetch = 1"), stage="warp-mma")
    assert ("128 accumulators + 2 x 32 fragments + 8 for the next k-tile's 8 copy accesses (stages = 2) = 200 "
            "(2 fragment sets: double buffering)") in pre2 and "prefetch = 1 does not apply" in pre2


@pytest.mark.parametrize("name,a_load,b_load", [("gemm_nn", "ldmatrix.x4.trans", "ldmatrix.x4.trans"),
                                                ("int8_nt", "ldmatrix.x4.trans + 4 prmt", "ldmatrix.x4.trans + 4 prmt"),
                                                ("tf32_nn", "2 ld.shared.v2", "ldmatrix.x4")])
def test_mn_major_operands(name, a_load, b_load):
    text = _text(ROOT / "examples" / f"{name}.mlir")
    assert f"A 4 x ({a_load}), B 4 x ({b_load})" in text
    assert "A is stored MN-major (column-major A)" in text
    assert "Shared-memory banks of the A tile (128 x" in text and "stored MN-major" in text
    if name == "tf32_nn":  # no ldmatrix .trans for 32-bit elements: 32 lanes x 8 B, 2 wavefronts at best
        assert "A (MN-major tf32: 2 ld.shared.v2 per fragment, one warp = 32 x 8 B, ideal 2" in text
        assert "k-group 0 load 0: 4 -> 2" in text
    else:  # 8 k-lines of one atom column: all on the same banks unswizzled, spread by the swizzle
        assert "A  0        8 -> 1   8 -> 1   8 -> 1   8 -> 1" in text


def test_maps_per_element_type():
    for ab, eb in (("f16", 2), ("f32", 4), ("i8", 1)):
        k = 32 // eb
        lanes, regs, parts = ex.mma_lane_map("A", ab)
        assert lanes.shape == (16, k) and sorted(np.bincount(lanes.ravel())) == [16 * k // 32] * 32
        lanes_b, _, _ = ex.mma_lane_map("B", ab)
        assert lanes_b.shape == (k, 8) and sorted(np.bincount(lanes_b.ravel())) == [8 * k // 32] * 32
        dest, _ = ex.ldmatrix_dest_map(ab)  # an 8 x 16-byte matrix: 4 bytes per lane
        assert dest.shape == (8, 16 // eb) and sorted(np.bincount(dest.ravel())) == [4 // eb] * 32
        src = ex.ldmatrix_src_map("A", ab)
        assert sorted(src.ravel()) == list(range(32))
    # 64-byte rows of 16 f32: a row covers banks 0-15 or 16-31
    assert list(ex.bank_grid(2, 16, False, 4)[1]) == list(range(16, 32))


# (wgmma kernels have their own sections: tests/unit/test_explain_wgmma.py)
@pytest.mark.parametrize("path", sorted(p for p in (ROOT / "examples").glob("*.mlir") if 'mma = "wgmma"' not in p.read_text()),
                         ids=lambda p: p.stem)
def test_every_example(path):
    text = _text(path, str(path))
    assert "Epilogue (lasscc-warp-mma)" in text and "Resources (sm_80)" in text


def test_png_types(tmp_path):
    pytest.importorskip("matplotlib")
    for name in ("tf32_nn", "int8_nt", "f16_acc"):
        module = parse_mlir((ROOT / "examples" / f"{name}.mlir").read_text(), name)
        info = ex.gemm_config(module)
        facts = ex.gemm_facts(module, info)
        files = ex.write_pngs(ex.kernel_config(info, facts), tmp_path / name, "sm_80", None, ex.DEFAULT_GRID,
                              facts.ab, facts.acc, facts.majors)
        assert sorted(f.name for f in files) == sorted(ex.PNGS.values())


@pytest.mark.parametrize("path", [TF32, INT8])
def test_every_mlir_dump_explains_like_its_input(path, tmp_path):
    """Each MLIR dump (through lasscc-lower-to-llvm, whose kernel has pointer arguments and many
    blocks) gives the input's explanation, element type included, after the header line."""
    from lasscc.driver import PASS_NAMES, run_passes

    src = path.read_text()
    want = _text(src, "in.mlir").split("\n", 1)[1]
    module = parse_mlir(src, "in.mlir")
    for name in PASS_NAMES:
        run_passes(module, [name], "sm_80", "in.mlir")
        got = _text(str(module), f"{name}.mlir").split("\n", 1)[1]
        assert got == want, name
