"""A hand-built sm_90a kernel at the instruction level (`lass_nv` + arith + scf): one CTA of one
warpgroup computes the 64 x N tile D = A . B^T of an M x K row-major A (M <= 64) and an N x K
row-major B (B^T's column-major storage, the "TN" GEMM), loading both by TMA onto one mbarrier
and multiplying with wgmma.mma_async from shared memory (SS).  The fixture of
tests/unit/test_sm90_ops.py (CPU executor, ptxas) and scripts/sm90_probe.py (GPU): it exercises
every sm_90a op of `lass_nv` before the passes that will emit them exist.

Kernel `@sm90_tile(%ta: !lass_nv.tensor_map<64xBKxT, swizzle_S>, %tb: !lass_nv.tensor_map<NxBKxT,
swizzle_S>, %d: memref<?x?xACC>, %m: i32, %n: i32)`, 128 threads, `Sm90TileKernel.smem_bytes` of
dynamic shared memory.  Per k-tile kt (K / BK of them, unrolled; BK = one swizzle line of K, at
least one wgmma K):

    thread 0: mbarrier.arrive.expect_tx(bar, A and B box bytes); TMA boxes of A and B -> bar
    all:      mbarrier.try_wait.parity(bar, kt & 1)           (phase kt)
              wgmma.fence; wgmma.mma_async per wgmma K (descriptors of lasscc.sm90_layout); commit;
              wgmma.wait_group 0; bar.sync                    (the tiles may be refilled)

then each thread stores its accumulators (sm90_layout.acc_coord) where row < M and col < N.  The
tile layouts, boxes and descriptors are lasscc.sm90_layout's (`tile_boxes`, `tile_descriptor`):
nothing here restates a formula.  `bug` plants one mistake for the tests: "no_expect_tx" (a plain
arrive), "wrong_parity" (waits on (kt & 1) ^ 1), "no_wait" (no mbarrier wait), "wrong_sbo" (the
descriptors' stride byte offset halved), "no_wgmma_wait" (the epilogue reads accumulators without
wgmma.wait_group).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    UnitAttr,
    f32,
    i1,
    i32,
    i64,
)
from xdsl.ir import Block, Region
from xdsl.rewriter import InsertPoint

from lasscc import sm90_layout as S
from lasscc.dialects import lass_nv
from lasscc.ir_math import Idx
from lasscc.layout import K_MAJOR
from lasscc.passes._build import ArithBuilder
from lasscc.passes.lower_to_llvm import MAXNTID_ATTR, SM90_KERNEL_ATTR
from lasscc.runtime.tma import ELEM_BYTES, TensorMapSpec, operand_map, swizzle_mode

KERNEL_NAME = "sm90_tile"
THREADS = S.WARPGROUP_THREADS  # one warpgroup
BUGS = ("no_expect_tx", "wrong_parity", "no_wait", "wrong_sbo", "no_wgmma_wait")
# memory element type of each wgmma A/B type ("tf32" operands are f32 in memory, "s8" i8)
MEMORY_TYPE = {"f16": "f16", "bf16": "bf16", "tf32": "f32", "s8": "i8"}
ACC_TYPE = {"f16": "f32", "bf16": "f32", "tf32": "f32", "s8": "i32"}


@dataclass(frozen=True)
class Sm90TileKernel:
    """The kernel's compile-time shape: wgmma A/B type (f16, bf16, tf32, s8), N, K (a multiple of
    `bk`), the swizzle mode ("none", "32b", "64b", "128b") of both tensor maps, how A and B are
    stored ("k": K-major, row-major A / column-major B; "mn": MN-major, a column-major A stored
    K x M / a row-major B stored K x N, read through the descriptor's transpose bit; f16 / bf16
    only), `a_regs`: A from registers (wgmma RS: each thread loads its fragment, sm90_layout.
    a_frag_coord, with ld.shared from the landed tile; K-major A only), `f16_acc` (f16 inputs:
    f16 accumulators, two per register, and an f16 D), `loop` (the k-tiles as an scf.for with
    loop-carried accumulators), a planted bug."""

    ab_type: str = "f16"
    n: int = 64
    k: int = 128
    swizzle: str = "128b"
    bug: str | None = None
    a_major: str = K_MAJOR
    b_major: str = K_MAJOR
    a_regs: bool = False
    f16_acc: bool = False  # f16 inputs only: accumulate (and store D) in f16
    loop: bool = False  # the k-tiles as an scf.for carrying the accumulators (else unrolled)

    def __post_init__(self):
        if self.ab_type not in MEMORY_TYPE:
            raise ValueError(f"ab_type must be one of {', '.join(MEMORY_TYPE)}, got {self.ab_type!r}")
        if self.bug is not None and self.bug not in BUGS:
            raise ValueError(f"bug must be one of {', '.join(BUGS)}, got {self.bug!r}")
        err = S.wgmma_shape_error(self.ab_type, self.n, {"i32": "s32"}.get(self.acc_type, self.acc_type),
                                  self.a_major, self.b_major, self.a_regs)
        if err or self.k % self.bk:
            raise ValueError(err or f"K = {self.k} is not a multiple of the k-tile {self.bk}")
        for rows, major in ((S.WGMMA_M, self.a_major), (self.n, self.b_major)):
            err = S.tile_error(rows, self.bk, self.elem_bytes, major, self.mode)
            if err:
                raise ValueError(err)

    @property
    def dtype(self) -> str:
        """Memory element type of A and B (lasscc's name)."""
        return MEMORY_TYPE[self.ab_type]

    @property
    def acc_type(self) -> str:
        return "f16" if self.f16_acc else ACC_TYPE[self.ab_type]

    @property
    def elem_bytes(self) -> int:
        return ELEM_BYTES[self.dtype]

    @property
    def mode(self) -> S.SwizzleMode:
        return swizzle_mode(self.swizzle)

    @property
    def wgmma_k(self) -> int:
        return S.WGMMA_K_BYTES // self.elem_bytes

    @property
    def bk(self) -> int:
        """K of one k-tile: a swizzle line of elements, at least one wgmma K (two 16-byte boxes without swizzle)."""
        return max(self.mode.width_bytes // self.elem_bytes, self.wgmma_k)

    def boxes(self, rows: int, major: str):
        """sm90_layout.tile_boxes of a rows x bk tile: [(box (inner, outer), coords, smem offset)]."""
        return S.tile_boxes(rows, self.bk, self.elem_bytes, major, self.mode)

    def tile_bytes(self, rows: int) -> int:
        return rows * self.bk * self.elem_bytes

    @property
    def a_offset(self) -> int:
        return 0

    @property
    def b_offset(self) -> int:
        return _round_up(self.tile_bytes(S.WGMMA_M), S.tma_smem_align(self.mode))

    @property
    def bar_offset(self) -> int:
        return _round_up(self.b_offset + self.tile_bytes(self.n), lass_nv.MBARRIER_BYTES)

    @property
    def smem_bytes(self) -> int:
        return self.bar_offset + lass_nv.MBARRIER_BYTES

    @property
    def tx_bytes(self) -> int:
        """Bytes the TMA boxes of one k-tile complete on the mbarrier."""
        return sum(S.tile_tx_bytes(rows, self.bk, self.elem_bytes) for rows in (S.WGMMA_M, self.n))

    def tensor_map_type(self, rows: int, major: str) -> lass_nv.TensorMapType:
        (inner, outer), _, _ = self.boxes(rows, major)[0]
        return lass_nv.TensorMapType(outer, inner, _mlir_type(self.dtype), self.swizzle)

    def tensor_map_specs(self, m: int, n: int, k: int) -> tuple[TensorMapSpec, TensorMapSpec]:
        """The host's tensor maps of A (m x k) and B (n x k) for this kernel: over the matrix as
        stored, m x k (K-major) or k x m (MN-major) for A, likewise for B."""
        out = []
        for rows, size, major in ((S.WGMMA_M, m, self.a_major), (self.n, n, self.b_major)):
            t = self.tensor_map_type(rows, major)
            out.append(operand_map(self.dtype, size, k, *t.box, t.swizzle_mode, major))
        return tuple(out)

    def module(self) -> ModuleOp:
        return build(self)

    def kernel_spec(self):
        """How lasscc.runtime.gemm_runner launches it: one block of 128 threads computing D (M x N
        row-major, M <= 64, N <= n, K <= k) from TMA maps of A (M x K) and B (N x K)."""
        from lasscc.config import TMAP_PARAM, KernelSpec

        return KernelSpec(
            name=KERNEL_NAME, threads=THREADS, smem_bytes=self.smem_bytes, tile_m=S.WGMMA_M, tile_n=self.n,
            raster=1, tile_k=self.bk, a_dtype=self.dtype, b_dtype=self.dtype, d_dtype=self.acc_type,
            acc_dtype=self.acc_type, a_align=16 // self.elem_bytes, b_align=16 // self.elem_bytes,
            a_layout="row" if self.a_major == K_MAJOR else "col", b_layout="col" if self.b_major == K_MAJOR else "row",
            params=(TMAP_PARAM + "A", TMAP_PARAM + "B", "D", "M", "N"),
            tensor_maps=tuple((name,) + self.tensor_map_type(rows, major).box + (self.swizzle, major)
                              for name, rows, major in (("A", S.WGMMA_M, self.a_major), ("B", self.n, self.b_major))))


def _round_up(x: int, a: int) -> int:
    return -(-x // a) * a


def _mlir_type(name: str):
    from xdsl.dialects.builtin import bf16, f16, i8

    return {"f16": f16, "bf16": bf16, "f32": f32, "i8": i8, "i32": i32}[name]


def _if(b: ArithBuilder, cond, body) -> None:
    """scf.if cond { body(builder) }."""
    blk = Block()
    op = scf.IfOp(b.val(cond), [], Region(blk), None)
    b.insert(op)
    inner = ArithBuilder(InsertPoint.at_end(blk))
    body(inner)
    inner.insert(scf.YieldOp())


def _descriptor(b: ArithBuilder, kern: Sm90TileKernel, base: int, rows: int, major: str, k_offset: int):
    """The i64 wgmma descriptor of rows x wgmma-K at k_offset of the tile at dynamic-smem byte `base`."""
    addr = b.idx(b.emit(lass_nv.SharedAddressOp(operands=[b.const(base)], result_types=[i32])))
    desc = S.tile_descriptor(addr, rows, kern.bk, kern.elem_bytes, major, kern.mode, k_offset=k_offset)
    if kern.bug == "wrong_sbo":
        desc = dataclasses.replace(desc, stride_byte_offset=desc.stride_byte_offset // 2)
    lo, hi = desc.words()
    lo64 = b.emit(arith.ExtUIOp(b.val(lo), i64))
    return b.emit(arith.OrIOp(lo64, b.const(hi << 32, i64)))


def _k_tile(b: ArithBuilder, kern: Sm90TileKernel, kt, accs: list, operands, bar, producer, t: Idx) -> list:
    """One k-tile (kt: an int when unrolled, an Idx in the scf.for): TMA by the producer, the wait
    on phase kt, the wgmmas over the k-tile, commit, wait, bar.sync; the new accumulators."""
    n_kt = kern.k // kern.bk
    coords = []  # computed here (the scf.if body below is another insertion point)
    for _name, tmap, base, rows, major in operands:
        for _box, (c0, c1), off in kern.boxes(rows, major):
            k0 = kt * kern.bk  # coordinates (inner, outer): K runs along the inner one of a K-major tile
            inner, outer = (k0 + c0, c1) if major == K_MAJOR else (c0, k0 + c1)
            coords.append((tmap, b.val(inner), b.val(outer), base + off))

    def produce(pb: ArithBuilder) -> None:
        if kern.bug == "no_expect_tx":
            pb.insert(lass_nv.MbarrierArriveOp(operands=[bar]))
        else:
            pb.insert(lass_nv.MbarrierArriveExpectTxOp(operands=[bar, pb.const(kern.tx_bytes)]))
        for tmap, inner, outer, dst in coords:
            pb.insert(lass_nv.TmaLoad2dOp(operands=[tmap, inner, outer, pb.const(dst), bar]))

    _if(b, producer, produce)
    if kern.bug != "no_wait":
        parity = (kt & 1) ^ (1 if kern.bug == "wrong_parity" else 0)
        b.insert(lass_nv.MbarrierWaitParityOp(operands=[bar, b.val(parity)]))
    steps = list(range(0, kern.bk, kern.wgmma_k))
    a_frags = [_a_fragment(b, kern, t, kk) for kk in steps] if kern.a_regs else None
    b.insert(lass_nv.WgmmaFenceOp())
    for j, kk in enumerate(steps):
        da = a_frags[j] if kern.a_regs else _descriptor(b, kern, kern.a_offset, S.WGMMA_M, kern.a_major, kk)
        db = _descriptor(b, kern, kern.b_offset, kern.n, kern.b_major, kk)
        if j == 0 and not isinstance(kt, int):  # C is ignored in the first k-tile's first wgmma
            scale = b.emit(arith.CmpiOp(b.val(kt), b.const(0), "ne"))
        else:
            scale = b.emit(arith.ConstantOp(IntegerAttr(0 if kt == 0 and j == 0 else 1, i1)))
        op = b.insert(lass_nv.WgmmaMmaAsyncOp(da, db, accs, scale, kern.n, kern.ab_type,
                                              trans_a=0 if kern.a_regs else S.TRANS_BIT[kern.a_major],
                                              trans_b=S.TRANS_BIT[kern.b_major]))
        accs = list(op.results)
    b.insert(lass_nv.WgmmaCommitGroupOp())
    if kern.bug != "no_wgmma_wait" or (isinstance(kt, int) and kt + 1 < n_kt):
        b.insert(lass_nv.WgmmaWaitGroupOp(attributes={"pending": IntegerAttr(0, i64)}))
    b.insert(lass_nv.BarSyncOp())  # every warp is done reading the tiles before they are refilled
    return accs


def _a_fragment(b: ArithBuilder, kern: Sm90TileKernel, t: Idx, k_offset: int) -> list:
    """Thread t's 4 A registers of the wgmma at k_offset (RS): register r holds elements
    a_frag_coord(t, r, p), p = 0 .. 4/eb - 1, adjacent along K, so one ld.shared.b32 at the
    swizzled address of part 0 (a 4-byte word never crosses a 16-byte chunk) reads them."""
    regs = []
    for r in range(S.A_FRAG_REGS):
        row, kk = S.a_frag_coord(t, r, 0, kern.elem_bytes)
        off = S.tile_offset(row, kk + k_offset, S.WGMMA_M, kern.bk, kern.elem_bytes, K_MAJOR, kern.mode)
        addr = S.swizzle(off + kern.a_offset, kern.mode)
        regs.append(b.insert(lass_nv.LdSharedOp(b.val(addr), 1)).results[0])
    return regs


def build(kern: Sm90TileKernel) -> ModuleOp:
    """The module holding @sm90_tile for `kern` (see the module docstring)."""
    ta_t, tb_t = kern.tensor_map_type(S.WGMMA_M, kern.a_major), kern.tensor_map_type(kern.n, kern.b_major)
    acc_t = _mlir_type(kern.acc_type)
    d_t = MemRefType(acc_t, [DYNAMIC_INDEX, DYNAMIC_INDEX])
    block = Block(arg_types=[ta_t, tb_t, d_t, i32, i32])
    ta, tb, d, m_arg, n_arg = block.args
    for a, name in zip(block.args, ("ta", "tb", "d", "m", "n")):
        a.name_hint = name
    b = ArithBuilder(InsertPoint.at_end(block))
    tid = b.emit(lass_nv.ThreadIdOp(result_types=[i32]))
    is0 = b.emit(arith.CmpiOp(tid, b.const(0), "eq"))
    bar = b.const(kern.bar_offset)

    def init(ib: ArithBuilder) -> None:
        ib.insert(lass_nv.MbarrierInitOp(operands=[bar, ib.const(1)]))
        ib.insert(lass_nv.FenceMbarrierInitOp())

    _if(b, is0, init)
    b.insert(lass_nv.BarSyncOp())

    n_acc = lass_nv.wgmma_acc_count(kern.n)
    zero = b.emit(arith.ConstantOp(IntegerAttr(0, acc_t) if kern.acc_type == "i32" else FloatAttr(0.0, acc_t)))
    accs = [zero] * n_acc
    operands = (("a", ta, kern.a_offset, S.WGMMA_M, kern.a_major), ("b", tb, kern.b_offset, kern.n, kern.b_major))
    # the TMA producer: one elected lane of warp 0 (elect.sync runs on whole warps)
    elected = b.emit(lass_nv.ElectSyncOp(result_types=[i1]))
    warp0 = b.emit(arith.CmpiOp(tid, b.const(32), "ult"))
    producer = b.emit(arith.AndIOp(warp0, elected))
    t = b.idx(tid)
    n_kt = kern.k // kern.bk
    if kern.loop:  # scf.for over the k-tiles, the accumulators loop-carried
        body = Block(arg_types=[i32] + [acc_t] * n_acc)
        lb = ArithBuilder(InsertPoint.at_end(body))
        out = _k_tile(lb, kern, lb.idx(body.args[0]), list(body.args[1:]), operands, bar, producer, lb.idx(tid))
        lb.insert(scf.YieldOp(*out))
        loop = b.insert(scf.ForOp(b.const(0), b.const(n_kt), b.const(1), accs, body))
        accs = list(loop.results)
    else:
        for kt in range(n_kt):
            accs = _k_tile(b, kern, kt, accs, operands, bar, producer, t)

    # epilogue: thread t's value v is D[row, col] = acc_coord(t, v)
    for v, val in enumerate(accs):
        row, col = S.acc_coord(t, v)
        row_v, col_v = b.val(row), b.val(col)
        ok = b.emit(arith.AndIOp(b.emit(arith.CmpiOp(row_v, m_arg, "ult")), b.emit(arith.CmpiOp(col_v, n_arg, "ult"))))
        off = b.emit(arith.AddiOp(b.emit(arith.MuliOp(row_v, n_arg)), col_v))
        b.insert(lass_nv.StGlobalOp(operands=[d, off, ok, [val]]))
    b.insert(func.ReturnOp())
    fn = func.FuncOp(KERNEL_NAME, ([ta_t, tb_t, d_t, i32, i32], []), Region(block))
    fn.attributes[SM90_KERNEL_ATTR] = UnitAttr()
    fn.attributes[MAXNTID_ATTR] = DenseArrayBase.from_list(i32, [THREADS, 1, 1])
    return ModuleOp([fn])


__all__ = ["Sm90TileKernel", "build", "BUGS", "KERNEL_NAME", "THREADS"]
