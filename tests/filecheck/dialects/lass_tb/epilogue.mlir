// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round trip of `lass_tb.epilogue` with a fused epilogue region (kinds in the kernel's terms) and of
// a kernel's `#lass.kernel<..., epilogue = [...]>`.

// CHECK:      #lass.kernel<ab = f16, acc = f32, d = f16, layouts = [row, col, row], alpha = 1.0, beta = 0.0, config = {threadblock = [64, 64, 32], warp = [32, 32, 32], instruction = [16, 8, 16], stages = 3, raster = 8, prefetch = 0}, epilogue = [n f32, scalar f32]>
// CHECK:      lass_tb.epilogue %{{.*}}, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x64xf32>, memref<?x?xf16> epilogue(%bias [n], %s : memref<?xf32>, f32) {
// CHECK-NEXT: ^bb0(%v: f32, %bj: f32, %s0: f32):
// CHECK-NEXT:   %{{.*}} = arith.addf %v, %bj : f32
// CHECK-NEXT:   %{{.*}} = math.tanh %{{.*}} : f32
// CHECK-NEXT:   %{{.*}} = arith.mulf %{{.*}}, %s0 : f32
// CHECK-NEXT:   lass.yield %{{.*}} : f32
// CHECK-NEXT: }
builtin.module {
  func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf16>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32, %bias: memref<?xf32>, %s: f32) attributes {lass.kernel = #lass.kernel<ab = f16, acc = f32, d = f16, layouts = [row, col, row], alpha = 1.0, beta = 0.0, config = {threadblock = [64, 64, 32], warp = [32, 32, 32], instruction = [16, 8, 16], stages = 3, raster = 8, prefetch = 0}, epilogue = [n f32, scalar f32]>} {
    %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64 : i64, 64 : i64], raster = 8 : i64}
    %0 = lass_tb.zero_acc : !lass_tb.acc<64x64xf32>
    %1 = arith.constant 0 : i32
    %2 = arith.constant 32 : i32
    %3 = scf.for %k0 = %1 to %K step %2 iter_args(%acc = %0) -> (!lass_tb.acc<64x64xf32>) : i32 {
      %4 = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16> -> !lass_tb.tile<64x32xf16>
      %5 = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<64x32xf16>
      %6 = lass_tb.mma %4, %5, %acc : !lass_tb.tile<64x32xf16>, !lass_tb.tile<64x32xf16>, !lass_tb.acc<64x64xf32>
      scf.yield %6 : !lass_tb.acc<64x64xf32>
    }
    lass_tb.epilogue %3, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x64xf32>, memref<?x?xf16> epilogue(%bias [n], %s : memref<?xf32>, f32) {
    ^bb0(%v: f32, %bj: f32, %s0: f32):
      %7 = arith.addf %v, %bj : f32
      %8 = math.tanh %7 : f32
      %9 = arith.mulf %8, %s0 : f32
      lass.yield %9 : f32
    }
    func.return
  }
}
