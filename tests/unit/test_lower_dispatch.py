"""lasscc-lower-to-llvm picks an op's lowering by its class's identity (`type(op) is X`, not
`isinstance`: an ABC check is a Python call per branch, ~15,000 a Hopper compile): right only while
none of the op classes it names has a subclass, which this checks (a subclass would fall through to
"has no lowering")."""

from __future__ import annotations

import ast
import inspect
import textwrap

import pytest

from lasscc.passes import lower_sm90, lower_to_llvm


def _dispatched(fn, module) -> list[type]:
    """The classes `fn` compares `t` (its op's type) with: `t is X` and `t in (X, Y)`."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "t":
            for op, right in zip(node.ops, node.comparators):
                exprs = right.elts if isinstance(op, ast.In) and isinstance(right, ast.Tuple) else [right]
                found += [eval(compile(ast.Expression(e), "<dispatch>", "eval"), vars(module)) for e in exprs]
    return found


@pytest.mark.parametrize("fn,module,at_least", [(lower_to_llvm._Lowerer.lower, lower_to_llvm, 40),
                                                (lower_sm90.lower_sm90, lower_sm90, 20)])
def test_dispatched_classes_have_no_subclasses(fn, module, at_least):
    classes = _dispatched(fn, module)
    assert len(classes) >= at_least  # the parse found the comparisons
    assert "isinstance(op," not in inspect.getsource(fn)  # every branch compares the same way
    for cls in classes:
        assert isinstance(cls, type) and cls.__subclasses__() == [], cls

