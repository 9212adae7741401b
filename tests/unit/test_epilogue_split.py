"""Fused epilogues with split-K (serial, parallel), stream-K and batched GEMMs (issue 18), on both
instruction paths (mma.sync, sm_80; wgmma, sm_90a).

The region runs exactly once per element, on the fully reduced value (serial split-K: the last
partition; parallel: the reduction kernel; stream-K: the unit that ends the tile), so a non-linear
epilogue (GELU, ReLU, SiLU) matches float64.  Each kernel: the input (level 0), the threadblock
level and the last per-thread level on the CPU executor against float64 (random normal data, D
NaN-poisoned or with C; lasscc.interp.check.run_check, the region's own semantics as reference),
odd shapes, f16 / i8 D casts, a column-major D, per-batch and shared extras; every kernel
assembled by ptxas (sm_80 PTX also for sm_90a) without spills; the Python API with bias /
activation / split_k; `lasscc explain`; located errors.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

import lasscc
from lasscc.driver import PASS_NAMES, make_pass, run_pass
from lasscc.emit import ptxas_info, to_llvm_ir, to_ptx
from lasscc.epilogue_api import EpilogueSpec, broadcast_extras, gemm_epilogue_mlir, make_extras
from lasscc.interp import run_check
from lasscc.interp.bf16 import as_f64
from lasscc.interp.check import epilogue_of
from lasscc.source import parse_mlir


def _mr(t: str, layout: str, batched: bool) -> str:
    if batched:
        return f"memref<?x?x?x{t}>" if layout == "row" else f"memref<?x?x?x{t}, strided<[?, 1, ?]>>"
    return f"memref<?x?x{t}>" if layout == "row" else f"memref<?x?x{t}, strided<[1, ?]>>"


def gemm_text(arch: str, d: str = "f32", ld: str = "row", cfg: str = "", alpha: float = 1.0, beta: float = 0.0,
              batched: bool = False) -> str:
    """A plain lass.gemm (A row-major, B column-major), f16 in; the tiling of `arch`'s path."""
    tiles = ('mma = "wgmma", threadblock = [64, 64, 64], stages = 3' if arch == "sm_90a"
             else "threadblock = [64, 64, 32], warp = [32, 32, 32], stages = 3")
    ta, tb, td = _mr("f16", "row", batched), _mr("f16", "col", batched), _mr(d, ld, batched)
    return (f"func.func @gemm(%a: {ta}, %b: {tb}, %d: {td}) {{\n"
            f"  lass.gemm {{alpha = {alpha} : f32, beta = {beta} : f32, config = {{{tiles}{cfg}}}}}\n"
            f"      ins(%a, %b : {ta}, {tb}) outs(%d : {td})\n  func.return\n}}\n")


# a batched GEMM with a per-batch bias [batch, N], a shared per-row scale [M] and a per-batch
# residual [batch, M, N] in D's layout, then ReLU
def batched_text(arch: str, ld: str, cfg: str, d: str = "f32") -> str:
    base = gemm_text(arch, d, ld, cfg, batched=True)
    td, tr = _mr(d, ld, True), _mr("f32", ld, True)
    return base.replace(f"%d: {td}) {{", f"%d: {td}, %bias: memref<?x?xf32>, %s: memref<?xf16>, %r: {tr}) {{").replace(
        f"outs(%d : {td})", f"""outs(%d : {td})
      epilogue(%bias [n], %s [m], %r [mn] : memref<?x?xf32>, memref<?xf16>, {tr}) {{
  ^bb0(%v: f32, %be: f32, %se: f16, %re: f32):
    %sf = arith.extf %se : f16 to f32
    %0 = arith.mulf %v, %sf : f32
    %1 = arith.addf %0, %be : f32
    %z = arith.constant 0.0 : f32
    %2 = arith.maximumf %1, %z : f32
    %3 = arith.addf %2, %re : f32
    lass.yield %3 : f32
  }}""")


def _spec_text(arch, spec: EpilogueSpec, **kw) -> str:
    return gemm_epilogue_mlir(spec, gemm_text(arch, **kw))


SERIAL3, SERIAL2 = ", split_k = 3", ", split_k = 2"
PAR2, PAR3 = ', split_k = 2, split_k_mode = "parallel"', ', split_k = 3, split_k_mode = "parallel"'
STREAMK = ', split_k_mode = "streamk"'

# name -> (arch, input text, alpha, beta, (M, N, K), batch)
CASES = {
    # mma.sync
    "sm80_serial3_bias_gelu_f16d_beta": ("sm_80", _spec_text("sm_80", EpilogueSpec("n", None, "gelu"), d="f16",
                                                             cfg=SERIAL3, beta=0.5), 1.0, 0.5, (129, 200, 72), 1),
    "sm80_parallel2_scale_relu_residual_colD": (
        "sm_80", _spec_text("sm_80", EpilogueSpec(None, "m", "relu", True), ld="col", cfg=PAR2, alpha=0.5),
        0.5, 0.0, (129, 200, 72), 1),
    "sm80_streamk_bias_silu": ("sm_80", _spec_text("sm_80", EpilogueSpec("n", None, "silu"), cfg=STREAMK),
                               1.0, 0.0, (67, 136, 72), 1),
    # stream-K's partial sums stay i32 in its workspace: an i8 D takes a fused epilogue
    "sm80_streamk_bias_m_relu_i8d": ("sm_80", _spec_text("sm_80", EpilogueSpec("m", None, "relu"), d="i8", cfg=STREAMK,
                                                         alpha=16.0), 16.0, 0.0, (67, 136, 256), 1),
    "sm80_batched_serial2_colD": ("sm_80", batched_text("sm_80", "col", SERIAL2), 1.0, 0.0, (65, 72, 72), 3),
    # wgmma
    "sm90_serial2_bias_gelu_tanh_f16d": ("sm_90a", _spec_text("sm_90a", EpilogueSpec("n", None, "gelu_tanh"),
                                                               d="f16", cfg=SERIAL2), 1.0, 0.0, (129, 200, 72), 1),
    "sm90_parallel3_bias_m_relu_i8d": ("sm_90a", _spec_text("sm_90a", EpilogueSpec("m", None, "relu"), d="i8",
                                                             cfg=PAR3, alpha=16.0), 16.0, 0.0, (129, 200, 144), 1),
    "sm90_batched_parallel2_f16d": ("sm_90a", batched_text("sm_90a", "row", PAR2, d="f16"), 1.0, 0.0,
                                    (65, 72, 80), 2),
    # cluster split-K (lasscc.cluster_splitk): each CTA applies the region to its column window of the sum
    "sm90_cluster2_bias_gelu_residual_f16d_beta": (
        "sm_90a", _spec_text("sm_90a", EpilogueSpec("n", None, "gelu", True), d="f16",
                             cfg=', split_k = 2, split_k_mode = "cluster"', beta=0.5), 1.0, 0.5, (129, 200, 72), 1),
}
LAST_LEVEL = {"sm_80": "lasscc-swizzle-smem", "sm_90a": "lasscc-hopper-smem"}


@functools.lru_cache(maxsize=None)
def compiled(name: str):
    """(level-0 module, threadblock-level module, last per-thread module, PTX) of a case: the passes
    run one by one, each verified (the epilogue regions included)."""
    arch, text, *_ = CASES[name]
    mod = parse_mlir(text, f"{name}.mlir")
    keep = {}
    for p in PASS_NAMES:
        run_pass(mod, make_pass(p, arch), f"{name}.mlir")
        if p in ("lasscc-tile-threadblock", LAST_LEVEL[arch]):
            keep[p] = mod.clone()
    ptx = to_ptx(to_llvm_ir(mod), arch)
    return parse_mlir(text, f"{name}.mlir"), keep["lasscc-tile-threadblock"], keep[LAST_LEVEL[arch]], ptx


@pytest.mark.parametrize("name", list(CASES))
def test_every_level_matches_float64_and_assembles(name):
    arch, _, alpha, beta, (m, n, k), batch = CASES[name]
    level0, tb, last, ptx = compiled(name)
    _assemble(name, arch, ptx)
    epi = epilogue_of(level0)
    for mod in (level0, tb, last):
        r = run_check(mod, m, n, k, seed=5, alpha=alpha, beta=beta, report_banks=False, batch=batch, epilogue=epi)
        assert r["ok"], (name, r["level"], r["rel_err"], r["tolerance"])
        d = np.asarray(r["d"])
        if d.dtype.kind == "i":  # saturated; ReLU's output is never the poison -128
            assert d.min() >= 0 and d.max() == 127
        else:
            assert np.isfinite(d.astype(np.float64)).all(), f"{name}: unwritten (NaN-poisoned) elements of D"


def _assemble(name: str, arch: str, ptx: str) -> None:
    """ptxas on the kernel (sm_80 PTX also for sm_90a): no spill (nor wgmma serialization: ptxas_info raises)."""
    for target in (("sm_80", "sm_90a") if arch == "sm_80" else ("sm_90a",)):
        info = ptxas_info(ptx.replace(".target sm_80", f".target {target}") if target != arch else ptx, target)
        if info is None:
            return  # ptxas is not on PATH
        assert info.spill_stores == 0 and info.spill_loads == 0, f"{name} {target}: {info.line}"
    if "parallel" in name:  # the region in the reduction kernel, not in the GEMM kernel's partial sums
        assert ptx.count(".entry") == 2
    if "gelu_tanh" in name:
        assert "tanh.approx.f32" in ptx


def test_partial_sums_stay_raw():
    """The serial epilogue gates the region on the partition that completes the sum: the
    threadblock level's region yields the value as it is unless the flag is set.  Stream-K's one
    epilogue is the finisher's, on the full sum (the other units write workspace partials): not gated."""
    from lasscc.dialects import lass_tb

    for name in ("sm80_serial3_bias_gelu_f16d_beta", "sm90_serial2_bias_gelu_tanh_f16d"):
        (ep,) = [o for o in compiled(name)[1].walk() if isinstance(o, lass_tb.EpilogueOp)]
        assert ep.kinds[-1] == "scalar" and ep.epilogue.block.args[-1].name_hint == "last"
        ops = [o.name for o in ep.epilogue.block.ops]
        assert ops[-3:] == ["arith.cmpf", "arith.select", "lass.yield"]
    (ep,) = [o for o in compiled("sm80_streamk_bias_silu")[1].walk() if isinstance(o, lass_tb.EpilogueOp)]
    assert ep.kinds == ("n",) and all(a.name_hint != "last" for a in ep.epilogue.block.args)
    assert any(isinstance(o, lass_tb.PartialStoreOp) for o in compiled("sm80_streamk_bias_silu")[1].walk())
    par = [o for o in compiled("sm80_parallel2_scale_relu_residual_colD")[1].walk() if isinstance(o, lass_tb.EpilogueOp)]
    assert len(par) == 1 and not par[0].has_epilogue  # the GEMM kernel writes raw partial sums


@pytest.fixture(scope="module")
def api_kernel():
    return lasscc.gemm(a_dtype="f16", d_dtype="f16", layout="TN", bias="n", activation="relu", split_k=2,
                       split_k_mode="parallel", threadblock=(64, 64, 32), warp=(32, 32, 32), stages=3, arch="sm_80",
                       align=(8, 8))


def test_api_bias_activation_split_k(api_kernel):
    """lasscc.gemm(..., bias=, activation=, split_k=) on the CPU executor: parallel split-K (serial:
    CASES), an odd shape, an f16 D, NaN-poisoned."""
    rng = np.random.default_rng(7)
    m, n, k = 37, 45, 72
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    for mode, kern in (("parallel", api_kernel),):
        assert "split_k = 2" in kern.ir("input") and "epilogue(%bias [n]" in kern.ir("input")
        extras = make_extras(kern.epilogue, m, n, rng)
        d = np.full((m, n), np.nan, np.float16)
        kern(a, b, d, target="cpu", **extras)
        ref = kern.epilogue.reference(as_f64(a) @ as_f64(b), broadcast_extras(kern.epilogue, m, n, extras))
        got = as_f64(d)
        assert np.isfinite(got).all(), mode
        assert np.linalg.norm(got - ref) / np.linalg.norm(ref) < 1e-3, mode


def test_explain_says_where_the_epilogue_runs(tmp_path):
    from lasscc.cli import main

    for name, want in (("sm80_parallel2_scale_relu_residual_colD", "split-K (parallel): the reduction kernel"),
                       ("sm80_batched_serial2_colD", "split-K (serial): the last partition")):
        path = tmp_path / f"{name}.mlir"
        path.write_text(CASES[name][1])
        import contextlib
        import io

        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["explain", str(path), "--arch", CASES[name][0]]) in (0, None)
        text = out.getvalue()
        assert want in text, text
        if "batched" in name:
            assert "one per batch (batch first)" in text and "shared by every batch" in text
            assert "extra reads:" in text


def test_rejected_with_locations(tmp_path):
    from lasscc.diagnostics import LassError
    from lasscc.driver import compile_module

    cases = [
        (_spec_text("sm_80", EpilogueSpec("n", None, "relu"), d="i8", cfg=SERIAL2),
         'config: expected split_k_mode = "parallel" for an i8 D with a fused epilogue'),
        (batched_text("sm_80", "row", STREAMK), 'config: expected a 2-d GEMM with split_k_mode = "streamk"'),
        (batched_text("sm_80", "row", "").replace("%bias: memref<?x?xf32>", "%bias: memref<?x?x?xf32>").replace(
            "%bias [n], %s [m], %r [mn] : memref<?x?xf32>", "%bias [n], %s [m], %r [mn] : memref<?x?x?xf32>"),
         "expected a 1-d memref (shared by every batch) or a 2-d one (one per batch, batch first)"),
    ]
    for text, want in cases:
        with pytest.raises(LassError) as e:
            compile_module(parse_mlir(text, "bad.mlir"), arch="sm_80", keep_stages=False)
        assert want in str(e.value) and "bad.mlir:" in str(e.value), str(e.value)


class _FakeCudaArray:
    """A CUDA array's interface at a chosen address (never dereferenced: the launch fails first)."""

    def __init__(self, ptr: int, shape, typestr: str):
        self.__cuda_array_interface__ = {"data": (ptr, False), "shape": shape, "typestr": typestr, "version": 3}


def test_device_extras_must_be_pair_aligned(api_kernel):
    """The kernels read extra vectors in pairs of elements (ld.global.v2, like D): a device bias at an
    odd element address is a LaunchError naming it (dialects.epilogue.extra_align_bytes)."""
    from lasscc.api import LaunchError

    a, b, d = np.zeros((64, 64), np.float16), np.zeros((64, 64), np.float16), np.zeros((64, 64), np.float16)
    with pytest.raises(LaunchError, match=r"bias: expected a 8-byte aligned data pointer .* got 0x1004"):
        api_kernel(a, b, d, bias=_FakeCudaArray(0x1004, (64,), "<f4"))


def test_example_batched_parallel_runs_on_the_cpu(capsys):
    """examples/gemm_epilogue_batched_splitk.mlir as examples/README.md runs it (mma.sync, batched,
    parallel split-K, a per-batch bias and a shared scale): `lasscc run --target cpu --check` passes."""
    from pathlib import Path

    from lasscc.cli import main

    path = Path(__file__).resolve().parents[2] / "examples" / "gemm_epilogue_batched_splitk.mlir"
    rc = main(["run", str(path), "--target", "cpu", "--m", "65", "--n", "72", "--k", "80", "--batch", "3", "--check"])
    out = capsys.readouterr().out
    assert rc in (0, None) and "PASS" in out, out
