// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round trip of `lass_cluster` (thread block clusters, TMA multicast; dialects/lass_cluster.py).

// CHECK-LABEL: func.func @cluster(
// CHECK-SAME:    %t: !lass_nv.tensor_map<32x64xf16, swizzle_128b>, %u: !lass_nv.tensor_map<1x32x64xf16, swizzle_128b>, %c: i32)
// CHECK-NEXT:    %rank = lass_cluster.ctarank
// CHECK-NEXT:    lass_cluster.sync
// CHECK-NEXT:    lass_cluster.tma_load_multicast %t[%c, %rank], %c, %c, %c : !lass_nv.tensor_map<32x64xf16, swizzle_128b>
// CHECK-NEXT:    lass_cluster.tma_load_multicast %u[%c, %rank, %c], %c, %c, %c : !lass_nv.tensor_map<1x32x64xf16, swizzle_128b>
// CHECK-NEXT:    lass_cluster.mbarrier_arrive_remote %c, %rank
// CHECK-NEXT:    func.return
func.func @cluster(%t: !lass_nv.tensor_map<32x64xf16, swizzle_128b>, %u: !lass_nv.tensor_map<1x32x64xf16, swizzle_128b>, %c: i32) {
  %rank = lass_cluster.ctarank
  lass_cluster.sync
  lass_cluster.tma_load_multicast %t[%c, %rank], %c, %c, %c : !lass_nv.tensor_map<32x64xf16, swizzle_128b>
  lass_cluster.tma_load_multicast %u[%c, %rank, %c], %c, %c, %c : !lass_nv.tensor_map<1x32x64xf16, swizzle_128b>
  lass_cluster.mbarrier_arrive_remote %c, %rank
  func.return
}
