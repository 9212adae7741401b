"""Do two folders of LLVM IR (`scripts/emit_examples.py`'s `.ll` files of two versions) hold the same
modules once LLVM has parsed them?  For a change to how the IR text is written (value names, spelling,
the order of lines) that must not change what LLVM compiles.

    python3 scripts/same_llvm_module.py BEFORE_DIR AFTER_DIR

Each `NAME.ll` of BEFORE_DIR and its namesake in AFTER_DIR are parsed and verified by LLVM
(llvmlite), their function-local names dropped (LLVM's StripNonDebugSymbols, as `emit._optimize`
does before its pipeline), and the two modules' printed text compared.  Prints the files that differ; exit
code 1 if any does (or one is missing).
"""

from __future__ import annotations

import sys
from pathlib import Path


def canonical(text: str) -> str:
    """The module LLVM reads from `text`, printed with the local value and block names dropped."""
    import llvmlite.binding as llvm_b

    from lasscc.emit import NVPTX_TRIPLE

    mod = llvm_b.parse_assembly(text)
    mod.verify()
    tm = llvm_b.Target.from_triple(NVPTX_TRIPLE).create_target_machine(cpu="sm_80")
    pb = llvm_b.create_pass_builder(tm, llvm_b.create_pipeline_tuning_options())
    strip = llvm_b.create_new_module_pass_manager()
    strip.add_strip_non_debug_symbols_pass()
    strip.run(mod, pb)
    return str(mod)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    import llvmlite.binding as llvm_b

    llvm_b.initialize_all_targets()
    llvm_b.initialize_all_asmprinters()
    before, after = map(Path, argv)
    files = sorted(before.glob("*.ll"))
    bad = []
    for f in files:
        other = after / f.name
        if not other.exists() or canonical(f.read_text()) != canonical(other.read_text()):
            bad.append(f.name)
            print(f"different: {f.name}")
    print(f"{len(files)} modules, {len(bad)} different", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
