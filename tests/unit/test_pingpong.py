"""The pingpong schedule (`schedule = "pingpong"`, CUTLASS's KernelTmaWarpSpecializedPingpong;
lasscc-warp-specialize, lasscc.schedule) on the CPU executor, its rules and its kernels in ptxas.

1. Numerics: each config is compiled once through lasscc-tile-threadblock .. lasscc-hopper-smem;
   the kernel before lasscc-warp-specialize (one warpgroup, every thread a consumer), after it
   (a producer and two consumer warpgroups, each its own role on alternate tiles, ordered by the
   mbarriers of the ordering barrier) and after lasscc-hopper-smem runs on random normal data (D
   NaN-poisoned, or C with beta != 0) within the float64 reference's tolerance, the roles bit for
   bit equal to the unsplit kernel: odd sizes with partial tiles, more k-tiles than stages (slots
   reused inside a tile and across the two consumers' tiles), column-major D, a persistent launch
   with an odd number of tiles per CTA.
2. Planted bugs caught: a wrong ordering-barrier parity (both consumers wait: deadlock naming the
   waits), a consumer numbering its k-tiles from the other's (it waits for slots of the other's
   tile: deadlock), the cooperative release rule kept (a consumer releases the other's last slot,
   which it never waited for: hazard), both consumers on one tile (ScheduleError).
3. Rules (located errors) and ptxas: 64x256x64 / 4 stages f16 and bf16 -> f32 assemble for sm_90a
   with no spill, 384 threads, setmaxnreg 40 / 232, the grid of the launch.  (128-row consumer
   tiles: tests/unit/test_pingpong128.py.)
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ModuleOp

from lasscc.diagnostics import LassError
from lasscc.dialects import lass_nv, lass_pipe, lass_sched, lass_wg
from lasscc.driver import compile_module
from lasscc.emit import ptxas_info
from lasscc.interp import AsyncHazardError, run_check
from lasscc.interp.errors import DeadlockError
from lasscc.interp.sched import ScheduleError
from lasscc.resources import CONSUMER_REGS, PRODUCER_REGS, ring_arrivals
from lasscc.schedule import consumer_tiles, cta_tiles, launch_ctas, order_phase
from lasscc.source import parse_mlir

from _wgmma_stages import passes_after, wgmma_gemm  # noqa: E402

PP = ', schedule = "pingpong"'


def gemm(ab="f16", d="f32", tb=(64, 64, 64), stages=2, beta=0.0, extra=PP, d_col=False) -> str:
    return wgmma_gemm(ab, d, tb, stages, extra, beta, "col" if d_col else "row")


def stages_of(text: str) -> dict[str, ModuleOp]:
    return passes_after(text)

CASES = [  # (gemm kwargs, (M, N, K), execute_kernel kwargs)
    # 4 x 5 tiles (partial in M, N and K), 3 k-tiles on 2 stages, 10 CTAs of 2 tiles
    (dict(ab="f16", stages=2, beta=0.5), (200, 264, 136), {}),
    # column-major D (the kernel's 100 x 130: 2 x 3 tiles), persistent on 2 CTAs: 3 tiles each
    # (consumer 0 takes two, consumer 1 one), 4 k-tiles on 3 stages
    (dict(ab="bf16", stages=3, d_col=True, extra=PP + ", persistent = 1"), (130, 100, 256), {"ctas": 2}),
]


@pytest.mark.parametrize("cfg,shape,kw", CASES, ids=["f16-200x264x136", "bf16-colD-persistent-odd"])
def test_pingpong_matches_float64_and_the_unsplit_kernel(cfg, shape, kw):
    m, n, k = shape
    beta = cfg.get("beta", 0.0)
    mods = stages_of(gemm(**cfg))
    ds = {}
    for name in ("lasscc-warpgroup-mma", "lasscc-warp-specialize", "lasscc-hopper-smem"):
        r = run_check(mods[name], m, n, k, seed=5, alpha=1.5, beta=beta, report_banks=False,
                      **(kw if name != "lasscc-warpgroup-mma" else {}))
        assert r["ok"], (name, r["rel_err"], r["tolerance"])
        assert not np.isnan(np.asarray(r["d"], np.float64)).any()
        ds[name] = np.asarray(r["d"])
    np.testing.assert_array_equal(ds["lasscc-warp-specialize"], ds["lasscc-warpgroup-mma"])
    np.testing.assert_array_equal(ds["lasscc-hopper-smem"], ds["lasscc-warp-specialize"])
    ws = [o for o in mods["lasscc-warp-specialize"].walk() if isinstance(o, lass_wg.WarpSpecializeOp)]
    assert len(ws) == 1 and ws[0].independent_consumers is not None
    pipe = next(o for o in mods["lasscc-warp-specialize"].walk() if isinstance(o, lass_pipe.TmaPipelineOp))
    assert pipe.arrivals.value.data == 128  # one consumer warpgroup releases a k-tile


def test_schedule_formulas():
    """Which CTA / consumer takes which tile, the launch, the ordering parities."""
    assert cta_tiles(1, 4, 11) == [1, 5, 9]
    assert consumer_tiles(1, 4, 11, 0) == [1, 9] and consumer_tiles(1, 4, 11, 1) == [5]
    assert launch_ctas(11, persistent=False, per_cta=2) == 6 and launch_ctas(11, True, 2, sms=4) == 4
    assert launch_ctas(3, True, 2, sms=132) == 3
    # consumer 0 passes its first waits (opposite parity), consumer 1 waits for consumer 0's arrivals
    assert [order_phase(0, j) for j in range(3)] == [1, 0, 1] and [order_phase(1, j) for j in range(3)] == [0, 1, 0]


# ---- planted bugs ----------------------------------------------------------------------------------
BUG = gemm(tb=(64, 32, 64), stages=3)  # M = 128, N = 32, K = 256: 2 tiles (one per consumer), 4 k-tiles
BUG_SHAPE = (128, 32, 256)


def _bug_module():
    mod = stages_of(BUG)["lasscc-warp-specialize"].clone()
    loop = next(o for o in mod.walk() if isinstance(o, scf.ForOp)
                and any(isinstance(x, lass_sched.ClaimOp) for x in o.body.block.ops))
    return mod, loop


def _set_operand(op, index: int, value: int) -> None:
    c = arith.ConstantOp.from_int_and_width(value, 32)
    op.parent_block().insert_op_before(c, op)
    op.operands[index] = c.result


def test_planted_wrong_order_parity_deadlocks():
    """Both consumers start on parity 0: consumer 0 waits for consumer 1's mainloop, which waits for
    consumer 0's."""
    mod, loop = _bug_module()
    _set_operand(loop, 4, 0)  # iter_args(%kt_base, %order): the order parity's init
    with pytest.raises(DeadlockError, match=r"every role of the warp-specialized block waits") as e:
        run_check(mod, *BUG_SHAPE, seed=1, report_banks=False)
    msg = str(e.value)
    assert "consumer 0 (warpgroup 1)" in msg and "consumer 1 (warpgroup 2)" in msg
    assert msg.count("wait for the phase of parity 0 of the mbarrier") == 2  # each consumer's order wait


def test_planted_consumer_waits_the_other_consumers_slots():
    """Consumer 1 numbers its k-tiles from 0 (consumer 0's) instead of 4: it waits for the slots of
    the other's tile, whose next fills the producer cannot make."""
    mod, loop = _bug_module()
    _set_operand(loop, 3, 0)  # %kt_base's init
    with pytest.raises(DeadlockError, match=r"every role of the warp-specialized block waits") as e:
        run_check(mod, *BUG_SHAPE, seed=1, report_banks=False)
    msg = str(e.value)
    assert "producer: " in msg and "to be released" in msg
    assert "consumer 1 (warpgroup 2): " in msg and "waits for the TMA bytes of slot" in msg


def test_planted_release_of_the_other_consumers_slot():
    """The cooperative rule kept (release k-tile kt - 1 whenever kt > 0): consumer 1's first k-tile
    releases consumer 0's last slot, which it never waited for."""
    mod, loop = _bug_module()
    kloop = next(o for o in loop.body.block.ops if isinstance(o, scf.ForOp))
    rel = next(o for o in kloop.body.block.ops if isinstance(o, lass_pipe.ConsumerReleaseOp))
    cmp = rel.pred.owner
    _set_operand(cmp, 0, 0)
    with pytest.raises(AsyncHazardError, match="which the producer is still filling"):
        run_check(mod, *BUG_SHAPE, seed=1, report_banks=False)


def test_planted_both_consumers_on_one_tile():
    mod, loop = _bug_module()
    bid = next(o for o in mod.walk() if isinstance(o, lass_nv.BlockIdOp))
    loop.operands[0] = bid.results[0]  # no consumer offset
    with pytest.raises(ScheduleError, match="warpgroup 2 of block 0 takes tile 0, which warpgroup 1 of it took"):
        run_check(mod, *BUG_SHAPE, seed=1, report_banks=False)


# ---- rules and ptxas ---------------------------------------------------------------------------------
@pytest.mark.parametrize("tb,extra,d,msg", [
    ((128, 256, 64), PP, "f32", r"threadblock = \[128, 256, 64\]: a consumer warpgroup's 128x256 accumulators "
                                r"need ~320 registers per thread \(256 \+ ~64 others\), more than its 232"),
    ((64, 64, 64), PP + ", split_k = 2", "f32", 'schedule = "pingpong" takes no split_k yet'),
    ((64, 64, 64), PP, "f16", 'schedule = "pingpong": the staged epilogue of a 16-bit D stages through the '
                              'operand ring'),
])
def test_rejected_configs_name_the_place(tb, extra, d, msg):
    with pytest.raises(LassError, match=msg) as e:
        compile_module(parse_mlir(gemm(tb=tb, extra=extra, d=d), "t.mlir"), arch="sm_90a")
    assert str(e.value).startswith("t.mlir:")


def test_ring_arrivals_rule():
    from lasscc.config import GemmConfig
    from lasscc.resources import wgmma_defaults

    tb = (64, 128, 64)
    cfg = GemmConfig(threadblock=tb, mma="wgmma", schedule="pingpong", **wgmma_defaults(tb, 16))
    assert ring_arrivals(cfg) == 128 and cfg.threads == 384
    coop = GemmConfig(threadblock=(128, 128, 64), mma="wgmma", schedule="cooperative",
                      **wgmma_defaults((128, 128, 64), 16))
    assert ring_arrivals(coop) == 256


@pytest.mark.parametrize("ab,extra", [("f16", PP), ("bf16", PP + ", persistent = 1")])
def test_pingpong_64x256_assembles_without_spills(ab, extra):
    res = compile_module(parse_mlir(gemm(ab=ab, tb=(64, 256, 64), stages=4, extra=extra), "t.mlir"), arch="sm_90a")
    info = ptxas_info(res.ptx, "sm_90a")  # fails on C7510 / C7517 / C7519 too
    assert info is not None and info.spill_stores == 0 and info.spill_loads == 0
    spec = res.specs[0]
    assert spec.threads == 384 and ".maxntid 384, 1, 1" in res.ptx
    assert f"setmaxnreg.dec.sync.aligned.u32 \t{PRODUCER_REGS};" in res.ptx
    assert f"setmaxnreg.inc.sync.aligned.u32 \t{CONSUMER_REGS};" in res.ptx
    assert "mbarrier.try_wait.parity" in res.ptx and "%nctaid.x" in res.ptx
    if "persistent" in extra:
        assert spec.persistent and spec.grid(8192, 8192, sms=132) == (132, 1, 1)
    else:  # one CTA per two tiles (one per consumer)
        assert not spec.persistent and spec.grid(8192, 8192, sms=132) == (128 * 32 // 2, 1, 1)


# ---- lasscc explain ------------------------------------------------------------------------------------
@pytest.mark.parametrize("tb,extra,sms,rows", [
    # 3 x 3 tiles, one CTA per two tiles: CTA 1 takes tiles 1 (consumer 0) and 6 (consumer 1), CTA 4 tile 4 alone
    ((64, 64, 64), PP, None, [r"^  1 +1, 6 +1 +6$", r"^  4 +4 +4$"]),
    # persistent on 4 SMs: CTA 0 takes tiles 0, 4, 8 (consumer 0: 0 and 8, consumer 1: 4)
    ((64, 64, 64), PP + ", persistent = 1", 4, [r"^  0 +0, 4, 8 +0, 8 +4$", r"4 CTAs: min\(tiles, SMs = 4\)"]),
    # cooperative persistent: the two consumers share each tile
    ((128, 64, 64), ', schedule = "cooperative", persistent = 1', 4,
     [r"^  consumers +1, 2 +4-11 +256 +168 -> 232 \(setmaxnreg.inc\)", r"^  0 +0, 4, 8$"]),
])
def test_explain_shows_roles_and_tile_schedule(tb, extra, sms, rows):
    import re

    from lasscc.explain import explain

    text = explain(parse_mlir(gemm(tb=tb, extra=extra), "t.mlir"), "sm_90a", "t.mlir", "lasscc-warp-specialize",
                   (3, 3), resources=False, sms=sms)
    assert re.search(r"^  producer +0 +0-3 +128 +168 -> 40 \(setmaxnreg.dec\)", text, re.M)
    if "pingpong" in extra:
        assert re.search(r"^  consumer 1 +2 +8-11 +128 +168 -> 232 \(setmaxnreg.inc\)", text, re.M)
        assert re.search(r"^  order\[st\]\[c\] +128 ", text, re.M) and re.search(r"^  empty\[s\] +4 ", text, re.M)
    for r in rows:
        assert re.search(r, text, re.M), (r, text)


def test_batched_pingpong_is_rejected_with_its_place():
    t3, b3 = "memref<?x?x?xf16>", "memref<?x?x?xf16, strided<[?, 1, ?]>>"
    text = (f"func.func @gemm(%a: {t3}, %b: {b3}, %d: memref<?x?x?xf32>) {{\n"
            f"  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32, config = {{mma = \"wgmma\", threadblock = [64, 64, 64], "
            f"stages = 2{PP}}}}}\n      ins(%a, %b : {t3}, {b3}) outs(%d : memref<?x?x?xf32>)\n  func.return\n}}\n")
    with pytest.raises(LassError, match=r'^b.mlir:\d+:\d+: error: schedule = "pingpong": expected one grid dimension'):
        compile_module(parse_mlir(text, "b.mlir"), arch="sm_90a")
