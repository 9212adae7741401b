// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s

// Storage order checks of lass_pipe copies (MN-major rings, dialects/lass_pipe.py).

func.func @kmajor_ring_of_row_b(%B: memref<?x?xf16>, %n0: i32, %k0: i32, %slot: i32, %pred: i1) {
  %rb = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x32xf16>
  lass_pipe.copy_async B %B[%n0, %k0], %rb[%slot], %pred : memref<?x?xf16>, !lass_pipe.ring<3x128x32xf16>
  func.return
}
// CHECK: expected an MN-major ring for a row-major B, got K-major

// -----

func.func @kmajor_staged_of_col_a(%A: memref<?x?xf16, strided<[1, ?]>>, %m0: i32, %k0: i32, %pred: i1) {
  %s = lass_pipe.load_regs A %A[%m0, %k0], %pred : memref<?x?xf16, strided<[1, ?]>> -> !lass_pipe.staged<128x32xf16>
  func.return
}
// CHECK: expected an MN-major staged tile for a column-major A, got K-major

// -----

func.func @staged_order_differs(%s: !lass_pipe.staged<128x32xf16, mn>, %slot: i32) {
  %rb = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x32xf16>
  lass_pipe.store_regs %s, %rb[%slot] : !lass_pipe.staged<128x32xf16, mn>, !lass_pipe.ring<3x128x32xf16>
  func.return
}
// CHECK: expected a staged tile stored like the ring (k-major), got mn-major
