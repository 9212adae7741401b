"""The import graph of the lasscc package, read from the source with `ast`, and its cycles.

    python scripts/import_graph.py            # every edge, then the cycles (exit 1 when there is one)

Every `import lasscc.X` / `from lasscc.X import Y` / relative import counts, at module level and
inside functions alike (a function-level import still ties the two modules together; it only
defers the cost).  Modules are named as installed: `lasscc/...` is `lasscc....`, `dialects/` is
`lasscc.dialects` and `passes/` is `lasscc.passes` (pyproject.toml's package-dir).  `from P import
N` names the module P.N when that is one, else P.  A package's own `__init__` is not an edge of
its submodules (Python runs it first, but nothing in it is the submodule's choice).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# installed package -> source directory (pyproject.toml: [tool.setuptools] package-dir)
PACKAGE_DIRS = {"lasscc": ROOT / "lasscc", "lasscc.dialects": ROOT / "dialects", "lasscc.passes": ROOT / "passes"}


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """{module name: source file} of every module of the lasscc package."""
    out: dict[str, Path] = {}
    for pkg, d in PACKAGE_DIRS.items():
        d = root / d.relative_to(ROOT)
        for f in sorted(d.rglob("*.py")):
            rel = f.relative_to(d).with_suffix("").parts
            if rel[-1] == "__init__":
                rel = rel[:-1]
            name = ".".join((pkg, *rel))
            out[name] = f
    return out


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _imported(node: ast.AST, module: str, is_pkg: bool, known: set[str]) -> list[str]:
    """The lasscc modules one import statement names."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            base = module.split(".") if is_pkg else module.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module or ""
        names = [f"{prefix}.{a.name}" if f"{prefix}.{a.name}" in known else prefix for a in node.names]
    else:
        return []
    out = []
    for n in names:
        while n and n not in known:  # `import lasscc.x.y` of a name, not a module: its module
            n = n.rpartition(".")[0]
        if n:
            out.append(n)
    return out


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """{module: the lasscc modules it imports} (module- and function-level imports alike)."""
    files = module_files(root)
    known = set(files)
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(), str(path))
        deps = set()
        for node in ast.walk(tree):
            for dep in _imported(node, name, _is_package(path), known):
                if dep != name and not name.startswith(dep + "."):  # a package's __init__ is not a choice
                    deps.add(dep)
        graph[name] = deps
    return graph


def cycles(graph: dict[str, set[str]], allowed: set[tuple[str, str]] = frozenset()) -> list[list[str]]:
    """The import cycles: one shortest cycle through each strongly connected component of more than
    one module (Tarjan), as [m0, m1, ..., m0]; edges in `allowed` are left out of the graph."""
    g = {m: sorted(d for d in deps if (m, d) not in allowed and d in graph) for m, deps in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    comps: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:  # recursive: the package has ~70 modules
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in g[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            strong(v)
    out = []
    for comp in sorted(comps):
        members = set(comp)
        start = comp[0]
        # breadth-first from start back to start inside the component: a shortest cycle
        prev: dict[str, str] = {}
        frontier = [start]
        found = None
        while frontier and found is None:
            nxt = []
            for v in frontier:
                for w in g[v]:
                    if w not in members:
                        continue
                    if w == start:
                        found = v
                        break
                    if w not in prev:
                        prev[w] = v
                        nxt.append(w)
                if found is not None:
                    break
            frontier = nxt
        chain = [found]  # found -> start closes the cycle; walk back to start
        while chain[-1] != start:
            chain.append(prev[chain[-1]])
        out.append([*reversed(chain), start])
    return out


def format_cycle(cycle: list[str]) -> str:
    return " -> ".join(cycle)


def main() -> int:
    graph = import_graph()
    for m in sorted(graph):
        for d in sorted(graph[m]):
            print(f"{m} -> {d}")
    found = cycles(graph)
    print(f"\n{len(found)} cycle(s)" + (":" if found else ""))
    for c in found:
        print("  " + format_cycle(c))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
