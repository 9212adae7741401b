"""lasscc-pipeline: the threadblock K loop -> a software pipeline over a ring of SMEM stages.

Input contract: a kernel (`lass.kernel` on the function) whose K loop is the one
lasscc-tile-threadblock emits: `scf.for %k0 = 0 to %K step BK iter_args(%acc)` (a split-K
partition's `%k_begin to %k_end`, whole k-tiles: k-tile kt is at k_begin + kt * BK) with exactly
`lass_tb.load_tile A`, `lass_tb.load_tile B`, `lass_tb.mma`, `scf.yield` in its body.  Functions
without such a loop are left alone.

Output contract: two `lass_pipe.ring`s (A at offset 0, B after it; each stored K- or MN-major as
its lass_tb.tile was), a loop over k-tiles `kt`
(0 .. ceil(K / BK)) and the schedule of reference 001/002:

stages = S >= 3 (cp.async multistage):
    prologue   for s < S-1: copy_async tile s -> slot s (pred s < KT), commit
               wait {pending = S-2}; barrier            // tile 0 landed
    loop kt    copy_async tile kt+S-1 -> slot (kt+S-1)%S (pred kt+S-1 < KT); commit
               mma on slot kt%S
               wait {pending = S-2}; barrier            // tile kt+1 landed; slot kt%S is free
    drain      wait {pending = 0}
The wait and barrier close the iteration (rather than open it) so that lasscc-warp-mma can load
the next slot's first fragments right after them, overlapping the last mma.sync of this one.
stages = 2 (MmaPipelined, GMEM -> registers -> SMEM):
    prologue   load_regs tile 0; store_regs -> slot 0; barrier
    loop kt    load_regs tile kt+1 (pred kt+1 < KT: the clear_mask of the last iteration)
               mma on slot kt%2
               store_regs -> slot (kt+1)%2; barrier
One barrier per k-tile: it separates every write to a slot from the reads of the same slot in
the iteration before and after.  A false predicate zero-fills (cp.async src-size 0) or loads
zeros, so a K shorter than the prologue is still correct.

A `mma = "wgmma"` kernel (sm_90a) gets the TMA ring instead (CUTLASS's PipelineTmaAsync; the
verbs of lass_pipe's TMA ring): the rings as above (each slot a multiple of the swizzle pattern),
`lass_pipe.tma_pipeline` after them (lasscc.resources.wgmma_barrier_offset; every thread of the
block releases a slot: arrivals = the consumer threads), then with S = stages, tile t in slot t % S, phase
(t / S) % 2:
    (KT: the k-tiles of [0, K) or of a split-K partition's [k_begin, k_end), k-tile t at k_begin + t BK)
    prologue   for s < S-1: producer_acquire slot s (pred s < KT, tx = the stage's bytes);
               tma_load A and B -> slot s
    loop kt    consumer_wait slot kt%S, phase of kt
               mma on slot kt%S
               consumer_release slot (kt-1)%S (pred kt > 0)   // one k-tile late: lasscc-warpgroup-mma
                                                              // may keep one wgmma group in flight
               producer_acquire slot (kt+S-1)%S, phase of kt+S-1 (pred kt+S-1 < KT);
               tma_load A and B -> that slot                  // the slot released just above
A false predicate skips the acquire and the loads (TMA zero-fills past K and the matrix edges).

Rejected: a K loop of another form inside a kernel, stages < 2.
"""

from __future__ import annotations

from dataclasses import dataclass

from lasscc.dialects import lass_pipe, lass_tb
from lasscc.resources import ring_arrivals
from lasscc.dialects.lass import kernel_facts, operand_attr
from lasscc.passes._build import ArithBuilder, is_kernel, kernel_config
from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Block, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from lasscc.source import op_location


def _match_k_loop(loop: scf.ForOp):
    """(load A, load B, mma) if `loop` is tile-threadblock's K loop, else None."""
    ops = list(loop.body.block.ops)
    if len(ops) != 4 or not isinstance(ops[3], scf.YieldOp):
        return None
    la, lb, mma = ops[:3]
    if not (isinstance(la, lass_tb.LoadTileOp) and isinstance(lb, lass_tb.LoadTileOp) and isinstance(mma, lass_tb.MmaOp)):
        return None
    if la.operand.data != "A" or lb.operand.data != "B" or mma.a is not la.result or mma.b is not lb.result:
        return None
    if len(loop.iter_args) != 1 or mma.acc is not loop.body.block.args[1]:
        return None
    # the loop must walk k0 = 0, BK, 2*BK, ... < K and both tiles must start at k0
    iv, bk = loop.body.block.args[0], la.result.type.get_shape()[1]
    if la.k0 is not iv or lb.k0 is not iv or lb.result.type.get_shape()[1] != bk:
        return None
    if _const(loop.step) != bk or (_const(loop.lb) not in (0, None)):
        return None
    return la, lb, mma


def _const(v) -> int | None:
    op = v.owner
    if isinstance(op, arith.ConstantOp) and hasattr(op.value, "value"):
        return int(op.value.value.data)
    return None


@dataclass(frozen=True)
class PipelinePass(ModulePass):
    name = "lasscc-pipeline"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in list(op.walk()):
            if isinstance(fn, func.FuncOp) and is_kernel(fn):
                for loop in [o for o in fn.walk() if isinstance(o, scf.ForOp)]:
                    if any(isinstance(o, lass_tb.LoadTileOp) for o in loop.body.block.ops):
                        self._pipeline(fn, loop)

    def _pipeline(self, fn: func.FuncOp, loop: scf.ForOp) -> None:
        matched = _match_k_loop(loop)
        if matched is None:
            raise PassFailedException(
                f"{op_location(loop)}: error: expected the K loop of lasscc-tile-threadblock "
                "(k0 = 0 to K step BK; load_tile A and B at k0, mma, yield), got another form"
            )
        la, lb, _ = matched
        cfg = kernel_config(fn)
        if cfg.is_wgmma:
            self._tma_pipeline(fn, loop, cfg)
            return
        S = cfg.stages
        if S < 2:
            raise PassFailedException(f"{op_location(fn)}: error: expected stages >= 2, got {S}")
        # the ring shapes come from the tiles themselves; the config only gives the stage count
        (bm, bk), (bn, _) = la.result.type.get_shape(), lb.result.type.get_shape()
        elem = la.result.type.element_type
        major_a, major_b = la.result.type.major.data, lb.result.type.major.data  # K- or MN-major, kept
        ring_a_t = lass_pipe.RingType((S, bm, bk), elem, major_a)
        ring_b_t = lass_pipe.RingType((S, bn, bk), elem, major_b)
        A, B = la.source, lb.source  # the tiles' sources (batch views too)
        # the K range: [0, K), or a split-K partition's [k_begin, k_end) (whole k-tiles)
        k_lo = None if _const(loop.lb) == 0 else loop.lb
        m0, n0 = la.row0, lb.row0
        acc_init = loop.iter_args[0]

        b = ArithBuilder(InsertPoint.before(loop))
        ra = b.emit(lass_pipe.RingOp.build(result_types=[ring_a_t], attributes={"offset": IntegerAttr(0, 64)}))
        rb = b.emit(lass_pipe.RingOp.build(result_types=[ring_b_t],
                                        attributes={"offset": IntegerAttr(ring_a_t.tile_bytes() * S, 64)}))
        ra.name_hint, rb.name_hint = "ring_a", "ring_b"
        kt_count = b.div(b.add(loop.ub if k_lo is None else b.sub(loop.ub, k_lo), bk - 1), bk)
        kt_count.name_hint = "k_tiles"

        def copy(bld: ArithBuilder, tile, slot, pred, async_: bool):
            """Copy k-tile `tile` of A and B into ring slot `slot` (async or through registers)."""
            k0 = bld.mul(tile, bk) if k_lo is None else bld.add(k_lo, bld.mul(tile, bk))
            if async_:
                for src, row0, ring, name in ((A, m0, ra, "A"), (B, n0, rb, "B")):
                    bld.insert(lass_pipe.CopyAsyncOp.build(
                        operands=[src, row0, k0, ring, slot, pred], properties={"operand": operand_attr(name)}))
                bld.insert(lass_pipe.CommitOp.build())
                return None
            staged = []
            for src, row0, rows, name, major in ((A, m0, bm, "A", major_a), (B, n0, bn, "B", major_b)):
                staged.append(bld.emit(lass_pipe.LoadRegsOp.build(
                    operands=[src, row0, k0, pred], result_types=[lass_pipe.StagedType((rows, bk), elem, major)],
                    properties={"operand": operand_attr(name)})))
            return staged

        def store(bld: ArithBuilder, staged, slot):
            for val, ring in zip(staged, (ra, rb)):
                bld.insert(lass_pipe.StoreRegsOp.build(operands=[val, ring, slot]))

        # prologue
        if S >= 3:
            for s in range(S - 1):
                copy(b, b.const(s), b.const(s), b.ult(s, kt_count), True)
            b.insert(lass_pipe.WaitOp.build(attributes={"pending": IntegerAttr(S - 2, 64)}))
            b.insert(lass_pipe.BarrierOp.build())
        else:
            staged = copy(b, b.const(0), b.const(0), b.ult(0, kt_count), False)
            store(b, staged, b.const(0))
            b.insert(lass_pipe.BarrierOp.build())

        # steady state
        body = Block(arg_types=[i32, acc_init.type])
        kt, acc = body.args
        kt.name_hint, acc.name_hint = "kt", "acc"
        bb = ArithBuilder(InsertPoint.at_end(body))
        if S >= 3:
            nxt = bb.add(kt, S - 1)
            copy(bb, nxt, bb.rem(nxt, S), bb.ult(nxt, kt_count), True)
            slot = bb.rem(kt, S)
            slot.name_hint = "slot"
            acc1 = bb.emit(lass_pipe.MmaOp(ra, slot, rb, slot, acc))
            bb.insert(lass_pipe.WaitOp.build(attributes={"pending": IntegerAttr(S - 2, 64)}))
            bb.insert(lass_pipe.BarrierOp.build())
        else:
            nxt = bb.add(kt, 1)
            staged = copy(bb, nxt, None, bb.ult(nxt, kt_count), False)
            slot = bb.rem(kt, 2)
            slot.name_hint = "slot"
            acc1 = bb.emit(lass_pipe.MmaOp(ra, slot, rb, slot, acc))
            store(bb, staged, bb.rem(nxt, 2))
            bb.insert(lass_pipe.BarrierOp.build())
        bb.insert(scf.YieldOp(acc1))
        new_loop = b.insert(scf.ForOp(b.const(0), kt_count, b.const(1), [acc_init], Region(body)))
        if S >= 3:
            ArithBuilder(InsertPoint.after(new_loop)).insert(
                lass_pipe.WaitOp.build(attributes={"pending": IntegerAttr(0, 64)}))
        loop.results[0].replace_all_uses_with(new_loop.results[0])
        Rewriter.erase_op(loop)

    def _tma_pipeline(self, fn: func.FuncOp, loop: scf.ForOp, cfg) -> None:
        """The TMA ring of a wgmma kernel (see the module docstring)."""
        from lasscc.resources import wgmma_barrier_offset, wgmma_stage_tx_bytes
        from lasscc.layout import elem_bytes

        la, lb, _ = _match_k_loop(loop)
        S = cfg.stages
        (bm, bk), (bn, _) = la.result.type.get_shape(), lb.result.type.get_shape()
        elem = la.result.type.element_type
        eb = elem_bytes(kernel_facts(fn).ab_type)
        ring_a_t = lass_pipe.RingType((S, bm, bk), elem, la.result.type.major.data)
        ring_b_t = lass_pipe.RingType((S, bn, bk), elem, lb.result.type.major.data)
        A, B = la.source, lb.source
        # the K range: [0, K), or a split-K partition's [k_begin, k_end) (whole k-tiles)
        k_lo = None if _const(loop.lb) == 0 else loop.lb
        m0, n0 = la.row0, lb.row0
        acc_init = loop.iter_args[0]
        tx = IntegerAttr(wgmma_stage_tx_bytes(cfg, eb), 64)

        outer = _carry_ktiles(loop)  # a K loop per stream-K unit: one ring for all, k-tiles numbered across units
        b = ArithBuilder(InsertPoint.before(loop if outer is None else outer[0]))
        ra = b.emit(lass_pipe.RingOp.build(result_types=[ring_a_t], attributes={"offset": IntegerAttr(0, 64)}))
        rb = b.emit(lass_pipe.RingOp.build(result_types=[ring_b_t],
                                        attributes={"offset": IntegerAttr(ring_a_t.tile_bytes() * S, 64)}))
        ra.name_hint, rb.name_hint = "ring_a", "ring_b"
        bars = b.emit(lass_pipe.TmaPipelineOp.build(
            result_types=[lass_pipe.BarriersType(S)],
            attributes={"offset": IntegerAttr(wgmma_barrier_offset(cfg, eb), 64),
                        "arrivals": IntegerAttr(ring_arrivals(cfg), 64)}))
        bars.name_hint = "bars"
        b = ArithBuilder(InsertPoint.before(loop))
        kt_count = b.div(b.add(loop.ub if k_lo is None else b.sub(loop.ub, k_lo), bk - 1), bk)
        kt_count.name_hint = "k_tiles"

        base = None if outer is None else outer[1]  # k-tiles of the units before this one

        def ring_tile(bld: ArithBuilder, tile):
            """The k-tile's number in the ring (slot, phase): across the units."""
            return tile if base is None else bld.add(base, tile)

        def produce(bld: ArithBuilder, tile, pred) -> None:
            g = ring_tile(bld, tile)
            slot, phase = bld.rem(g, S), bld.rem(bld.div(g, S), 2)
            # k0 before the acquire: the acquire and its loads stay adjacent (lasscc-warpgroup-mma's thread-0 group)
            k0 = bld.mul(tile, bk) if k_lo is None else bld.add(k_lo, bld.mul(tile, bk))
            bld.insert(lass_pipe.ProducerAcquireOp.build(operands=[bars, slot, phase, pred], attributes={"tx": tx}))
            for src, row0, ring, name in ((A, m0, ra, "A"), (B, n0, rb, "B")):
                bld.insert(lass_pipe.TmaLoadOp.build(operands=[src, row0, k0, ring, slot, bars, pred],
                                                     properties={"operand": operand_attr(name)}))

        for s in range(S - 1):
            produce(b, b.const(s), b.ult(s, kt_count))

        body = Block(arg_types=[i32, acc_init.type])
        kt, acc = body.args
        kt.name_hint, acc.name_hint = "kt", "acc"
        bb = ArithBuilder(InsertPoint.at_end(body))
        g = ring_tile(bb, kt)
        slot = bb.rem(g, S)
        slot.name_hint = "slot"
        phase = bb.rem(bb.div(g, S), 2)
        phase.name_hint = "phase"
        bb.insert(lass_pipe.ConsumerWaitOp.build(operands=[bars, slot, phase]))
        acc1 = bb.emit(lass_pipe.MmaOp(ra, slot, rb, slot, acc))
        prev = bb.rem(bb.add(g, S - 1), S)
        # (across units: the unit before's last k-tile is released in this unit's first iteration)
        bb.insert(lass_pipe.ConsumerReleaseOp.build(operands=[bars, prev, bb.ult(0, g)]))
        nxt = bb.add(kt, S - 1)
        produce(bb, nxt, bb.ult(nxt, kt_count))
        bb.insert(scf.YieldOp(acc1))
        new_loop = b.insert(scf.ForOp(b.const(0), kt_count, b.const(1), [acc_init], Region(body)))
        loop.results[0].replace_all_uses_with(new_loop.results[0])
        Rewriter.erase_op(loop)
        if outer is not None:  # the next unit's k-tiles follow this one's
            yb = ArithBuilder(InsertPoint.before(outer[2]))
            outer[2].operands = [yb.add(base, kt_count)]


def _carry_ktiles(loop: scf.ForOp):
    """A TMA K loop directly inside another loop of the kernel (stream-K's units, lasscc.streamk):
    that loop rebuilt with one more i32 carried value, the k-tiles of its iterations before (0 at
    the start), so that one ring serves every iteration, its slots and phases running on (as the
    persistent tile loop's, passes/warp_specialize.py): (the new outer loop, its k-tile base, its
    scf.yield, to be given base + the K loop's k-tiles).  None for a K loop in the function body."""
    outer = loop.parent_op()
    if not isinstance(outer, scf.ForOp):
        return None
    if outer.iter_args:
        raise PassFailedException(f"{op_location(outer)}: error: expected the loop around the K loop (stream-K's "
                                  "units) to carry no values")
    old = outer.body.block
    body = Block(arg_types=[old.args[0].type, i32])
    body.args[0].name_hint, body.args[1].name_hint = old.args[0].name_hint, "kt_base"
    old.args[0].replace_all_uses_with(body.args[0])
    for o in list(old.ops):
        o.detach()
        body.add_op(o)
    new = scf.ForOp(outer.lb, outer.ub, outer.step, [ArithBuilder(InsertPoint.before(outer)).const(0)], Region(body))
    outer.parent_block().insert_op_before(new, outer)
    Rewriter.erase_op(outer)
    return new, body.args[1], body.last_op
