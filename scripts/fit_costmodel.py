"""Fit lasscc.heuristics' wgmma cost model (`wgmma_time`, its constants marked "fit") to measured
timings: the markdown tables scripts/skinny_bench.py prints (the default run and --tile-sweep), by
least squares on log time (Nelder-Mead over log-scaled constants, seeded restarts).

    python3 scripts/fit_costmodel.py                       # rms error of the model as it stands
    python3 scripts/fit_costmodel.py --fit [LOG ...]       # refit (scipy), print the constants and each point

Without LOG arguments it reads session 8's logs (BENCHMARKS.md): benchmarks/skinny_tile_sweep_2026-11-24-s8.log
and benchmarks/skinny_costmodel_2026-11-24-s8.log (71 wgmma timings), and session 9's
benchmarks/skinny-2026-11-24-s9.log (28 more): f16 TN, H100, 132 SMs.  It also prints, for each shape of
issue 17's table, the default's pick beside the fastest measured config (`rank_check`).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SESSION8_LOGS = [ROOT / "benchmarks" / "skinny_tile_sweep_2026-11-24-s8.log",
                 ROOT / "benchmarks" / "skinny_costmodel_2026-11-24-s8.log"]
SESSION9_LOGS = [ROOT / "benchmarks" / "skinny-2026-11-24-s9.log"]
SESSION10_LOGS = [ROOT / "benchmarks" / "skinny-variants-streamk-2026-11-24-s10.log",
                  ROOT / "benchmarks" / "skinny-defaults-2026-11-24-s10.log"]
# session 11: cluster split-K (split_k_mode = "cluster"): skinny_bench --cluster
SESSION11_LOGS = [ROOT / "benchmarks" / "skinny-cluster-sweep-2026-11-24-s11.log"]
ALL_LOGS = SESSION8_LOGS + SESSION9_LOGS + SESSION10_LOGS + SESSION11_LOGS
FITTED = ("WG_BYTES_PER_SM", "WG_CTA_FIXED_S", "WG_REDUCE_BYTES_PER_S", "WG_REDUCE_LAUNCH_S", "WG_CLUSTER_FIXED_S",
          "WG_CLUSTER_BYTES_PER_S")
# issue 17's table (f16 TN): the shapes whose default must be the measured fastest
TABLE_SHAPES = [(16, 4096, 4096), (128, 4096, 4096), (1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 512),
                (8192, 1024, 8192), (1024, 1024, 16384)]
SMS = 132  # the H100 the logs were measured on
SHAPE = re.compile(r"(\d+) x (\d+) x (\d+)$")
# (a swapped config, skinny_bench's "wgmma swap_ab 64x16x64/s4 ...", is priced on D^T's problem)
CONFIG = re.compile(r"wgmma (swap_ab )?(\d+)x(\d+)x(\d+)/s(\d+)(?: split (\d+) (parallel|cluster))?(?: \([^)]*\))?$")


def measured_points(paths) -> list[tuple[tuple[int, int, int], object, float]]:
    """((M, N, K), wgmma GemmConfig, seconds) of every wgmma row of the skinny_bench tables in `paths`
    (f16; the lasscc TFLOP/s column: the third of a --tile-sweep row, the fifth of a default-run row)."""
    from lasscc.heuristics import wgmma_base
    from lasscc.resources import wgmma_defaults

    base = wgmma_base("f16", "sm_90a")
    out = []
    for path in paths:
        for line in Path(path).read_text().splitlines():
            cols = [c.strip() for c in line.split("|")[1:-1]]
            if len(cols) < 5:
                continue
            shape, cfg = SHAPE.match(cols[0]), CONFIG.match(cols[1])
            if not (shape and cfg):
                continue
            m, n, k = map(int, shape.groups())
            swap = int(cfg.group(1) is not None)
            bm, bn, bk, st = map(int, cfg.groups()[1:5])
            s = int(cfg.group(6) or 1)
            mode = cfg.group(7) or ("parallel" if s > 1 else "serial")  # "cluster": lasscc.cluster_splitk
            tflops = float((cols[2] if len(cols) == 5 else cols[4]).split()[0])
            tb = (bm, bn, bk)
            c = replace(base, threadblock=tb, stages=st, split_k=s, split_k_mode=mode,
                        swap_ab=swap, **wgmma_defaults(tb, base.instruction[2]))
            out.append(((m, n, k), c, 2 * m * n * k / (tflops * 1e12)))
    return out


def rms_log_error(points, sms: int = SMS) -> float:
    """sqrt(mean(log(model / measured)^2)) of the cost model as it stands over `points`."""
    from lasscc.heuristics import wgmma_time

    errs = [math.log(wgmma_time(*shape, cfg, "f16", sms) / t) for shape, cfg, t in points]
    return math.sqrt(sum(e * e for e in errs) / len(errs))


def config_key(cfg) -> tuple:
    """(BM, BN, stages, split_k): what tells two measured wgmma configs of one shape apart; a swapped
    config (swap_ab = 1: BM x BN tiles of D^T) adds "swap_ab"."""
    return ((*cfg.threadblock[:2], cfg.stages, cfg.split_k) + (("swap_ab",) if getattr(cfg, "swap_ab", 0) else ())
            + (("cluster",) if getattr(cfg, "split_k_mode", "") == "cluster" else ()))


def rank_check(points, shapes=TABLE_SHAPES, sms: int = SMS):
    """For each of `shapes`: (shape, the default's pick (heuristics.choose on sm_90a, f32 D as
    measured) as config_key, its measured seconds (None: never measured), the fastest measured
    config_key and its seconds).  A config measured more than once counts with its fastest timing.
    config_key is the cost model's decision (tile, stages, split): the logs time the plain kernel,
    and the kernel of a data-parallel pick (heuristics.data_parallel_kernel) is checked against
    the session 9 kernel timings instead (`kernel_check`)."""
    from lasscc.heuristics import choose, wgmma_base

    base = wgmma_base("f16", "sm_90a")
    out = []
    for shape in shapes:
        measured: dict = {}
        for s, cfg, t in points:
            if s == shape:
                key = config_key(cfg)
                measured[key] = min(t, measured.get(key, t))
        pick = config_key(choose(*shape, "f16", sms, "sm_90a", d_type="f32", base=base).config)
        best = min(measured, key=measured.get)
        out.append((shape, pick, measured.get(pick), best, measured[best]))
    return out


# Session 9's timings of the kernel variants at one tile, 128x256x64 / 4 stages (scripts/hopper_best.py,
# scripts/hopper_check.py --tma-store; H100): the markdown tables at their ends
KERNEL_LOGS = [ROOT / "benchmarks" / "hopper-best-2026-11-24-s9.log", ROOT / "benchmarks" / "hopper-tma-2026-11-24-s9.log"]
KERNEL_TILE = ((128, 256, 64), 4)
KERNEL_ROW = re.compile(r"\| (?P<label>[^|]+?) \| (?P<size>\d+)\^3 \| (?P<tflops>[\d.]+) \| [\d.]+ \| [\d.]+ \|$")


def kernel_key(schedule: str = "default", persistent: int = 0, epilogue: str = "direct", cluster=(1, 1)) -> tuple:
    """(schedule, persistent, epilogue, cluster): what tells two kernels of one tile apart."""
    return (schedule, int(persistent), epilogue, tuple(cluster))


def _kernel_label(label: str):
    """(A/B type, D type, kernel_key) of a KERNEL_LOGS row label: hopper_best.py's "f16->f32 schedule =
    \"cooperative\", persistent = 1, ..." / "... default", or hopper_check.py's "f16 D f32
    128x256x64/4 persistent tma"; None for another tile."""
    m = re.match(r"(\w+)->(\w+) (.*)$", label)
    if m:
        ab, d, rest = m.groups()
        kv = dict(re.findall(r'(\w+) = ("[^"]*"|\[[^\]]*\]|\d+)', rest))
        cluster = tuple(int(x) for x in kv.get("cluster", "[1, 1]").strip("[]").split(","))
        return ab, d, kernel_key(kv.get("schedule", '"default"').strip('"'), int(kv.get("persistent", 0)),
                                 kv.get("epilogue", '"direct"').strip('"'), cluster)
    m = re.match(r"(\w+) D (\w+) (\d+)x(\d+)x(\d+)/(\d+) (persistent )?(direct|tma)$", label)
    if m is None or ((int(m[3]), int(m[4]), int(m[5])), int(m[6])) != KERNEL_TILE:
        return None
    return m[1], m[2], kernel_key("cooperative" if m[7] else "default", 1 if m[7] else 0, m[8])


def kernel_points(paths=KERNEL_LOGS) -> dict:
    """{(A/B type, D type, size): {kernel_key: the best TFLOP/s over `paths`}}: runs in separate
    processes differ in clocks and in cuBLAS's own timing, so a kernel timed twice counts with its
    fastest run, as `rank_check` does."""
    out: dict = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            row = KERNEL_ROW.match(line.strip())
            parsed = row and _kernel_label(row["label"].strip())
            if parsed:
                ab, d, key = parsed
                cell = out.setdefault((ab, d, int(row["size"])), {})
                cell[key] = max(float(row["tflops"]), cell.get(key, 0.0))
    return out


def kernel_check(points: dict, sms: int = SMS):
    """For each (A/B type, D type, size) of `kernel_points`: (that, the default's kernel_key for the
    cube of that size (heuristics.choose on sm_90a; None when its tile is not KERNEL_TILE's), its
    TFLOP/s (None: never measured), the fastest measured kernel_key and its TFLOP/s)."""
    from lasscc.heuristics import choose, wgmma_base

    out = []
    for (ab, d, size), measured in sorted(points.items()):
        cfg = choose(size, size, size, ab, sms, "sm_90a", d_type=d, base=wgmma_base(ab, "sm_90a")).config
        pick = (kernel_key(cfg.schedule, cfg.persistent, cfg.epilogue, cfg.cluster)
                if (tuple(cfg.threadblock), cfg.stages) == KERNEL_TILE and cfg.split_k == 1 else None)
        best = max(measured, key=measured.get)
        out.append(((ab, d, size), pick, measured.get(pick), best, measured[best]))
    return out


def fit(points, restarts: int = 10, seed: int = 0) -> dict[str, float]:
    """The FITTED constants minimising rms_log_error (set on lasscc.heuristics while searching; left
    at the best found)."""
    import numpy as np
    from scipy.optimize import minimize

    from lasscc import heuristics as h

    x0 = [getattr(h, name) for name in FITTED]

    def err(x):
        for name, v, scale in zip(FITTED, x, x0):
            setattr(h, name, math.exp(v) * scale)
        return rms_log_error(points)

    rng = np.random.default_rng(seed)
    best = None
    for i in range(restarts):
        start = rng.normal(0.0, 1.0, len(FITTED)) if i else np.zeros(len(FITTED))
        r = minimize(err, start, method="Nelder-Mead", options=dict(maxiter=3000, xatol=1e-3, fatol=1e-5))
        if best is None or r.fun < best.fun:
            best = r
    err(best.x)
    return {name: getattr(h, name) for name in FITTED}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("logs", nargs="*", help="skinny_bench.py output (default: sessions 8 and 9's three logs)")
    p.add_argument("--fit", action="store_true", help="refit the constants (needs scipy)")
    args = p.parse_args()
    points = measured_points(args.logs or ALL_LOGS)
    print(f"{len(points)} timings; rms log error of the model as it stands: {rms_log_error(points):.3f}")
    if args.fit:
        from lasscc.heuristics import wgmma_time

        consts = fit(points)
        print("fitted: " + ", ".join(f"{k} = {v:.3g}" for k, v in consts.items())
              + f"; rms log error {rms_log_error(points):.3f}")
        for shape, cfg, t in points:
            print(f"{'x'.join(map(str, shape)):18s} {'x'.join(map(str, cfg.threadblock))}/s{cfg.stages} "
                  f"split {cfg.split_k}: measured {t * 1e6:7.1f} us, model {wgmma_time(*shape, cfg, 'f16', SMS) * 1e6:7.1f} us")
    if not args.logs:
        for shape, pick, t_pick, best, t_best in rank_check(points):
            ratio = f"{t_pick / t_best:.3f}x the fastest" if t_pick else "never measured"
            print(f"{'x'.join(map(str, shape)):18s} default {pick} ({ratio}); fastest measured {best} "
                  f"{t_best * 1e6:.1f} us")
        for what, pick, f_pick, best, f_best in kernel_check(kernel_points()):
            ratio = f"{f_pick / f_best:.3f}x the fastest" if f_pick else "never measured"
            print(f"{what[0]}->{what[1]} {what[2]}^3: default kernel {pick} ({ratio}); fastest measured {best} "
                  f"{f_best:.1f} TFLOP/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
