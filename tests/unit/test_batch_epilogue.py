"""Batched fused epilogues from linalg (issue 18): linalg.batch_matmul followed by elementwise
linalg.generic / named ops on its 3-d D, folded by lasscc-fuse-epilogue into the batched
lass.gemm's epilogue (extras shared by every batch or one per batch), on the CPU executor against
float64 before the fold (level 0), after it and at the per-thread stage; NaN-poisoned D where C is
not read."""

from __future__ import annotations

import math

import numpy as np
import pytest

from lasscc.driver import PASS_NAMES, run_passes
from lasscc.interp import execute_kernel
from lasscc.source import parse_mlir

# D[b] += A[b] . B[b]; y = gelu_erf(D * scale[b, i] + bias[j]) + res[b, i, j]
BATCH_INPUT = """
func.func @bmlp(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16, strided<[?, 1, ?]>>, %d: memref<?x?x?xf32>,
                %scale: memref<?x?xf32>, %bias: memref<?xf32>, %res: memref<?x?x?xf32>) {
  %rs2 = arith.constant 0.70710678 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  linalg.batch_matmul ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16, strided<[?, 1, ?]>>)
      outs(%d : memref<?x?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scale, %bias : memref<?x?xf32>, memref<?xf32>) outs(%d : memref<?x?x?xf32>) {
  ^bb0(%s: f32, %bj: f32, %x: f32):
    %0 = arith.mulf %x, %s : f32
    %1 = arith.addf %0, %bj : f32
    %2 = arith.mulf %1, %rs2 : f32
    %3 = math.erf %2 : f32
    %4 = arith.addf %3, %one : f32
    %5 = arith.mulf %1, %half : f32
    %6 = arith.mulf %5, %4 : f32
    linalg.yield %6 : f32
  }
  linalg.add ins(%d, %res : memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%d : memref<?x?x?xf32>)
  return
}
"""
STAGES = {"unfused": ["lasscc-import-linalg"], "fused": ["lasscc-import-linalg", "lasscc-fuse-epilogue"],
          "per-thread": PASS_NAMES[:PASS_NAMES.index("lasscc-swizzle-smem") + 1]}


@pytest.fixture(scope="module")
def modules():
    out = {}
    for what, names in STAGES.items():
        module = parse_mlir(BATCH_INPUT, "<bmlp>")
        run_passes(module, names)
        out[what] = module
    return out


def _erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


@pytest.mark.parametrize("what", list(STAGES))
def test_batch_matmul_epilogue_matches_float64(modules, what):
    batch, m, n, k = 3, 37, 45, 24
    rng = np.random.default_rng(11)
    a = rng.standard_normal((batch, m, k)).astype(np.float16)
    b_nk = rng.standard_normal((batch, n, k)).astype(np.float16)  # column-major B: N x K per batch
    scale = rng.standard_normal((batch, m)).astype(np.float32)
    bias = rng.standard_normal(n).astype(np.float32)
    res, c = (rng.standard_normal((batch, m, n)).astype(np.float32) for _ in range(2))
    v = (a.astype(np.float64) @ np.swapaxes(b_nk.astype(np.float64), 1, 2) + c) * scale[:, :, None] + bias
    ref = 0.5 * v * (1 + _erf(v * 0.70710678)) + res
    module = modules[what]
    text = str(module)
    assert ("linalg.generic" in text) == (what == "unfused"), what
    d = c.copy()  # linalg.batch_matmul accumulates: C is D on entry (beta = 1)
    execute_kernel(module, m, n, k, a, b_nk, d, batch=batch, extras=[scale, bias, res])
    assert np.isfinite(d).all()
    assert np.abs(d - ref).max() <= 2e-5 * np.abs(ref).max(), what


def test_fused_batch_gemm_has_per_batch_and_shared_extras(modules):
    text = str(modules["fused"])
    assert ("epilogue(%scale [m], %bias [n], %res [mn] : memref<?x?xf32>, memref<?xf32>, memref<?x?x?xf32>)"
            in text), text
    assert "lass.gelu" in text and "math.erf" not in text and "linalg." not in text  # GELU's erf form: one op
