"""The cluster part of lasscc-hopper-smem: a kernel with `cluster = [CM, CN]` (lasscc.cluster).

passes/hopper_smem.py's `_Physical` asks `ClusterPhysical.of(fn)` and, for a clustered kernel,
lowers the TMA ring through it instead of the single-CTA ops:
- the rank: `lass_cluster.ctarank` once at the kernel's start;
- `tma_pipeline`: the empty barriers expect resources.empty_barrier_arrivals (the consumers of
  every CTA sharing the multicast operand), and after `fence.mbarrier_init` a `lass_cluster.sync`
  instead of bar.sync (a peer's multicast or arrival must find the barriers initialised);
- `tma_load` of the shared operand: this rank's part of the tile's boxes
  (cluster.multicast_boxes) as `lass_cluster.tma_load_multicast` to every CTA of the cluster
  (cluster.cta_mask); the full barrier still expects the whole tile's bytes;
- `consumer_release`: the local arrival, and one `lass_cluster.mbarrier_arrive_remote` on the same
  empty barrier of every other CTA of the cluster (their producers multicast into this slot too);
- the kernel's end: a `lass_cluster.sync` (no CTA exits while a peer can still write its shared
  memory or arrive on its barriers).
A tile whose outer box dimension cannot be cut into whole swizzle atoms is rejected (the config's
validator says so first; a hand-written kernel reaches the pass).
"""

from __future__ import annotations

from lasscc import cluster as CL
from lasscc.dialects import lass_cluster, lass_nv
from lasscc.dialects.lass import kernel_facts
from lasscc.layout import K_MAJOR, MN_MAJOR
from lasscc.resources import empty_barrier_arrivals
from lasscc.source import op_location
from xdsl.dialects import func
from lasscc.passes.lower_to_llvm import CLUSTER_DIM_ATTR
from xdsl.dialects.builtin import DenseArrayBase, i32
from xdsl.utils.exceptions import PassFailedException


class ClusterPhysical:
    """The cluster ops of one kernel (see the module docstring)."""

    def __init__(self, fn: func.FuncOp, cluster: tuple[int, int]):
        self.fn, self.cluster = fn, cluster
        self.shared = CL.shared_operand(cluster)
        self.n = CL.sharers(cluster)
        self.size = CL.size(cluster)
        blk = fn.body.block
        self.rank = next((o.result for o in blk.ops if isinstance(o, lass_cluster.CtaRankOp)), None)
        if self.rank is None:
            op = lass_cluster.CtaRankOp.build(result_types=[i32])
            blk.insert_op_before(op, blk.first_op)
            self.rank = op.result
            self.rank.name_hint = "cta_rank"

    @classmethod
    def of(cls, fn: func.FuncOp) -> ClusterPhysical | None:
        cl = tuple(kernel_facts(fn).config.cluster)
        return None if cl == CL.CLUSTER_NONE else cls(fn, cl)

    def parts(self, operand: str) -> int:
        """Multicast parts of `operand`'s tile (1: loaded whole by each CTA)."""
        return self.n if operand == self.shared else 1

    def empty_arrivals(self, arrivals: int) -> int:
        return empty_barrier_arrivals(arrivals, self.cluster)

    @staticmethod
    def sync(b) -> None:
        b.insert(lass_cluster.SyncOp())

    def load(self, ib, op, boxes, mn: bool, mode, tmap, dst, bar, batch) -> None:
        """The shared operand's tma_load: this rank's part of every box, multicast to the cluster."""
        _, rows, bk = op.ring.type.get_shape()
        major = MN_MAJOR if mn else K_MAJOR
        bad = CL.multicast_error(rows, bk, major, self.n)
        if bad:
            raise PassFailedException(f"{op_location(op)}: error: cluster = {list(self.cluster)}: the {op.operand.data} "
                                      f"tile ({rows} x {bk}): {bad}")
        mine = CL.multicast_boxes(boxes, self.n, ib.idx(self.rank), major, mode.width_bytes)
        mask = ib.const(CL.cta_mask(self.cluster))
        for _box, (c_inner, c_outer), off in mine:  # (inner, outer): (k, row) K-major, (row, k) MN-major
            inner, outer = ib.add(op.row0 if mn else op.k0, c_inner), ib.add(op.k0 if mn else op.row0, c_outer)
            coords = [inner, outer] + ([batch] if batch is not None else [])
            ib.insert(lass_cluster.TmaLoadMulticastOp.build(operands=[tmap, coords, ib.add(dst, off), bar, mask]))

    def release(self, ib, bar) -> None:
        """consumer_release: the local arrival and one on each peer's same empty barrier."""
        ib.insert(lass_nv.MbarrierArriveOp.build(operands=[bar]))
        for d in range(1, self.size):
            peer = ib.rem(ib.add(self.rank, d), self.size)
            ib.insert(lass_cluster.MbarrierArriveRemoteOp.build(operands=[bar, peer]))

    def finish(self) -> None:
        """A cluster barrier before the kernel's return."""
        ret = self.fn.body.block.last_op
        self.fn.body.block.insert_op_before(lass_cluster.SyncOp(), ret)
        self.fn.attributes[CLUSTER_DIM_ATTR] = DenseArrayBase.from_list(i32, list(CL.launch_dims(self.cluster)))
