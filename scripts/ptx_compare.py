"""Compare two folders of PTX files (e.g. the examples compiled before and after a change):
per file, whether the text is identical, else whether the instruction mix is (the same opcodes
the same number of times: a reordering / renumbering), and ptxas -v's registers and spills.

    python3 scripts/ptx_compare.py BEFORE_DIR AFTER_DIR [--arch sm_80]
"""

from __future__ import annotations

import argparse
import collections
import re
import subprocess
import sys
from pathlib import Path

_INSN = re.compile(r"^\s*(@%p\d+\s+)?([a-z][\w.:]*)\s", re.M)


def opcode_mix(ptx: str) -> collections.Counter:
    return collections.Counter(m.group(2) for m in _INSN.finditer(ptx))


def ptxas_line(path: Path, arch: str) -> str:
    out = subprocess.run(["ptxas", f"-arch={arch}", "-v", str(path), "-o", "/dev/null"],
                         capture_output=True, text=True).stderr
    regs = re.search(r"Used (\d+) registers", out)
    spill = re.search(r"(\d+) bytes spill stores", out)
    return f"{regs.group(1) if regs else '?'} regs, {spill.group(1) if spill else '?'} B spill"


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("before", type=Path)
    p.add_argument("after", type=Path)
    p.add_argument("--arch", default="sm_80")
    a = p.parse_args(argv)
    differ = 0
    for b in sorted(a.before.glob("*.ptx")):
        f = a.after / b.name
        if not f.exists():
            print(f"{b.name:24} missing after")
            differ += 1
            continue
        tb, tf = b.read_text(), f.read_text()
        if tb == tf:
            verdict = "identical"
        elif opcode_mix(tb) == opcode_mix(tf):
            verdict = "same instruction mix (reordered / renumbered)"
        else:
            d = opcode_mix(tf)
            d.subtract(opcode_mix(tb))
            verdict = "mix differs: " + ", ".join(f"{k} {v:+d}" for k, v in sorted(d.items()) if v)
            differ += 1
        print(f"{b.name:24} {verdict:48} {ptxas_line(b, a.arch)} -> {ptxas_line(f, a.arch)}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
