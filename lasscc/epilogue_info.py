"""What `lasscc explain` says about a fused epilogue: its ops and the extra bytes it reads."""

from __future__ import annotations

from collections import Counter

from lasscc.dialects.epilogue import KIND_TEXT

ELEM_BYTES = {"f32": 4, "f16": 2, "bf16": 2}


def region_ops(fn_or_op) -> tuple[str, ...]:
    """The op names of the epilogue region of the lass.gemm or lass_tb.epilogue in (or being)
    `fn_or_op`, in order (the yield left out); () when there is none (or it is inlined already)."""
    from lasscc.dialects.epilogue import YieldOp
    from lasscc.dialects.lass import GemmOp
    from lasscc.dialects.lass_tb import EpilogueOp

    for op in fn_or_op.walk():
        if isinstance(op, (GemmOp, EpilogueOp)) and op.has_epilogue:
            return tuple(o.name for o in op.epilogue.block.ops if not isinstance(o, YieldOp))
    return ()


def epilogue_summary(ops: tuple[str, ...], extras, tile: tuple[int, int], d_bytes: int, swap: bool) -> list[str]:
    """Lines for `lasscc explain`: the region's ops (counted) and, per extra operand (the caller's
    (kind, type)), the bytes a threadblock of `tile` (BM x BN, the kernel's) reads, against D's own
    bytes per element."""
    from lasscc.dialects.epilogue import swap_kind

    if not ops and not extras:
        return []
    counts = Counter(o for o in ops if o != "arith.constant")
    text = ", ".join(f"{name} x{c}" if c > 1 else name for name, c in counts.items()) or "none (the value as is)"
    out = [f"  fused epilogue (lasscc.dialects.epilogue): per element of D, after alpha * acc + beta * C: {text}"]
    bm, bn = tile
    per_elem = 0.0
    for k, (kind, typ) in enumerate(extras):
        eb = 4 if kind == "scalar" else ELEM_BYTES[typ]
        kk = swap_kind(kind, swap)
        if kind == "scalar":
            out.append(f"    extra {k} [scalar] f32: a kernel parameter, no memory read")
            continue
        block = {"n": bn, "m": bm, "mn": bm * bn}[kk] * eb
        per_elem += block / (bm * bn)
        how = {"n": "read at each column of the block", "m": "read at each row of the block",
               "mn": "read at each element, in pairs like C"}[kk]
        out.append(f"    extra {k} [{kind}] {typ}: {KIND_TEXT[kind]}; {block} B per {bm}x{bn} block ({how})")
    if per_elem:
        out.append(f"    extra reads: {per_elem:.3g} B per element of D on top of D's own {d_bytes} B written")
    return out
