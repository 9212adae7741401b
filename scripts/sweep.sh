#!/usr/bin/env bash
# Time several tile configs beside cuBLAS on the GPU machine:
#   scripts/sweep.sh SIZE "TB WARP STAGES [RASTER [PREFETCH]]" ...
# (checks each at SIZE too).  Prints one line per config, a table last.
set -uo pipefail
cd "$(dirname "$0")/.."
size=$1; shift
rows=()
for cfg in "$@"; do
  set -- $cfg
  log=$(lasscc run examples/gemm.mlir --m "$size" --n "$size" --k "$size" --check --bench --iters 30 \
        --threadblock "$1" --warp "$2" --stages "$3" ${4:+--raster $4} ${5:+--prefetch $5} ${ARCH:+--arch $ARCH} --no-cache 2>&1)
  rows+=("$(printf '%-34s' "$cfg") $(echo "$log" | grep -oE 'rel_err [0-9.e+-]+|[0-9.]+ TFLOP/s|= [0-9.]+$|Used [0-9]+ registers' | tr '\n' ' ')")
  echo "$log" | grep -iE "error|fail" || true
done
printf '%s\n' "${rows[@]}"
