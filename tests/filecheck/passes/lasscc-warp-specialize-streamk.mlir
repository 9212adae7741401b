// lasscc-warp-specialize on a stream-K cooperative kernel (passes/warp_specialize.py, lasscc.streamk):
// the consumers (setmaxnreg inc) run the unit loop as lasscc-warpgroup-mma left it, less the producer
// blocks, their threads numbered %ctid = tid - 128 and their barriers the consumers' named barrier
// (the flags' waits, the unit-closing barrier); the producer (setmaxnreg dec) walks the same units
// in thread 0: the unit loop's coordinate ops cloned, one producer_acquire + tma_loads per k-tile,
// k-tiles numbered kt_base + kt as the consumers number them, the unit yielding kt_base + its
// k-tiles.  Config: 128x16x32 f16, f32 D, 2 stages, persistent = 1, split_k_mode = "streamk-dp"
// (the input: lasscc-warpgroup-mma's output).
//
// RUN: %lasscc opt -p lasscc-warp-specialize %s -o %t.once.mlir
// RUN: filecheck %s --input-file %t.once.mlir
//
// Left alone once applied: a second run changes nothing.
// RUN: %lasscc opt -p lasscc-warp-specialize %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
//
// Rejected: a 16-bit D, whose direct epilogue stages through the ring the producer refills.
// RUN: sed 's/d = f32, layouts/d = f16, layouts/' %s > %t.f16.mlir
// RUN: not %lasscc opt -p lasscc-warp-specialize %t.f16.mlir 2>&1 | filecheck %s --check-prefix=ERR

// CHECK-LABEL: func.func @gemm(
// CHECK:         %ctid = arith.subi %tid, {{%[0-9]+}} : i32
// CHECK:         %bars = lass_pipe.tma_pipeline
// CHECK:         lass_wg.warp_specialize {{%[0-9]+}} producer {
// CHECK-NEXT:      lass_wg.setmaxnreg dec 40
// CHECK:             {{%[0-9]+}} = scf.for %unit = {{%[0-9]+}} to %units step {{%[0-9]+}} iter_args(%kt_base = {{%[0-9]+}}) -> (i32) : i32 {
// CHECK:               %m0 = arith.muli
// CHECK:               %k_begin = arith.muli
// CHECK:               scf.for %kt = {{%[0-9]+}} to %k_tiles_1 step {{%[0-9]+}} : i32 {
// CHECK-NEXT:            [[G:%[0-9]+]] = arith.addi %kt_base, %kt : i32
// CHECK:                 lass_pipe.producer_acquire %bars[[[SLOT:%[0-9]+]]], {{%[0-9]+}}, {{%[0-9]+}} {tx = 9216 : i64}
// CHECK-NEXT:            lass_pipe.tma_load A %A[%m0, [[K0:%[0-9]+]]], %ring_a[[[SLOT]]]
// CHECK-NEXT:            lass_pipe.tma_load B %B[%n0, [[K0]]], %ring_b[[[SLOT]]]
// CHECK:               [[NEXT:%[0-9]+]] = arith.addi %kt_base, %k_tiles_1 : i32
// CHECK-NEXT:          scf.yield [[NEXT]] : i32
// CHECK:         } consumer {
// CHECK-NEXT:      lass_wg.setmaxnreg inc 232
// CHECK-NEXT:      {{%[0-9]+}} = scf.for %unit_1 = {{%[0-9]+}} to %units step {{%[0-9]+}} iter_args(%kt_base_1 = {{%[0-9]+}}) -> (i32) : i32 {
// CHECK-NOT:         lass_pipe.producer_acquire
// CHECK:             lass_pipe.consumer_wait
// CHECK:             lass_wg.wait {pending = 0 : i64}
// CHECK:             lass_nv.spin_acquire
// CHECK:             lass_wg.named_barrier {id = 1 : i64, threads = 256 : i64}
// CHECK-NOT:         lass_nv.bar_sync
// CHECK:             [[CNEXT:%[0-9]+]] = arith.addi %kt_base_1, %k_tiles_2 : i32
// CHECK-NEXT:        lass_wg.named_barrier {id = 1 : i64, threads = 256 : i64}
// CHECK-NEXT:        scf.yield [[CNEXT]] : i32

// ERR: error: split_k_mode = "streamk-dp" with schedule = "cooperative": the staged epilogue of a 16-bit D

builtin.module {
  func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32, %W: memref<?xi32>) attributes {lass.kernel = #lass.kernel<ab = f16, acc = f32, d = f32, layouts = [row, col, row], alpha = 1.0, beta = 0.0, config = {threadblock = [128, 16, 32], warp = [64, 16, 32], instruction = [64, 16, 16], stages = 2, raster = 8, prefetch = 0, split_k_mode = "streamk-dp", mma = "wgmma", schedule = "cooperative", persistent = 1}>} {
    %tid = lass_nv.thread_id
    %0 = arith.constant 7 : i32
    %1 = arith.shrui %tid, %0 : i32
    %2 = lass_nv.warp_broadcast %1
    %3 = arith.constant 64 : i32
    %wg_m0 = arith.muli %2, %3 : i32
    %4 = arith.constant 31 : i32
    %lane = arith.andi %tid, %4 : i32
    %5 = arith.constant 5 : i32
    %warp = arith.shrui %tid, %5 : i32
    %6 = arith.constant 8 : i32
    %7 = arith.remui %warp, %6 : i32
    %8 = arith.divui %warp, %6 : i32
    %9 = arith.constant 16 : i32
    %warp_m0 = arith.muli %7, %9 : i32
    %warp_n0 = arith.muli %8, %9 : i32
    %cta = lass_nv.block_id x
    %ctas = lass_nv.grid_dim
    %10 = arith.constant 127 : i32
    %11 = arith.addi %M, %10 : i32
    %12 = arith.constant 128 : i32
    %13 = arith.divui %11, %12 : i32
    %14 = arith.constant 15 : i32
    %15 = arith.addi %N, %14 : i32
    %16 = arith.divui %15, %9 : i32
    %tiles = arith.muli %13, %16 : i32
    %17 = arith.addi %K, %4 : i32
    %18 = arith.constant 32 : i32
    %k_tiles = arith.divui %17, %18 : i32
    %19 = arith.divui %tiles, %ctas : i32
    %20 = arith.remui %tiles, %ctas : i32
    %21 = arith.constant 1 : i32
    %22 = arith.minui %20, %21 : i32
    %23 = arith.minui %19, %22 : i32
    %24 = arith.subi %19, %23 : i32
    %25 = arith.muli %24, %ctas : i32
    %26 = arith.subi %tiles, %25 : i32
    %27 = arith.muli %26, %k_tiles : i32
    %28 = arith.divui %27, %ctas : i32
    %29 = arith.remui %27, %ctas : i32
    %30 = arith.muli %cta, %28 : i32
    %31 = arith.minui %cta, %29 : i32
    %32 = arith.addi %30, %31 : i32
    %33 = arith.addi %cta, %21 : i32
    %34 = arith.muli %33, %28 : i32
    %35 = arith.minui %33, %29 : i32
    %36 = arith.addi %34, %35 : i32
    %37 = arith.divui %25, %ctas : i32
    %38 = arith.subi %k_tiles, %21 : i32
    %39 = arith.addi %36, %38 : i32
    %40 = arith.divui %39, %k_tiles : i32
    %41 = arith.divui %32, %k_tiles : i32
    %42 = arith.subi %40, %41 : i32
    %43 = arith.subi %36, %32 : i32
    %44 = arith.minui %43, %21 : i32
    %45 = arith.muli %42, %44 : i32
    %units = arith.addi %37, %45 : i32
    %46 = arith.constant 0 : i32
    %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x128x32xf16>
    %ring_b = lass_pipe.ring {offset = 16384 : i64} : !lass_pipe.ring<2x16x32xf16>
    %bars = lass_pipe.tma_pipeline {offset = 18432 : i64, arrivals = 256 : i64} : !lass_pipe.barriers<2>
    %47 = scf.for %unit = %46 to %units step %21 iter_args(%kt_base = %46) -> (i32) : i32 {
      %48 = arith.remui %tiles, %ctas : i32
      %49 = arith.minui %48, %21 : i32
      %50 = arith.minui %19, %49 : i32
      %51 = arith.subi %19, %50 : i32
      %52 = arith.muli %51, %ctas : i32
      %53 = arith.divui %52, %ctas : i32
      %54 = arith.minui %unit, %53 : i32
      %55 = arith.subi %53, %54 : i32
      %56 = arith.minui %55, %21 : i32
      %57 = arith.subi %21, %56 : i32
      %58 = arith.subi %unit, %54 : i32
      %59 = arith.subi %tiles, %52 : i32
      %60 = arith.muli %59, %k_tiles : i32
      %61 = arith.divui %60, %ctas : i32
      %62 = arith.remui %60, %ctas : i32
      %63 = arith.muli %cta, %61 : i32
      %64 = arith.minui %cta, %62 : i32
      %65 = arith.addi %63, %64 : i32
      %66 = arith.muli %33, %61 : i32
      %67 = arith.minui %33, %62 : i32
      %68 = arith.addi %66, %67 : i32
      %69 = arith.addi %68, %21 : i32
      %70 = arith.minui %68, %21 : i32
      %71 = arith.subi %69, %70 : i32
      %72 = arith.subi %71, %21 : i32
      %73 = arith.divui %72, %k_tiles : i32
      %74 = arith.minui %58, %73 : i32
      %75 = arith.subi %73, %74 : i32
      %76 = arith.muli %75, %k_tiles : i32
      %77 = arith.addi %65, %76 : i32
      %78 = arith.minui %65, %76 : i32
      %79 = arith.subi %77, %78 : i32
      %80 = arith.subi %79, %76 : i32
      %81 = arith.addi %76, %k_tiles : i32
      %82 = arith.minui %68, %81 : i32
      %83 = arith.subi %82, %76 : i32
      %84 = arith.addi %60, %21 : i32
      %85 = arith.minui %60, %21 : i32
      %86 = arith.subi %84, %85 : i32
      %87 = arith.divui %86, %ctas : i32
      %88 = arith.remui %86, %ctas : i32
      %89 = arith.addi %87, %21 : i32
      %90 = arith.muli %88, %89 : i32
      %91 = arith.minui %76, %90 : i32
      %92 = arith.divui %91, %89 : i32
      %93 = arith.subi %76, %91 : i32
      %94 = arith.minui %87, %21 : i32
      %95 = arith.subi %89, %94 : i32
      %96 = arith.divui %93, %95 : i32
      %97 = arith.addi %92, %96 : i32
      %98 = arith.subi %cta, %97 : i32
      %99 = arith.subi %21, %57 : i32
      %100 = arith.muli %unit, %ctas : i32
      %101 = arith.addi %100, %cta : i32
      %102 = arith.muli %101, %99 : i32
      %103 = arith.addi %52, %75 : i32
      %104 = arith.muli %103, %57 : i32
      %tile = arith.addi %102, %104 : i32
      %105 = arith.muli %80, %57 : i32
      %106 = arith.muli %k_tiles, %99 : i32
      %107 = arith.muli %83, %57 : i32
      %108 = arith.addi %106, %107 : i32
      %seg = arith.muli %98, %57 : i32
      %109 = arith.muli %16, %6 : i32
      %110 = arith.divui %tile, %109 : i32
      %111 = arith.muli %110, %6 : i32
      %112 = arith.subi %13, %111 : i32
      %113 = arith.minui %112, %6 : i32
      %114 = arith.remui %tile, %109 : i32
      %115 = arith.remui %114, %113 : i32
      %116 = arith.addi %111, %115 : i32
      %117 = arith.divui %114, %113 : i32
      %m0 = arith.muli %116, %12 : i32
      %n0 = arith.muli %117, %9 : i32
      %k_begin = arith.muli %105, %18 : i32
      %118 = arith.muli %108, %18 : i32
      %k_end = arith.minui %118, %K : i32
      %119 = arith.constant 0.000000e+00 : f32
      %120 = arith.subi %k_end, %k_begin : i32
      %121 = arith.addi %120, %4 : i32
      %k_tiles_1 = arith.divui %121, %18 : i32
      %122 = arith.cmpi ult, %46, %k_tiles_1 : i32
      %123 = arith.addi %kt_base, %46 : i32
      %124 = arith.constant 2 : i32
      %125 = arith.remui %123, %124 : i32
      %126 = arith.divui %123, %124 : i32
      %127 = arith.remui %126, %124 : i32
      %128 = arith.muli %46, %18 : i32
      %129 = arith.addi %k_begin, %128 : i32
      %130 = arith.cmpi eq, %tid, %46 : i32
      scf.if %130 {
        lass_pipe.producer_acquire %bars[%125], %127, %122 {tx = 9216 : i64} : !lass_pipe.barriers<2>
        lass_pipe.tma_load A %A[%m0, %129], %ring_a[%125], %bars, %122 : memref<?x?xf16>, !lass_pipe.ring<2x128x32xf16>, !lass_pipe.barriers<2>
        lass_pipe.tma_load B %B[%n0, %129], %ring_b[%125], %bars, %122 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<2x16x32xf16>, !lass_pipe.barriers<2>
      }
      %131, %132, %133, %134, %135, %136, %137, %138 = scf.for %kt = %46 to %k_tiles_1 step %21 iter_args(%139 = %119, %140 = %119, %141 = %119, %142 = %119, %143 = %119, %144 = %119, %145 = %119, %146 = %119) -> (f32, f32, f32, f32, f32, f32, f32, f32) : i32 {
        %147 = arith.addi %kt_base, %kt : i32
        %slot = arith.remui %147, %124 : i32
        %148 = arith.divui %147, %124 : i32
        %phase = arith.remui %148, %124 : i32
        lass_pipe.consumer_wait %bars[%slot], %phase : !lass_pipe.barriers<2>
        lass_wg.fence
        %149, %150, %151, %152, %153, %154, %155, %156 = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 0 acc(%139, %140, %141, %142, %143, %144, %145, %146) : !lass_pipe.ring<2x128x32xf16>, !lass_pipe.ring<2x16x32xf16>, f32
        %157, %158, %159, %160, %161, %162, %163, %164 = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 16 acc(%149, %150, %151, %152, %153, %154, %155, %156) : !lass_pipe.ring<2x128x32xf16>, !lass_pipe.ring<2x16x32xf16>, f32
        lass_wg.commit
        lass_wg.wait {pending = 1 : i64}
        %165 = arith.addi %147, %21 : i32
        %166 = arith.remui %165, %124 : i32
        %167 = arith.cmpi ult, %46, %147 : i32
        lass_pipe.consumer_release %bars[%166], %167 : !lass_pipe.barriers<2>
        %168 = arith.addi %kt, %21 : i32
        %169 = arith.cmpi ult, %168, %k_tiles_1 : i32
        %170 = arith.addi %kt_base, %168 : i32
        %171 = arith.remui %170, %124 : i32
        %172 = arith.divui %170, %124 : i32
        %173 = arith.remui %172, %124 : i32
        %174 = arith.muli %168, %18 : i32
        %175 = arith.addi %k_begin, %174 : i32
        scf.if %130 {
          lass_pipe.producer_acquire %bars[%171], %173, %169 {tx = 9216 : i64} : !lass_pipe.barriers<2>
          lass_pipe.tma_load A %A[%m0, %175], %ring_a[%171], %bars, %169 : memref<?x?xf16>, !lass_pipe.ring<2x128x32xf16>, !lass_pipe.barriers<2>
          lass_pipe.tma_load B %B[%n0, %175], %ring_b[%171], %bars, %169 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<2x16x32xf16>, !lass_pipe.barriers<2>
        }
        scf.yield %157, %158, %159, %160, %161, %162, %163, %164 : f32, f32, f32, f32, f32, f32, f32, f32
      }
      lass_wg.wait {pending = 0 : i64}
      %finisher = arith.cmpi eq, %108, %k_tiles : i32
      scf.if %finisher {
        scf.for %j = %46 to %seg step %21 : i32 {
          %176 = arith.subi %cta, %seg : i32
          %pred_cta = arith.addi %176, %j : i32
          %177 = arith.constant 2048 : i32
          %178 = arith.muli %ctas, %177 : i32
          %flag = arith.addi %178, %pred_cta : i32
          scf.if %130 {
            lass_nv.spin_acquire %W[%flag], %21 : memref<?xi32>
          }
          lass_nv.bar_sync
        }
        %179, %180, %181, %182, %183, %184, %185, %186 = scf.for %j_1 = %46 to %seg step %21 iter_args(%187 = %131, %188 = %132, %189 = %133, %190 = %134, %191 = %135, %192 = %136, %193 = %137, %194 = %138) -> (f32, f32, f32, f32, f32, f32, f32, f32) : i32 {
          %195 = arith.subi %cta, %seg : i32
          %pred_cta_1 = arith.addi %195, %j_1 : i32
          %196 = arith.constant 2048 : i32
          %197 = arith.muli %pred_cta_1, %196 : i32
          %198 = arith.constant 4 : i32
          %199 = arith.muli %tid, %198 : i32
          %partial = arith.addi %197, %199 : i32
          %200 = arith.constant 256 : i32
          %201 = arith.cmpi ult, %tid, %200 : i32
          %202, %203, %204, %205 = lass_nv.ld_global %W[%partial] x 4 if %201 : memref<?xi32>
          %206 = arith.bitcast %202 : i32 to f32
          %207 = arith.addf %187, %206 : f32
          %208 = arith.bitcast %203 : i32 to f32
          %209 = arith.addf %188, %208 : f32
          %210 = arith.bitcast %204 : i32 to f32
          %211 = arith.addf %189, %210 : f32
          %212 = arith.bitcast %205 : i32 to f32
          %213 = arith.addf %190, %212 : f32
          %214 = arith.constant 1024 : i32
          %215 = arith.addi %partial, %214 : i32
          %216, %217, %218, %219 = lass_nv.ld_global %W[%215] x 4 if %201 : memref<?xi32>
          %220 = arith.bitcast %216 : i32 to f32
          %221 = arith.addf %191, %220 : f32
          %222 = arith.bitcast %217 : i32 to f32
          %223 = arith.addf %192, %222 : f32
          %224 = arith.bitcast %218 : i32 to f32
          %225 = arith.addf %193, %224 : f32
          %226 = arith.bitcast %219 : i32 to f32
          %227 = arith.addf %194, %226 : f32
          scf.yield %207, %209, %211, %213, %221, %223, %225, %227 : f32, f32, f32, f32, f32, f32, f32, f32
        }
        scf.for %j_2 = %46 to %seg step %21 : i32 {
          %228 = arith.subi %cta, %seg : i32
          %pred_cta_2 = arith.addi %228, %j_2 : i32
          %229 = arith.constant 2048 : i32
          %230 = arith.muli %ctas, %229 : i32
          %flag_1 = arith.addi %230, %pred_cta_2 : i32
          lass_nv.bar_sync
          scf.if %130 {
            lass_nv.st_release %W[%flag_1], %46 : memref<?xi32>
          }
        }
        lass_wg.wait {pending = 0 : i64}
        %231 = arith.shrui %lane, %124 : i32
        %232 = arith.constant 3 : i32
        %233 = arith.andi %lane, %232 : i32
        %234 = arith.muli %233, %124 : i32
        %235 = arith.addi %m0, %warp_m0 : i32
        %236 = arith.addi %235, %231 : i32
        %237 = arith.addi %n0, %warp_n0 : i32
        %238 = arith.addi %237, %234 : i32
        %239 = arith.constant true
        %240 = arith.andi %N, %21 : i32
        %241 = arith.cmpi eq, %240, %46 : i32
        %242 = arith.cmpf one, %beta, %119 : f32
        scf.if %242 {
          %243 = arith.cmpi ult, %236, %M : i32
          %244 = arith.cmpi ult, %238, %N : i32
          %245 = arith.andi %243, %244 : i1
          %246 = arith.addi %238, %21 : i32
          %247 = arith.cmpi ult, %246, %N : i32
          %248 = arith.andi %243, %247 : i1
          %249 = arith.andi %248, %241 : i1
          %250 = arith.xori %249, %239 : i1
          %251 = arith.andi %245, %250 : i1
          %252 = arith.andi %248, %250 : i1
          %253 = arith.muli %236, %N : i32
          %254 = arith.addi %253, %238 : i32
          %255 = arith.addi %254, %21 : i32
          %256 = arith.mulf %alpha, %179 : f32
          %257 = arith.mulf %alpha, %180 : f32
          %258, %259 = lass_nv.ld_global %D[%254] x 2 if %249 : memref<?x?xf32>
          %260 = lass_nv.ld_global %D[%254] x 1 if %251 : memref<?x?xf32>
          %261 = lass_nv.ld_global %D[%255] x 1 if %252 : memref<?x?xf32>
          %262 = arith.select %249, %258, %260 : f32
          %263 = arith.select %249, %259, %261 : f32
          %264 = arith.mulf %beta, %262 : f32
          %265 = arith.addf %256, %264 : f32
          %266 = arith.mulf %beta, %263 : f32
          %267 = arith.addf %257, %266 : f32
          lass_nv.st_global %D[%254], %265, %267 if %249 : memref<?x?xf32>, f32, f32
          lass_nv.st_global %D[%254], %265 if %251 : memref<?x?xf32>, f32
          lass_nv.st_global %D[%255], %267 if %252 : memref<?x?xf32>, f32
          %268 = arith.addi %236, %6 : i32
          %269 = arith.cmpi ult, %268, %M : i32
          %270 = arith.andi %269, %244 : i1
          %271 = arith.andi %269, %247 : i1
          %272 = arith.andi %271, %241 : i1
          %273 = arith.xori %272, %239 : i1
          %274 = arith.andi %270, %273 : i1
          %275 = arith.andi %271, %273 : i1
          %276 = arith.muli %268, %N : i32
          %277 = arith.addi %276, %238 : i32
          %278 = arith.addi %277, %21 : i32
          %279 = arith.mulf %alpha, %181 : f32
          %280 = arith.mulf %alpha, %182 : f32
          %281, %282 = lass_nv.ld_global %D[%277] x 2 if %272 : memref<?x?xf32>
          %283 = lass_nv.ld_global %D[%277] x 1 if %274 : memref<?x?xf32>
          %284 = lass_nv.ld_global %D[%278] x 1 if %275 : memref<?x?xf32>
          %285 = arith.select %272, %281, %283 : f32
          %286 = arith.select %272, %282, %284 : f32
          %287 = arith.mulf %beta, %285 : f32
          %288 = arith.addf %279, %287 : f32
          %289 = arith.mulf %beta, %286 : f32
          %290 = arith.addf %280, %289 : f32
          lass_nv.st_global %D[%277], %288, %290 if %272 : memref<?x?xf32>, f32, f32
          lass_nv.st_global %D[%277], %288 if %274 : memref<?x?xf32>, f32
          lass_nv.st_global %D[%278], %290 if %275 : memref<?x?xf32>, f32
          %291 = arith.addi %238, %6 : i32
          %292 = arith.cmpi ult, %291, %N : i32
          %293 = arith.andi %243, %292 : i1
          %294 = arith.addi %291, %21 : i32
          %295 = arith.cmpi ult, %294, %N : i32
          %296 = arith.andi %243, %295 : i1
          %297 = arith.andi %296, %241 : i1
          %298 = arith.xori %297, %239 : i1
          %299 = arith.andi %293, %298 : i1
          %300 = arith.andi %296, %298 : i1
          %301 = arith.addi %253, %291 : i32
          %302 = arith.addi %301, %21 : i32
          %303 = arith.mulf %alpha, %183 : f32
          %304 = arith.mulf %alpha, %184 : f32
          %305, %306 = lass_nv.ld_global %D[%301] x 2 if %297 : memref<?x?xf32>
          %307 = lass_nv.ld_global %D[%301] x 1 if %299 : memref<?x?xf32>
          %308 = lass_nv.ld_global %D[%302] x 1 if %300 : memref<?x?xf32>
          %309 = arith.select %297, %305, %307 : f32
          %310 = arith.select %297, %306, %308 : f32
          %311 = arith.mulf %beta, %309 : f32
          %312 = arith.addf %303, %311 : f32
          %313 = arith.mulf %beta, %310 : f32
          %314 = arith.addf %304, %313 : f32
          lass_nv.st_global %D[%301], %312, %314 if %297 : memref<?x?xf32>, f32, f32
          lass_nv.st_global %D[%301], %312 if %299 : memref<?x?xf32>, f32
          lass_nv.st_global %D[%302], %314 if %300 : memref<?x?xf32>, f32
          %315 = arith.andi %269, %292 : i1
          %316 = arith.andi %269, %295 : i1
          %317 = arith.andi %316, %241 : i1
          %318 = arith.xori %317, %239 : i1
          %319 = arith.andi %315, %318 : i1
          %320 = arith.andi %316, %318 : i1
          %321 = arith.addi %276, %291 : i32
          %322 = arith.addi %321, %21 : i32
          %323 = arith.mulf %alpha, %185 : f32
          %324 = arith.mulf %alpha, %186 : f32
          %325, %326 = lass_nv.ld_global %D[%321] x 2 if %317 : memref<?x?xf32>
          %327 = lass_nv.ld_global %D[%321] x 1 if %319 : memref<?x?xf32>
          %328 = lass_nv.ld_global %D[%322] x 1 if %320 : memref<?x?xf32>
          %329 = arith.select %317, %325, %327 : f32
          %330 = arith.select %317, %326, %328 : f32
          %331 = arith.mulf %beta, %329 : f32
          %332 = arith.addf %323, %331 : f32
          %333 = arith.mulf %beta, %330 : f32
          %334 = arith.addf %324, %333 : f32
          lass_nv.st_global %D[%321], %332, %334 if %317 : memref<?x?xf32>, f32, f32
          lass_nv.st_global %D[%321], %332 if %319 : memref<?x?xf32>, f32
          lass_nv.st_global %D[%322], %334 if %320 : memref<?x?xf32>, f32
        } else {
          %335 = arith.cmpi ult, %236, %M : i32
          %336 = arith.cmpi ult, %238, %N : i32
          %337 = arith.andi %335, %336 : i1
          %338 = arith.addi %238, %21 : i32
          %339 = arith.cmpi ult, %338, %N : i32
          %340 = arith.andi %335, %339 : i1
          %341 = arith.andi %340, %241 : i1
          %342 = arith.xori %341, %239 : i1
          %343 = arith.andi %337, %342 : i1
          %344 = arith.andi %340, %342 : i1
          %345 = arith.muli %236, %N : i32
          %346 = arith.addi %345, %238 : i32
          %347 = arith.addi %346, %21 : i32
          %348 = arith.mulf %alpha, %179 : f32
          %349 = arith.mulf %alpha, %180 : f32
          lass_nv.st_global %D[%346], %348, %349 if %341 : memref<?x?xf32>, f32, f32
          lass_nv.st_global %D[%346], %348 if %343 : memref<?x?xf32>, f32
          lass_nv.st_global %D[%347], %349 if %344 : memref<?x?xf32>, f32
          %350 = arith.addi %236, %6 : i32
          %351 = arith.cmpi ult, %350, %M : i32
          %352 = arith.andi %351, %336 : i1
          %353 = arith.andi %351, %339 : i1
          %354 = arith.andi %353, %241 : i1
          %355 = arith.xori %354, %239 : i1
          %356 = arith.andi %352, %355 : i1
          %357 = arith.andi %353, %355 : i1
          %358 = arith.muli %350, %N : i32
          %359 = arith.addi %358, %238 : i32
          %360 = arith.addi %359, %21 : i32
          %361 = arith.mulf %alpha, %181 : f32
          %362 = arith.mulf %alpha, %182 : f32
          lass_nv.st_global %D[%359], %361, %362 if %354 : memref<?x?xf32>, f32, f32
          lass_nv.st_global %D[%359], %361 if %356 : memref<?x?xf32>, f32
          lass_nv.st_global %D[%360], %362 if %357 : memref<?x?xf32>, f32
          %363 = arith.addi %238, %6 : i32
          %364 = arith.cmpi ult, %363, %N : i32
          %365 = arith.andi %335, %364 : i1
          %366 = arith.addi %363, %21 : i32
          %367 = arith.cmpi ult, %366, %N : i32
          %368 = arith.andi %335, %367 : i1
          %369 = arith.andi %368, %241 : i1
          %370 = arith.xori %369, %239 : i1
          %371 = arith.andi %365, %370 : i1
          %372 = arith.andi %368, %370 : i1
          %373 = arith.addi %345, %363 : i32
          %374 = arith.addi %373, %21 : i32
          %375 = arith.mulf %alpha, %183 : f32
          %376 = arith.mulf %alpha, %184 : f32
          lass_nv.st_global %D[%373], %375, %376 if %369 : memref<?x?xf32>, f32, f32
          lass_nv.st_global %D[%373], %375 if %371 : memref<?x?xf32>, f32
          lass_nv.st_global %D[%374], %376 if %372 : memref<?x?xf32>, f32
          %377 = arith.andi %351, %364 : i1
          %378 = arith.andi %351, %367 : i1
          %379 = arith.andi %378, %241 : i1
          %380 = arith.xori %379, %239 : i1
          %381 = arith.andi %377, %380 : i1
          %382 = arith.andi %378, %380 : i1
          %383 = arith.addi %358, %363 : i32
          %384 = arith.addi %383, %21 : i32
          %385 = arith.mulf %alpha, %185 : f32
          %386 = arith.mulf %alpha, %186 : f32
          lass_nv.st_global %D[%383], %385, %386 if %379 : memref<?x?xf32>, f32, f32
          lass_nv.st_global %D[%383], %385 if %381 : memref<?x?xf32>, f32
          lass_nv.st_global %D[%384], %386 if %382 : memref<?x?xf32>, f32
        }
      } else {
        %387 = arith.constant 2048 : i32
        %388 = arith.muli %cta, %387 : i32
        %389 = arith.constant 4 : i32
        %390 = arith.muli %tid, %389 : i32
        %partial_1 = arith.addi %388, %390 : i32
        %391 = arith.constant true
        %392 = arith.bitcast %131 : f32 to i32
        %393 = arith.bitcast %132 : f32 to i32
        %394 = arith.bitcast %133 : f32 to i32
        %395 = arith.bitcast %134 : f32 to i32
        lass_nv.st_global %W[%partial_1], %392, %393, %394, %395 if %391 : memref<?xi32>, i32, i32, i32, i32
        %396 = arith.constant 1024 : i32
        %397 = arith.addi %partial_1, %396 : i32
        %398 = arith.bitcast %135 : f32 to i32
        %399 = arith.bitcast %136 : f32 to i32
        %400 = arith.bitcast %137 : f32 to i32
        %401 = arith.bitcast %138 : f32 to i32
        lass_nv.st_global %W[%397], %398, %399, %400, %401 if %391 : memref<?xi32>, i32, i32, i32, i32
        %402 = arith.muli %ctas, %387 : i32
        %flag_2 = arith.addi %402, %cta : i32
        lass_nv.bar_sync
        scf.if %130 {
          lass_nv.st_release %W[%flag_2], %21 : memref<?xi32>
        }
      }
      %403 = arith.addi %kt_base, %k_tiles_1 : i32
      lass_nv.bar_sync
      scf.yield %403 : i32
    }
    func.return
  }
}
