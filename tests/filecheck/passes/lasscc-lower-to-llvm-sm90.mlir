// lasscc-lower-to-llvm (passes/lower_sm90.py), the sm_90a ops of lass_nv: NVVM intrinsics for
// mbarrier / TMA / fences / elect / wgmma fence-commit-wait, a try_wait.parity loop for
// `mbarrier_wait_parity`, inline PTX for `wgmma_mma_async` (accumulators tied in/out), a
// `!lass_nv.tensor_map` parameter as `ptr byval([128 x i8]) align 64 nvvm.grid_constant`, the
// dynamic shared memory 1024-byte aligned, and a function marked `nvvm.kernel` lowered as a kernel;
// wgmma results pinned after the wait that retires them, across an scf.for through the loop results (@k_loop).
//
// RUN: %lasscc opt -p lasscc-lower-to-llvm %s | filecheck %s
// Left alone: the same ops outside a kernel (no nvvm.kernel, no lass.kernel), see @not_a_kernel.
// Rejected: a wgmma shape that does not exist (the op's verifier):
// RUN: not %lasscc opt -p lasscc-lower-to-llvm %S/Inputs/lasscc-lower-to-llvm-sm90-bad.mlir.in 2>&1 | filecheck %s --check-prefix=ERR
// ERR: {{^.*}}Inputs/lasscc-lower-to-llvm-sm90-bad.mlir.in:4:3: error: expected n one of 8, 16, 24, {{.*}}, 256 for ab_type f16, got 12{{$}}

// CHECK:         llvm.mlir.global external @lass_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @k(%t: !llvm.ptr<0> {llvm.byval = !llvm.array<128 x i8>, llvm.align = 64 : i64, nvvm.grid_constant}, %d: !llvm.ptr<1>, %c: f32, %t3: !llvm.ptr<0> {llvm.byval = !llvm.array<128 x i8>, llvm.align = 64 : i64, nvvm.grid_constant}) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
// CHECK:         llvm.call_intrinsic "llvm.nvvm.elect.sync"
// CHECK:         [[BAR:%[0-9]+]] = llvm.getelementptr {{%[0-9]+}}[{{%[0-9]+}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.mbarrier.init.shared"([[BAR]], {{%[0-9]+}}) : (!llvm.ptr<3>, i32) -> ()
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.fence.mbarrier_init.release.cluster"()
// mbarrier_init on the kernel's hoisted base; the other mbarrier ops' addresses from the window base
// read at the op (a volatile asm; `_barrier_ptr`: a k-tile loop's slot, counter and descriptors then
// stay in uniform registers), no alignment mask:
// CHECK:         [[XB:%[0-9]+]] = llvm.inline_asm has_side_effects "mov.u32 $0, lass_smem;", "=r" : () -> i32
// CHECK-NEXT:    [[XA:%[0-9]+]] = llvm.add [[XB]], {{%[0-9]+}} : i32
// CHECK-NEXT:    [[XP:%[0-9]+]] = llvm.inttoptr [[XA]] : i32 to !llvm.ptr<3>
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta"([[XP]], {{%[0-9]+}}) : (!llvm.ptr<3>, i32) -> i64
// CHECK:         [[DST:%[0-9]+]] = llvm.inttoptr {{%[0-9]+}} : i64 to !llvm.ptr<7>
// CHECK:         llvm.call_intrinsic "llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d"([[DST]], {{%[0-9]+}}, %t, {{%[0-9]+}}, {{%[0-9]+}}, {{.*}}) : (!llvm.ptr<7>, !llvm.ptr<3>, !llvm.ptr<0>, i32, i32, i16, i64, i1, i1, i32) -> ()
// A batched map's load: the 3d intrinsic, the batch the third coordinate.
// CHECK:         [[DST3:%[0-9]+]] = llvm.inttoptr {{%[0-9]+}} : i64 to !llvm.ptr<7>
// CHECK:         llvm.call_intrinsic "llvm.nvvm.cp.async.bulk.tensor.g2s.tile.3d"([[DST3]], {{%[0-9]+}}, %t3, {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}, {{.*}}) : (!llvm.ptr<7>, !llvm.ptr<3>, !llvm.ptr<0>, i32, i32, i32, i16, i64, i1, i1, i32) -> ()
// CHECK:         [[AB:%[0-9]+]] = llvm.inline_asm has_side_effects "mov.u32 $0, lass_smem;", "=r" : () -> i32
// CHECK-NEXT:    [[AA:%[0-9]+]] = llvm.add [[AB]], {{%[0-9]+}} : i32
// CHECK-NEXT:    [[AP:%[0-9]+]] = llvm.inttoptr [[AA]] : i32 to !llvm.ptr<3>
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.mbarrier.arrive.shared"([[AP]])
// CHECK-NEXT:    [[WB:%[0-9]+]] = llvm.inline_asm has_side_effects "mov.u32 $0, lass_smem;", "=r" : () -> i32
// CHECK-NEXT:    [[WA:%[0-9]+]] = llvm.add [[WB]], {{%[0-9]+}} : i32
// CHECK-NEXT:    [[WP:%[0-9]+]] = llvm.inttoptr [[WA]] : i32 to !llvm.ptr<3>
// CHECK-NEXT:    llvm.br ^[[LOOP:bb[0-9]+]]
// CHECK-NEXT:  ^[[LOOP]]:
// CHECK-NEXT:    [[OK:%[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta"([[WP]], {{%[0-9]+}})
// CHECK-NEXT:    llvm.cond_br [[OK]], ^[[DONE:bb[0-9]+]], ^[[LOOP]]
// CHECK-NEXT:  ^[[DONE]]:
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.fence.proxy.async.shared_cta"()
// `shared_address` (a wgmma descriptor's): the window base read where it is used (a volatile asm,
// so ptxas derives the descriptors in uniform registers), its 1024-byte alignment, the offset:
// CHECK:         [[SB:%[0-9]+]] = llvm.inline_asm has_side_effects "mov.u32 $0, lass_smem;", "=r" : () -> i32
// CHECK-NEXT:    [[AL:%[0-9]+]] = llvm.mlir.constant(-1024 : i32) : i32
// CHECK-NEXT:    [[SBA:%[0-9]+]] = llvm.and [[SB]], [[AL]] : i32
// CHECK-NEXT:    [[SA:%[0-9]+]] = llvm.add [[SBA]], {{%[0-9]+}} : i32
// The accumulators pinned before wgmma.fence, one asm per slot (warpgroup_fence_operand):
// CHECK:         [[C0:%[0-9]+]] = llvm.inline_asm has_side_effects "", "=f,0" %c : (f32) -> f32
// CHECK-NEXT:    [[C1:%[0-9]+]] = llvm.inline_asm has_side_effects "", "=f,0" %c : (f32) -> f32
// CHECK-NEXT:    [[C2:%[0-9]+]] = llvm.inline_asm has_side_effects "", "=f,0" %c : (f32) -> f32
// CHECK-NEXT:    [[C3:%[0-9]+]] = llvm.inline_asm has_side_effects "", "=f,0" %c : (f32) -> f32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.wgmma.fence.sync.aligned"()
// CHECK:         [[W:%[0-9]+]] = llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0, $1, $2, $3}, $4, $5, p, 1, 1, 0, 0;{{.*}}, "=f,=f,=f,=f,l,l,r,0,1,2,3" {{.*}}, [[C0]], [[C1]], [[C2]], [[C3]] : (i64, i64, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:    [[D0:%[0-9]+]] = llvm.extractvalue [[W]][0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK:         llvm.call_intrinsic "llvm.nvvm.wgmma.commit_group.sync.aligned"()
// CHECK-NEXT:    [[ONE:%[0-9]+]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.wgmma.wait_group.sync.aligned"([[ONE]]) : (i64) -> ()
// The results pinned after the wait that retires their group, and read from there on:
// CHECK:         llvm.call_intrinsic "llvm.nvvm.wgmma.wait_group.sync.aligned"
// CHECK-NEXT:    [[F0:%[0-9]+]] = llvm.inline_asm has_side_effects "", "=f,0" [[D0]] : (f32) -> f32
// CHECK:         llvm.store [[F0]], {{%[0-9]+}}
// A group in flight across an scf.for k-loop: the in-loop wait_group 1 retires the iteration
// before's group (the loop-carried accumulators, which this iteration's wgmma took pinned before its
// wgmma.fence): nothing pinned there.  The wait after the loop retires the body's group, read
// through the loop results: those (the header's block arguments) are pinned, and the store reads them.
// CHECK-LABEL: llvm.func @k_loop(
// CHECK:         ^[[HEAD:bb[0-9]+]]([[IV:%[0-9]+]]: i32, [[X0:%[0-9]+]]: f32, [[X1:%[0-9]+]]: f32, [[X2:%[0-9]+]]: f32, [[X3:%[0-9]+]]: f32):
// CHECK-NEXT:    [[CMP:%[0-9]+]] = llvm.icmp "slt" [[IV]], %n : i32
// CHECK-NEXT:    llvm.cond_br [[CMP]], ^[[BODY:bb[0-9]+]], ^[[EXIT:bb[0-9]+]]
// CHECK-NEXT:  ^[[BODY]]:
// CHECK-NEXT:    [[P0:%[0-9]+]] = llvm.inline_asm has_side_effects "", "=f,0" [[X0]] : (f32) -> f32
// CHECK:         llvm.call_intrinsic "llvm.nvvm.wgmma.fence.sync.aligned"()
// CHECK:         [[LW:%[0-9]+]] = llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async{{.*}}, [[P0]], {{.*}} -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:    [[L0:%[0-9]+]] = llvm.extractvalue [[LW]][0]
// CHECK:         llvm.call_intrinsic "llvm.nvvm.wgmma.wait_group.sync.aligned"({{%[0-9]+}}) : (i64) -> ()
// CHECK-NOT:     llvm.inline_asm
// CHECK:         llvm.br ^[[HEAD]]({{%[0-9]+}}, [[L0]], {{.*}} : i32, f32, f32, f32, f32)
// CHECK-NEXT:  ^[[EXIT]]:
// CHECK-NEXT:    [[ZERO:%[0-9]+]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.wgmma.wait_group.sync.aligned"([[ZERO]]) : (i64) -> ()
// CHECK-NEXT:    [[R0:%[0-9]+]] = llvm.inline_asm has_side_effects "", "=f,0" [[X0]] : (f32) -> f32
// CHECK-NEXT:    {{%[0-9]+}} = llvm.inline_asm has_side_effects "", "=f,0" [[X1]] : (f32) -> f32
// CHECK-NEXT:    {{%[0-9]+}} = llvm.inline_asm has_side_effects "", "=f,0" [[X2]] : (f32) -> f32
// CHECK-NEXT:    {{%[0-9]+}} = llvm.inline_asm has_side_effects "", "=f,0" [[X3]] : (f32) -> f32
// CHECK:         llvm.store [[R0]], {{%[0-9]+}}
// CHECK-LABEL: func.func @not_a_kernel(
// CHECK-NEXT:    lass_nv.mbarrier_arrive %bar
// CHECK-NEXT:    lass_nv.wgmma_fence

func.func @k(%t: !lass_nv.tensor_map<64x64xf16, swizzle_128b>, %d: memref<?x?xf32>, %c: f32,
             %t3: !lass_nv.tensor_map<1x64x64xf16, swizzle_128b>)
    attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bar = arith.constant 8192 : i32
  %tx = arith.constant 8192 : i32
  %e = lass_nv.elect_sync
  lass_nv.mbarrier_init %bar, %c1
  lass_nv.fence_mbarrier_init
  lass_nv.mbarrier_arrive_expect_tx %bar, %tx
  lass_nv.tma_load_2d %t[%c0, %c1], %c0, %bar : !lass_nv.tensor_map<64x64xf16, swizzle_128b>
  lass_nv.tma_load_3d %t3[%c0, %c1, %c1], %c0, %bar : !lass_nv.tensor_map<1x64x64xf16, swizzle_128b>
  lass_nv.mbarrier_arrive %bar
  lass_nv.mbarrier_wait_parity %bar, %c0
  lass_nv.fence_proxy_async
  %a = lass_nv.shared_address %c0
  %a64 = arith.extui %a : i32 to i64
  %p = arith.constant true
  lass_nv.wgmma_fence
  %r:4 = lass_nv.wgmma_mma_async a(%a64) b(%a64) c(%c, %c, %c, %c) scale_d %p {n = 8 : i64} : f32
  lass_nv.wgmma_commit_group
  lass_nv.wgmma_wait_group {pending = 1 : i64}
  lass_nv.wgmma_wait_group {pending = 0 : i64}
  lass_nv.st_global %d[%c0], %r#0 if %p : memref<?x?xf32>, f32
  func.return
}

func.func @k_loop(%d: memref<?x?xf32>, %c: f32, %n: i32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = lass_nv.shared_address %c0
  %a64 = arith.extui %a : i32 to i64
  %p = arith.constant true
  %acc:4 = scf.for %i = %c0 to %n step %c1 iter_args(%x0 = %c, %x1 = %c, %x2 = %c, %x3 = %c) -> (f32, f32, f32, f32) : i32 {
    lass_nv.wgmma_fence
    %r:4 = lass_nv.wgmma_mma_async a(%a64) b(%a64) c(%x0, %x1, %x2, %x3) scale_d %p {n = 8 : i64} : f32
    lass_nv.wgmma_commit_group
    lass_nv.wgmma_wait_group {pending = 1 : i64}
    scf.yield %r#0, %r#1, %r#2, %r#3 : f32, f32, f32, f32
  }
  lass_nv.wgmma_wait_group {pending = 0 : i64}
  lass_nv.st_global %d[%c0], %acc#0 if %p : memref<?x?xf32>, f32
  func.return
}

func.func @not_a_kernel(%bar: i32) {
  lass_nv.mbarrier_arrive %bar
  lass_nv.wgmma_fence
  func.return
}
