"""Build issue 18's GELU A/B kernels (no GPU) into a pickle for scripts/epilogue_ab.py, and count the
SASS instructions of each kernel's epilogue (ptxas + cuobjdump when given).

    python3 scripts/gelu_ab_build.py OUT.pkl [--shape 4096] [--d-dtype f16|bf16|f32] [--cuobjdump PATH]
        [--rolled 2,4] [--activation gelu|relu] [--bias n|m] [--no-f32fit]

Variants (f16 in for an f16 D, bf16 for bf16 (an f32 accumulator's rule), D of --d-dtype, bias [n] f32 + GELU (erf), the shape default's persistent
cooperative TMA-store kernel, 128x256x64 / 4 stages; --activation / --bias change the epilogue, and the
variants' names take the activation's (relu, relu-rN); an f32 D (f16 in) has no gelu-f32fit: its fit is that one):
  plain         that kernel without the epilogue (the reference)
  gelu-f32fit   fused with lass.gelu's f32 polynomial (degree 10, 14 instructions: before session 13,
                when the formula did not depend on D's type)
  gelu          fused with lass.gelu as lasscc-fuse-epilogue makes it now: rounded_to = D's type, its
                GELU_FITS entry (degree 5, 9 instructions)
  gelu-rN       (--rolled N,...) that kernel with passes/tma_store.ROLLED_SUBTILES = N (subtiles an
                iteration of the fused epilogue's rolled subtile loop; 4 = all: no loop, no shift moves)
"""

from __future__ import annotations

import argparse
import collections
import pickle
import re
import subprocess
import sys
import tempfile
from pathlib import Path


def variants(size: int, d_type: str, activation: str = "gelu", bias: str = "n",
             f32fit: bool = True) -> dict[str, tuple[str, bool]]:
    """name -> (MLIR text, the f32 polynomial for D's type)."""
    from lasscc.api import _shape_default, gemm_mlir
    from lasscc.epilogue_api import EpilogueSpec, gemm_epilogue_mlir

    spec = EpilogueSpec(bias=bias, activation=activation)
    ab = "bf16" if d_type == "bf16" else "f16"
    tb, _, stages, _, _, kernel = _shape_default((size, size, size), ab, 132, "sm_90a", None, None, d_type)
    text = gemm_mlir(ab, None, d_type, "TN", 1.0, 0.0, tb, None, stages, 8, "gemm", kernel=kernel)
    fused = gemm_epilogue_mlir(spec, text)
    out = {"plain": (text, False), activation: (fused, False)}
    if activation == "gelu" and d_type != "f32" and f32fit:
        out["gelu-f32fit"] = (fused, True)
    return out


def sass_counts(ptx: str, cuobjdump: str) -> collections.Counter:
    """SASS opcodes of `ptx` assembled for sm_90a."""
    with tempfile.TemporaryDirectory() as tmp:
        src, cubin = Path(tmp, "k.ptx"), Path(tmp, "k.cubin")
        src.write_text(ptx)
        subprocess.run(["ptxas", "-arch=sm_90a", "-O3", str(src), "-o", str(cubin)], check=True)
        sass = subprocess.run([cuobjdump, "-sass", str(cubin)], check=True, capture_output=True, text=True).stdout
    ops = collections.Counter()
    for line in sass.splitlines():
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
        if m:
            ops[m.group(1).split(".")[0]] += 1
    return ops


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--shape", type=int, default=4096)
    p.add_argument("--d-dtype", default="f16", choices=("f16", "bf16", "f32"))
    p.add_argument("--rolled", default="", help="ROLLED_SUBTILES values for gelu-rN variants, e.g. 2,4")
    p.add_argument("--activation", default="gelu", choices=("gelu", "relu", "silu"))
    p.add_argument("--bias", default="n", choices=("n", "m"))
    p.add_argument("--no-f32fit", action="store_true", help="leave out the gelu-f32fit variant")
    p.add_argument("--cuobjdump", default=None)
    args = p.parse_args()

    from lasscc.driver import compile_module
    from lasscc.emit import ptxas_info
    from lasscc import epilogue_math
    from lasscc.passes import tma_store
    from lasscc.source import parse_mlir

    kernels, sass = {}, {}
    fits, rolled = dict(epilogue_math.GELU_FITS), tma_store.ROLLED_SUBTILES
    act = args.activation
    todo = variants(args.shape, args.d_dtype, act, args.bias, not args.no_f32fit)
    for r in filter(None, args.rolled.split(",")):
        todo[f"{act}-r{r}"] = todo[act]
    for name, (text, f32fit) in todo.items():
        if f32fit:
            epilogue_math.GELU_FITS[args.d_dtype] = fits["f32"]
        if name.startswith(f"{act}-r"):
            tma_store.ROLLED_SUBTILES = int(name[len(f"{act}-r"):])
        try:
            res = compile_module(parse_mlir(text, f"<{name}>"), "sm_90a", f"<{name}>", keep_stages=False)
        finally:
            epilogue_math.GELU_FITS.update(fits)
            tma_store.ROLLED_SUBTILES = rolled
        spec = res.specs[0]
        kernels[(name, "plain" if name == "plain" else "fused")] = (res.ptx, spec)
        info = ptxas_info(res.ptx, "sm_90a")
        print(f"{name}: {spec.config if hasattr(spec, 'config') else ''} ptxas: {info.line if info else '-'}")
        if args.cuobjdump:
            sass[name] = sass_counts(res.ptx, args.cuobjdump)
            print(f"  SASS {sum(sass[name].values())} instructions", flush=True)
    if sass:
        base = sass["plain"]
        for name, ops in sass.items():
            if name == "plain":
                continue
            extra = ops - base
            print(f"{name} - plain: +{sum(ops.values()) - sum(base.values())} SASS: "
                  + ", ".join(f"{op} {c}" for op, c in extra.most_common(14)))
        if "gelu-f32fit" in sass:
            d = sass["gelu-f32fit"] - sass["gelu"]
            print(f"gelu-f32fit - gelu: {sum(sass['gelu-f32fit'].values()) - sum(sass['gelu'].values())} SASS: "
                  + ", ".join(f"{op} {c}" for op, c in d.most_common(14)))
    with open(args.out, "wb") as f:
        pickle.dump(kernels, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
