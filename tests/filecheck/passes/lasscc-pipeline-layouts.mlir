// lasscc-pipeline (passes/pipeline.py), operand layouts: each ring (and register-staged tile) keeps
// the storage order of its lass_tb.tile, K-major or MN-major (`, mn`); the schedule is unchanged.
//
// RUN: %lasscc opt -p lasscc-pipeline %s | filecheck %s
// RUN: xdsl-opt -p lasscc-pipeline %s | xdsl-opt -p cse,dce | filecheck %s
// Rejected: a K loop of another form (the same check as for TN; here on an MN-major kernel):
// RUN: not %lasscc opt -p lasscc-pipeline %S/Inputs/lasscc-pipeline-layouts-loop-order.mlir.in 2>&1 | filecheck %s --check-prefix=ERR
// ERR: {{^.*}}Inputs/lasscc-pipeline-layouts-loop-order.mlir.in:9:3: error: expected the K loop of lasscc-tile-threadblock (k0 = 0 to K step BK; load_tile A and B at k0, mma, yield), got another form{{$}}

// ---- left alone: no K loop ----

// CHECK-LABEL: func.func @no_loop(%x: memref<?x?xf16, strided<[1, ?]>>) {
// CHECK-NEXT:    func.return
func.func @no_loop(%x: memref<?x?xf16, strided<[1, ?]>>) {
  func.return
}

// ---- NN, stages = 2: register-staged MN-major tiles into MN-major rings ----

// CHECK-LABEL: func.func @gemm_nn_stages2(
// CHECK:         %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x64x32xf16, mn>
// CHECK-NEXT:    %ring_b = lass_pipe.ring {offset = 8192 : i64} : !lass_pipe.ring<2x64x32xf16, mn>
// CHECK:         [[SA:%[0-9]+]] = lass_pipe.load_regs A %A[%m0, %{{[0-9]+}}], %{{[0-9]+}} : memref<?x?xf16, strided<[1, ?]>> -> !lass_pipe.staged<64x32xf16, mn>
// CHECK-NEXT:    [[SB:%[0-9]+]] = lass_pipe.load_regs B %B[%n0, %{{[0-9]+}}], %{{[0-9]+}} : memref<?x?xf16> -> !lass_pipe.staged<64x32xf16, mn>
// CHECK-NEXT:    lass_pipe.store_regs [[SA]], %ring_a[%{{[0-9]+}}] : !lass_pipe.staged<64x32xf16, mn>, !lass_pipe.ring<2x64x32xf16, mn>
// CHECK:         lass_pipe.mma %ring_a[%slot], %ring_b[%slot], %acc : !lass_pipe.ring<2x64x32xf16, mn>, !lass_pipe.ring<2x64x32xf16, mn>, !lass_tb.acc<64x64xf32>

// ---- TT (A row-major, B row-major), stages = 3: A K-major, B MN-major, cp.async copies ----

// CHECK-LABEL: func.func @gemm_tt(
// CHECK:         %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x64x32xbf16>
// CHECK-NEXT:    %ring_b = lass_pipe.ring {offset = 12288 : i64} : !lass_pipe.ring<3x64x32xbf16, mn>
// CHECK:         lass_pipe.copy_async A %A[%m0, %{{[0-9]+}}], %ring_a[%{{[0-9]+}}], %{{[0-9]+}} : memref<?x?xbf16>, !lass_pipe.ring<3x64x32xbf16>
// CHECK-NEXT:    lass_pipe.copy_async B %B[%n0, %{{[0-9]+}}], %ring_b[%{{[0-9]+}}], %{{[0-9]+}} : memref<?x?xbf16>, !lass_pipe.ring<3x64x32xbf16, mn>

func.func @gemm_nn_stages2(%A: memref<?x?xf16, strided<[1, ?]>>, %B: memref<?x?xf16>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32) attributes {lass.kernel = #lass.kernel<ab = f16, d = f32, layouts = [col, row, row], alpha = 1.0, beta = 0.0, config = {threadblock = [64 : i64, 64 : i64, 32 : i64], warp = [32 : i64, 32 : i64, 32 : i64], instruction = [16 : i64, 8 : i64, 16 : i64], stages = 2 : i64, raster = 8 : i64, prefetch = 0 : i64}>} {
  %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64 : i64, 64 : i64], raster = 8 : i64}
  %0 = lass_tb.zero_acc : !lass_tb.acc<64x64xf32>
  %1 = arith.constant 0 : i32
  %2 = arith.constant 32 : i32
  %3 = scf.for %k0 = %1 to %K step %2 iter_args(%acc = %0) -> (!lass_tb.acc<64x64xf32>) : i32 {
    %4 = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<64x32xf16, mn>
    %5 = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16> -> !lass_tb.tile<64x32xf16, mn>
    %6 = lass_tb.mma %4, %5, %acc : !lass_tb.tile<64x32xf16, mn>, !lass_tb.tile<64x32xf16, mn>, !lass_tb.acc<64x64xf32>
    scf.yield %6 : !lass_tb.acc<64x64xf32>
  }
  lass_tb.epilogue %3, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x64xf32>, memref<?x?xf32>
  func.return
}
func.func @gemm_tt(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32) attributes {lass.kernel = #lass.kernel<ab = bf16, d = f32, layouts = [row, row, row], alpha = 1.0, beta = 0.0, config = {threadblock = [64 : i64, 64 : i64, 32 : i64], warp = [32 : i64, 32 : i64, 32 : i64], instruction = [16 : i64, 8 : i64, 16 : i64], stages = 3 : i64, raster = 8 : i64, prefetch = 0 : i64}>} {
  %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64 : i64, 64 : i64], raster = 8 : i64}
  %0 = lass_tb.zero_acc : !lass_tb.acc<64x64xf32>
  %1 = arith.constant 0 : i32
  %2 = arith.constant 32 : i32
  %3 = scf.for %k0 = %1 to %K step %2 iter_args(%acc = %0) -> (!lass_tb.acc<64x64xf32>) : i32 {
    %4 = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xbf16> -> !lass_tb.tile<64x32xbf16>
    %5 = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xbf16> -> !lass_tb.tile<64x32xbf16, mn>
    %6 = lass_tb.mma %4, %5, %acc : !lass_tb.tile<64x32xbf16>, !lass_tb.tile<64x32xbf16, mn>, !lass_tb.acc<64x64xf32>
    scf.yield %6 : !lass_tb.acc<64x64xf32>
  }
  lass_tb.epilogue %3, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x64xf32>, memref<?x?xf32>
  func.return
}
