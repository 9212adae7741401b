"""Test-wide settings: the compile cache and `lasscc tune`'s store live in a temporary folder, so
the suite (and the CLI runs it starts, which inherit the environment) never writes to
~/.cache/lasscc nor reads a developer's entries."""

import os
import tempfile

os.environ["LASSCC_CACHE_DIR"] = tempfile.mkdtemp(prefix="lasscc-test-cache-")
