"""CPU executor for lasscc kernels at every level of the pipeline (issue 3).

    from lasscc.interp import execute_kernel, run_check, format_bank_report

    res = execute_kernel(module, m, n, k, a, b, d, alpha, beta, report_banks=True)
    print(format_bank_report(res.bank_report))
    run_check(module, 128, 128, 64, seed=0, alpha=1.0, beta=0.0)  # {"rel_err", "ok", "seconds", "bank_report", ...}

Modules: executor.py (interpreter core, control flow, grid, entry point), arith_ops.py (arith),
lass_ops.py (lass, lass_tb, lass_pipe, lass_warp, lass_smem, lass_nv), sm90_ops.py (the sm_90a ops of
lass_nv: TMA, mbarrier, wgmma; `execute_sm90` for kernels without `#lass.kernel`), smem.py (shared memory
with uninitialised-read / race / async-copy checks), banks.py (bank-conflict report), check.py
(run_check against a float64 reference; run_cli for `lasscc run --target cpu`), errors.py (the
LassError subclasses raised), bf16.py (bf16 as uint16 bit patterns: exact conversions, round to
nearest even).
"""

from lasscc.interp.banks import format_bank_report
from lasscc.interp.bf16 import bf16_to_f32, f32_to_bf16, to_bf16
from lasscc.interp.check import make_inputs, reference, rel_error, run_check, run_cli
from lasscc.interp.errors import (
    AsyncHazardError,
    DeadlockError,
    DivergenceError,
    InterpError,
    KernelArgumentError,
    MbarrierError,
    MisalignedAccessError,
    OutOfBoundsError,
    RaceError,
    UninitializedReadError,
    UnsupportedError,
)
from lasscc.interp.executor import ExecResult, execute_kernel
from lasscc.interp.sm90_ops import execute_sm90

# the op handlers register themselves in executor.HANDLERS on import (they import the executor, not
# the other way round); the package imports them so that every user of the executor has them
from lasscc.interp import arith_ops, cluster, lass_ops, linalg_ops, math_ops, roles, sched, sm90_ops, sm90_pipe, sync_ops  # noqa: E402
from lasscc.interp import tma_store_ops  # noqa: E402

_HANDLER_MODULES = (arith_ops, lass_ops, linalg_ops, math_ops, sm90_ops, sm90_pipe, sync_ops, tma_store_ops)

__all__ = [
    "execute_kernel",
    "execute_sm90",
    "run_check",
    "run_cli",
    "format_bank_report",
    "ExecResult",
    "make_inputs",
    "reference",
    "rel_error",
    "to_bf16",
    "bf16_to_f32",
    "f32_to_bf16",
    "InterpError",
    "UnsupportedError",
    "KernelArgumentError",
    "OutOfBoundsError",
    "MisalignedAccessError",
    "UninitializedReadError",
    "RaceError",
    "AsyncHazardError",
    "DivergenceError",
    "DeadlockError",
    "MbarrierError",
]
