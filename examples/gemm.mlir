// D = A . B in f32, A 4096-ish x K row-major f16, B K x N column-major f16 (TN).
// Run: lasscc compile examples/gemm.mlir -o gemm.ptx --dump-dir dumps/
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {threadblock = [128, 128, 32], warp = [64, 64, 32], instruction = [16, 8, 16], stages = 3}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
