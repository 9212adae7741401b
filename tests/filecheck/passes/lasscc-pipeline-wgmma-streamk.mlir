// lasscc-pipeline on a stream-K `mma = "wgmma"` kernel (passes/pipeline.py, lasscc.streamk): the K
// loop runs once per unit of the CTA's unit loop, so the TMA ring and its barriers are made once,
// before the unit loop, which is rebuilt to carry the ring's k-tile base %kt_base (the k-tiles of the
// units before): slots and phases number k-tiles across units (kt_base + kt), the producer loads
// k-tile t of the unit at k_begin + 32 t, and the unit yields kt_base + its k-tiles.  Config: 64x16x32
// f16, 2 stages, split_k_mode = "streamk" (the input: lasscc-tile-threadblock's output).
//
// RUN: %lasscc opt -p lasscc-pipeline %s -o %t.once.mlir
// RUN: filecheck %s --input-file %t.once.mlir
//
// Left alone once applied: a second run changes nothing.
// RUN: %lasscc opt -p lasscc-pipeline %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
//
// Rejected: a unit loop that already carries a value (the k-tile base is added to it).
// RUN: sed -e 's/scf.for %unit = %29 to %units step %17 : i32 {/%u = scf.for %unit = %29 to %units step %17 iter_args(%x = %29) -> (i32) : i32 {/' -e 's/^    }$/      scf.yield %x : i32\n    }/' %s > %t.carry.mlir
// RUN: not %lasscc opt -p lasscc-pipeline %t.carry.mlir 2>&1 | filecheck %s --check-prefix=ERR

// CHECK-LABEL: func.func @gemm(
// CHECK:         %ring_a = lass_pipe.ring {offset = 0 : i64}
// CHECK-NEXT:    %ring_b = lass_pipe.ring {offset = 8192 : i64}
// CHECK-NEXT:    %bars = lass_pipe.tma_pipeline
// CHECK-NEXT:    {{%[0-9]+}} = scf.for %unit = {{%[0-9]+}} to %units step {{%[0-9]+}} iter_args(%kt_base = {{%[0-9]+}}) -> (i32) : i32 {
// CHECK-NOT:       lass_pipe.tma_pipeline
//                  prologue: k-tile 0 of the unit, ring k-tile kt_base
// CHECK:           [[G0:%[0-9]+]] = arith.addi %kt_base, {{%[0-9]+}} : i32
// CHECK:           [[K0:%[0-9]+]] = arith.addi %k_begin, {{%[0-9]+}} : i32
// CHECK-NEXT:      lass_pipe.producer_acquire %bars[{{%[0-9]+}}], {{%[0-9]+}}, {{%[0-9]+}} {tx = 5120 : i64}
// CHECK-NEXT:      lass_pipe.tma_load A %A[%m0, [[K0]]], %ring_a
// CHECK-NEXT:      lass_pipe.tma_load B %B[%n0, [[K0]]], %ring_b
// CHECK:           scf.for %kt = {{%[0-9]+}} to %k_tiles_1 step
// CHECK-NEXT:        [[G:%[0-9]+]] = arith.addi %kt_base, %kt : i32
// CHECK-NEXT:        %slot = arith.remui [[G]]
// CHECK:             lass_pipe.consumer_wait %bars[%slot], %phase
// CHECK:             [[REL:%[0-9]+]] = arith.cmpi ult, {{%[0-9]+}}, [[G]] : i32
// CHECK-NEXT:        lass_pipe.consumer_release %bars[{{%[0-9]+}}], [[REL]]
// CHECK:           %finisher = arith.cmpi eq
// CHECK:           lass_tb.partial_add
// CHECK:           lass_tb.partial_store
// CHECK:           [[NEXT:%[0-9]+]] = arith.addi %kt_base, %k_tiles_1 : i32
// CHECK-NEXT:      scf.yield [[NEXT]] : i32

// ERR: error: expected the loop around the K loop (stream-K's units) to carry no values

builtin.module {
  func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32, %W: memref<?xi32>) attributes {lass.kernel = #lass.kernel<ab = f16, acc = f32, d = f32, layouts = [row, col, row], alpha = 1.0, beta = 0.0, config = {threadblock = [64, 16, 32], warp = [64, 16, 32], instruction = [64, 16, 16], stages = 2, raster = 8, prefetch = 0, split_k_mode = "streamk", mma = "wgmma"}>} {
    %cta, %ctas = lass_tb.persistent_cta
    %0 = arith.constant 63 : i32
    %1 = arith.addi %M, %0 : i32
    %2 = arith.constant 64 : i32
    %3 = arith.divui %1, %2 : i32
    %4 = arith.constant 15 : i32
    %5 = arith.addi %N, %4 : i32
    %6 = arith.constant 16 : i32
    %7 = arith.divui %5, %6 : i32
    %tiles = arith.muli %3, %7 : i32
    %8 = arith.constant 31 : i32
    %9 = arith.addi %K, %8 : i32
    %10 = arith.constant 32 : i32
    %k_tiles = arith.divui %9, %10 : i32
    %11 = arith.muli %tiles, %k_tiles : i32
    %12 = arith.divui %11, %ctas : i32
    %13 = arith.remui %11, %ctas : i32
    %14 = arith.muli %cta, %12 : i32
    %15 = arith.minui %cta, %13 : i32
    %16 = arith.addi %14, %15 : i32
    %17 = arith.constant 1 : i32
    %18 = arith.addi %cta, %17 : i32
    %19 = arith.muli %18, %12 : i32
    %20 = arith.minui %18, %13 : i32
    %21 = arith.addi %19, %20 : i32
    %22 = arith.subi %k_tiles, %17 : i32
    %23 = arith.addi %21, %22 : i32
    %24 = arith.divui %23, %k_tiles : i32
    %25 = arith.divui %16, %k_tiles : i32
    %26 = arith.subi %24, %25 : i32
    %27 = arith.subi %21, %16 : i32
    %28 = arith.minui %27, %17 : i32
    %units = arith.muli %26, %28 : i32
    %29 = arith.constant 0 : i32
    scf.for %unit = %29 to %units step %17 : i32 {
      %30 = arith.remui %11, %ctas : i32
      %31 = arith.minui %cta, %30 : i32
      %32 = arith.addi %14, %31 : i32
      %33 = arith.minui %18, %30 : i32
      %34 = arith.addi %19, %33 : i32
      %35 = arith.addi %34, %17 : i32
      %36 = arith.minui %34, %17 : i32
      %37 = arith.subi %35, %36 : i32
      %38 = arith.subi %37, %17 : i32
      %39 = arith.divui %38, %k_tiles : i32
      %40 = arith.minui %unit, %39 : i32
      %tile = arith.subi %39, %40 : i32
      %41 = arith.muli %tile, %k_tiles : i32
      %42 = arith.addi %32, %41 : i32
      %43 = arith.minui %32, %41 : i32
      %44 = arith.subi %42, %43 : i32
      %45 = arith.subi %44, %41 : i32
      %46 = arith.addi %41, %k_tiles : i32
      %47 = arith.minui %34, %46 : i32
      %48 = arith.subi %47, %41 : i32
      %49 = arith.addi %11, %17 : i32
      %50 = arith.minui %11, %17 : i32
      %51 = arith.subi %49, %50 : i32
      %52 = arith.divui %51, %ctas : i32
      %53 = arith.remui %51, %ctas : i32
      %54 = arith.addi %52, %17 : i32
      %55 = arith.muli %53, %54 : i32
      %56 = arith.minui %41, %55 : i32
      %57 = arith.divui %56, %54 : i32
      %58 = arith.subi %41, %56 : i32
      %59 = arith.minui %52, %17 : i32
      %60 = arith.subi %54, %59 : i32
      %61 = arith.divui %58, %60 : i32
      %62 = arith.addi %57, %61 : i32
      %seg = arith.subi %cta, %62 : i32
      %63 = arith.constant 8 : i32
      %64 = arith.muli %7, %63 : i32
      %65 = arith.divui %tile, %64 : i32
      %66 = arith.muli %65, %63 : i32
      %67 = arith.subi %3, %66 : i32
      %68 = arith.minui %67, %63 : i32
      %69 = arith.remui %tile, %64 : i32
      %70 = arith.remui %69, %68 : i32
      %71 = arith.addi %66, %70 : i32
      %72 = arith.divui %69, %68 : i32
      %m0 = arith.muli %71, %2 : i32
      %n0 = arith.muli %72, %6 : i32
      %k_begin = arith.muli %45, %10 : i32
      %73 = arith.muli %48, %10 : i32
      %k_end = arith.minui %73, %K : i32
      %74 = lass_tb.zero_acc : !lass_tb.acc<64x16xf32>
      %75 = scf.for %k0 = %k_begin to %k_end step %10 iter_args(%acc = %74) -> (!lass_tb.acc<64x16xf32>) : i32 {
        %76 = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16> -> !lass_tb.tile<64x32xf16>
        %77 = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<16x32xf16>
        %78 = lass_tb.mma %76, %77, %acc : !lass_tb.tile<64x32xf16>, !lass_tb.tile<16x32xf16>, !lass_tb.acc<64x16xf32>
        scf.yield %78 : !lass_tb.acc<64x16xf32>
      }
      %finisher = arith.cmpi eq, %48, %k_tiles : i32
      scf.if %finisher {
        scf.for %j = %29 to %seg step %17 : i32 {
          %79 = arith.subi %cta, %seg : i32
          %pred_cta = arith.addi %79, %j : i32
          %80 = arith.constant 1024 : i32
          %81 = arith.muli %ctas, %80 : i32
          %flag = arith.addi %81, %pred_cta : i32
          lass_tb.semaphore_wait %W[%flag], %17 : memref<?xi32>
        }
        %sum = scf.for %j_1 = %29 to %seg step %17 iter_args(%82 = %75) -> (!lass_tb.acc<64x16xf32>) : i32 {
          %83 = arith.subi %cta, %seg : i32
          %pred_cta_1 = arith.addi %83, %j_1 : i32
          %84 = lass_tb.partial_add %82, %W[%pred_cta_1] : !lass_tb.acc<64x16xf32>, memref<?xi32> -> !lass_tb.acc<64x16xf32>
          scf.yield %84 : !lass_tb.acc<64x16xf32>
        }
        scf.for %j_2 = %29 to %seg step %17 : i32 {
          %85 = arith.subi %cta, %seg : i32
          %pred_cta_2 = arith.addi %85, %j_2 : i32
          %86 = arith.constant 1024 : i32
          %87 = arith.muli %ctas, %86 : i32
          %flag_1 = arith.addi %87, %pred_cta_2 : i32
          lass_tb.semaphore_release %W[%flag_1], %29 : memref<?xi32>
        }
        lass_tb.epilogue %sum, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x16xf32>, memref<?x?xf32>
      } else {
        lass_tb.partial_store %75, %W[%cta] : !lass_tb.acc<64x16xf32>, memref<?xi32>
        %88 = arith.constant 1024 : i32
        %89 = arith.muli %ctas, %88 : i32
        %flag_2 = arith.addi %89, %cta : i32
        lass_tb.semaphore_release %W[%flag_2], %17 : memref<?xi32>
      }
    }
    func.return
  }
}
