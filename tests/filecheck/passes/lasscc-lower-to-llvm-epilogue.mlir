// lasscc-lower-to-llvm (passes/lower_to_llvm.py), the staged epilogue's ops (lasscc-warp-mma):
// `lass_nv.st_shared` -> one LLVM store of a <n x T> vector to the shared array, aligned to its
// size; `lass_nv.aligned` -> ptrtoint & (bytes - 1) == 0; `lass_nv.st_global_v4` -> a <4 x i32>
// store with alignment 16 at the element offset, branched around when the predicate is false.
//
// RUN: %lasscc opt -p lasscc-lower-to-llvm %s | filecheck %s
// Left alone: the same ops outside a kernel (no lass.kernel), see @not_a_kernel.
// Rejected: `lass_nv.aligned` with a byte count that is not a power of two (the op's verifier):
// RUN: not %lasscc opt -p lasscc-lower-to-llvm %S/Inputs/lasscc-lower-to-llvm-aligned-bad.mlir.in 2>&1 | filecheck %s --check-prefix=ERR
// ERR: {{^.*}}Inputs/lasscc-lower-to-llvm-aligned-bad.mlir.in:3:3: error: expected bytes a power of two, got 12{{$}}

// CHECK-LABEL: llvm.func @k(
// CHECK:         [[H:%[0-9]+]] = llvm.fptrunc %alpha : f32 to f16
// CHECK:         [[V0:%[0-9]+]] = llvm.insertelement [[H]], {{%[0-9]+}}[{{%[0-9]+}} : i32] : vector<2xf16>
// CHECK:         [[V:%[0-9]+]] = llvm.insertelement [[H]], [[V0]][{{%[0-9]+}} : i32] : vector<2xf16>
// CHECK-NEXT:    [[SP:%[0-9]+]] = llvm.getelementptr {{%[0-9]+}}[{{%[0-9]+}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.store [[V]], [[SP]] {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
// CHECK:         [[I:%[0-9]+]] = llvm.ptrtoint %D : !llvm.ptr<1> to i64
// CHECK-NEXT:    [[C15:%[0-9]+]] = llvm.mlir.constant(15) : i64
// CHECK-NEXT:    [[LOW:%[0-9]+]] = llvm.and [[I]], [[C15]] : i64
// CHECK-NEXT:    [[C0:%[0-9]+]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    [[OK:%[0-9]+]] = llvm.icmp "eq" [[LOW]], [[C0]] : i64
// CHECK-NEXT:    llvm.cond_br [[OK]], ^[[ST:bb[0-9]+]], ^[[MERGE:bb[0-9]+]]
// CHECK-NEXT:  ^[[ST]]:
// CHECK-COUNT-4: llvm.insertelement
// CHECK:         [[GP:%[0-9]+]] = llvm.getelementptr %D[{{%[0-9]+}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// CHECK-NEXT:    llvm.store {{%[0-9]+}}, [[GP]] {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK-NEXT:    llvm.br ^[[MERGE]]
// CHECK-NEXT:  ^[[MERGE]]:
// CHECK-NEXT:    llvm.return
// CHECK-LABEL: func.func @not_a_kernel(
// CHECK-NEXT:    lass_nv.st_shared %t, %x, %x : f16, f16
// CHECK-NEXT:    %ok = lass_nv.aligned %{{D[_0-9]*}} {bytes = 16 : i64} : memref<?x?xf16>

func.func @k(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf16>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32)
    attributes {lass.kernel = #lass.kernel<config = {threadblock = [64, 32, 32], warp = [32, 32, 32], stages = 3}>} {
  %t = lass_nv.thread_id
  %x = arith.truncf %alpha : f32 to f16
  lass_nv.st_shared %t, %x, %x : f16, f16
  %r0, %r1, %r2, %r3 = lass_nv.ld_shared %t x 4
  %ok = lass_nv.aligned %D {bytes = 16 : i64} : memref<?x?xf16>
  lass_nv.st_global_v4 %D[%t], %r0, %r1, %r2, %r3 if %ok : memref<?x?xf16>
  func.return
}

func.func @not_a_kernel(%D: memref<?x?xf16>, %t: i32, %x: f16) -> i1 {
  lass_nv.st_shared %t, %x, %x : f16, f16
  %ok = lass_nv.aligned %D {bytes = 16 : i64} : memref<?x?xf16>
  func.return %ok : i1
}
