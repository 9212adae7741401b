"""Cluster split-K (`split_k_mode = "cluster"`, sm_90a wgmma kernels): the S K-partitions of one
output tile are the S CTAs of one thread block cluster, reduced through distributed shared memory.

No workspace and no second kernel (parallel split-K's partial matrices and reduction launch, or
serial split-K's semaphore ordering through D): the facts, each written once here:

  * the launch: a 1-d grid of tiles * S CTAs with cluster dims (S, 1, 1) (`launch_dims`): CTA pid
    is rank pid % S (%cluster_ctarank) of cluster pid // S (%clusterid.x).  The cluster id walks
    the tiles in the rasterized order (lasscc.layout.raster_tile), the rank is the K partition
    (lasscc.splitk.partition_range: the same whole k-tiles as the other modes).
  * after its main loop each CTA stores its raw accumulator to its own shared memory at byte 0
    (the ring's space, free once every wgmma retired; `partial_bytes` must fit the rings:
    `config_error`), in the accumulator's fragment order: quad q (values 4q .. 4q + 3, one n8 or
    interleaved 16-column block of the C fragment) of thread t at byte `partial_byte(q, t)`, one
    16-byte st.shared each, a warp's 512 contiguous bytes (no bank conflict);
  * cluster barrier 1 (barrier.cluster.arrive.release / wait.acquire): every partial is written;
  * rank r owns columns `col_window(r)` of the tile (BN / S of them, whole 16-column blocks, so a
    quad never straddles two owners): for each quad it owns it reads the S partials' quads
    through DSMEM (mapa + ld.shared::cluster.v4) and sums them in rank order 0 .. S-1, its own
    from its registers (the same bits): a fixed order, so the result is deterministic;
  * cluster barrier 2: no CTA leaves (nor reuses its shared memory) while a peer may still read
    its partial;
  * the epilogue (alpha / beta, the fused epilogue) as any tile's, storing only the owned columns.

The CPU executor checks both barriers: a DSMEM read of a partial the peer wrote with no cluster
barrier since is a RaceError, a CTA whose DSMEM read no barrier follows is a ClusterError at the
kernel's end (lasscc/interp/cluster.py).
"""

from __future__ import annotations

from lasscc.cluster import CLUSTER_MAX_CTAS

MODE = "cluster"
# partials are f32 (an f16 accumulator widened) or i32 words, stored four to a 16-byte access
PARTIAL_WORD_BYTES = 4
QUAD = 4
# the owners' column windows are whole 16-column blocks (an interleaved B fragment's quads span 16)
WINDOW_COLS = 16


def is_cluster_split(cfg) -> bool:
    """Whether `cfg` (a GemmConfig or KernelSpec) splits K across a cluster."""
    return getattr(cfg, "split_k", 1) > 1 and getattr(cfg, "split_k_mode", "serial") == MODE


def launch_dims(split: int) -> tuple[int, int, int]:
    """CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION / `.reqnctapercluster` of the 1-d grid."""
    return (split, 1, 1)


def grid_ctas(tiles: int, split: int) -> int:
    """CTAs along x of a launch of `tiles` output tiles (per batch)."""
    return tiles * split


def partial_bytes(tile: tuple[int, int]) -> int:
    """Shared-memory bytes of one CTA's partial tile (BM x BN words)."""
    return tile[0] * tile[1] * PARTIAL_WORD_BYTES


def partial_byte(quad, tid, threads: int):
    """Shared byte of quad `quad` of thread `tid`'s accumulator (ints or IR values)."""
    return (quad * threads + tid) * (QUAD * PARTIAL_WORD_BYTES)


def window(bn: int, split: int) -> int:
    """Columns each rank owns."""
    return bn // split


def owner(col: int, bn: int, split: int) -> int:
    """The rank that reduces and stores tile column `col`."""
    return col // window(bn, split)


def col_window(rank: int, bn: int, split: int) -> tuple[int, int]:
    """[first, end) tile columns of rank `rank`."""
    w = window(bn, split)
    return rank * w, (rank + 1) * w


def config_error(cfg, ring_bytes: int | None = None) -> str | None:
    """Why `cfg` cannot split K across a cluster, or None (another split_k_mode: None).  `ring_bytes`:
    the wgmma rings' bytes (lasscc.resources.wgmma_ring_bytes), which must hold the partial."""
    if getattr(cfg, "split_k_mode", "serial") != MODE:
        return None
    s = cfg.split_k
    if not cfg.is_wgmma:
        return f"split_k_mode = \"{MODE}\" needs mma = \"wgmma\" (thread block clusters and DSMEM: sm_90a)"
    if not 2 <= s <= CLUSTER_MAX_CTAS:
        return (f"split_k_mode = \"{MODE}\": expected split_k from 2 to {CLUSTER_MAX_CTAS} (the partitions are the CTAs "
                f"of one cluster: the portable cluster size), got {s}")
    if tuple(cfg.cluster) != (1, 1):
        return (f"split_k_mode = \"{MODE}\": the cluster holds the K partitions; expected cluster = [1, 1] (no "
                f"multicast), got {list(cfg.cluster)}")
    if cfg.schedule != "default" or cfg.persistent:
        return (f"split_k_mode = \"{MODE}\" needs schedule = \"default\" and persistent = 0 (every thread reaches the "
                f"cluster barriers once), got schedule = \"{cfg.schedule}\", persistent = {cfg.persistent}")
    if cfg.epilogue != "direct":
        return f"split_k_mode = \"{MODE}\" needs epilogue = \"direct\" (each CTA stores a column window), got \"{cfg.epilogue}\""
    bm, bn = cfg.threadblock[:2]
    if bn % (WINDOW_COLS * s):
        return (f"split_k_mode = \"{MODE}\", split_k = {s}: threadblock N = {bn} must be a multiple of "
                f"{WINDOW_COLS} * split_k = {WINDOW_COLS * s} (each CTA reduces whole {WINDOW_COLS}-column blocks)")
    if ring_bytes is not None and partial_bytes((bm, bn)) > ring_bytes:
        return (f"split_k_mode = \"{MODE}\": the {bm} x {bn} f32 partial ({partial_bytes((bm, bn))} bytes) must fit the "
                f"rings' {ring_bytes} bytes of shared memory it reuses (raise stages)")
    return None


def decomposition_lines(split: int, tile: tuple[int, int], tiles: int, batch: int = 1) -> list[str]:
    """`lasscc explain`'s lines on the cluster reduction (after lasscc.splitk's partition table)."""
    bm, bn = tile
    wins = "; ".join(f"rank {r}: columns [{a}, {b})" for r, (a, b) in
                     ((r, col_window(r, bn, split)) for r in range(split)))
    return [f"  launch: grid ({grid_ctas(tiles, split)}, 1, {batch}) with cluster dims {launch_dims(split)}: cluster "
            f"c = tile c (raster order), rank r = K partition r: CTA x = {split} c + r",
            f"  each CTA stores its raw {bm} x {bn} accumulator to its shared memory ({partial_bytes((bm, bn))} bytes at "
            f"byte 0, the rings' space), cluster barrier, then reads the {split} partials of its columns through "
            f"DSMEM (ld.shared::cluster), sums them in rank order, cluster barrier, and stores alpha*sum + beta*C",
            f"  column windows: {wins}",
            "  workspace: none; no second kernel"]
