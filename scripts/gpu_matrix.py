"""The GPU matrix of issue "General GEMM": every layout x element type x odd shapes x two configs,
checked against a float64 reference on the GPU, then one 4096^3 timing per element type beside
cuBLAS (torch) in the same process.  Prints one line per case and two tables last.

SHAPES are rounded up to the 16-byte access rule (full-width copies); NARROW_SHAPES are run as
they are, each with the widest access widths (`align`, lasscc.config.widest_align) its sizes
allow: 1- and 2-byte synchronous copies, 4- and 8-byte cp.async.ca (K = 333, K = 7, 1x7x3 ...).
The timing table adds the odd-K shape 4097x1000x333 (f16 TN, 2-byte accesses) beside cuBLAS.
LINALG_SHAPES run upstream `linalg.matmul` inputs (f16 -> f32, i8 -> i32, i8 -> f32; A and B row-
or column-major; C += A.B, so beta = 1) through the path `lasscc run` takes: the access widths are
chosen for the sizes (lasscc.cli._resolve_align, which imports the linalg.matmul first), default
tiling.

SPLIT_* cases run split-K kernels (lasscc.splitk), serial and parallel: every element type in TN,
NT and with a column-major D, split counts 2, 3 and 7 (7 exceeds the k-tiles of the last shape: empty
partitions), shapes of issue 17 (33 x 4097 x 12345 rounded to the access rule, 1 x 8192 x 8192);
then SPLIT_BENCH times split counts of issue 17's skinny / long-K shapes beside cuBLAS.

STREAMK_* cases run stream-K kernels (lasscc.streamk, "streamk", "streamk-dp" and "streamk-tail"): every element type in
TN, NT and with a column-major D, at shapes whose tiles are split between CTAs, the odd shapes of issue
17 also unrounded; then STREAMK_BENCH times both modes beside the data-parallel kernel and cuBLAS.

    python3 scripts/gpu_matrix.py [--quick] [--narrow-only | --linalg-only | --split-only | --epilogue-only | --streamk-only |
                                                      --epilogue-split-only] [--arch sm_90a] [--list]
    python3 scripts/gpu_matrix.py --hopper [--quick] [--list]

EPILOGUE_DTYPES run fused epilogues (bias / scale / activation / residual, f16 / bf16 / i8 / f32 D,
lasscc.epilogue_api) in every layout, beta 0 and 0.5, checked against their float64 reference.
With --arch sm_90a the split-K and epilogue cases (and SPLIT_BENCH) also run the wgmma config
(`wgmma_config`: 128x256, 4 stages) in the layouts wgmma takes.

`--hopper` runs the Hopper path instead (mma = "wgmma", --arch sm_90a; issue 14): every wgmma
type (HOPPER_DTYPES: f16 / bf16 in all four A/B layouts, f16 accumulation, tf32 and s8 K-major) x D
type x D layout (row / col) x batched (3-d TMA maps, grid z, batch 3) kernel, each run with
(alpha, beta) = (1, 0) into a NaN-poisoned D and (1.5, 0.5) on random C at HOPPER_SHAPES (odd M, N
 and K, fit to the TMA's 16-byte global-stride rule) and once at HOPPER_LARGE, against float64; the
HOPPER_TMA_STORE types again with the TMA-store epilogue (epilogue = "tma") at HOPPER_TMA_SHAPES; then
issue 17's narrow tiles (HOPPER_SKINNY_*: BN 64 / 32 / 16, 6-8 stages) at skinny odd shapes.  It
ends with the line "hopper: N checks, F failed".

`--list` prints the case list and exits (no GPU needed).

Kernels are compiled in parallel worker processes (pure CPU), then run one after another.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

# element type cases: (name, A/B type, D type, acc attribute or None, layouts allowed)
ALL_LAYOUTS = [(a, b, d) for a, b, d in itertools.product(("row", "col"), ("row", "col"), ("row", "col"))]
DTYPES = [
    ("f16", "f16", "f32", None, ALL_LAYOUTS),
    ("bf16", "bf16", "f32", None, ALL_LAYOUTS),
    ("f16acc", "f16", "f16", "f16", ALL_LAYOUTS),
    ("tf32", "f32", "f32", None, ALL_LAYOUTS),
    ("int8", "i8", "i32", None, ALL_LAYOUTS),
]
ELEM_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1}
SHAPES = [(4097, 1000, 336), (33, 129, 40), (127, 255, 1024), (1, 7, 64), (1000, 1, 200)]
# run unrounded, with the widest access widths they allow (any M, N, K >= 1)
NARROW_SHAPES = [(4097, 1000, 333), (33, 17, 333), (129, 65, 7), (1, 7, 3), (255, 257, 8), (1000, 6, 12),
                 (66, 34, 1026)]


# linalg.matmul inputs: (name, A/B type, C type), A x B layouts, odd sizes run unrounded
LINALG_DTYPES = [("f16", "f16", "f32"), ("int8", "i8", "i32"), ("int8-f32", "i8", "f32")]
LINALG_LAYOUTS = [(a, b, "row") for a, b in itertools.product(("row", "col"), ("row", "col"))]
LINALG_SHAPES = [(129, 70, 33), (4097, 1000, 333), (1, 7, 3), (33, 17, 333), (255, 257, 8)]

# fused epilogues (issue 18, lasscc.epilogue_api): (name, A/B type, D type, epilogue keywords) in
# every A / B / D layout, default config, at EPILOGUE_SHAPES (fit to the 16-byte rule; the whole-
# block shape takes the staged epilogue for a 16-bit D), beta = 0 (staged) and 0.5 (per thread)
EPILOGUE_DTYPES = [
    ("f16 bias+gelu", "f16", "f16", dict(bias="n", activation="gelu")),
    ("f16 bias+gelu_tanh f32", "f16", "f32", dict(bias="n", activation="gelu_tanh")),
    ("bf16 scale+bias+silu+res", "bf16", "bf16", dict(scale="m", bias="n", activation="silu", residual=True,
                                                       dtype="bf16")),
    ("f16 bias(m)+relu i8", "f16", "i8", dict(bias="m", activation="relu")),
    ("tf32 sigmoid+res f16", "f32", "f32", dict(activation="sigmoid", residual=True, dtype="f16")),
]
EPILOGUE_SHAPES = [(4096, 1024, 512), (33, 129, 40), (1000, 1, 200)]


# the Hopper path, with --arch sm_90a (WGMMA_ARCH): the fused-epilogue and split-K cases also run
# the wgmma config of BENCHMARKS.md (128x256, BK a 128-byte row, 4 stages), in the layouts wgmma
# takes (tf32 and i8 K-major only: A row-, B column-major)
WGMMA_ARCH = "sm_90a"


def wgmma_config(ab: str) -> tuple[str, str]:
    """(name, config text) of the wgmma config."""
    return "wgmma 128x256/s4", f'mma = "wgmma", threadblock = [128, 256, {128 // ELEM_BYTES[ab]}], stages = 4'


def wgmma_layouts(ab: str, layouts) -> bool:
    """wgmma reads these A / B layouts of `ab` (lasscc.resources: MN-major tiles for 16-bit types only)."""
    return ab in ("f16", "bf16") or tuple(layouts[:2]) == ("row", "col")


def epilogue_cases(shapes, wgmma: bool = False) -> list[tuple]:
    """Cases of fused epilogues: (name, A/B type, layouts, config name, MLIR text, shapes, EpilogueSpec);
    with `wgmma` also the wgmma config's."""
    from lasscc.api import gemm_mlir
    from lasscc.epilogue_api import EpilogueSpec, gemm_epilogue_mlir

    out = []
    blas = {("row", "col"): "TN", ("col", "col"): "NN", ("col", "row"): "NT", ("row", "row"): "TT"}
    for (name, ab, d, kw), layouts in itertools.product(EPILOGUE_DTYPES, ALL_LAYOUTS):
        spec = EpilogueSpec(**kw)
        bk = 64 // ELEM_BYTES[ab]
        for beta in (0.0, 0.5):
            text = gemm_mlir(ab, d_dtype=d, layout=blas[layouts[:2]], beta=beta, threadblock=(128, 128, bk),
                             warp=(64, 64, bk), d_layout=layouts[2])
            out.append((f"epi {name}", ab, layouts, f"default beta {beta}", gemm_epilogue_mlir(spec, text),
                        [fit(sh, ab, layouts) for sh in shapes], spec))
            if wgmma and wgmma_layouts(ab, layouts):
                cname, cfg = wgmma_config(ab)
                text = mlir(ab, d, None, layouts, cfg).replace("beta = 0.5", f"beta = {beta}")
                out.append((f"epi {name}", ab, layouts, f"{cname} beta {beta}", gemm_epilogue_mlir(spec, text),
                            [fit(sh, ab, layouts) for sh in shapes], spec))
    return out


# fused epilogues with split-K, stream-K and batched GEMMs (issue 18): the region runs once, on the
# fully reduced value (serial: the last partition; parallel: the reduction kernel; stream-K: the
# tile's fix-up); batched: a per-batch bias [batch, N] and residual [batch, M, N], a shared scale [M]
EPILOGUE_SPLITS = [("serial", 2), ("serial", 3), ("parallel", 2), ("parallel", 3), ("streamk", 1)]
EPILOGUE_SPLIT_DTYPES = [
    ("f16 bias+gelu", "f16", "f16", ("row", "col", "row"), dict(bias="n", activation="gelu")),
    ("f16 scale+relu+res", "f16", "f32", ("col", "row", "col"), dict(scale="m", activation="relu", residual=True)),
]
EPILOGUE_SPLIT_SHAPES = [(129, 200, 72), (256, 1024, 8192), (33, 4097, 1000)]
EPILOGUE_BATCH = 3
EPILOGUE_BATCHED_SHAPES = [(129, 200, 72), (1024, 512, 2048)]


def batched_epilogue_mlir(ab: str, d: str, layouts, cfg: str) -> str:
    """A batched lass.gemm (3-d operands) with a per-batch bias [batch, N], a shared per-row scale [M]
    and a per-batch residual [batch, M, N] in D's layout, then ReLU."""
    def m3(t, layout):
        return f"memref<?x?x?x{t}>" if layout == "row" else f"memref<?x?x?x{t}, strided<[?, 1, ?]>>"

    ta, tb, td, tr = m3(ab, layouts[0]), m3(ab, layouts[1]), m3(d, layouts[2]), m3("f32", layouts[2])
    return (f"func.func @gemm(%a: {ta}, %b: {tb}, %d: {td}, %bias: memref<?x?xf32>, %s: memref<?xf16>, %r: {tr}) {{\n"
            f"  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32, config = {{{cfg}}}}}\n"
            f"      ins(%a, %b : {ta}, {tb}) outs(%d : {td})\n"
            f"      epilogue(%bias [n], %s [m], %r [mn] : memref<?x?xf32>, memref<?xf16>, {tr}) {{\n"
            "  ^bb0(%v: f32, %be: f32, %se: f16, %re: f32):\n    %sf = arith.extf %se : f16 to f32\n"
            "    %0 = arith.mulf %v, %sf : f32\n    %1 = arith.addf %0, %be : f32\n    %z = arith.constant 0.0 : f32\n"
            "    %2 = arith.maximumf %1, %z : f32\n    %3 = arith.addf %2, %re : f32\n    lass.yield %3 : f32\n"
            "  }\n  func.return\n}\n")


def epilogue_split_cases(quick: bool = False, wgmma: bool = False) -> list[tuple]:
    """Cases of fused epilogues with split-K / stream-K (EPILOGUE_SPLITS) and batched GEMMs:
    (name, A/B type, layouts, config name, MLIR text, shapes, epilogue[, batch]) with the epilogue an
    EpilogueSpec, or for the batched kernel lasscc.interp.check.epilogue_of's (region, kinds, types);
    with `wgmma` also the wgmma config's (stream-K: mma.sync only)."""
    from lasscc.epilogue_api import EpilogueSpec, gemm_epilogue_mlir
    from lasscc.interp.check import epilogue_of
    from lasscc.source import parse_mlir

    shapes = EPILOGUE_SPLIT_SHAPES[:1] if quick else EPILOGUE_SPLIT_SHAPES
    out = []
    for (name, ab, d, layouts, kw), (mode, s) in itertools.product(EPILOGUE_SPLIT_DTYPES, EPILOGUE_SPLITS):
        spec = EpilogueSpec(**kw)
        split = f'split_k = {s}, split_k_mode = "{mode}"' if mode != "streamk" else 'split_k_mode = "streamk"'
        what = f"{mode} {s}" if mode != "streamk" else mode
        cfgs = [configs(ab)[0]] + ([wgmma_config(ab)] if wgmma and mode != "streamk" and wgmma_layouts(ab, layouts)
                                   else [])
        for cname, cfg in cfgs:
            text = mlir(ab, d, None, layouts, f"{cfg}, {split}").replace("beta = 0.5", "beta = 0.0")
            out.append((f"epi {name}", ab, layouts, f"{cname} {what}", gemm_epilogue_mlir(spec, text),
                        [fit(sh, ab, layouts) for sh in shapes], spec))
    bshapes = EPILOGUE_BATCHED_SHAPES[:1] if quick else EPILOGUE_BATCHED_SHAPES
    for layouts, split in itertools.product((("row", "col", "row"), ("col", "row", "col")),
                                            ("", ', split_k = 2, split_k_mode = "parallel"', ", split_k = 3")):
        cfgs = [configs("f16")[0]] + ([wgmma_config("f16")] if wgmma else [])
        for cname, cfg in cfgs:
            text = batched_epilogue_mlir("f16", "f16" if split else "f32", layouts, cfg + split)
            what = split.replace(", split_k = ", " split ").replace(', split_k_mode = "parallel"', " parallel")
            out.append((f"epi batched x{EPILOGUE_BATCH}", "f16", layouts, f"{cname}{what}", text,
                        [fit(sh, "f16", layouts) for sh in bshapes], epilogue_of(parse_mlir(text, "<matrix>")),
                        EPILOGUE_BATCH))
    return out


# serial split-K (lasscc.splitk)
SPLIT_COUNTS = (2, 3, 7)
SPLIT_MODES = ("serial", "parallel")
SPLIT_LAYOUTS = [("row", "col", "row"), ("col", "row", "row"), ("row", "col", "col")]
SPLIT_SHAPES = [(33, 4097, 12345), (1, 8192, 8192), (127, 255, 1024), (100, 70, 64)]
# (M, N, K, split counts) timed beside cuBLAS, f16 in, f32 D, TN, default tiling
SPLIT_BENCH = [(16, 4096, 4096, (1, 4, 8, 16)), (128, 4096, 4096, (1, 2, 4, 8)), (1024, 1024, 1024, (1, 2, 4)),
               (1024, 1024, 16384, (1, 4, 8, 16))]


def split_cases(quick: bool = False, wgmma: bool = False) -> list[tuple]:
    """(name, A/B type, layouts, config name, MLIR text, shapes) of the split-K kernels; with `wgmma`
    also the wgmma config's."""
    out = []
    for (name, ab, d, acc, _), layouts, s, mode in itertools.product(
            DTYPES, SPLIT_LAYOUTS[:1] if quick else SPLIT_LAYOUTS, SPLIT_COUNTS[:1] if quick else SPLIT_COUNTS, SPLIT_MODES):
        for cname, cfg in [configs(ab)[0]] + ([wgmma_config(ab)] if wgmma and wgmma_layouts(ab, layouts) else []):
            out.append((name, ab, layouts, f"{cname} split {s} {mode}",
                        mlir(ab, d, acc, layouts, f'{cfg}, split_k = {s}, split_k_mode = "{mode}"'),
                        [fit(sh, ab, layouts) for sh in (SPLIT_SHAPES[2:] if quick else SPLIT_SHAPES)]))
    return out


# the Hopper path (mma = "wgmma"): (name, A/B type, D type, acc or None, A/B layouts); tf32 and s8
# are K-major only in wgmma (TN; a column-major D keeps both K-major: D^T = B^T . A^T)
AB_LAYOUTS = list(itertools.product(("row", "col"), ("row", "col")))
HOPPER_DTYPES = [
    ("f16", "f16", "f32", None, AB_LAYOUTS),
    ("f16 D f16", "f16", "f16", None, AB_LAYOUTS),
    ("f16acc", "f16", "f16", "f16", AB_LAYOUTS),
    ("f16acc D f32", "f16", "f32", "f16", AB_LAYOUTS),
    ("bf16", "bf16", "f32", None, AB_LAYOUTS),
    ("bf16 D bf16", "bf16", "bf16", None, AB_LAYOUTS),
    ("tf32", "f32", "f32", None, [("row", "col")]),
    ("s8", "i8", "i32", None, [("row", "col")]),
    ("s8 D f32", "i8", "f32", None, [("row", "col")]),
]
HOPPER_SHAPES = [(33, 129, 40), (127, 255, 1000), (1, 7, 64), (1000, 1, 200), (200, 136, 24), (129, 65, 136)]
HOPPER_LARGE = (2049, 1031, 2056)
HOPPER_BATCH = 3  # GEMMs per launch of a batched kernel (grid z)
HOPPER_RUNS = ((1.0, 0.0), (1.5, 0.5))  # (alpha, beta): a NaN-poisoned D, then D holding C
HOPPER_TMA_STORE = ("f16", "f16 D f16", "bf16 D bf16", "s8")  # HOPPER_DTYPES also run with epilogue = "tma"
# their shapes: M and N multiples of 8 (D's rows 16-byte multiples either way round: the TMA store),
# then two that are not (the kernel's direct-store fallback), and a large one
HOPPER_TMA_SHAPES = [(40, 136, 40), (136, 264, 1000), (200, 136, 24), (1000, 1000, 200), (33, 129, 40), (129, 65, 136)]
HOPPER_TMA_LARGE = (2048, 1032, 2056)
# issue 17's narrow tiles (lasscc.heuristics.SKINNY_TILES at the stages session 9 measured them at; explicit configs), TN,
# at skinny odd shapes (K rounded to the TMA's 16-byte rule by `fit`): (A/B type, D layout, batched)
HOPPER_SKINNY_TILES = [(64, 32, 8), (64, 16, 8), (128, 32, 8), (128, 64, 6)]
HOPPER_SKINNY_KINDS = [("f16", "row", False), ("bf16", "col", False), ("f16", "row", True)]
HOPPER_SKINNY_SHAPES = [(1, 8192, 8192), (16, 4097, 4100), (33, 4097, 12345), (64, 1031, 200)]


def hopper_config(ab: str) -> tuple[str, str]:
    """(name, config text): 128 x 128, BK one 128-byte swizzle line of K, 3 stages."""
    bk = 128 // ELEM_BYTES[ab]
    return f"wgmma 128x128x{bk}/3", f'mma = "wgmma", threadblock = [128, 128, {bk}], stages = 3'


def hopper_mlir(ab: str, d: str, acc: str | None, layouts, batched: bool) -> str:
    """A wgmma lass.gemm (beta written 0.5: run_gemm passes alpha / beta at launch)."""
    text = mlir(ab, d, acc, layouts, hopper_config(ab)[1])
    if batched:  # 3-d batch-first memrefs; a column-major matrix is strided<[?, 1, ?]>
        text = text.replace("memref<?x?x", "memref<?x?x?x").replace("strided<[1, ?]>", "strided<[?, 1, ?]>")
    return text


def hopper_cases(quick: bool = False) -> list[tuple]:
    """(name, A/B type, layouts, config name, MLIR text, shapes, batch) of the Hopper matrix."""
    out = []
    shapes = HOPPER_SHAPES[:3] if quick else HOPPER_SHAPES
    for (name, ab, d, acc, ab_layouts), (la, lb), ld, batched in itertools.product(
            HOPPER_DTYPES, AB_LAYOUTS, ("row", "col"), (False, True)):
        if (la, lb) not in ab_layouts:
            continue
        layouts = (la, lb, ld)
        cname = hopper_config(ab)[0] + (f" batch {HOPPER_BATCH}" if batched else "")
        out.append((f"hopper {name}", ab, layouts, cname, hopper_mlir(ab, d, acc, layouts, batched),
                    [fit(sh, ab, layouts) for sh in shapes + [HOPPER_LARGE]], HOPPER_BATCH if batched else 1))
    # the TMA-store epilogue (epilogue = "tma"): TN, row- and column-major D, batched or not; beta = 0
    # stores through TMA (or directly where D's rows are not 16-byte multiples), beta != 0 directly
    for (name, ab, d, acc, _), ld, batched in itertools.product(
            [t for t in HOPPER_DTYPES if t[0] in HOPPER_TMA_STORE], ("row", "col"), (False, True)):
        layouts = ("row", "col", ld)
        cname = hopper_config(ab)[0] + ' epilogue "tma"' + (f" batch {HOPPER_BATCH}" if batched else "")
        text = hopper_mlir(ab, d, acc, layouts, batched).replace("stages = 3", 'stages = 3, epilogue = "tma"')
        tshapes = HOPPER_TMA_SHAPES[:3] if quick else HOPPER_TMA_SHAPES
        out.append((f"hopper {name} tma", ab, layouts, cname, text,
                    [fit(sh, ab, layouts) for sh in tshapes + [HOPPER_TMA_LARGE]], HOPPER_BATCH if batched else 1))
    for (bm, bn, st), (ab, ld, batched) in itertools.product(HOPPER_SKINNY_TILES, HOPPER_SKINNY_KINDS):
        layouts, bk = ("row", "col", ld), 128 // ELEM_BYTES[ab]
        text = hopper_mlir(ab, "f32", None, layouts, batched).replace(
            hopper_config(ab)[1], f'mma = "wgmma", threadblock = [{bm}, {bn}, {bk}], stages = {st}')
        cname = f"wgmma {bm}x{bn}x{bk}/{st}" + (f" batch {HOPPER_BATCH}" if batched else "")
        # (the last shape runs once, like HOPPER_LARGE)
        out.append((f"skinny {ab}", ab, layouts, cname, text,
                    [fit(sh, ab, layouts) for sh in (HOPPER_SKINNY_SHAPES[:2] if quick else HOPPER_SKINNY_SHAPES)],
                    HOPPER_BATCH if batched else 1))
    return out


def run_hopper(cases, compiled) -> int:
    """Check every Hopper kernel at its shapes with HOPPER_RUNS (the large shape once, alternating
    the runs), print a line per check, and the summary "hopper: N checks, F failed"."""
    from lasscc.runtime.gemm_runner import run_gemm

    checks = fails = 0
    for i, ((name, ab, layouts, cname, _, shapes, batch), (ptx, spec)) in enumerate(zip(cases, compiled)):
        for j, (m, n, k) in enumerate(shapes):
            runs = HOPPER_RUNS if j < len(shapes) - 1 else HOPPER_RUNS[i % 2:i % 2 + 1]
            for alpha, beta in runs:
                try:
                    r = run_gemm(ptx, spec, m, n, k, alpha=alpha, beta=beta, check=True, cublas=False,
                                 seed=m * 7 + n + j, batch=batch)
                    ok, text = r["ok"], f"rel_err {r['rel_err']:.2e} (tol {r['tol']:.0e})"
                except Exception as e:  # noqa: BLE001 -- a refused or faulting case is a failure, reported
                    ok, text = False, f"{type(e).__name__}: {e}"
                checks += 1
                fails += not ok
                print(f"{name:20s} A {layouts[0]:3s} B {layouts[1]:3s} D {layouts[2]:3s} {cname:28s} "
                      f"{m:5d} {n:5d} {k:5d} beta {beta:3.1f} {text} {'PASS' if ok else 'FAIL'}", flush=True)
    print(f"hopper: {checks} checks, {fails} failed", flush=True)
    return 1 if fails else 0



# stream-K (lasscc.streamk), every mode: every element type in TN, NT and with a column-major D, at
# shapes that split tiles between CTAs (the odd ones of issue 17 also unrounded, with the widest
# access widths they allow), then STREAMK_BENCH timed beside cuBLAS
STREAMK_MODES = ("streamk", "streamk-dp", "streamk-tail")
STREAMK_SHAPES = [(33, 4097, 12345), (1, 8192, 8192), (3000, 3000, 1000), (127, 255, 1024), (100, 70, 64)]
STREAMK_ODD = [(33, 4097, 12345), (1, 8192, 8192)]  # run as they are, narrow accesses where K needs them
STREAMK_BENCH = [(16, 4096, 4096), (128, 4096, 4096), (1024, 1024, 16384), (3000, 3000, 1000)]


def narrow_cases(name, ab, d, acc, layouts, cname, cfg, shapes) -> list[tuple]:
    """One kernel per access width the `shapes` need (lasscc.config.widest_align), with its shapes."""
    from lasscc.config import widest_align

    by_align: dict = {}
    for sh in shapes:
        by_align.setdefault(widest_align(*sh, layouts[0], layouts[1], ab), []).append(sh)
    return [(name, ab, layouts, f"{cname} align {align[0]},{align[1]}", mlir(ab, d, acc, layouts, cfg, align), shs)
            for align, shs in by_align.items()]


def streamk_cases(quick: bool = False) -> list[tuple]:
    """(name, A/B type, layouts, config name, MLIR text, shapes) of the stream-K kernels."""
    out = []
    for (name, ab, d, acc, _), layouts, mode in itertools.product(
            DTYPES, SPLIT_LAYOUTS[:1] if quick else SPLIT_LAYOUTS, STREAMK_MODES):
        cname, cfg = configs(ab)[0]
        cfg = f'{cfg}, split_k_mode = "{mode}"'
        out.append((name, ab, layouts, f"{cname} {mode}", mlir(ab, d, acc, layouts, cfg),
                    [fit(sh, ab, layouts) for sh in (STREAMK_SHAPES[3:] if quick else STREAMK_SHAPES)]))
        if quick:
            continue
        out += narrow_cases(name, ab, d, acc, layouts, f"{cname} {mode}", cfg, STREAMK_ODD)
    return out


def configs(ab: str) -> list[tuple[str, str]]:
    """(name, config text) of the two configs: the default and a small register-staged one.
    BK is 64 bytes of K for every type (as lasscc.config.default_config)."""
    bk = 64 // ELEM_BYTES[ab]
    return [("128x128/64x64/s3", f"threadblock = [128, 128, {bk}], warp = [64, 64, {bk}], stages = 3"),
            ("64x64/32x32/s2", f"threadblock = [64, 64, {bk}], warp = [32, 32, {bk}], stages = 2")]


def memref(t: str, layout: str) -> str:
    return f"memref<?x?x{t}>" if layout == "row" else f"memref<?x?x{t}, strided<[1, ?]>>"


def mlir(ab: str, d: str, acc: str | None, layouts, cfg: str, align=None) -> str:
    ta, tb, td = memref(ab, layouts[0]), memref(ab, layouts[1]), memref(d, layouts[2])
    if align is not None:
        cfg = f"{cfg}, align = [{align[0]}, {align[1]}]"
    acc_text = f" acc = {acc}," if acc else ""
    return (f"func.func @gemm(%a: {ta}, %b: {tb}, %d: {td}) {{\n"
            f"  lass.gemm {{alpha = 1.0 : f32, beta = 0.5 : f32,{acc_text} config = {{{cfg}}}}}\n"
            f"      ins(%a, %b : {ta}, {tb}) outs(%d : {td})\n  func.return\n}}\n")


def linalg_mlir(ab: str, d: str, layouts) -> str:
    ta, tb, tc = memref(ab, layouts[0]), memref(ab, layouts[1]), memref(d, layouts[2])
    return (f"func.func @matmul(%a: {ta}, %b: {tb}, %c: {tc}) {{\n"
            f"  linalg.matmul ins(%a, %b : {ta}, {tb}) outs(%c : {tc})\n  return\n}}\n")


def linalg_cases(shapes) -> list[tuple]:
    """Cases of linalg.matmul inputs: per type and layouts, one kernel per access widths its
    shapes get from lasscc.cli._resolve_align (the linalg.matmul imported, the widths written
    into the lass.gemm: the text compiled is the one `lasscc run` compiles)."""
    import contextlib
    import io

    from lasscc.cli import _resolve_align, module_align
    from lasscc.config import widest_align
    from lasscc.source import parse_mlir

    out = []
    for (name, ab, d), layouts in itertools.product(LINALG_DTYPES, LINALG_LAYOUTS):
        by_align: dict = {}
        for sh in shapes:
            by_align.setdefault(widest_align(*sh, layouts[0], layouts[1], ab), []).append(sh)
        for align, shs in by_align.items():
            module = parse_mlir(linalg_mlir(ab, d, layouts), "<linalg>")
            with contextlib.redirect_stderr(io.StringIO()):  # the narrow-width notes
                _resolve_align(module, shs, "sizes", "<linalg>")
            got = module_align(module)[0] or widest_align(16, 16, 16, layouts[0], layouts[1], ab)
            assert tuple(got) == tuple(align), (name, layouts, shs, got, align)
            out.append((f"linalg {name}", ab, layouts, f"default align {align[0]},{align[1]}", str(module), shs))
    return out


def build_cases(quick: bool = False, narrow_only: bool = False, linalg_only: bool = False,
                split_only: bool = False, epilogue_only: bool = False, arch: str = "sm_80",
                streamk_only: bool = False) -> list[tuple]:
    """(name, A/B type, layouts, config name, MLIR text, shapes[, EpilogueSpec]) of every kernel the
    matrix runs (the split-K and epilogue cases also on the wgmma config for WGMMA_ARCH)."""
    wgmma = arch == WGMMA_ARCH
    if split_only:
        return split_cases(quick, wgmma)
    if streamk_only:
        return streamk_cases(quick)
    if epilogue_only:
        return epilogue_cases(EPILOGUE_SHAPES[:2] if quick else EPILOGUE_SHAPES, wgmma) + epilogue_split_cases(quick, wgmma)
    cases = []  # one kernel per (type, layouts, config, access widths) with the shapes it runs
    if not linalg_only:
        shapes = [] if narrow_only else (SHAPES[:2] if quick else SHAPES)
        narrow = NARROW_SHAPES[:3] if quick else NARROW_SHAPES
        for name, ab, d, acc, layouts_list in DTYPES:
            cfgs = configs(ab)[:1] if quick else configs(ab)
            for layouts, (cname, cfg) in itertools.product(layouts_list, cfgs):
                if shapes:
                    cases.append((name, ab, layouts, cname, mlir(ab, d, acc, layouts, cfg),
                                  [fit(sh, ab, layouts) for sh in shapes]))
                cases += narrow_cases(name, ab, d, acc, layouts, cname, cfg, narrow)
    if not narrow_only:
        cases += linalg_cases(LINALG_SHAPES[:3] if quick else LINALG_SHAPES)
    if not (narrow_only or linalg_only):
        cases += split_cases(quick, wgmma)
        cases += streamk_cases(quick)
        cases += epilogue_cases(EPILOGUE_SHAPES[:2] if quick else EPILOGUE_SHAPES, wgmma)
        cases += epilogue_split_cases(quick, wgmma)
    return cases


def compile_case(args):
    text, arch = args
    from lasscc.driver import compile_module
    from lasscc.source import parse_mlir

    res = compile_module(parse_mlir(text, "<matrix>"), arch, "<matrix>")
    return res.ptx, res.specs[0]


def fit(shape, ab, layouts):
    """The shape with each dimension the alignment rule constrains rounded up to its multiple."""
    from lasscc.config import alignment_rules

    rules = alignment_rules(layouts[0], layouts[1], ab)
    m, n, k = shape
    up = lambda v, q: -(-v // q) * q  # noqa: E731
    return up(m, rules["M"]), up(n, rules["N"]), up(k, rules["K"])


def torch_ms(fn, iters=30):
    import torch

    for _ in range(5):
        fn()
    times = []
    for _ in range(iters):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    return statistics.median(times)


def cublas_tflops(ab: str, n: int) -> float | None:
    """torch's own GEMM for element types run_gemm does not compare (tf32, int8), fresh random data."""
    import torch

    if ab == "f32":
        torch.backends.cuda.matmul.allow_tf32 = True
        a = torch.rand(n, n, device="cuda") * 2 - 1
        b = torch.rand(n, n, device="cuda") * 2 - 1
        ms = torch_ms(lambda: a @ b)
    elif ab == "i8":
        a = torch.randint(-8, 8, (n, n), device="cuda", dtype=torch.int8)
        b = torch.randint(-8, 8, (n, n), device="cuda", dtype=torch.int8).t()
        ms = torch_ms(lambda: torch._int_mm(a, b))
    else:
        return None
    return 2 * n ** 3 / ms / 1e9


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true", help="two shapes, default config only")
    p.add_argument("--arch", default="sm_80")
    p.add_argument("--bench-size", type=int, default=4096)
    p.add_argument("--narrow-only", action="store_true", help="only NARROW_SHAPES (narrow access widths)")
    p.add_argument("--linalg-only", action="store_true", help="only the linalg.matmul inputs (LINALG_SHAPES)")
    p.add_argument("--split-only", action="store_true", help="only the split-K cases and SPLIT_BENCH")
    p.add_argument("--epilogue-only", action="store_true", help="only the fused epilogues (EPILOGUE_DTYPES)")
    p.add_argument("--streamk-only", action="store_true", help="only the stream-K cases and STREAMK_BENCH")
    p.add_argument("--epilogue-split-only", action="store_true",
                   help="only the fused epilogues with split-K, stream-K and batches (epilogue_split_cases)")
    p.add_argument("--hopper", action="store_true",
                   help="only the Hopper path (mma = \"wgmma\", --arch sm_90a): every type x layout x D x batched")
    p.add_argument("--list", action="store_true", help="print the cases and exit (no GPU needed)")
    args = p.parse_args()
    if args.hopper:
        if sum((args.narrow_only, args.linalg_only, args.split_only, args.epilogue_only, args.streamk_only,
                args.epilogue_split_only)):
            p.error("--hopper excludes --narrow-only, --linalg-only, --split-only, --epilogue-only, --streamk-only "
                    "and --epilogue-split-only")
        if args.arch not in ("sm_80", "sm_90a"):  # sm_80: the default, not asked for
            p.error(f"--hopper compiles for sm_90a, got --arch {args.arch}")
        args.arch = "sm_90a"
        cases = hopper_cases(args.quick)
        if args.list:
            for name, _, layouts, cname, _, shs, batch in cases:
                print(f"{name:20s} A {layouts[0]:3s} B {layouts[1]:3s} D {layouts[2]:3s} {cname:28s} "
                      + " ".join("x".join(map(str, sh)) for sh in shs))
            n_checks = sum(len(HOPPER_RUNS) * (len(c[5]) - 1) + 1 for c in cases)
            print(f"{len(cases)} kernels, {n_checks} checks")
            return 0
        from lasscc.runtime.gemm_runner import _torch_cuda

        _torch_cuda()
        t0 = time.time()
        with ProcessPoolExecutor(max_workers=os.cpu_count()) as pool:
            compiled = list(pool.map(compile_case, [(c[4], args.arch) for c in cases]))
        print(f"compiled {len(cases)} kernels in {time.time() - t0:.0f} s", flush=True)
        return run_hopper(cases, compiled)
    if sum((args.narrow_only, args.linalg_only, args.split_only, args.epilogue_only, args.streamk_only,
            args.epilogue_split_only)) > 1:
        p.error("--narrow-only, --linalg-only, --split-only, --epilogue-only, --streamk-only and "
                "--epilogue-split-only exclude each other")
    cases = (epilogue_split_cases(args.quick, args.arch == WGMMA_ARCH) if args.epilogue_split_only else
             build_cases(args.quick, args.narrow_only, args.linalg_only, args.split_only, args.epilogue_only,
                         args.arch, args.streamk_only))
    if args.list:
        for name, _, layouts, cname, _, shs, *_ in cases:
            print(f"{name:14s} A {layouts[0]:3s} B {layouts[1]:3s} D {layouts[2]:3s} {cname:29s} "
                  + " ".join("x".join(map(str, sh)) for sh in shs))
        print(f"{len(cases)} kernels, {sum(len(c[5]) for c in cases)} checks")
        return 0
    from lasscc.config import widest_align
    from lasscc.runtime.gemm_runner import _torch_cuda, run_gemm

    _torch_cuda()  # torch first: one primary context for both (gemm_runner._torch_cuda)
    t0 = time.time()
    with ProcessPoolExecutor(max_workers=os.cpu_count()) as pool:
        compiled = list(pool.map(compile_case, [(c[4], args.arch) for c in cases]))
    print(f"compiled {len(cases)} kernels in {time.time() - t0:.0f} s", flush=True)

    rows, worst = [], {}
    for (name, ab, layouts, cname, _, case_shapes, *epi), (ptx, spec) in zip(cases, compiled):
        for m, n, k in case_shapes:
            # the lass.gemm cases carry beta 0.5; linalg.matmul's (C += A.B) alpha = beta = 1
            r = run_gemm(ptx, spec, m, n, k, alpha=spec.alpha, beta=spec.beta, check=True, cublas=False,
                         seed=m * 7 + n, epilogue=epi[0] if epi else None, batch=epi[1] if len(epi) > 1 else 1)
            ok = "PASS" if r["ok"] else "FAIL"
            rows.append((name, f"A {layouts[0]}, B {layouts[1]}, D {layouts[2]}", m, n, k, cname, r["rel_err"], ok))
            print(f"{name:14s} A {layouts[0]:3s} B {layouts[1]:3s} D {layouts[2]:3s} {m:5d} {n:5d} {k:5d} {cname:29s} "
                  f"rel_err {r['rel_err']:.2e} (tol {r['tol']:.0e}) {ok}", flush=True)
            key = (name, cname)
            worst[key] = max(worst.get(key, 0.0), r["rel_err"])
    fails = [r for r in rows if r[-1] != "PASS"]

    print(f"\n{len(rows)} checks, {len(fails)} failed; worst relative error per element type and config:")
    print("| element type | config | layouts | checks | worst rel. error |\n|---|---|---|---|---|")
    for (name, cname), w in worst.items():
        n_checks = sum(1 for r in rows if r[0] == name and r[5] == cname)
        n_lays = len({r[1] for r in rows if r[0] == name and r[5] == cname})
        lays = f"{n_lays} (A, B{', D' if n_lays == 8 else ''} row/col)"
        print(f"| {name} | {cname} | {lays} | {n_checks} | {w:.1e} |")

    if args.linalg_only or args.epilogue_only:
        return 1 if fails else 0
    if args.streamk_only:
        streamk_bench(args.arch)
        return 1 if fails else 0
    if not args.narrow_only:
        split_bench(args.arch)
    if args.split_only:
        return 1 if fails else 0
    size = args.bench_size
    print(f"\n{size}^3, default config per type, TN, beta 0, beside torch in the same process:")
    print("| element type | rel. error | TFLOP/s | torch (cuBLAS) | ratio |\n|---|---|---|---|---|")
    for name, ab, d, acc, _ in DTYPES:
        cfg = configs(ab)[0][1]
        ptx, spec = compile_case((mlir(ab, d, acc, ("row", "col", "row"), cfg).replace("beta = 0.5", "beta = 0.0"),
                                  args.arch))
        r = run_gemm(ptx, spec, size, size, size, check=True, bench=True, iters=30)
        ref = r.get("cublas_tflops") or cublas_tflops(ab, size)
        ratio = r["tflops"] / ref if ref else float("nan")
        print(f"| {name} | {r['rel_err']:.1e} | {r['tflops']:.1f} | {ref:.1f} | {ratio:.2f} |", flush=True)
    m, n, k = 4097, 1000, 333  # odd K: 2-byte copies of A and B (align = [1, 1])
    align = widest_align(m, n, k)
    ptx, spec = compile_case((mlir("f16", "f32", None, ("row", "col", "row"), configs("f16")[0][1], align)
                              .replace("beta = 0.5", "beta = 0.0"), args.arch))
    r = run_gemm(ptx, spec, m, n, k, check=True, bench=True, iters=30)
    ref = r.get("cublas_tflops")
    print(f"\n{m}x{n}x{k} f16 TN, align = [{align[0]}, {align[1]}]: rel. error {r['rel_err']:.1e}, "
          f"{r['tflops']:.1f} TFLOP/s" + (f", torch (cuBLAS) {ref:.1f}, ratio {r['tflops'] / ref:.2f}" if ref else ""),
          flush=True)
    return 1 if fails else 0


def split_bench(arch: str) -> None:
    """SPLIT_BENCH: f16 TN, f32 D, default tiling, each split count checked and timed beside cuBLAS."""
    from lasscc.runtime.gemm_runner import run_gemm

    cfgs = [configs("f16")[0]] + ([wgmma_config("f16")] if arch == WGMMA_ARCH else [])
    print("\nsplit-K, f16 TN, D f32, beta 0, default tiling" + (" and the wgmma config" if len(cfgs) > 1 else "")
          + ", beside torch in the same process:")
    print("| M x N x K | config | split_k | mode | rel. error | TFLOP/s | torch (cuBLAS) | ratio |\n"
          "|---|---|---|---|---|---|---|---|")
    for (m, n, k, splits), (cname, cfg) in itertools.product(SPLIT_BENCH, cfgs):
        for s, mode in [(s, mode) for s in splits for mode in (SPLIT_MODES if s > 1 else ("-",))]:
            text = mlir("f16", "f32", None, ("row", "col", "row"),
                        cfg + (f', split_k = {s}, split_k_mode = "{mode}"' if s > 1 else ""))
            ptx, spec = compile_case((text.replace("beta = 0.5", "beta = 0.0"), arch))
            r = run_gemm(ptx, spec, m, n, k, check=True, bench=True, iters=30)
            ref = r.get("cublas_tflops")
            ratio = f"{r['tflops'] / ref:.2f}" if ref else "-"
            print(f"| {m} x {n} x {k} | {cname} | {s} | {mode} | {r['rel_err']:.1e} {'' if r['ok'] else 'FAIL'} | {r['tflops']:.1f} | "
                  f"{ref or float('nan'):.1f} | {ratio} |", flush=True)



def streamk_bench(arch: str) -> None:
    """STREAMK_BENCH: f16 TN, f32 D, default tiling, both stream-K modes, checked and timed beside cuBLAS
    (the persistent grid: the device's SM count x CTAs per SM, lasscc.streamk)."""
    from lasscc.runtime.gemm_runner import run_gemm

    cfg = configs("f16")[0][1]
    print("\nstream-K, f16 TN, D f32, beta 0, default tiling, beside torch in the same process:")
    print("| M x N x K | mode | grid | rel. error | TFLOP/s | torch (cuBLAS) | ratio |\n|---|---|---|---|---|---|---|")
    for (m, n, k), mode in itertools.product(STREAMK_BENCH, ("serial",) + STREAMK_MODES):
        text = mlir("f16", "f32", None, ("row", "col", "row"), cfg + (f', split_k_mode = "{mode}"' if mode != "serial" else ""))
        ptx, spec = compile_case((text.replace("beta = 0.5", "beta = 0.0"), arch))
        r = run_gemm(ptx, spec, m, n, k, check=True, bench=True, iters=30)
        ref = r.get("cublas_tflops")
        ratio = f"{r['tflops'] / ref:.2f}" if ref else "-"
        label = mode if mode != "serial" else "tiles"
        print(f"| {m} x {n} x {k} | {label} | {r['grid'][0]} | {r['rel_err']:.1e} {'' if r['ok'] else 'FAIL'} | "
              f"{r['tflops']:.1f} | {ref or float('nan'):.1f} | {ratio} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
