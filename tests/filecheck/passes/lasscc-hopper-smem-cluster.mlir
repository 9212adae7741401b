// lasscc-hopper-smem (passes/hopper_smem.py + passes/cluster_multicast.py) of a kernel with
// `cluster = [2, 1]` (config 64x64x64 f16, 2 stages; lasscc.cluster): the two CTAs of a cluster
// lie along M and share the B tile, so tmap_B's box is half the tile (32 of its 64 rows) and each
// CTA multicasts its half (rows %cta_rank * 32 ..) into both CTAs' slots (ctaMask 3), while A is
// loaded whole by each.  The empty barriers expect the consumers of both CTAs (2 x 128 = 256), a
// consumer releases its slot locally and on the peer (rank (rank + 1) % 2), and cluster barriers
// follow the barriers' init and precede the return; the kernel carries nvvm.cluster_dim.
//
// RUN: %lasscc opt -p lasscc-hopper-smem %s | filecheck %s
// RUN: xdsl-opt -p lasscc-hopper-smem %s | xdsl-opt -p cse,dce | filecheck %s
//
// Left alone once applied: a second run changes nothing.
// RUN: %lasscc opt -p lasscc-hopper-smem %s -o %t.once.mlir
// RUN: %lasscc opt -p lasscc-hopper-smem %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
//
// Rejected: cluster = [2, 1] on a 64x8 tile (its 8 B rows cannot be cut into two whole swizzle atoms).
// RUN: not %lasscc opt -p lasscc-hopper-smem %S/Inputs/lasscc-hopper-smem-cluster-unsplittable.mlir.in 2>&1 | filecheck %s --check-prefix=ERR

// CHECK-LABEL: func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32, %tmap_A: !lass_nv.tensor_map<64x64xf16, swizzle_128b>, %tmap_B: !lass_nv.tensor_map<32x64xf16, swizzle_128b>)
// CHECK-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK:         %cta_rank = lass_cluster.ctarank
// CHECK:         [[ALL:%[0-9]+]] = arith.constant 256 : i32
// CHECK-NEXT:    lass_nv.mbarrier_init {{%[0-9]+}}, [[ALL]]
// CHECK:         lass_nv.fence_mbarrier_init
// CHECK-NOT:     lass_nv.bar_sync
// CHECK:         lass_cluster.sync
// CHECK:         lass_nv.tma_load_2d %tmap_A[{{%[0-9]+}}, %m0], {{%[0-9]+}}, {{%[0-9]+}} : !lass_nv.tensor_map<64x64xf16, swizzle_128b>
// CHECK:         [[MASK:%[0-9]+]] = arith.constant 3 : i32
// CHECK:         lass_cluster.tma_load_multicast %tmap_B[{{%[0-9]+}}, {{%[0-9]+}}], {{%[0-9]+}}, {{%[0-9]+}}, [[MASK]] : !lass_nv.tensor_map<32x64xf16, swizzle_128b>
// CHECK:         scf.for %kt =
// CHECK:           lass_nv.wgmma_mma_async
// CHECK:           lass_nv.mbarrier_arrive [[BAR:%[0-9]+]]
// CHECK:           [[R:%[0-9]+]] = arith.addi %cta_rank,
// CHECK:           [[PEER:%[0-9]+]] = arith.remui [[R]],
// CHECK:           lass_cluster.mbarrier_arrive_remote [[BAR]], [[PEER]]
// CHECK:           lass_cluster.tma_load_multicast %tmap_B
// CHECK-NOT:     lass_pipe.
// CHECK:         lass_cluster.sync
// CHECK-NEXT:    func.return

// ERR: lasscc-hopper-smem-cluster-unsplittable.mlir.in:{{[0-9]+}}:{{[0-9]+}}: error: cluster = [2, 1]: the B tile (8 x 64): its 8 rows (the TMA box's outer dimension) cannot be cut into 2 multicast parts of whole 8-line swizzle atoms

builtin.module {
  func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32) attributes {lass.kernel = #lass.kernel<ab = f16, acc = f32, d = f32, layouts = [row, col, row], alpha = 1.5, beta = 0.0, config = {threadblock = [64, 64, 64], warp = [64, 64, 64], instruction = [64, 64, 16], stages = 2, raster = 8, prefetch = 0, mma = "wgmma", cluster = [2, 1]}>} {
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
    %warp_n0 = arith.muli %7, %2 : i32
    %9 = arith.constant 32 : i32
    %10 = arith.constant 48 : i32
    %11 = lass_nv.block_id x
    %12 = arith.constant 63 : i32
    %13 = arith.addi %M, %12 : i32
    %14 = arith.divui %13, %2 : i32
    %15 = arith.addi %N, %12 : i32
    %16 = arith.divui %15, %2 : i32
    %17 = arith.constant 2 : i32
    %18 = arith.divui %11, %17 : i32
    %19 = arith.constant 1 : i32
    %20 = arith.addi %14, %19 : i32
    %21 = arith.divui %20, %17 : i32
    %22 = arith.constant 8 : i32
    %23 = arith.muli %16, %22 : i32
    %24 = arith.divui %18, %23 : i32
    %25 = arith.muli %24, %22 : i32
    %26 = arith.subi %21, %25 : i32
    %27 = arith.minui %26, %22 : i32
    %28 = arith.remui %18, %23 : i32
    %29 = arith.remui %28, %27 : i32
    %30 = arith.addi %25, %29 : i32
    %31 = arith.divui %28, %27 : i32
    %32 = arith.remui %11, %17 : i32
    %33 = arith.muli %30, %17 : i32
    %34 = arith.remui %32, %17 : i32
    %35 = arith.addi %33, %34 : i32
    %36 = arith.divui %32, %17 : i32
    %37 = arith.addi %31, %36 : i32
    %m0 = arith.muli %35, %2 : i32
    %n0 = arith.muli %37, %2 : i32
    %38 = arith.constant 0.000000e+00 : f32
    %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x64x64xf16>
    %ring_b = lass_pipe.ring {offset = 16384 : i64} : !lass_pipe.ring<2x64x64xf16>
    %bars = lass_pipe.tma_pipeline {offset = 32768 : i64, arrivals = 128 : i64} : !lass_pipe.barriers<2>
    %39 = arith.addi %K, %12 : i32
    %k_tiles = arith.divui %39, %2 : i32
    %40 = arith.constant 0 : i32
    %41 = arith.cmpi ult, %40, %k_tiles : i32
    %42 = arith.remui %40, %17 : i32
    %43 = arith.divui %40, %17 : i32
    %44 = arith.remui %43, %17 : i32
    %45 = arith.muli %40, %2 : i32
    %46 = arith.cmpi eq, %tid, %40 : i32
    scf.if %46 {
      lass_pipe.producer_acquire %bars[%42], %44, %41 {tx = 16384 : i64} : !lass_pipe.barriers<2>
      lass_pipe.tma_load A %A[%m0, %45], %ring_a[%42], %bars, %41 : memref<?x?xf16>, !lass_pipe.ring<2x64x64xf16>, !lass_pipe.barriers<2>
      lass_pipe.tma_load B %B[%n0, %45], %ring_b[%42], %bars, %41 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<2x64x64xf16>, !lass_pipe.barriers<2>
    }
    %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78 = scf.for %kt = %40 to %k_tiles step %19 iter_args(%79 = %38, %80 = %38, %81 = %38, %82 = %38, %83 = %38, %84 = %38, %85 = %38, %86 = %38, %87 = %38, %88 = %38, %89 = %38, %90 = %38, %91 = %38, %92 = %38, %93 = %38, %94 = %38, %95 = %38, %96 = %38, %97 = %38, %98 = %38, %99 = %38, %100 = %38, %101 = %38, %102 = %38, %103 = %38, %104 = %38, %105 = %38, %106 = %38, %107 = %38, %108 = %38, %109 = %38, %110 = %38) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) : i32 {
      %slot = arith.remui %kt, %17 : i32
      %111 = arith.divui %kt, %17 : i32
      %phase = arith.remui %111, %17 : i32
      lass_pipe.consumer_wait %bars[%slot], %phase : !lass_pipe.barriers<2>
      lass_wg.fence
      %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127, %128, %129, %130, %131, %132, %133, %134, %135, %136, %137, %138, %139, %140, %141, %142, %143 = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 0 acc(%79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110) : !lass_pipe.ring<2x64x64xf16>, !lass_pipe.ring<2x64x64xf16>, f32
      %144, %145, %146, %147, %148, %149, %150, %151, %152, %153, %154, %155, %156, %157, %158, %159, %160, %161, %162, %163, %164, %165, %166, %167, %168, %169, %170, %171, %172, %173, %174, %175 = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 16 acc(%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127, %128, %129, %130, %131, %132, %133, %134, %135, %136, %137, %138, %139, %140, %141, %142, %143) : !lass_pipe.ring<2x64x64xf16>, !lass_pipe.ring<2x64x64xf16>, f32
      %176, %177, %178, %179, %180, %181, %182, %183, %184, %185, %186, %187, %188, %189, %190, %191, %192, %193, %194, %195, %196, %197, %198, %199, %200, %201, %202, %203, %204, %205, %206, %207 = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 32 acc(%144, %145, %146, %147, %148, %149, %150, %151, %152, %153, %154, %155, %156, %157, %158, %159, %160, %161, %162, %163, %164, %165, %166, %167, %168, %169, %170, %171, %172, %173, %174, %175) : !lass_pipe.ring<2x64x64xf16>, !lass_pipe.ring<2x64x64xf16>, f32
      %208, %209, %210, %211, %212, %213, %214, %215, %216, %217, %218, %219, %220, %221, %222, %223, %224, %225, %226, %227, %228, %229, %230, %231, %232, %233, %234, %235, %236, %237, %238, %239 = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 48 acc(%176, %177, %178, %179, %180, %181, %182, %183, %184, %185, %186, %187, %188, %189, %190, %191, %192, %193, %194, %195, %196, %197, %198, %199, %200, %201, %202, %203, %204, %205, %206, %207) : !lass_pipe.ring<2x64x64xf16>, !lass_pipe.ring<2x64x64xf16>, f32
      lass_wg.commit
      lass_wg.wait {pending = 1 : i64}
      %240 = arith.addi %kt, %19 : i32
      %241 = arith.remui %240, %17 : i32
      %242 = arith.cmpi ult, %40, %kt : i32
      lass_pipe.consumer_release %bars[%241], %242 : !lass_pipe.barriers<2>
      %243 = arith.cmpi ult, %240, %k_tiles : i32
      %244 = arith.remui %240, %17 : i32
      %245 = arith.divui %240, %17 : i32
      %246 = arith.remui %245, %17 : i32
      %247 = arith.muli %240, %2 : i32
      scf.if %46 {
        lass_pipe.producer_acquire %bars[%244], %246, %243 {tx = 16384 : i64} : !lass_pipe.barriers<2>
        lass_pipe.tma_load A %A[%m0, %247], %ring_a[%244], %bars, %243 : memref<?x?xf16>, !lass_pipe.ring<2x64x64xf16>, !lass_pipe.barriers<2>
        lass_pipe.tma_load B %B[%n0, %247], %ring_b[%244], %bars, %243 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<2x64x64xf16>, !lass_pipe.barriers<2>
      }
      scf.yield %208, %209, %210, %211, %212, %213, %214, %215, %216, %217, %218, %219, %220, %221, %222, %223, %224, %225, %226, %227, %228, %229, %230, %231, %232, %233, %234, %235, %236, %237, %238, %239 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
    }
    lass_wg.wait {pending = 0 : i64}
    %248 = arith.shrui %lane, %17 : i32
    %249 = arith.constant 3 : i32
    %250 = arith.andi %lane, %249 : i32
    %251 = arith.muli %250, %17 : i32
    %252 = arith.addi %m0, %warp_m0 : i32
    %253 = arith.addi %252, %248 : i32
    %254 = arith.addi %n0, %warp_n0 : i32
    %255 = arith.addi %254, %251 : i32
    %256 = arith.constant true
    %257 = arith.andi %N, %19 : i32
    %258 = arith.cmpi eq, %257, %40 : i32
    %259 = arith.cmpf one, %beta, %38 : f32
    %260 = arith.addi %m0, %2 : i32
    %261 = arith.cmpi ule, %260, %M : i32
    %262 = arith.addi %n0, %2 : i32
    %263 = arith.cmpi ule, %262, %N : i32
    %264 = arith.andi %261, %263 : i1
    %265 = arith.andi %264, %258 : i1
    scf.if %259 {
      scf.if %265 {
        %266 = arith.muli %253, %N : i32
        %267 = arith.addi %266, %255 : i32
        %268 = arith.mulf %alpha, %47 : f32
        %269 = arith.mulf %alpha, %48 : f32
        %270, %271 = lass_nv.ld_global %D[%267] x 2 if %256 : memref<?x?xf32>
        %272 = arith.mulf %beta, %270 : f32
        %273 = arith.addf %268, %272 : f32
        %274 = arith.mulf %beta, %271 : f32
        %275 = arith.addf %269, %274 : f32
        lass_nv.st_global %D[%267], %273, %275 if %256 : memref<?x?xf32>, f32, f32
        %276 = arith.addi %253, %22 : i32
        %277 = arith.muli %276, %N : i32
        %278 = arith.addi %277, %255 : i32
        %279 = arith.mulf %alpha, %49 : f32
        %280 = arith.mulf %alpha, %50 : f32
        %281, %282 = lass_nv.ld_global %D[%278] x 2 if %256 : memref<?x?xf32>
        %283 = arith.mulf %beta, %281 : f32
        %284 = arith.addf %279, %283 : f32
        %285 = arith.mulf %beta, %282 : f32
        %286 = arith.addf %280, %285 : f32
        lass_nv.st_global %D[%278], %284, %286 if %256 : memref<?x?xf32>, f32, f32
        %287 = arith.addi %255, %22 : i32
        %288 = arith.addi %266, %287 : i32
        %289 = arith.mulf %alpha, %51 : f32
        %290 = arith.mulf %alpha, %52 : f32
        %291, %292 = lass_nv.ld_global %D[%288] x 2 if %256 : memref<?x?xf32>
        %293 = arith.mulf %beta, %291 : f32
        %294 = arith.addf %289, %293 : f32
        %295 = arith.mulf %beta, %292 : f32
        %296 = arith.addf %290, %295 : f32
        lass_nv.st_global %D[%288], %294, %296 if %256 : memref<?x?xf32>, f32, f32
        %297 = arith.addi %277, %287 : i32
        %298 = arith.mulf %alpha, %53 : f32
        %299 = arith.mulf %alpha, %54 : f32
        %300, %301 = lass_nv.ld_global %D[%297] x 2 if %256 : memref<?x?xf32>
        %302 = arith.mulf %beta, %300 : f32
        %303 = arith.addf %298, %302 : f32
        %304 = arith.mulf %beta, %301 : f32
        %305 = arith.addf %299, %304 : f32
        lass_nv.st_global %D[%297], %303, %305 if %256 : memref<?x?xf32>, f32, f32
        %306 = arith.addi %255, %8 : i32
        %307 = arith.addi %266, %306 : i32
        %308 = arith.mulf %alpha, %55 : f32
        %309 = arith.mulf %alpha, %56 : f32
        %310, %311 = lass_nv.ld_global %D[%307] x 2 if %256 : memref<?x?xf32>
        %312 = arith.mulf %beta, %310 : f32
        %313 = arith.addf %308, %312 : f32
        %314 = arith.mulf %beta, %311 : f32
        %315 = arith.addf %309, %314 : f32
        lass_nv.st_global %D[%307], %313, %315 if %256 : memref<?x?xf32>, f32, f32
        %316 = arith.addi %277, %306 : i32
        %317 = arith.mulf %alpha, %57 : f32
        %318 = arith.mulf %alpha, %58 : f32
        %319, %320 = lass_nv.ld_global %D[%316] x 2 if %256 : memref<?x?xf32>
        %321 = arith.mulf %beta, %319 : f32
        %322 = arith.addf %317, %321 : f32
        %323 = arith.mulf %beta, %320 : f32
        %324 = arith.addf %318, %323 : f32
        lass_nv.st_global %D[%316], %322, %324 if %256 : memref<?x?xf32>, f32, f32
        %325 = arith.constant 24 : i32
        %326 = arith.addi %255, %325 : i32
        %327 = arith.addi %266, %326 : i32
        %328 = arith.mulf %alpha, %59 : f32
        %329 = arith.mulf %alpha, %60 : f32
        %330, %331 = lass_nv.ld_global %D[%327] x 2 if %256 : memref<?x?xf32>
        %332 = arith.mulf %beta, %330 : f32
        %333 = arith.addf %328, %332 : f32
        %334 = arith.mulf %beta, %331 : f32
        %335 = arith.addf %329, %334 : f32
        lass_nv.st_global %D[%327], %333, %335 if %256 : memref<?x?xf32>, f32, f32
        %336 = arith.addi %277, %326 : i32
        %337 = arith.mulf %alpha, %61 : f32
        %338 = arith.mulf %alpha, %62 : f32
        %339, %340 = lass_nv.ld_global %D[%336] x 2 if %256 : memref<?x?xf32>
        %341 = arith.mulf %beta, %339 : f32
        %342 = arith.addf %337, %341 : f32
        %343 = arith.mulf %beta, %340 : f32
        %344 = arith.addf %338, %343 : f32
        lass_nv.st_global %D[%336], %342, %344 if %256 : memref<?x?xf32>, f32, f32
        %345 = arith.addi %255, %9 : i32
        %346 = arith.addi %266, %345 : i32
        %347 = arith.mulf %alpha, %63 : f32
        %348 = arith.mulf %alpha, %64 : f32
        %349, %350 = lass_nv.ld_global %D[%346] x 2 if %256 : memref<?x?xf32>
        %351 = arith.mulf %beta, %349 : f32
        %352 = arith.addf %347, %351 : f32
        %353 = arith.mulf %beta, %350 : f32
        %354 = arith.addf %348, %353 : f32
        lass_nv.st_global %D[%346], %352, %354 if %256 : memref<?x?xf32>, f32, f32
        %355 = arith.addi %277, %345 : i32
        %356 = arith.mulf %alpha, %65 : f32
        %357 = arith.mulf %alpha, %66 : f32
        %358, %359 = lass_nv.ld_global %D[%355] x 2 if %256 : memref<?x?xf32>
        %360 = arith.mulf %beta, %358 : f32
        %361 = arith.addf %356, %360 : f32
        %362 = arith.mulf %beta, %359 : f32
        %363 = arith.addf %357, %362 : f32
        lass_nv.st_global %D[%355], %361, %363 if %256 : memref<?x?xf32>, f32, f32
        %364 = arith.constant 40 : i32
        %365 = arith.addi %255, %364 : i32
        %366 = arith.addi %266, %365 : i32
        %367 = arith.mulf %alpha, %67 : f32
        %368 = arith.mulf %alpha, %68 : f32
        %369, %370 = lass_nv.ld_global %D[%366] x 2 if %256 : memref<?x?xf32>
        %371 = arith.mulf %beta, %369 : f32
        %372 = arith.addf %367, %371 : f32
        %373 = arith.mulf %beta, %370 : f32
        %374 = arith.addf %368, %373 : f32
        lass_nv.st_global %D[%366], %372, %374 if %256 : memref<?x?xf32>, f32, f32
        %375 = arith.addi %277, %365 : i32
        %376 = arith.mulf %alpha, %69 : f32
        %377 = arith.mulf %alpha, %70 : f32
        %378, %379 = lass_nv.ld_global %D[%375] x 2 if %256 : memref<?x?xf32>
        %380 = arith.mulf %beta, %378 : f32
        %381 = arith.addf %376, %380 : f32
        %382 = arith.mulf %beta, %379 : f32
        %383 = arith.addf %377, %382 : f32
        lass_nv.st_global %D[%375], %381, %383 if %256 : memref<?x?xf32>, f32, f32
        %384 = arith.addi %255, %10 : i32
        %385 = arith.addi %266, %384 : i32
        %386 = arith.mulf %alpha, %71 : f32
        %387 = arith.mulf %alpha, %72 : f32
        %388, %389 = lass_nv.ld_global %D[%385] x 2 if %256 : memref<?x?xf32>
        %390 = arith.mulf %beta, %388 : f32
        %391 = arith.addf %386, %390 : f32
        %392 = arith.mulf %beta, %389 : f32
        %393 = arith.addf %387, %392 : f32
        lass_nv.st_global %D[%385], %391, %393 if %256 : memref<?x?xf32>, f32, f32
        %394 = arith.addi %277, %384 : i32
        %395 = arith.mulf %alpha, %73 : f32
        %396 = arith.mulf %alpha, %74 : f32
        %397, %398 = lass_nv.ld_global %D[%394] x 2 if %256 : memref<?x?xf32>
        %399 = arith.mulf %beta, %397 : f32
        %400 = arith.addf %395, %399 : f32
        %401 = arith.mulf %beta, %398 : f32
        %402 = arith.addf %396, %401 : f32
        lass_nv.st_global %D[%394], %400, %402 if %256 : memref<?x?xf32>, f32, f32
        %403 = arith.constant 56 : i32
        %404 = arith.addi %255, %403 : i32
        %405 = arith.addi %266, %404 : i32
        %406 = arith.mulf %alpha, %75 : f32
        %407 = arith.mulf %alpha, %76 : f32
        %408, %409 = lass_nv.ld_global %D[%405] x 2 if %256 : memref<?x?xf32>
        %410 = arith.mulf %beta, %408 : f32
        %411 = arith.addf %406, %410 : f32
        %412 = arith.mulf %beta, %409 : f32
        %413 = arith.addf %407, %412 : f32
        lass_nv.st_global %D[%405], %411, %413 if %256 : memref<?x?xf32>, f32, f32
        %414 = arith.addi %277, %404 : i32
        %415 = arith.mulf %alpha, %77 : f32
        %416 = arith.mulf %alpha, %78 : f32
        %417, %418 = lass_nv.ld_global %D[%414] x 2 if %256 : memref<?x?xf32>
        %419 = arith.mulf %beta, %417 : f32
        %420 = arith.addf %415, %419 : f32
        %421 = arith.mulf %beta, %418 : f32
        %422 = arith.addf %416, %421 : f32
        lass_nv.st_global %D[%414], %420, %422 if %256 : memref<?x?xf32>, f32, f32
      } else {
        %423 = arith.cmpi ult, %253, %M : i32
        %424 = arith.cmpi ult, %255, %N : i32
        %425 = arith.andi %423, %424 : i1
        %426 = arith.addi %255, %19 : i32
        %427 = arith.cmpi ult, %426, %N : i32
        %428 = arith.andi %423, %427 : i1
        %429 = arith.andi %428, %258 : i1
        %430 = arith.xori %429, %256 : i1
        %431 = arith.andi %425, %430 : i1
        %432 = arith.andi %428, %430 : i1
        %433 = arith.muli %253, %N : i32
        %434 = arith.addi %433, %255 : i32
        %435 = arith.addi %434, %19 : i32
        %436 = arith.mulf %alpha, %47 : f32
        %437 = arith.mulf %alpha, %48 : f32
        %438, %439 = lass_nv.ld_global %D[%434] x 2 if %429 : memref<?x?xf32>
        %440 = lass_nv.ld_global %D[%434] x 1 if %431 : memref<?x?xf32>
        %441 = lass_nv.ld_global %D[%435] x 1 if %432 : memref<?x?xf32>
        %442 = arith.select %429, %438, %440 : f32
        %443 = arith.select %429, %439, %441 : f32
        %444 = arith.mulf %beta, %442 : f32
        %445 = arith.addf %436, %444 : f32
        %446 = arith.mulf %beta, %443 : f32
        %447 = arith.addf %437, %446 : f32
        lass_nv.st_global %D[%434], %445, %447 if %429 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%434], %445 if %431 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%435], %447 if %432 : memref<?x?xf32>, f32
        %448 = arith.addi %253, %22 : i32
        %449 = arith.cmpi ult, %448, %M : i32
        %450 = arith.andi %449, %424 : i1
        %451 = arith.andi %449, %427 : i1
        %452 = arith.andi %451, %258 : i1
        %453 = arith.xori %452, %256 : i1
        %454 = arith.andi %450, %453 : i1
        %455 = arith.andi %451, %453 : i1
        %456 = arith.muli %448, %N : i32
        %457 = arith.addi %456, %255 : i32
        %458 = arith.addi %457, %19 : i32
        %459 = arith.mulf %alpha, %49 : f32
        %460 = arith.mulf %alpha, %50 : f32
        %461, %462 = lass_nv.ld_global %D[%457] x 2 if %452 : memref<?x?xf32>
        %463 = lass_nv.ld_global %D[%457] x 1 if %454 : memref<?x?xf32>
        %464 = lass_nv.ld_global %D[%458] x 1 if %455 : memref<?x?xf32>
        %465 = arith.select %452, %461, %463 : f32
        %466 = arith.select %452, %462, %464 : f32
        %467 = arith.mulf %beta, %465 : f32
        %468 = arith.addf %459, %467 : f32
        %469 = arith.mulf %beta, %466 : f32
        %470 = arith.addf %460, %469 : f32
        lass_nv.st_global %D[%457], %468, %470 if %452 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%457], %468 if %454 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%458], %470 if %455 : memref<?x?xf32>, f32
        %471 = arith.addi %255, %22 : i32
        %472 = arith.cmpi ult, %471, %N : i32
        %473 = arith.andi %423, %472 : i1
        %474 = arith.addi %471, %19 : i32
        %475 = arith.cmpi ult, %474, %N : i32
        %476 = arith.andi %423, %475 : i1
        %477 = arith.andi %476, %258 : i1
        %478 = arith.xori %477, %256 : i1
        %479 = arith.andi %473, %478 : i1
        %480 = arith.andi %476, %478 : i1
        %481 = arith.addi %433, %471 : i32
        %482 = arith.addi %481, %19 : i32
        %483 = arith.mulf %alpha, %51 : f32
        %484 = arith.mulf %alpha, %52 : f32
        %485, %486 = lass_nv.ld_global %D[%481] x 2 if %477 : memref<?x?xf32>
        %487 = lass_nv.ld_global %D[%481] x 1 if %479 : memref<?x?xf32>
        %488 = lass_nv.ld_global %D[%482] x 1 if %480 : memref<?x?xf32>
        %489 = arith.select %477, %485, %487 : f32
        %490 = arith.select %477, %486, %488 : f32
        %491 = arith.mulf %beta, %489 : f32
        %492 = arith.addf %483, %491 : f32
        %493 = arith.mulf %beta, %490 : f32
        %494 = arith.addf %484, %493 : f32
        lass_nv.st_global %D[%481], %492, %494 if %477 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%481], %492 if %479 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%482], %494 if %480 : memref<?x?xf32>, f32
        %495 = arith.andi %449, %472 : i1
        %496 = arith.andi %449, %475 : i1
        %497 = arith.andi %496, %258 : i1
        %498 = arith.xori %497, %256 : i1
        %499 = arith.andi %495, %498 : i1
        %500 = arith.andi %496, %498 : i1
        %501 = arith.addi %456, %471 : i32
        %502 = arith.addi %501, %19 : i32
        %503 = arith.mulf %alpha, %53 : f32
        %504 = arith.mulf %alpha, %54 : f32
        %505, %506 = lass_nv.ld_global %D[%501] x 2 if %497 : memref<?x?xf32>
        %507 = lass_nv.ld_global %D[%501] x 1 if %499 : memref<?x?xf32>
        %508 = lass_nv.ld_global %D[%502] x 1 if %500 : memref<?x?xf32>
        %509 = arith.select %497, %505, %507 : f32
        %510 = arith.select %497, %506, %508 : f32
        %511 = arith.mulf %beta, %509 : f32
        %512 = arith.addf %503, %511 : f32
        %513 = arith.mulf %beta, %510 : f32
        %514 = arith.addf %504, %513 : f32
        lass_nv.st_global %D[%501], %512, %514 if %497 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%501], %512 if %499 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%502], %514 if %500 : memref<?x?xf32>, f32
        %515 = arith.addi %255, %8 : i32
        %516 = arith.cmpi ult, %515, %N : i32
        %517 = arith.andi %423, %516 : i1
        %518 = arith.addi %515, %19 : i32
        %519 = arith.cmpi ult, %518, %N : i32
        %520 = arith.andi %423, %519 : i1
        %521 = arith.andi %520, %258 : i1
        %522 = arith.xori %521, %256 : i1
        %523 = arith.andi %517, %522 : i1
        %524 = arith.andi %520, %522 : i1
        %525 = arith.addi %433, %515 : i32
        %526 = arith.addi %525, %19 : i32
        %527 = arith.mulf %alpha, %55 : f32
        %528 = arith.mulf %alpha, %56 : f32
        %529, %530 = lass_nv.ld_global %D[%525] x 2 if %521 : memref<?x?xf32>
        %531 = lass_nv.ld_global %D[%525] x 1 if %523 : memref<?x?xf32>
        %532 = lass_nv.ld_global %D[%526] x 1 if %524 : memref<?x?xf32>
        %533 = arith.select %521, %529, %531 : f32
        %534 = arith.select %521, %530, %532 : f32
        %535 = arith.mulf %beta, %533 : f32
        %536 = arith.addf %527, %535 : f32
        %537 = arith.mulf %beta, %534 : f32
        %538 = arith.addf %528, %537 : f32
        lass_nv.st_global %D[%525], %536, %538 if %521 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%525], %536 if %523 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%526], %538 if %524 : memref<?x?xf32>, f32
        %539 = arith.andi %449, %516 : i1
        %540 = arith.andi %449, %519 : i1
        %541 = arith.andi %540, %258 : i1
        %542 = arith.xori %541, %256 : i1
        %543 = arith.andi %539, %542 : i1
        %544 = arith.andi %540, %542 : i1
        %545 = arith.addi %456, %515 : i32
        %546 = arith.addi %545, %19 : i32
        %547 = arith.mulf %alpha, %57 : f32
        %548 = arith.mulf %alpha, %58 : f32
        %549, %550 = lass_nv.ld_global %D[%545] x 2 if %541 : memref<?x?xf32>
        %551 = lass_nv.ld_global %D[%545] x 1 if %543 : memref<?x?xf32>
        %552 = lass_nv.ld_global %D[%546] x 1 if %544 : memref<?x?xf32>
        %553 = arith.select %541, %549, %551 : f32
        %554 = arith.select %541, %550, %552 : f32
        %555 = arith.mulf %beta, %553 : f32
        %556 = arith.addf %547, %555 : f32
        %557 = arith.mulf %beta, %554 : f32
        %558 = arith.addf %548, %557 : f32
        lass_nv.st_global %D[%545], %556, %558 if %541 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%545], %556 if %543 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%546], %558 if %544 : memref<?x?xf32>, f32
        %559 = arith.constant 24 : i32
        %560 = arith.addi %255, %559 : i32
        %561 = arith.cmpi ult, %560, %N : i32
        %562 = arith.andi %423, %561 : i1
        %563 = arith.addi %560, %19 : i32
        %564 = arith.cmpi ult, %563, %N : i32
        %565 = arith.andi %423, %564 : i1
        %566 = arith.andi %565, %258 : i1
        %567 = arith.xori %566, %256 : i1
        %568 = arith.andi %562, %567 : i1
        %569 = arith.andi %565, %567 : i1
        %570 = arith.addi %433, %560 : i32
        %571 = arith.addi %570, %19 : i32
        %572 = arith.mulf %alpha, %59 : f32
        %573 = arith.mulf %alpha, %60 : f32
        %574, %575 = lass_nv.ld_global %D[%570] x 2 if %566 : memref<?x?xf32>
        %576 = lass_nv.ld_global %D[%570] x 1 if %568 : memref<?x?xf32>
        %577 = lass_nv.ld_global %D[%571] x 1 if %569 : memref<?x?xf32>
        %578 = arith.select %566, %574, %576 : f32
        %579 = arith.select %566, %575, %577 : f32
        %580 = arith.mulf %beta, %578 : f32
        %581 = arith.addf %572, %580 : f32
        %582 = arith.mulf %beta, %579 : f32
        %583 = arith.addf %573, %582 : f32
        lass_nv.st_global %D[%570], %581, %583 if %566 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%570], %581 if %568 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%571], %583 if %569 : memref<?x?xf32>, f32
        %584 = arith.andi %449, %561 : i1
        %585 = arith.andi %449, %564 : i1
        %586 = arith.andi %585, %258 : i1
        %587 = arith.xori %586, %256 : i1
        %588 = arith.andi %584, %587 : i1
        %589 = arith.andi %585, %587 : i1
        %590 = arith.addi %456, %560 : i32
        %591 = arith.addi %590, %19 : i32
        %592 = arith.mulf %alpha, %61 : f32
        %593 = arith.mulf %alpha, %62 : f32
        %594, %595 = lass_nv.ld_global %D[%590] x 2 if %586 : memref<?x?xf32>
        %596 = lass_nv.ld_global %D[%590] x 1 if %588 : memref<?x?xf32>
        %597 = lass_nv.ld_global %D[%591] x 1 if %589 : memref<?x?xf32>
        %598 = arith.select %586, %594, %596 : f32
        %599 = arith.select %586, %595, %597 : f32
        %600 = arith.mulf %beta, %598 : f32
        %601 = arith.addf %592, %600 : f32
        %602 = arith.mulf %beta, %599 : f32
        %603 = arith.addf %593, %602 : f32
        lass_nv.st_global %D[%590], %601, %603 if %586 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%590], %601 if %588 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%591], %603 if %589 : memref<?x?xf32>, f32
        %604 = arith.addi %255, %9 : i32
        %605 = arith.cmpi ult, %604, %N : i32
        %606 = arith.andi %423, %605 : i1
        %607 = arith.addi %604, %19 : i32
        %608 = arith.cmpi ult, %607, %N : i32
        %609 = arith.andi %423, %608 : i1
        %610 = arith.andi %609, %258 : i1
        %611 = arith.xori %610, %256 : i1
        %612 = arith.andi %606, %611 : i1
        %613 = arith.andi %609, %611 : i1
        %614 = arith.addi %433, %604 : i32
        %615 = arith.addi %614, %19 : i32
        %616 = arith.mulf %alpha, %63 : f32
        %617 = arith.mulf %alpha, %64 : f32
        %618, %619 = lass_nv.ld_global %D[%614] x 2 if %610 : memref<?x?xf32>
        %620 = lass_nv.ld_global %D[%614] x 1 if %612 : memref<?x?xf32>
        %621 = lass_nv.ld_global %D[%615] x 1 if %613 : memref<?x?xf32>
        %622 = arith.select %610, %618, %620 : f32
        %623 = arith.select %610, %619, %621 : f32
        %624 = arith.mulf %beta, %622 : f32
        %625 = arith.addf %616, %624 : f32
        %626 = arith.mulf %beta, %623 : f32
        %627 = arith.addf %617, %626 : f32
        lass_nv.st_global %D[%614], %625, %627 if %610 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%614], %625 if %612 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%615], %627 if %613 : memref<?x?xf32>, f32
        %628 = arith.andi %449, %605 : i1
        %629 = arith.andi %449, %608 : i1
        %630 = arith.andi %629, %258 : i1
        %631 = arith.xori %630, %256 : i1
        %632 = arith.andi %628, %631 : i1
        %633 = arith.andi %629, %631 : i1
        %634 = arith.addi %456, %604 : i32
        %635 = arith.addi %634, %19 : i32
        %636 = arith.mulf %alpha, %65 : f32
        %637 = arith.mulf %alpha, %66 : f32
        %638, %639 = lass_nv.ld_global %D[%634] x 2 if %630 : memref<?x?xf32>
        %640 = lass_nv.ld_global %D[%634] x 1 if %632 : memref<?x?xf32>
        %641 = lass_nv.ld_global %D[%635] x 1 if %633 : memref<?x?xf32>
        %642 = arith.select %630, %638, %640 : f32
        %643 = arith.select %630, %639, %641 : f32
        %644 = arith.mulf %beta, %642 : f32
        %645 = arith.addf %636, %644 : f32
        %646 = arith.mulf %beta, %643 : f32
        %647 = arith.addf %637, %646 : f32
        lass_nv.st_global %D[%634], %645, %647 if %630 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%634], %645 if %632 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%635], %647 if %633 : memref<?x?xf32>, f32
        %648 = arith.constant 40 : i32
        %649 = arith.addi %255, %648 : i32
        %650 = arith.cmpi ult, %649, %N : i32
        %651 = arith.andi %423, %650 : i1
        %652 = arith.addi %649, %19 : i32
        %653 = arith.cmpi ult, %652, %N : i32
        %654 = arith.andi %423, %653 : i1
        %655 = arith.andi %654, %258 : i1
        %656 = arith.xori %655, %256 : i1
        %657 = arith.andi %651, %656 : i1
        %658 = arith.andi %654, %656 : i1
        %659 = arith.addi %433, %649 : i32
        %660 = arith.addi %659, %19 : i32
        %661 = arith.mulf %alpha, %67 : f32
        %662 = arith.mulf %alpha, %68 : f32
        %663, %664 = lass_nv.ld_global %D[%659] x 2 if %655 : memref<?x?xf32>
        %665 = lass_nv.ld_global %D[%659] x 1 if %657 : memref<?x?xf32>
        %666 = lass_nv.ld_global %D[%660] x 1 if %658 : memref<?x?xf32>
        %667 = arith.select %655, %663, %665 : f32
        %668 = arith.select %655, %664, %666 : f32
        %669 = arith.mulf %beta, %667 : f32
        %670 = arith.addf %661, %669 : f32
        %671 = arith.mulf %beta, %668 : f32
        %672 = arith.addf %662, %671 : f32
        lass_nv.st_global %D[%659], %670, %672 if %655 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%659], %670 if %657 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%660], %672 if %658 : memref<?x?xf32>, f32
        %673 = arith.andi %449, %650 : i1
        %674 = arith.andi %449, %653 : i1
        %675 = arith.andi %674, %258 : i1
        %676 = arith.xori %675, %256 : i1
        %677 = arith.andi %673, %676 : i1
        %678 = arith.andi %674, %676 : i1
        %679 = arith.addi %456, %649 : i32
        %680 = arith.addi %679, %19 : i32
        %681 = arith.mulf %alpha, %69 : f32
        %682 = arith.mulf %alpha, %70 : f32
        %683, %684 = lass_nv.ld_global %D[%679] x 2 if %675 : memref<?x?xf32>
        %685 = lass_nv.ld_global %D[%679] x 1 if %677 : memref<?x?xf32>
        %686 = lass_nv.ld_global %D[%680] x 1 if %678 : memref<?x?xf32>
        %687 = arith.select %675, %683, %685 : f32
        %688 = arith.select %675, %684, %686 : f32
        %689 = arith.mulf %beta, %687 : f32
        %690 = arith.addf %681, %689 : f32
        %691 = arith.mulf %beta, %688 : f32
        %692 = arith.addf %682, %691 : f32
        lass_nv.st_global %D[%679], %690, %692 if %675 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%679], %690 if %677 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%680], %692 if %678 : memref<?x?xf32>, f32
        %693 = arith.addi %255, %10 : i32
        %694 = arith.cmpi ult, %693, %N : i32
        %695 = arith.andi %423, %694 : i1
        %696 = arith.addi %693, %19 : i32
        %697 = arith.cmpi ult, %696, %N : i32
        %698 = arith.andi %423, %697 : i1
        %699 = arith.andi %698, %258 : i1
        %700 = arith.xori %699, %256 : i1
        %701 = arith.andi %695, %700 : i1
        %702 = arith.andi %698, %700 : i1
        %703 = arith.addi %433, %693 : i32
        %704 = arith.addi %703, %19 : i32
        %705 = arith.mulf %alpha, %71 : f32
        %706 = arith.mulf %alpha, %72 : f32
        %707, %708 = lass_nv.ld_global %D[%703] x 2 if %699 : memref<?x?xf32>
        %709 = lass_nv.ld_global %D[%703] x 1 if %701 : memref<?x?xf32>
        %710 = lass_nv.ld_global %D[%704] x 1 if %702 : memref<?x?xf32>
        %711 = arith.select %699, %707, %709 : f32
        %712 = arith.select %699, %708, %710 : f32
        %713 = arith.mulf %beta, %711 : f32
        %714 = arith.addf %705, %713 : f32
        %715 = arith.mulf %beta, %712 : f32
        %716 = arith.addf %706, %715 : f32
        lass_nv.st_global %D[%703], %714, %716 if %699 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%703], %714 if %701 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%704], %716 if %702 : memref<?x?xf32>, f32
        %717 = arith.andi %449, %694 : i1
        %718 = arith.andi %449, %697 : i1
        %719 = arith.andi %718, %258 : i1
        %720 = arith.xori %719, %256 : i1
        %721 = arith.andi %717, %720 : i1
        %722 = arith.andi %718, %720 : i1
        %723 = arith.addi %456, %693 : i32
        %724 = arith.addi %723, %19 : i32
        %725 = arith.mulf %alpha, %73 : f32
        %726 = arith.mulf %alpha, %74 : f32
        %727, %728 = lass_nv.ld_global %D[%723] x 2 if %719 : memref<?x?xf32>
        %729 = lass_nv.ld_global %D[%723] x 1 if %721 : memref<?x?xf32>
        %730 = lass_nv.ld_global %D[%724] x 1 if %722 : memref<?x?xf32>
        %731 = arith.select %719, %727, %729 : f32
        %732 = arith.select %719, %728, %730 : f32
        %733 = arith.mulf %beta, %731 : f32
        %734 = arith.addf %725, %733 : f32
        %735 = arith.mulf %beta, %732 : f32
        %736 = arith.addf %726, %735 : f32
        lass_nv.st_global %D[%723], %734, %736 if %719 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%723], %734 if %721 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%724], %736 if %722 : memref<?x?xf32>, f32
        %737 = arith.constant 56 : i32
        %738 = arith.addi %255, %737 : i32
        %739 = arith.cmpi ult, %738, %N : i32
        %740 = arith.andi %423, %739 : i1
        %741 = arith.addi %738, %19 : i32
        %742 = arith.cmpi ult, %741, %N : i32
        %743 = arith.andi %423, %742 : i1
        %744 = arith.andi %743, %258 : i1
        %745 = arith.xori %744, %256 : i1
        %746 = arith.andi %740, %745 : i1
        %747 = arith.andi %743, %745 : i1
        %748 = arith.addi %433, %738 : i32
        %749 = arith.addi %748, %19 : i32
        %750 = arith.mulf %alpha, %75 : f32
        %751 = arith.mulf %alpha, %76 : f32
        %752, %753 = lass_nv.ld_global %D[%748] x 2 if %744 : memref<?x?xf32>
        %754 = lass_nv.ld_global %D[%748] x 1 if %746 : memref<?x?xf32>
        %755 = lass_nv.ld_global %D[%749] x 1 if %747 : memref<?x?xf32>
        %756 = arith.select %744, %752, %754 : f32
        %757 = arith.select %744, %753, %755 : f32
        %758 = arith.mulf %beta, %756 : f32
        %759 = arith.addf %750, %758 : f32
        %760 = arith.mulf %beta, %757 : f32
        %761 = arith.addf %751, %760 : f32
        lass_nv.st_global %D[%748], %759, %761 if %744 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%748], %759 if %746 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%749], %761 if %747 : memref<?x?xf32>, f32
        %762 = arith.andi %449, %739 : i1
        %763 = arith.andi %449, %742 : i1
        %764 = arith.andi %763, %258 : i1
        %765 = arith.xori %764, %256 : i1
        %766 = arith.andi %762, %765 : i1
        %767 = arith.andi %763, %765 : i1
        %768 = arith.addi %456, %738 : i32
        %769 = arith.addi %768, %19 : i32
        %770 = arith.mulf %alpha, %77 : f32
        %771 = arith.mulf %alpha, %78 : f32
        %772, %773 = lass_nv.ld_global %D[%768] x 2 if %764 : memref<?x?xf32>
        %774 = lass_nv.ld_global %D[%768] x 1 if %766 : memref<?x?xf32>
        %775 = lass_nv.ld_global %D[%769] x 1 if %767 : memref<?x?xf32>
        %776 = arith.select %764, %772, %774 : f32
        %777 = arith.select %764, %773, %775 : f32
        %778 = arith.mulf %beta, %776 : f32
        %779 = arith.addf %770, %778 : f32
        %780 = arith.mulf %beta, %777 : f32
        %781 = arith.addf %771, %780 : f32
        lass_nv.st_global %D[%768], %779, %781 if %764 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%768], %779 if %766 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%769], %781 if %767 : memref<?x?xf32>, f32
      }
    } else {
      scf.if %265 {
        %782 = arith.muli %253, %N : i32
        %783 = arith.addi %782, %255 : i32
        %784 = arith.mulf %alpha, %47 : f32
        %785 = arith.mulf %alpha, %48 : f32
        lass_nv.st_global %D[%783], %784, %785 if %256 : memref<?x?xf32>, f32, f32
        %786 = arith.addi %253, %22 : i32
        %787 = arith.muli %786, %N : i32
        %788 = arith.addi %787, %255 : i32
        %789 = arith.mulf %alpha, %49 : f32
        %790 = arith.mulf %alpha, %50 : f32
        lass_nv.st_global %D[%788], %789, %790 if %256 : memref<?x?xf32>, f32, f32
        %791 = arith.addi %255, %22 : i32
        %792 = arith.addi %782, %791 : i32
        %793 = arith.mulf %alpha, %51 : f32
        %794 = arith.mulf %alpha, %52 : f32
        lass_nv.st_global %D[%792], %793, %794 if %256 : memref<?x?xf32>, f32, f32
        %795 = arith.addi %787, %791 : i32
        %796 = arith.mulf %alpha, %53 : f32
        %797 = arith.mulf %alpha, %54 : f32
        lass_nv.st_global %D[%795], %796, %797 if %256 : memref<?x?xf32>, f32, f32
        %798 = arith.addi %255, %8 : i32
        %799 = arith.addi %782, %798 : i32
        %800 = arith.mulf %alpha, %55 : f32
        %801 = arith.mulf %alpha, %56 : f32
        lass_nv.st_global %D[%799], %800, %801 if %256 : memref<?x?xf32>, f32, f32
        %802 = arith.addi %787, %798 : i32
        %803 = arith.mulf %alpha, %57 : f32
        %804 = arith.mulf %alpha, %58 : f32
        lass_nv.st_global %D[%802], %803, %804 if %256 : memref<?x?xf32>, f32, f32
        %805 = arith.constant 24 : i32
        %806 = arith.addi %255, %805 : i32
        %807 = arith.addi %782, %806 : i32
        %808 = arith.mulf %alpha, %59 : f32
        %809 = arith.mulf %alpha, %60 : f32
        lass_nv.st_global %D[%807], %808, %809 if %256 : memref<?x?xf32>, f32, f32
        %810 = arith.addi %787, %806 : i32
        %811 = arith.mulf %alpha, %61 : f32
        %812 = arith.mulf %alpha, %62 : f32
        lass_nv.st_global %D[%810], %811, %812 if %256 : memref<?x?xf32>, f32, f32
        %813 = arith.addi %255, %9 : i32
        %814 = arith.addi %782, %813 : i32
        %815 = arith.mulf %alpha, %63 : f32
        %816 = arith.mulf %alpha, %64 : f32
        lass_nv.st_global %D[%814], %815, %816 if %256 : memref<?x?xf32>, f32, f32
        %817 = arith.addi %787, %813 : i32
        %818 = arith.mulf %alpha, %65 : f32
        %819 = arith.mulf %alpha, %66 : f32
        lass_nv.st_global %D[%817], %818, %819 if %256 : memref<?x?xf32>, f32, f32
        %820 = arith.constant 40 : i32
        %821 = arith.addi %255, %820 : i32
        %822 = arith.addi %782, %821 : i32
        %823 = arith.mulf %alpha, %67 : f32
        %824 = arith.mulf %alpha, %68 : f32
        lass_nv.st_global %D[%822], %823, %824 if %256 : memref<?x?xf32>, f32, f32
        %825 = arith.addi %787, %821 : i32
        %826 = arith.mulf %alpha, %69 : f32
        %827 = arith.mulf %alpha, %70 : f32
        lass_nv.st_global %D[%825], %826, %827 if %256 : memref<?x?xf32>, f32, f32
        %828 = arith.addi %255, %10 : i32
        %829 = arith.addi %782, %828 : i32
        %830 = arith.mulf %alpha, %71 : f32
        %831 = arith.mulf %alpha, %72 : f32
        lass_nv.st_global %D[%829], %830, %831 if %256 : memref<?x?xf32>, f32, f32
        %832 = arith.addi %787, %828 : i32
        %833 = arith.mulf %alpha, %73 : f32
        %834 = arith.mulf %alpha, %74 : f32
        lass_nv.st_global %D[%832], %833, %834 if %256 : memref<?x?xf32>, f32, f32
        %835 = arith.constant 56 : i32
        %836 = arith.addi %255, %835 : i32
        %837 = arith.addi %782, %836 : i32
        %838 = arith.mulf %alpha, %75 : f32
        %839 = arith.mulf %alpha, %76 : f32
        lass_nv.st_global %D[%837], %838, %839 if %256 : memref<?x?xf32>, f32, f32
        %840 = arith.addi %787, %836 : i32
        %841 = arith.mulf %alpha, %77 : f32
        %842 = arith.mulf %alpha, %78 : f32
        lass_nv.st_global %D[%840], %841, %842 if %256 : memref<?x?xf32>, f32, f32
      } else {
        %843 = arith.cmpi ult, %253, %M : i32
        %844 = arith.cmpi ult, %255, %N : i32
        %845 = arith.andi %843, %844 : i1
        %846 = arith.addi %255, %19 : i32
        %847 = arith.cmpi ult, %846, %N : i32
        %848 = arith.andi %843, %847 : i1
        %849 = arith.andi %848, %258 : i1
        %850 = arith.xori %849, %256 : i1
        %851 = arith.andi %845, %850 : i1
        %852 = arith.andi %848, %850 : i1
        %853 = arith.muli %253, %N : i32
        %854 = arith.addi %853, %255 : i32
        %855 = arith.addi %854, %19 : i32
        %856 = arith.mulf %alpha, %47 : f32
        %857 = arith.mulf %alpha, %48 : f32
        lass_nv.st_global %D[%854], %856, %857 if %849 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%854], %856 if %851 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%855], %857 if %852 : memref<?x?xf32>, f32
        %858 = arith.addi %253, %22 : i32
        %859 = arith.cmpi ult, %858, %M : i32
        %860 = arith.andi %859, %844 : i1
        %861 = arith.andi %859, %847 : i1
        %862 = arith.andi %861, %258 : i1
        %863 = arith.xori %862, %256 : i1
        %864 = arith.andi %860, %863 : i1
        %865 = arith.andi %861, %863 : i1
        %866 = arith.muli %858, %N : i32
        %867 = arith.addi %866, %255 : i32
        %868 = arith.addi %867, %19 : i32
        %869 = arith.mulf %alpha, %49 : f32
        %870 = arith.mulf %alpha, %50 : f32
        lass_nv.st_global %D[%867], %869, %870 if %862 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%867], %869 if %864 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%868], %870 if %865 : memref<?x?xf32>, f32
        %871 = arith.addi %255, %22 : i32
        %872 = arith.cmpi ult, %871, %N : i32
        %873 = arith.andi %843, %872 : i1
        %874 = arith.addi %871, %19 : i32
        %875 = arith.cmpi ult, %874, %N : i32
        %876 = arith.andi %843, %875 : i1
        %877 = arith.andi %876, %258 : i1
        %878 = arith.xori %877, %256 : i1
        %879 = arith.andi %873, %878 : i1
        %880 = arith.andi %876, %878 : i1
        %881 = arith.addi %853, %871 : i32
        %882 = arith.addi %881, %19 : i32
        %883 = arith.mulf %alpha, %51 : f32
        %884 = arith.mulf %alpha, %52 : f32
        lass_nv.st_global %D[%881], %883, %884 if %877 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%881], %883 if %879 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%882], %884 if %880 : memref<?x?xf32>, f32
        %885 = arith.andi %859, %872 : i1
        %886 = arith.andi %859, %875 : i1
        %887 = arith.andi %886, %258 : i1
        %888 = arith.xori %887, %256 : i1
        %889 = arith.andi %885, %888 : i1
        %890 = arith.andi %886, %888 : i1
        %891 = arith.addi %866, %871 : i32
        %892 = arith.addi %891, %19 : i32
        %893 = arith.mulf %alpha, %53 : f32
        %894 = arith.mulf %alpha, %54 : f32
        lass_nv.st_global %D[%891], %893, %894 if %887 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%891], %893 if %889 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%892], %894 if %890 : memref<?x?xf32>, f32
        %895 = arith.addi %255, %8 : i32
        %896 = arith.cmpi ult, %895, %N : i32
        %897 = arith.andi %843, %896 : i1
        %898 = arith.addi %895, %19 : i32
        %899 = arith.cmpi ult, %898, %N : i32
        %900 = arith.andi %843, %899 : i1
        %901 = arith.andi %900, %258 : i1
        %902 = arith.xori %901, %256 : i1
        %903 = arith.andi %897, %902 : i1
        %904 = arith.andi %900, %902 : i1
        %905 = arith.addi %853, %895 : i32
        %906 = arith.addi %905, %19 : i32
        %907 = arith.mulf %alpha, %55 : f32
        %908 = arith.mulf %alpha, %56 : f32
        lass_nv.st_global %D[%905], %907, %908 if %901 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%905], %907 if %903 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%906], %908 if %904 : memref<?x?xf32>, f32
        %909 = arith.andi %859, %896 : i1
        %910 = arith.andi %859, %899 : i1
        %911 = arith.andi %910, %258 : i1
        %912 = arith.xori %911, %256 : i1
        %913 = arith.andi %909, %912 : i1
        %914 = arith.andi %910, %912 : i1
        %915 = arith.addi %866, %895 : i32
        %916 = arith.addi %915, %19 : i32
        %917 = arith.mulf %alpha, %57 : f32
        %918 = arith.mulf %alpha, %58 : f32
        lass_nv.st_global %D[%915], %917, %918 if %911 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%915], %917 if %913 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%916], %918 if %914 : memref<?x?xf32>, f32
        %919 = arith.constant 24 : i32
        %920 = arith.addi %255, %919 : i32
        %921 = arith.cmpi ult, %920, %N : i32
        %922 = arith.andi %843, %921 : i1
        %923 = arith.addi %920, %19 : i32
        %924 = arith.cmpi ult, %923, %N : i32
        %925 = arith.andi %843, %924 : i1
        %926 = arith.andi %925, %258 : i1
        %927 = arith.xori %926, %256 : i1
        %928 = arith.andi %922, %927 : i1
        %929 = arith.andi %925, %927 : i1
        %930 = arith.addi %853, %920 : i32
        %931 = arith.addi %930, %19 : i32
        %932 = arith.mulf %alpha, %59 : f32
        %933 = arith.mulf %alpha, %60 : f32
        lass_nv.st_global %D[%930], %932, %933 if %926 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%930], %932 if %928 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%931], %933 if %929 : memref<?x?xf32>, f32
        %934 = arith.andi %859, %921 : i1
        %935 = arith.andi %859, %924 : i1
        %936 = arith.andi %935, %258 : i1
        %937 = arith.xori %936, %256 : i1
        %938 = arith.andi %934, %937 : i1
        %939 = arith.andi %935, %937 : i1
        %940 = arith.addi %866, %920 : i32
        %941 = arith.addi %940, %19 : i32
        %942 = arith.mulf %alpha, %61 : f32
        %943 = arith.mulf %alpha, %62 : f32
        lass_nv.st_global %D[%940], %942, %943 if %936 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%940], %942 if %938 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%941], %943 if %939 : memref<?x?xf32>, f32
        %944 = arith.addi %255, %9 : i32
        %945 = arith.cmpi ult, %944, %N : i32
        %946 = arith.andi %843, %945 : i1
        %947 = arith.addi %944, %19 : i32
        %948 = arith.cmpi ult, %947, %N : i32
        %949 = arith.andi %843, %948 : i1
        %950 = arith.andi %949, %258 : i1
        %951 = arith.xori %950, %256 : i1
        %952 = arith.andi %946, %951 : i1
        %953 = arith.andi %949, %951 : i1
        %954 = arith.addi %853, %944 : i32
        %955 = arith.addi %954, %19 : i32
        %956 = arith.mulf %alpha, %63 : f32
        %957 = arith.mulf %alpha, %64 : f32
        lass_nv.st_global %D[%954], %956, %957 if %950 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%954], %956 if %952 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%955], %957 if %953 : memref<?x?xf32>, f32
        %958 = arith.andi %859, %945 : i1
        %959 = arith.andi %859, %948 : i1
        %960 = arith.andi %959, %258 : i1
        %961 = arith.xori %960, %256 : i1
        %962 = arith.andi %958, %961 : i1
        %963 = arith.andi %959, %961 : i1
        %964 = arith.addi %866, %944 : i32
        %965 = arith.addi %964, %19 : i32
        %966 = arith.mulf %alpha, %65 : f32
        %967 = arith.mulf %alpha, %66 : f32
        lass_nv.st_global %D[%964], %966, %967 if %960 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%964], %966 if %962 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%965], %967 if %963 : memref<?x?xf32>, f32
        %968 = arith.constant 40 : i32
        %969 = arith.addi %255, %968 : i32
        %970 = arith.cmpi ult, %969, %N : i32
        %971 = arith.andi %843, %970 : i1
        %972 = arith.addi %969, %19 : i32
        %973 = arith.cmpi ult, %972, %N : i32
        %974 = arith.andi %843, %973 : i1
        %975 = arith.andi %974, %258 : i1
        %976 = arith.xori %975, %256 : i1
        %977 = arith.andi %971, %976 : i1
        %978 = arith.andi %974, %976 : i1
        %979 = arith.addi %853, %969 : i32
        %980 = arith.addi %979, %19 : i32
        %981 = arith.mulf %alpha, %67 : f32
        %982 = arith.mulf %alpha, %68 : f32
        lass_nv.st_global %D[%979], %981, %982 if %975 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%979], %981 if %977 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%980], %982 if %978 : memref<?x?xf32>, f32
        %983 = arith.andi %859, %970 : i1
        %984 = arith.andi %859, %973 : i1
        %985 = arith.andi %984, %258 : i1
        %986 = arith.xori %985, %256 : i1
        %987 = arith.andi %983, %986 : i1
        %988 = arith.andi %984, %986 : i1
        %989 = arith.addi %866, %969 : i32
        %990 = arith.addi %989, %19 : i32
        %991 = arith.mulf %alpha, %69 : f32
        %992 = arith.mulf %alpha, %70 : f32
        lass_nv.st_global %D[%989], %991, %992 if %985 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%989], %991 if %987 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%990], %992 if %988 : memref<?x?xf32>, f32
        %993 = arith.addi %255, %10 : i32
        %994 = arith.cmpi ult, %993, %N : i32
        %995 = arith.andi %843, %994 : i1
        %996 = arith.addi %993, %19 : i32
        %997 = arith.cmpi ult, %996, %N : i32
        %998 = arith.andi %843, %997 : i1
        %999 = arith.andi %998, %258 : i1
        %1000 = arith.xori %999, %256 : i1
        %1001 = arith.andi %995, %1000 : i1
        %1002 = arith.andi %998, %1000 : i1
        %1003 = arith.addi %853, %993 : i32
        %1004 = arith.addi %1003, %19 : i32
        %1005 = arith.mulf %alpha, %71 : f32
        %1006 = arith.mulf %alpha, %72 : f32
        lass_nv.st_global %D[%1003], %1005, %1006 if %999 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%1003], %1005 if %1001 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%1004], %1006 if %1002 : memref<?x?xf32>, f32
        %1007 = arith.andi %859, %994 : i1
        %1008 = arith.andi %859, %997 : i1
        %1009 = arith.andi %1008, %258 : i1
        %1010 = arith.xori %1009, %256 : i1
        %1011 = arith.andi %1007, %1010 : i1
        %1012 = arith.andi %1008, %1010 : i1
        %1013 = arith.addi %866, %993 : i32
        %1014 = arith.addi %1013, %19 : i32
        %1015 = arith.mulf %alpha, %73 : f32
        %1016 = arith.mulf %alpha, %74 : f32
        lass_nv.st_global %D[%1013], %1015, %1016 if %1009 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%1013], %1015 if %1011 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%1014], %1016 if %1012 : memref<?x?xf32>, f32
        %1017 = arith.constant 56 : i32
        %1018 = arith.addi %255, %1017 : i32
        %1019 = arith.cmpi ult, %1018, %N : i32
        %1020 = arith.andi %843, %1019 : i1
        %1021 = arith.addi %1018, %19 : i32
        %1022 = arith.cmpi ult, %1021, %N : i32
        %1023 = arith.andi %843, %1022 : i1
        %1024 = arith.andi %1023, %258 : i1
        %1025 = arith.xori %1024, %256 : i1
        %1026 = arith.andi %1020, %1025 : i1
        %1027 = arith.andi %1023, %1025 : i1
        %1028 = arith.addi %853, %1018 : i32
        %1029 = arith.addi %1028, %19 : i32
        %1030 = arith.mulf %alpha, %75 : f32
        %1031 = arith.mulf %alpha, %76 : f32
        lass_nv.st_global %D[%1028], %1030, %1031 if %1024 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%1028], %1030 if %1026 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%1029], %1031 if %1027 : memref<?x?xf32>, f32
        %1032 = arith.andi %859, %1019 : i1
        %1033 = arith.andi %859, %1022 : i1
        %1034 = arith.andi %1033, %258 : i1
        %1035 = arith.xori %1034, %256 : i1
        %1036 = arith.andi %1032, %1035 : i1
        %1037 = arith.andi %1033, %1035 : i1
        %1038 = arith.addi %866, %1018 : i32
        %1039 = arith.addi %1038, %19 : i32
        %1040 = arith.mulf %alpha, %77 : f32
        %1041 = arith.mulf %alpha, %78 : f32
        lass_nv.st_global %D[%1038], %1040, %1041 if %1034 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%1038], %1040 if %1036 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%1039], %1041 if %1037 : memref<?x?xf32>, f32
      }
    }
    func.return
  }
}