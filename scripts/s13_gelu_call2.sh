#!/usr/bin/env bash
# Session 13 (issue 18, gelu18b) GPU call 2: the bf16 element check, the rolled subtile loop's window
# (gelu_ab_build.py --rolled 2,4: plain, gelu-f32fit, gelu (ROLLED_SUBTILES 1), gelu-r2, gelu-r4), and
# the residual epilogue's [mn] preload (residual_ab.py).  Logs in $OUT.
# Usage: OUT=... scripts/s13_gelu_call2.sh PKL_DIR   (ab2-f16.pkl, res.pkl built on the CPU machine)
set -uo pipefail
cd "$(dirname "$0")/.."
PKL=$1
OUT=${OUT:-/tmp/gpu_call}; mkdir -p "$OUT"
OUT=$OUT scripts/gpu_call.sh > "$OUT/setup.log" 2>&1
export PATH="$(python3 -c 'import os, sys; print(os.path.join(sys.prefix, "bin"))'):$PATH" PYTHONUNBUFFERED=1
cat "$OUT/gpu.txt"
timeout 60 python3 scripts/gelu_gpu_check.py --d-dtype bf16 > "$OUT/gelu-gpu-check-bf16.log" 2>&1
echo "check bf16 rc=$?"; grep -E "GPU vs|PASS|FAIL|Error" "$OUT/gelu-gpu-check-bf16.log"
timeout 80 python3 scripts/epilogue_ab.py "$PKL/ab2-f16.pkl" --sizes 4096 --rounds 5 > "$OUT/gelu-ab-rolled-4096.log" 2>&1
echo "ab 4096 rc=$?"; cat "$OUT/gelu-ab-rolled-4096.log"
timeout 100 python3 scripts/residual_ab.py time "$PKL/res.pkl" --sizes 4096,8192 --rounds 3 > "$OUT/residual-ab.log" 2>&1
echo "residual rc=$?"; cat "$OUT/residual-ab.log"
timeout 110 python3 scripts/epilogue_ab.py "$PKL/ab2-f16.pkl" --sizes 8192 --rounds 3 > "$OUT/gelu-ab-rolled-8192.log" 2>&1
echo "ab 8192 rc=$?"; cat "$OUT/gelu-ab-rolled-8192.log"
