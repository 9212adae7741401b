"""bf16 inputs (and bf16 D) in the CPU executor (issue "General GEMM").

numpy has no bf16: bf16 memory and values are uint16 bit patterns (lasscc.interp.bf16).  Checked:
  * the conversions against known patterns (1.0, 1/3, max, subnormals, NaN, infinities, ties to
    even) and against an independent nearest-value search, f64 -> bf16 without double rounding;
  * level 0 (lass.gemm) and level 1 / 2 (lass_tb / lass_pipe) bf16 GEMMs against the float64
    reference, f32 and bf16 D, beta 0 and != 0;
  * a one-warp level-4 snippet: ld.global.v4 / cp.async of bf16 bytes, ldmatrix.x4, and
    `lass_nv.mma_sync {ab_type = "bf16"}` against a numpy product, with an f32 or bf16 epilogue
    (arith.truncf / ld_global + arith.extf);
  * arith on bf16 values (constant, extf, truncf, addf, mulf, negf, cmpf, bitcast, select);
  * every pass's output for a bf16 lass.gemm (stages 2 and 3; f32 and bf16 D) through run_check.
"""

from __future__ import annotations

import numpy as np
import pytest

from lasscc.diagnostics import LassError
from lasscc.interp import execute_kernel, run_check
from lasscc.interp.bf16 import BF16, QNAN, as_f64, bf16_to_f32, f32_to_bf16, store_as, to_bf16
from lasscc.interp.check import make_inputs, reference, rel_error
from lasscc.interp.mma_math import TOLERANCE
from lasscc.interp.errors import InterpError, KernelArgumentError


def f32_bits(u: int) -> np.float32:
    return np.array([u], np.uint32).view(np.float32)[0]


def rnd(u32: int) -> int:
    """f32_to_bf16 of the float32 with bit pattern u32, as an int."""
    return int(f32_to_bf16(f32_bits(u32)))


# ---- the conversions -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "f32_pattern, bf16_pattern, what",
    [
        (0x3F800000, 0x3F80, "1.0"),
        (0xBF800000, 0xBF80, "-1.0"),
        (0x3EAAAAAB, 0x3EAB, "1/3 (0x3EAA_AAAB: low half 0xAAAB > 0x8000, rounds up)"),
        (0x3E800000, 0x3E80, "0.25"),
        (0x7F7F0000, 0x7F7F, "bf16 max, exact"),
        (0x7F7F7FFF, 0x7F7F, "just below the halfway point to inf"),
        (0x7F7F8000, 0x7F80, "halfway above bf16 max: tie, odd 0x7F7F -> even 0x7F80 = inf"),
        (0x7F7FFFFF, 0x7F80, "f32 max overflows to inf"),
        (0xFF7FFFFF, 0xFF80, "-f32 max overflows to -inf"),
        (0x7F800000, 0x7F80, "inf"),
        (0xFF800000, 0xFF80, "-inf"),
        (0x00000000, 0x0000, "0"),
        (0x80000000, 0x8000, "-0"),
        (0x00800000, 0x0080, "smallest normal"),
        (0x00010000, 0x0001, "smallest bf16 subnormal, exact"),
        (0x00000001, 0x0000, "smallest f32 subnormal rounds to 0"),
        (0x00008000, 0x0000, "tiny tie: even 0"),
        (0x00018000, 0x0002, "tiny tie: odd 1 -> 2"),
        (0x80008001, 0x8001, "-tiny just above the tie rounds away"),
        (0x007FFFFF, 0x0080, "largest subnormal rounds up into the normals"),
        (0x3F808000, 0x3F80, "1 + 2^-8: tie, even stays"),
        (0x3F818000, 0x3F82, "1 + 3*2^-8: tie, odd rounds up"),
        (0x3F808001, 0x3F81, "just above a tie"),
        (0x3F807FFF, 0x3F80, "just below a tie"),
        (0xBF818000, 0xBF82, "negative tie, odd: away from zero"),
        (0xBF808000, 0xBF80, "negative tie, even"),
        (0x3FFF8000, 0x4000, "tie carrying into the exponent"),
    ],
)
def test_f32_to_bf16_known_values(f32_pattern, bf16_pattern, what):
    assert rnd(f32_pattern) == bf16_pattern, what


def test_known_decimal_values():
    assert int(to_bf16(1.0)) == 0x3F80
    assert int(to_bf16(1 / 3)) == 0x3EAB and float(bf16_to_f32(np.uint16(0x3EAB))) == 0.333984375
    assert float(bf16_to_f32(np.uint16(0x7F7F))) == 3.3895313892515355e38  # bf16 max
    assert int(to_bf16(3.3895313892515355e38)) == 0x7F7F
    assert int(to_bf16(1e39)) == 0x7F80 and int(to_bf16(-1e39)) == 0xFF80  # past f32's range too
    assert float(bf16_to_f32(np.uint16(0x0001))) == 2.0**-133  # smallest subnormal
    assert int(to_bf16(2.0**-134)) == 0x0000  # exactly half of it: tie to even 0
    assert int(to_bf16(2.0**-134 * 1.5)) == 0x0001


@pytest.mark.parametrize("pattern", [0x7FC00000, 0x7F800001, 0x7F80FFFF, 0xFFC00000, 0xFF800001, 0x7FFFFFFF])
def test_nan_stays_nan(pattern):
    """Low-payload NaNs must not round into an infinity; the sign is kept."""
    b = rnd(pattern)
    assert np.isnan(bf16_to_f32(np.uint16(b)))
    assert (b >> 15) == (pattern >> 31)
    assert int(to_bf16(np.nan)) == int(QNAN) == 0x7FC0
    assert np.isnan(bf16_to_f32(to_bf16(np.array([np.nan, -np.nan])))).all()


def test_every_bf16_pattern_round_trips_exactly():
    bits = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    f = bf16_to_f32(bits)
    assert f.dtype == np.float32
    assert np.array_equal(f.view(np.uint32), bits.astype(np.uint32) << 16)  # bits << 16
    finite = ~np.isnan(f)
    assert np.array_equal(f32_to_bf16(f)[finite], bits[finite])
    assert np.isnan(bf16_to_f32(f32_to_bf16(f[~finite]))).all()
    assert np.array_equal(to_bf16(as_f64(bits))[finite], bits[finite])  # the f64 path too


def _nearest_bf16(x: np.ndarray) -> np.ndarray:
    """Independent reference: of the two bf16 neighbours of each finite float32 (truncation and
    the next pattern away from zero), the nearer in float64; on a tie the even one."""
    u = x.view(np.uint32)
    lo = (u >> 16).astype(np.uint16)
    hi = (lo + 1).astype(np.uint16)
    flo, fhi = as_f64(lo), as_f64(hi)  # hi may be inf: then lo wins unless it is a tie (handled below)
    xd = x.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        dlo = np.abs(xd - flo)
        # the distance to "inf" is measured to the overflow threshold 2^128 (IEEE rounding)
        fhi_eff = np.where(np.isinf(fhi), np.copysign(2.0**128, xd), fhi)
        dhi = np.abs(fhi_eff - xd)
    pick_hi = (dhi < dlo) | ((dhi == dlo) & (lo % 2 == 1))
    return np.where(pick_hi, hi, lo)


def test_f32_to_bf16_matches_nearest_even_search():
    rng = np.random.default_rng(0)
    u = rng.integers(0, 2**32, 200_000, dtype=np.uint64).astype(np.uint32)
    # plus every tie and near-tie around some patterns
    base = rng.integers(0, 0x7F7F, 2000, dtype=np.uint32) << 16
    extra = np.concatenate([base | 0x8000, base | 0x7FFF, base | 0x8001, (base | 0x8000) | 0x80000000])
    x = np.concatenate([u, extra]).view(np.float32)
    x = x[np.isfinite(x)]
    assert np.array_equal(f32_to_bf16(x), _nearest_bf16(x))


def test_f64_to_bf16_is_correctly_rounded_without_double_rounding():
    one_p = 1 + 2.0**-8  # halfway between 0x3F80 and 0x3F81
    assert int(to_bf16(one_p)) == 0x3F80  # a true tie: even
    assert int(to_bf16(one_p + 2.0**-30)) == 0x3F81  # above the tie: via f32 RNE it would be 0x3F80
    assert int(to_bf16(np.float32(one_p + 2.0**-30))) == 0x3F80  # (the f32 really is the tie)
    assert int(to_bf16(one_p - 2.0**-30)) == 0x3F80
    assert int(to_bf16(-(one_p + 2.0**-30))) == 0xBF81
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, 100_000) * 2.0 ** rng.integers(-140, 127, 100_000)
    got = to_bf16(x)
    # reference: the nearer bf16 neighbour in float64 (exact here), ties to even
    lo = (np.asarray(x, np.float32).view(np.uint32) >> 16).astype(np.uint16)  # a neighbour, maybe off by one
    cands = np.stack([lo - 1, lo, lo + 1, lo + 2]).astype(np.uint16)
    with np.errstate(invalid="ignore"):
        dist = np.abs(as_f64(cands) - x)  # a wrapped-around candidate is NaN: never the nearest
    best = np.nanmin(dist, axis=0)
    assert np.array_equal(np.abs(as_f64(got) - x), best)
    tie = np.sum(dist == best, axis=0) > 1
    assert (got[tie] % 2 == 0).all()


def _all_f32_samples():
    rng = np.random.default_rng(5)
    u = rng.integers(0, 2**32, 500_000, dtype=np.uint64).astype(np.uint32)
    base = np.arange(0, 0x7F80, 7, dtype=np.uint32) << 16
    ties = np.concatenate([base | 0x8000, base | 0x18000, base | 0x7FFF, base | 0x8001])
    x = np.concatenate([u, ties, ties | 0x80000000]).view(np.float32)
    return x[np.isfinite(x)]


def test_f32_to_bf16_agrees_with_ml_dtypes():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = _all_f32_samples()
    assert np.array_equal(f32_to_bf16(x), x.astype(ml_dtypes.bfloat16).view(np.uint16))
    bits = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    want = bits.view(ml_dtypes.bfloat16).astype(np.float32)
    assert np.array_equal(bf16_to_f32(bits), want, equal_nan=True)


def test_f32_to_bf16_agrees_with_torch():
    torch = pytest.importorskip("torch")
    x = _all_f32_samples()
    got = torch.from_numpy(x).to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16)
    assert np.array_equal(f32_to_bf16(x), got)


def test_store_as_and_types():
    assert to_bf16(np.float16(1.5)) == np.uint16(0x3FC0)
    x = np.array([1.0, 2.0], np.float32)
    assert store_as(x, BF16).dtype == BF16 and store_as(x, np.float16).dtype == np.float16
    assert store_as(np.array([0x3F80], np.uint16), np.float32)[0] == 1.0
    assert isinstance(to_bf16(np.float32(1.0)), np.uint16)  # scalars stay scalars
    assert isinstance(bf16_to_f32(np.uint16(0x3F80)), np.float32)


# ---- checker -----------------------------------------------------------------------------------------
def test_make_inputs_rounds_to_bf16_and_reference_is_exact():
    a, b, c, d = make_inputs(8, 6, 16, seed=3, beta=0.5, d_dtype=BF16, ab_dtype=BF16)
    assert a.dtype == BF16 and b.dtype == BF16 and d.dtype == BF16
    af = as_f64(a)
    assert (np.abs(af) <= 1).all() and np.array_equal(as_f64(to_bf16(af)), af)
    assert np.array_equal(c, as_f64(d))
    # same draws as the f16 inputs, rounded differently
    a16, *_ = make_inputs(8, 6, 16, seed=3, beta=0.5)
    assert np.abs(af - a16.astype(np.float64)).max() < 2.0**-8
    ref = reference(a, b, c, 2.0, 0.5)
    assert np.array_equal(ref, 2.0 * (af @ as_f64(b).T) + 0.5 * c)
    _, _, _, d0 = make_inputs(4, 4, 8, seed=0, beta=0.0, d_dtype=BF16, ab_dtype=BF16)
    assert np.isnan(as_f64(d0)).all()  # NaN poison
    assert np.isnan(rel_error(d0, np.ones((4, 4))))
    assert TOLERANCE[BF16] == 1e-2


# ---- level 0 ---------------------------------------------------------------------------------------
AB = "%a: memref<?x?xbf16>, %b: memref<?x?xbf16, strided<[1, ?]>>"
LEVEL0 = """
func.func @gemm(%a: memref<?x?xbf16>, %b: memref<?x?xbf16, strided<[1, ?]>>, %d: memref<?x?x{dt}>) {{
  lass.gemm {{alpha = 1.5 : f32, beta = 0.5 : f32, config = {{stages = 3 : i64}}}}
      ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16, strided<[1, ?]>>) outs(%d : memref<?x?x{dt}>)
  func.return
}}
"""


@pytest.mark.parametrize("dt", ["f32", "bf16"])
@pytest.mark.parametrize("m,n,k,beta", [(33, 17, 40, 0.5), (20, 24, 8, 0.0)])
def test_level0_bf16(dt, m, n, k, beta):
    r = run_check(LEVEL0.format(dt=dt), m, n, k, seed=1, alpha=1.5, beta=beta)
    assert r["ok"] and r["level"] == 0, r["rel_err"]
    if dt == "f32":
        assert r["rel_err"] < 1e-6 and r["tolerance"] == 1e-3
    else:
        assert 1e-4 < r["rel_err"] < 4e-3 and r["tolerance"] == 1e-2  # D's own rounding, <= 2^-8


def test_level0_bf16_float32_accumulation_and_exact_output_rounding():
    k = 64
    a = to_bf16(np.ones((1, k)))
    b = to_bf16(np.full((1, k), 2.0**-10))
    b[0, 0] = to_bf16(1.0)
    d = np.zeros((1, 1), np.float32)
    execute_kernel(LEVEL0.format(dt="f32"), 1, 1, k, a, b, d, 1.0, 0.0)
    assert d[0, 0] == np.float32(1 + 63 * 2.0**-10)  # bf16 accumulation would lose the small terms
    # bf16 D: D = round_bf16(alpha * acc + beta * C) with acc, C exact
    rng = np.random.default_rng(2)
    m, n, k = 12, 10, 32
    a = to_bf16(rng.uniform(-1, 1, (m, k)))
    b = to_bf16(rng.uniform(-1, 1, (n, k)))
    c = to_bf16(rng.uniform(-1, 1, (m, n)))
    d = c.copy()
    execute_kernel(LEVEL0.format(dt="bf16"), m, n, k, a, b, d, 1.5, 0.5)
    acc = bf16_to_f32(a) @ bf16_to_f32(b).T
    assert np.array_equal(d, f32_to_bf16(np.float32(1.5) * acc + np.float32(0.5) * bf16_to_f32(c)))


def test_level0_bf16_wants_uint16_patterns():
    a = np.zeros((4, 8), np.float16)
    with pytest.raises(KernelArgumentError, match=r"expected A of dtype uint16 \(bf16 bit patterns\), got float16"):
        execute_kernel(LEVEL0.format(dt="f32"), 4, 4, 8, a, np.zeros((4, 8), BF16), np.zeros((4, 4), np.float32))


def test_level0_takes_ml_dtypes_bfloat16_arrays_in_place():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    m, n, k = 8, 4, 16
    a, b, _, _ = make_inputs(m, n, k, seed=4, beta=0.0, ab_dtype=BF16)
    d = np.zeros((m, n), ml_dtypes.bfloat16)
    execute_kernel(LEVEL0.format(dt="bf16"), m, n, k, a.view(ml_dtypes.bfloat16), b.view(ml_dtypes.bfloat16), d,
                   1.0, 0.0)
    want = f32_to_bf16(bf16_to_f32(a) @ bf16_to_f32(b).T)
    assert np.array_equal(d.view(np.uint16), want)  # written through the caller's array


# ---- level 1 / 2 -------------------------------------------------------------------------------------
SIG = (
    "%A: memref<?x?xbf16>, %B: memref<?x?xbf16, strided<[1, ?]>>, %D: memref<?x?x{dt}>, "
    "%M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32"
)
AM, BM = "memref<?x?xbf16>", "memref<?x?xbf16, strided<[1, ?]>>"


def cfg_attr(tb, warp, stages, raster=1):
    return (
        f'attributes {{lass.kernel = #lass.kernel<ab = bf16, config = {{threadblock = [{", ".join(map(str, tb))}], '
        f'warp = [{", ".join(map(str, warp))}], instruction = [16, 8, 16], stages = {stages}, raster = {raster}}}>}}'

    )


LEVEL1 = """
func.func @kernel({sig}) {cfg} {{
  %c0 = arith.constant 0 : i32
  %cbk = arith.constant 32 : i32
  %m0, %n0 = lass_tb.block_tile %M, %N {{tile = [32, 32], raster = 2}}
  %acc0 = lass_tb.zero_acc : !lass_tb.acc<32x32xf32>
  %r = scf.for %k0 = %c0 to %K step %cbk iter_args(%acc = %acc0) -> (!lass_tb.acc<32x32xf32>) : i32 {{
    %ta = lass_tb.load_tile A %A[%m0, %k0] : {am} -> !lass_tb.tile<32x32xbf16>
    %tb = lass_tb.load_tile B %B[%n0, %k0] : {bm} -> !lass_tb.tile<32x32xbf16>
    %acc1 = lass_tb.mma %ta, %tb, %acc : !lass_tb.tile<32x32xbf16>, !lass_tb.tile<32x32xbf16>, !lass_tb.acc<32x32xf32>
    scf.yield %acc1 : !lass_tb.acc<32x32xf32>
  }}
  lass_tb.epilogue %r, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<32x32xf32>, memref<?x?x{dt}>
  func.return
}}
"""


def level1(dt="f32"):
    return LEVEL1.format(sig=SIG.format(dt=dt), cfg=cfg_attr((32, 32, 32), (16, 16, 32), 2, 2), dt=dt, am=AM, bm=BM)


@pytest.mark.parametrize("dt", ["f32", "bf16"])
@pytest.mark.parametrize("m,n,k,beta", [(64, 64, 64, 0.0), (70, 50, 96, 0.5), (31, 97, 40, 0.0), (5, 3, 7, 2.0)])
def test_level1_bf16(dt, m, n, k, beta):
    r = run_check(level1(dt), m, n, k, seed=4, alpha=1.25, beta=beta)
    assert r["ok"] and r["level"] == 1, r["rel_err"]
    assert r["rel_err"] < (1e-6 if dt == "f32" else 4e-3)


def test_level1_bf16_tile_product_is_exact_in_float32():
    m, n, k = 40, 36, 64
    a, b, _, _ = make_inputs(m, n, k, seed=12, beta=0.0, ab_dtype=BF16)
    d = np.full((m, n), np.nan, np.float32)
    execute_kernel(level1("f32"), m, n, k, a, b, d, 1.0, 0.0)
    # the executor accumulates in float32 per 32-wide k-tile; compare with the same order
    af, bf = bf16_to_f32(a), bf16_to_f32(b)
    want = np.zeros((m, n), np.float32)
    for k0 in range(0, k, 32):
        want = want + af[:, k0 : k0 + 32] @ bf[:, k0 : k0 + 32].T
    np.testing.assert_allclose(d, want, rtol=1e-6, atol=1e-6)


RING = "!lass_pipe.ring<3x32x32x{et}>"
LEVEL2 = """
func.func @kernel({sig}) {cfg} {{
  %m0, %n0 = lass_tb.block_tile %M, %N {{tile = [32, 32], raster = 1}}
  %acc0 = lass_tb.zero_acc : !lass_tb.acc<32x32xf32>
  %ra = lass_pipe.ring {{offset = 0 : i64}} : {ring}
  %rb = lass_pipe.ring {{offset = 6144 : i64}} : {ring}
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c31 = arith.constant 31 : i32
  %c32 = arith.constant 32 : i32
  %kp = arith.addi %K, %c31 : i32
  %kt = arith.divui %kp, %c32 : i32
  %p0 = arith.cmpi ult, %c0, %kt : i32
  lass_pipe.copy_async A %A[%m0, %c0], %ra[%c0], %p0 : {am}, {ring}
  lass_pipe.copy_async B %B[%n0, %c0], %rb[%c0], %p0 : {bm}, {ring}
  lass_pipe.commit
  %p1 = arith.cmpi ult, %c1, %kt : i32
  lass_pipe.copy_async A %A[%m0, %c32], %ra[%c1], %p1 : {am}, {ring}
  lass_pipe.copy_async B %B[%n0, %c32], %rb[%c1], %p1 : {bm}, {ring}
  lass_pipe.commit
  %r = scf.for %t = %c0 to %kt step %c1 iter_args(%acc = %acc0) -> (!lass_tb.acc<32x32xf32>) : i32 {{
    lass_pipe.wait {{pending = 1 : i64}}
    lass_pipe.barrier
    %nt = arith.addi %t, %c2 : i32
    %ns = arith.remui %nt, %c3 : i32
    %np = arith.cmpi ult, %nt, %kt : i32
    %nk = arith.muli %nt, %c32 : i32
    lass_pipe.copy_async A %A[%m0, %nk], %ra[%ns], %np : {am}, {ring}
    lass_pipe.copy_async B %B[%n0, %nk], %rb[%ns], %np : {bm}, {ring}
    lass_pipe.commit
    %s = arith.remui %t, %c3 : i32
    %acc1 = lass_pipe.mma %ra[%s], %rb[%s], %acc : {ring}, {ring}, !lass_tb.acc<32x32xf32>
    scf.yield %acc1 : !lass_tb.acc<32x32xf32>
  }}
  lass_pipe.wait {{pending = 0 : i64}}
  lass_tb.epilogue %r, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<32x32xf32>, memref<?x?x{dt}>
  func.return
}}
"""


def level2(dt="f32", ring_et="bf16"):
    return LEVEL2.format(sig=SIG.format(dt=dt), cfg=cfg_attr((32, 32, 32), (16, 16, 32), 3), dt=dt,
                         ring=RING.format(et=ring_et), am=AM, bm=BM)


@pytest.mark.parametrize("dt,m,n,k,beta", [("f32", 64, 64, 128, 0.25), ("bf16", 50, 70, 72, 0.0), ("bf16", 32, 32, 32, -1.0)])
def test_level2_bf16_multistage(dt, m, n, k, beta):
    r = run_check(level2(dt), m, n, k, seed=6, alpha=0.75, beta=beta)
    assert r["ok"] and r["level"] == 2 and not r["result"].notes, r["rel_err"]
    assert all(row["factor"] == 1.0 for row in r["bank_report"])


def test_level2_bf16_into_an_f16_ring_is_reported():
    with pytest.raises(InterpError, match=r"element type of A \(bf16\) differs from the ring's \(f16\)"):
        run_check(level2("f32", ring_et="f16"), 32, 32, 32)


# ---- level 4: one warp, ldmatrix + mma_sync {ab_type = "bf16"} -----------------------------------------
def one_warp(copy="st_shared", dt="f32", ab_type='ab_type = "bf16", ', with_c=False):
    """The one-warp 16x16x16 kernel of test_interp.one_warp on bf16 A / B: thread t copies 16-byte
    chunk t of A (smem bytes 0..511, K-major 32-byte rows) and B (512..1023), the warp
    ldmatrix.x4-loads A and B (swizzled), runs two mma_sync (n 0-7, 8-15) and stores D = A @ B
    (+ C, read with ld_global and arith.extf, when with_c), through arith.truncf for bf16 D."""

    def sw(src, dst):
        return f"%{dst} = lass_smem.swizzle %{src} {{bits = 3 : i64, base = 4 : i64, shift = 3 : i64}}"

    if copy == "st_shared":
        copy_ops = f"""
  %a0, %a1, %a2, %a3 = lass_nv.ld_global_v4 %A[%goff], %true : {AM}
  %b0, %b1, %b2, %b3 = lass_nv.ld_global_v4 %B[%goff], %true : {BM}
  lass_nv.st_shared_v4 %sa, %a0, %a1, %a2, %a3
  lass_nv.st_shared_v4 %sb, %b0, %b1, %b2, %b3"""
    else:
        copy_ops = f"""
  lass_nv.cp_async %A[%goff], %sa, %true {{bytes = 16 : i64}} : {AM}
  lass_nv.cp_async %B[%goff], %sb, %true {{bytes = 16 : i64}} : {BM}
  lass_nv.cp_async_commit
  lass_nv.cp_async_wait {{pending = 0 : i64}}"""
    outs = {"o0": ("d0", "d1"), "o1": ("d2", "d3"), "o2": ("e0", "e1"), "o3": ("e2", "e3")}
    epi = []
    for off, (x, y) in outs.items():
        vals = [x, y]
        if with_c:
            epi.append(f"  %c_{off}:2 = lass_nv.ld_global %D[%{off}] x 2 if %true : memref<?x?x{dt}>")
            for i, v in enumerate((x, y)):
                cv = f"%c_{off}#{i}"
                if dt != "f32":
                    epi.append(f"  %cx_{v} = arith.extf {cv} : {dt} to f32")
                    cv = f"%cx_{v}"
                epi.append(f"  %s_{v} = arith.addf %{v}, {cv} : f32")
            vals = [f"s_{x}", f"s_{y}"]
        if dt != "f32":
            for v in list(vals):
                epi.append(f"  %t_{v} = arith.truncf %{v} : f32 to {dt}")
            vals = [f"t_{v}" for v in vals]
        epi.append(f"  lass_nv.st_global %D[%{off}], %{vals[0]}, %{vals[1]} if %true : memref<?x?x{dt}>, {dt}, {dt}")
    epilogue = "\n".join(epi)
    return f"""
func.func @warp_mma({SIG.format(dt=dt)}) {cfg_attr((16, 16, 16), (16, 16, 16), 2)} {{
  %tid = lass_nv.thread_id
  %true = arith.constant true
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32
  %c31 = arith.constant 31 : i32
  %c32 = arith.constant 32 : i32
  %c512 = arith.constant 512 : i32
  %lane = arith.andi %tid, %c31 : i32
  %row = arith.shrui %tid, %c1 : i32
  %hk = arith.andi %tid, %c1 : i32
  %kc = arith.muli %hk, %c8 : i32
  %g0 = arith.muli %row, %K : i32
  %goff = arith.addi %g0, %kc : i32
  %sa_l = arith.muli %tid, %c16 : i32
  %sb_l = arith.addi %sa_l, %c512 : i32
  {sw("sa_l", "sa")}
  {sw("sb_l", "sb")}
  {copy_ops}
  lass_nv.bar_sync
  %l7 = arith.andi %lane, %c7 : i32
  %l3 = arith.shrui %lane, %c3 : i32
  %l3b = arith.andi %l3, %c1 : i32
  %l3b8 = arith.muli %l3b, %c8 : i32
  %ar = arith.addi %l7, %l3b8 : i32
  %l4 = arith.shrui %lane, %c4 : i32
  %ak = arith.muli %l4, %c8 : i32
  %ar32 = arith.muli %ar, %c32 : i32
  %ak2 = arith.muli %ak, %c2 : i32
  %aa_l = arith.addi %ar32, %ak2 : i32
  {sw("aa_l", "aa")}
  %x0, %x1, %x2, %x3 = lass_nv.ldmatrix_x4 %aa
  %l48 = arith.muli %l4, %c8 : i32
  %bn = arith.addi %l7, %l48 : i32
  %bn32 = arith.muli %bn, %c32 : i32
  %bk2 = arith.muli %l3b8, %c2 : i32
  %ba0 = arith.addi %bn32, %bk2 : i32
  %ba_l = arith.addi %ba0, %c512 : i32
  {sw("ba_l", "ba")}
  %y0, %y1, %y2, %y3 = lass_nv.ldmatrix_x4 %ba
  %z = arith.constant 0.0 : f32
  %d0, %d1, %d2, %d3 = lass_nv.mma_sync a(%x0, %x1, %x2, %x3) b(%y0, %y1) c(%z, %z, %z, %z) {{{ab_type}shape = "m16n8k16"}}
  %e0, %e1, %e2, %e3 = lass_nv.mma_sync a(%x0, %x1, %x2, %x3) b(%y2, %y3) c(%z, %z, %z, %z) {{{ab_type}shape = "m16n8k16"}}
  %g = arith.shrui %lane, %c2 : i32
  %tig = arith.andi %lane, %c3 : i32
  %col = arith.muli %tig, %c2 : i32
  %gN = arith.muli %g, %N : i32
  %o0 = arith.addi %gN, %col : i32
  %g8 = arith.addi %g, %c8 : i32
  %g8N = arith.muli %g8, %N : i32
  %o1 = arith.addi %g8N, %col : i32
  %o2 = arith.addi %o0, %c8 : i32
  %o3 = arith.addi %o1, %c8 : i32
{epilogue}
  func.return
}}
"""


def _parse(text):
    from xdsl.parser import Parser

    from lasscc.universe import make_context

    return Parser(make_context(), text).parse_module()


def _mma_ab_type_verifies() -> bool:
    """Whether the dialect accepts lass_nv.mma_sync {ab_type = "bf16"} (the compiler side adds it)."""
    try:
        _parse(one_warp()).verify()
    except Exception:  # noqa: BLE001
        return False
    return True


needs_ab_type = pytest.mark.skipif(
    not _mma_ab_type_verifies(), reason='lass_nv.mma_sync does not yet verify with ab_type = "bf16" (dialects/lass_nv.py)'
)


def run_warp(text, a, b, dt="f32", c=None):
    d = (np.full((16, 16), QNAN if dt == "bf16" else np.nan, BF16 if dt == "bf16" else np.float32)
         if c is None else c.copy())
    res = execute_kernel(text, 16, 16, 16, a, b, d, 1.0, 0.0)
    return d, res


def _random_tiles(seed):
    rng = np.random.default_rng(seed)
    a = to_bf16(rng.uniform(-1, 1, (16, 16)))
    b = to_bf16(rng.uniform(-1, 1, (16, 16)))  # N x K: B[k, j] = b[j, k]
    return a, b


@needs_ab_type
@pytest.mark.parametrize("copy", ["st_shared", "cp_async"])
def test_one_warp_bf16_mma_sync_against_numpy(copy):
    a, b = _random_tiles(8)
    d, res = run_warp(one_warp(copy), a, b)
    assert res.level == 4 and res.threads == 32
    # products of bf16 values are exact in float32; only the 16-term sums round
    np.testing.assert_allclose(d, as_f64(a) @ as_f64(b).T, rtol=1e-6, atol=1e-6)


@needs_ab_type
def test_one_warp_bf16_identity_and_halves_order():
    """A @ I == A exactly: the low half of each register is the smaller k (a mixed-up half or an
    f16 reading of the bits would permute or garble the values)."""
    a = to_bf16((np.arange(256).reshape(16, 16) % 37 - 18) * 0.5 + 2.0**-7)  # distinct, non-f16-looking
    eye = to_bf16(np.eye(16))
    d, _ = run_warp(one_warp(), a, eye)
    np.testing.assert_array_equal(d, bf16_to_f32(a))
    # without ab_type the same registers are read as f16 pairs: a different product
    d16, _ = run_warp(one_warp(ab_type=""), a, eye)
    assert not np.array_equal(d16, d)


@needs_ab_type
@pytest.mark.parametrize("with_c", [False, True])
def test_one_warp_bf16_epilogue_truncf_and_extf(with_c):
    a, b = _random_tiles(9)
    c = to_bf16(np.random.default_rng(10).uniform(-1, 1, (16, 16))) if with_c else None
    d, _ = run_warp(one_warp(dt="bf16", with_c=with_c), a, b, dt="bf16", c=c)
    assert d.dtype == BF16
    acc = (bf16_to_f32(a).astype(np.float64) @ bf16_to_f32(b).astype(np.float64).T)
    want = acc + (as_f64(c) if with_c else 0)
    # D is the round-to-nearest-even of an f32 within ~1e-6 of `want`: at most one bf16 ulp apart
    got = as_f64(d)
    assert np.all(np.abs(got - want) <= np.abs(want) * 2.0**-8 + 1e-6)
    assert rel_error(d, want) < 4e-3


def test_mma_sync_rejects_unknown_ab_type():
    text = one_warp(ab_type='ab_type = "f64", ')
    with pytest.raises(LassError, match="ab_type"):
        run_warp(text, *_random_tiles(1))


# ---- arith on bf16 values ----------------------------------------------------------------------------
def simt(body: str) -> str:
    return f"""
func.func @simt({SIG.format(dt="bf16")}) {cfg_attr((16, 16, 16), (16, 16, 16), 2)} {{
  %tid = lass_nv.thread_id
  %true = arith.constant true
  %c16 = arith.constant 16 : i32
  %t16 = arith.addi %tid, %c16 : i32
  %lo = arith.cmpi slt, %tid, %c16 : i32
{body}
  func.return
}}
"""


def run_simt(body, d_init):
    d = np.asarray(d_init, BF16).reshape(2, 16).copy()
    z = np.zeros((2, 16), BF16)
    execute_kernel(simt(body), 2, 16, 16, z, np.zeros((16, 16), BF16), d, 1.0, 0.0)
    return d.reshape(-1)


def test_arith_on_bf16_values():
    rng = np.random.default_rng(11)
    x = to_bf16(rng.uniform(-4, 4, 16))
    init = np.concatenate([x, np.zeros(16, BF16)])
    d = run_simt("""
  %x = lass_nv.ld_global %D[%tid] x 1 if %lo : memref<?x?xbf16>
  %third = arith.constant 0.333333333333 : bf16
  %f = arith.extf %x : bf16 to f32
  %sq = arith.mulf %f, %f : f32
  %r = arith.truncf %sq : f32 to bf16
  %m = arith.mulf %x, %third : bf16
  %s = arith.addf %r, %m : bf16
  %n = arith.negf %s : bf16
  %pos = arith.cmpf ogt, %x, %third : bf16
  %v = arith.select %pos, %n, %x : bf16
  %i = arith.bitcast %v : bf16 to i16
  %j = arith.bitcast %i : i16 to bf16
  lass_nv.st_global %D[%t16], %j if %lo : memref<?x?xbf16>, bf16""", init)
    xf = bf16_to_f32(x)
    third = to_bf16(0.333333333333)
    assert int(third) == 0x3EAB
    r = f32_to_bf16(xf * xf)
    m = f32_to_bf16(xf * bf16_to_f32(third))
    s = f32_to_bf16(bf16_to_f32(r) + bf16_to_f32(m))
    n = s ^ np.uint16(0x8000)
    want = np.where(xf > bf16_to_f32(third), n, x)
    assert np.array_equal(d[16:], want)
    assert np.array_equal(d[:16], x)  # untouched


# ---- the passes' output: run_check after every pass ---------------------------------------------------
def _pipeline():
    try:
        from lasscc.driver import PASS_NAMES, run_passes
    except Exception as e:  # noqa: BLE001 -- the passes are developed in parallel
        pytest.skip(f"lasscc.driver not importable: {e}")
    return PASS_NAMES, run_passes


GEMM = """func.func @gemm(%a: memref<?x?xbf16>, %b: memref<?x?xbf16, strided<[1, ?]>>, %d: memref<?x?x{dt}>) {{
  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32, config = {{threadblock = [{tb}], warp = [{w}], stages = {s}}}}}
      ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16, strided<[1, ?]>>) outs(%d : memref<?x?x{dt}>)
  func.return
}}
"""


def bf16_stages(tb, w, s, dt):
    """{pass name: IR text after it} for a bf16 lass.gemm, up to lasscc-swizzle-smem (the last level
    the CPU executor runs); skips while the compiler does not take bf16 yet."""
    names, run_passes = _pipeline()
    text = GEMM.format(tb=tb, w=w, s=s, dt=dt)
    try:
        stages = run_passes(_parse(text), names[: names.index("lasscc-swizzle-smem") + 1], keep_text=True)
    except LassError as e:
        if "bf16" in str(e) or "f16" in str(e):
            pytest.skip(f"the passes do not take a bf16 lass.gemm yet: {e}")
        raise
    return {"input": text, **stages}


@pytest.mark.parametrize(
    "tb,w,s,dt,shape,beta",
    [
        ("64, 64, 32", "32, 32, 32", 3, "f32", (128, 64, 96), 0.0),
        ("64, 64, 32", "32, 32, 32", 2, "f32", (72, 40, 48), 0.5),
        ("64, 64, 32", "32, 32, 32", 3, "bf16", (70, 96, 64), 0.5),
        ("64, 64, 32", "32, 32, 32", 2, "bf16", (64, 128, 64), 0.0),
        ("128, 128, 32", "64, 64, 32", 3, "bf16", (128, 128, 64), 0.0),
    ],
)
def test_every_pass_executes_a_bf16_gemm(tb, w, s, dt, shape, beta):
    stages = bf16_stages(tb, w, s, dt)
    m, n, k = shape
    levels = []
    for name, text in stages.items():
        r = run_check(text, m, n, k, seed=9, alpha=1.5, beta=beta)
        assert r["ok"], (name, r["rel_err"])
        assert r["rel_err"] < (1e-5 if dt == "f32" else 4e-3), (name, r["rel_err"])
        levels.append(r["level"])
        if r["level"] == 4:
            assert all(row["factor"] == 1.0 for row in r["bank_report"])
            assert "ab_type" in text and '"bf16"' in text  # the mma_sync says what its registers pack
    assert levels[0] == 0 and levels[-1] == 4
