"""`lasscc explain` on the command line: its options and what it prints and writes."""

from __future__ import annotations

import sys

from lasscc.explain.facts import gemm_config, gemm_facts, kernel_config
from lasscc.explain.png import write_pngs
from lasscc.explain.report import DEFAULT_GRID, DEFAULT_K, explain, sections_for


def _parse_grid(text: str) -> tuple[int, int]:
    from lasscc.config import parse_shape

    return parse_shape(text, 2, "--grid")


def cmd_explain(args) -> int:
    from lasscc.options import load_input as _load

    module = _load(args)
    grid = _parse_grid(args.grid) if args.grid else DEFAULT_GRID
    if args.stage is not None:
        sections_for(args.stage)  # reject a bad name before any work
    if (args.m is None) != (args.n is None) or any(v is not None and v < 1 for v in (args.m, args.n)):
        from lasscc.diagnostics import LassError

        bad = "--m" if args.m is None or args.m < 1 else "--n"
        raise LassError(f"option {bad}: expected a positive size, with both --m and --n (the shape-aware default's "
                        f"M x N; K is --k)")
    chosen: list[str] = []
    if args.m is not None:  # the config lasscc run / bench would take for these sizes, and why
        from lasscc.defaults import apply_tuned as _apply_tuned
        from lasscc.streamk import H100_SMS

        chosen = _apply_tuned(module, args, args.m, args.n, args.k if args.k is not None else DEFAULT_K, None,
                              args.sms or H100_SMS)
    # before explain: compiling for the resources section lowers `module` in place
    from lasscc.driver import select_family

    select_family(module, args.arch, args.file)  # the instruction family, as the compile takes it
    info = gemm_config(module, args.arch, args.file)
    facts = gemm_facts(module, info)
    if args.m is not None and not args.grid:  # the tiles of M x N (the kernel's: D^T's when it swaps A and B)
        bm, bn = kernel_config(info, facts).threadblock[:2]
        rows, cols = (args.n, args.m) if facts.swap else (args.m, args.n)
        grid = (-(-rows // bm), -(-cols // bn))
    if args.k is not None and args.k < 1:
        from lasscc.diagnostics import LassError

        raise LassError(f"option --k: expected a positive size, got {args.k}")
    if args.sms is not None and args.sms < 1:
        from lasscc.diagnostics import LassError

        raise LassError(f"option --sms: expected a positive SM count, got {args.sms}")
    text = explain(module, args.arch, args.file, args.stage, grid, use_cache=not args.no_cache,
                   k=args.k if args.k is not None else DEFAULT_K, sms=args.sms, chosen=chosen)
    sys.stdout.write(text)
    if args.png:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("--png: matplotlib is not installed (pip install matplotlib); printed the text only", file=sys.stderr)
            return 0
        files = write_pngs(kernel_config(info, facts), args.png, args.arch, args.stage, grid, facts.ab, facts.acc,
                           facts.majors)
        for f in files:
            print(f"wrote {f}")
        if not files:
            print(f"--png: no pictures for --stage {args.stage}")
    return 0


def add_parser(sub, common) -> None:
    """Register `lasscc explain` on the CLI's subparsers (`common` adds FILE, --arch and the overrides)."""
    e = sub.add_parser("explain", help="explain the tiling: tile hierarchy, SMEM, registers, bank and lane maps")
    common(e)
    e.add_argument("--stage", help="only what this pass decides (a pass flag or short name: threadblock, pipeline, "
                                   "warp-mma, swizzle-smem, lower-to-llvm, ptx)")
    e.add_argument("--png", metavar="DIR", help="also draw the maps as PNG files in DIR (needs matplotlib)")
    e.add_argument("--grid", help="tile grid MxN of the rasterization example and the split-K / stream-K "
                                   "decomposition (default: the tiles of --m x --n, else 12x8)")
    e.add_argument("--k", type=int, help=f"K of the split-K / stream-K decomposition (default {DEFAULT_K})")
    e.add_argument("--m", type=int, help="with --n (and --k): an input without config takes the config `lasscc run` "
                                         "would for M x N x K (its tuned winner, else the shape-aware default), "
                                         "and explain says why")
    e.add_argument("--n", type=int, help="N of --m's sizes")
    e.add_argument("--sms", type=int, help="SM count of the GPU a stream-K kernel's persistent grid fills "
                                           "(default 132, an H100's)")
    e.set_defaults(fn=cmd_explain)
