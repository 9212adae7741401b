"""`lasscc explain` of a wgmma kernel (mma = "wgmma", sm_90a): the warpgroups and the wgmma
instruction, the TMA boxes and the shared-memory ring, the mbarriers of each stage, the matrix
descriptors of A and B decoded field by field, the register budget and the swizzle mode's banks.

Every figure comes from the function the passes and the validator use: the resource rules of
lasscc.resources (`wgmma_*`), the tile layouts, boxes and descriptors of lasscc.sm90_layout
(`tile_boxes`, `tile_descriptor`, `MatrixDescriptor`), the swizzle of each operand and its tensor
map from lasscc-hopper-smem (`operand_swizzle`, `kernel_tensor_maps`) and the ring placement of
lasscc-pipeline (A's ring at offset 0, B's after it, the barriers after both).
"""

from __future__ import annotations

from dataclasses import dataclass

from lasscc.explain.facts import PTX_TYPE, Facts
from lasscc.layout import K_MAJOR

# the sections of a wgmma explanation, in order, and which each --stage shows
SECTIONS = ("hierarchy", "raster", "schedule", "smem", "mbarriers", "descriptors", "banks", "registers", "resources")
STAGE_SECTIONS = {
    "lasscc-tile-threadblock": ("hierarchy", "raster"),
    "lasscc-pipeline": ("smem", "mbarriers"),
    "lasscc-warp-mma": ("hierarchy", "registers"),
    "lasscc-warpgroup-mma": ("hierarchy", "registers"),
    "lasscc-warp-specialize": ("schedule", "mbarriers", "registers"),
    "lasscc-swizzle-smem": ("banks",),
    "lasscc-hopper-smem": ("smem", "mbarriers", "descriptors", "banks"),
    "lasscc-lower-to-llvm": ("resources",),
    "llvm": ("resources",),
    "ptx": ("resources",),
}


@dataclass(frozen=True)
class Operand:
    """One operand's tile, ring, tensor map and descriptor (kernel order: A is BM rows, B is BN)."""

    name: str  # "A" / "B"
    rows: int  # BM or BN
    major: str  # "k" / "mn": how the tile is stored
    swizzle: object  # sm90_layout.SwizzleMode
    tile_bytes: int  # one slot
    ring_offset: int  # byte offset of slot 0 in the dynamic shared memory
    boxes: tuple  # sm90_layout.tile_boxes: ((inner, outer), coords, smem offset) per box
    tensor_map: tuple  # KernelSpec.tensor_maps' entry: (operand, box rows, box cols, swizzle)
    desc_rows: int  # rows one descriptor covers: 64 for A (a warpgroup's slice), BN for B
    trans: int  # the wgmma imm-trans bit (1: MN-major)


@dataclass(frozen=True)
class HopperNumbers:
    """The counts of one wgmma config (kernel order)."""

    bm: int
    bn: int
    bk: int
    stages: int
    raster: int
    ab: str
    acc: str
    elem_bytes: int
    ptx_ab: str
    acc_ptx: str
    warpgroups: int
    threads: int
    wgmma_k: int
    wgmma_per_ktile: int  # per warpgroup
    wgmma_n: int  # one wgmma's N: BN / its accumulator chains (resources.wgmma_chains)
    wg_rows: int  # rows of D per consumer warpgroup (resources.warpgroup_rows: 64, a pingpong consumer's BM)
    wgmma_name: str
    ops: tuple  # (Operand A, Operand B)
    stage_bytes: int  # A + B tiles of one stage
    barrier_offset: int
    smem_total: int
    smem_limit: int
    stages_fit: int
    tx_bytes: int  # the full barrier's expected transaction bytes per stage
    empty_arrivals: int
    acc_regs: int
    other_regs: int
    reg_estimate: int
    reg_limit: int
    groups_in_flight: int
    # the TMA-store epilogue (config epilogue = "tma"): staging bytes and offset, (columns, swizzle
    # label) of a subtile (None: D's type unknown or the direct epilogue)
    epi_stage_bytes: int = 0
    epi_offset: int = 0
    epi_subtile: tuple | None = None
    d: str | None = None
    cluster: tuple = (1, 1)  # GemmConfig.cluster (lasscc.cluster; explain/cluster.py's section)
    schedule: str = "default"  # config `schedule` (lasscc.resources.SCHEDULES)
    persistent: bool = False
    roles: tuple = ()  # Role per warp-specialized role (none for the default schedule)
    order_offset: int = 0  # the pingpong ordering barrier's byte offset
    order_bytes: int = 0
    split_k_mode: str = "serial"  # GemmConfig.split_k_mode: the stream-K modes (lasscc.streamk.MODES) walk units
    split_k: int = 1  # GemmConfig.split_k ("cluster": a cluster of split_k CTAs per tile)

    @property
    def reg_parts(self) -> str:  # section_resources' wording
        return f"{self.acc_regs} accumulators + ~{self.other_regs} others"


@dataclass(frozen=True)
class Role:
    """One role of a warp-specialized block (lasscc-warp-specialize)."""

    name: str
    warpgroups: tuple  # warpgroup indices of the block
    launch_regs: int  # registers per thread at launch (ptxas's for the block's threads)
    regs: int  # after setmaxnreg
    what: str


def roles_of(cfg) -> tuple:
    """The roles of config `cfg`'s block (lasscc.resources' role_budget, launch_regs, the consumer
    counts), empty for the default schedule."""
    from lasscc.resources import (WARPGROUP_THREADS, consumer_warpgroups, is_pingpong, is_warp_specialized,
                                  launch_regs, role_budget)

    if not is_warp_specialized(cfg):
        return ()
    threads = (1 + consumer_warpgroups(cfg)) * WARPGROUP_THREADS
    at_launch = launch_regs(threads)
    prod, cons = role_budget(cfg)
    out = [Role("producer", (0,), at_launch, prod, "thread 0 waits for free slots and issues the TMA loads of every "
                "k-tile of the CTA's " + ("stream-K units" if cfg.is_streamk else "tiles") + ", in order")]
    if is_pingpong(cfg):
        for c in range(consumer_warpgroups(cfg)):
            out.append(Role(f"consumer {c}", (1 + c,), at_launch, cons,
                            f"its own {cfg.threadblock[0]} x {cfg.threadblock[1]} tiles: the CTA's tiles {c}, {c + 2}, "
                            f"... of its sequence (mainloop, then epilogue, in turns with the other consumer)"))
    else:
        out.append(Role("consumers", tuple(range(1, 1 + consumer_warpgroups(cfg))), at_launch, cons,
                        "every tile together: warpgroup 1 rows 0..63, warpgroup 2 rows 64..127"))
    return tuple(out)


def wgmma_instruction(n: int, k: int, ptx_ab: str, acc_ptx: str) -> str:
    """The PTX instruction lasscc-lower-to-llvm emits (lower_sm90: s8 with .satfinite)."""
    sat = ".satfinite" if ptx_ab == "s8" else ""
    return f"wgmma.mma_async.sync.aligned.m64n{n}k{k}{sat}.{acc_ptx}.{ptx_ab}.{ptx_ab}"


def hopper_numbers(cfg, arch: str = "sm_90a", ab: str = "f16", acc: str | None = None,
                   majors: tuple[str, str] = (K_MAJOR, K_MAJOR), d: str | None = None) -> HopperNumbers:
    """The counts of the wgmma config `cfg` (kernel order) for A/B of MLIR type `ab`, accumulator
    `acc` (None: the type's first), tiles stored `majors` and D of type `d` (None: unknown)."""
    from lasscc import sm90_layout as S90
    from lasscc.dialects.lass import ACC_TYPES
    from lasscc.layout import MMA_INPUTS, elem_bytes
    from lasscc.passes.hopper_smem import kernel_tensor_maps, operand_swizzle
    from lasscc.passes.warpgroup_mma import GROUPS_IN_FLIGHT
    from lasscc.resources import empty_barrier_arrivals
    from lasscc.resources import (REGISTER_LIMIT, SMEM_PER_BLOCK_LIMIT, wgmma_other_regs, warpgroups,
                                  warpgroup_rows, wgmma_chains, wgmma_m_tiles,
                                  order_barrier_bytes, order_barrier_offset, ring_arrivals, wgmma_acc_regs,
                                  wgmma_barrier_offset, wgmma_k, wgmma_register_estimate, wgmma_smem_bytes,
                                  wgmma_stage_tx_bytes, TMA_STORE_D_TYPES, tma_store_stage_bytes,
                                  tma_store_stage_offset)

    acc = acc or ACC_TYPES[ab][0]
    bm, bn, bk = cfg.threadblock
    eb = elem_bytes(ab)
    maps = {t[0]: t for t in kernel_tensor_maps(bm, bn, bk, ab, majors, cluster=cfg.cluster)}
    ops, offset = [], 0
    for name, rows, major, desc_rows in (("A", bm, majors[0], S90.WGMMA_M), ("B", bn, majors[1], bn)):
        mode = operand_swizzle(bk, eb, major)
        tile = rows * bk * eb
        ops.append(Operand(name, rows, major, mode, tile, offset, tuple(S90.tile_boxes(rows, bk, eb, major, mode)),
                           maps[name], desc_rows, S90.TRANS_BIT[major]))
        offset += tile * cfg.stages  # lasscc-pipeline: B's ring after A's
    limit = SMEM_PER_BLOCK_LIMIT.get(arch, 0)
    epi = tma_store_stage_bytes(cfg)
    per_stage = wgmma_smem_bytes(type(cfg)(**{**cfg.__dict__, "stages": 1}), eb) - epi
    sub = S90.epilogue_subtile(bn, TMA_STORE_D_TYPES[d]) if epi and d in TMA_STORE_D_TYPES else None
    ptx_ab, acc_ptx = MMA_INPUTS[ab][2], PTX_TYPE[acc]
    k, chains = wgmma_k(ab), wgmma_chains(cfg)
    return HopperNumbers(
        bm=bm, bn=bn, bk=bk, stages=cfg.stages, raster=cfg.raster, ab=ab, acc=acc, elem_bytes=eb, ptx_ab=ptx_ab,
        acc_ptx=acc_ptx, warpgroups=warpgroups(cfg), threads=cfg.threads, wgmma_k=k,
        wgmma_per_ktile=bk // k * wgmma_m_tiles(cfg) * chains, wgmma_n=bn // chains,
        wg_rows=warpgroup_rows(cfg), wgmma_name=wgmma_instruction(bn // chains, k, ptx_ab, acc_ptx), ops=tuple(ops),
        stage_bytes=(bm + bn) * bk * eb,
        barrier_offset=wgmma_barrier_offset(cfg, eb), smem_total=wgmma_smem_bytes(cfg, eb), smem_limit=limit,
        stages_fit=(limit - epi) // per_stage if per_stage else 0, tx_bytes=wgmma_stage_tx_bytes(cfg, eb),
        empty_arrivals=empty_barrier_arrivals(ring_arrivals(cfg), cfg.cluster), acc_regs=wgmma_acc_regs(cfg, acc),
        other_regs=wgmma_other_regs(cfg),
        reg_estimate=wgmma_register_estimate(cfg, acc), reg_limit=REGISTER_LIMIT, groups_in_flight=GROUPS_IN_FLIGHT,
        epi_stage_bytes=epi, epi_offset=tma_store_stage_offset(cfg, eb),
        epi_subtile=(sub[0], sub[1].label) if sub else None, d=d, cluster=tuple(cfg.cluster),
        schedule=cfg.schedule, persistent=bool(cfg.persistent), roles=roles_of(cfg),
        order_offset=order_barrier_offset(cfg, eb), order_bytes=order_barrier_bytes(cfg),
        split_k_mode=cfg.split_k_mode, split_k=cfg.split_k,
    )


def descriptors(n: HopperNumbers, op: Operand, slot: int = 0, warpgroup: int = 0):
    """[(k offset, MatrixDescriptor, its 64-bit value)] of every wgmma K step of `op`'s slice in ring
    slot `slot` (A: warpgroup `warpgroup`'s 64 rows), the start address relative to the dynamic
    shared memory's base (1024-byte aligned, so the swizzle and the base offset 0 agree): what
    lasscc-hopper-smem builds with sm90_layout.tile_descriptor."""
    from lasscc import sm90_layout as S90

    base = op.ring_offset + slot * op.tile_bytes
    row = S90.WGMMA_M * warpgroup if op.name == "A" else 0
    out = []
    for kk in range(0, n.bk, n.wgmma_k):
        if op.name == "A":
            d = S90.tile_descriptor(base, op.rows, n.bk, n.elem_bytes, op.major, op.swizzle, k_offset=kk, row_offset=row)
        else:
            d = S90.tile_descriptor(base, op.rows, n.bk, n.elem_bytes, op.major, op.swizzle, k_offset=kk)
        out.append((kk, d, d.encode()))
    return out


def _kb(nbytes: int) -> str:
    return f"{nbytes / 1024:g} KB"


def _table(rows, header):
    from lasscc.explain.text import _table as table

    return table(rows, header)


def section_hierarchy(n: HopperNumbers, facts: Facts, k: int) -> list[str]:
    from lasscc.explain.text import LAYOUT_NAME

    kt = -(-k // n.bk)
    out = ["Tile hierarchy (mma = \"wgmma\": TMA, mbarriers and warpgroup MMA; lasscc-warpgroup-mma)"]
    rows = [
        ["threadblock", f"{n.bm} x {n.bn} x {n.bk}", f"one CTA of {n.threads} threads per {n.bm} x {n.bn} tile of D"
         f"{'^T' if facts.swap else ''}; K loop in k-tiles of {n.bk}"],
        ["warpgroup", f"{n.wg_rows} x {n.bn} x {n.bk}",
         (f"each consumer warpgroup (128 threads, 4 warps) its own {n.bm} x {n.bn} tile: per wgmma K step one "
          f"wgmma on rows 0..63 and one on rows 64..127, warp w holding rows 16w.. of each"
          if n.wg_rows > 64 else
          f"{n.warpgroups} consumer warpgroup{'s' if n.warpgroups > 1 else ''} of 128 threads (4 warps); "
          f"warpgroup g owns rows 64g .. 64g+63")],
        ["instruction", f"64 x {n.wgmma_n} x {n.wgmma_k}", n.wgmma_name + (
            f"; {n.bn // n.wgmma_n} accumulator chains per 64 rows, chain c on columns c*{n.wgmma_n}.."
            if n.wgmma_n != n.bn else "")],
        ["D", f"{facts.d_dtype} {LAYOUT_NAME.get(facts.d_layout, facts.d_layout)}",
         f"alpha * acc (+ beta * C when beta != 0), {n.acc_ptx} accumulation"],
    ]
    out += _table(rows, ["level", "shape (M x N x K)", "what"])
    a, b = n.ops
    src = ", ".join(f"{o.name} {'MN' if o.major != K_MAJOR else 'K'}-major (imm-trans-{o.name.lower()} {o.trans})"
                    for o in (a, b))
    out.append(f"  operands: both from shared memory by descriptor (SS): {src}")
    chains = f" x {n.bn // n.wgmma_n} chains" if n.wgmma_n != n.bn else ""
    out.append(f"  per k-tile: {n.bk} / {n.wgmma_k}{chains} = {n.wgmma_per_ktile} wgmma per warpgroup, "
               f"{n.wgmma_per_ktile * n.warpgroups} per CTA, one wgmma.commit_group; wgmma.wait_group "
               f"{n.groups_in_flight} keeps {n.groups_in_flight} group in flight")
    out.append(f"  per kernel tile (K = {k}: {kt} k-tiles): {kt * n.wgmma_per_ktile} wgmma per warpgroup, "
               f"{kt * n.wgmma_per_ktile * n.warpgroups} per CTA (--k sets K)")
    ops = "ops" if n.ptx_ab == "s8" else "flops"
    out.append(f"  one wgmma: 2 x 64 x {n.wgmma_n} x {n.wgmma_k} = {2 * 64 * n.wgmma_n * n.wgmma_k} {ops}")
    if n.roles:
        out.append(f"  schedule = \"{n.schedule}\": a producer warpgroup and consumer warpgroups (see \"Roles and "
                   "tile schedule\")")
    else:
        out.append("  producer: thread 0 waits for a free slot, arms its full barrier and issues the TMA loads; every "
                   "thread consumes (waits on the full barrier, runs its warpgroup's wgmma, releases the slot)")
    if n.ptx_ab == "tf32":
        out.append("  A and B stay f32 in global and shared memory; wgmma reads them as tf32")
    if facts.swap:
        from lasscc.explain.facts import swap_note

        out.append(f"  {swap_note(facts)}; everything below is in the kernel's order")
    return out


def section_smem(n: HopperNumbers, arch: str) -> list[str]:
    out = ["Shared memory and TMA (lasscc-pipeline's ring of `stages` slots per operand, lasscc-hopper-smem's "
           "tensor maps)"]
    rows = []
    for o in n.ops:
        rows.append([f"{o.name} tile", f"{o.rows} x {n.bk} {n.ab}", f"{o.tile_bytes} B",
                     f"ring at {o.ring_offset}, slot s at {o.ring_offset} + {o.tile_bytes} s"])
    rows += [["per stage", "A + B", f"{n.stage_bytes} B", _kb(n.stage_bytes)]]
    if n.epi_stage_bytes:  # epilogue = "tma": its own staging buffers, after the rings
        half = n.epi_stage_bytes // 2
        rows.append(["TMA-store staging", f"2 x {n.bm} x 128 B", f"{n.epi_stage_bytes} B",
                     f"at {n.epi_offset}: buffer b at {n.epi_offset} + {half} b"])
    rows += [["mbarriers", f"2 x {n.stages}", f"{n.smem_total - n.barrier_offset} B",
              f"at {n.barrier_offset}: full[s] at {n.barrier_offset} + 8 s, empty[s] at "
              f"{n.barrier_offset + 8 * n.stages} + 8 s"],
             ["total", f"{n.stages} stages", f"{n.smem_total} B", _kb(n.smem_total)],
             [f"{arch} limit", "per block (opt-in)", f"{n.smem_limit} B", _kb(n.smem_limit)]]
    out += _table(rows, ["what", "shape", "bytes", ""])
    verdict = "fits" if n.smem_total <= n.smem_limit else "DOES NOT FIT"
    pct = 100.0 * n.smem_total / n.smem_limit if n.smem_limit else 0
    out.append(f"  {verdict}: {pct:.0f}% of the {arch} limit; at most {n.stages_fit} stages of this tile fit; the "
               "array is 1024-byte aligned (the 128B swizzle's pattern)")
    out.append("  TMA tensor maps (kernel parameters tmap_A / tmap_B, built on the host by cuTensorMapEncodeTiled; "
               "out-of-bounds boxes are zero-filled):")
    for o in n.ops:
        (inner, outer), _, _ = o.boxes[0]
        along = ("K", "M" if o.name == "A" else "N") if o.major == K_MAJOR else ("M" if o.name == "A" else "N", "K")
        offs = ", ".join(str(b[2]) for b in o.boxes)
        out.append(f"    {o.name}: box {inner} {along[0]} x {outer} {along[1]} ({inner * n.elem_bytes} B lines), "
                   f"swizzle {o.swizzle.label}; {len(o.boxes)} box{'es' if len(o.boxes) != 1 else ''} per tile at "
                   f"slot offsets {offs}")
    if n.epi_stage_bytes:
        out += epilogue_lines(n)
    return out


def epilogue_lines(n: HopperNumbers) -> list[str]:
    """The TMA-store epilogue (config epilogue = "tma", passes/tma_store.py) in words."""
    out = ['  Epilogue (epilogue = "tma", CUTLASS\'s sm90 TMA-store epilogue; with beta != 0 the direct stores read C):']
    if n.epi_subtile is None:
        out.append(f"    D's type unknown here: subtiles of {n.bm} rows x one 128/64/32-byte swizzle line")
        return out
    cols, label = n.epi_subtile
    how = ("stmatrix.x4 per 16 x 16 block (the accumulator fragment is stmatrix's)" if n.d in ("f16", "bf16")
           else "st.shared.v2 per accumulator pair")
    out.append(f"    {n.bn // cols} subtile{'s' if n.bn // cols != 1 else ''} of {n.bm} x {cols} {n.d} ({label} swizzle, "
               f"tensor map tmap_D, box {cols} x {n.bm}), alternating between the 2 staging buffers: {how}, "
               "fence.proxy.async, barrier, thread 0 cp.async.bulk.tensor shared -> global (clipped at D's bounds) "
               "+ commit_group; wait_group.read 1 before a buffer is rewritten, "
               + ("0 before the next tile's first subtile (its mainloop starts at once) and once after the tile loop "
                  "(the store tail)" if n.persistent and n.schedule != "pingpong" else "0 at the end"))
    if n.schedule == "pingpong":
        out.append("    the two consumers share the staging buffers and the barrier (one warpgroup's named barrier): "
                   "the ordering barrier runs their epilogues in turns, each ending with its stores' reads retired")
    return out


def section_mbarriers(n: HopperNumbers) -> list[str]:
    out = [f"mbarriers (2 per stage, {n.stages} stages; CUTLASS's PipelineTmaAsync)"]
    rows = [["full[s]", "1", f"{n.tx_bytes} B",
             "thread 0: mbarrier.arrive.expect_tx, then the TMA's bytes complete the phase; consumers wait on parity"],
            ["empty[s]", str(n.empty_arrivals), "-",
             ("lane 0 of each warp of the k-tile's consumer warpgroup" if n.schedule == "pingpong"
              else "lane 0 of each consumer warp")
             + (" in both CTAs of the cluster" if tuple(n.cluster) != (1, 1) else "")
             + " arrives once the warp is done with the slot (one k-tile late: a wgmma group stays in flight); "
             "the producer waits on parity ^ 1 before refilling"]]
    if n.order_bytes:  # the pingpong ordering barrier (lasscc.schedule)
        rows.append(["order[st][c]", "128", "-", f"at {n.order_offset} + 16 st + 8 c (st 0 mainloop, 1 epilogue): "
                     "consumer c waits on its own before the stage, then arrives on the other's"])
    out += _table(rows, ["barrier", "arrivals", "expect_tx", "protocol"])
    a, b = n.ops
    out.append(f"  expect_tx per stage = A {a.tile_bytes} B + B {b.tile_bytes} B (whole boxes: out-of-bounds bytes are "
               "counted too); phase of k-tile t: (t / stages) & 1, slot t % stages")
    return out


def section_descriptors(n: HopperNumbers) -> list[str]:
    from lasscc.sm90_layout import MatrixDescriptor

    out = ["wgmma matrix descriptors (sm90_layout.tile_descriptor, the values lasscc-hopper-smem encodes; start "
           "addresses relative to the dynamic shared memory, slot 0, warpgroup 0)"]
    for o in n.ops:
        descs = descriptors(n, o)
        kk, d, value = descs[0]
        what = "warpgroup 0's 64 rows" if o.name == "A" else f"all {o.rows} rows"
        out.append(f"  {o.name} ({what}, {'K' if o.major == K_MAJOR else 'MN'}-major, k = 0): 0x{value:016x}, decoded:")
        # the fields read back from the 64-bit value (MatrixDescriptor.decode), not the encoder's inputs
        out += _table([list(r) for r in MatrixDescriptor.decode(value).describe()], ["field", "bits", "value"])
        steps = ", ".join(f"k {k}: +{dd.start_address - d.start_address} B" for k, dd, _ in descs[1:])
        if steps:
            out.append(f"    next wgmma K steps move the start address: {steps}")
        if o.name == "A" and (n.warpgroups > 1 or n.wg_rows > 64):
            d1 = descriptors(n, o, warpgroup=1)[0][1]
            who = "warpgroup 1" if n.warpgroups > 1 else "the consumer's second wgmma"
            out.append(f"    {who} starts at {d1.start_address:#x} (rows 64..127)")
        out.append(f"    slot s adds {o.tile_bytes} s B")
    return out


def section_registers(n: HopperNumbers) -> list[str]:
    acc_what = f"{n.wg_rows} x {n.bn} {n.acc_ptx} over 128 threads" + (", two f16 per register" if n.acc == "f16" else "")
    # a warp-specialized consumer's bound is its setmaxnreg budget (lasscc.resources.role_budget)
    limit, whose = (n.roles[-1].regs, "a consumer's after setmaxnreg") if n.roles else (n.reg_limit, "")
    verdict = "within" if n.reg_estimate <= limit else "OVER"
    return ["Registers (lasscc.resources.wgmma_register_estimate)",
            f"  accumulators: {n.acc_regs} per thread ({acc_what}); + ~{n.other_regs} others (descriptors, addresses, "
            f"loop state) = {n.reg_estimate}, {verdict} the {limit} per thread{' (' + whose + ')' if whose else ''}"]


def section_banks(n: HopperNumbers) -> list[str]:
    from lasscc.sm90_layout import bank_picture, core_matrix_banks

    out = ["Swizzle modes and banks (sm90_layout.bank_picture: the 16-byte chunk -> 4-bank group map the TMA "
           "writes and wgmma reads)"]
    seen = []
    for o in n.ops:
        if o.swizzle in seen:
            out.append(f"  {o.name}: {o.swizzle.label}, as above")
            continue
        seen.append(o.swizzle)
        out.append(f"  {o.name}: {o.swizzle.label} swizzle ({'K' if o.major == K_MAJOR else 'MN'}-major tile)")
        out += ["  " + line for line in bank_picture(o.swizzle).splitlines()]
        banks = core_matrix_banks(o.swizzle, 0)
        distinct = len(set(int(x) for x in banks.ravel()))
        out.append(f"    a core matrix (8 lines x 16 B of one chunk column) touches {distinct} distinct banks of 32: "
                   f"{'conflict-free' if distinct == 32 else f'{32 // max(distinct // 4, 1)}-way conflicts'}")
    return out


# CTAs whose tiles the schedule section lists one by one (then the last one)
SCHEDULE_CTAS_SHOWN = 4


def _tiles(ts: list[int]) -> str:
    return ", ".join(map(str, ts[:6])) + (f", ... ({len(ts)} tiles)" if len(ts) > 6 else "")


def section_schedule(n: HopperNumbers, grid, sms: int | None) -> list[str]:
    """The roles (warps, registers after setmaxnreg) and which CTA / consumer computes which tile of
    the example grid (lasscc.schedule, the formulas the kernel runs)."""
    from lasscc import schedule as SCH
    from lasscc.resources import PINGPONG_CONSUMERS, REGISTER_FILE, WARPGROUP_THREADS, launch_regs

    tm, tn = grid
    tiles = tm * tn
    pingpong = n.schedule == "pingpong"
    walks = n.persistent or pingpong
    per_cta = PINGPONG_CONSUMERS if pingpong else 1
    clustered = tuple(n.cluster) != (1, 1)
    csize = 1
    if clustered:  # tile numbers of whole clusters (lasscc.cluster.cluster_grid / claim_tile)
        from lasscc import cluster as CL

        tiles, csize = CL.cluster_grid(tm, tn, n.cluster), CL.size(n.cluster)
    ctas = SCH.launch_ctas(tiles, n.persistent, per_cta, sms if n.persistent else None, csize)
    out = [f"Roles and tile schedule (schedule = \"{n.schedule}\"{', persistent = 1' if n.persistent else ''}; "
           "lasscc-warp-specialize, lasscc.schedule)"]
    if n.roles:
        rows, total = [], 0
        for r in n.roles:
            wgs = list(r.warpgroups)
            warps = f"{4 * wgs[0]}-{4 * wgs[-1] + 3}"
            threads = WARPGROUP_THREADS * len(wgs)
            total += threads * r.regs
            how = "dec" if r.regs < r.launch_regs else "inc"
            rows.append([r.name, ", ".join(map(str, wgs)), warps, str(threads),
                         f"{r.launch_regs} -> {r.regs} (setmaxnreg.{how})", r.what])
        out += _table(rows, ["role", "warpgroup", "warps", "threads", "registers / thread", "does"])
        out.append(f"  registers: {total} of the {REGISTER_FILE} of the register file after setmaxnreg (ptxas gives "
                   f"{launch_regs(n.threads)} per thread at launch for {n.threads} threads)")
    else:
        out.append(f"  no roles: the {n.threads} threads all consume, thread 0 also loads (schedule = \"cooperative\" "
                   "or \"pingpong\" split them)")
    from lasscc.streamk import is_streamk

    if is_streamk(n.split_k_mode):  # the units of the stream-K section, not tiles
        out.append(f"  launch: the stream-K persistent grid (split_k_mode = \"{n.split_k_mode}\"; which CTA computes "
                   "which K range of which tile: the Stream-K section); "
                   + ("the consumers run each CTA's unit loop, the producer's thread 0 walks the same units and "
                      "loads every k-tile of each" if n.roles else
                      "every thread runs the CTA's unit loop, thread 0 also loading every k-tile of each unit"))
        out.append("  the ring runs on from unit to unit (k-tile numbers, slots and phases carried: lasscc-pipeline)"
                   + (", so the producer loads the next unit's k-tiles while the consumers finish this one" if n.roles
                      else ""))
        return out
    if n.split_k_mode == "cluster" and n.split_k > 1:  # (lasscc.cluster_splitk: the split-K section)
        out.append(f"  launch for a {tm} x {tn} tile grid (--grid): {tm * tn} tiles, {tm * tn * n.split_k} CTAs: a "
                   f"cluster of {n.split_k} per tile (cluster split-K: the split-K section)")
        return out
    grid_how = (f"min(tiles, SMs = {sms}) CTAs (persistent; --sms)" if n.persistent and sms else
                "one CTA per tile" if not walks else f"ceil(tiles / {per_cta}) CTAs")
    if not (walks and clustered):
        out.append(f"  launch for a {tm} x {tn} tile grid (--grid): {tiles} tiles, {ctas} CTAs: {grid_how}; CTA c takes "
                   f"tiles c, c + {ctas}, c + {2 * ctas}, ... in the raster order" if walks else
                   f"  launch for a {tm} x {tn} tile grid (--grid): {tm * tn} tiles, {ctas} CTAs: {grid_how} (the CTA's "
                   "block id is its tile" + ("; the grid rounded up to whole clusters: the cluster section"
                                             if clustered else "") + ")")
    if walks and clustered:
        out += _cluster_schedule(n, grid, tiles, ctas, csize, sms)
    elif walks:
        shown = list(range(min(ctas, SCHEDULE_CTAS_SHOWN))) + ([ctas - 1] if ctas > SCHEDULE_CTAS_SHOWN else [])
        rows = []
        for c in shown:
            row = [str(c), _tiles(SCH.cta_tiles(c, ctas, tiles))]
            if pingpong:
                row += [_tiles(SCH.consumer_tiles(c, ctas, tiles, w)) for w in range(PINGPONG_CONSUMERS)]
            rows.append(row)
        out += _table(rows, ["CTA", "tiles (producer order)"] + ([f"consumer {w}" for w in range(PINGPONG_CONSUMERS)]
                                                                 if pingpong else []))
    if walks:
        out.append("  the producer's ring runs on from tile to tile (k-tile numbers, slots and phases carried), so it "
                   "loads the next tile while the consumers finish this one")
    if pingpong:
        out.append("  ordering barrier (CUTLASS's OrderedSequenceBarrier): consumer 0 runs tile 0's mainloop; consumer 1 "
                   "starts tile 1's mainloop when it has issued its last wgmma, while consumer 0 drains, releases its "
                   "last slot and stores tile 0 (its epilogue overlaps the other's math); then consumer 0 takes tile "
                   "2's mainloop, and so on")
        out.append("  each consumer waits for and releases only its own tiles' k-tiles: consumer c numbers them from "
                   "c x k-tiles on, in steps of 2 tiles, and the ring's empty barriers expect one warpgroup's "
                   f"{n.empty_arrivals} arrivals")
    return out


def _cluster_schedule(n: HopperNumbers, grid, tiles: int, ctas: int, csize: int, sms: int | None) -> list[str]:
    """The persistent clustered launch (lasscc.cluster, lasscc.schedule): which cluster and rank takes
    which tile of the example grid."""
    from lasscc import cluster as CL
    from lasscc import schedule as SCH

    tm, tn = grid
    clusters, supers = ctas // csize, tiles // csize
    how = f"min(cluster tiles, SMs = {sms} rounded down to whole clusters)" if sms else "one cluster per cluster tile"
    out = [f"  launch for a {tm} x {tn} tile grid (--grid, --sms): {supers} cluster tiles of {n.cluster[0]} x "
           f"{n.cluster[1]} tiles, {clusters} clusters = {ctas} CTAs: {how}; cluster k walks cluster tiles k, "
           f"k + {clusters}, ... in the raster order, rank r of it the tile (row, column) of rank r, so both CTAs "
           "of a cluster walk the same number of tiles in lockstep (their multicasts and remote releases pair "
           "k-tile t with k-tile t); a tile past M / N is computed on zero-filled boxes and not stored"]
    shown = list(range(min(ctas, SCHEDULE_CTAS_SHOWN))) + ([ctas - 1] if ctas > SCHEDULE_CTAS_SHOWN else [])
    rows = []
    for c in shown:
        cid, rank = divmod(c, csize)
        walk = SCH.cluster_tiles(cid, clusters, tiles, csize)
        coords = [CL.rank_tile(t, rank, tm, tn, n.raster, n.cluster) for t in walk]
        cells = ", ".join(f"({i}, {j})" + ("*" if i >= tm or j >= tn else "") for i, j in coords[:5])
        rows.append([str(c), str(cid), str(rank), _tiles(walk), cells + (", ..." if len(coords) > 5 else "")])
    out += _table(rows, ["CTA", "cluster", "rank", "cluster tiles", "its tiles (row, column; * past M / N)"])
    return out


def explain_lines(n: HopperNumbers, facts: Facts, arch: str, sections, grid, k: int, resources,
                  sms: int | None = None, decomposition: list[str] | None = None) -> list[list[str]]:
    """The sections of a wgmma kernel's explanation (`resources`: the ptxas figures or None, with why;
    `sms`: the SM count a persistent grid fills; `decomposition`: the split-K / stream-K section,
    lasscc.explain.report.section_decomposition, shown with the raster)."""
    from lasscc.explain.text import section_raster, section_resources

    parts = []
    if "hierarchy" in sections:
        parts.append(section_hierarchy(n, facts, k))
        if n.cluster != (1, 1):
            from lasscc.explain.cluster import section_cluster

            parts.append(section_cluster(n, grid))
    if "raster" in sections:
        parts.append(section_raster(n, grid))
        if decomposition:
            parts.append(decomposition)
    if "schedule" in sections:
        parts.append(section_schedule(n, grid, sms))
    if "smem" in sections:
        parts.append(section_smem(n, arch))
    if "mbarriers" in sections:
        parts.append(section_mbarriers(n))
    if "descriptors" in sections:
        parts.append(section_descriptors(n))
    if "banks" in sections:
        parts.append(section_banks(n))
    if "registers" in sections:
        parts.append(section_registers(n))
    if "resources" in sections:
        res, why = resources()
        parts.append(section_resources(n, res, arch, why))
    return parts
