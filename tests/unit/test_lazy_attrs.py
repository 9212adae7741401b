"""xDSL's parametrized attribute definitions built on first use (lasscc/lazy_attrs.py, issue 16)."""

import subprocess
import sys
import types

import pytest

from lasscc import lazy_attrs

from _subprocess_json import ROOT, run_json

# Every attribute class of every dialect the compiler registers (xDSL's, lasscc's, linalg), defined
# (by the eager decorator or through lazy_attrs), described by what xDSL's definition gives it: the
# ParamAttrDef (name, each parameter's constraint and converter), the type index of a typed
# attribute, and the type of each entry of the class's dictionary.
_DESCRIBE = r"""
import json, re, sys
import lasscc
if sys.argv[1] == "eager":
    lasscc.lazy_formats._AFTER.remove(lasscc.lazy_attrs._patch)  # before xDSL loads: never patched
from lasscc import lazy_attrs
from lasscc.universe import make_context
from xdsl.ir import ParametrizedAttribute, TypedAttribute

ctx = make_context()
classes = []
for name in sorted(ctx.registered_dialect_names):
    dialect = ctx.get_optional_dialect(name) or ctx.load_registered_dialect(name)
    classes += [a for a in dialect.attributes if issubclass(a, ParametrizedAttribute)]
pending = sum(lazy_attrs.pending(a) for a in classes)
out = {}
for a in classes:
    before = lazy_attrs.pending(a)
    d = a.get_irdl_definition()
    out[f"{a.__module__}.{a.__qualname__}"] = {
        "pending before": before,
        "def": d and [d.name, [(n, repr(p.constr), repr(p.converter)) for n, p in d.parameters]],
        "type index": a.get_type_index() if issubclass(a, TypedAttribute) else None,
        "dict": sorted(f"{k}: {type(v).__name__}" for k, v in vars(a).items() if k != "__doc__"),
        "mro": [c.__qualname__ for c in a.__mro__],
    }
print(re.sub(r" at 0x[0-9a-f]+", "", json.dumps({"pending": pending, "lazy": lazy_attrs.is_lazy(),
                                                 "classes": out})))
"""


def _describe(mode: str) -> dict:
    return run_json(_DESCRIBE, mode)


def test_installed_by_import_lasscc():
    import xdsl.dialects.builtin  # noqa: F401

    assert lazy_attrs.is_lazy()


def test_every_attribute_defined_on_first_use_as_xdsl_defines_it():
    """Each parametrized attribute class, defined on first use, has the definition, the type index
    and the class dictionary that xDSL's own decorator gives it at import (the same dialects loaded
    with lazy_attrs left out)."""
    eager, lazy = _describe("eager"), _describe("lazy")
    assert not eager["lazy"] and lazy["lazy"]
    assert eager["pending"] == 0 and lazy["pending"] > 10
    assert len(eager["classes"]) > 50 and eager["classes"].keys() == lazy["classes"].keys()
    assert any(c["pending before"] for c in lazy["classes"].values())
    for name, want in eager["classes"].items():
        got = lazy["classes"][name]
        for key in ("def", "type index", "dict", "mro"):
            assert got[key] == want[key], (name, key)


def test_first_use_by_an_instance_or_the_type_index():
    """A pending class is defined by its first instance (ParametrizedAttribute.__init__ reads the
    definition) or by get_type_index; afterwards both are xDSL's closures (no stand-in left)."""
    from xdsl.dialects.builtin import IntAttr, IntegerType, i32
    from xdsl.ir import ParametrizedAttribute, TypedAttribute
    from xdsl.irdl import irdl_attr_definition

    @irdl_attr_definition
    class Pair(ParametrizedAttribute):
        name = "test_lazy_attrs.pair"
        first: IntAttr
        second: IntegerType

    @irdl_attr_definition
    class Typed(TypedAttribute):
        name = "test_lazy_attrs.typed"
        value: IntAttr
        type: IntegerType

    assert lazy_attrs.pending(Pair) and lazy_attrs.pending(Typed)
    p = Pair(IntAttr(1), i32)
    assert not lazy_attrs.pending(Pair) and p.parameters == (IntAttr(1), i32)
    assert [n for n, _ in Pair.get_irdl_definition().parameters] == ["first", "second"]
    assert Typed.get_type_index() == 1 and not lazy_attrs.pending(Typed)
    assert [n for n, _ in Typed.get_irdl_definition().parameters] == ["value", "type"]
    for cls, names in ((Pair, ["get_irdl_definition"]), (Typed, ["get_irdl_definition", "get_type_index"])):
        for name in names:  # the stand-ins are nested in the lazy decorator; the definitions are not
            assert "irdl_param_attr_definition" not in cls.__dict__[name].__func__.__qualname__


def test_malformed_attribute_raises_at_first_use():
    """What xDSL rejects at class definition is rejected at the first use, with xDSL's error."""
    from xdsl.dialects.builtin import IntAttr
    from xdsl.ir import TypedAttribute
    from xdsl.irdl import irdl_attr_definition
    from xdsl.utils.exceptions import PyRDLAttrDefinitionError

    @irdl_attr_definition
    class NoType(TypedAttribute):
        name = "test_lazy_attrs.no_type"
        value: IntAttr

    with pytest.raises(PyRDLAttrDefinitionError, match="should have a 'type' parameter"):
        NoType.get_type_index()


def test_only_the_pinned_xdsl_is_patched(tmp_path):
    """The version guard: an xDSL without the pinned dist-info beside it is left eager."""
    pkg = tmp_path / "xdsl" / "irdl"
    pkg.mkdir(parents=True)
    fake = types.SimpleNamespace(__file__=str(pkg / "attributes.py"))
    assert not lazy_attrs._xdsl_is_pinned(fake)
    (tmp_path / f"xdsl-{lazy_attrs.XDSL_VERSION}.dist-info").mkdir()
    assert lazy_attrs._xdsl_is_pinned(fake)
    import xdsl.irdl.attributes

    assert lazy_attrs._xdsl_is_pinned(xdsl.irdl.attributes)  # this environment: the pin


def test_compile_defines_only_the_attributes_it_uses(tmp_path):
    """A compile of examples/gemm.mlir leaves some of xDSL's attribute classes undefined (the saving)
    and writes the same PTX as with every class defined at import."""
    code = ("import sys; import lasscc\n"
            "if sys.argv[1] == 'eager': lasscc.lazy_formats._AFTER.remove(lasscc.lazy_attrs._patch)\n"
            "from lasscc.cli import main; from lasscc import lazy_attrs\n"
            f"rc = main(['compile', {str(ROOT / 'examples/gemm.mlir')!r}, '-o', sys.argv[2], '--no-cache'])\n"
            "print(rc, len(lazy_attrs._PENDING))")
    got = {}
    for mode in ("eager", "lazy"):
        out = tmp_path / f"{mode}.ptx"
        r = subprocess.run([sys.executable, "-c", code, mode, str(out)], capture_output=True, text=True, cwd=ROOT,
                           timeout=300)
        assert r.returncode == 0, r.stderr
        got[mode] = tuple(map(int, r.stdout.split("\n")[-2].split()))
    assert got["eager"] == (0, 0) and got["lazy"][0] == 0 and got["lazy"][1] >= 10
    assert (tmp_path / "eager.ptx").read_text() == (tmp_path / "lazy.ptx").read_text()
