// Regression (lasscc-warp-mma, fixed): a lass_pipe.mma whose accumulator does not come from
// lass_tb.zero_acc or a loop the pass rewrote (here: a function argument) crashes the pass with a
// Python KeyError traceback (_WarpLowering.mma: self.acc[op.acc]) instead of a diagnostic.
// Expected: `file:line:col: error: ...` at the mma.
// RUN: not %lasscc opt -p lasscc-warp-mma %s 2>&1 | filecheck %s
// CHECK: {{^.*}}lasscc-warp-mma-acc-not-from-zero-acc.mlir:13:3: error: expected an accumulator made by lass_tb.zero_acc
// CHECK-NOT: Traceback
func.func @k(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32,
             %acc: !lass_tb.acc<64x32xf32>, %s: i32) -> !lass_tb.acc<64x32xf32>
    attributes {lass.kernel = #lass.kernel<config = {threadblock = [64, 32, 32], warp = [32, 16, 32], stages = 3}>} {
  %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x64x32xf16>
  %rb = lass_pipe.ring {offset = 12288 : i64} : !lass_pipe.ring<3x32x32xf16>
  %r = lass_pipe.mma %ra[%s], %rb[%s], %acc : !lass_pipe.ring<3x64x32xf16>, !lass_pipe.ring<3x32x32xf16>, !lass_tb.acc<64x32xf32>
  func.return %r : !lass_tb.acc<64x32xf32>
}
