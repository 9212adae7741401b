#!/usr/bin/env python3
"""Ceilings of the mma.sync main loop on this GPU, without the rest of a GEMM (GPU machine).

Hand-written PTX kernels that repeat the inner loop of lasscc's 64x64 warp tile (m16n8k16 f16 ->
f32, 4 A fragments x 8 n8 blocks = 32 mma.sync per k-group, 128 f32 accumulators per thread), one
256-thread CTA per SM like the tuned 256x128x64 kernel, with more of the real loop added step by step:

  mma        the 32 mma.sync per k-group on fragments held in registers (the tensor-pipe ceiling);
  +ldsm      and the k-group's 8 ldmatrix.x4 (conflict-free, fragment double buffering);
  +cp.async  and 3 cp.async.cg 16-byte copies per k-group from an L2-resident buffer (12 per 4
             k-groups = one 256x128x64 stage per 256 threads), commit + wait_group 2 [+ bar.sync]
             every 4 k-groups (the multistage k-tile);
  cp.ca(L1)  the same copies as cp.async.ca from 16 KB that stay in L1: SMEM writes without L2 traffic;
  bulk       lane 0 of each warp copies its 6 KB share with one cp.async.bulk (TMA engine), mbarriers;
  64x96      a 64x96 warp tile (256x192 CTA, 14 copies per k-tile, one fragment set: registers).

Prints TFLOP/s of each (CUDA events, median of 20 after warm-up).  The differences say what the
shared-memory traffic and the copies cost before any address arithmetic or epilogue.
    python3 scripts/mma_ceiling.py [--iters 2000]
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np

from lasscc.runtime import cuda

KGROUPS_PER_ITER = 4  # one BK = 64 k-tile of f16
MI, NI = 4, 8  # 64x64 warp tile: 4 m16 x 8 n8 mma.sync per k-group
WARPS = 8
THREADS = WARPS * 32
SRC_BYTES = 4 << 20  # cp.async source: L2-resident
COPIES_PER_KGROUP = 3
L1_SRC_BYTES = 16 << 10  # "ca" variant: the same copies from 16 KB that stay in L1 (no L2 traffic)


def ptx(ldsm: bool, copies: str, barrier: bool, ni: int = 8) -> str:
    """copies: "" (none), "cp" (3 cp.async.cg 16 B per thread per k-group), "bulk" (lane 0 of each warp
    copies the warp's 6 KB share of the k-tile with one cp.async.bulk, an mbarrier per stage of 3)."""
    L = []
    e = L.append
    NI = ni  # n8 blocks per warp tile: 8 = 64x64, 12 = 64x96 (then 56 KB per 256x192 k-tile: 14 copies)
    cpg = [COPIES_PER_KGROUP] * KGROUPS_PER_ITER if ni == 8 else [4, 4, 3, 3]
    nb = 2 * NI  # B registers per k-group
    e(".version 8.0\n.target sm_90a\n.address_size 64\n.extern .shared .align 128 .b8 smem[];")
    e(".visible .entry k(.param .u64 out, .param .u64 src, .param .u32 iters)\n{")
    e("  .reg .pred p, q, l0;\n  .reg .b32 tid, lane, warp, it, n, sa, sc, t0, t1, mb, st, par;\n  .reg .b64 o, s, g, gi, tok;")
    e(f"  .reg .f32 f<{MI * NI * 4}>;\n  .reg .b32 a<32>;\n  .reg .b32 b<{2 * nb}>;")
    e("  mov.u32 tid, %tid.x;\n  and.b32 lane, tid, 31;\n  shr.u32 warp, tid, 5;")
    e("  ld.param.u32 n, [iters];\n  ld.param.u64 o, [out];\n  ld.param.u64 s, [src];")
    for i in range(MI * NI * 4):
        e(f"  mov.f32 f{i}, 0f00000000;")
    for i in range(32):
        e(f"  mov.b32 a{i}, 0x3c003c00;")
    for i in range(2 * nb):
        e(f"  mov.b32 b{i}, 0x3c003c00;")
    # per-warp 8 KB fragment region (A: 4 x 512 B, B: 4 x 512 B), lane l -> row address l * 16
    e("  mov.u32 sa, smem;\n  shl.b32 t0, warp, 13;\n  add.u32 sa, sa, t0;\n  shl.b32 t1, lane, 4;\n  add.u32 sa, sa, t1;")
    # copy destination region after the 64 KB of fragments: 48 KB per stage, thread t at t * 16
    e("  mov.u32 sc, smem;\n  add.u32 sc, sc, 65536;\n  shl.b32 t0, tid, 4;\n  add.u32 sc, sc, t0;")
    if copies == "bulk":  # per-warp mbarriers (3 stages) after the copy region; lane 0 inits them
        e(f"  mov.u32 mb, smem;\n  add.u32 mb, mb, {65536 + 49152};\n  shl.b32 t0, warp, 5;\n  add.u32 mb, mb, t0;")
        e("  setp.eq.u32 l0, lane, 0;")
        for st in range(3):
            e(f"  @l0 mbarrier.init.shared::cta.b64 [mb+{8 * st}], 1;")
        e("  fence.mbarrier_init.release.cluster;\n  bar.sync 0;")
        # warp's copy destination: 65536 + warp * 6144 (one stage region; stages overwrite it in turn)
        e("  mov.u32 sc, smem;\n  add.u32 sc, sc, 65536;\n  mul.lo.u32 t0, warp, 6144;\n  add.u32 sc, sc, t0;")
    e("  mov.u32 it, 0;\nLOOP:")
    if copies == "bulk":
        # issue this k-tile's copy into stage it % 3, then wait for the one issued 2 k-tiles ago
        e("  rem.u32 st, it, 3;\n  shl.b32 t0, st, 3;\n  add.u32 t1, mb, t0;")
        e("  mul.lo.u32 t0, it, 49152;\n  mad.lo.u32 t0, warp, 6144, t0;\n  and.b32 t0, t0, %d;" % (SRC_BYTES // 2 - 1))
        e("  cvt.u64.u32 gi, t0;\n  add.u64 g, s, gi;")
        e("  @l0 mbarrier.arrive.expect_tx.shared::cta.b64 tok, [t1], 6144;")
        e("  @l0 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [sc], [g], 6144, [t1];")
        e("  setp.lt.u32 q, it, 2;\n  @q bra NOWAIT;")
        e("  sub.u32 t0, it, 2;\n  rem.u32 st, t0, 3;\n  div.u32 par, t0, 3;\n  and.b32 par, par, 1;")
        e("  shl.b32 st, st, 3;\n  add.u32 t1, mb, st;")
        e("WAIT:\n  mbarrier.try_wait.parity.shared::cta.b64 q, [t1], par;\n  @!q bra WAIT;")
        e("NOWAIT:")
    for g in range(KGROUPS_PER_ITER):
        cur, nxt = (g % 2, (g + 1) % 2) if ni == 8 else (0, 0)  # 64x96: one fragment set (registers)
        if ldsm:  # next k-group's fragments into the other register set
            for j in range(4):
                r = [f"a{16 * nxt + 4 * j + q}" for q in range(4)]
                e(f"  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{{', '.join(r)}}}, [sa+{j * 512}];")
            for j in range(NI // 2):
                r = [f"b{nb * nxt + 4 * j + q}" for q in range(4)]
                e(f"  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{{', '.join(r)}}}, [sa+{2048 + j * 512}];")
        if copies in ("cp", "ca"):
            for c in range(cpg[g]):
                idx = sum(cpg[:g]) + c
                # src + ((it * 12 + idx) * 256 + tid) * 16 mod SRC_BYTES
                e(f"  mad.lo.u32 t0, it, {sum(cpg)}, {idx};")
                span = SRC_BYTES if copies == "cp" else L1_SRC_BYTES
                e(f"  mad.lo.u32 t0, t0, {THREADS}, tid;\n  shl.b32 t0, t0, 4;\n  and.b32 t0, t0, {span - 1};")
                e("  cvt.u64.u32 gi, t0;\n  add.u64 g, s, gi;")
                e(f"  cp.async.{'cg' if copies == 'cp' else 'ca'}.shared.global [sc+{idx * THREADS * 16}], [g], 16;")
        base_a, base_b = 16 * cur, nb * cur
        order = [(mi, ni if mi % 2 == 0 else NI - 1 - ni) for mi in range(MI) for ni in range(NI)]
        for mi, ni in order:
            acc = [f"f{(mi * NI + ni) * 4 + q}" for q in range(4)]
            av = [f"a{base_a + 4 * mi + q}" for q in range(4)]
            bv = [f"b{base_b + 2 * ni + q}" for q in range(2)]
            e(f"  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{{', '.join(acc)}}}, {{{', '.join(av)}}}, "
              f"{{{', '.join(bv)}}}, {{{', '.join(acc)}}};")
    if copies in ("cp", "ca"):
        e("  cp.async.commit_group;\n  cp.async.wait_group 2;")
    if barrier:
        e("  bar.sync 0;")
    e("  add.u32 it, it, 1;\n  setp.lt.u32 p, it, n;\n  @p bra LOOP;")
    for i in range(1, MI * NI * 4):
        e(f"  add.f32 f0, f0, f{i};")
    e("  mul.wide.u32 gi, tid, 4;\n  add.u64 g, o, gi;\n  mov.u32 t0, %ctaid.x;\n  mul.wide.u32 gi, t0, 1024;")
    e("  add.u64 g, g, gi;\n  st.global.f32 [g], f0;\n  ret;\n}")
    return "\n".join(L) + "\n"


VARIANTS = [  # name, ldmatrix, copies, bar.sync per k-tile[, n8 blocks per warp]
    ("mma", False, "", False),
    ("mma+ldsm", True, "", False),
    ("mma+ldsm+bar", True, "", True),
    ("mma+ldsm+cp.async", True, "cp", False),
    ("mma+ldsm+cp.async+bar", True, "cp", True),
    ("mma+ldsm+cp.ca(L1)+bar", True, "ca", True),
    ("mma+ldsm+bulk", True, "bulk", False),
    ("mma+ldsm+bulk+bar", True, "bulk", True),
    ("64x96: mma", False, "", False, 12),
    ("64x96: mma+ldsm", True, "", False, 12),
    ("64x96: +cp.async+bar", True, "cp", True, 12),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iters", type=int, default=2000)
    args = ap.parse_args()
    cuda.context()
    sms = cuda._call("cuDeviceGetAttribute", cuda._driver().CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                     cuda._call("cuDeviceGet", 0))
    out = cuda.DeviceBuffer.alloc(sms * 1024 * 4)
    src = cuda.DeviceBuffer.from_array(np.random.default_rng(0).random(SRC_BYTES // 4, dtype=np.float32))
    smem = 65536 + 14 * THREADS * 16 + WARPS * 32
    print(f"{cuda.device_name()}, {sms} SMs, one {THREADS}-thread CTA per SM, {args.iters} x {KGROUPS_PER_ITER} k-groups")
    print(f"{'variant':<22}{'ms':>9}{'TFLOP/s':>10}")
    for name, ldsm, copies, barrier, *ni in VARIANTS:
        ni = ni[0] if ni else 8
        text = ptx(ldsm, copies, barrier, ni)
        f = cuda.get_function(cuda.load_module(text), "k")
        cuda.set_dynamic_smem(f, smem)
        regs = cuda.func_attributes(f)["regs"]
        argv = [out, src, np.int32(args.iters)]
        ms = statistics.median(cuda.time_launches(lambda: cuda.launch(f, (sms,), (THREADS,), smem, argv), 3, 20))
        flops = sms * WARPS * args.iters * KGROUPS_PER_ITER * MI * ni * 2 * 16 * 8 * 16
        print(f"{name:<22}{ms:9.3f}{flops / ms / 1e9:10.1f}   ({regs} regs)")


if __name__ == "__main__":
    main()
