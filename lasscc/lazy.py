"""A module imported on its first attribute use: `np = lazy_module("numpy")`.

For modules the compile path imports but does not call (numpy costs ~0.12 s of a `lasscc compile`
whose passes never touch an array; the CPU executor and the Hopper layout helpers do)."""

from __future__ import annotations

import importlib
from types import ModuleType


class _LazyModule:
    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str):
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}{'' if self._module is None else ' (imported)'}>"


def lazy_module(name: str):
    """A stand-in for `import name` that imports it when an attribute is first read."""
    return _LazyModule(name)
