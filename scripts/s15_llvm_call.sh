#!/usr/bin/env bash
# Session 15 (llvm16g, issue 16) GPU call: emit._optimize runs LLVM's function simplification pipeline
# per function instead of O3's module pipeline; the SASS of 15 of the 50 example kernels changed (-3.8 %
# to +1.7 %, a few registers either way; BENCHMARKS.md "Session 15 -- LLVM pipeline").  Each changed
# kernel and two controls built both ways in one process by scripts/s15_llvm_ab.py (plus the session 14
# candidate -disable-lsr on top, variant "nolsr"), checked against float64 at 4096^3 and 1008x1040x520,
# and timed interleaved beside torch.matmul (medians of 5 rounds).
# Usage, from this tree on the GPU machine: OUT=... scripts/s15_llvm_call.sh 1, then OUT=... scripts/s15_llvm_call.sh 2
# (two calls of ~8 kernels each: ~30 s a kernel with its builds, checks and 5 rounds).
set -uo pipefail
cd "$(dirname "$0")/.."
PART=${1:-1}
END=${END:-570} TAIL=${TAIL:-30}
source scripts/call_steps.sh
ab15() { local name=$1 l=$2; shift 2; step "$name" "$l" python3 scripts/s15_llvm_ab.py --nolsr --examples "$@"; }
if [ "$PART" = 1 ]; then
  ab15 ab-mma1 270 gemm_nn:sm_90a,int8_nt:sm_80,int8_nt:sm_90a,gemm_odd_k:sm_80,gemm_odd_k:sm_90a
  ab15 ab-mma2 270 f16_acc:sm_80,f16_acc:sm_90a,tf32_nn:sm_80,tf32_nn:sm_90a
else
  ab15 ab-rest 270 gemm_f16_out:sm_90a,gemm_stages2:sm_90a,gemm_epilogue_batched_splitk:sm_90a,gemm_skinny_swap:sm_90a
  ab15 ab-hopper 270 gemm_wgmma_cluster:sm_90a,gemm_wgmma_ws:sm_90a,gemm_wgmma_tma_store:sm_90a,gemm_tuned:sm_90a
fi
echo "check failures: $(cat "$OUT"/ab-*.log | grep -c FAIL)"
