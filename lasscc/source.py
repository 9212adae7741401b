"""Reading MLIR text: xDSL's parser, with parse errors and op positions turned into `file:line:col`.

Every op's source position is its `Operation.location`.  xDSL 0.74's parser sets that field only
from an explicit trailing `loc(...)`; `LocatingParser` gives every other op the
`FileLineColLoc` of where it was written (what mlir-opt does), so that a pass rejecting an op can
name the place in the user's file (`op_location`).  `lasscc.universe` makes `xdsl-opt`'s MLIR
frontend use the same parser, so both drivers report the same `file:line:col`.
"""

from __future__ import annotations

from pathlib import Path

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, IntAttr, ModuleOp, NameLoc, StringAttr
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

from lasscc.diagnostics import LassError
from lasscc.universe import make_context


def _loc_text(loc: Attribute) -> str | None:
    """`file:line:col` of a location attribute (a name / call-site / fused location by the file
    position inside it), None for an unknown one."""
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    if isinstance(loc, NameLoc):
        return _loc_text(loc.location)
    if isinstance(loc, CallSiteLoc):
        return _loc_text(loc.callee)
    if isinstance(loc, FusedLoc):
        for inner in loc.locations.data:
            if (text := _loc_text(inner)) is not None:
                return text
    return None


def op_location(op: Operation) -> str:
    """Where `op` (or its nearest located ancestor) was written, or its name when unknown."""
    cur: Operation | None = op
    while cur is not None:
        if (text := _loc_text(cur.location)) is not None:
            return text
        cur = cur.parent_op()
    return f"<unknown location> ('{op.name}')"


def move_location(old: Operation, new: Operation) -> None:
    """Let `new` (a rewrite of `old`) report `old`'s source position."""
    new.location = old.location


class LocatingParser(Parser):
    """xDSL's parser, recording each op's position in `Operation.location` (an explicit
    `loc(...)` in the text wins) and turning crashes of custom parsers into located errors."""

    def parse_operation(self) -> Operation:
        span = self._current_token.span
        try:
            op = super().parse_operation()
        except (IndexError, KeyError, TypeError, AssertionError) as e:
            # an xDSL custom parser that crashes on syntax it does not know, e.g. upstream's
            # `linalg.matmul indexing_maps = [...] ins(...)` (xDSL 0.74 reads `{indexing_maps = ...}`)
            hint = ("; xDSL reads linalg indexing maps as an attribute dictionary in front: "
                    "linalg.matmul {indexing_maps = [...]} ins(...) outs(...)") if span.text.startswith("linalg.") else ""
            self.raise_error(f"could not parse this operation (the parser failed with {type(e).__name__}); "
                             f"check its syntax{hint}", span)
        if _loc_text(op.location) is None:
            loc = span.get_location()
            op.location = FileLineColLoc(StringAttr(loc.file), IntAttr(loc.line), IntAttr(loc.col))
        return op


def _loc_str(span) -> str:
    return str(span.get_location())  # file:line:col


def parse_mlir(text: str, filename: str = "<stdin>") -> ModuleOp:
    """Parse and verify; any error becomes a LassError starting with file:line:col."""
    from lasscc import timing

    parser = LocatingParser(make_context(), text, filename)
    try:
        with timing.phase("parse"):
            module = parser.parse_module()
    except ParseError as e:
        first = str(e.msg).strip().splitlines()[0] if e.msg else "parse error"
        raise LassError(f"{_loc_str(e.span)}: error: {first}\n{e}") from None
    except RecursionError:  # the parser recurses once per bracket
        raise LassError(f"{_loc_str(parser._current_token.span)}: error: expected brackets nested at most a few "
                        f"hundred deep (the parser recurses on each), got deeper nesting") from None
    except (VerifyException, DiagnosticException) as e:  # an attribute or type built while parsing: i64 range,
        first = str(e).strip().splitlines()  # a tensor where lass.gemm takes a memref
        raise LassError(f"{_loc_str(parser._current_token.span)}: error: "
                        f"{first[0] if first else 'invalid value'}") from None
    from xdsl.dialects.linalg.ops import MatmulOp

    from lasscc.linalg import repair_mixed_precision_body

    for op in [o for o in module.walk() if isinstance(o, MatmulOp)]:
        repair_mixed_precision_body(op)
    with timing.phase("verify input"):
        verify_module(module, filename)
    return module


def verify_module(module: ModuleOp, filename: str = "<input>", after: str | None = None) -> None:
    """Verify; an invalid module is a LassError at the failing op's place, naming the pass `after`
    which the IR was produced by (None: the input, or the end of several passes)."""
    from lasscc.universe import block_counts_frozen

    try:
        with block_counts_frozen():
            module.verify()
    except (VerifyException, DiagnosticException) as e:
        # find the op that failed to name its place
        bad = _first_failing_op(module)
        where = op_location(bad) if bad is not None else filename
        msg = str(e).strip().splitlines()
        by = f" (invalid IR after {after})" if after else ""
        raise LassError(f"{where}: error: {msg[0] if msg else 'verification failed'}{by}") from None


def _first_failing_op(module: ModuleOp) -> Operation | None:
    for op in module.walk():
        try:
            op.verify_()
            if hasattr(op, "verify_"):
                pass
        except Exception:
            return op
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except Exception:
            return op
    return None


def read_file(path: str) -> str:
    p = Path(path)
    if not p.exists():
        raise LassError(f"{path}: error: no such file")
    if p.is_dir():
        raise LassError(f"{path}: error: is a directory, expected an .mlir file")
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise LassError(f"{path}: error: cannot read ({e.__class__.__name__}: {e})") from None
    return decode_text(raw, path)


def decode_text(raw: bytes, path: str) -> str:
    """`raw` as UTF-8; a byte that is not gets `path:line:col: error` at that byte."""
    try:
        return raw.decode()
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise LassError(f"{path}:{line}:{col}: error: expected UTF-8 text (MLIR), got byte 0x{raw[e.start]:02x} "
                        f"(a binary file?)") from None
