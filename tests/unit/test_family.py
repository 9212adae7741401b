"""lasscc.family: the instruction family a lass.gemm compiles with.  sm_90a takes wgmma with the
default tiling when the config gives no `mma`; an `mma` key, sm_80 and mma.sync tilings keep what
they say; batched and split-K GEMMs take wgmma; where wgmma cannot serve (tf32 / s8 MN-major,
narrow copies, a threadblock the wgmma rules reject) it stays mma.sync with a located note; run / bench /
tune settle sizes TMA cannot load (a note, or exit 2 for an explicit wgmma).  No GPU: where the
code asks the driver, the device is mocked."""

from __future__ import annotations

from pathlib import Path

import pytest

from lasscc.cli import main
from lasscc.config import GemmConfig
from lasscc.dialects.lass import GemmOp, config_from_attr
from lasscc.family import DEFAULT_STAGES, DEFAULT_TILES, choose, select, size_fallback
from lasscc.source import parse_mlir

ROOT = Path(__file__).resolve().parents[2]
WGMMA_EXAMPLE = str(ROOT / "examples" / "gemm_wgmma.mlir")


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("LASSCC_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "family-cache"))


def _memref(t: str, layout: str) -> str:
    return f"memref<?x?x{t}, strided<[1, ?]>>" if layout == "col" else f"memref<?x?x{t}>"


def gemm(cfg: str = "", ab: str = "f16", d: str = "f32", la: str = "row", lb: str = "col", batched: bool = False) -> str:
    a, b, dd = _memref(ab, la), _memref(ab, lb), _memref(d, "row")
    if batched:
        a, b, dd = (x.replace("memref<?x?x", "memref<?x?x?x").replace("[1, ?]", "[?, 1, ?]") for x in (a, b, dd))
    config = f", config = {{{cfg}}}" if cfg else ""
    return (f"func.func @gemm(%a: {a}, %b: {b}, %d: {dd}) {{\n"
            f"  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32{config}}}\n"
            f"      ins(%a, %b : {a}, {b}) outs(%d : {dd})\n"
            f"  func.return\n}}\n")


def _config(module) -> GemmConfig:
    (g,) = [o for o in module.walk() if isinstance(o, GemmOp)]
    return config_from_attr(g.config)


def _select(text: str, arch: str = "sm_90a"):
    module = parse_mlir(text, "t.mlir")
    notes = select(module, arch, "t.mlir")
    return module, notes


# ---- the choice ----------------------------------------------------------------------------------
@pytest.mark.parametrize("ab,d,bk", [("f16", "f32", 64), ("bf16", "f32", 64), ("f32", "f32", 32), ("i8", "i32", 128)])
def test_sm90a_default_is_wgmma_128x256_4_stages(ab, d, bk):
    """No config: the first default tile, 128 x 256 with 128-byte K rows, 4 stages, for every type."""
    module, notes = _select(gemm(ab=ab, d=d))
    cfg = _config(module)
    assert notes == [] and cfg.is_wgmma
    assert (cfg.threadblock, cfg.stages) == ((128, 256, bk), 4)
    assert DEFAULT_TILES[0] == (128, 256, 128) and DEFAULT_STAGES[0] == 4
    assert cfg.warp == (64, 256, bk) and cfg.instruction[:2] == (64, 256)


def test_given_keys_are_kept_and_the_choice_is_written_once():
    module, _ = _select(gemm("threadblock = [128, 128, 64], stages = 3, raster = 4"))
    cfg = _config(module)
    assert cfg.is_wgmma and (cfg.threadblock, cfg.stages, cfg.raster) == ((128, 128, 64), 3, 4)
    text = str(module)
    assert 'mma = "wgmma"' in text
    assert select(module, "sm_90a", "t.mlir") == [] and str(module) == text  # the key is there: nothing to do


@pytest.mark.parametrize("cfg,instruction", [
    ("threadblock = [128, 256, 64], instruction = [64, 256, 16]", (64, 256, 16)),
    ("threadblock = [128, 256, 64], instruction = [64, 128, 16]", (64, 128, 16)),
    ("threadblock = [128, 256, 64], warp = [64, 256, 64], instruction = [64, 128, 16]", (64, 128, 16)),
], ids=["one-chain", "two-chains", "two-chains-warp"])
def test_a_written_wgmma_instruction_takes_wgmma_and_keeps_its_chains(cfg, instruction):
    """An instruction of wgmma's shape, with or without the warp tile written, is a wgmma config (not an
    mma.sync one that then fails validation), and its N split into accumulator chains is kept."""
    module, notes = _select(gemm(cfg))
    c = _config(module)
    assert notes == [] and c.is_wgmma
    assert tuple(c.instruction) == instruction and tuple(c.warp) == (64, 256, 64)


@pytest.mark.parametrize("kw", [{"batched": True}, {"cfg": "split_k = 2"}], ids=["batched", "split-k"])
def test_batched_and_split_k_take_wgmma(kw):
    """Batched GEMMs (3-d tensor maps, boxes one matrix deep) and split-K take wgmma."""
    module, notes = _select(gemm(**kw))
    assert notes == [] and _config(module).is_wgmma


def test_f16_mn_major_takes_wgmma():
    """wgmma reads 16-bit operands MN-major through the transpose bits."""
    module, notes = _select(gemm(la="col", lb="row"))
    assert notes == [] and _config(module).is_wgmma


@pytest.mark.parametrize("text", [
    gemm(),  # sm_80: mma.sync, the config untouched
], ids=["sm80"])
def test_sm80_is_left_alone(text):
    module, notes = _select(text, "sm_80")
    assert notes == [] and str(module) == str(parse_mlir(text, "t.mlir"))


@pytest.mark.parametrize("cfg", ['mma = "mma.sync"', "threadblock = [128, 128, 32], warp = [64, 64, 32]",
                                 "instruction = [16, 8, 16]", "prefetch = 1"])
def test_explicit_and_mma_sync_tilings_keep_mma_sync_silently(cfg, capsys):
    module, notes = _select(gemm(cfg))
    assert notes == [] and not _config(module).is_wgmma and capsys.readouterr().err == ""


@pytest.mark.parametrize("kw,reason", [
    ({"ab": "f32", "la": "col"}, "tf32 operands must be K-major in shared memory (the A tile is MN-major here)"),
    ({"ab": "i8", "d": "i32", "lb": "row"}, "s8 operands must be K-major in shared memory (the B tile is MN-major here)"),
    ({"cfg": "align = [4, 8]"}, "align = [4, 8] (copy accesses narrower than 16 bytes) cannot be TMA loads"),
    ({"cfg": "threadblock = [256, 128, 64]"}, "threadblock M = 256: with mma = \"wgmma\" it must be 64 or 128"),
], ids=["tf32-mn", "s8-mn", "align", "bm256"])
def test_fallbacks_are_noted_at_the_op(kw, reason, capsys):
    module, notes = _select(gemm(**kw))
    cfg = _config(module)
    assert not cfg.is_wgmma and len(notes) == 1
    note = notes[0]
    assert note.startswith("lasscc: note: t.mlir:2:3: sm_90a compiles this lass.gemm with mma.sync, not wgmma: ")
    assert reason in note and note in capsys.readouterr().err
    assert 'mma = "mma.sync"' in str(module)  # written: a dump restarts the same way, without the note


def test_choose_is_pure_on_the_op():
    module = parse_mlir(gemm(), "t.mlir")
    (g,) = [o for o in module.walk() if isinstance(o, GemmOp)]
    before = str(module)
    c = choose(g, "sm_90a")
    assert c.mma == "wgmma" and c.config.threadblock == (128, 256, 64) and c.note is None and str(module) == before


# ---- sizes (run / bench / tune) -----------------------------------------------------------------
def test_size_fallback_notes_the_option(capsys):
    module = parse_mlir(gemm(), "t.mlir")
    notes = size_fallback(module, "sm_90a", [(64, 64, 1001)], "t.mlir")
    assert notes == ["lasscc: note: option --k: sm_90a compiles this GEMM with mma.sync, not wgmma: K = 1001 makes "
                     "the rows of A and B (contiguous along K) 1001 x 2 = 2002 bytes apart, and TMA needs a global row "
                     "stride that is a multiple of 16 bytes"]
    assert not _config(module).is_wgmma
    # N along B's rows for a row-major B; --sizes names itself
    module = parse_mlir(gemm(lb="row"), "t.mlir")
    (note,) = size_fallback(module, "sm_90a", [(64, 100, 64)], "t.mlir", "sizes")
    assert note.startswith("lasscc: note: option --sizes: ") and "N = 100 makes the rows of B" in note
    assert size_fallback(parse_mlir(gemm(), "t.mlir"), "sm_90a", [(64, 64, 1008)], "t.mlir") == []
    assert size_fallback(parse_mlir(gemm(), "t.mlir"), "sm_80", [(64, 64, 1001)], "t.mlir") == []
    capsys.readouterr()


def test_cli_run_takes_mma_sync_with_a_note(tmp_path, capsys):
    src = tmp_path / "g.mlir"
    src.write_text(gemm())
    assert main(["run", str(src), "--arch", "sm_90a", "--target", "cpu", "--m", "40", "--n", "24", "--k", "33",
                 "--check"]) == 0
    cap = capsys.readouterr()
    assert "lasscc: note: option --k: sm_90a compiles this GEMM with mma.sync, not wgmma: K = 33" in cap.err
    assert "PASS" in cap.out and "after lasscc-swizzle-smem" in cap.out


def test_cli_explicit_wgmma_that_cannot_serve_is_a_located_error(tmp_path, capsys):
    src = tmp_path / "g.mlir"
    src.write_text(gemm('mma = "wgmma", threadblock = [256, 128, 64]'))
    assert main(["compile", str(src), "--arch", "sm_90a", "-o", str(tmp_path / "o.ptx")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{src}:2:3: error: config: threadblock M = 256") and "Traceback" not in err
    assert not (tmp_path / "o.ptx").exists()
    src.write_text(gemm('mma = "wgmma"', ab="f32", la="col"))
    assert main(["compile", str(src), "--arch", "sm_90a"]) == 2
    assert "tf32 operands must be K-major" in capsys.readouterr().err


def test_cli_compile_sm90a_default_is_the_hopper_path(tmp_path, capsys):
    src = tmp_path / "g.mlir"
    src.write_text(gemm())
    out = tmp_path / "o.ptx"
    assert main(["compile", str(src), "--arch", "sm_90a", "-o", str(out), "--dump-dir", str(tmp_path / "d")]) == 0
    ptx = out.read_text()
    assert ptx.count("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16") == 4  # BK 64 / k16
    assert "cp.async.bulk.tensor.2d" in ptx
    assert 'mma = "wgmma"' in (tmp_path / "d" / "00-input.mlir").read_text()  # the dump states the choice
    assert capsys.readouterr().err == ""


# ---- the target of run / bench / tune and the API on a Hopper GPU ---------------------------------
def _hopper(monkeypatch):
    from lasscc.runtime import cuda

    monkeypatch.setattr(cuda, "driver_status", lambda: None)
    monkeypatch.setattr(cuda, "device_arch", lambda: "sm_90a")


def test_default_arch_follows_the_gpu(monkeypatch):
    from lasscc.cli import _default_arch, build_parser
    from lasscc.family import default_arch
    from lasscc.runtime import cuda

    monkeypatch.setattr(cuda, "driver_status", lambda: "no GPU")
    assert default_arch() == "sm_80"
    _hopper(monkeypatch)
    assert default_arch() == "sm_90a"
    for cmd in ("run", "bench", "tune"):
        assert _default_arch(build_parser().parse_args([cmd, "x.mlir"])) == "sm_90a"
    assert _default_arch(build_parser().parse_args(["compile", "x.mlir"])) == "sm_80"


def test_api_on_a_hopper_gpu_compiles_wgmma(monkeypatch):
    """lasscc.gemm / lasscc.compile without arch: the GPU's (mocked) sm_90a, so the Hopper path."""
    import lasscc

    _hopper(monkeypatch)
    k = lasscc.gemm("bf16", cache=False)
    assert k.arch == "sm_90a" and "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16" in k.ptx
    assert k.spec.params[-2:] == ("tmap_A", "tmap_B") and k.spec.threads == 256
    # the tiling gemm() leaves open on sm_90a, and the mma.sync one a warp tile writes (family: mma.sync)
    from lasscc.api import gemm_mlir

    assert "config = {}" in gemm_mlir(threadblock=None, warp=None, stages=None, raster=None)
    module = parse_mlir(gemm_mlir("bf16", threadblock=(128, 128, 32), warp=(64, 64, 32)), "t.mlir")
    assert select(module, "sm_90a") == [] and not _config(module).is_wgmma


def test_a_given_stage_count_takes_the_largest_tile_that_fits():
    """stages = 6 of 128 x 256 x 64 f16 needs 288 KB: the next largest tile, 128 x 256 x 32 (64-byte rows)."""
    module, notes = _select(gemm("stages = 6"))
    cfg = _config(module)
    assert notes == [] and (cfg.threadblock, cfg.stages) == ((128, 256, 32), 6)
