"""lasscc-tile-threadblock: `lass.gemm` -> a kernel of threadblock-level `lass_tb` ops.

Input contract: a `func.func` whose body is one `lass.gemm` on the function's three memref
arguments (A M x K and B K x N, each row- or column-major; D M x N row- or column-major) and
`func.return`.  Functions without `lass.gemm` are left alone.  Element types (INPUT_TYPES; A and B
alike) with the accumulator (`acc`) and D types each allows:
    f16  acc f32: D f32 or f16      acc f16: D f16 or f32  (mma m16n8k16 .f16 accumulators)
    bf16 acc f32: D f32 or bf16
    f32  acc f32: D f32            (multiplied as tf32, mma m16n8k8)
    i8   acc i32: D i32 or f32     (s8, mma m16n8k32)
every type in every layout of A and B (NN, NT, TN, TT; the MN-major tf32 and s8 fragments are
loaded by lasscc-swizzle-smem without ldmatrix .trans, see there).
A `config` without `instruction` gets the type's mma.sync shape.  `align = [a, b]` (elements per
global copy access of A and B, CUTLASS's AlignmentA/B; absent: 16 bytes) must be powers of two of
at most 16 bytes (GemmConfig.validate); with a column-major D the kernel's A is the caller's B, so
the kernel's config holds them swapped.

Output contract: the function becomes the kernel, with the parameter list of the kernel ABI
(lasscc.config.kernel_params: `(A, B, D, M: i32, N: i32, K: i32, alpha: f32, beta: f32)`, then
split-K's workspace W or the fused epilogue's extras; a wgmma kernel's tensor maps come later,
from lasscc-hopper-smem) and one attribute, `lass.kernel =
#lass.kernel<...>` (lass.KernelAttr: the A/B, accumulator and D types, the caller's layouts of A,
B and D, batched, the op's alpha / beta for `lasscc run`, the whole validated tiling config in the
kernel's operand order).  Its body: `lass_tb.block_tile` (rasterized tile origin), an `scf.for` over K
in steps of BK carrying a `!lass_tb.acc`, with `lass_tb.load_tile` for A and B and `lass_tb.mma`
inside, then `lass_tb.epilogue`.  Each tile is stored the way its operand is contiguous
(`!lass_tb.tile<..., mn>` for a column-major A or a row-major B: operand_major).
Split-K (`split_k > 1`, lasscc.splitk) adds the workspace W after beta and the K partition; a
stream-K config (`split_k_mode = "streamk"` / `"streamk-dp"` / `"streamk-tail"`, lasscc.streamk) adds W and makes the
body `lass_tb.persistent_cta` and an `scf.for` over the CTA's units, each a K loop over its range of
its tile and the workspace fix-up (an `scf.if` on "the unit ends its tile": `lass_tb.partial_store` +
`semaphore_release` of its CTA's flag, or a loop of `semaphore_wait` / `partial_add` /
`semaphore_release` over its predecessors' slots, then `epilogue`).
Cluster split-K (`split_k_mode = "cluster"`, lasscc.cluster_splitk) adds no W: after the K loop
`lass_tb.cluster_reduce` sums the cluster's accumulators, and the epilogue (`cluster_split = S`)
stores the CTA's column window.
A fused epilogue runs once per element, on the fully reduced value: serial split-K gates the
region on the last partition (dialects.epilogue.gated_region: the others store raw partial sums),
stream-K's finisher holds the full sum, parallel split-K's reduction kernel applies it (splitk_reduce).

Rejected (PassFailedException naming file:line:col): other element types, a layout that is
neither row- nor column-major, stream-K with a batched GEMM, an i8 D with a fused epilogue and
serial split-K (D holds the partial sums), a config that
fails GemmConfig.validate, a `lass.gemm` not on the function's arguments.
"""

from __future__ import annotations

from dataclasses import dataclass

from lasscc.dialects._common import memref_layout, operand_major
from lasscc.dialects import lass, lass_tb
from lasscc.dialects.lass import config_from_attr
from lasscc.passes._build import ArithBuilder
from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StridedLayoutAttr,
    f32,
    i32,
)
from xdsl.ir import Block, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException

from lasscc import streamk
from lasscc.config import KERNEL_FIXED_PARAMS, WORKSPACE_PARAM, default_config, kernel_params
from lasscc.layout import minimum, raster_tile
from lasscc.resources import is_pingpong
from lasscc.diagnostics import LassError
from lasscc.source import op_location

INPUT_TYPES = ("f16", "bf16", "f32", "i8")  # lasscc.layout.MMA_INPUTS: the mma.sync of each
D_TYPES = lass.D_TYPES


def _check_operands(op: lass.GemmOp, where: str) -> None:
    ta, tb, td = op.a.type, op.b.type, op.d.type
    et, dt = str(ta.get_element_type()), str(td.get_element_type())
    if et not in INPUT_TYPES:
        raise PassFailedException(
            f"{where}: error: expected f16, bf16, f32 (tf32) or i8 A and B, got {et}"
        )
    acc = str(op.acc_type)
    allowed = lass.d_types(et, acc, op.has_epilogue)
    if dt not in allowed:
        hint = " (an i8 D needs a fused epilogue region)" if dt in lass.d_types(et, acc, True) else ""
        raise PassFailedException(
            f"{where}: error: expected {' or '.join(allowed)} D for {et} A and B with {acc} accumulation, got {dt}"
            + hint)
    for name, t in (("A", ta), ("B", tb), ("D", td)):
        if memref_layout(t) not in ("row", "col"):
            raise PassFailedException(
                f"{where}: error: expected {name} row-major (identity layout) or column-major (strided<[1, ?]>), "
                f"got {t.layout}"
            )


def _matrix_type(elem, batched: bool, layout: str) -> MemRefType:
    """A dynamic [batch x] rows x cols memref of `elem`, row-major or column-major (`layout`)."""
    dyn = [DYNAMIC_INDEX] * (3 if batched else 2)
    if layout == "col":
        return MemRefType(elem, dyn, StridedLayoutAttr([None, 1, None] if batched else [1, None]))
    return MemRefType(elem, dyn)


def _kernel_types(facts: lass.KernelFacts, g: lass.GemmOp) -> tuple[MemRefType, MemRefType, MemRefType]:
    """The kernel's A, B and D memref types: the op's, or when it computes D^T = B^T . A^T
    (facts.swap_ab) A and B in facts.kernel_layouts (B^T is N x K and A^T K x M, each in the other
    layout, a transpose of the same memory) and D in facts.kernel_d_layout (D^T is N x M: row-major
    for a column-major D, column-major for a row-major D with config swap_ab = 1), batch first if any."""
    if not facts.swap_ab:
        return g.a.type, g.b.type, g.d.type
    elem, d_elem = g.a.type.get_element_type(), g.d.type.get_element_type()
    a, b = (_matrix_type(elem, facts.batched, layout) for layout in facts.kernel_layouts)
    return a, b, _matrix_type(d_elem, facts.batched, facts.kernel_d_layout)


WORKSPACE_TYPE = MemRefType(i32, [DYNAMIC_INDEX])  # split-K semaphores (lasscc.splitk)


@dataclass(frozen=True)
class Fused:
    """A fused epilogue as lass_tb.epilogue takes it: the region, its extra operands (the kernel's
    values) and their kinds in the kernel's terms."""

    region: Region
    extras: tuple
    kinds: tuple[str, ...]


def _epilogue(b: ArithBuilder, acc, D, m0, n0, alpha, beta, fused: Fused | None = None, last=None,
              cluster_split: int = 0) -> None:
    """lass_tb.epilogue of `acc` into D, with the fused epilogue if any.  `last` (an i1, for a split
    schedule): the region applies only where it is true, the others store the raw partial value
    (lasscc.dialects.epilogue.gated_region: the rule of where a split schedule's epilogue runs).
    `cluster_split` S > 0: the CTA stores only its column window (lasscc.cluster_splitk)."""
    attrs = {lass_tb.CLUSTER_SPLIT_ATTR: IntegerAttr(cluster_split, 64)} if cluster_split else {}
    if fused is None:
        b.insert(lass_tb.EpilogueOp.create(operands=[acc, D, m0, n0, alpha, beta], attributes=attrs))
        return
    from lasscc.dialects.epilogue import gated_region, kinds_attr

    region, extras, kinds = fused.region.clone(), list(fused.extras), list(fused.kinds)
    if last is not None:
        region = gated_region(fused.region)
        extras.append(b.emit(arith.SelectOp(last, b.const_float(1.0, f32), b.const_float(0.0, f32))))
        kinds.append("scalar")
    b.insert(lass_tb.EpilogueOp.create(operands=[acc, D, m0, n0, alpha, beta, *extras],
                                       attributes={"epilogue_kinds": kinds_attr(kinds), **attrs}, regions=[region]))


def _serial_epilogue(b: ArithBuilder, acc, W, D, M, N, m0, n0, alpha, beta, part, split: int, tile, batch,
                     fused: Fused | None = None) -> None:
    """Serial split-K's epilogue (reference 002): wait for this tile's turn (semaphore == part),
    D = alpha * acc + beta' * D with beta' = beta for partition 0 and 1 after it (D holds the
    previous partitions' sum), then pass the turn on (part + 1; 0 by the last, ready for the next
    launch).  One semaphore word per tile (and batch) of the workspace W.  A fused epilogue
    applies in the last partition's turn only, on the full sum (_epilogue's `last`)."""
    bm, bn = tile
    tiles_m, tiles_n = b.div(b.add(M, bm - 1), bm), b.div(b.add(N, bn - 1), bn)
    sem = b.add(b.div(m0, bm), b.mul(b.div(n0, bn), tiles_m))
    if batch is not None:
        sem = b.add(sem, b.mul(batch, b.mul(tiles_m, tiles_n)))
    sem.name_hint = "sem"
    b.insert(lass_tb.SemaphoreWaitOp.build(operands=[W, sem, part]))
    first = b.emit(arith.CmpiOp(part, b.const(0), "eq"))
    beta_p = b.emit(arith.SelectOp(first, beta, b.const_float(1.0, f32)))
    def is_last():
        return b.emit(arith.CmpiOp(part, b.const(split - 1), "eq"))

    last = is_last() if fused is not None else None  # (a plain kernel's IR as before: after the epilogue)
    _epilogue(b, acc, D, m0, n0, alpha, beta_p, fused, last)
    last = is_last() if last is None else last
    b.insert(lass_tb.SemaphoreReleaseOp.build(operands=[W, sem, b.emit(arith.SelectOp(last, b.const(0), b.add(part, 1)))]))


@dataclass(frozen=True)
class TileThreadblockPass(ModulePass):
    name = "lasscc-tile-threadblock"
    arch: str = "sm_80"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in list(op.walk()):
            if isinstance(fn, func.FuncOp):
                gemms = [o for o in fn.walk() if isinstance(o, lass.GemmOp)]
                if gemms:
                    self._tile(fn, gemms)

    def _tile(self, fn: func.FuncOp, gemms: list[lass.GemmOp]) -> None:
        g = gemms[0]
        where = op_location(g)
        if len(gemms) != 1:
            raise PassFailedException(f"{op_location(gemms[1])}: error: expected one lass.gemm per function, got {len(gemms)}")
        others = [o for o in fn.body.block.ops if o is not g and not isinstance(o, func.ReturnOp)]
        if others:
            raise PassFailedException(f"{op_location(others[0])}: error: expected only lass.gemm and func.return in the function, got '{others[0].name}'")
        args = fn.body.block.args
        if tuple(g.operands) != tuple(args):
            extra = " then its epilogue's extra operands" if g.extras else ""
            raise PassFailedException(
                f"{where}: error: expected lass.gemm on the function's {'' if extra else 'three '}arguments "
                f"(A, B, D{extra}) in order"
            )
        _check_operands(g, where)
        ab = str(g.a.type.get_element_type())
        try:
            facts = lass.KernelFacts.of_gemm(g, config_from_attr(g.config, default_config(ab)))
            facts.validate(self.arch, f"{where}: error: config")
        except ValueError as e:
            raise PassFailedException(f"{where}: error: {e}") from None
        except LassError as e:
            raise PassFailedException(str(e)) from None

        # Column-major D (or config swap_ab = 1): compute D^T = B^T . A^T, a product with the operands
        # (and M, N) swapped (KernelFacts.swap_ab); the launcher passes (B, A, D, N, M, K).  The config's
        # access widths follow their operands into the kernel's order (facts.config).
        cfg = facts.config
        if cfg.is_wgmma and cfg.is_streamk and is_pingpong(cfg):
            # lasscc.streamk on wgmma: the default and cooperative kernels (the ring carried across units, lasscc-pipeline)
            raise PassFailedException(f"{where}: error: config: expected schedule = \"default\" or \"cooperative\" "
                                      f"with mma = \"wgmma\" and split_k_mode = \"{cfg.split_k_mode}\" (stream-K's "
                                      f"units are not dealt to two consumers), got schedule = \"{cfg.schedule}\"")
        if cfg.is_streamk and facts.batched:  # lasscc.streamk: one GEMM
            raise PassFailedException(f"{where}: error: config: expected a 2-d GEMM with split_k_mode = "
                                      f"\"{cfg.split_k_mode}\" (stream-K: not batched)")
        if g.has_epilogue and cfg.split_k > 1 and cfg.split_k_mode == "serial" and facts.d_type == "i8":
            # the partial sums live in D between the partitions' (units') turns: an i8 D saturates them
            raise PassFailedException(f"{where}: error: config: expected split_k_mode = \"parallel\" for an i8 D "
                                      f"with a fused epilogue and split_k_mode = \"{cfg.split_k_mode}\" (its partial "
                                      f"sums are stored in D, which would round and saturate them), got "
                                      f"split_k = {cfg.split_k}")
        bm, bn, bk = cfg.threadblock
        elem = g.a.type.get_element_type()
        a_t, b_t, d_t = _kernel_types(facts, g)
        acc_t = lass_tb.AccType((bm, bn), g.acc_type)

        # New kernel body on the fixed parameter list, then the workspace W of a split kernel and the
        # epilogue's extra operands; a matrix operand in D's layout is stored like the kernel's D
        split, parallel = cfg.split_k, cfg.split_k_mode == "parallel"
        # (the partial sums, an [mn] operand too, in the kernel's D layout: the reduction is elementwise)
        d_col = facts.kernel_d_layout
        w_t = (_matrix_type(i32 if str(g.acc_type) == "i32" else f32, True, d_col) if parallel  # partial sums
               else WORKSPACE_TYPE)  # semaphores
        # (a shared matrix of a batched GEMM: 2-d, one per batch: 3-d like D)
        extra_t = [_matrix_type(x.type.get_element_type(), x.type.get_num_dims() == 3, d_col) if k == "mn"
                   else x.type for k, x in zip(g.kinds, g.extras)]
        # (the kernel ABI, lasscc.config.kernel_params; a wgmma kernel's tensor maps come with lasscc-hopper-smem)
        names = kernel_params(False, cfg.has_workspace, len(extra_t))
        types = dict(zip(KERNEL_FIXED_PARAMS, [a_t, b_t, d_t, i32, i32, i32, f32, f32]), W=w_t)
        block = Block(arg_types=[types.get(p) for p in names[:len(names) - len(extra_t)]] + extra_t)
        params = dict(zip(names, block.args))
        A, B, D, M, N, K, alpha, beta = (params[p] for p in KERNEL_FIXED_PARAMS)
        extras = block.args[len(names) - len(extra_t):]
        for name, arg in params.items():
            arg.name_hint = name
        for arg, old in zip(extras, g.extras):
            arg.name_hint = old.name_hint
        b = ArithBuilder(InsertPoint.at_end(block))
        if facts.batched:
            # one batch per grid z index; the matrices of a batch are views of the packed operands
            z = b.emit(lass_tb.BatchIndexOp.build(result_types=[i32]))
            z.name_hint = "batch"
            A, B, D = (b.emit(lass_tb.BatchViewOp(v, z, b.mul(x, y)))
                       for v, (x, y) in zip((A, B, D), ((M, K), (N, K), (M, N))))
            A.name_hint, B.name_hint, D.name_hint = "A_b", "B_b", "D_b"
        # each tile is stored the way its operand is contiguous in global memory (K- or MN-major)
        tile_a_t = lass_tb.TileType((bm, bk), elem, operand_major(a_t, "A"))
        tile_b_t = lass_tb.TileType((bn, bk), elem, operand_major(b_t, "B"))

        def k_loop(b: ArithBuilder, m0, n0, k_lo, k_hi, acc0=None, step=None):
            """The main loop over [k_lo, k_hi) in steps of BK (`step`) from a zero accumulator
            (`acc0`, made here if None): the accumulator after it."""
            acc0 = acc0 or b.emit(lass_tb.ZeroAccOp.build(result_types=[acc_t]))
            body = Block(arg_types=[i32, acc_t])
            k0, acc = body.args
            k0.name_hint, acc.name_hint = "k0", "acc"
            bb = ArithBuilder(InsertPoint.at_end(body))
            ta = bb.emit(lass_tb.LoadTileOp.build(operands=[A, m0, k0], result_types=[tile_a_t],
                                               properties={"operand": lass.operand_attr("A")}))
            tb_ = bb.emit(lass_tb.LoadTileOp.build(operands=[B, n0, k0], result_types=[tile_b_t],
                                                properties={"operand": lass.operand_attr("B")}))
            acc1 = bb.emit(lass_tb.MmaOp(ta, tb_, acc))
            bb.insert(scf.YieldOp(acc1))
            return b.insert(scf.ForOp(k_lo, k_hi, step or b.const(bk), [acc0], Region(body))).results[0]

        fused = None
        if g.has_epilogue:
            from lasscc.dialects.epilogue import swap_kind
            from lasscc.passes._epilogue_build import batch_extras

            kinds = tuple(swap_kind(k, facts.swap_ab) for k in g.kinds)
            fused = Fused(g.epilogue, tuple(batch_extras(b, extras, kinds, z, M, N) if facts.batched else extras),
                          kinds)
        if cfg.is_streamk:
            _streamk_body(b, cfg, k_loop, params[WORKSPACE_PARAM], D, M, N, K, alpha, beta, fused)
            b.insert(func.ReturnOp())
            self._replace(fn, block, facts)
            return
        tile_op = b.insert(
            lass_tb.BlockTileOp.build(
                operands=[M, N],
                result_types=[i32, i32],
                attributes={
                    "tile": ArrayAttr([IntegerAttr(bm, 64), IntegerAttr(bn, 64)]),
                    "raster": IntegerAttr(cfg.raster, 64),
                },
            )
        )
        m0, n0 = tile_op.results
        m0.name_hint, n0.name_hint = "m0", "n0"
        acc0 = b.emit(lass_tb.ZeroAccOp.build(result_types=[acc_t]))
        k_lo, step, k_hi = b.const(0), b.const(bk), K
        if split > 1:  # this block's K partition (grid y; cluster split-K: the cluster rank): whole k-tiles, lasscc.splitk
            part_op = b.insert(lass_tb.KPartitionOp.build(
                operands=[K], result_types=[i32, i32, i32],
                attributes={"split": IntegerAttr(split, 64), "tile_k": IntegerAttr(bk, 64)}))
            part, k_lo, k_hi = part_op.results
            part.name_hint, k_lo.name_hint, k_hi.name_hint = "part", "k_begin", "k_end"
        acc_out = k_loop(b, m0, n0, k_lo, k_hi, acc0, step)
        if split > 1 and parallel:  # the raw partial sum to W[batch * S + part]; the reduction does the rest
            idx = b.add(b.mul(z, split), part) if facts.batched else part
            part_d = b.emit(lass_tb.BatchViewOp(params[WORKSPACE_PARAM], idx, b.mul(M, N)))
            part_d.name_hint = "W_part"
            b.insert(lass_tb.EpilogueOp.create(operands=[acc_out, part_d, m0, n0, b.const_float(1.0, f32),
                                                        b.const_float(0.0, f32)]))
        elif split > 1 and cfg.split_k_mode == "cluster":
            # the cluster's CTAs (this tile's K partitions) sum their accumulators through DSMEM,
            # each stores its column window (lasscc.cluster_splitk)
            total = b.emit(lass_tb.ClusterReduceOp(acc_out, split))
            total.name_hint = "sum"
            _epilogue(b, total, D, m0, n0, alpha, beta, fused, cluster_split=split)
        elif split > 1:
            _serial_epilogue(b, acc_out, params[WORKSPACE_PARAM], D, M, N, m0, n0, alpha, beta, part, split,
                             (bm, bn), z if facts.batched else None, fused)
        else:
            _epilogue(b, acc_out, D, m0, n0, alpha, beta, fused)
        b.insert(func.ReturnOp())

        self._replace(fn, block, facts)
        if split > 1 and parallel:  # the reduction applies the fused epilogue, once, on the full sum
            from lasscc.passes.splitk_reduce import build_reduce_kernel

            fn.parent_block().insert_op_after(
                build_reduce_kernel(fn, facts, None if fused is None else (fused.region, fused.kinds)), fn)

    @staticmethod
    def _replace(fn: func.FuncOp, block: Block, facts) -> None:
        """Make `block` the body of `fn`, the kernel (its type and #lass.kernel)."""
        old = fn.body.blocks[0]
        fn.body.insert_block_before(block, old)
        old_ops = list(old.ops)
        for o in reversed(old_ops):
            o.detach()
            o.erase(safe_erase=False)
        fn.body.detach_block(old)
        fn.function_type = func.FunctionType.from_lists(list(block.arg_types), [])
        fn.attributes[lass.KERNEL_ATTR] = lass.KernelAttr.from_facts(facts)


def _streamk_body(b: ArithBuilder, cfg, k_loop, W, D, M, N, K, alpha, beta, fused: Fused | None = None) -> None:
    """A stream-K kernel's body (lasscc.streamk): CTA %ctaid.x of the %nctaid.x persistent CTAs runs
    its units; each is a main loop over its K range of its tile, then the workspace fix-up: a unit
    that does not end its tile's K range stores its partial to its CTA's slot and sets its flag
    (`lass_tb.partial_store`, `semaphore_release` 1); the one that ends it waits for its `seg`
    predecessors' flags in K order, adds their partials (`lass_tb.partial_add`), resets the flags,
    and runs the epilogue (a fused one too) once on the full sum."""
    bm, bn, bk = cfg.threadblock
    mode = cfg.split_k_mode
    cta, ctas = (b.idx(v) for v in b.insert(lass_tb.PersistentCtaOp()).results)
    cta.value.name_hint, ctas.value.name_hint = "cta", "ctas"
    tiles_m, tiles_n = (b.idx(M) + (bm - 1)) // bm, (b.idx(N) + (bn - 1)) // bn
    tiles = tiles_m * tiles_n
    kt = (b.idx(K) + (bk - 1)) // bk
    tiles.value.name_hint, kt.value.name_hint = "tiles", "k_tiles"
    n_units = b.val(streamk.cta_units(cta, ctas, tiles, kt, mode))
    n_units.name_hint = "units"
    body = Block(arg_types=[i32])
    body.args[0].name_hint = "unit"
    ub = ArithBuilder(InsertPoint.at_end(body))
    u = ub.idx(body.args[0])
    # re-wrap the loop-invariant values to emit in the body
    ctas_u, cta_u, tiles_u, kt_u = (ub.idx(x.value) for x in (ctas, cta, tiles, kt))
    tile, lo, hi, seg = streamk.unit(cta_u, ctas_u, u, tiles_u, kt_u, mode)
    tile_m, tile_n = raster_tile(tile, ub.idx(tiles_m.value), ub.idx(tiles_n.value), cfg.raster)
    m0, n0 = ub.val(tile_m * bm), ub.val(tile_n * bn)
    k_lo, k_hi = ub.val(lo * bk), ub.val(minimum(hi * bk, ub.idx(K)))
    tile_v, seg_v, hi_v = ub.val(tile), ub.val(seg), ub.val(hi)
    for v, name in ((m0, "m0"), (n0, "n0"), (k_lo, "k_begin"), (k_hi, "k_end"), (tile_v, "tile"), (seg_v, "seg")):
        v.name_hint = name
    acc = k_loop(ub, m0, n0, k_lo, k_hi)
    finish = ub.emit(arith.CmpiOp(hi_v, ub.val(kt_u), "eq"))
    finish.name_hint = "finisher"
    tile_bn = (bm, bn)

    # the finisher: its predecessors' partials in K order (slots cta - seg .. cta - 1), then D once
    fin = Block()
    fb = ArithBuilder(InsertPoint.at_end(fin))
    def over_preds(fn, carried=None):
        """scf.for j in [0, seg) over the predecessors' CTAs cta - seg + j: fn(builder, cta, flag word, carried)."""
        blk = Block(arg_types=[i32] + ([carried.type] if carried is not None else []))
        blk.args[0].name_hint = "j"
        lb = ArithBuilder(InsertPoint.at_end(blk))
        p = lb.val(lb.idx(cta_u.value) - lb.idx(seg_v) + lb.idx(blk.args[0]))
        p.name_hint = "pred_cta"
        flag = lb.val(streamk.flag_word(lb.idx(p), lb.idx(ctas_u.value), tile_bn))
        flag.name_hint = "flag"
        out = fn(lb, p, flag, blk.args[1] if carried is not None else None)
        lb.insert(scf.YieldOp(*([out] if carried is not None else [])))
        loop = fb.insert(scf.ForOp(fb.const(0), seg_v, fb.const(1), [carried] if carried is not None else [],
                                   Region(blk)))
        return loop.results[0] if carried is not None else None

    # three loops: every flag acquired, then the adds alone (the accumulator's registers carried
    # through a loop with no spin loop inside), then the flags reset for the next launch
    over_preds(lambda lb, p, flag, _: lb.insert(lass_tb.SemaphoreWaitOp.build(
        operands=[W, flag, lb.const(streamk.FLAG_SET)])))
    acc_sum = over_preds(lambda lb, p, flag, total: lb.emit(lass_tb.PartialAddOp(total, W, p)), acc)
    acc_sum.name_hint = "sum"
    over_preds(lambda lb, p, flag, _: lb.insert(lass_tb.SemaphoreReleaseOp.build(operands=[W, flag, lb.const(0)])))
    _epilogue(fb, acc_sum, D, m0, n0, alpha, beta, fused)
    fb.insert(scf.YieldOp())
    # the others: the partial to this CTA's slot, then its flag
    part = Block()
    pb = ArithBuilder(InsertPoint.at_end(part))
    pb.insert(lass_tb.PartialStoreOp.build(operands=[acc, W, cta_u.value]))
    own_flag = pb.val(streamk.flag_word(pb.idx(cta_u.value), pb.idx(ctas_u.value), tile_bn))
    own_flag.name_hint = "flag"
    pb.insert(lass_tb.SemaphoreReleaseOp.build(operands=[W, own_flag, pb.const(streamk.FLAG_SET)]))
    pb.insert(scf.YieldOp())
    ub.insert(scf.IfOp(finish, [], Region(fin), Region(part)))
    ub.insert(scf.YieldOp())
    b.insert(scf.ForOp(b.const(0), n_units, b.const(1), [], Region(body)))
