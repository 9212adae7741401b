// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round trip of every `lass_warp` op (the module docstring's example).

// CHECK-LABEL: func.func @fragments(
// CHECK-SAME:    %slot: i32, %row: i32, %n: i32, %k: i32)
// CHECK-NEXT:    %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x32xf16>
// CHECK-NEXT:    %rb = lass_pipe.ring {offset = 24576 : i64} : !lass_pipe.ring<3x128x32xf16>
// CHECK-NEXT:    %a0, %a1, %a2, %a3 = lass_warp.load_frag_a %ra[%slot], %row, %k : !lass_pipe.ring<3x128x32xf16>
// CHECK-NEXT:    %b0, %b1, %b2, %b3 = lass_warp.load_frag_b %rb[%slot], %n, %k : !lass_pipe.ring<3x128x32xf16>
// CHECK-NEXT:    func.return %a0, %a1, %a2, %a3, %b0, %b1, %b2, %b3 : i32, i32, i32, i32, i32, i32, i32, i32
func.func @fragments(%slot: i32, %row: i32, %n: i32, %k: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32) {
  %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x32xf16>
  %rb = lass_pipe.ring {offset = 24576 : i64} : !lass_pipe.ring<3x128x32xf16>
  %a0, %a1, %a2, %a3 = lass_warp.load_frag_a %ra[%slot], %row, %k : !lass_pipe.ring<3x128x32xf16>
  %b0, %b1, %b2, %b3 = lass_warp.load_frag_b %rb[%slot], %n, %k : !lass_pipe.ring<3x128x32xf16>
  func.return %a0, %a1, %a2, %a3, %b0, %b1, %b2, %b3 : i32, i32, i32, i32, i32, i32, i32, i32
}

// A ring passed in as an argument, 2 stages of 64x16.
// CHECK-LABEL: func.func @ring_argument(
// CHECK-SAME:    %r: !lass_pipe.ring<2x64x16xf16>
// CHECK-NEXT:    %0, %1, %2, %3 = lass_warp.load_frag_a %r[%i], %i, %i : !lass_pipe.ring<2x64x16xf16>
// CHECK-NEXT:    %4, %5, %6, %7 = lass_warp.load_frag_b %r[%i], %i, %i : !lass_pipe.ring<2x64x16xf16>
func.func @ring_argument(%r: !lass_pipe.ring<2x64x16xf16>, %i: i32) {
  %0:4 = lass_warp.load_frag_a %r[%i], %i, %i : !lass_pipe.ring<2x64x16xf16>
  %1:4 = lass_warp.load_frag_b %r[%i], %i, %i : !lass_pipe.ring<2x64x16xf16>
  func.return
}
