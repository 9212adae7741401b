"""The docstring dataclasses give a class without one, computed on first read
(lasscc/dataclass_doc.py, issue 16): the same text as dataclasses' own."""

import dataclasses
import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

from lasscc import dataclass_doc

ROOT = Path(__file__).resolve().parents[2]
DEFERS = sys.version_info[:2] in dataclass_doc._VERSIONS


def _define():
    """Classes covering what decides the text: defaults, factories, kw-only, InitVar, init=False
    (object's signature), slots (a new class), a docstring of its own, a custom __init__, an empty
    docstring, a signature inspect cannot read, subclasses."""

    @dataclasses.dataclass(frozen=True)
    class Plain:
        a: int
        b: str = "x"
        c: tuple = dataclasses.field(default_factory=tuple)

    @dataclasses.dataclass(kw_only=True, slots=True)
    class Slots:
        p: float
        q: "list[int]" = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(init=False)
    class NoInit:
        x: int = 0

    @dataclasses.dataclass
    class Documented:
        """Its own docstring."""

        y: int

    @dataclasses.dataclass
    class Empty:
        ""

        z: int

    @dataclasses.dataclass(init=False)
    class CustomInit:
        w: int

        def __init__(self, w: int, scale: float = 2.0) -> None:
            self.w = int(w * scale)

    @dataclasses.dataclass
    class InitVarUser:
        v: dataclasses.InitVar[int]
        u: int = 1

        def __post_init__(self, v):
            self.u += v

    class Meta(type):
        __signature__ = property(lambda cls: 42)  # inspect.signature raises TypeError

    @dataclasses.dataclass
    class Unreadable(metaclass=Meta):
        s: int

    @dataclasses.dataclass(frozen=True)
    class Child(Plain):
        d: int = 3

    return [Plain, Slots, NoInit, Documented, Empty, CustomInit, InitVarUser, Unreadable, Child]


def test_installed_by_import_lasscc():
    assert dataclass_doc.installed() == DEFERS


@pytest.mark.skipif(not DEFERS, reason="dataclasses' docstring code differs on this Python")
def test_same_text_as_dataclasses():
    deferred = _define()
    dataclasses._process_class = dataclass_doc._ORIGINAL
    try:
        eager = _define()
    finally:
        dataclass_doc.install()
    assert dataclass_doc.installed()
    for d, e in zip(deferred, eager):
        assert isinstance(e.__dict__.get("__doc__"), (str, type(None)))
        assert d.__doc__ == e.__doc__, d.__name__
        assert inspect.getdoc(d) == inspect.getdoc(e)
    kinds = {c.__name__: type(c.__dict__.get("__doc__")).__name__ for c in deferred}
    assert kinds["Plain"] == kinds["Slots"] == kinds["NoInit"] == "_DeferredDoc"
    assert kinds["Documented"] == "str"
    assert deferred[0]("q").__doc__ == eager[0]("q").__doc__ == "Plain(a: int, b: str = 'x', c: tuple = <factory>)"
    assert deferred[2].__doc__ == "NoInit()"
    assert deferred[7].__doc__ == "Unreadable"  # the TypeError: no signature, as dataclasses writes it


@pytest.mark.skipif(not DEFERS, reason="dataclasses' docstring code differs on this Python")
def test_failed_processing_restores_the_doc():
    class Bad:
        a: int = 0
        b: int  # a field without a default after one with

    with pytest.raises(TypeError):
        dataclasses.dataclass(Bad)
    assert Bad.__dict__["__doc__"] is None


def test_xdsl_dataclasses_same_text_as_without_lasscc():
    """Every dataclass of the xDSL modules a compile imports: its `__doc__` with lasscc's deferral
    is dataclasses' text (each process prints {module.qualname: __doc__})."""
    code = """
import dataclasses, importlib, json, sys
if sys.argv[1] == "lasscc":
    import lasscc
for m in ("xdsl.dialects.builtin", "xdsl.dialects.arith", "xdsl.dialects.llvm", "xdsl.dialects.scf",
          "xdsl.dialects.cf", "xdsl.dialects.func", "xdsl.dialects.math", "xdsl.backend.llvm.convert",
          "xdsl.transforms.dead_code_elimination", "xdsl.pattern_rewriter", "xdsl.parser", "xdsl.printer"):
    importlib.import_module(m)
out = {}
for name, mod in list(sys.modules.items()):
    if name.startswith("xdsl") and mod is not None:
        for v in list(vars(mod).values()):
            if isinstance(v, type) and dataclasses.is_dataclass(v) and v.__module__ == name:
                out[f"{name}.{v.__qualname__}"] = v.__doc__
print(json.dumps(out))
"""
    docs = {}
    for mode in ("plain", "lasscc"):
        r = subprocess.run([sys.executable, "-c", code, mode], capture_output=True, text=True, cwd=ROOT,
                           timeout=120)
        assert r.returncode == 0, r.stderr
        docs[mode] = json.loads(r.stdout)
    # (without lasscc, xDSL also imports its assembly-format parser, which lasscc leaves for first use)
    common = docs["plain"].keys() & docs["lasscc"].keys()
    assert len(common) > 300 and {k: docs["lasscc"][k] for k in common} == {k: docs["plain"][k] for k in common}
