"""Serial split-K (lasscc.splitk, reference 002): config, the partition formula, the CPU executor's
semaphore / workspace / happens-before semantics with permuted CTA orders, numerics of every
executable pass against float64, planted synchronisation bugs, and ptxas on the emitted kernels.

Kernels are small (a 32 x 32 threadblock, one warp) and compiled once per (type, split, form):
each pass is applied to one parsed module, cloned after each (`stage_modules`); the PTX tests
compile the swizzle-smem stage's text, which restarts the pipeline at lower-to-llvm.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from lasscc.config import GemmConfig, KernelSpec
from lasscc.diagnostics import LassError
from lasscc.dialects import lass_nv, lass_tb
from lasscc.interp import RaceError, run_check
from lasscc.interp.check import reference_scale
from lasscc.interp.mma_math import elementwise_bound
from lasscc.interp.sync import DeadlockError, launch_order
from lasscc.driver import compile_module, make_pass, run_pass
from lasscc.source import parse_mlir
from lasscc.splitk import empty_partitions_note, parse_split_k, partition_range, partition_tiles, workspace_bytes

EXEC_PASSES = ["lasscc-tile-threadblock", "lasscc-pipeline", "lasscc-warp-mma", "lasscc-swizzle-smem"]
# A/B type -> (MLIR A/B type, D type, BK: 64-byte K-major rows)
TYPES = {"f16": ("f16", "f32", 32), "bf16": ("bf16", "bf16", 32), "tf32": ("f32", "f32", 16), "i8": ("i8", "i32", 64)}
ACC = {"f16": "f32", "bf16": "f32", "tf32": "f32", "i8": "i32"}


def gemm_text(dt: str, split: int, batched: bool = False, d_col: bool = False, stages: int = 3,
              tile: tuple[int, int] = (32, 32), warp: tuple[int, int] = (32, 32), mode: str = "serial") -> str:
    ab, d, bk = TYPES[dt]
    dims = "?x?x?" if batched else "?x?"
    a_t = f"memref<{dims}x{ab}>"
    b_t = f"memref<{dims}x{ab}, strided<[{'?, ' if batched else ''}1, ?]>>"
    d_t = f"memref<{dims}x{d}, strided<[{'?, ' if batched else ''}1, ?]>>" if d_col else f"memref<{dims}x{d}>"
    cfg = (f"threadblock = [{tile[0]}, {tile[1]}, {bk}], warp = [{warp[0]}, {warp[1]}, {bk}], stages = {stages}, "
           f"split_k = {split}" + (f', split_k_mode = "{mode}"' if mode != "serial" else ""))
    return (f"func.func @gemm(%a: {a_t}, %b: {b_t}, %d: {d_t}) {{\n"
            f"  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32, config = {{{cfg}}}}}\n"
            f"      ins(%a, %b : {a_t}, {b_t}) outs(%d : {d_t})\n  func.return\n}}\n")


@functools.lru_cache(maxsize=None)
def stage_modules(dt: str, split: int, batched: bool = False, d_col: bool = False, stages: int = 3,
                  mode: str = "serial") -> dict:
    """{pass name: module after it}: the passes applied one at a time to one module, cloned after each."""
    module = parse_mlir(gemm_text(dt, split, batched, d_col, stages, mode=mode), f"<{dt}-s{split}>")
    out = {}
    for name in EXEC_PASSES:
        run_pass(module, make_pass(name, "sm_80"))
        out[name] = module.clone()
    return out


def check(dt: str, split: int, stage: str, m: int, n: int, k: int, alpha: float, beta: float, seed: int,
          order: str = "forward", ctas: int | None = None, **kw) -> dict:
    """run_check of one stage; every element of D within the split-aware float64 bound (`ctas`:
    a stream-K kernel's persistent grid, test_streamk)."""
    r = run_check(stage_modules(dt, split, **kw)[stage], m, n, k, seed=seed, alpha=alpha, beta=beta,
                  report_banks=False, order=order, batch=kw.get("batched") and 2 or 1,
                  **({"ctas": ctas} if ctas is not None else {}))
    a, b, c = r["inputs"]
    d = np.asarray(r["d"], np.float64) if dt != "bf16" else _bf16(r["d"])
    bound = elementwise_bound(np.asarray(r["d"]).dtype, "f32" if dt == "tf32" else dt, ACC[dt], k,
                              reference_scale(a, b, c, alpha, beta), r["ref"], alpha, beta,
                              split if ctas is None else ctas)  # stream-K: at most `ctas` segments a tile
    err = np.abs(d - r["ref"])
    assert np.isfinite(d).all(), f"{stage}: unwritten (NaN-poisoned) elements of D"
    assert (err <= bound).all(), f"{stage}: max excess {np.max(err - bound):.3g} at {np.unravel_index(np.argmax(err - bound), err.shape)}"
    ws = r["result"].workspace
    assert (ws is None) == (split == 1 and not GemmConfig(split_k_mode=kw.get("mode", "serial")).is_streamk)
    if GemmConfig(split_k_mode=kw.get("mode", "serial")).is_streamk:  # the flags after the partial slots
        from lasscc import streamk

        assert not ws[streamk.flag_word(0, ctas or streamk.CPU_CTAS, (32, 32)):].any(), "the finisher resets each flag"
    elif kw.get("mode", "serial") != "parallel":
        assert ws is None or not ws.any(), "the last partition of every tile resets its semaphore to 0"
    return r


def _bf16(x):
    from lasscc.interp.bf16 import bf16_to_f32

    return bf16_to_f32(np.asarray(x)).astype(np.float64)


# ---- config and formulas ------------------------------------------------------------------------

def test_partition_formula_covers_k_in_whole_tiles():
    for tiles in range(0, 23):
        for split in range(1, 9):
            parts = [partition_tiles(p, tiles, split) for p in range(split)]
            assert parts[0][0] == 0 and parts[-1][1] == tiles
            assert all(parts[i][1] == parts[i + 1][0] for i in range(split - 1))
            sizes = [e - b for b, e in parts]
            assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)
    assert partition_range(2, 100, 32, 3) == (96, 100)  # the last range clipped to K
    assert partition_range(3, 40, 32, 4) == (40, 40)  # past the 2 k-tiles: empty


def test_config_and_options_validate_split_k():
    assert GemmConfig(split_k=4).as_dict()["split_k"] == 4 and "split_k" not in GemmConfig().as_dict()
    for bad in (0, -1, 65536, True, 2.5):
        with pytest.raises(LassError, match="expected split_k an integer from 1 to 65535"):
            GemmConfig(split_k=bad).validate()
    for bad in ("0", "x", "-3", "70000"):
        with pytest.raises(LassError, match="^option --split-k: expected split_k"):
            parse_split_k(bad)
    assert parse_split_k("3") == 3
    assert empty_partitions_note(4, 64, 32) is not None and empty_partitions_note(2, 64, 32) is None
    with pytest.raises(ValueError, match="forward, reverse or shuffle:SEED"):
        launch_order(3, "sideways")
    assert sorted(launch_order(10, "shuffle:5")) == list(range(10))


def test_config_error_is_located():
    text = gemm_text("f16", 3).replace("split_k = 3", "split_k = 0")
    with pytest.raises(LassError, match=r"^<t>:2:3: error: config: expected split_k an integer"):
        compile_module(parse_mlir(text, "<t>"))


def test_spec_grid_and_workspace():
    spec = KernelSpec("k", 128, 0, 64, 64, 8, split_k=3, batched=True,
                      params=("A", "B", "D", "M", "N", "K", "alpha", "beta", "W"))
    assert spec.grid(100, 130, 5) == (2 * 3, 3, 5)
    assert spec.workspace_bytes(100, 130, 5) == workspace_bytes(3, 6, 5) == 4 * 6 * 5
    with pytest.raises(LassError, match="needs a zeroed workspace of at least 24 bytes"):
        spec.launch_args(1, 2, 3, 100, 130, 64, 1.0, 0.0)
    assert spec.launch_args(1, 2, 3, 100, 130, 64, 1.0, 0.0, 9)[-1] == 9


# ---- numerics: every executable pass, every type, S = 1..4 ---------------------------------------
# (M, N, K): ragged tiles and a partial last k-tile; K short of the split (empty partitions)
SHAPES = {"odd": (37, 45, 304), "short": (33, 17, 64)}
# S = 1 is the unsplit kernel the rest of the suite covers in depth: once here (f16)
NUMERIC = [("f16", s) for s in (1, 2, 3, 4)] + [(dt, s) for dt in ("bf16", "tf32", "i8") for s in (2, 3)] + [("i8", 4)]


@pytest.mark.parametrize("dt,split", NUMERIC, ids=[f"{d}-S{s}" for d, s in NUMERIC])
def test_split_k_numerics_every_pass(dt, split):
    """Every executable pass's output for S = 3 (the threadblock and physical levels otherwise),
    beta != 0; the physical level also with beta = 0 (NaN-poisoned D) on a K with fewer k-tiles
    than partitions, in a shuffled CTA order, and in reverse order, which must give the same D
    bit for bit: the semaphore fixes the order of the partial epilogues."""
    m, n, k = SHAPES["odd"]
    alpha = 1.0 if dt == "i8" else 0.75
    stages = EXEC_PASSES if split == 3 else ["lasscc-tile-threadblock", "lasscc-swizzle-smem"]
    for stage in stages:
        r = check(dt, split, stage, m, n, k, alpha, -0.5, seed=split)
    rev = check(dt, split, stages[-1], m, n, k, alpha, -0.5, seed=split, order="reverse")
    assert np.array_equal(np.asarray(r["d"]), np.asarray(rev["d"])), "D depends on the CTA order"
    m2, n2, k2 = SHAPES["short"]
    check(dt, split, stages[-1], m2, n2, k2, alpha, 0.0, seed=10 + split, order="shuffle:1")


def test_batched_and_column_major_d_shuffled():
    """Batched (grid z) split kernels keep one semaphore per tile and batch; a column-major D
    (the swapped kernel) takes the same path."""
    for kw in ({"batched": True}, {"d_col": True}):
        for stage in ("lasscc-tile-threadblock", "lasscc-swizzle-smem"):
            check("f16", 3, stage, 45, 37, 200, 0.5, 1.5, seed=3, order="shuffle:7", **kw)


def test_i32_d_stays_exact_across_partitions():
    """alpha = 1, beta = 0: the later partitions add the i32 accumulator to D exactly."""
    r = run_check(stage_modules("i8", 4)["lasscc-swizzle-smem"], 33, 40, 1024, seed=5, alpha=1.0, beta=0.0,
                  report_banks=False)
    assert r["rel_err"] == 0.0


def test_workspace_reused_across_launches():
    """The last partition resets each semaphore: a second launch on the same workspace works."""
    from lasscc.interp import execute_kernel
    from lasscc.interp.check import make_inputs

    mod = stage_modules("f16", 2)["lasscc-swizzle-smem"]
    a, b, _, d = make_inputs(40, 40, 128, 1, 0.0)
    ws = np.zeros(workspace_bytes(2, 4) // 4, np.int32)
    outs = []
    for _ in range(2):
        d[...] = np.nan
        execute_kernel(mod, 40, 40, 128, a, b, d, 1.0, 0.0, workspace=ws, order="reverse")
        outs.append(d.copy())
        assert not ws.any()
    assert np.array_equal(outs[0], outs[1])


# ---- planted bugs ---------------------------------------------------------------------------------

def _planted(stage: str, bug: str):
    mod = stage_modules("f16", 3)[stage].clone()
    ops = list(mod.walk())
    if bug == "no-wait":  # the wait removed: a partition adds to D before its predecessor's stores are visible
        w = next(o for o in ops if isinstance(o, (lass_tb.SemaphoreWaitOp, lass_nv.SpinAcquireOp)))
        w.detach()
        w.erase()
    elif bug == "no-barrier":  # thread 0 acquires, the others read D without the bar.sync after it
        w = next(o for o in ops if isinstance(o, lass_nv.SpinAcquireOp))
        bar = w.parent_op().next_op
        assert isinstance(bar, lass_nv.BarSyncOp)
        bar.detach()
        bar.erase()
    elif bug == "no-increment":  # the release hands the turn to the same partition: nobody follows
        rel = next(o for o in ops if isinstance(o, lass_nv.StReleaseOp))
        sel = rel.value.owner
        rel.operands = [rel.sem, rel.offset, sel.operands[2].owner.lhs]
    return mod


@pytest.mark.parametrize("stage,bug,error", [
    ("lasscc-tile-threadblock", "no-wait", RaceError),
    ("lasscc-swizzle-smem", "no-wait", RaceError),
    ("lasscc-swizzle-smem", "no-barrier", RaceError),
    ("lasscc-swizzle-smem", "no-increment", DeadlockError),
])
def test_planted_bug_is_caught_in_every_order(stage, bug, error):
    mod = _planted(stage, bug)
    for order in ("forward", "reverse", "shuffle:3"):
        with pytest.raises(error) as e:
            run_check(mod, 37, 45, 304, seed=1, alpha=0.75, beta=0.5, report_banks=False, order=order)
        msg = str(e.value)
        if error is RaceError:  # names both ops and both CTAs
            assert "(partition " in msg and msg.count("'lass_") >= 2 and "no release / acquire" in msg
        else:
            assert "waits for W[" in msg and "lass_nv.spin_acquire" in msg


# ---- ptxas: every kernel form assembles without spills -----------------------------------------
# the stage modules the numeric tests compiled (each form assembled for both targets)
PTX_FORMS = [("f16", 3, False, False, "sm_80"), ("bf16", 2, False, False, "sm_90a"), ("tf32", 3, False, False, "sm_80"),
             ("i8", 3, False, False, "sm_90a"), ("f16", 3, True, False, "sm_90a"), ("f16", 3, False, True, "sm_80")]


@pytest.mark.parametrize("dt,split,batched,d_col,arch", PTX_FORMS,
                         ids=[f"{f[0]}-S{f[1]}{'-batched' if f[2] else ''}{'-dcol' if f[3] else ''}" for f in PTX_FORMS])
def test_split_kernels_assemble_without_spills(dt, split, batched, d_col, arch):
    from lasscc.emit import ptxas_info

    text = str(stage_modules(dt, split, batched, d_col)["lasscc-swizzle-smem"])
    res = compile_module(parse_mlir(text, "<stage>"), arch=arch, keep_stages=False)
    ptx = res.ptx
    assert "ld.acquire.gpu.global.b32" in ptx and "st.release.gpu.global.b32" in ptx and "%ctaid.y" in ptx
    spec = res.specs[0]
    assert spec.split_k == split and spec.params[-1] == "W"
    for target in ("sm_80", "sm_90a"):
        info = ptxas_info(ptx.replace(f".target {arch}", f".target {target}"), target)
        if info is None:
            pytest.skip("ptxas not on PATH")
        assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0, info.line


def test_tune_searches_split_counts_only_for_small_grids():
    from lasscc.tune import SPLIT_MIN_KTILES, SPLIT_WAVES, config_label, split_candidates

    cfg = GemmConfig()  # 128 x 128 x 32
    # 1024 x 1024 x 16384 on 132 SMs: 64 tiles, 512 k-tiles: split up to two waves
    assert split_candidates(cfg, 1024, 1024, 16384, 132) == [2, 3, 4]
    assert split_candidates(cfg, 16, 4096, 4096, 132) == [2, 3, 4, 6, 8]
    assert split_candidates(cfg, 8192, 8192, 8192, 132) == []  # 4096 tiles fill the GPU
    for s in split_candidates(cfg, 128, 128, 256, 132):
        assert 256 // 32 // s >= SPLIT_MIN_KTILES and s <= SPLIT_WAVES * 132
    assert config_label(GemmConfig(split_k=4)).endswith("/ split 4")


def test_explain_shows_the_decomposition_and_workspace():
    from pathlib import Path

    from lasscc.explain import explain

    path = Path(__file__).resolve().parents[2] / "examples" / "gemm_splitk.mlir"
    text = explain(parse_mlir(path.read_text(), str(path)), stage="threadblock", grid=(8, 8), k=16384)
    assert "split_k = 4, K = 16384: 512 k-tiles of BK = 32" in text
    assert "[384, 512)  [12288, 16384)  (0..63, 3)" in text and "workspace: 256 bytes" in text
    short = explain(parse_mlir(path.read_text(), str(path)), stage="threadblock", grid=(2, 2), k=64)
    assert "note: split_k = 4 exceeds the 2 k-tiles of K = 64" in short and "(0..3, 3): no K, epilogue only" in short


# ---- parallel split-K: partial sums to the workspace, then the reduction kernel -------------------
PARALLEL = [("f16", 3), ("bf16", 2), ("tf32", 4), ("i8", 3)]


@pytest.mark.parametrize("dt,split", PARALLEL, ids=[f"{d}-S{s}" for d, s in PARALLEL])
def test_parallel_split_k_numerics(dt, split):
    """Every executable pass (the reduction kernel runs after the GEMM grid), beta != 0 and a
    NaN-poisoned D with more partitions than k-tiles; the partial sums are the raw accumulators."""
    m, n, k = SHAPES["odd"]
    alpha = 1.0 if dt == "i8" else 0.75
    for stage in EXEC_PASSES:
        r = check(dt, split, stage, m, n, k, alpha, -0.5, seed=split, mode="parallel")
    ws = r["result"].workspace
    assert ws.size == split * m * n and ws.dtype == (np.int32 if dt == "i8" else np.float32)
    m2, n2, k2 = SHAPES["short"]
    check(dt, split, "lasscc-swizzle-smem", m2, n2, k2, alpha, 0.0, seed=20 + split, order="reverse", mode="parallel")


def test_parallel_batched_and_column_major_d():
    for kw in ({"batched": True}, {"d_col": True}):
        check("f16", 3, "lasscc-swizzle-smem", 45, 37, 200, 0.5, 1.5, seed=4, order="shuffle:2", mode="parallel", **kw)


def test_parallel_i32_d_exact():
    r = run_check(stage_modules("i8", 3, mode="parallel")["lasscc-swizzle-smem"], 33, 40, 1024, seed=5, alpha=1.0,
                  beta=0.0, report_banks=False)
    assert r["rel_err"] == 0.0


def test_parallel_kernels_assemble_without_spills():
    """Two kernel entries (the GEMM writing partials, the reduction), both assembled for both targets."""
    from lasscc.emit import ptxas_info

    for dt, batched in (("f16", True), ("i8", False)):
        text = str(stage_modules(dt, 3, batched, mode="parallel")["lasscc-swizzle-smem"])
        res = compile_module(parse_mlir(text, "<stage>"), arch="sm_80", keep_stages=False)
        (spec,) = res.specs
        assert spec.reduce_name == "gemm_splitk_reduce" and spec.split_k_mode == "parallel"
        assert ".entry gemm(" in res.ptx and ".entry gemm_splitk_reduce(" in res.ptx
        assert spec.reduce_grid(100, 70, 2) == (-(-7000 // spec.threads), 1, 2 if batched else 1)
        for target in ("sm_80", "sm_90a"):
            info = ptxas_info(res.ptx.replace(".target sm_80", f".target {target}"), target)
            if info is None:
                pytest.skip("ptxas not on PATH")
            assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0, info.line


def test_parallel_mode_validation():
    with pytest.raises(LassError, match='expected split_k > 1 with split_k_mode = "parallel"'):
        GemmConfig(split_k=1, split_k_mode="parallel").validate()
    with pytest.raises(LassError, match='expected split_k_mode "serial", "parallel", "streamk", "streamk-dp", "streamk-tail", "cluster", got \'atomic\''):
        GemmConfig(split_k=2, split_k_mode="atomic").validate()
    assert workspace_bytes(3, 4, 2, "parallel", (100, 70)) == 4 * 3 * 2 * 100 * 70


def test_tuned_split_config_is_applied(tmp_path, monkeypatch):
    """A stored `lasscc tune` winner with a split (and the parallel mode, a string) reaches the kernel."""
    from argparse import Namespace

    from lasscc.cli import _apply_tuned
    from lasscc.config import KernelSpec
    from lasscc.dialects.lass import GemmOp, config_from_attr
    from lasscc.tune import store_tuned, tune_key

    monkeypatch.setenv("LASSCC_CACHE_DIR", str(tmp_path))
    spec = KernelSpec("gemm", 128, 0, 128, 128, 8)
    store_tuned(tune_key(64, 64, 4096, spec, "GPU"), GemmConfig(split_k=4, split_k_mode="parallel"), 1.0)
    import re

    text = re.sub(r", config = \{[^}]*\}", "", gemm_text("f16", 2))  # no config: the tuned one applies
    assert "config" not in text
    module = parse_mlir(text, "<t>")
    _apply_tuned(module, Namespace(threadblock=None, warp=None, stages=None, raster=None, prefetch=None,
                                   split_k=None, split_k_mode=None, file="<t>"), 64, 64, 4096, "GPU")
    (g,) = [o for o in module.walk() if isinstance(o, GemmOp)]
    cfg = config_from_attr(g.config)
    assert (cfg.split_k, cfg.split_k_mode) == (4, "parallel")


# ---- the GPU runner's launch sequence, on a fake driver that runs the CPU executor ----------------

class _FakeBuffer:
    """cuda.DeviceBuffer over host bytes."""

    def __init__(self, nbytes: int):
        self.mem = np.zeros(nbytes, np.uint8)
        self.ptr = id(self.mem)

    @classmethod
    def alloc(cls, nbytes):
        buf = cls(nbytes)
        buf.mem[:] = 0xFF  # not zeroed, as cuMemAlloc's memory is not
        return buf

    @classmethod
    def from_array(cls, arr):
        buf = cls(arr.nbytes)
        buf.upload(arr)
        return buf

    def upload(self, arr):
        self.mem[:] = np.ascontiguousarray(arr).view(np.uint8).reshape(-1)

    def download(self, shape, dtype):
        return self.mem.view(dtype).reshape(shape).copy()

    def free(self):
        pass


@pytest.mark.parametrize("mode", ["serial", "parallel"])
def test_runner_passes_the_workspace_and_launches_the_reduction(monkeypatch, mode):
    """run_gemm on a fake driver: the GEMM launch (grid y = the partitions, W last, a zeroed
    workspace of workspace_bytes) runs the swizzle-smem stage on the CPU executor; a parallel
    kernel's reduction is launched after it on reduce_grid with the same arguments."""
    from lasscc.interp import execute_kernel
    from lasscc.runtime import cuda, gemm_runner

    stages = stage_modules("f16", 3, mode=mode)
    res = compile_module(parse_mlir(str(stages["lasscc-swizzle-smem"]), "<stage>"), keep_stages=False)
    (spec,) = res.specs
    launches = []

    def launch(func, grid, block, smem, args):
        launches.append((func, tuple(grid), smem, args))
        if func != spec.name:
            return  # the reduction: execute_kernel ran it with the GEMM grid below
        A, B, D, M, N, K, alpha, beta, W = args
        assert not W.mem.any() and W.mem.size == spec.workspace_bytes(int(M), int(N))
        w = W.mem.view(np.float32 if mode == "parallel" else np.int32)
        d = D.mem.view(np.float32)
        execute_kernel(stages["lasscc-swizzle-smem"], int(M), int(N), int(K), A.mem.view(np.float16),
                       B.mem.view(np.float16), d, float(alpha), float(beta), workspace=w, order="reverse")

    for name, fn in {"context": lambda: None, "load_module": lambda ptx: "module", "get_function": lambda mod, n: n,
                     "set_dynamic_smem": lambda f, b: None, "synchronize": lambda: None, "unload_module": lambda m: None,
                     "func_attributes": lambda f: {"regs": 1, "local_bytes": 0, "static_smem_bytes": 0},
                     "pack_args": lambda a: a, "launch": launch, "DeviceBuffer": _FakeBuffer}.items():
        monkeypatch.setattr(cuda, name, fn)
    r = gemm_runner.run_gemm(res.ptx, spec, 70, 45, 200, alpha=0.5, beta=1.5, check=True, cublas=False, seed=3)
    assert r["ok"], r["rel_err"]
    assert launches[0][0] == "gemm" and launches[0][1] == (3 * 2, 3, 1)  # 70 x 45: 3 x 2 tiles of 32 x 32
    if mode == "parallel":
        assert [x[0] for x in launches] == ["gemm", "gemm_splitk_reduce"]
        assert launches[1][1] == spec.reduce_grid(70, 45) and launches[1][2] == 0 and launches[1][3] is launches[0][3]
    else:
        assert len(launches) == 1
    assert r["workspace_bytes"] == spec.workspace_bytes(70, 45)


def test_default_tile_i8_split_kernel_does_not_spill():
    """The fullest split kernel: i8 128 x 128 x 64 / 64 x 64 x 64 (the default tiling), serial: the
    exact i32 sum of the later partitions is a uniform branch (a per-element select spilled)."""
    from lasscc.emit import ptxas_info

    text = gemm_text("i8", 3, tile=(128, 128), warp=(64, 64))
    res = compile_module(parse_mlir(text, "<i8>"), arch="sm_90a", keep_stages=False)
    for target in ("sm_80", "sm_90a"):
        info = ptxas_info(res.ptx.replace(".target sm_90a", f".target {target}"), target)
        if info is None:
            pytest.skip("ptxas not on PATH")
        assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0, info.line
