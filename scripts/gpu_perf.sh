#!/usr/bin/env bash
# Issue "Fast mma.sync kernels" evidence in one GPU call (after the set-up line of ../shared/GUIDE.md
# section 4): `lasscc bench` of the tuned config at 4096^3 and 8192^3 beside cuBLAS, its ptxas -v line
# and main-loop SASS mix, f16 output (beta 0: the staged epilogue; beta 0.5: C read too), the
# mma.sync loop's ceilings (scripts/mma_ceiling.py), and a K sweep at M = N = 4096 that separates the
# per-tile fixed cost (prologue + epilogue) from the main loop's rate.  Logs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp}
export LASSCC_CACHE_DIR=$OUT/cache PYTHONUNBUFFERED=1
TUNED=${TUNED:-"--threadblock 256x128x64 --warp 64x64x64 --stages 4 --prefetch 1"}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
echo "== lasscc bench, tuned config ($TUNED)"
lasscc bench examples/gemm.mlir --sizes 4096,8192 --iters 30 $TUNED 2>&1 | tee $OUT/bench.log
echo "== SASS"; bash scripts/sass_mix.sh $TUNED --arch sm_90a
echo "== D f16, beta 0 (examples/gemm_f16_out.mlir with beta = 0.0: staged epilogue)"
sed 's/beta = 0.5/beta = 0.0/' examples/gemm_f16_out.mlir > $OUT/f16_beta0.mlir
lasscc bench $OUT/f16_beta0.mlir --sizes 4096,8192 --iters 30 $TUNED 2>&1 | tail -3
echo "== D f16, beta 0.5 (examples/gemm_f16_out.mlir: C read, per-thread epilogue)"
lasscc bench examples/gemm_f16_out.mlir --sizes 4096,8192 --iters 30 $TUNED 2>&1 | tail -3
echo "== mma.sync ceilings (no address arithmetic, no epilogue)"
python3 scripts/mma_ceiling.py
echo "== K sweep, M = N = 4096 (time = tiles/SM * (fixed + K/BK * per k-tile))"
lasscc bench examples/gemm.mlir --sizes 4096x4096x512,4096x4096x1024,4096x4096x2048,4096x4096x4096,4096x4096x8192,4096x4096x16384 --iters 30 $TUNED 2>&1 | tee $OUT/ksweep.log | tail -9
