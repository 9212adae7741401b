"""The shape-aware default config (issue 17): tile, split-K or stream-K and stages from M, N, K,
the element type and the GPU's SM count, for an input that gives no `config` and has no stored
`lasscc tune` winner (`lasscc run`, `bench`, the API's `gemm(shape=...)`).

The instruction family is decided elsewhere (lasscc.family on sm_90a).  Given a wgmma `base` (the
family's config), `choose_wgmma` picks the tile and parallel split count by a cost model (below,
`wgmma_time`; the family's tiles at its stages: the narrow SKINNY_TILES measured slower), then a
data-parallel pick whose tiles fill the SMs takes the persistent cooperative TMA-store kernel
(`data_parallel_kernel`); otherwise the mma.sync rules, in order:

1. Tile: the default 128 x 128 tile (lasscc.config.default_config: BK = 64 bytes of K) -- the
   measured best mma.sync tile, also for skinny M, where the GEMM is bound by reading B and the
   grid is filled by splitting K instead of shrinking the tile (issue 17: 16 x 4096 x 4096 went
   9.2 -> 27.4 TFLOP/s with parallel split 8 at 128 x 128).
2. Slots: the CTAs resident at once, SM count x CTAs per SM (lasscc.streamk.ctas_per_sm).  A
   grid of `units` CTAs runs in ceil(units / slots) waves; its wave efficiency is
   units / (waves * slots) (`wave_efficiency`).
3. Enough tiles (efficiency >= WAVE_EFFICIENCY, or at least DP_WAVES waves): data-parallel.
4. Fewer tiles than slots (small or skinny output, long K): split-K with the count S whose grid
   tiles * S has the best wave efficiency, each partition keeping MIN_SPLIT_KTILES k-tiles, in the
   parallel mode (measured on the H100 faster than serial at every shape tried: the serial
   partitions wait on each other's epilogues, BENCHMARKS.md session 8).  When no S reaches
   WAVE_EFFICIENCY (too few k-tiles to split evenly): stream-K, which balances exactly.
5. Between one and DP_WAVES waves with a poor last wave: the hybrid "streamk-dp" (full waves
   data-parallel, the tail shared out stream-K), when a tile has MIN_SPLIT_KTILES k-tiles.
6. Stages: LONG_K_STAGES when the main loop is long (each CTA's K range >= LONG_K_KTILES
   k-tiles) and the config still validates, else the default's.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from lasscc import streamk
from lasscc.config import GemmConfig, default_config
from lasscc.diagnostics import LassError
from lasscc.layout import elem_bytes

WAVE_EFFICIENCY = 0.85  # a grid whose last wave leaves < 15% of the slots idle counts as full
DP_WAVES = 4  # from this many waves on, the last wave's idle slots cost <= 1/4 of a wave: data-parallel
MIN_SPLIT_KTILES = 4  # a K partition (or stream-K share) keeps this many k-tiles, so the pipeline fills
MAX_SPLIT = 16  # the largest split count tried (lasscc.tune's SEARCH_SPLITS go as far)
PARTIAL_BYTES = 4  # parallel split-K's f32 / i32 partial sums (lasscc.splitk.PARTIAL_BYTES)
LONG_K_KTILES = 64  # a CTA's main loop this long takes LONG_K_STAGES stages (more loads in flight)
LONG_K_STAGES = 4


@dataclass(frozen=True)
class Choice:
    """The chosen config (mma.sync) and why, one reason per rule that decided."""

    config: GemmConfig
    reasons: list[str] = field(default_factory=list)
    slots: int = 0  # resident CTAs the choice assumed (SMs x CTAs per SM)

    def describe(self) -> str:
        return "; ".join(self.reasons)


def wave_efficiency(units: int, slots: int) -> float:
    """units / (ceil(units / slots) * slots): the busy fraction of the slots over all waves."""
    waves = -(-units // slots)
    return units / (waves * slots)


def choose(m: int, n: int, k: int, ab_type: str = "f16", sms: int | None = None, arch: str = "sm_80",
           d_type: str | None = None, base: GemmConfig | None = None, d_row: int | None = None) -> Choice:
    """The shape-aware config for an M x N x K GEMM with A/B elements `ab_type` (D: `d_type`, rows of
    `d_row` elements, None: N; they choose a data-parallel wgmma pick's kernel) on a GPU of `sms` SMs
    (None: an H100's, lasscc.streamk.H100_SMS), decomposing the tile of `base` (None: the mma.sync
    default_config; a wgmma config, lasscc.family's, on sm_90a: split-K but no stream-K, which is
    built on the mma.sync path only: `choose_wgmma` picks its tile and split count by a cost model).
    Raises LassError for non-positive sizes."""
    for name, v in (("M", m), ("N", n), ("K", k)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise LassError(f"lasscc.heuristics: expected a positive integer {name}, got {v!r}")
    sms = int(sms or streamk.H100_SMS)
    if base is not None and base.is_wgmma:
        return choose_wgmma(m, n, k, ab_type, sms, arch, base, d_type, d_row)
    base = base or default_config(ab_type)
    bm, bn, bk = base.threadblock
    eb = elem_bytes(ab_type)
    per_sm = streamk.ctas_per_sm(base.threads, base.smem_bytes(eb))
    slots = sms * per_sm
    tiles = -(-m // bm) * -(-n // bn)
    kt = -(-k // bk)
    reasons = [f"{tiles} tiles of {bm}x{bn} on {sms} SMs x {per_sm} CTAs = {slots} slots, {kt} k-tiles of BK {bk}"]
    eff = wave_efficiency(tiles, slots)
    cfg = base
    k_per_cta = kt
    if eff >= WAVE_EFFICIENCY or tiles >= DP_WAVES * slots:
        reasons.append(f"data-parallel: wave efficiency {eff:.2f}" + (f" over {tiles / slots:.1f} waves"
                                                                     if tiles >= slots else ""))
    elif tiles < slots:
        splits = [s for s in range(2, MAX_SPLIT + 1) if kt // s >= MIN_SPLIT_KTILES]
        best = max(splits, key=lambda s: (round(wave_efficiency(tiles * s, slots), 6), -s), default=None)
        if best is not None and wave_efficiency(tiles * best, slots) >= WAVE_EFFICIENCY:
            partials = PARTIAL_BYTES * best * m * n
            operands = (m + n) * k * eb
            mode = "parallel"  # measured faster than serial at every shape tried (BENCHMARKS.md, session 8)
            cfg = replace(base, split_k=best, split_k_mode=mode)
            k_per_cta = -(-kt // best)
            reasons.append(f"{tiles} tiles under one wave: split-K {best} ({tiles * best} CTAs, wave efficiency "
                           f"{wave_efficiency(tiles * best, slots):.2f}), {mode}: partial sums {partials} B, "
                           f"A and B {operands} B"
                           + (" (skinny M)" if m < bm else ""))
        elif best is not None and base.is_wgmma:  # (no stream-K on the wgmma path)
            cfg = replace(base, split_k=best, split_k_mode="parallel")
            k_per_cta = -(-kt // best)
            reasons.append(f"{tiles} tiles under one wave: split-K {best} ({tiles * best} CTAs), parallel (mma = wgmma: "
                           f"no stream-K)")
        elif (kt >= MIN_SPLIT_KTILES or tiles * kt >= slots) and not base.is_wgmma:
            cfg = replace(base, split_k_mode="streamk")
            k_per_cta = -(-tiles * kt // slots)
            reasons.append(f"{tiles} tiles under one wave and no split count fills it evenly: stream-K "
                           f"({tiles * kt} iterations over {slots} CTAs)")
        else:
            reasons.append(f"data-parallel: {kt} k-tiles are too few to split")
    elif kt >= MIN_SPLIT_KTILES and not base.is_wgmma:
        cfg = replace(base, split_k_mode="streamk-dp")
        reasons.append(f"{tiles / slots:.2f} waves, the last {eff:.2f} full: stream-K for the tail, full waves "
                       f"data-parallel (streamk-dp)")
    else:
        reasons.append(f"data-parallel: wave efficiency {eff:.2f}, {kt} k-tiles too few to share out")
    if k_per_cta >= LONG_K_KTILES and cfg.stages < LONG_K_STAGES:
        longer = replace(cfg, stages=LONG_K_STAGES)
        try:
            longer.validate(arch, ab_type=ab_type)
            cfg = longer
            reasons.append(f"{LONG_K_STAGES} stages: each CTA's main loop runs {k_per_cta} k-tiles")
        except LassError:
            pass
    cfg.validate(arch, ab_type=ab_type)
    return Choice(cfg, reasons, slots)


def wgmma_base(ab_type: str, arch: str) -> GemmConfig | None:
    """The wgmma config lasscc.family takes by default for a TN GEMM of `ab_type` on `arch` (the
    first of family.wgmma_configs the rules accept), or None (not sm_90a, or none fits): the base
    the API and scripts/skinny_bench.py hand `choose` (the CLI asks the family about its lass.gemm)."""
    from lasscc.family import wgmma_configs
    from lasscc.resources import WGMMA_ARCHS

    if arch not in WGMMA_ARCHS:
        return None
    for cfg in wgmma_configs(replace(default_config(ab_type), align=None), ab_type):
        try:
            cfg.validate(arch, ab_type=ab_type)
            return cfg
        except LassError:
            continue
    return None


# The wgmma cost model (`choose_wgmma`), fitted (least squares on log time, the constants marked
# "fit") by scripts/fit_costmodel.py --fit to the 99 H100 timings of session 8 (the tile sweep and
# the cost-model run: benchmarks/skinny_tile_sweep_2026-11-24-s8.log, skinny_costmodel_2026-11-24-s8.log)
# and session 9 (benchmarks/skinny-2026-11-24-s9.log): rms error of log time 0.207.  A CTA's time is
# its k-tiles at the slower of the tensor cores and its share of the memory system, plus a fixed
# cost; the grid runs in waves and is bounded below by reading A and B once from HBM; parallel
# split-K adds its partial sums' traffic and the reduction launch.  Its test: on the measured configs
# it picks the measured fastest (within 3%) for every shape of issue 17's table
# (tests/unit/test_heuristics.py).  Session 9 tried a per-CTA latency floor (a k-tile's TMA round
# trip over `stages`) with narrow tiles (BN 64 / 32 / 16) at 6-8 stages: it lowered the rms error on
# session 8's timings, but the GPU ran its picks 2-35% slower (BENCHMARKS.md, session 9) -- more
# stages did not buy what the floor promised -- so neither is in the model.
WG_PEAK_FLOPS_PER_SM = 5.5e12  # dense f16 wgmma per SM, sustained (~730 TFLOP/s / 132 SMs); x 2 / element bytes
WG_BYTES_PER_SM = 80e9  # operand bytes per second one SM's TMA loads sustain beside the others (fit)
WG_CTA_FIXED_S = 5.6e-6  # prologue, pipeline fill and epilogue of one CTA (fit)
WG_REDUCE_BYTES_PER_S = 8.8e12  # parallel split-K's partial sums written and read back, in L2 (fit)
WG_REDUCE_LAUNCH_S = 4.7e-6  # the reduction kernel's launch and the GEMM kernel's drain before it (fit)
HBM_BYTES_PER_S = 3.35e12  # H100 SXM5 HBM3 (NVIDIA's datasheet): A and B are read at least once
WG_SPLITS = (1, 2, 4, 8, 16)
# Cluster split-K (lasscc.cluster_splitk, `split_k_mode = "cluster"`): the K partitions of a tile are
# a cluster's CTAs, reduced through DSMEM -- no partial sums through L2 and no reduction launch, but
# each CTA stores its partial tile to shared memory and its peers read it back across the cluster
# behind two cluster barriers: a fixed cost and one per partial byte, fitted (a grid over the two, the
# other constants kept) to session 11's 52 H100 timings of S = 2 (benchmarks/skinny-cluster-sweep-2026-11-24-s11.log,
# rms error of log time 0.199 on them, 0.241 over all 194 points) (BENCHMARKS.md: 0.87x cuBLAS at 128 x 4096 x 4096 against the
# unsplit 64x64's 0.65).  Only S = 2 is a candidate: S = 4 and 8 measured slower than S = 2 at every
# tile and shape of session 11 (a cluster of 4 CTAs of one SM each must fit a GPC).  The candidates
# take WG_CLUSTER_STAGES stages where they fit (128x64, S = 2, 128 x 4096 x 4096: 4 stages 0.76x,
# 6 0.80x, 8 0.87x cuBLAS; the model has no stage term).
WG_CLUSTER_SPLITS = (2,)
WG_CLUSTER_STAGES = 8
# the cluster candidates' tiles: 128x64 (S = 2, 8 stages) is the measured fastest config of session 11 at
# 128 x 4096 x 4096 (0.84-0.87x cuBLAS); the family's tiles as cluster candidates were measured slower at
# every sweep shape, but the model (no L2-reuse or stage term) prices 64x128 like 128x64 and 64x64 / 8
# stages below swap AB at 16 x 4096 x 4096, so they are not weighed
WG_CLUSTER_TILES = ((128, 64),)
WG_CLUSTER_FIXED_S = 1.25e-6  # the two cluster barriers and the partial's store (fit)
WG_CLUSTER_BYTES_PER_S = 50e9  # one CTA's partial tile through shared memory and DSMEM (fit)
# Narrow tiles for a skinny or small output, (BM, BN, bytes of a K row), and the stage counts they
# were measured at: valid explicit configs (`lasscc tune`, a config in the input; CPU-checked in
# tests/unit/test_skinny.py) but not the default's candidates -- on the H100 none beat the
# family's tiles at any table shape (session 9: 0.31-0.59x cuBLAS at 16 / 128 rows).
SKINNY_TILES = ((128, 64, 128), (128, 32, 128), (64, 32, 128), (64, 16, 128))
SKINNY_STAGES = (4, 6, 8)


def wgmma_time(m: int, n: int, k: int, cfg: GemmConfig, ab_type: str, sms: int) -> float:
    """The cost model's seconds for an M x N x K GEMM with wgmma config `cfg` on `sms` SMs."""
    return wgmma_cost(m, n, k, cfg, ab_type, sms)[0]


def wgmma_cost(m: int, n: int, k: int, cfg: GemmConfig, ab_type: str, sms: int) -> tuple[float, str]:
    """`wgmma_time`'s seconds and the term that bound them, in words (for `choose_wgmma`'s note).  A
    swapped config (swap_ab = 1) is priced on the kernel's N x M x K problem (its tiles are D^T's)."""
    from lasscc.config import swap_operands
    from lasscc.schedule import launch_ctas

    m, n = swap_operands((m, n), bool(cfg.swap_ab))
    bm, bn, bk = cfg.threadblock
    eb = elem_bytes(ab_type)
    per_sm = streamk.ctas_per_sm(cfg.threads, cfg.smem_bytes(eb))
    tiles = -(-m // bm) * -(-n // bn)
    units = tiles * cfg.split_k
    if cfg.persistent:  # min(tiles, SMs) CTAs, one per SM, walk the tiles in raster order: the busiest
        per_sm = 1  # walks ceil(tiles / CTAs) of them, as many as the waves of a one-CTA-per-SM grid
        waves = -(-units // launch_ctas(units, True, sms=sms))
    else:
        waves = -(-units // (sms * per_sm))
    sharing = min(per_sm, -(-units // sms))  # CTAs sharing one SM's tensor cores and bandwidth
    k_tile, bound = max((2 * bm * bn * bk / (WG_PEAK_FLOPS_PER_SM * 2 / eb / sharing), "tensor cores"),
                        ((bm + bn) * bk * eb / (WG_BYTES_PER_SM / sharing), "TMA bandwidth"))
    k_per_cta = -(-(-(-k // bk)) // cfg.split_k)
    t = waves * (k_per_cta * k_tile + WG_CTA_FIXED_S)
    t, bound = max((t, f"k-tiles bound by {bound}"), ((m + n) * k * eb / HBM_BYTES_PER_S,
                                                      "reading A and B once from HBM"))
    if cfg.split_k > 1 and cfg.split_k_mode == "cluster":  # the DSMEM reduction, in each CTA
        from lasscc.cluster_splitk import partial_bytes

        t += waves * (WG_CLUSTER_FIXED_S + partial_bytes((bm, bn)) / WG_CLUSTER_BYTES_PER_S)
    elif cfg.split_k > 1:
        t += (2 * cfg.split_k + 1) * m * n * PARTIAL_BYTES / WG_REDUCE_BYTES_PER_S + WG_REDUCE_LAUNCH_S
    return t, bound


def wgmma_candidates(base: GemmConfig, ab_type: str):
    """The tiles `choose_wgmma` weighs: lasscc.family's default tiles at `base`'s stages and K row
    (not SKINNY_TILES: measured slower, see above)."""
    from lasscc.family import wgmma_configs

    for tile in wgmma_configs(base, ab_type, keep_stages=True):
        if tile.threadblock[2] == base.threadblock[2]:  # the family's K row (128 bytes: the widest swizzle)
            yield tile


def cluster_tiles(base: GemmConfig):
    """WG_CLUSTER_TILES at `base`'s K row and stages (cluster_stages raises the stages)."""
    from lasscc.resources import wgmma_defaults

    for bm, bn in WG_CLUSTER_TILES:
        tb = (bm, bn, base.threadblock[2])
        yield replace(base, threadblock=tb, **wgmma_defaults(tb, base.instruction[2]))


def cluster_stages(cfg: GemmConfig, arch: str, ab_type: str) -> GemmConfig:
    """A cluster split-K candidate at the most stages up to WG_CLUSTER_STAGES the rules accept (its
    own stages when none above them does); any other config as it is."""
    if cfg.split_k_mode != "cluster":
        return cfg
    for st in range(WG_CLUSTER_STAGES, cfg.stages, -1):
        try:
            more = replace(cfg, stages=st)
            more.validate(arch, ab_type=ab_type)
            return more
        except LassError:
            continue
    return cfg


def choose_wgmma(m: int, n: int, k: int, ab_type: str, sms: int, arch: str, base: GemmConfig,
                 d_type: str | None = None, d_row: int | None = None) -> Choice:
    """The wgmma tile (`wgmma_candidates`) and parallel split count with the least
    `wgmma_time`, among those the rules accept (each partition MIN_SPLIT_KTILES k-tiles), then the
    kernel of a data-parallel pick (`data_parallel_kernel`, D of MLIR type `d_type`); the notes
    name the term that bound the modelled time and the kernel's reason."""
    eb = elem_bytes(ab_type)
    best = None
    tiles = list(wgmma_candidates(base, ab_type))
    for tile in tiles + list(cluster_tiles(base)):
        family = tile in tiles  # (the family's tiles parallel / unsplit, WG_CLUSTER_TILES cluster split-K)
        for s, mode in ([(s, "parallel" if s > 1 else "serial") for s in WG_SPLITS] if family else
                        [(s, "cluster") for s in WG_CLUSTER_SPLITS]):
            if s > 1 and -(-k // tile.threadblock[2]) // s < MIN_SPLIT_KTILES:
                continue
            cfg = cluster_stages(replace(tile, split_k=s, split_k_mode=mode), arch, ab_type)
            try:
                cfg.validate(arch, ab_type=ab_type)
            except LassError:
                continue
            t, bound = wgmma_cost(m, n, k, cfg, ab_type, sms)
            if best is None or t < best[0]:
                best = (t, cfg, bound)
    if best is None:
        return choose(m, n, k, ab_type, sms, arch)  # no wgmma tile fits: the mma.sync default
    swapped = choose_swap_ab(m, n, k, ab_type, sms, arch, base, best[0])  # small M: see "swap AB" below
    if swapped is not None:
        return swapped
    t, cfg, bound = best
    bm, bn, bk = cfg.threadblock
    tiles = -(-m // bm) * -(-n // bn)
    why = (f"wgmma cost model: {bm}x{bn}x{bk}, {cfg.stages} stages"
           + (f", split-K {cfg.split_k} {cfg.split_k_mode}" if cfg.split_k > 1 else "")
           + (" (a cluster per tile, reduced through DSMEM: no workspace, no reduction kernel)"
              if cfg.split_k_mode == "cluster" else "")
           + f", {tiles * cfg.split_k} CTAs on {sms} SMs, ~{2 * m * n * k / t / 1e12:.0f} TFLOP/s modelled ({bound})")
    cfg, kernel_why = data_parallel_kernel(cfg, m, n, sms, arch, ab_type, d_type, d_row)
    reasons = [why] + ([kernel_why] if kernel_why else [])
    return Choice(cfg, reasons, sms * streamk.ctas_per_sm(cfg.threads, cfg.smem_bytes(eb)))


# The data-parallel sm_90a kernel (issue 15): a wgmma pick with split_k == 1 whose tiles fill the SMs
# takes CUTLASS's kernel, a producer warpgroup ("cooperative"), one CTA per SM walking the tiles
# (persistent: the producer loads the next tile's k-tiles during the epilogue) and the TMA-store
# epilogue.  Measured on the H100 at 4096³ / 8192³, 128x256x64 / 4 stages (BENCHMARKS.md session 9,
# benchmarks/hopper-best-2026-11-24-s9.log, hopper-tma-2026-11-24-s9.log): f16 -> f32 0.985 / 1.003x
# cuBLAS (plain kernel 0.943 / 0.976), f16 -> f16 0.996 / 1.013x (0.964 / 0.896), bf16 -> bf16 0.991 /
# 1.020x.  The persistent kernel with direct stores measured no better (f32 D 0.963 / 0.924), so the
# three come together or not at all.  Split-K / stream-K picks keep the plain kernel (the cooperative
# producer loops over all of K; the TMA store would race their semaphore: resources.epilogue_error).
DP_KERNEL = {"schedule": "cooperative", "persistent": 1, "epilogue": "tma"}
# Its last part-wave shared out stream-K (split_k_mode = "streamk-tail") is not taken: its fix-up (a
# 128 x 256 f32 partial stored and read back per split tile) costs ~18 k-tiles per CTA, more than the
# part-wave idles at 4096³ (7.8: 3.3 % slower at free clocks, 3.9 % at locked); at 8192³ (62 idle) it
# gains 0.6-2.5 % at locked clocks but not at free clocks, where the power-bound GPU clocks the busy
# SMs up while the part-wave leaves others idle (BENCHMARKS.md session 13).
# Down to half a wave of tiles: with one tile per CTA there is no next tile to load during the epilogue,
# but the TMA store alone still pays: 2048³ (128 tiles of 128x256 on 132 SMs) measured 0.991 (f16 D) /
# 0.994 (f32 D) x cuBLAS against the plain kernel's 0.961, one call (BENCHMARKS.md session 10,
# benchmarks/hopper-variants-sizes-2026-11-24-s10.log).  Fewer tiles than that are unmeasured.
DP_KERNEL_MIN_TILES_PER_SM = 0.5


def data_parallel_kernel(cfg: GemmConfig, m: int, n: int, sms: int, arch: str, ab_type: str,
                         d_type: str | None, d_row: int | None = None) -> tuple[GemmConfig, str | None]:
    """`cfg` (a wgmma pick of `choose_wgmma` for an M x N output on `sms` SMs, D of MLIR type
    `d_type`) with DP_KERNEL's keys when it is data-parallel, leaves schedule / persistent / epilogue
    at their defaults, has at least DP_KERNEL_MIN_TILES_PER_SM x `sms` tiles, and the rules
    (GemmConfig.validate: the cooperative schedule's BM = 128, the TMA store's D type and N, shared
    memory with the staging buffers) accept it, with D's rows 16-byte multiples (else the kernel
    takes the direct stores: no TMA store; `d_row`: D's contiguous extent, M for a column-major D,
    None: N); and the reason, in words (None: nothing to say)."""
    from lasscc.resources import TMA_STORE_D_TYPES
    from lasscc.sm90_layout import TMA_GLOBAL_ALIGN

    plain = (cfg.schedule, cfg.persistent, cfg.epilogue) == ("default", 0, "direct")
    if not cfg.is_wgmma or cfg.split_k != 1 or cfg.is_streamk or not plain:
        return cfg, None
    tiles = cfg.tiles(m, n)
    keep = "plain kernel (no schedule, not persistent, direct epilogue)"
    if tiles < DP_KERNEL_MIN_TILES_PER_SM * sms:
        return cfg, f"{keep}: {tiles} tiles < {DP_KERNEL_MIN_TILES_PER_SM:g} x {sms} SMs (unmeasured there)"
    row = n if d_row is None else d_row
    if d_type not in TMA_STORE_D_TYPES or row * TMA_STORE_D_TYPES[d_type] % TMA_GLOBAL_ALIGN:
        why = ("D's type unknown" if d_type is None else f"a {d_type} D" if d_type not in TMA_STORE_D_TYPES
               else f"D's rows of {row} elements are not {TMA_GLOBAL_ALIGN}-byte multiples")
        return cfg, f"{keep}: {why}, no TMA store"
    new = replace(cfg, **DP_KERNEL)
    try:
        new.validate(arch, ab_type=ab_type, d_type=d_type)
    except LassError as e:
        return cfg, f"{keep}: {str(e).removeprefix('config: ')}"
    ctas = min(tiles, sms)
    return new, (f"schedule = \"cooperative\", persistent = 1, epilogue = \"tma\": data-parallel, {tiles} tiles "
                 f"walked by {ctas} CTAs (one per SM, up to {-(-tiles // ctas)} tiles each), D stored by TMA "
                 f"(measured 0.99-1.02x cuBLAS at 4096³ / 8192³, BENCHMARKS.md session 9)")


# ---- swap AB: a skinny M on the wgmma path (issue 17) -------------------------------------------
# wgmma's M is 64 rows per instruction, so M = 16 leaves 3/4 of every MMA idle and M = 128 makes
# few CTAs.  CUTLASS / cuBLAS / TensorRT-LLM swap the operands: D^T = B^T . A^T (config swap_ab = 1),
# the small M the kernel's N (a wgmma N of 16 .. 128) and the large N its M (many 64 / 128-row
# tiles, and split-K for more CTAs).  `choose_swap_ab` prices the swapped problem (N x M x K) by the
# same cost model over SWAP_AB_TILES and WG_SPLITS and takes it only when strictly cheaper than the
# best unswapped config: the model was fitted on unswapped timings, so a tie keeps a measured kind.
# To be measured on the H100 (scripts/skinny_bench.py --swap); SWAP_AB_MAX_M = 0 turns it off.
SWAP_AB_MAX_M = 128  # M up to two wgmma M-steps: beyond, the unswapped grid has rows enough
# A swapped grid of fewer CTAs than SMs is latency-bound, which the cost model (no per-CTA latency term,
# see above) does not see: 16 x 4096 x 4096 as 64x16 tiles of D^T measured 19.9 us unsplit (64 CTAs)
# against 11.9 us with split 4 parallel (256 CTAs; 0.93-0.95x cuBLAS), split 8 12.3 us (BENCHMARKS.md
# session 10, benchmarks/skinny-variants-streamk-2026-11-24-s10.log): only swapped grids of at least
# one CTA per SM are candidates.
SWAP_AB_MIN_CTAS_PER_SM = 1
SWAP_AB_TILES = ((128, 16), (128, 32), (64, 16), (64, 32), (128, 64), (64, 64), (128, 128))  # kernel (BM, BN)


def swap_ab_candidates(base: GemmConfig, ab_type: str):
    """The swapped configs `choose_swap_ab` weighs: SWAP_AB_TILES at `base`'s K row and stages, each
    split count of WG_SPLITS (parallel), swap_ab = 1; those the rules reject are left out."""
    from lasscc.resources import wgmma_defaults

    for bm, bn in SWAP_AB_TILES:
        tb = (bm, bn, base.threadblock[2])
        for s in WG_SPLITS:
            yield replace(base, threadblock=tb, split_k=s, split_k_mode="parallel" if s > 1 else "serial", swap_ab=1,
                          **wgmma_defaults(tb, base.instruction[2]))


def swap_ab_ranked(m: int, n: int, k: int, ab_type: str, sms: int, arch: str,
                   base: GemmConfig) -> list[tuple[float, GemmConfig, str]]:
    """For M <= SWAP_AB_MAX_M < N: [(modelled seconds, swapped config, bound)] of the
    `swap_ab_candidates` that keep each partition MIN_SPLIT_KTILES k-tiles, make a grid of
    SWAP_AB_MIN_CTAS_PER_SM x `sms` CTAs or more and pass the rules, fastest first (priced by
    `wgmma_cost` on the swapped N x M x K problem); else []."""
    if not m <= SWAP_AB_MAX_M < n:
        return []
    out = []
    for cfg in swap_ab_candidates(base, ab_type):
        if cfg.split_k > 1 and -(-k // cfg.threadblock[2]) // cfg.split_k < MIN_SPLIT_KTILES:
            continue
        if cfg.tiles(m, n) * cfg.split_k < SWAP_AB_MIN_CTAS_PER_SM * sms:
            continue
        try:
            cfg.validate(arch, ab_type=ab_type)
        except LassError:
            continue
        t, bound = wgmma_cost(m, n, k, cfg, ab_type, sms)
        out.append((t, cfg, bound))
    return sorted(out, key=lambda x: x[0])  # (stable: a tie keeps swap_ab_candidates' order)


def choose_swap_ab(m: int, n: int, k: int, ab_type: str, sms: int, arch: str, base: GemmConfig,
                   unswapped_s: float) -> Choice | None:
    """The fastest of `swap_ab_ranked` when its modelled time is below `unswapped_s` (the best
    unswapped config's), else None; the note says it swapped and why."""
    eb = elem_bytes(ab_type)
    ranked = swap_ab_ranked(m, n, k, ab_type, sms, arch, base)
    if not ranked or ranked[0][0] >= unswapped_s:
        return None
    t, cfg, bound = ranked[0]
    bm, bn, bk = cfg.threadblock
    tiles = cfg.tiles(m, n)
    from lasscc.resources import WGMMA_M

    idle = 1 - m / (-(-m // WGMMA_M) * WGMMA_M)  # of the unswapped kernel's wgmma rows
    why = (f"wgmma cost model: swap AB (D^T = B^T . A^T): M = {m} is the kernel's N, {bn}-wide wgmma N tiles "
           f"(unswapped, {idle:.0%} of each 64-row wgmma M idle, {-(-m // WGMMA_M)} tile row(s)); "
           f"{bm}x{bn}x{bk}, {cfg.stages} stages"
           + (f", split-K {cfg.split_k} parallel" if cfg.split_k > 1 else "")
           + f", {tiles * cfg.split_k} CTAs on {sms} SMs, ~{2 * m * n * k / t / 1e12:.0f} TFLOP/s modelled ({bound}; "
           f"unswapped ~{2 * m * n * k / unswapped_s / 1e12:.0f})")
    return Choice(cfg, [why], sms * streamk.ctas_per_sm(cfg.threads, cfg.smem_bytes(eb)))
