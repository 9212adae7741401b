// A batched GEMM with a fused epilogue and parallel split-K: D[b] = relu(A[b].B[b] * scale[i] + bias[b, j]),
// the bias one row per batch ([batch, N]: a 2-d [n] operand), the scale shared by every batch ([M]).
// The GEMM kernel writes raw partial sums; the reduction kernel sums them and applies the epilogue once.
// lasscc run examples/gemm_epilogue_batched_splitk.mlir --target cpu --m 65 --n 72 --k 80 --batch 3 --check
func.func @gemm_epilogue_batched_splitk(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16, strided<[?, 1, ?]>>,
                                         %d: memref<?x?x?xf16>, %bias: memref<?x?xf32>, %scale: memref<?xf16>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {threadblock = [64, 64, 32], warp = [32, 32, 32], stages = 3, split_k = 2,
                       split_k_mode = "parallel"}}
      ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16, strided<[?, 1, ?]>>) outs(%d : memref<?x?x?xf16>)
      epilogue(%bias [n], %scale [m] : memref<?x?xf32>, memref<?xf16>) {
  ^bb0(%v: f32, %bj: f32, %si: f16):
    %s = arith.extf %si : f16 to f32
    %0 = arith.mulf %v, %s : f32
    %1 = arith.addf %0, %bj : f32
    %zero = arith.constant 0.0 : f32
    %2 = arith.maximumf %1, %zero : f32
    lass.yield %2 : f32
  }
  func.return
}
