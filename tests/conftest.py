"""Test-wide settings: the compile cache and `lasscc tune`'s store live in a temporary folder, so
the suite (and the CLI runs it starts, which inherit the environment) never writes to
~/.cache/lasscc nor reads a developer's entries.

`LASSCC_TEST_CACHE_DIR=DIR` keeps the compiled kernels in DIR instead, so a second run of the suite
reuses them.  That is safe: every cache key holds a digest of the compiler's own sources
(lasscc/cache.py), so an edited pass never gets an older kernel back.  `lasscc tune`'s store in it
is removed at the start: tests must not see configs an earlier run stored.

Under pytest-xdist the workers share the controller's folder (its path reaches them in
`_LASSCC_SUITE_CACHE_DIR`; entries are written atomically), so a kernel one worker compiled through
the cache -- the CLI runs, lit's `lasscc` processes, `lasscc.compile` -- is a hit on the other.  The
temporary folder is removed when the process that made it exits.
"""

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

_kept = os.environ.get("LASSCC_TEST_CACHE_DIR")
_shared = os.environ.get("_LASSCC_SUITE_CACHE_DIR") if os.environ.get("PYTEST_XDIST_WORKER") else None
if _kept or _shared:
    os.environ["LASSCC_CACHE_DIR"] = _kept or _shared
else:
    _made = tempfile.mkdtemp(prefix="lasscc-test-cache-")
    os.environ["LASSCC_CACHE_DIR"] = os.environ["_LASSCC_SUITE_CACHE_DIR"] = _made
    atexit.register(shutil.rmtree, _made, True)
if _kept:
    from lasscc.tune import TUNE_FILE

    (Path(_kept) / TUNE_FILE).unlink(missing_ok=True)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """pytest-xdist, on the controller: hand each worker the `--dist` mode (a worker's own option
    reads "no"), for tests/test_filecheck.py."""
    node.workerinput["lasscc_dist"] = node.config.getoption("dist")


def pytest_sessionfinish(session):
    """Stop the fork server that tests running the CLI share (tests/lit_zygote.py's lasscc_command)."""
    import sys

    zygote = sys.modules.get("lit_zygote")
    if zygote is not None:
        zygote.stop_shared()
