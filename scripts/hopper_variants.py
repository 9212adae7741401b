"""Time any wgmma configs beside cuBLAS in one GPU call (hopper_check's check + bench loop):
each --case is "A/B type, D type, threadblock MxNxK, stages, extra config text".

    python3 scripts/hopper_variants.py --case 'f16,f16,128x256x64,4,schedule = "cooperative", persistent = 1, raster = 16' ...
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hopper_check import add_options, run_cases  # noqa: E402 -- the check / bench loop and its options


def parse_case(text: str):
    """'ab,d,MxNxK,stages,extra...' -> run_cases' tuple (the extra text may hold commas)."""
    ab, d, tile, stages, *extra = [p.strip() for p in text.split(",")]
    tb = tuple(int(x) for x in tile.split("x"))
    extra_text = ", ".join(extra)
    return (f"{ab}->{d} {tile}/{stages} {extra_text or 'default'}", ab, d, tb, int(stages), extra_text)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_options(ap, "unused")
    ap.add_argument("--case", action="append", required=True, type=parse_case)
    args = ap.parse_args()
    if args.list:
        for c in args.case:
            print(c)
        return 0
    return run_cases(args.case, args)


if __name__ == "__main__":
    sys.exit(main())
