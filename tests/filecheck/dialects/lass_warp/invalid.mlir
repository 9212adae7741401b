// RUN: xdsl-opt %s --verify-diagnostics --split-input-file | filecheck %s

// dialects/lass_warp.py has no verify_ of its own: these are the operand/result constraints of
// its ops (operand_def / result_def), which are all that guards them.

func.func @frag_a_not_a_ring(%t: !lass_tb.tile<128x32xf16>, %i: i32) {
  %a:4 = "lass_warp.load_frag_a"(%t, %i, %i, %i) : (!lass_tb.tile<128x32xf16>, i32, i32, i32) -> (i32, i32, i32, i32)
  func.return
}
// CHECK: Operation does not verify: operand 'ring' at position 0 does not verify:
// CHECK: !lass_tb.tile<128x32xf16> should be of base attribute lass_pipe.ring

// -----

func.func @frag_b_slot_type(%r: !lass_pipe.ring<3x128x32xf16>, %s: i64, %i: i32) {
  %b:4 = "lass_warp.load_frag_b"(%r, %s, %i, %i) : (!lass_pipe.ring<3x128x32xf16>, i64, i32, i32) -> (i32, i32, i32, i32)
  func.return
}
// CHECK: Operation does not verify: operand 'slot' at position 1 does not verify:
// CHECK: Expected attribute i32 but got i64

// -----

func.func @frag_a_result_type(%r: !lass_pipe.ring<3x128x32xf16>, %i: i32) {
  %a:4 = "lass_warp.load_frag_a"(%r, %i, %i, %i) : (!lass_pipe.ring<3x128x32xf16>, i32, i32, i32) -> (i32, i32, i32, f32)
  func.return
}
// CHECK: Operation does not verify: result 'r3' at position 3 does not verify:
// CHECK: Expected attribute i32 but got f32

// -----

func.func @frag_b_three_results(%r: !lass_pipe.ring<3x128x32xf16>, %i: i32) {
  %b:3 = "lass_warp.load_frag_b"(%r, %i, %i, %i) : (!lass_pipe.ring<3x128x32xf16>, i32, i32, i32) -> (i32, i32, i32)
  func.return
}
// CHECK: Operation does not verify: Expected 4 results, but got 3
