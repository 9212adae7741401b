#!/usr/bin/env bash
# Issue 15's profile on a Hopper GPU: Nsight Compute on one 4096^3 f16 launch of each schedule
# (default, cooperative, cooperative persistent, and any FILE given) and of cuBLAS (torch.matmul),
# sections SpeedOfLight / ComputeWorkloadAnalysis (tensor pipe) / WarpStateStats (stalls) /
# MemoryWorkloadAnalysis.  Set up as scripts/gpu_call.sh does first.  Logs in $OUT.
#     scripts/ncu_profile.sh [FILE.mlir ...]
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/ncu_profile}; mkdir -p "$OUT"
SIZE=${SIZE:-4096}
SECTIONS="--section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy"
ws=$(mktemp --suffix=.mlir)
sed 's/schedule = "cooperative"}/schedule = "cooperative", persistent = 1}/' examples/gemm_wgmma_ws.mlir > "$ws"
ncu --query-metrics 2>/dev/null | grep -iE "pipe_tensor|gmma" | head -20 > "$OUT/metrics.txt"
for f in examples/gemm_tuned.mlir examples/gemm_wgmma_ws.mlir "$ws" "$@"; do
  name=$(basename "$f" .mlir)
  [ "$f" = "$ws" ] && name=ws_persistent
  lasscc compile --arch sm_90a "$f" -o "$OUT/$name.ptx" >/dev/null 2>&1
  ncu $SECTIONS -k regex:'^gemm' --launch-count 1 \
    lasscc run "$f" --arch sm_90a --m "$SIZE" --n "$SIZE" --k "$SIZE" > "$OUT/ncu_$name.txt" 2>&1
  echo "== $name"; grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|Registers Per|Issue Slots Busy|Tensor|Stall|Warp Cycles Per Issued|L2 Hit|Achieved Occupancy|Shared Memory Configuration|Dynamic Shared" "$OUT/ncu_$name.txt" | head -30
done
cat > "$OUT/cublas.py" <<'PY'
import torch
a = torch.randn(SIZE := int(__import__("os").environ.get("SIZE", "4096")), SIZE, device="cuda", dtype=torch.float16)
b = torch.randn(SIZE, SIZE, device="cuda", dtype=torch.float16).t()
for _ in range(3):
    torch.matmul(a, b)
torch.cuda.synchronize()
PY
ncu $SECTIONS --launch-skip 2 --launch-count 1 python3 "$OUT/cublas.py" > "$OUT/ncu_cublas.txt" 2>&1
echo "== cublas"; grep -E "^  [a-z_0-9]+.*\(|Duration|Compute \(SM\) Throughput|Memory Throughput|Registers Per|Issue Slots Busy|Tensor|Warp Cycles Per Issued|L2 Hit|Achieved Occupancy|Cluster|Dynamic Shared" "$OUT/ncu_cublas.txt" | head -30
