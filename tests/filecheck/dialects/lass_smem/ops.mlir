// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round trip of every `lass_smem` op.

// CHECK-LABEL: func.func @swizzle(
// CHECK-NEXT:    %phys = lass_smem.swizzle %logical {bits = 3 : i64, base = 4 : i64, shift = 3 : i64}
// CHECK-NEXT:    %edge = lass_smem.swizzle %logical {bits = 0 : i64, base = 0 : i64, shift = 0 : i64}
// CHECK-NEXT:    %wide = lass_smem.swizzle %phys {bits = 8 : i64, base = 8 : i64, shift = 9 : i64}
// CHECK-NEXT:    func.return %phys, %wide : i32, i32
func.func @swizzle(%logical: i32) -> (i32, i32) {
  %phys = lass_smem.swizzle %logical {bits = 3 : i64, base = 4 : i64, shift = 3 : i64}
  %edge = lass_smem.swizzle %logical {bits = 0 : i64, base = 0 : i64, shift = 0 : i64}
  %wide = lass_smem.swizzle %phys {bits = 8 : i64, base = 8 : i64, shift = 9 : i64}
  func.return %phys, %wide : i32, i32
}
