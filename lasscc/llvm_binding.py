"""llvmlite.binding with only the modules a compile uses loaded (issue 16: start-up).

`import llvmlite.binding` runs the package's `__init__`, which star-imports all fifteen of its
modules: the JIT (executionengine, which imports the `platform` module; orcjit), object files,
the linker, analysis, dylib, each declaring the ctypes prototypes of its LLVM functions.  A compile
uses LLVM's parser and verifier (module), the NVPTX target machine (targets, initfini), the new pass
manager (newpassmanagers) and command-line options (options).

`binding()` gives the `llvmlite.binding` module with those modules' names in it, as the package's
`__init__` star-imports them, and a module `__getattr__` that runs the package's own `__init__` in
the same module on the first read of any other name: from then on the module is exactly what
`import llvmlite.binding` makes (every name, in its order), and `import llvmlite.binding` elsewhere
in the process gets it.  Nothing else changes: the same shared library, loaded by llvmlite's own
`ffi`, the same functions (tests/unit/test_llvm_binding.py).

Only for the llvmlite series pyproject.toml pins (`LLVMLITE_SERIES`); with another, or when the
package is loaded already, the ordinary import."""

from __future__ import annotations

import importlib
import importlib.util
import sys

PACKAGE = "llvmlite.binding"
LLVMLITE_SERIES = "0.50."  # pyproject.toml: llvmlite>=0.50,<0.51, whose __init__ is the star-imports above
# the modules a compile calls into, in the package __init__'s order (each imports what it needs)
PARTS = ("initfini", "module", "options", "newpassmanagers", "targets")


def binding():
    """llvmlite.binding, its compile-time parts loaded (the whole package when it is loaded already,
    or when the installed llvmlite is not LLVMLITE_SERIES)."""
    module = sys.modules.get(PACKAGE)
    if module is not None:
        return module
    import llvmlite

    if not str(llvmlite.__version__).startswith(LLVMLITE_SERIES):
        return importlib.import_module(PACKAGE)
    spec = importlib.util.find_spec(PACKAGE)
    module = importlib.util.module_from_spec(spec)

    def __getattr__(name: str):
        """The rest of the package: its __init__, run once in this module, on the first other name."""
        if module.__dict__.pop("__getattr__", None) is not None:
            spec.loader.exec_module(module)
        return getattr(module, name)  # this hook gone: a name the package lacks is an AttributeError

    sys.modules[PACKAGE] = module
    try:
        for part in PARTS:
            loaded = importlib.import_module(f"{PACKAGE}.{part}")
            module.__dict__.update((k, v) for k, v in vars(loaded).items() if not k.startswith("_"))  # import *
    except BaseException:
        sys.modules.pop(PACKAGE, None)
        for name in [m for m in sys.modules if m.startswith(PACKAGE + ".")]:
            del sys.modules[name]
        raise
    module.__getattr__ = __getattr__
    llvmlite.binding = module  # what the import system sets on the parent package
    return module


def is_partial(module) -> bool:
    """Whether `module` (llvmlite.binding) still waits for the rest of its package."""
    return "__getattr__" in module.__dict__
