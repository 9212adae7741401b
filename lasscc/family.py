"""Which instruction family compiles a GEMM: wgmma (the Hopper path) or mma.sync.

One decision, `choose`, made per `lass.gemm` before lasscc-tile-threadblock (the driver's
`run_passes`; `lasscc.driver.select_family` in `lasscc.cache.cached_compile` before its key, so a
cache hit prints the same notes, and in `lasscc explain`):

- a config with an `mma` key is the user's choice: it stays (a wgmma config that cannot serve is
  the validator's located error, exit 2);
- off sm_90a (`WGMMA_ARCHS`) nothing changes: sm_80 compiles mma.sync;
- on sm_90a a config without `mma` takes wgmma with the config's own threadblock / stages / raster,
  or, where it gives no threadblock, the first of `DEFAULT_TILES` x `DEFAULT_STAGES` that the
  resource rules accept (128 x 256 x 128 bytes, 4 stages: the best measured, BENCHMARKS.md).  A
  config that writes an mma.sync warp tile, instruction shape or prefetch = 1 describes an mma.sync
  kernel and keeps it.  Where wgmma cannot serve (tf32 / s8 operands stored MN-major: wgmma reads
  them K-major only; access widths narrower than 16 bytes: TMA needs 16-byte global row strides;
  a threadblock the wgmma rules reject) it stays mma.sync with a note on stderr naming the place and the reason.

Without sizes the kernel stays the plain one (no schedule, not persistent, direct epilogue): whether
the tiles fill the SMs is unknown here.  Where the sizes are known (`lasscc run` / `bench`, `explain
--m --n`, the API's shape=), lasscc.heuristics decomposes this tile and gives a data-parallel pick that
fills the SMs the persistent cooperative TMA-store kernel (`data_parallel_kernel`).

The choice is written into the config (`mma = "wgmma"` with the tiling, or `mma = "mma.sync"`), so
every dump states it and restarts the same way; a second call finds the key and does nothing.
`lasscc run` / `bench` / `tune`, which know the sizes, call `size_fallback` first: sizes whose
contiguous dimension is not a multiple of 16 bytes take mma.sync with a note naming the option.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from lasscc.config import GemmConfig
from lasscc.diagnostics import LassError
from lasscc.resources import MMA_SYNC, WGMMA, WGMMA_ARCHS, wgmma_defaults

# The default wgmma tiling where the config gives no threadblock, tried in order: (BM, BN, bytes of a
# K row), the largest tile first (BM x BN, then BK).  128 x 256 with 128-byte rows and 4 stages is the
# best measured on H100 / H200 (f16 / bf16 TN 0.93-1.01x cuBLAS, BENCHMARKS.md) and fits every type;
# the smaller ones serve where the rules reject it (e.g. a config's own `stages` that needs less
# shared memory per stage).
DEFAULT_TILES = ((128, 256, 128), (128, 256, 64), (128, 192, 128), (128, 192, 64), (128, 128, 128), (64, 256, 128), (128, 128, 64), (64, 256, 64),
                 (64, 128, 128), (64, 128, 64), (64, 64, 128), (64, 64, 64))
DEFAULT_STAGES = (4, 3, 2)  # the most stages of the tile that fit first
# cuTensorMapEncodeTiled: every global stride a multiple of 16 bytes (sm90_layout.tma_global_error);
# the same 16 bytes as a full-width copy access, so lasscc.config.alignment_error with the full
# width is the test
TMA_STRIDE_BYTES = 16


@dataclass(frozen=True)
class Choice:
    """The family of one lass.gemm: `mma` ("wgmma" / "mma.sync"), the config to write (None: the
    input's stands as it is), and the note to print (None: nothing to say)."""

    mma: str
    config: GemmConfig | None = None
    note: str | None = None
    why_not_wgmma: str | None = None  # the first wgmma rule broken, when sm_90a falls back to mma.sync


def _wgmma_reason(op, cfg: GemmConfig, arch: str) -> str | None:
    """Why the wgmma config `cfg` cannot compile `op` on `arch` (the validator's own words), or None."""
    from lasscc.dialects.lass import KernelFacts

    try:
        KernelFacts.of_gemm(op, cfg).validate(arch, "config")
    except LassError as e:
        # the validator's words, less its prefixes and its advice (the note gives its own)
        return str(e).removeprefix("config: ").removeprefix('mma = "wgmma": ').split("; use mma = ")[0]
    return None


def _given(op) -> dict:
    return dict(op.config.data) if op.config is not None else {}


def choose(op, arch: str) -> Choice:
    """The family of lass.gemm `op` on `arch` (the module docstring's rules)."""
    from lasscc.config import access_elems, default_config
    from lasscc.dialects.lass import config_from_attr

    given = _given(op)
    if arch not in WGMMA_ARCHS or "mma" in given:
        return Choice(given.get("mma").data if "mma" in given else MMA_SYNC)
    ab = str(op.a.type.get_element_type())
    try:
        base = config_from_attr(op.config, default_config(ab))
    except ValueError:
        return Choice(MMA_SYNC)  # lasscc-tile-threadblock names the malformed key
    if base.prefetch or (("warp" in given or "instruction" in given) and not _wgmma_shaped(base, "warp" in given)):
        return Choice(MMA_SYNC)  # an mma.sync tiling, written out
    full = access_elems(ab)
    if base.align is not None and tuple(base.align) != (full, full):
        return Choice(MMA_SYNC, None, _note(op, f"align = {list(base.align)} (copy accesses narrower than 16 bytes) "
                                               "cannot be TMA loads: TMA needs 16-byte global row strides"))
    base = GemmConfig(**{**base.__dict__, "align": None})  # full-width accesses: the TMA's own
    first = None
    keep_instruction = "instruction" in given and "threadblock" in given  # its chains are of that tile
    for cfg in wgmma_configs(base, ab, "threadblock" in given, "stages" in given, keep_instruction):
        why = _wgmma_reason(op, cfg, arch)
        if why is None:
            return Choice(WGMMA, cfg)
        first = first or why
    return Choice(MMA_SYNC, None, _note(op, first), first)


def wgmma_configs(base: GemmConfig, ab: str, keep_tile: bool = False, keep_stages: bool = False,
                  keep_instruction: bool = False):
    """The wgmma configs a GEMM of A/B elements `ab` may take, in the order `choose` tries them:
    `base` with its threadblock (`keep_tile`) or each of DEFAULT_TILES, and its stages
    (`keep_stages`) or each of DEFAULT_STAGES (also lasscc.heuristics.wgmma_base's order);
    `keep_instruction` (with `keep_tile`): base's instruction N, a split of the tile's columns into
    accumulator chains (`_wgmma_shaped` checked it), instead of one chain."""
    from lasscc.layout import MMA_INPUTS

    eb = MMA_INPUTS.get(ab, MMA_INPUTS["f16"])[0]
    tiles = [tuple(base.threadblock)] if keep_tile else [(bm, bn, row // eb) for bm, bn, row in DEFAULT_TILES]
    for tb in tiles:
        for s in ((base.stages,) if keep_stages else DEFAULT_STAGES):
            w = wgmma_defaults(tb, base.instruction[2])
            if keep_instruction and keep_tile:
                w = {**w, "instruction": tuple(base.instruction)}
            yield GemmConfig(**{**base.__dict__, "threadblock": tb, "stages": s, "mma": WGMMA, **w})


def _wgmma_shaped(cfg: GemmConfig, warp_written: bool = True) -> bool:
    """`cfg`'s warp (when the input wrote it; else the wgmma one is taken) and instruction are the
    wgmma ones of its threadblock (a config may write them)."""
    from lasscc.resources import wgmma_chain_split

    w = wgmma_defaults(cfg.threadblock, cfg.instruction[2])
    (im, bn, ik), (m, n, k) = w["instruction"], cfg.instruction  # N may split BN into chains (wgmma_chains)
    return (not warp_written or tuple(cfg.warp) == w["warp"]) and (m, k) == (im, ik) and wgmma_chain_split(bn, n)


def _note(op, reason: str) -> str:
    from lasscc.source import op_location

    return (f"lasscc: note: {op_location(op)}: sm_90a compiles this lass.gemm with mma.sync, not wgmma: {reason} "
            f"(write mma = \"mma.sync\" in its config to choose it and silence this note)")


def _write(op, mma: str, cfg: GemmConfig | None) -> None:
    """Write the choice into the op's config: the whole wgmma config, or mma = "mma.sync" beside the input's keys."""
    from xdsl.dialects.builtin import DictionaryAttr, StringAttr

    from lasscc.dialects.lass import config_to_attr

    if cfg is not None:
        op.attributes["config"] = config_to_attr(cfg)
        return
    entries = _given(op)
    entries["mma"] = StringAttr(mma)
    if mma == MMA_SYNC:  # warp-specialized roles, the persistent loop and the TMA store are the TMA pipeline's
        entries.pop("schedule", None)
        entries.pop("persistent", None)
        entries.pop("epilogue", None)
    op.attributes["config"] = DictionaryAttr(entries)


def select(module, arch: str, filename: str = "<input>") -> list[str]:
    """Apply `choose` to every lass.gemm of `module` (a linalg.matmul has none yet:
    lasscc.driver.select_family imports it first); print and return the notes.  Off sm_90a a no-op."""
    if arch not in WGMMA_ARCHS:
        return []
    from lasscc.dialects.lass import GemmOp

    notes = []
    for g in [o for o in module.walk() if isinstance(o, GemmOp)]:
        if "mma" in _given(g):
            continue
        c = choose(g, arch)
        _write(g, c.mma, c.config)
        if c.note:
            print(c.note, file=sys.stderr)
            notes.append(c.note)
    return notes


def size_fallback(module, arch: str, sizes, filename: str = "<input>", option: str = "run") -> list[str]:
    """For `lasscc run` / `bench` / `tune` (which know the sizes): a lass.gemm whose sizes break TMA's
    16-byte global row stride (its operands' contiguous dimension, lasscc.config.alignment_error with
    the full 16-byte width) takes mma.sync when it gives no `mma` (a note naming the option), and is a
    located error with an explicit mma = "wgmma" (exit 2).  Returns the notes printed.  (A
    linalg.matmul is imported before: lasscc.driver.import_gemms.)"""
    from lasscc.config import _contiguous_dims, alignment_error
    from lasscc.layout import MMA_INPUTS
    from lasscc.dialects._common import memref_layout
    from lasscc.dialects.lass import GemmOp
    from lasscc.source import op_location

    notes = []
    for g in [o for o in module.walk() if isinstance(o, GemmOp)]:
        given = _given(g)
        mma = given["mma"].data if "mma" in given and hasattr(given["mma"], "data") else None
        if mma == MMA_SYNC or arch not in WGMMA_ARCHS:  # (an explicit wgmma off sm_90a: the validator says so)
            continue
        ab = str(g.a.type.get_element_type())
        layouts = memref_layout(g.a.type), memref_layout(g.b.type)
        for m, n, k in sizes:
            bad = alignment_error(m, n, k, *layouts, ab_dtype=ab)
            if bad is None:
                continue
            dim = bad[0]
            val, eb = dict(M=m, N=n, K=k)[dim], MMA_INPUTS.get(ab, MMA_INPUTS["f16"])[0]
            ops = " and ".join(op for op, d in zip("AB", _contiguous_dims(*layouts)) if d == dim)
            place = "option --sizes" if option == "sizes" else f"option --{dim.lower()}"
            why = (f"{dim} = {val} makes the rows of {ops} (contiguous along {dim}) {val} x {eb} = {val * eb} bytes apart, "
                   f"and TMA needs a global row stride that is a multiple of {TMA_STRIDE_BYTES} bytes")
            if mma == WGMMA:
                raise LassError(f"{place}: {why}; {op_location(g)}: config mma = \"wgmma\" cannot load these sizes "
                                "(leave mma out to let sm_90a take the mma.sync path)")
            _write(g, MMA_SYNC, None)
            notes.append(f"lasscc: note: {place}: sm_90a compiles this GEMM with mma.sync, not wgmma: {why}")
            print(notes[-1], file=sys.stderr)
            break
    return notes


def default_arch() -> str:
    """The target of a compile that names none: the GPU's own (lasscc.runtime.cuda.device_arch:
    sm_90a on compute capability 9.x) when one is usable, else sm_80."""
    from lasscc.runtime import cuda

    return cuda.device_arch() if cuda.driver_status() is None else "sm_80"
