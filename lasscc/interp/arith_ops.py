"""`arith` ops for the CPU executor, on uniform scalars or per-lane numpy arrays.

Integers are wrapped to the result type's width after every op (two's complement, i1 = bool);
signed/unsigned division and shifts follow the MLIR arith definitions (divsi truncates toward
zero, shrui is a logical shift of the width-bit pattern).  Float ops run in the IR type's numpy
precision (f16 / f32 / f64); bf16 values are uint16 bit patterns (values.float_codec): an op on
bf16 decodes them exactly to float32, computes, and rounds the result to nearest even once
(extf / truncf are that decoding and rounding; negf flips the sign bit; bitcast to and from i16
keeps the bits).  Each handler is specialised once per op (`prepare`), so the
interpreter loop does no type inspection.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr

from lasscc.interp.errors import UnsupportedError
from lasscc.interp.executor import HANDLERS
from lasscc.interp.values import float_codec, float_dtype, int_width, is_bf16_type, is_lanes, unsigned, wrap

CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"]


def _prepared(*op_types):
    """Register `make(op) -> fn(ex, op, vals)` as the prepare hook of ops of classes `op_types`."""

    def deco(make):
        def unprepared(ex, op, vals):  # only reached if someone bypasses Program.compiled
            return make(op)(ex, op, vals)

        unprepared.prepare = make
        for t in op_types:
            HANDLERS[t] = unprepared
        return make

    return deco


def _where_ctx(op):
    """Prefix of errors raised while specialising a handler (Program.compiled adds the op's index)."""
    return f"'{op.name}'"


def _result_width(op):
    w = int_width(op.results[0].type)
    if w is None:
        raise UnsupportedError(f"{_where_ctx(op)}: expected an integer result, got {op.results[0].type}")
    return w


def _operand_width(op, i=0):
    w = int_width(op.operands[i].type)
    if w is None:
        raise UnsupportedError(f"{_where_ctx(op)}: expected an integer operand, got {op.operands[i].type}")
    return w


def _trunc_div(a, b):
    """Signed division truncating toward zero (b == 0 gives 0; UB in MLIR)."""
    if is_lanes(a) or is_lanes(b):
        a = np.asarray(a, np.int64)
        b = np.asarray(b, np.int64)
        bs = np.where(b == 0, 1, b)
        q = np.abs(a) // np.abs(bs)
        return np.where(b == 0, 0, np.where((a < 0) ^ (bs < 0), -q, q))
    a, b = int(a), int(b)
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return -q if (a < 0) != (b < 0) else q


def _floor_div(a, b):
    if is_lanes(a) or is_lanes(b):
        b = np.asarray(b, np.int64)
        return np.where(b == 0, 0, np.asarray(a, np.int64) // np.where(b == 0, 1, b))
    return 0 if int(b) == 0 else int(a) // int(b)


# ---- constants -----------------------------------------------------------------------------------
@_prepared(arith.ConstantOp)
def _constant(op):
    attr = op.value
    t = op.results[0].type
    if isinstance(attr, IntegerAttr):
        w = int_width(t)
        val = wrap(int(attr.value.data), w)
    elif isinstance(attr, FloatAttr):
        codec = float_codec(t)
        if codec is None:
            raise UnsupportedError(f"{_where_ctx(op)}: unsupported float type {t}")
        val = codec[0](np.float64(attr.value.data))
    else:
        raise UnsupportedError(f"{_where_ctx(op)}: only scalar integer and float constants are supported")
    out = [val]
    return lambda ex, op, vals: out


# ---- integer binary ops --------------------------------------------------------------------------
def _int_binary(fn_for_width):
    def make(op):
        w = _result_width(op)
        f = fn_for_width(w)

        def run(ex, op, vals):
            return [f(vals[0], vals[1])]

        return run

    return make


_INT_OPS = {
    arith.AddiOp: lambda w: lambda a, b: wrap(a + b, w),
    arith.SubiOp: lambda w: lambda a, b: wrap(a - b, w),
    arith.MuliOp: lambda w: lambda a, b: wrap(a * b, w),
    arith.DivSIOp: lambda w: lambda a, b: wrap(_trunc_div(a, b), w),
    arith.RemSIOp: lambda w: lambda a, b: wrap(a - _trunc_div(a, b) * b, w),
    arith.DivUIOp: lambda w: lambda a, b: wrap(_floor_div(unsigned(a, w), unsigned(b, w)), w),
    arith.RemUIOp: lambda w: lambda a, b: wrap(
        unsigned(a, w) - _floor_div(unsigned(a, w), unsigned(b, w)) * unsigned(b, w), w
    ),
    arith.FloorDivSIOp: lambda w: lambda a, b: wrap(_floor_div(a, b), w),
    arith.CeilDivSIOp: lambda w: lambda a, b: wrap(-_floor_div(-a, b), w),
    arith.CeilDivUIOp: lambda w: lambda a, b: wrap(-_floor_div(-unsigned(a, w), unsigned(b, w)), w),
    arith.AndIOp: lambda w: (lambda a, b: a & b) if w == 1 else (lambda a, b: wrap(a & b, w)),
    arith.OrIOp: lambda w: (lambda a, b: a | b) if w == 1 else (lambda a, b: wrap(a | b, w)),
    arith.XOrIOp: lambda w: (lambda a, b: a ^ b) if w == 1 else (lambda a, b: wrap(a ^ b, w)),
    arith.ShLIOp: lambda w: lambda a, b: wrap(_shift(a, b, w, lambda x, s: x << s), w),
    arith.ShRSIOp: lambda w: lambda a, b: wrap(_shift(a, b, w, lambda x, s: x >> s, sign=True), w),
    arith.ShRUIOp: lambda w: lambda a, b: wrap(_shift(unsigned(a, w), b, w, lambda x, s: x >> s), w),
    arith.MaxSIOp: lambda w: lambda a, b: np.maximum(a, b) if is_lanes(a) or is_lanes(b) else max(a, b),
    arith.MinSIOp: lambda w: lambda a, b: np.minimum(a, b) if is_lanes(a) or is_lanes(b) else min(a, b),
    arith.MaxUIOp: lambda w: lambda a, b: wrap(_pick(unsigned(a, w), unsigned(b, w), max), w),
    arith.MinUIOp: lambda w: lambda a, b: wrap(_pick(unsigned(a, w), unsigned(b, w), min), w),
}


def _pick(a, b, f):
    if is_lanes(a) or is_lanes(b):
        return np.maximum(a, b) if f is max else np.minimum(a, b)
    return f(a, b)


def _shift(x, s, w, f, sign=False):
    """Shift by s; a shift amount >= width gives 0 (or the sign fill for shrsi), MLIR poison."""
    if is_lanes(x) or is_lanes(s):
        x = np.asarray(x, np.int64)
        s = np.asarray(s, np.int64)
        big = (s >= w) | (s < 0)
        r = f(x, np.where(big, 0, s))
        fill = np.where(x < 0, -1, 0) if sign else 0
        return np.where(big, fill, r)
    s = int(s)
    if s >= w or s < 0:
        return (-1 if int(x) < 0 else 0) if sign else 0
    return f(int(x), s)


for _name, _f in _INT_OPS.items():
    _prepared(_name)(_int_binary(_f))


# ---- comparisons and select ----------------------------------------------------------------------
@_prepared(arith.CmpiOp)
def _cmpi(op):
    pred = CMPI[op.predicate.value.data]
    w = _operand_width(op)

    def run(ex, op, vals):
        a, b = vals
        if pred[0] == "u":
            a, b = unsigned(a, w), unsigned(b, w)
            pred2 = "s" + pred[1:]
        else:
            pred2 = pred
        if pred2 == "eq":
            r = a == b
        elif pred2 == "ne":
            r = a != b
        elif pred2 == "slt":
            r = a < b
        elif pred2 == "sle":
            r = a <= b
        elif pred2 == "sgt":
            r = a > b
        else:
            r = a >= b
        return [r if is_lanes(r) else bool(r)]

    return run


@_prepared(arith.CmpfOp)
def _cmpf(op):
    pred = CMPF[op.predicate.value.data]
    dec = _float_operand(op)[1]

    def run(ex, op, vals):
        a, b = dec(vals[0]), dec(vals[1])
        with np.errstate(invalid="ignore"):
            unord = np.isnan(a) | np.isnan(b)
            base = pred[1:] if pred[0] in "ou" and pred not in ("ord", "uno") else pred
            if pred == "false":
                r = np.zeros_like(unord)
            elif pred == "true":
                r = np.ones_like(unord)
            elif pred == "ord":
                r = ~unord
            elif pred == "uno":
                r = unord
            else:
                cmp = {"eq": a == b, "gt": a > b, "ge": a >= b, "lt": a < b, "le": a <= b, "ne": a != b}[base]
                r = (cmp & ~unord) if pred[0] == "o" else (cmp | unord)
        return [r if is_lanes(r) else bool(r)]

    return run


@_prepared(arith.SelectOp)
def _select(op):
    def run(ex, op, vals):
        c, a, b = vals
        if not is_lanes(c):
            return [a if c else b]
        return [ex.select_lanes(c, a, b)]

    return run


# ---- casts ---------------------------------------------------------------------------------------
@_prepared(arith.IndexCastOp, arith.ExtSIOp)
def _extsi(op):
    src_w = _operand_width(op)
    w = _result_width(op)
    unsigned_src = op.name == "arith.index_castui"

    def run(ex, op, vals):
        x = vals[0]
        if src_w == 1:
            x = np.asarray(x, np.int64) if is_lanes(x) else int(bool(x))
            x = x if unsigned_src else -x
        elif unsigned_src:
            x = unsigned(x, src_w)
        return [wrap(x, w)]

    return run


@_prepared(arith.ExtUIOp)
def _extui(op):
    src_w = _operand_width(op)
    w = _result_width(op)
    return lambda ex, op, vals: [wrap(unsigned(vals[0], src_w), w)]


@_prepared(arith.TruncIOp)
def _trunci(op):
    w = _result_width(op)
    return lambda ex, op, vals: [wrap(vals[0], w)]


def _float_result(op):
    """(encode, decode, compute dtype) of the op's float result type (values.float_codec)."""
    codec = float_codec(op.results[0].type)
    if codec is None:
        raise UnsupportedError(f"{_where_ctx(op)}: expected a float result, got {op.results[0].type}")
    return codec


def _float_operand(op, i=0):
    codec = float_codec(op.operands[i].type)
    if codec is None:
        raise UnsupportedError(f"{_where_ctx(op)}: expected a float operand, got {op.operands[i].type}")
    return codec


def _ints_as_float(x):
    """Integer values (Python int / int64 lanes) as float64 for an int -> float conversion."""
    return np.asarray(x, np.float64) if is_lanes(x) else np.float64(x)


@_prepared(arith.ExtFOp, arith.TruncFOp)
def _fcast(op):
    enc = _float_result(op)[0]
    dec = _float_operand(op)[1]
    return lambda ex, op, vals: [enc(dec(vals[0]))]


@_prepared(arith.SIToFPOp)
def _sitofp(op):
    enc = _float_result(op)[0]
    return lambda ex, op, vals: [enc(_ints_as_float(vals[0]))]


@_prepared(arith.UIToFPOp)
def _uitofp(op):
    enc = _float_result(op)[0]
    w = _operand_width(op)
    return lambda ex, op, vals: [enc(_ints_as_float(unsigned(vals[0], w)))]


@_prepared(arith.FPToSIOp, arith.FPToUIOp)
def _fptosi(op):
    w = _result_width(op)
    dec = _float_operand(op)[1]

    def run(ex, op, vals):
        x = dec(vals[0])
        with np.errstate(invalid="ignore"):
            if is_lanes(x):
                return [wrap(np.trunc(x).astype(np.int64), w)]
            return [wrap(int(np.trunc(x)), w)]

    return run


@_prepared(arith.BitcastOp)
def _bitcast(op):
    src, dst = op.operands[0].type, op.results[0].type
    sfd, dfd = float_dtype(src), float_dtype(dst)
    sw, dw = int_width(src), int_width(dst)
    sbf, dbf = is_bf16_type(src), is_bf16_type(dst)
    if sbf and dw == 16:  # bf16 -> i16: the pattern as a signed value

        def run(ex, op, vals):
            r = wrap(np.asarray(vals[0]).astype(np.int64), 16)
            return [r if is_lanes(vals[0]) else int(r)]

        return run
    if sw == 16 and dbf:  # i16 -> bf16: the pattern

        def run(ex, op, vals):
            r = np.asarray(unsigned(vals[0], 16)).astype(np.uint16)
            return [r if is_lanes(vals[0]) else r[()]]

        return run
    if sbf and dbf:
        return lambda ex, op, vals: [vals[0]]
    if sfd is not None and dw is not None:
        it = np.dtype(f"int{dw}")

        def run(ex, op, vals):
            r = np.asarray(vals[0], sfd).view(it).astype(np.int64)
            return [r if is_lanes(vals[0]) else int(r)]

        return run
    if sw is not None and dfd is not None:
        ut = np.dtype(f"uint{sw}")

        def run(ex, op, vals):
            r = np.asarray(unsigned(np.asarray(vals[0]).astype(np.int64), sw)).astype(ut).view(dfd)  # (narrower ints: a loaded i32)
            return [r if is_lanes(vals[0]) else dfd(r[()])]

        return run
    if sw is not None and dw is not None:
        return lambda ex, op, vals: [wrap(vals[0], dw)]
    raise UnsupportedError(f"{_where_ctx(op)}: unsupported bitcast {src} -> {dst}")


# ---- float arithmetic ----------------------------------------------------------------------------
def _fbin(f):
    def make(op):
        enc, dec, fd = _float_result(op)
        if is_bf16_type(op.results[0].type):  # bf16: decode, compute in float32, round once

            def run(ex, op, vals):
                with np.errstate(all="ignore"):
                    r = f(dec(vals[0]), dec(vals[1]))
                return [enc(r)]

            return run

        def run(ex, op, vals):
            with np.errstate(all="ignore"):
                r = f(vals[0], vals[1])
            return [r.astype(fd, copy=False) if is_lanes(r) else fd(r)]

        return run

    return make


def _fmax(a, b):  # maximumf: NaN propagates
    return np.maximum(a, b)


def _fmaxnum(a, b):  # maxnumf: NaN ignored
    return np.fmax(a, b)


for _name, _f in {
    arith.AddfOp: lambda a, b: a + b,
    arith.SubfOp: lambda a, b: a - b,
    arith.MulfOp: lambda a, b: a * b,
    arith.DivfOp: lambda a, b: a / b,
    arith.MaximumfOp: _fmax,
    arith.MinimumfOp: np.minimum,
    arith.MaxnumfOp: _fmaxnum,
    arith.MinnumfOp: np.fmin,
}.items():
    _prepared(_name)(_fbin(_f))


@_prepared(arith.NegfOp)
def _negf(op):
    enc, dec, fd = _float_result(op)
    if is_bf16_type(op.results[0].type):  # bf16: flip the sign bit (NaN payloads kept)
        return lambda ex, op, vals: [np.bitwise_xor(vals[0], np.uint16(0x8000))]
    return lambda ex, op, vals: [-vals[0] if is_lanes(vals[0]) else fd(-vals[0])]
