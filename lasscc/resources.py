"""The resource rules of a kernel: threads, shared memory, registers and tile-copy accesses.

One function per rule, one named constant per hardware or measured number.  `GemmConfig.validate`
rejects configs that break them (`resource_error`), the passes build what they count
(lasscc-warp-mma: `prefetch_applies`, `stage_plan`; lasscc-swizzle-smem: `copy_is_loop`),
`lasscc explain` prints them and `lasscc tune` / `lasscc fuzz` pick configs by them.

Every `cfg` below is a `lasscc.config.GemmConfig` in the kernel's operand order; `ab_type` /
`acc_type` are MLIR type names (acc None: 32-bit); `majors` how the kernel's A and B tiles are
stored (lasscc.layout.K_MAJOR / MN_MAJOR).  This module imports no pass and no config (the config
imports it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from lasscc.layout import (
    ACCESS_BYTES,
    K_MAJOR,
    MMA_INPUTS,
    MMA_M,
    MMA_N,
    MN_MAJOR,
    WARP_SIZE,
    copy_iterations,
    copy_whole_rows,
    epilogue_stage_stride,
)


def _inputs(ab_type: str) -> tuple[int, tuple[int, int, int], str]:
    """lasscc.layout.MMA_INPUTS of `ab_type` (an unknown type counts as f16, as GemmConfig does)."""
    return MMA_INPUTS.get(ab_type, MMA_INPUTS["f16"])

# ---- threads and shared memory -------------------------------------------------------------------

# Hardware numbers (CUDA C programming guide, "Compute capabilities" table).
MAX_THREADS_PER_BLOCK = 1024
SMEM_PER_BLOCK_LIMIT = {"sm_80": 163 * 1024, "sm_90a": 227 * 1024}  # opt-in maximum per block
SMEM_DEFAULT_LIMIT = 48 * 1024  # above this a kernel must opt in (cuFuncSetAttribute)


def smem_stages_fit(cfg, arch: str, eb: int) -> int:
    """How many stages of `cfg`'s A + B tiles (elements of `eb` bytes) fit `arch`'s shared memory
    (0 for an unknown arch)."""
    return SMEM_PER_BLOCK_LIMIT.get(arch, 0) // cfg.smem_stage_bytes(eb)


def smem_needs_opt_in(nbytes: int) -> bool:
    """Whether `nbytes` of dynamic shared memory need the launcher's opt-in (cuFuncSetAttribute)."""
    return nbytes > SMEM_DEFAULT_LIMIT


# ---- tile copies (global -> shared) --------------------------------------------------------------

# Multistage tile copies of at most this many accesses per thread are unrolled (every 16-byte copy
# of the configs GemmConfig.validate accepts: 128x128x64 f16 on 128 threads is 8); narrower ones
# with more become an scf.for over the iterations (ptxas would otherwise keep each access's address
# and predicate live across the main loop and spill, e.g. 32 one-byte i8 accesses per operand).
COPY_UNROLL_MAX = 8


def copy_accesses(cfg, ab_type: str = "f16") -> tuple[tuple[int, int], tuple[int, int]]:
    """((accesses, per thread) of one A tile copy, (the same) of B) per k-tile: `align`-wide
    accesses (GemmConfig.access_bytes) shared by the block's threads (lasscc.layout.copy_iterations;
    the count does not depend on how the tile is stored)."""
    eb = _inputs(ab_type)[0]
    bk = cfg.threadblock[2]
    return tuple((rows * bk * eb // w, copy_iterations(rows, bk, eb, cfg.threads, w))
                 for rows, w in zip(cfg.threadblock[:2], cfg.access_bytes(ab_type)))


def copy_is_loop(per_thread: int) -> bool:
    """Whether lasscc-swizzle-smem emits a multistage tile copy of `per_thread` accesses per thread
    as an scf.for over them (above COPY_UNROLL_MAX) rather than unrolled."""
    return per_thread > COPY_UNROLL_MAX


# ---- registers -----------------------------------------------------------------------------------

REGISTER_LIMIT = 255  # 32-bit registers per thread
# The register model (`register_estimate`) counts what a thread holds live across the main loop;
# the rest (block / warp indices, base pointers, loop counters, predicates, ring offsets) must fit
# in REGISTER_SLACK.  ptxas 13.0, sm_90a (sessions 5 and 6, BENCHMARKS.md): estimates of 248 and
# less never spilled (i8 TN 128x256x128 / 128x32x128 / 3 stages / prefetch 1: 248 -> 255 registers;
# i8 NT same tile, no prefetch: 248 -> 244), 256 and more spilled (f16 128x128x32 / 2 stages /
# align 1: 256 -> 168 B; i8 NT 128x256x128 prefetch 1: 288 -> 180 B).
REGISTER_SLACK = 7
REGISTER_BUDGET = REGISTER_LIMIT - REGISTER_SLACK
REG_BYTES = 4  # a 32-bit register
# Fragment loads from an MN-major tile cost registers beyond the fragments: the swizzle takes the
# whole offset, so each load (ldmatrix.x4 per m16 A fragment / per pair of n8 B fragments; tf32:
# two ld.shared.v2 per fragment) of each k-group has its own loop-invariant address (a K-major
# tile's loads share one base register per k-group, lasscc-swizzle-smem).  ptxas 13.0, sm_90a:
# i8 NT 128x256x128 / 128x32x128 / 3 stages (40 addresses): 248 estimated, no spill; with the
# prefetch 288, spilled 180 B; f16 NT 128x256x64 / 128x32x64 with the prefetch: 288, spilled
# 168 B; tf32 TT and NN 128x256x32 / 64x64x32 / 2 stages / align 1: 272, spilled 128 and 24 B.
MN_LOAD_REGS = 1
# stages = 2 keeps the next k-tile's copies in registers across the mma: their values, and where
# the threads do not cover whole lines (lasscc.layout.copy_whole_rows false) each access's own
# shared address and loop-invariant bound test.  ptxas 13.0, sm_90a, i8 32x128x32 / 32x64x32 /
# align 1: B K-major (fixed columns) 176 estimated, no spill; B MN-major (64 accesses, own
# columns): 312 and 320, spilled 224 and 184 B.
STAGED_OWN_COLUMN_REGS = 2
# ... and one register per access for its value: session 5's 2-byte accesses (f16 64x64 warp tiles,
# align 1: 48 accesses at 240 estimated no spill, 64 at 256 spilled 168 B).  Wider accesses hold
# more, but not for long: ptxas sinks their loads (f16 128x128x64 / 64x64x64 / 2 stages, 16 16-byte
# accesses: 168 registers, no spill).
STAGED_ACCESS_REGS = 1
# ... and a narrow access (under 16 bytes) of an MN-major tile its own shared address: the swizzle
# takes its whole offset, as for the MN-major fragment loads (MN_LOAD_REGS).  ptxas 13.0, sm_90a,
# 2 stages, align 1, 248 estimated without it: f16 TT 128x256x32 / 64x64x32 spilled 16 B, f16acc NN
# 256x128x64 / 32x128x64 and TT 128x256x64 / 128x32x64 64 and 32 B (BENCHMARKS "Session 6").
STAGED_MN_NARROW_REGS = 1


def fragment_regs(ab_type: str = "f16") -> tuple[int, int]:
    """32-bit registers per thread of one mma.sync A fragment (m16 x IK) and one B fragment
    (IK x n8) of A/B type `ab_type`: the fragment's elements over the warp's 32 lanes, packed
    (2 f16 / bf16, 1 tf32, 4 s8 per register: 4 and 2 for every type)."""
    eb, (mm, mn, mk), _ = _inputs(ab_type)
    return mm * mk * eb // WARP_SIZE // REG_BYTES, mk * mn * eb // WARP_SIZE // REG_BYTES


def acc_regs(cfg, acc_type: str | None = None) -> int:
    """32-bit registers per thread of the warp tile's accumulators: WM x WN values over 32 lanes,
    f16 ones packed in pairs (lasscc-lower-to-llvm)."""
    acc_bytes = 2 if acc_type == "f16" else 4
    return cfg.warp[0] * cfg.warp[1] * acc_bytes // WARP_SIZE // REG_BYTES


@dataclass(frozen=True)
class RegisterEstimate:
    """32-bit registers per thread that a kernel holds live across its main loop (`register_estimate`)."""

    acc: int  # accumulators
    frag_set: int  # one k-group's A and B fragments
    sets: int  # fragment sets live at once: 1 with one k-group, 2 (double buffering), 3 with the prefetch
    mn_loads: int  # the addresses of the fragment loads from MN-major tiles
    staged: int  # stages = 2: the next k-tile's copy accesses (values, and MN-major shared addresses)
    staged_accesses: int = 0  # how many accesses `staged` holds

    @property
    def total(self) -> int:
        return self.acc + self.sets * self.frag_set + self.mn_loads + self.staged

    def describe(self) -> str:
        parts = [f"{self.acc} accumulators", f"{self.sets} x {self.frag_set} fragments"]
        if self.mn_loads:
            parts.append(f"{self.mn_loads} addresses of MN-major fragment loads")
        if self.staged:
            parts.append(f"{self.staged} for the next k-tile's {self.staged_accesses} copy accesses (stages = 2)")
        return " + ".join(parts)

    def advice(self, cfg) -> str:
        """What to change, biggest part first."""
        if self.staged and self.staged >= self.acc // 2:
            return "use stages >= 3 (cp.async: no registers hold the copies), wider accesses or a smaller warp tile"
        return "use a smaller warp tile" + (" or stages >= 3" if cfg.stages == 2 else "")


def register_estimate(cfg, ab_type: str = "f16", majors: tuple[str, str] = (K_MAJOR, K_MAJOR),
                      acc_type: str | None = None, prefetch: bool = False) -> RegisterEstimate:
    """The registers per thread that config `cfg` (kernel operand order) holds live across the main
    loop, for A/B elements `ab_type`, tiles stored `majors`, accumulator `acc_type` and the
    cross-stage prefetch applied or not.  The one register model: `resource_error` rejects totals
    over REGISTER_BUDGET, `prefetch_applies` leaves the prefetch out above it, lasscc explain
    prints it.

    - accumulators: `acc_regs`;
    - fragments: (WM/16) A and (WN/8) B fragments of `fragment_regs` per k-group; two k-groups'
      worth live (loads of g + 1 before the mma.sync of g), one with a single k-group, three with
      the prefetch;
    - MN-major tiles: MN_LOAD_REGS per fragment load of every k-group (its own address), twice
      with the prefetch;
    - stages = 2 (MmaPipelined): each of the next k-tile's copy accesses holds its value between
      its ld.global and st.shared (STAGED_ACCESS_REGS), and where the threads do not cover whole
      lines (lasscc.layout.copy_whole_rows) its own address and bound test
      (STAGED_OWN_COLUMN_REGS), and a narrow access of an MN-major tile its own shared address
      (STAGED_MN_NARROW_REGS).
      (cp.async copies hold nothing across the mma: ptxas recomputes their addresses.)"""
    eb = _inputs(ab_type)[0]
    bm, bn, bk = cfg.threadblock
    wm, wn, _ = cfg.warp
    mi, ni, kg = wm // MMA_M, wn // MMA_N, max(1, bk // cfg.instruction[2])
    fa, fb = fragment_regs(ab_type)
    frag = mi * fa + ni * fb
    sets = min(2, kg) + (1 if prefetch else 0)
    loads = (2 if eb == 4 else 1) * ((mi if majors[0] == MN_MAJOR else 0) + (ni // 2 if majors[1] == MN_MAJOR else 0))
    # with the cross-stage prefetch the next k-tile's first fragments are loaded from another ring
    # slot while this slot's addresses are live: twice the addresses (f16 NN 128x128x64 / 64x64x64 /
    # 3 stages / prefetch 1 at 240 without it: 255 registers and 8 B of spill, ptxas 13.0 sm_90a)
    mn = MN_LOAD_REGS * loads * kg * (2 if prefetch else 1)
    staged = accesses = 0
    if cfg.stages == 2:
        per_thread = (n for _, n in copy_accesses(cfg, ab_type))
        for rows, w, major, n in zip((bm, bn), cfg.access_bytes(ab_type), majors, per_thread):
            line_elems = rows if major == MN_MAJOR else bk  # the tile in its global order
            per = 0 if copy_whole_rows(cfg.threads, line_elems, eb, w) else STAGED_OWN_COLUMN_REGS
            per += STAGED_MN_NARROW_REGS if major == MN_MAJOR and w < ACCESS_BYTES else 0
            accesses += n
            staged += n * (STAGED_ACCESS_REGS + per)
    return RegisterEstimate(acc_regs(cfg, acc_type), frag, sets, mn, staged, accesses)


# ---- the cross-stage fragment prefetch (lasscc-warp-mma) -----------------------------------------

# The cross-stage prefetch keeps a third fragment set live across the barrier.  Before
# lasscc-swizzle-smem took the constant offsets out of the swizzle (one address register per
# k-group instead of one per fragment), 64x64 warp tiles with BK = 64 (4 k-groups) spilled under
# ptxas 13.0; now 128x256x64 fits in 254 registers without spills (BENCHMARKS.md).  Above this many
# k-groups per tile the prefetch is left out.
PREFETCH_MAX_KGROUPS = 4
# ... and above this many tile-copy accesses per thread per k-tile (A + B, `copy_accesses`):
# narrow `align` widths multiply the copies, whose addresses and predicates then crowd out the
# third fragment set.  ptxas 13.0, sm_90a, f16, every SEARCH_TILES config with prefetch x align
# 1/2/4/8 (session 5): 16 or fewer never spilled; 24 and more spilled 16-376 bytes (128x256x32 at
# align 2: 24; 256x128x64 at align 4: 24; 128x128x32 at align 2: 32).
PREFETCH_MAX_COPIES = 16


def prefetch_applies(cfg, ab_type: str, majors: tuple[str, str] = (K_MAJOR, K_MAJOR),
                     acc_type: str | None = None) -> bool:
    """Whether lasscc-warp-mma carries the next stage's first fragments across the k-tile barrier
    for config `cfg` (prefetch = 1 asks for it) with A/B elements `ab_type`, tiles stored `majors`
    and accumulator `acc_type`: a multistage (cp.async) main loop, at most PREFETCH_MAX_KGROUPS
    k-groups and PREFETCH_MAX_COPIES copy accesses per thread, and the third fragment set within
    REGISTER_BUDGET (i8 NT 128x256x128 / 128x32x128: 288 estimated, spilled 180 B with it;
    without it 248, no spill)."""
    if not cfg.prefetch or cfg.stages < 3 or cfg.threadblock[2] // cfg.instruction[2] > PREFETCH_MAX_KGROUPS:
        return False
    (_, pa), (_, pb) = copy_accesses(cfg, ab_type)
    if pa + pb > PREFETCH_MAX_COPIES:
        return False
    return register_estimate(cfg, ab_type, majors, acc_type, prefetch=True).total <= REGISTER_BUDGET


# ---- the staged epilogue (lasscc-warp-mma) -------------------------------------------------------

# D element sizes whose full-block epilogue goes through shared memory (`stage_plan`).  Measured on
# the H100 (BENCHMARKS.md, 2026-11-23 session 4, 256x128x64 / 4 stages, 4096^3, three rounds in one
# call): f16 D 455.8 -> 484.7 TFLOP/s (+6%: a lane's 4-byte pair stores fill half of each 32-byte
# sector, the staged 16-byte stores whole lines); f32 D 473.5 -> 470.8 (-0.6%: its 8-byte pairs
# already fill the sectors, the staging only adds shared-memory traffic and barriers).
STAGED_EPILOGUE_BYTES = (2,)


def stage_plan(cfg, ab_type: str, out_bytes: int) -> tuple[int, int] | None:
    """(rows per chunk, row stride) of the staged epilogue for config `cfg`, A/B elements `ab_type`
    and D elements of `out_bytes`, or None when it does not apply (lasscc explain shows it too).

    Each warp stages its tile through its own shared-memory buffer of `rows` x stride bytes
    (lasscc.layout.epilogue_stage_stride), reusing the rings' space, for the D element sizes of
    STAGED_EPILOGUE_BYTES (16-bit D): the most m16 bands per chunk (a divisor of WM/16) whose
    buffers for all warps fit in the kernel's dynamic shared memory, so the fewest barriers.  None
    when even one band does not fit, or a row of the warp tile is not a power of two of 16-byte
    chunks from 2 to 32 (WN = 48 f16: direct stores)."""
    row_bytes = cfg.warp[1] * out_bytes
    per_row = row_bytes // ACCESS_BYTES
    # epilogue_read_map needs rows of a power of two of 16-byte chunks (2 to 32): a pass of the
    # warp's 32 lanes then covers whole rows (a 48-wide f16 row, 6 chunks, would not)
    if out_bytes not in STAGED_EPILOGUE_BYTES or row_bytes % ACCESS_BYTES or not 2 <= per_row <= WARP_SIZE \
            or per_row & (per_row - 1):
        return None
    smem = cfg.smem_bytes(_inputs(ab_type)[0])  # the kernel's dynamic shared memory (KernelSpec)
    stride = epilogue_stage_stride(cfg.warp[1], out_bytes)
    warps = cfg.threads // WARP_SIZE
    mi = cfg.warp[0] // MMA_M
    for bands in sorted((d for d in range(1, mi + 1) if mi % d == 0), reverse=True):
        if warps * bands * MMA_M * stride <= smem:
            return bands * MMA_M, stride
    return None


# ---- the config check ----------------------------------------------------------------------------


def resource_error(cfg, arch: str, ab_type: str = "f16", majors: tuple[str, str] = (K_MAJOR, K_MAJOR),
                   acc_type: str | None = None) -> str | None:
    """What `cfg` needs beyond `arch`'s shared memory or the register budget, with what to change,
    or None.  (GemmConfig.validate checks the shape rules first, then asks here.)"""
    eb = _inputs(ab_type)[0]
    bm, bn, bk = cfg.threadblock
    limit = SMEM_PER_BLOCK_LIMIT[arch]
    need = cfg.smem_bytes(eb)
    if need > limit:
        fits = smem_stages_fit(cfg, arch, eb)
        if fits < 2:
            return (f"two stages of a {bm}x{bn}x{bk} threadblock need {2 * cfg.smem_stage_bytes(eb) // 1024} KB of "
                    f"shared memory; {arch} allows {limit // 1024} KB: use a smaller threadblock tile")
        if fits == 2:  # 2 stages hold the next k-tile in registers: name them when they pass the budget
            two = register_estimate(replace(cfg, stages=2), ab_type, majors, acc_type)
            if two.total > REGISTER_BUDGET:
                return (f"stages={cfg.stages} needs {need // 1024} KB of shared memory; {arch} allows {limit // 1024} "
                        f"KB, which 2 stages fit, but 2 stages keep the copies in ~{two.total} registers per thread "
                        f"(at most {REGISTER_BUDGET}): use a smaller threadblock tile")
        return f"stages={cfg.stages} needs {need // 1024} KB of shared memory; {arch} allows {limit // 1024} KB; " \
               f"stages <= {fits} fit"
    # registers: the prefetch counted only where lasscc-warp-mma applies it (it leaves it out when
    # it would pass the budget)
    est = register_estimate(cfg, ab_type, majors, acc_type, prefetch_applies(cfg, ab_type, majors, acc_type))
    if est.total > REGISTER_BUDGET:
        wm, wn, _ = cfg.warp
        how = f"{cfg.stages} stages" + (f", align {list(cfg.align_elems(ab_type))}" if est.staged else "")
        return (f"the warp tile {wm}x{wn} ({how}) needs ~{est.total} registers per thread ({est.describe()}); "
                f"expected at most {REGISTER_BUDGET} (the {REGISTER_LIMIT}-register limit less {REGISTER_SLACK} for "
                f"indices and pointers): ptxas would spill; {est.advice(cfg)}")
    return None


# ---- the Hopper (mma = "wgmma") kernel design ------------------------------------------------------
# BM/64 consumer warpgroups, each computing 64 x BN of D with wgmma.m64nBNk* SS (A and B from shared
# memory through matrix descriptors), thread 0 issuing the TMA loads of a stage, a ring of `stages`
# slots with a full and an empty mbarrier per slot (lasscc-pipeline / lasscc-warpgroup-mma /
# lasscc-hopper-smem).  GemmConfig.validate calls `wgmma_config_error` for `mma = "wgmma"`.

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
# Independent wgmma accumulator chains a warpgroup's BN columns may be split into (wgmma_chains).
WGMMA_CHAINS = (1, 2, 4)
MN_LINE_ELEMS = 64  # an MN-major 16-bit tile is stored in 128-byte lines (128B swizzle) along M / N
MBARRIER_BYTES = 8  # one mbarrier is a .b64 in shared memory
BARRIERS_PER_STAGE = 2  # full (TMA transaction bytes) and empty (consumers release the slot)
# Registers beyond the accumulators: thread / block indices, loop counters, the k-tile's slot and
# phase, two descriptor words per operand, barrier addresses, epilogue addresses and predicates.
# ptxas 13.0 sm_90a (this branch): 128x256x64 / 4 stages f16 -> f32 (128 accumulators) assembles
# without spills; the budget below leaves the same slack as the mma.sync model.
WGMMA_OTHER_REGS = 40
# ... and per further m64 of a warpgroup's tile (a 128-row pingpong consumer: its second wgmma's A
# descriptors, the other accumulator chain's live ranges in the epilogue).  ptxas 13.0 sm_90a,
# pingpong 128 x BN x 64 / 4 stages / persistent, f16 -> f32, setmaxnreg 232: BN = 160 and 168
# (acc 160, 168) no spill, also with the TMA-store epilogue; BN = 176 spilled 64 B, 192 144 B:
# 24 puts the bound between 168 and 176.
WGMMA_M_TILE_REGS = 24
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


def wgmma_chains(cfg) -> int:
    """Independent wgmma accumulator chains per m64 of a warpgroup's tile: BN / the instruction's N
    (config `instruction = [64, N, K]`; 1 by default).  Chain c reads B rows c N .. c N + N - 1 and
    owns the accumulator values c N/2 .. (c + 1) N/2 - 1 (sm90_layout.acc_coord: an m64nBN
    fragment is its m64nN fragments side by side), so a split changes the instructions, not the
    accumulator layout (cuBLAS's sm90 128x256 kernels issue two 64x128 chains)."""
    return cfg.threadblock[1] // cfg.instruction[1]


def wgmma_chain_split(bn: int, n: int) -> bool:
    """Whether a wgmma N of `n` splits a warpgroup's BN = `bn` columns into WGMMA_CHAINS chains."""
    return n > 0 and bn % n == 0 and bn // n in WGMMA_CHAINS


def wgmma_instruction_error(cfg, ab_type: str, b_major: str = K_MAJOR) -> str | None:
    """Why a wgmma config's `instruction` is not m64nNk(32 bytes) with N = BN / chains (1, 2 or 4
    chains, wgmma_chains), or None.  An MN-major B tile is read in 128-byte lines along N
    (MN_LINE_ELEMS), so each chain's N must be whole lines."""
    bn, kk = cfg.threadblock[1], wgmma_k(ab_type)
    im, n, ik = cfg.instruction
    ok = (im, ik) == (WGMMA_M, kk) and wgmma_chain_split(bn, n) and wgmma_n_ok(n, ab_type)
    if ok and b_major == MN_MAJOR and n % MN_LINE_ELEMS:
        return (f"instruction = {list(cfg.instruction)}: an MN-major B tile is read in {MN_LINE_ELEMS}-element lines "
                f"along N, so each wgmma chain's N must be a multiple of {MN_LINE_ELEMS}")
    if ok:
        return None
    ns = ", ".join(str(bn // c) for c in WGMMA_CHAINS if bn % c == 0 and wgmma_n_ok(bn // c, ab_type))
    return (f"instruction = {list(cfg.instruction)}: with mma = \"wgmma\" it is wgmma.m{WGMMA_M}nNk{kk}, "
            f"[{WGMMA_M}, N, {kk}] with N = threadblock N ({bn}) / 1, 2 or 4 accumulator chains ({ns}); "
            f"leave it out to get N = {bn}")


def warpgroups(cfg) -> int:
    """Consumer warpgroups sharing one tile of a wgmma block: one per 64 rows of BM, but one in the
    pingpong schedule, whose consumer warpgroups each compute a whole BM x BN tile of their own."""
    return 1 if is_pingpong(cfg) else cfg.threadblock[0] // WGMMA_M


def warpgroup_rows(cfg) -> int:
    """Rows of D one consumer warpgroup computes: 64, or the pingpong schedule's whole BM (64 or 128)."""
    return cfg.threadblock[0] // warpgroups(cfg)


def wgmma_m_tiles(cfg) -> int:
    """wgmma.m64 instructions a warpgroup issues per wgmma K step: one per 64 of its rows (a pingpong
    consumer on a 128-row tile issues two, rows 0..63 and 64..127, as CUTLASS's 128xN pingpong tile)."""
    return warpgroup_rows(cfg) // WGMMA_M


def unspecialized_threads(cfg) -> int:
    """Threads of a wgmma block before lasscc-warp-specialize splits its roles (and of the default
    schedule): one consumer warpgroup per 64 rows of BM, thread 0 also the producer."""
    return warpgroups(cfg) * WARPGROUP_THREADS


# One lane per warp releases a TMA-ring slot at the physical level (lasscc-hopper-smem, CUTLASS's
# signalling thread): the warp's wgmma.wait_group (.sync.aligned, the whole warp) has retired the
# wgmmas that read the slot, so one arrival stands for its 32 threads.  Per-thread arrivals cost
# 256 mbarrier arrives per k-tile, and as many DSMEM arrives on the peer in a cluster (0.6x cuBLAS
# with them: BENCHMARKS.md session 9).
RELEASE_THREADS_PER_ARRIVAL = WARP_SIZE


def empty_barrier_arrivals(consumer_arrivals: int, cluster=(1, 1)) -> int:
    """Arrivals an empty barrier of the TMA ring expects per phase at the physical level: one per
    consumer warp (`consumer_arrivals` threads, lasscc-pipeline's count: `ring_arrivals`) of every CTA
    whose producer writes into the slot, i.e. of the CTAs sharing a multicast operand (a consumer
    releases the slot to each of their producers: lasscc.cluster)."""
    from lasscc.cluster import sharers

    warps = -(-consumer_arrivals // RELEASE_THREADS_PER_ARRIVAL)
    return warps * (sharers(cluster) if tuple(cluster) != (1, 1) else 1)


def consumer_warpgroups(cfg) -> int:
    """Consumer warpgroups of a wgmma block: one per 64 rows of BM, or the pingpong schedule's
    PINGPONG_CONSUMERS (each on its own BM x BN tile)."""
    return PINGPONG_CONSUMERS if is_pingpong(cfg) else warpgroups(cfg)


def wgmma_consumer_threads(cfg) -> int:
    """Threads that run the wgmmas and release the ring's slots."""
    return consumer_warpgroups(cfg) * WARPGROUP_THREADS


def ring_arrivals(cfg) -> int:
    """Arrivals an empty barrier of the TMA ring expects per phase: the threads that consume one
    k-tile.  Every consumer thread, but in the pingpong schedule one consumer warpgroup (a k-tile
    belongs to one consumer's tile; the other never waits for nor releases it)."""
    return WARPGROUP_THREADS if is_pingpong(cfg) else wgmma_consumer_threads(cfg)


def wgmma_threads(cfg) -> int:
    """Threads of a wgmma block: the consumers, plus the producer warpgroup of a warp-specialized
    schedule (warpgroup 0)."""
    return wgmma_consumer_threads(cfg) + (WARPGROUP_THREADS if is_warp_specialized(cfg) else 0)


# ---- warp specialization (config `schedule`, passes/warp_specialize.py) ------------------------------
SCHEDULE_DEFAULT = "default"  # every thread consumes, thread 0 also produces (no role split)
SCHEDULE_COOPERATIVE = "cooperative"  # CUTLASS KernelTmaWarpSpecializedCooperative: a producer warpgroup
# CUTLASS KernelTmaWarpSpecializedPingpong: a producer warpgroup and two consumer warpgroups, each
# computing its own BM x BN tiles (the CTA's even / odd ones; BM = 64 or 128, PINGPONG_TILE_M),
# their mainloops and epilogues alternating through an ordering barrier (lasscc.schedule)
SCHEDULE_PINGPONG = "pingpong"
SCHEDULES = (SCHEDULE_DEFAULT, SCHEDULE_COOPERATIVE, SCHEDULE_PINGPONG)
PINGPONG_CONSUMERS = 2  # CUTLASS's NumMmaWarpGroups
# threadblock M of a pingpong config: each consumer's own tile, one or two wgmma M (CUTLASS's
# pingpong tiles 64xN and 128xN; 128 x BN f32 accumulators are BN registers per thread)
PINGPONG_TILE_M = (WGMMA_M, 2 * WGMMA_M)
# The pingpong ordering barrier (CUTLASS's OrderedSequenceBarrier<2, 2>): one mbarrier per stage
# (mainloop, epilogue) and consumer, after the ring's barriers
ORDER_STAGES = 2
REGISTER_FILE = 65536  # 32-bit registers per SM (H100: 64K), the bound of a block's setmaxnreg budgets
SETMAXNREG_MIN, SETMAXNREG_MAX, SETMAXNREG_STEP = 24, 256, 8  # PTX ISA setmaxnreg: imm in 24..256, multiple of 8
# Registers per thread after setmaxnreg (CUTLASS sm90 cooperative and pingpong: LoadRegisterRequirement 40,
# MmaRegisterRequirement 232): the producer only computes TMA coordinates and barrier addresses.
PRODUCER_REGS = 40
CONSUMER_REGS = 232


def is_warp_specialized(cfg) -> bool:
    """A producer warpgroup and consumer warpgroups (lasscc-warp-specialize)."""
    return getattr(cfg, "schedule", SCHEDULE_DEFAULT) in (SCHEDULE_COOPERATIVE, SCHEDULE_PINGPONG)


def is_pingpong(cfg) -> bool:
    return getattr(cfg, "schedule", SCHEDULE_DEFAULT) == SCHEDULE_PINGPONG


def walks_tiles(cfg) -> bool:
    """Whether each CTA walks several output tiles (lass_sched's tile loop): `persistent = 1`, or
    the pingpong schedule, whose consumers take alternate tiles of the CTA even without it."""
    return bool(getattr(cfg, "persistent", 0)) or is_pingpong(cfg)


def walking_staged_epilogue(cfg, ab_type: str, out_bytes: int) -> bool:
    """Whether `cfg` walks tiles and stages its D of `out_bytes` elements through shared memory
    (`stage_plan`): the staging reuses the operand ring, which the producer is already refilling for
    the next tile, so lasscc-warp-specialize rejects it (and `lasscc tune` does not time it).  The
    TMA-store epilogue (EPILOGUE_TMA) stages in buffers of its own: False."""
    return (walks_tiles(cfg) and getattr(cfg, "epilogue", EPILOGUE_DIRECT) != EPILOGUE_TMA
            and stage_plan(cfg, ab_type, out_bytes) is not None)


def order_barrier_bytes(cfg) -> int:
    """Shared memory of the pingpong ordering barrier (none for the other schedules)."""
    return ORDER_STAGES * PINGPONG_CONSUMERS * MBARRIER_BYTES if is_pingpong(cfg) else 0


def launch_regs(threads: int) -> int:
    """Registers per thread ptxas gives a kernel of `threads` threads (.maxntid) so one block fits
    the register file: the largest multiple of SETMAXNREG_STEP (the allocation granule)."""
    return min(REGISTER_LIMIT // SETMAXNREG_STEP * SETMAXNREG_STEP,
               REGISTER_FILE // threads // SETMAXNREG_STEP * SETMAXNREG_STEP)


def setmaxnreg_error(regs: int) -> str | None:
    """Why `regs` is no setmaxnreg immediate, or None."""
    if not (SETMAXNREG_MIN <= regs <= SETMAXNREG_MAX and regs % SETMAXNREG_STEP == 0):
        return (f"expected a register count in {SETMAXNREG_MIN}..{SETMAXNREG_MAX}, a multiple of {SETMAXNREG_STEP}, "
                f"got {regs}")
    return None


def role_budget(cfg) -> tuple[int, int]:
    """(producer, consumer) registers per thread after setmaxnreg, for the cooperative and the
    pingpong schedule alike (CUTLASS's pingpong lowers to 24 / 240 only when a consumer's
    accumulators reach 208 registers, HeavyRegisterPressure; a 64-row consumer tile holds at most
    128, 64 x 256 f32 over 128 threads, and a 128-row one BN: `role_budget_error` rejects those
    whose accumulators do not fit the 232)."""
    return PRODUCER_REGS, CONSUMER_REGS


def role_budget_error(cfg, acc_type: str | None) -> str | None:
    """Why the roles' register budgets do not fit (the register file, the consumer's accumulators)."""
    prod, cons = role_budget(cfg)
    total = prod * WARPGROUP_THREADS + cons * wgmma_consumer_threads(cfg)
    if total > REGISTER_FILE:
        return (f"schedule = \"{cfg.schedule}\": {prod} producer + {cons} consumer registers per thread "
                f"need {total} registers, more than the {REGISTER_FILE} of the register file")
    if wgmma_register_estimate(cfg, acc_type) > cons:
        rows, bn, fits = warpgroup_rows(cfg), cfg.threadblock[1], _fitting_n(cfg, acc_type, cons)
        return (f"schedule = \"{cfg.schedule}\": threadblock = {list(cfg.threadblock)}: a consumer warpgroup's "
                f"{rows}x{bn} accumulators need ~{wgmma_register_estimate(cfg, acc_type)} registers per thread "
                f"({wgmma_acc_regs(cfg, acc_type)} + ~{wgmma_other_regs(cfg)} others), more than its {cons} after "
                f"setmaxnreg; use a smaller threadblock N" + (f" (at most {fits})" if fits else ""))
    return None


def _fitting_n(cfg, acc_type: str | None, regs: int) -> int:
    """The largest threadblock N (a multiple of 8, as wgmma's) whose accumulators fit `regs` (0: none)."""
    return max((n for n in range(8, WGMMA_N_MAX + 1, 8)
                if wgmma_register_estimate(replace(cfg, threadblock=(cfg.threadblock[0], n, cfg.threadblock[2])),
                                           acc_type) <= regs), default=0)


def wgmma_tile_align(row_bytes: int) -> int:
    """Alignment of a TMA tile under the swizzle of `row_bytes` lines: the pattern's period (8 lines),
    so the TMA's swizzle and a descriptor with base offset 0 agree (1024 B for 128B, 512 for 64B)."""
    return 8 * row_bytes


def wgmma_ring_bytes(cfg, elem_bytes: int) -> int:
    """Bytes of both rings: stages x (BM + BN) x BK elements (each slot a multiple of the pattern)."""
    bm, bn, bk = cfg.threadblock
    return cfg.stages * (bm + bn) * bk * elem_bytes


# The epilogue's store path (GemmConfig.epilogue): "direct" (lasscc-warp-mma's per-thread stores,
# the staged 16-bit path through the rings' space) or "tma" (wgmma only: a staging double buffer of
# its own, stmatrix / st.shared, TMA stores; lasscc.sm90_layout "TMA-store epilogue").
EPILOGUE_DIRECT, EPILOGUE_TMA = "direct", "tma"
EPILOGUES = (EPILOGUE_DIRECT, EPILOGUE_TMA)
# D types the TMA-store epilogue stages: 16-bit by stmatrix, 32-bit by st.shared.v2 (an i8 D, which
# only a fused epilogue makes, keeps the direct stores)
TMA_STORE_D_TYPES = {"f16": 2, "bf16": 2, "f32": 4, "i32": 4}  # type -> bytes


def tma_store_stage_bytes(cfg) -> int:
    """Shared memory of the TMA-store epilogue's staging buffers (0 for the direct epilogue): two
    subtiles of BM rows x one 128-byte swizzle line, after the rings, apart from them so the
    producer may refill the ring during the epilogue (persistent = 1).  The pingpong schedule's
    consumers share them: the ordering barrier runs their epilogues one at a time, and each ends
    with its stores' reads retired (passes/tma_store.py) before it lets the other's begin."""
    if getattr(cfg, "epilogue", EPILOGUE_DIRECT) != EPILOGUE_TMA:
        return 0
    from lasscc.sm90_layout import EPILOGUE_STAGE_BUFFERS, EPILOGUE_STAGE_ROW_BYTES

    return EPILOGUE_STAGE_BUFFERS * cfg.threadblock[0] * EPILOGUE_STAGE_ROW_BYTES


def tma_store_stage_offset(cfg, elem_bytes: int, buffer: int = 0) -> int:
    """Byte offset of staging buffer `buffer`: after the rings, rounded up to the 128B swizzle's
    1024-byte pattern (each buffer's size is a multiple of it too, so every buffer starts on it)."""
    align = wgmma_tile_align(128)
    start = -(-wgmma_ring_bytes(cfg, elem_bytes) // align) * align
    return start + buffer * (tma_store_stage_bytes(cfg) // 2)


def epilogue_error(cfg, d_type: str | None) -> str | None:
    """Why `cfg`'s `epilogue` cannot store D of MLIR type `d_type` (None: not known yet), or None."""
    from lasscc.sm90_layout import epilogue_subtile

    epi = getattr(cfg, "epilogue", EPILOGUE_DIRECT)
    if epi not in EPILOGUES:
        return f"expected epilogue one of {', '.join(repr(e) for e in EPILOGUES)}, got {epi!r}"
    if epi == EPILOGUE_DIRECT:
        return None
    if getattr(cfg, "swap_ab", 0):
        return ("epilogue = \"tma\" with swap_ab = 1 is not supported (the transposed D^T is stored column-major "
                "by per-thread stores; a column-major D is computed as D^T without swap_ab); use epilogue = \"direct\"")
    if cfg.mma != "wgmma":
        return "epilogue = \"tma\" needs mma = \"wgmma\" (TMA stores are sm_90a's)"
    if cfg.split_k > 1:  # (stream-K's finisher stores D once, after the fix-up: the TMA store serves it)
        return ("epilogue = \"tma\" takes no split-K (its partitions add to D through a semaphore "
                "that the asynchronous store would race); use epilogue = \"direct\" or stream-K")
    if d_type is None:
        return None
    if d_type not in TMA_STORE_D_TYPES:
        return (f"epilogue = \"tma\" stages an {' / '.join(TMA_STORE_D_TYPES)} D, got {d_type}; "
                f"use epilogue = \"direct\"")
    if epilogue_subtile(cfg.threadblock[1], TMA_STORE_D_TYPES[d_type]) is None:
        return (f"threadblock N = {cfg.threadblock[1]}: epilogue = \"tma\" stores subtiles of 32-, 64- or 128-byte "
                f"rows of D, so N x {TMA_STORE_D_TYPES[d_type]} bytes must be a multiple of 32")
    return None


def wgmma_barrier_offset(cfg, elem_bytes: int) -> int:
    """Byte offset of the mbarriers: right after the rings and the TMA-store epilogue's staging
    buffers (8-byte aligned: both are multiples of the swizzle pattern)."""
    if tma_store_stage_bytes(cfg):
        return tma_store_stage_offset(cfg, elem_bytes) + tma_store_stage_bytes(cfg)
    return wgmma_ring_bytes(cfg, elem_bytes)


def order_barrier_offset(cfg, elem_bytes: int) -> int:
    """Byte offset of the pingpong ordering barrier: after the ring's mbarriers."""
    return wgmma_barrier_offset(cfg, elem_bytes) + cfg.stages * BARRIERS_PER_STAGE * MBARRIER_BYTES


def wgmma_smem_bytes(cfg, elem_bytes: int) -> int:
    """Dynamic shared memory of a wgmma block: the rings plus a full and an empty mbarrier per stage
    (and the pingpong ordering barrier)."""
    return order_barrier_offset(cfg, elem_bytes) + order_barrier_bytes(cfg)


def wgmma_stage_tx_bytes(cfg, elem_bytes: int) -> int:
    """Bytes the TMA writes per stage (the full barrier's transaction count): whole boxes, out-of-bounds
    elements included (the TMA counts the zero-filled bytes too)."""
    bm, bn, bk = cfg.threadblock
    return (bm + bn) * bk * elem_bytes


def wgmma_acc_regs(cfg, acc_type: str | None) -> int:
    """Accumulator registers per thread: a warpgroup's rows (`warpgroup_rows`: 64, or a pingpong
    consumer's 128) x BN values over its 128 threads, f16 ones two per register."""
    vals = warpgroup_rows(cfg) * cfg.threadblock[1] // WARPGROUP_THREADS
    return vals // 2 if acc_type == "f16" else vals


def wgmma_other_regs(cfg) -> int:
    """Registers beyond the accumulators per consumer thread (WGMMA_OTHER_REGS, WGMMA_M_TILE_REGS)."""
    return WGMMA_OTHER_REGS + WGMMA_M_TILE_REGS * (wgmma_m_tiles(cfg) - 1)


def wgmma_register_estimate(cfg, acc_type: str | None) -> int:
    return wgmma_acc_regs(cfg, acc_type) + wgmma_other_regs(cfg)


def wgmma_config_error(cfg, arch: str, ab_type: str, majors, acc_type: str | None) -> str | None:
    """Why `cfg` (mma = "wgmma") cannot be compiled for `arch`, or None (GemmConfig.validate's
    check of a wgmma config: shapes, operand rules, shared memory, registers).  The messages name
    the key."""
    smem_limit, threads_max = SMEM_PER_BLOCK_LIMIT.get(arch, 0), MAX_THREADS_PER_BLOCK
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
    if tuple(cfg.warp) != (WGMMA_M, bn, bk):
        return (f"warp = {list(cfg.warp)}: with mma = \"wgmma\" it is the warpgroup tile [{WGMMA_M}, {bn}, {bk}] "
                f"(leave it out to get it)")
    bad = wgmma_instruction_error(cfg, ab_type, majors[1])
    if bad:
        return bad
    if cfg.stages < 2:
        return f"expected stages >= 2, got {cfg.stages}"
    if cfg.prefetch:
        return "prefetch = 1 is the mma.sync fragment prefetch; with mma = \"wgmma\" it must be 0"
    if cfg.align is not None:
        return "align: the wgmma path loads tiles with TMA (no per-thread copy width); leave align out"
    if getattr(cfg, "persistent", 0) not in (0, 1):
        return f"expected persistent = 0 or 1, got {cfg.persistent}"
    if getattr(cfg, "persistent", 0) and not is_warp_specialized(cfg):
        return (f"persistent = 1 needs schedule = \"{SCHEDULE_COOPERATIVE}\" or \"{SCHEDULE_PINGPONG}\" (the producer "
                f"walks the tiles ahead)")
    if getattr(cfg, "schedule", SCHEDULE_DEFAULT) not in SCHEDULES:
        return f"expected schedule one of {', '.join(repr(x) for x in SCHEDULES)}, got {cfg.schedule!r}"
    if is_warp_specialized(cfg):
        if cfg.split_k != 1:
            return f"schedule = \"{cfg.schedule}\" takes no split_k yet (its producer loops over all of K)"
        if is_pingpong(cfg) and bm not in PINGPONG_TILE_M:
            return (f"schedule = \"{SCHEDULE_PINGPONG}\": threadblock M = {bm}: it is each of the {PINGPONG_CONSUMERS} "
                    f"consumer warpgroups' own tile, one or two wgmma M, so M must be "
                    f"{' or '.join(map(str, PINGPONG_TILE_M))}")
        if not is_pingpong(cfg) and warpgroups(cfg) != WARPGROUPS_MAX:
            return (f"schedule = \"{SCHEDULE_COOPERATIVE}\": threadblock M = {bm}: the cooperative schedule's "
                    f"{WARPGROUPS_MAX} consumer warpgroups share one tile, so M must be {WARPGROUPS_MAX * WGMMA_M} "
                    f"(with the producer, {WARPGROUPS_MAX + 1} warpgroups: the {PRODUCER_REGS} / {CONSUMER_REGS} "
                    f"registers of setmaxnreg assume ptxas's {launch_regs((WARPGROUPS_MAX + 1) * WARPGROUP_THREADS)} "
                    f"at launch)")
        bad = role_budget_error(cfg, acc_type)
        if bad:
            return bad
    if wgmma_threads(cfg) > threads_max:
        return f"{wgmma_threads(cfg)} threads; at most {threads_max} per block"
    need = wgmma_smem_bytes(cfg, eb)
    if need > smem_limit:
        per = wgmma_smem_bytes(type(cfg)(**{**cfg.__dict__, "stages": 1}), eb)
        stage = tma_store_stage_bytes(cfg)
        staging = f", {stage} bytes of TMA-store staging" if stage else ""
        return (f"stages={cfg.stages} needs {need} bytes of shared memory (rings and {BARRIERS_PER_STAGE} mbarriers per "
                f"stage{staging}); {arch} allows {smem_limit}; stages <= {(smem_limit - stage) // (per - stage)} fit")
    regs = wgmma_register_estimate(cfg, acc_type)
    if regs > REGISTER_LIMIT:
        return (f"threadblock N = {bn}: {wgmma_acc_regs(cfg, acc_type)} accumulator registers per thread + "
                f"~{wgmma_other_regs(cfg)} others exceed {REGISTER_LIMIT}")
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
