// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round trip of every `lass_pipe` op and type.

// stages >= 3: cp.async into ring slots (the module docstring's example).
// CHECK-LABEL: func.func @multistage(
// CHECK-SAME:    %A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %m0: i32, %n0: i32, %k0: i32, %slot: i32, %pred: i1, %acc: !lass_tb.acc<128x128xf32>)
// CHECK-NEXT:    %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x32xf16>
// CHECK-NEXT:    %rb = lass_pipe.ring {offset = 24576 : i64} : !lass_pipe.ring<3x128x32xf16>
// CHECK-NEXT:    lass_pipe.copy_async A %A[%m0, %k0], %ra[%slot], %pred : memref<?x?xf16>, !lass_pipe.ring<3x128x32xf16>
// CHECK-NEXT:    lass_pipe.copy_async B %B[%n0, %k0], %rb[%slot], %pred : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<3x128x32xf16>
// CHECK-NEXT:    lass_pipe.commit
// CHECK-NEXT:    lass_pipe.wait {pending = 1 : i64}
// CHECK-NEXT:    lass_pipe.barrier
// CHECK-NEXT:    %acc1 = lass_pipe.mma %ra[%slot], %rb[%slot], %acc : !lass_pipe.ring<3x128x32xf16>, !lass_pipe.ring<3x128x32xf16>, !lass_tb.acc<128x128xf32>
// CHECK-NEXT:    func.return
func.func @multistage(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %m0: i32, %n0: i32, %k0: i32,
                      %slot: i32, %pred: i1, %acc: !lass_tb.acc<128x128xf32>) {
  %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x32xf16>
  %rb = lass_pipe.ring {offset = 24576 : i64} : !lass_pipe.ring<3x128x32xf16>
  lass_pipe.copy_async A %A[%m0, %k0], %ra[%slot], %pred : memref<?x?xf16>, !lass_pipe.ring<3x128x32xf16>
  lass_pipe.copy_async B %B[%n0, %k0], %rb[%slot], %pred : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<3x128x32xf16>
  lass_pipe.commit
  lass_pipe.wait {pending = 1 : i64}
  lass_pipe.barrier
  %acc1 = lass_pipe.mma %ra[%slot], %rb[%slot], %acc : !lass_pipe.ring<3x128x32xf16>, !lass_pipe.ring<3x128x32xf16>, !lass_tb.acc<128x128xf32>
  func.return
}

// stages == 2: global -> registers -> shared, different slots for A and B, a non-square tile.
// CHECK-LABEL: func.func @two_stage(
// CHECK-NEXT:    %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x64x16xf16>
// CHECK-NEXT:    %rb = lass_pipe.ring {offset = 4096 : i64} : !lass_pipe.ring<2x32x16xf16, mn>
// CHECK-NEXT:    %sa = lass_pipe.load_regs A %A[%m0, %k0], %pred : memref<?x?xf16> -> !lass_pipe.staged<64x16xf16>
// CHECK-NEXT:    %sb = lass_pipe.load_regs B %B[%n0, %k0], %pred : memref<?x?xf16> -> !lass_pipe.staged<32x16xf16, mn>
// CHECK-NEXT:    lass_pipe.store_regs %sa, %ra[%s0] : !lass_pipe.staged<64x16xf16>, !lass_pipe.ring<2x64x16xf16>
// CHECK-NEXT:    lass_pipe.store_regs %sb, %rb[%s0] : !lass_pipe.staged<32x16xf16, mn>, !lass_pipe.ring<2x32x16xf16, mn>
// CHECK-NEXT:    lass_pipe.barrier
// CHECK-NEXT:    %acc1 = lass_pipe.mma %ra[%s0], %rb[%s1], %acc : !lass_pipe.ring<2x64x16xf16>, !lass_pipe.ring<2x32x16xf16, mn>, !lass_tb.acc<64x32xf32>
// CHECK-NEXT:    func.return
func.func @two_stage(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %m0: i32, %n0: i32, %k0: i32,
                     %s0: i32, %s1: i32, %pred: i1, %acc: !lass_tb.acc<64x32xf32>) {
  %ra = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x64x16xf16>
  %rb = lass_pipe.ring {offset = 4096 : i64} : !lass_pipe.ring<2x32x16xf16, mn>
  %sa = lass_pipe.load_regs A %A[%m0, %k0], %pred : memref<?x?xf16> -> !lass_pipe.staged<64x16xf16>
  %sb = lass_pipe.load_regs B %B[%n0, %k0], %pred : memref<?x?xf16> -> !lass_pipe.staged<32x16xf16, mn>
  lass_pipe.store_regs %sa, %ra[%s0] : !lass_pipe.staged<64x16xf16>, !lass_pipe.ring<2x64x16xf16>
  lass_pipe.store_regs %sb, %rb[%s0] : !lass_pipe.staged<32x16xf16, mn>, !lass_pipe.ring<2x32x16xf16, mn>
  lass_pipe.barrier
  %acc1 = lass_pipe.mma %ra[%s0], %rb[%s1], %acc : !lass_pipe.ring<2x64x16xf16>, !lass_pipe.ring<2x32x16xf16, mn>, !lass_tb.acc<64x32xf32>
  func.return
}
