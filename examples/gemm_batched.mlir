// Batched GEMM: 3-d operands, batch first, batches packed; one grid z index per batch.
// Run: lasscc compile examples/gemm_batched.mlir -o batched.ptx
func.func @gemm_batched(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16, strided<[?, 1, ?]>>, %d: memref<?x?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32, config = {stages = 3}}
      ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16, strided<[?, 1, ?]>>) outs(%d : memref<?x?x?xf32>)
  func.return
}
