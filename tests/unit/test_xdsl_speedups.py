"""lasscc.universe's speed-ups of xDSL keep its answers: the short way of building an op gives the
op xDSL's builder gives, and the memoized verification still rejects an invalid op after valid
ones of the same definition (and checks the parent of an op whose trait looks at it every time)."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith, cf, llvm
from xdsl.dialects.builtin import IntegerAttr, StringAttr, f32, i1, i32, i64
from xdsl.ir import Block
from xdsl.irdl import operations as irdl_ops
from xdsl.utils.test_value import create_ssa_value

from lasscc import universe
from lasscc.diagnostics import LassError
from lasscc.source import parse_mlir, verify_module


def _general(build):
    """`build()` with xDSL's own builder in place of the short way."""
    fast = irdl_ops.irdl_op_init
    irdl_ops.irdl_op_init = universe.XDSL_IRDL_OP_INIT
    try:
        return build()
    finally:
        irdl_ops.irdl_op_init = fast


BUILDS = {
    "addi": lambda x, y, a, p: arith.AddiOp(x, y),
    "constant": lambda x, y, a, p: arith.ConstantOp(IntegerAttr(7, i32)),
    "cmpi": lambda x, y, a, p: arith.CmpiOp(x, y, "ult"),
    "llvm.add": lambda x, y, a, p: llvm.AddOp(x, y),
    "llvm.sext": lambda x, y, a, p: llvm.SExtOp(x, i64),
    "llvm.fmul": lambda x, y, a, p: llvm.FMulOp(a, a),
    "llvm.gep (a variadic group)": lambda x, y, a, p: llvm.GEPOp(
        p, [llvm.GEP_USE_SSA_VAL], i32, ssa_indices=[x]),
    "llvm.inline_asm (variadic operands, an optional result as a list)": lambda x, y, a, p: llvm.InlineAsmOp.build(
        operands=[[x, a, y]], result_types=[[f32]],
        properties={"asm_string": StringAttr(""), "constraints": StringAttr("=f,r,f,r"), "has_side_effects": None}),
    "llvm.inline_asm (an empty group, the optional result as None)": lambda x, y, a, p: llvm.InlineAsmOp.build(
        operands=[()], result_types=[None], properties={"asm_string": StringAttr(""), "constraints": StringAttr("")}),
    "llvm.inline_asm (the builder)": lambda x, y, a, p: llvm.InlineAsmOp("", "=r,r,r", [x, y], [i32]),
    "with attribute": lambda x, y, a, p: arith.AddiOp.create(operands=[x, y], result_types=[i32],
                                                         attributes={"tag": StringAttr("t")}),
    # operand segment sizes (a property) and successors
    "llvm.call_intrinsic (operand segment sizes)": lambda x, y, a, p: llvm.CallIntrinsicOp("llvm.fma.f32", [a, a, a], [f32]),
    "llvm.call_intrinsic (no operands, no result)": lambda x, y, a, p: llvm.CallIntrinsicOp("llvm.nvvm.barrier0", [], []),
    "llvm.br (a successor and its arguments)": lambda x, y, a, p: llvm.BrOp(_BLOCKS[0], x, y),
    "cf.br": lambda x, y, a, p: cf.BranchOp(_BLOCKS[0], x, y),
    "cf.cond_br (segment sizes, two successors)": lambda x, y, a, p: cf.ConditionalBranchOp(
        _COND, _BLOCKS[0], [x, y], _BLOCKS[1], [y]),
    "llvm.cond_br": lambda x, y, a, p: llvm.CondBrOp(_COND, _BLOCKS[1], [y], _BLOCKS[0], [x, y]),
}
_BLOCKS = Block(arg_types=[i32, i32]), Block(arg_types=[i32])
_COND = create_ssa_value(i1)


@pytest.mark.parametrize("name", sorted(BUILDS))
def test_short_way_builds_the_same_op(name):
    args = create_ssa_value(i32), create_ssa_value(i32), create_ssa_value(f32), create_ssa_value(llvm.LLVMPointerType())
    fast = BUILDS[name](*args)
    slow = _general(lambda: BUILDS[name](*args))
    assert type(fast) is type(slow)
    assert list(fast.operands) == list(slow.operands)
    assert fast.result_types == slow.result_types
    assert fast.properties == slow.properties and fast.attributes == slow.attributes
    assert fast.regions == slow.regions == () and list(fast.successors) == list(slow.successors)
    assert [(u.operation, u.index) for u in fast._successor_uses] == [(fast, i) for i in range(len(slow.successors))]
    assert vars(fast).keys() == vars(slow).keys()  # no field left out or added
    assert fast.location is slow.location and fast.parent is slow.parent is None
    assert [(r.type, r.op, r.index) for r in fast.results] == [(r.type, fast, r.index) for r in slow.results]
    assert [r.op for r in slow.results] == [slow] * len(slow.results)
    assert [(u.operation, u.index) for u in fast._operand_uses] == [(fast, i) for i in range(len(slow.operands))]
    # each operand lists both ops' uses (the newest first), linked both ways
    for i, value in enumerate(fast.operands):
        chain = []
        use = value.first_use
        while use is not None:
            assert use._next_use is None or use._next_use._prev_use is use
            chain.append((use.operation, use.index))
            use = use._next_use
        assert (fast, i) in chain and (slow, i) in chain
    for i, block in enumerate(fast.successors):  # each successor lists both ops' uses
        assert (fast, i) in [(u.operation, u.index) for u in block.uses]
        assert (slow, i) in [(u.operation, u.index) for u in block.uses]


SHORT = ["llvm.call_intrinsic (operand segment sizes)", "llvm.br (a successor and its arguments)",
         "cf.cond_br (segment sizes, two successors)", "llvm.inline_asm (the builder)", "addi"]


@pytest.mark.parametrize("name", SHORT)
def test_short_way_applies(name, monkeypatch):
    """These builds take the short way (the comparison above would pass on the general way too)."""
    def general(*args, **kwargs):
        raise AssertionError("went the general way")

    args = create_ssa_value(i32), create_ssa_value(i32), create_ssa_value(f32), create_ssa_value(llvm.LLVMPointerType())
    monkeypatch.setattr(universe, "XDSL_IRDL_OP_INIT", general)
    BUILDS[name](*args)


def test_short_way_still_rejects_a_wrong_count():
    x = create_ssa_value(i32)
    with pytest.raises(ValueError):
        arith.AddiOp.build(operands=[x], result_types=[i32])


VALID_THEN_INVALID = """
func.func @f(%a: i32, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> (i32) {
    %y = arith.addi %x, %a : i32
    scf.yield %y : i32
  }
  %z = arith.addi %r, %a : i32
  %bad = "arith.addi"(%z, %a) {overflowFlags = #arith.overflow<none>, extra = 1 : i64} : (i32, i32) -> i64
  func.return %z : i32
}
"""

def test_memoized_verification_rejects_invalid_after_valid():
    with pytest.raises(LassError, match="<input>:.*"):
        parse_mlir(VALID_THEN_INVALID, "<input>")


def test_memoized_verification_checks_parents_every_time():
    module = parse_mlir(VALID_THEN_INVALID.replace("  %bad = ", "  // ").replace(
        "(i32, i32) -> i64", ""), "<input>")
    verify_module(module)  # valid: no error
    bad_yield = next(o for o in module.walk() if o.name == "scf.yield").clone()
    fn = next(o for o in module.walk() if o.name == "func.func")
    fn.body.block.insert_op_before(bad_yield, fn.body.block.last_op)  # a scf.yield in a func
    with pytest.raises(LassError):
        verify_module(module)


ISOLATED = """
func.func @outer(%a: i32) -> i32 {
  %c = arith.constant 3 : i32
  func.return %c : i32
}
func.func @f(%a: i32, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> (i32) {
    %y = arith.addi %x, %a : i32
    scf.yield %y : i32
  }
  func.return %r : i32
}
"""


def test_isolation_check_by_block_accepts_and_rejects_as_xdsl():
    """universe.isolation_checks_by_block: a valid nest (values from the entry block, a loop's
    block argument, a nested region) passes; a use of another function's value is rejected with
    xDSL's own message."""
    from xdsl.traits import IsolatedFromAbove
    from xdsl.utils.exceptions import VerifyException

    module = parse_mlir(ISOLATED, "<input>")
    verify_module(module)
    outer, f = [o for o in module.ops]
    addi = next(o for o in f.walk() if o.name == "arith.addi")
    foreign = outer.body.block.first_op.result  # %c of @outer
    addi.operands = [addi.operands[0], foreign]
    with pytest.raises(VerifyException) as xdsl_err:
        IsolatedFromAbove().verify(f)  # xDSL's check, outside verify_module
    with universe.isolation_checks_by_block(), pytest.raises(VerifyException) as fast_err:
        IsolatedFromAbove().verify(f)
    assert str(fast_err.value) == str(xdsl_err.value)
    with pytest.raises(LassError, match="IsolatedFromAbove"):
        verify_module(module)
    addi.operands = [addi.operands[0], f.body.block.args[0]]
    with universe.isolation_checks_by_block():
        IsolatedFromAbove().verify(f)  # valid again


def test_ssa_value_get_short_way_returns_what_xdsl_returns():
    """SSAValue.get: a value without a type is itself (xDSL's cast); an op, a type check and a bad
    argument go xDSL's way, with its results and errors."""
    from xdsl.ir import SSAValue

    general = universe.XDSL_SSA_VALUE_GET
    assert general is not None and SSAValue.get is not general
    x = create_ssa_value(i32)
    assert SSAValue.get(x) is general(x) is x
    const = arith.ConstantOp(IntegerAttr(7, i32))
    assert SSAValue.get(const) is general(const) is const.result
    assert SSAValue.get(x, type=type(i32)) is x
    with pytest.raises(ValueError, match="Expected"):
        SSAValue.get(x, type=type(f32))
    with pytest.raises(ValueError, match="single result"):
        SSAValue.get(llvm.ReturnOp.create())
    # a variadic builder (llvm.br's block arguments) takes its operands through it
    from xdsl.ir import Block

    target = Block(arg_types=[i32, i32])
    br = llvm.BrOp(target, x, const.result)
    assert list(br.operands) == [x, const.result] and br.successors[0] is target


WALKED = """
func.func @f(%a: i32, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> (i32) {
    %y = arith.addi %x, %a : i32
    %c = arith.cmpi ult, %y, %a : i32
    %z = scf.if %c -> (i32) {
      %t = arith.muli %y, %y : i32
      scf.yield %t : i32
    } else {
      scf.yield %y : i32
    }
    scf.yield %z : i32
  }
  %w = arith.addi %r, %a : i32
  func.return %w : i32
}
func.func @g() {
  func.return
}
"""


def _kernel():
    """A TMA-store wgmma kernel after lasscc-warp-specialize (~600 ops, regions 5 deep)."""
    from pathlib import Path

    from lasscc import driver
    from lasscc.source import read_file

    path = str(Path(__file__).resolve().parents[2] / "examples" / "gemm_wgmma_tma_store.mlir")
    module = parse_mlir(read_file(path), path)
    driver.run_passes(module, driver.PASS_NAMES[:driver.PASS_NAMES.index("lasscc-warp-specialize") + 1], "sm_90a", path)
    return module


def _walks(module, walk):
    """The ops `walk` yields from `module`, then from a walk that changes the IR as it goes (detaches
    each arith.muli it meets, and the op two after each arith.addi: read lazily, as xDSL reads it,
    that one is not walked)."""
    plain = [o.name for o in walk(module)]
    changed = []
    for o in walk(module):
        changed.append(o.name)
        if o.name == "arith.muli":
            o.detach()
        elif o.name == "arith.addi" and o.next_op is not None and o.next_op.next_op is not None:
            o.next_op.next_op.detach()
    return plain, changed


def test_walk_yields_what_xdsl_yields(monkeypatch):
    from xdsl.ir import Operation

    fast = Operation.walk
    assert fast is not universe.XDSL_OPERATION_WALK  # the short way is installed
    modules = [parse_mlir(WALKED), _kernel()]
    got = [_walks(m.clone(), lambda x: x.walk()) for m in modules]
    got_kw = [[o.name for o in modules[0].walk(**kw)] for kw in ({"reverse": True}, {"region_first": True})]
    monkeypatch.setattr(Operation, "walk", universe.XDSL_OPERATION_WALK)  # xDSL's, all the way down
    want = [_walks(m.clone(), lambda x: x.walk()) for m in modules]
    want_kw = [[o.name for o in modules[0].walk(**kw)] for kw in ({"reverse": True}, {"region_first": True})]
    assert got == want and got_kw == want_kw
    assert all(len(g[0]) > 10 and g[0] != g[1] for g in got)  # the second walk saw the changes
