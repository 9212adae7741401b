// int8 inputs, exact s32 accumulation (mma.sync m16n8k32 .satfinite, CUTLASS's default), s32 D
// (alpha = 1, beta = 0 store the accumulator exactly; otherwise the epilogue computes in f32 and
// rounds to nearest, saturating, like CUTLASS's LinearCombinationClamp); BK = 64 i8.  TN here
// (every layout works: int8_nt.mlir); K a multiple of 16.
// Run: lasscc compile examples/int8.mlir -o int8.ptx -v; lasscc run examples/int8.mlir --target cpu --m 129 --n 65 --k 144 --check
func.func @gemm(%a: memref<?x?xi8>, %b: memref<?x?xi8, strided<[1, ?]>>, %d: memref<?x?xi32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {threadblock = [128, 128, 64], warp = [64, 64, 64], instruction = [16, 8, 32], stages = 3}}
      ins(%a, %b : memref<?x?xi8>, memref<?x?xi8, strided<[1, ?]>>) outs(%d : memref<?x?xi32>)
  func.return
}
