// lasscc-pipeline (passes/pipeline.py): the threadblock K loop -> a software pipeline over a ring
// of `stages` shared-memory slots.  Threadblock 64x64x32, f16: one tile is 64*32*2 = 4096 bytes.
//
// RUN: %lasscc opt -p lasscc-pipeline %s -o %t.once.mlir
// RUN: filecheck %s --input-file %t.once.mlir
// RUN: xdsl-opt -p lasscc-pipeline %s | xdsl-opt -p cse,dce | filecheck %s
//
// IR already past this pass is left alone: a second run changes nothing.
// RUN: %lasscc opt -p lasscc-pipeline %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
//
// Rejected:
// RUN: not %lasscc opt -p lasscc-pipeline %S/Inputs/lasscc-pipeline-loop-order.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-ORDER
// RUN: not %lasscc opt -p lasscc-pipeline %S/Inputs/lasscc-pipeline-loop-extra-op.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-EXTRA
// RUN: not %lasscc opt -p lasscc-pipeline %S/Inputs/lasscc-pipeline-stages-1.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-STAGES

// ---- positive: stages = 4 (cp.async multistage) ----
// Rings at 0 and 4 * 4096; prologue of S-1 = 3 copy groups into slots 0, 1, 2, each predicated
// on tile < k_tiles and committed; wait {pending = S-2} + barrier; the loop copies tile kt+3 into
// slot (kt+3) % 4, runs the mma on slot kt % 4 and closes with wait {pending = 2} + barrier;
// drain: wait {pending = 0}.

// CHECK-LABEL: func.func @multistage(
// CHECK-NEXT:    %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64 : i64, 64 : i64], raster = 4 : i64}
// CHECK-NEXT:    %acc0 = lass_tb.zero_acc : !lass_tb.acc<64x64xf32>
// CHECK-NEXT:    %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<4x64x32xf16>
// CHECK-NEXT:    %ring_b = lass_pipe.ring {offset = 16384 : i64} : !lass_pipe.ring<4x64x32xf16>
// CHECK-NEXT:    [[BKM1:%[0-9]+]] = arith.constant 31 : i32
// CHECK-NEXT:    [[KP:%[0-9]+]] = arith.addi %K, [[BKM1]] : i32
// CHECK-NEXT:    [[BK:%[0-9]+]] = arith.constant 32 : i32
// CHECK-NEXT:    %k_tiles = arith.divui [[KP]], [[BK]] : i32
//                prologue group 0
// CHECK-NEXT:    [[C0:%[0-9]+]] = arith.constant 0 : i32
// CHECK-NEXT:    [[P0:%[0-9]+]] = arith.cmpi ult, [[C0]], %k_tiles : i32
// CHECK-NEXT:    [[K0:%[0-9]+]] = arith.muli [[C0]], [[BK]] : i32
// CHECK-NEXT:    lass_pipe.copy_async A %A[%m0, [[K0]]], %ring_a{{\[}}[[C0]]{{\]}}, [[P0]] : memref<?x?xf16>, !lass_pipe.ring<4x64x32xf16>
// CHECK-NEXT:    lass_pipe.copy_async B %B[%n0, [[K0]]], %ring_b{{\[}}[[C0]]{{\]}}, [[P0]] : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<4x64x32xf16>
// CHECK-NEXT:    lass_pipe.commit
//                prologue group 1
// CHECK-NEXT:    [[C1:%[0-9]+]] = arith.constant 1 : i32
// CHECK-NEXT:    [[P1:%[0-9]+]] = arith.cmpi ult, [[C1]], %k_tiles : i32
// CHECK-NEXT:    [[K1:%[0-9]+]] = arith.muli [[C1]], [[BK]] : i32
// CHECK-NEXT:    lass_pipe.copy_async A %A[%m0, [[K1]]], %ring_a{{\[}}[[C1]]{{\]}}, [[P1]]
// CHECK-NEXT:    lass_pipe.copy_async B %B[%n0, [[K1]]], %ring_b{{\[}}[[C1]]{{\]}}, [[P1]]
// CHECK-NEXT:    lass_pipe.commit
//                prologue group 2
// CHECK-NEXT:    [[C2:%[0-9]+]] = arith.constant 2 : i32
// CHECK-NEXT:    [[P2:%[0-9]+]] = arith.cmpi ult, [[C2]], %k_tiles : i32
// CHECK-NEXT:    [[K2:%[0-9]+]] = arith.muli [[C2]], [[BK]] : i32
// CHECK-NEXT:    lass_pipe.copy_async A %A[%m0, [[K2]]], %ring_a{{\[}}[[C2]]{{\]}}, [[P2]]
// CHECK-NEXT:    lass_pipe.copy_async B %B[%n0, [[K2]]], %ring_b{{\[}}[[C2]]{{\]}}, [[P2]]
// CHECK-NEXT:    lass_pipe.commit
// CHECK-NEXT:    lass_pipe.wait {pending = 2 : i64}
// CHECK-NEXT:    lass_pipe.barrier
//                steady state
// CHECK-NEXT:    %r = scf.for %kt = [[C0]] to %k_tiles step [[C1]] iter_args(%acc = %acc0) -> (!lass_tb.acc<64x64xf32>) : i32 {
// CHECK-NEXT:      [[S1:%[0-9]+]] = arith.constant 3 : i32
// CHECK-NEXT:      [[NXT:%[0-9]+]] = arith.addi %kt, [[S1]] : i32
// CHECK-NEXT:      [[S:%[0-9]+]] = arith.constant 4 : i32
// CHECK-NEXT:      [[NSLOT:%[0-9]+]] = arith.remui [[NXT]], [[S]] : i32
// CHECK-NEXT:      [[NP:%[0-9]+]] = arith.cmpi ult, [[NXT]], %k_tiles : i32
// CHECK-NEXT:      [[NK:%[0-9]+]] = arith.muli [[NXT]], [[BK]] : i32
// CHECK-NEXT:      lass_pipe.copy_async A %A[%m0, [[NK]]], %ring_a{{\[}}[[NSLOT]]{{\]}}, [[NP]]
// CHECK-NEXT:      lass_pipe.copy_async B %B[%n0, [[NK]]], %ring_b{{\[}}[[NSLOT]]{{\]}}, [[NP]]
// CHECK-NEXT:      lass_pipe.commit
// CHECK-NEXT:      %slot = arith.remui %kt, [[S]] : i32
// CHECK-NEXT:      [[ACC1:%[0-9]+]] = lass_pipe.mma %ring_a[%slot], %ring_b[%slot], %acc : !lass_pipe.ring<4x64x32xf16>, !lass_pipe.ring<4x64x32xf16>, !lass_tb.acc<64x64xf32>
// CHECK-NEXT:      lass_pipe.wait {pending = 2 : i64}
// CHECK-NEXT:      lass_pipe.barrier
// CHECK-NEXT:      scf.yield [[ACC1]] : !lass_tb.acc<64x64xf32>
// CHECK-NEXT:    }
//                drain
// CHECK-NEXT:    lass_pipe.wait {pending = 0 : i64}
// CHECK-NEXT:    lass_tb.epilogue %r, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x64xf32>, memref<?x?xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @multistage(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32)
    attributes {lass.kernel = #lass.kernel<config = {threadblock = [64, 64, 32], warp = [32, 32, 32], instruction = [16, 8, 16], stages = 4, raster = 4}>} {
  %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64, 64], raster = 4}
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

// ---- positive: stages = 2 (GMEM -> registers -> SMEM, one barrier per k-tile) ----
// Rings at 0 and 2 * 4096; prologue: tile 0 through registers into slot 0, barrier; the loop
// loads tile kt+1 (predicated), runs the mma on slot kt % 2, stores into slot (kt+1) % 2, then
// the iteration's only barrier.  No cp.async groups.

// CHECK-LABEL: func.func @double_buffer(
// CHECK-NEXT:    %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64 : i64, 64 : i64], raster = 4 : i64}
// CHECK-NEXT:    %acc0 = lass_tb.zero_acc : !lass_tb.acc<64x64xf32>
// CHECK-NEXT:    %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x64x32xf16>
// CHECK-NEXT:    %ring_b = lass_pipe.ring {offset = 8192 : i64} : !lass_pipe.ring<2x64x32xf16>
// CHECK-NEXT:    [[BKM1:%[0-9]+]] = arith.constant 31 : i32
// CHECK-NEXT:    [[KP:%[0-9]+]] = arith.addi %K, [[BKM1]] : i32
// CHECK-NEXT:    [[BK:%[0-9]+]] = arith.constant 32 : i32
// CHECK-NEXT:    %k_tiles = arith.divui [[KP]], [[BK]] : i32
// CHECK-NEXT:    [[C0:%[0-9]+]] = arith.constant 0 : i32
// CHECK-NEXT:    [[P0:%[0-9]+]] = arith.cmpi ult, [[C0]], %k_tiles : i32
// CHECK-NEXT:    [[K0:%[0-9]+]] = arith.muli [[C0]], [[BK]] : i32
// CHECK-NEXT:    [[RA0:%[0-9]+]] = lass_pipe.load_regs A %A[%m0, [[K0]]], [[P0]] : memref<?x?xf16> -> !lass_pipe.staged<64x32xf16>
// CHECK-NEXT:    [[RB0:%[0-9]+]] = lass_pipe.load_regs B %B[%n0, [[K0]]], [[P0]] : memref<?x?xf16, strided<[1, ?]>> -> !lass_pipe.staged<64x32xf16>
// CHECK-NEXT:    lass_pipe.store_regs [[RA0]], %ring_a{{\[}}[[C0]]{{\]}} : !lass_pipe.staged<64x32xf16>, !lass_pipe.ring<2x64x32xf16>
// CHECK-NEXT:    lass_pipe.store_regs [[RB0]], %ring_b{{\[}}[[C0]]{{\]}} : !lass_pipe.staged<64x32xf16>, !lass_pipe.ring<2x64x32xf16>
// CHECK-NEXT:    lass_pipe.barrier
// CHECK-NEXT:    [[C1:%[0-9]+]] = arith.constant 1 : i32
// CHECK-NEXT:    %r = scf.for %kt = [[C0]] to %k_tiles step [[C1]] iter_args(%acc = %acc0) -> (!lass_tb.acc<64x64xf32>) : i32 {
// CHECK-NEXT:      [[NXT:%[0-9]+]] = arith.addi %kt, [[C1]] : i32
// CHECK-NEXT:      [[NP:%[0-9]+]] = arith.cmpi ult, [[NXT]], %k_tiles : i32
// CHECK-NEXT:      [[NK:%[0-9]+]] = arith.muli [[NXT]], [[BK]] : i32
// CHECK-NEXT:      [[RA:%[0-9]+]] = lass_pipe.load_regs A %A[%m0, [[NK]]], [[NP]]
// CHECK-NEXT:      [[RB:%[0-9]+]] = lass_pipe.load_regs B %B[%n0, [[NK]]], [[NP]]
// CHECK-NEXT:      [[C2:%[0-9]+]] = arith.constant 2 : i32
// CHECK-NEXT:      %slot = arith.remui %kt, [[C2]] : i32
// CHECK-NEXT:      [[ACC1:%[0-9]+]] = lass_pipe.mma %ring_a[%slot], %ring_b[%slot], %acc : !lass_pipe.ring<2x64x32xf16>, !lass_pipe.ring<2x64x32xf16>, !lass_tb.acc<64x64xf32>
// CHECK-NEXT:      [[NSLOT:%[0-9]+]] = arith.remui [[NXT]], [[C2]] : i32
// CHECK-NEXT:      lass_pipe.store_regs [[RA]], %ring_a{{\[}}[[NSLOT]]{{\]}}
// CHECK-NEXT:      lass_pipe.store_regs [[RB]], %ring_b{{\[}}[[NSLOT]]{{\]}}
// CHECK-NEXT:      lass_pipe.barrier
// CHECK-NEXT:      scf.yield [[ACC1]] : !lass_tb.acc<64x64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    lass_tb.epilogue %r, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x64xf32>, memref<?x?xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @double_buffer(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32)
    attributes {lass.kernel = #lass.kernel<config = {threadblock = [64, 64, 32], warp = [32, 32, 32], instruction = [16, 8, 16], stages = 2, raster = 4}>} {
  %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64, 64], raster = 4}
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

// ---- left alone: the same K loop in a function that is not a kernel (no lass.kernel) ----

// CHECK-LABEL: func.func @not_a_kernel(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %m0: i32, %n0: i32, %K: i32, %acc0: !lass_tb.acc<64x64xf32>) -> !lass_tb.acc<64x64xf32> {
// CHECK-NEXT:    %c0 = arith.constant 0 : i32
// CHECK-NEXT:    %c32 = arith.constant 32 : i32
// CHECK-NEXT:    %r = scf.for %k0 = %c0 to %K step %c32 iter_args(%acc = %acc0) -> (!lass_tb.acc<64x64xf32>) : i32 {
// CHECK-NEXT:      %ta = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16> -> !lass_tb.tile<64x32xf16>
// CHECK-NEXT:      %tb = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<64x32xf16>
// CHECK-NEXT:      %acc1 = lass_tb.mma %ta, %tb, %acc : !lass_tb.tile<64x32xf16>, !lass_tb.tile<64x32xf16>, !lass_tb.acc<64x64xf32>
// CHECK-NEXT:      scf.yield %acc1 : !lass_tb.acc<64x64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %r : !lass_tb.acc<64x64xf32>
// CHECK-NEXT:  }
func.func @not_a_kernel(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %m0: i32, %n0: i32, %K: i32,
                        %acc0: !lass_tb.acc<64x64xf32>) -> !lass_tb.acc<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %r = scf.for %k0 = %c0 to %K step %c32 iter_args(%acc = %acc0) -> (!lass_tb.acc<64x64xf32>) : i32 {
    %ta = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16> -> !lass_tb.tile<64x32xf16>
    %tb = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<64x32xf16>
    %acc1 = lass_tb.mma %ta, %tb, %acc : !lass_tb.tile<64x32xf16>, !lass_tb.tile<64x32xf16>, !lass_tb.acc<64x64xf32>
    scf.yield %acc1 : !lass_tb.acc<64x64xf32>
  }
  func.return %r : !lass_tb.acc<64x64xf32>
}

// ---- left alone: a kernel loop without lass_tb.load_tile ----

// CHECK-LABEL: func.func @kernel_other_loop(%K: i32) -> i32
// CHECK-NEXT:    %c0 = arith.constant 0 : i32
// CHECK-NEXT:    %c1 = arith.constant 1 : i32
// CHECK-NEXT:    %s = scf.for %i = %c0 to %K step %c1 iter_args(%x = %c0) -> (i32) : i32 {
// CHECK-NEXT:      %y = arith.addi %x, %i : i32
// CHECK-NEXT:      scf.yield %y : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %s : i32
// CHECK-NEXT:  }
func.func @kernel_other_loop(%K: i32) -> i32
    attributes {lass.kernel = #lass.kernel<config = {threadblock = [64, 64, 32], warp = [32, 32, 32], stages = 3}>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %s = scf.for %i = %c0 to %K step %c1 iter_args(%x = %c0) -> (i32) : i32 {
    %y = arith.addi %x, %i : i32
    scf.yield %y : i32
  }
  func.return %s : i32
}

// ---- rejected: inputs under Inputs/ ----

// ERR-ORDER: {{^.*}}Inputs/lasscc-pipeline-loop-order.mlir.in:9:3: error: expected the K loop of lasscc-tile-threadblock (k0 = 0 to K step BK; load_tile A and B at k0, mma, yield), got another form{{$}}
// ERR-EXTRA: {{^.*}}Inputs/lasscc-pipeline-loop-extra-op.mlir.in:8:3: error: expected the K loop of lasscc-tile-threadblock (k0 = 0 to K step BK; load_tile A and B at k0, mma, yield), got another form{{$}}
// ERR-STAGES: {{^.*}}Inputs/lasscc-pipeline-stages-1.mlir.in:3:1: error: lass.kernel: config: expected stages >= 2, got 1{{$}}

// Element types: the rings take the tiles' element type and size (f32 4 bytes, i8 1 byte):
// RUN: %lasscc opt -p lasscc-tile-threadblock,lasscc-pipeline %S/Inputs/dtypes.mlir.in | filecheck %s --check-prefix=DT
// DT-LABEL: func.func @tf32(
// DT:         %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x32x16xf32>
// DT-NEXT:    %ring_b = lass_pipe.ring {offset = 4096 : i64} : !lass_pipe.ring<2x32x16xf32>
// DT:         lass_pipe.load_regs A %A{{.*}} -> !lass_pipe.staged<32x16xf32>
// DT:         lass_pipe.mma %ring_a[%slot], %ring_b[%slot], %acc : !lass_pipe.ring<2x32x16xf32>, !lass_pipe.ring<2x32x16xf32>, !lass_tb.acc<32x32xf32>
// DT-LABEL: func.func @int8(
// DT:         %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x32x64xi8>
// DT-NEXT:    %ring_b = lass_pipe.ring {offset = 6144 : i64} : !lass_pipe.ring<3x32x64xi8>
// DT:         lass_pipe.mma %ring_a[%slot], %ring_b[%slot], %acc : !lass_pipe.ring<3x32x64xi8>, !lass_pipe.ring<3x32x64xi8>, !lass_tb.acc<32x32xi32>
// DT-LABEL: func.func @f16acc(
// DT:         lass_pipe.mma %ring_a[%slot], %ring_b[%slot], %acc : !lass_pipe.ring<3x32x32xf16>, !lass_pipe.ring<3x32x32xf16>, !lass_tb.acc<32x32xf16>
