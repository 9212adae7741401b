// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round trip of `lass.gemm` with a fused epilogue region (dialects/epilogue.py): custom and generic form.

// CHECK-LABEL: func.func @bias_gelu_residual(
// CHECK:         lass.gemm {alpha = 1.000000e+00 : f32, beta = 0.000000e+00 : f32} ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>) epilogue(%bias [n], %scale [m], %res [mn], %s : memref<?xf32>, memref<?xbf16>, memref<?x?xf16>, f32) {
// CHECK-NEXT:    ^bb0(%v: f32, %bj: f32, %si: bf16, %r: f16, %s0: f32):
// CHECK-NEXT:      %0 = arith.addf %v, %bj : f32
// CHECK-NEXT:      %1 = math.erf %0 : f32
// CHECK-NEXT:      %2 = arith.extf %si : bf16 to f32
// CHECK-NEXT:      %3 = arith.mulf %1, %2 : f32
// CHECK-NEXT:      %4 = arith.extf %r : f16 to f32
// CHECK-NEXT:      %5 = arith.addf %3, %4 : f32
// CHECK-NEXT:      %6 = arith.mulf %5, %s0 : f32
// CHECK-NEXT:      lass.yield %6 : f32
// CHECK-NEXT:    }
func.func @bias_gelu_residual(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf16>,
                              %bias: memref<?xf32>, %scale: memref<?xbf16>, %res: memref<?x?xf16>, %s: f32) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>)
      epilogue(%bias [n], %scale [m], %res [mn], %s : memref<?xf32>, memref<?xbf16>, memref<?x?xf16>, f32) {
  ^bb0(%v: f32, %bj: f32, %si: bf16, %r: f16, %s0: f32):
    %0 = arith.addf %v, %bj : f32
    %1 = math.erf %0 : f32
    %2 = arith.extf %si : bf16 to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.extf %r : f16 to f32
    %5 = arith.addf %3, %4 : f32
    %6 = arith.mulf %5, %s0 : f32
    lass.yield %6 : f32
  }
  func.return
}

// An epilogue without extra operands (an i8 D needs one: the identity)
// CHECK-LABEL: func.func @quantize(
// CHECK:         outs(%d : memref<?x?xi8>) epilogue() {
// CHECK-NEXT:    ^bb0(%v: f32):
// CHECK-NEXT:      lass.yield %v : f32
func.func @quantize(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xi8>) {
  lass.gemm ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xi8>) epilogue() {
  ^bb0(%v: f32):
    lass.yield %v : f32
  }
  func.return
}


// lass.gelu (GELU as one op: lasscc-fuse-epilogue makes it of the erf form)
// CHECK-LABEL: func.func @gelu(
// CHECK:         ^bb0(%v: f32):
// CHECK-NEXT:      %0 = lass.gelu %v : f32
// CHECK-NEXT:      lass.yield %0 : f32
func.func @gelu(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf16>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>) epilogue() {
  ^bb0(%v: f32):
    %0 = lass.gelu %v : f32
    lass.yield %0 : f32
  }
  func.return
}

// lass.gelu rounded to D's f16 (its formula keeps f16's accuracy: epilogue_math.GELU_FITS)
// CHECK-LABEL: func.func @gelu_rounded(
// CHECK:           %0 = lass.gelu %v {rounded_to = f16} : f32
func.func @gelu_rounded(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf16>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>) epilogue() {
  ^bb0(%v: f32):
    %0 = lass.gelu %v {rounded_to = f16} : f32
    lass.yield %0 : f32
  }
  func.return
}
