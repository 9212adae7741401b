// RUN: xdsl-opt %s --verify-diagnostics --split-input-file | filecheck %s

// Each way of breaking the verifier of lass_smem.swizzle (dialects/lass_smem.py):
// 0 <= bits <= 8, 0 <= base <= 8, shift >= bits.

func.func @bits_too_large(%x: i32) {
  %y = lass_smem.swizzle %x {bits = 9 : i64, base = 4 : i64, shift = 9 : i64}
  func.return
}
// CHECK: Operation does not verify: expected 0 <= bits, base <= 8 and shift >= bits, got bits=9 base=4 shift=9

// -----

func.func @bits_negative(%x: i32) {
  %y = lass_smem.swizzle %x {bits = -1 : i64, base = 4 : i64, shift = 3 : i64}
  func.return
}
// CHECK: Operation does not verify: expected 0 <= bits, base <= 8 and shift >= bits, got bits=-1 base=4 shift=3

// -----

func.func @base_too_large(%x: i32) {
  %y = lass_smem.swizzle %x {bits = 3 : i64, base = 9 : i64, shift = 3 : i64}
  func.return
}
// CHECK: Operation does not verify: expected 0 <= bits, base <= 8 and shift >= bits, got bits=3 base=9 shift=3

// -----

func.func @base_negative(%x: i32) {
  %y = lass_smem.swizzle %x {bits = 3 : i64, base = -4 : i64, shift = 3 : i64}
  func.return
}
// CHECK: Operation does not verify: expected 0 <= bits, base <= 8 and shift >= bits, got bits=3 base=-4 shift=3

// -----

func.func @shift_below_bits(%x: i32) {
  %y = lass_smem.swizzle %x {bits = 3 : i64, base = 4 : i64, shift = 2 : i64}
  func.return
}
// CHECK: Operation does not verify: expected 0 <= bits, base <= 8 and shift >= bits, got bits=3 base=4 shift=2

// -----

func.func @missing_shift(%x: i32) {
  %y = lass_smem.swizzle %x {bits = 3 : i64, base = 4 : i64}
  func.return
}
// CHECK: Operation does not verify: attribute 'shift' expected in operation 'lass_smem.swizzle'

// -----

func.func @logical_not_i32(%x: i64) {
  %y = "lass_smem.swizzle"(%x) {bits = 3 : i64, base = 4 : i64, shift = 3 : i64} : (i64) -> i32
  func.return
}
// CHECK: Operation does not verify: operand 'logical' at position 0 does not verify:
