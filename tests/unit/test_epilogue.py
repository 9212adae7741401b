"""Fused epilogues (issue 18): the region's semantics at every level of the CPU executor against
float64 (random normal data, NaN-poisoned D), over layouts x odd shapes x activations x D types;
every emitted kernel assembled by ptxas for sm_80 and sm_90a without spills; the accuracy of the
tanh / erf / exp formulas; located errors for bad regions; lasscc-fuse-epilogue's numbers before
and after the pass."""

from __future__ import annotations

import math

import numpy as np
import pytest

import lasscc
from lasscc.api import CompileError, LaunchError
from lasscc.epilogue_api import ACTIVATIONS, EpilogueSpec, broadcast_extras, make_extras
from lasscc.epilogue_math import TANH_APPROX_REL_ERR, TANH_FORM, NumpyF32, erf, exp, tanh, tanh_rational
from lasscc.interp import execute_kernel
from lasscc.interp.bf16 import BF16, as_f64, store_as
from lasscc.interp.errors import KernelArgumentError
from lasscc.driver import PASS_NAMES, run_passes
from lasscc.source import parse_mlir
from lit_zygote import lasscc_command  # tests/lit_zygote.py: the CLI through the suite's fork server

SMALL = dict(threadblock=(64, 64, 32), warp=(32, 32, 32), stages=3)
NP = {"f16": np.float16, "bf16": BF16, "f32": np.float32, "i8": np.int8}

# name -> (gemm() keywords, alpha, beta, shapes (M, N, K) that fit the 16-byte accesses: odd where
# the layout allows, and one of whole blocks, which takes the staged epilogue for a 16-bit D)
KERNELS = {
    "f16_tn_bias_gelu_f16d": (dict(a_dtype="f16", d_dtype="f16", layout="TN", bias="n", activation="gelu",
                                   align=(8, 8)), 1.0, 0.0, [(37, 45, 24), (64, 128, 32)]),
    "f16_nn_scale_bias_silu_residual_colD_bf16extras": (
        dict(a_dtype="f16", d_dtype="f32", layout="NN", d_layout="col", scale="m", bias="n", activation="silu",
             residual=True, epilogue_dtype="bf16", align=(8, 8)), 0.5, 0.0, [(40, 37, 16), (64, 64, 32)]),
    "f16_nt_bias_m_relu_i8d": (dict(a_dtype="f16", d_dtype="i8", layout="NT", bias="m", activation="relu",
                                    align=(8, 8)), 4.0, 0.0, [(24, 40, 40)]),
    "tf32_tt_gelu_tanh_residual_beta": (dict(a_dtype="f32", d_dtype="f32", layout="TT", activation="gelu_tanh",
                                             residual=True, epilogue_dtype="f16", align=(4, 4)),
                                        1.0, 0.75, [(33, 20, 12)]),
}


@pytest.fixture(scope="module")
def kernels():
    # sm_80 PTX (assembled below for sm_80 and sm_90a), also on a Hopper host whose default is sm_90a
    return {name: lasscc.gemm(**kw, **SMALL, arch="sm_80") for name, (kw, *_rest) in KERNELS.items()}


def _tolerance(ab: str, d: str) -> float:
    if d == "f16":
        return 1e-3  # f16 rounding: ~2.8e-4 relative (Frobenius) for random data
    if d == "bf16":
        return 1e-2
    return 2e-3 if ab == "f32" else 1e-5  # tf32 inputs round to 11 bits; f16 / bf16 products are exact


def _problem(name: str, m: int, n: int, k: int, seed: int = 0):
    kw, alpha, beta, _ = KERNELS[name]
    rng = np.random.default_rng(seed)
    ab, d_t = kw["a_dtype"], kw["d_dtype"]
    a = store_as(rng.standard_normal((m, k)), NP[ab])
    b = store_as(rng.standard_normal((k, n)), NP[ab])
    spec = EpilogueSpec(kw.get("bias"), kw.get("scale"), kw.get("activation"), kw.get("residual", False),
                        kw.get("epilogue_dtype", "f32"))
    extras = make_extras(spec, m, n, rng)
    c = store_as(rng.standard_normal((m, n)), NP[d_t]) if beta else None
    av, bv = as_f64(a), as_f64(b)
    if ab == "f32":  # the kernel multiplies tf32: the reference takes the rounded inputs
        from lasscc.interp.mma_math import tf32_rna

        av, bv = as_f64(tf32_rna(a)), as_f64(tf32_rna(b))
    v = alpha * (av @ bv) + (beta * as_f64(c) if c is not None else 0.0)
    ref = spec.reference(v, broadcast_extras(spec, m, n, extras))
    return a, b, c, extras, ref, alpha, beta


def _check(d, ref, ab: str, d_t: str, what: str) -> None:
    got = as_f64(d)
    if d_t == "i8":  # saturated, to nearest even: at most one off (a tie rounded the other way)
        want = np.clip(np.rint(ref), -128, 127)
        assert np.abs(got - want).max() <= 1, what
        assert (got == want).mean() > 0.99, what
        return
    assert np.isfinite(got).all(), f"{what}: unwritten (NaN-poisoned) elements of D"
    err = np.linalg.norm(got - ref) / np.linalg.norm(ref)
    assert err <= _tolerance(ab, d_t), f"{what}: rel_err {err:.2e}"


def _poisoned(m: int, n: int, d_t: str, c):
    if c is not None:
        return c.copy()
    if d_t == "i8":
        return np.full((m, n), -128, np.int8)  # ReLU's output is >= 0: -128 is never a right answer
    return np.full((m, n), np.nan, NP[d_t]) if d_t != "bf16" else np.full((m, n), 0x7FC0, np.uint16)


@pytest.mark.parametrize("name", list(KERNELS))
def test_per_thread_kernel_matches_float64(kernels, name):
    """The swizzle-smem stage (per-thread code, both epilogue paths) on the CPU executor."""
    kw, _, _, shapes = KERNELS[name]
    k = kernels[name]
    for m, n, kk in shapes:
        a, b, c, extras, ref, alpha, beta = _problem(name, m, n, kk)
        d = _poisoned(m, n, kw["d_dtype"], c)
        k(a, b, d, alpha, beta, target="cpu", **extras)
        _check(d, ref, kw["a_dtype"], kw["d_dtype"], f"{name} {m}x{n}x{kk}")


@pytest.mark.parametrize("name", list(KERNELS))
def test_level0_and_threadblock_match_float64(kernels, name):
    """The input (lass.gemm with its region) and the threadblock level run the same semantics."""
    kw, _, _, shapes = KERNELS[name]
    k = kernels[name]
    m, n, kk = shapes[0]
    a, b, c, extras, ref, alpha, beta = _problem(name, m, n, kk, seed=1)
    spec = k.epilogue
    col_d = kw.get("d_layout") == "col"
    a_mem = np.ascontiguousarray(a.T if kw["layout"][0] == "N" else a)  # the memref's storage order
    b_mem = np.ascontiguousarray(b if kw["layout"][1] == "T" else b.T)
    ex = [np.ascontiguousarray(extras[x].T) if kind == "mn" and col_d else extras[x] for x, kind in spec.operands]
    for stage in ("input", "lasscc-tile-threadblock"):
        d = _poisoned(m, n, kw["d_dtype"], c)
        d_mem = np.ascontiguousarray(d.T if col_d else d)
        execute_kernel(k.ir(stage), m, n, kk, a_mem, b_mem, d_mem, alpha, beta, extras=ex)
        _check(d_mem.T if col_d else d_mem, ref, kw["a_dtype"], kw["d_dtype"], f"{name} at {stage}")


@pytest.mark.parametrize("name", list(KERNELS))
def test_kernels_assemble_without_spills(kernels, name):
    from lasscc.emit import ptxas_info

    ptx = kernels[name].ptx
    for arch in ("sm_80", "sm_90a"):
        info = ptxas_info(ptx, arch)
        if info is None:
            pytest.skip("ptxas is not on PATH")
        assert info.spill_stores == 0 and info.spill_loads == 0, f"{name} {arch}: {info.line}"
    kw = KERNELS[name][0]
    if kw.get("activation") == "gelu":  # lass.gelu: a polynomial, ex2 and max.NaN, no division
        assert "div.full.f32" not in ptx and "fma.rn.f32" in ptx and "max.NaN.f32" in ptx
    if kw.get("activation") == "gelu_tanh":  # the hardware tanh (epilogue_math.TANH_FORM), no division
        assert "tanh.approx.f32" in ptx and "div.full.f32" not in ptx
    if kw.get("activation") == "silu":
        assert "ex2.approx.ftz.f32" in ptx


def test_gelu_is_one_op_and_a_planted_formula_is_caught(kernels, monkeypatch):
    """GELU's erf form reaches the kernel as lass.gelu (lasscc-fuse-epilogue); the CPU executor
    computes it with epilogue_math's formula, so a wrong formula there (x (1 - e) for both signs)
    gives a wrong D that the float64 check catches."""
    from lasscc import epilogue_math

    name = "f16_tn_bias_gelu_f16d"
    k = kernels[name]
    text = k.ir("lasscc-fuse-epilogue")
    assert "lass.gelu" in text and "rounded_to = f16" in text and "math.erf" not in text
    kw, _, _, shapes = KERNELS[name]
    m, n, kk = shapes[0]
    a, b, c, extras, ref, alpha, beta = _problem(name, m, n, kk)

    def planted(F, x, d_type="f32"):
        a = F.fmin(F.abs(x), F.const(epilogue_math.GELU_CLAMP))
        e = F.ex2(epilogue_math._poly(F, epilogue_math.GELU_FITS[d_type].coeffs, a, fused=True))
        return F.fma(F.neg(x), e, x)

    monkeypatch.setitem(epilogue_math.FORMULAS, "lass.gelu", planted)
    d = _poisoned(m, n, kw["d_dtype"], c)
    k(a, b, d, alpha, beta, target="cpu", **extras)
    with pytest.raises(AssertionError, match="rel_err"):
        _check(d, ref, kw["a_dtype"], kw["d_dtype"], "planted gelu")


def test_staged_epilogue_reads_bias_in_pairs(kernels):
    """A 16-bit D of whole blocks goes through shared memory; the [n] bias is read two at a time."""
    text = kernels["f16_tn_bias_gelu_f16d"].ir("lasscc-warp-mma")
    assert "lass_nv.st_global_v4" in text and "lass_nv.st_shared" in text
    assert "%bias[" in text and "x 2 if" in text


def test_direct_epilogue_is_one_predicated_path(kernels):
    """Whole and edge blocks share one predicated path (no unguarded copy for whole blocks): per
    accumulator pair (the region is written once, in loops over the 32x32 warp tile's columns and
    rows: passes/_rolled.rolled_columns) the pair store and the two single-element fallbacks, once
    with C and once without; the only branch is the uniform beta != 0 test.  The numbers of both
    block kinds are checked by test_per_thread_kernel_matches_float64 (64x64 is whole blocks)."""
    text = kernels["f16_nn_scale_bias_silu_residual_colD_bf16extras"].ir("lasscc-warp-mma")
    stores = [line for line in text.splitlines() if "lass_nv.st_global " in line]
    assert len(stores) == 2 * 3, len(stores)
    assert text.count("scf.for %column") == 2 and text.count("scf.for %row") == 2
    assert not any(" if %true " in line for line in stores)
    assert text.count("scf.if") == 1


@pytest.mark.parametrize("act", list(ACTIVATIONS))
def test_every_activation_level0(act):
    """Each activation's region (epilogue_api) against its float64 reference, at level 0."""
    spec = EpilogueSpec(bias="n", activation=act)
    text = lasscc.api.gemm_mlir(d_dtype="f32")
    from lasscc.epilogue_api import gemm_epilogue_mlir

    module = gemm_epilogue_mlir(spec, text)
    m, n, k = 19, 23, 16
    rng = np.random.default_rng(3)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b_nk = rng.standard_normal((n, k)).astype(np.float16)
    extras = make_extras(spec, m, n, rng)
    d = np.full((m, n), np.nan, np.float32)
    execute_kernel(module, m, n, k, a, b_nk, d, extras=[extras["bias"]])
    v = a.astype(np.float64) @ b_nk.astype(np.float64).T
    ref = spec.reference(v, broadcast_extras(spec, m, n, extras))
    assert np.abs(d - ref).max() <= 2e-6 * max(1.0, np.abs(ref).max())


# ---- the formulas ----------------------------------------------------------------------------------
def test_formula_accuracy():
    F = NumpyF32()
    x = np.concatenate([np.linspace(-12, 12, 200_001), np.geomspace(1e-8, 12, 20_000),
                        -np.geomspace(1e-8, 12, 20_000)]).astype(np.float32)
    x64 = x.astype(np.float64)
    t = tanh_rational(F, x).astype(np.float64)
    assert (np.abs(t - np.tanh(x64)) <= 5e-7 * np.abs(np.tanh(x64))).all()  # ~3 ulp relative
    # math.tanh's form: the hardware tanh.approx.f32, modelled within its documented error
    assert TANH_FORM == "approx"
    ta = tanh(F, x).astype(np.float64)
    assert (np.abs(ta - np.tanh(x64)) <= TANH_APPROX_REL_ERR * np.abs(np.tanh(x64))).all()
    e = erf(F, x).astype(np.float64)
    assert np.abs(e - np.vectorize(math.erf)(x64)).max() <= 7e-8  # ulp: tests/unit/test_erf.py
    xs = x[np.abs(x) <= 80]
    assert (np.abs(exp(F, xs) / np.exp(xs.astype(np.float64)) - 1) <= 2.0 ** -16).all()
    special = np.array([np.nan, np.inf, -np.inf], np.float32)
    for th in (tanh, tanh_rational):
        assert np.isnan(th(F, special)[0]) and list(th(F, special)[1:]) == [1, -1]
    assert np.isnan(erf(F, special)[0]) and list(erf(F, special)[1:]) == [1, -1]
    assert np.isnan(exp(F, special)[0]) and list(exp(F, special)[1:]) == [np.inf, 0]


# ---- errors ------------------------------------------------------------------------------------------
GEMM = """func.func @g(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?x{dt}>{args}) {{
  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?x{dt}>){epi}
  func.return
}}
"""


def _gemm(body: str = "", dt: str = "f32", args: str = "", ops: str = "", bargs: str = "") -> str:
    epi = "" if body is None else f" epilogue({ops}) {{\n  ^bb0(%v: f32{bargs}):\n{body}\n  }}"
    return GEMM.format(dt=dt, args=args, epi=epi)


@pytest.mark.parametrize("text, want", [
    (_gemm("    %0 = math.log %v : f32\n    lass.yield %0 : f32"),
     "t.mlir:2:3: error: epilogue: 'math.log' at t.mlir:5:5 is not allowed in an epilogue region; expected one of arith.constant"),
    (_gemm("    lass.yield %v : f32", args=", %x: memref<?xf32>", ops="%x [n] : memref<?xf32>"),
     "expected block arguments (f32, f32): the f32 value alpha * acc + beta * C, then one element of each"),
    (_gemm("    %h = arith.truncf %v : f32 to f16\n    %0 = arith.addf %h, %h : f16\n    lass.yield %v : f32"),
     "epilogue: 'arith.addf' at t.mlir:6:5: expected f32 arithmetic"),
    (_gemm("    lass.yield %v : f32", args=", %r: memref<?x?xf32, strided<[1, ?]>>",
           ops="%r [mn] : memref<?x?xf32, strided<[1, ?]>>", bargs=", %e: f32"),
     "extra operand 0: expected an [mn] matrix in D's layout (row-major)"),
    (_gemm(None, dt="i8"), "expected f32 or f16 D for f16 A and B with f32 accumulation, got i8 (an i8 D needs a "
                           "fused epilogue region)"),
])
def test_bad_regions_are_located(text, want):
    with pytest.raises(CompileError) as e:
        lasscc.compile(text, filename="t.mlir", cache=False)
    assert str(e.value).startswith("t.mlir:") and want in str(e.value), str(e.value)


def test_api_errors():
    with pytest.raises(CompileError, match="activation: expected None or one of relu, gelu"):
        lasscc.gemm(activation="swish")
    with pytest.raises(CompileError, match="bias: expected None, 'n'"):
        lasscc.gemm(bias="rows")


def test_launch_errors(kernels):
    k = kernels["f16_tn_bias_gelu_f16d"]
    a, b = np.zeros((64, 32), np.float16), np.zeros((32, 64), np.float16)
    d = np.zeros((64, 64), np.float16)
    with pytest.raises(LaunchError, match="bias: kernel 'gemm' has a fused bias"):
        k(a, b, d, target="cpu")
    with pytest.raises(LaunchError, match=r"bias: expected shape \(64,\), got \(63,\)"):
        k(a, b, d, bias=np.zeros(63, np.float32), target="cpu")
    with pytest.raises(KernelArgumentError, match="expected 1 epilogue operands"):
        execute_kernel(k.ir("swizzle-smem"), 64, 64, 32, a, np.ascontiguousarray(b.T), d)


# ---- lasscc-fuse-epilogue, by numbers -------------------------------------------------------------
FUSE_INPUT = """
func.func @mlp(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>,
               %scale: memref<?xf32>, %bias: memref<?xf32>, %res: memref<?x?xf32>) {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k = arith.constant 0.797884583 : f32
  %c = arith.constant 0.044715 : f32
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%scale, %bias : memref<?xf32>, memref<?xf32>) outs(%d : memref<?x?xf32>) {
  ^bb0(%s: f32, %bj: f32, %x: f32):
    %0 = arith.mulf %x, %s : f32
    %1 = arith.addf %0, %bj : f32
    %2 = arith.mulf %1, %1 : f32
    %3 = arith.mulf %2, %1 : f32
    %4 = arith.mulf %3, %c : f32
    %5 = arith.addf %1, %4 : f32
    %6 = arith.mulf %5, %k : f32
    %7 = math.tanh %6 : f32
    %8 = arith.addf %7, %one : f32
    %9 = arith.mulf %1, %half : f32
    %10 = arith.mulf %9, %8 : f32
    linalg.yield %10 : f32
  }
  linalg.add ins(%d, %res : memref<?x?xf32>, memref<?x?xf32>) outs(%d : memref<?x?xf32>)
  return
}
"""


def test_fuse_epilogue_numbers_before_and_after():
    """linalg's program (level 0, unfused), the fused lass.gemm and its per-thread kernel against
    float64: per-row scale, per-column bias, GELU (tanh form), residual, C += A.B."""
    m, n, k = 37, 45, 24
    rng = np.random.default_rng(5)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b_nk = rng.standard_normal((n, k)).astype(np.float16)
    scale, bias = rng.standard_normal(m).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    res, c = (rng.standard_normal((m, n)).astype(np.float32) for _ in range(2))
    v = (a.astype(np.float64) @ b_nk.astype(np.float64).T + c) * scale[:, None] + bias
    ref = ACTIVATIONS["gelu_tanh"].ref(v) + res
    stages = {"unfused": ["lasscc-import-linalg"], "fused": ["lasscc-import-linalg", "lasscc-fuse-epilogue"],
              "per-thread": PASS_NAMES[:PASS_NAMES.index("lasscc-swizzle-smem") + 1]}
    for what, names in stages.items():
        module = parse_mlir(FUSE_INPUT)
        run_passes(module, names)
        text = str(module)
        assert ("linalg.generic" in text) == (what == "unfused"), what
        d = c.copy()
        execute_kernel(module, m, n, k, a, b_nk, d, extras=[scale, bias, res])
        assert np.abs(d - ref).max() <= 1e-5 * np.abs(ref).max(), what


# ---- explain and the CLI ---------------------------------------------------------------------------
def test_explain_lists_ops_and_extra_bytes():
    """explain lists the ops the kernel computes: GELU's erf form of the input as the one lass.gelu
    that lasscc-fuse-epilogue makes of it (rounded to the f16 D); a GELU that is not yielded as it is
    keeps the f32 formula, and a region without GELU is listed as written."""
    from lasscc.explain import explain

    src = open("examples/gemm_bias_gelu.mlir").read()
    text = explain(parse_mlir(src, "g.mlir"), "sm_80", "g.mlir", resources=False)
    assert ("fused epilogue (lasscc.dialects.epilogue; its ops as lasscc-fuse-epilogue leaves them): per element of "
            "D, after alpha * acc + beta * C: arith.addf, lass.gelu (rounded to f16)") in text
    assert "math.erf" not in text
    scaled = src.replace("lass.yield %4 : f32", "%5 = arith.mulf %4, %x : f32\n    lass.yield %5 : f32")
    text2 = explain(parse_mlir(scaled, "g.mlir"), "sm_80", "g.mlir", resources=False)
    assert "after alpha * acc + beta * C: arith.addf, lass.gelu, arith.mulf\n" in text2
    assert "extra 0 [n] f32: N values, one per column of D (memref<?xT> [n]); 512 B per 128x128 block" in text
    assert "extra reads: 0.0312 B per element of D on top of D's own 2 B written" in text


def test_cli_run_on_cpu_checks_the_fused_linalg():
    import subprocess

    proc = subprocess.run([*lasscc_command(), "run", "examples/linalg_bias_relu.mlir", "--target",
                           "cpu", "--m", "33", "--n", "40", "--k", "24", "--check", "--stage", "lasscc-tile-threadblock"],
                          capture_output=True, text=True)
    assert proc.returncode == 0 and "check   PASS" in proc.stdout, proc.stdout + proc.stderr


ALL_OPS = GEMM.format(dt="f32", args=", %s: f32", epi=""" epilogue(%s : f32) {
  ^bb0(%v: f32, %s0: f32):
    %ab = math.absf %v : f32
    %q = math.sqrt %ab : f32
    %f = math.fma %q, %s0, %v : f32
    %mx = arith.maxnumf %f, %v : f32
    %mn = arith.minnumf %mx, %s0 : f32
    %mm = arith.minimumf %mn, %q : f32
    %c = arith.cmpf olt, %v, %s0 : f32
    %sel = arith.select %c, %mm, %f : f32
    %n = arith.negf %sel : f32
    %dv = arith.divf %n, %s0 : f32
    %t = arith.truncf %dv : f32 to f16
    %e = arith.extf %t : f16 to f32
    %sub = arith.subf %e, %v : f32
    %x = math.exp %sub : f32
    %y = math.tanh %x : f32
    %z = math.erf %sub : f32
    %w = arith.addf %y, %z : f32
    %m2 = arith.maximumf %w, %sub : f32
    lass.yield %m2 : f32
  }""").replace("{alpha = 1.0 : f32, beta = 0.0 : f32}", "{alpha = 1.0 : f32, beta = 0.0 : f32, config = {threadblock = "
                "[64, 64, 32], warp = [32, 32, 32], stages = 3}}")


def _all_ops_ref(v, s):
    a = np.abs(v)
    q = np.sqrt(a)
    f = q * s + v
    mm = np.minimum(np.minimum(np.fmax(f, v), s), q)
    sel = np.where(v < s, mm, f)
    e = (-sel / s).astype(np.float16).astype(np.float64)
    sub = e - v
    return np.maximum(np.tanh(np.exp(sub)) + np.vectorize(math.erf)(sub), sub)


def test_every_allowed_op_lowers_and_runs():
    """Each op an epilogue region allows: through the whole pipeline (ptxas, no spills) and on the CPU
    at the input and per-thread levels, against float64."""
    from lasscc.emit import ptxas_info

    k = lasscc.compile(ALL_OPS, filename="all_ops.mlir", arch="sm_80")  # (assembled for both below)
    for arch in ("sm_80", "sm_90a"):
        info = ptxas_info(k.ptx, arch)
        if info is not None:
            assert info.spill_stores == 0 and info.spill_loads == 0, info.line
    m, n, kk, s = 45, 37, 16, 0.75
    rng = np.random.default_rng(9)
    a = rng.standard_normal((m, kk)).astype(np.float16)
    b_nk = rng.standard_normal((n, kk)).astype(np.float16)
    ref = _all_ops_ref(a.astype(np.float64) @ b_nk.astype(np.float64).T, s)
    for stage in ("input", "lasscc-swizzle-smem"):
        d = np.full((m, n), np.nan, np.float32)
        execute_kernel(k.ir(stage), m, n, kk, a, b_nk, d, extras=[s])
        bad = np.abs(d - ref) > 1e-5 * np.maximum(1.0, np.abs(ref))
        assert bad.mean() < 0.01, stage  # an f16 rounding tie may land the other way in float64
