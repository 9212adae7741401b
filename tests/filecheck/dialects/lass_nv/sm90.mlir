// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round trip of the sm_90a ops of `lass_nv` (TMA, mbarrier, wgmma) and the tensor-map type.

// CHECK-LABEL: func.func @sm90(%t: !lass_nv.tensor_map<64x64xbf16, swizzle_128b>, %x: i64, %f: f32, %r0: i32) {
// CHECK-NEXT:    %c0 = arith.constant 0 : i32
// CHECK-NEXT:    %p = arith.constant true
// CHECK-NEXT:    %e = lass_nv.elect_sync
// CHECK-NEXT:    %a = lass_nv.shared_address %c0
// CHECK-NEXT:    lass_nv.mbarrier_init %c0, %r0
// CHECK-NEXT:    lass_nv.fence_mbarrier_init
// CHECK-NEXT:    lass_nv.mbarrier_arrive_expect_tx %c0, %r0
// CHECK-NEXT:    lass_nv.tma_load_2d %t[%c0, %r0], %c0, %c0 : !lass_nv.tensor_map<64x64xbf16, swizzle_128b>
// CHECK-NEXT:    lass_nv.mbarrier_arrive %c0
// CHECK-NEXT:    lass_nv.mbarrier_wait_parity %c0, %c0
// CHECK-NEXT:    lass_nv.fence_proxy_async
// CHECK-NEXT:    lass_nv.wgmma_fence
// CHECK-NEXT:    %d, %d_1, %d_2, %d_3 = lass_nv.wgmma_mma_async a(%x) b(%x) c(%f, %f, %f, %f) scale_d %p {n = 8 : i64, ab_type = "bf16", trans_a = 1 : i64} : f32
// CHECK-NEXT:    %s, %s_1, %s_2, %s_3 = lass_nv.wgmma_mma_async a(%r0, %r0, %r0, %r0) b(%x) c(%d, %d_1, %d_2, %d_3) scale_d %p {n = 8 : i64, ab_type = "bf16", scale_b = -1 : i64} : f32
// CHECK-NEXT:    lass_nv.wgmma_commit_group
// CHECK-NEXT:    lass_nv.wgmma_wait_group {pending = 0 : i64}
// CHECK-NEXT:    func.return
func.func @sm90(%t: !lass_nv.tensor_map<64x64xbf16, swizzle_128b>, %x: i64, %f: f32, %r0: i32) {
  %c0 = arith.constant 0 : i32
  %p = arith.constant true
  %e = lass_nv.elect_sync
  %a = lass_nv.shared_address %c0
  lass_nv.mbarrier_init %c0, %r0
  lass_nv.fence_mbarrier_init
  lass_nv.mbarrier_arrive_expect_tx %c0, %r0
  lass_nv.tma_load_2d %t[%c0, %r0], %c0, %c0 : !lass_nv.tensor_map<64x64xbf16, swizzle_128b>
  lass_nv.mbarrier_arrive %c0
  lass_nv.mbarrier_wait_parity %c0, %c0
  lass_nv.fence_proxy_async
  lass_nv.wgmma_fence
  %d:4 = lass_nv.wgmma_mma_async a(%x) b(%x) c(%f, %f, %f, %f) scale_d %p {n = 8 : i64, ab_type = "bf16", trans_a = 1 : i64} : f32
  %s:4 = lass_nv.wgmma_mma_async a(%r0, %r0, %r0, %r0) b(%x) c(%d#0, %d#1, %d#2, %d#3) scale_d %p {n = 8 : i64, ab_type = "bf16", scale_b = -1 : i64} : f32
  lass_nv.wgmma_commit_group
  lass_nv.wgmma_wait_group {pending = 0 : i64}
  func.return
}

// A batched operand's map: 3-d, batch outermost, one matrix deep; tma_load_3d takes (k, row, batch).
// CHECK-LABEL: func.func @sm90_batched(%t: !lass_nv.tensor_map<1x64x32xf16, swizzle_64b>, %c: i32) {
// CHECK-NEXT:    lass_nv.tma_load_3d %t[%c, %c, %c], %c, %c : !lass_nv.tensor_map<1x64x32xf16, swizzle_64b>
// CHECK-NEXT:    func.return
func.func @sm90_batched(%t: !lass_nv.tensor_map<1x64x32xf16, swizzle_64b>, %c: i32) {
  lass_nv.tma_load_3d %t[%c, %c, %c], %c, %c : !lass_nv.tensor_map<1x64x32xf16, swizzle_64b>
  func.return
}
