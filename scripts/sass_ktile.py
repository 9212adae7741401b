"""SASS of a compiled sm_90a kernel's k-tile loop(s): every innermost loop that issues HGMMA, with its
instruction count and the opcodes that say whether it runs in uniform registers (R2UR: a value moved
from a per-thread register; U*: the uniform datapath).  Whole-kernel totals last.

    python3 scripts/sass_ktile.py FILE.mlir|FILE.ptx [...] [-v]   (nvdisasm or cuobjdump on PATH, or $NVDISASM)

A .mlir is compiled with `lasscc compile --arch sm_90a --emit ptx` first; ptxas -O3 -arch=sm_90a."""

from __future__ import annotations

import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

SHOWN = ("R2UR", "HGMMA", "S2UR", "IMAD", "LOP3", "SHF", "LEA", "IADD3", "VIADD", "ISETP",
         "ULOP3", "UIADD3", "USHF", "ULEA", "UMOV", "UISETP")


def sass_of(path: str, tmp: str) -> list[str]:
    ptx = path
    if path.endswith(".mlir"):
        ptx = os.path.join(tmp, "k.ptx")
        subprocess.run(["lasscc", "compile", path, "--arch", "sm_90a", "--emit", "ptx", "-o", ptx], check=True)
    cubin = os.path.join(tmp, "k.cubin")
    r = subprocess.run(["ptxas", "-arch=sm_90a", "-O3", "-v", ptx, "-o", cubin], capture_output=True, text=True,
                       check=True)
    print("  " + " ".join(l.split(":", 1)[-1].strip() for l in r.stderr.splitlines() if "registers" in l))
    nvdisasm = os.environ.get("NVDISASM") or shutil.which("nvdisasm")
    cmd = [nvdisasm, "-c", cubin] if nvdisasm else ["cuobjdump", "-sass", cubin]
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.splitlines()


def main() -> int:
    verbose = "-v" in sys.argv
    for path in [a for a in sys.argv[1:] if a != "-v"]:
        print(path)
        with tempfile.TemporaryDirectory() as tmp:
            lines = sass_of(path, tmp)
        labels, ins = {}, []
        for line in lines:
            m = re.match(r"^\s*(\.L_x_\d+):", line)
            if m:
                labels[m.group(1)] = len(ins)
                continue
            m = re.match(r"^\s+/\*[0-9a-f]+\*/\s+(.*?)\s*;", line)
            if m:
                ins.append(m.group(1))

        def op(text: str) -> str:
            return re.sub(r"^@!?U?P\w+\s+", "", text).split()[0].split(".")[0]

        loops = []
        for i, text in enumerate(ins):
            # a conditional backward branch (an out-of-line wait retry returns by an unconditional BRA)
            m = re.search(r"^@!?P\w+\s+BRA.*`\((\.L_x_\d+)\)", text)
            if m and labels.get(m.group(1), i) < i and any("HGMMA" in t for t in ins[labels[m.group(1)]:i]):
                loops.append((labels[m.group(1)], i))
        inner = [(a, b) for a, b in loops if not any(a <= c and d <= b and (c, d) != (a, b) for c, d in loops)]
        for a, b in inner:
            count = collections.Counter(op(t) for t in ins[a:b + 1])
            shown = ", ".join(f"{k} {count[k]}" for k in SHOWN if count[k])
            print(f"  k-tile loop: {b - a + 1} instructions; {shown}")
            if verbose:
                print("\n".join("    " + t for t in ins[a:b + 1]))
        total = collections.Counter(op(t) for t in ins)
        print(f"  kernel: {len(ins)} instructions (static), R2UR {total['R2UR']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
