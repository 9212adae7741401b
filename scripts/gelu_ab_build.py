"""Build issue 18's GELU A/B kernels (no GPU) into a pickle for scripts/epilogue_ab.py, and count the
SASS instructions of each kernel's epilogue (ptxas + cuobjdump when given).

    python3 scripts/gelu_ab_build.py OUT.pkl [--shape 4096] [--d-dtype f16|bf16|f32] [--cuobjdump PATH]
        [--rolled 2,4] [--activation gelu|relu] [--bias n|m] [--no-f32fit] [--epi18d]

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
  gelu-main / gelu-fma / gelu-unpred   (--epi18d) that kernel without session 14's two epilogue changes
                (main before them), with only the alpha fold (passes/warpgroup_mma.py FOLD_ALPHA:
                fma(alpha, acc, bias)), with only the unpredicated [n] window loads
                (passes/tma_store.py UNPREDICATED_WINDOWS); `gelu` has both
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


OPCODE = re.compile(r"\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)")


def sass_text(ptx: str, tool: str) -> str:
    """The SASS of `ptx` assembled for sm_90a (`tool`: cuobjdump, or nvdisasm)."""
    with tempfile.TemporaryDirectory() as tmp:
        src, cubin = Path(tmp, "k.ptx"), Path(tmp, "k.cubin")
        src.write_text(ptx)
        subprocess.run(["ptxas", "-arch=sm_90a", "-O3", str(src), "-o", str(cubin)], check=True)
        flag = "-c" if "nvdisasm" in Path(tool).name else "-sass"
        return subprocess.run([tool, flag, str(cubin)], check=True, capture_output=True, text=True).stdout


def opcodes(lines) -> collections.Counter:
    ops = collections.Counter()
    for line in lines:
        m = OPCODE.match(line)
        if m:
            ops[m.group(1).split(".")[0]] += 1
    return ops


def sass_counts(ptx: str, tool: str) -> collections.Counter:
    """SASS opcodes of `ptx` assembled for sm_90a."""
    return opcodes(sass_text(ptx, tool).splitlines())


def epilogue_loop(sass: str) -> tuple[collections.Counter, collections.Counter] | None:
    """The TMA-store epilogue's rolled loop (the backward branch after the last STSM / STS to a label
    before the first): its opcodes, and those an iteration of an in-bounds window executes (without the
    blocks a forward branch skips that hold >= 8 LDG: the tail window's predicated [n] loads)."""
    lines = sass.splitlines()
    st = [i for i, ln in enumerate(lines) if re.search(r"\bSTS(M\.|\.)", ln)]  # stmatrix / st.shared
    labels = {m.group(1): i for i, ln in enumerate(lines) if (m := re.match(r"\s*(\.L_x_\d+):", ln))}
    for j in range(st[-1] if st else len(lines), len(lines)):
        m = re.search(r"BRA\s+`\((\.L_x_\d+)\)", lines[j])
        if m and labels.get(m.group(1), len(lines)) < st[0]:
            body = lines[labels[m.group(1)]:j + 1]
            break
    else:
        return None
    skip: set[int] = set()
    for i, ln in enumerate(body):
        m = re.search(r"@!?P\d BRA `\((\.L_x_\d+)\)", ln)
        end = next((k for k in range(i + 1, len(body)) if m and body[k].strip().startswith(m.group(1) + ":")), None)
        if end is not None and sum("LDG" in body[k] for k in range(i, end)) >= 8:
            skip.update(range(i + 1, end))
    return opcodes(body), opcodes(ln for i, ln in enumerate(body) if i not in skip)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--shape", type=int, default=4096)
    p.add_argument("--d-dtype", default="f16", choices=("f16", "bf16", "f32"))
    p.add_argument("--rolled", default="", help="ROLLED_SUBTILES values for gelu-rN variants, e.g. 2,4")
    p.add_argument("--activation", default="gelu", choices=("gelu", "relu", "silu"))
    p.add_argument("--bias", default="n", choices=("n", "m"))
    p.add_argument("--no-f32fit", action="store_true", help="leave out the gelu-f32fit variant")
    p.add_argument("--epi18d", action="store_true", help="add the -main, -fma and -unpred variants")
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
    # session 14 (epi18d): name suffix -> (FOLD_ALPHA, UNPREDICATED_WINDOWS)
    toggles = {"-main": (False, False), "-fma": (True, False), "-unpred": (False, True)} if args.epi18d else {}
    for t in toggles:
        todo[act + t] = todo[act]
    from lasscc.passes.warpgroup_mma import _WarpgroupLowering
    fold, unpred = _WarpgroupLowering.FOLD_ALPHA, tma_store.UNPREDICATED_WINDOWS
    for name, (text, f32fit) in todo.items():
        if f32fit:
            epilogue_math.GELU_FITS[args.d_dtype] = fits["f32"]
        if name.startswith(f"{act}-r"):
            tma_store.ROLLED_SUBTILES = int(name[len(f"{act}-r"):])
        if name[len(act):] in toggles:
            _WarpgroupLowering.FOLD_ALPHA, tma_store.UNPREDICATED_WINDOWS = toggles[name[len(act):]]
        try:
            res = compile_module(parse_mlir(text, f"<{name}>"), "sm_90a", f"<{name}>", keep_stages=False)
        finally:
            epilogue_math.GELU_FITS.update(fits)
            tma_store.ROLLED_SUBTILES = rolled
            _WarpgroupLowering.FOLD_ALPHA, tma_store.UNPREDICATED_WINDOWS = fold, unpred
        spec = res.specs[0]
        kernels[(name, "plain" if name == "plain" else "fused")] = (res.ptx, spec)
        info = ptxas_info(res.ptx, "sm_90a")
        print(f"{name}: {spec.config if hasattr(spec, 'config') else ''} ptxas: {info.line if info else '-'}")
        if args.cuobjdump:
            text_s = sass_text(res.ptx, args.cuobjdump)
            sass[name] = opcodes(text_s.splitlines())
            print(f"  SASS {sum(sass[name].values())} instructions", flush=True)
            loop = epilogue_loop(text_s) if name != "plain" else None
            if loop is not None:
                print(f"  epilogue loop: {sum(loop[0].values())} instructions, an in-bounds window executes "
                      f"{sum(loop[1].values())}: " + ", ".join(f"{op} {c}" for op, c in loop[1].most_common(16)))
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
