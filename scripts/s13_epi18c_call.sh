#!/usr/bin/env bash
# Session 13 (issue 18, epi18c) GPU call: the fused epilogue's rolled subtile loop, ROLLED_SUBTILES 1
# (the default) vs 2 (two subtiles a window: half the accumulator shift moves), across epilogues:
# bias [n] + GELU f16 D, bias [n] + GELU f32 D, bias [m] + ReLU f16 D (scripts/epilogue_ab.py on
# gelu_ab_build.py's pickles: plain, ACT (1), ACT-r2), and scale [m] + bias [n] + SiLU + residual [mn]
# (scripts/residual_ab.py: plain-kernel, persistent-preload-mn (1), persistent-preload-mn-r2).
# Every fused kernel is checked against float64 (at 4096^3; the residual also at 1000x1032x520) first;
# the 8192^3 runs time the same pickles unchecked.
# Usage: OUT=... scripts/s13_epi18c_call.sh PKL_DIR   (gelu-f16.pkl, gelu-f32.pkl, relu-m.pkl, res.pkl
# built on the CPU machine)
set -uo pipefail
cd "$(dirname "$0")/.."
PKL=$1
END=${END:-348}
source scripts/call_steps.sh
ab gelu-f16-4096 55 "$PKL/gelu-f16.pkl" --sizes 4096 --rounds 5
ab gelu-f32-4096 50 "$PKL/gelu-f32.pkl" --sizes 4096 --rounds 5
ab relu-m-4096 50 "$PKL/relu-m.pkl" --sizes 4096 --rounds 5 --bias m --activation relu
timeout "$(lim 50)" python3 scripts/residual_ab.py time "$PKL/res.pkl" --sizes 4096 --rounds 5 > "$OUT/residual-4096.log" 2>&1
echo "== residual-4096 rc=$? at $((SECONDS - t0)) s"; cat "$OUT/residual-4096.log"
ab gelu-f16-8192 40 "$PKL/gelu-f16.pkl" --sizes 8192 --rounds 2 --no-check
ab gelu-f32-8192 40 "$PKL/gelu-f32.pkl" --sizes 8192 --rounds 2 --no-check
ab relu-m-8192 40 "$PKL/relu-m.pkl" --sizes 8192 --rounds 2 --no-check --bias m --activation relu
timeout "$(lim 40)" python3 scripts/residual_ab.py time "$PKL/res.pkl" --sizes 8192 --rounds 2 > "$OUT/residual-8192.log" 2>&1
echo "== residual-8192 rc=$? at $((SECONDS - t0)) s (checks at 1000x1032x520 and 8192^3 first)"; cat "$OUT/residual-8192.log"
