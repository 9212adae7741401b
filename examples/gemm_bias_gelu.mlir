// D = gelu(A.B + bias[j]) with f16 in and f16 out: a fused epilogue (lasscc.dialects.epilogue).
// lasscc run examples/gemm_bias_gelu.mlir --target cpu --m 64 --n 64 --k 64 --check  (random extras)
func.func @gemm_bias_gelu(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf16>,
                          %bias: memref<?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {threadblock = [128, 128, 32], warp = [64, 64, 32], stages = 3}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>)
      epilogue(%bias [n] : memref<?xf32>) {
  ^bb0(%v: f32, %bj: f32):
    %x = arith.addf %v, %bj : f32
    %rs2 = arith.constant 0.707106769 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %0 = arith.mulf %x, %rs2 : f32
    %1 = math.erf %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.mulf %x, %half : f32
    %4 = arith.mulf %3, %2 : f32
    lass.yield %4 : f32
  }
  func.return
}
