func.func @gemm(%a: memref<?x?xbf16>, %b: memref<?x?xbf16, strided<[1, ?]>>, %d: memref<?x?xbf16>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32, config = {mma = "wgmma", threadblock = [128, 256, 64], stages = 4, schedule = "cooperative", persistent = 1, epilogue = "tma", split_k_mode = "streamk-tail"}}
      ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16, strided<[1, ?]>>) outs(%d : memref<?x?xbf16>)
  func.return
}
