#!/usr/bin/env bash
# Session 14 (compile16e, issue 16) GPU call: lasscc-warp-mma's rolled fused epilogue (column / row loops),
# rolled staged writes and rolled stream-K partials.  The PTX changed (same instruction mix, block
# layout and a few predicates): every changed example checked against float64 on the GPU (4096^3 and
# an odd shape), the fused mma.sync kernels of main and the branch timed in one process
# (scripts/epilogue_ab.py on a pickle built on the CPU machine, beside torch), then the fused-epilogue
# and stream-K matrices (checks + their benches beside cuBLAS).
# Usage, from the branch's tree on the GPU machine: OUT=... scripts/s14_compile16e_call.sh AB.pkl, where
# AB.pkl is built on the CPU machine by
#   (cd /work/main && python3 /work/wt-compile16e/scripts/s14_compile16e_build.py AB.pkl main --plain)
#   /work/venv-compile16e/bin/python /work/wt-compile16e/scripts/s14_compile16e_build.py AB.pkl c16e
set -uo pipefail
cd "$(dirname "$0")/.."
PKL=$1
END=${END:-570} TAIL=12
source scripts/call_steps.sh
for ex in gemm_bias_gelu linalg_bias_relu gemm_f16_out gemm_streamk; do
  step "$ex-4096" 40 lasscc run "examples/$ex.mlir" --m 4096 --n 4096 --k 4096 --check --bench
  step "$ex-odd" 30 lasscc run "examples/$ex.mlir" --m 1000 --n 1032 --k 520 --check
done
step ab 150 python3 scripts/epilogue_ab.py "$PKL" --sizes 4096,8192 --rounds 3
step epilogue-matrix 120 python3 scripts/gpu_matrix.py --arch sm_90a --epilogue-only
step streamk-matrix 100 python3 scripts/gpu_matrix.py --arch sm_90a --streamk-only
echo "check failures: $(cat "$OUT"/*.log | grep -c FAIL)"
