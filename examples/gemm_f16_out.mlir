// f16 D: accumulate in f32, scale by alpha, add beta * C (C read from D, in f16), round to f16 on store.
// beta = 0.5 makes the epilogue read C: run it with a D that holds C.
// Run: lasscc compile examples/gemm_f16_out.mlir -o f16out.ptx -v
//      lasscc run examples/gemm_f16_out.mlir --target cpu --m 128 --n 128 --k 64 --check
func.func @gemm_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf16>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.5 : f32,
             config = {threadblock = [128, 128, 32], warp = [64, 64, 32], instruction = [16, 8, 16], stages = 3}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>)
  func.return
}
