"""Handlers of split-K's ops (lasscc.splitk) for the CPU executor: the partition, and the
semaphore wait / release at the block level (lass_tb) and per thread (lass_nv), with the
scheduling and memory-ordering semantics of lasscc.interp.sync."""

from __future__ import annotations

import numpy as np

from lasscc.dialects import lass_nv, lass_tb
from lasscc.interp.errors import InterpError, OutOfBoundsError
from lasscc.interp.executor import Executor, handler
from lasscc.interp.values import GlobalBuffer, wrap
from lasscc.cluster_splitk import is_cluster_split
from lasscc.splitk import partition_range


def _words(ex: Executor, op, sem, index, value):
    """(buffer, lanes, word indices, values) of a semaphore op over the active lanes."""
    if not isinstance(sem, GlobalBuffer):
        raise InterpError(f"{ex.where(op)}: expected the workspace memref argument, got {type(sem).__name__}")
    lanes = ex.active_lanes()
    idx = np.asarray(ex.at(index, lanes), np.int64)
    val = np.asarray(ex.at(value, lanes), np.int64)
    bad = (idx < 0) | (idx >= sem.array.size)
    if bad.any():
        j = int(np.argmax(bad))
        raise OutOfBoundsError(f"{ex.where(op)}: {ex.actor(int(lanes[j]))} accesses semaphore word {int(idx[j])} of "
                               f"{sem.role}, which has {sem.array.size} words (too small a workspace?)")
    return sem, lanes, idx, val


def _sync_or_fail(ex: Executor, op):
    if ex.sync is None:
        raise InterpError(f"{ex.where(op)}: a semaphore op in a kernel without split_k > 1 or stream-K (its config): the "
                          f"launch does not run its CTAs as synchronising threads")
    return ex.sync


def _wait(ex: Executor, op, vals, block_level: bool):
    sync = _sync_or_fail(ex, op)
    sem, lanes, idx, want = _words(ex, op, *vals)
    while True:
        cur = sem.array[idx].astype(np.int64)
        wait = cur != want
        if not wait.any():
            break
        j = int(np.argmax(wait))
        what = (f"{ex.actor(int(lanes[j]))} at {ex.where(op)} waits for {sem.role}[{int(idx[j])}] == {int(want[j])} "
                f"(it holds {int(cur[j])})")
        sync.park(ex.slice_id, [(sem.array, idx[wait].copy(), cur[wait].copy())], what)
    threads = ex.thread_ids[lanes] if ex.prog.simt else np.zeros(len(lanes), np.int64)
    sync.acquire(ex.cta_of(lanes), threads, idx, sem.role, block_level)
    return []


def _release(ex: Executor, op, vals, block_level: bool):
    sync = _sync_or_fail(ex, op)
    sem, lanes, idx, val = _words(ex, op, *vals)
    threads = ex.thread_ids[lanes] if ex.prog.simt else np.zeros(len(lanes), np.int64)
    sync.release(ex.cta_of(lanes), threads, idx, sem.role, block_level)
    sem.array[idx] = val.astype(sem.array.dtype)
    return []


@handler(lass_tb.KPartitionOp)
def _k_partition(ex: Executor, op, vals):
    """(partition, k_begin, k_end): the slice's grid y and its K range (lasscc.splitk)."""
    k = int(ex.uniform(vals[0]))
    if is_cluster_split(ex.prog.config):  # the cluster rank: blocks of one slice differ (lasscc.cluster_splitk)
        part = ex.block_ids % int(op.split.value.data)
        lo, hi = partition_range(part, k, int(op.tile_k.value.data), int(op.split.value.data))
        return [wrap(part, 32), wrap(np.asarray(lo, np.int64), 32), wrap(np.asarray(hi, np.int64), 32)]
    lo, hi = partition_range(ex.part, k, int(op.tile_k.value.data), int(op.split.value.data))
    return [ex.part, int(lo), int(hi)]


@handler(lass_tb.SemaphoreWaitOp)
def _tb_wait(ex: Executor, op, vals):
    return _wait(ex, op, vals, True)


@handler(lass_tb.SemaphoreReleaseOp)
def _tb_release(ex: Executor, op, vals):
    return _release(ex, op, vals, True)


@handler(lass_nv.SpinAcquireOp)
def _spin_acquire(ex: Executor, op, vals):
    """Thread-level: each active lane spins (parks) until its word holds the value, then acquires."""
    return _wait(ex, op, vals, False)


@handler(lass_nv.StReleaseOp)
def _st_release(ex: Executor, op, vals):
    return _release(ex, op, vals, False)


# ---- stream-K's workspace partials (lasscc.streamk) -----------------------------------------------

def _partial_words(ex: Executor, op, acc, sem, slot):
    """(buffer, lanes, [n, BM * BN] word indices) of the partial-sum slot of each active lane, at
    the block level: element (r, c) of the tile at word partial_word(slot) + r * BN + c."""
    from lasscc.interp.lass_ops import _block_level
    from lasscc.streamk import partial_word

    _block_level(ex, op)
    if not isinstance(sem, GlobalBuffer):
        raise InterpError(f"{ex.where(op)}: expected the workspace memref argument, got {type(sem).__name__}")
    lanes = ex.active_lanes()
    bm, bn = acc.shape[1:]
    first = np.asarray(partial_word(np.asarray(ex.at(slot, lanes), np.int64), (bm, bn)), np.int64)
    idx = first[:, None] + np.arange(bm * bn)[None, :]
    bad = (idx < 0) | (idx >= sem.array.size)
    if bad.any():
        j = int(np.argmax(bad.any(axis=1)))
        raise OutOfBoundsError(f"{ex.where(op)}: {ex.actor(int(lanes[j]))} accesses partial slot {int(ex.at(slot, lanes)[j])} "
                               f"(words {int(idx[j, 0])}..{int(idx[j, -1])}) of {sem.role}, which has {sem.array.size} "
                               f"words (too small a workspace?)")
    return sem, lanes, idx


def _partial_bits(acc: np.ndarray, dtype) -> np.ndarray:
    """The workspace words of accumulator tiles: f32 bits (an f16 accumulator widened), i32 as is."""
    if acc.dtype.kind == "i":
        return acc.astype(np.int32).astype(dtype)
    return acc.astype(np.float32).view(np.int32).astype(dtype)


@handler(lass_tb.PartialStoreOp)
def _partial_store(ex: Executor, op, vals):
    acc, sem, slot = vals
    sem, lanes, idx = _partial_words(ex, op, acc, sem, slot)
    if ex.sync is not None:
        ex.sync.access(ex, op, sem, idx, lanes, True)
    sem.array[idx.reshape(-1)] = _partial_bits(acc[lanes], sem.array.dtype).reshape(-1)
    return []


@handler(lass_tb.PartialAddOp)
def _partial_add(ex: Executor, op, vals):
    acc, sem, slot = vals
    sem, lanes, idx = _partial_words(ex, op, acc, sem, slot)
    if ex.sync is not None:
        ex.sync.access(ex, op, sem, idx, lanes, False)
    words = sem.array[idx].astype(np.int32).reshape(len(lanes), *acc.shape[1:])
    out = acc.copy()
    if acc.dtype.kind == "i":
        out[lanes] = (acc[lanes].astype(np.int64) + words).astype(np.int32)  # i32 wraps, as add.s32
    else:
        out[lanes] = (acc[lanes].astype(np.float32) + words.view(np.float32)).astype(acc.dtype)
    return [out]
