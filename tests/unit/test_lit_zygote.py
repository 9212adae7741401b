"""tests/lit_zygote.py, the fork server lit's tools run through: a command run by it ends like the
plain process (exit code, stdout, stderr byte for byte, output file), with stdin handed over; the
client runs the plain command when no server listens and aborts when one breaks off."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent.parent
REPO_ROOT = TESTS.parent
sys.path.insert(0, str(TESTS))
import lit_zygote  # noqa: E402 -- tests/lit_zygote.py

GEMM = "examples/gemm.mlir"
GEMM_TEXT = (REPO_ROOT / GEMM).read_bytes()
# The plain commands: lit.cfg.py's `%lasscc`; the console scripts of this interpreter's environment
# (what `pip install` puts on PATH beside it; the server runs the same files)
PLAIN = {
    "lasscc": [sys.executable, "-m", "lasscc.cli"],
    "xdsl-opt": [sys.executable, lit_zygote._script("xdsl-opt")],
    "filecheck": [sys.executable, lit_zygote._script("filecheck")],
}
# the environment lit gives its commands: no PYTHONUNBUFFERED / PYTHONDONTWRITEBYTECODE
ENV = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "PYTHONPATH", "VIRTUAL_ENV", "TMPDIR")}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with lit_zygote.running(tmp_path_factory.mktemp("zygote") / "server.log") as path:
        yield path


def _client(path: str, tool: str) -> list[str]:
    return [sys.executable, "-S", "-I", str(lit_zygote.CLIENT), path, tool]


def _run(argv: list[str], stdin: bytes, env=ENV) -> subprocess.CompletedProcess:
    return subprocess.run(argv, input=stdin, capture_output=True, cwd=REPO_ROOT, env=env, timeout=120)


CASES = {
    # a pass's output on stdout
    "lasscc-opt": ("lasscc", ["opt", "-p", "lasscc-tile-threadblock", GEMM], b""),
    # a rejected option: the diagnostic on stderr, exit 2
    "lasscc-bad-option": ("lasscc", ["opt", "-p", "lasscc-tile-threadblock", "--warp", "48x32x32", GEMM], b""),
    # a bad input read from stdin: the file:line:col diagnostic
    "lasscc-bad-stdin": ("lasscc", ["opt", "-"], b"builtin.module {\n  func.func @f( {\n}\n"),
    # argparse's own exits (SystemExit 0 with --help, 2 for an unknown command)
    "lasscc-help": ("lasscc", ["--help"], b""),
    "lasscc-unknown-command": ("lasscc", ["frobnicate"], b""),
    # the module read from stdin, printed back; a parse error
    "xdsl-opt-stdin": ("xdsl-opt", [], GEMM_TEXT),
    "xdsl-opt-parse-error": ("xdsl-opt", [], b"builtin.module {\n  %0 = \"x.y\"(%1) : () -> ()\n}\n"),
    # a match, a mismatch (exit 1 and the report), an uncaught exception (traceback, exit 1)
    "filecheck-match": ("filecheck", ["tests/filecheck/sanity.mlir"], b"ok\n"),
    "filecheck-no-checks": ("filecheck", [GEMM, "--check-prefix=NOPE"], b""),
    "filecheck-mismatch": ("filecheck", ["tests/filecheck/sanity.mlir"], b"nothing to see\n"),
    "filecheck-missing-file": ("filecheck", ["/nonexistent/checks.mlir"], b""),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_command_ends_like_the_plain_process(server, case):
    tool, args, stdin = CASES[case]
    plain = _run(PLAIN[tool] + args, stdin)
    forked = _run(_client(server, tool) + args, stdin)
    assert (forked.returncode, forked.stdout, forked.stderr) == (plain.returncode, plain.stdout, plain.stderr)
    if case.startswith(("lasscc-bad", "lasscc-unknown", "xdsl-opt-parse", "filecheck-mis", "filecheck-no")):
        assert plain.returncode != 0 and plain.stderr  # the case does test a failing command


def test_output_file_is_the_plain_process_s(server, tmp_path):
    outs = []
    for name, argv in (("plain", PLAIN["lasscc"]), ("forked", _client(server, "lasscc"))):
        out = tmp_path / f"{name}.mlir"
        proc = _run(argv + ["opt", "-p", "lasscc-tile-threadblock,lasscc-pipeline", GEMM, "-o", str(out)], b"")
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] and b"lass_pipe" in outs[0]


def test_without_a_server_the_client_runs_the_plain_command(tmp_path):
    args = ["opt", "-p", "lasscc-tile-threadblock", "--warp", "48x32x32", GEMM]
    plain = _run(PLAIN["lasscc"] + args, b"")
    fallback = _run(_client(str(tmp_path / "no-server"), "lasscc") + args, b"")
    assert plain.returncode == 2
    assert (fallback.returncode, fallback.stdout, fallback.stderr) == (plain.returncode, plain.stdout, plain.stderr)


def test_a_server_that_breaks_off_fails_the_command_as_a_crash(tmp_path):
    path = str(tmp_path / "s")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)

    def hang_up():
        conn, _ = listener.accept()
        conn.recv(1 << 16)
        conn.close()

    thread = threading.Thread(target=hang_up)
    thread.start()
    try:
        proc = _run(_client(path, "filecheck") + ["tests/filecheck/sanity.mlir"], b"")
    finally:
        thread.join(timeout=60)
        listener.close()
    # a signal, not an exit code: lit's `not` does not turn it into a pass
    assert proc.returncode == -signal.SIGABRT
    assert b"ended without filecheck's exit status" in proc.stderr


def _forks_of(path: str) -> dict[int, int]:
    """{pid: parent pid} of the server at `path` and its forks (their command line names the socket)."""
    procs = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if path.encode() in (entry / "cmdline").read_bytes():
                    procs[int(entry.name)] = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            except (OSError, ValueError, IndexError):  # ended meanwhile
                pass
    return procs


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_a_command_killed_by_a_signal_kills_the_client_alike(server):
    import time

    client = subprocess.Popen(_client(server, "filecheck") + ["tests/filecheck/sanity.mlir"], cwd=REPO_ROOT, env=ENV,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        tool = None
        deadline = time.monotonic() + 60
        while tool is None and time.monotonic() < deadline:  # filecheck waits for its stdin meanwhile
            procs = _forks_of(server)
            handlers = {pid for pid, parent in procs.items() if parent in procs and parent not in
                        {p for p in procs if procs[p] in procs}}
            tool = next((pid for pid, parent in procs.items() if parent in handlers), None)
            time.sleep(0.05)
        assert tool is not None, "no tool process under the server"
        os.kill(tool, signal.SIGTERM)
        client.communicate(timeout=60)
    finally:
        client.kill()
    assert client.returncode == -signal.SIGTERM  # as the plain filecheck's would be
