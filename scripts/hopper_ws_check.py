"""GPU check and benchmark of the warp-specialized Hopper schedules beside today's (issue 15).

For each case (A/B type, D type, threadblock / stages, `schedule`: default, cooperative, pingpong;
`persistent`): compile (ptxas -v printed, a
spill flagged), one launch into a NaN-poisoned D on random normal data checked against a float64
reference (and with beta != 0), at 4096^3 and odd shapes; then CUDA-event timings (median after
warm-up) at 4096^3 and 8192^3 beside torch.matmul (cuBLAS) in the same process.  A short table last.

    python3 scripts/hopper_ws_check.py [--quick] [--no-bench] [--iters 50] [--list] [--dry-run] [--only pingpong]

--dry-run compiles the chosen cases without a GPU (ptxas -v, spills flagged).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hopper_check import add_options, run_cases  # noqa: E402 -- the check / bench loop and its options

# (A/B type, D type, threadblock, stages, extra config text)
CASES = [
    ("f16", "f32", (128, 256, 64), 4, ""),
    ("f16", "f32", (128, 256, 64), 4, 'schedule = "cooperative"'),
    ("f16", "f16", (128, 256, 64), 4, ""),
    ("f16", "f16", (128, 256, 64), 4, 'schedule = "cooperative"'),
    ("bf16", "f32", (128, 256, 64), 4, ""),
    ("bf16", "f32", (128, 256, 64), 4, 'schedule = "cooperative"'),
    ("f16", "f32", (128, 256, 64), 4, 'schedule = "cooperative", persistent = 1'),
    ("bf16", "f32", (128, 256, 64), 4, 'schedule = "cooperative", persistent = 1'),
    ("f16", "f32", (128, 128, 64), 6, 'schedule = "cooperative", persistent = 1'),
    # pingpong (CUTLASS's KernelTmaWarpSpecializedPingpong): two consumers on alternate 64-row tiles
    ("f16", "f32", (64, 256, 64), 4, 'schedule = "pingpong"'),
    ("f16", "f32", (64, 256, 64), 4, 'schedule = "pingpong", persistent = 1'),
    ("f16", "f32", (64, 256, 64), 5, 'schedule = "pingpong", persistent = 1'),
    ("bf16", "f32", (64, 256, 64), 4, 'schedule = "pingpong"'),
    ("bf16", "f32", (64, 256, 64), 4, 'schedule = "pingpong", persistent = 1'),
    ("f16", "f32", (64, 128, 64), 6, 'schedule = "pingpong", persistent = 1'),
    # pingpong with 128-row consumer tiles (CUTLASS's 128x128x64 pingpong: two wgmma m64 per K step,
    # 128 accumulators per thread) and the pingpong TMA-store epilogue (16-bit D: the direct one stages
    # through the ring, rejected)
    ("f16", "f32", (128, 128, 64), 5, 'schedule = "pingpong"'),
    ("f16", "f32", (128, 128, 64), 5, 'schedule = "pingpong", persistent = 1'),
    ("f16", "f32", (128, 128, 64), 6, 'schedule = "pingpong", persistent = 1'),
    ("bf16", "f32", (128, 128, 64), 5, 'schedule = "pingpong", persistent = 1'),
    ("f16", "f32", (128, 128, 64), 5, 'schedule = "pingpong", persistent = 1, epilogue = "tma"'),
    ("f16", "f16", (128, 128, 64), 5, 'schedule = "pingpong", epilogue = "tma"'),
    ("f16", "f16", (128, 128, 64), 5, 'schedule = "pingpong", persistent = 1, epilogue = "tma"'),
    ("bf16", "bf16", (128, 128, 64), 5, 'schedule = "pingpong", persistent = 1, epilogue = "tma"'),
    ("f16", "f16", (64, 256, 64), 4, 'schedule = "pingpong", persistent = 1, epilogue = "tma"'),
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_options(ap, "the default, cooperative, persistent and pingpong f16 -> f32 cases only")
    ap.add_argument("--only", help="the cases whose name contains this text (e.g. pingpong, '128x128x64/5 pingpong')")
    ap.add_argument("--dry-run", action="store_true",
                    help="no GPU: compile each case and print ptxas -v's line (exit 1 on a spill or a failure)")
    args = ap.parse_args()
    cases = [CASES[0], CASES[1], CASES[6], CASES[9], CASES[10]] if args.quick else CASES
    named = []
    for ab, d, tb, stages, extra in cases:
        kind = ("pingpong" if "pingpong" in extra else "cooperative" if extra else "default") + (
            " persistent" if "persistent" in extra else "") + (" tma" if "tma" in extra else "")
        named.append((f"{ab}->{d} {'x'.join(map(str, tb))}/{stages} {kind}", ab, d, tb, stages, extra))
    if args.only:
        named = [c for c in named if args.only in c[0]]
    if args.list:
        for c in named:
            print(c[0], c[-1])
        return 0
    if args.dry_run:
        return dry_run(named)
    return run_cases(named, args)


def dry_run(named) -> int:
    """Compile each case on this machine (no GPU): ptxas -v's line, a spill or a compile error flagged."""
    from hopper_check import compile_case

    from lasscc.diagnostics import LassError

    bad = 0
    for name, ab, d, tb, stages, extra in named:
        try:
            _, spec, info = compile_case(ab, tb, stages, d, extra)
        except LassError as e:
            print(f"{name}: REJECTED {e}")
            bad += 1
            continue
        spill = info is not None and (info.spill_stores or info.spill_loads)
        bad += bool(spill) or info is None
        print(f"{name}: {spec.threads} threads, {spec.smem_bytes} B shared; ptxas: "
              f"{info.line if info else 'not found'}{'  SPILL' if spill else ''}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
