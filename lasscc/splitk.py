"""Split-K: the one place its rules and formulas live (reference 002, CUTLASS's serial split-K).

A split kernel (`GemmConfig.split_k = S > 1`) runs a grid of (tiles, S, batch): grid y is the
K partition, so batched GEMMs keep grid z for the batch and the partitions of one tile are
neighbours in launch order (x fastest).  K is cut into S ranges of whole BK k-tiles
(`partition_tiles`: the T = ceil(K / BK) k-tiles dealt out as evenly as they go, the first
T mod S partitions one more); when S > T the partitions from T on get an empty range: they run no
main loop and only take their turn in the epilogue order (adding alpha * 0), which the CLI, the
API and `lasscc explain` say.

Serial split-K: each CTA computes its partition's partial accumulator, then the CTAs of one tile
update D in K order through a per-tile semaphore, a 32-bit word in a global workspace
(`workspace_bytes`: one word per tile and batch, zero before the first launch; the last partition
resets it, so the workspace can be reused by the next launch):

    wait until sem[tile] == partition          (thread 0 spins with ld.acquire.gpu; bar.sync)
    D = alpha * acc + (partition == 0 ? beta : 1) * D      (the first reads C = D, the rest D)
    sem[tile] = partition + 1, or 0 by the last  (bar.sync; thread 0 st.release.gpu)

The release / acquire pair (PTX memory model: a release pattern on the semaphore by the
releasing CTA, observed by an acquire of the next) makes the previous partition's D stores
visible to the next partition's D loads; the CPU executor checks exactly that (lasscc.interp.sync).
Like CUTLASS's, the scheme assumes the GPU dispatches CTAs in increasing linear order (x, then y):
a spinning CTA's predecessors have lower grid y, so they run (or ran) before it.

Parallel split-K (`split_k_mode = "parallel"`): each partition's raw accumulator goes to a partial
M x N matrix of the workspace (`workspace_bytes`: PARTIAL_BYTES * S * batch * M * N), and a second
kernel entry (passes/splitk_reduce.py) sums them in partition order and applies alpha / beta.

A fused epilogue (lasscc.dialects.epilogue) runs once per element on the full sum: in serial
split-K's last partition (the earlier ones store raw partial sums; dialects.epilogue.gated_region),
in parallel split-K's reduction kernel.
"""

from __future__ import annotations

from lasscc.layout import minimum

# grid y holds the partitions: CUDA's gridDim.y maximum
MAX_SPLIT_K = 65535
SEMAPHORE_BYTES = 4  # one 32-bit semaphore word per output tile (and batch)
# split_k_mode: serial / parallel split-K, or stream-K (lasscc.streamk: then split_k = 1, the schedule
# splits K itself)
STREAMK_MODES = ("streamk", "streamk-dp", "streamk-tail")  # lasscc.streamk's (its MODES)
MODES = ("serial", "parallel", *STREAMK_MODES, "cluster")
# "cluster": the partitions are the CTAs of one thread block cluster, reduced through DSMEM
# (lasscc.cluster_splitk; its own rules: wgmma, 2 <= split_k <= 8)
PARTIAL_BYTES = 4  # parallel split-K's partial sums: f32 (i32 for i8 inputs)


def split_k_error(split_k, mode: str = "serial") -> str | None:
    """What is wrong with a `split_k` value (and `split_k_mode`), or None."""
    if isinstance(split_k, bool) or not isinstance(split_k, int) or not 1 <= split_k <= MAX_SPLIT_K:
        return (f"expected split_k an integer from 1 to {MAX_SPLIT_K} (the K partitions, grid y; 1: no split), "
                f"got {split_k!r}")
    if mode not in MODES:
        return f"expected split_k_mode {', '.join(repr(m).replace(chr(39), chr(34)) for m in MODES)}, got {mode!r}"
    if mode in STREAMK_MODES and split_k != 1:
        return (f"expected split_k = 1 with split_k_mode = \"{mode}\" (stream-K splits K by its own schedule), "
                f"got split_k = {split_k}")
    if mode in ("parallel", "cluster") and split_k == 1:
        return f"expected split_k > 1 with split_k_mode = \"{mode}\" (one partition has nothing to reduce)"
    return None


def reduce_blocks(elements: int, threads: int) -> int:
    """Blocks of parallel split-K's reduction kernel: one thread per element of one batch's D."""
    return -(-elements // threads)


def parse_split_k(text: str, option: str = "--split-k") -> int:
    """`--split-k S` for option `option`; LassError naming the option."""
    from lasscc.diagnostics import LassError

    t = str(text).strip()
    if not t.isdecimal() or split_k_error(int(t)):
        raise LassError(f"option {option}: {split_k_error(t if not t.isdecimal() else int(t))}")
    return int(t)


def k_tiles(k, bk: int):
    """k-tiles of BK in K (ints or IR values): ceil(K / BK)."""
    return (k + (bk - 1)) // bk


def partition_tiles(part, tiles, split: int):
    """(first, end) k-tile of K partition `part` of `split` over `tiles` k-tiles: tiles // split
    each, the first tiles % split partitions one more.  Ints, numpy arrays or IR values
    (lasscc.ir_math.Idx): lasscc-warp-mma emits it, the CPU executor and explain evaluate it."""
    base, extra = tiles // split, tiles % split
    # end: the first tile of the next partition (no comparison needed in the IR)
    return part * base + minimum(part, extra), (part + 1) * base + minimum(part + 1, extra)


def partition_range(part, k, bk: int, split: int):
    """[k_begin, k_end) of K partition `part`: whole k-tiles clipped to K (an empty partition
    gets [K, K))."""
    first, end = partition_tiles(part, k_tiles(k, bk), split)
    return minimum(first * bk, k), minimum(end * bk, k)


def workspace_bytes(split: int, tiles: int, batch: int = 1, mode: str = "serial", mn: tuple[int, int] = (0, 0)) -> int:
    """Bytes of the global workspace of a kernel with `split` partitions over `tiles` output tiles
    per batch (0 without a split): serial, a semaphore word per tile and batch; parallel, a partial
    M x N sum (`mn`, the kernel's) per partition and batch."""
    if split <= 1 or mode == "cluster":  # cluster split-K: the partials stay in shared memory
        return 0
    if mode == "parallel":
        return PARTIAL_BYTES * split * batch * mn[0] * mn[1]
    return SEMAPHORE_BYTES * tiles * batch


def empty_partitions_note(split: int, k: int, bk: int) -> str | None:
    """A note when `split` exceeds the k-tiles of K: the partitions past them compute nothing."""
    t = -(-k // bk)
    if split > t:
        which = f"partition {t} gets" if t == split - 1 else f"partitions {t}..{split - 1} get"
        return (f"split_k = {split} exceeds the {t} k-tiles of K = {k} (BK = {bk}): {which} "
                f"no K range and only pass the semaphore on (use split_k <= {t})")


def decomposition_lines(split: int, tile: tuple[int, int, int], grid: tuple[int, int], k: int, raster: int,
                        batch: int = 1, mode: str = "serial", threads: int = 128) -> list[str]:
    """`lasscc explain`'s split-K section: which CTA (grid x, y) computes which K range of which
    tile, in what order the partial epilogues update D, and the workspace bytes, for a
    grid[0] x grid[1] grid of bm x bn tiles and this K."""
    from lasscc.layout import raster_tile

    bm, bn, bk = tile
    tm, tn = grid
    tiles = tm * tn
    t = -(-k // bk)
    out = [f"{mode.capitalize()} split-K (lasscc.splitk; reference 002), split_k = {split}, K = {k}: {t} k-tiles "
           f"of BK = {bk}",
           f"  grid ({tiles}, {split}, {batch}): x the {tm} x {tn} output tiles (raster order above), y the K "
           f"partition, z the batch; {tiles * split * batch} CTAs" if mode != "cluster" else
           f"  {tiles} clusters of {split} CTAs (the {tm} x {tn} output tiles, raster order above) x {batch} batch(es); "
           f"{tiles * split * batch} CTAs",
           "  partition (grid y)   k-tiles        K range           CTAs" if mode != "cluster" else
           "  partition (rank)     k-tiles        K range           CTAs (tile, rank)"]
    for p in range(split):
        first, end = partition_tiles(p, t, split)
        lo, hi = partition_range(p, k, bk, split)
        what = f"({0}..{tiles - 1}, {p})" if end > first else f"({0}..{tiles - 1}, {p}): no K, epilogue only"
        out.append(f"  {p:>18}   [{first}, {end}){'':<{max(0, 12 - len(f'[{first}, {end})'))}}"
                   f"[{lo}, {hi}){'':<{max(0, 16 - len(f'[{lo}, {hi})'))}}{what}")
    ex = [(x, raster_tile(x, tm, tn, raster)) for x in range(min(tiles, 3))]
    who = "cluster" if mode == "cluster" else "CTA x"
    out.append("  e.g. " + "; ".join(f"{who} = {x} -> tile (m0, n0) = ({a * bm}, {b * bn})" for x, (a, b) in ex))
    if mode == "parallel":
        m, n = tm * bm, tn * bn
        out.append(f"  each CTA writes its raw accumulator to partial matrix (batch * {split} + partition) of the "
                   f"workspace; then the reduction kernel (grid ({reduce_blocks(m * n, threads)}, 1, {batch}), one "
                   f"thread per element) sums the {split} partials in partition order and writes alpha*sum + beta*C")
        ws = workspace_bytes(split, tiles, batch, mode, (m, n))
        out.append(f"  workspace: {ws} bytes ({split} x {batch} partial {m} x {n} matrices of {PARTIAL_BYTES}-byte "
                   f"sums, for M = {m}, N = {n}: {PARTIAL_BYTES} * split * batch * M * N)")
    elif mode == "cluster":
        from lasscc.cluster_splitk import decomposition_lines as cluster_lines

        out += cluster_lines(split, (bm, bn), tiles, batch)
    else:
        out.append("  epilogue order per tile: partition 0 writes alpha*acc + beta*C; partition p > 0 waits until the "
                   "tile's semaphore = p, adds alpha*acc to D; the last resets it to 0")
        ws = workspace_bytes(split, tiles, batch)
        out.append(f"  workspace: {ws} bytes ({SEMAPHORE_BYTES} per tile{' and batch' if batch > 1 else ''}), zero "
                   "before the first launch, left zero by every launch")
    note = empty_partitions_note(split, k, bk)
    if note:
        out.append(f"  note: {note}")
    return out
