// tf32 with A and B column-major (BLAS "NN": A's tile MN-major, B's K-major).  The tf32 fragments
// of the MN-major tile are two ld.shared.v2 per lane (no ldmatrix: .trans moves 16-bit elements),
// under Swizzle<2,5,2>, conflict-free.  M a multiple of 4 and K a multiple of 4; N any.
// Run: lasscc compile examples/tf32_nn.mlir -o tf32_nn.ptx -v; lasscc run examples/tf32_nn.mlir --target cpu --m 132 --n 65 --k 36 --check --report banks
func.func @gemm(%a: memref<?x?xf32, strided<[1, ?]>>, %b: memref<?x?xf32, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {threadblock = [128, 128, 16], warp = [64, 64, 16], stages = 3}}
      ins(%a, %b : memref<?x?xf32, strided<[1, ?]>>, memref<?x?xf32, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
