# Sourced by the one-off GPU call scripts (scripts/s1*_call*.sh) after `cd` to the project root, with END (the
# seconds from the start by which every step's timeout ends: the call's limit) and optionally TAIL set: sets up
# the GPU machine as scripts/gpu_call.sh does and defines
#   step NAME TIMEOUT COMMAND...   the command's output in $OUT/NAME.log, then its last TAIL lines (default: all)
#   ab NAME TIMEOUT ARGS...        step running scripts/epilogue_ab.py ARGS
OUT=${OUT:-/tmp/gpu_call}; mkdir -p "$OUT"
t0=$SECONDS
OUT=$OUT scripts/gpu_call.sh > "$OUT/setup.log" 2>&1
export PATH="$(python3 -c 'import os, sys; print(os.path.join(sys.prefix, "bin"))'):$PATH" PYTHONUNBUFFERED=1
cat "$OUT/gpu.txt"; echo "setup $((SECONDS - t0)) s"
END=${END:-560}
lim() { local l=$1 left=$((END - SECONDS + t0)); echo $(( left < l ? (left > 1 ? left : 1) : l )); }
step() {
  local name=$1 lim; lim=$(lim "$2"); shift 2
  timeout "$lim" "$@" > "$OUT/$name.log" 2>&1
  echo "== $name rc=$? at $((SECONDS - t0)) s"
  if [ "${TAIL:-0}" -gt 0 ]; then tail -"$TAIL" "$OUT/$name.log"; else cat "$OUT/$name.log"; fi
}
ab() { local name=$1 l=$2; shift 2; step "$name" "$l" python3 scripts/epilogue_ab.py "$@"; }
