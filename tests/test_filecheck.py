"""Run the lit/FileCheck suite in tests/filecheck: one pytest test per lit file.

lit runs once per session, over the files the pytest run selected (`-k`, node ids), in parallel as
lit does (under `pytest -n N --dist loadfile` too: that sends this whole file to one worker); each
file's verdict and lit's output for it are then reported by its own test, so a red run names the
failing .mlir file instead of one verdict for all of them.

lit's `lasscc` / `xdsl-opt` / `filecheck` commands run through a fork server that imported them once
(tests/lit_zygote.py, the `lit_zygote` fixture): ~0.1-0.7 s of imports less for each of the ~550
commands.  `LASSCC_LIT_NO_ZYGOTE=1` runs the plain commands instead.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lit_zygote as zygote_server  # noqa: E402 -- tests/lit_zygote.py, beside this file

REPO_ROOT = Path(__file__).resolve().parent.parent
LIT_ROOT = REPO_ROOT / "tests" / "filecheck"
LIT_FILES = sorted(
    p.relative_to(LIT_ROOT).as_posix() for p in LIT_ROOT.rglob("*.mlir") if "Output" not in p.relative_to(LIT_ROOT).parts
)


# xdist modes that send all of this file's tests to one worker: that worker runs lit once over them
# (lit runs its files in parallel itself), as a run without xdist does
_WHOLE_FILE_DISTS = ("loadfile", "loadscope")


@pytest.fixture(scope="session")
def lit_zygote(tmp_path_factory):
    """(socket, log) of the fork server for lit's tools, or None for the plain commands
    (`LASSCC_LIT_NO_ZYGOTE=1`).  The log holds the tracebacks of a failed hand-over; a failing
    file's report shows it."""
    if zygote_server.DISABLED:
        yield None
        return
    log = tmp_path_factory.mktemp("lit_zygote") / "server.log"
    with zygote_server.running(log) as path:
        yield path, log


@pytest.fixture(scope="session")
def lit_results(request, tmp_path_factory, lit_zygote) -> dict[str, tuple[str, str]]:
    """{relative file: (verdict, lit's message)} for every lit file this pytest run selected."""
    if importlib.util.find_spec("lit") is None:
        pytest.skip("lit is not installed (pip install -e '.[test]')")
    worker = getattr(request.config, "workerinput", None)  # set on an xdist worker (tests/conftest.py)
    if worker is not None and worker.get("lasscc_dist") not in _WHOLE_FILE_DISTS:
        # under xdist's item-by-item modes every worker holds every item but runs only some: each
        # test runs lit on its own file instead
        return {}
    selected = sorted(
        {item.callspec.params["lit_file"] for item in request.session.items if item.originalname == "test_lit_file"}
    )
    return _run_lit(selected, tmp_path_factory.mktemp("lit") / "lit.xml", lit_zygote)


def _run_lit(selected: list[str], xml: Path, zygote: tuple[str, Path] | None) -> dict[str, tuple[str, str]]:
    env = dict(os.environ)
    env.pop("LASSCC_LIT_ZYGOTE", None)
    if zygote:
        env["LASSCC_LIT_ZYGOTE"] = zygote[0]  # tests/filecheck/lit.cfg.py's substitutions use it
    proc = subprocess.run(
        # `python -m lit` has no __main__ in the PyPI package; call its entry point directly.
        [sys.executable, "-c", "import sys; from lit.main import main; sys.exit(main())", "-q",
         f"--xunit-xml-output={xml}", *(str(LIT_ROOT / f) for f in selected)],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    # lit's xunit report names a file by classname "<suite>.<dir with '.' as '_'>" (the suite's own
    # name again for the root folder) and name "<file>": key our relative paths the same way.
    suite = "lasscc"
    key_of = {
        (f"{suite}.{(f.rpartition('/')[0] or suite).replace('.', '_')}", f.rpartition("/")[2]): f for f in selected
    }
    results: dict[str, tuple[str, str]] = {}
    if xml.exists():
        for case in ET.parse(xml).getroot().iter("testcase"):
            rel = key_of.get((case.get("classname", ""), case.get("name", "")))
            if rel is None:
                continue
            failure, skipped = case.find("failure"), case.find("skipped")
            if failure is not None:
                results[rel] = ("failed", failure.text or "")
            elif skipped is not None:
                results[rel] = ("skipped", skipped.get("message", ""))
            else:
                results[rel] = ("passed", "")
    results["<lit>"] = (str(proc.returncode), proc.stdout)
    return results


@pytest.mark.parametrize("lit_file", LIT_FILES)
def test_lit_file(lit_file, lit_results, lit_zygote, tmp_path):
    if not lit_results:  # xdist: this worker runs lit on this file alone
        lit_results = _run_lit([lit_file], tmp_path / "lit.xml", lit_zygote)
    if lit_file not in lit_results:
        code, out = lit_results["<lit>"]
        pytest.fail(f"lit reported no result for {lit_file} (lit exit {code}):\n{out}")
    verdict, message = lit_results[lit_file]
    if verdict == "skipped":
        pytest.skip(message)
    if verdict != "passed" and lit_zygote and lit_zygote[1].stat().st_size:  # a command the server failed to run
        message += f"\nthe lit zygote's log ({lit_zygote[1]}):\n{lit_zygote[1].read_text()}"
    assert verdict == "passed", f"tests/filecheck/{lit_file}:\n{message}"


def test_every_lit_file_is_collected():
    """The glob above and lit's own discovery (config.suffixes) agree on what the suite holds."""
    assert LIT_FILES, "no lit files found"
    assert all(f.endswith(".mlir") for f in LIT_FILES)
