// lasscc-pipeline on a split-K `mma = "wgmma"` kernel (passes/pipeline.py): the TMA ring loads this
// CTA's partition [k_begin, k_end) of lass_tb.k_partition, k-tile t at k_begin + 32 t; KT counts the
// partition's k-tiles.  The k offset is computed before the producer_acquire, so the acquire and its
// two loads stay adjacent (lasscc-warpgroup-mma moves them into thread 0 as one group).  Config:
// 64x16x32 f16, 2 stages, split_k = 2 (serial: the semaphore ops after the loop are left as they are).
//
// RUN: %lasscc opt -p lasscc-pipeline %s -o %t.once.mlir
// RUN: filecheck %s --input-file %t.once.mlir
//
// Left alone once applied: a second run changes nothing.
// RUN: %lasscc opt -p lasscc-pipeline %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
//
// Rejected: a K loop that is not in steps of BK (the loop's form is checked, the kernel named).
// RUN: sed 's/step %1 iter_args/step %K iter_args/' %s > %t.step.mlir
// RUN: not %lasscc opt -p lasscc-pipeline %t.step.mlir 2>&1 | filecheck %s --check-prefix=ERR

// CHECK-LABEL: func.func @gemm(
// CHECK:         %part, %k_begin, %k_end = lass_tb.k_partition %K
// CHECK:         [[LEN:%[0-9]+]] = arith.subi %k_end, %k_begin : i32
// CHECK:         %k_tiles = arith.divui
//                prologue: k-tile 0 of the partition
// CHECK:         [[K0:%[0-9]+]] = arith.addi %k_begin, {{%[0-9]+}} : i32
// CHECK-NEXT:    lass_pipe.producer_acquire %bars[{{%[0-9]+}}], {{%[0-9]+}}, {{%[0-9]+}} {tx = 5120 : i64}
// CHECK-NEXT:    lass_pipe.tma_load A %A[%m0, [[K0]]], %ring_a
// CHECK-NEXT:    lass_pipe.tma_load B %B[%n0, [[K0]]], %ring_b
// CHECK:         scf.for %kt = {{%[0-9]+}} to %k_tiles step
// CHECK:           lass_pipe.consumer_wait %bars[%slot], %phase
// CHECK:           [[KN:%[0-9]+]] = arith.addi %k_begin, {{%[0-9]+}} : i32
// CHECK-NEXT:      lass_pipe.producer_acquire
// CHECK-NEXT:      lass_pipe.tma_load A %A[%m0, [[KN]]]
// CHECK-NEXT:      lass_pipe.tma_load B %B[%n0, [[KN]]]
// CHECK:         lass_tb.semaphore_wait %W[%sem], %part
// CHECK:         lass_tb.epilogue
// CHECK:         lass_tb.semaphore_release %W[%sem]

// ERR: error: expected the K loop of lasscc-tile-threadblock

builtin.module {
  func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32, %W: memref<?xi32>) attributes {lass.kernel = #lass.kernel<ab = f16, acc = f32, d = f32, layouts = [row, col, row], alpha = 1.0, beta = 0.0, config = {threadblock = [64, 16, 32], warp = [64, 16, 32], instruction = [64, 16, 16], stages = 2, raster = 8, prefetch = 0, split_k = 2, mma = "wgmma"}>} {
    %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64 : i64, 16 : i64], raster = 8 : i64}
    %0 = lass_tb.zero_acc : !lass_tb.acc<64x16xf32>
    %1 = arith.constant 32 : i32
    %part, %k_begin, %k_end = lass_tb.k_partition %K {split = 2 : i64, tile_k = 32 : i64}
    %2 = scf.for %k0 = %k_begin to %k_end step %1 iter_args(%acc = %0) -> (!lass_tb.acc<64x16xf32>) : i32 {
      %3 = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16> -> !lass_tb.tile<64x32xf16>
      %4 = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<16x32xf16>
      %5 = lass_tb.mma %3, %4, %acc : !lass_tb.tile<64x32xf16>, !lass_tb.tile<16x32xf16>, !lass_tb.acc<64x16xf32>
      scf.yield %5 : !lass_tb.acc<64x16xf32>
    }
    %6 = arith.constant 63 : i32
    %7 = arith.addi %M, %6 : i32
    %8 = arith.constant 64 : i32
    %9 = arith.divui %7, %8 : i32
    %10 = arith.constant 16 : i32
    %11 = arith.divui %m0, %8 : i32
    %12 = arith.divui %n0, %10 : i32
    %13 = arith.muli %12, %9 : i32
    %sem = arith.addi %11, %13 : i32
    lass_tb.semaphore_wait %W[%sem], %part : memref<?xi32>
    %14 = arith.constant 0 : i32
    %15 = arith.cmpi eq, %part, %14 : i32
    %16 = arith.constant 1.000000e+00 : f32
    %17 = arith.select %15, %beta, %16 : f32
    lass_tb.epilogue %2, %D[%m0, %n0], %alpha, %17 : !lass_tb.acc<64x16xf32>, memref<?x?xf32>
    %18 = arith.constant 1 : i32
    %19 = arith.cmpi eq, %part, %18 : i32
    %20 = arith.addi %part, %18 : i32
    %21 = arith.select %19, %14, %20 : i32
    lass_tb.semaphore_release %W[%sem], %21 : memref<?xi32>
    func.return
  }
}
