"""xDSL's declarative assembly formats read on an op's first custom parse or print, not when its
class is defined.

xDSL 0.74's `irdl_op_definition` parses every op's `assembly_format` string into a program at class
definition: ~230 formats of xDSL's and lasscc's dialects, ~0.1 s of a `lasscc compile` that parses
a handful of ops in custom form and prints none.  `install()` makes `irdl_op_definition` give such an
op a `parse` / `print` that build the same program (`FormatProgram.from_str` of the same string and
definition) on first use and reuse it: what is parsed and printed is unchanged.  The one difference:
a malformed format raises at first use instead of at import (tests/unit/test_lazy_formats.py parses
every format of the dialects lasscc registers).

The patch must be in place before a dialect module defines its ops, so `lasscc/__init__` installs
it through an import hook on `xdsl.irdl.operations` (importing that module itself would cost ~0.1 s
to an `import lasscc` that needs no xDSL)."""

from __future__ import annotations

import sys

TARGET = "xdsl.irdl.operations"  # the module that defines irdl_op_definition's helper


def _lazy_accessors(general):
    """`get_accessors_from_op_def` with the format program built on first use."""

    def get_accessors_from_op_def(op_def, custom_verify):
        fmt = op_def.assembly_format
        if fmt is None:
            return general(op_def, custom_verify)
        op_def.assembly_format = None  # the general accessors, without the eager program
        try:
            attrs = general(op_def, custom_verify)
        finally:
            op_def.assembly_format = fmt
        program = []  # the FormatProgram once built

        def get():
            if not program:
                from xdsl.irdl.declarative_assembly_format import FormatProgram
                from xdsl.irdl.operations import PyRDLOpDefinitionError
                from xdsl.utils.exceptions import ParseError

                try:
                    program.append(FormatProgram.from_str(fmt, op_def))
                except ParseError as e:  # as xDSL raises it at class definition
                    raise PyRDLOpDefinitionError("Error during the parsing of the assembly format: ", e.args) from e
            return program[0]

        @classmethod
        def parse_with_format(cls, parser):
            return get().parse(parser, cls)

        def print_with_format(self, printer):
            return get().print(printer, self)

        attrs["parse"] = parse_with_format
        attrs["print"] = print_with_format
        return attrs

    get_accessors_from_op_def._lasscc_lazy = True
    return get_accessors_from_op_def


def _patch(module) -> None:
    if not getattr(module.get_accessors_from_op_def, "_lasscc_lazy", False):
        module.get_accessors_from_op_def = _lazy_accessors(module.get_accessors_from_op_def)
    for patch in _AFTER:
        patch(module)


_AFTER: list = []  # other patches of TARGET made right after it loads (lasscc.lazy_ops)


def after_load(patch) -> None:
    """Run `patch(module)` on TARGET now when it is loaded, else right after it loads (the same hook)."""
    if patch not in _AFTER:
        _AFTER.append(patch)
    if TARGET in sys.modules:
        patch(sys.modules[TARGET])
    elif not any(isinstance(f, _Hook) for f in sys.meta_path):
        sys.meta_path.insert(0, _Hook())


class _Hook:
    """A meta-path finder that only wraps the loading of TARGET to patch it right after."""

    def find_spec(self, name, path, target=None):
        if name != TARGET:
            return None
        sys.meta_path.remove(self)
        for finder in sys.meta_path:
            spec = finder.find_spec(name, path, target) if hasattr(finder, "find_spec") else None
            if spec is not None:
                break
        else:
            return None
        loader_exec = spec.loader.exec_module

        def exec_module(module):
            loader_exec(module)
            _patch(module)

        spec.loader.exec_module = exec_module
        return spec


def install() -> None:
    """Patch xDSL now when it is loaded, else when it is (idempotent)."""
    if TARGET in sys.modules:
        _patch(sys.modules[TARGET])
    elif not any(isinstance(f, _Hook) for f in sys.meta_path):
        sys.meta_path.insert(0, _Hook())


def is_lazy() -> bool:
    """Whether xDSL's op definitions currently leave formats for first use."""
    mod = sys.modules.get(TARGET)
    return mod is not None and getattr(mod.get_accessors_from_op_def, "_lasscc_lazy", False)
