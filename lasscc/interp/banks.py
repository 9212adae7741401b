"""Shared-memory bank-conflict accounting for the CPU executor (`report_banks=True`).

For every op that touches shared memory per thread, each *warp access* (one execution of the op
by one warp) is split into the groups the hardware serves together, and each group is counted
with `lasscc.layout.wavefronts` against `lasscc.layout.ideal_wavefronts`:

  * 16-byte accesses (ldmatrix rows, st.shared.v4, cp.async): groups of 8 lanes (for ldmatrix
    the 8-lane phase i that supplies matrix i's row addresses; for the others a quarter-warp),
    since 8 x 16 B is one 128-byte wavefront;
  * 4-byte accesses (lass_warp.load_frag_a/b, one per register): the whole warp is one group.

Block-level copies (lass_pipe.copy_async / store_regs) are counted through the thread map that
says which thread copies which chunk.  A group's count does not change when all its addresses
move by a multiple of 128 bytes, so groups are normalised and deduplicated before counting.

The report is a list of dicts, one per op (in op order): `op_index`, `op` (name), `text` (its
printed form), `access_bytes`, `accesses` (warp accesses), `wavefronts`, `ideal`, `factor`
(wavefronts / ideal: 1.0 is conflict free).  `format_bank_report` prints it as a table.
"""

from __future__ import annotations

import numpy as np

from lasscc import layout as L

_CACHE: dict[tuple, int] = {}


def _group_wavefronts(addrs: tuple[int, ...], access_bytes: int) -> int:
    key = (access_bytes, addrs)
    v = _CACHE.get(key)
    if v is None:
        v = L.wavefronts(addrs, access_bytes)
        if len(_CACHE) < 100_000:
            _CACHE[key] = v
    return v


class BankCounter:
    def __init__(self):
        # opid -> [access_bytes, accesses, wavefronts, ideal]
        self.stats: dict[int, list[int]] = {}

    def record(self, opid: int, addrs, access_bytes: int, group: int) -> None:
        """`addrs` [warps, lanes]: block-local byte address of each lane's access in each warp
        access (lanes = 32, or fewer when the warp is partly idle); split in groups of `group`."""
        addrs = np.asarray(addrs, np.int64)
        if addrs.size == 0:
            return
        warps, lanes = addrs.shape
        ng = -(-lanes // group)
        pad = ng * group - lanes
        if pad:
            addrs = np.concatenate([addrs, np.full((warps, pad), -1, np.int64)], axis=1)
        groups = addrs.reshape(warps * ng, group)
        valid = groups >= 0
        base = (np.where(valid, groups, np.iinfo(np.int64).max).min(axis=1) // 128) * 128
        norm = np.where(valid, groups - base[:, None], -1)
        uniq, inverse = np.unique(norm, axis=0, return_inverse=True)
        wf_u = np.empty(len(uniq), np.int64)
        ideal_u = np.empty(len(uniq), np.int64)
        for i, row in enumerate(uniq):
            live = tuple(int(a) for a in row if a >= 0)
            wf_u[i] = _group_wavefronts(live, access_bytes)
            ideal_u[i] = L.ideal_wavefronts(len(live), access_bytes) if live else 0
        inverse = np.asarray(inverse).reshape(-1)
        st = self.stats.setdefault(opid, [access_bytes, 0, 0, 0])
        st[1] += warps
        st[2] += int(wf_u[inverse].sum())
        st[3] += int(ideal_u[inverse].sum())

    def merge(self, other: "BankCounter") -> None:
        for opid, (b, a, w, i) in other.stats.items():
            st = self.stats.setdefault(opid, [b, 0, 0, 0])
            st[1] += a
            st[2] += w
            st[3] += i

    def report(self, prog) -> list[dict]:
        """`prog`: the executor's Program (op id -> op and its printed line)."""
        out = []
        for opid in sorted(self.stats):
            b, a, w, i = self.stats[opid]
            out.append(
                {
                    "op_index": opid,
                    "op": prog.ops[opid].name,
                    "text": prog.op_line(opid),
                    "access_bytes": b,
                    "accesses": a,
                    "wavefronts": w,
                    "ideal": i,
                    "factor": (w / i) if i else 1.0,
                }
            )
        return out


def format_bank_report(report) -> str:
    """A printable table of a bank report (the list `ExecResult.bank_report` holds)."""
    if report is None:
        return "(no bank report: run with report_banks=True)"
    if not report:
        return "(no per-thread shared-memory accesses)"
    head = ("op", "bytes", "accesses", "wavefronts", "ideal", "conflict")
    rows = [
        (
            f"#{r['op_index']} {r['op']}",
            str(r["access_bytes"]),
            str(r["accesses"]),
            str(r["wavefronts"]),
            str(r["ideal"]),
            f"{r['factor']:.2f}x",
        )
        for r in report
    ]
    widths = [max(len(h), *(len(row[c]) for row in rows)) for c, h in enumerate(head)]

    def line(cells):
        first = cells[0].ljust(widths[0])
        return "  ".join([first] + [c.rjust(w) for c, w in zip(cells[1:], widths[1:])])

    total_w = sum(r["wavefronts"] for r in report)
    total_i = sum(r["ideal"] for r in report)
    out = [line(head), line(tuple("-" * w for w in widths))]
    out += [line(r) for r in rows]
    out.append(f"total: {total_w} wavefronts, ideal {total_i} ({(total_w / total_i if total_i else 1.0):.2f}x)")
    return "\n".join(out)
