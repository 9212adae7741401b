// RUN: xdsl-opt %s --verify-diagnostics --split-input-file | filecheck %s

// One case per verifier message of `lass.gemm` (dialects/lass.py), in file order.

func.func @a_not_2d(%a: memref<?xf16>, %b: memref<?x?xf16>, %d: memref<?x?xf32>) {
  lass.gemm ins(%a, %b : memref<?xf16>, memref<?x?xf16>) outs(%d : memref<?x?xf32>)
  func.return
}
// CHECK: Operation does not verify: expected 2-d memrefs (or 3-d, batch first, for all three) for A, B and D, got memref<?xf16> for A

// -----

func.func @mixed_rank(%a: memref<?x?x?xf16>, %b: memref<?x?xf16>, %d: memref<?x?xf32>) {
  lass.gemm ins(%a, %b : memref<?x?x?xf16>, memref<?x?xf16>) outs(%d : memref<?x?xf32>)
  func.return
}
// CHECK: Operation does not verify: expected 2-d memrefs (or 3-d, batch first, for all three) for A, B and D, got memref<?x?xf16> for B

// -----

func.func @batch_mismatch(%a: memref<2x?x?xf16>, %b: memref<3x?x?xf16>, %d: memref<2x?x?xf32>) {
  lass.gemm ins(%a, %b : memref<2x?x?xf16>, memref<3x?x?xf16>) outs(%d : memref<2x?x?xf32>)
  func.return
}
// CHECK: Operation does not verify: expected one batch size for A, B and D, got [2, 3]

// -----

func.func @b_not_2d(%a: memref<?x?xf16>, %b: memref<2x?x?xf16>, %d: memref<?x?xf32>) {
  lass.gemm ins(%a, %b : memref<?x?xf16>, memref<2x?x?xf16>) outs(%d : memref<?x?xf32>)
  func.return
}
// CHECK: Operation does not verify: expected 2-d memrefs (or 3-d, batch first, for all three) for A, B and D, got memref<2x?x?xf16> for B

// -----

func.func @d_not_2d(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %d: memref<?xf32>) {
  lass.gemm ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%d : memref<?xf32>)
  func.return
}
// CHECK: Operation does not verify: expected 2-d memrefs (or 3-d, batch first, for all three) for A, B and D, got memref<?xf32> for D

// -----

func.func @zero_size(%a: memref<0x32xf16>, %b: memref<?x?xf16>, %d: memref<?x?xf32>) {
  lass.gemm ins(%a, %b : memref<0x32xf16>, memref<?x?xf16>) outs(%d : memref<?x?xf32>)
  func.return
}
// CHECK: Operation does not verify: expected non-zero sizes for A (a GEMM of an empty matrix), got memref<0x32xf16>

// -----

func.func @shared_memory_operand(%a: memref<?x?xf16>, %b: memref<?x?xf16, 3>, %d: memref<?x?xf32>) {
  lass.gemm ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, 3>) outs(%d : memref<?x?xf32>)
  func.return
}
// CHECK: Operation does not verify: expected B in global memory (a memref without a memory space), got memref<?x?xf16, 3 : i64>

// -----

func.func @mixed_element_types(%a: memref<?x?xf16>, %b: memref<?x?xf32>, %d: memref<?x?xf32>) {
  lass.gemm ins(%a, %b : memref<?x?xf16>, memref<?x?xf32>) outs(%d : memref<?x?xf32>)
  func.return
}
// CHECK: Operation does not verify: expected A and B of one element type, got f16 and f32

// -----

func.func @k_mismatch(%a: memref<128x64xf16>, %b: memref<32x?xf16>, %d: memref<?x?xf32>) {
  lass.gemm ins(%a, %b : memref<128x64xf16>, memref<32x?xf16>) outs(%d : memref<?x?xf32>)
  func.return
}
// CHECK: Operation does not verify: expected K of A and K of B to agree, got 64 and 32

// -----

func.func @m_mismatch(%a: memref<128x?xf16>, %b: memref<?x?xf16>, %d: memref<64x?xf32>) {
  lass.gemm ins(%a, %b : memref<128x?xf16>, memref<?x?xf16>) outs(%d : memref<64x?xf32>)
  func.return
}
// CHECK: Operation does not verify: expected M of A and M of D to agree, got 128 and 64

// -----

func.func @n_mismatch(%a: memref<?x?xf16>, %b: memref<?x256xf16, strided<[1, ?]>>, %d: memref<?x128xf32>) {
  lass.gemm ins(%a, %b : memref<?x?xf16>, memref<?x256xf16, strided<[1, ?]>>) outs(%d : memref<?x128xf32>)
  func.return
}
// CHECK: Operation does not verify: expected N of B and N of D to agree, got 256 and 128

// -----

// Not a verifier of ours: the operand constraint (memref) from operand_def.
func.func @not_a_memref(%a: tensor<?x?xf16>, %b: memref<?x?xf16>, %d: memref<?x?xf32>) {
  "lass.gemm"(%a, %b, %d) : (tensor<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>) -> ()
  func.return
}
// CHECK: Operation does not verify: operand 'a' at position 0 does not verify:

// -----

func.func @acc_f16_for_bf16(%a: memref<?x?xbf16>, %b: memref<?x?xbf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {acc = f16} ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
// CHECK: Operation does not verify: expected acc f32 for bf16 A and B, got f16

// -----

func.func @acc_f32_for_i8(%a: memref<?x?xi8>, %b: memref<?x?xi8, strided<[1, ?]>>, %d: memref<?x?xi32>) {
  lass.gemm {acc = f32} ins(%a, %b : memref<?x?xi8>, memref<?x?xi8, strided<[1, ?]>>) outs(%d : memref<?x?xi32>)
  func.return
}
// CHECK: Operation does not verify: expected acc i32 for i8 A and B, got f32
