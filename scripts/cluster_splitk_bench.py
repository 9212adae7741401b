"""Cluster split-K (split_k_mode = "cluster", lasscc.cluster_splitk) on the GPU beside cuBLAS:
each tile x split is checked against float64 on odd shapes (M, N and K not multiples of the
tile; beta != 0; uneven K partitions), then timed on issue 17's shapes (hopper_check's loop).

    python3 scripts/cluster_splitk_bench.py [--iters 50] [--list]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import hopper_check  # noqa: E402
from hopper_check import add_options, run_cases  # noqa: E402

# (M, N, K, beta): K a multiple of 8 (the TMA's 16-byte global stride); 12344 = 192.9 k-tiles of 64
CHECK_SHAPES = [(33, 4097, 12344, 0.5), (129, 257, 72, 0.0), (1000, 1000, 1000, 1.0)]
BENCH_SHAPES = [(128, 4096, 4096), (16, 4096, 4096), (1024, 1024, 16384), (1024, 1024, 1024)]
# (BM, BN, stages, split_k)
TILES = [(128, 128, 4, 4), (128, 128, 4, 2), (128, 64, 4, 2), (128, 64, 4, 4), (64, 64, 4, 2), (64, 64, 4, 4),
         (128, 256, 4, 4), (128, 256, 4, 2), (64, 128, 4, 4), (128, 128, 6, 4), (128, 128, 4, 8)]


def cases():
    return [(f"{bm}x{bn}/{st} cluster split {s}", "f16", "f32", (bm, bn, 64), st,
             f'split_k = {s}, split_k_mode = "cluster"') for bm, bn, st, s in TILES]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_options(ap, "the first two tiles only")
    args = ap.parse_args()
    hopper_check.CHECK_SHAPES, hopper_check.BENCH_SHAPES = CHECK_SHAPES, BENCH_SHAPES
    chosen = cases()[:2] if args.quick else cases()
    if args.list:
        for c in chosen:
            print(c)
        return 0
    return run_cases(chosen, args)


if __name__ == "__main__":
    sys.exit(main())
