// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s

// ldmatrix_x4: `trans` is a unit property (no value).

func.func @trans_with_value(%addr: i32) {
  %r0, %r1, %r2, %r3 = "lass_nv.ldmatrix_x4"(%addr) <{trans = 1 : i32}> : (i32) -> (i32, i32, i32, i32)
  func.return
}
// CHECK: 1 : i32 should be of base attribute unit
