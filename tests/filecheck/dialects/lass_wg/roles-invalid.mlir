// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s

// One case per verifier message of the warp-specialization ops of dialects/lass_wg.py.

func.func @bad_action() {
  lass_wg.setmaxnreg add 40
  func.return
}
// CHECK: expected inc or dec, got add

// -----

func.func @bad_count() {
  lass_wg.setmaxnreg inc 236
  func.return
}
// CHECK: expected a register count in 24..256, a multiple of 8, got 236

// -----

func.func @barrier_zero() {
  lass_wg.named_barrier {id = 0 : i64, threads = 256 : i64}
  func.return
}
// CHECK: expected id in 1..15 (0 is the block's barrier), got 0

// -----

func.func @barrier_partial_warp() {
  lass_wg.named_barrier {id = 1 : i64, threads = 100 : i64}
  func.return
}
// CHECK: expected threads a positive multiple of 32 (whole warps), got 100
