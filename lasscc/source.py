"""Reading MLIR text: xDSL's parser, with parse errors and op positions turned into `file:line:col`.

Every op's source position is its `Operation.location`, recorded by `lasscc.locations.LocatingParser`
(also re-exported here with `op_location` and `move_location`).
"""

from __future__ import annotations

from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

from lasscc.diagnostics import LassError
from lasscc.locations import LocatingParser, move_location, op_location
from lasscc.universe import make_context


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
    from lasscc.universe import linalg_loaded

    if linalg_loaded():
        from xdsl.dialects.linalg.ops import MatmulOp

        from lasscc.linalg import repair_mixed_precision_body
        from lasscc.linalg_batch import BatchMatmulOp

        for op in [o for o in module.walk() if isinstance(o, (MatmulOp, BatchMatmulOp))]:
            repair_mixed_precision_body(op)
    with timing.phase("verify input"):
        verify_module(module, filename)
    return module


def verify_module(module: ModuleOp, filename: str = "<input>", after: str | None = None) -> None:
    """Verify; an invalid module is a LassError at the failing op's place, naming the pass `after`
    which the IR was produced by (None: the input, or the end of several passes)."""
    from lasscc.universe import (block_counts_frozen, isolation_checks_by_block, op_checks_memoized,
                                 variadic_sizes_memoized)

    try:
        with block_counts_frozen(), variadic_sizes_memoized(), op_checks_memoized(), isolation_checks_by_block():
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


__all__ = ["parse_mlir", "verify_module", "read_file", "decode_text", "LocatingParser", "op_location", "move_location"]
