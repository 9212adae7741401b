// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// ldmatrix.x4 with and without .trans (MN-major tiles).

// CHECK-LABEL: func.func @ldmatrix(%addr: i32) {
// CHECK-NEXT:    %t0, %t1, %t2, %t3 = lass_nv.ldmatrix_x4 %addr trans
// CHECK-NEXT:    %r0, %r1, %r2, %r3 = lass_nv.ldmatrix_x4 %addr{{$}}
func.func @ldmatrix(%addr: i32) {
  %t0, %t1, %t2, %t3 = lass_nv.ldmatrix_x4 %addr trans
  %r0, %r1, %r2, %r3 = lass_nv.ldmatrix_x4 %addr
  func.return
}
