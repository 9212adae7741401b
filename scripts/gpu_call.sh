#!/usr/bin/env bash
# Ad-hoc GPU call of session 7: suite + examples' PTX + benches (the matrix: scripts/gpu_session.sh matrix)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpu_call}; mkdir -p "$OUT/ptx"
python3 -m pip install -q --no-index --no-deps --no-compile .whl/*.whl || exit 1
export PATH="$(python3 -c 'import os, sys; print(os.path.join(sys.prefix, "bin"))'):$PATH" PYTHONUNBUFFERED=1
python3 -m pip install -q --no-build-isolation --no-deps --no-index -e . >/dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
for f in examples/*.mlir; do lasscc compile $f --no-cache -o "$OUT/ptx/$(basename $f .mlir).ptx" 2>>"$OUT/ptx.err" & done; wait
echo "== bench (predicated epilogue stores)"
lasscc bench examples/gemm_tuned.mlir --sizes 4096,8192 2>&1 | tee "$OUT/bench.log" | tail -8
lasscc bench examples/gemm.mlir --sizes 1000,4096 2>&1 | tee -a "$OUT/bench.log" | tail -6
echo "== test suite (-n $(nproc))"
( time python3 -m pytest -q -n "$(nproc)" --durations=20 tests ) > "$OUT/suite.log" 2>&1
tail -35 "$OUT/suite.log"
