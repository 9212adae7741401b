"""End-to-end compile tests without a GPU: every pass runs, every kernel assembles with ptxas,
`ptxas -v` reports no spill, and the CLI's errors name the place and exit 2 with no output left."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from lasscc.emit import ptxas_info
from lasscc.driver import PASS_NAMES, compile_module, stage_dump
from lasscc.source import parse_mlir
from lit_zygote import lasscc_command  # tests/lit_zygote.py: the CLI through the suite's fork server

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "gemm.mlir"

GEMM = """func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?x{dt}>) {{
  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32, config = {{threadblock = [{tb}], warp = [{w}], stages = {s}}}}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?x{dt}>)
  func.return
}}
"""

CONFIGS = [
    ("128, 128, 32", "64, 64, 32", 3, "f32", "sm_80"),
    ("128, 128, 32", "64, 64, 32", 2, "f32", "sm_80"),
    ("128, 128, 32", "64, 64, 32", 4, "f16", "sm_90a"),
    ("64, 64, 32", "32, 32, 32", 3, "f32", "sm_80"),
    ("128, 256, 32", "64, 64, 32", 3, "f16", "sm_90a"),
    ("128, 128, 64", "64, 64, 64", 3, "f32", "sm_80"),
]


def gemm_text(tb="128, 128, 32", w="64, 64, 32", s=3, dt="f32") -> str:
    return GEMM.format(tb=tb, w=w, s=s, dt=dt)


@pytest.mark.parametrize("tb,w,s,dt,arch", CONFIGS)
def test_kernel_assembles_without_spills(tb, w, s, dt, arch):
    res = compile_module(parse_mlir(gemm_text(tb, w, s, dt), "t.mlir"), arch=arch)
    assert f".target {arch}" in res.ptx
    assert res.ptx.count("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32") > 0
    assert "ldmatrix.sync.aligned.m8n8.x4.shared.b16" in res.ptx
    assert ("cp.async.cg.shared.global" in res.ptx) == (s >= 3)
    spec = res.specs[0]
    assert spec.smem_bytes == s * (int(tb.split(",")[0]) + int(tb.split(",")[1])) * int(tb.split(",")[2]) * 2
    info = ptxas_info(res.ptx, arch)
    if info is None:
        pytest.skip("ptxas not on PATH")
    assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0, info.line
    assert 0 < info.registers <= 255


def test_every_stage_is_valid_input(tmp_path):
    """Each dump restarts the pipeline and gives the same PTX."""
    first = compile_module(parse_mlir(EXAMPLE.read_text(), str(EXAMPLE)), dump_dir=tmp_path)
    dumps = sorted(tmp_path.glob("*.mlir"))
    assert [p.name for p in dumps] == ["00-input.mlir"] + [f"{i:02d}-{n}.mlir" for i, n in enumerate(PASS_NAMES, 1)]
    assert (tmp_path / f"{len(PASS_NAMES) + 1:02d}-llvm.ll").exists()
    assert (tmp_path / f"{len(PASS_NAMES) + 2:02d}-kernel.ptx").read_text() == first.ptx
    for dump in dumps[1:]:
        again = compile_module(parse_mlir(dump.read_text(), str(dump)))
        assert again.ptx == first.ptx, dump.name


def _cli(*args, stdin=None):
    return subprocess.run([*lasscc_command(), *args], capture_output=True, text=True, input=stdin,
                          cwd=ROOT)


@pytest.mark.parametrize(
    "text,expect",
    [
        (gemm_text().replace("ins(", "inz("), "t.mlir:3:7: error: Expected 'ins'"),
        (gemm_text().replace("strided<[1, ?]>", "strided<[?, 2]>"),
         "t.mlir:2:3: error: expected B row-major (identity layout) or column-major (strided<[1, ?]>)"),
        (gemm_text(s=9, tb="128, 256, 64", w="64, 64, 64"), "t.mlir:2:3: error: config: stages=9 needs"),
        (gemm_text(w="48, 64, 32"), "t.mlir:2:3: error: config: expected warp tile 48x64 to divide"),
        (gemm_text().replace("memref<?x?xf32>", "memref<?x?xf64>"), "t.mlir:2:3: error: expected f32 or f16 D"),
        (gemm_text().replace("stages = 3", "stages = 3, bogus = 1"), "t.mlir:2:3: error: config key 'bogus'"),
    ],
)
def test_cli_bad_input(tmp_path, text, expect):
    src = tmp_path / "t.mlir"
    src.write_text(text)
    out = tmp_path / "out.ptx"
    proc = subprocess.run(
        [*lasscc_command(), "compile", "t.mlir", "-o", str(out)], capture_output=True, text=True,
        cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert expect in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [src]


@pytest.mark.parametrize(
    "args,expect",
    [
        (["compile", "missing.mlir"], "missing.mlir: error: no such file"),
        (["compile", str(EXAMPLE), "--threadblock", "128x128"], "option --threadblock: expected 3 positive integers"),
        (["compile", str(EXAMPLE), "--stages", "0"], "option --stages: expected a positive integer"),
        (["opt", "-p", "lasscc-nope", str(EXAMPLE)], "option -p: unknown pass 'lasscc-nope'"),
        (["run", str(EXAMPLE), "--m", "100", "--target", "gpu"], ""),
    ],
)
def test_cli_bad_options(args, expect):
    proc = _cli(*args)
    if args[0] == "run":  # no GPU here: a plain sentence; with a GPU it runs (any M: M is not A's contiguous dimension)
        if proc.returncode == 2:
            assert "no GPU" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
        else:
            assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout + proc.stderr
        return
    assert proc.returncode == 2, proc.stderr
    assert expect in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


def test_cli_compile_writes_ptx_and_dumps(tmp_path):
    out = tmp_path / "gemm.ptx"
    proc = _cli("compile", str(EXAMPLE), "-o", str(out), "--dump-dir", str(tmp_path / "dumps"), "--stages", "4")
    assert proc.returncode == 0, proc.stderr
    assert ".entry gemm" in out.read_text()
    assert "stages = 4" in (tmp_path / "dumps" / stage_dump("lasscc-tile-threadblock")).read_text()


@pytest.mark.skipif(shutil.which("xdsl-opt") is None, reason="xdsl-opt not on PATH")
def test_xdsl_opt_runs_our_passes():
    proc = subprocess.run(["xdsl-opt", "-p", "lasscc-tile-threadblock,lasscc-pipeline", str(EXAMPLE)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "lass_pipe.copy_async" in proc.stdout


@pytest.mark.parametrize("d_type,arch", [("f32", "sm_80"), ("bf16", "sm_80"), ("bf16", "sm_90a")])
def test_bf16_kernel(d_type, arch):
    text = gemm_text(dt=d_type).replace("xf16", "xbf16")
    res = compile_module(parse_mlir(text, "t.mlir"), arch=arch)
    assert "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" in res.ptx
    assert (res.specs[0].a_dtype, res.specs[0].d_dtype) == ("bf16", d_type)
    info = ptxas_info(res.ptx, arch)
    if info is None:
        pytest.skip("ptxas not on PATH")
    assert info.spill_stores == 0 and info.stack_bytes == 0, info.line


def test_mixed_input_types_rejected(tmp_path):
    src = tmp_path / "t.mlir"
    src.write_text(gemm_text(dt="f16").replace("memref<?x?xf16>", "memref<?x?xbf16>", 1).replace(
        "ins(%a, %b : memref<?x?xf16>", "ins(%a, %b : memref<?x?xbf16>"))
    proc = subprocess.run([*lasscc_command(), "compile", "t.mlir", "-o", "o.ptx"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2 and "expected A and B of one element type" in proc.stderr, proc.stderr


def test_column_major_d_swaps_operands():
    """D col-major: the kernel is the row-major TN kernel of D^T = B^T . A^T (KernelFacts.swap_ab)."""
    res = compile_module(parse_mlir((ROOT / "examples" / "gemm_col_d.mlir").read_text(), "gemm_col_d.mlir"))
    spec = res.specs[0]
    assert spec.swap_ab and spec.d_layout == "col"
    assert spec.grid(256, 128) == (2, 1, 1) and spec.grid(128, 256) == (2, 1, 1)
    assert spec.launch_args("a", "b", "d", 300, 200, 64, 1.0, 0.0) == ["b", "a", "d", 200, 300, 64, 1.0, 0.0]
    tiled = res.stages["lasscc-tile-threadblock"]
    assert "%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>" in tiled
    assert "layouts = [row, col, col]" in tiled  # the caller's layouts: D column-major


def test_batched_kernel():
    """3-d operands: one grid z index per batch, operands viewed per batch, offsets in 64 bits."""
    res = compile_module(parse_mlir((ROOT / "examples" / "gemm_batched.mlir").read_text(), "gemm_batched.mlir"))
    spec = res.specs[0]
    assert spec.batched and spec.grid(256, 256, 7) == (4, 1, 7)
    assert "%ctaid.z" in res.ptx
    assert "lass_tb.batch_view %A[%batch]" in res.stages["lasscc-tile-threadblock"]
    assert "lass_pipe.copy_async A %A_b[" in res.stages["lasscc-pipeline"]
    info = ptxas_info(res.ptx)
    if info is not None:
        assert info.spill_stores == 0, info.line


def test_batched_operands_must_agree(tmp_path):
    src = tmp_path / "t.mlir"
    src.write_text((ROOT / "examples" / "gemm_batched.mlir").read_text().replace(
        "%d: memref<?x?x?xf32>", "%d: memref<?x?xf32>").replace("outs(%d : memref<?x?x?xf32>)", "outs(%d : memref<?x?xf32>)"))
    proc = subprocess.run([*lasscc_command(), "compile", "t.mlir", "-o", "o.ptx"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2 and "t.mlir:4:3: error: expected 2-d memrefs (or 3-d, batch first" in proc.stderr, proc.stderr


@pytest.mark.parametrize("name,kind", [("gemm.ll", "LLVM IR"), ("gemm.ptx", "PTX text")])
@pytest.mark.parametrize("cmd", ["compile", "explain"])
def test_cli_rejects_the_non_mlir_dumps(tmp_path, name, kind, cmd):
    """The last two dumps (07-llvm.ll, 08-kernel.ptx) are not inputs: a clear error, not a lexer's."""
    src = tmp_path / name
    src.write_text("; ModuleID = ''\n" if name.endswith(".ll") else "//\n.version 8.0\n")
    out = tmp_path / "out.ptx"
    args = [cmd, name] + (["-o", str(out)] if cmd == "compile" else [])
    proc = subprocess.run([*lasscc_command(), *args], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2 and f"{name}:1:1: error: expected MLIR" in proc.stderr and f"got {kind}" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and not out.exists()
