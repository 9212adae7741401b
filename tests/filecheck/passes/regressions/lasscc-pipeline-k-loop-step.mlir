// Regression (lasscc-pipeline, fixed): the K-loop matcher checks only the loop body, not its bounds or
// step.  This loop steps by 16 while the kernel config says BK = 32: it is not "scf.for %k0 = 0 to %K
// step BK" (the pass's input contract), yet the pass rewrites it as a 0..K step 32 pipeline, so
// half of this loop's iterations silently disappear.  Expected: rejected like any K loop of
// another form.  Fixed: the pass checks lb = 0, ub = K, step = BK and that
// both load_tile take the induction variable as k0.
// RUN: not %lasscc opt -p lasscc-pipeline %s 2>&1 | filecheck %s
// CHECK: {{^.*}}lasscc-pipeline-k-loop-step.mlir:16:3: error: expected the K loop of lasscc-tile-threadblock
func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32)
    attributes {lass.kernel = #lass.kernel<config = {threadblock = [64, 64, 32], warp = [32, 32, 32], stages = 3}>} {
  %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64, 64], raster = 8}
  %acc0 = lass_tb.zero_acc : !lass_tb.acc<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  // the loop below is on line 17
  %r = scf.for %k0 = %c0 to %K step %c16 iter_args(%acc = %acc0) -> (!lass_tb.acc<64x64xf32>) : i32 {
    %ta = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16> -> !lass_tb.tile<64x32xf16>
    %tb = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<64x32xf16>
    %acc1 = lass_tb.mma %ta, %tb, %acc : !lass_tb.tile<64x32xf16>, !lass_tb.tile<64x32xf16>, !lass_tb.acc<64x64xf32>
    scf.yield %acc1 : !lass_tb.acc<64x64xf32>
  }
  lass_tb.epilogue %r, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x64xf32>, memref<?x?xf32>
  func.return
}
