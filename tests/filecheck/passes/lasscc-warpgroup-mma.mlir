// lasscc-warpgroup-mma (passes/warpgroup_mma.py): a pipelined `mma = "wgmma"` kernel -> the program
// of one thread at the warpgroup level.  Config 64x16x32 f16, 2 stages: one warpgroup (128
// threads) at rows 64 * (tid / 128); the accumulator 64 x 16 / 128 = 8 f32 per thread; per k-tile
// BK / 16 = 2 lass_wg.mma (k 0 and 16) between fence and commit, all groups retired at the k-tile's end (GROUPS_IN_FLIGHT); the
// producer's acquire and loads in thread 0; all groups retired before the epilogue.
//
// RUN: %lasscc opt -p lasscc-warpgroup-mma %s -o %t.once.mlir
// RUN: filecheck %s --input-file %t.once.mlir
// RUN: xdsl-opt -p lasscc-warpgroup-mma %s | xdsl-opt -p cse,dce | filecheck %s
//
// Left alone once applied, and on an mma.sync kernel (lasscc-warp-mma's):
// RUN: %lasscc opt -p lasscc-warpgroup-mma %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: %lasscc opt -p lasscc-warpgroup-mma %S/Inputs/lasscc-warpgroup-mma-mma-sync.mlir.in | filecheck %s --check-prefix=SYNC
//
// schedule = "pingpong" with a 128-row consumer tile (128x16x32, epilogue = "tma"): one warpgroup
// computes all 128 rows, per wgmma K step one lass_wg.mma on rows %wg_m0 and one on %wg_m0 + 64
// (each its own 8 accumulators); warp w holds rows 16 w of each m64 (%warp_m0 = warp * 16), and the
// TMA-store epilogue writes both m16 bands of a warp with their own stmatrix (rows 0.. and 64..).
// RUN: %lasscc opt -p lasscc-warpgroup-mma %S/Inputs/lasscc-warpgroup-mma-pingpong128.mlir.in | filecheck %s --check-prefix=PP128
//
// Two accumulator chains (config instruction = [64, 8, 16] of a BN = 16 tile, resources.wgmma_chains):
// per wgmma K step one lass_wg.mma per chain, chain 1 on B rows 8.. (`b_row = 8`) and accumulator
// values 4..7 (its m64n8 fragment), each chain carrying its own values from K step to K step.
// RUN: %lasscc opt -p lasscc-warpgroup-mma %S/Inputs/lasscc-warpgroup-mma-chains.mlir.in | filecheck %s --check-prefix=CHAIN
//
// Rejected: a wgmma kernel that is not pipelined yet.
// RUN: not %lasscc opt -p lasscc-warpgroup-mma %S/Inputs/lasscc-warpgroup-mma-not-pipelined.mlir.in 2>&1 | filecheck %s --check-prefix=ERR

// CHECK-LABEL: func.func @gemm(
// CHECK-NEXT:    %tid = lass_nv.thread_id
// CHECK-NEXT:    [[C7:%[0-9]+]] = arith.constant 7 : i32
// CHECK-NEXT:    [[WGT:%[0-9]+]] = arith.shrui %tid, [[C7]] : i32
// CHECK-NEXT:    [[WG:%[0-9]+]] = lass_nv.warp_broadcast [[WGT]]
// CHECK-NEXT:    [[C64:%[0-9]+]] = arith.constant 64 : i32
// CHECK-NEXT:    %wg_m0 = arith.muli [[WG]], [[C64]] : i32
// CHECK:         %bars = lass_pipe.tma_pipeline {offset = 10240 : i64, arrivals = 128 : i64}
// CHECK:         [[IS0:%[0-9]+]] = arith.cmpi eq, %tid, {{%[0-9]+}} : i32
// CHECK-NEXT:    scf.if [[IS0]] {
// CHECK-NEXT:      lass_pipe.producer_acquire
// CHECK-NEXT:      lass_pipe.tma_load A
// CHECK-NEXT:      lass_pipe.tma_load B
// CHECK-NEXT:    }
// CHECK:         scf.for %kt = {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK:           lass_pipe.consumer_wait %bars[%slot], %phase
// CHECK-NEXT:      lass_wg.fence
// CHECK-NEXT:      {{.*}} = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 0 acc({{.*}}) : !lass_pipe.ring<2x64x32xf16>, !lass_pipe.ring<2x16x32xf16>, f32
// CHECK-NEXT:      [[E0:%[0-9]+]], {{.*}} = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 16 acc({{.*}})
// CHECK-NEXT:      lass_wg.commit
// CHECK-NEXT:      lass_wg.wait {pending = 1 : i64}
// CHECK:           lass_pipe.consumer_release
// CHECK:           scf.if [[IS0]] {
// CHECK-NEXT:        lass_pipe.producer_acquire
// CHECK-NEXT:        lass_pipe.tma_load A
// CHECK-NEXT:        lass_pipe.tma_load B
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield {{%[0-9]+}},
// CHECK:         lass_wg.wait {pending = 0 : i64}
// CHECK-NOT:     lass_tb.
// CHECK-NOT:     lass_pipe.mma
// CHECK:         lass_nv.st_global
// CHECK:         func.return

// PP128:      %wg_m0 = arith.muli {{%[0-9]+}}, [[C128:%[0-9]+]] : i32
// PP128-NEXT: [[C64:%[0-9]+]] = arith.constant 64 : i32
// PP128-NEXT: [[ROW1:%[0-9]+]] = arith.addi %wg_m0, [[C64]] : i32
// PP128:      %warp = arith.shrui %tid
// PP128-NEXT: [[C16:%[0-9]+]] = arith.constant 16 : i32
// PP128-NEXT: %warp_m0 = arith.muli %warp, [[C16]] : i32
// PP128:      scf.for %kt = {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// PP128:        lass_wg.fence
// PP128-NEXT:   {{.*}} = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 0 acc({{(%[0-9]+, ){7}%[0-9]+}}) : !lass_pipe.ring<2x128x32xf16>, !lass_pipe.ring<2x16x32xf16>, f32
// PP128-NEXT:   {{.*}} = lass_wg.mma %ring_a[%slot] rows [[ROW1]], %ring_b[%slot] k 0 acc(
// PP128-NEXT:   {{.*}} = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 16 acc(
// PP128-NEXT:   {{.*}} = lass_wg.mma %ring_a[%slot] rows [[ROW1]], %ring_b[%slot] k 16 acc(
// PP128-NEXT:   lass_wg.commit
// PP128:      lass_wg.wait {pending = 0 : i64}
// PP128:      lass_nv.stmatrix_x4
// PP128:      lass_nv.stmatrix_x4
// PP128-NOT:  lass_nv.stmatrix_x4
// PP128:      lass_wg.tma_store

// SYNC: lass_pipe.mma
// SYNC-NOT: lass_wg.

// CHAIN:      scf.for %kt = {{.*}} iter_args([[V0:%[0-9]+]] = {{.*}}, [[V1:%[0-9]+]] = {{.*}}, [[V2:%[0-9]+]] = {{.*}}, [[V3:%[0-9]+]] = {{.*}}, [[V4:%[0-9]+]] = {{.*}}, [[V5:%[0-9]+]] = {{.*}}, [[V6:%[0-9]+]] = {{.*}}, [[V7:%[0-9]+]] = {{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHAIN:        lass_wg.fence
// CHAIN-NEXT:   [[C0:%[0-9]+]], {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}} = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 0 acc([[V0]], [[V1]], [[V2]], [[V3]]) : !lass_pipe.ring<2x64x32xf16>, !lass_pipe.ring<2x16x32xf16>, f32
// CHAIN-NEXT:   [[D0:%[0-9]+]], {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}} = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 0 acc([[V4]], [[V5]], [[V6]], [[V7]]) {b_row = 8 : i64}
// CHAIN-NEXT:   lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 16 acc([[C0]], {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}) :
// CHAIN-NEXT:   lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 16 acc([[D0]], {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}) {b_row = 8 : i64}
// CHAIN-NEXT:   lass_wg.commit

// ERR: lasscc-warpgroup-mma-not-pipelined.mlir.in:{{[0-9]+}}:{{[0-9]+}}: error: expected lass_pipe.mma on ring slots (run lasscc-pipeline first), got lass_tb.mma

builtin.module {
  func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32) attributes {lass.kernel = #lass.kernel<ab = f16, acc = f32, d = f32, layouts = [row, col, row], alpha = 1.0, beta = 0.0, config = {threadblock = [64, 16, 32], warp = [64, 16, 32], instruction = [64, 16, 16], stages = 2, raster = 8, prefetch = 0, mma = "wgmma"}>} {
    %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64 : i64, 16 : i64], raster = 8 : i64}
    %0 = lass_tb.zero_acc : !lass_tb.acc<64x16xf32>
    %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x64x32xf16>
    %ring_b = lass_pipe.ring {offset = 8192 : i64} : !lass_pipe.ring<2x16x32xf16>
    %bars = lass_pipe.tma_pipeline {offset = 10240 : i64, arrivals = 128 : i64} : !lass_pipe.barriers<2>
    %1 = arith.constant 31 : i32
    %2 = arith.addi %K, %1 : i32
    %3 = arith.constant 32 : i32
    %k_tiles = arith.divui %2, %3 : i32
    %4 = arith.constant 0 : i32
    %5 = arith.cmpi ult, %4, %k_tiles : i32
    %6 = arith.constant 2 : i32
    %7 = arith.remui %4, %6 : i32
    %8 = arith.divui %4, %6 : i32
    %9 = arith.remui %8, %6 : i32
    lass_pipe.producer_acquire %bars[%7], %9, %5 {tx = 5120 : i64} : !lass_pipe.barriers<2>
    %10 = arith.muli %4, %3 : i32
    lass_pipe.tma_load A %A[%m0, %10], %ring_a[%7], %bars, %5 : memref<?x?xf16>, !lass_pipe.ring<2x64x32xf16>, !lass_pipe.barriers<2>
    lass_pipe.tma_load B %B[%n0, %10], %ring_b[%7], %bars, %5 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<2x16x32xf16>, !lass_pipe.barriers<2>
    %11 = arith.constant 1 : i32
    %12 = scf.for %kt = %4 to %k_tiles step %11 iter_args(%acc = %0) -> (!lass_tb.acc<64x16xf32>) : i32 {
      %slot = arith.remui %kt, %6 : i32
      %13 = arith.divui %kt, %6 : i32
      %phase = arith.remui %13, %6 : i32
      lass_pipe.consumer_wait %bars[%slot], %phase : !lass_pipe.barriers<2>
      %14 = lass_pipe.mma %ring_a[%slot], %ring_b[%slot], %acc : !lass_pipe.ring<2x64x32xf16>, !lass_pipe.ring<2x16x32xf16>, !lass_tb.acc<64x16xf32>
      %15 = arith.addi %kt, %11 : i32
      %16 = arith.remui %15, %6 : i32
      %17 = arith.cmpi ult, %4, %kt : i32
      lass_pipe.consumer_release %bars[%16], %17 : !lass_pipe.barriers<2>
      %18 = arith.cmpi ult, %15, %k_tiles : i32
      %19 = arith.remui %15, %6 : i32
      %20 = arith.divui %15, %6 : i32
      %21 = arith.remui %20, %6 : i32
      lass_pipe.producer_acquire %bars[%19], %21, %18 {tx = 5120 : i64} : !lass_pipe.barriers<2>
      %22 = arith.muli %15, %3 : i32
      lass_pipe.tma_load A %A[%m0, %22], %ring_a[%19], %bars, %18 : memref<?x?xf16>, !lass_pipe.ring<2x64x32xf16>, !lass_pipe.barriers<2>
      lass_pipe.tma_load B %B[%n0, %22], %ring_b[%19], %bars, %18 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<2x16x32xf16>, !lass_pipe.barriers<2>
      scf.yield %14 : !lass_tb.acc<64x16xf32>
    }
    lass_tb.epilogue %12, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x16xf32>, memref<?x?xf32>
    func.return
  }
}
