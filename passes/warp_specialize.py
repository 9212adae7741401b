"""lasscc-warp-specialize: a `schedule = "cooperative"` or `"pingpong"` wgmma kernel -> producer and consumer roles.

Input contract: lasscc-warpgroup-mma's per-thread code of a `mma = "wgmma"` kernel whose config
has `schedule = "cooperative"`: the TMA ring's producer ops (`lass_pipe.producer_acquire` and its
`tma_load`s) in `scf.if` blocks of thread 0 (the prologue's S - 1 and one in the K loop), the
K loop (`scf.for` with the `consumer_wait`) and the epilogue executed by every thread.  Kernels of
another schedule, and kernels that already have their roles, are left alone; a cooperative kernel
whose producer ops are not thread 0's `scf.if`s of the function body and its K loop (lasscc-pipeline
and lasscc-warpgroup-mma not run, or a K loop of another form) is rejected.

Output contract (CUTLASS's KernelTmaWarpSpecializedCooperative): the block has 128 more threads
(lasscc.resources.wgmma_threads), warpgroup 0 the producer, warpgroups 1.. the consumers:
- `lass_wg.warp_specialize %tid < 128 producer {...} consumer {...}` after the kernel's common
  prefix (tile coordinates, rings, the TMA pipeline's barriers: initialised before it, by all);
- producer: `lass_wg.setmaxnreg dec PRODUCER_REGS`, then thread 0 (the first warp's elected thread)
  walks every k-tile kt of the K loop's range: producer_acquire slot kt % S with phase (kt / S) % 2
  (it waits until the consumers released the slot's previous use), tma_load A and B into it;
- consumer: `lass_wg.setmaxnreg inc CONSUMER_REGS`, then the kernel's K loop and epilogue as
  lasscc-warpgroup-mma wrote them without the producer ops; every use of the thread id there and
  in the prefix is `tid - 128` (the consumers' own numbering: warpgroup 1 takes rows 0..63);
  a block barrier (`lass_nv.bar_sync`, the staged epilogue's) becomes `lass_wg.named_barrier
  {id = 1, threads = consumers}`: the producer does not take part.
- `persistent = 1`: each role loops over this CTA's tiles (blockIdx.x, + %nctaid.x, ...;
  `lass_sched.cta_count`), the prefix's tile coordinates cloned into each loop, the k-tile number
  carried across tiles (the ring's slots and phases run on); the consumers `lass_sched.claim` each
  tile.  With `cluster` (lasscc.cluster): the loops walk cluster tiles from %clusterid.x to the
  cluster tiles in steps of %nctaid.x / cluster size, the prefix's coordinates (rank_tile of
  %clusterid.x and %cluster_ctarank) cloned with the loop's cluster tile; the consumers claim
  cluster.claim_tile (the rank's tile).  Rejected: a staged (16-bit D) epilogue, which stages through the ring the producer is
  already refilling (the TMA-store epilogue, config epilogue = "tma", stages apart from it), and a
  grid with y or z (split-K, batches).
- `schedule = "pingpong"` (CUTLASS's KernelTmaWarpSpecializedPingpong, BM = 64 or 128 rows per
  consumer tile: lasscc-warpgroup-mma already made one warpgroup compute the whole tile): the roles walk
  tiles as persistent (the producer every tile of the CTA); the consumers number themselves
  tid % 128 and each consumer warpgroup c = tid / 128 - 1 runs its own tile loop over the CTA's
  tiles c, c + 2, ... (`lass_wg.warp_specialize {independent_consumers}`), its k-tiles numbered
  from c x k-tiles on in steps of two tiles; thread 0 initialises the ordering barrier's mbarriers
  before the roles (then bar.sync); per tile: mbarrier_wait_parity on its mainloop barrier, the K
  loop (its release of k-tile kt - 1 only after the tile's first k-tile), mbarrier_arrive on the
  other consumer's; wgmma wait {0}, the release of the last k-tile's slot; the same wait / arrive
  around the epilogue; the order parity carried per tile (lasscc.schedule has every formula).
The empty barriers expect the arrivals of the consumer threads of a k-tile (lasscc-pipeline,
lasscc.resources.ring_arrivals); the register budgets are lasscc.resources.role_budget.
"""

from __future__ import annotations

from dataclasses import dataclass

from lasscc import cluster as CL
from lasscc import schedule as SCH
from lasscc.dialects import lass_cluster, lass_nv, lass_pipe, lass_sched, lass_wg
from lasscc.layout import elem_bytes
from lasscc.dialects.lass import kernel_facts
from lasscc.passes._build import ArithBuilder, is_kernel, kernel_ab_type, kernel_arg, kernel_config
from lasscc.resources import (
    EPILOGUE_TMA,
    WARPGROUP_THREADS,
    is_pingpong,
    is_warp_specialized,
    order_barrier_offset,
    role_budget,
    stage_plan,
    walks_tiles,
    wgmma_consumer_threads,
)
from lasscc.source import op_location
from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, UnitAttr, i32
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException

CONSUMER_BARRIER_ID = 1  # named barrier of the consumer warpgroups (0 is the block's)


def _producer_ifs(fn: func.FuncOp) -> list[scf.IfOp]:
    return [o for o in fn.walk() if isinstance(o, scf.IfOp)
            and any(isinstance(x, lass_pipe.ProducerAcquireOp) for x in o.true_region.block.ops)]


def _fail(op: Operation, msg: str):
    raise PassFailedException(f"{op_location(op)}: error: {msg}")


class _Specialize:
    def __init__(self, fn: func.FuncOp, cfg):
        self.fn, self.cfg = fn, cfg

    def run(self) -> None:
        fn = self.fn
        body = fn.body.block
        acq = next((o for o in fn.walk() if isinstance(o, lass_pipe.ProducerAcquireOp)), None)
        if acq is None:
            return  # no TMA ring yet (before lasscc-pipeline): nothing to split
        if self.cfg.is_streamk:
            self._streamk(acq)
            return
        ifs = _producer_ifs(fn)
        loop = next((o for o in body.ops if isinstance(o, scf.ForOp)
                     and any(isinstance(x, lass_pipe.ConsumerWaitOp) for x in o.body.block.ops)), None)
        if acq.parent_op() not in ifs:
            _fail(acq, "expected the producer ops in thread 0's scf.if blocks (run lasscc-warpgroup-mma first)")
        if loop is None:
            _fail(acq, "expected the K loop (scf.for with lass_pipe.consumer_wait) in the function body")
        first = ifs[0]
        if first.parent_block() is not body:
            _fail(first, "expected the first producer block in the function body (the pipeline's prologue)")
        for o in ifs:
            if o.parent_block() not in (body, loop.body.block):
                _fail(o, "expected the producer blocks in the prologue and the K loop")
        tid_op = next((o for o in fn.walk() if isinstance(o, lass_nv.ThreadIdOp)), None)
        if tid_op is None:
            _fail(fn, "expected lass_nv.thread_id in a per-thread kernel")
        template = [o for o in first.true_region.block.ops if not isinstance(o, scf.YieldOp)]
        tmpl_acq = template[0]
        loads = [o for o in template if isinstance(o, lass_pipe.TmaLoadOp)]
        if not isinstance(tmpl_acq, lass_pipe.ProducerAcquireOp) or len(loads) != len(template) - 1 or not loads:
            _fail(first, "expected a producer block of one producer_acquire and its tma_loads")
        # every value the producer needs must be defined before the split (the common prefix)
        for v in [loop.lb, loop.ub, tmpl_acq.barriers] + [x for ld in loads for x in (ld.source, ld.row0, ld.ring)]:
            owner = v.owner
            if isinstance(owner, Operation) and not (owner.parent_block() is body and body.get_operation_index(owner)
                                                       < body.get_operation_index(first)):
                _fail(owner, "expected the producer's operands (tile coordinates, rings, barriers, the K loop's "
                             "bounds) defined before the pipeline's prologue")
        tid = tid_op.results[0]
        pingpong = is_pingpong(self.cfg)
        # the consumers number themselves from 0: every existing use of the thread id takes tid - 128
        # (pingpong: tid % 128, each consumer warpgroup computing a whole BM = 64 tile of its own)
        ws, prod_blk, cons_blk, ctid = self._split(tid, first, pingpong)
        for o in ifs:
            o.detach()
            o.erase(safe_erase=False)
        p_regs, c_regs = role_budget(self.cfg)
        cons_blk.insert_op_before(lass_wg.SetMaxNRegOp("inc", c_regs), cons_blk.first_op)
        # the barrier's threads: every consumer, but in the pingpong schedule one consumer warpgroup
        # (the TMA-store epilogue's, run by one consumer at a time in the ordering barrier's turn)
        n_cons = WARPGROUP_THREADS if pingpong else wgmma_consumer_threads(self.cfg)
        staged = [o for o in cons_blk.walk() if isinstance(o, lass_nv.BarSyncOp)]
        if staged and walks_tiles(self.cfg) and self.cfg.epilogue != EPILOGUE_TMA:  # the TMA store's staging is its own
            what = f"schedule = \"{self.cfg.schedule}\"" if pingpong else "persistent = 1"
            _fail(staged[0], f"{what}: the staged epilogue of a 16-bit D stages through the operand ring, which "
                             "the producer refills for the next tile meanwhile; use "
                             + ("an f32 D" if pingpong else "epilogue = \"tma\" (staging buffers of its own), an f32 D or persistent = 0"))
        for bar in staged:
            bar.parent_block().insert_op_before(lass_wg.NamedBarrierOp.build(attributes={
                "id": IntegerAttr(CONSUMER_BARRIER_ID, 64), "threads": IntegerAttr(n_cons, 64)}), bar)
            bar.detach()
            bar.erase()
        sched = self._scheduler(fn, ws) if walks_tiles(self.cfg) else None
        self._producer(prod_blk, tid, loop, tmpl_acq, loads, p_regs, sched)
        if pingpong:
            self._pingpong_consumers(cons_blk, loop, sched, tid, self._order_barriers(fn, ws, tid))
        elif sched is not None:
            self._consumer_tiles(cons_blk, loop, sched, ctid)

    def _split(self, tid, before: Operation, pingpong: bool = False):
        """The roles' op before `before`: the consumers number their threads tid - 128 (pingpong:
        tid % 128, with the op's independent_consumers), every op from `before` to the return moves
        into the consumer block.  Returns (ws, producer block, consumer block, the consumers' tid)."""
        b = ArithBuilder(InsertPoint.after(tid.owner))
        ctid = b.rem(tid, WARPGROUP_THREADS) if pingpong else b.sub(tid, WARPGROUP_THREADS)
        ctid.name_hint = "ctid"
        for use in list(tid.uses):
            if use.operation is not ctid.owner:
                use.operation.operands[use.index] = ctid
        b = ArithBuilder(InsertPoint.before(before))
        is_prod = b.emit(arith.CmpiOp(tid, b.const(WARPGROUP_THREADS), "ult"))
        ws = lass_wg.WarpSpecializeOp.build(operands=[is_prod], regions=[Region(Block()), Region(Block())],
                                            attributes={"independent_consumers": UnitAttr()} if pingpong else {})
        b.insert(ws)
        cons_blk = ws.consumer.block
        cur = ws.next_op
        while cur is not None and not isinstance(cur, func.ReturnOp):
            nxt = cur.next_op
            cur.detach()
            cons_blk.add_op(cur)
            cur = nxt
        return ws, ws.producer.block, cons_blk, ctid

    def _streamk(self, acq) -> None:
        """A stream-K kernel (lasscc.streamk; lasscc-pipeline carried its ring across the unit loop):
        the consumers run the unit loop as it is, less the producer blocks; the producer's thread 0
        walks the same units (the unit loop's coordinate ops cloned: one formula, lasscc.streamk.unit)
        and loads every k-tile of each, numbered across the units as the consumers number them."""
        fn = self.fn
        body = fn.body.block

        def k_loop_of(blk):
            return next((k for k in blk.ops if isinstance(k, scf.ForOp)
                         and any(isinstance(x, lass_pipe.ConsumerWaitOp) for x in k.body.block.ops)), None)

        units = next((o for o in body.ops if isinstance(o, scf.ForOp) and len(o.iter_args) == 1
                      and k_loop_of(o.body.block) is not None), None)
        if units is None:
            _fail(acq, "expected stream-K's unit loop in the function body around the K loop, carrying the ring's "
                       "k-tile base (lasscc-pipeline)")
        ublk = units.body.block
        kloop = k_loop_of(ublk)
        ifs = _producer_ifs(fn)
        for o in ifs:
            if o.parent_block() not in (ublk, kloop.body.block):
                _fail(o, "expected the producer blocks in the unit loop's prologue and the K loop")
        first = ifs[0]
        template = [o for o in first.true_region.block.ops if not isinstance(o, scf.YieldOp)]
        tmpl_acq, loads = template[0], [o for o in template if isinstance(o, lass_pipe.TmaLoadOp)]
        if not isinstance(tmpl_acq, lass_pipe.ProducerAcquireOp) or len(loads) != len(template) - 1 or not loads:
            _fail(first, "expected a producer block of one producer_acquire and its tma_loads")
        k_lo = loads[0].k0.owner
        if not isinstance(k_lo, arith.AddiOp):
            _fail(loads[0], "expected the k-tile's K offset k_begin + t * BK (lasscc-pipeline)")
        k_lo = k_lo.operands[0]
        staged = stage_plan(self.cfg, kernel_ab_type(fn), elem_bytes(kernel_facts(fn).d_type)) is not None
        if staged and self.cfg.epilogue != EPILOGUE_TMA:
            _fail(units, f"split_k_mode = \"{self.cfg.split_k_mode}\" with schedule = \"{self.cfg.schedule}\": the "
                         "staged epilogue of a 16-bit D stages through the operand ring, which the producer refills "
                         "for the next unit meanwhile; use epilogue = \"tma\" (staging buffers of its own) or an f32 D")
        tid_op = next((o for o in fn.walk() if isinstance(o, lass_nv.ThreadIdOp)), None)
        if tid_op is None:
            _fail(fn, "expected lass_nv.thread_id in a per-thread kernel")
        tid = tid_op.results[0]
        ws, prod_blk, cons_blk, _ = self._split(tid, units)
        for o in ifs:
            o.detach()
            o.erase(safe_erase=False)
        p_regs, c_regs = role_budget(self.cfg)
        cons_blk.insert_op_before(lass_wg.SetMaxNRegOp("inc", c_regs), cons_blk.first_op)
        n_cons = wgmma_consumer_threads(self.cfg)
        for bar in [o for o in cons_blk.walk() if isinstance(o, lass_nv.BarSyncOp)]:  # the consumers' barriers
            bar.parent_block().insert_op_before(lass_wg.NamedBarrierOp.build(attributes={
                "id": IntegerAttr(CONSUMER_BARRIER_ID, 64), "threads": IntegerAttr(n_cons, 64)}), bar)
            bar.detach()
            bar.erase()
        # the producer: the same unit loop, its coordinates cloned from the consumers'
        prod_blk.add_op(lass_wg.SetMaxNRegOp("dec", p_regs))
        b = ArithBuilder(InsertPoint.at_end(prod_blk))
        then = Block()
        b.insert(scf.IfOp(b.emit(arith.CmpiOp(tid, b.const(0), "eq")), [], Region(then)))
        ub = Block(arg_types=[i32, i32])
        ub.args[0].name_hint, ub.args[1].name_hint = "unit", "kt_base"
        tb = ArithBuilder(InsertPoint.at_end(then))
        then.add_op(scf.ForOp(units.lb, units.ub, units.step, [tb.const(0)], Region(ub)))
        then.add_op(scf.YieldOp())
        need = {l.row0 for l in loads} | {k_lo, kloop.ub}
        slice_ops = []
        for o in reversed(list(ublk.ops)[:ublk.get_operation_index(kloop)]):
            if any(r in need for r in o.results):
                if o.regions:
                    _fail(o, "expected the unit's coordinates computed by plain ops")
                slice_ops.append(o)
                need.update(o.operands)
        mapping = {ublk.args[0]: ub.args[0]}
        for o in reversed(slice_ops):
            c = o.clone(value_mapper=mapping)
            for r0, r1 in zip(o.results, c.results):
                mapping[r0] = r1
                r1.name_hint = r0.name_hint
            ub.add_op(c)
        base = ub.args[1]
        S = tmpl_acq.barriers.type.count
        bk = self.cfg.threadblock[2]
        kbody = Block(arg_types=[i32])
        kt = kbody.args[0]
        kt.name_hint = "kt"
        kt_count = mapping.get(kloop.ub, kloop.ub)
        ubb = ArithBuilder(InsertPoint.at_end(ub))
        ubb.insert(scf.ForOp(ubb.const(0), kt_count, ubb.const(1), [], Region(kbody)))
        ubb.insert(scf.YieldOp(ubb.add(base, kt_count)))
        kb = ArithBuilder(InsertPoint.at_end(kbody))
        g = kb.add(base, kt)  # the k-tile's number in the ring, as the consumers number it
        _issue_ktile(kb, g, lambda b: b.add(mapping.get(k_lo, k_lo), b.mul(kt, bk)), S, tmpl_acq, loads, mapping)

    def _scheduler(self, fn: func.FuncOp, ws: Operation) -> dict:
        """The persistent loop's parts, built before the roles: the tile count, this CTA's first
        tile (its block id) and the CTA count (the stride), and the prefix's ops that derive from
        the block id (the tile's coordinates: cloned into each role's tile loop).  A clustered
        kernel (lasscc.cluster) walks cluster tiles instead: from %clusterid.x (its super-tile in
        the prefix's rank_tile) over the super-tiles, stepping by the clusters (CTAs / cluster
        size); each CTA claims its rank's tile of it (cluster.claim_tile)."""
        body = fn.body.block
        cl = tuple(self.cfg.cluster)
        clustered = cl != CL.CLUSTER_NONE
        src_cls = lass_cluster.ClusterIdOp if clustered else lass_nv.BlockIdOp
        bid = next((o for o in body.ops if isinstance(o, src_cls)
                    and (clustered or o.dim.data.value == "x")), None)
        if bid is None or any(isinstance(o, lass_nv.BlockIdOp) and o.dim.data.value != "x" for o in fn.walk()):
            _fail(ws, f"{self.walker}: expected one grid dimension ("
                      + ("%clusterid.x" if clustered else "blockIdx.x") + ": no batch, no split-K)")
        rank = None
        if clustered:
            rank = next((o.results[0] for o in body.ops if isinstance(o, lass_cluster.CtaRankOp)), None)
            if rank is None:
                _fail(ws, f"{self.walker}: expected the cluster's %cluster_ctarank in the prefix (lasscc-warp-mma's tile)")
        dep, slice_ops = set(bid.results), []
        for o in body.ops:
            if o is ws:
                break
            if o is not bid and any(x in dep for x in o.operands):
                if o.regions:
                    _fail(o, f"{self.walker}: expected the tile coordinates computed by plain ops")
                slice_ops.append(o)
                dep.update(o.results)
        bm, bn, _ = self.cfg.threadblock
        b = ArithBuilder(InsertPoint.before(ws))
        M, N = kernel_arg(fn, "M"), kernel_arg(fn, "N")
        tm, tn = b.div(b.add(M, bm - 1), bm), b.div(b.add(N, bn - 1), bn)
        tiles = b.val(CL.super_tiles(b.idx(tm), b.idx(tn), cl)) if clustered else b.mul(tm, tn)
        tiles.name_hint = "cluster_tiles" if clustered else "tiles"
        ctas = b.emit(lass_sched.CtaCountOp.build(result_types=[i32]))
        ctas.name_hint = "ctas"
        if clustered:  # the clusters of the launch (%nctaid.x / cluster size)
            ctas = b.div(ctas, CL.size(cl))
            ctas.name_hint = "clusters"
        return {"bid": bid.results[0], "tiles": tiles, "ctas": ctas, "slice": slice_ops, "rank": rank}

    def _claim(self, blk: Block, sched: dict, tile) -> None:
        """`lass_sched.claim` of the tile this CTA computes at loop index `tile` (a clustered
        kernel's: its rank's tile of cluster tile `tile`)."""
        if sched["rank"] is not None:
            b = ArithBuilder(InsertPoint.at_end(blk))
            tile = b.val(CL.claim_tile(b.idx(tile), b.idx(sched["rank"]), tuple(self.cfg.cluster)))
        blk.add_op(lass_sched.ClaimOp.build(operands=[tile]))

    @staticmethod
    def _tile_loop(blk: Block, sched: dict, before: Operation | None = None, start=None, step=None, inits=None):
        """`scf.for %tile = blockIdx.x to tiles step ctas iter_args(%base = 0)` at the end of `blk`
        (or before `before`; `start` / `step` / `inits` replace blockIdx.x / ctas / [0]), with the
        tile's coordinates cloned at the top of its body; returns (the loop, its body, %base, the
        value map of the coordinates)."""
        ip = InsertPoint.before(before) if before is not None else InsertPoint.at_end(blk)
        inits = inits if inits is not None else [ArithBuilder(ip).const(0)]
        body = Block(arg_types=[i32] * (1 + len(inits)))
        tile, base = body.args[:2]
        tile.name_hint, base.name_hint = "tile", "kt_base"
        loop = scf.ForOp(start if start is not None else sched["bid"], sched["tiles"],
                         step if step is not None else sched["ctas"], inits, body)
        ArithBuilder(ip).insert(loop)
        mapping = {sched["bid"]: tile}
        for o in sched["slice"]:
            c = o.clone(value_mapper=mapping)
            for r0, r1 in zip(o.results, c.results):
                mapping[r0] = r1
                r1.name_hint = r0.name_hint
            body.add_op(c)
        return loop, body, base, mapping

    @staticmethod
    def _remap(loop: Operation, mapping: dict) -> None:
        """Uses inside `loop` of the prefix's coordinates -> the loop's clones."""
        for old, new in mapping.items():
            for use in list(old.uses):
                if use.operation is not loop and loop.is_ancestor(use.operation) and use.operation is not new.owner:
                    use.operation.operands[use.index] = new

    def _consumer_tiles(self, blk: Block, kloop: scf.ForOp, sched: dict, ctid) -> None:
        """The consumers' ops after their setmaxnreg, once per tile of this CTA: the K loop over
        the global k-tile index base + lb .. base + ub (slots and phases carried across tiles; the
        last k-tile's slot is released in the next tile's first iteration, one k-tile late as ever);
        with the TMA-store epilogue, its store tail after the loop (consumer thread `ctid` 0)."""
        ops = list(blk.ops)[1:]
        loop, body, base, mapping = self._tile_loop(blk, sched, before=ops[0])
        self._claim(body, sched, body.args[0])
        for o in ops:
            o.detach()
            body.add_op(o)
        self._remap(loop, mapping)
        b = ArithBuilder(InsertPoint.before(kloop))
        lb, ub = kloop.lb, kloop.ub
        kloop.operands[0] = b.add(base, lb)
        kloop.operands[1] = b.add(base, ub)
        nb = ArithBuilder(InsertPoint.at_end(body))
        nb.insert(scf.YieldOp(nb.add(base, nb.sub(ub, lb))))
        if self.cfg.epilogue == EPILOGUE_TMA:
            from lasscc.passes.tma_store import store_tail

            store_tail(ArithBuilder(InsertPoint.after(loop)), ctid)

    def _order_barriers(self, fn: func.FuncOp, ws: Operation, tid) -> int:
        """The pingpong ordering barrier, before the roles: thread 0 initialises its mbarriers (one
        per stage and consumer, each expecting one warpgroup's arrivals) after the ring's, then
        the block synchronises (the inits visible before any use).  Returns its byte offset."""
        off = order_barrier_offset(self.cfg, elem_bytes(kernel_ab_type(fn)))
        b = ArithBuilder(InsertPoint.before(ws))
        then = Block()
        b.insert(scf.IfOp(b.emit(arith.CmpiOp(tid, b.const(0), "eq")), [], Region(then)))
        ib = ArithBuilder(InsertPoint.at_end(then))
        for stage in (SCH.ORDER_MAINLOOP, SCH.ORDER_EPILOGUE):
            for c in range(self.consumers):
                ib.insert(lass_nv.MbarrierInitOp.build(operands=[ib.const(SCH.order_barrier(off, stage, c)),
                                                                 ib.const(WARPGROUP_THREADS)]))
        ib.insert(lass_nv.FenceMbarrierInitOp())
        ib.insert(scf.YieldOp())
        b.insert(lass_nv.BarSyncOp())
        return off

    @property
    def consumers(self) -> int:
        """Consumer warpgroups with tiles of their own (the pingpong schedule's)."""
        return SCH.tiles_per_cta(self.cfg)

    @property
    def walker(self) -> str:
        """The config key that makes the roles walk tiles (for messages)."""
        return "persistent = 1" if self.cfg.persistent else f"schedule = \"{self.cfg.schedule}\""

    def _pingpong_consumers(self, blk: Block, kloop: scf.ForOp, sched: dict, tid, off: int) -> None:
        """The consumers' ops after their setmaxnreg (CUTLASS's pingpong consumer loop), run by each
        consumer warpgroup c = tid / 128 - 1 on its own tiles (lasscc.schedule): its tile loop takes
        the CTA's tiles c, c + 2, ..., its k-tiles numbered from c x k-tiles in steps of 2 tiles
        (%kt_base), the ordering barrier's parity carried per tile (%order).  Per tile: wait for
        the turn to run the mainloop; the K loop (its release of k-tile kt - 1 only after this
        tile's first k-tile: the k-tile before is the other consumer's); arrive (the other
        consumer's mainloop may start); wgmma wait {0}, release the last k-tile's slot; wait for
        the turn to run the epilogue; the epilogue; arrive."""
        ops = list(blk.ops)[1:]
        b = ArithBuilder(InsertPoint.before(ops[0]))
        cons = b.sub(b.div(tid, WARPGROUP_THREADS), 1)  # warpgroups 1, 2 -> consumers 0, 1
        cons.name_hint = "consumer"
        c = b.idx(cons)
        start, step = SCH.consumer_tile_loop(b.idx(sched["bid"]), b.idx(sched["ctas"]), c, self.consumers)
        k_tiles = b.sub(kloop.ub, kloop.lb)
        base0, kstep = SCH.consumer_ktile_base(c, b.idx(k_tiles), self.consumers)
        phase0 = b.val(SCH.order_phase0(c))
        wait_at = [b.val(SCH.order_barrier(off, st, c, self.consumers)) for st in (SCH.ORDER_MAINLOOP, SCH.ORDER_EPILOGUE)]
        nxt = SCH.order_next(c, self.consumers)
        arrive_at = [b.val(SCH.order_barrier(off, st, nxt, self.consumers)) for st in (SCH.ORDER_MAINLOOP, SCH.ORDER_EPILOGUE)]
        loop, body, base, mapping = self._tile_loop(blk, sched, before=ops[0], start=b.val(start), step=b.val(step),
                                                    inits=[b.val(base0), phase0])
        order = body.args[2]
        order.name_hint = "order"
        body.add_op(lass_sched.ClaimOp.build(operands=[body.args[0]]))
        for o in ops:
            o.detach()
            body.add_op(o)
        self._remap(loop, mapping)
        # the K loop over this tile's k-tiles, in the order's turn
        kb = ArithBuilder(InsertPoint.before(kloop))
        lb, ub = kb.add(base, kloop.lb), kb.add(base, kloop.ub)
        kb.insert(lass_nv.MbarrierWaitParityOp.build(operands=[wait_at[0], order]))
        kloop.operands[0], kloop.operands[1] = lb, ub
        rel = next((o for o in kloop.body.block.ops if isinstance(o, lass_pipe.ConsumerReleaseOp)), None)
        if rel is None:
            _fail(kloop, "expected the K loop's consumer_release (lasscc-pipeline's ring)")
        rb = ArithBuilder(InsertPoint.before(rel))
        rel.operands[2] = rb.ult(lb, kloop.body.block.args[0])  # not the other consumer's last k-tile
        ArithBuilder(InsertPoint.after(kloop)).insert(lass_nv.MbarrierArriveOp.build(operands=[arrive_at[0]]))
        drain = kloop.next_op
        while drain is not None and not (isinstance(drain, lass_wg.WaitOp) and drain.pending.value.data == 0):
            drain = drain.next_op
        if drain is None:
            _fail(kloop, "expected lass_wg.wait {pending = 0} after the K loop (lasscc-warpgroup-mma)")
        db = ArithBuilder(InsertPoint.after(drain))
        S = rel.barriers.type.count
        last = db.rem(db.add(ub, S - 1), S)  # the slot of k-tile ub - 1
        db.insert(lass_pipe.ConsumerReleaseOp.build(operands=[rel.barriers, last, db.ult(lb, ub)]))
        db.insert(lass_nv.MbarrierWaitParityOp.build(operands=[wait_at[1], order]))
        eb = ArithBuilder(InsertPoint.at_end(body))
        eb.insert(lass_nv.MbarrierArriveOp.build(operands=[arrive_at[1]]))
        eb.insert(scf.YieldOp(eb.add(base, b.val(kstep)), eb.emit(arith.XOrIOp(order, eb.const(1)))))

    def _producer(self, blk: Block, tid, loop: scf.ForOp, acq, loads, regs: int, sched: dict | None) -> None:
        S = acq.barriers.type.count
        bk = self.cfg.threadblock[2]
        blk.add_op(lass_wg.SetMaxNRegOp("dec", regs))
        b = ArithBuilder(InsertPoint.at_end(blk))
        elected = b.emit(arith.CmpiOp(tid, b.const(0), "eq"))
        then = Block()
        b.insert(scf.IfOp(elected, [], Region(then)))
        base, mapping, outer = None, {}, then
        if sched is not None:  # persistent: every tile of this CTA, k-tiles numbered across tiles
            tloop, outer, base, mapping = self._tile_loop(then, sched)
        step = ArithBuilder(InsertPoint.at_end(outer)).const(1)
        body = Block(arg_types=[loop.lb.type])
        kt = body.args[0]
        kt.name_hint = "kt"
        outer.add_op(scf.ForOp(loop.lb, loop.ub, step, [], body))
        if sched is not None:
            nb = ArithBuilder(InsertPoint.at_end(outer))
            nb.insert(scf.YieldOp(nb.add(base, nb.sub(loop.ub, loop.lb))))
        then.add_op(scf.YieldOp())
        bb = ArithBuilder(InsertPoint.at_end(body))
        g = kt if base is None else bb.add(base, kt)  # the k-tile's number in the ring (as the consumers')
        _issue_ktile(bb, g, lambda b: b.mul(kt, bk), S, acq, loads, mapping)


def _issue_ktile(b: ArithBuilder, g, k0_of, stages: int, acq, loads, mapping: dict) -> None:
    """The producer's body for ring k-tile `g` (its K offset `k0_of(b)`): acquire slot g mod stages at
    its phase (like `acq`), the TMA loads of `loads` into it (their rows through `mapping`), scf.yield."""
    slot, phase = b.rem(g, stages), b.rem(b.div(g, stages), 2)
    k0 = k0_of(b)
    true = b.emit(arith.ConstantOp.from_int_and_width(1, 1))
    b.insert(lass_pipe.ProducerAcquireOp.build(operands=[acq.barriers, slot, phase, true], attributes={"tx": acq.tx}))
    for ld in loads:
        new = ld.clone()
        new.operands = [ld.source, mapping.get(ld.row0, ld.row0), k0, ld.ring, slot, ld.barriers, true]
        b.insert(new)
    b.insert(scf.YieldOp())


def lower_roles(fn: func.FuncOp) -> None:
    """Each `lass_wg.warp_specialize` as `scf.if %is_producer {producer} else {consumer}` (for the
    scf -> cf conversion of lasscc-lower-to-llvm); `lass_sched.claim`s dropped (no code)."""
    for c in [o for o in fn.walk() if isinstance(o, lass_sched.ClaimOp)]:
        c.detach()
        c.erase()
    for ws in [o for o in fn.walk() if isinstance(o, lass_wg.WarpSpecializeOp)]:
        regions = []
        for r in (ws.producer, ws.consumer):
            blk = Block()
            for o in list(r.block.ops):
                o.detach()
                blk.add_op(o)
            blk.add_op(scf.YieldOp())
            regions.append(Region(blk))
        new = scf.IfOp(ws.is_producer, [], regions[0], regions[1])
        ws.parent_block().insert_op_before(new, ws)
        ws.detach()
        ws.erase()


@dataclass(frozen=True)
class WarpSpecializePass(ModulePass):
    name = "lasscc-warp-specialize"

    def apply(self, ctx: Context, op: ModuleOp) -> bool:
        changed = False  # False: the driver skips the tidy-up of a kernel this pass left alone
        for fn in list(op.walk()):
            if not (isinstance(fn, func.FuncOp) and is_kernel(fn)):
                continue
            cfg = kernel_config(fn)
            if not (cfg.is_wgmma and is_warp_specialized(cfg)):
                continue
            if any(isinstance(o, lass_wg.WarpSpecializeOp) for o in fn.walk()):
                continue
            mma = next((o for o in fn.walk() if isinstance(o, lass_pipe.MmaOp)), None)
            if mma is not None:
                _fail(mma, "expected lass_wg code (run lasscc-warpgroup-mma first), got lass_pipe.mma")
            _Specialize(fn, cfg).run()
            changed = True
        return changed
