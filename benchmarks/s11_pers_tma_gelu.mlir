func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf16>, %bias: memref<?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32, config = {mma = "wgmma", threadblock = [128, 256, 64], stages = 4, schedule = "cooperative", persistent = 1, epilogue = "tma"}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>) epilogue(%bias [n] : memref<?xf32>) {
  ^bb0(%v: f32, %bias_e: f32):
    %biased = arith.addf %v, %bias_e : f32
    %actrs2 = arith.constant 0.7071067811865475 : f32
    %acthalf = arith.constant 0.5 : f32
    %actone = arith.constant 1.0 : f32
    %act0 = arith.mulf %biased, %actrs2 : f32
    %act1 = math.erf %act0 : f32
    %act2 = arith.addf %act1, %actone : f32
    %act3 = arith.mulf %biased, %acthalf : f32
    %actout = arith.mulf %act3, %act2 : f32
    lass.yield %actout : f32
  }
  func.return
}
