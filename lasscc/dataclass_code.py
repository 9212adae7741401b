"""Bytecode for the methods `@dataclass` generates, compiled once per text and kept like a .pyc.

Python's dataclasses compile every method they generate (`__init__`, `__repr__`, `__eq__`, ...) from
source text with `exec`: the ~290 dataclasses of xDSL and lasscc that a `lasscc compile` imports make
~1,360 such compiles, ~0.22 s of its ~0.9 s of imports (2-core build machine), and ~600 of them are a
text already compiled in the same process (the same method of another class with the same fields).

install() gives the `dataclasses` module its own `exec` (a module global shadows the builtin for that
module's code only) that compiles a text once per process and executes the code object: the same code
object `exec(text)` would have built (`compile(text, "<string>", "exec")`; dataclasses has no
`__future__` import for the text to inherit), run with the same globals and namespace.  The code
objects are also kept in a file beside lasscc's own bytecode, under Python's rules for it: written
unless `sys.dont_write_bytecode` (PYTHONDONTWRITEBYTECODE), under `sys.pycache_prefix` when set,
silently skipped where the folder is not writable; read in any case, and only by the interpreter that
wrote it (its `sys.version`).  A later process then executes them instead of compiling.  save()
writes the file when this process compiled a text it did not hold; the CLI calls it before its fast
exit, other processes at exit.  A file that does not read back is ignored and rewritten.

Everything else about a dataclass (fields, defaults, annotations, frozen / slots) is the dataclasses
module's own work, unchanged; tests/unit/test_dataclass_code.py compares the generated methods."""

from __future__ import annotations

import atexit
import dataclasses
import marshal
import os
import sys

FILE_NAME = f"dataclass-fns.{sys.implementation.cache_tag}.marshal"
# An interpreter's code objects only: marshal's format and the bytecode follow the exact version.
HEADER = ("lasscc dataclass code", 1, sys.version, marshal.version)
# Beyond this many texts (the union over processes: other packages' dataclasses, other xDSL
# versions), the file is rewritten with this process's texts alone.  A lasscc compile uses ~750.
MAX_ENTRIES = 8192

_codes: dict[str, object] | None = None  # text -> code object; loaded on the first dataclass
_used: set[str] = set()
_dirty = False


def cache_path() -> str:
    """Where the code objects are kept: where Python writes lasscc's own bytecode
    (`lasscc/__pycache__/`, or the package's folder mirrored under sys.pycache_prefix)."""
    package = os.path.dirname(os.path.abspath(__file__))
    if sys.pycache_prefix:
        folder = os.path.join(sys.pycache_prefix, os.path.splitdrive(package)[1].lstrip(os.sep))
    else:
        folder = os.path.join(package, "__pycache__")
    return os.path.join(folder, FILE_NAME)


def _load() -> dict[str, object]:
    try:
        with open(cache_path(), "rb") as f:
            header, codes = marshal.loads(f.read())
        if header == HEADER and isinstance(codes, dict):
            return codes
    except (OSError, EOFError, ValueError, TypeError):  # missing, truncated, not ours
        pass
    return {}


def _exec(source, globals=None, locals=None, /, **kwargs):
    """The builtin exec, with a text compiled once (per process, and across processes by the file)."""
    global _codes, _dirty
    if globals is None:  # exec's default: the caller's namespaces, not this function's
        frame = sys._getframe(1)
        globals = frame.f_globals
        if locals is None:
            locals = frame.f_locals
    if type(source) is str:
        if _codes is None:
            _codes = _load()
        code = _codes.get(source)
        if code is None:
            code = compile(source, "<string>", "exec", dont_inherit=True)
            _codes[source] = code
            _dirty = True
        _used.add(source)
        source = code
    return exec(source, globals, locals, **kwargs)  # kwargs: exec's own (closure=, Python 3.11+)


def install() -> None:
    """Route the dataclasses module's exec through _exec (idempotent)."""
    if dataclasses.__dict__.get("exec") is not _exec:
        dataclasses.exec = _exec
        atexit.register(save)


def installed() -> bool:
    return dataclasses.__dict__.get("exec") is _exec


def save() -> None:
    """Write the code objects if this process compiled a new text (and Python may write bytecode)."""
    global _dirty
    if not _dirty or _codes is None or sys.dont_write_bytecode:
        return
    _dirty = False
    codes = _codes if len(_codes) <= MAX_ENTRIES else {t: _codes[t] for t in _used}
    path = cache_path()
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(marshal.dumps((HEADER, codes)))
        os.replace(tmp, path)  # atomic: a concurrent reader sees the old file or the new one
    except OSError:  # a read-only install: Python skips its .pyc there likewise
        try:
            os.unlink(tmp)
        except OSError:
            pass
