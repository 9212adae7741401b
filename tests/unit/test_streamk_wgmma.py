"""Stream-K on the Hopper wgmma kernel (lasscc.streamk, schedule = "default"): the persistent grid's
units through the TMA ring, on the CPU executor against float64 at every Hopper level.

Both the one-role kernel (schedule = "default") and the warp-specialized persistent cooperative one
(schedule = "cooperative", persistent = 1, optionally epilogue = "tma"), whose producer walks the
consumers' units (passes/warp_specialize.py).

1. Numerics: f16 / bf16 A and B, f32 / f16 / bf16 D, f16 accumulation, beta != 0, odd M, N and a
   ragged last k-tile, small grids (3-5 CTAs) so CTAs share tiles, forward / reverse / shuffled
   CTA order, "streamk" and the hybrid "streamk-dp"; the flags left zero.
2. The ring is carried across units (lasscc-pipeline): one ring and one set of mbarriers before the
   unit loop, which carries the k-tile base (the slots and phases run on from unit to unit).
3. Planted bugs: a finisher reading before its predecessor's flag (RaceError); the wgmma wait
   after the K loop missing before partial_store, or only before partial_store and not before
   the finisher's partial_add (AsyncHazardError on the in-flight accumulator).
4. ptxas for sm_90a (128x256x64 / 4 stages and 128x128x64, default and cooperative + TMA store): no
   spill, no wgmma serialization;
   the pingpong schedule and a ring-staged (16-bit D, direct) epilogue under the producer
   rejected at the op's place.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import scf

from lasscc import streamk
from lasscc.diagnostics import LassError
from lasscc.dialects import lass_nv, lass_pipe
from lasscc.driver import make_pass, run_pass
from lasscc.interp import AsyncHazardError, RaceError, run_check
from lasscc.interp.check import reference_scale
from lasscc.interp.mma_math import elementwise_bound
from lasscc.source import parse_mlir
from _wgmma_stages import passes_after
from test_wgmma_passes import gemm

COOP = ', schedule = "cooperative", persistent = 1'
COOP_TMA = COOP + ', epilogue = "tma"'


def sk_text(mode="streamk", ab="f16", d="f32", acc=None, tb=(64, 64, 64), stages=3, beta=0.5, extra=""):
    return gemm(ab=ab, d=d, acc=acc, tb=tb, stages=stages, beta=beta,
                extra=f', split_k_mode = "{mode}"{extra}')


def _check(text, level, m, n, k, ctas, order, alpha=0.75, beta=0.5, ab="f16", acc="f32"):
    r = run_check(passes_after(text)[level], m, n, k, seed=5, alpha=alpha, beta=beta, report_banks=False,
                  order=order, ctas=ctas)
    a, b, c = r["inputs"]
    raw = np.asarray(r["d"])
    if raw.dtype == np.uint16:  # bf16 bits
        from lasscc.interp.bf16 import bf16_to_f32

        out = bf16_to_f32(raw).astype(np.float64)
    else:
        out = raw.astype(np.float64)
    bound = elementwise_bound(raw.dtype, ab, acc, k, reference_scale(a, b, c, alpha, beta), r["ref"], alpha, beta,
                              ctas)
    assert np.isfinite(out).all(), f"{level}: unwritten (NaN-poisoned) elements of D"
    assert (np.abs(out - r["ref"]) <= bound).all(), f"{level}: max excess {np.max(np.abs(out - r['ref']) - bound):.3g}"
    return r


# (mode, level, order, ctas, text kwargs, (M, N, K)): 150 x 130 on 64 x 64 tiles = 9 tiles, K = 328:
# 6 k-tiles, the last ragged; 4 CTAs: "streamk" 54 iterations 14 / 14 / 13 / 13, the hybrid one
# wave (4 tiles) data-parallel and 5 tiles stream-K
RUNS = [
    ("streamk", "lasscc-pipeline", "forward", 4, {}, (150, 130, 328)),
    ("streamk", "lasscc-warpgroup-mma", "reverse", 4, {}, (150, 130, 328)),
    ("streamk", "lasscc-hopper-smem", "shuffle:2", 4, {}, (150, 130, 328)),
    ("streamk-dp", "lasscc-warpgroup-mma", "forward", 4, {}, (150, 130, 328)),
    ("streamk-dp", "lasscc-hopper-smem", "reverse", 4, {}, (150, 280, 328)),  # 15 tiles: 8 data-parallel
    # a 16-bit D (the staged epilogue through the ring), BK = 32 and 4 stages: the ring wraps
    # within and across units
    ("streamk", "lasscc-hopper-smem", "reverse", 5, dict(ab="bf16", d="bf16", tb=(64, 64, 32), stages=4, beta=0.0),
     (70, 130, 296)),
    ("streamk-dp", "lasscc-hopper-smem", "forward", 5, dict(d="f16", acc="f16", beta=-1.0), (130, 200, 264)),
    ("streamk", "lasscc-hopper-smem", "forward", 3, dict(tb=(128, 64, 64), d="f16"), (200, 70, 456)),
    # the warp-specialized persistent cooperative kernel: the producer walks the consumers' units;
    # the TMA-store epilogue (beta = 0) for the finisher
    ("streamk-dp", "lasscc-warp-specialize", "reverse", 5, dict(tb=(128, 64, 64), extra=COOP), (300, 250, 328)),
    ("streamk-dp", "lasscc-hopper-smem", "forward", 5, dict(tb=(128, 64, 64), d="f16", beta=0.0, extra=COOP_TMA),
     (300, 250, 328)),
    # "streamk-tail": 12 tiles on 5 CTAs, 2 waves data-parallel, 2 tiles' 12 k-tiles shared out
    ("streamk-tail", "lasscc-hopper-smem", "shuffle:1", 5, dict(tb=(128, 64, 64), d="f16", beta=0.0, extra=COOP_TMA),
     (300, 250, 328)),
    ("streamk", "lasscc-hopper-smem", "shuffle:3", 4, dict(ab="bf16", tb=(128, 64, 32), stages=4, extra=COOP),
     (200, 130, 232)),
    ("streamk", "lasscc-hopper-smem", "reverse", 4, dict(tb=(128, 64, 64), beta=0.0, extra=', epilogue = "tma"'),
     (200, 130, 328)),
]


@pytest.mark.parametrize("mode,level,order,ctas,kw,shape", RUNS,
                         ids=[f"{r[0]}-{r[1][7:]}-{r[2]}-{r[3]}-{i}" for i, r in enumerate(RUNS)])
def test_wgmma_streamk_numerics(mode, level, order, ctas, kw, shape):
    kw = dict(kw)
    beta = kw.get("beta", 0.5)
    r = _check(sk_text(mode, **kw), level, *shape, ctas, order, beta=beta, ab=kw.get("ab", "f16"),
               acc=kw.get("acc") or "f32")
    bm, bn = kw.get("tb", (64, 64))[:2]
    ws = r["result"].workspace
    assert ws.size * 4 == streamk.workspace_bytes(ctas, (bm, bn))
    assert not ws[streamk.flag_word(0, ctas, (bm, bn)):].any(), "the finisher resets each flag"
    tiles = -(-shape[0] // bm) * -(-shape[1] // bn)
    kt = -(-shape[2] // kw.get("tb", (0, 0, 64))[2])
    units = streamk.schedule(ctas, tiles, kt, mode)
    assert any(s > 0 for u in units for *_, s in u), "tiles were split"
    assert any(len(u) > 1 for u in units), "a CTA ran several units through one ring"


def test_ring_is_carried_across_units():
    mods = passes_after(sk_text("streamk-dp"))
    fn = next(o for o in mods["lasscc-pipeline"].walk() if o.name == "func.func")
    top = list(fn.body.block.ops)
    assert [type(o) for o in top if isinstance(o, (lass_pipe.RingOp, lass_pipe.TmaPipelineOp))] == \
        [lass_pipe.RingOp, lass_pipe.RingOp, lass_pipe.TmaPipelineOp]
    units = next(o for o in top if isinstance(o, scf.ForOp))
    assert len(units.iter_args) == 1 and units.body.block.args[1].name_hint == "kt_base"
    assert not any(isinstance(o, lass_pipe.TmaPipelineOp) for o in units.walk())
    # the physical level: the mbarriers initialised once, before the unit loop (3 stages x full / empty)
    fn = next(o for o in mods["lasscc-hopper-smem"].walk() if o.name == "func.func")
    units = next(o for o in fn.body.block.ops if isinstance(o, scf.ForOp) and o.iter_args)
    inits = [o for o in fn.walk() if isinstance(o, lass_nv.MbarrierInitOp)]
    assert len(inits) == 6 and not any(units.is_ancestor(o) for o in inits)


# ---- planted bugs -------------------------------------------------------------------------------

def _drains(mod):
    """The lass_nv wgmma waits {0} right after a K loop (the one before the partials)."""
    return [o for o in mod.walk() if isinstance(o, lass_nv.WgmmaWaitGroupOp) and o.pending.value.data == 0
            and isinstance(o.prev_op, scf.ForOp) and any(isinstance(x, lass_pipe.ConsumerWaitOp) or
                                                         isinstance(x, lass_nv.WgmmaMmaAsyncOp)
                                                         for x in o.prev_op.walk())]


def _run(mod, order):
    return run_check(mod, 150, 130, 328, seed=1, alpha=0.75, beta=0.5, report_banks=False, order=order, ctas=4)


def test_planted_finisher_reads_before_the_flag_is_a_race():
    mod = passes_after(sk_text())["lasscc-hopper-smem"].clone()
    w = next(o for o in mod.walk() if isinstance(o, lass_nv.SpinAcquireOp))
    w.detach()
    w.erase()
    for order in ("forward", "reverse"):
        with pytest.raises(RaceError, match="of W"):
            _run(mod, order)


def test_planted_missing_wgmma_wait_before_partial_store():
    mod = passes_after(sk_text())["lasscc-hopper-smem"].clone()
    (drain,) = _drains(mod)
    drain.detach()
    drain.erase()
    with pytest.raises(AsyncHazardError, match="before a wgmma.wait_group retired its group"):
        _run(mod, "forward")


def test_planted_wgmma_wait_only_before_partial_store_misses_partial_add():
    """The wait moved into the partial_store branch: the finisher's partial_add (the first add of
    a predecessor's partial) reads the accumulator in flight."""
    mod = passes_after(sk_text())["lasscc-hopper-smem"].clone()
    (drain,) = _drains(mod)
    fin_if = drain.next_op
    while not isinstance(fin_if, scf.IfOp):
        fin_if = fin_if.next_op
    drain.detach()
    fin_if.false_region.block.insert_op_before(drain, fin_if.false_region.block.first_op)
    with pytest.raises(AsyncHazardError, match="before a wgmma.wait_group") as e:
        _run(mod, "reverse")
    assert "arith.addf" in str(e.value)


# ---- rejections and ptxas ------------------------------------------------------------------------

def test_pingpong_streamk_is_rejected_at_the_op():
    with pytest.raises(LassError, match='expected schedule = "default" or "cooperative" with mma = "wgmma" and '
                                        'split_k_mode = "streamk"') as e:
        run_pass(parse_mlir(sk_text(extra=', schedule = "pingpong"'), "t.mlir"),
                 make_pass("lasscc-tile-threadblock", "sm_90a"), "t.mlir")
    assert str(e.value).startswith("t.mlir:2:3: error: config")


def test_cli_rejects_a_ring_staged_epilogue_under_the_producer_with_exit_2(tmp_path, capsys):
    """Cooperative stream-K with a 16-bit D and the direct epilogue: the staging would reuse the
    ring the producer refills for the next unit."""
    from lasscc.cli import main

    src = tmp_path / "sk.mlir"
    src.write_text(sk_text(d="f16", tb=(128, 64, 64), extra=COOP))
    out = tmp_path / "k.ptx"
    assert main(["compile", str(src), "--arch", "sm_90a", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{src}:1:1: error:" in err and 'use epilogue = "tma"' in err and "Traceback" not in err
    assert not out.exists()


@pytest.mark.parametrize("tb,d,mode,extra", [
    ((128, 256, 64), "f16", "streamk-dp", ""),
    ((128, 128, 64), "f32", "streamk", ""),
    ((128, 256, 64), "f16", "streamk", COOP_TMA),
    # (spilled 28 bytes on the skws2 branch; no spill since merged with the warp-uniform warpgroup
    # index and the codegen without straight-line strength reduction)
    ((128, 256, 64), "f16", "streamk-dp", COOP_TMA),
    ((128, 256, 64), "f16", "streamk-tail", COOP_TMA),
])
def test_streamk_wgmma_kernels_assemble_without_spills(tb, d, mode, extra):
    from lasscc.driver import compile_module
    from lasscc.emit import ptxas_info

    res = compile_module(parse_mlir(sk_text(mode, d=d, tb=tb, stages=4, beta=0.0, extra=extra), "<sk>"), arch="sm_90a",
                         keep_stages=False)
    spec = res.specs[0]
    assert spec.is_streamk and spec.params[-1] == "W" and "%nctaid.x" in res.ptx and "wgmma.mma_async" in res.ptx
    assert spec.workspace_bytes(4096, 4096, sms=132) == streamk.workspace_bytes(spec.grid(4096, 4096, sms=132)[0],
                                                                                 tb[:2])
    info = ptxas_info(res.ptx, "sm_90a")  # raises on a wgmma serialization warning (C7510 / C7517 / C7519)
    if info is None:
        pytest.skip("ptxas not on PATH")
    assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0, info.line
