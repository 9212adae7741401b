"""The dataclass methods' bytecode compiled once per text and kept beside lasscc's .pyc
(lasscc/dataclass_code.py, issue 16)."""

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

from lasscc import dataclass_code

ROOT = Path(__file__).resolve().parents[2]


def _define():
    """Classes that exercise every generated method: __init__ (defaults, factories, kw-only, InitVar,
    __post_init__), __repr__, __eq__, order, __hash__, frozen __setattr__ / __delattr__, slots."""

    @dataclasses.dataclass(order=True, frozen=True)
    class Frozen:
        a: int
        b: str = "x"
        c: tuple = dataclasses.field(default_factory=tuple, compare=False)

    @dataclasses.dataclass(unsafe_hash=True, kw_only=True, slots=True)
    class Slots:
        p: float
        q: list = dataclasses.field(default_factory=list, hash=False)

    @dataclasses.dataclass
    class Post:
        n: int
        scale: dataclasses.InitVar[int] = 2

        def __post_init__(self, scale):
            self.n *= scale

    return Frozen, Slots, Post


def _methods(cls):
    """The generated functions (__repr__ unwrapped from reprlib's recursion guard)."""
    fns = {name: getattr(fn, "__wrapped__", fn) for name, fn in vars(cls).items()}
    return {name: fn.__code__ for name, fn in fns.items() if getattr(fn, "__code__", None) is not None
            and fn.__code__.co_filename == "<string>"}


def test_installed_by_import_lasscc():
    assert dataclass_code.installed()


def test_same_methods_as_dataclasses_own_exec(monkeypatch):
    """With and without the cached exec, every generated method is the same code object (equal code,
    names, constants, file name), and behaves the same; a second definition hits the cache."""
    with_cache = _define()
    monkeypatch.delitem(dataclasses.__dict__, "exec")  # the builtin, as Python ships it
    plain = _define()
    monkeypatch.undo()
    for ours, theirs in zip(with_cache, plain):
        mine, ref = _methods(ours), _methods(theirs)
        assert mine.keys() == ref.keys() and {"__init__", "__repr__", "__eq__"} <= ref.keys()
        for name in ref:
            assert mine[name] == ref[name], name
    Frozen, Slots, Post = with_cache
    assert Frozen(1) < Frozen(2) and Frozen(1, "y", (3,)) == Frozen(1, "y") and repr(Frozen(1)).endswith("Frozen(a=1, b='x', c=())")
    assert hash(Slots(p=1.0)) == hash(Slots(p=1.0, q=[1])) and Post(3).n == 6 and Post(3, 5).n == 15
    try:
        Frozen(1).a = 2
        raise AssertionError("frozen")
    except dataclasses.FrozenInstanceError:
        pass
    before = dict(dataclass_code._codes)
    _define()
    assert dataclass_code._codes == before  # every text already compiled: no new entry


def _run(tmp_path, code, **env):
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    environ.update(PYTHONPYCACHEPREFIX=str(tmp_path / "pyc"), **env)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=environ,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


# a process that defines a dataclass and says how many texts it found in the file, and how many it compiled
_PROBE = ("import dataclasses, lasscc; from lasscc import dataclass_code as d; "
          "dataclasses.make_dataclass('P', [('a', int), ('b', str)], order=True); "
          "print(len(d._load()), sum(1 for t in d._used if t not in d._load()), d.cache_path())")


def test_saved_and_read_by_the_next_process(tmp_path):
    held, compiled, path = _run(tmp_path, _PROBE)
    assert int(held) == 0 and int(compiled) > 0
    assert path.startswith(str(tmp_path / "pyc")) and Path(path).is_file()  # written at exit (atexit)
    held, compiled, path2 = _run(tmp_path, _PROBE)
    assert path2 == path and int(held) > 0 and int(compiled) == 0  # every text came from the file


def test_unreadable_file_is_ignored_and_rewritten(tmp_path):
    _, _, path = _run(tmp_path, _PROBE)
    Path(path).write_bytes(b"not marshal")
    held, compiled, _ = _run(tmp_path, _PROBE)
    assert int(held) == 0 and int(compiled) > 0
    held, compiled, _ = _run(tmp_path, _PROBE)
    assert int(held) > 0 and int(compiled) == 0


def test_not_written_under_dont_write_bytecode(tmp_path):
    _, _, path = _run(tmp_path, _PROBE, PYTHONDONTWRITEBYTECODE="1")
    assert not Path(path).exists()


def test_console_compile_saves_before_its_fast_exit(tmp_path):
    """`lasscc opt` ends with os._exit (no atexit): console_main saves the file first."""
    code = ("import sys; sys.argv = ['lasscc', 'opt', 'examples/gemm.mlir', '-p', 'lasscc-import-linalg', "
            f"'-o', {str(tmp_path / 'o.mlir')!r}]; from lasscc.cli import console_main; console_main()")
    _run(tmp_path, code)
    (found,) = (tmp_path / "pyc").rglob(dataclass_code.FILE_NAME)
    assert found.stat().st_size > 10_000 and (tmp_path / "o.mlir").is_file()
