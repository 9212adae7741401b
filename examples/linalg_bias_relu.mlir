// linalg.matmul then a bias add and ReLU as a bufferized front end writes them: lasscc-fuse-epilogue
// folds the linalg.generic into the GEMM's epilogue (`lasscc opt -p lasscc-import-linalg,lasscc-fuse-epilogue`).
func.func @mlp(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>, %bias: memref<?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<?xf32>) outs(%d : memref<?x?xf32>) {
  ^bb0(%bj: f32, %x: f32):
    %0 = arith.addf %x, %bj : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  return
}
