// The Hopper data flow on a batch of GEMMs with a column-major D (sm_90a): D[b] = A[b] . B[b], A[b] M x K
// column-major bf16, B[b] K x N row-major bf16 (NT: both tiles MN-major, read through the wgmma
// descriptors' transpose bits), D[b] column-major f32, beta = 0.5 (D holds C).  The kernel computes
// D^T = B^T . A^T (its A is the caller's B); its tensor maps are 3-d (batch outermost, each box one
// matrix deep), so the zero fill past M, N and K stays inside each batch.
// Run: lasscc run examples/gemm_wgmma_batched.mlir --arch sm_90a --target cpu --m 72 --n 80 --k 40 --batch 3 --check
func.func @gemm(%a: memref<?x?x?xbf16, strided<[?, 1, ?]>>, %b: memref<?x?x?xbf16>,
                %d: memref<?x?x?xf32, strided<[?, 1, ?]>>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.5 : f32,
             config = {mma = "wgmma", threadblock = [128, 128, 64], stages = 3}}
      ins(%a, %b : memref<?x?x?xbf16, strided<[?, 1, ?]>>, memref<?x?x?xbf16>)
      outs(%d : memref<?x?x?xf32, strided<[?, 1, ?]>>)
  func.return
}
