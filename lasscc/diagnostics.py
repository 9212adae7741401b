"""User-facing errors: one exception type carrying text that already names the place.

Every error a user can cause (bad MLIR, an unsupported layout, a config the hardware can't hold,
a missing file, no GPU) becomes a `LassError` whose message starts with `file:line:col` or the
option's name.  The CLI prints it and exits 2; the Python API raises it as `lasscc.CompileError`.
"""

from __future__ import annotations

EXIT_USER_ERROR = 2


class LassError(Exception):
    """An error in the user's input, with a message that names the place and what was expected."""


class CompileError(LassError):
    """The API's compile errors: the input could not be compiled; the message is the CLI's text."""


class LaunchError(LassError):
    """The API's launch errors: the operands do not fit the kernel, or the GPU launch failed."""
