"""wgmma accumulator chains (config `instruction = [64, N, K]` with N = BN / 1, 2 or 4;
lasscc.resources.wgmma_chains): each warpgroup issues one wgmma per K step and chain, chain c on B
rows c N .. and its own N/2 accumulator values (`lass_wg.mma {b_row}`).

1. Numerics on the CPU executor against float64 (random normal data, D NaN-poisoned), every level
   of test_wgmma_passes' pass list, and D within f32 rounding of the unsplit kernel's (the executor's
   per-wgmma float32 products of another shape may round differently).  K- and MN-major B, 2 and
   4 chains, f16 acc.
2. Planted bug: chains that all read B from row 0 (b_row dropped) give wrong numbers, at the
   lass_wg level and after lasscc-hopper-smem.
3. Config rules: an N that does not split BN into 1, 2 or 4 chains, or an MN-major B chain that is
   not whole 128-byte lines, is a located error.
4. ptxas: the sm_90a default kernel (cooperative persistent TMA-store 128x256x64/4) with two
   64x128 chains assembles with no spill and no wgmma serialization warning, its descriptors' smem
   base read inside the k-tile (lower_sm90 `_shared_address`).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from lasscc.diagnostics import LassError
from lasscc.dialects import lass_wg
from lasscc.driver import compile_module, make_pass, run_pass
from lasscc.emit import ptxas_info
from lasscc.interp import run_check
from lasscc.source import parse_mlir

from test_wgmma_passes import gemm, stages_of  # one gemm text builder, one compiled-stage cache

# (config kwargs, chains, (M, N, K)): K a multiple of 16 bytes (the TMA's global stride rule)
CASES = [
    (dict(ab="f16", tb=(64, 128, 64), stages=2, extra=", instruction = [64, 64, 16]"), 2, (72, 136, 136)),
    (dict(ab="f16", tb=(128, 128, 64), stages=3, lb="row", beta=0.5, extra=", instruction = [64, 64, 16]"), 2,
     (72, 136, 72)),
    (dict(ab="f16", d="f16", acc="f16", tb=(64, 64, 64), stages=3, extra=", instruction = [64, 16, 16]"), 4,
     (64, 70, 200)),
]


def _plain(cfg: dict) -> dict:
    return {**cfg, "extra": cfg["extra"].split(", instruction")[0]}


@pytest.mark.parametrize("cfg,chains,shape", CASES, ids=["k-major-2", "mn-major-2", "f16acc-4"])
def test_chains_match_float64_and_the_unsplit_kernel(cfg, chains, shape):
    mods = stages_of(gemm(**cfg))
    m, n, k = shape
    beta = cfg.get("beta", 0.0)
    ds = []
    for mod in mods:
        r = run_check(mod, m, n, k, seed=3, alpha=1.5, beta=beta, report_banks=False)
        assert r["ok"], (r["level"], r["rel_err"], r["tolerance"])
        assert not np.isnan(np.asarray(r["d"], np.float64)).any()
        ds.append(np.asarray(r["d"]))
    np.testing.assert_array_equal(ds[4], ds[3])  # lasscc-hopper-smem: physical addresses, same wgmmas
    wg = [o for o in mods[3].walk() if isinstance(o, lass_wg.MmaOp)]
    _, bn, bk = cfg["tb"]
    assert len(wg) == chains * bk // 16  # per k-tile of one warpgroup (one m64 each here)
    assert sorted({o.b_row for o in wg}) == [c * bn // chains for c in range(chains)]
    plain = run_check(stages_of(gemm(**_plain(cfg)))[4], m, n, k, seed=3, alpha=1.5, beta=beta, report_banks=False)
    want = np.asarray(plain["d"], np.float64)
    np.testing.assert_allclose(np.asarray(ds[4], np.float64), want, rtol=0, atol=2e-3 * np.abs(want).max())


def _without_b_row(mod: ModuleOp) -> ModuleOp:
    mod = mod.clone()
    for o in mod.walk():
        if isinstance(o, lass_wg.MmaOp):
            o.attributes.pop("b_row", None)
    return mod


def test_planted_chains_on_b_row_0_give_wrong_numbers():
    cfg, _, (m, n, k) = CASES[0]
    bad = _without_b_row(stages_of(gemm(**cfg))[3])
    assert not run_check(bad, m, n, k, seed=1, report_banks=False)["ok"]
    run_pass(bad, make_pass("lasscc-hopper-smem", "sm_90a"))
    assert not run_check(bad, m, n, k, seed=1, report_banks=False)["ok"]


@pytest.mark.parametrize("kw,msg", [
    (dict(tb=(128, 256, 64), extra=", instruction = [64, 96, 16]"), r"instruction = \[64, 96, 16\].*256, 128, 64"),
    (dict(tb=(128, 256, 64), extra=", instruction = [64, 32, 16]"), r"1, 2 or 4 accumulator chains"),
    (dict(tb=(128, 256, 64), extra=", instruction = [64, 128, 32]"), r"wgmma.m64nNk16"),
    (dict(tb=(128, 128, 64), lb="row", extra=", instruction = [64, 32, 16]"), r"multiple of 64"),
])
def test_rejected_chain_configs_name_the_place(kw, msg):
    with pytest.raises(LassError, match=msg) as e:
        run_pass(parse_mlir(gemm(**kw), "t.mlir"), make_pass("lasscc-tile-threadblock", "sm_90a"), "t.mlir")
    assert str(e.value).startswith("t.mlir:2:3: error: config")


def test_default_kernel_with_two_chains_assembles_without_spills():
    extra = ', schedule = "cooperative", persistent = 1, epilogue = "tma", instruction = [64, 128, 16]'
    res = compile_module(parse_mlir(gemm(ab="f16", d="f16", tb=(128, 256, 64), stages=4, extra=extra), "t.mlir"),
                         arch="sm_90a")
    assert res.ptx.count("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16") == 2 * 64 // 16
    assert "m64n256k16" not in res.ptx
    # the descriptors' smem base read at their use, between the k-tile's wgmma.fence and its first
    # wgmma (lower_sm90 _shared_address: ptxas then builds them in uniform registers)
    k_tile = res.ptx.split("wgmma.fence.sync.aligned")[1].split("wgmma.mma_async")[0]
    assert re.search(r"mov\.u32\s+%r\d+, lass_smem;", k_tile)
    info = ptxas_info(res.ptx, "sm_90a")  # raises on a wgmma serialization warning (C7510/C7517/C7519)
    if info is None:
        pytest.skip("ptxas not on PATH")
    assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0, info.line


def test_explain_counts_the_chains():
    from dataclasses import replace

    from lasscc.config import GemmConfig
    from lasscc.explain.hopper import hopper_numbers
    from lasscc.resources import wgmma_defaults

    cfg = GemmConfig(threadblock=(128, 256, 64), stages=4, mma="wgmma", **wgmma_defaults((128, 256, 64), 16))
    one = hopper_numbers(cfg, "sm_90a", "f16", "f32")
    two = hopper_numbers(replace(cfg, instruction=(64, 128, 16)), "sm_90a", "f16", "f32")
    assert (one.wgmma_n, one.wgmma_per_ktile) == (256, 4) and "m64n256k16" in one.wgmma_name
    assert (two.wgmma_n, two.wgmma_per_ktile) == (128, 8) and "m64n128k16" in two.wgmma_name
    assert two.acc_regs == one.acc_regs  # the same accumulator, split into chains
