"""lasscc.ir_math.Idx: the layout formulas the passes write into IR compute what they compute on ints.

Each formula the passes emit is built here on block arguments (through the arith ArithBuilder the passes
use, and the swizzle through lasscc-lower-to-llvm's llvm emitter), the ops are evaluated for every
lane (or every value of the inputs) by a small interpreter of unsigned 32-bit integer ops, and the
results are compared with the same function called on Python ints, which tests/unit/test_layout_formulas.py
checks against the PTX ISA tables.
"""

from __future__ import annotations

import operator

import numpy as np
import pytest
from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import i32
from xdsl.ir import Block
from xdsl.rewriter import InsertPoint

from lasscc import layout as L
from lasscc.ir_math import Idx
from lasscc.passes._build import ArithBuilder

LANES = np.arange(32, dtype=np.int64)
_MASK = 0xFFFFFFFF

# op class -> numpy function on values in [0, 2**32) (arith and the llvm ops lower_to_llvm emits)
_EVAL = {
    arith.AddiOp: operator.add, arith.SubiOp: operator.sub, arith.MuliOp: operator.mul,
    arith.DivUIOp: operator.floordiv, arith.RemUIOp: operator.mod, arith.AndIOp: operator.and_,
    arith.OrIOp: operator.or_, arith.XOrIOp: operator.xor, arith.ShLIOp: operator.lshift,
    arith.ShRUIOp: operator.rshift, arith.MinUIOp: np.minimum,
    llvm.AddOp: operator.add, llvm.SubOp: operator.sub, llvm.MulOp: operator.mul, llvm.UDivOp: operator.floordiv,
    llvm.URemOp: operator.mod, llvm.AndOp: operator.and_, llvm.OrOp: operator.or_, llvm.XOrOp: operator.xor,
    llvm.ShlOp: operator.lshift, llvm.LShrOp: operator.rshift,
}


def run_block(block: Block, inputs: list, results: list):
    """Values of `results` (Idx, SSA values or ints) with the block's arguments bound to `inputs`."""
    env = {a: np.asarray(x, np.int64) for a, x in zip(block.args, inputs)}
    for op in block.ops:
        if isinstance(op, (arith.ConstantOp, llvm.ConstantOp)):
            env[op.results[0]] = np.int64(op.value.value.data & _MASK)
        else:
            env[op.results[0]] = _EVAL[type(op)](env[op.operands[0]], env[op.operands[1]]) & _MASK
    return [r if isinstance(r, int) else env[r.value if isinstance(r, Idx) else r] for r in results]


def emitted(fn, n_args: int, *inputs):
    """fn(*Idx block arguments) built as arith ops and evaluated on `inputs`; also the op count."""
    block = Block(arg_types=[i32] * n_args)
    b = ArithBuilder(InsertPoint.at_end(block))
    out = fn(*(b.idx(a) for a in block.args))
    out = out if isinstance(out, tuple) else (out,)
    return run_block(block, list(inputs), list(out)), len(list(block.ops))


def assert_same(fn, *inputs):
    """fn on Idx values (IR, evaluated) == fn on the numpy inputs == fn on each int input."""
    got, _ = emitted(fn, len(inputs), *inputs)
    ref = fn(*inputs)
    ref = ref if isinstance(ref, tuple) else (ref,)
    for g, r in zip(got, ref, strict=True):
        assert np.array_equal(np.broadcast_to(g, np.shape(r)), r)
    for vals in zip(*(np.broadcast_to(x, np.broadcast(*inputs).shape).ravel() for x in inputs)):
        one = fn(*(int(v) for v in vals))
        one = one if isinstance(one, tuple) else (one,)
        assert all(isinstance(v, int) for v in one), "ints in, ints out"


# ---- the Idx operators ---------------------------------------------------------------------------
def _block_builder():
    block = Block(arg_types=[i32, i32])
    return block, ArithBuilder(InsertPoint.at_end(block))


def test_ints_stay_ints_and_emit_nothing():
    block, b = _block_builder()
    assert L.ldmatrix_a_lane_src(13, 2) == ((13 & 7) + 8, 0)
    assert L.swizzle(0x1A0) == 0x1A0 ^ (((0x1A0 >> 7) & 7) << 4)
    assert not list(block.ops)


@pytest.mark.parametrize("expr", [lambda x: x + 0, lambda x: 0 + x, lambda x: x - 0, lambda x: x * 1,
                                  lambda x: 1 * x, lambda x: x // 1, lambda x: x | 0, lambda x: x ^ 0,
                                  lambda x: x << 0, lambda x: x >> 0, lambda x: x & -1])
def test_identities_fold_to_the_operand(expr):
    block, b = _block_builder()
    x = b.idx(block.args[0])
    assert expr(x) is x
    assert not list(block.ops)


@pytest.mark.parametrize("expr", [lambda x: x * 0, lambda x: 0 * x, lambda x: x % 1, lambda x: x & 0,
                                  lambda x: 0 // x, lambda x: 0 >> x])
def test_zero_results_fold_to_int(expr):
    block, b = _block_builder()
    assert expr(b.idx(block.args[0])) == 0
    assert not list(block.ops)


def test_constants_go_right_for_commutative_ops_only():
    block, b = _block_builder()
    x = b.idx(block.args[0])
    m = 8 * x
    s = 100 - x
    ops = list(block.ops)
    assert isinstance(ops[1], arith.MuliOp) and ops[1].lhs is x.value and ops[1].rhs is ops[0].result
    assert isinstance(ops[3], arith.SubiOp) and ops[3].lhs is ops[2].result and ops[3].rhs is x.value
    got = run_block(block, [np.arange(5), 0], [m, s])
    assert got[0].tolist() == [0, 8, 16, 24, 32] and got[1].tolist() == [100, 99, 98, 97, 96]


def test_two_emitters_do_not_mix_and_idx_has_no_truth_value():
    block, b = _block_builder()
    other = ArithBuilder(InsertPoint.at_end(block))
    x, y = b.idx(block.args[0]), other.idx(block.args[1])
    with pytest.raises(ValueError, match="two emitters"):
        x + y
    with pytest.raises(TypeError, match="truth value"):
        bool(x)
    assert isinstance(x + b.idx(y), Idx)


def test_minimum_is_polymorphic():
    assert L.minimum(3, 5) == 3
    assert L.minimum(np.arange(6), 2).tolist() == [0, 1, 2, 2, 2, 2]
    got, n_ops = emitted(lambda a, b: L.minimum(a, b), 2, np.arange(6), 3)
    assert got[0].tolist() == [0, 1, 2, 3, 3, 3] and n_ops == 1


# ---- every formula the passes emit: IR == ints ----------------------------------------------------
@pytest.mark.parametrize("eb", [1, 2, 4])
def test_ldmatrix_lane_sources(eb):
    assert_same(lambda lane: L.ldmatrix_a_lane_src(lane, eb), LANES)
    assert_same(lambda lane: L.ldmatrix_b_lane_src(lane, eb), LANES)


def test_ldmatrix_trans_and_mn_fragment_lane_sources():
    assert_same(L.ldmatrix_a_trans_lane_src, LANES)
    assert_same(L.ldmatrix_b_trans_lane_src, LANES)
    assert_same(lambda lane: L.s8_mn_trans_lane_src(lane)[1], LANES)
    assert_same(L.s8_mn_prmt_selectors, LANES)
    for load in range(2):
        assert_same(lambda lane: L.tf32_mn_lane_src(lane, load), LANES)
        # lasscc-swizzle-smem adds the load's part to the lane part computed once
        assert L.tf32_mn_lane_src(LANES, load)[1].tolist() == (
            L.tf32_mn_lane_src(LANES, 0)[1] + L.tf32_mn_lane_src(0, load)[1]).tolist()


@pytest.mark.parametrize("bits,base,shift", [(3, 4, 3), (2, 5, 2), (3, 0, 3)])
def test_swizzle_arith_and_llvm(bits, base, shift):
    x = np.arange(4096)
    assert_same(lambda v: L.swizzle(v, bits, base, shift), x)
    # lasscc-lower-to-llvm's emitter writes the same formula as llvm ops
    from lasscc.passes.lower_to_llvm import _Lowerer

    block = Block(arg_types=[i32])
    em = _Lowerer.__new__(_Lowerer)
    em.cur = block
    out = L.swizzle(Idx(block.args[0], em), bits, base, shift)
    assert all(type(o).__module__.startswith("xdsl.dialects.llvm") for o in block.ops)
    assert run_block(block, [x], [out])[0].tolist() == L.swizzle(x, bits, base, shift).tolist()


@pytest.mark.parametrize("row_bytes", [32, 64, 128, 256, 512])
def test_epilogue_read_map(row_bytes):
    assert_same(lambda lane: L.epilogue_read_map(lane, row_bytes), LANES)


def test_raster_tile_and_warp_tile_coord():
    pid, tm, tn = (a.ravel() for a in np.meshgrid(np.arange(40), np.arange(1, 8), np.arange(1, 6)))
    keep = pid < tm * tn
    for group in (1, 2, 3, 8):
        assert_same(lambda p, m, n: L.raster_tile(p, m, n, group), pid[keep], tm[keep], tn[keep])
    for warps_m in (1, 2, 4):
        assert_same(lambda w: L.warp_tile_coord(w, warps_m), np.arange(16))


@pytest.mark.parametrize("major", [L.K_MAJOR, L.MN_MAJOR])
@pytest.mark.parametrize("rows,bk,eb,w,threads", [
    (128, 32, 2, 16, 128), (64, 64, 2, 16, 128), (128, 32, 2, 2, 128), (96, 32, 2, 16, 128),
    (128, 64, 1, 4, 256), (64, 16, 4, 8, 96), (48, 32, 2, 16, 128),
])
def test_tile_copy_map_and_its_thread_iteration_split(rows, bk, eb, w, threads, major):
    iters = L.copy_iterations(rows, bk, eb, threads, w)
    t, it = np.meshgrid(np.arange(threads), np.arange(iters))
    # thread and iteration as IR values (the copy loop), and the iteration as an int (unrolled)
    assert_same(lambda tt, ii: L.tile_copy_map(tt, ii, threads, rows, bk, eb, major, w), t, it)
    for i in range(iters):
        assert_same(lambda tt: L.tile_copy_map(tt, i, threads, rows, bk, eb, major, w), np.arange(threads))
    if L.tile_copy_whole_lines(threads, rows, bk, eb, major, w):
        whole = L.tile_copy_map(t, it, threads, rows, bk, eb, major, w)
        lane = L.tile_copy_map(t, 0, threads, rows, bk, eb, major, w)
        it_part = L.tile_copy_map(0, it, threads, rows, bk, eb, major, w)
        for a, b, c in zip(whole, lane, it_part):
            assert np.array_equal(a, np.asarray(b) + c)


@pytest.mark.parametrize("rows,bk,eb", [(128, 32, 2), (64, 32, 2), (96, 32, 2), (64, 16, 4), (128, 64, 1)])
def test_tile_offsets(rows, bk, eb):
    r, k = (a.ravel() for a in np.meshgrid(np.arange(rows), np.arange(bk)))
    for swizzled in (False, True):
        assert_same(lambda rr, kk: L.mnmajor_tile_offset(rr, kk, rows, bk, eb, swizzled), r, k)
        assert_same(lambda rr, kk: L.kmajor_tile_offset(rr, kk, bk, eb, swizzled), r, k)
