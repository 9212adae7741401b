"""Parallel split-K's reduction kernel (lasscc.splitk), built by lasscc-tile-threadblock beside the
GEMM kernel it belongs to.

The GEMM kernel of `split_k_mode = "parallel"` writes partition p's raw accumulator (f32; i32 for
i8 inputs) as an M x N matrix in the kernel's D layout (the kernel's M, N; row-major, or column-major
for config swap_ab = 1: KernelFacts.kernel_d_layout) at index (batch * S + p) of its
workspace W (`memref<?x?x?xf32>`, S * batch partial matrices).  The reduction kernel takes the same
parameters (A, B, D, M, N, K, alpha, beta, W: lasscc.config.kernel_params; a wgmma GEMM's tensor
maps too, unused, which lasscc-hopper-smem adds to both), one thread per element e of one batch's D (grid x
`reduce_blocks(M * N, threads)`, grid z the batch):

    sum = W[z * S + 0][e] + ... + W[z * S + S - 1][e]      (in partition order: deterministic)
    D[e] = alpha * sum + beta * C[e]  (C = D on entry, read only when beta != 0), in D's type

with the epilogue's conversions: an f32 epilogue, rounded to a 16-bit D; an i32 D to nearest even
(cvt.rni) or, with alpha = 1 and beta = 0, the exact i32 sum.  A fused epilogue (the GEMM's
region and extras E0.., lasscc.dialects.epilogue) applies here, once, to the full sum:
D[e] = region(alpha * sum + beta * C[e], extras at e's row / column), converted by
_epilogue_build.d_from_f32 (an i8 D saturated).  It is written at the instruction
level (lass_nv / arith / scf: it has no tiles), so the passes after lasscc-tile-threadblock leave it
alone and lasscc-lower-to-llvm lowers it as a second kernel entry.  The function carries the GEMM
kernel's `#lass.kernel` and REDUCE_ATTR (the GEMM kernel's name).
"""

from __future__ import annotations

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerType, StringAttr, f32, i1, i32
from xdsl.ir import Block, Region
from xdsl.rewriter import InsertPoint

from lasscc.dialects import lass, lass_nv, lass_tb
from lasscc.config import kernel_params
from lasscc.layout import matrix_coord
from lasscc.passes._build import ArithBuilder
from lasscc.passes._epilogue_build import batch_extras, d_from_f32, fused_element

REDUCE_ATTR = "lass.splitk_reduce"  # on the reduction kernel: the name of its GEMM kernel


def reduce_name(gemm_name: str) -> str:
    return f"{gemm_name}_splitk_reduce"


def build_reduce_kernel(gemm: func.FuncOp, facts: lass.KernelFacts, fused=None) -> func.FuncOp:
    """The reduction kernel of the parallel split-K kernel `gemm` (its parameters, already built).
    `fused`: the GEMM's fused epilogue as (region, kinds in the kernel's terms), which the
    reduction applies to each element's full sum (the extras E0.. are its parameters after W)."""
    arg_types = list(gemm.function_type.inputs.data)
    block = Block(arg_types=arg_types)
    params = dict(zip(kernel_params(workspace=True, extras=len(facts.epilogue)), block.args, strict=True))
    for name, arg in params.items():
        arg.name_hint = name
    fixed = len(kernel_params(workspace=True))  # the extras follow W
    for arg, old in zip(block.args[fixed:], gemm.body.block.args[fixed:]):
        arg.name_hint = old.name_hint
    A, B, D, M, N, K, alpha, beta, W = list(params.values())[:fixed]
    extras = block.args[fixed:]
    split, threads = facts.config.split_k, facts.config.threads
    b = ArithBuilder(InsertPoint.at_end(block))
    tid = b.emit(lass_nv.ThreadIdOp.build(result_types=[i32]))
    e = b.add(b.mul(b.emit(lass_nv.BlockIdOp("x")), threads), tid)
    e.name_hint = "e"
    mn = b.mul(M, N)
    ok = b.emit(arith.CmpiOp(e, mn, "ult"))
    z = b.emit(lass_nv.BlockIdOp("z")) if facts.batched else None
    d_view = b.emit(lass_tb.BatchViewOp(D, z, mn)) if z is not None else D
    part_t = W.type.get_element_type()
    int_acc = isinstance(part_t, IntegerType)
    zero = b.const(0, part_t) if int_acc else b.const_float(0.0, f32)

    body = Block(arg_types=[i32, part_t])
    p, acc = body.args
    p.name_hint, acc.name_hint = "p", "sum"
    bb = ArithBuilder(InsertPoint.at_end(body))
    idx = bb.add(bb.mul(z, split), p) if z is not None else p
    w_view = bb.emit(lass_tb.BatchViewOp(W, idx, mn))
    (part,) = bb.insert(lass_nv.LdGlobalOp(w_view, e, ok, 1)).results
    total = bb.emit(arith.AddiOp(acc, part) if int_acc else arith.AddfOp(acc, part))
    bb.insert(scf.YieldOp(total))
    loop = b.insert(scf.ForOp(b.const(0), b.const(split), b.const(1), [zero], Region(body)))
    s = loop.results[0]

    out_t = d_view.type.get_element_type()
    has_c = b.emit(arith.CmpfOp(beta, b.const_float(0.0, f32), "one"))
    (c,) = b.insert(lass_nv.LdGlobalOp(d_view, e, b.and_(ok, has_c), 1)).results

    def to_f32(x):
        if isinstance(x.type, IntegerType):
            return b.emit(arith.SIToFPOp(x, f32))
        return x if x.type == f32 else b.emit(arith.ExtFOp(x, f32))

    val = b.emit(arith.AddfOp(b.emit(arith.MulfOp(alpha, to_f32(s))), b.emit(arith.MulfOp(beta, to_f32(c)))))
    if fused is not None:
        region, kinds = fused
        if z is not None:  # a batched GEMM's per-batch extras: this batch's
            extras = batch_extras(b, extras, kinds, z, M, N)
        # e runs in D's memory order (the partial sums are stored like D: column-major for swap_ab = 1)
        row, col = (b.val(x) for x in matrix_coord(b.idx(e), b.idx(M), b.idx(N), facts.kernel_d_layout == "col"))
        row.name_hint, col.name_hint = "row", "col"
        val = fused_element(b, region, kinds, extras, val, row, col, e, ok)
        out = d_from_f32(b, val, out_t)
    elif isinstance(out_t, IntegerType):
        rounded = b.emit(lass_nv.CvtRniS32Op.build(operands=[val], result_types=[i32]))
        exact = b.and_(b.emit(arith.CmpfOp(alpha, b.const_float(1.0, f32), "oeq")), b.emit(arith.XOrIOp(has_c, b.const(1, i1))))
        out = b.emit(arith.SelectOp(exact, s, rounded)) if int_acc else rounded
    else:
        out = val if out_t == f32 else b.emit(arith.TruncFOp(val, out_t))
    b.insert(lass_nv.StGlobalOp.build(operands=[d_view, e, ok, [out]]))
    b.insert(func.ReturnOp())

    fn = func.FuncOp(reduce_name(gemm.sym_name.data), func.FunctionType.from_lists(arg_types, []), Region(block))
    fn.attributes[lass.KERNEL_ATTR] = lass.KernelAttr.from_facts(facts)
    fn.attributes[REDUCE_ATTR] = StringAttr(gemm.sym_name.data)
    return fn
