"""Fused epilogues and split-K on the Hopper path (mma = "wgmma", sm_90a): every executable level on
the CPU executor against float64, the kernel ABI (lasscc.config.kernel_params) as the passes, the
specs and the launcher see it, planted split-K synchronisation bugs, and ptxas on the kernels.

1. Epilogues: bias [n] / [m], scales, residual, activations (erf and tanh GELU, SiLU, ReLU, a
   scalar operand), D f16 / f32 / i8 (saturating) and a column-major D; the module before and
   after each of lasscc-tile-threadblock, -pipeline, -warpgroup-mma, -hopper-smem on random
   normal data, D NaN-poisoned (beta = 0) or with C, the reference the region's own semantics on
   the float64 product (lasscc.interp.check.run_check); the data-moving passes reproduce their
   input's D bit for bit.
2. Split-K, serial (semaphores) and parallel (workspace + reduction kernel): every level, CTA
   orders forward / reverse (same D bit for bit) / shuffled, fewer k-tiles than partitions.
3. Planted bugs at the physical level: no semaphore wait (a race on D), no barrier after the
   acquire (a race), a release that never hands the turn on (a deadlock).
4. ptxas: the kernels assemble for sm_90a with no spill and no wgmma serialization warning
   (lasscc.emit.ptxas_info raises on C7510 / C7517 / C7519).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from lasscc.config import KERNEL_FIXED_PARAMS, kernel_params
from lasscc.dialects import lass_nv, lass_tb
from lasscc.dialects.lass import kernel_facts
from lasscc.driver import compile_module, kernel_specs, make_pass, run_pass
from lasscc.emit import ptxas_info
from lasscc.epilogue_api import EpilogueSpec, gemm_epilogue_mlir
from lasscc.interp import RaceError, run_check
from lasscc.interp.check import epilogue_of
from lasscc.interp.sync import DeadlockError
from lasscc.passes.splitk_reduce import REDUCE_ATTR
from lasscc.source import parse_mlir
from xdsl.dialects import func

PASSES = ["lasscc-tile-threadblock", "lasscc-pipeline", "lasscc-warpgroup-mma", "lasscc-hopper-smem"]


def gemm(ab="f16", d="f32", tb=(64, 64, 64), stages=3, ld="row", beta=0.0, alpha=1.5, extra="") -> str:
    """A wgmma lass.gemm (A row-major, B column-major: the K-major tiles every type allows)."""
    def mr(t, lay):
        return f"memref<?x?x{t}>" if lay == "row" else f"memref<?x?x{t}, strided<[1, ?]>>"

    ta, tb_, td = mr(ab, "row"), mr(ab, "col"), mr(d, ld)
    return (f"func.func @gemm(%a: {ta}, %b: {tb_}, %d: {td}) {{\n"
            f"  lass.gemm {{alpha = {alpha} : f32, beta = {beta} : f32, config = {{mma = \"wgmma\", "
            f"threadblock = [{tb[0]}, {tb[1]}, {tb[2]}], stages = {stages}{extra}}}}}\n"
            f"      ins(%a, %b : {ta}, {tb_}) outs(%d : {td})\n  func.return\n}}\n")


# a scalar operand and math.tanh / exp, written by hand (EpilogueSpec has no scalars)
SCALAR_TANH = gemm(d="f32", beta=0.5).replace(
    "%d: memref<?x?xf32>) {", "%d: memref<?x?xf32>, %s: f32) {").replace(
    "outs(%d : memref<?x?xf32>)", """outs(%d : memref<?x?xf32>) epilogue(%s : f32) {
  ^bb0(%v: f32, %s0: f32):
    %0 = arith.mulf %v, %s0 : f32
    %1 = math.tanh %0 : f32
    %2 = math.exp %1 : f32
    %3 = arith.subf %2, %v : f32
    lass.yield %3 : f32
  }""")

# name -> (input text, alpha, beta, (M, N, K)); K a multiple of 16 bytes (TMA's stride rule)
EPILOGUES = {
    "f16_bias_n_gelu_f16d": (gemm_epilogue_mlir(EpilogueSpec("n", None, "gelu"), gemm(d="f16")), 1.5, 0.0,
                             (72, 80, 136)),
    "bf16_scale_m_bias_n_silu_residual_colD": (
        gemm_epilogue_mlir(EpilogueSpec("n", "m", "silu", True, "bf16"),
                           gemm(ab="bf16", d="f32", tb=(64, 32, 32), stages=4, ld="col", alpha=0.5)),
        0.5, 0.0, (40, 100, 72)),
    "f16_bias_m_relu_i8d": (gemm_epilogue_mlir(EpilogueSpec("m", None, "relu"), gemm(d="i8", tb=(128, 64, 64),
                                                                                     alpha=16.0)),
                            16.0, 0.0, (130, 66, 64)),
    "tf32_gelu_tanh_residual_beta": (
        gemm_epilogue_mlir(EpilogueSpec(None, "n", "gelu_tanh", True, "f16"),
                           gemm(ab="f32", d="f32", tb=(64, 64, 32), beta=0.75, alpha=1.0)),
        1.0, 0.75, (33, 70, 44)),
    "f16_scalar_tanh_exp_beta": (SCALAR_TANH, 1.5, 0.5, (65, 64, 80)),
}


@functools.lru_cache(maxsize=None)
def stages_of(text: str) -> tuple:
    """The module before the first pass and after each of PASSES (clones)."""
    mod = parse_mlir(text, "t.mlir")
    out = [mod.clone()]
    for name in PASSES:
        run_pass(mod, make_pass(name, "sm_90a"), "t.mlir")
        out.append(mod.clone())
    return tuple(out)


def _kernel(mod) -> func.FuncOp:
    return next(f for f in mod.ops if isinstance(f, func.FuncOp) and REDUCE_ATTR not in f.attributes)


@pytest.mark.parametrize("name", list(EPILOGUES))
def test_epilogue_every_level_matches_float64(name):
    text, alpha, beta, (m, n, k) = EPILOGUES[name]
    mods = stages_of(text)
    epi = epilogue_of(mods[0])
    assert epi is not None
    ds = []
    for level, mod in enumerate(mods):
        r = run_check(mod, m, n, k, seed=3, alpha=alpha, beta=beta, report_banks=False, epilogue=epi)
        assert r["level"] == level and r["ok"], (level, r["rel_err"], r["tolerance"])
        d = np.asarray(r["d"])
        if d.dtype.kind == "i":  # saturated to [-128, 127]; ReLU's output is never the poison -128
            assert d.min() >= 0 and d.max() == 127
        else:
            assert np.isfinite(d.astype(np.float64) if d.dtype != np.uint16 else d).all()
        ds.append(d)
    np.testing.assert_array_equal(ds[2], ds[1])  # lasscc-pipeline moves data only
    np.testing.assert_array_equal(ds[4], ds[3])  # lasscc-hopper-smem: physical addresses, same wgmmas
    ops = {o.name for o in mods[4].walk()}
    assert "lass_nv.wgmma_mma_async" in ops and "lass_nv.tma_load_2d" in ops


def test_epilogue_kernel_abi():
    """Tensor maps right after beta, then the extras: the kernel's parameters, its KernelSpec and
    the launcher's values agree with kernel_params."""
    text = EPILOGUES["bf16_scale_m_bias_n_silu_residual_colD"][0]
    fn = _kernel(stages_of(text)[4])
    names = kernel_params(True, False, 3)
    assert [a.name_hint for a in fn.body.block.args] == list(names[:10]) + ["scale", "bias", "residual"]
    assert [t.name for t in fn.function_type.inputs.data[8:10]] == ["lass_nv.tensor_map"] * 2
    (spec,) = kernel_specs(stages_of(text)[4])
    assert spec.params == names == KERNEL_FIXED_PARAMS + ("tmap_A", "tmap_B", "E0", "E1", "E2")
    maps = []
    vals = spec.param_values("a", "b", "d", 40, 100, 72, 0.5, 0.0, lambda op, buf, *box: maps.append(op) or (op, buf),
                             extras=[11, 12, 13])
    # column-major D: the kernel's A is the caller's B; the extras keep their order
    assert vals == ["b", "a", "d", 100, 40, 72, 0.5, 0.0, ("A", "b"), ("B", "a"), 11, 12, 13] and maps == ["A", "B"]
    typed = spec.typed_params(vals)
    assert [type(x).__name__ for x in typed[3:8]] == ["int32"] * 3 + ["float32"] * 2
    assert [type(x).__name__ for x in typed[10:]] == ["uint64"] * 3


# ---- split-K ---------------------------------------------------------------------------------------
SPLITS = {  # name -> (input text, alpha, beta)
    "f16_serial": (gemm(extra=", split_k = 3", beta=-0.5, alpha=0.75), 0.75, -0.5),
    "f16_parallel": (gemm(extra=', split_k = 3, split_k_mode = "parallel"', beta=-0.5, alpha=0.75), 0.75, -0.5),
    "bf16_serial_colD": (gemm(ab="bf16", d="bf16", tb=(64, 32, 32), ld="col", extra=", split_k = 2", beta=0.5),
                         1.5, 0.5),
    "i8_parallel_exact": (gemm(ab="i8", d="i32", tb=(64, 64, 64), alpha=1.0,
                               extra=', split_k = 4, split_k_mode = "parallel"'), 1.0, 0.0),
}


@pytest.mark.parametrize("name", list(SPLITS))
def test_split_k_every_level_and_order(name):
    """Every level in forward order; the physical level also reversed (D bit for bit the same: the
    semaphore, or the reduction's partition order, fixes the sum's order) and, with beta = 0 (D
    NaN-poisoned), shuffled on a K of fewer k-tiles than partitions."""
    text, alpha, beta = SPLITS[name]
    mods = stages_of(text)
    m, n, k = 37, 45, 320
    for level, mod in enumerate(mods):
        r = run_check(mod, m, n, k, seed=5, alpha=alpha, beta=beta, report_banks=False)
        assert r["level"] == level and r["ok"], (level, r["rel_err"], r["tolerance"])
        ws = r["result"].workspace
        if level and "serial" in name:
            assert ws is not None and not ws.any(), "the last partition of every tile resets its semaphore"
    rev = run_check(mods[4], m, n, k, seed=5, alpha=alpha, beta=beta, report_banks=False, order="reverse")
    assert np.array_equal(np.asarray(r["d"]), np.asarray(rev["d"])), "D depends on the CTA order"
    short = run_check(mods[4], 33, 17, 64, seed=6, alpha=alpha, beta=0.0, report_banks=False, order="shuffle:2")
    assert short["ok"] and np.isfinite(np.asarray(short["d"], np.float64) if "bf16" not in name else 1).all()
    if "i8" in name:
        np.testing.assert_array_equal(np.asarray(r["d"], np.float64), r["ref"])  # i32: exact


def test_split_k_kernel_abi():
    """Tensor maps before W, in the GEMM and in parallel split-K's reduction (the same arguments)."""
    mod = stages_of(SPLITS["f16_parallel"][0])[4]
    gemm_fn = _kernel(mod)
    red = next(f for f in mod.ops if isinstance(f, func.FuncOp) and REDUCE_ATTR in f.attributes)
    names = kernel_params(True, True, 0)
    assert names[8:] == ("tmap_A", "tmap_B", "W")
    for fn in (gemm_fn, red):
        assert tuple(a.name_hint for a in fn.body.block.args) == names
    assert red.function_type.inputs == gemm_fn.function_type.inputs
    (spec,) = kernel_specs(mod)
    assert spec.params == names and spec.reduce_name == red.sym_name.data
    vals = spec.param_values("a", "b", "d", 7, 8, 9, 1.0, 0.0, lambda op, buf, *box: op, workspace="w")
    assert vals[8:] == ["A", "B", "w"]


def _planted(bug: str):
    mod = stages_of(SPLITS["f16_serial"][0])[4].clone()
    ops = list(mod.walk())
    if bug == "no-wait":  # a partition adds to D before its predecessor's stores are visible
        victim = next(o for o in ops if isinstance(o, lass_nv.SpinAcquireOp))
    elif bug == "no-barrier":  # thread 0 acquires; the others read D without the bar.sync after it
        victim = next(o for o in ops if isinstance(o, lass_nv.SpinAcquireOp)).parent_op().next_op
        assert isinstance(victim, lass_nv.BarSyncOp)
    else:  # the release hands the turn to the same partition: nobody follows
        rel = next(o for o in ops if isinstance(o, lass_nv.StReleaseOp))
        rel.operands = [rel.sem, rel.offset, rel.value.owner.operands[2].owner.lhs]
        return mod
    victim.detach()
    victim.erase()
    return mod


@pytest.mark.parametrize("bug,error", [("no-wait", RaceError), ("no-barrier", RaceError),
                                       ("no-increment", DeadlockError)])
def test_planted_split_k_bug_is_caught(bug, error):
    mod = _planted(bug)
    for order in ("forward", "reverse"):
        with pytest.raises(error) as e:
            run_check(mod, 37, 45, 320, seed=1, alpha=0.75, beta=0.5, report_banks=False, order=order)
        msg = str(e.value)
        if error is RaceError:
            assert "(partition " in msg and "no release / acquire" in msg
        else:
            assert "waits for W[" in msg


def test_planted_missing_semaphore_wait_at_the_threadblock_level():
    mod = stages_of(SPLITS["f16_serial"][0])[1].clone()
    w = next(o for o in mod.walk() if isinstance(o, lass_tb.SemaphoreWaitOp))
    w.detach()
    w.erase()
    with pytest.raises(RaceError):
        run_check(mod, 37, 45, 320, seed=1, alpha=0.75, beta=0.5, report_banks=False, order="reverse")


# ---- ptxas -------------------------------------------------------------------------------------------
PTX = {
    # the headline tile (BENCHMARKS.md): bias + tanh-GELU into an f16 D (the staged epilogue)
    "f16_128x256_bias_gelu_tanh_f16d": gemm_epilogue_mlir(EpilogueSpec("n", None, "gelu_tanh"),
                                                          gemm(d="f16", tb=(128, 256, 64), stages=4)),
    "f16_128x128_scale_bias_relu_residual_i8d": gemm_epilogue_mlir(EpilogueSpec("n", "m", "relu", True, "f16"),
                                                                   gemm(d="i8", tb=(128, 128, 64), stages=4)),
    "f16_128x256_serial_split3": gemm(tb=(128, 256, 64), stages=4, extra=", split_k = 3"),
    "bf16_128x128_parallel_split2": gemm(ab="bf16", d="bf16", tb=(128, 128, 64), stages=4,
                                         extra=', split_k = 2, split_k_mode = "parallel"'),
}


@pytest.mark.parametrize("name", list(PTX))
def test_kernels_assemble_without_spills_or_serialization(name):
    res = compile_module(parse_mlir(PTX[name], "t.mlir"), arch="sm_90a")
    (spec,) = res.specs
    assert spec.params[8:10] == ("tmap_A", "tmap_B")
    assert res.ptx.count("wgmma.mma_async.sync.aligned") == 4  # BK / 16 per k-tile
    if "gelu_tanh" in name:
        assert "tanh.approx.f32" in res.ptx
    info = ptxas_info(res.ptx, "sm_90a")  # raises on a wgmma serialization warning
    if info is None:
        pytest.skip("ptxas not on PATH")
    assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0, info.line


# ---- the GPU scripts' wgmma cases build without a GPU ---------------------------------------------
def _script(name: str):
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(name, Path(__file__).resolve().parents[2] / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_gpu_matrix_wgmma_cases_pass_the_config_checks():
    """--split-only / --epilogue-only with --arch sm_90a add the wgmma config (layouts wgmma reads);
    every such kernel passes lasscc-tile-threadblock's checks for sm_90a (shared memory, registers,
    wgmma shapes, TMA-sized tiles)."""
    gm = _script("gpu_matrix")
    for kw in (dict(split_only=True), dict(epilogue_only=True)):
        assert not any("wgmma" in c[3] for c in gm.build_cases(**kw))
        cases = [c for c in gm.build_cases(arch="sm_90a", **kw) if "wgmma" in c[3]]
        assert {c[1] for c in cases} >= {"f16", "bf16", "f32"}  # (i8 inputs: split-K only)
        for name, ab, layouts, cname, text, *_ in cases:
            assert ab in ("f16", "bf16") or layouts[:2] == ("row", "col"), (name, layouts)
            run_pass(parse_mlir(text, "m.mlir"), make_pass("lasscc-tile-threadblock", "sm_90a"), "m.mlir")


def test_epilogue_bench_wgmma_texts_and_opcode_count():
    import argparse

    eb = _script("epilogue_bench")
    args = argparse.Namespace(mma="wgmma", threadblock=None, warp="64x64x64", stages=4, prefetch=1, d_dtype="f16",
                              activation="gelu_tanh")
    plain, fused, spec = eb.kernel_texts(args)
    assert spec.activation == "gelu_tanh" and "epilogue(%bias [n]" in fused and "epilogue" not in plain
    for text in (plain, fused):
        mod = parse_mlir(text, "b.mlir")
        run_pass(mod, make_pass("lasscc-tile-threadblock", "sm_90a"), "b.mlir")
        cfg = kernel_facts(next(f for f in mod.ops if isinstance(f, func.FuncOp))).config
        assert cfg.threadblock == (128, 256, 64) and cfg.is_wgmma and cfg.stages == 4
    ops = eb.ptx_opcodes("// c\n.reg .f32 %f<3>;\n$L1:\n  tanh.approx.f32 %f1, %f2;\n  @%p1 bra $L1;\n"
                         "  @!%p2 st.global.v2.f32 [%rd1], {%f1, %f2};\n}\n")
    assert ops == {"tanh.approx.f32": 1, "bra": 1, "st.global.v2.f32": 1}
