"""Unit tests for `lasscc/config.py`: GemmConfig.validate messages, parse_shape, KernelSpec."""

from __future__ import annotations

import re

import pytest

from lasscc.config import SUPPORTED_ARCHS, SWIZZLE_ROW_BYTES, GemmConfig, KernelSpec, parse_shape
from lasscc.diagnostics import LassError
from lasscc.layout import kmajor_tile_offset, wavefronts
from lasscc.resources import MAX_THREADS_PER_BLOCK, SMEM_PER_BLOCK_LIMIT


def cfg(tb=(128, 128, 32), warp=(64, 64, 32), **kw) -> GemmConfig:
    return GemmConfig(threadblock=tuple(tb), warp=tuple(warp), **kw)


def error_of(config: GemmConfig, arch: str = "sm_80", where: str = "config") -> str:
    with pytest.raises(LassError) as info:
        config.validate(arch, where=where)
    return str(info.value)


# ---- hardware numbers -------------------------------------------------------------------------


def test_hardware_limits():
    # CUDA C programming guide: max shared memory per block (opt-in) 163 KB on 8.0, 227 KB on 9.0
    assert SMEM_PER_BLOCK_LIMIT["sm_80"] == 166912
    assert SMEM_PER_BLOCK_LIMIT["sm_90a"] == 232448
    assert MAX_THREADS_PER_BLOCK == 1024
    assert set(SUPPORTED_ARCHS) == set(SMEM_PER_BLOCK_LIMIT)


# ---- derived quantities -----------------------------------------------------------------------


def test_defaults_and_derived_sizes():
    c = GemmConfig()
    assert c.threadblock == (128, 128, 32) and c.warp == (64, 64, 32) and c.instruction == (16, 8, 16)
    assert (c.warps_m, c.warps_n, c.threads) == (2, 2, 128)
    assert c.smem_stage_bytes() == (128 + 128) * 32 * 2
    assert c.smem_bytes() == 3 * 16384
    assert c.smem_bytes(elem_bytes=4) == 2 * c.smem_bytes()
    assert c.as_dict() == {
        "threadblock": [128, 128, 32],
        "warp": [64, 64, 32],
        "instruction": [16, 8, 16],
        "stages": 3,
        "raster": 8,
        "prefetch": 0,
    }


def test_config_is_frozen():
    with pytest.raises(Exception):
        GemmConfig().stages = 4  # type: ignore[misc]


# ---- valid configurations ---------------------------------------------------------------------


@pytest.mark.parametrize("arch", SUPPORTED_ARCHS)
@pytest.mark.parametrize(
    "config",
    [
        GemmConfig(),
        cfg((128, 256, 32), (64, 64, 32), stages=4),
        cfg((64, 64, 32), (32, 32, 32), stages=2),
        cfg((128, 128, 64), (64, 64, 64), stages=3),
        cfg((256, 128, 32), (64, 64, 32), stages=3),
        cfg((64, 64, 16), (64, 64, 16), stages=2),
        cfg((16, 16, 16), (16, 16, 16), stages=2, raster=1),
    ],
    ids=lambda c: "x".join(map(str, c.threadblock)) + "_w" + "x".join(map(str, c.warp)) + f"_s{c.stages}",
)
def test_valid_configs_pass(config, arch):
    config.validate(arch)


def test_sm90a_allows_more_stages_than_sm80():
    c = cfg((128, 256, 64), (64, 64, 64), stages=4)  # 4 x 48 KB = 192 KB
    c.validate("sm_90a")
    msg = error_of(c, "sm_80")
    assert "192 KB of shared memory" in msg and "sm_80 allows 163 KB" in msg and "stages <= 3 fit" in msg


# ---- shared memory ----------------------------------------------------------------------------


def test_too_many_stages_sm90a_message():
    msg = error_of(cfg((128, 256, 64), (64, 64, 64), stages=6), "sm_90a")
    assert msg.startswith("config: ")
    assert "stages=6" in msg
    assert "288 KB of shared memory" in msg
    assert "sm_90a allows 227 KB" in msg
    assert "stages <= 4 fit" in msg


def test_smem_limit_boundary():
    # 128x128x64: 32 KB per stage; sm_80 holds 163 KB -> 5 stages fit, 6 do not
    cfg((128, 128, 64), (64, 64, 64), stages=5).validate("sm_80")
    msg = error_of(cfg((128, 128, 64), (64, 64, 64), stages=6), "sm_80")
    assert "192 KB of shared memory" in msg and "stages <= 5 fit" in msg


def test_smem_two_stages_do_not_fit_says_use_smaller_tile():
    # 512x256x64: 96 KB per stage, 2 stages = 192 KB > 163 KB (sm_80): no stage count helps
    c = cfg((512, 256, 64), (64, 64, 64), stages=2)
    msg = error_of(c, "sm_80")
    assert msg == (
        "config: two stages of a 512x256x64 threadblock need 192 KB of shared memory; "
        "sm_80 allows 163 KB: use a smaller threadblock tile"
    )
    # the same message whatever stage count was asked for
    assert error_of(cfg((512, 256, 64), (64, 64, 64), stages=4), "sm_80") == msg
    # sm_90a (227 KB) holds two of them, not three
    c.validate("sm_90a")
    msg = error_of(cfg((512, 256, 64), (64, 64, 64), stages=3), "sm_90a")
    assert "stages=3 needs 288 KB" in msg and "stages <= 2 fit" in msg


@pytest.mark.parametrize("arch", SUPPORTED_ARCHS)
def test_smem_hint_never_suggests_invalid_stage_count(arch):
    """Over a sweep of tile shapes and stage counts, every shared-memory rejection either names a
    stage count validate accepts (>= 2) or says to shrink the tile."""
    seen_hint = seen_smaller = 0
    for bm in (64, 128, 256, 512):
        for bn in (64, 128, 256, 512):
            for bk in (16, 32, 64):
                for stages in range(2, 9):
                    c = cfg((bm, bn, bk), (64, 64, bk), stages=stages)
                    try:
                        c.validate(arch)
                    except LassError as e:
                        msg = str(e)
                    else:
                        continue
                    if "KB of shared memory" not in msg:
                        continue
                    m = re.search(r"stages <= (-?\d+) fit", msg)
                    if m:
                        seen_hint += 1
                        assert int(m.group(1)) >= 2, msg
                        # and the hinted count really fits
                        cfg((bm, bn, bk), (64, 64, bk), stages=int(m.group(1))).validate(arch)
                    else:
                        seen_smaller += 1
                        assert msg.endswith("use a smaller threadblock tile"), msg
    assert seen_hint > 0
    if arch == "sm_80":
        assert seen_smaller > 0


# ---- tile shapes ------------------------------------------------------------------------------


def test_warp_tile_not_dividing_m():
    msg = error_of(cfg((128, 128, 32), (48, 64, 32)))
    assert msg == "config: expected warp tile 48x64 to divide threadblock tile 128x128"


def test_warp_tile_not_dividing_n():
    msg = error_of(cfg((128, 128, 32), (64, 48, 32)))
    assert "warp tile 64x48" in msg and "divide threadblock tile 128x128" in msg


def test_where_prefixes_message():
    msg = error_of(cfg((128, 128, 32), (48, 64, 32)), where="gemm.mlir:3:5")
    assert msg.startswith("gemm.mlir:3:5: expected warp tile")
    msg = error_of(cfg((128, 128, 32), (48, 64, 32)), where="--warp")
    assert msg.startswith("--warp: ")


def test_warp_k_must_equal_threadblock_k():
    msg = error_of(cfg((128, 128, 32), (64, 64, 16)))
    assert "warp K (16)" in msg and "threadblock K (32)" in msg


def test_warp_m_multiple_of_instruction_m():
    msg = error_of(cfg((64, 64, 32), (8, 32, 32)))
    assert "warp M (8)" in msg and "instruction M (16)" in msg


def test_warp_n_multiple_of_16_for_ldmatrix_x4():
    msg = error_of(cfg((64, 64, 32), (32, 8, 32)))
    assert "warp N (8)" in msg and "multiple of 16" in msg and "ldmatrix.x4" in msg


def test_threadblock_k_multiple_of_instruction_k():
    msg = error_of(cfg((64, 64, 24), (64, 64, 24)))
    assert "threadblock K (24)" in msg and "instruction K (16)" in msg


@pytest.mark.parametrize("bk", [80, 128, 256])
def test_threadblock_k_row_bytes(bk):
    # 80 f16 = 160-byte rows, 128 f16 = 256-byte rows, 256 f16 = 512-byte rows: only 32/64/128-byte
    # rows are conflict-free under the Swizzle<3,4,3> XOR swizzle
    msg = error_of(cfg((128, 128, bk), (64, 64, bk), stages=2))
    assert msg == (
        "config: expected threadblock K of 16, 32 or 64 f16 (rows of 32/64/128 bytes, "
        f"which the XOR swizzle keeps conflict-free), got {bk}"
    )


def test_threadblock_k_128_rejected_naming_swizzle():
    # used to be accepted, though 256-byte rows give 2-way ldmatrix conflicts under the swizzle
    msg = error_of(cfg((128, 128, 128), (64, 64, 128), stages=2), "sm_90a")
    assert "swizzle" in msg and "got 128" in msg and "16, 32 or 64" in msg


def _ldmatrix_phases_conflict_free(rows: int, row_elems: int) -> bool:
    for row0 in range(0, rows, 8):
        for kchunk in range(row_elems // 8):
            addrs = [kmajor_tile_offset(row0 + i, 8 * kchunk, row_elems, 2) for i in range(8)]
            if wavefronts(addrs, 16) != 1:
                return False
    return True


def test_every_accepted_bk_is_conflict_free_under_the_swizzle():
    """Ties config to layout: any BK GemmConfig accepts gives K-major SMEM rows on which
    layout.kmajor_tile_offset makes each 8-row ldmatrix phase one wavefront."""
    accepted = set()
    for bk in range(1, 513):
        for tb, warp in (((128, 128), (64, 64)), ((64, 64), (32, 32)), ((256, 128), (64, 64))):
            try:
                cfg(tb + (bk,), warp + (bk,), stages=2).validate("sm_90a")
            except LassError:
                continue
            accepted.add(bk)
    assert accepted == {16, 32, 64}
    for bk in sorted(accepted):
        assert bk * 2 in SWIZZLE_ROW_BYTES
        assert _ldmatrix_phases_conflict_free(256, bk), bk
    # and the first width past the accepted ones is indeed not conflict-free
    assert not _ldmatrix_phases_conflict_free(256, 2 * max(accepted))


def test_instruction_shape():
    msg = error_of(GemmConfig(instruction=(16, 8, 8)))
    assert "[16, 8, 16]" in msg and "[16, 8, 8]" in msg


@pytest.mark.parametrize("field,value", [("threadblock", (0, 128, 32)), ("warp", (64, -64, 32))])
def test_nonpositive_sizes(field, value):
    msg = error_of(GemmConfig(**{field: value}))
    assert f"expected positive {field} sizes" in msg


def test_too_many_threads():
    msg = error_of(cfg((256, 256, 32), (32, 32, 32)))
    assert "2048 threads" in msg and "at most 1024" in msg


def test_too_few_chunks_for_threads():
    msg = error_of(cfg((16, 256, 32), (16, 32, 32)))
    assert "a 16x32 f16 tile has 64 16-byte chunks" in msg and "256 threads" in msg


def test_register_budget():
    msg = error_of(cfg((128, 128, 32), (128, 128, 32)))
    assert "warp tile 128x128" in msg and "255-register limit" in msg


@pytest.mark.parametrize("stages", [1, 0, -3])
def test_stages_at_least_two(stages):
    assert f"expected stages >= 2, got {stages}" in error_of(GemmConfig(stages=stages))


def test_raster_between_one_and_i32():
    assert "expected 1 <= raster < 2^31 (an i32 in the kernel), got 0" in error_of(GemmConfig(raster=0))
    assert "got 4294967296" in error_of(GemmConfig(raster=2**32))  # the kernel's i32 would wrap it


@pytest.mark.parametrize("arch", ["sm_70", "sm_90", "", "SM_80"])
def test_unknown_arch_is_a_lass_error(arch):
    msg = error_of(GemmConfig(), arch, where="--arch")
    assert msg == f"--arch: expected arch one of sm_80, sm_90a, got '{arch}'"


# ---- parse_shape ------------------------------------------------------------------------------


def test_parse_shape_ok():
    assert parse_shape("128x128x32", 3, "--threadblock") == (128, 128, 32)
    assert parse_shape("64X32", 2, "--tile") == (64, 32)
    assert parse_shape("16x8x16", 3, "--instruction") == (16, 8, 16)


@pytest.mark.parametrize("text", ["128x128", "128x128x32x1", "0x128x32", "-1x2x3", "abc", "", "128xx32", "1x2x3x",
                                  "128 x128x32", "1.5x2x3"])
def test_parse_shape_errors_name_option(text):
    with pytest.raises(LassError) as info:
        parse_shape(text, 3, "--threadblock")
    msg = str(info.value)
    assert msg.startswith("option --threadblock: ")
    assert "3 positive integers" in msg and "128x128x32" in msg
    assert f"got '{text}'" in msg


def test_parse_shape_example_matches_arity():
    with pytest.raises(LassError, match=r"option --warp: expected 2 positive integers .*e\.g\. 128x32"):
        parse_shape("64", 2, "--warp")


@pytest.mark.parametrize("text", ["\u00b2x1x1", "1x\u00b9x1", "1x1x\u2460"])
def test_parse_shape_unicode_digit_is_lass_error(text):
    # '²', '¹', '①' pass str.isdigit() but int() rejects them: still a LassError naming the option
    with pytest.raises(LassError, match="option --threadblock: .*3 positive integers"):
        parse_shape(text, 3, "--threadblock")


# ---- KernelSpec -------------------------------------------------------------------------------


def test_kernel_spec_grid_and_defaults():
    spec = KernelSpec(name="gemm", threads=128, smem_bytes=49152, tile_m=128, tile_n=128, raster=8)
    assert spec.grid(1000, 1000) == (64, 1, 1)
    assert spec.grid(128, 128) == (1, 1, 1)
    assert spec.grid(129, 1) == (2, 1, 1)
    assert spec.params == ("A", "B", "D", "M", "N", "K", "alpha", "beta")
    assert (spec.a_layout, spec.b_layout, spec.d_layout) == ("row", "col", "row")
    assert (spec.a_dtype, spec.b_dtype, spec.d_dtype) == ("f16", "f16", "f32")


def test_two_stages_with_narrow_copies_that_would_spill_are_rejected():
    """stages = 2 keeps the next k-tile's accesses in registers: 64 one-element f16 accesses per
    thread beside a 64x64 warp tile's 128 accumulators + 64 fragment registers spilled (ptxas 13.0);
    the same tile at align 2 (32 accesses), 48 accesses on 256 threads, a 32x32 warp tile, or
    3 stages (cp.async, no registers held) pass."""
    msg = error_of(cfg(stages=2, align=(1, 1)), "sm_90a")
    assert msg == ("config: the warp tile 64x64 (2 stages, align [1, 1]) needs ~256 registers per thread (128 "
                   "accumulators + 2 x 32 fragments + 64 for the next k-tile's 64 copy accesses (stages = 2)); "
                   "expected at most 248 (the 255-register limit less 7 for indices and pointers): ptxas would "
                   "spill; use stages >= 3 (cp.async: no registers hold the copies), wider accesses or a smaller "
                   "warp tile")
    for ok in (cfg(stages=2, align=(2, 2)), cfg((128, 256, 32), stages=2, align=(1, 1)),
               cfg((64, 64, 32), (32, 32, 32), stages=2, align=(1, 1)), cfg(stages=3, align=(1, 1)),
               cfg((128, 128, 64), (64, 64, 64), stages=2)):
        ok.validate("sm_90a")
    assert "64 copy accesses" in error_of(cfg((128, 128, 64), (64, 64, 64), stages=2, align=(2, 2)), "sm_90a")
