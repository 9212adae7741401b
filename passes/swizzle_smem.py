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
  from an MN-major tile (lasscc.layout.mnmajor_tile_offset: atoms 128 bytes wide along M / N)
  of 16-bit elements, `ldmatrix_x4 trans` at k-line addresses (ldmatrix_a/b_trans_lane_src);
- MN-major tiles of 32- and 8-bit elements cannot use .trans (it transposes 16-bit elements);
  their loads come `interleaved` from lasscc-warp-mma (fragment row g + 8h = tile row 2g + h,
  lasscc.layout.frag_interleave), which puts the two rows a lane holds next to each other:
    tf32: two `lass_nv.ld_shared x 2` (ld.shared.v2.b32) per fragment, rows 2g, 2g+1 at k-lines t
      and t + 4 (layout.tf32_mn_lane_src), as CUTLASS reads 32-bit congruous tiles with LDS.  These
      tiles use Swizzle<2,5,2> instead of <3,4,3> (layout.MN_SWIZZLE): under <3,4,3> k-lines t and
      t ^ 1 put a half-warp's 32-byte pieces in the same banks (2 wavefronts instead of 1).
    s8: one `ldmatrix_x4 trans` at the k-lines of layout.s8_mn_trans_lane_src, which gives each
      lane a 2 x 2 byte block (M 2g, 2g+1) x (2 k) per matrix, then 4 `lass_nv.prmt` per fragment
      gather the 4 k of M 2g and of M 2g+1 from a matrix pair (per-lane selectors,
      layout.s8_mn_prmt_selectors).  Chosen over 4 byte loads + packing per register (16 LDS.U8
      and 12 ALU ops per fragment, 2-way bank conflicts: k-lines k and k + 8 share banks) and
      over ldmatrix without .trans (each lane would receive 4 M of one k: the transpose would
      need shuffles across lanes): 1 ldmatrix + 4 prmt, and the spread k-lines of each 8-row
      phase are 8 different lines mod 8, so conflict-free under Swizzle<3,4,3>.  (CUTLASS's
      int8 tensor-op GEMMs read K-major operands only; this path is lasscc's own.)
  An `interleaved` load on any other ring, or a plain one on these, is rejected;
- tile copies -> accesses of w bytes (w = `align` of the kernel's config times the element bytes for
  the copied operand, 16 by default) under the copy thread map (lasscc.layout.tile_copy_map),
  each predicated on the copy's predicate and on the access lying inside the operand (rows < M or
  N, k < K; the contiguous dimension a multiple of w / e, so an access is wholly in or out).  A
  w-byte access starts at a multiple of w, so it stays inside one swizzle chunk (16 bytes under
  Swizzle<3,4,3>, 32 under the <2,5,2> of 32-bit MN-major tiles) and the swizzled address of its
  first byte is that of the whole access.  Multistage copies
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
from lasscc.passes._build import ArithBuilder, erase_lowered, is_kernel, kernel_ab_type, kernel_arg, kernel_config
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
    kmajor_tile_offset,
    ldmatrix_a_lane_src,
    ldmatrix_a_trans_lane_src,
    ldmatrix_b_lane_src,
    ldmatrix_b_trans_lane_src,
    mn_swizzle_params,
    mnmajor_tile_offset,
    s8_mn_prmt_selectors,
    s8_mn_trans_lane_src,
    swizzle_offset_split,
    tf32_mn_lane_src,
    tile_copy_map,
    tile_copy_whole_lines,
)
from lasscc.resources import copy_is_loop
from lasscc.source import op_location

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
        # the lane values below are named, and some are the same value, some unused: built anew
        # each (ArithBuilder's reuse off), CSE leaves the names it always left (a used one's)
        if isinstance(first, lass_nv.ThreadIdOp):  # lasscc-warp-mma's; reuse it
            self.tid = first.result
            b = ArithBuilder(InsertPoint.after(first), reuse=False)
        else:
            b = ArithBuilder(InsertPoint.at_start(fn.body.block), reuse=False)
            self.tid = b.emit(lass_nv.ThreadIdOp.build(result_types=[i32]))
            self.tid.name_hint = "tid"
        lane = b.and_(self.tid, WARP_SIZE - 1)
        # per-lane ldmatrix source rows (lasscc.layout.ldmatrix_a/b_lane_src; 16-byte rows, so the
        # k offset of the second matrix column is 16 bytes of elements: 8 f16, 4 f32, 16 i8) and,
        # for .trans, k-lines (ldmatrix_a/b_trans_lane_src); unused ones are removed by the
        # dead-code elimination after the pass
        eb = elem_bytes(kernel_ab_type(fn))
        lane_i = b.idx(lane)
        self.a_row, self.a_k, self.b_row, self.b_k, self.at_row, self.at_k, self.bt_row, self.bt_k = (
            b.val(v) for v in (*ldmatrix_a_lane_src(lane_i, eb), *ldmatrix_b_lane_src(lane_i, eb),
                               *ldmatrix_a_trans_lane_src(lane_i), *ldmatrix_b_trans_lane_src(lane_i)))
        for v, n in ((self.a_row, "lds_a_row"), (self.a_k, "lds_a_k"), (self.b_row, "lds_b_row"), (self.b_k, "lds_b_k"),
                     (self.at_row, "ldst_a_row"), (self.at_k, "ldst_a_k"), (self.bt_row, "ldst_b_n"),
                     (self.bt_k, "ldst_b_k")):
            v.name_hint = n
        self.lane = lane
        self._mn_lanes: dict[int, tuple[SSAValue, ...]] = {}
        self.built: dict[Block, dict] = {}  # the ArithBuilders' `shared` dict of each block (`rewrite`)

    def mn_lanes(self, eb: int) -> tuple[SSAValue, ...]:
        """Per-lane values of the interleaved fragment loads of MN-major tiles (lasscc.layout,
        "fragments of MN-major tf32 and s8 tiles"), built once, on first use, after the other lane
        values: tf32 (eb 4): (row 2g, k-line t) of its ld.shared.v2 (tf32_mn_lane_src); s8 (eb 1):
        the k-line of its ldmatrix.x4.trans row (s8_mn_trans_lane_src) and the prmt selectors
        (s8_mn_prmt_selectors)."""
        if eb not in self._mn_lanes:
            anchor = self.bt_k.owner if not self._mn_lanes else self._mn_anchor
            b = ArithBuilder(InsertPoint.after(anchor), reuse=False)  # (named values, as above)
            lane = b.idx(self.lane)
            if eb == 4:  # the lane part (load 0); load `load` adds tf32_mn_lane_src(0, load)
                vals = tuple(b.val(v) for v in tf32_mn_lane_src(lane, 0))
                names = ("lds_tf32_row", "lds_tf32_k")
            else:
                vals = tuple(b.val(v) for v in (s8_mn_trans_lane_src(lane)[1], *s8_mn_prmt_selectors(lane)))
                names = ("ldst_s8_k", "prmt_lo", "prmt_hi")
            for v, n in zip(vals, names):
                v.name_hint = n
            self._mn_anchor = vals[-1].owner
            self._mn_lanes[eb] = vals
        return self._mn_lanes[eb]

    def addr(self, b: ArithBuilder, ring: SSAValue, slot: SSAValue, row: SSAValue, k: SSAValue,
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
        params = (SWIZZLE_BITS, SWIZZLE_BASE, SWIZZLE_SHIFT)
        if rt.is_mn_major:  # the whole offset through the swizzle
            params = mn_swizzle_params(eb)
            row_c = k_c = xor_c = add_c = 0
            logical = mnmajor_tile_offset(b.idx(row), b.idx(k), rows, bk, eb, swizzled=False)
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
            logical = kmajor_tile_offset(0 if row_var is None else b.idx(row_var),
                                         0 if k_var is None else b.idx(k_var), bk, eb, swizzled=False)
        phys = logical = b.val(logical)
        if self.swizzle:
            phys = b.emit(lass_smem.SwizzleOp.build(
                operands=[logical], result_types=[i32],
                attributes={"bits": IntegerAttr(params[0], 64), "base": IntegerAttr(params[1], 64),
                            "shift": IntegerAttr(params[2], 64)}))
        else:
            add_c = row_c * bk * eb + k_c * eb
        if xor_c:
            phys = b.emit(arith.XOrIOp(phys, b.const(xor_c)))
        offset = ring.owner.offset.value.data
        return b.add(b.add(phys, b.add(b.mul(slot, rt.tile_bytes()), offset)), add_c)

    def width(self, op) -> int:
        """Bytes per access of the operand `op` copies (the kernel config's `align`; 16 by default)."""
        return self.access[0 if op.operand.data == "A" else 1]

    def chunks(self, b: ArithBuilder, ring_t: lass_pipe.RingType, w: int):
        """[(row, k)] of this thread's w-byte accesses of one tile (lasscc.layout.tile_copy_map):
        w / e elements along k of a K-major tile, along row of an MN-major one."""
        _, rows, bk = ring_t.get_shape()
        eb = ring_t.element_type.bitwidth // 8
        major = ring_t.major.data
        iters = copy_iterations(rows, bk, eb, self.threads, w)
        if self._whole_lines(ring_t, w):
            # every iteration moves a whole number of lines: the thread part is computed once (one
            # column per thread, so the column bound is tested once per copy) and iteration it adds
            # tile_copy_map(0, it), a constant along the lines
            # (as Idx even where a part folds to an int, so every iteration shares its SSA value)
            r0, k0 = (b.idx(v) for v in tile_copy_map(b.idx(self.tid), 0, self.threads, rows, bk, eb, major, w))
            out = [tile_copy_map(0, it, self.threads, rows, bk, eb, major, w) for it in range(iters)]
            return [(b.val(r0 + dr), b.val(k0 + dk)) for dr, dk in out]
        tid = b.idx(self.tid)
        return [tuple(b.val(v) for v in tile_copy_map(tid, it, self.threads, rows, bk, eb, major, w))
                for it in range(iters)]

    def _whole_lines(self, ring_t: lass_pipe.RingType, w: int) -> bool:
        """lasscc.layout.tile_copy_whole_lines of this tile copy."""
        _, rows, bk = ring_t.get_shape()
        return tile_copy_whole_lines(self.threads, rows, bk, ring_t.element_type.bitwidth // 8, ring_t.major.data, w)

    def in_bounds(self, b: ArithBuilder, op, r, k, mn: bool) -> SSAValue:
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

    def accesses(self, b: ArithBuilder, op, ring_t: lass_pipe.RingType, w: int, emit) -> None:
        """emit(builder, row, k) for each of this thread's w-byte accesses of a tile copy: unrolled
        (lasscc.layout.tile_copy_map, `chunks`), or, above lasscc.resources.COPY_UNROLL_MAX accesses per thread
        (narrow widths), as an `scf.for` over the iterations, so that the addresses and predicates
        of dozens of accesses are not all kept live in registers across the main loop."""
        _, rows, bk = ring_t.get_shape()
        eb = ring_t.element_type.bitwidth // 8
        mn = ring_t.is_mn_major
        major = ring_t.major.data
        iters = copy_iterations(rows, bk, eb, self.threads, w)
        if not copy_is_loop(iters):
            for r, k in self.chunks(b, ring_t, w):
                emit(b, r, k)
            return
        body = Block(arg_types=[i32])
        it = body.args[0]
        it.name_hint = "copy_it"
        bb = ArithBuilder(InsertPoint.at_end(body))
        if self._whole_lines(ring_t, w):  # one column per thread (as in `chunks`); its bound tested once
            r0, k0 = tile_copy_map(b.idx(self.tid), 0, self.threads, rows, bk, eb, major, w)
            c = b.val(r0 if mn else k0)
            self.in_bounds(b, op, c, c, mn)  # caches the column test outside the loop (its line test is dead)
            dr, dk = tile_copy_map(0, bb.idx(it), self.threads, rows, bk, eb, major, w)
            r, k = bb.idx(r0) + dr, bb.idx(k0) + dk
        else:
            r, k = tile_copy_map(bb.idx(self.tid), bb.idx(it), self.threads, rows, bk, eb, major, w)
        emit(bb, bb.val(r), bb.val(k))
        bb.insert(scf.YieldOp())
        b.insert(scf.ForOp(b.const(0), b.const(iters), b.const(1), [], Region(body)))

    def global_offset(self, b: ArithBuilder, op, r, k, mn: bool) -> SSAValue:
        if mn:  # column-major A (leading dim M) or row-major B (leading dim N): rows contiguous
            ld = kernel_arg(self.fn, "M" if op.operand.data == "A" else "N")
            return b.add(b.mul(b.add(op.k0, k), ld), b.add(op.row0, r))
        # row-major A and column-major B have K contiguous, leading dim K
        return b.add(b.mul(b.add(op.row0, r), kernel_arg(self.fn, "K")), b.add(op.k0, k))

    def rewrite(self, op: Operation) -> None:
        # the ops are rewritten in block order (`run`): a block's builders share what they built
        b = ArithBuilder(InsertPoint.before(op), shared=self.built.setdefault(op.parent_block(), {}))
        if isinstance(op, (lass_warp.LoadFragAOp, lass_warp.LoadFragBOp)):
            is_a = isinstance(op, lass_warp.LoadFragAOp)
            trans = op.ring.type.is_mn_major
            eb = op.ring.type.element_type.bitwidth // 8
            ilv = op.interleaved is not None
            if (trans and eb != 2) or ilv:
                if not (trans and eb != 2 and ilv):
                    raise PassFailedException(
                        f"{op_location(op)}: error: expected `interleaved` fragment loads exactly on MN-major rings of "
                        f"32- or 8-bit elements (ldmatrix .trans moves 16-bit ones; lasscc-warp-mma marks them), got "
                        f"{op.name}{' interleaved' if ilv else ' without it'} on {op.ring.type}")
                regs = self.frag_tf32_mn(b, op, is_a) if eb == 4 else self.frag_s8_mn(b, op, is_a)
                for old, new in zip(op.results, regs):
                    old.replace_all_uses_with(new)
                return
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

            def access(bb: ArithBuilder, r, k) -> None:
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

    def frag_tf32_mn(self, b: ArithBuilder, op, is_a: bool) -> list[SSAValue]:
        """An interleaved m16n8k8 tf32 fragment from an MN-major tile: two ld.shared.v2 per lane,
        rows (or n) 2g, 2g+1 at k-lines t and t + 4 (lasscc.layout.tf32_mn_lane_src), as CUTLASS
        reads 32-bit congruous tiles with LDS (no ldmatrix: .trans moves 16-bit elements).
        A: (a0, a1) then (a2, a3); B: (block 0 b0, block 1 b0) then the b1s."""
        tf_row, tf_k = self.mn_lanes(4)
        row = b.add(op.row, tf_row)
        loads = []
        for load in range(2):
            # tf32_mn_lane_src(lane, load) = its lane part (tf_row, tf_k) + tf32_mn_lane_src(0, load)
            k = b.add(b.add(op.k, tf_k), tf32_mn_lane_src(0, load)[1])
            loads.append(list(b.insert(lass_nv.LdSharedOp(self.addr(b, op.ring, op.slot, row, k), 2)).results))
        (x0, x1), (y0, y1) = loads
        return [x0, x1, y0, y1] if is_a else [x0, y0, x1, y1]

    def frag_s8_mn(self, b: ArithBuilder, op, is_a: bool) -> list[SSAValue]:
        """An interleaved m16n8k32 s8 fragment from an MN-major tile: ldmatrix.x4.trans at the
        k-lines of lasscc.layout.s8_mn_trans_lane_src (16 M or N from `row`), then per matrix pair
        (k half) a prmt for fragment row g (M 2g) and one for row g + 8 (M 2g + 1).
        A: (a0, a1, a2, a3); B: (block 0 b0, b1, block 1 b0, b1)."""
        s8_k, s8_lo, s8_hi = self.mn_lanes(1)
        addr = self.addr(b, op.ring, op.slot, op.row, b.add(op.k, s8_k))
        r = b.insert(lass_nv.LdmatrixX4Op.build(operands=[addr], result_types=[i32] * 4,
                                                properties={"trans": UnitAttr()})).results
        q = {}
        for half in range(2):
            for name, sel in (("lo", s8_lo), ("hi", s8_hi)):
                q[name, half] = b.emit(lass_nv.PrmtOp.build(operands=[r[2 * half], r[2 * half + 1], sel],
                                                         result_types=[i32]))
        if is_a:
            return [q["lo", 0], q["hi", 0], q["lo", 1], q["hi", 1]]
        return [q["lo", 0], q["lo", 1], q["hi", 0], q["hi", 1]]

    def run(self) -> None:
        ops = [o for o in self.fn.walk() if isinstance(o, _LOGICAL_OPS)]
        for op in ops:
            self.rewrite(op)
        erase_lowered(self.fn, ops)


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


def _add_var(b: ArithBuilder, v: SSAValue, lane: SSAValue) -> SSAValue:
    """v + lane, written as (variable part + lane) + constant so `addr` can split the constant off."""
    var, c = _split_const(v)
    return b.add(lane if var is None else b.add(var, lane), c)


@dataclass(frozen=True)
class SwizzleSmemPass(ModulePass):
    name = "lasscc-swizzle-smem"
    swizzle: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> bool:
        """Swizzle every kernel's logical SMEM accesses; False when there were none (the driver skips the tidy-up)."""
        changed = False
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
                changed = True
        return changed
