"""The compile cache: a finished compile (PTX, LLVM IR, every stage's IR, the kernel specs) stored
under a key of everything that decides it, so `lasscc compile` / `lasscc run` / `lasscc.compile`
skip the passes (seconds) when nothing changed.

    key = sha256(input IR text after the CLI overrides, compiler version, CompileOptions.hash())

`CompileOptions` (frozen: the target arch and the pass list, after Triton's `CUDAOptions`) holds
everything besides the input text that decides what a compile produces.

The compiler version is the package version plus a digest of the compiler's own sources
(`lasscc/*.py`, `dialects/`, `passes/`) and the xdsl / llvmlite versions: editing a pass, or
upgrading xDSL, changes every key, so the cache never hands back PTX of an older compiler.

Location: `$LASSCC_CACHE_DIR`, else `$XDG_CACHE_HOME/lasscc`, else `~/.cache/lasscc`; one gzip'd
JSON file per entry (`<key>.json.gz`), written atomically (temporary file + rename).  An entry that
does not read back (truncated, not JSON, wrong fields, another input) is ignored, recompiled and
rewritten.  Only successful compiles are stored.  Delete the folder to empty the cache.

An entry holds every stage's IR text when its compile needed them (the API, `--dump-dir`, `--emit
mlir`); a compile that needed only the PTX (`lasscc compile`, `lasscc run`) prints no IR and stores a
PTX-only entry (printing 16,000 ops after each pass cost ~2 s).  `--dump-dir` works on a hit of a
full entry too: the stage texts are written out under the same names `lasscc.driver.compile_module`
uses.
"""

from __future__ import annotations

import os  # gzip, hashlib, json, tempfile: imported where used (a --no-cache compile needs none)
from dataclasses import asdict, dataclass, fields
from pathlib import Path

FORMAT = 1  # bump when the entry layout changes
# top-level modules of the lasscc package that do not decide what a compile produces (every other
# module, including a new one, is part of the digest; runtime/, interp/ and explain/ are sub-packages,
# not hashed)
_NOT_COMPILER = {"__init__.py", "__main__.py", "api.py", "cache.py", "cli.py", "dataclass_code.py", "outfile.py", "timing.py", "tune.py"}
_SOURCE_DIGEST: str | None = None


def cache_dir() -> Path:
    """Where entries live: $LASSCC_CACHE_DIR, $XDG_CACHE_HOME/lasscc or ~/.cache/lasscc."""
    env = os.environ.get("LASSCC_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "lasscc"


def _package_version() -> str:
    try:
        from importlib.metadata import version

        return version("lasscc")
    except Exception:  # noqa: BLE001 -- not installed (run from a checkout): the source digest decides
        return "0+unknown"


def _dist_version(name: str) -> str:
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:  # noqa: BLE001
        return "?"


def _source_digest() -> str:
    """sha256 over the compiler's sources: lasscc's top-level modules (but _NOT_COMPILER), dialects, passes."""
    global _SOURCE_DIGEST
    if _SOURCE_DIGEST is None:
        import hashlib

        import lasscc
        import lasscc.dialects
        import lasscc.passes

        h = hashlib.sha256()
        folders = [Path(lasscc.__file__).parent, *map(Path, lasscc.dialects.__path__), *map(Path, lasscc.passes.__path__)]
        for folder in folders:
            for f in sorted(folder.glob("*.py")):
                if folder == folders[0] and f.name in _NOT_COMPILER:
                    continue
                h.update(f"{folder.name}/{f.name}\0".encode())
                h.update(f.read_bytes())
        _SOURCE_DIGEST = h.hexdigest()
    return _SOURCE_DIGEST


def compiler_version() -> str:
    """'<package version>+src.<digest>;xdsl=<v>;llvmlite=<v>': changes whenever the compiler does."""
    return (f"{_package_version()}+src.{_source_digest()[:16]};xdsl={_dist_version('xdsl')};"
            f"llvmlite={_dist_version('llvmlite')}")


@dataclass(frozen=True)
class CompileOptions:
    """Everything besides the input text that decides what a compile produces: the target and the
    pass list (`passes` empty: lasscc.driver.PASS_NAMES).  Tiling overrides are not here: the
    CLI and the API write them into the input's `config` first.  A new field is part of `hash()`
    and so of every cache key."""

    arch: str = "sm_80"
    passes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.passes:
            from lasscc.driver import PASS_NAMES

            object.__setattr__(self, "passes", tuple(PASS_NAMES))
        object.__setattr__(self, "passes", tuple(self.passes))

    def hash(self) -> str:
        """sha256 (hex) of every field, by name."""
        import hashlib

        h = hashlib.sha256()
        for f in fields(self):
            h.update(f"{f.name}={getattr(self, f.name)!r}\0".encode())
        return h.hexdigest()


def cache_key(input_text: str, options: CompileOptions) -> str:
    """sha256 of (input IR text, compiler version, options.hash()), as hex."""
    import hashlib

    h = hashlib.sha256()
    for part in (f"lasscc-cache-{FORMAT}", input_text, compiler_version(), options.hash()):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def entry_path(key: str) -> Path:
    return cache_dir() / f"{key}.json.gz"


# ---- entries ----------------------------------------------------------------------------------


def kernel_meta(module) -> dict[str, dict]:
    """{kernel name: {"alpha", "beta", "d_type", "config": GemmConfig.as_dict()}} from the
    `#lass.kernel` facts the passes keep on every kernel function."""
    from lasscc.dialects.lass import kernel_facts

    out = {}
    for fn in getattr(module, "ops", []):
        name = getattr(getattr(fn, "sym_name", None), "data", None)
        facts = kernel_facts(fn) if name is not None else None
        if facts is not None:
            out[name] = {"alpha": facts.alpha, "beta": facts.beta, "d_type": facts.d_type,
                         "config": facts.config.as_dict()}
    return out


def _encode(key: str, input_text: str, arch: str, res) -> bytes:
    entry = {
        "format": FORMAT,
        "key": key,
        "arch": arch,
        "version": compiler_version(),
        "input": input_text,
        "stages": res.stages,
        "llvm_ir": res.llvm_ir,
        "ptx": res.ptx,
        "specs": [asdict(s) for s in res.specs],
        "kernels": getattr(res, "kernel_meta", None) or kernel_meta(res.module),
    }
    import gzip
    import json

    return gzip.compress(json.dumps(entry).encode(), compresslevel=5)


def _decode(raw: bytes, key: str, input_text: str):
    """The entry as a dict, or None when it is corrupt or belongs to another input."""
    import gzip
    import json

    from lasscc.config import KernelSpec

    try:
        entry = json.loads(gzip.decompress(raw).decode())
        if not isinstance(entry, dict) or entry.get("format") != FORMAT or entry.get("key") != key:
            return None
        if entry.get("input") != input_text:
            return None
        stages, specs, kernels = entry["stages"], entry["specs"], entry["kernels"]
        if not (isinstance(stages, dict) and all(isinstance(v, str) for v in stages.values())):
            return None
        if not (isinstance(entry["ptx"], str) and isinstance(entry["llvm_ir"], str) and entry["ptx"]):
            return None
        if not isinstance(kernels, dict) or not all(isinstance(v, dict) and "config" in v for v in kernels.values()):
            return None
        entry["specs"] = [KernelSpec(**{**s, "params": tuple(s["params"]),
                                        "epilogue": tuple(tuple(x) for x in s.get("epilogue", ()))}) for s in specs]
        if not entry["specs"]:
            return None
        return entry
    except (OSError, EOFError, ValueError, TypeError, KeyError, AttributeError, UnicodeDecodeError):
        return None


def load(key: str, input_text: str):
    """The cached entry for `key` (a dict with stages, llvm_ir, ptx, specs, kernels) or None."""
    path = entry_path(key)
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    return _decode(raw, key, input_text)


def store(key: str, input_text: str, arch: str, res) -> Path | None:
    """Write the entry atomically; None (and no error) when the cache folder is not writable."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        import tempfile

        data = _encode(key, input_text, arch, res)
        fd, tmp = tempfile.mkstemp(dir=str(folder), prefix=".tmp-", suffix=".json.gz")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, entry_path(key))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return None
    return entry_path(key)


def clear() -> int:
    """Delete every entry; returns how many were removed."""
    n = 0
    for f in cache_dir().glob("*.json.gz"):
        try:
            f.unlink()
            n += 1
        except OSError:
            pass
    return n


# ---- the compile -----------------------------------------------------------------------------


class CachedModule:
    """Stand-in for the final ModuleOp of a cache hit (parsing the LLVM-level IR takes seconds).

    `str()` is the cached text.  `.ops` comes from the shortest stage's IR that holds the kernel
    (fast): from lasscc-tile-threadblock on every stage has the kernel functions under the same names
    with the same `lass.*` attributes (the kernel ABI is fixed), which is what `lasscc run` reads.  Any other attribute
    parses the final IR once and answers from the real module.
    """

    def __init__(self, text: str, stages: dict[str, str], filename: str):
        self._text, self._stages, self._filename = text, stages, filename
        self._small = None
        self._full = None

    def __str__(self) -> str:
        return self._text

    @property
    def ops(self):
        if self._full is not None:
            return self._full.ops
        if self._small is None:
            from lasscc.dialects.lass import KERNEL_ATTR
            from lasscc.source import parse_mlir

            # the shortest stage that already holds the kernel (stages before tile-threadblock do not)
            kernels = [t for t in self._stages.values() if KERNEL_ATTR in t] or [self._text]
            smallest = min(kernels, key=len)
            self._small = parse_mlir(smallest, self._filename)
        return self._small.ops

    def parsed(self):
        """The real ModuleOp of the final IR (parsed on first use)."""
        if self._full is None:
            from lasscc.source import parse_mlir

            self._full = parse_mlir(self._text, self._filename)
        return self._full

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.parsed(), name)


def cached_compile(module, arch: str = "sm_80", filename: str = "<input>", dump_dir: Path | None = None,
                   use_cache: bool = True, keep_stages: bool = True, verify_each: bool = False):
    """`lasscc.driver.compile_module` through the cache (key: cache_key with CompileOptions(arch)).

    Returns a CompileResult with two more attributes: `cache_hit` (bool) and `kernel_meta`
    ({kernel: {"alpha", "beta", "d_type", "config"}}, see kernel_meta).  On a hit `module` is left as it was and the result's `.module`
    is a CachedModule; on a miss (or with use_cache=False) this is compile_module itself, whose
    result is then stored.  Errors are never cached: a bad input fails the same way every time.
    `keep_stages=False` (the caller reads only the PTX, LLVM IR, specs and kernel_meta) skips
    printing the IR after each pass (seconds): the result's `stages` is empty, a miss stores a
    PTX-only entry (`stages` {}), and the result's `.module` on a hit of such an entry is None.
    A caller that needs the texts (`keep_stages`, or a `dump_dir`) treats a PTX-only entry as a
    miss and replaces it with a full one.  `verify_each` (debugging the passes) compiles afresh,
    verifying after every pass, and stores the result.
    """
    from lasscc import timing
    from lasscc.driver import PASS_NAMES, CompileResult, compile_module, drop_non_gemm_functions, select_family

    drop_non_gemm_functions(module)  # before the key, so a hit prints the same notes as a miss
    select_family(module, arch, filename)  # the instruction family (sm_90a), its notes likewise
    if dump_dir is not None:
        dump_dir = Path(dump_dir)
    if not use_cache:
        res = compile_module(module, arch, filename, dump_dir, keep_stages, verify_each)
        res.cache_hit = False
        res.kernel_meta = kernel_meta(res.module)
        return res
    with timing.phase("cache lookup"):
        input_text = str(module)
        key = cache_key(input_text, CompileOptions(arch, tuple(PASS_NAMES)))
        entry = None if verify_each else load(key, input_text)
    need_stages = keep_stages or dump_dir is not None
    full = entry is not None and set(entry["stages"]) == set(PASS_NAMES)
    if full or (entry is not None and not entry["stages"] and not need_stages):
        module = CachedModule(entry["stages"][PASS_NAMES[-1]], entry["stages"], filename) if full else None
        res = CompileResult(module, dict(entry["stages"]) if need_stages else {}, entry["llvm_ir"],
                            entry["ptx"], list(entry["specs"]))
        res.cache_hit = True
        res.kernel_meta = entry["kernels"]
        if dump_dir is not None:
            from lasscc.driver import write_dumps  # one place for the dump names

            write_dumps(dump_dir, input_text, res.stages, res.llvm_ir, res.ptx)
        return res
    res = compile_module(module, arch, filename, dump_dir, need_stages, verify_each)
    res.cache_hit = False
    res.kernel_meta = kernel_meta(res.module)
    with timing.phase("cache store"):
        store(key, input_text, arch, res)
    return res
