"""Which CTA and which consumer warpgroup computes which output tile, and the pingpong ordering
barrier: the formulas of the warp-specialized schedules (config `schedule` / `persistent`,
lasscc.resources), written once.  lasscc-warp-specialize emits them as IR (on
lasscc.ir_math.Idx values), the launchers (KernelSpec.grid), the CPU executor and `lasscc explain`
evaluate them on ints.

Tiles are numbered in the rasterized launch order (lasscc.layout.raster_tile maps a number to the
tile's coordinates, as a non-persistent kernel maps its block id).  A CTA that walks tiles
(`resources.walks_tiles`) takes its block id, + CTAs, + 2 CTAs, ... (`cta_tiles`); the producer
loads them in that order into the one ring, tile t's k-tiles before tile t + 1's.  In the pingpong
schedule (CUTLASS's KernelTmaWarpSpecializedPingpong) consumer warpgroup c of PINGPONG_CONSUMERS
takes the CTA's tiles c, c + 2, ... of that sequence (`consumer_tile_loop`), so its k-tiles are
numbered from c x k-tiles on in steps of 2 tiles (`consumer_ktile_base`): its ring slots and
phases skip the other consumer's k-tiles.

The ordering barrier (CUTLASS's OrderedSequenceBarrier<resources.ORDER_STAGES, PINGPONG_CONSUMERS>): one
mbarrier per (stage, consumer) at `order_barrier(offset, stage, c)` expecting one warpgroup's
arrivals; stage 0 orders the mainloops, stage 1 the epilogues.  Consumer c waits on its own
barrier of the stage, runs the stage, arrives on the next consumer's (`order_next`).  Its wait of
its j-th tile has parity `order_phase(c, j)`: consumer 0 starts on the opposite parity (its first
waits pass on the fresh barriers), so the mainloops alternate 0, 1, 0, ... and so do the
epilogues, and one consumer's epilogue overlaps the other's mainloop.  Since a consumer starts
its mainloop only after the other finished waiting for all of its k-tiles, every ring wait is at
most one phase ahead of the barrier's completed phases (a parity wait cannot tell phases k and
k + 2 apart).
"""

from __future__ import annotations

from lasscc.layout import minimum
from lasscc.resources import (
    MBARRIER_BYTES,
    PINGPONG_CONSUMERS,
    is_pingpong,
)

ORDER_MAINLOOP, ORDER_EPILOGUE = 0, 1  # the ordering barrier's stages


def tiles_per_cta(cfg) -> int:
    """Tiles a CTA of a non-persistent launch takes (KernelSpec.tiles_per_cta): one per consumer
    warpgroup that has its own tiles (PINGPONG_CONSUMERS), else 1 (the cooperative and default
    schedules' consumers share every tile)."""
    return PINGPONG_CONSUMERS if is_pingpong(cfg) else 1


def launch_ctas(tiles: int, persistent: bool, per_cta: int = 1, sms: int | None = None, cluster: int = 1) -> int:
    """CTAs along x for `tiles` output tiles: a persistent kernel min(tiles, `sms`) (one CTA per SM,
    CUTLASS's persistent grid; None: the tiles), else ceil(tiles / `per_cta`) (`tiles_per_cta`).
    With clusters of `cluster` CTAs (lasscc.cluster.size), `tiles` is already a whole number of
    clusters (cluster.cluster_grid) and a persistent grid is `sms` rounded down to whole clusters
    (at least one): each cluster walks cluster tiles (`cluster_tiles`)."""
    if persistent:
        if sms is None:
            return tiles
        return max(cluster, min(tiles, int(sms) // cluster * cluster))
    return max(1, -(-tiles // per_cta))


def cluster_tiles(cluster_id: int, clusters: int, tiles: int, size: int) -> list[int]:
    """The tiles (cluster tile c's rank r is tile number c * size + r, lasscc.cluster.claim_tile)
    the CTAs of cluster `cluster_id` of `clusters` walk, in order: cluster tiles cluster_id,
    + clusters, ... of the tiles / size (every CTA of the cluster the same count, in lockstep)."""
    return list(range(cluster_id, tiles // size, clusters))


def cta_tiles(cta: int, ctas: int, tiles: int) -> list[int]:
    """The tiles CTA `cta` of `ctas` walks, in order (the producer's sequence)."""
    return list(range(cta, tiles, ctas))


def consumer_tile_loop(first, ctas, consumer, consumers: int = PINGPONG_CONSUMERS):
    """(first tile, step) of consumer `consumer`'s tile loop in a CTA whose sequence starts at tile
    `first` with stride `ctas` (ints or Idx)."""
    return first + consumer * ctas, consumers * ctas


def consumer_tiles(cta: int, ctas: int, tiles: int, consumer: int, consumers: int = PINGPONG_CONSUMERS) -> list[int]:
    start, step = consumer_tile_loop(cta, ctas, consumer, consumers)
    return list(range(start, tiles, step))


def consumer_ktile_base(consumer, k_tiles, consumers: int = PINGPONG_CONSUMERS):
    """(first k-tile number, step per tile) of consumer `consumer` in the CTA's ring: tile j of the
    CTA's sequence holds k-tiles j * k_tiles .. (j + 1) * k_tiles - 1."""
    return consumer * k_tiles, consumers * k_tiles


def order_barrier(offset, stage, consumer, consumers: int = PINGPONG_CONSUMERS):
    """Byte of the ordering barrier that consumer `consumer` waits on before `stage`."""
    return offset + MBARRIER_BYTES * (stage * consumers) + MBARRIER_BYTES * consumer


def order_next(consumer, consumers: int = PINGPONG_CONSUMERS):
    """The consumer whose barrier `consumer` arrives on after a stage (the next in the sequence)."""
    return (consumer + 1) % consumers


def order_phase0(consumer):
    """The parity of consumer `consumer`'s first waits: consumer 0 the opposite one (1: passes on a
    fresh barrier), the others 0 (they wait for their predecessor's arrivals)."""
    return 1 - minimum(consumer, 1)


def order_phase(consumer: int, j: int) -> int:
    """The parity of consumer `consumer`'s waits in its `j`-th tile (the IR carries it, flipping it
    per tile)."""
    return order_phase0(consumer) ^ (j % 2)
