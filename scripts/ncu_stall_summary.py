"""Summarize one `scripts/ncu_source.sh` SASS CSV (Nsight Compute's source page, per-SASS warp-stall
sampling): the whole kernel's and the TMA-store epilogue's share of the stall samples and executed
warp instructions, the stall reasons of each, and the top instructions by samples.

    python3 scripts/ncu_stall_summary.py OUT/sass_NAME.csv [...]

The epilogue is the address range from the first `DEPBAR.LE SB0` (the first subtile's wait for the
previous tile's TMA stores, passes/tma_store.py) to the last `UTMACMDFLUSH` before the kernel's
first EXIT after it (the TMA path's last store); "math" the lines from MATH_PAD before the first
executed MUFU.EX2 (a fused erf / exp) to MATH_PAD after the last (ptxas may schedule the fused
epilogue's math ahead of the first barrier, outside the first range).  Kernels without them
report the whole kernel only.
"""

from __future__ import annotations

import collections
import csv
import sys


MATH_PAD = 60  # SASS lines around the executed MUFU.EX2 counted as the fused epilogue's math


def _num(text: str) -> float:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return 0.0


def load(path: str):
    """(header, rows) of the CSV's table (the first row naming a `Source` column is the header)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    for i, r in enumerate(rows):
        if "Source" in r:
            return r, [x for x in rows[i + 1:] if len(x) == len(r)]
    raise SystemExit(f"{path}: no header row with a 'Source' column (first rows: {rows[:3]})")


def col(header, *needles):
    for i, h in enumerate(header):
        if all(n.lower() in h.lower() for n in needles):
            return i
    return None


def summarize(path: str) -> None:
    header, rows = load(path)
    src = header.index("Source")
    samples = col(header, "Warp Stall Sampling (All")
    execd = col(header, "Instructions Executed")
    if samples is None or execd is None:
        print(f"{path}: columns {header}")
        return
    reasons = [i for i, h in enumerate(header) if h.lower().startswith("stall_") or "(stall" in h.lower()
               or h.startswith("smsp__pcsamp_warps_issue_stalled")]
    lo = next((i for i, r in enumerate(rows) if "DEPBAR.LE SB0" in r[src]), None)
    hi = None
    if lo is not None:
        ex = next((i for i in range(lo, len(rows)) if "EXIT" in rows[i][src]), len(rows))
        hi = max((i for i in range(lo, ex) if "UTMACMDFLUSH" in rows[i][src]), default=None)
    parts = {"kernel": rows}
    if lo is not None and hi is not None:
        parts["epilogue"] = rows[lo:hi + 1]
    ex2 = [i for i, r in enumerate(rows) if "MUFU.EX2" in r[src] and _num(r[execd]) > 0]
    if ex2:
        parts["math"] = rows[max(ex2[0] - MATH_PAD, 0):ex2[-1] + MATH_PAD]
    tot_s = sum(_num(r[samples]) for r in rows) or 1.0
    tot_e = sum(_num(r[execd]) for r in rows) or 1.0
    print(f"== {path}: {len(rows)} SASS lines, {tot_e:.0f} warp instructions, {tot_s:.0f} stall samples")
    for name, part in parts.items():
        s = sum(_num(r[samples]) for r in part)
        e = sum(_num(r[execd]) for r in part)
        print(f"  {name}: {len(part)} lines, {e:.0f} warp instructions ({100 * e / tot_e:.1f}%), "
              f"{s:.0f} samples ({100 * s / tot_s:.1f}%)")
        by = collections.Counter()
        for i in reasons:
            by[header[i]] = sum(_num(r[i]) for r in part)
        for h, v in by.most_common(8):
            if v:
                print(f"      {100 * v / max(s, 1):5.1f}%  {h}")
        ops = collections.Counter()
        for r in part:
            toks = [t for t in r[src].split() if not t.startswith("@")]
            if toks:
                ops[toks[0].split(".")[0]] += _num(r[samples])
        print("    samples by opcode: " + ", ".join(f"{k} {100 * v / max(s, 1):.1f}%" for k, v in ops.most_common(10)))
    print("  top instructions by samples:")
    for r in sorted(rows, key=lambda r: -_num(r[samples]))[:15]:
        where = "epi" if "epilogue" in parts and r in parts["epilogue"] else "   "
        print(f"    {100 * _num(r[samples]) / tot_s:5.1f}%  {where} exec {_num(r[execd]):9.0f}  {r[src].strip()[:70]}")


if __name__ == "__main__":
    for p in sys.argv[1:]:
        summarize(p)
