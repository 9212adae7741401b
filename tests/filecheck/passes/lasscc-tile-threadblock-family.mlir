// The instruction family (lasscc/family.py), chosen right before lasscc-tile-threadblock: on sm_90a a
// lass.gemm without `mma` in its config gets wgmma with the default tiling (128 x 256 x 128-byte K
// rows, 4 stages); tf32 operands stored MN-major cannot be read by wgmma: mma.sync with a located
// note; sm_80 keeps mma.sync everywhere, silently.  And `lasscc explain` of the wgmma example.
//
// RUN: %lasscc opt -p lasscc-tile-threadblock --arch sm_90a %s -o %t.mlir 2>&1 | filecheck %s --check-prefix=NOTE
// RUN: filecheck %s < %t.mlir
// RUN: %lasscc opt -p lasscc-tile-threadblock --arch sm_80 %s 2>&1 | filecheck %s --check-prefix=SM80
// RUN: %lasscc explain --arch sm_90a --stage hopper-smem %S/../../../examples/gemm_wgmma.mlir | filecheck %s --check-prefix=EXPLAIN

// NOTE: lasscc: note: {{.*}}lasscc-tile-threadblock-family.mlir:22:3: sm_90a compiles this lass.gemm with mma.sync, not wgmma: tf32 operands must be K-major in shared memory (the A tile is MN-major here)
// NOTE-NOT: lasscc: note

// CHECK: func.func @hopper({{.*}}config = {threadblock = [128, 256, 64], warp = [64, 256, 64], instruction = [64, 256, 16], stages = 4, raster = 8, prefetch = 0, mma = "wgmma"}
func.func @hopper(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32} ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}

// CHECK: func.func @tf32_mn({{.*}}config = {threadblock = [128, 128, 16], warp = [64, 64, 16], instruction = [16, 8, 8], stages = 3, raster = 8, prefetch = 0}
func.func @tf32_mn(%a: memref<?x?xf32, strided<[1, ?]>>, %b: memref<?x?xf32, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32} ins(%a, %b : memref<?x?xf32, strided<[1, ?]>>, memref<?x?xf32, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}

// SM80-NOT: lasscc: note
// SM80: func.func @hopper({{.*}}config = {threadblock = [128, 128, 32], warp = [64, 64, 32], instruction = [16, 8, 16], stages = 3, raster = 8, prefetch = 0}>}
// SM80: func.func @tf32_mn(

// EXPLAIN:      lasscc explain {{.*}}gemm_wgmma.mlir  (sm_90a; A f16 row-major, B f16 column-major, D f32 row-major; mma wgmma, threadblock 128x128x64, 4 stages, raster 8)
// EXPLAIN:      Shared memory and TMA
// EXPLAIN:        mbarriers     2 x 4               64 B      at 131072: full[s] at 131072 + 8 s, empty[s] at 131104 + 8 s
// EXPLAIN:          A: box 64 K x 128 M (128 B lines), swizzle 128B; 1 box per tile at slot offsets 0
// EXPLAIN:        full[s]   1         32768 B
// EXPLAIN-NEXT:   empty[s]  8         -
// EXPLAIN:        A (warpgroup 0's 64 rows, K-major, k = 0): 0x4000004000010000, decoded:
// EXPLAIN:        stride byte offset   32-45  1024 B (field 64)
// EXPLAIN-NEXT:   base offset          49-51  0
// EXPLAIN-NEXT:   swizzle mode         62-63  1 (128B)
// EXPLAIN:        B (all 128 rows, K-major, k = 0): 0x4000004000011000, decoded:
// EXPLAIN-NEXT:   field                bits   value
// EXPLAIN-NEXT:   -------------------  -----  ----------------------
// EXPLAIN-NEXT:   start address        0-13   0x10000 (field 0x1000)
// EXPLAIN:        128B swizzle: line -> bank group (banks 4g..4g+3) of logical 16-byte chunk 0..7
// EXPLAIN-NEXT:     line 0: 0 1 2 3 4 5 6 7
// EXPLAIN-NEXT:     line 1: 1 0 3 2 5 4 7 6
// EXPLAIN:          line 7: 7 6 5 4 3 2 1 0
// EXPLAIN-NEXT:     a core matrix (8 lines x 16 B of one chunk column) touches 32 distinct banks of 32: conflict-free
