"""LLVM IR and PTX from the `llvm`-dialect module: xDSL's llvmlite backend, then llvmlite's NVPTX
target machine.  `ptxas_info` assembles PTX with ptxas (when on PATH) and reads registers, shared
memory and spills from `ptxas -v`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import llvmlite.ir as _llvm_ir
import xdsl.backend.llvm.convert_op as _convert_op_module
import xdsl.backend.llvm.convert_type as _convert_type_module
from xdsl.backend.llvm.convert import convert_module
from xdsl.dialects import llvm
from xdsl.dialects.builtin import BFloat16Type, ModuleOp

from lasscc import timing
from lasscc.diagnostics import LassError
from lasscc.dialects.lass import KERNEL_ATTR
from lasscc.passes._rolled import UNROLL_FULL_ATTR
from lasscc.passes.lower_to_llvm import CLUSTER_DIM_ATTR, MAXNTID_ATTR, SM90_KERNEL_ATTR, SM90_SMEM_ALIGN

NVPTX_TRIPLE = "nvptx64-nvidia-cuda"
NVPTX_DATALAYOUT = "e-p3:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
# PTX ISA version per target: sm_80 needs PTX >= 7.0; sm_90a (wgmma, setmaxnreg) needs >= 8.0.
ARCH_FEATURES = {"sm_80": "+ptx80", "sm_90a": "+ptx80"}
# LLVM passes (names as `-opt-disable` takes them) left out of O3 and the NVPTX codegen: their cost
# against what they change in the PTX is in to_ptx
CODEGEN_PASSES_SKIPPED = ("slsr", "nary-reassociate", "correlated-propagation", "instsimplify", "sccp", "bdce")
# The NVPTX codegen's optimization level (llvmlite's `opt`; O3's IR pipeline is chosen apart, by
# _optimize's speed level).  At 3 (LLVM's CodeGenOptLevel::Aggressive) the codegen's IR passes run GVN
# twice where level 2 runs EarlyCSE: ~0.01 s of the emit and the same PTX on every example (to_ptx)
CODEGEN_OPT_LEVEL = 2


def _convert_gep_keeping_addrspace(op, builder, val_map) -> None:
    """xDSL 0.74 bitcasts a GEP's base to an address-space-0 pointer, which LLVM rejects for
    shared (3) and global (1) pointers; llvmlite's opaque pointers need no cast at all."""
    from llvmlite import ir
    from xdsl.backend.llvm.convert_type import convert_type

    ssa = iter(op.ssa_indices)
    indices = [
        val_map[next(ssa)] if idx == llvm.GEP_USE_SSA_VAL else ir.Constant(ir.IntType(32), idx)
        for idx in op.rawConstantIndices.iter_values()
    ]
    val_map[op.results[0]] = builder.gep(
        val_map[op.ptr], indices, inbounds=op.inbounds is not None, source_etype=convert_type(op.elem_type)
    )


def _convert_store_any_pointee(op, builder, val_map) -> None:
    """llvmlite type-checks a store against the pointer's pointee type; with opaque pointers the
    stored value decides, so re-type the pointer (a no-op cast in the same address space)."""
    value, ptr = val_map[op.value], val_map[op.ptr]
    if getattr(ptr.type, "pointee", value.type) != value.type or getattr(ptr.type, "is_opaque", False):
        ptr = builder.bitcast(ptr, value.type.as_pointer(ptr.type.addrspace))
    instr = builder.store(value, ptr)
    if op.alignment:
        instr.align = op.alignment.value.data


class _BFloatType(_llvm_ir.types._BaseFloatType):
    """LLVM's `bfloat`, which llvmlite 0.50 lacks (constants in LLVM's 0xR hex form)."""

    null = "0xR0000"
    intrinsic_name = "bf16"

    def __str__(self) -> str:
        return "bfloat"

    def format_constant(self, value) -> str:
        import numpy as np

        bits = int(np.array([value], np.float32).view(np.uint32)[0])
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16  # round to nearest even
        return f"0xR{bits & 0xFFFF:04X}"


_BFloatType._create_instance()  # llvmlite's float types are singletons
_convert_type_module._TYPE_CONVERTERS[BFloat16Type] = lambda _: _BFloatType()

# A literal struct of at least this many fields of one scalar type is written once, as a named type:
# the wgmma accumulators' {float x 128} (the results of lower_sm90's inline asm) is otherwise spelled
# out in each of its ~512 extractvalues, ~470 KB of the ~580 KB IR of a 128x256 kernel, which
# llvmlite prints and LLVM parses again (BENCHMARKS.md "Session 13: compile time")
NAMED_STRUCT_MIN_FIELDS = 16


class _NamedStructType(_llvm_ir.LiteralStructType):
    """A struct type that prints as its name (`%"floatx128"`); to_llvm_ir declares the name
    (`%"floatx128" = type {float, ...}`), so LLVM reads an identified struct of the same layout."""

    def __init__(self, elems, name: str) -> None:
        super().__init__(elems)
        self.name = name

    def _to_string(self) -> str:
        return f'%"{self.name}"'


_NAMED_STRUCTS: dict[str, _NamedStructType] = {}  # by name; immutable, shared by every compile


def _convert_struct_naming_wide(type_attr: llvm.LLVMStructType):
    elems = [_convert_type_module.convert_type(t) for t in type_attr.types.data]
    first = elems[0] if elems else None
    if (len(elems) >= NAMED_STRUCT_MIN_FIELDS and isinstance(first, (_llvm_ir.IntType, _llvm_ir.types._BaseFloatType))
            and all(e == first for e in elems)):
        name = f"{first}x{len(elems)}"
        if name not in _NAMED_STRUCTS:
            _NAMED_STRUCTS[name] = _NamedStructType(elems, name)
        return _NAMED_STRUCTS[name]
    return _llvm_ir.LiteralStructType(elems)


_convert_type_module._TYPE_CONVERTERS[llvm.LLVMStructType] = _convert_struct_naming_wide
_convert_op_module._convert_getelementptr = _convert_gep_keeping_addrspace
_convert_op_module._convert_store = _convert_store_any_pointee


def to_llvm_ir(module: ModuleOp) -> str:
    """LLVM IR text of a module lowered by lasscc-lower-to-llvm (kernels get `ptx_kernel`)."""
    try:
        with timing.phase("translate to llvmlite IR"):
            ir_mod = convert_module(module, fallback_target_triple=NVPTX_TRIPLE, data_layout=NVPTX_DATALAYOUT)
    except NotImplementedError as e:
        raise LassError(f"error: cannot translate to LLVM IR: {e} (run lasscc-lower-to-llvm first)") from None
    # xDSL's backend drops a global's alignment.  The Ampere kernels have always been emitted with
    # `.align 1` (they need 16 bytes, which the dynamic shared memory's base has): only the sm_90a
    # alignment (lower_to_llvm.SM90_SMEM_ALIGN) is applied, so their PTX stays as it was
    for g in module.ops:
        if isinstance(g, llvm.GlobalOp) and g.alignment is not None and g.alignment.value.data >= SM90_SMEM_ALIGN:
            ir_mod.get_global(g.sym_name.data).align = g.alignment.value.data
    kernels = {f.sym_name.data: f for f in module.ops if isinstance(f, llvm.FuncOp)
               and (KERNEL_ATTR in f.attributes or SM90_KERNEL_ATTR in f.attributes)}
    for fn in ir_mod.functions:
        if fn.name in kernels:
            fn.calling_convention = "ptx_kernel"
            _nvvm_attributes(kernels[fn.name], fn)
    unroll_full_metadata(module, ir_mod)
    with timing.phase("print LLVM IR"):
        return _declare_named_structs(str(ir_mod))


def _declare_named_structs(text: str) -> str:
    """The `%"NAME" = type {...}` lines of the named struct types (_NamedStructType) the text uses,
    after its `target datalayout` line (LLVM wants type definitions after the target lines)."""
    used = [t for name, t in _NAMED_STRUCTS.items() if f'%"{name}"' in text]
    if not used:
        return text
    at = text.index("\n", text.index("target datalayout")) + 1
    return text[:at] + "".join(f'%"{t.name}" = type {t.structure_repr()}\n' for t in used) + text[at:]


def unroll_full_metadata(module: ModuleOp, ir_mod) -> None:
    """`!llvm.loop !{self, !{!"llvm.loop.unroll.full"}}` on each back edge lasscc-lower-to-llvm
    marked (passes/_rolled.py's rolled loops: LLVM's O3 then unrolls them completely), which xDSL's
    backend does not translate.  It creates the blocks of a function in the llvm.func's order."""
    md = None
    for f in module.ops:
        if not isinstance(f, llvm.FuncOp) or not f.body.blocks:
            continue
        ir_fn = ir_mod.get_global(f.sym_name.data)
        for blk, ir_blk in zip(f.body.blocks, ir_fn.blocks, strict=True):
            if UNROLL_FULL_ATTR not in blk.last_op.attributes:
                continue
            if md is None:  # a loop ID names itself first (LLVM's LoopInfo checks that)
                md = ir_mod.add_metadata([ir_mod.add_metadata([_llvm_ir.MetaDataString(ir_mod, "llvm.loop.unroll.full")])])
                md.operands = (md, *md.operands)
            ir_blk.terminator.set_metadata("llvm.loop", md)


class _NvvmArgAttributes(_llvm_ir.values.ArgumentAttributes):
    """llvmlite's parameter attributes plus LLVM's string attribute "nvvm.grid_constant"."""

    _known = {**_llvm_ir.values.ArgumentAttributes._known, '"nvvm.grid_constant"': False}


class _NvvmFunctionAttributes(_llvm_ir.values.FunctionAttributes):
    """llvmlite's function attributes plus LLVM's string attributes `"nvvm.maxntid"="x[,y,z]"`."""

    def add(self, name):
        if name.startswith('"nvvm.'):
            return set.add(self, name)
        return super().add(name)


def _nvvm_attributes(op: llvm.FuncOp, fn) -> None:
    """What xDSL's llvmlite backend does not translate (it ignores unknown argument attributes
    and function attributes): `nvvm.grid_constant` on a tensor-map parameter (lower_sm90's
    arg_attrs), and the kernel's `nvvm.maxntid` (LLVM 22 reads it as a function attribute)."""
    if op.arg_attrs is not None:
        for arg, attrs in zip(fn.args, op.arg_attrs.data):
            if "nvvm.grid_constant" in attrs.data:
                old = arg.attributes
                arg.attributes = _NvvmArgAttributes(list(old))
                arg.attributes.align = old.align
                arg.attributes.add('"nvvm.grid_constant"')
    for key in (MAXNTID_ATTR, CLUSTER_DIM_ATTR):  # CLUSTER_DIM_ATTR: .explicitcluster + .reqnctapercluster
        if key in op.attributes:
            dims = [int(x) for x in op.attributes[key].get_values()]
            fn.attributes = _NvvmFunctionAttributes(list(fn.attributes))
            fn.attributes.add(f'"{key}"="{",".join(map(str, dims))}"')


def to_ptx(llvm_ir: str, arch: str = "sm_80") -> str:
    import llvmlite.binding as llvm_b

    if arch not in ARCH_FEATURES:
        raise LassError(f"option --arch: expected one of {', '.join(ARCH_FEATURES)}, got '{arch}'")
    llvm_b.initialize_all_targets()
    llvm_b.initialize_all_asmprinters()
    # 32-bit shared-memory pointers (what the data layout's p3:32 says): half the registers per
    # hoisted SMEM address, and the `[%r]` operands CUTLASS's ldmatrix/cp.async use.
    llvm_b.set_option("", "--nvptx-short-ptr")
    # The NVPTX codegen's straight-line strength reduction was ~85% of the emit (0.8 of 0.93 s on
    # gemm.mlir: it scans the long epilogue block) and changes only the pipeline prologue's cp.async
    # addresses (BENCHMARKS.md "Compile time (session 10)"); LLVM's pass gate skips it by name.
    # N-ary reassociation (~10% of the emit on gemm.mlir) then changes nothing in any example's PTX
    # (BENCHMARKS.md "Session 11: compile time").  Four of O3's cleanups change no example's PTX either
    # (nor that of 40 fuzz kernels): correlated value propagation (~0.007 s), and InstSimplify, SCCP and
    # bit-tracking DCE (~0.002 s each), whose folds the nine InstCombine runs make anyway
    # (BENCHMARKS.md "Session 14 -- LLVM side (compile16d)").
    llvm_b.set_option("", f"-opt-disable={','.join(CODEGEN_PASSES_SKIPPED)}")
    with timing.phase("LLVM parse"):
        mod = llvm_b.parse_assembly(llvm_ir)
    with timing.phase("LLVM verify"):
        mod.verify()
    target = llvm_b.Target.from_triple(NVPTX_TRIPLE)
    tm = target.create_target_machine(cpu=arch, features=ARCH_FEATURES[arch], opt=CODEGEN_OPT_LEVEL)
    with timing.phase("LLVM optimize (O3)"):
        _optimize(mod, tm)
    with timing.phase("NVPTX emit"):
        return tm.emit_assembly(mod)


def _optimize(mod, tm) -> None:
    """LLVM's O3 pipeline (LICM hoists the per-thread address arithmetic out of the K loop), on the
    module with its function-local value names dropped first.

    The names (llvmlite's `%".123"`) mean nothing to the NVPTX backend, which numbers its own
    registers and labels, but LLVM keeps them unique through a string map as it clones and renames
    instructions: the full unrolling of the rolled loops (passes/_rolled.py) clones ~4,000 named
    phis and instructions on gemm.mlir, and O3 took ~15 % longer with the names (BENCHMARKS.md
    "Session 13: compile time").  StripNonDebugSymbols renames only values and globals of local
    linkage; the kernels and `lass_smem` are external, so the PTX is byte-identical."""
    import llvmlite.binding as llvm_b

    pto = llvm_b.create_pipeline_tuning_options(speed_level=3)
    pb = llvm_b.create_pass_builder(tm, pto)
    strip = llvm_b.create_new_module_pass_manager()
    strip.add_strip_non_debug_symbols_pass()
    strip.run(mod, pb)
    pm = pb.getModulePassManager()
    pm.run(mod, pb)


# ptxas warnings that it serialized wgmma.mma_async (accumulator registers touched while a wgmma is in
# flight, a call in the pipelined region, ...): the kernel still runs, far slower; GUIDE §5
WGMMA_SERIALIZED_WARNINGS = ("C7510", "C7517", "C7519")


@dataclass(frozen=True)
class PtxasInfo:
    registers: int
    shared_bytes: int
    spill_stores: int
    spill_loads: int
    stack_bytes: int
    line: str


def ptxas_info(ptx: str, arch: str = "sm_80") -> PtxasInfo | None:
    """Assemble with `ptxas -v`; None when ptxas is not installed.  Raises LassError on failure."""
    # imported here: `lasscc compile` never assembles, and subprocess / tempfile are a few ms of its start-up
    import shutil
    import subprocess
    import tempfile

    exe = shutil.which("ptxas")
    if exe is None:
        return None
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "k.ptx"
        src.write_text(ptx)
        with timing.phase("ptxas"):
            proc = subprocess.run([exe, "-v", f"-arch={arch}", str(src), "-o", str(Path(d) / "k.cubin")],
                                  capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    if proc.returncode != 0:
        raise LassError(f"error: ptxas rejected the emitted PTX:\n{out}")
    serialized = [ln.strip() for ln in out.splitlines() if any(c in ln for c in WGMMA_SERIALIZED_WARNINGS)]
    if serialized:
        raise LassError("error: ptxas serialized wgmma (a bug in the emitted code, like a spill):\n" + "\n".join(serialized))
    # one report per kernel entry (a parallel split-K module has two): the most registers, shared
    # memory and stack of any entry, the spills of all of them
    regs = [int(x) for x in re.findall(r"Used (\d+) registers", out)]
    smem = [int(x) for x in re.findall(r"(\d+) bytes smem", out)]
    spill = [(int(a), int(b)) for a, b in re.findall(r"(\d+) bytes spill stores, (\d+) bytes spill loads", out)]
    stack = [int(x) for x in re.findall(r"(\d+) bytes stack frame", out)]
    line = next((ln.strip() for ln in out.splitlines() if "Used" in ln), out.strip())
    return PtxasInfo(
        registers=max(regs, default=0),
        shared_bytes=max(smem, default=0),
        spill_stores=sum(a for a, _ in spill),
        spill_loads=sum(b for _, b in spill),
        stack_bytes=max(stack, default=0),
        line=line,
    )
