#!/usr/bin/env bash
# Issue 14's evidence on a Hopper GPU: `lasscc bench` of an input without a config (the default
# family and tiling: wgmma 128x256x64 / 4 stages on sm_90a) for f16 and bf16 beside cuBLAS, then
# ptxas -v and the SASS main loop's HGMMA count of that kernel.  Logs in $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/hopper_evidence}; mkdir -p "$OUT"
sed 's/f16/bf16/g' examples/gemm_tuned.mlir > "$OUT/gemm_bf16.mlir"
for f in examples/gemm_tuned.mlir "$OUT/gemm_bf16.mlir"; do
  echo "== lasscc bench $f --sizes 4096,8192"
  lasscc bench "$f" --sizes 4096,8192 2>&1 | tail -8
done
lasscc compile examples/gemm_tuned.mlir --arch sm_90a -o "$OUT/default.ptx" 2>&1 | tail -2
echo "== ptxas -v (sm_90a)"
ptxas -arch=sm_90a -v "$OUT/default.ptx" -o "$OUT/default.cubin" 2>&1 | grep -E "registers|spill|C75" 
cuobjdump -sass "$OUT/default.cubin" > "$OUT/default.sass"
echo "== SASS: HGMMA $(grep -c HGMMA "$OUT/default.sass"), WARPGROUP.ARRIVE $(grep -c 'WARPGROUP.ARRIVE' "$OUT/default.sass"), UTMALDG $(grep -c UTMALDG "$OUT/default.sass"), SYNCS $(grep -c SYNCS "$OUT/default.sass")"
grep -m4 HGMMA "$OUT/default.sass"
