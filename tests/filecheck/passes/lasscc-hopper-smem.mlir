// lasscc-hopper-smem (passes/hopper_smem.py): the TMA ring and warpgroup MMA of a wgmma kernel ->
// sm_90a instructions.  Config 64x16x32 f16, 2 stages: BK rows of 64 bytes = the 64B swizzle;
// tensor maps of A (64 x 32 box) and B (16 x 32) appended to the parameters; full barriers at
// bytes 10240 + 8 s (1 arrival), empty ones at 10256 + 8 s (4 arrivals: lane 0 of each consumer
// warp releases a slot, resources.empty_barrier_arrivals); each lass_wg.mma one
// wgmma m64n16k16 with descriptors of the slots at their .shared addresses.
//
// RUN: %lasscc opt -p lasscc-hopper-smem %s -o %t.once.mlir
// RUN: filecheck %s --input-file %t.once.mlir
// RUN: xdsl-opt -p lasscc-hopper-smem %s | xdsl-opt -p cse,dce | filecheck %s
//
// Left alone once applied: a second run changes nothing.
// RUN: %lasscc opt -p lasscc-hopper-smem %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
//
// An accumulator chain's lass_wg.mma (`b_row = 8`, config instruction = [64, 8, 16] of BN = 16): its
// B descriptor starts 8 rows (8 x 64 bytes) into the slot, each wgmma m64n8 on its own 4 values.
// RUN: %lasscc opt -p lasscc-warpgroup-mma,lasscc-hopper-smem %S/Inputs/lasscc-warpgroup-mma-chains.mlir.in | filecheck %s --check-prefix=CHAIN
//
// Rejected: the pipeline level (lass_pipe.mma: lasscc-warpgroup-mma not applied yet).
// RUN: not %lasscc opt -p lasscc-hopper-smem %S/Inputs/lasscc-hopper-smem-not-warpgroup-level.mlir.in 2>&1 | filecheck %s --check-prefix=ERR

// CHAIN:      lass_nv.wgmma_fence
// CHAIN:      lass_nv.shared_address
// CHAIN:      [[BB:%[0-9]+]] = lass_nv.shared_address
// CHAIN:      lass_nv.wgmma_mma_async a([[A:%[0-9]+]]) b({{%[0-9]+}}) c({{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}) scale_d {{%[0-9]+}} {n = 8 : i64} : f32
// CHAIN-NEXT: [[OFF:%[0-9]+]] = arith.muli {{%[0-9]+}}, {{%[0-9]+}} : i32
// CHAIN-NEXT: arith.addi [[BB]], [[OFF]] : i32
// CHAIN:      lass_nv.wgmma_mma_async a([[A]]) b({{%[0-9]+}}) c({{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}) scale_d {{%[0-9]+}} {n = 8 : i64} : f32

// CHECK-LABEL: func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32, %tmap_A: !lass_nv.tensor_map<64x32xf16, swizzle_64b>, %tmap_B: !lass_nv.tensor_map<16x32xf16, swizzle_64b>)
// CHECK-SAME:    nvvm.maxntid = array<i32: 128, 1, 1>
// CHECK:         %lane = arith.andi %tid,
// CHECK:         [[WARPS:%[0-9]+]] = arith.constant 4 : i32
// CHECK:         scf.if
// CHECK:           lass_nv.mbarrier_init
// CHECK:           lass_nv.mbarrier_init {{%[0-9]+}}, [[WARPS]]
// CHECK:           lass_nv.fence_mbarrier_init
// CHECK:         lass_nv.bar_sync
// CHECK:         lass_nv.mbarrier_wait_parity
// CHECK:         lass_nv.mbarrier_arrive_expect_tx
// CHECK:         lass_nv.tma_load_2d %tmap_A[{{%[0-9]+}}, %m0], {{%[0-9]+}}, {{%[0-9]+}} : !lass_nv.tensor_map<64x32xf16, swizzle_64b>
// CHECK:         lass_nv.tma_load_2d %tmap_B[{{%[0-9]+}}, %n0], {{%[0-9]+}}, {{%[0-9]+}} : !lass_nv.tensor_map<16x32xf16, swizzle_64b>
// CHECK:         scf.for %kt =
// CHECK:           lass_nv.mbarrier_wait_parity {{%[0-9]+}}, %phase
// CHECK-NEXT:      lass_nv.wgmma_fence
// CHECK:           lass_nv.shared_address
// CHECK:           lass_nv.wgmma_mma_async a({{%[0-9]+}}) b({{%[0-9]+}}) c({{.*}}) scale_d {{%[0-9]+}} {n = 16 : i64} : f32
// CHECK:           lass_nv.wgmma_mma_async
// CHECK-NEXT:      lass_nv.wgmma_commit_group
// CHECK-NEXT:      lass_nv.wgmma_wait_group {pending = 0 : i64}
// CHECK:           [[LANE0:%[0-9]+]] = arith.cmpi eq, %lane,
// CHECK-NEXT:      [[REL:%[0-9]+]] = arith.andi {{%[0-9]+}}, [[LANE0]] : i1
// CHECK-NEXT:      scf.if [[REL]]
// CHECK:           lass_nv.mbarrier_arrive
// CHECK:         lass_nv.wgmma_wait_group {pending = 0 : i64}
// CHECK-NOT:     lass_pipe.
// CHECK-NOT:     lass_wg.
// CHECK:         func.return

// ERR: lasscc-hopper-smem-not-warpgroup-level.mlir.in:{{[0-9]+}}:{{[0-9]+}}: error: expected lass_wg ops (run lasscc-warpgroup-mma first), got lass_pipe.mma

builtin.module {
  func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32) attributes {lass.kernel = #lass.kernel<ab = f16, acc = f32, d = f32, layouts = [row, col, row], alpha = 1.0, beta = 0.0, config = {threadblock = [64, 16, 32], warp = [64, 16, 32], instruction = [64, 16, 16], stages = 2, raster = 8, prefetch = 0, mma = "wgmma"}>} {
    %tid = lass_nv.thread_id
    %0 = arith.constant 7 : i32
    %1 = arith.shrui %tid, %0 : i32
    %2 = arith.constant 64 : i32
    %wg_m0 = arith.muli %1, %2 : i32
    %3 = arith.constant 31 : i32
    %lane = arith.andi %tid, %3 : i32
    %4 = arith.constant 5 : i32
    %warp = arith.shrui %tid, %4 : i32
    %5 = arith.constant 4 : i32
    %6 = arith.remui %warp, %5 : i32
    %7 = arith.divui %warp, %5 : i32
    %8 = arith.constant 16 : i32
    %warp_m0 = arith.muli %6, %8 : i32
    %warp_n0 = arith.muli %7, %8 : i32
    %9 = lass_nv.block_id x
    %10 = arith.constant 63 : i32
    %11 = arith.addi %M, %10 : i32
    %12 = arith.divui %11, %2 : i32
    %13 = arith.constant 15 : i32
    %14 = arith.addi %N, %13 : i32
    %15 = arith.divui %14, %8 : i32
    %16 = arith.constant 8 : i32
    %17 = arith.muli %15, %16 : i32
    %18 = arith.divui %9, %17 : i32
    %19 = arith.muli %18, %16 : i32
    %20 = arith.subi %12, %19 : i32
    %21 = arith.minui %20, %16 : i32
    %22 = arith.remui %9, %17 : i32
    %23 = arith.remui %22, %21 : i32
    %24 = arith.addi %19, %23 : i32
    %25 = arith.divui %22, %21 : i32
    %m0 = arith.muli %24, %2 : i32
    %n0 = arith.muli %25, %8 : i32
    %26 = arith.constant 0.000000e+00 : f32
    %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x64x32xf16>
    %ring_b = lass_pipe.ring {offset = 8192 : i64} : !lass_pipe.ring<2x16x32xf16>
    %bars = lass_pipe.tma_pipeline {offset = 10240 : i64, arrivals = 128 : i64} : !lass_pipe.barriers<2>
    %27 = arith.addi %K, %3 : i32
    %28 = arith.constant 32 : i32
    %k_tiles = arith.divui %27, %28 : i32
    %29 = arith.constant 0 : i32
    %30 = arith.cmpi ult, %29, %k_tiles : i32
    %31 = arith.constant 2 : i32
    %32 = arith.remui %29, %31 : i32
    %33 = arith.divui %29, %31 : i32
    %34 = arith.remui %33, %31 : i32
    %35 = arith.muli %29, %28 : i32
    %36 = arith.cmpi eq, %tid, %29 : i32
    scf.if %36 {
      lass_pipe.producer_acquire %bars[%32], %34, %30 {tx = 5120 : i64} : !lass_pipe.barriers<2>
      lass_pipe.tma_load A %A[%m0, %35], %ring_a[%32], %bars, %30 : memref<?x?xf16>, !lass_pipe.ring<2x64x32xf16>, !lass_pipe.barriers<2>
      lass_pipe.tma_load B %B[%n0, %35], %ring_b[%32], %bars, %30 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<2x16x32xf16>, !lass_pipe.barriers<2>
    }
    %37 = arith.constant 1 : i32
    %38, %39, %40, %41, %42, %43, %44, %45 = scf.for %kt = %29 to %k_tiles step %37 iter_args(%46 = %26, %47 = %26, %48 = %26, %49 = %26, %50 = %26, %51 = %26, %52 = %26, %53 = %26) -> (f32, f32, f32, f32, f32, f32, f32, f32) : i32 {
      %slot = arith.remui %kt, %31 : i32
      %54 = arith.divui %kt, %31 : i32
      %phase = arith.remui %54, %31 : i32
      lass_pipe.consumer_wait %bars[%slot], %phase : !lass_pipe.barriers<2>
      lass_wg.fence
      %55, %56, %57, %58, %59, %60, %61, %62 = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 0 acc(%46, %47, %48, %49, %50, %51, %52, %53) : !lass_pipe.ring<2x64x32xf16>, !lass_pipe.ring<2x16x32xf16>, f32
      %63, %64, %65, %66, %67, %68, %69, %70 = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 16 acc(%55, %56, %57, %58, %59, %60, %61, %62) : !lass_pipe.ring<2x64x32xf16>, !lass_pipe.ring<2x16x32xf16>, f32
      lass_wg.commit
      lass_wg.wait {pending = 0 : i64}
      %71 = arith.addi %kt, %37 : i32
      %72 = arith.remui %71, %31 : i32
      %73 = arith.cmpi ult, %29, %kt : i32
      lass_pipe.consumer_release %bars[%72], %73 : !lass_pipe.barriers<2>
      %74 = arith.cmpi ult, %71, %k_tiles : i32
      %75 = arith.remui %71, %31 : i32
      %76 = arith.divui %71, %31 : i32
      %77 = arith.remui %76, %31 : i32
      %78 = arith.muli %71, %28 : i32
      scf.if %36 {
        lass_pipe.producer_acquire %bars[%75], %77, %74 {tx = 5120 : i64} : !lass_pipe.barriers<2>
        lass_pipe.tma_load A %A[%m0, %78], %ring_a[%75], %bars, %74 : memref<?x?xf16>, !lass_pipe.ring<2x64x32xf16>, !lass_pipe.barriers<2>
        lass_pipe.tma_load B %B[%n0, %78], %ring_b[%75], %bars, %74 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<2x16x32xf16>, !lass_pipe.barriers<2>
      }
      scf.yield %63, %64, %65, %66, %67, %68, %69, %70 : f32, f32, f32, f32, f32, f32, f32, f32
    }
    lass_wg.wait {pending = 0 : i64}
    %79 = arith.shrui %lane, %31 : i32
    %80 = arith.constant 3 : i32
    %81 = arith.andi %lane, %80 : i32
    %82 = arith.muli %81, %31 : i32
    %83 = arith.addi %m0, %warp_m0 : i32
    %84 = arith.addi %83, %79 : i32
    %85 = arith.addi %n0, %warp_n0 : i32
    %86 = arith.addi %85, %82 : i32
    %87 = arith.constant true
    %88 = arith.andi %N, %37 : i32
    %89 = arith.cmpi eq, %88, %29 : i32
    %90 = arith.cmpf one, %beta, %26 : f32
    %91 = arith.addi %m0, %2 : i32
    %92 = arith.cmpi ule, %91, %M : i32
    %93 = arith.addi %n0, %8 : i32
    %94 = arith.cmpi ule, %93, %N : i32
    %95 = arith.andi %92, %94 : i1
    %96 = arith.andi %95, %89 : i1
    scf.if %90 {
      scf.if %96 {
        %97 = arith.muli %84, %N : i32
        %98 = arith.addi %97, %86 : i32
        %99 = arith.mulf %alpha, %38 : f32
        %100 = arith.mulf %alpha, %39 : f32
        %101, %102 = lass_nv.ld_global %D[%98] x 2 if %87 : memref<?x?xf32>
        %103 = arith.mulf %beta, %101 : f32
        %104 = arith.addf %99, %103 : f32
        %105 = arith.mulf %beta, %102 : f32
        %106 = arith.addf %100, %105 : f32
        lass_nv.st_global %D[%98], %104, %106 if %87 : memref<?x?xf32>, f32, f32
        %107 = arith.addi %84, %16 : i32
        %108 = arith.muli %107, %N : i32
        %109 = arith.addi %108, %86 : i32
        %110 = arith.mulf %alpha, %40 : f32
        %111 = arith.mulf %alpha, %41 : f32
        %112, %113 = lass_nv.ld_global %D[%109] x 2 if %87 : memref<?x?xf32>
        %114 = arith.mulf %beta, %112 : f32
        %115 = arith.addf %110, %114 : f32
        %116 = arith.mulf %beta, %113 : f32
        %117 = arith.addf %111, %116 : f32
        lass_nv.st_global %D[%109], %115, %117 if %87 : memref<?x?xf32>, f32, f32
        %118 = arith.addi %86, %16 : i32
        %119 = arith.addi %97, %118 : i32
        %120 = arith.mulf %alpha, %42 : f32
        %121 = arith.mulf %alpha, %43 : f32
        %122, %123 = lass_nv.ld_global %D[%119] x 2 if %87 : memref<?x?xf32>
        %124 = arith.mulf %beta, %122 : f32
        %125 = arith.addf %120, %124 : f32
        %126 = arith.mulf %beta, %123 : f32
        %127 = arith.addf %121, %126 : f32
        lass_nv.st_global %D[%119], %125, %127 if %87 : memref<?x?xf32>, f32, f32
        %128 = arith.addi %108, %118 : i32
        %129 = arith.mulf %alpha, %44 : f32
        %130 = arith.mulf %alpha, %45 : f32
        %131, %132 = lass_nv.ld_global %D[%128] x 2 if %87 : memref<?x?xf32>
        %133 = arith.mulf %beta, %131 : f32
        %134 = arith.addf %129, %133 : f32
        %135 = arith.mulf %beta, %132 : f32
        %136 = arith.addf %130, %135 : f32
        lass_nv.st_global %D[%128], %134, %136 if %87 : memref<?x?xf32>, f32, f32
      } else {
        %137 = arith.cmpi ult, %84, %M : i32
        %138 = arith.cmpi ult, %86, %N : i32
        %139 = arith.andi %137, %138 : i1
        %140 = arith.addi %86, %37 : i32
        %141 = arith.cmpi ult, %140, %N : i32
        %142 = arith.andi %137, %141 : i1
        %143 = arith.andi %142, %89 : i1
        %144 = arith.xori %143, %87 : i1
        %145 = arith.andi %139, %144 : i1
        %146 = arith.andi %142, %144 : i1
        %147 = arith.muli %84, %N : i32
        %148 = arith.addi %147, %86 : i32
        %149 = arith.addi %148, %37 : i32
        %150 = arith.mulf %alpha, %38 : f32
        %151 = arith.mulf %alpha, %39 : f32
        %152, %153 = lass_nv.ld_global %D[%148] x 2 if %143 : memref<?x?xf32>
        %154 = lass_nv.ld_global %D[%148] x 1 if %145 : memref<?x?xf32>
        %155 = lass_nv.ld_global %D[%149] x 1 if %146 : memref<?x?xf32>
        %156 = arith.select %143, %152, %154 : f32
        %157 = arith.select %143, %153, %155 : f32
        %158 = arith.mulf %beta, %156 : f32
        %159 = arith.addf %150, %158 : f32
        %160 = arith.mulf %beta, %157 : f32
        %161 = arith.addf %151, %160 : f32
        lass_nv.st_global %D[%148], %159, %161 if %143 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%148], %159 if %145 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%149], %161 if %146 : memref<?x?xf32>, f32
        %162 = arith.addi %84, %16 : i32
        %163 = arith.cmpi ult, %162, %M : i32
        %164 = arith.andi %163, %138 : i1
        %165 = arith.andi %163, %141 : i1
        %166 = arith.andi %165, %89 : i1
        %167 = arith.xori %166, %87 : i1
        %168 = arith.andi %164, %167 : i1
        %169 = arith.andi %165, %167 : i1
        %170 = arith.muli %162, %N : i32
        %171 = arith.addi %170, %86 : i32
        %172 = arith.addi %171, %37 : i32
        %173 = arith.mulf %alpha, %40 : f32
        %174 = arith.mulf %alpha, %41 : f32
        %175, %176 = lass_nv.ld_global %D[%171] x 2 if %166 : memref<?x?xf32>
        %177 = lass_nv.ld_global %D[%171] x 1 if %168 : memref<?x?xf32>
        %178 = lass_nv.ld_global %D[%172] x 1 if %169 : memref<?x?xf32>
        %179 = arith.select %166, %175, %177 : f32
        %180 = arith.select %166, %176, %178 : f32
        %181 = arith.mulf %beta, %179 : f32
        %182 = arith.addf %173, %181 : f32
        %183 = arith.mulf %beta, %180 : f32
        %184 = arith.addf %174, %183 : f32
        lass_nv.st_global %D[%171], %182, %184 if %166 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%171], %182 if %168 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%172], %184 if %169 : memref<?x?xf32>, f32
        %185 = arith.addi %86, %16 : i32
        %186 = arith.cmpi ult, %185, %N : i32
        %187 = arith.andi %137, %186 : i1
        %188 = arith.addi %185, %37 : i32
        %189 = arith.cmpi ult, %188, %N : i32
        %190 = arith.andi %137, %189 : i1
        %191 = arith.andi %190, %89 : i1
        %192 = arith.xori %191, %87 : i1
        %193 = arith.andi %187, %192 : i1
        %194 = arith.andi %190, %192 : i1
        %195 = arith.addi %147, %185 : i32
        %196 = arith.addi %195, %37 : i32
        %197 = arith.mulf %alpha, %42 : f32
        %198 = arith.mulf %alpha, %43 : f32
        %199, %200 = lass_nv.ld_global %D[%195] x 2 if %191 : memref<?x?xf32>
        %201 = lass_nv.ld_global %D[%195] x 1 if %193 : memref<?x?xf32>
        %202 = lass_nv.ld_global %D[%196] x 1 if %194 : memref<?x?xf32>
        %203 = arith.select %191, %199, %201 : f32
        %204 = arith.select %191, %200, %202 : f32
        %205 = arith.mulf %beta, %203 : f32
        %206 = arith.addf %197, %205 : f32
        %207 = arith.mulf %beta, %204 : f32
        %208 = arith.addf %198, %207 : f32
        lass_nv.st_global %D[%195], %206, %208 if %191 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%195], %206 if %193 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%196], %208 if %194 : memref<?x?xf32>, f32
        %209 = arith.andi %163, %186 : i1
        %210 = arith.andi %163, %189 : i1
        %211 = arith.andi %210, %89 : i1
        %212 = arith.xori %211, %87 : i1
        %213 = arith.andi %209, %212 : i1
        %214 = arith.andi %210, %212 : i1
        %215 = arith.addi %170, %185 : i32
        %216 = arith.addi %215, %37 : i32
        %217 = arith.mulf %alpha, %44 : f32
        %218 = arith.mulf %alpha, %45 : f32
        %219, %220 = lass_nv.ld_global %D[%215] x 2 if %211 : memref<?x?xf32>
        %221 = lass_nv.ld_global %D[%215] x 1 if %213 : memref<?x?xf32>
        %222 = lass_nv.ld_global %D[%216] x 1 if %214 : memref<?x?xf32>
        %223 = arith.select %211, %219, %221 : f32
        %224 = arith.select %211, %220, %222 : f32
        %225 = arith.mulf %beta, %223 : f32
        %226 = arith.addf %217, %225 : f32
        %227 = arith.mulf %beta, %224 : f32
        %228 = arith.addf %218, %227 : f32
        lass_nv.st_global %D[%215], %226, %228 if %211 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%215], %226 if %213 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%216], %228 if %214 : memref<?x?xf32>, f32
      }
    } else {
      scf.if %96 {
        %229 = arith.muli %84, %N : i32
        %230 = arith.addi %229, %86 : i32
        %231 = arith.mulf %alpha, %38 : f32
        %232 = arith.mulf %alpha, %39 : f32
        lass_nv.st_global %D[%230], %231, %232 if %87 : memref<?x?xf32>, f32, f32
        %233 = arith.addi %84, %16 : i32
        %234 = arith.muli %233, %N : i32
        %235 = arith.addi %234, %86 : i32
        %236 = arith.mulf %alpha, %40 : f32
        %237 = arith.mulf %alpha, %41 : f32
        lass_nv.st_global %D[%235], %236, %237 if %87 : memref<?x?xf32>, f32, f32
        %238 = arith.addi %86, %16 : i32
        %239 = arith.addi %229, %238 : i32
        %240 = arith.mulf %alpha, %42 : f32
        %241 = arith.mulf %alpha, %43 : f32
        lass_nv.st_global %D[%239], %240, %241 if %87 : memref<?x?xf32>, f32, f32
        %242 = arith.addi %234, %238 : i32
        %243 = arith.mulf %alpha, %44 : f32
        %244 = arith.mulf %alpha, %45 : f32
        lass_nv.st_global %D[%242], %243, %244 if %87 : memref<?x?xf32>, f32, f32
      } else {
        %245 = arith.cmpi ult, %84, %M : i32
        %246 = arith.cmpi ult, %86, %N : i32
        %247 = arith.andi %245, %246 : i1
        %248 = arith.addi %86, %37 : i32
        %249 = arith.cmpi ult, %248, %N : i32
        %250 = arith.andi %245, %249 : i1
        %251 = arith.andi %250, %89 : i1
        %252 = arith.xori %251, %87 : i1
        %253 = arith.andi %247, %252 : i1
        %254 = arith.andi %250, %252 : i1
        %255 = arith.muli %84, %N : i32
        %256 = arith.addi %255, %86 : i32
        %257 = arith.addi %256, %37 : i32
        %258 = arith.mulf %alpha, %38 : f32
        %259 = arith.mulf %alpha, %39 : f32
        lass_nv.st_global %D[%256], %258, %259 if %251 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%256], %258 if %253 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%257], %259 if %254 : memref<?x?xf32>, f32
        %260 = arith.addi %84, %16 : i32
        %261 = arith.cmpi ult, %260, %M : i32
        %262 = arith.andi %261, %246 : i1
        %263 = arith.andi %261, %249 : i1
        %264 = arith.andi %263, %89 : i1
        %265 = arith.xori %264, %87 : i1
        %266 = arith.andi %262, %265 : i1
        %267 = arith.andi %263, %265 : i1
        %268 = arith.muli %260, %N : i32
        %269 = arith.addi %268, %86 : i32
        %270 = arith.addi %269, %37 : i32
        %271 = arith.mulf %alpha, %40 : f32
        %272 = arith.mulf %alpha, %41 : f32
        lass_nv.st_global %D[%269], %271, %272 if %264 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%269], %271 if %266 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%270], %272 if %267 : memref<?x?xf32>, f32
        %273 = arith.addi %86, %16 : i32
        %274 = arith.cmpi ult, %273, %N : i32
        %275 = arith.andi %245, %274 : i1
        %276 = arith.addi %273, %37 : i32
        %277 = arith.cmpi ult, %276, %N : i32
        %278 = arith.andi %245, %277 : i1
        %279 = arith.andi %278, %89 : i1
        %280 = arith.xori %279, %87 : i1
        %281 = arith.andi %275, %280 : i1
        %282 = arith.andi %278, %280 : i1
        %283 = arith.addi %255, %273 : i32
        %284 = arith.addi %283, %37 : i32
        %285 = arith.mulf %alpha, %42 : f32
        %286 = arith.mulf %alpha, %43 : f32
        lass_nv.st_global %D[%283], %285, %286 if %279 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%283], %285 if %281 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%284], %286 if %282 : memref<?x?xf32>, f32
        %287 = arith.andi %261, %274 : i1
        %288 = arith.andi %261, %277 : i1
        %289 = arith.andi %288, %89 : i1
        %290 = arith.xori %289, %87 : i1
        %291 = arith.andi %287, %290 : i1
        %292 = arith.andi %288, %290 : i1
        %293 = arith.addi %268, %273 : i32
        %294 = arith.addi %293, %37 : i32
        %295 = arith.mulf %alpha, %44 : f32
        %296 = arith.mulf %alpha, %45 : f32
        lass_nv.st_global %D[%293], %295, %296 if %289 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%293], %295 if %291 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%294], %296 if %292 : memref<?x?xf32>, f32
      }
    }
    func.return
  }
}
