#!/usr/bin/env bash
# Issue 18's GPU evidence in one call (set up as scripts/gpu_call.sh does first): Nsight Compute's
# per-SASS warp-stall sampling of the plain and the bias + GELU cooperative persistent TMA-store
# kernels at 4096^3 (scripts/ncu_source.sh, summarized by scripts/ncu_stall_summary.py), then
# scripts/epilogue_bench.py for the kernels named in WHAT.  Logs in $OUT.
#     OUT=... scripts/epilogue_overhead.sh [ncu] [pt] [relu] [direct]
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/epilogue_overhead}; mkdir -p "$OUT"
PT='schedule = "cooperative", persistent = 1, epilogue = "tma"'
for what in "$@"; do
  case $what in
    ncu) for k in plain gelu; do
           SIZE=4096 OUT="$OUT/ncu" timeout 150 scripts/ncu_source.sh "benchmarks/s11_pers_tma_$k.mlir" "$k" | tail -6
           python3 scripts/ncu_stall_summary.py "$OUT/ncu/sass_$k.csv" | tee "$OUT/stalls_$k.txt"
         done
         python3 scripts/ncu_stall_summary.py "$OUT/ncu/sass_cublas.csv" > "$OUT/stalls_cublas.txt" 2>&1
         grep -E "Duration|Issue Slots|Issued Ipc|Executed Ipc|Registers|Warp Cycles Per Issued|Tensor" "$OUT"/ncu/details_*.txt
         rm -f "$OUT"/ncu/*.ncu-rep; gzip -f "$OUT"/ncu/*.csv ;;
    pt) timeout 200 python3 scripts/epilogue_bench.py --mma wgmma --sizes 4096,8192 --d-dtype f16 --extra "$PT" \
          2>&1 | tee "$OUT/bench_pt_gelu.log" ;;
    relu) timeout 100 python3 scripts/epilogue_bench.py --mma wgmma --sizes 4096 --d-dtype f16 --extra "$PT" \
          --activation relu 2>&1 | tee "$OUT/bench_pt_relu.log" ;;
    direct) timeout 200 python3 scripts/epilogue_bench.py --mma wgmma --sizes 4096,8192 --d-dtype f16 \
          2>&1 | tee "$OUT/bench_direct_gelu.log" ;;
  esac
done
