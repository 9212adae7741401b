// The Hopper data flow (sm_90a): D = A . B in f32, A M x K row-major f16, B K x N column-major f16 (TN).
// Two consumer warpgroups each compute 64 x 128 with wgmma.m64n128k16 from shared memory; thread 0
// loads each stage of the 4-slot ring with TMA, full / empty mbarriers order the slots.
// Run: lasscc compile --arch sm_90a examples/gemm_wgmma.mlir -o gemm_wgmma.ptx --dump-dir dumps/
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {mma = "wgmma", threadblock = [128, 128, 64], stages = 4}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
