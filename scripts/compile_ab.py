"""Cold-compile time of two lasscc installs, interleaved (issue 16's A/B; session 14, compile16e).

    python3 scripts/compile_ab.py [--runs 5] [--timing] [--a EXE:DIR] [--b EXE:DIR] EXAMPLE:ARCH ...

EXAMPLE is a file name under DIR/examples without `.mlir` (gemm_bias_gelu:sm_80).  A and B default to main's
system install (/work/main) and this branch's venv.  Each case is compiled once by each (a warm-up: bytecode),
then `--runs` rounds of A then B (`lasscc compile DIR/examples/X.mlir --arch A -o ... --no-cache`, a new process
each, with bytecode).  Prints the median wall and CPU (user + sys of the process, os.wait4) seconds per case and
every run's CPU; with `--timing`, instead the median of each `--timing` phase's user seconds.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

PHASE = re.compile(r"\s+([\d.]+) \(\s*[\d.]+%\)\s+[\d.]+ \(\s*[\d.]+%\)  (\S.*)$")


def run(exe: str, cwd: str, case: str, out: str, timing: bool):
    f, arch = case.split(":")
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cmd = [exe, "compile", f"examples/{f}.mlir", "--arch", arch, "-o", out, "--no-cache"] + (["--timing"] if timing else [])
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
    text = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    if status:
        sys.exit(f"compile_ab: {' '.join(cmd)} failed in {cwd}:\n{text}")
    phases = {m.group(2): float(m.group(1)) for m in map(PHASE.match, text.splitlines()) if m}
    return time.perf_counter() - t0, ru.ru_utime + ru.ru_stime, phases


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("cases", nargs="+")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--timing", action="store_true")
    p.add_argument("--a", default="/root/.pyenv/versions/3.11.7/bin/lasscc:/work/main")
    p.add_argument("--b", default="/work/venv-compile16e/bin/lasscc:/work/wt-compile16e")
    args = p.parse_args()
    sides = {"A": args.a.split(":"), "B": args.b.split(":")}
    out = tempfile.mkdtemp()
    res: dict = {}
    for case in args.cases:
        for k, (exe, cwd) in sides.items():
            run(exe, cwd, case, f"{out}/{k}.ptx", False)
    for _ in range(args.runs):
        for case in args.cases:
            for k, (exe, cwd) in sides.items():
                res.setdefault((case, k), []).append(run(exe, cwd, case, f"{out}/{k}.ptx", args.timing))
    print(f"A = {args.a}, B = {args.b}; {args.runs} runs; load after {os.getloadavg()}")
    for case in args.cases:
        a, b = res[(case, "A")], res[(case, "B")]
        if args.timing:
            print(f"{case}: --timing user s, median (A | B)")
            for name in a[0][2]:
                ma, mb = (statistics.median(r[2].get(name, 0.0) for r in x) for x in (a, b))
                if max(ma, mb) >= 0.01:
                    print(f"| {name} | {ma:.3f} | {mb:.3f} |")
            continue
        med = lambda xs, i: statistics.median(x[i] for x in xs)  # noqa: E731
        print(f"{case}: wall {med(a, 0):.2f} -> {med(b, 0):.2f} s; CPU {med(a, 1):.2f} -> {med(b, 1):.2f} s; "
              f"CPU runs A {' '.join(f'{x[1]:.2f}' for x in a)} / B {' '.join(f'{x[1]:.2f}' for x in b)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
