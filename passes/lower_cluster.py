"""lasscc-lower-to-llvm, the cluster part: `lass_cluster` ops -> `llvm` (called by passes/lower_sm90.py).

    ctarank                 llvm.nvvm.read.ptx.sreg.cluster.ctarank
    cluster_id              llvm.nvvm.read.ptx.sreg.clusterid.x
    sync                    inline PTX barrier.cluster.arrive.release; barrier.cluster.wait.acquire
                            (not .aligned: the threads may reach it from divergent code)
    tma_load_multicast      llvm.nvvm.cp.async.bulk.tensor.g2s.tile.{2,3}d with use-multicast = 1
                            and the i16 ctaMask (the destination and the mbarrier by this CTA's
                            offsets, which the PTX ISA applies in every destination CTA)
    ld_shared_remote        inline PTX mapa.shared::cluster.u32 + @p ld.shared::cluster.v4.b32 (zeros
                            where the predicate is false; cluster split-K's DSMEM reads)
    mbarrier_arrive_remote  inline PTX mapa.shared::cluster.u32 + mbarrier.arrive.shared::cluster.b64
                            (LLVM 22's arrive intrinsics take no remote CTA; the default .release
                            .cta semantics, as CUTLASS's ClusterBarrier::arrive(cta_id): the
                            released reads were the wgmmas', retired by the wait before; a
                            .release.cluster arrive costs a cluster-scope fence each, stalling the
                            warps on MEMBAR 13 cycles per issue: 0.6x cuBLAS, BENCHMARKS session 9)

The kernel's `nvvm.cluster_dim` (array<i32: x, y, z>, written by lasscc-hopper-smem) becomes the
function attribute "nvvm.cluster_dim"="x,y,z" (lasscc/emit.py): LLVM prints `.explicitcluster` and
`.reqnctapercluster x, y, z`, so a launch without the matching cluster dimension fails.
"""

from __future__ import annotations

from lasscc.dialects import lass_cluster
from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntAttr, IntegerType, i1, i32, i64

SHARED_CLUSTER_AS = 7  # NVPTX address space of shared::cluster pointers
CTA_GROUP_NONE = 0
CLUSTER_SYNC_ASM = "barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;"
# cluster split-K's DSMEM read (lasscc.cluster_splitk): zeros where the predicate is false
LD_REMOTE_ASM = ("{\n\t.reg .pred p;\n\t.reg .b32 ra;\n\tsetp.ne.b32 p, $6, 0;\n\tmov.b32 $0, 0;\n\tmov.b32 $1, 0;\n\t"
                 "mov.b32 $2, 0;\n\tmov.b32 $3, 0;\n\tmapa.shared::cluster.u32 ra, $4, $5;\n\t"
                 "@p ld.shared::cluster.v4.b32 {$0, $1, $2, $3}, [ra];\n\t}")
ARRIVE_REMOTE_ASM = ("{\n\t.reg .b32 ra;\n\tmapa.shared::cluster.u32 ra, $0, $1;\n\t"
                     "mbarrier.arrive.shared::cluster.b64 _, [ra];\n\t}")


def lower_cluster(lw, op) -> bool:
    """Lower `op` (a lass_cluster op) with the lowerer `lw`; False when it is not one."""
    if isinstance(op, lass_cluster.CtaRankOp):
        lw.map[op.result] = lw.intrinsic("llvm.nvvm.read.ptx.sreg.cluster.ctarank", [], [i32]).results[0]
    elif isinstance(op, lass_cluster.ClusterIdOp):
        lw.map[op.result] = lw.intrinsic("llvm.nvvm.read.ptx.sreg.clusterid.x", [], [i32]).results[0]
    elif isinstance(op, lass_cluster.SyncOp):
        lw.emit(llvm.InlineAsmOp(CLUSTER_SYNC_ASM, "~{memory}", [], [], has_side_effects=True))
    elif isinstance(op, lass_cluster.TmaLoadMulticastOp):
        shared = lw.emit(llvm.PtrToIntOp(lw.shared_ptr(lw.lowered(op.dst)), i32))
        dst = lw.emit(llvm.IntToPtrOp.create(operands=[lw.emit(llvm.ZExtOp(shared, i64))],
                                             result_types=[llvm.LLVMPointerType(IntAttr(SHARED_CLUSTER_AS))]))
        mask = lw.emit(llvm.TruncOp(lw.lowered(op.mask), IntegerType(16)))
        # (dst, bar, tmap, coords..., multicast mask, cache hint, use multicast, use cache hint, cta_group)
        args = [dst, lw.shared_ptr(lw.lowered(op.bar)), lw.lowered(op.tmap), *(lw.lowered(c) for c in op.coords),
                mask, lw.const(0, i64), lw.const(1, i1), lw.const(0, i1), lw.const(CTA_GROUP_NONE)]
        lw.intrinsic(f"llvm.nvvm.cp.async.bulk.tensor.g2s.tile.{len(op.coords)}d", args)
    elif isinstance(op, lass_cluster.MbarrierArriveRemoteOp):
        bar = lw.emit(llvm.PtrToIntOp(lw.shared_ptr(lw.lowered(op.bar)), i32))
        lw.emit(llvm.InlineAsmOp(ARRIVE_REMOTE_ASM, "r,r,~{memory}", [bar, lw.lowered(op.rank)], [],
                                 has_side_effects=True))
    elif isinstance(op, lass_cluster.LdSharedRemoteOp):
        addr = lw.emit(llvm.PtrToIntOp(lw.shared_ptr(lw.lowered(op.addr)), i32))
        pred = lw.emit(llvm.ZExtOp(lw.lowered(op.pred), i32))
        st = llvm.LLVMStructType.from_type_list([i32] * 4)
        res = lw.emit(llvm.InlineAsmOp(LD_REMOTE_ASM, "=&r,=&r,=&r,=&r,r,r,r,~{memory}",
                                       [addr, lw.lowered(op.rank), pred], [st], has_side_effects=True))
        for old, new in zip(op.values, lw.struct_fields(res, [i32] * 4)):
            lw.map[old] = new
    else:
        return False
    return True
