"""lasscc-hopper-smem: the TMA ring and the warpgroup MMA of a wgmma kernel -> physical sm_90a ops.

Input contract: per-thread code of lasscc-warpgroup-mma (`lass_pipe.ring`s, `lass_pipe.tma_pipeline`
and its verbs, `lass_wg` ops).  Kernels without `lass_wg` / TMA-ring ops are left alone; a
`lass_pipe.mma` (warpgroup level not applied yet) is rejected.

Output contract: no `lass_pipe` / `lass_wg` ops remain; only `lass_nv`, arith and scf.
- The kernel takes two more parameters after `beta` (before a split kernel's W and the fused
  epilogue's extras: lasscc.config.kernel_params), the TMA tensor maps of A and B
  (`!lass_nv.tensor_map<BMxBKxT, swizzle_S>` and `<BNxBK...>`: one box per K-major tile, a
  swizzle line of K (BK elements) by the tile's rows; S = the swizzle whose line is a BK row,
  128B or 64B: lasscc.sm90_layout.SwizzleMode).  The host builds them over the kernel's A (M x K)
  and B (N x K) (lasscc/runtime/tma.py); KernelSpec.params names them `tmap_A`, `tmap_B`, and
  KernelSpec.tensor_maps gives their boxes and majors (`kernel_tensor_maps`).  A batched kernel's
  loads read `lass_tb.batch_view`s: its maps are 3-d (`<1xROWSxBK...>`, batch outermost, one
  matrix deep) and its loads `tma_load_3d` at the view's batch index.
- Ring r's slot s lives at byte r.offset + s * tile_bytes of the dynamic shared memory (each a
  multiple of the swizzle pattern, so TMA box and descriptor agree with base offset 0); the TMA
  lands a tile per sm90_layout.tile_boxes / tile_offset under the swizzle.
- `tma_pipeline`: thread 0 initialises full barrier s (byte offset + 8 s, 1 arrival) and empty
  barrier s (offset + 8 (S + s), one arrival per consumer warp of `arrivals` threads:
  resources.empty_barrier_arrivals), `fence.mbarrier_init`; then `bar.sync` (visible to
  every thread and to the TMA before any use).
- `producer_acquire` -> when pred: `mbarrier_wait_parity` empty[slot], phase ^ 1;
  `mbarrier_arrive_expect_tx` full[slot], tx.  `tma_load` -> when pred: `tma_load_2d`
  tmap[k0 (inner), row0 (outer)] -> slot, full[slot] (`tma_load_3d` tmap[k0, row0, batch]).
  `consumer_wait` -> `mbarrier_wait_parity` full[slot], phase.  `consumer_release` -> when pred, in lane 0 of each warp: `mbarrier_arrive` empty[slot].
- `lass_wg.tma_store` (the TMA-store epilogue, config epilogue = "tma") -> `tma_store_2d` tmap_D[col,
  row], src (`tma_store_3d` [col, row, batch] on a batch view of D); tmap_D, the kernel parameter after
  tmap_B (`d_tensor_map_type`: box BM x sm90_layout.epilogue_subtile, the subtile's swizzle), is in
  KernelSpec.tensor_maps as ("D", rows, cols, swizzle, "k") and built by lasscc.runtime.tma.store_map.
- `lass_wg.mma` -> `wgmma_mma_async` m64nNkK with SS descriptors (sm90_layout.tile_descriptor of
  the slot at `shared_address`, A from row `row` on: start + tile_offset(row, 0); K steps move the
  start address), scale-d 1 (the accumulators start as zeros); fence / commit / wait -> the
  `lass_nv.wgmma_*` ops.
- A kernel with `cluster = [CM, CN]` (lasscc.cluster) multicasts its shared operand and releases
  its slots to every CTA of the cluster: passes/cluster_multicast.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from lasscc import cluster as CL
from lasscc import sm90_layout as S90
from lasscc.dialects import lass_nv, lass_pipe, lass_tb, lass_wg
from lasscc.passes.cluster_multicast import ClusterPhysical
from lasscc.passes._build import ArithBuilder, erase_lowered, is_kernel, kernel_ab_type
from lasscc.passes.lower_to_llvm import MAXNTID_ATTR
from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, ModuleOp, i1, i32, i64
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException

from lasscc.config import TMAP_PARAM, kernel_params
from lasscc.dialects.lass import kernel_facts
from lasscc.passes.splitk_reduce import REDUCE_ATTR
from lasscc.layout import K_MAJOR, MN_MAJOR, elem_bytes
from lasscc.resources import RELEASE_THREADS_PER_ARRIVAL, empty_barrier_arrivals
from lasscc.source import op_location

_OPS = (lass_pipe.TmaPipelineOp, lass_pipe.ProducerAcquireOp, lass_pipe.TmaLoadOp, lass_pipe.ConsumerWaitOp,
        lass_pipe.ConsumerReleaseOp, lass_wg.MmaOp, lass_wg.FenceOp, lass_wg.CommitOp, lass_wg.WaitOp, lass_wg.TmaStoreOp)
PTX_AB = {"f16": "f16", "bf16": "bf16", "f32": "tf32", "i8": "s8"}


def swizzle_of(ring_t) -> S90.SwizzleMode:
    """The ring's swizzle (operand_swizzle of its tiles)."""
    _, rows, bk = ring_t.get_shape()
    return operand_swizzle(bk, ring_t.element_type.bitwidth // 8, MN_MAJOR if ring_t.is_mn_major else K_MAJOR)


def operand_swizzle(bk: int, eb: int, major: str) -> S90.SwizzleMode:
    """The swizzle of an operand tile: K-major, the mode whose line is one BK row (128 or 64 B);
    MN-major, 128B (lines of 64 16-bit elements along M / N: lasscc.resources.validate_wgmma
    makes the tile's rows a multiple of them)."""
    return line_swizzle(bk * eb) if major == K_MAJOR else S90.SwizzleMode.B128


def line_swizzle(row: int) -> S90.SwizzleMode:
    """The swizzle mode whose line is `row` bytes."""
    for mode in (S90.SwizzleMode.B128, S90.SwizzleMode.B64, S90.SwizzleMode.B32):
        if mode.width_bytes == row:
            return mode
    raise ValueError(f"a {row}-byte row is no swizzle line (128, 64 or 32 bytes)")


def tensor_map_type(rows: int, bk: int, element_type, major: str = K_MAJOR,
                    batched: bool = False, parts: int = 1) -> lass_nv.TensorMapType:
    """The tensor map of a rows x BK operand tile, its box as sm90_layout.tile_boxes lands the tile
    (the pass's parameters; the host builds the same map from KernelSpec): K-major, a swizzle line
    of K by the tile's rows over the (rows x K) matrix; MN-major, a line of rows by BK over the
    (K x rows) matrix; `batched`: 3-d, over the batch of such matrices, one matrix deep; `parts`:
    the box of one of that many multicast parts (lasscc.cluster.multicast_boxes)."""
    eb = element_type.bitwidth // 8
    mode = operand_swizzle(bk, eb, major)
    (inner, outer), _, _ = CL.multicast_boxes(S90.tile_boxes(rows, bk, eb, major, mode), parts, 0, major,
                                              mode.width_bytes)[0]
    return lass_nv.TensorMapType(outer, inner, element_type, f"{mode.width_bytes}b", batched)


def kernel_tensor_map_types(tile_m: int, tile_n: int, tile_k: int, ab_type: str, majors=(K_MAJOR, K_MAJOR),
                            batched: bool = False, cluster=CL.CLUSTER_NONE):
    """(A's, B's) tensor-map parameter types of a wgmma kernel with these tiles (KernelSpec's
    tile_m / tile_n / tile_k and a_dtype), the kernel's tile majors (KernelFacts.kernel_majors: its
    operand order, swapped for a column-major D), batching and cluster (the shared operand's box is
    one multicast part), for the host that builds the maps."""
    from xdsl.dialects.builtin import bf16, f16, f32, i8

    et = {"f16": f16, "bf16": bf16, "f32": f32, "i8": i8}[ab_type]
    parts = {op: (CL.sharers(cluster) if CL.shared_operand(cluster) == op else 1) for op in "AB"}
    return (tensor_map_type(tile_m, tile_k, et, majors[0], batched, parts["A"]),
            tensor_map_type(tile_n, tile_k, et, majors[1], batched, parts["B"]))


def d_tensor_map_type(tile_m: int, tile_n: int, element_type, batched: bool = False) -> lass_nv.TensorMapType:
    """The tensor map of D for the TMA-store epilogue (config epilogue = "tma", passes/tma_store.py):
    boxes of one staging subtile, the block's rows x sm90_layout.epilogue_subtile columns of the
    kernel's row-major M x N D, in the subtile's swizzle; 3-d over the batch for `batched`."""
    from lasscc.resources import TMA_STORE_D_TYPES

    cols, mode = S90.epilogue_subtile(tile_n, TMA_STORE_D_TYPES[str(element_type)])
    return lass_nv.TensorMapType(tile_m, cols, element_type, f"{mode.width_bytes}b", batched)


def kernel_tensor_maps(tile_m: int, tile_n: int, tile_k: int, ab_type: str, majors, batched: bool = False,
                       cluster=CL.CLUSTER_NONE, d_type: str | None = None) -> tuple:
    """KernelSpec.tensor_maps of a wgmma kernel: (operand, box rows, box cols, swizzle, major) of the
    maps its tensor-map parameters take, in the kernel's operand order (the types
    `kernel_tensor_map_types` gives the kernel; lasscc.runtime.tma.operand_map builds them); with
    `d_type` (the TMA-store epilogue) D's map too (`d_tensor_map_type`, row-major: "k")."""
    maps = tuple((op, *t.box, t.swizzle_mode, major) for op, t, major in
                 zip("AB", kernel_tensor_map_types(tile_m, tile_n, tile_k, ab_type, majors, batched, cluster), majors))
    if d_type is None:
        return maps
    from xdsl.dialects.builtin import bf16, f16, f32, i32

    t = d_tensor_map_type(tile_m, tile_n, {"f16": f16, "bf16": bf16, "f32": f32, "i32": i32}[d_type], batched)
    return maps + (("D", *t.box, t.swizzle_mode, K_MAJOR),)


def _view_batch_index(matrix, op, what: str):
    """The batch index of `matrix` when it is a `lass_tb.batch_view` (a batched kernel,
    lasscc-tile-threadblock), or None for a 2-d kernel argument.  A view of another form is
    rejected: its tensor map could not say where the matrix starts."""
    if isinstance(matrix.owner, lass_tb.BatchViewOp):
        return matrix.owner.index
    if matrix.type.get_num_dims() != 2:
        raise PassFailedException(f"{op_location(op)}: error: expected the {what} a kernel argument or a "
                                  f"lass_tb.batch_view of one, got {matrix.type}")
    return None


def batch_index(load: lass_pipe.TmaLoadOp):
    """The batch a TMA load reads (`_view_batch_index` of its source)."""
    return _view_batch_index(load.source, load, "TMA load's source")


def store_batch_index(store: lass_wg.TmaStoreOp):
    """The batch a TMA store writes (`_view_batch_index` of its destination, D)."""
    return _view_batch_index(store.dest, store, "TMA store's destination")


def insert_tensor_map_param(fn: func.FuncOp, operand: str, t: lass_nv.TensorMapType):
    """Add `operand`'s tensor-map parameter to kernel `fn` where the kernel ABI puts it
    (lasscc.config.kernel_params: after beta, before split-K's W and the epilogue's extras)."""
    facts = kernel_facts(fn)
    names = kernel_params(True, facts.config.has_workspace, len(facts.epilogue), d_map=facts.config.epilogue == "tma")
    arg = fn.body.block.insert_arg(t, names.index(TMAP_PARAM + operand))
    arg.name_hint = TMAP_PARAM + operand
    fn.function_type = func.FunctionType.from_lists(list(fn.body.block.arg_types), [])
    return arg


class _Physical:
    def __init__(self, fn: func.FuncOp):
        self.fn = fn
        self.ab = kernel_ab_type(fn)
        self.eb = elem_bytes(self.ab)
        self.dead: list[Operation] = []
        self.tid = next((o.results[0] for o in fn.body.block.ops if isinstance(o, lass_nv.ThreadIdOp)), None)
        if self.tid is None:
            b = ArithBuilder(InsertPoint.at_start(fn.body.block))
            self.tid = b.emit(lass_nv.ThreadIdOp.build(result_types=[i32]))
        self.tmaps: dict[str, object] = {}
        self.cl = ClusterPhysical.of(fn)  # a clustered kernel's multicast (passes/cluster_multicast.py)
        self.built: dict[Block, dict] = {}  # the ArithBuilders' `shared` dict of each block (`rewrite`)

    # -- helpers ------------------------------------------------------------------------------
    def tensor_map(self, ring_t, operand: str, batched: bool):
        """The kernel parameter of `operand`'s tensor map (appended on first use)."""
        if operand not in self.tmaps:
            _, rows, bk = ring_t.get_shape()
            t = tensor_map_type(rows, bk, ring_t.element_type, MN_MAJOR if ring_t.is_mn_major else K_MAJOR, batched,
                                self.cl.parts(operand) if self.cl else 1)
            self.tmaps[operand] = insert_tensor_map_param(self.fn, operand, t)
        return self.tmaps[operand]

    def d_map(self, store: lass_wg.TmaStoreOp):
        """The kernel parameter of D's tensor map (appended on first use, after A's and B's)."""
        if "D" not in self.tmaps:
            bm, bn, _ = kernel_facts(self.fn).config.threadblock
            t = d_tensor_map_type(bm, bn, store.dest.type.get_element_type(), store_batch_index(store) is not None)
            self.tmaps["D"] = insert_tensor_map_param(self.fn, "D", t)
        return self.tmaps["D"]

    def slot_offset(self, b: ArithBuilder, ring, slot):
        ro = ring.owner
        if not isinstance(ro, lass_pipe.RingOp):
            raise PassFailedException(f"{op_location(self.fn)}: error: expected rings made by lass_pipe.ring")
        return b.add(b.mul(slot, ring.type.tile_bytes()), int(ro.offset.value.data))

    @staticmethod
    def bar_offsets(pipe) -> tuple[int, int]:
        """(byte of full barrier 0, byte of empty barrier 0)."""
        op = pipe.owner
        off, S = int(op.offset.value.data), op.result.type.count
        return off, off + lass_nv.MBARRIER_BYTES * S

    def bar(self, b: ArithBuilder, pipe, slot, empty: bool):
        full0, empty0 = self.bar_offsets(pipe)
        return b.add(b.mul(slot, lass_nv.MBARRIER_BYTES), empty0 if empty else full0)

    def guarded(self, b: ArithBuilder, pred, body) -> None:
        """scf.if pred { body(builder) } (no branch for a constant true)."""
        owner = pred.owner
        if isinstance(owner, arith.ConstantOp) and owner.value.value.data:
            body(b)
            return
        blk = Block()
        b.insert(scf.IfOp(pred, [], Region(blk)))
        inner = ArithBuilder(InsertPoint.at_end(blk))
        body(inner)
        inner.insert(scf.YieldOp())

    def descriptor(self, b: ArithBuilder, ring, slot, row, rows: int, k: int):
        """The i64 wgmma descriptor of the slot's rows row.. at k (sm90_layout.tile_descriptor)."""
        _, nrows, bk = ring.type.get_shape()
        mode, major = swizzle_of(ring.type), MN_MAJOR if ring.type.is_mn_major else K_MAJOR
        base = b.idx(b.emit(lass_nv.SharedAddressOp.build(operands=[self.slot_offset(b, ring, slot)],
                                                           result_types=[i32])))
        start = base if row is None else base + S90.tile_offset(b.idx(row), 0, nrows, bk, self.eb, major, mode)
        desc = S90.tile_descriptor(start, nrows, bk, self.eb, major, mode, k_offset=k)
        lo, hi = desc.words()
        lo64 = b.emit(arith.ExtUIOp(b.val(lo), i64))
        return b.emit(arith.OrIOp(lo64, b.const(hi << 32, i64)))

    # -- rewrites -----------------------------------------------------------------------------
    def rewrite(self, op: Operation) -> None:
        # the ops are rewritten in block order (`run`): a block's builders share what they built
        b = ArithBuilder(InsertPoint.before(op), shared=self.built.setdefault(op.parent_block(), {}))
        if isinstance(op, lass_pipe.TmaPipelineOp):
            S = op.result.type.count
            full0, empty0 = self.bar_offsets(op.result)
            arrivals = int(op.arrivals.value.data)  # consumer threads (lasscc-pipeline)
            arrivals = self.cl.empty_arrivals(arrivals) if self.cl else empty_barrier_arrivals(arrivals)

            def init(ib: ArithBuilder) -> None:
                for s in range(S):
                    ib.insert(lass_nv.MbarrierInitOp.build(operands=[ib.const(full0 + 8 * s), ib.const(1)]))
                    ib.insert(lass_nv.MbarrierInitOp.build(operands=[ib.const(empty0 + 8 * s), ib.const(arrivals)]))
                ib.insert(lass_nv.FenceMbarrierInitOp())

            self.guarded(b, b.emit(arith.CmpiOp(self.tid, b.const(0), "eq")), init)
            if self.cl:
                self.cl.sync(b)
            else:
                b.insert(lass_nv.BarSyncOp())
        elif isinstance(op, lass_pipe.ProducerAcquireOp):
            tx = int(op.tx.value.data)

            def acquire(ib: ArithBuilder) -> None:
                ib.insert(lass_nv.MbarrierWaitParityOp.build(operands=[
                    self.bar(ib, op.barriers, op.slot, True), ib.emit(arith.XOrIOp(op.phase, ib.const(1)))]))
                ib.insert(lass_nv.MbarrierArriveExpectTxOp.build(operands=[
                    self.bar(ib, op.barriers, op.slot, False), ib.const(tx)]))
            self.guarded(b, op.pred, acquire)
        elif isinstance(op, lass_pipe.TmaLoadOp):
            ring_t = op.ring.type
            _, rows, bk = ring_t.get_shape()
            mn = ring_t.is_mn_major
            boxes = S90.tile_boxes(rows, bk, self.eb, MN_MAJOR if mn else K_MAJOR, swizzle_of(ring_t))
            batch = batch_index(op)
            tmap = self.tensor_map(ring_t, op.operand.data, batch is not None)

            def load(ib: ArithBuilder) -> None:
                dst = self.slot_offset(ib, op.ring, op.slot)
                bar = self.bar(ib, op.barriers, op.slot, False)
                if self.cl and self.cl.parts(op.operand.data) > 1:
                    self.cl.load(ib, op, boxes, mn, swizzle_of(ring_t), tmap, dst, bar, batch)
                    return
                for _box, (r_off, k_off), off in boxes:  # coordinates (inner, outer): (k, row) or (row, k)
                    r, kk = ib.add(op.row0, r_off), ib.add(op.k0, k_off)
                    coords = [*((r, kk) if mn else (kk, r))] + ([batch] if batch is not None else [])
                    cls = lass_nv.TmaLoad3dOp if batch is not None else lass_nv.TmaLoad2dOp
                    ib.insert(cls.build(operands=[tmap, *coords, ib.add(dst, off), bar]))
            self.guarded(b, op.pred, load)
        elif isinstance(op, lass_wg.TmaStoreOp):  # the TMA-store epilogue's subtile (passes/tma_store.py)
            batch = store_batch_index(op)
            tmap = self.d_map(op)
            coords = [op.col, op.row] + ([batch] if batch is not None else [])
            cls = lass_nv.TmaStore3dOp if batch is not None else lass_nv.TmaStore2dOp
            b.insert(cls.build(operands=[tmap, *coords, op.src]))
        elif isinstance(op, lass_pipe.ConsumerWaitOp):
            b.insert(lass_nv.MbarrierWaitParityOp.build(operands=[self.bar(b, op.barriers, op.slot, False), op.phase]))
        elif isinstance(op, lass_pipe.ConsumerReleaseOp):
            # one lane per warp arrives (resources.RELEASE_THREADS_PER_ARRIVAL; the barrier's count)
            lane = b.emit(arith.AndIOp(self.tid, b.const(RELEASE_THREADS_PER_ARRIVAL - 1)))
            pred = b.emit(arith.AndIOp(op.pred, b.emit(arith.CmpiOp(lane, b.const(0), "eq"))))
            if self.cl:
                self.guarded(b, pred, lambda ib: self.cl.release(ib, self.bar(ib, op.barriers, op.slot, True)))
            else:
                self.guarded(b, pred, lambda ib: ib.insert(lass_nv.MbarrierArriveOp.build(
                    operands=[self.bar(ib, op.barriers, op.slot, True)])))
        elif isinstance(op, lass_wg.FenceOp):
            b.insert(lass_nv.WgmmaFenceOp())
        elif isinstance(op, lass_wg.CommitOp):
            b.insert(lass_nv.WgmmaCommitGroupOp())
        elif isinstance(op, lass_wg.WaitOp):
            b.insert(lass_nv.WgmmaWaitGroupOp.build(attributes={"pending": IntegerAttr(op.pending.value.data, 64)}))
        elif isinstance(op, lass_wg.MmaOp):
            k = int(op.k.value.data)
            da = self.descriptor(b, op.a, op.slot_a, op.row, S90.WGMMA_M, k)
            db = self.descriptor(b, op.b, op.slot_b, b.const(op.b_row) if op.b_row else None, op.n, k)
            one = b.const(1, i1)
            mma = b.insert(lass_nv.WgmmaMmaAsyncOp(da, db, list(op.c), one, op.n, PTX_AB[self.ab],
                                                   trans_a=S90.TRANS_BIT[MN_MAJOR if op.a.type.is_mn_major else K_MAJOR],
                                                   trans_b=S90.TRANS_BIT[MN_MAJOR if op.b.type.is_mn_major else K_MAJOR]))
            for old, new in zip(op.d, mma.results):
                old.replace_all_uses_with(new)
        self.dead.append(op)

    def run(self) -> None:
        pipe_mma = next((o for o in self.fn.walk() if isinstance(o, lass_pipe.MmaOp)), None)
        if pipe_mma is not None:
            raise PassFailedException(f"{op_location(pipe_mma)}: error: expected lass_wg ops (run "
                                      "lasscc-warpgroup-mma first), got lass_pipe.mma")
        ops = [o for o in self.fn.walk() if isinstance(o, _OPS)]
        for name in ("A", "B"):
            load = next((o for o in ops if isinstance(o, lass_pipe.TmaLoadOp) and o.operand.data == name), None)
            if load is not None:
                self.tensor_map(load.ring.type, name, batch_index(load) is not None)
        store = next((o for o in ops if isinstance(o, lass_wg.TmaStoreOp)), None)
        if store is not None:
            self.d_map(store)
        for op in ops:
            self.rewrite(op)
        erase_lowered(self.fn, ops)
        if self.cl:
            self.cl.finish()
        threads = kernel_facts(self.fn).config.threads
        self.fn.attributes[MAXNTID_ATTR] = DenseArrayBase.from_list(i32, [threads, 1, 1])


@dataclass(frozen=True)
class HopperSmemPass(ModulePass):
    name = "lasscc-hopper-smem"

    def apply(self, ctx: Context, op: ModuleOp) -> bool:
        """Lower every kernel holding Hopper ring ops; False when there was none (the driver skips the tidy-up)."""
        changed = False
        for fn in list(op.walk()):
            if isinstance(fn, func.FuncOp) and is_kernel(fn) and any(isinstance(o, _OPS) for o in fn.walk()):
                _Physical(fn).run()
                # parallel split-K's reduction takes its GEMM's arguments: the tensor maps too (unused)
                red = next((r for r in op.ops if isinstance(r, func.FuncOp) and REDUCE_ATTR in r.attributes
                            and r.attributes[REDUCE_ATTR].data == fn.sym_name.data), None)
                if red is not None:
                    for name in ("A", "B"):
                        insert_tensor_map_param(red, name, fn.body.block.args[
                            kernel_params(True).index(TMAP_PARAM + name)].type)
                changed = True
        return changed
