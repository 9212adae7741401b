#!/usr/bin/env python3
"""Spill scan: the configs at the edge of lasscc's register model, assembled with `ptxas -v`.

For every A/B type (f16, bf16, f16 accumulated in f16, tf32, i8) and A/B layout (TN, NT, NN, TT;
D row-major, or --d-layouts row,col), it walks a candidate set of configs (the `lasscc tune` tiles,
tall and small warp tiles, 2 stages to the most that fit, prefetch 0 / 1, full and narrowest
`align`), orders them by lasscc.resources.register_estimate, and compiles the --accepted accepted
configs with the highest estimates and the --rejected rejected ones with the lowest (compiled with
the register check switched off, to show the rejection is deserved).  A table row per compile:

    type  layout  D  threadblock/warp/stages/prefetch/align  estimate  verdict  ptxas registers, spill bytes

The scan's claim: every accepted config spills 0 B.  Exit status 1 when one does.

    python scripts/spill_scan.py                          # sm_90a, D row-major
    python scripts/spill_scan.py --arch sm_80 --types i8 --layouts NT,TT
    python scripts/spill_scan.py --jobs 2 --accepted 1 --rejected 0

Each compile is a lasscc.api.gemm call (the compile cache serves repeats) in a worker process.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing as mp
import sys

# (A/B MLIR type, D type, accumulator) per scanned type
TYPES = {"f16": ("f16", "f32", None), "bf16": ("bf16", "f32", None), "f16acc": ("f16", "f16", "f16"),
         "tf32": ("f32", "f32", None), "i8": ("i8", "i32", None)}
LAYOUTS = ("TN", "NT", "NN", "TT")
# (threadblock M, N, K bytes per row, warp M, N): lasscc tune's SEARCH_TILES plus tall (128x32),
# wide (32x128) and 2-warp tiles; K is given in bytes and converted to the type's elements
TILES = [
    (128, 128, 64, 64, 64), (128, 256, 64, 64, 64), (256, 128, 64, 64, 64),
    (128, 128, 128, 64, 64), (128, 256, 128, 64, 64), (256, 128, 128, 64, 64),
    (64, 64, 64, 32, 32), (128, 64, 64, 64, 32),
    (128, 256, 128, 128, 32), (256, 128, 128, 32, 128), (32, 128, 32, 32, 64), (128, 32, 32, 64, 32),
]
STAGES = (2, 3, 4)
# issue 12's reproducers (type, BLAS layout, D layout, threadblock, warp, stages, prefetch, align in
# the caller's order), always scanned: they spilled 180-224 B before the register model counted
# MN-major loads and staged copies with their own columns
ISSUE = [
    ("i8", "NT", "row", (32, 128, 32), (32, 64, 32), 2, 0, (1, 1)),
    ("i8", "NN", "col", (32, 128, 32), (32, 64, 32), 2, 0, (1, 1)),
    ("i8", "NT", "row", (128, 256, 128), (128, 32, 128), 3, 1, None),
]
PREFETCH = (0, 1)


def candidates(ab: str):
    """GemmConfigs of the candidate set for A/B type `ab`."""
    from lasscc.config import GemmConfig, align_choices
    from lasscc.layout import elem_bytes, mma_shape

    eb, inst = elem_bytes(ab), mma_shape(ab)
    full, narrow = align_choices(ab)[0], align_choices(ab)[-1]
    for (bm, bn, kb, wm, wn), s, p, al in itertools.product(TILES, STAGES, PREFETCH, (None, (narrow, narrow))):
        if p and s == 2:
            continue
        bk = kb // eb
        yield GemmConfig(threadblock=(bm, bn, bk), warp=(wm, wn, bk), instruction=inst, stages=s, prefetch=p,
                         align=al if al != (full, full) else None)


def kernel_majors(layout: str, d_layout: str) -> tuple[str, str]:
    """The kernel's A / B tile majors for BLAS `layout` (lasscc.api.LAYOUTS) and D layout: a
    column-major A and a row-major B are MN-major; a column-major D swaps the operands."""
    from lasscc.api import LAYOUTS

    la, lb = LAYOUTS[layout]
    a, b = ("mn" if la == "col" else "k"), ("mn" if lb == "row" else "k")
    return (b, a) if d_layout == "col" else (a, b)


def plan(ab: str, acc, layout: str, d_layout: str, arch: str, n_ok: int, n_bad: int):
    """[(config, estimate, accepted, message)]: the top n_ok accepted and bottom n_bad rejected."""
    from lasscc.diagnostics import LassError
    from lasscc.resources import REGISTER_BUDGET, prefetch_applies, register_estimate

    majors = kernel_majors(layout, d_layout)
    ok, bad, seen = [], [], set()
    for cfg in candidates(ab):
        pf = prefetch_applies(cfg, ab, majors, acc)
        if cfg.prefetch and not pf:
            continue  # the pass builds the prefetch 0 kernel: scanned as that one
        try:
            cfg.validate(arch, ab_type=ab, majors=majors, acc_type=acc)
        except LassError as e:
            est = register_estimate(cfg, ab, majors, acc, pf).total
            if est > REGISTER_BUDGET and "registers per thread" in str(e):
                bad.append((cfg, est, False, str(e)))
            continue
        est = register_estimate(cfg, ab, majors, acc, pf).total
        key = (cfg.threadblock, cfg.warp, cfg.stages, cfg.prefetch, cfg.align)
        if key not in seen:
            seen.add(key)
            ok.append((cfg, est, True, ""))
    ok.sort(key=lambda r: -r[1])
    bad.sort(key=lambda r: r[1])
    return ok[:n_ok] + bad[:n_bad]


def issue_jobs(arch: str):
    """The ISSUE reproducers as scan jobs, with the validator's verdict."""
    from lasscc.config import GemmConfig
    from lasscc.diagnostics import LassError
    from lasscc.layout import mma_shape
    from lasscc.resources import prefetch_applies, register_estimate

    out = []
    for name, layout, dl, tb, w, st, p, al in ISSUE:
        ab, _, acc = TYPES[name]
        majors = kernel_majors(layout, dl)
        kal = None if al is None else (al[::-1] if dl == "col" else al)  # the kernel's order
        cfg = GemmConfig(threadblock=tb, warp=w, instruction=mma_shape(ab), stages=st, prefetch=p, align=kal)
        est = register_estimate(cfg, ab, majors, acc, prefetch_applies(cfg, ab, majors, acc)).total
        try:
            cfg.validate(arch, ab_type=ab, majors=majors, acc_type=acc)
            ok = True
        except LassError:
            ok = False
        out.append((name, layout, dl, cfg, est, ok, arch))
    return out


def compile_row(job):
    """Compile one config (rejected ones with the register check off); the table row's fields."""
    name, layout, d_layout, cfg, est, accepted, arch = job
    import lasscc.resources as R
    from lasscc import api
    from lasscc.emit import ptxas_info

    ab, d, acc = TYPES[name]
    if not accepted:
        R.REGISTER_BUDGET = 10**6  # measure what the rejected config would have done
    align = None if cfg.align is None else (cfg.align[::-1] if d_layout == "col" else cfg.align)  # caller's order
    try:
        k = api.gemm(ab, d_dtype=d, layout=layout, threadblock=cfg.threadblock, warp=cfg.warp, stages=cfg.stages,
                     arch=arch, d_layout=d_layout, prefetch=cfg.prefetch, acc=acc, align=align)
        info = ptxas_info(k.ptx, arch)
        res = (info.registers, info.spill_stores + info.spill_loads, info.stack_bytes) if info else None
    except Exception as e:  # noqa: BLE001 -- a row of the table, not a crash
        res = f"error: {str(e).splitlines()[0][:120]}"
    return job, res


def label(cfg) -> str:
    tb, w = "x".join(map(str, cfg.threadblock)), "x".join(map(str, cfg.warp))
    al = "" if cfg.align is None else f"/a{cfg.align[0]},{cfg.align[1]}"
    return f"{tb}/{w}/s{cfg.stages}/p{cfg.prefetch}{al}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", default="sm_90a", choices=("sm_80", "sm_90a"))
    ap.add_argument("--types", default=",".join(TYPES))
    ap.add_argument("--layouts", default=",".join(LAYOUTS))
    ap.add_argument("--d-layouts", default="row")
    ap.add_argument("--accepted", type=int, default=2, help="accepted configs per case, highest estimate first")
    ap.add_argument("--rejected", type=int, default=1, help="rejected configs per case, lowest estimate first")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-issue", dest="issue", action="store_false", help="leave out issue 12's reproducers")
    ap.add_argument("--dry-run", action="store_true", help="print the plan, compile nothing")
    args = ap.parse_args(argv)
    jobs = []
    if args.issue:
        jobs += issue_jobs(args.arch)
    for name, layout, dl in itertools.product(args.types.split(","), args.layouts.split(","),
                                              args.d_layouts.split(",")):
        ab, _, acc = TYPES[name]
        for cfg, est, accepted, _msg in plan(ab, acc, layout, dl, args.arch, args.accepted, args.rejected):
            jobs.append((name, layout, dl, cfg, est, accepted, args.arch))
    print(f"| type | A,B | D | config | estimate | verdict | ptxas ({args.arch}) |")
    print("|---|---|---|---|---|---|---|")
    bad = 0

    def row(job, res):
        nonlocal bad
        name, layout, dl, cfg, est, accepted, _ = job
        if res is None:
            out = "not compiled" if args.dry_run else "ptxas not on PATH"
        elif isinstance(res, str):
            out = res
        else:
            regs, spill, stack = res
            out = f"{regs} regs, {spill} B spill, {stack} B stack"
            if accepted and (spill or stack):
                bad += 1
                out += "  <-- SPILL"
        print(f"| {name} | {layout} | {dl} | {label(cfg)} | {est} | {'accepted' if accepted else 'rejected'} | {out} |",
              flush=True)

    if args.dry_run:
        for job in jobs:
            row(job, None)
        return 0
    with mp.Pool(args.jobs) as pool:
        for job, res in pool.imap(compile_row, jobs):
            row(job, res)
    print(f"\n{len(jobs)} compiles; accepted configs that spilled: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
