#!/usr/bin/env bash
# Session 13 (issue 15, sk15) GPU call 1: Nsight Compute (locked clocks, scripts/ncu_source.sh) of the
# sm_90a default (cooperative persistent TMA-store 128x256x64/4, f16 -> f16) beside its stream-K
# variants "streamk-dp" and "streamk-tail" and cuBLAS at 4096^3 (duration, tensor pipe, L2 hit rate,
# DRAM bytes: why "streamk-dp" lost 12 %), then free-clock rounds of the three (scripts/hopper_variants.py,
# cuBLAS interleaved, every kernel checked vs float64).  Set up as gpu_call.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/s13_call1}; mkdir -p "$OUT/ncu"
export LASSCC_CACHE_DIR=$(mktemp -d)
( for v in s10_pers_tma_f16:dp s13_pers_tma_skdp_f16:skdp s13_pers_tma_sktail_f16:sktail; do
    SIZE=4096 OUT="$OUT/ncu" timeout 100 scripts/ncu_source.sh "benchmarks/${v%%:*}.mlir" "${v##*:}"
  done
  python3 scripts/ncu_stall_summary.py "$OUT"/ncu/sass_dp.csv "$OUT"/ncu/sass_skdp.csv "$OUT"/ncu/sass_sktail.csv
  for x in dp skdp sktail cublas; do
    echo "== metrics $x"
    grep -E "Duration|DRAM Throughput|L2 Hit Rate|L1/TEX Hit|Memory Throughput|Compute \(SM\) Throughput|Executed Ipc A|Registers Per" "$OUT/ncu/details_$x.txt" | head -12
    python3 - "$OUT/ncu/raw_$x.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
if len(rows) >= 3:
    head, val = rows[0], rows[2]
    for key in ("gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sector_hit_rate.pct",
                "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
                "sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_active",
                "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active",
                "lts__t_bytes.sum", "sm__throughput.avg.pct_of_peak_sustained_elapsed", "smsp__inst_executed.sum"):
        if key in head:
            i = head.index(key)
            print(f"  {key} = {val[i]} {rows[1][i]}")
PY
  done
  rm -f "$OUT"/ncu/*.ncu-rep "$OUT"/ncu/raw_*.csv ) > "$OUT/ncu.log" 2>&1
grep -E "^==|Duration|L2 Hit|DRAM|dram__|lts__|gmma|warp instructions|DEPBAR" "$OUT/ncu.log" | head -70
C='f16,f16,128x256x64,4,schedule = "cooperative", persistent = 1, epilogue = "tma"'
args=()
for r in 1 2; do
  args+=(--case "$C" --case "$C, split_k_mode = \"streamk-dp\"" --case "$C, split_k_mode = \"streamk-tail\"")
done
timeout 170 python3 scripts/hopper_variants.py --sizes 4096,8192 "${args[@]}" > "$OUT/variants.log" 2>&1
tail -16 "$OUT/variants.log"
