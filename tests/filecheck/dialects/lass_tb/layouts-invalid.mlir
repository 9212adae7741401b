// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s

// The storage order of operand tiles (MajorTileBase, lass_tb.load_tile).

func.func @bad_major(%t: !lass_tb.tile<128x32xf16, kn>) {
  func.return
}
// CHECK: expected the storage order of lass_tb.tile to be k or mn, got kn

// -----

func.func @kmajor_tile_of_col_a(%A: memref<?x?xf16, strided<[1, ?]>>, %m0: i32, %k0: i32) {
  %t = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<128x32xf16>
  func.return
}
// CHECK: expected an MN-major tile for a column-major A, got K-major

// -----

func.func @mnmajor_tile_of_col_b(%B: memref<?x?xf16, strided<[1, ?]>>, %n0: i32, %k0: i32) {
  %t = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<128x32xf16, mn>
  func.return
}
// CHECK: expected a K-major tile for a column-major B, got MN-major
