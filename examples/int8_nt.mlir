// int8 with A column-major and B row-major (BLAS "NT": both tiles MN-major), s32 D.  The s8
// fragments of an MN-major tile come from ldmatrix.x4.trans (16-bit) plus byte permutes (prmt),
// with fragment rows paired (interleaved) and the epilogue storing to match (ARCHITECTURE.md,
// lasscc-swizzle-smem).  M and N multiples of 16 (16-byte accesses along them); K any.
// Run: lasscc compile examples/int8_nt.mlir -o int8_nt.ptx -v; lasscc run examples/int8_nt.mlir --target cpu --m 144 --n 48 --k 129 --check --report banks
func.func @gemm(%a: memref<?x?xi8, strided<[1, ?]>>, %b: memref<?x?xi8>, %d: memref<?x?xi32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {threadblock = [128, 128, 64], warp = [64, 64, 64], stages = 3}}
      ins(%a, %b : memref<?x?xi8, strided<[1, ?]>>, memref<?x?xi8>) outs(%d : memref<?x?xi32>)
  func.return
}
