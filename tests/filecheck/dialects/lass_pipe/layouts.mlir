// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round trip of MN-major rings and register-staged tiles (NN: A column-major, B row-major).

// CHECK-LABEL: func.func @nn(
// CHECK-NEXT:    %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x32xf16, mn>
// CHECK-NEXT:    %rb = lass_pipe.ring {offset = 24576 : i64} : !lass_pipe.ring<3x128x32xf16, mn>
// CHECK-NEXT:    lass_pipe.copy_async A %A[%m0, %k0], %ra[%slot], %pred : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<3x128x32xf16, mn>
// CHECK-NEXT:    %s = lass_pipe.load_regs B %B[%n0, %k0], %pred : memref<?x?xf16> -> !lass_pipe.staged<128x32xf16, mn>
// CHECK-NEXT:    lass_pipe.store_regs %s, %rb[%slot] : !lass_pipe.staged<128x32xf16, mn>, !lass_pipe.ring<3x128x32xf16, mn>
// CHECK-NEXT:    %acc1 = lass_pipe.mma %ra[%slot], %rb[%slot], %acc : !lass_pipe.ring<3x128x32xf16, mn>, !lass_pipe.ring<3x128x32xf16, mn>, !lass_tb.acc<128x128xf32>
func.func @nn(%A: memref<?x?xf16, strided<[1, ?]>>, %B: memref<?x?xf16>, %m0: i32, %n0: i32, %k0: i32,
              %slot: i32, %pred: i1, %acc: !lass_tb.acc<128x128xf32>) {
  %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x32xf16, mn>
  %rb = lass_pipe.ring {offset = 24576 : i64} : !lass_pipe.ring<3x128x32xf16, mn>
  lass_pipe.copy_async A %A[%m0, %k0], %ra[%slot], %pred : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<3x128x32xf16, mn>
  %s = lass_pipe.load_regs B %B[%n0, %k0], %pred : memref<?x?xf16> -> !lass_pipe.staged<128x32xf16, mn>
  lass_pipe.store_regs %s, %rb[%slot] : !lass_pipe.staged<128x32xf16, mn>, !lass_pipe.ring<3x128x32xf16, mn>
  %acc1 = lass_pipe.mma %ra[%slot], %rb[%slot], %acc : !lass_pipe.ring<3x128x32xf16, mn>, !lass_pipe.ring<3x128x32xf16, mn>, !lass_tb.acc<128x128xf32>
  func.return
}
