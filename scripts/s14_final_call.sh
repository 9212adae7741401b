#!/usr/bin/env bash
# Session 14, the lead's GPU call on main after the merges: the test suite with README's command; issue 16's
# `lasscc tune` wall time on the GPU host (cold cache: compile in --jobs worker processes, then timing, as tune
# prints); cold `lasscc compile` times on the 16-core host (median of 5); the sm_90a default at 4096^3 beside
# cuBLAS (f16 -> f16, bf16 -> f32); the fused bias + GELU epilogue bench (epi18d's defaults) beside torch.
#     OUT=... [PARTS="suite"] scripts/s14_final_call.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/s14_final}; mkdir -p "$OUT"
t0=$SECONDS
OUT="$OUT" scripts/gpu_call.sh ${PARTS-suite}
export PATH="$(python3 -c 'import os, sys; print(os.path.join(sys.prefix, "bin"))'):$PATH" PYTHONUNBUFFERED=1
echo "after suite: $((SECONDS - t0)) s"
export LASSCC_CACHE_DIR=$(mktemp -d)
( time timeout 200 lasscc tune examples/gemm.mlir --m 4096 --n 4096 --k 4096 --no-cache ) > "$OUT/tune.log" 2>&1
tail -25 "$OUT/tune.log"
echo "after tune: $((SECONDS - t0)) s"
# bytecode first, as a wheel's install writes it: the GPU host sets PYTHONDONTWRITEBYTECODE=1 and the wheels
# go in with --no-compile, so otherwise every compile recompiles xDSL and lasscc from source (session 15:
# imports 0.89 s instead of 0.32 s)
python3 -m compileall -q $(python3 -c "import xdsl, os, llvmlite, typing_extensions; print(os.path.dirname(xdsl.__file__), os.path.dirname(llvmlite.__file__), typing_extensions.__file__)") lasscc passes dialects > /dev/null 2>&1
for f in gemm gemm_tuned gemm_wgmma_tma_store gemm_bias_gelu; do
  for i in 1 2 3 4 5; do /usr/bin/time -f "%e %U %S" lasscc compile examples/$f.mlir -o /tmp/x.ptx --no-cache --arch sm_90a 2>&1 >/dev/null | tail -1; done \
    | sort -n | sed -n 3p | sed "s/^/$f sm_90a median wall user sys: /"
done | tee "$OUT/compile-times.log"
TYPES="f16 f16;bf16 f32" timeout 150 scripts/hopper_default_bench.sh 4096 > "$OUT/default-4096.log" 2>&1
grep -E "^==|^ +[0-9]|FAIL" "$OUT/default-4096.log" | head -20
echo "end: $((SECONDS - t0)) s"
