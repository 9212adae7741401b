"""The fused epilogue of `lass.gemm` and `lass_tb.epilogue`: a region applied to every element of D.

    lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32}
        ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>)
        epilogue(%bias [n], %res [mn], %s : memref<?xf32>, memref<?x?xf16>, f32) {
      ^bb0(%v: f32, %bias_j: f32, %res_ij: f16, %s0: f32):
        %0 = arith.addf %v, %bias_j : f32
        %1 = arith.maximumf %0, %s0 : f32
        lass.yield %1 : f32
    }

A batched GEMM's vectors and matrices are shared by every batch (the ranks below) or one per batch
(a leading batch dimension: [batch, N] / [batch, M] packed row-major, [batch, M, N] in D's layout;
BATCH_KINDS).

Semantics (one definition: `lasscc.interp.epilogue.run_region`, which the CPU executor at every
level and the tests use): for each element (i, j) of D, with v = alpha * acc[i, j] + beta * C[i, j]
in f32 (today's linear combination, C read only when beta != 0), the region's block gets
(v, e_0, ..., e_n) where e_k is the extra operand k's element for (i, j):

    [n]       memref<?xT>, N entries: e = E[j]  (one per column of D, broadcast down the rows: a bias)
    [m]       memref<?xT>, M entries: e = E[i]  (one per row of D: a per-row scale)
    [mn]      memref<?x?xT>, M x N in D's layout: e = E[i, j]  (a residual)
    (scalar)  an f32 SSA value: e = the value (the kernel takes it as an f32 parameter)

T is f32, f16 or bf16; the block argument has T (the region converts with arith.extf).  The
region yields one f32; D[i, j] is that value converted to D's type (f32 as is; f16 / bf16 round to
nearest even; i32 and i8 round to nearest even and saturate, NaN -> 0).  The extra operands must
be arguments of the function (the kernel takes them as parameters after alpha and beta).

Ops allowed in the region (EPILOGUE_OPS): arith constant / addf / subf / mulf / divf / negf /
maximumf / minimumf / maxnumf / minnumf / cmpf / select / extf / truncf, math tanh / erf / exp /
absf / sqrt / fma, lass.gelu, on f32 (f16 / bf16 only as the operands of extf / truncf and the block
arguments), and `lass.yield`.  Their lowering and accuracy: passes/lower_to_llvm.py and
lasscc/epilogue_math.py (tanh, erf and gelu are f32 approximations, a few ulp; a lass.gelu with
`rounded_to` keeps only that type's accuracy).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import ArrayAttr, BFloat16Type, Float16Type, Float32Type, FloatAttr, MemRefType, StringAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (IRDLOperation, base, irdl_op_definition, operand_def, opt_attr_def, result_def, traits_def,
                       var_operand_def)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException

# how an extra operand is indexed by the element (i, j) of D (see the module doc)
KINDS = ("n", "m", "mn", "scalar")
KIND_TEXT = {"n": "N values, one per column of D (memref<?xT> [n])",
             "m": "M values, one per row of D (memref<?xT> [m])",
             "mn": "an M x N matrix in D's layout (memref<?x?xT> [mn])",
             "scalar": "an f32 value"}
EXTRA_TYPES = ("f32", "f16", "bf16")  # element types of the extra memrefs
# The kernels read an extra operand the way they store D (lasscc-warp-mma, the wgmma path too): a
# vector along D's rows (the kernel's [n]) and a matrix in pairs of adjacent elements, one 2-element
# (ld.global.v2) access per pair of D when N is even, element by element otherwise; a vector along
# its columns one element per row.  So, like D, every extra vector or matrix must start at an
# address aligned to EXTRA_PAIR_ELEMS elements (a column-major D swaps which vector is which).
EXTRA_PAIR_ELEMS = 2
EXTRA_ELEM_BYTES = {"f32": 4, "f16": 2, "bf16": 2}


def extra_align_bytes(kind: str, elem: str) -> int:
    """The byte alignment the kernels need of an extra operand's base address (KernelFacts kind and
    element type; 1: none, a scalar parameter)."""
    return 1 if kind == "scalar" else EXTRA_PAIR_ELEMS * EXTRA_ELEM_BYTES[elem]

# the ops a region may hold, by class, with the name lists used in messages
ARITH_OPS = (arith.ConstantOp, arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp, arith.NegfOp,
             arith.MaximumfOp, arith.MinimumfOp, arith.MaxnumfOp, arith.MinnumfOp, arith.CmpfOp, arith.SelectOp,
             arith.ExtFOp, arith.TruncFOp)


def math_ops() -> tuple[type[Operation], ...]:
    """The math ops a region may hold.  xDSL's math dialect is imported here, on the first region
    checked: a compile without an epilogue region does not load it (~3 ms; issue 16)."""
    from xdsl.dialects import math

    return (math.TanhOp, math.ErfOp, math.ExpOp, math.AbsFOp, math.SqrtOp, math.FmaOp)


# (+ LASS_OPS below: lass.gelu, which lasscc-fuse-epilogue makes of GELU's erf form)


# Batched GEMMs (3-d A, B, D): an [n] / [m] vector or an [mn] matrix is either shared by every
# batch (its rank as above) or one per batch (one more, leading dimension: [batch, N] / [batch, M]
# row-major, [batch, M, N] in D's layout); the memref's rank says which.  KernelFacts (and so the
# launchers and explain) write a per-batch operand's kind as BATCH_KINDS'.
BATCH_KINDS = {"n": "bn", "m": "bm", "mn": "bmn"}


def extra_rank(kind: str) -> int:
    """The memref rank of a (shared) extra operand of `kind` (0: a scalar)."""
    return {"scalar": 0, "mn": 2}.get(kind, 1)


def is_per_batch(kind: str, t: Attribute) -> bool:
    """An extra operand of `kind` and type `t` that holds one vector / matrix per batch."""
    return kind != "scalar" and isinstance(t, MemRefType) and t.get_num_dims() == extra_rank(kind) + 1


def fact_kind(kind: str, t: Attribute) -> str:
    """The kind KernelFacts records for an extra operand: BATCH_KINDS' for a per-batch one."""
    return BATCH_KINDS[kind] if is_per_batch(kind, t) else kind


def base_kind(kind: str) -> str:
    """The indexing kind (n, m, mn, scalar) of a KernelFacts kind."""
    return {v: k for k, v in BATCH_KINDS.items()}.get(kind, kind)


def swap_kind(kind: str, swap: bool) -> str:
    """The kind of an extra operand in a kernel that computes D^T (KernelFacts.swap_ab): a
    per-column vector of D is a per-row vector of D^T and back; a matrix in D's layout is the
    row-major D^T's.  (Per-batch kinds too.)"""
    return {"n": "m", "m": "n", "bn": "bm", "bm": "bn"}.get(kind, kind) if swap else kind


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`lass.yield %x : f32`: the value an epilogue region stores to D (before D's conversion)."""

    name = "lass.yield"
    traits = traits_def(IsTerminator(), Pure())
    values = var_operand_def()
    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[list(values)])


@irdl_op_definition
class GeluOp(IRDLOperation):
    """`%y = lass.gelu %x {rounded_to = f16} : f32`: GELU(x) = x Phi(x) = 0.5 x (1 + erf(x / sqrt 2)) as
    one op, computed by lasscc.epilogue_math.gelu (the CPU executor and the kernel alike; its accuracy
    there).  `rounded_to` (f16 or bf16; absent: f32) says the value is rounded to that type next (the
    region yields it to a D of that type; a split schedule's gate aside), so its formula needs only
    that type's accuracy (epilogue_math.GELU_FITS: a shorter polynomial); it must be D's element type.
    lasscc-fuse-epilogue makes the op of the erf form's ops; a region may also hold it as written."""

    name = "lass.gelu"
    traits = traits_def(Pure())
    input = operand_def(Float32Type)
    result = result_def(Float32Type)
    rounded_to = opt_attr_def(base(Float16Type) | base(BFloat16Type))
    assembly_format = "$input attr-dict `:` type($result)"

    def __init__(self, x: SSAValue, rounded_to: Attribute | None = None):
        super().__init__(operands=[x], result_types=[Float32Type()],
                         attributes={"rounded_to": rounded_to} if rounded_to is not None else {})

    @property
    def d_type(self) -> str:
        """The type whose accuracy the formula keeps (epilogue_math.GELU_FITS' key)."""
        return "f32" if self.rounded_to is None else str(self.rounded_to)


def formula_args(op: Operation) -> tuple:
    """The arguments of op's lasscc.epilogue_math formula after (backend, x): gelu's D type."""
    return (op.d_type,) if isinstance(op, GeluOp) else ()


LASS_OPS = (GeluOp,)  # the region's ops of our own (besides lass.yield)


def _names(ops) -> str:
    return ", ".join(o.name for o in ops)


def _where(op: Operation) -> str:
    from lasscc.source import op_location

    return op_location(op)


def extra_kind_error(kind: str, t: Attribute, batched: bool = False) -> str | None:
    """Why an extra operand of type `t` cannot have `kind` (of a batched GEMM: `batched`), or None."""
    if kind not in KINDS:
        return f"expected an extra operand kind of {', '.join(KINDS)}, got {kind!r}"
    if kind == "scalar":
        return None if isinstance(t, Float32Type) else f"expected a scalar extra operand of type f32, got {t}"
    if not isinstance(t, MemRefType):
        return f"expected a memref for a [{kind}] extra operand ({KIND_TEXT[kind]}), got {t}"
    rank = extra_rank(kind)
    if t.get_num_dims() != rank and not (batched and t.get_num_dims() == rank + 1):
        if batched:
            return (f"expected a {rank}-d memref (shared by every batch) or a {rank + 1}-d one (one per batch, "
                    f"batch first) for a [{kind}] extra operand of a batched GEMM ({KIND_TEXT[kind]}), got {t}")
        return f"expected a {rank}-d memref for a [{kind}] extra operand ({KIND_TEXT[kind]}), got {t}"
    if kind != "mn" and t.get_num_dims() == 2:
        from lasscc.dialects._common import memref_layout

        if memref_layout(t) != "row":  # [batch, N] packed: vector b at b * N
            return f"expected a per-batch [{kind}] vector row-major ([batch, length], packed), got {t}"
    if str(t.get_element_type()) not in EXTRA_TYPES:
        return f"expected f32, f16 or bf16 elements in an extra operand, got {t}"
    return None


def verify_region(region: Region, extras: Sequence[SSAValue], kinds: Sequence[str], d_type: MemRefType | None,
                  what: str = "epilogue") -> None:
    """Check an epilogue region against its extra operands (VerifyException naming the op, its
    place and what was expected); a 3-d `d_type` is a batched GEMM's (shared or per-batch extras)."""
    if len(kinds) != len(extras):
        raise VerifyException(f"{what}: expected one kind per extra operand, got {len(kinds)} for {len(extras)}")
    batched = d_type is not None and d_type.get_num_dims() == 3
    for k, (kind, x) in enumerate(zip(kinds, extras)):
        bad = extra_kind_error(kind, x.type, batched)
        if bad:
            raise VerifyException(f"{what}: extra operand {k}: {bad}")
        if kind == "mn" and d_type is not None:
            from lasscc.dialects._common import memref_layout

            if memref_layout(x.type) != memref_layout(d_type):
                raise VerifyException(f"{what}: extra operand {k}: expected an [mn] matrix in D's layout "
                                      f"({memref_layout(d_type)}-major), got {x.type}")
    if len(region.blocks) != 1:
        raise VerifyException(f"{what}: expected a region of one block, got {len(region.blocks)}")
    block = region.block
    want = [Float32Type()] + [x.type if k == "scalar" else x.type.get_element_type() for k, x in zip(kinds, extras)]
    got = [a.type for a in block.args]
    if got != want:
        raise VerifyException(f"{what}: expected block arguments ({', '.join(map(str, want))}): the f32 value "
                              f"alpha * acc + beta * C, then one element of each extra operand; got "
                              f"({', '.join(map(str, got))})")
    allowed = ARITH_OPS + math_ops() + LASS_OPS
    inside = set(block.args)
    for op in block.ops:
        if isinstance(op, YieldOp):
            if op is not block.last_op:
                raise VerifyException(f"{what}: 'lass.yield' at {_where(op)} must end the region")
            if len(op.values) != 1 or not isinstance(op.values[0].type, Float32Type):
                raise VerifyException(f"{what}: 'lass.yield' at {_where(op)}: expected one f32 value, got "
                                      f"({', '.join(str(v.type) for v in op.values)})")
        elif not isinstance(op, allowed):
            raise VerifyException(
                f"{what}: '{op.name}' at {_where(op)} is not allowed in an epilogue region; expected one of "
                f"{_names(ARITH_OPS)}, {_names(math_ops())}, {_names(LASS_OPS)}, lass.yield")
        if op.regions:
            raise VerifyException(f"{what}: '{op.name}' at {_where(op)}: expected no nested regions")
        if isinstance(op, GeluOp) and op.rounded_to is not None and d_type is not None \
                and op.rounded_to != d_type.get_element_type():
            raise VerifyException(f"{what}: 'lass.gelu' at {_where(op)}: expected rounded_to to be D's element "
                                  f"type {d_type.get_element_type()} (or absent), got {op.rounded_to}")
        for x in op.operands:
            # a constant defined before the op is allowed: CSE merges a region's constants with equal
            # ones outside it (the region is not isolated from above); the CPU executor and
            # clone_region_into take it as it is
            if x not in inside and not isinstance(x.owner, arith.ConstantOp):
                raise VerifyException(f"{what}: '{op.name}' at {_where(op)} uses a value defined outside the "
                                      f"region; expected only the block arguments, constants and values computed in it")
        if not isinstance(op, (YieldOp, arith.ExtFOp, arith.TruncFOp, arith.CmpfOp, arith.SelectOp)):
            for r in op.results:
                if not isinstance(r.type, Float32Type):
                    raise VerifyException(f"{what}: '{op.name}' at {_where(op)}: expected f32 arithmetic (extend "
                                          f"f16 / bf16 operands with arith.extf first), got {r.type}")
        inside.update(op.results)
    if not isinstance(block.last_op, YieldOp):
        raise VerifyException(f"{what}: expected the region to end with lass.yield of an f32 value")


def kinds_attr(kinds: Sequence[str]) -> ArrayAttr:
    return ArrayAttr([StringAttr(k) for k in kinds])


def kinds_of(attr: ArrayAttr | None) -> tuple[str, ...]:
    return () if attr is None else tuple(x.data for x in attr.data)


def print_epilogue(printer: Printer, extras: Sequence[SSAValue], kinds: Sequence[str], region: Region) -> None:
    """` epilogue(%x [n], %s : memref<?xf32>, f32) {region}` (nothing for an op without one)."""
    if not region.blocks:
        return
    printer.print_string(" epilogue(")
    for k, (x, kind) in enumerate(zip(extras, kinds)):
        if k:
            printer.print_string(", ")
        printer.print_operand(x)
        if kind != "scalar":
            printer.print_string(f" [{kind}]")
    if extras:
        printer.print_string(" : ")
        printer.print_list([x.type for x in extras], printer.print_attribute)
    printer.print_string(") ")
    printer.print_region(region, print_entry_block_args=True)


def parse_epilogue(parser: Parser) -> tuple[list[SSAValue], list[str], Region] | None:
    """The ` epilogue(...) {region}` suffix, or None when absent."""
    if parser.parse_optional_keyword("epilogue") is None:
        return None
    parser.parse_punctuation("(")
    names, kinds = [], []
    if parser.parse_optional_punctuation(")") is None:
        while True:
            names.append(parser.parse_unresolved_operand())
            if parser.parse_optional_punctuation("[") is not None:
                start = parser.pos
                kind = parser.parse_identifier(" (n, m or mn)")
                if kind not in ("n", "m", "mn"):
                    parser.raise_error(f"expected an extra operand kind n, m or mn, got '{kind}'", start, parser.pos)
                parser.parse_punctuation("]")
                kinds.append(kind)
            else:
                kinds.append("scalar")
            if parser.parse_optional_punctuation(",") is None:
                break
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) != len(names):
            parser.raise_error(f"expected {len(names)} types for the extra operands, got {len(types)}")
        parser.parse_punctuation(")")
        extras = [parser.resolve_operand(n, t) for n, t in zip(names, types)]
    else:
        extras = []
    region = parser.parse_region()
    return extras, kinds, region


def clone_region_into(block: Block, values: Sequence[SSAValue], insert) -> SSAValue:
    """Inline a copy of the region block `block` with its arguments bound to `values`, each op
    cloned and given to `insert(op)`; returns the yielded value's copy."""
    mapping: dict[SSAValue, SSAValue] = dict(zip(block.args, values))
    for op in block.ops:
        if isinstance(op, YieldOp):
            return mapping[op.values[0]]
        new = op.clone(value_mapper=mapping)
        insert(new)
        for old, nv in zip(op.results, new.results):
            mapping[old] = nv
    raise AssertionError("an epilogue region ends with lass.yield")


def gated_region(region: Region) -> Region:
    """A copy of `region` with one more block argument, an f32 flag (a scalar extra operand), that
    yields the region's value where the flag is nonzero and its input value v as it is elsewhere.

    The one rule of where a split schedule applies a fused epilogue (lasscc-tile-threadblock):
    a tile whose value is summed by several epilogues (serial split-K's partitions, stream-K's
    units) applies the region only in the one that completes the sum (the flag: the last partition,
    the unit that ends the tile's K range); the others write the raw partial alpha * acc (+ beta *
    C in the first), since a non-linear region does not distribute over the sum."""
    new = region.clone()
    block = new.block
    flag = block.insert_arg(Float32Type(), len(block.args))
    flag.name_hint = "last"
    y = block.last_op
    assert isinstance(y, YieldOp)
    zero = arith.ConstantOp(FloatAttr(0.0, Float32Type()))
    on = arith.CmpfOp(flag, zero.result, "one")
    pick = arith.SelectOp(on.result, y.values[0], block.args[0])
    for op in (zero, on, pick):
        block.insert_op_before(op, y)
    y.operands = [pick.result]
    return new
