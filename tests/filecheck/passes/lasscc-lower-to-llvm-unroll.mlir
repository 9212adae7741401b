// lasscc-lower-to-llvm (passes/lower_to_llvm.py) on rolled loops (passes/_rolled.py): an scf.for
// marked lass.unroll_full becomes blocks as any scf.for, and its back edge (the branch carrying
// iv + step) keeps the mark, which lasscc.emit writes as `!llvm.loop` metadata with
// "llvm.loop.unroll.full".  The loop-carried values (here rotated by one per iteration) are
// block arguments as usual.
//
// RUN: %lasscc opt -p lasscc-lower-to-llvm %s | filecheck %s
//
// The LLVM IR and PTX (`lasscc compile` of this kernel-level input): the metadata on the back
// edge only; LLVM's LoopFullUnroll unrolls the marked loop completely (4 stores, none in a loop), while the
// unmarked runtime loop stays a loop.
// RUN: %lasscc compile %s --emit llvm --no-cache -o %t.ll
// RUN: filecheck %s --check-prefix=LL < %t.ll
// RUN: %lasscc compile %s --no-cache -o %t.ptx
// RUN: filecheck %s --check-prefix=PTX < %t.ptx
//
// Rejected: a marked loop whose bounds are not constants (LLVM could not unroll it fully):
// RUN: not %lasscc opt -p lasscc-lower-to-llvm %S/Inputs/lasscc-lower-to-llvm-unroll-runtime.mlir.in 2>&1 | filecheck %s --check-prefix=ERR

// ---- positive ----
// CHECK-LABEL: llvm.func @rolled(
//                the marked loop: entry branch (lb, inits) unmarked, the back edge marked
// CHECK:         llvm.br ^[[HEAD:[a-z0-9]+]]({{%[0-9]+}}, %x0, %x1, %x2, %x3, {{%[0-9]+}} : i32, f32, f32, f32, f32, i32){{$}}
// CHECK-NOT:     lass.unroll_full
// CHECK:       ^[[HEAD]]([[IV:%[0-9]+]]: i32, [[V0:%[0-9]+]]: f32, [[V1:%[0-9]+]]: f32, [[V2:%[0-9]+]]: f32, [[V3:%[0-9]+]]: f32, {{%[0-9]+}}: i32):
// CHECK:         llvm.store [[V0]], {{%[0-9]+}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK:         [[NEXT:%[0-9]+]] = llvm.add [[IV]], {{%[0-9]+}} : i32
// CHECK-NEXT:    llvm.br ^[[HEAD]]([[NEXT]], [[V1]], [[V2]], [[V3]], [[V0]], {{%[0-9]+}} : i32, f32, f32, f32, f32, i32) {lass.unroll_full}
//                the unmarked loop (runtime bound %n): no mark on its back edge
// CHECK-NOT:     lass.unroll_full
// CHECK:         llvm.return

// LL-LABEL:      define ptx_kernel void @"rolled"
// LL:            br label %{{.*}}, !llvm.loop ![[LOOP:[0-9]+]]
// LL-NOT:        !llvm.loop
// LL:            ![[FULL:[0-9]+]] = !{!"llvm.loop.unroll.full"}
// LL-NEXT:       ![[LOOP]] = !{![[LOOP]], ![[FULL]]}
// PTX-LABEL:     .entry rolled(
// PTX-COUNT-4:   st.global.b32
// PTX-NOT:       st.global
// PTX:           $L__BB0_1:
// PTX-NOT:       st.global
// PTX:           bra
// PTX-NOT:       st.global
func.func @rolled(%D: memref<?x?xf32>, %n: i32, %x0: f32, %x1: f32, %x2: f32, %x3: f32)
    attributes {lass.kernel = #lass.kernel<config = {threadblock = [64, 32, 32], warp = [32, 16, 32], stages = 3}>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %true = arith.constant true
  %tid = lass_nv.thread_id
  %r:5 = scf.for %q = %c0 to %c4 step %c1 iter_args(%a = %x0, %b = %x1, %c = %x2, %d = %x3, %o = %tid) -> (f32, f32, f32, f32, i32) : i32 {
    lass_nv.st_global %D[%o], %a if %true : memref<?x?xf32>, f32
    %o1 = arith.addi %o, %n : i32
    scf.yield %b, %c, %d, %a, %o1 : f32, f32, f32, f32, i32
  } {lass.unroll_full}
  scf.for %i = %c0 to %n step %c1 : i32 {
    lass_nv.bar_sync
  }
  func.return
}
// ERR: {{^.*}}Inputs/lasscc-lower-to-llvm-unroll-runtime.mlir.in:7:3: error: expected constant bounds and step on an scf.for marked lass.unroll_full (LLVM unrolls it fully){{$}}
