// A Hopper kernel in thread block clusters of 2 CTAs (sm_90a, cluster = [2, 1], lasscc.cluster):
// D = A . B in f32, A row-major f16, B column-major f16 (TN), 128 x 256 x 64 tiles, 4 stages.  The
// two CTAs of a cluster compute tiles (2i, j) and (2i + 1, j) and so read the same B tile every
// k-tile: each loads half of it (128 of its 256 rows) and multicasts it into both CTAs' ring slot
// (cp.async.bulk.tensor .multicast::cluster), saving 16 KB of the 48 KB each CTA loads per k-tile.
// A consumer releases its slot to both CTAs' producers (the empty barrier counts 512 arrivals);
// cluster barriers follow the barriers' init and precede the exit.  The launch rounds the grid up
// to whole clusters (cuLaunchKernelEx, cluster dims (2, 1, 1)).
// Run: lasscc explain --arch sm_90a examples/gemm_wgmma_cluster.mlir --stage threadblock
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {mma = "wgmma", threadblock = [128, 256, 64], stages = 4, cluster = [2, 1]}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
