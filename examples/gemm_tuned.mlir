// No `config`: lasscc uses the winner `lasscc tune` stored for this problem, types and GPU
// (lasscc run / bench), the newest winner for these types (lasscc compile), else the defaults.
// Run: lasscc tune examples/gemm_tuned.mlir --m 4096 --n 4096 --k 4096
//      lasscc bench examples/gemm_tuned.mlir --sizes 4096 --plot tflops.png
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
