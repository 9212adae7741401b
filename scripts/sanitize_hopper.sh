#!/usr/bin/env bash
# compute-sanitizer memcheck / racecheck / synccheck / initcheck on three wgmma kernels (issue 14):
# f16 TN 128x256x64/4, bf16 NT 128x128x64/3 with a column-major D (beta 0.5: reads C), tf32
# 64x128x32/3 batched (3-d tensor maps).  Compiles once (scripts/sanitize_hopper.py compile), then
# runs each kernel's checked launch under each tool and prints one summary line per (kernel, tool).
# Usage (GPU machine): scripts/sanitize_hopper.sh            TOOLS="memcheck racecheck" to choose tools,
# ONLY="name ..." to choose kernels (scripts/sanitize_hopper.py names)
set -uo pipefail
cd "$(dirname "$0")/.."
work=${OUT:-/tmp}/sanitize_hopper
mkdir -p "$work"
py=${PYTHON:-python3}
tools=${TOOLS:-"memcheck racecheck synccheck initcheck"}
command -v compute-sanitizer >/dev/null || { echo "compute-sanitizer not on PATH" >&2; exit 2; }
$py scripts/sanitize_hopper.py compile "$work" || exit 1
summary=()
fail=0
for cfg in ${ONLY:-$($py scripts/sanitize_hopper.py names)}; do
  for tool in $tools; do
    log="$work/$cfg.$tool.log"
    start=$SECONDS
    compute-sanitizer --tool "$tool" --target-processes all --error-exitcode 3 \
      $py scripts/sanitize_hopper.py run "$work" "$cfg" >"$log" 2>&1
    rc=$?
    check=$(grep -E "check +(PASS|FAIL)" "$log" | head -1 | awk '{print $2}')
    line=$(grep -E "(ERROR|RACECHECK) SUMMARY" "$log" | tail -1 | sed 's/^========= //')
    [ "$rc" -ne 0 ] && fail=1
    summary+=("$(printf '%-30s %-10s rc=%d check=%-4s %3ds  %s' "$cfg" "$tool" "$rc" "${check:-?}" \
      $((SECONDS - start)) "${line:-no summary line: see $log}")")
    echo "${summary[-1]}"
  done
done
echo; echo "== sanitizer summary (logs in $work)"; printf '%s\n' "${summary[@]}"
exit $fail
