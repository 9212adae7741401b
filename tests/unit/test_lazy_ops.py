"""xDSL's op definitions built on first use (lasscc/lazy_ops.py, issue 16)."""

import subprocess
import sys

from xdsl.dialects import arith, builtin, llvm
from xdsl.traits import Pure

from lasscc import lazy_ops

from _subprocess_json import ROOT, run_json

# Every op class of every dialect the compiler registers (xDSL's, lasscc's, linalg), defined (by the
# eager decorator or through lazy_ops), described by what xDSL's definition gives it: the OpDef and
# the type of each entry of the class's dictionary.
_DESCRIBE = r"""
import json, re, sys
import lasscc
if sys.argv[1] == "eager":
    lasscc.lazy_formats._AFTER.clear()  # before xDSL loads: lazy_ops never patches it
from lasscc import lazy_ops
from lasscc.universe import make_context
from xdsl.irdl import IRDLOperation

ctx = make_context()
classes = []
for name in sorted(ctx.registered_dialect_names):
    dialect = ctx.get_optional_dialect(name) or ctx.load_registered_dialect(name)
    classes += [op for op in dialect.operations if issubclass(op, IRDLOperation)]  # hasattr would define it
pending = sum(lazy_ops.pending(op) for op in classes)
out = {}
for op in classes:
    d = op.get_irdl_definition()
    out[f"{op.__module__}.{op.__qualname__}"] = {
        "pending before": lazy_ops.pending(op),
        "def": [d.name, repr(d.operands), repr(d.results), repr(d.attributes), repr(d.properties), repr(d.regions),
                repr(d.successors), repr(d.options), repr(d.accessor_names), d.assembly_format,
                sorted(repr(t) for t in d.traits)],
        "dict": sorted(f"{k}: {type(v).__name__}" for k, v in vars(op).items() if k != "__doc__"),
        "accessors": sorted(f"{k}: {v!r}" for k, v in vars(op).items() if type(v).__name__.endswith("Accessor")),
    }
print(re.sub(r" at 0x[0-9a-f]+", "", json.dumps({"pending": pending, "classes": out})))  # object addresses
"""


def _describe(mode: str) -> dict:
    return run_json(_DESCRIBE, mode)


def test_installed_by_import_lasscc():
    assert lazy_ops.is_lazy()


def test_every_op_defined_on_first_use_as_xdsl_defines_it():
    """Each op class, defined on first use, has the OpDef, the accessors and the class dictionary that
    xDSL's own decorator gives it at import (the same dialects loaded with lazy_ops left out)."""
    eager, lazy = _describe("eager"), _describe("lazy")
    assert eager["pending"] == 0 and lazy["pending"] > 100
    assert len(eager["classes"]) > 200 and eager["classes"].keys() == lazy["classes"].keys()
    for name, want in eager["classes"].items():
        got = lazy["classes"][name]
        assert got["def"] == want["def"], name
        assert got["dict"] == want["dict"], name
        assert got["accessors"] == want["accessors"], name


def test_first_use_through_the_class_or_an_instance():
    """A pending class is defined by whichever of its names is read first: has_trait (traits, here
    from an undecorated base class as xDSL's binary ops have them), an accessor of an op built by
    create() (Operation.__init__ reads the definition), the definition itself."""
    from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def
    from xdsl.dialects.builtin import IntegerType

    class Base(IRDLOperation):
        x = operand_def(IntegerType)
        y = result_def(IntegerType)
        traits = traits_def(Pure())

    @irdl_op_definition
    class A(Base):
        name = "test_lazy.a"

    @irdl_op_definition
    class C(IRDLOperation):
        name = "test_lazy.c"
        x = operand_def(IntegerType)

    assert lazy_ops.pending(A) and lazy_ops.pending(C)
    assert A.has_trait(Pure) and not lazy_ops.pending(A)
    assert [n for n, _ in A.get_irdl_definition().operands] == ["x"]
    one = arith.ConstantOp.from_int_and_width(1, 32)
    assert lazy_ops.pending(C)
    c = C.create(operands=[one.result])
    assert not lazy_ops.pending(C) and c.x is one.result and not C.has_trait(Pure)


def test_compile_defines_only_the_ops_it_uses(tmp_path):
    """A compile of examples/gemm.mlir leaves most of xDSL's llvm / math ops undefined (the saving)."""
    code = ("import sys; from lasscc.cli import main; from lasscc import lazy_ops; from xdsl.dialects import llvm, math; "
            f"rc = main(['compile', {str(ROOT / 'examples/gemm.mlir')!r}, '-o', {str(tmp_path / 'k.ptx')!r}, '--no-cache']); "
            "ops = [getattr(m, n) for m in (llvm, math) for n in dir(m) if n.endswith('Op')]; "
            "print(rc, sum(map(lazy_ops.pending, ops)), len(ops))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    rc, pending, total = map(int, r.stdout.split("\n")[-2].split())
    assert rc == 0 and pending > total // 2


def test_defined_classes_are_usable():
    """Ops the other tests may not have touched: built, printed, verified."""
    c = arith.ConstantOp.from_int_and_width(3, 32)
    add = arith.AddiOp(c, c)
    add.verify()
    assert add.lhs is c.result and add.has_trait(Pure)
    assert "arith.addi" in str(builtin.ModuleOp([c, add]))
    assert llvm.ReturnOp.get_irdl_definition().name == "llvm.return"
