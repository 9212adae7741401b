"""The Python API: compile a GEMM, look at every stage, run it on numpy arrays or GPU tensors.

    import lasscc

    k = lasscc.compile("examples/gemm.mlir", arch="sm_80")        # a path, or MLIR text (arch: the GPU's by default)
    k = lasscc.gemm(d_dtype="f16", threadblock=(128, 128, 32), warp=(64, 64, 32), stages=3)
    k = lasscc.gemm(d_layout="col")                                # column-major D
    k.ptx, k.llvm_ir, k.ir("pipeline"), k.spec, k.config, k.resources
    k(a, b, d)                      # D = alpha * A.B + beta * D on the GPU

Operands of `k(a, b, d, alpha=None, beta=None)`: A is M x K, B is K x N (for a TN kernel, the
default layout, A row-major and B column-major; `k.spec.a_layout` / `b_layout` say), both of the kernel's input type (f16, bf16, f32 or i8, `k.spec.a_dtype`); D is M x N
of the kernel's D type (`k.spec.d_dtype`: f32, or the input type), holding C on entry when
beta != 0, row-major, or column-major for a kernel compiled with a column-major D
(`k.spec.d_layout == "col"`: `lasscc.gemm(d_layout="col")`, a `strided<[1, ?]>` D memref).  numpy arrays are copied to the GPU and D is copied back into `d` (a
K x N numpy B gets its column-major copy; a Fortran-ordered B is used as is).  CUDA arrays
(torch, cupy, anything with `__cuda_array_interface__` or DLPack) are used in place, without a
copy and without waiting for the kernel (it runs on the legacy default stream, like torch's
default); they must already have the layout the kernel reads: for torch, `b = b_nk.t()` of a
contiguous N x K tensor, and for a column-major D `d = d_nm.t()` of a contiguous N x M tensor
(numpy D may have either order: it is copied).  A and B may be row- or column-major (the kernel's
memref types say which; numpy operands are copied into that order).  Sizes: any M, N, K >= 1.  A
and B are read in accesses of `align` elements along their contiguous dimension (16 bytes by
default), which must be a multiple of it (`size_rules`, lasscc.config.alignment_rules).  A kernel
compiled without an explicit `align` (`compile(..., align=(a, b))`, or `align` in the config)
picks, per call, the widest width the sizes and the data pointers allow (compiling that variant
once).

Every compile error is a `CompileError` with the CLI's text (`file:line:col: error: ...`); every
problem with the operands or the launch is a `LaunchError`.  Both are `LassError`s.
Compiles go through the cache (`lasscc.cache`); `cache=False` bypasses it.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import NamedTuple

from lasscc import interop
from lasscc.diagnostics import CompileError, LassError, LaunchError
from lasscc.options import ARCHS, Options, module_align, resolve_stage, set_module_align, stage_names
from lasscc.resources import WGMMA_ARCHS

# BLAS letters (column-major convention): A 'T' = M x K row-major, B 'N' = K x N column-major.
LAYOUTS = {"TN": ("row", "col"), "NN": ("col", "col"), "NT": ("col", "row"), "TT": ("row", "row")}
_DTYPE_ALIASES = {"float16": "f16", "half": "f16", "float32": "f32", "float": "f32", "single": "f32",
                  "bfloat16": "bf16", "float64": "f64", "double": "f64", "int8": "i8", "s8": "i8",
                  "f16": "f16", "f32": "f32", "bf16": "bf16", "f64": "f64", "i8": "i8",
                  "int32": "i32", "s32": "i32", "i32": "i32", "tf32": "f32"}


# ---- reading the input -------------------------------------------------------------------------


def _looks_like_mlir(text: str) -> bool:
    return any(w in text for w in ("lass.gemm", "func.func", "builtin.module", "llvm.func"))


def _source_text(source, filename: str | None) -> tuple[str, str]:
    """(MLIR text, name for diagnostics) of a path or a string of MLIR."""
    from lasscc.source import read_file

    if isinstance(source, os.PathLike):
        path = os.fspath(source)
        return read_file(path), filename or path
    if not isinstance(source, str):
        raise CompileError(f"compile: expected a path or MLIR text, got {type(source).__name__}")
    try:
        exists = "\n" not in source and Path(source).exists()
    except (OSError, ValueError):
        exists = False
    if exists:
        return read_file(source), filename or source
    if _looks_like_mlir(source):
        return source, filename or "<string>"
    # neither an existing file nor MLIR text: the CLI's message for a missing file
    shown = source if len(source) <= 200 else source[:197] + "..."
    raise CompileError(f"{shown}: error: no such file")


def apply_overrides(module, threadblock=None, warp=None, stages=None, raster=None, arch: str = "sm_80",
                    filename: str = "<input>", prefetch=None, align=None, split_k=None, split_k_mode=None) -> None:
    """The CLI's --threadblock/--warp/--stages/--raster/--prefetch/--align on a parsed module (same
    checks, same text: lasscc.options)."""
    from lasscc.options import apply_overrides as apply

    apply(module, Options(arch=arch, threadblock=threadblock, warp=warp, stages=stages, raster=raster,
                          prefetch=prefetch, align=align, split_k=split_k, split_k_mode=split_k_mode), filename)


def size_rules(spec) -> dict[str, int]:
    """{"M": m, "N": n, "K": k}: each size must be a multiple of these.  Today's kernels predicate the
    edges and read A and B in accesses of spec.a_align / b_align elements along their contiguous
    dimension, which must be a multiple of it (lasscc.config.alignment_rules for the spec's
    a_layout / b_layout, a_dtype and widths); a spec that says otherwise (fields m_multiple /
    n_multiple / k_multiple) wins."""
    try:
        from lasscc.config import alignment_rules
    except ImportError:  # a compiler without edge predicates: whole tiles only
        rules = {"M": spec.tile_m, "N": spec.tile_n, "K": spec.tile_k}
    else:
        rules = alignment_rules(getattr(spec, "a_layout", "row"), getattr(spec, "b_layout", "col"),
                                getattr(spec, "a_dtype", "f16"), _spec_align(spec))
    for dim, field_ in (("M", "m_multiple"), ("N", "n_multiple"), ("K", "k_multiple")):
        if getattr(spec, field_, None):
            rules[dim] = int(getattr(spec, field_))
    return rules


def _spec_align(spec) -> tuple[int, int] | None:
    """(A, B) elements per access of a KernelSpec (None: a spec without them, the full width)."""
    if getattr(spec, "a_align", None) is None:
        return None
    return (int(spec.a_align), int(spec.b_align))


class GemmInfo(NamedTuple):
    config: object  # GemmConfig
    d_dtype: str  # 'f32', 'f16', 'bf16'
    where: str  # file:line:col of the lass.gemm, or the kernel's name in a dump
    op: object  # the GemmOp or the kernel function
    ab_dtype: str = "f16"  # element type of A and B


def gemm_info(module, filename: str = "<input>") -> GemmInfo:
    """The GEMM of a module: from its `lass.gemm` (the `config`, defaults filled in) or, in a dump,
    from the kernel function's facts (`#lass.kernel`).  LassError with the
    compiler's text when there is none or the config is malformed."""
    from xdsl.dialects import func, llvm

    from lasscc.dialects.lass import GemmOp, config_from_attr, kernel_facts
    from lasscc.source import op_location

    for op in module.walk():
        if isinstance(op, GemmOp):
            where = op_location(op)
            try:
                from lasscc.config import default_config

                cfg = config_from_attr(op.config, default_config(str(op.a.type.get_element_type())))
            except ValueError as e:
                raise LassError(f"{where}: error: {e}") from None
            return GemmInfo(cfg, str(op.d.type.get_element_type()), where, op, str(op.a.type.get_element_type()))
    for fn in module.ops:
        facts = kernel_facts(fn) if isinstance(fn, (func.FuncOp, llvm.FuncOp)) else None
        if facts is not None:
            return GemmInfo(facts.config, facts.d_type, f"{filename}: @{fn.sym_name.data}", fn, facts.ab_type)
    raise LassError(f"{filename}: error: expected a lass.gemm (or a lasscc dump of one), found no kernel")


# ---- compiling ---------------------------------------------------------------------------------


def _arch(arch: str | None) -> str:
    """The target: `arch`, or without one the GPU's own (sm_90a on a Hopper GPU), else sm_80
    (lasscc.family.default_arch)."""
    if arch is not None:
        return arch
    from lasscc.family import default_arch

    return default_arch()


def compile(source, arch: str | None = None, *, threadblock=None, warp=None, stages: int | None = None,
            raster: int | None = None, prefetch=None, align=None, cache: bool = True, dump_dir=None,
            filename: str | None = None, split_k: int | None = None, split_k_mode: str | None = None) -> Kernel:
    """Compile a `lass.gemm` (or any lasscc dump) given as a path or as MLIR text for `arch` (None:
    the GPU's own, sm_90a on a Hopper GPU, where a config without `mma` takes the wgmma path:
    lasscc.family; else sm_80).

    threadblock / warp ((M, N, K) or 'MxNxK'), stages, raster and prefetch (0/1) override the op's
    config like the CLI options; align ((A, B) elements per global copy access, or one int for
    both) fixes the access widths: without it (and without `align` in the config) the kernel picks
    the widest the sizes and pointers allow at each call.  dump_dir writes the numbered dumps
    (also on a cache hit).  split_k (S >= 1) splits K into S partitions (serial split-K,
    lasscc.splitk; the kernel allocates its zeroed workspace at each call, or takes the caller's
    `workspace=`).  Raises CompileError.
    """
    arch = _arch(arch)
    try:
        from lasscc.cache import cached_compile
        from lasscc.options import apply_overrides as apply
        from lasscc.source import parse_mlir

        options = Options(arch=arch, threadblock=threadblock, warp=warp, stages=stages, raster=raster,
                          prefetch=prefetch, align=align, split_k=split_k, split_k_mode=split_k_mode)
        text, fname = _source_text(source, filename)
        module = parse_mlir(text, fname)
        apply(module, options, fname)
        given, fixed = module_align(module)
        input_text = str(module)
        res = cached_compile(module, arch, fname, Path(dump_dir) if dump_dir is not None else None, use_cache=cache)
    except CompileError:
        raise
    except LassError as e:
        raise CompileError(str(e)) from None
    k = Kernel(res, arch, None, input_text, fname)
    k.auto_align = given is None and not fixed
    k._use_cache = cache
    return k


def _dtype_name(x, param: str) -> str:
    if isinstance(x, str):
        key = x.strip().lower()
    else:
        key = str(x).removeprefix("torch.").removeprefix("cupy.").lower()
        try:
            import numpy as np

            key = np.dtype(x).name
        except TypeError:
            pass
    name = _DTYPE_ALIASES.get(key)
    if name is None:
        raise CompileError(f"gemm: {param}: expected a dtype name such as 'f16' or 'f32', got {x!r}")
    return name


def _tile_arg(val, param: str) -> tuple[int, int, int]:
    if isinstance(val, str):
        parts = val.lower().split("x")
    else:
        try:
            parts = list(val)
        except TypeError:
            parts = []
    try:
        nums = tuple(int(p) for p in parts)
        ok = len(nums) == 3 and all(n > 0 for n in nums) and all(
            not isinstance(p, float) or p == int(p) for p in parts)
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise CompileError(f"gemm: {param}: expected 3 positive integers, e.g. (128, 128, 32), got {val!r}")
    return nums


def _f32_value(x, param: str) -> float:
    """alpha / beta: a finite number an f32 holds (the op's attribute type)."""
    from lasscc.options import F32_MAX

    try:
        v = float(x)
    except (TypeError, ValueError):
        raise CompileError(f"gemm: {param}: expected a number, got {x!r}") from None
    if not math.isfinite(v) or abs(v) > F32_MAX:
        raise CompileError(f"gemm: {param}: expected a finite number, got {x!r}")
    return v


def _element_type(name: str):
    """The xDSL type of a dtype name of _DTYPE_ALIASES."""
    from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, IntegerType

    return {"f16": Float16Type(), "f32": Float32Type(), "bf16": BFloat16Type(), "f64": Float64Type(),
            "i8": IntegerType(8), "i32": IntegerType(32)}[name]


def gemm_module(a_dtype="f16", b_dtype=None, d_dtype="f32", layout: str = "TN", alpha: float = 1.0,
                beta: float = 0.0, threadblock=(128, 128, 32), warp=(64, 64, 32), stages: int = 3, raster: int = 8,
                name: str = "gemm", *, d_layout: str = "row", acc=None, kernel=None, batched: bool = False):
    """The `lass.gemm` module (`func.func @name(%a, %b, %d)` of dynamic-size memrefs holding one
    op) for these dtypes, layout and tiling, built with xDSL; CompileError naming the parameter for
    a value that is not a dtype / layout / tile at all (what the compiler supports is the
    compiler's to say, see `gemm`).  d_layout: 'row' (D M x N row-major) or 'col' (column-major:
    element (i, j) at j*M + i).  acc: the accumulator type (None: the default, f32 or i32 for i8;
    'f16' for f16 inputs accumulated in f16).  kernel: more wgmma config keys ({"schedule": ...,
    "persistent": ..., "epilogue": ...}: the shape-aware default's, lasscc.heuristics.DP_KERNEL).
    batched: 3-d batch-first memrefs (grid z = batch; lasscc.batched_call runs it)."""
    a_t = _dtype_name(a_dtype, "a_dtype")
    acc_t = None if acc is None else _dtype_name(acc, "acc")
    b_t = a_t if b_dtype is None else _dtype_name(b_dtype, "b_dtype")
    d_t = _dtype_name(d_dtype, "d_dtype")
    d_lay = _d_layout_arg(d_layout)
    lay = str(layout).strip().upper()
    if lay not in LAYOUTS:
        raise CompileError(f"gemm: layout: expected two BLAS letters N/T such as 'TN' (A row-major M x K, "
                           f"B column-major K x N), got {layout!r}")
    tb = None if threadblock is None else _tile_arg(threadblock, "threadblock")
    wp = None if warp is None else _tile_arg(warp, "warp")
    for param, val in (("stages", stages), ("raster", raster)):
        if val is not None and (isinstance(val, bool) or not isinstance(val, int) or val < 1):
            raise CompileError(f"gemm: {param}: expected a positive integer, got {val!r}")
    alpha_v, beta_v = _f32_value(alpha, "alpha"), _f32_value(beta, "beta")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", str(name)):
        raise CompileError(f"gemm: name: expected a symbol name (letters, digits, _ $ .), got {name!r}")
    from xdsl.builder import Builder
    from xdsl.dialects import func
    from xdsl.dialects.builtin import (DYNAMIC_INDEX, ArrayAttr, DictionaryAttr, IntegerAttr, MemRefType,
                                       ModuleOp, StridedLayoutAttr, StringAttr)
    from xdsl.rewriter import InsertPoint

    from lasscc.dialects.lass import GemmOp
    from lasscc.layout import MMA_INPUTS

    lead = [DYNAMIC_INDEX] if batched else []  # a batched GEMM's leading batch dimension

    def memref(t: str, major: str) -> MemRefType:  # column-major: strided<[1, ?]> (batched: [?, 1, ?])
        if major == "col":
            return MemRefType(_element_type(t), [*lead, DYNAMIC_INDEX, DYNAMIC_INDEX],
                              StridedLayoutAttr([None] * len(lead) + [1, None]))
        return MemRefType(_element_type(t), [*lead, DYNAMIC_INDEX, DYNAMIC_INDEX])

    la, lb = LAYOUTS[lay]
    inst = MMA_INPUTS[a_t][1] if a_t in MMA_INPUTS else (16, 8, 16)  # the type's mma.sync shape
    # a tiling value of None is left out of the config (the compiler's default: lasscc.family on sm_90a);
    # a warp tile given is an mma.sync tiling, with the type's instruction shape
    config = DictionaryAttr({**({"threadblock": ArrayAttr([IntegerAttr(v, 64) for v in tb])} if tb else {}),
                             **({"warp": ArrayAttr([IntegerAttr(v, 64) for v in wp]),
                                 "instruction": ArrayAttr([IntegerAttr(v, 64) for v in inst])} if wp else {}),
                             **({"stages": IntegerAttr(stages, 64)} if stages is not None else {}),
                             **({"raster": IntegerAttr(raster, 64)} if raster is not None else {}),
                             **{key: (IntegerAttr(v, 64) if isinstance(v, int) else StringAttr(v))
                                for key, v in (kernel or {}).items()}})
    fn = func.FuncOp(str(name), ((memref(a_t, la), memref(b_t, lb), memref(d_t, d_lay)), ()))
    args = fn.body.block.args
    for arg, hint in zip(args, "abd"):
        arg.name_hint = hint
    builder = Builder(InsertPoint.at_end(fn.body.block))
    gemm_op = builder.insert(GemmOp(*args, alpha=alpha_v, beta=beta_v, config=config))
    if acc_t is not None:
        gemm_op.attributes["acc"] = _element_type(acc_t)
    builder.insert(func.ReturnOp())
    return ModuleOp([fn])


def gemm_mlir(a_dtype="f16", b_dtype=None, d_dtype="f32", layout: str = "TN", alpha: float = 1.0, beta: float = 0.0,
              threadblock=(128, 128, 32), warp=(64, 64, 32), stages: int = 3, raster: int = 8,
              name: str = "gemm", *, d_layout: str = "row", acc=None, kernel=None, batched: bool = False) -> str:
    """The MLIR text of `gemm_module` (same parameters, same errors), under a comment naming the GEMM."""
    module = gemm_module(a_dtype, b_dtype, d_dtype, layout, alpha, beta, threadblock, warp, stages, raster, name,
                         d_layout=d_layout, acc=acc, kernel=kernel, batched=batched)
    (op,) = [o for o in module.walk() if o.name == "lass.gemm"]
    a_t, b_t, d_t = (str(v.type.get_element_type()) for v in (op.a, op.b, op.d))
    la, lb = LAYOUTS[str(layout).strip().upper()]
    d_lay = _d_layout_arg(d_layout)
    return (f"// D = alpha * A.B + beta * C: A {a_t} {la}-major, B {b_t} {lb}-major ({str(layout).strip().upper()}), "
            f"D {d_t} {d_lay}-major\n{str(module)}\n")


_D_LAYOUTS = {"row": "row", "row-major": "row", "col": "col", "column": "col", "col-major": "col",
              "column-major": "col"}


def _d_layout_arg(val) -> str:
    """'row' or 'col' for gemm(d_layout=...) ('row-major', 'column-major' ... too)."""
    key = val.strip().lower() if isinstance(val, str) else None
    if key not in _D_LAYOUTS:
        raise CompileError(f"gemm: d_layout: expected 'row' (D M x N row-major) or 'col' (column-major: element "
                           f"(i, j) at j*M + i), got {val!r}")
    return _D_LAYOUTS[key]


def _unsupported_param(msg: str) -> str | None:
    """Which gemm() parameter a compiler rejection is about (its operand-type / layout checks)."""
    if "A and B of one element type" in msg:
        return "b_dtype"
    if "A and B, got" in msg:
        return "a_dtype"
    if " D (" in msg or " D, got" in msg or " D for " in msg:
        return "d_dtype"
    if "row-major (identity layout) or column-major" in msg:
        return "layout"
    return None


def gemm(a_dtype="f16", b_dtype=None, d_dtype="f32", layout: str = "TN", alpha: float = 1.0, beta: float = 0.0,
         threadblock=None, warp=None, stages: int | None = None, raster: int | None = None, arch: str | None = None,
         *, name: str = "gemm", cache: bool = True, dump_dir=None, d_layout: str = "row", prefetch=None,
         acc=None, align=None, split_k=None, split_k_mode=None, bias=None, scale=None, activation=None,
         residual: bool = False, epilogue_dtype: str = "f32", shape=None, sms: int | None = None,
         batched: bool = False) -> Kernel:
    """Compile a GEMM from dtypes, layout and tiling, without a file (gemm_module builds it; its
    printed text, `gemm_mlir`, is the kernel's input: `k.ir("input")`, the cache key, and the
    place `<lasscc.gemm>:line:col` of a compiler diagnostic).

    layout gives A and B (BLAS letters); d_layout gives D: 'row' (M x N row-major) or 'col'
    (column-major, element (i, j) at j*M + i; computed as D^T = B^T . A^T).
    A dtype or layout the compiler does not support yet (today, in every layout TN / NN / NT / TT:
    A/B f16 or bf16 with D f32 or the input type; f32 (tf32) -> f32 D; i8 -> i32 or f32 D; f16 with
    acc='f16' -> f16 or f32 D) is a CompileError naming the parameter, followed by the compiler's text.  align: (A, B) elements per global copy access (see `compile`).
    bias / scale ('n' or 'm'), activation, residual, epilogue_dtype: a fused epilogue
    (lasscc.epilogue_api: D = activation(v * scale + bias) + residual; the kernel is called with
    them by name, `k(a, b, d, bias=...)`; an i8 D needs one).
    batched: a batched GEMM (3-d batch-first operands, one launch, grid z = batch; lasscc.batched_call:
    k(a [batch, M, K], b [batch, K, N], d [batch, M, N], bias=[N] shared by every batch, ...)).
    arch: None is the GPU's own target (sm_90a on a Hopper GPU), else sm_80.  threadblock / warp /
    stages / raster left None: on sm_80 (or with a warp tile, an mma.sync tiling) 128x128x32 /
    64x64x32 / 3 / 8; on sm_90a lasscc.family chooses (wgmma, 128x256x64 for f16, 4 stages), a
    threadblock given alone being its tile.
    shape=(M, N, K): the sizes the kernel is for; the tiling (threadblock, warp, stages, and split_k /
    split_k_mode unless given) is then the shape-aware default of lasscc.heuristics for a GPU of
    `sms` SMs (None: the open GPU's, else an H100's), not the tiling arguments; on sm_90a it
    decomposes the wgmma default tile.
    """
    arch = _arch(arch)
    kernel = None
    if shape is not None:
        # a fused epilogue takes the same kernel (bias [n] + GELU with f16 / f32 D and bias [m] + ReLU
        # measured 2-14 % faster on the persistent TMA-store one than on the plain one at 4096³ / 8192³),
        # except with a residual: scale [m] + bias + SiLU + an [mn] residual measured 2-3 % slower there
        # (BENCHMARKS.md session 12); d_dtype None keeps the plain kernel
        threadblock, warp, stages, split_k, split_k_mode, kernel = _shape_default(
            shape, a_dtype, sms, arch, split_k, split_k_mode, None if residual else d_dtype, d_layout)
    if arch not in WGMMA_ARCHS or warp is not None:  # the mma.sync defaults (sm_90a: lasscc.family's)
        threadblock = (128, 128, 32) if threadblock is None else threadblock
        warp = (64, 64, 32) if warp is None else warp
        stages, raster = 3 if stages is None else stages, 8 if raster is None else raster
    text = gemm_mlir(a_dtype, b_dtype, d_dtype, layout, alpha, beta, threadblock, warp, stages, raster, name,
                     d_layout=d_layout, acc=acc, kernel=kernel, batched=bool(batched))
    try:
        if bias is not None or scale is not None or activation is not None or residual or \
                _dtype_name(d_dtype, "d_dtype") == "i8":
            from lasscc.epilogue_api import EpilogueSpec, epilogue_gemm

            spec = EpilogueSpec(bias, scale, activation, bool(residual), _dtype_name(epilogue_dtype, "epilogue_dtype"))
            return epilogue_gemm(text, spec, compile, arch=arch, cache=cache, dump_dir=dump_dir,
                                 filename="<lasscc.gemm>", prefetch=prefetch, align=align, split_k=split_k,
                                 split_k_mode=split_k_mode)
        return compile(text, arch, cache=cache, dump_dir=dump_dir, filename="<lasscc.gemm>", prefetch=prefetch,
                       align=align, split_k=split_k, split_k_mode=split_k_mode)
    except CompileError as e:
        param = _unsupported_param(str(e))
        if param is None:
            raise
        value = {"a_dtype": a_dtype, "b_dtype": b_dtype, "d_dtype": d_dtype, "layout": layout}[param]
        raise CompileError(f"gemm: {param}: {value!r} is not supported yet: {e}") from None


compile_gemm = gemm


def _shape_default(shape, a_dtype, sms, arch: str, split_k, split_k_mode, d_dtype=None, d_layout="row"):
    """gemm(shape=...)'s tiling: (threadblock, warp, stages, split_k, split_k_mode, kernel) of
    lasscc.heuristics; kernel: the wgmma config keys (mma, swap_ab of a skinny pick, and the schedule /
    persistent / epilogue keys of a data-parallel pick
    (None: none, or a split given, or `d_dtype` None: a fused residual, measured slower with them)."""
    from lasscc.heuristics import choose, wgmma_base

    if not isinstance(shape, (tuple, list)) or len(shape) != 3 or not all(
            isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in shape):
        raise LassError(f"gemm: shape: expected (M, N, K), three positive integers, got {shape!r}")
    if sms is None:
        from lasscc.runtime import cuda

        sms = cuda.sm_count() if cuda.driver_status() is None else None
    ab = _dtype_name(a_dtype, "a_dtype")
    d = None if d_dtype is None else _dtype_name(d_dtype, "d_dtype")
    cfg = choose(*shape, ab, sms, arch, d_type=d, base=wgmma_base(ab, arch),
                 d_row=shape[0] if _d_layout_arg(d_layout) == "col" else shape[1]).config
    kernel = None
    if cfg.is_wgmma:  # written, so the split options below merge into a wgmma config, not an mma.sync one
        kernel = {"mma": cfg.mma, **({key: getattr(cfg, key) for key in ("schedule", "persistent", "epilogue")} if (
            cfg.persistent and split_k is None and split_k_mode is None) else {}),
            **({"swap_ab": 1} if cfg.swap_ab else {})}  # lasscc.heuristics.choose_swap_ab
    return (cfg.threadblock, None if cfg.is_wgmma else cfg.warp, cfg.stages, split_k if split_k is not None else cfg.split_k,
            split_k_mode if split_k_mode is not None else cfg.split_k_mode, kernel)


# ---- the kernel --------------------------------------------------------------------------------


class Kernel:
    """A compiled GEMM: its texts, launch contract, resources, and a callable that runs it."""

    def __init__(self, res, arch: str, config=None, input_text: str = "", filename: str = "<input>"):
        """From a CompileResult of lasscc.cache.cached_compile; `config` defaults to the kernel's own."""
        self.arch = arch
        self.config = config
        self.filename = filename
        self.input_ir = input_text
        self.stages: dict[str, str] = dict(res.stages)
        self.llvm_ir: str = res.llvm_ir
        self.ptx: str = res.ptx
        self.specs = list(res.specs)
        self.spec = self.specs[0]
        self.cache_hit: bool = bool(getattr(res, "cache_hit", False))
        meta = (getattr(res, "kernel_meta", None) or {}).get(self.spec.name, {})
        self.alpha: float = float(getattr(self.spec, "alpha", meta.get("alpha", 1.0)))
        self.beta: float = float(getattr(self.spec, "beta", meta.get("beta", 0.0)))
        if self.config is None and "config" in meta:
            from lasscc.config import GemmConfig

            c = meta["config"]
            self.config = GemmConfig(**{k: tuple(v) if isinstance(v, list) else v for k, v in c.items()})
        self._resources = None
        self._func = None
        self._module = None
        self._reduce = None  # parallel split-K: the reduction kernel (lasscc.splitk)
        # True when compiled without an explicit `align`: each call picks the widest access widths
        # its sizes and pointers allow and runs that variant (compiled once per widths)
        self.auto_align = False
        self._use_cache = True
        self._variants: dict[tuple[int, int], Kernel] = {}

    def __repr__(self) -> str:
        c, s = self.config, self.spec
        return (f"<lasscc.Kernel {s.name} {self.arch}: threadblock {'x'.join(map(str, c.threadblock))}, warp "
                f"{'x'.join(map(str, c.warp))}, {c.stages} stages, D {s.d_dtype}"
                f"{' col-major' if getattr(s, 'd_layout', 'row') == 'col' else ''}, {s.threads} threads, "
                f"{s.smem_bytes // 1024} KB smem>")

    @property
    def name(self) -> str:
        return self.spec.name

    def ir(self, stage: str = "ptx") -> str:
        """The text after `stage`: 'input', a pass flag or short name ('pipeline', 'warp-mma', ...),
        'llvm' (LLVM IR) or 'ptx'.  CompileError listing the names otherwise."""
        name = resolve_stage(stage, "ir")
        if name == "input":
            return self.input_ir
        if name == "llvm":
            return self.llvm_ir
        if name == "ptx":
            return self.ptx
        return self.stages[name]

    @property
    def resources(self) -> dict:
        """ptxas -v's figures: registers, shared memory (static + the dynamic bytes of the spec),
        spills, stack; None for each when ptxas is not on PATH (the dynamic figure is always known)."""
        if self._resources is None:
            from lasscc.emit import ptxas_info

            try:
                info = ptxas_info(self.ptx, self.arch)
            except LassError as e:
                raise CompileError(str(e)) from None
            dyn = self.spec.smem_bytes
            if info is None:
                self._resources = {"registers": None, "shared_bytes": None, "static_shared_bytes": None,
                                   "dynamic_shared_bytes": dyn, "spill_stores": None, "spill_loads": None,
                                   "stack_bytes": None, "ptxas": None}
            else:
                self._resources = {"registers": info.registers, "shared_bytes": info.shared_bytes + dyn,
                                   "static_shared_bytes": info.shared_bytes, "dynamic_shared_bytes": dyn,
                                   "spill_stores": info.spill_stores, "spill_loads": info.spill_loads,
                                   "stack_bytes": info.stack_bytes, "ptxas": info.line}
        return dict(self._resources)

    # -- running --------------------------------------------------------------------------------

    def for_operands(self, a, b, d) -> Kernel:
        """The kernel that runs these operands: self, or (auto_align) the variant compiled with the
        widest access widths (lasscc.config.widest_align) the sizes and device pointers allow."""
        if not self.auto_align:
            return self
        from lasscc.config import widest_align

        A, B = interop.operand("a", a), interop.operand("b", b)
        if len(A.shape) != 2 or len(B.shape) != 2:
            return self  # check_operands names the problem
        (m, k), n = A.shape, B.shape[1]
        spec = self.spec
        ptrs = tuple(interop.ptr_align(op.ptr) if op.on_device else 16 for op in (A, B))
        want = widest_align(m, n, k, spec.a_layout, spec.b_layout, spec.a_dtype, ptrs)
        if want == (spec.a_align, spec.b_align):
            return self
        if want not in self._variants:
            from lasscc.cache import cached_compile
            from lasscc.source import parse_mlir

            try:
                module = parse_mlir(self.input_ir, self.filename)
                set_module_align(module, want, self.filename)
                text = str(module)
                res = cached_compile(module, self.arch, self.filename, use_cache=self._use_cache)
            except LassError as e:
                raise LaunchError(f"compiling the align = [{want[0]}, {want[1]}] variant for M={m} N={n} K={k}: "
                                  f"{e}") from None
            self._variants[want] = Kernel(res, self.arch, self.config, text, self.filename)
        return self._variants[want]

    def check_operands(self, a, b, d) -> tuple[interop.Operand, interop.Operand, interop.Operand, int, int, int]:
        """Validate a, b, d against the kernel (dtypes, shapes, tile multiples, layouts); LaunchError."""
        spec = self.spec
        ops = [interop.operand("a", a), interop.operand("b", b), interop.operand("d", d)]
        want = {"a": spec.a_dtype, "b": spec.b_dtype, "d": spec.d_dtype}
        for op in ops:
            if len(op.shape) != 2:
                raise LaunchError(f"{op.name}: expected a 2-d array, got shape {op.shape}")
            if op.dtype != want[op.name]:
                hint = {"f16": "float16", "f32": "float32", "bf16": "bfloat16", "i8": "int8", "i32": "int32"}.get(want[op.name], want[op.name])
                raise LaunchError(f"{op.name}: expected dtype {want[op.name]} ({hint}) for kernel '{spec.name}', "
                                  f"got {op.dtype}")
        A, B, D = ops
        (m, k), (kb, n), (md, nd) = A.shape, B.shape, D.shape
        col_d = getattr(spec, "d_layout", "row") == "col"
        if kb != k:
            raise LaunchError(f"b: expected K x N with K = {k} (a is {m} x {k}), got shape {B.shape}")
        if (md, nd) != (m, n):
            hint = ""
            if col_d and (md, nd) == (n, m):
                hint = (f"; kernel '{spec.name}' writes a column-major D: pass the M x N matrix, e.g. the "
                        "transpose of a contiguous N x M array (numpy: d_nm.T, torch: d_nm.t()) or a "
                        "Fortran-ordered M x N array")
            raise LaunchError(f"d: expected M x N = {m} x {n}, got shape {D.shape}{hint}")
        rules = size_rules(spec)
        tiles = {"M": spec.tile_m, "N": spec.tile_n, "K": spec.tile_k}
        from lasscc.config import size_limit_error

        bad = size_limit_error(m, n, k)  # the kernel's i32 sizes and element offsets
        if bad:
            raise LaunchError(f"{bad[0]} = {dict(M=m, N=n, K=k)[bad[0]]}: {bad[1]}")
        for dim, val in (("M", m), ("N", n), ("K", k)):
            if val % rules[dim]:
                from lasscc.config import alignment_reasons

                reasons = alignment_reasons(getattr(spec, "a_layout", "row"), getattr(spec, "b_layout", "col"),
                                            getattr(spec, "a_dtype", "f16"), _spec_align(spec))
                why = ("the threadblock tile" if rules[dim] == tiles[dim]
                       else reasons.get(dim, "the kernel's rule"))
                raise LaunchError(f"{dim} = {val}: expected a multiple of {rules[dim]} ({why}) for kernel "
                                  f"'{spec.name}'")
        if D.readonly:
            raise LaunchError("d: the array is read-only; D is written")
        align = _spec_align(spec)
        esize = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1, "i32": 4}
        for op, w in ((A, align[0] if align else None), (B, align[1] if align else None), (D, 2)):
            if w is None or not op.on_device:
                continue
            nbytes = w * esize.get(op.dtype, 1)
            if nbytes > 1 and op.ptr % nbytes:
                what = ("the epilogue stores D in pairs of elements" if op is D else
                        f"kernel '{spec.name}' reads {op.name.upper()} in {nbytes}-byte accesses")
                raise LaunchError(f"{op.name}: expected a {nbytes}-byte aligned data pointer ({what}), got 0x{op.ptr:x}")
        a_col = getattr(spec, "a_layout", "row") == "col"
        b_row = getattr(spec, "b_layout", "col") == "row"
        if A.on_device and a_col and not interop.same_strides(A.strides, (1, m), A.shape):
            raise LaunchError(f"a: kernel '{spec.name}' reads a column-major A: expected M x K column-major (element "
                              f"strides (1, {m})), got strides {A.strides}; pass the transpose of a contiguous K x M "
                              "array (torch: a_km.t())")
        if A.on_device and not a_col and not interop.same_strides(A.strides, (k, 1), A.shape):
            raise LaunchError(f"a: expected M x K row-major (element strides ({k}, 1)), got strides {A.strides}; "
                              "use a contiguous copy (torch: a.contiguous())")
        if B.on_device and b_row and not interop.same_strides(B.strides, (n, 1), B.shape):
            raise LaunchError(f"b: kernel '{spec.name}' reads a row-major B: expected K x N row-major (element "
                              f"strides ({n}, 1)), got strides {B.strides}; use a contiguous copy (torch: b.contiguous())")
        if B.on_device and not b_row and not interop.same_strides(B.strides, (1, k), B.shape):
            raise LaunchError(f"b: expected K x N column-major (element strides (1, {k})), got strides "
                              f"{B.strides or interop.contiguous_strides(B.shape)}; pass the transpose of a contiguous "
                              "N x K array (torch: b_nk.t(), or b.t().contiguous().t())")
        if col_d:
            if D.on_device and not interop.same_strides(D.strides, (1, m), D.shape):
                raise LaunchError(f"d: kernel '{spec.name}' writes a column-major D: expected M x N column-major "
                                  f"(element strides (1, {m})), got strides {D.strides or interop.contiguous_strides(D.shape)}; "
                                  "pass the transpose of a contiguous N x M array (torch: d_nm.t())")
        elif D.on_device and not interop.same_strides(D.strides, (n, 1), D.shape):
            raise LaunchError(f"d: expected M x N row-major (element strides ({n}, 1)), got strides {D.strides}")
        return A, B, D, m, n, k

    def workspace_bytes(self, m: int, n: int, sms: int | None = None) -> int:
        """Bytes of global workspace a call with an M x N D needs (split-K's semaphores,
        lasscc.splitk; stream-K's partial slots and flags for the persistent grid of a GPU with
        `sms` SMs, None: an H100's, lasscc.streamk; 0 without a split)."""
        return self.spec.workspace_bytes(m, n, sms=sms)

    def __call__(self, a, b, d, alpha: float | None = None, beta: float | None = None, *, target: str = "gpu",
                 sync: bool | None = None, workspace=None):
        """D = alpha * A.B + beta * C (C = d on entry).  Returns d.

        workspace: a split-K kernel's semaphores (`workspace_bytes(M, N)` bytes, zero before its
        first use; each call leaves it zero; stream-K: `workspace_bytes(M, N, sms)`, its flags
        zero before the first use and left zero): a device pointer (int) on the GPU, an int32 numpy
        array on the CPU; None: the call allocates a zeroed one.

        target='gpu' launches the PTX (numpy operands copied in and D copied back; CUDA arrays used in
        place, asynchronously unless sync=True).  target='cpu' runs the swizzle-smem stage's IR on
        the CPU executor (numpy operands only; slow, small sizes).
        """
        import numpy as np

        if getattr(self.spec, "batched", False):  # 3-d batch-first operands: lasscc.batched_call
            from lasscc.batched_call import call_batched

            return call_batched(self, a, b, d, self.alpha if alpha is None else float(alpha),
                                self.beta if beta is None else float(beta), {}, target, sync)
        kern = self.for_operands(a, b, d)
        if kern is not self:
            return kern(a, b, d, alpha if alpha is not None else self.alpha, beta if beta is not None else self.beta,
                        target=target, sync=sync, workspace=workspace)
        A, B, D, m, n, k = self.check_operands(a, b, d)  # the user's M x N view, whatever D's layout
        alpha = self.alpha if alpha is None else alpha
        beta = self.beta if beta is None else beta
        for label, v in (("alpha", alpha), ("beta", beta)):
            if isinstance(v, bool) or not isinstance(v, (int, float, np.floating, np.integer)) or not math.isfinite(v):
                raise LaunchError(f"{label}: expected a finite number, got {v!r}")
        alpha, beta = float(alpha), float(beta)
        if target == "cpu":
            return self._run_cpu(A, B, D, m, n, k, alpha, beta, workspace)
        if target != "gpu":
            raise LaunchError(f"target: expected 'gpu' or 'cpu', got {target!r}")
        from lasscc.runtime import cuda

        reason = cuda.driver_status()
        if reason is not None:
            raise LaunchError(f"no GPU to run on ({reason}); use k(a, b, d, target='cpu') or lasscc.interp.run_check "
                              "to execute the kernel's IR on the CPU")
        try:
            return self._run_gpu(cuda, A, B, D, m, n, k, alpha, beta, sync, workspace)
        except LaunchError:
            raise
        except LassError as e:
            raise LaunchError(str(e)) from None

    def _function(self, cuda):
        if self._func is None:
            self._module = cuda.load_module(self.ptx)
            func = cuda.get_function(self._module, self.spec.name)
            cuda.set_dynamic_smem(func, self.spec.smem_bytes)
            self._func = func
        return self._func

    def _run_gpu(self, cuda, A, B, D, m, n, k, alpha, beta, sync, workspace=None, extras=()):
        import numpy as np

        from lasscc.runtime.launch import free_all, gemm_launcher, grid_sms

        cuda.context()
        for op in (A, B, D):
            if op.on_device:
                interop.check_device_pointer(cuda, op)
                interop.wait_stream(cuda, op)
        func = self._function(cuda)
        spec = self.spec
        sms = grid_sms(cuda, spec)  # a persistent or stream-K kernel's grid (this GPU's), and its workspace
        col_d = getattr(spec, "d_layout", "row") == "col"  # host D stored N x M row-major
        buffers = []
        any_host = not (A.on_device and B.on_device and D.on_device)
        try:
            ptrs = []
            for op in (A, B, D):
                if op.on_device:
                    ptrs.append(np.uint64(op.ptr))
                    continue
                if op is A:  # in the kernel's layout of A (column-major: K x M row-major storage)
                    host = np.ascontiguousarray(op.host.T if spec.a_layout == "col" else op.host)
                elif op is B:  # column-major B: N x K row-major storage
                    host = np.ascontiguousarray(op.host if spec.b_layout == "row" else op.host.T)
                elif beta == 0:
                    host = None
                else:
                    host = np.ascontiguousarray(op.host.T if col_d else op.host)
                buf = cuda.DeviceBuffer.from_array(host) if host is not None else cuda.DeviceBuffer.alloc(
                    op.host.nbytes)
                buffers.append(buf)
                ptrs.append(np.uint64(buf.ptr))
            ws = None
            if "W" in spec.params:  # split-K's / stream-K's semaphores: the caller's, or zeroed here
                if workspace is None:
                    wbuf = cuda.DeviceBuffer.from_array(np.zeros(spec.workspace_bytes(m, n, sms=sms) // 4, np.int32))
                    buffers.insert(0, wbuf)  # D's buffer stays last
                    ws = np.uint64(wbuf.ptr)
                else:
                    ws = np.uint64(int(workspace))
            # the kernel's order: (B, A, D, N, M, K, ...) and N x M tiles for a column-major D
            # parameters by name (lasscc.config.kernel_params); a wgmma kernel's TMA maps built here
            from lasscc.runtime.tma import kernel_tensor_maps as _tensor_map

            kargs = spec.param_values(ptrs[0], ptrs[1], ptrs[2], m, n, k, alpha, beta, _tensor_map(spec), ws,
                                      list(extras))
            args = spec.typed_params(kargs)
            if getattr(spec, "reduce_name", None) and self._reduce is None:  # parallel split-K's reduction
                self._reduce = cuda.get_function(self._module, spec.reduce_name)
            gemm_launcher(cuda, spec, func, self._reduce, args, m, n, sms=sms)()
            if any_host or sync:
                cuda.synchronize()
            if not D.on_device:
                if col_d:
                    D.host[...] = buffers[-1].download((n, m), D.host.dtype).T
                else:
                    D.host[...] = buffers[-1].download(D.shape, D.host.dtype)
        finally:
            free_all(buffers)
        return D.obj

    def _run_cpu(self, A, B, D, m, n, k, alpha, beta, workspace=None, extras=None):
        import numpy as np

        from lasscc.interp import execute_kernel

        if A.on_device or B.on_device or D.on_device:
            raise LaunchError("target='cpu': expected numpy arrays for a, b and d")
        # A and B in the kernel's layouts (execute_kernel takes each in its memref's storage order)
        a_mem = np.ascontiguousarray(A.host.T if self.spec.a_layout == "col" else A.host)
        b_mem = np.ascontiguousarray(B.host if self.spec.b_layout == "row" else B.host.T)
        col_d = getattr(self.spec, "d_layout", "row") == "col"
        # D in its memory order (column-major: N x M row-major storage); the executor binds the
        # swapped operands of a swap_ab kernel itself
        d_work = np.array(D.host.T if col_d else D.host, order="C", copy=True)
        execute_kernel(self.stages["lasscc-swizzle-smem"], m, n, k, a_mem, b_mem, d_work, alpha, beta,
                       workspace=workspace, extras=extras)
        D.host[...] = d_work.T if col_d else d_work
        return D.host

    def close(self) -> None:
        """Unload the module from the GPU (loaded on the first GPU call)."""
        if self._module is not None:
            from lasscc.runtime import cuda

            mod, self._module, self._func, self._reduce = self._module, None, None, None
            try:
                cuda.unload_module(mod)
            except LassError:
                pass


__all__ = ["compile", "gemm", "compile_gemm", "gemm_mlir", "Kernel", "CompileError", "LaunchError",
           "stage_names", "resolve_stage", "gemm_info", "apply_overrides", "gemm_module", "ARCHS", "LAYOUTS"]
