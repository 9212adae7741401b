"""The sm_90a shape-aware default's data-parallel kernel (issue 15; lasscc.heuristics.data_parallel_kernel):
persistent cooperative + TMA store where the tiles fill the SMs.

1. The CLI applies it (`lasscc run` / `bench`'s _apply_tuned: D's type and layout reach the rule).
2. Numerics: the default's config for odd sizes (partial tiles in M, N and K) on a GPU of 2 / 3 SMs
   (so a small output fills them and each persistent CTA walks several tiles), f16 -> f32,
   f16 -> f16, bf16 -> bf16, at the warpgroup level and the physical one (tensor maps), against
   float64, D NaN-poisoned.
3. The kernel the default takes on an H100 (128x256x64 / 4 stages, persistent + TMA store) assembles
   without spills or wgmma serialization (emit.ptxas_info), and every mbarrier wait's address is
   built on the smem base read at the wait (lower_sm90 `_barrier_ptr`: the k-tile loop then stays in
   uniform registers), not on the kernel's hoisted base; planted: the hoisted base is caught.
"""

from __future__ import annotations

import argparse

import numpy as np
import pytest

from lasscc.heuristics import choose, wgmma_base
from lasscc.interp import run_check

from _wgmma_stages import passes_after, wgmma_gemm  # noqa: E402

H100 = 132
TYPES = [("f16", "f32"), ("f16", "f16"), ("bf16", "bf16")]


def _module(ab: str, d: str, ld: str = "row"):
    from lasscc.source import parse_mlir

    td = f"memref<?x?x{d}>" if ld == "row" else f"memref<?x?x{d}, strided<[1, ?]>>"
    return parse_mlir(f"func.func @gemm(%a: memref<?x?x{ab}>, %b: memref<?x?x{ab}, strided<[1, ?]>>, %d: {td}) {{\n"
                      f"  lass.gemm ins(%a, %b : memref<?x?x{ab}>, memref<?x?x{ab}, strided<[1, ?]>>) outs(%d : {td})\n"
                      "  func.return\n}\n", "<t>")


def _applied(ab, d, m, n, k, ld="row"):
    from lasscc.cli import _apply_tuned
    from lasscc.dialects.lass import GemmOp, config_from_attr

    args = argparse.Namespace(file="<t>", arch="sm_90a", threadblock=None, warp=None, stages=None, raster=None,
                              prefetch=None, split_k=None, split_k_mode=None)
    module = _module(ab, d, ld)
    _apply_tuned(module, args, m, n, k, None, H100)
    return config_from_attr(next(o for o in module.walk() if isinstance(o, GemmOp)).config)


@pytest.mark.parametrize("ab,d", TYPES)
def test_cli_default_takes_the_persistent_tma_kernel(ab, d, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LASSCC_CACHE_DIR", str(tmp_path))  # no tuned.json
    cfg = _applied(ab, d, 4096, 4096, 4096)
    assert (cfg.threadblock, cfg.stages, cfg.schedule, cfg.persistent, cfg.epilogue) == (
        (128, 256, 64), 4, "cooperative", 1, "tma")
    assert 'schedule = "cooperative", persistent = 1, epilogue = "tma": data-parallel, 512 tiles' in capsys.readouterr().err
    assert _applied(ab, d, 2048, 2048, 2048).persistent == 1  # 128 tiles: half a wave is enough
    plain = _applied(ab, d, 1024, 1024, 1024)  # 64x128 tiles: the cooperative schedule needs BM = 128
    assert (plain.schedule, plain.persistent, plain.epilogue) == ("default", 0, "direct")


def test_cli_column_major_d_checks_rows_along_m(tmp_path, monkeypatch):
    monkeypatch.setenv("LASSCC_CACHE_DIR", str(tmp_path))
    assert _applied("f16", "f16", 4104, 4100, 4096, ld="col").epilogue == "tma"  # rows of 4104: 8208 bytes
    assert _applied("f16", "f16", 4100, 4104, 4096, ld="col").epilogue == "direct"  # rows of 4100: 8200 bytes


# (A/B, D, M, N, K, SMs): partial tiles in M, N and K; N keeps D's rows 16-byte multiples (a tensor map)
RUNS = [("f16", "f32", 257, 312, 136, 2), ("f16", "f16", 257, 312, 136, 2), ("bf16", "bf16", 129, 520, 72, 2),
        ("f16", "f32", 400, 264, 200, 3)]


@pytest.mark.parametrize("ab,d,m,n,k,sms", RUNS, ids=[f"{r[0]}-{r[1]}-{r[2]}x{r[3]}x{r[4]}" for r in RUNS])
def test_default_kernel_matches_float64(ab, d, m, n, k, sms):
    c = choose(m, n, k, ab, sms, "sm_90a", d_type=d, base=wgmma_base(ab, "sm_90a"))
    cfg = c.config
    assert (cfg.schedule, cfg.persistent, cfg.epilogue) == ("cooperative", 1, "tma"), c.describe()
    extra = f', schedule = "{cfg.schedule}", persistent = {cfg.persistent}, epilogue = "{cfg.epilogue}"'
    mods = passes_after(wgmma_gemm(ab, d, cfg.threadblock, cfg.stages, extra))
    ds = []
    for level in ("lasscc-warp-specialize", "lasscc-hopper-smem"):
        r = run_check(mods[level], m, n, k, seed=3, alpha=1.5, report_banks=False)
        assert r["ok"], (level, r["rel_err"], r["tolerance"])
        assert not np.isnan(np.asarray(r["d"], np.float64)).any()
        ds.append(np.asarray(r["d"]))
    np.testing.assert_array_equal(ds[0], ds[1])


@pytest.mark.parametrize("ab,d", TYPES[:1])  # st.shared (f32 D); the stmatrix one (16-bit D): the API test below
def test_h100_default_kernel_assembles_without_spills(ab, d):
    import shutil

    from lasscc.driver import compile_module
    from lasscc.emit import ptxas_info
    from lasscc.source import parse_mlir

    if shutil.which("ptxas") is None:
        pytest.skip("no ptxas")
    cfg = choose(8192, 8192, 8192, ab, H100, "sm_90a", d_type=d, base=wgmma_base(ab, "sm_90a")).config
    extra = f', schedule = "{cfg.schedule}", persistent = {cfg.persistent}, epilogue = "{cfg.epilogue}"'
    res = compile_module(parse_mlir(wgmma_gemm(ab, d, cfg.threadblock, cfg.stages, extra), "t.mlir"), "sm_90a",
                         keep_stages=False)
    info = ptxas_info(res.ptx, "sm_90a")  # raises on ptxas's wgmma serialization warnings
    assert (info.spill_stores, info.spill_loads, info.stack_bytes) == (0, 0, 0), info.line
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in res.ptx and "setmaxnreg" in res.ptx
    roots = _wait_address_roots(res.ptx)
    assert len(roots) == 2 and all(r == ["mov.u32 lass_smem;"] for r in roots), roots  # producer, consumer
    # planted: the wait address from the hoisted base (the form before _barrier_ptr) is caught
    hoisted = res.ptx.replace("mov.u32 %r", "mov.b32 \t%r", 1)
    assert any("mov.b32 lass_smem;" in r for r in _wait_address_roots(hoisted))


def _wait_address_roots(ptx: str) -> list[list[str]]:
    """For each `mbarrier.try_wait` of `ptx`, how its address register's definitions (followed back
    through register operands) read the smem window: "mov.u32 lass_smem;" for the volatile asm read at
    the use, "mov.b32 lass_smem;" for LLVM's hoisted base (ptxas keeps that one per-thread, and a
    k-tile loop's barrier slot built on it takes the loop counter and the wgmma descriptors with it)."""
    import re

    defs: dict[str, list[str]] = {}
    for line in ptx.splitlines():
        m = re.match(r"\s*(mov\.[bu]32)\s+(%r\d+),\s*lass_smem;", line)
        if m:
            defs.setdefault(m.group(2), []).append(f"{m.group(1)} lass_smem;")
            continue
        m = re.match(r"\s*[a-z][\w.]*\s+(%r\d+),(.*);", line)
        if m:
            defs.setdefault(m.group(1), []).extend(re.findall(r"%r\d+", m.group(2)))
    roots = []
    for addr in re.findall(r"mbarrier\.try_wait\S*\s+%p\d+,\s*\[(%r\d+)", ptx):
        seen, todo, found = set(), [addr], set()
        while todo:
            r = todo.pop()
            for x in defs.get(r, []):
                if x.endswith("lass_smem;"):
                    found.add(x)
                elif x not in seen:
                    seen.add(x)
                    todo.append(x)
        roots.append(sorted(found))
    return roots


def test_api_shape_compiles_the_persistent_tma_kernel():
    """gemm(shape=...) on sm_90a compiles the default's kernel (its config, written with mma = "wgmma"
    so the split options merge into it), assembled without spills: the stmatrix staging of a 16-bit D."""
    import shutil

    import lasscc.api as api

    if shutil.which("ptxas") is None:
        pytest.skip("no ptxas")
    k = api.gemm(d_dtype="f16", shape=(4096, 4096, 4096), sms=H100, arch="sm_90a")
    assert 'schedule = "cooperative"' in k.ir("input") and 'epilogue = "tma"' in k.ir("input")
    r = k.resources
    assert (r["spill_stores"], r["spill_loads"], r["stack_bytes"]) == (0, 0, 0), r["ptxas"]


def test_api_shape_takes_the_persistent_tma_kernel(monkeypatch):
    """gemm(shape=...) on sm_90a writes the rule's keys into the lass.gemm, with a fused epilogue too
    (bias + GELU measured faster with them: BENCHMARKS.md session 12); a fused residual (measured
    slower with them) or an explicit split keeps the plain kernel."""
    import lasscc.api as api
    import lasscc.epilogue_api as epi

    seen = {}

    def fake_compile(text, arch, **kw):
        seen["text"], seen["kw"] = text, kw
        return "kernel"

    monkeypatch.setattr(api, "compile", fake_compile)
    api.gemm(d_dtype="f16", shape=(4096, 4096, 4096), sms=H100, arch="sm_90a")
    assert 'schedule = "cooperative"' in seen["text"] and "persistent = 1" in seen["text"]
    assert 'epilogue = "tma"' in seen["text"] and "threadblock = [128 : i64, 256 : i64, 64 : i64]" in seen["text"]
    api.gemm(d_dtype="f16", shape=(4096, 4096, 4096), sms=H100, arch="sm_90a", split_k=2)
    assert "persistent" not in seen["text"]
    monkeypatch.setattr(epi, "epilogue_gemm", lambda text, *a, **kw: seen.update(text=text))
    api.gemm(d_dtype="f16", shape=(4096, 4096, 4096), sms=H100, arch="sm_90a", bias="n", activation="gelu")
    assert "persistent = 1" in seen["text"] and 'epilogue = "tma"' in seen["text"]
    assert "threadblock = [128 : i64, 256 : i64, 64 : i64]" in seen["text"]
    api.gemm(d_dtype="f16", shape=(4096, 4096, 4096), sms=H100, arch="sm_90a", bias="n", residual=True)
    assert "persistent" not in seen["text"] and "threadblock = [128 : i64, 256 : i64, 64 : i64]" in seen["text"]
