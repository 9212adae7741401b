"""lasscc.gemm(..., batched=True) with a fused epilogue (issue 18): 3-d batch-first A / B / D, the
bias shared by every batch, a residual per batch; the CPU executor against float64 (NaN-poisoned D),
row- and column-major D, odd sizes; the kernels assembled by ptxas; bad calls named."""

from __future__ import annotations

import numpy as np
import pytest

import lasscc
from lasscc.api import LaunchError
from lasscc.epilogue_api import ACTIVATIONS

SMALL = dict(threadblock=(64, 64, 32), warp=(32, 32, 32), stages=3, arch="sm_80", align=(8, 8))
KERNELS = {"row_f16d": dict(d_dtype="f16", bias="n", activation="gelu", residual=True),
           "col_f32d_scale_m": dict(d_dtype="f32", d_layout="col", scale="m", bias="n", activation="silu")}


@pytest.fixture(scope="module")
def kernels():
    return {name: lasscc.gemm(a_dtype="f16", batched=True, **kw, **SMALL) for name, kw in KERNELS.items()}


@pytest.mark.parametrize("name", list(KERNELS))
def test_batched_epilogue_matches_float64(kernels, name):
    kw = KERNELS[name]
    k = kernels[name]
    batch, m, n, kk = 3, 40, 72, 24  # odd tiles: 40 x 72 is one and a partial block
    rng = np.random.default_rng(7)
    a = rng.standard_normal((batch, m, kk)).astype(np.float16)
    b = rng.standard_normal((batch, kk, n)).astype(np.float16)
    bias = rng.standard_normal(n).astype(np.float32)
    extras = {"bias": bias}
    v = a.astype(np.float64) @ b.astype(np.float64)
    if kw.get("scale"):
        extras["scale"] = rng.standard_normal(m).astype(np.float32)
        v = v * extras["scale"][:, None]
    ref = ACTIVATIONS[kw["activation"]].ref(v + bias)
    if kw.get("residual"):
        extras["residual"] = rng.standard_normal((batch, m, n)).astype(np.float32)
        ref = ref + extras["residual"]
    dt = np.float16 if kw["d_dtype"] == "f16" else np.float32
    d = np.full((batch, m, n), np.nan, dt)
    out = k(a, b, d, target="cpu", **extras)
    assert out is d and np.isfinite(d).all()
    err = np.linalg.norm(d.astype(np.float64) - ref) / np.linalg.norm(ref)
    assert err <= (1e-3 if dt == np.float16 else 1e-5), f"{name}: rel_err {err:.2e}"
    for i in range(batch):  # each batch its own product (not batch 0's repeated)
        assert np.linalg.norm(d[i].astype(np.float64) - ref[i]) / np.linalg.norm(ref[i]) <= 1e-3


@pytest.mark.parametrize("name", list(KERNELS))
def test_batched_kernels_assemble_without_spills(kernels, name):
    from lasscc.emit import ptxas_info

    k = kernels[name]
    assert k.spec.batched and "memref<?x?x?x" in k.ir("input")
    info = ptxas_info(k.ptx, "sm_80")
    if info is None:
        pytest.skip("ptxas is not on PATH")
    assert info.spill_stores == 0 and info.spill_loads == 0, info.line


def test_batched_call_errors(kernels):
    k = kernels["row_f16d"]
    a = np.zeros((2, 8, 16), np.float16)
    b = np.zeros((2, 16, 8), np.float16)
    d = np.zeros((2, 8, 8), np.float16)
    bias, res = np.zeros(8, np.float32), np.zeros((2, 8, 8), np.float32)
    with pytest.raises(LaunchError, match=r"a: expected a 3-d array \(batch first\)"):
        k(a[0], b, d, bias=bias, residual=res, target="cpu")
    with pytest.raises(LaunchError, match="d: expected batch 2"):
        k(a, b, d[:1], bias=bias, residual=res, target="cpu")
    with pytest.raises(LaunchError, match=r"residual: expected a numpy array of shape \(2, 8, 8\)"):
        k(a, b, d, bias=bias, residual=res[0], target="cpu")
    with pytest.raises(LaunchError, match="bias: kernel 'gemm' has a fused bias"):
        k(a, b, d, residual=res, target="cpu")
    with pytest.raises(LaunchError, match="scale: kernel 'gemm' has no fused scale"):
        k(a, b, d, bias=bias, residual=res, scale=bias, target="cpu")


def test_batched_plain_gemm_beta():
    """Without an epilogue: D[i] = alpha A[i].B[i] + beta C[i] (C = d on entry)."""
    k = lasscc.gemm(a_dtype="f16", d_dtype="f32", batched=True, alpha=0.5, beta=0.25, **SMALL)
    rng = np.random.default_rng(8)
    a = rng.standard_normal((2, 33, 16)).astype(np.float16)
    b = rng.standard_normal((2, 16, 40)).astype(np.float16)
    c = rng.standard_normal((2, 33, 40)).astype(np.float32)
    d = c.copy()
    k(a, b, d, target="cpu")
    ref = 0.5 * (a.astype(np.float64) @ b.astype(np.float64)) + 0.25 * c
    assert np.abs(d - ref).max() <= 1e-5 * np.abs(ref).max()
