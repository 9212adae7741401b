// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s

// lass_nv.ld_shared and lass_nv.prmt: one case per verifier message.

func.func @ld_shared_three(%addr: i32) {
  %r:3 = "lass_nv.ld_shared"(%addr) : (i32) -> (i32, i32, i32)
  func.return
}
// CHECK: Operation does not verify: expected 1, 2 or 4 i32 results (ld.shared.b32 / .v2 / .v4), got ['i32', 'i32', 'i32']

// -----

func.func @ld_shared_f32(%addr: i32) {
  %r:2 = "lass_nv.ld_shared"(%addr) : (i32) -> (i32, f32)
  func.return
}
// CHECK: Operation does not verify: expected 1, 2 or 4 i32 results (ld.shared.b32 / .v2 / .v4), got ['i32', 'f32']

// -----

func.func @prmt_wide_selector(%a: i32, %b: i32) {
  %c = arith.constant 65536 : i32
  %d = lass_nv.prmt %a, %b, %c
  func.return
}
// CHECK: Operation does not verify: expected a selector of 16 bits (four byte selectors, 0 to 0xffff), got 0x10000

// -----

func.func @prmt_negative_selector(%a: i32, %b: i32) {
  %c = arith.constant -1 : i32
  %d = lass_nv.prmt %a, %b, %c
  func.return
}
// CHECK: Operation does not verify: expected a selector of 16 bits (four byte selectors, 0 to 0xffff), got 0xffffffff

// -----

func.func @prmt_i64(%a: i64, %b: i32, %c: i32) {
  %d = "lass_nv.prmt"(%a, %b, %c) : (i64, i32, i32) -> i32
  func.return
}
// CHECK: Operation does not verify: operand 'a' at position 0 does not verify:
// CHECK: Expected attribute i32 but got i64
