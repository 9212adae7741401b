// Small tiles: a 64 x 64 x 32 threadblock of four 32 x 32 warps; per warp and k-tile 2 x 4
// MmaIterations x 2 k-groups = 16 mma.sync (`lasscc explain` shows them); 3 stages = 24 KB of SMEM.
// More CTAs for small problems, fewer registers per thread (32 accumulators).
// Run: lasscc explain examples/gemm_small_tiles.mlir
//      lasscc run examples/gemm_small_tiles.mlir --target cpu --m 128 --n 128 --k 64 --check
func.func @gemm_small(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {threadblock = [64, 64, 32], warp = [32, 32, 32], instruction = [16, 8, 16], stages = 3}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
