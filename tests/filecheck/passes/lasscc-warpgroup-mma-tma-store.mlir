// lasscc-warpgroup-mma with config `epilogue = "tma"` (passes/tma_store.py): the no-C branch of the
// epilogue stages the block's accumulators in shared memory and stores them with TMA.  Input: the
// pipelined 64x32x32 f16 kernel with an f16 D (Inputs/lasscc-warpgroup-mma-tma-store.mlir.in).  One
// subtile of 64 rows x 32 columns (64-byte rows, 64B swizzle): two stmatrix.x4 per thread (16
// columns each), the proxy fence, the block barrier, thread 0's lass_wg.tma_store at the tile origin
// and bulk commit, then its wait until the store has read the buffer.  A D whose rows are not 16
// bytes apart or whose address is not 16-byte aligned takes the direct stores, the copy that beta != 0
// takes too (warp_mma.SHARED_DIRECT: the then branch, reading C where beta != 0).
//
// RUN: %lasscc opt -p lasscc-warpgroup-mma %S/Inputs/lasscc-warpgroup-mma-tma-store.mlir.in -o %t.once.mlir
// RUN: filecheck %s --input-file %t.once.mlir
//
// Left alone once applied:
// RUN: %lasscc opt -p lasscc-warpgroup-mma %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
//
// A fused bias [n] + ReLU in the rolled subtile loop (Inputs/lasscc-warpgroup-mma-tma-store-rolled.mlir.in:
// 128x128 f32 D, two windows of two 32-column subtiles): the loop reads the next window's 8 bias pairs
// in a uniform scf.if on the window being inside N -- unpredicated (the constant true), at the window's
// column plus `overflow<nsw>` offsets -- else each pair under its bound; the region's v + bias is one
// math.fma of alpha, the accumulator value and the bias (lasscc-warpgroup-mma's FOLD_ALPHA), no mulf.
// RUN: %lasscc opt -p lasscc-warpgroup-mma %S/Inputs/lasscc-warpgroup-mma-tma-store-rolled.mlir.in | filecheck %s --check-prefix=ROLLED
//
// Rejected (the config check, at the lass.gemm): a 16-bit D tile of 40 columns, which no subtile divides.
// RUN: not %lasscc opt --arch sm_90a -p lasscc-tile-threadblock %S/Inputs/lasscc-warpgroup-mma-tma-store-bad.mlir.in 2>&1 | filecheck %s --check-prefix=ERR

// CHECK-LABEL: func.func @gemm(
// CHECK:         lass_wg.wait {pending = 0 : i64}
// CHECK:         [[ALIGNED:%[0-9]+]] = lass_nv.aligned %D {bytes = 16 : i64} : memref<?x?xf16>
// CHECK:         [[DIRECT:%[0-9]+]] = arith.ori {{%[0-9]+}}, {{%[0-9]+}} : i1
// CHECK:         scf.if [[DIRECT]] {
// CHECK:           lass_nv.ld_global %D
// CHECK:           lass_nv.st_global %D
// CHECK:         } else {
// CHECK-NOT:       lass_nv.st_global
// CHECK:           lass_nv.stmatrix_x4 {{.*}} : f16, f16, f16, f16, f16, f16, f16, f16
// CHECK:           lass_nv.stmatrix_x4 {{.*}} : f16, f16, f16, f16, f16, f16, f16, f16
// CHECK-NEXT:      lass_nv.fence_proxy_async
// CHECK-NEXT:      lass_nv.bar_sync
// CHECK-NEXT:      scf.if [[IS0:%[0-9]+]] {
// CHECK-NEXT:        lass_wg.tma_store %D[%m0, %n0], {{%[0-9]+}} : memref<?x?xf16>
// CHECK-NEXT:        lass_nv.bulk_commit_group
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.if [[IS0]] {
// CHECK-NEXT:        lass_nv.bulk_wait_group_read {pending = 0 : i64}
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK:         func.return

// ROLLED-LABEL: func.func @gemm(
// ROLLED:         [[TRUE:%[0-9]+]] = arith.constant true
// ROLLED:         lass_nv.aligned %D {bytes = 16 : i64} : memref<?x?xf32>
// ROLLED:         scf.for %window = {{.*}} -> (f32
// ROLLED:           [[INSIDE:%[0-9]+]] = arith.cmpi ule, {{%[0-9]+}}, %N : i32
// ROLLED-NEXT:      [[NEXT:%[0-9]+]] = arith.addi {{%[0-9]+}}, {{%[0-9]+}} overflow<nsw> : i32
// ROLLED-NEXT:      {{(%[0-9]+, ){15}%[0-9]+}} = scf.if [[INSIDE]] -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// ROLLED-NEXT:        {{%[0-9]+}}, {{%[0-9]+}} = lass_nv.ld_global %bias{{\[}}[[NEXT]]] x 2 if [[TRUE]] : memref<?xf32>
// ROLLED-NEXT:        [[OFF:%[0-9]+]] = arith.addi [[NEXT]], {{%[0-9]+}} overflow<nsw> : i32
// ROLLED-NEXT:        {{%[0-9]+}}, {{%[0-9]+}} = lass_nv.ld_global %bias{{\[}}[[OFF]]] x 2 if [[TRUE]] : memref<?xf32>
// ROLLED:             scf.yield
// ROLLED-NEXT:      } else {
// ROLLED-NEXT:        [[LAST:%[0-9]+]] = arith.addi [[NEXT]], {{%[0-9]+}} : i32
// ROLLED-NEXT:        [[OK:%[0-9]+]] = arith.cmpi ult, [[LAST]], %N : i32
// ROLLED-NEXT:        {{%[0-9]+}}, {{%[0-9]+}} = lass_nv.ld_global %bias{{\[}}[[NEXT]]] x 2 if [[OK]] : memref<?xf32>
// ROLLED:             scf.yield
// ROLLED-NEXT:      }
// ROLLED-NOT:       arith.mulf %alpha
// ROLLED:           [[V:%[0-9]+]] = math.fma %alpha, {{%[0-9]+}}, {{%[0-9]+}} : f32
// ROLLED-NEXT:      {{%[a-z_0-9]+}} = arith.maximumf [[V]], %zero : f32
// ROLLED:           lass_nv.st_shared
// ROLLED:           lass_wg.tma_store %D

// ERR: lasscc-warpgroup-mma-tma-store-bad.mlir.in:3:3: error: config: threadblock N = 40: epilogue = "tma" stores subtiles of 32-, 64- or 128-byte rows of D
