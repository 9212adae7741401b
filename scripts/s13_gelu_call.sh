#!/usr/bin/env bash
# Session 13 (issue 18, gelu18b) GPU call: set up (gpu_call.sh), check lass.gelu element by element on
# the GPU for each D type (gelu_gpu_check.py), then time the plain / f32-fit / D-type-fit kernels of
# gelu_ab_build.py's pickles (PKL_DIR, built on the CPU machine) against torch (epilogue_ab.py).
# Logs in $OUT.  Usage: OUT=... scripts/s13_gelu_call.sh PKL_DIR [ROUNDS]
set -uo pipefail
cd "$(dirname "$0")/.."
PKL=$1; ROUNDS=${2:-4}
OUT=${OUT:-/tmp/gpu_call}; mkdir -p "$OUT"
OUT=$OUT scripts/gpu_call.sh > "$OUT/setup.log" 2>&1
export PATH="$(python3 -c 'import os, sys; print(os.path.join(sys.prefix, "bin"))'):$PATH" PYTHONUNBUFFERED=1
cat "$OUT/gpu.txt"
for dt in f16 bf16 f32; do
  timeout 60 python3 scripts/gelu_gpu_check.py --d-dtype $dt > "$OUT/gelu-gpu-check-$dt.log" 2>&1
  echo "check $dt rc=$?"; grep -E "GPU vs|PASS|FAIL" "$OUT/gelu-gpu-check-$dt.log"
done
timeout 150 python3 scripts/epilogue_ab.py "$PKL/ab-f16.pkl" --sizes 4096,8192 --rounds "$ROUNDS" > "$OUT/gelu-ab-f16.log" 2>&1
echo "ab f16 rc=$?"; cat "$OUT/gelu-ab-f16.log"
timeout 100 python3 scripts/epilogue_ab.py "$PKL/ab-bf16.pkl" --sizes 4096,8192 --rounds 3 --torch-dtype bf16 > "$OUT/gelu-ab-bf16.log" 2>&1
echo "ab bf16 rc=$?"; cat "$OUT/gelu-ab-bf16.log"
