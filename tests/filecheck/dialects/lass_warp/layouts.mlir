// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Fragment loads from MN-major rings: the ring type says how the slot is stored; the registers
// are the same mma fragments as from a K-major ring.

// CHECK-LABEL: func.func @frags(
// CHECK-NEXT:    %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x32xf16, mn>
// CHECK-NEXT:    %a0, %a1, %a2, %a3 = lass_warp.load_frag_a %ra[%slot], %row, %k : !lass_pipe.ring<3x128x32xf16, mn>
// CHECK-NEXT:    %b0, %b1, %b2, %b3 = lass_warp.load_frag_b %ra[%slot], %row, %k : !lass_pipe.ring<3x128x32xf16, mn>
func.func @frags(%slot: i32, %row: i32, %k: i32) {
  %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x32xf16, mn>
  %a0, %a1, %a2, %a3 = lass_warp.load_frag_a %ra[%slot], %row, %k : !lass_pipe.ring<3x128x32xf16, mn>
  %b0, %b1, %b2, %b3 = lass_warp.load_frag_b %ra[%slot], %row, %k : !lass_pipe.ring<3x128x32xf16, mn>
  func.return
}

// `interleaved` (MN-major tf32 / s8 rings): fragment row g + 8h holds tile row 2g + h.
// CHECK-LABEL: func.func @interleaved(
// CHECK-NEXT:    %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x16xf32, mn>
// CHECK-NEXT:    %a0, %a1, %a2, %a3 = lass_warp.load_frag_a %ra[%slot], %row, %k interleaved : !lass_pipe.ring<3x128x16xf32, mn>
// CHECK-NEXT:    %b0, %b1, %b2, %b3 = lass_warp.load_frag_b %ra[%slot], %row, %k interleaved : !lass_pipe.ring<3x128x16xf32, mn>
func.func @interleaved(%slot: i32, %row: i32, %k: i32) {
  %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x16xf32, mn>
  %a0, %a1, %a2, %a3 = lass_warp.load_frag_a %ra[%slot], %row, %k interleaved : !lass_pipe.ring<3x128x16xf32, mn>
  %b0, %b1, %b2, %b3 = lass_warp.load_frag_b %ra[%slot], %row, %k interleaved : !lass_pipe.ring<3x128x16xf32, mn>
  func.return
}
