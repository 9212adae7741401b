"""`#lass.kernel` (dialects/lass.py: KernelAttr): a kernel's facts in one typed attribute.

1. Print / parse round trip (every fact, floats exact to the f32 bit, inf / nan included); a
   hand-written one may leave keys out (KernelFacts' defaults) and give them in any order.
2. Checked when parsed: each fact outside lasscc-tile-threadblock's contract is an error at its
   key, saying what was expected and what was found; the same check guards programmatic building.
3. The one accessor `kernel_facts` on the dump of every stage (a batched bf16 GEMM with a
   column-major D, narrow `align` and alpha / beta): the same facts at every stage, every dump
   parses back, and the launcher's KernelSpec, the CLI's widths and the cache's metadata agree.
"""

from __future__ import annotations

import math

import pytest

from lasscc.config import GemmConfig, swap_operands
from lasscc.diagnostics import LassError
from lasscc.dialects.lass import KernelAttr, KernelFactError, KernelFacts, kernel_facts
from lasscc.source import parse_mlir


def _module(kernel: str) -> str:
    return f"func.func @k(%x: i32) attributes {{lass.kernel = {kernel}}} {{\n  func.return\n}}\n"


def _facts_of(text: str, filename: str = "k.mlir") -> KernelFacts:
    return kernel_facts(next(iter(parse_mlir(text, filename).ops)))


# ---- 1. round trip ------------------------------------------------------------------------------
ROUND_TRIP = [
    KernelFacts(),
    KernelFacts("f16", "f16", "f32", "col", "row", "row", False, 0.1, -1.0e-5,
                GemmConfig((64, 64, 32), (32, 32, 32), (16, 8, 16), 4, 2, 1, (2, 8))),
    KernelFacts("i8", d_type="f32", a_layout="col", b_layout="col", d_layout="col", batched=True),
    KernelFacts("bf16", beta=float("inf"), alpha=float("-inf")),
    KernelFacts("f32", alpha=3.4028234663852886e38, beta=1.401298464324817e-45),
]


@pytest.mark.parametrize("facts", ROUND_TRIP, ids=range(len(ROUND_TRIP)))
def test_print_parse_round_trip(facts):
    attr = KernelAttr.from_facts(facts)
    assert attr.facts == facts
    text = _module(str(attr))
    module = parse_mlir(text, "rt.mlir")
    assert kernel_facts(next(iter(module.ops))) == facts
    assert str(parse_mlir(str(module), "rt2.mlir")) == str(module)  # printed text is a fixpoint


def test_nan_round_trips_through_its_bit_pattern():
    attr = KernelAttr.from_facts(KernelFacts(alpha=float("nan")))
    assert "alpha = 0x" in str(attr)
    assert math.isnan(_facts_of(_module(str(attr))).alpha)


def test_printed_form_is_complete_and_readable():
    text = str(KernelAttr.from_facts(KernelFacts("f16", d_layout="col", batched=True, beta=0.5,
                                                 config=GemmConfig(align=(4, 8)))))
    assert text == ("#lass.kernel<ab = f16, acc = f32, d = f32, layouts = [row, col, col], batched, alpha = 1.0, "
                    "beta = 0.5, config = {threadblock = [128, 128, 32], warp = [64, 64, 32], "
                    "instruction = [16, 8, 16], stages = 3, raster = 8, prefetch = 0, align = [4, 8]}>")


def test_omitted_keys_take_the_defaults_of_the_types():
    f = _facts_of(_module("#lass.kernel<config = {stages = 4}, ab = i8>"))
    assert (f.ab_type, f.acc_type, f.d_type) == ("i8", "i32", "i32")
    assert (f.a_layout, f.b_layout, f.d_layout, f.batched, f.alpha, f.beta) == ("row", "col", "row", False, 1.0, 0.0)
    assert f.config == GemmConfig((128, 128, 64), (64, 64, 64), (16, 8, 32), 4)
    assert _facts_of(_module("#lass.kernel<>")) == KernelFacts()


def test_the_swap_rule():
    """A column-major D: the kernel's A is B^T (the other layout), its B is A^T; the config's
    widths are the kernel's, the caller's come back through the same swap."""
    f = KernelFacts("f16", a_layout="row", b_layout="row", d_layout="col", config=GemmConfig(align=(2, 8)))
    assert f.swap_ab and f.kernel_layouts == ("col", "col") and f.kernel_majors == ("mn", "k")
    assert f.caller_align == (8, 2)
    plain = KernelFacts("f16", a_layout="col", b_layout="row", config=GemmConfig(align=(2, 8)))
    assert not plain.swap_ab and plain.kernel_layouts == ("col", "row") and plain.caller_align == (2, 8)
    assert swap_operands((1, 2), True) == (2, 1) and swap_operands((1, 2), False) == (1, 2)


# ---- 2. checked when parsed ---------------------------------------------------------------------
BAD = [
    ("ab = f64", 1, 55, "expected ab f16, bf16, f32, i8, got f64"),
    ("ab = f16, acc = i32", 1, 65, "expected acc f32 or f16 for f16 A and B, got i32"),
    ("ab = bf16, d = f16", 1, 66, "expected d f32 or bf16 for bf16 A and B with f32 accumulation, got f16"),
    ("layouts = [row, diag, row]", 1, 55, "expected layouts row or col, got diag for B"),
    ("layouts = [row, col]", 1, 55, "expected 3 layouts (A, B, D), got 2"),
    ("beta = x", 1, 62, "expected a number for beta"),
    ('config = {stages = "three"}', 1, 55, "config key 'stages': expected an integer, got \"three\""),
    ("config = {tile = [1, 2]}", 1, 55, "config key 'tile': unknown; expected one of threadblock, warp,"),
    ("config = 3", 1, 55, "expected config a dictionary {threadblock = [...], ...}, got 3 : i64"),
    ("swap = true", 1, 55, "expected a #lass.kernel key (ab, acc, d, layouts, batched, alpha, beta, config, epilogue), got 'swap'"),
    ("ab = f16, ab = f16", 1, 65, "'ab' given twice"),
]


@pytest.mark.parametrize("body,line,col,message", BAD, ids=[b[0] for b in BAD])
def test_parse_errors_name_the_key(body, line, col, message):
    with pytest.raises(LassError) as e:
        parse_mlir(f"func.func @k() attributes {{lass.kernel = #lass.kernel<{body}>}} {{ func.return }}", "bad.mlir")
    first = str(e.value).splitlines()[0]
    assert first.startswith(f"bad.mlir:{line}:{col}: error: {message}"), first


def test_building_from_bad_facts_is_refused():
    with pytest.raises(KernelFactError, match="expected d f32 or f16 for f16 A and B with f32 accumulation, got i32"):
        KernelAttr.from_facts(KernelFacts("f16", d_type="i32"))
    with pytest.raises(KernelFactError, match="expected layouts row or col, got other for A"):
        KernelAttr.from_facts(KernelFacts(a_layout="other"))


def test_a_lass_kernel_of_another_kind_is_named_at_its_function():
    module = parse_mlir("func.func @k() attributes {lass.kernel = {stages = 3}} {\n  func.return\n}\n", "old.mlir")
    with pytest.raises(LassError, match=r"^old.mlir:1:1: error: lass.kernel: expected #lass.kernel<...>, got "):
        kernel_facts(next(iter(module.ops)))


# ---- 3. the accessor on every stage's dump -------------------------------------------------------
GEMM = """func.func @gemm(%a: memref<?x?x?xbf16>, %b: memref<?x?x?xbf16, strided<[?, 1, ?]>>,
                 %d: memref<?x?x?xf32, strided<[?, 1, ?]>>) {
  lass.gemm {alpha = 1.5 : f32, beta = -0.25 : f32,
             config = {threadblock = [64, 64, 32], warp = [32, 32, 32], stages = 3, align = [2, 8]}}
      ins(%a, %b : memref<?x?x?xbf16>, memref<?x?x?xbf16, strided<[?, 1, ?]>>)
      outs(%d : memref<?x?x?xf32, strided<[?, 1, ?]>>)
  func.return
}
"""
EXPECTED = KernelFacts("bf16", "f32", "f32", "row", "col", "col", True, 1.5, -0.25,
                       GemmConfig((64, 64, 32), (32, 32, 32), (16, 8, 16), 3, 8, 0, (8, 2)))  # kernel's order


@pytest.fixture(scope="module")
def stages():
    from lasscc.driver import PASS_NAMES, run_passes

    return run_passes(parse_mlir(GEMM, "gemm.mlir"), list(PASS_NAMES), keep_text=True)


def _kernel_fn(module):
    return next(f for f in module.ops if getattr(f, "sym_name", None) is not None and f.sym_name.data == "gemm")


def test_every_stage_dump_holds_the_same_facts(stages):
    from lasscc.driver import PASS_NAMES

    assert list(stages) == list(PASS_NAMES)
    for name, text in stages.items():
        if name in ("lasscc-import-linalg", "lasscc-fuse-epilogue"):
            assert "lass.kernel" not in text  # no kernel yet: the lass.gemm is still there
            continue
        module = parse_mlir(text, f"{name}.mlir")  # every dump is valid input
        assert kernel_facts(_kernel_fn(module)) == EXPECTED, name
        assert text.count("lass.kernel = #lass.kernel<") == 1, name
        assert str(parse_mlir(str(module), "again.mlir")) == str(module)


def test_readers_agree_with_the_facts(stages):
    from lasscc.cache import kernel_meta
    from lasscc.cli import _ab_dtype, _is_batched, module_align
    from lasscc.driver import kernel_specs, operand_layouts

    final = parse_mlir(stages["lasscc-lower-to-llvm"], "final.mlir")
    (spec,) = kernel_specs(final)
    assert (spec.a_dtype, spec.acc_dtype, spec.d_dtype) == ("bf16", "f32", "f32")
    assert (spec.a_layout, spec.b_layout, spec.d_layout, spec.swap_ab, spec.batched) == ("row", "col", "col", True, True)
    assert (spec.a_align, spec.b_align) == (2, 8)  # the caller's order again
    assert (spec.alpha, spec.beta, spec.tile_m, spec.tile_n, spec.threads) == (1.5, -0.25, 64, 64, 128)
    assert spec.launch_args("a", "b", "d", 100, 60, 32, 1.5, -0.25) == ["b", "a", "d", 60, 100, 32, 1.5, -0.25]
    assert module_align(final) == ((2, 8), True) and _ab_dtype(final) == "bf16"
    assert operand_layouts(final) == ("row", "col")
    assert kernel_meta(final)["gemm"] == {"alpha": 1.5, "beta": -0.25, "d_type": "f32",
                                         "config": EXPECTED.config.as_dict()}
    tiled = parse_mlir(stages["lasscc-tile-threadblock"], "tiled.mlir")
    assert _is_batched(tiled)
