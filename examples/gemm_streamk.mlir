// Stream-K (lasscc.streamk): a persistent grid of SM count x CTAs-per-SM CTAs shares out every MAC
// iteration (k-tile) of every tile; "streamk-dp" runs the full waves data-parallel and only the
// tail stream-K.  A tile split between CTAs is fixed up in K order through a semaphore per tile.
// Run: lasscc explain examples/gemm_streamk.mlir --stage threadblock --grid 8x8 --k 4096 --sms 132
//      lasscc run examples/gemm_streamk.mlir --target cpu --m 300 --n 200 --k 640 --cta-order reverse --check
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {threadblock = [128, 128, 32], warp = [64, 64, 32], stages = 3, split_k_mode = "streamk-dp"}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
