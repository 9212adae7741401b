"""`lasscc explain` (lasscc/explain.py): the numbers of the tile hierarchy, the maps it draws from
lasscc.layout, the text sections per stage, and the PNGs (when matplotlib is importable)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from lasscc import explain as ex
from lasscc.config import GemmConfig
from lasscc.source import parse_mlir

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "gemm.mlir"
SMALL = ROOT / "examples" / "gemm_small_tiles.mlir"


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("LASSCC_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "explain-cache"))


def _expected(tb, warp, stages):
    """The numbers, counted independently of explain.py (plain arithmetic on the PTX shapes)."""
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
    return subprocess.run([sys.executable, "-m", "lasscc.cli", "explain", *args], capture_output=True, text=True,
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
    assert p.returncode == 2 and "error: config: expected warp tile 48x64" in p.stderr
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
