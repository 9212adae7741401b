"""Shared memory of a batch of threadblocks, with the checks the executor makes on every access.

Memory: one byte array per block (`size` bytes each, laid end to end: block-local byte `a` of
batch block `b` is flat byte `b * size + a`).  Accesses are made by *actors*: actor id
`b * threads + t` is thread `t` of batch block `b` (at the block level, where the IR has no
threads, the collective ops name the thread that would do each piece of the work; see
lass_ops.py).  Every access comes as a flat byte-index array `[n, width]` plus the actor of each
row, so a whole op over all threads of the batch is checked with a few numpy operations.

Kept per byte:
  * `written`: some thread of the block wrote it since the kernel started (else an
    UninitializedReadError on read);
  * the last writer (actor, op) and the readers since the last barrier: first reader (actor,
    op), and whether some other actor read it too (with that read's op).  A write by actor t
    to a byte another actor wrote or read since the last barrier, or a read of a byte another
    actor wrote since the last barrier, is a RaceError naming both ops.  `barrier()` clears this;
  * `inflight`: a cp.async / copy_async has been issued into it and not yet retired by a wait.
    Any access to such a byte is an AsyncHazardError (the copy may land at any moment).

Async copies: `issue_async` checks the write as if it landed now (it may), marks the bytes in
flight and queues a record tagged with each actor's open group number.  `commit(actors)` closes
each actor's open group; `wait(actors, pending)` retires, for each of those actors, every copy in
a group older than its newest `pending` committed groups (cp.async.wait_group semantics, per
thread) and only then writes the bytes, attributed to the copy op and its thread.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lasscc.interp.errors import (
    AsyncHazardError,
    MisalignedAccessError,
    OutOfBoundsError,
    RaceError,
    UninitializedReadError,
)


@dataclass
class AsyncRecord:
    opid: int
    actors: np.ndarray  # [n]
    groups: np.ndarray  # [n] open group of each actor when issued
    idx: np.ndarray  # [n, w] flat byte indices
    data: np.ndarray  # [n, w] uint8


class SharedMemory:
    def __init__(self, nblocks: int, size: int, threads: int, namer, track: bool = True):
        self.nblocks, self.size, self.threads = nblocks, size, threads
        self.namer = namer  # .op(opid) -> str, .actor(actor) -> str, .block(b_local) -> str
        self.track = track
        total = nblocks * size
        self.data = np.zeros(total, np.uint8)
        self.written = np.zeros(total, bool)
        self.inflight = np.zeros(total, bool)
        self.fl_actor = np.full(total, -1, np.int32)
        self.fl_op = np.full(total, -1, np.int32)
        self.lw_actor = np.full(total, -1, np.int32)
        self.lw_op = np.full(total, -1, np.int32)
        self.rd_actor = np.full(total, -1, np.int32)
        self.rd_op = np.full(total, -1, np.int32)
        self.rd_multi = np.zeros(total, bool)
        self.rd_other_op = np.full(total, -1, np.int32)
        self.stamp = np.full(total, -1, np.int64)  # scratch: writer of each byte within one op
        self.dirty = False
        self.commits = np.zeros(nblocks * threads, np.int64)
        self.pending: list[AsyncRecord] = []
        # extra per-access checks of the sm_90a ops (interp/sm90_ops.Sm90State): on_read(opid, fi, fa),
        # on_write(opid, fi, fa, retiring) on every tracked access; None for the Ampere kernels
        self.guard = None

    # ---- addressing -----------------------------------------------------------------------
    def flat_index(self, opid, actors, addr, width: int, align: int = 1, what: str = "access"):
        """[n, width] flat byte indices of `width`-byte accesses at block-local byte `addr` [n]
        by `actors` [n]; raise on out-of-bounds or misaligned addresses."""
        addr = np.asarray(addr, np.int64).reshape(-1)
        actors = np.asarray(actors, np.int64).reshape(-1)
        bad = (addr < 0) | (addr + width > self.size)
        if bad.any():
            j = int(np.argmax(bad))
            raise OutOfBoundsError(
                f"{self.namer.op(opid)}: {self.namer.actor(int(actors[j]))} makes a {width}-byte shared-memory "
                f"{what} at byte {int(addr[j])}, outside the {self.size} bytes of dynamic shared memory"
            )
        if align > 1:
            bad = addr % align != 0
            if bad.any():
                j = int(np.argmax(bad))
                raise MisalignedAccessError(
                    f"{self.namer.op(opid)}: {self.namer.actor(int(actors[j]))} makes a shared-memory {what} "
                    f"at byte {int(addr[j])}, which is not {align}-byte aligned"
                )
        base = (actors // self.threads) * self.size + addr
        return base[:, None] + np.arange(width, dtype=np.int64)[None, :]

    def _byte_desc(self, flat: int) -> str:
        b, a = divmod(int(flat), self.size)
        return f"shared-memory byte {a} of {self.namer.block(b)}"

    # ---- checks ---------------------------------------------------------------------------
    def _check_read(self, opid, fi, fa):
        fl = self.inflight[fi]
        if fl.any():
            j = int(np.argmax(fl))
            f = fi[j]
            raise AsyncHazardError(
                f"{self.namer.op(opid)}: {self.namer.actor(int(fa[j]))} reads {self._byte_desc(f)} while "
                f"{self.namer.op(int(self.fl_op[f]))} by {self.namer.actor(int(self.fl_actor[f]))} is still "
                f"copying into it (no wait has retired that copy's group)"
            )
        w = self.written[fi]
        if not w.all():
            j = int(np.argmin(w))
            raise UninitializedReadError(
                f"{self.namer.op(opid)}: {self.namer.actor(int(fa[j]))} reads {self._byte_desc(fi[j])}, "
                f"which no thread wrote since the kernel started"
            )
        lw = self.lw_actor[fi]
        bad = (lw >= 0) & (lw != fa)
        if bad.any():
            j = int(np.argmax(bad))
            f = fi[j]
            raise RaceError(
                f"race on {self._byte_desc(f)}: {self.namer.op(int(self.lw_op[f]))} by "
                f"{self.namer.actor(int(lw[j]))} writes it and {self.namer.op(opid)} by "
                f"{self.namer.actor(int(fa[j]))} reads it with no barrier between"
            )

    def _note_read(self, opid, fi, fa):
        rt = self.rd_actor[fi]
        new = rt < 0
        if new.any():
            self.rd_actor[fi[new]] = fa[new]
            self.rd_op[fi[new]] = opid
            rt = self.rd_actor[fi]
        other = rt != fa
        if other.any():
            self.rd_multi[fi[other]] = True
            self.rd_other_op[fi[other]] = opid
        self.dirty = True

    def _check_write(self, opid, fi, fa, inflight_ok=False):
        if fi.size > 1:
            # two actors writing one byte in this op: after the scatter, the byte holds only one
            self.stamp[fi] = fa
            other = self.stamp[fi] != fa
            if other.any():
                j = int(np.argmax(other))
                raise RaceError(
                    f"race on {self._byte_desc(fi[j])}: {self.namer.op(opid)} by {self.namer.actor(int(fa[j]))} "
                    f"and {self.namer.op(opid)} by {self.namer.actor(int(self.stamp[fi[j]]))} both write it"
                )
        if not inflight_ok:
            fl = self.inflight[fi]
            if fl.any():
                j = int(np.argmax(fl))
                f = fi[j]
                raise AsyncHazardError(
                    f"{self.namer.op(opid)}: {self.namer.actor(int(fa[j]))} writes {self._byte_desc(f)} while "
                    f"{self.namer.op(int(self.fl_op[f]))} by {self.namer.actor(int(self.fl_actor[f]))} is still "
                    f"copying into it (no wait has retired that copy's group)"
                )
        lw = self.lw_actor[fi]
        bad = (lw >= 0) & (lw != fa)
        if bad.any():
            j = int(np.argmax(bad))
            f = fi[j]
            raise RaceError(
                f"race on {self._byte_desc(f)}: {self.namer.op(int(self.lw_op[f]))} by "
                f"{self.namer.actor(int(lw[j]))} and {self.namer.op(opid)} by {self.namer.actor(int(fa[j]))} "
                f"both write it with no barrier between"
            )
        rt = self.rd_actor[fi]
        war1 = (rt >= 0) & (rt != fa)
        war2 = self.rd_multi[fi] & (rt == fa)
        if war1.any() or war2.any():
            if war1.any():
                j = int(np.argmax(war1))
                f = fi[j]
                rop, ract = int(self.rd_op[f]), self.namer.actor(int(rt[j]))
            else:
                j = int(np.argmax(war2))
                f = fi[j]
                rop, ract = int(self.rd_other_op[f]), "another thread"
            raise RaceError(
                f"race on {self._byte_desc(f)}: {self.namer.op(rop)} by {ract} reads it and "
                f"{self.namer.op(opid)} by {self.namer.actor(int(fa[j]))} overwrites it with no barrier between"
            )

    @staticmethod
    def _flat(actors, idx):
        fi = idx.reshape(-1)
        fa = np.broadcast_to(np.asarray(actors, np.int64).reshape(-1, 1), idx.shape).reshape(-1)
        return fi, fa

    # ---- accesses -------------------------------------------------------------------------
    def read(self, opid, actors, idx):
        """Bytes [n, w] at flat indices `idx` [n, w], read by `actors` [n]."""
        if self.track:
            fi, fa = self._flat(actors, idx)
            self._check_read(opid, fi, fa)
            if self.guard is not None:
                self.guard.on_read(opid, fi, fa)
            self._note_read(opid, fi, fa)
        return self.data[idx]

    def write(self, opid, actors, idx, data, _retiring=False):
        fi, fa = self._flat(actors, idx)
        if self.track:
            if self.guard is not None:  # first: its async-proxy hazards name the cause better than a race
                self.guard.on_write(opid, fi, fa, _retiring)
            self._check_write(opid, fi, fa, inflight_ok=_retiring)
            self.lw_actor[fi] = fa
            self.lw_op[fi] = opid
            self.dirty = True
        self.data[fi] = np.asarray(data, np.uint8).reshape(-1)
        self.written[fi] = True

    def read_block_range(self, opid, b_local: int, start: int, nbytes: int):
        """A block-collective read of bytes [start, start + nbytes) of batch block `b_local` by
        all of its threads (lass_pipe.mma at the block level)."""
        if start < 0 or start + nbytes > self.size:
            raise OutOfBoundsError(
                f"{self.namer.op(opid)}: reads shared-memory bytes [{start}, {start + nbytes}) of "
                f"{self.namer.block(b_local)}, outside the {self.size} bytes of dynamic shared memory"
            )
        lo = b_local * self.size + start
        sl = slice(lo, lo + nbytes)
        if self.track:
            everyone = f"all {self.threads} threads of {self.namer.block(b_local)}"
            fl = self.inflight[sl]
            if fl.any():
                j = lo + int(np.argmax(fl))
                raise AsyncHazardError(
                    f"{self.namer.op(opid)}: {everyone} read {self._byte_desc(j)} while "
                    f"{self.namer.op(int(self.fl_op[j]))} by {self.namer.actor(int(self.fl_actor[j]))} is "
                    f"still copying into it (no wait has retired that copy's group)"
                )
            w = self.written[sl]
            if not w.all():
                j = int(np.argmin(w))
                raise UninitializedReadError(
                    f"{self.namer.op(opid)}: {everyone} read {self._byte_desc(lo + j)}, which no thread "
                    f"wrote since the kernel started"
                )
            lw = self.lw_actor[sl]
            bad = lw >= 0 if self.threads > 1 else np.zeros_like(lw, bool)
            if bad.any():
                j = lo + int(np.argmax(bad))
                raise RaceError(
                    f"race on {self._byte_desc(j)}: {self.namer.op(int(self.lw_op[j]))} by "
                    f"{self.namer.actor(int(self.lw_actor[j]))} writes it and {self.namer.op(opid)} by "
                    f"{everyone} reads it with no barrier between"
                )
            rd = self.rd_actor[sl]
            first = b_local * self.threads
            fresh = rd < 0
            rd[fresh] = first
            self.rd_op[sl][fresh] = opid
            if self.threads > 1:
                self.rd_multi[sl] = True
                self.rd_other_op[sl] = opid
            self.dirty = True
        return self.data[sl]

    # ---- barriers and async copies --------------------------------------------------------
    def barrier(self, blocks=None):
        """bar.sync for the given batch blocks (all when None): forget writers and readers."""
        if not self.dirty:
            return
        if blocks is None:
            sls = [slice(None)]
            self.dirty = False
        else:
            sls = [slice(int(b) * self.size, (int(b) + 1) * self.size) for b in blocks]
        for sl in sls:
            self.lw_actor[sl] = -1
            self.rd_actor[sl] = -1
            self.rd_multi[sl] = False

    def issue_async(self, opid, actors, idx, data):
        actors = np.asarray(actors, np.int64).reshape(-1)
        if actors.size == 0:
            return
        fi, fa = self._flat(actors, idx)
        if self.track:
            self._check_write(opid, fi, fa)  # the copy may land at once
        else:
            fl = self.inflight[fi]
            if fl.any():
                self._check_write(opid, fi, fa)
        self.inflight[fi] = True
        self.fl_actor[fi] = fa
        self.fl_op[fi] = opid
        self.pending.append(AsyncRecord(opid, actors, self.commits[actors].copy(), idx, np.asarray(data, np.uint8)))

    def commit(self, actors):
        self.commits[np.asarray(actors, np.int64).reshape(-1)] += 1

    def wait(self, actors, pending: int):
        """Retire, for each of `actors`, the copies in all but its newest `pending` committed groups."""
        limit = np.full(self.commits.shape, -1, np.int64)
        actors = np.asarray(actors, np.int64).reshape(-1)
        limit[actors] = self.commits[actors] - pending
        keep: list[AsyncRecord] = []
        for rec in self.pending:
            sel = rec.groups < limit[rec.actors]
            if not sel.any():
                keep.append(rec)
                continue
            idx = rec.idx[sel]
            self.inflight[idx.reshape(-1)] = False
            self.write(rec.opid, rec.actors[sel], idx, rec.data[sel], _retiring=True)
            if not sel.all():
                rest = ~sel
                keep.append(AsyncRecord(rec.opid, rec.actors[rest], rec.groups[rest], rec.idx[rest], rec.data[rest]))
        self.pending = keep

    def unretired(self) -> int:
        """Number of async 16-byte copies never retired by a wait (reported as a note)."""
        return sum(len(r.actors) for r in self.pending)
