"""xDSL's op definitions built on an op class's first use, not when the class is defined.

xDSL 0.74's `irdl_op_definition` turns each op class's fields (`operand_def`, `prop_def`, ...) into an
`OpDef` (`OpDef.from_pyrdl`: the constraints of every field, `AnyOf` merging) and sets the accessors,
`traits`, `verify_` and `get_irdl_definition` on the class.  The dialects a compile imports define
~270 op classes (xDSL's arith, llvm, math, scf, cf, func, builtin; lasscc's own); a compile of
examples/gemm.mlir uses 77 of them, and the definitions took ~29 ms of its CPU.

`install()` makes `irdl_op_definition` leave the class as it is but for a stand-in (`_Pending`) under
each name the definition would set: the first read, write or delete of any of them through the class
or an instance -- creating an op (`Operation.__init__` runs `__post_init__`, which reads
`get_irdl_definition`), parsing one (`parse`), `has_trait` (`traits`), verifying (`verify_`) --
puts the class's own fields back and runs xDSL's own definition (`OpDef.from_pyrdl` and
`get_accessors_from_op_def`, as the module holds them then: lazy_formats' wrapper included) on it,
so the class ends up exactly as the eager decorator leaves it.  A class defined from a pending op
class gets its base defined first (from_pyrdl of the subclass then sees the base as xDSL would).
The difference: an op class whose fields xDSL rejects raises at first use instead of at import
(tests/unit/test_lazy_ops.py defines every op of the dialects lasscc registers and compares each with
the eager definition).

Installed by `import lasscc`, through lazy_formats' hook on `xdsl.irdl.operations`, before any dialect
is defined."""

from __future__ import annotations

import sys

from lasscc import lazy_formats

TARGET = lazy_formats.TARGET
_PENDING: dict[type, tuple[dict[str, object], object]] = {}  # class -> (its own entries replaced, custom verify_)
_ABSENT = object()
_NOT_FIELDS = ("name", "assembly_format", "custom_directives")


class _Pending:
    """A name that xDSL's definition of `owner` sets: reading, writing or deleting it defines the class."""

    __slots__ = ("owner", "name")

    def __init__(self, owner: type, name: str):
        self.owner, self.name = owner, name

    def __get__(self, obj, objtype=None):
        define(self.owner)
        return getattr(objtype if obj is None else obj, self.name)

    def __set__(self, obj, value):
        define(self.owner)
        setattr(obj, self.name, value)

    def __delete__(self, obj):
        define(self.owner)
        delattr(obj, self.name)


def _set_names(cls, ops) -> list[str]:
    """The names xDSL's definition of `cls` sets: its fields' accessors (the first definition of each
    name along the MRO, as OpDef.from_pyrdl takes them), traits, get_irdl_definition, verify_, and
    parse / print with an assembly format."""
    from typing import Generic

    skip = ops._OPERATION_DICT_KEYS
    field_type = ops._OpDefField
    own = set(ops.Operation.__mro__)
    names: list[str] = []
    seen: set[str] = set()
    for parent in cls.__mro__:
        if parent is Generic or parent in own:
            continue
        for key, value in parent.__dict__.items():
            if key in seen or key in skip or key in _NOT_FIELDS or not isinstance(value, field_type):
                continue
            seen.add(key)
            names.append(key)
    names += ["traits", "get_irdl_definition", "verify_"]
    if cls.assembly_format is not None:
        names += ["parse", "print"]
    return names


def _lazy_definition(ops):
    """`irdl_op_definition` that defers the definition to the class's first use."""

    def irdl_op_definition(cls):
        """Decorator used on classes to define a new operation definition (on first use: lasscc.lazy_ops)."""
        assert issubclass(cls, ops.IRDLOperation), f"class {cls.__name__} should be a subclass of IRDLOperation"
        for base in cls.__mro__[1:]:
            if base in _PENDING:
                define(base)
        custom_verify = getattr(cls, "verify_", None)  # what the eager decorator reads, now
        replaced = {}
        for name in _set_names(cls, ops):
            replaced[name] = cls.__dict__.get(name, _ABSENT)
            setattr(cls, name, _Pending(cls, name))
        _PENDING[cls] = (replaced, custom_verify)
        return cls

    irdl_op_definition._lasscc_lazy = True
    irdl_op_definition._eager = ops.irdl_op_definition
    return irdl_op_definition


def define(cls) -> None:
    """Run xDSL's definition of the pending op class `cls` now (nothing when it is defined)."""
    entry = _PENDING.pop(cls, None)
    if entry is None:
        return
    replaced, custom_verify = entry
    for name, value in replaced.items():  # the class as it was written
        if value is _ABSENT:
            delattr(cls, name)
        else:
            setattr(cls, name, value)
    ops = sys.modules[TARGET]
    op_def = ops.OpDef.from_pyrdl(cls)
    for name, value in ops.get_accessors_from_op_def(op_def, custom_verify).items():
        setattr(cls, name, value)


def define_all() -> None:
    """Define every pending op class (for tests and tools that walk classes' dictionaries)."""
    while _PENDING:
        define(next(iter(_PENDING)))


def pending(cls) -> bool:
    return cls in _PENDING


def _patch(module) -> None:
    eager = module.irdl_op_definition
    if getattr(eager, "_lasscc_lazy", False):
        return
    module.irdl_op_definition = _lazy_definition(module)
    irdl = sys.modules.get("xdsl.irdl")  # its re-export, when xDSL was loaded before lasscc
    if irdl is not None and irdl.__dict__.get("irdl_op_definition") is eager:
        irdl.irdl_op_definition = module.irdl_op_definition


def install() -> None:
    """Patch xDSL now when it is loaded, else right after it is (idempotent; lazy_formats' hook)."""
    lazy_formats.after_load(_patch)


def is_lazy() -> bool:
    mod = sys.modules.get(TARGET)
    return mod is not None and getattr(mod.irdl_op_definition, "_lasscc_lazy", False)
