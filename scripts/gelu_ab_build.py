"""Build issue 18's GELU A/B kernels (no GPU) into a pickle for scripts/epilogue_ab.py, and count the
SASS instructions of each kernel's epilogue (ptxas + cuobjdump when given).

    python3 scripts/gelu_ab_build.py OUT.pkl [--shape 4096] [--cuobjdump PATH]

Variants (f16 in, f16 D, bias [n] f32 + GELU (erf), 128x256x64 / 4 stages unless said):
  plain         the persistent cooperative TMA-store kernel without the epilogue (the reference)
  pers-erf      that kernel fused, GELU's erf form composed (lasscc-fuse-epilogue's RECOGNIZE_GELU off:
                math.erf + mul / add, as before session 12)
  pers-gelu     fused with lass.gelu (lasscc.epilogue_math.gelu)
  pers-gelu-p8  the same with a degree-8 fit of P (P8 below: 2 FMAs an element fewer, 4.9 ulp instead of
                2.2 for x >= -1; scripts/fit_erf.py's GELU fit at degree 8): does the count still matter?
  default-gelu  what lasscc.gemm(shape=(S, S, S), bias="n", activation="gelu") builds (its shape default
                for a fused epilogue: no persistent / TMA-store keys) -- is the persistent kernel faster?
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


# scripts/fit_erf.py's GELU fit at degree 8 (an A/B variant only)
P8 = (-0.9999997615814209, -1.1511157751083374, -0.4591297507286072, -0.05271530896425247, 0.007359285373240709,
      -0.0003501863975543529, -0.00010253072832711041, 2.2600528609473258e-05, -1.4930647012079135e-06)


def variants(size: int) -> dict[str, tuple[str, bool]]:
    """name -> (MLIR text, recognize GELU)."""
    from lasscc.api import _shape_default, gemm_mlir
    from lasscc.epilogue_api import EpilogueSpec, gemm_epilogue_mlir

    spec = EpilogueSpec(bias="n", activation="gelu")
    out = {}
    for name, d in (("pers", "f16"), ("default", None)):
        tb, _, stages, _, _, kernel = _shape_default((size, size, size), "f16", 132, "sm_90a", None, None, d)
        text = gemm_mlir("f16", None, "f16", "TN", 1.0, 0.0, tb, None, stages, 8, "gemm", kernel=kernel)
        if name == "pers":
            out["plain"] = (text, True)
            out["pers-erf"] = (gemm_epilogue_mlir(spec, text), False)
            out["pers-gelu"] = (gemm_epilogue_mlir(spec, text), True)
            out["pers-gelu-p8"] = (gemm_epilogue_mlir(spec, text), True)
        else:
            out["default-gelu"] = (gemm_epilogue_mlir(spec, text), True)
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
    p.add_argument("--cuobjdump", default=None)
    args = p.parse_args()

    from lasscc.driver import compile_module
    from lasscc.emit import ptxas_info
    from lasscc import epilogue_math
    from lasscc.passes import fuse_epilogue
    from lasscc.source import parse_mlir

    kernels, sass = {}, {}
    for name, (text, recognize) in variants(args.shape).items():
        fuse_epilogue.RECOGNIZE_GELU = recognize
        fit = epilogue_math.GELU_LOG2_PHI
        if name.endswith("-p8"):
            epilogue_math.GELU_LOG2_PHI = P8
        try:
            res = compile_module(parse_mlir(text, f"<{name}>"), "sm_90a", f"<{name}>", keep_stages=False)
        finally:
            fuse_epilogue.RECOGNIZE_GELU = True
            epilogue_math.GELU_LOG2_PHI = fit
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
        if "pers-erf" in sass and "pers-gelu" in sass:
            d = sass["pers-erf"] - sass["pers-gelu"]
            print(f"pers-erf - pers-gelu: {sum(sass['pers-erf'].values()) - sum(sass['pers-gelu'].values())} SASS: "
                  + ", ".join(f"{op} {c}" for op, c in d.most_common(14)))
    with open(args.out, "wb") as f:
        pickle.dump(kernels, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
