"""The Hopper (mma = "wgmma") path over the type x layout x shape matrix of issue 14, on the CPU.

1. Numerics: a representative sample of every combination wgmma allows -- f16 / bf16 in all four
   A/B layouts, f16 accumulation (D f16 or f32), tf32 and s8 K-major, D f32 / f16 / bf16 / i32, row-
   or column-major D (the kernel computes D^T = B^T . A^T), batched (3-d tensor maps, grid z), beta
   0 (D NaN-poisoned) and beta != 0 (D holds C) -- at odd shapes: M and N no multiple of the tile, K
   no multiple of BK but K * element bytes a multiple of 16 (the TMA's global-stride rule).  Each
   case's module after lasscc-hopper-smem (the physical level: tensor maps, mbarriers, descriptors)
   runs on the CPU executor against float64; some cases run every level (before and after each
   wgmma pass).  Compiled once per module (stages_of, shared with test_wgmma_passes).
2. Batched TMA: a 3-d box one matrix deep zero-fills past the matrix, where a 2-d map over the
   flattened [batch * rows] view would read the next batch's rows.
3. The host's tensor maps (lasscc.runtime.tma.operand_map, one rule): the GPU runner's maps of a
   column-major-D and a batched kernel are the ones the CPU executor builds for the same problem.
4. ptxas: a batched column-major-D kernel of each of f16 accumulation (NT: both MN-major), tf32 and
   s8 assembles for sm_90a with no spill and no wgmma serialization warning.
"""

from __future__ import annotations

import numpy as np
import pytest

from lasscc.config import alignment_error
from lasscc.driver import compile_module, kernel_specs
from lasscc.emit import ptxas_info
from lasscc.interp import run_check
from lasscc.source import parse_mlir

from test_wgmma_passes import stages_of

ELEM = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1}


def gemm(ab="f16", d="f32", acc=None, layouts=("row", "col", "row"), tb=(64, 64, 64), stages=3, batched=False,
         beta=0.0) -> str:
    """A wgmma lass.gemm; `layouts` of A, B, D; batched: 3-d batch-first memrefs."""
    def mr(t, lay):
        dims = "?x?x?x" if batched else "?x?x"
        strided = (", strided<[?, 1, ?]>" if batched else ", strided<[1, ?]>") if lay == "col" else ""
        return f"memref<{dims}{t}{strided}>"

    ta, tb_, td = mr(ab, layouts[0]), mr(ab, layouts[1]), mr(d, layouts[2])
    acc_text = f"acc = {acc}, " if acc else ""
    return (f"func.func @gemm(%a: {ta}, %b: {tb_}, %d: {td}) {{\n"
            f"  lass.gemm {{alpha = 1.5 : f32, beta = {beta} : f32, {acc_text}config = {{mma = \"wgmma\", "
            f"threadblock = [{tb[0]}, {tb[1]}, {tb[2]}], stages = {stages}}}}}\n"
            f"      ins(%a, %b : {ta}, {tb_}) outs(%d : {td})\n  func.return\n}}\n")


TN, NT, NN, TT = ("row", "col"), ("col", "row"), ("col", "col"), ("row", "row")
# (name, gemm kwargs, (M, N, K), batch, every level?): M, N off the tile; K off BK, K * bytes % 16 == 0
CASES = [
    ("f16-TN-rowD-batched", dict(layouts=TN + ("row",), batched=True), (72, 80, 88), 3, True),
    ("f16-NN-colD", dict(layouts=NN + ("col",), tb=(128, 64, 64)), (136, 72, 72), 1, True),
    ("f16-TT-colD-batched", dict(layouts=TT + ("col",), batched=True, stages=2), (40, 104, 136), 2, False),
    ("f16-NT-rowD", dict(layouts=NT + ("row",), tb=(64, 128, 64)), (72, 136, 40), 1, False),
    ("f16acc-f16D-NT-colD-batched", dict(d="f16", acc="f16", layouts=NT + ("col",), batched=True),
     (72, 80, 72), 2, True),
    ("f16acc-f32D-TT", dict(d="f32", acc="f16", layouts=TT + ("row",)), (50, 104, 200), 1, False),
    ("f16-f16D-NN-batched", dict(d="f16", layouts=NN + ("row",), batched=True, stages=4), (40, 70, 104), 2, False),
    ("bf16-NT-colD", dict(ab="bf16", layouts=NT + ("col",), tb=(128, 128, 64)), (136, 144, 56), 1, False),
    ("bf16-bf16D-TT-colD-batched", dict(ab="bf16", d="bf16", layouts=TT + ("col",), batched=True, tb=(64, 64, 32)),
     (72, 40, 40), 2, False),
    ("tf32-TN-colD-batched", dict(ab="f32", layouts=TN + ("col",), batched=True, tb=(64, 64, 32)), (70, 33, 44), 2,
     True),
    ("tf32-TN-rowD", dict(ab="f32", layouts=TN + ("row",), tb=(128, 64, 16), stages=4), (129, 66, 36), 1, False),
    ("s8-i32D-TN-colD-batched", dict(ab="i8", d="i32", layouts=TN + ("col",), batched=True, tb=(64, 64, 128)),
     (72, 65, 144), 2, False),
    ("s8-f32D-TN-rowD", dict(ab="i8", d="f32", layouts=TN + ("row",), tb=(64, 128, 64)), (100, 130, 80), 1, False),
]


@pytest.mark.parametrize("name,kw,shape,batch,every", CASES, ids=[c[0] for c in CASES])
def test_wgmma_matrix_matches_float64(name, kw, shape, batch, every):
    m, n, k = shape
    bm, bn, bk = kw.get("tb", (64, 64, 64))
    ab = kw.get("ab", "f16")
    assert m % bm and n % bn and k % bk, "not an odd shape"
    assert alignment_error(m, n, k, *kw["layouts"][:2], ab, (16 // ELEM[ab],) * 2) is None  # the TMA stride rule
    mods = stages_of(gemm(**kw))
    for beta in (0.0, -0.5):  # D NaN-poisoned; then D holding C
        levels = range(len(mods)) if every and beta == 0 else (len(mods) - 1,)
        ds = []
        for level in levels:
            r = run_check(mods[level], m, n, k, seed=11, alpha=1.5, beta=beta, report_banks=False, batch=batch)
            assert r["level"] == level
            assert r["ok"], (name, beta, level, r["rel_err"], r["tolerance"])
            d = np.asarray(r["d"], np.float64)
            assert d.shape == ((batch,) if kw.get("batched") else ()) + (m, n)
            assert np.isfinite(d).all()
            ds.append(d)
        if len(ds) > 1:  # the passes that only move data reproduce their input's D bit for bit
            np.testing.assert_array_equal(ds[2], ds[1])  # lasscc-pipeline
            np.testing.assert_array_equal(ds[4], ds[3])  # lasscc-hopper-smem
    ops = {o.name for o in mods[-1].walk()}
    assert ("lass_nv.tma_load_3d" in ops) == bool(kw.get("batched")) != ("lass_nv.tma_load_2d" in ops)


def test_batched_box_is_one_matrix_deep():
    """A box crossing the last rows of matrix 0 reads zeros there (3-d map), not matrix 1's rows
    (what a 2-d map over the flattened [batch * rows] view would read)."""
    from lasscc.sm90_layout import SwizzleMode, tma_box_bytes

    g = np.arange(2 * 72 * 64, dtype=np.float16).reshape(2, 72, 64) + 1
    box = (64, 64)  # (inner, outer): 64 elements of K, 64 rows
    got = tma_box_bytes(g, (0, 64, 0), box, SwizzleMode.B128)
    want = np.zeros((64, 64), np.float16)
    want[:8] = g[0, 64:72]
    assert np.array_equal(got, tma_box_bytes(want, (0, 0), box, SwizzleMode.B128))
    flat = tma_box_bytes(g.reshape(144, 64), (0, 64), box, SwizzleMode.B128)
    assert not np.array_equal(got, flat)  # the flattened view reads rows 0..55 of matrix 1
    assert not tma_box_bytes(g, (0, 0, 2), box, SwizzleMode.B128).any()  # past the batch: zeros


@pytest.mark.parametrize("name", ["f16-TT-colD-batched", "s8-i32D-TN-colD-batched", "bf16-NT-colD"])
def test_runner_tensor_maps_are_the_executors(name, monkeypatch):
    """gemm_runner's maps (KernelSpec.tensor_maps in the kernel's operand order, built by
    runtime.tma.operand_map over the uploaded operands) equal the maps the CPU executor builds for
    the same problem: for a column-major D over the caller's B (the kernel's A) and A."""
    from lasscc.interp import values
    from lasscc.runtime import gemm_runner, tma

    kw, (m, n, k), batch = next((c[1], c[2], c[3]) for c in CASES if c[0] == name)
    mod = stages_of(gemm(**kw))[-1]
    spec = kernel_specs(mod)[0]
    gemm_runner._check_spec(spec, m, n, k, batch)  # a column-major D or a batch is no refusal
    seen = []
    real = values.host_tensor_map
    monkeypatch.setattr(values, "host_tensor_map", lambda *a: seen.append(real(*a).spec) or real(*a))
    assert run_check(mod, m, n, k, seed=1, batch=batch, report_banks=False)["ok"]
    monkeypatch.setattr(tma, "encode", lambda s, address, what="": (s, address))

    class Buf:
        def __init__(self, ptr):
            self.ptr = ptr

    vals = spec.param_values(Buf(1), Buf(2), "D", m, n, k, 1.0, 0.0, gemm_runner._tensor_map(spec, batch))
    built = dict(zip(spec.params, vals))
    (sa, pa), (sb, pb) = built["tmap_A"], built["tmap_B"]
    assert [sa, sb] == seen
    assert (pa, pb) == ((2, 1) if spec.swap_ab else (1, 2))  # the kernel's A is the caller's B for a col-major D
    assert sa.rank == sb.rank == (3 if kw.get("batched") else 2)
    if kw.get("batched"):
        enc = sa.encode_args(0)
        assert enc["tensorRank"] == 3 and enc["boxDim"][2] == 1 and enc["globalDim"][2] == batch
        assert enc["globalStrides"] == [sa.row_stride, sa.rows * sa.row_stride]  # packed batches


PTXAS = [
    ("f16acc-NT-colD-batched", dict(d="f16", acc="f16", layouts=NT + ("col",), batched=True, tb=(64, 128, 64))),
    ("tf32-TN-colD-batched", dict(ab="f32", layouts=TN + ("col",), batched=True, tb=(128, 64, 32))),
    ("s8-TN-colD-batched", dict(ab="i8", d="i32", layouts=TN + ("col",), batched=True, tb=(64, 128, 128))),
]


@pytest.mark.parametrize("name,kw", PTXAS, ids=[p[0] for p in PTXAS])
def test_new_wgmma_kernels_assemble_without_spills(name, kw):
    res = compile_module(parse_mlir(gemm(**kw), "t.mlir"), arch="sm_90a")
    spec = res.specs[0]
    assert spec.swap_ab and spec.batched and [t[4] for t in spec.tensor_maps] == (
        ["mn", "mn"] if kw["layouts"][:2] == NT else ["k", "k"])
    assert "cp.async.bulk.tensor.3d" in res.ptx and "cp.async.bulk.tensor.2d" not in res.ptx
    info = ptxas_info(res.ptx, "sm_90a")  # raises on a wgmma serialization warning (C7510/C7517/C7519)
    if info is None:
        pytest.skip("ptxas not on PATH")
    assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0, info.line


def test_api_launches_wgmma_kernels_with_their_tensor_maps(monkeypatch):
    """lasscc.api's GPU launch of a column-major-D wgmma kernel (no GPU: a fake lasscc.runtime.cuda
    records the launch): the parameters by name, tmap_A over the caller's B (the kernel's A) and
    tmap_B over A, each runtime.tma.operand_map's map of the kernel operand, on grid(M, N)."""
    import types

    from lasscc.api import Kernel
    from lasscc.runtime import tma

    kw, (m, n, k) = dict(layouts=NN + ("col",), tb=(128, 64, 64)), (136, 72, 72)
    spec = kernel_specs(stages_of(gemm(**kw))[-1])[0]
    kern = Kernel(types.SimpleNamespace(stages={}, llvm_ir="", ptx="", specs=[spec]), "sm_90a")
    monkeypatch.setattr(tma, "encode", lambda s, address, what="": ("tmap", s, address))
    launched = []

    class Buf:
        count = 0

        def __init__(self, nbytes):
            Buf.count += 1
            self.ptr, self.nbytes = 4096 * Buf.count, nbytes

        @classmethod
        def from_array(cls, a):
            return cls(a.nbytes)

        alloc = classmethod(lambda cls, nbytes: cls(nbytes))

        def download(self, shape, dtype):
            return np.zeros(shape, dtype)

        def free(self):
            pass

    cuda = types.SimpleNamespace(
        context=lambda: None, DeviceBuffer=Buf, load_module=lambda ptx: "module", get_function=lambda mod, name: name,
        set_dynamic_smem=lambda f, s: None, synchronize=lambda: None,
        launch=lambda f, grid, block, smem, args: launched.append((grid, block, smem, list(args))))
    a = np.asfortranarray(np.ones((m, k), np.float16))  # NN: column-major A and B
    b = np.asfortranarray(np.ones((k, n), np.float16))
    d = np.asfortranarray(np.zeros((m, n), np.float32))
    A, B, D, *_ = kern.check_operands(a, b, d)
    kern._run_gpu(cuda, A, B, D, m, n, k, 1.0, 0.0, True)
    (grid, block, smem, args), = launched
    assert grid == spec.grid(m, n) and block == (spec.threads, 1, 1) and smem == spec.smem_bytes
    vals = dict(zip(spec.params, args))
    ptr_a, ptr_b = int(vals["A"]), int(vals["B"])  # the kernel's A and B: the caller's B and A
    boxes = {t[0]: t[1:] for t in spec.tensor_maps}
    for op, ptr, rows in (("A", ptr_a, n), ("B", ptr_b, m)):
        tag, tspec, address = vals["tmap_" + op]
        assert tag == "tmap" and address == ptr
        assert tspec == tma.operand_map(spec.a_dtype, rows, k, *boxes[op])
    assert (int(vals["M"]), int(vals["N"])) == (n, m)
