"""CPU semantics of the sm_90a ops of `lass_nv` (TMA, mbarrier, wgmma; dialects/lass_nv.py) and
the entry point for kernels that use them, `execute_sm90`.

The model (per block of the batch, all threads in lockstep as in the rest of the executor):

  * shared addresses: dynamic shared-memory byte x has .shared window address
    SHARED_WINDOW_BASE + x (`lass_nv.shared_address`); wgmma descriptors hold window addresses.
  * mbarrier (`MBarrier`, keyed by block and byte): expected arrivals, pending arrivals, tx-count
    and the current phase.  arrive / arrive.expect_tx / the TMA's complete_tx update it; a phase
    completes when no arrivals are pending and the tx-count is 0.  Errors (MbarrierError): an
    arrival when none is pending, a tx-count below 0 once the arrivals are in (more bytes than
    expect_tx announced), a phase completing while the previous completion was never observed by
    a wait (parity waits cannot tell phases k and k+2 apart), use before mbarrier_init.
  * TMA (`tma_load_2d`, `tma_load_3d` of a batched map: the box of one matrix, zeros outside
    the batch): the box's bytes (sm90_layout.tma_box_bytes: swizzled, zero-filled out
    of bounds) are computed at issue, the destination marked in flight (any access is an
    AsyncHazardError naming the copy), and the copy completes its bytes on the barrier at once
    (the earliest schedule).  The bytes land only when the barrier's phase completes; a thread may
    read them only after a wait on the barrier has observed that phase (else AsyncHazardError).
  * try_wait.parity (`mbarrier_wait_parity`): succeeds when the current phase's parity differs
    from `parity`.  Since every copy completes at issue and the threads run in lockstep, a wait
    that does not succeed when reached can never succeed: DeadlockError naming the wait and the
    ops that last touched the barrier.
  * wgmma: issued by whole warpgroups (128 threads); needs a wgmma.fence since the last
    wgmma.wait_group (the accumulators were accessible in between); reads A and B through their
    descriptors (sm90_layout.read_operand: core matrices, LBO / SBO, swizzle), each byte checked as
    a read of the warpgroup (uninitialised, in flight, TMA bytes not waited for, generic writes
    without fence.proxy.async), computes in lasscc.interp.mma_math's numerics, and writes the
    accumulators of all 128 threads per sm90_layout.acc_coord.  The results are `PendingValue`s
    until a wgmma.wait_group retires their group: any other use is an AsyncHazardError naming the
    reading op (another wgmma may chain them).  Until then the operand bytes count as being read:
    a write to them (TMA or generic) is an AsyncHazardError.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import MemRefType

from lasscc import sm90_layout as S
from lasscc.dialects import lass_nv
from lasscc.interp import mma_math as MM
from lasscc.interp.bf16 import BF16
from lasscc.interp.errors import (
    AsyncHazardError,
    DeadlockError,
    DivergenceError,
    InFlightRead,
    InterpError,
    KernelArgumentError,
    MbarrierError,
    MisalignedAccessError,
    OutOfBoundsError,
)
from lasscc.interp.executor import SMEM_HOOKS, ExecResult, Executor, Launch, Program, _as_module, find_kernel, handler
from lasscc.interp.values import GlobalBuffer, float_codec, int_width, is_lanes, numpy_dtype, wrap

# The executor's .shared window address of dynamic shared-memory byte 0: not 0, so a descriptor
# built from a byte offset instead of `lass_nv.shared_address` reads the wrong bytes, and a
# multiple of the 1024-byte 128B-swizzle pattern, as the emitted kernels' shared memory is
# (lower_to_llvm.SM90_SMEM_ALIGN), so the swizzle of window and offset addresses agree.
SHARED_WINDOW_BASE = 1024
WG = lass_nv.WARPGROUP_THREADS
# numpy storage of wgmma operand elements (bf16 as uint16 bit patterns, lasscc.interp.bf16)
OPERAND_DTYPES = {"f16": np.dtype(np.float16), "bf16": BF16, "tf32": np.dtype(np.float32), "s8": np.dtype(np.int8)}


# ---- asynchronous values ---------------------------------------------------------------------------
def _in_flight(self, *args, **kwargs):
    raise InFlightRead(self.describe())


class PendingValue:
    """A wgmma result (per-lane array `value`) before the wgmma.wait_group that retires group
    `group`: every use but a wgmma accumulator operand raises InFlightRead."""

    __slots__ = ("value", "group", "opid", "ex")

    def __init__(self, value, group: int, opid: int, ex):
        self.value, self.group, self.opid, self.ex = value, group, opid, ex

    def describe(self) -> str:
        return (f"an accumulator of {self.ex.op(self.opid)} before a wgmma.wait_group retired its group "
                f"(wgmma results are undefined until then)")


for _name in ("__array__", "__array_ufunc__", "__array_function__", "__bool__", "__int__", "__float__", "__index__",
              "__len__", "__iter__", "__getitem__", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
              "__truediv__", "__and__", "__or__", "__xor__", "__neg__", "__lt__", "__le__", "__gt__", "__ge__"):
    setattr(PendingValue, _name, _in_flight)


# ---- per-batch state ------------------------------------------------------------------------------
@dataclass
class MBarrier:
    """One mbarrier object (PTX ISA 9.7.13.15.1): block `block` (local), shared byte `addr`."""

    block: int
    addr: int
    count: int
    init_op: int
    pending: int = 0
    tx: int = 0
    phase: int = 0  # the current (incomplete) phase
    unobserved: bool = False  # the last completed phase has not been observed by a wait
    copies: list = field(default_factory=list)  # (opid, actor, flat idx, bytes) landing at phase completion
    touched: list = field(default_factory=list)  # the last ops that arrived / completed bytes (for messages)
    seen: np.ndarray | None = None  # per thread: phases observed complete by its waits
    arrivers: list = field(default_factory=list)  # actors that arrived in the current phase
    released: np.ndarray | None = None  # the arrivers of the last completed phase (release / acquire)

    def where(self, ex) -> str:
        return f"the mbarrier at shared byte {self.addr} of {ex.block(self.block)}"

    def state(self) -> str:
        return (f"phase {self.phase} (parity {self.phase & 1}) has {self.pending} of {self.count} arrivals pending "
                f"and a tx-count of {self.tx} bytes")


class Sm90State:
    """The sm_90a state of one Executor (one batch of blocks): mbarriers, TMA landing marks,
    generic-proxy writes awaiting a proxy fence, wgmma groups.  Installed as the SharedMemory's
    guard, so generic accesses are checked against TMA bytes not waited for."""

    def __init__(self, ex: Executor, smem):
        self.ex = ex
        self.smem = smem
        n = smem.data.size
        self.bars: dict[tuple[int, int], MBarrier] = {}
        self.bar_list: list[MBarrier] = []
        self.landed_bar = np.full(n, -1, np.int32)  # index into bar_list of the barrier whose phase landed the byte
        self.landed_phase = np.full(n, -1, np.int64)
        self.landed_op = np.full(n, -1, np.int32)
        self.gen_writer = np.full(n, -1, np.int64)  # actor whose generic write awaits fence.proxy.async
        self.gen_op = np.full(n, -1, np.int32)
        self.reading_group = np.full(n, -1, np.int64)  # newest wgmma group reading the byte (async proxy)
        self.reading_op = np.full(n, -1, np.int32)
        self.commits = 0  # committed wgmma groups (warpgroups run in lockstep)
        self.retired = 0  # groups below this are retired
        self.fenced = False  # a wgmma.fence since the last wgmma.wait_group
        self.store_reads = None  # the TMA stores' sources still read (interp/tma_store_ops.BulkStores)
        smem.guard = self

    # -- guard hooks (SharedMemory) --
    def on_read(self, opid, fi, fa):
        self.check_landed(opid, fi, fa)

    def on_write(self, opid, fi, fa, retiring):
        self.check_not_read_async(opid, fi, fa, "writes")
        if self.store_reads is not None:
            self.store_reads.check_write(opid, fi, fa)
        self.landed_bar[fi] = -1
        if not retiring:
            self.gen_writer[fi] = fa
            self.gen_op[fi] = opid

    # -- checks --
    def check_landed(self, opid, fi, fa, group=None):
        """Bytes a TMA landed may be read by a thread only after it waited for that phase: fi [n]
        flat bytes read by actors fa [n], or (`group`: actor array) by every actor of `group`."""
        lb = self.landed_bar[fi]
        have = lb >= 0
        if not have.any():
            return
        ex = self.ex
        for bi in np.unique(lb[have]):
            bar = self.bar_list[int(bi)]
            sel = np.nonzero(lb == bi)[0]
            if group is not None:  # the thread of the group that has observed the fewest phases
                worst = group[int(np.argmin(bar.seen[group % ex.threads]))]
                actors = np.full(sel.size, worst, np.int64)
            else:
                actors = fa[sel]
            bad = bar.seen[actors % ex.threads] <= self.landed_phase[fi[sel]]
            if bad.any():
                j = int(np.argmax(bad))
                f = int(fi[sel[j]])
                raise AsyncHazardError(
                    f"{ex.op(opid)}: {ex.actor(int(actors[j]))} reads {self.smem._byte_desc(f)}, which "
                    f"{ex.op(int(self.landed_op[f]))} wrote (async proxy) in phase {int(self.landed_phase[f])} of "
                    f"{bar.where(ex)}, but that thread has not waited for the phase (no mbarrier_wait_parity "
                    f"observed it): the bytes may not be there yet")

    def check_not_read_async(self, opid, fi, fa, what: str):
        rg = self.reading_group[fi]
        busy = rg >= self.retired
        if busy.any():
            j = int(np.argmax(busy))
            f = int(fi[j])
            ex = self.ex
            raise AsyncHazardError(
                f"{ex.op(opid)}: {ex.actor(int(fa[j]))} {what} {self.smem._byte_desc(f)} while "
                f"{ex.op(int(self.reading_op[f]))} may still be reading it (its wgmma group is not retired by a "
                f"wgmma.wait_group)")

    def check_fenced(self, opid, fi, who: str):
        gw = self.gen_writer[fi]
        bad = gw >= 0
        if bad.any():
            j = int(np.argmax(bad))
            f = int(fi[j])
            ex = self.ex
            raise AsyncHazardError(
                f"{ex.op(opid)}: {who} reads {self.smem._byte_desc(f)} through the async proxy, but "
                f"{ex.op(int(self.gen_op[f]))} by {ex.actor(int(gw[j]))} wrote it through the generic proxy with no "
                f"fence.proxy.async (lass_nv.fence_proxy_async) since")

    # -- mbarriers --
    def barrier(self, opid, b: int, addr: int, actor: int) -> MBarrier:
        bar = self.bars.get((b, addr))
        if bar is None:
            raise MbarrierError(
                f"{self.ex.op(opid)}: {self.ex.actor(actor)} uses the mbarrier at shared byte {addr} of "
                f"{self.ex.block(b)}, which no mbarrier_init initialised")
        return bar

    def arrive(self, opid, bar: MBarrier, actor: int):
        ex = self.ex
        if bar.pending == 0:
            raise MbarrierError(
                f"{ex.op(opid)}: {ex.actor(actor)} arrives on {bar.where(ex)} when no arrival is pending: too many "
                f"arrivals for its count {bar.count} ({bar.state()}; it was initialised by {ex.op(bar.init_op)})")
        bar.pending -= 1
        bar.arrivers.append(actor)
        self._touch(bar, opid)
        self.try_complete(opid, bar)

    def acquire(self, bar: MBarrier) -> None:
        """A wait observed `bar`'s last completed phase: the arrivals released the arriving threads'
        earlier shared-memory accesses to the waiters (mbarrier arrive is a release, the wait an
        acquire, at CTA scope: PTX ISA memory consistency model), so the accesses stamped with an
        arriving thread no longer race with the waiters' later ones (a consumer warpgroup's wgmma
        reads of a slot, then the producer's TMA into it after its wait on the slot's empty
        barrier).  The stamps are per byte, not per thread: the waiter's clearance serves all."""
        if bar.released is None or not bar.released.size or not self.smem.track:
            return
        sm = self.smem
        # the arrivers' own blocks too: a cluster peer's consumers release a slot remotely (interp/cluster.py)
        for blk in {bar.block, *(int(x) for x in np.unique(bar.released // self.ex.threads))}:
            sl = slice(blk * sm.size, (blk + 1) * sm.size)
            rd = np.isin(sm.rd_actor[sl], bar.released)
            if rd.any():
                sm.rd_actor[sl][rd] = -1
                sm.rd_multi[sl][rd] = False
            lw = np.isin(sm.lw_actor[sl], bar.released)
            if lw.any():
                sm.lw_actor[sl][lw] = -1

    def complete_tx(self, opid, bar: MBarrier, nbytes: int):
        bar.tx -= nbytes
        self._touch(bar, opid)
        self.try_complete(opid, bar)

    @staticmethod
    def _touch(bar: MBarrier, opid: int):
        if opid not in bar.touched:
            bar.touched = (bar.touched + [opid])[-4:]

    def try_complete(self, opid, bar: MBarrier):
        if bar.pending:
            return
        ex = self.ex
        if bar.tx < 0:
            raise MbarrierError(
                f"{ex.op(opid)}: tx-count underflow on {bar.where(ex)}: with all {bar.count} arrivals in, phase "
                f"{bar.phase} has {-bar.tx} more transaction bytes completed (TMA) than expected (arrive.expect_tx); "
                f"ops involved: {', '.join(ex.op(o) for o in bar.touched)}")
        if bar.tx > 0:
            return  # the phase waits for its copies' bytes
        if bar.unobserved:
            raise MbarrierError(
                f"{ex.op(opid)}: phase {bar.phase} of {bar.where(ex)} completes while no thread has waited for phase "
                f"{bar.phase - 1}: a parity wait cannot tell the two apart (too many arrivals or copies, or a missing "
                f"mbarrier_wait_parity)")
        for copy_op, actor, idx, data in bar.copies:  # the bytes land
            self.smem.inflight[idx] = False
            self.smem.write(copy_op, np.array([actor]), idx[None, :], data[None, :], _retiring=True)
            self.smem.lw_actor[idx] = -1  # the barrier orders them for its waiters (check_landed)
            self.landed_bar[idx] = self.bar_list.index(bar)
            self.landed_phase[idx] = bar.phase
            self.landed_op[idx] = copy_op
        bar.copies = []
        bar.released, bar.arrivers = np.array(bar.arrivers, np.int64), []
        bar.phase += 1
        bar.pending = bar.count
        bar.unobserved = True

    def lane_bars(self, op, lanes, addrs, what: str):
        """(lane, block, addr) of each active lane's mbarrier operand, alignment and bounds checked."""
        ex = self.ex
        addrs = np.asarray(ex.at(addrs, lanes), np.int64)
        actors = lanes  # per-thread code: lane = actor
        self.smem.flat_index(ex.prog.opid[op], actors, addrs, lass_nv.MBARRIER_BYTES,
                             lass_nv.MBARRIER_BYTES, f"mbarrier {what}")
        return actors, actors // ex.threads, addrs

    def finish(self):
        """Kernel end: copies that never landed, and TMA stores still reading, are errors."""
        ex = self.ex
        if self.store_reads is not None:
            self.store_reads.finish()
        for bar in self.bar_list:
            if bar.copies:
                raise MbarrierError(
                    f"{ex.op(bar.copies[0][0])}: its bytes never landed: the kernel ended with {bar.where(ex)} in "
                    f"{bar.state()}")


def _install(ex: Executor, smem) -> None:
    """SMEM_HOOKS entry: kernels with sm_90a ops get their state, and its guard on shared memory,
    from the executor's first shared-memory access on."""
    if ex.prog.__dict__.get("_has_sm90") is None:
        ex.prog.__dict__["_has_sm90"] = any(type(o) in SM90_OP_TYPES for o in ex.prog.ops)
    if ex.prog.__dict__["_has_sm90"]:
        ex.__dict__["_sm90"] = Sm90State(ex, smem)


SM90_OP_TYPES = frozenset(lass_nv.SM90_OPS)
SMEM_HOOKS.append(_install)


def _state(ex: Executor) -> Sm90State:
    ex.smem  # creates the shared memory and, through _install, the state
    return ex.__dict__["_sm90"]


def _opid(ex, op) -> int:
    return ex.prog.opid[op]


def _warpgroups(ex: Executor, op):
    """Indices (lane // 128) of the warpgroups executing a warpgroup-collective op; all 128
    threads of each must be active."""
    if ex.threads % WG:
        raise DivergenceError(f"{ex.where(op)}: a warpgroup op in a block of {ex.threads} threads (not a multiple of {WG})")
    G = ex.L // WG
    if ex.mask is None:
        return np.arange(G)
    m = ex.mask.reshape(G, WG)
    split = m.any(1) & ~m.all(1)
    if split.any():
        g = int(np.argmax(split))
        raise DivergenceError(
            f"{ex.where(op)}: only {int(m[g].sum())} of the {WG} threads of warpgroup {g % (ex.threads // WG)} of "
            f"{ex.block(g // (ex.threads // WG))} reach this warpgroup-collective op")
    return np.nonzero(m.all(1))[0]


def _per_warpgroup(ex: Executor, op, v, groups, what: str) -> list[int]:
    """A value that must be the same for the 128 threads of each warpgroup: one int per group."""
    if not is_lanes(v):
        return [int(v)] * len(groups)
    out = []
    for g in groups:
        vals = np.asarray(v[g * WG:(g + 1) * WG])
        if (vals != vals[0]).any():
            raise InterpError(f"{ex.where(op)}: {what} differs between the threads of a warpgroup")
        out.append(int(vals[0]))
    return out


# ---- handlers ---------------------------------------------------------------------------------------
@handler(lass_nv.SharedAddressOp)
def _shared_address(ex: Executor, op, vals):
    return [wrap(vals[0] + SHARED_WINDOW_BASE, 32)]


@handler(lass_nv.ElectSyncOp)
def _elect_sync(ex: Executor, op, vals):
    ex.full_warps(op)  # membermask 0xffffffff: the whole warp takes part
    return [(ex.thread_ids % 32) == 0]


@handler(lass_nv.MbarrierInitOp)
def _mbarrier_init(ex: Executor, op, vals):
    st = _state(ex)
    lanes = ex.active_lanes()
    actors, blocks, addrs = st.lane_bars(op, lanes, vals[0], "init")
    counts = np.asarray(ex.at(vals[1], lanes), np.int64)
    opid = _opid(ex, op)
    seen = set()
    for a, b, addr, c in zip(actors, blocks, addrs, counts):
        key = (int(b), int(addr))
        if key in seen:
            raise MbarrierError(f"{ex.where(op)}: several threads of {ex.block(b)} initialise the mbarrier at shared "
                                f"byte {addr} at once")
        seen.add(key)
        if not 1 <= c <= lass_nv.MBARRIER_COUNT_MAX:
            raise MbarrierError(f"{ex.where(op)}: expected an arrival count in 1..{lass_nv.MBARRIER_COUNT_MAX}, got {c}")
        old = st.bars.get(key)
        if old is not None and old.copies:
            raise MbarrierError(f"{ex.where(op)}: re-initialises {old.where(ex)} while TMA copies are still on it")
        idx = st.smem.flat_index(opid, np.array([a]), np.array([addr]), lass_nv.MBARRIER_BYTES)
        st.smem.write(opid, np.array([a]), idx, np.zeros((1, lass_nv.MBARRIER_BYTES), np.uint8))
        bar = MBarrier(int(b), int(addr), int(c), opid, pending=int(c), seen=np.zeros(ex.threads, np.int64))
        st.bars[key] = bar
        st.bar_list.append(bar)
    return []


def _arrivals(ex: Executor, op, vals, expect_tx: bool):
    st = _state(ex)
    lanes = ex.active_lanes()
    actors, blocks, addrs = st.lane_bars(op, lanes, vals[0], "arrive")
    tx = np.asarray(ex.at(vals[1], lanes), np.int64) if expect_tx else None
    opid = _opid(ex, op)
    for j, (a, b, addr) in enumerate(zip(actors, blocks, addrs)):
        bar = st.barrier(opid, int(b), int(addr), int(a))
        if expect_tx:
            t = int(tx[j])
            if not 0 <= t <= lass_nv.MBARRIER_TX_MAX or bar.tx + t > lass_nv.MBARRIER_TX_MAX:
                raise MbarrierError(f"{ex.where(op)}: tx-count of {bar.where(ex)} would leave 0..{lass_nv.MBARRIER_TX_MAX} "
                                    f"(expect_tx {t} on {bar.tx})")
            bar.tx += t
        st.arrive(opid, bar, int(a))
    return []


@handler(lass_nv.MbarrierArriveOp)
def _mbarrier_arrive(ex: Executor, op, vals):
    return _arrivals(ex, op, vals, False)


@handler(lass_nv.MbarrierArriveExpectTxOp)
def _mbarrier_arrive_expect_tx(ex: Executor, op, vals):
    return _arrivals(ex, op, vals, True)


@handler(lass_nv.MbarrierWaitParityOp)
def _mbarrier_wait_parity(ex: Executor, op, vals):
    st = _state(ex)
    lanes = ex.active_lanes()
    actors, blocks, addrs = st.lane_bars(op, lanes, vals[0], "wait")
    parity = np.asarray(ex.at(vals[1], lanes), np.int64)
    opid = _opid(ex, op)
    keys = {}
    for a, b, addr, p in zip(actors, blocks, addrs, parity):
        if p not in (0, 1):
            raise MbarrierError(f"{ex.where(op)}: expected a phase parity of 0 or 1, got {p}")
        keys.setdefault((int(b), int(addr), int(p)), []).append(int(a))
    for (b, addr, p), who in keys.items():
        bar = st.barrier(opid, b, addr, who[0])
        if (bar.phase & 1) == p:
            masked = (" (threads masked off by divergent control flow run after this branch in the executor's "
                      "lockstep schedule)") if ex.mask is not None else ""
            last = ", ".join(ex.op(o) for o in bar.touched) or "none"
            raise DeadlockError(
                f"{ex.where(op)}: deadlock: {len(who)} thread(s) of {ex.block(b)} wait for the phase of parity {p} of "
                f"the mbarrier at shared byte {addr}, which can never complete: its {bar.state()} and every TMA "
                f"copy has already completed its bytes{masked}; ops that last arrived on it or completed bytes: "
                f"{last}")
        if bar.phase >= 1 and ((bar.phase - 1) & 1) == p:  # observed the completion of phase - 1
            bar.seen[np.asarray(who) % ex.threads] = bar.phase
            bar.unobserved = False
            st.acquire(bar)
    return []


@handler(lass_nv.FenceProxyAsyncOp)
def _fence_proxy_async(ex: Executor, op, vals):
    st = _state(ex)
    lanes = ex.active_lanes()
    mine = np.isin(st.gen_writer, lanes)
    st.gen_writer[mine] = -1
    return []


@handler(lass_nv.FenceMbarrierInitOp)
def _fence_mbarrier_init(ex: Executor, op, vals):
    return []  # visibility of mbarrier_init: the executor's barriers are visible at once


def tma_operands(ex: Executor, op, vals, rank: int, what: str):
    """(tensor map, active lanes, per-lane coordinates) of a TMA op whose operands start with the map
    and `rank` coordinates (loads, multicast loads, stores); an argument that is no tensor map, or a
    map of another rank, is an InterpError (`what`: "TMA load of", "TMA store through")."""
    from lasscc.runtime.tma import HostTensorMap

    tmap = vals[0]
    if not isinstance(tmap, HostTensorMap):
        raise InterpError(f"{ex.where(op)}: expected a tensor-map kernel argument, got {type(tmap).__name__}")
    if tmap.spec.rank != rank:
        raise InterpError(f"{ex.where(op)}: a {rank}-d {what} a {tmap.spec.rank}-d tensor map")
    lanes = ex.active_lanes()
    return tmap, lanes, [np.asarray(ex.at(v, lanes), np.int64) for v in vals[1:1 + rank]]


@handler(lass_nv.TmaLoad2dOp, lass_nv.TmaLoad3dOp)
def _tma_load(ex: Executor, op, vals):
    """tma_load_2d, and tma_load_3d of a batched map (its third coordinate the batch)."""
    st = _state(ex)
    rank = 3 if isinstance(op, lass_nv.TmaLoad3dOp) else 2
    tmap, lanes, coords = tma_operands(ex, op, vals, rank, "TMA load of")
    spec = tmap.spec
    dst = np.asarray(ex.at(vals[1 + rank], lanes), np.int64)
    actors, blocks, addrs = st.lane_bars(op, lanes, vals[2 + rank], "(TMA completion)")
    opid = _opid(ex, op)
    n = spec.box_bytes
    for j, a in enumerate(actors):
        err = S.tma_smem_align_error(int(dst[j]) + SHARED_WINDOW_BASE, spec.mode)
        if err:
            raise MisalignedAccessError(f"{ex.where(op)}: {ex.actor(int(a))}: {err}")
        idx = st.smem.flat_index(opid, np.array([a]), dst[j:j + 1], n, what="TMA box write")[0]
        for bar in st.bar_list:  # the box must not overwrite a live mbarrier
            lo = bar.block * st.smem.size + bar.addr
            if bar.block == blocks[j] and idx[0] <= lo < idx[-1] + 1:
                raise OutOfBoundsError(f"{ex.where(op)}: {ex.actor(int(a))}: the TMA box [{int(dst[j])}, "
                                       f"{int(dst[j]) + n}) overwrites {bar.where(ex)}")
        data = S.tma_box_bytes(tmap.array, tuple(int(c[j]) for c in coords), spec.box, spec.mode)
        fa = np.full(n, a, np.int64)
        if st.smem.track:
            st.smem._check_write(opid, idx, fa)  # a write that may land at any moment
            st.check_not_read_async(opid, idx, fa, "writes (TMA)")
        st.smem.inflight[idx] = True
        st.smem.fl_actor[idx] = a
        st.smem.fl_op[idx] = opid
        st.gen_writer[idx] = -1
        bar = st.barrier(opid, int(blocks[j]), int(addrs[j]), int(a))
        bar.copies.append((opid, int(a), idx, data))
        st.complete_tx(opid, bar, n)
    return []


@handler(lass_nv.WgmmaFenceOp)
def _wgmma_fence(ex: Executor, op, vals):
    _warpgroups(ex, op)
    _state(ex).fenced = True
    return []


@handler(lass_nv.WgmmaCommitGroupOp)
def _wgmma_commit(ex: Executor, op, vals):
    _warpgroups(ex, op)
    _state(ex).commits += 1
    return []


@handler(lass_nv.WgmmaWaitGroupOp)
def _wgmma_wait(ex: Executor, op, vals):
    _warpgroups(ex, op)
    st = _state(ex)
    limit = st.commits - op.pending.value.data
    if limit > st.retired:
        st.retired = limit
        env = ex.env
        for k, v in env.items():
            if type(v) is PendingValue and v.group < limit:
                env[k] = v.value
    st.fenced = False  # the accumulators are accessible again: the next wgmma needs a fence
    return []


def _operand(ex, st, op, desc_value: int, g: int, rows: int, k: int, ab: str, trans: int, who: str):
    """The rows x k operand the warpgroup g reads through descriptor `desc_value`, every byte
    checked as a read of its 128 threads."""
    desc = S.MatrixDescriptor.decode(int(desc_value) & ((1 << 64) - 1))
    start = desc.start_address - SHARED_WINDOW_BASE
    opid = _opid(ex, op)
    if start < 0:
        raise OutOfBoundsError(
            f"{ex.where(op)}: the {who} descriptor's start address {desc.start_address:#x} lies below the dynamic "
            f"shared memory (window address {SHARED_WINDOW_BASE:#x}): build it from lass_nv.shared_address")
    local = S.MatrixDescriptor(start, desc.leading_byte_offset, desc.stride_byte_offset, desc.base_offset,
                               desc.swizzle)
    dtype = OPERAND_DTYPES[ab]
    eb = dtype.itemsize
    threads_per = ex.threads // WG
    b = g // threads_per
    smem = st.smem
    block_bytes = smem.data[b * smem.size:(b + 1) * smem.size]
    try:
        addr = S.operand_addresses(local, rows, k, eb, trans)
        vals = S.read_operand(block_bytes, local, rows, k, dtype, trans)
    except ValueError as e:
        raise OutOfBoundsError(f"{ex.where(op)}: the {who} operand through descriptor {int(desc_value):#x}: {e}") from None
    fi = (b * smem.size + addr.reshape(-1, 1) + np.arange(eb)).reshape(-1)
    first = g * WG
    if smem.track:
        wg_actors = np.arange(first, first + WG)
        smem.read(opid, np.full(fi.size, first, np.int64), fi[:, None])  # in flight, uninitialised, races
        st.check_landed(opid, fi, None, group=wg_actors)  # every thread of the warpgroup must have waited
        st.check_fenced(opid, fi, f"warpgroup {g % threads_per} of {ex.block(b)}")
    st.reading_group[fi] = st.commits
    st.reading_op[fi] = opid
    return vals


@handler(lass_nv.WgmmaMmaAsyncOp)
def _wgmma(ex: Executor, op, vals):
    st = _state(ex)
    groups = _warpgroups(ex, op)
    opid = _opid(ex, op)
    if not st.fenced:
        raise AsyncHazardError(
            f"{ex.where(op)}: no wgmma.fence since the warpgroup's registers were last accessible (kernel start or "
            f"a wgmma.wait_group): PTX requires one before a wgmma.mma_async that uses them")
    ab, n, kk = op.input_type, op.n_value, op.k_value
    na = len(op.a)
    a_vals, b_val = vals[:na], vals[na]
    c_vals, scale = vals[na + 1:-1], vals[-1]
    acc_np = MM.acc_dtype(str(op.acc_type))
    rows_map, cols_map = S.acc_coords(n)  # [128, N/2] each
    b_descs = _per_warpgroup(ex, op, b_val, groups, "the B descriptor")
    a_descs = None if op.is_rs else _per_warpgroup(ex, op, a_vals[0], groups, "the A descriptor")
    scales = _per_warpgroup(ex, op, scale, groups, "scale-d")
    c_arrays = [v.value if type(v) is PendingValue else v for v in c_vals]
    out = [np.zeros(ex.L, acc_np) for _ in c_vals]
    for gi, g in enumerate(groups):
        lanes = np.arange(g * WG, (g + 1) * WG)
        if op.is_rs:
            a = _rs_fragment(ex, a_vals, lanes, ab)
        else:
            a = _operand(ex, st, op, a_descs[gi], g, S.WGMMA_M, kk, ab, op.imm("trans_a"), "A")
        b = _operand(ex, st, op, b_descs[gi], g, n, kk, ab, op.imm("trans_b"), "B")
        if op.imm("scale_a") == -1:
            a = _negate(a)
        if op.imm("scale_b") == -1:
            b = _negate(b)
        c = np.zeros((S.WGMMA_M, n), acc_np)
        if scales[gi]:
            regs = np.stack([np.asarray(ex.at(x, lanes)) for x in c_arrays], axis=1)  # [128, N/2]
            c[rows_map, cols_map] = regs.astype(acc_np)
        d = MM.mma(a[None], b[None], c[None], tf32_round=MM.tf32_trunc)[0]
        res = d[rows_map, cols_map]
        for v in range(len(out)):
            out[v][lanes] = res[:, v]
    if acc_np.kind == "i":
        out = [x.astype(np.int64) for x in out]
    return [PendingValue(x, st.commits, opid, ex) for x in out]


def _negate(x):
    """imm-scale -1 (f16 / bf16 / tf32): the operand negated exactly (bf16: flip the sign bit)."""
    if x.dtype == BF16:
        return x ^ np.uint16(0x8000)
    return -x


def _rs_fragment(ex, a_vals, lanes, ab: str):
    """The 64 x K A matrix of a wgmma with A from registers: thread t's register r, part p is
    element sm90_layout.a_frag_coord(t, r, p)."""
    dtype = OPERAND_DTYPES[ab]
    eb = dtype.itemsize
    parts = 4 // eb
    kk = S.WGMMA_K_BYTES // eb
    regs = np.stack([np.asarray(ex.at(x, lanes), np.int64) & 0xFFFFFFFF for x in a_vals], axis=1)  # [128, 4]
    raw = regs.astype("<u4").view(np.uint8).reshape(WG, len(a_vals), 4)
    a = np.zeros((S.WGMMA_M, kk), dtype)
    row, col = S.a_frag_coords(eb)  # [128, 4, parts] each
    elems = raw.reshape(WG, len(a_vals), parts, eb).copy().view(dtype).reshape(WG, len(a_vals), parts)
    a[row, col] = elems
    return a


# ---- entry point --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _LaunchShape:
    """What the executor reads of a kernel's config, for kernels without `#lass.kernel`."""

    threads: int
    smem: int
    threadblock: tuple = (0, 0, 0)

    def smem_bytes(self, elem_bytes: int) -> int:
        return self.smem

    def access_bytes(self, ab_type: str) -> tuple[int, int]:
        return (16, 16)


@dataclass(frozen=True)
class _Facts:
    config: _LaunchShape
    ab_type: str = "f16"
    swap_ab: bool = False
    batched: bool = False


def _bind(prog: Program, args: list) -> list:
    from lasscc.runtime.tma import HostTensorMap

    params = prog.func.body.block.args
    if len(args) != len(params):
        raise KernelArgumentError(f"kernel @{prog.name}: expected {len(params)} arguments, got {len(args)}")
    out = []
    for i, (p, a) in enumerate(zip(params, args)):
        name = p.name_hint or f"#{i}"
        t = p.type
        if isinstance(t, lass_nv.TensorMapType):
            if not isinstance(a, HostTensorMap):
                raise KernelArgumentError(f"argument {name}: expected a HostTensorMap for {t}, got {type(a).__name__}")
            s = a.spec
            want = (t.box, t.element_name, t.swizzle_mode, t.rank)
            got = ((s.box_rows, s.box_cols), s.dtype, s.swizzle, s.rank)
            if want != got:
                raise KernelArgumentError(f"argument {name}: expected a tensor map with box, type, swizzle, rank {want} "
                                          f"(its type {t}), got {got}")
            out.append(a)
        elif isinstance(t, MemRefType):
            if not isinstance(a, np.ndarray) or a.ndim != 2 or not a.flags.c_contiguous:
                raise KernelArgumentError(f"argument {name}: expected a C-contiguous 2-d numpy array for {t}")
            want = numpy_dtype(t.get_element_type(), f"element type of {name}")
            if a.dtype != want:
                raise KernelArgumentError(f"argument {name}: expected dtype {np.dtype(want).name}, got {a.dtype}")
            out.append(GlobalBuffer(name, a.reshape(-1), a.shape[0], a.shape[1], t))
        elif int_width(t) is not None:
            out.append(int(a))
        elif float_codec(t) is not None:
            out.append(float_codec(t)[0](np.float64(a)))
        else:
            raise KernelArgumentError(f"argument {name}: unsupported parameter type {t}")
    return out


def execute_sm90(module, args: list, *, threads: int, smem_bytes: int, grid: int = 1, check: bool = True) -> ExecResult:
    """Run the kernel of `module` (a ModuleOp or MLIR text; the function with `nvvm.kernel` or the
    only one) on `grid` blocks of `threads` threads with `smem_bytes` of dynamic shared memory.

    `args` in the kernel's parameter order: a `lasscc.runtime.tma.HostTensorMap` per
    `!lass_nv.tensor_map` (its box, type and swizzle must be the parameter type's), a 2-d
    C-contiguous numpy array per memref (written in place), ints and floats.  Raises the
    lasscc.interp.errors classes naming the op on any violation (see the module docstring)."""
    t0 = time.perf_counter()
    module = _as_module(module)
    fn = find_kernel(module)
    if threads <= 0 or threads % WG:
        raise KernelArgumentError(f"expected threads a positive multiple of {WG} (warpgroups), got {threads}")
    prog = Program(fn, facts=_Facts(_LaunchShape(threads, smem_bytes)))
    if not prog.simt:
        raise KernelArgumentError(f"kernel @{prog.name}: expected per-thread (lass_nv) code")
    bound = _bind(prog, list(args))
    launch = Launch(0, 0, 0, None, None, None, check)
    nops = 0
    for block0 in range(grid):  # one block at a time: blocks do not interact
        ex = Executor(prog, launch, block0, 1)
        _state(ex)  # the guard watches shared memory from the first access (generic writes before any sm90 op)
        ex.run(bound)
        st = ex.__dict__.get("_sm90")
        if st is not None:
            st.finish()
        nops += ex.nops
    d = next((a for a in args if isinstance(a, np.ndarray)), None)
    return ExecResult(d, prog.level, prog.name, grid, threads, smem_bytes, 1, time.perf_counter() - t0, nops)


__all__ = ["execute_sm90", "PendingValue", "SHARED_WINDOW_BASE", "MBarrier", "Sm90State"]
