#!/usr/bin/env bash
# Session 13 (issue 15, sk15) GPU call 3: free-clock rounds of the data-parallel default against
# "streamk-tail" (scripts/hopper_variants.py: cuBLAS interleaved in the same process, every kernel
# checked vs float64), alternating, at 4096^3 / 8192^3 (f16 -> f16, bf16 -> f32) and 8192^3 (bf16 ->
# bf16, f16 -> f32); then the new sm_90a default through `lasscc bench` of an input without config
# (heuristics: "streamk-tail" at 8192^3).  Set up as gpu_call.sh.  At most 8 files in $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/s13_call3}; mkdir -p "$OUT"
export LASSCC_CACHE_DIR=$(mktemp -d)
K='128x256x64,4,schedule = "cooperative", persistent = 1, epilogue = "tma"'
T=', split_k_mode = "streamk-tail"'
args=()
for r in 1 2 3; do
  if [ $r = 2 ]; then  # round 2 tail first
    args+=(--case "f16,f16,$K$T" --case "f16,f16,$K" --case "bf16,f32,$K$T" --case "bf16,f32,$K")
  else
    args+=(--case "f16,f16,$K" --case "f16,f16,$K$T" --case "bf16,f32,$K" --case "bf16,f32,$K$T")
  fi
done
timeout 215 python3 scripts/hopper_variants.py --sizes 4096,8192 "${args[@]}" > "$OUT/variants.log" 2>&1
tail -27 "$OUT/variants.log"
args=()
for r in 1 2; do
  args+=(--case "bf16,bf16,$K" --case "bf16,bf16,$K$T" --case "f16,f32,$K" --case "f16,f32,$K$T")
done
timeout 110 python3 scripts/hopper_variants.py --sizes 8192 "${args[@]}" > "$OUT/variants2.log" 2>&1
tail -11 "$OUT/variants2.log"
timeout 60 lasscc bench examples/gemm_tuned.mlir --arch sm_90a --sizes 8192 > "$OUT/default.log" 2>&1
grep -E "shape-aware|8192|rel_err" "$OUT/default.log" | cut -c1-400 | head -8
