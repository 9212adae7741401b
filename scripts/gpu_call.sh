#!/usr/bin/env bash
# GPU call (sessions 7-8): set up as scripts/gpu_session.sh, then WHAT (space-separated): suite, split,
# epilogue, ebench, hopmatrix, sanitize, hopper, streamk (the stream-K matrix), skinny (issue 17's table).  Logs in $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpu_call}; mkdir -p "$OUT"
python3 -m pip install -q --no-index --no-deps --no-compile .whl/*.whl || exit 1
export PATH="$(python3 -c 'import os, sys; print(os.path.join(sys.prefix, "bin"))'):$PATH" PYTHONUNBUFFERED=1
python3 -m pip install -q --no-build-isolation --no-deps --no-index -e . >/dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
for what in "$@"; do
  case $what in
    suite) ( time python3 -m pytest -q -n auto --dist loadfile --durations=10 tests ) > "$OUT/suite.log" 2>&1
           grep -E "passed|failed|^FAILED|^ERROR" "$OUT/suite.log" | tail -25 ;;
    split) python3 scripts/gpu_matrix.py --arch sm_90a --split-only > "$OUT/split.log" 2>&1
           grep -E "compiled|FAIL|kernels" "$OUT/split.log" | head -20; tail -25 "$OUT/split.log"
           echo "split failures: $(grep -c FAIL "$OUT/split.log")" ;;
    epilogue) python3 scripts/gpu_matrix.py --arch sm_90a --epilogue-only > "$OUT/epi.log" 2>&1
           grep -E "compiled|FAIL|kernels" "$OUT/epi.log" | head -20; tail -8 "$OUT/epi.log"
           echo "epilogue failures: $(grep -c FAIL "$OUT/epi.log")" ;;
    ebench) python3 scripts/epilogue_bench.py --sizes 4096,8192 --d-dtype f16 2>&1 | tee "$OUT/ebench.log" | tail -14 ;;
    hopmatrix) python3 scripts/gpu_matrix.py --hopper > "$OUT/hopmatrix.log" 2>&1
           grep -E "compiled|FAIL|kernels" "$OUT/hopmatrix.log" | head -20; tail -4 "$OUT/hopmatrix.log" ;;
    sanitize) OUT="$OUT" scripts/sanitize_hopper.sh > "$OUT/sanitize.log" 2>&1; tail -14 "$OUT/sanitize.log" ;;
    hopper) python3 scripts/hopper_check.py 2>&1 | tee "$OUT/hopper.log" | tail -40 ;;
    streamk) python3 scripts/gpu_matrix.py --arch sm_90a --streamk-only > "$OUT/streamk.log" 2>&1
           grep -E "compiled|FAIL|kernels" "$OUT/streamk.log" | head -20; tail -22 "$OUT/streamk.log"
           echo "stream-K failures: $(grep -c FAIL "$OUT/streamk.log")" ;;
    skinny) python3 scripts/skinny_bench.py 2>&1 | tee "$OUT/skinny.log" | tail -30 ;;
    hopws) timeout 270 python3 scripts/hopper_ws_check.py 2>&1 | tee "$OUT/hopws.log" | tail -60 ;;
  esac
done
