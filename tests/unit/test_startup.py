"""lasscc.startup and the CLI's start-up: what a compile does not import (issue 16)."""

import inspect
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_deprecated_wrapper_is_the_librarys():
    typing_extensions = pytest.importorskip("typing_extensions")
    from lasscc.startup import deprecations_without_asyncio

    cls = typing_extensions.deprecated
    original = cls.__call__

    def make():
        def f(x, y=2):
            """doc of f"""
            return x + y
        return f

    theirs = cls("use g", category=FutureWarning, stacklevel=2)(make())
    patched = "asyncio" not in sys.modules  # else the library's way throughout (nothing to save)
    with deprecations_without_asyncio():
        assert (cls.__call__ is not original) == patched
        ours = cls("use g", category=FutureWarning, stacklevel=2)(make())
        kept = cls("no warning", category=None)(make())  # category=None: the library's way (marks only)

        async def coro():
            return 1
        wrapped_coro = cls("old coro")(coro)
    assert cls.__call__ is original  # restored on leaving
    for w in (theirs, ours):
        assert (w.__name__, w.__doc__, w.__deprecated__, w.__wrapped__.__deprecated__) == (
            "f", "doc of f", "use g", "use g")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert w(1) == 3
        assert [(c.category, str(c.message)) for c in caught] == [(FutureWarning, "use g")]
    assert kept.__deprecated__ == "no warning" and not hasattr(kept, "__wrapped__")
    assert wrapped_coro.__deprecated__ == "old coro" and inspect.iscoroutinefunction(wrapped_coro.__wrapped__)


def test_compile_path_imports_no_asyncio_explain_or_linalg(tmp_path):
    """`lasscc opt` (the compile's parse, driver and its passes' modules) of an input without linalg
    ops, in a fresh process: neither asyncio, lasscc.explain, xDSL's linalg dialect nor its
    command-line tool is imported."""
    out = tmp_path / "o.mlir"
    code = ("import sys; from lasscc.cli import main; "
            f"rc = main(['opt', {str(ROOT / 'examples/gemm.mlir')!r}, "
            "'-p', 'lasscc-import-linalg,lasscc-fuse-epilogue,lasscc-tile-threadblock', "
            f"'-o', {str(out)!r}]); "
            "import lasscc.driver; "
            "print(rc, sorted(m for m in ('asyncio', 'lasscc.explain', 'xdsl.dialects.linalg.ops', "
            "'xdsl.tools.command_line_tool') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[-2] == "0 []"
    assert "lass_tb" in out.read_text()


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
    assert getattr(CommandLineTool.register_all_frontends, "_lasscc", False)
