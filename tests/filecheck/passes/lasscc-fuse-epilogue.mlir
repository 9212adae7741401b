// lasscc-fuse-epilogue (passes/fuse_epilogue.py): elementwise linalg ops on a GEMM's D, as bufferized
// front ends write them, folded into the lass.gemm's epilogue region; what does not fold stays,
// with a note at its place.
//
// RUN: %lasscc opt -p lasscc-import-linalg,lasscc-fuse-epilogue %s 2>%t.notes | filecheck %s
// RUN: filecheck %s --check-prefix=NOTE < %t.notes
// Rejected: an op that stays is no kernel (lasscc-tile-threadblock names it after the note)
// RUN: not %lasscc compile %S/Inputs/lasscc-fuse-epilogue-f16-d.mlir.in -o %t.ptx 2>&1 | filecheck %s --check-prefix=ERR

// ---- bias (per column, map (d1)) + ReLU through a captured constant, then a residual (linalg.add) ----

// CHECK-LABEL: func.func @bias_relu_residual(
// CHECK-NEXT:    lass.gemm {alpha = 1.000000e+00 : f32, beta = 1.000000e+00 : f32} ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>) epilogue(%bias [n], %res [mn] : memref<?xf32>, memref<?x?xf32>) {
// CHECK-NEXT:    ^bb0(%0: f32, %bias_e: f32, %res_e: f32):
// CHECK-NEXT:      %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %1 = arith.addf %0, %bias_e : f32
// CHECK-NEXT:      %2 = arith.maximumf %1, %cst : f32
// CHECK-NEXT:      %3 = arith.addf %2, %res_e : f32
// CHECK-NEXT:      lass.yield %3 : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @bias_relu_residual(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>,
                              %bias: memref<?xf32>, %res: memref<?x?xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%d, %bias : memref<?x?xf32>, memref<?xf32>) outs(%d : memref<?x?xf32>) {
  ^bb0(%x: f32, %bj: f32, %out: f32):
    %0 = arith.addf %x, %bj : f32
    %1 = arith.maximumf %0, %cst : f32
    linalg.yield %1 : f32
  }
  linalg.add ins(%d, %res : memref<?x?xf32>, memref<?x?xf32>) outs(%d : memref<?x?xf32>)
  return
}

// ---- per-row scale (map (d0), read through the output's block argument) and GELU (erf form: folded,
// then recognized as a whole, lass.gelu) ----

// CHECK-LABEL: func.func @scale_gelu(
// CHECK:         epilogue(%scale [m] : memref<?xf32>) {
// CHECK-NEXT:    ^bb0(%0: f32, %scale_e: f32):
// CHECK-NEXT:      %1 = arith.mulf %0, %scale_e : f32
// CHECK-NEXT:      %2 = lass.gelu %1 : f32
// CHECK-NEXT:      lass.yield %2 : f32
// CHECK-NEXT:    }
// CHECK-NOT:     linalg.generic
func.func @scale_gelu(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>,
                      %scale: memref<?xf32>) {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rs2 = arith.constant 0.707106769 : f32
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%scale : memref<?xf32>) outs(%d : memref<?x?xf32>) {
  ^bb0(%s: f32, %x: f32):
    %0 = arith.mulf %x, %s : f32
    %1 = arith.mulf %0, %rs2 : f32
    %2 = math.erf %1 : f32
    %3 = arith.addf %2, %one : f32
    %4 = arith.mulf %0, %half : f32
    %5 = arith.mulf %4, %3 : f32
    linalg.yield %5 : f32
  }
  return
}

// ---- left alone: a sigmoid folds, then a transposed read of a matrix does not (a note), so the
// op after it stays too ----

// CHECK-LABEL: func.func @left_alone(
// CHECK:         epilogue() {
// CHECK:           math.exp
// CHECK:           lass.yield
// CHECK:         linalg.generic
// CHECK:         linalg.add
// NOTE: {{^.*}}lasscc-fuse-epilogue.mlir:93:3: note: lasscc-fuse-epilogue: left alone: expected an input map (d0, d1) -> (d0, d1), (d1), (d0) or (), got (d0, d1) -> (d1, d0){{$}}
func.func @left_alone(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>,
                      %t: memref<?x?xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%d : memref<?x?xf32>) {
  ^bb0(%x: f32):
    %0 = arith.negf %x : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.divf %one, %2 : f32
    linalg.yield %3 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<?x?xf32>) outs(%d : memref<?x?xf32>) {
  ^bb0(%y: f32, %x: f32):
    %0 = arith.addf %x, %y : f32
    linalg.yield %0 : f32
  }
  linalg.add ins(%d, %t : memref<?x?xf32>, memref<?x?xf32>) outs(%d : memref<?x?xf32>)
  return
}

// ---- GELU's erf form in a lass.gemm's own region (as lasscc.gemm(activation="gelu") writes one; no linalg): x / sqrt2
// by a division, the product grouped 0.5 * (x * (1 + erf)); recognized; yielded as it is to an f16 D: rounded_to = f16 ----

// CHECK-LABEL: func.func @region_gelu(
// CHECK:         ^bb0(%v: f32, %bias_e: f32):
// CHECK-NEXT:      %x = arith.addf %v, %bias_e : f32
// CHECK-NEXT:      %0 = lass.gelu %x {rounded_to = f16} : f32
// CHECK-NEXT:      lass.yield %0 : f32
// CHECK-NEXT:    }
func.func @region_gelu(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf16>,
                       %bias: memref<?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>)
      epilogue(%bias [n] : memref<?xf32>) {
  ^bb0(%v: f32, %bias_e: f32):
    %x = arith.addf %v, %bias_e : f32
    %s2 = arith.constant 1.41421354 : f32
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %0 = arith.divf %x, %s2 : f32
    %1 = math.erf %0 : f32
    %2 = arith.addf %one, %1 : f32
    %3 = arith.mulf %x, %2 : f32
    %4 = arith.mulf %half, %3 : f32
    lass.yield %4 : f32
  }
  func.return
}

// ---- left alone by the GELU match: another constant than 1/sqrt2 (0.7), and 1 + erf(x / sqrt2)
// times another value than x (the ops stay as written) ----

// CHECK-LABEL: func.func @not_gelu(
// CHECK-NOT:       lass.gelu
// CHECK:           math.erf
// CHECK:           math.erf
// CHECK:           lass.yield
func.func @not_gelu(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf16>,
                    %bias: memref<?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>)
      epilogue(%bias [n] : memref<?xf32>) {
  ^bb0(%v: f32, %bias_e: f32):
    %c = arith.constant 0.7 : f32
    %rs2 = arith.constant 0.707106769 : f32
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %0 = arith.mulf %v, %c : f32
    %1 = math.erf %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.mulf %v, %half : f32
    %4 = arith.mulf %3, %2 : f32
    %5 = arith.mulf %v, %rs2 : f32
    %6 = math.erf %5 : f32
    %7 = arith.addf %6, %one : f32
    %8 = arith.mulf %bias_e, %half : f32
    %9 = arith.mulf %8, %7 : f32
    %10 = arith.addf %4, %9 : f32
    lass.yield %10 : f32
  }
  func.return
}

// ---- a function without a GEMM: untouched ----

// CHECK-LABEL: func.func @no_gemm(
// CHECK-NEXT:    linalg.add
func.func @no_gemm(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  linalg.add ins(%x, %y : memref<?x?xf32>, memref<?x?xf32>) outs(%x : memref<?x?xf32>)
  return
}

// ERR: {{^.*}}Inputs/lasscc-fuse-epilogue-f16-d.mlir.in:4:3: note: lasscc-fuse-epilogue: left alone: D has f16 elements: the body computes in f16, a fused epilogue in f32 (the result would round differently){{$}}
// ERR-NEXT: {{^.*}}Inputs/lasscc-fuse-epilogue-f16-d.mlir.in:4:3: error: expected only lass.gemm and func.return in the function, got 'linalg.generic'{{$}}

// ---- batched (linalg.batch_matmul, 3-d D, d0 the batch): a bias shared by every batch (map (d2)),
// a per-batch row scale (map (d0, d1): a [batch, M] memref) and a per-batch residual ----

// CHECK-LABEL: func.func @batched(
// CHECK-NEXT:    lass.gemm {alpha = 1.000000e+00 : f32, beta = 1.000000e+00 : f32} ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16, strided<[?, 1, ?]>>) outs(%d : memref<?x?x?xf32>) epilogue(%scale [m], %bias [n], %res [mn] : memref<?x?xf32>, memref<?xf32>, memref<?x?x?xf32>) {
// CHECK-NEXT:    ^bb0(%0: f32, %scale_e: f32, %bias_e: f32, %res_e: f32):
// CHECK-NEXT:      %1 = arith.mulf %0, %scale_e : f32
// CHECK-NEXT:      %2 = arith.addf %1, %bias_e : f32
// CHECK-NEXT:      %3 = math.erf %2 : f32
// CHECK-NEXT:      %4 = arith.addf %3, %res_e : f32
// CHECK-NEXT:      lass.yield %4 : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @batched(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16, strided<[?, 1, ?]>>, %d: memref<?x?x?xf32>,
                   %scale: memref<?x?xf32>, %bias: memref<?xf32>, %res: memref<?x?x?xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16, strided<[?, 1, ?]>>) outs(%d : memref<?x?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scale, %bias : memref<?x?xf32>, memref<?xf32>) outs(%d : memref<?x?x?xf32>) {
  ^bb0(%s: f32, %bj: f32, %x: f32):
    %0 = arith.mulf %x, %s : f32
    %1 = arith.addf %0, %bj : f32
    %2 = math.erf %1 : f32
    linalg.yield %2 : f32
  }
  linalg.add ins(%d, %res : memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%d : memref<?x?x?xf32>)
  return
}

// ---- batched, left alone: a per-batch scalar (map (d0): one value per batch) is no epilogue
// operand kind; the bias before it folds ----

// CHECK-LABEL: func.func @batched_left_alone(
// CHECK:         epilogue(%bias [n] : memref<?xf32>) {
// CHECK:         linalg.generic
// NOTE: {{^.*}}lasscc-fuse-epilogue.mlir:226:3: note: lasscc-fuse-epilogue: left alone: expected an input map (d0, d1, d2) -> (d0, d1, d2), (d1, d2), (d2), (d0, d2), (d1), (d0, d1) or (), got (d0, d1, d2) -> (d0){{$}}
func.func @batched_left_alone(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16, strided<[?, 1, ?]>>,
                              %d: memref<?x?x?xf32>, %bias: memref<?xf32>, %s: memref<?xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16, strided<[?, 1, ?]>>) outs(%d : memref<?x?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias : memref<?xf32>) outs(%d : memref<?x?x?xf32>) {
  ^bb0(%bj: f32, %x: f32):
    %0 = arith.addf %x, %bj : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : memref<?xf32>) outs(%d : memref<?x?x?xf32>) {
  ^bb0(%sb: f32, %x: f32):
    %0 = arith.mulf %x, %sb : f32
    linalg.yield %0 : f32
  }
  return
}

// ---- GELU's erf form to a bf16 D but scaled before the yield: recognized, the f32 polynomial kept
// (no rounded_to: the product, not the GELU, is rounded to D) ----

// CHECK-LABEL: func.func @region_gelu_scaled(
// CHECK:         ^bb0(%v: f32, %s0: f32):
// CHECK-NEXT:      %0 = lass.gelu %v : f32
// CHECK-NEXT:      %1 = arith.mulf %0, %s0 : f32
// CHECK-NEXT:      lass.yield %1 : f32
// CHECK-NEXT:    }
func.func @region_gelu_scaled(%a: memref<?x?xbf16>, %b: memref<?x?xbf16, strided<[1, ?]>>, %d: memref<?x?xbf16>,
                              %s: f32) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32}
      ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16, strided<[1, ?]>>) outs(%d : memref<?x?xbf16>)
      epilogue(%s : f32) {
  ^bb0(%v: f32, %s0: f32):
    %rs2 = arith.constant 0.707106769 : f32
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %0 = arith.mulf %v, %rs2 : f32
    %1 = math.erf %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.mulf %v, %half : f32
    %4 = arith.mulf %3, %2 : f32
    %5 = arith.mulf %4, %s0 : f32
    lass.yield %5 : f32
  }
  func.return
}
