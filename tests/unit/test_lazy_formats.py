"""xDSL's assembly formats built on first use (lasscc/lazy_formats.py, issue 16)."""

import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects import arith, builtin
from xdsl.irdl.declarative_assembly_format import FormatProgram
from xdsl.irdl.operations import PyRDLOpDefinitionError
from xdsl.printer import Printer

from lasscc import lazy_formats
from lasscc.source import parse_mlir
from lasscc.universe import make_context

ROOT = Path(__file__).resolve().parents[2]


def test_installed_by_import_lasscc():
    assert lazy_formats.is_lazy()


def _ops_with_formats():
    ctx = make_context()
    for name in list(ctx.registered_dialect_names):
        dialect = ctx.get_optional_dialect(name) or ctx.load_registered_dialect(name)
        for op in dialect.operations:
            if hasattr(op, "get_irdl_definition") and op.get_irdl_definition().assembly_format is not None:
                yield op


def test_every_format_builds():
    """What each op's first custom parse / print builds: every format of every dialect the compiler
    registers (xDSL's, lasscc's, linalg) parses, as xDSL checks at class definition."""
    ops = list(_ops_with_formats())
    assert len(ops) > 100 and any(op.name.startswith("lass_pipe.") for op in ops)
    for op in ops:
        op_def = op.get_irdl_definition()
        assert isinstance(FormatProgram.from_str(op_def.assembly_format, op_def), FormatProgram), op.name


def test_custom_form_round_trips():
    text = ('"func.func"() <{sym_name = "f", function_type = (i32) -> i32}> ({\n'
            "^bb0(%a: i32):\n  %b = arith.addi %a, %a : i32\n  %c = arith.muli %b, %a overflow<nsw> : i32\n"
            "  func.return %c : i32\n}) : () -> ()")
    module = parse_mlir(text, "t.mlir")
    printed = str(module)
    assert "%b = arith.addi %a, %a : i32" in printed and "%c = arith.muli %b, %a overflow<nsw> : i32" in printed
    assert "func.return %c : i32" in printed
    assert str(parse_mlir(printed, "t2.mlir")) == printed


def test_malformed_format_raises_at_first_use():
    """A bad format still raises xDSL's PyRDLOpDefinitionError, at the op's first custom print."""
    from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def

    @irdl_op_definition
    class BadFormatOp(IRDLOperation):
        name = "test.bad_format"
        x = operand_def(builtin.i32)
        assembly_format = "$x $nonexistent attr-dict"

    op = BadFormatOp(operands=[arith.ConstantOp.from_int_and_width(1, 32).result])
    with pytest.raises(PyRDLOpDefinitionError):
        op.print(Printer())


def test_compile_builds_few_formats(tmp_path):
    """A fresh process running the front of the compile builds the formats of the ops it parses in
    custom form and no others (xDSL's ~230 would cost ~0.1 s)."""
    out = tmp_path / "o.mlir"
    code = ("import sys, lasscc; "
            "import xdsl.irdl.declarative_assembly_format as d; "
            "built = []; orig = d.FormatProgram.from_str; "
            "d.FormatProgram.from_str = staticmethod(lambda f, o: built.append(o.name) or orig(f, o)); "
            "from lasscc.cli import main; "
            f"rc = main(['opt', {str(ROOT / 'examples/gemm.mlir')!r}, '-p', 'lasscc-import-linalg', '-o', {str(out)!r}]); "
            "print(rc, len(built))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    rc, built = r.stdout.split("\n")[-2].split()
    assert rc == "0" and 0 < int(built) < 20, r.stdout
