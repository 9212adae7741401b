// Serial split-K (lasscc.splitk, config `split_k`) through the passes that build it:
// lasscc-tile-threadblock (the K partition, the semaphore wait / release around the epilogue, the
// workspace parameter W), lasscc-pipeline (the pipeline over [k_begin, k_end)), lasscc-warp-mma
// (%ctaid.y, thread 0's spin with ld.acquire and bar.sync, bar.sync and thread 0's release) and
// lasscc-lower-to-llvm (the inline PTX).
// RUN: %lasscc opt -p lasscc-tile-threadblock %s -o %t.once.mlir
// RUN: filecheck %s --check-prefix=TB --input-file %t.once.mlir
// RUN: %lasscc opt -p lasscc-tile-threadblock,lasscc-pipeline %s | filecheck %s --check-prefix=PIPE
// RUN: %lasscc opt -p lasscc-tile-threadblock,lasscc-pipeline,lasscc-warp-mma %s | filecheck %s --check-prefix=WARP
// RUN: %lasscc opt -p lasscc-tile-threadblock,lasscc-pipeline,lasscc-warp-mma,lasscc-swizzle-smem,lasscc-lower-to-llvm %s | filecheck %s --check-prefix=LLVM
//
// Parallel split-K: partial sums to the workspace, and the reduction kernel beside the GEMM kernel.
// RUN: %lasscc opt -p lasscc-tile-threadblock --split-k-mode parallel %s | filecheck %s --check-prefix=PAR
// RUN: %lasscc opt -p lasscc-tile-threadblock,lasscc-pipeline,lasscc-warp-mma,lasscc-swizzle-smem,lasscc-lower-to-llvm --split-k-mode parallel %s | filecheck %s --check-prefix=PAR-LLVM
//
// Left alone: a second run of lasscc-tile-threadblock changes nothing; split_k = 1 is the
// unsplit kernel (no W, no semaphore).
// RUN: %lasscc opt -p lasscc-tile-threadblock %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: %lasscc opt -p lasscc-tile-threadblock --split-k 1 %s | filecheck %s --check-prefix=ONE
//
// Rejected, located: a split count below 1 in the config, and the option's own error.
// RUN: not %lasscc opt -p lasscc-tile-threadblock %S/Inputs/lasscc-tile-threadblock-split-k-zero.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-ZERO
// RUN: not %lasscc opt -p lasscc-tile-threadblock --split-k 0 %s 2>&1 | filecheck %s --check-prefix=ERR-OPT
// RUN: not %lasscc opt -p lasscc-tile-threadblock --split-k 1 --split-k-mode parallel %s 2>&1 | filecheck %s --check-prefix=ERR-PAR

func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.5 : f32,
             config = {threadblock = [64, 64, 32], warp = [32, 32, 32], stages = 3, split_k = 3}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}

// TB-LABEL: func.func @gemm(
// TB-SAME:    %alpha: f32, %beta: f32, %W: memref<?xi32>)
// TB-SAME:    split_k = 3}>}
// TB:         %part, %k_begin, %k_end = lass_tb.k_partition %K {split = 3 : i64, tile_k = 32 : i64}
// TB-NEXT:    [[R:%[0-9]+]] = scf.for %k0 = %k_begin to %k_end step
// TB:         %sem = arith.addi
// TB-NEXT:    lass_tb.semaphore_wait %W[%sem], %part : memref<?xi32>
// TB:         [[FIRST:%[0-9]+]] = arith.cmpi eq, %part, [[C0:%[0-9]+]] : i32
// TB-NEXT:    {{%[0-9]+}} = arith.constant 1.000000e+00 : f32
// TB-NEXT:    [[BETA:%[0-9]+]] = arith.select [[FIRST]], %beta, {{%[0-9]+}} : f32
// TB-NEXT:    lass_tb.epilogue [[R]], %D[%m0, %n0], %alpha, [[BETA]]
// TB:         [[LAST:%[0-9]+]] = arith.cmpi eq, %part, {{%[0-9]+}} : i32
// TB:         [[NEXT:%[0-9]+]] = arith.select [[LAST]], [[C0]], {{%[0-9]+}} : i32
// TB-NEXT:    lass_tb.semaphore_release %W[%sem], [[NEXT]] : memref<?xi32>

// PIPE:       %part, %k_begin, %k_end = lass_tb.k_partition
// PIPE:       [[SPAN:%[0-9]+]] = arith.subi %k_end, %k_begin : i32
// PIPE:       %k_tiles = arith.divui
// PIPE:       [[K0:%[0-9]+]] = arith.addi %k_begin, {{%[0-9]+}} : i32
// PIPE-NEXT:  lass_pipe.copy_async A %A[%m0, [[K0]]]

// WARP:       %part = lass_nv.block_id y
// WARP:       %k_begin = arith.minui
// WARP:       %k_end = arith.minui {{%[0-9]+}}, %K : i32
// WARP:       [[T0:%[0-9]+]] = arith.cmpi eq, %tid, {{%[0-9]+}} : i32
// WARP-NEXT:  scf.if [[T0]] {
// WARP-NEXT:    lass_nv.spin_acquire %W[%sem], %part : memref<?xi32>
// WARP-NEXT:  }
// WARP-NEXT:  lass_nv.bar_sync
// WARP:       lass_nv.bar_sync
// WARP-NEXT:  scf.if [[T0]] {
// WARP-NEXT:    lass_nv.st_release %W[%sem], {{%[0-9]+}} : memref<?xi32>
// WARP-NEXT:  }
// WARP-NEXT:  func.return

// LLVM:       llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ctaid.y"
// LLVM:       llvm.inline_asm has_side_effects "ld.acquire.gpu.global.b32 $0, [$1];", "=r,l,~{memory}"
// LLVM:       llvm.inline_asm has_side_effects "st.release.gpu.global.b32 [$0], $1;", "l,r,~{memory}"

// ONE-LABEL:  func.func @gemm(
// ONE-SAME:     %alpha: f32, %beta: f32)
// ONE-NOT:      lass_tb.k_partition
// ONE-NOT:      semaphore

// ERR-ZERO: {{^.*}}Inputs/lasscc-tile-threadblock-split-k-zero.mlir.in:3:3: error: config: expected split_k an integer from 1 to 65535 (the K partitions, grid y; 1: no split), got 0
// ERR-OPT: option --split-k: expected split_k an integer from 1 to 65535 (the K partitions, grid y; 1: no split), got 0

// PAR-LABEL: func.func @gemm(
// PAR-SAME:    %W: memref<?x?x?xf32>)
// PAR-SAME:    split_k = 3, split_k_mode = "parallel"}>}
// PAR:         %W_part = lass_tb.batch_view %W[%part], {{%[0-9]+}} : memref<?x?x?xf32> -> memref<?x?xf32>
// PAR:         lass_tb.epilogue {{%[0-9]+}}, %W_part[%m0, %n0]
// PAR-NOT:     semaphore
// PAR-LABEL: func.func @gemm_splitk_reduce(
// PAR-SAME:    lass.splitk_reduce = "gemm"
// PAR:         scf.for %p = {{.*}} iter_args(%sum = {{.*}}) -> (f32)
// PAR:         lass_nv.st_global %D[%e]

// PAR-LLVM: llvm.func @gemm(
// PAR-LLVM: llvm.func @gemm_splitk_reduce(
// PAR-LLVM-SAME: lass.splitk_reduce = "gemm"

// ERR-PAR: option --split-k/--split-k-mode: config: expected split_k > 1 with split_k_mode = "parallel"
