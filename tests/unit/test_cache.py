"""The compile cache (lasscc/cache.py): hit, miss, bypass, corrupt entries, dumps on a hit, the CLI.

Every test points LASSCC_CACHE_DIR at a temporary folder."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
from pathlib import Path

import pytest

from lasscc import cache
from lasscc.dialects.lass import kernel_facts
from lasscc.driver import PASS_NAMES
from lasscc.source import parse_mlir
from lit_zygote import lasscc_command  # tests/lit_zygote.py: the CLI through the suite's fork server

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "examples" / "gemm_small_tiles.mlir"  # 64x64x32: the quickest kernel to compile


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("LASSCC_CACHE_DIR", str(d))
    return d


@pytest.fixture
def count_compiles(monkeypatch):
    """Count the real compiles (lasscc.driver.compile_module calls) made through the cache."""
    import lasscc.driver as pipeline

    calls = []
    real = pipeline.compile_module

    def counting(*a, **kw):
        calls.append(a)
        return real(*a, **kw)

    monkeypatch.setattr(pipeline, "compile_module", counting)
    return calls


def _module(text: str | None = None):
    return parse_mlir(text if text is not None else SMALL.read_text(), str(SMALL))


def test_cache_dir_precedence(monkeypatch, tmp_path):
    monkeypatch.delenv("LASSCC_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "xdg" / "lasscc"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache.cache_dir() == Path.home() / ".cache" / "lasscc"
    monkeypatch.setenv("LASSCC_CACHE_DIR", str(tmp_path / "mine"))
    assert cache.cache_dir() == tmp_path / "mine"


def test_key_depends_on_input_arch_version_and_passes(monkeypatch):
    text = str(_module())
    opts = cache.CompileOptions("sm_80", tuple(PASS_NAMES))
    assert opts == cache.CompileOptions("sm_80") and opts.hash() == cache.CompileOptions("sm_80").hash()
    with pytest.raises(AttributeError):  # frozen: the key cannot drift from the options it was made of
        opts.arch = "sm_90a"
    k = cache.cache_key(text, opts)
    assert k == cache.cache_key(text, cache.CompileOptions("sm_80", tuple(PASS_NAMES)))
    assert k != cache.cache_key(text, cache.CompileOptions("sm_90a", tuple(PASS_NAMES)))
    assert k != cache.cache_key(text.replace("stages = 3", "stages = 4"), opts)
    assert k != cache.cache_key(text, cache.CompileOptions("sm_80", tuple(PASS_NAMES[:-1])))
    monkeypatch.setattr(cache, "_SOURCE_DIGEST", "0" * 64)  # another compiler
    assert k != cache.cache_key(text, opts)
    assert "xdsl=" in cache.compiler_version() and "+src." in cache.compiler_version()


def test_miss_then_hit(cache_dir, count_compiles):
    first = cache.cached_compile(_module(), "sm_80", str(SMALL))
    assert first.cache_hit is False and len(count_compiles) == 1
    entries = list(cache_dir.glob("*.json.gz"))
    assert len(entries) == 1
    second = cache.cached_compile(_module(), "sm_80", str(SMALL))
    assert second.cache_hit is True and len(count_compiles) == 1
    assert second.ptx == first.ptx and second.llvm_ir == first.llvm_ir
    assert second.stages == first.stages and list(second.stages) == PASS_NAMES
    assert second.specs == first.specs
    assert second.kernel_meta == first.kernel_meta
    assert second.kernel_meta["gemm_small"]["config"]["threadblock"] == [64, 64, 32]
    # the stand-in module: the final text, and the kernel's attributes (what `lasscc run` reads)
    assert str(second.module) == str(first.module)
    fn = next(f for f in second.module.ops if getattr(f, "sym_name", None) and f.sym_name.data == "gemm_small")
    assert kernel_facts(fn).alpha == 1.0 and kernel_facts(fn).config.threadblock == (64, 64, 32)
    # another arch or another config is another entry
    third = cache.cached_compile(_module(), "sm_90a", str(SMALL))
    assert third.cache_hit is False and len(count_compiles) == 2
    assert len(list(cache_dir.glob("*.json.gz"))) == 2


def test_ptx_only_entry(cache_dir, count_compiles):
    """A compile that needs only the PTX prints no IR and stores a PTX-only entry; a caller that
    needs the stage texts recompiles once and replaces it with a full entry."""
    bare = cache.cached_compile(_module(), "sm_80", str(SMALL), keep_stages=False)
    assert bare.cache_hit is False and bare.stages == {} and len(count_compiles) == 1
    (entry,) = cache_dir.glob("*.json.gz")
    assert json.loads(gzip.decompress(entry.read_bytes()))["stages"] == {}
    hit = cache.cached_compile(_module(), "sm_80", str(SMALL), keep_stages=False)
    assert hit.cache_hit is True and hit.module is None and len(count_compiles) == 1
    assert hit.ptx == bare.ptx and hit.specs == bare.specs and hit.kernel_meta == bare.kernel_meta
    full = cache.cached_compile(_module(), "sm_80", str(SMALL))
    assert full.cache_hit is False and list(full.stages) == PASS_NAMES and len(count_compiles) == 2
    assert full.ptx == bare.ptx
    # the full entry now serves both kinds of caller
    again = cache.cached_compile(_module(), "sm_80", str(SMALL), keep_stages=False)
    assert again.cache_hit is True and again.stages == {} and len(count_compiles) == 2
    assert len(list(cache_dir.glob("*.json.gz"))) == 1


def test_no_cache_neither_reads_nor_writes(cache_dir, count_compiles):
    res = cache.cached_compile(_module(), "sm_80", str(SMALL), use_cache=False)
    assert res.cache_hit is False and not cache_dir.exists()
    cache.cached_compile(_module(), "sm_80", str(SMALL))
    res = cache.cached_compile(_module(), "sm_80", str(SMALL), use_cache=False)
    assert res.cache_hit is False and len(count_compiles) == 3


@pytest.mark.parametrize("damage", ["garbage", "truncated", "not-json", "wrong-fields", "other-input"])
def test_corrupt_entry_is_ignored_and_rewritten(cache_dir, count_compiles, damage):
    first = cache.cached_compile(_module(), "sm_80", str(SMALL))
    (entry,) = cache_dir.glob("*.json.gz")
    raw = entry.read_bytes()
    if damage == "garbage":
        entry.write_bytes(b"\x00not a cache entry")
    elif damage == "truncated":
        entry.write_bytes(raw[: len(raw) // 2])
    elif damage == "not-json":
        entry.write_bytes(gzip.compress(b"{nope"))
    else:
        data = json.loads(gzip.decompress(raw))
        if damage == "wrong-fields":
            data["specs"] = [{"name": "gemm_small", "bogus": 1}]
        else:
            data["input"] = "func.func @other() { func.return }"
        entry.write_bytes(gzip.compress(json.dumps(data).encode()))
    again = cache.cached_compile(_module(), "sm_80", str(SMALL))
    assert again.cache_hit is False and len(count_compiles) == 2
    assert again.ptx == first.ptx
    third = cache.cached_compile(_module(), "sm_80", str(SMALL))  # rewritten: a hit again
    assert third.cache_hit is True and len(count_compiles) == 2


def test_dumps_written_on_a_hit(cache_dir, tmp_path):
    cache.cached_compile(_module(), "sm_80", str(SMALL), tmp_path / "miss")
    hit = cache.cached_compile(_module(), "sm_80", str(SMALL), tmp_path / "hit")
    assert hit.cache_hit
    miss_files = sorted(p.name for p in (tmp_path / "miss").iterdir())
    assert miss_files == sorted(p.name for p in (tmp_path / "hit").iterdir())
    assert "00-input.mlir" in miss_files and f"{len(PASS_NAMES) + 2:02d}-kernel.ptx" in miss_files
    for name in miss_files:
        assert (tmp_path / "miss" / name).read_text() == (tmp_path / "hit" / name).read_text(), name


def test_unwritable_cache_still_compiles(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("LASSCC_CACHE_DIR", str(blocker / "cache"))
    res = cache.cached_compile(_module(), "sm_80", str(SMALL))
    assert res.cache_hit is False and ".entry gemm_small" in res.ptx


def test_errors_are_not_cached(cache_dir):
    from lasscc.diagnostics import LassError

    bad = SMALL.read_text().replace("warp = [32, 32, 32]", "warp = [48, 32, 32]")
    for _ in range(2):
        with pytest.raises(LassError, match="expected warp tile 48x32 to divide"):
            cache.cached_compile(_module(bad), "sm_80", str(SMALL))
    assert not list(cache_dir.glob("*.json.gz")) if cache_dir.exists() else True


def _cli(*args, env=None):
    return subprocess.run([*lasscc_command(), *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **(env or {})})


def test_cli_compile_uses_the_cache_and_no_cache_bypasses(tmp_path):
    env = {"LASSCC_CACHE_DIR": str(tmp_path / "cache")}
    out1, out2 = tmp_path / "a.ptx", tmp_path / "b.ptx"
    p = _cli("compile", str(SMALL), "-o", str(out1), "--no-cache", env=env)
    assert p.returncode == 0, p.stderr
    assert not (tmp_path / "cache").exists()
    p = _cli("compile", str(SMALL), "-o", str(out1), env=env)
    assert p.returncode == 0, p.stderr
    assert len(list((tmp_path / "cache").glob("*.json.gz"))) == 1
    p = _cli("compile", str(SMALL), "-o", str(out2), "--dump-dir", str(tmp_path / "dumps"), "--emit", "ptx", env=env)
    assert p.returncode == 0, p.stderr
    assert out1.read_text() == out2.read_text()
    assert (tmp_path / "dumps" / "00-input.mlir").exists()
    assert (tmp_path / "dumps" / f"{len(PASS_NAMES) + 2:02d}-kernel.ptx").read_text() == out1.read_text()
    # --emit mlir on a hit prints the final IR
    p = _cli("compile", str(SMALL), "--emit", "mlir", env=env)
    assert p.returncode == 0 and "llvm.func @gemm_small" in p.stdout
