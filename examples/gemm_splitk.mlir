// Serial split-K (lasscc.splitk): K cut into 4 partitions of whole k-tiles (grid y); each tile's
// partial epilogues update D in K order through a semaphore in a zeroed global workspace.
// Run: lasscc explain examples/gemm_splitk.mlir --stage threadblock --k 16384 --grid 8x8
//      lasscc run examples/gemm_splitk.mlir --target cpu --m 100 --n 70 --k 640 --cta-order reverse --check
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {threadblock = [128, 128, 32], warp = [64, 64, 32], stages = 3, split_k = 4}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
