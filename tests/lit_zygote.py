"""A fork server ("zygote") for the lit suite's `lasscc`, `xdsl-opt` and `filecheck` processes.

Each of the ~550 commands the suite's RUN lines start is a Python process that spends most of its
CPU importing (lasscc ~0.6 s, xdsl-opt ~0.35 s, filecheck ~0.1 s on the 2-core build machine) before a
few milliseconds of work.  The server imports all three once; for every command lit starts,
tests/lit_zygote_client.py (a bare `python3 -S -I`) hands it argv, working folder, environment and
its standard streams, and the server forks a child that runs the tool's entry point as the plain
process would: same argv, cwd, environment, stdin / stdout / stderr (the client's own descriptors),
the same stream buffering, exit code (SystemExit, an uncaught exception's traceback and 1, os._exit,
a signal), atexit handlers and the flush at exit.

Test-only infrastructure: tests/test_filecheck.py starts a server for its lit run (the
`lit_zygote` fixture) and passes its socket in `LASSCC_LIT_ZYGOTE`; tests/filecheck/lit.cfg.py then
substitutes the client for the three tools.  Without it (or with `LASSCC_LIT_NO_ZYGOTE=1`) lit runs
the plain commands.  Unit tests that run the CLI as a process take their command line from
lasscc_command() (one server per pytest process, stopped by tests/conftest.py at the session's end).
tests/unit/test_lit_zygote.py checks that a command's exit code, stdout and stderr are the plain
process's.  A child is always a fork of the server itself, never of an earlier command's child: no
state passes from one command to the next.

Every process is waited for (server -> per-command handler -> tool), so `/usr/bin/time` of the
pytest run counts the tools' CPU as it does for plain processes.

    python3 tests/lit_zygote.py SOCKET     # serve until SIGTERM; prints "ready" once listening
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import errno
import gc
import importlib
import io
import os
import pkgutil
import runpy
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import traceback
import types
from pathlib import Path

CLIENT = Path(__file__).resolve().with_name("lit_zygote_client.py")
_MAX_FDS = 3  # stdin, stdout, stderr
# the reply's kind: (EXITED, code), (SIGNALED, signal), (NOT_SERVED, 0): the client runs the plain command
EXITED, SIGNALED, NOT_SERVED = 0, 1, 2
_PARENT_POLL_S = 2.0  # how often an idle server checks that the process that started it still runs
# `LASSCC_LIT_NO_ZYGOTE=1`: lit and the unit tests run the plain commands
DISABLED = os.environ.get("LASSCC_LIT_NO_ZYGOTE") == "1"
PLAIN_LASSCC = [sys.executable, "-m", "lasscc.cli"]


def _script(name: str) -> str | None:
    """The Python file of the console script `name` that this interpreter's environment installed
    (PATH's `name` may be a wrapper, e.g. a pyenv shim, that ends up running it)."""
    for folder in (os.path.dirname(sys.executable), os.path.join(sys.prefix, "bin"),
                   os.path.join(sys.base_prefix, "bin")):
        path = os.path.join(folder, name)
        with contextlib.suppress(OSError):
            with open(path, "rb") as f:
                first = f.readline(200)
            if first.startswith(b"#!") and b"python" in first:
                return path
    return None


def _tools() -> dict[str, str]:
    """tool -> what the child runs: `-m lasscc.cli` (lit.cfg.py's plain `%lasscc`) or the file of
    the console script (xdsl-opt, filecheck), the import of each done here once."""
    import lasscc.cli  # noqa: F401 -- imported here once, for the children

    tools = {"lasscc": "-m lasscc.cli"}
    for name, module in (("xdsl-opt", "xdsl.tools.xdsl_opt"), ("filecheck", "filecheck.main")):
        script = _script(name)
        if script is not None:  # else not served: the client runs PATH's command itself
            importlib.import_module(module)
            tools[name] = script
    return tools


def _preimport() -> None:
    """Import what the tools import lazily (passes, dialects, the LLVM binding, explain), so a child
    finds it loaded.  Imports only: nothing is run, no state a fresh process lacks is built."""
    import lasscc

    skip = ("lasscc.runtime", "lasscc.fuzz")  # the GPU runtime and the fuzzer: no lit test runs them
    for info in pkgutil.walk_packages(lasscc.__path__, "lasscc."):
        if not info.name.startswith(skip):
            with contextlib.suppress(Exception):
                importlib.import_module(info.name)
    for name in ("llvmlite.binding", "xdsl.xdsl_opt_main", "xdsl.universe"):
        with contextlib.suppress(Exception):
            importlib.import_module(name)


def _std_streams(env: dict[str, str]):
    """sys.stdin / stdout / stderr over descriptors 0-2 as CPython's start-up builds them
    (create_stdio): buffered unless PYTHONUNBUFFERED, stdout line-buffered on a terminal, stderr
    always line-buffered, newline "\\n", this interpreter's encoding and error handlers."""
    unbuffered = bool(env.get("PYTHONUNBUFFERED"))
    streams = []
    for fd, mode, name, template in ((0, "r", "<stdin>", sys.__stdin__), (1, "w", "<stdout>", sys.__stdout__),
                                     (2, "w", "<stderr>", sys.__stderr__)):
        raw = io.FileIO(fd, mode, closefd=False)
        raw.name = name
        if mode == "r":
            buf = io.BufferedReader(raw)
        else:
            buf = raw if unbuffered else io.BufferedWriter(raw)
        encoding = getattr(template, "encoding", None) or "utf-8"
        errors = getattr(template, "errors", None) or ("backslashreplace" if fd == 2 else "strict")
        line = not unbuffered and (fd == 2 or (fd == 1 and raw.isatty()))
        stream = io.TextIOWrapper(buf, encoding=encoding, errors=errors, newline="\n", line_buffering=line,
                                  write_through=unbuffered and mode == "w")
        stream.mode = mode
        streams.append(stream)
    return streams


def _exit_code(code) -> int:
    """SystemExit's code as the interpreter turns it into an exit status (printing a non-int)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    with contextlib.suppress(Exception):
        print(code, file=sys.stderr)
    return 1


def _run_tool(tools, request: dict, fds: list[int]) -> None:
    """In the tool's child: become the plain process, run the entry point, exit as it would."""
    for sig in (signal.SIGCHLD, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for target, fd in enumerate(fds):
        os.dup2(fd, target)  # inheritable, as a process's standard streams are
    for fd in fds:
        if fd > 2:
            os.close(fd)
    env = request["env"]
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(env)
    sys.dont_write_bytecode = bool(env.get("PYTHONDONTWRITEBYTECODE"))
    target = tools[request["tool"]]
    main = types.ModuleType("__main__")  # a fresh __main__, as the interpreter starts with
    main.__builtins__ = builtins
    sys.modules["__main__"] = main
    sys.stdin, sys.stdout, sys.stderr = sys.__stdin__, sys.__stdout__, sys.__stderr__ = _std_streams(env)
    try:
        if target.startswith("-m "):  # `python -m MODULE`: the module's code again, as __main__
            module = target[3:]
            sys.argv = ["-m", *request["args"]]
            sys.path[0] = os.getcwd()
            sys.modules.pop(module, None)  # else runpy warns that it is imported already
            runpy._run_module_as_main(module, alter_argv=True)
        else:  # `python SCRIPT`
            sys.argv = [target, *request["args"]]
            sys.path[0] = os.path.dirname(target)
            with open(target, "rb") as f:
                program = compile(f.read(), target, "exec")
            main.__file__ = target
            exec(program, main.__dict__)
        code = 0
    except SystemExit as e:
        code = _exit_code(e.code)
    except BaseException:  # noqa: BLE001 -- the interpreter's own handling of an uncaught exception
        kind, value, tb = sys.exc_info()
        value.__traceback__ = tb = tb.tb_next  # from the program's first frame on, as the plain process's
        sys.excepthook(kind, value, tb)
        code = 1
    # what the interpreter does on its way out: non-daemon threads joined, atexit, streams flushed
    threading = sys.modules.get("threading")
    if threading is not None:
        with contextlib.suppress(Exception):
            threading._shutdown()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 -- e.g. a closed pipe: CPython reports it and exits 120
            if stream is sys.stdout:
                with contextlib.suppress(Exception):
                    print(f"Exception ignored in: {stream!r}", file=sys.stderr)
                    traceback.print_exc()
                code = 120
    os._exit(code & 0xFF)


def _recv_exact(sock: socket.socket, n: int, data: bytes = b"") -> bytes:
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("client closed the connection mid-request")
        data += chunk
    return data


def _decode_request(raw: bytes) -> dict:
    """The inverse of lit_zygote_client.encode_request."""
    fields = [os.fsdecode(f) for f in raw.split(b"\0")]
    tool, cwd, nargs = fields[0], fields[1], int(fields[2])
    args, env = fields[3:3 + nargs], fields[3 + nargs:]
    return {"tool": tool, "cwd": cwd, "args": args, "env": dict(e.split("=", 1) for e in env)}


def _handle(tools, listener: socket.socket, conn: socket.socket) -> None:
    """In the per-command handler (a fork of the server): read the request, fork the tool's child,
    wait for it, send its exit status back."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    listener.close()
    fds: list[int] = []
    try:
        head, fds, _flags, _addr = socket.recv_fds(conn, 8, _MAX_FDS)
        (size,) = struct.unpack("!Q", _recv_exact(conn, 8, head))
        request = _decode_request(_recv_exact(conn, size))
        if len(fds) != _MAX_FDS:
            raise ValueError(f"bad request: {len(fds)} descriptors")
        if request["tool"] not in tools:
            conn.sendall(struct.pack("!ii", NOT_SERVED, 0))
            return
        pid = os.fork()
        if pid == 0:
            conn.close()
            try:
                _run_tool(tools, request, fds)
            finally:
                os._exit(70)  # only if setting up the child itself failed
        for fd in fds:
            os.close(fd)
        _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status):
            reply = struct.pack("!ii", SIGNALED, os.WTERMSIG(status))
        else:
            reply = struct.pack("!ii", EXITED, os.WEXITSTATUS(status))
        conn.sendall(reply)
    except BaseException:  # noqa: BLE001 -- reported in the server's log; the client aborts
        traceback.print_exc()
    finally:
        os._exit(0)


def _reap(*_args) -> None:
    """Wait for every ended handler (so its CPU reaches the server's, and the pytest run's, count)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


class _Stop(Exception):
    pass


def _stop(*_args):
    raise _Stop


def serve(path: str) -> None:
    tools = _tools()
    _preimport()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(128)
    signal.signal(signal.SIGCHLD, _reap)
    signal.signal(signal.SIGTERM, _stop)
    gc.collect()
    gc.freeze()  # the imported objects stay out of the children's collections: fewer copied pages
    print("ready", flush=True)
    parent = os.getppid()
    listener.settimeout(_PARENT_POLL_S)
    try:
        while True:
            try:
                conn, _ = listener.accept()
            except _Stop:
                raise
            except TimeoutError:
                if os.getppid() != parent:  # the test run that started it is gone (killed): stop too
                    break
                continue
            except OSError as e:
                if e.errno in (errno.EINTR, errno.ECONNABORTED):
                    continue
                raise
            conn.settimeout(None)
            pid = os.fork()
            if pid == 0:
                _handle(tools, listener, conn)
            conn.close()
    except _Stop:
        pass
    finally:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        listener.close()
        with contextlib.suppress(OSError):
            os.unlink(path)
        while True:  # the handlers still running: wait for them
            try:
                os.waitpid(-1, 0)
            except ChildProcessError:
                break


@contextlib.contextmanager
def running(log: Path | None = None):
    """Start a server (imports ~1-2 s) and yield its socket path; stop it and wait for it at exit."""
    folder = tempfile.mkdtemp(prefix="lasscc-zygote-")  # short: a socket path has ~100 bytes at most
    path = os.path.join(folder, "s")
    err = open(log, "w") if log is not None else subprocess.DEVNULL
    proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), path], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=err, text=True)
    try:
        line = proc.stdout.readline()
        if line.strip() != "ready":
            raise RuntimeError(f"lit zygote server did not start (exit {proc.wait()}); log: {log}")
        yield path
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        proc.wait()
        proc.stdout.close()
        if err is not subprocess.DEVNULL:
            err.close()
        shutil.rmtree(folder, ignore_errors=True)


_shared: tuple[contextlib.AbstractContextManager, str] | None = None


def lasscc_command() -> list[str]:
    """The command line of `lasscc` for a test that runs the CLI as a process and checks what the
    command does (exit code, output, files), not how a process starts: the client on this test
    process's shared server (started on the first call, stopped by stop_shared() at the session's
    end), or the plain `python -m lasscc.cli` when DISABLED.  Tests of the process itself
    (start-up imports, exit path, bytecode files) run the plain command."""
    global _shared
    if DISABLED:
        return list(PLAIN_LASSCC)
    if _shared is None:
        manager = running()
        _shared = (manager, manager.__enter__())
    return [sys.executable, "-S", "-I", str(CLIENT), _shared[1], "lasscc"]


def stop_shared() -> None:
    global _shared
    if _shared is not None:
        manager, _shared = _shared[0], None
        manager.__exit__(None, None, None)


if __name__ == "__main__":
    serve(sys.argv[1])
