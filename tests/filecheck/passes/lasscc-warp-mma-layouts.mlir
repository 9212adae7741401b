// lasscc-warp-mma (passes/warp_mma.py), MN-major tf32 and s8 tiles: their fragment loads are
// `interleaved` (lasscc.layout.frag_interleave: fragment row g + 8h of A holds tile row 2g + h,
// column g of B's n8 block h tile column 2g + h, within each 16), because lasscc-swizzle-smem loads
// them pairing adjacent M / N elements (ldmatrix .trans moves 16-bit elements only).  The
// epilogue stores to match: lane part row 2 (lane / 4) (instead of lane / 4) for an interleaved A,
// column 4 (lane % 4) (instead of 2 (lane % 4)) for an interleaved B, whose 2-element stores pair
// value idx of n8 blocks 2p and 2p + 1 at columns 16p + 2 (idx % 2) + {0, 1}.
// Inputs: the lasscc-pipeline output of 64x32 tiles, 32x32 warps, 2 stages for
//   int8 NT (A column-major, B row-major: both MN-major), tf32 TT (only B MN-major),
//   f16 NN (MN-major 16-bit tiles: plain loads, ldmatrix .trans later; left as it was).
//
// RUN: %lasscc opt -p lasscc-warp-mma %s | filecheck %s
// RUN: xdsl-opt -p lasscc-warp-mma %s | xdsl-opt -p cse,dce | filecheck %s
// Rejected (as for every layout: the threadblock level must be pipelined first):
// RUN: not %lasscc opt -p lasscc-warp-mma %S/Inputs/lasscc-warp-mma-not-pipelined.mlir.in 2>&1 | filecheck %s --check-prefix=ERR
// ERR: {{^.*}}Inputs/lasscc-warp-mma-not-pipelined.mlir.in:{{[0-9]+}}:{{[0-9]+}}: error: expected lass_pipe.mma on ring slots (run lasscc-pipeline first), got lass_tb.mma{{$}}

// CHECK-LABEL: func.func @gemm_i8_nt(
// CHECK:         [[K0:%[0-9]+]], [[K1:%[0-9]+]], [[K2:%[0-9]+]], [[K3:%[0-9]+]], [[K4:%[0-9]+]], [[K5:%[0-9]+]], [[K6:%[0-9]+]], [[K7:%[0-9]+]], {{.*}} = scf.for %kt
// CHECK:         lass_warp.load_frag_a %ring_a[%slot], %warp_m0, %{{[0-9]+}} interleaved : !lass_pipe.ring<2x64x32xi8, mn>
// CHECK:         lass_warp.load_frag_b %ring_b[%slot], %warp_n0, %{{[0-9]+}} interleaved : !lass_pipe.ring<2x32x32xi8, mn>
// CHECK-NOT:     lass_nv.cvt_rna_tf32
//                epilogue: row 2 (lane >> 2), column 4 (lane & 3)
// CHECK:         [[G:%[0-9]+]] = arith.shrui %lane, [[C2:%[0-9]+]] : i32
// CHECK-NEXT:    [[G2:%[0-9]+]] = arith.muli [[G]], [[C2]] : i32
// CHECK-NEXT:    [[C3:%[0-9]+]] = arith.constant 3 : i32
// CHECK-NEXT:    [[T:%[0-9]+]] = arith.andi %lane, [[C3]] : i32
// CHECK-NEXT:    [[C4:%[0-9]+]] = arith.constant 4 : i32
// CHECK-NEXT:    [[T4:%[0-9]+]] = arith.muli [[T]], [[C4]] : i32
// CHECK-NEXT:    [[R0:%[0-9]+]] = arith.addi %m0, %warp_m0 : i32
// CHECK-NEXT:    [[ROW:%[0-9]+]] = arith.addi [[R0]], [[G2]] : i32
// CHECK-NEXT:    [[N0:%[0-9]+]] = arith.addi %n0, %warp_n0 : i32
// CHECK-NEXT:    [[COL:%[0-9]+]] = arith.addi [[N0]], [[T4]] : i32
//                the epilogue's loop over the 16 pairs (passes/_rolled.py): value idx of n8 blocks
//                2p and 2p + 1 pair up (accumulators 4 b + idx and 4 b + 4 + idx), at rows 2g + h
//                (+0 +0 +1 +1 for the first four pairs) and columns 16p + 2 idx (+0 +2 +0 +2)
// CHECK:         scf.for %pair = [[Z:%[0-9]+]] to {{%[0-9]+}} step [[ONE:%[0-9]+]] iter_args(
// CHECK-SAME:      [[V0:%[0-9]+]] = [[K0]], [[V1:%[0-9]+]] = [[K4]], {{%[0-9]+}} = [[K1]], {{%[0-9]+}} = [[K5]], {{%[0-9]+}} = [[K2]], {{%[0-9]+}} = [[K6]], {{%[0-9]+}} = [[K3]], {{%[0-9]+}} = [[K7]], {{(%[0-9]+ = %[0-9]+, ){24} ?}}
// CHECK-SAME:      [[RQ:%[0-9]+]] = [[Z]], {{%[0-9]+}} = [[Z]], {{%[0-9]+}} = [[ONE]], {{%[0-9]+}} = [[ONE]], {{(%[0-9]+ = %[0-9a-z]+, ){12} ?}}
// CHECK-SAME:      [[CQ:%[0-9]+]] = [[Z]], {{%[0-9]+}} = [[C2]], {{%[0-9]+}} = [[Z]], {{%[0-9]+}} = [[C2]],
//                (one predicated path for every block: the pair, then each element at the edge)
// CHECK-NEXT:      [[ROWQ:%[0-9]+]] = arith.addi [[ROW]], [[RQ]] : i32
// CHECK-NEXT:      [[COLQ:%[0-9]+]] = arith.addi [[COL]], [[CQ]] : i32
// CHECK:           [[OFF:%[0-9]+]] = arith.muli [[ROWQ]], %N : i32
// CHECK-NEXT:      [[O0:%[0-9]+]] = arith.addi [[OFF]], [[COLQ]] : i32
// CHECK:           arith.sitofp [[V0]] : i32 to f32
// CHECK:           arith.sitofp [[V1]] : i32 to f32
// CHECK:           lass_nv.st_global %D[[[O0]]], %{{[0-9]+}}, %{{[0-9]+}} if %{{[0-9]+}} : memref<?x?xi32>, i32, i32
// CHECK-NEXT:      lass_nv.st_global %D[[[O0]]], %{{[0-9]+}} if %{{[0-9]+}} : memref<?x?xi32>, i32
// CHECK-NEXT:      lass_nv.st_global %D[%{{[0-9]+}}], %{{[0-9]+}} if %{{[0-9]+}} : memref<?x?xi32>, i32
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } {lass.unroll_full}

// CHECK-LABEL: func.func @gemm_tf32_tt(
// CHECK:         lass_warp.load_frag_a %ring_a[%slot], %warp_m0, %{{[0-9]+}} : !lass_pipe.ring<2x64x8xf32>
// CHECK-NEXT:    lass_nv.cvt_rna_tf32
// CHECK:         lass_warp.load_frag_b %ring_b[%slot], %warp_n0, %{{[0-9]+}} interleaved : !lass_pipe.ring<2x32x8xf32, mn>
// CHECK-NEXT:    lass_nv.cvt_rna_tf32
//                epilogue: row lane >> 2 (A not interleaved), column 4 (lane & 3)
// CHECK:         [[G:%[0-9]+]] = arith.shrui %lane, %{{[0-9]+}} : i32
// CHECK-NEXT:    [[C3:%[0-9]+]] = arith.constant 3 : i32
// CHECK-NEXT:    [[T:%[0-9]+]] = arith.andi %lane, [[C3]] : i32
// CHECK-NEXT:    [[C4:%[0-9]+]] = arith.constant 4 : i32
// CHECK-NEXT:    arith.muli [[T]], [[C4]] : i32

// ---- left alone: 16-bit MN-major tiles keep plain fragment loads and the mma_c_coord epilogue ----
// CHECK-LABEL: func.func @gemm_f16_nn(
// CHECK:         lass_warp.load_frag_a %ring_a[%slot], %warp_m0, %{{[0-9]+}} : !lass_pipe.ring<2x64x16xf16, mn>
// CHECK:         lass_warp.load_frag_b %ring_b[%slot], %warp_n0, %{{[0-9]+}} : !lass_pipe.ring<2x32x16xf16, mn>
// CHECK:         [[G:%[0-9]+]] = arith.shrui %lane, [[C2:%[0-9]+]] : i32
// CHECK-NEXT:    [[C3:%[0-9]+]] = arith.constant 3 : i32
// CHECK-NEXT:    [[T:%[0-9]+]] = arith.andi %lane, [[C3]] : i32
// CHECK-NEXT:    arith.muli [[T]], [[C2]] : i32
// CHECK-NOT:     interleaved

builtin.module {
  func.func @gemm_i8_nt(%A: memref<?x?xi8, strided<[1, ?]>>, %B: memref<?x?xi8>, %D: memref<?x?xi32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32) attributes {lass.kernel = #lass.kernel<ab = i8, d = i32, layouts = [col, row, row], alpha = 1.0, beta = 0.0, config = {threadblock = [64 : i64, 32 : i64, 32 : i64], warp = [32 : i64, 32 : i64, 32 : i64], instruction = [16 : i64, 8 : i64, 32 : i64], stages = 2 : i64, raster = 8 : i64, prefetch = 0 : i64}>} {
    %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64 : i64, 32 : i64], raster = 8 : i64}
    %0 = lass_tb.zero_acc : !lass_tb.acc<64x32xi32>
    %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x64x32xi8, mn>
    %ring_b = lass_pipe.ring {offset = 4096 : i64} : !lass_pipe.ring<2x32x32xi8, mn>
    %1 = arith.constant 31 : i32
    %2 = arith.addi %K, %1 : i32
    %3 = arith.constant 32 : i32
    %k_tiles = arith.divui %2, %3 : i32
    %4 = arith.constant 0 : i32
    %5 = arith.cmpi ult, %4, %k_tiles : i32
    %6 = arith.muli %4, %3 : i32
    %7 = lass_pipe.load_regs A %A[%m0, %6], %5 : memref<?x?xi8, strided<[1, ?]>> -> !lass_pipe.staged<64x32xi8, mn>
    %8 = lass_pipe.load_regs B %B[%n0, %6], %5 : memref<?x?xi8> -> !lass_pipe.staged<32x32xi8, mn>
    lass_pipe.store_regs %7, %ring_a[%4] : !lass_pipe.staged<64x32xi8, mn>, !lass_pipe.ring<2x64x32xi8, mn>
    lass_pipe.store_regs %8, %ring_b[%4] : !lass_pipe.staged<32x32xi8, mn>, !lass_pipe.ring<2x32x32xi8, mn>
    lass_pipe.barrier
    %9 = arith.constant 1 : i32
    %10 = scf.for %kt = %4 to %k_tiles step %9 iter_args(%acc = %0) -> (!lass_tb.acc<64x32xi32>) : i32 {
      %11 = arith.addi %kt, %9 : i32
      %12 = arith.cmpi ult, %11, %k_tiles : i32
      %13 = arith.muli %11, %3 : i32
      %14 = lass_pipe.load_regs A %A[%m0, %13], %12 : memref<?x?xi8, strided<[1, ?]>> -> !lass_pipe.staged<64x32xi8, mn>
      %15 = lass_pipe.load_regs B %B[%n0, %13], %12 : memref<?x?xi8> -> !lass_pipe.staged<32x32xi8, mn>
      %16 = arith.constant 2 : i32
      %slot = arith.remui %kt, %16 : i32
      %17 = lass_pipe.mma %ring_a[%slot], %ring_b[%slot], %acc : !lass_pipe.ring<2x64x32xi8, mn>, !lass_pipe.ring<2x32x32xi8, mn>, !lass_tb.acc<64x32xi32>
      %18 = arith.remui %11, %16 : i32
      lass_pipe.store_regs %14, %ring_a[%18] : !lass_pipe.staged<64x32xi8, mn>, !lass_pipe.ring<2x64x32xi8, mn>
      lass_pipe.store_regs %15, %ring_b[%18] : !lass_pipe.staged<32x32xi8, mn>, !lass_pipe.ring<2x32x32xi8, mn>
      lass_pipe.barrier
      scf.yield %17 : !lass_tb.acc<64x32xi32>
    }
    lass_tb.epilogue %10, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x32xi32>, memref<?x?xi32>
    func.return
  }
  func.func @gemm_tf32_tt(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32) attributes {lass.kernel = #lass.kernel<ab = f32, d = f32, layouts = [row, row, row], alpha = 1.0, beta = 0.0, config = {threadblock = [64 : i64, 32 : i64, 8 : i64], warp = [32 : i64, 32 : i64, 8 : i64], instruction = [16 : i64, 8 : i64, 8 : i64], stages = 2 : i64, raster = 8 : i64, prefetch = 0 : i64}>} {
    %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64 : i64, 32 : i64], raster = 8 : i64}
    %0 = lass_tb.zero_acc : !lass_tb.acc<64x32xf32>
    %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x64x8xf32>
    %ring_b = lass_pipe.ring {offset = 4096 : i64} : !lass_pipe.ring<2x32x8xf32, mn>
    %1 = arith.constant 7 : i32
    %2 = arith.addi %K, %1 : i32
    %3 = arith.constant 8 : i32
    %k_tiles = arith.divui %2, %3 : i32
    %4 = arith.constant 0 : i32
    %5 = arith.cmpi ult, %4, %k_tiles : i32
    %6 = arith.muli %4, %3 : i32
    %7 = lass_pipe.load_regs A %A[%m0, %6], %5 : memref<?x?xf32> -> !lass_pipe.staged<64x8xf32>
    %8 = lass_pipe.load_regs B %B[%n0, %6], %5 : memref<?x?xf32> -> !lass_pipe.staged<32x8xf32, mn>
    lass_pipe.store_regs %7, %ring_a[%4] : !lass_pipe.staged<64x8xf32>, !lass_pipe.ring<2x64x8xf32>
    lass_pipe.store_regs %8, %ring_b[%4] : !lass_pipe.staged<32x8xf32, mn>, !lass_pipe.ring<2x32x8xf32, mn>
    lass_pipe.barrier
    %9 = arith.constant 1 : i32
    %10 = scf.for %kt = %4 to %k_tiles step %9 iter_args(%acc = %0) -> (!lass_tb.acc<64x32xf32>) : i32 {
      %11 = arith.addi %kt, %9 : i32
      %12 = arith.cmpi ult, %11, %k_tiles : i32
      %13 = arith.muli %11, %3 : i32
      %14 = lass_pipe.load_regs A %A[%m0, %13], %12 : memref<?x?xf32> -> !lass_pipe.staged<64x8xf32>
      %15 = lass_pipe.load_regs B %B[%n0, %13], %12 : memref<?x?xf32> -> !lass_pipe.staged<32x8xf32, mn>
      %16 = arith.constant 2 : i32
      %slot = arith.remui %kt, %16 : i32
      %17 = lass_pipe.mma %ring_a[%slot], %ring_b[%slot], %acc : !lass_pipe.ring<2x64x8xf32>, !lass_pipe.ring<2x32x8xf32, mn>, !lass_tb.acc<64x32xf32>
      %18 = arith.remui %11, %16 : i32
      lass_pipe.store_regs %14, %ring_a[%18] : !lass_pipe.staged<64x8xf32>, !lass_pipe.ring<2x64x8xf32>
      lass_pipe.store_regs %15, %ring_b[%18] : !lass_pipe.staged<32x8xf32, mn>, !lass_pipe.ring<2x32x8xf32, mn>
      lass_pipe.barrier
      scf.yield %17 : !lass_tb.acc<64x32xf32>
    }
    lass_tb.epilogue %10, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x32xf32>, memref<?x?xf32>
    func.return
  }
  func.func @gemm_f16_nn(%A: memref<?x?xf16, strided<[1, ?]>>, %B: memref<?x?xf16>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32) attributes {lass.kernel = #lass.kernel<ab = f16, d = f32, layouts = [col, row, row], alpha = 1.0, beta = 0.0, config = {threadblock = [64 : i64, 32 : i64, 16 : i64], warp = [32 : i64, 32 : i64, 16 : i64], instruction = [16 : i64, 8 : i64, 16 : i64], stages = 2 : i64, raster = 8 : i64, prefetch = 0 : i64}>} {
    %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64 : i64, 32 : i64], raster = 8 : i64}
    %0 = lass_tb.zero_acc : !lass_tb.acc<64x32xf32>
    %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x64x16xf16, mn>
    %ring_b = lass_pipe.ring {offset = 4096 : i64} : !lass_pipe.ring<2x32x16xf16, mn>
    %1 = arith.constant 15 : i32
    %2 = arith.addi %K, %1 : i32
    %3 = arith.constant 16 : i32
    %k_tiles = arith.divui %2, %3 : i32
    %4 = arith.constant 0 : i32
    %5 = arith.cmpi ult, %4, %k_tiles : i32
    %6 = arith.muli %4, %3 : i32
    %7 = lass_pipe.load_regs A %A[%m0, %6], %5 : memref<?x?xf16, strided<[1, ?]>> -> !lass_pipe.staged<64x16xf16, mn>
    %8 = lass_pipe.load_regs B %B[%n0, %6], %5 : memref<?x?xf16> -> !lass_pipe.staged<32x16xf16, mn>
    lass_pipe.store_regs %7, %ring_a[%4] : !lass_pipe.staged<64x16xf16, mn>, !lass_pipe.ring<2x64x16xf16, mn>
    lass_pipe.store_regs %8, %ring_b[%4] : !lass_pipe.staged<32x16xf16, mn>, !lass_pipe.ring<2x32x16xf16, mn>
    lass_pipe.barrier
    %9 = arith.constant 1 : i32
    %10 = scf.for %kt = %4 to %k_tiles step %9 iter_args(%acc = %0) -> (!lass_tb.acc<64x32xf32>) : i32 {
      %11 = arith.addi %kt, %9 : i32
      %12 = arith.cmpi ult, %11, %k_tiles : i32
      %13 = arith.muli %11, %3 : i32
      %14 = lass_pipe.load_regs A %A[%m0, %13], %12 : memref<?x?xf16, strided<[1, ?]>> -> !lass_pipe.staged<64x16xf16, mn>
      %15 = lass_pipe.load_regs B %B[%n0, %13], %12 : memref<?x?xf16> -> !lass_pipe.staged<32x16xf16, mn>
      %16 = arith.constant 2 : i32
      %slot = arith.remui %kt, %16 : i32
      %17 = lass_pipe.mma %ring_a[%slot], %ring_b[%slot], %acc : !lass_pipe.ring<2x64x16xf16, mn>, !lass_pipe.ring<2x32x16xf16, mn>, !lass_tb.acc<64x32xf32>
      %18 = arith.remui %11, %16 : i32
      lass_pipe.store_regs %14, %ring_a[%18] : !lass_pipe.staged<64x16xf16, mn>, !lass_pipe.ring<2x64x16xf16, mn>
      lass_pipe.store_regs %15, %ring_b[%18] : !lass_pipe.staged<32x16xf16, mn>, !lass_pipe.ring<2x32x16xf16, mn>
      lass_pipe.barrier
      scf.yield %17 : !lass_tb.acc<64x32xf32>
    }
    lass_tb.epilogue %10, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x32xf32>, memref<?x?xf32>
    func.return
  }
}
