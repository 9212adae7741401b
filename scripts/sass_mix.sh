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
lines = open(sys.argv[1]).read().splitlines()
ins = [m.group(2) for l in lines if (m := re.search(r"/\*([0-9a-f]{4})\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", l))]
# the main loop is the block that ends in the backward branch with the most HMMAs before it
best = (0, 0, 0)
starts = [0] + [i + 1 for i, op in enumerate(ins) if op.startswith("BRA")]
for s, e in zip(starts, starts[1:]):
    n = sum(op.startswith("HMMA") for op in ins[s:e])
    best = max(best, (n, s, e))
_, s, e = best
mix = collections.Counter(op.split(".")[0] for op in ins[s:e])
total = sum(mix.values())
print(f"main-loop block: {total} instructions, " + ", ".join(f"{op} {n}" for op, n in mix.most_common(10)))
PY
rm -rf $tmp
