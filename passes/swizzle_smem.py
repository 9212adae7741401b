"""lasscc-swizzle-smem: logical shared-memory tiles -> physical, XOR-swizzled byte addresses.

Input contract: per-thread code (after lasscc-warp-mma) still holding `lass_pipe.ring` values
and the ops that address them logically: `lass_warp.load_frag_a/b`, `lass_pipe.copy_async`,
`lass_pipe.load_regs` / `store_regs`, plus `lass_pipe.commit/wait/barrier`.  Kernels without
them are left alone; a `lass_pipe.mma` (warp level not applied yet) is rejected.

Output contract: no `lass_pipe`/`lass_warp` ops remain.
- A K-major tile `rows x BK` of ring r, slot s lives at r.offset + s * tile_bytes; element
  (row, k) at logical byte (row * BK + k) * e (e = element bytes: 2 f16/bf16, 4 f32, 1 i8),
  physical `lass_smem.swizzle` of that
  (Swizzle<3,4,3>, lasscc.layout.swizzle_byte_offset; reference 003's crosswise layout).
- fragment loads -> `lass_nv.ldmatrix_x4` with per-lane row addresses
  (lasscc.layout.ldmatrix_a_lane_src / ldmatrix_b_lane_src), so register i is mma register i
  (every mma.sync shape reads 32 bytes of K per k-group: the same byte addresses for all types);
- tile copies -> accesses of w bytes (w = `align` of lass.config times the element bytes for
  the copied operand, 16 by default) under the copy thread map (lasscc.layout.tile_copy_map),
  each predicated on the copy's predicate and on the access lying inside the operand (rows < M or
  N, k < K; the contiguous dimension a multiple of w / e, so an access is wholly in or out).  A
  w-byte access starts at a multiple of w, so it stays inside one 16-byte swizzle chunk and the
  Swizzle<3,4,3> address of its first byte is that of the whole access.  Multistage copies
  (lasscc.layout.copy_kind): w = 16 `lass_nv.cp_async {bytes = 16}` (cp.async.cg), w = 8 or 4
  `lass_nv.cp_async {bytes = w}` (cp.async.ca), zero-fill on a false predicate; w = 2 or 1 (no
  cp.async exists) `lass_nv.ld_global_b` (zeros on a false predicate) + `lass_nv.st_shared_b`,
  synchronous: the barrier that precedes every read of the slot makes them visible.
  Register-staged tiles: `lass_nv.ld_global_v4` + `lass_nv.st_shared_v4` (w = 16) or
  `lass_nv.ld_global_b` + `lass_nv.st_shared_b` (narrower);
- commit / wait / barrier -> `lass_nv.cp_async_commit / cp_async_wait / bar_sync`.
Option `swizzle=false` keeps the logical (row-major) layout: the CPU executor's bank report
compares the two.
"""

from __future__ import annotations

from dataclasses import dataclass

from lasscc.dialects import lass_nv, lass_pipe, lass_smem, lass_warp
from lasscc.passes._build import Builder, is_kernel, kernel_ab_type, kernel_arg, kernel_config
from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, UnitAttr, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException

from lasscc.layout import (
    ACCESS_BYTES,
    SWIZZLE_BASE,
    SWIZZLE_BITS,
    SWIZZLE_SHIFT,
    WARP_SIZE,
    copy_iterations,
    copy_kind,
    elem_bytes,
    mn_atom_elems,
    swizzle_offset_split,
)
from lasscc.source import op_location

# Multistage tile copies of at most this many accesses per thread are unrolled (every 16-byte copy
# of the configs GemmConfig.validate accepts: 128x128x64 f16 on 128 threads is 8); narrower ones
# with more become an scf.for over the iterations (ptxas would otherwise keep each access's address
# and predicate live across the main loop and spill, e.g. 32 one-byte i8 accesses per operand).
COPY_UNROLL_MAX = 8

_LOGICAL_OPS = (
    lass_warp.LoadFragAOp,
    lass_warp.LoadFragBOp,
    lass_pipe.CopyAsyncOp,
    lass_pipe.LoadRegsOp,
    lass_pipe.StoreRegsOp,
    lass_pipe.CommitOp,
    lass_pipe.WaitOp,
    lass_pipe.BarrierOp,
)


class _Swizzler:
    def __init__(self, fn: func.FuncOp, swizzle: bool):
        self.fn, self.swizzle = fn, swizzle
        self.cfg = kernel_config(fn)
        self.threads = self.cfg.threads
        self.access = self.cfg.access_bytes(kernel_ab_type(fn))  # bytes per copy access of A, B
        self.staged: dict[SSAValue, tuple[int, list[list[SSAValue]]]] = {}
        self.k_ok: dict[tuple, SSAValue] = {}
        first = fn.body.block.first_op
        if isinstance(first, lass_nv.ThreadIdOp):  # lasscc-warp-mma's; reuse it
            self.tid = first.result
            b = Builder(InsertPoint.after(first))
        else:
            b = Builder(InsertPoint.at_start(fn.body.block))
            self.tid = b.v(lass_nv.ThreadIdOp.build(result_types=[i32]))
            self.tid.name_hint = "tid"
        lane = b.and_(self.tid, WARP_SIZE - 1)
        # per-lane ldmatrix source rows (lasscc.layout.ldmatrix_a/b_lane_src): 16-byte rows, so the
        # k offset of the second matrix column is 16 bytes of elements (8 f16, 4 f32, 16 i8)
        half = ACCESS_BYTES // elem_bytes(kernel_ab_type(fn))
        self.a_row = b.add(b.and_(lane, 7), b.mul(b.and_(b.shr(lane, 3), 1), 8))
        self.a_k = b.mul(b.shr(lane, 4), half)
        self.b_row = b.add(b.and_(lane, 7), b.mul(b.shr(lane, 4), 8))
        self.b_k = b.mul(b.and_(b.shr(lane, 3), 1), half)
        # .trans: lane gives k-line (lane & 7) of matrix lane >> 3 (ldmatrix_a/b_trans_lane_src);
        # unused ones are removed by the dead-code elimination after the pass
        self.at_row = b.mul(b.and_(b.shr(lane, 3), 1), 8)
        self.at_k = b.add(b.and_(lane, 7), b.mul(b.shr(lane, 4), 8))
        self.bt_row = b.mul(b.shr(lane, 4), 8)
        self.bt_k = b.add(b.and_(lane, 7), b.mul(b.and_(b.shr(lane, 3), 1), 8))
        for v, n in ((self.a_row, "lds_a_row"), (self.a_k, "lds_a_k"), (self.b_row, "lds_b_row"), (self.b_k, "lds_b_k"),
                     (self.at_row, "ldst_a_row"), (self.at_k, "ldst_a_k"), (self.bt_row, "ldst_b_n"),
                     (self.bt_k, "ldst_b_k")):
            v.name_hint = n

    def addr(self, b: Builder, ring: SSAValue, slot: SSAValue, row: SSAValue, k: SSAValue,
             lane_k_bytes_max: int | None = None) -> SSAValue:
        """Shared byte address of element (row, k) of ring[slot].

        Constant parts of `row` and `k` (an `arith.addi` of a constant, or a constant) are taken out
        of the swizzle where lasscc.layout.swizzle_offset_split proves it exact (`k` varies over at
        most `lane_k_bytes_max` bytes besides its constant): the swizzled variable part is then
        loop-invariant, one register serves every fragment of a k-group, and the row constant
        becomes an immediate offset of the access.
        """
        rt: lass_pipe.RingType = ring.type
        _, rows, bk = rt.get_shape()
        eb = rt.element_type.bitwidth // 8
        if not isinstance(ring.owner, lass_pipe.RingOp):
            raise PassFailedException(
                f"{op_location(self.fn)}: error: expected rings made by lass_pipe.ring in the kernel (their SMEM "
                "offset is static), got a ring passed in from outside"
            )
        if rt.is_mn_major:  # lasscc.layout.mnmajor_tile_offset; the whole offset through the swizzle
            row_c = k_c = xor_c = add_c = 0
            w = mn_atom_elems(rows, eb)
            if rows == w:
                logical = b.add(b.mul(k, w * eb), b.mul(row, eb))
            else:
                line = b.add(b.mul(b.div(row, w), bk), k)
                logical = b.add(b.mul(line, w * eb), b.mul(b.rem(row, w), eb))
        else:
            row_var, row_c = _split_const(row)
            k_var, k_c = _split_const(k)
            split = None
            if self.swizzle and lane_k_bytes_max is not None:
                split = swizzle_offset_split(row_c, k_c * eb, bk * eb, lane_k_bytes_max)
            elif self.swizzle:
                split = swizzle_offset_split(row_c, 0, bk * eb, 0) if k_c == 0 else None
            if split is None:  # the whole offset through the swizzle
                row_var, row_c, k_var, k_c, split = row, 0, k, 0, (0, 0)
            xor_c, add_c = split
            logical = b.mul(row_var, bk * eb) if row_var is not None else b.c(0)
            if k_var is not None:
                logical = b.add(logical, b.mul(k_var, eb))
        phys = logical
        if self.swizzle:
            phys = b.v(lass_smem.SwizzleOp.build(
                operands=[logical], result_types=[i32],
                attributes={"bits": IntegerAttr(SWIZZLE_BITS, 64), "base": IntegerAttr(SWIZZLE_BASE, 64),
                            "shift": IntegerAttr(SWIZZLE_SHIFT, 64)}))
        else:
            add_c = row_c * bk * eb + k_c * eb
        if xor_c:
            phys = b.v(arith.XOrIOp(phys, b.c(xor_c)))
        offset = ring.owner.offset.value.data
        return b.add(b.add(phys, b.add(b.mul(slot, rt.tile_bytes()), offset)), add_c)

    def width(self, op) -> int:
        """Bytes per access of the operand `op` copies (lass.config `align`; 16 by default)."""
        return self.access[0 if op.operand.data == "A" else 1]

    def chunks(self, b: Builder, ring_t: lass_pipe.RingType, w: int):
        """[(row, k)] of this thread's w-byte accesses of one tile (lasscc.layout.tile_copy_map):
        w / e elements along k of a K-major tile, along row of an MN-major one."""
        _, rows, bk = ring_t.get_shape()
        eb = ring_t.element_type.bitwidth // 8
        mn = ring_t.is_mn_major
        lines, line_elems = (bk, rows) if mn else (rows, bk)  # the tile in its global (storage) order
        per_row = line_elems * eb // w
        iters = copy_iterations(lines, line_elems, eb, self.threads, w)
        if self.threads % per_row == 0:
            # every iteration moves a whole number of lines: one column per thread and lines
            # r0 + it * (threads / per_row), so the column bound is tested once per copy
            r0 = b.div(self.tid, per_row)
            c = b.mul(b.rem(self.tid, per_row), w // eb)
            out = [(b.add(r0, it * (self.threads // per_row)), c) for it in range(iters)]
        else:
            out = []
            for it in range(iters):
                chunk = b.add(self.tid, it * self.threads)
                out.append((b.div(chunk, per_row), b.mul(b.rem(chunk, per_row), w // eb)))
        return [(c, line) for line, c in out] if mn else out

    def in_bounds(self, b: Builder, op, r, k, mn: bool) -> SSAValue:
        """The copy's predicate and this access inside the operand: row < M (A) or N (B), k < K.

        The contiguous dimension (K, or M / N for an MN-major operand) is a multiple of the
        operand's access width (lasscc.config.alignment_rules; `lasscc run` and the API check it),
        so an access is wholly in or out.
        """
        limit = kernel_arg(self.fn, "M" if op.operand.data == "A" else "N")

        def row_ok():
            return b.ult(b.add(op.row0, r), limit)

        def k_ok():
            return b.ult(b.add(op.k0, k), kernel_arg(self.fn, "K"))

        column, column_ok, line_ok = (r, row_ok, k_ok) if mn else (k, k_ok, row_ok)
        line = line_ok()
        key = (op, column)
        if key not in self.k_ok:  # shared by the chunks of one copy in the same column
            self.k_ok[key] = b.and_(op.pred, column_ok())
        return b.and_(self.k_ok[key], line)

    def accesses(self, b: Builder, op, ring_t: lass_pipe.RingType, w: int, emit) -> None:
        """emit(builder, row, k) for each of this thread's w-byte accesses of a tile copy: unrolled
        (lasscc.layout.tile_copy_map, `chunks`), or, above COPY_UNROLL_MAX accesses per thread
        (narrow widths), as an `scf.for` over the iterations, so that the addresses and predicates
        of dozens of accesses are not all kept live in registers across the main loop."""
        _, rows, bk = ring_t.get_shape()
        eb = ring_t.element_type.bitwidth // 8
        mn = ring_t.is_mn_major
        lines, line_elems = (bk, rows) if mn else (rows, bk)
        iters = copy_iterations(lines, line_elems, eb, self.threads, w)
        if iters <= COPY_UNROLL_MAX:
            for r, k in self.chunks(b, ring_t, w):
                emit(b, r, k)
            return
        per_row = line_elems * eb // w
        body = Block(arg_types=[i32])
        it = body.args[0]
        it.name_hint = "copy_it"
        bb = Builder(InsertPoint.at_end(body))
        if self.threads % per_row == 0:  # one column per thread (as in `chunks`); its bound tested once
            r0 = b.div(self.tid, per_row)
            c = b.mul(b.rem(self.tid, per_row), w // eb)
            self.in_bounds(b, op, c, c, mn)  # caches the column test outside the loop (its line test is dead)
            line = bb.add(r0, bb.mul(it, self.threads // per_row))
        else:
            chunk = bb.add(self.tid, bb.mul(it, self.threads))
            line, c = bb.div(chunk, per_row), bb.mul(bb.rem(chunk, per_row), w // eb)
        emit(bb, *((c, line) if mn else (line, c)))
        bb.insert(scf.YieldOp())
        b.insert(scf.ForOp(b.c(0), b.c(iters), b.c(1), [], Region(body)))

    def global_offset(self, b: Builder, op, r, k, mn: bool) -> SSAValue:
        if mn:  # column-major A (leading dim M) or row-major B (leading dim N): rows contiguous
            ld = kernel_arg(self.fn, "M" if op.operand.data == "A" else "N")
            return b.add(b.mul(b.add(op.k0, k), ld), b.add(op.row0, r))
        # row-major A and column-major B have K contiguous, leading dim K
        return b.add(b.mul(b.add(op.row0, r), kernel_arg(self.fn, "K")), b.add(op.k0, k))

    def rewrite(self, op: Operation) -> None:
        b = Builder(InsertPoint.before(op))
        if isinstance(op, (lass_warp.LoadFragAOp, lass_warp.LoadFragBOp)):
            is_a = isinstance(op, lass_warp.LoadFragAOp)
            trans = op.ring.type.is_mn_major
            if trans:
                lr, lk = (self.at_row, self.at_k) if is_a else (self.bt_row, self.bt_k)
                addr = self.addr(b, op.ring, op.slot, b.add(op.row, lr), b.add(op.k, lk))
            else:
                lr, lk = (self.a_row, self.a_k) if is_a else (self.b_row, self.b_k)
                # the lane's k offset (lr, lk: lasscc.layout.ldmatrix_*_lane_src) is 0 or 16 bytes
                row, k = _add_var(b, op.row, lr), _add_var(b, op.k, lk)
                addr = self.addr(b, op.ring, op.slot, row, k, lane_k_bytes_max=ACCESS_BYTES)
            ld = b.insert(lass_nv.LdmatrixX4Op.build(operands=[addr], result_types=[i32] * 4,
                                                     properties={"trans": UnitAttr()} if trans else {}))
            for old, new in zip(op.results, ld.results):
                old.replace_all_uses_with(new)
        elif isinstance(op, lass_pipe.CopyAsyncOp):
            mn = op.ring.type.is_mn_major
            w = self.width(op)
            kind = copy_kind(w)

            def access(bb: Builder, r, k) -> None:
                g = self.global_offset(bb, op, r, k, mn)
                s = self.addr(bb, op.ring, op.slot, r, k)
                p = self.in_bounds(bb, op, r, k, mn)
                if kind == "sync":  # no cp.async of 1 or 2 bytes: load (zeros when !p) and store now
                    v = bb.insert(lass_nv.LdGlobalBOp(op.source, g, p, w)).results
                    bb.insert(lass_nv.StSharedBOp.build(operands=[s, list(v)], attributes={"bytes": IntegerAttr(w, 64)}))
                else:
                    bb.insert(lass_nv.CpAsyncOp.build(operands=[op.source, g, s, p],
                                                      attributes={"bytes": IntegerAttr(w, 64)}))

            self.accesses(b, op, op.ring.type, w, access)
        elif isinstance(op, lass_pipe.LoadRegsOp):
            rows, bk = op.result.type.get_shape()
            mn = op.result.type.is_mn_major
            w = self.width(op)
            ring_like = lass_pipe.RingType((1, rows, bk), op.result.type.element_type, op.result.type.major.data)
            regs = []
            for r, k in self.chunks(b, ring_like, w):
                g = self.global_offset(b, op, r, k, mn)
                p = self.in_bounds(b, op, r, k, mn)
                if w == ACCESS_BYTES:
                    ld = lass_nv.LdGlobalV4Op.build(operands=[op.source, g, p], result_types=[i32] * 4)
                else:
                    ld = lass_nv.LdGlobalBOp(op.source, g, p, w)
                regs.append(list(b.insert(ld).results))
            self.staged[op.result] = (w, regs)
        elif isinstance(op, lass_pipe.StoreRegsOp):
            w, regs = self.staged[op.value]
            for (r, k), v in zip(self.chunks(b, op.ring.type, w), regs):
                addr = self.addr(b, op.ring, op.slot, r, k)
                if w == ACCESS_BYTES:
                    b.insert(lass_nv.StSharedV4Op.build(operands=[addr, *v]))
                else:
                    b.insert(lass_nv.StSharedBOp.build(operands=[addr, v], attributes={"bytes": IntegerAttr(w, 64)}))
        elif isinstance(op, lass_pipe.CommitOp):
            b.insert(lass_nv.CpAsyncCommitOp.build())
        elif isinstance(op, lass_pipe.WaitOp):
            b.insert(lass_nv.CpAsyncWaitOp.build(attributes={"pending": op.pending}))
        elif isinstance(op, lass_pipe.BarrierOp):
            b.insert(lass_nv.BarSyncOp.build())

    def run(self) -> None:
        ops = [o for o in self.fn.walk() if isinstance(o, _LOGICAL_OPS)]
        for op in ops:
            self.rewrite(op)
        for op in reversed(ops):
            op.detach()
            op.erase(safe_erase=False)
        for ring in [o for o in self.fn.walk() if isinstance(o, lass_pipe.RingOp)]:
            if ring.result.uses:
                user = next(iter(ring.result.uses)).operation
                raise PassFailedException(f"{op_location(user)}: error: unexpected use of a ring by '{user.name}'")
            ring.detach()
            ring.erase()


def _split_const(v: SSAValue) -> tuple[SSAValue | None, int]:
    """v as (variable part or None, integer constant): `x + c`, `c` or `x`."""
    owner = v.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return None, owner.value.value.data
    if isinstance(owner, arith.AddiOp):
        for var, c in ((owner.lhs, owner.rhs), (owner.rhs, owner.lhs)):
            if isinstance(c.owner, arith.ConstantOp) and isinstance(c.owner.value, IntegerAttr):
                return var, c.owner.value.value.data
    return v, 0


def _add_var(b: Builder, v: SSAValue, lane: SSAValue) -> SSAValue:
    """v + lane, written as (variable part + lane) + constant so `addr` can split the constant off."""
    var, c = _split_const(v)
    return b.add(lane if var is None else b.add(var, lane), c)


@dataclass(frozen=True)
class SwizzleSmemPass(ModulePass):
    name = "lasscc-swizzle-smem"
    swizzle: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in list(op.walk()):
            if not (isinstance(fn, func.FuncOp) and is_kernel(fn)):
                continue
            mma = next((o for o in fn.walk() if isinstance(o, lass_pipe.MmaOp)), None)
            if mma is not None:
                raise PassFailedException(
                    f"{op_location(mma)}: error: expected warp-level fragment loads (run lasscc-warp-mma first), got lass_pipe.mma"
                )
            if any(isinstance(o, _LOGICAL_OPS) for o in fn.walk()):
                _Swizzler(fn, self.swizzle).run()
