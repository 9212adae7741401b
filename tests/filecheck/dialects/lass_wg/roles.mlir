// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round trip of the warp-specialization ops of `lass_wg` and of `lass_sched`.

// CHECK-LABEL: func.func @roles(
// CHECK-SAME:    %p: i1, %t: i32)
// CHECK-NEXT:    %n = lass_sched.cta_count
// CHECK-NEXT:    lass_wg.warp_specialize %p producer {
// CHECK-NEXT:      lass_wg.setmaxnreg dec 40
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:      lass_wg.setmaxnreg inc 232
// CHECK-NEXT:      lass_sched.claim %t
// CHECK-NEXT:      lass_wg.named_barrier {id = 1 : i64, threads = 256 : i64}
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @roles(%p: i1, %t: i32) {
  %n = lass_sched.cta_count
  lass_wg.warp_specialize %p producer {
    lass_wg.setmaxnreg dec 40
  } consumer {
    lass_wg.setmaxnreg inc 232
    lass_sched.claim %t
    lass_wg.named_barrier {id = 1 : i64, threads = 256 : i64}
  }
  func.return
}
