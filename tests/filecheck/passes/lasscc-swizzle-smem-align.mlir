// lasscc-swizzle-smem (passes/swizzle_smem.py) with narrow copy accesses: the kernel config's
// `align = [1, 4]` (elements per global -> shared access of A and B; CUTLASS AlignmentA/B).
// Config: threadblock 64x32x32, warp 32x32x32, 3 stages, 64 threads, TN f16.
//   A (64 x 32, K-major): 2-byte accesses, no cp.async of that size exists: a predicated
//     lass_nv.ld_global_b {bytes = 2} (zeros off the predicate) + lass_nv.st_shared_b {bytes = 2},
//     synchronous.  32 accesses per 64-byte row: thread t takes k = t % 32 of rows t / 32 + 2 it,
//     32 iterations (lasscc.layout.tile_copy_map with access_bytes = 2), as an scf.for.
//   B (32 x 32, K-major): 8-byte accesses, cp.async.ca: lass_nv.cp_async {bytes = 8}; 8 per row:
//     k = 4 (t % 8) of rows t / 8 + 8 it, 4 iterations, unrolled.
// Both at the swizzled address of their first element: a w-byte access at a w-aligned offset stays
// inside one 16-byte chunk.  Predicates per access: row < M (N), k < K.
//
// RUN: %lasscc opt -p lasscc-swizzle-smem %s | filecheck %s
// RUN: xdsl-opt -p lasscc-swizzle-smem %s | xdsl-opt -p cse,dce | filecheck %s
// Rejected: an `align` that is not a power of two of at most 16 bytes:
// RUN: not %lasscc opt -p lasscc-swizzle-smem %S/Inputs/lasscc-swizzle-smem-align-bad.mlir.in 2>&1 | filecheck %s --check-prefix=ERR
// ERR: {{^.*}}Inputs/lasscc-swizzle-smem-align-bad.mlir.in:4:1: error: lass.kernel: config: expected align A a power of two from 1 to 8 f16 elements (at most 16 bytes per access), got 3{{$}}

// CHECK-LABEL: func.func @gemm_align(
//                A's thread map: row tid / 32 + 2 it, k tid % 32 (one element per access); 32
//                accesses per thread (more than COPY_UNROLL_MAX): an scf.for over the iterations,
//                the column test (k0 + k < K, and the copy's predicate) outside it
// CHECK:         [[C32:%[0-9]+]] = arith.constant 32 : i32
// CHECK:         [[AR:%[0-9]+]] = arith.divui %tid, [[C32]] : i32
// CHECK-NEXT:    [[AK:%[0-9]+]] = arith.remui %tid, [[C32]] : i32
// CHECK-NEXT:    [[GK:%[0-9]+]] = arith.addi [[K0:%[0-9]+]], [[AK]] : i32
// CHECK-NEXT:    [[KOK:%[0-9]+]] = arith.cmpi ult, [[GK]], %K : i32
// CHECK-NEXT:    [[P1:%[0-9]+]] = arith.andi %{{[0-9]+}}, [[KOK]] : i1
// CHECK-NEXT:    scf.for %copy_it = %{{[0-9]+}} to [[C32]] step %{{[0-9]+}} : i32 {
// CHECK-NEXT:      [[STEP:%[0-9]+]] = arith.muli %copy_it, [[C2:%[0-9]+]] : i32
// CHECK-NEXT:      [[R:%[0-9]+]] = arith.addi [[AR]], [[STEP]] : i32
//                  global (m0 + r) * K + k0 + k, SMEM swizzle(r * 64 + 2 k)
// CHECK-NEXT:      [[GR:%[0-9]+]] = arith.addi %m0, [[R]] : i32
// CHECK-NEXT:      [[GRK:%[0-9]+]] = arith.muli [[GR]], %K : i32
// CHECK-NEXT:      [[G:%[0-9]+]] = arith.addi [[GRK]], [[GK]] : i32
// CHECK-NEXT:      [[RB:%[0-9]+]] = arith.muli [[R]], [[C64:%[0-9]+]] : i32
// CHECK-NEXT:      [[KB:%[0-9]+]] = arith.muli [[AK]], [[C2]] : i32
// CHECK-NEXT:      [[LOG:%[0-9]+]] = arith.addi [[RB]], [[KB]] : i32
// CHECK-NEXT:      [[PHYS:%[0-9]+]] = lass_smem.swizzle [[LOG]] {bits = 3 : i64, base = 4 : i64, shift = 3 : i64}
// CHECK:           [[S:%[0-9]+]] = arith.addi [[PHYS]], %{{[0-9]+}} : i32
// CHECK-NEXT:      [[ROK:%[0-9]+]] = arith.cmpi ult, [[GR]], %M : i32
// CHECK-NEXT:      [[P:%[0-9]+]] = arith.andi [[P1]], [[ROK]] : i1
// CHECK-NEXT:      [[V:%[0-9]+]] = lass_nv.ld_global_b %A[[[G]]], [[P]] {bytes = 2 : i64} : memref<?x?xf16> -> i32
// CHECK-NEXT:      lass_nv.st_shared_b [[S]], [[V]] {bytes = 2 : i64} : i32
// CHECK-NEXT:    }
//                B: 8-byte cp.async.ca at k = 4 (tid % 8)
// CHECK:         lass_nv.cp_async %B[%{{[0-9]+}}], %{{[0-9]+}}, %{{[0-9]+}} {bytes = 8 : i64} : memref<?x?xf16, strided<[1, ?]>>
// CHECK:         lass_nv.cp_async_commit
//                no 16-byte copies and no logical ops remain; fragments still ldmatrix.x4
// CHECK-NOT:     {bytes = 16 : i64}
// CHECK-NOT:     lass_pipe.
// CHECK:         lass_nv.ldmatrix_x4
// CHECK-NOT:     lass_warp.
// CHECK-LABEL: func.func @physical(
// CHECK-NEXT:    lass_nv.cp_async %A[%off], %dst, %p {bytes = 8 : i64} : memref<?x?xf16>
// CHECK-NEXT:    func.return

builtin.module {
  func.func @gemm_align(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32) attributes {lass.kernel = #lass.kernel<ab = f16, d = f32, layouts = [row, col, row], alpha = 1.0, beta = 0.0, config = {threadblock = [64 : i64, 32 : i64, 32 : i64], warp = [32 : i64, 32 : i64, 32 : i64], instruction = [16 : i64, 8 : i64, 16 : i64], stages = 3 : i64, raster = 8 : i64, prefetch = 0 : i64, align = [1 : i64, 4 : i64]}>} {
    %tid = lass_nv.thread_id
    %0 = arith.constant 31 : i32
    %lane = arith.andi %tid, %0 : i32
    %1 = arith.constant 5 : i32
    %warp = arith.shrui %tid, %1 : i32
    %2 = arith.constant 2 : i32
    %3 = arith.remui %warp, %2 : i32
    %4 = arith.constant 32 : i32
    %warp_m0 = arith.muli %3, %4 : i32
    %5 = arith.divui %warp, %2 : i32
    %warp_n0 = arith.muli %5, %4 : i32
    %6 = arith.constant 16 : i32
    %7 = arith.addi %warp_m0, %6 : i32
    %8 = arith.addi %warp_n0, %6 : i32
    %9 = arith.constant 0 : i32
    %10 = lass_nv.block_id x
    %11 = arith.constant 63 : i32
    %12 = arith.addi %M, %11 : i32
    %13 = arith.constant 64 : i32
    %14 = arith.divui %12, %13 : i32
    %15 = arith.addi %N, %0 : i32
    %16 = arith.divui %15, %4 : i32
    %17 = arith.constant 8 : i32
    %18 = arith.muli %16, %17 : i32
    %19 = arith.divui %10, %18 : i32
    %20 = arith.muli %19, %17 : i32
    %21 = arith.subi %14, %20 : i32
    %22 = arith.minui %21, %17 : i32
    %23 = arith.remui %10, %18 : i32
    %24 = arith.remui %23, %22 : i32
    %25 = arith.addi %20, %24 : i32
    %m0 = arith.muli %25, %13 : i32
    %26 = arith.divui %23, %22 : i32
    %n0 = arith.muli %26, %4 : i32
    %27 = arith.constant 0.000000e+00 : f32
    %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x64x32xf16>
    %ring_b = lass_pipe.ring {offset = 12288 : i64} : !lass_pipe.ring<3x32x32xf16>
    %28 = arith.addi %K, %0 : i32
    %k_tiles = arith.divui %28, %4 : i32
    %29 = arith.cmpi ult, %9, %k_tiles : i32
    %30 = arith.muli %9, %4 : i32
    lass_pipe.copy_async A %A[%m0, %30], %ring_a[%9], %29 : memref<?x?xf16>, !lass_pipe.ring<3x64x32xf16>
    lass_pipe.copy_async B %B[%n0, %30], %ring_b[%9], %29 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<3x32x32xf16>
    lass_pipe.commit
    %31 = arith.constant 1 : i32
    %32 = arith.cmpi ult, %31, %k_tiles : i32
    %33 = arith.muli %31, %4 : i32
    lass_pipe.copy_async A %A[%m0, %33], %ring_a[%31], %32 : memref<?x?xf16>, !lass_pipe.ring<3x64x32xf16>
    lass_pipe.copy_async B %B[%n0, %33], %ring_b[%31], %32 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<3x32x32xf16>
    lass_pipe.commit
    lass_pipe.wait {pending = 1 : i64}
    lass_pipe.barrier
    %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65 = scf.for %kt = %9 to %k_tiles step %31 iter_args(%66 = %27, %67 = %27, %68 = %27, %69 = %27, %70 = %27, %71 = %27, %72 = %27, %73 = %27, %74 = %27, %75 = %27, %76 = %27, %77 = %27, %78 = %27, %79 = %27, %80 = %27, %81 = %27, %82 = %27, %83 = %27, %84 = %27, %85 = %27, %86 = %27, %87 = %27, %88 = %27, %89 = %27, %90 = %27, %91 = %27, %92 = %27, %93 = %27, %94 = %27, %95 = %27, %96 = %27, %97 = %27) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) : i32 {
      %98 = arith.addi %kt, %2 : i32
      %99 = arith.constant 3 : i32
      %100 = arith.remui %98, %99 : i32
      %101 = arith.cmpi ult, %98, %k_tiles : i32
      %102 = arith.muli %98, %4 : i32
      lass_pipe.copy_async A %A[%m0, %102], %ring_a[%100], %101 : memref<?x?xf16>, !lass_pipe.ring<3x64x32xf16>
      lass_pipe.copy_async B %B[%n0, %102], %ring_b[%100], %101 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<3x32x32xf16>
      lass_pipe.commit
      %slot = arith.remui %kt, %99 : i32
      %103, %104, %105, %106 = lass_warp.load_frag_a %ring_a[%slot], %warp_m0, %9 : !lass_pipe.ring<3x64x32xf16>
      %107, %108, %109, %110 = lass_warp.load_frag_a %ring_a[%slot], %7, %9 : !lass_pipe.ring<3x64x32xf16>
      %111, %112, %113, %114 = lass_warp.load_frag_b %ring_b[%slot], %warp_n0, %9 : !lass_pipe.ring<3x32x32xf16>
      %115, %116, %117, %118 = lass_warp.load_frag_b %ring_b[%slot], %8, %9 : !lass_pipe.ring<3x32x32xf16>
      %119, %120, %121, %122 = lass_warp.load_frag_a %ring_a[%slot], %warp_m0, %6 : !lass_pipe.ring<3x64x32xf16>
      %123, %124, %125, %126 = lass_warp.load_frag_a %ring_a[%slot], %7, %6 : !lass_pipe.ring<3x64x32xf16>
      %127, %128, %129, %130 = lass_warp.load_frag_b %ring_b[%slot], %warp_n0, %6 : !lass_pipe.ring<3x32x32xf16>
      %131, %132, %133, %134 = lass_warp.load_frag_b %ring_b[%slot], %8, %6 : !lass_pipe.ring<3x32x32xf16>
      %135, %136, %137, %138 = lass_nv.mma_sync a(%103, %104, %105, %106) b(%111, %112) c(%66, %67, %68, %69) {shape = "m16n8k16"}
      %139, %140, %141, %142 = lass_nv.mma_sync a(%103, %104, %105, %106) b(%113, %114) c(%70, %71, %72, %73) {shape = "m16n8k16"}
      %143, %144, %145, %146 = lass_nv.mma_sync a(%103, %104, %105, %106) b(%115, %116) c(%74, %75, %76, %77) {shape = "m16n8k16"}
      %147, %148, %149, %150 = lass_nv.mma_sync a(%103, %104, %105, %106) b(%117, %118) c(%78, %79, %80, %81) {shape = "m16n8k16"}
      %151, %152, %153, %154 = lass_nv.mma_sync a(%107, %108, %109, %110) b(%117, %118) c(%94, %95, %96, %97) {shape = "m16n8k16"}
      %155, %156, %157, %158 = lass_nv.mma_sync a(%107, %108, %109, %110) b(%115, %116) c(%90, %91, %92, %93) {shape = "m16n8k16"}
      %159, %160, %161, %162 = lass_nv.mma_sync a(%107, %108, %109, %110) b(%113, %114) c(%86, %87, %88, %89) {shape = "m16n8k16"}
      %163, %164, %165, %166 = lass_nv.mma_sync a(%107, %108, %109, %110) b(%111, %112) c(%82, %83, %84, %85) {shape = "m16n8k16"}
      %167, %168, %169, %170 = lass_nv.mma_sync a(%119, %120, %121, %122) b(%127, %128) c(%135, %136, %137, %138) {shape = "m16n8k16"}
      %171, %172, %173, %174 = lass_nv.mma_sync a(%119, %120, %121, %122) b(%129, %130) c(%139, %140, %141, %142) {shape = "m16n8k16"}
      %175, %176, %177, %178 = lass_nv.mma_sync a(%119, %120, %121, %122) b(%131, %132) c(%143, %144, %145, %146) {shape = "m16n8k16"}
      %179, %180, %181, %182 = lass_nv.mma_sync a(%119, %120, %121, %122) b(%133, %134) c(%147, %148, %149, %150) {shape = "m16n8k16"}
      %183, %184, %185, %186 = lass_nv.mma_sync a(%123, %124, %125, %126) b(%133, %134) c(%151, %152, %153, %154) {shape = "m16n8k16"}
      %187, %188, %189, %190 = lass_nv.mma_sync a(%123, %124, %125, %126) b(%131, %132) c(%155, %156, %157, %158) {shape = "m16n8k16"}
      %191, %192, %193, %194 = lass_nv.mma_sync a(%123, %124, %125, %126) b(%129, %130) c(%159, %160, %161, %162) {shape = "m16n8k16"}
      %195, %196, %197, %198 = lass_nv.mma_sync a(%123, %124, %125, %126) b(%127, %128) c(%163, %164, %165, %166) {shape = "m16n8k16"}
      lass_pipe.wait {pending = 1 : i64}
      lass_pipe.barrier
      scf.yield %167, %168, %169, %170, %171, %172, %173, %174, %175, %176, %177, %178, %179, %180, %181, %182, %195, %196, %197, %198, %191, %192, %193, %194, %187, %188, %189, %190, %183, %184, %185, %186 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
    }
    lass_pipe.wait {pending = 0 : i64}
    %199 = arith.shrui %lane, %2 : i32
    %200 = arith.constant 3 : i32
    %201 = arith.andi %lane, %200 : i32
    %202 = arith.muli %201, %2 : i32
    %203 = arith.addi %m0, %warp_m0 : i32
    %204 = arith.addi %203, %199 : i32
    %205 = arith.addi %n0, %warp_n0 : i32
    %206 = arith.addi %205, %202 : i32
    %207 = arith.constant true
    %208 = arith.andi %N, %31 : i32
    %209 = arith.cmpi eq, %208, %9 : i32
    %210 = arith.cmpf one, %beta, %27 : f32
    %211 = arith.addi %m0, %13 : i32
    %212 = arith.cmpi ule, %211, %M : i32
    %213 = arith.addi %n0, %4 : i32
    %214 = arith.cmpi ule, %213, %N : i32
    %215 = arith.andi %212, %214 : i1
    %216 = arith.andi %215, %209 : i1
    scf.if %210 {
      scf.if %216 {
        %217 = arith.muli %204, %N : i32
        %218 = arith.addi %217, %206 : i32
        %219 = arith.mulf %alpha, %34 : f32
        %220 = arith.mulf %alpha, %35 : f32
        %221, %222 = lass_nv.ld_global %D[%218] x 2 if %207 : memref<?x?xf32>
        %223 = arith.mulf %beta, %221 : f32
        %224 = arith.addf %219, %223 : f32
        %225 = arith.mulf %beta, %222 : f32
        %226 = arith.addf %220, %225 : f32
        lass_nv.st_global %D[%218], %224, %226 if %207 : memref<?x?xf32>, f32, f32
        %227 = arith.addi %204, %17 : i32
        %228 = arith.muli %227, %N : i32
        %229 = arith.addi %228, %206 : i32
        %230 = arith.mulf %alpha, %36 : f32
        %231 = arith.mulf %alpha, %37 : f32
        %232, %233 = lass_nv.ld_global %D[%229] x 2 if %207 : memref<?x?xf32>
        %234 = arith.mulf %beta, %232 : f32
        %235 = arith.addf %230, %234 : f32
        %236 = arith.mulf %beta, %233 : f32
        %237 = arith.addf %231, %236 : f32
        lass_nv.st_global %D[%229], %235, %237 if %207 : memref<?x?xf32>, f32, f32
        %238 = arith.addi %206, %17 : i32
        %239 = arith.addi %217, %238 : i32
        %240 = arith.mulf %alpha, %38 : f32
        %241 = arith.mulf %alpha, %39 : f32
        %242, %243 = lass_nv.ld_global %D[%239] x 2 if %207 : memref<?x?xf32>
        %244 = arith.mulf %beta, %242 : f32
        %245 = arith.addf %240, %244 : f32
        %246 = arith.mulf %beta, %243 : f32
        %247 = arith.addf %241, %246 : f32
        lass_nv.st_global %D[%239], %245, %247 if %207 : memref<?x?xf32>, f32, f32
        %248 = arith.addi %228, %238 : i32
        %249 = arith.mulf %alpha, %40 : f32
        %250 = arith.mulf %alpha, %41 : f32
        %251, %252 = lass_nv.ld_global %D[%248] x 2 if %207 : memref<?x?xf32>
        %253 = arith.mulf %beta, %251 : f32
        %254 = arith.addf %249, %253 : f32
        %255 = arith.mulf %beta, %252 : f32
        %256 = arith.addf %250, %255 : f32
        lass_nv.st_global %D[%248], %254, %256 if %207 : memref<?x?xf32>, f32, f32
        %257 = arith.addi %206, %6 : i32
        %258 = arith.addi %217, %257 : i32
        %259 = arith.mulf %alpha, %42 : f32
        %260 = arith.mulf %alpha, %43 : f32
        %261, %262 = lass_nv.ld_global %D[%258] x 2 if %207 : memref<?x?xf32>
        %263 = arith.mulf %beta, %261 : f32
        %264 = arith.addf %259, %263 : f32
        %265 = arith.mulf %beta, %262 : f32
        %266 = arith.addf %260, %265 : f32
        lass_nv.st_global %D[%258], %264, %266 if %207 : memref<?x?xf32>, f32, f32
        %267 = arith.addi %228, %257 : i32
        %268 = arith.mulf %alpha, %44 : f32
        %269 = arith.mulf %alpha, %45 : f32
        %270, %271 = lass_nv.ld_global %D[%267] x 2 if %207 : memref<?x?xf32>
        %272 = arith.mulf %beta, %270 : f32
        %273 = arith.addf %268, %272 : f32
        %274 = arith.mulf %beta, %271 : f32
        %275 = arith.addf %269, %274 : f32
        lass_nv.st_global %D[%267], %273, %275 if %207 : memref<?x?xf32>, f32, f32
        %276 = arith.constant 24 : i32
        %277 = arith.addi %206, %276 : i32
        %278 = arith.addi %217, %277 : i32
        %279 = arith.mulf %alpha, %46 : f32
        %280 = arith.mulf %alpha, %47 : f32
        %281, %282 = lass_nv.ld_global %D[%278] x 2 if %207 : memref<?x?xf32>
        %283 = arith.mulf %beta, %281 : f32
        %284 = arith.addf %279, %283 : f32
        %285 = arith.mulf %beta, %282 : f32
        %286 = arith.addf %280, %285 : f32
        lass_nv.st_global %D[%278], %284, %286 if %207 : memref<?x?xf32>, f32, f32
        %287 = arith.addi %228, %277 : i32
        %288 = arith.mulf %alpha, %48 : f32
        %289 = arith.mulf %alpha, %49 : f32
        %290, %291 = lass_nv.ld_global %D[%287] x 2 if %207 : memref<?x?xf32>
        %292 = arith.mulf %beta, %290 : f32
        %293 = arith.addf %288, %292 : f32
        %294 = arith.mulf %beta, %291 : f32
        %295 = arith.addf %289, %294 : f32
        lass_nv.st_global %D[%287], %293, %295 if %207 : memref<?x?xf32>, f32, f32
        %296 = arith.addi %204, %6 : i32
        %297 = arith.muli %296, %N : i32
        %298 = arith.addi %297, %206 : i32
        %299 = arith.mulf %alpha, %50 : f32
        %300 = arith.mulf %alpha, %51 : f32
        %301, %302 = lass_nv.ld_global %D[%298] x 2 if %207 : memref<?x?xf32>
        %303 = arith.mulf %beta, %301 : f32
        %304 = arith.addf %299, %303 : f32
        %305 = arith.mulf %beta, %302 : f32
        %306 = arith.addf %300, %305 : f32
        lass_nv.st_global %D[%298], %304, %306 if %207 : memref<?x?xf32>, f32, f32
        %307 = arith.addi %204, %276 : i32
        %308 = arith.muli %307, %N : i32
        %309 = arith.addi %308, %206 : i32
        %310 = arith.mulf %alpha, %52 : f32
        %311 = arith.mulf %alpha, %53 : f32
        %312, %313 = lass_nv.ld_global %D[%309] x 2 if %207 : memref<?x?xf32>
        %314 = arith.mulf %beta, %312 : f32
        %315 = arith.addf %310, %314 : f32
        %316 = arith.mulf %beta, %313 : f32
        %317 = arith.addf %311, %316 : f32
        lass_nv.st_global %D[%309], %315, %317 if %207 : memref<?x?xf32>, f32, f32
        %318 = arith.addi %297, %238 : i32
        %319 = arith.mulf %alpha, %54 : f32
        %320 = arith.mulf %alpha, %55 : f32
        %321, %322 = lass_nv.ld_global %D[%318] x 2 if %207 : memref<?x?xf32>
        %323 = arith.mulf %beta, %321 : f32
        %324 = arith.addf %319, %323 : f32
        %325 = arith.mulf %beta, %322 : f32
        %326 = arith.addf %320, %325 : f32
        lass_nv.st_global %D[%318], %324, %326 if %207 : memref<?x?xf32>, f32, f32
        %327 = arith.addi %308, %238 : i32
        %328 = arith.mulf %alpha, %56 : f32
        %329 = arith.mulf %alpha, %57 : f32
        %330, %331 = lass_nv.ld_global %D[%327] x 2 if %207 : memref<?x?xf32>
        %332 = arith.mulf %beta, %330 : f32
        %333 = arith.addf %328, %332 : f32
        %334 = arith.mulf %beta, %331 : f32
        %335 = arith.addf %329, %334 : f32
        lass_nv.st_global %D[%327], %333, %335 if %207 : memref<?x?xf32>, f32, f32
        %336 = arith.addi %297, %257 : i32
        %337 = arith.mulf %alpha, %58 : f32
        %338 = arith.mulf %alpha, %59 : f32
        %339, %340 = lass_nv.ld_global %D[%336] x 2 if %207 : memref<?x?xf32>
        %341 = arith.mulf %beta, %339 : f32
        %342 = arith.addf %337, %341 : f32
        %343 = arith.mulf %beta, %340 : f32
        %344 = arith.addf %338, %343 : f32
        lass_nv.st_global %D[%336], %342, %344 if %207 : memref<?x?xf32>, f32, f32
        %345 = arith.addi %308, %257 : i32
        %346 = arith.mulf %alpha, %60 : f32
        %347 = arith.mulf %alpha, %61 : f32
        %348, %349 = lass_nv.ld_global %D[%345] x 2 if %207 : memref<?x?xf32>
        %350 = arith.mulf %beta, %348 : f32
        %351 = arith.addf %346, %350 : f32
        %352 = arith.mulf %beta, %349 : f32
        %353 = arith.addf %347, %352 : f32
        lass_nv.st_global %D[%345], %351, %353 if %207 : memref<?x?xf32>, f32, f32
        %354 = arith.addi %297, %277 : i32
        %355 = arith.mulf %alpha, %62 : f32
        %356 = arith.mulf %alpha, %63 : f32
        %357, %358 = lass_nv.ld_global %D[%354] x 2 if %207 : memref<?x?xf32>
        %359 = arith.mulf %beta, %357 : f32
        %360 = arith.addf %355, %359 : f32
        %361 = arith.mulf %beta, %358 : f32
        %362 = arith.addf %356, %361 : f32
        lass_nv.st_global %D[%354], %360, %362 if %207 : memref<?x?xf32>, f32, f32
        %363 = arith.addi %308, %277 : i32
        %364 = arith.mulf %alpha, %64 : f32
        %365 = arith.mulf %alpha, %65 : f32
        %366, %367 = lass_nv.ld_global %D[%363] x 2 if %207 : memref<?x?xf32>
        %368 = arith.mulf %beta, %366 : f32
        %369 = arith.addf %364, %368 : f32
        %370 = arith.mulf %beta, %367 : f32
        %371 = arith.addf %365, %370 : f32
        lass_nv.st_global %D[%363], %369, %371 if %207 : memref<?x?xf32>, f32, f32
      } else {
        %372 = arith.cmpi ult, %204, %M : i32
        %373 = arith.cmpi ult, %206, %N : i32
        %374 = arith.andi %372, %373 : i1
        %375 = arith.addi %206, %31 : i32
        %376 = arith.cmpi ult, %375, %N : i32
        %377 = arith.andi %372, %376 : i1
        %378 = arith.andi %377, %209 : i1
        %379 = arith.xori %378, %207 : i1
        %380 = arith.andi %374, %379 : i1
        %381 = arith.andi %377, %379 : i1
        %382 = arith.muli %204, %N : i32
        %383 = arith.addi %382, %206 : i32
        %384 = arith.addi %383, %31 : i32
        %385 = arith.mulf %alpha, %34 : f32
        %386 = arith.mulf %alpha, %35 : f32
        %387, %388 = lass_nv.ld_global %D[%383] x 2 if %378 : memref<?x?xf32>
        %389 = lass_nv.ld_global %D[%383] x 1 if %380 : memref<?x?xf32>
        %390 = lass_nv.ld_global %D[%384] x 1 if %381 : memref<?x?xf32>
        %391 = arith.select %378, %387, %389 : f32
        %392 = arith.select %378, %388, %390 : f32
        %393 = arith.mulf %beta, %391 : f32
        %394 = arith.addf %385, %393 : f32
        %395 = arith.mulf %beta, %392 : f32
        %396 = arith.addf %386, %395 : f32
        lass_nv.st_global %D[%383], %394, %396 if %378 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%383], %394 if %380 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%384], %396 if %381 : memref<?x?xf32>, f32
        %397 = arith.addi %204, %17 : i32
        %398 = arith.cmpi ult, %397, %M : i32
        %399 = arith.andi %398, %373 : i1
        %400 = arith.andi %398, %376 : i1
        %401 = arith.andi %400, %209 : i1
        %402 = arith.xori %401, %207 : i1
        %403 = arith.andi %399, %402 : i1
        %404 = arith.andi %400, %402 : i1
        %405 = arith.muli %397, %N : i32
        %406 = arith.addi %405, %206 : i32
        %407 = arith.addi %406, %31 : i32
        %408 = arith.mulf %alpha, %36 : f32
        %409 = arith.mulf %alpha, %37 : f32
        %410, %411 = lass_nv.ld_global %D[%406] x 2 if %401 : memref<?x?xf32>
        %412 = lass_nv.ld_global %D[%406] x 1 if %403 : memref<?x?xf32>
        %413 = lass_nv.ld_global %D[%407] x 1 if %404 : memref<?x?xf32>
        %414 = arith.select %401, %410, %412 : f32
        %415 = arith.select %401, %411, %413 : f32
        %416 = arith.mulf %beta, %414 : f32
        %417 = arith.addf %408, %416 : f32
        %418 = arith.mulf %beta, %415 : f32
        %419 = arith.addf %409, %418 : f32
        lass_nv.st_global %D[%406], %417, %419 if %401 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%406], %417 if %403 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%407], %419 if %404 : memref<?x?xf32>, f32
        %420 = arith.addi %206, %17 : i32
        %421 = arith.cmpi ult, %420, %N : i32
        %422 = arith.andi %372, %421 : i1
        %423 = arith.addi %420, %31 : i32
        %424 = arith.cmpi ult, %423, %N : i32
        %425 = arith.andi %372, %424 : i1
        %426 = arith.andi %425, %209 : i1
        %427 = arith.xori %426, %207 : i1
        %428 = arith.andi %422, %427 : i1
        %429 = arith.andi %425, %427 : i1
        %430 = arith.addi %382, %420 : i32
        %431 = arith.addi %430, %31 : i32
        %432 = arith.mulf %alpha, %38 : f32
        %433 = arith.mulf %alpha, %39 : f32
        %434, %435 = lass_nv.ld_global %D[%430] x 2 if %426 : memref<?x?xf32>
        %436 = lass_nv.ld_global %D[%430] x 1 if %428 : memref<?x?xf32>
        %437 = lass_nv.ld_global %D[%431] x 1 if %429 : memref<?x?xf32>
        %438 = arith.select %426, %434, %436 : f32
        %439 = arith.select %426, %435, %437 : f32
        %440 = arith.mulf %beta, %438 : f32
        %441 = arith.addf %432, %440 : f32
        %442 = arith.mulf %beta, %439 : f32
        %443 = arith.addf %433, %442 : f32
        lass_nv.st_global %D[%430], %441, %443 if %426 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%430], %441 if %428 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%431], %443 if %429 : memref<?x?xf32>, f32
        %444 = arith.andi %398, %421 : i1
        %445 = arith.andi %398, %424 : i1
        %446 = arith.andi %445, %209 : i1
        %447 = arith.xori %446, %207 : i1
        %448 = arith.andi %444, %447 : i1
        %449 = arith.andi %445, %447 : i1
        %450 = arith.addi %405, %420 : i32
        %451 = arith.addi %450, %31 : i32
        %452 = arith.mulf %alpha, %40 : f32
        %453 = arith.mulf %alpha, %41 : f32
        %454, %455 = lass_nv.ld_global %D[%450] x 2 if %446 : memref<?x?xf32>
        %456 = lass_nv.ld_global %D[%450] x 1 if %448 : memref<?x?xf32>
        %457 = lass_nv.ld_global %D[%451] x 1 if %449 : memref<?x?xf32>
        %458 = arith.select %446, %454, %456 : f32
        %459 = arith.select %446, %455, %457 : f32
        %460 = arith.mulf %beta, %458 : f32
        %461 = arith.addf %452, %460 : f32
        %462 = arith.mulf %beta, %459 : f32
        %463 = arith.addf %453, %462 : f32
        lass_nv.st_global %D[%450], %461, %463 if %446 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%450], %461 if %448 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%451], %463 if %449 : memref<?x?xf32>, f32
        %464 = arith.addi %206, %6 : i32
        %465 = arith.cmpi ult, %464, %N : i32
        %466 = arith.andi %372, %465 : i1
        %467 = arith.addi %464, %31 : i32
        %468 = arith.cmpi ult, %467, %N : i32
        %469 = arith.andi %372, %468 : i1
        %470 = arith.andi %469, %209 : i1
        %471 = arith.xori %470, %207 : i1
        %472 = arith.andi %466, %471 : i1
        %473 = arith.andi %469, %471 : i1
        %474 = arith.addi %382, %464 : i32
        %475 = arith.addi %474, %31 : i32
        %476 = arith.mulf %alpha, %42 : f32
        %477 = arith.mulf %alpha, %43 : f32
        %478, %479 = lass_nv.ld_global %D[%474] x 2 if %470 : memref<?x?xf32>
        %480 = lass_nv.ld_global %D[%474] x 1 if %472 : memref<?x?xf32>
        %481 = lass_nv.ld_global %D[%475] x 1 if %473 : memref<?x?xf32>
        %482 = arith.select %470, %478, %480 : f32
        %483 = arith.select %470, %479, %481 : f32
        %484 = arith.mulf %beta, %482 : f32
        %485 = arith.addf %476, %484 : f32
        %486 = arith.mulf %beta, %483 : f32
        %487 = arith.addf %477, %486 : f32
        lass_nv.st_global %D[%474], %485, %487 if %470 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%474], %485 if %472 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%475], %487 if %473 : memref<?x?xf32>, f32
        %488 = arith.andi %398, %465 : i1
        %489 = arith.andi %398, %468 : i1
        %490 = arith.andi %489, %209 : i1
        %491 = arith.xori %490, %207 : i1
        %492 = arith.andi %488, %491 : i1
        %493 = arith.andi %489, %491 : i1
        %494 = arith.addi %405, %464 : i32
        %495 = arith.addi %494, %31 : i32
        %496 = arith.mulf %alpha, %44 : f32
        %497 = arith.mulf %alpha, %45 : f32
        %498, %499 = lass_nv.ld_global %D[%494] x 2 if %490 : memref<?x?xf32>
        %500 = lass_nv.ld_global %D[%494] x 1 if %492 : memref<?x?xf32>
        %501 = lass_nv.ld_global %D[%495] x 1 if %493 : memref<?x?xf32>
        %502 = arith.select %490, %498, %500 : f32
        %503 = arith.select %490, %499, %501 : f32
        %504 = arith.mulf %beta, %502 : f32
        %505 = arith.addf %496, %504 : f32
        %506 = arith.mulf %beta, %503 : f32
        %507 = arith.addf %497, %506 : f32
        lass_nv.st_global %D[%494], %505, %507 if %490 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%494], %505 if %492 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%495], %507 if %493 : memref<?x?xf32>, f32
        %508 = arith.constant 24 : i32
        %509 = arith.addi %206, %508 : i32
        %510 = arith.cmpi ult, %509, %N : i32
        %511 = arith.andi %372, %510 : i1
        %512 = arith.addi %509, %31 : i32
        %513 = arith.cmpi ult, %512, %N : i32
        %514 = arith.andi %372, %513 : i1
        %515 = arith.andi %514, %209 : i1
        %516 = arith.xori %515, %207 : i1
        %517 = arith.andi %511, %516 : i1
        %518 = arith.andi %514, %516 : i1
        %519 = arith.addi %382, %509 : i32
        %520 = arith.addi %519, %31 : i32
        %521 = arith.mulf %alpha, %46 : f32
        %522 = arith.mulf %alpha, %47 : f32
        %523, %524 = lass_nv.ld_global %D[%519] x 2 if %515 : memref<?x?xf32>
        %525 = lass_nv.ld_global %D[%519] x 1 if %517 : memref<?x?xf32>
        %526 = lass_nv.ld_global %D[%520] x 1 if %518 : memref<?x?xf32>
        %527 = arith.select %515, %523, %525 : f32
        %528 = arith.select %515, %524, %526 : f32
        %529 = arith.mulf %beta, %527 : f32
        %530 = arith.addf %521, %529 : f32
        %531 = arith.mulf %beta, %528 : f32
        %532 = arith.addf %522, %531 : f32
        lass_nv.st_global %D[%519], %530, %532 if %515 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%519], %530 if %517 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%520], %532 if %518 : memref<?x?xf32>, f32
        %533 = arith.andi %398, %510 : i1
        %534 = arith.andi %398, %513 : i1
        %535 = arith.andi %534, %209 : i1
        %536 = arith.xori %535, %207 : i1
        %537 = arith.andi %533, %536 : i1
        %538 = arith.andi %534, %536 : i1
        %539 = arith.addi %405, %509 : i32
        %540 = arith.addi %539, %31 : i32
        %541 = arith.mulf %alpha, %48 : f32
        %542 = arith.mulf %alpha, %49 : f32
        %543, %544 = lass_nv.ld_global %D[%539] x 2 if %535 : memref<?x?xf32>
        %545 = lass_nv.ld_global %D[%539] x 1 if %537 : memref<?x?xf32>
        %546 = lass_nv.ld_global %D[%540] x 1 if %538 : memref<?x?xf32>
        %547 = arith.select %535, %543, %545 : f32
        %548 = arith.select %535, %544, %546 : f32
        %549 = arith.mulf %beta, %547 : f32
        %550 = arith.addf %541, %549 : f32
        %551 = arith.mulf %beta, %548 : f32
        %552 = arith.addf %542, %551 : f32
        lass_nv.st_global %D[%539], %550, %552 if %535 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%539], %550 if %537 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%540], %552 if %538 : memref<?x?xf32>, f32
        %553 = arith.addi %204, %6 : i32
        %554 = arith.cmpi ult, %553, %M : i32
        %555 = arith.andi %554, %373 : i1
        %556 = arith.andi %554, %376 : i1
        %557 = arith.andi %556, %209 : i1
        %558 = arith.xori %557, %207 : i1
        %559 = arith.andi %555, %558 : i1
        %560 = arith.andi %556, %558 : i1
        %561 = arith.muli %553, %N : i32
        %562 = arith.addi %561, %206 : i32
        %563 = arith.addi %562, %31 : i32
        %564 = arith.mulf %alpha, %50 : f32
        %565 = arith.mulf %alpha, %51 : f32
        %566, %567 = lass_nv.ld_global %D[%562] x 2 if %557 : memref<?x?xf32>
        %568 = lass_nv.ld_global %D[%562] x 1 if %559 : memref<?x?xf32>
        %569 = lass_nv.ld_global %D[%563] x 1 if %560 : memref<?x?xf32>
        %570 = arith.select %557, %566, %568 : f32
        %571 = arith.select %557, %567, %569 : f32
        %572 = arith.mulf %beta, %570 : f32
        %573 = arith.addf %564, %572 : f32
        %574 = arith.mulf %beta, %571 : f32
        %575 = arith.addf %565, %574 : f32
        lass_nv.st_global %D[%562], %573, %575 if %557 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%562], %573 if %559 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%563], %575 if %560 : memref<?x?xf32>, f32
        %576 = arith.addi %204, %508 : i32
        %577 = arith.cmpi ult, %576, %M : i32
        %578 = arith.andi %577, %373 : i1
        %579 = arith.andi %577, %376 : i1
        %580 = arith.andi %579, %209 : i1
        %581 = arith.xori %580, %207 : i1
        %582 = arith.andi %578, %581 : i1
        %583 = arith.andi %579, %581 : i1
        %584 = arith.muli %576, %N : i32
        %585 = arith.addi %584, %206 : i32
        %586 = arith.addi %585, %31 : i32
        %587 = arith.mulf %alpha, %52 : f32
        %588 = arith.mulf %alpha, %53 : f32
        %589, %590 = lass_nv.ld_global %D[%585] x 2 if %580 : memref<?x?xf32>
        %591 = lass_nv.ld_global %D[%585] x 1 if %582 : memref<?x?xf32>
        %592 = lass_nv.ld_global %D[%586] x 1 if %583 : memref<?x?xf32>
        %593 = arith.select %580, %589, %591 : f32
        %594 = arith.select %580, %590, %592 : f32
        %595 = arith.mulf %beta, %593 : f32
        %596 = arith.addf %587, %595 : f32
        %597 = arith.mulf %beta, %594 : f32
        %598 = arith.addf %588, %597 : f32
        lass_nv.st_global %D[%585], %596, %598 if %580 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%585], %596 if %582 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%586], %598 if %583 : memref<?x?xf32>, f32
        %599 = arith.andi %554, %421 : i1
        %600 = arith.andi %554, %424 : i1
        %601 = arith.andi %600, %209 : i1
        %602 = arith.xori %601, %207 : i1
        %603 = arith.andi %599, %602 : i1
        %604 = arith.andi %600, %602 : i1
        %605 = arith.addi %561, %420 : i32
        %606 = arith.addi %605, %31 : i32
        %607 = arith.mulf %alpha, %54 : f32
        %608 = arith.mulf %alpha, %55 : f32
        %609, %610 = lass_nv.ld_global %D[%605] x 2 if %601 : memref<?x?xf32>
        %611 = lass_nv.ld_global %D[%605] x 1 if %603 : memref<?x?xf32>
        %612 = lass_nv.ld_global %D[%606] x 1 if %604 : memref<?x?xf32>
        %613 = arith.select %601, %609, %611 : f32
        %614 = arith.select %601, %610, %612 : f32
        %615 = arith.mulf %beta, %613 : f32
        %616 = arith.addf %607, %615 : f32
        %617 = arith.mulf %beta, %614 : f32
        %618 = arith.addf %608, %617 : f32
        lass_nv.st_global %D[%605], %616, %618 if %601 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%605], %616 if %603 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%606], %618 if %604 : memref<?x?xf32>, f32
        %619 = arith.andi %577, %421 : i1
        %620 = arith.andi %577, %424 : i1
        %621 = arith.andi %620, %209 : i1
        %622 = arith.xori %621, %207 : i1
        %623 = arith.andi %619, %622 : i1
        %624 = arith.andi %620, %622 : i1
        %625 = arith.addi %584, %420 : i32
        %626 = arith.addi %625, %31 : i32
        %627 = arith.mulf %alpha, %56 : f32
        %628 = arith.mulf %alpha, %57 : f32
        %629, %630 = lass_nv.ld_global %D[%625] x 2 if %621 : memref<?x?xf32>
        %631 = lass_nv.ld_global %D[%625] x 1 if %623 : memref<?x?xf32>
        %632 = lass_nv.ld_global %D[%626] x 1 if %624 : memref<?x?xf32>
        %633 = arith.select %621, %629, %631 : f32
        %634 = arith.select %621, %630, %632 : f32
        %635 = arith.mulf %beta, %633 : f32
        %636 = arith.addf %627, %635 : f32
        %637 = arith.mulf %beta, %634 : f32
        %638 = arith.addf %628, %637 : f32
        lass_nv.st_global %D[%625], %636, %638 if %621 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%625], %636 if %623 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%626], %638 if %624 : memref<?x?xf32>, f32
        %639 = arith.andi %554, %465 : i1
        %640 = arith.andi %554, %468 : i1
        %641 = arith.andi %640, %209 : i1
        %642 = arith.xori %641, %207 : i1
        %643 = arith.andi %639, %642 : i1
        %644 = arith.andi %640, %642 : i1
        %645 = arith.addi %561, %464 : i32
        %646 = arith.addi %645, %31 : i32
        %647 = arith.mulf %alpha, %58 : f32
        %648 = arith.mulf %alpha, %59 : f32
        %649, %650 = lass_nv.ld_global %D[%645] x 2 if %641 : memref<?x?xf32>
        %651 = lass_nv.ld_global %D[%645] x 1 if %643 : memref<?x?xf32>
        %652 = lass_nv.ld_global %D[%646] x 1 if %644 : memref<?x?xf32>
        %653 = arith.select %641, %649, %651 : f32
        %654 = arith.select %641, %650, %652 : f32
        %655 = arith.mulf %beta, %653 : f32
        %656 = arith.addf %647, %655 : f32
        %657 = arith.mulf %beta, %654 : f32
        %658 = arith.addf %648, %657 : f32
        lass_nv.st_global %D[%645], %656, %658 if %641 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%645], %656 if %643 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%646], %658 if %644 : memref<?x?xf32>, f32
        %659 = arith.andi %577, %465 : i1
        %660 = arith.andi %577, %468 : i1
        %661 = arith.andi %660, %209 : i1
        %662 = arith.xori %661, %207 : i1
        %663 = arith.andi %659, %662 : i1
        %664 = arith.andi %660, %662 : i1
        %665 = arith.addi %584, %464 : i32
        %666 = arith.addi %665, %31 : i32
        %667 = arith.mulf %alpha, %60 : f32
        %668 = arith.mulf %alpha, %61 : f32
        %669, %670 = lass_nv.ld_global %D[%665] x 2 if %661 : memref<?x?xf32>
        %671 = lass_nv.ld_global %D[%665] x 1 if %663 : memref<?x?xf32>
        %672 = lass_nv.ld_global %D[%666] x 1 if %664 : memref<?x?xf32>
        %673 = arith.select %661, %669, %671 : f32
        %674 = arith.select %661, %670, %672 : f32
        %675 = arith.mulf %beta, %673 : f32
        %676 = arith.addf %667, %675 : f32
        %677 = arith.mulf %beta, %674 : f32
        %678 = arith.addf %668, %677 : f32
        lass_nv.st_global %D[%665], %676, %678 if %661 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%665], %676 if %663 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%666], %678 if %664 : memref<?x?xf32>, f32
        %679 = arith.andi %554, %510 : i1
        %680 = arith.andi %554, %513 : i1
        %681 = arith.andi %680, %209 : i1
        %682 = arith.xori %681, %207 : i1
        %683 = arith.andi %679, %682 : i1
        %684 = arith.andi %680, %682 : i1
        %685 = arith.addi %561, %509 : i32
        %686 = arith.addi %685, %31 : i32
        %687 = arith.mulf %alpha, %62 : f32
        %688 = arith.mulf %alpha, %63 : f32
        %689, %690 = lass_nv.ld_global %D[%685] x 2 if %681 : memref<?x?xf32>
        %691 = lass_nv.ld_global %D[%685] x 1 if %683 : memref<?x?xf32>
        %692 = lass_nv.ld_global %D[%686] x 1 if %684 : memref<?x?xf32>
        %693 = arith.select %681, %689, %691 : f32
        %694 = arith.select %681, %690, %692 : f32
        %695 = arith.mulf %beta, %693 : f32
        %696 = arith.addf %687, %695 : f32
        %697 = arith.mulf %beta, %694 : f32
        %698 = arith.addf %688, %697 : f32
        lass_nv.st_global %D[%685], %696, %698 if %681 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%685], %696 if %683 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%686], %698 if %684 : memref<?x?xf32>, f32
        %699 = arith.andi %577, %510 : i1
        %700 = arith.andi %577, %513 : i1
        %701 = arith.andi %700, %209 : i1
        %702 = arith.xori %701, %207 : i1
        %703 = arith.andi %699, %702 : i1
        %704 = arith.andi %700, %702 : i1
        %705 = arith.addi %584, %509 : i32
        %706 = arith.addi %705, %31 : i32
        %707 = arith.mulf %alpha, %64 : f32
        %708 = arith.mulf %alpha, %65 : f32
        %709, %710 = lass_nv.ld_global %D[%705] x 2 if %701 : memref<?x?xf32>
        %711 = lass_nv.ld_global %D[%705] x 1 if %703 : memref<?x?xf32>
        %712 = lass_nv.ld_global %D[%706] x 1 if %704 : memref<?x?xf32>
        %713 = arith.select %701, %709, %711 : f32
        %714 = arith.select %701, %710, %712 : f32
        %715 = arith.mulf %beta, %713 : f32
        %716 = arith.addf %707, %715 : f32
        %717 = arith.mulf %beta, %714 : f32
        %718 = arith.addf %708, %717 : f32
        lass_nv.st_global %D[%705], %716, %718 if %701 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%705], %716 if %703 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%706], %718 if %704 : memref<?x?xf32>, f32
      }
    } else {
      scf.if %216 {
        %719 = arith.muli %204, %N : i32
        %720 = arith.addi %719, %206 : i32
        %721 = arith.mulf %alpha, %34 : f32
        %722 = arith.mulf %alpha, %35 : f32
        lass_nv.st_global %D[%720], %721, %722 if %207 : memref<?x?xf32>, f32, f32
        %723 = arith.addi %204, %17 : i32
        %724 = arith.muli %723, %N : i32
        %725 = arith.addi %724, %206 : i32
        %726 = arith.mulf %alpha, %36 : f32
        %727 = arith.mulf %alpha, %37 : f32
        lass_nv.st_global %D[%725], %726, %727 if %207 : memref<?x?xf32>, f32, f32
        %728 = arith.addi %206, %17 : i32
        %729 = arith.addi %719, %728 : i32
        %730 = arith.mulf %alpha, %38 : f32
        %731 = arith.mulf %alpha, %39 : f32
        lass_nv.st_global %D[%729], %730, %731 if %207 : memref<?x?xf32>, f32, f32
        %732 = arith.addi %724, %728 : i32
        %733 = arith.mulf %alpha, %40 : f32
        %734 = arith.mulf %alpha, %41 : f32
        lass_nv.st_global %D[%732], %733, %734 if %207 : memref<?x?xf32>, f32, f32
        %735 = arith.addi %206, %6 : i32
        %736 = arith.addi %719, %735 : i32
        %737 = arith.mulf %alpha, %42 : f32
        %738 = arith.mulf %alpha, %43 : f32
        lass_nv.st_global %D[%736], %737, %738 if %207 : memref<?x?xf32>, f32, f32
        %739 = arith.addi %724, %735 : i32
        %740 = arith.mulf %alpha, %44 : f32
        %741 = arith.mulf %alpha, %45 : f32
        lass_nv.st_global %D[%739], %740, %741 if %207 : memref<?x?xf32>, f32, f32
        %742 = arith.constant 24 : i32
        %743 = arith.addi %206, %742 : i32
        %744 = arith.addi %719, %743 : i32
        %745 = arith.mulf %alpha, %46 : f32
        %746 = arith.mulf %alpha, %47 : f32
        lass_nv.st_global %D[%744], %745, %746 if %207 : memref<?x?xf32>, f32, f32
        %747 = arith.addi %724, %743 : i32
        %748 = arith.mulf %alpha, %48 : f32
        %749 = arith.mulf %alpha, %49 : f32
        lass_nv.st_global %D[%747], %748, %749 if %207 : memref<?x?xf32>, f32, f32
        %750 = arith.addi %204, %6 : i32
        %751 = arith.muli %750, %N : i32
        %752 = arith.addi %751, %206 : i32
        %753 = arith.mulf %alpha, %50 : f32
        %754 = arith.mulf %alpha, %51 : f32
        lass_nv.st_global %D[%752], %753, %754 if %207 : memref<?x?xf32>, f32, f32
        %755 = arith.addi %204, %742 : i32
        %756 = arith.muli %755, %N : i32
        %757 = arith.addi %756, %206 : i32
        %758 = arith.mulf %alpha, %52 : f32
        %759 = arith.mulf %alpha, %53 : f32
        lass_nv.st_global %D[%757], %758, %759 if %207 : memref<?x?xf32>, f32, f32
        %760 = arith.addi %751, %728 : i32
        %761 = arith.mulf %alpha, %54 : f32
        %762 = arith.mulf %alpha, %55 : f32
        lass_nv.st_global %D[%760], %761, %762 if %207 : memref<?x?xf32>, f32, f32
        %763 = arith.addi %756, %728 : i32
        %764 = arith.mulf %alpha, %56 : f32
        %765 = arith.mulf %alpha, %57 : f32
        lass_nv.st_global %D[%763], %764, %765 if %207 : memref<?x?xf32>, f32, f32
        %766 = arith.addi %751, %735 : i32
        %767 = arith.mulf %alpha, %58 : f32
        %768 = arith.mulf %alpha, %59 : f32
        lass_nv.st_global %D[%766], %767, %768 if %207 : memref<?x?xf32>, f32, f32
        %769 = arith.addi %756, %735 : i32
        %770 = arith.mulf %alpha, %60 : f32
        %771 = arith.mulf %alpha, %61 : f32
        lass_nv.st_global %D[%769], %770, %771 if %207 : memref<?x?xf32>, f32, f32
        %772 = arith.addi %751, %743 : i32
        %773 = arith.mulf %alpha, %62 : f32
        %774 = arith.mulf %alpha, %63 : f32
        lass_nv.st_global %D[%772], %773, %774 if %207 : memref<?x?xf32>, f32, f32
        %775 = arith.addi %756, %743 : i32
        %776 = arith.mulf %alpha, %64 : f32
        %777 = arith.mulf %alpha, %65 : f32
        lass_nv.st_global %D[%775], %776, %777 if %207 : memref<?x?xf32>, f32, f32
      } else {
        %778 = arith.cmpi ult, %204, %M : i32
        %779 = arith.cmpi ult, %206, %N : i32
        %780 = arith.andi %778, %779 : i1
        %781 = arith.addi %206, %31 : i32
        %782 = arith.cmpi ult, %781, %N : i32
        %783 = arith.andi %778, %782 : i1
        %784 = arith.andi %783, %209 : i1
        %785 = arith.xori %784, %207 : i1
        %786 = arith.andi %780, %785 : i1
        %787 = arith.andi %783, %785 : i1
        %788 = arith.muli %204, %N : i32
        %789 = arith.addi %788, %206 : i32
        %790 = arith.addi %789, %31 : i32
        %791 = arith.mulf %alpha, %34 : f32
        %792 = arith.mulf %alpha, %35 : f32
        lass_nv.st_global %D[%789], %791, %792 if %784 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%789], %791 if %786 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%790], %792 if %787 : memref<?x?xf32>, f32
        %793 = arith.addi %204, %17 : i32
        %794 = arith.cmpi ult, %793, %M : i32
        %795 = arith.andi %794, %779 : i1
        %796 = arith.andi %794, %782 : i1
        %797 = arith.andi %796, %209 : i1
        %798 = arith.xori %797, %207 : i1
        %799 = arith.andi %795, %798 : i1
        %800 = arith.andi %796, %798 : i1
        %801 = arith.muli %793, %N : i32
        %802 = arith.addi %801, %206 : i32
        %803 = arith.addi %802, %31 : i32
        %804 = arith.mulf %alpha, %36 : f32
        %805 = arith.mulf %alpha, %37 : f32
        lass_nv.st_global %D[%802], %804, %805 if %797 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%802], %804 if %799 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%803], %805 if %800 : memref<?x?xf32>, f32
        %806 = arith.addi %206, %17 : i32
        %807 = arith.cmpi ult, %806, %N : i32
        %808 = arith.andi %778, %807 : i1
        %809 = arith.addi %806, %31 : i32
        %810 = arith.cmpi ult, %809, %N : i32
        %811 = arith.andi %778, %810 : i1
        %812 = arith.andi %811, %209 : i1
        %813 = arith.xori %812, %207 : i1
        %814 = arith.andi %808, %813 : i1
        %815 = arith.andi %811, %813 : i1
        %816 = arith.addi %788, %806 : i32
        %817 = arith.addi %816, %31 : i32
        %818 = arith.mulf %alpha, %38 : f32
        %819 = arith.mulf %alpha, %39 : f32
        lass_nv.st_global %D[%816], %818, %819 if %812 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%816], %818 if %814 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%817], %819 if %815 : memref<?x?xf32>, f32
        %820 = arith.andi %794, %807 : i1
        %821 = arith.andi %794, %810 : i1
        %822 = arith.andi %821, %209 : i1
        %823 = arith.xori %822, %207 : i1
        %824 = arith.andi %820, %823 : i1
        %825 = arith.andi %821, %823 : i1
        %826 = arith.addi %801, %806 : i32
        %827 = arith.addi %826, %31 : i32
        %828 = arith.mulf %alpha, %40 : f32
        %829 = arith.mulf %alpha, %41 : f32
        lass_nv.st_global %D[%826], %828, %829 if %822 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%826], %828 if %824 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%827], %829 if %825 : memref<?x?xf32>, f32
        %830 = arith.addi %206, %6 : i32
        %831 = arith.cmpi ult, %830, %N : i32
        %832 = arith.andi %778, %831 : i1
        %833 = arith.addi %830, %31 : i32
        %834 = arith.cmpi ult, %833, %N : i32
        %835 = arith.andi %778, %834 : i1
        %836 = arith.andi %835, %209 : i1
        %837 = arith.xori %836, %207 : i1
        %838 = arith.andi %832, %837 : i1
        %839 = arith.andi %835, %837 : i1
        %840 = arith.addi %788, %830 : i32
        %841 = arith.addi %840, %31 : i32
        %842 = arith.mulf %alpha, %42 : f32
        %843 = arith.mulf %alpha, %43 : f32
        lass_nv.st_global %D[%840], %842, %843 if %836 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%840], %842 if %838 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%841], %843 if %839 : memref<?x?xf32>, f32
        %844 = arith.andi %794, %831 : i1
        %845 = arith.andi %794, %834 : i1
        %846 = arith.andi %845, %209 : i1
        %847 = arith.xori %846, %207 : i1
        %848 = arith.andi %844, %847 : i1
        %849 = arith.andi %845, %847 : i1
        %850 = arith.addi %801, %830 : i32
        %851 = arith.addi %850, %31 : i32
        %852 = arith.mulf %alpha, %44 : f32
        %853 = arith.mulf %alpha, %45 : f32
        lass_nv.st_global %D[%850], %852, %853 if %846 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%850], %852 if %848 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%851], %853 if %849 : memref<?x?xf32>, f32
        %854 = arith.constant 24 : i32
        %855 = arith.addi %206, %854 : i32
        %856 = arith.cmpi ult, %855, %N : i32
        %857 = arith.andi %778, %856 : i1
        %858 = arith.addi %855, %31 : i32
        %859 = arith.cmpi ult, %858, %N : i32
        %860 = arith.andi %778, %859 : i1
        %861 = arith.andi %860, %209 : i1
        %862 = arith.xori %861, %207 : i1
        %863 = arith.andi %857, %862 : i1
        %864 = arith.andi %860, %862 : i1
        %865 = arith.addi %788, %855 : i32
        %866 = arith.addi %865, %31 : i32
        %867 = arith.mulf %alpha, %46 : f32
        %868 = arith.mulf %alpha, %47 : f32
        lass_nv.st_global %D[%865], %867, %868 if %861 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%865], %867 if %863 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%866], %868 if %864 : memref<?x?xf32>, f32
        %869 = arith.andi %794, %856 : i1
        %870 = arith.andi %794, %859 : i1
        %871 = arith.andi %870, %209 : i1
        %872 = arith.xori %871, %207 : i1
        %873 = arith.andi %869, %872 : i1
        %874 = arith.andi %870, %872 : i1
        %875 = arith.addi %801, %855 : i32
        %876 = arith.addi %875, %31 : i32
        %877 = arith.mulf %alpha, %48 : f32
        %878 = arith.mulf %alpha, %49 : f32
        lass_nv.st_global %D[%875], %877, %878 if %871 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%875], %877 if %873 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%876], %878 if %874 : memref<?x?xf32>, f32
        %879 = arith.addi %204, %6 : i32
        %880 = arith.cmpi ult, %879, %M : i32
        %881 = arith.andi %880, %779 : i1
        %882 = arith.andi %880, %782 : i1
        %883 = arith.andi %882, %209 : i1
        %884 = arith.xori %883, %207 : i1
        %885 = arith.andi %881, %884 : i1
        %886 = arith.andi %882, %884 : i1
        %887 = arith.muli %879, %N : i32
        %888 = arith.addi %887, %206 : i32
        %889 = arith.addi %888, %31 : i32
        %890 = arith.mulf %alpha, %50 : f32
        %891 = arith.mulf %alpha, %51 : f32
        lass_nv.st_global %D[%888], %890, %891 if %883 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%888], %890 if %885 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%889], %891 if %886 : memref<?x?xf32>, f32
        %892 = arith.addi %204, %854 : i32
        %893 = arith.cmpi ult, %892, %M : i32
        %894 = arith.andi %893, %779 : i1
        %895 = arith.andi %893, %782 : i1
        %896 = arith.andi %895, %209 : i1
        %897 = arith.xori %896, %207 : i1
        %898 = arith.andi %894, %897 : i1
        %899 = arith.andi %895, %897 : i1
        %900 = arith.muli %892, %N : i32
        %901 = arith.addi %900, %206 : i32
        %902 = arith.addi %901, %31 : i32
        %903 = arith.mulf %alpha, %52 : f32
        %904 = arith.mulf %alpha, %53 : f32
        lass_nv.st_global %D[%901], %903, %904 if %896 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%901], %903 if %898 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%902], %904 if %899 : memref<?x?xf32>, f32
        %905 = arith.andi %880, %807 : i1
        %906 = arith.andi %880, %810 : i1
        %907 = arith.andi %906, %209 : i1
        %908 = arith.xori %907, %207 : i1
        %909 = arith.andi %905, %908 : i1
        %910 = arith.andi %906, %908 : i1
        %911 = arith.addi %887, %806 : i32
        %912 = arith.addi %911, %31 : i32
        %913 = arith.mulf %alpha, %54 : f32
        %914 = arith.mulf %alpha, %55 : f32
        lass_nv.st_global %D[%911], %913, %914 if %907 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%911], %913 if %909 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%912], %914 if %910 : memref<?x?xf32>, f32
        %915 = arith.andi %893, %807 : i1
        %916 = arith.andi %893, %810 : i1
        %917 = arith.andi %916, %209 : i1
        %918 = arith.xori %917, %207 : i1
        %919 = arith.andi %915, %918 : i1
        %920 = arith.andi %916, %918 : i1
        %921 = arith.addi %900, %806 : i32
        %922 = arith.addi %921, %31 : i32
        %923 = arith.mulf %alpha, %56 : f32
        %924 = arith.mulf %alpha, %57 : f32
        lass_nv.st_global %D[%921], %923, %924 if %917 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%921], %923 if %919 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%922], %924 if %920 : memref<?x?xf32>, f32
        %925 = arith.andi %880, %831 : i1
        %926 = arith.andi %880, %834 : i1
        %927 = arith.andi %926, %209 : i1
        %928 = arith.xori %927, %207 : i1
        %929 = arith.andi %925, %928 : i1
        %930 = arith.andi %926, %928 : i1
        %931 = arith.addi %887, %830 : i32
        %932 = arith.addi %931, %31 : i32
        %933 = arith.mulf %alpha, %58 : f32
        %934 = arith.mulf %alpha, %59 : f32
        lass_nv.st_global %D[%931], %933, %934 if %927 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%931], %933 if %929 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%932], %934 if %930 : memref<?x?xf32>, f32
        %935 = arith.andi %893, %831 : i1
        %936 = arith.andi %893, %834 : i1
        %937 = arith.andi %936, %209 : i1
        %938 = arith.xori %937, %207 : i1
        %939 = arith.andi %935, %938 : i1
        %940 = arith.andi %936, %938 : i1
        %941 = arith.addi %900, %830 : i32
        %942 = arith.addi %941, %31 : i32
        %943 = arith.mulf %alpha, %60 : f32
        %944 = arith.mulf %alpha, %61 : f32
        lass_nv.st_global %D[%941], %943, %944 if %937 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%941], %943 if %939 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%942], %944 if %940 : memref<?x?xf32>, f32
        %945 = arith.andi %880, %856 : i1
        %946 = arith.andi %880, %859 : i1
        %947 = arith.andi %946, %209 : i1
        %948 = arith.xori %947, %207 : i1
        %949 = arith.andi %945, %948 : i1
        %950 = arith.andi %946, %948 : i1
        %951 = arith.addi %887, %855 : i32
        %952 = arith.addi %951, %31 : i32
        %953 = arith.mulf %alpha, %62 : f32
        %954 = arith.mulf %alpha, %63 : f32
        lass_nv.st_global %D[%951], %953, %954 if %947 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%951], %953 if %949 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%952], %954 if %950 : memref<?x?xf32>, f32
        %955 = arith.andi %893, %856 : i1
        %956 = arith.andi %893, %859 : i1
        %957 = arith.andi %956, %209 : i1
        %958 = arith.xori %957, %207 : i1
        %959 = arith.andi %955, %958 : i1
        %960 = arith.andi %956, %958 : i1
        %961 = arith.addi %900, %855 : i32
        %962 = arith.addi %961, %31 : i32
        %963 = arith.mulf %alpha, %64 : f32
        %964 = arith.mulf %alpha, %65 : f32
        lass_nv.st_global %D[%961], %963, %964 if %957 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%961], %963 if %959 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%962], %964 if %960 : memref<?x?xf32>, f32
      }
    }
    func.return
  }

  // Not a kernel (no lass.kernel): an already physical 8-byte cp.async stays as it is.
  func.func @physical(%A: memref<?x?xf16>, %off: i32, %dst: i32, %p: i1) {
    lass_nv.cp_async %A[%off], %dst, %p {bytes = 8 : i64} : memref<?x?xf16>
    func.return
  }
}
