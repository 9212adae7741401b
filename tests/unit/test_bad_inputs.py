"""The bad-input corpus (issue 12): every case exits 2 with a message that names the place
(file:line:col, or the option), no traceback, no output file, and the folder of the named output
otherwise untouched.  Cases fail before any kernel is compiled (or in lasscc-tile-threadblock), and
run in-process through lasscc.cli.main.  Then: how `-o` writes (symlink, device, stdout, mode)."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from lasscc.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GEMM = (EXAMPLES / "gemm_small_tiles.mlir").read_text()
A_T, B_T, D_T = "memref<?x?xf16>", "memref<?x?xf16, strided<[1, ?]>>", "memref<?x?xf32>"
CONFIG = "stages = 3}"  # the end of GEMM's config dictionary
LINE_COL = r"\S+\.mlir:\d+:\d+: error: "


def _variant(**swap) -> str:
    """GEMM with each `old=new` pair of `swap` (keyword: a name for the pair) replaced."""
    text = GEMM
    for old, new in swap.values():
        assert old in text, old
        text = text.replace(old, new)
    return text


def _static(a: str, b: str, d: str) -> str:
    return _variant(a=(A_T, a), b=(B_T, b), d=(D_T, d))


# (id, argv (IN: the input file, OUT: the named output, DIR: the output folder), input text or
#  bytes (None: examples' file as is), regex the first stderr line must match)
RUN = ["run", "IN", "--target", "cpu", "--m", "64", "--n", "64", "--k", "32"]
COMPILE = ["compile", "IN", "-o", "OUT"]
CASES = [
    # output paths (item 4/5)
    ("o-proc-new", ["compile", "IN", "-o", "/proc/x.ptx"], None, r"option -o: cannot write /proc/x\.ptx: "),
    ("o-proc-existing", ["compile", "IN", "-o", "/proc/version"], None, r"option -o: cannot write /proc/version: "),
    ("o-is-dir", ["compile", "IN", "-o", "DIR"], None, r"option -o: cannot write .*: is a directory"),
    ("o-missing-folder", ["compile", "IN", "-o", "DIR/no/such/out.ptx"], None, r"option -o: .*does not exist"),
    ("dump-dir-is-file", COMPILE + ["--dump-dir", "IN"], None, r"option --dump-dir: .*not a directory"),
    ("dump-dir-proc", COMPILE + ["--dump-dir", "/proc/d"], None, r"option --dump-dir: cannot write /proc/d: "),
    ("opt-o-proc", ["opt", "-p", "lasscc-import-linalg", "IN", "-o", "/proc/x.mlir"], None, r"option -o: "),
    # the input file
    ("no-such-file", ["compile", "DIR/missing.mlir", "-o", "OUT"], None, r"\S+missing\.mlir: error: no such file"),
    ("input-is-dir", ["compile", "DIR", "-o", "OUT"], None, r"\S+: error: is a directory"),
    ("ptx-input", ["compile", "IN.ptx", "-o", "OUT"], "//\n.version 8.0\n", r"\S+\.ptx:1:1: error: expected MLIR"),
    ("binary", COMPILE, b"\x00\xff\xfe binary", r"\S+\.mlir:1:2: error: expected UTF-8"),
    ("latin1-comment", COMPILE, GEMM.encode().replace(b"Small", b"Sm\xe4ll", 1), r"\S+\.mlir:1:\d+: error: expected UTF-8"),
    ("syntax", COMPILE, "func.func @f( {", LINE_COL),
    ("nested-brackets", COMPILE, _variant(c=(CONFIG, "stages = 3, x = " + "[" * 20000 + "]" * 20000 + "}")),
     LINE_COL + "expected brackets nested"),
    ("config-int-beyond-i64", COMPILE, _variant(c=("stages = 3", "stages = 99999999999999999999")), LINE_COL),
    ("tensor-operands", COMPILE, _variant(a=(A_T, "tensor<?x?xf16>")), LINE_COL + r"tensor<\?x\?xf16> should be"),
    ("zero-size", COMPILE, _static("memref<0x32xf16>", "memref<32x64xf16, strided<[1, 32]>>", "memref<0x64xf32>"),
     LINE_COL + "expected non-zero sizes"),
    ("shared-memory-operand", COMPILE, _variant(a=(A_T, "memref<?x?xf16, 3>")), LINE_COL + "expected A in global memory"),
    ("a-b-types-differ", COMPILE, _variant(b=(B_T, "memref<?x?xbf16, strided<[1, ?]>>")), LINE_COL),
    ("config-unknown-key", COMPILE, _variant(c=(CONFIG, "stages = 3, tile = 1}")), LINE_COL + "config key 'tile'"),
    ("stages-true", COMPILE, _variant(c=("stages = 3", "stages = true")), LINE_COL + ".*expected an integer, got true"),
    ("raster-beyond-i32", COMPILE, _variant(c=(CONFIG, "stages = 3, raster = 4294967296}")),
     LINE_COL + r"config: expected 1 <= raster < 2\^31"),
    ("warp-not-dividing", COMPILE, _variant(c=("warp = [32, 32, 32]", "warp = [48, 32, 32]")), LINE_COL),
    # options
    ("no-command", [], None, r"lasscc: error: expected a command"),
    ("unknown-command", ["frobnicate", "IN"], None, r"lasscc: error: unknown command 'frobnicate'"),
    ("arch-sm70", COMPILE + ["--arch", "sm_70"], None, r"option --arch: expected one of sm_80, sm_90a, got 'sm_70'"),
    ("emit-bad", COMPILE + ["--emit", "sass"], None, r"option --emit: expected one of"),
    ("unknown-option", COMPILE + ["--bogus"], None, r"lasscc: error: unknown option"),
    ("threadblock-beyond-i64", COMPILE + ["--threadblock", "99999999999999999999x128x32"], None,
     r"option --threadblock: expected 3 positive integers"),
    ("threadblock-100", COMPILE + ["--threadblock", "100x100x32"], None, r"option --threadblock: config: expected"),
    ("threadblock-text", COMPILE + ["--threadblock", "big"], None, r"option --threadblock: "),
    ("stages-beyond-i64", COMPILE + ["--stages", "99999999999999999999"], None, r"option --stages: "),
    ("stages-one", COMPILE + ["--stages", "1"], None, r"option --stages: config: expected stages >= 2"),
    ("prefetch-2", COMPILE + ["--prefetch", "2"], None, r"option --prefetch: expected one of 0, 1, got '2'"),
    ("align-3", COMPILE + ["--align", "3,3"], None, r"option --align: "),
    ("split-k-zero", COMPILE + ["--split-k", "0"], None, r"option --split-k: expected split_k an integer from 1"),
    ("split-k-text", COMPILE + ["--split-k", "many"], None, r"option --split-k: expected split_k an integer"),
    ("split-k-config-zero", COMPILE, _variant(c=(CONFIG, "stages = 3, split_k = 0}")),
     LINE_COL + "config: expected split_k an integer from 1 to 65535"),
    ("run-cta-order-bad", RUN + ["--cta-order", "sideways"], None, r"option --cta-order: expected a CTA order"),
    ("run-cta-order-on-gpu", ["run", "IN", "--target", "gpu", "--cta-order", "reverse"], None,
     r"option --cta-order: only with --target cpu"),
    ("opt-open-brace", ["opt", "-p", "lasscc-pipeline{", "IN", "-o", "OUT"], None, r"option -p: expected a closing"),
    ("opt-close-brace", ["opt", "-p", "lasscc-pipeline}", "IN", "-o", "OUT"], None, r"option -p: "),
    ("opt-unknown-pass", ["opt", "-p", "lasscc-frob", "IN", "-o", "OUT"], None, r"option -p: unknown pass"),
    ("opt-bad-pass-option", ["opt", "-p", "lasscc-swizzle-smem{swizle=false}", "IN", "-o", "OUT"], None,
     r"option -p: "),
    ("run-seed-negative", RUN + ["--seed", "-1"], None, r"option --seed: expected a non-negative integer"),
    ("run-stage-open-brace", RUN + ["--stage", "lasscc-swizzle-smem{"], None, r"option --stage: "),
    ("run-stage-unknown", RUN + ["--stage", "lasscc-lower-to-llvm"], None, r"option --stage: expected one of"),
    ("run-k-beyond-i32", ["run", "IN", "--target", "cpu", "--m", "64", "--n", "64", "--k", "2147483648"], None,
     r"option --k: expected 1 <= K < 2\^31"),
    ("run-m-1e10", ["run", "IN", "--target", "cpu", "--m", "10000000000", "--n", "64", "--k", "64"], None,
     r"option --m: expected 1 <= M < 2\^31"),
    ("run-mk-offsets", ["run", "IN", "--target", "cpu", "--m", "100000", "--n", "64", "--k", "64000"], None,
     r"option --m: expected M\*K < 2\^31"),
    ("run-cpu-memory", ["run", "IN", "--target", "cpu", "--m", "30000", "--n", "30000", "--k", "64"], None,
     r"option --m/--n/--k: expected a CPU run within 4 GiB"),
    ("run-m-zero", ["run", "IN", "--target", "cpu", "--m", "0"], None, r"option --m: expected a positive size"),
    ("run-m-text", ["run", "IN", "--m", "many"], None, r"option --m: expected an integer, got 'many'"),
    ("run-alpha-1e39", RUN + ["--alpha", "1e39"], None, r"option --alpha: expected a finite value"),
    ("run-beta-nan", RUN + ["--beta", "nan"], None, r"option --beta: expected a finite value"),
    ("run-batch-2", RUN + ["--batch", "2"], None, r"option --batch: expected 1"),
    ("run-k-odd-align", RUN[:-1] + ["33", "--align", "8,8"], None, r"option --k: "),
    ("run-static-shapes", ["run", "IN", "--target", "cpu", "--m", "64", "--n", "48", "--k", "16"],
     _static("memref<32x32xf16>", "memref<32x32xf16, strided<[1, 32]>>", "memref<32x32xf32>"),
     r"option --m: expected M = 32 \(A is memref<32x32xf16>\), got 64"),
    ("run-stage-on-gpu", ["run", "IN", "--target", "gpu", "--stage", "lasscc-pipeline"], None,
     r"option --stage/--report: only with --target cpu"),
    ("bench-sizes", ["bench", "IN", "--sizes", "64,x"], None, r"option --sizes: "),
    ("bench-sizes-beyond-i32", ["bench", "IN", "--sizes", "64x64x4294967296"], None, r"option --sizes: expected 1 <= K"),
    ("explain-grid", ["explain", "IN", "--grid", "0x3"], None, r"option --grid: "),
]


def _listing(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("argv, text, where", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input(tmp_path, capsys, argv, text, where):
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "keep.txt").write_text("not touched\n")
    name = next((a for a in argv if a.startswith("IN")), "IN").replace("IN", "in.mlir")
    src = tmp_path / name
    if isinstance(text, bytes):
        src.write_bytes(text)
    else:
        src.write_text(GEMM if text is None else text)
    subst = {"IN": str(src), "IN.ptx": str(src), "OUT": str(folder / "out.ptx"), "DIR": str(folder)}
    argv = [subst.get(a, a.replace("DIR", str(folder))) for a in argv]
    before = _listing(folder)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert re.match(where, err), err
    assert _listing(folder) == before  # no output file, nothing else written there


def test_failed_compile_keeps_the_old_output(tmp_path, capsys):
    """A compile that fails leaves an existing -o file as it was (no partial or empty file)."""
    out = tmp_path / "out.ptx"
    out.write_text("old\n")
    src = tmp_path / "bad.mlir"
    src.write_text(_variant(c=("warp = [32, 32, 32]", "warp = [48, 32, 32]")))
    assert main(["compile", str(src), "-o", str(out)]) == 2
    assert out.read_text() == "old\n" and sorted(os.listdir(tmp_path)) == ["bad.mlir", "out.ptx"]


# ---- how -o writes: one kernel (compile cache), written through every kind of path -----------------


@pytest.fixture(scope="module")
def src(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("src") / "gemm.mlir"
    path.write_text(GEMM)
    return path


def _compile(src: Path, out: str, *extra: str) -> int:
    return main(["compile", str(src), "-o", out, *extra])


def test_symlink_is_written_through(src, tmp_path):
    target = tmp_path / "real.ptx"
    target.write_text("old")
    os.chmod(target, 0o640)
    link = tmp_path / "link.ptx"
    link.symlink_to("real.ptx")
    assert _compile(src, str(link)) == 0
    assert link.is_symlink() and os.readlink(link) == "real.ptx"
    assert ".entry" in target.read_text()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # a replaced file keeps its mode
    assert sorted(os.listdir(tmp_path)) == ["link.ptx", "real.ptx"]


def test_dangling_symlink_creates_its_target(src, tmp_path):
    link = tmp_path / "link.ptx"
    link.symlink_to("made.ptx")
    assert _compile(src, str(link)) == 0
    assert link.is_symlink() and ".entry" in (tmp_path / "made.ptx").read_text()


def test_device_is_written_as_a_device(src, capsys):
    assert _compile(src, "/dev/null") == 0
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    if os.path.exists("/dev/full"):  # the device's own error, located at the option
        assert _compile(src, "/dev/full") == 2
        assert capsys.readouterr().err.startswith("option -o: cannot write /dev/full: ")
        assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_dash_is_stdout(src, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _compile(src, "-") == 0
    assert ".entry" in capsys.readouterr().out and os.listdir(tmp_path) == []


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_new_file_mode_follows_umask(src, tmp_path, umask):
    old = os.umask(umask)
    try:
        assert _compile(src, str(tmp_path / "k.ptx"), "--dump-dir", str(tmp_path / "dumps")) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "k.ptx").stat().st_mode) == 0o666 & ~umask
    dumps = list((tmp_path / "dumps").iterdir())
    assert dumps and all(stat.S_IMODE(p.stat().st_mode) == 0o666 & ~umask for p in dumps)
