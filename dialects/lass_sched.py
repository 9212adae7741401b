"""`lass_sched`: the persistent tile scheduler (config `persistent = 1`, lasscc-warp-specialize).

A persistent kernel launches fewer CTAs than output tiles (the runner: one per SM; the CPU
executor: a small count) and each CTA walks tiles blockIdx.x, blockIdx.x + CTAs, ... in the
rasterized order (lasscc.layout.raster_tile of the tile index, as a non-persistent kernel maps its
block id).  Per-thread code:

    %ctas = lass_sched.cta_count                 // %nctaid.x
    lass_sched.claim %tile                       // this CTA computes output tile %tile

A clustered persistent kernel (lasscc.cluster) walks cluster tiles %clusterid.x, + clusters, ...
(clusters = cta_count / cluster size) and claims cluster.claim_tile (cluster tile x size + rank).
`claim` states the scheduler's contract for the CPU executor (every tile of the launch claimed by
exactly one CTA, interp/sched.py) and lowers to nothing.
"""

from __future__ import annotations

from xdsl.dialects.builtin import i32
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure


@irdl_op_definition
class CtaCountOp(IRDLOperation):
    """%nctaid.x: the CTAs of the launch along x (PTX ISA 10.7)."""

    name = "lass_sched.cta_count"
    traits = traits_def(Pure())
    result = result_def(i32)
    assembly_format = "attr-dict"


@irdl_op_definition
class ClaimOp(IRDLOperation):
    """This CTA computes output tile `tile` (the threads reaching it are one CTA's; each tile of the
    launch must be claimed by exactly one CTA).  No code: a checked statement of the schedule."""

    name = "lass_sched.claim"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    tile = operand_def(i32)
    assembly_format = "$tile attr-dict"


LassSched = Dialect("lass_sched", [CtaCountOp, ClaimOp], [])
