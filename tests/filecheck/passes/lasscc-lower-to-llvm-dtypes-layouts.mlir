// lasscc-lower-to-llvm (passes/lower_to_llvm.py), the ops of MN-major tf32 / s8 fragments:
// `lass_nv.ld_shared x n` is one aligned integer load of 32 n bits from the shared pointer (NVPTX
// emits ld.shared.b32 / .b64 / .v2.b64: tests/unit/test_dtype_layouts.py), word i its bits 32 i
// (lshr + trunc); `lass_nv.prmt` is the `llvm.nvvm.prmt` intrinsic.
//
// RUN: %lasscc opt -p lasscc-lower-to-llvm %s | filecheck %s
// Rejected: per-thread ops without a kernel around them:
// RUN: not %lasscc opt -p lasscc-lower-to-llvm %S/Inputs/lasscc-lower-to-llvm-not-swizzled.mlir.in 2>&1 | filecheck %s --check-prefix=ERR
// ERR: {{^.*}}Inputs/lasscc-lower-to-llvm-not-swizzled.mlir.in:{{[0-9]+}}:{{[0-9]+}}: error: {{.+}}

// CHECK-LABEL: llvm.func @k(
// CHECK:         [[P1:%[0-9]+]] = llvm.getelementptr %{{[0-9]+}}[%{{[0-9]+}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    [[W1:%[0-9]+]] = llvm.load [[P1]] {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//   (the same address: CSE shares the pointer, the function being one block)
// CHECK-NEXT:    [[W2:%[0-9]+]] = llvm.load [[P1]] {alignment = 8 : i64} : !llvm.ptr<3> -> i64
// CHECK-NEXT:    [[X:%[0-9]+]] = llvm.trunc [[W2]] : i64 to i32
// CHECK-NEXT:    [[C32:%[0-9]+]] = llvm.mlir.constant(32) : i64
// CHECK-NEXT:    [[HI:%[0-9]+]] = llvm.lshr [[W2]], [[C32]] : i64
// CHECK-NEXT:    [[Y:%[0-9]+]] = llvm.trunc [[HI]] : i64 to i32
// CHECK:         llvm.call_intrinsic "llvm.nvvm.prmt"([[X]], [[Y]], [[W1]]) : (i32, i32, i32) -> i32

// left alone: a function that is not a kernel
// CHECK-LABEL: func.func @not_a_kernel(%x: i32) {
// CHECK-NEXT:    func.return
func.func @k(%A: memref<?x?xi8>, %B: memref<?x?xi8>, %D: memref<?x?xi32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32)
    attributes {lass.kernel = #lass.kernel<ab = i8, d = i32, config = {threadblock = [64, 32, 64], warp = [32, 16, 64], stages = 3}>} {
  %tid = lass_nv.thread_id
  %sel = lass_nv.ld_shared %tid x 1
  %x, %y = lass_nv.ld_shared %tid x 2
  %p = lass_nv.prmt %x, %y, %sel
  %c0 = arith.constant 0 : i32
  %t = arith.constant true
  lass_nv.st_global %D[%c0], %p if %t : memref<?x?xi32>, i32
  func.return
}
func.func @not_a_kernel(%x: i32) {
  func.return
}
