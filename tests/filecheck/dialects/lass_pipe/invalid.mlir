// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s

// One case per verifier message of dialects/lass_pipe.py, in file order.

// ---- !lass_pipe.ring / !lass_pipe.staged (ShapedTileBase) ----

func.func @zero_stages(%r: !lass_pipe.ring<0x128x32xf16>) {
  func.return
}
// CHECK: expected positive dimensions in lass_pipe.ring, got (0, 128, 32)

// -----

func.func @dynamic_staged(%s: !lass_pipe.staged<128x?xf16>) {
  func.return
}
// CHECK: expected a static shape for lass_pipe.staged, got a dynamic dimension

// -----

// ---- lass_pipe.ring ----

func.func @ring_rank() {
  %r = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<128x32xf16>
  func.return
}
// CHECK: expected a rank-3 shape for lass_pipe.ring, got (128, 32)

// -----

func.func @ring_unaligned_offset() {
  %r = lass_pipe.ring {offset = 64 : i64} : !lass_pipe.ring<3x128x32xf16>
  func.return
}
// CHECK: Operation does not verify: expected a 128-byte aligned offset, got 64

// -----

func.func @ring_missing_offset() {
  %r = lass_pipe.ring : !lass_pipe.ring<3x128x32xf16>
  func.return
}
// CHECK: Operation does not verify: attribute 'offset' expected in operation 'lass_pipe.ring'

// -----

// ---- lass_pipe.copy_async ----

func.func @copy_bad_operand(%A: memref<?x?xf16>, %i: i32, %p: i1) {
  %r = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x32xf16>
  lass_pipe.copy_async D %A[%i, %i], %r[%i], %p : memref<?x?xf16>, !lass_pipe.ring<3x128x32xf16>
  func.return
}
// CHECK: Expected `A`, or `B`.

// -----

func.func @copy_element_type(%A: memref<?x?xf16>, %i: i32, %p: i1) {
  %r = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x32xf32>
  lass_pipe.copy_async A %A[%i, %i], %r[%i], %p : memref<?x?xf16>, !lass_pipe.ring<3x128x32xf32>
  func.return
}
// CHECK: Operation does not verify: expected element type f16, got f32

// -----

func.func @copy_pred_not_i1(%A: memref<?x?xf16>, %i: i32) {
  %r = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x32xf16>
  "lass_pipe.copy_async"(%A, %i, %i, %r, %i, %i) <{operand = #lass<operand A>}> : (memref<?x?xf16>, i32, i32, !lass_pipe.ring<3x128x32xf16>, i32, i32) -> ()
  func.return
}
// CHECK: Operation does not verify: operand 'pred' at position 5 does not verify:

// -----

// ---- lass_pipe.store_regs ----

func.func @store_regs_shape(%s: !lass_pipe.staged<64x32xf16>, %i: i32) {
  %r = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x128x32xf16>
  lass_pipe.store_regs %s, %r[%i] : !lass_pipe.staged<64x32xf16>, !lass_pipe.ring<2x128x32xf16>
  func.return
}
// CHECK: Operation does not verify: expected a (128, 32) tile, got (64, 32)

// -----

// ---- lass_pipe.wait ----

func.func @wait_missing_pending() {
  lass_pipe.wait
  func.return
}
// CHECK: Operation does not verify: attribute 'pending' expected in operation 'lass_pipe.wait'

// -----

// ---- lass_pipe.mma ----

func.func @mma_k_mismatch(%i: i32, %acc: !lass_tb.acc<128x128xf32>) {
  %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x32xf16>
  %rb = lass_pipe.ring {offset = 24576 : i64} : !lass_pipe.ring<3x128x64xf16>
  %x = lass_pipe.mma %ra[%i], %rb[%i], %acc : !lass_pipe.ring<3x128x32xf16>, !lass_pipe.ring<3x128x64xf16>, !lass_tb.acc<128x128xf32>
  func.return
}
// CHECK: Operation does not verify: expected rings of MxK, NxK and acc MxN to agree, got 128x32, 128x64, 128x128

// -----

func.func @mma_m_mismatch(%i: i32, %acc: !lass_tb.acc<128x128xf32>) {
  %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x64x32xf16>
  %rb = lass_pipe.ring {offset = 12288 : i64} : !lass_pipe.ring<3x128x32xf16>
  %x = lass_pipe.mma %ra[%i], %rb[%i], %acc : !lass_pipe.ring<3x64x32xf16>, !lass_pipe.ring<3x128x32xf16>, !lass_tb.acc<128x128xf32>
  func.return
}
// CHECK: Operation does not verify: expected rings of MxK, NxK and acc MxN to agree, got 64x32, 128x32, 128x128

// -----

func.func @mma_n_mismatch(%i: i32, %acc: !lass_tb.acc<128x64xf32>) {
  %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x32xf16>
  %rb = lass_pipe.ring {offset = 24576 : i64} : !lass_pipe.ring<3x128x32xf16>
  %x = lass_pipe.mma %ra[%i], %rb[%i], %acc : !lass_pipe.ring<3x128x32xf16>, !lass_pipe.ring<3x128x32xf16>, !lass_tb.acc<128x64xf32>
  func.return
}
// CHECK: Operation does not verify: expected rings of MxK, NxK and acc MxN to agree, got 128x32, 128x32, 128x64

// -----

func.func @mma_acc_not_acc(%i: i32, %acc: !lass_pipe.staged<128x128xf32>) {
  %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x32xf16>
  %x = "lass_pipe.mma"(%ra, %i, %ra, %i, %acc) : (!lass_pipe.ring<3x128x32xf16>, i32, !lass_pipe.ring<3x128x32xf16>, i32, !lass_pipe.staged<128x128xf32>) -> !lass_pipe.staged<128x128xf32>
  func.return
}
// CHECK: Operation does not verify: operand 'acc' at position 4 does not verify:
