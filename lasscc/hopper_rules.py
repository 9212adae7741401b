"""Resource and shape rules of the Hopper (wgmma) kernel design, one function each.

The design (issue 14, lasscc-pipeline / lasscc-warpgroup-mma / lasscc-hopper-smem): BM/64 consumer
warpgroups, each computing 64 x BN of D with wgmma.m64nBNk* SS (A and B from shared memory through
matrix descriptors), thread 0 issuing the TMA loads of a stage, a ring of `stages` slots with a full
and an empty mbarrier per slot.  GemmConfig.validate calls `validate_wgmma` for `mma = "wgmma"`.

These move to lasscc/resources.py once it lands (issue 13); until then this module is their one place.
"""

from __future__ import annotations

from lasscc.layout import MMA_INPUTS, MN_MAJOR

WGMMA = "wgmma"
MMA_SYNC = "mma.sync"
MMA_FAMILIES = (MMA_SYNC, WGMMA)
WGMMA_ARCHS = ("sm_90a",)  # wgmma / TMA / mbarrier.expect_tx are sm_90a features (PTX ISA 9.7.15)
WGMMA_M = 64  # every wgmma is m64nNk*: one warpgroup covers 64 rows of D
WARPGROUP_THREADS = 128  # 4 warps issue one wgmma together
WARPGROUPS_MAX = 2  # consumer warpgroups per block in this design (BM = 64 or 128)
WGMMA_N_MAX = 256
# wgmma reads 32 bytes of K per instruction for every A/B type (k16 f16/bf16, k8 tf32, k32 s8)
WGMMA_K_BYTES = 32
# BK rows of 64 or 128 bytes: one TMA box per operand tile under the 64B / 128B swizzle, whose
# line the row fills exactly (the swizzle mode = the row width; lasscc.sm90_layout.SwizzleMode)
WGMMA_ROW_BYTES = (64, 128)
MN_LINE_ELEMS = 64  # an MN-major 16-bit tile is stored in 128-byte lines (128B swizzle) along M / N
MBARRIER_BYTES = 8  # one mbarrier is a .b64 in shared memory
BARRIERS_PER_STAGE = 2  # full (TMA transaction bytes) and empty (consumers release the slot)
# Registers beyond the accumulators: thread / block indices, loop counters, the k-tile's slot and
# phase, two descriptor words per operand, barrier addresses, epilogue addresses and predicates.
# ptxas 13.0 sm_90a (this branch): 128x256x64 / 4 stages f16 -> f32 (128 accumulators) assembles
# without spills; the budget below leaves the same slack as the mma.sync model.
WGMMA_OTHER_REGS = 40
REGISTER_LIMIT = 255
# The types wgmma reads K-major from shared memory here, with their PTX names (tf32, s8: K-major
# only, PTX ISA "wgmma operand rules"; f16/bf16 MN-major through imm-trans).
WGMMA_INPUTS = {"f16": "f16", "bf16": "bf16", "f32": "tf32", "i8": "s8"}
WGMMA_ACC = {"f16": ("f32", "f16"), "bf16": ("f32",), "f32": ("f32",), "i8": ("i32",)}


def wgmma_k(ab_type: str) -> int:
    """K of one wgmma for A/B elements `ab_type` (MLIR name): 32 bytes of them."""
    return WGMMA_K_BYTES // MMA_INPUTS[ab_type][0]


def wgmma_n_ok(n: int, ab_type: str) -> bool:
    """N of m64nNk*: multiples of 8 up to 256; s8 8, 16, 24 and multiples of 16 from 32."""
    if not (8 <= n <= WGMMA_N_MAX and n % 8 == 0):
        return False
    return ab_type != "i8" or n <= 24 or n % 16 == 0


def warpgroups(cfg) -> int:
    """Consumer warpgroups of a wgmma block: one per 64 rows of BM."""
    return cfg.threadblock[0] // WGMMA_M


def wgmma_threads(cfg) -> int:
    return warpgroups(cfg) * WARPGROUP_THREADS


def wgmma_tile_align(row_bytes: int) -> int:
    """Alignment of a TMA tile under the swizzle of `row_bytes` lines: the pattern's period (8 lines),
    so the TMA's swizzle and a descriptor with base offset 0 agree (1024 B for 128B, 512 for 64B)."""
    return 8 * row_bytes


def wgmma_ring_bytes(cfg, elem_bytes: int) -> int:
    """Bytes of both rings: stages x (BM + BN) x BK elements (each slot a multiple of the pattern)."""
    bm, bn, bk = cfg.threadblock
    return cfg.stages * (bm + bn) * bk * elem_bytes


def wgmma_barrier_offset(cfg, elem_bytes: int) -> int:
    """Byte offset of the mbarriers: right after the rings (8-byte aligned: the rings' size is a
    multiple of the swizzle pattern)."""
    return wgmma_ring_bytes(cfg, elem_bytes)


def wgmma_smem_bytes(cfg, elem_bytes: int) -> int:
    """Dynamic shared memory of a wgmma block: the rings plus a full and an empty mbarrier per stage."""
    return wgmma_barrier_offset(cfg, elem_bytes) + cfg.stages * BARRIERS_PER_STAGE * MBARRIER_BYTES


def wgmma_stage_tx_bytes(cfg, elem_bytes: int) -> int:
    """Bytes the TMA writes per stage (the full barrier's transaction count): whole boxes, out-of-bounds
    elements included (the TMA counts the zero-filled bytes too)."""
    bm, bn, bk = cfg.threadblock
    return (bm + bn) * bk * elem_bytes


def wgmma_acc_regs(cfg, acc_type: str | None) -> int:
    """Accumulator registers per thread: 64 x BN values over 128 threads, f16 ones two per register."""
    vals = WGMMA_M * cfg.threadblock[1] // WARPGROUP_THREADS
    return vals // 2 if acc_type == "f16" else vals


def wgmma_register_estimate(cfg, acc_type: str | None) -> int:
    return wgmma_acc_regs(cfg, acc_type) + WGMMA_OTHER_REGS


def validate_wgmma(cfg, arch: str, ab_type: str, majors, acc_type: str | None, smem_limit: int,
                   threads_max: int) -> str | None:
    """Why `cfg` (mma = "wgmma") cannot be compiled for `arch`, or None.  The messages name the key."""
    bm, bn, bk = cfg.threadblock
    if arch not in WGMMA_ARCHS:
        return f"mma = \"wgmma\" needs --arch {' or '.join(WGMMA_ARCHS)} (wgmma, TMA and mbarrier transactions), got '{arch}'"
    if ab_type not in WGMMA_INPUTS:
        return f"mma = \"wgmma\": expected f16, bf16, f32 (tf32) or i8 A and B, got {ab_type}"
    for name, major in zip("AB", majors):
        if major == MN_MAJOR and MMA_INPUTS[ab_type][0] != 2:
            return (f"mma = \"wgmma\": {WGMMA_INPUTS[ab_type]} operands must be K-major in shared memory (the {name} "
                    f"tile is MN-major here); use mma = \"mma.sync\" for this layout")
    for name, major, rows in (("A", majors[0], bm), ("B", majors[1], bn)):
        if major == MN_MAJOR and rows % MN_LINE_ELEMS:
            return (f"threadblock {'M' if name == 'A' else 'N'} = {rows}: an MN-major {name} tile is loaded and read in "
                    f"128-byte lines of {MN_LINE_ELEMS} elements along {'M' if name == 'A' else 'N'} (the 128B "
                    f"swizzle), so it must be a multiple of {MN_LINE_ELEMS}")
    if any(v <= 0 for v in cfg.threadblock):
        return f"expected positive threadblock sizes, got {list(cfg.threadblock)}"
    if bm % WGMMA_M or not 1 <= bm // WGMMA_M <= WARPGROUPS_MAX:
        return (f"threadblock M = {bm}: with mma = \"wgmma\" it must be {WGMMA_M} or {2 * WGMMA_M} (one consumer "
                f"warpgroup per {WGMMA_M} rows, at most {WARPGROUPS_MAX})")
    if not wgmma_n_ok(bn, ab_type):
        want = "8, 16, 24 or a multiple of 16 up to 256" if ab_type == "i8" else "a multiple of 8 up to 256"
        return f"threadblock N = {bn}: with mma = \"wgmma\" it is the wgmma N, {want}"
    eb = MMA_INPUTS[ab_type][0]
    if bk * eb not in WGMMA_ROW_BYTES:
        ks = " or ".join(str(r // eb) for r in WGMMA_ROW_BYTES)
        return (f"threadblock K = {bk}: with mma = \"wgmma\" it must be {ks} {ab_type} (rows of "
                f"{' or '.join(map(str, WGMMA_ROW_BYTES))} bytes: the 64B / 128B swizzle of the TMA box and the descriptor)")
    kk = wgmma_k(ab_type)
    if tuple(cfg.warp) != (WGMMA_M, bn, bk):
        return (f"warp = {list(cfg.warp)}: with mma = \"wgmma\" it is the warpgroup tile [{WGMMA_M}, {bn}, {bk}] "
                f"(leave it out to get it)")
    if tuple(cfg.instruction) != (WGMMA_M, bn, kk):
        return (f"instruction = {list(cfg.instruction)}: with mma = \"wgmma\" it is wgmma.m{WGMMA_M}n{bn}k{kk}, "
                f"[{WGMMA_M}, {bn}, {kk}] (leave it out to get it)")
    if cfg.stages < 2:
        return f"expected stages >= 2, got {cfg.stages}"
    if cfg.prefetch:
        return "prefetch = 1 is the mma.sync fragment prefetch; with mma = \"wgmma\" it must be 0"
    if cfg.align is not None:
        return "align: the wgmma path loads tiles with TMA (no per-thread copy width); leave align out"
    if wgmma_threads(cfg) > threads_max:
        return f"{wgmma_threads(cfg)} threads; at most {threads_max} per block"
    need = wgmma_smem_bytes(cfg, eb)
    if need > smem_limit:
        per = wgmma_smem_bytes(type(cfg)(**{**cfg.__dict__, "stages": 1}), eb)
        return (f"stages={cfg.stages} needs {need} bytes of shared memory (rings and {BARRIERS_PER_STAGE} mbarriers per "
                f"stage); {arch} allows {smem_limit}; stages <= {smem_limit // per} fit")
    regs = wgmma_register_estimate(cfg, acc_type)
    if regs > REGISTER_LIMIT:
        return (f"threadblock N = {bn}: {wgmma_acc_regs(cfg, acc_type)} accumulator registers per thread + "
                f"~{WGMMA_OTHER_REGS} others exceed {REGISTER_LIMIT}")
    return None


def wgmma_defaults(threadblock, k: int) -> dict:
    """The `warp` and `instruction` a wgmma config gets when it leaves them out (`k`: the wgmma K,
    32 bytes of the A/B type, as the type's mma.sync K)."""
    bm, bn, bk = threadblock
    return {"warp": (WGMMA_M, bn, bk), "instruction": (WGMMA_M, bn, k)}


def mma_sync_fallback(threadblock, ab_type: str) -> dict:
    """The mma.sync tiling a wgmma config falls back to where TMA cannot load the operands (a
    global row stride that is not a multiple of 16 bytes, i.e. sizes that need narrow copies):
    the same threadblock and stages, 64 x 64 warp tiles (or the tile, when smaller) over BK, the
    type's mma.sync shape."""
    bm, bn, bk = threadblock
    return {"warp": (min(64, bm), min(64, bn), bk), "instruction": MMA_INPUTS[ab_type][1]}
