"""What the GEMM to explain is: its A/B, accumulator and D types, layouts, tile storage and
operand swap (lasscc.dialects.lass.KernelFacts), and its config in the kernel's operand order."""

from __future__ import annotations

from dataclasses import dataclass

from lasscc.layout import K_MAJOR

# PTX names of the MLIR accumulator / D types (PTX ISA "mma": s8 products accumulate in .s32)
PTX_TYPE = {"f16": "f16", "bf16": "bf16", "f32": "f32", "i32": "s32", "i8": "s8"}


def type_bytes(name: str) -> int:
    """Bytes of the MLIR element type `name` (f16, bf16, f32, i8, i32)."""
    from xdsl.dialects.builtin import bf16, f16, f32, i8, i32

    return {str(t): t.bitwidth // 8 for t in (f16, bf16, f32, i8, i32)}[name]


@dataclass(frozen=True)
class Facts:
    """What the explanation needs besides the config: types, layouts and the operand swap."""

    ab: str = "f16"  # MLIR type of A and B
    acc: str = "f32"  # accumulator (MLIR type: f32, f16, i32)
    d_dtype: str = "f32"
    beta: float | None = 0.0  # the op's beta (what `lasscc run` passes); None when unknown
    d_layout: str = "row"  # the caller's D: "row" or "col"
    swap: bool = False  # the kernel computes D^T = B^T . A^T (KernelFacts.swap_ab: a column-major D or swap_ab = 1)
    majors: tuple[str, str] = (K_MAJOR, K_MAJOR)  # how the kernel's A and B tiles are stored
    layouts: tuple[str, str] = ("row", "col")  # the caller's A and B layouts
    epilogue_ops: tuple[str, ...] = ()  # the fused epilogue region's ops (lasscc.epilogue_info)
    epilogue: tuple[tuple[str, str], ...] = ()  # its extra operands (KernelFacts.epilogue)
    batched: bool = False  # a 3-d (batched) GEMM


def swap_note(facts: Facts) -> str:
    """Why the kernel computes D^T = B^T . A^T (facts.swap), in words."""
    if facts.d_layout == "col":
        return "column-major D: the kernel computes D^T = B^T . A^T (KernelFacts.swap_ab)"
    return ("swap_ab = 1: the kernel computes D^T = B^T . A^T (swap AB for a skinny M: the caller's M is the "
            "kernel's N, a narrow wgmma / mma N, its N the kernel's M) and stores D^T column-major into the row-major D")


def _kernel_facts(info):
    """The KernelFacts of `info`'s GEMM: what lasscc-tile-threadblock makes of the lass.gemm, or a
    dump's kernel function's own."""
    from lasscc.dialects.lass import GemmOp, KernelFacts, kernel_facts

    return KernelFacts.of_gemm(info.op, info.config) if isinstance(info.op, GemmOp) else kernel_facts(info.op)


def gemm_facts(module, info) -> Facts:
    """Facts of the GEMM of `info` (gemm_config): from the lass.gemm, or a dump's kernel function."""
    kf = _kernel_facts(info)
    from lasscc.epilogue_info import region_ops

    return Facts(kf.ab_type, kf.acc_type, info.d_dtype, kf.beta, kf.d_layout, kf.swap_ab, kf.kernel_majors,
                 (kf.a_layout, kf.b_layout), region_ops(info.op), kf.epilogue, kf.batched)


def kernel_config(info, facts: Facts):
    """The config of `info` in the kernel's operand order (KernelFacts.config: for a column-major D
    the `align` of A and B swapped)."""
    return _kernel_facts(info).config


def gemm_config(module, arch: str = "sm_80", filename: str = "<input>"):
    """lasscc.api.gemm_info of the module; an input that holds no lass.gemm yet (linalg.matmul) is
    taken through the passes before lasscc-tile-threadblock first (on a copy)."""
    from lasscc.api import gemm_info
    from lasscc.diagnostics import LassError

    try:
        return gemm_info(module, filename)
    except LassError:
        from lasscc.driver import PASS_NAMES, run_passes

        first = PASS_NAMES.index("lasscc-tile-threadblock") if "lasscc-tile-threadblock" in PASS_NAMES else 0
        if first == 0:
            raise
        trial = module.clone()
        run_passes(trial, PASS_NAMES[:first], arch, filename)
        return gemm_info(trial, filename)
