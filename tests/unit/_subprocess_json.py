"""A Python snippet run in a fresh interpreter (a process of its own: what `import lasscc` installs
is not yet there), from the project root, its stdout read as JSON (test_lazy_ops, test_lazy_attrs:
the eager and the lazy definitions side by side)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_json(script: str, *args: str) -> dict:
    r = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)
