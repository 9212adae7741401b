"""The sm_90a instruction level: lass_nv's TMA / mbarrier / wgmma ops, their CPU semantics
(lasscc/interp/sm90_ops.py), their lowering (passes/lower_sm90.py, assembled by ptxas for sm_90a)
and the host's tensor maps (lasscc/runtime/tma.py).

The kernel is lasscc.sm90_tile_kernel's hand-built one (one CTA, one warpgroup: TMA boxes of a
64 x K A and an N x K B onto one mbarrier, wgmma over K, accumulators stored by the fragment map),
run on the CPU executor at odd sizes (out-of-bounds boxes zero-filled) against float64, with
planted bugs that the executor must catch."""

from __future__ import annotations

import ctypes
import shutil

import numpy as np
import pytest

from lasscc import emit
from lasscc.diagnostics import LassError
from lasscc.interp import mma_math as MM
from lasscc.interp.bf16 import bf16_to_f32, to_bf16
from lasscc.interp.errors import AsyncHazardError, DeadlockError, MbarrierError
from lasscc.interp.sm90_ops import execute_sm90
from lasscc.passes.lower_to_llvm import LowerToLLVMPass
from lasscc.runtime.tma import HostTensorMap, TensorMapParam, TensorMapSpec
from lasscc.sm90_tile_kernel import Sm90TileKernel
from lasscc.universe import make_context
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

# Sm90TileKernel arguments: every swizzle mode for f16; bf16, tf32, s8; MN-major A and / or B
# (the descriptors' transpose bits, f16 / bf16); A from registers (RS) for every type
CASES = [
    dict(ab_type="f16", n=64, k=128, swizzle="128b"),
    dict(ab_type="f16", n=64, k=64, swizzle="64b"),
    dict(ab_type="f16", n=32, k=64, swizzle="32b"),
    dict(ab_type="f16", n=24, k=32, swizzle="none"),
    dict(ab_type="bf16", n=128, k=128, swizzle="128b"),
    dict(ab_type="tf32", n=64, k=64, swizzle="64b"),
    dict(ab_type="s8", n=48, k=128, swizzle="128b"),
    dict(ab_type="f16", n=64, k=64, swizzle="128b", a_major="mn"),
    dict(ab_type="bf16", n=64, k=64, swizzle="64b", b_major="mn"),
    dict(ab_type="f16", n=32, k=32, swizzle="32b", a_major="mn", b_major="mn"),
    dict(ab_type="f16", n=64, k=32, swizzle="none", a_major="mn", b_major="mn"),
    dict(ab_type="f16", n=64, k=128, swizzle="128b", a_regs=True),
    dict(ab_type="tf32", n=32, k=64, swizzle="none", a_regs=True),
    dict(ab_type="s8", n=64, k=128, swizzle="64b", a_regs=True, b_major="k"),
    dict(ab_type="f16", n=64, k=128, swizzle="128b", f16_acc=True),
    dict(ab_type="f16", n=32, k=64, swizzle="64b", a_regs=True, b_major="mn", f16_acc=True),
    # the k-tiles as an scf.for: loop-carried accumulators, runtime parity and scale-d
    dict(ab_type="f16", n=64, k=256, swizzle="128b", loop=True),
    dict(ab_type="bf16", n=64, k=128, swizzle="64b", a_major="mn", loop=True),
    dict(ab_type="s8", n=32, k=128, swizzle="none", a_regs=True, loop=True),
    dict(ab_type="f16", n=64, k=128, swizzle="32b", f16_acc=True, loop=True),
]
IDS = ["-".join(str(v) for v in c.values()) for c in CASES]
AB_TOL = {"f16": "f16", "bf16": "bf16", "tf32": "f32", "s8": "i8"}  # mma_math.tolerance's type names


def _operands(kern: Sm90TileKernel, m: int, n: int, k: int, seed: int = 0):
    """Random normal A (m x k), B (n x k) in the kernel's memory type (s8: [-8, 8)); their float64 values."""
    rng = np.random.default_rng(seed)
    if kern.ab_type == "s8":
        a, b = (rng.integers(-8, 8, s).astype(np.int8) for s in ((m, k), (n, k)))
        return a, b, a.astype(np.float64), b.astype(np.float64)
    a, b = rng.standard_normal((m, k)), rng.standard_normal((n, k))
    if kern.ab_type == "bf16":
        a, b = to_bf16(a), to_bf16(b)
        return a, b, bf16_to_f32(a).astype(np.float64), bf16_to_f32(b).astype(np.float64)
    dt = np.float16 if kern.ab_type == "f16" else np.float32
    a, b = a.astype(dt), b.astype(dt)
    return a, b, a.astype(np.float64), b.astype(np.float64)


def _odd_sizes(kern: Sm90TileKernel):
    """M < 64, N < kern.n, K < kern.k: every box has an out-of-bounds part.  The stored rows stay
    multiples of 16 bytes (TMA's global stride rule): K for K-major operands, M / N for MN-major ones."""
    step = 16 // kern.elem_bytes
    m = 64 - step if kern.a_major == "mn" else 50
    n = kern.n - step if kern.b_major == "mn" else kern.n - 3
    return m, n, kern.k - step


def _run(kern: Sm90TileKernel, module=None, sizes=None):
    m, n, k = sizes or _odd_sizes(kern)
    a, b, a64, b64 = _operands(kern, m, n, k)
    sa, sb = kern.tensor_map_specs(m, n, k)
    # as stored: an MN-major A is column-major (K x M in memory), an MN-major B row-major (K x N)
    a = a if kern.a_major == "k" else np.ascontiguousarray(a.T)
    b = b if kern.b_major == "k" else np.ascontiguousarray(b.T)
    poison = np.iinfo(np.int32).min if kern.acc_type == "i32" else np.nan
    d = np.full((m, n), poison, {"i32": np.int32, "f16": np.float16}.get(kern.acc_type, np.float32))
    execute_sm90(module if module is not None else kern.module(),
                 [HostTensorMap(sa, a), HostTensorMap(sb, b), d, m, n], threads=128, smem_bytes=kern.smem_bytes)
    return d, a64 @ b64.T, k


def _rel_err(d, ref) -> float:
    return float(np.linalg.norm(d.astype(np.float64) - ref) / np.linalg.norm(ref))


@pytest.fixture(scope="module")
def kernels():
    return {i: Sm90TileKernel(**c) for i, c in zip(IDS, CASES)}


@pytest.mark.parametrize("case", IDS)
def test_tma_mbarrier_wgmma_on_cpu(kernels, case):
    kern = kernels[case]
    d, ref, k = _run(kern)
    assert not np.isnan(d.astype(np.float64)).any()
    tol = MM.tolerance(d.dtype, AB_TOL[kern.ab_type], kern.acc_type, k, ref)
    assert _rel_err(d, ref) <= tol


# ---- planted bugs -----------------------------------------------------------------------------------
def test_missing_expect_tx_is_caught():
    """A plain arrive completes phase 0 at once; the TMA bytes belong to phase 1 and are still in
    flight when the wgmma reads them."""
    with pytest.raises(AsyncHazardError, match=r"wgmma_mma_async.*tma_load_2d.*is still copying into it"):
        _run(Sm90TileKernel("f16", n=64, k=64, bug="no_expect_tx"))


def test_wrong_parity_deadlocks():
    with pytest.raises(DeadlockError, match=r"mbarrier_wait_parity.*deadlock.*parity 1.*can never complete.*"
                                            r"arrive_expect_tx.*tma_load_2d"):
        _run(Sm90TileKernel("f16", n=64, k=64, bug="wrong_parity"))


def test_missing_mbarrier_wait_is_caught():
    with pytest.raises(AsyncHazardError, match=r"wgmma_mma_async.*tma_load_2d.*wrote \(async proxy\) in phase 0.*"
                                               r"has not waited"):
        _run(Sm90TileKernel("f16", n=64, k=64, bug="no_wait"))


def test_missing_wgmma_wait_is_caught():
    with pytest.raises(AsyncHazardError, match=r"st_global.*reads an accumulator of .*wgmma_mma_async.*before a "
                                               r"wgmma.wait_group"):
        _run(Sm90TileKernel("f16", n=64, k=64, bug="no_wgmma_wait"))


@pytest.mark.parametrize("swizzle", ["128b", "none"])
def test_wrong_sbo_gives_wrong_numbers(swizzle):
    kern = Sm90TileKernel("f16", n=64, k=64, swizzle=swizzle, bug="wrong_sbo")
    d, ref, k = _run(kern)
    assert _rel_err(d, ref) > 0.1  # a wrong core-matrix stride reads other rows: errors of order 1


def test_descriptor_swizzle_must_match_the_tensor_map():
    """TMA lands 128B-swizzled tiles; descriptors saying 64B read other bytes: wrong numbers."""
    kern = Sm90TileKernel("f16", n=64, k=64, swizzle="128b")
    text = str(kern.module())
    # the descriptors' high word: swizzle mode 1 (128B) in bits 62-63 -> 2 (64B)
    hi_128 = 1 << 62
    assert str(hi_128 | (1024 >> 4) << 32) in text
    bad = text.replace(str(hi_128 | (1024 >> 4) << 32), str(2 << 62 | (1024 >> 4) << 32))
    module = Parser(make_context(), bad).parse_module()
    d, ref, _ = _run(kern, module)
    assert _rel_err(d, ref) > 0.1


# ---- mbarrier rules on small kernels ------------------------------------------------------------------
_PRELUDE = """
  %tid = lass_nv.thread_id
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bar = arith.constant 256 : i32
  %is0 = arith.cmpi eq, %tid, %c0 : i32
  scf.if %is0 {
    lass_nv.mbarrier_init %bar, %c1
  }
  lass_nv.bar_sync
"""


def _small(body: str, params: str = "", args=(), smem: int = 512):
    text = f"func.func @k({params}) attributes {{nvvm.kernel}} {{{_PRELUDE}{body}\n  func.return\n}}"
    return execute_sm90(text, list(args), threads=128, smem_bytes=smem)


def test_too_many_arrivals():
    """128 arrivals on a count-1 barrier: the second completes phase 1 before anyone saw phase 0."""
    with pytest.raises(MbarrierError, match=r"mbarrier_arrive.*phase 1 of the mbarrier at shared byte 256 of block 0 "
                                            r"completes while no thread has waited for phase 0.*too many arrivals"):
        _small("  lass_nv.mbarrier_arrive %bar")


def test_arrival_while_the_phase_awaits_bytes():
    body = """
  %c64 = arith.constant 64 : i32
  scf.if %is0 {
    lass_nv.mbarrier_arrive_expect_tx %bar, %c64
    lass_nv.mbarrier_arrive %bar
  }"""
    with pytest.raises(MbarrierError, match=r"mbarrier_arrive .*thread 0 of block 0 arrives on the mbarrier at shared "
                                            r"byte 256 .*when no arrival is pending: too many arrivals for its count 1"):
        _small(body)


def test_phase_overrun_without_a_wait():
    body = """
  scf.if %is0 {
    lass_nv.mbarrier_arrive %bar
    lass_nv.mbarrier_arrive %bar
  }"""
    with pytest.raises(MbarrierError, match=r"phase 1 of the mbarrier .* completes while no thread has waited for "
                                            r"phase 0"):
        _small(body)


def test_tx_underflow():
    """expect_tx announces 64 bytes, the 8 x 8 f16 box completes 128."""
    body = """
  %c64 = arith.constant 64 : i32
  scf.if %is0 {
    lass_nv.mbarrier_arrive_expect_tx %bar, %c64
    lass_nv.tma_load_2d %t[%c0, %c0], %c0, %bar : !lass_nv.tensor_map<8x8xf16, swizzle_none>
  }"""
    spec = TensorMapSpec.of_matrix("f16", 8, 8, 8, 8, "none")
    tm = HostTensorMap(spec, np.ones((8, 8), np.float16))
    with pytest.raises(MbarrierError, match=r"tma_load_2d.*tx-count underflow.*64 more transaction bytes"):
        _small(body, "%t: !lass_nv.tensor_map<8x8xf16, swizzle_none>", [tm])


def test_uninitialised_mbarrier():
    with pytest.raises(MbarrierError, match=r"mbarrier at shared byte 128 .*which no mbarrier_init initialised"):
        _small("  %b2 = arith.constant 128 : i32\n  lass_nv.mbarrier_wait_parity %b2, %c0")


def test_tma_lands_only_at_phase_completion_and_a_waiter_sees_it():
    """Thread 0's box lands in shared memory when the phase completes; every thread reads it after
    the wait (ld_shared through the executor's checks), out-of-bounds elements zero-filled."""
    body = """
  %c128 = arith.constant 128 : i32
  scf.if %is0 {
    lass_nv.mbarrier_arrive_expect_tx %bar, %c128
    lass_nv.tma_load_2d %t[%c0, %c1], %c0, %bar : !lass_nv.tensor_map<8x8xf16, swizzle_none>
  }
  lass_nv.mbarrier_wait_parity %bar, %c0
  %four = arith.constant 4 : i32
  %m = arith.constant 31 : i32
  %l = arith.andi %tid, %m : i32
  %a = arith.muli %l, %four : i32
  %r = lass_nv.ld_shared %a x 1
  %p = arith.constant true
  lass_nv.st_global %d[%tid], %r if %p : memref<?x?xi32>, i32"""
    g = np.arange(7 * 8, dtype=np.float16).reshape(7, 8) + 1  # 7 rows: the box's last row is out of bounds
    tm = HostTensorMap(TensorMapSpec.of_matrix("f16", 7, 8, 8, 8, "none"), g)
    d = np.zeros((1, 128), np.int32)
    _small(body, "%t: !lass_nv.tensor_map<8x8xf16, swizzle_none>, %d: memref<?x?xi32>", [tm, d])
    box = np.zeros((8, 8), np.float16)
    box[:6] = g[1:7]  # coordinates (0, 1): rows 1.. of g, row 7 of g does not exist
    words = box.view(np.int32).reshape(-1)
    assert (d[0] == words[np.arange(128) % 32]).all()


def test_wgmma_without_fence_is_caught():
    kern = Sm90TileKernel("f16", n=64, k=64)
    text = str(kern.module())
    assert text.count("lass_nv.wgmma_fence") == 1
    module = Parser(make_context(), text.replace("lass_nv.wgmma_fence\n", "")).parse_module()
    with pytest.raises(AsyncHazardError, match=r"wgmma_mma_async.*no wgmma.fence"):
        _run(kern, module)


# ---- the dialect ---------------------------------------------------------------------------------------
def test_ops_print_and_parse_back(kernels):
    text = str(kernels[IDS[0]].module())
    for name in ("mbarrier_init", "fence_mbarrier_init", "mbarrier_arrive_expect_tx", "tma_load_2d",
                 "mbarrier_wait_parity", "wgmma_fence", "wgmma_mma_async", "wgmma_commit_group",
                 "wgmma_wait_group", "shared_address", "tensor_map<64x64xf16, swizzle_128b>"):
        assert name in text
    again = Parser(make_context(), text).parse_module()
    again.verify()
    assert str(again) == text


@pytest.mark.parametrize("snippet, message", [
    ("a(%x) b(%x) c(%f, %f, %f, %f) scale_d %p {n = 12 : i64} : f32", "expected n one of 8, 16, 24"),
    ("a(%x) b(%x) c(%f, %f) scale_d %p {n = 8 : i64} : f32", "expected 4 accumulator values"),
    ("a(%x) b(%x) c(%f, %f, %f, %f) scale_d %p {n = 8 : i64, ab_type = \"tf32\", trans_b = 1 : i64} : f32",
     "transpose is for f16/bf16 only"),
    ("a(%x) b(%x) c(%f, %f, %f, %f) scale_d %p {n = 8 : i64, ab_type = \"s8\"} : f32", "expected a i32 accumulator"),
])
def test_wgmma_verifier(snippet, message):
    text = ("func.func @k(%x: i64, %f: f32, %p: i1) {\n  %r:4 = lass_nv.wgmma_mma_async " + snippet
            + "\n  func.return\n}")
    text = text.replace("%r:4", "%r:2") if "c(%f, %f)" in snippet else text
    with pytest.raises(VerifyException, match=message):
        Parser(make_context(), text).parse_module().verify()


@pytest.mark.parametrize("typ, message", [
    ("<64x4xf16, swizzle_none>", "multiple of 16"),
    ("<64x128xf16, swizzle_128b>", "at most 128 bytes"),
    ("<300x64xf16, swizzle_128b>", r"in 1\.\.256"),
    ("<64x64xf64, swizzle_128b>", "element type"),
])
def test_tensor_map_type_verifier(typ, message):
    with pytest.raises(Exception, match=message):
        Parser(make_context(), f"func.func @k(%t: !lass_nv.tensor_map{typ}) {{\n  func.return\n}}").parse_module().verify()


# ---- lowering and ptxas -------------------------------------------------------------------------------
needs_ptxas = pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas not on PATH")


def _ptx(kern: Sm90TileKernel) -> str:
    module = kern.module()
    LowerToLLVMPass().apply(make_context(), module)
    return emit.to_ptx(emit.to_llvm_ir(module), "sm_90a")


@needs_ptxas
@pytest.mark.parametrize("case", IDS)
def test_lowered_kernel_assembles_for_sm90a(kernels, case):
    kern = kernels[case]
    ptx = _ptx(kern)
    info = emit.ptxas_info(ptx, "sm_90a")  # raises on ptxas's wgmma serialization warnings
    assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0
    acc = {"f32": "f32", "i32": "s32", "f16": "f16"}[kern.acc_type]
    wg = f"wgmma.mma_async.sync.aligned.m64n{kern.n}k{kern.wgmma_k}"
    total, per_tile = kern.k // kern.wgmma_k, kern.bk // kern.wgmma_k
    count = ptx.count(wg)  # unrolled: all; a loop: one k-tile's (LLVM may peel or unroll some)
    assert (count == total if not kern.loop else per_tile <= count <= total) and f".{acc}." in ptx.split(wg)[1][:40]
    for needle in (".target sm_90a", ".param .align 64 .b8 sm90_tile_param_0[128]", ".maxntid 128, 1, 1",
                   ".extern .shared .align 1024 .b8 lass_smem[]", "cvta.param",
                   "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes",
                   "mbarrier.arrive.expect_tx", "mbarrier.try_wait.parity", "wgmma.fence.sync.aligned",
                   "wgmma.commit_group.sync.aligned", "wgmma.wait_group.sync.aligned", "fence.mbarrier_init",
                   "elect.sync"):
        assert needle in ptx, needle
    asm = ptx.split(wg)[1].split(";")[0]  # the operands after the instruction name
    if kern.a_regs:
        assert "}, {" in asm  # A as a register vector
    if kern.ab_type in ("f16", "bf16"):  # imm-trans-a (SS only) and imm-trans-b
        trans = [str(int(m == "mn")) for m in ((kern.a_major,) if not kern.a_regs else ()) + (kern.b_major,)]
        assert asm.replace(" ", "").endswith(",".join(trans))


@needs_ptxas
def test_ptxas_serialization_warning_is_an_error():
    """Accumulator registers written between wgmma.fence and the wgmma: ptxas serializes (C7519)."""
    ptx = """
.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 p)
.maxntid 128, 1, 1
{
  .reg .f32 %f<5>;
  .reg .b64 %rd<2>;
  .reg .pred %p;
  ld.param.u64 %rd1, [p];
  setp.ne.b64 %p, %rd1, 0;
  wgmma.fence.sync.aligned;
  mov.f32 %f1, 0f00000000; mov.f32 %f2, 0f00000000; mov.f32 %f3, 0f00000000; mov.f32 %f4, 0f00000000;
  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd1, %p, 1, 1, 0, 0;
  add.f32 %f1, %f1, %f2;
  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd1, %p, 1, 1, 0, 0;
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 0;
  st.global.f32 [%rd1], %f1;
  ret;
}
"""
    with pytest.raises(LassError, match=r"(?s)serialized wgmma.*C75(10|17|19)"):
        emit.ptxas_info(ptx, "sm_90a")


# ---- host tensor maps -------------------------------------------------------------------------------
def test_tensor_map_encode_args_and_errors():
    spec = TensorMapSpec.of_matrix("bf16", rows=100, cols=72, box_rows=64, box_cols=64, swizzle="128b")
    args = spec.encode_args(0x10000)
    assert args["globalDim"] == [72, 100] and args["globalStrides"] == [144] and args["boxDim"] == [64, 64]
    assert args["tensorDataType"].endswith("BFLOAT16") and args["swizzle"].endswith("128B")
    assert args["oobFill"].endswith("NONE") and args["elementStrides"] == [1, 1]
    assert spec.box_bytes == 64 * 64 * 2
    with pytest.raises(LassError, match="line stride is 142 bytes"):
        TensorMapSpec.of_matrix("f16", 10, 71, 8, 8, "none").check("tensor map of A")
    with pytest.raises(LassError, match="at most 64 bytes"):
        TensorMapSpec.of_matrix("f16", 64, 64, 64, 64, "64b").check("tensor map of B")


def test_tensor_map_param_is_64_byte_aligned_and_packs():
    from lasscc.runtime import cuda

    raw = bytes(range(128))
    p = TensorMapParam(raw)
    assert p.address % 64 == 0 and p.raw == raw
    packed = cuda.pack_args([p, np.int32(5)])
    first = ctypes.cast(packed.pointers[0], ctypes.POINTER(ctypes.c_uint8 * 128)).contents
    assert bytes(first) == raw and packed.pointers[0] % 64 == 0
    with pytest.raises(LassError, match="128-byte tensor map"):
        TensorMapParam(b"x" * 64)


# ---- proxies: generic writes read by wgmma ---------------------------------------------------------
def _generic_tile_kernel(fence: bool, write_during_wgmma: bool = False) -> str:
    """All threads store f16 1.0 into a 64 x 16 A tile (bytes 0..2047) and an 8 x 16 B tile (2048..)
    with st.shared (generic proxy), then one m64n8k16 wgmma reads them through no-swizzle descriptors
    (sm90_layout.tile_descriptor) built from lass_nv.shared_address: every D element is 16."""
    from lasscc import sm90_layout as S

    hi = {name: S.tile_descriptor(0, rows, 16, 2, "k", S.SwizzleMode.NONE).encode()
          for name, rows in (("a", 64), ("b", 8))}
    late = "  lass_nv.st_shared_v4 %a, %one, %one, %one, %one\n" if write_during_wgmma else ""
    return f"""func.func @k(%d: memref<?x?xf32>) attributes {{nvvm.kernel}} {{
  %tid = lass_nv.thread_id
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c16 = arith.constant 16 : i32
  %c2048 = arith.constant 2048 : i32
  %one = arith.constant 1006648320 : i32
  %a = arith.muli %tid, %c16 : i32
  lass_nv.st_shared_v4 %a, %one, %one, %one, %one
  %lo = arith.cmpi ult, %tid, %c16 : i32
  scf.if %lo {{
    %b = arith.addi %a, %c2048 : i32
    lass_nv.st_shared_v4 %b, %one, %one, %one, %one
  }}
  {"lass_nv.fence_proxy_async" if fence else ""}
  lass_nv.bar_sync
  %sa = lass_nv.shared_address %c0
  %sa4 = arith.shrui %sa, %c4 : i32
  %sa64 = arith.extui %sa4 : i32 to i64
  %ka = arith.constant {hi["a"]} : i64
  %da = arith.ori %sa64, %ka : i64
  %sb = lass_nv.shared_address %c2048
  %sb4 = arith.shrui %sb, %c4 : i32
  %sb64 = arith.extui %sb4 : i32 to i64
  %kb = arith.constant {hi["b"]} : i64
  %db = arith.ori %sb64, %kb : i64
  %z = arith.constant 0.0 : f32
  %p = arith.constant false
  lass_nv.wgmma_fence
  %r:4 = lass_nv.wgmma_mma_async a(%da) b(%db) c(%z, %z, %z, %z) scale_d %p {{n = 8 : i64}} : f32
  lass_nv.wgmma_commit_group
{late}  lass_nv.wgmma_wait_group {{pending = 0 : i64}}
  %t = arith.constant true
  lass_nv.st_global %d[%tid], %r#0 if %t : memref<?x?xf32>, f32
  func.return
}}"""


def test_generic_writes_need_a_proxy_fence_before_wgmma():
    d = np.full((1, 128), np.nan, np.float32)
    execute_sm90(_generic_tile_kernel(fence=True), [d], threads=128, smem_bytes=4096)
    assert (d == 16.0).all()
    with pytest.raises(AsyncHazardError, match=r"wgmma_mma_async.*through the async proxy, but .*st_shared_v4.* no "
                                               r"fence.proxy.async"):
        execute_sm90(_generic_tile_kernel(fence=False), [d], threads=128, smem_bytes=4096)


def test_overwriting_wgmma_operands_before_its_wait():
    d = np.zeros((1, 128), np.float32)
    with pytest.raises(AsyncHazardError, match=r"st_shared_v4.*writes shared-memory byte 0 .*while .*wgmma_mma_async.* "
                                               r"may still be reading it"):
        execute_sm90(_generic_tile_kernel(fence=True, write_during_wgmma=True), [d], threads=128, smem_bytes=4096)


def test_runner_builds_tensor_maps_by_parameter_name(monkeypatch):
    """KernelSpec.param_values + gemm_runner's callback: tmap_A / tmap_B over the operands as
    stored (an MN-major B is K x N), the kernel's specs (Sm90TileKernel.tensor_map_specs)."""
    from lasscc.runtime import gemm_runner, tma

    monkeypatch.setattr(tma, "encode", lambda spec, address, what="": (spec, address))

    class Buf:
        def __init__(self, ptr):
            self.ptr = ptr

    kern = Sm90TileKernel("bf16", n=64, k=64, swizzle="64b", b_major="mn")
    spec = kern.kernel_spec()
    assert spec.params == ("tmap_A", "tmap_B", "D", "M", "N") and spec.b_layout == "row"
    vals = spec.param_values(Buf(0x1000), Buf(0x2000), "D", 50, 56, 60, 1.0, 0.0, gemm_runner._tensor_map(spec))
    (sa, pa), (sb, pb) = vals[:2]
    assert (pa, pb) == (0x1000, 0x2000)
    assert (sa, sb) == kern.tensor_map_specs(50, 56, 60)
    assert (sb.rows, sb.cols) == (60, 56)  # K x N as stored
    assert vals[2:] == ["D", 50, 56]
    assert [type(v) for v in spec.typed_params(vals)[2:]] == [str, np.int32, np.int32]
    with pytest.raises(LassError, match="tmap_A needs a tensor map"):
        spec.param_values(Buf(0), Buf(0), "D", 1, 1, 1, 1.0, 0.0)


def test_tensor_map_bytes_from_the_bindings_object():
    """cuda-bindings' CUtensorMap: its 128 bytes at getPtr(), or its opaque words."""
    from lasscc.runtime.tma import _tensor_map_bytes

    raw = bytes(range(128))
    buf = ctypes.create_string_buffer(raw, 128)

    class WithPtr:
        def getPtr(self):
            return ctypes.addressof(buf)

    class WithOpaque:
        opaque = list(np.frombuffer(raw, "<u8").tolist())

    assert _tensor_map_bytes(WithPtr()) == raw and _tensor_map_bytes(WithOpaque()) == raw
