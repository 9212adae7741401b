"""Small IR-building helpers shared by the passes: i32 arithmetic with an insertion point (also
through lasscc.ir_math.Idx, so lasscc.layout's formulas write IR), the kernel's fixed parameter
list, and the kernel's checked config (from `#lass.kernel`)."""

from __future__ import annotations

from functools import cache, lru_cache

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, i1, i32
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from lasscc.config import KERNEL_FIXED_PARAMS, GemmConfig
from lasscc.dialects.lass import KERNEL_ATTR, kernel_attr, kernel_facts
from lasscc.ir_math import Idx
from lasscc.resources import SMEM_PER_BLOCK_LIMIT

def kernel_arg(func: FuncOp, name: str) -> SSAValue:
    """The kernel's parameter `name`, one of KERNEL_FIXED_PARAMS (the kernel ABI: lasscc.config.kernel_params)."""
    return func.body.block.args[KERNEL_FIXED_PARAMS.index(name)]


def is_kernel(func: FuncOp) -> bool:
    """The function carries `#lass.kernel` (LassError naming it for a `lass.kernel` of another kind)."""
    return kernel_attr(func) is not None


def kernel_ab_type(func: FuncOp) -> str:
    """MLIR name of the kernel's A/B element type (its `#lass.kernel`)."""
    return kernel_facts(func).ab_type


LARGEST_SMEM_ARCH = max(SMEM_PER_BLOCK_LIMIT, key=SMEM_PER_BLOCK_LIMIT.get)


def kernel_majors(func: FuncOp) -> tuple[str, str]:
    """How the kernel's A and B tiles are stored ("k" / "mn": KernelFacts.kernel_majors)."""
    from lasscc.layout import K_MAJOR

    facts = kernel_facts(func)
    majors = facts.kernel_majors if facts is not None else (None, None)
    return tuple(m or K_MAJOR for m in majors)


def kernel_acc_type(func: FuncOp) -> str | None:
    """MLIR name of the kernel's accumulator (KernelFacts.acc_type)."""
    facts = kernel_facts(func)
    return facts.acc_type if facts is not None else None


def kernel_config(func: FuncOp) -> GemmConfig:
    """The kernel's tiling config (KernelFacts.config), checked; a malformed one is a
    PassFailedException at the kernel."""
    from xdsl.utils.exceptions import PassFailedException

    from lasscc.diagnostics import LassError
    from lasscc.source import op_location

    try:
        facts = kernel_facts(func)
        # The SMEM budget of the target was checked by lasscc-tile-threadblock, which knows --arch;
        # later passes do not, so they hold the config to the largest budget lasscc targets.
        facts.config.validate(arch=LARGEST_SMEM_ARCH, where="config", ab_type=facts.ab_type,
                              majors=kernel_majors(func), acc_type=facts.acc_type)
    except LassError as e:
        msg = str(e)
        raise PassFailedException(msg if msg.startswith(op_location(func)) else
                                  f"{op_location(func)}: error: {KERNEL_ATTR}: {msg}") from None
    return facts.config


# lasscc.ir_math.Idx operator kinds -> arith ops (unsigned division, remainder and shift: an Idx
# is a non-negative index)
ARITH_BINOPS = {
    "add": arith.AddiOp, "sub": arith.SubiOp, "mul": arith.MuliOp, "div": arith.DivUIOp, "rem": arith.RemUIOp,
    "and": arith.AndIOp, "or": arith.OrIOp, "xor": arith.XOrIOp, "shl": arith.ShLIOp, "shr": arith.ShRUIOp,
    "min": arith.MinUIOp,
}


def erase_lowered(fn: FuncOp, ops) -> None:
    """Erase `ops` (a pass's rewritten logical ops, last first: users before producers) and then the
    function's `lass_pipe.ring`s, which nothing may use any more (a located PassFailedException
    naming the user otherwise): the end of lasscc-swizzle-smem and lasscc-hopper-smem."""
    from xdsl.utils.exceptions import PassFailedException

    from lasscc.dialects import lass_pipe
    from lasscc.source import op_location

    for op in reversed(ops):
        op.detach()
        op.erase(safe_erase=False)
    for ring in [o for o in fn.walk() if isinstance(o, lass_pipe.RingOp)]:
        if ring.result.uses:
            user = next(iter(ring.result.uses)).operation
            raise PassFailedException(f"{op_location(user)}: error: unexpected use of a ring by '{user.name}'")
        ring.detach()
        ring.erase()


@lru_cache(maxsize=4096)
def int_attr(value: int, typ) -> IntegerAttr:
    """IntegerAttr(value, typ), built once (attributes are immutable; building and checking one
    costs more than the op that holds it)."""
    return IntegerAttr(value, typ)


_ULT = int_attr(6, 64)  # arith.cmpi's predicate number of "ult"


class ArithBuilder:
    """Inserts ops at a point and returns their results: `b.add(x, b.const(4))`, or with operators on
    `b.idx(x)` (lasscc.ir_math.Idx).  Every method takes SSA values, ints and Idx alike.

    The constants and i32 arithmetic built through the methods below (not through `emit`) are
    built once per builder: asking again for the same constant, or the same op on the same operands,
    returns the first one's result while that op is still in the point's block.  That is the op
    CSE would keep (every later op of this builder comes after it in the block; an equal op before
    it, from elsewhere, replaces both alike), so the IR after the pass's tidy-up is unchanged; what
    is saved is building the duplicates and CSE's removing them (~500 ops of the TMA-store
    epilogue's lasscc-warpgroup-mma).  So a builder's ops must be followed by CSE in that block, as
    the driver's tidy-up does after every pass: the lowering's blocks after scf -> cf, which CSE does
    not merge in, are not built here.  An op not used when asked for again is built anew (CSE
    erases an unused first one and keeps the second).  CSE also leaves a merged value the name of
    the first used one: a builder whose results are named where several may be one value, some of
    them unused, builds every op anew (`reuse=False`).  Builders of one pass that insert in turn
    into one block, each after the ones before, may share what they built (`shared`)."""

    def __init__(self, point: InsertPoint, reuse: bool = True, shared: dict | None = None):
        self.point = point
        # (what, operands...) -> the op built for it here; None: every op built anew (`reuse`).  A
        # pass may give builders one `shared` dict where they insert into one block at points that
        # never move back (each builder's point after the ops the ones before it built)
        self._built: dict[tuple, Operation] | None = (shared if shared is not None else {}) if reuse else None

    def _again(self, key: tuple, operands: tuple = ()) -> SSAValue | None:
        """The result of the op built here for `key`, if it is still in the point's block, still
        has `operands` and is used (an op unused so far, say built in case it was needed, CSE would
        erase rather than keep)."""
        op = self._built.get(key) if self._built is not None else None
        if op is not None and op.parent is self.point.block and all(
                a is b for a, b in zip(op.operands, operands, strict=True)):
            result = op.results[0]
            if result.first_use is not None:
                return result
        return None

    def _keep(self, key: tuple, op: Operation) -> SSAValue:
        """Insert `op`, built for `key`; its result."""
        self.insert(op)
        if self._built is not None:
            self._built[key] = op
        return op.results[0]

    def _pure(self, cls, x: SSAValue, y: SSAValue) -> SSAValue:
        """cls(x, y), built once if CSE would merge two of them (`cse_merges`)."""
        if not cse_merges(cls):
            return self.emit(cls(x, y))
        key = (cls, id(x), id(y))
        got = self._again(key, (x, y))
        return got if got is not None else self._keep(key, cls(x, y))

    def insert(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, self.point)
        return op

    def emit(self, op: Operation) -> SSAValue:
        return self.insert(op).results[0]

    def const(self, value: int, typ=i32) -> SSAValue:
        key = (value, typ)
        got = self._again(key)
        return got if got is not None else self._keep(key, arith.ConstantOp(int_attr(value, typ)))

    def const_float(self, value: float, typ) -> SSAValue:
        from xdsl.dialects.builtin import FloatAttr

        return self.emit(arith.ConstantOp(FloatAttr(value, typ)))

    def val(self, x) -> SSAValue:
        """x as an SSA value: an int becomes a constant, an Idx gives its value."""
        if isinstance(x, int):
            return self.const(x)
        return x.value if isinstance(x, Idx) else x

    _int = val

    def idx(self, x) -> Idx:
        """x (SSA value, int or Idx of another builder) as an Idx emitting here."""
        return Idx(self.val(x), self)

    def binop(self, kind: str, x: SSAValue, y: SSAValue) -> SSAValue:
        """The emitter hook of lasscc.ir_math.Idx: one ARITH_BINOPS[kind] op."""
        return self._pure(ARITH_BINOPS[kind], x, y)

    def add(self, x, y):
        if isinstance(y, int) and y == 0:
            return self._int(x)
        return self._pure(arith.AddiOp, self._int(x), self._int(y))

    def sub(self, x, y):
        return self._pure(arith.SubiOp, self._int(x), self._int(y))

    def mul(self, x, y):
        if isinstance(y, int) and y == 1:
            return self._int(x)
        return self._pure(arith.MuliOp, self._int(x), self._int(y))

    def div(self, x, y):
        return self._pure(arith.DivUIOp, self._int(x), self._int(y))

    def rem(self, x, y):
        return self._pure(arith.RemUIOp, self._int(x), self._int(y))

    def min(self, x, y):
        return self._pure(arith.MinUIOp, self._int(x), self._int(y))

    def shr(self, x, y):
        return self._pure(arith.ShRUIOp, self._int(x), self._int(y))

    def and_(self, x, y):
        return self._pure(arith.AndIOp, self._int(x), self._int(y))

    def ult(self, x, y):
        x, y = self._int(x), self._int(y)
        if x.type != y.type:  # what arith.CmpiOp's builder checks
            raise TypeError(f"Comparison operands must have same type, but provided {x.type} and {y.type}")
        key = ("ult", id(x), id(y))
        got = self._again(key, (x, y))
        # arith.CmpiOp(x, y, "ult") with its predicate attribute built once
        return got if got is not None else self._keep(
            key, arith.CmpiOp.create(operands=[x, y], result_types=[i1], properties={"predicate": _ULT}))


@cache
def cse_merges(cls) -> bool:
    """Whether CSE (lasscc.tidy) merges two `cls` ops with the same operands: the op class declares
    no memory effect (xDSL's Pure / NoMemoryEffect).  arith.remui declares none at all in xDSL 0.74
    (unknown effects), so CSE keeps every one of them, and so does ArithBuilder."""
    from xdsl.traits import MemoryEffect, NoMemoryEffect

    traits = cls.get_traits_of_type(MemoryEffect)
    return bool(traits) and all(isinstance(t, NoMemoryEffect) for t in traits)
