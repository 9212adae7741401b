"""lasscc-lower-to-llvm, the sm_90a part: TMA, mbarrier and wgmma ops of `lass_nv` -> `llvm`.

Called by passes/lower_to_llvm.py's `_Lowerer.lower` for the ops of `lass_nv.SM90_OPS`.  NVVM
intrinsics of LLVM 22 (checked through llvmlite 0.50's NVPTX target):

    mbarrier_init                 llvm.nvvm.mbarrier.init.shared
    mbarrier_arrive               llvm.nvvm.mbarrier.arrive.shared
    mbarrier_arrive_expect_tx     llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta
    mbarrier_wait_parity          a loop around llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta
    fence_proxy_async             llvm.nvvm.fence.proxy.async.shared_cta
    fence_mbarrier_init           llvm.nvvm.fence.mbarrier_init.release.cluster
    tma_load_2d / tma_load_3d     llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d / .3d
    tma_store_2d / tma_store_3d   llvm.nvvm.cp.async.bulk.tensor.s2g.tile.2d / .3d (bulk_group completion)
    bulk_commit_group             llvm.nvvm.cp.async.bulk.commit.group
    bulk_wait_group_read          llvm.nvvm.cp.async.bulk.wait.group.read
    stmatrix_x4                   llvm.nvvm.stmatrix.sync.aligned.m8n8.x4.b16 (16-bit pairs packed per register)
    wgmma_fence / commit / wait   llvm.nvvm.wgmma.{fence,commit_group,wait_group}.sync.aligned
    elect_sync                    llvm.nvvm.elect.sync
    shared_address                ptrtoint of the addrspace(3) pointer (32 bits: --nvptx-short-ptr)

and inline PTX for wgmma.mma_async, which has no intrinsic (as MLIR's NVVM dialect emits it): the
accumulators are tied in/out operands ("=f" outputs, their inputs tied by index), scale-d a
predicate set inside the asm from an i32.  Right before each wgmma.fence, the register operands
of the wgmmas that follow it are pinned by empty volatile asms (CUTLASS's
warpgroup_fence_operand; `_fence_wgmma_operands`), so no register move lands between the fence
and a wgmma (ptxas would serialize them: C7519).

The tensor map parameter (`!lass_nv.tensor_map<...>` argument) becomes `ptr byval([128 x i8])
align 64 "nvvm.grid_constant"` (`tensor_map_arg_attrs`, on the llvm.func's arg_attrs; the
`nvvm.grid_constant` entry is applied by lasscc/emit.py, which xDSL's llvmlite backend does not
know).  TMA's destination is a `shared::cluster` pointer (addrspace 7): xDSL's llvm dialect has no
addrspacecast, so it is `inttoptr` of the 32-bit shared address, which the PTX ISA makes a valid
shared::cluster address of the executing CTA (5.1.3 "Shared State Space").
"""

from __future__ import annotations

from lasscc import sm90_layout as S
from lasscc.dialects import lass_nv, lass_sched, lass_wg
from xdsl.dialects import arith, cf, llvm
from xdsl.dialects.builtin import (
    DictionaryAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    VectorType,
    f16,
    f32,
    i1,
    i32,
    i64,
)
from xdsl.ir import Block

TENSOR_MAP_BYTES = 128  # sizeof(CUtensorMap)
TENSOR_MAP_ALIGN = 64  # CUtensorMap is alignas(64); the .param must be too
SHARED_CLUSTER_AS = 7  # NVPTX address space of shared::cluster pointers
CTA_GROUP_NONE = 0  # the g2s intrinsic's cta_group immediate: no .cta_group qualifier


def tensor_map_arg_attrs() -> DictionaryAttr:
    """arg_attrs of a tensor-map parameter: byval [128 x i8], align 64, nvvm.grid_constant."""
    return DictionaryAttr({
        "llvm.byval": llvm.LLVMArrayType(TENSOR_MAP_BYTES, IntegerType(8)),
        "llvm.align": IntegerAttr(TENSOR_MAP_ALIGN, i64),
        "nvvm.grid_constant": UnitAttr(),
    })


def wgmma_asm(op: lass_nv.WgmmaMmaAsyncOp, n_out: int) -> tuple[str, str]:
    """(PTX text, constraints) of one wgmma.mma_async with `n_out` 32-bit accumulator registers.

    Operands: $0..$(n_out-1) the accumulators (outputs, their inputs tied), then A (one "l"
    descriptor, or 4 "r" registers), the B descriptor ("l"), scale-d ("r", 0 or 1)."""
    ab, acc = op.input_type, str(op.acc_type)
    reg = "f" if acc == "f32" else "r"
    d = ", ".join(f"${i}" for i in range(n_out))
    j = n_out
    if op.is_rs:
        a = "{" + ", ".join(f"${j + i}" for i in range(S.A_FRAG_REGS)) + "}"
        j += S.A_FRAG_REGS
        a_cons = ["r"] * S.A_FRAG_REGS
    else:
        a = f"${j}"
        j += 1
        a_cons = ["l"]
    b, scale = f"${j}", f"${j + 1}"
    ptx_ab = {"f16": "f16", "bf16": "bf16", "tf32": "tf32", "s8": "s8"}[ab]
    ptx_acc = {"f32": "f32", "f16": "f16", "i32": "s32"}[acc]
    if ab == "s8":
        inst = f"wgmma.mma_async.sync.aligned.{op.shape}.satfinite.{ptx_acc}.{ptx_ab}.{ptx_ab}"
        imms = ""
    else:
        inst = f"wgmma.mma_async.sync.aligned.{op.shape}.{ptx_acc}.{ptx_ab}.{ptx_ab}"
        imms = f", {op.imm('scale_a')}, {op.imm('scale_b')}"
        if ab in ("f16", "bf16"):
            imms += (f", {op.imm('trans_b')}" if op.is_rs else f", {op.imm('trans_a')}, {op.imm('trans_b')}")
    text = (f"{{\n .reg .pred p;\n setp.ne.b32 p, {scale}, 0;\n {inst} {{{d}}}, {a}, {b}, p{imms};\n}}")
    cons = [f"={reg}"] * n_out + a_cons + ["l", "r"] + [str(i) for i in range(n_out)]
    return text, ",".join(cons)


def _init_state(lw) -> None:
    """The lowerer's wgmma bookkeeping (program order within the kernel): operands fenced ahead of
    a wgmma.fence, each lowered wgmma's result registers, the open and the committed groups."""
    if not hasattr(lw, "wg_regs"):
        lw.fenced, lw.wg_regs, lw.wg_open, lw.wg_groups = {}, {}, [], []


def lower_sm90(lw, op) -> bool:
    """Lower `op` (an sm_90a lass_nv op) with the lowerer `lw` (passes/lower_to_llvm._Lowerer);
    False when `op` is not one of them."""
    m = lw.map
    t = type(op)  # (by identity, as in _Lowerer.lower)
    if t is lass_nv.SharedAddressOp:
        m[op.result] = _shared_address(lw, lw.lowered(op.offset))
    elif t is lass_nv.ElectSyncOp:
        st = llvm.LLVMStructType.from_type_list([i32, i1])
        call = lw.intrinsic("llvm.nvvm.elect.sync", [lw.const(-1)], [st])
        m[op.result] = lw.struct_fields(call.results[0], [i32, i1])[1]
    elif t is lass_nv.MbarrierInitOp:
        lw.intrinsic("llvm.nvvm.mbarrier.init.shared", [lw.shared_ptr(lw.lowered(op.bar)), lw.lowered(op.count)])
    elif t is lass_nv.MbarrierArriveOp:
        lw.intrinsic("llvm.nvvm.mbarrier.arrive.shared", [_barrier_ptr(lw, lw.lowered(op.bar))], [i64])
    elif t is lass_nv.MbarrierArriveExpectTxOp:
        lw.intrinsic("llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta",
                     [_barrier_ptr(lw, lw.lowered(op.bar)), lw.lowered(op.tx)], [i64])
    elif t is lass_nv.MbarrierWaitParityOp:
        bar = _barrier_ptr(lw, lw.lowered(op.bar))
        parity = lw.lowered(op.parity)
        loop = lw.new_block()
        lw.emit(llvm.BrOp(loop))
        lw.cur = loop
        done = lw.intrinsic("llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta", [bar, parity], [i1]).results[0]
        after = lw.new_block()
        lw.emit(llvm.CondBrOp(done, after, [], loop, []))
        lw.cur = after
    elif t is lass_nv.FenceProxyAsyncOp:
        lw.intrinsic("llvm.nvvm.fence.proxy.async.shared_cta", [])
    elif t is lass_nv.FenceMbarrierInitOp:
        lw.intrinsic("llvm.nvvm.fence.mbarrier_init.release.cluster", [])
    elif t in (lass_nv.TmaLoad2dOp, lass_nv.TmaLoad3dOp):
        shared = lw.emit(llvm.PtrToIntOp(lw.shared_ptr(lw.lowered(op.dst)), i32))
        dst = lw.emit(llvm.IntToPtrOp.create(operands=[lw.emit(llvm.ZExtOp(shared, i64))],
                                             result_types=[llvm.LLVMPointerType(IntAttr(SHARED_CLUSTER_AS))]))
        coords = [op.c0, op.c1] + ([op.c2] if t is lass_nv.TmaLoad3dOp else [])
        # (dst, bar, tmap, coords..., multicast mask, cache hint, use multicast, use cache hint, cta_group)
        args = [dst, lw.shared_ptr(lw.lowered(op.bar)), lw.lowered(op.tmap), *(lw.lowered(c) for c in coords),
                lw.const(0, IntegerType(16)), lw.const(0, i64), lw.const(0, i1), lw.const(0, i1),
                lw.const(CTA_GROUP_NONE)]
        lw.intrinsic(f"llvm.nvvm.cp.async.bulk.tensor.g2s.tile.{len(coords)}d", args)
    elif t in (lass_nv.TmaStore2dOp, lass_nv.TmaStore3dOp):
        coords = [op.c0, op.c1] + ([op.c2] if t is lass_nv.TmaStore3dOp else [])
        # (src, tmap, coords..., cache hint, use cache hint)
        args = [lw.shared_ptr(lw.lowered(op.src)), lw.lowered(op.tmap), *(lw.lowered(c) for c in coords),
                lw.const(0, i64), lw.const(0, i1)]
        lw.intrinsic(f"llvm.nvvm.cp.async.bulk.tensor.s2g.tile.{len(coords)}d", args)
    elif t is lass_nv.BulkCommitGroupOp:
        lw.intrinsic("llvm.nvvm.cp.async.bulk.commit.group", [])
    elif t is lass_nv.BulkWaitGroupReadOp:
        lw.intrinsic("llvm.nvvm.cp.async.bulk.wait.group.read", [lw.const(op.pending.value.data)])
    elif t is lass_nv.StmatrixX4Op:
        vals = [lw.lowered(v) for v in op.values]
        pair_t = VectorType(op.values[0].type, [2])
        regs = []
        for r in range(4):  # register r: values 2r (low half), 2r + 1
            vec = lw.emit(llvm.UndefOp(pair_t))
            for h in range(2):
                vec = lw.emit(llvm.InsertElementOp(vec, vals[2 * r + h], lw.const(h)))
            regs.append(lw.emit(llvm.BitcastOp(vec, i32)))
        lw.intrinsic("llvm.nvvm.stmatrix.sync.aligned.m8n8.x4.b16.p3", [lw.shared_ptr(lw.lowered(op.addr)), *regs])
    elif t is lass_nv.WgmmaFenceOp:
        _init_state(lw)
        _fence_wgmma_operands(lw, op)
        lw.intrinsic("llvm.nvvm.wgmma.fence.sync.aligned", [])
    elif t is lass_nv.WgmmaCommitGroupOp:
        _init_state(lw)
        lw.intrinsic("llvm.nvvm.wgmma.commit_group.sync.aligned", [])
        lw.wg_groups.append(lw.wg_open)
        lw.wg_open = []
    elif t is lass_nv.WgmmaWaitGroupOp:
        _init_state(lw)
        lw.intrinsic("llvm.nvvm.wgmma.wait_group.sync.aligned", [lw.const(op.pending.value.data, i64)])
        _retire(lw, op)
    elif t is lass_nv.WgmmaMmaAsyncOp:
        _init_state(lw)
        _lower_wgmma(lw, op)
    elif t is lass_wg.SetMaxNRegOp:  # the warp-specialized roles (passes/warp_specialize.py)
        lw.intrinsic(f"llvm.nvvm.setmaxnreg.{op.action.data}.sync.aligned.u32", [lw.const(op.regs.value.data)])
    elif t is lass_sched.CtaCountOp:  # the persistent tile loop's stride
        m[op.result] = lw.intrinsic("llvm.nvvm.read.ptx.sreg.nctaid.x", [], [i32]).results[0]
    elif t is lass_wg.NamedBarrierOp:
        lw.intrinsic("llvm.nvvm.barrier.cta.sync.aligned.count",
                     [lw.const(op.id.value.data), lw.const(op.threads.value.data)])
    else:
        from lasscc.passes.lower_cluster import lower_cluster  # thread block clusters (lass_cluster)

        return lower_cluster(lw, op)
    return True


def _scale_d_false(op: lass_nv.WgmmaMmaAsyncOp) -> bool:
    """scale-d is the constant false: the wgmma ignores C."""
    owner = op.scale_d.owner
    return isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr) and owner.value.value.data == 0


def _acc_registers(lw, op: lass_nv.WgmmaMmaAsyncOp) -> list:
    """The 32-bit accumulator registers the wgmma takes (lowered values): f32 / i32 values as
    they are, f16 ones packed two per register (element 2r + h in half h of register r)."""
    if _scale_d_false(op):
        # C is ignored: undef inputs, so LLVM materializes no accumulator moves between the
        # wgmma.fence and this wgmma (ptxas would serialize: C7519, "warpgroup.arrive injected")
        accs = [lw.emit(llvm.UndefOp(x.type)) for x in op.c]
    else:
        prev = op.c[0].owner if op.c else None
        if isinstance(prev, lass_nv.WgmmaMmaAsyncOp) and list(op.c) == list(prev.d) and prev in lw.wg_regs:
            return lw.wg_regs[prev]  # chained: the previous wgmma's registers, untouched (they are in flight)
        accs = [lw.lowered(x) for x in op.c]
    if op.acc_type != f16:
        return accs
    h2 = VectorType(f16, [2])
    regs = []
    for r in range(len(accs) // 2):
        vec = lw.emit(llvm.UndefOp(h2))
        for h in range(2):
            vec = lw.emit(llvm.InsertElementOp(vec, accs[2 * r + h], lw.const(h)))
        regs.append(lw.emit(llvm.BitcastOp(vec, i32)))
    return regs


def _shared_address(lw, offset, aligned: bool = True):
    """The .shared window address of dynamic-smem byte `offset` for a wgmma descriptor: the window
    base read where it is used, by a volatile `mov.u32 %0, lass_smem;` (LLVM neither hoists nor
    merges it), plus the offset.  From the kernel's one hoisted base ptxas keeps the base in a
    per-thread register (the epilogue's addresses use it too), so every descriptor derived from
    it is per-thread and each wgmma moves it over with 4 R2UR; read here, ptxas derives the
    descriptors in uniform registers (the 128x256 k-tile loop: 67 -> 58 SASS instructions, no
    R2UR; BENCHMARKS.md, session 12).  `aligned=False` leaves the alignment out (an address, not a
    descriptor: nothing is or'ed into it)."""
    # with the symbol's alignment, which the asm hides from LLVM, a K step's descriptor stays the
    # k-tile's with a small constant or'ed in (not a shift and mask per wgmma)
    base = lw.smem_base_here(aligned)
    return lw.emit(llvm.AddOp(base, offset))


def _barrier_ptr(lw, offset):
    """The addrspace(3) pointer of the mbarrier at dynamic-smem byte `offset`, from the window base
    read at this use (`_shared_address`), not from the kernel's hoisted base.  A k-tile loop's
    barrier is at ring slot * 8: built on the hoisted (per-thread) base, ptxas computes the slot,
    and with it the k-tile counter it comes from, in per-thread registers, and every wgmma
    descriptor derived from the slot needs 2 R2UR per k-tile; built here, the counter, the slot and
    the descriptors all stay in uniform registers (the 128x256 k-tile loop: 57 -> 53 SASS
    instructions, no R2UR; BENCHMARKS.md, session 12, uniform15)."""
    return lw.int_to_shared_ptr(_shared_address(lw, offset, aligned=False))


# the properties llvm.InlineAsmOp("", "={reg},0", ..., has_side_effects=True) builds, built once per
# register kind (attributes are immutable; a wgmma kernel fences ~250 values)
_FENCE_PROPERTIES = {reg: {"asm_string": StringAttr(""), "constraints": StringAttr(f"={reg},0"),
                           "has_side_effects": UnitAttr()} for reg in ("f", "r")}


def _fence_operand(lw, value):
    """CUTLASS's warpgroup_fence_operand: an empty volatile asm that takes `value` and gives it
    back ("+" as an output tied to its input), so its register is defined here and nowhere later."""
    reg = "f" if value.type == f32 else "r"
    return lw.emit(llvm.InlineAsmOp.build(operands=[[value]], result_types=[[value.type]],
                                          properties=_FENCE_PROPERTIES[reg]))


def _fence_wgmma_operands(lw, fence: lass_nv.WgmmaFenceOp) -> None:
    """Before wgmma.fence: the register operands (accumulators, RS A fragments) of the wgmmas up
    to the next commit_group, each slot through its own `_fence_operand`, so that no register
    move that LLVM needs for them (one zero value in 32 accumulator slots, a loop-carried phi, a
    packing of f16 pairs) lands between wgmma.fence and the wgmma: ptxas would serialize the
    wgmmas (C7519).  Accumulators chained from an earlier wgmma of the group are in flight and
    left alone; values defined after the fence cannot be fenced here."""
    chained = set()
    nxt = fence.next_op
    while nxt is not None and not isinstance(nxt, (lass_nv.WgmmaCommitGroupOp, lass_nv.WgmmaFenceOp)):
        if isinstance(nxt, lass_nv.WgmmaMmaAsyncOp):
            if not any(c in chained for c in nxt.c) and all(c in lw.map for c in nxt.c):
                lw.fenced[(nxt, "c")] = [_fence_operand(lw, x) for x in _acc_registers(lw, nxt)]
            if nxt.is_rs and all(a in lw.map for a in nxt.a):
                lw.fenced[(nxt, "a")] = [_fence_operand(lw, lw.lowered(a)) for a in nxt.a]
            chained.update(nxt.d)
        nxt = nxt.next_op


def _lower_wgmma(lw, op: lass_nv.WgmmaMmaAsyncOp) -> None:
    accs = lw.fenced.pop((op, "c"), None) or _acc_registers(lw, op)
    a_regs = lw.fenced.pop((op, "a"), None) or [lw.lowered(x) for x in op.a]
    reg_t = i32 if op.acc_type != f32 else f32
    text, cons = wgmma_asm(op, len(accs))
    scale = lw.emit(llvm.ZExtOp(lw.lowered(op.scale_d), i32))
    ins = a_regs + [lw.lowered(op.b_desc), scale] + accs
    st = llvm.LLVMStructType.from_type_list([reg_t] * len(accs))
    res = lw.emit(llvm.InlineAsmOp(text, cons, ins, [st], has_side_effects=True))
    outs = lw.struct_fields(res, [reg_t] * len(accs))
    lw.wg_regs[op] = outs
    lw.wg_open.append(op)
    _map_results(lw, op, outs)


def _map_results(lw, op: lass_nv.WgmmaMmaAsyncOp, regs: list) -> None:
    """op's results from its 32-bit registers (f16 pairs unpacked)."""
    if op.acc_type == f16:
        regs = _unpack_f16(lw, regs)
    for old, new in zip(op.d, regs):
        lw.map[old] = new


def _loop_carried(op: lass_nv.WgmmaMmaAsyncOp, at: Block) -> list | None:
    """The block arguments through which `op`'s results are read at block `at`, when `at` lies
    past the back edge (a branch to an earlier block, convert-scf-to-cf's scf.yield) that carries
    them: after an scf.for k-loop, its results are the loop header's arguments, not the body's
    wgmma results (which do not dominate the loop exit).  None when `at` reads op's results
    themselves (the wait follows them within the loop iteration that issued them)."""
    blocks = list(at.parent.blocks)
    for use in op.d[0].uses:
        br = use.operation
        if isinstance(br, (cf.BranchOp, cf.ConditionalBranchOp)):
            src = blocks.index(br.parent_block())
            for succ, args in zip(br.successors, _successor_operands(br)):
                if blocks.index(succ) <= src < blocks.index(at) and op.d[0] in args:
                    return [succ.args[list(args).index(r)] for r in op.d]
    return None


def _successor_operands(br) -> list:
    if isinstance(br, cf.BranchOp):
        return [br.arguments]
    return [br.then_arguments, br.else_arguments]


def _unpack_f16(lw, regs: list) -> list:
    """f16 values from 32-bit registers (element 2r + h in half h of register r)."""
    unpacked = []
    for bits in regs:
        for h in range(2):
            part = bits if h == 0 else lw.emit(llvm.LShrOp(bits, lw.const(16)))
            unpacked.append(lw.emit(llvm.BitcastOp(lw.emit(llvm.TruncOp(part, IntegerType(16))), f16)))
    return unpacked


def _retire(lw, wait: lass_nv.WgmmaWaitGroupOp) -> None:
    """wgmma.wait_group `pending`: the wgmmas of the groups it retires get their result registers
    through `_fence_operand` right after the wait (CUTLASS fences the accumulators after
    warpgroup_wait), and every later use reads those: LLVM cannot move a use of a wgmma result
    above the wait (ptxas would serialize: C7517, "warpgroup.wait injected").

    Groups are counted in program order.  With groups in flight across an scf.for k-loop's
    iterations, a group the loop body issued is retired past the loop (the wait after it), where
    it is read through the loop results: those (the header's block arguments) are pinned.  At the
    in-loop wait, the group of the iteration before is retired; its values are the loop-carried
    block arguments, read only by this iteration's first wgmma, which took them through
    `_fence_wgmma_operands` before its wgmma.fence: pinning them again after the wait would keep
    them alive across that wgmma (a copy of in-flight registers), so they are left alone, as any
    result read by chained wgmmas only."""
    n = max(len(lw.wg_groups) - wait.pending.value.data, 0)
    retired, lw.wg_groups = lw.wg_groups[:n], lw.wg_groups[n:]
    for group in retired:
        for op in group:
            if all(isinstance(u.operation, lass_nv.WgmmaMmaAsyncOp) for r in op.d for u in r.uses):
                continue  # consumed by a chained wgmma only: fencing would keep its registers alive
            carried = _loop_carried(op, wait.parent_block())
            if carried is None:
                regs = [_fence_operand(lw, r) for r in lw.wg_regs[op]]
                lw.wg_regs[op] = regs
                _map_results(lw, op, regs)
            else:
                _pin_values(lw, op, carried)


def _pin_values(lw, op: lass_nv.WgmmaMmaAsyncOp, olds: list) -> None:
    """`olds` (op's accumulator values as carried out of a loop) through `_fence_operand`, in
    op's 32-bit registers (f16 pairs packed), and every later use reads the pinned ones."""
    vals = [lw.lowered(x) for x in olds]
    if op.acc_type == f16:
        h2 = VectorType(f16, [2])
        packed = []
        for r in range(len(vals) // 2):
            vec = lw.emit(llvm.UndefOp(h2))
            for h in range(2):
                vec = lw.emit(llvm.InsertElementOp(vec, vals[2 * r + h], lw.const(h)))
            packed.append(lw.emit(llvm.BitcastOp(vec, i32)))
        vals = packed
    regs = [_fence_operand(lw, r) for r in vals]
    if op.acc_type == f16:
        regs = _unpack_f16(lw, regs)
    for old, new in zip(olds, regs):
        lw.map[old] = new
