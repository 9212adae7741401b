// The ping-pong Hopper kernel (sm_90a, schedule = "pingpong", CUTLASS's
// KernelTmaWarpSpecializedPingpong): D = A . B in f32, A row-major f16, B column-major f16 (TN).
// 384 threads: warpgroup 0 is the producer (setmaxnreg.dec to 40; its thread 0 issues the TMA loads
// of every k-tile of the CTA's tiles, in order, into the 4-slot ring), warpgroups 1 and 2 two
// consumers (setmaxnreg.inc to 232), each computing whole 64 x 256 tiles of its own (the CTA's
// tiles 0, 2, ... and 1, 3, ...) with wgmma.m64n256k16; an ordering barrier of four mbarriers makes
// their mainloops and epilogues take turns, so one's epilogue overlaps the other's math.
// persistent = 1: one CTA per SM (without it, one CTA per two tiles).
// Run: lasscc compile --arch sm_90a examples/gemm_wgmma_pingpong.mlir -o pingpong.ptx -v
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {mma = "wgmma", threadblock = [64, 256, 64], stages = 4, schedule = "pingpong", persistent = 1}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
