// f32 inputs multiplied as tf32 (mma.sync m16n8k8; each fragment rounded by cvt.rna.tf32.f32, as
// CUTLASS rounds), f32 accumulation and output; BK = 16 f32 = 64-byte SMEM rows.  TN here;
// every layout works (tf32_nn.mlir).
// Run: lasscc compile examples/tf32.mlir -o tf32.ptx -v; lasscc run examples/tf32.mlir --target cpu --m 129 --n 65 --k 132 --check
func.func @gemm(%a: memref<?x?xf32>, %b: memref<?x?xf32, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {threadblock = [128, 128, 16], warp = [64, 64, 16], instruction = [16, 8, 8], stages = 3}}
      ins(%a, %b : memref<?x?xf32>, memref<?x?xf32, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
