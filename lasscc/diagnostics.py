"""User-facing errors: one exception type carrying text that already names the place.

Every error a user can cause (bad MLIR, an unsupported layout, a config the hardware can't hold,
a missing file, no GPU) becomes a `LassError` whose message starts with `file:line:col` or the
option's name.  The CLI prints it and exits 2; the Python API raises it as `lasscc.CompileError`.
"""

from __future__ import annotations

EXIT_USER_ERROR = 2


class LassError(Exception):
    """An error in the user's input, with a message that names the place and what was expected."""


def span_location(span, filename: str) -> str:
    """'file:line:col' of an xDSL Span (1-based line and column)."""
    if span is None:
        return filename
    line, col, _ = span.get_line_col()
    return f"{filename}:{line}:{col}"


def op_location(op, filename: str = "<input>") -> str:
    """'file:line:col' of an operation, when the parser left its position on it."""
    loc = getattr(op, "_lass_loc", None)
    return loc if loc else f"{filename}: op '{op.name}'"
