// Regression (lasscc-swizzle-smem, fixed): a fragment load from a ring that is not a lass_pipe.ring op
// (here: a block argument) crashes the pass with a Python AttributeError traceback
// (_Swizzler.addr: ring.owner.offset) instead of a diagnostic.  Expected: `file:line:col: error:`
// at the load_frag_a.
// RUN: not %lasscc opt -p lasscc-swizzle-smem %s 2>&1 | filecheck %s
// CHECK: {{^.*}}lasscc-swizzle-smem-ring-argument.mlir:8:1: error: expected rings made by lass_pipe.ring
// CHECK-NOT: Traceback
func.func @k(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32,
             %ra: !lass_pipe.ring<3x64x32xf16>, %s: i32) -> i32
    attributes {lass.kernel = #lass.kernel<config = {threadblock = [64, 32, 32], warp = [32, 16, 32], stages = 3}>} {
  %a0, %a1, %a2, %a3 = lass_warp.load_frag_a %ra[%s], %s, %s : !lass_pipe.ring<3x64x32xf16>
  func.return %a0 : i32
}
