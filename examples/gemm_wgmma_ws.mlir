// The warp-specialized Hopper kernel (sm_90a, schedule = "cooperative", CUTLASS's
// KernelTmaWarpSpecializedCooperative): D = A . B in f32, A row-major f16, B column-major f16 (TN).
// 384 threads: warpgroup 0 is the producer (setmaxnreg.dec to 40; its thread 0 issues the TMA loads
// of every k-tile into the 4-slot ring, waiting on each slot's empty barrier), warpgroups 1 and 2
// the consumers (setmaxnreg.inc to 232; wgmma.m64n256k16 on rows 0..63 and 64..127 of the 128 x 256
// tile, each waiting on the full barriers and releasing the slots on the empty ones).
// Run: lasscc compile --arch sm_90a examples/gemm_wgmma_ws.mlir -o gemm_wgmma_ws.ptx --dump-dir dumps/
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {mma = "wgmma", threadblock = [128, 256, 64], stages = 4, schedule = "cooperative"}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
