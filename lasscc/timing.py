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

Two kinds of rows name what would otherwise hide in `Rest`:
- `imports`: the modules first loaded inside `report_to` but outside every phase (a compile loads
  xDSL's dialects, lasscc's passes and llvmlite lazily, after the options are read).  Measured by
  wrapping the import system's `_find_and_load` (called only for a module not yet in sys.modules)
  while a report is collected, outermost loads only; a module a phase loads stays in that phase.
- start-up rows (`startup_rows`, the CLI's `lasscc ... --timing`): the process before `report_to`:
  the interpreter with `site` up to lasscc's first line, importing lasscc.cli, reading the options.
  Their CPU is exact (process_time counts from the process start); the interpreter row's wall time
  starts at the kernel's process start time, which /proc gives to a clock tick (10 ms); without
  /proc that row has no wall time and the wall Total starts at lasscc's first line.
  The end of the process (flushing the output, `os._exit`: lasscc.cli.console_main) comes after
  the report is printed and is not in it.
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class _Row:
    name: str
    depth: int
    wall: float | None = 0.0  # None: not measured (a start-up row without /proc)
    cpu: float = 0.0


@dataclass
class Timer:
    rows: list[_Row] = field(default_factory=list)
    depth: int = 0
    imports: _Row = field(default_factory=lambda: _Row("imports", 0))  # module loads outside the phases

    def format(self, wall: float, cpu: float, startup: list[_Row] = ()) -> str:
        """The report: a header, the start-up rows, one line per phase (nested ones indented), the
        imports outside the phases, Rest and Total.  `wall` / `cpu` are the time inside report_to;
        Total adds the start-up rows (a wall time of None: not measured, left out of the wall
        figures)."""
        bar = "===" + "-" * 73 + "==="
        top = [*startup, *(r for r in self.rows if r.depth == 0), self.imports]
        rest = _Row("Rest", 0, max(wall - sum(r.wall for r in top[len(startup):]), 0.0),
                    max(cpu - sum(r.cpu for r in top[len(startup):]), 0.0))
        total = _Row("Total", 0, wall + sum(r.wall for r in startup if r.wall is not None),
                     cpu + sum(r.cpu for r in startup))
        lines = [bar, "lasscc execution time report".center(len(bar)).rstrip(), bar,
                 f"  Total Execution Time: {total.wall:.4f} seconds", "",
                 "  ----User Time----  ----Wall Time----  ----Name----"]
        for r in [*startup, *self.rows, self.imports, rest, total]:
            shown = f"{r.wall:8.4f} ({_pct(r.wall, total.wall)})" if r.wall is not None else f"{'-':>8} {'':8}"
            lines.append(f"  {r.cpu:8.4f} ({_pct(r.cpu, total.cpu)})  {shown}  {'  ' * r.depth}{r.name}")
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


_IMPORTS = sys.modules["_frozen_importlib"]  # importlib._bootstrap: what the import statement calls


def _timed_find_and_load(name, import_, _find_and_load=_IMPORTS._find_and_load):
    """importlib's _find_and_load (one module not yet loaded, with what it imports), its time added
    to the active report's `imports` row when no phase is open and no outer load is being timed."""
    timer = _ACTIVE
    if timer is None or timer.depth:
        return _find_and_load(name, import_)
    timer.depth += 1  # the loads this one makes, and phases it would open, are inside it
    w0, c0 = time.perf_counter(), time.process_time()
    try:
        return _find_and_load(name, import_)
    finally:
        timer.imports.wall += time.perf_counter() - w0
        timer.imports.cpu += time.process_time() - c0
        timer.depth -= 1


@contextmanager
def report_to(stream=None, enabled: bool = True, startup: list[_Row] = ()):
    """Collect phases in the enclosed block and print the report to `stream` (stderr) at its end,
    also when the block fails (the phases that ran are shown).  `startup`: rows of the process
    before the block (startup_rows), shown first and added to Total."""
    global _ACTIVE
    if not enabled:
        yield None
        return
    timer, outer = Timer(), _ACTIVE
    _ACTIVE = timer
    hooked = _IMPORTS._find_and_load is not _timed_find_and_load
    if hooked:
        _IMPORTS._find_and_load = _timed_find_and_load
    w0, c0 = time.perf_counter(), time.process_time()
    try:
        yield timer
    finally:
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        if hooked and _IMPORTS._find_and_load is _timed_find_and_load:
            _IMPORTS._find_and_load = _timed_find_and_load.__defaults__[0]
        _ACTIVE = outer
        (stream or sys.stderr).write(timer.format(wall, cpu, startup))


def process_age() -> float | None:
    """Seconds since this process started (the kernel's start time, to a clock tick), or None
    where /proc is not there."""
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22, starttime: ticks after boot
        return max(time.clock_gettime(time.CLOCK_BOOTTIME) - started, 0.0)
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def startup_rows(first: tuple[float, float], cli: tuple[float, float]) -> list[_Row]:
    """The rows of a `lasscc` process before its report starts: `first` = (perf_counter,
    process_time) at lasscc's first line (lasscc/__init__), `cli` = the same when main() starts.

    python start-up: the interpreter and `site` (CPU since the process started; wall from the
    kernel's start time, process_age); import lasscc.cli: what the console script imports;
    options: building the parser and reading the command line, up to now."""
    age = process_age()
    now_wall, now_cpu = time.perf_counter(), time.process_time()
    interp_wall = None if age is None else max(age - (now_wall - first[0]), 0.0)
    return [_Row("python start-up (interpreter, site)", 0, interp_wall, first[1]),
            _Row("import lasscc.cli", 0, cli[0] - first[0], cli[1] - first[1]),
            _Row("options", 0, now_wall - cli[0], now_cpu - cli[1])]
