"""Instruction counts of a compile's start-up and imports for two commits (issue 16), steadier than
wall or CPU time on a shared machine (valgrind's cachegrind, "I refs"; the same to ~0.1 % on a rerun).

    python3 scripts/import_counts.py BASE HEAD [--whole] [--rounds N] [--dir /tmp/import_counts]

Each commit is laid out as the installed package (`git archive`; dialects/ and passes/ moved into
lasscc/, as pyproject.toml's package-dir installs them), its bytecode compiled and its dataclass-code
file written (one compile with bytecode writing on), and run by this interpreter through PYTHONPATH.
Counted, per commit:
  - `import lasscc.cli`;
  - imports: `import lasscc.cli`, the compile command's parser, then every module that a compile of
    examples/gemm_wgmma_tma_store.mlir (sm_90a) loads in that commit (listed by running it), with the
    garbage collector off as console_main has it; llvmlite.binding as the commit's emit reaches it;
  - with --whole: the whole `lasscc compile --no-cache` of gemm.mlir / gemm_tuned.mlir (sm_80) and
    gemm_wgmma_tma_store.mlir (sm_90a).
All include the interpreter's start-up with this machine's `site` (the same for both commits).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "gemm_wgmma_tma_store.mlir"
CONSOLE = "from lasscc.cli import console_main; console_main()"
WHOLE = [("gemm.mlir", "sm_80"), ("gemm_tuned.mlir", "sm_80"), ("gemm_wgmma_tma_store.mlir", "sm_90a")]

LIST_MODULES = r"""
import os, sys
from lasscc.cli import console_main
real_exit = os._exit
def listing_exit(code):
    open(os.environ["MODULES_OUT"], "w").write("\n".join(m for m in sys.modules if m != "__main__"))
    real_exit(code)
os._exit = listing_exit
sys.argv = ["lasscc"] + sys.argv[1:]
console_main()
"""

IMPORTS = r"""
import os, sys
import lasscc.cli
import gc; gc.disable()
from lasscc.cli import build_parser
build_parser(["compile"]).parse_args(["compile", "x.mlir", "--arch", "sm_90a", "-o", "x.ptx", "--no-cache"])
partial = os.path.exists(os.path.join(os.path.dirname(lasscc.__file__), "llvm_binding.py"))
for m in open(os.environ["MODULES_IN"]).read().split():
    if m == "llvmlite.binding" and partial:
        from lasscc.llvm_binding import binding
        binding()
    elif m not in sys.modules:
        __import__(m)
os._exit(0)
"""


def layout(commit: str, out: Path) -> Path:
    """The commit as the installed package under `out`, bytecode and dataclass code written."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", commit, "lasscc", "dialects", "passes"], cwd=ROOT, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)
    for sub in ("dialects", "passes"):
        (out / sub).rename(out / "lasscc" / sub)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(out)], check=True, capture_output=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for f, arch in WHOLE:
        subprocess.run([sys.executable, "-c", CONSOLE, "compile", str(ROOT / "examples" / f), "-o", os.devnull,
                        "--no-cache", "--arch", arch], env={**env, "PYTHONPATH": str(out)}, cwd=out, check=True)
    return out


def count(args: list[str], env: dict[str, str], cwd: Path) -> int:
    r = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *args],
                       env={**os.environ, **env}, cwd=cwd, capture_output=True, text=True, check=True)
    return int(re.search(r"I\s+refs:\s+([\d,]+)", r.stderr)[1].replace(",", ""))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("base")
    p.add_argument("head")
    p.add_argument("--whole", action="store_true")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--dir", default="/tmp/import_counts")
    a = p.parse_args()
    trees = {}
    for name in ("base", "head"):
        tree = layout(getattr(a, name), Path(a.dir) / name)
        modules = tree / "modules.txt"
        subprocess.run([sys.executable, "-c", LIST_MODULES, "compile", str(EXAMPLE), "-o", os.devnull, "--no-cache",
                        "--arch", "sm_90a"], env={**os.environ, "PYTHONPATH": str(tree), "MODULES_OUT": str(modules)},
                       cwd=tree, check=True)
        trees[name] = (tree, modules)
        print(f"{name} {getattr(a, name)}: {len(modules.read_text().split())} modules in a compile", flush=True)
    for r in range(a.rounds):
        for name, (tree, modules) in trees.items():
            env = {"PYTHONPATH": str(tree), "MODULES_IN": str(modules)}
            cli = count([sys.executable, "-c", "import lasscc.cli"], env, tree)
            imports = count([sys.executable, "-c", IMPORTS], env, tree)
            print(f"round {r + 1} {name}: import lasscc.cli {cli / 1e6:,.1f} M, imports {imports / 1e6:,.1f} M", flush=True)
    if a.whole:
        for f, arch in WHOLE:
            for name, (tree, _) in trees.items():
                n = count([sys.executable, "-c", CONSOLE, "compile", str(ROOT / "examples" / f), "-o", os.devnull,
                           "--no-cache", "--arch", arch], {"PYTHONPATH": str(tree)}, tree)
                print(f"whole {f} {arch} {name}: {n / 1e6:,.1f} M", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
