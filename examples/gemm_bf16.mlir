// bf16 inputs, f32 accumulation and output: A M x K row-major bf16, B K x N column-major bf16 (TN).
// Run: lasscc compile examples/gemm_bf16.mlir -o gemm_bf16.ptx; lasscc run examples/gemm_bf16.mlir --check --bench
func.func @gemm(%a: memref<?x?xbf16>, %b: memref<?x?xbf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {threadblock = [128, 128, 32], warp = [64, 64, 32], instruction = [16, 8, 16], stages = 3}}
      ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
