"""The seeded randomized GEMM test (issue 12, lasscc.fuzz): element types x A/B/D layouts x input
form (lass.gemm, linalg.matmul) x tile config x odd sizes x alpha/beta on the CPU executor, every
element of D against float64.  A larger run for a developer: `python -m lasscc.fuzz --cases 400
--seed 7` (README, "Tests")."""

from __future__ import annotations

import numpy as np
import pytest

from lasscc import fuzz
from lasscc.config import GemmConfig
from lasscc.interp.check import reference_scale, run_check
from lasscc.interp.mma_math import elementwise_bound
from lasscc.source import parse_mlir

# Two shards of CASES cases each (one xdist worker runs both under README's `--dist loadfile`): about
# 1 min of CPU per shard (measured 2026-11-24: this file, both shards of 60 included, 96 s of user
# CPU; the passes, compiled once per distinct input IR, are most of it, the executor ~0.3 s a run).
SEED = 2026
SHARDS = 2
CASES = 60


@pytest.mark.parametrize("shard", range(SHARDS))
def test_random_gemm(shard):
    s = fuzz.run_fuzz(CASES, SEED + shard)
    print(s.line())
    assert len(s.cases) == CASES
    assert s.count("ok") > CASES // 2, s.line()  # most drawn cases are valid and run
    assert not s.failures, "\n".join(fuzz.report(c) for c in s.failures) + "\n" + s.line()


def _level0(ab="f16", d="f32", acc=""):
    text = (f"func.func @g(%a: memref<?x?x{ab}>, %b: memref<?x?x{ab}, strided<[1, ?]>>, %d: memref<?x?x{d}>) {{\n"
            f"  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32{acc}}} ins(%a, %b : memref<?x?x{ab}>, "
            f"memref<?x?x{ab}, strided<[1, ?]>>) outs(%d : memref<?x?x{d}>)\n  func.return\n}}\n")
    return parse_mlir(text, "t.mlir")


@pytest.mark.parametrize("ab,d,acc", [("f16", "f32", ""), ("f16", "f16", ", acc = f16"), ("f32", "f32", ""),
                                      ("bf16", "bf16", "")])
def test_elementwise_bound_holds_and_catches_one_bad_element(ab, d, acc):
    """The executor's own result (lass.gemm at level 0: the reference numerics) is within the
    bound everywhere; moving one element by a few bounds is caught."""
    m, n, k = 33, 17, 129
    r = run_check(_level0(ab, d, acc), m, n, k, seed=3)
    a, b, c = r["inputs"]
    bound = elementwise_bound(np.asarray(r["d"]).dtype, ab, "f16" if acc else "f32", k,
                              reference_scale(a, b, c, 1.0, 0.0), r["ref"])
    from lasscc.interp.bf16 import as_f64

    err = np.abs(as_f64(r["d"]) - r["ref"])
    assert (err <= bound).all()
    assert (bound < 0.05 * reference_scale(a, b, c, 1.0, 0.0)).all()  # tight enough to see a wrong term
    bad = as_f64(r["d"]).copy()
    bad[5, 7] = r["ref"][5, 7] + 3 * bound[5, 7] + 1e-30
    assert (np.abs(bad - r["ref"]) > bound).sum() == 1


def test_i8_exact_bound_is_zero():
    assert not elementwise_bound(np.int32, "i8", "i32", 64, np.ones((2, 2)), np.ones((2, 2))).any()


def test_draws_cover_the_matrix():
    """Over a run's kernels the generator reaches every type, both forms, every layout, an
    explicit align, a helper function, the default tiling, and K not a multiple of 8."""
    kernels = [fuzz.draw_kernel(SEED, i) for i in range(300)]
    cases = [c for kn in kernels for c in fuzz.draw_cases(kn, SEED)]
    assert {(kn.ab, kn.acc, kn.d) for kn in kernels} == set(fuzz.TYPES)
    assert {kn.form for kn in kernels} == set(fuzz.FORMS)
    assert {kn.layouts for kn in kernels} == {(a, b, d) for a in ("row", "col") for b in ("row", "col")
                                              for d in ("row", "col")}
    assert any(kn.align for kn in kernels) and any(kn.extra_function for kn in kernels)
    assert any(kn.config is None for kn in kernels)
    assert {1, 7, 33, 129} <= {c.k for c in cases} and any(c.beta not in (0.0, 1.0) for c in cases)
    # each kernel is the same whatever the run's length (rng per index)
    assert fuzz.draw_kernel(SEED, 17) == kernels[17]


def test_every_candidate_config_is_valid():
    for ab in ("f16", "bf16", "f32", "i8"):
        cands = fuzz.config_candidates(ab)
        assert len(cands) > 20
        for c in cands:
            c.validate(ab_type=ab)
            assert c.threads <= 128


def _kernel(**kw):
    base = dict(seed=0, index=0, form="lass.gemm", ab="f16", acc="f32", d="f32", layouts=("row", "col", "row"),
                config=GemmConfig((32, 32, 32), (32, 32, 32), (16, 8, 16), 3), align=None, extra_function=False)
    return fuzz.Kernel(**{**base, **kw})


def test_outcomes_rejected_crashed_wrong(tmp_path, monkeypatch):
    """An explicit align the sizes break is `rejected` with the option named; an exception in the
    executor is `crashed`; a result off by one element is `wrong`."""
    runner = fuzz.Runner(tmp_path)
    bad_align = fuzz.Case(_kernel(align=(8, 8)), 16, 16, 33, 1.0, 0.0, 1)
    assert runner.run(bad_align).outcome == "rejected"
    assert bad_align.detail.startswith("option --k: expected a multiple of 8")

    case = fuzz.Case(_kernel(), 7, 9, 33, 1.0, 0.5, 1)
    assert runner.run(case).outcome == "ok", case.detail
    real = run_check

    def off_by_one(*a, **kw):
        r = real(*a, **kw)
        r["d"][2, 3] += 0.01
        return r

    monkeypatch.setattr("lasscc.interp.check.run_check", off_by_one)
    assert runner.run(fuzz.Case(_kernel(), 7, 9, 33, 1.0, 0.5, 1)).outcome == "wrong"

    def boom(*a, **kw):
        raise IndexError("executor bug")

    monkeypatch.setattr("lasscc.interp.check.run_check", boom)
    crashed = runner.run(fuzz.Case(_kernel(), 7, 9, 33, 1.0, 0.5, 1))
    assert crashed.outcome == "crashed" and "IndexError: executor bug" in crashed.detail
    assert runner.kernels_compiled == 1  # one input IR, compiled once


def test_cli_summary_line(capsys):
    assert fuzz.main(["--cases", "2", "--seed", "3", "--only", "5"]) in (0, 1)
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1].startswith("4 cases: ")
