"""`lasscc explain` of stream-K wgmma kernels (issue 17): the stream-K section (which CTA computes
which K range of which tile, the fix-up, the workspace of the persistent grid of --sms SMs) for the
one-role kernel and the cooperative persistent one, the tile schedule pointing at the units instead
of a tile walk, and a swapped kernel's tiles named as D^T's.  No compile (resources=False)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lasscc import explain as ex
from lasscc.config import KernelSpec
from lasscc.explain.hopper import hopper_numbers
from lasscc.source import parse_mlir

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "examples" / "gemm_wgmma.mlir").read_text()  # 128 x 128 x 64, 4 stages, f16 -> f32
COOP_TMA = 'schedule = "cooperative", persistent = 1, epilogue = "tma", '
GRID, K, SMS = (2, 3), 512, 4  # 6 tiles of 8 k-tiles: 48 iterations, 12 per CTA on 4 CTAs (one per SM)


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("LASSCC_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "explain-sk-wgmma-cache"))


def _text(extra: str, stage=None) -> str:
    src = EXAMPLE.replace("config = {", "config = {" + extra)
    return ex.explain(parse_mlir(src, "sk.mlir"), "sm_90a", "sk.mlir", stage=stage, grid=GRID, k=K, sms=SMS,
                      resources=False)


# CTA c's units, highest tile first (lasscc.streamk.unit): CTA 0 leaves tile 1 unfinished (k-tiles
# 0..3, its slot), CTA 1 finishes it (segment 1, adding CTA 0's partial); 128 x 128 f32 slots + flags
UNITS = [
    "     0  t1 [0,4)->K[0,256) s0; t0 [0,8)->K[0,512) s0*",
    "     1  t2 [0,8)->K[0,512) s0*; t1 [4,8)->K[256,512) s1*",
    "     2  t4 [0,4)->K[0,256) s0; t3 [0,8)->K[0,512) s0*",
    "     3  t5 [0,8)->K[0,512) s0*; t4 [4,8)->K[256,512) s1*",
]


@pytest.mark.parametrize("extra,threads", [('split_k_mode = "streamk", ', 256),
                                           ('split_k_mode = "streamk", ' + COOP_TMA, 384)],
                         ids=["default", "cooperative-persistent-tma"])
def test_streamk_section(extra, threads):
    text = _text(extra)
    assert (f"Stream-K (lasscc.streamk), split_k_mode = streamk: 6 tiles of 128 x 128, K = {K}: 8 k-tiles of "
            "BK = 64 each, 48 MAC iterations") in text
    # the grid: 4 SMs x 1 CTA per SM (131 KB of shared memory per CTA); the workspace is KernelSpec's for it
    assert "  persistent grid (4, 1, 1) (4 SMs x 1 CTAs per SM; the runner takes the SM count from the device)" in text
    assert "  data-parallel tiles: 0 (0 per CTA); stream-K: 6 tiles, 48 iterations, 12-12 per CTA" in text
    assert "\n".join(UNITS) in text
    n = hopper_numbers(ex.kernel_config(*_info(extra)), "sm_90a", "f16", "f32")
    assert n.threads == threads
    spec = KernelSpec(name="gemm", threads=n.threads, smem_bytes=n.smem_total, tile_m=128, tile_n=128, raster=8,
                      tile_k=64, split_k_mode="streamk")
    ws = 4 * (128 * 128 * 4 + 4)
    assert spec.workspace_bytes(GRID[0] * 128, GRID[1] * 128, sms=SMS) == ws
    assert f"  workspace: {ws} bytes (4 CTAs x (128 x 128 x 4 partial bytes + 4 flag bytes))" in text
    # the schedule section points at the units, no tile walk of a persistent kernel
    assert '  launch: the stream-K persistent grid (split_k_mode = "streamk"; which CTA computes which K range' in text
    assert "CTA c takes tiles c" not in text and "one CTA per tile" not in text
    if threads == 384:  # the producer warpgroup walks the consumers' units
        assert "the producer's thread 0 walks the same units and loads every k-tile of each" in text
        assert "issues the TMA loads of every k-tile of the CTA's stream-K units, in order" in text
        assert "subtiles of 128 x 32 f32" in text  # the TMA-store epilogue, the finisher's
    else:
        assert "every thread runs the CTA's unit loop, thread 0 also loading every k-tile of each unit" in text


def _info(extra):
    module = parse_mlir(EXAMPLE.replace("config = {", "config = {" + extra), "sk.mlir")
    info = ex.gemm_config(module, "sm_90a")
    return info, ex.gemm_facts(module, info)


def test_streamk_dp_and_the_threadblock_stage():
    """The hybrid runs the full waves but the last data-parallel (20 tiles on 8 CTAs: 8 whole-K tiles,
    12 shared); --stage threadblock shows the section beside the raster."""
    text = ex.explain(parse_mlir(EXAMPLE.replace("config = {", 'config = {split_k_mode = "streamk-dp", '), "s"),
                      "sm_90a", "sk.mlir", stage="threadblock", grid=(4, 5), k=K, sms=8, resources=False)
    assert "  data-parallel tiles: 8 (1 per CTA); stream-K: 12 tiles, 96 iterations, 12-12 per CTA" in text
    assert "     0  t0 [0,8)->K[0,512) s0*; t9 [0,4)->K[0,256) s0; t8 [0,8)->K[0,512) s0*" in text
    assert "     1  t1 [0,8)->K[0,512) s0*; t10 [0,8)->K[0,512) s0*; t9 [4,8)->K[256,512) s1*" in text
    assert "Threadblock rasterization" in text and "Shared memory" not in text


def test_swapped_tiles_are_of_d_transposed():
    """swap_ab = 1: the tiles (and --grid) are D^T's, the kernel's N x M problem."""
    text = _text('swap_ab = 1, split_k_mode = "streamk", ')
    assert "one CTA of 256 threads per 128 x 128 tile of D^T" in text
    assert ("  the tiles are D^T's (128 rows along the caller's N, 128 columns along its M; --grid counts them): "
            "swap_ab = 1: the kernel computes D^T = B^T . A^T") in text
    assert "\n".join(UNITS) in text
    assert "the tiles are D^T's" not in _text('split_k_mode = "streamk", ')


def test_split_k_wgmma_shows_its_partitions():
    """A split-K wgmma kernel (a swap AB pick's parallel split) shows lasscc.splitk's section too."""
    text = _text('swap_ab = 1, split_k = 2, split_k_mode = "parallel", ')
    assert "Parallel split-K (lasscc.splitk; reference 002), split_k = 2, K = 512: 8 k-tiles of BK = 64" in text
    assert "the tiles are D^T's" in text and "Stream-K" not in text


def test_cli_sms(tmp_path, capsys):
    """`lasscc explain --sms --k` on a wgmma stream-K file: the grid of those SMs."""
    from lasscc.cli import main

    path = tmp_path / "sk.mlir"
    path.write_text(EXAMPLE.replace("config = {", 'config = {split_k_mode = "streamk", ' + COOP_TMA))
    assert main(["explain", str(path), "--arch", "sm_90a", "--stage", "threadblock", "--sms", "2", "--k", "256",
                 "--grid", "1x3"]) == 0
    out = capsys.readouterr().out
    assert "mma wgmma" in out and "  persistent grid (2, 1, 1) (2 SMs x 1 CTAs per SM;" in out
    assert f"  workspace: {2 * (128 * 128 * 4 + 4)} bytes" in out


def test_cli_grid_follows_m_and_n(tmp_path, capsys):
    """`explain --m M --n N` without --grid draws M x N's own tiles (ceil(M/BM) x ceil(N/BN)) in the
    rasterization map and the stream-K decomposition; --grid still overrides; a big grid's map is cut
    to RASTER_MAP_MAX."""
    from lasscc.cli import main
    from lasscc.explain.text import RASTER_MAP_MAX

    f = tmp_path / "sk.mlir"
    f.write_text(EXAMPLE.replace("config = {", 'config = {split_k_mode = "streamk-tail", ' + COOP_TMA))

    def run(*extra):
        assert main(["explain", str(f), "--arch", "sm_90a", "--stage", "threadblock", "--k", "1024", *extra]) == 0
        return capsys.readouterr().out

    text = run("--m", "1000", "--n", "300")  # 8 x 3 tiles of 128 x 128
    assert "launch order on a 8 x 3 grid of tiles" in text
    assert "split_k_mode = streamk-tail: 24 tiles of 128 x 128, K = 1024" in text
    assert "launch order on a 2 x 2 grid of tiles" in run("--m", "1000", "--n", "300", "--grid", "2x2")
    text = run("--m", "8192", "--n", "8192")  # 64 x 64 tiles of 128 x 128
    assert "launch order on a 64 x 64 grid of tiles" in text and "4096 tiles of 128 x 128" in text
    assert f"(its first {RASTER_MAP_MAX[0]} tile rows and {RASTER_MAP_MAX[1]} tile columns)" in text
    assert f"  m{RASTER_MAP_MAX[0] - 1} " in text and f"  m{RASTER_MAP_MAX[0]} " not in text
