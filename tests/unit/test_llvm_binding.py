"""llvmlite.binding with only a compile's modules loaded (lasscc/llvm_binding.py, issue 16)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = ["llvmlite.binding.analysis", "llvmlite.binding.dylib", "llvmlite.binding.executionengine",
           "llvmlite.binding.object_file", "llvmlite.binding.orcjit", "platform"]


def _run(code: str, *args: str) -> str:
    r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.split("\n")[-2]


_NAMES = ("import json, sys\n"
          "def names(b): return sorted(f'{k}: {type(v).__name__}: {getattr(v, \"__module__\", None)}' "
          "for k, v in vars(b).items() if k not in ('__builtins__', '__getattr__'))\n")


def test_compile_loads_only_its_parts_and_writes_the_same_ptx(tmp_path):
    """A compile in a fresh process leaves the JIT, object-file, analysis and dylib modules (and
    `platform`) unloaded, and writes the PTX that a compile with the whole package loaded first writes."""
    code = ("import sys\n"
            "if sys.argv[1] == 'whole': import llvmlite.binding\n"
            "from lasscc.cli import main\n"
            f"rc = main(['compile', {str(ROOT / 'examples/gemm.mlir')!r}, '-o', sys.argv[2], '--no-cache'])\n"
            f"print(rc, sorted(m for m in {SKIPPED!r} if m in sys.modules))")
    part, whole = tmp_path / "part.ptx", tmp_path / "whole.ptx"
    assert _run(code, "part", str(part)) == "0 []"
    assert _run(code, "whole", str(whole)) == f"0 {SKIPPED!r}"
    assert part.read_text() == whole.read_text() and ".entry" in part.read_text()


def test_the_rest_of_the_package_on_the_first_other_name():
    """Before: the compile's names, as the package's star-imports give them; after reading a name of
    a skipped module (and for `import llvmlite.binding` anywhere): the module a plain import makes,
    name for name, with the functions already taken out of it unchanged."""
    partial = _NAMES + (
        "from lasscc.llvm_binding import binding, is_partial\n"
        "b = binding(); before = names(b); parse = b.parse_assembly; was = is_partial(b)\n"
        "import llvmlite.binding as again\n"
        "assert again is b and is_partial(b)\n"
        "jit = b.create_mcjit_compiler\n"
        "print(json.dumps([was, is_partial(b), before, names(b), b.parse_assembly is parse, "
        "'platform' in sys.modules, hasattr(b, 'no_such_name')]))")
    was, still, before, after, same_fn, platform, bogus = json.loads(_run(partial))
    whole = json.loads(_run(_NAMES + "import llvmlite.binding as b\nprint(json.dumps(names(b)))"))
    assert was and not still and same_fn and platform and not bogus
    assert after == whole
    key = lambda entry: entry.split(":")[0]  # noqa: E731 (a name: before the package's __init__ ran)
    assert {*map(key, before)} < {*map(key, whole)} and "parse_assembly: function: llvmlite.binding.module" in before
    assert not any(n.startswith("create_mcjit_compiler") for n in before)


def test_other_llvmlite_series_and_a_loaded_package_get_the_plain_import():
    """The version guard (another llvmlite series: the package's own __init__ at once) and a package
    loaded already (returned as it is)."""
    code = ("import sys, llvmlite\n"
            "llvmlite.__version__ = '0.51.0'\n"
            "from lasscc.llvm_binding import binding, is_partial\n"
            "b = binding()\n"
            "print(is_partial(b), 'llvmlite.binding.executionengine' in sys.modules, binding() is b)")
    assert _run(code) == "False True True"
