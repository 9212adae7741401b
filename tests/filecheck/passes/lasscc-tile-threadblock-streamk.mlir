// Stream-K (lasscc.streamk, config `split_k_mode = "streamk"` / `"streamk-dp"` / `"streamk-tail"`) through the passes
// that build it: lasscc-tile-threadblock (the persistent CTA, the loop over its units with the
// schedule's tile / K range / segment, the workspace fix-up: a unit that does not finish its tile
// stores its partial to its CTA's slot and sets its flag; the finisher waits for its predecessors'
// flags, adds their partials in K order, resets the flags and runs the epilogue once, W),
// lasscc-pipeline (the pipeline over each unit's [k_begin, k_end)), lasscc-warp-mma (%ctaid.x of
// %nctaid.x, the spin / release of thread 0, the partials as 16-byte f32-bit accesses) and
// lasscc-lower-to-llvm (%nctaid.x, the f32 <-> i32 bitcasts).
// RUN: %lasscc opt -p lasscc-tile-threadblock %s -o %t.once.mlir
// RUN: filecheck %s --check-prefix=TB --input-file %t.once.mlir
// RUN: %lasscc opt -p lasscc-tile-threadblock,lasscc-pipeline %s | filecheck %s --check-prefix=PIPE
// RUN: %lasscc opt -p lasscc-tile-threadblock,lasscc-pipeline,lasscc-warp-mma %s | filecheck %s --check-prefix=WARP
// RUN: %lasscc opt -p lasscc-tile-threadblock,lasscc-pipeline,lasscc-warp-mma,lasscc-swizzle-smem,lasscc-lower-to-llvm %s | filecheck %s --check-prefix=LLVM
// RUN: %lasscc opt -p lasscc-tile-threadblock --split-k-mode streamk-dp %s | filecheck %s --check-prefix=DP
// RUN: %lasscc opt -p lasscc-tile-threadblock --split-k-mode streamk-tail %s | filecheck %s --check-prefix=TAIL
//
// Left alone: a second run of lasscc-tile-threadblock changes nothing; split_k_mode = serial is
// the unsplit kernel (no persistent CTA, no W).
// RUN: %lasscc opt -p lasscc-tile-threadblock %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: %lasscc opt -p lasscc-tile-threadblock --split-k-mode serial %s | filecheck %s --check-prefix=ONE
//
// Rejected, located: stream-K with a split count, a batched stream-K GEMM, an unknown mode; a
// partial op on a workspace that is not a 1-d i32 memref (the dialect's verifier).
// RUN: not %lasscc opt -p lasscc-tile-threadblock --split-k 2 %s 2>&1 | filecheck %s --check-prefix=ERR-SPLIT
// RUN: not %lasscc opt -p lasscc-tile-threadblock %S/Inputs/lasscc-tile-threadblock-streamk-batched.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-BATCH
// RUN: not %lasscc opt -p lasscc-tile-threadblock --split-k-mode streamy %s 2>&1 | filecheck %s --check-prefix=ERR-MODE
// RUN: not %lasscc opt %S/Inputs/lasscc-tile-threadblock-streamk-partial-f32.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-W

func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.5 : f32,
             config = {threadblock = [64, 64, 32], warp = [32, 32, 32], stages = 3, split_k_mode = "streamk"}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}

// TB-LABEL: func.func @gemm(
// TB-SAME:    %alpha: f32, %beta: f32, %W: memref<?xi32>)
// TB-SAME:    split_k_mode = "streamk"}>}
// TB:         %cta, %ctas = lass_tb.persistent_cta
// TB:         %tiles = arith.muli
// TB:         %k_tiles = arith.divui
// TB:         %units = arith.{{muli|addi}}
// TB:         scf.for %unit = {{%[0-9]+}} to %units step
// TB:           %tile = arith.{{[a-z]+}}
// TB:           %seg = arith.{{[a-z]+}}
// TB:           %m0 = arith.{{[a-z]+}}
// TB:           %n0 = arith.{{[a-z]+}}
// TB:           %k_begin = arith.{{[a-z]+}}
// TB:           %k_end = arith.minui {{%[0-9]+}}, %K : i32
// TB:           [[ACC:%[0-9]+]] = lass_tb.zero_acc
// TB-NEXT:      [[R:%[0-9]+]] = scf.for %k0 = %k_begin to %k_end step {{%[0-9]+}} iter_args(%acc = [[ACC]])
// TB:           %finisher = arith.cmpi eq, {{%[0-9]+}}, %k_tiles : i32
// TB-NEXT:      scf.if %finisher {
// TB-NEXT:        scf.for %j = {{%[0-9]+}} to %seg step
// TB:               %pred_cta = arith.addi {{%[0-9]+}}, %j : i32
// TB:               %flag = arith.addi {{%[0-9]+}}, %pred_cta : i32
// TB-NEXT:          lass_tb.semaphore_wait %W[%flag], [[SET:%[0-9]+]] : memref<?xi32>
// TB:             %sum = scf.for %j_1 = {{%[0-9]+}} to %seg step {{%[0-9]+}} iter_args([[S:%[0-9]+]] = [[R]])
// TB:               %pred_cta_1 = arith.addi {{%[0-9]+}}, %j_1 : i32
// TB-NEXT:          [[T:%[0-9]+]] = lass_tb.partial_add [[S]], %W[%pred_cta_1] : !lass_tb.acc<64x64xf32>, memref<?xi32> -> !lass_tb.acc<64x64xf32>
// TB-NEXT:          scf.yield [[T]]
// TB:             scf.for %j_2 = {{%[0-9]+}} to %seg step
// TB:               lass_tb.semaphore_release %W[%flag_1], [[ZERO:%[0-9]+]] : memref<?xi32>
// TB:             lass_tb.epilogue %sum, %D[%m0, %n0], %alpha, %beta
// TB-NEXT:      } else {
// TB-NEXT:        lass_tb.partial_store [[R]], %W[%cta] : !lass_tb.acc<64x64xf32>, memref<?xi32>
// TB-NEXT:        [[SLOT:%[0-9]+]] = arith.constant 4096 : i32
// TB-NEXT:        [[FL:%[0-9]+]] = arith.muli %ctas, [[SLOT]] : i32
// TB-NEXT:        %flag_2 = arith.addi [[FL]], %cta : i32
// TB-NEXT:        lass_tb.semaphore_release %W[%flag_2], [[SET]] : memref<?xi32>
// TB-NEXT:      }
// TB-NEXT:    }
// TB-NEXT:    func.return

// PIPE:       scf.for %unit
// PIPE:         [[SPAN:%[0-9]+]] = arith.subi %k_end, %k_begin : i32
// PIPE:         %k_tiles{{.*}} = arith.divui
// PIPE:         [[K0:%[0-9]+]] = arith.addi %k_begin, {{%[0-9]+}} : i32
// PIPE-NEXT:    lass_pipe.copy_async A %A[%m0, [[K0]]]

// WARP:       %cta = lass_nv.block_id x
// WARP-NEXT:  %ctas = lass_nv.grid_dim
// WARP:       scf.for %unit
// WARP:         [[C8:%[0-9]+]] = arith.constant 8 : i32
// WARP:         scf.if %finisher {
// WARP:           lass_nv.spin_acquire %W[%flag], {{%[0-9]+}} : memref<?xi32>
//                the partials rolled (passes/_rolled.py): one loop over the thread's 8 groups of
//                4 values (a 32 x 32 warp tile), the group's word offset loop-carried
// WARP:           %partial = arith.addi
// WARP:           scf.for %quad = {{%[0-9a-z]+}} to [[C8]] step {{%[0-9a-z]+}} iter_args(
// WARP-NEXT:        [[Q:%[0-9]+]] = arith.addi %partial, {{%[0-9]+}} : i32
// WARP-NEXT:        lass_nv.ld_global %W{{\[}}[[Q]]{{\]}} x 4 if {{%[0-9]+}} : memref<?xi32>
// WARP-NEXT:        arith.bitcast {{%[0-9]+}} : i32 to f32
// WARP-NEXT:        arith.addf
// WARP:             scf.yield
// WARP-NEXT:      } {lass.unroll_full}
// WARP:           lass_nv.st_release %W[%flag_1], {{%[0-9]+}} : memref<?xi32>
// WARP:         } else {
// WARP:           %partial_1 = arith.addi
// WARP:           scf.for %quad_1 =
// WARP-NEXT:        [[Q1:%[0-9]+]] = arith.addi %partial_1, {{%[0-9]+}} : i32
// WARP-NEXT:        arith.bitcast {{%[0-9]+}} : f32 to i32
// WARP:             lass_nv.st_global %W{{\[}}[[Q1]]{{\]}}, {{.*}} : memref<?xi32>, i32, i32, i32, i32
// WARP-NEXT:        scf.yield
// WARP-NEXT:      } {lass.unroll_full}
// WARP:           lass_nv.st_release %W[%flag_2], {{%[0-9]+}} : memref<?xi32>
// WARP-NOT:   lass_tb.

// LLVM:       llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ctaid.x"
// LLVM-NEXT:  llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.nctaid.x"
// LLVM:       llvm.inline_asm has_side_effects "ld.acquire.gpu.global.b32 $0, [$1];", "=r,l,~{memory}"
// LLVM:       llvm.inline_asm has_side_effects "st.release.gpu.global.b32 [$0], $1;", "l,r,~{memory}"
// LLVM:       llvm.bitcast {{%[0-9]+}} : f32 to i32

// the hybrid: the data-parallel tiles (every full wave but the last) before the stream-K ones
// DP:         split_k_mode = "streamk-dp"}>}
// DP:         %cta, %ctas = lass_tb.persistent_cta
// DP:         arith.remui %tiles, %ctas : i32
// DP:         scf.for %unit

// "streamk-tail": every full wave data-parallel ((T / G) x G tiles, no remainder test), the
// part-wave's iterations shared out
// TAIL:       split_k_mode = "streamk-tail"}>}
// TAIL:       %cta, %ctas = lass_tb.persistent_cta
// TAIL:       %tiles = arith.muli
// TAIL-NOT:   arith.remui %tiles, %ctas
// TAIL:       [[FULL:%[0-9]+]] = arith.divui %tiles, %ctas : i32
// TAIL-NEXT:  [[DPT:%[0-9]+]] = arith.muli [[FULL]], %ctas : i32
// TAIL-NEXT:  [[SKT:%[0-9]+]] = arith.subi %tiles, [[DPT]] : i32
// TAIL-NEXT:  arith.muli [[SKT]], %k_tiles : i32
// TAIL:       scf.for %unit

// ONE-LABEL:  func.func @gemm(
// ONE-SAME:     %alpha: f32, %beta: f32)
// ONE-NOT:      persistent_cta
// ONE-NOT:      semaphore

// ERR-SPLIT: option --split-k: config: expected split_k = 1 with split_k_mode = "streamk" (stream-K splits K by its own schedule), got split_k = 2
// ERR-BATCH: {{^.*}}Inputs/lasscc-tile-threadblock-streamk-batched.mlir.in:3:3: error: config: expected a 2-d GEMM with split_k_mode = "streamk" (stream-K: not batched)
// ERR-MODE: option --split-k-mode: expected one of serial, parallel, streamk, streamk-dp, streamk-tail, cluster, got 'streamy'
// ERR-W: error: expected a 1-d i32 memref (the stream-K workspace), got memref<?xf32>
