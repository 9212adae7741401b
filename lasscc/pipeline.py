"""The compiler driver: the pipeline as one ordered list, dumps after every stage.

    lass.gemm  (or linalg.matmul)
      | lasscc-import-linalg      linalg.matmul on memrefs -> lass.gemm (C += A.B: alpha = beta = 1)
      | lasscc-tile-threadblock   grid of threadblocks (rasterized), K loop over BK, tile copies, block MMA, epilogue
      | lasscc-pipeline           SMEM ring of `stages` slots: prologue / steady state / drain, barriers, cp.async groups
      | lasscc-warp-mma           per-thread code: warp tile offsets, ldmatrix-able fragments, serpentine mma.sync
      | lasscc-swizzle-smem       XOR-swizzled SMEM addresses, ldmatrix.x4, cp.async / ld.global / st.shared of the config's access widths
      | lasscc-lower-to-llvm      arith/scf/lass_nv -> xDSL llvm dialect (NVVM intrinsics, inline PTX)
      v emit                      LLVM IR (xDSL's llvmlite backend) -> PTX (llvmlite NVPTX target machine)

Every pass leaves IR it does not apply to untouched, so any dump restarts the pipeline where it
was written.  After each pass, CSE and dead-code elimination tidy the IR for reading.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.transforms.common_subexpression_elimination import (
    CommonSubexpressionElimination,
)
from xdsl.transforms.dead_code_elimination import DeadCodeElimination
from xdsl.utils.exceptions import (
    DiagnosticException,
    PassFailedException,
    VerifyException,
)

from lasscc.config import GemmConfig, KernelSpec
from lasscc.diagnostics import LassError
from lasscc.passes.import_linalg import ImportLinalgPass
from lasscc.passes.lower_to_llvm import LowerToLLVMPass
from lasscc.passes.pipeline import PipelinePass
from lasscc.passes.swizzle_smem import SwizzleSmemPass
from lasscc.passes.tile_threadblock import TileThreadblockPass
from lasscc.passes.warp_mma import WarpMmaPass
from lasscc.source import verify_module
from lasscc.universe import make_context

# The pipeline, in order.  One entry per pass; nothing else lists them.
PASSES: list[type[ModulePass]] = [
    ImportLinalgPass,
    TileThreadblockPass,
    PipelinePass,
    WarpMmaPass,
    SwizzleSmemPass,
    LowerToLLVMPass,
]
PASS_NAMES = [p.name for p in PASSES]


@dataclass
class CompileResult:
    module: ModuleOp
    stages: dict[str, str] = field(default_factory=dict)  # pass name -> IR text after it
    llvm_ir: str = ""
    ptx: str = ""
    specs: list[KernelSpec] = field(default_factory=list)


def make_pass(name: str, arch: str) -> ModulePass:
    """A pass from its flag, with options in xDSL's syntax: `lasscc-swizzle-smem{swizzle=false}`."""
    from xdsl.utils.arg_spec import parse_pipeline

    try:
        (spec,) = list(parse_pipeline(name))
    except Exception as e:  # noqa: BLE001 -- xDSL raises several kinds for a malformed spec
        raise LassError(f"option -p: cannot read pass '{name}': {e}") from None
    cls = {p.name: p for p in PASSES}.get(spec.name)
    if cls is None:
        raise LassError(f"option -p: unknown pass '{spec.name}'; expected one of {', '.join(PASS_NAMES)}")
    try:
        p = cls.from_pass_spec(spec)
        if cls is TileThreadblockPass and "arch" not in spec.parameters:  # the driver's --arch
            p = cls(arch=arch)
        return p
    except Exception as e:  # noqa: BLE001
        raise LassError(f"option -p: bad options for '{spec.name}': {e}") from None


def run_pass(module: ModuleOp, p: ModulePass, filename: str = "<input>") -> None:
    ctx = make_context()
    try:
        p.apply(ctx, module)
    except PassFailedException as e:
        raise LassError(str(e)) from None
    except (VerifyException, DiagnosticException) as e:
        raise LassError(f"{filename}: error: in {p.name}: {e}") from None
    CommonSubexpressionElimination().apply(ctx, module)
    DeadCodeElimination().apply(ctx, module)
    verify_module(module, filename)


# Dump file names: the input, one file per pass in pipeline order, then LLVM IR and PTX.
INPUT_DUMP = "00-input.mlir"
LLVM_DUMP = f"{len(PASSES) + 1:02d}-llvm.ll"
PTX_DUMP = f"{len(PASSES) + 2:02d}-kernel.ptx"


def stage_dump(name: str) -> str:
    return f"{PASS_NAMES.index(name) + 1:02d}-{name}.mlir"


def write_dumps(dump_dir: Path, input_text: str, stages: dict[str, str], llvm_ir: str, ptx: str) -> None:
    """Every dump file of a finished compile (the compile cache writes them on a hit too)."""
    dump_dir.mkdir(parents=True, exist_ok=True)
    (dump_dir / INPUT_DUMP).write_text(input_text + "\n")
    for name, text in stages.items():
        (dump_dir / stage_dump(name)).write_text(text + "\n")
    (dump_dir / LLVM_DUMP).write_text(llvm_ir)
    (dump_dir / PTX_DUMP).write_text(ptx)


def run_passes(module: ModuleOp, names: list[str], arch: str = "sm_80", filename: str = "<input>",
               dump_dir: Path | None = None) -> dict[str, str]:
    """Run passes in order; with `dump_dir`, each pass's output is written as soon as it exists
    (so a failing compile still leaves the stages before the failure)."""
    out: dict[str, str] = {}
    for name in names:
        p = make_pass(name, arch)
        run_pass(module, p, filename)
        out[p.name] = str(module)
        if dump_dir is not None:
            (dump_dir / stage_dump(p.name)).write_text(out[p.name] + "\n")
    return out


def kernel_specs(module: ModuleOp) -> list[KernelSpec]:
    """Launch contracts of the lowered kernels (from their `#lass.kernel` facts)."""
    from lasscc.dialects.lass import kernel_facts
    from lasscc.layout import elem_bytes

    specs = []
    for fn in module.ops:
        f = kernel_facts(fn) if isinstance(fn, (llvm.FuncOp, func.FuncOp)) else None
        if f is None:
            continue
        cfg: GemmConfig = f.config
        a_align, b_align = f.caller_align
        specs.append(KernelSpec(
            name=fn.sym_name.data, threads=cfg.threads, smem_bytes=cfg.smem_bytes(elem_bytes(f.ab_type)),
            acc_dtype=f.acc_type, tile_m=cfg.threadblock[0], tile_n=cfg.threadblock[1], tile_k=cfg.threadblock[2],
            raster=cfg.raster, d_dtype=f.d_type, a_dtype=f.ab_type, b_dtype=f.ab_type, alpha=f.alpha, beta=f.beta,
            swap_ab=f.swap_ab, d_layout=f.d_layout, batched=f.batched, a_layout=f.a_layout, b_layout=f.b_layout,
            a_align=a_align, b_align=b_align,
        ))
    return specs


def operand_layouts(module: ModuleOp) -> tuple[str, str]:
    """The caller's layouts ("row" / "col") of A and B: from the `lass.gemm` (or `linalg.matmul`)
    of an input, or the kernel's facts (`#lass.kernel`) in a dump; TN when unknown."""
    from xdsl.dialects.linalg.ops import MatmulOp

    from lasscc.dialects.lass import GemmOp, kernel_facts, memref_layout
    from lasscc.passes.import_linalg import matmul_operand_types

    for op in module.walk():
        if isinstance(op, GemmOp):
            return memref_layout(op.a.type), memref_layout(op.b.type)
        if isinstance(op, MatmulOp):
            types = matmul_operand_types(op)
            if types is not None:
                return memref_layout(types[0]), memref_layout(types[1])
        facts = kernel_facts(op) if isinstance(op, (llvm.FuncOp, func.FuncOp)) else None
        if facts is not None:
            return facts.a_layout, facts.b_layout
    return "row", "col"


def compile_module(module: ModuleOp, arch: str = "sm_80", filename: str = "<input>",
                   dump_dir: Path | None = None) -> CompileResult:
    """Run every pass, then emit LLVM IR and PTX; write numbered dumps when `dump_dir` is set."""
    from lasscc.emit import to_llvm_ir, to_ptx

    if dump_dir is not None:
        dump_dir.mkdir(parents=True, exist_ok=True)
        (dump_dir / INPUT_DUMP).write_text(str(module) + "\n")
    res = CompileResult(module)
    res.stages = run_passes(module, PASS_NAMES, arch, filename, dump_dir)
    res.specs = kernel_specs(module)
    if not res.specs:
        raise LassError(f"{filename}: error: expected a lass.gemm (or a lasscc dump of one), found no kernel")
    res.llvm_ir = to_llvm_ir(module)
    res.ptx = to_ptx(res.llvm_ir, arch)
    if dump_dir is not None:
        (dump_dir / LLVM_DUMP).write_text(res.llvm_ir)
        (dump_dir / PTX_DUMP).write_text(res.ptx)
    return res
