# lit configuration for the lasscc FileCheck tests.  Run from the repository root:
#     python3 -m lit -v tests/filecheck
# (tests/test_filecheck.py does exactly that under pytest.)
import os
import shlex
import sys

import lit.formats

config.name = "lasscc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = config.test_source_root  # Output/ dirs are git-ignored
config.excludes = ["Output", "lit.cfg.py"]

# Keep the caller's PATH (filecheck, xdsl-opt, python3 live there) and Python environment.
config.environment["PATH"] = os.environ.get("PATH", "")
for var in ("PYTHONPATH", "VIRTUAL_ENV", "CUDA_VISIBLE_DEVICES"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# `%lasscc` runs the CLI with the interpreter that runs lit (the one lasscc is installed into);
# it is `python3 -m lasscc.cli` in a normal environment.
config.substitutions.append(("%lasscc", shlex.quote(sys.executable) + " -m lasscc.cli"))
config.substitutions.append(("filecheck", "filecheck"))
