"""`lasscc explain FILE.mlir [--stage S] [--png DIR]`: what the compiler will build, with numbers.

Sections (all with `--stage input` or no --stage; one pass's share with `--stage PASS`):

  lasscc-tile-threadblock  the tile hierarchy (threadblock -> warps -> mma.sync), grid, rasterization order
  lasscc-pipeline          shared memory per stage and in total against the arch limit, copies per thread
  lasscc-warp-mma          warp grid, MmaIterations, k-groups, fragments per thread, register estimate,
                           the lane -> element maps of the mma.sync A, B and C fragments, the epilogue
  lasscc-swizzle-smem      the A tile's 4-byte banks, unswizzled vs swizzled, the fragment loads
                           (ldmatrix.x4 phases, or the loads of MN-major tf32 / s8 tiles) and the
                           wavefronts each needs
  lasscc-lower-to-llvm, llvm, ptx   ptxas -v's registers / shared memory / spills (when ptxas is on PATH)

Everything follows the GEMM's A/B element type (f16 / bf16: mma m16n8k16, 2-byte elements; f32 as
tf32: m16n8k8, 4 bytes; i8 as s8: m16n8k32, 1 byte; lasscc.layout.MMA_INPUTS), its accumulator and
D types, the storage of each operand tile (K- or MN-major) and the config's copy widths (`align`),
all in the kernel's operand order (a column-major D swaps A and B, as lasscc-tile-threadblock does).

With `--png DIR` the same maps are drawn (matplotlib, optional): smem_banks.png, mma_fragments.png,
ldmatrix_x4.png, raster.png.  Every number comes from `lasscc.config.GemmConfig` and every map from
the functions of `lasscc.layout` (and the passes' own helpers) that the passes use; nothing is
re-derived here.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

SECTIONS = ("hierarchy", "raster", "smem", "warp", "fragments", "banks", "ldmatrix", "resources")
# which sections each stage shows; None (no --stage) and "input" show all
STAGE_SECTIONS = {
    "lasscc-tile-threadblock": ("hierarchy", "raster"),
    "lasscc-pipeline": ("smem",),
    "lasscc-warp-mma": ("warp", "fragments"),
    "lasscc-swizzle-smem": ("banks", "ldmatrix"),
    "lasscc-lower-to-llvm": ("resources",),
    "llvm": ("resources",),
    "ptx": ("resources",),
}
PNGS = {"banks": "smem_banks.png", "fragments": "mma_fragments.png", "ldmatrix": "ldmatrix_x4.png",
        "raster": "raster.png"}
DEFAULT_GRID = (12, 8)  # tiles (M x N) of the rasterization example
BANK_ROWS = 8  # rows of the text bank table
REG_BYTES = 4  # a 32-bit register
K_MAJOR, MN_MAJOR = "k", "mn"  # lasscc.layout.K_MAJOR / MN_MAJOR
# PTX names of the MLIR accumulator / D types (PTX ISA "mma": s8 products accumulate in .s32)
PTX_TYPE = {"f16": "f16", "bf16": "bf16", "f32": "f32", "i32": "s32", "i8": "s8"}


def type_bytes(name: str) -> int:
    """Bytes of the MLIR element type `name` (f16, bf16, f32, i8, i32)."""
    from xdsl.dialects.builtin import bf16, f16, f32, i8, i32

    return {str(t): t.bitwidth // 8 for t in (f16, bf16, f32, i8, i32)}[name]


# ---- the GEMM --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Facts:
    """What the explanation needs besides the config: types, layouts and the operand swap."""

    ab: str = "f16"  # MLIR type of A and B
    acc: str = "f32"  # accumulator (MLIR type: f32, f16, i32)
    d_dtype: str = "f32"
    beta: float | None = 0.0  # the op's beta (what `lasscc run` passes); None when unknown
    d_layout: str = "row"  # the caller's D: "row" or "col"
    swap: bool = False  # column-major D: the kernel computes D^T = B^T . A^T (KernelFacts.swap_ab)
    majors: tuple[str, str] = (K_MAJOR, K_MAJOR)  # how the kernel's A and B tiles are stored
    layouts: tuple[str, str] = ("row", "col")  # the caller's A and B layouts


def _kernel_facts(info):
    """The KernelFacts of `info`'s GEMM: what lasscc-tile-threadblock makes of the lass.gemm, or a
    dump's kernel function's own."""
    from lasscc.dialects.lass import GemmOp, KernelFacts, kernel_facts

    return KernelFacts.of_gemm(info.op, info.config) if isinstance(info.op, GemmOp) else kernel_facts(info.op)


def gemm_facts(module, info) -> Facts:
    """Facts of the GEMM of `info` (gemm_config): from the lass.gemm, or a dump's kernel function."""
    kf = _kernel_facts(info)
    return Facts(kf.ab_type, kf.acc_type, info.d_dtype, kf.beta, kf.d_layout, kf.swap_ab, kf.kernel_majors,
                 (kf.a_layout, kf.b_layout))


def kernel_config(info, facts: Facts):
    """The config of `info` in the kernel's operand order (KernelFacts.config: for a column-major D
    the `align` of A and B swapped)."""
    cfg = _kernel_facts(info).config
    if cfg.is_wgmma:  # its warpgroups, TMA boxes, descriptors and mbarriers are not described yet
        from lasscc.diagnostics import LassError

        raise LassError('explain: mma = "wgmma" kernels are not described yet (issue 14); '
                        'lasscc compile --dump-dir shows each level\'s IR')
    return cfg


# ---- numbers ---------------------------------------------------------------------------------


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
    reg_estimate: int  # lasscc.config.register_estimate: what the main loop holds live
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
    copy_a_loop: bool = False  # the copy is an scf.for over its accesses (> COPY_UNROLL_MAX)
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
    from lasscc.config import SMEM_PER_BLOCK_LIMIT, register_estimate
    from lasscc.dialects.lass import ACC_TYPES
    from lasscc.layout import MMA_INPUTS, WARP_SIZE, copy_iterations, elem_bytes, mma_shape
    from lasscc.passes import warp_mma
    from lasscc.passes.swizzle_smem import COPY_UNROLL_MAX

    bm, bn, bk = cfg.threadblock
    wm, wn, wk = cfg.warp
    im, in_, ik = cfg.instruction
    eb = elem_bytes(ab)
    mm, mn, mk = mma_shape(ab)
    acc = acc or ACC_TYPES[ab][0]
    acc_b = type_bytes(acc)
    mma_m, mma_n, kgroups = wm // mm, wn // mn, bk // mk
    # per-thread registers: a fragment of M x K (or K x N) elements over 32 lanes, packed into
    # 32-bit registers (2 f16 / bf16, 1 tf32, 4 s8 per register: 4 + 2 registers for every shape)
    a_rf = mm * mk * eb // WARP_SIZE // REG_BYTES
    b_rf = mk * mn * eb // WARP_SIZE // REG_BYTES
    c_mma = mm * mn // WARP_SIZE
    per_acc_reg = REG_BYTES // acc_b  # f16 accumulators: f16x2 pairs (lasscc-lower-to-llvm)
    a_regs, b_regs = mma_m * a_rf, mma_n * b_rf
    acc_regs = mma_m * mma_n * c_mma // per_acc_reg
    # lasscc-warp-mma: the loads of k-group g+1 are issued before the mma.sync of k-group g (two
    # sets live when there are two k-groups or more); where config prefetch = 1 applies, the next
    # slot's first set is loaded across the barrier and carried into the next iteration
    prefetch = warp_mma.prefetch_applies(cfg, ab, majors, acc)  # the pass's own test
    regs = register_estimate(cfg, ab, majors, acc, prefetch)  # the config check's model
    limit = SMEM_PER_BLOCK_LIMIT.get(arch, 0)
    threads = cfg.threads
    wa, wb = cfg.access_bytes(ab)
    ea, eb_ = cfg.align_elems(ab)

    def copies(rows, major, w):  # as lasscc-swizzle-smem's `chunks`: the tile in its global order
        lines, line_elems = (bk, rows) if major == MN_MAJOR else (rows, bk)
        return rows * bk * eb // w, copy_iterations(lines, line_elems, eb, threads, w)

    ca, pa = copies(bm, majors[0], wa)
    cb, pb = copies(bn, majors[1], wb)
    stage = cfg.smem_stage_bytes(eb)
    return Numbers(
        bm=bm, bn=bn, bk=bk, wm=wm, wn=wn, wk=wk, im=im, in_=in_, ik=ik,
        warps_m=cfg.warps_m, warps_n=cfg.warps_n, warps=cfg.warps_m * cfg.warps_n, threads=threads,
        mma_m=mma_m, mma_n=mma_n, kgroups=kgroups, mma_per_kgroup=mma_m * mma_n,
        mma_per_ktile=mma_m * mma_n * kgroups, mma_per_ktile_cta=mma_m * mma_n * kgroups * cfg.warps_m * cfg.warps_n,
        a_regs_per_frag=a_rf, b_regs_per_frag=b_rf, c_per_mma=c_mma, a_regs=a_regs, b_regs=b_regs, acc_regs=acc_regs,
        ldmatrix_a=mma_m, ldmatrix_b=mma_n // 2, frag_sets=regs.sets, reg_estimate=regs.total, reg_parts=regs.describe(),
        stages=cfg.stages, raster=cfg.raster,
        smem_a_tile=bm * bk * eb, smem_b_tile=bn * bk * eb, smem_stage=stage,
        smem_total=cfg.smem_bytes(eb), smem_limit=limit, stages_fit=limit // stage,
        copy_a_chunks=ca, copy_b_chunks=cb, copy_a_per_thread=pa, copy_b_per_thread=pb,
        ab=ab, elem_bytes=eb, ptx_ab=MMA_INPUTS[ab][2], elems_per_reg=REG_BYTES // eb, acc=acc,
        acc_ptx=PTX_TYPE[acc], acc_per_reg=per_acc_reg, mma_name=mma_instruction(ab, acc), prefetch=prefetch,
        prefetch_asked=bool(cfg.prefetch),
        a_major=majors[0], b_major=majors[1], access_a=wa, access_b=wb, align_a=ea, align_b=eb_,
        copy_a_loop=cfg.stages >= 3 and pa > COPY_UNROLL_MAX, copy_b_loop=cfg.stages >= 3 and pb > COPY_UNROLL_MAX,
    )


# ---- maps (all from lasscc.layout) -------------------------------------------------------------


def bank_grid(rows: int, bk: int, swizzled: bool, elem_bytes: int = 2, major: str = K_MAJOR,
              tile_rows: int | None = None):
    """Bank of each 4-byte word of an operand tile in shared memory (lasscc.layout.tile_offset).

    K-major (`major` "k"): [rows, bk * elem_bytes / 4], the first `rows` tile rows (rows of bk
    elements).  MN-major ("mn"): [rows, W * elem_bytes / 4], the first `rows` k-lines of the first
    atom (W = lasscc.layout.mn_atom_elems(tile_rows, elem_bytes) contiguous M or N elements each)."""
    import numpy as np

    from lasscc.layout import SMEM_BANK_BYTES, SMEM_BANKS, mn_atom_elems, tile_offset

    step = SMEM_BANK_BYTES // elem_bytes  # elements per word
    r = np.arange(rows)[:, None]
    if major == MN_MAJOR:
        w = mn_atom_elems(tile_rows, elem_bytes)
        m = step * np.arange(w * elem_bytes // SMEM_BANK_BYTES)[None, :]
        off = tile_offset(m, r, tile_rows, bk, elem_bytes, MN_MAJOR, swizzled)
    else:
        k = step * np.arange(bk * elem_bytes // SMEM_BANK_BYTES)[None, :]
        off = tile_offset(r, k, tile_rows or rows, bk, elem_bytes, K_MAJOR, swizzled)
    return (off // SMEM_BANK_BYTES) % SMEM_BANKS


def ldmatrix_phase(operand: str, phase: int, kgroup: int = 0, row0: int = 0, ab: str = "f16",
                   major: str = K_MAJOR):
    """[(lane, row, k)] of the 8 16-byte row addresses of ldmatrix.x4 phase `phase` (lanes
    8p..8p+7) for the A (rows = M) or B (rows = N) fragment at tile row `row0`, k-group `kgroup`:
    the element each address starts at.  K-major tiles: lasscc.layout.ldmatrix_a/b_lane_src (a row
    of 16 bytes along k); MN-major 16-bit tiles: ldmatrix_a/b_trans_lane_src (.trans; 16 bytes
    along M / N at one k-line); MN-major s8: s8_mn_trans_lane_src.  MN-major tf32 tiles have no
    ldmatrix (tf32_mn_wavefronts)."""
    from lasscc import layout as L

    eb, (_, _, ik) = L.elem_bytes(ab), L.mma_shape(ab)
    if major == MN_MAJOR:
        if eb == 2:
            src = L.ldmatrix_a_trans_lane_src if operand == "A" else L.ldmatrix_b_trans_lane_src
        elif eb == 1:
            src = L.s8_mn_trans_lane_src
        else:
            raise ValueError("MN-major tf32 fragments are read with ld.shared.v2, not ldmatrix")
    else:
        base = L.ldmatrix_a_lane_src if operand == "A" else L.ldmatrix_b_lane_src

        def src(lane):
            return base(lane, eb)
    out = []
    for lane in range(phase * L.LDMATRIX_ROWS, (phase + 1) * L.LDMATRIX_ROWS):
        r, k = src(lane)
        out.append((lane, row0 + r, kgroup * ik + k))
    return out


def phase_wavefronts(operand: str, phase: int, kgroup: int, bk: int, swizzled: bool, row0: int = 0,
                     ab: str = "f16", major: str = K_MAJOR, tile_rows: int = 128) -> int:
    """Wavefronts one ldmatrix phase needs (lasscc.layout.wavefronts of its 8 16-byte rows);
    `tile_rows` (BM or BN) fixes an MN-major tile's atoms."""
    from lasscc.layout import ACCESS_BYTES, elem_bytes, tile_offset, wavefronts

    eb = elem_bytes(ab)
    addrs = [tile_offset(r, k, tile_rows, bk, eb, major, swizzled)
             for _, r, k in ldmatrix_phase(operand, phase, kgroup, row0, ab, major)]
    return wavefronts(addrs, ACCESS_BYTES)


TF32_MN_LOAD_BYTES = 8  # ld.shared.v2.b32 of two adjacent 32-bit elements (lasscc-swizzle-smem)


def tf32_mn_accesses(load: int, kgroup: int = 0, row0: int = 0):
    """[(lane, row, k)] of ld.shared.v2 number `load` (0, 1) of an interleaved tf32 fragment from an
    MN-major tile: rows row, row + 1 at k-line k (lasscc.layout.tf32_mn_lane_src), all 32 lanes."""
    from lasscc.layout import WARP_SIZE, mma_shape, tf32_mn_lane_src

    ik = mma_shape("f32")[2]
    return [(lane, row0 + r, kgroup * ik + k) for lane in range(WARP_SIZE) for r, k in [tf32_mn_lane_src(lane, load)]]


def tf32_mn_wavefronts(load: int, kgroup: int, bk: int, tile_rows: int, swizzled: bool, row0: int = 0) -> int:
    """Wavefronts of one warp's ld.shared.v2 `load` of a tf32 fragment from an MN-major tile."""
    from lasscc.layout import tile_offset, wavefronts

    addrs = [tile_offset(r, k, tile_rows, bk, 4, MN_MAJOR, swizzled) for _, r, k in tf32_mn_accesses(load, kgroup, row0)]
    return wavefronts(addrs, TF32_MN_LOAD_BYTES)


def copy_wavefronts(rows: int, bk: int, threads: int, swizzled: bool, ab: str = "f16", major: str = K_MAJOR,
                    access_bytes: int | None = None) -> tuple[int, int]:
    """(worst, ideal) wavefronts of one warp's SMEM stores of a tile copy of `access_bytes`-byte
    accesses (16 by default) under lasscc.layout.tile_copy_map."""
    from lasscc.layout import (ACCESS_BYTES, WARP_SIZE, copy_iterations, elem_bytes, ideal_wavefronts,
                               tile_copy_map, tile_offset, wavefronts)

    eb = elem_bytes(ab)
    w = access_bytes or ACCESS_BYTES
    lines, line_elems = (bk, rows) if major == MN_MAJOR else (rows, bk)
    worst = 0
    for it in range(copy_iterations(lines, line_elems, eb, threads, w)):
        for w0 in range(0, threads, WARP_SIZE):
            addrs = []
            for t in range(w0, w0 + WARP_SIZE):
                r, k = tile_copy_map(t, it, threads, rows, bk, eb, major, w)
                if r < rows and k < bk:
                    addrs.append(tile_offset(r, k, rows, bk, eb, major, swizzled))
            worst = max(worst, wavefronts(addrs, w))
    return worst, ideal_wavefronts(WARP_SIZE, w)


def mma_lane_map(operand: str, ab: str = "f16"):
    """(lanes, regs, parts) arrays over the fragment of the type's mma.sync: A 16 x IK (row, k),
    B IK x 8 (k, n), C 16 x 8 (row, n); `parts` is the element's place in its 32-bit register
    (lasscc.layout.mma_a/b_coord with the element bytes; C: one value per index)."""
    import numpy as np

    from lasscc.layout import WARP_SIZE, elem_bytes, mma_a_coord, mma_b_coord, mma_c_coord, mma_shape

    eb = elem_bytes(ab)
    mm, mn, mk = mma_shape(ab)
    per = REG_BYTES // eb
    if operand == "A":
        shape, regs, halves = (mm, mk), mm * mk * eb // WARP_SIZE // REG_BYTES, per

        def coord(lane, reg, half):
            return mma_a_coord(lane, reg, half, eb)
    elif operand == "B":
        shape, regs, halves = (mk, mn), mk * mn * eb // WARP_SIZE // REG_BYTES, per

        def coord(lane, reg, half):
            return mma_b_coord(lane, reg, half, eb)
    else:
        shape, regs, halves = (mm, mn), mm * mn // WARP_SIZE, 1

        def coord(lane, reg, half):
            return mma_c_coord(lane, reg)
    lanes = np.full(shape, -1)
    reg_of = np.full(shape, -1)
    half_of = np.full(shape, -1)
    for lane in range(WARP_SIZE):
        for reg in range(regs):
            for half in range(halves):
                i, j = coord(lane, reg, half)
                lanes[i, j], reg_of[i, j], half_of[i, j] = lane, reg, half
    return lanes, reg_of, half_of


def ldmatrix_src_map(operand: str, ab: str = "f16"):
    """[16, 2] lane supplying the row address of (row, 16-byte half of the k-group) of an
    ldmatrix.x4 from a K-major tile (A: rows = M, B: rows = N); matrix i (destination register i)
    = lanes 8i..8i+7.  The halves are k 0-7 / 8-15 for f16, 0-3 / 4-7 for tf32, 0-15 / 16-31 for s8."""
    import numpy as np

    from lasscc.layout import ACCESS_BYTES, LDMATRIX_ROWS, WARP_SIZE, elem_bytes, ldmatrix_a_lane_src, ldmatrix_b_lane_src

    eb = elem_bytes(ab)
    src = ldmatrix_a_lane_src if operand == "A" else ldmatrix_b_lane_src
    out = np.full((2 * LDMATRIX_ROWS, 2), -1)
    for lane in range(WARP_SIZE):
        r, k = src(lane, eb)
        out[r, k // (ACCESS_BYTES // eb)] = lane
    return out


def load_src_map(operand: str, ab: str = "f16", major: str = K_MAJOR):
    """How one A (16 rows) or B (16 columns, two n8 blocks) fragment of a k-group is read from its
    tile, as lasscc-swizzle-smem emits it.  Returns (grid, row_labels, col_labels, what): grid[i, j]
    is the lane whose access starts at cell (i, j):

      K-major, every type: ldmatrix.x4, [16 rows, 2 halves of the k-group's 32 bytes]
      MN-major 16-bit: ldmatrix.x4.trans, [16 k-lines, 2 halves of the 16 rows]
      MN-major s8: ldmatrix.x4.trans + prmt, [16, 2]: k-line 16 j + i (16 rows at each)
      MN-major tf32: 2 ld.shared.v2, [8 row pairs 2g, 2g+1, 8 k-lines] (load 0: k 0-3, load 1: k 4-7)
    """
    import numpy as np

    from lasscc import layout as L

    eb, (_, _, ik) = L.elem_bytes(ab), L.mma_shape(ab)
    rows = "row" if operand == "A" else "n"
    if major != MN_MAJOR:
        h = L.ACCESS_BYTES // eb
        return (ldmatrix_src_map(operand, ab), [f"{rows}{r}" for r in range(16)], [f"k 0-{h - 1}", f"k {h}-{2 * h - 1}"],
                "ldmatrix.x4: lane giving each 16-byte row address")
    if eb == 4:
        grid = np.full((8, ik), -1)
        for load in range(2):
            for lane, r, k in tf32_mn_accesses(load):
                grid[r // 2, k] = lane
        return (grid, [f"{rows}{2 * g},{2 * g + 1}" for g in range(8)], [f"k{k}" for k in range(ik)],
                "2 ld.shared.v2 (lasscc.layout.tf32_mn_lane_src): lane reading each pair of adjacent "
                f"{'rows' if operand == 'A' else 'columns'} at one k-line (load 0: k 0-3, load 1: k 4-7)")
    grid = np.full((16, 2), -1)
    if eb == 1:
        for lane in range(L.WARP_SIZE):
            _, k = L.s8_mn_trans_lane_src(lane)
            grid[k % 16, k // 16] = lane
        return (grid, [f"i={i}" for i in range(16)], ["k-line i", "k-line 16+i"],
                f"ldmatrix.x4.trans (lasscc.layout.s8_mn_trans_lane_src): lane giving the address of each "
                f"k-line (16 contiguous s8 along {'M' if operand == 'A' else 'N'})")
    src = L.ldmatrix_a_trans_lane_src if operand == "A" else L.ldmatrix_b_trans_lane_src
    for lane in range(L.WARP_SIZE):
        r, k = src(lane)
        grid[k, r // 8] = lane
    return (grid, [f"k{k}" for k in range(16)], [f"{rows} 0-7", f"{rows} 8-15"],
            "ldmatrix.x4.trans: lane giving each k-line address (8 contiguous elements, 16 bytes)")


def ldmatrix_dest_map(ab: str = "f16"):
    """[8, 16 / elem bytes] lane receiving element (row, col) of each 8 x 16-byte matrix of an
    ldmatrix (b16: lasscc.layout.ldmatrix_dest_coord), and the element's place in its register
    (f16: the half; tf32: 0, the whole register; s8: the byte)."""
    import numpy as np

    from lasscc.layout import ACCESS_BYTES, LDMATRIX_ROWS, WARP_SIZE, elem_bytes, ldmatrix_dest_coord

    eb = elem_bytes(ab)
    b16 = 2  # ldmatrix moves 16-bit elements
    lanes = np.full((LDMATRIX_ROWS, ACCESS_BYTES // eb), -1)
    parts = np.full((LDMATRIX_ROWS, ACCESS_BYTES // eb), -1)
    for lane in range(WARP_SIZE):
        for half in range(2):
            r, c = ldmatrix_dest_coord(lane, half)
            for j in range(b16):
                byte = b16 * c + j  # byte of the 16-byte row
                lanes[r, byte // eb] = lane
                parts[r, byte // eb] = (b16 * half + j) // eb
    return lanes, parts


def raster_order(tiles_m: int, tiles_n: int, group: int):
    """[tiles_m, tiles_n] launch order (block id) of each output tile (lasscc.layout.raster_tile)."""
    import numpy as np

    from lasscc.layout import raster_tile

    order = np.full((tiles_m, tiles_n), -1)
    for pid in range(tiles_m * tiles_n):
        tm, tn = raster_tile(pid, tiles_m, tiles_n, group)
        order[tm, tn] = pid
    return order


def warp_grid(cfg):
    """[warps_m, warps_n] warp id owning each warp tile (lasscc.layout.warp_tile_coord)."""
    import numpy as np

    from lasscc.layout import warp_tile_coord

    grid = np.full((cfg.warps_m, cfg.warps_n), -1)
    for w in range(cfg.warps_m * cfg.warps_n):
        grid[warp_tile_coord(w, cfg.warps_m)] = w
    return grid


@dataclass(frozen=True)
class BankView:
    """The bank table of one operand tile: grid[row, word] banks (unswizzled, swizzled), the
    (row, word) cells the first load reads, and the words it describes."""

    operand: str
    plain: object
    swizzled: object
    hits: frozenset
    row_label: str  # "row" (K-major) or "k" (k-line of an MN-major tile)
    title: str  # what the tile is and how it is stored
    word: str  # what a column (4-byte word) holds
    first_load: str  # what * marks
    swizzle: str  # the swizzle's name and rule
    k_per_word: int  # elements per word (k labels of a K-major table)
    boxes: tuple = ()  # (lane, row, first word, words) of each access of the first load


def bank_view(n: Numbers, operand: str = "A", rows: int | None = None) -> BankView:
    """The bank table of operand `operand`'s tile: its first rows (K-major) or k-lines of the first
    atom (MN-major), and the cells the first fragment load of the warp (ldmatrix phase 0, lanes
    0-7; MN-major tf32: the first half-warp of ld.shared.v2 0) reads."""
    from lasscc.layout import (ACCESS_BYTES, LDMATRIX_ROWS, SMEM_BANK_BYTES, SWIZZLE_BASE, SWIZZLE_BITS,
                               SWIZZLE_SHIFT, WARP_SIZE, mn_atom_elems, mn_swizzle_params)

    eb = n.elem_bytes
    major = n.a_major if operand == "A" else n.b_major
    tile_rows = n.bm if operand == "A" else n.bn
    per_word = SMEM_BANK_BYTES // eb
    word = f"{per_word} {n.ab}"
    if major == MN_MAJOR:
        w = mn_atom_elems(tile_rows, eb)
        if eb == 4:
            accesses = [a for a in tf32_mn_accesses(0) if a[0] < WARP_SIZE // 2]
            nbytes, first = TF32_MN_LOAD_BYTES, "ld.shared.v2 0, lanes 0-15 (a half-warp, 16 x 8 B)"
        else:
            accesses = ldmatrix_phase(operand, 0, ab=n.ab, major=MN_MAJOR)
            nbytes, first = ACCESS_BYTES, "ldmatrix.x4.trans phase 0 (lanes 0-7, matrix 0)"
        boxes = tuple((lane, k, r * eb // SMEM_BANK_BYTES, nbytes // SMEM_BANK_BYTES) for lane, r, k in accesses
                      if r < w)
        rows = rows or max(BANK_ROWS, max(k for _, k, _, _ in boxes) + 1)
        b, m, s = mn_swizzle_params(eb)
        major_name = "column-major A" if operand == "A" else "row-major B"
        mn = "M" if operand == "A" else "N"
        title = (f"{operand} tile ({tile_rows} x {n.bk} {n.ab} stored MN-major ({major_name}, "
                 f"lasscc.layout.mnmajor_tile_offset): atoms of {w} {mn} x {n.bk} k-lines, k-lines of {w * eb} B")
        word += f" along {mn}"
        swz = (f"Swizzle<{b},{m},{s}> (lasscc.layout.mn_swizzle_params): bits [{m}, {m + b}) ^= bits "
               f"[{m + s}, {m + s + b}) of the byte offset")
        row_label = "k"
    else:
        boxes = tuple((lane, r, k * eb // SMEM_BANK_BYTES, ACCESS_BYTES // SMEM_BANK_BYTES)
                      for lane, r, k in ldmatrix_phase(operand, 0, ab=n.ab))
        rows = rows or BANK_ROWS
        title = f"{operand} tile ({tile_rows} x {n.bk} {n.ab}, rows of {n.bk * eb} B"
        first = f"ldmatrix.x4 phase 0 (lanes 0-{LDMATRIX_ROWS - 1}, matrix 0)"
        swz = (f"Swizzle<{SWIZZLE_BITS},{SWIZZLE_BASE},{SWIZZLE_SHIFT}>: 16-byte chunk ^= line % 8")
        row_label = "row"
    plain = bank_grid(rows, n.bk, False, eb, major, tile_rows)
    swizzled = bank_grid(rows, n.bk, True, eb, major, tile_rows)
    hits = frozenset((r, w0 + j) for _, r, w0, nw in boxes for j in range(nw))
    return BankView(operand, plain, swizzled, hits, row_label, title, word, first, swz, per_word, boxes)


def first_load_wavefronts(n: Numbers, operand: str, swizzled: bool) -> int:
    """Wavefronts of the load bank_view marks: ldmatrix phase 0 of k-group 0, or (MN-major tf32)
    the whole warp's ld.shared.v2 0."""
    major = n.a_major if operand == "A" else n.b_major
    tile_rows = n.bm if operand == "A" else n.bn
    if major == MN_MAJOR and n.elem_bytes == 4:
        return tf32_mn_wavefronts(0, 0, n.bk, tile_rows, swizzled)
    return phase_wavefronts(operand, 0, 0, n.bk, swizzled, 0, n.ab, major, tile_rows)


# ---- text --------------------------------------------------------------------------------------


def _kb(nbytes: int) -> str:
    return f"{nbytes / 1024:g} KB"


def _table(rows: list[list[str]], header: list[str] | None = None, indent: str = "  ") -> list[str]:
    allrows = ([header] if header else []) + rows
    widths = [max(len(r[i]) for r in allrows) for i in range(len(allrows[0]))]
    out = []
    for j, r in enumerate(allrows):
        out.append(indent + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        if header and j == 0:
            out.append(indent + "  ".join("-" * w for w in widths))
    return out


def _grid_lines(grid, row_label: str, col_label: str, cell: int = 3, fmt=None, indent: str = "  ") -> list[str]:
    fmt = fmt or (lambda v: str(v))
    rows, cols = grid.shape
    lab = max(len(f"{row_label}{rows - 1}"), len(col_label))
    out = [indent + col_label.rjust(lab) + " " + "".join(str(c).rjust(cell) for c in range(cols))]
    for r in range(rows):
        out.append(indent + f"{row_label}{r}".rjust(lab) + " " + "".join(fmt(grid[r, c]).rjust(cell) for c in range(cols)))
    return out


LAYOUT_NAME = {"row": "row-major", "col": "column-major"}


def section_hierarchy(n: Numbers, facts: Facts | None = None) -> list[str]:
    facts = facts or Facts(n.ab, n.acc)
    out = ["Tile hierarchy"]
    rows = [
        ["threadblock", f"{n.bm} x {n.bn} x {n.bk}", f"one CTA of {n.threads} threads per {n.bm} x {n.bn} tile of D"
         f"{'^T' if facts.swap else ''}; K loop in k-tiles of {n.bk}"],
        ["warp", f"{n.wm} x {n.wn} x {n.wk}", f"{n.warps_m} x {n.warps_n} = {n.warps} warps per CTA"],
        ["instruction", f"{n.im} x {n.in_} x {n.ik}", n.mma_name],
        ["MmaIterations", f"{n.mma_m} (m) x {n.mma_n} (n)", f"= {n.mma_per_kgroup} mma.sync per warp per k-group"],
        ["k-groups", f"{n.bk} / {n.ik} = {n.kgroups}", f"per k-tile: {n.mma_per_ktile} mma.sync per warp, "
         f"{n.mma_per_ktile_cta} per CTA"],
        ["stages", str(n.stages), "MmaMultistage (cp.async ring, wait + barrier per k-tile)" if n.stages >= 3
         else "MmaPipelined (GMEM -> registers -> SMEM, double buffer)"],
        ["D", f"{facts.d_dtype} {LAYOUT_NAME.get(facts.d_layout, facts.d_layout)}",
         f"alpha * acc (+ beta * C when beta != 0), {n.acc_ptx} accumulation"],
    ]
    out += _table(rows, ["level", "shape (M x N x K)", "what"])
    ops = "ops" if n.ptx_ab == "s8" else "flops"
    out.append(f"  one k-tile: {2 * n.bm * n.bn * n.bk} {ops} per CTA = {n.mma_per_ktile_cta} mma.sync x "
               f"{2 * n.im * n.in_ * n.ik} {ops}")
    if n.ptx_ab == "tf32":
        out.append("  A and B stay f32 in global and shared memory; lasscc-warp-mma rounds every fragment register "
                   "to tf32 (cvt.rna.tf32.f32) before the mma.sync")
    elif n.ptx_ab == "s8":
        out.append("  s8 x s8 products summed into s32 accumulators, .satfinite: a sum out of the s32 range clamps "
                   "instead of wrapping")
    if facts.swap:
        out.append("  column-major D: the kernel computes D^T = B^T . A^T (KernelFacts.swap_ab): its A (BM rows) is the "
                   "caller's B, its B the caller's A, and its row-major D^T tiles are BM along the caller's N; "
                   "everything below is in the kernel's order")
    return out


def _copy_how(n: Numbers, w: int) -> str:
    """The instructions of a w-byte tile copy access (lasscc-swizzle-smem, lasscc.layout.copy_kind)."""
    from lasscc.layout import ACCESS_BYTES, copy_kind

    if n.stages >= 3:
        kind = copy_kind(w)
        if kind == "sync":
            return f"ld.global + st.shared {w} B: no cp.async of {w} bytes, synchronous"
        return f"cp.async.{kind} {w} B"
    return "ld.global.v4 + st.shared.v4" if w == ACCESS_BYTES else f"ld.global + st.shared {w} B"


def section_smem(n: Numbers, arch: str, d_dtype: str | None = None) -> list[str]:
    from lasscc.config import SMEM_DEFAULT_LIMIT
    from lasscc.layout import ACCESS_BYTES, mn_atom_elems, mn_swizzle_params
    from lasscc.passes.swizzle_smem import COPY_UNROLL_MAX

    out = ["Shared memory (lasscc-pipeline: one ring per operand, `stages` slots)"]
    rows = [
        ["A tile", f"{n.bm} x {n.bk} {n.ab}", f"{n.smem_a_tile} B", _kb(n.smem_a_tile)],
        ["B tile", f"{n.bn} x {n.bk} {n.ab}", f"{n.smem_b_tile} B", _kb(n.smem_b_tile)],
        ["per stage", "A + B", f"{n.smem_stage} B", _kb(n.smem_stage)],
        ["total", f"{n.stages} stages", f"{n.smem_total} B", _kb(n.smem_total)],
        [f"{arch} limit", "per block (opt-in)", f"{n.smem_limit} B", _kb(n.smem_limit)],
    ]
    out += _table(rows, ["what", "shape", "bytes", ""])
    pct = 100.0 * n.smem_total / n.smem_limit if n.smem_limit else 0
    verdict = "fits" if n.smem_total <= n.smem_limit else "DOES NOT FIT"
    out.append(f"  {verdict}: {pct:.0f}% of the {arch} limit; at most {n.stages_fit} stages of this tile fit; "
               + ("dynamic shared memory above 48 KB: the launcher opts in (cuFuncSetAttribute)"
                  if n.smem_total > SMEM_DEFAULT_LIMIT else "within the 48 KB default (no opt-in)"))
    for op, rows_, major in (("A", n.bm, n.a_major), ("B", n.bn, n.b_major)):
        if major == MN_MAJOR:
            mn = "M" if op == "A" else "N"
            w = mn_atom_elems(rows_, n.elem_bytes)
            b, m, s = mn_swizzle_params(n.elem_bytes)
            out.append(f"  {op} is stored MN-major ({'column-major A' if op == 'A' else 'row-major B'}): atoms of {w} "
                       f"contiguous {mn} ({w * n.elem_bytes} B) per k-line, Swizzle<{b},{m},{s}> "
                       "(lasscc.layout.mnmajor_tile_offset)")
    ops = (("A", n.copy_a_chunks, n.copy_a_per_thread, n.access_a, n.align_a, n.a_major, n.copy_a_loop),
           ("B", n.copy_b_chunks, n.copy_b_per_thread, n.access_b, n.align_b, n.b_major, n.copy_b_loop))
    plain = (n.access_a == n.access_b == ACCESS_BYTES and n.a_major == n.b_major == K_MAJOR
             and not n.copy_a_loop and not n.copy_b_loop)
    if plain:
        out.append(f"  copies per k-tile: A {n.copy_a_chunks} x 16 B chunks = {n.copy_a_per_thread} per thread, "
                   f"B {n.copy_b_chunks} = {n.copy_b_per_thread} per thread ({_copy_how(n, ACCESS_BYTES)}, "
                   "lasscc.layout.copy_thread_map)")
    else:
        out.append(f"  copies per k-tile (lasscc.layout.tile_copy_map; {n.align_a} and {n.align_b} {n.ab} per access "
                   f"of A and B{', config align' if (n.access_a, n.access_b) != (ACCESS_BYTES,) * 2 else ''}):")
        for op, chunks, per, w, elems, major, loop in ops:
            along = "k" if major == K_MAJOR else ("M" if op == "A" else "N")
            extra = f"; an scf.for over them (more than COPY_UNROLL_MAX = {COPY_UNROLL_MAX})" if loop else ""
            out.append(f"    {op} {chunks} x {w} B accesses ({elems} {n.ab} along {along}) = {per} per thread "
                       f"({_copy_how(n, w)}{extra})")
    if n.stages >= 3:
        out.append(f"  main loop: prologue of {n.stages - 1} k-tiles in flight; each k-tile: wait until <= "
                   f"{n.stages - 2} groups pending, barrier, issue k-tile + {n.stages - 1}, mma on slot kt % {n.stages}")
    else:
        out.append("  main loop: registers hold the next k-tile while the mma reads the current slot; one barrier "
                   "per k-tile")
    return out


def frag_load(n: Numbers, operand: str) -> str:
    """The instructions of one fragment load of `operand` (lasscc-swizzle-smem)."""
    major = n.a_major if operand == "A" else n.b_major
    if major == K_MAJOR:
        return "ldmatrix.x4"
    if n.elem_bytes == 2:
        return "ldmatrix.x4.trans"
    if n.elem_bytes == 1:
        return "ldmatrix.x4.trans + 4 prmt"
    return "2 ld.shared.v2"


def section_warp(n: Numbers, cfg, facts: Facts | None = None) -> list[str]:
    facts = facts or Facts(n.ab, n.acc)
    out = [f"Warps ({n.warps_m} x {n.warps_n} grid; warp w covers rows (w % {n.warps_m}) * {n.wm}, columns "
           f"(w / {n.warps_m}) * {n.wn} of the CTA tile)"]
    grid = warp_grid(cfg)
    header = [""] + [f"n {j * n.wn}..{(j + 1) * n.wn - 1}" for j in range(n.warps_n)]
    rows = [[f"m {i * n.wm}..{(i + 1) * n.wm - 1}"] + [f"warp {grid[i, j]}" for j in range(n.warps_n)]
            for i in range(n.warps_m)]
    out += _table(rows, header)
    out.append("")
    la, lb = frag_load(n, "A"), frag_load(n, "B")
    if la == lb == "ldmatrix.x4":
        loads = f"{n.ldmatrix_a} ldmatrix.x4 for A + {n.ldmatrix_b} for B"
    else:
        loads = f"A {n.ldmatrix_a} x ({la}), B {n.ldmatrix_b} x ({lb}) (one per two n8 blocks)"
    out.append(f"Per warp per k-group: {n.mma_m} x {n.mma_n} = {n.mma_per_kgroup} mma.sync (serpentine order), {loads}")
    if n.ptx_ab == "tf32":
        out.append(f"  then each of the {n.a_regs + n.b_regs} A/B registers is rounded to tf32 (cvt.rna.tf32.f32)")
    elems = {2: "pairs of 16-bit elements", 4: "one tf32 each", 1: "four s8 each"}[n.elem_bytes]
    accs = f"one {n.acc_ptx} each" if n.acc_per_reg == 1 else f"{n.acc_per_reg} {n.acc_ptx} each ({n.acc_ptx}x2)"
    out.append(f"Fragments per thread (32-bit registers; {elems} for A/B, {accs} for C):")
    c_made = f"{n.mma_per_kgroup} m16n8 tiles x {n.c_per_mma} {n.acc_ptx}"
    if n.acc_per_reg > 1:
        c_made += f" ({n.c_per_mma // n.acc_per_reg} registers)"
    rows = [
        ["A", f"{n.mma_m} m16k{n.ik} fragments x {n.a_regs_per_frag}", str(n.a_regs), "per k-group"],
        ["B", f"{n.mma_n} k{n.ik}n8 fragments x {n.b_regs_per_frag}", str(n.b_regs), "per k-group"],
        ["C", c_made, str(n.acc_regs), "accumulators, whole K loop"],
    ]
    out += _table(rows, ["", "made of", "registers", "live"])
    extra = " + cross-stage prefetch (config prefetch = 1)" if n.prefetch else ""
    why = ("double buffering" if n.kgroups >= 2 else "one k-group per k-tile: nothing to double buffer") + extra
    from lasscc.config import REGISTER_BUDGET, REGISTER_LIMIT

    sets = f"{n.frag_sets} fragment set{'s' if n.frag_sets != 1 else ''}"
    out.append(f"Register estimate: {n.reg_parts} = {n.reg_estimate} ({sets}: {why}), plus indices, pointers and "
               f"loop state: the config check (lasscc.config.register_estimate) allows {REGISTER_BUDGET} of the "
               f"{REGISTER_LIMIT} per thread")
    if n.prefetch_asked and not n.prefetch:
        out.append("  config prefetch = 1 does not apply to this config (lasscc-warp-mma: a multistage main loop, few "
                   "enough k-groups and copy accesses per thread; see prefetch_applies / PREFETCH_MAX_KGROUPS)")
    out.append("")
    out += epilogue_lines(n, cfg, facts)
    return out


def epilogue_lines(n: Numbers, cfg, facts: Facts) -> list[str]:
    """How lasscc-warp-mma stores D: staged through shared memory (stage_plan of lasscc-warp-mma) or per thread."""
    from lasscc.layout import ACCESS_BYTES, SMEM_WAVEFRONT_BYTES, WARP_SIZE, epilogue_read_map
    from lasscc.passes.warp_mma import STAGED_EPILOGUE_BYTES, stage_plan

    ob = type_bytes(facts.d_dtype)
    math = "alpha * acc (+ beta * C) in f32"
    if n.acc != "f32":
        math += f" ({n.acc_ptx} accumulators converted to f32 first)"
    out = [f"Epilogue (lasscc-warp-mma): D {facts.d_dtype}, {ob} B per element; {math}"]
    if facts.d_dtype == "i32":
        out.append("  i32 D: rounded to nearest even and saturated (cvt.rni.s32.f32); with alpha == 1 and beta == 0 "
                   "the exact s32 accumulator is stored")
    ilv = [op for op, major in (("A", n.a_major), ("B", n.b_major)) if major == MN_MAJOR and n.elem_bytes != 2]
    pairs = (f"per thread in pairs: each lane stores 2 adjacent columns ({2 * ob} B) per accumulator pair at the "
             "C-fragment coordinates (lasscc.layout.mma_c_coord"
             + (f"; {' and '.join(ilv)} interleaved: frag_interleave" if ilv else "")
             + "), 2-element stores for a whole block with even N, element by element at the edges")
    plan = stage_plan(cfg, n.ab, ob)
    vec = ACCESS_BYTES // ob
    kernel_n = " (the kernel's N: the caller's M, for D^T)" if facts.swap else ""
    if plan is None:
        if ob not in STAGED_EPILOGUE_BYTES:
            sizes = " or ".join(f"{8 * b}-bit" for b in STAGED_EPILOGUE_BYTES)
            out.append(f"  D is stored {pairs}")
            out.append(f"  no staged epilogue: only a {sizes} D is staged through shared memory "
                       "(lasscc.passes.warp_mma.STAGED_EPILOGUE_BYTES)")
        else:
            out.append(f"  D is stored {pairs}")
            out.append(f"  no staged epilogue for this warp tile (stage_plan of lasscc-warp-mma: a warp row of {n.wn} x {ob} = "
                       f"{n.wn * ob} B must be a power of two of 16-byte chunks, 2 to 32, and one 16-row band "
                       f"per warp must fit the rings' {n.smem_total} B)")
        return out
    rows, stride = plan
    row_bytes = n.wn * ob
    chunks = n.wm // rows
    per_pass = len({epilogue_read_map(lane, row_bytes)[0] for lane in range(WARP_SIZE)})
    buf = n.warps * rows * stride
    line = (f"each quarter-warp one {SMEM_WAVEFRONT_BYTES}-byte line of D" if row_bytes >= SMEM_WAVEFRONT_BYTES
            else "whole 32-byte sectors of D")
    out.append(f"  staged (stage_plan of lasscc-warp-mma) when beta == 0 on a whole block with N a multiple of {vec}{kernel_n} "
               f"and D 16-byte aligned: each warp writes its {n.wm} x {n.wn} tile as pairs into its own "
               f"shared-memory buffer (reusing the rings: {n.warps} warps x {rows} rows x {stride} B = {buf} B of "
               f"{n.smem_total} B), {rows} rows per chunk ({chunks} chunk{'s' if chunks != 1 else ''}; bar.sync "
               "before each chunk's writes and between its writes and its reads); "
               f"row stride {stride} B = {row_bytes} B of D + {stride - row_bytes} B padding "
               "(lasscc.layout.epilogue_stage_stride: conflict-free pair writes); then it reads the rows back "
               f"16 B a lane, {per_pass} rows per pass of 32 lanes (lasscc.layout.epilogue_read_map), and stores "
               f"them with st.global.v4: {line}")
    out.append(f"  otherwise (beta != 0, an edge block, N not a multiple of {vec}, D not 16-byte aligned) D is "
               f"stored {pairs}")
    if facts.beta is not None:
        if facts.beta == 0:
            out.append("  this GEMM's beta = 0 (what `lasscc run` passes without --beta; beta is a kernel argument, "
                       "tested at run time): whole blocks take the staged path")
        else:
            out.append(f"  this GEMM's beta = {facts.beta:g} (what `lasscc run` passes without --beta; beta is a kernel "
                       "argument, tested at run time): C is read, so every block takes the per-thread path")
    return out
def section_raster(n: Numbers, grid: tuple[int, int]) -> list[str]:
    tm, tn = grid
    order = raster_order(tm, tn, n.raster)
    out = [f"Threadblock rasterization (lasscc.layout.raster_tile, raster = {n.raster}): launch order on a "
           f"{tm} x {tn} grid of tiles",
           f"  grid = ceil(M/{n.bm}) * ceil(N/{n.bn}) CTAs (1-d); groups of {n.raster} tile rows are walked "
           "column by column, so CTAs running together share A row panels and B column panels in L2"]
    width = max(3, len(str(tm * tn - 1)) + 1)
    lines = _grid_lines(order, "m", "n", cell=width)
    rule = "  " + " " * (len(lines[0]) - 2 - width * tn) + "-" * (width * tn)
    for i, line in enumerate(lines[1:]):
        if i and i % n.raster == 0:  # a rule between raster groups
            out.append(rule)
        out.append(line) if i else out.extend([lines[0], line])
    return out




def _ranges(vals) -> str:
    """'0-7' for a contiguous set, else '0,2,4,6'."""
    v = sorted(set(int(x) for x in vals))
    if v == list(range(v[0], v[-1] + 1)):
        return f"{v[0]}-{v[-1]}" if len(v) > 1 else str(v[0])
    return ",".join(map(str, v))


def _per_register(n: Numbers) -> str:
    return {2: "two adjacent k per register (halves .0/.1)", 4: "one tf32 per register",
            1: "four adjacent k per register (bytes .0-.3)"}[n.elem_bytes]


def _acc_register(n: Numbers) -> str:
    if n.acc_per_reg == 1:
        return f"one {n.acc_ptx} per register"
    return f"{n.acc_ptx} values: c0, c1 in the two halves of one {n.acc_ptx}x2 register, c2, c3 in another"


def fragment_specs(n: Numbers):
    """(operand, title, row name, column name, register prefix, register note) of the three fragments."""
    mm, mn, mk = n.im, n.in_, n.ik
    return (("A", f"A {mm} x {mk} (row x k), {n.ptx_ab}", "r", "k", "a", _per_register(n)),
            ("B", f"B {mk} x {mn} (k x n), {n.ptx_ab}", "k", "n", "b", _per_register(n)),
            ("C", f"C/D {mm} x {mn} (row x n), {n.acc_ptx}", "r", "n", "c", _acc_register(n)))


def section_fragments(n: Numbers | None = None) -> list[str]:
    import numpy as np

    n = n or numbers(_default_cfg())
    out = [f"mma.m{n.im}n{n.in_}k{n.ik} fragments (lasscc.layout.mma_a/b/c_coord): the lane T0..T31 holding each element"]
    for op, title, rl, cl, rn, note in fragment_specs(n):
        lanes, regs, halves = mma_lane_map(op, n.ab)
        out.append(f"  {title}")
        out += _grid_lines(lanes, rl, cl, cell=3, indent="    ")
        parts = []
        for reg in range(int(regs.max()) + 1):
            ii, jj = np.nonzero(regs == reg)
            parts.append(f"{rn}{reg}: {rl} {_ranges(ii)}, {cl} {_ranges(jj)}")
        out.append(f"    registers: {'; '.join(parts)}; {note}")
    for op, major in (("A", n.a_major), ("B", n.b_major)):
        if major == MN_MAJOR and n.elem_bytes != 2:
            what = "row" if op == "A" else "column"
            out.append(f"  {op} is an MN-major {n.ab} tile: its fragments are loaded interleaved, fragment {what} "
                       f"g + 8h (of 16) holding tile {what} 2g + h (lasscc.layout.frag_interleave); the epilogue "
                       "stores D to match")
    return out


def _default_cfg():
    from lasscc.config import GemmConfig

    return GemmConfig()


def section_banks(n: Numbers) -> list[str]:
    from lasscc.layout import WARP_SIZE, ideal_wavefronts

    v = bank_view(n, "A")
    rows = v.plain.shape[0]
    mn = v.row_label == "k"
    where = f"first {rows} k-lines of atom 0" if mn else f"first {rows} rows"
    out = [f"Shared-memory banks of the {v.title}; one column = one 4-byte word = {v.word} = one bank of 32), "
           f"{where}; * = read by {v.first_load}"]
    grids = {False: v.plain, True: v.swizzled}
    words = v.plain.shape[1]

    def cell(r, w, s):
        return f"{grids[s][r, w]}{'*' if (r, w) in v.hits else ' '}"

    plain_label = "unswizzled (atoms, k-lines in order)" if mn else "unswizzled (row-major)"
    for s, label in ((False, plain_label), (True, f"swizzled ({v.swizzle})")):
        out.append(f"  {label}")
        out.append("    word " + "".join(f"{w:>4}" for w in range(words)))
        for r in range(rows):
            lab = f"k{r:<4}" if mn else f"row{r:<2}"
            out.append((f"    {lab} " + "".join(cell(r, w, s).rjust(4) for w in range(words))).rstrip())
    ops = (("A", n.bm, n.a_major), ("B", n.bn, n.b_major))
    ld_ops = [(op, r, m) for op, r, m in ops if not (m == MN_MAJOR and n.elem_bytes == 4)]
    if ld_ops:
        ideal = ideal_wavefronts(8, 16)
        trans = any(m == MN_MAJOR for _, _, m in ld_ops)
        what = "8 addresses x 16 B: rows, or k-lines for .trans" if trans else "8 rows x 16 B"
        out.append(f"  Wavefronts per ldmatrix.x4 phase ({what}; ideal {ideal}; lasscc.layout.wavefronts):")
        rows_ = []
        for op, tile_rows, major in ld_ops:
            for g in range(n.kgroups):
                rows_.append([op, str(g)] + [
                    f"{phase_wavefronts(op, p, g, n.bk, False, 0, n.ab, major, tile_rows)} -> "
                    f"{phase_wavefronts(op, p, g, n.bk, True, 0, n.ab, major, tile_rows)}" for p in range(4)])
        out += _table(rows_, ["", "k-group", "phase 0", "phase 1", "phase 2", "phase 3"], indent="    ")
        out.append("    (unswizzled -> swizzled)")
    for op, tile_rows, major in ops:
        if major == MN_MAJOR and n.elem_bytes == 4:
            cells = [f"k-group {g} load {ld}: {tf32_mn_wavefronts(ld, g, n.bk, tile_rows, False)} -> "
                     f"{tf32_mn_wavefronts(ld, g, n.bk, tile_rows, True)}" for g in range(n.kgroups) for ld in range(2)]
            out.append(f"  {op} (MN-major tf32: 2 ld.shared.v2 per fragment, one warp = 32 x 8 B, ideal "
                       f"{ideal_wavefronts(WARP_SIZE, TF32_MN_LOAD_BYTES)}; unswizzled -> swizzled): " + "; ".join(cells))
    for op, tile_rows, major in ops:
        w = n.access_a if op == "A" else n.access_b
        u = copy_wavefronts(tile_rows, n.bk, n.threads, False, n.ab, major, w)
        s = copy_wavefronts(tile_rows, n.bk, n.threads, True, n.ab, major, w)
        out.append(f"  {op} tile copy, one warp's 32 x {w} B stores: {u[0]} wavefront{'s' if u[0] != 1 else ''} "
                   f"unswizzled, {s[0]} swizzled (ideal {s[1]})")
    return out


def _matrices(n: Numbers, op: str) -> list[tuple[str, str]]:
    """(what, destination) of each of the 4 matrices of a K-major ldmatrix.x4 of `op`."""
    from lasscc.layout import ACCESS_BYTES

    h = ACCESS_BYTES // n.elem_bytes
    src = ldmatrix_src_map(op, n.ab)
    out = []
    for i in range(4):
        r, c = sorted({(r // 8, c) for r in range(16) for c in range(2) if src[r, c] // 8 == i})[0]
        rows = f"A rows {8 * r}-{8 * r + 7}" if op == "A" else f"B n {8 * r}-{8 * r + 7}"
        dest = f"a{i}" if op == "A" else f"b{i % 2} of n8 block {i // 2}"
        out.append((f"{rows}, k {h * c}-{h * c + h - 1}", dest))
    return out


def _matrix_lines(n: Numbers) -> list[str]:
    """What each of the 4 matrices of a K-major ldmatrix.x4 covers, for A and B."""
    ma, mb = _matrices(n, "A"), _matrices(n, "B")
    return [f"  matrix {i} (lanes {8 * i}-{8 * i + 7}): {ma[i][0]} -> {ma[i][1]};   {mb[i][0]} -> {mb[i][1]}"
            for i in range(4)]


def _dest_lines(n: Numbers) -> list[str]:
    from lasscc.layout import ACCESS_BYTES

    lanes, _ = ldmatrix_dest_map(n.ab)
    if n.elem_bytes == 2:
        out = ["  destination (lasscc.layout.ldmatrix_dest_coord): lane receiving element (row, col) of each 8x8 matrix"]
    else:
        per = {4: "one tf32, the whole register", 1: "four s8, bytes .0-.3 of the register"}[n.elem_bytes]
        out = [f"  destination (lasscc.layout.ldmatrix_dest_coord; b16 pairs, so in {n.ptx_ab} elements): lane "
               f"receiving element (row, col) of each 8-row x {ACCESS_BYTES} B matrix ({ACCESS_BYTES // n.elem_bytes} "
               f"{n.ptx_ab} per row; each lane {per}: the mma.m{n.im}n{n.in_}k{n.ik} fragment layout)"]
    out += _grid_lines(lanes, "r", "c", cell=3, indent="    ")
    return out


def section_ldmatrix(n: Numbers | None = None) -> list[str]:
    from lasscc import layout as L

    n = n or numbers(_default_cfg())
    if n.a_major == n.b_major == K_MAJOR:
        out = ["ldmatrix.x4 (lasscc.layout.ldmatrix_a/b_lane_src): phase i = lanes 8i..8i+7 give the 8 row addresses "
               "of matrix i, which lands in register i of every lane"]
        if n.elem_bytes != 2:
            out.append(f"  ldmatrix moves b16 pairs: a 16-byte row is {L.ACCESS_BYTES // n.elem_bytes} {n.ptx_ab} here, "
                       f"and register i is still {n.ptx_ab} fragment register i (every mma.sync shape reads "
                       f"{L.MMA_K_BYTES} bytes of K per k-group: lasscc.layout.MMA_K_BYTES)")
        a, b = ldmatrix_src_map("A", n.ab), ldmatrix_src_map("B", n.ab)
        h = L.ACCESS_BYTES // n.elem_bytes
        ka, kb = f"k 0-{h - 1}", f"k {h}-{2 * h - 1}"
        out.append("  lane giving each 16-byte row address:")
        out.append("      A (rows = M)          B (rows = N)")
        out.append(f"      {ka:<7}{kb:<15}{ka:<7}{kb}")
        for r in range(16):
            out.append(f"  r{r:<3} T{a[r, 0]:<5} T{a[r, 1]:<9} n{r:<3} T{b[r, 0]:<5} T{b[r, 1]}")
        out += _matrix_lines(n)
        out += _dest_lines(n)
        return out
    out = ["Fragment loads (lasscc-swizzle-smem; lane maps from lasscc.layout): one A fragment (16 rows) and one "
           "B load (16 columns: two n8 blocks) of a k-group"]
    for op, major in (("A", n.a_major), ("B", n.b_major)):
        grid, rlab, clab, what = load_src_map(op, n.ab, major)
        out.append(f"  {op} ({'K' if major == K_MAJOR else 'MN'}-major tile): {what}")
        lw = max(len(x) for x in rlab) + 1
        cw = max(6, max(len(c) for c in clab) + 1)
        out.append("    " + " " * lw + "".join(c.ljust(cw) for c in clab).rstrip())
        for i, lab in enumerate(rlab):
            out.append(("    " + lab.ljust(lw) + "".join(f"T{grid[i, j]}".ljust(cw) for j in range(grid.shape[1]))).rstrip())
        if major == K_MAJOR:
            out += [f"    matrix {i} (lanes {8 * i}-{8 * i + 7}): {what_} -> {dest}"
                    for i, (what_, dest) in enumerate(_matrices(n, op))]
            continue
        if n.elem_bytes == 2:
            src = L.ldmatrix_a_trans_lane_src if op == "A" else L.ldmatrix_b_trans_lane_src
            rn = "rows" if op == "A" else "n"
            for i in range(4):
                r, k = src(8 * i)
                dest = f"a{i}" if op == "A" else f"b{i % 2} of n8 block {i // 2}"
                out.append(f"    matrix {i} (lanes {8 * i}-{8 * i + 7}): {rn} {r}-{r + 7}, k-lines {k}-{k + 7} -> {dest}")
            out.append(f"    with .trans lane 4g + t receives k 2t, 2t+1 of {'row' if op == 'A' else 'column'} g "
                       "(lasscc.layout.ldmatrix_trans_dest_coord): the mma fragment layout, as from a K-major tile")
        elif n.elem_bytes == 1:
            what = "rows" if op == "A" else "columns"
            out.append(f"    matrices 2p, 2p+1 hold k 16p..16p+15; lane (g, t) receives a 2 x 2 byte block ({what} 2g, "
                       f"2g+1 x 2 k) of each; 4 prmt per fragment (lasscc.layout.s8_mn_prmt_selectors) gather the 4 k "
                       f"of {what} 2g and 2g+1: fragment {what} g and g+8, interleaved (lasscc.layout.frag_interleave)")
        else:
            regs = "(a0, a1) from load 0, (a2, a3) from load 1" if op == "A" else \
                "load 0 gives b0 of both n8 blocks, load 1 their b1"
            what = "rows" if op == "A" else "columns"
            out.append(f"    no ldmatrix (.trans moves 16-bit elements): {regs}; fragment {what} g, g+8 are tile "
                       f"{what} 2g, 2g+1, interleaved (lasscc.layout.frag_interleave)")
    if K_MAJOR in (n.a_major, n.b_major):
        out += _dest_lines(n)
    return out
def section_resources(n: Numbers, res, arch: str, why_none: str | None) -> list[str]:
    out = [f"Resources ({arch})"]
    out.append(f"  estimate: {n.reg_estimate} registers held across the main loop ({n.reg_parts}; + indices, pointers), "
               f"{n.smem_total} B dynamic shared memory")
    if why_none == "not compiled":
        out.append("  (not compiled: no measured figures)")
        return out
    if why_none is not None:
        out.append("  ptxas not on PATH: no measured figures (install the CUDA toolkit or the nvidia-cuda-nvcc wheel)")
        return out
    r = res
    out.append(f"  ptxas -v: {r['registers']} registers, {r['spill_stores']} B spill stores, {r['spill_loads']} B spill "
               f"loads, {r['stack_bytes']} B stack; shared {r['static_shared_bytes']} B static + "
               f"{r['dynamic_shared_bytes']} B dynamic = {r['shared_bytes']} B")
    out.append(f"  {r['ptxas']}")
    return out


# ---- driver ------------------------------------------------------------------------------------


def _resources(module, arch: str, filename: str, use_cache: bool):
    """ptxas -v figures of the compiled module (Kernel.resources), or None without ptxas."""
    import shutil

    if shutil.which("ptxas") is None:
        return None
    from lasscc.api import Kernel
    from lasscc.cache import cached_compile

    input_text = str(module)
    res = cached_compile(module, arch, filename, use_cache=use_cache)
    return Kernel(res, arch, None, input_text, filename).resources


def gemm_config(module, arch: str = "sm_80", filename: str = "<input>"):
    """lasscc.api.gemm_info of the module; an input that holds no lass.gemm yet (linalg.matmul) is
    taken through the passes before lasscc-tile-threadblock first (on a copy)."""
    from lasscc.api import gemm_info
    from lasscc.diagnostics import LassError

    try:
        return gemm_info(module, filename)
    except LassError:
        from lasscc.driver import PASS_NAMES, run_passes

        first = PASS_NAMES.index("lasscc-tile-threadblock") if "lasscc-tile-threadblock" in PASS_NAMES else 0
        if first == 0:
            raise
        trial = module.clone()
        run_passes(trial, PASS_NAMES[:first], arch, filename)
        return gemm_info(trial, filename)


def explain(module, arch: str = "sm_80", filename: str = "<input>", stage: str | None = None,
            grid: tuple[int, int] = DEFAULT_GRID, use_cache: bool = True, resources: bool = True) -> str:
    """The explanation text of the module's GEMM (a lass.gemm or a dump); LassError on a bad config."""
    from lasscc.options import resolve_stage

    info = gemm_config(module, arch, filename)
    facts = gemm_facts(module, info)
    cfg, where, ab = info.config, info.where, facts.ab
    kcfg = kernel_config(info, facts)
    kcfg.validate(arch, where=f"{where}: error: config", ab_type=ab, majors=facts.majors, acc_type=facts.acc)
    sections = SECTIONS
    if stage is not None:
        name = resolve_stage(stage, "option --stage")
        sections = STAGE_SECTIONS.get(name, SECTIONS)
    n = numbers(kcfg, arch, ab, facts.acc, facts.majors)
    la, lb = (LAYOUT_NAME.get(x, x) for x in facts.layouts)
    ld = LAYOUT_NAME.get(facts.d_layout, facts.d_layout)
    head = (f"lasscc explain {filename}  ({arch}; A {ab} {la}, B {ab} {lb}, D {facts.d_dtype} {ld}; "
            f"threadblock {n.bm}x{n.bn}x{n.bk}, warp {n.wm}x{n.wn}x{n.wk}, {n.stages} stages, raster {n.raster})")
    parts = [[head]]
    if "hierarchy" in sections:
        parts.append(section_hierarchy(n, facts))
    if "raster" in sections:
        parts.append(section_raster(n, grid))
    if "smem" in sections:
        parts.append(section_smem(n, arch, facts.d_dtype))
    if "warp" in sections:
        parts.append(section_warp(n, kcfg, facts))
    if "fragments" in sections:
        parts.append(section_fragments(n))
    if "banks" in sections:
        parts.append(section_banks(n))
    if "ldmatrix" in sections:
        parts.append(section_ldmatrix(n))
    if "resources" in sections:
        res = _resources(module, arch, filename, use_cache) if resources else None
        why = None if res is not None else "not compiled" if not resources else "no ptxas"
        parts.append(section_resources(n, res, arch, why))
    return "\n\n".join("\n".join(p) for p in parts) + "\n"


def sections_for(stage: str | None) -> tuple[str, ...]:
    from lasscc.options import resolve_stage

    if stage is None:
        return SECTIONS
    return STAGE_SECTIONS.get(resolve_stage(stage, "option --stage"), SECTIONS)


# ---- pictures ----------------------------------------------------------------------------------


def _bank_colors():
    """32 distinguishable colours, one per bank."""
    import matplotlib

    cmaps = [matplotlib.colormaps["tab20"], matplotlib.colormaps["tab20b"]]
    cols = [cmaps[0](i) for i in range(20)] + [cmaps[1](i) for i in range(0, 20, 2)] + [cmaps[1](1), cmaps[1](5)]
    return cols[:32]


def png_banks(n: Numbers, path: Path, rows: int = 16) -> None:
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    from lasscc.layout import ACCESS_BYTES, SMEM_BANK_BYTES, SMEM_BANKS

    colors = _bank_colors()
    v = bank_view(n, "A", rows)
    mn = v.row_label == "k"
    rows, words = v.plain.shape
    if words <= 16:  # side by side
        fig, axes = plt.subplots(1, 2, figsize=(max(12, 0.62 * words * 2 + 3), 0.55 * rows + 2.4))
    else:  # wide rows: one above the other
        fig, axes = plt.subplots(2, 1, figsize=(0.5 * words + 2.5, 2 * (0.5 * rows + 1.4) + 0.6))
    chunk_words = ACCESS_BYTES // SMEM_BANK_BYTES
    col_name = ("M" if v.operand == "A" else "N") if mn else "k"
    for ax, swz in zip(axes, (False, True)):
        grid = v.swizzled if swz else v.plain
        for r in range(rows):
            for w in range(words):
                b = int(grid[r, w])
                ax.add_patch(Rectangle((w, r), 1, 1, facecolor=colors[b], edgecolor="white", linewidth=0.8))
                ax.text(w + 0.5, r + 0.5, str(b), ha="center", va="center", fontsize=8)
        for w in range(0, words + 1, chunk_words):  # 16-byte chunk boundaries
            ax.axvline(w, color="#444444", linewidth=0.8)
        for lane, r, w0, nw in v.boxes:
            if r < rows:
                ax.add_patch(Rectangle((w0, r), nw, 1, fill=False, edgecolor="black", linewidth=2.8))
                ax.text(w0 + 0.08, r + 0.08, f"T{lane}", ha="left", va="top", fontsize=7, fontweight="bold",
                        bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "edgecolor": "none", "alpha": 0.85})
        wf = first_load_wavefronts(n, "A", swz)
        whole = "; the whole warp's load" if v.first_load.startswith("ld.shared") else ""
        ax.set_xlim(0, words)
        ax.set_ylim(rows, 0)
        ax.set_aspect("equal")
        ax.set_xticks([w + 0.5 for w in range(0, words, 4)],
                      [f"{col_name}{v.k_per_word * w}" for w in range(0, words, 4)], fontsize=8)
        ax.set_yticks([r + 0.5 for r in range(rows)], [f"{'k-line' if mn else 'row'} {r}" for r in range(rows)],
                      fontsize=8)
        ax.tick_params(length=0)
        for s in ax.spines.values():
            s.set_visible(False)
        name = f"swizzled: {v.swizzle}" if swz else ("unswizzled (atoms, k-lines in order)" if mn
                                                      else "unswizzled (row-major)")
        ax.set_title(f"{name}\nboxed: {v.first_load}{whole} -> {wf} wavefront{'s' if wf != 1 else ''}", fontsize=10)
    where = f"first {rows} k-lines of atom 0" if mn else f"first {rows} of {n.bm} rows"
    fig.suptitle(f"{v.title}), {where}\ncell = 4-byte word ({v.word}), number/colour = bank (of {SMEM_BANKS}); "
                 "dark lines = 16-byte chunks", fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def png_fragments(path: Path, n: Numbers | None = None) -> None:
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    n = n or numbers(_default_cfg())
    reg_colors = ["#8dd3c7", "#ffffb3", "#bebada", "#fb8072"]
    specs = fragment_specs(n)
    maps = [mma_lane_map(op, n.ab) for op, *_ in specs]
    widths = [m[0].shape[1] for m in maps]
    height = max(m[0].shape[0] for m in maps)
    fig, axes = plt.subplots(1, 3, figsize=(0.7 * sum(widths) + 3, 0.55 * height + 1.7),
                             gridspec_kw={"width_ratios": widths})
    for ax, (op, title, rl, cl, rn, note), (lanes, regs, halves) in zip(axes, specs, maps):
        rows, cols = lanes.shape
        parts = op != "C" and n.elems_per_reg > 1
        for i in range(rows):
            for j in range(cols):
                ax.add_patch(Rectangle((j, i), 1, 1, facecolor=reg_colors[regs[i, j]], edgecolor="white"))
                sub = f"{rn}{regs[i, j]}" + (f".{halves[i, j]}" if parts else "")
                ax.text(j + 0.5, i + 0.36, f"T{lanes[i, j]}", ha="center", va="center", fontsize=8.5, fontweight="bold")
                ax.text(j + 0.5, i + 0.72, sub, ha="center", va="center", fontsize=7)
        ax.set_xlim(0, cols)
        ax.set_ylim(rows, 0)
        ax.set_aspect("equal")
        ax.set_xticks([j + 0.5 for j in range(cols)], [str(j) for j in range(cols)], fontsize=8)
        ax.set_yticks([i + 0.5 for i in range(rows)], [str(i) for i in range(rows)], fontsize=8)
        ax.set_xlabel({"k": "k", "n": "n"}[cl])
        ax.set_ylabel({"r": "row", "k": "k"}[rl])
        ax.tick_params(length=0)
        ax.set_title(f"{title} fragment\n{note}", fontsize=10)
    fig.suptitle(f"mma.sync.m{n.im}n{n.in_}k{n.ik} fragments (lasscc.layout.mma_a/b/c_coord): lane Tn holds the "
                 "element in the register (.part) shown; colour = register", fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    fig.savefig(path, dpi=100)
    plt.close(fig)


def png_ldmatrix(path: Path, n: Numbers | None = None) -> None:
    import textwrap

    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    n = n or numbers(_default_cfg())
    mat_colors = ["#a6cee3", "#b2df8a", "#fdbf6f", "#cab2d6"]
    panels = [(op, major) + load_src_map(op, n.ab, major) for op, major in (("A", n.a_major), ("B", n.b_major))]
    dest = K_MAJOR in (n.a_major, n.b_major)
    cw = 4  # width of a cell
    widths = [cw * p[2].shape[1] for p in panels] + ([ldmatrix_dest_map(n.ab)[0].shape[1]] if dest else [])
    fig, axes = plt.subplots(1, len(widths), figsize=(0.45 * sum(widths) + 4, 8.6),
                             gridspec_kw={"width_ratios": widths})
    for ax, (op, major, grid, rlab, clab, what) in zip(axes, panels):
        ldm = not (major == MN_MAJOR and n.elem_bytes == 4)  # MN-major tf32: ld.shared, no phases
        rows, cols = grid.shape
        for r in range(rows):
            for c in range(cols):
                lane = int(grid[r, c])
                ax.add_patch(Rectangle((cw * c, r), cw, 1, facecolor=mat_colors[lane // 8], edgecolor="white",
                                       linewidth=1.5))
                phase = f"  (lanes {8 * (lane // 8)}-{8 * (lane // 8) + 7})" if ldm else ""
                ax.text(cw * c + cw / 2, r + 0.5, f"T{lane}{phase}", ha="center", va="center", fontsize=7.5)
        ax.set_xlim(0, cw * cols)
        ax.set_ylim(rows, 0)
        ax.set_xticks([cw * c + cw / 2 for c in range(cols)], clab, fontsize=8)
        ax.set_yticks([r + 0.5 for r in range(rows)], rlab, fontsize=8)
        ax.tick_params(length=0)
        kind = "K-major" if major == K_MAJOR else "MN-major"
        ax.set_title(f"{op} ({kind} {n.ab} tile)\n" + textwrap.fill(what, 12 * cols + 20), fontsize=9)
    if dest:
        lanes, parts = ldmatrix_dest_map(n.ab)
        ax = axes[-1]
        rows, cols = lanes.shape
        for r in range(rows):
            for c in range(cols):
                ax.add_patch(Rectangle((c, r), 1, 1, facecolor="#eeeeee" if (r + c) % 2 else "#d9d9d9",
                                       edgecolor="white"))
                sub = f"\n.{parts[r, c]}" if n.elems_per_reg > 1 else ""
                ax.text(c + 0.5, r + 0.5, f"T{lanes[r, c]}{sub}", ha="center", va="center", fontsize=8)
        ax.set_xlim(0, cols)
        ax.set_ylim(rows, 0)
        ax.set_aspect("equal")
        ax.set_xticks([c + 0.5 for c in range(cols)], [str(c) for c in range(cols)], fontsize=8)
        ax.set_yticks([r + 0.5 for r in range(rows)], [str(r) for r in range(rows)], fontsize=8)
        ax.tick_params(length=0)
        ax.set_title(f"ldmatrix destination:\nlane T<n> of each\n8-row x 16 B matrix\n({cols} {n.ptx_ab} per row"
                     + (",\n.part = place in register)" if n.elems_per_reg > 1 else ",\none per register)"),
                     fontsize=9)
    fig.suptitle(f"fragment loads of a k-group ({n.ab}; lasscc.layout lane maps): ldmatrix.sync.aligned.m8n8.x4 "
                 "phase i = lanes 8i..8i+7 supply the addresses of matrix i", fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    fig.savefig(path, dpi=100)
    plt.close(fig)


def png_raster(n: Numbers, path: Path, grid: tuple[int, int]) -> None:
    import matplotlib.pyplot as plt

    tm, tn = grid
    order = raster_order(tm, tn, n.raster)
    fig, ax = plt.subplots(figsize=(1.0 + 0.75 * tn, 1.6 + 0.6 * tm))
    ax.imshow(order, cmap="viridis", aspect="auto")
    for i in range(tm):
        for j in range(tn):
            v = order[i, j]
            ax.text(j, i, str(v), ha="center", va="center", fontsize=9,
                    color="white" if v < 0.6 * tm * tn else "black")
    for r in range(n.raster, tm, n.raster):
        ax.axhline(r - 0.5, color="red", linewidth=2.5)
    ax.set_xticks(range(tn), [str(j) for j in range(tn)])
    ax.set_yticks(range(tm), [str(i) for i in range(tm)])
    ax.set_xlabel(f"tile column (N / {n.bn})")
    ax.set_ylabel(f"tile row (M / {n.bm})")
    ax.set_title(f"threadblock launch order (block id), raster = {n.raster}\n"
                 f"groups of {n.raster} tile rows (red rules) walked column by column", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_pngs(cfg, out_dir, arch: str = "sm_80", stage: str | None = None,
               grid: tuple[int, int] = DEFAULT_GRID, ab: str = "f16", acc: str | None = None,
               majors: tuple[str, str] = (K_MAJOR, K_MAJOR)) -> list[Path]:
    """Draw the maps of the selected sections into out_dir; returns the files.  `cfg` in the
    kernel's operand order (kernel_config), `ab` / `acc` / `majors` as for `numbers`.  ImportError
    without matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    n = numbers(cfg, arch, ab, acc, majors)
    import io

    from lasscc.outfile import output_dir, write_output

    out = output_dir(out_dir, "--png")
    written = []
    sections = sections_for(stage)
    for sec, fname in PNGS.items():
        if sec not in sections:
            continue
        path, buf = out / fname, io.BytesIO()  # drawn in memory, written through lasscc.outfile
        if sec == "banks":
            png_banks(n, buf)
        elif sec == "fragments":
            png_fragments(buf, n)
        elif sec == "ldmatrix":
            png_ldmatrix(buf, n)
        elif sec == "raster":
            png_raster(n, buf, grid)
        write_output(str(path), buf.getvalue(), "--png")
        written.append(path)
    return written


# ---- CLI ---------------------------------------------------------------------------------------


def _parse_grid(text: str) -> tuple[int, int]:
    from lasscc.config import parse_shape

    return parse_shape(text, 2, "--grid")


def cmd_explain(args) -> int:
    from lasscc.options import load_input as _load

    module = _load(args)
    grid = _parse_grid(args.grid) if args.grid else DEFAULT_GRID
    if args.stage is not None:
        sections_for(args.stage)  # reject a bad name before any work
    # before explain: compiling for the resources section lowers `module` in place
    info = gemm_config(module, args.arch, args.file)
    facts = gemm_facts(module, info)
    text = explain(module, args.arch, args.file, args.stage, grid, use_cache=not args.no_cache)
    sys.stdout.write(text)
    if args.png:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("--png: matplotlib is not installed (pip install matplotlib); printed the text only", file=sys.stderr)
            return 0
        files = write_pngs(kernel_config(info, facts), args.png, args.arch, args.stage, grid, facts.ab, facts.acc,
                           facts.majors)
        for f in files:
            print(f"wrote {f}")
        if not files:
            print(f"--png: no pictures for --stage {args.stage}")
    return 0


def add_parser(sub, common) -> None:
    """Register `lasscc explain` on the CLI's subparsers (`common` adds FILE, --arch and the overrides)."""
    e = sub.add_parser("explain", help="explain the tiling: tile hierarchy, SMEM, registers, bank and lane maps")
    common(e)
    e.add_argument("--stage", help="only what this pass decides (a pass flag or short name: threadblock, pipeline, "
                                   "warp-mma, swizzle-smem, lower-to-llvm, ptx)")
    e.add_argument("--png", metavar="DIR", help="also draw the maps as PNG files in DIR (needs matplotlib)")
    e.add_argument("--grid", help="tile grid MxN of the rasterization example (default 12x8)")
    e.set_defaults(fn=cmd_explain)
