"""CPU semantics of the TMA-store epilogue's ops (config epilogue = "tma", passes/tma_store.py):
`lass_nv.stmatrix_x4`, `tma_store_2d` / `_3d`, `bulk_commit_group`, `bulk_wait_group_read`.

The model (lockstep threads, as the rest of the executor):

  * stmatrix.x4 (PTX ISA 9.7.14.5.16), warp-collective: lane 8i + j gives the 16-byte aligned
    address of row j of matrix i, and that row is the register i of lanes 4j .. 4j + 3 of the warp
    (two 16-bit elements each, lowest lane first): written as generic-proxy stores.
  * A TMA store reads its source box at issue: through the generic-proxy checks of shared memory
    (uninitialised bytes, a write by another thread no barrier ordered: a race) and the
    async-proxy one (a generic write not followed by fence.proxy.async of its writer), then
    writes the box to the global tensor of its map through the map's swizzle, clipped at the
    tensor's bounds (`sm90_layout.tma_box_store`; a 3-d map: the box's batch only).  Until a
    `bulk_wait_group_read` of the issuing thread retires the bulk group holding the store, its
    source counts as being read: a shared-memory write to it is an AsyncHazardError naming the
    store, and so is the kernel's end (the CTA's shared memory would go away under it).
  * bulk async-groups are per thread: `bulk_commit_group` closes the thread's open group (an empty
    one too), `bulk_wait_group_read {pending = N}` retires all but its N newest.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from lasscc import sm90_layout as S
from lasscc.dialects import lass_nv, lass_wg
from lasscc.interp.errors import AsyncHazardError, MisalignedAccessError
from lasscc.interp.executor import Executor, handler
from lasscc.interp.lass_ops import _warp_lanes
from lasscc.interp.sm90_ops import SHARED_WINDOW_BASE, _opid, _state, tma_operands
from lasscc.interp.bf16 import store_as
from lasscc.interp.values import numpy_dtype

STMATRIX_ROW_BYTES = 16  # one 8-element row of 16-bit values per address lane


@dataclass
class _Store:
    opid: int
    actor: int
    idx: np.ndarray  # flat shared-memory bytes it reads
    retired: bool = False


@dataclass
class BulkStores:
    """The TMA stores of one executor whose sources may still be read (Sm90State.store_reads)."""

    ex: Executor
    stores: list = field(default_factory=list)
    open: dict = field(default_factory=dict)  # actor -> stores since its last commit
    groups: dict = field(default_factory=dict)  # actor -> committed groups (lists of stores), oldest first

    def check_write(self, opid, fi, fa) -> None:
        """A shared-memory write of flat bytes fi (actors fa): no unretired store may read them."""
        for s in self.stores:
            if s.retired:
                continue
            hit = np.isin(fi, s.idx)
            if hit.any():
                j = int(np.argmax(hit))
                ex = self.ex
                raise AsyncHazardError(
                    f"{ex.op(opid)}: {ex.actor(int(fa[j]))} writes {ex.smem._byte_desc(int(fi[j]))} while "
                    f"{ex.op(s.opid)} issued by {ex.actor(s.actor)} may still be reading it (no "
                    f"bulk_wait_group_read of that thread retired its bulk group)")

    def finish(self) -> None:
        live = [s for s in self.stores if not s.retired]
        if live:
            s, ex = live[0], self.ex
            raise AsyncHazardError(
                f"{ex.op(s.opid)}: the kernel ends while this TMA store by {ex.actor(s.actor)} may still be reading "
                f"shared memory (no bulk_wait_group_read retired its bulk group)")


def _bulk(ex: Executor) -> BulkStores:
    st = _state(ex)
    if st.store_reads is None:
        st.store_reads = BulkStores(ex)
    return st.store_reads


@handler(lass_nv.StmatrixX4Op)
def _stmatrix(ex: Executor, op, vals):
    opid = _opid(ex, op)
    warps, lanes = _warp_lanes(ex, op)
    W = len(warps)
    addr = ex.at(vals[0], lanes).astype(np.int64)
    dtype = numpy_dtype(op.values[0].type)
    regs = store_as(np.stack([np.broadcast_to(ex.at(v, lanes), lanes.shape) for v in vals[1:]], axis=1), dtype)
    regs = np.ascontiguousarray(regs).view(np.uint8).reshape(W, 32, 4, 4)  # [warp, lane, register i, bytes]
    # row j of matrix i (addressed by lane 8i + j) = register i of lanes 4j .. 4j + 3
    rows = np.empty((W, 32, STMATRIX_ROW_BYTES), np.uint8)
    for i in range(4):
        for j in range(8):
            rows[:, 8 * i + j] = regs[:, 4 * j:4 * j + 4, i].reshape(W, STMATRIX_ROW_BYTES)
    idx = ex.smem.flat_index(opid, lanes, addr, STMATRIX_ROW_BYTES, align=STMATRIX_ROW_BYTES,
                             what="stmatrix row write")
    ex.smem.write(opid, lanes, idx, rows.reshape(W * 32, STMATRIX_ROW_BYTES))
    if ex.banks is not None:
        ex.banks.record(opid, addr.reshape(W, 32), STMATRIX_ROW_BYTES, 8)
    return []


def _issue(ex: Executor, op, lanes, src, mode, box, elem_bytes: int, write) -> None:
    """Each lane of `lanes` issues a TMA store of a box (inner, outer elements) from shared byte
    src[j] under `mode`: the source read and checked at issue, `write(j, bytes)` writes global
    memory, and the store stays unretired until its bulk group's wait_group.read."""
    st = _state(ex)
    bulk = _bulk(ex)
    opid = _opid(ex, op)
    n = box[0] * box[1] * elem_bytes
    for j, a in enumerate(lanes):
        err = S.tma_smem_align_error(int(src[j]) + SHARED_WINDOW_BASE, mode)
        if err:
            raise MisalignedAccessError(f"{ex.where(op)}: {ex.actor(int(a))}: {err}")
        idx = st.smem.flat_index(opid, np.array([a]), src[j:j + 1], n, what="TMA store read")
        if st.smem.track:
            st.check_fenced(opid, idx[0], f"the TMA store of {ex.actor(int(a))}")
        write(j, st.smem.read(opid, np.array([a]), idx)[0])
        rec = _Store(opid, int(a), idx[0].copy())
        bulk.stores.append(rec)
        bulk.open.setdefault(int(a), []).append(rec)


@handler(lass_nv.TmaStore2dOp, lass_nv.TmaStore3dOp)
def _tma_store(ex: Executor, op, vals):
    rank = 3 if isinstance(op, lass_nv.TmaStore3dOp) else 2
    tmap, lanes, coords = tma_operands(ex, op, vals, rank, "TMA store through")
    spec = tmap.spec

    def write(j, data):
        c = tuple(int(x[j]) for x in coords)
        g = tmap.array
        if rank == 3:
            if not 0 <= c[2] < g.shape[0]:
                return  # a batch outside the tensor: nothing is written
            g = g[c[2]]
        S.tma_box_store(g, data, c[:2], spec.box, spec.mode)
    _issue(ex, op, lanes, np.asarray(ex.at(vals[1 + rank], lanes), np.int64), spec.mode, spec.box,
           spec.elem_bytes, write)
    return []


@handler(lass_wg.TmaStoreOp)
def _wg_tma_store(ex: Executor, op, vals):
    """The warpgroup level's store of a staged subtile (passes/tma_store.py): the box D's tensor map
    will have (the block's rows x sm90_layout.epilogue_subtile columns, its swizzle) at D[row, col]
    of the destination (D or its batch view), clipped at its bounds."""
    from lasscc.interp.lass_ops import _buffer
    from lasscc.resources import TMA_STORE_D_TYPES

    dest = _buffer(ex, op, vals[0], None, "the destination")
    bm, bn, _ = ex.prog.config.threadblock
    db = TMA_STORE_D_TYPES[str(op.dest.type.get_element_type())]
    cols, mode = S.epilogue_subtile(bn, db)
    lanes = ex.active_lanes()
    rows_at, cols_at = (np.asarray(ex.at(v, lanes), np.int64) for v in vals[1:3])
    g = dest.array[:dest.rows * dest.cols].reshape(dest.rows, dest.cols)
    _issue(ex, op, lanes, np.asarray(ex.at(vals[3], lanes), np.int64), mode, (cols, bm), db,
           lambda j, data: S.tma_box_store(g, data, (int(cols_at[j]), int(rows_at[j])), (cols, bm), mode))
    return []


@handler(lass_nv.BulkCommitGroupOp)
def _bulk_commit(ex: Executor, op, vals):
    bulk = _bulk(ex)
    for a in ex.active_lanes():
        bulk.groups.setdefault(int(a), []).append(bulk.open.pop(int(a), []))
    return []


@handler(lass_nv.BulkWaitGroupReadOp)
def _bulk_wait_read(ex: Executor, op, vals):
    bulk = _bulk(ex)
    keep = op.pending.value.data
    for a in ex.active_lanes():
        groups = bulk.groups.get(int(a), [])
        done, bulk.groups[int(a)] = groups[:max(len(groups) - keep, 0)], groups[max(len(groups) - keep, 0):]
        for g in done:
            for s in g:
                s.retired = True
    bulk.stores = [s for s in bulk.stores if not s.retired]
    return []


__all__ = ["BulkStores"]
