// The ping-pong Hopper kernel on 128-row consumer tiles (sm_90a, CUTLASS's 128x128x64
// KernelTmaWarpSpecializedPingpong): D = A . B in f16 (f32 accumulation), A row-major f16, B
// column-major f16 (TN).  threadblock is each consumer's own tile, as for every pingpong config: here
// 128 x 128, so a consumer warpgroup issues two wgmma.m64n128k16 per K step (rows 0..63 and
// 64..127), its 128 x 128 f32 accumulators 128 registers per thread (of the 232 after setmaxnreg;
// 128 x 256 would need 256 and is rejected).  The producer warpgroup loads the CTA's tiles into the
// 5-slot ring; the ordering barrier runs the consumers' mainloops and epilogues in turns, and the
// epilogue = "tma" stores (stmatrix -> staging buffers -> TMA store) run in the epilogue's turn, the
// two consumers sharing the staging buffers.  persistent = 1: one CTA per SM.
// Run: lasscc run examples/gemm_wgmma_pingpong128.mlir --arch sm_90a --target cpu --m 300 --n 264 --k 136 --check
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf16>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {mma = "wgmma", threadblock = [128, 128, 64], stages = 5, schedule = "pingpong", persistent = 1,
                       epilogue = "tma"}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>)
  func.return
}
