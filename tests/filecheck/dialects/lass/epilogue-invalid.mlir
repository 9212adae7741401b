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

func.func @batched_n_3d(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>, %d: memref<?x?x?xf32>, %x: memref<?x?x?xf32>) {
  lass.gemm ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>) outs(%d : memref<?x?x?xf32>) epilogue(%x [n] : memref<?x?x?xf32>) {
  ^bb0(%v: f32, %e: f32):
    lass.yield %v : f32
  }
  func.return
}
// CHECK: Operation does not verify: epilogue: extra operand 0: expected a 1-d memref (shared by every batch) or a 2-d one (one per batch, batch first) for a [n] extra operand of a batched GEMM (N values, one per column of D (memref<?xT> [n])), got memref<?x?x?xf32>

// -----

func.func @batched_n_col(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>, %d: memref<?x?x?xf32>, %x: memref<?x?xf32, strided<[1, ?]>>) {
  lass.gemm ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>) outs(%d : memref<?x?x?xf32>) epilogue(%x [n] : memref<?x?xf32, strided<[1, ?]>>) {
  ^bb0(%v: f32, %e: f32):
    lass.yield %v : f32
  }
  func.return
}
// CHECK: Operation does not verify: epilogue: extra operand 0: expected a per-batch [n] vector row-major ([batch, length], packed), got memref<?x?xf32, strided<[1, ?]>>

// -----

func.func @batched_mn_layout(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>, %d: memref<?x?x?xf32>, %x: memref<?x?x?xf32, strided<[?, 1, ?]>>) {
  lass.gemm ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>) outs(%d : memref<?x?x?xf32>) epilogue(%x [mn] : memref<?x?x?xf32, strided<[?, 1, ?]>>) {
  ^bb0(%v: f32, %e: f32):
    lass.yield %v : f32
  }
  func.return
}
// CHECK: Operation does not verify: epilogue: extra operand 0: expected an [mn] matrix in D's layout (row-major), got memref<?x?x?xf32, strided<[?, 1, ?]>>

// -----

func.func @outside_value(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %d: memref<?x?xf32>, %s: f32) {
  %t = arith.addf %s, %s : f32
  lass.gemm ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%d : memref<?x?xf32>) epilogue() {
  ^bb0(%v: f32):
    %w = arith.addf %v, %t : f32
    lass.yield %w : f32
  }
  func.return
}
// CHECK: Operation does not verify: epilogue: 'arith.addf' at {{.*}} uses a value defined outside the region; expected only the block arguments, constants and values computed in it

// -----

func.func @gelu_rounded_to_another_type(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %d: memref<?x?xf16>) {
  lass.gemm ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%d : memref<?x?xf16>) epilogue() {
  ^bb0(%v: f32):
    %g = lass.gelu %v {rounded_to = bf16} : f32
    lass.yield %g : f32
  }
  func.return
}
// CHECK: Operation does not verify: epilogue: 'lass.gelu' at {{.*}}: expected rounded_to to be D's element type f16 (or absent), got bf16

// -----

func.func @gelu_rounded_to_f32(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %d: memref<?x?xf32>) {
  lass.gemm ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%d : memref<?x?xf32>) epilogue() {
  ^bb0(%v: f32):
    %g = lass.gelu %v {rounded_to = f32} : f32
    lass.yield %g : f32
  }
  func.return
}
// CHECK: Operation does not verify: Unexpected attribute f32
