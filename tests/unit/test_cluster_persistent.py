"""Thread block clusters with the persistent cooperative kernel (`cluster` + `persistent = 1`,
lasscc.cluster, lasscc-warp-specialize's cluster tile loop).

1. Numerics on the CPU executor against float64 (random normal, D NaN-poisoned), after
   lasscc-warp-specialize and after lasscc-hopper-smem (multicast, remote releases): f16 / bf16,
   2x1 and 1x2, f32 D, f16 D with epilogue = "tma", a column-major D; every shape leaves a partial
   cluster at an edge, and 4 CTAs (2 clusters) walk more cluster tiles than they are.
2. The schedule: the tile loops walk cluster tiles from %clusterid.x in steps of the clusters; a
   tile claimed twice / by no CTA is a ScheduleError; a peer walking one tile fewer deadlocks.
3. The grid (whole clusters, at most the SMs); ptxas assembles 128x256x64 / 4 stages 2x1 with f16 D
   + epilogue "tma" and with f32 D: no spill, no wgmma serialization warning.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ModuleOp

from lasscc import cluster as CL
from lasscc import schedule as SCH
from lasscc.dialects import lass_cluster, lass_sched
from lasscc.driver import compile_module
from lasscc.emit import ptxas_info
from lasscc.interp import run_check
from lasscc.interp.errors import DeadlockError
from lasscc.interp.sched import ScheduleError
from lasscc.source import parse_mlir

from _wgmma_stages import passes_after, wgmma_gemm  # noqa: E402

PERSIST = ', schedule = "cooperative", persistent = 1'
TMA = ', epilogue = "tma"'
CTAS = 4  # two clusters of 2 on the CPU


def gemm(ab="f16", d="f32", tb=(128, 64, 64), stages=3, ld="row", cluster=(2, 1), extra="") -> str:
    return wgmma_gemm(ab, d, tb, stages, f"{PERSIST}, cluster = [{cluster[0]}, {cluster[1]}]{extra}", ld=ld)


@functools.lru_cache(maxsize=None)
def stages_of(text: str) -> dict[str, ModuleOp]:
    """The module after lasscc-warp-specialize ("ws") and after lasscc-hopper-smem ("phys")."""
    out = passes_after(text)
    return {"ws": out["lasscc-warp-specialize"], "phys": out["lasscc-hopper-smem"]}


CASES = [  # (id, gemm kwargs, (M, N, K)); the kernel's tiles (a column-major D swaps M and N) in a comment
    ("f16-2x1", dict(), (300, 200, 136)),  # 3 x 4 tiles: 2 x 4 = 8 cluster tiles (a partial one per column)
    ("bf16-1x2-colD", dict(ab="bf16", ld="col", cluster=(1, 2)), (136, 330, 200)),  # 3 x 3: 3 x 2 cluster tiles
    ("f16D-tma-2x1", dict(d="f16", extra=TMA), (300, 200, 136)),
    ("bf16D-tma-1x2", dict(ab="bf16", d="bf16", cluster=(1, 2), extra=TMA), (130, 330, 72)),  # 2 x 6: 2 x 3
    ("f16D-tma-colD-2x1", dict(d="f16", ld="col", extra=TMA), (200, 330, 136)),  # 3 x 4: 2 x 4
]


@pytest.mark.parametrize("cfg,shape", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_persistent_clustered_kernel_matches_float64(cfg, shape):
    mods = stages_of(gemm(**cfg))
    m, n, k = shape
    ds = []
    for level in ("ws", "phys"):
        r = run_check(mods[level], m, n, k, seed=5, alpha=1.5, report_banks=False, ctas=CTAS)
        assert r["ok"], (level, r["rel_err"], r["tolerance"])
        assert not np.isnan(np.asarray(r["d"], np.float64)).any()
        assert r["result"].grid == CTAS
        ds.append(np.asarray(r["d"]))
    np.testing.assert_array_equal(ds[0], ds[1])
    ops = [o.name for o in mods["phys"].walk()]
    assert "lass_cluster.tma_load_multicast" in ops and "lass_cluster.mbarrier_arrive_remote" in ops
    assert ops.count("lass_sched.claim") == 1 and ops.count("lass_cluster.sync") == 2


def _tile_loops(mod: ModuleOp) -> list[scf.ForOp]:
    loops = [o for o in mod.walk() if isinstance(o, scf.ForOp) and isinstance(o.lb.owner, lass_cluster.ClusterIdOp)]
    assert len(loops) == 2  # the producer's and the consumers'
    return loops


BUG = gemm()
BUG_SHAPE = (300, 200, 136)  # 8 cluster tiles = 16 tile numbers (claim_tile), 2 clusters


def _ws() -> ModuleOp:
    return stages_of(BUG)["ws"].clone()


def test_tile_loops_walk_cluster_tiles_by_the_clusters():
    for lp in _tile_loops(_ws()):
        assert lp.ub.name_hint == "cluster_tiles" and lp.step.name_hint == "clusters"
        div = lp.step.owner
        assert isinstance(div, arith.DivUIOp) and isinstance(div.lhs.owner, lass_sched.CtaCountOp)
        assert div.rhs.owner.value.value.data == 2


def _insert_before(lp, ops):
    for o in ops:
        lp.parent_block().insert_op_before(o, lp)


def test_planted_two_clusters_take_one_cluster_tile():
    """Tile loops stepping by 1: cluster 0 walks every cluster tile, cluster 1 takes tile 1 again."""
    mod = _ws()
    for lp in _tile_loops(mod):
        one = arith.ConstantOp.from_int_and_width(1, 32)
        _insert_before(lp, [one])
        lp.operands[2] = one.result
    with pytest.raises(ScheduleError, match="block 2 takes tile 2, which block 0 took already"):
        run_check(mod, *BUG_SHAPE, seed=1, report_banks=False, ctas=CTAS)


def test_planted_skipped_cluster_tiles():
    """Tile loops stepping by twice the clusters: half the cluster tiles (both ranks') to no CTA."""
    mod = _ws()
    for lp in _tile_loops(mod):
        two = arith.ConstantOp.from_int_and_width(2, 32)
        step = arith.MuliOp(lp.step, two.result)
        _insert_before(lp, [two, step])
        lp.operands[2] = step.result
    with pytest.raises(ScheduleError, match=r"leaves tile\(s\) \[4, 5, 6, 7, 12, 13, 14, 15\] of 16 to no CTA"):
        run_check(mod, *BUG_SHAPE, seed=1, report_banks=False, ctas=CTAS)


def test_planted_peer_walking_one_tile_fewer_deadlocks():
    """Rank 1's loops end one step early (ub - rank x clusters): its peer's multicast of its last
    tile finds no partner load (the full barrier waits for the missing half of B)."""
    mod = stages_of(BUG)["phys"].clone()
    rank = next(o for o in mod.walk() if isinstance(o, lass_cluster.CtaRankOp)).result
    for lp in _tile_loops(mod):
        less = arith.MuliOp(rank, lp.step)
        ub = arith.SubiOp(lp.ub, less.result)
        _insert_before(lp, [less, ub])
        lp.operands[1] = ub.result
    with pytest.raises(DeadlockError, match="deadlock"):
        run_check(mod, *BUG_SHAPE, seed=1, report_banks=False, ctas=CTAS)


@pytest.mark.parametrize("sms,tiles,want", [(132, 2 * 64, 128), (132, 1024, 132), (133, 1024, 132), (5, 16, 4),
                                            (1, 16, 2), (None, 16, 16)])
def test_persistent_grid_is_whole_clusters(sms, tiles, want):
    assert SCH.launch_ctas(tiles, True, 1, sms, cluster=2) == want


def test_kernel_spec_grid_and_cluster_tiles():
    spec = compile_module(parse_mlir(BUG, "t.mlir"), arch="sm_90a").specs[0]
    assert spec.cluster_dims == (2, 1, 1) and spec.persistent
    assert spec.grid(8192, 8192, sms=132) == (132, 1, 1)  # 66 clusters (cuBLAS's coopA grid)
    assert spec.grid(300, 200, sms=132) == (16, 1, 1)  # every cluster tile its own cluster
    assert spec.grid(300, 200, sms=5) == (4, 1, 1)
    # cluster 1 of 2 walks cluster tiles 1, 3, 5, 7; rank r's tile of cluster tile c is number 2c + r
    assert SCH.cluster_tiles(1, 2, 16, 2) == [1, 3, 5, 7]
    assert [CL.claim_tile(c, 1, (2, 1)) for c in (1, 3)] == [3, 7]
    assert CL.cluster_tile(7, 3, 4, 8, (2, 1)) == CL.rank_tile(3, 1, 3, 4, 8, (2, 1))


@pytest.mark.parametrize("d,extra", [("f16", TMA), ("f32", "")], ids=["f16D-tma", "f32D"])
def test_128x256_persistent_cluster_assembles_without_spills(d, extra):
    res = compile_module(parse_mlir(gemm(d=d, tb=(128, 256, 64), stages=4, extra=extra), "t.mlir"), arch="sm_90a")
    info = ptxas_info(res.ptx, "sm_90a")  # raises on the wgmma serialization warnings (C7510/C7517/C7519)
    assert info is not None and info.spill_stores == 0 and info.spill_loads == 0, info
    for text in (".reqnctapercluster 2, 1, 1", ".multicast::cluster", "%nctaid.x", "%clusterid.x",
                 "mbarrier.arrive.shared::cluster.b64"):
        assert text in res.ptx, text
    print(f"{d} D{extra}: {info.line}")


def test_explain_shows_which_cluster_takes_which_tile():
    import lasscc.explain as ex

    text = ex.explain(parse_mlir(gemm(d="f16", tb=(128, 256, 64), stages=4, extra=TMA), "t.mlir"), "sm_90a",
                      "t.mlir", resources=False, grid=(5, 3), sms=5)
    assert "9 cluster tiles of 2 x 1 tiles, 2 clusters = 4 CTAs" in text
    assert "0    0        0     0, 2, 4, 6, 8  (0, 0), (4, 0), (2, 1), (0, 2), (4, 2)" in text
    assert "1    0        1     0, 2, 4, 6, 8  (1, 0), (5, 0)*, (3, 1), (1, 2), (5, 2)*" in text
    assert "3    1        1     1, 3, 5, 7     (3, 0), (1, 1), (5, 1)*, (3, 2)" in text
