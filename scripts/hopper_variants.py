"""Time any wgmma configs beside cuBLAS in one GPU call (hopper_check's check + bench loop):
each --case is "A/B type, D type, threadblock MxNxK, stages, extra config text".

    python3 scripts/hopper_variants.py [--sizes 3072,6144] --case 'f16,f16,128x256x64,4,schedule = "cooperative", persistent = 1, raster = 16' ...

--streamk adds STREAMK_CASES: stream-K (lasscc.streamk) on the persistent cooperative TMA-store kernel
beside it unsplit, and on the one-role kernel; the runner sizes the workspace from the device's SM count.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import hopper_check  # noqa: E402
from hopper_check import add_options, run_cases  # noqa: E402 -- the check / bench loop and its options


_COOP_TMA = 'f16,f16,128x256x64,4,schedule = "cooperative", persistent = 1, epilogue = "tma"'
STREAMK_CASES = [_COOP_TMA, f'{_COOP_TMA}, split_k_mode = "streamk-dp"', f'{_COOP_TMA}, split_k_mode = "streamk"',
                 'f16,f16,128x256x64,4,split_k_mode = "streamk-dp"']


def parse_case(text: str):
    """'ab,d,MxNxK,stages,extra...' -> run_cases' tuple (the extra text may hold commas)."""
    ab, d, tile, stages, *extra = [p.strip() for p in text.split(",")]
    tb = tuple(int(x) for x in tile.split("x"))
    extra_text = ", ".join(extra)
    return (f"{ab}->{d} {tile}/{stages} {extra_text or 'default'}", ab, d, tb, int(stages), extra_text)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_options(ap, "unused")
    ap.add_argument("--case", action="append", default=[], type=parse_case)
    ap.add_argument("--streamk", action="store_true", help="add STREAMK_CASES (stream-K on the Hopper kernels)")
    ap.add_argument("--sizes", help="M=N=K sizes to time, comma-separated (default hopper_check's 4096,8192)")
    ap.add_argument("--shapes", help="MxNxK shapes to time, comma-separated (instead of --sizes)")
    args = ap.parse_args()
    if args.streamk:
        args.case += [parse_case(c) for c in STREAMK_CASES]
    if not args.case:
        ap.error("expected --case or --streamk")
    if args.sizes:
        hopper_check.BENCH_SHAPES = [(s, s, s) for s in map(int, args.sizes.split(","))]
    if args.shapes:
        hopper_check.BENCH_SHAPES = [tuple(int(x) for x in s.split("x")) for s in args.shapes.split(",")]
    if args.list:
        for c in args.case:
            print(c)
        return 0
    return run_cases(args.case, args)


if __name__ == "__main__":
    sys.exit(main())
