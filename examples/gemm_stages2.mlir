// Two stages: CUTLASS MmaPipelined.  The next k-tile goes GMEM -> registers (ld.global.v4) while the
// warps multiply the current SMEM slot, then registers -> SMEM (st.shared.v4); one barrier per k-tile.
// 2 x (128 + 128) x 32 x 2 B = 32 KB of shared memory (no opt-in above 48 KB needed).
// Run: lasscc compile examples/gemm_stages2.mlir -o stages2.ptx -v
//      lasscc run examples/gemm_stages2.mlir --target cpu --m 256 --n 256 --k 64 --check
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {threadblock = [128, 128, 32], warp = [64, 64, 32], instruction = [16, 8, 16], stages = 2}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
