// A fused epilogue with split-K, stream-K and a batched GEMM (lasscc-tile-threadblock; issue 18):
// the region runs once per element, on the fully reduced value.
// Serial split-K: the last partition's epilogue applies the region (gated on a flag, the others
// store raw partial sums); parallel split-K: the reduction kernel applies it (the GEMM kernel's
// partial sums stay raw); stream-K: not gated, the finisher holds the full sum (the others store
// workspace partials).
// RUN: %lasscc opt -p lasscc-tile-threadblock %s -o %t.once.mlir
// RUN: filecheck %s --check-prefix=SER --input-file %t.once.mlir
// RUN: %lasscc opt -p lasscc-tile-threadblock --split-k-mode parallel %s | filecheck %s --check-prefix=PAR
// RUN: %lasscc opt -p lasscc-tile-threadblock --split-k 1 --split-k-mode streamk %s | filecheck %s --check-prefix=SK
// Batched: a per-batch [batch, N] bias is viewed at the batch, a shared [m] scale taken as it is.
// RUN: %lasscc opt -p lasscc-tile-threadblock %S/Inputs/lasscc-tile-threadblock-epilogue-batched.mlir.in | filecheck %s --check-prefix=BAT
//
// Left alone: without a split the region is not gated; a second run changes nothing.
// RUN: %lasscc opt -p lasscc-tile-threadblock --split-k 1 %s | filecheck %s --check-prefix=ONE
// RUN: %lasscc opt -p lasscc-tile-threadblock %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
//
// Rejected, located: an i8 D with serial split-K (its partial sums would saturate in D).
// RUN: not %lasscc opt -p lasscc-tile-threadblock %S/Inputs/lasscc-tile-threadblock-epilogue-split-i8.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-I8

func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf16>, %bias: memref<?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.0 : f32,
             config = {threadblock = [64, 64, 32], warp = [32, 32, 32], stages = 3, split_k = 3}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>)
      epilogue(%bias [n] : memref<?xf32>) {
  ^bb0(%v: f32, %bj: f32):
    %0 = arith.addf %v, %bj : f32
    %c0 = arith.constant 0.0 : f32
    %1 = arith.maximumf %0, %c0 : f32
    lass.yield %1 : f32
  }
  func.return
}

// SER-LABEL: func.func @gemm(
// SER-SAME:    %alpha: f32, %beta: f32, %W: memref<?xi32>, %bias: memref<?xf32>)
// SER-SAME:    split_k = 3}, epilogue = [n f32]>}
// SER:         lass_tb.semaphore_wait %W[%sem], %part : memref<?xi32>
// SER:         arith.select {{%[0-9]+}}, %beta, {{%[0-9]+}} : f32
// SER-NEXT:    {{%[0-9]+}} = arith.constant 2 : i32
// SER-NEXT:    [[LAST:%[0-9]+]] = arith.cmpi eq, %part, {{%[0-9]+}} : i32
// SER:         [[FLAG:%[0-9]+]] = arith.select [[LAST]], {{%[0-9]+}}, %c0 : f32
// SER-NEXT:    lass_tb.epilogue {{%[0-9]+}}, %D[%m0, %n0], %alpha, {{%[0-9]+}} : !lass_tb.acc<64x64xf32>, memref<?x?xf16> epilogue(%bias [n], [[FLAG]] : memref<?xf32>, f32) {
// SER-NEXT:    ^bb0(%v: f32, %bj: f32, %last: f32):
// SER-NEXT:      [[X:%[0-9]+]] = arith.addf %v, %bj : f32
// SER-NEXT:      [[Y:%[0-9]+]] = arith.maximumf [[X]], %c0 : f32
// SER-NEXT:      [[ON:%[0-9]+]] = arith.cmpf one, %last, %c0 : f32
// SER-NEXT:      [[G:%[0-9]+]] = arith.select [[ON]], [[Y]], %v : f32
// SER-NEXT:      lass.yield [[G]] : f32
// SER:         lass_tb.semaphore_release %W[%sem]
// SER-NOT:     lass_tb.epilogue

// PAR-LABEL: func.func @gemm(
// PAR-SAME:    %W: memref<?x?x?xf32>, %bias: memref<?xf32>)
// PAR:         lass_tb.epilogue {{%[0-9]+}}, %W_part[%m0, %n0], {{%[0-9a-z_]+}}, {{%[0-9a-z_]+}} : !lass_tb.acc<64x64xf32>, memref<?x?xf32>
// PAR-NOT:     epilogue(
// PAR:       func.func @gemm_splitk_reduce(
// PAR-SAME:    %W: memref<?x?x?xf32>, %bias: memref<?xf32>)
// PAR-SAME:    lass.splitk_reduce = "gemm"
// PAR:         [[SUM:%[0-9]+]] = scf.for %p
// PAR:         [[V:%[0-9]+]] = arith.addf {{%[0-9]+}}, {{%[0-9]+}} : f32
// PAR-NEXT:    %col = arith.remui %e, %N : i32
// PAR-NEXT:    [[B:%[0-9]+]] = lass_nv.ld_global %bias[%col] x 1 if {{%[0-9]+}} : memref<?xf32>
// PAR-NEXT:    [[X:%[0-9]+]] = arith.addf [[V]], [[B]] : f32
// PAR-NEXT:    [[Y:%[0-9]+]] = arith.maximumf [[X]], %c0 : f32
// PAR-NEXT:    [[H:%[0-9]+]] = arith.truncf [[Y]] : f32 to f16
// PAR-NEXT:    lass_nv.st_global %D[%e], [[H]]

// SK-LABEL: func.func @gemm(
// SK-SAME:    %W: memref<?xi32>, %bias: memref<?xf32>)
// SK:           lass_tb.partial_add
// SK:           lass_tb.epilogue %sum, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x64xf32>, memref<?x?xf16> epilogue(%bias [n] : memref<?xf32>) {
// SK-NOT:         %last
// SK:           } else {
// SK-NEXT:        lass_tb.partial_store

// BAT-LABEL: func.func @gemm(
// BAT-SAME:    %bias: memref<?x?xf32>, %s: memref<?xf16>)
// BAT-SAME:    batched
// BAT-SAME:    epilogue = [bn f32, m f16]>}
// BAT:         %bias_b = lass_tb.batch_view %bias[%batch], %N : memref<?x?xf32> -> memref<?xf32>
// BAT-NOT:     batch_view %s
// BAT:         lass_tb.epilogue {{%[0-9]+}}, %D_b[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x64xf32>, memref<?x?xf32> epilogue(%bias_b [n], %s [m] : memref<?xf32>, memref<?xf16>) {

// ONE-LABEL: func.func @gemm(
// ONE-SAME:    %beta: f32, %bias: memref<?xf32>)
// ONE:         lass_tb.epilogue {{.*}} epilogue(%bias [n] : memref<?xf32>) {
// ONE-NOT:     %last

// ERR-I8: {{^.*}}Inputs/lasscc-tile-threadblock-epilogue-split-i8.mlir.in:3:3: error: config: expected split_k_mode = "parallel" for an i8 D with a fused epilogue and split_k_mode = "serial" (its partial sums are stored in D, which would round and saturate them), got split_k = 2
