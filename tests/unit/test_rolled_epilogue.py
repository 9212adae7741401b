"""The rolled epilogue (passes/_rolled.py): lasscc-warp-mma writes the per-pair stores once, in an
`scf.for` over the thread's accumulator pairs (values and offsets loop-carried, rotated by one pair
per iteration), marked for LLVM's full unroll; likewise a k-group's mma.sync over the warp's tiles.

- the CPU executor runs the rolled loop at the warp level (test_pass_numerics runs it on every
  tiling x stage count; here the pair-order cases its grid lacks: interleaved tf32 / i8 fragments,
  whose pairs are not consecutive accumulators, and beta != 0);
- a planted wrong fragment index (each pair's two values swapped) is caught by the executor;
- a fused epilogue stays unrolled (its [n] / [m] loads are shared by the pairs of a column / row);
- after LLVM, no loop is left: the PTX of the rolled kernel has exactly the loads, stores, mma.sync
  and branches the unrolled Python emitted (counts pinned here from the unrolled compiler).
"""

from __future__ import annotations

import functools

import pytest
from xdsl.dialects import scf

from lasscc.driver import make_pass, run_pass
from lasscc.interp import run_check
from lasscc.passes import _rolled
from lasscc.passes import warp_mma as wm
from lasscc.source import parse_mlir

KERNEL = """func.func @gemm(%a: memref<?x?x{ab}{la}>, %b: memref<?x?x{ab}{lb}>, %d: memref<?x?x{dt}>) {{
  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {{threadblock = [64, 64, {bk}], warp = [32, 32, {bk}], instruction = [16, 8, {ik}], stages = 2}}}}
      ins(%a, %b : memref<?x?x{ab}{la}>, memref<?x?x{ab}{lb}>) outs(%d : memref<?x?x{dt}>)
  func.return
}}
"""
COL = ", strided<[1, ?]>"
# name: (A, B, D element types, A / B column-major, BK, mma k): f16 TN (pairs = consecutive
# accumulators), tf32 TT (interleaved B: pairs from two n8 blocks), i8 NT (both interleaved)
KINDS = {
    "f16-tn": ("f16", "f32", "", COL, 32, 16),
    "tf32-tt": ("f32", "f32", "", "", 16, 8),
    "i8-nt": ("i8", "i32", COL, "", 32, 32),
}


def warp_level(kind: str):
    """The kernel after lasscc-warp-mma (the pass applied to a fresh parse each call)."""
    ab, dt, la, lb, bk, ik = KINDS[kind]
    module = parse_mlir(KERNEL.format(ab=ab, dt=dt, la=la, lb=lb, bk=bk, ik=ik), f"<{kind}>")
    for name in ("lasscc-tile-threadblock", "lasscc-pipeline", "lasscc-warp-mma"):
        run_pass(module, make_pass(name, "sm_80"))
    return module


@functools.lru_cache(maxsize=None)
def cached_warp_level(kind: str):
    return warp_level(kind)


def rolled_loops(module, name: str = "pair") -> list[scf.ForOp]:
    """The rolled loops over `name` ("pair": epilogue pairs; "tile": a k-group's mma tiles)."""
    return [o for o in module.walk() if isinstance(o, scf.ForOp) and _rolled.UNROLL_FULL_ATTR in o.attributes
            and o.body.block.args[0].name_hint == name]


@pytest.mark.parametrize("beta", [0.0, -0.75])
@pytest.mark.parametrize("kind", list(KINDS))
def test_rolled_epilogue_runs_on_the_executor(kind, beta):
    module = cached_warp_level(kind)
    loops = rolled_loops(module)
    # beta != 0 and beta == 0 paths (a 32 x 32 warp tile: 16 pairs each)
    assert len(loops) == 2 and all(o.ub.owner.value.value.data == 16 for o in loops)
    # the mma.sync of a k-group: rolled over the 2 x 4 tiles where the fragments are used as loaded
    # (f16); tf32 (cvt.rna) and interleaved s8 fragments keep the unrolled issue (warp_mma.mma)
    tiles = rolled_loops(module, "tile")
    assert (len(tiles) > 0) == (kind == "f16-tn") and all(o.ub.owner.value.value.data == 8 for o in tiles)
    r = run_check(module, 72, 40, 64, seed=5, alpha=1.5, beta=beta, report_banks=False)
    assert r["ok"], r["rel_err"]


def assert_caught(good, bad, seed: int) -> None:
    """The planted module `bad` gives a wrong D on the executor where `good` passes (same data)."""
    args = dict(seed=seed, alpha=1.0, beta=0.0, report_banks=False)
    assert run_check(good, 64, 64, 64, **args)["ok"]
    out = run_check(bad, 64, 64, 64, **args)
    assert not out["ok"] and out["rel_err"] > 0.1, out["rel_err"]


def test_planted_wrong_fragment_index_is_caught(monkeypatch):
    """Each pair's two accumulator values swapped (value idx + 1 stored at idx's column): the
    rolled loop computes a wrong D on the executor, the real one a right D."""
    good = cached_warp_level("f16-tn")
    real = wm.rolled_pairs

    def swapped(b, pairs, acc, body):
        return real(b, [(r, c, tuple(reversed(ix))) for r, c, ix in pairs], acc, body)

    monkeypatch.setattr(wm, "rolled_pairs", swapped)
    assert_caught(good, warp_level("f16-tn"), seed=6)


FUSED = """func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf16>, %bias: memref<?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {threadblock = [64, 64, 32], warp = [32, 32, 32], instruction = [16, 8, 16], stages = 2}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>)
      epilogue(%bias [n] : memref<?xf32>) {
    ^bb0(%x: f32, %bn: f32):
      %y = arith.addf %x, %bn : f32
      lass.yield %y : f32
  }
  func.return
}
"""


def test_fused_epilogue_stays_unrolled():
    """A fused epilogue's [n] extras are loaded once per column of the warp tile and shared by
    the pairs there (warp_mma.stores: `cache`), which a loop over pairs cannot share."""
    from lasscc.dialects import lass_nv

    module = parse_mlir(FUSED, "<fused>")
    for name in ("lasscc-tile-threadblock", "lasscc-pipeline", "lasscc-warp-mma"):
        run_pass(module, make_pass(name, "sm_80"))
    assert rolled_loops(module) == []
    # 2 (C / no C paths) x 16 pairs x (pair + 2 singles) direct stores
    stores = [o for o in module.walk() if isinstance(o, lass_nv.StGlobalOp)]
    assert len(stores) == 2 * 16 * 3


# PTX instruction counts of examples/gemm.mlir (128x128x32, warp 64x64: 64 pairs), from the
# unrolled epilogue (before the rolled loop, session 11): the rolled one must give the same
# instructions once LLVM has unrolled it
GEMM_PTX_COUNTS = {"ld.global": 192, "st.global": 384, "mma.sync": 64, "bra": 4, "ldmatrix": 16}


def test_gemm_example_ptx_is_fully_unrolled():
    from pathlib import Path

    from lasscc.driver import compile_module

    path = Path(__file__).resolve().parents[2] / "examples" / "gemm.mlir"
    res = compile_module(parse_mlir(path.read_text(), str(path)), keep_stages=False)
    assert "llvm.loop.unroll.full" in res.llvm_ir
    counts = {k: sum(k in line for line in res.ptx.splitlines()) for k in GEMM_PTX_COUNTS}  # grep -c
    assert counts == GEMM_PTX_COUNTS


def test_planted_wrong_b_fragment_of_an_mma_tile_is_caught(monkeypatch):
    """The rolled mma.sync loop with each tile's B registers taken from the next tile (the B field
    shifted by one tile): a wrong product on the executor."""
    good = cached_warp_level("f16-tn")
    real = wm.rolled_loop

    def shifted(b, n, fields, body, name, const=None):
        if name == "tile":
            fb = list(fields[1])
            fields = [fields[0], fb[2:] + fb[:2], fields[2]]
        return real(b, n, fields, body, name, const)

    monkeypatch.setattr(wm, "rolled_loop", shifted)
    assert_caught(good, warp_level("f16-tn"), seed=7)
