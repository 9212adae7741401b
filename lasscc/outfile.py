"""Writing output files the way compilers do: one function for every file lasscc writes for the
user (`-o`, `--dump-dir`'s dumps, `explain --png`, `bench --plot`).

    write_output(path, data, option)   "-" is stdout; a symlink is written through to its target;
                                       a device or FIFO (/dev/null) is written as itself; a regular
                                       file or a new path gets a temporary file in the target's
                                       folder renamed over it (no partial file on failure)
    check_output(path, option)         the same checks up front, before seconds of compiling
    output_dir(path, option)           a folder for dumps / pictures, created when missing

A new file gets mode 0666 & ~umask (like `cc -o`); a regular file that is replaced keeps its mode.
Every failure is a LassError `option -o: cannot write PATH: reason` (exit 2); nothing else in the
folder is left behind.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path

from lasscc.diagnostics import LassError


def _umask() -> int:
    mask = os.umask(0o022)  # reading the umask means setting it; put it straight back
    os.umask(mask)
    return mask


def _fail(option: str, path, reason: str) -> LassError:
    return LassError(f"option {option}: cannot write {path}: {reason}")


def _reason(e: OSError) -> str:
    return e.strerror or type(e).__name__  # no temporary file name in the message


def _resolve(path: str, option: str) -> tuple[Path, os.stat_result | None]:
    """The file a write to `path` lands in (symlinks followed, also a dangling one) and its stat, or None when new."""
    real = Path(os.path.realpath(path))
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise _fail(option, path, _reason(e)) from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise _fail(option, path, "is a directory, expected a file path")
    if st is None:
        folder = real.parent
        if not folder.is_dir():
            raise _fail(option, path, f"folder '{folder}' does not exist")
    return real, st


def _temp_beside(real: Path, path: str, option: str) -> tuple[int, str]:
    """A new temporary file in `real`'s folder (renamed over `real` once written)."""
    try:
        return tempfile.mkstemp(dir=str(real.parent), prefix=f".{real.name}.")
    except OSError as e:
        raise _fail(option, path, f"cannot create a file in folder '{real.parent}' ({_reason(e)})") from None


def check_output(path: str | None, option: str = "-o") -> None:
    """Raise the LassError write_output would raise for `path`, without writing it: a regular or
    new file's folder must take a new file (a temporary one is created there and removed)."""
    if path is None or path == "-":
        return
    real, st = _resolve(path, option)
    if st is not None and not stat.S_ISREG(st.st_mode):
        if not os.access(real, os.W_OK):
            raise _fail(option, path, "permission denied")
        return
    fd, tmp = _temp_beside(real, path, option)
    os.close(fd)
    os.unlink(tmp)


def write_output(path: str, data: str | bytes, option: str = "-o") -> None:
    """Write `data` to `path` (see the module docstring); LassError naming `option` on failure."""
    raw = data.encode() if isinstance(data, str) else data
    if path == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(raw) if hasattr(sys.stdout, "buffer") else sys.stdout.write(raw.decode())
        sys.stdout.flush()
        return
    real, st = _resolve(path, option)
    if st is not None and not stat.S_ISREG(st.st_mode):  # a device or FIFO: write it as itself
        try:
            with open(real, "wb") as f:
                f.write(raw)
        except OSError as e:
            raise _fail(option, path, _reason(e)) from None
        return
    mode = stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask()
    fd, tmp = _temp_beside(real, path, option)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise _fail(option, path, _reason(e)) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def output_dir(path, option: str = "--dump-dir") -> Path:
    """`path` as a folder to write files into, created (with parents) when missing."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise _fail(option, path, "exists and is not a directory")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise _fail(option, path, _reason(e)) from None
    if not os.access(p, os.W_OK | os.X_OK):
        raise _fail(option, path, "permission denied")
    return p
