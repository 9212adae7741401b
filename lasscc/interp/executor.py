"""The CPU executor: runs a lasscc kernel function of any level on numpy arrays.

    execute_kernel(module, m, n, k, a, b, d, alpha, beta, *, report_banks=False) -> ExecResult

What it executes (the kernel is the function holding `lass.gemm`, else the one with a
`lass.kernel` attribute, else the only function):

  * level 0 (`lass.gemm` in `func.func @gemm(%a, %b, %d)`): D = alpha * A.B + beta * C once, with
    float32 accumulation of the f16 or bf16 products (arith.constant / func.return may surround it);
  * levels 1-2 (block-level code: lass_tb / lass_pipe / scf / arith, no per-thread ops): one
    *lane* per threadblock; tiles and accumulators are `[lanes, rows, cols]` arrays.  Collective
    ops on shared memory (copy_async, store_regs, lass_pipe.mma) say which thread of the block
    would do which 16-byte piece (lasscc.layout.copy_thread_map), so races and bank conflicts are
    still attributed to threads;
  * levels 3-4 (per-thread SIMT code: lass_nv / lass_warp / lass_smem present): one lane per
    thread; every SSA value is an array over the batch's threads or a uniform scalar.  Warp
    collectives (load_frag, ldmatrix, mma_sync) regroup lanes 32 at a time; mma_sync runs as one
    batched float32 matmul over all warps of the batch.  lass_pipe ops still present at level 3
    are run per thread: thread t does its share of the tile copy.

Column-major D: after lasscc-tile-threadblock such a kernel (KernelFacts.swap_ab) computes
D^T = B^T . A^T; execute_kernel still takes the user's (M, N, K, A, B, D) and binds (B, A, D, N, M,
K) to its parameters, the way the GPU launcher does (KernelSpec.launch_args).

Batched kernels (3-d batch-first memrefs at level 0, KernelFacts.batched after the passes): execute_kernel's
`batch` argument (default 1) is the grid z; the arrays hold `batch` matrices packed one after the
other (any shape of that size: run_check passes [batch, M, K] ...); lass.gemm does one product per
batch; lass_tb.batch_index / lass_nv.block_id z give the block's z, lass_tb.batch_view a
view of the kernel argument from element index * stride on, bounds-checked against the whole
argument.  The grid is run one z at a time.  A non-batched kernel refuses batch > 1.

Grid: ceil(M/BM) * ceil(N/BN) blocks (BM, BN from the kernel's config), run in batches of several
blocks vectorised together (`blocks_per_batch`).  Each batch has its own shared memory
(`SharedMemory`: the configured `stages * (BM + BN) * BK * 2` bytes per block) with the
uninitialised-read, race and async-copy checks described in smem.py; global memory is the
caller's arrays, bounds-checked on every per-thread access.

Control flow: scf.for / scf.while with uniform bounds loop in Python; scf.if on a uniform
condition branches.  With a per-lane condition (or bounds) both sides run under lane masks and the
results are merged per lane; a barrier reached by part of a block, or a warp collective reached
by part of a warp, is a DivergenceError.

Element types: A and B f16 or bf16, D f32, f16 or bf16.  numpy has no bf16, so a bf16 memref is
handed over (and every bf16 value is kept) as uint16 bit patterns; lasscc.interp.bf16 converts
(`to_bf16(x)` rounds any float array to nearest even, `bf16_to_f32(bits)` is exact).

Op handlers live in arith_ops.py (arith) and lass_ops.py (lass dialects); this module holds the
interpreter core, control flow and the entry point.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from lasscc import streamk as SK
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation

from lasscc.diagnostics import LassError
from lasscc.dialects._common import memref_layout, operand_major
from lasscc.dialects.lass import KERNEL_ATTR, KernelFacts, kernel_facts
from lasscc.interp.banks import BankCounter
from lasscc.interp.errors import (
    AsyncHazardError,
    DeadlockError,
    DivergenceError,
    InFlightRead,
    InterpError,
    KernelArgumentError,
    UnsupportedError,
    describe_op,
    function_op_lines,
    op_text,
)
from lasscc.interp.smem import SharedMemory
from lasscc.interp.bf16 import BF16
from lasscc.interp.values import GlobalBuffer, float_codec, int_width, is_lanes, numpy_dtype
from lasscc.layout import elem_bytes
from lasscc.resources import unspecialized_threads

# op class -> handler(ex, op, operand_values) -> list of result values
HANDLERS: dict[type[Operation], Callable] = {}
# hook(executor, shared_memory) called when an Executor creates its shared memory
SMEM_HOOKS: list[Callable] = []
# called with each Executor after its slice's kernel returned (lasscc/interp/cluster.py's exit check)
EXIT_HOOKS: list[Callable] = []
TERMINATORS = (scf.YieldOp, func.ReturnOp, scf.ConditionOp)


def handler(*op_types: type[Operation]):
    """Register the decorated function as the semantics of ops of these classes."""

    def deco(fn):
        for t in op_types:
            HANDLERS[t] = fn
        return fn

    return deco


@dataclass
class ExecResult:
    """What `execute_kernel` did.  `d` is the caller's D array (written in place)."""

    d: np.ndarray
    level: int
    kernel: str
    grid: int  # threadblocks launched (1 at level 0)
    threads: int  # threads per block (configured; 0 at level 0)
    smem_bytes: int  # dynamic shared memory per block
    blocks_per_batch: int
    seconds: float
    ops_executed: int  # op executions (one per lane batch, not per thread)
    bank_report: list | None = None
    notes: list = field(default_factory=list)
    workspace: np.ndarray | None = None  # a split-K kernel's semaphores after the launch


# ---- the program: one kernel function, precompiled ----------------------------------------------
PER_THREAD_DIALECTS = ("lass_nv.", "lass_warp.", "lass_smem.", "lass_wg.", "lass_sched.", "lass_cluster.")


class Program:
    def __init__(self, func: FuncOp, facts=None):
        self.func = func
        self.name = func.sym_name.data
        self.ops = list(func.body.walk())
        self.opid = {op: i for i, op in enumerate(self.ops)}
        names = {op.name for op in self.ops}
        self.simt = any(n.startswith(PER_THREAD_DIALECTS) for n in names)
        if "lass.gemm" in names:
            self.level = 0
        elif self.simt:
            self.level = 4 if names & {"lass_smem.swizzle", "lass_nv.ldmatrix_x4", "lass_nv.cp_async",
                                        "lass_nv.wgmma_mma_async"} else 3
        elif any(n.startswith("lass_pipe.") for n in names):
            self.level = 2
        else:
            self.level = 1
        self.uses_smem = any(n.startswith(("lass_pipe.", "lass_warp.")) for n in names) or bool(
            names & {"lass_nv.ldmatrix_x4", "lass_nv.cp_async", "lass_nv.st_shared_v4"}
        )
        # the kernel's facts (lasscc.dialects.lass.KernelFacts) after lasscc-tile-threadblock
        # (`facts`: given by an entry point for kernels without `#lass.kernel`: interp/sm90_ops.py)
        self.facts = facts if facts is not None else _read_facts(func) if self.level > 0 else None
        self.config = self.facts.config if self.facts is not None else None
        # warp-specialized roles (lass_wg.warp_specialize, interp/roles.py); a cooperative wgmma kernel
        # has its producer warpgroup only once lasscc-warp-specialize made the roles: before, its
        # block is the consumers (every thread consumes, thread 0 also produces)
        self.has_roles = "lass_wg.warp_specialize" in names
        self.has_claims = "lass_sched.claim" in names  # a persistent tile loop (interp/sched.py)
        self.threads = (1 if self.config is None else
                        unspecialized_threads(self.config) if getattr(self.config, "is_wgmma", False) and not self.has_roles
                        else self.config.threads)
        ab = self.facts.ab_type if self.facts is not None else "f16"
        # bytes per A/B element: the SMEM size is stages * (BM + BN) * BK * this
        self.elem_bytes = elem_bytes(ab)
        # bytes per tile-copy access of the kernel's A and B (the config's `align`; 16 by default)
        self.access_bytes = self.config.access_bytes(ab) if self.config is not None else (16, 16)
        self._compiled: dict = {}
        self._lines: list | None = None
        for op in self.ops:  # fail before running anything
            if type(op) not in HANDLERS and not isinstance(op, TERMINATORS):
                raise UnsupportedError(
                    f"{describe_op(self.opid[op], op)}: the CPU executor has no semantics for '{op.name}'"
                )

    def compiled(self, block):
        entries = self._compiled.get(block)
        if entries is None:
            entries = []
            for op in block.ops:
                if isinstance(op, TERMINATORS):
                    entries.append((None, op, tuple(op.operands), ()))
                else:
                    fn = HANDLERS[type(op)]
                    prep = getattr(fn, "prepare", None)
                    if prep is not None:
                        try:
                            fn = prep(op)
                        except UnsupportedError as e:
                            raise UnsupportedError(f"{self.describe(self.opid[op])}: {e}") from None
                    entries.append((fn, op, tuple(op.operands), tuple(op.results)))
            self._compiled[block] = entries
        return entries

    def op_line(self, opid: int) -> str:
        """The op as printed in its function (SSA names as in a dump)."""
        if self._lines is None:
            self._lines = function_op_lines(self.func, self.ops) or []
        line = self._lines[opid] if opid < len(self._lines) else None
        return line or op_text(self.ops[opid])

    def describe(self, opid: int) -> str:
        return describe_op(opid, self.ops[opid], self.op_line(opid))


def _read_facts(func: FuncOp) -> KernelFacts:
    """The kernel's facts (the one accessor, kernel_facts); KernelArgumentError when it has none."""
    facts = kernel_facts(func)
    if facts is None:
        raise KernelArgumentError(
            f"kernel function @{func.sym_name.data} has no '{KERNEL_ATTR}' attribute: the executor "
            f"needs it for the grid, the threads per block and the shared-memory size"
        )
    return facts


def find_kernel(module: ModuleOp) -> FuncOp:
    funcs = [op for op in module.walk() if isinstance(op, FuncOp) and op.body.blocks]
    if not funcs:
        raise KernelArgumentError("the module has no function with a body to execute")
    for f in funcs:
        if any(o.name == "lass.gemm" for o in f.body.walk()):
            return f
    with_cfg = [f for f in funcs if KERNEL_ATTR in f.attributes]
    if with_cfg:  # several GEMM functions: the first, as `lasscc run` on the GPU (its first KernelSpec)
        return with_cfg[0]
    if len(funcs) == 1:
        return funcs[0]
    raise KernelArgumentError(
        f"cannot tell which of the functions {[f.sym_name.data for f in funcs]} is the kernel: "
        f"expected one with a '{KERNEL_ATTR}' attribute"
    )


# ---- one launch (all batches) -------------------------------------------------------------------
@dataclass
class Launch:
    m: int
    n: int
    k: int
    alpha: float | None
    beta: float | None
    banks: BankCounter | None
    check: bool
    batch: int = 1  # grid z: the batches of a batched kernel
    split: int = 1  # grid y: the split-K partitions (lasscc.splitk)
    grid_x: int = 1  # blocks along x (the output tiles of one batch)
    sync: object = None  # lasscc.interp.sync.GridSync of a launch whose CTAs synchronise


class Executor:
    """Runs the kernel for `nb` consecutive blocks starting at `block0`, all lanes vectorised."""

    def __init__(self, prog: Program, launch: Launch, block0: int, nb: int, batch_z: int = 0, part: int = 0,
                 slice_id: int = 0):
        self.prog = prog
        self.launch = launch
        self.batch_z = batch_z  # grid z index (the batch) of every block of this slice
        self.part = part  # grid y index (the split-K partition) of every block of this slice
        self.slice_id = slice_id  # this slice's place in the launch (lasscc.interp.sync)
        self.sync = launch.sync
        self.block0, self.nb = block0, nb
        cfg = prog.config
        self.threads = prog.threads  # threads per block
        self.tpl = self.threads if prog.simt else 1  # lanes per block
        self.L = nb * self.tpl
        self.lane = np.arange(self.L, dtype=np.int64)
        self.block_ids = block0 + self.lane // self.tpl
        self.thread_ids = self.lane % self.tpl if prog.simt else np.zeros(self.L, np.int64)
        self.mask = None  # None: all lanes active; else bool [L]
        self.env: dict = {}
        self.nops = 0
        self.banks = launch.banks
        self._smem = None
        self.roles = None  # the running lass_wg.warp_specialize's interp/roles.Roles

    # ---- names for messages ----
    def op(self, opid: int) -> str:
        return self.prog.describe(opid)

    def _z(self) -> str:
        return ((f" (partition {self.part})" if self.launch.split > 1 else "")
                + (f" of batch {self.batch_z}" if self.launch.batch > 1 else ""))

    def actor(self, a: int) -> str:
        b, t = divmod(int(a), self.threads)
        return f"thread {t} of block {self.block0 + b}{self._z()}"

    def block(self, b_local: int) -> str:
        return f"block {self.block0 + int(b_local)}{self._z()}"

    def cta_of(self, lanes) -> np.ndarray:
        """The launch-wide CTA number of each lane's block: (z * split + y) * grid_x + x."""
        la = self.launch
        return (self.batch_z * la.split + self.part) * la.grid_x + self.block_ids[np.asarray(lanes, np.int64)]

    def cta_name(self, cta: int) -> str:
        """How messages name launch-wide CTA `cta` (cta_of)."""
        la = self.launch
        yz, x = divmod(int(cta), la.grid_x)
        z, y = divmod(yz, la.split)
        return (f"block {x}" + (f" (partition {y})" if la.split > 1 else "")
                + (f" of batch {z}" if la.batch > 1 else ""))

    def where(self, op) -> str:
        return self.prog.describe(self.prog.opid[op])

    @property
    def smem(self) -> SharedMemory:
        if self._smem is None:
            size = self.prog.config.smem_bytes(self.prog.elem_bytes) if self.prog.config is not None else 0
            self._smem = SharedMemory(self.nb, size, self.threads, self, track=self.launch.check)
            for hook in SMEM_HOOKS:  # e.g. the sm_90a state's guard (interp/sm90_ops.py)
                hook(self, self._smem)
        return self._smem

    # ---- lanes ----
    def active_lanes(self) -> np.ndarray:
        return self.lane if self.mask is None else np.nonzero(self.mask)[0]

    def at(self, v, lanes):
        """Value v at `lanes` (an index array): gathered if per-lane, broadcast if uniform."""
        if is_lanes(v):
            return v[lanes]
        return np.full(len(lanes), v)

    def lanes_of(self, v):
        if is_lanes(v):
            return v
        return np.full(self.L, v)

    def uniform(self, v):
        """v as a uniform scalar when every active lane has the same value, else None."""
        if not isinstance(v, np.ndarray):
            return v
        if v.ndim == 0:
            return v[()]
        if v.ndim != 1:
            return None
        a = v if self.mask is None else v[self.mask]
        if a.size == 0:
            return None
        first = a[0]
        if a.size > 1 and not (a == first).all():
            return None
        if a.dtype == bool:
            return bool(first)
        if a.dtype.kind in "iu":
            return int(first)
        return first

    def select_lanes(self, cond, a, b):
        """Per lane: a where cond, else b (cond bool [L]); works for tiles [L, ...] too."""
        if a is b:
            return a
        if not (is_lanes(a) or is_lanes(b) or isinstance(a, np.generic) or isinstance(a, (int, float, bool))):
            raise UnsupportedError(f"cannot merge non-numeric values {type(a).__name__} per lane after divergent control flow")
        a_arr, b_arr = np.asarray(a), np.asarray(b)
        nd = max(a_arr.ndim, b_arr.ndim, 1)
        c = np.asarray(cond, bool).reshape((-1,) + (1,) * (nd - 1))
        return np.where(c, a_arr, b_arr)

    def full_warps(self, op, lanes=None):
        """Indices of active warps of a warp-collective op; DivergenceError if a warp is split."""
        W = self.L // 32
        if self.mask is None:
            return np.arange(W)
        m = self.mask.reshape(W, 32)
        anyw, allw = m.any(1), m.all(1)
        split = anyw & ~allw
        if split.any():
            w = int(np.argmax(split))
            raise DivergenceError(
                f"{self.where(op)}: only {int(m[w].sum())} of the 32 lanes of warp {w % (self.tpl // 32)} of "
                f"{self.block(w // (self.tpl // 32))} reach this warp-collective op"
            )
        return np.nonzero(allw)[0]

    def actors_for(self, lanes):
        """(lane, thread, actor) of the threads that execute a collective op on `lanes`:
        per-thread code: the lanes themselves; block-level code: every thread of each block."""
        if self.prog.simt:
            return lanes, lanes % self.threads, lanes
        T = self.threads
        lane_of = np.repeat(lanes, T)
        thread = np.tile(np.arange(T, dtype=np.int64), len(lanes))
        return lane_of, thread, lane_of * T + thread

    def barrier(self, op):
        if self.mask is None:
            self.smem.barrier(None)
            if self.sync is not None:
                self.sync.barrier(self.cta_of(np.arange(0, self.L, self.tpl)))
            return
        m = self.mask.reshape(self.nb, self.tpl)
        full, none = m.all(1), ~m.any(1)
        bad = ~(full | none)
        if bad.any():
            b = int(np.argmax(bad))
            raise DivergenceError(
                f"{self.where(op)}: only {int(m[b].sum())} of the {self.tpl} threads of {self.block(b)} reach "
                f"this barrier (a barrier in divergent code deadlocks)"
            )
        self.smem.barrier(np.nonzero(full)[0])
        if self.sync is not None:
            self.sync.barrier(self.cta_of(np.nonzero(full)[0] * self.tpl))

    # ---- interpretation ----
    def run_block(self, block) -> list:
        env = self.env
        for fn, op, operands, results in self.prog.compiled(block):
            if fn is None:
                return [env[v] for v in operands]
            try:
                out = fn(self, op, [env[v] for v in operands])
            except InFlightRead as e:  # an asynchronous result used before its wait (interp/sm90_ops.py)
                raise AsyncHazardError(f"{self.where(op)}: reads {e}") from None
            except DeadlockError as e:  # inside warp-specialized roles: wait for the other role (interp/roles.py)
                if self.roles is None or getattr(e, "final", False):  # final: every role waits
                    raise
                out = self.roles.blocked(e, lambda: fn(self, op, [env[v] for v in operands]))
            self.nops += 1
            if results:
                for r, v in zip(results, out):
                    env[r] = v
        return []

    def run(self, args: list) -> None:
        block = self.prog.func.body.block
        for a, v in zip(block.args, args):
            self.env[a] = v
        self.run_block(block)


# ---- control flow --------------------------------------------------------------------------------
@handler(scf.ForOp)
def _scf_for(ex: Executor, op, vals):
    lb, ub, step, *inits = vals
    body = op.body.block
    iv, *iargs = body.args
    env = ex.env
    ulb, uub, ustep = ex.uniform(lb), ex.uniform(ub), ex.uniform(step)
    cur = list(inits)
    if ustep is not None and int(ustep) <= 0:
        raise InterpError(f"{ex.where(op)}: expected a positive step, got {ustep}")
    if ulb is not None and uub is not None and ustep is not None:
        for i in range(int(ulb), int(uub), int(ustep)):
            env[iv] = i
            for a, v in zip(iargs, cur):
                env[a] = v
            cur = ex.run_block(body)
        return cur
    # per-lane bounds: run the loop under a mask until no lane has iterations left
    saved = ex.mask
    ivv = ex.lanes_of(lb).astype(np.int64)
    ubv, stv = ex.lanes_of(ub), ex.lanes_of(step)
    if ((stv <= 0) & (saved if saved is not None else True)).any():
        raise InterpError(f"{ex.where(op)}: expected a positive step")
    try:
        while True:
            act = ivv < ubv
            if saved is not None:
                act &= saved
            if not act.any():
                break
            ex.mask = act
            env[iv] = ivv
            for a, v in zip(iargs, cur):
                env[a] = v
            new = ex.run_block(body)
            cur = [ex.select_lanes(act, nv, cv) for nv, cv in zip(new, cur)]
            ivv = np.where(act, ivv + stv, ivv)
    finally:
        ex.mask = saved
    return cur


@handler(scf.IfOp)
def _scf_if(ex: Executor, op, vals):
    c = vals[0]
    u = ex.uniform(c)
    has_else = bool(op.false_region.blocks)
    if u is not None:
        if u:
            return ex.run_block(op.true_region.block)
        return ex.run_block(op.false_region.block) if has_else else []
    saved = ex.mask
    cm = np.asarray(c, bool)
    base = saved if saved is not None else np.ones(ex.L, bool)
    mt, me = base & cm, base & ~cm
    rt = re = None
    try:
        if mt.any():
            ex.mask = mt
            rt = ex.run_block(op.true_region.block)
        if has_else and me.any():
            ex.mask = me
            re = ex.run_block(op.false_region.block)
    finally:
        ex.mask = saved
    if not op.results:
        return []
    if rt is None:
        return re
    if re is None:
        return rt
    return [ex.select_lanes(cm, a, b) for a, b in zip(rt, re)]


@handler(scf.WhileOp)
def _scf_while(ex: Executor, op, vals):
    before, after = op.before_region.block, op.after_region.block
    env = ex.env
    cur = list(vals)
    saved = ex.mask
    live = None  # per-lane mode once the condition diverges
    try:
        while True:
            for a, v in zip(before.args, cur):
                env[a] = v
            cond, *fwd = ex.run_block(before)
            u = ex.uniform(cond) if live is None else None
            if u is not None:
                if not u:
                    return fwd
            else:
                cm = np.asarray(ex.lanes_of(cond), bool)
                base = ex.mask if ex.mask is not None else np.ones(ex.L, bool)
                stay = base & cm
                done = base & ~cm
                if live is None:
                    live = [None] * len(fwd)
                live = [ex.select_lanes(done, f, o) if o is not None else f for f, o in zip(fwd, live)]
                if not stay.any():
                    return live
                ex.mask = stay
            for a, v in zip(after.args, fwd):
                env[a] = v
            cur = ex.run_block(after)
    finally:
        ex.mask = saved


@handler(scf.ExecuteRegionOp)
def _scf_exec_region(ex: Executor, op, vals):
    return ex.run_block(op.region.block)


# ---- entry point ---------------------------------------------------------------------------------
def _as_module(module) -> ModuleOp:
    if isinstance(module, ModuleOp):
        return module
    if isinstance(module, str):
        from xdsl.parser import Parser

        from lasscc.universe import make_context

        return Parser(make_context(), module).parse_module()
    raise KernelArgumentError(f"expected an xDSL ModuleOp or MLIR text, got {type(module).__name__}")


def _flat_view(arr, size: int, name: str, dtype=None) -> np.ndarray:
    if not isinstance(arr, np.ndarray):
        raise KernelArgumentError(f"expected a numpy array for {name}, got {type(arr).__name__}")
    if arr.size != size:
        raise KernelArgumentError(f"expected {name} to have {size} elements, got {arr.size} (shape {arr.shape})")
    if not arr.flags.c_contiguous:
        raise KernelArgumentError(f"expected a C-contiguous array for {name} (it is used as flat memory)")
    if dtype is not None and np.dtype(dtype) == BF16 and arr.dtype.name == "bfloat16" and arr.dtype.itemsize == 2:
        arr = arr.view(np.uint16)  # ml_dtypes.bfloat16 (e.g. from torch / JAX): the same bits, shared memory
    if dtype is not None and arr.dtype != dtype:
        def show(dt):
            return "uint16 (bf16 bit patterns)" if np.dtype(dt) == BF16 else np.dtype(dt).name

        raise KernelArgumentError(f"expected {name} of dtype {show(dtype)}, got {show(arr.dtype)}")
    return arr.reshape(-1)


def swaps_ab(prog: Program) -> bool:
    """The kernel computes D^T = B^T . A^T (KernelFacts.swap_ab: a column-major D, or config swap_ab = 1): it takes
    (B, A, D, N, M, K) in its (A, B, D, M, N, K) parameters."""
    return prog.facts is not None and prog.facts.swap_ab


def is_batched(prog: Program) -> bool:
    """A batched kernel: 3-d (batch-first) memrefs at level 0, KernelFacts.batched after the passes."""
    if prog.facts is not None and prog.facts.batched:
        return True
    memrefs = [x for x in prog.func.body.block.args if isinstance(x.type, MemRefType)][:3]  # not a workspace W
    return any(x.type.get_num_dims() == 3 for x in memrefs)


def workspace_arg(prog: Program):
    """A split-K or stream-K kernel's workspace parameter W (where the kernel ABI, lasscc.config.kernel_params,
    puts it: after a wgmma kernel's tensor maps, if it has them yet), else None."""
    from lasscc.config import WORKSPACE_PARAM, kernel_params

    if prog.level == 0 or prog.facts is None or not prog.config.has_workspace:
        return None
    args = prog.func.body.block.args
    tmaps = sum(getattr(a.type, "name", "") == "lass_nv.tensor_map" for a in args)  # 3: D's too (epilogue "tma")
    names = kernel_params(tmaps > 0, prog.config.has_workspace, len(prog.facts.epilogue), d_map=tmaps == 3)
    if len(names) != len(args):
        raise KernelArgumentError(f"kernel @{prog.name}: expected the parameters ({', '.join(names)}), "
                                  f"got {len(args)}")
    return args[names.index(WORKSPACE_PARAM)]


def _bind_args(prog: Program, m, n, k, a, b, d, alpha, beta, labels=("A", "B", "D"), batch: int = 1,
               workspace: np.ndarray | None = None, extras=None) -> list:
    """Kernel arguments by kind and order: memrefs A, B, D; i32 M, N, K; floats alpha, beta; then a
    split kernel's workspace W (an int32 array, or the f32 / i32 partial sums of parallel split-K),
    then the fused epilogue's extras.  (m, n, k, a, b, d) are the kernel's own (already
    swapped for a swap_ab kernel); `labels` name the caller's arrays in messages."""
    block = prog.func.body.block
    memrefs = [x for x in block.args[:3 if prog.level == 0 else 8] if isinstance(x.type, MemRefType)]
    w_arg = workspace_arg(prog) if workspace is not None else None
    if w_arg is not None:
        want = numpy_dtype(w_arg.type.get_element_type(), "element type of W")
        flat = _flat_view(workspace, workspace.size, "the workspace W", want)
        if w_arg.type.get_num_dims() == 3:  # parallel split-K: S * batch partial M x N sums
            w_buf = GlobalBuffer("W", flat, m, n, w_arg.type, max(1, flat.size // max(1, m * n)))
        else:  # serial split-K: semaphore words
            w_buf = GlobalBuffer("W", flat, 1, flat.size, w_arg.type)
    if len(memrefs) != 3:
        raise KernelArgumentError(
            f"kernel @{prog.name}: expected three memref arguments (A, B, D), got {len(memrefs)}"
        )
    roles = {"A": (a, m, k), "B": (b, n, k), "D": (d, m, n)}
    batched = is_batched(prog)
    if batch != 1 and not batched:
        raise KernelArgumentError(
            f"kernel @{prog.name} is not batched (2-d operands): expected batch = 1, got {batch}"
        )
    bufs = {}
    for role, label, arg in zip("ABD", labels, memrefs):
        arr, rows, cols = roles[role]
        t = arg.type
        rank = t.get_num_dims()
        if rank != (3 if batched else 2):
            raise KernelArgumentError(
                f"kernel @{prog.name}: expected {role} as a {3 if batched else 2}-d memref, got {t}"
            )
        want = numpy_dtype(t.get_element_type(), f"element type of {role}")
        flat = _flat_view(arr, batch * rows * cols, label, want)
        layout = memref_layout(t)
        # A and B may be row- or column-major; after the passes D is in KernelFacts.kernel_d_layout
        # (row-major, or column-major for config swap_ab = 1)
        d_want = prog.facts.kernel_d_layout if prog.facts is not None else "row"
        if layout not in ("row", "col") or (role == "D" and prog.level > 0 and layout != d_want):
            expect = f"a {d_want}-major" if role == "D" else "a row- or column-major"
            raise KernelArgumentError(
                f"kernel @{prog.name}: expected {role} as {expect} memref, got {t} ({layout})"
            )
        mn = role != "D" and operand_major(t, role) == "mn"
        bufs[arg] = GlobalBuffer(role, flat, rows, cols, t, batch, mn_major=mn)
    ints = iter([m, n, k])
    floats = iter([alpha, beta])
    # the tensor maps of a wgmma kernel, over its A and B and, for the TMA-store epilogue, D
    # (lasscc-hopper-smem; lasscc.config.kernel_params' order)
    tmaps = iter(["A", "B", "D"])
    out = []
    n_fixed = 3 if prog.level == 0 else 8  # (A, B, D) / the kernel ABI; then tensor maps, W or the extras
    for arg in block.args[:n_fixed]:
        if arg in bufs:
            out.append(bufs[arg])
            continue
        w = int_width(arg.type)
        if w is not None:
            v = next(ints, None)
            if v is None:
                raise KernelArgumentError(f"kernel @{prog.name}: more integer arguments than M, N, K")
            out.append(int(v))
            continue
        codec = float_codec(arg.type)
        if codec is not None:
            v = next(floats, None)
            if v is None:
                raise KernelArgumentError(f"kernel @{prog.name}: more float arguments than alpha, beta")
            out.append(codec[0](np.float64(0.0 if v is None else v)))
            continue
        raise KernelArgumentError(f"kernel @{prog.name}: argument of unsupported type {arg.type}")
    rest = list(block.args[n_fixed:])  # a wgmma kernel's tensor maps, a split kernel's W, or the extras
    while rest and getattr(rest[0].type, "name", "") == "lass_nv.tensor_map":
        from lasscc.interp.values import host_tensor_map

        role = next(tmaps, None)
        out.append(host_tensor_map(prog, rest.pop(0).type, next((b for b in bufs.values() if b.role == role), None)))
    if w_arg is not None:  # W, then the extras (kernel_params)
        return out + [w_buf] + _bind_extras(prog, rest[1:], extras, m, n, batch)
    return out + _bind_extras(prog, rest, extras, m, n, batch)


def epilogue_kinds(prog: Program) -> tuple[str, ...]:
    """The kinds of the function's epilogue operands in its own terms (the lass.gemm's at level 0,
    the kernel's after lasscc-tile-threadblock: KernelFacts.kernel_epilogue)."""
    if prog.level == 0:  # the gemm's extras, or an unfused elementwise linalg op's inputs
        from lasscc.dialects.lass import GemmOp
        from lasscc.passes.fuse_epilogue import ELEMENTWISE, analyze

        kinds = {}
        for o in prog.ops:
            if isinstance(o, GemmOp):
                kinds.update(zip(o.extras, o.kinds))
            elif isinstance(o, ELEMENTWISE):
                fold = analyze(o, o.outputs[0])
                if not isinstance(fold, str):
                    kinds.update(a for a in fold.args if a != "v")
        return tuple(kinds.get(a, "?") for a in prog.func.body.block.args[3:])
    return tuple(k for k, _ in prog.facts.kernel_epilogue)


def _bind_extras(prog: Program, args, extras, m: int, n: int, batch: int) -> list:
    """The fused epilogue's extra operands (the caller's, in declared order: [n] / [m] vectors as
    1-d arrays, [mn] matrices in D's memory order, scalars as floats; a batched kernel's per-batch
    ones batch first) bound to the function's
    parameters after the fixed ones; (m, n) are the function's own (swapped for a swap_ab kernel,
    like D)."""
    from lasscc.dialects.epilogue import base_kind, is_per_batch

    kinds = epilogue_kinds(prog)
    extras = list(extras or ())
    if len(extras) != len(args) or len(kinds) != len(args):
        raise KernelArgumentError(f"kernel @{prog.name}: expected {len(args)} epilogue operands "
                                  f"({', '.join(kinds) or 'none'}), got {len(extras)}")
    out = []
    for k, (arg, kind, x) in enumerate(zip(args, kinds, extras)):
        label = f"epilogue operand {k} [{kind}]"
        if kind == "scalar":
            if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, float, np.floating, np.integer)):
                raise KernelArgumentError(f"expected a number for {label}, got {type(x).__name__}")
            out.append(np.float32(x))
            continue
        rows, cols = {"n": (1, n), "m": (1, m), "mn": (m, n)}[base_kind(kind)]
        lead = batch if is_per_batch(base_kind(kind), arg.type) else 1  # one per batch, or shared
        want = numpy_dtype(arg.type.get_element_type(), f"element type of {label}")
        flat = _flat_view(x, rows * cols * lead, label, want)
        out.append(GlobalBuffer(f"E{k}", flat, rows, cols, arg.type, lead))
    return out


def _run_reduction(module, prog: Program, m: int, n: int, k: int, args: list, launch: Launch, batch: int,
                   order: str) -> int:
    """Run parallel split-K's reduction kernel of `prog` (its REDUCE_ATTR function) on the GEMM's
    arguments: grid x reduce_blocks(M * N, threads), z the batch, in `order`; returns ops run."""
    from lasscc.interp.sync import launch_order
    from lasscc.passes.splitk_reduce import REDUCE_ATTR
    from lasscc.splitk import reduce_blocks

    fns = [f for f in module.walk() if isinstance(f, FuncOp) and REDUCE_ATTR in f.attributes
           and f.attributes[REDUCE_ATTR].data == prog.name]
    if not fns:
        raise KernelArgumentError(f"kernel @{prog.name} (split_k_mode = parallel): its reduction kernel "
                                  f"(a function with {REDUCE_ATTR} = \"{prog.name}\") is missing from the module")
    red = Program(fns[0])
    blocks = reduce_blocks(m * n, red.config.threads)
    rl = Launch(m, n, k, launch.alpha, launch.beta, None, launch.check, batch, 1, blocks, None)
    nb_max = max(1, min(blocks, 2048 // red.config.threads))
    slices = [(z, b0, min(nb_max, blocks - b0)) for z in range(batch) for b0 in range(0, blocks, nb_max)]
    nops = 0
    for i in launch_order(len(slices), order):
        z, b0, nb = slices[i]
        ex = Executor(red, rl, b0, nb, z, 0, i)
        ex.run(args)
        nops += ex.nops
    return nops


def _launch_scalar(prog: Program, name: str, value):
    """alpha / beta for the launch: the caller's value, else the kernel's (KernelFacts)."""
    if value is not None:
        return float(value)
    return float(getattr(prog.facts, name))


# A persistent tile loop (lass_sched) runs on PERSISTENT_CTAS CTAs on the CPU, so each walks several
# tiles; interp/sched.py registers its check of their claims in CLAIM_CHECKS when lasscc.interp
# loads it (sched imports this module, not the other way round).
PERSISTENT_CTAS = 2
CLAIM_CHECKS: list = []


def execute_kernel(
    module,
    m: int,
    n: int,
    k: int,
    a: np.ndarray,
    b: np.ndarray,
    d: np.ndarray,
    alpha: float | None = None,
    beta: float | None = None,
    *,
    report_banks: bool = False,
    check: bool = True,
    blocks_per_batch: int | None = None,
    batch: int = 1,
    order: str = "forward",
    workspace: np.ndarray | None = None,
    extras=None,
    ctas: int | None = None,
) -> ExecResult:
    """Run the kernel function of `module` (ModuleOp or MLIR text) for the whole grid.

    a: M x K in A's layout: row-major, or column-major (a K x M row-major array, element (i, k)
    at k*M + i); b: K x N in B's layout: column-major, i.e. an N x K row-major array (element
    (k, j) at j*K + k), or row-major (K x N); d: M x N, holding C on entry and D on exit, in D's layout: row-major, or for a
    column-major D (a level-0 `strided<[1, ?]>` D memref, or a swap_ab kernel)
    column-major, i.e. an N x M row-major array (element (i, j) at j*M + i).  These are always
    the user's M, N, A, B: a swap_ab kernel (D^T = B^T . A^T) is given (B, A, D, N, M, K)
    here.  Each has the dtype of its memref's
    element type: float16 / float32, or uint16 bit patterns for bf16 (lasscc.interp.bf16).  Any
    shape with the right size and C-contiguous layout is accepted (used as flat memory).
    alpha / beta are the launch's scalars; None means the `lass.gemm` attributes at level 0 and
    the kernel's facts (KernelFacts.alpha / beta) after the passes.
    `extras`: the fused epilogue's extra operands in declared order (lasscc.dialects.epilogue: an
    [n] vector of N values, an [m] vector of M, an [mn] matrix in D's memory order, a scalar as a
    number), each array of its memref's element type.
    `ctas`: the CTAs of a persistent kernel's launch (GemmConfig.persistent; None:
    interp/sched.PERSISTENT_CTAS), at most the tiles.
    `check=False` skips the uninitialised-read and race bookkeeping (bounds are always checked).
    A split-K kernel (lasscc.splitk) runs its partitions as grid y, its grid slices as
    cooperative threads in `order` ("forward", "reverse", "shuffle:SEED": lasscc.interp.sync),
    with the semaphores in `workspace` (int32, KernelSpec.workspace_bytes / 4 words, zero; None:
    a zeroed one of its own) and the happens-before check of D between CTAs.
    A stream-K kernel (lasscc.streamk) runs a persistent grid of `ctas` CTAs (None:
    streamk.CPU_CTAS), each its own slice, with the same scheduler, semaphores and checks.
    Raises a LassError subclass (lasscc.interp.errors) naming the op on any violation.
    """
    t0 = time.perf_counter()
    module = _as_module(module)
    prog = Program(find_kernel(module))
    m, n, k, batch = int(m), int(n), int(k), int(batch)
    if min(m, n, k, batch) <= 0:
        raise KernelArgumentError(f"expected positive sizes, got M={m}, N={n}, K={k}, batch={batch}")
    notes: list[str] = []
    launch = Launch(m, n, k, alpha, beta, BankCounter() if report_banks else None, check, batch)
    if prog.level == 0:
        args = _bind_args(prog, m, n, k, a, b, d, alpha, beta, batch=batch, extras=extras)
        ex = Executor(prog, launch, 0, 1)
        ex.run(args)
        return ExecResult(
            d, 0, prog.name, 1, 0, 0, 1, time.perf_counter() - t0, ex.nops,
            [] if report_banks else None, notes,
        )
    alpha = _launch_scalar(prog, "alpha", alpha)
    beta = _launch_scalar(prog, "beta", beta)
    labels = ("A", "B", "D")
    if swaps_ab(prog):
        # D^T = B^T . A^T: the kernel's A is our B (N x K), its B our A, its M our N; d's memory is
        # already the kernel's N x M D: row-major for a column-major D (element (i, j) at j*M + i),
        # column-major for a row-major D (config swap_ab = 1)
        m, n, a, b = n, m, b, a
        launch = Launch(m, n, k, alpha, beta, launch.banks, check, batch)
        labels = ("B (the kernel's A: swap_ab)", "A (the kernel's B: swap_ab)",
                  f"D ({'row' if prog.facts.d_layout == 'row' else 'column'}-major)")
    cfg = prog.config
    bm, bn, _ = cfg.threadblock
    grid = (-(-m // bm)) * (-(-n // bn))
    csize = 1
    if tuple(cfg.cluster) != (1, 1):  # whole clusters (lasscc.cluster), each run within one slice
        from lasscc.cluster import cluster_grid, size

        grid, csize = cluster_grid(-(-m // bm), -(-n // bn), cfg.cluster), size(cfg.cluster)
    split = cfg.split_k
    if cfg.split_k_mode == "cluster" and split > 1:  # the K partitions along x, a cluster each tile
        grid, csize, split = grid * split, split, 1  # (lasscc.cluster_splitk; interp/cluster.py)
    parallel = split > 1 and cfg.split_k_mode == "parallel"
    if cfg.is_streamk and ctas is not None and (isinstance(ctas, bool) or not isinstance(ctas, (int, np.integer))
                                                or ctas < 1):
        raise KernelArgumentError(f"expected a positive stream-K grid (ctas), got {ctas!r}")
    if cfg.has_workspace and workspace is None:
        from lasscc.splitk import workspace_bytes

        w_type = workspace_arg(prog).type
        dtype = numpy_dtype(w_type.get_element_type(), "element type of W")
        if cfg.is_streamk:  # flags zero, partial slots NaN-poisoned: a slot read before its write shows
            sk_ctas, tile = int(ctas or SK.CPU_CTAS), (bm, bn)
            workspace = np.zeros(SK.workspace_bytes(sk_ctas, tile) // 4, dtype)
            workspace[:SK.flag_word(0, sk_ctas, tile)] = np.array([np.nan], np.float32).view(np.int32)[0]
        else:
            workspace = np.zeros(workspace_bytes(split, grid, batch, cfg.split_k_mode, (m, n)) // 4, dtype)
    args = _bind_args(prog, m, n, k, a, b, d, alpha, beta, labels, batch, workspace if cfg.has_workspace else None,
                      extras)
    if cfg.is_streamk:
        # the persistent grid (lasscc.streamk), one CTA per slice: each CTA runs its own units and
        # may wait on another's fix-up
        grid, blocks_per_batch = int(ctas or SK.CPU_CTAS), 1
    tiles = grid
    if prog.has_claims:  # a tile loop: fewer CTAs than tiles, each walks several (interp/sched.py)
        from lasscc.schedule import launch_ctas, tiles_per_cta

        grid = launch_ctas(tiles, bool(cfg.persistent), tiles_per_cta(cfg), int(ctas or PERSISTENT_CTAS), csize)
    if blocks_per_batch is None:
        blocks_per_batch = max(1, 2048 // prog.threads) if prog.simt else 16
    if prog.has_roles:
        blocks_per_batch = 1  # roles park on failed waits: one block per slice (interp/roles.py)
    nb_max = max(1, min(grid, int(blocks_per_batch)))
    nb_max = -(-nb_max // csize) * csize  # a cluster's CTAs run together (interp/cluster.py)
    # grid slices: (z, y, first block, blocks), in the GPU's numbering (x fastest)
    slices = [(z, y, block0, min(nb_max, grid - block0))
              for z in range(batch) for y in range(split) for block0 in range(0, grid, nb_max)]
    from lasscc.interp.sync import GridSync, launch_order

    try:
        order_list = launch_order(len(slices), order)
    except ValueError as e:
        raise KernelArgumentError(str(e)) from None
    sync = GridSync(len(slices), order, prog.describe) if cfg.has_workspace and not parallel else None
    launch = Launch(m, n, k, alpha, beta, launch.banks, check, batch, split, grid, sync)
    totals = {"nops": 0, "unretired": 0}

    def run_slice(i: int) -> None:
        z, y, block0, nb = slices[i]
        ex = Executor(prog, launch, block0, nb, z, y, i)
        ex.run(args)
        for hook in EXIT_HOOKS:  # e.g. interp/cluster.py: no CTA exits while a peer may write its smem
            hook(ex)
        totals["nops"] += ex.nops
        if ex._smem is not None:
            totals["unretired"] += ex._smem.unretired()
        stores = getattr(ex.__dict__.get("_sm90"), "store_reads", None)
        if stores is not None:  # a TMA store still reading at the kernel's end (interp/tma_store_ops.py)
            stores.finish()

    if sync is not None:
        sync.run(run_slice)
    else:
        for i in order_list:
            run_slice(i)
    if prog.has_claims:
        for check in CLAIM_CHECKS:  # interp/sched.check_claims: each tile claimed by exactly one CTA
            check(launch, tiles, lambda o: prog.describe(prog.opid[o]))
    if parallel:  # the second launch: the reduction kernel, one thread per element of D
        totals["nops"] += _run_reduction(module, prog, m, n, k, args, launch, batch, order)
    nops, unretired = totals["nops"], totals["unretired"]
    if unretired:
        notes.append(f"{unretired} async 16-byte copies were never retired by a wait before the kernel returned")
    report = launch.banks.report(prog) if launch.banks is not None else None
    return ExecResult(
        d, prog.level, prog.name, grid * batch * split, prog.threads, cfg.smem_bytes(prog.elem_bytes), nb_max,
        time.perf_counter() - t0, nops, report, notes, workspace,
    )


# the op handlers (arith_ops.py, lass_ops.py) register themselves when lasscc.interp, the package,
# imports them: Python runs it before any of its modules, so they are in HANDLERS before a kernel runs

__all__ = ["execute_kernel", "ExecResult", "Executor", "Program", "find_kernel", "swaps_ab", "is_batched", "LassError"]
