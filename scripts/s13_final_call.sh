#!/usr/bin/env bash
# Session 13, the lead's GPU call on main after the merges: the test suite with README's command
# (incl. the new bf16 torch test), the stream-K GPU matrix with "streamk-tail" (mma.sync kernels, every
# type and layout, odd shapes), the Hopper cooperative persistent TMA-store kernel with
# split_k_mode = "streamk-tail" at odd / split shapes checked against float64 (`lasscc run --check`),
# and the sm_90a default at 4096^3 (f16 -> f16, bf16 -> f32) beside cuBLAS.  Logs in $OUT.
#     OUT=... [PARTS=""] scripts/s13_final_call.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/s13_final}; mkdir -p "$OUT"
OUT="$OUT" scripts/gpu_call.sh ${PARTS-suite streamk}  # PARTS="" for the Hopper checks and the bench alone
export LASSCC_CACHE_DIR=$(mktemp -d)
for f in benchmarks/s13_pers_tma_sktail_f16.mlir benchmarks/s13_pers_tma_sktail_bf16f32.mlir; do
  for shape in "3000 3000 1000" "2048 7936 8192" "1000 1000 16384" "4100 4104 520"; do
    set -- $shape
    echo "== $f ${1}x${2}x${3}"
    timeout 60 lasscc run "$f" --arch sm_90a --m "$1" --n "$2" --k "$3" --check 2>&1 | tail -2
  done
done > "$OUT/sktail-hopper.log" 2>&1
grep -E "^==|rel|PASS|FAIL|error" "$OUT/sktail-hopper.log" | head -24
TYPES="f16 f16;bf16 f32" timeout 150 scripts/hopper_default_bench.sh 4096 > "$OUT/default-4096.log" 2>&1
grep -E "^==|^ +[0-9]|FAIL" "$OUT/default-4096.log" | head -20
