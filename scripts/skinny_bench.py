"""Issue 17's table: every shape with the shape-aware default config (lasscc.heuristics, no tuning)
beside cuBLAS in the same process (a default that takes the persistent cooperative TMA-store kernel,
heuristics.data_parallel_kernel, with the plain kernel of its tile beside it), the session-8 default
of the shapes whose default changed since,
the odd shapes (checked against float64 like every run), the split-K and stream-K variants for two
shapes, and 16 x 4096 x 4096 as a fraction of the HBM bandwidth needed to read B once.

    python3 scripts/skinny_bench.py [--arch sm_90a] [--iters 30]    # on the GPU
    python3 scripts/skinny_bench.py --dry-run [--compile]           # CPU: the plan (and ptxas of every kernel)
    python3 scripts/skinny_bench.py --tile-sweep [--dry-run]         # wgmma tiles x split counts (the heuristic's data)
    python3 scripts/skinny_bench.py --only default,variant,streamk   # a subset of the runs, by kind
    python3 scripts/skinny_bench.py --swap [--dry-run]               # swap AB (swap_ab = 1) tiles x splits, skinny M
    python3 scripts/skinny_bench.py --cluster [--dry-run]            # cluster split-K tiles x splits (session 11)

f16 in, f32 D, TN, beta 0.  The default config is what `lasscc run` / `bench` apply to an input without
`config` when `lasscc tune` stored none (lasscc.defaults.apply_tuned -> lasscc.heuristics.choose, with the
device's SM count); tuned.json is not consulted here, so the figures are the untuned default.  Each
kernel is checked against the float64 reference before it is timed (run_gemm).
"""

from __future__ import annotations

import argparse
import sys

# issue 17's table (M, N, K)
SHAPES = [(16, 4096, 4096), (128, 4096, 4096), (1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 512),
          (8192, 1024, 8192), (1024, 1024, 16384)]
# the variants timed for two shapes: (split_k, split_k_mode) beside the default
VARIANT_SHAPES = [(16, 4096, 4096), (1024, 1024, 16384)]
VARIANTS = [(1, "serial"), (4, "serial"), (8, "serial"), (4, "parallel"), (8, "parallel"), (16, "parallel"),
            (1, "streamk"), (1, "streamk-dp")]
H100_SXM_HBM_BYTES_PER_S = 3.35e12  # H100 SXM5 HBM3 bandwidth (NVIDIA's datasheet: 3.35 TB/s)
B_ONCE_SHAPE = (16, 4096, 4096)
# issue 17's odd shapes, run unrounded (33 x 4097 x 12345: K odd, so no TMA: mma.sync, 2-byte accesses)
ODD_SHAPES = [(33, 4097, 12345), (1, 8192, 8192)]
# the sm_90a default of session 8 (BENCHMARKS.md: the cost-model table), timed beside today's default
# (session 9 measured the narrow-tile refit against it): ((M, N, K), (BM, BN, stages, split_k))
SESSION8_DEFAULTS = [((16, 4096, 4096), (64, 128, 4, 4)), ((128, 4096, 4096), (64, 64, 4, 1)),
                     ((1024, 1024, 1024), (64, 128, 4, 1)), ((1024, 1024, 16384), (128, 256, 4, 4))]
# the narrow tiles (heuristics.SKINNY_TILES) at other stage counts (session 9: all slower than the
# family's tiles): ((M, N, K), (BM, BN, stages)), unsplit, for scripts/fit_costmodel.py
STAGE_VARIANTS = [((16, 4096, 4096), (64, 32, 4)), ((16, 4096, 4096), (64, 32, 6)), ((16, 4096, 4096), (64, 32, 12)),
                  ((16, 4096, 4096), (64, 16, 8)), ((16, 4096, 4096), (64, 16, 12)),
                  ((128, 4096, 4096), (128, 32, 4)), ((128, 4096, 4096), (128, 64, 6)), ((128, 4096, 4096), (64, 32, 8))]
# stream-K (workspace fix-up, lasscc.streamk; mma.sync only) on narrower mma.sync tiles than the
# default's 128 x 128 for the variant shapes: ((BM, BN), (WM, WN), stages); "streamk" only (their
# tiles are under one wave: "streamk-dp" would be the same schedule)
STREAMK_TILES = [((64, 64), (32, 32), 4), ((128, 64), (64, 32), 4), ((64, 128), (32, 64), 4)]
ELEM_BYTES = 2  # f16 A and B
RUN_KINDS = ("default", "plain", "odd", "s8", "stages", "variant", "streamk")  # plan()'s kinds of run (--only)


def module_text(cfg) -> str:
    """The f16 TN GEMM with `cfg` (a GemmConfig) as its config (its `align` too, where it has one)."""
    from lasscc.api import gemm_mlir

    if cfg.is_wgmma:  # the Hopper path: threadblock / stages with mma = "wgmma" (its warp tiles follow)
        kernel = {"mma": "wgmma", **({key: getattr(cfg, key) for key in ("schedule", "persistent", "epilogue")}
                                     if cfg.persistent else {}),  # the data-parallel default's kernel
                  **({"swap_ab": 1} if cfg.swap_ab else {})}
        return gemm_mlir("f16", None, "f32", "TN", 1.0, 0.0, cfg.threadblock, None, cfg.stages, cfg.raster,
                         kernel=kernel)
    text = gemm_mlir("f16", None, "f32", "TN", 1.0, 0.0, cfg.threadblock, cfg.warp, cfg.stages, cfg.raster)
    if cfg.align is not None:
        text = text.replace("config = {", f"config = {{align = [{cfg.align[0]}, {cfg.align[1]}], ", 1)
    return text


def config_text(cfg) -> str:
    return (("wgmma " if cfg.is_wgmma else "") + ("swap_ab " if cfg.swap_ab else "")
            + "x".join(map(str, cfg.threadblock)) + f"/s{cfg.stages}"
            + (f" {cfg.schedule} persistent {cfg.epilogue}" if cfg.persistent else "")
            + (f" split {cfg.split_k} {cfg.split_k_mode}" if cfg.split_k > 1 else
               f" {cfg.split_k_mode}" if cfg.is_streamk else ""))


def plan(sms: int, arch: str) -> list[tuple[str, tuple[int, int, int], object]]:
    """(label, shape, GemmConfig) of every run: the default per shape, then the variants."""
    from dataclasses import replace

    from lasscc.config import widest_align
    from lasscc.heuristics import choose, wgmma_base
    from lasscc.resources import wgmma_defaults

    wg = wgmma_base("f16", arch)  # sm_90a: the default decomposes lasscc.family's wgmma tile
    runs = []
    for shape in SHAPES:
        c = choose(*shape, "f16", sms, arch, d_type="f32", base=wg)
        runs.append(("default", shape, c.config, c.describe()))
        if c.config.persistent:  # the data-parallel kernel (heuristics.data_parallel_kernel): the plain one beside it
            runs.append(("plain", shape, replace(c.config, schedule="default", persistent=0, epilogue="direct"),
                         "the plain kernel of the default's tile"))
    for shape in ODD_SHAPES:  # sizes TMA cannot load take mma.sync with the widest accesses they allow
        align = widest_align(*shape, "row", "col", "f16")
        full = align == widest_align(16, 16, 16, "row", "col", "f16")
        c = choose(*shape, "f16", sms, arch, d_type="f32", base=wg if full else None)
        cfg = c.config if full else replace(c.config, align=align)
        runs.append(("odd", shape, cfg, c.describe() + ("" if full else f"; mma.sync, align {list(align)}")))
    if wg is not None:
        for shape, (bm, bn, st, s) in SESSION8_DEFAULTS:
            tb = (bm, bn, wg.threadblock[2])
            cfg = replace(wg, threadblock=tb, stages=st, split_k=s, split_k_mode="parallel" if s > 1 else "serial",
                          **wgmma_defaults(tb, wg.instruction[2]))
            runs.append(("s8", shape, cfg, "session 8's default"))
        for shape, (bm, bn, st) in STAGE_VARIANTS:
            tb = (bm, bn, wg.threadblock[2])
            runs.append(("stages", shape, replace(wg, threadblock=tb, stages=st, **wgmma_defaults(tb, wg.instruction[2])),
                         "narrow tile, stage count"))
    for shape in VARIANT_SHAPES:
        for base in [choose(*shape, "f16", sms, arch).config] + ([choose(*shape, "f16", sms, arch, base=wg).config]
                                                                 if wg is not None else []):
            for s, mode in VARIANTS:
                if not (base.is_wgmma and mode.startswith("streamk")):  # (stream-K: mma.sync only)
                    runs.append(("variant", shape, replace(base, split_k=s, split_k_mode=mode), ""))
        mma_sync = choose(*shape, "f16", sms, arch).config
        for (bm, bn), (wm, wn), st in STREAMK_TILES:
            runs.append(("streamk", shape, replace(mma_sync, threadblock=(bm, bn, mma_sync.threadblock[2]),
                                                   warp=(wm, wn, mma_sync.warp[2]), stages=st, split_k=1,
                                                   split_k_mode="streamk"), "stream-K, narrower mma.sync tile"))
    return runs


# --tile-sweep: the wgmma tiles (BM, BN) x parallel split counts the heuristic could choose for the
# shapes whose grid leaves SMs idle (f16: BK 64, 4 stages)
SWEEP_SHAPES = [(16, 4096, 4096), (128, 4096, 4096), (1024, 1024, 1024), (1024, 1024, 16384)]
SWEEP_TILES = [(64, 128, 4), (64, 256, 4), (128, 128, 4), (128, 256, 4),  # (BM, BN, stages)
               (64, 32, 4), (64, 32, 8), (128, 32, 8), (128, 64, 6), (64, 16, 8)]  # + heuristics.SKINNY_TILES
SWEEP_SPLITS = [1, 2, 4, 8]


def sweep_plan(arch: str) -> list[tuple[tuple[int, int, int], object]]:
    from dataclasses import replace

    from lasscc.heuristics import wgmma_base
    from lasscc.resources import wgmma_defaults

    base = wgmma_base("f16", arch)
    out = []
    for shape in SWEEP_SHAPES:
        for bm, bn, st in SWEEP_TILES:
            tb = (bm, bn, base.threadblock[2])
            for s in SWEEP_SPLITS:
                out.append((shape, replace(base, threadblock=tb, stages=st, split_k=s,
                                           split_k_mode="parallel" if s > 1 else "serial",
                                           **wgmma_defaults(tb, base.instruction[2]))))
    return out


# --swap: swap AB (config swap_ab = 1, lasscc.heuristics.choose_swap_ab) for the skinny shapes: the kernel
# computes D^T (N x M) in (BM, BN) tiles of D^T, BN the caller's M side; each beside the fastest
# unswapped config measured (session 9) and the heuristic's unswapped pick
SWAP_SHAPES = [(16, 4096, 4096), (128, 4096, 4096), (1, 8192, 8192)]
SWAP_TILES = [(128, 16, 4), (128, 32, 4), (64, 16, 4), (64, 32, 4), (64, 64, 4), (128, 64, 4), (128, 128, 4),
              (64, 16, 8), (128, 16, 8), (128, 32, 8)]  # (BM, BN of D^T, stages)
SWAP_SPLITS = [1, 2, 4, 8]


def swap_plan(arch: str) -> list[tuple[tuple[int, int, int], object]]:
    """(shape, config) of --swap: SWAP_TILES x SWAP_SPLITS swapped where the tile's BN is at most twice
    the caller's M rounded up to 16 (a wider BN only computes zeros), then the unswapped pick."""
    from dataclasses import replace

    from lasscc import heuristics
    from lasscc.heuristics import wgmma_base
    from lasscc.resources import wgmma_defaults

    base = wgmma_base("f16", arch)
    out = []
    for shape in SWAP_SHAPES:
        m = shape[0]
        for bm, bn, st in SWAP_TILES:
            if bn > 2 * max(16, -(-m // 16) * 16):
                continue
            tb = (bm, bn, base.threadblock[2])
            for s in SWAP_SPLITS:
                out.append((shape, replace(base, threadblock=tb, stages=st, split_k=s, swap_ab=1,
                                           split_k_mode="parallel" if s > 1 else "serial",
                                           **wgmma_defaults(tb, base.instruction[2]))))
        saved, heuristics.SWAP_AB_MAX_M = heuristics.SWAP_AB_MAX_M, 0  # the unswapped pick beside them
        try:
            out.append((shape, heuristics.choose(*shape, "f16", SWEEP_SMS, arch, base=base).config))
        finally:
            heuristics.SWAP_AB_MAX_M = saved
    return out


SWEEP_SMS = 132  # the H100 the cost model was fitted on (the unswapped picks of swap_plan)

# --cluster: cluster split-K (split_k_mode = "cluster", lasscc.cluster_splitk) for the sweep's shapes:
# lasscc.family's wgmma tiles and 128x64, S = 2 at the most stages up to heuristics.WG_CLUSTER_STAGES
# (heuristics.cluster_stages) and at 4 stages, S = 4 at 4 stages (session 11, for scripts/fit_costmodel.py)
CLUSTER_TILES = [(128, 256), (128, 192), (128, 128), (64, 256), (64, 128), (64, 64), (128, 64)]


def cluster_plan(arch: str) -> list[tuple[tuple[int, int, int], object]]:
    from dataclasses import replace

    from lasscc.diagnostics import LassError
    from lasscc.heuristics import cluster_stages, wgmma_base
    from lasscc.resources import wgmma_defaults

    base = wgmma_base("f16", arch)
    out = []
    for shape in SWEEP_SHAPES:
        for bm, bn in CLUSTER_TILES:
            tb = (bm, bn, base.threadblock[2])
            tile = replace(base, threadblock=tb, split_k_mode="cluster", **wgmma_defaults(tb, base.instruction[2]))
            cfgs = {cluster_stages(replace(tile, split_k=2), arch, "f16"), replace(tile, split_k=2),
                    replace(tile, split_k=4)}
            for cfg in sorted(cfgs, key=lambda c: (c.split_k, c.stages)):
                try:
                    cfg.validate(arch, ab_type="f16")
                except LassError:
                    continue
                out.append((shape, cfg))
    return out


def tile_sweep(arch: str, dry: bool, iters: int, swap: bool = False, cluster: bool = False) -> int:
    """Time every (shape, wgmma tile, split) of sweep_plan (`swap`: swap_plan, `cluster`: cluster_plan)
    beside cuBLAS; compiles in worker processes."""
    from concurrent.futures import ProcessPoolExecutor

    runs = swap_plan(arch) if swap else cluster_plan(arch) if cluster else sweep_plan(arch)
    if dry:
        for shape, cfg in runs:
            print(f"{'x'.join(map(str, shape)):18s} {config_text(cfg)}")
        return 0
    from lasscc.runtime.gemm_runner import _torch_cuda, run_gemm

    _torch_cuda()
    with ProcessPoolExecutor() as pool:
        compiled = list(pool.map(_try_compile, [(module_text(c), arch, c.split_k, c.split_k_mode) for _, c in runs]))
    print("| M x N x K | config | TFLOP/s | cuBLAS | ratio |\n|---|---|---|---|---|")
    fails = 0
    for (shape, cfg), got in zip(runs, compiled):
        if isinstance(got, str):
            print(f"| {' x '.join(map(str, shape))} | {config_text(cfg)} | rejected: {got} | | |")
            continue
        ptx, spec = got
        r = run_gemm(ptx, spec, *shape, check=True, bench=True, iters=iters)
        fails += not r["ok"]
        ref = r.get("cublas_tflops") or float("nan")
        print(f"| {' x '.join(map(str, shape))} | {config_text(cfg)} | {r['tflops']:.1f}{'' if r['ok'] else ' FAIL'} | "
              f"{ref:.1f} | {r['tflops'] / ref:.2f} |", flush=True)
    return 1 if fails else 0


def _try_compile(args):
    """compile_text, or the first line of its error (a sweep point the rules reject)."""
    from lasscc.diagnostics import LassError

    try:
        return compile_text(args)
    except LassError as e:
        return str(e).splitlines()[0]


def compile_text(args):
    text, arch, split_k, mode = args
    from lasscc.api import apply_overrides
    from lasscc.driver import compile_module
    from lasscc.source import parse_mlir

    module = parse_mlir(text, "<skinny>")
    apply_overrides(module, arch=arch, filename="<skinny>", split_k=split_k, split_k_mode=mode)
    res = compile_module(module, arch, "<skinny>")
    return res.ptx, res.specs[0]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--arch", default=None, help="target (default: the GPU's own; sm_80 with --dry-run)")
    p.add_argument("--iters", type=int, default=30)
    p.add_argument("--sms", type=int, default=None, help="SM count for --dry-run (default 132, an H100's)")
    p.add_argument("--dry-run", action="store_true", help="print the plan without a GPU")
    p.add_argument("--compile", action="store_true", help="with --dry-run: compile every kernel (ptxas, spills)")
    p.add_argument("--tile-sweep", action="store_true", help="wgmma tiles x split counts for the small grids")
    p.add_argument("--only", default=None, help=f"comma-separated kinds of run to keep, of {', '.join(RUN_KINDS)}")
    p.add_argument("--swap", action="store_true", help="swap AB (swap_ab = 1) tiles x split counts for skinny M")
    p.add_argument("--cluster", action="store_true", help="cluster split-K (split_k_mode = cluster) tiles x splits")
    args = p.parse_args()
    only = None if args.only is None else set(args.only.split(","))
    if only is not None and (not only or not only <= set(RUN_KINDS)):
        p.error(f"option --only: expected comma-separated kinds of {', '.join(RUN_KINDS)}, got {args.only!r}")
    if args.tile_sweep or args.swap or args.cluster:
        from lasscc.runtime import cuda

        return tile_sweep(args.arch or ("sm_90a" if args.dry_run else cuda.device_arch()), args.dry_run, args.iters,
                          args.swap, args.cluster)
    if args.dry_run:
        from lasscc import streamk

        arch = args.arch or "sm_80"
        runs = [r for r in plan(args.sms or streamk.H100_SMS, arch) if only is None or r[0] in only]
        for kind, shape, cfg, why in runs:
            print(f"{kind:8s} {'x'.join(map(str, shape)):18s} {config_text(cfg):32s} {why}")
        if args.compile:
            from concurrent.futures import ProcessPoolExecutor

            from lasscc.emit import ptxas_info

            jobs = [(module_text(cfg), arch, cfg.split_k, cfg.split_k_mode) for _, _, cfg, _ in runs]
            with ProcessPoolExecutor() as pool:
                for (kind, shape, cfg, _), (ptx, spec) in zip(runs, pool.map(compile_text, jobs)):
                    info = ptxas_info(ptx, arch)
                    print(f"compiled {config_text(cfg):32s} " + (f"{info.line}; spill stores {info.spill_stores} B, "
                                                                  f"loads {info.spill_loads} B" if info else "(no ptxas)"))
        return 0

    from lasscc.runtime import cuda
    from lasscc.runtime.gemm_runner import _torch_cuda, run_gemm

    _torch_cuda()  # torch first: one primary context for both (gemm_runner._torch_cuda)
    arch, sms = args.arch or cuda.device_arch(), cuda.sm_count()
    print(f"{cuda.device_name()}, {sms} SMs, {arch}; f16 TN, D f32, beta 0, beside torch (cuBLAS) in the same process")
    print("| M x N x K | config | why | rel. error | TFLOP/s | cuBLAS | ratio |\n|---|---|---|---|---|---|---|")
    from concurrent.futures import ProcessPoolExecutor

    runs = [r for r in plan(sms, arch) if only is None or r[0] in only]
    with ProcessPoolExecutor() as pool:  # compiles are pure CPU: all at once, then the runs one by one
        compiled = list(pool.map(compile_text, [(module_text(c), arch, c.split_k, c.split_k_mode) for _, _, c, _ in runs]))
    fails, by_shape = 0, {}
    for (kind, shape, cfg, why), (ptx, spec) in zip(runs, compiled):
        r = run_gemm(ptx, spec, *shape, check=True, bench=True, iters=args.iters)
        fails += not r["ok"]
        ref = r.get("cublas_tflops")
        ratio = r["tflops"] / ref if ref else float("nan")
        if kind == "default":
            by_shape[shape] = r
        label = {"default": " (default)", "odd": " (default, odd shape)", "s8": " (session 8 default)",
                 "stages": " (stage variant)", "streamk": " (stream-K tile)"}.get(kind, "")
        print(f"| {' x '.join(map(str, shape))} | {config_text(cfg)}{label} | "
              f"{why} | {r['rel_err']:.1e}{'' if r['ok'] else ' FAIL'} | {r['tflops']:.1f} | "
              f"{ref or float('nan'):.1f} | {ratio:.2f} |", flush=True)
    m, n, k = B_ONCE_SHAPE
    r = by_shape.get(B_ONCE_SHAPE)
    if r is None:  # (--only without "default")
        return 1 if fails else 0
    seconds = 2 * m * n * k / (r["tflops"] * 1e12)
    frac = n * k * ELEM_BYTES / seconds / H100_SXM_HBM_BYTES_PER_S
    print(f"\n{m} x {n} x {k} (default config): {seconds * 1e6:.1f} us, reading B once "
          f"({n * k * ELEM_BYTES / 1e6:.1f} MB) at {frac:.0%} of {H100_SXM_HBM_BYTES_PER_S / 1e12:.2f} TB/s (H100 SXM HBM3)")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
