// Upstream linalg.matmul on memrefs (C += A.B), B column-major through its memref layout.
// Run: lasscc compile examples/linalg_matmul.mlir --stages 4 -o mm.ptx
//      lasscc run examples/linalg_matmul.mlir --target cpu --m 256 --n 128 --k 64 --check
func.func @matmul(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%c : memref<?x?xf32>)
  return
}
