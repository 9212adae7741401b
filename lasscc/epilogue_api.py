"""Fused epilogues from Python, without writing MLIR (`lasscc.gemm(..., bias="n", activation="gelu")`).

    k = lasscc.gemm(d_dtype="f16", bias="n", activation="gelu")   # D = gelu(A.B + bias[j])
    k.ir("input")                  # the lass.gemm with its epilogue region, as generated
    k(a, b, d, bias=bias)          # GPU (numpy or CUDA arrays); target="cpu": the CPU executor

What the epilogue computes for D's element (i, j), with v = alpha * acc + beta * C (f32):

    y = activation(v * scale_e + bias_e) + residual[i, j]

scale and bias are each None (left out), "n" (N values, one per column j: a bias per output
feature) or "m" (M values, one per row i); residual=True adds an M x N matrix in D's layout;
activation is one of ACTIVATIONS (None: the identity).  The extra operands are f32 unless
`epilogue_dtype` says f16 or bf16.  Each activation's region text and its float64 reference (used
by the tests, the GPU matrix and scripts/epilogue_bench.py) are written once, in ACTIVATIONS.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable

import numpy as np

from lasscc.diagnostics import LassError

SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
GELU_TANH_C = 0.044715  # the cubic term of GELU's tanh approximation (Hendrycks & Gimpel)


@dataclass(frozen=True)
class Activation:
    """One activation: `body(x, t)` returns MLIR lines computing it from f32 value %x, the last
    line defining `%{t}out`; `ref` is the float64 reference on numpy arrays."""

    body: Callable[[str, str], list[str]]
    ref: Callable[[np.ndarray], np.ndarray]


def _c(t: str, name: str, value: float) -> str:
    return f"%{t}{name} = arith.constant {value!r} : f32"


def _relu(x, t):
    return [_c(t, "zero", 0.0), f"%{t}out = arith.maximumf {x}, %{t}zero : f32"]


def _gelu_erf(x, t):  # x * 0.5 * (1 + erf(x / sqrt(2)))
    return [_c(t, "rs2", 1 / math.sqrt(2)), _c(t, "half", 0.5), _c(t, "one", 1.0),
            f"%{t}0 = arith.mulf {x}, %{t}rs2 : f32", f"%{t}1 = math.erf %{t}0 : f32",
            f"%{t}2 = arith.addf %{t}1, %{t}one : f32", f"%{t}3 = arith.mulf {x}, %{t}half : f32",
            f"%{t}out = arith.mulf %{t}3, %{t}2 : f32"]


def _gelu_tanh(x, t):  # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    return [_c(t, "k", SQRT_2_OVER_PI), _c(t, "c", GELU_TANH_C), _c(t, "half", 0.5), _c(t, "one", 1.0),
            f"%{t}0 = arith.mulf {x}, {x} : f32", f"%{t}1 = arith.mulf %{t}0, {x} : f32",
            f"%{t}2 = arith.mulf %{t}1, %{t}c : f32", f"%{t}3 = arith.addf {x}, %{t}2 : f32",
            f"%{t}4 = arith.mulf %{t}3, %{t}k : f32", f"%{t}5 = math.tanh %{t}4 : f32",
            f"%{t}6 = arith.addf %{t}5, %{t}one : f32", f"%{t}7 = arith.mulf {x}, %{t}half : f32",
            f"%{t}out = arith.mulf %{t}7, %{t}6 : f32"]


def _sigmoid_of(x, t):  # 1 / (1 + exp(-x))
    return [_c(t, "one", 1.0), f"%{t}n = arith.negf {x} : f32", f"%{t}e = math.exp %{t}n : f32",
            f"%{t}d = arith.addf %{t}e, %{t}one : f32", f"%{t}out = arith.divf %{t}one, %{t}d : f32"]


def _silu(x, t):
    lines = _sigmoid_of(x, t + "s")
    return lines + [f"%{t}out = arith.mulf {x}, %{t}sout : f32"]


def _tanh(x, t):
    return [f"%{t}out = math.tanh {x} : f32"]


def _erf64(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def _sigmoid64(x):
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-x))


ACTIVATIONS: dict[str, Activation] = {
    "relu": Activation(_relu, lambda x: np.maximum(x, 0.0)),
    "gelu": Activation(_gelu_erf, lambda x: 0.5 * x * (1.0 + _erf64(x / math.sqrt(2.0)))),
    "gelu_tanh": Activation(_gelu_tanh,
                            lambda x: 0.5 * x * (1.0 + np.tanh(SQRT_2_OVER_PI * (x + GELU_TANH_C * x ** 3)))),
    "silu": Activation(_silu, lambda x: x * _sigmoid64(x)),
    "sigmoid": Activation(_sigmoid_of, _sigmoid64),
    "tanh": Activation(_tanh, np.tanh),
}
_VECTOR_KINDS = (None, "n", "m")


@dataclass(frozen=True)
class EpilogueSpec:
    """y = activation(v * scale + bias) + residual (see the module doc); `dtype` of the extras."""

    bias: str | None = None
    scale: str | None = None
    activation: str | None = None
    residual: bool = False
    dtype: str = "f32"

    def __post_init__(self) -> None:
        from lasscc.diagnostics import CompileError

        for name in ("bias", "scale"):
            if getattr(self, name) not in _VECTOR_KINDS:
                raise CompileError(f"gemm: {name}: expected None, 'n' (N values, one per column of D) or 'm' "
                                   f"(M values, one per row), got {getattr(self, name)!r}")
        if self.activation is not None and self.activation not in ACTIVATIONS:
            raise CompileError(f"gemm: activation: expected None or one of {', '.join(ACTIVATIONS)}, "
                               f"got {self.activation!r}")
        if self.dtype not in ("f32", "f16", "bf16"):
            raise CompileError(f"gemm: epilogue_dtype: expected f32, f16 or bf16, got {self.dtype!r}")

    @property
    def operands(self) -> list[tuple[str, str]]:
        """(name, kind) of the extra operands, in the kernel's order."""
        out = [(n, k) for n, k in (("scale", self.scale), ("bias", self.bias)) if k is not None]
        return out + ([("residual", "mn")] if self.residual else [])

    def region(self, d_type: str) -> tuple[list[str], list[str], list[str], str]:
        """(function argument texts, epilogue operand texts, their types, region text)."""
        mt = self.dtype
        args, ops, types, block_args = [], [], [], ["%v: f32"]
        lines: list[str] = []
        vals = {}
        for name, kind in self.operands:
            t = f"memref<?x?x{mt}>" if kind == "mn" else f"memref<?x{mt}>"
            if kind == "mn" and d_type.endswith("strided<[1, ?]>>"):
                t = f"memref<?x?x{mt}, strided<[1, ?]>>"
            if kind == "mn" and d_type.startswith("memref<?x?x?x"):  # batched D: a residual per batch, D's layout
                t = re.sub(r"^memref<\?x\?x\?x\w+", f"memref<?x?x?x{mt}", d_type)
            args.append(f"%{name}: {t}")
            ops.append(f"%{name} [{kind}]")
            types.append(t)
            block_args.append(f"%{name}_e: {mt}")
            if mt == "f32":
                vals[name] = f"%{name}_e"
            else:
                lines.append(f"%{name}_f = arith.extf %{name}_e : {mt} to f32")
                vals[name] = f"%{name}_f"
        x = "%v"
        if self.scale:
            lines.append(f"%scaled = arith.mulf {x}, {vals['scale']} : f32")
            x = "%scaled"
        if self.bias:
            lines.append(f"%biased = arith.addf {x}, {vals['bias']} : f32")
            x = "%biased"
        if self.activation:
            lines += ACTIVATIONS[self.activation].body(x, "act")
            x = "%actout"
        if self.residual:
            lines.append(f"%res = arith.addf {x}, {vals['residual']} : f32")
            x = "%res"
        lines.append(f"lass.yield {x} : f32")
        body = "\n".join(f"    {ln}" for ln in lines)
        return args, ops, types, f"{{\n  ^bb0({', '.join(block_args)}):\n{body}\n  }}"

    def reference(self, v: np.ndarray, extras: dict[str, np.ndarray]) -> np.ndarray:
        """The float64 epilogue of v (M x N, float64) with the extras (by name; vectors and the
        residual already broadcast to M x N as float64)."""
        y = v
        if self.scale:
            y = y * extras["scale"]
        if self.bias:
            y = y + extras["bias"]
        if self.activation:
            y = ACTIVATIONS[self.activation].ref(y)
        if self.residual:
            y = y + extras["residual"]
        return y


def gemm_epilogue_mlir(spec: EpilogueSpec, text: str) -> str:
    """`text` (api.gemm_mlir's output) with the epilogue's operands and region added."""
    head, rest = text.split("(%a: ", 1)
    sig, body = rest.split(") {\n", 1)
    d_type = sig.split("%d: ", 1)[1]
    args, ops, types, region = spec.region(d_type)
    outs = f"outs(%d : {d_type})"
    if outs not in body:
        raise LassError(f"gemm: internal: no `{outs}` in the generated lass.gemm")
    epi = f" epilogue({', '.join(ops)} : {', '.join(types)}) {region}" if ops else f" epilogue() {region}"
    return head + "(%a: " + ", ".join([sig] + args) + ") {\n" + body.replace(outs, outs + epi, 1)


def broadcast_extras(spec: EpilogueSpec, m: int, n: int, extras: dict) -> dict[str, np.ndarray]:
    """The caller's extras (numpy, by name; the residual M x N) as float64 M x N arrays."""
    from lasscc.interp.bf16 import as_f64

    out = {}
    for name, kind in spec.operands:
        x = as_f64(np.asarray(extras[name]))
        out[name] = x.reshape(1, n) if kind == "n" else (x.reshape(m, 1) if kind == "m" else x.reshape(m, n))
    return out


def make_extras(spec: EpilogueSpec, m: int, n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Random normal extras of the spec's dtype (the residual M x N, row-major)."""
    from lasscc.interp.bf16 import BF16, store_as

    dt = {"f32": np.float32, "f16": np.float16, "bf16": BF16}[spec.dtype]
    shape = {"n": (n,), "m": (m,), "mn": (m, n)}
    return {name: store_as(rng.standard_normal(shape[kind]), dt) for name, kind in spec.operands}


def epilogue_gemm(text: str, spec: EpilogueSpec, compile_fn, **compile_kw):
    """Compile `text` (a plain lass.gemm from api.gemm_mlir) with the epilogue of `spec`; an
    EpilogueKernel."""
    k = compile_fn(gemm_epilogue_mlir(spec, text), **compile_kw)
    k.__class__ = _fused_kernel_class(type(k))  # a lasscc.api.Kernel whose call takes the extras by name
    k.epilogue = spec
    return k


_FUSED_CLASS: list = []


def _fused_kernel_class(Kernel: type) -> type:
    """EpilogueKernel over `Kernel` (lasscc.api.Kernel, the class of what compile returned: taken
    from it so this module need not import lasscc.api, which imports it; made once)."""
    if not _FUSED_CLASS:
        _FUSED_CLASS.append(type("FusedKernel", (EpilogueKernel, Kernel), {"__module__": __name__}))
    return _FUSED_CLASS[0]


class EpilogueKernel:
    """A lasscc.api.Kernel with a fused epilogue: call it with the extra operands by name."""

    epilogue: EpilogueSpec

    def __call__(self, a, b, d, alpha=None, beta=None, *, bias=None, scale=None, residual=None,
                 target: str = "gpu", sync: bool | None = None):
        """D = activation((alpha * A.B + beta * C) * scale + bias) + residual; returns d.  bias /
        scale: 1-d of N (kind 'n') or M ('m') values; residual: M x N (numpy: any order; CUDA
        arrays in D's layout); each of the epilogue's dtype (bf16: also uint16 bit patterns, as
        lasscc.interp.bf16 holds them)."""
        from lasscc.diagnostics import LaunchError
        from lasscc.interop import operand as _operand

        given = {"bias": bias, "scale": scale, "residual": residual}
        if getattr(self.spec, "batched", False):  # 3-d batch-first operands: lasscc.batched_call
            from lasscc.batched_call import call_batched

            return call_batched(self, a, b, d, self.alpha if alpha is None else float(alpha),
                                self.beta if beta is None else float(beta), given, target, sync)
        kern = self.for_operands(a, b, d)
        A, B, D, m, n, k = kern.check_operands(a, b, d)
        extras = []
        col_d = kern.spec.d_layout == "col"
        for name, kind in self.epilogue.operands:
            x = given[name]
            if x is None:
                raise LaunchError(f"{name}: kernel '{kern.spec.name}' has a fused {name} ({kind}); pass {name}=...")
            op = _operand(name, x)
            want = {"n": (n,), "m": (m,), "mn": (m, n)}[kind]
            if op.shape != want:
                raise LaunchError(f"{name}: expected shape {want}, got {op.shape}")
            if op.dtype != self.epilogue.dtype and not (self.epilogue.dtype == "bf16" and op.dtype == "uint16"):
                raise LaunchError(f"{name}: expected dtype {self.epilogue.dtype}, got {op.dtype}")
            if kind == "mn" and not op.on_device:
                op.host = np.ascontiguousarray(op.host.T if col_d else op.host)  # D's memory order
            if op.on_device:
                from lasscc.dialects.epilogue import extra_align_bytes

                need = extra_align_bytes(kind, self.epilogue.dtype)
                if op.ptr % need:
                    raise LaunchError(f"{name}: expected a {need}-byte aligned data pointer (the kernel reads the "
                                      f"epilogue's vectors and matrices in pairs of elements, like D), got 0x{op.ptr:x}")
            extras.append(op)
        for name in given:
            if given[name] is not None and name not in dict(self.epilogue.operands):
                raise LaunchError(f"{name}: kernel '{kern.spec.name}' has no fused {name}")
        alpha = kern.alpha if alpha is None else float(alpha)
        beta = kern.beta if beta is None else float(beta)
        if target == "cpu":
            if any(x.on_device for x in extras):
                raise LaunchError("target='cpu': expected numpy arrays for the epilogue operands")
            return kern._run_cpu(A, B, D, m, n, k, alpha, beta, extras=[x.host for x in extras])
        if target != "gpu":
            raise LaunchError(f"target: expected 'gpu' or 'cpu', got {target!r}")
        from lasscc.runtime import cuda

        reason = cuda.driver_status()
        if reason is not None:
            raise LaunchError(f"no GPU to run on ({reason}); use target='cpu'")
        bufs = []
        try:
            ptrs = []
            for x in extras:
                if x.on_device:
                    ptrs.append(x.ptr)
                else:
                    bufs.append(cuda.DeviceBuffer.from_array(x.host))
                    ptrs.append(bufs[-1].ptr)
            out = kern._run_gpu(cuda, A, B, D, m, n, k, alpha, beta, True if bufs else sync, extras=ptrs)
        except LassError as e:
            raise e if isinstance(e, LaunchError) else LaunchError(str(e)) from None
        finally:
            for buf in bufs:
                try:
                    buf.free()
                except LassError:
                    pass
        return out
