"""xDSL's parametrized attribute definitions built on an attribute class's first use, not when the
class is defined.

xDSL 0.74's `irdl_attr_definition` gives each parametrized attribute class (`IntegerType`,
`MemRefType`, `LLVMStructType`, ...) its `ParamAttrDef` at class definition (`ParamAttrDef.from_pyrdl`:
the class's annotations evaluated from their strings, a constraint built for every parameter), then
makes it a frozen dataclass and runtime-final.  The dialects a compile imports define ~60 of them;
many are never built in a compile (xDSL's builtin and llvm types lasscc does not use), and
`from_pyrdl` was ~half of the attribute definitions' import time.

`install()` makes xDSL's `irdl_param_attr_definition` set, in place of the two class methods it
sets (`get_irdl_definition`, and `get_type_index` on a `TypedAttribute`), stand-ins that on their
first call build the definition as xDSL does (`ParamAttrDef.from_pyrdl` of the same class; every
key of the class's dictionary that from_pyrdl reads is the same then as at definition: the
dataclass and runtime-final steps only add dunder names, which it skips) and replace themselves
with xDSL's own closures.  Everything else (the dataclass, runtime_final) is xDSL's, at definition.
Every construction of an attribute calls `get_irdl_definition`, so a class is defined by its first
instance.  The difference: a class whose parameters xDSL rejects (or a TypedAttribute without a
`type` parameter) raises at first use instead of at import (tests/unit/test_lazy_attrs.py defines
every attribute of the dialects lasscc registers and compares each with the eager definition).

Only for the xDSL this was written against (`XDSL_VERSION`, pyproject's pin): with another version
installed, xDSL's decorator is left as it is.  Installed by `import lasscc` through lazy_formats'
hook on `xdsl.irdl.operations` (loaded before any dialect defines an attribute)."""

from __future__ import annotations

import os
import sys

from lasscc import lazy_formats

ATTRS_MODULE = "xdsl.irdl.attributes"
XDSL_VERSION = "0.74.0"  # pyproject.toml's pin: the decorator replaced below is this version's
_PENDING: set[type] = set()  # classes whose definition is not built yet


def _xdsl_is_pinned(module) -> bool:
    """Whether the installed xDSL is XDSL_VERSION: its dist-info folder beside the package (one stat;
    importlib.metadata would cost more than the saving)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(module.__file__)))  # .../xdsl
    return os.path.isdir(os.path.join(os.path.dirname(package), f"xdsl-{XDSL_VERSION}.dist-info"))


def _define(attrs, cls) -> None:
    """xDSL 0.74's `irdl_param_attr_definition` up to the dataclass step, on `cls` (which has had it)."""
    attr_def = attrs.ParamAttrDef.from_pyrdl(cls)

    @classmethod
    def get_irdl_definition(cls: type):
        return attr_def

    cls.get_irdl_definition = get_irdl_definition

    if issubclass(cls, attrs.TypedAttribute):
        type_indexes = tuple(i for i, (p, _) in enumerate(attr_def.parameters) if p == "type")
        if not type_indexes:
            raise attrs.PyRDLAttrDefinitionError(f"TypedAttribute {cls.__name__} should have a 'type' parameter.")
        type_index = type_indexes[0]

        @classmethod
        def get_type_index(cls: type) -> int:
            return type_index

        setattr(cls, "get_type_index", get_type_index)


def define(cls) -> None:
    """Build the pending attribute class `cls`'s definition now (nothing when it is built)."""
    if cls in _PENDING:
        _define(sys.modules[ATTRS_MODULE], cls)
        _PENDING.discard(cls)


def define_all() -> None:
    """Define every pending attribute class (for tests and tools that walk classes' dictionaries)."""
    for cls in list(_PENDING):
        define(cls)


def pending(cls) -> bool:
    return cls in _PENDING


def _lazy_definition(attrs):
    """`irdl_param_attr_definition` that defers the ParamAttrDef to the class's first use."""

    def irdl_param_attr_definition(cls):
        """Decorator used on classes to define a new attribute definition (on first use: lasscc.lazy_attrs)."""

        @classmethod
        def get_irdl_definition(owner):
            define(cls)
            return owner.get_irdl_definition()

        cls.get_irdl_definition = get_irdl_definition
        if issubclass(cls, attrs.TypedAttribute):

            @classmethod
            def get_type_index(owner):
                define(cls)
                return owner.get_type_index()

            setattr(cls, "get_type_index", get_type_index)
        _PENDING.add(cls)
        return attrs.runtime_final(attrs.dataclass(frozen=True, init=False)(cls))

    irdl_param_attr_definition._lasscc_lazy = True
    return irdl_param_attr_definition


def _patch(operations) -> None:
    attrs = sys.modules[ATTRS_MODULE]  # imported by xdsl.irdl.operations
    if getattr(attrs.irdl_param_attr_definition, "_lasscc_lazy", False) or not _xdsl_is_pinned(attrs):
        return
    attrs.irdl_param_attr_definition = _lazy_definition(attrs)


def install() -> None:
    """Patch xDSL now when it is loaded, else right after it is (idempotent; lazy_formats' hook)."""
    lazy_formats.after_load(_patch)


def is_lazy() -> bool:
    mod = sys.modules.get(ATTRS_MODULE)
    return mod is not None and getattr(mod.irdl_param_attr_definition, "_lasscc_lazy", False)
