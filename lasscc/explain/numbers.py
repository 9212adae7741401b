"""Every count the explanation prints for one config (`Numbers`): the tile hierarchy from
lasscc.config.GemmConfig and lasscc.layout, the resources (registers, shared memory, copy accesses,
the cross-stage prefetch) from lasscc.resources, the rules the validator and the passes use."""

from __future__ import annotations

from dataclasses import dataclass

from lasscc.explain.facts import PTX_TYPE, type_bytes
from lasscc.layout import K_MAJOR
from lasscc.resources import REG_BYTES


@dataclass(frozen=True)
class Numbers:
    """The tile hierarchy of one config, every count the explanation prints."""

    bm: int
    bn: int
    bk: int
    wm: int
    wn: int
    wk: int
    im: int
    in_: int
    ik: int
    warps_m: int
    warps_n: int
    warps: int
    threads: int
    mma_m: int  # MmaIterations m: warp M / instruction M
    mma_n: int  # MmaIterations n: warp N / instruction N
    kgroups: int  # instruction-K slices per k-tile: BK / IK
    mma_per_kgroup: int  # per warp
    mma_per_ktile: int  # per warp
    mma_per_ktile_cta: int
    a_regs_per_frag: int  # 32-bit registers of one m16 x IK A fragment, per thread
    b_regs_per_frag: int  # of one IK x n8 B fragment
    c_per_mma: int  # accumulator values of one m16n8 C tile, per thread
    a_regs: int  # per k-group, per thread
    b_regs: int
    acc_regs: int  # 32-bit registers of all accumulators
    ldmatrix_a: int  # fragment loads (ldmatrix.x4 for K-major tiles) per k-group per warp
    ldmatrix_b: int
    frag_sets: int  # fragment sets live at once (double buffering, + cross-stage prefetch)
    reg_estimate: int  # lasscc.resources.register_estimate: what the main loop holds live
    reg_parts: str  # its parts (RegisterEstimate.describe)
    stages: int
    raster: int
    smem_a_tile: int  # bytes of one stage's A tile
    smem_b_tile: int
    smem_stage: int
    smem_total: int
    smem_limit: int
    stages_fit: int
    copy_a_chunks: int  # global -> shared accesses of one A tile (16-byte chunks by default)
    copy_b_chunks: int
    copy_a_per_thread: int
    copy_b_per_thread: int
    # the element type and what follows from it (lasscc.layout.MMA_INPUTS)
    ab: str = "f16"  # MLIR type of A and B
    elem_bytes: int = 2
    ptx_ab: str = "f16"  # the mma's A/B type: f16, bf16, tf32, s8
    elems_per_reg: int = 2  # A/B elements per 32-bit fragment register
    acc: str = "f32"  # MLIR accumulator type
    acc_ptx: str = "f32"  # f32, f16, s32
    acc_per_reg: int = 1  # accumulator values per 32-bit register (2 for f16: f16x2)
    mma_name: str = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
    prefetch: bool = False  # the cross-stage fragment prefetch applies (lasscc-warp-mma)
    prefetch_asked: bool = False  # config prefetch = 1
    a_major: str = K_MAJOR
    b_major: str = K_MAJOR
    access_a: int = 16  # bytes per global -> shared copy access (GemmConfig.access_bytes)
    access_b: int = 16
    align_a: int = 8  # elements per access (GemmConfig.align_elems)
    align_b: int = 8
    copy_a_loop: bool = False  # the copy is an scf.for over its accesses (lasscc.resources.copy_is_loop)
    copy_b_loop: bool = False


def mma_instruction(ab: str, acc: str) -> str:
    """The PTX mma.sync of A/B type `ab` and accumulator `acc` (MLIR names), as lasscc-lower-to-llvm
    emits it (lass_nv.mma_sync: s8 with .satfinite)."""
    from lasscc.layout import MMA_INPUTS

    _, (m, n, k), ptx = MMA_INPUTS[ab]
    a = PTX_TYPE[acc]
    sat = ".satfinite" if ptx == "s8" else ""
    return f"mma.sync.aligned.m{m}n{n}k{k}.row.col{sat}.{a}.{ptx}.{ptx}.{a}"


def numbers(cfg, arch: str = "sm_80", ab: str = "f16", acc: str | None = None,
            majors: tuple[str, str] = (K_MAJOR, K_MAJOR)) -> Numbers:
    """The counts of config `cfg` (in the kernel's operand order) for A/B of MLIR type `ab`,
    accumulator `acc` (default: the type's first, lasscc.dialects.lass.ACC_TYPES) and tiles stored
    `majors`."""
    from lasscc.dialects.lass import ACC_TYPES
    from lasscc.layout import MMA_INPUTS, WARP_SIZE, elem_bytes, mma_shape
    from lasscc.resources import (SMEM_PER_BLOCK_LIMIT, acc_regs, copy_accesses, copy_is_loop, fragment_regs,
                                  prefetch_applies, register_estimate, smem_stages_fit)

    bm, bn, bk = cfg.threadblock
    wm, wn, wk = cfg.warp
    im, in_, ik = cfg.instruction
    eb = elem_bytes(ab)
    mm, mn, mk = mma_shape(ab)
    acc = acc or ACC_TYPES[ab][0]
    mma_m, mma_n, kgroups = wm // mm, wn // mn, bk // mk
    a_rf, b_rf = fragment_regs(ab)  # per-thread registers of one A / B fragment
    c_mma = mm * mn // WARP_SIZE
    per_acc_reg = REG_BYTES // type_bytes(acc)  # f16 accumulators: f16x2 pairs (lasscc-lower-to-llvm)
    # lasscc-warp-mma: the loads of k-group g+1 are issued before the mma.sync of k-group g (two
    # sets live when there are two k-groups or more); where config prefetch = 1 applies, the next
    # slot's first set is loaded across the barrier and carried into the next iteration
    prefetch = prefetch_applies(cfg, ab, majors, acc)  # the pass's own test
    regs = register_estimate(cfg, ab, majors, acc, prefetch)  # the config check's model
    threads = cfg.threads
    wa, wb = cfg.access_bytes(ab)
    ea, eb_ = cfg.align_elems(ab)
    (ca, pa), (cb, pb) = copy_accesses(cfg, ab)
    return Numbers(
        bm=bm, bn=bn, bk=bk, wm=wm, wn=wn, wk=wk, im=im, in_=in_, ik=ik,
        warps_m=cfg.warps_m, warps_n=cfg.warps_n, warps=cfg.warps_m * cfg.warps_n, threads=threads,
        mma_m=mma_m, mma_n=mma_n, kgroups=kgroups, mma_per_kgroup=mma_m * mma_n,
        mma_per_ktile=mma_m * mma_n * kgroups, mma_per_ktile_cta=mma_m * mma_n * kgroups * cfg.warps_m * cfg.warps_n,
        a_regs_per_frag=a_rf, b_regs_per_frag=b_rf, c_per_mma=c_mma, a_regs=mma_m * a_rf, b_regs=mma_n * b_rf,
        acc_regs=acc_regs(cfg, acc),
        ldmatrix_a=mma_m, ldmatrix_b=mma_n // 2, frag_sets=regs.sets, reg_estimate=regs.total, reg_parts=regs.describe(),
        stages=cfg.stages, raster=cfg.raster,
        smem_a_tile=bm * bk * eb, smem_b_tile=bn * bk * eb, smem_stage=cfg.smem_stage_bytes(eb),
        smem_total=cfg.smem_bytes(eb), smem_limit=SMEM_PER_BLOCK_LIMIT.get(arch, 0),
        stages_fit=smem_stages_fit(cfg, arch, eb),
        copy_a_chunks=ca, copy_b_chunks=cb, copy_a_per_thread=pa, copy_b_per_thread=pb,
        ab=ab, elem_bytes=eb, ptx_ab=MMA_INPUTS[ab][2], elems_per_reg=REG_BYTES // eb, acc=acc,
        acc_ptx=PTX_TYPE[acc], acc_per_reg=per_acc_reg, mma_name=mma_instruction(ab, acc), prefetch=prefetch,
        prefetch_asked=bool(cfg.prefetch),
        a_major=majors[0], b_major=majors[1], access_a=wa, access_b=wb, align_a=ea, align_b=eb_,
        copy_a_loop=cfg.stages >= 3 and copy_is_loop(pa), copy_b_loop=cfg.stages >= 3 and copy_is_loop(pb),
    )


def _default_cfg():
    from lasscc.config import GemmConfig

    return GemmConfig()
