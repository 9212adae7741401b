"""lasscc-warpgroup-mma, the cluster split-K part (`split_k_mode = "cluster"`, lasscc.cluster_splitk):
`lass_tb.cluster_reduce` and the epilogue's column window as per-thread code.

    %rank = lass_cluster.ctarank
    lass_nv.bar_sync                                               // every wgmma retired: the rings are free
    lass_nv.st_shared partial_byte(q, tid), acc[4q .. 4q+3]       // every quad q, as i32 bits
    lass_cluster.sync                                              // barrier 1: every partial written
    for each quad q (its owner o = cluster_splitk.owner of its 16-column block, static):
        mine = rank == o
        w_p = lass_cluster.ld_shared_remote partial_byte(q, tid), p if mine && rank != p   (p = 0 .. S-1)
        sum = x_0 + x_1 + ... + x_{S-1}, x_p = rank == p ? acc : w_p   (rank order; f32 / i32)
        acc'[4q .. 4q+3] = mine ? sum : acc
    lass_cluster.sync                                              // barrier 2: no partial read after

The epilogue's accesses (D's stores, C's and the fused epilogue's [mn] loads) are predicated on
`rank == owner(column)` as well (`owner_pred`); a cluster split-K kernel takes the direct stores
(no staged epilogue: its staging buffers are the partials' bytes).  The kernel gets
`nvvm.cluster_dim` = (S, 1, 1) (`.reqnctapercluster`, passes/lower_cluster.py).
"""

from __future__ import annotations

from lasscc import cluster_splitk as CS
from lasscc.dialects import lass_cluster, lass_nv
from lasscc.passes._build import ArithBuilder
from lasscc.passes.lower_to_llvm import CLUSTER_DIM_ATTR
from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseArrayBase, IntegerType, f32, i32
from xdsl.rewriter import InsertPoint

MMA_N = 8  # columns of one n8 block of the C fragment: quad (mi, ni) lies in 16-column block ni // 2


def quad_block(ni: int) -> int:
    """First tile column of the 16-column block of n8 block `ni` (interleaved or not)."""
    return (ni // 2) * 2 * MMA_N


def rank_of(lw, b: ArithBuilder):
    """This CTA's %cluster_ctarank (one per kernel lowering)."""
    if getattr(lw, "_cluster_rank", None) is None:
        fb = ArithBuilder(InsertPoint.after(lw.tid.owner))
        lw._cluster_rank = fb.emit(lass_cluster.CtaRankOp.build(result_types=[i32]))
        lw._cluster_rank.name_hint = "cta_rank"
        lw.fn.attributes[CLUSTER_DIM_ATTR] = DenseArrayBase.from_list(i32, list(CS.launch_dims(lw.cfg.split_k)))
    return lw._cluster_rank


def owner_pred(lw, b: ArithBuilder, col_c: int, split: int):
    """i1: this CTA owns static tile column `col_c` (the warp tile is the whole BN: wn0 = 0)."""
    bn = lw.cfg.threadblock[1]
    return b.emit(arith.CmpiOp(rank_of(lw, b), b.const(CS.owner(col_c, bn, split)), "eq"))


def lower_reduce(lw, op, acc: list) -> list:
    """The per-thread values of `lass_tb.cluster_reduce` (see the module docstring)."""
    split = op.split.value.data
    b = ArithBuilder(InsertPoint.before(op))
    rank = rank_of(lw, b)
    et = acc[0].type
    integer = isinstance(et, IntegerType)
    threads = lw.cfg.threads
    bn = lw.cfg.threadblock[1]

    def bits(v):
        return v if integer else b.emit(arith.BitcastOp(v if et == f32 else b.emit(arith.ExtFOp(v, f32)), i32))

    quads = len(acc) // CS.QUAD
    b.insert(lass_nv.BarSyncOp())  # every warpgroup's wgmmas retired: the rings' bytes are free
    addrs = []
    for q in range(quads):
        addr = b.val(CS.partial_byte(q, b.idx(lw.tid), threads))
        addrs.append(addr)
        b.insert(lass_nv.StSharedOp.build(operands=[addr, [bits(v) for v in acc[4 * q:4 * q + 4]]]))
    b.insert(lass_cluster.SyncOp())
    out = list(acc)
    is_p = [b.emit(arith.CmpiOp(rank, b.const(p), "eq")) for p in range(split)]
    true = b.const(1, IntegerType(1))
    for q in range(quads):
        ni = q % lw.ni
        o = CS.owner(quad_block(ni), bn, split)
        mine = is_p[o]
        vals = acc[4 * q:4 * q + 4]
        wide = [v if integer or et == f32 else b.emit(arith.ExtFOp(v, f32)) for v in vals]
        total = None
        for p in range(split):
            load = b.and_(mine, b.emit(arith.XOrIOp(is_p[p], true)))
            got = b.insert(lass_cluster.LdSharedRemoteOp(addrs[q], b.const(p), load)).results
            xs = [b.emit(arith.SelectOp(is_p[p], w, g if integer else b.emit(arith.BitcastOp(g, f32))))
                  for w, g in zip(wide, got)]
            total = xs if total is None else [b.emit(arith.AddiOp(t, x) if integer else arith.AddfOp(t, x))
                                              for t, x in zip(total, xs)]
        for j, (v, t) in enumerate(zip(vals, total)):
            t = t if integer or et == f32 else b.emit(arith.TruncFOp(t, et))
            out[4 * q + j] = b.emit(arith.SelectOp(mine, t, v))
    b.insert(lass_cluster.SyncOp())
    return out
