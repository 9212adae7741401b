"""Configs at the edge of the register model assemble without spills (issue 12, item 6).

lasscc.resources.register_estimate is the one register model: GemmConfig.validate rejects configs
over REGISTER_BUDGET, lasscc-warp-mma (lasscc.resources.prefetch_applies) leaves the cross-stage prefetch out
above it, lasscc explain prints it.  Here:

1. the model's parts on issue 12's reproducers (i8 with MN-major tiles: 2 stages at align 1, and
   the 128x32 warp tile with the prefetch), and explain showing the same numbers;
2. for each A/B type and layout of BOUNDARY, the accepted config with the highest estimate
   (scripts/spill_scan.py's plan over its candidate set) is compiled (lasscc.api.gemm, through the
   compile cache) and assembled by ptxas for sm_90a with 0 spill bytes, and the rejected config
   with the lowest estimate gets a message with the numbers and what to change;
3. issue 12's prefetch reproducer assembles without spills for sm_80 and sm_90a.

`python scripts/spill_scan.py` runs the whole scan (every type x layout, accepted and rejected,
with ptxas figures); BENCHMARKS.md "Session 6" has its table.
"""

from __future__ import annotations

import re

import functools
import sys
from pathlib import Path

import pytest

from lasscc.config import GemmConfig
from lasscc.diagnostics import LassError
from lasscc.layout import K_MAJOR, MN_MAJOR, mma_shape
from lasscc.resources import REGISTER_BUDGET, prefetch_applies, register_estimate

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import spill_scan  # noqa: E402  -- the scan's candidate set and plan

ARCH = "sm_90a"
# (scan type, BLAS layout): every layout of the three fragment-load paths that differ for MN-major
# tiles (16-bit ldmatrix.trans, s8 ldmatrix.trans + prmt, tf32 ld.shared.v2), the other types once
BOUNDARY = [("f16", lay) for lay in spill_scan.LAYOUTS] + [("i8", lay) for lay in spill_scan.LAYOUTS] + [
    ("tf32", "NN"), ("tf32", "TT"), ("bf16", "NT"), ("f16acc", "TN"), ("f16acc", "NN"), ("f16acc", "TT")]


def i8(tb, w, stages, prefetch=0, align=None) -> GemmConfig:
    return GemmConfig(threadblock=tb, warp=w, instruction=mma_shape("i8"), stages=stages, prefetch=prefetch,
                      align=align)


# ---- 1. the model on issue 12's reproducers ----------------------------------------------------
SMALL = ((32, 128, 32), (32, 64, 32))


@pytest.mark.parametrize("majors,total,verdict", [
    ((MN_MAJOR, MN_MAJOR), 382, "rejected"),  # NT: spilled 184 B (ptxas 13.0, sm_90a)
    ((K_MAJOR, MN_MAJOR), 364, "rejected"),   # all three column-major (D swaps A and B): spilled 224 B
    ((MN_MAJOR, K_MAJOR), 186, "accepted"),   # NN: B's 64 accesses cover whole lines, no spill
    ((K_MAJOR, K_MAJOR), 168, "accepted"),    # TN: no spill
])
def test_two_stage_narrow_i8_counts_mn_loads_and_own_column_copies(majors, total, verdict):
    cfg = i8(*SMALL, 2, align=(1, 1))
    est = register_estimate(cfg, "i8", majors)
    assert est.total == total, est.describe()
    if verdict == "accepted":
        cfg.validate(ARCH, ab_type="i8", majors=majors)
        return
    with pytest.raises(LassError) as e:
        cfg.validate(ARCH, ab_type="i8", majors=majors)
    msg = str(e.value)
    assert f"needs ~{total} registers per thread" in msg and f"expected at most {REGISTER_BUDGET}" in msg, msg
    assert "80 copy accesses" in msg and "use stages >= 3" in msg, msg


def test_mn_major_prefetch_is_left_out_over_the_budget():
    """i8 128x256x128 / 128x32x128 / 3 stages / prefetch 1: K-major keeps the prefetch (248, no
    spill); with an MN-major tile the prefetch would pass the budget (NT 288: spilled 180 B), so
    lasscc-warp-mma leaves it out and the config is accepted at 248."""
    cfg = i8((128, 256, 128), (128, 32, 128), 3, prefetch=1)
    assert prefetch_applies(cfg, "i8", (K_MAJOR, K_MAJOR))
    for majors in ((MN_MAJOR, MN_MAJOR), (MN_MAJOR, K_MAJOR), (K_MAJOR, MN_MAJOR)):
        assert not prefetch_applies(cfg, "i8", majors), majors
        assert register_estimate(cfg, "i8", majors, prefetch=True).total > REGISTER_BUDGET
        cfg.validate(ARCH, ab_type="i8", majors=majors)
    assert register_estimate(cfg, "i8", (MN_MAJOR, MN_MAJOR)).total == 248
    # the tuned f16 config keeps its prefetch (250 registers, no spill)
    tuned = GemmConfig(threadblock=(256, 128, 64), warp=(64, 64, 64), stages=4, prefetch=1)
    assert prefetch_applies(tuned, "f16") and register_estimate(tuned, "f16", prefetch=True).total == 224


def test_explain_prints_the_model():
    """lasscc explain's estimate is register_estimate's (no second formula)."""
    from lasscc.explain import numbers

    cfg = i8((128, 256, 128), (128, 32, 128), 3, prefetch=1)
    for majors in ((K_MAJOR, K_MAJOR), (MN_MAJOR, MN_MAJOR)):
        n = numbers(cfg, ARCH, "i8", "i32", majors)
        pf = prefetch_applies(cfg, "i8", majors)
        assert n.prefetch == pf
        assert n.reg_estimate == register_estimate(cfg, "i8", majors, "i32", pf).total


# ---- 2. boundary configs assemble; the next ones are rejected ------------------------------------
@functools.lru_cache(maxsize=None)
def boundary(name: str, layout: str):
    """(accepted config with the highest estimate, its estimate, rejected one with the lowest, its message)."""
    ab, _, acc = spill_scan.TYPES[name]
    rows = spill_scan.plan(ab, acc, layout, "row", ARCH, 1, 1)
    ok = [r for r in rows if r[2]]
    bad = [r for r in rows if not r[2]]
    return ok[0][0], ok[0][1], bad[0][0] if bad else None, bad[0][3] if bad else None


@functools.lru_cache(maxsize=None)
def assembled(name: str, layout: str, d_layout: str, cfg: GemmConfig, arch: str, target: str):
    """ptxas -v of the kernel (lasscc.api.gemm: the compile cache serves repeats)."""
    from lasscc import api
    from lasscc.emit import ptxas_info

    ab, d, acc = spill_scan.TYPES[name]
    k = api.gemm(ab, d_dtype=d, layout=layout, threadblock=cfg.threadblock, warp=cfg.warp, stages=cfg.stages,
                 arch=arch, d_layout=d_layout, prefetch=cfg.prefetch, acc=acc, align=cfg.align)
    return ptxas_info(k.ptx, target)


def assert_no_spill(info):
    if info is None:
        pytest.skip("ptxas not on PATH")
    assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0, info.line


# Accepted at 248 by the model before STAGED_MN_NARROW_REGS, and spilled (ptxas 13.0, sm_90a):
# 2 stages, align 1, one MN-major tile.  (name, A/B layout, config, stack bytes it spilled)
SPILLED = [
    ("f16", "TT", ((128, 256, 32), (64, 64, 32)), 16),
    ("f16acc", "NN", ((256, 128, 64), (32, 128, 64)), 64),
    ("f16acc", "TT", ((128, 256, 64), (128, 32, 64)), 32),
]


@pytest.mark.parametrize("name,layout,tiles,stack", SPILLED)
def test_two_stage_narrow_mn_major_copies_that_spilled_are_rejected(name, layout, tiles, stack):
    ab, _, acc = spill_scan.TYPES[name]
    cfg = GemmConfig(threadblock=tiles[0], warp=tiles[1], instruction=mma_shape(ab), stages=2, align=(1, 1))
    majors = spill_scan.kernel_majors(layout, "row")
    assert register_estimate(cfg, ab, majors, acc).total > REGISTER_BUDGET
    with pytest.raises(LassError, match="use stages >= 3"):
        cfg.validate(ARCH, ab_type=ab, majors=majors, acc_type=acc)


@pytest.mark.parametrize("name,layout", BOUNDARY)
def test_largest_accepted_config_assembles_without_spills(name, layout):
    cfg, est, _, _ = boundary(name, layout)
    assert REGISTER_BUDGET - 24 <= est <= REGISTER_BUDGET, (cfg, est)  # at the edge, not far inside it
    assert_no_spill(assembled(name, layout, "row", cfg, ARCH, ARCH))


@pytest.mark.parametrize("name,layout", BOUNDARY)
def test_config_just_over_the_boundary_is_rejected_with_the_numbers(name, layout):
    _, _, bad, msg = boundary(name, layout)
    assert bad is not None
    ab, _, acc = spill_scan.TYPES[name]
    majors = spill_scan.kernel_majors(layout, "row")
    est = register_estimate(bad, ab, majors, acc, prefetch_applies(bad, ab, majors, acc))
    assert est.total > REGISTER_BUDGET
    assert f"needs ~{est.total} registers per thread ({est.describe()})" in msg, msg
    assert "ptxas would spill; use " in msg, msg


# ---- 3. issue 12's prefetch reproducer ------------------------------------------------------------
@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
def test_issue_prefetch_reproducer_assembles_without_spills(arch):
    """i8 NT 128x256x128 / 128x32x128 / 3 stages / prefetch 1 spilled 180 B (sm_90a) and 184 B (sm_80)."""
    cfg = i8((128, 256, 128), (128, 32, 128), 3, prefetch=1)
    # sm_80 PTX runs on sm_80 and (JIT-assembled) sm_90a
    for target in (("sm_80", "sm_90a") if arch == "sm_80" else ("sm_90a",)):
        assert_no_spill(assembled("i8", "NT", "row", cfg, arch, target))


def test_issue_two_stage_reproducers_are_rejected_at_the_op():
    """Through the compiler: the lass.gemm's location, the estimate and what to change."""
    from lasscc import api

    for layout, d_layout, total in (("NT", "row", 382), ("NN", "col", 364)):
        with pytest.raises(api.CompileError) as e:
            api.gemm("i8", d_dtype="i32", layout=layout, d_layout=d_layout, threadblock=(32, 128, 32),
                     warp=(32, 64, 32), stages=2, align=(1, 1), arch=ARCH)
        msg = str(e.value)
        # located at the lass.gemm of the MLIR the API generated (lasscc.api.gemm_mlir)
        assert re.search(r"<lasscc\.gemm>:\d+:\d+: error: config: ", msg) and f"needs ~{total} registers per thread" in msg, msg
