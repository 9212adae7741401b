"""Shared by the Hopper schedule tests (test_warp_specialize, test_pingpong, test_tma_store,
test_cluster_persistent): a wgmma `lass.gemm` text and the module after each pass of the Hopper
pipeline up to the physical level (the driver's order), cached per text."""

from __future__ import annotations

import functools

from lasscc.driver import make_pass, run_pass
from lasscc.source import parse_mlir

WGMMA_PASSES = ("lasscc-tile-threadblock", "lasscc-pipeline", "lasscc-warp-mma", "lasscc-warpgroup-mma",
                "lasscc-warp-specialize", "lasscc-hopper-smem")


def wgmma_gemm(ab: str = "f16", d: str = "f32", tb=(128, 64, 64), stages: int = 3, extra: str = "",
               beta: float = 0.0, ld: str = "row", batched: bool = False) -> str:
    """A TN `lass.gemm` (A row-major, B column-major; batched: 3-d row-major operands) with D of type
    `d` in layout `ld`, alpha 1.5, `beta`, config mma = "wgmma" + threadblock + stages + `extra`
    (", key = value, ...")."""
    def mr(t, lay):
        if batched:
            return f"memref<?x?x?x{t}>"
        return f"memref<?x?x{t}>" if lay == "row" else f"memref<?x?x{t}, strided<[1, ?]>>"

    ta, tb_, td = mr(ab, "row"), mr(ab, "col"), mr(d, ld)
    return (f"func.func @gemm(%a: {ta}, %b: {tb_}, %d: {td}) {{\n"
            f"  lass.gemm {{alpha = 1.5 : f32, beta = {beta} : f32, config = {{mma = \"wgmma\", "
            f"threadblock = [{tb[0]}, {tb[1]}, {tb[2]}], stages = {stages}{extra}}}}}\n"
            f"      ins(%a, %b : {ta}, {tb_}) outs(%d : {td})\n  func.return\n}}\n")


@functools.lru_cache(maxsize=None)
def passes_after(text: str) -> dict:
    """{pass name: the module after it} for WGMMA_PASSES on sm_90a (clones: callers clone again to edit)."""
    mod = parse_mlir(text, "t.mlir")
    out = {}
    for name in WGMMA_PASSES:
        run_pass(mod, make_pass(name, "sm_90a"), "t.mlir")
        out[name] = mod.clone()
    return out
