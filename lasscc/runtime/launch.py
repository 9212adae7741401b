"""One launch of a compiled GEMM kernel on the GPU — its grid (a persistent or stream-K kernel's from
the device's SM count), its cluster and parallel split-K's reduction after it — and the best-effort
release of its buffers: shared by the runner (lasscc.runtime.gemm_runner), the API (lasscc.api) and
the batched call (lasscc.batched_call).  The driver module (`lasscc.runtime.cuda`, or a test's fake
of it) is the caller's."""

from __future__ import annotations

from typing import Callable

from lasscc.diagnostics import LassError


def grid_sms(cuda, spec) -> int | None:
    """The SM count a stream-K or persistent kernel's grid and workspace are sized for (the open
    device's); None for the others (their grid is the tiles)."""
    return cuda.sm_count() if getattr(spec, "is_streamk", False) or getattr(spec, "persistent", False) else None


def gemm_launcher(cuda, spec, func, reduce, args, m: int, n: int, batch: int = 1,
                  sms: int | None = None) -> Callable[[], None]:
    """A call that launches kernel `func` of `spec` on `args` for an M x N (x batch) D, then
    `reduce` (parallel split-K's reduction kernel, None: none) on the same arguments; the grids
    are computed once here, so a timing loop launches back to back."""
    block = (spec.threads, 1, 1)
    grid = spec.grid(m, n, batch, sms)
    cluster = {"cluster": spec.cluster_dims} if spec.cluster_dims else {}
    reduce_grid = spec.reduce_grid(m, n, batch) if reduce is not None else None

    def launch() -> None:
        cuda.launch(func, grid, block, spec.smem_bytes, args, **cluster)
        if reduce is not None:  # parallel split-K: sum the partials, apply alpha / beta
            cuda.launch(reduce, reduce_grid, block, 0, args)

    return launch


def free_all(buffers) -> None:
    """Best-effort cleanup: after a kernel fault the context is dead and every call fails."""
    for buf in buffers:
        try:
            buf.free()
        except LassError:
            pass
