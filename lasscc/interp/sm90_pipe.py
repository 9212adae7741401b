"""CPU semantics of the TMA ring (`lass_pipe.tma_pipeline` and its verbs) and of `lass_wg`.

Barriers (one `TmaRing` per `lass_pipe.tma_pipeline`, per block of the batch): a full and an empty
barrier per slot, each with the number of completed phases, the arrivals still expected in the
current phase and (full) the transaction bytes still expected.  A wait on parity P succeeds when
the completed phases are of the other parity (the current, incomplete phase has parity != P: the
PTX ISA's try_wait.parity), so a slot's first producer_acquire (phase 0, waiting on parity 1)
passes at once.  The executor runs the threads of a block in lockstep and the TMA completes at
issue, so a wait that does not succeed when it is executed never will: a DeadlockError naming the
op, the slot and what the phase still misses.

TMA: `tma_load` needs the slot announced by this phase's producer_acquire (else the bytes would
complete no announced transaction); it gathers the tile (zeros outside the matrix) into the slot's
logical (unswizzled, lass_pipe) layout, the bytes in flight (an AsyncHazardError for any access)
until the full barrier's phase completes, then written as the producer thread's.  The acquire
orders the TMA after the consumers' releases (the slot's readers are forgotten); consumer_wait
makes the landed bytes visible to the waiting threads (their writer is forgotten).  Too many
arrivals in a phase (a second producer arrival, a thread releasing twice) and more TMA bytes than
announced are errors, and so is a release by a thread that has not waited for the slot's latest fill (or
while its TMA is in flight): the consumer would release a stage the producer is still filling.

lass_wg (per-thread code, warpgroups of 128 lanes, all 128 active or none): `mma` reads A rows
row .. row + 63 and all B rows of the slots at k .. k + K through shared memory (checked like any
read), gathers the warpgroup's accumulator by sm90_layout.acc_coords, computes in the numerics of
lasscc.interp.mma_math (f32 operands truncated to tf32, as wgmma reads them) and scatters the
result back.  Its reads stay "in flight" with its group
(`commit` closes a group, `wait {pending}` retires all but the newest `pending`): releasing a slot
that an unretired group reads is an AsyncHazardError.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from lasscc import sm90_layout as S90
from lasscc.dialects import lass_pipe, lass_wg
from lasscc.interp import mma_math as MM
from lasscc.interp.errors import AsyncHazardError, DeadlockError, DivergenceError, InterpError
from lasscc.interp.executor import Executor, handler
from lasscc.interp.lass_ops import _buffer, _check_elem, _gather_2d, _opid, _ring_dtype, _slot_base


@dataclass
class TmaRing:
    """Barrier state of one lass_pipe.tma_pipeline for the blocks of a batch."""

    stages: int
    arrivals: int  # expected arrivals on an empty barrier per phase
    nb: int
    threads: int
    full_done: np.ndarray = None  # [nb, S] completed phases
    full_pending: np.ndarray = None  # [nb, S] arrivals still expected (of 1)
    full_tx: np.ndarray = None  # [nb, S] announced minus delivered bytes
    empty_done: np.ndarray = None
    empty_pending: np.ndarray = None
    empty_arrived: np.ndarray = None  # [nb, S, threads]
    acquired: np.ndarray = None  # [nb, S] this phase's producer_acquire happened
    waited: np.ndarray = None  # [nb, S, threads] full phases each thread's consumer_wait observed
    copies: dict = field(default_factory=dict)  # (b, s) -> [(opid, actors, idx, data)]
    landed: dict = field(default_factory=dict)  # (b, s) -> flat byte indices of the last landing

    def __post_init__(self):
        shp = (self.nb, self.stages)
        self.full_done, self.empty_done = np.zeros(shp, np.int64), np.zeros(shp, np.int64)
        self.full_pending = np.ones(shp, np.int64)
        self.full_tx = np.zeros(shp, np.int64)
        self.empty_pending = np.full(shp, self.arrivals, np.int64)
        self.empty_arrived = np.zeros(shp + (self.threads,), bool)
        self.acquired = np.zeros(shp, bool)
        self.waited = np.zeros(shp + (self.threads,), np.int64)


def _blocks(ex: Executor, lanes):
    return np.asarray(lanes, np.int64) // ex.tpl


def _producer_actor(ex: Executor, lane: int) -> int:
    """The thread doing a producer op: the lane itself in per-thread code, thread 0 of the block at
    the block level."""
    return int(lane) if ex.prog.simt else int(lane) * ex.threads


def _slot_of(ex, op, ring: TmaRing, s: int) -> int:
    if not 0 <= s < ring.stages:
        raise InterpError(f"{ex.where(op)}: slot {s} of a {ring.stages}-stage TMA ring")
    return s


def _pred_lanes(ex: Executor, pred):
    lanes = ex.active_lanes()
    if pred is None:
        return lanes
    return lanes[np.asarray(ex.at(pred, lanes), bool)]


def _complete_full(ex: Executor, op, ring: TmaRing, b: int, s: int) -> None:
    if ring.full_tx[b, s] < 0:
        raise InterpError(f"{ex.where(op)}: the TMA delivered {-ring.full_tx[b, s]} more bytes to slot {s} of "
                          f"{ex.block(b)} than its producer_acquire announced (tx)")
    if ring.full_pending[b, s] or ring.full_tx[b, s]:
        return
    landed = []
    for opid, actors, idx, data in ring.copies.pop((b, s), []):
        ex.smem.inflight[idx.reshape(-1)] = False
        ex.smem.write(opid, actors, idx, data, _retiring=True)
        landed.append(idx.reshape(-1))
    ring.landed[(b, s)] = np.concatenate(landed) if landed else np.zeros(0, np.int64)
    ring.full_done[b, s] += 1
    ring.full_pending[b, s] = 1
    ring.acquired[b, s] = False


@handler(lass_pipe.TmaPipelineOp)
def _tma_pipeline(ex: Executor, op, vals):
    S = op.result.type.count
    off = int(op.offset.value.data)
    end = off + 2 * S * 8
    if end > ex.smem.size:
        raise InterpError(f"{ex.where(op)}: the {2 * S} barriers at byte {off} end at {end}, past the "
                          f"{ex.smem.size} bytes of dynamic shared memory")
    return [TmaRing(S, int(op.arrivals.value.data), ex.nb, ex.threads)]


@handler(lass_pipe.ProducerAcquireOp)
def _producer_acquire(ex: Executor, op, vals):
    ring, slot, phase, pred = vals
    tx = int(op.tx.value.data)
    for lane in _pred_lanes(ex, pred):
        b = int(lane) // ex.tpl
        s = _slot_of(ex, op, ring, int(ex.at(slot, [lane])[0]))
        p = int(ex.at(phase, [lane])[0]) & 1
        if ring.empty_done[b, s] % 2 == (p ^ 1):
            raise DeadlockError(
                f"{ex.where(op)}: {ex.actor(_producer_actor(ex, lane))} waits for slot {s} to be released "
                f"(empty barrier, parity {p ^ 1}), which never happens: {ring.empty_pending[b, s]} of "
                f"{ring.arrivals} consumer arrivals are missing (consumer_release)")
        ring.full_pending[b, s] -= 1
        if ring.full_pending[b, s] < 0:
            raise InterpError(f"{ex.where(op)}: a second producer arrival on the full barrier of slot {s} of "
                              f"{ex.block(b)} in one phase (it expects one: the producer is one thread)")
        ring.full_tx[b, s] += tx
        ring.acquired[b, s] = True
        _complete_full(ex, op, ring, b, s)
    return []


@handler(lass_pipe.TmaLoadOp)
def _tma_load(ex: Executor, op, vals):
    src, row0, k0, rinfo, slot, ring, pred = vals
    src = _buffer(ex, op, src, op.operand.data, f"operand {op.operand.data}")
    _check_elem(ex, op, src, rinfo)
    opid = _opid(ex, op)
    r, k = np.meshgrid(np.arange(rinfo.rows), np.arange(rinfo.bk), indexing="ij")
    rel = rinfo.offsets(r, k).reshape(-1)
    eb = rinfo.esize
    for lane in _pred_lanes(ex, pred):
        b = int(lane) // ex.tpl
        s = _slot_of(ex, op, ring, int(ex.at(slot, [lane])[0]))
        actor = _producer_actor(ex, lane)
        if not ring.acquired[b, s]:
            raise InterpError(f"{ex.where(op)}: {ex.actor(actor)} loads slot {s} by TMA without a producer_acquire "
                              f"of this phase (no transaction bytes announced on its full barrier)")
        r0, kk0 = int(ex.at(row0, [lane])[0]), int(ex.at(k0, [lane])[0])
        tile = _gather_2d(src, r0 + r, kk0 + k)
        base = int(_slot_base(ex, op, rinfo, [s], [actor])[0])
        actors = np.full(rel.size, actor, np.int64)
        idx = ex.smem.flat_index(opid, actors, base + rel, eb, align=eb, what="TMA write")
        fi = idx.reshape(-1)
        if ex.smem.inflight[fi].any():
            j = fi[int(np.argmax(ex.smem.inflight[fi]))]
            raise AsyncHazardError(f"{ex.where(op)}: TMA into {ex.smem._byte_desc(j)} while "
                                   f"{ex.op(int(ex.smem.fl_op[j]))} is still copying into it")
        if ex.smem.track:  # ordered after every release of the slot by the acquire
            ex.smem.rd_actor[fi] = -1
            ex.smem.rd_multi[fi] = False
            ex.smem.lw_actor[fi] = -1
        ex.smem.inflight[fi] = True
        ex.smem.fl_actor[fi] = actor
        ex.smem.fl_op[fi] = opid
        data = np.ascontiguousarray(tile.reshape(-1)).view(np.uint8).reshape(-1, eb)
        ring.copies.setdefault((b, s), []).append((opid, actors, idx, data))
        ring.full_tx[b, s] -= rinfo.tile_bytes
        _complete_full(ex, op, ring, b, s)
    return []


@handler(lass_pipe.ConsumerWaitOp)
def _consumer_wait(ex: Executor, op, vals):
    ring, slot, phase = vals
    lanes = ex.active_lanes()
    blocks = _blocks(ex, lanes)
    for b in np.unique(blocks):
        lane = lanes[np.argmax(blocks == b)]
        s = _slot_of(ex, op, ring, int(ex.at(slot, [lane])[0]))
        p = int(ex.at(phase, [lane])[0]) & 1
        if ring.full_done[b, s] % 2 == p:
            raise DeadlockError(
                f"{ex.where(op)}: {ex.block(b)} waits for the TMA bytes of slot {s} (full barrier, phase parity "
                f"{p}), which never arrive: {ring.full_pending[b, s]} producer arrival(s) and "
                f"{max(int(ring.full_tx[b, s]), 0)} announced bytes outstanding")
        if ex.smem.track:
            ex.smem.lw_actor[ring.landed.get((int(b), s), np.zeros(0, np.int64))] = -1
        mine = lanes[blocks == b] % ex.threads if ex.prog.simt else np.arange(ex.threads)
        ring.waited[b, s, mine] = ring.full_done[b, s]
    return []


def _wg_state(ex: Executor) -> dict:
    return ex.__dict__.setdefault("_wg_groups", {})


@handler(lass_pipe.ConsumerReleaseOp)
def _consumer_release(ex: Executor, op, vals):
    ring, slot, pred = vals
    lanes = _pred_lanes(ex, pred)
    groups = _wg_state(ex)
    for b in np.unique(_blocks(ex, lanes)):
        mine = lanes[_blocks(ex, lanes) == b]
        s = _slot_of(ex, op, ring, int(ex.at(slot, mine[:1])[0]))
        threads = mine % ex.threads if ex.prog.simt else np.arange(ex.threads)
        if ex.prog.simt:
            for g in np.unique(mine // lass_wg.WARPGROUP_THREADS):
                st = groups.get(int(g))
                if st and any(s in grp for grp in st["committed"] + [st["open"]]):
                    raise AsyncHazardError(
                        f"{ex.where(op)}: {ex.actor(int(g) * lass_wg.WARPGROUP_THREADS)}'s warpgroup releases slot "
                        f"{s} while a wgmma group reading it is still in flight (no lass_wg.wait retired it)")
        unseen = ring.acquired[b, s] | (ring.waited[b, s, threads] != ring.full_done[b, s]).any()
        if unseen:
            t = int(threads[np.argmax(ring.waited[b, s, threads] != ring.full_done[b, s])])
            raise AsyncHazardError(
                f"{ex.where(op)}: thread {t} of {ex.block(b)} releases slot {s}, which the producer is still filling: "
                f"{'its TMA is in flight' if ring.acquired[b, s] else 'the thread never waited for its last fill'} "
                f"(full barrier phase {int(ring.full_done[b, s])}; its consumer_wait saw phase "
                f"{int(ring.waited[b, s, t])}): the producer may overwrite a stage nobody consumed")
        if ring.empty_arrived[b, s, threads].any():
            t = int(threads[np.argmax(ring.empty_arrived[b, s, threads])])
            raise InterpError(f"{ex.where(op)}: thread {t} of {ex.block(b)} releases slot {s} twice in one phase")
        ring.empty_arrived[b, s, threads] = True
        ring.empty_pending[b, s] -= len(threads)
        if ring.empty_pending[b, s] == 0:
            ring.empty_done[b, s] += 1
            ring.empty_pending[b, s] = ring.arrivals
            ring.empty_arrived[b, s] = False
    return []


# ---- lass_wg ------------------------------------------------------------------------------------
def _warpgroups(ex: Executor, op) -> np.ndarray:
    """Indices (lane // 128) of the active warpgroups; DivergenceError for a partial one."""
    W = lass_wg.WARPGROUP_THREADS
    if ex.L % W:
        raise InterpError(f"{ex.where(op)}: a block of {ex.tpl} threads is no whole number of warpgroups")
    if ex.mask is None:
        return np.arange(ex.L // W)
    m = ex.mask.reshape(-1, W)
    split = m.any(1) & ~m.all(1)
    if split.any():
        g = int(np.argmax(split))
        raise DivergenceError(f"{ex.where(op)}: only {int(m[g].sum())} of the {W} threads of warpgroup "
                              f"{g % (ex.tpl // W)} of {ex.block(g * W // ex.tpl)} reach this warpgroup op")
    return np.nonzero(m.all(1))[0]


def _group_uniform(ex, op, v, groups, what: str) -> np.ndarray:
    W = lass_wg.WARPGROUP_THREADS
    vv = ex.lanes_of(v).reshape(-1, W)[groups]
    bad = (vv != vv[:, :1]).any(1)
    if bad.any():
        raise InterpError(f"{ex.where(op)}: expected {what} to be the same for the 128 threads of a warpgroup")
    return vv[:, 0].astype(np.int64)


def _read_slot_rows(ex, op, rinfo, slots, rows0, nrows: int, k0: int, kk: int, groups):
    """[G, nrows, kk] elements (r0 + i, k0 + j) of the slots, read by each warpgroup's threads."""
    W = lass_wg.WARPGROUP_THREADS
    opid = _opid(ex, op)
    r, k = np.meshgrid(np.arange(nrows), np.arange(k0, k0 + kk), indexing="ij")
    if (rows0 + nrows > rinfo.rows).any() or (rows0 < 0).any():
        raise InterpError(f"{ex.where(op)}: rows {int(rows0.max())} .. +{nrows} outside the {rinfo.rows}-row slot")
    eb = rinfo.esize
    out = []
    for g, s, r0 in zip(groups, slots, rows0):
        base = int(_slot_base(ex, op, rinfo, [int(s)], [int(g) * W])[0])
        addr = base + rinfo.offsets(r0 + r, k).reshape(-1)
        actors = int(g) * W + np.arange(addr.size) % W  # the group's threads share the read
        idx = ex.smem.flat_index(opid, actors, addr, eb, align=eb, what="wgmma operand read")
        out.append(ex.smem.read(opid, actors, idx).reshape(-1).view(_ring_dtype(rinfo)).reshape(nrows, kk))
    return np.stack(out)


@handler(lass_wg.MmaOp)
def _wg_mma(ex: Executor, op, vals):
    ra, sa, row, rb, sb, *c = vals
    W = lass_wg.WARPGROUP_THREADS
    groups = _warpgroups(ex, op)
    if len(groups) == 0:
        return list(c)
    slots_a = _group_uniform(ex, op, sa, groups, "the A slot")
    slots_b = _group_uniform(ex, op, sb, groups, "the B slot")
    rows0 = _group_uniform(ex, op, row, groups, "the A row")
    k0, kk, n = int(op.k.value.data), op.k_elems, op.n
    a = _read_slot_rows(ex, op, ra, slots_a, rows0, S90.WGMMA_M, k0, kk, groups)
    b = _read_slot_rows(ex, op, rb, slots_b, np.zeros_like(slots_b) + op.b_row, n, k0, kk, groups)
    acc_dt = MM.acc_dtype({"f32": "f32", "f16": "f16", "i32": "i32"}[str(op.c[0].type)])
    vals_arr = np.stack([np.asarray(ex.lanes_of(x)).astype(acc_dt) for x in c], axis=1)  # [L, nv]
    R, C = S90.acc_coords(n)
    per = vals_arr.reshape(-1, W, len(c))
    cg = np.zeros((len(groups), S90.WGMMA_M, n), acc_dt)
    cg[:, R, C] = per[groups]
    d = MM.mma(a, b, cg, tf32_round=MM.tf32_trunc)  # wgmma reads f32 operands as tf32: low bits dropped
    per = per.copy()
    per[groups] = d[:, R, C]
    st = _wg_state(ex)
    for g, s1, s2 in zip(groups, slots_a, slots_b):
        grp = st.setdefault(int(g), {"open": set(), "committed": []})
        grp["open"] |= {int(s1), int(s2)}
    out = per.reshape(-1, len(c))
    return [np.ascontiguousarray(out[:, i]) for i in range(len(c))]


@handler(lass_wg.FenceOp)
def _wg_fence(ex: Executor, op, vals):
    _warpgroups(ex, op)
    return []


@handler(lass_wg.CommitOp)
def _wg_commit(ex: Executor, op, vals):
    st = _wg_state(ex)
    for g in _warpgroups(ex, op):
        grp = st.setdefault(int(g), {"open": set(), "committed": []})
        grp["committed"].append(grp["open"])
        grp["open"] = set()
    return []


@handler(lass_wg.WaitOp)
def _wg_wait(ex: Executor, op, vals):
    n = int(op.pending.value.data)
    st = _wg_state(ex)
    for g in _warpgroups(ex, op):
        grp = st.get(int(g))
        if grp is not None:
            grp["committed"] = grp["committed"][-n:] if n else []
    return []
