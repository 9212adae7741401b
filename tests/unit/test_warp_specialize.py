"""Warp specialization (`schedule = "cooperative"`, lasscc-warp-specialize) on the CPU executor,
its config rules and its kernels assembled by ptxas.

1. Numerics: each cooperative config is compiled once through lasscc-tile-threadblock ..
   lasscc-warpgroup-mma, lasscc-warp-specialize, lasscc-hopper-smem; the module before and after
   lasscc-warp-specialize and after lasscc-hopper-smem runs on random normal data (D NaN-poisoned,
   or C with beta != 0), each within the float64 reference's tolerance, and the roles reproduce the
   default schedule's D bit for bit (same wgmmas).  The roles run as their threads (interp/roles.py):
   the producer runs ahead until a slot it must refill is not released yet.
2. Planted bugs caught: a consumer releasing the slot the producer fills next (an async hazard:
   a stage nobody consumed), a wrong producer phase parity (a deadlock: every role waits), a
   consumer setmaxnreg beyond the register file (its inc waits forever: a deadlock).
3. Config rules (located errors) and ptxas: 128x256x64 / 4 stages f16 -> f32 and -> f16 assemble
   for sm_90a with no spill, 384 threads, setmaxnreg 40 / 232 and the consumers' named barrier.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp

from lasscc.diagnostics import LassError
from lasscc.dialects import lass_pipe, lass_wg
from lasscc.driver import compile_module
from lasscc.emit import ptxas_info
from lasscc.interp import AsyncHazardError, run_check
from lasscc.interp.errors import DeadlockError
from lasscc.interp.sched import ScheduleError
from lasscc.resources import CONSUMER_REGS, PRODUCER_REGS
from lasscc.source import parse_mlir

from _wgmma_stages import passes_after, wgmma_gemm  # noqa: E402

COOP = ', schedule = "cooperative"'


def gemm(ab="f16", d="f32", tb=(128, 64, 64), stages=3, beta=0.0, extra=COOP) -> str:
    return wgmma_gemm(ab, d, tb, stages, extra, beta)


def stages_of(text: str) -> dict[str, ModuleOp]:
    """The module after each pass of PASSES, by pass name (clones)."""
    return passes_after(text)

PERSIST = COOP + ", persistent = 1"
CASES = [  # (config kwargs, (M, N, K)): two consumer warpgroups with slot reuse; a 16-bit D; persistent
    (dict(ab="f16", tb=(128, 64, 64), stages=3, beta=0.5), (130, 66, 320)),
    (dict(ab="bf16", d="bf16", tb=(128, 64, 64), stages=2), (128, 128, 200)),
    (dict(ab="f16", tb=(128, 64, 64), stages=3, beta=0.5, extra=PERSIST), (300, 200, 136)),  # 12 tiles, 2 CTAs
]


@pytest.mark.parametrize("cfg,shape", CASES, ids=["f16-128x64-s3", "bf16-bf16-128x64-s2", "persistent-f16"])
def test_roles_match_float64_and_the_default_schedule(cfg, shape):
    m, n, k = shape
    beta = cfg.get("beta", 0.0)
    mods = stages_of(gemm(**cfg))
    ds = {}
    for name in ("lasscc-warpgroup-mma", "lasscc-warp-specialize", "lasscc-hopper-smem"):
        r = run_check(mods[name], m, n, k, seed=3, alpha=1.5, beta=beta, report_banks=False)
        assert r["ok"], (name, r["rel_err"], r["tolerance"])
        assert not np.isnan(np.asarray(r["d"], np.float64)).any()
        ds[name] = np.asarray(r["d"])
    np.testing.assert_array_equal(ds["lasscc-warp-specialize"], ds["lasscc-warpgroup-mma"])
    np.testing.assert_array_equal(ds["lasscc-hopper-smem"], ds["lasscc-warp-specialize"])
    ws = [o for o in mods["lasscc-hopper-smem"].walk() if isinstance(o, lass_wg.WarpSpecializeOp)]
    assert len(ws) == 1
    regs = {o.action.data: o.regs.value.data for o in mods["lasscc-hopper-smem"].walk()
            if isinstance(o, lass_wg.SetMaxNRegOp)}
    assert regs == {"dec": PRODUCER_REGS, "inc": CONSUMER_REGS}


def test_staged_epilogue_barrier_is_the_consumers():
    mod = stages_of(gemm(**CASES[1][0]))["lasscc-warp-specialize"]
    bars = [o for o in mod.walk() if isinstance(o, lass_wg.NamedBarrierOp)]
    assert bars and {(o.id.value.data, o.threads.value.data) for o in bars} == {(1, 256)}
    assert not any(o.name == "lass_nv.bar_sync" for o in mod.walk() if isinstance(o.parent_op(), lass_wg.WarpSpecializeOp))


BUG = gemm(ab="f16", tb=(128, 32, 64), stages=3)


def _ws_module() -> ModuleOp:
    return stages_of(BUG)["lasscc-warp-specialize"].clone()


def test_planted_release_of_the_slot_being_filled():
    """The consumer releases slot (kt + 1) % S, the one the producer fills next, instead of the
    slot of k-tile kt - 1."""
    mod = _ws_module()
    rel = next(o for o in mod.walk() if isinstance(o, lass_pipe.ConsumerReleaseOp))
    wait = next(o for o in mod.walk() if isinstance(o, lass_pipe.ConsumerWaitOp))
    one = arith.ConstantOp.from_int_and_width(1, 32)
    nxt = arith.AddiOp(wait.slot, one)
    stages = arith.ConstantOp.from_int_and_width(rel.barriers.type.count, 32)
    slot = arith.RemUIOp(nxt, stages)
    for o in (one, nxt, stages, slot):
        rel.parent_block().insert_op_before(o, rel)
    rel.operands[1] = slot.result
    with pytest.raises(AsyncHazardError, match="which the producer is still filling"):
        run_check(mod, 128, 32, 320, seed=1, report_banks=False)


def test_planted_wrong_producer_parity_deadlocks():
    mod = _ws_module()
    acq = next(o for o in mod.walk() if isinstance(o, lass_pipe.ProducerAcquireOp))
    one = arith.ConstantOp.from_int_and_width(1, 32)
    flip = arith.XOrIOp(acq.phase, one)
    acq.parent_block().insert_op_before(one, acq)
    acq.parent_block().insert_op_before(flip, acq)
    acq.operands[2] = flip.result
    with pytest.raises(DeadlockError, match="every role of the warp-specialized block waits"):
        run_check(mod, 128, 32, 320, seed=1, report_banks=False)


def test_planted_consumer_registers_beyond_the_register_file_deadlock():
    """Two consumer warpgroups raised to 248: 128 x 40 + 256 x 248 > 65536, so their inc waits for
    registers nobody releases."""
    mod = stages_of(gemm(ab="f16", tb=(128, 64, 64), stages=2))["lasscc-warp-specialize"].clone()
    inc = next(o for o in mod.walk() if isinstance(o, lass_wg.SetMaxNRegOp) and o.action.data == "inc")
    inc.parent_block().insert_op_before(lass_wg.SetMaxNRegOp("inc", 248), inc)
    inc.detach()
    inc.erase()
    with pytest.raises(DeadlockError, match="setmaxnreg.inc 248 waits for registers"):
        run_check(mod, 128, 64, 320, seed=1, report_banks=False)


def _tile_loops_step(mod: ModuleOp, step: int, times_ctas: bool) -> ModuleOp:
    """Every persistent tile loop (an scf.for from the block id) stepping by `step` (times the CTA
    count when `times_ctas`)."""
    from xdsl.dialects import scf

    from lasscc.dialects import lass_nv

    loops = [o for o in mod.walk() if isinstance(o, scf.ForOp) and isinstance(o.lb.owner, lass_nv.BlockIdOp)]
    assert len(loops) == 2  # the producer's and the consumers'
    for lp in loops:
        new = [arith.ConstantOp.from_int_and_width(step, 32)]
        if times_ctas:
            new.append(arith.MuliOp(lp.step, new[0].result))
        for o in new:
            lp.parent_block().insert_op_before(o, lp)
        lp.operands[2] = new[-1].results[0]
    return mod


def _persistent_ws() -> ModuleOp:
    return stages_of(gemm(tb=(128, 64, 64), stages=3, extra=PERSIST))["lasscc-warp-specialize"].clone()


def test_planted_two_ctas_take_one_tile():
    """Tile loops stepping by 1: CTA 0 walks every tile, then CTA 1 takes tile 1 again."""
    mod = _tile_loops_step(_persistent_ws(), 1, times_ctas=False)
    with pytest.raises(ScheduleError, match="takes tile 1, which block 0 took already"):
        run_check(mod, 300, 200, 136, seed=1, report_banks=False)


def test_planted_skipped_tiles():
    """Tile loops stepping by twice the CTA count: half the tiles are left to no CTA."""
    mod = _tile_loops_step(_persistent_ws(), 2, times_ctas=True)
    with pytest.raises(ScheduleError, match=r"leaves tile\(s\) \[2, 3, 6, 7, 10, 11\] of 12 to no CTA"):
        run_check(mod, 300, 200, 136, seed=1, report_banks=False)


@pytest.mark.parametrize("extra,arch,msg", [
    (COOP.replace("cooperative", "roundrobin"), "sm_90a",
     "config key 'schedule': expected 'default' or 'cooperative' or 'pingpong'"),
    (COOP + ", split_k = 2", "sm_90a", "takes no split_k yet"),
    (COOP, "sm_90a", "M must be 128"),
    (", persistent = 1", "sm_90a", "persistent = 1 needs schedule"),
])
def test_rejected_configs_name_the_place(extra, arch, msg):
    tb = (64, 64, 64) if msg.startswith("M must") else (128, 64, 64)
    with pytest.raises(LassError, match=msg) as e:
        compile_module(parse_mlir(gemm(tb=tb, extra=extra), "t.mlir"), arch=arch)
    assert str(e.value).startswith("t.mlir:")


def test_persistent_staged_epilogue_is_rejected():
    with pytest.raises(LassError, match="persistent = 1: the staged epilogue of a 16-bit D stages through the operand ring"):
        compile_module(parse_mlir(gemm(d="f16", extra=PERSIST), "t.mlir"), arch="sm_90a")


def test_schedule_needs_wgmma():
    text = gemm(extra=COOP).replace('mma = "wgmma", ', "").replace("[128, 64, 64]", "[128, 64, 32]")
    with pytest.raises(LassError, match="schedule = 'cooperative' needs mma = \"wgmma\""):
        compile_module(parse_mlir(text, "t.mlir"), arch="sm_80")  # (sm_90a: lasscc.family would pick wgmma)


@pytest.mark.parametrize("d,extra", [("f32", COOP), ("f16", COOP), ("f32", PERSIST)])
def test_cooperative_128x256_assembles_without_spills(d, extra):
    res = compile_module(parse_mlir(gemm(d=d, tb=(128, 256, 64), stages=4, extra=extra), "t.mlir"), arch="sm_90a")
    info = ptxas_info(res.ptx, "sm_90a")
    assert info is not None and info.spill_stores == 0 and info.spill_loads == 0
    assert res.specs[0].threads == 384 and ".maxntid 384, 1, 1" in res.ptx
    assert f"setmaxnreg.dec.sync.aligned.u32 \t{PRODUCER_REGS};" in res.ptx
    assert f"setmaxnreg.inc.sync.aligned.u32 \t{CONSUMER_REGS};" in res.ptx
    if d == "f16":  # the staged epilogue's barriers: the 256 consumers only
        assert "bar.sync \t1, 256;" in res.ptx
    assert res.specs[0].persistent == ("persistent" in extra)
    if res.specs[0].persistent:
        assert "%nctaid.x" in res.ptx and res.specs[0].grid(8192, 8192, sms=132) == (132, 1, 1)
