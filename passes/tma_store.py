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
A fused epilogue's [n] / [m] extras are read before the first subtile (`tma_store_epilogue`), and
its subtiles run as one rolled loop (`ROLLED_SUBTILES` a window: `rolled`, `_subtile_shift`) that
reads the next window's [n] (and, within PRELOAD_MN_BYTES, [mn]) extras one iteration ahead: without
[mn] ones, in a uniform `scf.if` on the window being inside N (`_window_inside`), unpredicated at
one address plus immediates (`_add_nsw`; UNPREDICATED_WINDOWS), else each pair under its bound.
A D whose rows are not 16-byte multiples, or whose address is not 16-byte aligned, cannot have a
tensor map (`sm90_layout.tma_global_error`): the kernel tests both (uniform, `usable`) and takes
lasscc-warp-mma's per-thread stores then, the copy that also serves beta != 0 (it reads C only
then); the host builds a placeholder map for it (`lasscc.runtime.tma.store_map`).
"""

from __future__ import annotations

from lasscc import sm90_layout as S90
from lasscc.dialects import lass_nv, lass_tb, lass_wg
from lasscc.passes._build import ArithBuilder, kernel_arg
from lasscc.resources import TMA_STORE_D_TYPES, is_pingpong, tma_store_stage_offset
from lasscc.layout import elem_bytes
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, i1, i32
from xdsl.ir import Block, Region
from xdsl.rewriter import InsertPoint

TMA_STORE_ALIGN = S90.TMA_GLOBAL_ALIGN  # a tensor map's global address and row stride
# subtiles an iteration of a fused epilogue's rolled subtile loop (`tma_store_epilogue`); all of
# them (no loop) where the tile has no more; 1 for an epilogue with [mn] extras (a residual: a window
# of 2 f16 residual subtiles is over PRELOAD_MN_BYTES, so read in the window again).  2 halves the
# loop's accumulator shift moves (96 MOVs a window of 128x256's 64-column subtiles); measured over
# the plain kernel (BENCHMARKS.md session 13, epi18c; 4096³, 5 rounds, 2 better in every round):
# bias + GELU f16 D +3.7 % -> +3.1 %, f32 D +2.9 % -> +2.4 %, bias [m] + ReLU +0.7 % -> +0.5 %;
# the residual 0.997x -> 0.961x the plain kernel (hence 1 there)
ROLLED_SUBTILES = 2
# the rolled loop reads the next window's [mn] extras (a residual) one iteration ahead, as its [n]
# ones, instead of in the window's math after its barrier, where every consumer warp waited for them
# (BENCHMARKS.md session 13: 0.966x -> 0.997x the plain kernel at 4096³) -- while they take at most
# PRELOAD_MN_BYTES a thread: the carried values are registers beside the accumulator (the 128x256
# tile's 168 hold 128 accumulator values; an f16 D's 64-column window of f32 residual, 128 B, spilled)
PRELOAD_MN = True
PRELOAD_MN_BYTES = 64
# the rolled loop reads the next window's [n] extras without a bound predicate a pair when the
# whole window is inside N (one uniform scf.if a window; the tail window keeps its bounds): no
# ISETP / bound IADD3 / zeroing CS2R a pair (BENCHMARKS.md session 14, epi18d)
UNPREDICATED_WINDOWS = True


def _if(bb: ArithBuilder, cond, body) -> None:
    blk = Block()
    inner = ArithBuilder(InsertPoint.at_end(blk))
    body(inner)
    inner.insert(scf.YieldOp())
    bb.insert(scf.IfOp(cond, [], Region(blk)))


def _add_nsw(bb: ArithBuilder, x, c: int):
    """x + c as an add that cannot wrap (a column inside D): lasscc-lower-to-llvm gives it `nsw`, so
    that LLVM puts c in the load's address as an immediate (one address a window, not one a pair)."""
    if c == 0:
        return x
    return bb.emit(arith.AddiOp(x, bb.val(c), overflow=arith.IntegerOverflowAttr((arith.IntegerOverflowFlag.NSW,))))


def _window_inside(bb: ArithBuilder, warp_col, win, window: int, N):
    """Whether the window after the rolled loop's window at tile column `win` (the iteration's
    `it * window`) is inside D's N columns for every lane of a warp whose tile columns start at D's
    column `warp_col` (n0 + wn0): its lanes' pairs lie in [warp_col + win + window, warp_col + win +
    2 window), so warp_col + win + 2 window <= N (uniform: the warp's and the iteration's)."""
    return bb.emit(arith.CmpiOp(bb.add(warp_col, bb.add(win, 2 * window)), N, "ule"))


def _subtile_shift(cells: dict, sub_cols: int, n_sub: int) -> int | None:
    """The accumulator index shift from one subtile to the next when every subtile's cells are
    subtile 0's moved by it (the pair at (r, c + s * sub_cols) holds subtile 0's (r, c) values
    + s * shift), else None (and None for a single subtile: nothing to roll)."""
    if n_sub < 2:
        return None
    shift = None
    for (r, c), idx in cells.items():
        s, c0 = divmod(c, sub_cols)
        base = cells.get((r, c0))
        if base is None:
            return None
        if s == 0:
            continue
        d = idx[0] - base[0]
        if idx[1] - base[1] != d or d % s or (shift is not None and d != shift * s):
            return None
        shift = d // s
    return shift


def store_tail(bb: ArithBuilder, tid) -> None:
    """After a persistent kernel's tile loop: thread `tid` == 0 (the consumers' first, which issued
    the stores) `bulk_wait_group_read {pending = 0}`, so the CTA's shared memory outlives the last
    tile's TMA stores' reads (their epilogue deferred this wait: `tma_store_epilogue`)."""
    _if(bb, bb.emit(arith.CmpiOp(tid, bb.const(0), "eq")),
        lambda ib: ib.insert(lass_nv.BulkWaitGroupReadOp.build(attributes={"pending": IntegerAttr(0, 64)})))


def kernel_operand(dest):
    """The kernel argument under `dest` (a `lass_tb.batch_view` of D, or D)."""
    return dest.owner.source if isinstance(dest.owner, lass_tb.BatchViewOp) else dest


def tma_store_epilogue(low, op: lass_tb.EpilogueOp, values, row0, col0, preload):
    """(usable, emit) of the no-C epilogue of `op` through TMA stores: `usable(builder)` is the i1
    that D has a tensor map (N a multiple of 16 bytes of D, D 16-byte aligned; lasscc-warp-mma takes
    its per-thread stores otherwise), `emit(builder)` writes the epilogue, ending its block with
    scf.yield.  `low` is the warpgroup lowering (tid, lane, warp row `wm0`, `store_pairs`, config);
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

    n_sub = bn // sub_cols
    # a fused epilogue's subtiles as a rolled loop (`_subtile_shift`): unrolled, its math is tens of
    # KB of straight-line SASS, fetched anew for every tile (BENCHMARKS.md session 11)
    per = ROLLED_SUBTILES if n_sub % ROLLED_SUBTILES == 0 else 1
    if "mn" in op.kinds:
        per = 1  # (ROLLED_SUBTILES) a residual's windows of 2 lost its [mn] preload: 0.997x -> 0.961x
    shift = _subtile_shift(cells, sub_cols, n_sub) if op.has_epilogue and n_sub > per else None
    window = per * sub_cols  # the columns of one iteration
    acc = low.accumulator(op.acc, op)

    def waits(bb: ArithBuilder, is0, s) -> None:
        """Before subtile `s` (an int, or the rolled loop's value): the buffer's last store has read it."""
        if isinstance(s, int):
            if s >= S90.EPILOGUE_STAGE_BUFFERS:  # the store of subtile s - 2 has read this buffer
                _if(bb, is0, lambda ib: ib.insert(lass_nv.BulkWaitGroupReadOp.build(
                    attributes={"pending": IntegerAttr(S90.EPILOGUE_STAGE_BUFFERS - 1, 64)})))
            elif s == 0 and deferred:  # the previous tile's stores have read both buffers
                _if(bb, is0, lambda ib: ib.insert(lass_nv.BulkWaitGroupReadOp.build(
                    attributes={"pending": IntegerAttr(0, 64)})))
            if s >= S90.EPILOGUE_STAGE_BUFFERS or (s == 0 and cfg.persistent):
                bb.insert(lass_nv.BarSyncOp())
            return
        reuse = bb.emit(arith.CmpiOp(s, bb.const(S90.EPILOGUE_STAGE_BUFFERS), "sge"))
        first = bb.emit(arith.CmpiOp(s, bb.const(0), "eq"))
        _if(bb, bb.and_(is0, reuse), lambda ib: ib.insert(lass_nv.BulkWaitGroupReadOp.build(
            attributes={"pending": IntegerAttr(S90.EPILOGUE_STAGE_BUFFERS - 1, 64)})))
        if deferred:
            _if(bb, bb.and_(is0, first), lambda ib: ib.insert(lass_nv.BulkWaitGroupReadOp.build(
                attributes={"pending": IntegerAttr(0, 64)})))
        _if(bb, bb.emit(arith.OrIOp(reuse, first)) if cfg.persistent else reuse,
            lambda ib: ib.insert(lass_nv.BarSyncOp()))

    def lanes(bb: ArithBuilder):
        """(is0, group, tig2, st_row, st_col): the thread's store coordinates, once a tile."""
        lane = low.lane
        st_row, st_col = S90.stmatrix_lane_cell(bb.idx(lane))
        return (bb.emit(arith.CmpiOp(low.tid, bb.const(0), "eq")), bb.shr(lane, 2), bb.mul(bb.and_(lane, 3), 2),
                st_row + bb.idx(low.wm0), st_col)

    def subtile(bb: ArithBuilder, ln, lo: int, base, store_col, win_col=None, src=None, cache=None) -> None:
        """The subtile of cells at columns [lo, lo + sub_cols), staged at `base` and stored at tile
        column `store_col`; in the rolled loop (`win_col`: D's column of the iteration's first cell
        of the lane) the cells of the iteration's window, read from the shifted accumulator `src`."""
        is0, group, tig2, st_row, st_col = ln
        col_lo = col0 if win_col is None else win_col

        def at(off):
            return bb.val(off + base) if isinstance(base, int) else bb.add(bb.val(off), base)

        if db == 2:
            for band in range(bands):  # the warp's m16 bands (two, 64 rows apart, in a 128-row pingpong tile)
                r_b = band * low.band_rows
                for p in range(sub_cols // S90.STMATRIX_BLOCK):
                    vals = []
                    for q in range(4):
                        r0, c0 = S90.stmatrix_matrix_origin(q)
                        r0 += r_b
                        col_c = lo + p * S90.STMATRIX_BLOCK + c0
                        vals += values(bb, cells[(r0, col_c)], bb.add(row0, r0), bb.add(col_lo, col_c), r0, col_c,
                                       True, cache, True, src)
                    off = S90.epilogue_stage_offset(st_row + r_b, st_col + p * S90.STMATRIX_BLOCK, db, mode)
                    bb.insert(lass_nv.StmatrixX4Op.build(operands=[at(off), vals]))
        else:
            for (r_c, col_c), idx in sorted(cells.items()):
                if not lo <= col_c < lo + sub_cols:
                    continue
                vals = values(bb, idx, bb.add(row0, r_c), bb.add(col_lo, col_c), r_c, col_c, True, cache, True, src)
                row = bb.idx(bb.add(bb.add(low.wm0, group), r_c))
                off = S90.epilogue_stage_offset(row, bb.idx(tig2) + (col_c - lo), db, mode)
                bb.insert(lass_nv.StSharedOp.build(operands=[at(off), vals]))
        bb.insert(lass_nv.FenceProxyAsyncOp())
        bb.insert(lass_nv.BarSyncOp())

        def store(ib: ArithBuilder) -> None:
            ib.insert(lass_wg.TmaStoreOp.build(operands=[D, op.m0, ib.add(op.n0, store_col),
                                                         ib.const(base) if isinstance(base, int) else base]))
            ib.insert(lass_nv.BulkCommitGroupOp())
        _if(bb, is0, store)

    def preload_cols(bb: ArithBuilder, col_lo, upto: int, cache: dict, matrices: bool = False,
                     guarded: bool = True) -> None:
        """The vector extras (and the [mn] ones: `matrices`) of the cells at columns < `upto`, at D's
        columns `col_lo` + theirs, into `cache` (unpredicated where not `guarded`: inside D)."""
        for (r_c, col_c), _ in sorted(cells.items(), key=lambda c: (c[0][1], c[0][0])):
            if col_c < upto:
                col = bb.add(col_lo, col_c) if guarded else _add_nsw(bb, col_lo, col_c)
                preload(bb, bb.add(row0, r_c), col, r_c, col_c, cache, matrices, guarded)

    def tma_path(bb: ArithBuilder) -> None:
        ln = lanes(bb)
        cache: dict = {}
        if shift is None:
            if op.has_epilogue:
                preload_cols(bb, col0, bn, cache)
            for s in range(n_sub):
                waits(bb, ln[0], s)
                subtile(bb, ln, s * sub_cols, tma_store_stage_offset(cfg, eb, s % S90.EPILOGUE_STAGE_BUFFERS),
                        s * sub_cols, cache=cache)
        else:
            rolled(bb, ln, cache)
        # not deferred: a pingpong consumer's epilogue (the consumers share the staging buffers: this
        # wait, before the ordering barrier's arrive, is what lets the other consumer's epilogue write
        # them); the last tile of a cooperative persistent kernel gets the store tail after its loop
        if not deferred:
            _if(bb, ln[0], lambda ib: ib.insert(lass_nv.BulkWaitGroupReadOp.build(
                attributes={"pending": IntegerAttr(0, 64)})))
        bb.insert(scf.YieldOp())

    def preload_mn(window: int) -> bool:
        """Whether the rolled loop carries a window's [mn] extras (PRELOAD_MN, PRELOAD_MN_BYTES)."""
        from lasscc.dialects.epilogue import EXTRA_ELEM_BYTES

        pairs = sum(1 for (_, col_c) in cells if col_c < window)
        per_elem = sum(EXTRA_ELEM_BYTES[str(x.type.get_element_type())]
                       for kind, x in zip(op.kinds, op.extras) if kind == "mn")
        return PRELOAD_MN and 0 < 2 * pairs * per_elem <= PRELOAD_MN_BYTES

    def rolled(bb: ArithBuilder, ln, cache: dict) -> None:
        """scf.for over windows of `per` subtiles, carrying the accumulator shifted by `per * shift`
        values an iteration (so every iteration reads the first window's cells) and the next
        window's [n] extras (and [mn]: preload_mn), read one iteration ahead (their latency behind
        this window's math)."""
        mn = preload_mn(window)
        preload_cols(bb, col0, window, cache, mn)  # the first window's [n] (, [mn]) and the tile's [m] extras
        n_keys = sorted((k for k in cache if k[1] in ("n", "mn")), key=str)
        fixed = {k: v for k, v in cache.items() if k[1] not in ("n", "mn")}
        carried = list(acc) + [v for k in n_keys for v in cache[k]]
        body = Block(arg_types=[i32, *(v.type for v in carried)])
        it, *args = body.args
        it.name_hint = "window"
        ib = ArithBuilder(InsertPoint.at_end(body))
        src, extra = args[:len(acc)], args[len(acc):]
        now = dict(fixed)
        for j, k in enumerate(n_keys):
            now[k] = extra[2 * j:2 * j + 2]
        win = ib.mul(it, window)
        win_col = ib.add(col0, win)
        nxt = dict(fixed)
        if UNPREDICATED_WINDOWS and n_keys and not mn:
            # the next window's [n] extras: unpredicated where the window is inside N
            # (`_window_inside`), else each pair under its bound
            inside = _window_inside(ib, ib.add(op.n0, low.wn0), win, window, N)
            nxt_col = _add_nsw(ib, win_col, window)

            def next_window(guarded: bool):
                def emit(bb: ArithBuilder) -> None:
                    got = dict(fixed)
                    preload_cols(bb, nxt_col, window, got, False, guarded)
                    bb.insert(scf.YieldOp(*[v for key in n_keys for v in got[key]]))
                return emit
            then_b, else_b = Block(), Block()
            next_window(False)(ArithBuilder(InsertPoint.at_end(then_b)))
            next_window(True)(ArithBuilder(InsertPoint.at_end(else_b)))
            got = ib.insert(scf.IfOp(inside, [v.type for key in n_keys for v in cache[key]],
                                     Region(then_b), Region(else_b))).results
            for j, key in enumerate(n_keys):
                nxt[key] = list(got[2 * j:2 * j + 2])
        else:
            preload_cols(ib, ib.add(win_col, window), window, nxt, mn)  # the next window's (past N: predicated off)
        for j in range(per):
            s = ib.add(ib.mul(it, per), j) if j else ib.mul(it, per)
            waits(ib, ln[0], s)
            if per % S90.EPILOGUE_STAGE_BUFFERS == 0:
                base = tma_store_stage_offset(cfg, eb, j % S90.EPILOGUE_STAGE_BUFFERS)
            else:
                b0, b1 = (tma_store_stage_offset(cfg, eb, i) for i in range(S90.EPILOGUE_STAGE_BUFFERS))
                base = ib.add(ib.mul(ib.and_(s, 1), b1 - b0), b0)
            subtile(ib, ln, j * sub_cols, base, ib.add(win, j * sub_cols) if j else win, win_col, src, now)
        # position p takes p + k's value; the last k positions keep theirs (never read again: a chain
        # of moves, where carrying the consumed values round would make cycles, a temporary each)
        k = per * shift
        ib.insert(scf.YieldOp(*(src[k:] + src[len(src) - k:]), *[v for key in n_keys for v in nxt[key]]))
        bb.insert(scf.ForOp(bb.const(0), bb.const(n_sub // per), bb.const(1), carried, Region(body)))

    def usable(bb: ArithBuilder):
        n_ok = bb.emit(arith.CmpiOp(bb.rem(N, TMA_STORE_ALIGN // db), bb.const(0), "eq"))
        aligned = bb.emit(lass_nv.AlignedOp.build(operands=[kernel_operand(D)],
                                                  attributes={"bytes": IntegerAttr(TMA_STORE_ALIGN, 64)},
                                                  result_types=[i1]))
        return bb.and_(n_ok, aligned)
    return usable, tma_path
