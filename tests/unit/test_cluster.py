"""Thread block clusters with TMA multicast (config `cluster`, lasscc.cluster, lass_cluster).

1. Numerics on the CPU executor against float64 (random normal, D NaN-poisoned): 2x1 and 1x2
   clusters, f16 / bf16, K- and MN-major operands, a column-major D, sizes whose tiles leave a
   partial cluster at the edge, the default and the cooperative schedule, batched; the lass_tb level (clustered raster) and the physical level
   (multicast, remote releases, cluster barriers) each checked.
2. Planted bugs the executor reports: no cluster barrier before the exit, none after the barriers'
   init, a ctaMask outside the cluster, a ctaMask missing a CTA, a full barrier expecting other
   bytes than the multicasts deliver, a missing remote release, an empty barrier counting one
   CTA's consumers only.
3. The grid and the raster: every tile taken by exactly one CTA, the CTAs of a cluster on one tile
   column (2x1) / row (1x2); KernelSpec's grid and cluster dims.
4. Config rules with a located error; ptxas assembles the clustered kernels (no spill, no wgmma
   serialization), with .reqnctapercluster, multicast and mapa in the PTX.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32

from lasscc import cluster as CL
from lasscc.diagnostics import LassError
from lasscc.dialects import lass_cluster, lass_nv
from lasscc.driver import compile_module, make_pass, run_pass
from lasscc.emit import ptxas_info
from lasscc.interp import InterpError, run_check
from lasscc.interp.cluster import ClusterError
from lasscc.interp.errors import AsyncHazardError, DeadlockError, MbarrierError
from lasscc.source import parse_mlir

sys.path.insert(0, str(Path(__file__).parent))
from test_wgmma_passes import gemm  # noqa: E402

PASSES = ["lasscc-tile-threadblock", "lasscc-pipeline", "lasscc-warpgroup-mma", "lasscc-warp-specialize",
          "lasscc-hopper-smem"]


@functools.lru_cache(maxsize=None)
def stages_of(text: str) -> tuple[ModuleOp, ...]:
    mod = parse_mlir(text, "t.mlir")
    out = [mod.clone()]
    for name in PASSES:
        run_pass(mod, make_pass(name, "sm_90a"), "t.mlir")
        out.append(mod.clone())
    return tuple(out)


CASES = [  # (config, (M, N, K)); every case leaves a partial cluster at an edge
    (dict(ab="f16", tb=(64, 64, 64), stages=3, extra=", cluster = [2, 1]"), (150, 130, 136)),
    (dict(ab="bf16", d="bf16", tb=(64, 64, 64), stages=2, extra=", cluster = [1, 2]"), (72, 150, 72)),
    (dict(ab="f16", tb=(128, 64, 64), stages=3, ld="col", beta=0.5, extra=", cluster = [1, 2]"), (200, 130, 64)),
    (dict(ab="bf16", tb=(64, 128, 64), stages=2, la="col", lb="row", extra=", cluster = [2, 1]"), (136, 104, 72)),
    (dict(ab="f16", tb=(128, 64, 64), stages=3, extra=", schedule = \"cooperative\", cluster = [2, 1]"),
     (200, 150, 328)),
    (dict(ab="bf16", tb=(128, 64, 64), stages=2, ld="col", extra=", schedule = \"cooperative\", cluster = [1, 2]"),
     (136, 200, 200)),
]


@pytest.mark.parametrize("cfg,shape", CASES, ids=["f16-2x1", "bf16-1x2", "f16-1x2-colD", "bf16-2x1-mnmajor",
                                                  "f16-2x1-cooperative", "bf16-1x2-colD-cooperative"])
def test_clustered_kernel_matches_float64(cfg, shape):
    mods = stages_of(gemm(**cfg))
    m, n, k = shape
    for level in (1, len(PASSES)):  # the clustered raster (lass_tb), the multicast (after lasscc-hopper-smem)
        r = run_check(mods[level], m, n, k, seed=5, alpha=1.5, beta=cfg.get("beta", 0.0), report_banks=False)
        assert r["ok"], (level, r["rel_err"], r["tolerance"])
        assert not np.isnan(np.asarray(r["d"], np.float64)).any()
    ops = [o.name for o in mods[-1].walk()]
    assert "lass_cluster.tma_load_multicast" in ops and "lass_cluster.mbarrier_arrive_remote" in ops
    assert ops.count("lass_cluster.sync") == 2


def test_batched_clustered_kernel_matches_float64():
    """A batched kernel's multicast loads are 3-d (the batch its outermost coordinate)."""
    mods = stages_of(gemm(ab="f16", tb=(64, 64, 64), stages=2, batched=True, extra=", cluster = [2, 1]"))
    r = run_check(mods[-1], 130, 72, 72, seed=4, alpha=1.5, report_banks=False, batch=3)
    assert r["ok"] and not np.isnan(np.asarray(r["d"], np.float64)).any()
    loads = [o for o in mods[-1].walk() if isinstance(o, lass_cluster.TmaLoadMulticastOp)]
    assert loads and all(len(o.coords) == 3 for o in loads)


# ---- planted bugs ---------------------------------------------------------------------------------
BUG = gemm(ab="f16", tb=(64, 64, 64), stages=3, extra=", cluster = [2, 1]")
BUG_SHAPE = (150, 130, 136)
MASK = 5  # the ctaMask operand of lass_cluster.tma_load_multicast (tmap, 2 coordinates, dst, bar, mask)


def _physical() -> ModuleOp:
    return stages_of(BUG)[-1].clone()


def _run(mod, k=BUG_SHAPE[2]):
    return run_check(mod, *BUG_SHAPE[:2], k, seed=2, report_banks=False)


def _drop(mod, cls, which=None):
    victims = [o for o in mod.walk() if isinstance(o, cls)]
    for o in (victims if which is None else [victims[which]]):
        o.detach()
        o.erase()
    return mod


def _set_operand(mod, cls, index, value_of, pred=lambda o: True):
    """Replace operand `index` of every `cls` op by a new constant value_of(old constant)."""
    n = 0
    for o in [o for o in mod.walk() if isinstance(o, cls) and pred(o)]:
        old = o.operands[index].owner.value.value.data
        c = arith.ConstantOp(IntegerAttr(value_of(old), i32))
        o.parent_block().insert_op_before(c, o)
        o.operands[index] = c.result
        n += 1
    assert n
    return mod


def test_unmodified_bug_base_runs():
    assert _run(_physical())["ok"]


def test_planted_exit_without_cluster_barrier():
    mod = _drop(_physical(), lass_cluster.SyncOp, which=-1)
    with pytest.raises(ClusterError, match="may exit while the write can still land"):
        _run(mod)


def test_planted_no_cluster_barrier_after_init():
    mod = _physical()
    sync = next(o for o in mod.walk() if isinstance(o, lass_cluster.SyncOp))
    sync.parent_block().insert_op_before(lass_nv.BarSyncOp(), sync)
    sync.detach()
    sync.erase()
    with pytest.raises(ClusterError, match="before any lass_cluster.sync"):
        _run(mod)


def test_planted_ctamask_outside_the_cluster():
    mod = _set_operand(_physical(), lass_cluster.TmaLoadMulticastOp, MASK, lambda m: 0b100)
    with pytest.raises(ClusterError, match="ctaMask 0x4"):
        _run(mod)


def test_planted_ctamask_missing_a_cta_deadlocks():
    mod = _set_operand(_physical(), lass_cluster.TmaLoadMulticastOp, MASK, lambda m: 0b01)
    with pytest.raises(DeadlockError, match="deadlock"):
        _run(mod)


HALF_B = 32 * 64 * 2  # bytes of one multicast half of the 64 x 64 f16 B tile


def test_planted_expect_tx_of_own_share_only():
    """Each CTA expects its A tile and only its own half of B: the phase completes before the peer's
    half lands, whose bytes the wgmma then reads while they are still being copied."""
    mod = _set_operand(_physical(), lass_nv.MbarrierArriveExpectTxOp, 1, lambda tx: tx - HALF_B)
    with pytest.raises(AsyncHazardError, match="tma_load_multicast.*is still copying into it"):
        _run(mod)


def test_planted_expect_tx_of_more_than_delivered_deadlocks():
    mod = _set_operand(_physical(), lass_nv.MbarrierArriveExpectTxOp, 1, lambda tx: tx + HALF_B)
    with pytest.raises(DeadlockError, match="tx-count of 4096 bytes"):
        _run(mod)


def test_planted_missing_remote_release_deadlocks():
    mod = _drop(_physical(), lass_cluster.MbarrierArriveRemoteOp)
    with pytest.raises(DeadlockError, match="4 of 8 arrivals pending"):
        _run(mod, k=512)  # more k-tiles than stages: the producers wait on released slots


def test_planted_empty_barrier_counting_one_cta():
    consumer_warps = 4  # one arrival per consumer warp (resources.empty_barrier_arrivals)
    mod = _set_operand(_physical(), lass_nv.MbarrierInitOp, 1, lambda c: consumer_warps,
                       pred=lambda o: o.operands[1].owner.value.value.data == 2 * consumer_warps)
    with pytest.raises(MbarrierError, match="too many arrivals"):
        _run(mod)


def test_cluster_ops_outside_a_cluster_are_refused():
    """The remote arrival names a rank outside the cluster."""
    mod = _physical()
    for o in [o for o in mod.walk() if isinstance(o, lass_cluster.MbarrierArriveRemoteOp)]:
        c = arith.ConstantOp(IntegerAttr(5, i32))
        o.parent_block().insert_op_before(c, o)
        o.operands[1] = c.result
    with pytest.raises(InterpError, match="cluster rank 5, outside its cluster of 2"):
        _run(mod)


# ---- grid and raster ------------------------------------------------------------------------------
@pytest.mark.parametrize("cluster", [(2, 1), (1, 2)])
@pytest.mark.parametrize("tiles", [(3, 5), (4, 4), (1, 7), (9, 2)])
def test_cluster_raster_covers_each_tile_once(cluster, tiles):
    tm, tn = tiles
    grid = CL.cluster_grid(tm, tn, cluster)
    assert grid % CL.size(cluster) == 0
    pid = np.arange(grid)
    m, n = CL.cluster_tile(pid, tm, tn, 3, cluster)
    inside = (m < tm) & (n < tn)
    assert sorted(zip(m[inside].tolist(), n[inside].tolist())) == [(i, j) for i in range(tm) for j in range(tn)]
    pairs = np.stack([m, n], 1).reshape(-1, 2, 2)  # the two CTAs of each cluster
    shared = 1 if cluster == (2, 1) else 0  # 2x1: same tile column (share B); 1x2: same tile row (share A)
    assert (pairs[:, 0, shared] == pairs[:, 1, shared]).all()
    assert (pairs[:, 0, 1 - shared] + 1 == pairs[:, 1, 1 - shared]).all()


def test_kernel_spec_grid_and_cluster_dims():
    spec = compile_module(parse_mlir(BUG, "t.mlir"), arch="sm_90a").specs[0]
    assert spec.cluster == (2, 1) and spec.cluster_dims == (2, 1, 1)
    assert spec.grid(150, 130) == (4 * 3, 1, 1)  # 3 tile rows rounded up to 4, 3 tile columns
    assert dict((t[0], t[1]) for t in spec.tensor_maps) == {"A": 64, "B": 32}  # B's box: one multicast half


# ---- config rules and ptxas -------------------------------------------------------------------------
@pytest.mark.parametrize("extra,arch,msg", [
    (", cluster = [2, 2]", "sm_90a", r"cluster = \[2, 2\]: expected one of"),
    (", cluster = [2, 1], schedule = \"pingpong\"", "sm_90a", "schedule = \"pingpong\" is not supported"),
    (", cluster = [2, 1], split_k = 2", "sm_90a", "split-K / stream-K is not supported"),
    (", cluster = [2]", "sm_90a", "config key 'cluster': expected a list of 2 integers"),
])
def test_rejected_cluster_configs_name_the_place(extra, arch, msg):
    tb = (128, 64, 64)
    with pytest.raises(LassError, match=msg) as e:
        run_pass(parse_mlir(gemm(tb=tb, extra=extra), "t.mlir"), make_pass("lasscc-tile-threadblock", arch), "t.mlir")
    assert str(e.value).startswith("t.mlir:")


def test_cluster_needs_wgmma():
    text = gemm(tb=(128, 64, 64), extra=", cluster = [1, 2]").replace('mma = "wgmma", ', "")
    with pytest.raises(LassError, match="needs mma = \"wgmma\""):
        run_pass(parse_mlir(text, "t.mlir"), make_pass("lasscc-tile-threadblock", "sm_80"), "t.mlir")


def test_unsplittable_shared_tile_is_rejected():
    with pytest.raises(LassError, match="cannot be cut into 2 multicast parts"):
        run_pass(parse_mlir(gemm(tb=(64, 8, 64), extra=", cluster = [2, 1]"), "t.mlir"),
                 make_pass("lasscc-tile-threadblock", "sm_90a"), "t.mlir")


@pytest.mark.parametrize("ab,tb,stages,extra,ld", [
    ("f16", (128, 256, 64), 4, "cluster = [2, 1]", "row"),  # the default tile, the one timed on the GPU
    ("bf16", (128, 128, 64), 4, "cluster = [1, 2], schedule = \"cooperative\"", "col"),
    ("f16", (64, 64, 64), 3, "cluster = [2, 1]", "batched"),  # 3-d multicast
])
def test_clustered_kernel_assembles_without_spills(ab, tb, stages, extra, ld):
    batched = ld == "batched"
    text = gemm(ab=ab, tb=tb, stages=stages, ld="row" if batched else ld, batched=batched, extra=", " + extra)
    res = compile_module(parse_mlir(text, "t.mlir"), arch="sm_90a")
    info = ptxas_info(res.ptx, "sm_90a")  # raises on the wgmma serialization warnings
    assert info.spill_stores == 0 and info.spill_loads == 0
    for text in (".explicitcluster", ".reqnctapercluster 2, 1, 1", ".multicast::cluster", "mapa.shared::cluster",
                 "mbarrier.arrive.shared::cluster.b64", "barrier.cluster.arrive.release",
                 "barrier.cluster.wait.acquire", "%cluster_ctarank"):
        assert text in res.ptx, text


# ---- explain ---------------------------------------------------------------------------------------
def test_explain_shows_the_cluster_and_the_multicast():
    import lasscc.explain as ex

    text = ex.explain(parse_mlir(gemm(tb=(128, 256, 64), stages=4, extra=", cluster = [2, 1]"), "t.mlir"), "sm_90a",
                      "t.mlir", resources=False)
    assert "Thread block cluster (cluster = [2, 1]" in text
    # B's 256 x 64 f16 tile is 32768 B; each CTA loads half: 16384 B saved of A 16384 + B 32768 per k-tile
    assert "32768 instead of 49152 (16384 B of B saved, 33% of its TMA loads)" in text
    assert "empty[s]  16" in text  # the consumer warps of both CTAs
    one = ex.explain(parse_mlir(gemm(tb=(128, 256, 64), stages=4), "t.mlir"), "sm_90a", "t.mlir", resources=False)
    assert "Thread block cluster" not in one and "empty[s]  8 " in one


def test_tune_tries_clusters_on_its_fastest_configs():
    from lasscc.config import GemmConfig
    from lasscc.resources import wgmma_defaults
    from lasscc.tune import cluster_candidates, config_label

    tb = (128, 256, 64)
    cfg = GemmConfig(threadblock=tb, stages=4, mma="wgmma", **wgmma_defaults(tb, 16))
    got = cluster_candidates(cfg, "sm_90a")
    assert [c.cluster for c in got] == [(2, 1), (1, 2)]
    assert config_label(got[0]) == "wgmma 128x256x64 / s4 / cluster 2x1"
    narrow = GemmConfig(threadblock=(64, 8, 64), stages=4, mma="wgmma", **wgmma_defaults((64, 8, 64), 16))
    assert [c.cluster for c in cluster_candidates(narrow, "sm_90a")] == [(1, 2)]  # 8 B rows cannot be halved


def test_api_launches_with_the_cluster_dims(monkeypatch):
    """lasscc.api's GPU launch (no GPU: a fake lasscc.runtime.cuda records it) takes KernelSpec's
    cluster dims and its grid rounded up to whole clusters; tmap_B is built with the half box."""
    import types

    from lasscc.api import Kernel
    from lasscc.driver import kernel_specs
    from lasscc.runtime import tma

    spec = kernel_specs(stages_of(BUG)[-1])[0]
    kern = Kernel(types.SimpleNamespace(stages={}, llvm_ir="", ptx="", specs=[spec]), "sm_90a")
    monkeypatch.setattr(tma, "encode", lambda s, address, what="": ("tmap", s, address))
    launched = []

    class Buf:
        def __init__(self, nbytes):
            self.ptr, self.nbytes = 4096, nbytes

        from_array = classmethod(lambda cls, a: cls(a.nbytes))
        alloc = classmethod(lambda cls, nbytes: cls(nbytes))

        def download(self, shape, dtype):
            return np.zeros(shape, dtype)

        def free(self):
            pass

    cuda = types.SimpleNamespace(
        context=lambda: None, DeviceBuffer=Buf, load_module=lambda ptx: "module", get_function=lambda mod, name: name,
        set_dynamic_smem=lambda f, s: None, synchronize=lambda: None,
        launch=lambda f, grid, block, smem, args, cluster=None: launched.append((grid, cluster, list(args))))
    m, n, k = BUG_SHAPE
    A, B, D, *_ = kern.check_operands(np.ones((m, k), np.float16), np.asfortranarray(np.ones((k, n), np.float16)),
                                      np.zeros((m, n), np.float32))
    kern._run_gpu(cuda, A, B, D, m, n, k, 1.0, 0.0, True)
    (grid, cluster, args), = launched
    assert grid == (12, 1, 1) and cluster == (2, 1, 1)
    tmap_b = dict(zip(spec.params, args))["tmap_B"][1]
    assert (tmap_b.box_rows, tmap_b.box_cols) == (32, 64)


def test_runtime_launch_uses_cuLaunchKernelEx_with_the_cluster_dimension(monkeypatch):
    """runtime.cuda.launch(cluster=) builds CUlaunchConfig + one CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
    attribute (a fake cuda.bindings.driver records the call; the GPU run is scripts/hopper_check.py --cluster)."""
    import types

    from lasscc.runtime import cuda

    calls = []

    class Obj(types.SimpleNamespace):
        pass

    class Attr:
        def __init__(self):
            self.id, self.value = None, Obj(clusterDim=Obj(x=0, y=0, z=0))

    fake = types.SimpleNamespace(
        CUresult=types.SimpleNamespace(CUDA_SUCCESS=0), CUlaunchAttribute=Attr, CUlaunchConfig=Obj,
        CUlaunchAttributeID=types.SimpleNamespace(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION="CLUSTER_DIM"),
        CUstream=lambda s: ("stream", s),
        cuLaunchKernelEx=lambda cfg, f, params, extra: calls.append((cfg, f, params, extra)) or (0,))
    monkeypatch.setattr(cuda, "_cu", fake)
    cuda.launch("fn", (12, 1, 1), (256, 1, 1), 4096, [np.int32(1)], cluster=(2, 1, 1))
    (cfg, f, params, extra), = calls
    assert f == "fn" and extra == 0 and isinstance(params, int)
    assert (cfg.gridDimX, cfg.gridDimY, cfg.gridDimZ, cfg.blockDimX, cfg.sharedMemBytes) == (12, 1, 1, 256, 4096)
    (attr,) = cfg.attrs
    assert cfg.numAttrs == 1 and attr.id == "CLUSTER_DIM"
    assert (attr.value.clusterDim.x, attr.value.clusterDim.y, attr.value.clusterDim.z) == (2, 1, 1)
