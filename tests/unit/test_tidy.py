"""lasscc.tidy's CSE and DCE give exactly what xDSL's `cse` and `dce` passes give, after every pass
of a whole mma.sync and a whole wgmma compile (the driver's tidy-up checked against xDSL's), and on
small cases of each rule: pure ops merged, read-only ops merged only without a write between,
scopes ending with their region, isolated ops starting blank, dead ops (and dead loops, chains, unreachable
blocks) removed."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin, cf, func, memref, scf
from xdsl.parser import Parser
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination
from xdsl.transforms.dead_code_elimination import DeadCodeElimination

from lasscc import driver, tidy
from lasscc.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _ctx() -> Context:
    ctx = Context()
    for d in (arith.Arith, builtin.Builtin, cf.Cf, func.Func, memref.MemRef, scf.Scf):
        ctx.load_dialect(d)
    return ctx


def _both(module: builtin.ModuleOp) -> tuple[str, str]:
    """(xDSL's cse + dce, lasscc.tidy's) of `module`, printed; `module` is left unchanged."""
    ref, mine = module.clone(), module.clone()
    CommonSubexpressionElimination().apply(_ctx(), ref)
    DeadCodeElimination().apply(_ctx(), ref)
    tidy.cse(mine)
    tidy.dce(mine)
    return str(ref), str(mine)


@pytest.mark.parametrize("example,arch", [("gemm_small_tiles.mlir", "sm_80"), ("gemm_wgmma.mlir", "sm_90a")])
def test_driver_tidy_matches_xdsl(example, arch, tmp_path, monkeypatch):
    seen = []
    cse, dce = tidy.cse, tidy.dce

    def checked_cse(module):
        ref = module.clone()
        CommonSubexpressionElimination().apply(_ctx(), ref)
        cse(module)
        assert str(module) == str(ref)
        seen.append("cse")

    def checked_dce(module):
        ref = module.clone()
        DeadCodeElimination().apply(_ctx(), ref)
        dce(module)
        assert str(module) == str(ref)
        seen.append("dce")

    monkeypatch.setattr(driver.tidy, "cse", checked_cse)
    monkeypatch.setattr(driver.tidy, "dce", checked_dce)
    out = tmp_path / "k.ptx"
    assert main(["compile", str(ROOT / "examples" / example), "--arch", arch, "-o", str(out), "--no-cache"]) == 0
    assert seen.count("cse") >= 5 and seen.count("dce") == seen.count("cse")
    assert ".entry" in out.read_text()


CASES = {
    "pure": """
func.func @f(%a: i32, %b: i32) -> (i32, i32) {
  %x = arith.addi %a, %b : i32
  %y = arith.addi %a, %b : i32
  %z = arith.muli %a, %b : i32
  func.return %x, %y : i32, i32
}""",
    "reads": """
func.func @f(%m: memref<4xi32>, %i: index, %v: i32) -> (i32, i32, i32, i32) {
  %a = memref.load %m[%i] : memref<4xi32>
  %b = memref.load %m[%i] : memref<4xi32>
  memref.store %v, %m[%i] : memref<4xi32>
  %c = memref.load %m[%i] : memref<4xi32>
  %d = memref.load %m[%i] : memref<4xi32>
  func.return %a, %b, %c, %d : i32, i32, i32, i32
}""",
    "scopes": """
func.func @f(%a: i32, %b: i32, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.addi %a, %b : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (i32) {
    %y = arith.addi %a, %b : i32
    %k = arith.muli %a, %a : i32
    %w0 = arith.muli %acc, %y : i32
    %w = arith.addi %w0, %k : i32
    %c1b = arith.constant 1 : index
    %dead = arith.subi %w, %w : i32
    scf.yield %w : i32
  }
  %k2 = arith.muli %a, %a : i32
  %w1 = arith.muli %r, %x : i32
  %w2 = arith.addi %w1, %k2 : i32
  %unused = scf.for %j = %c0 to %n step %c1 iter_args(%q = %x) -> (i32) {
    %t = arith.addi %q, %a : i32
    scf.yield %t : i32
  }
  func.return %w2 : i32
}
func.func @g(%a: i32, %b: i32) -> i32 {
  %x = arith.addi %a, %b : i32
  func.return %x : i32
}""",
    # blocks (as lasscc-lower-to-llvm leaves them): values live only through a branch's block
    # arguments or a use in a later block, a chain dead only once its last op is, an unreachable block
    "blocks": """
func.func @f(%a: i32, %n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %unused = arith.muli %a, %a : i32
  cf.br ^head(%c0, %a : i32, i32)
^head(%i: i32, %acc: i32):
  %lt = arith.cmpi slt, %i, %n : i32
  %later = arith.addi %acc, %a : i32
  %chain0 = arith.muli %acc, %acc : i32
  %chain1 = arith.addi %chain0, %i : i32
  cf.cond_br %lt, ^body, ^exit
^body:
  %next = arith.addi %i, %c1 : i32
  %acc2 = arith.muli %later, %c1 : i32
  %chain2 = arith.subi %chain1, %acc2 : i32
  cf.br ^head(%next, %acc2 : i32, i32)
^exit:
  func.return %acc : i32
^unreachable:
  %u = arith.addi %a, %c1 : i32
  cf.br ^exit
}""",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_cases_match_xdsl(case):
    module = Parser(_ctx(), CASES[case]).parse_module()
    ref, mine = _both(module)
    assert mine == ref
    assert mine != str(module)  # each case has something to remove
