"""Wall and CPU time of the compiler's phases, printed like MLIR's `-mlir-timing` (`--timing`).

    with timing.report_to(sys.stderr):       # the CLI, for `--timing`
        ...
        with timing.phase("lasscc-warp-mma"):  # anywhere in the driver; nests
            ...

A phase outside `report_to` costs one global read: the driver is instrumented unconditionally.
The report lists the phases in the order they started, nested ones indented under their parent,
each with its user (process CPU) time and wall time; `Rest` is the time inside `report_to` that no
top-level phase covers.  CPU time is shown because the 2-core build machine is shared: wall time
there measures the neighbours as much as lasscc.
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class _Row:
    name: str
    depth: int
    wall: float = 0.0
    cpu: float = 0.0


@dataclass
class Timer:
    rows: list[_Row] = field(default_factory=list)
    depth: int = 0

    def format(self, wall: float, cpu: float) -> str:
        """The report: a header, one line per phase (nested ones indented), Rest and Total."""
        bar = "===" + "-" * 73 + "==="
        lines = [bar, "lasscc execution time report".center(len(bar)).rstrip(), bar,
                 f"  Total Execution Time: {wall:.4f} seconds", "",
                 "  ----User Time----  ----Wall Time----  ----Name----"]
        top_wall = sum(r.wall for r in self.rows if r.depth == 0)
        top_cpu = sum(r.cpu for r in self.rows if r.depth == 0)
        rows = [*self.rows, _Row("Rest", 0, max(wall - top_wall, 0.0), max(cpu - top_cpu, 0.0)),
                _Row("Total", 0, wall, cpu)]
        for r in rows:
            lines.append(f"  {r.cpu:8.4f} ({_pct(r.cpu, cpu)})  {r.wall:8.4f} ({_pct(r.wall, wall)})  "
                         f"{'  ' * r.depth}{r.name}")
        return "\n".join(lines) + "\n"


def _pct(part: float, whole: float) -> str:
    return f"{100.0 * part / whole if whole > 0 else 0.0:5.1f}%"


_ACTIVE: Timer | None = None


@contextmanager
def phase(name: str):
    """Time the enclosed block as `name` when a report is being collected; otherwise do nothing."""
    timer = _ACTIVE
    if timer is None:
        yield
        return
    row = _Row(name, timer.depth)
    timer.rows.append(row)
    timer.depth += 1
    w0, c0 = time.perf_counter(), time.process_time()
    try:
        yield
    finally:
        row.wall, row.cpu = time.perf_counter() - w0, time.process_time() - c0
        timer.depth -= 1


@contextmanager
def report_to(stream=None, enabled: bool = True):
    """Collect phases in the enclosed block and print the report to `stream` (stderr) at its end,
    also when the block fails (the phases that ran are shown)."""
    global _ACTIVE
    if not enabled:
        yield None
        return
    timer, outer = Timer(), _ACTIVE
    _ACTIVE = timer
    w0, c0 = time.perf_counter(), time.process_time()
    try:
        yield timer
    finally:
        _ACTIVE = outer
        (stream or sys.stderr).write(timer.format(time.perf_counter() - w0, time.process_time() - c0))
