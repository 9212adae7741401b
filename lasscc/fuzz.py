"""Seeded randomized GEMM test on the CPU executor (issue 12): every element against float64.

    python -m lasscc.fuzz --cases 400 --seed 7            # a developer's larger run
    python -m lasscc.fuzz --seed 7 --only 12 -v           # rerun kernel 12 of that run alone

A *kernel* is drawn from the seed: element types (f16, bf16 -> f32 or their own type; f16 with
f16 accumulation; f32 as tf32; i8 -> i32 or f32), A / B / D layouts (row- or column-major), input
form (`lass.gemm` with its config, alpha and beta in the text, or upstream `linalg.matmul` with the
tiling given as `--threadblock/--warp/--stages/...` options, or none: the default tiling), a small
valid tile config (GemmConfig.validate), sometimes an explicit `align` (config or `--align`) and
sometimes a second, unrelated function in the module.  Each kernel is then run `RUNS_PER_KERNEL`
times (the *cases*) at odd sizes (M, N, K from SIZES: 1, 7, 33, 129 and small multiples of 8; K
often not a multiple of 8) with alpha and beta (0 or not; linalg.matmul is C += A.B: 1 and 1).

Each case goes the way of `lasscc run FILE --target cpu --m M --n N --k K [options]`: the CLI's
own argument parser, loader and access-width choice (`lasscc.cli._load`, `_resolve_align`), the
passes up to lasscc-swizzle-smem (compiled once per distinct input IR: the sizes are kernel
arguments) and the executor (`lasscc.interp.run_check`: random inputs, NaN-poisoned D when
beta = 0).  Every element of D is compared with the float64 reference within
`lasscc.interp.mma_math.elementwise_bound` (worst-case rounding, K-scaled for f16 accumulation and
tf32).  Outcomes:

  ok        every element within its bound;
  wrong     an element outside it (or NaN / an unwritten poisoned element);
  crashed   any exception that is not a located user error for a case drawn invalid: a Python
            exception, an executor fault (out of bounds, race, misaligned cp.async ...), or a
            located error for a case that should compile;
  rejected  an invalid case (`expected_rejection`: an explicit align the sizes break, or a config
            the validator rejects at the access widths the sizes need) rejected with a located
            message (`file:line:col: error:` or `option --x:`), as expected;
  known     failed, and matches a known bug (KNOWN_BUGS, issue 12 items): an expected failure;
  fixed     matches a known bug but passed: the KNOWN_BUGS entry should go.

The summary line: `N cases: W wrong, C crashed, R rejected (expected), X known-bug, F fixed, T s`.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from lasscc.config import GemmConfig, access_elems, align_choices, alignment_error, default_config, widest_align
from lasscc.diagnostics import LassError

# (A/B type, accumulator, D type, lass.gemm `acc` written): every combination the passes accept
# (passes/tile_threadblock.D_TYPES); linalg.matmul takes the default accumulator (no f16 acc).
TYPES = [
    ("f16", "f32", "f32"), ("f16", "f32", "f16"), ("f16", "f16", "f16"), ("f16", "f16", "f32"),
    ("bf16", "f32", "f32"), ("bf16", "f32", "bf16"), ("f32", "f32", "f32"),
    ("i8", "i32", "i32"), ("i8", "i32", "f32"),
]
DEFAULT_ACC = {"f16": "f32", "bf16": "f32", "f32": "f32", "i8": "i32"}
# odd shapes (1, 7, 33, 129: no 16-byte access fits them) and small multiples of 8 / 16
SIZES = (1, 7, 8, 16, 24, 33, 40, 48, 64, 129)
ALPHAS = (1.0, 1.0, 0.5, -1.25, 0.3)
BETAS = (0.0, 0.0, 1.0, -0.5, 0.75)
RUNS_PER_KERNEL = 4
TILE_MN = (16, 32, 64)  # CI sizes; --max-tile 128 adds 128 (slower compiles)
FORMS = ("lass.gemm", "linalg.matmul")

# Known bugs the generator reaches (issue 12): name -> (item, why).  `known_bug` decides which
# cases they cover; remove an entry when its fix lands (its cases then show as `fixed`).
# (issue 12 items 1 and 2, the linalg.matmul access width and i8 bodies, were here until their fixes)
KNOWN_BUGS: dict[str, tuple[str, str]] = {}


def _row_col(layout: str, et: str) -> str:
    return f"memref<?x?x{et}>" if layout == "row" else f"memref<?x?x{et}, strided<[1, ?]>>"


@dataclass(frozen=True)
class Kernel:
    """One drawn kernel: the input text's ingredients and the CLI options it is run with."""

    seed: int  # the run's seed (kernel `index` of run `seed`)
    index: int
    form: str  # "lass.gemm" or "linalg.matmul"
    ab: str
    acc: str
    d: str
    layouts: tuple[str, str, str]  # A, B, D: "row" / "col"
    config: GemmConfig | None  # None: the default tiling (no config, no tiling options)
    align: tuple[int, int] | None  # explicit access widths (config or --align), else None
    extra_function: bool  # a second, unrelated function in the module
    alpha: float = 1.0
    beta: float = 0.0

    def mlir(self) -> str:
        """The MLIR text of the input (`lass.gemm` carries config, alpha, beta and acc)."""
        ab = "i8" if self.ab == "i8" else self.ab
        ta, tb, td = (_row_col(lay, et) for lay, et in zip(self.layouts, (ab, ab, self.d)))
        lines = [f"func.func @gemm(%a: {ta}, %b: {tb}, %d: {td}) {{"]
        if self.form == "lass.gemm":
            attrs = [f"alpha = {self.alpha!r} : f32", f"beta = {self.beta!r} : f32"]
            if self.acc != DEFAULT_ACC[self.ab]:
                attrs.append(f"acc = {self.acc}")
            cfg = self._config_entries()
            if cfg:
                attrs.append("config = {" + ", ".join(cfg) + "}")
            lines.append(f"  lass.gemm {{{', '.join(attrs)}}}")
            lines.append(f"      ins(%a, %b : {ta}, {tb}) outs(%d : {td})")
        else:
            lines.append(f"  linalg.matmul ins(%a, %b : {ta}, {tb}) outs(%d : {td})")
        lines += ["  func.return", "}"]
        if self.extra_function:
            lines += ["func.func @helper(%x: i32) -> i32 {", "  func.return %x : i32", "}"]
        return "\n".join(lines) + "\n"

    def _config_entries(self) -> list[str]:
        out = []
        if self.config is not None:
            c = self.config
            out += [f"threadblock = [{', '.join(map(str, c.threadblock))}]", f"warp = [{', '.join(map(str, c.warp))}]",
                    f"stages = {c.stages}", f"raster = {c.raster}", f"prefetch = {c.prefetch}"]
        if self.align is not None:
            out.append(f"align = [{self.align[0]}, {self.align[1]}]")
        return out

    def options(self) -> list[str]:
        """CLI options: the tiling of a linalg.matmul (its only way in), else none."""
        if self.form != "linalg.matmul":
            return []
        out = []
        if self.config is not None:
            c = self.config
            out += ["--threadblock", "x".join(map(str, c.threadblock)), "--warp", "x".join(map(str, c.warp)),
                    "--stages", str(c.stages), "--raster", str(c.raster), "--prefetch", str(c.prefetch)]
        if self.align is not None:
            out += ["--align", f"{self.align[0]},{self.align[1]}"]
        return out

    def describe(self) -> str:
        cfg = "default tiling" if self.config is None else (
            f"tb {'x'.join(map(str, self.config.threadblock))} warp {'x'.join(map(str, self.config.warp))} "
            f"stages {self.config.stages} raster {self.config.raster} prefetch {self.config.prefetch}")
        lay = "".join("R" if x == "row" else "C" for x in self.layouts)
        return (f"kernel {self.index}: {self.form} {self.ab}->{self.acc}->{self.d} A/B/D {lay} {cfg}"
                f"{f' align {list(self.align)}' if self.align else ''}{' +helper func' if self.extra_function else ''}")


@dataclass
class Case:
    kernel: Kernel
    m: int
    n: int
    k: int
    alpha: float
    beta: float
    seed: int
    outcome: str = ""
    detail: str = ""
    known: str | None = None
    seconds: float = 0.0

    def command(self, path: str) -> str:
        """The `lasscc run` line that reproduces the case (its check is the norm; `python -m
        lasscc.fuzz --only` repeats the elementwise comparison)."""
        opts = " ".join(self.kernel.options())
        return (f"lasscc run {path} --target cpu --m {self.m} --n {self.n} --k {self.k} --alpha {self.alpha!r} "
                f"--beta {self.beta!r} --seed {self.seed} --check{' ' + opts if opts else ''}")


def config_candidates(ab: str, tile_mn=TILE_MN, max_threads: int = 128) -> list[GemmConfig]:
    """Every small config GemmConfig.validate accepts for A/B type `ab`: threadblock M, N from
    `tile_mn`, warp tiles dividing them, BK rows of 32 / 64 / 128 bytes, stages 2-4, raster 1 / 4,
    prefetch 0 / 1, at most `max_threads` threads (the CPU executor's cost)."""
    from lasscc.layout import MMA_INPUTS

    eb, shape, _ = MMA_INPUTS[ab]
    out = []
    for bm in tile_mn:
        for bn in tile_mn:
            for wm in (w for w in (16, 32, 64) if bm % w == 0):
                for wn in (w for w in (16, 32, 64) if bn % w == 0):
                    for bk in (32 // eb, 64 // eb, 128 // eb):
                        for stages in (2, 3, 4):
                            for raster, prefetch in ((1, 0), (4, 1), (1, 1), (4, 0)):
                                c = GemmConfig((bm, bn, bk), (wm, wn, bk), shape, stages, raster, prefetch)
                                if c.threads > max_threads:
                                    continue
                                try:
                                    c.validate(ab_type=ab)
                                except LassError:
                                    continue
                                out.append(c)
    return out


_CANDIDATES: dict[tuple, list[GemmConfig]] = {}


def draw_kernel(seed: int, index: int, tile_mn=TILE_MN, default_tiling: float = 0.06) -> Kernel:
    """Kernel `index` of the run with `seed` (independent of the others: rng([seed, index]))."""
    rng = np.random.default_rng([seed, index])
    form = FORMS[int(rng.integers(2))]
    choices = [t for t in TYPES if form == "lass.gemm" or t[1] == DEFAULT_ACC[t[0]]]
    ab, acc, d = choices[int(rng.integers(len(choices)))]
    layouts = tuple("row" if rng.random() < 0.5 else "col" for _ in range(3))
    key = (ab, tuple(tile_mn))
    if key not in _CANDIDATES:
        _CANDIDATES[key] = config_candidates(ab, tile_mn)
    cands = _CANDIDATES[key]
    config = None if rng.random() < default_tiling else cands[int(rng.integers(len(cands)))]
    align = None
    if rng.random() < 0.15:
        ch = align_choices(ab)
        align = (int(ch[int(rng.integers(len(ch)))]), int(ch[int(rng.integers(len(ch)))]))
        if config is not None:
            try:  # a narrow align can make stages = 2 spill: draw valid cases only
                GemmConfig(**{**config.__dict__, "align": align}).validate(ab_type=ab)
            except LassError:
                align = None
    alpha = float(ALPHAS[int(rng.integers(len(ALPHAS)))]) if form == "lass.gemm" else 1.0
    beta = float(BETAS[int(rng.integers(len(BETAS)))]) if form == "lass.gemm" else 1.0
    return Kernel(seed, index, form, ab, acc, d, layouts, config, align, bool(rng.random() < 0.15), alpha, beta)


def draw_cases(kernel: Kernel, seed: int, runs: int = RUNS_PER_KERNEL) -> list[Case]:
    rng = np.random.default_rng([seed, kernel.index, 1])
    out = []
    for r in range(runs):
        m, n, k = (int(SIZES[int(rng.integers(len(SIZES)))]) for _ in range(3))
        if kernel.form == "lass.gemm" and r > 0:
            alpha = float(ALPHAS[int(rng.integers(len(ALPHAS)))])
            beta = float(BETAS[int(rng.integers(len(BETAS)))])
        else:
            alpha, beta = kernel.alpha, kernel.beta
        out.append(Case(kernel, m, n, k, alpha, beta, int(rng.integers(2**31))))
    return out


def expected_rejection(case: Case) -> str | None:
    """Why the case is invalid, or None: an explicit align its sizes break (alignment_error), or a
    config the validator rejects at the access widths the run uses (the explicit ones, or the
    widest the sizes allow, which `lasscc run` chooses: a stages = 2 config valid at 16 bytes can
    spill at 2)."""
    kn = case.kernel
    la, lb = kn.layouts[0], kn.layouts[1]
    if kn.align is not None:
        bad = alignment_error(case.m, case.n, case.k, la, lb, kn.ab, kn.align)
        if bad:
            return f"{bad[0]}: {bad[1]}"
        align = kn.align
    else:
        full = access_elems(kn.ab)
        align = widest_align(case.m, case.n, case.k, la, lb, kn.ab)
        align = None if align == (full, full) else align
    cfg = kn.config if kn.config is not None else default_config(kn.ab)
    # the compiler's own check, on the kernel it makes (operand order, tile majors, accumulator)
    from lasscc.config import swap_operands
    from lasscc.dialects.lass import KernelFacts

    swap = kn.layouts[2] == "col"
    kcfg = GemmConfig(**{**cfg.__dict__, "align": None if align is None else swap_operands(tuple(align), swap)})
    acc = kn.acc if kn.form == "lass.gemm" else DEFAULT_ACC[kn.ab]
    facts = KernelFacts(kn.ab, acc, kn.d, la, lb, kn.layouts[2], config=kcfg)
    try:
        facts.validate("sm_80", "config")
    except LassError as e:
        return str(e)
    return None


def known_bug(case: Case) -> str | None:
    """The KNOWN_BUGS entry the case falls under, or None.  Add a rule here with its entry when the
    generator reaches a bug that is not fixed yet."""
    return None


_LOCATED = re.compile(r"^(\S+:\d+:\d+: error: |option --[a-z-]+: )")


def _compare(r: dict, case: Case) -> tuple[bool, str]:
    """(ok, detail): every element of D within elementwise_bound of the reference."""
    from lasscc.interp.bf16 import as_f64
    from lasscc.interp.check import reference_scale
    from lasscc.interp.mma_math import elementwise_bound

    a, b, c = r["inputs"]
    ref = r["ref"]
    d = as_f64(r["d"])
    scale = reference_scale(a, b, c, case.alpha, case.beta)
    res = r["result"]
    kn = case.kernel
    acc = kn.acc if kn.form == "lass.gemm" else DEFAULT_ACC[kn.ab]
    bound = elementwise_bound(np.asarray(r["d"]).dtype, kn.ab, acc, case.k, scale, ref, case.alpha, case.beta)
    with np.errstate(invalid="ignore"):
        err = np.abs(d - ref)
        bad = ~(err <= bound)
    if not bad.any():
        return True, f"max |D-ref|/bound {float(np.max(err / np.maximum(bound, 1e-300))):.2g}"
    idx = tuple(int(i) for i in np.argwhere(bad)[0])
    return False, (f"{int(bad.sum())} of {bad.size} elements outside the bound, first at (i, j) = {idx}: "
                   f"D {d[idx]!r}, ref {ref[idx]!r}, bound {bound[idx]:.3g} (level {res.level})")


class Runner:
    """Runs cases, compiling each distinct input IR once (the sizes are kernel arguments)."""

    def __init__(self, workdir: Path, arch: str = "sm_80"):
        self.workdir = workdir
        self.arch = arch
        self._compiled: dict[str, object] = {}
        self.kernels_compiled = 0

    def forget(self) -> None:
        """Drop the compiled modules (they hold a few MB each)."""
        self._compiled.clear()

    def path(self, kernel: Kernel) -> Path:
        p = self.workdir / f"kernel_{kernel.index:04d}.mlir"
        text = kernel.mlir()
        if not p.exists() or p.read_text() != text:
            p.write_text(text)
        return p

    def run(self, case: Case) -> Case:
        t0 = time.perf_counter()
        case.known = known_bug(case)
        invalid = expected_rejection(case)
        stage = "compile"
        try:
            module = self._module(case)
            stage = "execute"
            from lasscc.interp.check import run_check

            r = run_check(module, case.m, case.n, case.k, case.seed, case.alpha, case.beta, report_banks=False)
            ok, case.detail = _compare(r, case)
            case.outcome = "ok" if ok else "wrong"
            if invalid:
                case.outcome, case.detail = "crashed", f"expected a rejection ({invalid}), but it ran: {case.detail}"
        except LassError as e:
            msg = str(e)
            first = msg.splitlines()[0] if msg else ""
            if invalid and stage == "compile" and _LOCATED.match(first):
                case.outcome, case.detail = "rejected", first
            else:
                case.outcome = "crashed"
                case.detail = f"{type(e).__name__} while {stage == 'compile' and 'compiling' or 'executing'}: {first}"
        except Exception as e:  # noqa: BLE001 - every other exception is a crash to report
            tb = traceback.extract_tb(e.__traceback__)[-1]
            case.outcome = "crashed"
            case.detail = f"{type(e).__name__}: {e} (at {Path(tb.filename).name}:{tb.lineno})"
        if case.known is not None and case.outcome != "rejected":  # an invalid case says nothing of the bug
            case.outcome = "fixed" if case.outcome == "ok" else "known"
        case.seconds = time.perf_counter() - t0
        return case

    def _module(self, case: Case):
        """The case's input through the CLI's loader and access-width choice, then the passes up to
        lasscc-swizzle-smem (cached by the input IR)."""
        from lasscc import cli
        from lasscc.interp.check import run_to_stage

        path = str(self.path(case.kernel))
        argv = ["run", path, "--target", "cpu", "--m", str(case.m), "--n", str(case.n), "--k", str(case.k),
                *case.kernel.options()]
        args = cli.build_parser().parse_args(argv)
        args.arch = self.arch
        with contextlib.redirect_stderr(io.StringIO()):  # the access-width note
            module = cli._load(args)
            cli._resolve_align(module, [(case.m, case.n, case.k)], "run")
        key = str(module)
        if key not in self._compiled:
            run_to_stage(module, arch=self.arch, filename=path)
            self._compiled[key] = module
            self.kernels_compiled += 1
        return self._compiled[key]


@dataclass
class Summary:
    cases: list[Case] = field(default_factory=list)
    seconds: float = 0.0
    kernels_compiled: int = 0

    def count(self, outcome: str) -> int:
        return sum(c.outcome == outcome for c in self.cases)

    def line(self) -> str:
        known = sorted({KNOWN_BUGS[c.known][0] for c in self.cases if c.outcome == "known"})
        return (f"{len(self.cases)} cases: {self.count('wrong')} wrong, {self.count('crashed')} crashed, "
                f"{self.count('rejected')} rejected (expected), {self.count('known')} known-bug"
                f"{' (' + ', '.join(known) + ')' if known else ''}, {self.count('fixed')} fixed, "
                f"{self.seconds:.0f} s ({self.kernels_compiled} kernels compiled)")

    @property
    def failures(self) -> list[Case]:
        """Cases that fail the test: wrong, crashed, or a known bug that no longer fails."""
        return [c for c in self.cases if c.outcome in ("wrong", "crashed", "fixed")]


def run_fuzz(cases: int, seed: int, *, only: int | None = None, tile_mn=TILE_MN, workdir: Path | None = None,
             log=None, runs_per_kernel: int = RUNS_PER_KERNEL) -> Summary:
    """Draw and run `cases` cases (ceil(cases / runs_per_kernel) kernels) from `seed`; `only`: just
    kernel `only`'s cases.  `log(text)` receives one line per case that did not pass cleanly."""
    t0 = time.perf_counter()
    own = workdir is None
    tmp = tempfile.TemporaryDirectory(prefix="lasscc-fuzz-") if own else None
    runner = Runner(Path(tmp.name) if tmp else Path(workdir))
    summary = Summary()
    try:
        n_kernels = -(-cases // runs_per_kernel)
        indices = [only] if only is not None else range(n_kernels)
        for i in indices:
            kernel = draw_kernel(seed, i, tile_mn)
            runner.forget()  # another kernel's text: nothing compiled so far can be reused
            todo = draw_cases(kernel, seed, runs_per_kernel)
            if only is None:
                todo = todo[: cases - i * runs_per_kernel]
            for case in todo:
                runner.run(case)
                summary.cases.append(case)
                if log is not None and case.outcome not in ("ok", "rejected"):
                    log(report(case, runner.path(kernel) if not own else None))
    finally:
        summary.seconds = time.perf_counter() - t0
        summary.kernels_compiled = runner.kernels_compiled
        if tmp is not None:
            tmp.cleanup()
    return summary


def report(case: Case, path=None) -> str:
    """A failing case in three lines: what, why, how to reproduce (`path`: where its input was
    kept, else DIR/kernel_NNNN.mlir as `--keep DIR` writes it)."""
    why = f" [{KNOWN_BUGS[case.known][0]}: {KNOWN_BUGS[case.known][1]}]" if case.known else ""
    path = path or f"DIR/kernel_{case.kernel.index:04d}.mlir"
    return (f"{case.outcome.upper()} {case.kernel.describe()}  M={case.m} N={case.n} K={case.k} alpha={case.alpha!r} "
            f"beta={case.beta!r} seed={case.seed}{why}\n    {case.detail}\n"
            f"    reproduce: python -m lasscc.fuzz --seed {case.kernel.seed} --only {case.kernel.index} --keep DIR; "
            f"{case.command(str(path))}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m lasscc.fuzz", description=__doc__.splitlines()[0])
    p.add_argument("--cases", type=int, default=200, help="number of cases (default 200)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--only", type=int, help="run only this kernel's cases (the index a report names)")
    p.add_argument("--max-tile", type=int, default=64, choices=(64, 128), help="largest threadblock M / N drawn")
    p.add_argument("--keep", help="write the inputs to this folder (kept) instead of a temporary one")
    p.add_argument("-v", "--verbose", action="store_true", help="one line per case")
    args = p.parse_args(argv)
    if args.cases < 1 or args.seed < 0:
        p.error("expected --cases >= 1 and --seed >= 0")
    tiles = TILE_MN + ((128,) if args.max_tile == 128 else ())
    workdir = None
    if args.keep:
        workdir = Path(args.keep)
        workdir.mkdir(parents=True, exist_ok=True)

    def log(text: str) -> None:
        print(text, flush=True)

    s = run_fuzz(args.cases, args.seed, only=args.only, tile_mn=tiles, workdir=workdir, log=log)
    if args.verbose:
        for c in s.cases:
            print(f"{c.outcome:8s} {c.seconds:5.1f} s  {c.kernel.describe()}  M={c.m} N={c.n} K={c.k} "
                  f"alpha={c.alpha!r} beta={c.beta!r}  {c.detail}")
    print(s.line())
    return 1 if s.failures else 0


if __name__ == "__main__":
    sys.exit(main())
