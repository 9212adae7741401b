#!/usr/bin/env bash
# Session 12 (issue 15, perf15) GPU call 3: the descriptor base read at its use (passes/lower_sm90.py
# _shared_address: the wgmma descriptors in uniform registers) against the session's base compiler,
# same kernels: the device's checkout root (BASE, the main branch) and this worktree (NEW, under
# .wt/perf15) installed in turn (pip -e), three alternating rounds of scripts/hopper_variants.py
# (sm_90a default kernel, f16 -> f16 and bf16 -> f32, 4096^3 and 8192^3; checked vs float64, cuBLAS
# interleaved in each process); then Nsight Compute of NEW's default kernel at 4096^3.
# Run from .wt/perf15 after scripts/gpu_call.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
NEW=$(pwd); BASE=$(cd ../.. && pwd)
OUT=${OUT:-/tmp/s12_call3}; mkdir -p "$OUT"
export LASSCC_CACHE_DIR=$(mktemp -d)
C=',128x256x64,4,schedule = "cooperative", persistent = 1, epilogue = "tma"'
for r in 1 2 3; do
  for side in BASE NEW; do
    dir=${!side}
    ( cd "$dir" && python3 -m pip install -q --no-build-isolation --no-deps --no-index -e . >/dev/null 2>&1
      rm -rf "$LASSCC_CACHE_DIR"
      python3 -c "import lasscc.passes.lower_sm90 as m, inspect; print('$side', m.__file__, '_shared_address' in inspect.getsource(m))"
      timeout 75 python3 scripts/hopper_variants.py --sizes 4096,8192 --case "f16,f16$C" --case "bf16,f32$C" ) > "$OUT/$side-r$r.log" 2>&1
    echo "== $side round $r"; grep -E "^(BASE|NEW) |ratio|FAIL|SPILL" "$OUT/$side-r$r.log" | sed 's/^ *//'
  done
done
cd "$NEW" && python3 -m pip install -q --no-build-isolation --no-deps --no-index -e . >/dev/null 2>&1
( SIZE=4096 OUT="$OUT/ncu" timeout 100 scripts/ncu_source.sh benchmarks/s10_pers_tma_f16.mlir pers_tma_uniform
  python3 scripts/ncu_stall_summary.py "$OUT"/ncu/sass_pers_tma_uniform.csv "$OUT"/ncu/sass_cublas.csv
  rm -f "$OUT"/ncu/*.ncu-rep "$OUT"/ncu/raw_*.csv "$OUT"/ncu/sass_*.csv "$OUT"/ncu/run_*.txt "$OUT"/ncu/cublas.py ) > "$OUT/ncu.log" 2>&1
grep -E "^==|Duration|L2 Hit|warp instructions" "$OUT/ncu.log" | head -12
