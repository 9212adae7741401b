"""CPU semantics of warp-specialized roles (`lass_wg.warp_specialize`, `setmaxnreg`, `named_barrier`).

Roles run as their threads: the producer region on the lanes where `is_producer` holds, the
consumer region on the others (with `independent_consumers`, the pingpong schedule: one role per
consumer warpgroup, "consumer 0", "consumer 1"), each as a cooperative Python thread of the executor holding one
baton (one role runs at a time; the blocks of a slice and the lanes of a role stay in lockstep).
A role runs until an op of it would wait for the other role: a wait that fails (an mbarrier or a
TMA-ring wait, a `setmaxnreg.inc` for registers the other role still holds: the handlers raise
`DeadlockError`) parks the role and hands the baton to the other one; the parked op is retried
once any other role has executed an op since it parked.  When every unfinished role is parked
with no op executed since, the launch is a deadlock: a DeadlockError naming every role's waiting
op (a wrong phase parity, a release that never comes).  A kernel with roles runs one block per
executor slice (lasscc.interp.executor.execute_kernel), so a failed wait has changed no state.

setmaxnreg: every warp starts with lasscc.resources.launch_regs(threads) registers per thread;
the op sets its warpgroup's count (the value a multiple of 8 in 24..256, `dec` not above and `inc`
not below the current one); an `inc` waits while the block's warps would hold more than the
register file (lasscc.resources.REGISTER_FILE).

named_barrier: the threads reaching it in each block must number `threads` (a DivergenceError
otherwise); it then orders shared memory like the block barrier.
"""

from __future__ import annotations

import threading

import numpy as np

from lasscc.dialects import lass_wg
from lasscc.interp.errors import DeadlockError, DivergenceError, InterpError
from lasscc.interp.executor import Executor, handler
from lasscc.resources import REGISTER_FILE, launch_regs, setmaxnreg_error
from lasscc.layout import WARP_SIZE

W = lass_wg.WARPGROUP_THREADS


class _Abort(BaseException):
    """Unwinds a parked role when the launch fails in the other one."""


class Roles:
    """The baton between the roles of one `lass_wg.warp_specialize` (see the module docstring)."""

    def __init__(self, ex: Executor, roles: list[tuple[str, object, np.ndarray]]):
        self.ex, self.roles = ex, roles
        n = len(roles)
        self.cv = threading.Condition()
        self.turn = 0
        self.done = [False] * n
        self.parked: list[DeadlockError | None] = [None] * n
        self.stamp = [-1] * n  # ex.nops when the role parked
        self.error: BaseException | None = None
        self.abort = False
        # each role its own SSA environment (from the values defined before the split): roles that
        # run one region (independent consumers) must not see each other's values
        self.envs = [dict(ex.env) for _ in roles]

    def _runnable(self, j: int) -> bool:
        return not self.done[j] and (self.parked[j] is None or self.ex.nops > self.stamp[j])

    def _next(self, i: int) -> int | None:
        n = len(self.roles)
        for d in range(1, n + 1):
            j = (i + d) % n
            if j != i and self._runnable(j):
                return j
        return None

    def _deadlock(self) -> DeadlockError:
        waits = "; ".join(f"{self.roles[j][0]}: {e}" for j, e in enumerate(self.parked) if e is not None
                          and not self.done[j])
        err = DeadlockError(f"every role of the warp-specialized block waits on the other (deadlock): {waits}")
        err.final = True  # not a wait to park on: the executor passes it up (Executor.run_block)
        return err

    def _wait_turn(self, i: int) -> None:
        while self.turn != i and not self.abort:
            self.cv.wait()
        if self.abort:
            raise _Abort()

    def blocked(self, err: DeadlockError, retry):
        """Called by the executor when an op of the running role raised `err` (it would wait): park
        until another role made progress, then retry the op (again and again while it fails)."""
        i = self.current
        while True:
            mask = self.ex.mask
            with self.cv:
                self.parked[i], self.stamp[i] = err, self.ex.nops
                j = self._next(i)
                if j is None:
                    raise self._deadlock()
                self.turn = j
                self.cv.notify_all()
                self._wait_turn(i)
            self.current = i
            self.ex.mask, self.ex.env = mask, self.envs[i]
            self.parked[i] = None
            try:
                return retry()
            except DeadlockError as e:
                err = e

    def _body(self, i: int) -> None:
        name, block, mask = self.roles[i]
        try:
            with self.cv:
                self._wait_turn(i)
            self.current = i
            self.ex.mask, self.ex.env = mask, self.envs[i]
            self.ex.run_block(block)
        except _Abort:
            return
        except BaseException as e:  # noqa: BLE001 -- handed to the launching thread
            with self.cv:
                if self.error is None:
                    self.error = e
                self.abort = True
                self.cv.notify_all()
            return
        with self.cv:
            self.done[i] = True
            if not all(self.done):
                j = self._next(i)
                if j is None:
                    self.error = self._deadlock()
                    self.abort = True
                else:
                    self.turn = j
            self.cv.notify_all()

    def run(self) -> None:
        threads = [threading.Thread(target=self._body, args=(i,), daemon=True) for i in range(len(self.roles))]
        for t in threads:
            t.start()
        with self.cv:
            while not (all(self.done) or self.abort):
                self.cv.wait()
        for t in threads:
            t.join()
        if self.error is not None:
            raise self.error


def _whole_warpgroups(ex: Executor, op, mask: np.ndarray, role: str) -> None:
    m = mask.reshape(-1, W)
    split = m.any(1) & ~m.all(1)
    if split.any():
        g = int(np.argmax(split))
        raise DivergenceError(f"{ex.where(op)}: the {role} role takes {int(m[g].sum())} of the {W} threads of "
                              f"warpgroup {g % (ex.tpl // W)} of {ex.block(g * W // ex.tpl)}: roles are whole warpgroups")


@handler(lass_wg.WarpSpecializeOp)
def _warp_specialize(ex: Executor, op, vals):
    if not ex.prog.simt:
        raise InterpError(f"{ex.where(op)}: roles need per-thread code")
    if getattr(ex, "roles", None) is not None:
        raise InterpError(f"{ex.where(op)}: roles inside roles")
    if ex.L % W:
        raise InterpError(f"{ex.where(op)}: a block of {ex.tpl} threads is no whole number of warpgroups")
    base = ex.mask if ex.mask is not None else np.ones(ex.L, bool)
    prod = np.asarray(ex.lanes_of(vals[0]), bool)
    roles = []
    for name, region, m in (("producer", op.producer, base & prod), ("consumer", op.consumer, base & ~prod)):
        _whole_warpgroups(ex, op, m, name)
        if not m.any():
            continue
        if name == "consumer" and op.independent_consumers is not None:
            # each consumer warpgroup its own role (the pingpong schedule: own tiles, no lockstep)
            groups = np.unique(np.nonzero(m)[0] % ex.tpl // W)
            for i, g in enumerate(groups):
                mg = m & (np.arange(ex.L) % ex.tpl // W == g)
                roles.append((f"consumer {i} (warpgroup {int(g)})", region.block, mg))
        else:
            roles.append((name, region.block, m))
    saved, env = ex.mask, ex.env
    ex.roles = Roles(ex, roles)
    try:
        ex.roles.run()
    finally:
        ex.roles = None
        ex.mask, ex.env = saved, env
    return []


@handler(lass_wg.SetMaxNRegOp)
def _setmaxnreg(ex: Executor, op, vals):
    regs, action = int(op.regs.value.data), op.action.data
    bad = setmaxnreg_error(regs)
    if bad:
        raise InterpError(f"{ex.where(op)}: setmaxnreg: {bad}")
    warps = ex.tpl // WARP_SIZE
    held = ex.__dict__.setdefault("_nreg", np.full((ex.nb, warps), launch_regs(ex.threads), np.int64))
    mask = ex.mask if ex.mask is not None else np.ones(ex.L, bool)
    _whole_warpgroups(ex, op, mask, "setmaxnreg's")
    wmask = mask.reshape(ex.nb, warps, WARP_SIZE).all(2)
    new = held.copy()
    for b, w in zip(*np.nonzero(wmask)):
        cur = int(held[b, w])
        if (action == "dec" and regs > cur) or (action == "inc" and regs < cur):
            raise InterpError(f"{ex.where(op)}: setmaxnreg.{action} {regs} in warp {w} of {ex.block(b)}, which holds "
                              f"{cur} registers per thread ({'dec' if action == 'dec' else 'inc'} must "
                              f"{'lower' if action == 'dec' else 'raise'} the count)")
        new[b, w] = regs
    total = new.sum(1) * WARP_SIZE
    if (total > REGISTER_FILE).any():
        b = int(np.argmax(total > REGISTER_FILE))
        raise DeadlockError(f"{ex.where(op)}: setmaxnreg.{action} {regs} waits for registers: the warps of "
                            f"{ex.block(b)} would hold {int(total[b])} of the {REGISTER_FILE} of the register file "
                            f"(per warp: {held[b].tolist()})")
    held[...] = new
    return []


@handler(lass_wg.NamedBarrierOp)
def _named_barrier(ex: Executor, op, vals):
    want = int(op.threads.value.data)
    mask = ex.mask if ex.mask is not None else np.ones(ex.L, bool)
    per = mask.reshape(ex.nb, ex.tpl).sum(1)
    bad = (per != 0) & (per != want)
    if bad.any():
        b = int(np.argmax(bad))
        raise DivergenceError(f"{ex.where(op)}: {int(per[b])} threads of {ex.block(b)} reach named barrier "
                              f"{op.id.value.data}, which expects {want} (a barrier that never fills deadlocks)")
    ex.smem.barrier(np.nonzero(per)[0])
    if ex.sync is not None:  # stream-K's flags (lasscc.streamk): the consumers' acquires shared among them
        # (the global-memory model is per CTA: the producer, which never touches the workspace, included)
        ex.sync.barrier(ex.cta_of(np.nonzero(per)[0] * ex.tpl))
    return []
