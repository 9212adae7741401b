#!/usr/bin/env bash
# Opcode counts of a compiled kernel's SASS (static, whole kernel): ptxas for sm_90a, then cuobjdump.
#     scripts/sass_count.sh FILE.mlir [OPCODE_REGEX]   (lasscc compile --arch sm_90a first)
set -uo pipefail
f=$1; pat=${2:-'R2UR|HGMMA|UIADD3|LOP3|IMAD|SHFL'}
tmp=$(mktemp -d)
lasscc compile --arch sm_90a "$f" -o "$tmp/k.ptx" >/dev/null || exit 1
ptxas -arch=sm_90a -O3 "$tmp/k.ptx" -o "$tmp/k.cubin" || exit 1
cuobjdump -sass "$tmp/k.cubin" | grep -oE '^\s+/\*[0-9a-f]+\*/\s+(@!?U?P[T0-9]+\s+)?[A-Z0-9_.]+' | awk '{print $NF}' \
  | sed 's/\..*//' | sort | uniq -c | sort -rn | grep -E "$pat" | head -20
