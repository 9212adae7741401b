"""LLVM IR and PTX from the `llvm`-dialect module: its LLVM IR text written op by op (to_llvm_ir),
then llvmlite's NVPTX target machine.  `ptxas_info` assembles PTX with ptxas (when on PATH) and reads registers, shared
memory and spills from `ptxas -v`."""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (BFloat16Type, Float16Type, Float32Type, Float64Type, FloatAttr, IntAttr,
                                   IntegerAttr, IntegerType, ModuleOp, NoneType, StringAttr, VectorType)

from lasscc import timing
from lasscc.diagnostics import LassError
from lasscc.dialects.lass import KERNEL_ATTR
from lasscc.passes._rolled import UNROLL_FULL_ATTR
from lasscc.passes.lower_to_llvm import CLUSTER_DIM_ATTR, MAXNTID_ATTR, SM90_KERNEL_ATTR, SM90_SMEM_ALIGN

NVPTX_TRIPLE = "nvptx64-nvidia-cuda"
NVPTX_DATALAYOUT = "e-p3:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
# PTX ISA version per target: sm_80 needs PTX >= 7.0; sm_90a (wgmma, setmaxnreg) needs >= 8.0.
ARCH_FEATURES = {"sm_80": "+ptx80", "sm_90a": "+ptx80"}
# LLVM passes (names as `-opt-disable` takes them) left out of the IR pipeline (_optimize) and the NVPTX
# codegen: their cost against what they change in the PTX is in to_ptx
CODEGEN_PASSES_SKIPPED = ("slsr", "nary-reassociate", "correlated-propagation", "sccp", "bdce")
# The NVPTX codegen's optimization level (llvmlite's `opt`; the IR pipeline is chosen apart, by
# IR_SPEED_LEVEL).  At 3 (LLVM's CodeGenOptLevel::Aggressive) the codegen's IR passes run GVN twice
# where level 2 runs EarlyCSE: ~0.01 s of the emit and the same PTX on every example (to_ptx)
CODEGEN_OPT_LEVEL = 2
# The speed level of _optimize's pipeline (LLVM's function simplification pipeline at O2 or O3).  The
# two give byte-identical PTX on all 50 example kernels (O3 adds only non-trivial loop unswitching and
# call-site work, which these single-function, call-free kernels do not use); see _optimize
IR_SPEED_LEVEL = 3
# The partial-unroll threshold of _optimize's late LoopUnroll: O3's, which the NVPTX target sets to a
# quarter of the unroll threshold (NVPTXTTIImpl::getUnrollingPreferences: UnrollThresholdAggressive
# 300 / 4 at O3; llvmlite's LoopUnrollPass runs at O2's 150 / 4 = 37, which unrolls nothing in the
# examples).  It unrolls gemm_odd_k's per-k-tile 16-bit copy loops (32 trips of ~25 instructions) by 2,
# as O3 did (BENCHMARKS.md "Session 15 -- gemm_odd_k and the function pipeline")
LATE_UNROLL_PARTIAL_THRESHOLD = 75


# A literal struct of at least this many fields of one scalar type is written once, as a named type:
# the wgmma accumulators' {float x 128} (the results of lower_sm90's inline asm) is otherwise spelled
# out in each of its ~512 extractvalues, ~470 KB of the ~580 KB IR of a 128x256 kernel, which
# LLVM would parse again (BENCHMARKS.md "Session 13: compile time")
NAMED_STRUCT_MIN_FIELDS = 16

# The op -> LLVM instruction tables of to_llvm_ir: each llvm-dialect op kind is written in one place.
_BINARY = {
    llvm.AddOp: "add", llvm.SubOp: "sub", llvm.MulOp: "mul", llvm.UDivOp: "udiv", llvm.SDivOp: "sdiv",
    llvm.URemOp: "urem", llvm.SRemOp: "srem", llvm.ShlOp: "shl", llvm.LShrOp: "lshr", llvm.AShrOp: "ashr",
    llvm.AndOp: "and", llvm.OrOp: "or", llvm.XOrOp: "xor",
    llvm.FAddOp: "fadd", llvm.FSubOp: "fsub", llvm.FMulOp: "fmul", llvm.FDivOp: "fdiv", llvm.FRemOp: "frem",
}
_CASTS = {
    llvm.TruncOp: "trunc", llvm.ZExtOp: "zext", llvm.SExtOp: "sext", llvm.PtrToIntOp: "ptrtoint",
    llvm.IntToPtrOp: "inttoptr", llvm.BitcastOp: "bitcast", llvm.FPExtOp: "fpext", llvm.FPTruncOp: "fptrunc",
    llvm.SIToFPOp: "sitofp",
}
_OVERFLOW_FLAGS = {0: "", 1: " nsw", 2: " nuw", 3: " nsw nuw"}  # llvm.OverflowAttr's bits
_FCMP = {"_false": "false", "_true": "true"}  # the rest: xDSL's names are LLVM's


class _IRText:
    """One llvm-dialect module written as LLVM IR text (to_llvm_ir).  Values are `%vN`, function
    arguments `%aN`, blocks `bN`; constants, `undef` and global addresses are written where they are
    used, as xDSL's llvmlite backend (which this replaced) did, so LLVM parses the same module."""

    def __init__(self, module: ModuleOp) -> None:
        self.module = module
        self.types: dict[int, str] = {}  # id(type attribute) -> its LLVM spelling (the module keeps them alive)
        self.named: dict[str, str] = {}  # the named struct types used: name -> body
        self.refs: dict = {}  # SSAValue -> its reference (`%v3`, `42`, `@"g"`)
        self.declares: dict[str, str] = {}  # intrinsic -> its declaration, in first-use order
        self.typed_ptrs: set = set()  # pointers derived from a global's address (_w_store)
        self.loop_md = False  # !llvm.loop unroll.full used
        self.n = 0

    # -- types ---------------------------------------------------------------------------------
    def ty(self, t) -> str:
        s = self.types.get(id(t))
        if s is None:
            s = self.types[id(t)] = self._type_text(t)
        return s

    def _type_text(self, t) -> str:
        if isinstance(t, IntegerType):
            return f"i{t.width.data}"
        if isinstance(t, llvm.LLVMPointerType):
            space = t.addr_space.data if isinstance(t.addr_space, IntAttr) else 0
            return f"ptr addrspace({space})" if space else "ptr"
        simple = _SIMPLE_TYPES.get(type(t))
        if simple is not None:
            return simple
        if isinstance(t, VectorType):
            if t.get_num_scalable_dims() or t.get_num_dims() != 1:
                raise LassError(f"error: cannot translate to LLVM IR: vector type {t} (one fixed dimension only)")
            return f"<{t.get_shape()[0]} x {self.ty(t.element_type)}>"
        if isinstance(t, llvm.LLVMArrayType):
            return f"[{t.size.data} x {self.ty(t.type)}]"
        if isinstance(t, llvm.LLVMStructType):
            elems = [self.ty(e) for e in t.types.data]
            body = "{" + ", ".join(elems) + "}"
            if (len(elems) >= NAMED_STRUCT_MIN_FIELDS and len(set(elems)) == 1
                    and isinstance(t.types.data[0], (IntegerType, *_FLOAT_TYPES))):
                name = f"{elems[0]}x{len(elems)}"
                self.named[name] = body
                return f'%"{name}"'
            return body
        raise LassError(f"error: cannot translate to LLVM IR: type {t} (run lasscc-lower-to-llvm first)")

    # -- values ----------------------------------------------------------------------------------
    def arg(self, v) -> str:
        """`T ref` of an operand."""
        return f"{self.ty(v.type)} {self.refs[v]}"

    def new(self, result) -> str:
        self.n += 1
        ref = self.refs[result] = f"%v{self.n}"
        return ref

    def constant(self, op) -> str:
        value, t = op.value, op.result.type
        if isinstance(value, IntegerAttr):
            return str(value.value.data)
        if isinstance(value, FloatAttr):
            return _float_text(t, value.value.data)
        raise LassError(f"error: cannot translate to LLVM IR: constant {value} (integer and float scalars only)")

    # -- the module ------------------------------------------------------------------------------
    def text(self) -> str:
        triple = self.module.attributes.get("llvm.target_triple")
        triple = triple.data if isinstance(triple, StringAttr) else NVPTX_TRIPLE
        globals_, funcs = [], []
        for op in self.module.ops:
            if isinstance(op, llvm.GlobalOp):
                globals_.append(self.global_text(op))
            elif isinstance(op, llvm.FuncOp):
                funcs.append(op)
            else:
                raise LassError(f"error: cannot translate to LLVM IR: {op.name} at module level "
                                "(run lasscc-lower-to-llvm first)")
        body = [self.function_text(f) for f in funcs]
        out = [f'target triple = "{triple}"\n', f'target datalayout = "{NVPTX_DATALAYOUT}"\n']
        out += [f'%"{name}" = type {b}\n' for name, b in self.named.items()]
        out += ["\n", *globals_, *body, *self.declares.values()]
        if self.loop_md:  # a loop ID names itself first (LLVM's LoopInfo checks that)
            out.append('!0 = !{!"llvm.loop.unroll.full"}\n!1 = !{!1, !0}\n')
        return "".join(out)

    def global_text(self, op: llvm.GlobalOp) -> str:
        if op.value is not None:
            raise LassError(f"error: cannot translate to LLVM IR: global @{op.sym_name.data} with an initializer")
        space = op.addr_space.value.data
        # xDSL's backend dropped a global's alignment.  The Ampere kernels have always been emitted with
        # `.align 1` (they need 16 bytes, which the dynamic shared memory's base has): only the sm_90a
        # alignment (lower_to_llvm.SM90_SMEM_ALIGN) is written, so their PTX stays as it was
        align = op.alignment.value.data if op.alignment is not None else 0
        return (f'@"{op.sym_name.data}" = {op.linkage.linkage.data}{f" addrspace({space})" if space else ""} '
                f'{"constant" if op.constant is not None else "global"} {self.ty(op.global_type)}'
                f'{f", align {align}" if align >= SM90_SMEM_ALIGN else ""}\n')

    def function_text(self, f: llvm.FuncOp) -> str:
        ftype = f.function_type
        ret = self.ty(ftype.output)
        arg_attrs = f.arg_attrs.data if f.arg_attrs is not None else [None] * len(ftype.inputs.data)
        params = []
        blocks = list(f.body.blocks)
        args = blocks[0].args if blocks else ()
        for i, (t, attrs) in enumerate(zip(ftype.inputs.data, arg_attrs, strict=True)):
            name = f"%a{i}"
            if i < len(args):
                self.refs[args[i]] = name
            params.append(f"{self.ty(t)}{_param_attributes(self, attrs)} {name}")
        kernel = KERNEL_ATTR in f.attributes or SM90_KERNEL_ATTR in f.attributes
        fn_attrs = "".join(f' "{key}"="{",".join(str(int(x)) for x in f.attributes[key].get_values())}"'
                           for key in (MAXNTID_ATTR, CLUSTER_DIM_ATTR) if key in f.attributes)
        head = (f'{"define" if blocks else "declare"} {"ptx_kernel " if kernel else ""}{ret} '
                f'@"{f.sym_name.data}"({", ".join(params)}){fn_attrs}')
        if not blocks:
            return head + "\n"
        labels = {b: f"b{i}" for i, b in enumerate(blocks)}
        # block arguments are phis; their incoming values in the order of the branches to them
        incoming: dict = {}
        for b in blocks[1:]:
            for a in b.args:
                self.new(a)
                incoming[a] = []
        for b in blocks:
            term = b.last_op
            if isinstance(term, llvm.BrOp):
                edges = [(term.successor, term.arguments)]
            elif isinstance(term, llvm.CondBrOp):
                edges = [(term.then_block, term.then_arguments), (term.else_block, term.else_arguments)]
            else:
                continue
            for dest, vals in edges:
                if dest is blocks[0]:
                    raise LassError(f"error: cannot translate to LLVM IR: @{f.sym_name.data} branches to its entry block")
                for a, v in zip(dest.args, vals):
                    incoming[a].append((v, labels[b]))
        lines = [head, "\n{\n"]
        phis = []  # (index in lines, block): written last, when every incoming value has its name
        for b in blocks:
            lines.append(f"{labels[b]}:\n")
            if b.args and b is not blocks[0]:
                phis.append((len(lines), b))
                lines.append("")
            for op in b.ops:
                write = _WRITERS.get(type(op))
                if write is None:
                    raise LassError(f"error: cannot translate to LLVM IR: {op.name} (run lasscc-lower-to-llvm first)")
                line = write(self, op, labels)
                if line:
                    lines.append(line)
        lines.append("}\n")
        refs = self.refs
        for at, b in phis:
            lines[at] = "".join(f"  {refs[a]} = phi {self.ty(a.type)} "
                                + ", ".join(f"[{refs[v]}, %{lbl}]" for v, lbl in incoming[a]) + "\n" for a in b.args)
        return "".join(lines)

    def call(self, name: str, op) -> str:
        """A call of intrinsic `name` (declared at its first call with this call's types)."""
        args = ", ".join(self.arg(v) for v in op.operands)
        ret = self.ty(op.results[0].type) if op.results else "void"
        if name not in self.declares:
            self.declares[name] = f'declare {ret} @"{name}"({", ".join(self.ty(v.type) for v in op.operands)})\n'
        call = f'call {ret} @"{name}"({args})\n'
        return f"  {self.new(op.results[0])} = {call}" if op.results else f"  {call}"


_FLOAT_TYPES = (Float16Type, Float32Type, Float64Type, BFloat16Type)
_SIMPLE_TYPES = {Float16Type: "half", Float32Type: "float", Float64Type: "double", BFloat16Type: "bfloat",
                 llvm.LLVMVoidType: "void", NoneType: "void"}


def _float_text(t, value: float) -> str:
    """A float constant in LLVM's hexadecimal forms: a double's bits for half / float / double (the
    value rounded to the type first, as LLVM requires), `0xR` and 16 bits for bfloat."""
    if isinstance(t, BFloat16Type):
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16  # round to nearest even
        return f"0xR{bits & 0xFFFF:04X}"
    if isinstance(t, Float32Type):
        value = struct.unpack("<f", struct.pack("<f", value))[0]
    elif isinstance(t, Float16Type):
        value = struct.unpack("<e", struct.pack("<e", value))[0]
    return f"0x{struct.unpack('<Q', struct.pack('<d', value))[0]:016X}"


def _param_attributes(w: _IRText, attrs) -> str:
    """A parameter's attributes: `byval(T)`, `align N`, `noalias` ... and `"nvvm.grid_constant"`
    (lower_sm90's tensor-map parameters)."""
    if attrs is None or not attrs.data:
        return ""
    out = []
    for key, value in attrs.data.items():
        if key in _PARAM_FLAGS:
            out.append(_PARAM_FLAGS[key])
        elif key in _PARAM_TYPED:
            out.append(f"{_PARAM_TYPED[key]}({w.ty(value)})")
        elif key in _PARAM_INTS:
            out.append(f"{_PARAM_INTS[key]} {value.value.data}")
        elif key == "nvvm.grid_constant":
            out.append('"nvvm.grid_constant"')
    return "".join(" " + a for a in out)


_PARAM_FLAGS = {"llvm.noalias": "noalias", "llvm.nocapture": "captures(none)", "llvm.nonnull": "nonnull",
                "llvm.noundef": "noundef", "llvm.readonly": "readonly", "llvm.writeonly": "writeonly"}
_PARAM_TYPED = {"llvm.byval": "byval", "llvm.byref": "byref"}
_PARAM_INTS = {"llvm.align": "align", "llvm.dereferenceable": "dereferenceable"}


# -- one writer per op kind (the table _WRITERS): the instruction line, or "" for a value written
#    where it is used (constants, undef, a global's address)

def _w_binary(w: _IRText, op, _) -> str:
    lhs, rhs = op.operands
    flags = ""
    p = op.properties
    if "overflowFlags" in p:
        flags = _OVERFLOW_FLAGS[p["overflowFlags"].value.data]
    elif "fastmathFlags" in p:
        flags = "".join(" " + f for f in sorted(f.value for f in p["fastmathFlags"].data))
    elif "isExact" in p:
        flags = " exact"
    elif "isDisjoint" in p:
        flags = " disjoint"
    return f"  {w.new(op.results[0])} = {_BINARY[type(op)]}{flags} {w.arg(lhs)}, {w.refs[rhs]}\n"


def _w_cast(w: _IRText, op, _) -> str:
    flags = ""
    p = op.properties
    if "overflowFlags" in p:
        flags = "".join(" " + f for f in sorted(f.value for f in p["overflowFlags"].data))
    elif "nonNeg" in p:
        flags = " nneg"
    (x,), (r,) = op.operands, op.results
    return f"  {w.new(r)} = {_CASTS[type(op)]}{flags} {w.arg(x)} to {w.ty(r.type)}\n"


def _w_icmp(w: _IRText, op, _) -> str:
    pred = llvm.ICmpPredicateFlag.from_int(op.predicate.value.data).value
    lhs, rhs = op.operands
    return f"  {w.new(op.results[0])} = icmp {pred} {w.arg(lhs)}, {w.refs[rhs]}\n"


def _w_fcmp(w: _IRText, op, _) -> str:
    pred = llvm.FCmpPredicateFlag.from_int(op.predicate.value.data).value
    lhs, rhs = op.operands  # (xDSL's backend wrote no fast-math flags on fcmp: neither does this)
    return f"  {w.new(op.results[0])} = fcmp {_FCMP.get(pred, pred)} {w.arg(lhs)}, {w.refs[rhs]}\n"


def _w_fneg(w: _IRText, op, _) -> str:
    flags = "".join(" " + f for f in sorted(f.value for f in op.fastmathFlags.data))
    return f"  {w.new(op.results[0])} = fneg{flags} {w.arg(op.operands[0])}\n"


def _w_select(w: _IRText, op, _) -> str:
    c, a, b = op.operands
    if a in w.typed_ptrs:  # (llvmlite typed a select by its first value)
        w.typed_ptrs.add(op.results[0])
    return f"  {w.new(op.results[0])} = select {w.arg(c)}, {w.arg(a)}, {w.arg(b)}\n"


def _w_extractvalue(w: _IRText, op, _) -> str:
    pos = ", ".join(map(str, op.position.iter_values()))
    return f"  {w.new(op.results[0])} = extractvalue {w.arg(op.operands[0])}, {pos}\n"


def _w_insertvalue(w: _IRText, op, _) -> str:
    pos = ", ".join(map(str, op.position.iter_values()))
    agg, val = op.operands
    return f"  {w.new(op.results[0])} = insertvalue {w.arg(agg)}, {w.arg(val)}, {pos}\n"


def _w_insertelement(w: _IRText, op, _) -> str:
    vec, val, idx = op.vector, op.value, op.index
    return f"  {w.new(op.results[0])} = insertelement {w.arg(vec)}, {w.arg(val)}, {w.arg(idx)}\n"


def _w_gep(w: _IRText, op, _) -> str:
    """The base pointer as it is (xDSL 0.74's backend bitcast it to address space 0 first, which LLVM
    rejects for shared and global pointers); constant indices are i32."""
    ssa = iter(op.operands[1:])
    idx = ", ".join(w.arg(next(ssa)) if i == llvm.GEP_USE_SSA_VAL else f"i32 {i}"
                    for i in op.rawConstantIndices.iter_values())
    inb = " inbounds" if op.inbounds is not None else ""
    if op.operands[0] in w.typed_ptrs:
        w.typed_ptrs.add(op.results[0])
    return (f"  {w.new(op.results[0])} = getelementptr{inb} {w.ty(op.elem_type)}, "
            f"{w.arg(op.operands[0])}, {idx}\n")


def _w_load(w: _IRText, op, _) -> str:
    (r,) = op.results
    align = f", align {op.alignment.value.data}" if op.alignment else ""
    return f"  {w.new(r)} = load {w.ty(r.type)}, {w.arg(op.operands[0])}{align}\n"


def _w_store(w: _IRText, op, _) -> str:
    """A pointer derived from a global's address (through GEPs or a select) goes through a no-op
    `bitcast` first, as xDSL's llvmlite backend wrote it (llvmlite typed such a pointer by the global
    and re-typed it to the stored value's); the instruction is kept so that LLVM gets the same module."""
    value, ptr = op.operands
    pty, ref = w.ty(ptr.type), w.refs[ptr]
    out = ""
    if ptr in w.typed_ptrs:
        w.n += 1
        out = f"  %v{w.n} = bitcast {pty} {ref} to {pty}\n"
        ref = f"%v{w.n}"
    align = f", align {op.alignment.value.data}" if op.alignment else ""
    vol = " volatile" if op.volatile_ is not None else ""
    return f"{out}  store{vol} {w.arg(value)}, {pty} {ref}{align}\n"


def _w_call_intrinsic(w: _IRText, op, _) -> str:
    if op.op_bundle_operands or op.op_bundle_sizes.get_values():
        raise LassError(f"error: cannot translate to LLVM IR: {op.intrin.data} with operand bundles")
    if op.fastmathFlags.data:
        raise LassError(f"error: cannot translate to LLVM IR: {op.intrin.data} with fast-math flags")
    return w.call(op.intrin.data, op)


def _w_inline_asm(w: _IRText, op, _) -> str:
    """`call T asm [sideeffect] "...", "constraints"(args)`; the strings as they are (LLVM's inline
    asm syntax: lower_sm90 and lower_to_llvm write neither `"` nor `\\` into them)."""
    ret = w.ty(op.results[0].type) if op.results else "void"
    side = "sideeffect " if op.has_side_effects is not None else ""
    call = (f'call {ret} asm {side}"{op.asm_string.data}", "{op.constraints.data}"'
            f'({", ".join(w.arg(v) for v in op.operands)})\n')
    return f"  {w.new(op.results[0])} = {call}" if op.results else f"  {call}"


def _w_br(w: _IRText, op, labels) -> str:
    md = ""
    if UNROLL_FULL_ATTR in op.attributes:
        # `!llvm.loop !{self, !{!"llvm.loop.unroll.full"}}` on each back edge lasscc-lower-to-llvm
        # marked (passes/_rolled.py's rolled loops: LLVM's LoopFullUnroll then unrolls them completely)
        w.loop_md = True
        md = ", !llvm.loop !1"
    return f"  br label %{labels[op.successor]}{md}\n"


def _w_cond_br(w: _IRText, op, labels) -> str:
    return f"  br {w.arg(op.cond)}, label %{labels[op.then_block]}, label %{labels[op.else_block]}\n"


def _w_return(w: _IRText, op, _) -> str:
    return f"  ret {w.arg(op.operands[0])}\n" if op.operands else "  ret void\n"


def _w_unreachable(w: _IRText, op, _) -> str:
    return "  unreachable\n"


def _w_constant(w: _IRText, op, _) -> str:
    w.refs[op.results[0]] = w.constant(op)
    return ""


def _w_undef(w: _IRText, op, _) -> str:
    w.refs[op.results[0]] = "undef"
    return ""


def _w_zero(w: _IRText, op, _) -> str:
    w.refs[op.results[0]] = "zeroinitializer"
    return ""


def _w_addressof(w: _IRText, op, _) -> str:
    w.refs[op.results[0]] = f'@"{op.global_name.root_reference.data}"'
    w.typed_ptrs.add(op.results[0])
    return ""


_WRITERS = {
    **{k: _w_binary for k in _BINARY}, **{k: _w_cast for k in _CASTS},
    llvm.ICmpOp: _w_icmp, llvm.FCmpOp: _w_fcmp, llvm.FNegOp: _w_fneg, llvm.SelectOp: _w_select,
    llvm.ExtractValueOp: _w_extractvalue, llvm.InsertValueOp: _w_insertvalue,
    llvm.InsertElementOp: _w_insertelement, llvm.GEPOp: _w_gep, llvm.LoadOp: _w_load, llvm.StoreOp: _w_store,
    llvm.CallIntrinsicOp: _w_call_intrinsic, llvm.InlineAsmOp: _w_inline_asm,
    llvm.BrOp: _w_br, llvm.CondBrOp: _w_cond_br, llvm.ReturnOp: _w_return, llvm.UnreachableOp: _w_unreachable,
    llvm.ConstantOp: _w_constant, llvm.UndefOp: _w_undef, llvm.ZeroOp: _w_zero, llvm.AddressOfOp: _w_addressof,
}


def to_llvm_ir(module: ModuleOp) -> str:
    """LLVM IR text of a module lowered by lasscc-lower-to-llvm, written in one walk of its ops
    (`_WRITERS`: one line template per llvm-dialect op kind); kernels get `ptx_kernel` and their
    `nvvm.maxntid` / `nvvm.cluster_dim` function attributes, tensor-map parameters
    `"nvvm.grid_constant"`, marked back edges `!llvm.loop` unroll.full.  An op or type it cannot
    write is a LassError."""
    with timing.phase("write LLVM IR"):
        return _IRText(module).text()


def to_ptx(llvm_ir: str, arch: str = "sm_80") -> str:
    from lasscc.llvm_binding import binding

    llvm_b = binding()

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
    # (BENCHMARKS.md "Session 11: compile time").  Three of the IR pipeline's cleanups, correlated value
    # propagation (~0.007 s), SCCP and bit-tracking DCE (~0.002 s each), changed no example's PTX under
    # O3 (nor that of 40 fuzz kernels; BENCHMARKS.md "Session 14 -- LLVM side (compile16d)", which
    # also skipped O3's late InstSimplify: the function simplification pipeline of _optimize has none);
    # under _optimize's pipeline running them changes the SASS of two examples, one each way
    # (BENCHMARKS.md "Session 15 -- LLVM pipeline"): still skipped.
    llvm_b.set_option("", f"-opt-disable={','.join(CODEGEN_PASSES_SKIPPED)}")
    try:
        with timing.phase("LLVM parse"):
            mod = llvm_b.parse_assembly(llvm_ir)
        with timing.phase("LLVM verify"):
            mod.verify()
    except RuntimeError as e:  # llvmlite's form of LLVM's parse and verifier errors
        raise LassError(f"error: LLVM rejected the LLVM IR (the line:col are in `--emit llvm`'s text): "
                        f"{str(e).strip()}") from None
    target = llvm_b.Target.from_triple(NVPTX_TRIPLE)
    tm = target.create_target_machine(cpu=arch, features=ARCH_FEATURES[arch], opt=CODEGEN_OPT_LEVEL)
    with timing.phase("LLVM optimize (function simplification)"):
        _optimize(mod, tm)
    with timing.phase("NVPTX emit"):
        return tm.emit_assembly(mod)


def _optimize(mod, tm) -> None:
    """LLVM's function simplification pipeline (llvmlite's `getFunctionPassManager`: what O3's module
    pipeline runs on each function inside its inliner, with SROA, EarlyCSE, InstCombine, the loop passes
    -- LICM hoists the per-thread address arithmetic out of the K loop, LoopFullUnroll unrolls the rolled
    loops of passes/_rolled.py -- GVN, DSE and ADCE) on each defined function, then O3's late partial
    LoopUnroll (at LATE_UNROLL_PARTIAL_THRESHOLD), not O3's whole module pipeline, on the module with its
    function-local value names dropped first.

    What the module pipeline adds is not needed by these modules, one kernel (a split-K module: two)
    without calls: the inliner and the interprocedural passes (IPSCCP, GlobalOpt, function attributes)
    find nothing to do, and its late optimization pipeline (loop rotation and vectorization, late
    partial unrolling, LICM, DivRemPairs, InstCombine x 3 over the fully unrolled code: InstCombine was
    ~60 % of O3 on the Hopper kernels) changes the SASS size or registers of 15 of the 50 example
    kernels, by -3.8 % to +1.7 % (BENCHMARKS.md "Session 15 -- LLVM pipeline", which has the table and
    the GPU check); the IR pipeline takes ~40 % less time.  Of the late pipeline only the partial
    unroll is run: without it gemm_odd_k's per-k-tile 16-bit copy loops stay rolled (O3 unrolls them
    by 2), and the kernel ran 3-4 % slower on the GPU (with it 1.2-1.7 % against O3, BENCHMARKS.md
    "Session 15: main after the merges"); it costs ~0.0016 s a kernel (BENCHMARKS.md
    "Session 15 -- gemm_odd_k and the function pipeline").  (llvmlite has no textual pipeline; its
    module pass manager's `add_*` passes -- function attributes, IPSCCP + GlobalOpt, InstCombine --
    run after this pipeline change no example's PTX; its LoopUnroll runs at O2's partial threshold,
    37, hence the option.)

    The names (llvmlite's `%".123"`) mean nothing to the NVPTX backend, which numbers its own
    registers and labels, but LLVM keeps them unique through a string map as it clones and renames
    instructions: the full unrolling of the rolled loops (passes/_rolled.py) clones ~4,000 named
    phis and instructions on gemm.mlir, and O3 took ~15 % longer with the names (BENCHMARKS.md
    "Session 13: compile time").  StripNonDebugSymbols renames only values and globals of local
    linkage; the kernels and `lass_smem` are external, so the PTX is byte-identical."""
    from lasscc.llvm_binding import binding

    llvm_b = binding()

    pto = llvm_b.create_pipeline_tuning_options(speed_level=IR_SPEED_LEVEL)
    pb = llvm_b.create_pass_builder(tm, pto)
    strip = llvm_b.create_new_module_pass_manager()
    strip.add_strip_non_debug_symbols_pass()
    strip.run(mod, pb)
    fpm = pb.getFunctionPassManager()
    for f in mod.functions:
        if not f.is_declaration:
            fpm.run(f, pb)
    # O3's late partial (and runtime) unroll at O3's threshold: the one pass of the late pipeline whose
    # absence cost a kernel time on the GPU (gemm_odd_k +3-4 %, its per-k-tile copy loops not unrolled
    # by 2).  The option is process-wide and only LoopUnroll reads it (the function pipeline's
    # LoopFullUnroll unrolls fully or not at all); O3's own late LoopUnroll uses the same value
    llvm_b.set_option("", f"-unroll-partial-threshold={LATE_UNROLL_PARTIAL_THRESHOLD}")
    late = llvm_b.create_new_module_pass_manager()
    late.add_loop_unroll_pass()
    late.run(mod, pb)


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
