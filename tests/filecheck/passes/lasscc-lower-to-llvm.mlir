// lasscc-lower-to-llvm (passes/lower_to_llvm.py): a per-thread kernel (arith, scf, lass_nv,
// lass_smem) -> xDSL's llvm dialect: NVVM intrinsics, inline PTX, blocks for scf.for / scf.if.
// The input uses every lass_nv op once.
//
// RUN: %lasscc opt -p lasscc-lower-to-llvm %s -o %t.once.mlir
// RUN: filecheck %s --input-file %t.once.mlir
// RUN: xdsl-opt -p lasscc-lower-to-llvm %s | xdsl-opt -p cse,dce | filecheck %s
//
// IR already past this pass is left alone: a second run changes nothing (no second global).
// RUN: %lasscc opt -p lasscc-lower-to-llvm %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
//
// A module without kernels gets no shared-memory global and is unchanged:
// RUN: %lasscc opt -p lasscc-lower-to-llvm %S/Inputs/lasscc-lower-to-llvm-no-kernel.mlir.in | filecheck %s --check-prefix=NOKERNEL
//
// An scf.if with results: branches to a merge block that takes them; an add's nsw kept:
// RUN: %lasscc opt -p lasscc-lower-to-llvm %S/Inputs/lasscc-lower-to-llvm-if-results.mlir.in | filecheck %s --check-prefix=IF-RES
//
// Rejected:
// RUN: not %lasscc opt -p lasscc-lower-to-llvm %S/Inputs/lasscc-lower-to-llvm-unknown-op.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-OP
// RUN: not %lasscc opt -p lasscc-lower-to-llvm %S/Inputs/lasscc-lower-to-llvm-not-swizzled.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-PIPE
// RUN: not %lasscc opt -p lasscc-lower-to-llvm %S/Inputs/lasscc-lower-to-llvm-index-loop.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-INDEX

// ---- positive ----

// The dynamic shared memory: one external array in address space 3, before the kernels.
// CHECK:      llvm.mlir.global external @lass_smem() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<0 x i8>
// The kernel: memrefs become global (address space 1) pointers; the attributes stay.
// CHECK-NEXT: llvm.func @kernel(%A: !llvm.ptr<1>, %B: !llvm.ptr<1>, %D: !llvm.ptr<1>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32) attributes {lass.kernel = #lass.kernel<ab = f16, acc = f32, d = f32, layouts = [row, col, row], alpha = 1.0, beta = 0.0, config = {threadblock = [64, 32, 32], warp = [32, 16, 32], instruction = [16, 8, 16], stages = 3, raster = 2, prefetch = 0}>} {
// CHECK-NEXT:   [[SMEM:%[0-9]+]] = llvm.mlir.addressof @lass_smem : !llvm.ptr<3>
//   lass_nv.thread_id / block_id -> sreg intrinsics
// CHECK-NEXT:   [[TID:%[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32
// CHECK-NEXT:   [[BID:%[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ctaid.x"() : () -> i32
// CHECK-NEXT:   [[C0:%[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:   [[C1:%[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:   [[C16:%[0-9]+]] = llvm.mlir.constant(16 : i32) : i32
//   arith.muli -> llvm.mul
// CHECK-NEXT:   [[LOGICAL:%[0-9]+]] = llvm.mul [[TID]], [[C16]] : i32
//   lass_smem.swizzle {bits 3, base 4, shift 3}: x ^ (((x >> 7) & 7) << 4)
// CHECK-NEXT:   [[V7:%[0-9]+]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-NEXT:   [[HI:%[0-9]+]] = llvm.lshr [[LOGICAL]], [[V7]] : i32
// CHECK-NEXT:   [[V9:%[0-9]+]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-NEXT:   [[MASKED:%[0-9]+]] = llvm.and [[HI]], [[V9]] : i32
// CHECK-NEXT:   [[V11:%[0-9]+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT:   [[XBITS:%[0-9]+]] = llvm.shl [[MASKED]], [[V11]] : i32
// CHECK-NEXT:   [[PHYS:%[0-9]+]] = llvm.xor [[LOGICAL]], [[XBITS]] : i32
//   lass_nv.cp_async: src-size 16 or 0 (zero-fill), shared = @lass_smem + byte offset, global = A + sext(offset) elements
// CHECK-NEXT:   [[PRED:%[0-9]+]] = llvm.icmp "ult" [[BID]], %M : i32
// CHECK-NEXT:   [[V15:%[0-9]+]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT:   [[V16:%[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:   [[SRCSIZE:%[0-9]+]] = llvm.select [[PRED]], [[V15]], [[V16]] : i1, i32
// CHECK-NEXT:   [[DST:%[0-9]+]] = llvm.getelementptr [[SMEM]]{{\[}}[[PHYS]]{{\]}} : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT:   [[OFF64:%[0-9]+]] = llvm.sext [[LOGICAL]] : i32 to i64
// CHECK-NEXT:   [[SRC:%[0-9]+]] = llvm.getelementptr %A{{\[}}[[OFF64]]{{\]}} : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// CHECK-NEXT:   llvm.call_intrinsic "llvm.nvvm.cp.async.cg.shared.global.16.s"([[DST]], [[SRC]], [[SRCSIZE]]) : (!llvm.ptr<3>, !llvm.ptr<1>, i32) -> ()
//   lass_nv.cp_async_commit
// CHECK-NEXT:   llvm.call_intrinsic "llvm.nvvm.cp.async.commit.group"() : () -> ()
//   lass_nv.ld_global_v4: predicated ld.global.v4 in inline PTX
// CHECK-NEXT:   [[V21:%[0-9]+]] = llvm.sext [[LOGICAL]] : i32 to i64
// CHECK-NEXT:   [[GPTR:%[0-9]+]] = llvm.getelementptr %B{{\[}}[[V21]]{{\]}} : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// CHECK-NEXT:   [[GADDR:%[0-9]+]] = llvm.ptrtoint [[GPTR]] : !llvm.ptr<1> to i64
// CHECK-NEXT:   [[PRED32:%[0-9]+]] = llvm.zext [[PRED]] : i1 to i32
// CHECK-NEXT:   [[LDV4:%[0-9]+]] = llvm.inline_asm has_side_effects "{\0A .reg .pred p;\0A setp.ne.b32 p, $5, 0;\0A mov.b32 $0, 0;\0A mov.b32 $1, 0;\0A mov.b32 $2, 0;\0A mov.b32 $3, 0;\0A @p ld.global.v4.u32 {$0, $1, $2, $3}, [$4];\0A}", "=r,=r,=r,=r,l,r" [[GADDR]], [[PRED32]] : (i64, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:   [[G0:%[0-9]+]] = llvm.extractvalue [[LDV4]][0] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:   [[G1:%[0-9]+]] = llvm.extractvalue [[LDV4]][1] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:   [[G2:%[0-9]+]] = llvm.extractvalue [[LDV4]][2] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:   [[G3:%[0-9]+]] = llvm.extractvalue [[LDV4]][3] : !llvm.struct<(i32, i32, i32, i32)>
//   lass_nv.st_shared_v4: one 16-byte aligned vector store to shared memory
// CHECK-NEXT:   [[V30:%[0-9]+]] = llvm.mlir.undef : vector<4xi32>
// CHECK-NEXT:   [[V31:%[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:   [[V32:%[0-9]+]] = llvm.insertelement [[G0]], [[V30]]{{\[}}[[V31]] : i32] : vector<4xi32>
// CHECK-NEXT:   [[V33:%[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:   [[V34:%[0-9]+]] = llvm.insertelement [[G1]], [[V32]]{{\[}}[[V33]] : i32] : vector<4xi32>
// CHECK-NEXT:   [[V35:%[0-9]+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:   [[V36:%[0-9]+]] = llvm.insertelement [[G2]], [[V34]]{{\[}}[[V35]] : i32] : vector<4xi32>
// CHECK-NEXT:   [[V37:%[0-9]+]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT:   [[VEC:%[0-9]+]] = llvm.insertelement [[G3]], [[V36]]{{\[}}[[V37]] : i32] : vector<4xi32>
// CHECK-NEXT:   [[SPTR:%[0-9]+]] = llvm.getelementptr [[SMEM]]{{\[}}[[PHYS]]{{\]}} : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT:   llvm.store [[VEC]], [[SPTR]] {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
//   scf.for (xDSL's convert-scf-to-cf) -> branch to a condition block carrying iv and iter_args,
//   compare (slt), body, exit block; the loop's results are the condition block's arguments
// CHECK-NEXT:   [[ZERO:%[0-9]+]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK-NEXT:   llvm.br ^bb1([[C0]], [[ZERO]], [[ZERO]], [[ZERO]], [[ZERO]] : i32, f32, f32, f32, f32)
// CHECK-NEXT: ^bb1([[IV:%[0-9]+]]: i32, [[X0:%[0-9]+]]: f32, [[X1:%[0-9]+]]: f32, [[X2:%[0-9]+]]: f32, [[X3:%[0-9]+]]: f32):
// CHECK-NEXT:   [[COND:%[0-9]+]] = llvm.icmp "slt" [[IV]], %K : i32
// CHECK-NEXT:   llvm.cond_br [[COND]], ^bb2, ^bb3
// CHECK-NEXT: ^bb2:
// CHECK-NEXT:   [[V47:%[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
//   lass_nv.cp_async_wait {pending = 1} / lass_nv.bar_sync
// CHECK-NEXT:   llvm.call_intrinsic "llvm.nvvm.cp.async.wait.group"([[V47]]) : (i32) -> ()
// CHECK-NEXT:   llvm.call_intrinsic "llvm.nvvm.barrier0"() : () -> ()
//   lass_nv.ldmatrix_x4 -> struct of four i32
// CHECK-NEXT:   [[V48:%[0-9]+]] = llvm.getelementptr [[SMEM]]{{\[}}[[PHYS]]{{\]}} : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT:   [[LDM:%[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3"([[V48]]) : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:   [[A0:%[0-9]+]] = llvm.extractvalue [[LDM]][0] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:   [[A1:%[0-9]+]] = llvm.extractvalue [[LDM]][1] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:   [[A2:%[0-9]+]] = llvm.extractvalue [[LDM]][2] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:   [[A3:%[0-9]+]] = llvm.extractvalue [[LDM]][3] : !llvm.struct<(i32, i32, i32, i32)>
//   lass_nv.mma_sync: registers bitcast to f16x2 (once per register and block: b's a0, a1 are
//   a's bitcasts), accumulators f32
// CHECK-NEXT:   [[V54:%[0-9]+]] = llvm.bitcast [[A0]] : i32 to vector<2xf16>
// CHECK-NEXT:   [[V55:%[0-9]+]] = llvm.bitcast [[A1]] : i32 to vector<2xf16>
// CHECK-NEXT:   [[V56:%[0-9]+]] = llvm.bitcast [[A2]] : i32 to vector<2xf16>
// CHECK-NEXT:   [[V57:%[0-9]+]] = llvm.bitcast [[A3]] : i32 to vector<2xf16>
// CHECK-NEXT:   [[MMA:%[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.mma.m16n8k16.row.col.f32.f32"([[V54]], [[V55]], [[V56]], [[V57]], [[V54]], [[V55]], [[X0]], [[X1]], [[X2]], [[X3]]) : (vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:   [[D0:%[0-9]+]] = llvm.extractvalue [[MMA]][0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:   [[D1:%[0-9]+]] = llvm.extractvalue [[MMA]][1] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:   [[D2:%[0-9]+]] = llvm.extractvalue [[MMA]][2] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:   [[D3:%[0-9]+]] = llvm.extractvalue [[MMA]][3] : !llvm.struct<(f32, f32, f32, f32)>
//   scf.yield -> iv + step, back to the condition block
// CHECK-NEXT:   [[NEXT:%[0-9]+]] = llvm.add [[IV]], [[C1]] : i32
// CHECK-NEXT:   llvm.br ^bb1([[NEXT]], [[D0]], [[D1]], [[D2]], [[D3]] : i32, f32, f32, f32, f32)
// CHECK-NEXT: ^bb3:
//   scf.if -> cond_br to then / else blocks that meet in a merge block
// CHECK-NEXT:   [[HASC:%[0-9]+]] = llvm.fcmp "one" %beta, [[ZERO]] : f32
// CHECK-NEXT:   llvm.cond_br [[HASC]], ^bb4, ^bb5
// CHECK-NEXT: ^bb4:
//   lass_nv.ld_global x 2 if %p: one predicated ld.global.v2 in inline PTX, zeros where !p (no
//   access then), its registers bitcast back to f32
// CHECK-NEXT:   [[V72:%[0-9]+]] = llvm.sext [[LOGICAL]] : i32 to i64
// CHECK-NEXT:   [[V73:%[0-9]+]] = llvm.getelementptr %D{{\[}}[[V72]]{{\]}} : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:   [[LADDR:%[0-9]+]] = llvm.ptrtoint [[V73]] : !llvm.ptr<1> to i64
// CHECK-NEXT:   [[LP:%[0-9]+]] = llvm.zext [[PRED]] : i1 to i32
// CHECK-NEXT:   [[LD:%[0-9]+]] = llvm.inline_asm has_side_effects "{\0A .reg .pred p;\0A setp.ne.b32 p, $3, 0;\0A mov.b32 $0, 0;\0A mov.b32 $1, 0;\0A @p ld.global.v2.b32 {$0, $1}, [$2];\0A}", "=r,=r,l,r" [[LADDR]], [[LP]] : (i64, i32) -> !llvm.struct<(i32, i32)>
// CHECK-NEXT:   [[R0:%[0-9]+]] = llvm.extractvalue [[LD]][0] : !llvm.struct<(i32, i32)>
// CHECK-NEXT:   [[R1:%[0-9]+]] = llvm.extractvalue [[LD]][1] : !llvm.struct<(i32, i32)>
// CHECK-NEXT:   [[CV0:%[0-9]+]] = llvm.bitcast [[R0]] : i32 to f32
// CHECK-NEXT:   [[CV1:%[0-9]+]] = llvm.bitcast [[R1]] : i32 to f32
// CHECK-NEXT:   [[V79:%[0-9]+]] = llvm.fmul %beta, [[CV0]] : f32
// CHECK-NEXT:   [[V80:%[0-9]+]] = llvm.fadd [[X0]], [[V79]] : f32
//   lass_nv.st_global if %p: one predicated st.global.v2 in inline PTX (a branch around each
//   store gave the epilogue ~1,500 blocks, most of LLVM's codegen time)
// CHECK-NEXT:   [[V81:%[0-9]+]] = llvm.sext [[LOGICAL]] : i32 to i64
// CHECK-NEXT:   [[V82:%[0-9]+]] = llvm.getelementptr %D{{\[}}[[V81]]{{\]}} : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:   [[SADDR:%[0-9]+]] = llvm.ptrtoint [[V82]] : !llvm.ptr<1> to i64
// CHECK-NEXT:   [[SP:%[0-9]+]] = llvm.zext [[PRED]] : i1 to i32
// CHECK-NEXT:   [[S0:%[0-9]+]] = llvm.bitcast [[V80]] : f32 to i32
// CHECK-NEXT:   [[S1:%[0-9]+]] = llvm.bitcast [[CV1]] : f32 to i32
// CHECK-NEXT:   llvm.inline_asm has_side_effects "{\0A .reg .pred p;\0A setp.ne.b32 p, $1, 0;\0A @p st.global.v2.b32 [$0], {$2, $3};\0A}", "l,r,r,r" [[SADDR]], [[SP]], [[S0]], [[S1]] : (i64, i32, i32, i32) -> ()
// CHECK-NEXT:   llvm.br ^bb6
//   else branch: the guarded store only
// CHECK-NEXT: ^bb5:
// CHECK:        llvm.inline_asm has_side_effects "{\0A .reg .pred p;\0A setp.ne.b32 p, $1, 0;\0A @p st.global.v2.b32 [$0], {$2, $3};\0A}"
// CHECK-NEXT:   llvm.br ^bb6
// CHECK-NEXT: ^bb6:
// CHECK-NEXT:   llvm.return
// CHECK-NEXT: }
// A function that is not a kernel is left alone.
// CHECK-NEXT: func.func @helper(%x: i32) -> i32 {
// CHECK-NEXT:   %y = arith.addi %x, %x : i32
// CHECK-NEXT:   func.return %y : i32
// CHECK-NEXT: }
func.func @kernel(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32)
    attributes {lass.kernel = #lass.kernel<d = f32, alpha = 1.0, beta = 0.0, config = {threadblock = [64, 32, 32], warp = [32, 16, 32], instruction = [16, 8, 16], stages = 3, raster = 2}>} {
  %tid = lass_nv.thread_id
  %bid = lass_nv.block_id x
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %off = arith.muli %tid, %c16 : i32
  %phys = lass_smem.swizzle %off {bits = 3 : i64, base = 4 : i64, shift = 3 : i64}
  %in = arith.cmpi ult, %bid, %M : i32
  lass_nv.cp_async %A[%off], %phys, %in {bytes = 16 : i64} : memref<?x?xf16>
  lass_nv.cp_async_commit
  %g0, %g1, %g2, %g3 = lass_nv.ld_global_v4 %B[%off], %in : memref<?x?xf16, strided<[1, ?]>>
  lass_nv.st_shared_v4 %phys, %g0, %g1, %g2, %g3
  %zero = arith.constant 0.000000e+00 : f32
  %r0, %r1, %r2, %r3 = scf.for %kt = %c0 to %K step %c1 iter_args(%x0 = %zero, %x1 = %zero, %x2 = %zero, %x3 = %zero) -> (f32, f32, f32, f32) : i32 {
    lass_nv.cp_async_wait {pending = 1 : i64}
    lass_nv.bar_sync
    %a0, %a1, %a2, %a3 = lass_nv.ldmatrix_x4 %phys
    %d0, %d1, %d2, %d3 = lass_nv.mma_sync a(%a0, %a1, %a2, %a3) b(%a0, %a1) c(%x0, %x1, %x2, %x3) {shape = "m16n8k16"}
    scf.yield %d0, %d1, %d2, %d3 : f32, f32, f32, f32
  }
  %has_c = arith.cmpf one, %beta, %zero : f32
  scf.if %has_c {
    %c0v, %c1v = lass_nv.ld_global %D[%off] x 2 if %in : memref<?x?xf32>
    %s0 = arith.mulf %beta, %c0v : f32
    %v0 = arith.addf %r0, %s0 : f32
    lass_nv.st_global %D[%off], %v0, %c1v if %in : memref<?x?xf32>, f32, f32
    scf.yield
  } else {
    lass_nv.st_global %D[%off], %r0, %r1 if %in : memref<?x?xf32>, f32, f32
    scf.yield
  }
  func.return
}
func.func @helper(%x: i32) -> i32 {
  %y = arith.addi %x, %x : i32
  func.return %y : i32
}

// NOKERNEL:      builtin.module {
// NOKERNEL-NEXT:   func.func @not_a_kernel(%t: i32) -> i32 {
// NOKERNEL-NEXT:     %s = lass_smem.swizzle %t {bits = 3 : i64, base = 4 : i64, shift = 3 : i64}
// NOKERNEL-NEXT:     func.return %s : i32
// NOKERNEL-NEXT:   }
// NOKERNEL-NEXT: }

// IF-RES-LABEL: llvm.func @k(
// IF-RES:         [[C:%[0-9]+]] = llvm.icmp "ult" %M, %N : i32
// IF-RES-NEXT:    llvm.cond_br [[C]], ^[[THEN:bb[0-9]+]], ^[[ELSE:bb[0-9]+]]
// IF-RES-NEXT:  ^[[THEN]]:
// IF-RES-NEXT:    llvm.br ^[[MERGE:bb[0-9]+]](%M : i32)
// IF-RES-NEXT:  ^[[ELSE]]:
// IF-RES-NEXT:    llvm.br ^[[MERGE]](%N : i32)
// IF-RES-NEXT:  ^[[MERGE]]([[R:%[0-9]+]]: i32):
// IF-RES:         [[S:%[0-9]+]] = llvm.add [[R]], %K overflow<nsw> : i32
// IF-RES-NEXT:    {{%[0-9]+}} = llvm.add [[S]], %K : i32

// ---- rejected: inputs under Inputs/ ----

// ERR-OP: {{^.*}}Inputs/lasscc-lower-to-llvm-unknown-op.mlir.in:9:5: error: 'arith.divsi' has no lowering; expected the ops lasscc-swizzle-smem leaves (the arith ops lasscc emits, scf.for/scf.if, lass_nv, lass_smem; run the earlier passes first){{$}}
// ERR-PIPE: {{^.*}}Inputs/lasscc-lower-to-llvm-not-swizzled.mlir.in:5:3: error: 'lass_pipe.barrier' has no lowering; expected the ops lasscc-swizzle-smem leaves (the arith ops lasscc emits, scf.for/scf.if, lass_nv, lass_smem; run the earlier passes first){{$}}
// ERR-INDEX: {{^.*}}Inputs/lasscc-lower-to-llvm-index-loop.mlir.in:6:3: error: expected an integer loop variable, got index{{$}}

// Element types: the NVVM intrinsics of each mma.sync, cvt.rna.tf32 and cvt.rni.s32, and f16
// accumulators packed into <2 x f16> pairs:
// RUN: %lasscc opt -p lasscc-tile-threadblock,lasscc-pipeline,lasscc-warp-mma,lasscc-swizzle-smem,lasscc-lower-to-llvm %S/Inputs/dtypes.mlir.in | filecheck %s --check-prefix=DT
// DT-LABEL: llvm.func @tf32(
// DT:         llvm.call_intrinsic "llvm.nvvm.f2tf32.rna"
// DT:         llvm.call_intrinsic "llvm.nvvm.mma.m16n8k8.row.col.tf32"
// DT-LABEL: llvm.func @int8(
// DT:         llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.satfinite.s8"
// DT:         llvm.call_intrinsic "llvm.nvvm.f2i.rn"
// DT-LABEL: llvm.func @f16acc(
// DT:         llvm.insertelement
// DT:         llvm.call_intrinsic "llvm.nvvm.mma.m16n8k16.row.col.f16.f16"
