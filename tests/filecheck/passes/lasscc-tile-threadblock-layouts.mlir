// lasscc-tile-threadblock (passes/tile_threadblock.py), operand layouts: A and B each row- or
// column-major.  Each tile is stored the way its operand is contiguous: K-major for a row-major A
// or a column-major B, MN-major (`!lass_tb.tile<..., mn>`) for a column-major A or a row-major B.
// A column-major D swaps the operands (D^T = B^T . A^T): the kernel's A is B^T, its B is A^T, each
// with the other layout (the same memory).  The caller's layouts stay on the kernel.
//
// RUN: %lasscc opt -p lasscc-tile-threadblock %s | filecheck %s
// RUN: xdsl-opt -p lasscc-tile-threadblock %s | xdsl-opt -p cse,dce | filecheck %s
// Rejected (a layout neither row- nor column-major):
// RUN: not %lasscc opt -p lasscc-tile-threadblock %S/Inputs/lasscc-tile-threadblock-other-layout.mlir.in 2>&1 | filecheck %s --check-prefix=ERR
// ERR: {{^.*}}Inputs/lasscc-tile-threadblock-other-layout.mlir.in:4:3: error: expected B row-major (identity layout) or column-major (strided<[1, ?]>), got strided<[?, 2]>{{$}}

// ---- NN (A column-major, B row-major), row-major D: both tiles MN-major ----

// CHECK-LABEL: func.func @gemm_nn(
// CHECK-SAME:    %A: memref<?x?xf16, strided<[1, ?]>>, %B: memref<?x?xf16>, %D: memref<?x?xf32>,
// CHECK-SAME:    #lass.kernel<ab = f16, acc = f32, d = f32, layouts = [col, row, row], {{.*}}>} {
// CHECK:         lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<64x32xf16, mn>
// CHECK-NEXT:    lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16> -> !lass_tb.tile<64x32xf16, mn>
// CHECK-NEXT:    lass_tb.mma %{{[0-9]+}}, %{{[0-9]+}}, %acc : !lass_tb.tile<64x32xf16, mn>, !lass_tb.tile<64x32xf16, mn>, !lass_tb.acc<64x64xf32>
func.func @gemm_nn(%a: memref<?x?xf16, strided<[1, ?]>>, %b: memref<?x?xf16>, %d: memref<?x?xf32>) {
  lass.gemm {config = {threadblock = [64, 64, 32], warp = [32, 32, 32]}}
      ins(%a, %b : memref<?x?xf16, strided<[1, ?]>>, memref<?x?xf16>) outs(%d : memref<?x?xf32>)
  func.return
}

// ---- TT (A row-major, B row-major), column-major D, bf16: the kernel's A = B^T (N x K
// column-major: MN-major), its B = A^T (K x M column-major: K-major) ----

// CHECK-LABEL: func.func @gemm_tt_col_d(
// CHECK-SAME:    %A: memref<?x?xbf16, strided<[1, ?]>>, %B: memref<?x?xbf16, strided<[1, ?]>>, %D: memref<?x?xf32>,
// CHECK-SAME:    #lass.kernel<ab = bf16, acc = f32, d = f32, layouts = [row, row, col], {{.*}}>} {
// CHECK:         lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xbf16, strided<[1, ?]>> -> !lass_tb.tile<64x32xbf16, mn>
// CHECK-NEXT:    lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xbf16, strided<[1, ?]>> -> !lass_tb.tile<64x32xbf16>
func.func @gemm_tt_col_d(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %d: memref<?x?xf32, strided<[1, ?]>>) {
  lass.gemm {config = {threadblock = [64, 64, 32], warp = [32, 32, 32]}}
      ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%d : memref<?x?xf32, strided<[1, ?]>>)
  func.return
}

// ---- NT (A column-major, B column-major): only A MN-major ----

// CHECK-LABEL: func.func @gemm_nt(
// CHECK:         -> !lass_tb.tile<64x32xf16, mn>
// CHECK-NEXT:    -> !lass_tb.tile<64x32xf16>{{$}}
func.func @gemm_nt(%a: memref<?x?xf16, strided<[1, ?]>>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf16>) {
  lass.gemm {config = {threadblock = [64, 64, 32], warp = [32, 32, 32]}}
      ins(%a, %b : memref<?x?xf16, strided<[1, ?]>>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>)
  func.return
}

// ---- tf32 and int8 in every layout too (their MN-major fragments are lasscc-swizzle-smem's
// business): TT tf32 (B MN-major), NN int8 with a column-major D (swapped: A = B^T K-major,
// B = A^T MN-major) ----

// CHECK-LABEL: func.func @gemm_tf32_tt(
// CHECK-SAME:    %A: memref<?x?xf32>, %B: memref<?x?xf32>, %D: memref<?x?xf32>,
// CHECK-SAME:    #lass.kernel<ab = f32, acc = f32, d = f32, layouts = [row, row, row], {{.*}}>} {
// CHECK:         lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf32> -> !lass_tb.tile<64x16xf32>
// CHECK-NEXT:    lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf32> -> !lass_tb.tile<64x16xf32, mn>
func.func @gemm_tf32_tt(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %d: memref<?x?xf32>) {
  lass.gemm {config = {threadblock = [64, 64, 16], warp = [32, 32, 16]}}
      ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%d : memref<?x?xf32>)
  func.return
}

// CHECK-LABEL: func.func @gemm_i8_nn_col_d(
// CHECK-SAME:    %A: memref<?x?xi8>, %B: memref<?x?xi8>, %D: memref<?x?xi32>,
// CHECK-SAME:    #lass.kernel<ab = i8, acc = i32, d = i32, layouts = [col, col, col], {{.*}}>} {
// CHECK:         lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xi8> -> !lass_tb.tile<64x64xi8>
// CHECK-NEXT:    lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xi8> -> !lass_tb.tile<64x64xi8, mn>
func.func @gemm_i8_nn_col_d(%a: memref<?x?xi8, strided<[1, ?]>>, %b: memref<?x?xi8, strided<[1, ?]>>,
                            %d: memref<?x?xi32, strided<[1, ?]>>) {
  lass.gemm {config = {threadblock = [64, 64, 64], warp = [32, 32, 64]}}
      ins(%a, %b : memref<?x?xi8, strided<[1, ?]>>, memref<?x?xi8, strided<[1, ?]>>) outs(%d : memref<?x?xi32, strided<[1, ?]>>)
  func.return
}

// ---- left alone: a function without lass.gemm ----

// CHECK-LABEL: func.func @no_gemm(%x: memref<?x?xf16, strided<[1, ?]>>) {
// CHECK-NEXT:    func.return
func.func @no_gemm(%x: memref<?x?xf16, strided<[1, ?]>>) {
  func.return
}
