"""No import cycles inside the lasscc package (scripts/import_graph.py: module- and function-level
imports, read from the source with ast; dialects/ and passes/ as lasscc.dialects / lasscc.passes)."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("import_graph", ROOT / "scripts" / "import_graph.py")
import_graph = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(import_graph)

def test_the_graph_reads_the_package():
    """The graph holds every module, with the edges that are known to be there (a sanity check of
    the reader: relative, function-level and `from lasscc import x` imports all count)."""
    graph = import_graph.import_graph()
    assert {"lasscc.api", "lasscc.cli", "lasscc.options", "lasscc.interop", "lasscc.dialects.lass",
            "lasscc.passes.warp_mma", "lasscc.interp.executor", "lasscc.runtime.cuda"} <= set(graph)
    assert "lasscc.options" in graph["lasscc.api"] and "lasscc.interop" in graph["lasscc.api"]
    assert "lasscc.explain" in graph["lasscc.cli"]  # function-level: build_parser's explain subcommand
    assert "lasscc.timing" in graph["lasscc.driver"]  # `from lasscc import timing`
    assert "lasscc.api" in graph["lasscc"]  # the lazy API of lasscc/__init__.py


def test_cycles_are_found():
    """The cycle finder reports a cycle it is given (so an empty answer below means something)."""
    g = {"x": {"y"}, "y": {"z"}, "z": {"x"}, "w": {"x"}}
    assert import_graph.cycles(g) == [["x", "y", "z", "x"]]
    assert import_graph.cycles(g, {("z", "x")}) == []


def test_no_import_cycles():
    found = import_graph.cycles(import_graph.import_graph())
    assert not found, "import cycles in lasscc:\n" + "\n".join(import_graph.format_cycle(c) for c in found)
