"""`lasscc explain`'s section on a wgmma kernel's thread block cluster (config `cluster`,
lasscc.cluster): the CTAs' tiles, the shared operand and what its multicast saves, the launch, the
empty barriers' arrivals and the cluster barriers.  Every figure from lasscc.cluster and
lasscc.resources."""

from __future__ import annotations

from lasscc.layout import K_MAJOR


def section_cluster(n, grid: tuple[int, int]) -> list[str]:
    """n: explain.hopper.HopperNumbers of a clustered config; grid: (tile rows, tile columns)."""
    from lasscc import cluster as CL

    cm, cn = n.cluster
    shared = CL.shared_operand(n.cluster)
    parts = CL.sharers(n.cluster)
    a, b = n.ops
    op = b if shared == "B" else a
    other = a if shared == "B" else b
    along = "M" if cm > 1 else "N"
    tm, tn = grid
    ctas = CL.cluster_grid(tm, tn, n.cluster)
    saved = op.tile_bytes - op.tile_bytes // parts
    loads = a.tile_bytes + b.tile_bytes
    (inner, outer), _, _ = CL.multicast_boxes(list(op.boxes), parts, 0, op.major, op.swizzle.width_bytes)[0]
    out = [f"Thread block cluster (cluster = [{cm}, {cn}]; lasscc.cluster, TMA multicast)"]
    out.append(f"  {CL.size(n.cluster)} CTAs per cluster along {along}: ranks 0 and 1 compute neighbouring tiles of one "
               f"tile {'column' if shared == 'B' else 'row'}, so they read the same {shared} tile every k-tile")
    lines = "rows" if op.major == K_MAJOR else "k-lines"
    out.append(f"  multicast: each CTA loads 1/{parts} of the {shared} tile ({lines} rank * {outer} .. of each box: "
               f"tmap_{shared}'s box is {inner} x {outer}, inner x outer) and cp.async.bulk.tensor .multicast::cluster "
               f"writes it into both CTAs' slot (ctaMask {CL.cta_mask(n.cluster):#b}); {other.name} is loaded whole "
               f"by each CTA")
    out.append(f"  global bytes per CTA per k-tile: {loads - saved} instead of {loads} ({saved} B of {shared} saved, "
               f"{100.0 * saved / loads:.0f}% of its TMA loads); every full barrier still expects {n.tx_bytes} B")
    out.append(f"  empty barriers: {n.empty_arrivals} arrivals: a consumer releases its slot to its own producer and "
               "to the peer's (mapa.shared::cluster + mbarrier.arrive.shared::cluster), whose multicast also fills it")
    out.append(f"  launch: a 1-d grid rounded up to whole clusters ({tm} x {tn} tiles -> {ctas} CTAs; the tiles past "
               f"M / N are computed on zero-filled boxes and not stored), cuLaunchKernelEx with cluster dims "
               f"{CL.launch_dims(n.cluster)} (.reqnctapercluster in the PTX)")
    out.append("  cluster barriers (barrier.cluster.arrive.release / wait.acquire): after the mbarriers' init and before "
               "the exit, so no peer multicasts into or arrives on a CTA's shared memory before its init or after it "
               "exits")
    return out
