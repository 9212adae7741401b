"""The compiler driver: the pipeline as one ordered list, dumps after every stage.

    lass.gemm  (or linalg.matmul)
      | lasscc-import-linalg      linalg.matmul on memrefs -> lass.gemm (C += A.B: alpha = beta = 1)
      | lasscc-fuse-epilogue      elementwise linalg ops on D after it -> the lass.gemm's epilogue region (GELU's erf form -> lass.gelu)
      | lasscc-tile-threadblock   grid of threadblocks (rasterized), K loop over BK, tile copies, block MMA, epilogue
      | lasscc-pipeline           SMEM ring of `stages` slots: prologue / steady state / drain, barriers, cp.async groups
      | lasscc-warp-mma           per-thread code: warp tile offsets, ldmatrix-able fragments, serpentine mma.sync
      | lasscc-warpgroup-mma      (mma = "wgmma") per-thread code: warpgroups, wgmma on ring slots, fence/commit/wait
      | lasscc-warp-specialize    (schedule = "cooperative" / "pingpong") a producer warpgroup (TMA) and consumer warpgroups, setmaxnreg
      | lasscc-swizzle-smem       XOR-swizzled SMEM addresses, ldmatrix.x4, cp.async / ld.global / st.shared of the config's access widths
      | lasscc-hopper-smem        (mma = "wgmma") TMA tensor maps, mbarriers, wgmma descriptors of the swizzled slots
      | lasscc-lower-to-llvm      arith/scf/lass_nv -> xDSL llvm dialect (NVVM intrinsics, inline PTX)
      v emit                      LLVM IR (xDSL's llvmlite backend) -> PTX (llvmlite NVPTX target machine)

Every pass leaves IR it does not apply to untouched, so any dump restarts the pipeline where it
was written.  After each pass, CSE and dead-code elimination tidy the IR for reading.

The IR is verified once, after the last pass (`verify_each=True`, the CLI's `--verify-each`,
verifies after every pass, as mlir-opt does by default); a failure still names the pass that made
the invalid IR (the pipeline is replayed on a copy of its input, verifying after each pass).  IR
text is printed only for what needs it: the dumps, the compile cache's entry, the API's stages.
`lasscc.timing` times every phase (`--timing`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import (
    ArgSpecParseError,
    DiagnosticException,
    PassFailedException,
    VerifyException,
)

from lasscc import tidy, timing
from lasscc.config import GemmConfig, KernelSpec
from lasscc.diagnostics import LassError
from lasscc.gcpause import gc_paused
from lasscc.outfile import output_dir, write_output
from lasscc.passes.fuse_epilogue import FuseEpiloguePass
from lasscc.passes.hopper_smem import HopperSmemPass, kernel_tensor_maps
from lasscc.passes.import_linalg import ImportLinalgPass
from lasscc.passes.lower_to_llvm import LowerToLLVMPass
from lasscc.passes.pipeline import PipelinePass
from lasscc.passes.swizzle_smem import SwizzleSmemPass
from lasscc.passes.tile_threadblock import TileThreadblockPass
from lasscc.passes.warp_mma import WarpMmaPass
from lasscc.passes.warp_specialize import WarpSpecializePass
from lasscc.passes.warpgroup_mma import WarpgroupMmaPass
from lasscc.source import move_location, verify_module
from lasscc.universe import linalg_loaded, make_context

# The pipeline, in order.  One entry per pass; nothing else lists them.
PASSES: list[type[ModulePass]] = [
    ImportLinalgPass,
    FuseEpiloguePass,
    TileThreadblockPass,
    PipelinePass,
    WarpMmaPass,
    WarpgroupMmaPass,
    WarpSpecializePass,
    SwizzleSmemPass,
    HopperSmemPass,
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
    except (Exception, ArgSpecParseError) as e:  # noqa: BLE001 -- xDSL raises several kinds (one a BaseException)
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


def run_pass(module: ModuleOp, p: ModulePass, filename: str = "<input>", verify: bool = True) -> None:
    """Apply `p`, then CSE and DCE; verify the result unless `verify` is False (the caller verifies
    later).  Errors are LassErrors naming the pass.  A pass whose `apply` returns False applied to
    nothing: the IR is as the last tidy-up left it, so CSE and DCE (~0.35 s on 16,000 ops) are skipped."""
    ctx = make_context()
    try:
        with timing.phase("rewrite"):
            changed = p.apply(ctx, module)
    except PassFailedException as e:
        raise LassError(str(e)) from None
    except (VerifyException, DiagnosticException) as e:
        raise LassError(f"{filename}: error: in {p.name}: {e}") from None
    if changed is not False:
        with timing.phase("cse"):
            tidy.cse(module)
        with timing.phase("dce"):
            tidy.dce(module)
    if verify:
        with timing.phase("verify"):
            verify_module(module, filename, p.name)


def import_gemms(module: ModuleOp, filename: str = "<input>") -> list:
    """The module's `lass.gemm` ops, after lasscc-import-linalg has turned every `linalg.matmul` into
    one (a no-op for an input without linalg.matmul).  Whatever edits a GEMM's `config` before the
    pipeline runs (the tiling options, the chosen access widths, the tuned config; CLI, API,
    bench and tune alike) goes through this, so a linalg.matmul input gets the edit too."""
    from lasscc.dialects.lass import GemmOp

    if linalg_loaded():
        from xdsl.dialects.linalg.ops import MatmulOp

        if any(isinstance(o, MatmulOp) for o in module.walk()):
            run_pass(module, ImportLinalgPass(), filename)
    return [o for o in module.walk() if isinstance(o, GemmOp)]


def select_family(module: ModuleOp, arch: str, filename: str = "<input>") -> list[str]:
    """lasscc.family.select on sm_90a, a linalg.matmul imported first (import_gemms); the notes."""
    from lasscc.family import select
    from lasscc.resources import WGMMA_ARCHS

    if arch in WGMMA_ARCHS:
        import_gemms(module, filename)
    return select(module, arch, filename)


# Dump file names: the input, one file per pass in pipeline order, then LLVM IR and PTX.
INPUT_DUMP = "00-input.mlir"
LLVM_DUMP = f"{len(PASSES) + 1:02d}-llvm.ll"
PTX_DUMP = f"{len(PASSES) + 2:02d}-kernel.ptx"


def stage_dump(name: str) -> str:
    return f"{PASS_NAMES.index(name) + 1:02d}-{name}.mlir"


def write_dumps(dump_dir: Path, input_text: str, stages: dict[str, str], llvm_ir: str, ptx: str) -> None:
    """Every dump file of a finished compile (the compile cache writes them on a hit too)."""
    output_dir(dump_dir)
    write_output(str(dump_dir / INPUT_DUMP), input_text + "\n", "--dump-dir")
    for name, text in stages.items():
        write_output(str(dump_dir / stage_dump(name)), text + "\n", "--dump-dir")
    write_output(str(dump_dir / LLVM_DUMP), llvm_ir, "--dump-dir")
    write_output(str(dump_dir / PTX_DUMP), ptx, "--dump-dir")


def _copy_with_locations(module: ModuleOp) -> ModuleOp:
    """A copy whose ops report the source positions of the originals (lasscc.source.op_location)."""
    copy = module.clone()
    for old, new in zip(module.walk(), copy.walk()):
        move_location(old, new)
    return copy


def run_passes(module: ModuleOp, names: list[str], arch: str = "sm_80", filename: str = "<input>",
               dump_dir: Path | None = None, keep_text: bool = False, verify_each: bool = False,
               final_check: Callable[[], None] | None = None) -> dict[str, str]:
    """Run passes in order and verify the result; returns {pass name: IR text after it} when
    `keep_text` (else {}).  With `dump_dir`, each pass's output is written as soon as it exists (so a
    failing compile still leaves the stages before the failure).  The IR is verified after the last
    pass only, unless `verify_each`; an invalid result names the pass that produced it either way.
    `final_check` (compile_module's LLVM emission) replaces that last verification when not
    `verify_each`: it runs after the passes, and if it fails the passes are replayed with
    verification after each, as when the verification fails."""
    with gc_paused():
        return _run_passes(module, names, arch, filename, dump_dir, keep_text, verify_each, final_check)


def _run_passes(module: ModuleOp, names: list[str], arch: str, filename: str, dump_dir: Path | None,
                keep_text: bool, verify_each: bool, final_check: Callable[[], None] | None = None) -> dict[str, str]:
    from lasscc.passes.fuse_epilogue import reset_notes

    reset_notes()
    out: dict[str, str] = {}
    passes = [make_pass(name, arch) for name in names]
    # the input, to find the pass that broke the IR when only the end result is verified
    replay = _copy_with_locations(module) if not verify_each and len(passes) > 1 else None
    done = 0
    try:
        for p in passes:
            if p.name == TileThreadblockPass.name:  # the instruction family, chosen once per lass.gemm
                from lasscc.family import select

                select(module, arch, filename)
            with timing.phase(p.name):
                run_pass(module, p, filename, verify=verify_each)
                if keep_text or dump_dir is not None:
                    with timing.phase("print"):
                        text = str(module)
                    if keep_text:
                        out[p.name] = text
                    if dump_dir is not None:
                        write_output(str(dump_dir / stage_dump(p.name)), text + "\n", "--dump-dir")
            done += 1
        if not verify_each and passes and final_check is None:
            with timing.phase("verify"):
                verify_module(module, filename, passes[-1].name if len(passes) == 1 else None)
        if final_check is not None:
            final_check()
    except Exception:
        if replay is not None:
            # an earlier pass may have left invalid IR that the failing step tripped over: name it
            with timing.phase("replay, verifying after each pass"):
                for p in passes[:done]:
                    run_pass(replay, p, filename, verify=True)
        raise
    return out


def kernel_specs(module: ModuleOp) -> list[KernelSpec]:
    """Launch contracts of the lowered kernels (from their `#lass.kernel` facts)."""
    from lasscc.dialects.lass import kernel_facts
    from lasscc.layout import elem_bytes
    from lasscc.config import kernel_params
    from lasscc.passes.splitk_reduce import REDUCE_ATTR, reduce_name
    from lasscc.schedule import tiles_per_cta

    specs = []
    for fn in module.ops:
        f = kernel_facts(fn) if isinstance(fn, (llvm.FuncOp, func.FuncOp)) else None
        if f is None or REDUCE_ATTR in fn.attributes:  # a reduction: launched with its GEMM kernel
            continue
        cfg: GemmConfig = f.config
        a_align, b_align = f.caller_align
        specs.append(KernelSpec(
            name=fn.sym_name.data, threads=cfg.threads, smem_bytes=cfg.smem_bytes(elem_bytes(f.ab_type)),
            acc_dtype=f.acc_type, tile_m=cfg.threadblock[0], tile_n=cfg.threadblock[1], tile_k=cfg.threadblock[2],
            raster=cfg.raster, d_dtype=f.d_type, a_dtype=f.ab_type, b_dtype=f.ab_type, alpha=f.alpha, beta=f.beta,
            swap_ab=f.swap_ab, d_layout=f.d_layout, batched=f.batched, a_layout=f.a_layout, b_layout=f.b_layout,
            a_align=a_align, b_align=b_align, split_k=cfg.split_k, split_k_mode=cfg.split_k_mode,
            reduce_name=reduce_name(fn.sym_name.data) if cfg.split_k > 1 and cfg.split_k_mode == "parallel" else None,
            epilogue=f.epilogue, persistent=bool(cfg.persistent), tiles_per_cta=tiles_per_cta(cfg), params=kernel_params(cfg.is_wgmma, cfg.has_workspace, len(f.epilogue),
                                                                                d_map=cfg.epilogue == "tma"),
            **({"tensor_maps": kernel_tensor_maps(*cfg.threadblock, f.ab_type, f.kernel_majors, f.batched, cfg.cluster,
                                                  d_type=f.d_type if cfg.epilogue == "tma" else None)}
               if cfg.is_wgmma else {}),
            **({"cluster": tuple(cfg.cluster)} if tuple(cfg.cluster) != (1, 1) else {}),
        ))
    return specs


def operand_layouts(module: ModuleOp) -> tuple[str, str]:
    """The caller's layouts ("row" / "col") of A and B: from the `lass.gemm` (or `linalg.matmul`)
    of an input, or the kernel's facts (`#lass.kernel`) in a dump; TN when unknown."""
    from xdsl.dialects.linalg.ops import MatmulOp

    from lasscc.dialects._common import memref_layout
    from lasscc.dialects.lass import GemmOp, kernel_facts
    from lasscc.linalg import matmul_operand_types

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


def is_gemm_function(fn: func.FuncOp | llvm.FuncOp) -> bool:
    """A function lasscc compiles to a kernel: one holding a `lass.gemm` or `linalg.matmul`, or a
    kernel of a dump (`#lass.kernel`)."""
    from lasscc.dialects.lass import GemmOp
    from lasscc.passes._build import is_kernel

    if not linalg_loaded():  # no linalg.matmul can exist
        return is_kernel(fn) or any(isinstance(o, GemmOp) for o in fn.walk())
    from xdsl.dialects.linalg.ops import MatmulOp

    return is_kernel(fn) or any(isinstance(o, (GemmOp, MatmulOp)) for o in fn.walk())


def drop_non_gemm_functions(module: ModuleOp) -> list[str]:
    """Leave the module's other functions out of a compile to PTX: every GEMM function becomes one
    kernel entry, and a `func.func` without a GEMM (a helper, a declaration) has no PTX lowering.
    Each one dropped gets a note at its location on stderr (also returned).  A module without any
    GEMM function is left as it is (compile_module names that error)."""
    import sys

    from lasscc.source import op_location

    funcs = [op for op in module.ops if isinstance(op, func.FuncOp)]
    if not any(is_gemm_function(f) for f in module.ops if isinstance(f, (func.FuncOp, llvm.FuncOp))):
        return []  # (a lowered kernel of a lasscc-lower-to-llvm dump counts)
    notes = []
    for fn in funcs:
        if not is_gemm_function(fn):
            notes.append(f"{op_location(fn)}: note: function @{fn.sym_name.data} holds no lass.gemm or "
                         "linalg.matmul; left out of the PTX (every GEMM function becomes one kernel)")
            print(notes[-1], file=sys.stderr)
            fn.detach()
            fn.erase(safe_erase=False)
    return notes


def compile_module(module: ModuleOp, arch: str = "sm_80", filename: str = "<input>",
                   dump_dir: Path | None = None, keep_stages: bool = True, verify_each: bool = False) -> CompileResult:
    """Run every pass, then emit LLVM IR and PTX (one kernel entry per GEMM function; the other
    functions are left out with a note: drop_non_gemm_functions); write numbered dumps when
    `dump_dir` is set.  `keep_stages=False` leaves `CompileResult.stages` empty (printing the IR
    after each pass costs seconds); `verify_each` verifies after every pass instead of once at the end."""
    with gc_paused():
        return _compile_module(module, arch, filename, dump_dir, keep_stages, verify_each)


def _compile_module(module: ModuleOp, arch: str, filename: str, dump_dir: Path | None, keep_stages: bool,
                    verify_each: bool) -> CompileResult:
    from lasscc.emit import to_llvm_ir, to_ptx

    drop_non_gemm_functions(module)
    if dump_dir is not None:
        output_dir(dump_dir)
        write_output(str(dump_dir / INPUT_DUMP), str(module) + "\n", "--dump-dir")
    res = CompileResult(module)

    def emit() -> None:
        """LLVM IR and PTX.  Without --verify-each, LLVM's parser and verifier check the lowered
        module (every instruction's operand and result types, dominance, terminators) in place of
        xDSL's verifier after the last pass: only when the writer or LLVM rejects it does run_passes'
        replay verify (after each pass), for the error at the op and the pass that made it.  A
        module without a kernel is not written (the error below)."""
        res.specs = kernel_specs(module)
        if res.specs:
            res.llvm_ir = to_llvm_ir(module)
            res.ptx = to_ptx(res.llvm_ir, arch)

    res.stages = run_passes(module, PASS_NAMES, arch, filename, dump_dir, keep_stages, verify_each, final_check=emit)
    if not res.specs:
        raise LassError(f"{filename}: error: expected a lass.gemm (or a lasscc dump of one), found no kernel")
    if dump_dir is not None:
        write_output(str(dump_dir / LLVM_DUMP), res.llvm_ir, "--dump-dir")
        write_output(str(dump_dir / PTX_DUMP), res.ptx, "--dump-dir")
    return res
