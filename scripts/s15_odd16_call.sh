#!/usr/bin/env bash
# Session 15 (odd16, issue 16) GPU call: gemm_odd_k after the function pipeline.  emit._optimize now runs
# O3's late partial LoopUnroll (threshold 75) after the function simplification pipeline, which unrolls
# gemm_odd_k's per-k-tile 16-bit copy loops by 2 as O3 did (SASS back to O3's size on sm_90a, 4528 vs 4520
# on sm_80); variant unroll4 unrolls them by 4 (ptxas 254 -> 168 registers, SASS -21 %/-25 %;
# BENCHMARKS.md "Session 15 -- gemm_odd_k and the function pipeline").  o3 / fpm / unroll4 built in one
# process by scripts/s15_llvm_ab.py, checked against float64 at 4096^3 and 1008x1040x520, timed
# interleaved beside torch.matmul (5 rounds); gemm_tuned sm_90a as the control (same PTX in all three).
# Usage, from this tree on the GPU machine: OUT=... scripts/s15_odd16_call.sh  (one call, ~2 min)
set -uo pipefail
cd "$(dirname "$0")/.."
END=${END:-570} TAIL=${TAIL:-30}
source scripts/call_steps.sh
step ab-odd16 400 python3 scripts/s15_llvm_ab.py --unroll4 --examples gemm_odd_k:sm_80,gemm_odd_k:sm_90a,gemm_tuned:sm_90a
echo "check failures: $(cat "$OUT"/ab-*.log | grep -c FAIL)"
