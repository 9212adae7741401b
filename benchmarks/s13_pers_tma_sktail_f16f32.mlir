func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32, config = {mma = "wgmma", threadblock = [128, 256, 64], stages = 4, schedule = "cooperative", persistent = 1, epilogue = "tma", split_k_mode = "streamk-tail"}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
