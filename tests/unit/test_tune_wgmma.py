"""`lasscc tune` on sm_90a: the Hopper search space (lasscc.tune.candidates with mma = "wgmma"), the
family it searches by default and when asked (--mma), without a GPU (the driver and the timing
loop are mocked where the CLI reaches them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lasscc.config import GemmConfig, KernelSpec
from lasscc.layout import K_MAJOR, MN_MAJOR
from lasscc.resources import wgmma_defaults
from lasscc.tune import (WGMMA_SEARCH_BN, WGMMA_SEARCH_EPILOGUES, WGMMA_SEARCH_RASTER, WGMMA_SEARCH_SCHEDULES,
                         WGMMA_SEARCH_STAGES, candidates, config_label, default_family)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("ab,k,bk", [("f16", 16, 64), ("bf16", 16, 64), ("f32", 8, 32), ("i8", 32, 128)])
def test_wgmma_space(ab, k, bk):
    """tile x schedule x persistent x epilogue x stages x raster, ~62 configs, every one valid by the rules."""
    ok, rejected = candidates("sm_90a", ab, "wgmma")
    assert ok and all(c.is_wgmma for c in ok) and len(ok) <= 64
    for c in ok:
        c.validate("sm_90a", ab_type=ab)
    assert {c.threadblock[1] for c in ok} == set(WGMMA_SEARCH_BN) and {c.threadblock[2] for c in ok} == {bk}
    assert {c.stages for c in ok} == set(WGMMA_SEARCH_STAGES) and {c.raster for c in ok} == set(WGMMA_SEARCH_RASTER)
    by = {(c.schedule, c.persistent, c.epilogue, c.threadblock[0]) for c in ok}
    assert by == {("default", 0, "direct", 64), ("default", 0, "direct", 128), ("pingpong", 0, "direct", 64),
                  ("pingpong", 1, "direct", 64), ("pingpong", 0, "direct", 128), ("pingpong", 1, "direct", 128)} | {
        ("cooperative", p, e, 128) for p in (0, 1) for e in ("direct", "tma")}
    assert len(ok) + len(rejected) == sum(len(bms) * len(p) * len(WGMMA_SEARCH_EPILOGUES.get(name, ("direct",)))
                                          for name, (bms, p) in WGMMA_SEARCH_SCHEDULES.items()) * len(
        WGMMA_SEARCH_BN) * len(WGMMA_SEARCH_STAGES) * len(WGMMA_SEARCH_RASTER)
    # 5 stages of the 128 x 256 x 128-byte tile need more than sm_90a's 227 KB: pruned, with the rule's text;
    # a pingpong consumer's own 128 x 256 tile holds 256 32-bit accumulators per thread: pruned at any stages
    assert rejected and all(c.threadblock[:2] == (128, 256) for c, _ in rejected)
    for c, why in rejected:
        if c.schedule == "pingpong":
            assert "128x256 accumulators need ~320 registers" in why, why
        else:
            assert "shared memory" in why and c.stages == 5, why
    assert sum(c.schedule == "pingpong" for c, _ in rejected) == len(WGMMA_SEARCH_STAGES) * 2 * len(WGMMA_SEARCH_RASTER)
    tb = (128, 256, bk)
    best = GemmConfig(threadblock=tb, stages=4, mma="wgmma", **wgmma_defaults(tb, k))
    assert best in ok  # the measured best plain kernel (BENCHMARKS.md)
    # the shape-aware default's kernel for a full grid (lasscc.heuristics.DP_KERNEL), measured faster
    assert GemmConfig(threadblock=tb, stages=4, mma="wgmma", schedule="cooperative", persistent=1, epilogue="tma",
                      **wgmma_defaults(tb, k)) in ok


def test_a_16bit_d_leaves_out_the_tile_walking_schedules():
    """A 16-bit D's staged epilogue reuses the ring: persistent and pingpong configs are not timed
    with it, only with the TMA store's own staging buffers."""
    ok, rejected = candidates("sm_90a", "f16", "wgmma", d_type="f16")
    assert ok and not any((c.persistent and c.epilogue == "direct") or c.schedule == "pingpong" for c in ok)
    assert {c.schedule for c in ok} == {"default", "cooperative"} and any(c.persistent for c in ok)
    assert any("staged through the operand ring" in why for _, why in rejected)
    assert len(candidates("sm_90a", "f16", "wgmma", d_type="f32")[0]) == len(candidates("sm_90a", "f16", "wgmma")[0])


def test_families():
    wg, _ = candidates("sm_90a", "f16", "wgmma")
    ms, _ = candidates("sm_90a", "f16", "mma.sync")
    both, _ = candidates("sm_90a", "f16", "all")
    assert both == ms + wg and not any(c.is_wgmma for c in ms)
    assert candidates("sm_80", "f16", "wgmma")[0] == []  # wgmma is sm_90a's
    assert candidates("sm_90a", "f32", "wgmma", (MN_MAJOR, K_MAJOR))[0] == []  # tf32 MN-major: mma.sync only
    assert candidates("sm_90a", "f16", "wgmma", (MN_MAJOR, MN_MAJOR))[0]  # 16-bit: transpose bits
    assert (default_family("sm_90a"), default_family("sm_80")) == ("wgmma", "mma.sync")
    assert config_label(wg[0]) == "wgmma 64x128x64 / s4"
    assert {config_label(c) for c in wg} >= {"wgmma 64x256x64 / s5 / pingpong / persistent / r16",
                                             "wgmma 128x256x64 / s4 / cooperative"}


@pytest.mark.parametrize("argv,k,family", [([], 4096, "wgmma"), (["--mma", "all"], 4096, "all"),
                                           (["--mma", "mma.sync"], 4096, "mma.sync"), ([], 1001, "mma.sync")],
                         ids=["default", "all", "mma.sync", "odd-k"])
def test_cli_tune_searches_the_family(monkeypatch, capsys, argv, k, family):
    """`lasscc tune` on a (mocked) Hopper GPU hands tune() the family: wgmma by default, --mma's, and
    mma.sync for sizes TMA cannot load (with the note)."""
    import lasscc.tune as T
    from lasscc.cli import main
    from lasscc.runtime import cuda

    monkeypatch.setattr(cuda, "driver_status", lambda: None)
    monkeypatch.setattr(cuda, "device_arch", lambda: "sm_90a")
    seen = {}

    def fake_tune(text, filename, arch, m, n, k, iters=20, ab_type="f16", mma=None, majors=None, acc_type=None, jobs=None,
                  d_type=None):
        seen.update(arch=arch, mma=mma, ab=ab_type, majors=majors)
        best = candidates(arch, ab_type, mma if mma != "all" else "mma.sync")[0][0]
        return {"ranking": [(1.0, config_label(best))], "rejected": [], "best": best,
                "check": {"rel_err": 0.0, "tflops": 1.0}, "key": "k", "path": "p", "compiled": 1, "jobs": 1,
                "compile_s": 0.0, "time_s": 0.0}

    monkeypatch.setattr(T, "tune", fake_tune)
    assert main(["tune", str(ROOT / "examples" / "linalg_matmul.mlir"),  # (a linalg.matmul: imported first)
                 "--m", "256", "--n", "256", "--k", str(k)] + argv) == 0
    assert seen["arch"] == "sm_90a" and seen["mma"] == family
    err = capsys.readouterr().err
    assert ("sm_90a compiles this GEMM with mma.sync, not wgmma: K = 1001" in err) == (k == 1001)


def test_a_stored_wgmma_winner_applies_on_sm90a_only(tmp_path, monkeypatch, capsys):
    """tune's wgmma winner is used where the target has wgmma; `lasscc compile` (sm_80 by default)
    on the same machine keeps the input as written instead of failing on it."""
    import argparse

    from lasscc.cli import _apply_tuned
    from lasscc.config import KernelSpec
    from lasscc.dialects.lass import GemmOp, config_from_attr
    from lasscc.source import parse_mlir
    from lasscc.tune import store_tuned, tune_key

    monkeypatch.setenv("LASSCC_CACHE_DIR", str(tmp_path))
    tb = (128, 256, 64)
    best = GemmConfig(threadblock=tb, stages=4, mma="wgmma", **wgmma_defaults(tb, 16))
    spec = KernelSpec(name="matmul", threads=256, smem_bytes=0, tile_m=128, tile_n=256, raster=8)
    store_tuned(tune_key(4096, 4096, 4096, spec, "NVIDIA H100"), best, 700.0)
    src = (ROOT / "examples" / "linalg_matmul.mlir").read_text()
    for arch, applied in (("sm_80", False), ("sm_90a", True)):
        module = parse_mlir(src, "mm.mlir")
        args = argparse.Namespace(file="mm.mlir", arch=arch, threadblock=None, warp=None, stages=None, raster=None,
                                  prefetch=None, split_k=None, split_k_mode=None)
        _apply_tuned(module, args)
        gemms = [o for o in module.walk() if isinstance(o, GemmOp)]
        assert (bool(gemms) and config_from_attr(gemms[0].config) == best) == applied
        assert ("using the tuned config" in capsys.readouterr().err) == applied
    # sizes TMA cannot load made the family mma.sync (lasscc.family.size_fallback): the wgmma winner stays out
    fixed = (ROOT / "examples" / "gemm.mlir").read_text().replace(
        "config = {threadblock = [128, 128, 32], warp = [64, 64, 32], instruction = [16, 8, 16], stages = 3}",
        'config = {align = [1, 8], mma = "mma.sync"}')
    module = parse_mlir(fixed, "g.mlir")
    _apply_tuned(module, argparse.Namespace(file="g.mlir", arch="sm_90a", threadblock=None, warp=None, stages=None,
                                            raster=None, prefetch=None, split_k=None, split_k_mode=None))
    (g,) = [o for o in module.walk() if isinstance(o, GemmOp)]
    assert set(g.config.data) == {"align", "mma"} and capsys.readouterr().err == ""


# ---- the second round: stream-K on the cooperative kernel, swap AB (issue 17) -----------------------
def _coop(persistent=1, epilogue="tma", schedule="cooperative", tb=(128, 256, 64)):
    return GemmConfig(threadblock=tb, stages=4, mma="wgmma", schedule=schedule, persistent=persistent,
                      epilogue=epilogue, **wgmma_defaults(tb, 16))


def test_cooperative_stream_k_candidates():
    """A cooperative config is timed with stream-K (persistent = 1: its producer walks the units), never
    split-K; 4096³ on 132 SMs: 512 tiles of 128 x 256, 116 past the last full wave, so the hybrid too.
    A pingpong config takes none; a 16-bit D staged through the ring only with the TMA store."""
    from dataclasses import replace

    from lasscc.tune import decomposition_candidates

    for base in (_coop(), _coop(persistent=0), _coop(epilogue="direct")):
        got = decomposition_candidates(base, 4096, 4096, 4096, 132, "f16")
        want = replace(base, persistent=1)
        assert got == [replace(want, split_k_mode="streamk"), replace(want, split_k_mode="streamk-dp")]
        for c in got:
            c.validate("sm_90a", ab_type="f16", d_type="f32")
    # 128 tiles at 2048 x 2048: fewer than the 132 CTAs, so no full wave for the hybrid
    assert [c.split_k_mode for c in decomposition_candidates(_coop(), 2048, 2048, 4096, 132)] == ["streamk"]
    assert decomposition_candidates(_coop(), 4224, 4096, 4096, 132) == []  # 33 x 16 = 528 tiles: 4 whole waves
    assert decomposition_candidates(_coop(schedule="pingpong", tb=(64, 128, 64)), 4096, 4096, 4096, 132) == []
    assert decomposition_candidates(_coop(epilogue="direct"), 4096, 4096, 4096, 132, "f16", "f16") == []
    assert len(decomposition_candidates(_coop(), 4096, 4096, 4096, 132, "f16", "f16")) == 2


def test_swap_candidates():
    """M <= heuristics.SWAP_AB_MAX_M < N: the SWAP_TOP swapped configs the cost model ranks fastest, the
    shape-aware default's pick first (16 x 4096 x 4096: 64x16 tiles of D^T, split 4 parallel, the
    measured fastest); plain kernels with direct stores whatever the base; none for a wide M."""
    import math

    from lasscc.heuristics import SWAP_AB_MAX_M, choose_swap_ab
    from lasscc.tune import SWAP_TOP, swap_candidates

    got = swap_candidates(_coop(), 16, 4096, 4096, 132, "sm_90a", "f16", "f32")
    assert 1 <= len(got) <= SWAP_TOP and len(set(got)) == len(got)
    assert all(c.swap_ab == 1 and (c.schedule, c.persistent, c.epilogue) == ("default", 0, "direct") for c in got)
    for c in got:
        c.validate("sm_90a", ab_type="f16", d_type="f32")
    plain = GemmConfig(threadblock=(128, 256, 64), stages=4, mma="wgmma", **wgmma_defaults((128, 256, 64), 16))
    assert got[0] == choose_swap_ab(16, 4096, 4096, "f16", 132, "sm_90a", plain, math.inf).config
    assert (got[0].threadblock, got[0].split_k, got[0].split_k_mode) == ((64, 16, 64), 4, "parallel")
    assert config_label(got[0]) == "wgmma 64x16x64 / s4 / split 4 parallel / swap AB"
    assert swap_candidates(_coop(), SWAP_AB_MAX_M + 1, 4096, 4096, 132, "sm_90a") == []
    assert swap_candidates(_coop(), 64, 64, 4096, 132, "sm_90a") == []  # N <= SWAP_AB_MAX_M: nothing to swap


@pytest.mark.parametrize("m,n,k,d,count", [(16, 4096, 4096, None, 55), (16, 4096, 4096, "f16", 53),
                                           (4096, 4096, 4096, None, 18), (4096, 4096, 4096, "f16", 14),
                                           (256, 256, 256, None, 6)])
def test_second_round(m, n, k, d, count):
    """The configs `tune` times after the first round (here the first round's ranking is the candidate
    order): split-K (serial, parallel, cluster) / stream-K of the 3 fastest plain configs, stream-K of the 3 fastest cooperative
    ones, clusters of the 3 fastest, at most SWAP_TOP swapped ones; each once, none timed before,
    every one valid for the D type."""
    from lasscc.tune import SWAP_TOP, second_round

    ok, _ = candidates("sm_90a", "f16", "wgmma", d_type=d)
    extra = second_round(ok, m, n, k, 132, "sm_90a", "f16", None, None, d)
    assert len(extra) == count and len(set(extra)) == len(extra) and not set(extra) & set(ok)
    for c in extra:
        c.validate("sm_90a", ab_type="f16", d_type=d)
    coop_sk = [c for c in extra if c.schedule == "cooperative"]
    assert coop_sk and all(c.is_streamk and c.persistent for c in coop_sk) or m == 256
    swapped = [c for c in extra if c.swap_ab]
    assert (1 <= len(swapped) <= SWAP_TOP) == (m == 16) and (swapped == []) == (m != 16)
    assert not any(c.schedule == "pingpong" for c in extra)
    if d == "f16":  # the stream-K cooperative kernel under a 16-bit D: TMA store only
        assert all(c.epilogue == "tma" for c in coop_sk)


def test_tune_times_the_second_round(tmp_path, monkeypatch):
    """tune() on a mocked GPU (compiles and timings faked): the second round's swapped and cooperative
    stream-K configs are timed beside the first round, and a swapped winner is checked and stored."""
    import lasscc.tune as T
    from lasscc.runtime import cuda, gemm_runner
    from lasscc.tune import second_round

    monkeypatch.setenv("LASSCC_CACHE_DIR", str(tmp_path))
    spec = KernelSpec(name="gemm", threads=128, smem_bytes=0, tile_m=64, tile_n=16, raster=8)

    class Res:
        ptx, specs = "", [spec]

    compiled = []

    def fake_compile_all(text, filename, arch, cfgs, jobs, label="compiling"):
        compiled.extend(cfgs)
        return [(c, Res(), None) for c in cfgs]

    timings = iter(range(10 ** 6))

    def fake_run_ranked(ptx, spec_, m, n, k, **kw):  # timed in compile order: the 64x16 swapped ones fastest
        i = next(timings)
        cfg = compiled[i] if i < len(compiled) else None
        fast = cfg is not None and cfg.swap_ab and cfg.threadblock[:2] == (64, 16)
        return {"tflops": 900.0 if fast else 100.0, "ok": True, "rel_err": 0.0}

    monkeypatch.setattr(T, "compile_all", fake_compile_all)
    monkeypatch.setattr(T, "_epilogue", lambda *a: None)
    monkeypatch.setattr(gemm_runner, "run_gemm", fake_run_ranked)
    monkeypatch.setattr(cuda, "sm_count", lambda: 132)
    monkeypatch.setattr(cuda, "device_name", lambda: "fake H100")
    out = T.tune("", "g.mlir", "sm_90a", 16, 4096, 4096, ab_type="f16", mma="wgmma", jobs=1, d_type="f32")
    ok, _ = candidates("sm_90a", "f16", "wgmma", d_type="f32")
    assert compiled[:len(ok)] == ok and out["compiled"] == len(compiled) == len(ok) + 55
    assert set(compiled[len(ok):]) == set(second_round(ok, 16, 4096, 4096, 132, "sm_90a", "f16", None, None, "f32"))
    assert out["best"].swap_ab == 1 and out["best"].threadblock[:2] == (64, 16)
    assert any(c.schedule == "cooperative" and c.is_streamk for c in compiled)
    assert "swap AB" in out["ranking"][0][1]
