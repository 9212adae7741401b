"""Session 14 (compile16e, issue 16): the mma.sync bias [n] + GELU kernels of two compiler trees into
one pickle for scripts/epilogue_ab.py (no GPU here; the GPU times them in one process).

    python3 scripts/s14_compile16e_build.py OUT.pkl NAME [--plain]

Compiles, with the lasscc that `import lasscc` finds (run it once with main's interpreter and once with
the branch's), for sm_90a with an f16 D: the fused epilogue on the mma.sync path in epilogue_bench's
default config (256x128x64, warp 64x64x64, 4 stages, prefetch 1) as variant NAME-256, and the config
of examples/gemm_bias_gelu.mlir (128x128x32, warp 64x64x32, 3 stages) as NAME-128; `--plain` adds the
plain 256x128x64 kernel (the overhead's reference, variant "plain").  An existing OUT.pkl is extended.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path

CONFIGS = {"256": ("256x128x64", "64x64x64", 4, 1), "128": ("128x128x32", "64x64x32", 3, 0)}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("name")
    p.add_argument("--plain", action="store_true")
    args = p.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from epilogue_bench import kernel_texts

    from lasscc.driver import compile_module
    from lasscc.source import parse_mlir

    out = Path(args.out)
    kernels = pickle.loads(out.read_bytes()) if out.exists() else {}
    for tag, (tb, warp, stages, prefetch) in CONFIGS.items():
        ns = argparse.Namespace(mma="mma.sync", threadblock=tb, warp=warp, stages=stages, prefetch=prefetch,
                                d_dtype="f16", activation="gelu")
        plain, fused, _ = kernel_texts(ns)
        todo = [(f"{args.name}-{tag}", "fused", fused)] + ([("plain", "plain", plain)] if args.plain and tag == "256" else [])
        for variant, kind, text in todo:
            res = compile_module(parse_mlir(text, f"<{variant}>"), "sm_90a", f"<{variant}>", keep_stages=False)
            kernels[(variant, kind)] = (res.ptx, res.specs[0])
            print(f"{variant}/{kind}: {len(res.ptx.splitlines())} PTX lines")
    out.write_bytes(pickle.dumps(kernels))
    return 0


if __name__ == "__main__":
    sys.exit(main())
