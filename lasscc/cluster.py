"""Thread block clusters with TMA multicast (config `cluster = [CM, CN]`, sm_90a wgmma kernels).

A cluster of CM x CN CTAs computes CM x CN neighbouring output tiles: CM tile rows along M, CN
tile columns along N, in the kernel's order as the threadblock tile is (a column-major D's kernel
computes D^T = B^T . A^T: its M is the caller's N).  CTAs of one tile column read the same B tile of every k-tile, CTAs of one
tile row the same A tile: in a 2x1 cluster B is shared, in a 1x2 cluster A.  Each CTA loads
1/n of the shared operand's tile (n = the CTAs sharing it) and multicasts it into the shared
memory of all n (`lass_cluster.tma_load_multicast`), so the operand's global traffic per CTA is
divided by n (CUTLASS's sm90 TMA multicast; a public account measured 777 -> 799 TFLOP/s at bf16
8192^3 on an H100).

The facts, each written once:
  * the launch: a 1-d grid of `cluster_grid` CTAs (the tiles rounded up to whole clusters), with
    cluster dims (CM * CN, 1, 1): CTA pid is rank pid % size of cluster pid // size, which the PTX
    ISA makes %cluster_ctarank / %clusterid.x.  `cluster_tile` maps a CTA to its tile: the
    clusters walk super-tiles of CM x CN tiles in the rasterized order (lasscc.layout.raster_tile),
    rank r takes tile (r % CM, r // CM) of its super-tile.  Tiles past M or N (a partial cluster at
    the edge) are computed on zero-filled TMA boxes and not stored (the epilogue's predicates), but
    their CTAs still load and multicast their share of the shared operand.
  * `persistent = 1` (cooperative schedule): a cluster walks cluster tiles (`super_tiles` of them,
    numbered in the raster order) from its %clusterid.x in steps of the clusters of the launch,
    each CTA computing its rank's tile (`rank_tile`) and claiming `claim_tile`; both CTAs of a
    cluster walk the same count, so k-tile t of one pairs with k-tile t of the peer in the
    multicasts and remote releases.  The grid: lasscc.schedule.launch_ctas in whole clusters.
  * `multicast_boxes`: the TMA boxes of one rank's share of a tile: the tile's boxes
    (sm90_layout.tile_boxes) with their outer dimension (rows of a K-major tile, K of an MN-major
    one) cut in n parts; rank r lands part r at r * (outer / n) swizzle lines into each box, which
    stays a whole number of swizzle atoms (CORE_ROWS lines), so box and wgmma descriptor agree.
  * every CTA's full barrier still expects the whole tile's bytes (its own A and all n parts of the
    shared B); a consumer releases a slot to the producers of all n CTAs that write into it, so the
    empty barrier's arrivals are lasscc.resources.cluster_empty_arrivals.
"""

from __future__ import annotations

from lasscc.layout import K_MAJOR, raster_tile

CLUSTER_NONE = (1, 1)
# The cluster shapes served: 2 CTAs sharing one operand (CUTLASS's common sm90 choice; larger
# clusters need a ctaMask per operand and are not modelled).
CLUSTER_SHAPES = ((1, 1), (2, 1), (1, 2))
# The PTX ISA's portable cluster size limit (8 CTAs) bounds any shape; CLUSTER_SHAPES is stricter.
CLUSTER_MAX_CTAS = 8


def size(cluster) -> int:
    """CTAs of one cluster."""
    return int(cluster[0]) * int(cluster[1])


def shared_operand(cluster) -> str | None:
    """The operand the CTAs of a cluster share (and multicast): "B" when they lie along M (same tile
    column), "A" along N (same tile row), None without a cluster."""
    cm, cn = cluster
    if (cm, cn) == CLUSTER_NONE:
        return None
    return "B" if cn == 1 else "A"


def sharers(cluster) -> int:
    """CTAs that share (and each load 1/n of) the shared operand's tile."""
    cm, cn = cluster
    return cm if shared_operand(cluster) == "B" else cn


def cta_mask(cluster) -> int:
    """The ctaMask of a multicast: the ranks that receive it (every CTA of the cluster for the
    2-CTA shapes: they all share the operand)."""
    return (1 << size(cluster)) - 1


def launch_dims(cluster) -> tuple[int, int, int]:
    """CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION / `.reqnctapercluster` of the 1-d grid."""
    return (size(cluster), 1, 1)


def super_tiles(tiles_m, tiles_n, cluster):
    """Cluster tiles (super-tiles of CM x CN tiles) covering the tile grid (ints or IR values)."""
    cm, cn = cluster
    return ((tiles_m + (cm - 1)) // cm) * ((tiles_n + (cn - 1)) // cn)


def cluster_grid(tiles_m: int, tiles_n: int, cluster) -> int:
    """CTAs of a launch: the tile grid rounded up to whole clusters along M and N."""
    return super_tiles(tiles_m, tiles_n, cluster) * size(cluster)


def claim_tile(super_tile, rank, cluster):
    """The number a persistent clustered kernel claims (lass_sched.claim) for rank `rank`'s tile of
    cluster tile `super_tile`: the CTA id the non-persistent launch gives that tile (0 ..
    cluster_grid - 1)."""
    return super_tile * size(cluster) + rank


def cluster_tile(pid, tiles_m, tiles_n, group: int, cluster):
    """(tile_m, tile_n) of CTA `pid` (ints, numpy arrays or IR values): its cluster's super-tile in
    the rasterized order, its rank's place in it.  Without a cluster: raster_tile itself."""
    cm, cn = cluster
    if (cm, cn) == CLUSTER_NONE:
        return raster_tile(pid, tiles_m, tiles_n, group)
    n = cm * cn
    return rank_tile(pid // n, pid % n, tiles_m, tiles_n, group, cluster)


def rank_tile(cluster_id, rank, tiles_m, tiles_n, group: int, cluster):
    """(tile_m, tile_n) of rank `rank` of cluster `cluster_id` (%cluster_ctarank, %clusterid.x: the
    kernel reads them so): the cluster's super-tile of CM x CN tiles in the rasterized order, rank r
    at (r % CM, r // CM) in it."""
    cm, cn = cluster
    sm, sn = raster_tile(cluster_id, (tiles_m + (cm - 1)) // cm, (tiles_n + (cn - 1)) // cn, group)
    return sm * cm + rank % cm, sn * cn + rank // cm


def multicast_boxes(boxes, n: int, rank, major: str, line_bytes: int):
    """One rank's share of a tile's TMA boxes (sm90_layout.tile_boxes: (box, (inner, outer) coords,
    smem offset) each): every box's outer dimension cut in `n` parts, part `rank` (an int or IR
    value) at outer offset rank * outer / n and `line_bytes` (the swizzle line) per outer line into
    the box's place.  Returns (box, (inner, outer offset), smem offset) with the offsets as
    `rank`-dependent expressions."""
    out = []
    for (inner, outer), (ci, co), off in boxes:
        part = outer // n
        out.append(((inner, part), (ci, co + rank * part), off + rank * (part * line_bytes)))
    return out


def multicast_error(rows: int, k_elems: int, major: str, n: int) -> str | None:
    """Why a rows x k_elems tile of `major` cannot be cut into `n` multicast parts, or None: each part
    must be a whole number of swizzle atoms (CORE_ROWS lines) along the box's outer dimension."""
    from lasscc.sm90_layout import CORE_ROWS

    outer, what = (rows, "rows") if major == K_MAJOR else (k_elems, "K")
    if outer % (n * CORE_ROWS):
        return (f"its {outer} {what} (the TMA box's outer dimension) cannot be cut into {n} multicast parts of "
                f"whole {CORE_ROWS}-line swizzle atoms")
    return None


def config_error(cfg, majors=(K_MAJOR, K_MAJOR)) -> str | None:
    """Why `cfg`'s `cluster` cannot be compiled, or None (GemmConfig.validate's check; the text names
    the key)."""
    cl = tuple(cfg.cluster)
    if cl == CLUSTER_NONE:
        return None
    if cl not in CLUSTER_SHAPES:
        return (f"cluster = {list(cl)}: expected one of {', '.join(str(list(s)) for s in CLUSTER_SHAPES)} "
                f"(2 CTAs sharing one operand's TMA loads)")
    if not cfg.is_wgmma:
        return f"cluster = {list(cl)} needs mma = \"wgmma\" (TMA multicast into the cluster's shared memory)"
    if cfg.schedule == "pingpong":
        return (f"cluster = {list(cl)} with schedule = \"pingpong\" is not supported (its consumers walk single "
                f"tiles of their own, the cluster's CTAs must load the same k-tiles together)")
    if cfg.has_workspace:
        return f"cluster = {list(cl)} with split-K / stream-K is not supported (their grid is not one tile per CTA)"
    bm, bn, bk = cfg.threadblock
    op = shared_operand(cl)
    rows, major = (bn, majors[1]) if op == "B" else (bm, majors[0])
    bad = multicast_error(rows, bk, major, sharers(cl))
    if bad:
        return f"cluster = {list(cl)}: the shared {op} tile ({rows} x {bk}): {bad}"
    return None


def saved_bytes(cfg, elem_bytes: int) -> int:
    """Global bytes per CTA per k-tile that the multicast saves: the shared operand's tile, less this
    CTA's 1/n share of it."""
    op = shared_operand(cfg.cluster)
    if op is None:
        return 0
    bm, bn, bk = cfg.threadblock
    rows = bn if op == "B" else bm
    tile = rows * bk * elem_bytes
    return tile - tile // sharers(cfg.cluster)
