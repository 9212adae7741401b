// lasscc-tile-threadblock (passes/tile_threadblock.py), `align` in the config (elements per global
// copy access of A and B): validated, kept in the kernel's config (lass.kernel); with a column-major D the
// kernel computes D^T = B^T . A^T, so its A is the caller's B and the widths are swapped.  Without
// `align` the config stays without it (the full 16 bytes).
//
// RUN: %lasscc opt -p lasscc-tile-threadblock %s | filecheck %s
// Rejected: more than 16 bytes per access:
// RUN: not %lasscc opt -p lasscc-tile-threadblock %S/Inputs/lasscc-tile-threadblock-align-bad.mlir.in 2>&1 | filecheck %s --check-prefix=ERR
// ERR: {{^.*}}Inputs/lasscc-tile-threadblock-align-bad.mlir.in:4:3: error: config: expected align B a power of two from 1 to 8 f16 elements (at most 16 bytes per access), got 16{{$}}

// CHECK-LABEL: func.func @row_d(
// CHECK-SAME:    layouts = [row, col, row], {{.*}} align = [1, 4]}>}
func.func @row_d(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32, config = {threadblock = [64, 64, 32], warp = [32, 32, 32], align = [1, 4]}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}

// CHECK-LABEL: func.func @col_d(
// CHECK-SAME:    layouts = [row, col, col], {{.*}} align = [4, 1]}>}
func.func @col_d(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32, strided<[1, ?]>>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32, config = {threadblock = [64, 64, 32], warp = [32, 32, 32], align = [1, 4]}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32, strided<[1, ?]>>)
  func.return
}

// CHECK-LABEL: func.func @no_align(
// CHECK-SAME:    prefetch = 0}>}
// CHECK-NOT:     align =
func.func @no_align(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32, config = {threadblock = [64, 64, 32], warp = [32, 32, 32]}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
