"""CPU semantics of thread block clusters (`lass_cluster`, dialects/lass_cluster.py; lasscc.cluster).

The CTAs of a cluster run together: execute_kernel rounds the grid up to whole clusters and
makes every slice a whole number of clusters, so a cluster's CTAs are blocks of one Executor and
run in its lockstep (as the blocks of a slice always do).  A CTA's rank is its block id mod the
cluster size (%cluster_ctarank of cluster dims (n, 1, 1) on a 1-d grid).

  * `tma_load_multicast`: the box (sm90_layout.tma_box_bytes) lands at the same shared byte of
    every CTA in the ctaMask, each copy in flight until its own mbarrier's phase completes, and
    completes the box's bytes on each destination's mbarrier (so a destination whose full barrier
    expects other bytes than the multicasts deliver is a tx-count underflow or a deadlock of
    interp/sm90_ops.py).  A mask naming no CTA or a rank outside the cluster is a ClusterError; a
    mask that misses a CTA leaves its barrier waiting: a DeadlockError at its wait.
  * `mbarrier_arrive_remote`: an arrival on the peer's mbarrier at that byte; the waiter of that
    barrier then acquires the arriving threads' accesses (interp/sm90_ops.Sm90State.acquire).
  * `sync`: every thread of every CTA of a cluster must reach it (a CTA whose peer does not is a
    DeadlockError, a CTA reaching it with some threads a DivergenceError); it orders shared
    memory like a block barrier, in each CTA.
  * a multicast or remote arrival reaching a peer that has passed no `sync` yet is a ClusterError
    (its mbarrier_init need not be visible to the cluster).
  * `ld_shared_remote` (cluster split-K, lasscc.cluster_splitk): a DSMEM read of a peer's bytes,
    checked by the shared-memory race checker with the reader as actor: bytes the peer wrote with
    no `sync` since are a RaceError (the peer's partial read before its barrier arrival);
    `lass_tb.cluster_reduce` is its tile-level form (the sum in rank order, no memory).
  * exit: a CTA that multicast into, arrived on or read a peer's shared memory with no `sync` since is a
    ClusterError when the kernel ends (the peer could exit, or already have, while the write may
    still land); TMA copies that never landed are an MbarrierError (Sm90State.finish).
"""

from __future__ import annotations

import numpy as np

from lasscc import cluster as CL
from lasscc import sm90_layout as S
from lasscc.cluster_splitk import is_cluster_split
from lasscc import cluster_splitk as CS
from lasscc.dialects import lass_cluster, lass_tb
from lasscc.interp.errors import DeadlockError, DivergenceError, InterpError, MisalignedAccessError, OutOfBoundsError
from lasscc.interp.executor import EXIT_HOOKS, Executor, handler
from lasscc.interp.sm90_ops import SHARED_WINDOW_BASE, _state, tma_operands
from lasscc.interp.values import wrap


class ClusterError(InterpError):
    """A cluster rule broken: a bad ctaMask or rank, a CTA exiting while a peer may still write its
    shared memory."""


def cluster_size(ex: Executor) -> int:
    """CTAs per cluster: config `cluster`'s, or cluster split-K's K partitions (lasscc.cluster_splitk)."""
    cfg = ex.prog.config
    if is_cluster_split(cfg):
        return cfg.split_k
    return CL.size(getattr(cfg, "cluster", CL.CLUSTER_NONE))


def _pending(ex: Executor) -> dict:
    """(source block, destination block) -> opid of the latest remote operation with no sync since."""
    return ex.__dict__.setdefault("_cluster_pending", {})


def _synced(ex: Executor) -> set:
    """Local blocks that have passed a cluster barrier (so their mbarrier_init is visible to peers)."""
    return ex.__dict__.setdefault("_cluster_synced", set())


def _remote(ex: Executor, op, src: int, dest: int, actor: int) -> None:
    """Block `src` reaches block `dest`'s shared memory: `dest` must have passed a cluster barrier
    since its barriers' init (else the write may find them uninitialised), and a barrier must
    follow before either exits (check_exit)."""
    if dest == src:
        return
    if dest not in _synced(ex):
        raise ClusterError(f"{ex.where(op)}: {ex.actor(actor)} reaches the shared memory of {ex.block(dest)} of its "
                           f"cluster before any lass_cluster.sync: its mbarrier_init may not be visible to the "
                           f"cluster yet (fence.mbarrier_init + a cluster barrier after the init)")
    _pending(ex)[(src, dest)] = ex.prog.opid[op]


def _peer_block(ex: Executor, op, b_local: int, rank: int, actor: int) -> int:
    """The local block index of rank `rank` of block `b_local`'s cluster."""
    n = cluster_size(ex)
    if not 0 <= rank < n:
        raise ClusterError(f"{ex.where(op)}: {ex.actor(actor)} names cluster rank {rank}, outside its cluster of {n} "
                           f"CTA(s)")
    dest = b_local - (ex.block0 + b_local) % n + rank
    if not 0 <= dest < ex.nb:  # execute_kernel keeps clusters within a slice
        raise InterpError(f"{ex.where(op)}: rank {rank} of {ex.block(b_local)}'s cluster is not run with it")
    return dest


@handler(lass_cluster.CtaRankOp)
def _ctarank(ex: Executor, op, vals):
    return [wrap(ex.block_ids % cluster_size(ex), 32)]


@handler(lass_cluster.ClusterIdOp)
def _cluster_id(ex: Executor, op, vals):
    return [wrap(ex.block_ids // cluster_size(ex), 32)]


@handler(lass_cluster.SyncOp)
def _sync(ex: Executor, op, vals):
    n = cluster_size(ex)
    if ex.mask is None:
        full = np.ones(ex.nb, bool)
    else:
        m = ex.mask.reshape(ex.nb, ex.tpl)
        full, none = m.all(1), ~m.any(1)
        bad = ~(full | none)
        if bad.any():
            b = int(np.argmax(bad))
            raise DivergenceError(f"{ex.where(op)}: only {int(m[b].sum())} of the {ex.tpl} threads of {ex.block(b)} "
                                  f"reach the cluster barrier (the others never arrive: deadlock)")
    first = (ex.block0 + np.arange(ex.nb)) % n == 0
    for c in np.nonzero(first)[0]:
        group = full[c:c + n]
        if group.any() and not group.all():
            there, missing = int(c + np.argmax(group)), int(c + np.argmin(group))
            raise DeadlockError(f"{ex.where(op)}: deadlock: {ex.block(there)} waits at the cluster barrier for "
                                f"{ex.block(missing)} of its cluster, which does not reach it")
    ex.smem.barrier(np.nonzero(full)[0])
    pend = _pending(ex)
    for key in [k for k in pend if full[k[0]] and full[k[1]]]:
        del pend[key]
    _synced(ex).update(int(b) for b in np.nonzero(full)[0])
    return []


@handler(lass_cluster.TmaLoadMulticastOp)
def _tma_load_multicast(ex: Executor, op, vals):
    st = _state(ex)
    rank = len(op.coords)
    tmap, lanes, coords = tma_operands(ex, op, vals, rank, "TMA multicast load of")
    spec = tmap.spec
    dst = np.asarray(ex.at(vals[1 + rank], lanes), np.int64)
    actors, blocks, addrs = st.lane_bars(op, lanes, vals[2 + rank], "(TMA completion)")
    masks = np.asarray(ex.at(vals[3 + rank], lanes), np.int64)
    opid = ex.prog.opid[op]
    n, size = spec.box_bytes, cluster_size(ex)
    for j, a in enumerate(actors):
        mask, b = int(masks[j]), int(blocks[j])
        if mask <= 0 or mask >> size:
            raise ClusterError(f"{ex.where(op)}: {ex.actor(int(a))}: ctaMask {mask:#x} must name 1 to {size} CTAs of "
                               f"its cluster of {size} (bits 0..{size - 1})")
        err = S.tma_smem_align_error(int(dst[j]) + SHARED_WINDOW_BASE, spec.mode)
        if err:
            raise MisalignedAccessError(f"{ex.where(op)}: {ex.actor(int(a))}: {err}")
        data = S.tma_box_bytes(tmap.array, tuple(int(c[j]) for c in coords), spec.box, spec.mode)
        for r in range(size):
            if not mask >> r & 1:
                continue
            dest = _peer_block(ex, op, b, r, int(a))
            da = dest * ex.threads + int(a) % ex.threads  # the destination's thread of the issuer's number
            idx = st.smem.flat_index(opid, np.array([da]), dst[j:j + 1], n, what="TMA multicast write")[0]
            for bar in st.bar_list:  # the box must not overwrite a live mbarrier
                lo = bar.block * st.smem.size + bar.addr
                if bar.block == dest and idx[0] <= lo < idx[-1] + 1:
                    raise OutOfBoundsError(f"{ex.where(op)}: {ex.actor(int(a))}: the TMA multicast box [{int(dst[j])}, "
                                           f"{int(dst[j]) + n}) overwrites {bar.where(ex)}")
            fa = np.full(n, da, np.int64)
            if st.smem.track:
                st.smem._check_write(opid, idx, fa)
                st.check_not_read_async(opid, idx, fa, "writes (TMA multicast)")
            st.smem.inflight[idx] = True
            st.smem.fl_actor[idx] = da
            st.smem.fl_op[idx] = opid
            st.gen_writer[idx] = -1
            bar = st.barrier(opid, dest, int(addrs[j]), int(a))
            bar.copies.append((opid, da, idx, data))
            st.complete_tx(opid, bar, n)
            _remote(ex, op, b, dest, int(a))
    return []


@handler(lass_cluster.MbarrierArriveRemoteOp)
def _arrive_remote(ex: Executor, op, vals):
    st = _state(ex)
    lanes = ex.active_lanes()
    actors, blocks, addrs = st.lane_bars(op, lanes, vals[0], "remote arrive")
    ranks = np.asarray(ex.at(vals[1], lanes), np.int64)
    opid = ex.prog.opid[op]
    for a, b, addr, r in zip(actors, blocks, addrs, ranks):
        dest = _peer_block(ex, op, int(b), int(r), int(a))
        _remote(ex, op, int(b), dest, int(a))
        st.arrive(opid, st.barrier(opid, dest, int(addr), int(a)), int(a))
    return []


def check_exit(ex: Executor) -> None:
    """EXIT_HOOKS entry: a clustered kernel's CTAs end with no remote write unsynchronised and no
    TMA copy outstanding."""
    pend = ex.__dict__.get("_cluster_pending")
    if pend:
        (src, dest), opid = next(iter(pend.items()))
        if isinstance(ex.prog.ops[opid], lass_cluster.LdSharedRemoteOp):
            raise ClusterError(f"{ex.op(opid)}: {ex.block(src)} reads the shared memory of {ex.block(dest)} of its "
                               f"cluster (DSMEM) and no lass_cluster.sync (barrier.cluster arrive / wait) follows before "
                               f"the kernel ends: {ex.block(dest)} may exit while the read is still under way")
        raise ClusterError(f"{ex.op(opid)}: {ex.block(src)} writes the shared memory of {ex.block(dest)} of its cluster "
                           f"(a multicast or remote arrival) and no lass_cluster.sync (barrier.cluster arrive / wait) "
                           f"follows before the kernel ends: {ex.block(dest)} may exit while the write can still land")
    st = ex.__dict__.get("_sm90")
    if st is not None and cluster_size(ex) > 1:
        st.finish()


EXIT_HOOKS.append(check_exit)


# ---- cluster split-K (lasscc.cluster_splitk) ------------------------------------------------------

@handler(lass_cluster.LdSharedRemoteOp)
def _ld_shared_remote(ex: Executor, op, vals):
    """DSMEM: each active lane whose predicate holds reads 16 bytes at its address of rank `rank`'s
    shared memory.  The read goes through the shared-memory checker with the reader as actor, so
    a partial the peer wrote with no cluster barrier since (lass_cluster.sync clears its writers)
    is a RaceError; the peer may not exit before a later barrier (check_exit)."""
    st = ex.smem
    lanes = ex.active_lanes()
    preds = np.asarray(ex.at(vals[2], lanes), bool)
    out = [np.zeros(ex.L, np.int64) for _ in range(4)]
    on = lanes[preds]
    if len(on):
        addr = np.asarray(ex.at(vals[0], on), np.int64)
        ranks = np.asarray(ex.at(vals[1], on), np.int64)
        actors = on  # the lane's global thread number in the slice (block * threads + tid)
        b_local = actors // ex.threads
        dest = np.array([_peer_block(ex, op, int(b), int(r), int(a)) for b, r, a in zip(b_local, ranks, actors)],
                        np.int64)
        bad = addr % 16 != 0
        if bad.any():
            j = int(np.argmax(bad))
            raise MisalignedAccessError(f"{ex.where(op)}: {ex.actor(int(actors[j]))} reads 16 bytes of distributed "
                                        f"shared memory at byte {int(addr[j])}, which is not 16-byte aligned")
        # the peer's bytes, named in the peer's block: flat_index by a thread of the destination block
        idx = st.flat_index(ex.prog.opid[op], dest * ex.threads, addr, 16, what="DSMEM read")
        data = st.read(ex.prog.opid[op], actors, idx).view(np.int32).reshape(len(on), 4)
        for w in range(4):
            out[w][on] = data[:, w]
        for b, d, a in zip(b_local, dest, actors):
            _read_remote(ex, op, int(b), int(d))
    return [wrap(o, 32) for o in out]


def _read_remote(ex: Executor, op, src: int, dest: int) -> None:
    """Block `src` read block `dest`'s shared memory: a cluster barrier must follow before either exits."""
    if src != dest:
        _pending(ex)[(src, dest)] = ex.prog.opid[op]


@handler(lass_tb.ClusterReduceOp)
def _cluster_reduce(ex: Executor, op, vals):
    """Tile level: each CTA's column window gets the sum of its cluster's accumulators in rank
    order (f32; i32 wrapping; an f16 accumulator rounded once), the rest its own accumulator."""
    if ex.prog.simt:
        raise InterpError(f"{ex.where(op)}: '{op.name}' works on whole threadblock tiles; lasscc-warpgroup-mma must "
                          f"lower it")
    acc = vals[0]
    s = int(op.split.value.data)
    if ex.mask is not None and not ex.mask.all():
        raise DivergenceError(f"{ex.where(op)}: only some CTAs of a cluster reach the cluster reduction (its barriers "
                              f"need every CTA of the cluster)")
    if cluster_size(ex) != s:
        raise ClusterError(f"{ex.where(op)}: split = {s}, but the kernel's clusters hold {cluster_size(ex)} CTA(s)")
    bn = acc.shape[2]
    rank = ex.block_ids % s
    base = np.arange(ex.L) - rank
    if base.min() < 0 or base.max() + s > ex.L:
        raise InterpError(f"{ex.where(op)}: a cluster of {s} CTAs is not run within one slice")
    wide = acc.astype(np.int64 if acc.dtype.kind == "i" else np.float32)
    total = wide[base]
    for p in range(1, s):
        total = total + wide[base + p]
    if acc.dtype.kind == "i":
        total = wrap(total, 32).astype(acc.dtype)
    mine = (np.arange(bn)[None, None, :] // CS.window(bn, s)) == rank[:, None, None]
    return [np.where(mine, total.astype(acc.dtype), acc)]
