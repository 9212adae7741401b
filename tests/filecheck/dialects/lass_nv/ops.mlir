// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round trip of every `lass_nv` op.

// CHECK-LABEL: func.func @ids()
// CHECK-NEXT:    %tid = lass_nv.thread_id
// CHECK-NEXT:    %bid = lass_nv.block_id x
// CHECK-NEXT:    func.return %tid, %bid : i32, i32
func.func @ids() -> (i32, i32) {
  %tid = lass_nv.thread_id
  %bid = lass_nv.block_id x
  func.return %tid, %bid : i32, i32
}

// The batch of a batched GEMM: %ctaid.z.
// CHECK-LABEL: func.func @batch_id()
// CHECK-NEXT:    %z = lass_nv.block_id z
// CHECK-NEXT:    func.return %z : i32
func.func @batch_id() -> i32 {
  %z = lass_nv.block_id z
  func.return %z : i32
}

// A stream-K kernel's persistent grid: %nctaid.x.
// CHECK-LABEL: func.func @grid_dim()
// CHECK-NEXT:    %ctas = lass_nv.grid_dim
// CHECK-NEXT:    func.return %ctas : i32
func.func @grid_dim() -> i32 {
  %ctas = lass_nv.grid_dim
  func.return %ctas : i32
}

// CHECK-LABEL: func.func @async_copy(
// CHECK-SAME:    %A: memref<?x?xf16>, %off: i32, %dst: i32, %pred: i1)
// CHECK-NEXT:    lass_nv.cp_async %A[%off], %dst, %pred {bytes = 16 : i64} : memref<?x?xf16>
// CHECK-NEXT:    lass_nv.cp_async_commit
// CHECK-NEXT:    lass_nv.cp_async_wait {pending = 2 : i64}
// CHECK-NEXT:    lass_nv.bar_sync
// CHECK-NEXT:    func.return
func.func @async_copy(%A: memref<?x?xf16>, %off: i32, %dst: i32, %pred: i1) {
  lass_nv.cp_async %A[%off], %dst, %pred {bytes = 16 : i64} : memref<?x?xf16>
  lass_nv.cp_async_commit
  lass_nv.cp_async_wait {pending = 2 : i64}
  lass_nv.bar_sync
  func.return
}

// Narrow tile-copy accesses (lasscc-swizzle-smem with `align`): cp.async.ca of 8 and 4 bytes, and
// the synchronous ld.global + st.shared of 2 bytes (no cp.async exists) and of 8 bytes.
// CHECK-LABEL: func.func @narrow_copies(
// CHECK-NEXT:    lass_nv.cp_async %A[%off], %dst, %pred {bytes = 8 : i64} : memref<?x?xf16>
// CHECK-NEXT:    lass_nv.cp_async %A[%off], %dst, %pred {bytes = 4 : i64} : memref<?x?xf16>
// CHECK-NEXT:    %h = lass_nv.ld_global_b %A[%off], %pred {bytes = 2 : i64} : memref<?x?xf16> -> i32
// CHECK-NEXT:    lass_nv.st_shared_b %dst, %h {bytes = 2 : i64} : i32
// CHECK-NEXT:    %q0, %q1 = lass_nv.ld_global_b %A[%off], %pred {bytes = 8 : i64} : memref<?x?xf16> -> i32, i32
// CHECK-NEXT:    lass_nv.st_shared_b %dst, %q0, %q1 {bytes = 8 : i64} : i32, i32
// CHECK-NEXT:    func.return
func.func @narrow_copies(%A: memref<?x?xf16>, %off: i32, %dst: i32, %pred: i1) {
  lass_nv.cp_async %A[%off], %dst, %pred {bytes = 8 : i64} : memref<?x?xf16>
  lass_nv.cp_async %A[%off], %dst, %pred {bytes = 4 : i64} : memref<?x?xf16>
  %h = lass_nv.ld_global_b %A[%off], %pred {bytes = 2 : i64} : memref<?x?xf16> -> i32
  lass_nv.st_shared_b %dst, %h {bytes = 2 : i64} : i32
  %q0, %q1 = lass_nv.ld_global_b %A[%off], %pred {bytes = 8 : i64} : memref<?x?xf16> -> i32, i32
  lass_nv.st_shared_b %dst, %q0, %q1 {bytes = 8 : i64} : i32, i32
  func.return
}

// CHECK-LABEL: func.func @warp_mma(
// CHECK-NEXT:    %a0, %a1, %a2, %a3 = lass_nv.ldmatrix_x4 %addr_a
// CHECK-NEXT:    %b0, %b1, %b2, %b3 = lass_nv.ldmatrix_x4 %addr_b
// CHECK-NEXT:    %d0, %d1, %d2, %d3 = lass_nv.mma_sync a(%a0, %a1, %a2, %a3) b(%b0, %b1) c(%c0, %c1, %c2, %c3) {shape = "m16n8k16"}
// CHECK-NEXT:    %e0, %e1, %e2, %e3 = lass_nv.mma_sync a(%a0, %a1, %a2, %a3) b(%b2, %b3) c(%d0, %d1, %d2, %d3) {shape = "m16n8k16"}
// CHECK-NEXT:    func.return %e0, %e1, %e2, %e3 : f32, f32, f32, f32
func.func @warp_mma(%addr_a: i32, %addr_b: i32, %c0: f32, %c1: f32, %c2: f32, %c3: f32) -> (f32, f32, f32, f32) {
  %a0, %a1, %a2, %a3 = lass_nv.ldmatrix_x4 %addr_a
  %b0, %b1, %b2, %b3 = lass_nv.ldmatrix_x4 %addr_b
  %d0, %d1, %d2, %d3 = lass_nv.mma_sync a(%a0, %a1, %a2, %a3) b(%b0, %b1) c(%c0, %c1, %c2, %c3) {shape = "m16n8k16"}
  %e0, %e1, %e2, %e3 = lass_nv.mma_sync a(%a0, %a1, %a2, %a3) b(%b2, %b3) c(%d0, %d1, %d2, %d3) {shape = "m16n8k16"}
  func.return %e0, %e1, %e2, %e3 : f32, f32, f32, f32
}

// The other element types: tf32 (fragments rounded by cvt.rna first), s8 (i32 accumulators),
// f16 accumulators (printed with their type after the attributes).
// CHECK-LABEL: func.func @other_types(
// CHECK-NEXT:    %t = lass_nv.cvt_rna_tf32 %a
// CHECK-NEXT:    %d0, %d1, %d2, %d3 = lass_nv.mma_sync a(%t, %t, %t, %t) b(%t, %t) c(%f, %f, %f, %f) {shape = "m16n8k8", ab_type = "tf32"}
// CHECK-NEXT:    %s0, %s1, %s2, %s3 = lass_nv.mma_sync a(%a, %a, %a, %a) b(%a, %a) c(%i, %i, %i, %i) {shape = "m16n8k32", ab_type = "s8"} : i32
// CHECK-NEXT:    %h0, %h1, %h2, %h3 = lass_nv.mma_sync a(%a, %a, %a, %a) b(%a, %a) c(%h, %h, %h, %h) {shape = "m16n8k16"} : f16
// CHECK-NEXT:    %r = lass_nv.cvt_rni_s32 %d0
// CHECK-NEXT:    func.return
func.func @other_types(%a: i32, %f: f32, %i: i32, %h: f16) {
  %t = lass_nv.cvt_rna_tf32 %a
  %d0, %d1, %d2, %d3 = lass_nv.mma_sync a(%t, %t, %t, %t) b(%t, %t) c(%f, %f, %f, %f) {shape = "m16n8k8", ab_type = "tf32"}
  %s0, %s1, %s2, %s3 = lass_nv.mma_sync a(%a, %a, %a, %a) b(%a, %a) c(%i, %i, %i, %i) {shape = "m16n8k32", ab_type = "s8"} : i32
  %h0, %h1, %h2, %h3 = lass_nv.mma_sync a(%a, %a, %a, %a) b(%a, %a) c(%h, %h, %h, %h) {shape = "m16n8k16"} : f16
  %r = lass_nv.cvt_rni_s32 %d0
  func.return
}

// The two-stage path: 16 bytes from global into registers, then into shared memory.
// CHECK-LABEL: func.func @staged_copy(
// CHECK-NEXT:    %r0, %r1, %r2, %r3 = lass_nv.ld_global_v4 %A[%off], %pred : memref<?x?xf16>
// CHECK-NEXT:    lass_nv.st_shared_v4 %dst, %r0, %r1, %r2, %r3
// CHECK-NEXT:    func.return
func.func @staged_copy(%A: memref<?x?xf16>, %off: i32, %pred: i1, %dst: i32) {
  %r0, %r1, %r2, %r3 = lass_nv.ld_global_v4 %A[%off], %pred : memref<?x?xf16>
  lass_nv.st_shared_v4 %dst, %r0, %r1, %r2, %r3
  func.return
}

// The epilogue: 1, 2 and 4 element loads and stores, guarded by %p.
// CHECK-LABEL: func.func @epilogue(
// CHECK-SAME:    %D: memref<?x?xf32>, %off: i32, %p: i1)
// CHECK-NEXT:    [[X:%.+]] = lass_nv.ld_global %D[%off] x 1 if %p : memref<?x?xf32>
// CHECK-NEXT:    [[Y0:%[^ ,]+]], [[Y1:%[^ ,]+]] = lass_nv.ld_global %D[%off] x 2 if %p : memref<?x?xf32>
// CHECK-NEXT:    [[Z0:%[^ ,]+]], [[Z1:%[^ ,]+]], [[Z2:%[^ ,]+]], [[Z3:%[^ ,]+]] = lass_nv.ld_global %D[%off] x 4 if %p : memref<?x?xf32>
// CHECK-NEXT:    lass_nv.st_global %D[%off], [[X]] if %p : memref<?x?xf32>, f32
// CHECK-NEXT:    lass_nv.st_global %D[%off], [[Y0]], [[Y1]] if %p : memref<?x?xf32>, f32, f32
// CHECK-NEXT:    lass_nv.st_global %D[%off], [[Z0]], [[Z1]], [[Z2]], [[Z3]] if %p : memref<?x?xf32>, f32, f32, f32, f32
// CHECK-NEXT:    func.return
func.func @epilogue(%D: memref<?x?xf32>, %off: i32, %p: i1) {
  %x = lass_nv.ld_global %D[%off] x 1 if %p : memref<?x?xf32>
  %y:2 = lass_nv.ld_global %D[%off] x 2 if %p : memref<?x?xf32>
  %z:4 = lass_nv.ld_global %D[%off] x 4 if %p : memref<?x?xf32>
  lass_nv.st_global %D[%off], %x if %p : memref<?x?xf32>, f32
  lass_nv.st_global %D[%off], %y#0, %y#1 if %p : memref<?x?xf32>, f32, f32
  lass_nv.st_global %D[%off], %z#0, %z#1, %z#2, %z#3 if %p : memref<?x?xf32>, f32, f32, f32, f32
  func.return
}

// f16 elements, and a statically shaped memref.
// CHECK-LABEL: func.func @ld_st_global_f16(
// CHECK-NEXT:    [[H0:%[^ ,]+]], [[H1:%[^ ,]+]] = lass_nv.ld_global %C[%off] x 2 if %p : memref<64x64xf16>
// CHECK-NEXT:    lass_nv.st_global %C[%off], [[H1]], [[H0]] if %p : memref<64x64xf16>, f16, f16
func.func @ld_st_global_f16(%C: memref<64x64xf16>, %off: i32, %p: i1) {
  %h:2 = lass_nv.ld_global %C[%off] x 2 if %p : memref<64x64xf16>
  lass_nv.st_global %C[%off], %h#1, %h#0 if %p : memref<64x64xf16>, f16, f16
  func.return
}

// Predicated off by a constant false (an out-of-bounds tile edge), and an attr-dict before the colon.
// CHECK-LABEL: func.func @guarded_off(
// CHECK-SAME:    %D: memref<?x?xf32>, %off: i32)
// CHECK-NEXT:    [[F:%.+]] = arith.constant false
// CHECK-NEXT:    [[G0:%[^ ,]+]], [[G1:%[^ ,]+]] = lass_nv.ld_global %D[%off] x 2 if [[F]] {tag = "edge"} : memref<?x?xf32>
// CHECK-NEXT:    lass_nv.st_global %D[%off], [[G0]], [[G1]] if [[F]] {tag = "edge"} : memref<?x?xf32>, f32, f32
// CHECK-NEXT:    func.return
func.func @guarded_off(%D: memref<?x?xf32>, %off: i32) {
  %false = arith.constant false
  %g:2 = lass_nv.ld_global %D[%off] x 2 if %false {tag = "edge"} : memref<?x?xf32>
  lass_nv.st_global %D[%off], %g#0, %g#1 if %false {tag = "edge"} : memref<?x?xf32>, f32, f32
  func.return
}
