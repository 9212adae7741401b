"""Registration of lasscc's dialects and passes: the context for `lasscc` and the `xdsl-opt`
entry point (`xdsl.universe` in pyproject.toml).  Imports are lazy so `xdsl-opt` starts fast."""

from __future__ import annotations

import importlib
import sys
from contextlib import contextmanager

from xdsl.context import Context

# dialect name -> (module, attribute)
DIALECTS = {
    "lass": ("lasscc.dialects.lass", "Lass"),
    "lass_tb": ("lasscc.dialects.lass_tb", "LassTB"),
    "lass_pipe": ("lasscc.dialects.lass_pipe", "LassPipe"),
    "lass_warp": ("lasscc.dialects.lass_warp", "LassWarp"),
    "lass_smem": ("lasscc.dialects.lass_smem", "LassSmem"),
    "lass_nv": ("lasscc.dialects.lass_nv", "LassNV"),
    "lass_wg": ("lasscc.dialects.lass_wg", "LassWG"),
    "lass_sched": ("lasscc.dialects.lass_sched", "LassSched"),
    "lass_cluster": ("lasscc.dialects.lass_cluster", "LassCluster"),
}

# pass flag -> (module, class); the order of the pipeline itself lives in lasscc/driver.py
PASSES = {
    "lasscc-import-linalg": ("lasscc.passes.import_linalg", "ImportLinalgPass"),
    "lasscc-fuse-epilogue": ("lasscc.passes.fuse_epilogue", "FuseEpiloguePass"),
    "lasscc-tile-threadblock": ("lasscc.passes.tile_threadblock", "TileThreadblockPass"),
    "lasscc-pipeline": ("lasscc.passes.pipeline", "PipelinePass"),
    "lasscc-warp-mma": ("lasscc.passes.warp_mma", "WarpMmaPass"),
    "lasscc-warpgroup-mma": ("lasscc.passes.warpgroup_mma", "WarpgroupMmaPass"),
    "lasscc-warp-specialize": ("lasscc.passes.warp_specialize", "WarpSpecializePass"),
    "lasscc-swizzle-smem": ("lasscc.passes.swizzle_smem", "SwizzleSmemPass"),
    "lasscc-hopper-smem": ("lasscc.passes.hopper_smem", "HopperSmemPass"),
    "lasscc-lower-to-llvm": ("lasscc.passes.lower_to_llvm", "LowerToLLVMPass"),
}


def _loader(module: str, attr: str):
    return lambda: getattr(importlib.import_module(module), attr)


def _locating_xdsl_opt_frontend() -> None:
    """Make `xdsl-opt`'s MLIR frontend record op positions as lasscc's own driver does.

    xDSL 0.74's parser sets `Operation.location` only from an explicit `loc(...)`, and
    `xdsl-opt` has no plugin hook for a frontend; `xdsl-opt` reads `LASSCC_UNIVERSE` (the entry
    point; this module's `__getattr__`) when it registers its dialects, before its frontends, so
    wrapping its `register_all_frontends` then swaps in `lasscc.locations.LocatingParser` for `.mlir` input: lasscc's pass errors then name
    `file:line:col` under both drivers.  Nothing changes for other users of xDSL's parser."""
    from xdsl.tools.command_line_tool import CommandLineTool

    original = CommandLineTool.register_all_frontends
    if getattr(original, "_lasscc", False):
        return

    def register_all_frontends(self) -> None:
        original(self)

        def parse_mlir(io):
            from lasscc.locations import LocatingParser

            return LocatingParser(self.ctx, io.read(), self.get_input_name()).parse_module(
                not self.args.no_implicit_module
            )

        self.available_frontends["mlir"] = parse_mlir

    register_all_frontends._lasscc = True
    CommandLineTool.register_all_frontends = register_all_frontends


def __getattr__(name: str):
    """`LASSCC_UNIVERSE`, xdsl-opt's entry point (pyproject.toml): reading it makes xdsl-opt's
    frontend locating.  Only then: lasscc itself does not need xDSL's command-line tool (~5 ms of
    imports a compile does not use), nor xdsl.universe's `Universe` (which imports xDSL's target
    registry: ~1 ms); a compile's context registers DIALECTS itself (make_context)."""
    if name == "LASSCC_UNIVERSE":
        from xdsl.universe import Universe

        _locating_xdsl_opt_frontend()
        universe = Universe(all_dialects={n: _loader(*v) for n, v in DIALECTS.items()},
                            all_passes={n: _loader(*v) for n, v in PASSES.items()})
        globals()["LASSCC_UNIVERSE"] = universe  # one object for every later read
        return universe
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


LINALG_OPS = "xdsl.dialects.linalg.ops"  # the module of xDSL's linalg ops


def linalg_loaded() -> bool:
    """Whether xDSL's linalg ops have been imported in this process.  While they have not, no IR
    holds a linalg op (a context of make_context loads the dialect at the first linalg op it
    parses; whatever builds one imports them), so the code that looks for linalg ops can skip
    both the look and the import (~0.02 s of CPU) for an input without any."""
    return LINALG_OPS in sys.modules


def _linalg_dialect():
    """xDSL's linalg dialect with upstream's linalg.batch_matmul (lasscc.linalg_batch), which xDSL
    0.74's lacks."""
    from xdsl.dialects.linalg import Linalg
    from xdsl.ir import Dialect

    from lasscc.linalg_batch import BatchMatmulOp

    return Dialect(Linalg.name, [*Linalg.operations, BatchMatmulOp], [*Linalg.attributes])


def make_context() -> Context:
    """builtin/func/arith/math/scf/llvm/cf plus linalg and every lass dialect; math, linalg and the lass
    dialects loaded lazily, at the first op of theirs that is parsed (xDSL's math dialect is ~3 ms of
    imports that a compile without an epilogue region does not need)."""
    from xdsl.dialects import arith, builtin, cf, func, llvm, scf

    ctx = Context()
    for d in (builtin.Builtin, func.Func, arith.Arith, scf.Scf, llvm.LLVM, cf.Cf):
        ctx.load_dialect(d)
    ctx.register_dialect("math", _loader("xdsl.dialects.math", "Math"))
    ctx.register_dialect("linalg", _linalg_dialect)
    for name, where in DIALECTS.items():
        ctx.register_dialect(name, _loader(*where))
    return ctx



def _count_blocks(self) -> int:
    """len(region.blocks) by following the block list's links (xDSL 0.74 counts through a Python
    iterator object, several times slower)."""
    n, block = 0, self._region._first_block
    while block is not None:
        n += 1
        block = block._next_block
    return n


@contextmanager
def block_counts_frozen():
    """While the IR does not change (verification): len(region.blocks) counts each region once.

    xDSL's Operation.verify asks for the block count of the region around the last op of every
    block, which is quadratic in the number of blocks: the ~1,500 blocks after
    lasscc-lower-to-llvm made one verification of the kernel take 3 s of CPU.  Not for threads
    that change IR meanwhile (lasscc compiles in one thread; lasscc tune uses processes)."""
    from xdsl.ir.core import RegionBlocks

    counts: dict[int, tuple[object, int]] = {}  # id(region) -> (region, count); the region kept alive

    def count(self) -> int:
        hit = counts.get(id(self._region))
        if hit is None or hit[0] is not self._region:
            hit = counts[id(self._region)] = (self._region, _count_blocks(self))
        return hit[1]

    RegionBlocks.__len__ = count
    try:
        yield
    finally:
        RegionBlocks.__len__ = _count_blocks


@contextmanager
def variadic_sizes_memoized():
    """While verifying: xDSL's check that an op has as many operands / results / regions /
    successors as its definition allows runs once per (definition, kind, count), which is all it
    depends on, unless the definition sizes its variadics by an attribute (checked every time).
    It was a third of the verification of the ~8,500-op LLVM-level kernel."""
    from xdsl.irdl import operations as irdl_ops

    orig = irdl_ops.verify_variadic_size
    attr_sized: dict[tuple[int, object], tuple[object, bool]] = {}  # the definition kept alive
    passed: set[tuple[int, object, int]] = set()

    def check(op, op_def, construct) -> None:
        key = (id(op_def), id(construct))  # an enum member's hash is a Python call; ids are ints
        hit = attr_sized.get(key)
        if hit is None or hit[0] is not op_def:
            option = irdl_ops.get_attr_size_option(construct)
            hit = attr_sized[key] = (op_def, any(isinstance(o, option) for o in op_def.options))
        if hit[1]:
            orig(op, op_def, construct)
            return
        count = (*key, len(irdl_ops.get_op_constructs(op, construct)))
        if count not in passed:
            orig(op, op_def, construct)
            passed.add(count)

    irdl_ops.verify_variadic_size = check
    try:
        yield
    finally:
        irdl_ops.verify_variadic_size = orig


@contextmanager
def op_checks_memoized():
    """While verifying: xDSL's check of an op against its IRDL definition (operand and result
    types, properties, attributes, trait checks) runs once per distinct (definition, operand types,
    result types, properties, attributes) of ops without regions or successors whose traits check
    nothing beyond those (no trait check, or SameOperandsAndResultType): for such an op the check
    reads nothing else.  The ~8,500 ops of the LLVM-level kernel have ~90 distinct ones.  The
    structural checks (terminators, erased operands) and an op's own `verify_` still run per op."""
    from xdsl.irdl.operations import OpDef
    from xdsl.traits import OpTrait, SameOperandsAndResultType

    orig = OpDef.verify
    local: dict[int, tuple[object, bool]] = {}  # id(op_def) -> (op_def kept alive, memoizable)
    passed: set[tuple] = set()

    def verify(self, op) -> None:
        hit = local.get(id(self))
        if hit is None or hit[0] is not self:
            hit = local[id(self)] = (self, not self.regions and not self.successors and all(
                type(t).verify is OpTrait.verify or type(t) is SameOperandsAndResultType for t in self.traits))
        if not hit[1] or op.regions or op.successors:
            orig(self, op)
            return
        try:
            key = (id(self), tuple(v.type for v in op.operands), tuple(r.type for r in op.results),
                   frozenset(op.properties.items()), frozenset(op.attributes.items()))
            seen = key in passed
        except TypeError:  # an unhashable attribute
            orig(self, op)
            return
        if not seen:
            orig(self, op)
            passed.add(key)

    OpDef.verify = verify
    try:
        yield
    finally:
        OpDef.verify = orig


@contextmanager
def isolation_checks_by_block():
    """While verifying: xDSL's IsolatedFromAbove check (every operand used inside the op is defined
    inside it) by a set of the op's blocks instead of walking each operand's parents up to the op:
    ~20% of the verification of the ~7,000-op LLVM-level kernel (one llvm.func holds them all).
    Any operand it cannot place inside (and an erased one) goes to xDSL's own check, which then
    raises as before; it reads the ops of nested isolated ops too, which xDSL leaves to their own
    check, so it may only send more ops to xDSL's, never fewer."""
    from xdsl.ir import Block
    from xdsl.traits import IsolatedFromAbove

    orig = IsolatedFromAbove.verify

    def verify(self, op) -> None:
        inside: set[int] = set()  # id(block), every block being alive in op
        owners = []
        regions = list(op.regions)
        while regions:
            for block in regions.pop().blocks:
                inside.add(id(block))
                for child in block.ops:
                    owners.extend([v.owner for v in child.operands])
                    if child.regions:
                        regions.extend(child.regions)
        for owner in owners:
            if owner is op or id(owner if type(owner) is Block else owner.parent) not in inside:
                orig(self, op)
                return

    IsolatedFromAbove.verify = verify
    try:
        yield
    finally:
        IsolatedFromAbove.verify = orig


XDSL_IRDL_OP_INIT = None  # xDSL's own builder (the tests compare the short way with it)


def _fast_irdl_op_init():
    """xDSL's `irdl_op_init` (the builder behind every `SomeOp(...)`) with a short way for the
    common definition: no regions, no segment-size option but the operands' (AttrSizedOperandSegments),
    the arguments given as plain values, types and blocks, a variadic (or optional) group as a list or
    tuple of them (an optional one also as None).  That builds exactly what xDSL builds (the operands,
    result types and successors, the groups flattened in order, the properties and attributes without
    the None ones, then the operand groups' sizes); anything else goes the general way.  The general
    way spent ~0.07 ms an op on ~15,000 ops per compile matching each argument against its
    definition; the short way sets the fields Operation.__init__ sets, which took another ~0.1 s of a
    gemm.mlir compile through its generic setters.  The variadic groups (llvm.inline_asm, GEPs: ~450
    ops of an sm_90a compile) joined the short way in session 14 (compile16f); the operand segment
    sizes (llvm.call_intrinsic, cf.cond_br, llvm.cond_br) and successors (the branches, ~260 operands
    each where a loop carries the accumulators) in session 15 (py16g)."""
    from collections.abc import Sequence

    from xdsl.dialects.builtin import UNKNOWN_LOC, DenseArrayBase, i32
    from xdsl.ir import Block, Operation, OpResult, SSAValue, SSAValues, Use
    from xdsl.irdl import operations as irdl_ops

    global XDSL_IRDL_OP_INIT
    XDSL_IRDL_OP_INIT = irdl_ops.irdl_op_init  # (looked up at each call: a test may stand in for it)
    # id(op_def) -> (op_def kept alive, short way applies, per operand / result / successor def: 0
    # single, 1 variadic, 2 optional; where the operand groups' sizes go: None, "properties" or "attributes")
    simple: dict[int, tuple[object, bool, tuple[int, ...], tuple[int, ...], tuple[int, ...], str | None]] = {}
    is_seq: dict[type, bool] = {}  # isinstance(t, Sequence) by type (an ABC check is a Python call)
    sizes_attrs: dict[tuple[int, ...], DenseArrayBase] = {}  # operand group sizes -> their attribute
    groups = (list, tuple)
    segments_name = irdl_ops.AttrSizedOperandSegments.attribute_name

    def kind(d) -> int:
        return 2 if isinstance(d, irdl_ops.OptionalDef) else 1 if isinstance(d, irdl_ops.VariadicDef) else 0

    def plain_type(t) -> bool:
        seq = is_seq.get(type(t))
        if seq is None:
            seq = is_seq[type(t)] = isinstance(t, Sequence)
        return t is not None and not seq

    def describe(op_def):
        sizes_in = None
        short = not op_def.regions
        for option in op_def.options:
            if type(option) is irdl_ops.AttrSizedOperandSegments:
                sizes_in = "properties" if option.as_property else "attributes"
            elif isinstance(option, (irdl_ops.AttrSizedSegments, irdl_ops.SameVariadicSize)):
                short = False  # (the options the builder acts on)
        return (op_def, short, tuple(kind(d) for _, d in op_def.operands), tuple(kind(d) for _, d in op_def.results),
                tuple(kind(d) for _, d in op_def.successors), sizes_in)

    def init(self, op_def, *, operands, result_types, properties, attributes, successors, regions):
        hit = simple.get(id(op_def))
        if hit is None or hit[0] is not op_def:
            hit = simple[id(op_def)] = describe(op_def)
        _, short, operand_kinds, result_kinds, successor_kinds, sizes_in = hit
        if (short and not regions and len(operands) == len(operand_kinds) and len(result_types) == len(result_kinds)
                and len(successors) == len(successor_kinds)):
            values = []
            sizes = []
            types = []
            blocks = []
            for o, k in zip(operands, operand_kinds):
                if k == 0:
                    if isinstance(o, SSAValue):
                        values.append(o)
                    elif isinstance(o, Operation):
                        values.append(SSAValue.get(o))
                    else:
                        break
                    sizes.append(1)
                elif o is None and k == 2:
                    sizes.append(0)
                elif (type(o) in groups and (k == 1 or len(o) <= 1)
                      and all(isinstance(v, SSAValue) for v in o)):
                    values.extend(o)
                    sizes.append(len(o))
                else:
                    break
            else:
                for t, k in zip(result_types, result_kinds):
                    if k == 0:
                        if not plain_type(t):
                            break
                        types.append(t)
                    elif t is None and k == 2:
                        pass
                    elif type(t) in groups and (k == 1 or len(t) <= 1) and all(plain_type(x) for x in t):
                        types.extend(t)
                    else:
                        break
                else:
                    for b, k in zip(successors, successor_kinds):
                        if k == 0 and type(b) is Block:
                            blocks.append(b)
                        elif b is None and k == 2:
                            pass
                        elif type(b) in groups and (k == 1 or len(b) <= 1) and all(type(x) is Block for x in b):
                            blocks.extend(b)
                        else:
                            break
                    else:
                        # Operation.__init__ without regions, step by step (its operand and successor
                        # setters first unlink old uses, of which a new op has none; the unknown
                        # location is xDSL's one UNKNOWN_LOC, which it imports anew for every op)
                        self._operands = SSAValues(values)
                        self._operand_uses = uses = tuple([Use(self, i) for i in range(len(values))])
                        for value, use in zip(values, uses):
                            value.add_use(use)
                        self.results = SSAValues([OpResult(t, self, i) for i, t in enumerate(types)])
                        self.properties = {k: v for k, v in properties.items() if v is not None}
                        self.attributes = {k: v for k, v in attributes.items() if v is not None}
                        if sizes_in is not None:
                            key = tuple(sizes)
                            attr = sizes_attrs.get(key)
                            if attr is None:
                                attr = sizes_attrs[key] = DenseArrayBase.from_list(i32, sizes)
                            (self.properties if sizes_in == "properties" else self.attributes)[segments_name] = attr
                        self.location = UNKNOWN_LOC
                        self.regions = ()
                        if blocks:
                            self._successors = tuple(blocks)
                            self._successor_uses = uses = tuple([Use(self, i) for i in range(len(blocks))])
                            for block, use in zip(blocks, uses):
                                block.add_use(use)
                        else:
                            self._successors = self._successor_uses = ()
                        self.__post_init__()
                        return
        XDSL_IRDL_OP_INIT(self, op_def, operands=operands, result_types=result_types, properties=properties,
                          attributes=attributes, successors=successors, regions=regions)

    irdl_ops.irdl_op_init = init


XDSL_SSA_VALUE_GET = None  # xDSL's own SSAValue.get (the tests compare the short way with it)


def _fast_ssa_value_get():
    """SSAValue.get(value) without a type returns the value itself, the short way.

    xDSL's builder passes every operand of a variadic group through SSAValue.get, which imports
    `isa` and subscripts the generic `SSAValue[...]` for a `cast` on every call (~4.5 us): the
    ~200-value branches and loops of a kernel with its accumulators loop-carried (~8,000 calls per
    gemm.mlir compile, ~0.035 s).  An Operation, or a type to check, goes xDSL's way."""
    from xdsl.ir import Attribute, SSAValue

    global XDSL_SSA_VALUE_GET
    if XDSL_SSA_VALUE_GET is not None:
        return
    general = XDSL_SSA_VALUE_GET = SSAValue.get

    def get(arg, *, type=Attribute):
        if type is Attribute and isinstance(arg, SSAValue):
            return arg
        return general(arg, type=type)

    get.__doc__ = general.__doc__
    SSAValue.get = staticmethod(get)


XDSL_OPERATION_WALK = None  # xDSL's own Operation.walk (the tests compare the short way with it)


def _fast_walk():
    """Operation.walk() (pre-order, forward: what every pass asks for) as one generator over a stack
    of iterators instead of xDSL's generator per operation, region and block, nested as deep as the
    op (each op yielded through ~3 x its depth generator frames: ~0.7 ms a walk of a 600-op kernel,
    ~20 walks a pass).  It is as lazy as xDSL's: an op's regions are read when the walk resumes after
    yielding it, a region's blocks and a block's ops through the same iterators (a block's iterator
    holds the next op before the current one is yielded), so a caller that changes the IR while
    walking sees what it saw.  `reverse` / `region_first` go xDSL's way."""
    from xdsl.ir import Block, Operation, Region

    global XDSL_OPERATION_WALK
    if XDSL_OPERATION_WALK is not None:
        return
    general = XDSL_OPERATION_WALK = Operation.walk

    def forward(op):
        yield op
        stack = [iter(op.regions)]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                stack.pop()
            elif type(nxt) is Region:
                stack.append(iter(nxt.blocks))
            elif type(nxt) is Block:
                stack.append(iter(nxt.ops))
            else:
                yield nxt
                if nxt.regions:
                    stack.append(iter(nxt.regions))

    def walk(self, *, reverse: bool = False, region_first: bool = False):
        if reverse or region_first:
            return general(self, reverse=reverse, region_first=region_first)
        return forward(self)

    walk.__doc__ = general.__doc__
    Operation.walk = walk


def _patch_xdsl() -> None:
    from xdsl.ir.core import RegionBlocks

    RegionBlocks.__len__ = _count_blocks
    _fast_irdl_op_init()
    _fast_ssa_value_get()
    _fast_walk()


_patch_xdsl()
