"""Launch one compiled GEMM a few times (for ncu / compute-sanitizer on the GPU machine).

    python3 scripts/profile_once.py examples/gemm.mlir 4096 [lasscc compile options...]
Writes the PTX and cubin-less SASS inputs to $OUT (or /tmp) as kernel.ptx.
"""

import os
import sys

from lasscc.cli import build_parser
from lasscc.options import Options, apply_overrides
from lasscc.driver import compile_module
from lasscc.runtime.gemm_runner import run_gemm
from lasscc.source import parse_mlir, read_file

path, size, *rest = sys.argv[1:]
args = build_parser().parse_args(["compile", path, *rest])
module = parse_mlir(read_file(path), path)
apply_overrides(module, Options.from_args(args), path)
res = compile_module(module, args.arch or "sm_80", path)
out = os.environ.get("OUT", "/tmp")
open(os.path.join(out, "kernel.ptx"), "w").write(res.ptx)
n = int(size)
r = run_gemm(res.ptx, res.specs[0], n, n, n, check=False, bench=True, warmup=2, iters=3, cublas=False)
print(f"{r['tflops']:.1f} TFLOP/s")
