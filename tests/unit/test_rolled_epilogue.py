"""The rolled epilogue (passes/_rolled.py): lasscc-warp-mma writes the per-pair stores once, in an
`scf.for` over the thread's accumulator pairs (values and offsets loop-carried, rotated by one pair
per iteration), marked for LLVM's full unroll; likewise a k-group's mma.sync over the warp's tiles.

- the CPU executor runs the rolled loop at the warp level (test_pass_numerics runs it on every
  tiling x stage count; here the pair-order cases its grid lacks: interleaved tf32 / i8 fragments,
  whose pairs are not consecutive accumulators, and beta != 0);
- a planted wrong fragment index (each pair's two values swapped) is caught by the executor;
- a fused epilogue is rolled by columns, then rows (its [n] loads read once a column, [m] ahead),
  on the executor with [n], [m] and [mn] extras, and a planted wrong column is caught;
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


FUSED = """func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?x{dt}>,
                 %bias: memref<?xf32>, %scale: memref<?xf16>, %res: memref<?x?xf16>) {{
  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {{threadblock = [64, 64, 32], warp = [32, 32, 32], instruction = [16, 8, 16], stages = 2}}}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?x{dt}>)
      epilogue(%bias [n], %scale [m], %res [mn] : memref<?xf32>, memref<?xf16>, memref<?x?xf16>) {{
    ^bb0(%x: f32, %bn: f32, %sm16: f16, %r16: f16):
      %sm = arith.extf %sm16 : f16 to f32
      %r = arith.extf %r16 : f16 to f32
      %y = arith.addf %x, %bn : f32
      %z = arith.mulf %y, %sm : f32
      %w = arith.addf %z, %r : f32
      %t = math.tanh %w : f32
      lass.yield %t : f32
  }}
  func.return
}}
"""


def fused_warp_level(dt: str):
    module = parse_mlir(FUSED.format(dt=dt), "<fused>")
    for name in ("lasscc-tile-threadblock", "lasscc-pipeline", "lasscc-warp-mma"):
        run_pass(module, make_pass(name, "sm_80"))
    return module


def ops_in(op, cls) -> list:
    return [o for o in op.walk() if isinstance(o, cls)]


@pytest.mark.parametrize("dt", ["f16", "f32"])
def test_fused_epilogue_is_rolled_by_columns_and_rows(dt):
    """A fused epilogue is rolled by column pairs, then rows, of the warp tile
    (_rolled.rolled_columns): the 32 x 32 warp tile's 16 pairs a thread are 4 columns x 4 rows;
    the [n] bias is read once a column (a pair + the 2 edge singles on the guarded paths), the
    [m] scale once per row ahead of the loops (carried by the row loop), the [mn] residual per
    pair; the executor runs the loops against float64 (the region by run_region) with and without
    C, on whole blocks (a 16-bit D: the staged path, a column loop per chunk of rows) and edge
    blocks."""
    from lasscc.dialects import lass_nv
    from lasscc.interp.check import epilogue_of

    module = fused_warp_level(dt)
    cols, rows = rolled_loops(module, "column"), rolled_loops(module, "row")
    assert rolled_loops(module) == []  # no flat loop over pairs: the [n] loads would repeat per pair
    # the per-thread stores: the C path and the direct no-C path, or for a 16-bit D, which has the
    # staged path, one copy of them for both (warp_mma.SHARED_DIRECT) + the staged path's chunk loops
    direct = 1 if dt == "f16" else 2
    assert len(cols) >= 2 and all(o.ub.owner.value.value.data == 4 for o in cols)
    assert (len(cols) > direct) == (dt == "f16") and len(rows) == len(cols)
    for col, row in zip(cols, rows):
        assert row.parent_op() is col
        assert row.ub.owner.value.value.data == 4
        loads = [o for o in ops_in(col, lass_nv.LdGlobalOp) if o.parent_op() is col]
        bias = [o for o in loads if o.operands[0].name_hint == "bias"]
        assert len(bias) in (1, 3) and len(loads) == len(bias)  # only the column's bias, outside the row loop
        inner = ops_in(row, lass_nv.LdGlobalOp)
        assert not [o for o in inner if o.operands[0].name_hint in ("bias", "scale")]
        assert len([o for o in inner if o.operands[0].name_hint == "res"]) in (1, 3)
    guarded = [o for o in rows if ops_in(o, lass_nv.StGlobalOp)]
    assert len(guarded) == direct and all(len(ops_in(o, lass_nv.StGlobalOp)) == 3 for o in guarded)
    scale = [o for o in ops_in(module, lass_nv.LdGlobalOp) if o.operands[0].name_hint == "scale"]
    assert scale and not any(isinstance(o.parent_op(), scf.ForOp) for o in scale)
    epi = epilogue_of(parse_mlir(FUSED.format(dt=dt), "<fused>"))
    for m, n, k, beta in ((64, 64, 64, 0.0), (72, 40, 64, 0.0), (64, 64, 32, -0.75), (40, 62, 32, 0.5)):
        r = run_check(module, m, n, k, seed=8, alpha=1.25, beta=beta, report_banks=False, epilogue=epi)
        assert r["ok"], (m, n, k, beta, r["rel_err"])


def test_planted_wrong_column_of_a_fused_loop_is_caught(monkeypatch):
    """rolled_columns handing each column iteration the next column's offset (the accumulators
    stay): the values land one column pair off, with that column's bias: a wrong D on the
    executor."""
    from lasscc.interp.check import epilogue_of
    from lasscc.passes import _rolled

    epi = epilogue_of(parse_mlir(FUSED.format(dt="f32"), "<fused>"))
    args = dict(seed=9, alpha=1.0, beta=0.0, report_banks=False, epilogue=epi)
    assert run_check(fused_warp_level("f32"), 64, 64, 64, **args)["ok"]
    real = _rolled.rolled_loop

    def shifted(b, n, fields, body, name, const=None):
        if name == "column":
            fc = list(fields[1])
            fields = [fields[0], fc[1:] + fc[:1]]
        return real(b, n, fields, body, name, const)

    monkeypatch.setattr(_rolled, "rolled_loop", shifted)
    out = run_check(fused_warp_level("f32"), 64, 64, 64, **args)
    assert not out["ok"] and out["rel_err"] > 0.1, out["rel_err"]


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


STREAMK = """func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {threadblock = [64, 64, 32], warp = [32, 32, 32], instruction = [16, 8, 16], stages = 2,
                       split_k_mode = "streamk"}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
"""


def streamk_warp_level():
    module = parse_mlir(STREAMK, "<streamk>")
    for name in ("lasscc-tile-threadblock", "lasscc-pipeline", "lasscc-warp-mma"):
        run_pass(module, make_pass(name, "sm_80"))
    return module


def test_streamk_partials_are_rolled_and_a_planted_shift_is_caught(monkeypatch):
    """Stream-K's workspace partials (warp_mma.partial) are one rolled loop over the thread's groups
    of 4 accumulator values (8 for a 32 x 32 warp tile) for the store and one for the finisher's add,
    run by the executor in a 4-CTA persistent grid (6 tiles of 10 k-tiles: 15 a CTA, so tiles are
    split between CTAs and finishers add partials); with the
    accumulator field shifted by one group (each group's values at the next group's words and
    added into the next group's registers) D is wrong."""
    module = streamk_warp_level()
    quads = rolled_loops(module, "quad")
    assert len(quads) == 2 and all(o.ub.owner.value.value.data == 8 for o in quads)
    args = dict(seed=4, alpha=1.0, beta=0.0, report_banks=False, ctas=4)
    assert run_check(module, 150, 90, 320, **args)["ok"]
    real = _rolled.rolled_loop

    def shifted(b, n, fields, body, name, const=None):
        if name == "quad":
            acc = list(fields[0])
            fields = [acc[4:] + acc[:4], fields[1]]
        return real(b, n, fields, body, name, const)

    monkeypatch.setattr(wm, "rolled_loop", shifted)
    out = run_check(streamk_warp_level(), 150, 90, 320, **args)
    assert not out["ok"] and out["rel_err"] > 0.1, out["rel_err"]
