// lasscc-lower-to-llvm (passes/lower_to_llvm.py), operand layouts: `lass_nv.ldmatrix_x4 ... trans`
// becomes the .trans NVVM intrinsic; the caller's layouts (in #lass.kernel) stay on
// the llvm.func for the launcher.
//
// RUN: %lasscc opt -p lasscc-lower-to-llvm %s | filecheck %s
// Rejected: per-thread ops without a kernel around them (the check TN has too):
// RUN: not %lasscc opt -p lasscc-lower-to-llvm %S/Inputs/lasscc-lower-to-llvm-not-swizzled.mlir.in 2>&1 | filecheck %s --check-prefix=ERR
// ERR: {{^.*}}Inputs/lasscc-lower-to-llvm-not-swizzled.mlir.in:{{[0-9]+}}:{{[0-9]+}}: error: {{.+}}

// CHECK-LABEL: llvm.func @k(
// CHECK-SAME:    #lass.kernel<ab = f16, acc = f32, d = f32, layouts = [col, row, row], {{.*}}>} {
// CHECK:         llvm.call_intrinsic "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3"(%{{[0-9]+}}) : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3"(%{{[0-9]+}}) : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>

// left alone: a function that is not a kernel
// CHECK-LABEL: func.func @not_a_kernel(%x: i32) {
// CHECK-NEXT:    func.return
func.func @k(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32)
    attributes {lass.kernel = #lass.kernel<layouts = [col, row, row], config = {threadblock = [64, 32, 32], warp = [32, 16, 32], stages = 3}>} {
  %tid = lass_nv.thread_id
  %a0, %a1, %a2, %a3 = lass_nv.ldmatrix_x4 %tid trans
  %b0, %b1, %b2, %b3 = lass_nv.ldmatrix_x4 %tid
  func.return
}
func.func @not_a_kernel(%x: i32) {
  func.return
}
