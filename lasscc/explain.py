"""`lasscc explain FILE.mlir [--stage S] [--png DIR]`: what the compiler will build, with numbers.

Sections (all with `--stage input` or no --stage; one pass's share with `--stage PASS`):

  lasscc-tile-threadblock  the tile hierarchy (threadblock -> warps -> mma.sync), grid, rasterization order
  lasscc-pipeline          shared memory per stage and in total against the arch limit, copies per thread
  lasscc-warp-mma          warp grid, MmaIterations, k-groups, fragments per thread, register estimate,
                           the lane -> element maps of the mma.m16n8k16 A, B and C fragments
  lasscc-swizzle-smem      the A tile's 4-byte banks, unswizzled vs swizzled, ldmatrix.x4 phases and
                           the wavefronts each needs
  lasscc-lower-to-llvm, llvm, ptx   ptxas -v's registers / shared memory / spills (when ptxas is on PATH)

With `--png DIR` the same maps are drawn (matplotlib, optional): smem_banks.png, mma_fragments.png,
ldmatrix_x4.png, raster.png.  Every number comes from `lasscc.config.GemmConfig` and every map from
the functions of `lasscc.layout` that the passes use; nothing is re-derived here.
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
    kgroups: int  # instruction-K slices per k-tile: BK / 16
    mma_per_kgroup: int  # per warp
    mma_per_ktile: int  # per warp
    mma_per_ktile_cta: int
    a_regs_per_frag: int  # 32-bit registers of one m16k16 A fragment, per thread
    b_regs_per_frag: int  # of one k16n8 B fragment
    c_per_mma: int  # f32 accumulators of one m16n8 C tile, per thread
    a_regs: int  # per k-group, per thread
    b_regs: int
    acc_regs: int
    ldmatrix_a: int  # ldmatrix.x4 per k-group per warp
    ldmatrix_b: int
    frag_sets: int  # fragment sets live at once (double buffering, + cross-stage prefetch)
    reg_estimate: int  # accumulators + live fragment sets
    stages: int
    raster: int
    smem_a_tile: int  # bytes of one stage's A tile
    smem_b_tile: int
    smem_stage: int
    smem_total: int
    smem_limit: int
    stages_fit: int
    copy_a_chunks: int
    copy_b_chunks: int
    copy_a_per_thread: int
    copy_b_per_thread: int


def numbers(cfg, arch: str = "sm_80") -> Numbers:
    from lasscc.config import SMEM_PER_BLOCK_LIMIT
    from lasscc.layout import ACCESS_BYTES, MMA_K, MMA_M, MMA_N, WARP_SIZE, copy_iterations
    from lasscc.passes.warp_mma import PREFETCH_MAX_KGROUPS

    bm, bn, bk = cfg.threadblock
    wm, wn, wk = cfg.warp
    im, in_, ik = cfg.instruction
    elem = 2  # f16 / bf16 A and B
    mma_m, mma_n, kgroups = wm // MMA_M, wn // MMA_N, bk // MMA_K
    # per-thread registers: a fragment of E f16 elements over 32 lanes, 2 f16 per 32-bit register
    a_rf = MMA_M * MMA_K // WARP_SIZE // 2
    b_rf = MMA_K * MMA_N // WARP_SIZE // 2
    c_mma = MMA_M * MMA_N // WARP_SIZE
    a_regs, b_regs = mma_m * a_rf, mma_n * b_rf
    acc = mma_m * mma_n * c_mma
    # warp-mma: fragments double buffered across k-groups; with the multistage main loop and at
    # most PREFETCH_MAX_KGROUPS k-groups a third set is carried across the barrier
    sets = 2 + (1 if cfg.stages >= 3 and kgroups <= PREFETCH_MAX_KGROUPS else 0)
    limit = SMEM_PER_BLOCK_LIMIT.get(arch, 0)
    threads = cfg.threads
    return Numbers(
        bm=bm, bn=bn, bk=bk, wm=wm, wn=wn, wk=wk, im=im, in_=in_, ik=ik,
        warps_m=cfg.warps_m, warps_n=cfg.warps_n, warps=cfg.warps_m * cfg.warps_n, threads=threads,
        mma_m=mma_m, mma_n=mma_n, kgroups=kgroups, mma_per_kgroup=mma_m * mma_n,
        mma_per_ktile=mma_m * mma_n * kgroups, mma_per_ktile_cta=mma_m * mma_n * kgroups * cfg.warps_m * cfg.warps_n,
        a_regs_per_frag=a_rf, b_regs_per_frag=b_rf, c_per_mma=c_mma, a_regs=a_regs, b_regs=b_regs, acc_regs=acc,
        ldmatrix_a=mma_m, ldmatrix_b=mma_n // 2, frag_sets=sets, reg_estimate=acc + sets * (a_regs + b_regs),
        stages=cfg.stages, raster=cfg.raster,
        smem_a_tile=bm * bk * elem, smem_b_tile=bn * bk * elem, smem_stage=cfg.smem_stage_bytes(),
        smem_total=cfg.smem_bytes(), smem_limit=limit, stages_fit=limit // cfg.smem_stage_bytes(),
        copy_a_chunks=bm * bk * elem // ACCESS_BYTES, copy_b_chunks=bn * bk * elem // ACCESS_BYTES,
        copy_a_per_thread=copy_iterations(bm, bk, elem, threads), copy_b_per_thread=copy_iterations(bn, bk, elem, threads),
    )


# ---- maps (all from lasscc.layout) -------------------------------------------------------------


def bank_grid(rows: int, bk: int, swizzled: bool):
    """[rows, bk/2] bank of each 4-byte word (2 f16) of a K-major rows x bk f16 tile."""
    import numpy as np

    from lasscc.layout import SMEM_BANK_BYTES, SMEM_BANKS, kmajor_tile_offset

    r = np.arange(rows)[:, None]
    k = 2 * np.arange(bk // 2)[None, :]
    return (kmajor_tile_offset(r, k, bk, 2, swizzled) // SMEM_BANK_BYTES) % SMEM_BANKS


def ldmatrix_phase(operand: str, phase: int, kgroup: int = 0, row0: int = 0):
    """[(lane, row, k)] of the 8 row addresses of ldmatrix.x4 phase `phase` (lanes 8p..8p+7) for the
    A (rows = M) or B (rows = N) fragment at tile row `row0`, k-group `kgroup`."""
    from lasscc.layout import LDMATRIX_ROWS, MMA_K, ldmatrix_a_lane_src, ldmatrix_b_lane_src

    src = ldmatrix_a_lane_src if operand == "A" else ldmatrix_b_lane_src
    out = []
    for lane in range(phase * LDMATRIX_ROWS, (phase + 1) * LDMATRIX_ROWS):
        r, k = src(lane)
        out.append((lane, row0 + r, kgroup * MMA_K + k))
    return out


def phase_wavefronts(operand: str, phase: int, kgroup: int, bk: int, swizzled: bool, row0: int = 0) -> int:
    """Wavefronts one ldmatrix phase needs (lasscc.layout.wavefronts of its 8 16-byte rows)."""
    from lasscc.layout import ACCESS_BYTES, kmajor_tile_offset, wavefronts

    addrs = [kmajor_tile_offset(r, k, bk, 2, swizzled) for _, r, k in ldmatrix_phase(operand, phase, kgroup, row0)]
    return wavefronts(addrs, ACCESS_BYTES)


def copy_wavefronts(rows: int, bk: int, threads: int, swizzled: bool) -> tuple[int, int]:
    """(worst, ideal) wavefronts of one warp's 16-byte SMEM stores of a tile copy (copy_thread_map)."""
    from lasscc.layout import (ACCESS_BYTES, WARP_SIZE, copy_iterations, copy_thread_map, ideal_wavefronts,
                               kmajor_tile_offset, wavefronts)

    worst = 0
    for it in range(copy_iterations(rows, bk, 2, threads)):
        for w0 in range(0, threads, WARP_SIZE):
            addrs = []
            for t in range(w0, w0 + WARP_SIZE):
                r, k = copy_thread_map(t, it, threads, bk, 2)
                if r < rows:
                    addrs.append(kmajor_tile_offset(r, k, bk, 2, swizzled))
            worst = max(worst, wavefronts(addrs, ACCESS_BYTES))
    return worst, ideal_wavefronts(WARP_SIZE, ACCESS_BYTES)


def mma_lane_map(operand: str):
    """(lanes, regs, halves) arrays over the fragment: A 16x16 (row, k), B 16x8 (k, n), C 16x8 (row, n)."""
    import numpy as np

    from lasscc.layout import MMA_K, MMA_M, MMA_N, WARP_SIZE, mma_a_coord, mma_b_coord, mma_c_coord

    if operand == "A":
        shape, regs, halves, coord = (MMA_M, MMA_K), 4, 2, mma_a_coord
    elif operand == "B":
        shape, regs, halves, coord = (MMA_K, MMA_N), 2, 2, mma_b_coord
    else:
        shape, regs, halves = (MMA_M, MMA_N), 4, 1

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


def ldmatrix_src_map(operand: str):
    """[16, 2] lane supplying the row address of (row, k-half) of an ldmatrix.x4 (A: rows = M,
    B: rows = N); matrix i (destination register i) = lanes 8i..8i+7."""
    import numpy as np

    from lasscc.layout import LDMATRIX_ROWS, WARP_SIZE, ldmatrix_a_lane_src, ldmatrix_b_lane_src

    src = ldmatrix_a_lane_src if operand == "A" else ldmatrix_b_lane_src
    out = np.full((2 * LDMATRIX_ROWS, 2), -1)
    for lane in range(WARP_SIZE):
        r, k = src(lane)
        out[r, k // LDMATRIX_ROWS] = lane
    return out


def ldmatrix_dest_map():
    """[8, 8] lane receiving element (row, col) of each 8x8 matrix, and which half of its register."""
    import numpy as np

    from lasscc.layout import LDMATRIX_ROWS, WARP_SIZE, ldmatrix_dest_coord

    lanes = np.full((LDMATRIX_ROWS, LDMATRIX_ROWS), -1)
    halves = np.full((LDMATRIX_ROWS, LDMATRIX_ROWS), -1)
    for lane in range(WARP_SIZE):
        for half in range(2):
            r, c = ldmatrix_dest_coord(lane, half)
            lanes[r, c], halves[r, c] = lane, half
    return lanes, halves


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


def section_hierarchy(n: Numbers, d_dtype: str, ab: str = "f16") -> list[str]:
    out = ["Tile hierarchy"]
    rows = [
        ["threadblock", f"{n.bm} x {n.bn} x {n.bk}", f"one CTA of {n.threads} threads per {n.bm} x {n.bn} tile of D; "
         f"K loop in k-tiles of {n.bk}"],
        ["warp", f"{n.wm} x {n.wn} x {n.wk}", f"{n.warps_m} x {n.warps_n} = {n.warps} warps per CTA"],
        ["instruction", f"{n.im} x {n.in_} x {n.ik}", f"mma.sync.aligned.m16n8k16.row.col.f32.{ab}.{ab}.f32"],
        ["MmaIterations", f"{n.mma_m} (m) x {n.mma_n} (n)", f"= {n.mma_per_kgroup} mma.sync per warp per k-group"],
        ["k-groups", f"{n.bk} / {n.ik} = {n.kgroups}", f"per k-tile: {n.mma_per_ktile} mma.sync per warp, "
         f"{n.mma_per_ktile_cta} per CTA"],
        ["stages", str(n.stages), "MmaMultistage (cp.async ring, wait + barrier per k-tile)" if n.stages >= 3
         else "MmaPipelined (GMEM -> registers -> SMEM, double buffer)"],
        ["D", f"{d_dtype} row-major", "alpha * acc (+ beta * C when beta != 0), f32 accumulation"],
    ]
    out += _table(rows, ["level", "shape (M x N x K)", "what"])
    flops = 2 * n.bm * n.bn * n.bk
    out.append(f"  one k-tile: {flops} flops per CTA = {n.mma_per_ktile_cta} mma.sync x {2 * n.im * n.in_ * n.ik} flops")
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


def section_smem(n: Numbers, arch: str, d_dtype: str) -> list[str]:
    from lasscc.config import SMEM_DEFAULT_LIMIT

    out = ["Shared memory (lasscc-pipeline: one ring per operand, `stages` slots)"]
    rows = [
        ["A tile", f"{n.bm} x {n.bk} f16", f"{n.smem_a_tile} B", _kb(n.smem_a_tile)],
        ["B tile", f"{n.bn} x {n.bk} f16", f"{n.smem_b_tile} B", _kb(n.smem_b_tile)],
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
    how = "cp.async.cg 16 B" if n.stages >= 3 else "ld.global.v4 + st.shared.v4"
    out.append(f"  copies per k-tile: A {n.copy_a_chunks} x 16 B chunks = {n.copy_a_per_thread} per thread, "
               f"B {n.copy_b_chunks} = {n.copy_b_per_thread} per thread ({how}, lasscc.layout.copy_thread_map)")
    if n.stages >= 3:
        out.append(f"  main loop: prologue of {n.stages - 1} k-tiles in flight; each k-tile: wait until <= "
                   f"{n.stages - 2} groups pending, barrier, issue k-tile + {n.stages - 1}, mma on slot kt % {n.stages}")
    else:
        out.append("  main loop: registers hold the next k-tile while the mma reads the current slot; one barrier "
                   "per k-tile")
    return out


def section_warp(n: Numbers, cfg) -> list[str]:
    out = [f"Warps ({n.warps_m} x {n.warps_n} grid; warp w covers rows (w % {n.warps_m}) * {n.wm}, columns "
           f"(w / {n.warps_m}) * {n.wn} of the CTA tile)"]
    grid = warp_grid(cfg)
    header = [""] + [f"n {j * n.wn}..{(j + 1) * n.wn - 1}" for j in range(n.warps_n)]
    rows = [[f"m {i * n.wm}..{(i + 1) * n.wm - 1}"] + [f"warp {grid[i, j]}" for j in range(n.warps_n)]
            for i in range(n.warps_m)]
    out += _table(rows, header)
    out.append("")
    out.append(f"Per warp per k-group: {n.mma_m} x {n.mma_n} = {n.mma_per_kgroup} mma.sync (serpentine order), "
               f"{n.ldmatrix_a} ldmatrix.x4 for A + {n.ldmatrix_b} for B")
    out.append("Fragments per thread (32-bit registers; pairs of 16-bit elements for A/B, one f32 each for C):")
    rows = [
        ["A", f"{n.mma_m} m16k16 fragments x {n.a_regs_per_frag}", str(n.a_regs), "per k-group"],
        ["B", f"{n.mma_n} k16n8 fragments x {n.b_regs_per_frag}", str(n.b_regs), "per k-group"],
        ["C", f"{n.mma_per_kgroup} m16n8 tiles x {n.c_per_mma} f32", str(n.acc_regs), "accumulators, whole K loop"],
    ]
    out += _table(rows, ["", "made of", "registers", "live"])
    extra = " + cross-stage prefetch" if n.frag_sets == 3 else ""
    out.append(f"Register estimate: {n.acc_regs} accumulators + {n.frag_sets} fragment sets (double buffering{extra}) "
               f"x {n.a_regs + n.b_regs} = {n.reg_estimate}, plus addresses and loop state (the config check "
               "assumes ~40) against 255 per thread")
    return out


def _ranges(vals) -> str:
    """'0-7' for a contiguous set, else '0,2,4,6'."""
    v = sorted(set(int(x) for x in vals))
    if v == list(range(v[0], v[-1] + 1)):
        return f"{v[0]}-{v[-1]}" if len(v) > 1 else str(v[0])
    return ",".join(map(str, v))


def section_fragments() -> list[str]:
    import numpy as np

    out = ["mma.m16n8k16 fragments (lasscc.layout.mma_a/b/c_coord): the lane T0..T31 holding each element"]
    for op, title, rl, cl, rn in (("A", "A 16 x 16 (row x k), f16", "r", "k", "a"),
                                  ("B", "B 16 x 8 (k x n), f16", "k", "n", "b"),
                                  ("C", "C/D 16 x 8 (row x n), f32", "r", "n", "c")):
        lanes, regs, halves = mma_lane_map(op)
        out.append(f"  {title}")
        out += _grid_lines(lanes, rl, cl, cell=3, indent="    ")
        parts = []
        for reg in range(int(regs.max()) + 1):
            ii, jj = np.nonzero(regs == reg)
            parts.append(f"{rn}{reg}: {rl} {_ranges(ii)}, {cl} {_ranges(jj)}")
        pair = ("two adjacent k per register (halves .0/.1)" if op == "A" else
                "two adjacent k per register (halves .0/.1)" if op == "B" else "one f32 per register")
        out.append(f"    registers: {'; '.join(parts)}; {pair}")
    return out


def section_banks(n: Numbers) -> list[str]:
    from lasscc.layout import ideal_wavefronts

    out = [f"Shared-memory banks of the A tile ({n.bm} x {n.bk} f16, rows of {2 * n.bk} B; one column = one 4-byte "
           f"word = 2 f16 = one bank of 32), first {BANK_ROWS} rows; * = read by ldmatrix.x4 phase 0 "
           "(lanes 0-7, matrix 0)"]
    hit = {(r, k // 2 + j) for _, r, k in ldmatrix_phase("A", 0) for j in range(4)}
    grids = {s: bank_grid(BANK_ROWS, n.bk, s) for s in (False, True)}
    words = n.bk // 2

    def cell(r, w, s):
        return f"{grids[s][r, w]}{'*' if (r, w) in hit else ' '}"

    for s, label in ((False, "unswizzled (row-major)"), (True, "swizzled (Swizzle<3,4,3>: 16-byte chunk ^= line % 8)")):
        out.append(f"  {label}")
        out.append("    word " + "".join(f"{w:>4}" for w in range(words)))
        for r in range(BANK_ROWS):
            out.append((f"    row{r:<2} " + "".join(cell(r, w, s).rjust(4) for w in range(words))).rstrip())
    ideal = ideal_wavefronts(8, 16)
    out.append(f"  Wavefronts per ldmatrix.x4 phase (8 rows x 16 B; ideal {ideal}; lasscc.layout.wavefronts):")
    rows = []
    for op, rows_ in (("A", n.bm), ("B", n.bn)):
        for g in range(n.kgroups):
            rows.append([op, str(g)] + [f"{phase_wavefronts(op, p, g, n.bk, False)} -> {phase_wavefronts(op, p, g, n.bk, True)}"
                                        for p in range(4)])
    out += _table(rows, ["", "k-group", "phase 0", "phase 1", "phase 2", "phase 3"], indent="    ")
    out.append("    (unswizzled -> swizzled)")
    for op, rows_ in (("A", n.bm), ("B", n.bn)):
        u = copy_wavefronts(rows_, n.bk, n.threads, False)
        s = copy_wavefronts(rows_, n.bk, n.threads, True)
        out.append(f"  {op} tile copy, one warp's 32 x 16 B stores: {u[0]} wavefronts unswizzled, {s[0]} swizzled "
                   f"(ideal {s[1]})")
    return out


def section_ldmatrix() -> list[str]:
    out = ["ldmatrix.x4 (lasscc.layout.ldmatrix_a/b_lane_src): phase i = lanes 8i..8i+7 give the 8 row addresses "
           "of matrix i, which lands in register i of every lane"]
    a, b = ldmatrix_src_map("A"), ldmatrix_src_map("B")
    out.append("  lane giving each 16-byte row address:")
    out.append("      A (rows = M)          B (rows = N)")
    out.append("      k 0-7  k 8-15         k 0-7  k 8-15")
    for r in range(16):
        out.append(f"  r{r:<3} T{a[r, 0]:<5} T{a[r, 1]:<9} n{r:<3} T{b[r, 0]:<5} T{b[r, 1]}")
    mats_a = {i: sorted({(r // 8, c) for r in range(16) for c in range(2) if a[r, c] // 8 == i}) for i in range(4)}
    mats_b = {i: sorted({(r // 8, c) for r in range(16) for c in range(2) if b[r, c] // 8 == i}) for i in range(4)}
    for i in range(4):
        (ra, ca), (rb, cb) = mats_a[i][0], mats_b[i][0]
        out.append(f"  matrix {i} (lanes {8 * i}-{8 * i + 7}): A rows {8 * ra}-{8 * ra + 7}, k {8 * ca}-{8 * ca + 7}"
                   f" -> a{i};   B n {8 * rb}-{8 * rb + 7}, k {8 * cb}-{8 * cb + 7} -> "
                   f"b{i % 2} of n8 block {i // 2}")
    lanes, halves = ldmatrix_dest_map()
    out.append("  destination (lasscc.layout.ldmatrix_dest_coord): lane receiving element (row, col) of each 8x8 matrix")
    out += _grid_lines(lanes, "r", "c", cell=3, indent="    ")
    return out


def section_resources(n: Numbers, res, arch: str, why_none: str | None) -> list[str]:
    out = [f"Resources ({arch})"]
    out.append(f"  estimate: {n.reg_estimate} registers for accumulators and fragments (+ addresses), "
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
        from lasscc.pipeline import PASS_NAMES, run_passes

        first = PASS_NAMES.index("lasscc-tile-threadblock") if "lasscc-tile-threadblock" in PASS_NAMES else 0
        if first == 0:
            raise
        trial = module.clone()
        run_passes(trial, PASS_NAMES[:first], arch, filename)
        return gemm_info(trial, filename)


def explain(module, arch: str = "sm_80", filename: str = "<input>", stage: str | None = None,
            grid: tuple[int, int] = DEFAULT_GRID, use_cache: bool = True, resources: bool = True) -> str:
    """The explanation text of the module's GEMM (a lass.gemm or a dump); LassError on a bad config."""
    from lasscc.api import resolve_stage

    info = gemm_config(module, arch, filename)
    cfg, d_dtype, where, ab = info.config, info.d_dtype, info.where, info.ab_dtype
    cfg.validate(arch, where=f"{where}: error: config", ab_type=ab)
    sections = SECTIONS
    if stage is not None:
        name = resolve_stage(stage, "option --stage")
        sections = STAGE_SECTIONS.get(name, SECTIONS)
    n = numbers(cfg, arch)
    from lasscc.pipeline import operand_layouts

    la, lb = ({"row": "row-major", "col": "column-major"}.get(x, x) for x in operand_layouts(module))
    head = (f"lasscc explain {filename}  ({arch}; A {ab} {la}, B {ab} {lb}, D {d_dtype} row-major; "
            f"threadblock {n.bm}x{n.bn}x{n.bk}, warp {n.wm}x{n.wn}x{n.wk}, {n.stages} stages, raster {n.raster})")
    parts = [[head]]
    if "hierarchy" in sections:
        parts.append(section_hierarchy(n, d_dtype, ab))
    if "raster" in sections:
        parts.append(section_raster(n, grid))
    if "smem" in sections:
        parts.append(section_smem(n, arch, d_dtype))
    if "warp" in sections:
        parts.append(section_warp(n, cfg))
    if "fragments" in sections:
        parts.append(section_fragments())
    if "banks" in sections:
        parts.append(section_banks(n))
    if "ldmatrix" in sections:
        parts.append(section_ldmatrix())
    if "resources" in sections:
        res = _resources(module, arch, filename, use_cache) if resources else None
        why = None if res is not None else "not compiled" if not resources else "no ptxas"
        parts.append(section_resources(n, res, arch, why))
    return "\n\n".join("\n".join(p) for p in parts) + "\n"


def sections_for(stage: str | None) -> tuple[str, ...]:
    from lasscc.api import resolve_stage

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

    from lasscc.layout import ACCESS_BYTES, SMEM_BANKS

    colors = _bank_colors()
    words = n.bk // 2
    phase = ldmatrix_phase("A", 0)
    if words <= 16:  # side by side
        fig, axes = plt.subplots(1, 2, figsize=(max(12, 0.62 * words * 2 + 3), 0.55 * rows + 2.4))
    else:  # wide rows: one above the other
        fig, axes = plt.subplots(2, 1, figsize=(0.5 * words + 2.5, 2 * (0.5 * rows + 1.4) + 0.6))
    for ax, swz in zip(axes, (False, True)):
        grid = bank_grid(rows, n.bk, swz)
        for r in range(rows):
            for w in range(words):
                b = int(grid[r, w])
                ax.add_patch(Rectangle((w, r), 1, 1, facecolor=colors[b], edgecolor="white", linewidth=0.8))
                ax.text(w + 0.5, r + 0.5, str(b), ha="center", va="center", fontsize=8)
        for w in range(0, words + 1, ACCESS_BYTES // 4):  # 16-byte chunk boundaries
            ax.axvline(w, color="#444444", linewidth=0.8)
        for lane, r, k in phase:
            if r < rows:
                ax.add_patch(Rectangle((k // 2, r), ACCESS_BYTES // 4, 1, fill=False, edgecolor="black", linewidth=2.8))
                ax.text(k // 2 + 0.08, r + 0.08, f"T{lane}", ha="left", va="top", fontsize=7, fontweight="bold",
                        bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "edgecolor": "none", "alpha": 0.85})
        wf = phase_wavefronts("A", 0, 0, n.bk, swz)
        ax.set_xlim(0, words)
        ax.set_ylim(rows, 0)
        ax.set_aspect("equal")
        ax.set_xticks([w + 0.5 for w in range(0, words, 4)], [f"k{2 * w}" for w in range(0, words, 4)], fontsize=8)
        ax.set_yticks([r + 0.5 for r in range(rows)], [f"row {r}" for r in range(rows)], fontsize=8)
        ax.tick_params(length=0)
        for s in ax.spines.values():
            s.set_visible(False)
        name = "swizzled: Swizzle<3,4,3> (16-B chunk ^= 128-B line % 8)" if swz else "unswizzled (row-major)"
        ax.set_title(f"{name}\nboxed: ldmatrix.x4 phase 0 (lanes T0-T7) -> {wf} wavefront{'s' if wf != 1 else ''}",
                     fontsize=10)
    fig.suptitle(f"A tile in shared memory: first {rows} of {n.bm} rows x {n.bk} f16; cell = 4-byte word (2 f16), "
                 f"number/colour = bank (of {SMEM_BANKS}); dark lines = 16-byte chunks", fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def png_fragments(path: Path) -> None:
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    reg_colors = ["#8dd3c7", "#ffffb3", "#bebada", "#fb8072"]
    fig, axes = plt.subplots(1, 3, figsize=(22, 9.5), gridspec_kw={"width_ratios": [16, 8, 8]})
    specs = (("A", "A fragment 16 x 16 (row x k), f16", "k", "row", "a"),
             ("B", "B fragment 16 x 8 (k x n), f16", "n", "k", "b"),
             ("C", "C / D fragment 16 x 8 (row x n), f32", "n", "row", "c"))
    for ax, (op, title, xl, yl, rn) in zip(axes, specs):
        lanes, regs, halves = mma_lane_map(op)
        rows, cols = lanes.shape
        for i in range(rows):
            for j in range(cols):
                ax.add_patch(Rectangle((j, i), 1, 1, facecolor=reg_colors[regs[i, j]], edgecolor="white"))
                sub = f"{rn}{regs[i, j]}" + (f".{halves[i, j]}" if op != "C" else "")
                ax.text(j + 0.5, i + 0.36, f"T{lanes[i, j]}", ha="center", va="center", fontsize=8.5, fontweight="bold")
                ax.text(j + 0.5, i + 0.72, sub, ha="center", va="center", fontsize=7)
        ax.set_xlim(0, cols)
        ax.set_ylim(rows, 0)
        ax.set_aspect("equal")
        ax.set_xticks([j + 0.5 for j in range(cols)], [str(j) for j in range(cols)], fontsize=8)
        ax.set_yticks([i + 0.5 for i in range(rows)], [str(i) for i in range(rows)], fontsize=8)
        ax.set_xlabel(xl)
        ax.set_ylabel(yl)
        ax.tick_params(length=0)
        ax.set_title(title, fontsize=11)
    fig.suptitle("mma.sync.m16n8k16 fragments (lasscc.layout.mma_a/b/c_coord): lane Tn holds the element in "
                 "register.half shown; colour = register", fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    fig.savefig(path, dpi=100)
    plt.close(fig)


def png_ldmatrix(path: Path) -> None:
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    mat_colors = ["#a6cee3", "#b2df8a", "#fdbf6f", "#cab2d6"]
    fig, axes = plt.subplots(1, 3, figsize=(21, 8.2), gridspec_kw={"width_ratios": [16, 16, 8]})
    for ax, op in zip(axes[:2], ("A", "B")):
        src = ldmatrix_src_map(op)
        for r in range(16):
            for h in range(2):
                lane = int(src[r, h])
                ax.add_patch(Rectangle((8 * h, r), 8, 1, facecolor=mat_colors[lane // 8], edgecolor="white",
                                       linewidth=1.5))
                ax.text(8 * h + 4, r + 0.5, f"T{lane}  (phase / matrix {lane // 8})", ha="center",
                        va="center", fontsize=8)
        ax.set_xlim(0, 16)
        ax.set_ylim(16, 0)
        ax.set_xticks([0.5 + j for j in range(16)], [str(j) for j in range(16)], fontsize=8)
        ax.set_yticks([i + 0.5 for i in range(16)], [str(i) for i in range(16)], fontsize=8)
        ax.set_xlabel("k")
        ax.set_ylabel("row (M)" if op == "A" else "n (N), K-major in SMEM")
        ax.tick_params(length=0)
        what = ("A 16 x 16: matrix i -> register a_i" if op == "A"
                else "B 16 (n) x 16 (k): matrices 0,1 -> b0,b1 of n 0-7; 2,3 -> b0,b1 of n 8-15")
        ax.set_title(f"ldmatrix.x4 for {what}\nlane giving each 16-byte row address", fontsize=10)
    lanes, halves = ldmatrix_dest_map()
    ax = axes[2]
    for r in range(8):
        for c in range(8):
            ax.add_patch(Rectangle((c, r), 1, 1, facecolor="#eeeeee" if (r + c // 2) % 2 else "#d9d9d9",
                                   edgecolor="white"))
            ax.text(c + 0.5, r + 0.5, f"T{lanes[r, c]}\n.{halves[r, c]}", ha="center", va="center", fontsize=8)
    ax.set_xlim(0, 8)
    ax.set_ylim(8, 0)
    ax.set_aspect("equal")
    ax.set_xticks([c + 0.5 for c in range(8)], [str(c) for c in range(8)], fontsize=8)
    ax.set_yticks([r + 0.5 for r in range(8)], [str(r) for r in range(8)], fontsize=8)
    ax.tick_params(length=0)
    ax.set_title("each 8 x 8 matrix arrives as: lane T<n>,\nhalf .0/.1 of its register", fontsize=10)
    fig.suptitle("ldmatrix.sync.aligned.m8n8.x4 (lasscc.layout.ldmatrix_*): phase i = lanes 8i..8i+7 supply the row "
                 "addresses of matrix i", fontsize=12)
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
               grid: tuple[int, int] = DEFAULT_GRID) -> list[Path]:
    """Draw the maps of the selected sections into out_dir; returns the files.  ImportError without
    matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    n = numbers(cfg, arch)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    sections = sections_for(stage)
    for sec, fname in PNGS.items():
        if sec not in sections:
            continue
        path = out / fname
        if sec == "banks":
            png_banks(n, path)
        elif sec == "fragments":
            png_fragments(path)
        elif sec == "ldmatrix":
            png_ldmatrix(path)
        elif sec == "raster":
            png_raster(n, path, grid)
        written.append(path)
    return written


# ---- CLI ---------------------------------------------------------------------------------------


def _parse_grid(text: str) -> tuple[int, int]:
    from lasscc.config import parse_shape

    return parse_shape(text, 2, "--grid")


def cmd_explain(args) -> int:
    from lasscc.cli import _load

    module = _load(args)
    grid = _parse_grid(args.grid) if args.grid else DEFAULT_GRID
    if args.stage is not None:
        sections_for(args.stage)  # reject a bad name before any work
    cfg = gemm_config(module, args.arch, args.file).config
    text = explain(module, args.arch, args.file, args.stage, grid, use_cache=not args.no_cache)
    sys.stdout.write(text)
    if args.png:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("--png: matplotlib is not installed (pip install matplotlib); printed the text only", file=sys.stderr)
            return 0
        files = write_pngs(cfg, args.png, args.arch, args.stage, grid)
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
