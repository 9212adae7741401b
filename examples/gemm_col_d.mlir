// Column-major D (M x N, leading dimension M): computed as D^T = B^T . A^T (operand swap).
// Run: lasscc compile examples/gemm_col_d.mlir -o col.ptx; lasscc run examples/gemm_col_d.mlir --check
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32, strided<[1, ?]>>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {threadblock = [128, 128, 32], warp = [64, 64, 32], instruction = [16, 8, 16], stages = 3}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32, strided<[1, ?]>>)
  func.return
}
