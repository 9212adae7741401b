"""The CUDA-driver harness: host-side logic everywhere, and real launches where there is a GPU.

Tests marked `gpu` skip with driver_status()'s reason ("no GPU", "no CUDA driver found", ...)
on machines without one; the rest use small numpy arrays and a fake driver module.
"""

from __future__ import annotations

import ctypes
import enum
from types import SimpleNamespace

import numpy as np
import pytest

from lasscc.config import KernelSpec
from lasscc.diagnostics import LassError
from lasscc.interp.bf16 import BF16, QNAN, bf16_to_f32, to_bf16
from lasscc.runtime import cuda, gemm_runner

_REASON = cuda.driver_status()


def gpu_test(fn):
    """Mark `fn` as a GPU test that skips with the driver's reason when there is none."""
    return pytest.mark.gpu(pytest.mark.skipif(_REASON is not None, reason=f"needs a GPU: {_REASON}")(fn))


# --- without a GPU ---------------------------------------------------------------------------


class _Res(enum.IntEnum):
    CUDA_SUCCESS = 0
    CUDA_ERROR_INVALID_VALUE = 1
    CUDA_ERROR_STUB_LIBRARY = 34
    CUDA_ERROR_NO_DEVICE = 100
    CUDA_ERROR_INVALID_PTX = 218
    CUDA_ERROR_NOT_FOUND = 500


def _fake_driver(init=None, count=1):
    """A stand-in for cuda.bindings.driver: cuInit returns `init` (or raises it, if an exception)."""

    def cu_init(flags):
        if isinstance(init, Exception):
            raise init
        return (init or _Res.CUDA_SUCCESS,)

    names = {_Res.CUDA_ERROR_INVALID_PTX: (b"CUDA_ERROR_INVALID_PTX", b"a PTX JIT compilation failed")}
    return SimpleNamespace(
        CUresult=_Res,
        cuInit=cu_init,
        cuDeviceGetCount=lambda: (_Res.CUDA_SUCCESS, count),
        cuGetErrorName=lambda e: (_Res.CUDA_SUCCESS, names.get(e, (e.name.encode(), b""))[0]),
        cuGetErrorString=lambda e: (_Res.CUDA_SUCCESS, names.get(e, (b"", b"unknown"))[1]),
        cuModuleLoadData=lambda image: (_Res.CUDA_ERROR_INVALID_PTX, None),
    )


def test_driver_status_here_is_a_reason_or_none():
    status = cuda.driver_status()
    assert status is None or (isinstance(status, str) and status and "Traceback" not in status)


@pytest.mark.parametrize(
    "init, count, expected",
    [
        (OSError("libcuda.so.1: cannot open shared object file"), 1, "no CUDA driver found"),
        (_Res.CUDA_ERROR_STUB_LIBRARY, 1, "no CUDA driver found"),
        (_Res.CUDA_ERROR_NO_DEVICE, 1, "no GPU"),
        (None, 0, "no GPU"),
        (None, 1, None),
    ],
)
def test_driver_status_reasons(monkeypatch, init, count, expected):
    monkeypatch.setattr(cuda, "_cu", _fake_driver(init, count))
    assert cuda.driver_status() == expected


def test_driver_status_without_bindings(monkeypatch):
    def missing():
        raise LassError("cuda-bindings is not installed (pip install cuda-bindings)")

    monkeypatch.setattr(cuda, "_driver", missing)
    assert cuda.driver_status() == "cuda-bindings is not installed"


def test_context_without_gpu_raises_the_reason(monkeypatch):
    monkeypatch.setattr(cuda, "_cu", _fake_driver(_Res.CUDA_ERROR_NO_DEVICE))
    monkeypatch.setattr(cuda, "_ctx", None)
    with pytest.raises(LassError, match="cannot run on the GPU: no GPU"):
        cuda.context()


def test_failed_call_names_call_and_error(monkeypatch):
    monkeypatch.setattr(cuda, "_cu", _fake_driver())
    with pytest.raises(LassError) as info:
        cuda._call("cuModuleLoadData", b"\0")
    assert str(info.value) == "cuModuleLoadData failed: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)"


def test_check_returns_values(monkeypatch):
    monkeypatch.setattr(cuda, "_cu", _fake_driver())
    assert cuda._check("x", (_Res.CUDA_SUCCESS,)) is None
    assert cuda._check("x", (_Res.CUDA_SUCCESS, 7)) == 7
    assert cuda._check("x", (_Res.CUDA_SUCCESS, 7, 8)) == (7, 8)


def test_pack_args_builds_pointer_array_of_typed_values():
    packed = cuda.pack_args([cuda.DeviceBuffer(0x7F00_1234_5678, 16), np.int32(-3), np.float32(1.5)])
    ptr, i32, f32 = packed.values
    assert isinstance(ptr, ctypes.c_uint64) and ptr.value == 0x7F00_1234_5678
    assert isinstance(i32, ctypes.c_int32) and i32.value == -3
    assert isinstance(f32, ctypes.c_float) and f32.value == 1.5
    # kernelParams[i] points at the i-th value, with the width the PTX parameter has
    slots = (ctypes.c_void_p * 3).from_address(packed.address)
    assert ctypes.c_uint64.from_address(slots[0]).value == 0x7F00_1234_5678
    assert ctypes.c_int32.from_address(slots[1]).value == -3
    assert ctypes.c_float.from_address(slots[2]).value == 1.5
    assert [ctypes.sizeof(v) for v in packed.values] == [8, 4, 4]


@pytest.mark.parametrize("bad", [3, 2.0, np.int64(3), np.float64(1.0)])
def test_pack_args_refuses_ambiguous_widths(bad):
    with pytest.raises(LassError, match="kernel argument 1: expected DeviceBuffer, numpy.int32, numpy.uint64, numpy.float32 or a tensor map"):
        cuda.pack_args([np.int32(0), bad])


def test_reference_is_tn_gemm_with_alpha_beta():
    a = np.array([[1, 2], [3, 4]], dtype=np.float16)  # M x K
    b_nk = np.array([[1, 0], [1, 1], [0, 2]], dtype=np.float16)  # B (K x N = 2 x 3) stored column-major
    c = np.ones((2, 3), dtype=np.float32)
    b = b_nk.T.astype(np.float64)
    expected = 2.0 * (a.astype(np.float64) @ b) + 0.5 * c
    assert np.array_equal(gemm_runner.reference(a, b_nk, c, 2.0, 0.5), expected)
    assert np.array_equal(gemm_runner.reference(a, b_nk, None, 1.0, 0.0), [[1, 3, 4], [3, 7, 8]])


def test_reference_uses_exact_f16_values():
    a = np.array([[0.1]], dtype=np.float16)
    b_nk = np.array([[0.1]], dtype=np.float16)
    assert gemm_runner.reference(a, b_nk, None, 1.0, 0.0)[0, 0] == float(a[0, 0]) * float(b_nk[0, 0])


def test_rel_error_and_check():
    ref = np.array([[3.0, 4.0]])  # ||ref|| = 5
    assert gemm_runner.rel_error(np.array([[3.0, 4.0]]), ref) == 0.0
    assert gemm_runner.rel_error(np.array([[3.0, 4.5]]), ref) == pytest.approx(0.1)
    assert gemm_runner.rel_error(np.zeros((1, 2)), np.zeros((1, 2))) == 0.0
    assert gemm_runner.check_output(np.array([[3.0, 4.0 + 1e-4]], np.float32), ref, "f32") == (pytest.approx(2e-5, rel=1e-2), True)
    assert not gemm_runner.check_output(np.array([[3.0, 4.1]], np.float32), ref, "f32")[1]  # 2e-2 > 1e-3
    assert gemm_runner.check_output(np.array([[3.0, 4.01]], np.float16), ref, "f16")[1]  # 2e-3 < 1e-2
    err, ok = gemm_runner.check_output(np.array([[np.nan, 4.0]], np.float32), ref, "f32")
    assert np.isnan(err) and not ok
    assert not gemm_runner.check_output(np.array([[np.inf, 4.0]], np.float32), ref, "f32")[1]


def test_tflops():
    assert gemm_runner.tflops(1000, 1000, 1000, 1.0) == pytest.approx(2.0)


def test_runner_refuses_unsupported_layout():
    spec = KernelSpec(name="k", threads=128, smem_bytes=0, tile_m=64, tile_n=64, raster=1, b_layout="other")
    with pytest.raises(LassError, match="b_layout = 'other'; the runner supports col, row"):
        gemm_runner.run_gemm("", spec, 64, 64, 64)
    ok_spec = KernelSpec(name="k", threads=128, smem_bytes=0, tile_m=64, tile_n=64, raster=1)
    with pytest.raises(LassError, match="K = 0"):
        gemm_runner.run_gemm("", ok_spec, 64, 64, 0)


def test_format_report():
    result = {"name": "gemm", "d_dtype": "f32", "grid": (4, 1, 1), "block": (128, 1, 1), "smem_bytes": 49152,
              "regs": 128, "local_bytes": 0, "rel_err": 1.2e-7, "ok": True, "tol": 1e-3,
              "ms_median": 0.5, "tflops": 275.0, "cublas_ms": 0.4, "cublas_tflops": 343.6,
              "cublas_op": "torch.mm", "ratio": 0.8}
    text = gemm_runner.format_report(result, 4096, 4096, 4096)
    assert "M=4096 N=4096 K=4096" in text and "PASS" in text and "48 KB" in text
    assert "275.00 TFLOP/s" in text and "lasscc/cuBLAS = 0.80" in text
    assert "A/B" not in text  # f16 inputs: the report line as it always was


# --- bf16 inputs / output (uint16 bit patterns on the host) ------------------------------------


def test_reference_uses_exact_bf16_values():
    a = to_bf16(np.array([[1 / 3, 2.0]]))  # M=1, K=2
    b_nk = to_bf16(np.array([[3.0, 0.1], [1.0, -1.0]]))  # N=2
    c = to_bf16(np.array([[0.1, 0.2]]))
    af, bf, cf = (bf16_to_f32(x).astype(np.float64) for x in (a, b_nk, c))
    assert af[0, 0] == 0.333984375 and bf[0, 1] == 0.10009765625  # the rounded values, not 1/3, 0.1
    assert np.array_equal(gemm_runner.reference(a, b_nk, c, 2.0, 0.5), 2.0 * (af @ bf.T) + 0.5 * cf)


def test_check_output_decodes_bf16():
    ref = np.array([[3.0, 4.0]])
    assert gemm_runner.check_output(to_bf16(np.array([[3.0, 4.0]])), ref, "bf16") == (0.0, True)
    err, ok = gemm_runner.check_output(to_bf16(np.array([[3.0, 4.03125]])), ref, "bf16")  # one ulp at 4
    assert err == pytest.approx(0.00625) and ok
    assert not gemm_runner.check_output(to_bf16(np.array([[3.0, 4.25]])), ref, "bf16")[1]  # 5e-2 > 1e-2
    err, ok = gemm_runner.check_output(np.array([[QNAN, 0x4080]], np.uint16), ref, "bf16")
    assert np.isnan(err) and not ok
    assert not gemm_runner.check_output(np.array([[0x7F80, 0x4080]], np.uint16), ref, "bf16")[1]  # inf
    assert gemm_runner.REL_TOL["bf16"] == 1e-2 and gemm_runner.NP_DTYPE["bf16"] == BF16


def test_random_operand_is_rounded_bf16_normal():
    x = gemm_runner.random_operand(np.random.default_rng(0), (64, 32), "bf16")
    assert x.dtype == BF16
    f = bf16_to_f32(x).astype(np.float64)
    # standard normal draws (timings on a narrow range flatter the GPU), exactly bf16, many values
    assert 0.8 < f.std() < 1.2 and np.abs(f).max() > 2 and np.array_equal(to_bf16(f), x) and len(np.unique(x)) > 500
    # same draws as f16 (seeded), rounded to the other type: within bf16's half ulp of each value
    h = gemm_runner.random_operand(np.random.default_rng(0), (64, 32), "f16").astype(np.float64)
    assert np.all(np.abs(f - h) <= np.abs(h) * 2.0**-8 + 2.0**-24)


def test_runner_accepts_bf16_and_refuses_mixed_inputs():
    bf = dict(name="k", threads=128, smem_bytes=0, tile_m=64, tile_n=64, raster=1)
    with pytest.raises(LassError, match="K = 0"):  # the dtypes pass, the size does not
        gemm_runner.run_gemm("", KernelSpec(**bf, a_dtype="bf16", b_dtype="bf16", d_dtype="bf16"), 64, 64, 0)
    with pytest.raises(LassError, match="a_dtype = 'bf16' and b_dtype = 'f16'"):
        gemm_runner.run_gemm("", KernelSpec(**bf, a_dtype="bf16"), 64, 64, 64)
    with pytest.raises(LassError, match="a_dtype = 'f8'; the runner supports f16, bf16"):
        gemm_runner.run_gemm("", KernelSpec(**bf, a_dtype="f8", b_dtype="f8"), 64, 64, 64)


def test_format_report_names_bf16_inputs():
    result = {"name": "gemm", "ab_dtype": "bf16", "d_dtype": "bf16", "grid": (4, 1, 1), "block": (128, 1, 1),
              "smem_bytes": 49152, "rel_err": 1.7e-3, "ok": True, "tol": 1e-2}
    text = gemm_runner.format_report(result, 256, 256, 256)
    assert "A/B bf16  D bf16" in text and "PASS  rel_err 1.70e-03 (limit 1e-02)" in text


# --- on a GPU --------------------------------------------------------------------------------

WRITE_TID_PTX = """
.version 7.0
.target sm_80
.address_size 64

// out[i] = i for i < n; out[i] = scale * i in the float kernel
.visible .entry write_tid(.param .u64 out, .param .u32 n)
{
    .reg .pred %p;
    .reg .b32 %r<5>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %tid.x;
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mad.lo.s32 %r2, %r3, %r4, %r2;
    setp.ge.s32 %p, %r2, %r1;
    @%p bra DONE;
    cvta.to.global.u64 %rd1, %rd1;
    mul.wide.s32 %rd2, %r2, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r2;
DONE:
    ret;
}

.visible .entry scale_tid(.param .u64 out, .param .f32 scale, .param .u32 n)
{
    .reg .pred %p;
    .reg .b32 %r<3>;
    .reg .f32 %f<3>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.f32 %f1, [scale];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %tid.x;
    setp.ge.s32 %p, %r2, %r1;
    @%p bra DONE;
    cvt.rn.f32.s32 %f2, %r2;
    mul.f32 %f2, %f2, %f1;
    cvta.to.global.u64 %rd1, %rd1;
    mul.wide.s32 %rd2, %r2, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.f32 [%rd3], %f2;
DONE:
    ret;
}

// writes the last byte of its dynamic shared memory, then out[0] = smem size seen by the kernel
.extern .shared .align 16 .b8 dsmem[];
.visible .entry touch_smem(.param .u64 out, .param .u32 nbytes)
{
    .reg .b16 %rs1;
    .reg .b32 %r<3>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [nbytes];
    mov.u32 %r2, dsmem;
    add.u32 %r2, %r2, %r1;
    sub.u32 %r2, %r2, 1;
    mov.u16 %rs1, 7;
    st.shared.u8 [%r2], %rs1;
    mov.u32 %r2, %dynamic_smem_size;
    cvta.to.global.u64 %rd1, %rd1;
    st.global.u32 [%rd1], %r2;
    ret;
}
"""


def naive_gemm_ptx(d_dtype: str, ab: str = "f16") -> str:
    """A hand-written one-thread-per-element GEMM with the lasscc kernel ABI (16x16 tiles, 256 threads).

    ab = "bf16": A and B are bf16 (widened to f32 as `bits << 16`); d_dtype f32, f16 or bf16
    (bf16 stored with cvt.rn.bf16.f32, round to nearest even)."""
    if d_dtype == "f32":
        shift, load_c, store = 2, "ld.global.f32 %f6, [%rd6];", "st.global.f32 [%rd6], %f3;"
    elif d_dtype == "bf16":
        shift = 1
        load_c = "ld.global.u16 %q1, [%rd6];\n    shl.b32 %q1, %q1, 16;\n    mov.b32 %f6, %q1;"
        store = "cvt.rn.bf16.f32 %h1, %f3;\n    st.global.b16 [%rd6], %h1;"
    else:
        shift = 1
        load_c = "ld.global.b16 %h1, [%rd6];\n    cvt.f32.f16 %f6, %h1;"
        store = "cvt.rn.f16.f32 %h1, %f3;\n    st.global.b16 [%rd6], %h1;"
    if ab == "bf16":
        load_ab = ("ld.global.u16 %q1, [%rd4];\n    ld.global.u16 %q2, [%rd5];\n    shl.b32 %q1, %q1, 16;\n"
                   "    shl.b32 %q2, %q2, 16;\n    mov.b32 %f4, %q1;\n    mov.b32 %f5, %q2;")
    else:
        load_ab = ("ld.global.b16 %h1, [%rd4];\n    ld.global.b16 %h2, [%rd5];\n    cvt.f32.f16 %f4, %h1;\n"
                   "    cvt.f32.f16 %f5, %h2;")
    return f"""
.version 7.0
.target sm_80
.address_size 64
.visible .entry naive_gemm(.param .u64 pA, .param .u64 pB, .param .u64 pD, .param .u32 pM, .param .u32 pN,
                           .param .u32 pK, .param .f32 palpha, .param .f32 pbeta)
{{
    .reg .pred %p<4>;
    .reg .b32 %r<14>;
    .reg .b64 %rd<8>;
    .reg .f32 %f<7>;
    .reg .b16 %h<3>;
    .reg .b32 %q<3>;
    ld.param.u64 %rd1, [pA];
    ld.param.u64 %rd2, [pB];
    ld.param.u64 %rd3, [pD];
    ld.param.u32 %r1, [pM];
    ld.param.u32 %r2, [pN];
    ld.param.u32 %r3, [pK];
    ld.param.f32 %f1, [palpha];
    ld.param.f32 %f2, [pbeta];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd2, %rd2;
    cvta.to.global.u64 %rd3, %rd3;
    add.u32 %r4, %r2, 15;
    shr.u32 %r4, %r4, 4;
    mov.u32 %r5, %ctaid.x;
    div.u32 %r6, %r5, %r4;
    rem.u32 %r7, %r5, %r4;
    mov.u32 %r8, %tid.x;
    shr.u32 %r9, %r8, 4;
    and.b32 %r10, %r8, 15;
    mad.lo.u32 %r11, %r6, 16, %r9;
    mad.lo.u32 %r12, %r7, 16, %r10;
    setp.ge.u32 %p1, %r11, %r1;
    setp.ge.u32 %p2, %r12, %r2;
    or.pred %p1, %p1, %p2;
    @%p1 bra DONE;
    mul.wide.u32 %rd4, %r11, %r3;
    shl.b64 %rd4, %rd4, 1;
    add.s64 %rd4, %rd1, %rd4;
    mul.wide.u32 %rd5, %r12, %r3;
    shl.b64 %rd5, %rd5, 1;
    add.s64 %rd5, %rd2, %rd5;
    mov.f32 %f3, 0f00000000;
    mov.u32 %r13, 0;
LOOP:
    {load_ab}
    fma.rn.f32 %f3, %f4, %f5, %f3;
    add.s64 %rd4, %rd4, 2;
    add.s64 %rd5, %rd5, 2;
    add.u32 %r13, %r13, 1;
    setp.lt.u32 %p3, %r13, %r3;
    @%p3 bra LOOP;
    mul.wide.u32 %rd6, %r11, %r2;
    cvt.u64.u32 %rd7, %r12;
    add.s64 %rd6, %rd6, %rd7;
    shl.b64 %rd6, %rd6, {shift};
    add.s64 %rd6, %rd3, %rd6;
    mul.f32 %f3, %f3, %f1;
    setp.eq.f32 %p3, %f2, 0f00000000;
    @%p3 bra STORE;
    {load_c}
    fma.rn.f32 %f3, %f2, %f6, %f3;
STORE:
    {store}
DONE:
    ret;
}}
"""


@gpu_test
def test_launch_writes_tid():
    module = cuda.load_module(WRITE_TID_PTX)
    try:
        func = cuda.get_function(module, "write_tid")
        n = 1000
        with cuda.DeviceBuffer.from_array(np.full(1024, -1, np.int32)) as out:
            cuda.launch(func, (4, 1, 1), (256, 1, 1), 0, [out, np.int32(n)])
            cuda.synchronize()
            got = out.download(1024, np.int32)
        assert np.array_equal(got[:n], np.arange(n)) and (got[n:] == -1).all()
    finally:
        cuda.unload_module(module)


@gpu_test
def test_launch_float_param_and_attributes_and_timing():
    module = cuda.load_module(WRITE_TID_PTX)
    try:
        func = cuda.get_function(module, "scale_tid")
        with cuda.DeviceBuffer.alloc(128 * 4) as out:
            args = cuda.pack_args([out, np.float32(0.5), np.int32(128)])
            cuda.launch(func, (1,), (128,), 0, args)
            cuda.synchronize()
            assert np.array_equal(out.download(128, np.float32), np.arange(128, dtype=np.float32) * 0.5)
            times = cuda.time_launches(lambda: cuda.launch(func, (1,), (128,), 0, args), warmup=2, iters=5)
        assert len(times) == 5 and all(t > 0 for t in times)
        # the gpu_sleep head start keeps host launch overhead (~10+ us) out of a ~3 us kernel's time
        assert sorted(times)[2] < 0.05
        attrs = cuda.func_attributes(func)
        assert attrs["regs"] > 0 and attrs["local_bytes"] == 0 and attrs["max_threads"] >= 128
        with pytest.raises(LassError, match=r"cuModuleGetFunction\('nope'\) failed: CUDA_ERROR_NOT_FOUND"):
            cuda.get_function(module, "nope")
    finally:
        cuda.unload_module(module)


@gpu_test
def test_dynamic_smem_above_48k_needs_opt_in():
    module = cuda.load_module(WRITE_TID_PTX)
    try:
        func = cuda.get_function(module, "touch_smem")
        nbytes = 64 * 1024
        with cuda.DeviceBuffer.alloc(4) as out:
            args = [out, np.int32(nbytes)]
            with pytest.raises(LassError, match="cuLaunchKernel.*failed: CUDA_ERROR_INVALID_VALUE"):
                cuda.launch(func, (1,), (1,), nbytes, args)
            cuda.set_dynamic_smem(func, nbytes)
            cuda.launch(func, (1,), (1,), nbytes, args)
            cuda.synchronize()
            assert out.download(1, np.uint32)[0] == nbytes
    finally:
        cuda.unload_module(module)


@gpu_test
def test_bad_ptx_reports_jit_log():
    bad = WRITE_TID_PTX.replace("mad.lo.s32 %r2, %r3, %r4, %r2;", "mad.lo.s32 %r2, %r3, %r99, %r2;")
    with pytest.raises(LassError, match=r"cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX[\s\S]*JIT log:[\s\S]*r99"):
        cuda.load_module(bad)


@gpu_test
@pytest.mark.parametrize("d_dtype, beta, m, n, k", [("f32", 0.0, 100, 72, 40), ("f32", 0.5, 64, 48, 33),
                                                     ("f16", 0.0, 50, 64, 64), ("f16", -1.0, 32, 17, 128)])
def test_run_gemm_naive_kernel(d_dtype, beta, m, n, k):
    spec = KernelSpec(name="naive_gemm", threads=256, smem_bytes=0, tile_m=16, tile_n=16, raster=1, a_align=1, b_align=1, d_dtype=d_dtype)
    res = gemm_runner.run_gemm(naive_gemm_ptx(d_dtype), spec, m, n, k, alpha=1.5, beta=beta, seed=1)
    assert res["ok"], gemm_runner.format_report(res, m, n, k)
    assert res["rel_err"] < (1e-6 if d_dtype == "f32" else 1e-3) and res["local_bytes"] == 0 and res["regs"] > 0


@gpu_test
def test_run_gemm_detects_wrong_result():
    spec = KernelSpec(name="naive_gemm", threads=256, smem_bytes=0, tile_m=16, tile_n=16, raster=1, a_align=1, b_align=1)
    # read B as row-major by swapping the roles of A's and B's strides: wrong, must not pass
    wrong = naive_gemm_ptx("f32").replace("mul.wide.u32 %rd5, %r12, %r3;", "mul.wide.u32 %rd5, %r12, 1;")
    res = gemm_runner.run_gemm(wrong, spec, 64, 64, 64, seed=2)
    assert res["ok"] is False


@gpu_test
def test_run_gemm_bench_small():
    spec = KernelSpec(name="naive_gemm", threads=256, smem_bytes=0, tile_m=16, tile_n=16, raster=1, a_align=1, b_align=1)
    res = gemm_runner.run_gemm(naive_gemm_ptx("f32"), spec, 256, 256, 256, bench=True, warmup=2, iters=5, seed=3)
    assert res["ok"] and res["ms_median"] > 0 and res["tflops"] > 0
    if "cublas_ms" in res:
        assert res["cublas_rel_err"] < 1e-2 and res["ratio"] > 0


@gpu_test
@pytest.mark.parametrize("d_dtype, beta, m, n, k", [("f32", 0.0, 100, 72, 40), ("f32", 0.5, 64, 48, 33),
                                                     ("bf16", 0.0, 50, 64, 64), ("bf16", -1.0, 32, 17, 128)])
def test_run_gemm_naive_bf16_kernel(d_dtype, beta, m, n, k):
    spec = KernelSpec(name="naive_gemm", threads=256, smem_bytes=0, tile_m=16, tile_n=16, raster=1, a_align=1, b_align=1,
                      a_dtype="bf16", b_dtype="bf16", d_dtype=d_dtype)
    res = gemm_runner.run_gemm(naive_gemm_ptx(d_dtype, ab="bf16"), spec, m, n, k, alpha=1.5, beta=beta, seed=1)
    assert res["ok"], gemm_runner.format_report(res, m, n, k)
    assert res["rel_err"] < (1e-6 if d_dtype == "f32" else 4e-3) and res["ab_dtype"] == "bf16"


@gpu_test
def test_run_gemm_bf16_data_read_as_f16_fails():
    """The runner really hands bf16 patterns over: an f16 kernel reading them computes garbage."""
    spec = KernelSpec(name="naive_gemm", threads=256, smem_bytes=0, tile_m=16, tile_n=16, raster=1, a_align=1, b_align=1,
                      a_dtype="bf16", b_dtype="bf16")
    res = gemm_runner.run_gemm(naive_gemm_ptx("f32", ab="f16"), spec, 64, 64, 64, seed=2)
    assert res["ok"] is False


@gpu_test
@pytest.mark.parametrize("d_dtype, beta", [("f32", 0.0), ("f32", 0.5), ("bf16", 0.0), ("bf16", 0.5)])
def test_run_gemm_bench_bf16_beside_cublas(d_dtype, beta):
    spec = KernelSpec(name="naive_gemm", threads=256, smem_bytes=0, tile_m=16, tile_n=16, raster=1, a_align=1, b_align=1,
                      a_dtype="bf16", b_dtype="bf16", d_dtype=d_dtype)
    res = gemm_runner.run_gemm(naive_gemm_ptx(d_dtype, ab="bf16"), spec, 256, 256, 256, alpha=1.5, beta=beta,
                               bench=True, warmup=2, iters=5, seed=3)
    assert res["ok"] and res["ms_median"] > 0
    if "cublas_ms" in res:  # torch with CUDA: cuBLAS on torch.bfloat16 tensors of the same patterns
        assert res["cublas_rel_err"] < 1e-2, res  # without out_dtype torch's output is bf16
        assert "float32" in res["cublas_op"] or "bf16" in res["cublas_op"], res["cublas_op"]


BF16_GEMM = """func.func @gemm(%a: memref<?x?xbf16>, %b: memref<?x?xbf16, strided<[1, ?]>>, %d: memref<?x?x{dt}>) {{
  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32, config = {{threadblock = [{tb}], warp = [{w}], stages = {s}}}}}
      ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16, strided<[1, ?]>>) outs(%d : memref<?x?x{dt}>)
  func.return
}}
"""


@gpu_test
@pytest.mark.parametrize("dt, tb, w, s, m, n, k, beta", [
    ("f32", "128, 128, 32", "64, 64, 32", 3, 520, 264, 136, 0.0),
    ("f32", "64, 64, 32", "32, 32, 32", 2, 200, 136, 64, 0.5),
    ("bf16", "128, 128, 32", "64, 64, 32", 3, 256, 384, 512, 0.5),
    ("bf16", "64, 64, 32", "32, 32, 32", 4, 100, 72, 48, 0.0),
])
def test_run_gemm_compiled_bf16_kernel(dt, tb, w, s, m, n, k, beta):
    """The compiler's bf16 kernel (mma.sync ... .bf16) on the GPU against the float64 reference."""
    from xdsl.parser import Parser

    from lasscc.driver import compile_module
    from lasscc.universe import make_context

    module = Parser(make_context(), BF16_GEMM.format(dt=dt, tb=tb, w=w, s=s)).parse_module()
    try:
        res = compile_module(module)
    except LassError as e:
        pytest.skip(f"the compiler does not take a bf16 lass.gemm yet: {e}")
    spec = res.specs[0]
    assert spec.a_dtype == spec.b_dtype == "bf16" and spec.d_dtype == dt
    out = gemm_runner.run_gemm(res.ptx, spec, m, n, k, alpha=1.5, beta=beta, seed=4)
    assert out["ok"], gemm_runner.format_report(out, m, n, k)
    assert out["rel_err"] < (1e-5 if dt == "f32" else 4e-3) and out["local_bytes"] == 0
