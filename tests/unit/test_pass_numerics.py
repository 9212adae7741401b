"""Every pass keeps the product: the IR before and after each pass, run on the CPU executor.

Issue 3 ("Execute the IR of every level on the CPU"), the tests it enables:

1. For each pass whose output the executor runs (lasscc-import-linalg, lasscc-tile-threadblock,
   lasscc-pipeline, lasscc-warp-mma, lasscc-swizzle-smem) the module is run before and after the
   pass on the same random data (`run_check` with the same seed: the same A, B and C handed to
   `execute_kernel`).  Both must pass against the float64 reference, and the two D arrays that
   execute_kernel wrote must agree element by element:
     * exactly (bit for bit) after lasscc-pipeline and lasscc-swizzle-smem, which only move data
       (rings and schedules; physical addresses) and leave every multiply-add where it was;
     * to float32 rounding (f32 D) or one f16 ulp (f16 D) after lasscc-tile-threadblock and
       lasscc-warp-mma, which re-associate the K sum (k-tiles of BK; mma k-groups of 16).
   An element-wise comparison also catches a handful of wrong elements that the Frobenius-norm
   check would average away on a large D.
   Grid: stages 2 (register double buffer), 3 and 4 (cp.async multistage) x three tilings
   (64x64x32 / warp 32x32x32, 128x128x32 / warp 64x64x32, 64x64x64 / warp 32x32x64) x f32 and f16
   D x shapes that are tile multiples and ragged ones (the contract: any M and N, K a multiple of
   8; K = 8 is shorter than one mma k-group and than every prologue) with beta = 0 (D poisoned
   with NaN: an element left unwritten fails) and beta != 0.
   linalg.matmul has no CPU semantics in the executor, so lasscc-import-linalg's input is
   evaluated by what linalg.matmul means (C += A.B, here in float32 from the f16 inputs) and its
   output must reproduce that with alpha and beta read from the IR (execute_kernel(..., None, None)),
   as must the threadblock and pipeline levels compiled from it.

2. Planted bugs, each shown to be caught (the passes are not edited: the swizzle bug is a
   monkeypatch of the pass's rewriter, the schedule bugs are surgery on the pass output):
   a. fragment loads (ldmatrix) swizzled with one XOR bit fewer than the copies that wrote the
      tile: the swizzle-smem output computes a wrong product while its input is right;
   b. the barrier that closes the main-loop body removed (lass_pipe.barrier, and lass_nv.bar_sync
      at the physical level): a RaceError that names both racing ops;
   c. the main-loop wait retiring one group too few ({pending = S-1} instead of S-2): an
      AsyncHazardError, the read of bytes a cp.async is still writing.

Compiled stages are cached per (tiling, stages, D type) and executor results per data case, so
each stage runs once per case; the whole file takes ~30 s on a 2-core machine (about 12 s of it
compiling the 12 (tiling, stages, D type) combinations).
"""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest
from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr

from lasscc.interp import (
    AsyncHazardError,
    InterpError,
    RaceError,
    execute_kernel,
    run_check,
)
from lasscc.interp.check import make_inputs, reference, rel_error
from lasscc.driver import make_pass, run_pass, run_passes
from lasscc.source import parse_mlir

# The passes whose input and output the executor runs, in pipeline order (after lasscc-import-linalg).
EXEC_PASSES = ["lasscc-tile-threadblock", "lasscc-pipeline", "lasscc-warp-mma", "lasscc-swizzle-smem"]
PREVIOUS = {name: (["input"] + EXEC_PASSES)[i] for i, name in enumerate(EXEC_PASSES)}
LEVEL_AFTER = {"input": 0, "lasscc-tile-threadblock": 1, "lasscc-pipeline": 2, "lasscc-warp-mma": 3,
               "lasscc-swizzle-smem": 4}
# passes that only move data: their output must reproduce their input bit for bit
DATA_MOVEMENT_ONLY = {"lasscc-pipeline", "lasscc-swizzle-smem"}

TILINGS = {  # name: (threadblock, warp)
    "tb64x64x32-w32x32x32": ((64, 64, 32), (32, 32, 32)),
    "tb128x128x32-w64x64x32": ((128, 128, 32), (64, 64, 32)),
    "tb64x64x64-w32x32x64": ((64, 64, 64), (32, 32, 64)),
}
STAGES = (2, 3, 4)

GEMM = """func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?x{dt}>) {{
  lass.gemm {{alpha = {alpha} : f32, beta = {beta} : f32,
             config = {{threadblock = [{tb}], warp = [{w}], instruction = [16, 8, 16], stages = {s}}}}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?x{dt}>)
  func.return
}}
"""

LINALG = """func.func @matmul(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %c: memref<?x?x{dt}>) {{
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%c : memref<?x?x{dt}>)
  return
}}
"""


def shape_of(kind: str, tiling: str) -> tuple[int, int, int]:
    """M, N, K.  'tiles': whole tiles, 2 x 1 blocks, 4 k-tiles (more than any prologue);
    'odd': one ragged block, K = 40 (a partial last k-tile for BK = 32, one partial tile for 64);
    'ragged': 3 x 2 blocks of 64 (2 x 1 of 128), ragged in M, N and K (K = 88 = 2.75 x 32);
    'thin': M, N below one mma tile, K = 8 (half an mma k-group; every prologue slot but one empty)."""
    (bm, bn, bk), _ = TILINGS[tiling]
    return {"tiles": (2 * bm, bn, 4 * bk), "odd": (72, 40, 40), "ragged": (136, 72, 88), "thin": (17, 9, 8)}[kind]


# (shape kind, alpha, beta, seed).  f32 D: every tiling x every stage count.  f16 D changes only
# the epilogue (rounding, 4-byte pair stores inside D, single elements at its edges), which does
# not depend on the tiling: every stage count of the cheapest tiling.
CASES = {
    "f32": [("tiles", 1.0, 0.0, 11), ("odd", 1.5, -0.75, 12), ("ragged", 1.0, 0.0, 13), ("thin", 0.5, 2.0, 14)],
    "f16": [("tiles", 1.5, -0.75, 21), ("odd", 1.0, 0.0, 22), ("ragged", 0.5, 2.0, 23)],
}
F16_COMBOS = {("tb64x64x32-w32x32x32", 2), ("tb64x64x32-w32x32x32", 3), ("tb64x64x32-w32x32x32", 4)}
GRID = [(t, s, dt, case) for t in TILINGS for s in STAGES for dt in ("f32", "f16") for case in CASES[dt]
        if (dt == "f32" or (t, s) in F16_COMBOS)
        and not (t == "tb128x128x32-w64x64x32" and case[0] == "ragged")]  # the slowest tiling: 3 shapes


def case_id(case) -> str:
    kind, alpha, beta, _ = case
    return f"{kind}-a{alpha:g}-b{beta:g}"


@functools.lru_cache(maxsize=None)
def stage_modules(tiling: str, stages: int, dt: str) -> dict:
    """{'input': lass.gemm module, pass name: module after it} — the passes applied one at a time
    to one parsed module, cloned after each."""
    tb, w = TILINGS[tiling]
    text = GEMM.format(dt=dt, alpha="1.0", beta="0.0", tb=", ".join(map(str, tb)), w=", ".join(map(str, w)), s=stages)
    module = parse_mlir(text, f"<{tiling}-s{stages}-{dt}>")
    out = {"input": module.clone()}
    for name in EXEC_PASSES:
        run_pass(module, make_pass(name, "sm_80"))
        out[name] = module.clone()
    return out


@functools.lru_cache(maxsize=64)
def outcome(tiling: str, stages: int, dt: str, case: tuple, stage: str) -> dict:
    """run_check of one stage on one data case; D kept for the before/after comparison."""
    kind, alpha, beta, seed = case
    m, n, k = shape_of(kind, tiling)
    r = run_check(stage_modules(tiling, stages, dt)[stage], m, n, k, seed=seed, alpha=alpha, beta=beta,
                  report_banks=False)
    return {"rel_err": r["rel_err"], "ok": r["ok"], "level": r["level"], "d": r["result"].d.copy()}


def assert_same_d(before: np.ndarray, after: np.ndarray, exact: bool, what: str) -> None:
    """`after` reproduces `before`: bit for bit, or up to re-association of the K sum."""
    assert before.dtype == after.dtype and before.shape == after.shape, what
    if exact:
        bad = before != after
        assert not bad.any(), (
            f"{what}: {int(bad.sum())} of {bad.size} elements differ (expected bit-identical); first at "
            f"{tuple(int(i) for i in np.argwhere(bad)[0])}: {before[bad][0]!r} -> {after[bad][0]!r}"
        )
        return
    b64, a64 = before.astype(np.float64), after.astype(np.float64)
    diff = np.abs(a64 - b64)
    # a re-associated float32 K sum moves each element by a few float32 ulps of the sum's scale
    # (~5e-7 of max |D| measured; 1e-5 allowed), which f16 D may round one ulp further
    limit = np.full(diff.shape, 1e-5 * float(np.abs(b64).max()))
    if before.dtype == np.float16:
        limit += np.spacing(np.maximum(np.abs(before), np.abs(after))).astype(np.float64)
    bad = diff > limit
    if bad.any():
        worst = np.unravel_index(np.argmax(diff - limit), diff.shape)
        raise AssertionError(
            f"{what}: {int(bad.sum())} of {bad.size} elements differ beyond rounding; worst at "
            f"{tuple(int(i) for i in worst)}: {b64[worst]!r} -> {a64[worst]!r} (allowed {limit[worst]:.2e})"
        )


# ---- 1. each pass, before and after --------------------------------------------------------------
@pytest.mark.parametrize("pass_name", EXEC_PASSES)  # the innermost loop: each stage runs once per case
@pytest.mark.parametrize("tiling,stages,dt,case", GRID,
                         ids=[f"{t}-s{s}-{dt}-{case_id(c)}" for t, s, dt, c in GRID])
def test_pass_preserves_the_product(tiling, stages, dt, case, pass_name):
    prev = PREVIOUS[pass_name]
    before = outcome(tiling, stages, dt, case, prev)
    after = outcome(tiling, stages, dt, case, pass_name)
    m, n, k = shape_of(case[0], tiling)
    where = f"{pass_name} ({tiling}, stages {stages}, D {dt}, M={m} N={n} K={k}, alpha={case[1]:g} beta={case[2]:g})"
    assert (before["level"], after["level"]) == (LEVEL_AFTER[prev], LEVEL_AFTER[pass_name]), where
    assert before["ok"], f"input of {where}: rel_err {before['rel_err']:.3e}"
    assert after["ok"], f"output of {where}: rel_err {after['rel_err']:.3e} (its input: {before['rel_err']:.3e})"
    assert_same_d(before["d"], after["d"], pass_name in DATA_MOVEMENT_ONLY, where)


@pytest.mark.parametrize("dt", ["f32", "f16"])
def test_import_linalg_preserves_linalg_matmul(dt):
    """linalg.matmul (C += A.B) -> lass.gemm {alpha = 1, beta = 1}: the output, run with the
    alpha/beta it carries, equals linalg.matmul's meaning on the same data; for f32 the
    threadblock and pipeline levels (default tiling) follow, reading alpha/beta from the kernel's
    alpha / beta in #lass.kernel."""
    module = parse_mlir(LINALG.format(dt=dt))
    linalg_module = module.clone()
    run_passes(module, ["lasscc-import-linalg"])
    with pytest.raises(InterpError):  # the input has no CPU semantics: evaluated by its meaning below
        run_check(linalg_module, 8, 8, 8)
    npdt = np.dtype(np.float32 if dt == "f32" else np.float16)
    chain = [("lasscc-import-linalg", module)]
    for name in EXEC_PASSES[:2] if dt == "f32" else []:  # the later levels: test_pass_preserves_the_product
        module = module.clone()
        run_passes(module, [name])
        chain.append((name, module))
    for m, n, k in [(72, 40, 40), (256, 128, 64)]:
        a, b, c, _ = make_inputs(m, n, k, seed=31, beta=1.0, d_dtype=npdt)
        c_in = c.astype(npdt)
        # linalg.matmul: C[i, j] += sum_k A[i, k] * B[k, j], products and sums in float32 (its body
        # extends f16 to f32 for an f32 C; an f16 C is rounded once at the end here)
        linalg_d = (c_in.astype(np.float32) + a.astype(np.float32) @ b.astype(np.float32).T).astype(npdt)
        ref = reference(a, b, c_in.astype(np.float64), 1.0, 1.0)
        tol = 1e-3 if dt == "f32" else 5e-3
        assert rel_error(linalg_d, ref) <= tol
        for name, stage_module in chain:
            where = f"{name} from linalg.matmul (D {dt}, M={m} N={n} K={k})"
            d = c_in.copy()
            res = execute_kernel(stage_module, m, n, k, a, b, d, None, None)  # alpha, beta from the IR
            assert res.level == (0 if name == "lasscc-import-linalg" else LEVEL_AFTER[name]), where
            err = rel_error(d, ref)
            assert err <= tol, f"{where}: rel_err {err:.3e}"
            r = run_check(stage_module, m, n, k, seed=32, alpha=1.0, beta=1.0, report_banks=False)
            assert r["ok"], f"{where}: run_check rel_err {r['rel_err']:.3e}"
            assert_same_d(linalg_d, d, False, where)


# ---- 1b. the staged epilogue across warp-tile widths ------------------------------------------------
@pytest.mark.parametrize("tb,w,staged", [
    ((64, 32, 32), (32, 16, 32), True),    # 32-byte f16 rows: quarter-warps read 4 rows each
    ((64, 64, 32), (32, 32, 32), True),    # 64-byte rows: 2 rows each
    ((64, 96, 32), (32, 48, 32), False),   # 96-byte rows (6 chunks): not a power of two -> direct stores
    ((128, 128, 32), (64, 64, 32), True),  # 128-byte rows: one row each
])
def test_staged_epilogue_every_warp_width(tb, w, staged):
    """f16 D, beta 0, whole blocks: the staged epilogue (or, for widths it does not take, the direct
    one) reproduces the product at the physical level, with every shared-memory access
    conflict-free (the read-back map of narrow rows, lasscc.layout.epilogue_read_map)."""
    text = GEMM.format(dt="f16", alpha="1.0", beta="0.0", tb=", ".join(map(str, tb)),
                       w=", ".join(map(str, w)), s=2)
    module = parse_mlir(text, f"<staged-{w}>")
    run_passes(module, EXEC_PASSES)
    assert any(op.name == "lass_nv.st_global_v4" for op in module.walk()) == staged
    m, n, k = 2 * tb[0], 2 * tb[1], 2 * tb[2]
    r = run_check(module, m, n, k, seed=41, alpha=1.5, beta=0.0)
    assert r["ok"] and r["level"] == 4, r["rel_err"]
    worse = [(row["op"], row["factor"]) for row in r["bank_report"] if row["factor"] != 1.0]
    assert not worse, worse


# ---- 2. planted bugs -------------------------------------------------------------------------------
def loop_of(module) -> scf.ForOp:
    """The main K loop: the outermost scf.for that holds the mma (a k-group's mma.sync are in a
    rolled loop of their own inside it: passes/_rolled.py)."""
    for op in module.walk():
        if isinstance(op, scf.ForOp) and any(
            o.name in ("lass_pipe.mma", "lass_nv.mma_sync") for o in op.body.walk()
        ):
            return op
    raise AssertionError("no main loop with an mma in it")


def named_ops(msg: str) -> set[tuple[int, str]]:
    return {(int(i), name) for i, name in re.findall(r"op #(\d+) '([\w.]+)'", msg)}


def feeds(value, names: tuple[str, ...]) -> bool:
    """Whether `value` reaches an op named in `names` through its uses (forward slice)."""
    seen, todo = set(), [value]
    while todo:
        v = todo.pop()
        for use in v.uses:
            op = use.operation
            if op.name in names:
                return True
            if id(op) not in seen:
                seen.add(id(op))
                todo.extend(op.results)
    return False


def test_planted_swizzle_bug_fragment_loads_drop_one_xor_bit(monkeypatch):
    """a. ldmatrix addresses through Swizzle<2,4,3>, cp.async writes through Swizzle<3,4,3>."""
    from lasscc.dialects import lass_warp
    from lasscc.passes import swizzle_smem as sw

    real_rewrite, real_bits = sw._Swizzler.rewrite, sw.SWIZZLE_BITS
    tiling, stages = "tb64x64x32-w32x32x32", 3
    # the real stages first: stage_modules is cached, and must not run (nor cache) the planted pass
    real = stage_modules(tiling, stages, "f32")

    def rewrite(self, op):
        frag = isinstance(op, (lass_warp.LoadFragAOp, lass_warp.LoadFragBOp))
        monkeypatch.setattr(sw, "SWIZZLE_BITS", real_bits - 1 if frag else real_bits)
        real_rewrite(self, op)

    monkeypatch.setattr(sw._Swizzler, "rewrite", rewrite)
    warp_level = real["lasscc-warp-mma"]
    buggy = warp_level.clone()
    run_passes(buggy, ["lasscc-swizzle-smem"])
    # the planted bug is the one meant: fragment loads 2 bits, copies 3 bits
    bits = {}
    for op in buggy.walk():
        if op.name == "lass_smem.swizzle":
            for target in ("lass_nv.ldmatrix_x4", "lass_nv.cp_async"):
                if feeds(op.result, (target,)):
                    bits.setdefault(target, set()).add(op.bits.value.data)
    assert bits == {"lass_nv.ldmatrix_x4": {real_bits - 1}, "lass_nv.cp_async": {real_bits}}, bits

    m, n, k = 64, 128, 96
    good_in = run_check(warp_level, m, n, k, seed=41, alpha=1.0, beta=0.0, report_banks=False)
    bad_out = run_check(buggy, m, n, k, seed=41, alpha=1.0, beta=0.0, report_banks=False)
    assert good_in["ok"] and good_in["rel_err"] < 1e-5
    assert not bad_out["ok"] and bad_out["rel_err"] > 0.1, bad_out["rel_err"]
    # the same input through the real pass is right (test_pass_preserves_the_product, and here)
    assert run_check(real["lasscc-swizzle-smem"], m, n, k, seed=41, alpha=1.0, beta=0.0, report_banks=False)["ok"]


@pytest.mark.parametrize("stages,writer", [(2, "lass_pipe.store_regs"), (3, "lass_pipe.copy_async"),
                                           (4, "lass_pipe.copy_async")])
def test_planted_missing_loop_barrier_is_a_race(stages, writer):
    """b. the lass_pipe.barrier closing the loop body removed from lasscc-pipeline's output: the
    next iteration's copy overwrites the slot this iteration's mma reads, with no barrier between."""
    module = stage_modules("tb64x64x32-w32x32x32", stages, "f32")["lasscc-pipeline"].clone()
    body = list(loop_of(module).body.block.ops)
    barriers = [op for op in body if op.name == "lass_pipe.barrier"]
    assert len(barriers) == 1 and body[-2] is barriers[0], "expected one barrier, closing the loop body"
    barriers[0].detach()
    barriers[0].erase()
    with pytest.raises(RaceError) as info:
        run_check(module, 128, 64, 256, seed=42, report_banks=False)
    assert not isinstance(info.value, AsyncHazardError)
    msg = str(info.value)
    ops = named_ops(msg)
    assert len(ops) == 2 and {name for _, name in ops} == {writer, "lass_pipe.mma"}, msg
    assert "no barrier between" in msg


def test_planted_missing_bar_sync_at_the_physical_level_is_a_race():
    """b'. the same barrier removed from lasscc-swizzle-smem's output (lass_nv.bar_sync): the
    race is between a cp.async and an ldmatrix.x4 of two different threads."""
    module = stage_modules("tb64x64x32-w32x32x32", 3, "f32")["lasscc-swizzle-smem"].clone()
    bars = [op for op in loop_of(module).body.block.ops if op.name == "lass_nv.bar_sync"]
    assert len(bars) == 1
    bars[0].detach()
    bars[0].erase()
    with pytest.raises(RaceError) as info:
        run_check(module, 128, 64, 256, seed=43, report_banks=False)
    assert not isinstance(info.value, AsyncHazardError)
    msg = str(info.value)
    ops = named_ops(msg)
    assert len(ops) == 2 and {name for _, name in ops} == {"lass_nv.cp_async", "lass_nv.ldmatrix_x4"}, msg


@pytest.mark.parametrize("stages", [3, 4])
def test_planted_short_wait_reads_in_flight_bytes(stages):
    """c. the loop's `wait {pending = S-2}` made `{pending = S-1}`: at the end of iteration kt
    tile kt+1 has not landed, and the next iteration's mma reads it while cp.async writes it."""
    module = stage_modules("tb64x64x32-w32x32x32", stages, "f32")["lasscc-pipeline"].clone()
    waits = [op for op in loop_of(module).body.block.ops if op.name == "lass_pipe.wait"]
    assert [w.pending.value.data for w in waits] == [stages - 2]
    waits[0].attributes["pending"] = IntegerAttr(stages - 1, 64)
    module.verify()
    with pytest.raises(AsyncHazardError) as info:
        run_check(module, 128, 64, 256, seed=44, report_banks=False)
    msg = str(info.value)
    assert "still copying into it" in msg and "no wait has retired" in msg, msg
    assert {name for _, name in named_ops(msg)} == {"lass_pipe.copy_async", "lass_pipe.mma"}, msg
