"""Test-wide settings: the compile cache and `lasscc tune`'s store live in a temporary folder, so
the suite (and the CLI runs it starts, which inherit the environment) never writes to
~/.cache/lasscc nor reads a developer's entries.

`LASSCC_TEST_CACHE_DIR=DIR` keeps the compiled kernels in DIR instead, so a second run of the suite
reuses them.  That is safe: every cache key holds a digest of the compiler's own sources
(lasscc/cache.py), so an edited pass never gets an older kernel back.
"""

import os
import tempfile

os.environ["LASSCC_CACHE_DIR"] = os.environ.get("LASSCC_TEST_CACHE_DIR") or tempfile.mkdtemp(prefix="lasscc-test-cache-")
