"""Whether leaving LLVM passes out of the IR pipeline (emit._optimize) or the NVPTX codegen (lasscc.emit.CODEGEN_PASSES_SKIPPED) changes
the PTX: every example's LLVM IR emitted with the pass(es) run and with them skipped, compared by text.

    python3 scripts/codegen_skip_check.py nary-reassociate [--ll-dir DIR]

Without --ll-dir the examples are compiled first (`lasscc compile --emit llvm`, sm_80 and sm_90a;
`gemm_wgmma*` sm_90a only) into a temporary folder.  Each emit runs in its own process: `-opt-disable`
is a process-wide LLVM option.  Exit status 1 when some PTX differs.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_EMIT = """
import sys, time
import lasscc.emit as e
ll, arch, out, run = sys.argv[1:5]
e.CODEGEN_PASSES_SKIPPED = tuple(p for p in e.CODEGEN_PASSES_SKIPPED if p not in run.split(","))
t = time.process_time()
open(out, "w").write(e.to_ptx(open(ll).read(), arch))
print(time.process_time() - t)
"""


def example_ir(folder: Path) -> None:
    for src in sorted((ROOT / "examples").glob("*.mlir")):
        for arch in ("sm_80", "sm_90a"):
            if arch == "sm_80" and src.stem.startswith("gemm_wgmma"):
                continue
            out = folder / f"{src.stem}.{arch}.ll"
            r = subprocess.run([sys.executable, "-m", "lasscc.cli", "compile", str(src), "--arch", arch, "--emit",
                                "llvm", "-o", str(out), "--no-cache"], capture_output=True, text=True)
            if r.returncode:
                print(f"skipped {src.name} {arch}: {r.stderr.strip().splitlines()[-1]}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("passes", help="comma-separated names from CODEGEN_PASSES_SKIPPED to run in the comparison")
    p.add_argument("--ll-dir", type=Path)
    a = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        ll_dir = a.ll_dir
        if ll_dir is None:
            ll_dir = tmp / "ll"
            ll_dir.mkdir()
            example_ir(ll_dir)
        differ, n, cpu = 0, 0, {"run": 0.0, "skipped": 0.0}
        for ll in sorted(ll_dir.glob("*.ll")):
            arch = ll.suffixes[-2].lstrip(".")
            texts = {}
            for mode, run in (("run", a.passes), ("skipped", "")):
                out = tmp / f"{mode}.ptx"
                r = subprocess.run([sys.executable, "-c", _EMIT, str(ll), arch, str(out), run],
                                   capture_output=True, text=True)
                if r.returncode:
                    print(r.stderr)
                    return 2
                cpu[mode] += float(r.stdout)
                texts[mode] = out.read_text()
            n += 1
            if texts["run"] != texts["skipped"]:
                differ += 1
                print(f"PTX differs: {ll.name}")
        print(f"{n} kernels, {differ} with different PTX; to_ptx CPU {cpu['run']:.2f} s with {a.passes}, "
              f"{cpu['skipped']:.2f} s without")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
