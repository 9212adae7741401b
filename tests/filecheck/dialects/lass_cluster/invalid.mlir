// RUN: xdsl-opt %s --verify-diagnostics --split-input-file | filecheck %s

// A multicast load takes one coordinate per tensor-map dimension.

func.func @too_few_coordinates(%t: !lass_nv.tensor_map<1x32x64xf16, swizzle_128b>, %c: i32) {
  lass_cluster.tma_load_multicast %t[%c, %c], %c, %c, %c : !lass_nv.tensor_map<1x32x64xf16, swizzle_128b>
  func.return
}

// CHECK: expected 3 coordinates for !lass_nv.tensor_map<1x32x64xf16, swizzle_128b>, got 2
