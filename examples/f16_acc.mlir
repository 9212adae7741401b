// f16 inputs with f16 accumulation (`acc = f16`: mma.sync m16n8k16 .f16.f16.f16.f16, two f16 per
// accumulator register: half the accumulator registers of f32), f16 D.
// Run: lasscc compile examples/f16_acc.mlir -o f16_acc.ptx -v; lasscc run examples/f16_acc.mlir --target cpu --m 129 --n 65 --k 136 --check
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf16>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32, acc = f16,
             config = {threadblock = [128, 128, 32], warp = [64, 64, 32], instruction = [16, 8, 16], stages = 3}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>)
  func.return
}
