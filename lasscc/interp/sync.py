"""Inter-CTA semantics for the CPU executor: split-K's semaphore, a CTA scheduler whose order can
be permuted, and a happens-before check of global memory (lasscc.splitk).

A launch of a kernel that synchronises CTAs (a split-K kernel: `GemmConfig.split_k > 1`, or a
stream-K kernel, lasscc.streamk, whose slices are single CTAs of its persistent grid) runs its
grid slices (the vectorised groups of blocks of one batch z and one partition y, executor.py)
as cooperative threads that hold one baton: one slice runs at a time, in the launch `order`
("forward": z, y, x as the GPU numbers them; "reverse"; "shuffle:SEED"), until it finishes or
waits.  A wait (`lass_tb.semaphore_wait`, `lass_nv.spin_acquire`) whose word does not hold its
value parks the slice until another slice changes a word it waits on; the scheduler then hands
the baton to the first runnable slice in the order.  When every unfinished slice is parked the
launch is a deadlock (DeadlockError naming each waiting op, word and value).

Memory ordering (the PTX memory model's release / acquire, as lasscc's kernels use it): every
element of D written by a CTA records the writer (CTA, thread, op) and how many barriers the
writer's CTA had passed.  A release (`lass_nv.st_release` by thread r after a bar.sync, or the
block-level `lass_tb.semaphore_release`) stores, with the word, what the releasing CTA makes
visible: its own writes before its last barrier and everything it had acquired itself.  An
acquire (the load of a wait that sees its value) gives that to the acquiring thread at once and to
the rest of its CTA at its next barrier.  A read or a write of an element last written by another
CTA whose write is not visible to the accessing thread this way is a RaceError naming both ops
(a read-after-write or write-after-write race; reads followed by an unordered write are not
tracked; a read of a workspace word no CTA has written in the launch, a stream-K partial read
before it exists, is one too).  So a split-K kernel whose wait is missing, or whose epilogue runs before the wait's
barrier, is reported in the orders that expose it, whatever values D happens to get.
"""

from __future__ import annotations

import random
import threading

import numpy as np

from lasscc.interp.errors import InterpError, RaceError

ORDERS = ("forward", "reverse", "shuffle")


class DeadlockError(InterpError):
    """Every unfinished CTA of the launch waits on a semaphore that nobody will change."""


class _Abort(BaseException):
    """Unwinds a parked slice thread when the launch fails elsewhere."""


def launch_order(n: int, order: str) -> list[int]:
    """The order (a permutation of range(n)) in which the scheduler prefers the grid's slices:
    "forward", "reverse" or "shuffle:SEED" (ValueError otherwise)."""
    if order == "forward":
        return list(range(n))
    if order == "reverse":
        return list(range(n))[::-1]
    head, sep, seed = order.partition(":")
    if head == "shuffle" and (not sep or seed.isdecimal()):
        perm = list(range(n))
        random.Random(int(seed or 0)).shuffle(perm)
        return perm
    raise ValueError(f"expected a CTA order of forward, reverse or shuffle:SEED, got '{order}'")


class GridSync:
    """The shared state of one launch: the scheduler and the happens-before records."""

    def __init__(self, n_slices: int, order: str, describe):
        self.order = launch_order(n_slices, order)
        self.describe = describe  # opid -> "op N (file:line:col): text"
        self.cv = threading.Condition()
        self.turn: int | None = None  # the slice holding the baton
        self.parked: dict[int, tuple] = {}  # slice -> (watched (array, idx, seen), what)
        self.done: set[int] = set()
        self.error: BaseException | None = None
        self.abort = False
        # happens-before: per buffer role, per element: writer CTA (-1: the host), its thread, its
        # barrier count at the write, the op
        self.meta: dict[str, tuple[np.ndarray, ...]] = {}
        self.bars: dict[int, int] = {}  # CTA -> barriers passed
        self.known: dict[int, dict[int, int]] = {}  # CTA -> {writer CTA: writes before this barrier count}
        self.pending: dict[int, list] = {}  # CTA -> [(barrier count, thread, frontier)] not yet shared
        self.word_clock: dict[tuple[str, int], dict[int, int]] = {}  # semaphore word -> released frontier

    # ---- scheduling -------------------------------------------------------------------------------
    def run(self, run_slice) -> None:
        """Run every slice (run_slice(i) in its own thread, one at a time) to completion."""
        threads: dict[int, threading.Thread] = {}

        def body(i: int) -> None:
            with self.cv:
                while self.turn != i and not self.abort:
                    self.cv.wait()
            try:
                if not self.abort:
                    run_slice(i)
            except _Abort:
                pass
            except BaseException as e:  # noqa: BLE001 - handed to the main thread
                with self.cv:
                    self.error = self.error or e
                    self.abort = True
            with self.cv:
                self.done.add(i)
                self.turn = None
                self.cv.notify_all()

        try:
            while True:
                with self.cv:
                    if self.error is not None:
                        break
                    i = self._next()
                    if i is None:
                        break
                    self.parked.pop(i, None)
                    self.turn = i
                    if i not in threads:
                        threads[i] = threading.Thread(target=body, args=(i,), daemon=True)
                        threads[i].start()
                    self.cv.notify_all()
                    while self.turn is not None:
                        self.cv.wait()
        finally:
            with self.cv:
                self.abort = True
                self.cv.notify_all()
            for t in threads.values():
                t.join()
        if self.error is not None:
            raise self.error

    def _next(self) -> int | None:
        """The first slice in the order that can run; None when all are done; DeadlockError when
        every unfinished one is parked on an unchanged word."""
        waiting = []
        for i in self.order:
            if i in self.done:
                continue
            if i not in self.parked:
                return i
            watched, what = self.parked[i]
            if any((arr[idx] != seen).any() for arr, idx, seen in watched):
                return i
            waiting.append(what)
        if waiting:
            raise DeadlockError("deadlock: every unfinished block waits on a semaphore no other block will change: "
                                + "; ".join(waiting[:4]) + (f" (and {len(waiting) - 4} more)" if len(waiting) > 4 else ""))
        return None

    def park(self, slice_id: int, watched, what: str) -> None:
        """Give the baton back until a watched word changes (called by the slice's own thread)."""
        with self.cv:
            self.parked[slice_id] = (watched, what)
            self.turn = None
            self.cv.notify_all()
            while self.turn != slice_id and not self.abort:
                self.cv.wait()
            if self.abort:
                raise _Abort()

    # ---- happens-before ---------------------------------------------------------------------------
    def _meta(self, buf):
        m = self.meta.get(buf.role)
        if m is None:
            size = buf.whole if buf.whole is not None else buf.array.size
            m = (np.full(size, -1, np.int64), np.zeros(size, np.int64), np.zeros(size, np.int64),
                 np.zeros(size, np.int64))
            self.meta[buf.role] = m
        return m

    def barrier(self, ctas) -> None:
        """The CTAs `ctas` pass a barrier: their pending acquires become every thread's."""
        for c in np.asarray(ctas).reshape(-1).tolist():
            self.bars[c] = self.bars.get(c, 0) + 1
            pend = self.pending.get(c)
            if pend:
                known = self.known.setdefault(c, {})
                for _, _, frontier in pend:
                    _merge(known, frontier)
                pend.clear()

    def _visible_limit(self, cta: int, thread: int, writer: int) -> int:
        """Writes of `writer` with a barrier count below this are visible to (cta, thread)."""
        lim = self.known.get(cta, {}).get(writer, -1)
        for _, t, frontier in self.pending.get(cta, ()):
            if t == thread:
                lim = max(lim, frontier.get(writer, -1))
        return lim

    def access(self, ex, op, buf, idx, lanes, write: bool) -> None:
        """Check (and for a write, record) accesses of elements idx [n] or [n, w] of buffer `buf`
        by lanes [n] of executor `ex`: RaceError at the first unordered one."""
        idx = np.asarray(idx, np.int64)
        lanes = np.asarray(lanes, np.int64)
        if idx.ndim == 2:
            lanes = np.repeat(lanes, idx.shape[1])
            idx = idx.reshape(-1)
        if idx.size == 0:
            return
        flat = idx + buf.offset
        writer, wthread, wbar, wop = self._meta(buf)
        cta = ex.cta_of(lanes)
        thread = ex.thread_ids[lanes]
        w = writer[flat]
        if not write and buf.role == "W" and (w < 0).any():  # stream-K's partials: no CTA wrote it yet
            j = int(np.argmax(w < 0))
            raise RaceError(
                f"{ex.where(op)}: {ex.actor(int(lanes[j]))} reads element {int(flat[j])} of W (a stream-K partial "
                f"slot), which no CTA has written in this launch (a race between CTAs: the partial is read before "
                f"its producer's write and flag release, or from the wrong slot)")
        other = (w >= 0) & (w != cta)
        if other.any():
            j_all = np.nonzero(other)[0]
            pairs = np.unique(np.stack([cta[j_all], w[j_all], thread[j_all] if self._any_pending(cta[j_all]) else
                                        np.zeros(len(j_all), np.int64)], 1), axis=0)
            for y, x, t in pairs.tolist():
                sel = j_all[(cta[j_all] == y) & (w[j_all] == x)]
                if self.pending.get(y):
                    sel = sel[thread[sel] == t]
                lim = self._visible_limit(y, t, x)
                bad = sel[wbar[flat[sel]] >= lim]
                if bad.size:
                    j = int(bad[0])
                    e = int(flat[j])
                    verb = "writes" if write else "reads"
                    raise RaceError(
                        f"{ex.where(op)}: {ex.actor(int(lanes[j]))} {verb} element {e} of {buf.role} "
                        f"({_rc(e, buf)}), which thread {int(wthread[e])} of {ex.cta_name(int(w[j]))} wrote at "
                        f"{self.describe(int(wop[e]))}, with no release / acquire ordering the two (a race between "
                        f"CTAs: the semaphore wait or its barrier is missing or out of order)")
        if write:
            writer[flat] = cta
            wthread[flat] = thread
            wbar[flat] = np.array([self.bars.get(c, 0) for c in cta.tolist()], np.int64)
            wop[flat] = ex.prog.opid[op]

    def _any_pending(self, ctas) -> bool:
        return any(self.pending.get(c) for c in set(np.asarray(ctas).tolist()))

    def release(self, ctas, threads, words, role: str, block_level: bool) -> None:
        """CTA ctas[i]'s thread threads[i] releases word words[i] of buffer `role`; a block-level
        release is a barrier first."""
        if block_level:
            self.barrier(ctas)
        for c, t, wd in zip(np.asarray(ctas).tolist(), np.asarray(threads).tolist(), np.asarray(words).tolist()):
            frontier = dict(self.known.get(c, {}))
            for _, pt, f in self.pending.get(c, ()):
                if pt == t:
                    _merge(frontier, f)
            frontier[c] = max(frontier.get(c, -1), self.bars.get(c, 0))
            self.word_clock[(role, wd)] = frontier

    def acquire(self, ctas, threads, words, role: str, block_level: bool) -> None:
        """Thread threads[i] of CTA ctas[i] acquires word words[i] (a load that saw the released
        value); a block-level acquire is a barrier after it."""
        for c, t, wd in zip(np.asarray(ctas).tolist(), np.asarray(threads).tolist(), np.asarray(words).tolist()):
            frontier = self.word_clock.get((role, wd))
            if frontier:
                self.pending.setdefault(c, []).append((self.bars.get(c, 0), t, frontier))
        if block_level:
            self.barrier(ctas)


def _merge(into: dict, frontier: dict) -> None:
    for k, v in frontier.items():
        if v > into.get(k, -1):
            into[k] = v


def _rc(e: int, buf) -> str:
    per = buf.rows * buf.cols
    b, r = divmod(e, per)
    return (f"batch {b}, " if buf.batch > 1 else "") + f"row {r // buf.cols}, column {r % buf.cols}"
