"""The lane, bank and launch-order maps the explanation prints and draws, each computed from the
functions of lasscc.layout that the passes emit (tile offsets and swizzles, ldmatrix / mma.sync lane
maps, tile copies, rasterization)."""

from __future__ import annotations

from dataclasses import dataclass

from lasscc.explain.numbers import Numbers
from lasscc.layout import K_MAJOR, MN_MAJOR
from lasscc.resources import REG_BYTES

BANK_ROWS = 8  # rows of the text bank table


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
    from lasscc.resources import fragment_regs

    eb = elem_bytes(ab)
    mm, mn, mk = mma_shape(ab)
    per = REG_BYTES // eb
    if operand == "A":
        shape, regs, halves = (mm, mk), fragment_regs(ab)[0], per

        def coord(lane, reg, half):
            return mma_a_coord(lane, reg, half, eb)
    elif operand == "B":
        shape, regs, halves = (mk, mn), fragment_regs(ab)[1], per

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
