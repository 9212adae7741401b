"""lasscc-lower-to-llvm: per-thread kernel (arith, scf, lass_nv, lass_smem) -> xDSL `llvm` dialect.

Input contract: a kernel after lasscc-swizzle-smem: only `arith`, `scf.for`/`scf.if`/`scf.yield`,
`lass_nv`, `lass_smem`, `lass_tb.batch_view` (a pointer offset) and `func.return` in its body.  Functions that are not kernels are left
alone; any other op is rejected with its name and place.

Output contract: one `llvm.func` per kernel with the same name and parameters (memrefs become
`!llvm.ptr<1>`, the global address space), keeping the kernel attribute (`lass.kernel` marks
it a kernel; the emitter gives it the `ptx_kernel` calling convention), and a module-level `llvm.mlir.global external @lass_smem : !llvm.array<0 x i8>`
in address space 3: the dynamic shared memory that every i32 shared address is an offset into.
Structured control flow becomes blocks through xDSL's `convert-scf-to-cf` patterns (`scf.for` ->
condition block (phi, compare) / body / exit; `scf.if` -> then / else / continuation, an scf.if's
results the continuation's block arguments), whose `cf.br` / `cf.cond_br` become `llvm.br` /
`llvm.cond_br`.  An `arith.addi` marked `overflow<nsw>` keeps the flag (`llvm.add ... overflow<nsw>`:
LLVM then folds the constant of an offset into the address; passes/tma_store.py `_add_nsw`).  PTX instructions become NVVM intrinsics where LLVM has them
(`llvm.nvvm.mma.m16n8k16.row.col.f32.f32`, `.bf16` and `.f16.f16`, `mma.m16n8k8.row.col.tf32`,
`mma.m16n8k32.row.col.satfinite.s8`, `f2tf32.rna`, `f2i.rn`, `prmt`, `ldmatrix...x4[.trans].b16.p3`, `cp.async.cg...16.s`,
`cp.async.commit/wait.group`, `barrier0`, `read.ptx.sreg.*`; `cp.async.ca...4.s` / `.8.s` for
narrow copies), plain LLVM integer loads for `ld.shared` (64 / 128 bits for .v2 / .v4), and inline
PTX for the predicated 16-byte global load and the narrow (1, 2, 4, 8 byte) ones of
`lass_nv.ld_global_b` (as CUTLASS's `global_load` does); `lass_nv.st_shared_b` is an LLVM store of
i8 / i16 / i32 / <2 x i32>.  The sm_90a ops (TMA, mbarrier, wgmma; `lass_nv.SM90_OPS`) and the
`!lass_nv.tensor_map` parameter are lowered by passes/lower_sm90.py; a function marked
`nvvm.kernel` (a hand-built sm_90a kernel without `#lass.kernel`) is lowered as a kernel too.  The kernel's `lass.kernel`
(its facts) is kept on the `llvm.func` for the launcher.  The ops of an inlined fused epilogue:
arith divf / negf / maxsi / minsi / trunci directly, maximumf / minimumf as NaN-propagating
compare + select, maxnumf / minnumf / math absf / sqrt / fma as LLVM intrinsics, and math exp /
tanh / erf and lass.gelu as lasscc.epilogue_math's f32 formulas (`ex2.approx.ftz.f32` inline PTX, no
libdevice; lass.gelu's by its `rounded_to`: formula_args).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from lasscc.dialects import lass_nv, lass_smem, lass_tb
from lasscc.dialects.epilogue import formula_args
from lasscc.epilogue_math import FORMULAS
from lasscc.ir_math import Idx
from lasscc.layout import WARP_SIZE, swizzle
from lasscc.passes._build import ARITH_BINOPS, KERNEL_ATTR, int_attr, is_kernel
from lasscc.passes._rolled import UNROLL_FULL_ATTR
from lasscc.passes.lower_sm90 import lower_sm90, tensor_map_arg_attrs
from lasscc.passes.splitk_reduce import REDUCE_ATTR
from lasscc.passes.warp_specialize import lower_roles
from xdsl.context import Context
from xdsl.dialects import arith, cf, func, llvm, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    VectorType,
    f16,
    f32,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern
from xdsl.transforms.convert_scf_to_cf import ForLowering, IfLowering
from xdsl.utils.exceptions import PassFailedException

from lasscc.source import op_location

SMEM_SYMBOL = "lass_smem"
# A kernel without `#lass.kernel` (hand-built instruction-level sm_90a kernels, until the Hopper
# passes write their facts): MLIR's NVVM unit attribute marks it; `nvvm.maxntid` (array<i32: x, y, z>)
# declares its thread count (ptxas needs it for setmaxnreg).  Both are kept on the llvm.func for emit.
SM90_KERNEL_ATTR = "nvvm.kernel"
MAXNTID_ATTR = "nvvm.maxntid"
CLUSTER_DIM_ATTR = "nvvm.cluster_dim"  # a clustered kernel's cluster dims (passes/lower_cluster.py)
# TMA boxes and wgmma descriptors address swizzled tiles relative to the 1024-byte pattern of the
# 128-byte swizzle (sm90_layout.tma_smem_align): the dynamic shared memory is declared that aligned
SM90_SMEM_ALIGN = 1024
SM90_TILE_OPS = (lass_nv.TmaLoad2dOp, lass_nv.TmaLoad3dOp, lass_nv.WgmmaMmaAsyncOp)
GLOBAL_AS = 1  # NVPTX address spaces: 1 global, 3 shared
SHARED_AS = 3

_BINOPS = {
    arith.AddiOp: llvm.AddOp,
    arith.SubiOp: llvm.SubOp,
    arith.MuliOp: llvm.MulOp,
    arith.DivUIOp: llvm.UDivOp,
    arith.RemUIOp: llvm.URemOp,
    arith.AndIOp: llvm.AndOp,
    arith.OrIOp: llvm.OrOp,
    arith.XOrIOp: llvm.XOrOp,
    arith.ShLIOp: llvm.ShlOp,
    arith.ShRUIOp: llvm.LShrOp,
    arith.AddfOp: llvm.FAddOp,
    arith.MulfOp: llvm.FMulOp,
    arith.SubfOp: llvm.FSubOp,
    arith.DivfOp: llvm.FDivOp,
}
# ops of a fused epilogue region (lasscc.dialects.epilogue) that are one LLVM intrinsic each, by op name
# (xDSL's math dialect is not imported by a compile without an epilogue region)
_F32_INTRINSICS = {arith.MaxnumfOp.name: "llvm.maxnum.f32", arith.MinnumfOp.name: "llvm.minnum.f32",
                   "math.absf": "llvm.fabs.f32", "math.sqrt": "llvm.sqrt.f32", "math.fma": "llvm.fma.f32"}
# 2^x: PTX ex2.approx.ftz.f32 (max relative error 2^-22, PTX ISA 9.7.4.9); lasscc.epilogue_math's
# exp / tanh / erf are built on it
EX2_ASM = "ex2.approx.ftz.f32 $0, $1;"
# tanh: PTX tanh.approx.f32 (sm_75+, max relative error 2^-10.987; lasscc.epilogue_math.TANH_FORM)
TANH_APPROX_ASM = "tanh.approx.f32 $0, $1;"
# lasscc.epilogue_math.gelu's relu: NaN-propagating max (sm_80+, PTX 7.0)
MAX_NAN_ASM = "max.NaN.f32 $0, $1, $2;"
# the division inside tanh_rational: div.full.f32 (PTX ISA 9.7.3.8: max error 2 ulp, full range), a few
# instructions where LLVM's fdiv is div.rn.f32 (IEEE, with a slow path); arith.divf stays div.rn
DIV_FULL_ASM = "div.full.f32 $0, $1, $2;"


class _LLVMF32:
    """The lasscc.epilogue_math backend that emits llvm ops through a _Lowerer."""

    def __init__(self, lo: "_Lowerer"):
        self.lo = lo

    def const(self, x: float) -> SSAValue:
        return self.lo.emit(llvm.ConstantOp(FloatAttr(x, f32), f32))

    def add(self, a, b):
        return self.lo.emit(llvm.FAddOp(a, b))

    def sub(self, a, b):
        return self.lo.emit(llvm.FSubOp(a, b))

    def mul(self, a, b):
        return self.lo.emit(llvm.FMulOp(a, b))

    def div(self, a, b):  # the formulas' one division: div.full.f32 (2 ulp, no IEEE slow path)
        return self.lo.emit(llvm.InlineAsmOp(DIV_FULL_ASM, "=f,f,f", [a, b], [f32]))

    def neg(self, a):
        return self.lo.emit(llvm.FNegOp(a))

    def fma(self, a, b, c):  # fma.rn.f32: one rounding, as NumpyF32.fma
        return self.lo.intrinsic("llvm.fma.f32", [a, b, c], [f32]).results[0]

    def copysign(self, a, b):
        return self.lo.intrinsic("llvm.copysign.f32", [a, b], [f32]).results[0]

    def lt(self, a, b):
        return self.lo.emit(llvm.FCmpOp(a, b, "olt"))

    def gt(self, a, b):
        return self.lo.emit(llvm.FCmpOp(a, b, "ogt"))

    def select(self, c, a, b):
        return self.lo.emit(llvm.SelectOp(c, a, b))

    def abs(self, a):
        return self.lo.intrinsic("llvm.fabs.f32", [a], [f32]).results[0]

    def ex2(self, a):
        return self.lo.emit(llvm.InlineAsmOp(EX2_ASM, "=f,f", [a], [f32]))

    def fmin(self, a, b):  # min.f32: a NaN operand gives the other, as NumpyF32.fmin
        return self.lo.intrinsic("llvm.minnum.f32", [a, b], [f32]).results[0]

    def max_nan(self, a, b):
        return self.lo.emit(llvm.InlineAsmOp(MAX_NAN_ASM, "=f,f,f", [a, b], [f32]))

    def tanh_approx(self, a):
        return self.lo.emit(llvm.InlineAsmOp(TANH_APPROX_ASM, "=f,f", [a], [f32]))
_ICMP = {"eq": 0, "ne": 1, "slt": 2, "sle": 3, "sgt": 4, "sge": 5, "ult": 6, "ule": 7, "ugt": 8, "uge": 9}
_ARITH_ICMP = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]

LD_GLOBAL_V4_ASM = (
    "{\n .reg .pred p;\n setp.ne.b32 p, $5, 0;\n mov.b32 $0, 0;\n mov.b32 $1, 0;\n mov.b32 $2, 0;\n"
    " mov.b32 $3, 0;\n @p ld.global.v4.u32 {$0, $1, $2, $3}, [$4];\n}"
)


# split-K's semaphore (lass_nv.spin_acquire / st_release; lasscc.splitk)
LD_ACQUIRE_ASM = "ld.acquire.gpu.global.b32 $0, [$1];"
ST_RELEASE_ASM = "st.release.gpu.global.b32 [$0], $1;"


def cp_async_intrinsic(nbytes: int) -> str:
    """The NVVM intrinsic of a zero-filling cp.async of `nbytes` (src-size operand `.s`): 16 bytes
    cp.async.cg (L2 only), 4 and 8 cp.async.ca (the only cp-sizes .ca has besides 16)."""
    cache = "cg" if nbytes == 16 else "ca"
    return f"llvm.nvvm.cp.async.{cache}.shared.global.{nbytes}.s"


def ld_global_narrow_asm(nbytes: int) -> str:
    """Inline PTX of lass_nv.ld_global_b: a predicated ld.global of 1, 2, 4 or 8 bytes into one or
    two 32-bit registers, zero where the predicate (the last operand) is 0.  1 and 2 bytes load
    .u8 / .u16 into a .b32 register (zero-extended: PTX ISA "Operand size exceeding instruction-type
    size")."""
    if nbytes == 8:
        return ("{\n .reg .pred p;\n setp.ne.b32 p, $3, 0;\n mov.b32 $0, 0;\n mov.b32 $1, 0;\n"
                " @p ld.global.v2.u32 {$0, $1}, [$2];\n}")
    return (f"{{\n .reg .pred p;\n setp.ne.b32 p, $2, 0;\n mov.b32 $0, 0;\n"
            f" @p ld.global.u{8 * nbytes} $0, [$1];\n}}")


def _vec(n: int) -> str:
    return "" if n == 1 else f".v{n}"


def _regs(first: int, n: int) -> str:
    names = ", ".join(f"${first + i}" for i in range(n))
    return names if n == 1 else "{" + names + "}"


def predicated_st_global_asm(bits: int, n: int) -> str:
    """Inline PTX of a guarded lass_nv.st_global: `@p st.global[.vN].bBITS [$0], regs` with the
    predicate from the i32 operand $1 (bits 8: a .b32 register holding the byte, PTX ISA "Operand
    size exceeding instruction-type size")."""
    return (f"{{\n .reg .pred p;\n setp.ne.b32 p, $1, 0;\n"
            f" @p st.global{_vec(n)}.b{bits} [$0], {_regs(2, n)};\n}}")


def predicated_ld_global_asm(bits: int, n: int) -> str:
    """Inline PTX of a guarded lass_nv.ld_global: zeros, then `@p ld.global[.vN].bBITS` (address
    $n, predicate $n+1)."""
    zero = "".join(f" mov.b{16 if bits == 16 else 32} ${i}, 0;\n" for i in range(n))
    t = "u8" if bits == 8 else f"b{bits}"
    return (f"{{\n .reg .pred p;\n setp.ne.b32 p, ${n + 1}, 0;\n{zero}"
            f" @p ld.global{_vec(n)}.{t} {_regs(0, n)}, [${n}];\n}}")


def _reg_of(et) -> tuple:
    """The inline-asm register type and constraint holding one element of type `et`: 16-bit
    types in an i16 ("h"), 32-bit ones in an i32 ("r"), bytes in an i32 ("r")."""
    return (i16, "h") if et.bitwidth == 16 else (i32, "r")


def _is_true(pred: SSAValue) -> bool:
    owner = pred.owner
    return isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr) and owner.value.value.data != 0


@functools.cache
def _ptr(addr_space: int) -> llvm.LLVMPointerType:
    return llvm.LLVMPointerType(IntAttr(addr_space))


# Attributes are immutable: the ones every GEP carries are built once (constructing and verifying
# an xDSL attribute costs more than the op that holds it)
_SSA_INDEX = DenseArrayBase.from_list(i32, [llvm.GEP_USE_SSA_VAL])
_NO_WRAP = IntegerAttr(0, 32)


@functools.cache
def _position(i: int) -> DenseArrayBase:
    """llvm.extractvalue's `[i]` (a wgmma's 64-128 accumulator fields per call)."""
    return DenseArrayBase.from_list(i64, [i])


def _gep(base: SSAValue, index: SSAValue, elem_t, result_type) -> llvm.GEPOp:
    """`getelementptr elem_t, base, index` (one SSA index): what llvm.GEPOp(base,
    [GEP_USE_SSA_VAL], elem_t, ssa_indices=[index], result_type) builds, from the shared attributes."""
    return llvm.GEPOp.build(operands=[base, [index]], result_types=[result_type],
                            properties={"rawConstantIndices": _SSA_INDEX, "elem_type": elem_t, "noWrapFlags": _NO_WRAP})


class _Lowerer:
    def __init__(self, fn: func.FuncOp, module: ModuleOp):
        self.fn = fn
        self.map: dict[SSAValue, SSAValue] = {}
        self.blocks: list[Block] = []
        in_types = [(_ptr(GLOBAL_AS) if isinstance(t, MemRefType) else _ptr(0) if isinstance(t, lass_nv.TensorMapType)
                     else t) for t in fn.function_type.inputs.data]
        self.memref_elem = {}
        entry = Block(arg_types=in_types)
        for old, new in zip(fn.body.blocks[0].args, entry.args):
            self.map[old] = new
            new.name_hint = old.name_hint
            if isinstance(old.type, MemRefType):
                self.memref_elem[new] = old.type.get_element_type()
        self.cur = entry
        self.blocks.append(entry)
        # the kernel's blocks after convert-scf-to-cf (in dominance order), each with its own block here
        self.block_map = {fn.body.blocks[0]: entry}
        for old in list(fn.body.blocks)[1:]:
            new = Block(arg_types=[a.type for a in old.args])
            for a, b in zip(old.args, new.args):
                self.map[a] = b
            self.block_map[old] = new
            self.blocks.append(new)
        self.smem = self.emit(llvm.AddressOfOp(SMEM_SYMBOL, _ptr(SHARED_AS)))
        self.in_types = in_types
        self.h2_cache: dict[tuple[SSAValue, Block], SSAValue] = {}  # half2

    # -- helpers -----------------------------------------------------------------------------
    def emit(self, op: Operation) -> SSAValue | None:
        self.cur.add_op(op)
        return op.results[0] if op.results else None

    def new_block(self, arg_types=()) -> Block:
        """A block placed right after the current one (blocks stay in dominance order)."""
        b = Block(arg_types=list(arg_types))
        self.blocks.insert(self.blocks.index(self.cur) + 1, b)
        return b

    def const(self, value: int, typ=i32) -> SSAValue:
        return self.emit(llvm.ConstantOp(int_attr(value, typ), typ))

    def lowered(self, old: SSAValue) -> SSAValue:
        return self.map[old]

    # lasscc.ir_math.Idx emitter hooks: lasscc.layout formulas on lowered values emit llvm ops
    c = const

    def binop(self, kind: str, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.emit(_BINOPS[ARITH_BINOPS[kind]](x, y))

    def idx_value(self, x) -> SSAValue:
        return self.const(x) if isinstance(x, int) else x.value

    def intrinsic(self, name: str, args, result_types=()) -> Operation:
        op = llvm.CallIntrinsicOp(name, list(args), list(result_types))
        self.emit(op)
        return op

    def shared_ptr(self, addr: SSAValue) -> SSAValue:
        return self.emit(_gep(self.smem, addr, i8, _ptr(SHARED_AS)))

    def smem_base_here(self, aligned: bool) -> SSAValue:
        """The dynamic-smem window's .shared address (i32) read at this point by a volatile
        `mov.u32 $0, lass_smem;` that LLVM neither hoists nor merges, unlike `self.smem`
        (lower_sm90._shared_address says why the Hopper lowering wants it); `aligned`: and'ed with
        the window's alignment (SM90_SMEM_ALIGN), which the asm hides from LLVM."""
        base = self.emit(llvm.InlineAsmOp(f"mov.u32 $0, {SMEM_SYMBOL};", "=r", [], [i32], has_side_effects=True))
        return self.emit(llvm.AndOp(base, self.const(-SM90_SMEM_ALIGN))) if aligned else base

    def int_to_shared_ptr(self, addr: SSAValue) -> SSAValue:
        """The addrspace(3) pointer of .shared address `addr` (i32)."""
        return self.emit(llvm.IntToPtrOp.create(operands=[addr], result_types=[_ptr(SHARED_AS)]))

    def global_ptr(self, base: SSAValue, offset: SSAValue) -> SSAValue:
        wide = self.emit(llvm.SExtOp(offset, i64))
        return self.emit(_gep(base, wide, self.memref_elem[base], _ptr(GLOBAL_AS)))

    def struct_fields(self, value: SSAValue, types) -> list[SSAValue]:
        return [self.emit(llvm.ExtractValueOp(_position(i), value, t)) for i, t in enumerate(types)]

    def vector(self, values, elem_t) -> SSAValue:
        """<n x elem_t> of the (already lowered) values, element i = values[i] (lowest address)."""
        vec = self.emit(llvm.UndefOp(VectorType(elem_t, [len(values)])))
        for i, x in enumerate(values):
            vec = self.emit(llvm.InsertElementOp(vec, x, self.const(i)))
        return vec

    def half2(self, x: SSAValue) -> SSAValue:
        """A lowered i32 fragment register as <2 x half>, bitcast once per block: each A / B register
        feeds WN/8 (WM/16) mma.sync, and one bitcast per use was a quarter of the lowered kernel."""
        key = (x, self.cur)
        if key not in self.h2_cache:
            self.h2_cache[key] = self.emit(llvm.BitcastOp(x, VectorType(f16, [2])))
        return self.h2_cache[key]

    def to_reg(self, x: SSAValue, et) -> SSAValue:
        """A lowered element as its inline-asm register (_reg_of): bitcast floats, widen bytes."""
        reg_t, _ = _reg_of(et)
        if et.bitwidth == 8:
            return self.emit(llvm.ZExtOp(x, i32))
        return x if isinstance(et, IntegerType) else self.emit(llvm.BitcastOp(x, reg_t))

    def from_reg(self, r: SSAValue, et) -> SSAValue:
        """The inverse of to_reg."""
        if et.bitwidth == 8:
            return self.emit(llvm.TruncOp(r, et))
        return r if isinstance(et, IntegerType) else self.emit(llvm.BitcastOp(r, et))

    def guarded(self, pred: SSAValue, emit_body) -> None:
        """emit_body() in a block that runs only where `pred` holds (a branch around it)."""
        head = self.cur
        body = self.new_block()
        self.cur = body
        emit_body()
        merge = self.new_block()
        self.emit(llvm.BrOp(merge))
        head.add_op(llvm.CondBrOp(pred, body, [], merge, []))
        self.cur = merge

    # -- structure ---------------------------------------------------------------------------
    def run(self) -> llvm.FuncOp:
        for old, new in self.block_map.items():
            self.cur = new
            self.lower_block(old)
        ftype = llvm.LLVMFunctionType(self.in_types, llvm.LLVMVoidType())
        new = llvm.FuncOp(self.fn.sym_name.data, ftype, linkage=llvm.LinkageAttr("external"),
                          body=Region(self.blocks))
        for key in (KERNEL_ATTR, SM90_KERNEL_ATTR, MAXNTID_ATTR, CLUSTER_DIM_ATTR):  # facts, for the launcher; nvvm.* for emit
            if key in self.fn.attributes:
                new.attributes[key] = self.fn.attributes[key]
        if any(isinstance(t, lass_nv.TensorMapType) for t in self.fn.function_type.inputs.data):
            new.arg_attrs = ArrayAttr([tensor_map_arg_attrs() if isinstance(t, lass_nv.TensorMapType)
                                       else DictionaryAttr({}) for t in self.fn.function_type.inputs.data])
        if REDUCE_ATTR in self.fn.attributes:  # parallel split-K's reduction kernel: not a launch of its own
            new.attributes[REDUCE_ATTR] = self.fn.attributes[REDUCE_ATTR]
        return new

    def lower_block(self, block: Block) -> None:
        for op in block.ops:
            self.lower(op)

    def lower(self, op: Operation) -> None:
        m = self.map
        t = type(op)  # compared by identity: no op class lowered here has subclasses (tests/unit/test_lower_dispatch.py)
        if t is arith.ConstantOp:
            m[op.result] = self.emit(llvm.ConstantOp(op.value, op.result.type))
        elif t is arith.AddiOp and arith.IntegerOverflowFlag.NSW in op.overflow_flags.data:
            # an offset's add that cannot wrap (passes/tma_store.py): LLVM splits sext(x + c) and
            # folds c into the address (an immediate offset, not an IMAD.WIDE an access)
            m[op.result] = self.emit(llvm.AddOp(self.lowered(op.lhs), self.lowered(op.rhs),
                                                overflow=llvm.OverflowAttr((llvm.OverflowFlag.NO_SIGNED_WRAP,))))
        elif type(op) in _BINOPS:
            m[op.results[0]] = self.emit(_BINOPS[type(op)](self.lowered(op.lhs), self.lowered(op.rhs)))
        elif t in (arith.MaxSIOp, arith.MinSIOp):
            pred = "sgt" if t is arith.MaxSIOp else "slt"
            c = self.emit(llvm.ICmpOp(self.lowered(op.lhs), self.lowered(op.rhs), int_attr(_ICMP[pred], 64)))
            m[op.result] = self.emit(llvm.SelectOp(c, self.lowered(op.lhs), self.lowered(op.rhs)))
        elif t is arith.TruncIOp:
            m[op.result] = self.emit(llvm.TruncOp(self.lowered(op.input), op.result.type))
        elif t is arith.NegfOp:
            m[op.result] = self.emit(llvm.FNegOp(self.lowered(op.operand)))
        elif t in (arith.MaximumfOp, arith.MinimumfOp):
            # NaN-propagating max / min (max.NaN needs sm_80 PTX 7.0 and LLVM's llvm.maximum):
            # the ordered compare's pick, or x + y (NaN) where either is NaN
            x, y = self.lowered(op.lhs), self.lowered(op.rhs)
            pick = self.emit(llvm.FCmpOp(x, y, "ogt" if t is arith.MaximumfOp else "olt"))
            best = self.emit(llvm.SelectOp(pick, x, y))
            nan = self.emit(llvm.FCmpOp(x, y, "uno"))
            m[op.result] = self.emit(llvm.SelectOp(nan, self.emit(llvm.FAddOp(x, y)), best))
        elif op.name in _F32_INTRINSICS:
            m[op.results[0]] = self.intrinsic(_F32_INTRINSICS[op.name], [self.lowered(x) for x in op.operands],
                                              [op.results[0].type]).results[0]
        elif op.name in FORMULAS:
            m[op.results[0]] = FORMULAS[op.name](_LLVMF32(self), self.lowered(op.operands[0]), *formula_args(op))
        elif t is arith.MinUIOp:
            lt = self.emit(llvm.ICmpOp(self.lowered(op.lhs), self.lowered(op.rhs), int_attr(_ICMP["ult"], 64)))
            m[op.result] = self.emit(llvm.SelectOp(lt, self.lowered(op.lhs), self.lowered(op.rhs)))
        elif t is arith.CmpiOp:
            pred = _ARITH_ICMP[op.predicate.value.data]
            m[op.result] = self.emit(llvm.ICmpOp(self.lowered(op.lhs), self.lowered(op.rhs), int_attr(_ICMP[pred], 64)))
        elif t is arith.CmpfOp:
            m[op.result] = self.emit(llvm.FCmpOp(self.lowered(op.lhs), self.lowered(op.rhs), op.predicate))
        elif t is arith.ExtFOp:
            m[op.result] = self.emit(llvm.FPExtOp(self.lowered(op.input), op.result.type))
        elif t is arith.ExtUIOp:
            m[op.result] = self.emit(llvm.ZExtOp(self.lowered(op.input), op.result.type))
        elif t is arith.SIToFPOp:
            m[op.result] = self.emit(llvm.SIToFPOp(self.lowered(op.input), op.result.type))
        elif t is arith.TruncFOp:
            m[op.result] = self.emit(llvm.FPTruncOp(self.lowered(op.input), op.result.type))
        elif t is arith.BitcastOp:  # f32 <-> i32 bits (stream-K's workspace partials)
            m[op.result] = self.emit(llvm.BitcastOp(self.lowered(op.input), op.result.type))
        elif t is arith.SelectOp:
            m[op.result] = self.emit(llvm.SelectOp(self.lowered(op.cond), self.lowered(op.lhs), self.lowered(op.rhs)))
        elif t is cf.BranchOp:
            br = llvm.BrOp(self.block_map[op.successor], *[self.lowered(x) for x in op.arguments])
            if UNROLL_FULL_ATTR in op.attributes:  # a rolled loop's back edge (_ForLowering)
                br.attributes[UNROLL_FULL_ATTR] = op.attributes[UNROLL_FULL_ATTR]
            self.emit(br)
        elif t is cf.ConditionalBranchOp:
            self.emit(llvm.CondBrOp(self.lowered(op.cond), self.block_map[op.then_block], [self.lowered(x) for x in op.then_arguments],
                                    self.block_map[op.else_block], [self.lowered(x) for x in op.else_arguments]))
        elif t is func.ReturnOp:
            self.emit(llvm.ReturnOp())
        elif t is lass_smem.SwizzleOp:
            bits, base, shift = op.params()
            m[op.result] = self.idx_value(swizzle(Idx(self.lowered(op.logical), self), bits, base, shift))
        elif t is lass_nv.ThreadIdOp:
            m[op.result] = self.intrinsic("llvm.nvvm.read.ptx.sreg.tid.x", [], [i32]).results[0]
        elif t is lass_nv.WarpBroadcastOp:  # shfl.sync.idx from lane 0, clamp 0x1f, full mask
            m[op.result] = self.intrinsic("llvm.nvvm.shfl.sync.idx.i32", [self.const(-1), self.lowered(op.value), self.const(0),
                                                                        self.const(WARP_SIZE - 1)], [i32]).results[0]
        elif t is lass_nv.BlockIdOp:
            m[op.result] = self.intrinsic(f"llvm.nvvm.read.ptx.sreg.ctaid.{op.axis}", [], [i32]).results[0]
        elif t is lass_nv.GridDimOp:
            m[op.result] = self.intrinsic("llvm.nvvm.read.ptx.sreg.nctaid.x", [], [i32]).results[0]
        elif t is lass_tb.BatchViewOp:
            # base + index * stride elements, in 64 bits (batch * M * K can pass 2^31)
            off = self.emit(llvm.MulOp(self.emit(llvm.SExtOp(self.lowered(op.index), i64)),
                                       self.emit(llvm.SExtOp(self.lowered(op.stride), i64))))
            et = op.source.type.get_element_type()
            view = self.emit(llvm.GEPOp(self.lowered(op.source), [llvm.GEP_USE_SSA_VAL], et, ssa_indices=[off],
                                        result_type=_ptr(GLOBAL_AS)))
            self.memref_elem[view] = et
            m[op.result] = view
        elif t is lass_nv.CpAsyncOp:
            w = op.bytes.value.data
            size = self.emit(llvm.SelectOp(self.lowered(op.pred), self.const(w), self.const(0)))
            self.intrinsic(cp_async_intrinsic(w),
                           [self.shared_ptr(self.lowered(op.dst)), self.global_ptr(self.lowered(op.source), self.lowered(op.offset)), size])
        elif t is lass_nv.LdGlobalBOp:
            w = op.bytes.value.data
            addr = self.emit(llvm.PtrToIntOp(self.global_ptr(self.lowered(op.source), self.lowered(op.offset)), i64))
            pred = self.emit(llvm.ZExtOp(self.lowered(op.pred), i32))
            n = len(op.values)
            if n == 1:
                m[op.values[0]] = self.emit(llvm.InlineAsmOp(ld_global_narrow_asm(w), "=r,l,r", [addr, pred], [i32],
                                                             has_side_effects=True))
            else:
                st = llvm.LLVMStructType.from_type_list([i32] * n)
                res = self.emit(llvm.InlineAsmOp(ld_global_narrow_asm(w), "=r,=r,l,r", [addr, pred], [st],
                                                 has_side_effects=True))
                for old, new in zip(op.values, self.struct_fields(res, [i32] * n)):
                    m[old] = new
        elif t is lass_nv.StSharedBOp:
            w = op.bytes.value.data
            ptr = self.shared_ptr(self.lowered(op.addr))
            vals = [self.lowered(x) for x in op.values]
            if w == 8:
                val = self.vector(vals, i32)
            elif w == 4:
                val = vals[0]
            else:  # the low 8 or 16 bits of the register
                val = self.emit(llvm.TruncOp(vals[0], IntegerType(8 * w)))
            self.emit(llvm.StoreOp(val, ptr, alignment=w))
        elif t is lass_nv.CpAsyncCommitOp:
            self.intrinsic("llvm.nvvm.cp.async.commit.group", [])
        elif t is lass_nv.CpAsyncWaitOp:
            self.intrinsic("llvm.nvvm.cp.async.wait.group", [self.const(op.pending.value.data)])
        elif t is lass_nv.BarSyncOp:
            self.intrinsic("llvm.nvvm.barrier0", [])
        elif t is lass_nv.LdmatrixX4Op:
            st = llvm.LLVMStructType.from_type_list([i32] * 4)
            name = "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3" if op.trans else \
                "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3"
            call = self.intrinsic(name, [self.shared_ptr(self.lowered(op.addr))], [st])
            for old, new in zip(op.results, self.struct_fields(call.results[0], [i32] * 4)):
                m[old] = new
        elif t is lass_nv.LdSharedOp:
            # ld.shared.b32 / .v2 / .v4: one aligned integer load of 32 n bits (NVPTX emits
            # ld.shared.b32 / .b64 / .v2.b64), word i = bits 32i.. (little endian: address order)
            n = len(op.values)
            wide = IntegerType(32 * n)
            word = self.emit(llvm.LoadOp(self.shared_ptr(self.lowered(op.addr)), wide, alignment=4 * n))
            for i, res in enumerate(op.values):
                part = word if i == 0 else self.emit(llvm.LShrOp(word, self.emit(
                    llvm.ConstantOp(int_attr(32 * i, wide), wide))))
                m[res] = part if n == 1 else self.emit(llvm.TruncOp(part, i32))
        elif t is lass_nv.PrmtOp:
            m[op.result] = self.intrinsic("llvm.nvvm.prmt", [self.lowered(op.a), self.lowered(op.b), self.lowered(op.sel)],
                                          [i32]).results[0]
        elif t is lass_nv.MmaSyncOp:
            ins = [self.lowered(x) for x in (op.a0, op.a1, op.a2, op.a3, op.b0, op.b1)]
            accs = [self.lowered(x) for x in (op.c0, op.c1, op.c2, op.c3)]
            acc_t, ab = op.acc_type, op.input_type
            if acc_t == f16:  # .f16 accumulators: two f16x2 registers, element 2r + h in half h of register r
                h2 = VectorType(f16, [2])
                regs = [self.half2(x) for x in ins]
                cs = []
                for r in range(2):
                    vec = self.emit(llvm.UndefOp(h2))
                    for h in range(2):
                        vec = self.emit(llvm.InsertElementOp(vec, accs[2 * r + h], self.const(h)))
                    cs.append(vec)
                st = llvm.LLVMStructType.from_type_list([h2] * 2)
                call = self.intrinsic("llvm.nvvm.mma.m16n8k16.row.col.f16.f16", regs + cs, [st])
                outs = []
                for d in self.struct_fields(call.results[0], [h2] * 2):
                    bits = self.emit(llvm.BitcastOp(d, i32))
                    for h in range(2):
                        part = bits if h == 0 else self.emit(llvm.LShrOp(bits, self.const(16)))
                        outs.append(self.emit(llvm.BitcastOp(self.emit(llvm.TruncOp(part, IntegerType(16))), f16)))
                for old, new in zip(op.results, outs):
                    m[old] = new
                return
            st = llvm.LLVMStructType.from_type_list([acc_t] * 4)
            if ab == "bf16":  # LLVM takes the packed bf16 pairs as i32
                call = self.intrinsic("llvm.nvvm.mma.m16n8k16.row.col.bf16", ins + accs, [st])
            elif ab == "tf32":  # one tf32 per i32 register
                call = self.intrinsic("llvm.nvvm.mma.m16n8k8.row.col.tf32", ins + accs, [st])
            elif ab == "s8":  # four s8 per i32 register; .satfinite (see lass_nv.mma_sync)
                call = self.intrinsic("llvm.nvvm.mma.m16n8k32.row.col.satfinite.s8", ins + accs, [st])
            else:  # f16 pairs as <2 x half>
                regs = [self.half2(x) for x in ins]
                call = self.intrinsic("llvm.nvvm.mma.m16n8k16.row.col.f32.f32", regs + accs, [st])
            for old, new in zip(op.results, self.struct_fields(call.results[0], [acc_t] * 4)):
                m[old] = new
        elif t is lass_nv.CvtRnaTf32Op:
            x = self.emit(llvm.BitcastOp(self.lowered(op.x), f32))
            m[op.result] = self.intrinsic("llvm.nvvm.f2tf32.rna", [x], [i32]).results[0]
        elif t is lass_nv.CvtRniS32Op:
            m[op.result] = self.intrinsic("llvm.nvvm.f2i.rn", [self.lowered(op.x)], [i32]).results[0]
        elif t is lass_nv.LdGlobalV4Op:
            ptr = self.global_ptr(self.lowered(op.source), self.lowered(op.offset))
            addr = self.emit(llvm.PtrToIntOp(ptr, i64))
            pred = self.emit(llvm.ZExtOp(self.lowered(op.pred), i32))
            st = llvm.LLVMStructType.from_type_list([i32] * 4)
            res = self.emit(llvm.InlineAsmOp(LD_GLOBAL_V4_ASM, "=r,=r,=r,=r,l,r", [addr, pred], [st],
                                             has_side_effects=True))
            for old, new in zip(op.results, self.struct_fields(res, [i32] * 4)):
                m[old] = new
        elif t is lass_nv.StSharedV4Op:
            vec = self.vector([self.lowered(x) for x in (op.v0, op.v1, op.v2, op.v3)], i32)
            self.emit(llvm.StoreOp(vec, self.shared_ptr(self.lowered(op.addr)), alignment=16))
        elif t is lass_nv.LdGlobalOp:
            # guarded load: one predicated ld.global (inline PTX), zeros where the predicate is 0
            et = op.source.type.get_element_type()
            n = len(op.values)
            ptr = self.global_ptr(self.lowered(op.source), self.lowered(op.offset))
            if _is_true(op.pred):
                vals = []
                for i in range(n):
                    p = ptr if i == 0 else self.emit(llvm.GEPOp(ptr, [i], et, result_type=_ptr(GLOBAL_AS)))
                    vals.append(self.emit(llvm.LoadOp(p, et, alignment=(et.bitwidth // 8) * (n if i == 0 else 1))))
            else:
                reg_t, cons = _reg_of(et)
                addr = self.emit(llvm.PtrToIntOp(ptr, i64))
                pred = self.emit(llvm.ZExtOp(self.lowered(op.pred), i32))
                res_t = reg_t if n == 1 else llvm.LLVMStructType.from_type_list([reg_t] * n)
                res = self.emit(llvm.InlineAsmOp(predicated_ld_global_asm(et.bitwidth, n),
                                                 ",".join([f"={cons}"] * n + ["l", "r"]), [addr, pred], [res_t],
                                                 has_side_effects=True))
                regs = [res] if n == 1 else self.struct_fields(res, [reg_t] * n)
                vals = [self.from_reg(r, et) for r in regs]
            for res, val in zip(op.values, vals):
                m[res] = val
        elif t is lass_nv.StGlobalOp:
            # guarded store: one predicated st.global (inline PTX), not a branch around a store: a
            # branch per store gave the epilogue ~1,500 basic blocks that LLVM's codegen (SLSR)
            # spent most of the compile on; ptxas predicates the stores either way
            et = op.dest.type.get_element_type()
            n = len(op.values)
            ptr = self.global_ptr(self.lowered(op.dest), self.lowered(op.offset))
            if _is_true(op.pred):
                for i, val in enumerate(op.values):
                    p = ptr if i == 0 else self.emit(llvm.GEPOp(ptr, [i], et, result_type=_ptr(GLOBAL_AS)))
                    self.emit(llvm.StoreOp(self.lowered(val), p, alignment=(et.bitwidth // 8) * (n if i == 0 else 1)))
            else:
                _, cons = _reg_of(et)
                addr = self.emit(llvm.PtrToIntOp(ptr, i64))
                pred = self.emit(llvm.ZExtOp(self.lowered(op.pred), i32))
                regs = [self.to_reg(self.lowered(v), et) for v in op.values]
                self.emit(llvm.InlineAsmOp(predicated_st_global_asm(et.bitwidth, n), ",".join(["l", "r"] + [cons] * n),
                                           [addr, pred, *regs], [], has_side_effects=True))
        elif t is lass_nv.StSharedOp:
            et = op.values[0].type
            vec = self.vector([self.lowered(x) for x in op.values], et)
            self.emit(llvm.StoreOp(vec, self.shared_ptr(self.lowered(op.addr)), alignment=len(op.values) * et.bitwidth // 8))
        elif t is lass_nv.StGlobalV4Op:
            def store_v4() -> None:
                vec = self.vector([self.lowered(x) for x in (op.r0, op.r1, op.r2, op.r3)], i32)
                self.emit(llvm.StoreOp(vec, self.global_ptr(self.lowered(op.dest), self.lowered(op.offset)), alignment=16))
            self.guarded(self.lowered(op.pred), store_v4)
        elif t is lass_nv.SpinAcquireOp:
            # loop: ld.acquire.gpu until the word equals value (the "memory" clobber keeps LLVM
            # from moving other memory accesses across it)
            ptr = self.emit(llvm.PtrToIntOp(self.global_ptr(self.lowered(op.sem), self.lowered(op.offset)), i64))
            want = self.lowered(op.value)
            spin = self.new_block()
            self.emit(llvm.BrOp(spin))
            self.cur = spin
            got = self.emit(llvm.InlineAsmOp(LD_ACQUIRE_ASM, "=r,l,~{memory}", [ptr], [i32], has_side_effects=True))
            again = self.emit(llvm.ICmpOp(got, want, int_attr(_ICMP["ne"], 64)))
            done = self.new_block()
            self.emit(llvm.CondBrOp(again, spin, [], done, []))
            self.cur = done
        elif t is lass_nv.StReleaseOp:
            ptr = self.emit(llvm.PtrToIntOp(self.global_ptr(self.lowered(op.sem), self.lowered(op.offset)), i64))
            self.emit(llvm.InlineAsmOp(ST_RELEASE_ASM, "l,r,~{memory}", [ptr, self.lowered(op.value)], [],
                                       has_side_effects=True))
        elif t is lass_nv.AlignedOp:
            addr = self.emit(llvm.PtrToIntOp(self.lowered(op.source), i64))
            low = self.emit(llvm.AndOp(addr, self.const(op.bytes.value.data - 1, i64)))
            m[op.result] = self.emit(llvm.ICmpOp(low, self.const(0, i64), int_attr(_ICMP["eq"], 64)))
        elif lower_sm90(self, op):
            pass
        else:
            raise PassFailedException(
                f"{op_location(op)}: error: '{op.name}' has no lowering; expected the ops lasscc-swizzle-smem leaves "
                f"(the arith ops lasscc emits, scf.for/scf.if, lass_nv, lass_smem; run the earlier passes first)"
            )


class _ForLowering(ForLowering):
    """xDSL's scf.for lowering; a loop marked UNROLL_FULL_ATTR (passes/_rolled.py) passes the mark
    to its back-edge branch, which lasscc.emit turns into `llvm.loop.unroll.full` metadata."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, for_op: scf.ForOp, rewriter: PatternRewriter) -> None:
        mark = for_op.attributes.get(UNROLL_FULL_ATTR)
        head = for_op.body.first_block  # becomes the condition block, the back edge's target
        super().match_and_rewrite(for_op, rewriter)
        if mark is not None:
            for use in head.uses:  # the entry branch (lb) and the back edge (iv + step)
                step = use.operation.operands[0].owner
                if isinstance(step, arith.AddiOp) and step.lhs is head.args[0]:
                    use.operation.attributes[UNROLL_FULL_ATTR] = mark


def _scf_to_cf(fn: func.FuncOp) -> None:
    """The kernel's scf.for / scf.if as blocks and cf branches (xDSL's convert-scf-to-cf patterns)."""
    for op in fn.walk():
        if isinstance(op, scf.ForOp) and not isinstance(op.lb.type, IntegerType):
            raise PassFailedException(f"{op_location(op)}: error: expected an integer loop variable, got {op.lb.type}")
        if isinstance(op, scf.ForOp) and UNROLL_FULL_ATTR in op.attributes and not all(
                isinstance(v.owner, arith.ConstantOp) for v in (op.lb, op.ub, op.step)):
            # LLVM unrolls a loop fully only with a trip count it knows: a rolled loop must keep its promise
            raise PassFailedException(f"{op_location(op)}: error: expected constant bounds and step on an scf.for "
                                      f"marked {UNROLL_FULL_ATTR} (LLVM unrolls it fully)")
    # dce off: an op the lowering rejects is reported even where it is dead (the driver's DCE runs after)
    # each op once, outermost first (the order xDSL's greedy walker takes them in), by the patterns
    # themselves: the walker's worklist upkeep for the loops' ~260 carried values and its second sweep
    # over the whole kernel cost more than the rewrites (~0.02 s of a gemm.mlir compile)
    patterns = {scf.IfOp: IfLowering(), scf.ForOp: _ForLowering()}
    for op in [o for o in fn.walk() if type(o) in patterns]:
        patterns[type(op)].match_and_rewrite(op, PatternRewriter(op))


@dataclass(frozen=True)
class LowerToLLVMPass(ModulePass):
    name = "lasscc-lower-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kernels = [f for f in op.ops if isinstance(f, func.FuncOp) and (is_kernel(f) or SM90_KERNEL_ATTR in f.attributes)]
        if not kernels:
            return
        if not any(isinstance(o, llvm.GlobalOp) and o.sym_name.data == SMEM_SYMBOL for o in op.ops):
            sm90 = any(type(o) in SM90_TILE_OPS for f in kernels for o in f.walk())
            op.body.block.insert_op_before(
                llvm.GlobalOp(llvm.LLVMArrayType(0, IntegerType(8)), SMEM_SYMBOL, "external",
                              addr_space=SHARED_AS, alignment=SM90_SMEM_ALIGN if sm90 else 128),
                op.body.block.first_op,
            )
        for fn in kernels:
            lower_roles(fn)  # lass_wg.warp_specialize -> scf.if on the role
            _scf_to_cf(fn)
            new = _Lowerer(fn, op).run()
            op.body.block.insert_op_before(new, fn)
            fn.detach()
            fn.erase(safe_erase=False)
