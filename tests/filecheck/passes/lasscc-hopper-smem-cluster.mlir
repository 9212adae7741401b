// lasscc-hopper-smem (passes/hopper_smem.py + passes/cluster_multicast.py) of a kernel with
// `cluster = [2, 1]` (config 64x64x64 f16, 2 stages; lasscc.cluster): the two CTAs of a cluster
// lie along M and share the B tile, so tmap_B's box is half the tile (32 of its 64 rows) and each
// CTA multicasts its half (rows %cta_rank * 32 ..) into both CTAs' slots (ctaMask 3), while A is
// loaded whole by each.  The empty barriers expect the consumer warps of both CTAs (2 x 4 = 8: lane 0
// of each warp releases, resources.empty_barrier_arrivals), a consumer warp releases its slot locally
// and on the peer (rank (rank + 1) % 2), and cluster barriers
// follow the barriers' init and precede the return; the kernel carries nvvm.cluster_dim.
//
// RUN: %lasscc opt -p lasscc-hopper-smem %s -o %t.once.mlir
// RUN: filecheck %s --input-file %t.once.mlir
// RUN: xdsl-opt -p lasscc-hopper-smem %s | xdsl-opt -p cse,dce | filecheck %s
//
// Left alone once applied: a second run changes nothing.
// RUN: %lasscc opt -p lasscc-hopper-smem %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
//
// Rejected: cluster = [2, 1] on a 64x8 tile (its 8 B rows cannot be cut into two whole swizzle atoms).
// RUN: not %lasscc opt -p lasscc-hopper-smem %S/Inputs/lasscc-hopper-smem-cluster-unsplittable.mlir.in 2>&1 | filecheck %s --check-prefix=ERR

// CHECK-LABEL: func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32, %tmap_A: !lass_nv.tensor_map<64x64xf16, swizzle_128b>, %tmap_B: !lass_nv.tensor_map<32x64xf16, swizzle_128b>)
// CHECK-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK:         %cta_rank = lass_cluster.ctarank
// CHECK:         [[ALL:%[0-9]+]] = arith.constant 8 : i32
// CHECK:         scf.if
// CHECK:           lass_nv.mbarrier_init
// CHECK:           lass_nv.mbarrier_init {{%[0-9]+}}, [[ALL]]
// CHECK:         lass_nv.fence_mbarrier_init
// CHECK-NOT:     lass_nv.bar_sync
// CHECK:         lass_cluster.sync
// CHECK:         lass_nv.tma_load_2d %tmap_A[{{%[0-9]+}}, %m0], {{%[0-9]+}}, {{%[0-9]+}} : !lass_nv.tensor_map<64x64xf16, swizzle_128b>
// CHECK:         [[MASK:%[0-9]+]] = arith.constant 3 : i32
// CHECK:         lass_cluster.tma_load_multicast %tmap_B[{{%[0-9]+}}, {{%[0-9]+}}], {{%[0-9]+}}, {{%[0-9]+}}, [[MASK]] : !lass_nv.tensor_map<32x64xf16, swizzle_128b>
// CHECK:         scf.for %kt =
// CHECK:           lass_nv.wgmma_mma_async
// CHECK:           [[LANE0:%[0-9]+]] = arith.cmpi eq, %lane,
// CHECK-NEXT:      [[REL:%[0-9]+]] = arith.andi {{%[0-9]+}}, [[LANE0]] : i1
// CHECK-NEXT:      scf.if [[REL]]
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
    %cluster_id = lass_cluster.cluster_id
    %cta_rank = lass_cluster.ctarank
    %11 = arith.constant 63 : i32
    %12 = arith.addi %M, %11 : i32
    %13 = arith.divui %12, %2 : i32
    %14 = arith.addi %N, %11 : i32
    %15 = arith.divui %14, %2 : i32
    %16 = arith.constant 1 : i32
    %17 = arith.addi %13, %16 : i32
    %18 = arith.constant 2 : i32
    %19 = arith.divui %17, %18 : i32
    %20 = arith.constant 8 : i32
    %21 = arith.muli %15, %20 : i32
    %22 = arith.divui %cluster_id, %21 : i32
    %23 = arith.muli %22, %20 : i32
    %24 = arith.subi %19, %23 : i32
    %25 = arith.minui %24, %20 : i32
    %26 = arith.remui %cluster_id, %21 : i32
    %27 = arith.remui %26, %25 : i32
    %28 = arith.addi %23, %27 : i32
    %29 = arith.divui %26, %25 : i32
    %30 = arith.muli %28, %18 : i32
    %31 = arith.remui %cta_rank, %18 : i32
    %32 = arith.addi %30, %31 : i32
    %33 = arith.divui %cta_rank, %18 : i32
    %34 = arith.addi %29, %33 : i32
    %m0 = arith.muli %32, %2 : i32
    %n0 = arith.muli %34, %2 : i32
    %35 = arith.constant 0.000000e+00 : f32
    %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x64x64xf16>
    %ring_b = lass_pipe.ring {offset = 16384 : i64} : !lass_pipe.ring<2x64x64xf16>
    %bars = lass_pipe.tma_pipeline {offset = 32768 : i64, arrivals = 128 : i64} : !lass_pipe.barriers<2>
    %36 = arith.addi %K, %11 : i32
    %k_tiles = arith.divui %36, %2 : i32
    %37 = arith.constant 0 : i32
    %38 = arith.cmpi ult, %37, %k_tiles : i32
    %39 = arith.remui %37, %18 : i32
    %40 = arith.divui %37, %18 : i32
    %41 = arith.remui %40, %18 : i32
    %42 = arith.muli %37, %2 : i32
    %43 = arith.cmpi eq, %tid, %37 : i32
    scf.if %43 {
      lass_pipe.producer_acquire %bars[%39], %41, %38 {tx = 16384 : i64} : !lass_pipe.barriers<2>
      lass_pipe.tma_load A %A[%m0, %42], %ring_a[%39], %bars, %38 : memref<?x?xf16>, !lass_pipe.ring<2x64x64xf16>, !lass_pipe.barriers<2>
      lass_pipe.tma_load B %B[%n0, %42], %ring_b[%39], %bars, %38 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<2x64x64xf16>, !lass_pipe.barriers<2>
    }
    %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75 = scf.for %kt = %37 to %k_tiles step %16 iter_args(%76 = %35, %77 = %35, %78 = %35, %79 = %35, %80 = %35, %81 = %35, %82 = %35, %83 = %35, %84 = %35, %85 = %35, %86 = %35, %87 = %35, %88 = %35, %89 = %35, %90 = %35, %91 = %35, %92 = %35, %93 = %35, %94 = %35, %95 = %35, %96 = %35, %97 = %35, %98 = %35, %99 = %35, %100 = %35, %101 = %35, %102 = %35, %103 = %35, %104 = %35, %105 = %35, %106 = %35, %107 = %35) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) : i32 {
      %slot = arith.remui %kt, %18 : i32
      %108 = arith.divui %kt, %18 : i32
      %phase = arith.remui %108, %18 : i32
      lass_pipe.consumer_wait %bars[%slot], %phase : !lass_pipe.barriers<2>
      lass_wg.fence
      %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127, %128, %129, %130, %131, %132, %133, %134, %135, %136, %137, %138, %139, %140 = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 0 acc(%76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107) : !lass_pipe.ring<2x64x64xf16>, !lass_pipe.ring<2x64x64xf16>, f32
      %141, %142, %143, %144, %145, %146, %147, %148, %149, %150, %151, %152, %153, %154, %155, %156, %157, %158, %159, %160, %161, %162, %163, %164, %165, %166, %167, %168, %169, %170, %171, %172 = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 16 acc(%109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127, %128, %129, %130, %131, %132, %133, %134, %135, %136, %137, %138, %139, %140) : !lass_pipe.ring<2x64x64xf16>, !lass_pipe.ring<2x64x64xf16>, f32
      %173, %174, %175, %176, %177, %178, %179, %180, %181, %182, %183, %184, %185, %186, %187, %188, %189, %190, %191, %192, %193, %194, %195, %196, %197, %198, %199, %200, %201, %202, %203, %204 = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 32 acc(%141, %142, %143, %144, %145, %146, %147, %148, %149, %150, %151, %152, %153, %154, %155, %156, %157, %158, %159, %160, %161, %162, %163, %164, %165, %166, %167, %168, %169, %170, %171, %172) : !lass_pipe.ring<2x64x64xf16>, !lass_pipe.ring<2x64x64xf16>, f32
      %205, %206, %207, %208, %209, %210, %211, %212, %213, %214, %215, %216, %217, %218, %219, %220, %221, %222, %223, %224, %225, %226, %227, %228, %229, %230, %231, %232, %233, %234, %235, %236 = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 48 acc(%173, %174, %175, %176, %177, %178, %179, %180, %181, %182, %183, %184, %185, %186, %187, %188, %189, %190, %191, %192, %193, %194, %195, %196, %197, %198, %199, %200, %201, %202, %203, %204) : !lass_pipe.ring<2x64x64xf16>, !lass_pipe.ring<2x64x64xf16>, f32
      lass_wg.commit
      lass_wg.wait {pending = 1 : i64}
      %237 = arith.addi %kt, %16 : i32
      %238 = arith.remui %237, %18 : i32
      %239 = arith.cmpi ult, %37, %kt : i32
      lass_pipe.consumer_release %bars[%238], %239 : !lass_pipe.barriers<2>
      %240 = arith.cmpi ult, %237, %k_tiles : i32
      %241 = arith.remui %237, %18 : i32
      %242 = arith.divui %237, %18 : i32
      %243 = arith.remui %242, %18 : i32
      %244 = arith.muli %237, %2 : i32
      scf.if %43 {
        lass_pipe.producer_acquire %bars[%241], %243, %240 {tx = 16384 : i64} : !lass_pipe.barriers<2>
        lass_pipe.tma_load A %A[%m0, %244], %ring_a[%241], %bars, %240 : memref<?x?xf16>, !lass_pipe.ring<2x64x64xf16>, !lass_pipe.barriers<2>
        lass_pipe.tma_load B %B[%n0, %244], %ring_b[%241], %bars, %240 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<2x64x64xf16>, !lass_pipe.barriers<2>
      }
      scf.yield %205, %206, %207, %208, %209, %210, %211, %212, %213, %214, %215, %216, %217, %218, %219, %220, %221, %222, %223, %224, %225, %226, %227, %228, %229, %230, %231, %232, %233, %234, %235, %236 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
    }
    lass_wg.wait {pending = 0 : i64}
    %245 = arith.shrui %lane, %18 : i32
    %246 = arith.constant 3 : i32
    %247 = arith.andi %lane, %246 : i32
    %248 = arith.muli %247, %18 : i32
    %249 = arith.addi %m0, %warp_m0 : i32
    %250 = arith.addi %249, %245 : i32
    %251 = arith.addi %n0, %warp_n0 : i32
    %252 = arith.addi %251, %248 : i32
    %253 = arith.constant true
    %254 = arith.andi %N, %16 : i32
    %255 = arith.cmpi eq, %254, %37 : i32
    %256 = arith.cmpf one, %beta, %35 : f32
    %257 = arith.addi %m0, %2 : i32
    %258 = arith.cmpi ule, %257, %M : i32
    %259 = arith.addi %n0, %2 : i32
    %260 = arith.cmpi ule, %259, %N : i32
    %261 = arith.andi %258, %260 : i1
    %262 = arith.andi %261, %255 : i1
    scf.if %256 {
      scf.if %262 {
        %263 = arith.muli %250, %N : i32
        %264 = arith.addi %263, %252 : i32
        %265 = arith.mulf %alpha, %44 : f32
        %266 = arith.mulf %alpha, %45 : f32
        %267, %268 = lass_nv.ld_global %D[%264] x 2 if %253 : memref<?x?xf32>
        %269 = arith.mulf %beta, %267 : f32
        %270 = arith.addf %265, %269 : f32
        %271 = arith.mulf %beta, %268 : f32
        %272 = arith.addf %266, %271 : f32
        lass_nv.st_global %D[%264], %270, %272 if %253 : memref<?x?xf32>, f32, f32
        %273 = arith.addi %250, %20 : i32
        %274 = arith.muli %273, %N : i32
        %275 = arith.addi %274, %252 : i32
        %276 = arith.mulf %alpha, %46 : f32
        %277 = arith.mulf %alpha, %47 : f32
        %278, %279 = lass_nv.ld_global %D[%275] x 2 if %253 : memref<?x?xf32>
        %280 = arith.mulf %beta, %278 : f32
        %281 = arith.addf %276, %280 : f32
        %282 = arith.mulf %beta, %279 : f32
        %283 = arith.addf %277, %282 : f32
        lass_nv.st_global %D[%275], %281, %283 if %253 : memref<?x?xf32>, f32, f32
        %284 = arith.addi %252, %20 : i32
        %285 = arith.addi %263, %284 : i32
        %286 = arith.mulf %alpha, %48 : f32
        %287 = arith.mulf %alpha, %49 : f32
        %288, %289 = lass_nv.ld_global %D[%285] x 2 if %253 : memref<?x?xf32>
        %290 = arith.mulf %beta, %288 : f32
        %291 = arith.addf %286, %290 : f32
        %292 = arith.mulf %beta, %289 : f32
        %293 = arith.addf %287, %292 : f32
        lass_nv.st_global %D[%285], %291, %293 if %253 : memref<?x?xf32>, f32, f32
        %294 = arith.addi %274, %284 : i32
        %295 = arith.mulf %alpha, %50 : f32
        %296 = arith.mulf %alpha, %51 : f32
        %297, %298 = lass_nv.ld_global %D[%294] x 2 if %253 : memref<?x?xf32>
        %299 = arith.mulf %beta, %297 : f32
        %300 = arith.addf %295, %299 : f32
        %301 = arith.mulf %beta, %298 : f32
        %302 = arith.addf %296, %301 : f32
        lass_nv.st_global %D[%294], %300, %302 if %253 : memref<?x?xf32>, f32, f32
        %303 = arith.addi %252, %8 : i32
        %304 = arith.addi %263, %303 : i32
        %305 = arith.mulf %alpha, %52 : f32
        %306 = arith.mulf %alpha, %53 : f32
        %307, %308 = lass_nv.ld_global %D[%304] x 2 if %253 : memref<?x?xf32>
        %309 = arith.mulf %beta, %307 : f32
        %310 = arith.addf %305, %309 : f32
        %311 = arith.mulf %beta, %308 : f32
        %312 = arith.addf %306, %311 : f32
        lass_nv.st_global %D[%304], %310, %312 if %253 : memref<?x?xf32>, f32, f32
        %313 = arith.addi %274, %303 : i32
        %314 = arith.mulf %alpha, %54 : f32
        %315 = arith.mulf %alpha, %55 : f32
        %316, %317 = lass_nv.ld_global %D[%313] x 2 if %253 : memref<?x?xf32>
        %318 = arith.mulf %beta, %316 : f32
        %319 = arith.addf %314, %318 : f32
        %320 = arith.mulf %beta, %317 : f32
        %321 = arith.addf %315, %320 : f32
        lass_nv.st_global %D[%313], %319, %321 if %253 : memref<?x?xf32>, f32, f32
        %322 = arith.constant 24 : i32
        %323 = arith.addi %252, %322 : i32
        %324 = arith.addi %263, %323 : i32
        %325 = arith.mulf %alpha, %56 : f32
        %326 = arith.mulf %alpha, %57 : f32
        %327, %328 = lass_nv.ld_global %D[%324] x 2 if %253 : memref<?x?xf32>
        %329 = arith.mulf %beta, %327 : f32
        %330 = arith.addf %325, %329 : f32
        %331 = arith.mulf %beta, %328 : f32
        %332 = arith.addf %326, %331 : f32
        lass_nv.st_global %D[%324], %330, %332 if %253 : memref<?x?xf32>, f32, f32
        %333 = arith.addi %274, %323 : i32
        %334 = arith.mulf %alpha, %58 : f32
        %335 = arith.mulf %alpha, %59 : f32
        %336, %337 = lass_nv.ld_global %D[%333] x 2 if %253 : memref<?x?xf32>
        %338 = arith.mulf %beta, %336 : f32
        %339 = arith.addf %334, %338 : f32
        %340 = arith.mulf %beta, %337 : f32
        %341 = arith.addf %335, %340 : f32
        lass_nv.st_global %D[%333], %339, %341 if %253 : memref<?x?xf32>, f32, f32
        %342 = arith.addi %252, %9 : i32
        %343 = arith.addi %263, %342 : i32
        %344 = arith.mulf %alpha, %60 : f32
        %345 = arith.mulf %alpha, %61 : f32
        %346, %347 = lass_nv.ld_global %D[%343] x 2 if %253 : memref<?x?xf32>
        %348 = arith.mulf %beta, %346 : f32
        %349 = arith.addf %344, %348 : f32
        %350 = arith.mulf %beta, %347 : f32
        %351 = arith.addf %345, %350 : f32
        lass_nv.st_global %D[%343], %349, %351 if %253 : memref<?x?xf32>, f32, f32
        %352 = arith.addi %274, %342 : i32
        %353 = arith.mulf %alpha, %62 : f32
        %354 = arith.mulf %alpha, %63 : f32
        %355, %356 = lass_nv.ld_global %D[%352] x 2 if %253 : memref<?x?xf32>
        %357 = arith.mulf %beta, %355 : f32
        %358 = arith.addf %353, %357 : f32
        %359 = arith.mulf %beta, %356 : f32
        %360 = arith.addf %354, %359 : f32
        lass_nv.st_global %D[%352], %358, %360 if %253 : memref<?x?xf32>, f32, f32
        %361 = arith.constant 40 : i32
        %362 = arith.addi %252, %361 : i32
        %363 = arith.addi %263, %362 : i32
        %364 = arith.mulf %alpha, %64 : f32
        %365 = arith.mulf %alpha, %65 : f32
        %366, %367 = lass_nv.ld_global %D[%363] x 2 if %253 : memref<?x?xf32>
        %368 = arith.mulf %beta, %366 : f32
        %369 = arith.addf %364, %368 : f32
        %370 = arith.mulf %beta, %367 : f32
        %371 = arith.addf %365, %370 : f32
        lass_nv.st_global %D[%363], %369, %371 if %253 : memref<?x?xf32>, f32, f32
        %372 = arith.addi %274, %362 : i32
        %373 = arith.mulf %alpha, %66 : f32
        %374 = arith.mulf %alpha, %67 : f32
        %375, %376 = lass_nv.ld_global %D[%372] x 2 if %253 : memref<?x?xf32>
        %377 = arith.mulf %beta, %375 : f32
        %378 = arith.addf %373, %377 : f32
        %379 = arith.mulf %beta, %376 : f32
        %380 = arith.addf %374, %379 : f32
        lass_nv.st_global %D[%372], %378, %380 if %253 : memref<?x?xf32>, f32, f32
        %381 = arith.addi %252, %10 : i32
        %382 = arith.addi %263, %381 : i32
        %383 = arith.mulf %alpha, %68 : f32
        %384 = arith.mulf %alpha, %69 : f32
        %385, %386 = lass_nv.ld_global %D[%382] x 2 if %253 : memref<?x?xf32>
        %387 = arith.mulf %beta, %385 : f32
        %388 = arith.addf %383, %387 : f32
        %389 = arith.mulf %beta, %386 : f32
        %390 = arith.addf %384, %389 : f32
        lass_nv.st_global %D[%382], %388, %390 if %253 : memref<?x?xf32>, f32, f32
        %391 = arith.addi %274, %381 : i32
        %392 = arith.mulf %alpha, %70 : f32
        %393 = arith.mulf %alpha, %71 : f32
        %394, %395 = lass_nv.ld_global %D[%391] x 2 if %253 : memref<?x?xf32>
        %396 = arith.mulf %beta, %394 : f32
        %397 = arith.addf %392, %396 : f32
        %398 = arith.mulf %beta, %395 : f32
        %399 = arith.addf %393, %398 : f32
        lass_nv.st_global %D[%391], %397, %399 if %253 : memref<?x?xf32>, f32, f32
        %400 = arith.constant 56 : i32
        %401 = arith.addi %252, %400 : i32
        %402 = arith.addi %263, %401 : i32
        %403 = arith.mulf %alpha, %72 : f32
        %404 = arith.mulf %alpha, %73 : f32
        %405, %406 = lass_nv.ld_global %D[%402] x 2 if %253 : memref<?x?xf32>
        %407 = arith.mulf %beta, %405 : f32
        %408 = arith.addf %403, %407 : f32
        %409 = arith.mulf %beta, %406 : f32
        %410 = arith.addf %404, %409 : f32
        lass_nv.st_global %D[%402], %408, %410 if %253 : memref<?x?xf32>, f32, f32
        %411 = arith.addi %274, %401 : i32
        %412 = arith.mulf %alpha, %74 : f32
        %413 = arith.mulf %alpha, %75 : f32
        %414, %415 = lass_nv.ld_global %D[%411] x 2 if %253 : memref<?x?xf32>
        %416 = arith.mulf %beta, %414 : f32
        %417 = arith.addf %412, %416 : f32
        %418 = arith.mulf %beta, %415 : f32
        %419 = arith.addf %413, %418 : f32
        lass_nv.st_global %D[%411], %417, %419 if %253 : memref<?x?xf32>, f32, f32
      } else {
        %420 = arith.cmpi ult, %250, %M : i32
        %421 = arith.cmpi ult, %252, %N : i32
        %422 = arith.andi %420, %421 : i1
        %423 = arith.addi %252, %16 : i32
        %424 = arith.cmpi ult, %423, %N : i32
        %425 = arith.andi %420, %424 : i1
        %426 = arith.andi %425, %255 : i1
        %427 = arith.xori %426, %253 : i1
        %428 = arith.andi %422, %427 : i1
        %429 = arith.andi %425, %427 : i1
        %430 = arith.muli %250, %N : i32
        %431 = arith.addi %430, %252 : i32
        %432 = arith.addi %431, %16 : i32
        %433 = arith.mulf %alpha, %44 : f32
        %434 = arith.mulf %alpha, %45 : f32
        %435, %436 = lass_nv.ld_global %D[%431] x 2 if %426 : memref<?x?xf32>
        %437 = lass_nv.ld_global %D[%431] x 1 if %428 : memref<?x?xf32>
        %438 = lass_nv.ld_global %D[%432] x 1 if %429 : memref<?x?xf32>
        %439 = arith.select %426, %435, %437 : f32
        %440 = arith.select %426, %436, %438 : f32
        %441 = arith.mulf %beta, %439 : f32
        %442 = arith.addf %433, %441 : f32
        %443 = arith.mulf %beta, %440 : f32
        %444 = arith.addf %434, %443 : f32
        lass_nv.st_global %D[%431], %442, %444 if %426 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%431], %442 if %428 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%432], %444 if %429 : memref<?x?xf32>, f32
        %445 = arith.addi %250, %20 : i32
        %446 = arith.cmpi ult, %445, %M : i32
        %447 = arith.andi %446, %421 : i1
        %448 = arith.andi %446, %424 : i1
        %449 = arith.andi %448, %255 : i1
        %450 = arith.xori %449, %253 : i1
        %451 = arith.andi %447, %450 : i1
        %452 = arith.andi %448, %450 : i1
        %453 = arith.muli %445, %N : i32
        %454 = arith.addi %453, %252 : i32
        %455 = arith.addi %454, %16 : i32
        %456 = arith.mulf %alpha, %46 : f32
        %457 = arith.mulf %alpha, %47 : f32
        %458, %459 = lass_nv.ld_global %D[%454] x 2 if %449 : memref<?x?xf32>
        %460 = lass_nv.ld_global %D[%454] x 1 if %451 : memref<?x?xf32>
        %461 = lass_nv.ld_global %D[%455] x 1 if %452 : memref<?x?xf32>
        %462 = arith.select %449, %458, %460 : f32
        %463 = arith.select %449, %459, %461 : f32
        %464 = arith.mulf %beta, %462 : f32
        %465 = arith.addf %456, %464 : f32
        %466 = arith.mulf %beta, %463 : f32
        %467 = arith.addf %457, %466 : f32
        lass_nv.st_global %D[%454], %465, %467 if %449 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%454], %465 if %451 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%455], %467 if %452 : memref<?x?xf32>, f32
        %468 = arith.addi %252, %20 : i32
        %469 = arith.cmpi ult, %468, %N : i32
        %470 = arith.andi %420, %469 : i1
        %471 = arith.addi %468, %16 : i32
        %472 = arith.cmpi ult, %471, %N : i32
        %473 = arith.andi %420, %472 : i1
        %474 = arith.andi %473, %255 : i1
        %475 = arith.xori %474, %253 : i1
        %476 = arith.andi %470, %475 : i1
        %477 = arith.andi %473, %475 : i1
        %478 = arith.addi %430, %468 : i32
        %479 = arith.addi %478, %16 : i32
        %480 = arith.mulf %alpha, %48 : f32
        %481 = arith.mulf %alpha, %49 : f32
        %482, %483 = lass_nv.ld_global %D[%478] x 2 if %474 : memref<?x?xf32>
        %484 = lass_nv.ld_global %D[%478] x 1 if %476 : memref<?x?xf32>
        %485 = lass_nv.ld_global %D[%479] x 1 if %477 : memref<?x?xf32>
        %486 = arith.select %474, %482, %484 : f32
        %487 = arith.select %474, %483, %485 : f32
        %488 = arith.mulf %beta, %486 : f32
        %489 = arith.addf %480, %488 : f32
        %490 = arith.mulf %beta, %487 : f32
        %491 = arith.addf %481, %490 : f32
        lass_nv.st_global %D[%478], %489, %491 if %474 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%478], %489 if %476 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%479], %491 if %477 : memref<?x?xf32>, f32
        %492 = arith.andi %446, %469 : i1
        %493 = arith.andi %446, %472 : i1
        %494 = arith.andi %493, %255 : i1
        %495 = arith.xori %494, %253 : i1
        %496 = arith.andi %492, %495 : i1
        %497 = arith.andi %493, %495 : i1
        %498 = arith.addi %453, %468 : i32
        %499 = arith.addi %498, %16 : i32
        %500 = arith.mulf %alpha, %50 : f32
        %501 = arith.mulf %alpha, %51 : f32
        %502, %503 = lass_nv.ld_global %D[%498] x 2 if %494 : memref<?x?xf32>
        %504 = lass_nv.ld_global %D[%498] x 1 if %496 : memref<?x?xf32>
        %505 = lass_nv.ld_global %D[%499] x 1 if %497 : memref<?x?xf32>
        %506 = arith.select %494, %502, %504 : f32
        %507 = arith.select %494, %503, %505 : f32
        %508 = arith.mulf %beta, %506 : f32
        %509 = arith.addf %500, %508 : f32
        %510 = arith.mulf %beta, %507 : f32
        %511 = arith.addf %501, %510 : f32
        lass_nv.st_global %D[%498], %509, %511 if %494 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%498], %509 if %496 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%499], %511 if %497 : memref<?x?xf32>, f32
        %512 = arith.addi %252, %8 : i32
        %513 = arith.cmpi ult, %512, %N : i32
        %514 = arith.andi %420, %513 : i1
        %515 = arith.addi %512, %16 : i32
        %516 = arith.cmpi ult, %515, %N : i32
        %517 = arith.andi %420, %516 : i1
        %518 = arith.andi %517, %255 : i1
        %519 = arith.xori %518, %253 : i1
        %520 = arith.andi %514, %519 : i1
        %521 = arith.andi %517, %519 : i1
        %522 = arith.addi %430, %512 : i32
        %523 = arith.addi %522, %16 : i32
        %524 = arith.mulf %alpha, %52 : f32
        %525 = arith.mulf %alpha, %53 : f32
        %526, %527 = lass_nv.ld_global %D[%522] x 2 if %518 : memref<?x?xf32>
        %528 = lass_nv.ld_global %D[%522] x 1 if %520 : memref<?x?xf32>
        %529 = lass_nv.ld_global %D[%523] x 1 if %521 : memref<?x?xf32>
        %530 = arith.select %518, %526, %528 : f32
        %531 = arith.select %518, %527, %529 : f32
        %532 = arith.mulf %beta, %530 : f32
        %533 = arith.addf %524, %532 : f32
        %534 = arith.mulf %beta, %531 : f32
        %535 = arith.addf %525, %534 : f32
        lass_nv.st_global %D[%522], %533, %535 if %518 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%522], %533 if %520 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%523], %535 if %521 : memref<?x?xf32>, f32
        %536 = arith.andi %446, %513 : i1
        %537 = arith.andi %446, %516 : i1
        %538 = arith.andi %537, %255 : i1
        %539 = arith.xori %538, %253 : i1
        %540 = arith.andi %536, %539 : i1
        %541 = arith.andi %537, %539 : i1
        %542 = arith.addi %453, %512 : i32
        %543 = arith.addi %542, %16 : i32
        %544 = arith.mulf %alpha, %54 : f32
        %545 = arith.mulf %alpha, %55 : f32
        %546, %547 = lass_nv.ld_global %D[%542] x 2 if %538 : memref<?x?xf32>
        %548 = lass_nv.ld_global %D[%542] x 1 if %540 : memref<?x?xf32>
        %549 = lass_nv.ld_global %D[%543] x 1 if %541 : memref<?x?xf32>
        %550 = arith.select %538, %546, %548 : f32
        %551 = arith.select %538, %547, %549 : f32
        %552 = arith.mulf %beta, %550 : f32
        %553 = arith.addf %544, %552 : f32
        %554 = arith.mulf %beta, %551 : f32
        %555 = arith.addf %545, %554 : f32
        lass_nv.st_global %D[%542], %553, %555 if %538 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%542], %553 if %540 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%543], %555 if %541 : memref<?x?xf32>, f32
        %556 = arith.constant 24 : i32
        %557 = arith.addi %252, %556 : i32
        %558 = arith.cmpi ult, %557, %N : i32
        %559 = arith.andi %420, %558 : i1
        %560 = arith.addi %557, %16 : i32
        %561 = arith.cmpi ult, %560, %N : i32
        %562 = arith.andi %420, %561 : i1
        %563 = arith.andi %562, %255 : i1
        %564 = arith.xori %563, %253 : i1
        %565 = arith.andi %559, %564 : i1
        %566 = arith.andi %562, %564 : i1
        %567 = arith.addi %430, %557 : i32
        %568 = arith.addi %567, %16 : i32
        %569 = arith.mulf %alpha, %56 : f32
        %570 = arith.mulf %alpha, %57 : f32
        %571, %572 = lass_nv.ld_global %D[%567] x 2 if %563 : memref<?x?xf32>
        %573 = lass_nv.ld_global %D[%567] x 1 if %565 : memref<?x?xf32>
        %574 = lass_nv.ld_global %D[%568] x 1 if %566 : memref<?x?xf32>
        %575 = arith.select %563, %571, %573 : f32
        %576 = arith.select %563, %572, %574 : f32
        %577 = arith.mulf %beta, %575 : f32
        %578 = arith.addf %569, %577 : f32
        %579 = arith.mulf %beta, %576 : f32
        %580 = arith.addf %570, %579 : f32
        lass_nv.st_global %D[%567], %578, %580 if %563 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%567], %578 if %565 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%568], %580 if %566 : memref<?x?xf32>, f32
        %581 = arith.andi %446, %558 : i1
        %582 = arith.andi %446, %561 : i1
        %583 = arith.andi %582, %255 : i1
        %584 = arith.xori %583, %253 : i1
        %585 = arith.andi %581, %584 : i1
        %586 = arith.andi %582, %584 : i1
        %587 = arith.addi %453, %557 : i32
        %588 = arith.addi %587, %16 : i32
        %589 = arith.mulf %alpha, %58 : f32
        %590 = arith.mulf %alpha, %59 : f32
        %591, %592 = lass_nv.ld_global %D[%587] x 2 if %583 : memref<?x?xf32>
        %593 = lass_nv.ld_global %D[%587] x 1 if %585 : memref<?x?xf32>
        %594 = lass_nv.ld_global %D[%588] x 1 if %586 : memref<?x?xf32>
        %595 = arith.select %583, %591, %593 : f32
        %596 = arith.select %583, %592, %594 : f32
        %597 = arith.mulf %beta, %595 : f32
        %598 = arith.addf %589, %597 : f32
        %599 = arith.mulf %beta, %596 : f32
        %600 = arith.addf %590, %599 : f32
        lass_nv.st_global %D[%587], %598, %600 if %583 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%587], %598 if %585 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%588], %600 if %586 : memref<?x?xf32>, f32
        %601 = arith.addi %252, %9 : i32
        %602 = arith.cmpi ult, %601, %N : i32
        %603 = arith.andi %420, %602 : i1
        %604 = arith.addi %601, %16 : i32
        %605 = arith.cmpi ult, %604, %N : i32
        %606 = arith.andi %420, %605 : i1
        %607 = arith.andi %606, %255 : i1
        %608 = arith.xori %607, %253 : i1
        %609 = arith.andi %603, %608 : i1
        %610 = arith.andi %606, %608 : i1
        %611 = arith.addi %430, %601 : i32
        %612 = arith.addi %611, %16 : i32
        %613 = arith.mulf %alpha, %60 : f32
        %614 = arith.mulf %alpha, %61 : f32
        %615, %616 = lass_nv.ld_global %D[%611] x 2 if %607 : memref<?x?xf32>
        %617 = lass_nv.ld_global %D[%611] x 1 if %609 : memref<?x?xf32>
        %618 = lass_nv.ld_global %D[%612] x 1 if %610 : memref<?x?xf32>
        %619 = arith.select %607, %615, %617 : f32
        %620 = arith.select %607, %616, %618 : f32
        %621 = arith.mulf %beta, %619 : f32
        %622 = arith.addf %613, %621 : f32
        %623 = arith.mulf %beta, %620 : f32
        %624 = arith.addf %614, %623 : f32
        lass_nv.st_global %D[%611], %622, %624 if %607 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%611], %622 if %609 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%612], %624 if %610 : memref<?x?xf32>, f32
        %625 = arith.andi %446, %602 : i1
        %626 = arith.andi %446, %605 : i1
        %627 = arith.andi %626, %255 : i1
        %628 = arith.xori %627, %253 : i1
        %629 = arith.andi %625, %628 : i1
        %630 = arith.andi %626, %628 : i1
        %631 = arith.addi %453, %601 : i32
        %632 = arith.addi %631, %16 : i32
        %633 = arith.mulf %alpha, %62 : f32
        %634 = arith.mulf %alpha, %63 : f32
        %635, %636 = lass_nv.ld_global %D[%631] x 2 if %627 : memref<?x?xf32>
        %637 = lass_nv.ld_global %D[%631] x 1 if %629 : memref<?x?xf32>
        %638 = lass_nv.ld_global %D[%632] x 1 if %630 : memref<?x?xf32>
        %639 = arith.select %627, %635, %637 : f32
        %640 = arith.select %627, %636, %638 : f32
        %641 = arith.mulf %beta, %639 : f32
        %642 = arith.addf %633, %641 : f32
        %643 = arith.mulf %beta, %640 : f32
        %644 = arith.addf %634, %643 : f32
        lass_nv.st_global %D[%631], %642, %644 if %627 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%631], %642 if %629 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%632], %644 if %630 : memref<?x?xf32>, f32
        %645 = arith.constant 40 : i32
        %646 = arith.addi %252, %645 : i32
        %647 = arith.cmpi ult, %646, %N : i32
        %648 = arith.andi %420, %647 : i1
        %649 = arith.addi %646, %16 : i32
        %650 = arith.cmpi ult, %649, %N : i32
        %651 = arith.andi %420, %650 : i1
        %652 = arith.andi %651, %255 : i1
        %653 = arith.xori %652, %253 : i1
        %654 = arith.andi %648, %653 : i1
        %655 = arith.andi %651, %653 : i1
        %656 = arith.addi %430, %646 : i32
        %657 = arith.addi %656, %16 : i32
        %658 = arith.mulf %alpha, %64 : f32
        %659 = arith.mulf %alpha, %65 : f32
        %660, %661 = lass_nv.ld_global %D[%656] x 2 if %652 : memref<?x?xf32>
        %662 = lass_nv.ld_global %D[%656] x 1 if %654 : memref<?x?xf32>
        %663 = lass_nv.ld_global %D[%657] x 1 if %655 : memref<?x?xf32>
        %664 = arith.select %652, %660, %662 : f32
        %665 = arith.select %652, %661, %663 : f32
        %666 = arith.mulf %beta, %664 : f32
        %667 = arith.addf %658, %666 : f32
        %668 = arith.mulf %beta, %665 : f32
        %669 = arith.addf %659, %668 : f32
        lass_nv.st_global %D[%656], %667, %669 if %652 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%656], %667 if %654 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%657], %669 if %655 : memref<?x?xf32>, f32
        %670 = arith.andi %446, %647 : i1
        %671 = arith.andi %446, %650 : i1
        %672 = arith.andi %671, %255 : i1
        %673 = arith.xori %672, %253 : i1
        %674 = arith.andi %670, %673 : i1
        %675 = arith.andi %671, %673 : i1
        %676 = arith.addi %453, %646 : i32
        %677 = arith.addi %676, %16 : i32
        %678 = arith.mulf %alpha, %66 : f32
        %679 = arith.mulf %alpha, %67 : f32
        %680, %681 = lass_nv.ld_global %D[%676] x 2 if %672 : memref<?x?xf32>
        %682 = lass_nv.ld_global %D[%676] x 1 if %674 : memref<?x?xf32>
        %683 = lass_nv.ld_global %D[%677] x 1 if %675 : memref<?x?xf32>
        %684 = arith.select %672, %680, %682 : f32
        %685 = arith.select %672, %681, %683 : f32
        %686 = arith.mulf %beta, %684 : f32
        %687 = arith.addf %678, %686 : f32
        %688 = arith.mulf %beta, %685 : f32
        %689 = arith.addf %679, %688 : f32
        lass_nv.st_global %D[%676], %687, %689 if %672 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%676], %687 if %674 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%677], %689 if %675 : memref<?x?xf32>, f32
        %690 = arith.addi %252, %10 : i32
        %691 = arith.cmpi ult, %690, %N : i32
        %692 = arith.andi %420, %691 : i1
        %693 = arith.addi %690, %16 : i32
        %694 = arith.cmpi ult, %693, %N : i32
        %695 = arith.andi %420, %694 : i1
        %696 = arith.andi %695, %255 : i1
        %697 = arith.xori %696, %253 : i1
        %698 = arith.andi %692, %697 : i1
        %699 = arith.andi %695, %697 : i1
        %700 = arith.addi %430, %690 : i32
        %701 = arith.addi %700, %16 : i32
        %702 = arith.mulf %alpha, %68 : f32
        %703 = arith.mulf %alpha, %69 : f32
        %704, %705 = lass_nv.ld_global %D[%700] x 2 if %696 : memref<?x?xf32>
        %706 = lass_nv.ld_global %D[%700] x 1 if %698 : memref<?x?xf32>
        %707 = lass_nv.ld_global %D[%701] x 1 if %699 : memref<?x?xf32>
        %708 = arith.select %696, %704, %706 : f32
        %709 = arith.select %696, %705, %707 : f32
        %710 = arith.mulf %beta, %708 : f32
        %711 = arith.addf %702, %710 : f32
        %712 = arith.mulf %beta, %709 : f32
        %713 = arith.addf %703, %712 : f32
        lass_nv.st_global %D[%700], %711, %713 if %696 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%700], %711 if %698 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%701], %713 if %699 : memref<?x?xf32>, f32
        %714 = arith.andi %446, %691 : i1
        %715 = arith.andi %446, %694 : i1
        %716 = arith.andi %715, %255 : i1
        %717 = arith.xori %716, %253 : i1
        %718 = arith.andi %714, %717 : i1
        %719 = arith.andi %715, %717 : i1
        %720 = arith.addi %453, %690 : i32
        %721 = arith.addi %720, %16 : i32
        %722 = arith.mulf %alpha, %70 : f32
        %723 = arith.mulf %alpha, %71 : f32
        %724, %725 = lass_nv.ld_global %D[%720] x 2 if %716 : memref<?x?xf32>
        %726 = lass_nv.ld_global %D[%720] x 1 if %718 : memref<?x?xf32>
        %727 = lass_nv.ld_global %D[%721] x 1 if %719 : memref<?x?xf32>
        %728 = arith.select %716, %724, %726 : f32
        %729 = arith.select %716, %725, %727 : f32
        %730 = arith.mulf %beta, %728 : f32
        %731 = arith.addf %722, %730 : f32
        %732 = arith.mulf %beta, %729 : f32
        %733 = arith.addf %723, %732 : f32
        lass_nv.st_global %D[%720], %731, %733 if %716 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%720], %731 if %718 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%721], %733 if %719 : memref<?x?xf32>, f32
        %734 = arith.constant 56 : i32
        %735 = arith.addi %252, %734 : i32
        %736 = arith.cmpi ult, %735, %N : i32
        %737 = arith.andi %420, %736 : i1
        %738 = arith.addi %735, %16 : i32
        %739 = arith.cmpi ult, %738, %N : i32
        %740 = arith.andi %420, %739 : i1
        %741 = arith.andi %740, %255 : i1
        %742 = arith.xori %741, %253 : i1
        %743 = arith.andi %737, %742 : i1
        %744 = arith.andi %740, %742 : i1
        %745 = arith.addi %430, %735 : i32
        %746 = arith.addi %745, %16 : i32
        %747 = arith.mulf %alpha, %72 : f32
        %748 = arith.mulf %alpha, %73 : f32
        %749, %750 = lass_nv.ld_global %D[%745] x 2 if %741 : memref<?x?xf32>
        %751 = lass_nv.ld_global %D[%745] x 1 if %743 : memref<?x?xf32>
        %752 = lass_nv.ld_global %D[%746] x 1 if %744 : memref<?x?xf32>
        %753 = arith.select %741, %749, %751 : f32
        %754 = arith.select %741, %750, %752 : f32
        %755 = arith.mulf %beta, %753 : f32
        %756 = arith.addf %747, %755 : f32
        %757 = arith.mulf %beta, %754 : f32
        %758 = arith.addf %748, %757 : f32
        lass_nv.st_global %D[%745], %756, %758 if %741 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%745], %756 if %743 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%746], %758 if %744 : memref<?x?xf32>, f32
        %759 = arith.andi %446, %736 : i1
        %760 = arith.andi %446, %739 : i1
        %761 = arith.andi %760, %255 : i1
        %762 = arith.xori %761, %253 : i1
        %763 = arith.andi %759, %762 : i1
        %764 = arith.andi %760, %762 : i1
        %765 = arith.addi %453, %735 : i32
        %766 = arith.addi %765, %16 : i32
        %767 = arith.mulf %alpha, %74 : f32
        %768 = arith.mulf %alpha, %75 : f32
        %769, %770 = lass_nv.ld_global %D[%765] x 2 if %761 : memref<?x?xf32>
        %771 = lass_nv.ld_global %D[%765] x 1 if %763 : memref<?x?xf32>
        %772 = lass_nv.ld_global %D[%766] x 1 if %764 : memref<?x?xf32>
        %773 = arith.select %761, %769, %771 : f32
        %774 = arith.select %761, %770, %772 : f32
        %775 = arith.mulf %beta, %773 : f32
        %776 = arith.addf %767, %775 : f32
        %777 = arith.mulf %beta, %774 : f32
        %778 = arith.addf %768, %777 : f32
        lass_nv.st_global %D[%765], %776, %778 if %761 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%765], %776 if %763 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%766], %778 if %764 : memref<?x?xf32>, f32
      }
    } else {
      scf.if %262 {
        %779 = arith.muli %250, %N : i32
        %780 = arith.addi %779, %252 : i32
        %781 = arith.mulf %alpha, %44 : f32
        %782 = arith.mulf %alpha, %45 : f32
        lass_nv.st_global %D[%780], %781, %782 if %253 : memref<?x?xf32>, f32, f32
        %783 = arith.addi %250, %20 : i32
        %784 = arith.muli %783, %N : i32
        %785 = arith.addi %784, %252 : i32
        %786 = arith.mulf %alpha, %46 : f32
        %787 = arith.mulf %alpha, %47 : f32
        lass_nv.st_global %D[%785], %786, %787 if %253 : memref<?x?xf32>, f32, f32
        %788 = arith.addi %252, %20 : i32
        %789 = arith.addi %779, %788 : i32
        %790 = arith.mulf %alpha, %48 : f32
        %791 = arith.mulf %alpha, %49 : f32
        lass_nv.st_global %D[%789], %790, %791 if %253 : memref<?x?xf32>, f32, f32
        %792 = arith.addi %784, %788 : i32
        %793 = arith.mulf %alpha, %50 : f32
        %794 = arith.mulf %alpha, %51 : f32
        lass_nv.st_global %D[%792], %793, %794 if %253 : memref<?x?xf32>, f32, f32
        %795 = arith.addi %252, %8 : i32
        %796 = arith.addi %779, %795 : i32
        %797 = arith.mulf %alpha, %52 : f32
        %798 = arith.mulf %alpha, %53 : f32
        lass_nv.st_global %D[%796], %797, %798 if %253 : memref<?x?xf32>, f32, f32
        %799 = arith.addi %784, %795 : i32
        %800 = arith.mulf %alpha, %54 : f32
        %801 = arith.mulf %alpha, %55 : f32
        lass_nv.st_global %D[%799], %800, %801 if %253 : memref<?x?xf32>, f32, f32
        %802 = arith.constant 24 : i32
        %803 = arith.addi %252, %802 : i32
        %804 = arith.addi %779, %803 : i32
        %805 = arith.mulf %alpha, %56 : f32
        %806 = arith.mulf %alpha, %57 : f32
        lass_nv.st_global %D[%804], %805, %806 if %253 : memref<?x?xf32>, f32, f32
        %807 = arith.addi %784, %803 : i32
        %808 = arith.mulf %alpha, %58 : f32
        %809 = arith.mulf %alpha, %59 : f32
        lass_nv.st_global %D[%807], %808, %809 if %253 : memref<?x?xf32>, f32, f32
        %810 = arith.addi %252, %9 : i32
        %811 = arith.addi %779, %810 : i32
        %812 = arith.mulf %alpha, %60 : f32
        %813 = arith.mulf %alpha, %61 : f32
        lass_nv.st_global %D[%811], %812, %813 if %253 : memref<?x?xf32>, f32, f32
        %814 = arith.addi %784, %810 : i32
        %815 = arith.mulf %alpha, %62 : f32
        %816 = arith.mulf %alpha, %63 : f32
        lass_nv.st_global %D[%814], %815, %816 if %253 : memref<?x?xf32>, f32, f32
        %817 = arith.constant 40 : i32
        %818 = arith.addi %252, %817 : i32
        %819 = arith.addi %779, %818 : i32
        %820 = arith.mulf %alpha, %64 : f32
        %821 = arith.mulf %alpha, %65 : f32
        lass_nv.st_global %D[%819], %820, %821 if %253 : memref<?x?xf32>, f32, f32
        %822 = arith.addi %784, %818 : i32
        %823 = arith.mulf %alpha, %66 : f32
        %824 = arith.mulf %alpha, %67 : f32
        lass_nv.st_global %D[%822], %823, %824 if %253 : memref<?x?xf32>, f32, f32
        %825 = arith.addi %252, %10 : i32
        %826 = arith.addi %779, %825 : i32
        %827 = arith.mulf %alpha, %68 : f32
        %828 = arith.mulf %alpha, %69 : f32
        lass_nv.st_global %D[%826], %827, %828 if %253 : memref<?x?xf32>, f32, f32
        %829 = arith.addi %784, %825 : i32
        %830 = arith.mulf %alpha, %70 : f32
        %831 = arith.mulf %alpha, %71 : f32
        lass_nv.st_global %D[%829], %830, %831 if %253 : memref<?x?xf32>, f32, f32
        %832 = arith.constant 56 : i32
        %833 = arith.addi %252, %832 : i32
        %834 = arith.addi %779, %833 : i32
        %835 = arith.mulf %alpha, %72 : f32
        %836 = arith.mulf %alpha, %73 : f32
        lass_nv.st_global %D[%834], %835, %836 if %253 : memref<?x?xf32>, f32, f32
        %837 = arith.addi %784, %833 : i32
        %838 = arith.mulf %alpha, %74 : f32
        %839 = arith.mulf %alpha, %75 : f32
        lass_nv.st_global %D[%837], %838, %839 if %253 : memref<?x?xf32>, f32, f32
      } else {
        %840 = arith.cmpi ult, %250, %M : i32
        %841 = arith.cmpi ult, %252, %N : i32
        %842 = arith.andi %840, %841 : i1
        %843 = arith.addi %252, %16 : i32
        %844 = arith.cmpi ult, %843, %N : i32
        %845 = arith.andi %840, %844 : i1
        %846 = arith.andi %845, %255 : i1
        %847 = arith.xori %846, %253 : i1
        %848 = arith.andi %842, %847 : i1
        %849 = arith.andi %845, %847 : i1
        %850 = arith.muli %250, %N : i32
        %851 = arith.addi %850, %252 : i32
        %852 = arith.addi %851, %16 : i32
        %853 = arith.mulf %alpha, %44 : f32
        %854 = arith.mulf %alpha, %45 : f32
        lass_nv.st_global %D[%851], %853, %854 if %846 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%851], %853 if %848 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%852], %854 if %849 : memref<?x?xf32>, f32
        %855 = arith.addi %250, %20 : i32
        %856 = arith.cmpi ult, %855, %M : i32
        %857 = arith.andi %856, %841 : i1
        %858 = arith.andi %856, %844 : i1
        %859 = arith.andi %858, %255 : i1
        %860 = arith.xori %859, %253 : i1
        %861 = arith.andi %857, %860 : i1
        %862 = arith.andi %858, %860 : i1
        %863 = arith.muli %855, %N : i32
        %864 = arith.addi %863, %252 : i32
        %865 = arith.addi %864, %16 : i32
        %866 = arith.mulf %alpha, %46 : f32
        %867 = arith.mulf %alpha, %47 : f32
        lass_nv.st_global %D[%864], %866, %867 if %859 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%864], %866 if %861 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%865], %867 if %862 : memref<?x?xf32>, f32
        %868 = arith.addi %252, %20 : i32
        %869 = arith.cmpi ult, %868, %N : i32
        %870 = arith.andi %840, %869 : i1
        %871 = arith.addi %868, %16 : i32
        %872 = arith.cmpi ult, %871, %N : i32
        %873 = arith.andi %840, %872 : i1
        %874 = arith.andi %873, %255 : i1
        %875 = arith.xori %874, %253 : i1
        %876 = arith.andi %870, %875 : i1
        %877 = arith.andi %873, %875 : i1
        %878 = arith.addi %850, %868 : i32
        %879 = arith.addi %878, %16 : i32
        %880 = arith.mulf %alpha, %48 : f32
        %881 = arith.mulf %alpha, %49 : f32
        lass_nv.st_global %D[%878], %880, %881 if %874 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%878], %880 if %876 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%879], %881 if %877 : memref<?x?xf32>, f32
        %882 = arith.andi %856, %869 : i1
        %883 = arith.andi %856, %872 : i1
        %884 = arith.andi %883, %255 : i1
        %885 = arith.xori %884, %253 : i1
        %886 = arith.andi %882, %885 : i1
        %887 = arith.andi %883, %885 : i1
        %888 = arith.addi %863, %868 : i32
        %889 = arith.addi %888, %16 : i32
        %890 = arith.mulf %alpha, %50 : f32
        %891 = arith.mulf %alpha, %51 : f32
        lass_nv.st_global %D[%888], %890, %891 if %884 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%888], %890 if %886 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%889], %891 if %887 : memref<?x?xf32>, f32
        %892 = arith.addi %252, %8 : i32
        %893 = arith.cmpi ult, %892, %N : i32
        %894 = arith.andi %840, %893 : i1
        %895 = arith.addi %892, %16 : i32
        %896 = arith.cmpi ult, %895, %N : i32
        %897 = arith.andi %840, %896 : i1
        %898 = arith.andi %897, %255 : i1
        %899 = arith.xori %898, %253 : i1
        %900 = arith.andi %894, %899 : i1
        %901 = arith.andi %897, %899 : i1
        %902 = arith.addi %850, %892 : i32
        %903 = arith.addi %902, %16 : i32
        %904 = arith.mulf %alpha, %52 : f32
        %905 = arith.mulf %alpha, %53 : f32
        lass_nv.st_global %D[%902], %904, %905 if %898 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%902], %904 if %900 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%903], %905 if %901 : memref<?x?xf32>, f32
        %906 = arith.andi %856, %893 : i1
        %907 = arith.andi %856, %896 : i1
        %908 = arith.andi %907, %255 : i1
        %909 = arith.xori %908, %253 : i1
        %910 = arith.andi %906, %909 : i1
        %911 = arith.andi %907, %909 : i1
        %912 = arith.addi %863, %892 : i32
        %913 = arith.addi %912, %16 : i32
        %914 = arith.mulf %alpha, %54 : f32
        %915 = arith.mulf %alpha, %55 : f32
        lass_nv.st_global %D[%912], %914, %915 if %908 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%912], %914 if %910 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%913], %915 if %911 : memref<?x?xf32>, f32
        %916 = arith.constant 24 : i32
        %917 = arith.addi %252, %916 : i32
        %918 = arith.cmpi ult, %917, %N : i32
        %919 = arith.andi %840, %918 : i1
        %920 = arith.addi %917, %16 : i32
        %921 = arith.cmpi ult, %920, %N : i32
        %922 = arith.andi %840, %921 : i1
        %923 = arith.andi %922, %255 : i1
        %924 = arith.xori %923, %253 : i1
        %925 = arith.andi %919, %924 : i1
        %926 = arith.andi %922, %924 : i1
        %927 = arith.addi %850, %917 : i32
        %928 = arith.addi %927, %16 : i32
        %929 = arith.mulf %alpha, %56 : f32
        %930 = arith.mulf %alpha, %57 : f32
        lass_nv.st_global %D[%927], %929, %930 if %923 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%927], %929 if %925 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%928], %930 if %926 : memref<?x?xf32>, f32
        %931 = arith.andi %856, %918 : i1
        %932 = arith.andi %856, %921 : i1
        %933 = arith.andi %932, %255 : i1
        %934 = arith.xori %933, %253 : i1
        %935 = arith.andi %931, %934 : i1
        %936 = arith.andi %932, %934 : i1
        %937 = arith.addi %863, %917 : i32
        %938 = arith.addi %937, %16 : i32
        %939 = arith.mulf %alpha, %58 : f32
        %940 = arith.mulf %alpha, %59 : f32
        lass_nv.st_global %D[%937], %939, %940 if %933 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%937], %939 if %935 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%938], %940 if %936 : memref<?x?xf32>, f32
        %941 = arith.addi %252, %9 : i32
        %942 = arith.cmpi ult, %941, %N : i32
        %943 = arith.andi %840, %942 : i1
        %944 = arith.addi %941, %16 : i32
        %945 = arith.cmpi ult, %944, %N : i32
        %946 = arith.andi %840, %945 : i1
        %947 = arith.andi %946, %255 : i1
        %948 = arith.xori %947, %253 : i1
        %949 = arith.andi %943, %948 : i1
        %950 = arith.andi %946, %948 : i1
        %951 = arith.addi %850, %941 : i32
        %952 = arith.addi %951, %16 : i32
        %953 = arith.mulf %alpha, %60 : f32
        %954 = arith.mulf %alpha, %61 : f32
        lass_nv.st_global %D[%951], %953, %954 if %947 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%951], %953 if %949 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%952], %954 if %950 : memref<?x?xf32>, f32
        %955 = arith.andi %856, %942 : i1
        %956 = arith.andi %856, %945 : i1
        %957 = arith.andi %956, %255 : i1
        %958 = arith.xori %957, %253 : i1
        %959 = arith.andi %955, %958 : i1
        %960 = arith.andi %956, %958 : i1
        %961 = arith.addi %863, %941 : i32
        %962 = arith.addi %961, %16 : i32
        %963 = arith.mulf %alpha, %62 : f32
        %964 = arith.mulf %alpha, %63 : f32
        lass_nv.st_global %D[%961], %963, %964 if %957 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%961], %963 if %959 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%962], %964 if %960 : memref<?x?xf32>, f32
        %965 = arith.constant 40 : i32
        %966 = arith.addi %252, %965 : i32
        %967 = arith.cmpi ult, %966, %N : i32
        %968 = arith.andi %840, %967 : i1
        %969 = arith.addi %966, %16 : i32
        %970 = arith.cmpi ult, %969, %N : i32
        %971 = arith.andi %840, %970 : i1
        %972 = arith.andi %971, %255 : i1
        %973 = arith.xori %972, %253 : i1
        %974 = arith.andi %968, %973 : i1
        %975 = arith.andi %971, %973 : i1
        %976 = arith.addi %850, %966 : i32
        %977 = arith.addi %976, %16 : i32
        %978 = arith.mulf %alpha, %64 : f32
        %979 = arith.mulf %alpha, %65 : f32
        lass_nv.st_global %D[%976], %978, %979 if %972 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%976], %978 if %974 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%977], %979 if %975 : memref<?x?xf32>, f32
        %980 = arith.andi %856, %967 : i1
        %981 = arith.andi %856, %970 : i1
        %982 = arith.andi %981, %255 : i1
        %983 = arith.xori %982, %253 : i1
        %984 = arith.andi %980, %983 : i1
        %985 = arith.andi %981, %983 : i1
        %986 = arith.addi %863, %966 : i32
        %987 = arith.addi %986, %16 : i32
        %988 = arith.mulf %alpha, %66 : f32
        %989 = arith.mulf %alpha, %67 : f32
        lass_nv.st_global %D[%986], %988, %989 if %982 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%986], %988 if %984 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%987], %989 if %985 : memref<?x?xf32>, f32
        %990 = arith.addi %252, %10 : i32
        %991 = arith.cmpi ult, %990, %N : i32
        %992 = arith.andi %840, %991 : i1
        %993 = arith.addi %990, %16 : i32
        %994 = arith.cmpi ult, %993, %N : i32
        %995 = arith.andi %840, %994 : i1
        %996 = arith.andi %995, %255 : i1
        %997 = arith.xori %996, %253 : i1
        %998 = arith.andi %992, %997 : i1
        %999 = arith.andi %995, %997 : i1
        %1000 = arith.addi %850, %990 : i32
        %1001 = arith.addi %1000, %16 : i32
        %1002 = arith.mulf %alpha, %68 : f32
        %1003 = arith.mulf %alpha, %69 : f32
        lass_nv.st_global %D[%1000], %1002, %1003 if %996 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%1000], %1002 if %998 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%1001], %1003 if %999 : memref<?x?xf32>, f32
        %1004 = arith.andi %856, %991 : i1
        %1005 = arith.andi %856, %994 : i1
        %1006 = arith.andi %1005, %255 : i1
        %1007 = arith.xori %1006, %253 : i1
        %1008 = arith.andi %1004, %1007 : i1
        %1009 = arith.andi %1005, %1007 : i1
        %1010 = arith.addi %863, %990 : i32
        %1011 = arith.addi %1010, %16 : i32
        %1012 = arith.mulf %alpha, %70 : f32
        %1013 = arith.mulf %alpha, %71 : f32
        lass_nv.st_global %D[%1010], %1012, %1013 if %1006 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%1010], %1012 if %1008 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%1011], %1013 if %1009 : memref<?x?xf32>, f32
        %1014 = arith.constant 56 : i32
        %1015 = arith.addi %252, %1014 : i32
        %1016 = arith.cmpi ult, %1015, %N : i32
        %1017 = arith.andi %840, %1016 : i1
        %1018 = arith.addi %1015, %16 : i32
        %1019 = arith.cmpi ult, %1018, %N : i32
        %1020 = arith.andi %840, %1019 : i1
        %1021 = arith.andi %1020, %255 : i1
        %1022 = arith.xori %1021, %253 : i1
        %1023 = arith.andi %1017, %1022 : i1
        %1024 = arith.andi %1020, %1022 : i1
        %1025 = arith.addi %850, %1015 : i32
        %1026 = arith.addi %1025, %16 : i32
        %1027 = arith.mulf %alpha, %72 : f32
        %1028 = arith.mulf %alpha, %73 : f32
        lass_nv.st_global %D[%1025], %1027, %1028 if %1021 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%1025], %1027 if %1023 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%1026], %1028 if %1024 : memref<?x?xf32>, f32
        %1029 = arith.andi %856, %1016 : i1
        %1030 = arith.andi %856, %1019 : i1
        %1031 = arith.andi %1030, %255 : i1
        %1032 = arith.xori %1031, %253 : i1
        %1033 = arith.andi %1029, %1032 : i1
        %1034 = arith.andi %1030, %1032 : i1
        %1035 = arith.addi %863, %1015 : i32
        %1036 = arith.addi %1035, %16 : i32
        %1037 = arith.mulf %alpha, %74 : f32
        %1038 = arith.mulf %alpha, %75 : f32
        lass_nv.st_global %D[%1035], %1037, %1038 if %1031 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%1035], %1037 if %1033 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%1036], %1038 if %1034 : memref<?x?xf32>, f32
      }
    }
    func.return
  }
}