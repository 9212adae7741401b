"""Session 15 (issue 16): the LLVM IR pipeline of `lasscc.emit` on the GPU, old against new, in one
process.  Each example kernel is compiled (at each size, as `lasscc run` compiles it: the access widths
and the instruction family settled by the sizes) into PTX by up to three LLVM pipelines from the same
LLVM IR:

    o3     main's before session 15: O3's whole module pipeline (emit._optimize swapped for
           `module_o3` below; main's pass-gate list, with O3's late InstSimplify skipped too)
    fpm    this tree's emit._optimize: LLVM's function simplification pipeline on each function, then
           O3's late partial LoopUnroll (emit.LATE_UNROLL_PARTIAL_THRESHOLD)
    nolsr  fpm with the NVPTX codegen's loop strength reduction off (`-disable-lsr`; only with --nolsr:
           the session 14 candidate, BENCHMARKS.md "Session 14 -- LLVM side (compile16d)")

then every variant is checked against float64 at the bench size and at an odd shape, and timed in
rounds (all variants per round, each round starting at the next one; CUDA events, the median of
`--iters` launches a round, then the median of the round medians) beside torch.matmul on f16 operands
of the same size (random normal data; one yardstick for every kernel, whatever its types).

    python3 scripts/s15_llvm_ab.py [--examples NAME:ARCH,...] [--size 4096] [--odd 1008x1040x520]
        [--rounds 5] [--iters 30] [--nolsr] [--build-only]

--build-only (no GPU): compiles both ways and prints each variant's ptxas registers and SASS size
(the CPU-side part; tests/unit/test_s15_llvm_ab.py runs it).  Exit 1 on a failed check.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent

# The example kernels whose SASS size or registers the pipeline changed (scripts/emit_examples.py's
# kernels, ptxas -v; BENCHMARKS.md "Session 15 -- LLVM pipeline"), then the two controls (same SASS)
CHANGED = ("gemm_nn:sm_90a", "int8_nt:sm_80", "int8_nt:sm_90a", "gemm_odd_k:sm_80", "gemm_odd_k:sm_90a",
           "gemm_epilogue_batched_splitk:sm_90a", "f16_acc:sm_80", "f16_acc:sm_90a", "gemm_f16_out:sm_90a",
           "gemm_stages2:sm_90a", "gemm_wgmma_cluster:sm_90a", "gemm_wgmma_ws:sm_90a",
           "gemm_skinny_swap:sm_90a", "tf32_nn:sm_80", "tf32_nn:sm_90a")
CONTROLS = ("gemm_wgmma_tma_store:sm_90a", "gemm_tuned:sm_90a")
# Sizes an example needs instead of --size / --odd (M, N, K): the skinny kernel is made for M = 16
SHAPES = {"gemm_skinny_swap": ((16, 4096, 4096), (16, 1040, 520))}
BATCH = 2  # GEMMs of a batched kernel


def module_o3(mod, tm) -> None:
    """main's emit._optimize before session 15: the names stripped, then O3's module pipeline (its late
    LoopUnroll's partial threshold set to O3's own NVPTX value: the option is process-wide, and the
    unroll-by-4 variant measured in session 15 had left it at 100 for this variant's builds)."""
    import llvmlite.binding as llvm_b

    from lasscc import emit

    llvm_b.set_option("", f"-unroll-partial-threshold={emit.LATE_UNROLL_PARTIAL_THRESHOLD}")

    pb = llvm_b.create_pass_builder(tm, llvm_b.create_pipeline_tuning_options(speed_level=3))
    strip = llvm_b.create_new_module_pass_manager()
    strip.add_strip_non_debug_symbols_pass()
    strip.run(mod, pb)
    pb.getModulePassManager().run(mod, pb)


@contextmanager
def pipeline(variant: str):
    """emit.to_ptx with `variant`'s LLVM pipeline (the options are process-wide: set and reset)."""
    import llvmlite.binding as llvm_b

    from lasscc import emit

    if variant == "o3":
        with mock.patch.object(emit, "_optimize", module_o3), \
                mock.patch.object(emit, "CODEGEN_PASSES_SKIPPED", (*emit.CODEGEN_PASSES_SKIPPED, "instsimplify")):
            yield
    elif variant == "nolsr":
        llvm_b.set_option("", "-disable-lsr=true")
        try:
            yield
        finally:
            llvm_b.set_option("", "-disable-lsr=false")
    else:
        yield


def build(name: str, arch: str, m: int | None, n: int | None, k: int | None, variant: str):
    """(ptx, kernel spec, epilogue spec or None) of examples/NAME.mlir as `lasscc run --m M --n N --k K`
    compiles it (`lasscc compile` when the sizes are None), with `variant`'s LLVM pipeline."""
    from lasscc import cli
    from lasscc.cache import cached_compile
    from lasscc.interp.check import epilogue_of

    path = str(ROOT / "examples" / f"{name}.mlir")
    if m is None:
        args = cli.build_parser().parse_args(["compile", path, "--arch", arch])
        module = cli._load(args)
    else:
        args = cli.build_parser().parse_args(["run", path, "--arch", arch, "--m", str(m), "--n", str(n),
                                              "--k", str(k)])
        module = cli._load(args)
        cli._check_static_shapes(module, [(m, n, k)])
        cli._resolve_align(module, [(m, n, k)], "run", path, arch)
    epilogue = epilogue_of(module)  # before the passes, as cmd_run takes it
    with pipeline(variant):
        res = cached_compile(module, arch, path, use_cache=False, keep_stages=False)  # `--no-cache`'s path
    return res.ptx, res.specs[0], epilogue


def sass_info(ptx: str, arch: str) -> str:
    """ptxas registers (every entry), spills and SASS instructions (.text / 16), or '' without ptxas."""
    import re
    import shutil
    import subprocess
    import tempfile

    if shutil.which("ptxas") is None:
        return ""
    from lasscc.emit import ptxas_info

    info = ptxas_info(ptx, arch)  # raises on a ptxas failure or a serialized wgmma
    with tempfile.TemporaryDirectory() as d:
        src, cub = Path(d) / "k.ptx", Path(d) / "k.cubin"
        src.write_text(ptx)
        subprocess.run(["ptxas", f"-arch={arch}", str(src), "-o", str(cub)], check=True, capture_output=True)
        sec = subprocess.run(["readelf", "-S", "-W", str(cub)], capture_output=True, text=True).stdout
    text = sum(int(x, 16) for x in re.findall(r"\.text\.\S+\s+PROGBITS\s+\S+\s+\S+\s+(\S+)", sec))
    spills = f", spills {info.spill_stores}/{info.spill_loads} B" if info.spill_stores or info.spill_loads else ""
    return f"{info.registers} regs{spills}, SASS {text // 16}"


def _shape(s: str) -> tuple[int, int, int]:
    m, n, k = (int(x) for x in s.lower().split("x"))
    return m, n, k


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--examples", default=",".join(CHANGED + CONTROLS), help="NAME:ARCH,... (examples/NAME.mlir)")
    p.add_argument("--size", type=int, default=4096, help="the bench size (M = N = K) and its check")
    p.add_argument("--odd", default="1008x1040x520", help="MxNxK: the second check")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--iters", type=int, default=30)
    p.add_argument("--nolsr", action="store_true", help="a third variant: fpm with -disable-lsr")
    p.add_argument("--build-only", action="store_true", help="no GPU: build both ways, print ptxas figures")
    args = p.parse_args(argv)
    variants = ["o3", "fpm"] + (["nolsr"] if args.nolsr else [])
    todo = [tuple(e.split(":")) for e in args.examples.split(",") if e]

    if args.build_only:
        for name, arch in todo:
            ptx = {v: build(name, arch, None, None, None, v)[0] for v in variants}
            same = "same PTX" if len(set(ptx.values())) == 1 else "PTX differs"
            print(f"{name} {arch}: {same}; " + "; ".join(f"{v} {sass_info(ptx[v], arch)}" for v in variants),
                  flush=True)
        return 0

    import numpy as np

    from lasscc.runtime.gemm_runner import _time_torch, _to_torch, _torch_cuda, run_gemm

    torch = _torch_cuda()
    if torch is None:
        print("s15_llvm_ab: needs torch with CUDA", file=sys.stderr)
        return 2
    failures = 0
    rows = []
    for name, arch in todo:
        bench, odd = SHAPES.get(name, ((args.size,) * 3, _shape(args.odd)))
        kern = {}
        for shape in (odd, bench):  # the odd shape's check first: the cheaper one
            for v in variants:
                ptx, spec, epi = build(name, arch, *shape, v)
                batch = BATCH if getattr(spec, "batched", False) else 1
                r = run_gemm(ptx, spec, *shape, alpha=spec.alpha, beta=spec.beta, check=True, bench=False, seed=1,
                             batch=batch, epilogue=epi)
                ok = "PASS" if r["ok"] else "FAIL"
                failures += not r["ok"]
                print(f"  {name} {arch} {'x'.join(map(str, shape))} {v}: rel_err {r['rel_err']:.1e} {ok}, "
                      f"regs {r.get('regs')}, local {r.get('local_bytes')}", flush=True)
                kern[v] = (ptx, spec, epi, batch, r.get("regs"))
        m, n, k = bench
        rng = np.random.default_rng(2)
        a = _to_torch(torch, rng.standard_normal((m, k)).astype(np.float32)).half()
        b = _to_torch(torch, rng.standard_normal((n, k)).astype(np.float32)).half().t()
        times: dict = {v: [] for v in variants}
        times["torch"] = []
        for rnd in range(args.rounds):
            for v in variants[rnd % len(variants):] + variants[:rnd % len(variants)]:
                ptx, spec, epi, batch, _ = kern[v]
                r = run_gemm(ptx, spec, m, n, k, alpha=spec.alpha, beta=spec.beta, check=False, bench=True,
                             iters=args.iters, seed=1, cublas=False, batch=batch, epilogue=epi)
                times[v].append(r["ms_median"])
            times["torch"].append(statistics.median(_time_torch(torch, lambda: torch.matmul(a, b), 10, args.iters)))
        med = {v: statistics.median(t) for v, t in times.items()}
        for v in variants:
            rows.append(f"| {name} | {arch} | {m}x{n}x{k}{f' b{kern[v][3]}' if kern[v][3] > 1 else ''} | {v} | "
                        f"{kern[v][4]} | {med[v]:.4f} | {100 * (med[v] / med['o3'] - 1):+.1f}% | "
                        f"{med['torch']:.4f} | {med['torch'] / med[v]:.2f}x | "
                        f"{' '.join(f'{t:.4f}' for t in times[v])} |")
        print("\n".join(rows[-len(variants):]), flush=True)
    print("\n| kernel | arch | shape | pipeline | regs | ms | vs o3 | torch f16 ms | torch / kernel | rounds |\n"
          "|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print(f"check failures: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
