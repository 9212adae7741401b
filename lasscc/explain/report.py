"""The whole explanation of a module's GEMM: which sections a --stage shows, and the text."""

from __future__ import annotations

from lasscc.explain.facts import gemm_config, gemm_facts, kernel_config
from lasscc.explain.numbers import numbers
from lasscc.explain.text import (
    LAYOUT_NAME,
    section_banks,
    section_fragments,
    section_hierarchy,
    section_ldmatrix,
    section_raster,
    section_resources,
    section_smem,
    section_warp,
)

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
DEFAULT_GRID = (12, 8)  # tiles (M x N) of the rasterization example
DEFAULT_K = 4096  # K of the split-K decomposition example


def _resources(module, arch: str, filename: str, use_cache: bool):
    """ptxas -v figures of the compiled module (Kernel.resources), or None without ptxas."""
    import shutil

    if shutil.which("ptxas") is None:
        return None
    from lasscc.api import Kernel
    from lasscc.cache import cached_compile

    input_text = str(module)
    res = cached_compile(module, arch, filename, use_cache=use_cache, keep_stages=False)  # ptxas reads the PTX
    return Kernel(res, arch, None, input_text, filename).resources


def explain(module, arch: str = "sm_80", filename: str = "<input>", stage: str | None = None,
            grid: tuple[int, int] = DEFAULT_GRID, use_cache: bool = True, resources: bool = True,
            k: int = DEFAULT_K, sms: int | None = None, chosen: list[str] | None = None) -> str:
    """The explanation text of the module's GEMM (a lass.gemm or a dump); LassError on a bad config.
    `chosen`: how the config was chosen (lasscc.defaults.apply_tuned's lines), printed under the head."""
    from lasscc.driver import select_family
    from lasscc.options import resolve_stage

    select_family(module, arch, filename)  # the family the compile takes (sm_90a: wgmma by default)
    info = gemm_config(module, arch, filename)
    facts = gemm_facts(module, info)
    where, ab = info.where, facts.ab
    kcfg = kernel_config(info, facts)
    kcfg.validate(arch, where=f"{where}: error: config", ab_type=ab, majors=facts.majors, acc_type=facts.acc)
    why = [_chosen_lines(chosen)] if chosen else []
    if kcfg.is_wgmma:
        return _explain_wgmma(module, kcfg, facts, arch, filename, stage, grid, use_cache, resources, k, sms, why)
    sections = SECTIONS
    if stage is not None:
        name = resolve_stage(stage, "option --stage")
        sections = STAGE_SECTIONS.get(name, SECTIONS)
    n = numbers(kcfg, arch, ab, facts.acc, facts.majors)
    la, lb = (LAYOUT_NAME.get(x, x) for x in facts.layouts)
    ld = LAYOUT_NAME.get(facts.d_layout, facts.d_layout)
    head = (f"lasscc explain {filename}  ({arch}; A {ab} {la}, B {ab} {lb}, D {facts.d_dtype} {ld}; "
            f"threadblock {n.bm}x{n.bn}x{n.bk}, warp {n.wm}x{n.wn}x{n.wk}, {n.stages} stages, raster {n.raster})")
    parts = [[head]] + why
    if "hierarchy" in sections:
        parts.append(section_hierarchy(n, facts))
    if "raster" in sections:
        parts.append(section_raster(n, grid))
        decomposition = section_decomposition(kcfg, n.elem_bytes, facts, grid, k, sms)
        if decomposition:
            parts.append(decomposition)
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


def section_decomposition(kcfg, elem_bytes: int, facts, grid, k: int, sms: int | None) -> list[str] | None:
    """The K decomposition of a split-K kernel (lasscc.splitk) or a stream-K one (lasscc.streamk: the
    persistent grid of `sms` SMs, None: an H100's) for a `grid` of tiles and this K, or None; for
    both families (mma.sync and wgmma).  The tiles are the kernel's: D^T's for a swapped kernel."""
    if kcfg.split_k > 1:
        from lasscc.splitk import decomposition_lines

        out = decomposition_lines(kcfg.split_k, kcfg.threadblock, grid, k, kcfg.raster, mode=kcfg.split_k_mode,
                                  threads=kcfg.threads)
    elif kcfg.is_streamk:
        from lasscc import streamk

        sms = sms or streamk.H100_SMS
        out = streamk.decomposition_lines(kcfg.split_k_mode, kcfg.threadblock, grid, k,
                                          streamk.config_ctas(kcfg, elem_bytes, sms), sms)
    else:
        return None
    if facts.swap:
        from lasscc.explain.facts import swap_note

        bm, bn, _ = kcfg.threadblock
        out.insert(1, f"  the tiles are D^T's ({bm} rows along the caller's N, {bn} columns along its M; --grid counts "
                      f"them): {swap_note(facts)}")
    return out


def _chosen_lines(chosen: list[str]) -> list[str]:
    """The config choice section: each of lasscc.defaults.apply_tuned's lines, its reasons one a line."""
    out = ["Config choice (as lasscc run / bench take it for these sizes):"]
    for line in chosen:
        head, _, rest = line.removeprefix("lasscc: using ").partition(" (")
        if head == "the shape-aware default":
            reasons, _, cfg = rest.rpartition("): ")
            out += [f"  {head}: {cfg}"] + [f"  - {r}" for r in reasons.split("; ")]
        else:
            out.append(f"  {line.removeprefix('lasscc: using ')}")
    return out


def _explain_wgmma(module, kcfg, facts, arch, filename, stage, grid, use_cache, resources, k, sms=None,
                   why=()) -> str:
    """The explanation of a wgmma kernel (lasscc.explain.hopper)."""
    from lasscc.explain import hopper

    sections = sections_for(stage, wgmma=True)
    n = hopper.hopper_numbers(kcfg, arch, facts.ab, facts.acc, facts.majors, facts.d_dtype)
    la, lb = (LAYOUT_NAME.get(x, x) for x in facts.layouts)
    ld = LAYOUT_NAME.get(facts.d_layout, facts.d_layout)
    head = (f"lasscc explain {filename}  ({arch}; A {facts.ab} {la}, B {facts.ab} {lb}, D {facts.d_dtype} {ld}; "
            f"mma wgmma, threadblock {n.bm}x{n.bn}x{n.bk}, {n.stages} stages, raster {n.raster})")

    def measured():
        res = _resources(module, arch, filename, use_cache) if resources else None
        return res, (None if res is not None else "not compiled" if not resources else "no ptxas")

    from lasscc.streamk import H100_SMS

    decomposition = section_decomposition(kcfg, n.elem_bytes, facts, grid, k, sms)
    parts = [[head], *why] + hopper.explain_lines(n, facts, arch, sections, grid, k, measured, sms=sms or H100_SMS,
                                                  decomposition=decomposition)
    return "\n\n".join("\n".join(p) for p in parts) + "\n"


def sections_for(stage: str | None, wgmma: bool = False) -> tuple[str, ...]:
    """The sections a --stage shows (those of a wgmma kernel with `wgmma`: lasscc.explain.hopper)."""
    from lasscc.options import resolve_stage

    if wgmma:
        from lasscc.explain import hopper

        all_, per = hopper.SECTIONS, hopper.STAGE_SECTIONS
    else:
        all_, per = SECTIONS, STAGE_SECTIONS
    if stage is None:
        return all_
    return per.get(resolve_stage(stage, "option --stage"), all_)
