// NN: A column-major (M x K, leading dimension M) and B row-major (K x N, leading dimension N).
// Both operands are MN-major inside the kernel: their SMEM tiles are stored as k-lines of M (N)
// elements in 128-byte swizzled atoms and read with ldmatrix.x4.trans (ARCHITECTURE.md).
// M and N must be multiples of 8 (the operands' contiguous dimensions); K may be anything.
// Run: lasscc run examples/gemm_nn.mlir --target cpu --m 136 --n 72 --k 33 --check --report banks
func.func @gemm(%a: memref<?x?xf16, strided<[1, ?]>>, %b: memref<?x?xf16>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {threadblock = [128, 128, 32], warp = [64, 64, 32], instruction = [16, 8, 16], stages = 3}}
      ins(%a, %b : memref<?x?xf16, strided<[1, ?]>>, memref<?x?xf16>) outs(%d : memref<?x?xf32>)
  func.return
}
