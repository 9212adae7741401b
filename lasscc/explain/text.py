"""The text sections of `lasscc explain`, one function per section (each a list of lines)."""

from __future__ import annotations

from lasscc.explain.facts import Facts, type_bytes
from lasscc.explain.maps import (
    TF32_MN_LOAD_BYTES,
    bank_view,
    copy_wavefronts,
    ldmatrix_dest_map,
    ldmatrix_src_map,
    load_src_map,
    mma_lane_map,
    phase_wavefronts,
    raster_order,
    tf32_mn_wavefronts,
    warp_grid,
)
from lasscc.explain.numbers import Numbers, _default_cfg, numbers
from lasscc.layout import K_MAJOR, MN_MAJOR


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
        from lasscc.explain.facts import swap_note

        out.append(f"  {swap_note(facts)}: its A (BM rows) is the caller's B, its B the caller's A, and its D^T tiles "
                   "are BM along the caller's N; everything below is in the kernel's order")
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
    from lasscc.layout import ACCESS_BYTES, mn_atom_elems, mn_swizzle_params
    from lasscc.resources import COPY_UNROLL_MAX, smem_needs_opt_in

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
                  if smem_needs_opt_in(n.smem_total) else "within the 48 KB default (no opt-in)"))
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
    from lasscc.resources import REGISTER_BUDGET, REGISTER_LIMIT

    sets = f"{n.frag_sets} fragment set{'s' if n.frag_sets != 1 else ''}"
    out.append(f"Register estimate: {n.reg_parts} = {n.reg_estimate} ({sets}: {why}), plus indices, pointers and "
               f"loop state: the config check (lasscc.resources.register_estimate) allows {REGISTER_BUDGET} of the "
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
    from lasscc.resources import STAGED_EPILOGUE_BYTES, stage_plan

    ob = type_bytes(facts.d_dtype)
    math = "alpha * acc (+ beta * C) in f32"
    if n.acc != "f32":
        math += f" ({n.acc_ptx} accumulators converted to f32 first)"
    out = [f"Epilogue (lasscc-warp-mma): D {facts.d_dtype}, {ob} B per element; {math}"]
    from lasscc.epilogue_info import epilogue_summary

    out += epilogue_summary(facts.epilogue_ops, facts.epilogue, tuple(cfg.threadblock[:2]), ob, facts.swap,
                            facts.batched, cfg.split_k_mode if cfg.has_workspace else None)
    if facts.d_dtype == "i8":
        out.append("  i8 D: rounded to nearest even and saturated to [-128, 127] (cvt.rni.s32.f32, then clamped)")
    if facts.d_dtype == "i32":
        out.append("  i32 D: rounded to nearest even and saturated (cvt.rni.s32.f32); with alpha == 1 and beta == 0 "
                   "the exact s32 accumulator is stored")
    if facts.swap and facts.d_layout == "row":  # config swap_ab = 1: the kernel's D^T is column-major
        out.append("  D^T is stored column-major into the row-major D (lasscc.layout.matrix_offset: element (r, c) of "
                   "the kernel's D at c * M + r): each element its own access, C read the same way; no pairs, no "
                   "staged epilogue")
        return out
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
                       "(lasscc.resources.STAGED_EPILOGUE_BYTES)")
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


# the launch-order map prints at most this many tile rows x columns (the grid of --m x --n can be hundreds)
RASTER_MAP_MAX = (32, 32)


def section_raster(n: Numbers, grid: tuple[int, int]) -> list[str]:
    tm, tn = grid
    order = raster_order(tm, tn, n.raster)
    out = [f"Threadblock rasterization (lasscc.layout.raster_tile, raster = {n.raster}): launch order on a "
           f"{tm} x {tn} grid of tiles",
           f"  grid = ceil(M/{n.bm}) * ceil(N/{n.bn}) CTAs (1-d); groups of {n.raster} tile rows are walked "
           "column by column, so CTAs running together share A row panels and B column panels in L2"]
    rows, cols = min(tm, RASTER_MAP_MAX[0]), min(tn, RASTER_MAP_MAX[1])
    if (rows, cols) != (tm, tn):
        out.append(f"  (its first {rows} tile rows and {cols} tile columns)")
    width = max(3, len(str(tm * tn - 1)) + 1)
    lines = _grid_lines(order[:rows, :cols], "m", "n", cell=width)
    rule = "  " + " " * (len(lines[0]) - 2 - width * cols) + "-" * (width * cols)
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
