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
#
# Under tests/test_filecheck.py a fork server that imported the tools once runs them
# (tests/lit_zygote.py; its socket in LASSCC_LIT_ZYGOTE): `%lasscc`, `xdsl-opt` and `filecheck`
# become its client, which falls back to the plain command when the server is gone.
# LASSCC_LIT_NO_ZYGOTE=1 keeps the plain commands.
zygote = os.environ.get("LASSCC_LIT_ZYGOTE")
if os.environ.get("LASSCC_LIT_NO_ZYGOTE") == "1":
    zygote = None
client = os.path.join(os.path.dirname(config.test_source_root), "lit_zygote_client.py")


def tool(name, plain):
    if not zygote:
        return plain
    return " ".join(shlex.quote(a) for a in (sys.executable, "-S", "-I", client, zygote, name))


config.substitutions.append(("%lasscc", tool("lasscc", shlex.quote(sys.executable) + " -m lasscc.cli")))
# the bare command words only (not a path or option that holds them)
config.substitutions.append((r"(?<![\w/.-])xdsl-opt(?![\w/.-])", tool("xdsl-opt", "xdsl-opt")))
config.substitutions.append((r"(?<![\w/.-])filecheck(?![\w/.-])", tool("filecheck", "filecheck")))
