"""Op positions: `file:line:col` of where each op was written.

Every op's source position is its `Operation.location`.  xDSL 0.74's parser sets that field only
from an explicit trailing `loc(...)`; `LocatingParser` gives every other op the
`FileLineColLoc` of where it was written (what mlir-opt does), so that a pass rejecting an op can
name the place in the user's file (`op_location`).  `lasscc.universe` makes `xdsl-opt`'s MLIR
frontend use the same parser, so both drivers report the same `file:line:col`.  This module needs
nothing else of lasscc: the dialects, the passes and the universe read positions through it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, IntAttr, NameLoc, StringAttr
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser


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
