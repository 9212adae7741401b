"""lasscc-warp-mma: threadblock MMA -> per-thread warp-level MmaTensorOp code (reference 000).

Input contract: a pipelined kernel (`lass_pipe.mma` on ring slots, `!lass_tb.acc` values carried
by `scf.for`, `lass_tb.zero_acc`, `lass_tb.block_tile`, `lass_tb.epilogue`).  Kernels without
`lass_pipe.mma`, and `mma = "wgmma"` kernels (lasscc-warpgroup-mma's), are left alone; a
`lass_tb.mma` (not pipelined yet) is rejected.

Output contract: the program of one thread.
- warp coordinates: warp = tid / 32, warp_m = warp % (BM/WM), warp_n = warp / (BM/WM); the warp
  tile origin is (warp_m * WM, warp_n * WN) inside the threadblock tile;
- `lass_tb.block_tile` -> grouped rasterization arithmetic on `lass_nv.block_id`;
  `lass_tb.batch_index` -> `lass_nv.block_id z` (`lass_tb.batch_view`s stay: the
  lowering turns them into pointer offsets);
- the accumulator -> (WM/16) * (WN/8) * 4 values per thread of its type (f32, f16 or i32),
  carried by the loops;
- each `lass_pipe.mma` -> for every k-group g (BK/IK of them; IK = 16 for f16/bf16, 8 for tf32,
  32 for i8: lasscc.layout.MMA_INPUTS): `lass_warp.load_frag_a` for each 16-row slice and
  `lass_warp.load_frag_b` for each 16-column slice (f32 fragments: each register then rounded to
  tf32 by `lass_nv.cvt_rna_tf32`; on MN-major rings of f32 or i8 the loads are `interleaved`:
  fragment row g + 8h holds tile row 2g + h, lasscc.layout.frag_interleave, which lets
  lasscc-swizzle-smem load them without ldmatrix .trans), then `lass_nv.mma_sync` over the
  (WM/16) x (WN/8) grid in
  serpentine order (n reversed on odd m rows, so
  consecutive mma.sync share an operand).  Fragments are double buffered: the loads of k-group
  g+1 are issued before the mma.sync of k-group g; and when the mma closes its loop iteration
  with `wait`/`barrier` on slot = kt % S (lasscc-pipeline's multistage form), the first k-group of
  the NEXT slot is loaded right after the barrier, before this slot's last mma.sync, and carried
  into the next iteration as loop values (CUTLASS MmaMultistage's cross-stage prefetch; with
  config `prefetch = 1`, see lasscc.resources.prefetch_applies);
- `lass_tb.epilogue` -> per-thread alpha*acc (+ beta*C when beta != 0, a uniform branch) in f32
  (f16 / i32 accumulators and C converted to f32 first; an i32 D rounded to nearest even and
  saturated by `lass_nv.cvt_rni_s32`, as CUTLASS's LinearCombinationClamp<int32_t, float> does,
  except that with alpha == 1 and no C the exact i32 accumulator is stored) and stores at the
  C/D fragment coordinates of mma.m16n8k16 (the same for every shape), one predicated path for
  every block: 2-element where the pair lies inside D (and N even), element by element at the
  edges (any M, N).  The C test is a uniform branch; where the no-C branch has a faster path (staged,
  below, or lasscc-warpgroup-mma's TMA stores) the branch is "beta != 0 or D not fit for it", and its
  one copy of the stores reads C where beta != 0 (SHARED_DIRECT).  With interleaved
  A fragments the rows of a lane are 2g, 2g + 1 (not g, g + 8); with interleaved B its columns
  are 4t .. 4t+3 of each pair of n8 blocks, stored as pairs of values from the two blocks
  (`store_pairs`).  A 16-bit D without C, for a whole block with N a multiple of 8 and D 16-byte
  aligned (`lass_nv.aligned`), is staged instead (lasscc.resources.stage_plan, CUTLASS's shared-memory
  epilogue): after a bar.sync each warp writes its pairs (`lass_nv.st_shared`) to its own padded
  buffer in the rings' space (lasscc.layout.epilogue_stage_stride: conflict-free), bar.sync, then
  reads rows back 16 bytes a lane (`lass_nv.ld_shared` x 4, lasscc.layout.epilogue_read_map) and
  stores them with `lass_nv.st_global_v4`: each quarter-warp writes one 128-byte line of D.
  The per-pair code is written once, rolled (lasscc.passes._rolled: an `scf.for` marked for
  LLVM's full unroll, accumulators and offsets loop-carried), in the direct and the staged paths.
- a fused epilogue (the region of `lass_tb.epilogue`, lasscc.dialects.epilogue) is inlined per
  accumulator element of one pair, between alpha * acc + beta * C and D's conversion, in two
  nested loops over the column pairs and the rows of the warp tile (_rolled.rolled_columns): `[n]`
  extras are loaded as pairs once a column, `[m]` once per row ahead of the loops, `[mn]` like C, all predicated at the edges; an i8 D (with an epilogue
  only) is cvt.rni.s32 then clamped to [-128, 127].  A cluster split's window stays unrolled.
"""

from __future__ import annotations

from dataclasses import dataclass

from lasscc.dialects import lass_cluster, lass_nv, lass_pipe, lass_tb, lass_warp
from lasscc.dialects._common import memref_layout
from lasscc.dialects.epilogue import clone_region_into
from lasscc.passes._epilogue_build import alpha_bias_add, d_from_f32, fused_alpha_fma
from lasscc.passes._rolled import rolled_columns, rolled_loop, rolled_pairs
from lasscc.splitk import partition_range
from lasscc import streamk
from lasscc.passes._build import ArithBuilder, is_kernel, kernel_ab_type, kernel_acc_type, kernel_arg, kernel_config
from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    IntegerAttr,
    IntegerType,
    ModuleOp,
    UnitAttr,
    f32,
    i1,
    i32,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from lasscc.config import GemmConfig
from lasscc.cluster import rank_tile
from lasscc.cluster_splitk import is_cluster_split
from lasscc.layout import (
    ACCESS_BYTES,
    K_MAJOR,
    MMA_INPUTS,
    MN_MAJOR,
    MMA_M,
    MMA_N,
    WARP_SIZE,
    elem_bytes,
    epilogue_read_map,
    frag_interleave,
    matrix_offset,
    mma_c_coord,
    raster_tile,
    warp_tile_coord,
)
from lasscc.resources import prefetch_applies, stage_plan
from lasscc.source import op_location

# An epilogue with a faster no-C path (TMA stores, or the staged one) keeps one copy of the per-thread
# stores, for beta != 0 and for a D that path cannot take: the C path's code with its loads also
# predicated on beta != 0 and beta replaced by -0.0 without C (alpha * acc + -0.0 * 0 is alpha * acc
# bit for bit).  Two copies (with C, without) were two fully unrolled loops: ~0.08 s of LLVM's
# optimization and emit in a Hopper TMA-store kernel's compile (BENCHMARKS.md session 15).  Its cost:
# ptxas folds the beta != 0 term into each C load's predicate (one FSETP a load, ~190 a thread), which
# made beta != 0 1-2 % slower, 5-6 % in a pingpong kernel, whose epilogue runs alone in the ordering
# barrier's turn: a pingpong kernel keeps the two copies (`shares_direct`)
SHARED_DIRECT = True


def serpentine(mi_count: int, ni_count: int) -> list[tuple[int, int]]:
    """mma.sync issue order over the warp's (m, n) instruction grid: n reversed on odd m."""
    order = []
    for mi in range(mi_count):
        cols = range(ni_count) if mi % 2 == 0 else reversed(range(ni_count))
        order += [(mi, ni) for ni in cols]
    return order


class _WarpLowering:
    # a no-C fused epilogue whose region's v is used only by v + b (a bias: `alpha_bias_add`) takes
    # fma(alpha, acc, b) for alpha * acc then + b (`fused_alpha_fma`); set by lasscc-warpgroup-mma
    FOLD_ALPHA = False

    def __init__(self, fn: func.FuncOp, cfg: GemmConfig):
        self.fn, self.cfg = fn, cfg
        self.mi = cfg.warp[0] // MMA_M
        self.ni = cfg.warp[1] // MMA_N
        self.ab = kernel_ab_type(fn)
        _, (_, _, self.ik), self.ptx_ab = MMA_INPUTS[self.ab]
        self.kg = cfg.threadblock[2] // self.ik
        self.acc: dict[SSAValue, list[SSAValue]] = {}
        self.dead: list[Operation] = []
        # prefetch: mma op -> fragments of its k-group 0 (loop block args); yield -> extra values
        self.prefetched: dict[Operation, tuple] = {}
        self.extra_yield: dict[Operation, list[SSAValue]] = {}
        b = ArithBuilder(InsertPoint.at_start(fn.body.block))
        self.tid = b.emit(lass_nv.ThreadIdOp.build(result_types=[i32]))
        self.tid.name_hint = "tid"
        self.lane = b.and_(self.tid, WARP_SIZE - 1)
        self.lane.name_hint = "lane"
        warp = b.shr(self.tid, 5)
        warp.name_hint = "warp"
        warp_m, warp_n = warp_tile_coord(b.idx(warp), cfg.warps_m)
        wm0, wn0 = b.val(warp_m * cfg.warp[0]), b.val(warp_n * cfg.warp[1])
        for v, name in ((wm0, "warp_m0"), (wn0, "warp_n0")):
            if not isinstance(v.owner, arith.ConstantOp):  # one warp along m: 0, shared with other zeros
                v.name_hint = name
        self.wm0, self.wn0 = wm0, wn0
        # rows between the warp tile's m16 bands: adjacent here; a 128-row wgmma warpgroup's warp
        # holds rows 16 w of each m64 (lasscc-warpgroup-mma sets WGMMA_M)
        self.band_rows = MMA_M
        # warp-tile rows / columns of each fragment, and the k of each k-group
        self.rows_a = [b.add(wm0, mi * MMA_M) for mi in range(self.mi)]
        self.cols_b = [b.add(wn0, nj * 2 * MMA_N) for nj in range(self.ni // 2)]
        self.ks = [b.const(g * self.ik) for g in range(self.kg)]
        # MN-major tf32 / s8 tiles: fragments with paired rows (A) / columns (B), see lass_warp
        mmas = [o for o in fn.walk() if isinstance(o, lass_pipe.MmaOp)]
        self.ilv_a = any(self.interleaved(o.a.type) for o in mmas)
        self.ilv_b = any(self.interleaved(o.b.type) for o in mmas)
        for o in mmas:
            if (self.interleaved(o.a.type), self.interleaved(o.b.type)) != (self.ilv_a, self.ilv_b):
                raise PassFailedException(
                    f"{op_location(o)}: error: expected every lass_pipe.mma of the kernel on rings of the same "
                    f"majorness (one epilogue serves them), got {o.a.type} and {o.b.type}")

    def interleaved(self, ring_t) -> bool:
        """Fragments of this ring are loaded `interleaved` (lasscc.layout.frag_interleave): MN-major
        tiles of 32- or 8-bit elements, which ldmatrix .trans (16-bit) cannot transpose."""
        return ring_t.is_mn_major and elem_bytes(self.ab) != 2

    def n_acc(self) -> int:
        return self.mi * self.ni * 4

    # -- structure ---------------------------------------------------------------------------
    def run(self) -> None:
        self.block(self.fn.body.block)
        for op in reversed(self.dead):  # users were appended after their producers
            op.detach()
            op.erase(safe_erase=False)

    def block(self, block: Block) -> None:
        for op in list(block.ops):
            self.op(op)

    def op(self, op: Operation) -> None:
        if isinstance(op, lass_tb.BlockTileOp):
            self.block_tile(op)
        elif isinstance(op, lass_tb.PersistentCtaOp):  # stream-K's persistent grid: %ctaid.x of %nctaid.x
            b = ArithBuilder(InsertPoint.before(op))
            op.cta.replace_all_uses_with(b.emit(lass_nv.BlockIdOp("x")))
            op.ctas.replace_all_uses_with(b.emit(lass_nv.GridDimOp()))
            self.dead.append(op)
        elif isinstance(op, lass_tb.BatchIndexOp):
            z = ArithBuilder(InsertPoint.before(op)).emit(lass_nv.BlockIdOp("z"))
            op.result.replace_all_uses_with(z)
            self.dead.append(op)
        elif isinstance(op, lass_tb.ZeroAccOp):
            b = ArithBuilder(InsertPoint.before(op))
            et = op.result.type.element_type
            zero = b.const(0, et) if isinstance(et, IntegerType) else b.const_float(0.0, et)
            self.acc[op.result] = [zero] * self.n_acc()
            self.dead.append(op)
        elif isinstance(op, scf.ForOp):
            self.loop(op)
        elif isinstance(op, scf.YieldOp):
            if any(isinstance(v.type, lass_tb.AccType) for v in op.operands) or op in self.extra_yield:
                vals = self.expand(op.operands, op) + self.extra_yield.get(op, [])
                Rewriter.insert_op(scf.YieldOp(*vals), InsertPoint.before(op))
                self.dead.append(op)
        elif isinstance(op, lass_pipe.MmaOp):
            self.mma(op)
        elif isinstance(op, lass_tb.MmaOp):
            raise PassFailedException(
                f"{op_location(op)}: error: expected lass_pipe.mma on ring slots (run lasscc-pipeline first), got lass_tb.mma"
            )
        elif isinstance(op, lass_tb.EpilogueOp):
            self.epilogue(op)
        elif isinstance(op, (lass_tb.KPartitionOp, lass_tb.SemaphoreWaitOp, lass_tb.SemaphoreReleaseOp)):
            self.split_k(op)
        elif isinstance(op, (lass_tb.PartialStoreOp, lass_tb.PartialAddOp)):
            self.partial(op)
        elif isinstance(op, lass_tb.ClusterReduceOp):
            self.cluster_reduce(op)
        else:
            for region in op.regions:
                for blk in region.blocks:
                    self.block(blk)

    def accumulator(self, v: SSAValue, user: Operation) -> list[SSAValue]:
        """The per-thread values of accumulator `v` (from zero_acc, a loop, or an mma)."""
        if v not in self.acc:
            raise PassFailedException(
                f"{op_location(user)}: error: expected an accumulator made by lass_tb.zero_acc, an scf.for or "
                f"an mma inside this kernel, got one from "
                + (f"'{v.owner.name}'" if isinstance(v.owner, Operation) else "a block argument")
            )
        return self.acc[v]

    def expand(self, values, user: Operation | None = None) -> list[SSAValue]:
        out: list[SSAValue] = []
        for v in values:
            out += self.accumulator(v, user or v.owner) if isinstance(v.type, lass_tb.AccType) else [v]
        return out

    def loop(self, loop: scf.ForOp) -> None:
        if not any(isinstance(v.type, lass_tb.AccType) for v in loop.iter_args):
            self.block(loop.body.block)
            return
        inits = self.expand(loop.iter_args, loop)
        old = loop.body.block
        pf = self.prefetchable(loop)
        n_frag = 0
        if pf is not None:
            b = ArithBuilder(InsertPoint.before(loop))
            first = b.rem(loop.lb, pf.a.type.get_shape()[0])
            frags = self.load_frags(b, pf, first, 0)
            flat = [v for f in frags[0] for v in f] + [v for f in frags[1] for v in f]
            n_frag = len(flat)
            inits = inits + flat
        new = Block(arg_types=[old.args[0].type] + [v.type for v in inits])
        old.args[0].replace_all_uses_with(new.args[0])
        new.args[0].name_hint = old.args[0].name_hint
        i = 1
        for arg in old.args[1:]:
            if isinstance(arg.type, lass_tb.AccType):
                self.acc[arg] = list(new.args[i : i + self.n_acc()])
                i += self.n_acc()
            else:
                arg.replace_all_uses_with(new.args[i])
                i += 1
        if pf is not None:
            args = list(new.args[len(new.args) - n_frag:])
            fa = [args[4 * i: 4 * i + 4] for i in range(self.mi)]
            rest = args[4 * self.mi:]
            fb = [rest[2 * j: 2 * j + 2] for j in range(self.ni)]
            self.prefetched[pf] = (fa, fb)
        for o in list(old.ops):
            o.detach()
            new.add_op(o)
        new_loop = scf.ForOp(loop.lb, loop.ub, loop.step, inits, Region(new))
        Rewriter.insert_op(new_loop, InsertPoint.before(loop))
        i = 0
        for res in loop.results:
            if isinstance(res.type, lass_tb.AccType):
                self.acc[res] = list(new_loop.results[i : i + self.n_acc()])
                i += self.n_acc()
            else:
                res.replace_all_uses_with(new_loop.results[i])
                i += 1
        self.dead.append(loop)
        self.block(new)

    # -- the rewrites ------------------------------------------------------------------------
    def block_tile(self, op: lass_tb.BlockTileOp) -> None:
        """(m0, n0) = tile * (BM, BN) with tile = layout.raster_tile(block_id, ...)."""
        bm, bn = (a.value.data for a in op.tile.data)
        group = op.raster.value.data
        b = ArithBuilder(InsertPoint.before(op))
        clustered = tuple(self.cfg.cluster) != (1, 1)
        if is_cluster_split(self.cfg):  # cluster split-K: cluster c computes tile c (lasscc.cluster_splitk)
            pid = b.idx(b.emit(lass_cluster.ClusterIdOp.build(result_types=[i32])))
            pid.value.name_hint = "cluster_id"
        elif clustered:  # a cluster's CTAs take neighbouring tiles, placed by %clusterid.x / %cluster_ctarank (lasscc.cluster)
            cid, rank = (b.idx(b.emit(o.build(result_types=[i32]))) for o in (lass_cluster.ClusterIdOp,
                                                                             lass_cluster.CtaRankOp))
            cid.value.name_hint, rank.value.name_hint = "cluster_id", "cta_rank"
        elif not is_cluster_split(self.cfg):
            pid = b.idx(b.emit(lass_nv.BlockIdOp()))
        tiles_m = (b.idx(op.M) + (bm - 1)) // bm
        tiles_n = (b.idx(op.N) + (bn - 1)) // bn
        if clustered:
            tile_m, tile_n = rank_tile(cid, rank, tiles_m, tiles_n, group, self.cfg.cluster)
        else:
            tile_m, tile_n = raster_tile(pid, tiles_m, tiles_n, group)
        m0, n0 = b.val(tile_m * bm), b.val(tile_n * bn)
        m0.name_hint, n0.name_hint = "m0", "n0"
        op.m0.replace_all_uses_with(m0)
        op.n0.replace_all_uses_with(n0)
        self.dead.append(op)

    def split_k(self, op: Operation) -> None:
        """Split-K's block-level ops (lasscc.splitk) as per-thread code: the partition is
        %ctaid.y and its K range partition_range of it; the semaphore wait is thread 0 spinning
        with ld.acquire.gpu, then bar.sync (the acquire reaches the other threads through it);
        the release is bar.sync (every thread's D stores done), then thread 0's st.release.gpu
        (CUTLASS Semaphore::wait / release)."""
        b = ArithBuilder(InsertPoint.before(op))
        if isinstance(op, lass_tb.KPartitionOp):
            if is_cluster_split(self.cfg):  # the cluster rank (lasscc.cluster_splitk)
                from lasscc.passes.cluster_splitk import rank_of

                part = rank_of(self, b)
            else:
                part = b.emit(lass_nv.BlockIdOp("y"))
            lo, hi = partition_range(b.idx(part), b.idx(op.K), op.tile_k.value.data, op.split.value.data)
            for old, new, name in zip(op.results, (part, b.val(lo), b.val(hi)), ("part", "k_begin", "k_end")):
                new.name_hint = name
                old.replace_all_uses_with(new)
            self.dead.append(op)
            return
        thread0 = b.emit(arith.CmpiOp(self.tid, b.const(0), "eq"))
        then_b = Block()
        tb = ArithBuilder(InsertPoint.at_end(then_b))
        if isinstance(op, lass_tb.SemaphoreWaitOp):
            tb.insert(lass_nv.SpinAcquireOp.build(operands=[op.sem, op.index, op.value]))
        else:
            b.insert(lass_nv.BarSyncOp())
            tb.insert(lass_nv.StReleaseOp.build(operands=[op.sem, op.index, op.value]))
        tb.insert(scf.YieldOp())
        b.insert(scf.IfOp(thread0, [], Region(then_b), None))
        if isinstance(op, lass_tb.SemaphoreWaitOp):
            b.insert(lass_nv.BarSyncOp())
        self.dead.append(op)

    def cluster_reduce(self, op: Operation) -> None:
        raise PassFailedException(f"{op_location(op)}: error: expected a mma = \"wgmma\" kernel for "
                                  f"lass_tb.cluster_reduce (cluster split-K, lasscc.cluster_splitk)")

    def partial(self, op: Operation) -> None:
        """Stream-K's workspace partials (lasscc.streamk) per thread: accumulator values 4q .. 4q + 3
        at words partial_word(slot) + 4 * (q * threads + tid) of W, one 16-byte access each (a warp
        covers 512 contiguous bytes), as f32 bits (an f16 accumulator widened; i32 as it is).
        partial_add adds them in f32 (i32), an f16 accumulator rounded once after.  Written once,
        rolled over the groups of 4 (lasscc.passes._rolled.rolled_loop, "quad"; LLVM unrolls it)."""
        acc = self.accumulator(op.acc, op)
        b = ArithBuilder(InsertPoint.before(op))
        et = acc[0].type
        base = b.val(b.idx(streamk.partial_word(b.idx(op.slot), tuple(self.cfg.threadblock[:2]))) + b.idx(self.tid) * 4)
        base.name_hint = "partial"
        true = b.const(1, i1)
        if isinstance(op, lass_tb.PartialAddOp):
            # a runtime-true guard keeps each load in place (a predicated asm load): plain loads are all
            # hoisted ahead of the adds, 2 x the accumulator's registers live (sm_80 spills at 128 x 128)
            true = b.emit(arith.CmpiOp(self.tid, b.const(self.cfg.threads), "ult"))

        def quad(ib: ArithBuilder, s: list[list[SSAValue]]) -> list[list[SSAValue]]:
            """Accumulator values 4q .. 4q + 3 (s[0]) at word offset s[1][0] from `base`: stored, or
            loaded and added (their replacements returned)."""
            vals, off = s[0], ib.add(base, s[1][0])
            if isinstance(op, lass_tb.PartialStoreOp):
                bits = [v if isinstance(et, IntegerType) else
                        ib.emit(arith.BitcastOp(v if et == f32 else ib.emit(arith.ExtFOp(v, f32)), i32)) for v in vals]
                ib.insert(lass_nv.StGlobalOp.build(operands=[op.sem, off, true, bits]))
                return s
            got = ib.insert(lass_nv.LdGlobalOp(op.sem, off, true, 4)).results
            out = []
            for v, g in zip(vals, got):
                if isinstance(et, IntegerType):
                    out.append(ib.emit(arith.AddiOp(v, g)))
                    continue
                s_ = ib.emit(arith.AddfOp(v if et == f32 else ib.emit(arith.ExtFOp(v, f32)), ib.emit(arith.BitcastOp(g, f32))))
                out.append(s_ if et == f32 else ib.emit(arith.TruncFOp(s_, et)))
            return [out, s[1]]
        # rolled (lasscc.passes._rolled): one loop over the thread's 4-value groups, LLVM unrolls it
        n = len(acc) // 4
        out = rolled_loop(b, n, [acc, [b.const(4 * q * self.cfg.threads) for q in range(n)]], quad, "quad")[0]
        if isinstance(op, lass_tb.PartialAddOp):
            self.acc[op.result] = out
        self.dead.append(op)

    def prefetchable(self, loop: scf.ForOp) -> lass_pipe.MmaOp | None:
        """The mma of `loop` if the body ends `mma; [wait;] barrier; yield` with slot = iv % S."""
        ops = list(loop.body.block.ops)
        mmas = [o for o in ops if isinstance(o, lass_pipe.MmaOp)]
        if len(mmas) != 1:
            return None
        op = mmas[0]
        majors = tuple(MN_MAJOR if t.is_mn_major else K_MAJOR for t in (op.a.type, op.b.type))
        if not prefetch_applies(self.cfg, self.ab, majors, kernel_acc_type(self.fn)):
            return None
        tail = [type(o) for o in ops[ops.index(op) + 1:]]
        if tail not in ([lass_pipe.WaitOp, lass_pipe.BarrierOp, scf.YieldOp], [lass_pipe.BarrierOp, scf.YieldOp]):
            return None
        slot = op.slot_a.owner
        stages = op.a.type.get_shape()[0]
        if not (op.slot_a is op.slot_b and isinstance(slot, arith.RemUIOp) and slot.lhs is loop.body.block.args[0]
                and isinstance(slot.rhs.owner, arith.ConstantOp) and slot.rhs.owner.value.value.data == stages
                and op.b.type.get_shape()[0] == stages):
            return None
        return op

    def load_frags(self, b: ArithBuilder, op: lass_pipe.MmaOp, slot: SSAValue, g: int):
        """A fragments per 16-row slice, B register pairs per n8 block, of k-group g of `slot`."""
        props_a = {"interleaved": UnitAttr()} if self.ilv_a else {}
        props_b = {"interleaved": UnitAttr()} if self.ilv_b else {}
        fa = [self.tf32(b, b.insert(lass_warp.LoadFragAOp.build(
            operands=[op.a, slot, row, self.ks[g]], result_types=[i32] * 4, properties=props_a)).results)
            for row in self.rows_a]
        fb: list[list[SSAValue]] = []
        for col in self.cols_b:
            r = self.tf32(b, b.insert(lass_warp.LoadFragBOp.build(
                operands=[op.b, slot, col, self.ks[g]], result_types=[i32] * 4, properties=props_b)).results)
            fb += [[r[0], r[1]], [r[2], r[3]]]
        return fa, fb

    def tf32(self, b: ArithBuilder, regs) -> list[SSAValue]:
        """f32 fragments rounded to tf32 (cvt.rna, CUTLASS's rounding: see lass_nv.cvt_rna_tf32);
        other types as loaded."""
        if self.ab != "f32":
            return list(regs)
        return [b.emit(lass_nv.CvtRnaTf32Op.build(operands=[r], result_types=[i32])) for r in regs]

    def mma(self, op: lass_pipe.MmaOp) -> None:
        b = ArithBuilder(InsertPoint.before(op))
        acc = list(self.accumulator(op.acc, op))
        ab_type = self.ptx_ab  # "f16", "bf16", "tf32" or "s8"

        def issue(bld: ArithBuilder, frags) -> None:
            """A k-group's mma.sync in serpentine order, rolled (passes/_rolled.py): a loop over the
            (mi, ni) tiles carrying each tile's A and B registers and accumulators."""
            fa, fb = frags
            order = serpentine(self.mi, self.ni)
            bases = [(mi * self.ni + ni) * 4 for mi, ni in order]
            if self.ab == "f32" or self.ilv_a or self.ilv_b:
                # fragments converted after the load (tf32's cvt.rna, interleaved s8's prmt): once
                # they feed the loop's phis, LLVM places those conversions next to the mma.sync
                # instead of after the loads: the same instructions in another main-loop order
                # (int8_nt: +2 registers), not timed on a GPU, so these keep the unrolled issue
                for (mi, ni), base in zip(order, bases):
                    mma = bld.insert(lass_nv.MmaSyncOp(fa[mi], fb[ni], acc[base: base + 4], ab_type))
                    acc[base: base + 4] = list(mma.results)
                return
            fields = [[r for mi, _ in order for r in fa[mi]], [r for _, ni in order for r in fb[ni]],
                      [v for base in bases for v in acc[base: base + 4]]]

            def one(ib: ArithBuilder, s: list[list[SSAValue]]) -> list[list[SSAValue]]:
                return [s[0], s[1], list(ib.insert(lass_nv.MmaSyncOp(s[0], s[1], s[2], ab_type)).results)]
            out = rolled_loop(bld, len(order), fields, one, "tile")[2]
            for q, base in enumerate(bases):
                acc[base: base + 4] = out[4 * q: 4 * q + 4]

        prefetched = self.prefetched.get(op)
        frags = prefetched if prefetched is not None else self.load_frags(b, op, op.slot_a, 0)
        for g in range(self.kg - 1):
            nxt = self.load_frags(b, op, op.slot_a, g + 1)  # fragment double buffering
            issue(b, frags)
            frags = nxt
        if prefetched is None:
            issue(b, frags)
        else:
            # after the closing barrier: next slot's k-group 0, then this slot's last mma.sync
            barrier = next(o for o in _ops_after(op) if isinstance(o, lass_pipe.BarrierOp))
            yield_op = barrier.next_op
            after = ArithBuilder(InsertPoint.after(barrier))
            iv = op.slot_a.owner.lhs
            stages = op.a.type.get_shape()[0]
            nxt_slot = after.rem(after.add(iv, 1), stages)
            nf = self.load_frags(after, op, nxt_slot, 0)
            issue(after, frags)
            self.extra_yield[yield_op] = [v for f in nf[0] for v in f] + [v for f in nf[1] for v in f]
        self.acc[op.result] = acc
        self.dead.append(op)

    def store_pairs(self) -> list[tuple[int, int, tuple[int, int]]]:
        """(row, column, (i0, i1)): the epilogue's 2-element stores, at (row0 + row, col0 + column)
        and one column right, of accumulator values i0, i1 (index (mi * WN/8 + ni) * 4 + idx).

        mma_c_coord puts value idx of mma (mi, ni) at fragment row g + 8 (idx >> 1), column
        2t + (idx & 1) of n8 block ni; interleaved fragments (lasscc.layout.frag_interleave) move
        fragment row r of the 16 to tile row 2 (r % 8) + r // 8 and column c of the 16 columns of
        blocks 2p, 2p + 1 to 16p + 2 (c % 8) + c // 8.  Values next to each other in a row pair up
        (from one n8 block, or for interleaved B from blocks 2p and 2p + 1)."""
        cells: dict[tuple[int, int], int] = {}
        for mi in range(self.mi):
            for ni in range(self.ni):
                for idx in range(4):
                    r, c = mma_c_coord(0, idx)  # lane 0: g = t = 0 (the lane part is row0 / col0)
                    row = mi * self.band_rows + (frag_interleave(r) if self.ilv_a else r)
                    c16 = (ni % 2) * MMA_N + c
                    col = (ni // 2) * 2 * MMA_N + (frag_interleave(c16) if self.ilv_b else c16)
                    cells[(row, col)] = (mi * self.ni + ni) * 4 + idx
        pairs = []
        for (row, col), i0 in sorted(cells.items()):
            if col % 2 == 0:
                pairs.append((row, col, (i0, cells[(row, col + 1)])))
        assert 2 * len(pairs) == len(cells), "every accumulator value belongs to one pair"
        return sorted(pairs, key=lambda p: p[2])  # in accumulator order (mi, ni, h when not interleaved)

    def tma_store(self, op, values, row0, col0, preload):
        """(usable, emit) of another store path for the no-C branch (lasscc-warpgroup-mma's TMA
        stores), or None: the staged / direct stores."""
        return None

    def shares_direct(self) -> bool:
        """Whether this kernel takes SHARED_DIRECT's one copy of the per-thread stores."""
        return True

    def epilogue(self, op: lass_tb.EpilogueOp) -> None:
        """Per-thread stores of alpha*acc (+ beta*C) at the mma C-fragment coordinates.

        Each thread holds pairs of adjacent columns.  A pair inside D (and N even, so the pair is
        8-byte aligned) is one 2-element access; at the right or bottom edge, or for odd N, each
        element is guarded on its own.  All accesses are predicated, none is branched around, so
        the threads of a warp stay converged.
        """
        acc = self.accumulator(op.acc, op)
        D, M, N = op.dest, kernel_arg(self.fn, "M"), kernel_arg(self.fn, "N")
        # a column-major D (config swap_ab = 1: D^T of a row-major D): no two of a thread's values are
        # adjacent, so each is its own access, and no staged epilogue (its rows are D's rows)
        d_col = memref_layout(D.type) == "col"

        def offset(bb: ArithBuilder, row, col):
            """D's (and an [mn] operand's) element offset of (row, col) (lasscc.layout.matrix_offset)."""
            return bb.val(matrix_offset(bb.idx(row), bb.idx(col), bb.idx(M), bb.idx(N), d_col))

        # cluster split-K: this CTA stores (and reads C at) its column window only (lasscc.cluster_splitk)
        window = op.attributes.get(lass_tb.CLUSTER_SPLIT_ATTR)
        window = int(window.value.data) if window is not None else 0

        def access(bb: ArithBuilder, row, col, guarded: bool, even_n: bool = False, col_c: int | None = None):
            """(offsets of (row, col) and (row, col + 1), the pair's predicate or None, each single
            element's): one 2-element access where the pair is inside D and aligned (row-major D,
            N even), else single ones, each inside D (`guarded`: checked); with a cluster split
            also in the CTA's column window (static tile column `col_c`).  `even_n`: the caller
            knows N is even (the TMA path), so a pair is inside D whole or not at all (col is even):
            no single accesses."""
            if window:
                from lasscc.passes.cluster_splitk import owner_pred

                off, pair, single = access_in(bb, row, col, guarded, even_n)
                own = owner_pred(self, bb, col_c, window)
                return off, (bb.and_(pair, own) if pair is not None else None), [bb.and_(x, own) for x in single]
            return access_in(bb, row, col, guarded, even_n)

        def access_in(bb: ArithBuilder, row, col, guarded: bool, even_n: bool = False):
            if guarded:
                row_ok = bb.ult(row, M)
                ok = [bb.and_(row_ok, bb.ult(col, N)), bb.and_(row_ok, bb.ult(bb.add(col, 1), N))]
                if d_col:
                    pair, single = None, ok
                elif even_n:
                    pair, single = ok[1], [false, false]
                else:
                    pair = bb.and_(ok[1], n_even)
                    single = [bb.and_(o, bb.emit(arith.XOrIOp(pair, true))) for o in ok]
            else:
                pair, single = (None, [true, true]) if d_col else (true, [false, false])
            off = offset(bb, row, col)
            return [off, bb.add(off, M) if d_col else bb.add(off, 1)], pair, single

        def load(bb: ArithBuilder, x, offs, pair, single, guarded: bool) -> list:
            """The pair of elements at `offs` of `x` (D or an [mn] operand), zeros where predicated off."""
            if pair is None:
                return [bb.insert(lass_nv.LdGlobalOp(x, offs[j], single[j], 1)).results[0] for j in range(2)]
            both = list(bb.insert(lass_nv.LdGlobalOp(x, offs[0], pair, 2)).results)
            if not guarded or all(x is false for x in single):  # no single loads (`access`'s even_n)
                return both
            one = [bb.insert(lass_nv.LdGlobalOp(x, offs[j], single[j], 1)).results[0] for j in range(2)]
            return [bb.emit(arith.SelectOp(pair, both[j], one[j])) for j in range(2)]

        out_t = D.type.get_element_type()
        int_d = isinstance(out_t, IntegerType)
        region = op.has_epilogue
        fold = bool(region) and self.FOLD_ALPHA and alpha_bias_add(op.epilogue.block) is not None
        b = ArithBuilder(InsertPoint.before(op))
        # the exact i32 path: alpha == 1 and no C store the accumulator as it is (an i32 D
        # without a fused epilogue only)
        exact_i32 = int_d and out_t.width.data == 32 and not region
        alpha_one = b.emit(arith.CmpfOp(op.alpha, b.const_float(1.0, f32), "oeq")) if exact_i32 else None
        # a split-K / stream-K i32 D (lasscc.splitk, lasscc.streamk) stays exact: alpha == 1 and
        # beta' == 1 add the accumulator
        exact_sum = None
        if exact_i32 and self.cfg.has_workspace:
            exact_sum = b.and_(alpha_one, b.emit(arith.CmpfOp(op.beta, b.const_float(1.0, f32), "oeq")))

        def to_f32(bb: ArithBuilder, x: SSAValue) -> SSAValue:
            if isinstance(x.type, IntegerType):
                return bb.emit(arith.SIToFPOp(x, f32))
            return x if x.type == f32 else bb.emit(arith.ExtFOp(x, f32))

        def from_f32(bb: ArithBuilder, x: SSAValue) -> SSAValue:
            return d_from_f32(bb, x, out_t)

        def extras(bb: ArithBuilder, row, col, row_c: int, col_c: int, guarded: bool, cache: dict,
                   even_n: bool = False, vectors_only: bool = False, matrices: bool = False,
                   kinds: tuple[str, ...] | None = None) -> list[list[SSAValue]]:
            """The extra operands' element pairs at (row, col), (row, col + 1): [n] vectors read at col
            (a pair, cached per column of the warp tile), [m] at row (cached per row), [mn] matrices
            at D's offsets, scalars as they are; reads outside D's bounds are predicated off (zeros).
            `even_n`: N is known even (`access`).  `vectors_only`: only the [n] / [m] reads (and the
            [mn] pairs: `matrices`), into `cache` (a preload ahead of the values: tma_store_epilogue),
            nothing returned; an [mn] pair is cached under (k, "mn", row_c, col_c).  `kinds`: with
            vectors_only, only the extras of these kinds (the [m] ones read ahead of a rolled loop)."""
            elems: list[list[SSAValue]] = []
            for k, (kind, x) in enumerate(zip(op.kinds, op.extras)):
                if kinds is not None and kind not in kinds:
                    continue
                if kind == "scalar":
                    elems.append([x, x])
                elif kind == "m":
                    key = (k, "m", row_c)
                    if key not in cache:
                        ok = bb.ult(row, M) if guarded else true
                        one = bb.insert(lass_nv.LdGlobalOp(x, row, ok, 1)).results[0]
                        cache[key] = [one, one]
                    elems.append(cache[key])
                elif kind == "mn" and vectors_only and not matrices:
                    continue
                else:
                    key = (k, kind, col_c) if kind == "n" else (k, kind, row_c, col_c)
                    if key in cache:
                        elems.append(cache[key])
                        continue
                    if kind == "n":
                        offs = [col, bb.add(col, 1)]
                        if guarded and even_n:
                            pair, single = bb.ult(bb.add(col, 1), N), [false, false]
                        elif guarded:
                            ok = [bb.ult(col, N), bb.ult(bb.add(col, 1), N)]
                            pair = bb.and_(ok[1], n_even)
                            single = [bb.and_(o, bb.emit(arith.XOrIOp(pair, true))) for o in ok]
                        else:
                            pair, single = true, [false, false]
                    else:
                        offs, pair, single = access(bb, row, col, guarded, even_n, col_c)
                    got = load(bb, x, offs, pair, single, guarded)
                    if kind == "n" or vectors_only:  # an [mn] pair only when preloaded (one cell's, once)
                        cache[key] = got
                    elems.append(got)
            return [] if vectors_only else elems

        def fused(bb: ArithBuilder, vals, row, col, row_c: int, col_c: int, guarded: bool, cache: dict,
                  even_n: bool = False) -> list:
            """The epilogue region applied to the f32 pair `vals` at (row, col), (row, col + 1), each
            with its extra operands' elements (`extras`)."""
            if not region:
                return vals
            elems = extras(bb, row, col, row_c, col_c, guarded, cache, even_n)
            return [clone_region_into(op.epilogue.block, [v] + [e[j] for e in elems], bb.insert)
                    for j, v in enumerate(vals)]

        def preload(bb: ArithBuilder, row, col, row_c: int, col_c: int, cache: dict, matrices: bool = False,
                    guarded: bool = True) -> None:
            """The [n] / [m] extras (and [mn]: `matrices`) of the pair at (row, col) read into `cache`
            ahead of its values (N even: the TMA path's; `guarded`: unless the caller knows the pair
            inside D), so that one load latency serves the whole tile (a window of it)."""
            if region:
                extras(bb, row, col, row_c, col_c, guarded, cache, True, vectors_only=True, matrices=matrices)
        # lane part of the C-fragment coordinates (mma_c_coord: row g, column 2t; interleaved
        # fragments: row 2g, column 4t, see store_pairs)
        group = b.mul(b.shr(self.lane, 2), 2 if self.ilv_a else 1)
        tig2 = b.mul(b.and_(self.lane, 3), 4 if self.ilv_b else 2)
        row0 = b.add(b.add(op.m0, self.wm0), group)
        col0 = b.add(b.add(op.n0, self.wn0), tig2)
        zero = b.const_float(0.0, f32)
        true = b.const(1, i1)
        n_even = b.emit(arith.CmpiOp(b.and_(N, 1), b.const(0), "eq"))
        has_c = b.emit(arith.CmpfOp(op.beta, zero, "one"))

        bm, bn = self.cfg.threadblock[0], self.cfg.threadblock[1]
        inside = b.and_(b.emit(arith.CmpiOp(b.add(op.m0, bm), M, "ule")), b.emit(arith.CmpiOp(b.add(op.n0, bn), N, "ule")))
        full = b.and_(inside, n_even)  # uniform per block: no bound can fail, every pair is aligned
        false = b.const(0, i1)

        def pair_values(bb: ArithBuilder, avals, row, col, row_c, col_c, guarded: bool,
                        cache: dict, even_n: bool = False) -> list[SSAValue]:
            """D's values of the accumulator pair `avals` without C: alpha * acc (through the fused
            epilogue) in D's type (an i32 D without one keeps the exact accumulator when alpha == 1)."""
            if fold:  # v + b as fma(alpha, acc, b) (FOLD_ALPHA)
                elems = extras(bb, row, col, row_c, col_c, guarded, cache, even_n)
                return [from_f32(bb, fused_alpha_fma(bb, op.epilogue.block, op.alpha, to_f32(bb, a),
                                                     [e[j] for e in elems])) for j, a in enumerate(avals)]
            vals = [bb.emit(arith.MulfOp(op.alpha, to_f32(bb, a))) for a in avals]
            vals = [from_f32(bb, v) for v in fused(bb, vals, row, col, row_c, col_c, guarded, cache, even_n)]
            if exact_i32:
                vals = [bb.emit(arith.SelectOp(alpha_one, a, v)) for a, v in zip(avals, vals)]
            return vals

        def no_c_values(bb: ArithBuilder, pair_idx, row, col, row_c: int, col_c: int, guarded: bool,
                        cache: dict, even_n: bool = False, src=None) -> list[SSAValue]:
            """pair_values of accumulator values pair_idx (the staged and TMA-store epilogues');
            `src`: the accumulator's values to index instead (a rolled loop's shifted copy)."""
            src = acc if src is None else src
            return pair_values(bb, [src[i] for i in pair_idx], row, col, row_c, col_c, guarded, cache, even_n)

        def store_pair(bb: ArithBuilder, avals, row_c, col_c, with_c, guarded: bool, exact: bool,
                       cache: dict) -> None:
            """The stores of accumulator pair `avals` at (row0 + row_c, col0 + col_c) and one
            column right (row_c, col_c: ints, or SSA values in the rolled loop).  `with_c`: True
            (C read and added), False (no C), or the i1 has_c (SHARED_DIRECT's path: the C path's
            code, C read where has_c is set; without it alpha * acc exactly, but a fused bias add
            not folded with alpha: FOLD_ALPHA's one rounding fewer is the TMA / staged paths')."""
            row = bb.add(row0, row_c)
            col = bb.add(col0, col_c)
            offs, pair, single = access(bb, row, col, guarded, col_c=col_c)
            vals = [bb.emit(arith.MulfOp(op.alpha, to_f32(bb, a))) for a in avals]
            if isinstance(with_c, SSAValue):
                # C read where has_c is set (zeros elsewhere), times `shared_beta`: beta, or -0.0
                # without C, so that the sum is alpha * acc exactly (x + -0.0 == x, -0.0 too)
                c = with_c
                old = load(bb, D, offs, bb.and_(pair, c) if pair is not None else None,
                           [x if x is false else bb.and_(x, c) for x in single], guarded)
                vals = [bb.emit(arith.AddfOp(v, bb.emit(arith.MulfOp(shared_beta, to_f32(bb, x)))))
                        for v, x in zip(vals, old)]
                vals = [from_f32(bb, v) for v in fused(bb, vals, row, col, row_c, col_c, guarded, cache)]
            elif with_c:
                old = load(bb, D, offs, pair, single, guarded)
                if exact:  # split-K's later partitions with alpha = 1: acc + D in i32, exactly
                    vals = [bb.emit(arith.AddiOp(a, d)) for a, d in zip(avals, old)]
                else:
                    old = [to_f32(bb, x) for x in old]
                    vals = [bb.emit(arith.AddfOp(v, bb.emit(arith.MulfOp(op.beta, c)))) for v, c in zip(vals, old)]
                    vals = [from_f32(bb, v) for v in fused(bb, vals, row, col, row_c, col_c, guarded, cache)]
            else:
                vals = pair_values(bb, avals, row, col, row_c, col_c, guarded, cache)
            if pair is not None:
                bb.insert(lass_nv.StGlobalOp.build(operands=[D, offs[0], pair, vals]))
            if guarded or pair is None:
                for j in range(2):
                    bb.insert(lass_nv.StGlobalOp.build(operands=[D, offs[j], single[j], [vals[j]]]))

        def rolled_fused(bb: ArithBuilder, pairs, guarded: bool, body, cache: dict | None = None) -> None:
            """A fused epilogue's pairs rolled by columns, then rows (_rolled.rolled_columns): the
            outer iteration reads the column's [n] extras once (`extras`), the inner one calls
            `body(builder, avals, row_c, col_c, cache)` for one pair (row_c, col_c the loops'
            values) with a `cache` that `extras` finds the column's [n] and the row's [m] extras
            in; the [m] extras are read ahead of the loops, once per row, into `cache` (the staged
            path's chunks share it) and carried by the row loop."""
            cache = {} if cache is None else cache
            rows = sorted({p[0] for p in pairs})
            m_kinds = [k for k, kind in enumerate(op.kinds) if kind == "m"]
            for row_c in rows:
                if any((k, "m", row_c) not in cache for k in m_kinds):
                    extras(bb, bb.add(row0, row_c), None, row_c, None, guarded, cache, vectors_only=True,
                           kinds=("m",))

            def column(ib: ArithBuilder, col_c) -> dict:
                col_cache: dict = {}
                if "n" in op.kinds:
                    extras(ib, None, ib.add(col0, col_c), None, col_c, guarded, col_cache, vectors_only=True,
                           kinds=("n",))
                return col_cache

            def pair(ib: ArithBuilder, col_cache: dict, avals, row_c, col_c, *m_vals) -> None:
                it = dict(col_cache)
                it.update({(k, "m", row_c): [v, v] for k, v in zip(m_kinds, m_vals)})
                body(ib, avals, row_c, col_c, it)
            rolled_columns(bb, pairs, acc, column, pair, [[cache[(k, "m", r)][0] for r in rows] for k in m_kinds])

        def stores(bb: ArithBuilder, with_c: bool, guarded: bool, exact: bool = False) -> None:
            pairs = self.store_pairs()
            if window:
                # a cluster split's column window is decided per static tile column (owner_pred):
                # unrolled
                cache: dict = {}
                for row_c, col_c, pair_idx in pairs:
                    store_pair(bb, [acc[i] for i in pair_idx], row_c, col_c, with_c, guarded, exact, cache)
            elif region:
                rolled_fused(bb, pairs, guarded, lambda ib, avals, row_c, col_c, cache: store_pair(
                    ib, avals, row_c, col_c, with_c, guarded, exact, cache))
            else:
                rolled_pairs(bb, pairs, acc, lambda ib, avals, row_c, col_c: store_pair(
                    ib, avals, row_c, col_c, with_c, guarded, exact, {}))
            bb.insert(scf.YieldOp())

        def branch(bb: ArithBuilder, cond, then_fn, else_fn) -> None:
            then_b, else_b = Block(), Block()
            then_fn(ArithBuilder(InsertPoint.at_end(then_b)))
            else_fn(ArithBuilder(InsertPoint.at_end(else_b)))
            bb.insert(scf.IfOp(cond, [], Region(then_b), Region(else_b)))

        def with_c(c, exact: bool = False):
            def emit(bb: ArithBuilder) -> None:
                # one predicated path for every tile: a second, unguarded copy for interior tiles
                # made the epilogue half the kernel's IR (NVPTX's straight-line strength reduction
                # took 0.9 s on it) for the same ptxas registers (BENCHMARKS.md, session 9, epilogue)
                stores(bb, c, True, exact)  # ends with its own yield
            return emit

        def c_path(bb: ArithBuilder) -> None:
            """The stores with C; a split-K i32 D branches (uniformly) to the exact sum, so only one
            path's values are live (a select between both spilled: i8 128x128x64, split 3)."""
            if exact_sum is None:
                with_c(True)(bb)
                return
            branch(bb, exact_sum, with_c(True, True), with_c(True))
            bb.insert(scf.YieldOp())

        ob = out_t.bitwidth // 8
        plan = None if d_col or window else stage_plan(self.cfg, self.ab, ob)  # (cluster split: the partials' bytes)

        def staged(bb: ArithBuilder) -> None:
            """Whole block, no C: each warp writes its pairs (alpha * acc, converted) to its staging
            buffer, then reads rows back 16 bytes a lane and stores them to D, each quarter-warp
            128 contiguous bytes (CUTLASS's shared-memory epilogue).  `rows` rows per chunk;
            bar.sync around each chunk (the first one: every warp is done with the rings)."""
            rows, stride = plan
            bb.insert(lass_nv.BarSyncOp())
            base = bb.mul(bb.shr(self.tid, 5), rows * stride)
            wr = bb.add(base, bb.add(bb.mul(group, stride), bb.mul(tig2, ob)))  # this lane's pair slot
            row_bytes = self.cfg.warp[1] * ob
            per_row = row_bytes // ACCESS_BYTES
            lr, lc = (bb.val(x) for x in epilogue_read_map(bb.idx(self.lane), row_bytes))
            rd = bb.add(base, bb.add(bb.mul(lr, stride), bb.mul(lc, ACCESS_BYTES)))
            g_row = bb.add(bb.add(op.m0, self.wm0), lr)
            g_col = bb.add(bb.add(op.n0, self.wn0), bb.mul(lc, ACCESS_BYTES // ob))
            g0 = bb.add(bb.mul(g_row, N), g_col)
            pairs = self.store_pairs()
            chunks = self.cfg.warp[0] // rows
            read: dict = {}  # the extras read ahead, shared by the chunks
            for ch in range(chunks):
                def put(ib: ArithBuilder, avals, row_c, col_c, cache: dict) -> None:
                    """One pair's values (alpha * acc through the fused epilogue, converted) to this
                    lane's slot of the staging buffer."""
                    vals = pair_values(ib, avals, ib.add(row0, row_c) if region else None,
                                       ib.add(col0, col_c) if region else None, row_c, col_c, False, cache)
                    slot = ib.add(ib.mul(row_c, stride), ib.mul(col_c, ob))
                    addr = ib.add(wr, ib.add(slot, -ch * rows * stride) if ch else slot)
                    ib.insert(lass_nv.StSharedOp.build(operands=[addr, vals]))
                chunk = [p for p in pairs if ch * rows <= p[0] < (ch + 1) * rows]
                # rolled like the direct stores (a fused epilogue's extras read ahead: rolled_fused)
                if region:
                    rolled_fused(bb, chunk, False, put, read)
                else:
                    rolled_pairs(bb, chunk, acc, lambda ib, avals, row_c, col_c: put(ib, avals, row_c, col_c, {}))
                bb.insert(lass_nv.BarSyncOp())
                for p in range(rows * per_row // WARP_SIZE):
                    r_off = p * (WARP_SIZE // per_row)
                    regs = bb.insert(lass_nv.LdSharedOp(bb.add(rd, r_off * stride), 4)).results
                    off = bb.add(g0, bb.mul(N, ch * rows + r_off)) if ch * rows + r_off else g0
                    bb.insert(lass_nv.StGlobalV4Op.build(operands=[D, off, *regs, true]))
                if ch + 1 < chunks:
                    bb.insert(lass_nv.BarSyncOp())
            bb.insert(scf.YieldOp())

        shared_beta = None  # (SHARED_DIRECT: set below, before store_pair uses it)
        # the no-C branch's faster path where D allows it, (usable, emit): lasscc-warpgroup-mma's
        # TMA-store epilogue (config epilogue = "tma"), else the staged one (`plan`)
        fast = self.tma_store(op, no_c_values, row0, col0, preload)
        if fast is None and plan is not None:
            def stage_ok(bb: ArithBuilder):
                # 16-byte stores need whole 16-byte row pieces: N a multiple of 16 / ob and D aligned
                n_vec = bb.emit(arith.CmpiOp(bb.rem(N, 16 // ob), bb.const(0), "eq"))
                d_aligned = bb.emit(lass_nv.AlignedOp.build(operands=[D], attributes={"bytes": IntegerAttr(16, 64)},
                                                         result_types=[i1]))
                return bb.and_(bb.and_(full, n_vec), d_aligned)
            fast = (stage_ok, staged)
        if fast is None:
            branch(b, has_c, c_path, with_c(False))
        elif SHARED_DIRECT and self.shares_direct() and exact_sum is None and not exact_i32 and not window:
            # one copy of the per-pair stores for C and for a D the fast path cannot take
            # (SHARED_DIRECT): it reads C where has_c is set
            usable, fast_emit = fast
            direct = b.emit(arith.OrIOp(has_c, b.emit(arith.XOrIOp(usable(b), true))))
            shared_beta = b.emit(arith.SelectOp(has_c, op.beta, b.const_float(-0.0, f32)))
            branch(b, direct, with_c(has_c), fast_emit)
        else:
            usable, fast_emit = fast

            def no_c(bb: ArithBuilder) -> None:
                branch(bb, usable(bb), fast_emit, with_c(False))
                bb.insert(scf.YieldOp())
            branch(b, has_c, c_path, no_c)
        self.dead.append(op)


def _ops_after(op: Operation):
    cur = op.next_op
    while cur is not None:
        yield cur
        cur = cur.next_op


@dataclass(frozen=True)
class WarpMmaPass(ModulePass):
    name = "lasscc-warp-mma"

    def apply(self, ctx: Context, op: ModuleOp) -> bool:
        """Lower every mma.sync kernel; False when there was none (the driver skips the tidy-up)."""
        changed = False
        for fn in list(op.walk()):
            if isinstance(fn, func.FuncOp) and is_kernel(fn) and not kernel_config(fn).is_wgmma:  # lasscc-warpgroup-mma's
                if any(isinstance(o, (lass_pipe.MmaOp, lass_tb.MmaOp)) for o in fn.walk()):
                    _WarpLowering(fn, kernel_config(fn)).run()
                    changed = True
        return changed
