#!/usr/bin/env bash
# Session 12 (issue 15, perf15) GPU call 2: the sm_90a default kernel (cooperative persistent
# TMA-store 128x256x64/4) beside the same with two 64x128 wgmma accumulator chains per consumer
# (config instruction = [64, 128, 16], resources.wgmma_chains), f16 -> f16 and bf16 -> f32, 4096^3
# and 8192^3, three alternating rounds (scripts/hopper_variants.py: checked vs float64, cuBLAS
# interleaved).  Set up as gpu_call.sh first.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/s12_call2}; mkdir -p "$OUT"
export LASSCC_CACHE_DIR=$(mktemp -d)
args=()
for r in 1 2 3; do
  for t in "f16,f16" "bf16,f32"; do
    C="$t,128x256x64,4,schedule = \"cooperative\", persistent = 1, epilogue = \"tma\""
    args+=(--case "$C" --case "$C, instruction = [64, 128, 16]")
  done
done
timeout 330 python3 scripts/hopper_variants.py --sizes 4096,8192 "${args[@]}" > "$OUT/variants.log" 2>&1
grep -E "SPILL|FAIL" "$OUT/variants.log" | head; tail -26 "$OUT/variants.log"
