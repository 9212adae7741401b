"""The kernels scripts/sanitize_hopper.sh runs under compute-sanitizer: three wgmma configs (issue 14).

    python3 scripts/sanitize_hopper.py names                 # the config names, one a line
    python3 scripts/sanitize_hopper.py compile DIR           # compile each to DIR/NAME.ptx + NAME.spec
    python3 scripts/sanitize_hopper.py run DIR NAME          # one checked launch of NAME (GPU)
    python3 scripts/sanitize_hopper.py --list                # the configs and shapes (no GPU)

Compiling is pure CPU, so it runs once outside the sanitizer; `run` loads the PTX and the pickled
KernelSpec and makes one launch into a NaN-poisoned D (or onto C for beta != 0) through
lasscc.runtime.gemm_runner.run_gemm (no cuBLAS, no timing), checked against float64; exit 1 when
the check fails.  The shapes are odd (partial tiles in M, N and K: TMA zero-fill), fit to the
TMA's 16-byte global-stride rule, and small, so racecheck stays quick.
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# name -> (A/B type, D type, A/B/D layouts, threadblock, stages, batch, (M, N, K), beta)
CONFIGS = {
    "f16-TN-128x256x64s4": ("f16", "f32", ("row", "col", "row"), (128, 256, 64), 4, 1, (300, 520, 264), 0.0),
    "bf16-NT-colD-128x128x64s3": ("bf16", "f32", ("col", "row", "col"), (128, 128, 64), 3, 1, (264, 136, 200), 0.5),
    "tf32-TN-batched-64x128x32s3": ("f32", "f32", ("row", "col", "row"), (64, 128, 32), 3, 3, (130, 200, 100), 0.0),
    # issue 15's schedules (SCHEDULE_CONFIG's keys added to the config), at a size with more tiles than an
    # H100's 132 SMs, so the persistent CTAs walk several tiles (partial ones at the edges)
    "f16-fD-coop-pers-tma-cl2x1": ("f16", "f16", ("row", "col", "row"), (128, 256, 64), 4, 1, (2100, 2100, 264), 0.0),
    "f16-pingpong-pers-64x256x64s4": ("f16", "f32", ("row", "col", "row"), (64, 256, 64), 4, 1, (2100, 2100, 264), 0.0),
    # 128-row consumer tiles, the TMA-store epilogue's staging shared by the two consumers
    "f16-fD-pingpong-pers-tma-128x128x64s5": ("f16", "f16", ("row", "col", "row"), (128, 128, 64), 5, 1,
                                              (2100, 2100, 264), 0.0),
    # session 11: cluster split-K (DSMEM reads of the peers' partials, two cluster barriers), uneven K partitions
    "f16-cluster-split4-128x64x64s4": ("f16", "f32", ("row", "col", "row"), (128, 64, 64), 4, 1, (300, 520, 1032), 0.5),
}
SCHEDULE_CONFIG = {  # name -> more config keys
    "f16-cluster-split4-128x64x64s4": ', split_k = 4, split_k_mode = "cluster"',
    "f16-fD-coop-pers-tma-cl2x1": ', schedule = "cooperative", persistent = 1, epilogue = "tma", cluster = [2, 1]',
    "f16-pingpong-pers-64x256x64s4": ', schedule = "pingpong", persistent = 1',
    "f16-fD-pingpong-pers-tma-128x128x64s5": ', schedule = "pingpong", persistent = 1, epilogue = "tma"',
}


def mlir(name: str) -> str:
    ab, d, layouts, tb, stages, batch, _, _ = CONFIGS[name]
    lead = "?x" if batch > 1 else ""

    def mr(t, lay):
        col = (", strided<[?, 1, ?]>" if batch > 1 else ", strided<[1, ?]>") if lay == "col" else ""
        return f"memref<{lead}?x?x{t}{col}>"

    ta, tb_, td = mr(ab, layouts[0]), mr(ab, layouts[1]), mr(d, layouts[2])
    return (f"func.func @gemm(%a: {ta}, %b: {tb_}, %d: {td}) {{\n"
            f"  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32, config = {{mma = \"wgmma\", "
            f"threadblock = [{tb[0]}, {tb[1]}, {tb[2]}], stages = {stages}{SCHEDULE_CONFIG.get(name, '')}}}}}\n"
            f"      ins(%a, %b : {ta}, {tb_}) outs(%d : {td})\n  func.return\n}}\n")


def compile_all(out: Path) -> None:
    from lasscc.driver import compile_module
    from lasscc.emit import ptxas_info
    from lasscc.source import parse_mlir

    out.mkdir(parents=True, exist_ok=True)
    for name in CONFIGS:
        res = compile_module(parse_mlir(mlir(name), name), "sm_90a", name)
        (out / f"{name}.ptx").write_text(res.ptx)
        (out / f"{name}.spec").write_bytes(pickle.dumps(res.specs[0]))
        info = ptxas_info(res.ptx, "sm_90a")
        print(f"{name}: compiled; ptxas {info.line if info else '(not on PATH)'}", flush=True)


def run(out: Path, name: str) -> int:
    from lasscc.runtime.gemm_runner import format_report, run_gemm

    _, _, _, _, _, batch, (m, n, k), beta = CONFIGS[name]
    spec = pickle.loads((out / f"{name}.spec").read_bytes())
    r = run_gemm((out / f"{name}.ptx").read_text(), spec, m, n, k, alpha=1.0, beta=beta, check=True, cublas=False,
                 seed=1, batch=batch)
    print(format_report(r, m, n, k), flush=True)
    return 0 if r["ok"] else 1


def main(argv: list[str]) -> int:
    if argv[:1] == ["names"]:
        print("\n".join(CONFIGS))
        return 0
    if argv[:1] == ["--list"]:
        for name, (_, _, _, _, _, batch, shape, beta) in CONFIGS.items():
            print(f"{name:30s} M x N x K {'x'.join(map(str, shape))}  batch {batch}  beta {beta}")
        return 0
    if len(argv) == 2 and argv[0] == "compile":
        compile_all(Path(argv[1]))
        return 0
    if len(argv) == 3 and argv[0] == "run" and argv[2] in CONFIGS:
        return run(Path(argv[1]), argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
