#!/usr/bin/env bash
# SASS instruction mix of one compiled config's main loop (GPU machine: needs cuobjdump):
#   scripts/sass_mix.sh [lasscc compile options...]      e.g. --threadblock 128x256x64 --stages 3 --prefetch 1
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
lasscc compile examples/gemm.mlir "$@" --no-cache -o $tmp/k.ptx >/dev/null
ptxas -arch=sm_90a -v $tmp/k.ptx -o $tmp/k.cubin 2>&1 | grep -E "registers" | sed 's/^ptxas info *: //'
cuobjdump -sass $tmp/k.cubin > $tmp/k.sass
python3 - $tmp/k.sass <<'PY'
import collections, re, sys
ins = []
for l in open(sys.argv[1]).read().splitlines():
    m = re.search(r"/\*([0-9a-f]{4,5})\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)([^;]*);", l)
    if m:
        ins.append((int(m.group(1), 16), m.group(2), m.group(3)))
# the main loop: from the target of the longest backward branch to that branch
loop = None
for addr, op, rest in ins:
    if op == "BRA" and (t := re.search(r"0x([0-9a-f]+)", rest)) and int(t.group(1), 16) < addr:
        if loop is None or addr - int(t.group(1), 16) > loop[1] - loop[0]:
            loop = (int(t.group(1), 16), addr)
mix = collections.Counter(op.split(".")[0] for addr, op, _ in ins if loop[0] <= addr <= loop[1])
total = sum(mix.values())
print(f"main loop ({loop[0]:#x}-{loop[1]:#x}): {total} instructions, " + ", ".join(f"{op} {n}" for op, n in mix.most_common(12)))
PY
rm -rf $tmp
