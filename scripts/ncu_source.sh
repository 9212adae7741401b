#!/usr/bin/env bash
# Where the warps of one kernel stall, per SASS instruction: Nsight Compute's full set (source
# counters incl. warp-stall sampling) on one launch of FILE.mlir at SIZE^3 and of cuBLAS
# (torch.matmul, f16 TN), exported as CSV (source page, SASS) plus the raw metrics.  Set up as
# scripts/gpu_call.sh does first.  Logs and reports in $OUT.
#     SIZE=4096 scripts/ncu_source.sh FILE.mlir [NAME]
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/ncu_source}; mkdir -p "$OUT"
SIZE=${SIZE:-4096}
f=$1; name=${2:-$(basename "$f" .mlir)}
ncu --set full --import-source no -k regex:'^gemm' --launch-count 1 -f -o "$OUT/$name" \
  lasscc run "$f" --arch sm_90a --m "$SIZE" --n "$SIZE" --k "$SIZE" > "$OUT/run_$name.txt" 2>&1
ncu -i "$OUT/$name.ncu-rep" --page source --csv --print-source sass > "$OUT/sass_$name.csv" 2>&1
ncu -i "$OUT/$name.ncu-rep" --page raw --csv > "$OUT/raw_$name.csv" 2>&1
ncu -i "$OUT/$name.ncu-rep" --page details > "$OUT/details_$name.txt" 2>&1
if [ ! -f "$OUT/cublas.ncu-rep" ]; then
  cat > "$OUT/cublas.py" <<'PY'
import os, torch
n = int(os.environ.get("SIZE", "4096"))
a = torch.randn(n, n, device="cuda", dtype=torch.float16)
b = torch.randn(n, n, device="cuda", dtype=torch.float16).t()
for _ in range(3):
    torch.matmul(a, b)
torch.cuda.synchronize()
PY
  ncu --set full --import-source no --launch-skip 2 --launch-count 1 -f -o "$OUT/cublas" python3 "$OUT/cublas.py" > "$OUT/run_cublas.txt" 2>&1
  ncu -i "$OUT/cublas.ncu-rep" --page source --csv --print-source sass > "$OUT/sass_cublas.csv" 2>&1
  ncu -i "$OUT/cublas.ncu-rep" --page raw --csv > "$OUT/raw_cublas.csv" 2>&1
  ncu -i "$OUT/cublas.ncu-rep" --page details > "$OUT/details_cublas.txt" 2>&1
fi
for x in "$name" cublas; do
  echo "== $x"; grep -E "Duration|Tensor|L2 Hit|Warp Cycles Per Issued|Registers Per" "$OUT/details_$x.txt" | head -8
  wc -l "$OUT/sass_$x.csv"
done
