// lasscc-lower-to-llvm (passes/lower_to_llvm.py), narrow tile-copy accesses (the kernel config's `align`):
// `lass_nv.cp_async {bytes = 8 / 4}` -> the zero-filling cp.async.ca intrinsics (src-size w or 0);
// `lass_nv.ld_global_b` -> inline PTX: a predicated ld.global.u16 (.u8, .u32) into a zeroed .b32
// register, or ld.global.v2.u32 for 8 bytes; `lass_nv.st_shared_b` -> an LLVM store of i16 (the
// low half of the register) or <2 x i32>, aligned to its width.
//
// RUN: %lasscc opt -p lasscc-lower-to-llvm %s | filecheck %s
// Rejected: an op without a lowering (the check TN has too):
// RUN: not %lasscc opt -p lasscc-lower-to-llvm %S/Inputs/lasscc-lower-to-llvm-unknown-op.mlir.in 2>&1 | filecheck %s --check-prefix=ERR
// ERR: {{^.*}}Inputs/lasscc-lower-to-llvm-unknown-op.mlir.in:9:5: error: 'arith.divsi' has no lowering{{.*$}}

// CHECK-LABEL: llvm.func @k(
// CHECK-SAME:    align = [1, 4]}>}
// CHECK:         [[P:%[0-9]+]] = llvm.icmp "ult"
// CHECK-NEXT:    [[C8:%[0-9]+]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-NEXT:    [[C0:%[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    [[SZ8:%[0-9]+]] = llvm.select [[P]], [[C8]], [[C0]] : i1, i32
// CHECK:         llvm.call_intrinsic "llvm.nvvm.cp.async.ca.shared.global.8.s"(%{{[0-9]+}}, %{{[0-9]+}}, [[SZ8]]) : (!llvm.ptr<3>, !llvm.ptr<1>, i32) -> ()
// CHECK:         llvm.call_intrinsic "llvm.nvvm.cp.async.ca.shared.global.4.s"(
// CHECK:         [[H:%[0-9]+]] = llvm.inline_asm has_side_effects "{\0A .reg .pred p;\0A setp.ne.b32 p, $2, 0;\0A mov.b32 $0, 0;\0A @p ld.global.u16 $0, [$1];\0A}", "=r,l,r" %{{[0-9]+}}, %{{[0-9]+}} : (i64, i32) -> i32
// CHECK-NEXT:    [[H16:%[0-9]+]] = llvm.trunc [[H]] : i32 to i16
// CHECK-NEXT:    llvm.store [[H16]], %{{[0-9]+}} {alignment = 2 : i64} : i16, !llvm.ptr<3>
// CHECK:         llvm.inline_asm has_side_effects "{{.*}}@p ld.global.v2.u32 {$0, $1}, [$2];{{.*}}", "=r,=r,l,r"
// CHECK:         llvm.store %{{[0-9]+}}, %{{[0-9]+}} {alignment = 8 : i64} : vector<2xi32>, !llvm.ptr<3>
// CHECK-NOT:     lass_nv.
// Not a kernel (no lass.kernel): left alone.
// CHECK-LABEL: func.func @not_a_kernel(
// CHECK-NEXT:    lass_nv.cp_async %{{[A-Za-z_0-9]+}}[%off], %off, %p {bytes = 4 : i64} : memref<?x?xf16>

func.func @k(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32)
    attributes {lass.kernel = #lass.kernel<config = {threadblock = [64, 32, 32], warp = [32, 32, 32], stages = 3, align = [1, 4]}>} {
  %off = lass_nv.thread_id
  %p = arith.cmpi ult, %off, %K : i32
  lass_nv.cp_async %B[%off], %off, %p {bytes = 8 : i64} : memref<?x?xf16, strided<[1, ?]>>
  lass_nv.cp_async %B[%off], %off, %p {bytes = 4 : i64} : memref<?x?xf16, strided<[1, ?]>>
  %h = lass_nv.ld_global_b %A[%off], %p {bytes = 2 : i64} : memref<?x?xf16> -> i32
  lass_nv.st_shared_b %off, %h {bytes = 2 : i64} : i32
  %q0, %q1 = lass_nv.ld_global_b %A[%off], %p {bytes = 8 : i64} : memref<?x?xf16> -> i32, i32
  lass_nv.st_shared_b %off, %q0, %q1 {bytes = 8 : i64} : i32, i32
  func.return
}

func.func @not_a_kernel(%A: memref<?x?xf16>, %off: i32, %p: i1) {
  lass_nv.cp_async %A[%off], %off, %p {bytes = 4 : i64} : memref<?x?xf16>
  func.return
}
