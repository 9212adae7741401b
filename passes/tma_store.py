"""The TMA-store epilogue of a wgmma kernel (config `epilogue = "tma"`; CUTLASS's sm90 TMA epilogue).

lasscc-warpgroup-mma calls `tma_store_epilogue` for the epilogue's branch without C (beta == 0:
with C the direct per-thread path of lasscc-warp-mma stays, it reads C where it stores D).  The
block's BM x BN tile is stored in subtiles of BM rows x `sm90_layout.epilogue_subtile` columns (one
swizzle line of D per row), alternating between EPILOGUE_STAGE_BUFFERS staging buffers after the
rings (`resources.tma_store_stage_offset`: apart from the ring, which a persistent kernel's producer
refills meanwhile).  For subtile s, in every thread:

    [s >= 2: thread 0 `bulk_wait_group_read {pending = 1}`: the store of subtile s - 2 has read
     the buffer; s == 0 of a persistent kernel: thread 0 `bulk_wait_group_read {pending = 0}`:
     the previous tile's stores have read both buffers] bar.sync
    the subtile's accumulators (alpha * acc through the fused epilogue, in D's type, exactly as the
    direct path computes them) -> the buffer at `sm90_layout.epilogue_stage_offset` (the D map's
    swizzle): `lass_nv.stmatrix_x4` per 16 x 16 block for a 16-bit D (lanes' row addresses
    `stmatrix_lane_cell`, registers the accumulator pairs at `stmatrix_matrix_origin`), a
    `lass_nv.st_shared` pair otherwise
    `lass_nv.fence_proxy_async` (the generic writes, visible to the TMA), bar.sync
    thread 0: `lass_wg.tma_store %D[m0, n0 + s * cols], buffer` (lasscc-hopper-smem: the D tensor
    map, `tma_store_2d` / `_3d`), `bulk_commit_group`

and after the last subtile thread 0 `bulk_wait_group_read {pending = 0}` (the CTA's shared memory
outlives the stores' reads) -- in a persistent kernel not there but once after the tile loop
(`store_tail`, lasscc-warp-specialize; CUTLASS's store tail): the next tile's mainloop starts while
the last stores still read the staging buffers, and its first subtile waits for them (above).  The TMA clips at D's bounds, so a partial tile needs no predicates
(the fused epilogue's extra operands are still read under them).  The bar.syncs become the
consumers' named barrier in a cooperative kernel (lasscc-warp-specialize), and thread 0 its first
consumer thread; in a pingpong kernel one consumer warpgroup's (its epilogue runs alone, in the
ordering barrier's turn, and ends with the wait above: the consumers share the staging buffers).
A warp's m16 bands (two, 64 rows apart, in a 128-row pingpong tile) each take their stmatrix.
A D whose rows are not 16-byte multiples, or whose address is not 16-byte aligned, cannot have a
tensor map (`sm90_layout.tma_global_error`): the kernel tests both (uniform)
and takes the direct stores then; the host builds a placeholder map for it
(`lasscc.runtime.tma.store_map`).
"""

from __future__ import annotations

from lasscc import sm90_layout as S90
from lasscc.dialects import lass_nv, lass_tb, lass_wg
from lasscc.passes._build import ArithBuilder, kernel_arg
from lasscc.resources import TMA_STORE_D_TYPES, is_pingpong, tma_store_stage_offset
from lasscc.layout import elem_bytes
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, i1
from xdsl.ir import Block, Region
from xdsl.rewriter import InsertPoint

TMA_STORE_ALIGN = S90.TMA_GLOBAL_ALIGN  # a tensor map's global address and row stride


def _if(bb: ArithBuilder, cond, body) -> None:
    blk = Block()
    inner = ArithBuilder(InsertPoint.at_end(blk))
    body(inner)
    inner.insert(scf.YieldOp())
    bb.insert(scf.IfOp(cond, [], Region(blk)))


def _branch(bb: ArithBuilder, cond, then_fn, else_fn) -> None:
    then_b, else_b = Block(), Block()
    then_fn(ArithBuilder(InsertPoint.at_end(then_b)))
    else_fn(ArithBuilder(InsertPoint.at_end(else_b)))
    bb.insert(scf.IfOp(cond, [], Region(then_b), Region(else_b)))


def store_tail(bb: ArithBuilder, tid) -> None:
    """After a persistent kernel's tile loop: thread `tid` == 0 (the consumers' first, which issued
    the stores) `bulk_wait_group_read {pending = 0}`, so the CTA's shared memory outlives the last
    tile's TMA stores' reads (their epilogue deferred this wait: `tma_store_epilogue`)."""
    _if(bb, bb.emit(arith.CmpiOp(tid, bb.const(0), "eq")),
        lambda ib: ib.insert(lass_nv.BulkWaitGroupReadOp.build(attributes={"pending": IntegerAttr(0, 64)})))


def kernel_operand(dest):
    """The kernel argument under `dest` (a `lass_tb.batch_view` of D, or D)."""
    return dest.owner.source if isinstance(dest.owner, lass_tb.BatchViewOp) else dest


def tma_store_epilogue(low, op: lass_tb.EpilogueOp, values, direct, row0, col0, preload):
    """The emitter (builder -> None, ending its block with scf.yield) of the no-C epilogue of `op`
    through TMA stores, falling back to `direct` (the per-thread stores) for a D no tensor map can
    describe.  `low` is the warpgroup lowering (tid, lane, warp row `wm0`, `store_pairs`, config);
    `values(bb, pair_idx, row, col, row_c, col_c, guarded, cache, even_n)` gives D's values of an
    accumulator pair, `preload(bb, row, col, row_c, col_c, cache)` reads its [n] / [m] extras into
    `cache` ahead of them, `row0` / `col0` the lane's pair coordinates in D (lasscc-warp-mma's).

    The fused epilogue's vector extras (a bias) of the whole tile are read before the first
    subtile (a vector read once per column, or row, pair of the thread, one load latency a tile
    instead of one a subtile: their loads stalled each subtile's math behind its barrier,
    BENCHMARKS.md session 11), and as whole pairs: N is a multiple of 16 bytes of D here, so even."""
    cfg = low.wg_cfg
    D, N = op.dest, kernel_arg(low.fn, "N")
    d_type = str(D.type.get_element_type())
    db = TMA_STORE_D_TYPES[d_type]
    bm, bn, _ = cfg.threadblock
    sub_cols, mode = S90.epilogue_subtile(bn, db)
    eb = elem_bytes(low.ab)
    # the wait for the stores' reads: before the buffers' reuse (`store_tail`); not for pingpong (see below)
    deferred = bool(cfg.persistent) and not is_pingpong(cfg)
    cells = {(r, c): idx for r, c, idx in low.store_pairs()}
    bands = low.cfg.warp[0] // S90.STMATRIX_BLOCK  # m16 bands of a warp (lasscc-warpgroup-mma's warp_view)

    def tma_path(bb: ArithBuilder) -> None:
        tid, lane = low.tid, low.lane
        is0 = bb.emit(arith.CmpiOp(tid, bb.const(0), "eq"))
        group = bb.shr(lane, 2)
        tig2 = bb.mul(bb.and_(lane, 3), 2)
        st_row, st_col = S90.stmatrix_lane_cell(bb.idx(lane))
        st_row = st_row + bb.idx(low.wm0)
        cache: dict = {}
        for (r_c, col_c), _ in sorted(cells.items(), key=lambda c: (c[0][1], c[0][0])) if op.has_epilogue else ():
            preload(bb, bb.add(row0, r_c), bb.add(col0, col_c), r_c, col_c, cache)
        for s in range(bn // sub_cols):
            base = tma_store_stage_offset(cfg, eb, s % S90.EPILOGUE_STAGE_BUFFERS)
            c_lo = s * sub_cols
            if s >= S90.EPILOGUE_STAGE_BUFFERS:  # the store of subtile s - 2 has read this buffer
                _if(bb, is0, lambda ib: ib.insert(lass_nv.BulkWaitGroupReadOp.build(
                    attributes={"pending": IntegerAttr(S90.EPILOGUE_STAGE_BUFFERS - 1, 64)})))
            elif s == 0 and deferred:  # the previous tile's stores have read both buffers
                _if(bb, is0, lambda ib: ib.insert(lass_nv.BulkWaitGroupReadOp.build(
                    attributes={"pending": IntegerAttr(0, 64)})))
            if s >= S90.EPILOGUE_STAGE_BUFFERS or (s == 0 and cfg.persistent):
                bb.insert(lass_nv.BarSyncOp())
            if db == 2:
                for band in range(bands):  # the warp's m16 bands (two, 64 rows apart, in a 128-row pingpong tile)
                    r_b = band * low.band_rows
                    for p in range(sub_cols // S90.STMATRIX_BLOCK):
                        vals = []
                        for q in range(4):
                            r0, c0 = S90.stmatrix_matrix_origin(q)
                            r0 += r_b
                            col_c = c_lo + p * S90.STMATRIX_BLOCK + c0
                            vals += values(bb, cells[(r0, col_c)], bb.add(row0, r0), bb.add(col0, col_c), r0, col_c,
                                           True, cache, True)
                        off = S90.epilogue_stage_offset(st_row + r_b, st_col + p * S90.STMATRIX_BLOCK, db, mode) + base
                        bb.insert(lass_nv.StmatrixX4Op.build(operands=[bb.val(off), vals]))
            else:
                for (r_c, col_c), idx in sorted(cells.items()):
                    if not c_lo <= col_c < c_lo + sub_cols:
                        continue
                    vals = values(bb, idx, bb.add(row0, r_c), bb.add(col0, col_c), r_c, col_c, True, cache, True)
                    row = bb.idx(bb.add(bb.add(low.wm0, group), r_c))
                    off = S90.epilogue_stage_offset(row, bb.idx(tig2) + (col_c - c_lo), db, mode) + base
                    bb.insert(lass_nv.StSharedOp.build(operands=[bb.val(off), vals]))
            bb.insert(lass_nv.FenceProxyAsyncOp())
            bb.insert(lass_nv.BarSyncOp())

            def store(ib: ArithBuilder, c_lo=c_lo, base=base) -> None:
                ib.insert(lass_wg.TmaStoreOp.build(operands=[D, op.m0, ib.add(op.n0, c_lo), ib.const(base)]))
                ib.insert(lass_nv.BulkCommitGroupOp())
            _if(bb, is0, store)
        # not deferred: a pingpong consumer's epilogue (the consumers share the staging buffers: this
        # wait, before the ordering barrier's arrive, is what lets the other consumer's epilogue write
        # them); the last tile of a cooperative persistent kernel gets the store tail after its loop
        if not deferred:
            _if(bb, is0, lambda ib: ib.insert(lass_nv.BulkWaitGroupReadOp.build(
                attributes={"pending": IntegerAttr(0, 64)})))
        bb.insert(scf.YieldOp())

    def emit(bb: ArithBuilder) -> None:
        n_ok = bb.emit(arith.CmpiOp(bb.rem(N, TMA_STORE_ALIGN // db), bb.const(0), "eq"))
        aligned = bb.emit(lass_nv.AlignedOp.build(operands=[kernel_operand(D)],
                                                  attributes={"bytes": IntegerAttr(TMA_STORE_ALIGN, 64)},
                                                  result_types=[i1]))
        _branch(bb, bb.and_(n_ok, aligned), tma_path, direct)
        bb.insert(scf.YieldOp())
    return emit
