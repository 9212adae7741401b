// RUN: xdsl-opt %s --verify-diagnostics --split-input-file | filecheck %s

// One case per verifier message of a lass.gemm epilogue region (dialects/epilogue.py).

func.func @matrix_as_n(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %d: memref<?x?xf32>, %x: memref<?x?xf32>) {
  lass.gemm ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%d : memref<?x?xf32>) epilogue(%x [n] : memref<?x?xf32>) {
  ^bb0(%v: f32, %e: f32):
    lass.yield %v : f32
  }
  func.return
}
// CHECK: Operation does not verify: epilogue: extra operand 0: expected a 1-d memref for a [n] extra operand (N values, one per column of D (memref<?xT> [n])), got memref<?x?xf32>

// -----

func.func @yield_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %d: memref<?x?xf32>) {
  lass.gemm ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%d : memref<?x?xf32>) epilogue() {
  ^bb0(%v: f32):
    %h = arith.truncf %v : f32 to f16
    lass.yield %h : f16
  }
  func.return
}
// CHECK: Operation does not verify: epilogue: 'lass.yield' at {{.*}}: expected one f32 value, got (f16)

// -----

func.func @batched(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>, %d: memref<?x?x?xf32>) {
  lass.gemm ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>) outs(%d : memref<?x?x?xf32>) epilogue() {
  ^bb0(%v: f32):
    lass.yield %v : f32
  }
  func.return
}
// CHECK: Operation does not verify: expected a 2-d GEMM for a fused epilogue (batched GEMMs take none yet)
