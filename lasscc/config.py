"""The tiling configuration of a GEMM and the kernel's launch contract.

`GemmConfig` is what the user writes in `config = {...}` on `lass.gemm` (or passes as
`--threadblock 128x128x32 --warp 64x64x32 --stages 3`).  `validate` checks it before any pass runs
and names the rule it broke.  `KernelSpec` is what the host needs to launch the emitted PTX; the
passes write it as attributes on the kernel function and `KernelSpec.from_func` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lasscc.diagnostics import LassError
from lasscc.layout import ACCESS_BYTES, K_MAJOR, MMA_INPUTS, MN_MAJOR

# Hardware numbers (CUDA C programming guide, "Compute capabilities" table).
MAX_THREADS_PER_BLOCK = 1024
SMEM_PER_BLOCK_LIMIT = {"sm_80": 163 * 1024, "sm_90a": 227 * 1024}  # opt-in maximum per block
SMEM_DEFAULT_LIMIT = 48 * 1024  # above this a kernel must opt in (cuFuncSetAttribute)
REGISTER_LIMIT = 255  # 32-bit registers per thread
# The register model (`register_estimate`) counts what a thread holds live across the main loop;
# the rest (block / warp indices, base pointers, loop counters, predicates, ring offsets) must fit
# in REGISTER_SLACK.  ptxas 13.0, sm_90a (sessions 5 and 6, BENCHMARKS.md): estimates of 248 and
# less never spilled (i8 TN 128x256x128 / 128x32x128 / 3 stages / prefetch 1: 248 -> 255 registers;
# i8 NT same tile, no prefetch: 248 -> 244), 256 and more spilled (f16 128x128x32 / 2 stages /
# align 1: 256 -> 168 B; i8 NT 128x256x128 prefetch 1: 288 -> 180 B).
REGISTER_SLACK = 7
REGISTER_BUDGET = REGISTER_LIMIT - REGISTER_SLACK
# Registers of one mma.sync fragment per thread, for every A/B type (f16/bf16 pairs, tf32, s8
# quads): an m16 x IK A fragment 4, an IK x n8 B fragment 2 (lasscc.layout.MMA_INPUTS shapes).
FRAG_REGS_A, FRAG_REGS_B = 4, 2
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

SUPPORTED_ARCHS = ("sm_80", "sm_90a")
# The kernel takes M, N and K as i32 and computes each element offset inside one matrix in i32
# (lasscc-lower-to-llvm widens it to 64 bits only at the pointer): every size, every matrix's
# element count (M*K, N*K, M*N) and every config integer must stay below 2^31 (size_limit_error).
I32_LIMIT = 2**31
MAX_BATCH = 65535  # a batch is the grid's z dimension: CUDA's gridDim.z maximum
# Row widths (bytes) of a K-major SMEM tile for which Swizzle<3,4,3> makes every 8-row ldmatrix
# phase conflict-free (lasscc.layout; a 256-byte row would need a wider swizzle atom).
SWIZZLE_ROW_BYTES = (32, 64, 128)


@dataclass(frozen=True)
class GemmConfig:
    threadblock: tuple[int, int, int] = (128, 128, 32)
    warp: tuple[int, int, int] = (64, 64, 32)
    instruction: tuple[int, int, int] = (16, 8, 16)
    stages: int = 3
    raster: int = 8  # threadblock rasterization group (tile rows walked together)
    # 1: load the next stage's first fragments across the k-tile barrier (lasscc-warp-mma).  Off
    # by default: it costs ~30 registers and pays off only when one block fills the SM
    # (128x256: 326 -> 424 TFLOP/s; 128x128 at 2 blocks/SM: 455 -> 367 at 8192^3, BENCHMARKS.md).
    prefetch: int = 0
    # elements per global -> shared copy access of A and B (CUTLASS's AlignmentA / AlignmentB), in
    # the kernel's operand order; None: the full ACCESS_BYTES (8 f16/bf16, 4 f32, 16 i8).  Narrower
    # accesses let an operand's contiguous dimension be any multiple of them (lasscc-swizzle-smem).
    align: tuple[int, int] | None = None
    # the instruction family: "mma.sync" (the warp-level data flow) or "wgmma" (sm_90a: TMA,
    # mbarriers and warpgroup MMA, lasscc.hopper_rules); written in the config only when "wgmma"
    mma: str = "mma.sync"

    @property
    def is_wgmma(self) -> bool:
        return self.mma == "wgmma"

    def access_bytes(self, ab_type: str = "f16") -> tuple[int, int]:
        """Bytes per copy access of (A, B): align * element bytes, or ACCESS_BYTES."""
        from lasscc.layout import ACCESS_BYTES

        if self.align is None:
            return (ACCESS_BYTES, ACCESS_BYTES)
        eb = MMA_INPUTS.get(ab_type, MMA_INPUTS["f16"])[0]
        return (self.align[0] * eb, self.align[1] * eb)

    def align_elems(self, ab_type: str = "f16") -> tuple[int, int]:
        """Elements per copy access of (A, B) (`align`, or the full access width)."""
        eb = MMA_INPUTS.get(ab_type, MMA_INPUTS["f16"])[0]
        wa, wb = self.access_bytes(ab_type)
        return (wa // eb, wb // eb)

    @property
    def warps_m(self) -> int:
        return self.threadblock[0] // self.warp[0]

    @property
    def warps_n(self) -> int:
        return self.threadblock[1] // self.warp[1]

    @property
    def threads(self) -> int:
        if self.is_wgmma:
            from lasscc.hopper_rules import wgmma_threads

            return wgmma_threads(self)
        return self.warps_m * self.warps_n * 32

    def smem_stage_bytes(self, elem_bytes: int = 2) -> int:
        bm, bn, bk = self.threadblock
        return (bm + bn) * bk * elem_bytes

    def smem_bytes(self, elem_bytes: int = 2) -> int:
        if self.is_wgmma:
            from lasscc.hopper_rules import wgmma_smem_bytes

            return wgmma_smem_bytes(self, elem_bytes)
        return self.smem_stage_bytes(elem_bytes) * self.stages

    def as_dict(self) -> dict[str, object]:
        return {
            "threadblock": list(self.threadblock),
            "warp": list(self.warp),
            "instruction": list(self.instruction),
            "stages": self.stages,
            "raster": self.raster,
            "prefetch": self.prefetch,
            **({"align": list(self.align)} if self.align is not None else {}),
            **({"mma": self.mma} if self.mma != "mma.sync" else {}),
        }

    def validate(self, arch: str = "sm_80", where: str = "config", ab_type: str = "f16",
                 majors: tuple[str, str] = (K_MAJOR, K_MAJOR), acc_type: str | None = None) -> None:
        """Raise LassError naming the broken rule; `where` prefixes the message (a location or option).
        `ab_type` (MLIR name of the A/B elements: f16, bf16, f32 (tf32 mma), i8) fixes the mma.sync
        shape and the element size that the SMEM rules count in; `majors` (how the kernel's A and B
        tiles are stored, "k" / "mn") and `acc_type` (the accumulator, None: 32-bit) the registers
        (`register_estimate`)."""

        def fail(msg: str) -> None:
            raise LassError(f"{where}: {msg}")

        if arch not in SUPPORTED_ARCHS:
            fail(f"expected arch one of {', '.join(SUPPORTED_ARCHS)}, got '{arch}'")
        from lasscc.hopper_rules import MMA_FAMILIES, validate_wgmma

        if self.mma not in MMA_FAMILIES:
            fail(f"expected mma one of {', '.join(repr(m) for m in MMA_FAMILIES)}, got {self.mma!r}")
        if self.is_wgmma:
            bad = validate_wgmma(self, arch, ab_type, majors, acc_type, SMEM_PER_BLOCK_LIMIT[arch],
                                 MAX_THREADS_PER_BLOCK)
            if bad:
                fail(bad)
            return
        bm, bn, bk = self.threadblock
        wm, wn, wk = self.warp
        im, in_, ik = self.instruction
        eb, shape, ptx = MMA_INPUTS.get(ab_type, MMA_INPUTS["f16"])
        if self.instruction != shape:
            fail(f"expected instruction = {list(shape)} (mma.sync.m{shape[0]}n{shape[1]}k{shape[2]} for {ptx} "
                 f"inputs), got {list(self.instruction)}")
        for name, val in (("threadblock", self.threadblock), ("warp", self.warp)):
            if any(v <= 0 for v in val):
                fail(f"expected positive {name} sizes, got {list(val)}")
        if bm % wm or bn % wn:
            fail(f"expected warp tile {wm}x{wn} to divide threadblock tile {bm}x{bn}")
        if wk != bk:
            fail(f"expected warp K ({wk}) to equal threadblock K ({bk}): each warp covers the whole BK slice")
        if wm % im:
            fail(f"expected warp M ({wm}) to be a multiple of the instruction M ({im})")
        if wn % (2 * in_):
            fail(f"expected warp N ({wn}) to be a multiple of {2 * in_} (ldmatrix.x4 loads two n8 B blocks)")
        if bk % ik:
            fail(f"expected threadblock K ({bk}) to be a multiple of the instruction K ({ik})")
        if bk * eb not in SWIZZLE_ROW_BYTES:
            ks = [str(r // eb) for r in SWIZZLE_ROW_BYTES]
            fail(f"expected threadblock K of {', '.join(ks[:-1])} or {ks[-1]} {ab_type} (rows of "
                 f"{'/'.join(map(str, SWIZZLE_ROW_BYTES))} bytes, which the XOR swizzle keeps conflict-free), got {bk}")
        if self.threads > MAX_THREADS_PER_BLOCK:
            fail(f"{self.warps_m * self.warps_n} warps = {self.threads} threads; at most {MAX_THREADS_PER_BLOCK} per block")
        for rows in (bm, bn):
            chunks = rows * bk * eb // 16
            if chunks % self.threads and self.threads % chunks:
                fail(f"a {rows}x{bk} {ab_type} tile has {chunks} 16-byte chunks, which {self.threads} threads cannot share evenly")
            if chunks < self.threads:
                fail(f"a {rows}x{bk} {ab_type} tile has {chunks} 16-byte chunks, fewer than the {self.threads} threads")
        if self.stages < 2:
            fail(f"expected stages >= 2, got {self.stages}")
        if not 1 <= self.raster < I32_LIMIT:
            fail(f"expected 1 <= raster < 2^31 (an i32 in the kernel), got {self.raster}")
        if self.prefetch not in (0, 1):
            fail(f"expected prefetch = 0 or 1, got {self.prefetch}")
        if self.align is not None:
            bad = align_error(self.align, ab_type)
            if bad:
                fail(bad)
        limit = SMEM_PER_BLOCK_LIMIT[arch]
        need = self.smem_bytes(eb)
        if need > limit:
            fits = limit // self.smem_stage_bytes(eb)
            if fits < 2:
                fail(f"two stages of a {bm}x{bn}x{bk} threadblock need {2 * self.smem_stage_bytes(eb) // 1024} KB of "
                     f"shared memory; {arch} allows {limit // 1024} KB: use a smaller threadblock tile")
            if fits == 2:  # 2 stages hold the next k-tile in registers: name them when they pass the budget
                two = register_estimate(GemmConfig(**{**self.__dict__, "stages": 2}), ab_type, majors, acc_type)
                if two.total > REGISTER_BUDGET:
                    fail(f"stages={self.stages} needs {need // 1024} KB of shared memory; {arch} allows {limit // 1024} "
                         f"KB, which 2 stages fit, but 2 stages keep the copies in ~{two.total} registers per thread "
                         f"(at most {REGISTER_BUDGET}): use a smaller threadblock tile")
            fail(
                f"stages={self.stages} needs {need // 1024} KB of shared memory; {arch} allows "
                f"{limit // 1024} KB; stages <= {fits} fit"
            )
        # registers: `register_estimate` (the prefetch only where lasscc-warp-mma applies it, which
        # leaves it out when it would pass the budget)
        from lasscc.passes.warp_mma import prefetch_applies

        est = register_estimate(self, ab_type, majors, acc_type, prefetch_applies(self, ab_type, majors, acc_type))
        if est.total > REGISTER_BUDGET:
            how = f"{self.stages} stages" + (f", align {list(self.align_elems(ab_type))}" if est.staged else "")
            fail(
                f"the warp tile {wm}x{wn} ({how}) needs ~{est.total} registers per thread ({est.describe()}); "
                f"expected at most {REGISTER_BUDGET} (the {REGISTER_LIMIT}-register limit less {REGISTER_SLACK} for "
                f"indices and pointers): ptxas would spill; {est.advice(self)}"
            )


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

    def advice(self, cfg: GemmConfig) -> str:
        """What to change, biggest part first."""
        if self.staged and self.staged >= self.acc // 2:
            return "use stages >= 3 (cp.async: no registers hold the copies), wider accesses or a smaller warp tile"
        return "use a smaller warp tile" + (" or stages >= 3" if cfg.stages == 2 else "")


def register_estimate(cfg: GemmConfig, ab_type: str = "f16", majors: tuple[str, str] = (K_MAJOR, K_MAJOR),
                      acc_type: str | None = None, prefetch: bool = False) -> RegisterEstimate:
    """The registers per thread that config `cfg` (kernel operand order) holds live across the main
    loop, for A/B elements `ab_type`, tiles stored `majors` ("k" / "mn", lasscc.layout.K_MAJOR /
    MN_MAJOR, the kernel's A and B), accumulator `acc_type` (MLIR name; None: 32-bit) and the
    cross-stage prefetch applied or not.  The one register model: GemmConfig.validate rejects
    totals over REGISTER_BUDGET, lasscc-warp-mma's prefetch_applies leaves the prefetch out above
    it, lasscc explain prints it.

    - accumulators: WM x WN values over 32 lanes (f16 ones packed in pairs);
    - fragments: (WM/16) A fragments of FRAG_REGS_A and (WN/8) B fragments of FRAG_REGS_B per
      k-group; two k-groups' worth live (loads of g + 1 before the mma.sync of g), one with a
      single k-group, three with the prefetch;
    - MN-major tiles: MN_LOAD_REGS per fragment load of every k-group (its own address), twice
      with the prefetch;
    - stages = 2 (MmaPipelined): each of the next k-tile's copy accesses holds its value between
      its ld.global and st.shared (STAGED_ACCESS_REGS), and where the threads do not cover whole
      lines (lasscc.layout.copy_whole_rows) its own address and bound test
      (STAGED_OWN_COLUMN_REGS), and a narrow access of an MN-major tile its own shared address
      (STAGED_MN_NARROW_REGS).
      (cp.async copies hold nothing across the mma: ptxas recomputes their addresses.)"""
    from lasscc.layout import MMA_M, MMA_N, WARP_SIZE, copy_iterations, copy_whole_rows

    eb = MMA_INPUTS.get(ab_type, MMA_INPUTS["f16"])[0]
    bm, bn, bk = cfg.threadblock
    wm, wn, _ = cfg.warp
    mi, ni, kg = wm // MMA_M, wn // MMA_N, max(1, bk // cfg.instruction[2])
    acc_bytes = 2 if acc_type == "f16" else 4
    acc = wm * wn * acc_bytes // WARP_SIZE // 4
    frag = mi * FRAG_REGS_A + ni * FRAG_REGS_B
    sets = min(2, kg) + (1 if prefetch else 0)
    loads = (2 if eb == 4 else 1) * ((mi if majors[0] == MN_MAJOR else 0) + (ni // 2 if majors[1] == MN_MAJOR else 0))
    # with the cross-stage prefetch the next k-tile's first fragments are loaded from another ring
    # slot while this slot's addresses are live: twice the addresses (f16 NN 128x128x64 / 64x64x64 /
    # 3 stages / prefetch 1 at 240 without it: 255 registers and 8 B of spill, ptxas 13.0 sm_90a)
    mn = MN_LOAD_REGS * loads * kg * (2 if prefetch else 1)
    staged = accesses = 0
    if cfg.stages == 2:
        for rows, w, major in zip((bm, bn), cfg.access_bytes(ab_type), majors):
            lines, line_elems = (bk, rows) if major == MN_MAJOR else (rows, bk)  # the tile in its global order
            n = copy_iterations(lines, line_elems, eb, cfg.threads, w)
            per = 0 if copy_whole_rows(cfg.threads, line_elems, eb, w) else STAGED_OWN_COLUMN_REGS
            per += STAGED_MN_NARROW_REGS if major == MN_MAJOR and w < ACCESS_BYTES else 0
            accesses += n
            staged += n * (STAGED_ACCESS_REGS + per)
    return RegisterEstimate(acc, frag, sets, mn, staged, accesses)


def default_config(ab_type: str) -> GemmConfig:
    """The default tiling for A/B elements of MLIR type `ab_type`: GemmConfig() with the mma.sync
    shape of that type (a `config` without `instruction` takes it)."""
    if ab_type not in MMA_INPUTS:
        return GemmConfig()
    eb, shape, _ = MMA_INPUTS[ab_type]
    # BK = 64 bytes of K (two k-groups): f16's 32; tf32 BK = 32 has 4 k-groups and spills on sm_80
    bk = 64 // eb
    return GemmConfig(threadblock=(128, 128, bk), warp=(64, 64, bk), instruction=shape)


# A and B are read from global memory in accesses of `align` elements (GemmConfig.align; by
# default 16 bytes: 8 f16/bf16, 4 f32, 16 i8) along each operand's contiguous dimension (K for a
# row-major A or column-major B, M for a column-major A, N for a row-major B), each access
# predicated as a whole: that dimension must be a multiple of the operand's access width.  The one
# place the rule lives: `lasscc run` / `bench` / `tune` and the API ask here, and pick the widest
# width the sizes allow when the input gives none (`widest_align`).
ACCESS_ELEMS = 8  # 16-bit elements per 16-byte access
# The narrowest access: one element (1 byte for i8).  Widths are powers of two from it up to
# ACCESS_BYTES (lasscc-swizzle-smem: 16 -> cp.async.cg, 8 / 4 -> cp.async.ca, 2 / 1 -> ld.global +
# st.shared).
MIN_ACCESS_BYTES = 1


def access_elems(ab_dtype: str = "f16") -> int:
    """Elements of A/B type `ab_dtype` (MLIR name) in one full (16-byte) access."""
    from lasscc.layout import ACCESS_BYTES

    return ACCESS_BYTES // MMA_INPUTS.get(ab_dtype, MMA_INPUTS["f16"])[0]


def align_choices(ab_dtype: str = "f16") -> list[int]:
    """The valid `align` values (elements) for A/B type `ab_dtype`, widest first: powers of two
    from access_elems down to 1 (16 bytes down to one element)."""
    out, a = [], access_elems(ab_dtype)
    while a >= 1:
        out.append(a)
        a //= 2
    return out


def align_error(align, ab_dtype: str = "f16") -> str | None:
    """What is wrong with an `align` value ([A, B] elements), or None."""
    choices = align_choices(ab_dtype)
    try:
        vals = [int(v) for v in align]
        ok = len(vals) == 2 and all(not isinstance(v, bool) and float(v) == int(v) for v in align)
    except (TypeError, ValueError):
        ok = False
    if not ok:
        return f"expected align = [A, B] (two integers, elements per access), got {align!r}"
    for name, v in zip("AB", vals):
        if v not in choices:
            return (f"expected align {name} a power of two from 1 to {choices[0]} {ab_dtype} elements "
                    f"(at most 16 bytes per access), got {v}")
    return None


def parse_align(text: str, option: str = "--align", ab_dtype: str | None = None) -> tuple[int, int]:
    """'8,8' (or one number for both) for option `option`; LassError naming the option."""
    parts = [p.strip() for p in str(text).split(",")]
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or not all(p.isdecimal() and int(p) > 0 for p in parts):
        raise LassError(f"option {option}: expected A,B elements per access as two positive integers "
                        f"(e.g. 8,8 or 1,8), got '{text}'")
    vals = (int(parts[0]), int(parts[1]))
    if ab_dtype is not None:
        bad = align_error(vals, ab_dtype)
        if bad:
            raise LassError(f"option {option}: {bad}")
    return vals


def _contiguous_dims(a_layout: str, b_layout: str) -> tuple[str, str]:
    """The size along which A and B (the caller's layouts) are contiguous."""
    return ("K" if a_layout == "row" else "M"), ("K" if b_layout == "col" else "N")


def alignment_rules(a_layout: str = "row", b_layout: str = "col", ab_dtype: str = "f16",
                    align: tuple[int, int] | None = None) -> dict[str, int]:
    """{"M": m, "N": n, "K": k}: the multiple each size must be for A and B in these layouts
    ("row" / "col", the caller's), element type and access widths (`align`: (A, B) elements in the
    caller's order, None for the full 16 bytes): each operand's contiguous dimension a multiple of
    its access width."""
    import math

    rules = {"M": 1, "N": 1, "K": 1}
    full = access_elems(ab_dtype)
    widths = align if align is not None else (full, full)
    for dim, w in zip(_contiguous_dims(a_layout, b_layout), widths):
        rules[dim] = rules[dim] * int(w) // math.gcd(rules[dim], int(w))
    return rules


def alignment_reasons(a_layout: str = "row", b_layout: str = "col", ab_dtype: str = "f16",
                      align: tuple[int, int] | None = None) -> dict[str, str]:
    """{dim: why} for the sizes alignment_rules constrains."""
    why: dict[str, list[tuple[str, int]]] = {}
    name = {"row": "row-major", "col": "column-major"}
    eb = MMA_INPUTS.get(ab_dtype, MMA_INPUTS["f16"])[0]
    full = access_elems(ab_dtype)
    widths = align if align is not None else (full, full)
    for op, lay, dim, w in zip("AB", (a_layout, b_layout), _contiguous_dims(a_layout, b_layout), widths):
        why.setdefault(dim, []).append((f"a {name.get(lay, lay)} {op}", int(w) * eb))
    out = {}
    for dim, items in why.items():
        if len(items) == 2 and items[0][1] == items[1][1]:
            out[dim] = f"{items[0][0]} and {items[1][0]} are read along {dim} in {items[0][1]}-byte accesses"
        else:
            out[dim] = " and ".join(f"{who} is read along {dim} in {w}-byte accesses" for who, w in items)
    return out


def alignment_error(m: int, n: int, k: int, a_layout: str = "row", b_layout: str = "col",
                    ab_dtype: str = "f16", align: tuple[int, int] | None = None) -> tuple[str, str] | None:
    """(dim, message) for the first size that breaks alignment_rules, else None."""
    rules = alignment_rules(a_layout, b_layout, ab_dtype, align)
    why = alignment_reasons(a_layout, b_layout, ab_dtype, align)
    for dim, val in (("M", m), ("N", n), ("K", k)):
        if val % rules[dim]:
            return dim, f"expected a multiple of {rules[dim]} ({why[dim]}), got {val}"
    return None


def widest_align(m: int, n: int, k: int, a_layout: str = "row", b_layout: str = "col", ab_dtype: str = "f16",
                 ptr_bytes: tuple[int, int] | None = None) -> tuple[int, int]:
    """The widest (A, B) access widths (elements, the caller's order) that sizes m, n, k allow: the
    largest power of two up to 16 bytes dividing each operand's contiguous dimension, and (with
    `ptr_bytes`, the byte alignment of the A and B base addresses) that the pointers allow."""
    sizes = {"M": m, "N": n, "K": k}
    eb = MMA_INPUTS.get(ab_dtype, MMA_INPUTS["f16"])[0]
    out = []
    for i, dim in enumerate(_contiguous_dims(a_layout, b_layout)):
        for w in align_choices(ab_dtype):
            if sizes[dim] % w == 0 and (ptr_bytes is None or ptr_bytes[i] % (w * eb) == 0):
                out.append(w)
                break
    return (out[0], out[1])


def size_limit_error(m: int, n: int, k: int, batch: int = 1) -> tuple[str, str] | None:
    """None when the kernel's 32-bit sizes and offsets hold an M x N x K GEMM (of `batch`), else
    (the size to blame: "M", "N", "K" or "batch"; "expected ..., got ...")."""
    for name, v in (("M", m), ("N", n), ("K", k)):
        if not 1 <= v < I32_LIMIT:
            return name, f"expected 1 <= {name} < 2^31 (the kernel takes {name} as i32), got {v}"
    if not 1 <= batch <= MAX_BATCH:
        return "batch", f"expected 1 <= batch <= {MAX_BATCH} (the grid's z dimension), got {batch}"
    for (x, xv), (y, yv), what in ((("M", m), ("K", k), "A"), (("K", k), ("N", n), "B"), (("M", m), ("N", n), "D")):
        if xv * yv >= I32_LIMIT:
            return (x if xv >= yv else y), (f"expected {x}*{y} < 2^31 ({what}'s element offsets are i32), got "
                                            f"{x}*{y} = {xv}*{yv} = {xv * yv}")
    return None


def parse_shape(text: str, n: int, option: str) -> tuple[int, ...]:
    """Parse '128x128x32' for option `option`; raise LassError naming the option."""
    parts = text.lower().split("x")
    if len(parts) != n or not all(p.isdecimal() and 0 < int(p) < I32_LIMIT for p in parts):
        raise LassError(f"option {option}: expected {n} positive integers below 2^31 joined by 'x' (e.g. "
                        f"{'x'.join(['128'] * (n - 1) + ['32'])}), got '{text}'")
    return tuple(int(p) for p in parts)


def swap_operands(pair: tuple, swap_ab: bool) -> tuple:
    """The operand-swap rule of a column-major D, one way or back: the kernel computes
    D^T = B^T . A^T, so its (A, B) are the caller's (B, A) (and its (M, N) the caller's (N, M)).
    `pair` is any per-operand pair (types, access widths, sizes); it comes back swapped when
    `swap_ab`.  The swap is its own inverse."""
    return (pair[1], pair[0]) if swap_ab else (pair[0], pair[1])


KERNEL_ARG_NAMES = ("A", "B", "D", "M", "N", "K", "alpha", "beta")  # KernelSpec.launch_args' order
TMAP_PARAM = "tmap_"  # KernelSpec.params: "tmap_A" / "tmap_B" is that operand's TMA tensor map


@dataclass(frozen=True)
class KernelSpec:
    """How to launch one emitted kernel: written by the passes as `lass.launch` on the kernel."""

    name: str
    threads: int
    smem_bytes: int
    tile_m: int
    tile_n: int
    raster: int
    tile_k: int = 32
    alpha: float = 1.0  # the values written on lass.gemm: defaults for `lasscc run` / the API
    beta: float = 0.0
    # column-major D: the kernel computes D^T = B^T . A^T; launch it with (B, A, D, N, M, K) and
    # grid(N, M) (lasscc-tile-threadblock's operand swap)
    swap_ab: bool = False
    # batched GEMM (3-d operands, batch first, packed): one grid z index per batch
    batched: bool = False
    a_dtype: str = "f16"
    b_dtype: str = "f16"
    d_dtype: str = "f32"
    acc_dtype: str = "f32"  # the mma accumulator: f32, f16 (f16 inputs, acc = f16) or i32 (i8)
    a_layout: str = "row"
    b_layout: str = "col"
    d_layout: str = "row"
    # elements per global copy access of the caller's A and B (GemmConfig.align, the caller's order):
    # each operand's contiguous dimension must be a multiple of its width (alignment_rules)
    a_align: int = 8
    b_align: int = 8
    # kernel parameters, in order; pointers are 64-bit, sizes i32, scalars f32
    params: tuple[str, ...] = field(default=("A", "B", "D", "M", "N", "K", "alpha", "beta"))
    # TMA tensor maps the launcher builds (sm_90a): (operand "A" or "B" in the kernel's order, box
    # rows, box cols, swizzle "none" / "32b" / "64b" / "128b"); a parameter named TMAP_PARAM +
    # operand ("tmap_A") takes that operand's map (lasscc.runtime.tma), see `param_values`
    tensor_maps: tuple = ()

    def __post_init__(self):
        # tuples however given (the compile cache reads specs back from JSON lists)
        object.__setattr__(self, "tensor_maps", tuple(tuple(t) for t in self.tensor_maps))

    def grid(self, m: int, n: int, batch: int = 1) -> tuple[int, int, int]:
        """Blocks for the user's M x N problem (swapped to N x M for a column-major D), times batch."""
        m, n = swap_operands((m, n), self.swap_ab)
        tiles = (-(-m // self.tile_m)) * (-(-n // self.tile_n))
        return (tiles, 1, batch if self.batched else 1)

    def launch_args(self, a, b, d, m: int, n: int, k: int, alpha, beta) -> list:
        """Kernel arguments in the kernel's order for the user's (A, B, D, M, N, K, alpha, beta)."""
        (a, b), (m, n) = swap_operands((a, b), self.swap_ab), swap_operands((m, n), self.swap_ab)
        return [a, b, d, m, n, k, alpha, beta]

    def param_values(self, a, b, d, m: int, n: int, k: int, alpha, beta, tensor_map=None) -> list:
        """The values of `params`, in order, for the user's (A, B, D, M, N, K, alpha, beta): the
        kernel-order values of `launch_args` by name, and for `tmap_A` / `tmap_B`
        `tensor_map(operand, buffer, rows, cols, box_rows, box_cols, swizzle)` over the kernel's
        operand (rows = its M or N, cols = K)."""
        vals = dict(zip(KERNEL_ARG_NAMES, self.launch_args(a, b, d, m, n, k, alpha, beta)))
        boxes = {t[0]: tuple(t[1:]) for t in self.tensor_maps}
        out = []
        for p in self.params:
            if p.startswith(TMAP_PARAM):
                op = p[len(TMAP_PARAM):]
                if op not in boxes or tensor_map is None:
                    raise LassError(f"kernel '{self.name}': parameter {p} needs a tensor map of {op} (tensor_maps and a "
                                    f"launcher that builds them), got tensor_maps = {self.tensor_maps}")
                rows = vals["M"] if op == "A" else vals["N"]
                out.append(tensor_map(op, vals[op], rows, vals["K"], *boxes[op]))
            elif p in vals:
                out.append(vals[p])
            else:
                raise LassError(f"kernel '{self.name}': unknown parameter {p!r} (expected one of {', '.join(KERNEL_ARG_NAMES)} "
                                f"or {TMAP_PARAM}A / {TMAP_PARAM}B)")
        return out
