// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round trip of every `lass` op (custom and generic form).

// CHECK-LABEL: func.func @gemm_row_col(
// CHECK-SAME:    %a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>)
// CHECK-NEXT:    lass.gemm {alpha = 1.000000e+00 : f32, beta = 0.000000e+00 : f32, config = {stages = 3 : i64}} ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
// CHECK-NEXT:    func.return
func.func @gemm_row_col(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32, config = {stages = 3 : i64}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}

// No attributes at all: alpha, beta and config are optional.
// CHECK-LABEL: func.func @gemm_defaults(
// CHECK-NEXT:    lass.gemm ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%d : memref<?x?xf32>)
func.func @gemm_defaults(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %d: memref<?x?xf32>) {
  lass.gemm ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%d : memref<?x?xf32>)
  func.return
}

// Static shapes that agree, a full config dictionary, row-major strided layouts.
// CHECK-LABEL: func.func @gemm_static(
// CHECK-NEXT:    lass.gemm {alpha = 2.500000e-01 : f32, beta = 1.000000e+00 : f32, config = {threadblock = [128 : i64, 128 : i64, 32 : i64], warp = [64 : i64, 64 : i64, 32 : i64], instruction = [16 : i64, 8 : i64, 16 : i64], stages = 4 : i64, raster = 8 : i64}} ins(%a, %b : memref<256x64xf16>, memref<64x128xf16, strided<[128, 1]>>) outs(%d : memref<256x128xf32, strided<[?, 1]>>)
func.func @gemm_static(%a: memref<256x64xf16>, %b: memref<64x128xf16, strided<[128, 1]>>, %d: memref<256x128xf32, strided<[?, 1]>>) {
  lass.gemm {alpha = 0.25 : f32, beta = 1.0 : f32,
             config = {threadblock = [128, 128, 32], warp = [64, 64, 32], instruction = [16, 8, 16], stages = 4, raster = 8}}
      ins(%a, %b : memref<256x64xf16>, memref<64x128xf16, strided<[128, 1]>>) outs(%d : memref<256x128xf32, strided<[?, 1]>>)
  func.return
}

// The accumulator type (`acc`), printed when written; tf32 (f32) and int8 operands.
// CHECK-LABEL: func.func @gemm_f16_acc(
// CHECK-NEXT:    lass.gemm {acc = f16} ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>)
func.func @gemm_f16_acc(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf16>) {
  lass.gemm {acc = f16} ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>)
  func.return
}

// CHECK-LABEL: func.func @gemm_int8(
// CHECK-NEXT:    lass.gemm {acc = i32} ins(%a, %b : memref<?x?xi8>, memref<?x?xi8, strided<[1, ?]>>) outs(%d : memref<?x?xi32>)
func.func @gemm_int8(%a: memref<?x?xi8>, %b: memref<?x?xi8, strided<[1, ?]>>, %d: memref<?x?xi32>) {
  lass.gemm {acc = i32} ins(%a, %b : memref<?x?xi8>, memref<?x?xi8, strided<[1, ?]>>) outs(%d : memref<?x?xi32>)
  func.return
}
