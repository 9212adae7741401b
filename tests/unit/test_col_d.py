"""Column-major D (`outs(%d : memref<?x?xf32, strided<[1, ?]>>)`, examples/gemm_col_d.mlir).

D is M x N with element (i, j) at j*M + i: on the host an N x M row-major array `d_nm` (or a
Fortran-ordered M x N array).  lasscc-tile-threadblock computes it as D^T = B^T . A^T, the row-major
TN kernel with the operands swapped (KernelFacts.swap_ab); every launcher hands that kernel
(B, A, D, N, M, K) and N x M tiles (KernelSpec.launch_args / grid):

* CPU executor: run_check after every pass (level 0's strided memref included), stages 2 and 3,
  f32 and f16 D, ragged M and N, beta 0 (D poisoned with NaN) and beta != 0; execute_kernel takes
  the user's (M, N, K, A, B, D) at every level; `lasscc run --target cpu --check`.
* GPU runner (run_gemm): without a GPU through a fake driver that executes the kernel's contract
  (row-major TN on its own parameters), so the argument order, grid, D's layout and the check are
  tested here; on a GPU (`gpu` marker) with the compiled examples/gemm_col_d.mlir.
* Python API: `lasscc.gemm(d_layout="col")`, the shape / stride checks of D (clean LaunchError),
  target='cpu', and the GPU path through the same fake driver.
"""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

import numpy as np
import pytest

import lasscc
from lasscc.config import KernelSpec
from lasscc.diagnostics import LassError
from lasscc.dialects.lass import kernel_facts
from lasscc.interp import KernelArgumentError, execute_kernel, run_check
from lasscc.interp.check import make_inputs, reference, rel_error
from lasscc.interp.executor import find_kernel
from lasscc.driver import make_pass, run_pass
from lasscc.runtime import cuda, gemm_runner
from lasscc.source import parse_mlir
from lit_zygote import lasscc_command  # tests/lit_zygote.py: the CLI through the suite's fork server

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "gemm_col_d.mlir"
_REASON = cuda.driver_status()


def gpu_test(fn):
    return pytest.mark.gpu(pytest.mark.skipif(_REASON is not None, reason=f"needs a GPU: {_REASON}")(fn))


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("LASSCC_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "col-d-cache"))


COL = "strided<[1, ?]>"
GEMM = """func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?x{dt}, strided<[1, ?]>>) {{
  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {{threadblock = [64, 64, 32], warp = [32, 32, 32], instruction = [16, 8, 16], stages = {s}}}}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?x{dt}, strided<[1, ?]>>)
  func.return
}}
"""
EXEC_PASSES = ["lasscc-tile-threadblock", "lasscc-pipeline", "lasscc-warp-mma", "lasscc-swizzle-smem"]
STAGES = ["input"] + EXEC_PASSES


@functools.lru_cache(maxsize=None)
def stage_modules(stages: int, dt: str) -> dict:
    """{'input': the lass.gemm module, pass: the module after it}, passes applied one at a time."""
    module = parse_mlir(GEMM.format(dt=dt, s=stages), f"<col-d-s{stages}-{dt}>")
    out = {"input": module.clone()}
    for name in EXEC_PASSES:
        run_pass(module, make_pass(name, "sm_80"))
        out[name] = module.clone()
    return out


# ---- CPU executor ------------------------------------------------------------------------------


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("stages", [2, 3])
@pytest.mark.parametrize("dt", ["f32", "f16"])
@pytest.mark.parametrize("m,n,k,alpha,beta", [(72, 40, 40, 1.0, 0.0), (100, 136, 64, 1.5, -0.75),
                                              (72, 40, 40, 0.5, 2.0), (100, 136, 64, 1.0, 0.0)])
def test_run_check_every_pass(stage, stages, dt, m, n, k, alpha, beta):
    module = stage_modules(stages, dt)[stage]
    r = run_check(module, m, n, k, seed=m + n + stages, alpha=alpha, beta=beta, report_banks=False)
    assert r["ok"], (stage, r["rel_err"])
    assert r["d_layout"] == "col" and r["d"].shape == (m, n)
    assert r["level"] == STAGES.index(stage)
    if stage != "input":
        assert kernel_facts(find_kernel(module)).swap_ab


@pytest.mark.parametrize("stage", STAGES)
def test_execute_kernel_takes_the_users_operands(stage):
    """Every level: execute_kernel(m, n, k, A, B, D) with D's N x M storage; the result is (A.B)^T
    there (M != N, so a kernel fed unswapped operands could not pass)."""
    m, n, k = 100, 72, 40
    a, b_nk, c, d = make_inputs(m, n, k, seed=5, beta=0.5)
    d_nm = np.ascontiguousarray(d.T)
    execute_kernel(stage_modules(2, "f32")[stage], m, n, k, a, b_nk, d_nm, 1.0, 0.5)
    ref = reference(a, b_nk, c, 1.0, 0.5)
    assert rel_error(d_nm, ref.T) < 1e-6
    assert rel_error(np.ascontiguousarray(d_nm).reshape(-1), ref.reshape(-1, order="F")) < 1e-6


def test_swapped_kernel_names_the_users_operands_in_errors():
    m, n, k = 72, 40, 40
    a, b_nk, _, d = make_inputs(m, n, k, seed=1, beta=0.0)
    mod = stage_modules(2, "f32")["lasscc-swizzle-smem"]
    with pytest.raises(KernelArgumentError, match=r"B \(the kernel's A: swap_ab\) to have 1600 elements"):
        execute_kernel(mod, m, n, k, a, b_nk[:, :32], d.T.copy(), 1.0, 0.0)
    with pytest.raises(KernelArgumentError, match=r"D \(column-major\) to have 2880 elements"):
        execute_kernel(mod, m, n, k, a, b_nk, d[:, :8].copy(), 1.0, 0.0)


def test_row_major_d_unchanged():
    """A row-major D module still takes and returns D M x N row-major."""
    text = GEMM.format(dt="f32", s=2).replace(f"xf32, {COL}>", "xf32>")
    module = parse_mlir(text, "<row-d>")
    for name in EXEC_PASSES:
        run_pass(module, make_pass(name, "sm_80"))
    assert not kernel_facts(find_kernel(module)).swap_ab
    r = run_check(module, 72, 40, 40, seed=2, beta=0.5, report_banks=False)
    assert r["ok"] and r["d_layout"] == "row"


def test_cli_cpu_check():
    p = subprocess.run([*lasscc_command(), "run", str(EXAMPLE), "--target", "cpu", "--m", "100",
                        "--n", "72", "--k", "40", "--check", "--no-cache"], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "PASS" in p.stdout and "D col-major" in p.stdout


# ---- GPU runner through a fake driver ----------------------------------------------------------


class FakeCuda:
    """Just enough of lasscc.runtime.cuda for run_gemm and Kernel._run_gpu: device buffers are
    byte arrays, and a launch runs the kernel's contract on its own parameters: D (M x N row-major)
    = alpha * A (M x K row-major) . B^T (B N x K row-major) + beta * D, in float64."""

    def __init__(self, ab=np.float16, dt=np.float32):
        self.ab, self.dt = np.dtype(ab), np.dtype(dt)
        self.mem: dict[int, np.ndarray] = {}
        self.launches: list = []
        fake = self

        class Buf:
            _next = 0x1000

            def __init__(self, nbytes):
                self.ptr, self.nbytes = Buf._next, int(nbytes)
                Buf._next += self.nbytes + 256
                fake.mem[self.ptr] = np.zeros(self.nbytes, np.uint8)

            @classmethod
            def alloc(cls, nbytes):
                return cls(nbytes)

            @classmethod
            def from_array(cls, arr):
                buf = cls(arr.nbytes)
                buf.upload(arr)
                return buf

            def upload(self, arr):
                fake.mem[self.ptr][:] = np.ascontiguousarray(arr).view(np.uint8).reshape(-1)

            def download(self, shape, dtype):
                return fake.mem[self.ptr].view(dtype).reshape(shape).copy()

            def free(self):
                pass

        self.DeviceBuffer = Buf

    def context(self):
        pass

    def load_module(self, ptx):
        return "module"

    def get_function(self, module, name):
        return name

    def set_dynamic_smem(self, func, nbytes):
        pass

    def func_attributes(self, func):
        return {"regs": 1, "local_bytes": 0, "static_smem_bytes": 0}

    def pack_args(self, args):
        return list(args)

    def synchronize(self):
        pass

    def unload_module(self, module):
        pass

    def launch(self, func, grid, block, smem, args):
        a, b, d, m, n, k, alpha, beta = args
        assert all(isinstance(x, np.int32) for x in (m, n, k)) and isinstance(alpha, np.float32)
        mem = [self.mem[int(x.ptr if hasattr(x, "ptr") else x)] for x in (a, b, d)]
        m, n, k = int(m), int(n), int(k)
        A = mem[0].view(self.ab).reshape(m, k).astype(np.float64)
        B = mem[1].view(self.ab).reshape(n, k).astype(np.float64)
        D = mem[2].view(self.dt).reshape(m, n)
        out = float(alpha) * (A @ B.T)
        if float(beta) != 0:
            out += float(beta) * D.astype(np.float64)
        D[...] = out.astype(self.dt)
        self.launches.append({"grid": tuple(grid), "m": m, "n": n, "k": k})


def _spec(col: bool, d_dtype="f32") -> KernelSpec:
    return KernelSpec(name="gemm", threads=128, smem_bytes=0, tile_m=64, tile_n=32, raster=1, d_dtype=d_dtype,
                      swap_ab=col, d_layout="col" if col else "row")


@pytest.mark.parametrize("col", [True, False])
@pytest.mark.parametrize("d_dtype,beta", [("f32", 0.0), ("f32", 0.5), ("f16", -1.0)])
def test_run_gemm_feeds_the_kernels_order(monkeypatch, col, d_dtype, beta):
    fake = FakeCuda(dt=gemm_runner.NP_DTYPE[d_dtype])
    monkeypatch.setattr(gemm_runner, "cuda", fake)
    m, n, k = 100, 72, 40
    spec = _spec(col, d_dtype)
    res = gemm_runner.run_gemm("", spec, m, n, k, alpha=1.5, beta=beta, seed=4)
    assert res["ok"], res
    assert res["rel_err"] < (1e-6 if d_dtype == "f32" else 1e-3)
    assert res["d_layout"] == spec.d_layout
    (launch,) = fake.launches
    # the kernel sees N x M for a column-major D: its M is our N, its grid N x M tiles of 64 x 32
    assert (launch["m"], launch["n"]) == ((n, m) if col else (m, n))
    assert launch["grid"] == spec.grid(m, n) == ((2 * 4, 1, 1) if col else (2 * 3, 1, 1))
    assert ("col-major" in gemm_runner.format_report(res, m, n, k)) == col


def test_run_gemm_col_spec_wrongly_launched_fails(monkeypatch):
    """A column-major D read back as if row-major (the kernel not swapped) does not pass."""
    fake = FakeCuda()
    monkeypatch.setattr(gemm_runner, "cuda", fake)
    spec = _spec(True)
    monkeypatch.setattr(KernelSpec, "launch_args", lambda self, a, b, d, m, n, k, al, be: [a, b, d, m, n, k, al, be])
    res = gemm_runner.run_gemm("", spec, 100, 72, 40, seed=4)
    assert res["ok"] is False


def test_runner_accepts_col_and_refuses_inconsistent_spec():
    with pytest.raises(LassError, match="K = 0"):  # the layout passes the checks
        gemm_runner.run_gemm("", _spec(True), 64, 64, 0)
    bad = KernelSpec(name="k", threads=128, smem_bytes=0, tile_m=64, tile_n=64, raster=1, d_layout="col")
    with pytest.raises(LassError, match="d_layout = 'col' with swap_ab = False"):
        gemm_runner.run_gemm("", bad, 64, 64, 64)


# ---- Python API --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def col_kernel():
    return lasscc.gemm(d_layout="col", threadblock=(64, 64, 32), warp=(32, 32, 32), stages=2, cache=False)


def _arrays(m=72, n=40, k=40, seed=0, dt=np.float32):
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    c = rng.uniform(-1, 1, (m, n)).astype(dt)
    return a, b, c


def _ref(a, b, alpha=1.0, beta=0.0, c=None):
    r = alpha * (a.astype(np.float64) @ b.astype(np.float64))
    return r + beta * c.astype(np.float64) if c is not None else r


class _FakeCAI:
    def __init__(self, shape, typestr="<f4", strides=None, ptr=0x7F0000000000):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "data": (ptr, False),
                                         "strides": strides, "version": 3, "stream": None}


def test_gemm_d_layout_parameter(col_kernel):
    text = lasscc.gemm_mlir(d_layout="col")
    assert f"outs(%d : memref<?x?xf32, {COL}>)" in text
    assert lasscc.gemm_mlir() == lasscc.gemm_mlir(d_layout="row")
    assert col_kernel.spec.d_layout == "col" and col_kernel.spec.swap_ab
    assert "col-major" in repr(col_kernel)
    assert lasscc.gemm_mlir(d_layout="column-major") == text
    with pytest.raises(lasscc.CompileError, match="gemm: d_layout: expected 'row'.* or 'col'"):
        lasscc.gemm_mlir(d_layout="diagonal")


@pytest.mark.parametrize("make,match", [
    # D given as its N x M storage instead of the M x N matrix
    (lambda a, b, c: (a, b, np.zeros((40, 72), np.float32)),
     r"d: expected M x N = 72 x 40, got shape \(40, 72\); kernel 'gemm' writes a column-major D"),
    # a CUDA array M x N row-major: the wrong order for this kernel
    (lambda a, b, c: (a, b, _FakeCAI((72, 40), strides=(160, 4))),
     r"d: kernel 'gemm' writes a column-major D: expected M x N column-major \(element strides \(1, 72\)\), "
     r"got strides \(40, 1\)"),
    (lambda a, b, c: (a, b, _FakeCAI((72, 40))), r"got strides \(40, 1\)"),  # no strides: C-contiguous
])
def test_api_rejects_wrong_order_d(col_kernel, make, match):
    a, b, d = make(*_arrays())
    with pytest.raises(lasscc.LaunchError, match=match):
        col_kernel(a, b, d)


def test_api_accepts_column_major_cuda_d_strides(col_kernel):
    a, b, _ = _arrays()
    ops = col_kernel.check_operands(a, b, _FakeCAI((72, 40), strides=(4, 288)))
    assert ops[3:] == (72, 40, 40)


@pytest.mark.parametrize("order", ["F", "C"])
def test_api_cpu_target(col_kernel, order):
    a, b, c = _arrays(m=100, n=72, k=40, seed=1)
    d = np.array(c, order=order)
    out = col_kernel(a, b, d, alpha=1.5, beta=0.5, target="cpu")
    assert out is d
    ref = _ref(a, b, 1.5, 0.5, c)
    assert np.linalg.norm(d - ref) / np.linalg.norm(ref) < 1e-5


@pytest.mark.parametrize("order", ["F", "C"])
@pytest.mark.parametrize("beta", [0.0, 0.5])
def test_api_gpu_path_through_fake_driver(col_kernel, order, beta):
    """Kernel._run_gpu: D uploaded / downloaded as N x M storage, arguments in the kernel's order."""
    fake = FakeCuda()
    a, b, c = _arrays(m=100, n=72, k=40, seed=2)
    A, B, D, m, n, k = col_kernel.check_operands(a, b, np.array(c, order=order))
    col_kernel._func = None
    try:
        col_kernel._run_gpu(fake, A, B, D, m, n, k, 1.5, beta, True)
    finally:
        col_kernel._func = col_kernel._module = None
    assert fake.launches[0]["m"] == 72 and fake.launches[0]["n"] == 100
    assert fake.launches[0]["grid"] == col_kernel.spec.grid(100, 72)
    ref = _ref(a, b, 1.5, beta, c)
    assert np.linalg.norm(D.host - ref) / np.linalg.norm(ref) < 1e-5


# ---- on a GPU ----------------------------------------------------------------------------------


@gpu_test
@pytest.mark.parametrize("m,n,k,beta", [(100, 72, 40, 0.0), (1000, 520, 264, 0.5), (129, 300, 72, -1.0)])
def test_gpu_run_gemm_example(m, n, k, beta):
    from lasscc.cache import cached_compile

    module = parse_mlir(EXAMPLE.read_text(), str(EXAMPLE))
    res = cached_compile(module, "sm_80", str(EXAMPLE), use_cache=False)
    spec = res.specs[0]
    assert spec.swap_ab and spec.d_layout == "col"
    r = gemm_runner.run_gemm(res.ptx, spec, m, n, k, alpha=1.5, beta=beta, seed=7)
    assert r["ok"], gemm_runner.format_report(r, m, n, k)
    assert r["rel_err"] < 1e-5


@gpu_test
def test_gpu_run_gemm_f16_col_d_and_bench():
    k = lasscc.gemm(d_dtype="f16", d_layout="col", threadblock=(64, 64, 32), warp=(32, 32, 32))
    r = gemm_runner.run_gemm(k.ptx, k.spec, 200, 136, 64, alpha=1.0, beta=0.5, bench=True, warmup=2, iters=5,
                             seed=8)
    assert r["ok"], gemm_runner.format_report(r, 200, 136, 64)
    if "cublas_ms" in r:
        assert r["cublas_rel_err"] < 1e-2 and "D^T = B^T.A^T" in r["cublas_op"]


@gpu_test
def test_gpu_api_numpy_and_torch(col_kernel):
    a, b, c = _arrays(m=100, n=72, k=40, seed=3)
    d = np.asfortranarray(c)
    col_kernel(a, b, d, alpha=1.5, beta=0.5)
    ref = _ref(a, b, 1.5, 0.5, c)
    assert np.linalg.norm(d - ref) / np.linalg.norm(ref) < 1e-5
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    ta = torch.from_numpy(a).cuda()
    tb = torch.from_numpy(np.ascontiguousarray(b.T)).cuda().t()
    td = torch.full((72, 100), float("nan"), device="cuda").t()  # M x N column-major
    col_kernel(ta, tb, td, sync=True)
    np.testing.assert_allclose(td.cpu().numpy(), _ref(a, b), rtol=1e-3, atol=1e-3)
