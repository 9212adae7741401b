"""The TMA-store epilogue (config epilogue = "tma", passes/tma_store.py) on the CPU executor and ptxas.

1. Numerics: each config is compiled once through lasscc-hopper-smem; the warpgroup level (logical
   `lass_wg.tma_store`) and the physical one (`tma_store_2d` / `_3d` through D's tensor map) run
   on random normal data, D NaN-poisoned, against float64: f16 / bf16 / f32 / i32 D, row- and
   column-major D, odd shapes (129 x 200 x 72: partial tiles that the store clips), batched D (3-d
   map), the cooperative persistent schedule with a 16-bit D (2 CTAs walking 12 tiles), beta != 0
   (the direct path with C), and a D no tensor map can describe (column-major D with M = 129: rows
   258 bytes apart) taking the direct stores.
2. Planted bugs caught: a wrong stmatrix lane map (wrong numbers), a missing
   bulk_wait_group_read before a staging buffer is rewritten and at the kernel's end (async
   hazards), a missing fence.proxy.async (async hazard), a missing barrier before the store (race).
3. The layout facts: stmatrix.x4 and the swizzled staging rows are bank-conflict-free in every mode.
4. Host: the runner's D map is runtime.tma.store_map's (a placeholder where the kernel stores
   directly); config errors name the place; the kernels assemble without spills.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from lasscc import sm90_layout as S
from lasscc.diagnostics import LassError
from lasscc.dialects import lass_nv
from lasscc.driver import compile_module, make_pass, run_pass
from lasscc.emit import ptxas_info
from lasscc.interp import AsyncHazardError, RaceError, run_check
from lasscc.source import parse_mlir

from _wgmma_stages import WGMMA_PASSES as PASSES, passes_after, wgmma_gemm  # noqa: E402

TMA = ', epilogue = "tma"'
PERSIST = TMA + ', schedule = "cooperative", persistent = 1'


def gemm(ab="f16", d="f16", tb=(128, 64, 64), stages=2, ld="row", extra=TMA, batched=False) -> str:
    return wgmma_gemm(ab, d, tb, stages, extra, ld=ld, batched=batched)


def stages_of(text: str) -> dict[str, ModuleOp]:
    """The module after lasscc-warpgroup-mma / lasscc-warp-specialize ("wg") and lasscc-hopper-smem ("phys")."""
    out = passes_after(text)
    return {"wg": out["lasscc-warp-specialize"], "phys": out["lasscc-hopper-smem"]}

# (id, gemm kwargs, runs: [(M, N, K, beta, batch)])
CASES = [
    ("f16D-128x64", dict(d="f16", tb=(128, 64, 64)), [(129, 200, 72, 0.0, 1), (130, 66, 64, 0.5, 1)]),
    ("f32D-colD-64x128", dict(d="f32", tb=(64, 128, 64), ld="col"), [(136, 200, 72, 0.0, 1), (129, 200, 72, 0.0, 1)]),
    ("bf16D-64x128", dict(ab="bf16", d="bf16", tb=(64, 128, 64)), [(72, 136, 64, 0.0, 1)]),
    ("f16D-batched", dict(d="f16", tb=(128, 64, 64), batched=True), [(72, 80, 64, 0.0, 2)]),
    ("i32D-s8", dict(ab="i8", d="i32", tb=(64, 64, 128)), [(65, 64, 80, 0.0, 1)]),
    ("f16D-persistent", dict(d="f16", tb=(128, 64, 64), stages=3, extra=PERSIST), [(300, 200, 136, 0.0, 1)]),
]


@pytest.mark.parametrize("cfg,runs", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_tma_store_epilogue_matches_float64(cfg, runs):
    mods = stages_of(gemm(**cfg))
    ops = {o.name for o in mods["phys"].walk()}
    assert {"lass_nv.tma_store_3d" if cfg.get("batched") else "lass_nv.tma_store_2d", "lass_nv.bulk_commit_group",
            "lass_nv.bulk_wait_group_read", "lass_nv.fence_proxy_async"} <= ops
    assert ("lass_nv.stmatrix_x4" in ops) == (cfg.get("d") in ("f16", "bf16"))
    for m, n, k, beta, batch in runs:
        ds = []
        for level in ("wg", "phys"):
            r = run_check(mods[level], m, n, k, seed=5, alpha=1.5, beta=beta, batch=batch, report_banks=False)
            assert r["ok"], (level, m, n, k, r["rel_err"], r["tolerance"])
            assert not np.isnan(np.asarray(r["d"], np.float64)).any()
            ds.append(np.asarray(r["d"]))
        np.testing.assert_array_equal(ds[0], ds[1])  # the tensor map stores what the logical store does


# ---- planted bugs ---------------------------------------------------------------------------------
def _without(mod: ModuleOp, cls, pred=lambda o: True) -> ModuleOp:
    mod = mod.clone()
    gone = [o for o in mod.walk() if isinstance(o, cls) and pred(o)]
    assert gone
    for o in gone:
        o.detach()
        o.erase()
    return mod


F32_FOUR_SUBTILES = dict(d="f32", tb=(64, 128, 64))  # 4 subtiles of 32 columns: both buffers reused


def test_planted_wrong_stmatrix_lane_map_gives_wrong_numbers(monkeypatch):
    """Lanes 8q.. addressing matrix q's rows with the two middle matrices swapped (row halves and
    column halves exchanged): every stmatrix writes its registers to the wrong quarter."""
    from lasscc.passes import tma_store

    wrong = lambda lane: ((lane & 7) + ((lane >> 4) & 1) * 8, ((lane >> 3) & 1) * 8)  # noqa: E731
    monkeypatch.setattr(tma_store.S90, "stmatrix_lane_cell", wrong)
    mod = parse_mlir(gemm(d="f16", tb=(64, 64, 64)), "t.mlir")
    for name in PASSES[:4]:
        run_pass(mod, make_pass(name, "sm_90a"), "t.mlir")
    r = run_check(mod, 64, 64, 64, seed=1, alpha=1.5, report_banks=False)
    assert not r["ok"]


def test_planted_missing_wait_before_the_buffer_is_rewritten():
    mod = _without(stages_of(gemm(**F32_FOUR_SUBTILES))["phys"], lass_nv.BulkWaitGroupReadOp,
                   lambda o: o.pending.value.data == 1)
    with pytest.raises(AsyncHazardError, match="may still be reading it .no bulk_wait_group_read"):
        run_check(mod, 64, 128, 64, seed=1, report_banks=False)


def test_planted_missing_final_wait_is_reported_at_the_kernel_end():
    mod = _without(stages_of(gemm(**F32_FOUR_SUBTILES))["phys"], lass_nv.BulkWaitGroupReadOp,
                   lambda o: o.pending.value.data == 0)
    with pytest.raises(AsyncHazardError, match="the kernel ends while this TMA store"):
        run_check(mod, 64, 128, 64, seed=1, report_banks=False)


# the persistent kernel's deferred wait: 4 subtiles of 32 f32 columns, 2 CTAs walking 3 tiles each
PERSISTENT_F32 = dict(d="f32", tb=(128, 128, 64), stages=3, extra=PERSIST)
PERSISTENT_RUN = (300, 200, 136)


def _pending0(mod: ModuleOp) -> list:
    return [o for o in mod.walk() if isinstance(o, lass_nv.BulkWaitGroupReadOp) and o.pending.value.data == 0]


def test_persistent_kernel_defers_the_wait_to_the_buffers_reuse_and_the_store_tail():
    """Persistent: no wait for all stores at a tile's end; thread 0 waits for the previous tile's stores
    at the next tile's first subtile (inside the tile loop) and once after it (the store tail)."""
    from xdsl.dialects import scf

    mod = stages_of(gemm(**PERSISTENT_F32))["phys"]
    waits = _pending0(mod)
    assert len(waits) == 2

    def in_tile_loop(op) -> bool:
        p = op.parent_op()
        while p is not None:
            if isinstance(p, scf.ForOp) and any(isinstance(x, lass_nv.BulkWaitGroupReadOp) for x in p.walk()) \
                    and any(x.name == "lass_sched.claim" for x in p.walk()):
                return True
            p = p.parent_op()
        return False

    assert [in_tile_loop(w) for w in waits] == [True, False]
    r = run_check(mod, *PERSISTENT_RUN, seed=2, alpha=1.5, report_banks=False)
    assert r["ok"] and not np.isnan(np.asarray(r["d"], np.float64)).any()


def test_planted_persistent_missing_wait_before_the_next_tile_rewrites_a_buffer():
    mod = stages_of(gemm(**PERSISTENT_F32))["phys"].clone()
    first = _pending0(mod)[0]
    first.detach()
    first.erase()
    with pytest.raises(AsyncHazardError, match="may still be reading it .no bulk_wait_group_read"):
        run_check(mod, *PERSISTENT_RUN, seed=1, report_banks=False)


def test_planted_persistent_missing_store_tail_is_reported_at_the_kernel_end():
    mod = stages_of(gemm(**PERSISTENT_F32))["phys"].clone()
    last = _pending0(mod)[-1]
    last.detach()
    last.erase()
    with pytest.raises(AsyncHazardError, match="the kernel ends while this TMA store"):
        run_check(mod, *PERSISTENT_RUN, seed=1, report_banks=False)


def test_planted_missing_proxy_fence():
    mod = _without(stages_of(gemm(**F32_FOUR_SUBTILES))["phys"], lass_nv.FenceProxyAsyncOp)
    with pytest.raises(AsyncHazardError, match="through the async proxy.*no fence.proxy.async"):
        run_check(mod, 64, 128, 64, seed=1, report_banks=False)


def test_planted_missing_barrier_before_the_store_is_a_race():
    """Without the bar.sync after the staging writes, thread 0's store reads other threads' bytes
    that no barrier ordered."""
    mod = stages_of(gemm(**F32_FOUR_SUBTILES))["phys"].clone()
    bars = [o for o in mod.walk() if isinstance(o, lass_nv.BarSyncOp) and isinstance(o.prev_op, lass_nv.FenceProxyAsyncOp)]
    assert bars
    for o in bars:
        o.detach()
        o.erase()
    with pytest.raises(RaceError):
        run_check(mod, 64, 128, 64, seed=1, report_banks=False)


# ---- the layout facts -----------------------------------------------------------------------------
def test_stmatrix_lane_map_covers_the_16x16_block_as_the_isa_fragment():
    """Lane 8q + j addresses row j of matrix q; register q of lane 4j + t holds row j, columns 2t,
    2t + 1 of matrix q (PTX ISA stmatrix), which must be the accumulator pair of that lane:
    sm90_layout.acc_coord (the wgmma fragment) at the matrix origin."""
    cells = {S.stmatrix_lane_cell(lane) for lane in range(32)}
    assert cells == {(r, c) for r in range(16) for c in (0, 8)}
    for lane in range(32):
        q, j = divmod(lane, 8)
        r0, c0 = S.stmatrix_matrix_origin(q)
        assert S.stmatrix_lane_cell(lane) == (r0 + j, c0)
    for t in range(32):  # warp 0's thread t: accumulator values of n8 block nb at row g (+8), column 2 (t % 4)
        for q in range(4):
            r0, c0 = S.stmatrix_matrix_origin(q)
            v = (c0 // 8) * 4 + (2 if r0 else 0)  # the pair of block c0 / 8, half r0 / 8
            assert S.acc_coord(t, v) == (r0 + t // 4, c0 + 2 * (t % 4))


@pytest.mark.parametrize("mode", [S.SwizzleMode.B128, S.SwizzleMode.B64, S.SwizzleMode.B32])
@pytest.mark.parametrize("d_bytes", [2, 4])
def test_staging_writes_are_bank_conflict_free(mode, d_bytes):
    """stmatrix (16-bit D): each 8-lane phase writes 8 rows of 16 bytes at one column: 32 distinct
    banks, one wavefront.  st.shared.v2 (32-bit D): each half-warp writes rows g..g+3, columns 2t,
    2t + 1 of an 8-column block: 2 chunks per line, and the XOR swizzle maps lines r and r ^ 1 to the
    same chunk pair, so 2 wavefronts per half-warp (measured here, not more)."""
    cols = mode.width_bytes // d_bytes
    for row0 in range(0, 64, 8):
        if d_bytes == 2:
            for c in range(0, cols, 8):
                addr = np.array([S.epilogue_stage_offset(row0 + j, c, d_bytes, mode) for j in range(8)])
                banks = ((addr[:, None] + np.arange(16)[None, :]) // 4 % 32).reshape(-1)
                assert sorted(set(banks.tolist())) == list(range(32)), (row0, c)
        else:
            for c in range(0, cols, 8):
                for half in (0, 1):
                    lanes = range(16 * half, 16 * half + 16)
                    addr = np.array([S.epilogue_stage_offset(row0 + lane // 4, c + 2 * (lane % 4), d_bytes, mode)
                                     for lane in lanes])
                    words = np.unique(((addr[:, None] + np.arange(0, 8, 4)[None, :]) // 4).reshape(-1))
                    assert np.bincount(words % 32, minlength=32).max() <= 2, (row0, c, half)


# ---- host, config, ptxas ---------------------------------------------------------------------------
def test_runner_builds_d_map_by_store_map(monkeypatch):
    from lasscc.driver import kernel_specs
    from lasscc.runtime import tma
    from lasscc.runtime.gemm_runner import _tensor_map

    spec = kernel_specs(stages_of(gemm(d="f32", tb=(64, 128, 64), ld="col"))["phys"])[0]
    assert spec.params[-3:] == ("tmap_A", "tmap_B", "tmap_D")
    assert spec.tensor_maps[-1] == ("D", 64, 32, "128b", "k")
    monkeypatch.setattr(tma, "encode", lambda s, address, what="": (s, address))
    for m, n, usable in ((136, 200, True), (129, 200, False)):  # kernel N = the caller's M (column-major D)
        vals = dict(zip(spec.params, spec.param_values(1024, 2048, 4096, m, n, 72, 1.0, 0.0, tensor_map=_tensor_map(spec))))
        tspec, address = vals["tmap_D"]
        want, ok = tma.store_map("f32", n, m, 64, 32, "128b")
        assert ok == usable and tspec == want and address == 4096
        assert (tspec.rows, tspec.cols) == ((n, m) if usable else (64, 32))


@pytest.mark.parametrize("extra,d,msg", [
    (', epilogue = "tma", split_k = 2', "f32", 'epilogue = "tma" takes no split-K'),
    (', epilogue = "smem"', "f32", "config key 'epilogue': expected 'direct' or 'tma'"),
])
def test_rejected_configs_name_the_place(extra, d, msg):
    with pytest.raises(LassError, match=msg) as e:
        run_pass(parse_mlir(gemm(d=d, extra=extra), "t.mlir"), make_pass("lasscc-tile-threadblock", "sm_90a"), "t.mlir")
    assert str(e.value).startswith("t.mlir:")


def test_tma_epilogue_needs_wgmma():
    text = gemm(d="f32").replace('mma = "wgmma", ', "").replace("[128, 64, 64]", "[128, 64, 32]")
    with pytest.raises(LassError, match='epilogue = "tma" needs mma = "wgmma"'):
        run_pass(parse_mlir(text, "t.mlir"), make_pass("lasscc-tile-threadblock", "sm_80"), "t.mlir")


@pytest.mark.parametrize("d,tb,stages,extra", [("f16", (128, 256, 64), 4, PERSIST), ("f32", (64, 128, 64), 2, TMA)],
                         ids=["f16D-128x256-persistent", "f32D-64x128"])
def test_tma_store_kernels_assemble_without_spills(d, tb, stages, extra):
    res = compile_module(parse_mlir(gemm(d=d, tb=tb, stages=stages, extra=extra), "t.mlir"), arch="sm_90a")
    ptx = res.ptx
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in ptx and "cp.async.bulk.commit_group" in ptx
    assert "cp.async.bulk.wait_group.read" in ptx and "fence.proxy.async.shared::cta" in ptx
    assert ("stmatrix.sync.aligned.m8n8.x4.shared.b16" in ptx) == (d == "f16")
    spec = res.specs[0]
    assert spec.params[-1] == "tmap_D" and spec.smem_bytes <= 227 * 1024
    info = ptxas_info(ptx, "sm_90a")  # raises on a wgmma serialization warning (C7510/C7517/C7519)
    if info is None:
        pytest.skip("ptxas not on PATH")
    assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0, info.line


def test_explain_shows_the_staging_and_the_epilogue(tmp_path, capsys):
    from lasscc.cli import main

    src = tmp_path / "g.mlir"
    src.write_text(gemm(d="f16", tb=(128, 256, 64), stages=4))
    assert main(["explain", str(src), "--arch", "sm_90a", "--stage", "lasscc-hopper-smem"]) == 0
    out = capsys.readouterr().out
    assert "TMA-store staging  2 x 128 x 128 B     32768 B   at 196608" in out
    assert "4 subtiles of 128 x 64 f16 (128B swizzle, tensor map tmap_D, box 64 x 128)" in out
    assert "stmatrix.x4 per 16 x 16 block" in out and "fits: 99% of the sm_90a limit" in out


def test_staging_counts_against_the_shared_memory_limit():
    """128 x 256 x 64 f16 fits 4 stages with the 32 KB of staging (229440 of 232448 bytes), not 5."""
    from lasscc.config import GemmConfig

    cfg = GemmConfig(threadblock=(128, 256, 64), warp=(64, 256, 64), instruction=(64, 256, 16), stages=4, mma="wgmma",
                     epilogue="tma")
    cfg.validate("sm_90a", ab_type="f16", d_type="f16")
    assert cfg.smem_bytes(2) == 229440
    with pytest.raises(LassError, match=r"stages=5 needs 278608 bytes of shared memory \(rings and 2 mbarriers per "
                                        r"stage, 32768 bytes of TMA-store staging\); sm_90a allows 232448; stages <= 4"):
        GemmConfig(**{**cfg.__dict__, "stages": 5}).validate("sm_90a", ab_type="f16", d_type="f16")


def test_mma_sync_fallback_drops_the_tma_epilogue(tmp_path, capsys):
    """Sizes TMA cannot load (K = 33) send a GEMM without `mma` to mma.sync with a note; its
    epilogue = "tma" goes with the TMA pipeline (lasscc.family)."""
    from lasscc.cli import main

    src = tmp_path / "g.mlir"
    src.write_text(gemm(d="f16", tb=(128, 128, 32), stages=3).replace('mma = "wgmma", ', ""))
    assert main(["run", str(src), "--arch", "sm_90a", "--target", "cpu", "--m", "64", "--n", "64", "--k", "33",
                 "--check", "--no-cache"]) == 0
    cap = capsys.readouterr()
    assert "sm_90a compiles this GEMM with mma.sync, not wgmma" in cap.err and "PASS" in cap.out


def test_gpu_scripts_tma_store_cases_pass_the_config_checks():
    """scripts/gpu_matrix.py --hopper's and scripts/hopper_check.py --tma-store's epilogue = "tma"
    kernels pass lasscc-tile-threadblock's checks for sm_90a (no GPU needed)."""
    import importlib.util
    from pathlib import Path

    def script(name):
        spec = importlib.util.spec_from_file_location(name, Path(__file__).resolve().parents[2] / "scripts" / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    texts = [c[4] for c in script("gpu_matrix").hopper_cases() if c[0].endswith(" tma")]
    hc = script("hopper_check")
    texts += [hc.gemm_text(ab, tb, s, d, extra) for _, ab, d, tb, s, extra in hc.TMA_STORE_CASES]
    assert len(texts) == 16 + 7 and sum('epilogue = "tma"' in t for t in texts) == 16 + 4
    for text in texts:
        run_pass(parse_mlir(text, "m.mlir"), make_pass("lasscc-tile-threadblock", "sm_90a"), "m.mlir")
