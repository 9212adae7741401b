#!/usr/bin/env bash
# Session 15, the lead's GPU call on main after the merges: scripts/s14_final_call.sh's steps (the suite with
# README's command, `lasscc tune` wall time, cold `lasscc compile` times on the 16-core host, the sm_90a
# default at 4096^3 beside cuBLAS), then issue 16's LLVM pipeline (o3 vs the function simplification
# pipeline: scripts/s15_llvm_ab.py) on the kernels
# it changed most (ODD_AB=0 skips it).
#     OUT=... [PARTS="suite"] scripts/s15_final_call.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/s15_final}
t0=$SECONDS
scripts/s14_final_call.sh
export PATH="$(python3 -c 'import os, sys; print(os.path.join(sys.prefix, "bin"))'):$PATH" PYTHONUNBUFFERED=1
if [ "${ODD_AB:-1}" = 1 ]; then
  timeout 170 python3 scripts/s15_llvm_ab.py --rounds 3 --examples gemm_odd_k:sm_80,gemm_odd_k:sm_90a,gemm_skinny_swap:sm_90a \
    > "$OUT/odd-ab.log" 2>&1; grep -E "^\||FAIL" "$OUT/odd-ab.log" | tail -14
fi
echo "s15 end: $((SECONDS - t0)) s"
