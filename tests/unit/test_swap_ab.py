"""Config swap_ab = 1 (issue 17: swap AB for a skinny M): a row-major D computed as D^T = B^T . A^T, the
caller's small M the kernel's narrow N, D^T stored column-major into D (KernelFacts.kernel_d_layout,
lasscc.layout.matrix_offset).  Each kernel is compiled once (lasscc.driver.compile_module): its last
executable level runs on the CPU executor against float64 (random normal, D NaN-poisoned, then holding
C: beta != 0 reads C transposed too) at M = 1, 16, 33, 128 with N odd and K off BK, f16 / bf16, f32 /
f16 / bf16 D, batched, parallel and serial split-K, fused epilogues with [m] / [n] / [mn] operands
(directly and in parallel split-K's reduction), the mma.sync path with an odd K; its PTX assembles
for sm_90a with no spill and no wgmma serialization warning; the launch contract and the rejected
configs."""

from __future__ import annotations

import numpy as np
import pytest

from lasscc.diagnostics import LassError
from lasscc.driver import compile_module, kernel_specs
from lasscc.emit import ptxas_info
from lasscc.epilogue_api import EpilogueSpec, gemm_epilogue_mlir
from lasscc.interp import run_check
from lasscc.interp.check import epilogue_of
from lasscc.source import parse_mlir

from test_skinny import gemm

SWAP = ", swap_ab = 1"
PAR = ', split_k = 2, split_k_mode = "parallel"'
SYNC = ("func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf16>) {\n"
        "  lass.gemm {alpha = 1.5 : f32, beta = 0.0 : f32, config = {threadblock = [64, 32, 32], warp = [32, 32, 32],"
        " stages = 3, align = [1, 1], swap_ab = 1}}\n"
        "      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>)\n"
        "  func.return\n}\n")

# name -> (input text, arch, [(M, N, K, batch), ...]): N odd (the kernel's M off its tile), K off BK
# and, for TMA (wgmma), a multiple of 8 (16 bytes: the global-stride rule)
CASES = {
    "f16-128x16-f32D": (gemm(tb=(128, 16, 64), stages=4, extra=SWAP), "sm_90a",
                        [(1, 131, 200, 1), (16, 257, 136, 1)]),
    "f16-64x32-f16D-split2": (gemm(tb=(64, 32, 64), stages=4, d="f16", extra=SWAP + PAR), "sm_90a",
                              [(33, 101, 648, 1)]),
    "bf16-128x32-bf16D-batched": (gemm(ab="bf16", d="bf16", tb=(128, 32, 64), stages=4, batched=True, extra=SWAP),
                                  "sm_90a", [(16, 67, 136, 2)]),
    "f16-64x64-f32D-serial2": (gemm(tb=(64, 64, 64), stages=4, extra=SWAP + ", split_k = 2"), "sm_90a",
                               [(128, 75, 264, 1)]),
    "bf16-scale-m-bias-n-silu-residual": (
        gemm_epilogue_mlir(EpilogueSpec("n", "m", "silu", True, "bf16"),
                           gemm(ab="bf16", tb=(64, 16, 64), stages=4, extra=SWAP)), "sm_90a", [(16, 77, 136, 1)]),
    "f16-bias-m-gelu-residual-split2": (
        gemm_epilogue_mlir(EpilogueSpec("m", None, "gelu", True, "f16"),
                           gemm(tb=(64, 32, 64), stages=4, extra=SWAP + PAR)), "sm_90a", [(33, 69, 520, 1)]),
    "mma.sync-f16D-oddK": (SYNC, "sm_80", [(16, 45, 77, 1)]),
}
LAST = {"sm_90a": "lasscc-hopper-smem", "sm_80": "lasscc-swizzle-smem"}  # the last executable level


@pytest.fixture(scope="module")
def compiled():
    """Each case compiled once: its CompileResult (the IR after every pass, the PTX)."""
    return {name: compile_module(parse_mlir(text, "t.mlir"), arch=arch) for name, (text, arch, _) in CASES.items()}


@pytest.mark.parametrize("name", list(CASES))
def test_swapped_kernels_match_float64(name, compiled):
    text, arch, shapes = CASES[name]
    res = compiled[name]
    level = res.stages[LAST[arch]]
    epi = epilogue_of(parse_mlir(text, "t.mlir"))
    for m, n, k, batch in shapes:
        for beta in (0.0, -0.5):  # D NaN-poisoned; then D holding C
            r = run_check(level, m, n, k, seed=7, alpha=1.5, beta=beta, report_banks=False, batch=batch, epilogue=epi)
            assert r["ok"], (name, (m, n, k), beta, r["rel_err"], r["tolerance"])
            d = np.asarray(r["d"], np.float64)
            assert d.shape == ((batch,) if batch > 1 else ()) + (m, n) and np.isfinite(d).all()


@pytest.mark.parametrize("name", list(CASES))
def test_swapped_kernels_assemble_without_spills(name, compiled):
    info = ptxas_info(compiled[name].ptx, CASES[name][1])  # raises on a wgmma serialization warning (C7510/C7517/C7519)
    if info is None:
        pytest.skip("ptxas not on PATH")
    assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0, info.line


def test_swapped_launch_contract(compiled):
    """The kernel takes (B, A, D, N, M, K): N x M tiles, the caller's row-major D as it is."""
    spec = kernel_specs(compiled["f16-64x32-f16D-split2"].module)[0]
    assert spec.swap_ab and spec.d_layout == "row" and (spec.tile_m, spec.tile_n) == (64, 32)
    assert spec.grid(16, 4096) == (64, 2, 1)  # 4096 / 64 kernel rows x 1 tile of 32 columns, split 2
    assert spec.launch_args("a", "b", "d", 16, 4096, 512, 1.0, 0.0, workspace="w")[:6] == ["b", "a", "d", 4096, 16, 512]
    assert spec.workspace_bytes(16, 4096) == 2 * 16 * 4096 * 4


@pytest.mark.parametrize("extra,arch,want", [
    (SWAP + ', epilogue = "tma"', "sm_90a", "epilogue = \"tma\" with swap_ab = 1 is not supported"),
    (", swap_ab = 2", "sm_90a", "expected swap_ab = 0 or 1, got 2"),
])
def test_swapped_rejected_configs(extra, arch, want):
    with pytest.raises(LassError) as e:
        compile_module(parse_mlir(gemm(tb=(128, 64, 64), stages=4, extra=extra), "t.mlir"), arch=arch)
    assert want in str(e.value) and "t.mlir:" in str(e.value)


def test_api_shape_default_swaps_on_the_cpu():
    """lasscc.api.gemm(shape=...) on sm_90a takes the swapped default for 16 x 4096 x 4096 (heuristics.
    choose_swap_ab) with its keys in the config (not as options, which would write an mma.sync config
    over the family's wgmma one); the kernel runs on the CPU executor at other sizes against float64."""
    import lasscc.api as api

    k = api.gemm(shape=(16, 4096, 4096), sms=132, arch="sm_90a", cache=False, beta=0.5)
    assert k.spec.swap_ab and k.spec.d_layout == "row" and (k.spec.tile_m, k.spec.tile_n) == (64, 16)
    rng = np.random.default_rng(3)
    m, n, kk = 16, 77, 136
    a, b = (rng.standard_normal(s).astype(np.float16) for s in ((m, kk), (kk, n)))
    c = rng.standard_normal((m, n)).astype(np.float32)
    d = k(a, b, c.copy(), alpha=1.5, beta=0.5, target="cpu")
    ref = 1.5 * (a.astype(np.float64) @ b.astype(np.float64)) + 0.5 * c
    assert np.abs(d - ref).max() <= 1e-3 * np.abs(ref).max()


def test_api_shape_default_keeps_wgmma_with_a_split(monkeypatch):
    """The wgmma default is written as a wgmma config (`mma = "wgmma"`), so its split, passed as
    options, merges into it (before, an sm_90a gemm(shape=...) compiled an mma.sync config and failed:
    'expected warp K (32) to equal ...'); a swapped pick writes swap_ab = 1 into the config."""
    import lasscc.api as api

    seen = {}
    monkeypatch.setattr(api, "compile", lambda text, arch, **kw: seen.update(text=text, kw=kw) or "kernel")
    api.gemm(shape=(1024, 1024, 16384), sms=132, arch="sm_90a")
    assert (seen["kw"]["split_k"], seen["kw"]["split_k_mode"]) == (4, "parallel")
    assert 'mma = "wgmma"' in seen["text"] and "warp" not in seen["text"]
    api.gemm(shape=(128, 4096, 4096), sms=132, arch="sm_90a")
    # (cluster split-K 2 on 128x64 tiles: lasscc.cluster_splitk, heuristics.WG_CLUSTER_TILES)
    assert "threadblock = [128 : i64, 64 : i64, 64 : i64]" in seen["text"] and "swap_ab" not in seen["text"]
    assert (seen["kw"]["split_k"], seen["kw"]["split_k_mode"]) == (2, "cluster")
    api.gemm(shape=(16, 4096, 4096), sms=132, arch="sm_90a")
    assert "swap_ab = 1" in seen["text"] and "threadblock = [64 : i64, 16 : i64, 64 : i64]" in seen["text"]


def test_cli_explains_and_rejects(tmp_path, capsys):
    """`lasscc explain` says the kernel computes D^T and why; a config swap_ab cannot serve is a located
    error, exit 2, with no output file."""
    from pathlib import Path

    from lasscc.cli import main

    example = Path(__file__).resolve().parents[2] / "examples" / "gemm_skinny_swap.mlir"
    assert main(["explain", "--arch", "sm_90a", "--stage", "threadblock", str(example)]) == 0
    out = capsys.readouterr().out
    assert "64 x 16 tile of D^T" in out and "swap_ab = 1: the kernel computes D^T = B^T . A^T (swap AB" in out
    bad = tmp_path / "bad.mlir"
    bad.write_text(gemm(tb=(128, 64, 64), stages=4, extra=SWAP + ', epilogue = "tma"'))
    ptx = tmp_path / "out.ptx"
    assert main(["compile", "--arch", "sm_90a", str(bad), "-o", str(ptx)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:2:3: error: config: epilogue = \"tma\" with swap_ab = 1 is not supported" in err
    assert "Traceback" not in err and not ptx.exists()


@pytest.mark.parametrize("col_major", [False, True])
def test_matrix_offset_and_coord(col_major):
    """lasscc.layout.matrix_offset is numpy's C (row-major) / F (column-major) order, matrix_coord its inverse."""
    from lasscc.layout import matrix_coord, matrix_offset

    rows, cols = 5, 7
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    off = matrix_offset(r, c, rows, cols, col_major)
    want = np.arange(rows * cols).reshape((rows, cols), order="F" if col_major else "C")
    np.testing.assert_array_equal(off, want)
    rr, cc = matrix_coord(off, rows, cols, col_major)
    np.testing.assert_array_equal(rr, r)
    np.testing.assert_array_equal(cc, c)
