"""The CLI's start-up: what a compile does not import (issue 16)."""

import os
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]


def test_compile_path_imports_no_explain_or_linalg(tmp_path):
    """`lasscc opt` (the compile's parse, driver and its passes' modules) of an input without linalg
    ops, in a fresh process: neither lasscc.explain, xDSL's linalg dialect, its command-line tool nor
    its plugin registry (xdsl.universe, which imports its targets: xdsl-opt's entry point only) is
    imported."""
    out = tmp_path / "o.mlir"
    code = ("import sys; from lasscc.cli import main; "
            f"rc = main(['opt', {str(ROOT / 'examples/gemm.mlir')!r}, "
            "'-p', 'lasscc-import-linalg,lasscc-fuse-epilogue,lasscc-tile-threadblock', "
            f"'-o', {str(out)!r}]); "
            "import lasscc.driver; "
            "print(rc, sorted(m for m in ('lasscc.explain', 'xdsl.dialects.linalg.ops', "
            "'xdsl.tools.command_line_tool', 'xdsl.universe', 'xdsl.targets') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[-2] == "0 []"
    assert "lass_tb" in out.read_text()


def test_compile_imports_no_gpu_memref_or_cache_formats(tmp_path):
    """`lasscc compile --no-cache` of an sm_80 kernel in a fresh process: xDSL's gpu and memref
    dialects (lass_nv.block_id's axis is lass_nv's own attribute), its math dialect (no epilogue
    region: the context loads it at the first math op parsed) and the cache's / tuned store's
    formats (gzip, hashlib, json: no entry is read or written) are not imported."""
    out = tmp_path / "k.ptx"
    code = ("import sys; from lasscc.cli import main; "
            f"rc = main(['compile', {str(ROOT / 'examples/gemm.mlir')!r}, '-o', {str(out)!r}, '--no-cache']); "
            "print(rc, sorted(m for m in ('xdsl.dialects.gpu', 'xdsl.dialects.memref', 'xdsl.dialects.math', 'gzip', "
            "'hashlib', 'json') "
            "if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120,
                       env={**os.environ, "LASSCC_CACHE_DIR": str(tmp_path / "cache")})
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[-2] == "0 []"
    assert ".entry" in out.read_text()


def test_math_dialect_loaded_at_the_first_math_op(tmp_path):
    """An input with a math op (examples/gemm_bias_gelu.mlir: math.erf in its linalg epilogue) compiles
    in a fresh process, where the context loads xDSL's math dialect when the parser meets the op, to
    the PTX of a process that imported the dialect before anything else."""
    code = ("import sys\n"
            "if sys.argv[1] == 'first': import xdsl.dialects.math\n"
            "from lasscc.cli import main\n"
            f"rc = main(['compile', {str(ROOT / 'examples/gemm_bias_gelu.mlir')!r}, '-o', sys.argv[2], '--no-cache', "
            "'--arch', 'sm_90a'])\n"
            "print(rc, 'xdsl.dialects.math' in sys.modules)")
    for mode in ("lazy", "first"):
        r = subprocess.run([sys.executable, "-c", code, mode, str(tmp_path / f"{mode}.ptx")], capture_output=True,
                           text=True, cwd=ROOT, timeout=300)
        assert r.returncode == 0, r.stderr
        assert r.stdout.split("\n")[-2] == "0 True"
    assert (tmp_path / "lazy.ptx").read_text() == (tmp_path / "first.ptx").read_text()


def test_xdsl_opt_entry_point_makes_its_frontend_locating():
    """xdsl-opt reads lasscc.universe.LASSCC_UNIVERSE (pyproject.toml's entry point) before it
    registers its frontends; reading it wraps them (lasscc.universe._locating_xdsl_opt_frontend)."""
    from importlib.metadata import entry_points

    from xdsl.tools.command_line_tool import CommandLineTool
    from xdsl.universe import Universe

    ep = next(e for e in entry_points(group="xdsl.universe") if e.name == "lasscc")
    assert ep.value == "lasscc.universe:LASSCC_UNIVERSE"
    universe = ep.load()
    assert isinstance(universe, Universe) and "lasscc-tile-threadblock" in universe.all_passes
    assert "lass_tb" in universe.all_dialects and ep.load() is universe
    assert getattr(CommandLineTool.register_all_frontends, "_lasscc", False)


def _console(tmp_path, *argv):
    """`lasscc ARGV` through the console entry point, with an atexit handler that says whether
    Python's teardown ran."""
    code = ("import atexit, sys; atexit.register(lambda: print('teardown ran')); "
            f"sys.argv = ['lasscc', *{list(argv)!r}]; "
            "import gc, lasscc.cli; lasscc.cli.main = (lambda m: lambda: print('gc on', gc.isenabled()) or m())(lasscc.cli.main); "
            "lasscc.cli.console_main()")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)


def test_console_compile_commands_exit_without_teardown(tmp_path):
    """`lasscc opt` / `compile` run without the garbage collector and end with os._exit once the
    output is written (lasscc.cli.console_main): the exit code and the flushed streams are main's,
    the atexit handlers and object freeing skipped."""
    r = _console(tmp_path, "opt", str(ROOT / "examples/gemm.mlir"), "-p", "lasscc-import-linalg", "-o", "-")
    assert r.returncode == 0, r.stderr
    assert "lass.gemm" in r.stdout and "teardown ran" not in r.stdout and "gc on False" in r.stdout
    r = _console(tmp_path, "compile", str(tmp_path / "missing.mlir"), "-o", "x.ptx")
    assert r.returncode == 2 and "missing.mlir: error:" in r.stderr and "teardown ran" not in r.stdout
    assert not (tmp_path / "x.ptx").exists()


def test_console_other_commands_exit_normally(tmp_path):
    r = _console(tmp_path, "run", str(tmp_path / "missing.mlir"), "--m", "8", "--n", "8", "--k", "8")
    assert r.returncode == 2 and "teardown ran" in r.stdout and "gc on True" in r.stdout


def test_entry_point_is_console_main():
    text = (ROOT / "pyproject.toml").read_text()
    assert 'lasscc = "lasscc.cli:console_main"' in text


def test_parser_builds_only_the_named_command():
    """build_parser(argv) with a command first builds only its subparser, whose options and help are
    those of the full parser's; without one (lasscc --help, an unknown command) it builds them all."""
    import argparse

    from lasscc.cli import COMMANDS, build_parser

    def subparsers(p):
        return next(a for a in p._actions if isinstance(a, argparse._SubParsersAction)).choices

    assert list(subparsers(build_parser(None))) == list(COMMANDS)
    assert list(subparsers(build_parser(["--help"]))) == list(COMMANDS)
    assert list(subparsers(build_parser(["comple"]))) == list(COMMANDS)
    full = subparsers(build_parser(None))
    for cmd in COMMANDS:
        only = subparsers(build_parser([cmd, "x.mlir"]))
        assert list(only) == [cmd]
        assert only[cmd].format_help() == full[cmd].format_help()
        assert vars(only[cmd].parse_args(["x.mlir"])) == vars(full[cmd].parse_args(["x.mlir"]))
