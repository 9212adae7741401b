#!/usr/bin/env bash
# Session 14 (issue 18, epi18d) second GPU call: 8192^3 swung in the first call (scripts/s14_epi18d_call.sh:
# 2 rounds, the plain kernel 1.4671 ms, main's rounds 1.4504 / 1.5334), so main vs the new default again
# with 4 rounds a size-epilogue, beside plain and torch, and 4096^3 bias + GELU f16 D once more (5 rounds).
# Pickles: the first call's, with only plain, ACT-main and ACT (NAME-ab.pkl).
# Usage: OUT=... scripts/s14_epi18d_call2.sh PKL_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
PKL=$1
END=${END:-330}
source scripts/call_steps.sh
ab gelu-f16-8192 80 "$PKL/gelu-f16-ab.pkl" --sizes 8192 --rounds 4 --no-check
ab gelu-f32-8192 80 "$PKL/gelu-f32-ab.pkl" --sizes 8192 --rounds 4 --no-check
ab relu-m-8192 80 "$PKL/relu-m-ab.pkl" --sizes 8192 --rounds 4 --no-check --bias m --activation relu
ab gelu-f16-4096 60 "$PKL/gelu-f16-ab.pkl" --sizes 4096 --rounds 5
echo "all steps done at $((SECONDS - t0)) s; check failures: $(cat "$OUT"/*.log | grep -c FAIL)"
