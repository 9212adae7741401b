#!/usr/bin/env bash
# Session 12 (issue 15, uniform15) GPU call: the mbarrier addresses built on the smem base read at the
# op (passes/lower_sm90.py _barrier_ptr: the k-tile loop fully in uniform registers) against the main
# branch, same kernels: the device's checkout root (BASE) and this worktree (NEW, under .wt/uniform15)
# installed in turn (pip -e), alternating rounds (BASE first in odd rounds, NEW first in even ones) of
# scripts/hopper_variants.py: the sm_90a default kernel f16 -> f16 and bf16 -> f32 at 4096^3 and
# 8192^3 (checked vs float64, cuBLAS interleaved in each process), NEW also with two 64x128
# accumulator chains (instruction = [64, 128, 16]).  Rounds start while under ROUND_BUDGET_S seconds;
# then, time permitting, Nsight Compute (locked clocks) of both sides' f16 default kernel at 4096^3:
# duration and warp instructions.  Run from .wt/uniform15 after scripts/gpu_call.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
NEW=$(pwd); BASE=$(cd ../.. && pwd)
OUT=${OUT:-/tmp/s12_u15}; mkdir -p "$OUT"
export LASSCC_CACHE_DIR=$(mktemp -d)
C=',128x256x64,4,schedule = "cooperative", persistent = 1, epilogue = "tma"'
CH=', instruction = [64, 128, 16]'
install() { ( cd "$1" && python3 -m pip install -q --no-build-isolation --no-deps --no-index -e . >/dev/null 2>&1 ); rm -rf "$LASSCC_CACHE_DIR"; }
side_run() {  # side round
  local side=$1 r=$2 dir
  if [ "$side" = BASE ]; then dir=$BASE; else dir=$NEW; fi
  install "$dir"
  ( cd "$dir"
    python3 -c "import lasscc.passes.lower_sm90 as m, inspect; print('$side', m.__file__, '_barrier_ptr' in inspect.getsource(m))"
    if [ "$side" = BASE ]; then
      timeout 90 python3 scripts/hopper_variants.py --sizes 4096,8192 --case "f16,f16$C" --case "bf16,f32$C"
    else
      timeout 150 python3 scripts/hopper_variants.py --sizes 4096,8192 --case "f16,f16$C" --case "bf16,f32$C" \
        --case "f16,f16$C$CH" --case "bf16,f32$C$CH"
    fi ) > "$OUT/$side-r$r.log" 2>&1
  echo "== $side round $r (t=${SECONDS}s)"; grep -E "^(BASE|NEW) |ratio|FAIL|SPILL|failure" "$OUT/$side-r$r.log" | sed 's/^ *//'
}
ROUND_BUDGET_S=${ROUND_BUDGET_S:-250}
for r in 1 2 3 4 5; do
  [ "$SECONDS" -gt "$ROUND_BUDGET_S" ] && { echo "== stop before round $r (t=${SECONDS}s)"; break; }
  if [ $((r % 2)) = 1 ]; then side_run BASE $r; side_run NEW $r; else side_run NEW $r; side_run BASE $r; fi
done
NCU='ncu --metrics gpu__time_duration.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg.per_second -k regex:^gemm --launch-count 1'
for side in NEW BASE; do
  [ "$SECONDS" -gt 350 ] && { echo "== no time left for ncu $side (t=${SECONDS}s)"; continue; }
  if [ "$side" = BASE ]; then dir=$BASE; else dir=$NEW; fi
  install "$dir"
  ( cd "$dir" && timeout 40 $NCU lasscc run benchmarks/s10_pers_tma_f16.mlir --arch sm_90a --m 4096 --n 4096 --k 4096 ) \
    > "$OUT/ncu-$side.log" 2>&1
  echo "== ncu $side (t=${SECONDS}s)"; grep -E "gpu__time_duration|inst_executed|cycles_elapsed" "$OUT/ncu-$side.log"
done
