"""lasscc-warpgroup-mma: threadblock MMA of a `mma = "wgmma"` kernel -> per-thread warpgroup code.

Input contract: a pipelined wgmma kernel (lasscc-pipeline's TMA ring: `lass_pipe.mma` on ring
slots, `lass_pipe.producer_acquire` / `tma_load` / `consumer_wait` / `consumer_release`,
`!lass_tb.acc` values carried by `scf.for`, `lass_tb.zero_acc`, `lass_tb.block_tile`,
`lass_tb.epilogue`).  Kernels whose config is not `mma = "wgmma"`, or without `lass_pipe.mma`, are
left alone (lasscc-warp-mma takes the mma.sync ones); a `lass_tb.mma` is rejected.

Output contract: the program of one thread (as lasscc-warp-mma's, which this pass extends).
- warpgroup wg = tid / 128 (`lass_nv.warp_broadcast`: uniform for ptxas) computes rows 64 wg .. 64 wg + 63
  of the block tile, all BN columns (a pingpong consumer warpgroup the whole BM: with BM = 128 two wgmma
  per K step, rows 0..63 and 64..127, each with its own accumulators, `resources.wgmma_m_tiles`);
- the accumulator -> BN/2 values per thread (lass_wg: value v of thread t at
  sm90_layout.acc_coord(t % 128, v), the m16n8 C fragment of warp t / 32 at rows 16 (t / 32) of the
  block tile), carried by the loops;
- each `lass_pipe.mma` -> `lass_wg.fence`, one `lass_wg.mma` per wgmma K step of BK (rows 64 wg of
  the A slot, the whole B slot; with config `instruction = [64, N, K]`, N < BN: one per K step and
  accumulator chain c, B rows c N .. c N + N - 1 (`b_row`), resources.wgmma_chains), `lass_wg.commit`, `lass_wg.wait {pending = GROUPS_IN_FLIGHT}`
  (1: a group stays in flight across the next k-tile's consumer_wait): the group of the k-tile
  before is retired before lasscc-pipeline's one-tile-late consumer_release of its slot;
- the producer's ops (`producer_acquire` and its `tma_load`s) run in thread 0 only (`scf.if`);
  the consumer ops stay, executed by every thread;
- before `lass_tb.epilogue`: `lass_wg.wait {pending = 0}` (stream-K: also right after the K loop,
  before `lass_tb.partial_store` / `partial_add` read the accumulator, and a block barrier
  closing each unit: the next unit's prologue refills the ring a 16-bit D's epilogue staged through); the epilogue is lasscc-warp-mma's
  per-thread one at the accumulator coordinates (predicated stores at the edges, beta != 0 branch,
  the staged epilogue for a 16-bit D), since the warpgroup's accumulator layout is that of four
  16 x BN warp tiles; with config `epilogue = "tma"` its no-C branch is the TMA-store epilogue
  (passes/tma_store.py: stmatrix / st.shared into staging buffers, `lass_wg.tma_store`);
- `lass_tb.block_tile` / `batch_index` as lasscc-warp-mma;
- `lass_tb.cluster_reduce` (cluster split-K): passes/cluster_splitk.py, after a `lass_wg.wait {pending = 0}`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from lasscc.dialects import lass_nv, lass_pipe, lass_tb, lass_wg
from lasscc.passes._build import ArithBuilder, is_kernel, kernel_config
from lasscc.passes.warp_mma import _WarpLowering
from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Block, OpResult, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException

from lasscc.passes.tma_store import tma_store_epilogue
from lasscc.resources import EPILOGUE_TMA, WGMMA_M, is_pingpong, warpgroup_rows, wgmma_chains, wgmma_k, wgmma_m_tiles
from lasscc.layout import MMA_M
from lasscc.source import op_location

# wgmma groups kept in flight after each k-tile's commit: the k-tile's wgmmas overlap the next
# k-tile's consumer_wait.  At most 1: the in-loop wait must retire the group of the k-tile before
# ahead of lasscc-pipeline's one-tile-late consumer_release of its slot (the CPU executor raises an
# AsyncHazardError on a release of a slot an unretired group reads).  passes/lower_sm90.py
# `_retire` pins the loop body's group, retired by the wait after the loop, through the loop results.
GROUPS_IN_FLIGHT = 1


def warp_view(cfg):
    """The mma.sync-shaped config whose warp-level accumulator layout is the warpgroups': warp
    tiles of MMA_M x BN stacked along M (warp w at rows 16 w), so lasscc-warp-mma's epilogue and
    loop rewriting serve the wgmma accumulator unchanged.  A warpgroup of several m64 tiles
    (`resources.wgmma_m_tiles`: a 128-row pingpong consumer) gives each warp one m16 band per
    m64, WGMMA_M rows apart (`_WarpgroupLowering` sets the band distance): a warp tile of
    MMA_M x m-tiles rows, its accumulators m64 by m64 (each wgmma's BN/2 values in turn)."""
    bm, bn, bk = cfg.threadblock
    return replace(cfg, mma="mma.sync", warp=(MMA_M * wgmma_m_tiles(cfg), bn, bk),
                   instruction=(MMA_M, 8, cfg.instruction[2]))


class _WarpgroupLowering(_WarpLowering):
    # (_WarpLowering.FOLD_ALPHA) with tma_store.UNPREDICATED_WINDOWS: bias + GELU f16 D +3.1 -> +2.4 %
    # over the plain kernel at 4096³, f32 D +2.3 -> +0.5 % (BENCHMARKS.md session 14, epi18d)
    FOLD_ALPHA = True

    def __init__(self, fn: func.FuncOp, cfg):
        super().__init__(fn, warp_view(cfg))
        self.wg_cfg = cfg
        b = ArithBuilder(InsertPoint.after(self.tid.owner))
        self.m_tiles = wgmma_m_tiles(cfg)
        # the warpgroup index broadcast from lane 0: warp-uniform for ptxas, so the wgmma descriptors
        # built from this row offset stay in uniform registers (no R2UR before each wgmma)
        wg = b.emit(lass_nv.WarpBroadcastOp.build(operands=[b.shr(self.tid, 7)], result_types=[i32]))
        self.a_row = b.mul(wg, warpgroup_rows(cfg))
        self.a_row.name_hint = "wg_m0"
        # the first row of each m64 of the warpgroup's tile (loop-invariant: built once, here)
        self.a_rows = [self.a_row] + [b.add(self.a_row, i * WGMMA_M) for i in range(1, self.m_tiles)]
        if self.m_tiles > 1:  # warp w: rows 16 w of each m64 of the warpgroup's tile
            self.wm0 = b.mul(b.shr(self.tid, 5), MMA_M)
            self.wm0.name_hint = "warp_m0"
            self.band_rows = WGMMA_M

    def mma(self, op: lass_pipe.MmaOp) -> None:
        b = ArithBuilder(InsertPoint.before(op))
        acc = list(self.accumulator(op.acc, op))
        kk = wgmma_k(self.ab)
        b.insert(lass_wg.FenceOp())
        per = len(acc) // self.m_tiles  # one m64's accumulators (BN/2 values)
        chains = wgmma_chains(self.wg_cfg)
        n, cper = self.wg_cfg.instruction[1], per // chains  # one chain's B rows and accumulators
        for k in range(0, self.wg_cfg.threadblock[2], kk):
            for i, row in enumerate(self.a_rows):  # each m64 of the warpgroup's rows per K step (CUTLASS's order)
                for c in range(chains):  # then each chain of the m64's columns (cuBLAS's 64x128 pairs)
                    lo = i * per + c * cper
                    acc[lo:lo + cper] = b.insert(lass_wg.MmaOp(op.a, op.slot_a, row, op.b, op.slot_b, k,
                                                               acc[lo:lo + cper], b_row=c * n)).results
        b.insert(lass_wg.CommitOp())
        b.insert(lass_wg.WaitOp.build(attributes={"pending": IntegerAttr(GROUPS_IN_FLIGHT, 64)}))
        self.acc[op.result] = acc
        self.dead.append(op)

    def tma_store(self, op, values, row0, col0, preload):
        """config epilogue = "tma": the TMA-store epilogue (passes/tma_store.py) for the no-C branch."""
        if self.wg_cfg.epilogue != EPILOGUE_TMA:
            return None
        return tma_store_epilogue(self, op, values, row0, col0, preload)

    def shares_direct(self) -> bool:
        """warp_mma.SHARED_DIRECT, but not in a pingpong kernel: its epilogue runs alone, in the ordering
        barrier's turn, and the shared copy's per-load beta != 0 test cost it 5-6 % at beta != 0
        (BENCHMARKS.md session 15); it keeps the copies with and without C."""
        return not is_pingpong(self.wg_cfg)

    def epilogue(self, op: lass_tb.EpilogueOp) -> None:
        ArithBuilder(InsertPoint.before(op)).insert(lass_wg.WaitOp.build(attributes={"pending": IntegerAttr(0, 64)}))
        super().epilogue(op)

    def cluster_reduce(self, op) -> None:
        """Cluster split-K's reduction (passes/cluster_splitk.py) reads the accumulator: the K
        loop's wgmma groups retired first."""
        from lasscc.passes.cluster_splitk import lower_reduce

        acc = self.accumulator(op.acc, op)
        ArithBuilder(InsertPoint.before(op)).insert(lass_wg.WaitOp.build(attributes={"pending": IntegerAttr(0, 64)}))
        self.acc[op.result] = lower_reduce(self, op, acc)
        self.dead.append(op)

    def partial(self, op) -> None:
        """Stream-K's partial_store / partial_add read the accumulator: the K loop's wgmma groups
        retired first, by a `lass_wg.wait {pending = 0}` right after it (one for both branches)."""
        v = self.accumulator(op.acc, op)[0]
        while not isinstance(v, OpResult) and isinstance(v.owner.parent_op(), scf.ForOp):  # the adds' carried sum
            v = v.owner.parent_op().iter_args[v.index - 1]
        kloop = v.owner
        if not isinstance(kloop, scf.ForOp):
            raise PassFailedException(f"{op_location(op)}: error: expected the accumulator of a K loop "
                                      f"(scf.for), got one from '{kloop.name}'")
        nxt = kloop.next_op
        if not (isinstance(nxt, lass_wg.WaitOp) and nxt.pending.value.data == 0):
            ArithBuilder(InsertPoint.after(kloop)).insert(lass_wg.WaitOp.build(attributes={"pending": IntegerAttr(0, 64)}))
        super().partial(op)

    def run(self) -> None:
        super().run()
        # stream-K's unit loop (the ring carried across its units, lasscc-pipeline): the next unit's
        # prologue refills the ring, through which a 16-bit D's epilogue stages (resources.stage_plan),
        # so every thread is past its epilogue first
        for units in [o for o in self.fn.body.block.ops if isinstance(o, scf.ForOp)]:
            if any(isinstance(k, scf.ForOp) and any(isinstance(o, lass_pipe.ConsumerWaitOp) for o in k.body.block.ops)
                   for k in units.body.block.ops):  # (a loop around the K loop)
                units.body.block.insert_op_before(lass_nv.BarSyncOp(), units.body.block.last_op)
        # the producer's acquire and its TMA loads: thread 0 only
        for acq in [o for o in self.fn.walk() if isinstance(o, lass_pipe.ProducerAcquireOp)]:
            group, cur = [acq], acq.next_op
            while cur is not None and not isinstance(cur, (lass_pipe.ProducerAcquireOp, scf.YieldOp)):
                if isinstance(cur, lass_pipe.TmaLoadOp):
                    group.append(cur)
                elif not isinstance(cur, arith.MuliOp):  # the loads' k0 (left outside, before the if)
                    break
                cur = cur.next_op
            b = ArithBuilder(InsertPoint.after(group[-1]))
            is0 = b.emit(arith.CmpiOp(self.tid, b.const(0), "eq"))
            body = Block()
            for o in group:
                o.detach()
                body.add_op(o)
            body.add_op(scf.YieldOp())
            b.insert(scf.IfOp(is0, [], Region(body)))


@dataclass(frozen=True)
class WarpgroupMmaPass(ModulePass):
    name = "lasscc-warpgroup-mma"

    def apply(self, ctx: Context, op: ModuleOp) -> bool:
        """Lower every wgmma kernel; False when there was none (the driver skips the tidy-up)."""
        changed = False
        for fn in list(op.walk()):
            if not (isinstance(fn, func.FuncOp) and is_kernel(fn)):
                continue
            cfg = kernel_config(fn)
            if not cfg.is_wgmma:
                continue
            tb = next((o for o in fn.walk() if isinstance(o, lass_tb.MmaOp)), None)
            if tb is not None:
                raise PassFailedException(
                    f"{op_location(tb)}: error: expected lass_pipe.mma on ring slots (run lasscc-pipeline first), got lass_tb.mma")
            if any(isinstance(o, lass_pipe.MmaOp) for o in fn.walk()):
                _WarpgroupLowering(fn, cfg).run()
                changed = True
        return changed
