// The Hopper kernel with CUTLASS's sm90 TMA-store epilogue (sm_90a, epilogue = "tma"): D = A . B in
// f16, A row-major f16, B column-major f16 (TN), 128 x 256 x 64 tiles, 4 stages, the cooperative
// warp-specialized schedule on a persistent grid.  The epilogue writes each 128 x 64 subtile of the
// accumulators with stmatrix into one of two 16 KB staging buffers of its own (after the ring, which
// the producer refills for the next tile meanwhile), then thread 0 stores it to D with one TMA
// store (cp.async.bulk.tensor, clipped at D's bounds).  Change d's type to f32 for st.shared.v2
// staging of 128 x 32 subtiles.
// Run: lasscc compile --arch sm_90a examples/gemm_wgmma_tma_store.mlir -o gemm_tma_store.ptx
// Bench (H100): lasscc bench --arch sm_90a examples/gemm_wgmma_tma_store.mlir --sizes 4096,8192
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf16>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {mma = "wgmma", threadblock = [128, 256, 64], stages = 4, schedule = "cooperative",
                       persistent = 1, epilogue = "tma"}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>)
  func.return
}
