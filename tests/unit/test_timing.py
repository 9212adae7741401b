"""`--timing` (the phase table on stderr) and verification: once after the pipeline by default (for
`lasscc compile`, LLVM's parser and verifier in its place; xDSL's verifier only when LLVM rejects),
after every pass with `--verify-each`; an invalid IR names the pass that produced it either way."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects import func

from lasscc import driver
from lasscc.cli import main
from lasscc.passes.lower_to_llvm import LowerToLLVMPass
from lasscc.passes.tile_threadblock import TileThreadblockPass

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "gemm.mlir"
SMALL = ROOT / "examples" / "gemm_small_tiles.mlir"  # the cheapest full compile of the examples
FRONT = "lasscc-import-linalg,lasscc-tile-threadblock,lasscc-pipeline"
ROW = re.compile(r"^\s+(\d+\.\d{4}) \(\s*(\d+\.\d)%\)\s+(\d+\.\d{4}) \(\s*(\d+\.\d)%\)  ( *)(\S.*)$")


def _table(err: str) -> list[tuple[float, float, int, str]]:
    """(cpu, wall, depth, name) of every row of the report in `err`; asserts the header."""
    assert "lasscc execution time report" in err
    assert re.search(r"Total Execution Time: \d+\.\d{4} seconds", err)
    assert "----User Time----  ----Wall Time----  ----Name----" in err
    rows = []
    for line in err.splitlines():
        m = ROW.match(line)
        if m:
            rows.append((float(m.group(1)), float(m.group(3)), len(m.group(5)) // 2, m.group(6)))
    return rows


def test_opt_timing_table(tmp_path, capsys):
    out = tmp_path / "o.mlir"
    assert main(["opt", "-p", FRONT, str(EXAMPLE), "-o", str(out), "--timing"]) == 0
    rows = _table(capsys.readouterr().err)
    names = [(d, n) for _, _, d, n in rows]
    # parse, then each pass with its rewrite / cse / dce nested, one verification, Rest, Total
    assert names[0] == (0, "parse")
    for p in FRONT.split(","):
        i = names.index((0, p))
        assert names[i + 1:i + 4] == [(1, "rewrite"), (1, "cse"), (1, "dce")]
    assert [n for d, n in names if n == "verify"] == ["verify"]  # once, after the last pass
    assert names[-3:] == [(0, "imports"), (0, "Rest"), (0, "Total")]
    total = rows[-1]
    assert sum(r[1] for r in rows if r[2] == 0 and r[3] != "Total") == pytest.approx(total[1], abs=2e-3)
    for i, (cpu, wall, depth, name) in enumerate(rows):  # nested phases fit in their parent
        if depth == 0 and name not in ("imports", "Rest", "Total"):
            children = []  # the depth-1 rows right after it (none after `verify input`: not the next pass's)
            for r in rows[i + 1:]:
                if r[2] != 1:
                    break
                children.append(r)
            assert sum(r[1] for r in children) <= wall + 1e-3
    assert out.read_text().startswith("builtin.module") or "func.func" in out.read_text()


def test_compile_timing_table(tmp_path, capsys):
    ptx = tmp_path / "k.ptx"
    assert main(["compile", str(SMALL), "-o", str(ptx), "--no-cache", "--timing"]) == 0
    names = [n for _, _, d, n in _table(capsys.readouterr().err) if d == 0]
    assert names == ["parse", "verify input", *driver.PASS_NAMES, "write LLVM IR", "LLVM parse", "LLVM verify",
                     "LLVM optimize (function simplification)", "NVPTX emit", "imports", "Rest", "Total"]
    assert ".entry" in ptx.read_text()


STARTUP = ["python start-up (interpreter, site)", "import lasscc.cli", "options"]


def test_console_timing_shows_the_start_up_and_the_imports(tmp_path):
    """`lasscc compile --timing` as its own process (the console entry point, os._exit at the end):
    the start-up rows come first, the modules loaded outside the phases are the `imports` row (a
    fresh process loads xDSL's dialects, the passes and llvmlite there), and the top-level rows add
    up to Total, which is the whole process up to the report (CPU: its process_time)."""
    ptx = tmp_path / "k.ptx"
    code = ("import sys, time; sys.argv = ['lasscc', 'compile', sys.argv[1], '-o', sys.argv[2], '--no-cache', "
            "'--timing']; import lasscc.cli; _exit = lasscc.cli.os._exit; "
            "lasscc.cli.os._exit = lambda rc: print('cpu', time.process_time(), file=sys.stderr) or _exit(rc); "
            "lasscc.cli.console_main()")
    r = subprocess.run([sys.executable, "-c", code, str(SMALL), str(ptx)], capture_output=True, text=True,
                       timeout=300, env={**os.environ, "LASSCC_CACHE_DIR": str(tmp_path / "cache")})
    assert r.returncode == 0, r.stderr
    rows = _table(r.stderr)
    top = [(cpu, wall, name) for cpu, wall, depth, name in rows if depth == 0]
    assert [n for _, _, n in top[:3]] == STARTUP and [n for _, _, n in top[-3:]] == ["imports", "Rest", "Total"]
    assert top[3][2] == "parse"
    by_name = {n: (c, w) for c, w, n in top}
    assert by_name["imports"][0] > 0.5 * by_name["LLVM optimize (function simplification)"][0]  # the lazily loaded modules
    assert by_name[STARTUP[0]][0] > 0.005 and by_name["import lasscc.cli"][0] > 0.002
    total_cpu, total_wall = by_name["Total"]
    assert sum(c for c, _, n in top if n != "Total") == pytest.approx(total_cpu, abs=2e-3)
    assert sum(w for _, w, n in top if n != "Total") == pytest.approx(total_wall, abs=2e-3)
    end_cpu = float(r.stderr.rsplit("cpu ", 1)[1])  # the process's CPU at os._exit, after the report
    assert total_cpu <= end_cpu < total_cpu + 0.05
    assert ".entry" in ptx.read_text()


def test_in_process_main_has_no_start_up_rows(tmp_path, capsys):
    """main() called inside another program (here pytest) reports only its own time: no start-up rows."""
    assert main(["opt", "-p", FRONT, str(EXAMPLE), "-o", str(tmp_path / "o.mlir"), "--timing"]) == 0
    names = [n for _, _, d, n in _table(capsys.readouterr().err) if d == 0]
    assert not set(STARTUP) & set(names)


def test_imports_row_counts_module_loads_outside_phases_only(tmp_path):
    """A module first loaded outside the phases is in `imports`, one loaded inside a phase stays in
    that phase; the import hook is in place only while a report is collected."""
    import importlib
    import io

    from lasscc import timing

    for name, text in (("slow_outside", "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.05: pass\n"),
                       ("slow_inside", "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.03: pass\n")):
        (tmp_path / f"{name}.py").write_text(text)
    sys.path.insert(0, str(tmp_path))
    hook = sys.modules["_frozen_importlib"]._find_and_load
    try:
        out = io.StringIO()
        with timing.report_to(out):
            assert sys.modules["_frozen_importlib"]._find_and_load is not hook
            importlib.import_module("slow_outside")
            with timing.phase("work"):
                importlib.import_module("slow_inside")
        assert sys.modules["_frozen_importlib"]._find_and_load is hook
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("slow_outside", None)
        sys.modules.pop("slow_inside", None)
    rows = {n: c for c, _, d, n in _table(out.getvalue()) if d == 0}
    assert 0.05 <= rows["imports"] < 0.075
    assert rows["work"] >= 0.03 and rows["Rest"] < 0.02


def test_no_timing_no_table(tmp_path, capsys):
    assert main(["opt", "-p", FRONT, str(EXAMPLE), "-o", str(tmp_path / "o.mlir")]) == 0
    assert capsys.readouterr().err == ""


def _count_verifications(monkeypatch) -> list[str | None]:
    calls: list[str | None] = []
    real = driver.verify_module

    def counting(module, filename="<input>", after=None):
        calls.append(after)
        return real(module, filename, after)

    monkeypatch.setattr(driver, "verify_module", counting)
    return calls


@pytest.mark.parametrize("verify_each,expect", [(False, 1), (True, 3)])
def test_verification_count(tmp_path, monkeypatch, verify_each, expect):
    calls = _count_verifications(monkeypatch)
    argv = ["opt", "-p", FRONT, str(EXAMPLE), "-o", str(tmp_path / "o.mlir")] + ["--verify-each"] * verify_each
    assert main(argv) == 0
    assert len(calls) == expect


def _break_tile_threadblock(monkeypatch) -> None:
    """lasscc-tile-threadblock that leaves the kernel without its func.return (invalid IR that the
    next passes do not look at)."""
    real = TileThreadblockPass.apply

    def broken(self, ctx, module):
        real(self, ctx, module)
        for op in list(module.walk()):
            if isinstance(op, func.ReturnOp):
                op.detach()
                op.erase()

    monkeypatch.setattr(TileThreadblockPass, "apply", broken)


@pytest.mark.parametrize("verify_each", [False, True])
def test_invalid_ir_names_the_pass(tmp_path, monkeypatch, capsys, verify_each):
    _break_tile_threadblock(monkeypatch)
    calls = _count_verifications(monkeypatch)
    out = tmp_path / "o.mlir"
    argv = ["opt", "-p", FRONT, str(EXAMPLE), "-o", str(out)] + ["--verify-each"] * verify_each
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "error:" in err and "(invalid IR after lasscc-tile-threadblock)" in err, err
    assert "Traceback" not in err
    assert str(EXAMPLE) in err.splitlines()[0]  # the place: the kernel function's line in the input
    assert not out.exists()
    # --verify-each stops right after the broken pass; the default runs all three, verifies once
    # at the end, then replays the passes on a copy of the input verifying each (to name the pass)
    assert calls == ([] if verify_each else [None]) + ["lasscc-import-linalg", "lasscc-tile-threadblock"]


def _break_lower_to_llvm(monkeypatch) -> None:
    """lasscc-lower-to-llvm that gives one `llvm.add` (i32) an i64 operand: invalid IR, in the last
    pass, that nothing after it looks at but the LLVM IR writer and LLVM."""
    real = LowerToLLVMPass.apply

    def broken(self, ctx, module):
        real(self, ctx, module)
        from xdsl.dialects import llvm

        for op in module.walk():
            if isinstance(op, llvm.SExtOp):
                add = op.next_op
                while add is not None and not isinstance(add, llvm.AddOp):
                    add = add.next_op
                if add is not None:
                    add.operands = [add.operands[0], op.results[0]]
                    return

    monkeypatch.setattr(LowerToLLVMPass, "apply", broken)


def test_compile_checks_the_lowered_ir_with_llvm_not_xdsl(tmp_path, monkeypatch, capsys):
    """A compile to PTX runs no xDSL verification after the passes (LLVM parses and verifies what the
    passes made); --verify-each verifies after every pass."""
    calls = _count_verifications(monkeypatch)
    assert main(["compile", str(SMALL), "-o", str(tmp_path / "k.ptx"), "--no-cache"]) == 0
    assert calls == []
    assert main(["compile", str(SMALL), "-o", str(tmp_path / "k.ptx"), "--verify-each"]) == 0
    assert calls == driver.PASS_NAMES
    calls.clear()
    assert main(["opt", "-p", FRONT, str(SMALL), "-o", str(tmp_path / "o.mlir")]) == 0
    assert calls == [None]  # lasscc opt still verifies its output


def test_invalid_lowered_ir_is_located_and_names_the_pass(tmp_path, monkeypatch, capsys):
    """Invalid IR from the last pass: LLVM rejects the IR written from it, then xDSL's verifier names
    the op (the lowered ops carry no source position: the op's name is its place) and the replay the
    pass -- the message --verify-each gives, and the verification after the passes gave."""
    _break_lower_to_llvm(monkeypatch)
    out = tmp_path / "k.ptx"
    errs = []
    for verify_each in (False, True):
        argv = ["compile", str(SMALL), "-o", str(out), "--no-cache"] + ["--verify-each"] * verify_each
        assert main(argv) == 2
        errs.append(capsys.readouterr().err)
    assert errs[0] == errs[1], errs
    assert errs[0].startswith("<unknown location> ('llvm.add'): error: operand 'rhs' at position 1 does not verify")
    assert "(invalid IR after lasscc-lower-to-llvm)" in errs[0] and "Traceback" not in errs[0], errs[0]
    assert not out.exists()


def test_llvm_rejecting_what_xdsl_accepts_is_an_error_not_a_traceback(tmp_path, monkeypatch, capsys):
    """IR that xDSL's verifier accepts but LLVM does not (here: the writer's output made invalid)
    is LLVM's error message, exit code 2."""
    from lasscc import emit

    real = emit.to_llvm_ir
    monkeypatch.setattr(emit, "to_llvm_ir", lambda m: real(m).replace("ret void", "ret i32 0", 1))
    out = tmp_path / "k.ptx"
    assert main(["compile", str(SMALL), "-o", str(out), "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert "error: LLVM rejected the LLVM IR" in err and "Traceback" not in err, err
    assert not out.exists()


def test_compile_verify_each_same_ptx(tmp_path):
    """--verify-each changes nothing in the output (and compiles afresh past the cache)."""
    a, b = tmp_path / "a.ptx", tmp_path / "b.ptx"
    assert main(["compile", str(SMALL), "-o", str(a)]) == 0
    assert main(["compile", str(SMALL), "-o", str(b), "--verify-each"]) == 0
    assert a.read_text() == b.read_text()


def test_no_tidy_up_after_a_pass_that_applied_to_nothing(tmp_path, capsys):
    """An mma.sync kernel: lasscc-warpgroup-mma and lasscc-hopper-smem apply to nothing (their apply
    returns False), so the driver runs no CSE / DCE after them; lasscc-warp-mma rewrote the kernel and
    is tidied.  The output is what the passes alone make either way."""
    passes = FRONT + ",lasscc-warp-mma,lasscc-warpgroup-mma,lasscc-hopper-smem"
    out = tmp_path / "o.mlir"
    assert main(["opt", "-p", passes, str(SMALL), "-o", str(out), "--timing"]) == 0
    rows = _table(capsys.readouterr().err)
    children: dict[str, list[str]] = {}
    parent = None
    for _, _, depth, name in rows:
        if depth == 0:
            parent = name
            children[name] = []
        else:
            children[parent].append(name)
    assert children["lasscc-warp-mma"] == ["rewrite", "cse", "dce"]
    assert children["lasscc-warpgroup-mma"] == ["rewrite"] and children["lasscc-hopper-smem"] == ["rewrite"]
    short = tmp_path / "short.mlir"
    assert main(["opt", "-p", FRONT + ",lasscc-warp-mma", str(SMALL), "-o", str(short)]) == 0
    assert out.read_text() == short.read_text()
