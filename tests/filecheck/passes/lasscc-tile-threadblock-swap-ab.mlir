// lasscc-tile-threadblock (passes/tile_threadblock.py), config swap_ab = 1: a row-major D computed as
// D^T = B^T . A^T (issue 17's swap AB for a skinny M).  The kernel's A is B^T (the caller's B, N x K,
// in the other layout), its B is A^T, its M and N the caller's N and M; its D is the caller's
// row-major D read column-major (D^T, `strided<[1, ?]>`: KernelFacts.kernel_d_layout), and so are
// parallel split-K's partial sums, whose reduction finds an element's (row, col) column-major
// (lasscc.layout.matrix_coord) for the fused epilogue; a caller's [m] vector is the kernel's [n].
// Left alone: a config without swap_ab (D row-major), and a column-major D, which is computed as D^T
// anyway (swap_ab = 1 changes nothing: the kernel's D is row-major).
//
// RUN: %lasscc opt --arch sm_90a -p lasscc-tile-threadblock %s | filecheck %s
// Rejected (the TMA-store epilogue stores row-major tiles of D only):
// RUN: not %lasscc opt --arch sm_90a -p lasscc-tile-threadblock %S/Inputs/lasscc-tile-threadblock-swap-ab-tma.mlir.in 2>&1 | filecheck %s --check-prefix=ERR
// ERR: {{^.*}}Inputs/lasscc-tile-threadblock-swap-ab-tma.mlir.in:2:3: error: config: epilogue = "tma" with swap_ab = 1 is not supported {{.*}}; use epilogue = "direct"{{$}}

// CHECK-LABEL: func.func @gemm_swap(
// CHECK-SAME:    %A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32, strided<[1, ?]>>,
// CHECK-SAME:    #lass.kernel<ab = f16, acc = f32, d = f32, layouts = [row, col, row], {{.*}}, mma = "wgmma", swap_ab = 1}>} {
// CHECK:         lass_tb.block_tile %M, %N {tile = [128 : i64, 16 : i64], raster = 8 : i64}
// CHECK:         lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16> -> !lass_tb.tile<128x64xf16>
// CHECK-NEXT:    lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<16x64xf16>
// CHECK:         lass_tb.epilogue %{{[0-9]+}}, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<128x16xf32>, memref<?x?xf32, strided<[1, ?]>>
func.func @gemm_swap(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {config = {mma = "wgmma", threadblock = [128, 16, 64], stages = 4, swap_ab = 1}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}

// CHECK-LABEL: func.func @gemm_swap_split(
// CHECK-SAME:    %D: memref<?x?xf16, strided<[1, ?]>>, {{.*}}, %W: memref<?x?x?xf32, strided<[?, 1, ?]>>, %bias: memref<?xf16>)
// CHECK-SAME:    epilogue = [m f16]>} {
// CHECK:         %W_part = lass_tb.batch_view %W[%part], %{{[0-9]+}} : memref<?x?x?xf32, strided<[?, 1, ?]>> -> memref<?x?xf32, strided<[1, ?]>>
// CHECK:         lass_tb.epilogue %{{[0-9]+}}, %W_part[%m0, %n0], {{.*}} : !lass_tb.acc<64x32xf32>, memref<?x?xf32, strided<[1, ?]>>
// CHECK-LABEL: func.func @gemm_swap_split_splitk_reduce(
// CHECK:         %row = arith.remui %e, %M : i32
// CHECK-NEXT:    %col = arith.divui %e, %M : i32
// CHECK-NEXT:    lass_nv.ld_global %bias[%col] x 1
// CHECK:         lass_nv.st_global %D[%e], %{{[0-9]+}} if %{{[0-9]+}} : memref<?x?xf16, strided<[1, ?]>>, f16
func.func @gemm_swap_split(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf16>,
                           %bias: memref<?xf16>) {
  lass.gemm {config = {mma = "wgmma", threadblock = [64, 32, 64], stages = 4, swap_ab = 1, split_k = 2,
                       split_k_mode = "parallel"}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>)
      epilogue(%bias [m] : memref<?xf16>) {
  ^bb0(%v: f32, %x: f16):
    %0 = arith.extf %x : f16 to f32
    %1 = arith.addf %v, %0 : f32
    lass.yield %1 : f32
  }
  func.return
}

// ---- left alone ----

// CHECK-LABEL: func.func @gemm_no_swap(
// CHECK-SAME:    %A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>,
// CHECK:         lass_tb.block_tile %M, %N {tile = [128 : i64, 64 : i64], raster = 8 : i64}
// CHECK:         lass_tb.epilogue %{{[0-9]+}}, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<128x64xf32>, memref<?x?xf32>{{$}}
func.func @gemm_no_swap(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {config = {mma = "wgmma", threadblock = [128, 64, 64], stages = 4}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}

// CHECK-LABEL: func.func @gemm_col_d_swap(
// CHECK-SAME:    %A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>,
// CHECK-SAME:    layouts = [row, col, col]
// CHECK:         lass_tb.epilogue %{{[0-9]+}}, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<128x64xf32>, memref<?x?xf32>{{$}}
func.func @gemm_col_d_swap(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>,
                           %d: memref<?x?xf32, strided<[1, ?]>>) {
  lass.gemm {config = {mma = "wgmma", threadblock = [128, 64, 64], stages = 4, swap_ab = 1}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32, strided<[1, ?]>>)
  func.return
}

// ---- a function without lass.gemm ----

// CHECK-LABEL: func.func @not_a_gemm(
// CHECK-NEXT:    func.return
func.func @not_a_gemm(%x: memref<?x?xf32>) {
  func.return
}
