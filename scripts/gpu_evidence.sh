#!/usr/bin/env bash
# Everything the open issues ask to be shown on the GPU machine, in one call (after the set-up line of
# ../shared/GUIDE.md section 4): default config at 4096^3 and 8192^3 with stages 3 and 2, the tuned
# config, bf16, column-major D and odd shapes, the Python API on torch tensors, the GPU tests, and the
# SASS instruction mix of the tuned kernel's main loop.  Logs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp}
export LASSCC_CACHE_DIR=$OUT/cache
bash scripts/gpu_check.sh "4096 8192" "3 2" 2>&1 | tee $OUT/default.log | tail -6
echo "== tuned config (128x256x32 / 64x64x32 / 4 stages / prefetch)"
for s in 4096 8192; do
  lasscc run examples/gemm.mlir --m $s --n $s --k $s --check --bench --threadblock 128x256x32 --stages 4 --prefetch 1 2>&1 | tail -4
done
echo "== bf16 4096^3"; lasscc run examples/gemm_bf16.mlir --m 4096 --n 4096 --k 4096 --check --bench 2>&1 | tail -4
echo "== odd shapes (beta 0.5), row- and column-major D"
for f in examples/gemm.mlir examples/gemm_col_d.mlir; do
  for sz in "4097 1000 336" "33 129 40" "127 255 1024"; do set -- $sz
    echo "$f $sz: $(lasscc run $f --m $1 --n $2 --k $3 --check --beta 0.5 2>&1 | grep -E 'check|rror' | tr '\n' ' ')"
  done
done
echo "== Python API on torch tensors"; python3 examples/api_torch.py 2>&1 | tail -6
echo "== GPU tests"; python3 -m pytest -q -m gpu tests 2>&1 | tail -4
echo "== SASS of the tuned kernel (main loop instruction mix)"
lasscc compile examples/gemm.mlir --threadblock 128x256x32 --stages 4 --prefetch 1 -o $OUT/tuned.ptx 2>/dev/null &&
ptxas -arch=sm_90a $OUT/tuned.ptx -o /tmp/tuned.cubin && cuobjdump -sass /tmp/tuned.cubin > $OUT/tuned.sass &&
python3 - "$OUT/tuned.sass" <<'PY'
import re, sys, collections
lines = open(sys.argv[1]).read().splitlines()
ins = [(i, m.group(1)) for i, l in enumerate(lines) if (m := re.search(r"/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\d+\s+)?([A-Z][A-Z0-9_.]*)", l))]
# every HMMA is in the main loop, so first..last HMMA is the loop body (plus its address math)
hmma = [k for k, (_, op) in enumerate(ins) if op.startswith("HMMA")]
lo, hi = hmma[0], hmma[-1]
loop = collections.Counter(op.split(".")[0] for _, op in ins[lo:hi + 1])
total = sum(loop.values())
print(f"from the first to the last HMMA: {total} instructions")
for op, n in loop.most_common(12):
    print(f"  {op:10s} {n:5d}  {100 * n / total:5.1f}%")
PY
