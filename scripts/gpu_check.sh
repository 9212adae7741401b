#!/usr/bin/env bash
# Build + check + time on the GPU machine in one go (see ../shared/GUIDE.md section 4 for the set-up
# line that precedes it).  Prints a short table last.  Usage: scripts/gpu_check.sh [SIZES] [STAGES]
set -uo pipefail
cd "$(dirname "$0")/.."
sizes=${1:-"4096 8192"}
stages=${2:-"3 2"}
out=${OUT:-/tmp}/gpu_check.log
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out"
rows=()
for st in $stages; do
  for s in $sizes; do
    log=$(PYTHONUNBUFFERED=1 lasscc run examples/gemm.mlir --m "$s" --n "$s" --k "$s" --check --bench --stages "$st" --iters 30 2>&1)
    echo "== stages=$st size=$s"; echo "$log" | tee -a "$out"
    rows+=("stages=$st $s^3 | $(echo "$log" | grep -E 'rel_err|TFLOP|ratio|ptxas' | tr '\n' ' ')")
  done
done
echo; echo "== GPU tests"; python3 -m pytest -q -m gpu tests 2>&1 | tail -5
echo; echo "== summary"; printf '%s\n' "${rows[@]}"
