"""`lasscc tune` / `bench` without a GPU: the search space, the tuned-config store and lookup, and
the CLI's errors."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from lasscc.config import GemmConfig, KernelSpec
from lasscc.tune import candidates, lookup_tuned, store_tuned, tune_key
from lit_zygote import lasscc_command  # tests/lit_zygote.py: the CLI through the suite's fork server

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
def test_candidates_are_valid_and_include_the_measured_best(arch):
    ok, rejected = candidates(arch)
    for cfg in ok:
        cfg.validate(arch)
    # the best measured on the H100/H200 (BENCHMARKS.md); 4 stages of BK = 64 need sm_90a's 227 KB
    for best in (GemmConfig(threadblock=(128, 256, 32), warp=(64, 64, 32), stages=4, prefetch=1),
                 GemmConfig(threadblock=(128, 256, 64), warp=(64, 64, 64), stages=3, prefetch=1)):
        assert best in ok
    big = GemmConfig(threadblock=(256, 128, 64), warp=(64, 64, 64), stages=4, prefetch=1)
    assert (big in ok) == (arch == "sm_90a")
    assert all(not (c.prefetch and (c.stages < 3 or c.threadblock[2] > 64)) for c in ok)
    assert len(ok) + len(rejected) >= 30


@pytest.mark.parametrize("ab,example,bks", [("bf16", "gemm_bf16.mlir", {32, 64}), ("f32", "tf32.mlir", {16, 32}),
                                             ("i8", "int8.mlir", {64, 128})])
def test_candidates_follow_the_element_type(ab, example, bks):
    """tf32 and int8 candidates keep the f16 tiles' bytes per SMEM row and take their own mma.sync
    shape: every one passes the validator for that type, and one compiles from the example (the
    f16 candidates' instruction [16, 8, 16] would be rejected for these types)."""
    from lasscc.layout import mma_shape
    from lasscc.tune import _compile

    ok, _ = candidates("sm_90a", ab)
    assert len(ok) >= 40 and {c.threadblock[2] for c in ok} == bks
    for cfg in ok:
        cfg.validate("sm_90a", ab_type=ab)
        assert cfg.instruction == mma_shape(ab) and cfg.warp[2] == cfg.threadblock[2]
    best = next(c for c in ok if c.threadblock[:2] == (128, 256) and c.stages == 3)
    res = _compile((ROOT / "examples" / example).read_text(), example, "sm_90a", best)
    assert ".entry" in res.ptx and "mma.sync" in res.ptx


def test_store_and_lookup(tmp_path, monkeypatch):
    monkeypatch.setenv("LASSCC_CACHE_DIR", str(tmp_path))
    spec = KernelSpec(name="gemm", threads=256, smem_bytes=0, tile_m=128, tile_n=256, raster=8)
    cfg = GemmConfig(threadblock=(128, 256, 32), stages=4, prefetch=1)
    key = tune_key(4096, 4096, 4096, spec, "NVIDIA H200")
    store_tuned(key, cfg, 450.0)
    assert lookup_tuned("f16", "f32", "rowcolrow", 4096, 4096, 4096, "NVIDIA H200") == cfg.as_dict()
    assert lookup_tuned("f16", "f32", "rowcolrow", 1024, 1024, 1024, "NVIDIA H200") == cfg.as_dict()  # same GPU
    other = GemmConfig(stages=2)
    store_tuned(tune_key(1024, 1024, 1024, spec, "NVIDIA H100"), other, 300.0)
    assert lookup_tuned("f16", "f32", "rowcolrow", 4096, 4096, 4096, "NVIDIA H100") == other.as_dict()
    assert lookup_tuned("f16", "f32", "rowcolrow") == other.as_dict()  # compile: newest for the types
    assert lookup_tuned("bf16", "f32", "rowcolrow") is None


def test_compile_uses_tuned_config_only_without_config(tmp_path, monkeypatch):
    monkeypatch.setenv("LASSCC_CACHE_DIR", str(tmp_path))
    spec = KernelSpec(name="gemm", threads=256, smem_bytes=0, tile_m=128, tile_n=256, raster=8)
    store_tuned(tune_key(64, 64, 64, spec, "GPU"), GemmConfig(stages=5), 1.0)

    def run(f):
        return subprocess.run([*lasscc_command(), "compile", str(f), "--emit", "mlir", "--no-cache"],
                              capture_output=True, text=True, cwd=ROOT)

    tuned = run(ROOT / "examples" / "gemm_tuned.mlir")
    assert tuned.returncode == 0, tuned.stderr
    assert "stages = 5" in tuned.stdout and "using the tuned config" in tuned.stderr
    fixed = run(ROOT / "examples" / "gemm.mlir")
    assert "stages = 3" in fixed.stdout and "tuned" not in fixed.stderr


@pytest.mark.parametrize("args,expect", [
    (["bench", "examples/gemm.mlir", "--sizes", "10x"], "option --sizes: expected sizes like 4096"),
    (["bench", "examples/gemm.mlir", "--align", "8,8", "--sizes", "64x64x12"],
     "option --sizes: expected K a multiple of 8"),
    (["tune", "examples/gemm.mlir", "--stages", "3"], "lasscc tune chooses the config itself"),
    (["tune", "examples/gemm.mlir", "--jobs", "0"], "option --jobs: expected a worker count >= 1, got 0"),
])
def test_cli_errors(args, expect):
    proc = subprocess.run([*lasscc_command(), *args], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2 and expect in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


def test_tune_compiles_in_workers(tmp_path, monkeypatch):
    """`lasscc tune` compiles its candidates in spawned worker processes (the same PTX and specs as a
    compile in this process, a bad config skipped with its error), then times them one by one (the
    GPU runner faked: no GPU here) and reports both parts' seconds."""
    import lasscc.tune as tune_mod
    from lasscc.runtime import cuda, gemm_runner

    monkeypatch.setenv("LASSCC_CACHE_DIR", str(tmp_path))
    text = (ROOT / "examples" / "gemm_small_tiles.mlir").read_text()
    good = GemmConfig(threadblock=(64, 64, 32), warp=(32, 32, 32), instruction=(16, 8, 16), stages=3)
    bad = GemmConfig(threadblock=(256, 256, 64), warp=(64, 64, 64), instruction=(16, 8, 16), stages=8)  # 512 KB SMEM
    timed = []

    def fake_run(ptx, spec, *a, **kw):
        timed.append((ptx, spec))
        return {"tflops": 1.0, "ok": True, "rel_err": 0.0}

    monkeypatch.setattr(tune_mod, "candidates", lambda arch, ab, *a: ([bad, good], []))
    monkeypatch.setattr(tune_mod, "split_candidates", lambda *a: [])
    monkeypatch.setattr(tune_mod, "decomposition_candidates", lambda *a: [])
    monkeypatch.setattr(gemm_runner, "run_gemm", fake_run)
    monkeypatch.setattr(cuda, "sm_count", lambda: 108)
    monkeypatch.setattr(cuda, "device_name", lambda: "fake GPU")
    out = tune_mod.tune(text, "gemm_small_tiles.mlir", "sm_80", 256, 256, 256, jobs=2)
    assert out["best"] == good and out["jobs"] == 2 and out["compiled"] == 2
    assert [c for c, _ in out["rejected"]] == [bad] and "shared memory" in out["rejected"][0][1]
    assert out["compile_s"] > 0 and out["time_s"] >= 0
    res = tune_mod._compile(text, "gemm_small_tiles.mlir", "sm_80", good)
    assert timed and all(ptx == res.ptx and spec == res.specs[0] for ptx, spec in timed)
