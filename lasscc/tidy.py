"""The tidy-up after each pass: common-subexpression and dead-code elimination, as xDSL's `cse` and
`dce` passes do them, with the same result, in a fraction of the time.

xDSL's passes ask an op for its memory effects through its traits each time they need them, and
an `scf.for` / `scf.if` (RecursiveMemoryEffect) answers by asking every op in its body again:
on the ~16,000-op warp-level kernel that was ~40 % of CSE, and DCE asks each op once per
liveness sweep.  Here an op's effects, and whether it would be dead unused, are computed once per
run (memoized by op: nothing a run does changes an op's effects before its erasures are
committed), the traits once per op class, and an op's CSE key once per op.

    cse(module); dce(module)   # == xDSL's CommonSubexpressionElimination, then DeadCodeElimination

The CSE visits ops in the same order, keys them by the same fields (name, attributes, properties,
result types, operands; regions compared structurally), scopes them by the same regions and
replaces / erases the same ops as xDSL 0.74's `CSEDriver`; the DCE finds the live ops of xDSL's
`region_dce` in one sweep (`_LiveSet`: the producers of a live op marked with it) and deletes the rest
as it does.  `tests/unit/test_tidy.py` checks both against xDSL's passes.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import ModuleOp, UnregisteredOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import Rewriter
from xdsl.traits import (
    EffectInstance,
    IsolatedFromAbove,
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    RecursiveMemoryEffect,
    SymbolOpInterface,
)
from xdsl.transforms.dead_code_elimination import LiveSet

_READ = MemoryEffectKind.READ
_WRITE = MemoryEffectKind.WRITE
_ALLOC = MemoryEffectKind.ALLOC
_MISSING = object()


class _Effects:
    """Memoized `xdsl.traits.get_effects` and the trait queries of one tidy-up step."""

    def __init__(self) -> None:
        # keyed by id(op): an op's own hash is a Python call (xDSL's `id(self)`); every op stays
        # alive while a tidy-up step runs (erasures are committed at its end)
        self._effects: dict[int, frozenset[EffectInstance] | None] = {}
        self._dead_unused: dict[int, bool] = {}

    @staticmethod
    def has_trait(op: Operation, trait: type, value_if_unregistered: bool) -> bool:
        key = (type(op), trait, value_if_unregistered)
        has = _HAS.get(key)
        if has is None:
            has = _HAS[key] = op.has_trait(trait, value_if_unregistered=value_if_unregistered)
        return has

    def of(self, op: Operation) -> frozenset[EffectInstance] | None:
        """get_effects(op): None = unknown effects; a RecursiveMemoryEffect op's children memoized."""
        result = self._effects.get(id(op), _MISSING)
        if result is not _MISSING:
            return result
        cls = type(op)
        traits = _TRAITS.get(cls)
        if traits is None:
            traits = _TRAITS[cls] = tuple(
                (it, getattr(type(it).get_effects, "__func__", None) is _RECURSIVE_GET_EFFECTS)
                for it in op.get_traits_of_type(MemoryEffect))
        effects: set[EffectInstance] | None = set() if traits else None
        for it, recursive in traits:
            it_effects = self._recursive(op) if recursive else it.get_effects(op)
            if it_effects is None:
                effects = None
                break
            effects.update(it_effects)
        result = self._effects[id(op)] = None if effects is None else frozenset(effects)
        return result

    def _recursive(self, op: Operation) -> set[EffectInstance] | None:
        effects: set[EffectInstance] = set()
        for r in op.regions:
            for b in r.blocks:
                for child in b.ops:
                    child_effects = self.of(child)
                    if child_effects is None:
                        return None
                    effects.update(child_effects)
        return effects

    def would_be_trivially_dead(self, op: Operation) -> bool:
        """xDSL's `would_be_trivially_dead`: no effect observable beyond its results."""
        dead = self._dead_unused.get(id(op))
        if dead is None:
            dead = self._dead_unused[id(op)] = (
                not self.has_trait(op, IsTerminator, False)
                and not self.has_trait(op, SymbolOpInterface, False)
                and self._result_only_effects(op))
        return dead

    def _result_only_effects(self, op: Operation) -> bool:
        effects = self.of(op)
        return effects is not None and all(
            e.kind == _READ
            or (e.kind == _ALLOC and isinstance(v := e.value, SSAValue) and op.is_ancestor(v.owner))
            for e in effects)

    def is_trivially_dead(self, op: Operation) -> bool:
        return all(r.first_use is None for r in op.results) and self.would_be_trivially_dead(op)


_RECURSIVE_GET_EFFECTS: Callable = RecursiveMemoryEffect.get_effects.__func__
# an op class's MemoryEffect traits (each with whether it is RecursiveMemoryEffect's) and its answers
# to has_trait: fixed by the class, so kept across tidy-up steps (~25 per compile) and compiles
_TRAITS: dict[type, tuple[tuple[MemoryEffect, bool], ...]] = {}
_HAS: dict[tuple[type, type, bool], bool] = {}


class _RegionedKey:
    """The CSE key of an op with regions: equal when the plain keys are and the regions are
    structurally equivalent (xDSL's OperationInfo)."""

    __slots__ = ("base", "op", "_hash")

    def __init__(self, base: tuple, op: Operation) -> None:
        self.base, self.op, self._hash = base, op, hash(base)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, _RegionedKey) and self.base == other.base
                and all(s.is_structurally_equivalent(o)
                        for s, o in zip(self.op.regions, other.op.regions, strict=True)))


def _key(op: Operation):
    name = op.op_name.data if isinstance(op, UnregisteredOp) else op.name
    base = (name, frozenset(op.attributes.items()), frozenset(op.properties.items()),
            op.result_types, tuple(op.operands))
    return _RegionedKey(base, op) if op.regions else base


class _CSE:
    """xDSL's CSEDriver with memoized effects, keys computed once, and scopes as an undo log
    (entering a region marks the log, leaving it undoes the entries made inside) instead of a
    copy of the whole table per region."""

    def __init__(self) -> None:
        self.fx = _Effects()
        self.known: dict = {}
        self.log: list[tuple[object, object]] = []
        self.to_erase: list[Operation] = []

    def _insert(self, key, op: Operation) -> None:
        self.log.append((key, self.known.get(key, _MISSING)))
        self.known[key] = op

    def _undo(self, mark: int) -> None:
        known, log = self.known, self.log
        while len(log) > mark:
            key, prev = log.pop()
            if prev is _MISSING:
                del known[key]
            else:
                known[key] = prev

    def _replace(self, op: Operation, existing: Operation) -> None:
        # xDSL replaces a result's uses only where no user is already a known op: never the
        # case here, as a user of `op` comes after it in dominance order and is not visited yet.
        for o, n in zip(op.results, existing.results, strict=True):
            o.replace_all_uses_with(n)
        self.to_erase.append(op)

    def _write_between(self, from_op: Operation, to_op: Operation) -> bool:
        op = from_op
        while op is not to_op:
            effects = self.fx.of(op)
            if effects is None or any(e.kind is _WRITE for e in effects):
                return True
            op = op.next_op
        return False

    def _simplify_operation(self, op: Operation) -> None:
        fx = self.fx
        if fx.has_trait(op, IsTerminator, True):
            return
        if fx.is_trivially_dead(op):
            self.to_erase.append(op)
            return
        if any(len(region.blocks) > 1 for region in op.regions):
            return
        effects = fx.of(op)
        key = None
        if effects is None or effects:
            if effects is None or not all(e.kind == _READ for e in effects):
                return
            key = _key(op)
            existing = self.known.get(key)
            # a read-only op: the same value only if nothing may write between the two
            if (existing is not None and op.parent_block() is existing.parent_block()
                    and not self._write_between(existing, op)):
                self._replace(op, existing)
                return
            self._insert(key, op)
            return
        key = _key(op)
        existing = self.known.get(key)
        if existing is not None:
            self._replace(op, existing)
            return
        self._insert(key, op)

    def _simplify_block(self, block: Block) -> None:
        for op in block.ops:
            if op.regions:
                if self.fx.has_trait(op, IsolatedFromAbove, True):  # a blank scope inside
                    saved = self.known, self.log
                    self.known, self.log = {}, []
                    for region in op.regions:
                        self._simplify_region(region)
                    self.known, self.log = saved
                else:
                    for region in op.regions:
                        self._simplify_region(region)
            self._simplify_operation(op)

    def _simplify_region(self, region: Region) -> None:
        if len(region.blocks) == 1:
            mark = len(self.log)
            self._simplify_block(region.block)
            self._undo(mark)

    def run(self, module: Operation) -> None:
        for region in module.regions:
            self._simplify_region(region)
        for o in self.to_erase:
            if o.parent is not None:
                Rewriter.erase_op(o)


class _LiveSet(LiveSet):
    """xDSL's LiveSet in one sweep: the same live ops (the least set holding every op that
    would not be trivially dead and every op with a use in a live op, over the ops xDSL's sweep
    visits: the blocks reachable from each region's entry, the regions of every visited op), found
    by marking an op live together with the producers of its operands, transitively.  xDSL marks an
    op live only once a live user has been seen, sweeping the whole IR again until nothing changes
    (at least twice); here an op already live when the sweep reaches it is not asked for its
    effects at all (in reverse order most ops' users come first).  A live op's producers are in
    visited blocks in valid IR (a definition in an unreachable block dominates no use elsewhere).
    Live ops are kept by id (an op's own hash is a Python call; every op stays alive until
    `delete_dead`)."""

    def __init__(self) -> None:
        super().__init__()
        self.fx = _Effects()
        self._live: set[int] = set()

    def is_live(self, op: Operation) -> bool:
        return id(op) in self._live

    def _mark(self, op: Operation) -> None:
        """`op` live, and the producers of its operands, transitively."""
        live = self._live
        live.add(id(op))
        stack = [op]
        while stack:
            for v in stack.pop().operands:
                owner = v.owner
                if type(owner) is not Block and id(owner) not in live:
                    live.add(id(owner))
                    stack.append(owner)

    def propagate_op_liveness(self, op: Operation):
        for region in op.regions:
            self.propagate_region_liveness(region)
        if id(op) not in self._live and not self.fx.would_be_trivially_dead(op):
            self._mark(op)

    def run(self, region: Region) -> None:
        self.propagate_region_liveness(region)
        self.delete_dead(region, None)


def cse(module: ModuleOp) -> None:
    """xDSL's `cse` pass on `module`."""
    _CSE().run(module)


def dce(module: ModuleOp) -> None:
    """xDSL's `dce` pass on `module`."""
    _LiveSet().run(module.body)
