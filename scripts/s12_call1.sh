#!/usr/bin/env bash
# Session 12 (issue 15, perf15) GPU call 1: Nsight Compute (locked clocks) of the sm_90a default
# (cooperative persistent TMA-store 128x256x64/4, f16 -> f16) beside its 2x1-cluster variant and
# cuBLAS at 4096^3, the default kernel's SASS, then free-clock timings of existing config variants
# in alternating rounds (scripts/hopper_variants.py, cuBLAS interleaved).  Set up as gpu_call.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/s12_call1}; mkdir -p "$OUT/ncu"
export LASSCC_CACHE_DIR=$(mktemp -d)
( SIZE=4096 OUT="$OUT/ncu" timeout 120 scripts/ncu_source.sh benchmarks/s10_pers_tma_f16.mlir pers_tma
  SIZE=4096 OUT="$OUT/ncu" timeout 80 scripts/ncu_source.sh benchmarks/s10_pers_tma_c21_f16.mlir pers_tma_c21
  python3 scripts/ncu_stall_summary.py "$OUT"/ncu/sass_pers_tma.csv "$OUT"/ncu/sass_pers_tma_c21.csv "$OUT"/ncu/sass_cublas.csv
  rm -f "$OUT"/ncu/*.ncu-rep "$OUT"/ncu/raw_*.csv ) > "$OUT/ncu.log" 2>&1
grep -E "^==|Duration|L2 Hit|warp instructions|UCGABAR|DEPBAR" "$OUT/ncu.log" | head -40
lasscc compile benchmarks/s10_pers_tma_f16.mlir --arch sm_90a -o "$OUT/pt.ptx" && ptxas -arch=sm_90a "$OUT/pt.ptx" -o "$OUT/pt.cubin" \
  && { cuobjdump -sass "$OUT/pt.cubin" > "$OUT/pt.sass" 2>&1 || nvdisasm "$OUT/pt.cubin" > "$OUT/pt.sass" 2>&1; }; rm -f "$OUT/pt.cubin"
wc -l "$OUT/pt.sass"
C='f16,f16,128x256x64,4,schedule = "cooperative", persistent = 1, epilogue = "tma"'
args=()
for r in 1 2 3; do
  args+=(--case "$C" --case "$C, cluster = [2, 1]" --case "$C, raster = 32" --case "$C, cluster = [2, 1], raster = 32")
done
timeout 165 python3 scripts/hopper_variants.py --sizes 4096,8192 "${args[@]}" > "$OUT/variants.log" 2>&1
tail -16 "$OUT/variants.log"
