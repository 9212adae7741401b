// RUN: %lasscc opt %s | filecheck %s
// RUN: not %lasscc opt %S/Inputs/mma-past-the-slot.mlir.in 2>&1 | filecheck %s --check-prefix=ERR
// RUN: not %lasscc opt %S/Inputs/mma-not-a-core-matrix.mlir.in 2>&1 | filecheck %s --check-prefix=ERR4
//
// lass_wg.mma's `b_row` (an accumulator chain of a split BN, resources.wgmma_chains): the wgmma's N is
// twice its accumulator values (4 -> m64n8), reading B rows b_row .. b_row + 7 of the 16-row slot.
// Without b_row: rows 0.. (the attribute is not printed).  Rejected: rows past the slot, a b_row
// that is no multiple of 8 (the core matrix).

// CHECK-LABEL: func.func @chains
// CHECK:       lass_wg.mma %ra[%s] rows %r, %rb[%s] k 0 acc(%c0, %c1, %c2, %c3) : !lass_pipe.ring<2x64x32xf16>, !lass_pipe.ring<2x16x32xf16>, f32
// CHECK-NEXT:  lass_wg.mma %ra[%s] rows %r, %rb[%s] k 0 acc(%c4, %c5, %c6, %c7) {b_row = 8 : i64} : !lass_pipe.ring<2x64x32xf16>, !lass_pipe.ring<2x16x32xf16>, f32
func.func @chains(%s: i32, %r: i32, %c0: f32, %c1: f32, %c2: f32, %c3: f32, %c4: f32, %c5: f32, %c6: f32, %c7: f32) {
  %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x64x32xf16>
  %rb = lass_pipe.ring {offset = 8192 : i64} : !lass_pipe.ring<2x16x32xf16>
  %d0, %d1, %d2, %d3 = lass_wg.mma %ra[%s] rows %r, %rb[%s] k 0 acc(%c0, %c1, %c2, %c3) : !lass_pipe.ring<2x64x32xf16>, !lass_pipe.ring<2x16x32xf16>, f32
  %e0, %e1, %e2, %e3 = lass_wg.mma %ra[%s] rows %r, %rb[%s] k 0 acc(%c4, %c5, %c6, %c7) {b_row = 8 : i64} : !lass_pipe.ring<2x64x32xf16>, !lass_pipe.ring<2x16x32xf16>, f32
  func.return
}

// ERR: mma-past-the-slot.mlir.in:4:{{[0-9]+}}: error: {{.*}}expected B rows b_row .. b_row + N - 1 inside the 16-row B slot, b_row a multiple of 8 and as many results as accumulators; got b_row = 16, N = 8 (4 accumulator values per thread) and 4 results
// ERR4: mma-not-a-core-matrix.mlir.in:4:{{[0-9]+}}: error: {{.*}}got b_row = 4, N = 8
