"""Test-wide settings: the compile cache and `lasscc tune`'s store live in a temporary folder, so
the suite (and the CLI runs it starts, which inherit the environment) never writes to
~/.cache/lasscc nor reads a developer's entries.

`LASSCC_TEST_CACHE_DIR=DIR` keeps the compiled kernels in DIR instead, so a second run of the suite
reuses them.  That is safe: every cache key holds a digest of the compiler's own sources
(lasscc/cache.py), so an edited pass never gets an older kernel back.  `lasscc tune`'s store in it
is removed at the start: tests must not see configs an earlier run stored.
"""

import os
import tempfile
from pathlib import Path

_kept = os.environ.get("LASSCC_TEST_CACHE_DIR")
os.environ["LASSCC_CACHE_DIR"] = _kept or tempfile.mkdtemp(prefix="lasscc-test-cache-")
if _kept:
    from lasscc.tune import TUNE_FILE

    (Path(_kept) / TUNE_FILE).unlink(missing_ok=True)
