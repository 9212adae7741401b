// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round trip of every `lass_tb` op and type: the module docstring's example, completed.

// CHECK-LABEL: func.func @threadblock(
// CHECK-SAME:    %A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32)
// CHECK:         %m0, %n0 = lass_tb.block_tile %M, %N {tile = [128 : i64, 128 : i64], raster = 8 : i64}
// CHECK-NEXT:    %acc0 = lass_tb.zero_acc : !lass_tb.acc<128x128xf32>
// CHECK-NEXT:    %r = scf.for %k0 = %c0 to %K step %c32 iter_args(%acc = %acc0) -> (!lass_tb.acc<128x128xf32>) : i32 {
// CHECK-NEXT:      %ta = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16> -> !lass_tb.tile<128x32xf16>
// CHECK-NEXT:      %tb = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<128x32xf16>
// CHECK-NEXT:      %acc1 = lass_tb.mma %ta, %tb, %acc : !lass_tb.tile<128x32xf16>, !lass_tb.tile<128x32xf16>, !lass_tb.acc<128x128xf32>
// CHECK-NEXT:      scf.yield %acc1 : !lass_tb.acc<128x128xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    lass_tb.epilogue %r, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<128x128xf32>, memref<?x?xf32>
// CHECK-NEXT:    func.return
func.func @threadblock(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>,
                       %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %m0, %n0 = lass_tb.block_tile %M, %N {tile = [128, 128], raster = 8}
  %acc0 = lass_tb.zero_acc : !lass_tb.acc<128x128xf32>
  %r = scf.for %k0 = %c0 to %K step %c32 iter_args(%acc = %acc0) -> (!lass_tb.acc<128x128xf32>) : i32 {
    %ta = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16> -> !lass_tb.tile<128x32xf16>
    %tb = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<128x32xf16>
    %acc1 = lass_tb.mma %ta, %tb, %acc : !lass_tb.tile<128x32xf16>, !lass_tb.tile<128x32xf16>, !lass_tb.acc<128x128xf32>
    scf.yield %acc1 : !lass_tb.acc<128x128xf32>
  }
  lass_tb.epilogue %r, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<128x128xf32>, memref<?x?xf32>
  func.return
}

// Non-square tiles: A tile 64x16, B tile 32x16, accumulator 64x32.
// CHECK-LABEL: func.func @rectangular(
// CHECK-NEXT:    %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64 : i64, 32 : i64], raster = 1 : i64}
// CHECK-NEXT:    %acc = lass_tb.zero_acc : !lass_tb.acc<64x32xf32>
// CHECK-NEXT:    %ta = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16> -> !lass_tb.tile<64x16xf16>
// CHECK-NEXT:    %tb = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16> -> !lass_tb.tile<32x16xf16, mn>
// CHECK-NEXT:    %acc1 = lass_tb.mma %ta, %tb, %acc : !lass_tb.tile<64x16xf16>, !lass_tb.tile<32x16xf16, mn>, !lass_tb.acc<64x32xf32>
func.func @rectangular(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %M: i32, %N: i32, %k0: i32) {
  %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64, 32], raster = 1}
  %acc = lass_tb.zero_acc : !lass_tb.acc<64x32xf32>
  %ta = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16> -> !lass_tb.tile<64x16xf16>
  %tb = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16> -> !lass_tb.tile<32x16xf16, mn>
  %acc1 = lass_tb.mma %ta, %tb, %acc : !lass_tb.tile<64x16xf16>, !lass_tb.tile<32x16xf16, mn>, !lass_tb.acc<64x32xf32>
  func.return
}

// Batched GEMM: the block's batch (grid z) and the 2-d views of one batch of 3-d operands.
// CHECK-LABEL: func.func @batched(
// CHECK-NEXT:    %batch = lass_tb.batch_index
// CHECK-NEXT:    %A_b = lass_tb.batch_view %A[%batch], %sa : memref<?x?x?xf16> -> memref<?x?xf16>
// CHECK-NEXT:    %B_b = lass_tb.batch_view %B[%batch], %sb : memref<?x?x?xf16, strided<[?, 1, ?]>> -> memref<?x?xf16, strided<[1, ?]>>
// CHECK-NEXT:    %D_b = lass_tb.batch_view %D[%batch], %sd : memref<?x?x?xf32> -> memref<?x?xf32>
// CHECK-NEXT:    func.return
func.func @batched(%A: memref<?x?x?xf16>, %B: memref<?x?x?xf16, strided<[?, 1, ?]>>, %D: memref<?x?x?xf32>, %sa: i32, %sb: i32, %sd: i32) {
  %batch = lass_tb.batch_index
  %A_b = lass_tb.batch_view %A[%batch], %sa : memref<?x?x?xf16> -> memref<?x?xf16>
  %B_b = lass_tb.batch_view %B[%batch], %sb : memref<?x?x?xf16, strided<[?, 1, ?]>> -> memref<?x?xf16, strided<[1, ?]>>
  %D_b = lass_tb.batch_view %D[%batch], %sd : memref<?x?x?xf32> -> memref<?x?xf32>
  func.return
}

// Stream-K (lasscc.streamk): the block's place in the persistent grid and the grid's size.
// CHECK-LABEL: func.func @persistent()
// CHECK-NEXT:    %cta, %ctas = lass_tb.persistent_cta
// CHECK-NEXT:    func.return %cta, %ctas : i32, i32
func.func @persistent() -> (i32, i32) {
  %cta, %ctas = lass_tb.persistent_cta
  func.return %cta, %ctas : i32, i32
}

// Stream-K's workspace fix-up: a partial accumulator to a CTA's slot, and added back from one.
// CHECK-LABEL: func.func @partials(
// CHECK-NEXT:    lass_tb.partial_store %acc, %W[%slot] : !lass_tb.acc<64x64xf32>, memref<?xi32>
// CHECK-NEXT:    %sum = lass_tb.partial_add %acc, %W[%slot] : !lass_tb.acc<64x64xf32>, memref<?xi32> -> !lass_tb.acc<64x64xf32>
func.func @partials(%acc: !lass_tb.acc<64x64xf32>, %W: memref<?xi32>, %slot: i32) -> !lass_tb.acc<64x64xf32> {
  lass_tb.partial_store %acc, %W[%slot] : !lass_tb.acc<64x64xf32>, memref<?xi32>
  %sum = lass_tb.partial_add %acc, %W[%slot] : !lass_tb.acc<64x64xf32>, memref<?xi32> -> !lass_tb.acc<64x64xf32>
  func.return %sum : !lass_tb.acc<64x64xf32>
}

// Element types: i8 tiles with an i32 accumulator, f32 (tf32) tiles, f16 tiles with an f16 one.
// CHECK-LABEL: func.func @mma_types(
// CHECK-NEXT:    %r = lass_tb.mma %a, %b, %c : !lass_tb.tile<64x64xi8>, !lass_tb.tile<32x64xi8>, !lass_tb.acc<64x32xi32>
// CHECK-NEXT:    %s = lass_tb.mma %f, %g, %h : !lass_tb.tile<64x16xf32>, !lass_tb.tile<32x16xf32>, !lass_tb.acc<64x32xf32>
// CHECK-NEXT:    %t = lass_tb.mma %p, %q, %u : !lass_tb.tile<64x32xf16>, !lass_tb.tile<32x32xf16>, !lass_tb.acc<64x32xf16>
func.func @mma_types(%a: !lass_tb.tile<64x64xi8>, %b: !lass_tb.tile<32x64xi8>, %c: !lass_tb.acc<64x32xi32>,
                     %f: !lass_tb.tile<64x16xf32>, %g: !lass_tb.tile<32x16xf32>, %h: !lass_tb.acc<64x32xf32>,
                     %p: !lass_tb.tile<64x32xf16>, %q: !lass_tb.tile<32x32xf16>, %u: !lass_tb.acc<64x32xf16>) {
  %r = lass_tb.mma %a, %b, %c : !lass_tb.tile<64x64xi8>, !lass_tb.tile<32x64xi8>, !lass_tb.acc<64x32xi32>
  %s = lass_tb.mma %f, %g, %h : !lass_tb.tile<64x16xf32>, !lass_tb.tile<32x16xf32>, !lass_tb.acc<64x32xf32>
  %t = lass_tb.mma %p, %q, %u : !lass_tb.tile<64x32xf16>, !lass_tb.tile<32x32xf16>, !lass_tb.acc<64x32xf16>
  func.return
}
