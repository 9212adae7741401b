"""Semantics of the lass dialects for the CPU executor (see each op's docstring in dialects/).

  lass.gemm          (level 0) D = alpha * A.B + beta * C in the numerics of the element types
                     (lasscc.interp.mma_math: f32 sums of exact f16/bf16 products, tf32-rounded
                     f32, f16 accumulation per k16 step, exact i8 -> i32), D rounded once to its
                     type.  Every mma and epilogue below uses the same functions.
  lass_tb.*          (level 1, block level) tiles are `[lanes, rows, BK]` arrays (lane = block);
                     load_tile reads global memory in the source's layout (elements outside the
                     matrix read as 0);
                     mma is acc + a @ b^T in float32; block_tile is layout.raster_tile of the
                     block id; epilogue writes the in-bounds part of the tile of D.
  lass_pipe.*        (level 2; still present at level 3) rings are views of shared memory at the
                     ring's `offset`, stage-major, each slot an unswizzled rows x BK tile stored
                     K-major or MN-major (layout.tile_offset, swizzled=False).
                     copy_async / load_regs / store_regs move 16-byte chunks with the thread map
                     of layout.tile_copy_map: thread t of the block moves chunks it*T + t.  At
                     the block level the op does every thread's share (each attributed to its
                     thread); in per-thread code each thread does its own.  Elements outside the
                     matrix, or all of them when pred is false, are zero-filled.  copy_async
                     lands at the wait that retires its group; lass_pipe.mma reads both slots as
                     a read by every thread of the block.
  lass_warp.*        (level 3) load_frag_a/b: the lane's mma fragment registers read from
                     the logical (unswizzled) ring slot, per layout.mma_a_coord / mma_b_coord
                     (through layout.frag_interleave with `interleaved`; an MN-major slot element
                     by element: the elements of a register are a line apart there);
                     (slot, row, k) must be the same for all 32 lanes of a warp.
  lass_smem.swizzle  (level 4) phys = x ^ (((x >> (base + shift)) & (2^bits - 1)) << base).
  lass_nv.*          (levels 3-4) one PTX instruction each, per thread: thread_id, block_id,
                     ldmatrix_x4 (8-lane phase i gives the 16-byte row addresses of matrix i;
                     lane l gets row l/4, columns 2(l%4), +1 of each matrix; with `trans`
                     rows 2(l%4), +1 of column l/4), mma_sync (the warp's
                     16x16 A, 16x8 B and 16x8 C gathered from its 32 lanes by the PTX fragment
                     maps, one batched float32 matmul over all warps, D scattered back), cp_async
                     (16 bytes, zero-filled when !pred, lands at the retiring cp_async_wait),
                     cp_async_commit / cp_async_wait (per-thread groups), bar_sync, ld_global(_v4),
                     st_global, st_shared_v4, ld_shared (1, 2 or 4 words, aligned to their size),
                     prmt (layout.prmt); the staged epilogue's st_shared (2 or 4 typed values),
                     st_global_v4 (16 raw bytes) and aligned (arguments are 16-byte aligned).  Registers holding f16x2 (or bf16x2: mma_sync
                     with ab_type = "bf16") are i32: low half = the element with the smaller
                     column / k index.

bf16 data (memrefs, tiles, rings, staged registers, SSA values) is uint16 bit patterns
(lasscc.interp.bf16): copies move it as bytes like f16; the ops that do arithmetic on tiles or
fragments decode it exactly to float32 (`as_f32`) and stores into bf16 memory round to nearest
even (`store_as`).

Every shared-memory access goes through SharedMemory (bounds, alignment, uninitialised reads,
races, async hazards) and, with report_banks, through the bank counter; every per-thread
global access is bounds-checked against the flat buffer.
"""

from __future__ import annotations

import numpy as np

from lasscc import layout as Lay
from lasscc import cluster_splitk as CS
from lasscc.cluster import cluster_tile
from lasscc.cluster_splitk import is_cluster_split
from lasscc.layout import raster_tile
from lasscc.dialects import lass, lass_nv, lass_pipe, lass_smem, lass_tb, lass_warp
from lasscc.dialects._common import int_list
from lasscc.dialects._common import memref_layout
from lasscc.interp import mma_math as MM
from lasscc.interp.bf16 import BF16, as_f32, store_as
from lasscc.interp.errors import InterpError, MisalignedAccessError, OutOfBoundsError, UnsupportedError
from lasscc.interp.epilogue import run_region
from lasscc.interp.executor import Executor, handler
from lasscc.interp.values import (
    GlobalBuffer,
    RingInfo,
    bytes_from_i32,
    i32_from_bytes,
    is_lanes,
    numpy_dtype,
    wrap,
)

F32 = np.float32


def _opid(ex: Executor, op) -> int:
    return ex.prog.opid[op]


def _block_level(ex: Executor, op) -> None:
    if ex.prog.simt:
        raise UnsupportedError(
            f"{ex.where(op)}: '{op.name}' works on whole threadblock tiles, but this kernel is per-thread "
            f"code (it has lass_nv / lass_warp / lass_smem ops); the warp-level passes must replace it"
        )


def _buffer(ex: Executor, op, v, role: str | None, what: str) -> GlobalBuffer:
    if not isinstance(v, GlobalBuffer):
        raise InterpError(f"{ex.where(op)}: expected a kernel memref argument for {what}, got {type(v).__name__}")
    if role is not None and v.role != role:
        raise InterpError(
            f"{ex.where(op)}: {what} names operand {role}, but its source is the kernel's {v.role} argument"
        )
    return v


def _uniform(ex: Executor, op, v, what: str):
    u = ex.uniform(v)
    if u is None:
        raise UnsupportedError(f"{ex.where(op)}: expected {what} to be the same for all threads")
    return u


def _gather_2d(src: GlobalBuffer, r, c, extra=None):
    """src[r, c] of the logical rows x cols matrix, 0 outside it (or where `extra` is false)."""
    inb = (r >= 0) & (r < src.rows) & (c >= 0) & (c < src.cols)
    if extra is not None:
        inb = inb & extra
    flat = np.where(inb, c * src.rows + r if src.mn_major else r * src.cols + c, 0)
    return np.where(inb, src.array[flat], 0).astype(src.dtype)


def _record_banks(ex: Executor, opid: int, actors, addrs, access_bytes: int, group: int, key=None):
    """Count bank conflicts of one op execution: the accesses of the same warp (and `key`, e.g.
    the copy iteration) form one warp access."""
    if ex.banks is None:
        return
    actors = np.asarray(actors, np.int64).reshape(-1)
    if actors.size == 0:
        return
    addrs = np.asarray(addrs, np.int64).reshape(-1)
    warp, lane = actors // 32, actors % 32
    if key is not None:
        warp = np.asarray(key, np.int64).reshape(-1) * (1 << 32) + warp
    uniq, inv = np.unique(warp, return_inverse=True)
    table = np.full((len(uniq), 32), -1, np.int64)
    table[np.asarray(inv).reshape(-1), lane] = addrs
    ex.banks.record(opid, table, access_bytes, group)


def _gmem_check(ex: Executor, op, buf: GlobalBuffer, idx, lanes, what: str, nbytes: int = 0):
    """idx [n, w] element indices of lanes [n]: raise OutOfBoundsError outside the flat buffer and,
    with `nbytes` (the width of each row's one access), MisalignedAccessError where the access does
    not start at a multiple of nbytes (the kernel arguments are at least 16-byte aligned, as
    cudaMalloc's are; a batch view's offset counts)."""
    if nbytes > buf.dtype.itemsize and len(idx):
        per = nbytes // buf.dtype.itemsize
        bad = (idx[:, 0] + buf.offset) % per != 0
        if bad.any():
            j = int(np.argmax(bad))
            raise MisalignedAccessError(
                f"{ex.where(op)}: {ex.actor(int(lanes[j]))} {what} {nbytes} bytes at element {int(idx[j, 0])} of "
                f"{buf.where}, which is not {nbytes}-byte aligned (M={ex.launch.m}, N={ex.launch.n}, K={ex.launch.k})"
            )
    bad = (idx < 0) | (idx >= buf.array.size)
    if bad.any():
        row = int(np.argmax(bad.any(axis=1)))
        e = int(idx[row][np.argmax(bad[row])])
        if buf.whole is not None:  # a batch view: checked against the whole kernel argument
            raise OutOfBoundsError(
                f"{ex.where(op)}: {ex.actor(int(lanes[row]))} {what} element {e} of {buf.where}, i.e. element "
                f"{buf.offset + e} of {buf.role}, which has {buf.whole} elements ({buf.batch} x {buf.rows} x "
                f"{buf.cols}; M={ex.launch.m}, N={ex.launch.n}, K={ex.launch.k}, batch={ex.launch.batch})"
            )
        raise OutOfBoundsError(
            f"{ex.where(op)}: {ex.actor(int(lanes[row]))} {what} element {e} of {buf.role}, which has "
            f"{buf.array.size} elements ({buf.rows} x {buf.cols}; M={ex.launch.m}, N={ex.launch.n}, K={ex.launch.k})"
        )


# ---- level 0 -------------------------------------------------------------------------------------
@handler(lass.GemmOp)
def _gemm(ex: Executor, op, vals):
    from lasscc.dialects.epilogue import is_per_batch

    a, b, d = (_buffer(ex, op, v, r, f"operand {r}") for v, r in zip(vals, "ABD"))
    m, n, k = ex.launch.m, ex.launch.n, ex.launch.k
    alpha = ex.launch.alpha if ex.launch.alpha is not None else op.alpha_value
    beta = ex.launch.beta if ex.launch.beta is not None else op.beta_value
    la, lb, ld = (memref_layout(v.type) for v in (op.a, op.b, op.d))
    nb = a.batch  # 3-d (batch-first, packed) operands: one matmul per batch
    A = a.array.reshape(nb, m, k) if la == "row" else a.array.reshape(nb, k, m).swapaxes(1, 2)
    Bt = b.array.reshape(nb, n, k) if lb == "col" else b.array.reshape(nb, k, n).swapaxes(1, 2)  # N x K
    acc = MM.mma(A, Bt, np.zeros((nb, m, n), MM.acc_dtype(str(op.acc_type))))
    D = d.array.reshape(nb, m, n) if ld == "row" else d.array.reshape(nb, n, m).swapaxes(1, 2)
    fused = None
    if op.has_epilogue:  # the extras as arrays broadcasting over [batch, M, N]
        elems = []
        for kind, x, xv in zip(op.kinds, vals[3:], op.extras):
            lead = nb if is_per_batch(kind, xv.type) else 1  # one per batch, or shared by all
            if kind == "scalar":
                elems.append(x)
            elif kind == "n":
                elems.append(x.array.reshape(lead, 1, n))
            elif kind == "m":
                elems.append(x.array.reshape(lead, m, 1))
            else:  # in D's layout
                elems.append(x.array.reshape(lead, m, n) if ld == "row" else x.array.reshape(lead, n, m).swapaxes(1, 2))

        def fused(v):
            return run_region(op.epilogue, v, elems)
    D[...] = MM.epilogue(acc, alpha, beta, D.copy() if beta != 0 else None, d.dtype, fused)
    return []


# ---- lass_tb ---------------------------------------------------------------------------------------
@handler(lass_tb.BlockTileOp)
def _block_tile(ex: Executor, op, vals):
    M = int(_uniform(ex, op, vals[0], "M"))
    N = int(_uniform(ex, op, vals[1], "N"))
    bm, bn = int_list(op.tile)
    g = int(op.raster.value.data)
    cfg = ex.prog.config
    if is_cluster_split(cfg):  # cluster c computes tile c (lasscc.cluster_splitk)
        tm, tn = raster_tile(ex.block_ids // cfg.split_k, -(-M // bm), -(-N // bn), g)
    else:
        tm, tn = cluster_tile(ex.block_ids, -(-M // bm), -(-N // bn), g, cfg.cluster)
    return [wrap(np.asarray(tm, np.int64) * bm, 32), wrap(np.asarray(tn, np.int64) * bn, 32)]


@handler(lass_tb.ZeroAccOp)
def _zero_acc(ex: Executor, op, vals):
    _block_level(ex, op)
    return [np.zeros((ex.L, *op.result.type.get_shape()), MM.acc_dtype(str(op.result.type.element_type)))]


@handler(lass_tb.LoadTileOp)
def _load_tile(ex: Executor, op, vals):
    _block_level(ex, op)
    src = _buffer(ex, op, vals[0], op.operand.data, f"operand {op.operand.data}")
    rows, bk = op.result.type.get_shape()
    lanes = ex.active_lanes()
    r = ex.at(vals[1], lanes)[:, None, None] + np.arange(rows)[None, :, None]
    c = ex.at(vals[2], lanes)[:, None, None] + np.arange(bk)[None, None, :]
    tile = np.zeros((ex.L, rows, bk), src.dtype)
    tile[lanes] = _gather_2d(src, r, c)
    return [tile]


def _mma_tiles(a, b, acc):
    return MM.mma(a, b, acc)  # the numerics of the tile types (lasscc.interp.mma_math)


@handler(lass_tb.MmaOp)
def _tb_mma(ex: Executor, op, vals):
    _block_level(ex, op)
    a, b, acc = vals
    return [_mma_tiles(a, b, acc)]


@handler(lass_tb.EpilogueOp)
def _epilogue(ex: Executor, op, vals):
    _block_level(ex, op)
    acc, dest, m0, n0, alpha, beta = vals[:6]
    # D, or parallel split-K's partial sums in the workspace W (lasscc.splitk)
    dest = _buffer(ex, op, dest, "W" if getattr(dest, "role", None) == "W" else "D", "the destination")
    lanes = ex.active_lanes()
    bm, bn = acc.shape[1:]
    i = ex.at(m0, lanes)[:, None, None] + np.arange(bm)[None, :, None]
    j = ex.at(n0, lanes)[:, None, None] + np.arange(bn)[None, None, :]
    inb = (i >= 0) & (i < dest.rows) & (j >= 0) & (j < dest.cols)
    split = op.attributes.get(lass_tb.CLUSTER_SPLIT_ATTR)
    if split is not None:  # cluster split-K: only this CTA's column window (lasscc.cluster_splitk)
        ns = int(split.value.data)
        rank = ex.block_ids[lanes] % ns
        inb &= (np.arange(bn)[None, None, :] // CS.window(bn, ns)) == rank[:, None, None]
    flat = np.where(inb, i * dest.cols + j, 0)
    al = ex.at(alpha, lanes).astype(F32)[:, None, None]
    be = ex.at(beta, lanes).astype(F32)[:, None, None]
    fused = None
    if op.has_epilogue:  # each element's extras: vectors at its column / row, matrices at its offset
        elems = []
        for kind, x in zip(op.kinds, vals[6:]):
            if kind == "scalar":
                elems.append(ex.at(x, lanes).astype(F32)[:, None, None])
                continue
            buf = _buffer(ex, op, x, None, f"an epilogue operand [{kind}]")
            idx = {"n": j, "m": i, "mn": i * dest.cols + j}[kind]
            elems.append(np.where(inb, buf.array[np.where(inb, idx, 0)], 0).astype(buf.dtype))

        def fused(v):
            return run_region(op.epilogue, v, elems)
    out = MM.epilogue(acc[lanes], al, be, None, dest.dtype, fused)
    need_c = inb & (be != 0)
    if need_c.any():
        if ex.sync is not None:
            sel = need_c.reshape(len(lanes), -1)
            ex.sync.access(ex, op, dest, flat.reshape(len(lanes), -1)[sel], np.repeat(lanes, sel.sum(1)), False)
        c = np.where(need_c, dest.array[flat], 0).astype(dest.dtype)
        out = np.where(need_c, MM.epilogue(acc[lanes], al, be, c, dest.dtype, fused), out)
    if ex.sync is not None:
        sel = inb.reshape(len(lanes), -1)
        ex.sync.access(ex, op, dest, flat.reshape(len(lanes), -1)[sel], np.repeat(lanes, sel.sum(1)), True)
    dest.array[flat[inb]] = out[inb]
    return []


@handler(lass_tb.BatchIndexOp)
def _batch_index(ex: Executor, op, vals):
    """The block's grid z index: the batch it works on (the same for the whole launch slice)."""
    return [ex.batch_z]


@handler(lass_tb.PersistentCtaOp)
def _persistent_cta(ex: Executor, op, vals):
    """(cta, ctas): the block's x index and the launch's blocks along x (lasscc.streamk)."""
    return [ex.block_ids if ex.prog.simt else ex.block_ids.copy(), ex.launch.grid_x]


@handler(lass_tb.BatchViewOp)
def _batch_view(ex: Executor, op, vals):
    """Matrix `index` of a batched operand: the kernel argument's memory from element
    index * stride on (64-bit), as a rows x cols matrix; accesses through it are bounds-checked
    against the whole argument (as on the GPU, a view may reach into the next batch)."""
    src = _buffer(ex, op, vals[0], None, "the source")
    if src.whole is not None:
        raise InterpError(f"{ex.where(op)}: expected a kernel memref argument, got a batch view of {src.role}")
    idx = int(_uniform(ex, op, vals[1], "the batch index"))
    stride = int(_uniform(ex, op, vals[2], "the batch stride"))
    off = idx * stride
    size = src.array.size
    if off < 0 or off > size or (idx > 0 and stride > 0 and off >= size):
        raise OutOfBoundsError(
            f"{ex.where(op)}: batch view {idx} at element {off} (stride {stride}) starts outside {src.role}, "
            f"which has {size} elements ({src.batch} x {src.rows} x {src.cols}; batch={ex.launch.batch})"
        )
    return [GlobalBuffer(src.role, src.array[off:], src.rows, src.cols, op.result.type, src.batch, off, size,
                         src.mn_major)]


# ---- lass_pipe ---------------------------------------------------------------------------------------
@handler(lass_pipe.RingOp)
def _ring(ex: Executor, op, vals):
    stages, rows, bk = op.result.type.get_shape()
    et = op.result.type.element_type
    try:
        dt = numpy_dtype(et, "ring element type")
    except UnsupportedError as e:
        raise UnsupportedError(f"{ex.where(op)}: {e}") from None
    if dt != BF16 and (dt.kind not in "fi" or dt == np.float64 or dt.itemsize not in (1, 2, 4)):
        raise UnsupportedError(f"{ex.where(op)}: unsupported ring element type {et}")
    ring = RingInfo(int(op.offset.value.data), stages, rows, bk, dt.itemsize, _opid(ex, op), dt,
                    op.result.type.major.data)
    size = ex.smem.size
    end = ring.offset + stages * ring.tile_bytes
    if ring.offset < 0 or end > size:
        raise OutOfBoundsError(
            f"{ex.where(op)}: the ring's {stages} x {ring.tile_bytes} bytes at offset {ring.offset} end at byte "
            f"{end}, past the {size} bytes of dynamic shared memory that the kernel's config implies "
            f"(stages * (BM + BN) * BK * 2)"
        )
    line = rows if ring.major == Lay.MN_MAJOR else bk  # the contiguous dimension of a slot
    if (line * ring.esize) % Lay.ACCESS_BYTES:
        raise UnsupportedError(f"{ex.where(op)}: expected lines of a multiple of 16 bytes, got {line * ring.esize}")
    return [ring]


def _ring_dtype(ring: RingInfo):
    if ring.dtype is not None:
        return ring.dtype
    return {1: np.int8, 2: np.float16, 4: np.float32, 8: np.float64}[ring.esize]


def _type_name(dtype) -> str:
    return "bf16" if np.dtype(dtype) == BF16 else {"float16": "f16", "float32": "f32", "float64": "f64",
                                                   "int8": "i8", "int32": "i32"}.get(
        np.dtype(dtype).name, np.dtype(dtype).name)


def _bank_group(nbytes: int) -> int:
    """Lanes served together by one 128-byte wavefront for accesses of `nbytes` (8 for 16 bytes, 16
    for 8, the whole warp for 4 bytes and less)."""
    return min(Lay.WARP_SIZE, Lay.SMEM_WAVEFRONT_BYTES // nbytes)


def _copy_width(ex: Executor, operand: str) -> int:
    """Bytes per copy access of the kernel's operand "A" or "B" (the kernel config's `align`)."""
    return ex.prog.access_bytes[0 if operand == "A" else 1]


def _tile_map(ex: Executor, lanes, rows: int, bk: int, esize: int, major: str = Lay.K_MAJOR,
              nbytes: int = Lay.ACCESS_BYTES):
    """Who moves which `nbytes` access of a rows x bk tile (layout.tile_copy_map)."""
    T = ex.threads
    lane_of, thread, actor = ex.actors_for(lanes)
    iters = Lay.copy_iterations(rows, bk, esize, T, nbytes)
    total = rows * bk * esize // nbytes
    it = np.arange(iters, dtype=np.int64)
    chunk = it[None, :] * T + thread[:, None]
    r, kk = Lay.tile_copy_map(thread[:, None], it[None, :], T, rows, bk, esize, major, nbytes)
    valid = chunk < total
    return lane_of, thread, actor, np.asarray(r, np.int64), np.asarray(kk, np.int64), valid


def _slot_base(ex: Executor, op, ring: RingInfo, slot, who):
    slot = np.asarray(slot, np.int64)
    bad = (slot < 0) | (slot >= ring.stages)
    if bad.any():
        j = int(np.argmax(bad))
        raise OutOfBoundsError(
            f"{ex.where(op)}: {ex.actor(int(who[j]))} uses slot {int(slot[j])} of a {ring.stages}-stage ring"
        )
    return ring.offset + slot * ring.tile_bytes


def _gather_chunks(ex, op, src, ring, lane_of, r, kk, valid, row0, k0, pred, nbytes: int = Lay.ACCESS_BYTES):
    epc = nbytes // ring.esize
    along = np.arange(epc)  # a chunk's elements run along k (K-major) or along rows (MN-major)
    mn = ring.major == Lay.MN_MAJOR
    gr = ex.at(row0, lane_of)[:, None, None] + r[:, :, None] + (along if mn else 0)
    gk = ex.at(k0, lane_of)[:, None, None] + kk[:, :, None] + (0 if mn else along)
    keep = valid[:, :, None]
    if pred is not None:
        keep = keep & np.asarray(ex.at(pred, lane_of), bool)[:, None, None]
    return _gather_2d(src, gr, gk, keep)  # [actors, iters, epc]


def _chunk_dst(ring, base, r, kk):
    return base[:, None] + ring.offsets(r, kk)  # [actors, iters] block-local bytes


def _check_elem(ex, op, src, ring: RingInfo, what=None):
    """The copied elements (a GlobalBuffer, or a staged dtype) have the ring's element type."""
    dt = src.dtype
    what = what or src.role
    if dt.itemsize != ring.esize or (ring.dtype is not None and dt != ring.dtype):
        raise InterpError(
            f"{ex.where(op)}: element type of {what} ({_type_name(dt)}) differs from the ring's "
            f"({_type_name(_ring_dtype(ring))})"
        )


@handler(lass_pipe.CopyAsyncOp)
def _copy_async(ex: Executor, op, vals):
    src, row0, k0, ring, slot, pred = vals
    src = _buffer(ex, op, src, op.operand.data, f"operand {op.operand.data}")
    _check_elem(ex, op, src, ring)
    opid = _opid(ex, op)
    lanes = ex.active_lanes()
    w = _copy_width(ex, op.operand.data)
    lane_of, thread, actor, r, kk, valid = _tile_map(ex, lanes, ring.rows, ring.bk, ring.esize, ring.major, w)
    base = _slot_base(ex, op, ring, ex.at(slot, lane_of), actor)
    data = _gather_chunks(ex, op, src, ring, lane_of, r, kk, valid, row0, k0, pred, w)
    dst = _chunk_dst(ring, base, r, kk)
    act_v = np.broadcast_to(actor[:, None], dst.shape)[valid]
    dst_v = dst[valid]
    idx = ex.smem.flat_index(opid, act_v, dst_v, w, align=w, what="copy_async write")
    ex.smem.issue_async(opid, act_v, idx, np.ascontiguousarray(data[valid]).view(np.uint8).reshape(-1, w))
    if ex.banks is not None:
        it = np.broadcast_to(np.arange(dst.shape[1])[None, :], dst.shape)[valid]
        _record_banks(ex, opid, act_v, dst_v, w, _bank_group(w), key=it)
    return []


@handler(lass_pipe.LoadRegsOp)
def _load_regs(ex: Executor, op, vals):
    src, row0, k0, pred = vals
    src = _buffer(ex, op, src, op.operand.data, f"operand {op.operand.data}")
    rows, bk = op.result.type.get_shape()
    ring = RingInfo(0, 1, rows, bk, src.dtype.itemsize, -1, major=op.result.type.major.data)  # geometry only
    lanes = ex.active_lanes()
    w = _copy_width(ex, op.operand.data)
    lane_of, thread, actor, r, kk, valid = _tile_map(ex, lanes, rows, bk, ring.esize, ring.major, w)
    data = _gather_chunks(ex, op, src, ring, lane_of, r, kk, valid, row0, k0, pred, w)
    per = 1 if ex.prog.simt else ex.threads
    staged = np.zeros((ex.L, per, data.shape[1], data.shape[2]), src.dtype)
    staged[lane_of, thread % per] = data
    return [staged]


@handler(lass_pipe.StoreRegsOp)
def _store_regs(ex: Executor, op, vals):
    staged, ring, slot = vals
    opid = _opid(ex, op)
    lanes = ex.active_lanes()
    w = staged.shape[3] * ring.esize  # the staged tile's accesses (load_regs: the operand's width)
    lane_of, thread, actor, r, kk, valid = _tile_map(ex, lanes, ring.rows, ring.bk, ring.esize, ring.major, w)
    per = staged.shape[1]
    if staged.shape[2] != r.shape[1]:
        raise InterpError(f"{ex.where(op)}: the staged tile does not match the ring's tile shape")
    _check_elem(ex, op, staged, ring, "the staged tile")
    data = staged[lane_of, thread % per]
    base = _slot_base(ex, op, ring, ex.at(slot, lane_of), actor)
    dst = _chunk_dst(ring, base, r, kk)
    act_v = np.broadcast_to(actor[:, None], dst.shape)[valid]
    dst_v = dst[valid]
    idx = ex.smem.flat_index(opid, act_v, dst_v, w, align=w, what="store_regs write")
    ex.smem.write(opid, act_v, idx, np.ascontiguousarray(data[valid]).view(np.uint8).reshape(-1, w))
    if ex.banks is not None:
        it = np.broadcast_to(np.arange(dst.shape[1])[None, :], dst.shape)[valid]
        _record_banks(ex, opid, act_v, dst_v, w, _bank_group(w), key=it)
    return []


@handler(lass_pipe.CommitOp, lass_nv.CpAsyncCommitOp)
def _commit(ex: Executor, op, vals):
    _, _, actor = ex.actors_for(ex.active_lanes())
    ex.smem.commit(actor)
    return []


@handler(lass_pipe.WaitOp, lass_nv.CpAsyncWaitOp)
def _wait(ex: Executor, op, vals):
    pending = int(op.pending.value.data)
    if pending < 0:
        raise InterpError(f"{ex.where(op)}: expected pending >= 0, got {pending}")
    _, _, actor = ex.actors_for(ex.active_lanes())
    ex.smem.wait(actor, pending)
    return []


@handler(lass_pipe.BarrierOp, lass_nv.BarSyncOp)
def _barrier(ex: Executor, op, vals):
    ex.barrier(op)
    return []


@handler(lass_pipe.MmaOp)
def _pipe_mma(ex: Executor, op, vals):
    _block_level(ex, op)
    ra, sa, rb, sb, acc = vals
    opid = _opid(ex, op)
    lanes = ex.active_lanes()
    ta, tb = [], []
    for lane in lanes:
        for ring, slot, out in ((ra, sa, ta), (rb, sb, tb)):
            s = int(ex.at(slot, [lane])[0])
            base = int(_slot_base(ex, op, ring, [s], [lane * ex.threads])[0])
            raw = ex.smem.read_block_range(opid, int(lane), base, ring.tile_bytes)
            if ring.major == Lay.MN_MAJOR:  # element (r, k) at ring.offsets(r, k)
                elems = raw.view(_ring_dtype(ring))
                out.append(elems[_elem_index(ring)])
            else:
                out.append(raw.view(_ring_dtype(ring)).reshape(ring.rows, ring.bk))
    res = acc.copy()
    res[lanes] = _mma_tiles(np.stack(ta), np.stack(tb), acc[lanes])
    return [res]


def _elem_index(ring: RingInfo):
    """[rows, bk] element indices within a slot of the tile's elements (r, k)."""
    r, k = np.meshgrid(np.arange(ring.rows), np.arange(ring.bk), indexing="ij")
    return ring.offsets(r, k) // ring.esize


# ---- lass_warp ---------------------------------------------------------------------------------------
def _warp_lanes(ex: Executor, op):
    warps = ex.full_warps(op)
    if len(warps) == ex.L // 32:
        return warps, ex.lane
    return warps, (warps[:, None] * 32 + np.arange(32)).reshape(-1)


def _warp_uniform(ex: Executor, op, v, lanes, what: str):
    if not is_lanes(v):
        return
    vv = np.asarray(v)[lanes].reshape(-1, 32)
    bad = (vv != vv[:, :1]).any(axis=1)
    if bad.any():
        w = int(np.argmax(bad))
        first = int(lanes[w * 32])
        raise InterpError(
            f"{ex.where(op)}: expected {what} to be the same for all 32 lanes of a warp, but the warp of "
            f"{ex.actor(first)} has {sorted(set(int(x) for x in vv[w]))[:6]}"
        )


_REG = np.arange(4)


def _load_frag(ex: Executor, op, vals, which: str):
    ring, slot, row, k = vals
    opid = _opid(ex, op)
    warps, lanes = _warp_lanes(ex, op)
    for v, what in ((slot, "slot"), (row, "row" if which == "a" else "n"), (k, "k")):
        _warp_uniform(ex, op, v, lanes, what)
    lane_in = (lanes % 32)[:, None]
    r0 = ex.at(row, lanes)[:, None]
    k0 = ex.at(k, lanes)[:, None]
    eb = ring.esize  # each register: the 4 bytes from element (row, k) on (layout.mma_a/b_coord)
    # `interleaved`: fragment row (A) / column (B) i of the 16 is tile row / column frag_interleave(i)
    ilv = Lay.frag_interleave if op.interleaved is not None else (lambda i: i)
    if which == "a":
        rr, kk = Lay.mma_a_coord(lane_in, _REG[None, :], 0, eb)
        rows, cols = r0 + ilv(rr), k0 + kk
    else:
        kk, nn = Lay.mma_b_coord(lane_in, (_REG % 2)[None, :], 0, eb)
        rows, cols = r0 + ilv(8 * (_REG // 2)[None, :] + nn), k0 + kk
    bad = (rows < 0) | (rows >= ring.rows) | (cols < 0) | (cols + 4 // eb - 1 >= ring.bk)
    if bad.any():
        j = int(np.argmax(bad.any(axis=1)))
        i = int(np.argmax(bad[j]))
        raise OutOfBoundsError(
            f"{ex.where(op)}: {ex.actor(int(lanes[j]))} reads element ({int(rows[j, i])}, {int(cols[j, i])}) "
            f"outside the ring's {ring.rows} x {ring.bk} tile"
        )
    base = _slot_base(ex, op, ring, ex.at(slot, lanes), lanes)
    actors = np.repeat(lanes, 4)
    what = f"load_frag_{which} read"
    if ring.major == Lay.MN_MAJOR:
        # the 4 / eb elements of a register (k, k+1, ..) lie a line apart: one eb-byte read each
        parts = [base[:, None] + ring.offsets(rows, cols + h) for h in range(4 // eb)]  # [n, 4] each
        idx = np.concatenate([ex.smem.flat_index(opid, actors, x.reshape(-1), eb, align=eb, what=what)
                              for x in parts], axis=1)
        regs = i32_from_bytes(ex.smem.read(opid, actors, idx)).reshape(-1, 4)
        if ex.banks is not None:
            for x in parts:
                ex.banks.record(opid, np.swapaxes(x.reshape(-1, 32, 4), 1, 2).reshape(-1, 32), eb, 32)
        return _scatter_regs(ex, lanes, regs, np.int64)
    byte = base[:, None] + ring.offsets(rows, cols)  # [n, 4]
    idx = ex.smem.flat_index(opid, actors, byte.reshape(-1), 4, align=ring.esize, what=what)
    regs = i32_from_bytes(ex.smem.read(opid, actors, idx)).reshape(-1, 4)
    if ex.banks is not None:
        ex.banks.record(opid, np.swapaxes(byte.reshape(-1, 32, 4), 1, 2).reshape(-1, 32), 4, 32)
    return _scatter_regs(ex, lanes, regs, np.int64)


def _scatter_regs(ex: Executor, lanes, regs, dtype):
    """[n, r] per-lane registers of `lanes` -> r arrays over all lanes (zeros elsewhere)."""
    if len(lanes) == ex.L:
        return [np.ascontiguousarray(regs[:, i]) for i in range(regs.shape[1])]
    out = []
    for i in range(regs.shape[1]):
        full = np.zeros(ex.L, dtype)
        full[lanes] = regs[:, i]
        out.append(full)
    return out


@handler(lass_warp.LoadFragAOp)
def _load_frag_a(ex, op, vals):
    return _load_frag(ex, op, vals, "a")


@handler(lass_warp.LoadFragBOp)
def _load_frag_b(ex, op, vals):
    return _load_frag(ex, op, vals, "b")


# ---- lass_smem ---------------------------------------------------------------------------------------
@handler(lass_smem.SwizzleOp)
def _swizzle(ex: Executor, op, vals):
    return [wrap(Lay.swizzle(vals[0], *op.params()), 32)]


# ---- lass_nv -----------------------------------------------------------------------------------------
@handler(lass_nv.ThreadIdOp)
def _thread_id(ex: Executor, op, vals):
    return [ex.thread_ids]


@handler(lass_nv.WarpBroadcastOp)
def _warp_broadcast(ex: Executor, op, vals):
    """shfl.sync.idx from lane 0: each lane gets its warp's lane-0 value (the whole warp active)."""
    ex.full_warps(op)
    x = vals[0]
    if np.ndim(x) == 0:
        return [x]
    return [x[np.arange(ex.L) // Lay.WARP_SIZE * Lay.WARP_SIZE]]


@handler(lass_nv.BlockIdOp)
def _block_id(ex: Executor, op, vals):
    """%ctaid.x: the block's linear index; %ctaid.z: its batch (grid z); %ctaid.y: its split-K
    partition (0 without a split)."""
    axis = op.axis
    if axis == "z":
        return [ex.batch_z]
    if axis == "y":
        return [ex.part]
    return [ex.block_ids]


@handler(lass_nv.GridDimOp)
def _grid_dim(ex: Executor, op, vals):
    """%nctaid.x: the launch's blocks along x (a stream-K kernel's persistent grid)."""
    return [ex.launch.grid_x]


# ldmatrix.x4: receiving lane l gets 4 bytes at offset 4*(l%4) of the row supplied by lane 8i + l/4
_LDM_SUP = (8 * np.arange(4)[None, :] + (np.arange(32) // 4)[:, None])[:, :, None]  # [32, 4, 1]
_LDM_OFF = (4 * (np.arange(32) % 4)[:, None] + np.arange(4)[None, :])[:, None, :]  # [32, 1, 4]
# .trans: lane l gets bytes 2*(l/4), +1 of the rows supplied by lanes 8i + 2*(l%4) (low half) and
# 8i + 2*(l%4) + 1 (high half) (layout.ldmatrix_trans_dest_coord)
_LDMT_SUP = (8 * np.arange(4)[None, :, None] + 2 * (np.arange(32) % 4)[:, None, None]
             + (np.arange(4) // 2)[None, None, :])  # [32, 4, 4]
_LDMT_OFF = (2 * (np.arange(32) // 4)[:, None, None] + (np.arange(4) % 2)[None, None, :])  # [32, 1, 4]


@handler(lass_nv.LdmatrixX4Op)
def _ldmatrix(ex: Executor, op, vals):
    opid = _opid(ex, op)
    warps, lanes = _warp_lanes(ex, op)
    W = len(warps)
    addr = ex.at(vals[0], lanes).astype(np.int64)
    rows = ex.smem.flat_index(opid, lanes, addr, 16, align=16, what="ldmatrix row read").reshape(W, 32, 16)
    if op.trans is not None:
        recv = rows[:, _LDMT_SUP, np.broadcast_to(_LDMT_OFF, _LDMT_SUP.shape)]
    else:
        recv = rows[:, _LDM_SUP, _LDM_OFF]  # [W, 32 lanes, 4 matrices, 4 bytes]
    regs = i32_from_bytes(ex.smem.read(opid, np.repeat(lanes, 4), recv.reshape(-1, 4))).reshape(-1, 4)
    if ex.banks is not None:
        ex.banks.record(opid, addr.reshape(W, 32), 16, 8)
    return _scatter_regs(ex, lanes, regs, np.int64)


def _perm_tables(eb: int = 2):
    """Gather / scatter tables of the mma fragments for elements of `eb` bytes (e = 4 // eb per
    register): PERM_A[row*K + k] = lane*4e + reg*e + i, PERM_B[k*8 + n] = lane*2e + reg*e + i,
    PERM_C[row*8 + n] = lane*4 + idx, INV_C its inverse (layout.mma_a/b/c_coord)."""
    per = 4 // eb
    kk = Lay.MMA_K_BYTES // eb
    pa = np.full(16 * kk, -1)
    pb = np.full(kk * 8, -1)
    pc = np.full(128, -1)
    for lane in range(32):
        for reg in range(4):
            for half in range(per):
                r, k = Lay.mma_a_coord(lane, reg, half, eb)
                pa[r * kk + k] = (lane * 4 + reg) * per + half
        for reg in range(2):
            for half in range(per):
                k, n = Lay.mma_b_coord(lane, reg, half, eb)
                pb[k * 8 + n] = (lane * 2 + reg) * per + half
        for idx in range(4):
            r, n = Lay.mma_c_coord(lane, idx)
            pc[r * 8 + n] = lane * 4 + idx
    for p in (pa, pb, pc):
        assert sorted(p) == list(range(len(p))), "mma fragment maps must be permutations"
    return pa, pb, pc, np.argsort(pc)


# PERM_A[row*16 + k] = lane*8 + reg*2 + half ; PERM_B[k*8 + n] = lane*4 + reg*2 + half ;
# PERM_C[row*8 + n] = lane*4 + idx ; INV_C[lane*4 + idx] = row*8 + n   (f16 / bf16)
PERM_A, PERM_B, PERM_C, INV_C = _perm_tables()
_PERMS = {eb: _perm_tables(eb) for eb in (1, 2, 4)}
# ab_type -> (element bytes, numpy dtype of the unpacked elements)
MMA_AB_TYPES = {"f16": (2, np.float16), "bf16": (2, BF16), "tf32": (4, np.float32), "s8": (1, np.int8)}


def _regs(ex, regs, lanes):
    return np.stack([ex.at(v, lanes) if len(lanes) != ex.L or not is_lanes(v) else v for v in regs], axis=1)


def _unpack(ex, regs, lanes, ab_type: str = "f16"):
    """i32 registers (list of per-lane values) -> [n, e*len(regs)] elements in the registers'
    type (float16, bf16 uint16 patterns, float32, int8), the lowest-addressed element first."""
    x = _regs(ex, regs, lanes)
    u32 = np.ascontiguousarray((x.astype(np.int64) & 0xFFFFFFFF).astype("<u4"))
    return u32.view(np.dtype(MMA_AB_TYPES[ab_type][1]).newbyteorder("<")).astype(MMA_AB_TYPES[ab_type][1])


def _halves(ex, regs, lanes, ab_type: str = "f16"):
    """i32 registers -> [n, 2*len(regs)] float32 values of the f16 or bf16 halves, low half first."""
    return as_f32(_unpack(ex, regs, lanes, ab_type))


def _mma_ab_type(op) -> str:
    """The mma_sync's `ab_type` (what its A/B registers pack): "f16" when absent."""
    attr = op.attributes.get("ab_type")
    if attr is None:
        attr = getattr(op, "properties", {}).get("ab_type")
    t = "f16" if attr is None else getattr(attr, "data", attr)
    if t not in MMA_AB_TYPES:
        raise UnsupportedError(f"expected ab_type one of {', '.join(MMA_AB_TYPES)}, got {t!r}")
    return t


def _mma_sync_run(ex: Executor, op, vals, ab_type: str = "f16"):
    warps, lanes = _warp_lanes(ex, op)
    W = len(warps)
    eb = MMA_AB_TYPES[ab_type][0]
    kk = Lay.MMA_K_BYTES // eb
    pa, pb, pc, inv_c = _PERMS[eb]
    a = _unpack(ex, vals[0:4], lanes, ab_type).reshape(W, 16 * kk)[:, pa].reshape(W, 16, kk)
    b = _unpack(ex, vals[4:6], lanes, ab_type).reshape(W, kk * 8)[:, pb].reshape(W, kk, 8)
    acc_t = str(op.c0.type) if hasattr(op, "c0") else "f32"
    c = _regs(ex, vals[6:10], lanes).astype(MM.acc_dtype(acc_t))
    c = c.reshape(W, 128)[:, pc].reshape(W, 16, 8)
    # tf32: the fragments were rounded by cvt.rna in the IR; the mma reads the top 19 bits
    d = MM.mma(a, np.ascontiguousarray(np.swapaxes(b, 1, 2)), c, tf32_round=MM.tf32_trunc)
    regs = d.reshape(W, 128)[:, inv_c].reshape(W * 32, 4)
    if acc_t == "i32":
        regs = regs.astype(np.int64)
    return _scatter_regs(ex, lanes, regs, regs.dtype)


@handler(lass_nv.MmaSyncOp)
def _mma_sync(ex: Executor, op, vals):
    return _mma_sync_run(ex, op, vals, _mma_ab_type(op))


def _prepare_mma_sync(op):
    ab_type = _mma_ab_type(op)
    return lambda ex, op, vals: _mma_sync_run(ex, op, vals, ab_type)


_mma_sync.prepare = _prepare_mma_sync


@handler(lass_nv.CvtRnaTf32Op)
def _cvt_rna_tf32(ex: Executor, op, vals):
    """The f32 in an i32 register rounded to tf32 (to nearest, ties away): mma_math.tf32_rna."""
    x = np.asarray(vals[0]).astype(np.int64) & 0xFFFFFFFF
    r = MM.tf32_rna(np.asarray(x.astype(np.uint32)).view(np.float32)).view(np.uint32).astype(np.int64)
    return [wrap(r if is_lanes(vals[0]) else int(r), 32)]


@handler(lass_nv.CvtRniS32Op)
def _cvt_rni_s32(ex: Executor, op, vals):
    """f32 -> s32, to nearest even, saturating, NaN -> 0 (mma_math.f32_to_s32)."""
    r = MM.f32_to_s32(vals[0])
    return [r if is_lanes(vals[0]) else int(r)]


@handler(lass_nv.LdGlobalOp)
def _ld_global(ex: Executor, op, vals):
    """Guarded load: zeros and no access where the predicate (vals[2]) is false."""
    src = _buffer(ex, op, vals[0], None, "the source")
    cnt = len(op.values)
    lanes = ex.active_lanes()
    p = np.asarray(ex.at(vals[2], lanes), bool)
    idx = ex.at(vals[1], lanes).astype(np.int64)[:, None] + np.arange(cnt)
    data = np.zeros((len(lanes), cnt), src.dtype)
    if p.any():
        _gmem_check(ex, op, src, idx[p], lanes[p], "loads", cnt * src.dtype.itemsize if cnt > 1 else 0)
        if ex.sync is not None:
            ex.sync.access(ex, op, src, idx[p], lanes[p], False)
        data[p] = src.array[idx[p]]
    return _scatter_regs(ex, lanes, data, src.dtype)


@handler(lass_nv.StGlobalOp)
def _st_global(ex: Executor, op, vals):
    """Guarded store: only where the predicate (vals[2]) is true."""
    dest = _buffer(ex, op, vals[0], None, "the destination")
    values = vals[3:]
    lanes = ex.active_lanes()
    p = np.asarray(ex.at(vals[2], lanes), bool)
    if not p.any():
        return []
    idx = ex.at(vals[1], lanes).astype(np.int64)[:, None] + np.arange(len(values))
    _gmem_check(ex, op, dest, idx[p], lanes[p], "stores", len(values) * dest.dtype.itemsize if len(values) > 1 else 0)
    if ex.sync is not None:
        ex.sync.access(ex, op, dest, idx[p], lanes[p], True)
    data = store_as(np.stack([ex.at(v, lanes) for v in values], axis=1), dest.dtype)
    dest.array[idx[p].reshape(-1)] = data[p].reshape(-1)
    return []


def _load_bytes(ex: Executor, op, src: GlobalBuffer, off, pred, lanes, nbytes: int, what: str):
    """[n, nbytes] uint8: nbytes of src at element offset off per lane (nbytes-aligned), zeros where !pred."""
    esize = src.dtype.itemsize
    if nbytes % esize:
        raise UnsupportedError(f"{ex.where(op)}: a {nbytes}-byte access of {esize}-byte elements of {src.role}")
    epc = nbytes // esize
    p = np.asarray(ex.at(pred, lanes), bool)
    idx = ex.at(off, lanes).astype(np.int64)[:, None] + np.arange(epc)
    data = np.zeros((len(lanes), epc), src.dtype)
    if p.any():
        _gmem_check(ex, op, src, idx[p], lanes[p], what, nbytes)
        data[p] = src.array[idx[p]]
    return data.view(np.uint8).reshape(len(lanes), nbytes)


@handler(lass_nv.LdGlobalV4Op)
def _ld_global_v4(ex: Executor, op, vals):
    src = _buffer(ex, op, vals[0], None, "the source")
    lanes = ex.active_lanes()
    raw = _load_bytes(ex, op, src, vals[1], vals[2], lanes, 16, "loads (ld.global.v4)")
    regs = i32_from_bytes(raw.reshape(-1, 4, 4))
    return _scatter_regs(ex, lanes, regs, np.int64)


@handler(lass_nv.LdGlobalBOp)
def _ld_global_b(ex: Executor, op, vals):
    """w = 1, 2, 4 or 8 bytes into max(1, w/4) registers; 1 and 2 bytes zero-extended; zeros when !pred."""
    src = _buffer(ex, op, vals[0], None, "the source")
    w = int(op.bytes.value.data)
    lanes = ex.active_lanes()
    raw = _load_bytes(ex, op, src, vals[1], vals[2], lanes, w, f"loads ({w}-byte ld.global)")
    if w < 4:
        raw = np.concatenate([raw, np.zeros((len(lanes), 4 - w), np.uint8)], axis=1)
    regs = i32_from_bytes(raw.reshape(len(lanes), -1, 4))
    return _scatter_regs(ex, lanes, regs, np.int64)


@handler(lass_nv.CpAsyncOp)
def _cp_async(ex: Executor, op, vals):
    """cp.async of w = 4, 8 or 16 bytes (w-byte aligned at both ends), zero-filled when !pred."""
    src = _buffer(ex, op, vals[0], None, "the source")
    w = int(op.bytes.value.data)
    if w not in Lay.CP_ASYNC_CA_BYTES:
        raise UnsupportedError(f"{ex.where(op)}: expected a cp.async of 4, 8 or 16 bytes, got {w}")
    opid = _opid(ex, op)
    lanes = ex.active_lanes()
    raw = _load_bytes(ex, op, src, vals[1], vals[3], lanes, w, "copies (cp.async) from")
    dst = ex.at(vals[2], lanes).astype(np.int64)
    idx = ex.smem.flat_index(opid, lanes, dst, w, align=w, what="cp.async write")
    ex.smem.issue_async(opid, lanes, idx, raw)
    _record_banks(ex, opid, lanes, dst, w, _bank_group(w))
    return []


@handler(lass_nv.LdSharedOp)
def _ld_shared(ex: Executor, op, vals):
    """ld.shared.b32 / .v2 / .v4: 4 n bytes at the (4 n-aligned) address, n registers, lowest word
    first; bank conflicts counted per 128 bytes of lanes (32, 16 or 8 lanes a group)."""
    opid = _opid(ex, op)
    n = len(op.values)
    lanes = ex.active_lanes()
    addr = ex.at(vals[0], lanes).astype(np.int64)
    idx = ex.smem.flat_index(opid, lanes, addr, 4 * n, align=4 * n, what=f"ld.shared{'' if n == 1 else f'.v{n}'} read")
    raw = ex.smem.read(opid, lanes, idx)
    regs = i32_from_bytes(np.ascontiguousarray(raw).reshape(-1, 4)).reshape(len(lanes), n)
    _record_banks(ex, opid, lanes, addr, 4 * n, Lay.SMEM_WAVEFRONT_BYTES // (4 * n))
    return _scatter_regs(ex, lanes, regs, np.int64)


@handler(lass_nv.PrmtOp)
def _prmt(ex: Executor, op, vals):
    """prmt.b32 (generic form): layout.prmt of the unsigned registers, as a signed i32."""
    r = Lay.prmt(*vals)
    return [wrap(np.asarray(r, np.int64) if any(is_lanes(v) for v in vals) else int(r), 32)]


@handler(lass_nv.StSharedV4Op)
def _st_shared_v4(ex: Executor, op, vals):
    opid = _opid(ex, op)
    lanes = ex.active_lanes()
    addr = ex.at(vals[0], lanes).astype(np.int64)
    idx = ex.smem.flat_index(opid, lanes, addr, 16, align=16, what="st.shared.v4 write")
    data = bytes_from_i32(np.stack([ex.at(v, lanes) for v in vals[1:5]], axis=1)).reshape(-1, 16)
    ex.smem.write(opid, lanes, idx, data)
    _record_banks(ex, opid, lanes, addr, 16, 8)
    return []


@handler(lass_nv.StSharedBOp)
def _st_shared_b(ex: Executor, op, vals):
    """w = 1, 2, 4 or 8 bytes (the low bytes of the registers), w-byte aligned."""
    opid = _opid(ex, op)
    w = int(op.bytes.value.data)
    lanes = ex.active_lanes()
    addr = ex.at(vals[0], lanes).astype(np.int64)
    idx = ex.smem.flat_index(opid, lanes, addr, w, align=w, what=f"{w}-byte st.shared write")
    data = bytes_from_i32(np.stack([ex.at(v, lanes) for v in vals[1:]], axis=1)).reshape(len(lanes), -1)[:, :w]
    ex.smem.write(opid, lanes, idx, np.ascontiguousarray(data))
    _record_banks(ex, opid, lanes, addr, w, _bank_group(w))
    return []


@handler(lass_nv.StSharedOp)
def _st_shared(ex: Executor, op, vals):
    """st.shared(.v2/.v4) of 2 or 4 typed values, aligned to their total size, lowest first."""
    opid = _opid(ex, op)
    dtype = numpy_dtype(op.values[0].type)
    n = len(op.values)
    w = n * dtype.itemsize
    lanes = ex.active_lanes()
    addr = ex.at(vals[0], lanes).astype(np.int64)
    idx = ex.smem.flat_index(opid, lanes, addr, w, align=w, what=f"{w}-byte st.shared write")
    data = store_as(np.stack([np.broadcast_to(ex.at(v, lanes), lanes.shape) for v in vals[1:]], axis=1), dtype)
    ex.smem.write(opid, lanes, idx, np.ascontiguousarray(data).view(np.uint8).reshape(len(lanes), w))
    _record_banks(ex, opid, lanes, addr, w, _bank_group(w))
    return []


@handler(lass_nv.StGlobalV4Op)
def _st_global_v4(ex: Executor, op, vals):
    """16 raw bytes (4 registers, lowest first) at dest[offset], 16-byte aligned, where pred."""
    dest = _buffer(ex, op, vals[0], None, "the destination")
    lanes = ex.active_lanes()
    p = np.broadcast_to(np.asarray(ex.at(vals[6], lanes), bool), lanes.shape)
    if not p.any():
        return []
    per = 16 // dest.dtype.itemsize
    idx = ex.at(vals[1], lanes).astype(np.int64)[:, None] + np.arange(per)
    _gmem_check(ex, op, dest, idx[p], lanes[p], "stores (st.global.v4)", 16)
    if ex.sync is not None:
        ex.sync.access(ex, op, dest, idx[p], lanes[p], True)
    raw = bytes_from_i32(np.stack([np.broadcast_to(ex.at(v, lanes), lanes.shape) for v in vals[2:6]], axis=1))
    data = np.ascontiguousarray(raw.reshape(len(lanes), 16)).view(dest.dtype)
    dest.array[idx[p].reshape(-1)] = data[p].reshape(-1)
    return []


@handler(lass_nv.AlignedOp)
def _aligned(ex: Executor, op, vals):
    """The executor's kernel arguments start 16-byte aligned (as cudaMalloc's, see _gmem_check); a
    batch view is aligned when its element offset is."""
    buf = _buffer(ex, op, vals[0], None, "the argument")
    w = int(op.bytes.value.data)
    return [bool((buf.offset * buf.dtype.itemsize) % min(w, 16) == 0)]
