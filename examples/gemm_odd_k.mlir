// Odd K (issue "General GEMM"): A and B are read in 2-byte accesses (align = [1, 1] elements per
// global -> shared copy access, CUTLASS's AlignmentA/B), so K need not be a multiple of 8: the copies
// are predicated ld.global.u16 + st.shared.b16 (no cp.async exists below 4 bytes); 4- and 8-byte
// widths use cp.async.ca.  Without `align`, `lasscc run` and the API choose the widest width the
// sizes allow by themselves.
// Run: lasscc run examples/gemm_odd_k.mlir --target cpu --m 33 --n 17 --k 333 --check --report banks
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {threadblock = [128, 128, 32], warp = [64, 64, 32], instruction = [16, 8, 16], stages = 3,
                       align = [1, 1]}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
