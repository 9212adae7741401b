"""Narrow global -> shared copies (issue "General GEMM"): any M, N, K >= 1.

A and B are copied in accesses of `align` elements (the config's `align = [a, b]`, CUTLASS's
AlignmentA/B; by default 16 bytes).  16 bytes is cp.async.cg, 8 and 4 cp.async.ca, 2 and 1 a
synchronous predicated ld.global + st.shared (lasscc.layout.copy_kind).  `lasscc run` / the API
choose the widest width the sizes allow when the input gives none.

1. Layout math: the copy thread map with w-byte accesses covers a tile once, each access inside
   one 16-byte swizzle chunk; copy_kind; the size rules and widest_align.
2. The CPU matrix: A row/col x B row/col (D row- or column-major) x f16 / bf16 (tf32 and i8: TN)
   x sizes that give every width (contiguous dimensions 1, 7, 33, 333 -> one element; 12, 36 ->
   8 bytes; 6, 34 -> 4 bytes; mixed) x two configs (64x64x32 / 32x32x32 / 2 stages, register
   staged; 128x128x32 / 64x64x32 / 3 stages, cp.async), float64 reference, NaN-poisoned D,
   conflict-free banks.  Modules are compiled once per (layout, type, config, widths) and shared.
3. The executor catches a width the sizes break (misaligned global access); the CLI and the API
   choose or reject widths with clear messages; narrow kernels assemble with ptxas, no spills.
"""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

import numpy as np
import pytest

from lasscc import layout as L
from lasscc.config import (
    GemmConfig,
    align_choices,
    align_error,
    alignment_error,
    alignment_rules,
    widest_align,
)
from lasscc.diagnostics import LassError
from lasscc.interp import MisalignedAccessError, execute_kernel, run_check
from lasscc.driver import PASS_NAMES, run_passes
from lasscc.source import parse_mlir
from lit_zygote import lasscc_command  # tests/lit_zygote.py: the CLI through the suite's fork server

ROOT = Path(__file__).resolve().parents[2]
STRIDES = {"row": "", "col": ", strided<[1, ?]>"}
# (threadblock, warp, stages) per A/B type: BK is 32 f16 / bf16 (64 bytes), 16 f32, 64 i8
CONFIGS = {
    "s2": {"f16": ((64, 64, 32), (32, 32, 32), 2), "f32": ((64, 64, 16), (32, 32, 16), 2),
           "i8": ((64, 64, 64), (32, 32, 64), 2)},
    "s3": {"f16": ((128, 128, 32), (64, 64, 32), 3), "f32": ((128, 128, 16), (64, 64, 16), 3),
           "i8": ((128, 128, 64), (64, 64, 64), 3)},
}
D_TYPE = {"f16": "f32", "bf16": "f32", "f32": "f32", "i8": "i32"}


def gemm_src(la, lb, ld, dt, cfg, align=None, beta=0.0) -> str:
    tb, wp, st = CONFIGS[cfg]["f16" if dt == "bf16" else dt]
    ta, tbt, td = (f"memref<?x?x{t}{STRIDES[lay]}>" for t, lay in ((dt, la), (dt, lb), (D_TYPE[dt], ld)))
    al = "" if align is None else f", align = [{align[0]}, {align[1]}]"
    return f"""func.func @gemm(%a: {ta}, %b: {tbt}, %d: {td}) {{
  lass.gemm {{alpha = 1.5 : f32, beta = {beta} : f32, config = {{threadblock = [{', '.join(map(str, tb))}],
             warp = [{', '.join(map(str, wp))}], stages = {st}{al}}}}}
      ins(%a, %b : {ta}, {tbt}) outs(%d : {td})
  func.return
}}
"""


@functools.lru_cache(maxsize=None)
def compiled(la, lb, ld, dt, cfg, align, beta=0.0):
    """The module after lasscc-swizzle-smem (shared between tests: the executor only reads it)."""
    module = parse_mlir(gemm_src(la, lb, ld, dt, cfg, align, beta))
    run_passes(module, PASS_NAMES[: PASS_NAMES.index("lasscc-swizzle-smem") + 1], "sm_80", "<test>")
    return module


# ---- 1. layout math -----------------------------------------------------------------------------
@pytest.mark.parametrize("eb", [1, 2, 4])
@pytest.mark.parametrize("major", [L.K_MAJOR, L.MN_MAJOR])
def test_copy_map_covers_the_tile_once_inside_swizzle_chunks(eb, major):
    rows, bk, threads = 64, 64 // eb, 128
    for w in [x for x in (1, 2, 4, 8, 16) if x >= eb]:
        iters = L.copy_iterations(rows, bk, eb, threads, w)
        assert iters * threads * w == rows * bk * eb  # every config's tiles split evenly
        seen = np.zeros((rows, bk), int)
        for it in range(iters):
            for t in range(threads):
                r, k = L.tile_copy_map(t, it, threads, rows, bk, eb, major, w)
                n = w // eb
                cells = [(r + j, k) if major == L.MN_MAJOR else (r, k + j) for j in range(n)]
                for rr, kk in cells:
                    seen[rr, kk] += 1
                start = L.tile_offset(cells[0][0], cells[0][1], rows, bk, eb, major, swizzled=False)
                assert start % w == 0  # a w-aligned logical offset ...
                assert start // 16 == (start + w - 1) // 16  # ... inside one 16-byte chunk, so
                # the tile's swizzle (MN-major 32-bit tiles: Swizzle<2,5,2>, 32-byte chunks) moves
                # the access as a whole
                params = L.mn_swizzle_params(eb) if major == L.MN_MAJOR else ()
                for j, (rr, kk) in enumerate(cells):
                    assert L.tile_offset(rr, kk, rows, bk, eb, major) == L.swizzle(start, *params) + j * eb
        assert (seen == 1).all(), (w, major)


def test_copy_map_default_is_the_16_byte_map():
    for t in range(128):
        assert L.copy_thread_map(t, 1, 128, 32, 2) == L.copy_thread_map(t, 1, 128, 32, 2, 16)
    # consecutive threads take consecutive accesses of a line (coalesced)
    assert [L.copy_thread_map(t, 0, 128, 32, 2, 2) for t in range(3)] == [(0, 0), (0, 1), (0, 2)]
    assert [L.copy_thread_map(t, 0, 128, 32, 2, 8) for t in range(9)][-2:] == [(0, 28), (1, 0)]


def test_copy_kind_follows_the_ptx_isa():
    assert [L.copy_kind(w) for w in (16, 8, 4, 2, 1)] == ["cg", "ca", "ca", "sync", "sync"]
    with pytest.raises(ValueError, match="expected an access of 1, 2, 4, 8 or 16 bytes, got 32"):
        L.copy_kind(32)


def test_size_rules_and_widest_align():
    assert align_choices("f16") == [8, 4, 2, 1] and align_choices("i8") == [16, 8, 4, 2, 1]
    assert align_choices("f32") == [4, 2, 1]
    assert alignment_rules("row", "col", "f16", (1, 1)) == {"M": 1, "N": 1, "K": 1}
    assert alignment_rules("row", "col", "f16", (2, 4)) == {"M": 1, "N": 1, "K": 4}
    assert alignment_rules("col", "row", "f16", (2, 4)) == {"M": 2, "N": 4, "K": 1}
    dim, msg = alignment_error(8, 8, 6, "row", "col", "f16", (8, 4))
    assert dim == "K" and msg == ("expected a multiple of 8 (a row-major A is read along K in 16-byte accesses and a "
                                  "column-major B is read along K in 8-byte accesses), got 6")
    assert widest_align(4097, 1000, 333) == (1, 1)  # K odd: 2-byte accesses of f16
    assert widest_align(4097, 1000, 8) == (8, 8)
    assert widest_align(7, 12, 5, "col", "row") == (1, 4)
    assert widest_align(8, 8, 12, "row", "col", "i8") == (4, 4)
    assert widest_align(8, 8, 64, "row", "col", "f16", ptr_bytes=(16, 4)) == (8, 2)  # B's pointer 4-aligned
    assert align_error((8, 8), "f16") is None
    assert align_error((3, 8), "f16") == ("expected align A a power of two from 1 to 8 f16 elements (at most 16 "
                                          "bytes per access), got 3")
    assert "expected align B a power of two from 1 to 4 f32" in align_error((4, 8), "f32")
    assert "two integers" in align_error((8,), "f16")
    cfg = GemmConfig(align=(1, 4))
    assert cfg.access_bytes("f16") == (2, 8) and cfg.align_elems("f16") == (1, 4)
    assert GemmConfig().access_bytes("i8") == (16, 16) and GemmConfig().align_elems("i8") == (16, 16)
    with pytest.raises(LassError, match=r"^here: expected align A a power of two from 1 to 8 f16"):
        GemmConfig(align=(16, 8)).validate(where="here")
    assert GemmConfig(align=(1, 4)).as_dict()["align"] == [1, 4] and "align" not in GemmConfig().as_dict()


def test_config_attr_round_trip_and_kernel_spec_widths():
    from lasscc.dialects.lass import config_from_attr, config_to_attr
    from lasscc.driver import kernel_specs

    cfg = GemmConfig(align=(2, 8))
    assert config_from_attr(config_to_attr(cfg)) == cfg
    assert "align" not in config_to_attr(GemmConfig()).data
    for ld, want in (("col", (1, 4)),):  # the caller's order, also for the swapped kernel (D^T = B^T A^T)
        module = parse_mlir(str(compiled("row", "col", ld, "f16", "s2", (1, 4))))
        run_passes(module, ["lasscc-lower-to-llvm"], "sm_80", "<test>")
        spec = kernel_specs(module)[0]
        assert (spec.a_align, spec.b_align) == want and spec.swap_ab == (ld == "col")


# ---- 2. the CPU matrix --------------------------------------------------------------------------
def _sizes(la, lb, case):
    """(M, N, K) whose contiguous dimensions (K for row A / col B, M for col A, N for row B) give
    the widths of `case`, with odd sizes elsewhere."""
    cont = {"K": la == "row" or lb == "col", "M": la == "col", "N": lb == "row"}
    pick = {"one": (33, 17, 333), "skinny": (1, 7, 3), "w8b": (36, 20, 12), "w4b": (34, 6, 6),
            "k8": (129, 65, 8)}[case]
    odd = {"one": (33, 17, 333), "skinny": (1, 7, 3), "w8b": (33, 9, 12), "w4b": (7, 5, 6),
           "k8": (129, 65, 8)}[case]
    return tuple(p if cont[d] else o for d, p, o in zip("MNK", pick, odd))


LAYOUTS = [("row", "col", "row"), ("col", "col", "col"), ("col", "row", "row"), ("row", "row", "col")]
# (layout, dtype, config, size cases run on one compiled module, beta)
MATRIX = []
for i, (la, lb, ld) in enumerate(LAYOUTS):
    for cfg in ("s2", "s3"):
        MATRIX.append((la, lb, ld, "f16", cfg, ("one", "skinny"), 0.5 if i == 1 and cfg == "s2" else 0.0))
        MATRIX.append((la, lb, ld, "f16", cfg, ("w8b", "w4b")[i % 2:i % 2 + 1] + (("k8",) if i == 0 else ()), 0.0))
    MATRIX.append((la, lb, ld, "bf16", ("s2", "s3")[i % 2], ("one", "w8b"), 0.0))
for cfg in ("s2", "s3"):
    MATRIX.append(("row", "col", "row", "f32", cfg, ("one", "w4b"), 0.0))
    MATRIX.append(("row", "col", ("row", "col")[cfg == "s3"], "i8", cfg, ("one", "w4b", "w8b"), 0.0))


def _run_case(la, lb, ld, dt, cfg, cases, beta):
    for case in cases:
        m, n, k = _sizes(la, lb, case)
        align = widest_align(m, n, k, la, lb, "f16" if dt == "bf16" else dt)
        module = compiled(la, lb, ld, dt, cfg, align, beta)
        r = run_check(module, m, n, k, seed=7, alpha=1.5, beta=beta, report_banks=True)
        assert r["level"] == 4
        assert r["ok"], (case, (m, n, k), align, r["rel_err"], r["tolerance"])
        rep = r["bank_report"]
        wf, ideal = sum(x["wavefronts"] for x in rep), sum(x["ideal"] for x in rep)
        assert wf == ideal, [x for x in rep if x["wavefronts"] != x["ideal"]][:3]
    return align


@pytest.mark.parametrize("la,lb,ld,dt,cfg,cases,beta", MATRIX,
                         ids=[f"A{a}-B{b}-D{d}-{t}-{c}-{'+'.join(s)}" for a, b, d, t, c, s, _ in MATRIX])
def test_narrow_matrix_swizzled_level(la, lb, ld, dt, cfg, cases, beta):
    _run_case(la, lb, ld, dt, cfg, cases, beta)


def test_every_width_and_copy_kind_is_in_the_matrix():
    """The matrix reaches 1, 2, 4, 8 and 16 byte accesses, as cp.async.cg / .ca and synchronous copies."""
    seen = set()
    for la, lb, ld, dt, cfg, cases, _ in MATRIX:
        eb = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1}[dt]
        for case in cases:
            a, b = widest_align(*_sizes(la, lb, case), la, lb, "f16" if dt == "bf16" else dt)
            seen |= {(a * eb, cfg), (b * eb, cfg)}
    for w in (1, 2, 4, 8, 16):
        assert {(w, "s2"), (w, "s3")} <= seen, w
    text = str(compiled("row", "col", "row", "f16", "s3", (1, 4)))
    assert "lass_nv.ld_global_b %A" in text and "{bytes = 8 : i64} : memref<?x?xf16, strided" in text
    staged = str(compiled("row", "col", "row", "f16", "s2", (1, 4)))
    assert "lass_nv.cp_async" not in staged and "lass_nv.st_shared_b" in staged


def test_every_level_runs_narrow(tmp_path):
    """`lasscc run FILE --target cpu --m 33 --n 17 --k 333 --check` at every --stage (width chosen)."""
    f = tmp_path / "g.mlir"
    f.write_text(gemm_src("row", "col", "row", "f16", "s2"))
    for stage in ("lasscc-tile-threadblock", "lasscc-pipeline", "lasscc-warp-mma", "lasscc-swizzle-smem"):
        p = _cli("run", str(f), "--target", "cpu", "--m", "33", "--n", "17", "--k", "333", "--check", "--stage", stage)
        assert p.returncode == 0 and "PASS" in p.stdout, (stage, p.stdout, p.stderr)
        assert "note: reading A in 2-byte and B in 2-byte accesses (align = [1, 1]" in p.stderr


def test_executor_catches_a_width_the_sizes_break():
    """8-byte accesses of K = 6: row 1 starts at element 6, not 8-byte aligned."""
    module = compiled("row", "col", "row", "f16", "s3", (4, 4))
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (8, 6)).astype(np.float16)
    b = rng.uniform(-1, 1, (8, 6)).astype(np.float16)
    d = np.zeros((8, 8), np.float32)
    with pytest.raises(MisalignedAccessError, match=r"copies \(cp.async\) from 8 bytes at element 6 of A, which is "
                                                    r"not 8-byte aligned"):
        execute_kernel(module, 8, 8, 6, a, b, d, 1.0, 0.0)


# ---- 3. the CLI and the API ---------------------------------------------------------------------
def _cli(*args):
    return subprocess.run([*lasscc_command(), *args], capture_output=True, text=True, cwd=ROOT)


def test_cli_align_errors(tmp_path):
    out = tmp_path / "k.ptx"
    p = _cli("compile", "examples/gemm.mlir", "--align", "3,8", "-o", str(out))
    assert p.returncode == 2 and not out.exists() and "Traceback" not in p.stderr
    assert p.stderr.strip() == ("option --align: expected align A a power of two from 1 to 8 f16 elements (at most "
                                "16 bytes per access), got 3")
    p = _cli("compile", "examples/gemm.mlir", "--align", "8x8", "-o", str(out))
    assert p.returncode == 2 and not out.exists() and "expected A,B elements per access" in p.stderr
    p = _cli("run", "examples/gemm.mlir", "--target", "cpu", "--align", "8,8", "--m", "8", "--n", "8", "--k", "12")
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.strip().startswith("option --k: expected a multiple of 8 (a row-major A and a column-major B are "
                                       "read along K in 16-byte accesses), got 12; align = [8, 8]")
    bad = tmp_path / "bad.mlir"
    bad.write_text(gemm_src("row", "col", "row", "f16", "s2", (8, 3)))
    p = _cli("compile", str(bad), "-o", str(out))
    assert p.returncode == 2 and not out.exists()
    assert p.stderr.strip() == (f"{bad}:2:3: error: config: expected align B a power of two from 1 to 8 f16 elements "
                                "(at most 16 bytes per access), got 3")


def test_cli_explicit_align_that_fits_runs(tmp_path):
    p = _cli("run", "examples/gemm_nn.mlir", "--target", "cpu", "--align", "1,8", "--m", "7", "--n", "16", "--k", "9",
             "--check", "--threadblock", "64x64x32", "--warp", "32x32x32", "--report", "banks")
    assert p.returncode == 0 and "PASS" in p.stdout and "note:" not in p.stderr, p.stderr
    assert "lass_nv.st_shared_b      2" in p.stdout or "st_shared_b" in p.stdout


def test_api_chooses_and_checks_widths():
    import lasscc
    from lasscc.api import CompileError, LaunchError

    k = lasscc.gemm(layout="NT", d_layout="col", threadblock=(64, 64, 32), warp=(32, 32, 32), stages=2)
    assert k.auto_align and (k.spec.a_align, k.spec.b_align) == (8, 8)
    rng = np.random.default_rng(1)
    for m, n, kk in ((7, 12, 5), (8, 16, 8)):
        a = rng.uniform(-1, 1, (m, kk)).astype(np.float16)
        b = rng.uniform(-1, 1, (kk, n)).astype(np.float16)
        d = np.full((m, n), np.nan, np.float32)
        k(a, b, d, target="cpu")
        np.testing.assert_allclose(d, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-5)
    assert set(k._variants) == {(1, 4)}  # (8, 8) for 8 x 16 runs the kernel itself
    assert k.for_operands(np.zeros((7, 5), np.float16), np.zeros((5, 12), np.float16), None).spec.b_align == 4
    fixed = lasscc.gemm(layout="NT", threadblock=(64, 64, 32), warp=(32, 32, 32), stages=2, align=(8, 8))
    assert not fixed.auto_align
    with pytest.raises(LaunchError, match=r"^M = 7: expected a multiple of 8 \(a column-major A is read along M in "
                                          r"16-byte accesses\) for kernel 'gemm'"):
        fixed(np.zeros((7, 8), np.float16), np.zeros((8, 8), np.float16), np.zeros((7, 8), np.float32), target="cpu")
    with pytest.raises(CompileError, match=r"option --align: expected \(A, B\) elements per access"):
        lasscc.gemm(align=(1.5, 2))
    with pytest.raises(CompileError, match="expected align A a power of two from 1 to 16 i8"):
        lasscc.gemm(a_dtype="i8", d_dtype="i32", threadblock=(128, 128, 64), warp=(64, 64, 64), align=(32, 16))


# ---- narrow kernels assemble --------------------------------------------------------------------
PTXAS = [  # (layouts, dtype, config, align, arch)
    (("row", "col", "row"), "f16", "s3", (1, 4), "sm_80"),
    (("col", "row", "col"), "bf16", "s2", (2, 1), "sm_90a"),
    (("row", "col", "row"), "i8", "s3", (1, 2), "sm_90a"),
    (("row", "col", "row"), "f32", "s2", (1, 2), "sm_80"),
]


@pytest.mark.parametrize("lay,dt,cfg,align,arch", PTXAS)
def test_narrow_kernels_assemble_without_spills(lay, dt, cfg, align, arch):
    from lasscc.emit import ptxas_info
    from lasscc.driver import compile_module

    res = compile_module(parse_mlir(gemm_src(*lay, dt, cfg, align)), arch=arch)
    eb = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1}[dt]
    if cfg == "s2":  # register staged: ld.global of the width, no cp.async
        assert "cp.async" not in res.ptx
    for w in (align[0] * eb, align[1] * eb):
        kind = L.copy_kind(w)
        if cfg == "s2" or kind == "sync":
            assert (f"ld.global.u{8 * w}" if w <= 4 else "ld.global.v2.u32") in res.ptx, w
        else:
            assert f"cp.async.{kind}.shared.global" in res.ptx, w
    # sm_80 PTX runs on sm_80 and (JIT-assembled) sm_90a; sm_90a PTX is for sm_90a only
    for target in (("sm_80", "sm_90a") if arch == "sm_80" else ("sm_90a",)):
        info = ptxas_info(res.ptx, target)
        if info is None:
            pytest.skip("ptxas not on PATH")
        assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0, (target, info.line)


# ---- the cross-stage prefetch with narrow copies ----------------------------------------------
PREFETCH_NARROW = [  # (threadblock, warp, stages, align, prefetch kept): spilled 16-376 bytes with it
    ((128, 256, 32), (64, 64, 32), 4, (1, 1), False),  # 48 copies per thread per k-tile
    ((256, 128, 64), (64, 64, 64), 4, (4, 4), False),  # 24
    ((128, 128, 32), (64, 64, 32), 3, (2, 2), False),  # 32
    ((128, 128, 32), (64, 64, 32), 3, (4, 4), True),   # 16: kept (254 registers, no spill)
    ((256, 128, 64), (64, 64, 64), 4, (8, 8), True),   # 12: the tuned config
    ((128, 256, 32), (64, 64, 32), 2, (1, 1), False),  # 2 stages (no prefetch): the most accesses
                                                       # GemmConfig.validate lets it hold (48)
]


@pytest.mark.parametrize("tb,w,stages,align,kept", PREFETCH_NARROW)
def test_prefetch_leaves_narrow_copies_without_spills(tb, w, stages, align, kept):
    """prefetch = 1 carries a third fragment set across the barrier only while the copies per
    thread are few (lasscc.resources.prefetch_applies); the kernel assembles without spills."""
    from lasscc.config import GemmConfig
    from lasscc.emit import ptxas_info
    from lasscc.driver import compile_module
    from lasscc.resources import prefetch_applies

    cfg = GemmConfig(threadblock=tb, warp=w, stages=stages, prefetch=1, align=align)
    cfg.validate("sm_90a")
    assert prefetch_applies(cfg, "f16") == kept
    copies = sum(L.copy_iterations(r, tb[2], 2, cfg.threads, 2 * a) for r, a in zip(tb[:2], align))
    assert kept == (copies <= 16)
    src = gemm_src("row", "col", "row", "f16", "s3", align).replace(
        "threadblock = [128, 128, 32]", f"threadblock = [{', '.join(map(str, tb))}]").replace(
        "warp = [64, 64, 32], stages = 3", f"warp = [{', '.join(map(str, w))}], stages = {stages}, prefetch = 1")
    assert f"stages = {stages}, prefetch = 1" in src and f"threadblock = [{', '.join(map(str, tb))}]" in src, src
    res = compile_module(parse_mlir(src), arch="sm_90a")
    info = ptxas_info(res.ptx, "sm_90a")
    if info is None:
        pytest.skip("ptxas not on PATH")
    assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0, info.line
