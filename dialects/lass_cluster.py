"""`lass_cluster`: thread block clusters and TMA multicast (sm_90a; config `cluster`, lasscc.cluster).

Per-thread code for a kernel with `cluster = [CM, CN]` (the CTA's position: lasscc-warp-mma's
block_tile; the rest: lasscc-hopper-smem):

    %rank = lass_cluster.ctarank                             // %cluster_ctarank
    %c = lass_cluster.cluster_id                             // %clusterid.x
    lass_cluster.sync                                        // barrier.cluster.arrive.release + wait.acquire
    lass_cluster.tma_load_multicast %tmap[%c0, %c1], %dst, %bar, %mask : !lass_nv.tensor_map<...>
    lass_cluster.mbarrier_arrive_remote %bar, %rank          // mapa + mbarrier.arrive.shared::cluster
    %w:4 = lass_cluster.ld_shared_remote %addr, %rank if %p  // mapa + ld.shared::cluster.v4 (cluster split-K)

The multicast and the remote arrival name shared memory by the executing CTA's offsets (`dst`,
`bar`): the PTX ISA applies them in each destination CTA (5.1.3 "Shared State Space": the same
offset in every CTA of the cluster).  Lowered by passes/lower_cluster.py, executed by
lasscc/interp/cluster.py.
"""

from __future__ import annotations

from xdsl.dialects.builtin import i1, i32
from xdsl.ir import Dialect
from xdsl.irdl import (IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def, var_operand_def,
                       var_result_def)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

from lasscc.dialects.lass_nv import TensorMapType


@irdl_op_definition
class CtaRankOp(IRDLOperation):
    """%cluster_ctarank: this CTA's rank in its cluster (PTX ISA 10.14; with cluster dims (n, 1, 1)
    of a 1-d grid, %ctaid.x mod n)."""

    name = "lass_cluster.ctarank"
    traits = traits_def(Pure())
    result = result_def(i32)
    assembly_format = "attr-dict"


@irdl_op_definition
class ClusterIdOp(IRDLOperation):
    """%clusterid.x: the cluster's index along x in the grid of clusters (PTX ISA 10.16; with cluster
    dims (n, 1, 1) of a 1-d grid, %ctaid.x / n)."""

    name = "lass_cluster.cluster_id"
    traits = traits_def(Pure())
    result = result_def(i32)
    assembly_format = "attr-dict"


@irdl_op_definition
class SyncOp(IRDLOperation):
    """barrier.cluster.arrive.release; barrier.cluster.wait.acquire (PTX ISA 9.7.13.4): every thread
    of every CTA of the cluster arrives, then waits for all; orders their shared-memory accesses
    (and mbarrier_init's, after fence.mbarrier_init) at cluster scope.  After the barriers' init
    (no peer may arrive on or multicast into a barrier before it exists) and before the kernel's
    end (no CTA may exit while a peer can still write its shared memory)."""

    name = "lass_cluster.sync"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "attr-dict"


@irdl_op_definition
class TmaLoadMulticastOp(IRDLOperation):
    """cp.async.bulk.tensor.{2,3}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
    .multicast::cluster [dst], [tmap, {coords}], [bar], ctaMask (PTX ISA 9.7.9.27.1.2): the box at
    `coords` lands at shared byte `dst` of every CTA whose rank's bit is set in `mask` (16 bits),
    and completes its bytes on the mbarrier at `bar` of each of them.  Issued by one thread."""

    name = "lass_cluster.tma_load_multicast"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    tmap = operand_def(TensorMapType)
    coords = var_operand_def(i32)
    dst = operand_def(i32)
    bar = operand_def(i32)
    mask = operand_def(i32)
    assembly_format = "$tmap `[` $coords `]` `,` $dst `,` $bar `,` $mask attr-dict `:` type($tmap)"

    def verify_(self) -> None:
        if len(self.coords) != self.tmap.type.rank:
            raise VerifyException(f"expected {self.tmap.type.rank} coordinates for {self.tmap.type}, "
                                  f"got {len(self.coords)}")


@irdl_op_definition
class MbarrierArriveRemoteOp(IRDLOperation):
    """mapa.shared::cluster.u32 r, bar, rank; mbarrier.arrive.shared::cluster.b64 _, [r]
    (PTX ISA 9.7.9.17, 9.7.13.15.13): one arrival on the mbarrier at shared byte `bar` of the
    cluster's CTA `rank` (default .release.cta semantics, as CUTLASS's ClusterBarrier::arrive)."""

    name = "lass_cluster.mbarrier_arrive_remote"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    bar = operand_def(i32)
    rank = operand_def(i32)
    assembly_format = "$bar `,` $rank attr-dict"


@irdl_op_definition
class LdSharedRemoteOp(IRDLOperation):
    """mapa.shared::cluster.u32 r, addr, rank; @pred ld.shared::cluster.v4.b32 (PTX ISA 9.7.9.17,
    9.7.9.8): the four 32-bit words at shared byte `addr` (16-byte aligned) of the cluster's CTA
    `rank` (distributed shared memory; the executing CTA's own rank reads its own), zeros and no
    access where `pred` is false.  Cluster split-K's reduction (lasscc.cluster_splitk)."""

    name = "lass_cluster.ld_shared_remote"
    traits = traits_def(MemoryReadEffect())
    addr = operand_def(i32)
    rank = operand_def(i32)
    pred = operand_def(i1)
    values = var_result_def()
    assembly_format = "$addr `,` $rank `if` $pred attr-dict `:` type($values)"

    def __init__(self, addr, rank, pred):
        super().__init__(operands=[addr, rank, pred], result_types=[[i32] * 4])

    def verify_(self) -> None:
        if len(self.values) != 4 or any(v.type != i32 for v in self.values):
            raise VerifyException(f"expected 4 i32 results, got {[str(v.type) for v in self.values]}")


CLUSTER_OPS = [CtaRankOp, ClusterIdOp, SyncOp, TmaLoadMulticastOp, MbarrierArriveRemoteOp, LdSharedRemoteOp]
LassCluster = Dialect("lass_cluster", CLUSTER_OPS, [])
