"""`lasscc bench` and `lasscc tune`: time kernels beside cuBLAS, search tile configs on the GPU.

bench: compile once, then for each size check against the float64 reference and time with CUDA
events beside cuBLAS (lasscc.runtime.gemm_runner.run_gemm), print a table, optionally plot it.

tune: for each candidate config that GemmConfig.validate accepts, compile and time it at one size,
then the second round's variants of the fastest (`second_round`: split-K, stream-K, clusters, swap
AB), check the winner, and store it in `tuned.json` in the cache folder (lasscc.cache.cache_dir())
under the key (M x N x K, input type, output type, layout, GPU name).  When the input gives no
`config`, `lasscc run` / `bench` use the winner for that key, else the newest winner for the same
types and layout on that GPU; `lasscc compile` (which knows neither size nor GPU) uses the newest
winner for the same types and layout.
"""

from __future__ import annotations

import itertools
import os
import sys
import time  # json, tempfile: imported where used (a compile reads no tuned store when there is none)
from pathlib import Path

from lasscc.config import GemmConfig
from lasscc.diagnostics import LassError
from lasscc.layout import elem_bytes, mma_shape
from lasscc.resources import is_warp_specialized, prefetch_applies

TUNE_FILE = "tuned.json"

# The search space: threadblock, warp, stages, prefetch (raster kept at its default).  Built from
# the configs CUTLASS ships for f16 tensor-op GEMMs on sm_80, plus lasscc's prefetch switch.
SEARCH_TILES = [
    ((128, 128, 32), (64, 64, 32)),
    ((128, 256, 32), (64, 64, 32)),
    ((256, 128, 32), (64, 64, 32)),
    ((128, 128, 64), (64, 64, 64)),
    ((128, 256, 64), (64, 64, 64)),
    ((256, 128, 64), (64, 64, 64)),
    ((64, 64, 32), (32, 32, 32)),
    ((128, 64, 32), (64, 32, 32)),
]
F16_BYTES = 2  # SEARCH_TILES' K is in f16 elements
SEARCH_STAGES = (2, 3, 4, 5)
SEARCH_PREFETCH = (0, 1)
# split-K (lasscc.splitk): the split counts tried on the SPLIT_TOP fastest unsplit configs, where
# the output tiles alone leave SMs idle (fewer than SPLIT_WAVES waves of CTAs); each partition
# keeps at least SPLIT_MIN_KTILES k-tiles, so the main loop still pipelines
SEARCH_SPLITS = (2, 3, 4, 6, 8, 12, 16)
SPLIT_TOP = 3
SPLIT_WAVES = 2
SPLIT_MIN_KTILES = 4
# swap AB (lasscc.heuristics' "swap AB", issue 17) for M <= heuristics.SWAP_AB_MAX_M < N: of the
# swapped tiles x split counts the shape-aware default weighs (heuristics.swap_ab_ranked: up to 35,
# fewer after its rules), the SWAP_TOP the cost model ranks fastest are timed, from the fastest
# wgmma config's K row and stages
SWAP_TOP = 4


# The Hopper search space (mma = "wgmma", sm_90a), ~40 configs: per schedule (lasscc.resources
# SCHEDULES) the BMs its rules allow and whether it is timed persistent (default: one or two
# consumer warpgroups on each tile, never persistent; cooperative: BM 128, its two consumer
# warpgroups share a tile; pingpong: BM 64 or 128, each consumer its own BM x BN tiles, the register
# rule leaving out 128 x 256 with 32-bit accumulators), x BN 128 or 256 x BK rows
# of 128 bytes (the 128B swizzle: every fastest config measured, BENCHMARKS.md) x 4 or 5 stages x
# raster groups of 8 or 16 tile rows; the resource rules (shared memory, registers) prune it.  The
# cooperative schedule is timed with both epilogues (WGMMA_SEARCH_EPILOGUES): its persistent
# TMA-store kernel is the shape-aware default's for a full grid (lasscc.heuristics.DP_KERNEL), and
# the TMA store is the only epilogue a tile-walking kernel with a 16-bit D may take.
WGMMA_SEARCH_SCHEDULES = {"default": ((64, 128), (0,)), "cooperative": ((128,), (0, 1)), "pingpong": ((64, 128), (0, 1))}
WGMMA_SEARCH_EPILOGUES = {"cooperative": ("direct", "tma")}  # other schedules: ("direct",)
WGMMA_SEARCH_BN = (128, 256)
WGMMA_SEARCH_ROW_BYTES = (128,)
WGMMA_SEARCH_STAGES = (4, 5)
WGMMA_SEARCH_RASTER = (8, 16)
# the instruction families `tune` searches: `mma` = one of them, or "all"
TUNE_FAMILIES = ("wgmma", "mma.sync", "all")


def default_family(arch: str) -> str:
    """The family `lasscc tune` searches when not told: wgmma on sm_90a (lasscc.family), else mma.sync."""
    from lasscc.resources import WGMMA_ARCHS

    return "wgmma" if arch in WGMMA_ARCHS else "mma.sync"


def _check(cfg: GemmConfig, arch: str, ab_type: str, majors, acc_type, ok: list, rejected: list,
           d_type: str | None = None) -> None:
    try:
        cfg.validate(arch, ab_type=ab_type, majors=majors, acc_type=acc_type, d_type=d_type)
        ok.append(cfg)
    except LassError as e:
        rejected.append((cfg, str(e)))


def candidates(arch: str, ab_type: str = "f16", mma: str = "mma.sync", majors=None,
               acc_type: str | None = None, d_type: str | None = None) -> tuple[list[GemmConfig], list[tuple[GemmConfig, str]]]:
    """(valid configs, [(rejected config, reason)]) of the search space of family `mma` ("mma.sync",
    "wgmma" or "all": TUNE_FAMILIES) for `arch`, A/B elements of MLIR type `ab_type`, tiles stored
    `majors` (None: K-major) and accumulator `acc_type` (None: 32-bit).  SEARCH_TILES give BK in
    f16 elements; other types keep its bytes per SMEM row (as CUTLASS's tf32 BK 16 / int8 BK 64
    configs mirror f16 BK 32) and take their own mma.sync shape (lasscc.layout.mma_shape); a D of
    type `d_type` (None: f32) that the epilogue stages through shared memory leaves out the
    schedules that walk tiles (lasscc.resources.walking_staged_epilogue); the
    wgmma space is WGMMA_SEARCH_* (tile x schedule x persistent x epilogue x stages x raster), BK in
    bytes (WGMMA_SEARCH_ROW_BYTES)."""
    from lasscc.layout import K_MAJOR
    from lasscc.explain.facts import type_bytes
    from lasscc.resources import WGMMA, walking_staged_epilogue, wgmma_defaults, wgmma_k

    majors = majors or (K_MAJOR, K_MAJOR)
    eb, inst = elem_bytes(ab_type), mma_shape(ab_type)
    ok, rejected = [], []
    if mma in ("mma.sync", "all"):
        for (tb, w), s, p in itertools.product(SEARCH_TILES, SEARCH_STAGES, SEARCH_PREFETCH):
            bk = tb[2] * F16_BYTES // eb
            cfg = GemmConfig(threadblock=(tb[0], tb[1], bk), warp=(w[0], w[1], bk), instruction=inst, stages=s,
                             prefetch=p)
            if p and not prefetch_applies(cfg, ab_type, majors, acc_type):  # the pass would build prefetch 0 again
                continue
            _check(cfg, arch, ab_type, majors, acc_type, ok, rejected)
    if mma in ("wgmma", "all"):
        for sched, (bms, persist) in WGMMA_SEARCH_SCHEDULES.items():
            epilogues = WGMMA_SEARCH_EPILOGUES.get(sched, ("direct",))
            for bm, bn, row, s, p, e, r in itertools.product(bms, WGMMA_SEARCH_BN, WGMMA_SEARCH_ROW_BYTES,
                                                             WGMMA_SEARCH_STAGES, persist, epilogues, WGMMA_SEARCH_RASTER):
                tb = (bm, bn, row // eb)
                cfg = GemmConfig(threadblock=tb, stages=s, raster=r, mma=WGMMA, schedule=sched, persistent=p,
                                 epilogue=e, **wgmma_defaults(tb, wgmma_k(ab_type)))
                if d_type is not None and walking_staged_epilogue(cfg, ab_type, type_bytes(d_type)):
                    rejected.append((cfg, f"a {d_type} D is staged through the operand ring, which this schedule "
                                          "refills for the next tile meanwhile"))
                    continue
                _check(cfg, arch, ab_type, majors, acc_type, ok, rejected, d_type)
    return ok, rejected


def cluster_candidates(cfg: GemmConfig, arch: str, ab_type: str = "f16", majors=None,
                       acc_type: str | None = None) -> list[GemmConfig]:
    """`cfg`'s clustered variants worth timing (a wgmma config: lasscc.cluster's 2-CTA shapes that
    its rules accept), tried on the fastest unclustered configs as the decompositions are."""
    from dataclasses import replace

    from lasscc.cluster import CLUSTER_NONE, CLUSTER_SHAPES
    from lasscc.layout import K_MAJOR

    if not cfg.is_wgmma or tuple(cfg.cluster) != CLUSTER_NONE:
        return []
    ok: list = []
    for shape in CLUSTER_SHAPES:
        if shape != CLUSTER_NONE:
            _check(replace(cfg, cluster=shape), arch, ab_type, majors or (K_MAJOR, K_MAJOR), acc_type, ok, [])
    return ok


def split_candidates(cfg: GemmConfig, m: int, n: int, k: int, sms: int) -> list[int]:
    """The split counts worth timing for `cfg` at M x N x K on a GPU of `sms` SMs: none when the
    output tiles fill SPLIT_WAVES waves; else those of SEARCH_SPLITS that leave every partition
    SPLIT_MIN_KTILES k-tiles and the grid within SPLIT_WAVES waves (one CTA per SM counted)."""
    bm, bn, bk = cfg.threadblock
    tiles = -(-m // bm) * -(-n // bn)
    if tiles >= SPLIT_WAVES * sms:
        return []
    kt = -(-k // bk)
    return [s for s in SEARCH_SPLITS if kt // s >= SPLIT_MIN_KTILES and tiles * s <= SPLIT_WAVES * sms]


def decomposition_candidates(cfg: GemmConfig, m: int, n: int, k: int, sms: int, ab_type: str = "f16",
                             d_type: str | None = None) -> list[GemmConfig]:
    """`cfg`'s K decompositions worth timing at M x N x K on a GPU of `sms` SMs: serial and parallel
    split-K for each of split_candidates (a wgmma config also cluster split-K where
    lasscc.cluster_splitk's rules allow: S <= 8, BN a multiple of 16 S), and stream-K (all tiles shared out; the hybrid when there
    is a full wave to keep data-parallel) when the tiles do not fill whole waves of the resident
    CTAs and each CTA's share keeps SPLIT_MIN_KTILES k-tiles (lasscc.streamk).  A cooperative config
    takes stream-K only, persistent = 1 (its producer walks the units; no split-K: the producer
    loops over all of K), and not with a D of MLIR type `d_type` staged through the ring
    (resources.walking_staged_epilogue); a pingpong one none (stream-K is not dealt to two consumers)."""
    from dataclasses import replace

    from lasscc import streamk
    from lasscc.explain.facts import type_bytes
    from lasscc.resources import is_pingpong, walking_staged_epilogue

    if is_pingpong(cfg):
        return []
    coop = is_warp_specialized(cfg)
    out = [] if coop else [replace(cfg, split_k=s, split_k_mode=mode) for s in split_candidates(cfg, m, n, k, sms)
                           for mode in ("serial", "parallel")]
    if cfg.is_wgmma and not coop:  # cluster split-K (lasscc.cluster_splitk) where its rules allow
        from lasscc.cluster_splitk import config_error
        from lasscc.resources import wgmma_ring_bytes

        out += [c for c in (replace(cfg, split_k=s, split_k_mode="cluster") for s in split_candidates(cfg, m, n, k, sms))
                if config_error(c, wgmma_ring_bytes(c, elem_bytes(ab_type))) is None]
    bm, bn, bk = cfg.threadblock
    tiles, kt = -(-m // bm) * -(-n // bn), -(-k // bk)
    slots = streamk.config_ctas(cfg, elem_bytes(ab_type), sms)
    if tiles % slots and tiles * kt // slots >= SPLIT_MIN_KTILES:
        sk = replace(cfg, persistent=1) if coop else cfg
        if d_type is not None and walking_staged_epilogue(sk, ab_type, type_bytes(d_type)):
            return out
        out.append(replace(sk, split_k_mode="streamk"))
        if tiles > slots:
            out.append(replace(sk, split_k_mode="streamk-dp"))
    return out


def swap_candidates(cfg: GemmConfig, m: int, n: int, k: int, sms: int, arch: str, ab_type: str = "f16",
                    d_type: str | None = None) -> list[GemmConfig]:
    """For M <= heuristics.SWAP_AB_MAX_M < N: the SWAP_TOP swapped configs (swap_ab = 1, split-K
    parallel or none) the cost model ranks fastest (heuristics.swap_ab_ranked) at the K row and
    stages of the wgmma config `cfg` (its schedule, epilogue and decomposition left out: a swapped
    kernel is the plain one with direct stores), that the rules accept for a D of type `d_type`."""
    from dataclasses import replace

    from lasscc.heuristics import swap_ab_ranked
    from lasscc.layout import K_MAJOR

    if not cfg.is_wgmma:
        return []
    base = replace(cfg, schedule="default", persistent=0, epilogue="direct", cluster=(1, 1), split_k=1,
                   split_k_mode="serial", swap_ab=0)
    ok: list = []
    for _, c, _ in swap_ab_ranked(m, n, k, ab_type, sms, arch, base)[:SWAP_TOP]:
        _check(c, arch, ab_type, (K_MAJOR, K_MAJOR), None, ok, [], d_type)
    return ok


def second_round(ranked: list[GemmConfig], m: int, n: int, k: int, sms: int, arch: str, ab_type: str = "f16",
                 majors=None, acc_type: str | None = None, d_type: str | None = None) -> list[GemmConfig]:
    """What `tune` times after the first round, given its configs fastest first (`ranked`): the K
    decompositions (decomposition_candidates) of the SPLIT_TOP fastest plain-schedule configs and of
    the SPLIT_TOP fastest cooperative ones, the clustered variants of the SPLIT_TOP fastest, and the
    swapped configs (swap_candidates) of the fastest wgmma one; each once, none already timed."""
    from lasscc.resources import is_pingpong

    plain = [c for c in ranked if not is_warp_specialized(c)][:SPLIT_TOP]
    coop = [c for c in ranked if is_warp_specialized(c) and not is_pingpong(c)][:SPLIT_TOP]
    extra = [x for c in plain + coop for x in decomposition_candidates(c, m, n, k, sms, ab_type, d_type)]
    extra += [x for c in ranked[:SPLIT_TOP] for x in cluster_candidates(c, arch, ab_type, majors, acc_type)]
    fastest_wgmma = next((c for c in ranked if c.is_wgmma), None)
    if fastest_wgmma is not None:
        extra += swap_candidates(fastest_wgmma, m, n, k, sms, arch, ab_type, d_type)
    seen = set(ranked)
    out = []
    for c in extra:
        if c not in seen:
            seen.add(c)
            out.append(c)
    return out


def config_label(cfg: GemmConfig) -> str:
    tb, w = "x".join(map(str, cfg.threadblock)), "x".join(map(str, cfg.warp))
    if cfg.is_wgmma:  # the warp tile is the warpgroup's, nothing to choose
        return (f"wgmma {tb} / s{cfg.stages}" + (f" / {cfg.schedule}" if cfg.schedule != "default" else "")
                + (" / persistent" if cfg.persistent else "") + (f" / {cfg.epilogue} store" if cfg.epilogue != "direct" else "")
                + (f" / r{cfg.raster}" if cfg.raster != 8 else "")
                + (f" / cluster {cfg.cluster[0]}x{cfg.cluster[1]}" if tuple(cfg.cluster) != (1, 1) else "")
                + _decomposition_label(cfg))
    return f"{tb} / {w} / s{cfg.stages} / p{cfg.prefetch}" + _decomposition_label(cfg)


def _decomposition_label(cfg: GemmConfig) -> str:
    """config_label's split-K / stream-K and swap AB part."""
    return ((f" / split {cfg.split_k}{' ' + cfg.split_k_mode if cfg.split_k_mode in ('parallel', 'cluster') else ''}"
             if cfg.split_k > 1 else
             f" / {cfg.split_k_mode}" if cfg.is_streamk else "") + (" / swap AB" if cfg.swap_ab else ""))


def _tune_path() -> Path:
    from lasscc.cache import cache_dir

    return cache_dir() / TUNE_FILE


def load_tuned() -> dict:
    try:
        text = _tune_path().read_text()
    except (OSError, ValueError):  # missing, unreadable, not UTF-8
        return {}
    import json

    try:
        data = json.loads(text)
        return data if isinstance(data, dict) else {}
    except ValueError:
        return {}


def tune_key(m: int, n: int, k: int, spec, gpu: str) -> str:
    return f"{m}x{n}x{k}|{spec.a_dtype}|{spec.d_dtype}|{spec.a_layout}{spec.b_layout}{spec.d_layout}|{gpu}"


def store_tuned(key: str, cfg: GemmConfig, tflops: float) -> Path:
    path = _tune_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = load_tuned()
    data[key] = {"config": cfg.as_dict(), "tflops": round(tflops, 2), "time": time.time()}
    import json
    import tempfile

    fd, tmp = tempfile.mkstemp(dir=str(path.parent), prefix=".tuned.")
    with os.fdopen(fd, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    os.replace(tmp, path)
    return path


def lookup_tuned(a_dtype: str, d_dtype: str, layout: str, m=None, n=None, k=None, gpu=None) -> dict | None:
    """The stored winner for this problem on this GPU; else the newest for these types on this GPU;
    else the newest for these types on any GPU (what `lasscc compile`, knowing neither, gets)."""
    data = load_tuned()
    if m is not None and gpu is not None:
        hit = data.get(f"{m}x{n}x{k}|{a_dtype}|{d_dtype}|{layout}|{gpu}")
        if hit:
            return hit["config"]
    same = [(key, v) for key, v in data.items() if key.split("|")[1:4] == [a_dtype, d_dtype, layout]]
    on_gpu = [kv for kv in same if gpu is not None and kv[0].split("|")[-1] == gpu]
    pool = on_gpu or same
    return max(pool, key=lambda kv: kv[1].get("time", 0))[1]["config"] if pool else None


def _progress(i: int, n: int, text: str) -> None:
    width = 24
    done = width * i // max(n, 1)
    sys.stderr.write(f"\r[{'#' * done}{'.' * (width - done)}] {i}/{n} {text[:60]:<60}")
    sys.stderr.flush()


def _compile(module_text: str, filename: str, arch: str, cfg: GemmConfig | None):
    from lasscc.dialects.lass import GemmOp, config_to_attr
    from lasscc.driver import compile_module, make_pass, run_pass
    from lasscc.source import parse_mlir

    module = parse_mlir(module_text, filename)
    run_pass(module, make_pass("lasscc-import-linalg", arch), filename)
    if cfg is not None:
        for g in (o for o in module.walk() if isinstance(o, GemmOp)):
            keep = cfg
            if cfg.align is None and g.config is not None and "align" in g.config.data:
                # the access widths belong to the sizes (lasscc.cli._resolve_align), not the tiling
                keep = GemmConfig(**{**cfg.__dict__, "align": tuple(int(v.value.data) for v in g.config.data["align"].data)})
            g.attributes["config"] = config_to_attr(keep)
    return compile_module(module, arch, filename, keep_stages=False)  # the PTX and specs are all tune reads


def _compile_worker(module_text: str, filename: str, arch: str, cfg: GemmConfig | None):
    """_compile in a worker process: (CompileResult without its module, None) or (None, the error's
    first line).  The module stays behind: only the PTX and the specs cross the process boundary."""
    try:
        res = _compile(module_text, filename, arch, cfg)
    except LassError as e:
        return None, str(e).splitlines()[0]
    res.module = None
    return res, None


def default_jobs() -> int:
    """Compile workers when --jobs is not given: one per CPU this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def compile_all(module_text: str, filename: str, arch: str, cfgs: list[GemmConfig], jobs: int,
                label: str = "compiling") -> list[tuple]:
    """Compile every config, `jobs` at a time in worker processes (1: in this process); returns
    [(cfg, CompileResult or None, error or None)] in the order of `cfgs`.  Workers are spawned, not
    forked: the parent may hold a CUDA context, which a forked child must not inherit."""
    out: list = [None] * len(cfgs)
    if jobs <= 1 or len(cfgs) <= 1:
        for i, cfg in enumerate(cfgs):
            _progress(i, len(cfgs), f"{label} {config_label(cfg)}")
            out[i] = (cfg, *_compile_worker(module_text, filename, arch, cfg))
        return out
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=min(jobs, len(cfgs)), mp_context=multiprocessing.get_context("spawn")) as ex:
        futures = {ex.submit(_compile_worker, module_text, filename, arch, cfg): i for i, cfg in enumerate(cfgs)}
        for done, fut in enumerate(as_completed(futures)):
            i = futures[fut]
            out[i] = (cfgs[i], *fut.result())
            _progress(done + 1, len(cfgs), f"{label} {config_label(cfgs[i])}")
    return out


def _epilogue(module_text: str, filename: str):
    """The fused epilogue of the input (lasscc.interp.check.epilogue_of) for run_gemm's check, or None."""
    from lasscc.interp.check import epilogue_of
    from lasscc.source import parse_mlir

    return epilogue_of(parse_mlir(module_text, filename))


def bench(module_text: str, filename: str, arch: str, sizes: list[tuple[int, int, int]], iters: int = 50,
          plot: str | None = None, cfg: GemmConfig | None = None) -> list[dict]:
    from lasscc.runtime.gemm_runner import run_gemm

    res = _compile(module_text, filename, arch, cfg)
    spec = res.specs[0]
    epi = _epilogue(module_text, filename)
    rows = []
    for m, n, k in sizes:
        r = run_gemm(res.ptx, spec, m, n, k, alpha=spec.alpha, beta=spec.beta, check=True, bench=True, iters=iters,
                     epilogue=epi)
        rows.append({"m": m, "n": n, "k": k, **{key: r.get(key) for key in
                     ("rel_err", "ok", "ms_median", "tflops", "cublas_tflops", "ratio")}})
    if plot:
        plot_rows(rows, plot)
    return rows


def format_rows(rows: list[dict]) -> str:
    head = f"{'M':>6} {'N':>6} {'K':>6}  {'rel_err':>8}  {'ms':>8}  {'TFLOP/s':>8}  {'cuBLAS':>8}  {'ratio':>5}"
    out = [head, "-" * len(head)]
    for r in rows:
        cub = f"{r['cublas_tflops']:8.1f}" if r.get("cublas_tflops") else f"{'-':>8}"
        ratio = f"{r['ratio']:5.2f}" if r.get("ratio") else f"{'-':>5}"
        ok = "" if r.get("ok") else "  FAIL"
        out.append(f"{r['m']:>6} {r['n']:>6} {r['k']:>6}  {r['rel_err']:8.1e}  {r['ms_median']:8.3f}  "
                   f"{r['tflops']:8.1f}  {cub}  {ratio}{ok}")
    return "\n".join(out)


def plot_rows(rows: list[dict], path: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise LassError("option --plot: matplotlib is not installed (pip install 'lasscc[plot]')") from None
    labels = [f"{r['m']}x{r['n']}x{r['k']}" for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(labels, [r["tflops"] for r in rows], "o-", label="lasscc")
    if any(r.get("cublas_tflops") for r in rows):
        ax.plot(labels, [r.get("cublas_tflops") or 0 for r in rows], "s--", label="cuBLAS (torch)")
    ax.set_ylabel("TFLOP/s")
    ax.set_xlabel("M x N x K")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    import io

    from lasscc.outfile import write_output

    buf = io.BytesIO()
    fig.savefig(buf, dpi=120, format=Path(path).suffix.lstrip(".").lower() or "png")
    plt.close(fig)
    write_output(path, buf.getvalue(), "--plot")


def tune(module_text: str, filename: str, arch: str, m: int, n: int, k: int, iters: int = 20,
         ab_type: str = "f16", mma: str | None = None, majors=None, acc_type: str | None = None,
         jobs: int | None = None, d_type: str | None = None) -> dict:
    """Time every candidate of family `mma` (None: default_family(arch)) for A/B elements `ab_type`
    (tiles stored `majors`, accumulator `acc_type`, D `d_type`) at M x N x K, check the winner, store it.
    The candidates compile `jobs` at a time in worker processes (default_jobs()), then run one after
    another on the GPU; the result's `compile_s` / `time_s` are the wall seconds of each part."""
    from lasscc.runtime import cuda
    from lasscc.runtime.gemm_runner import run_gemm

    jobs = default_jobs() if jobs is None else jobs
    ok, rejected = candidates(arch, ab_type, mma or default_family(arch), majors, acc_type, d_type)
    epi = _epilogue(module_text, filename)
    results = []
    spent = {"compile": 0.0, "time": 0.0, "n": 0}

    def compile_and_time(cfgs: list[GemmConfig], epilogue) -> None:
        t0 = time.perf_counter()
        compiled = compile_all(module_text, filename, arch, cfgs, jobs)
        t1 = time.perf_counter()
        for i, (cfg, res, err) in enumerate(compiled):
            if err is not None:  # a config that compiles badly or fails to launch is skipped, not fatal
                rejected.append((cfg, err))
                continue
            _progress(i, len(compiled), f"timing {config_label(cfg)}")
            try:
                r = run_gemm(res.ptx, res.specs[0], m, n, k, check=False, bench=True, iters=iters, cublas=False,
                             epilogue=epilogue)
                results.append((r["tflops"], cfg, res))
            except LassError as e:
                rejected.append((cfg, str(e).splitlines()[0]))
        spent["compile"] += t1 - t0
        spent["n"] += len(cfgs)
        spent["time"] += time.perf_counter() - t1

    compile_and_time(ok, epi)
    if results:  # split counts, stream-K, clusters and swap AB for the fastest configs (second_round)
        results.sort(key=lambda t: -t[0])
        compile_and_time(second_round([c for _, c, _ in results], m, n, k, cuda.sm_count(), arch, ab_type, majors,
                                      acc_type, d_type), None)
    _progress(len(ok), len(ok), "done")
    sys.stderr.write("\n")
    if not results:
        raise LassError("lasscc tune: no candidate config ran")
    results.sort(key=lambda t: -t[0])
    best_tflops, best, res = results[0]
    spec = res.specs[0]
    check = run_gemm(res.ptx, spec, m, n, k, alpha=spec.alpha, beta=spec.beta, check=True, bench=True, iters=iters,
                     epilogue=epi)
    if not check["ok"]:
        raise LassError(f"lasscc tune: the winner {config_label(best)} failed its check (rel_err {check['rel_err']:.2e})")
    key = tune_key(m, n, k, spec, cuda.device_name())
    path = store_tuned(key, best, check["tflops"])
    return {"ranking": [(t, config_label(c)) for t, c, _ in results], "rejected": rejected, "best": best,
            "check": check, "key": key, "path": str(path), "compile_s": spent["compile"], "time_s": spent["time"],
            "jobs": jobs, "compiled": spent["n"]}
