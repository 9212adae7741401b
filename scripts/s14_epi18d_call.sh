#!/usr/bin/env bash
# Session 14 (issue 18, epi18d) GPU call: the Hopper TMA-store epilogue's last instructions an element,
# (scripts/epilogue_ab.py on scripts/gelu_ab_build.py --epi18d's pickles): plain, ACT-main (main before
# session 14), ACT-fma (only the alpha fold: fma(alpha, acc, bias), passes/warpgroup_mma.py FOLD_ALPHA),
# ACT-unpred (only the unpredicated [n] window loads, passes/tma_store.py UNPREDICATED_WINDOWS), ACT (both),
# for bias [n] + GELU f16 D, bias [n] + GELU f32 D and bias [m] + ReLU f16 D (the guard).
# Every fused kernel is checked against float64 at 1000x1032x520 and 1032x1000x264 (alpha 1 and 1.5:
# partial tiles, the tail windows' predicated path) and at 4096^3 first; the 8192^3 runs time the same
# pickles unchecked.
# Usage: OUT=... scripts/s14_epi18d_call.sh PKL_DIR   (gelu-f16.pkl, gelu-f32.pkl, relu-m.pkl built on the CPU machine)
set -uo pipefail
cd "$(dirname "$0")/.."
PKL=$1
END=${END:-560}
source scripts/call_steps.sh
ODD=1000x1032x520,1032x1000x264
ab gelu-f16-4096 110 "$PKL/gelu-f16.pkl" --sizes 4096 --rounds 7 --check-shapes $ODD
ab gelu-f32-4096 90 "$PKL/gelu-f32.pkl" --sizes 4096 --rounds 5 --check-shapes $ODD
ab relu-m-4096 70 "$PKL/relu-m.pkl" --sizes 4096 --rounds 5 --bias m --activation relu --check-shapes $ODD
ab gelu-f16-8192 60 "$PKL/gelu-f16.pkl" --sizes 8192 --rounds 2 --no-check
ab gelu-f32-8192 60 "$PKL/gelu-f32.pkl" --sizes 8192 --rounds 2 --no-check
ab relu-m-8192 50 "$PKL/relu-m.pkl" --sizes 8192 --rounds 2 --no-check --bias m --activation relu
echo "all steps done at $((SECONDS - t0)) s; check failures: $(cat "$OUT"/*-4096.log | grep -c FAIL)"
