"""lasscc.emit.to_llvm_ir: the LLVM IR text written from the llvm dialect, one template per op kind
(`emit._WRITERS`).  Its meaning is checked by running it: an llvm-dialect function using every op
kind the lowering emits (integer and float arithmetic, compares, select, casts, vector and struct
element ops, GEP / load / store, a loop's block arguments) is written as LLVM IR, compiled for this
CPU by LLVM's JIT and called; each result is compared with the same expression in Python.  A
mistranslated op (operands swapped, a wrong opcode or predicate, a phi's incoming values mixed up)
gives a different number."""

from __future__ import annotations

import ctypes
import math
import re
import struct

import pytest

from lasscc.diagnostics import LassError
from lasscc.emit import to_llvm_ir
from lasscc.source import parse_mlir

# (name, MLIR of the value, its type): results stored to p[0..] in this order
_RESULTS = [
    ("sub", "llvm.sub %a, %b : i32", "i32"),
    ("add", "llvm.add %a, %c7 : i32", "i32"),
    ("mul", "llvm.mul %sub, %c3 : i32", "i32"),
    ("udiv", "llvm.udiv %a, %c7 : i32", "i32"),
    ("urem", "llvm.urem %a, %c7 : i32", "i32"),
    ("shl", "llvm.shl %b, %c3 : i32", "i32"),
    ("lshr", "llvm.lshr %a, %c3 : i32", "i32"),
    ("and", "llvm.and %a, %b : i32", "i32"),
    ("or", "llvm.or %a, %c7 : i32", "i32"),
    ("xor", "llvm.xor %a, %b : i32", "i32"),
    ("slt", "llvm.icmp \"slt\" %sub, %b : i32", "i1"),
    ("sel", "llvm.select %slt, %a, %b : i1, i32", "i32"),
    ("ugt", "llvm.icmp \"ugt\" %a, %b : i32", "i1"),
    ("wide", "llvm.sext %sub : i32 to i64", "i64"),
    ("narrow", "llvm.trunc %wide : i64 to i16", "i16"),
    ("fsub", "llvm.fsub %x, %y : f32", "f32"),
    ("fmul", "llvm.fmul %fsub, %x : f32", "f32"),
    ("fadd", "llvm.fadd %fmul, %y : f32", "f32"),
    ("fneg", "llvm.fneg %fadd : f32", "f32"),
    ("olt", "llvm.fcmp \"olt\" %x, %y : f32", "i1"),
    ("wider", "llvm.fpext %fneg : f32 to f64", "f64"),
    ("back", "llvm.fptrunc %wider : f64 to f32", "f32"),
    ("itof", "llvm.sitofp %sub : i32 to f32", "f32"),
    ("v0", "llvm.insertelement %a16, %u[%c0 : i32] : vector<2xi16>", "vector<2xi16>"),
    ("v1", "llvm.insertelement %b16, %v0[%c1 : i32] : vector<2xi16>", "vector<2xi16>"),
    ("s1", "llvm.insertvalue %a, %s0[0] : !llvm.struct<(i32, i32)>", "!llvm.struct<(i32, i32)>"),
    ("s2", "llvm.insertvalue %b, %s1[1] : !llvm.struct<(i32, i32)>", "!llvm.struct<(i32, i32)>"),
    ("second", "llvm.extractvalue %s2[1] : !llvm.struct<(i32, i32)>", "i32"),
]
# how each result is stored as an i32 (a cast op of the dialect, or the value itself)
_AS_I32 = {"i1": "llvm.zext {v} : i1 to i32", "i64": "llvm.trunc {v} : i64 to i32", "i16": "llvm.sext {v} : i16 to i32",
           "f32": "llvm.bitcast {v} : f32 to i32", "f64": "llvm.fptrunc {v} : f64 to f32",
           "vector<2xi16>": "llvm.bitcast {v} : vector<2xi16> to i32",
           "!llvm.struct<(i32, i32)>": "llvm.extractvalue {v}[0] : !llvm.struct<(i32, i32)>"}


def _module() -> str:
    body = ["%c0 = llvm.mlir.constant(0 : i32) : i32", "%c1 = llvm.mlir.constant(1 : i32) : i32",
            "%c3 = llvm.mlir.constant(3 : i32) : i32", "%c7 = llvm.mlir.constant(7 : i32) : i32",
            "%a16 = llvm.trunc %a : i32 to i16", "%b16 = llvm.trunc %b : i32 to i16",
            "%u = llvm.bitcast %c0 : i32 to vector<2xi16>", "%s0 = llvm.mlir.undef : !llvm.struct<(i32, i32)>"]
    stores = []
    for k, (name, expr, ty) in enumerate(_RESULTS):
        body.append(f"%{name} = {expr}")
        v = f"%{name}"
        if ty == "f64":
            stores.append(f"%{name}_f = {_AS_I32['f64'].format(v=v)}")
            v, ty = f"%{name}_f", "f32"
        if ty in _AS_I32:
            stores.append(f"%{name}_i = {_AS_I32[ty].format(v=v)}")
            v = f"%{name}_i"
        stores.append(f"%g{k} = llvm.getelementptr %p[{k}] : (!llvm.ptr) -> !llvm.ptr, i32")
        stores.append(f"llvm.store {v}, %g{k} {{alignment = 4 : i64}} : i32, !llvm.ptr")
    n = len(_RESULTS)
    # a loop: acc = a; for i in [0, b): acc = acc - i  (block arguments -> phis); then a load and an
    # SSA-indexed GEP: p[n] = acc, p[n + 1] = p[0] (the load), p[n + 2] = p[n + 1] via an index value
    loop = f"""
    llvm.br ^loop(%c0, %a : i32, i32)
  ^loop(%i: i32, %acc: i32):
    %done = llvm.icmp "sge" %i, %b : i32
    llvm.cond_br %done, ^exit, ^body
  ^body:
    %acc2 = llvm.sub %acc, %i : i32
    %i2 = llvm.add %i, %c1 : i32
    llvm.br ^loop(%i2, %acc2 : i32, i32)
  ^exit:
    {chr(10).join('    ' + s for s in stores)}
    %gn = llvm.getelementptr %p[{n}] : (!llvm.ptr) -> !llvm.ptr, i32
    llvm.store %acc, %gn {{alignment = 4 : i64}} : i32, !llvm.ptr
    %g0l = llvm.getelementptr %p[0] : (!llvm.ptr) -> !llvm.ptr, i32
    %ld = llvm.load %g0l {{alignment = 4 : i64}} : !llvm.ptr -> i32
    %idx = llvm.add %c7, %c7 : i32
    %n1 = llvm.mlir.constant({n + 1} : i32) : i32
    %gi = llvm.getelementptr %p[%n1] : (!llvm.ptr, i32) -> !llvm.ptr, i32
    llvm.store %ld, %gi {{alignment = 4 : i64}} : i32, !llvm.ptr
    llvm.return
"""
    lines = "\n".join("    " + s for s in body)
    return f"""builtin.module {{
  llvm.func @f(%p: !llvm.ptr, %a: i32, %b: i32, %x: f32, %y: f32) {{
{lines}
{loop}  }}
}}
"""


def _i32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def _f32(v: float) -> float:
    return struct.unpack("<f", struct.pack("<f", v))[0]


def _bits(v: float) -> int:
    return _i32(struct.unpack("<I", struct.pack("<f", v))[0])


def _expected(a: int, b: int, x: float, y: float) -> list[int]:
    x, y = _f32(x), _f32(y)  # (the arguments are passed as floats)
    sub = _i32(a - b)
    fsub = _f32(x - y)
    fmul = _f32(fsub * x)
    fadd = _f32(fmul + y)
    ua, ub = a & 0xFFFFFFFF, b & 0xFFFFFFFF
    acc = a
    for i in range(b):
        acc = _i32(acc - i)
    out = [sub, _i32(a + 7), _i32(sub * 3), ua // 7, ua % 7, _i32(b << 3), ua >> 3, _i32(a & b), _i32(a | 7),
           _i32(a ^ b), int(sub < b), a if sub < b else b, int(ua > ub), sub, _i32(((sub & 0xFFFF) ^ 0x8000) - 0x8000),
           _bits(fsub), _bits(fmul), _bits(fadd), _bits(-fadd), int(x < y), _bits(-fadd), _bits(-fadd),
           _bits(_f32(float(sub))), _i32(a & 0xFFFF), _i32((a & 0xFFFF) | ((b & 0xFFFF) << 16)), a, a, b, acc, sub]
    return out


def _run(ir: str, cases) -> list[list[int]]:
    """The IR compiled for this CPU (its triple and data layout swapped in) and called once per case."""
    import llvmlite.binding as llvm_b

    llvm_b.initialize_all_targets()
    llvm_b.initialize_all_asmprinters()
    llvm_b.initialize_native_target()
    llvm_b.initialize_native_asmprinter()
    tm = llvm_b.Target.from_default_triple().create_target_machine()
    host = re.sub(r'target triple = ".*"\ntarget datalayout = ".*"\n',
                  f'target triple = "{llvm_b.get_default_triple()}"\ntarget datalayout = "{tm.target_data}"\n', ir)
    mod = llvm_b.parse_assembly(host)
    mod.verify()
    engine = llvm_b.create_mcjit_compiler(mod, tm)
    engine.finalize_object()
    fn = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_int32), ctypes.c_int32, ctypes.c_int32, ctypes.c_float,
                          ctypes.c_float)(engine.get_function_address("f"))
    outs = []
    for a, b, x, y in cases:
        buf = (ctypes.c_int32 * (len(_RESULTS) + 2))()
        fn(buf, a, b, x, y)
        outs.append(list(buf))
    return outs


_CASES = [(100, 7, 1.5, 2.25), (-9, 4, -3.0, 0.5), (5, 12, 0.1, -7.75), (2**31 - 5, 3, 1e3, 1e-3)]


def test_every_op_kind_computes_what_the_dialect_says():
    ir = to_llvm_ir(parse_mlir(_module(), "w.mlir"))
    results = _run(ir, _CASES)
    names = [r[0] for r in _RESULTS] + ["loop", "load"]
    for (a, b, x, y), got in zip(_CASES, results):
        want = _expected(a, b, x, y)
        assert len(got) == len(want) == len(names)
        for name, g, w in zip(names, got, want):  # (the last: the load of p[0], `sub`)
            assert g == w, (name, (a, b, x, y), g, w, ir)


def test_the_ir_is_readable_and_names_values_once():
    """Each value is named `%vN` once; block arguments are phis at the head of their block, with
    one incoming value per branch to it; constants are written where they are used."""
    ir = to_llvm_ir(parse_mlir(_module(), "w.mlir"))
    defs = re.findall(r"^  (%v\d+) = ", ir, re.M)
    assert len(defs) == len(set(defs)) > 30, ir
    assert re.search(r"^b1:\n  %v\d+ = phi i32 \[0, %b0\], \[%v\d+, %b2\]\n  %v\d+ = phi i32 \[%a1, %b0\], "
                     r"\[%v\d+, %b2\]\n", ir, re.M), ir
    assert "sub i32 %a1, %a2" in ir and "mlir.constant" not in ir, ir
    assert re.search(r"^define void @\"f\"\(ptr %a0, i32 %a1, i32 %a2, float %a3, float %a4\)$", ir, re.M), ir


def test_an_op_the_writer_does_not_know_is_an_error():
    text = """builtin.module {
  llvm.func @f(%a: f32) -> f32 {
    %r = llvm.intr.fabs(%a) : (f32) -> f32
    llvm.return %r : f32
  }
}
"""
    module = parse_mlir(text, "w.mlir")
    with pytest.raises(LassError, match=r"cannot translate to LLVM IR: llvm\.intr\.fabs"):
        to_llvm_ir(module)


def test_float_constants_are_exact():
    """half / float / double constants as the double bits of the value rounded to the type; bfloat in
    LLVM's 0xR form (round to nearest even)."""
    from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type

    from lasscc.emit import _float_text

    assert _float_text(Float32Type(), 0.1) == f"0x{struct.unpack('<Q', struct.pack('<d', _f32(0.1)))[0]:016X}"
    assert _float_text(Float64Type(), 0.1) == "0x3FB999999999999A"
    assert _float_text(Float16Type(), 1.0) == "0x3FF0000000000000"
    assert _float_text(BFloat16Type(), 1.0) == "0xR3F80" and _float_text(BFloat16Type(), math.pi) == "0xR4049"
