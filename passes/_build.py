"""Small IR-building helpers shared by the passes: i32 arithmetic with an insertion point (also
through lasscc.ir_math.Idx, so lasscc.layout's formulas write IR), the kernel's fixed parameter
list, and reading `lass.config` back into a GemmConfig."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    i1,
    i32,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from lasscc.config import SMEM_PER_BLOCK_LIMIT, GemmConfig
from lasscc.ir_math import Idx

# The kernel ABI, fixed from lasscc-tile-threadblock on (lasscc.config.KernelSpec.params).
KERNEL_PARAMS = ("A", "B", "D", "M", "N", "K", "alpha", "beta")
CONFIG_ATTR = "lass.config"


def kernel_arg(func: FuncOp, name: str) -> SSAValue:
    return func.body.block.args[KERNEL_PARAMS.index(name)]


def is_kernel(func: FuncOp) -> bool:
    return CONFIG_ATTR in func.attributes


def kernel_ab_type(func: FuncOp) -> str:
    """MLIR name of the kernel's A/B element type (`lass.a_type`, written by lasscc-tile-threadblock)."""
    attr = func.attributes.get("lass.a_type")
    return attr.data if attr is not None and hasattr(attr, "data") else "f16"


def config_to_attr(cfg: GemmConfig) -> DictionaryAttr:
    """`align` is written only when set (None: the full 16-byte accesses)."""
    entries = {
        "threadblock": ArrayAttr([IntegerAttr(v, 64) for v in cfg.threadblock]),
        "warp": ArrayAttr([IntegerAttr(v, 64) for v in cfg.warp]),
        "instruction": ArrayAttr([IntegerAttr(v, 64) for v in cfg.instruction]),
        "stages": IntegerAttr(cfg.stages, 64),
        "raster": IntegerAttr(cfg.raster, 64),
        "prefetch": IntegerAttr(cfg.prefetch, 64),
    }
    if cfg.align is not None:
        entries["align"] = ArrayAttr([IntegerAttr(v, 64) for v in cfg.align])
    return DictionaryAttr(entries)


def config_from_attr(attr: DictionaryAttr | None, base: GemmConfig = GemmConfig()) -> GemmConfig:
    """GemmConfig from a `config` dictionary; missing keys keep `base`'s values.

    Raises ValueError with the offending key for a malformed entry.
    """
    if attr is None:
        return base
    kw: dict[str, object] = {}
    for key, val in attr.data.items():
        if key in ("threadblock", "warp", "instruction"):
            if not isinstance(val, ArrayAttr) or len(val.data) != 3 or not all(
                isinstance(v, IntegerAttr) for v in val.data
            ):
                raise ValueError(f"config key '{key}': expected a list of 3 integers, e.g. [128, 128, 32], got {val}")
            kw[key] = tuple(int(v.value.data) for v in val.data)
        elif key == "align":
            if not isinstance(val, ArrayAttr) or len(val.data) != 2 or not all(
                isinstance(v, IntegerAttr) for v in val.data
            ):
                raise ValueError(f"config key 'align': expected a list of 2 integers (A and B elements per "
                                 f"access), e.g. [8, 8], got {val}")
            kw[key] = tuple(int(v.value.data) for v in val.data)
        elif key in ("stages", "raster", "prefetch"):
            if not isinstance(val, IntegerAttr) or val.type == i1:  # `true` is an i1 -1, not a count
                got = ("true" if val.value.data else "false") if isinstance(val, IntegerAttr) else val
                raise ValueError(f"config key '{key}': expected an integer, got {got}")
            kw[key] = int(val.value.data)
        else:
            raise ValueError(
                f"config key '{key}': unknown; expected one of threadblock, warp, instruction, stages, raster, "
                "prefetch, align"
            )
    return GemmConfig(**{**base.__dict__, **kw})


LARGEST_SMEM_ARCH = max(SMEM_PER_BLOCK_LIMIT, key=SMEM_PER_BLOCK_LIMIT.get)


def kernel_majors(func: FuncOp) -> tuple[str, str]:
    """How the kernel's A and B tiles are stored ("k" / "mn", lasscc.dialects.lass.operand_major of
    its memref arguments); ("k", "k") once they are lowered to pointers."""
    from xdsl.dialects.builtin import MemRefType

    from lasscc.dialects.lass import operand_major
    from lasscc.layout import K_MAJOR

    args = func.body.block.args if func.body.blocks else ()
    if len(args) >= 2 and all(isinstance(a.type, MemRefType) for a in args[:2]):
        majors = (operand_major(args[0].type, "A"), operand_major(args[1].type, "B"))
        return (majors[0] or K_MAJOR, majors[1] or K_MAJOR)
    return (K_MAJOR, K_MAJOR)


def kernel_acc_type(func: FuncOp) -> str | None:
    """MLIR name of the kernel's accumulator (`lass.acc_type`, written by lasscc-tile-threadblock)."""
    attr = func.attributes.get("lass.acc_type")
    return attr.data if attr is not None and hasattr(attr, "data") else None


def kernel_config(func: FuncOp) -> GemmConfig:
    """The kernel's tiling config; a malformed `lass.config` is a PassFailedException at the kernel."""
    from xdsl.dialects.builtin import DictionaryAttr
    from xdsl.utils.exceptions import PassFailedException

    from lasscc.diagnostics import LassError
    from lasscc.source import op_location

    attr = func.attributes.get(CONFIG_ATTR)
    try:
        if not isinstance(attr, DictionaryAttr):
            raise ValueError(f"expected a dictionary, got {attr}")
        cfg = config_from_attr(attr)
        # The SMEM budget of the target was checked by lasscc-tile-threadblock, which knows --arch;
        # later passes do not, so they hold the config to the largest budget lasscc targets.
        cfg.validate(arch=LARGEST_SMEM_ARCH, where="config", ab_type=kernel_ab_type(func), majors=kernel_majors(func),
                     acc_type=kernel_acc_type(func))
    except (ValueError, TypeError, LassError) as e:
        raise PassFailedException(f"{op_location(func)}: error: {CONFIG_ATTR}: {e}") from None
    return cfg


# lasscc.ir_math.Idx operator kinds -> arith ops (unsigned division, remainder and shift: an Idx
# is a non-negative index)
ARITH_BINOPS = {
    "add": arith.AddiOp, "sub": arith.SubiOp, "mul": arith.MuliOp, "div": arith.DivUIOp, "rem": arith.RemUIOp,
    "and": arith.AndIOp, "or": arith.OrIOp, "xor": arith.XOrIOp, "shl": arith.ShLIOp, "shr": arith.ShRUIOp,
    "min": arith.MinUIOp,
}


class Builder:
    """Inserts ops at a point and returns their results: `b.add(x, b.c(4))`, or with operators on
    `b.idx(x)` (lasscc.ir_math.Idx).  Every method takes SSA values, ints and Idx alike."""

    def __init__(self, point: InsertPoint):
        self.point = point

    def insert(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, self.point)
        return op

    def v(self, op: Operation) -> SSAValue:
        return self.insert(op).results[0]

    def c(self, value: int, typ=i32) -> SSAValue:
        return self.v(arith.ConstantOp(IntegerAttr(value, typ)))

    def cf(self, value: float, typ) -> SSAValue:
        from xdsl.dialects.builtin import FloatAttr

        return self.v(arith.ConstantOp(FloatAttr(value, typ)))

    def val(self, x) -> SSAValue:
        """x as an SSA value: an int becomes a constant, an Idx gives its value."""
        if isinstance(x, int):
            return self.c(x)
        return x.value if isinstance(x, Idx) else x

    _int = val

    def idx(self, x) -> Idx:
        """x (SSA value, int or Idx of another builder) as an Idx emitting here."""
        return Idx(self.val(x), self)

    def binop(self, kind: str, x: SSAValue, y: SSAValue) -> SSAValue:
        """The emitter hook of lasscc.ir_math.Idx: one ARITH_BINOPS[kind] op."""
        return self.v(ARITH_BINOPS[kind](x, y))

    def add(self, x, y):
        if isinstance(y, int) and y == 0:
            return self._int(x)
        return self.v(arith.AddiOp(self._int(x), self._int(y)))

    def sub(self, x, y):
        return self.v(arith.SubiOp(self._int(x), self._int(y)))

    def mul(self, x, y):
        if isinstance(y, int) and y == 1:
            return self._int(x)
        return self.v(arith.MuliOp(self._int(x), self._int(y)))

    def div(self, x, y):
        return self.v(arith.DivUIOp(self._int(x), self._int(y)))

    def rem(self, x, y):
        return self.v(arith.RemUIOp(self._int(x), self._int(y)))

    def min(self, x, y):
        return self.v(arith.MinUIOp(self._int(x), self._int(y)))

    def shr(self, x, y):
        return self.v(arith.ShRUIOp(self._int(x), self._int(y)))

    def and_(self, x, y):
        return self.v(arith.AndIOp(self._int(x), self._int(y)))

    def ult(self, x, y):
        return self.v(arith.CmpiOp(self._int(x), self._int(y), "ult"))
