"""The options the CLI and the Python API share, checked once, and what they do to a module.

`Options` is the one typed place for the target (`arch`), the tiling overrides (`--threadblock`,
`--warp`, `--stages`, `--raster`, `--prefetch`, `--split-k`, `--split-k-mode`), the access widths (`--align`) and the run
scalars (`--alpha`, `--beta`, `--seed`).  The CLI maps its argparse namespace onto it
(`Options.from_args`); the API constructs it from Python values (tuples, ints, bools, or the CLI's
text).  Every bad value is a LassError `option --x: expected ..., got ...`, the CLI's text, whichever
side gave it.  `apply_overrides` writes the tiling into the module's `lass.gemm`s; `module_align` /
`set_module_align` read and write the access widths; `resolve_stage` names the pipeline's stages.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, fields

from lasscc.config import I32_LIMIT, parse_align, parse_shape
from lasscc.diagnostics import CompileError, LassError

ARCHS = ("sm_80", "sm_90a")
from lasscc.splitk import MODES as SPLIT_K_MODES  # serial / parallel split-K, stream-K

TILING = ("threadblock", "warp", "stages", "raster", "prefetch", "split_k", "split_k_mode")  # they rewrite the tiling
F32_MAX = 3.4028234663852886e38  # the largest finite f32: alpha and beta are f32 kernel arguments


def _shape(val, name: str) -> tuple[int, int, int] | None:
    """A tile option: the CLI's 'MxNxK' text or an (M, N, K) sequence, checked by config.parse_shape."""
    if val is None:
        return None
    if not isinstance(val, str):
        try:
            val = "x".join(str(int(v)) if float(v) == int(v) else str(v) for v in val)
        except (TypeError, ValueError):
            raise LassError(f"option --{name}: expected 3 positive integers, e.g. (128, 128, 32), got {val!r}") from None
    return parse_shape(val, 3, f"--{name}")


def _count(val, name: str) -> int | None:
    """--stages / --raster: a positive integer the kernel's i32 holds."""
    if val is None:
        return None
    if isinstance(val, bool) or not isinstance(val, int):
        raise LassError(f"option --{name}: expected a positive integer, got {val!r}")
    if not 1 <= val < I32_LIMIT:
        raise LassError(f"option --{name}: expected a positive integer below 2^31, got {val}")
    return val


def _prefetch(val) -> int | None:
    if val is None:
        return None
    if isinstance(val, str) or val not in (0, 1):  # 0 / 1, False / True
        raise LassError(f"option --prefetch: expected 0 or 1 (or a bool), got {val!r}")
    return int(val)


def _split_k(val) -> int | None:
    """--split-k: a positive int (or its text), lasscc.splitk's rule."""
    if val is None:
        return None
    from lasscc.splitk import parse_split_k

    if isinstance(val, bool) or not isinstance(val, (int, str)):
        raise LassError(f"option --split-k: expected a positive integer, got {val!r}")
    return parse_split_k(str(val), "--split-k")


def _split_k_mode(val) -> str | None:
    if val is not None and val not in SPLIT_K_MODES:
        raise LassError(f"option --split-k-mode: expected {', '.join(SPLIT_K_MODES)}, got {val!r}")
    return val


def _align(val) -> tuple[int, int] | None:
    """--align: the CLI's 'A,B' text, one int for both, or an (A, B) pair; config.parse_align checks it."""
    if val is None:
        return None
    if isinstance(val, str):
        return parse_align(val, "--align")
    if isinstance(val, int) and not isinstance(val, bool):
        return parse_align(f"{val},{val}", "--align")
    try:
        parts = list(val)
    except TypeError:
        parts = []
    if len(parts) == 2 and all(isinstance(p, int) and not isinstance(p, bool) for p in parts):
        return parse_align(f"{parts[0]},{parts[1]}", "--align")
    raise LassError(f"option --align: expected (A, B) elements per access as two integers, e.g. (8, 8), got {val!r}")


def check_scalars(alpha=None, beta=None, seed=None) -> None:
    """--alpha / --beta are f32 kernel arguments; --seed seeds numpy (non-negative)."""
    for name, v in (("alpha", alpha), ("beta", beta)):
        if v is not None and not (math.isfinite(v) and abs(v) <= F32_MAX):
            raise LassError(f"option --{name}: expected a finite value an f32 holds (|x| <= 3.4e38), got {v:g}")
    if seed is not None and seed < 0:
        raise LassError(f"option --seed: expected a non-negative integer, got {seed}")


@dataclass(frozen=True)
class Options:
    """The shared options, normalised and checked on construction (LassError `option --x: ...`).

    threadblock / warp: (M, N, K) or 'MxNxK'; stages, raster: positive ints; prefetch: 0 / 1 (or a
    bool); align: (A, B) elements per global copy access, one int for both, or 'A,B'; split_k: the
    K partitions (int), split_k_mode: serial / parallel (lasscc.splitk); alpha, beta:
    finite f32 values; seed: a non-negative int.  None is "not given" (the module's own value)."""

    arch: str = "sm_80"
    threadblock: tuple[int, int, int] | None = None
    warp: tuple[int, int, int] | None = None
    stages: int | None = None
    raster: int | None = None
    prefetch: int | None = None
    align: tuple[int, int] | None = None
    split_k: int | None = None
    split_k_mode: str | None = None
    alpha: float | None = None
    beta: float | None = None
    seed: int | None = None

    def __post_init__(self):
        if self.arch not in ARCHS:
            raise LassError(f"option --arch: expected one of {', '.join(ARCHS)}, got {self.arch!r}")
        norm = {"threadblock": _shape(self.threadblock, "threadblock"), "warp": _shape(self.warp, "warp"),
                "stages": _count(self.stages, "stages"), "raster": _count(self.raster, "raster"),
                "prefetch": _prefetch(self.prefetch), "align": _align(self.align),
                "split_k": _split_k(self.split_k), "split_k_mode": _split_k_mode(self.split_k_mode)}
        check_scalars(self.alpha, self.beta, self.seed)
        for key, val in norm.items():
            object.__setattr__(self, key, val)

    @classmethod
    def from_args(cls, args) -> Options:
        """The options of an argparse namespace (an option a subcommand lacks reads as not given)."""
        return cls(**{f.name: getattr(args, f.name, None) for f in fields(cls) if f.name != "arch"},
                     arch=getattr(args, "arch", None) or "sm_80")

    @property
    def overrides(self) -> dict:
        """{option: value} of the given tiling options and align, in the CLI's order."""
        return {k: getattr(self, k) for k in (*TILING, "align") if getattr(self, k) is not None}

    @property
    def tiling_given(self) -> bool:
        """A tiling option is given (align is not one: it leaves the tiling to the config or the tuner)."""
        return any(getattr(self, k) is not None for k in TILING)


# ---- what the options do to a module -----------------------------------------------------------


def apply_overrides(module, options: Options, filename: str = "<input>") -> None:
    """The tiling options and align rewrite the `config` of every lass.gemm (a linalg.matmul is
    imported first); a config the tiling options break is theirs to report."""
    over = options.overrides
    if not over:
        return
    from lasscc.driver import import_gemms

    gemms = import_gemms(module, filename)  # linalg.matmul -> lass.gemm
    if not gemms:
        names = ", ".join(f"--{k.replace('_', '-')}" for k in over)
        raise LassError(f"option {names}: the input holds no lass.gemm (it is already tiled); the tiling is fixed")
    from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr

    from lasscc.config import GemmConfig, align_error, default_config
    from lasscc.dialects.lass import config_from_attr, config_to_attr

    for g in gemms:
        ab = str(g.a.type.get_element_type())
        if "align" in over:
            bad = align_error(over["align"], ab)
            if bad:
                raise LassError(f"option --align: {bad}")
        if set(over) == {"align"} and g.config is None:  # the tiling stays open (defaults, or the tuned one)
            g.attributes["config"] = DictionaryAttr({"align": ArrayAttr([IntegerAttr(v, 64) for v in over["align"]])})
            continue
        why_not_wgmma = _wgmma_overrides(g, over, options.arch)
        if why_not_wgmma is True:
            continue
        try:
            cfg = config_from_attr(g.config, default_config(ab))
        except ValueError as e:
            from lasscc.source import op_location

            raise LassError(f"{op_location(g)}: error: {e}") from None
        merged = GemmConfig(**{**cfg.__dict__, **over})
        tiling = [f"--{k.replace('_', '-')}" for k in over if k != "align"]
        if tiling and merged != cfg:  # a rule the options break is theirs, not the file's
            from lasscc.dialects.lass import KernelFacts

            try:
                KernelFacts.of_gemm(g, merged).validate(options.arch, f"option {'/'.join(tiling)}: config")
            except LassError as e:
                if not why_not_wgmma:
                    raise
                raise LassError(f"{e} (as mma.sync; sm_90a's wgmma cannot take it either: {why_not_wgmma})") from None
        g.attributes["config"] = config_to_attr(merged)


def _wgmma_overrides(g, over: dict, arch: str) -> bool | str | None:
    """On sm_90a, a lass.gemm that leaves the family open (no `mma`, no `warp` in its config or the
    options): the options join its config and lasscc.family decomposes them as it would have written
    them in the file (a wgmma tile keeps wgmma's warp and instruction); True when that gives a wgmma
    config, now `g`'s.  Else (an mma.sync tiling, or a wgmma rule broken) `g` is left as it was: the
    mma.sync merge and its checks name the option; returns the wgmma rule broken (or None) for them."""
    from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, StringAttr

    from lasscc.dialects.lass import config_to_attr
    from lasscc.family import choose as choose_family
    from lasscc.resources import WGMMA, WGMMA_ARCHS

    given = dict(g.config.data) if g.config is not None else {}
    if arch not in WGMMA_ARCHS or "warp" in over or "mma" in given or "warp" in given:
        return None
    before = g.attributes.get("config")
    g.attributes["config"] = DictionaryAttr({**given, **{
        key: (ArrayAttr([IntegerAttr(x, 64) for x in v]) if isinstance(v, (list, tuple)) else
              StringAttr(v) if isinstance(v, str) else IntegerAttr(v, 64)) for key, v in over.items()}})
    try:
        fam = choose_family(g, arch)
    finally:
        if before is None:
            del g.attributes["config"]
        else:
            g.attributes["config"] = before
    if fam.mma != WGMMA or fam.config is None:
        return fam.why_not_wgmma
    g.attributes["config"] = config_to_attr(fam.config)
    return True


def load_input(args):
    """The CLI's input (`args.file`, '-' for stdin) parsed, with the options of `args` applied."""
    from lasscc.source import decode_text, parse_mlir, read_file

    text = decode_text(sys.stdin.buffer.read(), "<stdin>") if args.file == "-" else read_file(args.file)
    if args.file.endswith((".ll", ".ptx")):  # the last two dumps are not MLIR: say so, not a lexer error
        kind = "LLVM IR" if args.file.endswith(".ll") else "PTX text"
        raise LassError(f"{args.file}:1:1: error: expected MLIR (a lass.gemm, a linalg.matmul or a lasscc dump up to "
                        f"lasscc-lower-to-llvm), got {kind}")
    module = parse_mlir(text, "<stdin>" if args.file == "-" else args.file)
    apply_overrides(module, Options.from_args(args), args.file)
    return module


def module_align(module) -> tuple[tuple[int, int] | None, bool]:
    """(align, fixed): the caller's (A, B) access widths in elements that the module gives (a
    lass.gemm's `config` align, or a kernel's facts in a dump: KernelFacts.caller_align; a kernel
    without one has the full width) or None; `fixed` when the module holds no lass.gemm
    (a dump: the widths can no longer change)."""
    from xdsl.dialects import func, llvm

    from lasscc.dialects.lass import GemmOp, kernel_facts

    for op in module.walk():
        if isinstance(op, GemmOp):
            if op.config is not None and "align" in op.config.data:
                return tuple(int(v.value.data) for v in op.config.data["align"].data), False
            return None, False
    for fn in module.ops:
        facts = kernel_facts(fn) if isinstance(fn, (func.FuncOp, llvm.FuncOp)) else None
        if facts is not None:
            return facts.caller_align, True
    return None, False


def set_module_align(module, align: tuple[int, int], filename: str = "<input>") -> None:
    """Write `align` (the caller's A, B elements) into every lass.gemm's config (a linalg.matmul
    is imported first: lasscc.driver.import_gemms)."""
    from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr

    from lasscc.driver import import_gemms

    for g in import_gemms(module, filename):
        entries = dict(g.config.data) if g.config is not None else {}
        entries["align"] = ArrayAttr([IntegerAttr(int(v), 64) for v in align])
        g.attributes["config"] = DictionaryAttr(entries)


# ---- stage names (--stage, Kernel.ir) ----------------------------------------------------------

# extra short names for stages, on top of the pass flag without "lasscc-" and its first word
_STAGE_EXTRA = {"threadblock": "lasscc-tile-threadblock", "ll": "llvm", "llvm-ir": "llvm",
                "llvm-dialect": "lasscc-lower-to-llvm", "kernel": "ptx"}


def stage_names() -> dict[str, list[str]]:
    """{stage: [its short names]} in pipeline order: input, every pass, llvm (LLVM IR), ptx."""
    from lasscc.driver import PASS_NAMES

    out: dict[str, list[str]] = {"input": []}
    firsts = [n.removeprefix("lasscc-").split("-")[0] for n in PASS_NAMES]
    for name, first in zip(PASS_NAMES, firsts):
        short = name.removeprefix("lasscc-")
        aliases = [short] if short != name else []
        if first != short and firsts.count(first) == 1 and first not in ("llvm", "ptx", "input"):
            aliases.append(first)
        out[name] = aliases
    out["llvm"] = []
    out["ptx"] = []
    for alias, target in _STAGE_EXTRA.items():
        if target in out and alias not in out[target]:
            out[target].append(alias)
    return out


def resolve_stage(stage: str, what: str = "stage") -> str:
    """The canonical stage name for a pass flag or short name; CompileError listing them otherwise."""
    names = stage_names()
    key = str(stage).strip().lower()
    for name, aliases in names.items():
        if key == name or key in aliases:
            return name
    listing = ", ".join(f"{n} ({', '.join(a)})" if a else n for n, a in names.items())
    raise CompileError(f"{what}: unknown stage '{stage}'; expected one of {listing}")


def has_overrides(args) -> bool:
    """A tiling option is given (--align is not one: it leaves the tiling to the config or the tuner)."""
    return any(getattr(args, k, None) is not None for k in TILING)


def only_align(config) -> bool:
    """A lass.gemm `config` that gives nothing but `align` and maybe `mma = "mma.sync"` (the family
    lasscc.family.size_fallback chose for sizes TMA cannot load): the tiling is still open."""
    if config is None:
        return True
    mma = config.data.get("mma")
    return set(config.data) <= {"align", "mma"} and (mma is None or getattr(mma, "data", None) == "mma.sync")
