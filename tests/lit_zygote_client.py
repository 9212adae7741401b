"""The client half of tests/lit_zygote.py: lit runs this (`python3 -S -I`, so only the standard library
starts: ~0.01 s) in place of `lasscc` / `xdsl-opt` / `filecheck`.

    python3 -S -I tests/lit_zygote_client.py SOCKET TOOL [ARG ...]

It hands the server its arguments, working folder, environment and its stdin / stdout / stderr
(the descriptors themselves, SCM_RIGHTS), waits for the command's end, and ends the same way: with
its exit code, or killed by the same signal.  When the server is not there (no socket, connection
refused) it runs the plain command instead (`exec`), so a lit run never depends on the server.  A
server that breaks off mid-command is reported on stderr and the client aborts (SIGABRT): a crash,
which fails a lit RUN line under `not` too.
"""

import _signal  # the C modules: `socket` / `signal` / `json` would import enum, re, ... (~25 ms a command)
import _socket
import _struct
import os
import sys

# The plain command each tool name stands for (lit.cfg.py's substitutions without the server).
PLAIN = {
    "lasscc": [sys.executable, "-m", "lasscc.cli"],
    "xdsl-opt": ["xdsl-opt"],
    "filecheck": ["filecheck"],
}


def _plain(tool: str, args: list[str]):
    argv = PLAIN[tool] + args
    os.execvp(argv[0], argv)


def _recv_exact(sock, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            break
        data += chunk
    return data


def encode_request(tool: str, args: list[str], cwd: str, env: dict[str, str]) -> bytes:
    """tool, cwd, the argument count, the arguments, then the environment as KEY=VALUE, NUL-separated
    (none of them can hold a NUL); tests/lit_zygote.py decodes it."""
    fields = [tool, cwd, str(len(args)), *args, *(f"{k}={v}" for k, v in env.items())]
    return b"\0".join(os.fsencode(f) for f in fields)


def main() -> None:
    path, tool, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    if tool not in PLAIN:
        sys.stderr.write(f"lit_zygote_client: unknown tool {tool!r}\n")
        sys.exit(2)
    try:
        for fd in (0, 1, 2):
            os.fstat(fd)
    except OSError:  # a closed standard stream: nothing to hand over, run it plainly
        _plain(tool, args)
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.connect(path)
    except OSError:  # no server (never started, stopped): the plain command
        sock.close()
        _plain(tool, args)
    request = encode_request(tool, args, os.getcwd(), dict(os.environ))
    try:
        sock.sendmsg([_struct.pack("!Q", len(request))],
                     [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, _struct.pack("3i", 0, 1, 2))])
        sock.sendall(request)
        reply = _recv_exact(sock, 8)
    except OSError as e:  # reset, broken pipe: the server went away mid-command
        reply = repr(e).encode()
    if len(reply) != 8:
        sys.stderr.write(f"lit_zygote_client: the server at {path} ended without {tool}'s exit status\n")
        sys.stderr.flush()
        os.abort()
    kind, value = _struct.unpack("!ii", reply)
    if kind == 2:  # a tool the server does not hold (its console script is not beside its interpreter)
        sock.close()
        _plain(tool, args)
    if kind == 1:  # killed by signal `value`: end the same way
        _signal.signal(value, _signal.SIG_DFL)
        os.kill(os.getpid(), value)
    os._exit(value)


if __name__ == "__main__":
    main()
