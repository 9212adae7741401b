// Regression (lasscc-pipeline, fixed; also lasscc-warp-mma / lasscc-swizzle-smem through the same
// passes/_build.kernel_config): a kernel whose config has a malformed entry makes the pass
// crash with a Python traceback (ValueError from config_from_attr) instead of printing
// `file:line:col: error: ...` and exiting 2.  Expected: the ValueError's text at the config
// (#lass.kernel checks its config when it is parsed); a `lass.kernel` that is no #lass.kernel
// (the dictionary of older dumps) is named at its function.
// RUN: not %lasscc opt -p lasscc-pipeline %s 2>&1 | filecheck %s
// RUN: not %lasscc opt -p lasscc-pipeline %S/../Inputs/lasscc-pipeline-kernel-not-attr.mlir.in 2>&1 | filecheck %s --check-prefix=DICT
// CHECK: {{^.*}}lasscc-pipeline-malformed-config.mlir:15:44: error: config key 'stages': expected an integer, got "three"
// CHECK-NOT: Traceback
// DICT: {{^.*}}Inputs/lasscc-pipeline-kernel-not-attr.mlir.in:3:1: error: lass.kernel: expected #lass.kernel<...>, got {stages = 3 : i64}
// DICT-NOT: Traceback
// the config below is on line 15, column 44
func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32)
    attributes {lass.kernel = #lass.kernel<config = {threadblock = [64, 64, 32], warp = [32, 32, 32], stages = "three"}>} {
  %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64, 64], raster = 8}
  %acc0 = lass_tb.zero_acc : !lass_tb.acc<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %r = scf.for %k0 = %c0 to %K step %c32 iter_args(%acc = %acc0) -> (!lass_tb.acc<64x64xf32>) : i32 {
    %ta = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16> -> !lass_tb.tile<64x32xf16>
    %tb = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<64x32xf16>
    %acc1 = lass_tb.mma %ta, %tb, %acc : !lass_tb.tile<64x32xf16>, !lass_tb.tile<64x32xf16>, !lass_tb.acc<64x64xf32>
    scf.yield %acc1 : !lass_tb.acc<64x64xf32>
  }
  lass_tb.epilogue %r, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x64xf32>, memref<?x?xf32>
  func.return
}
