"""The tiling configuration of a GEMM and the kernel's launch contract.

`GemmConfig` is what the user writes in `config = {...}` on `lass.gemm` (or passes as
`--threadblock 128x128x32 --warp 64x64x32 --stages 3`).  `validate` checks it before any pass runs
and names the rule it broke.  `KernelSpec` is what the host needs to launch the emitted PTX; the
passes write it as attributes on the kernel function and `KernelSpec.from_func` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lasscc.diagnostics import LassError
from lasscc.layout import K_MAJOR, MMA_INPUTS
from lasscc.resources import MAX_THREADS_PER_BLOCK, resource_error

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
    # split-K (reference 002's serial split-K, lasscc.splitk): K is cut into `split_k` ranges of
    # whole BK k-tiles, one grid y index each; 1: no split
    split_k: int = 1
    # "serial": the partitions add to D in K order through a semaphore; "parallel": each writes its
    # partial product to the workspace and a second kernel sums them and applies alpha / beta
    split_k_mode: str = "serial"
    # the instruction family: "mma.sync" (the warp-level data flow) or "wgmma" (sm_90a: TMA,
    # mbarriers and warpgroup MMA, lasscc.resources); written in the config only when "wgmma"
    mma: str = "mma.sync"
    # wgmma only: "default" (every thread consumes, thread 0 also loads), "cooperative" (a
    # producer warpgroup issues the TMA loads, the consumer warpgroups share one tile) or
    # "pingpong" (two consumer warpgroups, each on tiles of its own: `threadblock` is then each
    # consumer's tile, BM = 64 or 128): lasscc-warp-specialize; lasscc.resources SCHEDULES
    schedule: str = "default"
    # 1: a persistent kernel (cooperative schedule): one CTA per SM walks the output tiles in the
    # rasterized order, its pipeline's phases carried from tile to tile (lass_sched)
    persistent: int = 0
    # how the epilogue stores D (lasscc.resources.EPILOGUES): "direct" (per-thread stores) or "tma"
    # (wgmma only: staged in shared memory by stmatrix / st.shared, written by TMA stores)
    epilogue: str = "direct"
    # wgmma only: [CM, CN] CTAs per thread block cluster, CM along M and CN along N (the kernel's, as
    # threadblock); the CTAs of a cluster share one operand's tiles through TMA multicast
    # (lasscc.cluster); [1, 1]: none
    cluster: tuple[int, int] = (1, 1)
    # 1: the kernel computes the transposed product D^T = B^T . A^T (swap AB, as CUTLASS / cuBLAS do
    # for a skinny M): the caller's small M becomes the kernel's N (a narrow wgmma N) and its large N
    # the kernel's M; a row-major D is then stored as the column-major D^T (lasscc.swap_ab).  0: the
    # operands are swapped only for a column-major D (KernelFacts.swap_ab), which 1 leaves as it is
    swap_ab: int = 0

    @property
    def is_wgmma(self) -> bool:
        return self.mma == "wgmma"

    @property
    def is_streamk(self) -> bool:
        """A stream-K kernel (lasscc.streamk): a persistent grid, split_k_mode "streamk" / "streamk-dp" / "streamk-tail"."""
        from lasscc.streamk import is_streamk

        return is_streamk(self.split_k_mode)

    @property
    def has_workspace(self) -> bool:
        """The kernel takes the workspace parameter W (split-K or stream-K)."""
        return (self.split_k > 1 and self.split_k_mode != "cluster") or self.is_streamk  # cluster: no W

    def tiles(self, m: int, n: int) -> int:
        """Output tiles of the threadblock over the user's M x N (D^T's N x M for swap_ab = 1)."""
        m, n = swap_operands((m, n), bool(self.swap_ab))
        return (-(-m // self.threadblock[0])) * (-(-n // self.threadblock[1]))

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
            from lasscc.resources import wgmma_threads

            return wgmma_threads(self)
        return self.warps_m * self.warps_n * 32

    def smem_stage_bytes(self, elem_bytes: int = 2) -> int:
        bm, bn, bk = self.threadblock
        return (bm + bn) * bk * elem_bytes

    def smem_bytes(self, elem_bytes: int = 2) -> int:
        if self.is_wgmma:
            from lasscc.resources import wgmma_smem_bytes

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
            **({"split_k": self.split_k} if self.split_k != 1 else {}),
            **({"split_k_mode": self.split_k_mode} if self.split_k_mode != "serial" else {}),
            **({"mma": self.mma} if self.mma != "mma.sync" else {}),
            **({"schedule": self.schedule} if self.schedule != "default" else {}),
            **({"persistent": self.persistent} if self.persistent else {}),
            **({"epilogue": self.epilogue} if self.epilogue != "direct" else {}),
            **({"cluster": list(self.cluster)} if tuple(self.cluster) != (1, 1) else {}),
            **({"swap_ab": self.swap_ab} if self.swap_ab else {}),
        }

    def validate(self, arch: str = "sm_80", where: str = "config", ab_type: str = "f16",
                 majors: tuple[str, str] = (K_MAJOR, K_MAJOR), acc_type: str | None = None,
                 d_type: str | None = None) -> None:
        """Raise LassError naming the broken rule; `where` prefixes the message (a location or option).
        `ab_type` (MLIR name of the A/B elements: f16, bf16, f32 (tf32 mma), i8) fixes the mma.sync
        shape and the element size that the SMEM rules count in; `majors` (how the kernel's A and B
        tiles are stored, "k" / "mn") and `acc_type` (the accumulator, None: 32-bit) the registers
        (lasscc.resources.resource_error); `d_type` (D's MLIR type, None: unknown) the epilogue's
        store path (lasscc.resources.epilogue_error)."""

        def fail(msg: str) -> None:
            raise LassError(f"{where}: {msg}")

        if arch not in SUPPORTED_ARCHS:
            fail(f"expected arch one of {', '.join(SUPPORTED_ARCHS)}, got '{arch}'")
        from lasscc.resources import MMA_FAMILIES, wgmma_config_error

        if self.mma not in MMA_FAMILIES:
            fail(f"expected mma one of {', '.join(repr(m) for m in MMA_FAMILIES)}, got {self.mma!r}")
        if self.swap_ab not in (0, 1) or isinstance(self.swap_ab, bool):
            fail(f"expected swap_ab = 0 or 1, got {self.swap_ab!r}")
        if self.persistent and not self.is_wgmma:
            fail("persistent = 1 needs mma = \"wgmma\" and schedule = \"cooperative\"")
        if self.schedule != "default" and not self.is_wgmma:
            fail(f"schedule = {self.schedule!r} needs mma = \"wgmma\" (warp-specialized roles are a TMA pipeline's)")
        from lasscc.cluster import config_error as cluster_error
        from lasscc.resources import epilogue_error

        from lasscc.cluster_splitk import config_error as cluster_split_error
        from lasscc.resources import wgmma_ring_bytes

        bad = (epilogue_error(self, d_type) or cluster_error(self, majors)
               or cluster_split_error(self, wgmma_ring_bytes(self, MMA_INPUTS.get(ab_type, MMA_INPUTS["f16"])[0])))
        if bad:
            fail(bad)
        if self.is_wgmma:
            bad = wgmma_config_error(self, arch, ab_type, majors, acc_type)
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
        from lasscc.splitk import split_k_error

        bad = split_k_error(self.split_k, self.split_k_mode)
        if bad:
            fail(bad)
        bad = resource_error(self, arch, ab_type, majors, acc_type)  # shared memory and registers
        if bad:
            fail(bad)


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


KERNEL_FIXED_PARAMS = ("A", "B", "D", "M", "N", "K", "alpha", "beta")  # every kernel's first parameters
TMAP_PARAM = "tmap_"  # KernelSpec.params: "tmap_A" / "tmap_B" is that operand's TMA tensor map
WORKSPACE_PARAM = "W"  # split-K's global workspace (lasscc.splitk)
EXTRA_PARAM = "E"  # "E0", "E1", ...: the fused epilogue's extra operands in declared order


def kernel_params(tensor_maps: bool = False, workspace: bool = False, extras: int = 0,
                  d_map: bool = False) -> tuple[str, ...]:
    """The kernel ABI: the one place its parameter order is written.  Every kernel (and parallel
    split-K's reduction, which takes its GEMM's arguments) takes, in this order,
        A, B, D (pointers), M, N, K (i32), alpha, beta (f32)    KERNEL_FIXED_PARAMS
        tmap_A, tmap_B   the TMA tensor maps of an sm_90a wgmma kernel (128-byte grid constants;
                         added by lasscc-hopper-smem: `tensor_maps`)
        tmap_D           D's tensor map, for the TMA-store epilogue (config epilogue = "tma": `d_map`)
        W                the workspace of split-K or stream-K (GemmConfig.has_workspace)
        E0, E1, ...      the fused epilogue's `extras` operands (pointers; a scalar f32)
    Used by lasscc-tile-threadblock (W, extras), lasscc-hopper-smem (where the tensor maps go),
    the reduction kernel, lasscc.driver.kernel_specs (KernelSpec.params), the launchers
    (KernelSpec.param_values / typed_params) and the CPU executor's argument binding."""
    return (KERNEL_FIXED_PARAMS + ((TMAP_PARAM + "A", TMAP_PARAM + "B") if tensor_maps else ())
            + ((TMAP_PARAM + "D",) if tensor_maps and d_map else ()) + ((WORKSPACE_PARAM,) if workspace else ()) + tuple(f"{EXTRA_PARAM}{i}" for i in range(extras)))


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
    # split-K partitions (GemmConfig.split_k): grid y; > 1 adds the workspace parameter W
    split_k: int = 1
    split_k_mode: str = "serial"
    # parallel split-K: the reduction kernel's entry, launched after this one with the same
    # arguments on reduce_grid (lasscc.splitk)
    reduce_name: str | None = None
    # kernel parameters, in order; pointers are 64-bit, sizes i32, scalars f32
    params: tuple[str, ...] = field(default=("A", "B", "D", "M", "N", "K", "alpha", "beta"))
    # the fused epilogue's extra operands after beta, the caller's (kind, element type) each
    # (KernelFacts.epilogue: [n] / [m] vectors and [mn] matrices are pointers, scalars f32)
    epilogue: tuple[tuple[str, str], ...] = ()
    # TMA tensor maps the launcher builds (sm_90a): (operand "A", "B" or "D" in the kernel's order, box
    # rows, box cols, swizzle "none" / "32b" / "64b" / "128b", the kernel operand's major "k" /
    # "mn"), 3-d over the batch for a batched kernel; a parameter named TMAP_PARAM + operand
    # ("tmap_A") takes that operand's map (lasscc.runtime.tma.operand_map), see `param_values`
    tensor_maps: tuple = ()
    # a persistent kernel (GemmConfig.persistent): the launcher picks grid x, at most the tiles
    persistent: bool = False
    # CTAs per thread block cluster [CM, CN] (GemmConfig.cluster, lasscc.cluster): the launch's
    # cluster dimension (cluster_dims) and a grid rounded up to whole clusters (grid)
    cluster: tuple = (1, 1)
    # tiles one CTA takes when not persistent (lasscc.schedule.tiles_per_cta: 2 for the pingpong
    # schedule's two consumer warpgroups)
    tiles_per_cta: int = 1

    def __post_init__(self):
        # tuples however given (the compile cache reads specs back from JSON lists)
        object.__setattr__(self, "tensor_maps", tuple(tuple(t) for t in self.tensor_maps))
        object.__setattr__(self, "cluster", tuple(int(c) for c in self.cluster))

    @property
    def cluster_dims(self) -> tuple[int, int, int] | None:
        """CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION of the launch, or None without a cluster: the one
        value the GPU runner and the API launch with (lasscc.runtime.cuda.launch(cluster=))."""
        from lasscc import cluster, cluster_splitk

        if cluster_splitk.is_cluster_split(self):  # the K partitions of a tile (lasscc.cluster_splitk)
            return cluster_splitk.launch_dims(self.split_k)
        return None if self.cluster == cluster.CLUSTER_NONE else cluster.launch_dims(self.cluster)

    def tiles(self, m: int, n: int) -> int:
        """Output tiles of one batch for the user's M x N (swapped for a column-major D)."""
        m, n = swap_operands((m, n), self.swap_ab)
        return (-(-m // self.tile_m)) * (-(-n // self.tile_n))

    @property
    def is_streamk(self) -> bool:
        """A stream-K kernel (lasscc.streamk): launched on a persistent grid."""
        from lasscc.streamk import is_streamk

        return is_streamk(self.split_k_mode)

    def grid(self, m: int, n: int, batch: int = 1, sms: int | None = None) -> tuple[int, int, int]:
        """Blocks for the user's M x N problem (swapped to N x M for a column-major D): x the tiles,
        y the split-K partitions, z the batch.  A stream-K kernel's persistent grid instead: `sms`
        (the device's SM count; None: an H100's) times the CTAs one SM holds (lasscc.streamk).  A
        persistent wgmma kernel (GemmConfig.persistent) gets min(tiles, `sms`) along x (one CTA per
        SM; None: the tiles; with a cluster, whole clusters), a pingpong one ceil(tiles / 2) when not
        persistent (lasscc.schedule)."""
        if self.is_streamk:
            from lasscc import streamk

            return (streamk.grid_ctas(sms or streamk.H100_SMS, streamk.ctas_per_sm(self.threads, self.smem_bytes)),
                    1, 1)
        from lasscc.schedule import launch_ctas

        tiles, csize = self.tiles(m, n), 1
        if self.cluster != (1, 1):  # whole clusters: the tiles past M / N are computed, not stored
            from lasscc.cluster import cluster_grid, size

            mm, nn = swap_operands((m, n), self.swap_ab)
            tiles, csize = cluster_grid(-(-mm // self.tile_m), -(-nn // self.tile_n), self.cluster), size(self.cluster)
        x = launch_ctas(tiles, self.persistent, self.tiles_per_cta, sms, csize)
        if self.split_k_mode == "cluster":  # the partitions along x, a cluster each tile (lasscc.cluster_splitk)
            return (x * self.split_k, 1, batch if self.batched else 1)
        return (x, self.split_k, batch if self.batched else 1)

    def workspace_bytes(self, m: int, n: int, batch: int = 1, sms: int | None = None) -> int:
        """Bytes of the zeroed global workspace the kernel needs (lasscc.splitk / lasscc.streamk: a
        stream-K kernel's grows with its persistent grid, `grid(m, n, sms=sms)`; None: an H100's)."""
        from lasscc.splitk import workspace_bytes

        if self.is_streamk:
            from lasscc import streamk

            return streamk.workspace_bytes(self.grid(m, n, sms=sms)[0], (self.tile_m, self.tile_n))
        return workspace_bytes(self.split_k, self.tiles(m, n), batch if self.batched else 1, self.split_k_mode,
                               swap_operands((m, n), self.swap_ab))

    def reduce_grid(self, m: int, n: int, batch: int = 1) -> tuple[int, int, int]:
        """Blocks of the parallel split-K reduction: one thread per element of D (lasscc.splitk)."""
        from lasscc.splitk import reduce_blocks

        return (reduce_blocks(m * n, self.threads), 1, batch if self.batched else 1)

    def launch_args(self, a, b, d, m: int, n: int, k: int, alpha, beta, workspace=None, extras=()) -> list:
        """Kernel arguments in the kernel's order for the user's (A, B, D, M, N, K, alpha, beta) and,
        for a split kernel, its workspace (workspace_bytes, zeroed before the first launch), then the
        fused epilogue's extra operands (pointers or scalars, in declared order: unchanged by the
        operand swap, which flips only which of M, N a vector runs along)."""
        if "W" in self.params and workspace is None:
            raise LassError(f"kernel {self.name}: split_k = {self.split_k} ({self.split_k_mode}) needs a zeroed workspace of at least "
                            f"{self.workspace_bytes(m, n)} bytes per batch (KernelSpec.workspace_bytes)")
        (a, b), (m, n) = swap_operands((a, b), self.swap_ab), swap_operands((m, n), self.swap_ab)
        args = [a, b, d, m, n, k, alpha, beta]
        if "W" in self.params:
            args.append(workspace)
        return args + list(extras)

    def param_values(self, a, b, d, m: int, n: int, k: int, alpha, beta, tensor_map=None, workspace=None,
                     extras=()) -> list:
        """The values of `params` (lasscc.config.kernel_params' order) for the user's (A, B, D, M, N,
        K, alpha, beta), a split kernel's workspace and the epilogue's extras: the kernel-order
        values of `launch_args` by name, and for `tmap_A` / `tmap_B`
        `tensor_map(operand, buffer, rows, cols, box_rows, box_cols, swizzle, major)` over the kernel's
        operand (the caller's B and A for a column-major D; rows = its M or N, cols = K; the rest a
        `tensor_maps` entry)."""
        kargs = self.launch_args(a, b, d, m, n, k, alpha, beta,
                                 **({"workspace": workspace} if workspace is not None else {}),
                                 **({"extras": list(extras)} if len(extras) else {}))
        vals = dict(zip(KERNEL_FIXED_PARAMS, kargs[:len(KERNEL_FIXED_PARAMS)]))
        rest = kargs[len(KERNEL_FIXED_PARAMS):]
        if WORKSPACE_PARAM in self.params:
            vals[WORKSPACE_PARAM] = rest.pop(0)
        vals.update((f"{EXTRA_PARAM}{i}", x) for i, x in enumerate(rest))
        boxes = {t[0]: tuple(t[1:]) for t in self.tensor_maps}
        out = []
        for p in self.params:
            if p.startswith(TMAP_PARAM):
                op = p[len(TMAP_PARAM):]
                if op not in boxes or tensor_map is None:
                    raise LassError(f"kernel '{self.name}': parameter {p} needs a tensor map of {op} (tensor_maps and a "
                                    f"launcher that builds them), got tensor_maps = {self.tensor_maps}")
                # the kernel's A is M x K, B N x K, D M x N (its rows and columns, in its order)
                rows, cols = {"A": ("M", "K"), "B": ("N", "K"), "D": ("M", "N")}[op]
                out.append(tensor_map(op, vals[op], vals[rows], vals[cols], *boxes[op]))
            elif p in vals:
                out.append(vals[p])
            else:
                raise LassError(f"kernel '{self.name}': no value for parameter {p!r} (expected "
                                f"{', '.join(KERNEL_FIXED_PARAMS)}, {TMAP_PARAM}A / {TMAP_PARAM}B, {WORKSPACE_PARAM} "
                                f"or the extras {EXTRA_PARAM}0 .. {EXTRA_PARAM}{len(self.epilogue) - 1})")
        return out

    def typed_params(self, values) -> list:
        """`param_values`' values as the kernel's parameter types for lasscc.runtime.cuda, by name:
        M, N, K numpy int32, alpha / beta float32, an extra scalar float32, an extra pointer given
        as an int address numpy uint64; pointers (DeviceBuffer) and tensor maps as they are."""
        import numpy as np

        kinds = {f"{EXTRA_PARAM}{i}": kind for i, (kind, _) in enumerate(self.epilogue)}
        out = []
        for p, x in zip(self.params, values, strict=True):
            if p in ("M", "N", "K"):
                out.append(np.int32(x))
            elif p in ("alpha", "beta") or kinds.get(p) == "scalar":
                out.append(np.float32(x))
            elif p in kinds and isinstance(x, (int, np.integer)):
                out.append(np.uint64(x))
            else:
                out.append(x)
        return out

    def typed_args(self, kargs) -> list:
        """launch_args' values (a kernel without tensor maps: `params` is their order) typed as
        `typed_params` types them."""
        return self.typed_params(kargs)
