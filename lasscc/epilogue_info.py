"""What `lasscc explain` says about a fused epilogue: its ops and the extra bytes it reads."""

from __future__ import annotations

from collections import Counter

from lasscc.dialects.epilogue import EXTRA_ELEM_BYTES as ELEM_BYTES
from lasscc.dialects.epilogue import KIND_TEXT

# where a split schedule applies the region (lasscc-tile-threadblock; dialects.epilogue.gated_region):
# once per element, on the fully reduced value
SPLIT_WHERE = {
    "serial": "split-K (serial): the last partition applies it on the full sum; the others store raw partial "
              "sums alpha*acc (+ beta*C in the first) in D (the extras are read by every partition)",
    "parallel": "split-K (parallel): the reduction kernel applies it, one thread per element of D, after "
                "summing the partitions (the extras read once per element there, none by the GEMM kernel)",
    "streamk": "stream-K: the unit that ends a tile's K range applies it in the tile's fix-up; earlier units "
               "store raw partial sums in D",
}
SPLIT_WHERE["streamk-dp"] = SPLIT_WHERE["streamk-tail"] = SPLIT_WHERE["streamk"]


def region_ops(fn_or_op) -> tuple[str, ...]:
    """The ops the kernel computes per element of D for the epilogue region of the lass.gemm or
    lass_tb.epilogue in (or being) `fn_or_op`, in order (the yield left out): a lass.gemm's region
    as lasscc-fuse-epilogue leaves it (GELU's erf form -> lass.gelu; on a copy), each op's name, a
    lass.gelu's with the type it is rounded to ("lass.gelu (rounded to f16)"); () when there is none
    (or it is inlined already)."""
    from lasscc.dialects.epilogue import GeluOp, YieldOp
    from lasscc.dialects.lass import GemmOp
    from lasscc.dialects.lass_tb import EpilogueOp

    def text(o) -> str:
        return f"{o.name} (rounded to {o.d_type})" if isinstance(o, GeluOp) and o.rounded_to is not None else o.name

    for op in fn_or_op.walk():
        if isinstance(op, (GemmOp, EpilogueOp)) and op.has_epilogue:
            block = op.epilogue.block
            if isinstance(op, GemmOp):
                from lasscc.passes.fuse_epilogue import recognize_gelu

                block = op.epilogue.clone().block
                recognize_gelu(block, op.d.type.get_element_type())
            return tuple(text(o) for o in block.ops if not isinstance(o, YieldOp))
    return ()


def epilogue_summary(ops: tuple[str, ...], extras, tile: tuple[int, int], d_bytes: int, swap: bool,
                     batched: bool = False, split: str | None = None) -> list[str]:
    """Lines for `lasscc explain`: the region's ops (counted), where a split schedule applies them
    (`split`: the GemmConfig's split_k_mode when it splits K), and per extra operand (the caller's
    (kind, type) as KernelFacts writes them) the bytes a threadblock of `tile` (BM x BN, the
    kernel's) reads, against D's own bytes per element."""
    from lasscc.dialects.epilogue import BATCH_KINDS, base_kind, swap_kind

    if not ops and not extras:
        return []
    counts = Counter(o for o in ops if o != "arith.constant")
    text = ", ".join(f"{name} x{c}" if c > 1 else name for name, c in counts.items()) or "none (the value as is)"
    out = [f"  fused epilogue (lasscc.dialects.epilogue; its ops as lasscc-fuse-epilogue leaves them): per element "
           f"of D, after alpha * acc + beta * C: {text}"]
    if split:
        out.append("    " + SPLIT_WHERE[split])
    bm, bn = tile
    per_elem = 0.0
    for k, (fkind, typ) in enumerate(extras):
        kind = base_kind(fkind)  # a batched GEMM's per-batch operand: the same reads, from its batch's
        batch = (", one per batch (batch first)" if fkind in BATCH_KINDS.values()
                 else ", shared by every batch" if batched and kind != "scalar" else "")
        eb = 4 if kind == "scalar" else ELEM_BYTES[typ]
        kk = swap_kind(kind, swap)
        if kind == "scalar":
            out.append(f"    extra {k} [scalar] f32: a kernel parameter, no memory read")
            continue
        if split == "parallel":  # the reduction kernel: one thread per element of D loads its own
            per_elem += eb
            out.append(f"    extra {k} [{kind}] {typ}: {KIND_TEXT[kind]}{batch}; {eb} B per element of D, read by "
                       f"the reduction kernel's thread of that element")
            continue
        block = {"n": bn, "m": bm, "mn": bm * bn}[kk] * eb
        per_elem += block / (bm * bn)
        how = {"n": "read at each column of the block, 2 columns per ld.global.v2 where N is even",
               "m": "read at each row of the block", "mn": "read at each element, in pairs like C"}[kk]
        out.append(f"    extra {k} [{kind}] {typ}: {KIND_TEXT[kind]}{batch}; {block} B per {bm}x{bn} block ({how})")
    if per_elem:
        out.append(f"    extra reads: {per_elem:.3g} B per element of D on top of D's own {d_bytes} B written"
                   + (" (L1 / L2 hits where threads share a vector element)" if split == "parallel" else ""))
    return out
