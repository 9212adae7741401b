"""`lass`: the input level.  One op, `lass.gemm`, in the style of linalg.

    D = alpha * A . B + beta * C      (C is read from and D written to the `outs` buffer)

A is M x K, B is K x N, D is M x N, all memrefs; the layout is the memref's: an identity layout is
row-major, `strided<[1, ?]>` is column-major.  Sizes are dynamic and reach the kernel at launch.
Batched GEMM: all three memrefs 3-d with the batch first (`memref<?x?x?xf16>`,
`memref<?x?x?xf16, strided<[?, 1, ?]>>`), batches packed one after the other.

Element types (A and B alike) and the accumulator `acc` (optional, a type; the default is f32, or
i32 for i8): f16 -> acc f32 or f16; bf16 -> f32; f32 (multiplied as tf32) -> f32; i8 -> i32.

Example (round-trips):

    func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
      lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32, config = {stages = 3 : i64}}
          ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
      func.return
    }
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DictionaryAttr,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    StringAttr,
    bf16,
    f16,
    f32,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    opt_region_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from lasscc.config import GemmConfig, default_config, swap_operands
from lasscc.dialects._common import layout_major, memref_layout


# accumulator types the mma.sync instructions offer per A/B element type (PTX ISA "mma"): the first
# is the default.  f16 -> f16 is m16n8k16 .f16.f16.f16.f16; f32 inputs run as tf32 (m16n8k8); i8
# as s8 (m16n8k32, s32 accumulators).
ACC_TYPES = {"f16": ("f32", "f16"), "bf16": ("f32",), "f32": ("f32",), "i8": ("i32",)}
class Operand(StrEnum):
    """Which GEMM operand a tile copy moves: A (M x K) or B (K x N).  Compares equal to "A" / "B"."""

    A = "A"
    B = "B"


@irdl_attr_definition
class OperandAttr(EnumAttribute[Operand], SpacedOpaqueSyntaxAttribute):
    """The `operand` of the tile copies (lass_tb.load_tile, lass_pipe.copy_async / load_regs):
    `A` or `B` in their syntax, `#lass<operand A>` in the generic form."""

    name = "lass.operand"


def operand_attr(operand: str) -> OperandAttr:
    return OperandAttr(Operand(operand))


# D types per (A/B input, accumulator): the accumulator's, the input type, or f32 by an epilogue
# conversion (lasscc-tile-threadblock's contract)
D_TYPES = {("f16", "f32"): ("f32", "f16"), ("f16", "f16"): ("f16", "f32"), ("bf16", "f32"): ("f32", "bf16"),
           ("f32", "f32"): ("f32",), ("i8", "i32"): ("i32", "f32")}
LAYOUTS = ("row", "col")  # of a matrix operand: row-major or column-major
# D types a fused epilogue adds for f32 accumulators: an i8 D, rounded to nearest even and saturated
# (a quantized output; lasscc.dialects.epilogue)
EPILOGUE_D_TYPES = ("i8",)


def d_types(ab: str, acc: str, fused: bool = False) -> tuple[str, ...]:
    """The D types of (A/B type, accumulator), with or without a fused epilogue."""
    plain = D_TYPES.get((ab, acc), ())
    return plain + EPILOGUE_D_TYPES if fused and acc == "f32" and plain else plain


@irdl_op_definition
class GemmOp(IRDLOperation):
    """D = alpha * A . B + beta * C on memrefs; `outs` is both C and D.

    `config` holds the tiling (`threadblock`, `warp`, `instruction`, `stages`, `raster`); every key
    has a default (lasscc.config.GemmConfig).  `acc` is the accumulator type (ACC_TYPES).
    An optional fused epilogue, ` epilogue(%extras [kind] : types) {region}` after `outs`, maps
    each element of D (lasscc.dialects.epilogue: semantics, kinds, the ops allowed); its
    extra operands' kinds are the `epilogue_kinds` attribute in the generic form.
    """

    name = "lass.gemm"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    a = operand_def(MemRefType)
    b = operand_def(MemRefType)
    d = operand_def(MemRefType)
    extras = var_operand_def()
    alpha = opt_attr_def(FloatAttr)
    beta = opt_attr_def(FloatAttr)
    config = opt_attr_def(DictionaryAttr)
    acc = opt_attr_def(Attribute)
    epilogue_kinds = opt_attr_def(ArrayAttr)
    epilogue = opt_region_def()

    def print(self, printer: Printer) -> None:
        from lasscc.dialects.epilogue import kinds_of, print_epilogue

        printer.print_op_attributes(self.attributes, reserved_attr_names=("epilogue_kinds",))
        printer.print_string(" ins(")
        printer.print_list((self.a, self.b), printer.print_operand)
        printer.print_string(f" : {self.a.type}, {self.b.type}) outs(")
        printer.print_operand(self.d)
        printer.print_string(f" : {self.d.type})")
        if self.has_epilogue:
            print_epilogue(printer, self.extras, kinds_of(self.epilogue_kinds), self.epilogue)

    @classmethod
    def parse(cls, parser: Parser) -> GemmOp:
        from lasscc.dialects.epilogue import kinds_attr, parse_epilogue

        def memref_type(what: str) -> MemRefType:
            start = parser.pos
            t = parser.parse_type()
            if not isinstance(t, MemRefType):
                parser.raise_error(f"{t} should be a memref (lass.gemm's {what})", start, parser.pos)
            return t

        attrs = parser.parse_optional_attr_dict()
        parser.parse_keyword("ins")
        parser.parse_punctuation("(")
        names = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        names.append(parser.parse_unresolved_operand())
        parser.parse_punctuation(":")
        ta = memref_type("A")
        parser.parse_punctuation(",")
        tb = memref_type("B")
        parser.parse_punctuation(")")
        parser.parse_keyword("outs")
        parser.parse_punctuation("(")
        dname = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        td = memref_type("D")
        parser.parse_punctuation(")")
        a, b = parser.resolve_operand(names[0], ta), parser.resolve_operand(names[1], tb)
        d = parser.resolve_operand(dname, td)
        epi = parse_epilogue(parser)
        extras, regions = [], []
        if epi is not None:
            extras, kinds, region = epi
            attrs["epilogue_kinds"] = kinds_attr(kinds)
            regions = [region]
        return cls.create(operands=[a, b, d, *extras], attributes=attrs, regions=regions)

    def __init__(self, a, b, d, alpha: float = 1.0, beta: float = 0.0, config: DictionaryAttr | None = None):
        attrs = {"alpha": FloatAttr(alpha, Float32Type()), "beta": FloatAttr(beta, Float32Type())}
        if config is not None:
            attrs["config"] = config
        super().__init__(operands=[a, b, d, []], attributes=attrs, regions=[None])

    def verify_(self) -> None:
        ta, tb, td = (v.type for v in (self.a, self.b, self.d))
        rank = ta.get_num_dims()
        for name, t in (("A", ta), ("B", tb), ("D", td)):
            assert isinstance(t, MemRefType)
            if t.get_num_dims() not in (2, 3) or t.get_num_dims() != rank:
                raise VerifyException(
                    f"expected 2-d memrefs (or 3-d, batch first, for all three) for A, B and D, got {t} for {name}"
                )
            if 0 in t.get_shape():
                raise VerifyException(f"expected non-zero sizes for {name} (a GEMM of an empty matrix), got {t}")
            if not isinstance(t.memory_space, NoneAttr) and t.memory_space != IntegerAttr(0, i64):
                raise VerifyException(f"expected {name} in global memory (a memref without a memory space), got {t}")
        if ta.get_element_type() != tb.get_element_type():
            raise VerifyException(
                f"expected A and B of one element type, got {ta.get_element_type()} and {tb.get_element_type()}"
            )
        self._verify_acc(str(ta.get_element_type()))
        self._verify_epilogue(td, rank)
        if rank == 3:
            batches = {t.get_shape()[0] for t in (ta, tb, td)} - {DYNAMIC_INDEX}
            if len(batches) > 1:
                raise VerifyException(f"expected one batch size for A, B and D, got {sorted(batches)}")
        (m, ka), (kb, n), (md, nd) = ta.get_shape()[-2:], tb.get_shape()[-2:], td.get_shape()[-2:]
        for what, x, y in (("K of A and K of B", ka, kb), ("M of A and M of D", m, md), ("N of B and N of D", n, nd)):
            if x >= 0 and y >= 0 and x != y:
                raise VerifyException(f"expected {what} to agree, got {x} and {y}")

    def _verify_epilogue(self, td: MemRefType, rank: int) -> None:
        from lasscc.dialects.epilogue import kinds_of, verify_region

        kinds = kinds_of(self.epilogue_kinds)
        if not self.has_epilogue:
            if self.extras or kinds:
                raise VerifyException("expected an epilogue region with the epilogue's extra operands")
            return
        verify_region(self.epilogue, self.extras, kinds, td)

    @property
    def has_epilogue(self) -> bool:
        return self.epilogue is not None and bool(self.epilogue.blocks)

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds of the epilogue's extra operands (lasscc.dialects.epilogue.KINDS)."""
        from lasscc.dialects.epilogue import kinds_of

        return kinds_of(self.epilogue_kinds)

    def _verify_acc(self, ab: str) -> None:
        if self.acc is None:
            return
        allowed = ACC_TYPES.get(ab)
        if str(self.acc) not in ("f32", "f16", "i32") or (allowed is not None and str(self.acc) not in allowed):
            raise VerifyException(
                f"expected acc {' or '.join(allowed or ('f32', 'f16', 'i32'))}"
                + (f" for {ab} A and B" if allowed else "") + f", got {self.acc}"
            )

    @property
    def acc_type(self) -> Attribute:
        """The accumulator type: `acc`, or the default for the input type (f32; i32 for i8)."""
        if self.acc is not None:
            return self.acc
        return i32 if str(self.a.type.get_element_type()) == "i8" else f32

    @property
    def alpha_value(self) -> float:
        return 1.0 if self.alpha is None else float(self.alpha.value.data)

    @property
    def beta_value(self) -> float:
        return 0.0 if self.beta is None else float(self.beta.value.data)


# ---- the kernel's facts ---------------------------------------------------------------------------

CONFIG_KEYS = ("threadblock", "warp", "instruction", "stages", "raster", "prefetch", "align", "split_k", "split_k_mode",
               "mma", "schedule", "persistent", "epilogue", "cluster", "swap_ab")


def config_to_attr(cfg: GemmConfig) -> DictionaryAttr:
    """`align` is written only when set (None: the full 16-byte accesses)."""
    entries = {key: (ArrayAttr([IntegerAttr(v, 64) for v in val]) if isinstance(val, list) else
                     StringAttr(val) if isinstance(val, str) else IntegerAttr(val, 64))
               for key, val in cfg.as_dict().items()}
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
        elif key == "cluster":
            if not isinstance(val, ArrayAttr) or len(val.data) != 2 or not all(
                isinstance(v, IntegerAttr) and v.type != i1 for v in val.data
            ):
                raise ValueError(f"config key 'cluster': expected a list of 2 integers (CTAs along M and N), "
                                 f"e.g. [2, 1], got {val}")
            kw[key] = tuple(int(v.value.data) for v in val.data)
        elif key == "align":
            if not isinstance(val, ArrayAttr) or len(val.data) != 2 or not all(
                isinstance(v, IntegerAttr) for v in val.data
            ):
                raise ValueError(f"config key 'align': expected a list of 2 integers (A and B elements per "
                                 f"access), e.g. [8, 8], got {val}")
            kw[key] = tuple(int(v.value.data) for v in val.data)
        elif key == "split_k_mode":
            if not isinstance(val, StringAttr):
                raise ValueError(f"config key 'split_k_mode': expected a string (serial, parallel, streamk, "
                                 f"streamk-dp), got {val}")
            kw[key] = val.data
        elif key in ("stages", "raster", "prefetch", "split_k", "persistent", "swap_ab"):
            if not isinstance(val, IntegerAttr) or val.type == i1:  # `true` is an i1 -1, not a count
                got = ("true" if val.value.data else "false") if isinstance(val, IntegerAttr) else val
                raise ValueError(f"config key '{key}': expected an integer, got {got}")
            kw[key] = int(val.value.data)
        elif key == "schedule":
            from lasscc.resources import SCHEDULES

            if not isinstance(val, StringAttr) or val.data not in SCHEDULES:
                raise ValueError(f"config key 'schedule': expected {' or '.join(repr(m) for m in SCHEDULES)}, got {val}")
            kw[key] = val.data
        elif key == "epilogue":
            from lasscc.resources import EPILOGUES

            if not isinstance(val, StringAttr) or val.data not in EPILOGUES:
                raise ValueError(f"config key 'epilogue': expected {' or '.join(repr(e) for e in EPILOGUES)}, got {val}")
            kw[key] = val.data
        elif key == "mma":
            from lasscc.resources import MMA_FAMILIES

            if not isinstance(val, StringAttr) or val.data not in MMA_FAMILIES:
                raise ValueError(f"config key 'mma': expected {' or '.join(repr(m) for m in MMA_FAMILIES)}, got {val}")
            kw[key] = val.data
        else:
            raise ValueError(f"config key '{key}': unknown; expected one of {', '.join(CONFIG_KEYS)}")
    if kw.get("mma", base.mma) == "wgmma":
        # a wgmma config's warp / instruction follow from its threadblock (the warpgroup tile and
        # wgmma.m64nBNk*: the K of 32 bytes that `base`, the type's default, has too) unless written
        from lasscc.resources import wgmma_defaults

        for k2, v2 in wgmma_defaults(kw.get("threadblock", base.threadblock), base.instruction[2]).items():
            kw.setdefault(k2, v2)
    return GemmConfig(**{**base.__dict__, **kw})


# The function attribute that makes a function a kernel: lasscc-tile-threadblock writes it, every
# later pass, the launcher, the cache, the executor and explain read it (kernel_facts).
KERNEL_ATTR = "lass.kernel"


@dataclass(frozen=True)
class KernelFacts:
    """What lasscc-tile-threadblock fixed about a kernel, typed: the Python side of `#lass.kernel`
    (KernelAttr), read back with `kernel_facts(func)` and nowhere else.

    Types are MLIR names (`ab_type` of A and B alike); the layouts are the caller's ("row" /
    "col"), D's included: a column-major D is computed as D^T = B^T . A^T (`swap_ab`).  `config`
    is in the kernel's operand order (its `align` swapped for swap_ab).  alpha / beta are the values
    written on the lass.gemm, held as f32: the defaults of `lasscc run` and the API (the kernel
    takes both at launch).  An omitted `acc_type`, `d_type` or `config` (None) takes the default
    for `ab_type`: ACC_TYPES' first, then D_TYPES' first, then lasscc.config.default_config."""

    ab_type: str = "f16"
    acc_type: str = None  # type: ignore[assignment]
    d_type: str = None  # type: ignore[assignment]
    a_layout: str = "row"
    b_layout: str = "col"
    d_layout: str = "row"
    batched: bool = False
    alpha: float = 1.0
    beta: float = 0.0
    config: GemmConfig = field(default=None)  # type: ignore[assignment]
    # the fused epilogue's extra operands, in the caller's terms: (kind, element type) each
    # (lasscc.dialects.epilogue.KINDS; scalars are ("scalar", "f32")); the kernel takes them as
    # parameters after beta
    epilogue: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        for name in ("alpha", "beta"):  # the kernel takes them as f32
            if isinstance(getattr(self, name), (int, float)):
                object.__setattr__(self, name, _to_f32(float(getattr(self, name))))
        if self.acc_type is None:
            object.__setattr__(self, "acc_type", ACC_TYPES.get(self.ab_type, ("f32",))[0])
        if self.d_type is None:
            object.__setattr__(self, "d_type", D_TYPES.get((self.ab_type, self.acc_type), (self.acc_type,))[0])
        if self.config is None:
            object.__setattr__(self, "config", default_config(self.ab_type))

    @classmethod
    def of_gemm(cls, op: GemmOp, config: GemmConfig) -> KernelFacts:
        """The facts of the kernel lasscc-tile-threadblock makes of `op` with `config` (the op's,
        defaults filled in: the caller's operand order)."""
        a_layout, b_layout, d_layout = (memref_layout(v.type) for v in (op.a, op.b, op.d))
        if config.align is not None:
            config = GemmConfig(**{**config.__dict__,
                                   "align": swap_operands(config.align, d_layout == "col" or bool(config.swap_ab))})
        from lasscc.dialects.epilogue import fact_kind

        extras = tuple((fact_kind(k, x.type), str(x.type) if k == "scalar" else str(x.type.get_element_type()))
                       for k, x in zip(op.kinds, op.extras))
        return cls(str(op.a.type.get_element_type()), str(op.acc_type), str(op.d.type.get_element_type()),
                   a_layout, b_layout, d_layout, op.a.type.get_num_dims() == 3, op.alpha_value, op.beta_value, config,
                   extras)

    @property
    def kernel_epilogue(self) -> tuple[tuple[str, str], ...]:
        """The extra operands' (kind, type) in the kernel's terms: a column-major D's kernel
        computes D^T, whose rows are D's columns (lasscc.dialects.epilogue.swap_kind)."""
        from lasscc.dialects.epilogue import swap_kind

        return tuple((swap_kind(k, self.swap_ab), t) for k, t in self.epilogue)

    @property
    def swap_ab(self) -> bool:
        """The kernel computes D^T = B^T . A^T (lasscc.config.swap_operands): for a column-major D
        (stored as the row-major D^T), or when the config asks (GemmConfig.swap_ab)."""
        return self.d_layout == "col" or bool(self.config.swap_ab)

    @property
    def kernel_d_layout(self) -> str:
        """The layout of the kernel's own M x N D: "row", or "col" for a row-major D that the
        kernel computes transposed (config swap_ab = 1: D^T is D's memory read column-major)."""
        return "col" if self.swap_ab and self.d_layout == "row" else "row"

    @property
    def kernel_layouts(self) -> tuple[str, str]:
        """Layouts of the kernel's A and B: the caller's, or for swap_ab B^T and A^T (the caller's B
        and A, each the other layout: a transpose of the same memory)."""
        flip = {"row": "col", "col": "row"} if self.swap_ab else {}
        return swap_operands(tuple(flip.get(x, x) for x in (self.a_layout, self.b_layout)), self.swap_ab)

    @property
    def kernel_majors(self) -> tuple[str, str]:
        """How the kernel's A and B tiles are stored ("k" / "mn", layout_major)."""
        ka, kb = self.kernel_layouts
        return tuple(layout_major(x, op) if x in LAYOUTS else None for x, op in ((ka, "A"), (kb, "B")))

    @property
    def caller_align(self) -> tuple[int, int]:
        """Elements per copy access of the caller's A and B (the config's are the kernel's)."""
        return swap_operands(self.config.align_elems(self.ab_type), self.swap_ab)

    def validate(self, arch: str, where: str) -> None:
        """The one check of the kernel's config: in the kernel's operand order (a column-major D
        swaps A and B, and their `align`), with its tiles' storage (K- or MN-major) and accumulator;
        raises LassError prefixed by `where` (GemmConfig.validate).  lasscc-tile-threadblock, the
        CLI's tiling options and `lasscc fuzz` use it."""
        from lasscc.layout import K_MAJOR

        majors = tuple(m or K_MAJOR for m in self.kernel_majors)
        self.config.validate(arch, where=where, ab_type=self.ab_type, majors=majors, acc_type=self.acc_type,
                             d_type=self.d_type)


def check_kernel_facts(facts: KernelFacts) -> None:
    """Raise KernelFactError(key, message) for a fact outside lasscc-tile-threadblock's contract."""
    ab, acc, d = facts.ab_type, facts.acc_type, facts.d_type
    if ab not in ACC_TYPES:
        raise KernelFactError("ab", f"expected ab {', '.join(ACC_TYPES)}, got {ab}")
    if acc not in ACC_TYPES[ab]:
        raise KernelFactError("acc", f"expected acc {' or '.join(ACC_TYPES[ab])} for {ab} A and B, got {acc}")
    allowed = d_types(ab, acc, bool(facts.epilogue) or facts.d_type in EPILOGUE_D_TYPES)
    if d not in allowed:
        raise KernelFactError(
            "d", f"expected d {' or '.join(allowed)} for {ab} A and B with {acc} accumulation, got {d}")
    for name, layout in zip("ABD", (facts.a_layout, facts.b_layout, facts.d_layout)):
        if layout not in LAYOUTS:
            raise KernelFactError("layouts", f"expected layouts row or col, got {layout} for {name}")
    for name in ("alpha", "beta"):
        if not isinstance(getattr(facts, name), float):
            raise KernelFactError(name, f"expected {name} a float, got {getattr(facts, name)!r}")
    from lasscc.dialects.epilogue import BATCH_KINDS, EXTRA_TYPES, KINDS

    for kind, typ in facts.epilogue:
        if kind not in KINDS + tuple(BATCH_KINDS.values()) or typ not in (("f32",) if kind == "scalar" else EXTRA_TYPES):
            raise KernelFactError("epilogue", f"expected epilogue entries 'KIND TYPE' with KIND one of "
                                  f"{', '.join(KINDS)} (or per batch {', '.join(BATCH_KINDS.values())}) and TYPE "
                                  f"f32, f16 or bf16 (scalars f32), got {kind} {typ}")
        if kind in BATCH_KINDS.values() and not facts.batched:
            raise KernelFactError("epilogue", f"expected a per-batch epilogue operand ({kind}) on a batched kernel only")


class KernelFactError(VerifyException):
    """A kernel fact outside the contract; `key` names it in `#lass.kernel<...>`."""

    def __init__(self, key: str, message: str):
        super().__init__(message)
        self.key = key


def _to_f32(value: float) -> float:
    """`value` rounded to the nearest f32 (IEEE: past the largest finite one, inf).  struct, not
    numpy: the compile path would import numpy (~0.12 s) for this alone."""
    import math
    import struct

    try:
        return struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:  # rounds past the largest finite f32
        return math.copysign(math.inf, value)


def _text_f32(printer: Printer, value: float) -> None:
    """The shortest decimal that reads back as the same f32 (`0.5`, `1.0e-05`); inf / nan as the
    hex bit pattern MLIR prints."""
    if not math.isfinite(value):
        printer.print_float(value, f32)
        return
    text = next(t for t in (f"{value:.{p}g}" for p in range(1, 10)) if _to_f32(float(t)) == value)
    if "." not in text:  # an MLIR float literal has a point: 1.0, 1.0e-05
        mant, _, exp = text.partition("e")
        text = f"{mant}.0" + (f"e{exp}" if exp else "")
    printer.print_string(text)


def _parse_f32(parser: AttrParser, key: str) -> float:
    start = parser.pos
    value = parser.parse_optional_number()
    if value is None:
        parser.raise_error(f"expected a number for {key}")
    text = parser.lexer.input.content[start:parser.pos].strip()
    if isinstance(value, int) and text.lower().startswith("0x"):  # an f32 bit pattern, as printed for inf / nan
        return struct.unpack("<f", struct.pack("<I", value & 0xFFFFFFFF))[0]
    return _to_f32(float(value))


@irdl_attr_definition
class KernelAttr(ParametrizedAttribute):
    """`#lass.kernel<...>`: a kernel's facts (KernelFacts), on the kernel function as `lass.kernel`.

        #lass.kernel<ab = f16, acc = f32, d = f32, layouts = [row, col, row], alpha = 1.0, beta = 0.0,
                     config = {threadblock = [128, 128, 32], warp = [64, 64, 32], instruction = [16, 8, 16],
                               stages = 3, raster = 8, prefetch = 0}>

    `layouts` are the caller's A, B and D; `batched` (a bare keyword) marks a batched kernel;
    `epilogue = [n f32, scalar f32]` (printed only when there is one) lists the fused epilogue's
    extra operands (KernelFacts.epilogue);
    `config` is in the kernel's operand order.  Printed in full; a hand-written one may leave keys
    out (KernelFacts' defaults) and give them in any order.  Every fact is checked on parsing
    (check_kernel_facts), the error naming the key."""

    name = "lass.kernel"
    ab_type: TypeAttribute
    acc_type: TypeAttribute
    d_type: TypeAttribute
    layouts: ArrayAttr[StringAttr]
    batched: IntegerAttr
    alpha: FloatAttr
    beta: FloatAttr
    config: DictionaryAttr
    epilogue: ArrayAttr[StringAttr]

    @staticmethod
    def from_facts(facts: KernelFacts) -> KernelAttr:
        """The attribute of `facts`; KernelFactError for facts outside the contract."""
        check_kernel_facts(facts)
        typ = {str(t): t for t in (f16, bf16, f32, i8, i32)}.__getitem__
        return KernelAttr(typ(facts.ab_type), typ(facts.acc_type), typ(facts.d_type),
                          ArrayAttr([StringAttr(x) for x in (facts.a_layout, facts.b_layout, facts.d_layout)]),
                          IntegerAttr(int(facts.batched), i1), FloatAttr(facts.alpha, f32),
                          FloatAttr(facts.beta, f32), config_to_attr(facts.config),
                          ArrayAttr([StringAttr(f"{k} {t}") for k, t in facts.epilogue]))

    @property
    def facts(self) -> KernelFacts:
        """The typed facts; VerifyException for a config that does not decode."""
        ab = str(self.ab_type)
        try:
            cfg = config_from_attr(self.config, default_config(ab))
        except ValueError as e:
            raise KernelFactError("config", str(e)) from None
        a, b, d = (x.data for x in self.layouts.data)
        return KernelFacts(ab, str(self.acc_type), str(self.d_type), a, b, d, bool(self.batched.value.data),
                           float(self.alpha.value.data), float(self.beta.value.data), cfg,
                           tuple(tuple(x.data.split(" ", 1)) for x in self.epilogue.data))

    def verify(self) -> None:
        if len(self.layouts.data) != 3:
            raise VerifyException(f"expected 3 layouts (A, B, D), got {len(self.layouts.data)}")
        if self.batched.type != i1:
            raise VerifyException(f"expected batched an i1, got {self.batched.type}")
        check_kernel_facts(self.facts)

    def print_parameters(self, printer: Printer) -> None:
        f = self.facts
        printer.print_string(f"<ab = {f.ab_type}, acc = {f.acc_type}, d = {f.d_type}, "
                             f"layouts = [{f.a_layout}, {f.b_layout}, {f.d_layout}], ")
        if f.batched:
            printer.print_string("batched, ")
        printer.print_string("alpha = ")
        _text_f32(printer, f.alpha)
        printer.print_string(", beta = ")
        _text_f32(printer, f.beta)
        cfg = ", ".join(f"{k} = {v}" if not isinstance(v, str) else f'{k} = "{v}"'  # split_k_mode: a string
                        for k, v in f.config.as_dict().items())
        printer.print_string(f", config = {{{cfg}}}")
        if f.epilogue:
            printer.print_string(", epilogue = [" + ", ".join(f"{k} {t}" for k, t in f.epilogue) + "]")
        printer.print_string(">")

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        keys = ("ab", "acc", "d", "layouts", "batched", "alpha", "beta", "config", "epilogue")
        given: dict[str, object] = {}
        spans: dict[str, tuple] = {}
        first = parser.pos

        def entry() -> None:
            start = parser.pos
            key = parser.parse_identifier(" (a #lass.kernel key: " + ", ".join(keys) + ")")
            if key not in keys:
                parser.raise_error(f"expected a #lass.kernel key ({', '.join(keys)}), got '{key}'", start, parser.pos)
            if key in given:
                parser.raise_error(f"'{key}' given twice", start, parser.pos)
            if key == "batched":
                given[key] = True
            else:
                parser.parse_punctuation("=")
                if key in ("ab", "acc", "d"):
                    given[key] = str(parser.parse_type())
                elif key == "layouts":
                    given[key] = parser.parse_comma_separated_list(
                        parser.Delimiter.SQUARE, lambda: parser.parse_identifier(" (row or col)"))
                elif key in ("alpha", "beta"):
                    given[key] = _parse_f32(parser, key)
                elif key == "epilogue":
                    def pair() -> tuple[str, str]:
                        kind = parser.parse_identifier(" (an epilogue operand kind: n, m, mn or scalar)")
                        return kind, str(parser.parse_type())
                    given[key] = tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, pair))
                else:
                    attr = parser.parse_attribute()
                    if not isinstance(attr, DictionaryAttr):
                        parser.raise_error(f"expected config a dictionary {{threadblock = [...], ...}}, got {attr}",
                                           start, parser.pos)
                    given[key] = attr
            spans[key] = (start, parser.pos)

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, entry)
        layouts = given.get("layouts", ["row", "col", "row"])
        if len(layouts) != 3:
            parser.raise_error(f"expected 3 layouts (A, B, D), got {len(layouts)}", *spans["layouts"])
        ab = given.get("ab", "f16")
        try:
            cfg = config_from_attr(given.get("config"), default_config(ab))  # type: ignore[arg-type]
        except ValueError as e:
            parser.raise_error(str(e), *spans["config"])
        facts = KernelFacts(ab, given.get("acc"), given.get("d"), *layouts,  # type: ignore[arg-type]
                            bool(given.get("batched", False)), given.get("alpha", 1.0),  # type: ignore[arg-type]
                            given.get("beta", 0.0), cfg, given.get("epilogue", ()))  # type: ignore[arg-type]
        try:
            check_kernel_facts(facts)
        except KernelFactError as e:
            parser.raise_error(str(e), *spans.get(e.key, (first, parser.pos)))
        return KernelAttr.from_facts(facts).parameters


def kernel_attr(fn: Operation) -> KernelAttr | None:
    """The `lass.kernel` attribute of a function (func.func or llvm.func), None when it is no
    kernel; LassError naming the function for an attribute of another kind."""
    attr = fn.attributes.get(KERNEL_ATTR)
    if attr is None or isinstance(attr, KernelAttr):
        return attr
    from lasscc.diagnostics import LassError
    from lasscc.locations import op_location

    raise LassError(f"{op_location(fn)}: error: {KERNEL_ATTR}: expected #lass.kernel<...>, got {attr}")


def kernel_facts(fn: Operation) -> KernelFacts | None:
    """The one accessor of a kernel's facts (see KernelFacts): None for a function that is no
    kernel (no `lass.kernel`); LassError naming the function for a malformed one."""
    attr = kernel_attr(fn)
    return None if attr is None else attr.facts


def _dialect() -> Dialect:
    from lasscc.dialects.epilogue import GeluOp, YieldOp

    return Dialect("lass", [GemmOp, YieldOp, GeluOp], [OperandAttr, KernelAttr])


Lass = _dialect()
