#!/usr/bin/env bash
# Session 15 (issue 16) GPU call for warp_mma.SHARED_DIRECT (one copy of the per-thread stores for C and
# for a D the TMA / staged path cannot take): the PTX of the kernels with such a path changed.  The GPU
# suite with README's command; main's and the branch's changed kernels checked (odd shapes with N a
# multiple of 8 and not: the TMA / staged path and the shared direct one; beta 0 and 0.5) and timed in one
# process beside cuBLAS (scripts/kernel_ab.py); the fused-epilogue and Hopper matrices.
# Usage, from the branch's tree on the GPU machine: OUT=... scripts/s15_shared_direct_call.sh AB.pkl,
# AB.pkl built on the CPU machine by scripts/kernel_ab.py build (main's tree, then the branch's).
set -uo pipefail
cd "$(dirname "$0")/.."
PKL=$1
END=${END:-575} TAIL=${TAIL:-60}
source scripts/call_steps.sh
step suite 200 python3 -m pytest -q -n auto --dist loadfile tests
step ab 200 python3 scripts/kernel_ab.py run "$PKL" --sizes 4096 --shapes 1000x1032x520,1000x1030x520 \
  --betas 0,0.5 --bench-betas 0,0.5 --rounds 3
step epilogue-matrix 110 python3 scripts/gpu_matrix.py --arch sm_90a --epilogue-only
step hopper-matrix 100 python3 scripts/gpu_matrix.py --hopper
echo "check failures: $(cat "$OUT"/*.log | grep -c FAIL)"
