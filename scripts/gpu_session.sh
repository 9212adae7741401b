#!/usr/bin/env bash
# One GPU-machine call: set up (../shared/GUIDE.md section 4, wheels in .whl incl. pytest-xdist and
# execnet), then the whole test suite on the machine's cores (GPU tests included), the GPU matrix
# (every layout x type x odd shape, linalg.matmul inputs too) and the issue reproducers on the GPU.
# Logs land in $OUT.  Usage: scripts/gpu_session.sh [suite|matrix|all]
set -uo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
OUT=${OUT:-/tmp/gpu_session}; mkdir -p "$OUT"
# into the machine's own Python (not --target + PYTHONPATH: lit's `not` runs its commands without
# the caller's PYTHONPATH, so those RUN lines could not import xdsl or filecheck)
python3 -m pip install -q --no-index --no-deps --no-compile .whl/*.whl || exit 1
export PATH="$(python3 -c 'import os, sys; print(os.path.join(sys.prefix, "bin"))'):$PATH" PYTHONUNBUFFERED=1
python3 -m pip install -q --no-build-isolation --no-deps --no-index -e . >/dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
if [[ $what == all || $what == suite ]]; then
  echo "== test suite (README command, -n auto --dist loadfile)"
  ( time python3 -m pytest -q -n auto --dist loadfile --durations=30 tests ) > "$OUT/suite.log" 2>&1
  tail -45 "$OUT/suite.log"
fi
if [[ $what == all || $what == matrix ]]; then
  # the randomized CPU-executor test at a few hundred cases, 4 seeds side by side on the host's cores
  for seed in 11 12 13 14; do nice -n 19 python3 -m lasscc.fuzz --cases 100 --seed $seed > "$OUT/fuzz-$seed.log" 2>&1 & done
  echo "== reproducers on the GPU"
  lasscc run examples/linalg_matmul.mlir --m 129 --n 70 --k 33 --check 2>&1 | tee "$OUT/repro.log"
  lasscc run examples/linalg_matmul.mlir --m 4097 --n 1000 --k 333 --check --beta 0.5 2>&1 | tee -a "$OUT/repro.log"
  echo "== GPU matrix"
  python3 scripts/gpu_matrix.py --arch sm_90a > "$OUT/matrix.log" 2>&1
  grep -E "compiled|FAIL|kernels|^\|.*ratio|TFLOP" "$OUT/matrix.log" | head -20; tail -12 "$OUT/matrix.log"
  echo "failures: $(grep -c FAIL "$OUT/matrix.log")"
  wait
  echo "== randomized test"; tail -qn 1 "$OUT"/fuzz-*.log
fi
