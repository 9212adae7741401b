"""`run_check`: run a kernel of any level on fresh random data and compare with float64 numpy.

    run_check(module, m, n, k, seed, alpha, beta) -> {"rel_err", "ok", "seconds", "bank_report", ...}

A is M x K row-major, B is K x N column-major (stored as an N x K row-major array: element
(k, j) at j*K + k), both drawn uniform in [-1, 1) and rounded to the element type of the kernel's
A / B memref (f16, or bf16 kept as uint16 bit patterns: lasscc.interp.bf16).  D has the element
type of the kernel's D memref and its layout (row-major, or column-major: a `strided<[1, ?]>` D
at level 0 or a swap_ab kernel (KernelFacts), handed over as its N x M storage); it is poisoned
with NaN when beta == 0 (so a kernel that reads C it should not, or leaves elements unwritten,
fails) and holds random C otherwise.  The reference
is alpha * A.B + beta * C in float64 from the exact (rounded) inputs; the error is the relative
Frobenius norm ||D - ref|| / ||ref||.  It passes at or below lasscc.interp.mma_math.TOLERANCE[D's dtype]; NaN anywhere
fails.

Batched kernels (3-d batch-first memrefs at level 0, KernelFacts.batched after the passes): every
array has a leading batch dimension, also when batch == 1 (A [batch, M, K], B [batch, N, K], D
[batch, M, N] or its column-major storage [batch, N, M]); the reference is one float64 matmul per
batch and the error is over all batches.  A non-batched kernel takes 2-d arrays and batch == 1.
"""

from __future__ import annotations

import time

import numpy as np
from xdsl.dialects.builtin import MemRefType

from lasscc.dialects._common import memref_layout
from lasscc.interp.bf16 import BF16, QNAN, as_f64
from lasscc.interp.errors import KernelArgumentError
from lasscc.interp.executor import Program, _as_module, execute_kernel, find_kernel, is_batched, swaps_ab
from lasscc.interp.executor import _read_facts as _facts
from lasscc.interp.values import numpy_dtype

# Relative Frobenius error allowed, by D's storage dtype (uint16 = bf16).  The reference is exact
# (float64 from the already-rounded inputs), so the error is float32 accumulation order plus the
# rounding of D itself:
#   f32 D: accumulation only, ~1e-6 in practice;
#   f16 D: 11 significant bits, unit roundoff 2^-11 ~ 4.9e-4 per element;
#   bf16 D: 8 significant bits, unit roundoff u = 2^-8 ~ 3.9e-3 per element.  Rounding D once to
#     nearest bounds every element's relative error by u, so the Frobenius relative error is at
#     most u (1.7e-3 measured at 256^3 and 512x512x1024: the rounding errors average out) plus
#     the ~1e-6 of accumulation.  1e-2 leaves 2.5x headroom over that worst case while a real
#     bug (a wrong fragment, tile or lane map) gives errors of order 1e-1 to 1.
# A CPU run holds float64 copies of its operands: more than this many bytes is refused before
# any allocation (a typo such as --m 10000000000 would otherwise ask numpy for terabytes).
# $LASSCC_CPU_MEMORY_GIB overrides it.
CPU_MEMORY_BUDGET = 4 * 2**30


def cpu_memory_budget() -> int:
    """CPU_MEMORY_BUDGET, or $LASSCC_CPU_MEMORY_GIB GiB when set to a positive number."""
    import os

    env = os.environ.get("LASSCC_CPU_MEMORY_GIB")
    try:
        return int(float(env) * 2**30) if env and float(env) > 0 else CPU_MEMORY_BUDGET
    except ValueError:
        return CPU_MEMORY_BUDGET


def cpu_run_bytes(m: int, n: int, k: int, batch: int = 1) -> int:
    """An upper estimate of run_check's peak memory: A and B drawn in float64 and copied twice
    (typed, and the reference's float64 view), and about four M x N float64 arrays (C, D, the
    reference and the error)."""
    return 8 * batch * (3 * (m * k + n * k) + 4 * m * n)


def cpu_run_error(m: int, n: int, k: int, batch: int = 1) -> str | None:
    """None when a CPU run of this size fits the 32-bit kernel limits and the memory budget, else
    'expected ..., got ...'."""
    from lasscc.config import size_limit_error

    bad = size_limit_error(m, n, k, batch)
    if bad:
        return bad[1]
    need, budget = cpu_run_bytes(m, n, k, batch), cpu_memory_budget()
    if need > budget:
        return (f"expected a CPU run within {budget / 2**30:g} GiB of memory ($LASSCC_CPU_MEMORY_GIB), got "
                f"M={m} N={n} K={k}{f' batch={batch}' if batch > 1 else ''}, which needs about {need / 2**30:.3g} GiB")
    return None


def _memref_types(module) -> list:
    func = find_kernel(_as_module(module))
    return [a.type for a in func.body.block.args if isinstance(a.type, MemRefType)]


def d_dtype_of(module) -> np.dtype:
    """numpy dtype of the kernel's D memref (its third memref argument; uint16 for bf16)."""
    memrefs = _memref_types(module)
    if len(memrefs) < 3:
        return np.dtype(np.float32)
    return numpy_dtype(memrefs[2].get_element_type(), "D element type")


def ab_dtypes_of(module) -> tuple:
    """numpy dtypes of the user's A and B (float16, or uint16 for bf16): the kernel's A and B
    memrefs, the other way round for a swap_ab kernel (which takes B as its A)."""
    module = _as_module(module)
    memrefs = _memref_types(module)
    if len(memrefs) < 2:
        return np.dtype(np.float16), np.dtype(np.float16)
    dts = tuple(numpy_dtype(t.get_element_type(), f"{r} element type") for t, r in zip(memrefs[:2], "AB"))
    return dts[::-1] if swaps_ab(Program(find_kernel(module))) else dts


def ab_layouts_of(module) -> tuple[str, str]:
    """The caller's layouts of A and B ("row" / "col"): the lass.gemm's memref types, or after
    lasscc-tile-threadblock the kernel's facts (KernelFacts.a_layout / b_layout)."""
    prog = Program(find_kernel(module))
    if prog.level == 0:
        memrefs = [x.type for x in prog.func.body.block.args if isinstance(x.type, MemRefType)]
        if len(memrefs) >= 3:  # (A, B, D, then a fused epilogue's vectors and matrices)
            return memref_layout(memrefs[0]), memref_layout(memrefs[1])
    facts = prog.facts or _facts(prog.func)
    return facts.a_layout, facts.b_layout


def d_layout_of(module) -> str:
    """"col" when the caller's D is column-major (element (i, j) at j*M + i): a level-0 D memref
    `strided<[1, ?]>`, or after lasscc-tile-threadblock the kernel's facts (KernelFacts.d_layout:
    a swap_ab kernel's D may be either); else "row"."""
    prog = Program(find_kernel(_as_module(module)))
    if prog.level == 0:
        memrefs = [x.type for x in prog.func.body.block.args if isinstance(x.type, MemRefType)]
        return "col" if len(memrefs) >= 3 and memref_layout(memrefs[2]) == "col" else "row"
    return (prog.facts or _facts(prog.func)).d_layout


def _draw(rng, shape, dtype):
    """uniform [-1, 1) float64 draws rounded to `dtype` (uint16: bf16 patterns); integers in
    [-8, 8) (lasscc.interp.mma_math.draw)."""
    from lasscc.interp.mma_math import draw

    return draw(rng, shape, dtype)


def types_of(module) -> tuple[str, str]:
    """(A/B, accumulator) MLIR type names of the kernel: from lass.gemm at level 0, from the
    kernel's facts (KernelFacts) after lasscc-tile-threadblock."""
    func = find_kernel(_as_module(module))
    for op in func.body.walk():
        if op.name == "lass.gemm":
            return str(op.a.type.get_element_type()), str(op.acc_type)
    facts = _facts(func)
    return facts.ab_type, facts.acc_type


def make_inputs(m: int, n: int, k: int, seed: int, beta: float, d_dtype=np.float32, ab_dtype=np.float16,
                b_dtype=None, batch: int | None = None):
    """(A [M,K], B [N,K] (= K x N col-major), C [M,N] float64 or None, D [M,N]); with `batch`
    given, every array has a leading batch dimension ([batch, M, K] ...).

    A and B have dtype `ab_dtype` (B: `b_dtype` when given): float16, or uint16 for bf16 bit
    patterns.  C is the exact float64 value of D's initial contents (D's dtype rounded); D is
    NaN-poisoned when beta == 0.  The random draws are the same whatever the dtypes."""
    rng = np.random.default_rng(seed)
    d_dtype = np.dtype(d_dtype)
    lead = () if batch is None else (int(batch),)
    a = _draw(rng, lead + (m, k), np.dtype(ab_dtype))
    b = _draw(rng, lead + (n, k), np.dtype(ab_dtype if b_dtype is None else b_dtype))
    if beta == 0:
        c = None
        poison = QNAN if d_dtype == BF16 else (np.iinfo(d_dtype).min if d_dtype.kind == "i" else np.nan)
        d = np.full(lead + (m, n), poison, d_dtype)
    else:
        d = _draw(rng, lead + (m, n), d_dtype)
        c = as_f64(d)
    return a, b, c, d


def reference(a, b, c, alpha: float, beta: float) -> np.ndarray:
    """alpha * A.B + beta * C in float64 from the exact values (bf16 patterns decoded); arrays
    with a leading batch dimension give one product per batch."""
    ref = float(alpha) * (as_f64(a) @ np.swapaxes(as_f64(b), -1, -2))
    if c is not None and beta != 0:
        ref = ref + float(beta) * as_f64(c)
    return ref


def reference_scale(a, b, c, alpha: float, beta: float) -> np.ndarray:
    """|alpha| * |A|.|B| + |beta| * |C| in float64: per element, the sum of the magnitudes of the
    terms of the reference, which bounds every partial sum (the scale of rounding errors)."""
    scale = abs(float(alpha)) * (np.abs(as_f64(a)) @ np.swapaxes(np.abs(as_f64(b)), -1, -2))
    if c is not None and beta != 0:
        scale = scale + abs(float(beta)) * np.abs(as_f64(c))
    return scale


def rel_error(d, ref) -> float:
    d64 = as_f64(d)
    if not np.isfinite(d64).all():
        return float("nan")
    den = float(np.linalg.norm(ref))
    num = float(np.linalg.norm(d64 - ref))
    return num / den if den > 0 else num


def epilogue_of(module):
    """(region, kinds, extra element types) of the fused epilogue of `module`'s GEMM, as the
    caller sees it (lasscc-import-linalg and lasscc-fuse-epilogue run on a copy), or None."""
    from lasscc.dialects.lass import GemmOp
    from lasscc.driver import run_passes

    copy = module.clone()
    import contextlib
    import io

    with contextlib.redirect_stderr(io.StringIO()):  # the fusion's notes come with the real run
        run_passes(copy, ["lasscc-import-linalg", "lasscc-fuse-epilogue"])
    g = next((o for o in copy.walk() if isinstance(o, GemmOp)), None)
    if g is None or not g.has_epilogue:
        return None
    from lasscc.dialects.epilogue import fact_kind

    types = [x.type if k == "scalar" else x.type.get_element_type() for k, x in zip(g.kinds, g.extras)]
    return g.epilogue.clone(), tuple(fact_kind(k, x.type) for k, x in zip(g.kinds, g.extras)), types


def _epilogue_extras(epilogue, m: int, n: int, seed: int, d_layout: str, batch: int = 1):
    """Random normal extras for a fused epilogue (kinds as KernelFacts writes them: a per-batch
    one with `batch` entries first): (the arrays execute_kernel takes, the same broadcast to
    [batch,] M x N for the reference)."""
    from lasscc.dialects.epilogue import BATCH_KINDS, base_kind
    from lasscc.interp.bf16 import store_as
    from lasscc.interp.values import numpy_dtype

    _, kinds, types = epilogue
    rng = np.random.default_rng(seed + 1)
    args, elems = [], []
    for kind, t in zip(kinds, types):
        if kind == "scalar":
            x = np.float32(rng.standard_normal())
            args.append(x)
            elems.append(x)
            continue
        lead = (batch,) if kind in BATCH_KINDS.values() else ()
        kind = base_kind(kind)
        shape = {"n": (n,), "m": (m,), "mn": (m, n)}[kind]
        x = store_as(rng.standard_normal(lead + shape), numpy_dtype(t))
        args.append(np.ascontiguousarray(np.swapaxes(x, -1, -2)) if kind == "mn" and d_layout == "col" else x)
        elems.append(x.reshape(lead + (1, n)) if kind == "n" else (x.reshape(lead + (m, 1)) if kind == "m" else x))
    return args, elems


def run_check(module, m, n, k, seed=0, alpha=1.0, beta=0.0, *, report_banks=True, batch=1, epilogue=None,
              **kw) -> dict:
    """Run `module`'s kernel on random inputs; returns rel_err, ok, seconds, bank_report (plus
    level, tolerance, d_layout, the M x N result `d` (a transposed view for a column-major D;
    [batch, M, N] for a batched kernel), the float64 reference `ref`, the `inputs` (A [M, K],
    B [N, K], C or None, as make_inputs draws them), `batch` and the ExecResult as `result`).  Executor errors
    (races, out-of-bounds ...) propagate as LassError subclasses.  Extra keywords go to
    execute_kernel.  `epilogue` (epilogue_of of the input): the fused epilogue's extras are drawn
    random normal and the reference is its region (lasscc.interp.epilogue.run_region, the one
    definition) applied to the float64 product rounded to f32; a saturated integer D is compared
    with the reference clipped to its range."""
    module = _as_module(module)
    prog = Program(find_kernel(module))
    batch = int(batch)
    batched = is_batched(prog)
    if batch < 1 or (batch > 1 and not batched):
        raise KernelArgumentError(
            f"expected batch = 1 for the non-batched kernel @{prog.name}, got {batch}" if batch > 1
            else f"expected a positive batch, got {batch}"
        )
    bad = cpu_run_error(m, n, k, batch)
    if bad:
        raise KernelArgumentError(bad)
    dt = d_dtype_of(module)
    adt, bdt = ab_dtypes_of(module)
    a, b, c, d = make_inputs(m, n, k, seed, beta, dt, adt, bdt, batch if batched else None)
    # hand the kernel the same matrices in the operand layouts the lass.gemm declared
    a_arg, b_arg = a, b
    a_layout, b_layout = ab_layouts_of(module)
    if a_layout == "col":
        a_arg = np.ascontiguousarray(np.swapaxes(a, -1, -2))
    if b_layout == "row":
        b_arg = np.ascontiguousarray(np.swapaxes(b, -1, -2))
    # a column-major D is handed over as its N x M row-major storage and read back transposed
    d_layout = d_layout_of(module)
    d_arg = np.ascontiguousarray(np.swapaxes(d, -1, -2)) if d_layout == "col" else d
    extras, elems = (_epilogue_extras(epilogue, m, n, seed, d_layout, batch if batched else 1)
                     if epilogue is not None else (None, None))
    t0 = time.perf_counter()
    res = execute_kernel(
        module, m, n, k, a_arg, b_arg, d_arg, alpha, beta, report_banks=report_banks and prog.level > 0,
        batch=batch, extras=extras, **kw
    )
    seconds = time.perf_counter() - t0
    d = np.swapaxes(d_arg, -1, -2) if d_layout == "col" else d_arg
    ref = reference(a, b, c, alpha, beta)
    ab, acc = types_of(module)
    from lasscc.interp.mma_math import tolerance

    if epilogue is not None:
        from lasscc.interp.epilogue import run_region

        ref = run_region(epilogue[0], ref.astype(np.float32), elems).astype(np.float64)
        if np.dtype(dt).kind == "i":
            info = np.iinfo(dt)
            ref = np.clip(ref, info.min, info.max)
    err = rel_error(d, ref)
    if epilogue is not None and np.dtype(dt).kind == "i":  # to nearest: at most 0.5 off per element
        norm = float(np.linalg.norm(ref))
        tol = 0.5 * np.sqrt(ref.size) / norm + 1e-6 if norm > 0 else 0.5 * np.sqrt(ref.size)
    else:
        tol = tolerance(dt, ab, acc, k, ref, alpha, beta)
    ok = bool(np.isfinite(err) and err <= tol)
    return {
        "rel_err": err,
        "ok": ok,
        "seconds": seconds,
        "bank_report": res.bank_report,
        "level": res.level,
        "d_layout": d_layout,
        "d": d,
        "ref": ref,
        "inputs": (a, b, c),
        "batch": batch,
        "tolerance": tol,
        "result": res,
    }


# ---- `lasscc run --target cpu` -------------------------------------------------------------------
EXECUTABLE_STAGES = ("lasscc-tile-threadblock", "lasscc-pipeline", "lasscc-warp-mma", "lasscc-warpgroup-mma",
                     "lasscc-hopper-smem", "lasscc-swizzle-smem")  # the last: the default (wgmma: hopper-smem)


def _default_scalar(module, name: str) -> float | None:
    """alpha / beta written in the IR: a lass.gemm attribute or the kernel's facts."""
    func = find_kernel(module)
    for op in func.body.walk():
        if op.name == "lass.gemm":
            return getattr(op, f"{name}_value")
    return getattr(_facts(func), name)


def run_to_stage(module, stage: str = EXECUTABLE_STAGES[-1], arch: str = "sm_80", filename: str = "<input>") -> None:
    """Run the pipeline's passes on `module` in place, up to and including `stage` (a pass name,
    options allowed: `lasscc-swizzle-smem{swizzle=false}`); LassError on a rejected input."""
    from lasscc.driver import PASS_NAMES, run_passes

    base = stage.split("{")[0].strip()
    run_passes(module, PASS_NAMES[: PASS_NAMES.index(base)] + [stage], arch, filename)


def run_cli(module, args) -> int:
    """`lasscc run --target cpu`: run the passes up to `--stage` (default: the last executable one,
    lasscc-swizzle-smem), execute on random data, print a PASS/FAIL line (and `--report banks`).
    Returns 0 when the check passes, 1 when it fails; executor errors raise LassError (exit 2)."""
    from lasscc.diagnostics import LassError

    stage = getattr(args, "stage", None) or EXECUTABLE_STAGES[-1]
    base = stage.split("{")[0].strip()  # options allowed: lasscc-swizzle-smem{swizzle=false}
    if stage.count("{") != stage.count("}") or ("{" in stage and not stage.strip().endswith("}")):
        raise LassError(f"option --stage: expected pass options in one pair of braces, e.g. "
                        f"lasscc-swizzle-smem{{swizzle=false}}, got '{stage}'")
    if base not in EXECUTABLE_STAGES:
        raise LassError(
            f"option --stage: expected one of {', '.join(EXECUTABLE_STAGES)} (the CPU executor runs the IR "
            f"up to the swizzled per-thread level, not the llvm dialect), got '{stage}'"
        )
    epilogue = epilogue_of(module)  # before the passes inline it
    run_to_stage(module, stage, getattr(args, "arch", "sm_80"), getattr(args, "file", "<input>"))
    if getattr(args, "stage", None) is None and any(op.name.startswith("lass_wg.") for op in module.walk()):
        # a wgmma kernel's last executable level is after lasscc-hopper-smem (TMA, mbarriers, wgmma)
        from lasscc.driver import make_pass, run_pass

        stage = "lasscc-hopper-smem"
        run_pass(module, make_pass(stage, getattr(args, "arch", "sm_80")), getattr(args, "file", "<input>"))
    alpha = args.alpha if getattr(args, "alpha", None) is not None else _default_scalar(module, "alpha")
    beta = args.beta if getattr(args, "beta", None) is not None else _default_scalar(module, "beta")
    alpha = 1.0 if alpha is None else alpha
    beta = 0.0 if beta is None else beta
    seed = args.seed if getattr(args, "seed", None) is not None else 0
    want_banks = getattr(args, "report", None) == "banks"
    batch = getattr(args, "batch", None) or 1
    order = getattr(args, "cta_order", None) or "forward"
    from lasscc.interp.sync import launch_order

    try:
        launch_order(1, order)
    except ValueError as e:
        raise LassError(f"option --cta-order: {e}") from None
    r = run_check(module, args.m, args.n, args.k, seed, alpha, beta, report_banks=want_banks, batch=batch, order=order,
                  epilogue=epilogue)
    res = r["result"]
    verdict = "PASS" if r["ok"] else "FAIL"
    print(
        f"{res.kernel} (cpu, after {stage}, level {res.level})  M={args.m} N={args.n} K={args.k}"
        f"{f'  batch={batch}' if batch > 1 else ''}  "
        f"alpha={alpha:g} beta={beta:g}{'  D col-major' if r['d_layout'] == 'col' else ''}  grid {res.grid} block {res.threads} smem {res.smem_bytes // 1024} KB"
    )
    print(f"  check   {verdict}  rel_err {r['rel_err']:.2e} (limit {r['tolerance']:.0e})  {r['seconds']:.2f} s")
    for note in res.notes:
        print(f"  note    {note}")
    if want_banks:
        from lasscc.interp.banks import format_bank_report

        print(format_bank_report(r["bank_report"]))
    return 0 if r["ok"] else 1
