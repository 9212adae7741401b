"""Batched GEMM launchers: 3-d batch-first operands (examples/gemm_batched.mlir), grid z = batch.

* CPU executor: run_check after every pass (stages 2 and 3, odd M and N, beta 0 and != 0, batch 3,
  row-major and column-major 3-d D); batched kernels take arrays with a leading batch dimension;
  a non-batched kernel refuses batch > 1; `lasscc run --target cpu --batch 3 --check`.
* GPU runner: run_gemm(..., batch=3) on a GPU (`gpu` marker; skipped with driver_status's reason).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from lasscc.interp import KernelArgumentError, execute_kernel, run_check
from lasscc.interp.check import make_inputs, reference, rel_error
from lasscc.driver import PASS_NAMES, run_passes
from lasscc.runtime import cuda
from lasscc.source import parse_mlir
from lit_zygote import lasscc_command  # tests/lit_zygote.py: the CLI through the suite's fork server

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "gemm_batched.mlir"
_REASON = cuda.driver_status()

GEMM = """func.func @gemm_b(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16, strided<[?, 1, ?]>>, %d: memref<?x?x?xf32{dl}>) {{
  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {{threadblock = [64, 64, 32], warp = [32, 32, 32], instruction = [16, 8, 16], stages = {s}}}}}
      ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16, strided<[?, 1, ?]>>) outs(%d : memref<?x?x?xf32{dl}>)
  func.return
}}
"""
COL = ", strided<[?, 1, ?]>"
EXEC_STAGES = ["input", "lasscc-tile-threadblock", "lasscc-pipeline", "lasscc-warp-mma", "lasscc-swizzle-smem"]


def _module(stage: str, stages: int = 3, col: bool = False):
    mod = parse_mlir(GEMM.format(s=stages, dl=COL if col else ""))
    if stage != "input":
        run_passes(mod, PASS_NAMES[: PASS_NAMES.index(stage) + 1])
    return mod


@pytest.mark.parametrize("col", [False, True], ids=["row-d", "col-d"])
@pytest.mark.parametrize("stages", [2, 3])
@pytest.mark.parametrize("stage", EXEC_STAGES)
@pytest.mark.parametrize("m,n,k,beta", [(72, 40, 64, 0.0), (65, 97, 32, 0.5)])
def test_run_check_every_pass(stage, stages, col, m, n, k, beta):
    r = run_check(_module(stage, stages, col), m, n, k, seed=1, alpha=1.5, beta=beta, batch=3, report_banks=False)
    assert r["ok"], r["rel_err"]
    assert r["d"].shape == (3, m, n)
    assert r["d_layout"] == ("col" if col else "row")


def test_batches_differ_and_each_is_its_own_gemm():
    """Every batch gets its own product (a kernel ignoring the batch would repeat batch 0)."""
    mod = _module("lasscc-swizzle-smem")
    m, n, k = 40, 72, 32
    a, b, c, d = make_inputs(m, n, k, 3, 0.0, batch=3)
    execute_kernel(mod, m, n, k, a, b, d, 1.0, 0.0, batch=3)
    for z in range(3):
        assert rel_error(d[z], reference(a[z], b[z], None, 1.0, 0.0)) < 1e-5
    assert not np.allclose(d[0], d[1])


def test_batch_one_is_3d_and_sizes_are_checked():
    mod = _module("lasscc-tile-threadblock")
    r = run_check(mod, 64, 64, 32, batch=1, report_banks=False)
    assert r["ok"] and r["d"].shape == (1, 64, 64)
    a, b, c, d = make_inputs(64, 64, 32, 0, 0.0, batch=2)
    with pytest.raises(KernelArgumentError, match="elements"):
        execute_kernel(mod, 64, 64, 32, a, b, d, 1.0, 0.0, batch=3)


def test_non_batched_kernel_refuses_batch():
    mod = parse_mlir((ROOT / "examples" / "gemm.mlir").read_text())
    with pytest.raises(KernelArgumentError, match="batch"):
        run_check(mod, 64, 64, 32, batch=2)


def test_block_id_z_and_batch_view_are_executed():
    text = str(_module("lasscc-warp-mma"))
    assert 'lass_nv.block_id z' in text and "lass_tb.batch_view" in text
    assert "lass_tb.batch_index" in str(_module("lasscc-pipeline"))


def _cli(*extra):
    return subprocess.run([*lasscc_command(), "run", *extra], cwd=ROOT, capture_output=True, text=True)


def test_cli_cpu_batch_check():
    p = _cli(str(EXAMPLE), "--target", "cpu", "--m", "72", "--n", "40", "--k", "40", "--batch", "3", "--check")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "PASS" in p.stdout and "batch=3" in p.stdout


def test_cli_rejects_batch_for_non_batched_kernel():
    p = _cli(str(ROOT / "examples" / "gemm.mlir"), "--target", "cpu", "--m", "64", "--n", "64", "--k", "32",
             "--batch", "2", "--check")
    assert p.returncode != 0
    assert "option --batch:" in p.stderr


@pytest.mark.gpu
@pytest.mark.skipif(_REASON is not None, reason=f"needs a GPU: {_REASON}")
@pytest.mark.parametrize("beta", [0.0, 0.5])
def test_gpu_run_gemm_batched(beta):
    from lasscc.driver import compile_module
    from lasscc.runtime.gemm_runner import run_gemm

    res = compile_module(parse_mlir(EXAMPLE.read_text()))
    spec = res.specs[0]
    assert spec.batched
    r = run_gemm(res.ptx, spec, 200, 136, 64, alpha=1.0, beta=beta, check=True, bench=True, iters=5, warmup=1,
                 seed=0, batch=3)
    assert r["ok"], r["rel_err"]
    assert r["grid"][2] == 3 and r["batch"] == 3
