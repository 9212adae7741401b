"""Fused epilogues through the TMA-store epilogue (passes/tma_store.py) of the cooperative persistent
kernel (the sm_90a default's schedule), on the CPU executor and ptxas.

1. Numbers: bias [n] + GELU (erf), scale [m] + bias [n] + SiLU + an [mn] residual (f16 extras),
   bias [m] + ReLU, a scalar operand; partial tiles (M, N, K not tile multiples, N a multiple of 8 so
   D has a tensor map), persistent CTAs walking several tiles, and N = 130 (no tensor map: the direct
   fallback with its per-element guards); warp-specialized and physical levels against float64,
   D NaN-poisoned, both levels bit for bit.
2. The mechanism (issue 18): the tile's vector extras are read once, before the first subtile's
   barrier, as whole pairs (one 2-wide predicated load per column pair: N is even on this path);
   several subtiles run as one rolled loop (scf.for carrying the shifted accumulator, and the next
   window's [n] and, within tma_store.PRELOAD_MN_BYTES, [mn] extras).
   The next window's [n] extras are read in a uniform scf.if: unpredicated where the window is
   inside N (tma_store.UNPREDICATED_WINDOWS), each pair under its bound in the tail window; the
   region's v + bias is fma(alpha, acc, bias) (lasscc-warpgroup-mma's FOLD_ALPHA), bit for bit the
   unfolded result for alpha = 1.
3. Planted bugs caught: the preload shifted by one n8 block (wrong numbers), its pair predicate
   dropped (a read past the bias: the executor's bounds check), the rolled loop's accumulator
   shift off by one pair (wrong numbers; windows of one subtile and of two: ROLLED_SUBTILES), the
   window-inside test one window late (a read past the bias), the fold without alpha (wrong numbers).
4. ptxas: the 128x256x64/4 persistent bias + GELU kernel (f16 and f32 D), and the residual one
   (f16 and f32 residual), assemble without spills.
"""

from __future__ import annotations

import numpy as np
import pytest

from lasscc.dialects import lass_nv
from lasscc.driver import compile_module
from lasscc.emit import ptxas_info
from lasscc.epilogue_api import EpilogueSpec, gemm_epilogue_mlir
from lasscc.interp import run_check
from lasscc.interp.errors import OutOfBoundsError
from lasscc.interp.check import epilogue_of
from lasscc.source import parse_mlir
from xdsl.dialects.builtin import i1

from _wgmma_stages import passes_after, wgmma_gemm  # noqa: E402

PT = ', schedule = "cooperative", persistent = 1, epilogue = "tma"'
LEVELS = ("lasscc-warp-specialize", "lasscc-hopper-smem")


def fused(spec: EpilogueSpec, tb=(128, 64, 64), stages=3, d="f16", extra=PT) -> str:
    return gemm_epilogue_mlir(spec, wgmma_gemm("f16", d, tb, stages, extra))


# a scalar operand (EpilogueSpec has none), by hand
SCALAR = wgmma_gemm("f16", "f16", (128, 64, 64), 3, PT).replace(
    "%d: memref<?x?xf16>) {", "%d: memref<?x?xf16>, %s: f32) {").replace(
    "outs(%d : memref<?x?xf16>)", """outs(%d : memref<?x?xf16>) epilogue(%s : f32) {
  ^bb0(%v: f32, %s0: f32):
    %0 = arith.mulf %v, %s0 : f32
    %1 = math.erf %0 : f32
    lass.yield %1 : f32
  }""")

CASES = {  # name -> (text, [(M, N, K)])
    "bias_n_gelu": (fused(EpilogueSpec("n", None, "gelu")), [(300, 200, 136), (140, 130, 64)]),
    "scale_m_bias_n_silu_residual_f16": (fused(EpilogueSpec("n", "m", "silu", True, "f16")), [(260, 136, 72)]),
    "bias_m_relu": (fused(EpilogueSpec("m", None, "relu")), [(130, 72, 64)]),
    "scalar_erf": (SCALAR, [(72, 136, 64)]),
    # several subtiles: the rolled subtile loop (tma_store.ROLLED_SUBTILES), stmatrix (f16 D: 2 of
    # 64 columns) and st.shared (f32 D: 4 of 32), a 128-row pingpong tile (two m16 bands a warp)
    "rolled_f16_bias_n_gelu": (fused(EpilogueSpec("n", "m", "gelu", True, "f16"), tb=(128, 128, 64)),
                               [(300, 264, 136)]),
    "rolled_f32_bias_n_gelu": (fused(EpilogueSpec("n", None, "gelu"), tb=(128, 128, 64), d="f32"),
                               [(130, 200, 72)]),
    # ROLLED_SUBTILES 2: 128x256's four f16 subtiles as two windows of two (both staging buffers)
    "rolled2_f16_bias_n_gelu": (fused(EpilogueSpec("n", None, "gelu"), tb=(128, 256, 64)), [(130, 264, 72)]),
    "rolled_pingpong_bias_n_silu": (fused(EpilogueSpec("n", None, "silu"), tb=(128, 128, 64),
                                          extra=', schedule = "pingpong", persistent = 1, epilogue = "tma"'),
                                    [(260, 264, 64)]),
}


def _check(mod, epi, m, n, k):
    r = run_check(mod, m, n, k, seed=11, alpha=1.5, beta=0.0, report_banks=False, epilogue=epi, ctas=2)
    return r


@pytest.mark.parametrize("name", list(CASES))
def test_fused_tma_store_epilogue_matches_float64(name):
    text, shapes = CASES[name]
    mods = passes_after(text)
    epi = epilogue_of(parse_mlir(text, "t.mlir"))
    for m, n, k in shapes:
        ds = []
        for level in LEVELS:
            r = _check(mods[level], epi, m, n, k)
            assert r["ok"], (name, level, (m, n, k), r["rel_err"], r["tolerance"])
            assert not np.isnan(np.asarray(r["d"], np.float64)).any()
            ds.append(np.asarray(r["d"]))
        np.testing.assert_array_equal(ds[0], ds[1])


def _tma_branch(mod):
    """The TMA path's block: the scf.if branch holding the lass_wg.tma_store ops."""
    from lasscc.dialects import lass_wg

    from xdsl.dialects import scf

    st = next(o for o in mod.walk() if isinstance(o, lass_wg.TmaStoreOp))
    blk = st.parent_block()
    while not (isinstance(blk.parent_op(), scf.IfOp)
               and any(isinstance(o, (lass_nv.BarSyncOp, scf.ForOp)) for o in blk.ops)):
        blk = blk.parent_op().parent_block()
    return blk


def test_vector_extras_are_read_once_as_pairs_before_the_first_subtile():
    mod = passes_after(CASES["scale_m_bias_n_silu_residual_f16"][0])["lasscc-warpgroup-mma"]
    blk = _tma_branch(mod)
    ops = list(blk.ops)
    loads = [o for o in ops if isinstance(o, lass_nv.LdGlobalOp)]
    first_sync = next(i for i, o in enumerate(ops) if isinstance(o, (lass_nv.BarSyncOp, lass_nv.StmatrixX4Op)))
    names = {o.operands[0].name_hint for o in loads}
    vec = [o for o in loads if o.operands[0].name_hint in ("scale", "bias")]
    res = [o for o in loads if o.operands[0].name_hint not in ("scale", "bias")]
    assert vec and res, names
    # 128x64 tile, a warp's 16 rows: 8 column pairs of bias [n] (f16: 2-wide), 2 rows of scale [m]
    bias = [o for o in vec if o.operands[0].name_hint == "bias"]
    assert len(bias) == 8 and all(len(o.results) == 2 for o in bias)
    assert len(vec) - len(bias) == 2
    assert all(ops.index(o) < first_sync for o in vec)  # before the first subtile's stmatrix
    # the [mn] residual: one pair load an accumulator pair (a warpgroup's 64 x 64: 32 values a thread),
    # no single-element loads (N even here)
    assert len(res) == 16 and all(len(o.results) == 2 for o in res)


def _planted(monkeypatch, shift=0, unguarded=False):
    """Recompile CASES["bias_n_gelu"] with the TMA path's preload reading `shift` columns right, or
    its pair predicate dropped."""
    import lasscc.passes.warpgroup_mma as wgm
    from lasscc.passes import tma_store

    real = tma_store.tma_store_epilogue

    def wrapped(low, op, values, row0, col0, preload):
        def bad(bb, row, col, row_c, col_c, cache, *rest):
            if unguarded:  # every bound check of the preload reads "inside"
                orig, bb.ult = bb.ult, (lambda a, b: bb.const(1, i1))
                try:
                    preload(bb, row, col, row_c, col_c, cache, *rest)
                finally:
                    bb.ult = orig
            else:
                preload(bb, row, bb.add(col, shift), row_c, col_c, cache)
        return real(low, op, values, row0, col0, bad)

    monkeypatch.setattr(wgm, "tma_store_epilogue", wrapped)
    from _wgmma_stages import WGMMA_PASSES
    from lasscc.driver import make_pass, run_pass

    text = CASES["bias_n_gelu"][0]
    mod = parse_mlir(text, "t.mlir")
    for name in WGMMA_PASSES:
        run_pass(mod, make_pass(name, "sm_90a"), "t.mlir")
    return mod, epilogue_of(parse_mlir(text, "t.mlir"))


def test_planted_shifted_preload_gives_wrong_numbers(monkeypatch):
    mod, epi = _planted(monkeypatch, shift=8)
    r = _check(mod, epi, 300, 200, 136)
    assert not r["ok"] and r["rel_err"] > 1e-2


def test_planted_unguarded_preload_reads_past_the_bias(monkeypatch):
    mod, epi = _planted(monkeypatch, unguarded=True)
    with pytest.raises(OutOfBoundsError, match=r"loads element 200 of E0, which has 200 elements"):
        _check(mod, epi, 300, 200, 136)


def test_several_subtiles_are_one_rolled_loop():
    from lasscc.passes import tma_store
    from xdsl.dialects import scf

    mod = passes_after(CASES["rolled_f16_bias_n_gelu"][0])["lasscc-warpgroup-mma"]
    blk = _tma_branch(mod)
    loops = [o for o in blk.ops if isinstance(o, scf.ForOp)]
    # 2 subtiles of 64 columns, one a window: a residual's (ROLLED_SUBTILES 2 is for the others)
    assert tma_store.ROLLED_SUBTILES == 2 and len(loops) == 1
    body = loops[0].body.block
    assert sum(isinstance(o, lass_nv.StmatrixX4Op) for o in body.walk()) == 4  # one subtile's, once
    # the accumulator, the next window's 8 bias pairs (f16) and (tma_store.PRELOAD_MN: 16 pairs of f16,
    # 64 bytes, within PRELOAD_MN_BYTES) its 16 residual pairs
    assert tma_store.PRELOAD_MN and len(loops[0].iter_args) == 64 + 16 + 32
    # so the loop's 16 residual pair loads are the next window's: all before the window's stmatrix
    ops = list(body.ops)
    res = [i for i, o in enumerate(ops) if isinstance(o, lass_nv.LdGlobalOp)
           and o.operands[0].name_hint not in ("scale", "bias")]
    first_st = next(i for i, o in enumerate(ops) if isinstance(o, lass_nv.StmatrixX4Op))
    assert len(res) == 16 and max(res) < first_st


def test_two_subtiles_a_window():
    """ROLLED_SUBTILES 2 (no [mn] extras): a loop of 2 windows, each 2 subtiles' stmatrix (one at
    each staging buffer), carrying the accumulator and the next window's 16 bias pairs."""
    from lasscc.passes import tma_store
    from xdsl.dialects import scf

    mod = passes_after(CASES["rolled2_f16_bias_n_gelu"][0])["lasscc-warpgroup-mma"]
    loops = [o for o in _tma_branch(mod).ops if isinstance(o, scf.ForOp)]
    assert tma_store.ROLLED_SUBTILES == 2 and len(loops) == 1
    assert loops[0].ub.owner.value.value.data == 2  # 4 subtiles of 64 columns, 2 a window
    assert sum(isinstance(o, lass_nv.StmatrixX4Op) for o in loops[0].body.block.walk()) == 8
    assert len(loops[0].iter_args) == 128 + 32


def test_residual_preload_within_its_register_budget(monkeypatch):
    """An f32 residual of the same tile (128 bytes a window) is read in the window's math, as before."""
    from lasscc.passes import tma_store
    from xdsl.dialects import scf

    text = fused(EpilogueSpec("n", "m", "gelu", True, "f32"), tb=(128, 128, 64))
    loop = next(o for o in _tma_branch(passes_after(text)["lasscc-warpgroup-mma"]).ops if isinstance(o, scf.ForOp))
    assert len(loop.iter_args) == 64 + 16
    monkeypatch.setattr(tma_store, "PRELOAD_MN_BYTES", 128)  # (a new text: passes_after caches by text)
    loop = next(o for o in _tma_branch(passes_after(text + "\n")["lasscc-warpgroup-mma"]).ops
                if isinstance(o, scf.ForOp))
    assert len(loop.iter_args) == 64 + 16 + 32


@pytest.mark.parametrize("case", [("rolled_f16_bias_n_gelu", (300, 264, 136)), ("rolled2_f16_bias_n_gelu", (130, 264, 72))],
                         ids=["window_of_1", "window_of_2"])
def test_planted_wrong_loop_shift_gives_wrong_numbers(monkeypatch, case):
    from lasscc.passes import tma_store

    real = tma_store._subtile_shift
    monkeypatch.setattr(tma_store, "_subtile_shift", lambda *a: (real(*a) or 0) + 2)
    from _wgmma_stages import WGMMA_PASSES
    from lasscc.driver import make_pass, run_pass

    text = CASES[case[0]][0]
    mod = parse_mlir(text, "t.mlir")
    for name in WGMMA_PASSES:
        run_pass(mod, make_pass(name, "sm_90a"), "t.mlir")
    r = _check(mod, epilogue_of(parse_mlir(text, "t.mlir")), *case[1])
    assert not r["ok"] and r["rel_err"] > 1e-2


def _compiled(text: str):
    """`text` through WGMMA_PASSES now (not passes_after's cache: the callers monkeypatch the passes)."""
    from _wgmma_stages import WGMMA_PASSES
    from lasscc.driver import make_pass, run_pass

    mod = parse_mlir(text, "t.mlir")
    for name in WGMMA_PASSES:
        run_pass(mod, make_pass(name, "sm_90a"), "t.mlir")
    return mod, epilogue_of(parse_mlir(text, "t.mlir"))


def test_next_window_bias_is_unpredicated_inside_n():
    """The rolled loop's next-window bias pairs: one scf.if a window on `_window_inside`, its then
    branch 16 pair loads under the constant true at the window's column + nsw offsets (one address
    and immediates in SASS), its else branch the same 16 pairs each under its bound."""
    from lasscc.passes import tma_store
    from lasscc.passes.lower_to_llvm import _is_true
    from xdsl.dialects import arith, scf

    mod = passes_after(CASES["rolled2_f16_bias_n_gelu"][0])["lasscc-warpgroup-mma"]
    loop = next(o for o in _tma_branch(mod).ops if isinstance(o, scf.ForOp))
    ifs = [o for o in loop.body.block.ops if isinstance(o, scf.IfOp) and o.results]
    assert tma_store.UNPREDICATED_WINDOWS and len(ifs) == 1 and len(ifs[0].results) == 32
    then, other = ([o for o in r.walk() if isinstance(o, lass_nv.LdGlobalOp)]
                   for r in (ifs[0].true_region, ifs[0].false_region))
    assert len(then) == len(other) == 16
    assert all(_is_true(o.pred) for o in then) and not any(_is_true(o.pred) for o in other)
    offs = [o.offset.owner for o in then]
    assert all(isinstance(a, arith.AddiOp) and arith.IntegerOverflowFlag.NSW in a.overflow_flags.data for a in offs)
    # the loop carries the if's values into the next iteration (the yield's last 32 operands)
    assert list(loop.body.block.last_op.operands[-32:]) == list(ifs[0].results)


def test_planted_window_inside_a_window_late_reads_past_the_bias(monkeypatch):
    """`_window_inside` testing the window itself instead of the next one: the tail's unpredicated
    read (N = 264: tile 0's second iteration reads columns 256..383) is caught by the executor."""
    from lasscc.passes import tma_store

    real = tma_store._window_inside
    monkeypatch.setattr(tma_store, "_window_inside",
                        lambda bb, warp_col, win, window, N: real(bb, warp_col, bb.sub(win, window), window, N))
    mod, epi = _compiled(CASES["rolled2_f16_bias_n_gelu"][0])
    with pytest.raises(OutOfBoundsError, match=r"of E0, which has 264 elements"):
        _check(mod, epi, 130, 264, 72)


def test_alpha_bias_add_rule():
    """`alpha_bias_add`: the region's v used only by v + b; not v * s, nor SiLU's v used twice, nor v + v."""
    from lasscc.dialects.lass import GemmOp
    from lasscc.passes._epilogue_build import alpha_bias_add
    from xdsl.dialects import arith

    def block(text):
        return next(o for o in parse_mlir(text, "t.mlir").walk() if isinstance(o, GemmOp)).epilogue.block

    add = alpha_bias_add(block(CASES["bias_n_gelu"][0]))
    assert isinstance(add, arith.AddfOp) and add.lhs.name_hint == "v"
    assert alpha_bias_add(block(CASES["bias_m_relu"][0])) is not None
    assert alpha_bias_add(block(SCALAR)) is None  # v * s
    assert alpha_bias_add(block(fused(EpilogueSpec(None, None, "silu")))) is None  # v * sigmoid(v)
    assert alpha_bias_add(block(fused(EpilogueSpec("n", "m", "gelu")))) is None  # scale * v first
    twice = SCALAR.replace("%0 = arith.mulf %v, %s0 : f32", "%0 = arith.addf %v, %v : f32")
    assert alpha_bias_add(block(twice)) is None


@pytest.mark.parametrize("alpha", [1.0, 1.5])
def test_alpha_fold_against_the_unfolded_epilogue(monkeypatch, alpha):
    """FOLD_ALPHA's fma(alpha, acc, bias) against alpha * acc then + bias (the same data): bit for bit
    for alpha = 1 (the product is exact), within D's rounding of one f32 rounding otherwise."""
    import lasscc.passes.warpgroup_mma as wgm

    text = CASES["rolled2_f16_bias_n_gelu"][0]
    ds = {}
    for fold in (True, False):
        monkeypatch.setattr(wgm._WarpgroupLowering, "FOLD_ALPHA", fold)
        mod, epi = _compiled(text)
        folded = sum(o.name == "math.fma" and o.operands[0].name_hint == "alpha" for o in mod.walk())
        assert (folded > 0) == fold
        r = run_check(mod, 130, 264, 72, seed=11, alpha=alpha, beta=0.0, report_banks=False, epilogue=epi, ctas=2)
        assert r["ok"], (fold, r["rel_err"])
        ds[fold] = np.asarray(r["d"], np.float64)
    if alpha == 1.0:
        np.testing.assert_array_equal(ds[True], ds[False])
    else:
        np.testing.assert_allclose(ds[True], ds[False], rtol=2 ** -10, atol=2 ** -14)  # an f16 ulp


def test_planted_fold_without_alpha_gives_wrong_numbers(monkeypatch):
    """The fold taking 1 for alpha (fma(1, acc, bias)): alpha = 1.5 gives wrong numbers."""
    import lasscc.passes.warp_mma as wm

    real = wm.fused_alpha_fma
    monkeypatch.setattr(wm, "fused_alpha_fma",
                        lambda bb, block, alpha, a, elems: real(bb, block, bb.const_float(1.0, alpha.type), a, elems))
    mod, epi = _compiled(CASES["bias_n_gelu"][0])
    r = _check(mod, epi, 300, 200, 136)
    assert not r["ok"] and r["rel_err"] > 1e-2


@pytest.mark.parametrize("res", ["f16", "f32"])
def test_persistent_residual_128x256_assembles_without_spills(res):
    """The residual epilogue of the shape default's tile: an f16 residual preloaded a window ahead
    (PRELOAD_MN), an f32 one (over PRELOAD_MN_BYTES: it spilled) read in the window."""
    text = gemm_epilogue_mlir(EpilogueSpec("n", "m", "silu", True, res), wgmma_gemm("f16", "f16", (128, 256, 64), 4, PT))
    res = compile_module(parse_mlir(text, "t.mlir"), arch="sm_90a")
    info = ptxas_info(res.ptx, "sm_90a")
    if info is None:
        pytest.skip("ptxas not on PATH")
    assert (info.spill_stores, info.spill_loads, info.stack_bytes) == (0, 0, 0), info.line


@pytest.mark.parametrize("d", ["f16", "f32"])
def test_persistent_bias_gelu_128x256_assembles_without_spills(d):
    text = gemm_epilogue_mlir(EpilogueSpec("n", None, "gelu"), wgmma_gemm("f16", d, (128, 256, 64), 4, PT))
    res = compile_module(parse_mlir(text, "t.mlir"), arch="sm_90a")
    info = ptxas_info(res.ptx, "sm_90a")
    if info is None:
        pytest.skip("ptxas not on PATH")
    assert (info.spill_stores, info.spill_loads, info.stack_bytes) == (0, 0, 0), info.line



def test_one_shared_direct_path_for_c_and_for_a_d_without_tensor_map():
    """warp_mma.SHARED_DIRECT: the per-thread stores are written once (one rolled column loop that
    stores D and reads C), for beta != 0 and for a D no tensor map can describe; on the executor,
    against float64, with alpha = 1.5: beta != 0 on a D with a map (300 x 200) and without one
    (N = 130), and beta == 0 without one (D NaN-poisoned: C must not be read); both levels bit for
    bit.  (Planted: the load predicates without has_c -- 0 * NaN in the beta == 0 run -- and
    shared_beta's select arms swapped -- no C where beta != 0: both caught.)"""
    from lasscc.passes._rolled import UNROLL_FULL_ATTR
    from xdsl.dialects import scf

    text = CASES["bias_n_gelu"][0]
    mods = passes_after(text)
    epi = epilogue_of(parse_mlir(text, "t.mlir"))
    mod = mods["lasscc-warpgroup-mma"]
    stores = [o for o in mod.walk() if isinstance(o, scf.ForOp) and UNROLL_FULL_ATTR in o.attributes
              and any(isinstance(x, lass_nv.StGlobalOp) for x in o.walk())]
    outer = [o for o in stores if not isinstance(o.parent_op(), scf.ForOp)]
    assert len(outer) == 1, len(outer)
    reads_d = [x for x in outer[0].walk() if isinstance(x, lass_nv.LdGlobalOp) and x.operands[0].name_hint == "D"]
    assert reads_d  # C, predicated on beta != 0
    for m, n, k, beta in ((300, 200, 136, -0.75), (140, 130, 64, 0.5), (140, 130, 64, 0.0)):
        ds = []
        for level in LEVELS:
            r = run_check(mods[level], m, n, k, seed=12, alpha=1.5, beta=beta, report_banks=False,
                          epilogue=epi, ctas=2)
            assert r["ok"], (level, (m, n, k, beta), r["rel_err"], r["tolerance"])
            ds.append(np.asarray(r["d"]))
        np.testing.assert_array_equal(ds[0], ds[1])


def test_shared_direct_path_is_bit_for_bit_the_two_copies(monkeypatch):
    """The shared copy's D is the two copies' (SHARED_DIRECT off) bit for bit, zeros' signs too: with
    C (beta = 0.5, a D with and without a tensor map) and without (N = 130: alpha * acc + (-0.0 *
    0), exactly alpha * acc); alpha = -0.0 makes D all signed zeros.  (Planted: +0.0 for -0.0 in
    shared_beta -- +0.0 where alpha * acc is -0.0: caught.)"""
    import lasscc.passes.warp_mma as wm
    from lasscc.passes._rolled import UNROLL_FULL_ATTR

    text = wgmma_gemm("f16", "f32", (128, 64, 64), 3, PT)
    out = {}
    for shared in (True, False):
        monkeypatch.setattr(wm, "SHARED_DIRECT", shared)
        mod, _ = _compiled(text)
        fors = [o for o in mod.walk() if UNROLL_FULL_ATTR in o.attributes and any(isinstance(x, lass_nv.StGlobalOp)
                                                                                for x in o.walk())]
        assert len(fors) == (1 if shared else 2)
        for m, n, k, alpha, beta in ((300, 200, 136, -1.5, 0.5), (140, 130, 64, -1.5, 0.5), (140, 130, 64, -1.5, 0.0),
                                     (140, 130, 64, -0.0, 0.0)):
            r = run_check(mod, m, n, k, seed=13, alpha=alpha, beta=beta, report_banks=False, ctas=2)
            assert r["ok"], (shared, (m, n, k, beta), r["rel_err"])
            out[(shared, m, n, alpha, beta)] = np.asarray(r["d"])
    for key in [x for x in out if x[0]]:
        a, b = out[key], out[(False,) + key[1:]]
        np.testing.assert_array_equal(a.view(np.uint32), b.view(np.uint32))


def test_a_pingpong_kernel_keeps_the_two_copies_of_the_per_thread_stores():
    """lasscc-warpgroup-mma's `shares_direct`: a pingpong kernel's epilogue runs alone in the ordering
    barrier's turn, where the shared copy's per-load beta != 0 test cost 5-6 % at beta != 0, so it keeps
    the copies with C (reading D) and without (not reading it); the cooperative kernel has one."""
    from lasscc.passes._rolled import UNROLL_FULL_ATTR
    from xdsl.dialects import scf

    def outer_store_loops(text):
        mod = passes_after(text)["lasscc-warpgroup-mma"]
        loops = [o for o in mod.walk() if isinstance(o, scf.ForOp) and UNROLL_FULL_ATTR in o.attributes
                 and any(isinstance(x, lass_nv.StGlobalOp) for x in o.walk())]
        return [o for o in loops if not isinstance(o.parent_op(), scf.ForOp)]

    ping = outer_store_loops(CASES["rolled_pingpong_bias_n_silu"][0])
    reads = [any(isinstance(x, lass_nv.LdGlobalOp) and x.operands[0].name_hint == "D" for x in o.walk()) for o in ping]
    assert sorted(reads) == [False, True], reads
    assert len(outer_store_loops(CASES["rolled_f16_bias_n_gelu"][0])) == 1
