"""Every example's LLVM IR and PTX, into one folder, for comparing two versions of the compiler.

    python3 scripts/emit_examples.py OUT_DIR            # the lasscc that `import lasscc` finds
    PYTHONPATH=/some/tree python3 scripts/emit_examples.py OUT_DIR   # another tree (a package layout)
    diff -r BEFORE_DIR AFTER_DIR && echo identical

`examples/*.mlir` for sm_80 and sm_90a, `gemm_wgmma*` for sm_90a only (as scripts/codegen_skip_check.py),
each compiled with `lasscc compile --no-cache --emit llvm` and `--emit ptx` in this process (the CLI's
`main`; LLVM's options are the same for every compile).  Files: `NAME.ARCH.ll` / `NAME.ARCH.ptx`, or
`NAME.ARCH.error` with the message where a compile fails.  A change that must not alter the output
(start-up, the Python passes' speed) leaves the two folders byte-identical.
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def kernels():
    for f in sorted((ROOT / "examples").glob("*.mlir")):
        for arch in ("sm_80", "sm_90a"):
            if f.name.startswith("gemm_wgmma") and arch == "sm_80":
                continue
            yield f, arch


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    from lasscc.cli import main as lasscc_main

    print(f"lasscc from {sys.modules['lasscc'].__file__}", file=sys.stderr)
    failed = 0
    for f, arch in kernels():
        stem = f"{f.stem}.{arch}"
        for emit, ext in (("llvm", "ll"), ("ptx", "ptx")):
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                rc = lasscc_main(["compile", str(f), "--arch", arch, "--no-cache", "--emit", emit,
                                  "-o", str(out / f"{stem}.{ext}")])
            if rc != 0:
                (out / f"{stem}.error").write_text(err.getvalue())
                failed += 1
                break
    n = len(list(kernels()))
    print(f"{n} kernels, {failed} failed to compile -> {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
