#!/usr/bin/env bash
# The sm_90a shape-aware default (issue 15: lasscc.heuristics.data_parallel_kernel) beside the plain
# kernel, on a GPU: for each A/B -> D of f16 -> f32, f16 -> f16, bf16 -> bf16 and bf16 -> f32 and each
# cube size, `lasscc bench` of examples/gemm_tuned.mlir (no config: the default for that size; one size
# per call, since bench takes the default of its first size) and of the same with config = {mma =
# "wgmma", threadblock = [128, 256, 64], stages = 4} (the plain kernel: no schedule / persistent / TMA
# store; written into the file: --threadblock on a file without config merges into an mma.sync config).
# Each run is checked against float64 by bench and timed beside cuBLAS.  A fresh cache dir keeps a
# stored `lasscc tune` winner out.
#     [TYPES="bf16 f32"] scripts/hopper_default_bench.sh [SIZES]        # default: 2048 3072 4096 6144 8192
set -uo pipefail
cd "$(dirname "$0")/.."
SIZES=${*:-2048 3072 4096 6144 8192}
TMP=$(mktemp -d)
export LASSCC_CACHE_DIR="$TMP/cache"
# TYPES="bf16 f32;f16 f16" picks A/B -> D pairs (default: all four)
IFS=';' read -r -a PAIRS <<< "${TYPES:-f16 f32;f16 f16;bf16 bf16;bf16 f32}"
for types in "${PAIRS[@]}"; do
  set -- $types
  src="$TMP/gemm_$1_$2.mlir"
  plain="$TMP/plain_$1_$2.mlir"
  sed "s/xf16/x$1/g; s/xf32>/x$2>/g" examples/gemm_tuned.mlir > "$src"
  sed 's/beta = 0.0 : f32}/beta = 0.0 : f32, config = {mma = "wgmma", threadblock = [128, 256, 64], stages = 4}}/' \
    "$src" > "$plain"
  grep -q 'config = {mma = "wgmma"' "$plain" || { echo "no config written into $plain"; exit 1; }
  for s in $SIZES; do
    echo "== $1 -> $2, ${s}^3, default"
    lasscc bench "$src" --arch sm_90a --sizes "$s"
    echo "== $1 -> $2, ${s}^3, plain 128x256x64 / 4"
    lasscc bench "$plain" --arch sm_90a --sizes "$s"
  done
done
rm -rf "$TMP"
