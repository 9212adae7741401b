"""IR values with Python's integer operators, so lasscc.layout's formulas also write IR.

`Idx(value, em)` wraps an i32 SSA value and an emitter (anything with `const(int) -> SSAValue` and
`binop(kind, lhs, rhs) -> SSAValue`: lasscc.passes._build.ArithBuilder emits `arith`, lasscc-lower-to-llvm
an adapter emitting `llvm`).  Each operator emits one op at the emitter's insertion point, in
Python's evaluation order, so `layout.raster_tile(pid, tiles_m, tiles_n, group)` on an Idx `pid`
writes the rasterization into the kernel, and on ints or numpy arrays computes it: the formula the
unit tests check is the one that generates the IR (tinygrad's MathTrait is the model).

Contract: an Idx stands for a non-negative integer below 2**31 (an index, a lane, a byte offset),
so `//`, `%` and `>>` are the unsigned ops (arith.divui / remui / shrui), which equal Python's
floor semantics there.  A Python int operand becomes an `arith.constant` emitted right before the
op; for commutative ops it is the right operand (MLIR's canonical form) even when written on the
left (`8 * x` emits `muli x, 8`).  Operations on two ints stay ints (the caller's arithmetic is
folded, never emitted), and identities with a constant fold to the other operand without emitting
anything: x + 0, x - 0, x * 1, x // 1, x | 0, x ^ 0, x << 0, x >> 0, x & -1; x * 0, x % 1 and
x & 0 give the int 0.
"""

from __future__ import annotations

# kind -> commutative?
KINDS = {"add": True, "sub": False, "mul": True, "div": False, "rem": False, "and": True, "or": True,
         "xor": True, "shl": False, "shr": False, "min": True}

# (kind, constant) -> what `x kind constant` is without emitting: "x" (x itself) or an int
_IDENTITY = {("add", 0): "x", ("sub", 0): "x", ("mul", 1): "x", ("div", 1): "x", ("or", 0): "x",
             ("xor", 0): "x", ("shl", 0): "x", ("shr", 0): "x", ("and", -1): "x",
             ("mul", 0): 0, ("rem", 1): 0, ("and", 0): 0}


class Idx:
    """An i32 SSA value `value` with integer operators emitting through `em` (see module doc)."""

    __slots__ = ("value", "em")

    def __init__(self, value, em):
        self.value, self.em = value, em

    def __repr__(self) -> str:
        return f"Idx({self.value})"

    def _op(self, kind: str, other, reflected: bool = False):
        if isinstance(other, Idx):
            if other.em is not self.em:
                raise ValueError("Idx operands from two emitters (insertion points); re-wrap one with the other's")
            lhs, rhs = (other.value, self.value) if reflected else (self.value, other.value)
            return Idx(self.em.binop(kind, lhs, rhs), self.em)
        if not isinstance(other, int):
            return NotImplemented
        if not reflected or KINDS[kind]:  # x op c, or c op x with op commutative: x op c
            fold = _IDENTITY.get((kind, other))
            if fold is not None:
                return self if fold == "x" else fold
            return Idx(self.em.binop(kind, self.value, self.em.const(other)), self.em)
        if kind == "sub" and other == 0:  # 0 - x cannot be an index
            raise ValueError("0 - Idx: an Idx stands for a non-negative value")
        if other == 0 and kind in ("div", "rem", "shl", "shr"):
            return 0
        return Idx(self.em.binop(kind, self.em.const(other), self.value), self.em)

    def minimum(self, o):
        """min(self, o) (arith.minui); lasscc.layout.minimum dispatches here."""
        return self._op("min", o)

    def __bool__(self):
        raise TypeError("an Idx has no truth value at compile time: a layout formula may branch only on ints")


# Python's operators -> Idx._op kinds (`__add__` and the reflected `__radd__`, ...): one table
for _name, _kind in (("add", "add"), ("sub", "sub"), ("mul", "mul"), ("floordiv", "div"), ("mod", "rem"),
                     ("and", "and"), ("or", "or"), ("xor", "xor"), ("lshift", "shl"), ("rshift", "shr")):
    setattr(Idx, f"__{_name}__", lambda self, o, _k=_kind: self._op(_k, o))
    setattr(Idx, f"__r{_name}__", lambda self, o, _k=_kind: self._op(_k, o, True))
