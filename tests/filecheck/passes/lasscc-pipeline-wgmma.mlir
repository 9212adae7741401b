// lasscc-pipeline on a `mma = "wgmma"` kernel (passes/pipeline.py): the TMA ring, the verbs of
// CUTLASS's PipelineTmaAsync.  Config: 64x16x32 f16, 2 stages: rings A 2x64x32 (4096 B a slot)
// and B 2x16x32 after it, the barriers after both (byte 10240); the stage's TMA bytes
// (64 + 16) * 32 * 2 = 5120; every one of the 128 threads releases a slot.
//
// RUN: %lasscc opt -p lasscc-pipeline %s -o %t.once.mlir
// RUN: filecheck %s --input-file %t.once.mlir
// RUN: xdsl-opt -p lasscc-pipeline %s | xdsl-opt -p cse,dce | filecheck %s
//
// Left alone once applied: a second run changes nothing.
// RUN: %lasscc opt -p lasscc-pipeline %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
//
// Rejected: a wgmma kernel of one stage (the config check names the kernel).
// RUN: sed 's/stages = 2/stages = 1/' %s > %t.s1.mlir
// RUN: not %lasscc opt -p lasscc-pipeline %t.s1.mlir 2>&1 | filecheck %s --check-prefix=ERR

// CHECK-LABEL: func.func @gemm(
// CHECK:         %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x64x32xf16>
// CHECK-NEXT:    %ring_b = lass_pipe.ring {offset = 8192 : i64} : !lass_pipe.ring<2x16x32xf16>
// CHECK-NEXT:    %bars = lass_pipe.tma_pipeline {offset = 10240 : i64, arrivals = 128 : i64} : !lass_pipe.barriers<2>
//                prologue: tile 0 into slot 0 (S - 1 = 1 tile)
// CHECK:         lass_pipe.producer_acquire %bars[{{%[0-9]+}}], {{%[0-9]+}}, {{%[0-9]+}} {tx = 5120 : i64} : !lass_pipe.barriers<2>
// CHECK:         lass_pipe.tma_load A %A[%m0, {{%[0-9]+}}], %ring_a[{{%[0-9]+}}], %bars
// CHECK-NEXT:    lass_pipe.tma_load B %B[%n0, {{%[0-9]+}}], %ring_b[{{%[0-9]+}}], %bars
// CHECK:         scf.for %kt =
// CHECK:           %slot = arith.remui %kt,
// CHECK:           %phase = arith.remui
// CHECK-NEXT:      lass_pipe.consumer_wait %bars[%slot], %phase : !lass_pipe.barriers<2>
// CHECK-NEXT:      [[ACC:%[0-9]+]] = lass_pipe.mma %ring_a[%slot], %ring_b[%slot], %acc
//                  one tile late: the slot of kt - 1, when kt > 0
// CHECK:           lass_pipe.consumer_release %bars[{{%[0-9]+}}], {{%[0-9]+}} : !lass_pipe.barriers<2>
// CHECK:           lass_pipe.producer_acquire %bars[{{%[0-9]+}}], {{%[0-9]+}}, {{%[0-9]+}} {tx = 5120 : i64}
// CHECK:           lass_pipe.tma_load A
// CHECK-NEXT:      lass_pipe.tma_load B
// CHECK-NEXT:      scf.yield [[ACC]]
// CHECK:         lass_tb.epilogue

// ERR: error: {{.*}}expected stages >= 2, got 1

builtin.module {
  func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32) attributes {lass.kernel = #lass.kernel<ab = f16, acc = f32, d = f32, layouts = [row, col, row], alpha = 1.0, beta = 0.0, config = {threadblock = [64, 16, 32], warp = [64, 16, 32], instruction = [64, 16, 16], stages = 2, raster = 8, prefetch = 0, mma = "wgmma"}>} {
    %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64 : i64, 16 : i64], raster = 8 : i64}
    %0 = lass_tb.zero_acc : !lass_tb.acc<64x16xf32>
    %1 = arith.constant 0 : i32
    %2 = arith.constant 32 : i32
    %3 = scf.for %k0 = %1 to %K step %2 iter_args(%acc = %0) -> (!lass_tb.acc<64x16xf32>) : i32 {
      %4 = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16> -> !lass_tb.tile<64x32xf16>
      %5 = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<16x32xf16>
      %6 = lass_tb.mma %4, %5, %acc : !lass_tb.tile<64x32xf16>, !lass_tb.tile<16x32xf16>, !lass_tb.acc<64x16xf32>
      scf.yield %6 : !lass_tb.acc<64x16xf32>
    }
    lass_tb.epilogue %3, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x16xf32>, memref<?x?xf32>
    func.return
  }
}
