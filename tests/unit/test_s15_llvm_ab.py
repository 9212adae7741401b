"""The CPU side of scripts/s15_llvm_ab.py (the GPU A/B of the LLVM IR pipeline, session 15): it builds
each kernel with O3's module pipeline (main's before session 15) and with emit._optimize's function
simplification pipeline in one process, and the swap is undone after each build."""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "s15_llvm_ab.py"


@pytest.fixture(scope="module")
def ab():
    spec = importlib.util.spec_from_file_location("s15_llvm_ab", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_both_pipelines_build_from_one_process_and_the_swap_is_undone(ab):
    from lasscc import emit

    optimize = emit._optimize
    old, spec, epi = ab.build("gemm_skinny_swap", "sm_90a", None, None, None, "o3")
    assert emit._optimize is optimize and "instsimplify" not in emit.CODEGEN_PASSES_SKIPPED
    new, spec2, _ = ab.build("gemm_skinny_swap", "sm_90a", None, None, None, "fpm")
    assert old != new and spec.name == spec2.name and epi is None
    # the function simplification pipeline leaves the warp index tid.x >> 7 (O3's pipeline-start
    # NVVMIntrRange gives tid.x the range [0, maxntid = 128) and folds it to 0)
    shr7 = r"shr\.u32\s+%r\d+, %r\d+, 7;"
    assert not re.search(shr7, old) and len(re.findall(shr7, new)) == 1, (old, new)
    again, _, _ = ab.build("gemm_skinny_swap", "sm_90a", None, None, None, "fpm")
    assert again == new  # nothing of the O3 build stayed behind


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="needs ptxas")
def test_build_only_prints_each_variants_ptxas_figures(ab, capsys):
    assert ab.main(["--build-only", "--examples", "gemm_skinny_swap:sm_90a"]) == 0
    out = capsys.readouterr().out
    assert re.fullmatch(r"gemm_skinny_swap sm_90a: PTX differs; o3 \d+ regs, SASS \d+; fpm \d+ regs, SASS \d+\n", out), out
