#!/usr/bin/env bash
# Session 13 (issue 15, sk15) GPU call 3: free-clock rounds of the data-parallel default against
# "streamk-tail" (scripts/hopper_variants.py: cuBLAS interleaved in the same process, every kernel
# checked vs float64), alternating, at 4096^3 / 8192^3 (f16 -> f16, bf16 -> f32), after locked-clock
# durations at 8192^3 for bf16 -> bf16 and f16 -> f32 (Nsight Compute, as call 2); then the sm_90a default through `lasscc bench` of an input without config
# (run while this branch's heuristics took "streamk-tail" at 8192^3; reverted after this call).  Set up as gpu_call.sh.  At most 8 files in $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/s13_call3}; mkdir -p "$OUT"
export LASSCC_CACHE_DIR=$(mktemp -d)
TMP=$(mktemp -d)
# locked clocks (Nsight Compute, gpu__time_duration of every launch of `lasscc bench`, cuBLAS's too)
# for the other two default type pairs at 8192^3
for v in s13_pers_tma_bf16bf16:dp_bf16bf16 s13_pers_tma_sktail_bf16bf16:sktail_bf16bf16 \
         s13_pers_tma_f16f32:dp_f16f32 s13_pers_tma_sktail_f16f32:sktail_f16f32; do
  n=${v##*:}_8192
  timeout 50 ncu --metrics gpu__time_duration.sum --csv -k regex:'^(gemm|nvjet|sm90)' \
    lasscc bench "benchmarks/${v%%:*}.mlir" --arch sm_90a --sizes 8192 --iters 6 > "$TMP/$n.csv" 2> "$TMP/$n.err"
  python3 - "$TMP/$n.csv" "$n" <<'PY'
import csv, statistics, sys
by = {}
for r in csv.DictReader(l for l in open(sys.argv[1]) if l.startswith('"')):
    if r.get("Metric Name") == "gpu__time_duration.sum":
        by.setdefault(r["Kernel Name"][:40], []).append(float(r["Metric Value"].replace(",", "")) / 1000)  # ns -> us
for k, v in by.items():
    print(f"{sys.argv[2]:<24} {k:<40} n={len(v):>2} median {statistics.median(v):9.2f} us  min {min(v):9.2f} us")
PY
done 2>&1 | tee "$OUT/locked.log"
K='128x256x64,4,schedule = "cooperative", persistent = 1, epilogue = "tma"'
T=', split_k_mode = "streamk-tail"'
args=()
for r in 1 2 3; do
  if [ $r = 2 ]; then  # round 2 tail first
    args+=(--case "f16,f16,$K$T" --case "f16,f16,$K" --case "bf16,f32,$K$T" --case "bf16,f32,$K")
  else
    args+=(--case "f16,f16,$K" --case "f16,f16,$K$T" --case "bf16,f32,$K" --case "bf16,f32,$K$T")
  fi
done
timeout 230 python3 scripts/hopper_variants.py --sizes 4096,8192 "${args[@]}" > "$OUT/variants.log" 2>&1
tail -27 "$OUT/variants.log"
timeout 60 lasscc bench examples/gemm_tuned.mlir --arch sm_90a --sizes 8192 > "$OUT/default.log" 2>&1
grep -E "shape-aware|8192|rel_err" "$OUT/default.log" | cut -c1-400 | head -8
