// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// The ops of MN-major tf32 / s8 fragments: ld.shared.b32 / .v2 / .v4 (`x n` registers) and prmt.b32.

// CHECK-LABEL: func.func @ld_shared(%addr: i32) -> (i32, i32, i32) {
// CHECK-NEXT:    %w = lass_nv.ld_shared %addr x 1
// CHECK-NEXT:    %x0, %x1 = lass_nv.ld_shared %addr x 2
// CHECK-NEXT:    %v0, %v1, %v2, %v3 = lass_nv.ld_shared %addr x 4
// CHECK-NEXT:    func.return %w, %x1, %v3 : i32, i32, i32
func.func @ld_shared(%addr: i32) -> (i32, i32, i32) {
  %w = lass_nv.ld_shared %addr x 1
  %x0, %x1 = lass_nv.ld_shared %addr x 2
  %v0, %v1, %v2, %v3 = lass_nv.ld_shared %addr x 4
  func.return %w, %x1, %v3 : i32, i32, i32
}

// A constant selector (bytes 0, 2 of a and of b) and a per-lane one.
// CHECK-LABEL: func.func @prmt(%a: i32, %b: i32, %sel: i32) -> (i32, i32) {
// CHECK-NEXT:    %c = arith.constant 25632 : i32
// CHECK-NEXT:    %lo = lass_nv.prmt %a, %b, %c
// CHECK-NEXT:    %any = lass_nv.prmt %a, %b, %sel
// CHECK-NEXT:    func.return %lo, %any : i32, i32
func.func @prmt(%a: i32, %b: i32, %sel: i32) -> (i32, i32) {
  %c = arith.constant 25632 : i32
  %lo = lass_nv.prmt %a, %b, %c
  %any = lass_nv.prmt %a, %b, %sel
  func.return %lo, %any : i32, i32
}
