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
