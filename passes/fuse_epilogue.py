"""lasscc-fuse-epilogue: elementwise linalg ops after a GEMM -> the `lass.gemm`'s epilogue region.

Input contract: a function whose `lass.gemm` (from lasscc-import-linalg: run it first; the
driver's pipeline does) is followed, in the same block, by linalg ops on its output as bufferized
front ends write them:
    linalg.generic {indexing_maps = [...], iterator_types = ["parallel", "parallel"]}
        ins(%d, %bias : memref<?x?xf32>, memref<?xf32>) outs(%d : memref<?x?xf32>) { ... linalg.yield }
or the named elementwise ops (linalg.add / sub / mul / max / min / exp / sqrt) with outs(%d).  The
output is the GEMM's D with the identity map; each input is D itself (identity map: the current
value), a vector function argument broadcast along rows or columns (map (d0, d1) -> (d1): one value
per column, an [n] operand such as a bias; (d0, d1) -> (d0): per row, [m]), a matrix function
argument of D's shape and layout (identity map: [mn], a residual), or an f32 function argument (map
(d0, d1) -> (): a scalar).  A batched GEMM (3-d D, from linalg.batch_matmul) takes the same over
(d0, d1, d2) with d0 the batch: an input map without d0 ((d2), (d1), (d1, d2)) is an extra shared
by every batch, one with it ((d0, d2), (d0, d1), (d0, d1, d2)) one per batch (a memref with a
leading batch dimension).  The body may use the ops of lasscc.dialects.epilogue (arith
add/sub/mul/div/neg/max/min/cmp/select/extf/truncf/constant, math tanh/erf/exp/absf/sqrt/fma) and
`arith.constant`s defined outside it (cloned in).  Only `arith.constant`s may stand between the
GEMM and the ops it folds.

Output contract: each foldable op, in order, is removed and its body appended to the GEMM's
epilogue region (created when absent: lass.yield of the value), so D's element is the composition;
the extra operands are added in the order of the function's arguments (what
lasscc-tile-threadblock expects).  Semantics: linalg's (D = A.B + C, then each op elementwise in
f32), computed without the intermediate stores of D.
Then, in every lass.gemm's epilogue region (folded here or written so), GELU's erf form -- a product
(arith.mulf, any order and grouping) of x, 0.5 and 1 + erf(x * 1/sqrt2) (or erf(x / sqrt2)) -- is
replaced by `lass.gelu x` (the ops it leaves unused are removed): one formula for the whole
(lasscc.epilogue_math.gelu, 14 instructions instead of ~26, and no cancellation for x < 0), which
rounds differently from the composed ops (within the accuracy stated there).  When the region yields
it as it is and D's elements are f16 / bf16, it gets `rounded_to` = D's type: a formula of D's
accuracy (9 instructions; epilogue_math.GELU_FITS).  GELU's tanh form
stays as written (tanh.approx makes it ~8 instructions already).

Left alone, with a note at the op's place on stderr saying why: the first linalg op after the
GEMM that does not fold (another output than D, a D not of f32 elements (the body would compute in
f16 / bf16; the fused epilogue computes in f32), maps other than the ones above, a non-parallel
iterator, an op not allowed in an epilogue region, an operand that is not a function argument, an
extra of another element type) and everything after it.  Functions without lass.gemm are left
alone.  Rejected (PassFailedException at the op): nothing; lasscc-tile-threadblock rejects what
stays in a kernel function.
"""

from __future__ import annotations

import math as pymath
import struct
import sys
from dataclasses import dataclass
from functools import cache
from types import SimpleNamespace

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import ArrayAttr, Float32Type, FloatAttr, MemRefType, ModuleOp, StringAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from lasscc.dialects._common import memref_layout
from lasscc.dialects import lass
from lasscc.dialects.epilogue import ARITH_OPS, EXTRA_TYPES, GeluOp, YieldOp, math_ops
from lasscc.source import op_location
from lasscc.universe import linalg_loaded



@cache
def _linalg() -> SimpleNamespace:
    """xDSL's linalg ops this pass reads, imported at the first use: an input without linalg ops
    does not load the dialect (lasscc.universe.linalg_loaded).  NAMED_OPS: the named elementwise
    ops that fold (their bodies are the one arith / math op); ELEMENTWISE: those and linalg.generic."""
    from xdsl.dialects.linalg.ops import AddOp, ExpOp, GenericOp, MaxOp, MinOp, MulOp, SqrtOp, SubOp, YieldOp

    named = (AddOp, SubOp, MulOp, MaxOp, MinOp, ExpOp, SqrtOp)
    return SimpleNamespace(NAMED_OPS=named, ELEMENTWISE=(GenericOp, *named), GenericOp=GenericOp, YieldOp=YieldOp)


def __getattr__(name: str):
    """NAMED_OPS and ELEMENTWISE as module attributes (the CPU executor's linalg ops use them)."""
    if name in ("NAMED_OPS", "ELEMENTWISE"):
        return getattr(_linalg(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# indexing map (as printed) -> how an input is indexed by D's element (i, j)
MAP_KINDS = {"(d0, d1) -> (d0, d1)": "mn", "(d0, d1) -> (d1)": "n", "(d0, d1) -> (d0)": "m", "(d0, d1) -> ()": "scalar"}
# a batched GEMM's D (3-d, batch first; from linalg.batch_matmul): map -> (kind, the memref's rank):
# shared by every batch (rank of the 2-d case) or one per batch (one more, leading: per-batch extras
# of lasscc.dialects.epilogue, told apart by the rank)
BATCH_MAP_KINDS = {"(d0, d1, d2) -> (d0, d1, d2)": ("mn", 3), "(d0, d1, d2) -> (d1, d2)": ("mn", 2),
                   "(d0, d1, d2) -> (d2)": ("n", 1), "(d0, d1, d2) -> (d0, d2)": ("n", 2),
                   "(d0, d1, d2) -> (d1)": ("m", 1), "(d0, d1, d2) -> (d0, d1)": ("m", 2),
                   "(d0, d1, d2) -> ()": ("scalar", 0)}
_RANKS = {"mn": 2, "n": 1, "m": 1, "scalar": 0}


def _map_kinds(rank: int) -> dict[str, tuple[str, int]]:
    """indexing map -> (kind, memref rank) of an input, for a D of `rank` dimensions."""
    return BATCH_MAP_KINDS if rank == 3 else {m: (k, _RANKS[k]) for m, k in MAP_KINDS.items()}


@dataclass
class Fold:
    """How an elementwise op maps onto the epilogue: per block argument of its body, "v" (D's
    current value) or the (function argument, kind) of an extra operand; the constants it captures."""

    op: Operation
    args: list  # "v" or (SSAValue, kind)
    constants: list[Operation]


def analyze(op: Operation, d: SSAValue) -> Fold | str:
    """The Fold of elementwise linalg op `op` on D `d`, or why it does not fold."""
    linalg = _linalg()
    if not isinstance(op, linalg.ELEMENTWISE):
        return f"'{op.name}' is not an elementwise linalg op"
    maps = [str(getattr(m, "data", m)) for m in op.get_indexing_maps()]
    iters = op.iterator_types.data if isinstance(op, linalg.GenericOp) else None
    if iters is not None and any(str(t.data) != "parallel" for t in iters):
        return "expected parallel iterators only (a reduction is no epilogue)"
    if len(op.outputs) != 1 or op.outputs[0] is not d:
        return "its output is not the GEMM's D (the epilogue writes D only)"
    dt = d.type.get_element_type()
    if not isinstance(dt, Float32Type):
        return (f"D has {dt} elements: the body computes in {dt}, a fused epilogue in f32 (the result would "
                f"round differently)")
    kinds = _map_kinds(d.type.get_num_dims())
    identity = next(iter(kinds))
    if maps[-1] != identity:
        return f"expected the identity map on the output, got {maps[-1]}"
    block = op.regions[0].block
    args: list = []
    for x, m in zip(op.inputs, maps):
        kind, rank = kinds.get(m, (None, None))
        if x is d:
            if m != identity:
                return f"expected D read with the identity map, got {m}"
            args.append("v")
            continue
        if kind is None:
            results = [km.split(" -> ")[1] for km in kinds]
            return f"expected an input map {identity}, {', '.join(results[1:-1])} or {results[-1]}, got {m}"
        if not isinstance(x, BlockArgument) or not isinstance(x.owner.parent_op(), func.FuncOp):
            return "an input that is not a function argument (the kernel takes the epilogue's operands as parameters)"
        t = x.type
        if kind == "scalar":
            if not isinstance(t, Float32Type):
                return f"expected an f32 scalar input, got {t}"
        else:
            if not isinstance(t, MemRefType) or t.get_num_dims() != rank:
                return f"expected a {rank}-d memref for map {m}, got {t}"
            if str(t.get_element_type()) not in EXTRA_TYPES:
                return f"expected f32, f16 or bf16 elements, got {t}"
            if kind == "mn" and memref_layout(t) != memref_layout(d.type):
                return f"expected a matrix input in D's layout ({memref_layout(d.type)}-major), got {t}"
        args.append((x, kind))
    args.append("v")  # the output's block argument: D's current value
    constants: list[Operation] = []
    inside = set(block.args)
    for body_op in block.ops:
        if isinstance(body_op, linalg.YieldOp):
            if len(body_op.operands) != 1 or not isinstance(body_op.operands[0].type, Float32Type):
                return "expected linalg.yield of one f32 value"
            break
        if not isinstance(body_op, ARITH_OPS + math_ops()):
            return f"'{body_op.name}' is not allowed in an epilogue region"
        for v in body_op.operands:
            if v in inside:
                continue
            owner = v.owner
            if isinstance(owner, arith.ConstantOp):
                if owner not in constants:
                    constants.append(owner)
                continue
            return f"'{body_op.name}' uses a value defined outside the body that is not an arith.constant"
        inside.update(body_op.results)
    return Fold(op, args, constants)


_NOTED: set[str] = set()  # notes printed since reset_notes (a pipeline replayed after an error repeats none)


def reset_notes() -> None:
    """Forget the notes printed (lasscc.driver.run_passes calls it once per run)."""
    _NOTED.clear()


def _notify(op: Operation, why: str) -> None:
    text = f"{op_location(op)}: note: lasscc-fuse-epilogue: left alone: {why}"
    if text not in _NOTED:
        _NOTED.add(text)
        print(text, file=sys.stderr)


def fuse(fn: func.FuncOp, g: lass.GemmOp) -> int:
    """Fold the foldable elementwise ops after `g` into its epilogue region; the number folded."""
    folds: list[Fold] = []
    cur = g.next_op
    while cur is not None:
        if isinstance(cur, arith.ConstantOp):
            cur = cur.next_op
            continue
        if not isinstance(cur, _linalg().ELEMENTWISE) and not cur.name.startswith("linalg."):
            break
        got = analyze(cur, g.d)
        if isinstance(got, str):
            _notify(cur, got)
            break
        folds.append(got)
        cur = cur.next_op
    if not folds:
        return 0
    # extras: the GEMM's own, then the new ones, in the order of the function's arguments
    order = {a: i for i, a in enumerate(fn.body.block.args)}
    have = list(zip(g.extras, g.kinds))
    for f in folds:
        for a in f.args:
            if a != "v" and a not in have:
                have.append(a)
    have.sort(key=lambda e: order.get(e[0], len(order)))
    arg_t = [x.type if k == "scalar" else x.type.get_element_type() for x, k in have]
    block = Block(arg_types=[Float32Type(), *arg_t])
    for arg, (x, _) in zip(block.args[1:], have):
        arg.name_hint = f"{x.name_hint}_e" if x.name_hint else None
    ex_arg = {e: block.args[1 + i] for i, e in enumerate(have)}
    if g.has_epilogue:  # the existing region first, its extras rebound
        old = g.epilogue.block
        value = _inline(old, [block.args[0]] + [ex_arg[e] for e in zip(g.extras, g.kinds)], block, YieldOp)
    else:
        value = block.args[0]
    for f in folds:
        body = f.op.regions[0].block
        mapping: dict[SSAValue, SSAValue] = {}
        for c in f.constants:
            new_c = c.clone()
            block.add_op(new_c)
            mapping[c.result] = new_c.result
        bound = [value if a == "v" else ex_arg[a] for a in f.args]
        value = _inline(body, bound, block, _linalg().YieldOp, mapping)
    block.add_op(YieldOp(value))
    new = lass.GemmOp.create(operands=[g.a, g.b, g.d, *[x for x, _ in have]],
                             attributes={**{k: v for k, v in g.attributes.items() if k != "epilogue_kinds"},
                                         "epilogue_kinds": ArrayAttr([StringAttr(k) for _, k in have])},
                             regions=[Region(block)])
    new.location = g.location
    fn.body.block.insert_op_before(new, g)
    g.detach()
    g.erase(safe_erase=False)
    for f in folds:
        f.op.detach()
        f.op.erase(safe_erase=False)
    return len(folds)


def _inline(body: Block, values, into: Block, terminator, mapping=None) -> SSAValue:
    """Clone `body`'s ops (its arguments bound to `values`) to the end of `into`; the value its
    `terminator` yields."""
    mapping = dict(mapping or {})
    mapping.update(zip(body.args, values))
    for op in body.ops:
        if isinstance(op, terminator):
            return mapping[op.operands[0]]
        new = op.clone(value_mapper=mapping)
        into.add_op(new)
        for o, n in zip(op.results, new.results):
            mapping[o] = n
    raise AssertionError("a body ends with its yield")


def _f32(x: float) -> float:
    """x rounded to f32 (what an f32 arith.constant holds)."""
    return struct.unpack("f", struct.pack("f", x))[0]


_RSQRT2 = _f32(1 / pymath.sqrt(2))  # GELU's erf argument x / sqrt 2, as f32 constants write it
_SQRT2 = _f32(pymath.sqrt(2))


def _const(v: SSAValue) -> float | None:
    """The f32 value of an f32 arith.constant `v`, or None."""
    owner = v.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, FloatAttr) and isinstance(v.type, Float32Type):
        return _f32(owner.value.value.data)
    return None


def _pairs(v: SSAValue, block: Block) -> list[tuple[SSAValue, SSAValue]]:
    """(u, w) and (w, u) when `v` is arith.mulf u, w of `block`, else none."""
    o = v.owner
    if isinstance(o, arith.MulfOp) and o.parent_block() is block:
        return [(o.lhs, o.rhs), (o.rhs, o.lhs)]
    return []


def _other(o: Operation, c: float) -> SSAValue | None:
    """The operand of binary `o` beside a constant `c`, or None."""
    for a, b in ((o.operands[0], o.operands[1]), (o.operands[1], o.operands[0])):
        if _const(b) == c:
            return a
    return None


def _erf_arg(s: SSAValue) -> SSAValue | None:
    """x when `s` is 1 + erf(x * 1/sqrt2) or 1 + erf(x / sqrt2), or None."""
    if not isinstance(s.owner, arith.AddfOp):
        return None
    erf = _other(s.owner, 1.0)
    from xdsl.dialects import math  # loaded by now: the region holds a math op

    if erf is None or not isinstance(erf.owner, math.ErfOp):
        return None
    t = erf.owner.operands[0].owner
    if isinstance(t, arith.MulfOp):
        return _other(t, _RSQRT2)
    if isinstance(t, arith.DivfOp) and _const(t.rhs) == _SQRT2:
        return t.lhs
    return None


def _gelu_input(root: arith.MulfOp, block: Block) -> SSAValue | None:
    """x when `root` computes GELU's erf form 0.5 * x * (1 + erf(x / sqrt2)), grouped any way (see the
    module doc; x itself may be a product)."""
    for p, q in _pairs(root.result, block):
        x = _erf_arg(p)  # (1 + erf) * (x * 0.5)
        if x is not None and any(u is x and _const(w) == 0.5 for u, w in _pairs(q, block)):
            return x
        if _const(p) == 0.5:  # 0.5 * (x * (1 + erf))
            for u, w in _pairs(q, block):
                if _erf_arg(w) is u:
                    return u
        if any(_const(u) == 0.5 and _erf_arg(w) is p for u, w in _pairs(q, block)):  # x * (0.5 * (1 + erf))
            return p
    return None


RECOGNIZE_GELU = True  # False: leave GELU's erf form composed (scripts/gelu_ab_build.py's A/B only)


# D element types whose lass.gelu may keep only their accuracy (epilogue_math.GELU_FITS)
ROUNDED_TO = ("f16", "bf16")


def recognize_gelu(block: Block, d_elem: Attribute | None = None) -> int:
    """GELU's erf form in an epilogue region `block` -> lass.gelu; the number replaced.  A lass.gelu
    that the region yields as it is, to a D of element type `d_elem` f16 or bf16, gets `rounded_to`
    = d_elem (its formula needs only D's accuracy: epilogue_math.GELU_FITS)."""
    n = 0
    if not RECOGNIZE_GELU:
        return 0
    for root in [o for o in block.ops if isinstance(o, arith.MulfOp)]:
        if root.parent is None:  # removed with an earlier match
            continue
        x = _gelu_input(root, block)
        if x is None:
            continue
        g = GeluOp(x)
        block.insert_op_before(g, root)
        root.result.replace_all_uses_with(g.result)
        if d_elem is not None and str(d_elem) in ROUNDED_TO and all(isinstance(u.operation, YieldOp)
                                                                     for u in g.result.uses):
            g.attributes["rounded_to"] = d_elem
        n += 1
    if n:  # drop what the matches left unused (the region's ops are pure)
        for o in reversed(list(block.ops)):
            if not isinstance(o, YieldOp) and all(not r.uses for r in o.results):
                o.detach()
                o.erase()
    return n


@dataclass(frozen=True)
class FuseEpiloguePass(ModulePass):
    name = "lasscc-fuse-epilogue"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fold = linalg_loaded()  # else no linalg op in any IR: nothing follows a GEMM to fold
        for fn in list(op.walk()):
            if isinstance(fn, func.FuncOp) and fn.body.blocks:
                for g in [o for o in fn.body.block.ops if isinstance(o, lass.GemmOp)]:
                    if fold:
                        fuse(fn, g)
                for g in [o for o in fn.body.block.ops if isinstance(o, lass.GemmOp)]:
                    if g.has_epilogue:
                        recognize_gelu(g.epilogue.block, g.d.type.get_element_type())
