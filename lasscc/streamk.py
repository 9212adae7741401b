"""Stream-K: the one place its schedule, its fix-up rules and its formulas live (issue 17).

A stream-K kernel (`GemmConfig.split_k_mode` one of MODES: "streamk", "streamk-dp", "streamk-tail"; split_k = 1) is
launched as a persistent grid of G CTAs, G = the GPU's SM count x CTAs per SM (`grid_ctas`: a
launch-time fact; the kernel reads it as %nctaid.x, the CPU executor uses a small one).  The T
output tiles of BM x BN each take KT = ceil(K / BK) MAC iterations (k-tiles):

  - "streamk": all T * KT iterations are dealt to the G CTAs in equal shares (`cta_range`: the
    partition of lasscc.splitk.partition_tiles, the first (T*KT) mod G CTAs one iteration more);
  - "streamk-dp" (the hybrid "data-parallel + one stream-K wave"): when T is not a multiple of G,
    the first (T // G - 1) full waves of tiles are data-parallel (`dp_tiles`: CTA c takes tiles
    c, c + G, ...) and only the rest (between G and 2G tiles) is shared out as above; a T that
    fills whole waves is all data-parallel.
  - "streamk-tail" (data-parallel + the part-wave stream-K): every full wave, T // G of them, is
    data-parallel and only the T mod G tiles of the last part-wave are shared out.  Each CTA's
    share is then under one tile's KT iterations, so its units are at most the head of one tile
    (from k-tile 0) and the tail of the tile before: every CTA starts its head at k-tile 0 when
    the data-parallel waves end, and reaches a tail's k-tile k at about the same time as the
    others (its head is as much shorter as its tail starts later), so the CTAs read the same K
    slices of A and B at once, as a data-parallel wave does (L2 reuse); "streamk-dp"'s shares of
    1-2 tiles put the CTAs at unrelated K offsets over twice the tiles.

A CTA's work is a list of units (`cta_units`, `unit`): its data-parallel tiles, then the tiles its
iteration range touches, from the highest to the lowest (CUTLASS's order), each with a K range of
whole k-tiles [lo, hi) of that tile and its segment number: the segments of a tile are numbered in
K order (segment s is CTA `owner(first iteration) + s`), so a tile's segment 0 is the start of its
CTA's range (done first) and the segment that finishes it (hi = KT) is its CTA's last unit.

The fix-up goes through an f32 workspace (CUTLASS's stream-K fix-up; i32 partials for i8 inputs):
each CTA's range ends inside at most one tile it does not finish (its first unit, the highest tile),
so the workspace holds one partial-sum slot of BM x BN words and one flag word per CTA
(`workspace_bytes`, `partial_word`, `flag_word`):

  - a segment that does not finish its tile (hi < KT) stores its raw accumulator to its CTA's slot
    (`lass_tb.partial_store`; in the kernel's own order, coalesced: only the same kernel reads it),
    then releases its flag = 1 (bar.sync; st.release.gpu) and never touches D;
  - the segment that finishes the tile (hi = KT, segment s) waits (acquire) for the flags of its s
    predecessors, CTAs cta - s .. cta - 1, and adds their partials to its accumulator in that fixed
    order (`lass_tb.partial_add`: deterministic, whatever order the CTAs ran in), resetting each
    flag to 0 (the workspace's flags are left zero for the next launch); then it applies alpha,
    beta * C and a fused epilogue once, on the full sum, and stores D.

Only the finisher waits, and only on lower CTAs' first units, so there is no serial chain through
D and, with the GPU dispatching CTAs in increasing order (the persistent grid is resident at once
anyway), no deadlock.  The partial slots need no initial value; the flags must be zero before the
first launch.

Every formula takes ints, numpy arrays or IR values (lasscc.ir_math.Idx): lasscc-tile-threadblock
emits them, `lasscc explain` and the tests evaluate them.  They are branch-free (a 0/1 `is_sk`
selects between the data-parallel and the stream-K answer) so the kernel needs no control flow.
"""

from __future__ import annotations

from lasscc.layout import minimum
from lasscc.splitk import SEMAPHORE_BYTES, STREAMK_MODES, partition_tiles

MODES = STREAMK_MODES  # "streamk", "streamk-dp", "streamk-tail"
# full waves of tiles each mode leaves to stream-K after the data-parallel ones (None: every tile)
SK_WAVES = {"streamk": None, "streamk-dp": 1, "streamk-tail": 0}
H100_SMS = 132  # streaming multiprocessors of an H100 SXM (the heuristics' default when no device is open)
CPU_CTAS = 3  # the CPU executor's persistent grid when none is given: small, and not a divisor of most tile counts
# Per-SM limits of sm_80 / sm_90 (CUDA occupancy calculator): CTAs resident at once
SM_SMEM_BYTES = 228 * 1024  # shared memory per SM (sm_90; sm_80: 164 KiB, ptxas's opt-in limit is lower anyway)
SM_REGISTERS = 65536  # 32-bit registers per SM
SM_THREADS = 2048  # resident threads per SM
SM_CTAS = 32  # resident CTAs per SM


def is_streamk(mode: str) -> bool:
    return mode in MODES


def ctas_per_sm(threads: int, smem_bytes: int, regs_per_thread: int = 255) -> int:
    """CTAs of this kernel one SM holds at once (shared memory, registers at `regs_per_thread` (the
    register limit unless ptxas's count is known), threads), at least 1."""
    by_smem = SM_SMEM_BYTES // max(1, smem_bytes)
    by_regs = SM_REGISTERS // max(1, threads * regs_per_thread)
    return max(1, min(by_smem, by_regs, SM_THREADS // threads, SM_CTAS))


def grid_ctas(sms: int, per_sm: int) -> int:
    """The persistent grid: every SM's resident CTAs."""
    return max(1, int(sms) * int(per_sm))


def config_ctas(cfg, elem_bytes: int, sms: int) -> int:
    """The persistent grid of config `cfg` (A/B elements of `elem_bytes` bytes) on a GPU of `sms`
    SMs: every SM's resident CTAs of its threads and shared memory (KernelSpec.grid's for the same)."""
    return grid_ctas(sms, ctas_per_sm(cfg.threads, cfg.smem_bytes(elem_bytes)))


def maximum(a, b):
    """max(a, b) of non-negative ints, arrays or Idx (through minimum: Idx has no compare)."""
    return a + b - minimum(a, b)


def dp_tiles(tiles, ctas, mode: str):
    """Tiles computed data-parallel (whole K by one CTA) before the stream-K part: none for
    "streamk"; for "streamk-dp", every full wave but the last when T mod G != 0; for
    "streamk-tail", every full wave; all when T mod G == 0."""
    keep = SK_WAVES[mode]
    if keep is None:
        return 0
    full = tiles // ctas
    if keep == 0:  # "streamk-tail": every full wave
        return full * ctas
    return (full - minimum(full, minimum(tiles % ctas, 1) * keep)) * ctas


def cta_range(cta, ctas, iters):
    """[begin, end) of CTA `cta`'s share of the `iters` stream-K iterations (k-tiles of the tiles
    after the data-parallel ones, tile-major)."""
    return partition_tiles(cta, iters, ctas)


def owner(i, ctas, iters):
    """The CTA whose cta_range holds iteration i (< iters): the inverse of partition_tiles."""
    base, extra = iters // ctas, iters % ctas
    cut = extra * (base + 1)  # the first `extra` CTAs have base + 1 iterations
    head = minimum(i, cut)
    return head // (base + 1) + (i - head) // maximum(base, 1)


def cta_units(cta, ctas, tiles, kt, mode: str):
    """Units (tile segments) CTA `cta` computes: its data-parallel tiles and the tiles its stream-K
    range touches (split_k_mode `mode`)."""
    dp = dp_tiles(tiles, ctas, mode)
    b, e = cta_range(cta, ctas, (tiles - dp) * kt)
    return dp // ctas + ((e + (kt - 1)) // kt - b // kt) * minimum(e - b, 1)


def unit(cta, ctas, u, tiles, kt, mode: str):
    """(tile, lo, hi, segment) of unit u < cta_units of CTA `cta`: the output tile (linear, before
    rasterization), its k-tiles [lo, hi) (of KT = kt) and the segment's place in the tile's K
    order (the finisher, hi = KT, adds the partials of segments 0 .. seg - 1 from the workspace)."""
    dp = dp_tiles(tiles, ctas, mode)
    n_dp = dp // ctas
    if isinstance(n_dp, int) and n_dp == 0:  # "streamk": no data-parallel units (and no 0 - Idx)
        is_sk, j = 1, u
    else:
        is_sk = 1 - minimum(n_dp - minimum(u, n_dp), 1)  # 1 from the first stream-K unit on
        j = u - minimum(u, n_dp)  # stream-K units walk the CTA's tiles from the highest down
    iters = (tiles - dp) * kt
    b, e = cta_range(cta, ctas, iters)
    t_last = (maximum(e, 1) - 1) // kt
    t = t_last - minimum(j, t_last)
    t0 = t * kt
    lo = maximum(b, t0) - t0
    hi = minimum(e, t0 + kt) - t0
    seg = cta - owner(t0, ctas, maximum(iters, 1))
    keep = 1 - is_sk
    return ((u * ctas + cta) * keep + (dp + t) * is_sk, lo * is_sk, kt * keep + hi * is_sk, seg * is_sk)


PARTIAL_BYTES = 4  # a partial-sum element: the f32 accumulator (i32 for i8 inputs; an f16 one widened)
FLAG_SET = 1  # a flag word: 1 from a partial's release until its finisher has read it, else 0


def partial_word(slot, tile: tuple[int, int]):
    """First word of CTA `slot`'s partial-sum slot in the workspace (the slots come first: 16-byte
    aligned for vector stores)."""
    return slot * (tile[0] * tile[1])


def flag_word(slot, ctas, tile: tuple[int, int]):
    """Word of CTA `slot`'s flag: after the `ctas` partial slots."""
    return ctas * (tile[0] * tile[1]) + slot


def workspace_bytes(ctas: int, tile: tuple[int, int]) -> int:
    """Bytes of a stream-K launch's workspace on a persistent grid of `ctas` CTAs with BM x BN =
    `tile`: a partial-sum slot and a flag word per CTA (a CTA leaves at most one tile unfinished,
    so the split tiles' partials never need more slots than the grid has CTAs)."""
    return ctas * (PARTIAL_BYTES * tile[0] * tile[1] + SEMAPHORE_BYTES)


def schedule(ctas: int, tiles: int, kt: int, mode: str) -> list[list[tuple[int, int, int, int]]]:
    """Every CTA's units (tile, lo, hi, segment) under split_k_mode `mode`, in the order it computes
    them (ints)."""
    return [[unit(c, ctas, u, tiles, kt, mode) for u in range(cta_units(c, ctas, tiles, kt, mode))]
            for c in range(ctas)]


def decomposition_lines(mode: str, tile: tuple[int, int, int], grid: tuple[int, int], k: int, ctas: int,
                        sms: int | None = None, limit: int = 16) -> list[str]:
    """`lasscc explain`'s stream-K section: which CTA computes which K range of which tile (the
    first `limit` CTAs), the fix-up order and the workspace bytes."""
    from lasscc.layout import raster_tile  # noqa: F401 (the tiles are numbered before rasterization)

    bm, bn, bk = tile
    tm, tn = grid
    tiles = tm * tn
    kt = -(-k // bk)
    dp = dp_tiles(tiles, ctas, mode)
    src = f"{sms} SMs x {ctas // sms} CTAs per SM" if sms else "given"
    out = [f"Stream-K (lasscc.streamk), split_k_mode = {mode}: {tiles} tiles of {bm} x {bn}, K = {k}: {kt} k-tiles "
           f"of BK = {bk} each, {tiles * kt} MAC iterations",
           f"  persistent grid ({ctas}, 1, 1) ({src}; the runner takes the SM count from the device)",
           f"  data-parallel tiles: {dp} ({dp // ctas} per CTA); stream-K: {tiles - dp} tiles, "
           f"{(tiles - dp) * kt} iterations, {(tiles - dp) * kt // ctas}-{-(-(tiles - dp) * kt // ctas)} per CTA",
           "  CTA   units in order: tile [k-tiles) -> K range, segment (the finisher, marked *, stores D; the others "
           "their partial)"]
    for c, units in enumerate(schedule(ctas, tiles, kt, mode)[:limit]):
        parts = []
        for t, lo, hi, s in units:
            fin = "*" if hi == kt else ""
            parts.append(f"t{t} [{lo},{hi})->K[{lo * bk},{min(hi * bk, k)}) s{s}{fin}")
        out.append(f"  {c:>4}  " + ("; ".join(parts) if parts else "(no work)"))
    if ctas > limit:
        out.append(f"  ... {ctas - limit} more CTAs")
    out.append("  fix-up per tile: a segment that does not finish its tile stores its f32 partial to its CTA's slot "
               "and sets its CTA's flag; the finisher (segment s) waits for the flags of CTAs cta-s..cta-1, adds their "
               "partials in that order (deterministic), resets the flags and stores alpha*sum + beta*C once")
    out.append(f"  workspace: {workspace_bytes(ctas, (bm, bn))} bytes ({ctas} CTAs x ({bm} x {bn} x "
               f"{PARTIAL_BYTES} partial bytes + {SEMAPHORE_BYTES} flag bytes)), flags zero before the first launch, "
               "left zero by every launch")
    return out
