"""Reading MLIR text: xDSL's parser, with parse errors and op positions turned into `file:line:col`.

xDSL keeps no source location on operations; `LocatingParser` records where each op started so
that a pass rejecting an op can name the place in the user's file (`op_location`).
"""

from __future__ import annotations

from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

from lasscc.diagnostics import LassError
from lasscc.universe import make_context

# op -> "file:line:col"; keyed by id() with the op kept alive alongside (ops are not weakref-able)
_LOCATIONS: dict[int, tuple[Operation, str]] = {}


def op_location(op: Operation) -> str:
    """Where `op` (or its nearest located ancestor) was written, or its name when unknown."""
    cur: Operation | None = op
    while cur is not None:
        hit = _LOCATIONS.get(id(cur))
        if hit is not None and hit[0] is cur:
            return hit[1]
        cur = cur.parent_op()
    return f"<unknown location> ('{op.name}')"


def move_location(old: Operation, new: Operation) -> None:
    """Let `new` (a rewrite of `old`) report `old`'s source position."""
    hit = _LOCATIONS.get(id(old))
    if hit is not None and hit[0] is old:
        _LOCATIONS[id(new)] = (new, hit[1])


class LocatingParser(Parser):
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
        loc = span.get_location()
        _LOCATIONS[id(op)] = (op, f"{loc.filename}:{loc.line}:{loc.col}" if hasattr(loc, "filename") else str(loc))
        return op


def _loc_str(span) -> str:
    loc = span.get_location()
    return f"{loc.filename}:{loc.line}:{loc.col}" if hasattr(loc, "filename") else str(loc)


def parse_mlir(text: str, filename: str = "<stdin>") -> ModuleOp:
    """Parse and verify; any error becomes a LassError starting with file:line:col."""
    from lasscc import timing

    try:
        with timing.phase("parse"):
            module = LocatingParser(make_context(), text, filename).parse_module()
    except ParseError as e:
        first = str(e.msg).strip().splitlines()[0] if e.msg else "parse error"
        raise LassError(f"{_loc_str(e.span)}: error: {first}\n{e}") from None
    from xdsl.dialects.linalg.ops import MatmulOp

    from lasscc.passes.import_linalg import repair_mixed_precision_body

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
        return p.read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise LassError(f"{path}: error: cannot read ({e.__class__.__name__}: {e})") from None
