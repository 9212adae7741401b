// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round trip of MN-major tiles (`, mn`; K-major is the default and is not printed).

// CHECK-LABEL: func.func @nn(
// CHECK-NEXT:    %ta = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<128x32xf16, mn>
// CHECK-NEXT:    %tb = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xbf16> -> !lass_tb.tile<64x32xbf16, mn>
// CHECK-NEXT:    %tk = lass_tb.load_tile B %B2[%n0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<128x32xf16>
// CHECK-NEXT:    %acc1 = lass_tb.mma %ta, %tk, %acc : !lass_tb.tile<128x32xf16, mn>, !lass_tb.tile<128x32xf16>, !lass_tb.acc<128x128xf32>
func.func @nn(%A: memref<?x?xf16, strided<[1, ?]>>, %B: memref<?x?xbf16>, %B2: memref<?x?xf16, strided<[1, ?]>>,
              %m0: i32, %n0: i32, %k0: i32, %acc: !lass_tb.acc<128x128xf32>) {
  %ta = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<128x32xf16, mn>
  %tb = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xbf16> -> !lass_tb.tile<64x32xbf16, mn>
  %tk = lass_tb.load_tile B %B2[%n0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<128x32xf16, k>
  %acc1 = lass_tb.mma %ta, %tk, %acc : !lass_tb.tile<128x32xf16, mn>, !lass_tb.tile<128x32xf16>, !lass_tb.acc<128x128xf32>
  func.return
}
