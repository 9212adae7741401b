// Swap AB for a skinny M on the Hopper path (issue 17): a decode step's 16 x 4096 x 4096 (f16 TN, D f32
// row-major) as D^T = B^T . A^T (config swap_ab = 1).  wgmma's M is 64 rows per instruction, so the
// plain kernel leaves 3/4 of every MMA idle at M = 16; swapped, the caller's 16 rows are the kernel's
// N (wgmma.m64n16k16) and its 4096 columns the kernel's M: 64 tiles of 64 x 16 of D^T, each reading
// its 64 rows of B once.  The epilogue stores D^T column-major, i.e. straight into the row-major D.
// The shape-aware default picks this config for 16 x 4096 x 4096 (lasscc.heuristics.choose_swap_ab).
// Run: lasscc run --arch sm_90a --target cpu --check --m 16 --n 200 --k 136 examples/gemm_skinny_swap.mlir
//      lasscc explain --arch sm_90a examples/gemm_skinny_swap.mlir
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {mma = "wgmma", threadblock = [64, 16, 64], stages = 4, swap_ab = 1}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
