"""lasscc: a GEMM compiler (lass.gemm in MLIR -> xDSL dialects -> PTX).

The Python API (lasscc/api.py) is loaded on first use, so `import lasscc` stays light:

    import lasscc
    k = lasscc.compile("examples/gemm.mlir", arch="sm_80")   # or lasscc.gemm(d_dtype="f16", ...)
    k(a, b, d)
"""

from time import perf_counter as _perf_counter, process_time as _process_time

STARTED = (_perf_counter(), _process_time())  # lasscc's first line: `lasscc ... --timing`'s start-up rows

from lasscc import dataclass_code as _dataclass_code  # noqa: E402
from lasscc import dataclass_doc as _dataclass_doc  # noqa: E402
from lasscc import deprecated_sync as _deprecated_sync  # noqa: E402
from lasscc import lazy_attrs as _lazy_attrs  # noqa: E402
from lasscc import lazy_formats as _lazy_formats  # noqa: E402
from lasscc import lazy_ops as _lazy_ops  # noqa: E402

_dataclass_code.install()  # before xDSL's dataclasses are defined: see lasscc/dataclass_code.py
_dataclass_doc.install()  # likewise: see lasscc/dataclass_doc.py
_lazy_formats.install()  # before any xDSL dialect is defined: see lasscc/lazy_formats.py
_lazy_ops.install()  # likewise: see lasscc/lazy_ops.py
_lazy_attrs.install()  # likewise: see lasscc/lazy_attrs.py
_deprecated_sync.install()  # before xDSL decorates with @deprecated: see lasscc/deprecated_sync.py

from lasscc.diagnostics import LassError  # noqa: E402

_API = ("compile", "gemm", "compile_gemm", "gemm_mlir", "Kernel", "CompileError", "LaunchError", "stage_names")


def __getattr__(name: str):
    if name in _API:
        from lasscc import api

        return getattr(api, name)
    raise AttributeError(f"module 'lasscc' has no attribute '{name}'")


def __dir__():
    return sorted(list(globals()) + list(_API))


__all__ = ["LassError", *_API]
