"""The pingpong schedule with 128-row consumer tiles (`threadblock = [128, BN, BK], schedule =
"pingpong"`: each consumer warpgroup its own 128 x BN tile, two wgmma m64 per K step, CUTLASS's
128xN pingpong tile), and the pingpong TMA-store epilogue (staging shared by the consumers under the
ordering barrier), on the CPU executor, in the rules and in ptxas.

1. Numerics (and the 64-row tile with the TMA store): the kernel before lasscc-warp-specialize (one warpgroup on the whole tile), after it
   (producer + two consumer roles) and after lasscc-hopper-smem runs on random normal data (D
   NaN-poisoned, C with beta != 0) within the float64 reference's tolerance, the levels bit for
   bit equal: odd sizes (partial tiles in M, N and K), f16 / bf16 in, f32 / f16 D, an f16
   accumulator, epilogue = "tma" (and its direct fallback for a D row no tensor map can
   describe), persistent with an odd number of tiles per CTA; a fused bias[m] + GELU epilogue
   through the TMA store (`lasscc run --check`).
2. Planted bugs caught on the 128-row form: a wrong ordering-barrier parity (deadlock), the
   cooperative release rule kept (a consumer releases the other's slot: hazard), both consumers on
   one tile (ScheduleError), and the shared staging buffers handed over before the stores read them
   (the last bulk wait dropped: the other consumer's stmatrix writes a buffer a TMA store still
   reads).
3. Rules and ptxas: 128 x 256 f32 is rejected with the registers named (a located error, exit 2 from
   the CLI, no output file); 128x128x64 / 4 stages assembles without spills or wgmma serialization
   warnings (bf16 -> bf16 + TMA store, persistent), 8 wgmma per k-tile.
"""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
from xdsl.dialects import scf

from lasscc.diagnostics import LassError
from lasscc.dialects import lass_nv, lass_pipe, lass_sched, lass_wg
from lasscc.driver import compile_module
from lasscc.emit import ptxas_info
from lasscc.interp import AsyncHazardError, run_check
from lasscc.interp.errors import DeadlockError
from lasscc.interp.sched import ScheduleError
from lasscc.resources import CONSUMER_REGS, PRODUCER_REGS, wgmma_register_estimate
from lasscc.source import parse_mlir

from _wgmma_stages import passes_after, wgmma_gemm  # noqa: E402
from test_pingpong import _set_operand  # noqa: E402 -- the planted bugs' constant operand
from lit_zygote import lasscc_command  # tests/lit_zygote.py: the CLI through the suite's fork server

PP = ', schedule = "pingpong"'
TMA = ', epilogue = "tma"'
PERSIST = ", persistent = 1"


def gemm(ab="f16", d="f32", tb=(128, 64, 64), stages=2, beta=0.0, extra=PP, acc=None) -> str:
    text = wgmma_gemm(ab, d, tb, stages, extra, beta)
    return text.replace("config = {", f"acc = {acc}, config = {{") if acc else text


CASES = [  # (gemm kwargs, (M, N, K), execute_kernel kwargs)
    # 2 x 5 tiles of 128 x 64 (partial in M, N and K), 3 k-tiles on 2 stages, C read (beta)
    (dict(ab="f16", beta=0.5), (200, 264, 136), {}),
    # bf16 -> bf16 D through the TMA store, persistent on 2 CTAs: 3 x 3 tiles, CTA 0 takes 5 (consumer 0
    # three, consumer 1 two); 4 k-tiles on 3 stages
    (dict(ab="bf16", d="bf16", stages=3, extra=PP + TMA + PERSIST), (260, 136, 200), {"ctas": 2}),
    # f16 accumulators and D, 128 x 128 tiles, the TMA store (not persistent: one CTA per two tiles)
    (dict(ab="f16", d="f16", acc="f16", tb=(128, 128, 64), extra=PP + TMA), (130, 136, 72), {}),
    # a D row of 130 f16 (260 bytes: no tensor map): the TMA-store kernel's direct fallback
    (dict(ab="f16", d="f16", extra=PP + TMA), (140, 130, 64), {}),
    # the 64-row pingpong tile with the TMA store too (persistent on 2 CTAs: 3 x 3 tiles)
    (dict(ab="f16", d="f16", tb=(64, 64, 64), extra=PP + TMA + PERSIST), (130, 136, 72), {"ctas": 2}),
]
IDS = ["f16-f32D-beta", "bf16-bf16D-tma-persistent-odd", "f16acc-f16D-tma-128x128", "f16D-tma-fallback",
       "64-row-f16D-tma-persistent"]


@pytest.mark.parametrize("cfg,shape,kw", CASES, ids=IDS)
def test_pingpong128_matches_float64_at_every_level(cfg, shape, kw):
    m, n, k = shape
    mods = passes_after(gemm(**cfg))
    ds = {}
    for name in ("lasscc-warpgroup-mma", "lasscc-warp-specialize", "lasscc-hopper-smem"):
        r = run_check(mods[name], m, n, k, seed=7, alpha=1.5, beta=cfg.get("beta", 0.0), report_banks=False,
                      **(kw if name != "lasscc-warpgroup-mma" else {}))
        assert r["ok"], (name, r["rel_err"], r["tolerance"])
        assert not np.isnan(np.asarray(r["d"], np.float64)).any()
        ds[name] = np.asarray(r["d"])
    np.testing.assert_array_equal(ds["lasscc-warp-specialize"], ds["lasscc-warpgroup-mma"])
    np.testing.assert_array_equal(ds["lasscc-hopper-smem"], ds["lasscc-warp-specialize"])
    wg = mods["lasscc-warpgroup-mma"]
    rows = {str(o.row) for o in wg.walk() if isinstance(o, lass_wg.MmaOp)}
    # 128 rows: %wg_m0 and %wg_m0 + 64, one warpgroup issuing two m64 per K step
    assert len(rows) == cfg.get("tb", (128,))[0] // 64
    if "tma" in cfg.get("extra", ""):
        bars = [o for o in mods["lasscc-warp-specialize"].walk() if isinstance(o, lass_wg.NamedBarrierOp)]
        assert bars and all(o.threads.value.data == 128 for o in bars)  # one consumer warpgroup's


# ---- planted bugs ----------------------------------------------------------------------------------
BUG = gemm(tb=(128, 32, 64), stages=3)  # M = 256, N = 32, K = 256: 2 tiles (one per consumer), 4 k-tiles
BUG_SHAPE = (256, 32, 256)


def _bug_module(text: str = BUG, level: str = "lasscc-warp-specialize"):
    mod = passes_after(text)[level].clone()
    loop = next(o for o in mod.walk() if isinstance(o, scf.ForOp)
                and any(isinstance(x, lass_sched.ClaimOp) for x in o.body.block.ops))
    return mod, loop


def test_planted_wrong_order_parity_deadlocks():
    mod, loop = _bug_module()
    _set_operand(loop, 4, 0)  # the order parity's init: both consumers wait for the other
    with pytest.raises(DeadlockError, match=r"every role of the warp-specialized block waits") as e:
        run_check(mod, *BUG_SHAPE, seed=1, report_banks=False)
    assert str(e.value).count("wait for the phase of parity 0 of the mbarrier") == 2


def test_planted_release_of_the_other_consumers_slot():
    mod, loop = _bug_module()
    kloop = next(o for o in loop.body.block.ops if isinstance(o, scf.ForOp))
    rel = next(o for o in kloop.body.block.ops if isinstance(o, lass_pipe.ConsumerReleaseOp))
    _set_operand(rel.pred.owner, 0, 0)  # release k-tile kt - 1 whenever kt > 0 (the cooperative rule)
    with pytest.raises(AsyncHazardError, match="which the producer is still filling"):
        run_check(mod, *BUG_SHAPE, seed=1, report_banks=False)


def test_planted_both_consumers_on_one_tile():
    mod, loop = _bug_module()
    bid = next(o for o in mod.walk() if isinstance(o, lass_nv.BlockIdOp))
    loop.operands[0] = bid.results[0]
    with pytest.raises(ScheduleError, match="warpgroup 2 of block 0 takes tile 0, which warpgroup 1 of it took"):
        run_check(mod, *BUG_SHAPE, seed=1, report_banks=False)


def test_planted_staging_handed_over_before_the_stores_read_it():
    """Without the epilogue's last bulk wait, consumer 0 arrives on the ordering barrier while its TMA
    stores may still read the staging buffers that consumer 1's epilogue writes next."""
    mod, _ = _bug_module(gemm(tb=(128, 64, 64), stages=3, extra=PP + TMA), "lasscc-hopper-smem")
    gone = [o for o in mod.walk() if isinstance(o, lass_nv.BulkWaitGroupReadOp) and o.pending.value.data == 0]
    assert gone
    for o in gone:
        o.detach()
        o.erase()
    with pytest.raises(AsyncHazardError, match="may still be reading it .no bulk_wait_group_read"):
        run_check(mod, 256, 64, 128, seed=1, report_banks=False)


# ---- rules, CLI and ptxas ------------------------------------------------------------------------------
def test_register_rule_names_the_tile_and_the_budget(tmp_path):
    text = gemm(tb=(128, 256, 64), stages=4)
    with pytest.raises(LassError, match=r"^t.mlir:2:3: error: config: schedule = \"pingpong\": threadblock = "
                                        r"\[128, 256, 64\]: a consumer warpgroup's 128x256 accumulators need ~320 "
                                        r"registers per thread \(256 \+ ~64 others\), more than its 232 after "
                                        r"setmaxnreg; use a smaller threadblock N \(at most 168\)"):
        compile_module(parse_mlir(text, "t.mlir"), arch="sm_90a")
    src, out = tmp_path / "big.mlir", tmp_path / "big.ptx"
    src.write_text(text)
    res = subprocess.run([*lasscc_command(), "compile", "--arch", "sm_90a", str(src), "-o", str(out)],
                         capture_output=True, text=True)
    assert res.returncode == 2 and "big.mlir:2:3: error: config:" in res.stderr and "Traceback" not in res.stderr
    assert not out.exists()
    # an f16 accumulator halves the registers: 128 x 256 fits; 128 x 168 f32 is the largest that does
    from lasscc.config import GemmConfig
    from lasscc.resources import wgmma_defaults
    for tb, acc, fits in (((128, 256, 64), "f16", True), ((128, 168, 64), None, True), ((128, 176, 64), None, False)):
        cfg = GemmConfig(threadblock=tb, mma="wgmma", schedule="pingpong", **wgmma_defaults(tb, 16))
        assert (wgmma_register_estimate(cfg, acc) <= CONSUMER_REGS) == fits, (tb, acc)


def test_pingpong_128x128_assembles_without_spills(ab="bf16", d="bf16", extra=PP + TMA + PERSIST):
    """(f16 -> f32 and the other 128x128 cases: scripts/hopper_ws_check.py --dry-run --only 128x128x64.)"""
    res = compile_module(parse_mlir(gemm(ab=ab, d=d, tb=(128, 128, 64), stages=4, extra=extra), "t.mlir"),
                         arch="sm_90a")
    info = ptxas_info(res.ptx, "sm_90a")  # fails on C7510 / C7517 / C7519 too
    assert info is not None and info.spill_stores == 0 and info.spill_loads == 0
    spec = res.specs[0]
    assert spec.threads == 384 and spec.persistent and spec.grid(8192, 8192, sms=132) == (132, 1, 1)
    assert f"setmaxnreg.dec.sync.aligned.u32 \t{PRODUCER_REGS};" in res.ptx
    assert f"setmaxnreg.inc.sync.aligned.u32 \t{CONSUMER_REGS};" in res.ptx
    assert res.ptx.count("wgmma.mma_async.sync.aligned.m64n128k16") == 8  # 4 K steps x 2 m64 per k-tile
    if "tma" in extra:
        assert "cp.async.bulk.tensor.2d.global.shared::cta" in res.ptx and "stmatrix" in res.ptx
        assert "bar.sync \t1, 128;" in res.ptx or "barrier.sync \t1, 128;" in res.ptx


def test_explain_shows_the_consumer_tile_and_registers():
    from lasscc.explain import explain

    text = explain(parse_mlir(gemm(d="f16", tb=(128, 128, 64), stages=4, extra=PP + TMA + PERSIST), "t.mlir"),
                   "sm_90a", "t.mlir", None, (2, 2), resources=False, sms=2)
    assert "its own 128 x 128 tile: per wgmma K step one wgmma on rows 0..63 and one on rows 64..127" in text
    assert "consumer 0  1          4-7    128      168 -> 232 (setmaxnreg.inc)  its own 128 x 128 tiles" in text
    assert "accumulators: 128 per thread (128 x 128 f32 over 128 threads); + ~64 others (descriptors, addresses, loop state) = 192, within the 232" in text
    assert "8 wgmma per warpgroup" in text and "the consumer's second wgmma starts at" in text
    assert "the two consumers share the staging buffers" in text


def test_fused_row_bias_gelu_through_the_tma_store(tmp_path):
    """A fused epilogue indexed by row (bias[m] + GELU, issue 18) sees each m16 band's own rows (64
    apart in a 128-row consumer tile): `lasscc run --check` against float64 on the CPU executor."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "examples" / "gemm_bias_gelu.mlir").read_text()
    old = "config = {threadblock = [128, 128, 32], warp = [64, 64, 32], stages = 3}"
    assert old in text and "epilogue(%bias [n]" in text
    text = text.replace(old, 'config = {mma = "wgmma", threadblock = [128, 64, 64], stages = 3' + PP + PERSIST + TMA + "}")
    src = tmp_path / "bias_m.mlir"
    src.write_text(text.replace("epilogue(%bias [n]", "epilogue(%bias [m]"))
    res = subprocess.run([*lasscc_command(), "run", str(src), "--arch", "sm_90a", "--target", "cpu",
                          "--m", "300", "--n", "136", "--k", "136", "--check"], capture_output=True, text=True)
    assert res.returncode == 0 and "check   PASS" in res.stdout, res.stdout + res.stderr
