#!/usr/bin/env bash
# Session 13 (issue 15, sk15) GPU call 2: locked-clock kernel durations (Nsight Compute, one metric,
# gpu__time_duration, every launch of `lasscc bench`: ours and cuBLAS's interleaved, caches flushed
# before each as ncu does) of the data-parallel default against "streamk-tail" / "streamk-dp" at
# 6144^3 and 8192^3 (f16 -> f16, bf16 -> f32), then free-clock rounds at 4096 / 6144 / 8192
# (scripts/hopper_variants.py, every kernel checked vs float64).  Set up as gpu_call.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/s13_call2}; mkdir -p "$OUT"
export LASSCC_CACHE_DIR=$(mktemp -d)
summ() {  # ncu CSV -> kernel, launches, median / min duration (us)
  python3 - "$1" "$2" <<'PY'
import csv, statistics, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if l.startswith('"'))
        if r.get("Metric Name") == "gpu__time_duration.sum"]
by = {}
for r in rows:
    v = float(r["Metric Value"].replace(",", ""))
    v = v / 1000  # ncu reports gpu__time_duration in ns here
    by.setdefault(r["Kernel Name"][:40], []).append(v)
for k, v in by.items():
    print(f"{sys.argv[2]:<28} {k:<40} n={len(v):>2} median {statistics.median(v):9.2f} us  min {min(v):9.2f} us")
PY
}
for s in 6144 8192; do
  for v in s10_pers_tma_f16:dp_f16 s13_pers_tma_sktail_f16:sktail_f16 s13_pers_tma_skdp_f16:skdp_f16 \
           s13_pers_tma_bf16f32:dp_bf16f32 s13_pers_tma_sktail_bf16f32:sktail_bf16f32; do
    f=benchmarks/${v%%:*}.mlir; n=${v##*:}_$s
    timeout 60 ncu --metrics gpu__time_duration.sum --csv -k regex:'^(gemm|nvjet|sm90)' \
      lasscc bench "$f" --arch sm_90a --sizes $s --iters 6 > "$OUT/ncu_$n.csv" 2> "$OUT/ncu_$n.err"
    summ "$OUT/ncu_$n.csv" "$n"
  done
done 2>&1 | tee "$OUT/locked.log"
C='f16,f16,128x256x64,4,schedule = "cooperative", persistent = 1, epilogue = "tma"'
B='bf16,f32,128x256x64,4,schedule = "cooperative", persistent = 1, epilogue = "tma"'
T=', split_k_mode = "streamk-tail"'
args=()
for r in 1 2; do
  args+=(--case "$C" --case "$C$T" --case "$B" --case "$B$T")
done
timeout 150 python3 scripts/hopper_variants.py --sizes 6144,8192 "${args[@]}" > "$OUT/variants.log" 2>&1
tail -20 "$OUT/variants.log"
