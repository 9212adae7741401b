"""Cluster split-K (`split_k_mode = "cluster"`, lasscc.cluster_splitk): the K partitions of a tile
are the CTAs of one thread block cluster, reduced through distributed shared memory.

1. Numerics on the CPU executor against float64 (random normal, D NaN-poisoned): odd M / N edges,
   K not a multiple of BK (uneven partitions up to the per-thread level), beta != 0, S = 2 / 4,
   an i8 accumulator (exact); lass_tb, the per-thread level after lasscc-warpgroup-mma, and after
   lasscc-hopper-smem where a cluster's partitions have equal k-tile counts (its executor runs the
   cluster's wgmma groups in lockstep).  A fused epilogue: tests/unit/test_epilogue_split.py.
2. Planted bugs the executor reports: a DSMEM read of a peer's partial before the peer's barrier
   arrival (a race), a CTA exiting while its peers may still read its partial.
3. Config rules (located error, exit 2 from the CLI); KernelSpec's grid / cluster dims; no workspace.
4. ptxas assembles the kernels (no spill), with .reqnctapercluster, mapa, ld.shared::cluster.
5. `lasscc explain` shows the cluster reduction in its split-K section; `lasscc tune` times it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from lasscc import cluster_splitk as CS
from lasscc.config import GemmConfig
from lasscc.diagnostics import LassError
from lasscc.dialects import lass_cluster
from lasscc.driver import compile_module
from lasscc.emit import ptxas_info
from lasscc.interp import run_check
from lasscc.interp.cluster import ClusterError
from lasscc.interp.errors import RaceError
from lasscc.source import parse_mlir

sys.path.insert(0, str(Path(__file__).parent))
from test_wgmma_passes import gemm  # noqa: E402
from test_cluster import PASSES, stages_of  # noqa: E402 -- the same five passes, cached
from lit_zygote import lasscc_command  # tests/lit_zygote.py: the CLI through the suite's fork server

PHYSICAL = len(PASSES)


def split(s: int) -> str:
    return f', split_k = {s}, split_k_mode = "cluster"'


CASES = [  # (gemm kwargs, (M, N, K), levels): M / N edges; K of whole partitions or not
    (dict(tb=(64, 64, 64), stages=3, beta=0.5, extra=split(2)), (70, 100, 264), (1, 3, 4)),  # 5 k-tiles: 3 + 2
    (dict(tb=(64, 64, 64), stages=3, beta=0.5, extra=split(2)), (70, 100, 200), (1, 3, PHYSICAL)),
    (dict(tb=(128, 64, 64), stages=2, extra=split(4)), (130, 66, 512), (1, 3, PHYSICAL)),  # 8 k-tiles: 2 each
    (dict(tb=(64, 128, 64), stages=4, beta=-1.0, ld="col", extra=split(4)), (33, 129, 1096), (1, 3)),  # 18 k-tiles: 5 + 5 + 4 + 4
]


@pytest.mark.parametrize("cfg,shape,levels", CASES, ids=["s2-uneven", "s2-physical", "s4-128x64", "s4-colD"])
def test_cluster_split_matches_float64(cfg, shape, levels):
    mods = stages_of(gemm(**cfg))
    m, n, k = shape
    for level in levels:
        r = run_check(mods[level], m, n, k, seed=11, alpha=1.5, beta=cfg.get("beta", 0.0), report_banks=False)
        assert r["ok"], (level, r["rel_err"], r["tolerance"])
        assert not np.isnan(np.asarray(r["d"], np.float64)).any()
    ops = [o.name for o in mods[3].walk()]
    assert ops.count("lass_cluster.sync") == 2 and "lass_cluster.ld_shared_remote" in ops
    assert "lass_tb.cluster_reduce" in [o.name for o in mods[1].walk()]


def test_i8_cluster_split_is_exact():
    mods = stages_of(gemm(ab="i8", d="i32", tb=(64, 64, 128), stages=3, extra=split(2)))
    r = run_check(mods[3], 65, 70, 384, seed=4, report_banks=False)
    assert r["ok"] and r["rel_err"] == 0


# ---- planted bugs --------------------------------------------------------------------------------

def _per_thread():
    return stages_of(gemm(tb=(64, 64, 64), stages=3, extra=split(2)))[3].clone()


def _drop_sync(mod, which: int):
    syncs = [o for o in mod.walk() if isinstance(o, lass_cluster.SyncOp)]
    assert len(syncs) == 2
    syncs[which].detach()
    syncs[which].erase()
    return mod


def test_unmodified_base_runs():
    assert run_check(_per_thread(), 64, 128, 256, seed=2, report_banks=False)["ok"]


def test_planted_read_before_the_peers_barrier_is_a_race():
    with pytest.raises(RaceError, match="lass_cluster.ld_shared_remote.*no barrier between|no barrier between"):
        run_check(_drop_sync(_per_thread(), 0), 64, 128, 256, seed=2, report_banks=False)


def test_planted_exit_while_peers_read_is_reported():
    with pytest.raises(ClusterError, match="reads the shared memory of block .* may exit"):
        run_check(_drop_sync(_per_thread(), 1), 64, 128, 256, seed=2, report_banks=False)


# ---- config, launch ------------------------------------------------------------------------------

@pytest.mark.parametrize("kw,msg", [
    (dict(mma="mma.sync", split_k=2), "needs mma = \"wgmma\""),
    (dict(split_k=16), "from 2 to 8"),
    (dict(split_k=1), "from 2 to 8"),
    (dict(split_k=2, threadblock=(64, 16, 64), warp=(64, 16, 64), instruction=(64, 16, 16)), "multiple of 16 \\* split_k"),
    (dict(split_k=2, schedule="cooperative"), "schedule = \"default\""),
    (dict(split_k=2, cluster=(2, 1)), "cluster = \\[1, 1\\]"),
    (dict(split_k=4, threadblock=(128, 256, 64), warp=(64, 256, 64), instruction=(64, 256, 16), stages=2),
     "must fit the rings"),
])
def test_rejected_configs_name_the_rule(kw, msg):
    base = dict(mma="wgmma", threadblock=(64, 64, 64), warp=(64, 64, 64), instruction=(64, 64, 16), stages=3,
                split_k_mode="cluster")
    base.update(kw)
    with pytest.raises(LassError, match=msg):
        GemmConfig(**base).validate("sm_90a", "t.mlir:1:2: error: config")


def test_cli_rejects_a_bad_cluster_split_with_exit_2(tmp_path):
    src = tmp_path / "g.mlir"
    src.write_text(gemm(tb=(64, 64, 64), stages=3, extra=split(16)))
    out = tmp_path / "g.ptx"
    p = subprocess.run([*lasscc_command(), "compile", str(src), "--arch", "sm_90a", "-o", str(out)],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "Traceback" not in p.stderr and not out.exists()
    assert "g.mlir:" in p.stderr and "from 2 to 8" in p.stderr


def test_kernel_spec_grid_cluster_dims_and_no_workspace():
    res = compile_module(parse_mlir(gemm(tb=(128, 128, 64), stages=4, extra=split(4)), "t.mlir"), arch="sm_90a")
    spec = res.specs[0]
    assert spec.grid(128, 4096) == (128, 1, 1) and spec.cluster_dims == (4, 1, 1)
    assert "W" not in spec.params and spec.workspace_bytes(128, 4096) == 0 and spec.reduce_name is None
    info = ptxas_info(res.ptx, "sm_90a")
    assert info.spill_stores == 0 and info.spill_loads == 0
    for text in (".explicitcluster", ".reqnctapercluster 4, 1, 1", "mapa.shared::cluster", "ld.shared::cluster.v4",
                 "barrier.cluster.arrive.release", "barrier.cluster.wait.acquire", "%cluster_ctarank", "%clusterid.x"):
        assert text in res.ptx, text


def test_windows_and_owners():
    assert [CS.col_window(r, 128, 4) for r in range(4)] == [(0, 32), (32, 64), (64, 96), (96, 128)]
    assert {CS.owner(c, 128, 4) for c in range(128)} == {0, 1, 2, 3}
    assert CS.partial_byte(3, 5, 128) == (3 * 128 + 5) * 16


def test_explain_shows_the_cluster_reduction(tmp_path):
    src = tmp_path / "g.mlir"
    src.write_text(gemm(tb=(128, 128, 64), stages=4, extra=split(4)))
    p = subprocess.run([*lasscc_command(), "explain", str(src), "--arch", "sm_90a",
                        "--m", "128", "--n", "4096", "--k", "4096"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "Cluster split-K" in p.stdout and "cluster dims (4, 1, 1)" in p.stdout and "DSMEM" in p.stdout


def test_tune_split_round_includes_cluster_split():
    from lasscc.heuristics import wgmma_base
    from lasscc.tune import config_label, decomposition_candidates

    got = decomposition_candidates(wgmma_base("f16", "sm_90a"), 128, 4096, 4096, 132)
    cl = [c for c in got if c.split_k_mode == "cluster"]
    assert cl and all(2 <= c.split_k <= 8 and CS.config_error(c) is None for c in cl)
    assert "split 2 cluster" in config_label(cl[0])


def test_batched_cluster_split_matches_float64():
    mods = stages_of(gemm(tb=(64, 64, 64), stages=3, batched=True, beta=0.5, extra=split(2)))
    for level in (1, 3, PHYSICAL):
        r = run_check(mods[level], 72, 104, 256, seed=3, alpha=1.5, beta=0.5, batch=3, report_banks=False)
        assert r["ok"], (level, r["rel_err"])
