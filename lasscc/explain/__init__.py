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
ldmatrix_x4.png, raster.png.  The tile counts come from `lasscc.config.GemmConfig`, the resources
(registers, shared memory, copy accesses, prefetch, staged epilogue) from the rules of
`lasscc.resources` that the validator and the passes use, and every map from the functions of
`lasscc.layout` that the passes emit.

The package, by concept: `facts` (what the GEMM is), `numbers` (the counts), `maps` (lane, bank
and launch-order maps), `text` (the sections), `report` (the whole explanation), `png` (the
pictures), `cli` (the `lasscc explain` command).  Its API is imported here.
"""

from lasscc.explain.cli import add_parser, cmd_explain
from lasscc.explain.facts import Facts, gemm_config, gemm_facts, kernel_config
from lasscc.explain.maps import (
    bank_grid,
    bank_view,
    copy_wavefronts,
    ldmatrix_dest_map,
    ldmatrix_phase,
    ldmatrix_src_map,
    load_src_map,
    mma_lane_map,
    phase_wavefronts,
    raster_order,
    warp_grid,
)
from lasscc.explain.numbers import Numbers, numbers
from lasscc.explain.png import PNGS, write_pngs
from lasscc.explain.report import DEFAULT_GRID, SECTIONS, STAGE_SECTIONS, explain, sections_for

__all__ = [
    "DEFAULT_GRID", "PNGS", "SECTIONS", "STAGE_SECTIONS", "Facts", "Numbers", "add_parser", "bank_grid", "bank_view",
    "cmd_explain", "copy_wavefronts", "explain", "gemm_config", "gemm_facts", "kernel_config", "ldmatrix_dest_map",
    "ldmatrix_phase", "ldmatrix_src_map", "load_src_map", "mma_lane_map", "numbers", "phase_wavefronts",
    "raster_order", "sections_for", "warp_grid", "write_pngs",
]
