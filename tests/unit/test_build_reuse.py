"""passes/_build.ArithBuilder builds a constant or pure i32 op once per insertion point, and the IR
after CSE and DCE (the driver's tidy-up, lasscc.tidy) is exactly the IR of a builder that builds every
op anew (`reuse=False`): on lasscc.layout's formulas, on the cases where CSE would not keep the first
op (unused, moved, arith.remui), and on every stage of whole compiles."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.ir import Block, Region
from xdsl.rewriter import InsertPoint

from lasscc import driver, tidy
from lasscc.layout import (
    ldmatrix_a_lane_src,
    ldmatrix_a_trans_lane_src,
    ldmatrix_b_lane_src,
    ldmatrix_b_trans_lane_src,
    swizzle,
    tile_copy_map,
)
from lasscc.passes import _build
from lasscc.passes._build import ArithBuilder

ROOT = Path(__file__).resolve().parents[2]


def _module(build, reuse: bool) -> tuple[ModuleOp, int]:
    """A function of two i32 arguments whose body `build(b, x, y)` writes (results returned);
    the module and its op count before any tidy-up."""
    block = Block(arg_types=[i32, i32])
    b = ArithBuilder(InsertPoint.at_end(block), reuse=reuse)
    results = build(b, *block.args)
    b.insert(func.ReturnOp(*results))
    fn = func.FuncOp("f", ([i32, i32], [i32] * len(results)), Region(block))
    module = ModuleOp([fn])
    return module, sum(1 for _ in module.walk())


def _tidied(build, reuse: bool) -> tuple[str, int]:
    module, n = _module(build, reuse)
    tidy.cse(module)
    tidy.dce(module)
    return str(module), n


def _lane_formulas(b, x, y):
    lane = b.idx(b.and_(x, 31))
    vals = [*ldmatrix_a_lane_src(lane, 2), *ldmatrix_b_lane_src(lane, 2), *ldmatrix_a_trans_lane_src(lane),
            *ldmatrix_b_trans_lane_src(lane)]
    coords = [tile_copy_map(lane, it, 128, 128, 32, 2) for it in range(4)]  # (row, k) of each iteration
    return [b.val(v) for v in vals] + [b.val(swizzle(b.idx(y) + r * 64 + k, 3, 4, 3)) for r, k in coords]


def _unused_first(b, x, y):
    b.const(0)  # built in case it is needed, never used: CSE erases it and keeps the next one
    s = b.add(x, 5)
    b.add(x, y)  # the same: unused at first
    return [b.add(s, b.const(0)), b.mul(b.add(x, y), 3)]


def _remainders(b, x, y):
    return [b.rem(x, 4), b.rem(x, 4), b.div(x, 4), b.div(x, 4), b.ult(x, y), b.ult(x, y)]


def _moved(b, x, y):
    c = b.const(7)
    first = b.add(x, c)
    other = Block()  # the first add moves out of the point's block, with a user: a new one is built
    first.owner.detach()
    other.add_ops([first.owner, arith.XOrIOp(first, first)])
    return [b.add(x, b.const(7))]


@pytest.mark.parametrize("build", [_lane_formulas, _unused_first, _remainders, _moved], ids=lambda f: f.__name__)
def test_tidied_ir_is_that_of_building_anew(build):
    (mine, n_mine), (anew, n_anew) = _tidied(build, True), _tidied(build, False)
    assert mine == anew
    if build is _lane_formulas:
        assert n_mine < n_anew * 0.8  # the formulas repeat constants and sub-expressions


def test_same_value_for_the_same_op():
    def build(b, x, y):
        def used(v):
            b.emit(arith.XOrIOp(v, v))  # (a user: an unused op is not given again)
            return v

        four = used(b.const(4))
        assert b.const(4) is four and b.const(4, arith.IntegerType(64)) is not four
        s, p, q, lt = used(b.add(x, 4)), used(b.mul(y, 3)), used(b.div(x, 2)), used(b.ult(x, y))
        assert b.add(x, 4) is s and b.add(4, x) is not s and b.mul(y, 3) is p and b.div(x, 2) is q and b.ult(x, y) is lt
        r = used(b.rem(x, 2))
        assert b.rem(x, 2) is not r  # arith.remui: unknown effects, CSE keeps both
        assert b.emit(arith.AddiOp(x, y)) is not b.emit(arith.AddiOp(x, y))  # emit builds what it is given
        unused = b.sub(x, y)
        assert b.sub(x, y) is not unused  # not used yet: CSE would erase the first and keep this one
        return [s, p, q]

    _module(build, True)


def test_shared_by_builders_in_turn():
    def build(b, x, y):
        c = b.const(9)
        s = b.add(x, c)
        ret = b.insert(func.ReturnOp(s))
        shared = {}
        b1 = ArithBuilder(InsertPoint.before(ret), shared=shared)
        t = b1.mul(s, 3)
        b1.emit(arith.XOrIOp(t, t))
        b2 = ArithBuilder(InsertPoint.before(ret), shared=shared)  # after b1's ops
        assert b2.mul(s, 3) is t and b2.const(3) is t.owner.rhs
        assert ArithBuilder(InsertPoint.before(ret)).mul(s, 3) is not t  # not shared
        ret.detach()
        return [t]

    _module(build, True)


def test_no_reuse():
    def build(b, x, y):
        assert b.const(4) is not b.const(4) and b.add(x, y) is not b.add(x, y)
        return []

    _module(build, False)


def test_cse_merges_as_tidy():
    assert _build.cse_merges(arith.AddiOp) and _build.cse_merges(arith.ConstantOp) and _build.cse_merges(arith.DivUIOp)
    assert not _build.cse_merges(arith.RemUIOp)


@pytest.mark.parametrize("example,arch", [("gemm_wgmma_tma_store.mlir", "sm_90a"), ("gemm_nn.mlir", "sm_80"),
                                          ("gemm_splitk.mlir", "sm_80"), ("gemm_bias_gelu.mlir", "sm_90a")])
def test_every_stage_as_without_reuse(example, arch, monkeypatch):
    from lasscc.source import parse_mlir, read_file

    path = str(ROOT / "examples" / example)

    def stages():
        module = parse_mlir(read_file(path), path)
        return driver.run_passes(module, driver.PASS_NAMES, arch, path, keep_text=True)

    mine = stages()
    init = ArithBuilder.__init__
    monkeypatch.setattr(ArithBuilder, "__init__", lambda self, point, reuse=True, shared=None: init(self, point, reuse=False))
    anew = stages()
    assert list(mine) == driver.PASS_NAMES
    for name in mine:
        assert mine[name] == anew[name], name
