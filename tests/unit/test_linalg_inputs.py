"""`linalg.matmul` inputs get what `lass.gemm` inputs get (issue 12, items 1-3).

1. The access widths chosen for sizes whose contiguous dimension is not a multiple of 16 bytes
   reach a linalg.matmul (lasscc.driver.import_gemms imports it before any config edit): the
   CLI's `run` (CPU executor, float64 reference, NaN-poisoned D), `bench` and `tune` (up to the
   GPU check: the align choice, and tune's candidate compile keeping it), the tuned config, and
   the API (the variant Kernel.for_operands compiles for odd sizes).
2. linalg.matmul on i8 inputs with i32 or f32 output (xDSL's implicit body repaired: extsi /
   sitofp) runs on the CPU executor and compiles to PTX like the lass.gemm int8 examples; the
   import keeps C + A.B exactly; type mixes lasscc does not run are rejected at the op.
3. A module with GEMM functions and other functions: every GEMM function becomes one kernel
   entry of the PTX (f16 and i8 linalg.matmul, assembled by ptxas without spills), the others are
   left out with a note at their file:line:col; the CPU executor runs the GEMM beside a helper.
Also: scripts/gpu_matrix.py's linalg.matmul cases build without a GPU.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from lasscc.cli import main, module_align
from lasscc.dialects.lass import GemmOp
from lasscc.source import parse_mlir

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "linalg_matmul.mlir"  # f16 -> f32, A row-major, B column-major
STRIDES = {"row": "", "col": ", strided<[1, ?]>"}


def linalg_fn(name: str, ab: str, d: str, la: str = "row", lb: str = "col") -> str:
    ta, tb, td = f"memref<?x?x{ab}{STRIDES[la]}>", f"memref<?x?x{ab}{STRIDES[lb]}>", f"memref<?x?x{d}>"
    return (f"func.func @{name}(%a: {ta}, %b: {tb}, %c: {td}) {{\n"
            f"  linalg.matmul ins(%a, %b : {ta}, {tb}) outs(%c : {td})\n"
            f"  return\n}}\n")


def _run_cpu(capsys, path, m, n, k, *extra):
    rc = main(["run", str(path), "--target", "cpu", "--m", str(m), "--n", str(n), "--k", str(k), "--check", *extra])
    out = capsys.readouterr()
    return rc, out.out, out.err


# ---- 1 and 2: odd sizes on the CPU executor, without any tiling option ----------------------------
def test_issue_reproducer_f16_linalg_odd_k_runs(capsys):
    """`lasscc run examples/linalg_matmul.mlir --target cpu --m 129 --n 70 --k 33 --check`: the
    2-byte widths are chosen and applied (before: a 16-byte cp.async at a misaligned address)."""
    rc, out, err = _run_cpu(capsys, EXAMPLE, 129, 70, 33)
    assert rc == 0 and "check   PASS" in out, (out, err)
    assert "note: reading A in 2-byte and B in 2-byte accesses (align = [1, 1]" in err


HELPER = "func.func @helper() {\n  return\n}\n"
DECL = "func.func private @ext(i32) -> i32\n"
CPU_CASES = [  # (A/B type, D type, A layout, B layout, M, N, K, the note's widths in bytes)
    ("f16", "f32", "col", "row", 33, 16, 8, (2, 16)),  # column-major A, M % 8 != 0
    ("i8", "i32", "row", "col", 129, 70, 33, (1, 1)),
    ("i8", "f32", "col", "row", 33, 48, 7, (1, 16)),  # column-major A, M % 16 != 0
    ("i8", "i32", "row", "row", 1, 7, 3, (1, 1)),
]


@pytest.mark.parametrize("ab,d,la,lb,m,n,k,note", CPU_CASES)
def test_linalg_odd_sizes_run_on_cpu(tmp_path, capsys, ab, d, la, lb, m, n, k, note):
    """Each module also holds a helper function (item 3: the CPU executor runs the GEMM beside it)."""
    f = tmp_path / "mm.mlir"
    f.write_text(HELPER + linalg_fn("mm", ab, d, la, lb))
    rc, out, err = _run_cpu(capsys, f, m, n, k, "--seed", "3")
    assert rc == 0 and "mm (cpu" in out and "check   PASS" in out and "alpha=1 beta=1" in out, (out, err)
    assert f"reading A in {note[0]}-byte and B in {note[1]}-byte accesses" in err, err


# ---- 1: bench, tune, the tuned config and the API take the same path -------------------------------
@pytest.mark.parametrize("cmd,size_args", [("bench", ["--sizes", "129x70x33,4097x1000x333"]),
                                           ("tune", ["--m", "129", "--n", "70", "--k", "33"])])
def test_bench_and_tune_choose_the_widths_for_linalg(capsys, monkeypatch, cmd, size_args):
    """Both reach the align choice before looking for a GPU (none here: exit 2, 'no GPU')."""
    import lasscc.cli as cli
    from lasscc.runtime import cuda

    seen = {}
    real = cli._resolve_align

    def spy(module, sizes, *rest, **kw):  # (option, filename, arch)
        real(module, sizes, *rest, **kw)
        seen["align"] = module_align(module)
        seen["gemms"] = [o for o in module.walk() if isinstance(o, GemmOp)]

    monkeypatch.setattr(cli, "_resolve_align", spy)
    monkeypatch.setattr(cuda, "driver_status", lambda: "no CUDA driver (test)")
    rc = main([cmd, str(EXAMPLE), *size_args])
    err = capsys.readouterr().err
    assert rc == 2 and f"lasscc {cmd}: no GPU to run on" in err, err
    assert "align = [1, 1]" in err
    assert seen["align"] == ((1, 1), False) and len(seen["gemms"]) == 1


def test_tune_candidates_keep_the_widths_chosen_for_linalg(monkeypatch):
    """lasscc tune compiles each candidate from the module text `_resolve_align` wrote: the
    candidate's tiling, the chosen widths."""
    import lasscc.driver as pipeline
    from lasscc.cli import _resolve_align
    from lasscc.dialects.lass import config_from_attr
    from lasscc.tune import _compile, candidates

    module = parse_mlir(EXAMPLE.read_text(), str(EXAMPLE))
    _resolve_align(module, [(129, 70, 33)], "run", str(EXAMPLE))
    got = []
    monkeypatch.setattr(pipeline, "compile_module", lambda m, arch, fname, **kw: got.append(m))
    cfg = candidates("sm_80")[0][0]
    _compile(str(module), str(EXAMPLE), "sm_80", cfg)
    (g,) = [o for o in got[0].walk() if isinstance(o, GemmOp)]
    built = config_from_attr(g.config)
    assert built.align == (1, 1) and built.threadblock == cfg.threadblock and built.stages == cfg.stages


def test_tuned_config_reaches_linalg(tmp_path, monkeypatch, capsys):
    from lasscc.cli import _apply_tuned, build_parser
    from lasscc.config import GemmConfig
    from lasscc.dialects.lass import config_from_attr
    from lasscc.tune import store_tuned

    monkeypatch.setenv("LASSCC_CACHE_DIR", str(tmp_path))  # a store of its own: no other test sees it
    best = GemmConfig(threadblock=(64, 64, 32), warp=(32, 32, 32), stages=2)
    store_tuned("129x70x33|f16|f32|rowcolrow|GPU", best, 1.0)
    module = parse_mlir(EXAMPLE.read_text(), str(EXAMPLE))
    args = build_parser().parse_args(["run", str(EXAMPLE)])
    _apply_tuned(module, args, 129, 70, 33, "GPU")
    (g,) = [o for o in module.walk() if isinstance(o, GemmOp)]
    assert config_from_attr(g.config).threadblock == (64, 64, 32)
    assert "using the tuned config" in capsys.readouterr().err


def test_api_variant_of_linalg_gets_the_narrow_widths(monkeypatch):
    """lasscc.compile of linalg.matmul text (no options: the input stays linalg) picks the widths per
    call; the variant Kernel.for_operands compiles for 129 x 70 x 33 carries align (1, 1) (before:
    the 16-byte kernel again).  The compile is the real pipeline up to lasscc-tile-threadblock
    (the kernel's launch contract, align included, is fixed there); PTX: the test below."""
    import lasscc
    import lasscc.cache as cache
    from lasscc.driver import CompileResult, kernel_specs, run_passes

    compiled = []

    def to_threadblock(module, arch="sm_80", filename="<input>", dump_dir=None, use_cache=True):
        compiled.append(str(module))
        run_passes(module, ["lasscc-import-linalg", "lasscc-tile-threadblock"], arch, filename)
        return CompileResult(module, specs=kernel_specs(module))

    monkeypatch.setattr(cache, "cached_compile", to_threadblock)
    k = lasscc.compile(str(EXAMPLE))
    assert "linalg.matmul" in compiled[0] and k.auto_align and (k.spec.a_align, k.spec.b_align) == (8, 8)
    a, b = np.zeros((129, 33), np.float16), np.zeros((33, 70), np.float16)
    v = k.for_operands(a, b, None)
    assert (v.spec.a_align, v.spec.b_align) == (1, 1) and (v.spec.alpha, v.spec.beta) == (1.0, 1.0)
    assert "lass.gemm" in compiled[1] and re.search(r"align = \[1( : i64)?, 1( : i64)?\]", compiled[1]), compiled[1]
    assert k.for_operands(np.zeros((128, 32), np.float16), np.zeros((32, 64), np.float16), None) is k


def _ptxas_entries(ptx: str, arch: str = "sm_80") -> list[str]:
    """ptxas -v's resource lines, one per kernel entry; fails on a spill or a stack frame."""
    exe = shutil.which("ptxas")
    if exe is None:
        pytest.skip("ptxas not on PATH")
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "k.ptx"
        src.write_text(ptx)
        p = subprocess.run([exe, "-v", f"-arch={arch}", str(src), "-o", str(Path(d) / "k.cubin")],
                           capture_output=True, text=True)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out
    frames = re.findall(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", out)
    assert frames and all(f == ("0", "0", "0") for f in frames), out
    return re.findall(r"Used \d+ registers", out)


# ---- 3 (and 2 in PTX): every GEMM function compiled, the others left out with a note ---------------
@pytest.fixture(scope="module")
def multi_compiled(tmp_path_factory):
    """`lasscc compile` of a helper, i8 -> i32, a declaration, i8 -> f32 (column-major A) and
    f16 -> f32 (column-major A and B) linalg.matmul, with small tiles and narrow accesses (the
    options apply to every GEMM: A 2, B 4 elements per access)."""
    d = tmp_path_factory.mktemp("multi")
    f = d / "multi.mlir"
    f.write_text(HELPER + linalg_fn("mm_i32", "i8", "i32") + DECL + linalg_fn("mm_f32", "i8", "f32", "col", "row")
                 + linalg_fn("mm_f16", "f16", "f32", "col", "col"))
    out = d / "multi.ptx"
    return f, out, ["compile", str(f), "-o", str(out), "--threadblock", "64x64x64", "--warp", "32x32x64",
                    "--stages", "3", "--align", "2,4"]


def test_module_with_other_functions_compiles_every_gemm(multi_compiled, capsys):
    f, out, argv = multi_compiled
    rc = main(argv)
    err = capsys.readouterr().err
    assert rc == 0, err
    assert err.splitlines() == [
        f"{f}:1:1: note: function @helper holds no lass.gemm or linalg.matmul; left out of the PTX (every GEMM "
        "function becomes one kernel)",
        f"{f}:8:1: note: function @ext holds no lass.gemm or linalg.matmul; left out of the PTX (every GEMM "
        "function becomes one kernel)",
    ]
    ptx = out.read_text()
    assert re.findall(r"\.visible \.entry (\w+)\(", ptx) == ["mm_i32", "mm_f32", "mm_f16"]
    assert "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32" in ptx
    assert "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in ptx
    assert "ld.global.u16" in ptx and "cp.async.ca.shared.global" in ptx  # i8 A 2 bytes; 4 and 8 bytes
    assert len(_ptxas_entries(ptx)) == 3
    # a cache hit prints the same notes and writes the same PTX
    out.unlink()
    assert main(argv) == 0 and out.read_text() == ptx
    assert capsys.readouterr().err.count("note: function @") == 2  # the cache hit prints them too


def test_run_takes_the_first_of_several_gemm_functions(tmp_path, capsys):
    """`lasscc run` (GPU: the first KernelSpec; CPU: the first kernel) runs the first GEMM function
    and says so; the later one (a lass.gemm with small tiles here) is compiled along."""
    f = tmp_path / "two.mlir"
    second = ("func.func @g2(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %d: memref<?x?xf16>) {\n"
              "  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32, config = {threadblock = [64, 64, 32], "
              "warp = [32, 32, 32], stages = 2}}\n"
              "      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%d : memref<?x?xf16>)\n  return\n}\n")
    f.write_text(linalg_fn("g1", "f16", "f32", "col", "row") + second)
    rc, out, err = _run_cpu(capsys, f, 17, 9, 7)
    assert rc == 0 and out.startswith("g1 (cpu") and "check   PASS" in out, (out, err)
    assert f"lasscc: note: {f}: running @g1, the first of 2 GEMM functions (not run: @g2)" in err


def test_module_without_gemm_function_is_rejected(tmp_path, capsys):
    f = tmp_path / "none.mlir"
    f.write_text(HELPER)
    out = tmp_path / "none.ptx"
    assert main(["compile", str(f), "-o", str(out)]) == 2 and not out.exists()
    err = capsys.readouterr().err
    assert err.strip() == f"{f}: error: expected a lass.gemm (or a lasscc dump of one), found no kernel"


# ---- 2: lasscc-import-linalg on i8 keeps linalg.matmul's meaning, element for element -----------
@pytest.mark.parametrize("d", ["i32", "f32"])
def test_import_linalg_i8_preserves_the_product(d):
    """The lass.gemm {alpha = 1, beta = 1} the pass writes, executed at level 0, gives C + A.B
    exactly (integer products, |sums| far below 2^24 for the f32 output) on random i8 data with a
    column-major B and odd sizes."""
    from lasscc.interp import execute_kernel
    from lasscc.driver import run_passes

    module = parse_mlir(linalg_fn("mm", "i8", d))
    run_passes(module, ["lasscc-import-linalg"], "sm_80", "<test>")
    rng = np.random.default_rng(11)
    m, n, k = 33, 7, 129
    a = rng.integers(-128, 128, (m, k), dtype=np.int8)
    b_t = rng.integers(-128, 128, (n, k), dtype=np.int8)  # column-major K x N B: its N x K storage
    c = rng.integers(-1000, 1000, (m, n)).astype(np.int32 if d == "i32" else np.float32)
    out = c.copy()
    res = execute_kernel(module, m, n, k, a, b_t, out, None, None)  # alpha, beta from the IR
    assert res.level == 0
    ref = c.astype(np.int64) + a.astype(np.int64) @ b_t.astype(np.int64).T
    np.testing.assert_array_equal(out.astype(np.int64), ref)


# ---- scripts/gpu_matrix.py: its linalg.matmul cases build without a GPU --------------------------
def test_gpu_matrix_linalg_cases_build():
    """The GPU matrix's linalg.matmul cases (f16 and i8 at odd sizes) are lass.gemm texts carrying
    the widths `lasscc run` would choose, one kernel per (type, layouts, widths)."""
    import importlib.util

    from lasscc.config import widest_align
    from lasscc.dialects.lass import config_from_attr

    spec = importlib.util.spec_from_file_location("gpu_matrix", ROOT / "scripts" / "gpu_matrix.py")
    gm = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gm)
    cases = gm.build_cases(linalg_only=True)
    assert {c[1] for c in cases} == {"f16", "i8"} and len({c[0] for c in cases}) == 3
    shapes = [sh for c in cases for sh in c[5]]
    assert {(129, 70, 33), (4097, 1000, 333), (1, 7, 3)} <= set(shapes)
    assert len(shapes) == len(gm.LINALG_SHAPES) * len(gm.LINALG_DTYPES) * len(gm.LINALG_LAYOUTS)
    for name, ab, layouts, _, text, shs in cases:
        (g,) = [o for o in parse_mlir(text).walk() if isinstance(o, GemmOp)]
        align = config_from_attr(g.config).align_elems(ab)
        assert g.beta_value == 1.0 and all(widest_align(*sh, layouts[0], layouts[1], ab) == align for sh in shs), name


@pytest.mark.parametrize("ab,d,want", [
    ("f32", "f16", "expected f32 D for f32 A and B with f32 accumulation, got f16"),  # body: truncf
    ("i8", "i8", "expected i32 or f32 D for i8 A and B with i32 accumulation, got i8"),
    ("f16", "i32", "expected f32 or f16 D for f16 A and B with f32 accumulation, got i32"),  # body: fptosi
])
def test_linalg_types_lasscc_does_not_run_are_rejected_at_the_op(tmp_path, capsys, ab, d, want):
    """Every element-type mix parses (the rebuilt body verifies); lasscc-tile-threadblock names
    the op and what it expects (before: an empty 'does not verify' reason for the mixed ones)."""
    f = tmp_path / "mm.mlir"
    f.write_text(linalg_fn("mm", ab, d))
    assert main(["opt", "-p", "lasscc-import-linalg,lasscc-tile-threadblock", str(f)]) == 2
    assert capsys.readouterr().err.strip() == f"{f}:2:3: error: {want}"
