"""Operand layouts NN / NT / TN / TT (issue "General GEMM"): A and B each row- or column-major,
D row- or column-major, f16 and bf16, on the CPU executor.

1. The matrix: A row/col x B row/col x D row/col x {f16, bf16} x two configs (128x128x32 / warp
   64x64x32 / 3 stages: cp.async multistage; 64x64x32 / warp 32x32x32 / 2 stages: register
   staged) on odd shapes (1, 7, 33, 127, 129 on M, N or K wherever the alignment rule allows:
   the contiguous dimension of each operand a multiple of 8), run on the final (swizzled) level
   against a float64 reference, with the bank report: zero conflicts in every config.
2. Per pass, before/after on the same data (as tests/unit/test_pass_numerics.py): bit for bit
   across the data-movement passes (pipeline, swizzle-smem), to rounding across the others.
3. The MN-major pieces: the IR of each level says the majorness (tile / ring / staged types,
   ldmatrix `trans`); the alignment rule and its messages; linalg.matmul with transposed
   operands through indexing_maps; a layout neither row- nor column-major is rejected.
"""

from __future__ import annotations

import functools
import itertools
import subprocess

import numpy as np
import pytest

from lasscc.config import alignment_error, alignment_rules
from lasscc.interp import run_check
from lasscc.driver import PASS_NAMES, run_passes
from lasscc.source import parse_mlir
from lit_zygote import lasscc_command  # tests/lit_zygote.py: the CLI through the suite's fork server

STRIDES = {"row": "", "col": ", strided<[1, ?]>"}
CONFIGS = {
    "tb128-s3": "threadblock = [128, 128, 32], warp = [64, 64, 32], instruction = [16, 8, 16], stages = 3",
    "tb64-s2": "threadblock = [64, 64, 32], warp = [32, 32, 32], instruction = [16, 8, 16], stages = 2",
}
EXEC_PASSES = ["lasscc-tile-threadblock", "lasscc-pipeline", "lasscc-warp-mma", "lasscc-swizzle-smem"]


def gemm_src(la: str, lb: str, ld: str, dt: str, cfg: str, beta: float = 0.0, d_dt: str = "f32") -> str:
    ta, tb, td = (f"memref<?x?x{t}{STRIDES[lay]}>" for t, lay in ((dt, la), (dt, lb), (d_dt, ld)))
    return f"""func.func @gemm(%a: {ta}, %b: {tb}, %d: {td}) {{
  lass.gemm {{alpha = 1.5 : f32, beta = {beta} : f32, config = {{{CONFIGS[cfg]}}}}}
      ins(%a, %b : {ta}, {tb}) outs(%d : {td})
  func.return
}}
"""


@functools.lru_cache(maxsize=None)
def compiled(la, lb, ld, dt, cfg, stage="lasscc-swizzle-smem", beta=0.0):
    """The module after `stage` (shared between tests: the executor only reads it)."""
    module = parse_mlir(gemm_src(la, lb, ld, dt, cfg, beta))
    if stage != "input":
        run_passes(module, PASS_NAMES[: PASS_NAMES.index(stage) + 1], "sm_80", "<test>")
    return module


def shape(la: str, lb: str, dt: str) -> tuple[int, int, int]:
    """Odd sizes where the layouts allow them (alignment_rules), small ones for bf16."""
    rules = alignment_rules(la, lb)
    odd = {"f16": (129, 33, 127), "bf16": (1, 7, 33)}[dt]
    even = {"f16": (136, 72, 40), "bf16": (8, 16, 24)}[dt]
    m, n, k = (o if rules[d] == 1 else e for d, o, e in zip("MNK", odd, even))
    assert alignment_error(m, n, k, la, lb) is None
    return m, n, k


LAYOUTS = list(itertools.product(["row", "col"], ["row", "col"], ["row", "col"]))


@pytest.mark.parametrize("cfg", list(CONFIGS))
@pytest.mark.parametrize("dt", ["f16", "bf16"])
@pytest.mark.parametrize("la,lb,ld", LAYOUTS, ids=[f"A{a}-B{b}-D{d}" for a, b, d in LAYOUTS])
def test_layout_matrix_swizzled_level(la, lb, ld, dt, cfg):
    m, n, k = shape(la, lb, dt)
    r = run_check(compiled(la, lb, ld, dt, cfg), m, n, k, seed=3, report_banks=True)
    assert r["level"] == 4
    assert r["ok"], (r["rel_err"], r["tolerance"])
    rep = r["bank_report"]
    assert rep, "expected a bank report"
    wavefronts = sum(row["wavefronts"] for row in rep)
    ideal = sum(row["ideal"] for row in rep)
    assert wavefronts == ideal, [row for row in rep if row["wavefronts"] != row["ideal"]]


@pytest.mark.parametrize("la,lb,cfg", [("col", "row", "tb128-s3"), ("col", "row", "tb64-s2"),
                                        ("col", "col", "tb64-s2"), ("row", "row", "tb64-s2")])
def test_each_pass_keeps_the_product(la, lb, cfg):
    """Before/after every executable pass on the same data (beta != 0, column-major D for NN)."""
    ld = "col" if (la, lb) == ("col", "row") else "row"
    m, n, k = shape(la, lb, "f16")
    results = {}
    module = parse_mlir(gemm_src(la, lb, ld, "f16", cfg, beta=0.5))
    for stage in ["input"] + EXEC_PASSES:
        if stage != "input":  # one pass at a time on the same module
            run_passes(module, [stage], "sm_80", "<test>")
        r = run_check(module, m, n, k, seed=5, alpha=1.5, beta=0.5, report_banks=False)
        assert r["ok"], (stage, r["rel_err"])
        results[stage] = np.array(r["d"], np.float32)
    for prev, stage in zip(["input"] + EXEC_PASSES, EXEC_PASSES):
        if stage in ("lasscc-pipeline", "lasscc-swizzle-smem"):  # data movement only: bit for bit
            assert np.array_equal(results[prev], results[stage]), stage
        else:  # re-associated K sums: float32 rounding
            np.testing.assert_allclose(results[stage], results[prev], rtol=1e-5, atol=1e-5, err_msg=stage)


def test_majorness_is_in_the_ir_of_every_level():
    src = {stage: str(compiled("col", "row", "row", "f16", "tb64-s2", stage)) for stage in EXEC_PASSES}
    assert "-> !lass_tb.tile<64x32xf16, mn>" in src["lasscc-tile-threadblock"]
    assert "!lass_pipe.ring<2x64x32xf16, mn>" in src["lasscc-pipeline"]
    assert "-> !lass_pipe.staged<64x32xf16, mn>" in src["lasscc-pipeline"]
    assert "lass_warp.load_frag_a %ring_a[" in src["lasscc-warp-mma"]
    assert ": !lass_pipe.ring<2x64x32xf16, mn>" in src["lasscc-warp-mma"]
    assert "lass_nv.ldmatrix_x4" in src["lasscc-swizzle-smem"]
    ld = [line for line in src["lasscc-swizzle-smem"].splitlines() if "ldmatrix_x4" in line]
    assert ld and all(line.rstrip().endswith(" trans") for line in ld)
    # TN: K-major everywhere, printed as before
    tn = str(compiled("row", "col", "row", "f16", "tb64-s2", "lasscc-swizzle-smem"))
    assert " trans" not in tn and ", mn>" not in tn
    # mixed (TT: A row-major, B row-major): only B is MN-major
    tt = str(compiled("row", "row", "row", "f16", "tb64-s2", "lasscc-pipeline"))
    assert "!lass_pipe.ring<2x64x32xf16>" in tt and "!lass_pipe.ring<2x64x32xf16, mn>" in tt


def test_alignment_rules():
    assert alignment_rules("row", "col") == {"M": 1, "N": 1, "K": 8}
    assert alignment_rules("col", "row") == {"M": 8, "N": 8, "K": 1}
    assert alignment_rules("col", "col") == {"M": 8, "N": 1, "K": 8}
    assert alignment_error(7, 7, 8, "row", "col") is None
    dim, msg = alignment_error(7, 16, 33, "col", "row")
    assert dim == "M" and msg == "expected a multiple of 8 (a column-major A is read along M in 16-byte accesses), got 7"
    assert alignment_error(8, 16, 33, "col", "row") is None


def _cli(*args, cwd=None):
    return subprocess.run([*lasscc_command(), *args], capture_output=True, text=True, cwd=cwd)


def test_run_rejects_a_misaligned_leading_dimension(tmp_path):
    """With explicit 16-byte accesses (--align 8,8) N = 63 of a row-major B is an error; without
    --align, `lasscc run` narrows B's accesses to what N allows (tests/unit/test_align.py)."""
    f = tmp_path / "nn.mlir"
    f.write_text(gemm_src("col", "row", "row", "f16", "tb64-s2"))
    p = _cli("run", str(f), "--target", "cpu", "--align", "8,8", "--m", "64", "--n", "63", "--k", "33")
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.strip().startswith(
        "option --n: expected a multiple of 8 (a row-major B is read along N in 16-byte accesses), got 63; "), p.stderr
    p = _cli("run", str(f), "--target", "cpu", "--m", "64", "--n", "63", "--k", "33")
    assert p.returncode == 0 and "PASS" in p.stdout, p.stderr
    assert "align = [8, 1]" in p.stderr
    p = _cli("run", str(f), "--target", "cpu", "--m", "64", "--n", "64", "--k", "33")
    assert p.returncode == 0, p.stderr
    assert "PASS" in p.stdout and "note" not in p.stderr


def test_api_checks_the_layout_rule_and_feeds_the_layouts():
    import lasscc
    from lasscc.api import LaunchError

    k = lasscc.compile(gemm_src("col", "row", "col", "f16", "tb64-s2"), align=(8, 8))
    assert (k.spec.a_layout, k.spec.b_layout, k.spec.d_layout) == ("col", "row", "col")
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (24, 33)).astype(np.float16)  # the user's M x K and K x N views
    b = rng.uniform(-1, 1, (33, 16)).astype(np.float16)
    d = np.zeros((24, 16), np.float32)
    k(a, b, d, target="cpu")
    ref = 1.5 * a.astype(np.float64) @ b.astype(np.float64)
    assert np.abs(d - ref).max() < 1e-4
    a_bf, b_bf = a, b
    with pytest.raises(LaunchError, match=r"N = 15: expected a multiple of 8 \(a row-major B is read along N"):
        k(a_bf, b_bf[:, :15], d[:, :15], target="cpu")


LINALG = """func.func @mm(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  linalg.matmul {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>,
                                  affine_map<(d0, d1, d2) -> (d0, d1)>]}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  return
}
"""


def test_linalg_matmul_with_transposed_operands():
    """A given K x M and B given N x K (indexing maps): A column-major, B column-major after import."""
    module = parse_mlir(LINALG)
    run_passes(module, ["lasscc-import-linalg"], "sm_80", "<test>")
    text = str(module)
    assert "%a: memref<?x?xf16, strided<[1, ?]>>, %b: memref<?x?xf16, strided<[1, ?]>>" in text
    run_passes(module, PASS_NAMES[1:PASS_NAMES.index("lasscc-swizzle-smem") + 1], "sm_80", "<test>")
    r = run_check(module, 16, 9, 24, seed=1, report_banks=False)
    assert r["ok"], r["rel_err"]


def test_other_layout_is_rejected(tmp_path):
    f = tmp_path / "bad.mlir"
    f.write_text(gemm_src("row", "col", "row", "f16", "tb64-s2").replace(
        "memref<?x?xf16, strided<[1, ?]>>", "memref<?x?xf16, strided<[2, ?]>>"))
    out = tmp_path / "out.ptx"
    p = _cli("compile", str(f), "-o", str(out))
    assert p.returncode == 2 and "Traceback" not in p.stderr and not out.exists()
    assert f"{f}:2:3: error: expected B row-major (identity layout) or column-major (strided<[1, ?]>), got " \
           "strided<[2, ?]>" in p.stderr


PTX_CASES = [  # (A, B, D layouts, dtype, config, arch)
    ("col", "row", "row", "f16", "threadblock = [128, 128, 32], warp = [64, 64, 32], stages = 3", "sm_80"),
    ("row", "row", "col", "f16", "threadblock = [64, 64, 32], warp = [32, 32, 32], stages = 3", "sm_90a"),
    ("col", "row", "col", "bf16",
     "threadblock = [128, 256, 32], warp = [64, 64, 32], stages = 4, prefetch = 1", "sm_90a"),
]


@pytest.mark.parametrize("la,lb,ld,dt,cfg,arch", PTX_CASES)
def test_kernel_assembles_without_spills(la, lb, ld, dt, cfg, arch):
    from lasscc.emit import ptxas_info
    from lasscc.driver import compile_module

    text = gemm_src(la, lb, ld, dt, "tb64-s2").replace(CONFIGS["tb64-s2"], cfg)
    res = compile_module(parse_mlir(text, "t.mlir"), arch=arch)
    assert "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16" in res.ptx
    info = ptxas_info(res.ptx, arch)
    if info is None:
        pytest.skip("ptxas not on PATH")
    assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0, info.line
    assert 0 < info.registers <= 255
