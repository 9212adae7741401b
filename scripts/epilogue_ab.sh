#!/usr/bin/env bash
# scripts/epilogue_ab.py on PKL, then Nsight Compute's per-SASS stall sampling of each named fused
# variant at 4096^3 (summarized by scripts/ncu_stall_summary.py); set up as scripts/gpu_call.sh does
# first.  Logs in $OUT, the per-variant reports packed into $OUT/ncu.tgz.
#     OUT=... scripts/epilogue_ab.sh PKL [VARIANT ...]
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/epilogue_ab}; mkdir -p "$OUT/ncu"
pkl=$1; shift
timeout 240 python3 scripts/epilogue_ab.py "$pkl" --sizes 4096,8192 --rounds 3 2>&1 | tee "$OUT/ab.log"
for v in "$@"; do
  timeout 100 ncu --set full --import-source no -k regex:'^gemm' --launch-count 1 -f -o "$OUT/ncu/$v" \
    python3 scripts/epilogue_ab.py "$pkl" --sizes 4096 --profile "$v" > "$OUT/ncu/run_$v.txt" 2>&1
  ncu -i "$OUT/ncu/$v.ncu-rep" --page source --csv --print-source sass > "$OUT/ncu/sass_$v.csv" 2>&1
  ncu -i "$OUT/ncu/$v.ncu-rep" --page details > "$OUT/ncu/details_$v.txt" 2>&1
  python3 scripts/ncu_stall_summary.py "$OUT/ncu/sass_$v.csv" | tee "$OUT/ncu/stalls_$v.txt" | head -24
  grep -E "Duration|Issue Slots Busy|Registers Per" "$OUT/ncu/details_$v.txt"
done
rm -f "$OUT"/ncu/*.ncu-rep; gzip -f "$OUT"/ncu/*.csv
tar -C "$OUT" -czf "$OUT/ncu.tgz" ncu && rm -rf "$OUT/ncu"
