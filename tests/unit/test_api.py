"""The Python API (lasscc/api.py): compile from a path, a string or shapes; stages; errors with the
CLI's text; the kernel's operand checks without a GPU; real launches (numpy, torch, cupy, DLPack) with one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import lasscc
from lasscc.diagnostics import LassError
from lasscc.driver import PASS_NAMES
from lasscc.runtime import cuda
from lit_zygote import lasscc_command  # tests/lit_zygote.py: the CLI through the suite's fork server

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "gemm.mlir"
SMALL = ROOT / "examples" / "gemm_small_tiles.mlir"
_REASON = cuda.driver_status()


def gpu_test(fn):
    return pytest.mark.gpu(pytest.mark.skipif(_REASON is not None, reason=f"needs a GPU: {_REASON}")(fn))


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    # one cache for the whole module (the same kernels are compiled by several tests)
    monkeypatch.setenv("LASSCC_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "api-cache"))


@pytest.fixture
def small():
    return lasscc.compile(SMALL, arch="sm_80")  # (a Hopper host's own default is sm_90a)


def test_import_lasscc_stays_light():
    code = "import sys, lasscc; print('xdsl' in sys.modules, 'numpy' in sys.modules, 'lasscc.api' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.split() == ["False", "False", "False"], out.stderr
    assert issubclass(lasscc.CompileError, LassError) and issubclass(lasscc.LaunchError, LassError)
    assert lasscc.compile_gemm is lasscc.gemm


def test_compile_from_path_string_and_pathlike(small):
    assert small.spec.name == "gemm_small" and small.arch == "sm_80"
    assert small.config.threadblock == (64, 64, 32) and small.config.warp == (32, 32, 32)
    assert (small.spec.tile_m, small.spec.tile_n, small.spec.tile_k, small.spec.threads) == (64, 64, 32, 128)
    assert small.spec.smem_bytes == 3 * (64 + 64) * 32 * 2
    assert ".entry gemm_small" in small.ptx and "mma.sync.aligned.m16n8k16" in small.ptx
    assert "define" in small.llvm_ir
    from_text = lasscc.compile(SMALL.read_text(), arch="sm_80")
    assert from_text.ptx == small.ptx and from_text.filename == "<string>"
    from_str_path = lasscc.compile(str(SMALL), arch="sm_80")
    assert from_str_path.ptx == small.ptx and from_str_path.cache_hit


def test_overrides_like_the_cli(small):
    k = lasscc.compile(SMALL, stages=4, raster=4)
    assert k.config.stages == 4 and k.config.raster == 4 and k.spec.smem_bytes == 4 * (64 + 64) * 32 * 2
    assert "stages = 4" in k.ir("input")
    with pytest.raises(lasscc.CompileError, match="option --threadblock: expected 3 positive integers"):
        lasscc.compile(SMALL, threadblock=(64, 64))
    with pytest.raises(lasscc.CompileError, match="option --stages: expected a positive integer"):
        lasscc.compile(SMALL, stages=0)


def test_gemm_from_shapes_matches_the_file():
    k = lasscc.gemm(threadblock=(64, 64, 32), warp=(32, 32, 32), stages=3, name="gemm_small")
    ref = lasscc.compile(SMALL)
    assert k.ptx == ref.ptx  # same kernel: the config written out equals the file's (raster default 8)
    assert k.alpha == 1.0 and k.beta == 0.0
    f16 = lasscc.gemm(d_dtype="f16", beta=0.5, threadblock="64x64x32", warp=[32, 32, 32], stages=2)
    assert f16.spec.d_dtype == "f16" and f16.beta == 0.5 and f16.config.stages == 2
    assert "outs(%d : memref<?x?xf16>)" in lasscc.gemm_mlir(d_dtype="f16")


def test_gemm_mlir_text_parses_with_any_alpha():
    from lasscc.dialects.lass import GemmOp
    from lasscc.source import parse_mlir

    for alpha in (1e-5, 2, 0.1, -3.5e12):
        module = parse_mlir(lasscc.gemm_mlir(alpha=alpha, beta=1), "<t>")
        (op,) = [o for o in module.walk() if isinstance(o, GemmOp)]
        assert op.alpha_value == pytest.approx(alpha, rel=1e-6) and op.beta_value == 1.0
    assert "strided<[1, ?]>" in lasscc.gemm_mlir()


def test_gemm_module_is_built_with_xdsl():
    """gemm_module builds the op (no text parsed); gemm_mlir is its printed form, which parses back
    to the same module."""
    from lasscc.api import gemm_module
    from lasscc.dialects._common import memref_layout
    from lasscc.dialects.lass import GemmOp
    from lasscc.source import parse_mlir

    module = gemm_module(layout="NT", d_layout="col", acc="f16", alpha=0.1, name="g")
    module.verify()
    (op,) = [o for o in module.walk() if isinstance(o, GemmOp)]
    assert [memref_layout(v.type) for v in (op.a, op.b, op.d)] == ["col", "row", "col"]
    assert str(op.acc) == "f16" and op.alpha_value == pytest.approx(0.1) and op.config.data["stages"].value.data == 3
    text = lasscc.gemm_mlir(layout="NT", d_layout="col", acc="f16", alpha=0.1, name="g")
    assert text.splitlines()[1:] == str(module).splitlines()
    assert str(parse_mlir(text, "<t>")) == str(module)


@pytest.mark.parametrize("kwargs,param", [
    # not a dtype / layout / tile at all: gemm_mlir refuses before writing any text
    ({"layout": "row"}, "layout"), ({"d_dtype": "nope"}, "d_dtype"), ({"a_dtype": object()}, "a_dtype"),
    ({"threadblock": (128, 128)}, "threadblock"), ({"warp": "64x64"}, "warp"), ({"stages": 0}, "stages"),
    ({"alpha": float("nan")}, "alpha"), ({"name": "1bad"}, "name"),
    # what the compiler does not support yet: its operand checks, reported under the parameter
    ({"a_dtype": "f64"}, "a_dtype"),
    ({"b_dtype": "f32"}, "b_dtype"), ({"d_dtype": "f64"}, "d_dtype"), ({"a_dtype": "bf16", "d_dtype": "f16"}, "d_dtype"),
])
def test_gemm_rejects_unsupported_parameters_by_name(kwargs, param):
    with pytest.raises(lasscc.CompileError, match=f"^gemm: {param}:") as e:
        lasscc.gemm(**kwargs)
    if param in ("layout", "a_dtype", "b_dtype", "d_dtype") and "not supported yet" in str(e.value):
        assert "<lasscc.gemm>:" in str(e.value)  # the compiler's own diagnostic follows


def test_gemm_bf16():
    k = lasscc.gemm(a_dtype="bf16", threadblock=(64, 64, 32), warp=(32, 32, 32))
    assert (k.spec.a_dtype, k.spec.b_dtype, k.spec.d_dtype) == ("bf16", "bf16", "f32")
    assert "bf16" in k.ptx


def test_gemm_accepts_numpy_dtypes():
    assert lasscc.gemm_mlir(a_dtype=np.float16, d_dtype=np.float16) == lasscc.gemm_mlir(d_dtype="f16")
    assert lasscc.gemm_mlir(d_dtype="float32") == lasscc.gemm_mlir()


def test_config_errors_come_from_the_compiler():
    with pytest.raises(lasscc.CompileError, match=r"<lasscc.gemm>:\d+:\d+: error: config: expected warp tile 48x64 to divide"):
        lasscc.gemm(warp=(48, 64, 32))


def test_ir_stages(small):
    assert small.ir("input").lstrip().startswith("builtin.module")
    assert small.ir("pipeline") == small.ir("lasscc-pipeline") == small.stages["lasscc-pipeline"]
    assert "lass_pipe.ring" in small.ir("pipeline")
    assert "lass_nv.mma_sync" in small.ir("warp-mma")
    assert small.ir("llvm") == small.llvm_ir and small.ir("ptx") == small.ptx
    for name in PASS_NAMES:
        assert small.ir(name) == small.stages[name]
        assert small.ir(name.removeprefix("lasscc-")) == small.stages[name]
    with pytest.raises(lasscc.CompileError) as e:
        small.ir("nonsense")
    msg = str(e.value)
    assert "unknown stage 'nonsense'" in msg
    for name in ["input", *PASS_NAMES, "llvm", "ptx", "pipeline"]:
        assert name in msg


def test_resources(small, monkeypatch):
    r = small.resources
    assert r["dynamic_shared_bytes"] == small.spec.smem_bytes
    if r["registers"] is not None:
        assert 0 < r["registers"] <= 255 and r["spill_stores"] == 0
        assert r["shared_bytes"] == r["static_shared_bytes"] + r["dynamic_shared_bytes"]
        assert r["ptxas"].startswith("ptxas info")
    import shutil

    monkeypatch.setattr(shutil, "which", lambda name: None)
    k = lasscc.compile(SMALL)
    r = k.resources
    assert r["registers"] is None and r["spill_stores"] is None and r["shared_bytes"] is None
    assert r["dynamic_shared_bytes"] == k.spec.smem_bytes


def _cli_error(path: Path) -> str:
    p = subprocess.run([*lasscc_command(), "compile", str(path), "--no-cache"], capture_output=True,
                       text=True, cwd=ROOT)
    assert p.returncode == 2
    return p.stderr.strip()


@pytest.mark.parametrize("edit", [
    lambda t: t.replace("ins(", "inz("),
    lambda t: t.replace("strided<[1, ?]>", "strided<[?, 2]>"),  # neither row- nor column-major
    lambda t: t.replace("warp = [32, 32, 32]", "warp = [48, 32, 32]"),
])
def test_errors_carry_the_cli_text(tmp_path, edit):
    bad = tmp_path / "bad.mlir"
    bad.write_text(edit(SMALL.read_text()))
    with pytest.raises(lasscc.CompileError) as e:
        lasscc.compile(bad)
    assert str(e.value).strip() == _cli_error(bad)
    assert str(e.value).startswith(f"{bad}:")


def test_missing_file_and_not_mlir():
    with pytest.raises(lasscc.CompileError, match=r"^missing\.mlir: error: no such file$"):
        lasscc.compile("missing.mlir")
    with pytest.raises(lasscc.CompileError, match="expected a path or MLIR text"):
        lasscc.compile(42)
    with pytest.raises(lasscc.CompileError, match="arch: expected one of sm_80, sm_90a"):
        lasscc.compile(SMALL, arch="sm_70")


# ---- the operands, without a GPU ---------------------------------------------------------------


def _arrays(m=128, n=64, k=64, d_dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    return a, b, np.zeros((m, n), d_dtype)


class _FakeCAI:
    """An object exposing __cuda_array_interface__ (no memory behind it: for the checks only)."""

    def __init__(self, shape, typestr="<f2", strides=None, ptr=0x7F0000000000):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "data": (ptr, False),
                                         "strides": strides, "version": 3, "stream": None}


class _FakeCPUTensor:
    def __dlpack__(self, stream=None):
        raise AssertionError("not reached")

    def __dlpack_device__(self):
        return (1, 0)


@pytest.mark.parametrize("make,match", [
    (lambda a, b, d: (a.astype(np.float32), b, d), "a: expected dtype f16"),
    (lambda a, b, d: (a, b, d.astype(np.float16)), "d: expected dtype f32"),
    (lambda a, b, d: (a, b[:32], d), r"b: expected K x N with K = 64"),
    (lambda a, b, d: (a, b, d[:64]), r"d: expected M x N = 128 x 64"),
    (lambda a, b, d: (a.tolist(), b, d), "a: expected a numpy array or a CUDA array"),
    (lambda a, b, d: (a[None], b, d), "a: expected a 2-d array"),
    (lambda a, b, d: (_FakeCPUTensor(), b, d), "a: a _FakeCPUTensor in CPU memory"),
    (lambda a, b, d: (_FakeCAI((128, 64), strides=(2, 256)), b, d), r"a: expected M x K row-major"),
    (lambda a, b, d: (a, _FakeCAI((64, 64)), d), r"b: expected K x N column-major"),
    (lambda a, b, d: (a, b, _FakeCAI((128, 64), "<f4", strides=(4, 512))), r"d: expected M x N row-major"),
    (lambda a, b, d: (a, _FakeCAI((64, 64), "<f4", strides=(4, 256)), d), r"b: expected dtype f16"),
])
def test_operand_checks(small, make, match):
    a, b, d = make(*_arrays())
    with pytest.raises(lasscc.LaunchError, match=match):
        small(a, b, d)


def test_explicit_align_checks_the_sizes():
    """A kernel compiled with align = (8, 8) reads 16 bytes at a time: K = 60 is refused; without an
    explicit align the kernel would run an align = (4, 4) variant (tests/unit/test_align.py)."""
    k = lasscc.compile(SMALL, align=(8, 8))
    assert not k.auto_align and (k.spec.a_align, k.spec.b_align) == (8, 8)
    a, b, d = _arrays()
    with pytest.raises(lasscc.LaunchError, match=r"K = 60: expected a multiple of 8 \(a row-major A and a column-major "
                                                 r"B are read along K in 16-byte accesses\)"):
        k(a[:, :60], b[:60], d)


def test_read_only_d_and_bad_scalars(small):
    a, b, d = _arrays()
    d.flags.writeable = False
    with pytest.raises(lasscc.LaunchError, match="d: the array is read-only"):
        small(a, b, d)
    a, b, d = _arrays()
    with pytest.raises(lasscc.LaunchError, match="alpha: expected a finite number"):
        small(a, b, d, alpha=float("inf"))
    with pytest.raises(lasscc.LaunchError, match="target: expected 'gpu' or 'cpu'"):
        small(a, b, d, target="tpu")


@pytest.mark.skipif(_REASON is None, reason="a GPU is present: the launch would run")
def test_valid_numpy_without_gpu_is_a_plain_error(small):
    a, b, d = _arrays()
    with pytest.raises(LassError, match="no GPU to run on") as e:
        small(a, b, d)
    assert isinstance(e.value, lasscc.LaunchError) and _REASON in str(e.value)


def test_cpu_target_any_m_n(small):
    """target='cpu': the swizzled per-thread IR on the CPU executor (edges of M and N predicated)."""
    a, b, d = _arrays(m=96, n=80, k=64)
    d[:] = 1.0
    out = small(a, b, d, alpha=2.0, beta=0.5, target="cpu")
    assert out is d
    ref = 2.0 * (a.astype(np.float64) @ b.astype(np.float64)) + 0.5
    assert np.linalg.norm(d - ref) / np.linalg.norm(ref) < 1e-3
    bf = np.asfortranarray(b)  # a Fortran-ordered B is the column-major layout itself
    d2 = np.zeros_like(d)
    small(a, bf, d2, alpha=2.0, target="cpu")
    np.testing.assert_allclose(d2, 2.0 * (a.astype(np.float64) @ b.astype(np.float64)), rtol=1e-3, atol=1e-3)


# ---- on a GPU ----------------------------------------------------------------------------------


def _ref(a, b, alpha=1.0, beta=0.0, c=None):
    r = alpha * (np.asarray(a, np.float64) @ np.asarray(b, np.float64))
    return r + beta * c if c is not None else r


@gpu_test
@pytest.mark.parametrize("d_dtype", ["f32", "f16"])
def test_gpu_numpy(d_dtype):
    k = lasscc.gemm(d_dtype=d_dtype, threadblock=(64, 64, 32), warp=(32, 32, 32))
    np_dt = np.float32 if d_dtype == "f32" else np.float16
    a, b, d = _arrays(m=192, n=136, k=96, d_dtype=np_dt)
    c = np.random.default_rng(3).uniform(-1, 1, d.shape).astype(np_dt)
    d[:] = c
    k(a, b, d, alpha=0.5, beta=2.0)
    ref = _ref(a, b, 0.5, 2.0, c.astype(np.float64))
    tol = 1e-3 if d_dtype == "f32" else 1e-2
    assert np.linalg.norm(d.astype(np.float64) - ref) / np.linalg.norm(ref) < tol
    d2 = np.full(d.shape, np.nan, np_dt)
    k(a, np.asfortranarray(b), d2)  # beta = 0: D is not read (NaN stays out)
    assert np.linalg.norm(d2.astype(np.float64) - _ref(a, b)) / np.linalg.norm(_ref(a, b)) < tol


@gpu_test
def test_gpu_torch_bf16():
    """torch bf16 CUDA tensors (their __cuda_array_interface__ says "<V2": raw bytes) reach the kernel
    through DLPack: a bf16 -> f32 GEMM checked against float64."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    k = lasscc.gemm(a_dtype="bf16", d_dtype="f32", threadblock=(64, 64, 32), warp=(32, 32, 32))
    a = torch.randn(192, 96, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(136, 96, device="cuda", dtype=torch.bfloat16).t()
    d = torch.full((192, 136), float("nan"), device="cuda", dtype=torch.float32)
    k(a, b, d, sync=True)
    ref = a.double() @ b.double()
    assert ((d.double() - ref).norm() / ref.norm()).item() < 1e-5


@gpu_test
def test_gpu_torch_in_place():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    k = lasscc.compile(SMALL)
    m, n, kk = 256, 192, 128
    a = torch.randn(m, kk, device="cuda", dtype=torch.float16)
    b_nk = torch.randn(n, kk, device="cuda", dtype=torch.float16)
    d = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
    assert k(a, b_nk.t(), d) is d
    torch.cuda.synchronize()
    ref = a.double() @ b_nk.double().t()
    assert ((d.double() - ref).norm() / ref.norm()).item() < 1e-3
    with pytest.raises(lasscc.LaunchError, match="b: expected K x N column-major"):
        k(a, b_nk.t().contiguous(), d)
    with pytest.raises(lasscc.LaunchError, match="a: a Tensor in CPU memory"):
        k(a.cpu(), b_nk.t(), d)
    with pytest.raises(lasscc.LaunchError, match="d: expected dtype f32"):
        k(a, b_nk.t(), d.half())

    class OnlyDLPack:  # a producer with DLPack only (no __cuda_array_interface__)
        def __init__(self, t):
            self.t = t

        def __dlpack__(self, stream=None):
            return self.t.__dlpack__()

        def __dlpack_device__(self):
            return self.t.__dlpack_device__()

    d.fill_(float("nan"))
    k(OnlyDLPack(a), OnlyDLPack(b_nk.t()), OnlyDLPack(d), sync=True)
    assert ((d.double() - ref).norm() / ref.norm()).item() < 1e-3
    # a side stream: the producer's pending work is waited for
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        a2 = a * 2
        d.fill_(float("nan"))
        k(a2, b_nk.t(), d, sync=True)
    assert ((d.double() - 2 * ref).norm() / ref.norm()).item() < 2e-3


@gpu_test
def test_gpu_cupy_in_place():
    cp = pytest.importorskip("cupy")
    k = lasscc.compile(SMALL)
    a, b, _ = _arrays(m=128, n=128, k=64)
    da, db = cp.asarray(a), cp.asfortranarray(cp.asarray(b))
    dd = cp.zeros((128, 128), dtype=cp.float32)
    k(da, db, dd, sync=True)
    assert np.linalg.norm(cp.asnumpy(dd) - _ref(a, b)) / np.linalg.norm(_ref(a, b)) < 1e-3


def test_prefetch_option():
    import lasscc

    k = lasscc.gemm(threadblock=(128, 256, 32), stages=4, prefetch=True, cache=False)
    assert k.config.prefetch == 1 and "prefetch = 1" in k.ir("tile-threadblock")
    with pytest.raises(lasscc.CompileError, match="option --prefetch: expected 0 or 1"):
        lasscc.gemm(prefetch=3, cache=False)
