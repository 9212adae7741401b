"""Handlers of split-K's ops (lasscc.splitk) for the CPU executor: the partition, and the
semaphore wait / release at the block level (lass_tb) and per thread (lass_nv), with the
scheduling and memory-ordering semantics of lasscc.interp.sync."""

from __future__ import annotations

import numpy as np

from lasscc.dialects import lass_nv, lass_tb
from lasscc.interp.errors import InterpError, OutOfBoundsError
from lasscc.interp.executor import Executor, handler
from lasscc.interp.values import GlobalBuffer
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
