// lasscc-swizzle-smem (passes/swizzle_smem.py), MN-major rings (NN: A column-major, B row-major).
// Config: threadblock 128x32x32, warp 32x32x32, 3 stages, 128 threads.  The A tile (128 x 32,
// MN-major) is two 64-wide atoms (W = 64, 128-byte lines): element (r, k) at logical byte
// ((r / 64) * 32 + k) * 128 + 2 (r % 64), then Swizzle<3,4,3>; the B tile (32 x 32) one 32-wide
// atom.  Copies walk k-lines of M (16 threads per line of 128 elements), global element
// (k0 + k) * M + m0 + r; fragment loads are ldmatrix.x4.trans at the k-line addresses of
// lasscc.layout.ldmatrix_a_trans_lane_src: row 8 ((lane >> 3) & 1), k (lane & 7) + 8 (lane >> 4).
//
// RUN: %lasscc opt -p lasscc-swizzle-smem %s | filecheck %s
// RUN: xdsl-opt -p lasscc-swizzle-smem %s | xdsl-opt -p cse,dce | filecheck %s
// Rejected: ring loads before the warp level (the check TN has too; an MN-major ring here):
// RUN: not %lasscc opt -p lasscc-swizzle-smem %S/Inputs/lasscc-swizzle-smem-layouts-not-warp-level.mlir.in 2>&1 | filecheck %s --check-prefix=ERR
// ERR: {{^.*}}Inputs/lasscc-swizzle-smem-layouts-not-warp-level.mlir.in:8:3: error: expected warp-level fragment loads (run lasscc-warp-mma first), got lass_pipe.mma{{$}}

// CHECK-LABEL: func.func @gemm_nn(
// CHECK:         %ldst_a_row = arith.muli
// CHECK:         %ldst_a_k = arith.addi
//                first A copy: r = 8 (tid % 16), k = tid / 16
// CHECK:         [[R0:%[0-9]+]] = arith.divui %tid, [[C16:%[0-9]+]] : i32
// CHECK-NEXT:    [[RQ:%[0-9]+]] = arith.remui %tid, [[C16]] : i32
// CHECK-NEXT:    [[R:%[0-9]+]] = arith.muli [[RQ]], [[C8:%[0-9]+]] : i32
// CHECK:         [[GK:%[0-9]+]] = arith.addi [[K0:%[0-9]+]], [[R0]] : i32
// CHECK-NEXT:    [[GKM:%[0-9]+]] = arith.muli [[GK]], %M : i32
// CHECK-NEXT:    [[GR:%[0-9]+]] = arith.addi %m0, [[R]] : i32
// CHECK-NEXT:    [[G:%[0-9]+]] = arith.addi [[GKM]], [[GR]] : i32
// CHECK-NEXT:    [[C64:%[0-9]+]] = arith.constant 64 : i32
// CHECK-NEXT:    [[ATOM:%[0-9]+]] = arith.divui [[R]], [[C64]] : i32
// CHECK-NEXT:    [[AB:%[0-9]+]] = arith.muli [[ATOM]], [[C32:%[0-9]+]] : i32
// CHECK-NEXT:    [[LINE:%[0-9]+]] = arith.addi [[AB]], [[R0]] : i32
// CHECK-NEXT:    [[LB:%[0-9]+]] = arith.muli [[LINE]], [[C128:%[0-9]+]] : i32
// CHECK-NEXT:    [[IN:%[0-9]+]] = arith.remui [[R]], [[C64]] : i32
// CHECK-NEXT:    [[C2:%[0-9]+]] = arith.constant 2 : i32
// CHECK-NEXT:    [[INB:%[0-9]+]] = arith.muli [[IN]], [[C2]] : i32
// CHECK-NEXT:    [[LOG:%[0-9]+]] = arith.addi [[LB]], [[INB]] : i32
// CHECK-NEXT:    [[PHYS:%[0-9]+]] = lass_smem.swizzle [[LOG]] {bits = 3 : i64, base = 4 : i64, shift = 3 : i64}
//                predicate: k0 + k < K (the line), the copy's and m0 + r < M (the column, shared)
// CHECK:         [[KOK:%[0-9]+]] = arith.cmpi ult, [[GK]], %K : i32
// CHECK-NEXT:    [[MOK:%[0-9]+]] = arith.cmpi ult, [[GR]], %M : i32
// CHECK-NEXT:    [[P1:%[0-9]+]] = arith.andi %{{[0-9]+}}, [[MOK]] : i1
// CHECK-NEXT:    [[P:%[0-9]+]] = arith.andi [[P1]], [[KOK]] : i1
// CHECK-NEXT:    lass_nv.cp_async %A[[[G]]], %{{[0-9]+}}, [[P]] {bytes = 16 : i64} : memref<?x?xf16, strided<[1, ?]>>
//                main loop: A fragments by ldmatrix.trans
// CHECK:         %slot = arith.remui %kt
// CHECK-NEXT:    [[FR:%[0-9]+]] = arith.addi %warp_m0, %ldst_a_row : i32
// CHECK-NEXT:    [[FK:%[0-9]+]] = arith.addi %{{[0-9]+}}, %ldst_a_k : i32
// CHECK-NEXT:    [[FA:%[0-9]+]] = arith.divui [[FR]], [[C64]] : i32
// CHECK:         lass_smem.swizzle
// CHECK:         lass_nv.ldmatrix_x4 %{{[0-9]+}} trans
// CHECK-NOT:     lass_nv.ldmatrix_x4 %{{[0-9]+}}{{$}}
// CHECK-NOT:     lass_warp.
// CHECK-NOT:     lass_pipe.

func.func @gemm_nn(%A: memref<?x?xf16, strided<[1, ?]>>, %B: memref<?x?xf16>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32) attributes {lass.kernel = #lass.kernel<ab = f16, d = f32, layouts = [col, row, row], alpha = 1.0, beta = 0.0, config = {threadblock = [128 : i64, 32 : i64, 32 : i64], warp = [32 : i64, 32 : i64, 32 : i64], instruction = [16 : i64, 8 : i64, 16 : i64], stages = 3 : i64, raster = 8 : i64, prefetch = 0 : i64}>} {
  %tid = lass_nv.thread_id
  %0 = arith.constant 31 : i32
  %lane = arith.andi %tid, %0 : i32
  %1 = arith.constant 5 : i32
  %warp = arith.shrui %tid, %1 : i32
  %2 = arith.constant 4 : i32
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
  %11 = arith.constant 127 : i32
  %12 = arith.addi %M, %11 : i32
  %13 = arith.constant 128 : i32
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
  %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x128x32xf16, mn>
  %ring_b = lass_pipe.ring {offset = 24576 : i64} : !lass_pipe.ring<3x32x32xf16, mn>
  %28 = arith.addi %K, %0 : i32
  %k_tiles = arith.divui %28, %4 : i32
  %29 = arith.cmpi ult, %9, %k_tiles : i32
  %30 = arith.muli %9, %4 : i32
  lass_pipe.copy_async A %A[%m0, %30], %ring_a[%9], %29 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<3x128x32xf16, mn>
  lass_pipe.copy_async B %B[%n0, %30], %ring_b[%9], %29 : memref<?x?xf16>, !lass_pipe.ring<3x32x32xf16, mn>
  lass_pipe.commit
  %31 = arith.constant 1 : i32
  %32 = arith.cmpi ult, %31, %k_tiles : i32
  %33 = arith.muli %31, %4 : i32
  lass_pipe.copy_async A %A[%m0, %33], %ring_a[%31], %32 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<3x128x32xf16, mn>
  lass_pipe.copy_async B %B[%n0, %33], %ring_b[%31], %32 : memref<?x?xf16>, !lass_pipe.ring<3x32x32xf16, mn>
  lass_pipe.commit
  lass_pipe.wait {pending = 1 : i64}
  lass_pipe.barrier
  %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65 = scf.for %kt = %9 to %k_tiles step %31 iter_args(%66 = %27, %67 = %27, %68 = %27, %69 = %27, %70 = %27, %71 = %27, %72 = %27, %73 = %27, %74 = %27, %75 = %27, %76 = %27, %77 = %27, %78 = %27, %79 = %27, %80 = %27, %81 = %27, %82 = %27, %83 = %27, %84 = %27, %85 = %27, %86 = %27, %87 = %27, %88 = %27, %89 = %27, %90 = %27, %91 = %27, %92 = %27, %93 = %27, %94 = %27, %95 = %27, %96 = %27, %97 = %27) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) : i32 {
    %98 = arith.constant 2 : i32
    %99 = arith.addi %kt, %98 : i32
    %100 = arith.constant 3 : i32
    %101 = arith.remui %99, %100 : i32
    %102 = arith.cmpi ult, %99, %k_tiles : i32
    %103 = arith.muli %99, %4 : i32
    lass_pipe.copy_async A %A[%m0, %103], %ring_a[%101], %102 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<3x128x32xf16, mn>
    lass_pipe.copy_async B %B[%n0, %103], %ring_b[%101], %102 : memref<?x?xf16>, !lass_pipe.ring<3x32x32xf16, mn>
    lass_pipe.commit
    %slot = arith.remui %kt, %100 : i32
    %104, %105, %106, %107 = lass_warp.load_frag_a %ring_a[%slot], %warp_m0, %9 : !lass_pipe.ring<3x128x32xf16, mn>
    %108, %109, %110, %111 = lass_warp.load_frag_a %ring_a[%slot], %7, %9 : !lass_pipe.ring<3x128x32xf16, mn>
    %112, %113, %114, %115 = lass_warp.load_frag_b %ring_b[%slot], %warp_n0, %9 : !lass_pipe.ring<3x32x32xf16, mn>
    %116, %117, %118, %119 = lass_warp.load_frag_b %ring_b[%slot], %8, %9 : !lass_pipe.ring<3x32x32xf16, mn>
    %120, %121, %122, %123 = lass_warp.load_frag_a %ring_a[%slot], %warp_m0, %6 : !lass_pipe.ring<3x128x32xf16, mn>
    %124, %125, %126, %127 = lass_warp.load_frag_a %ring_a[%slot], %7, %6 : !lass_pipe.ring<3x128x32xf16, mn>
    %128, %129, %130, %131 = lass_warp.load_frag_b %ring_b[%slot], %warp_n0, %6 : !lass_pipe.ring<3x32x32xf16, mn>
    %132, %133, %134, %135 = lass_warp.load_frag_b %ring_b[%slot], %8, %6 : !lass_pipe.ring<3x32x32xf16, mn>
    %136, %137, %138, %139 = lass_nv.mma_sync a(%104, %105, %106, %107) b(%112, %113) c(%66, %67, %68, %69) {shape = "m16n8k16"}
    %140, %141, %142, %143 = lass_nv.mma_sync a(%104, %105, %106, %107) b(%114, %115) c(%70, %71, %72, %73) {shape = "m16n8k16"}
    %144, %145, %146, %147 = lass_nv.mma_sync a(%104, %105, %106, %107) b(%116, %117) c(%74, %75, %76, %77) {shape = "m16n8k16"}
    %148, %149, %150, %151 = lass_nv.mma_sync a(%104, %105, %106, %107) b(%118, %119) c(%78, %79, %80, %81) {shape = "m16n8k16"}
    %152, %153, %154, %155 = lass_nv.mma_sync a(%108, %109, %110, %111) b(%118, %119) c(%94, %95, %96, %97) {shape = "m16n8k16"}
    %156, %157, %158, %159 = lass_nv.mma_sync a(%108, %109, %110, %111) b(%116, %117) c(%90, %91, %92, %93) {shape = "m16n8k16"}
    %160, %161, %162, %163 = lass_nv.mma_sync a(%108, %109, %110, %111) b(%114, %115) c(%86, %87, %88, %89) {shape = "m16n8k16"}
    %164, %165, %166, %167 = lass_nv.mma_sync a(%108, %109, %110, %111) b(%112, %113) c(%82, %83, %84, %85) {shape = "m16n8k16"}
    %168, %169, %170, %171 = lass_nv.mma_sync a(%120, %121, %122, %123) b(%128, %129) c(%136, %137, %138, %139) {shape = "m16n8k16"}
    %172, %173, %174, %175 = lass_nv.mma_sync a(%120, %121, %122, %123) b(%130, %131) c(%140, %141, %142, %143) {shape = "m16n8k16"}
    %176, %177, %178, %179 = lass_nv.mma_sync a(%120, %121, %122, %123) b(%132, %133) c(%144, %145, %146, %147) {shape = "m16n8k16"}
    %180, %181, %182, %183 = lass_nv.mma_sync a(%120, %121, %122, %123) b(%134, %135) c(%148, %149, %150, %151) {shape = "m16n8k16"}
    %184, %185, %186, %187 = lass_nv.mma_sync a(%124, %125, %126, %127) b(%134, %135) c(%152, %153, %154, %155) {shape = "m16n8k16"}
    %188, %189, %190, %191 = lass_nv.mma_sync a(%124, %125, %126, %127) b(%132, %133) c(%156, %157, %158, %159) {shape = "m16n8k16"}
    %192, %193, %194, %195 = lass_nv.mma_sync a(%124, %125, %126, %127) b(%130, %131) c(%160, %161, %162, %163) {shape = "m16n8k16"}
    %196, %197, %198, %199 = lass_nv.mma_sync a(%124, %125, %126, %127) b(%128, %129) c(%164, %165, %166, %167) {shape = "m16n8k16"}
    lass_pipe.wait {pending = 1 : i64}
    lass_pipe.barrier
    scf.yield %168, %169, %170, %171, %172, %173, %174, %175, %176, %177, %178, %179, %180, %181, %182, %183, %196, %197, %198, %199, %192, %193, %194, %195, %188, %189, %190, %191, %184, %185, %186, %187 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
  }
  lass_pipe.wait {pending = 0 : i64}
  %200 = arith.constant 2 : i32
  %201 = arith.shrui %lane, %200 : i32
  %202 = arith.constant 3 : i32
  %203 = arith.andi %lane, %202 : i32
  %204 = arith.muli %203, %200 : i32
  %205 = arith.addi %m0, %warp_m0 : i32
  %206 = arith.addi %205, %201 : i32
  %207 = arith.addi %n0, %warp_n0 : i32
  %208 = arith.addi %207, %204 : i32
  %209 = arith.constant true
  %210 = arith.andi %N, %31 : i32
  %211 = arith.cmpi eq, %210, %9 : i32
  %212 = arith.cmpf one, %beta, %27 : f32
  %213 = arith.addi %m0, %13 : i32
  %214 = arith.cmpi ule, %213, %M : i32
  %215 = arith.addi %n0, %4 : i32
  %216 = arith.cmpi ule, %215, %N : i32
  %217 = arith.andi %214, %216 : i1
  %218 = arith.andi %217, %211 : i1
  scf.if %212 {
    scf.if %218 {
      %219 = arith.muli %206, %N : i32
      %220 = arith.addi %219, %208 : i32
      %221 = arith.mulf %alpha, %34 : f32
      %222 = arith.mulf %alpha, %35 : f32
      %223, %224 = lass_nv.ld_global %D[%220] x 2 if %209 : memref<?x?xf32>
      %225 = arith.mulf %beta, %223 : f32
      %226 = arith.addf %221, %225 : f32
      %227 = arith.mulf %beta, %224 : f32
      %228 = arith.addf %222, %227 : f32
      lass_nv.st_global %D[%220], %226, %228 if %209 : memref<?x?xf32>, f32, f32
      %229 = arith.addi %206, %17 : i32
      %230 = arith.muli %229, %N : i32
      %231 = arith.addi %230, %208 : i32
      %232 = arith.mulf %alpha, %36 : f32
      %233 = arith.mulf %alpha, %37 : f32
      %234, %235 = lass_nv.ld_global %D[%231] x 2 if %209 : memref<?x?xf32>
      %236 = arith.mulf %beta, %234 : f32
      %237 = arith.addf %232, %236 : f32
      %238 = arith.mulf %beta, %235 : f32
      %239 = arith.addf %233, %238 : f32
      lass_nv.st_global %D[%231], %237, %239 if %209 : memref<?x?xf32>, f32, f32
      %240 = arith.addi %208, %17 : i32
      %241 = arith.addi %219, %240 : i32
      %242 = arith.mulf %alpha, %38 : f32
      %243 = arith.mulf %alpha, %39 : f32
      %244, %245 = lass_nv.ld_global %D[%241] x 2 if %209 : memref<?x?xf32>
      %246 = arith.mulf %beta, %244 : f32
      %247 = arith.addf %242, %246 : f32
      %248 = arith.mulf %beta, %245 : f32
      %249 = arith.addf %243, %248 : f32
      lass_nv.st_global %D[%241], %247, %249 if %209 : memref<?x?xf32>, f32, f32
      %250 = arith.addi %230, %240 : i32
      %251 = arith.mulf %alpha, %40 : f32
      %252 = arith.mulf %alpha, %41 : f32
      %253, %254 = lass_nv.ld_global %D[%250] x 2 if %209 : memref<?x?xf32>
      %255 = arith.mulf %beta, %253 : f32
      %256 = arith.addf %251, %255 : f32
      %257 = arith.mulf %beta, %254 : f32
      %258 = arith.addf %252, %257 : f32
      lass_nv.st_global %D[%250], %256, %258 if %209 : memref<?x?xf32>, f32, f32
      %259 = arith.addi %208, %6 : i32
      %260 = arith.addi %219, %259 : i32
      %261 = arith.mulf %alpha, %42 : f32
      %262 = arith.mulf %alpha, %43 : f32
      %263, %264 = lass_nv.ld_global %D[%260] x 2 if %209 : memref<?x?xf32>
      %265 = arith.mulf %beta, %263 : f32
      %266 = arith.addf %261, %265 : f32
      %267 = arith.mulf %beta, %264 : f32
      %268 = arith.addf %262, %267 : f32
      lass_nv.st_global %D[%260], %266, %268 if %209 : memref<?x?xf32>, f32, f32
      %269 = arith.addi %230, %259 : i32
      %270 = arith.mulf %alpha, %44 : f32
      %271 = arith.mulf %alpha, %45 : f32
      %272, %273 = lass_nv.ld_global %D[%269] x 2 if %209 : memref<?x?xf32>
      %274 = arith.mulf %beta, %272 : f32
      %275 = arith.addf %270, %274 : f32
      %276 = arith.mulf %beta, %273 : f32
      %277 = arith.addf %271, %276 : f32
      lass_nv.st_global %D[%269], %275, %277 if %209 : memref<?x?xf32>, f32, f32
      %278 = arith.constant 24 : i32
      %279 = arith.addi %208, %278 : i32
      %280 = arith.addi %219, %279 : i32
      %281 = arith.mulf %alpha, %46 : f32
      %282 = arith.mulf %alpha, %47 : f32
      %283, %284 = lass_nv.ld_global %D[%280] x 2 if %209 : memref<?x?xf32>
      %285 = arith.mulf %beta, %283 : f32
      %286 = arith.addf %281, %285 : f32
      %287 = arith.mulf %beta, %284 : f32
      %288 = arith.addf %282, %287 : f32
      lass_nv.st_global %D[%280], %286, %288 if %209 : memref<?x?xf32>, f32, f32
      %289 = arith.addi %230, %279 : i32
      %290 = arith.mulf %alpha, %48 : f32
      %291 = arith.mulf %alpha, %49 : f32
      %292, %293 = lass_nv.ld_global %D[%289] x 2 if %209 : memref<?x?xf32>
      %294 = arith.mulf %beta, %292 : f32
      %295 = arith.addf %290, %294 : f32
      %296 = arith.mulf %beta, %293 : f32
      %297 = arith.addf %291, %296 : f32
      lass_nv.st_global %D[%289], %295, %297 if %209 : memref<?x?xf32>, f32, f32
      %298 = arith.addi %206, %6 : i32
      %299 = arith.muli %298, %N : i32
      %300 = arith.addi %299, %208 : i32
      %301 = arith.mulf %alpha, %50 : f32
      %302 = arith.mulf %alpha, %51 : f32
      %303, %304 = lass_nv.ld_global %D[%300] x 2 if %209 : memref<?x?xf32>
      %305 = arith.mulf %beta, %303 : f32
      %306 = arith.addf %301, %305 : f32
      %307 = arith.mulf %beta, %304 : f32
      %308 = arith.addf %302, %307 : f32
      lass_nv.st_global %D[%300], %306, %308 if %209 : memref<?x?xf32>, f32, f32
      %309 = arith.addi %206, %278 : i32
      %310 = arith.muli %309, %N : i32
      %311 = arith.addi %310, %208 : i32
      %312 = arith.mulf %alpha, %52 : f32
      %313 = arith.mulf %alpha, %53 : f32
      %314, %315 = lass_nv.ld_global %D[%311] x 2 if %209 : memref<?x?xf32>
      %316 = arith.mulf %beta, %314 : f32
      %317 = arith.addf %312, %316 : f32
      %318 = arith.mulf %beta, %315 : f32
      %319 = arith.addf %313, %318 : f32
      lass_nv.st_global %D[%311], %317, %319 if %209 : memref<?x?xf32>, f32, f32
      %320 = arith.addi %299, %240 : i32
      %321 = arith.mulf %alpha, %54 : f32
      %322 = arith.mulf %alpha, %55 : f32
      %323, %324 = lass_nv.ld_global %D[%320] x 2 if %209 : memref<?x?xf32>
      %325 = arith.mulf %beta, %323 : f32
      %326 = arith.addf %321, %325 : f32
      %327 = arith.mulf %beta, %324 : f32
      %328 = arith.addf %322, %327 : f32
      lass_nv.st_global %D[%320], %326, %328 if %209 : memref<?x?xf32>, f32, f32
      %329 = arith.addi %310, %240 : i32
      %330 = arith.mulf %alpha, %56 : f32
      %331 = arith.mulf %alpha, %57 : f32
      %332, %333 = lass_nv.ld_global %D[%329] x 2 if %209 : memref<?x?xf32>
      %334 = arith.mulf %beta, %332 : f32
      %335 = arith.addf %330, %334 : f32
      %336 = arith.mulf %beta, %333 : f32
      %337 = arith.addf %331, %336 : f32
      lass_nv.st_global %D[%329], %335, %337 if %209 : memref<?x?xf32>, f32, f32
      %338 = arith.addi %299, %259 : i32
      %339 = arith.mulf %alpha, %58 : f32
      %340 = arith.mulf %alpha, %59 : f32
      %341, %342 = lass_nv.ld_global %D[%338] x 2 if %209 : memref<?x?xf32>
      %343 = arith.mulf %beta, %341 : f32
      %344 = arith.addf %339, %343 : f32
      %345 = arith.mulf %beta, %342 : f32
      %346 = arith.addf %340, %345 : f32
      lass_nv.st_global %D[%338], %344, %346 if %209 : memref<?x?xf32>, f32, f32
      %347 = arith.addi %310, %259 : i32
      %348 = arith.mulf %alpha, %60 : f32
      %349 = arith.mulf %alpha, %61 : f32
      %350, %351 = lass_nv.ld_global %D[%347] x 2 if %209 : memref<?x?xf32>
      %352 = arith.mulf %beta, %350 : f32
      %353 = arith.addf %348, %352 : f32
      %354 = arith.mulf %beta, %351 : f32
      %355 = arith.addf %349, %354 : f32
      lass_nv.st_global %D[%347], %353, %355 if %209 : memref<?x?xf32>, f32, f32
      %356 = arith.addi %299, %279 : i32
      %357 = arith.mulf %alpha, %62 : f32
      %358 = arith.mulf %alpha, %63 : f32
      %359, %360 = lass_nv.ld_global %D[%356] x 2 if %209 : memref<?x?xf32>
      %361 = arith.mulf %beta, %359 : f32
      %362 = arith.addf %357, %361 : f32
      %363 = arith.mulf %beta, %360 : f32
      %364 = arith.addf %358, %363 : f32
      lass_nv.st_global %D[%356], %362, %364 if %209 : memref<?x?xf32>, f32, f32
      %365 = arith.addi %310, %279 : i32
      %366 = arith.mulf %alpha, %64 : f32
      %367 = arith.mulf %alpha, %65 : f32
      %368, %369 = lass_nv.ld_global %D[%365] x 2 if %209 : memref<?x?xf32>
      %370 = arith.mulf %beta, %368 : f32
      %371 = arith.addf %366, %370 : f32
      %372 = arith.mulf %beta, %369 : f32
      %373 = arith.addf %367, %372 : f32
      lass_nv.st_global %D[%365], %371, %373 if %209 : memref<?x?xf32>, f32, f32
    } else {
      %374 = arith.cmpi ult, %206, %M : i32
      %375 = arith.cmpi ult, %208, %N : i32
      %376 = arith.andi %374, %375 : i1
      %377 = arith.addi %208, %31 : i32
      %378 = arith.cmpi ult, %377, %N : i32
      %379 = arith.andi %374, %378 : i1
      %380 = arith.andi %379, %211 : i1
      %381 = arith.xori %380, %209 : i1
      %382 = arith.andi %376, %381 : i1
      %383 = arith.andi %379, %381 : i1
      %384 = arith.muli %206, %N : i32
      %385 = arith.addi %384, %208 : i32
      %386 = arith.addi %385, %31 : i32
      %387 = arith.mulf %alpha, %34 : f32
      %388 = arith.mulf %alpha, %35 : f32
      %389, %390 = lass_nv.ld_global %D[%385] x 2 if %380 : memref<?x?xf32>
      %391 = lass_nv.ld_global %D[%385] x 1 if %382 : memref<?x?xf32>
      %392 = lass_nv.ld_global %D[%386] x 1 if %383 : memref<?x?xf32>
      %393 = arith.select %380, %389, %391 : f32
      %394 = arith.select %380, %390, %392 : f32
      %395 = arith.mulf %beta, %393 : f32
      %396 = arith.addf %387, %395 : f32
      %397 = arith.mulf %beta, %394 : f32
      %398 = arith.addf %388, %397 : f32
      lass_nv.st_global %D[%385], %396, %398 if %380 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%385], %396 if %382 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%386], %398 if %383 : memref<?x?xf32>, f32
      %399 = arith.addi %206, %17 : i32
      %400 = arith.cmpi ult, %399, %M : i32
      %401 = arith.andi %400, %375 : i1
      %402 = arith.andi %400, %378 : i1
      %403 = arith.andi %402, %211 : i1
      %404 = arith.xori %403, %209 : i1
      %405 = arith.andi %401, %404 : i1
      %406 = arith.andi %402, %404 : i1
      %407 = arith.muli %399, %N : i32
      %408 = arith.addi %407, %208 : i32
      %409 = arith.addi %408, %31 : i32
      %410 = arith.mulf %alpha, %36 : f32
      %411 = arith.mulf %alpha, %37 : f32
      %412, %413 = lass_nv.ld_global %D[%408] x 2 if %403 : memref<?x?xf32>
      %414 = lass_nv.ld_global %D[%408] x 1 if %405 : memref<?x?xf32>
      %415 = lass_nv.ld_global %D[%409] x 1 if %406 : memref<?x?xf32>
      %416 = arith.select %403, %412, %414 : f32
      %417 = arith.select %403, %413, %415 : f32
      %418 = arith.mulf %beta, %416 : f32
      %419 = arith.addf %410, %418 : f32
      %420 = arith.mulf %beta, %417 : f32
      %421 = arith.addf %411, %420 : f32
      lass_nv.st_global %D[%408], %419, %421 if %403 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%408], %419 if %405 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%409], %421 if %406 : memref<?x?xf32>, f32
      %422 = arith.addi %208, %17 : i32
      %423 = arith.cmpi ult, %422, %N : i32
      %424 = arith.andi %374, %423 : i1
      %425 = arith.addi %422, %31 : i32
      %426 = arith.cmpi ult, %425, %N : i32
      %427 = arith.andi %374, %426 : i1
      %428 = arith.andi %427, %211 : i1
      %429 = arith.xori %428, %209 : i1
      %430 = arith.andi %424, %429 : i1
      %431 = arith.andi %427, %429 : i1
      %432 = arith.addi %384, %422 : i32
      %433 = arith.addi %432, %31 : i32
      %434 = arith.mulf %alpha, %38 : f32
      %435 = arith.mulf %alpha, %39 : f32
      %436, %437 = lass_nv.ld_global %D[%432] x 2 if %428 : memref<?x?xf32>
      %438 = lass_nv.ld_global %D[%432] x 1 if %430 : memref<?x?xf32>
      %439 = lass_nv.ld_global %D[%433] x 1 if %431 : memref<?x?xf32>
      %440 = arith.select %428, %436, %438 : f32
      %441 = arith.select %428, %437, %439 : f32
      %442 = arith.mulf %beta, %440 : f32
      %443 = arith.addf %434, %442 : f32
      %444 = arith.mulf %beta, %441 : f32
      %445 = arith.addf %435, %444 : f32
      lass_nv.st_global %D[%432], %443, %445 if %428 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%432], %443 if %430 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%433], %445 if %431 : memref<?x?xf32>, f32
      %446 = arith.andi %400, %423 : i1
      %447 = arith.andi %400, %426 : i1
      %448 = arith.andi %447, %211 : i1
      %449 = arith.xori %448, %209 : i1
      %450 = arith.andi %446, %449 : i1
      %451 = arith.andi %447, %449 : i1
      %452 = arith.addi %407, %422 : i32
      %453 = arith.addi %452, %31 : i32
      %454 = arith.mulf %alpha, %40 : f32
      %455 = arith.mulf %alpha, %41 : f32
      %456, %457 = lass_nv.ld_global %D[%452] x 2 if %448 : memref<?x?xf32>
      %458 = lass_nv.ld_global %D[%452] x 1 if %450 : memref<?x?xf32>
      %459 = lass_nv.ld_global %D[%453] x 1 if %451 : memref<?x?xf32>
      %460 = arith.select %448, %456, %458 : f32
      %461 = arith.select %448, %457, %459 : f32
      %462 = arith.mulf %beta, %460 : f32
      %463 = arith.addf %454, %462 : f32
      %464 = arith.mulf %beta, %461 : f32
      %465 = arith.addf %455, %464 : f32
      lass_nv.st_global %D[%452], %463, %465 if %448 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%452], %463 if %450 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%453], %465 if %451 : memref<?x?xf32>, f32
      %466 = arith.addi %208, %6 : i32
      %467 = arith.cmpi ult, %466, %N : i32
      %468 = arith.andi %374, %467 : i1
      %469 = arith.addi %466, %31 : i32
      %470 = arith.cmpi ult, %469, %N : i32
      %471 = arith.andi %374, %470 : i1
      %472 = arith.andi %471, %211 : i1
      %473 = arith.xori %472, %209 : i1
      %474 = arith.andi %468, %473 : i1
      %475 = arith.andi %471, %473 : i1
      %476 = arith.addi %384, %466 : i32
      %477 = arith.addi %476, %31 : i32
      %478 = arith.mulf %alpha, %42 : f32
      %479 = arith.mulf %alpha, %43 : f32
      %480, %481 = lass_nv.ld_global %D[%476] x 2 if %472 : memref<?x?xf32>
      %482 = lass_nv.ld_global %D[%476] x 1 if %474 : memref<?x?xf32>
      %483 = lass_nv.ld_global %D[%477] x 1 if %475 : memref<?x?xf32>
      %484 = arith.select %472, %480, %482 : f32
      %485 = arith.select %472, %481, %483 : f32
      %486 = arith.mulf %beta, %484 : f32
      %487 = arith.addf %478, %486 : f32
      %488 = arith.mulf %beta, %485 : f32
      %489 = arith.addf %479, %488 : f32
      lass_nv.st_global %D[%476], %487, %489 if %472 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%476], %487 if %474 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%477], %489 if %475 : memref<?x?xf32>, f32
      %490 = arith.andi %400, %467 : i1
      %491 = arith.andi %400, %470 : i1
      %492 = arith.andi %491, %211 : i1
      %493 = arith.xori %492, %209 : i1
      %494 = arith.andi %490, %493 : i1
      %495 = arith.andi %491, %493 : i1
      %496 = arith.addi %407, %466 : i32
      %497 = arith.addi %496, %31 : i32
      %498 = arith.mulf %alpha, %44 : f32
      %499 = arith.mulf %alpha, %45 : f32
      %500, %501 = lass_nv.ld_global %D[%496] x 2 if %492 : memref<?x?xf32>
      %502 = lass_nv.ld_global %D[%496] x 1 if %494 : memref<?x?xf32>
      %503 = lass_nv.ld_global %D[%497] x 1 if %495 : memref<?x?xf32>
      %504 = arith.select %492, %500, %502 : f32
      %505 = arith.select %492, %501, %503 : f32
      %506 = arith.mulf %beta, %504 : f32
      %507 = arith.addf %498, %506 : f32
      %508 = arith.mulf %beta, %505 : f32
      %509 = arith.addf %499, %508 : f32
      lass_nv.st_global %D[%496], %507, %509 if %492 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%496], %507 if %494 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%497], %509 if %495 : memref<?x?xf32>, f32
      %510 = arith.constant 24 : i32
      %511 = arith.addi %208, %510 : i32
      %512 = arith.cmpi ult, %511, %N : i32
      %513 = arith.andi %374, %512 : i1
      %514 = arith.addi %511, %31 : i32
      %515 = arith.cmpi ult, %514, %N : i32
      %516 = arith.andi %374, %515 : i1
      %517 = arith.andi %516, %211 : i1
      %518 = arith.xori %517, %209 : i1
      %519 = arith.andi %513, %518 : i1
      %520 = arith.andi %516, %518 : i1
      %521 = arith.addi %384, %511 : i32
      %522 = arith.addi %521, %31 : i32
      %523 = arith.mulf %alpha, %46 : f32
      %524 = arith.mulf %alpha, %47 : f32
      %525, %526 = lass_nv.ld_global %D[%521] x 2 if %517 : memref<?x?xf32>
      %527 = lass_nv.ld_global %D[%521] x 1 if %519 : memref<?x?xf32>
      %528 = lass_nv.ld_global %D[%522] x 1 if %520 : memref<?x?xf32>
      %529 = arith.select %517, %525, %527 : f32
      %530 = arith.select %517, %526, %528 : f32
      %531 = arith.mulf %beta, %529 : f32
      %532 = arith.addf %523, %531 : f32
      %533 = arith.mulf %beta, %530 : f32
      %534 = arith.addf %524, %533 : f32
      lass_nv.st_global %D[%521], %532, %534 if %517 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%521], %532 if %519 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%522], %534 if %520 : memref<?x?xf32>, f32
      %535 = arith.andi %400, %512 : i1
      %536 = arith.andi %400, %515 : i1
      %537 = arith.andi %536, %211 : i1
      %538 = arith.xori %537, %209 : i1
      %539 = arith.andi %535, %538 : i1
      %540 = arith.andi %536, %538 : i1
      %541 = arith.addi %407, %511 : i32
      %542 = arith.addi %541, %31 : i32
      %543 = arith.mulf %alpha, %48 : f32
      %544 = arith.mulf %alpha, %49 : f32
      %545, %546 = lass_nv.ld_global %D[%541] x 2 if %537 : memref<?x?xf32>
      %547 = lass_nv.ld_global %D[%541] x 1 if %539 : memref<?x?xf32>
      %548 = lass_nv.ld_global %D[%542] x 1 if %540 : memref<?x?xf32>
      %549 = arith.select %537, %545, %547 : f32
      %550 = arith.select %537, %546, %548 : f32
      %551 = arith.mulf %beta, %549 : f32
      %552 = arith.addf %543, %551 : f32
      %553 = arith.mulf %beta, %550 : f32
      %554 = arith.addf %544, %553 : f32
      lass_nv.st_global %D[%541], %552, %554 if %537 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%541], %552 if %539 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%542], %554 if %540 : memref<?x?xf32>, f32
      %555 = arith.addi %206, %6 : i32
      %556 = arith.cmpi ult, %555, %M : i32
      %557 = arith.andi %556, %375 : i1
      %558 = arith.andi %556, %378 : i1
      %559 = arith.andi %558, %211 : i1
      %560 = arith.xori %559, %209 : i1
      %561 = arith.andi %557, %560 : i1
      %562 = arith.andi %558, %560 : i1
      %563 = arith.muli %555, %N : i32
      %564 = arith.addi %563, %208 : i32
      %565 = arith.addi %564, %31 : i32
      %566 = arith.mulf %alpha, %50 : f32
      %567 = arith.mulf %alpha, %51 : f32
      %568, %569 = lass_nv.ld_global %D[%564] x 2 if %559 : memref<?x?xf32>
      %570 = lass_nv.ld_global %D[%564] x 1 if %561 : memref<?x?xf32>
      %571 = lass_nv.ld_global %D[%565] x 1 if %562 : memref<?x?xf32>
      %572 = arith.select %559, %568, %570 : f32
      %573 = arith.select %559, %569, %571 : f32
      %574 = arith.mulf %beta, %572 : f32
      %575 = arith.addf %566, %574 : f32
      %576 = arith.mulf %beta, %573 : f32
      %577 = arith.addf %567, %576 : f32
      lass_nv.st_global %D[%564], %575, %577 if %559 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%564], %575 if %561 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%565], %577 if %562 : memref<?x?xf32>, f32
      %578 = arith.addi %206, %510 : i32
      %579 = arith.cmpi ult, %578, %M : i32
      %580 = arith.andi %579, %375 : i1
      %581 = arith.andi %579, %378 : i1
      %582 = arith.andi %581, %211 : i1
      %583 = arith.xori %582, %209 : i1
      %584 = arith.andi %580, %583 : i1
      %585 = arith.andi %581, %583 : i1
      %586 = arith.muli %578, %N : i32
      %587 = arith.addi %586, %208 : i32
      %588 = arith.addi %587, %31 : i32
      %589 = arith.mulf %alpha, %52 : f32
      %590 = arith.mulf %alpha, %53 : f32
      %591, %592 = lass_nv.ld_global %D[%587] x 2 if %582 : memref<?x?xf32>
      %593 = lass_nv.ld_global %D[%587] x 1 if %584 : memref<?x?xf32>
      %594 = lass_nv.ld_global %D[%588] x 1 if %585 : memref<?x?xf32>
      %595 = arith.select %582, %591, %593 : f32
      %596 = arith.select %582, %592, %594 : f32
      %597 = arith.mulf %beta, %595 : f32
      %598 = arith.addf %589, %597 : f32
      %599 = arith.mulf %beta, %596 : f32
      %600 = arith.addf %590, %599 : f32
      lass_nv.st_global %D[%587], %598, %600 if %582 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%587], %598 if %584 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%588], %600 if %585 : memref<?x?xf32>, f32
      %601 = arith.andi %556, %423 : i1
      %602 = arith.andi %556, %426 : i1
      %603 = arith.andi %602, %211 : i1
      %604 = arith.xori %603, %209 : i1
      %605 = arith.andi %601, %604 : i1
      %606 = arith.andi %602, %604 : i1
      %607 = arith.addi %563, %422 : i32
      %608 = arith.addi %607, %31 : i32
      %609 = arith.mulf %alpha, %54 : f32
      %610 = arith.mulf %alpha, %55 : f32
      %611, %612 = lass_nv.ld_global %D[%607] x 2 if %603 : memref<?x?xf32>
      %613 = lass_nv.ld_global %D[%607] x 1 if %605 : memref<?x?xf32>
      %614 = lass_nv.ld_global %D[%608] x 1 if %606 : memref<?x?xf32>
      %615 = arith.select %603, %611, %613 : f32
      %616 = arith.select %603, %612, %614 : f32
      %617 = arith.mulf %beta, %615 : f32
      %618 = arith.addf %609, %617 : f32
      %619 = arith.mulf %beta, %616 : f32
      %620 = arith.addf %610, %619 : f32
      lass_nv.st_global %D[%607], %618, %620 if %603 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%607], %618 if %605 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%608], %620 if %606 : memref<?x?xf32>, f32
      %621 = arith.andi %579, %423 : i1
      %622 = arith.andi %579, %426 : i1
      %623 = arith.andi %622, %211 : i1
      %624 = arith.xori %623, %209 : i1
      %625 = arith.andi %621, %624 : i1
      %626 = arith.andi %622, %624 : i1
      %627 = arith.addi %586, %422 : i32
      %628 = arith.addi %627, %31 : i32
      %629 = arith.mulf %alpha, %56 : f32
      %630 = arith.mulf %alpha, %57 : f32
      %631, %632 = lass_nv.ld_global %D[%627] x 2 if %623 : memref<?x?xf32>
      %633 = lass_nv.ld_global %D[%627] x 1 if %625 : memref<?x?xf32>
      %634 = lass_nv.ld_global %D[%628] x 1 if %626 : memref<?x?xf32>
      %635 = arith.select %623, %631, %633 : f32
      %636 = arith.select %623, %632, %634 : f32
      %637 = arith.mulf %beta, %635 : f32
      %638 = arith.addf %629, %637 : f32
      %639 = arith.mulf %beta, %636 : f32
      %640 = arith.addf %630, %639 : f32
      lass_nv.st_global %D[%627], %638, %640 if %623 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%627], %638 if %625 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%628], %640 if %626 : memref<?x?xf32>, f32
      %641 = arith.andi %556, %467 : i1
      %642 = arith.andi %556, %470 : i1
      %643 = arith.andi %642, %211 : i1
      %644 = arith.xori %643, %209 : i1
      %645 = arith.andi %641, %644 : i1
      %646 = arith.andi %642, %644 : i1
      %647 = arith.addi %563, %466 : i32
      %648 = arith.addi %647, %31 : i32
      %649 = arith.mulf %alpha, %58 : f32
      %650 = arith.mulf %alpha, %59 : f32
      %651, %652 = lass_nv.ld_global %D[%647] x 2 if %643 : memref<?x?xf32>
      %653 = lass_nv.ld_global %D[%647] x 1 if %645 : memref<?x?xf32>
      %654 = lass_nv.ld_global %D[%648] x 1 if %646 : memref<?x?xf32>
      %655 = arith.select %643, %651, %653 : f32
      %656 = arith.select %643, %652, %654 : f32
      %657 = arith.mulf %beta, %655 : f32
      %658 = arith.addf %649, %657 : f32
      %659 = arith.mulf %beta, %656 : f32
      %660 = arith.addf %650, %659 : f32
      lass_nv.st_global %D[%647], %658, %660 if %643 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%647], %658 if %645 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%648], %660 if %646 : memref<?x?xf32>, f32
      %661 = arith.andi %579, %467 : i1
      %662 = arith.andi %579, %470 : i1
      %663 = arith.andi %662, %211 : i1
      %664 = arith.xori %663, %209 : i1
      %665 = arith.andi %661, %664 : i1
      %666 = arith.andi %662, %664 : i1
      %667 = arith.addi %586, %466 : i32
      %668 = arith.addi %667, %31 : i32
      %669 = arith.mulf %alpha, %60 : f32
      %670 = arith.mulf %alpha, %61 : f32
      %671, %672 = lass_nv.ld_global %D[%667] x 2 if %663 : memref<?x?xf32>
      %673 = lass_nv.ld_global %D[%667] x 1 if %665 : memref<?x?xf32>
      %674 = lass_nv.ld_global %D[%668] x 1 if %666 : memref<?x?xf32>
      %675 = arith.select %663, %671, %673 : f32
      %676 = arith.select %663, %672, %674 : f32
      %677 = arith.mulf %beta, %675 : f32
      %678 = arith.addf %669, %677 : f32
      %679 = arith.mulf %beta, %676 : f32
      %680 = arith.addf %670, %679 : f32
      lass_nv.st_global %D[%667], %678, %680 if %663 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%667], %678 if %665 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%668], %680 if %666 : memref<?x?xf32>, f32
      %681 = arith.andi %556, %512 : i1
      %682 = arith.andi %556, %515 : i1
      %683 = arith.andi %682, %211 : i1
      %684 = arith.xori %683, %209 : i1
      %685 = arith.andi %681, %684 : i1
      %686 = arith.andi %682, %684 : i1
      %687 = arith.addi %563, %511 : i32
      %688 = arith.addi %687, %31 : i32
      %689 = arith.mulf %alpha, %62 : f32
      %690 = arith.mulf %alpha, %63 : f32
      %691, %692 = lass_nv.ld_global %D[%687] x 2 if %683 : memref<?x?xf32>
      %693 = lass_nv.ld_global %D[%687] x 1 if %685 : memref<?x?xf32>
      %694 = lass_nv.ld_global %D[%688] x 1 if %686 : memref<?x?xf32>
      %695 = arith.select %683, %691, %693 : f32
      %696 = arith.select %683, %692, %694 : f32
      %697 = arith.mulf %beta, %695 : f32
      %698 = arith.addf %689, %697 : f32
      %699 = arith.mulf %beta, %696 : f32
      %700 = arith.addf %690, %699 : f32
      lass_nv.st_global %D[%687], %698, %700 if %683 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%687], %698 if %685 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%688], %700 if %686 : memref<?x?xf32>, f32
      %701 = arith.andi %579, %512 : i1
      %702 = arith.andi %579, %515 : i1
      %703 = arith.andi %702, %211 : i1
      %704 = arith.xori %703, %209 : i1
      %705 = arith.andi %701, %704 : i1
      %706 = arith.andi %702, %704 : i1
      %707 = arith.addi %586, %511 : i32
      %708 = arith.addi %707, %31 : i32
      %709 = arith.mulf %alpha, %64 : f32
      %710 = arith.mulf %alpha, %65 : f32
      %711, %712 = lass_nv.ld_global %D[%707] x 2 if %703 : memref<?x?xf32>
      %713 = lass_nv.ld_global %D[%707] x 1 if %705 : memref<?x?xf32>
      %714 = lass_nv.ld_global %D[%708] x 1 if %706 : memref<?x?xf32>
      %715 = arith.select %703, %711, %713 : f32
      %716 = arith.select %703, %712, %714 : f32
      %717 = arith.mulf %beta, %715 : f32
      %718 = arith.addf %709, %717 : f32
      %719 = arith.mulf %beta, %716 : f32
      %720 = arith.addf %710, %719 : f32
      lass_nv.st_global %D[%707], %718, %720 if %703 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%707], %718 if %705 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%708], %720 if %706 : memref<?x?xf32>, f32
    }
  } else {
    scf.if %218 {
      %721 = arith.muli %206, %N : i32
      %722 = arith.addi %721, %208 : i32
      %723 = arith.mulf %alpha, %34 : f32
      %724 = arith.mulf %alpha, %35 : f32
      lass_nv.st_global %D[%722], %723, %724 if %209 : memref<?x?xf32>, f32, f32
      %725 = arith.addi %206, %17 : i32
      %726 = arith.muli %725, %N : i32
      %727 = arith.addi %726, %208 : i32
      %728 = arith.mulf %alpha, %36 : f32
      %729 = arith.mulf %alpha, %37 : f32
      lass_nv.st_global %D[%727], %728, %729 if %209 : memref<?x?xf32>, f32, f32
      %730 = arith.addi %208, %17 : i32
      %731 = arith.addi %721, %730 : i32
      %732 = arith.mulf %alpha, %38 : f32
      %733 = arith.mulf %alpha, %39 : f32
      lass_nv.st_global %D[%731], %732, %733 if %209 : memref<?x?xf32>, f32, f32
      %734 = arith.addi %726, %730 : i32
      %735 = arith.mulf %alpha, %40 : f32
      %736 = arith.mulf %alpha, %41 : f32
      lass_nv.st_global %D[%734], %735, %736 if %209 : memref<?x?xf32>, f32, f32
      %737 = arith.addi %208, %6 : i32
      %738 = arith.addi %721, %737 : i32
      %739 = arith.mulf %alpha, %42 : f32
      %740 = arith.mulf %alpha, %43 : f32
      lass_nv.st_global %D[%738], %739, %740 if %209 : memref<?x?xf32>, f32, f32
      %741 = arith.addi %726, %737 : i32
      %742 = arith.mulf %alpha, %44 : f32
      %743 = arith.mulf %alpha, %45 : f32
      lass_nv.st_global %D[%741], %742, %743 if %209 : memref<?x?xf32>, f32, f32
      %744 = arith.constant 24 : i32
      %745 = arith.addi %208, %744 : i32
      %746 = arith.addi %721, %745 : i32
      %747 = arith.mulf %alpha, %46 : f32
      %748 = arith.mulf %alpha, %47 : f32
      lass_nv.st_global %D[%746], %747, %748 if %209 : memref<?x?xf32>, f32, f32
      %749 = arith.addi %726, %745 : i32
      %750 = arith.mulf %alpha, %48 : f32
      %751 = arith.mulf %alpha, %49 : f32
      lass_nv.st_global %D[%749], %750, %751 if %209 : memref<?x?xf32>, f32, f32
      %752 = arith.addi %206, %6 : i32
      %753 = arith.muli %752, %N : i32
      %754 = arith.addi %753, %208 : i32
      %755 = arith.mulf %alpha, %50 : f32
      %756 = arith.mulf %alpha, %51 : f32
      lass_nv.st_global %D[%754], %755, %756 if %209 : memref<?x?xf32>, f32, f32
      %757 = arith.addi %206, %744 : i32
      %758 = arith.muli %757, %N : i32
      %759 = arith.addi %758, %208 : i32
      %760 = arith.mulf %alpha, %52 : f32
      %761 = arith.mulf %alpha, %53 : f32
      lass_nv.st_global %D[%759], %760, %761 if %209 : memref<?x?xf32>, f32, f32
      %762 = arith.addi %753, %730 : i32
      %763 = arith.mulf %alpha, %54 : f32
      %764 = arith.mulf %alpha, %55 : f32
      lass_nv.st_global %D[%762], %763, %764 if %209 : memref<?x?xf32>, f32, f32
      %765 = arith.addi %758, %730 : i32
      %766 = arith.mulf %alpha, %56 : f32
      %767 = arith.mulf %alpha, %57 : f32
      lass_nv.st_global %D[%765], %766, %767 if %209 : memref<?x?xf32>, f32, f32
      %768 = arith.addi %753, %737 : i32
      %769 = arith.mulf %alpha, %58 : f32
      %770 = arith.mulf %alpha, %59 : f32
      lass_nv.st_global %D[%768], %769, %770 if %209 : memref<?x?xf32>, f32, f32
      %771 = arith.addi %758, %737 : i32
      %772 = arith.mulf %alpha, %60 : f32
      %773 = arith.mulf %alpha, %61 : f32
      lass_nv.st_global %D[%771], %772, %773 if %209 : memref<?x?xf32>, f32, f32
      %774 = arith.addi %753, %745 : i32
      %775 = arith.mulf %alpha, %62 : f32
      %776 = arith.mulf %alpha, %63 : f32
      lass_nv.st_global %D[%774], %775, %776 if %209 : memref<?x?xf32>, f32, f32
      %777 = arith.addi %758, %745 : i32
      %778 = arith.mulf %alpha, %64 : f32
      %779 = arith.mulf %alpha, %65 : f32
      lass_nv.st_global %D[%777], %778, %779 if %209 : memref<?x?xf32>, f32, f32
    } else {
      %780 = arith.cmpi ult, %206, %M : i32
      %781 = arith.cmpi ult, %208, %N : i32
      %782 = arith.andi %780, %781 : i1
      %783 = arith.addi %208, %31 : i32
      %784 = arith.cmpi ult, %783, %N : i32
      %785 = arith.andi %780, %784 : i1
      %786 = arith.andi %785, %211 : i1
      %787 = arith.xori %786, %209 : i1
      %788 = arith.andi %782, %787 : i1
      %789 = arith.andi %785, %787 : i1
      %790 = arith.muli %206, %N : i32
      %791 = arith.addi %790, %208 : i32
      %792 = arith.addi %791, %31 : i32
      %793 = arith.mulf %alpha, %34 : f32
      %794 = arith.mulf %alpha, %35 : f32
      lass_nv.st_global %D[%791], %793, %794 if %786 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%791], %793 if %788 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%792], %794 if %789 : memref<?x?xf32>, f32
      %795 = arith.addi %206, %17 : i32
      %796 = arith.cmpi ult, %795, %M : i32
      %797 = arith.andi %796, %781 : i1
      %798 = arith.andi %796, %784 : i1
      %799 = arith.andi %798, %211 : i1
      %800 = arith.xori %799, %209 : i1
      %801 = arith.andi %797, %800 : i1
      %802 = arith.andi %798, %800 : i1
      %803 = arith.muli %795, %N : i32
      %804 = arith.addi %803, %208 : i32
      %805 = arith.addi %804, %31 : i32
      %806 = arith.mulf %alpha, %36 : f32
      %807 = arith.mulf %alpha, %37 : f32
      lass_nv.st_global %D[%804], %806, %807 if %799 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%804], %806 if %801 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%805], %807 if %802 : memref<?x?xf32>, f32
      %808 = arith.addi %208, %17 : i32
      %809 = arith.cmpi ult, %808, %N : i32
      %810 = arith.andi %780, %809 : i1
      %811 = arith.addi %808, %31 : i32
      %812 = arith.cmpi ult, %811, %N : i32
      %813 = arith.andi %780, %812 : i1
      %814 = arith.andi %813, %211 : i1
      %815 = arith.xori %814, %209 : i1
      %816 = arith.andi %810, %815 : i1
      %817 = arith.andi %813, %815 : i1
      %818 = arith.addi %790, %808 : i32
      %819 = arith.addi %818, %31 : i32
      %820 = arith.mulf %alpha, %38 : f32
      %821 = arith.mulf %alpha, %39 : f32
      lass_nv.st_global %D[%818], %820, %821 if %814 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%818], %820 if %816 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%819], %821 if %817 : memref<?x?xf32>, f32
      %822 = arith.andi %796, %809 : i1
      %823 = arith.andi %796, %812 : i1
      %824 = arith.andi %823, %211 : i1
      %825 = arith.xori %824, %209 : i1
      %826 = arith.andi %822, %825 : i1
      %827 = arith.andi %823, %825 : i1
      %828 = arith.addi %803, %808 : i32
      %829 = arith.addi %828, %31 : i32
      %830 = arith.mulf %alpha, %40 : f32
      %831 = arith.mulf %alpha, %41 : f32
      lass_nv.st_global %D[%828], %830, %831 if %824 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%828], %830 if %826 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%829], %831 if %827 : memref<?x?xf32>, f32
      %832 = arith.addi %208, %6 : i32
      %833 = arith.cmpi ult, %832, %N : i32
      %834 = arith.andi %780, %833 : i1
      %835 = arith.addi %832, %31 : i32
      %836 = arith.cmpi ult, %835, %N : i32
      %837 = arith.andi %780, %836 : i1
      %838 = arith.andi %837, %211 : i1
      %839 = arith.xori %838, %209 : i1
      %840 = arith.andi %834, %839 : i1
      %841 = arith.andi %837, %839 : i1
      %842 = arith.addi %790, %832 : i32
      %843 = arith.addi %842, %31 : i32
      %844 = arith.mulf %alpha, %42 : f32
      %845 = arith.mulf %alpha, %43 : f32
      lass_nv.st_global %D[%842], %844, %845 if %838 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%842], %844 if %840 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%843], %845 if %841 : memref<?x?xf32>, f32
      %846 = arith.andi %796, %833 : i1
      %847 = arith.andi %796, %836 : i1
      %848 = arith.andi %847, %211 : i1
      %849 = arith.xori %848, %209 : i1
      %850 = arith.andi %846, %849 : i1
      %851 = arith.andi %847, %849 : i1
      %852 = arith.addi %803, %832 : i32
      %853 = arith.addi %852, %31 : i32
      %854 = arith.mulf %alpha, %44 : f32
      %855 = arith.mulf %alpha, %45 : f32
      lass_nv.st_global %D[%852], %854, %855 if %848 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%852], %854 if %850 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%853], %855 if %851 : memref<?x?xf32>, f32
      %856 = arith.constant 24 : i32
      %857 = arith.addi %208, %856 : i32
      %858 = arith.cmpi ult, %857, %N : i32
      %859 = arith.andi %780, %858 : i1
      %860 = arith.addi %857, %31 : i32
      %861 = arith.cmpi ult, %860, %N : i32
      %862 = arith.andi %780, %861 : i1
      %863 = arith.andi %862, %211 : i1
      %864 = arith.xori %863, %209 : i1
      %865 = arith.andi %859, %864 : i1
      %866 = arith.andi %862, %864 : i1
      %867 = arith.addi %790, %857 : i32
      %868 = arith.addi %867, %31 : i32
      %869 = arith.mulf %alpha, %46 : f32
      %870 = arith.mulf %alpha, %47 : f32
      lass_nv.st_global %D[%867], %869, %870 if %863 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%867], %869 if %865 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%868], %870 if %866 : memref<?x?xf32>, f32
      %871 = arith.andi %796, %858 : i1
      %872 = arith.andi %796, %861 : i1
      %873 = arith.andi %872, %211 : i1
      %874 = arith.xori %873, %209 : i1
      %875 = arith.andi %871, %874 : i1
      %876 = arith.andi %872, %874 : i1
      %877 = arith.addi %803, %857 : i32
      %878 = arith.addi %877, %31 : i32
      %879 = arith.mulf %alpha, %48 : f32
      %880 = arith.mulf %alpha, %49 : f32
      lass_nv.st_global %D[%877], %879, %880 if %873 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%877], %879 if %875 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%878], %880 if %876 : memref<?x?xf32>, f32
      %881 = arith.addi %206, %6 : i32
      %882 = arith.cmpi ult, %881, %M : i32
      %883 = arith.andi %882, %781 : i1
      %884 = arith.andi %882, %784 : i1
      %885 = arith.andi %884, %211 : i1
      %886 = arith.xori %885, %209 : i1
      %887 = arith.andi %883, %886 : i1
      %888 = arith.andi %884, %886 : i1
      %889 = arith.muli %881, %N : i32
      %890 = arith.addi %889, %208 : i32
      %891 = arith.addi %890, %31 : i32
      %892 = arith.mulf %alpha, %50 : f32
      %893 = arith.mulf %alpha, %51 : f32
      lass_nv.st_global %D[%890], %892, %893 if %885 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%890], %892 if %887 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%891], %893 if %888 : memref<?x?xf32>, f32
      %894 = arith.addi %206, %856 : i32
      %895 = arith.cmpi ult, %894, %M : i32
      %896 = arith.andi %895, %781 : i1
      %897 = arith.andi %895, %784 : i1
      %898 = arith.andi %897, %211 : i1
      %899 = arith.xori %898, %209 : i1
      %900 = arith.andi %896, %899 : i1
      %901 = arith.andi %897, %899 : i1
      %902 = arith.muli %894, %N : i32
      %903 = arith.addi %902, %208 : i32
      %904 = arith.addi %903, %31 : i32
      %905 = arith.mulf %alpha, %52 : f32
      %906 = arith.mulf %alpha, %53 : f32
      lass_nv.st_global %D[%903], %905, %906 if %898 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%903], %905 if %900 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%904], %906 if %901 : memref<?x?xf32>, f32
      %907 = arith.andi %882, %809 : i1
      %908 = arith.andi %882, %812 : i1
      %909 = arith.andi %908, %211 : i1
      %910 = arith.xori %909, %209 : i1
      %911 = arith.andi %907, %910 : i1
      %912 = arith.andi %908, %910 : i1
      %913 = arith.addi %889, %808 : i32
      %914 = arith.addi %913, %31 : i32
      %915 = arith.mulf %alpha, %54 : f32
      %916 = arith.mulf %alpha, %55 : f32
      lass_nv.st_global %D[%913], %915, %916 if %909 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%913], %915 if %911 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%914], %916 if %912 : memref<?x?xf32>, f32
      %917 = arith.andi %895, %809 : i1
      %918 = arith.andi %895, %812 : i1
      %919 = arith.andi %918, %211 : i1
      %920 = arith.xori %919, %209 : i1
      %921 = arith.andi %917, %920 : i1
      %922 = arith.andi %918, %920 : i1
      %923 = arith.addi %902, %808 : i32
      %924 = arith.addi %923, %31 : i32
      %925 = arith.mulf %alpha, %56 : f32
      %926 = arith.mulf %alpha, %57 : f32
      lass_nv.st_global %D[%923], %925, %926 if %919 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%923], %925 if %921 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%924], %926 if %922 : memref<?x?xf32>, f32
      %927 = arith.andi %882, %833 : i1
      %928 = arith.andi %882, %836 : i1
      %929 = arith.andi %928, %211 : i1
      %930 = arith.xori %929, %209 : i1
      %931 = arith.andi %927, %930 : i1
      %932 = arith.andi %928, %930 : i1
      %933 = arith.addi %889, %832 : i32
      %934 = arith.addi %933, %31 : i32
      %935 = arith.mulf %alpha, %58 : f32
      %936 = arith.mulf %alpha, %59 : f32
      lass_nv.st_global %D[%933], %935, %936 if %929 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%933], %935 if %931 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%934], %936 if %932 : memref<?x?xf32>, f32
      %937 = arith.andi %895, %833 : i1
      %938 = arith.andi %895, %836 : i1
      %939 = arith.andi %938, %211 : i1
      %940 = arith.xori %939, %209 : i1
      %941 = arith.andi %937, %940 : i1
      %942 = arith.andi %938, %940 : i1
      %943 = arith.addi %902, %832 : i32
      %944 = arith.addi %943, %31 : i32
      %945 = arith.mulf %alpha, %60 : f32
      %946 = arith.mulf %alpha, %61 : f32
      lass_nv.st_global %D[%943], %945, %946 if %939 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%943], %945 if %941 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%944], %946 if %942 : memref<?x?xf32>, f32
      %947 = arith.andi %882, %858 : i1
      %948 = arith.andi %882, %861 : i1
      %949 = arith.andi %948, %211 : i1
      %950 = arith.xori %949, %209 : i1
      %951 = arith.andi %947, %950 : i1
      %952 = arith.andi %948, %950 : i1
      %953 = arith.addi %889, %857 : i32
      %954 = arith.addi %953, %31 : i32
      %955 = arith.mulf %alpha, %62 : f32
      %956 = arith.mulf %alpha, %63 : f32
      lass_nv.st_global %D[%953], %955, %956 if %949 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%953], %955 if %951 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%954], %956 if %952 : memref<?x?xf32>, f32
      %957 = arith.andi %895, %858 : i1
      %958 = arith.andi %895, %861 : i1
      %959 = arith.andi %958, %211 : i1
      %960 = arith.xori %959, %209 : i1
      %961 = arith.andi %957, %960 : i1
      %962 = arith.andi %958, %960 : i1
      %963 = arith.addi %902, %857 : i32
      %964 = arith.addi %963, %31 : i32
      %965 = arith.mulf %alpha, %64 : f32
      %966 = arith.mulf %alpha, %65 : f32
      lass_nv.st_global %D[%963], %965, %966 if %959 : memref<?x?xf32>, f32, f32
      lass_nv.st_global %D[%963], %965 if %961 : memref<?x?xf32>, f32
      lass_nv.st_global %D[%964], %966 if %962 : memref<?x?xf32>, f32
    }
  }
  func.return
}
