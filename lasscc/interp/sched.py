"""CPU semantics of the persistent tile scheduler (`lass_sched`, dialects/lass_sched.py).

A persistent kernel runs on fewer CTAs than tiles (execute_kernel's `ctas`; by default
PERSISTENT_CTAS, so each CTA walks several tiles and carries its pipeline's phases across them).
`cta_count` is the launch's CTA count along x; every `claim` records which CTA computes which tile:
a tile claimed by two CTAs, or twice in one CTA (two pingpong consumers), is an InterpError at the
second claim (both would write its D), and
after the launch a tile no CTA claimed is one (its D would stay unwritten): `check_claims`.  A
clustered kernel claims tile numbers of whole clusters (lasscc.cluster.claim_tile: 0 ..
cluster_grid - 1), so a cluster tile two clusters take, or none, is reported the same way.
"""

from __future__ import annotations

import numpy as np

from lasscc.dialects import lass_sched
from lasscc.interp.errors import InterpError
from lasscc.interp.executor import CLAIM_CHECKS, PERSISTENT_CTAS, Executor, handler
from lasscc.resources import WARPGROUP_THREADS

# CTAs of a persistent launch on the CPU: a small "SM count", so the CTAs take several tiles each


class ScheduleError(InterpError):
    """The persistent tile scheduler gave a tile to two CTAs, or to none."""


def _claims(ex: Executor) -> dict:
    return ex.launch.__dict__.setdefault("claims", {})


@handler(lass_sched.CtaCountOp)
def _cta_count(ex: Executor, op, vals):
    return [ex.launch.grid_x]


@handler(lass_sched.ClaimOp)
def _claim(ex: Executor, op, vals):
    lanes = ex.active_lanes()
    tiles = np.asarray(ex.at(vals[0], lanes), np.int64)
    ctas = ex.cta_of(lanes)
    claims = _claims(ex)
    for cta in np.unique(ctas):
        mine = np.unique(tiles[ctas == cta])
        if mine.size != 1:
            raise ScheduleError(f"{ex.where(op)}: the threads of {ex.cta_name(int(cta))} claim different tiles "
                                f"{mine.tolist()} at once")
        t = int(mine[0])
        wg = int(lanes[ctas == cta][0] % ex.tpl // WARPGROUP_THREADS)
        prev = claims.get(t)
        if prev is not None and prev[0] != int(cta):
            raise ScheduleError(f"{ex.where(op)}: {ex.cta_name(int(cta))} takes tile {t}, which "
                                f"{ex.cta_name(prev[0])} took already (both would compute and store it)")
        if prev is not None:  # a second claim in one CTA (e.g. both pingpong consumers)
            raise ScheduleError(f"{ex.where(op)}: warpgroup {wg} of {ex.cta_name(int(cta))} takes tile {t}, which "
                                f"warpgroup {prev[2]} of it took already (both would compute and store it)")
        claims[t] = (int(cta), op, wg)
    return []


def check_claims(launch, tiles: int, describe) -> None:
    """After a launch whose kernel claims its tiles: every tile in range(tiles) claimed once."""
    claims = launch.__dict__.get("claims", {})
    missing = [t for t in range(tiles) if t not in claims]
    extra = [t for t in claims if not 0 <= t < tiles]
    if missing or extra:
        op = next(iter(claims.values()))[1] if claims else None
        where = f"{describe(op)}: " if op is not None else ""
        raise ScheduleError(f"{where}the persistent schedule "
                            + (f"leaves tile(s) {missing[:8]} of {tiles} to no CTA (their D is never written)"
                               if missing else f"claims tile(s) {extra[:8]} outside the {tiles} tiles"))


CLAIM_CHECKS.append(check_claims)
