"""`lasscc explain` of wgmma kernels (lasscc/explain/hopper.py): the counts against plain arithmetic,
the descriptors against the ones lasscc-hopper-smem builds, the sections per --stage, the golden
text of examples/gemm_wgmma.mlir, and the default family on sm_90a."""

from __future__ import annotations

from pathlib import Path

import pytest

from lasscc import explain as ex
from lasscc.config import GemmConfig
from lasscc.explain.hopper import descriptors, hopper_numbers
from lasscc.layout import K_MAJOR, MN_MAJOR
from lasscc.resources import wgmma_defaults
from lasscc.sm90_layout import MatrixDescriptor, SwizzleMode
from lasscc.source import parse_mlir

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "gemm_wgmma.mlir"


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("LASSCC_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "explain-wgmma-cache"))


def _cfg(tb, stages, k):
    return GemmConfig(threadblock=tb, stages=stages, mma="wgmma", **wgmma_defaults(tb, k))


@pytest.mark.parametrize("ab,acc,tb,stages", [("f16", "f32", (128, 256, 64), 4), ("bf16", "f32", (64, 128, 32), 3),
                                              ("f32", "f32", (128, 128, 16), 5), ("i8", "i32", (128, 256, 128), 4),
                                              ("f16", "f16", (128, 192, 64), 2)])
def test_numbers(ab, acc, tb, stages):
    eb, k = {"f16": (2, 16), "bf16": (2, 16), "f32": (4, 8), "i8": (1, 32)}[ab]
    n = hopper_numbers(_cfg(tb, stages, k), "sm_90a", ab, acc)
    bm, bn, bk = tb
    # plain arithmetic: one warpgroup (128 threads) per 64 rows; wgmma K = 32 bytes
    assert (n.warpgroups, n.threads, n.wgmma_k, n.wgmma_per_ktile) == (bm // 64, bm // 64 * 128, k, bk // k)
    a, b = n.ops
    assert (a.tile_bytes, b.tile_bytes, b.ring_offset) == (bm * bk * eb, bn * bk * eb, stages * bm * bk * eb)
    assert n.tx_bytes == n.stage_bytes == (bm + bn) * bk * eb
    assert n.barrier_offset == stages * (bm + bn) * bk * eb and n.smem_total == n.barrier_offset + 16 * stages
    assert n.empty_arrivals == n.threads // 32  # one per consumer warp
    # 64 x BN accumulators over 128 threads; f16 ones two per register
    assert n.acc_regs == 64 * bn // 128 // (2 if acc == "f16" else 1)
    assert {o.swizzle for o in n.ops} == {SwizzleMode.B128 if bk * eb == 128 else SwizzleMode.B64}


def test_descriptors_decode_field_by_field():
    n = hopper_numbers(_cfg((128, 256, 64), 4, 16), "sm_90a", "f16", "f32")
    a, b = n.ops
    (k0, d, value), *steps = descriptors(n, a)
    assert MatrixDescriptor.decode(value) == d and d.encode() == value
    # K-major 128B: LBO unused (16), SBO = 8 lines of 128 B, swizzle mode 1, base offset 0
    assert (d.start_address, d.leading_byte_offset, d.stride_byte_offset, d.base_offset, d.swizzle) == \
        (0, 16, 1024, 0, SwizzleMode.B128)
    assert [s[1].start_address for s in steps] == [32, 64, 96]  # +32 B per k16 inside the 128-byte line
    assert descriptors(n, a, warpgroup=1)[0][1].start_address == 64 * 128  # rows 64.. : 64 lines of 128 B
    assert descriptors(n, b)[0][1].start_address == 4 * 128 * 64 * 2  # B's ring after A's 4 slots
    assert descriptors(n, a, slot=2)[0][1].start_address == 2 * 128 * 64 * 2
    # MN-major (transpose bits): LBO = one box of BK lines, SBO = 8 lines
    m = hopper_numbers(_cfg((128, 128, 64), 3, 16), "sm_90a", "f16", "f32", (MN_MAJOR, MN_MAJOR))
    d = descriptors(m, m.ops[0])[0][1]
    assert (d.leading_byte_offset, d.stride_byte_offset, m.ops[0].trans) == (64 * 128, 1024, 1)


def test_descriptors_are_the_kernels():
    """The high word of each descriptor explain prints (SBO, base offset, swizzle) is a constant of the
    wgmma operands lasscc-hopper-smem builds (the low word holds the run-time shared address)."""
    from xdsl.dialects import arith

    from lasscc.driver import PASS_NAMES, run_passes

    mn = EXAMPLE.read_text().replace("memref<?x?xf16, strided<[1, ?]>>", "B_T").replace(
        "memref<?x?xf16>", "memref<?x?xf16, strided<[1, ?]>>").replace("B_T", "memref<?x?xf16>")  # NT: both MN-major
    for text in (EXAMPLE.read_text(), mn):
        module = parse_mlir(text, "w.mlir")
        info = ex.gemm_config(module, "sm_90a")
        facts = ex.gemm_facts(module, info)
        n = hopper_numbers(ex.kernel_config(info, facts), "sm_90a", facts.ab, facts.acc, facts.majors)
        run_passes(module, PASS_NAMES[:PASS_NAMES.index("lasscc-hopper-smem") + 1], "sm_90a", "w.mlir")
        consts = {int(o.value.value.data) for o in module.walk() if isinstance(o, arith.ConstantOp)
                  and str(o.result.type) == "i64"}
        for op in n.ops:
            hi = descriptors(n, op)[0][2] >> 32 << 32
            assert hi in consts or hi - (1 << 64) in consts, (facts.majors, op.name, hex(hi))


def test_stage_sections():
    module = parse_mlir(EXAMPLE.read_text(), str(EXAMPLE))
    text = ex.explain(module, "sm_90a", "w.mlir", stage="pipeline", resources=False)
    assert "Shared memory and TMA" in text and "mbarriers (2 per stage" in text
    assert "Tile hierarchy" not in text and "descriptors" not in text
    text = ex.explain(parse_mlir(EXAMPLE.read_text(), "w"), "sm_90a", "w.mlir", stage="hopper-smem", resources=False)
    assert "wgmma matrix descriptors" in text and "Swizzle modes and banks" in text


GOLDEN = """\
Tile hierarchy (mma = "wgmma": TMA, mbarriers and warpgroup MMA; lasscc-warpgroup-mma)
  level        shape (M x N x K)  what
  -----------  -----------------  -----------------------------------------------------------------------------------
  threadblock  128 x 128 x 64     one CTA of 256 threads per 128 x 128 tile of D; K loop in k-tiles of 64
  warpgroup    64 x 128 x 64      2 consumer warpgroups of 128 threads (4 warps); warpgroup g owns rows 64g .. 64g+63
  instruction  64 x 128 x 16      wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
  D            f32 row-major      alpha * acc (+ beta * C when beta != 0), f32 accumulation
  operands: both from shared memory by descriptor (SS): A K-major (imm-trans-a 0), B K-major (imm-trans-b 0)
  per k-tile: 64 / 16 = 4 wgmma per warpgroup, 8 per CTA, one wgmma.commit_group; wgmma.wait_group 1 keeps 1 group in flight
  per kernel tile (K = 4096: 64 k-tiles): 256 wgmma per warpgroup, 512 per CTA (--k sets K)
"""
GOLDEN_DESC = """\
  A (warpgroup 0's 64 rows, K-major, k = 0): 0x4000004000010000, decoded:
  field                bits   value
  -------------------  -----  -----------------
  start address        0-13   0x0 (field 0x0)
  leading byte offset  16-29  16 B (field 1)
  stride byte offset   32-45  1024 B (field 64)
  base offset          49-51  0
  swizzle mode         62-63  1 (128B)
"""


def test_golden_example_text():
    text = ex.explain(parse_mlir(EXAMPLE.read_text(), str(EXAMPLE)), "sm_90a", "w.mlir", resources=False)
    assert text.startswith("lasscc explain w.mlir  (sm_90a; A f16 row-major, B f16 column-major, D f32 row-major; "
                           "mma wgmma, threadblock 128x128x64, 4 stages, raster 8)\n\n" + GOLDEN)
    assert GOLDEN_DESC in text
    for line in ("  full[s]   1         32768 B", "  empty[s]  8         -",
                 "    A: box 64 K x 128 M (128 B lines), swizzle 128B; 1 box per tile at slot offsets 0",
                 "  total         4 stages            131136 B  128.062 KB",
                 "    a core matrix (8 lines x 16 B of one chunk column) touches 32 distinct banks of 32: conflict-free",
                 "  accumulators: 64 per thread (64 x 128 f32 over 128 threads); + ~40 others (descriptors, addresses, "
                 "loop state) = 104, within the 255 per thread"):
        assert line in text, line


def test_64b_swizzle_banks():
    text = ex.explain(parse_mlir(EXAMPLE.read_text().replace("[128, 128, 64]", "[128, 128, 32]"), "w"), "sm_90a",
                      "w.mlir", stage="hopper-smem", resources=False)
    assert "64B swizzle: line -> bank group" in text and "(field 32)" in text  # SBO = 8 x 64 B = 512 B
    assert "touches 32 distinct banks of 32: conflict-free" in text


def test_cli_default_family_and_resources(tmp_path, capsys):
    """No config on sm_90a: explain describes the wgmma kernel the compile builds (ptxas's line in the
    resources section, when ptxas is on PATH); sm_80 explains the mma.sync one."""
    import shutil

    from lasscc.cli import main

    src = tmp_path / "g.mlir"
    src.write_text(EXAMPLE.read_text().replace(',\n             config = {mma = "wgmma", threadblock = [128, 128, 64], '
                                               'stages = 4}', ""))
    assert "config" not in src.read_text()
    assert main(["explain", str(src), "--arch", "sm_90a"]) == 0
    out = capsys.readouterr().out
    assert "mma wgmma, threadblock 128x256x64, 4 stages" in out
    if shutil.which("ptxas"):
        assert "ptxas -v: " in out and " 0 B spill stores" in out
    assert main(["explain", str(src), "--arch", "sm_80", "--stage", "warp-mma"]) == 0
    out = capsys.readouterr().out
    assert "threadblock 128x128x32, warp 64x64x32" in out and "mma.sync (serpentine order)" in out


def test_png(tmp_path):
    pytest.importorskip("matplotlib")
    module = parse_mlir(EXAMPLE.read_text(), "w")
    info = ex.gemm_config(module, "sm_90a")
    facts = ex.gemm_facts(module, info)
    files = ex.write_pngs(ex.kernel_config(info, facts), tmp_path, "sm_90a", None, ex.DEFAULT_GRID, facts.ab,
                          facts.acc, facts.majors)
    assert sorted(f.name for f in files) == ["raster.png", "smem_banks.png"]
    assert all(f.read_bytes()[:4] == b"\x89PNG" for f in files)


def test_dump_explains_like_its_input():
    """A dump of the wgmma kernel (its #lass.kernel facts) gives the input's explanation."""
    from lasscc.driver import PASS_NAMES, run_passes

    want = ex.explain(parse_mlir(EXAMPLE.read_text(), "w"), "sm_90a", "w.mlir", resources=False)
    module = parse_mlir(EXAMPLE.read_text(), "w")
    run_passes(module, PASS_NAMES[:PASS_NAMES.index("lasscc-hopper-smem") + 1], "sm_90a", "w.mlir")
    got = ex.explain(parse_mlir(str(module), "d"), "sm_90a", "w.mlir", resources=False)
    assert got == want


def test_cli_sizes_show_the_config_choice(tmp_path, capsys, monkeypatch):
    """--m / --n (with --k): an input without config takes the config `lasscc run` would for those
    sizes, and explain prints why: the cost model's tile, then the data-parallel kernel's rule
    (lasscc.heuristics.data_parallel_kernel) taken or not."""
    from lasscc.cli import main

    monkeypatch.setenv("LASSCC_CACHE_DIR", str(tmp_path))  # no tuned.json
    src = ROOT / "examples" / "gemm_tuned.mlir"
    assert main(["explain", str(src), "--arch", "sm_90a", "--m", "4096", "--n", "4096", "--k", "4096",
                 "--stage", "threadblock"]) == 0
    out = capsys.readouterr().out
    assert "Config choice (as lasscc run / bench take it for these sizes):" in out
    assert "  - wgmma cost model: 128x256x64, 4 stages, 512 CTAs on 132 SMs" in out
    assert '  - schedule = "cooperative", persistent = 1, epilogue = "tma": data-parallel, 512 tiles walked by 132 CTAs' in out
    assert "one CTA of 384 threads per 128 x 256 tile" in out  # the producer warpgroup: the kernel explained is the choice
    assert main(["explain", str(src), "--arch", "sm_90a", "--m", "1024", "--n", "1024", "--k", "1024",
                 "--stage", "threadblock"]) == 0
    out = capsys.readouterr().out
    assert ("  - plain kernel (no schedule, not persistent, direct epilogue): schedule = \"cooperative\": "
            "threadblock M = 64") in out
    assert "one CTA of 128 threads" in out
    assert main(["explain", str(src), "--arch", "sm_90a", "--m", "4096"]) == 2
    assert "option --n: expected a positive size, with both --m and --n" in capsys.readouterr().err
