"""The Hopper (mma = "wgmma") data flow, pass by pass, on the CPU executor; its config rules;
its kernels assembled by ptxas.

1. Per-pass numerics: each wgmma config is compiled once through lasscc-tile-threadblock,
   lasscc-pipeline (TMA ring), lasscc-warpgroup-mma (lass_wg) and lasscc-hopper-smem (tensor maps,
   mbarriers, descriptors); the module before and after each pass runs on the same random normal
   data with D NaN-poisoned (beta = 0) or with C (beta != 0), every level within the float64
   reference's tolerance, and the passes that only move data (pipeline, hopper-smem) reproduce
   their input's D bit for bit.  Grid: f16 / bf16 / tf32 / s8, f16 accumulation, column-major D,
   1 and 2 warpgroups, 128B and 64B swizzles, K- and MN-major f16 / bf16 (descriptor transpose
   bits), stages 2-4, ragged M, N and K.
2. Planted bugs caught: a halved descriptor SBO (wrong numbers), a missing consumer_wait (a race
   on the TMA bytes), a missing wgmma wait before the slot's release (an async hazard), a
   missing consumer_release (a deadlock reported at the producer's acquire), a plain arrive
   instead of arrive.expect_tx (the TMA overruns the barrier's transaction count).
3. Config rules (located errors) and ptxas: 128x128x64 and 128x256x64 f16 / bf16 kernels assemble
   for sm_90a with no spill and no wgmma serialization warning.
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import pytest
from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp

from lasscc.diagnostics import LassError
from lasscc.dialects import lass_nv, lass_pipe, lass_wg
from lasscc.driver import compile_module, make_pass, run_pass
from lasscc.emit import ptxas_info
from lasscc.interp import AsyncHazardError, InterpError, RaceError, run_check
from lasscc.interp.errors import DeadlockError
from lasscc.passes.warpgroup_mma import GROUPS_IN_FLIGHT
from lasscc.source import parse_mlir

PASSES = ["lasscc-tile-threadblock", "lasscc-pipeline", "lasscc-warpgroup-mma", "lasscc-hopper-smem"]


def gemm(ab="f16", d="f32", tb=(64, 64, 64), stages=3, ld="row", acc=None, beta=0.0, extra="", la="row", lb="col",
         batched=False):
    def mr(t, lay):
        if batched:
            return f"memref<?x?x?x{t}>"
        return f"memref<?x?x{t}>" if lay == "row" else f"memref<?x?x{t}, strided<[1, ?]>>"

    ta, tb_, td = mr(ab, la), mr(ab, lb), mr(d, ld)
    acc_text = f"acc = {acc}, " if acc else ""
    return (f"func.func @gemm(%a: {ta}, %b: {tb_}, %d: {td}) {{\n"
            f"  lass.gemm {{alpha = 1.5 : f32, beta = {beta} : f32, {acc_text}config = {{mma = \"wgmma\", "
            f"threadblock = [{tb[0]}, {tb[1]}, {tb[2]}], stages = {stages}{extra}}}}}\n"
            f"      ins(%a, %b : {ta}, {tb_}) outs(%d : {td})\n  func.return\n}}\n")


@functools.lru_cache(maxsize=None)
def stages_of(text: str) -> tuple[ModuleOp, ...]:
    """The module before the first pass and after each of PASSES (clones)."""
    mod = parse_mlir(text, "t.mlir")
    out = [mod.clone()]
    for name in PASSES:
        run_pass(mod, make_pass(name, "sm_90a"), "t.mlir")
        out.append(mod.clone())
    return tuple(out)


# (config kwargs, (M, N, K)): K a multiple of 16 bytes (the TMA's global stride rule)
CASES = [
    (dict(ab="f16", tb=(64, 64, 64), stages=2), (72, 80, 136)),
    (dict(ab="f16", tb=(128, 64, 64), stages=3, beta=0.5), (130, 66, 64)),
    (dict(ab="bf16", d="bf16", tb=(64, 32, 32), stages=4, ld="col"), (40, 100, 72)),
    (dict(ab="f16", d="f16", acc="f16", tb=(64, 48, 64), stages=3), (64, 50, 200)),
    (dict(ab="f32", tb=(64, 64, 32), stages=3, beta=-1.0), (33, 70, 44)),
    (dict(ab="i8", d="i32", tb=(64, 64, 128), stages=2), (65, 64, 80)),
    (dict(ab="f16", tb=(128, 64, 64), stages=3, la="col", lb="row"), (72, 80, 72)),  # NN: both MN-major
    (dict(ab="bf16", tb=(64, 128, 32), stages=2, la="col", ld="col", beta=2.0), (136, 70, 40)),
]


@pytest.mark.parametrize("cfg,shape", CASES, ids=[f"{c['ab']}-{'x'.join(map(str, c['tb']))}-s{c['stages']}"
                                                  for c, _ in CASES])
def test_every_level_matches_float64(cfg, shape):
    mods = stages_of(gemm(**cfg))
    m, n, k = shape
    beta = cfg.get("beta", 0.0)
    ds, levels = [], []
    for mod in mods:
        r = run_check(mod, m, n, k, seed=3, alpha=1.5, beta=beta, report_banks=False)
        assert r["ok"], (r["level"], r["rel_err"], r["tolerance"])
        assert not np.isnan(np.asarray(r["d"], np.float64)).any()
        ds.append(np.asarray(r["d"]))
        levels.append(r["level"])
    assert levels == [0, 1, 2, 3, 4]
    np.testing.assert_array_equal(ds[2], ds[1])  # lasscc-pipeline moves data only
    np.testing.assert_array_equal(ds[4], ds[3])  # lasscc-hopper-smem: physical addresses, same wgmmas
    ops = {o.name for o in mods[4].walk()}
    assert "lass_nv.wgmma_mma_async" in ops and "lass_nv.tma_load_2d" in ops
    assert not any(o.startswith(("lass_pipe.", "lass_wg.")) for o in ops)


def _surgery(mod: ModuleOp, cls, replace=None, pred=lambda o: True) -> ModuleOp:
    mod = mod.clone()
    victims = [o for o in mod.walk() if isinstance(o, cls) and pred(o)]
    assert victims
    for o in victims:
        if replace is not None:
            o.parent_block().insert_op_before(replace(o), o)
        o.detach()
        o.erase()
    return mod


BUG_TEXT = gemm(ab="f16", tb=(64, 64, 64), stages=3)


def test_planted_wrong_sbo_gives_wrong_numbers(monkeypatch):
    from lasscc.passes import hopper_smem

    real = hopper_smem.S90.tile_descriptor

    def half_sbo(*a, **kw):
        d = real(*a, **kw)
        return dataclasses.replace(d, stride_byte_offset=d.stride_byte_offset // 2)

    mod = stages_of(BUG_TEXT)[3].clone()
    monkeypatch.setattr(hopper_smem.S90, "tile_descriptor", half_sbo)
    run_pass(mod, make_pass("lasscc-hopper-smem", "sm_90a"))
    r = run_check(mod, 64, 64, 128, seed=1, report_banks=False)
    assert not r["ok"]


def test_planted_missing_consumer_wait_is_a_race():
    for level in (2, 3):
        mod = _surgery(stages_of(BUG_TEXT)[level], lass_pipe.ConsumerWaitOp)
        with pytest.raises((RaceError, AsyncHazardError)):
            run_check(mod, 64, 64, 256, seed=1, report_banks=False)


def test_planted_missing_wgmma_wait_is_an_async_hazard():
    mod = _surgery(stages_of(BUG_TEXT)[3], lass_wg.WaitOp, pred=lambda o: isinstance(o.parent_op(), scf.ForOp))
    with pytest.raises(AsyncHazardError, match="wgmma group reading it is still in flight"):
        run_check(mod, 64, 64, 256, seed=1, report_banks=False)


def test_planted_two_groups_in_flight_is_an_async_hazard():
    """GROUPS_IN_FLIGHT = 1 is the most the one-k-tile-late release allows: with 2 in flight, the
    group of the k-tile before still reads the slot the consumer releases."""
    def lax(o):
        return lass_wg.WaitOp.build(attributes={"pending": IntegerAttr(GROUPS_IN_FLIGHT + 1, 64)})

    mod = _surgery(stages_of(BUG_TEXT)[3], lass_wg.WaitOp, replace=lax, pred=lambda o: isinstance(o.parent_op(), scf.ForOp))
    with pytest.raises(AsyncHazardError, match="wgmma group reading it is still in flight"):
        run_check(mod, 64, 64, 256, seed=1, report_banks=False)


def test_planted_missing_release_deadlocks():
    mod = _surgery(stages_of(BUG_TEXT)[2], lass_pipe.ConsumerReleaseOp)
    with pytest.raises(DeadlockError, match="consumer arrivals are missing"):
        run_check(mod, 64, 64, 512, seed=1, report_banks=False)


def test_planted_plain_arrive_instead_of_expect_tx():
    mod = _surgery(stages_of(BUG_TEXT)[4], lass_nv.MbarrierArriveExpectTxOp,
                   replace=lambda o: lass_nv.MbarrierArriveOp.build(operands=[o.bar]))
    with pytest.raises(InterpError):
        run_check(mod, 64, 64, 256, seed=1, report_banks=False)


def _broadcast_of(mod: ModuleOp, operand):
    """mod with the warpgroup index's lass_nv.warp_broadcast reading operand(op, its old operand, a builder)."""
    from lasscc.passes._build import ArithBuilder
    from xdsl.rewriter import InsertPoint

    mod = mod.clone()
    (op,) = [o for o in mod.walk() if isinstance(o, lass_nv.WarpBroadcastOp)]
    op.operands[0] = operand(op, op.value, ArithBuilder(InsertPoint.before(op)))
    return mod


def test_warp_broadcast_takes_lane_0s_value():
    """The executor's shfl.sync.idx: each lane gets lane 0's value, so adding the lane number to the
    operand changes nothing (an executor passing each lane's own value through would compute rows
    64 wg + lane); broadcasting %tid itself instead of tid / 128 (a planted bug) gives wrong rows."""
    two_wg = stages_of(gemm(ab="f16", tb=(128, 64, 64), stages=3))[3]

    def tid(x):  # the operand is tid >> 7
        return x.owner.operands[0]

    lanes = _broadcast_of(two_wg, lambda op, x, b: b.add(x, b.and_(tid(x), 31)))
    r = run_check(lanes, 130, 66, 64, seed=1, report_banks=False)
    assert r["ok"], r["rel_err"]
    bad = _broadcast_of(two_wg, lambda op, x, b: tid(x))
    try:
        r = run_check(bad, 130, 66, 64, seed=1, report_banks=False)
        assert not r["ok"]
    except InterpError:
        pass  # rows past the A slot: the executor's bounds check


# ---- config rules -------------------------------------------------------------------------------
@pytest.mark.parametrize("kw,arch,msg", [
    (dict(tb=(128, 128, 64)), "sm_80", "needs --arch sm_90a"),
    (dict(tb=(192, 128, 64)), "sm_90a", "threadblock M = 192"),
    (dict(tb=(128, 264, 64)), "sm_90a", "threadblock N = 264"),
    (dict(tb=(128, 128, 16)), "sm_90a", "threadblock K = 16"),
    (dict(tb=(128, 128, 64), extra=", prefetch = 1"), "sm_90a", "prefetch"),
    (dict(tb=(128, 128, 64), extra=", align = [4, 4]"), "sm_90a", "align"),
    (dict(tb=(128, 128, 64), extra=", warp = [64, 64, 64]"), "sm_90a", "warpgroup tile"),
    (dict(tb=(128, 256, 64), stages=7), "sm_90a", "stages <= 4 fit"),
    (dict(ab="f32", tb=(128, 128, 32), la="col"), "sm_90a", "must be K-major"),
    (dict(tb=(128, 48, 64), lb="row"), "sm_90a", "threadblock N = 48: an MN-major B tile"),
])
def test_rejected_configs_name_the_place(kw, arch, msg):
    with pytest.raises(LassError, match=msg) as e:
        run_pass(parse_mlir(gemm(**kw), "t.mlir"), make_pass("lasscc-tile-threadblock", arch), "t.mlir")
    assert str(e.value).startswith("t.mlir:2:3: error: config")


def test_unknown_mma_family():
    text = gemm().replace('mma = "wgmma"', 'mma = "hmma"')
    with pytest.raises(LassError, match="config key 'mma'"):
        run_pass(parse_mlir(text, "t.mlir"), make_pass("lasscc-tile-threadblock", "sm_90a"), "t.mlir")


# ---- ptxas ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("ab,tb,stages,la,lb", [("f16", (128, 128, 64), 4, "row", "col"),
                                                ("bf16", (128, 256, 64), 3, "row", "col"),
                                                ("f16", (128, 256, 64), 3, "col", "row")])
def test_wgmma_kernel_assembles_without_spills(ab, tb, stages, la, lb):
    res = compile_module(parse_mlir(gemm(ab=ab, tb=tb, stages=stages, la=la, lb=lb), "t.mlir"), arch="sm_90a")
    spec = res.specs[0]
    assert spec.params[-2:] == ("tmap_A", "tmap_B") and spec.threads == tb[0] // 64 * 128
    assert res.ptx.count(f"wgmma.mma_async.sync.aligned.m64n{tb[1]}k16.f32.{ab}.{ab}") == tb[2] // 16
    assert "cp.async.bulk.tensor.2d" in res.ptx and "mbarrier.try_wait.parity" in res.ptx
    info = ptxas_info(res.ptx, "sm_90a")  # raises on a wgmma serialization warning (C7510/C7517/C7519)
    if info is None:
        pytest.skip("ptxas not on PATH")
    assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0, info.line


# ---- the CLI --------------------------------------------------------------------------------------
EXAMPLE = str(__import__("pathlib").Path(__file__).resolve().parents[2] / "examples" / "gemm_wgmma.mlir")


def test_cli_runs_the_physical_level_on_the_cpu(capsys):
    from lasscc.cli import main

    assert main(["run", EXAMPLE, "--arch", "sm_90a", "--target", "cpu", "--m", "136", "--n", "72", "--k", "40",
                 "--check", "--beta", "0.5", "--no-cache"]) == 0
    out = capsys.readouterr().out
    assert "after lasscc-hopper-smem, level 4" in out and "PASS" in out


def test_cli_sizes_tma_cannot_load_are_an_explicit_wgmma_error(capsys):
    """An explicit mma = "wgmma" is the user's choice: sizes TMA cannot load are a located error (the
    same GEMM without `mma` takes mma.sync with a note: tests/unit/test_family.py)."""
    from lasscc.cli import main

    assert main(["run", EXAMPLE, "--arch", "sm_90a", "--target", "cpu", "--m", "40", "--n", "24", "--k", "33",
                 "--check", "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("option --k: K = 33 makes the rows of A and B (contiguous along K) 33 x 2 = 66 bytes apart")
    assert 'gemm_wgmma.mlir:6:3: config mma = "wgmma" cannot load these sizes' in err


def test_explain_describes_wgmma_kernels(capsys):
    """(the sections themselves: tests/unit/test_explain_wgmma.py)"""
    from lasscc.cli import main

    assert main(["explain", EXAMPLE, "--arch", "sm_90a", "--stage", "warpgroup-mma"]) == 0
    out = capsys.readouterr().out
    assert "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16" in out and "2 consumer warpgroups" in out
