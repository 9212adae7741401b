"""The maps of `lasscc explain --png DIR` drawn with matplotlib (optional, imported on use)."""

from __future__ import annotations

from pathlib import Path

from lasscc.explain.maps import (
    bank_view,
    first_load_wavefronts,
    ldmatrix_dest_map,
    load_src_map,
    mma_lane_map,
    raster_order,
)
from lasscc.explain.numbers import Numbers, _default_cfg, numbers
from lasscc.explain.report import DEFAULT_GRID, sections_for
from lasscc.explain.text import fragment_specs
from lasscc.layout import K_MAJOR, MN_MAJOR

PNGS = {"banks": "smem_banks.png", "fragments": "mma_fragments.png", "ldmatrix": "ldmatrix_x4.png",
        "raster": "raster.png"}


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


def png_swizzle_banks(n, path) -> None:
    """A wgmma kernel's picture (n: lasscc.explain.hopper.HopperNumbers): the swizzle atoms of A's and B's modes: each logical 16-byte chunk of the 8 lines coloured by
    the 4-bank group it lands in (sm90_layout.bank_groups)."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    from lasscc.sm90_layout import bank_groups

    modes = []
    for o in n.ops:
        if o.swizzle not in [m for m, _ in modes]:
            modes.append((o.swizzle, o.name))
        else:
            modes = [(m, w + " and " + o.name if m == o.swizzle else w) for m, w in modes]
    colors = _bank_colors()
    fig, axes = plt.subplots(1, len(modes), figsize=(5.5 * len(modes), 4.2), squeeze=False)
    for ax, (mode, who) in zip(axes[0], modes):
        g = bank_groups(mode)
        rows, chunks = g.shape
        for r in range(rows):
            for c in range(chunks):
                grp = int(g[r, c])
                ax.add_patch(Rectangle((c, r), 1, 1, facecolor=colors[4 * grp], edgecolor="white", linewidth=1))
                ax.text(c + 0.5, r + 0.5, f"{4 * grp}-{4 * grp + 3}", ha="center", va="center", fontsize=7)
        ax.set_xlim(0, chunks)
        ax.set_ylim(rows, 0)
        ax.set_xticks([c + 0.5 for c in range(chunks)], [f"c{c}" for c in range(chunks)], fontsize=8)
        ax.set_yticks([r + 0.5 for r in range(rows)], [f"line {r}" for r in range(rows)], fontsize=8)
        ax.tick_params(length=0)
        ax.set_title(f"{who}: {mode.label} swizzle\nlogical 16-byte chunk -> banks it lands in", fontsize=10)
    fig.suptitle("wgmma / TMA swizzle atom (8 lines): a core matrix reads one chunk column, conflict-free when its "
                 "8 cells hold 8 different bank groups", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.9))
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
    if cfg.is_wgmma:  # the swizzle atom's banks and the launch order (lasscc.explain.hopper)
        from lasscc.explain.hopper import hopper_numbers

        n = hopper_numbers(cfg, arch, ab, acc, majors)
    else:
        n = numbers(cfg, arch, ab, acc, majors)
    import io

    from lasscc.outfile import output_dir, write_output

    out = output_dir(out_dir, "--png")
    written = []
    sections = sections_for(stage, wgmma=cfg.is_wgmma)
    for sec, fname in PNGS.items():
        if sec not in sections:
            continue
        path, buf = out / fname, io.BytesIO()  # drawn in memory, written through lasscc.outfile
        if sec == "banks" and cfg.is_wgmma:
            png_swizzle_banks(n, buf)
        elif sec == "banks":
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
