"""Issue 15's candidates for >= 1.05x cuBLAS on one GPU call: the default beside the cooperative
persistent kernel, with 2x1 / 1x2 clusters and the TMA-store epilogue, f16 and bf16 in, f32 and
16-bit D (hopper_check's check + bench loop: odd shapes against float64, then 4096^3 / 8192^3
beside cuBLAS in the same process).

    python3 scripts/hopper_best.py [--quick] [--no-bench] [--iters 50] [--list]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hopper_check import add_options, run_cases  # noqa: E402 -- the check / bench loop and its options

TILE, STAGES = (128, 256, 64), 4
PERS = 'schedule = "cooperative", persistent = 1'
TMA = 'epilogue = "tma"'
# (A/B type, D type, extra config text)
CASES = [("f16", "f32", ""), ("f16", "f32", PERS), ("f16", "f32", f"{PERS}, cluster = [2, 1]"),
         ("f16", "f16", f"{PERS}, {TMA}"), ("f16", "f16", f"{PERS}, {TMA}, cluster = [2, 1]"),
         ("f16", "f16", f"{PERS}, {TMA}, cluster = [1, 2]"),
         ("bf16", "f32", ""), ("bf16", "f32", f"{PERS}, cluster = [2, 1]"),
         ("bf16", "bf16", f"{PERS}, {TMA}"), ("bf16", "bf16", f"{PERS}, {TMA}, cluster = [2, 1]")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_options(ap, "f16 only")
    args = ap.parse_args()
    cases = [c for c in CASES if c[0] == "f16"] if args.quick else CASES
    if args.list:
        for c in cases:
            print(c)
        return 0
    return run_cases([(f"{ab}->{d} {extra or 'default'}", ab, d, TILE, STAGES, extra) for ab, d, extra in cases], args)


if __name__ == "__main__":
    sys.exit(main())
