"""lasscc.deprecated_sync: typing_extensions' @deprecated, installed by `import lasscc`, decorates a
plain function as typing_extensions does without importing asyncio (issue 16: ~43 ms of a cold
compile); everything else goes to typing_extensions' own code."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import typing_extensions

import lasscc  # noqa: F401  (installs it)

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(sys.version_info >= (3, 13), reason="typing_extensions re-exports warnings.deprecated")


def _bases():
    ours = typing_extensions.deprecated
    assert getattr(ours, "_lasscc_sync", False)
    return ours, ours.__mro__[1]


def _called(dec, msg):
    @dec(msg)
    def f(x, y=2):
        """doc"""
        return x + y

    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = f(1, y=5)  # the warning names this line (stacklevel)
    return f, got, w


def test_plain_function_is_wrapped_as_typing_extensions_does():
    ours, theirs = _bases()
    f1, got1, w1 = _called(ours, "use g")
    f2, got2, w2 = _called(theirs, "use g")
    assert got1 == got2 == 6
    assert [(x.category, str(x.message), x.filename) for x in w1] == [(DeprecationWarning, "use g", __file__)]
    assert [(x.category, str(x.message), x.filename, x.lineno) for x in w2] == \
           [(x.category, str(x.message), x.filename, x.lineno) for x in w1]
    assert f1.__name__ == "f" and f1.__doc__ == "doc" and f1.__deprecated__ == "use g"
    assert f1.__wrapped__.__deprecated__ == "use g"


def test_classes_coroutines_and_no_category_go_to_typing_extensions():
    import asyncio  # the delegated cases may import it (typing_extensions does)

    ours, _ = _bases()

    @ours("old")
    class C:
        pass

    with pytest.warns(DeprecationWarning, match="old"):
        C()

    @ours("old async")
    async def co():
        return 1

    assert asyncio.iscoroutinefunction(co) and co.__deprecated__ == "old async"

    def plain():
        return 3

    assert ours("quiet", category=None)(plain) is plain and plain.__deprecated__ == "quiet"


def test_a_compile_imports_no_asyncio():
    """`lasscc opt` through the compile's parse and first passes, in a fresh process (xDSL's modules
    decorate with @deprecated when imported): asyncio is not imported."""
    code = ("import sys; from lasscc.cli import main; "
            f"rc = main(['opt', {str(ROOT / 'examples/gemm.mlir')!r}, '-p', 'lasscc-import-linalg,lasscc-tile-threadblock', "
            "'-o', '-']); import lasscc.driver, lasscc.emit; print(rc, 'asyncio' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[-2] == "0 False"
