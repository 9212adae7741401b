"""`lasscc`: compile, opt and run GEMMs written as `lass.gemm` in MLIR.

    lasscc compile FILE.mlir -o out.ptx [--dump-dir DIR] [--arch sm_80|sm_90a] [--emit ptx|llvm|mlir] [--timing] [--verify-each]
    lasscc opt -p PASS[,PASS...] FILE.mlir [-o out.mlir]
    lasscc run FILE.mlir --m M --n N --k K [--check] [--bench] [--target gpu|cpu] [--stage PASS] [--report banks]
    lasscc bench FILE.mlir [--sizes 1024,2048,4096] [--plot out.png]
    lasscc tune FILE.mlir --m M --n N --k K
    lasscc explain FILE.mlir [--stage S] [--png DIR]     (tile hierarchy, SMEM, registers, lane/bank maps)

Tiling overrides (any subcommand): --threadblock 128x128x32 --warp 64x64x32 --stages 3 --raster 8.
Every user error prints `place: error: what was expected` and exits 2; no partial output is left.
"""

from __future__ import annotations

import argparse
import os
import sys
import re
import time

import lasscc

from lasscc.config import ACCESS_ELEMS, access_elems, alignment_error, size_limit_error
from lasscc.diagnostics import EXIT_USER_ERROR, LassError
from lasscc.defaults import apply_tuned
from lasscc.options import (ARCHS, check_scalars, has_overrides, load_input, module_align, only_align,
                            set_module_align)
from lasscc.outfile import check_output, output_dir, write_output
from lasscc.splitk import MODES as SPLIT_K_MODES


_load = load_input  # the input, parsed, with the tiling options and --align applied


# the config choice of an input without one (lasscc.defaults: explain --m --n uses it too)
_has_overrides, _only_align, _apply_tuned = has_overrides, only_align, apply_tuned


def _module_split_note(module, k: int) -> str | None:
    """lasscc.splitk.empty_partitions_note for the first GEMM of `module` (a lass.gemm's config, or a kernel's
    facts in a dump), for the CLI's run / bench."""
    from xdsl.dialects import func, llvm

    from lasscc.config import default_config
    from lasscc.dialects.lass import GemmOp, config_from_attr, kernel_facts
    from lasscc.splitk import empty_partitions_note

    for op in module.walk():
        cfg = None
        if isinstance(op, GemmOp):
            try:
                cfg = config_from_attr(op.config, default_config(str(op.a.type.get_element_type())))
            except ValueError:
                return None  # the pass reports it, located
        elif isinstance(op, (func.FuncOp, llvm.FuncOp)):
            facts = kernel_facts(op)
            cfg = facts.config if facts is not None else None
        if cfg is not None:
            return empty_partitions_note(cfg.split_k, k, cfg.threadblock[2])
    return None


def cmd_compile(args) -> int:
    from lasscc.gcpause import gc_paused

    with gc_paused():  # the imports and the parse too: a short process
        return _compile(args)


def _compile(args) -> int:
    from lasscc.cache import cached_compile

    check_output(args.output)  # a bad -o or --dump-dir fails before seconds of compiling
    dump = output_dir(args.dump_dir) if args.dump_dir else None
    module = _load(args)
    _apply_tuned(module, args)
    res = cached_compile(module, args.arch, args.file, dump, use_cache=not args.no_cache,
                         keep_stages=args.emit == "mlir", verify_each=args.verify_each)
    text = {"ptx": lambda: res.ptx, "llvm": lambda: res.llvm_ir, "mlir": lambda: str(res.module) + "\n"}[args.emit]()
    if args.output:
        write_output(args.output, text)
    else:
        sys.stdout.write(text)
    if args.verbose:
        from lasscc.emit import ptxas_info

        info = ptxas_info(res.ptx, args.arch)
        print(info.line if info else "ptxas not found on PATH", file=sys.stderr)
    return 0


def _split_passes(text: str) -> list[str]:
    """'a,b{x=1,y=2},c' -> ['a', 'b{x=1,y=2}', 'c'] (commas inside braces belong to options)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "{"
        depth -= ch == "}"
        if depth < 0:
            raise LassError(f"option -p: expected '}}' only after a '{{' (pass options), got '{text}'")
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if depth:
        raise LassError(f"option -p: expected a closing '}}' for every '{{' (pass options), got '{text}'")
    return [p.strip() for p in out + [cur] if p.strip()]


def cmd_opt(args) -> int:
    from lasscc.gcpause import gc_paused

    with gc_paused():  # the imports and the parse too: a short process
        return _opt(args)


def _opt(args) -> int:
    from lasscc.driver import run_passes

    check_output(args.output)
    module = _load(args)
    names = _split_passes(args.passes or "")
    run_passes(module, names, args.arch, args.file, verify_each=args.verify_each)
    text = str(module) + "\n"
    if args.output:
        write_output(args.output, text)
    else:
        sys.stdout.write(text)
    return 0


def _is_batched(module) -> bool:
    """A batched GEMM: a kernel whose facts say batched, or a function with 3-d (batch-first)
    memref arguments."""
    from xdsl.dialects.builtin import MemRefType
    from xdsl.dialects.func import FuncOp

    from lasscc.dialects.lass import kernel_facts

    for fn in module.walk():
        if isinstance(fn, FuncOp):
            facts = kernel_facts(fn)
            if facts is not None and facts.batched:
                return True
            if any(isinstance(t, MemRefType) and t.get_num_dims() == 3 for t in fn.function_type.inputs.data):
                return True
    return False


def _size_option(option: str, dim: str) -> str:
    """The option to blame for size `dim` ("M", "N", "K", "batch"): --m ..., or --sizes."""
    return "option --sizes" if option == "sizes" else f"option --{dim.lower()}"


def _check_limits(sizes: list[tuple[int, int, int]], option: str = "run", batch: int = 1, cpu: bool = False) -> None:
    """The kernel's 32-bit sizes and offsets hold every size (config.size_limit_error); for a CPU
    run, its memory fits the budget (lasscc.interp.check.cpu_run_error)."""
    for m, n, k in sizes:
        bad = size_limit_error(m, n, k, batch)
        if bad:
            raise LassError(f"{_size_option(option, bad[0])}: {bad[1]}")
        if cpu:
            from lasscc.interp.check import cpu_run_error

            msg = cpu_run_error(m, n, k, batch)
            if msg:
                raise LassError(f"option --m/--n/--k: {msg}")


def static_shape_error(module, m: int, n: int, k: int) -> tuple[str, str] | None:
    """None when the GEMM's static memref sizes (lass.gemm or linalg.matmul operands: A M x K,
    B K x N, D M x N, batch first) agree with M, N, K, else (size name, 'expected ..., got ...').
    A dump's kernel is not checked: its operands are dynamic."""
    from xdsl.dialects.linalg.ops import MatmulOp

    from lasscc.dialects.lass import GemmOp
    from lasscc.linalg import matmul_operand_types

    for op in module.walk():
        if isinstance(op, GemmOp):
            types = [op.a.type, op.b.type, op.d.type]
        elif isinstance(op, MatmulOp):
            types = matmul_operand_types(op)
        else:
            continue
        if types is None:
            return None
        want = {"M": m, "N": n, "K": k}
        for name, t, dims in zip("ABD", types, (("M", "K"), ("K", "N"), ("M", "N"))):
            for dim, size in zip(dims, t.get_shape()[-2:]):
                if size >= 0 and size != want[dim]:
                    return dim, f"expected {dim} = {size} ({name} is {t}), got {want[dim]}"
        return None
    return None


def _check_static_shapes(module, sizes, option: str = "run") -> None:
    for m, n, k in sizes:
        bad = static_shape_error(module, m, n, k)
        if bad:
            raise LassError(f"{_size_option(option, bad[0])}: {bad[1]}")


def _note_first_gemm(module, filename: str) -> None:
    """run / bench / tune take the module's first GEMM function; say so when it has several."""
    from xdsl.dialects import func, llvm

    from lasscc.driver import is_gemm_function

    names = [f.sym_name.data for f in module.ops if isinstance(f, (func.FuncOp, llvm.FuncOp)) and is_gemm_function(f)]
    if len(names) > 1:
        print(f"lasscc: note: {filename}: running @{names[0]}, the first of {len(names)} GEMM functions "
              f"(not run: {', '.join('@' + n for n in names[1:])})", file=sys.stderr)


def cmd_run(args) -> int:
    for opt in ("m", "n", "k", "batch"):
        if getattr(args, opt) < 1:
            raise LassError(f"option --{opt}: expected a positive size, got {getattr(args, opt)}")
    check_scalars(args.alpha, args.beta, args.seed)
    _check_limits([(args.m, args.n, args.k)], "run", args.batch, cpu=args.target == "cpu")
    module = _load(args)
    _check_static_shapes(module, [(args.m, args.n, args.k)])
    _note_first_gemm(module, args.file)
    _resolve_align(module, [(args.m, args.n, args.k)], "run", args.file, args.arch)

    note = _module_split_note(module, args.k)
    if note:
        print(f"lasscc: note: {note}", file=sys.stderr)
    if args.batch > 1 and not _is_batched(module):
        raise LassError(f"option --batch: expected 1 for a non-batched kernel (2-d operands; a batched GEMM "
                        f"takes 3-d batch-first memrefs), got {args.batch}")
    if args.target == "cpu":
        return _run_cpu(module, args)
    if args.stage or args.report:
        raise LassError("option --stage/--report: only with --target cpu")
    if args.cta_order:
        raise LassError("option --cta-order: only with --target cpu (the GPU schedules its CTAs itself)")
    from lasscc.cache import cached_compile
    from lasscc.runtime import cuda

    reason = cuda.driver_status()
    if reason is not None:
        raise LassError(f"lasscc run: no GPU to run on ({reason}); use --target cpu to execute the IR on the CPU")
    from lasscc.emit import ptxas_info
    from lasscc.runtime.gemm_runner import format_report, run_gemm

    _apply_tuned(module, args, args.m, args.n, args.k, cuda.device_name(), cuda.sm_count())
    from lasscc.interp.check import epilogue_of

    epilogue = epilogue_of(module)  # a fused epilogue: the region the check applies (before the passes)
    res = cached_compile(module, args.arch, args.file, use_cache=not args.no_cache, keep_stages=False)
    spec = res.specs[0]
    alpha = args.alpha if args.alpha is not None else spec.alpha
    beta = args.beta if args.beta is not None else spec.beta
    info = ptxas_info(res.ptx, args.arch)
    result = run_gemm(res.ptx, spec, args.m, args.n, args.k, alpha=alpha, beta=beta, check=args.check or not args.bench,
                      bench=args.bench, iters=args.iters, seed=args.seed, batch=args.batch, epilogue=epilogue)
    print(format_report(result, args.m, args.n, args.k))
    if info:
        print(info.line)
    return 0 if result.get("ok", True) else 1


def _parse_sizes(args) -> list[tuple[int, int, int]]:
    if not args.sizes:
        return [(args.m, args.n, args.k)]
    out = []
    for item in args.sizes.split(","):
        parts = item.strip().lower().split("x")
        if len(parts) == 1:
            parts = parts * 3
        if len(parts) != 3 or not all(p.isdecimal() and int(p) > 0 for p in parts):
            raise LassError(f"option --sizes: expected sizes like 4096 or 4096x4096x1024 separated by commas, got '{item}'")
        out.append(tuple(int(p) for p in parts))
    return out


def _gpu_or_fail(what: str) -> None:
    from lasscc.runtime import cuda

    reason = cuda.driver_status()
    if reason is not None:
        raise LassError(f"lasscc {what}: no GPU to run on ({reason})")


def cmd_bench(args) -> int:
    from lasscc.tune import bench, format_rows

    sizes = _parse_sizes(args)
    _check_limits(sizes, "sizes" if args.sizes else "run")
    check_output(args.plot, "--plot")
    module = _load(args)
    _check_static_shapes(module, sizes, "sizes" if args.sizes else "run")
    _note_first_gemm(module, args.file)
    _resolve_align(module, sizes, "sizes" if args.sizes else "run", args.file, args.arch)
    _gpu_or_fail("bench")
    from lasscc.runtime import cuda

    _apply_tuned(module, args, *sizes[0], cuda.device_name(), cuda.sm_count())
    rows = bench(str(module), args.file, args.arch, sizes, iters=args.iters, plot=args.plot)
    print(format_rows(rows))
    return 0 if all(r["ok"] for r in rows) else 1


def cmd_tune(args) -> int:
    from lasscc.tune import config_label, tune

    if _has_overrides(args):
        raise LassError("option --threadblock/--warp/--stages/--raster/--prefetch: lasscc tune chooses the config itself")
    if args.jobs is not None and args.jobs < 1:
        raise LassError(f"option --jobs: expected a worker count >= 1, got {args.jobs}")
    _check_limits([(args.m, args.n, args.k)])
    module = _load(args)
    _check_static_shapes(module, [(args.m, args.n, args.k)])
    _note_first_gemm(module, args.file)
    _resolve_align(module, [(args.m, args.n, args.k)], "run", args.file, args.arch)
    _gpu_or_fail("tune")
    from lasscc.explain import gemm_config  # also takes linalg.matmul (through import-linalg)

    from lasscc.explain import gemm_facts
    from lasscc.tune import default_family

    info = gemm_config(module, args.arch, args.file)
    facts = gemm_facts(module, info)
    given = info.op.config.data.get("mma") if getattr(info.op, "config", None) is not None else None
    # --mma, else the family the input fixes (its config, or the sizes: lasscc.family.size_fallback), else the arch's
    mma = args.mma or (given.data if given is not None else default_family(args.arch))
    out = tune(str(module), args.file, args.arch, args.m, args.n, args.k, iters=args.iters, ab_type=info.ab_dtype,
               mma=mma, majors=facts.majors, acc_type=facts.acc, jobs=args.jobs, d_type=facts.d_dtype)
    print(f"{'TFLOP/s':>8}  config (threadblock / warp / stages / prefetch; wgmma: threadblock / stages / schedule / persistent / raster)")
    for tflops, label in out["ranking"]:
        print(f"{tflops:8.1f}  {label}")
    print(f"skipped {len(out['rejected'])} configs the validator or the GPU rejected")
    c = out["check"]
    print(f"winner: {config_label(out['best'])}  rel_err {c['rel_err']:.2e}  {c['tflops']:.1f} TFLOP/s"
          + (f"  cuBLAS {c['cublas_tflops']:.1f}  ratio {c['ratio']:.2f}" if c.get("ratio") else ""))
    print(f"stored as '{out['key']}' in {out['path']}")
    print(f"compiling {out['compiled']} candidates took {out['compile_s']:.1f} s ({out['jobs']} workers), "
          f"timing them {out['time_s']:.1f} s")
    return 0


# K's multiple for TN f16 operands (kept for callers of the old name); the rules for every layout
# and element type are lasscc.config.alignment_rules.
K_ALIGN = ACCESS_ELEMS


def k_align(ab_dtype: str = "f16") -> int:
    """K's multiple for TN operands of A/B type `ab_dtype` (lasscc.config.access_elems)."""
    return access_elems(ab_dtype)


def _ab_dtype(module) -> str:
    """The A/B element type name of the module's GEMM (lass.gemm, or a kernel's facts)."""
    from xdsl.dialects import func, llvm

    from lasscc.dialects.lass import GemmOp, kernel_facts

    for op in module.walk():
        if isinstance(op, GemmOp):
            return str(op.a.type.get_element_type())
        facts = kernel_facts(op) if isinstance(op, (func.FuncOp, llvm.FuncOp)) else None
        if facts is not None:
            return facts.ab_type
    return "f16"


def _resolve_align(module, sizes: list[tuple[int, int, int]], option: str = "run", filename: str = "<input>",
                   arch: str = "sm_80") -> None:
    """Check the sizes against the access widths (lasscc.config.alignment_rules), or choose them.

    With an explicit `align` (config, --align, or a compiled dump) a size it breaks is an error
    naming the option (--m/--n/--k, or --sizes for `option` "sizes").  Without one, the widest
    widths every size allows (lasscc.config.widest_align) are written into the lass.gemm (a
    linalg.matmul is imported first, so it gets them too), with a note on stderr when they are
    narrower than 16 bytes.  On sm_90a, sizes TMA cannot load first settle the instruction family
    (lasscc.family.size_fallback: mma.sync with a note, or the error of an explicit wgmma)."""
    from lasscc.config import widest_align
    from lasscc.family import size_fallback
    from lasscc.driver import import_gemms, operand_layouts

    import_gemms(module, filename)  # the element type, layouts and config below are the lass.gemm's
    size_fallback(module, arch, sizes, filename, option)
    layouts = operand_layouts(module)
    ab = _ab_dtype(module)
    align, fixed = module_align(module)
    if align is None:
        full = access_elems(ab)
        widths = [full, full]
        for m, n, k in sizes:
            w = widest_align(m, n, k, *layouts, ab_dtype=ab)
            widths = [min(x, y) for x, y in zip(widths, w)]
        if widths == [full, full]:
            return
        set_module_align(module, tuple(widths), filename)
        eb = 16 // full
        print(f"lasscc: note: reading A in {widths[0] * eb}-byte and B in {widths[1] * eb}-byte accesses "
              f"(align = [{widths[0]}, {widths[1]}]: the widest the sizes allow; 16 bytes needs each operand's "
              f"contiguous dimension a multiple of {full})", file=sys.stderr)
        return
    for m, n, k in sizes:
        bad = alignment_error(m, n, k, *layouts, ab_dtype=ab, align=align)
        if bad:
            how = ("the compiled kernel's access widths" if fixed else
                   f"align = [{align[0]}, {align[1]}] (config or --align); leave it out to let lasscc choose")
            if option == "sizes":  # "expected K a multiple of 8 (...), got 12"
                raise LassError(f"option --sizes: expected {bad[0]} {bad[1].removeprefix('expected ')}; {how}")
            raise LassError(f"option --{bad[0].lower()}: {bad[1]}; {how}")


def _check_sizes(args, module=None) -> None:
    """The sizes fit the access widths (kept for callers of the old name; see _resolve_align)."""
    _resolve_align(module, [(args.m, args.n, args.k)]) if module is not None else None


def _run_cpu(module, args) -> int:
    try:
        from lasscc.interp import run_cli  # provided by the CPU executor
    except ImportError:
        raise LassError("option --target cpu: the CPU executor is not available in this build") from None
    return run_cli(module, args)


class _UsageError(LassError):
    """A command line argparse rejects, reworded as `option --x: expected ..., got ...`."""


COMMANDS = ("compile", "opt", "run", "bench", "tune", "explain")


class _Parser(argparse.ArgumentParser):
    """argparse with the project's wording: `option --x: expected ..., got ...`, raised as a LassError
    (exit 2 through main) instead of argparse's usage text and sys.exit."""

    def error(self, message: str):
        m = re.match(r"argument (\S+?)(?:/\S+)?: invalid choice: '?(.*?)'? \(choose from (.*)\)$", message)
        if m:
            opt, got, choices = m.groups()
            if opt in ("cmd", "{compile,opt,run,bench,tune,explain}"):
                raise _UsageError(f"lasscc: error: unknown command '{got}'; expected one of {', '.join(COMMANDS)}")
            choices = ", ".join(c.strip(" '") for c in choices.split(","))
            raise _UsageError(f"option {opt}: expected one of {choices}, got '{got}'")
        m = re.match(r"argument (\S+?)(?:/\S+)?: invalid (int|float) value: '(.*)'$", message)
        if m:
            opt, kind, got = m.groups()
            what = "an integer" if kind == "int" else "a number"
            raise _UsageError(f"option {opt}: expected {what}, got '{got}'")
        m = re.match(r"argument (\S+?)(?:/\S+)?: (.*)$", message)
        if m:
            raise _UsageError(f"option {m.group(1)}: {m.group(2)}")
        if "required: cmd" in message:
            raise _UsageError(f"lasscc: error: expected a command: {', '.join(COMMANDS)} (lasscc --help)")
        m = re.match(r"the following arguments are required: (.*)$", message)
        if m:
            what = m.group(1)
            if what == "file":
                raise _UsageError(f"lasscc {self.prog.split()[-1]}: error: expected an input file (.mlir, or '-' "
                                  "for stdin)")
            raise _UsageError(f"lasscc {self.prog.split()[-1]}: error: expected {what}")
        m = re.match(r"unrecognized arguments: (.*)$", message)
        if m:
            raise _UsageError(f"{self.prog}: error: unknown option or extra argument: {m.group(1)} "
                              f"({self.prog} --help)")
        raise _UsageError(f"{self.prog}: error: {message}")


class _NoParser:
    """What build_parser adds the options of a command it leaves out to: nothing."""

    def add_argument(self, *args, **kwargs) -> None:
        pass

    def set_defaults(self, **kwargs) -> None:
        pass


_NO_PARSER = _NoParser()


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The `lasscc` parser.  Given the command line `argv` whose first word is a command, only that
    command's subparser is built (the others' options go to _NO_PARSER): only it reads the rest of
    the line, and the others cost a compile ~4 ms of CPU (argparse formats and translates each option's
    help as it is added; `lasscc explain`'s options live in lasscc.explain, whose import is ~40 ms).
    Without a command first (`lasscc --help`, no command, an unknown one), every subparser is built."""
    p = _Parser(prog="lasscc", description="GEMM compiler: lass.gemm (MLIR) -> PTX")
    sub = p.add_subparsers(dest="cmd", required=True)
    only = argv[0] if argv and argv[0] in COMMANDS else None

    def add_parser(cmd: str, **kwargs):
        return sub.add_parser(cmd, **kwargs) if only in (None, cmd) else _NO_PARSER

    def common(sp):
        sp.add_argument("file", help="input .mlir (a lass.gemm, or any lasscc dump); '-' for stdin")
        sp.add_argument("--arch", choices=list(ARCHS),
                        help="target (default: the GPU's own for run/bench/tune on a GPU, else sm_80)")
        sp.add_argument("--threadblock", help="threadblock tile MxNxK, e.g. 128x128x32")
        sp.add_argument("--warp", help="warp tile MxNxK, e.g. 64x64x32")
        sp.add_argument("--stages", type=int, help="2 = register double buffer, >= 3 = cp.async multistage")
        sp.add_argument("--raster", type=int, help="threadblock rasterization group (tile rows walked together)")
        sp.add_argument("--prefetch", type=int, choices=[0, 1],
                        help="1: load the next stage's first fragments across the k-tile barrier")
        sp.add_argument("--align", help="A,B elements per global copy access (powers of two up to 16 bytes, e.g. "
                        "8,8 for f16; default: 16 bytes, or for run/bench/tune the widest the sizes allow)")
        sp.add_argument("--split-k", help="split K into S partitions (grid y), serial split-K: each tile's "
                        "partial products are added to D in K order through a semaphore (lasscc.splitk)")
        sp.add_argument("--split-k-mode", choices=list(SPLIT_K_MODES),
                        help="serial (default): partitions add to D in K order; parallel: partial sums to a "
                        "workspace, then a reduction kernel; streamk: a persistent grid sharing all MAC "
                        "iterations; streamk-dp: full waves but one data-parallel, the rest stream-K; streamk-tail: every full "
                        "wave data-parallel, the last part-wave stream-K (lasscc.streamk)")
        sp.add_argument("--no-cache", action="store_true", help="compile afresh, bypassing the compile cache "
                        "(lasscc.cache: $LASSCC_CACHE_DIR or ~/.cache/lasscc)")

    c = add_parser("compile", help="lower to PTX")
    common(c)
    c.add_argument("-o", "--output", help="output file (default stdout)")
    c.add_argument("--dump-dir", help="write the IR after every pass, the LLVM IR and the PTX here")
    c.add_argument("--emit", default="ptx", choices=["ptx", "llvm", "mlir"])
    c.add_argument("-v", "--verbose", action="store_true", help="print ptxas -v's resource line")
    _debug_flags(c)
    c.set_defaults(fn=cmd_compile)

    o = add_parser("opt", help="run named passes and print the IR")
    common(o)
    o.add_argument("-p", "--passes", help="comma-separated pass flags, in order")
    o.add_argument("-o", "--output")
    _debug_flags(o)
    o.set_defaults(fn=cmd_opt)

    r = add_parser("run", help="compile, run, check (and time) on the GPU or the CPU")
    common(r)
    r.add_argument("--m", type=int, default=4096)
    r.add_argument("--n", type=int, default=4096)
    r.add_argument("--k", type=int, default=4096)
    r.add_argument("--alpha", type=float)
    r.add_argument("--beta", type=float)
    r.add_argument("--check", action="store_true")
    r.add_argument("--bench", action="store_true")
    r.add_argument("--iters", type=int, default=50)
    r.add_argument("--seed", type=int)
    r.add_argument("--batch", type=int, default=1, help="GEMMs of a batched kernel (3-d operands; grid z)")
    r.add_argument("--target", default="gpu", choices=["gpu", "cpu"])
    r.add_argument("--stage", help="(cpu) execute the IR as it stands after this pass")
    r.add_argument("--report", choices=["banks"], help="(cpu) print the shared-memory bank report")
    r.add_argument("--cta-order", help="(cpu) the order the executor prefers the CTAs in: forward (default), "
                   "reverse or shuffle:SEED (a split-K kernel's semaphores must give the same D in every order)")
    r.set_defaults(fn=cmd_run)

    bn = add_parser("bench", help="check and time on the GPU beside cuBLAS, one row per size")
    common(bn)
    bn.add_argument("--m", type=int, default=4096)
    bn.add_argument("--n", type=int, default=4096)
    bn.add_argument("--k", type=int, default=4096)
    bn.add_argument("--sizes", help="comma-separated sizes: 4096 (cube) or MxNxK, e.g. 1024,2048,4096x4096x1024")
    bn.add_argument("--iters", type=int, default=50)
    bn.add_argument("--plot", help="write TFLOP/s against size for lasscc and cuBLAS to this PNG")
    bn.set_defaults(fn=cmd_bench)

    tu = add_parser("tune", help="search tile configs on the GPU and store the winner")
    common(tu)
    tu.add_argument("--m", type=int, default=4096)
    tu.add_argument("--n", type=int, default=4096)
    tu.add_argument("--k", type=int, default=4096)
    tu.add_argument("--iters", type=int, default=20)
    tu.add_argument("--mma", choices=["wgmma", "mma.sync", "all"], help="the instruction family to search (default: "
                    "wgmma on sm_90a, mma.sync on sm_80; a config's `mma` or sizes TMA cannot load fix it)")
    tu.add_argument("--jobs", type=int, default=None, metavar="N",
                    help="compile N candidates at a time in worker processes (default: one per CPU; 1: in this process)")
    tu.set_defaults(fn=cmd_tune)

    if only in (None, "explain"):
        from lasscc.explain import add_parser as add_explain_parser

        add_explain_parser(sub, common)
    return p


def _debug_flags(sp) -> None:
    sp.add_argument("--timing", action="store_true", help="print the wall and CPU time of every phase (parse, each "
                    "pass and its verification / printing, LLVM translation, optimization, NVPTX emit), of the "
                    "process's start-up and of the modules loaded outside the phases on stderr")
    sp.add_argument("--verify-each", action="store_true", help="verify the IR after every pass (default: once, "
                    "after the last -- for compile, LLVM's verifier of the LLVM IR; compiles afresh, bypassing a "
                    "cache hit)")


def _default_arch(args) -> str:
    """The GPU's own target when the command runs on one (so its SMEM budget applies), else sm_80."""
    if args.cmd in ("run", "bench", "tune") and getattr(args, "target", "gpu") != "cpu":
        from lasscc.runtime import cuda

        if cuda.driver_status() is None:
            return cuda.device_arch()
    return "sm_80"


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(argv)
    try:
        args = parser.parse_args(argv)
        if getattr(args, "arch", "") is None:
            args.arch = _default_arch(args)
        from lasscc import timing

        enabled = getattr(args, "timing", False)
        startup = timing.startup_rows(lasscc.STARTED, _CLI_STARTED) if enabled and _CLI_STARTED else ()
        with timing.report_to(sys.stderr, enabled=enabled, startup=startup):
            return args.fn(args)
    except LassError as e:
        print(str(e), file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        return 130


# Commands whose process runs without Python's cyclic garbage collector and ends without its
# teardown (console_main).  Collecting took ~0.04 s of a `lasscc compile examples/gemm.mlir`'s
# imports and ~0.09 s after the compile (its IR, which gcpause kept uncollected, traversed once
# more), and freeing everything object by object at exit ~0.12 s: all of it after the output was
# written, in a process that ends.  Not run / bench / tune: their CUDA context and worker processes
# are left to the normal exit.
FAST_EXIT_COMMANDS = ("compile", "opt")

# (perf_counter, process_time) when console_main calls main(): the process's start-up rows of
# `--timing` (lasscc.timing.startup_rows); None for main() called in a process of another program.
_CLI_STARTED: tuple[float, float] | None = None


def console_main() -> None:
    """The `lasscc` command (pyproject.toml's entry point): main() on sys.argv.  For a compile or an
    opt: the garbage collector off throughout, and once main returns, the streams flushed, the
    process exits at once with main's code (os._exit: no atexit handlers, no freeing of objects;
    every output file is closed by then).  The dataclass methods' bytecode that the imports compiled
    (lasscc.dataclass_code) is saved first: os._exit skips atexit."""
    import gc

    from lasscc import dataclass_code

    global _CLI_STARTED
    command = next((a for a in sys.argv[1:] if not a.startswith("-")), None)
    fast = command in FAST_EXIT_COMMANDS
    if fast:
        gc.disable()
    _CLI_STARTED = (time.perf_counter(), time.process_time())
    rc = main()
    if fast and isinstance(rc, int):
        dataclass_code.save()
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):  # a closed pipe: what the normal exit would do with it
            sys.exit(rc)
        os._exit(rc)
    sys.exit(rc)


if __name__ == "__main__":
    console_main()
