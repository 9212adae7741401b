"""Run the lit/FileCheck suite in tests/filecheck as one pytest test."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


def test_filecheck_suite():
    if importlib.util.find_spec("lit") is None:
        pytest.skip("lit is not installed (pip install -e '.[test]')")
    proc = subprocess.run(
        # `python -m lit` has no __main__ in the PyPI package; call its entry point directly.
        [sys.executable, "-c", "import sys; from lit.main import main; sys.exit(main())", "-v", "tests/filecheck"],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    if proc.returncode != 0:
        print(proc.stdout)
    assert proc.returncode == 0, f"lit failed (exit {proc.returncode}):\n{proc.stdout}"
