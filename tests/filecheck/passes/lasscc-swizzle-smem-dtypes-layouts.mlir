// lasscc-swizzle-smem (passes/swizzle_smem.py), fragments of MN-major tf32 and s8 tiles, which
// ldmatrix .trans (16-bit elements) cannot transpose; lasscc-warp-mma marks them `interleaved`
// (fragment row g + 8h = tile row 2g + h, lasscc.layout.frag_interleave).
// - int8 NT (A column-major, B row-major; 32x32x64 tiles, 16x16 warps): one ldmatrix.x4.trans per
//   fragment at the k-lines of lasscc.layout.s8_mn_trans_lane_src, 16 (lane >> 4) +
//   4 ((lane >> 1) & 3) + (lane & 1) + 2 (((lane >> 3) & 1) ^ ((lane >> 2) & 1)), then prmt per
//   matrix pair with the lane's selectors (0x6420 / 0x7531, XOR 0x4444 for lanes with lane % 4 >= 2):
//   A registers (lo, hi) of pair 0, then of pair 1; B (lo0, lo1) for block 0, (hi0, hi1) block 1.
//   Tiles stay under Swizzle<3,4,3>.
// - tf32 TT (A row-major: K-major, plain ldmatrix; B row-major: MN-major): two ld.shared.v2 per B
//   fragment at n = 2 (lane >> 2), k = (lane & 3) and + 4 (lasscc.layout.tf32_mn_lane_src); the
//   MN-major f32 tile (copies and loads) under Swizzle<2,5,2> (lasscc.layout.MN_SWIZZLE).
//
// RUN: %lasscc opt -p lasscc-swizzle-smem %s | filecheck %s
// RUN: xdsl-opt -p lasscc-swizzle-smem %s | xdsl-opt -p cse,dce | filecheck %s
// Rejected: `interleaved` on a 16-bit ring
// RUN: not %lasscc opt -p lasscc-swizzle-smem %S/Inputs/lasscc-swizzle-smem-interleaved-f16.mlir.in 2>&1 | filecheck %s --check-prefix=ERR
// ERR: {{^.*}}Inputs/lasscc-swizzle-smem-interleaved-f16.mlir.in:8:3: error: expected `interleaved` fragment loads exactly on MN-major rings of 32- or 8-bit elements (ldmatrix .trans moves 16-bit ones; lasscc-warp-mma marks them), got lass_warp.load_frag_a interleaved on !lass_pipe.ring<3x64x32xf16, mn>{{$}}

// CHECK-LABEL: func.func @gemm_i8_nt(
// CHECK:         %ldst_s8_k = arith.addi
// CHECK:         [[SWAPC:%[0-9]+]] = arith.constant 17476 : i32
// CHECK-NEXT:    [[SWAP:%[0-9]+]] = arith.muli %{{[0-9]+}}, [[SWAPC]] : i32
// CHECK-NEXT:    [[LO:%[0-9]+]] = arith.constant 25632 : i32
// CHECK-NEXT:    %prmt_lo = arith.xori [[SWAP]], [[LO]] : i32
// CHECK-NEXT:    [[HI:%[0-9]+]] = arith.constant 30001 : i32
// CHECK-NEXT:    %prmt_hi = arith.xori [[SWAP]], [[HI]] : i32
// CHECK:         %slot = arith.remui %kt
// CHECK-NEXT:    arith.addi %{{[0-9]+}}, %ldst_s8_k : i32
// CHECK:         lass_smem.swizzle %{{[0-9]+}} {bits = 3 : i64, base = 4 : i64, shift = 3 : i64}
// CHECK:         [[R0:%[0-9]+]], [[R1:%[0-9]+]], [[R2:%[0-9]+]], [[R3:%[0-9]+]] = lass_nv.ldmatrix_x4 %{{[0-9]+}} trans
// CHECK-NEXT:    [[A0:%[0-9]+]] = lass_nv.prmt [[R0]], [[R1]], %prmt_lo
// CHECK-NEXT:    [[A1:%[0-9]+]] = lass_nv.prmt [[R0]], [[R1]], %prmt_hi
// CHECK-NEXT:    [[A2:%[0-9]+]] = lass_nv.prmt [[R2]], [[R3]], %prmt_lo
// CHECK-NEXT:    [[A3:%[0-9]+]] = lass_nv.prmt [[R2]], [[R3]], %prmt_hi
// CHECK:         [[S0:%[0-9]+]], [[S1:%[0-9]+]], [[S2:%[0-9]+]], [[S3:%[0-9]+]] = lass_nv.ldmatrix_x4 %{{[0-9]+}} trans
// CHECK-NEXT:    [[B0:%[0-9]+]] = lass_nv.prmt [[S0]], [[S1]], %prmt_lo
// CHECK-NEXT:    [[B2:%[0-9]+]] = lass_nv.prmt [[S0]], [[S1]], %prmt_hi
// CHECK-NEXT:    [[B1:%[0-9]+]] = lass_nv.prmt [[S2]], [[S3]], %prmt_lo
// CHECK-NEXT:    [[B3:%[0-9]+]] = lass_nv.prmt [[S2]], [[S3]], %prmt_hi
// CHECK:         lass_nv.mma_sync a([[A0]], [[A1]], [[A2]], [[A3]]) b([[B0]], [[B1]]) c(
// CHECK-NEXT:    lass_nv.mma_sync a([[A0]], [[A1]], [[A2]], [[A3]]) b([[B2]], [[B3]]) c(
// CHECK-NOT:     lass_warp.

// CHECK-LABEL: func.func @gemm_tf32_tt(
// CHECK:         %lds_tf32_row = arith.muli
// CHECK-NEXT:    %lds_tf32_k = arith.andi %lane
// CHECK:         lass_smem.swizzle %{{[0-9]+}} {bits = 2 : i64, base = 5 : i64, shift = 2 : i64}
// CHECK:         lass_nv.cp_async %B
// CHECK:         %slot = arith.remui %kt
// CHECK:         lass_nv.ldmatrix_x4 %{{[0-9]+}}{{$}}
// CHECK:         [[N:%[0-9]+]] = arith.addi %warp_n0, %lds_tf32_row : i32
// CHECK-NEXT:    [[K:%[0-9]+]] = arith.addi %{{[0-9]+}}, %lds_tf32_k : i32
// CHECK:         lass_smem.swizzle %{{[0-9]+}} {bits = 2 : i64, base = 5 : i64, shift = 2 : i64}
// CHECK:         [[X0:%[0-9]+]], [[X1:%[0-9]+]] = lass_nv.ld_shared %{{[0-9]+}} x 2
// CHECK-NEXT:    arith.addi [[K]], %{{[0-9]+}} : i32
// CHECK:         [[Y0:%[0-9]+]], [[Y1:%[0-9]+]] = lass_nv.ld_shared %{{[0-9]+}} x 2
// CHECK-NEXT:    [[B0:%[0-9]+]] = lass_nv.cvt_rna_tf32 [[X0]]
// CHECK-NEXT:    [[B1:%[0-9]+]] = lass_nv.cvt_rna_tf32 [[Y0]]
// CHECK-NEXT:    [[B2:%[0-9]+]] = lass_nv.cvt_rna_tf32 [[X1]]
// CHECK-NEXT:    [[B3:%[0-9]+]] = lass_nv.cvt_rna_tf32 [[Y1]]
// CHECK:         lass_nv.mma_sync a({{.*}}) b([[B0]], [[B1]]) c(
// CHECK-NEXT:    lass_nv.mma_sync a({{.*}}) b([[B2]], [[B3]]) c(
// CHECK-NOT:     lass_warp.

builtin.module {
  func.func @gemm_i8_nt(%A: memref<?x?xi8, strided<[1, ?]>>, %B: memref<?x?xi8>, %D: memref<?x?xi32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32) attributes {lass.kernel = #lass.kernel<ab = i8, d = i32, layouts = [col, row, row], alpha = 1.0, beta = 0.0, config = {threadblock = [32 : i64, 32 : i64, 64 : i64], warp = [16 : i64, 16 : i64, 64 : i64], instruction = [16 : i64, 8 : i64, 32 : i64], stages = 3 : i64, raster = 8 : i64, prefetch = 0 : i64}>} {
    %tid = lass_nv.thread_id
    %0 = arith.constant 31 : i32
    %lane = arith.andi %tid, %0 : i32
    %1 = arith.constant 5 : i32
    %warp = arith.shrui %tid, %1 : i32
    %2 = arith.constant 2 : i32
    %3 = arith.remui %warp, %2 : i32
    %4 = arith.constant 16 : i32
    %warp_m0 = arith.muli %3, %4 : i32
    %5 = arith.divui %warp, %2 : i32
    %warp_n0 = arith.muli %5, %4 : i32
    %6 = arith.constant 0 : i32
    %7 = arith.constant 32 : i32
    %8 = lass_nv.block_id x
    %9 = arith.addi %M, %0 : i32
    %10 = arith.divui %9, %7 : i32
    %11 = arith.addi %N, %0 : i32
    %12 = arith.divui %11, %7 : i32
    %13 = arith.constant 8 : i32
    %14 = arith.muli %12, %13 : i32
    %15 = arith.divui %8, %14 : i32
    %16 = arith.muli %15, %13 : i32
    %17 = arith.subi %10, %16 : i32
    %18 = arith.minui %17, %13 : i32
    %19 = arith.remui %8, %14 : i32
    %20 = arith.remui %19, %18 : i32
    %21 = arith.addi %16, %20 : i32
    %m0 = arith.muli %21, %7 : i32
    %22 = arith.divui %19, %18 : i32
    %n0 = arith.muli %22, %7 : i32
    %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x32x64xi8, mn>
    %ring_b = lass_pipe.ring {offset = 6144 : i64} : !lass_pipe.ring<3x32x64xi8, mn>
    %23 = arith.constant 63 : i32
    %24 = arith.addi %K, %23 : i32
    %25 = arith.constant 64 : i32
    %k_tiles = arith.divui %24, %25 : i32
    %26 = arith.cmpi ult, %6, %k_tiles : i32
    %27 = arith.muli %6, %25 : i32
    lass_pipe.copy_async A %A[%m0, %27], %ring_a[%6], %26 : memref<?x?xi8, strided<[1, ?]>>, !lass_pipe.ring<3x32x64xi8, mn>
    lass_pipe.copy_async B %B[%n0, %27], %ring_b[%6], %26 : memref<?x?xi8>, !lass_pipe.ring<3x32x64xi8, mn>
    lass_pipe.commit
    %28 = arith.constant 1 : i32
    %29 = arith.cmpi ult, %28, %k_tiles : i32
    %30 = arith.muli %28, %25 : i32
    lass_pipe.copy_async A %A[%m0, %30], %ring_a[%28], %29 : memref<?x?xi8, strided<[1, ?]>>, !lass_pipe.ring<3x32x64xi8, mn>
    lass_pipe.copy_async B %B[%n0, %30], %ring_b[%28], %29 : memref<?x?xi8>, !lass_pipe.ring<3x32x64xi8, mn>
    lass_pipe.commit
    lass_pipe.wait {pending = 1 : i64}
    lass_pipe.barrier
    %31, %32, %33, %34, %35, %36, %37, %38 = scf.for %kt = %6 to %k_tiles step %28 iter_args(%39 = %6, %40 = %6, %41 = %6, %42 = %6, %43 = %6, %44 = %6, %45 = %6, %46 = %6) -> (i32, i32, i32, i32, i32, i32, i32, i32) : i32 {
      %47 = arith.addi %kt, %2 : i32
      %48 = arith.constant 3 : i32
      %49 = arith.remui %47, %48 : i32
      %50 = arith.cmpi ult, %47, %k_tiles : i32
      %51 = arith.muli %47, %25 : i32
      lass_pipe.copy_async A %A[%m0, %51], %ring_a[%49], %50 : memref<?x?xi8, strided<[1, ?]>>, !lass_pipe.ring<3x32x64xi8, mn>
      lass_pipe.copy_async B %B[%n0, %51], %ring_b[%49], %50 : memref<?x?xi8>, !lass_pipe.ring<3x32x64xi8, mn>
      lass_pipe.commit
      %slot = arith.remui %kt, %48 : i32
      %52, %53, %54, %55 = lass_warp.load_frag_a %ring_a[%slot], %warp_m0, %6 interleaved : !lass_pipe.ring<3x32x64xi8, mn>
      %56, %57, %58, %59 = lass_warp.load_frag_b %ring_b[%slot], %warp_n0, %6 interleaved : !lass_pipe.ring<3x32x64xi8, mn>
      %60, %61, %62, %63 = lass_warp.load_frag_a %ring_a[%slot], %warp_m0, %7 interleaved : !lass_pipe.ring<3x32x64xi8, mn>
      %64, %65, %66, %67 = lass_warp.load_frag_b %ring_b[%slot], %warp_n0, %7 interleaved : !lass_pipe.ring<3x32x64xi8, mn>
      %68, %69, %70, %71 = lass_nv.mma_sync a(%52, %53, %54, %55) b(%56, %57) c(%39, %40, %41, %42) {shape = "m16n8k32", ab_type = "s8"} : i32
      %72, %73, %74, %75 = lass_nv.mma_sync a(%52, %53, %54, %55) b(%58, %59) c(%43, %44, %45, %46) {shape = "m16n8k32", ab_type = "s8"} : i32
      %76, %77, %78, %79 = lass_nv.mma_sync a(%60, %61, %62, %63) b(%64, %65) c(%68, %69, %70, %71) {shape = "m16n8k32", ab_type = "s8"} : i32
      %80, %81, %82, %83 = lass_nv.mma_sync a(%60, %61, %62, %63) b(%66, %67) c(%72, %73, %74, %75) {shape = "m16n8k32", ab_type = "s8"} : i32
      lass_pipe.wait {pending = 1 : i64}
      lass_pipe.barrier
      scf.yield %76, %77, %78, %79, %80, %81, %82, %83 : i32, i32, i32, i32, i32, i32, i32, i32
    }
    lass_pipe.wait {pending = 0 : i64}
    %84 = arith.constant 1.000000e+00 : f32
    %85 = arith.cmpf oeq, %alpha, %84 : f32
    %86 = arith.shrui %lane, %2 : i32
    %87 = arith.muli %86, %2 : i32
    %88 = arith.constant 3 : i32
    %89 = arith.andi %lane, %88 : i32
    %90 = arith.constant 4 : i32
    %91 = arith.muli %89, %90 : i32
    %92 = arith.addi %m0, %warp_m0 : i32
    %93 = arith.addi %92, %87 : i32
    %94 = arith.addi %n0, %warp_n0 : i32
    %95 = arith.addi %94, %91 : i32
    %96 = arith.constant 0.000000e+00 : f32
    %97 = arith.constant true
    %98 = arith.andi %N, %28 : i32
    %99 = arith.cmpi eq, %98, %6 : i32
    %100 = arith.cmpf one, %beta, %96 : f32
    %101 = arith.addi %m0, %7 : i32
    %102 = arith.cmpi ule, %101, %M : i32
    %103 = arith.addi %n0, %7 : i32
    %104 = arith.cmpi ule, %103, %N : i32
    %105 = arith.andi %102, %104 : i1
    %106 = arith.andi %105, %99 : i1
    scf.if %100 {
      scf.if %106 {
        %107 = arith.muli %93, %N : i32
        %108 = arith.addi %107, %95 : i32
        %109 = arith.sitofp %31 : i32 to f32
        %110 = arith.mulf %alpha, %109 : f32
        %111 = arith.sitofp %35 : i32 to f32
        %112 = arith.mulf %alpha, %111 : f32
        %113, %114 = lass_nv.ld_global %D[%108] x 2 if %97 : memref<?x?xi32>
        %115 = arith.sitofp %113 : i32 to f32
        %116 = arith.sitofp %114 : i32 to f32
        %117 = arith.mulf %beta, %115 : f32
        %118 = arith.addf %110, %117 : f32
        %119 = arith.mulf %beta, %116 : f32
        %120 = arith.addf %112, %119 : f32
        %121 = lass_nv.cvt_rni_s32 %118
        %122 = lass_nv.cvt_rni_s32 %120
        lass_nv.st_global %D[%108], %121, %122 if %97 : memref<?x?xi32>, i32, i32
        %123 = arith.addi %95, %2 : i32
        %124 = arith.addi %107, %123 : i32
        %125 = arith.sitofp %32 : i32 to f32
        %126 = arith.mulf %alpha, %125 : f32
        %127 = arith.sitofp %36 : i32 to f32
        %128 = arith.mulf %alpha, %127 : f32
        %129, %130 = lass_nv.ld_global %D[%124] x 2 if %97 : memref<?x?xi32>
        %131 = arith.sitofp %129 : i32 to f32
        %132 = arith.sitofp %130 : i32 to f32
        %133 = arith.mulf %beta, %131 : f32
        %134 = arith.addf %126, %133 : f32
        %135 = arith.mulf %beta, %132 : f32
        %136 = arith.addf %128, %135 : f32
        %137 = lass_nv.cvt_rni_s32 %134
        %138 = lass_nv.cvt_rni_s32 %136
        lass_nv.st_global %D[%124], %137, %138 if %97 : memref<?x?xi32>, i32, i32
        %139 = arith.addi %93, %28 : i32
        %140 = arith.muli %139, %N : i32
        %141 = arith.addi %140, %95 : i32
        %142 = arith.sitofp %33 : i32 to f32
        %143 = arith.mulf %alpha, %142 : f32
        %144 = arith.sitofp %37 : i32 to f32
        %145 = arith.mulf %alpha, %144 : f32
        %146, %147 = lass_nv.ld_global %D[%141] x 2 if %97 : memref<?x?xi32>
        %148 = arith.sitofp %146 : i32 to f32
        %149 = arith.sitofp %147 : i32 to f32
        %150 = arith.mulf %beta, %148 : f32
        %151 = arith.addf %143, %150 : f32
        %152 = arith.mulf %beta, %149 : f32
        %153 = arith.addf %145, %152 : f32
        %154 = lass_nv.cvt_rni_s32 %151
        %155 = lass_nv.cvt_rni_s32 %153
        lass_nv.st_global %D[%141], %154, %155 if %97 : memref<?x?xi32>, i32, i32
        %156 = arith.addi %140, %123 : i32
        %157 = arith.sitofp %34 : i32 to f32
        %158 = arith.mulf %alpha, %157 : f32
        %159 = arith.sitofp %38 : i32 to f32
        %160 = arith.mulf %alpha, %159 : f32
        %161, %162 = lass_nv.ld_global %D[%156] x 2 if %97 : memref<?x?xi32>
        %163 = arith.sitofp %161 : i32 to f32
        %164 = arith.sitofp %162 : i32 to f32
        %165 = arith.mulf %beta, %163 : f32
        %166 = arith.addf %158, %165 : f32
        %167 = arith.mulf %beta, %164 : f32
        %168 = arith.addf %160, %167 : f32
        %169 = lass_nv.cvt_rni_s32 %166
        %170 = lass_nv.cvt_rni_s32 %168
        lass_nv.st_global %D[%156], %169, %170 if %97 : memref<?x?xi32>, i32, i32
      } else {
        %171 = arith.cmpi ult, %93, %M : i32
        %172 = arith.cmpi ult, %95, %N : i32
        %173 = arith.andi %171, %172 : i1
        %174 = arith.addi %95, %28 : i32
        %175 = arith.cmpi ult, %174, %N : i32
        %176 = arith.andi %171, %175 : i1
        %177 = arith.andi %176, %99 : i1
        %178 = arith.xori %177, %97 : i1
        %179 = arith.andi %173, %178 : i1
        %180 = arith.andi %176, %178 : i1
        %181 = arith.muli %93, %N : i32
        %182 = arith.addi %181, %95 : i32
        %183 = arith.addi %182, %28 : i32
        %184 = arith.sitofp %31 : i32 to f32
        %185 = arith.mulf %alpha, %184 : f32
        %186 = arith.sitofp %35 : i32 to f32
        %187 = arith.mulf %alpha, %186 : f32
        %188, %189 = lass_nv.ld_global %D[%182] x 2 if %177 : memref<?x?xi32>
        %190 = lass_nv.ld_global %D[%182] x 1 if %179 : memref<?x?xi32>
        %191 = lass_nv.ld_global %D[%183] x 1 if %180 : memref<?x?xi32>
        %192 = arith.select %177, %188, %190 : i32
        %193 = arith.select %177, %189, %191 : i32
        %194 = arith.sitofp %192 : i32 to f32
        %195 = arith.sitofp %193 : i32 to f32
        %196 = arith.mulf %beta, %194 : f32
        %197 = arith.addf %185, %196 : f32
        %198 = arith.mulf %beta, %195 : f32
        %199 = arith.addf %187, %198 : f32
        %200 = lass_nv.cvt_rni_s32 %197
        %201 = lass_nv.cvt_rni_s32 %199
        lass_nv.st_global %D[%182], %200, %201 if %177 : memref<?x?xi32>, i32, i32
        lass_nv.st_global %D[%182], %200 if %179 : memref<?x?xi32>, i32
        lass_nv.st_global %D[%183], %201 if %180 : memref<?x?xi32>, i32
        %202 = arith.addi %95, %2 : i32
        %203 = arith.cmpi ult, %202, %N : i32
        %204 = arith.andi %171, %203 : i1
        %205 = arith.addi %202, %28 : i32
        %206 = arith.cmpi ult, %205, %N : i32
        %207 = arith.andi %171, %206 : i1
        %208 = arith.andi %207, %99 : i1
        %209 = arith.xori %208, %97 : i1
        %210 = arith.andi %204, %209 : i1
        %211 = arith.andi %207, %209 : i1
        %212 = arith.addi %181, %202 : i32
        %213 = arith.addi %212, %28 : i32
        %214 = arith.sitofp %32 : i32 to f32
        %215 = arith.mulf %alpha, %214 : f32
        %216 = arith.sitofp %36 : i32 to f32
        %217 = arith.mulf %alpha, %216 : f32
        %218, %219 = lass_nv.ld_global %D[%212] x 2 if %208 : memref<?x?xi32>
        %220 = lass_nv.ld_global %D[%212] x 1 if %210 : memref<?x?xi32>
        %221 = lass_nv.ld_global %D[%213] x 1 if %211 : memref<?x?xi32>
        %222 = arith.select %208, %218, %220 : i32
        %223 = arith.select %208, %219, %221 : i32
        %224 = arith.sitofp %222 : i32 to f32
        %225 = arith.sitofp %223 : i32 to f32
        %226 = arith.mulf %beta, %224 : f32
        %227 = arith.addf %215, %226 : f32
        %228 = arith.mulf %beta, %225 : f32
        %229 = arith.addf %217, %228 : f32
        %230 = lass_nv.cvt_rni_s32 %227
        %231 = lass_nv.cvt_rni_s32 %229
        lass_nv.st_global %D[%212], %230, %231 if %208 : memref<?x?xi32>, i32, i32
        lass_nv.st_global %D[%212], %230 if %210 : memref<?x?xi32>, i32
        lass_nv.st_global %D[%213], %231 if %211 : memref<?x?xi32>, i32
        %232 = arith.addi %93, %28 : i32
        %233 = arith.cmpi ult, %232, %M : i32
        %234 = arith.andi %233, %172 : i1
        %235 = arith.andi %233, %175 : i1
        %236 = arith.andi %235, %99 : i1
        %237 = arith.xori %236, %97 : i1
        %238 = arith.andi %234, %237 : i1
        %239 = arith.andi %235, %237 : i1
        %240 = arith.muli %232, %N : i32
        %241 = arith.addi %240, %95 : i32
        %242 = arith.addi %241, %28 : i32
        %243 = arith.sitofp %33 : i32 to f32
        %244 = arith.mulf %alpha, %243 : f32
        %245 = arith.sitofp %37 : i32 to f32
        %246 = arith.mulf %alpha, %245 : f32
        %247, %248 = lass_nv.ld_global %D[%241] x 2 if %236 : memref<?x?xi32>
        %249 = lass_nv.ld_global %D[%241] x 1 if %238 : memref<?x?xi32>
        %250 = lass_nv.ld_global %D[%242] x 1 if %239 : memref<?x?xi32>
        %251 = arith.select %236, %247, %249 : i32
        %252 = arith.select %236, %248, %250 : i32
        %253 = arith.sitofp %251 : i32 to f32
        %254 = arith.sitofp %252 : i32 to f32
        %255 = arith.mulf %beta, %253 : f32
        %256 = arith.addf %244, %255 : f32
        %257 = arith.mulf %beta, %254 : f32
        %258 = arith.addf %246, %257 : f32
        %259 = lass_nv.cvt_rni_s32 %256
        %260 = lass_nv.cvt_rni_s32 %258
        lass_nv.st_global %D[%241], %259, %260 if %236 : memref<?x?xi32>, i32, i32
        lass_nv.st_global %D[%241], %259 if %238 : memref<?x?xi32>, i32
        lass_nv.st_global %D[%242], %260 if %239 : memref<?x?xi32>, i32
        %261 = arith.andi %233, %203 : i1
        %262 = arith.andi %233, %206 : i1
        %263 = arith.andi %262, %99 : i1
        %264 = arith.xori %263, %97 : i1
        %265 = arith.andi %261, %264 : i1
        %266 = arith.andi %262, %264 : i1
        %267 = arith.addi %240, %202 : i32
        %268 = arith.addi %267, %28 : i32
        %269 = arith.sitofp %34 : i32 to f32
        %270 = arith.mulf %alpha, %269 : f32
        %271 = arith.sitofp %38 : i32 to f32
        %272 = arith.mulf %alpha, %271 : f32
        %273, %274 = lass_nv.ld_global %D[%267] x 2 if %263 : memref<?x?xi32>
        %275 = lass_nv.ld_global %D[%267] x 1 if %265 : memref<?x?xi32>
        %276 = lass_nv.ld_global %D[%268] x 1 if %266 : memref<?x?xi32>
        %277 = arith.select %263, %273, %275 : i32
        %278 = arith.select %263, %274, %276 : i32
        %279 = arith.sitofp %277 : i32 to f32
        %280 = arith.sitofp %278 : i32 to f32
        %281 = arith.mulf %beta, %279 : f32
        %282 = arith.addf %270, %281 : f32
        %283 = arith.mulf %beta, %280 : f32
        %284 = arith.addf %272, %283 : f32
        %285 = lass_nv.cvt_rni_s32 %282
        %286 = lass_nv.cvt_rni_s32 %284
        lass_nv.st_global %D[%267], %285, %286 if %263 : memref<?x?xi32>, i32, i32
        lass_nv.st_global %D[%267], %285 if %265 : memref<?x?xi32>, i32
        lass_nv.st_global %D[%268], %286 if %266 : memref<?x?xi32>, i32
      }
    } else {
      scf.if %106 {
        %287 = arith.muli %93, %N : i32
        %288 = arith.addi %287, %95 : i32
        %289 = arith.sitofp %31 : i32 to f32
        %290 = arith.mulf %alpha, %289 : f32
        %291 = arith.sitofp %35 : i32 to f32
        %292 = arith.mulf %alpha, %291 : f32
        %293 = lass_nv.cvt_rni_s32 %290
        %294 = lass_nv.cvt_rni_s32 %292
        %295 = arith.select %85, %31, %293 : i32
        %296 = arith.select %85, %35, %294 : i32
        lass_nv.st_global %D[%288], %295, %296 if %97 : memref<?x?xi32>, i32, i32
        %297 = arith.addi %95, %2 : i32
        %298 = arith.addi %287, %297 : i32
        %299 = arith.sitofp %32 : i32 to f32
        %300 = arith.mulf %alpha, %299 : f32
        %301 = arith.sitofp %36 : i32 to f32
        %302 = arith.mulf %alpha, %301 : f32
        %303 = lass_nv.cvt_rni_s32 %300
        %304 = lass_nv.cvt_rni_s32 %302
        %305 = arith.select %85, %32, %303 : i32
        %306 = arith.select %85, %36, %304 : i32
        lass_nv.st_global %D[%298], %305, %306 if %97 : memref<?x?xi32>, i32, i32
        %307 = arith.addi %93, %28 : i32
        %308 = arith.muli %307, %N : i32
        %309 = arith.addi %308, %95 : i32
        %310 = arith.sitofp %33 : i32 to f32
        %311 = arith.mulf %alpha, %310 : f32
        %312 = arith.sitofp %37 : i32 to f32
        %313 = arith.mulf %alpha, %312 : f32
        %314 = lass_nv.cvt_rni_s32 %311
        %315 = lass_nv.cvt_rni_s32 %313
        %316 = arith.select %85, %33, %314 : i32
        %317 = arith.select %85, %37, %315 : i32
        lass_nv.st_global %D[%309], %316, %317 if %97 : memref<?x?xi32>, i32, i32
        %318 = arith.addi %308, %297 : i32
        %319 = arith.sitofp %34 : i32 to f32
        %320 = arith.mulf %alpha, %319 : f32
        %321 = arith.sitofp %38 : i32 to f32
        %322 = arith.mulf %alpha, %321 : f32
        %323 = lass_nv.cvt_rni_s32 %320
        %324 = lass_nv.cvt_rni_s32 %322
        %325 = arith.select %85, %34, %323 : i32
        %326 = arith.select %85, %38, %324 : i32
        lass_nv.st_global %D[%318], %325, %326 if %97 : memref<?x?xi32>, i32, i32
      } else {
        %327 = arith.cmpi ult, %93, %M : i32
        %328 = arith.cmpi ult, %95, %N : i32
        %329 = arith.andi %327, %328 : i1
        %330 = arith.addi %95, %28 : i32
        %331 = arith.cmpi ult, %330, %N : i32
        %332 = arith.andi %327, %331 : i1
        %333 = arith.andi %332, %99 : i1
        %334 = arith.xori %333, %97 : i1
        %335 = arith.andi %329, %334 : i1
        %336 = arith.andi %332, %334 : i1
        %337 = arith.muli %93, %N : i32
        %338 = arith.addi %337, %95 : i32
        %339 = arith.addi %338, %28 : i32
        %340 = arith.sitofp %31 : i32 to f32
        %341 = arith.mulf %alpha, %340 : f32
        %342 = arith.sitofp %35 : i32 to f32
        %343 = arith.mulf %alpha, %342 : f32
        %344 = lass_nv.cvt_rni_s32 %341
        %345 = lass_nv.cvt_rni_s32 %343
        %346 = arith.select %85, %31, %344 : i32
        %347 = arith.select %85, %35, %345 : i32
        lass_nv.st_global %D[%338], %346, %347 if %333 : memref<?x?xi32>, i32, i32
        lass_nv.st_global %D[%338], %346 if %335 : memref<?x?xi32>, i32
        lass_nv.st_global %D[%339], %347 if %336 : memref<?x?xi32>, i32
        %348 = arith.addi %95, %2 : i32
        %349 = arith.cmpi ult, %348, %N : i32
        %350 = arith.andi %327, %349 : i1
        %351 = arith.addi %348, %28 : i32
        %352 = arith.cmpi ult, %351, %N : i32
        %353 = arith.andi %327, %352 : i1
        %354 = arith.andi %353, %99 : i1
        %355 = arith.xori %354, %97 : i1
        %356 = arith.andi %350, %355 : i1
        %357 = arith.andi %353, %355 : i1
        %358 = arith.addi %337, %348 : i32
        %359 = arith.addi %358, %28 : i32
        %360 = arith.sitofp %32 : i32 to f32
        %361 = arith.mulf %alpha, %360 : f32
        %362 = arith.sitofp %36 : i32 to f32
        %363 = arith.mulf %alpha, %362 : f32
        %364 = lass_nv.cvt_rni_s32 %361
        %365 = lass_nv.cvt_rni_s32 %363
        %366 = arith.select %85, %32, %364 : i32
        %367 = arith.select %85, %36, %365 : i32
        lass_nv.st_global %D[%358], %366, %367 if %354 : memref<?x?xi32>, i32, i32
        lass_nv.st_global %D[%358], %366 if %356 : memref<?x?xi32>, i32
        lass_nv.st_global %D[%359], %367 if %357 : memref<?x?xi32>, i32
        %368 = arith.addi %93, %28 : i32
        %369 = arith.cmpi ult, %368, %M : i32
        %370 = arith.andi %369, %328 : i1
        %371 = arith.andi %369, %331 : i1
        %372 = arith.andi %371, %99 : i1
        %373 = arith.xori %372, %97 : i1
        %374 = arith.andi %370, %373 : i1
        %375 = arith.andi %371, %373 : i1
        %376 = arith.muli %368, %N : i32
        %377 = arith.addi %376, %95 : i32
        %378 = arith.addi %377, %28 : i32
        %379 = arith.sitofp %33 : i32 to f32
        %380 = arith.mulf %alpha, %379 : f32
        %381 = arith.sitofp %37 : i32 to f32
        %382 = arith.mulf %alpha, %381 : f32
        %383 = lass_nv.cvt_rni_s32 %380
        %384 = lass_nv.cvt_rni_s32 %382
        %385 = arith.select %85, %33, %383 : i32
        %386 = arith.select %85, %37, %384 : i32
        lass_nv.st_global %D[%377], %385, %386 if %372 : memref<?x?xi32>, i32, i32
        lass_nv.st_global %D[%377], %385 if %374 : memref<?x?xi32>, i32
        lass_nv.st_global %D[%378], %386 if %375 : memref<?x?xi32>, i32
        %387 = arith.andi %369, %349 : i1
        %388 = arith.andi %369, %352 : i1
        %389 = arith.andi %388, %99 : i1
        %390 = arith.xori %389, %97 : i1
        %391 = arith.andi %387, %390 : i1
        %392 = arith.andi %388, %390 : i1
        %393 = arith.addi %376, %348 : i32
        %394 = arith.addi %393, %28 : i32
        %395 = arith.sitofp %34 : i32 to f32
        %396 = arith.mulf %alpha, %395 : f32
        %397 = arith.sitofp %38 : i32 to f32
        %398 = arith.mulf %alpha, %397 : f32
        %399 = lass_nv.cvt_rni_s32 %396
        %400 = lass_nv.cvt_rni_s32 %398
        %401 = arith.select %85, %34, %399 : i32
        %402 = arith.select %85, %38, %400 : i32
        lass_nv.st_global %D[%393], %401, %402 if %389 : memref<?x?xi32>, i32, i32
        lass_nv.st_global %D[%393], %401 if %391 : memref<?x?xi32>, i32
        lass_nv.st_global %D[%394], %402 if %392 : memref<?x?xi32>, i32
      }
    }
    func.return
  }
  func.func @gemm_tf32_tt(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32) attributes {lass.kernel = #lass.kernel<ab = f32, d = f32, layouts = [row, row, row], alpha = 1.0, beta = 0.0, config = {threadblock = [32 : i64, 32 : i64, 16 : i64], warp = [16 : i64, 16 : i64, 16 : i64], instruction = [16 : i64, 8 : i64, 8 : i64], stages = 3 : i64, raster = 8 : i64, prefetch = 0 : i64}>} {
    %tid = lass_nv.thread_id
    %0 = arith.constant 31 : i32
    %lane = arith.andi %tid, %0 : i32
    %1 = arith.constant 5 : i32
    %warp = arith.shrui %tid, %1 : i32
    %2 = arith.constant 2 : i32
    %3 = arith.remui %warp, %2 : i32
    %4 = arith.constant 16 : i32
    %warp_m0 = arith.muli %3, %4 : i32
    %5 = arith.divui %warp, %2 : i32
    %warp_n0 = arith.muli %5, %4 : i32
    %6 = arith.constant 0 : i32
    %7 = arith.constant 8 : i32
    %8 = lass_nv.block_id x
    %9 = arith.addi %M, %0 : i32
    %10 = arith.constant 32 : i32
    %11 = arith.divui %9, %10 : i32
    %12 = arith.addi %N, %0 : i32
    %13 = arith.divui %12, %10 : i32
    %14 = arith.muli %13, %7 : i32
    %15 = arith.divui %8, %14 : i32
    %16 = arith.muli %15, %7 : i32
    %17 = arith.subi %11, %16 : i32
    %18 = arith.minui %17, %7 : i32
    %19 = arith.remui %8, %14 : i32
    %20 = arith.remui %19, %18 : i32
    %21 = arith.addi %16, %20 : i32
    %m0 = arith.muli %21, %10 : i32
    %22 = arith.divui %19, %18 : i32
    %n0 = arith.muli %22, %10 : i32
    %23 = arith.constant 0.000000e+00 : f32
    %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x32x16xf32>
    %ring_b = lass_pipe.ring {offset = 6144 : i64} : !lass_pipe.ring<3x32x16xf32, mn>
    %24 = arith.constant 15 : i32
    %25 = arith.addi %K, %24 : i32
    %k_tiles = arith.divui %25, %4 : i32
    %26 = arith.cmpi ult, %6, %k_tiles : i32
    %27 = arith.muli %6, %4 : i32
    lass_pipe.copy_async A %A[%m0, %27], %ring_a[%6], %26 : memref<?x?xf32>, !lass_pipe.ring<3x32x16xf32>
    lass_pipe.copy_async B %B[%n0, %27], %ring_b[%6], %26 : memref<?x?xf32>, !lass_pipe.ring<3x32x16xf32, mn>
    lass_pipe.commit
    %28 = arith.constant 1 : i32
    %29 = arith.cmpi ult, %28, %k_tiles : i32
    %30 = arith.muli %28, %4 : i32
    lass_pipe.copy_async A %A[%m0, %30], %ring_a[%28], %29 : memref<?x?xf32>, !lass_pipe.ring<3x32x16xf32>
    lass_pipe.copy_async B %B[%n0, %30], %ring_b[%28], %29 : memref<?x?xf32>, !lass_pipe.ring<3x32x16xf32, mn>
    lass_pipe.commit
    lass_pipe.wait {pending = 1 : i64}
    lass_pipe.barrier
    %31, %32, %33, %34, %35, %36, %37, %38 = scf.for %kt = %6 to %k_tiles step %28 iter_args(%39 = %23, %40 = %23, %41 = %23, %42 = %23, %43 = %23, %44 = %23, %45 = %23, %46 = %23) -> (f32, f32, f32, f32, f32, f32, f32, f32) : i32 {
      %47 = arith.addi %kt, %2 : i32
      %48 = arith.constant 3 : i32
      %49 = arith.remui %47, %48 : i32
      %50 = arith.cmpi ult, %47, %k_tiles : i32
      %51 = arith.muli %47, %4 : i32
      lass_pipe.copy_async A %A[%m0, %51], %ring_a[%49], %50 : memref<?x?xf32>, !lass_pipe.ring<3x32x16xf32>
      lass_pipe.copy_async B %B[%n0, %51], %ring_b[%49], %50 : memref<?x?xf32>, !lass_pipe.ring<3x32x16xf32, mn>
      lass_pipe.commit
      %slot = arith.remui %kt, %48 : i32
      %52, %53, %54, %55 = lass_warp.load_frag_a %ring_a[%slot], %warp_m0, %6 : !lass_pipe.ring<3x32x16xf32>
      %56 = lass_nv.cvt_rna_tf32 %52
      %57 = lass_nv.cvt_rna_tf32 %53
      %58 = lass_nv.cvt_rna_tf32 %54
      %59 = lass_nv.cvt_rna_tf32 %55
      %60, %61, %62, %63 = lass_warp.load_frag_b %ring_b[%slot], %warp_n0, %6 interleaved : !lass_pipe.ring<3x32x16xf32, mn>
      %64 = lass_nv.cvt_rna_tf32 %60
      %65 = lass_nv.cvt_rna_tf32 %61
      %66 = lass_nv.cvt_rna_tf32 %62
      %67 = lass_nv.cvt_rna_tf32 %63
      %68, %69, %70, %71 = lass_warp.load_frag_a %ring_a[%slot], %warp_m0, %7 : !lass_pipe.ring<3x32x16xf32>
      %72 = lass_nv.cvt_rna_tf32 %68
      %73 = lass_nv.cvt_rna_tf32 %69
      %74 = lass_nv.cvt_rna_tf32 %70
      %75 = lass_nv.cvt_rna_tf32 %71
      %76, %77, %78, %79 = lass_warp.load_frag_b %ring_b[%slot], %warp_n0, %7 interleaved : !lass_pipe.ring<3x32x16xf32, mn>
      %80 = lass_nv.cvt_rna_tf32 %76
      %81 = lass_nv.cvt_rna_tf32 %77
      %82 = lass_nv.cvt_rna_tf32 %78
      %83 = lass_nv.cvt_rna_tf32 %79
      %84, %85, %86, %87 = lass_nv.mma_sync a(%56, %57, %58, %59) b(%64, %65) c(%39, %40, %41, %42) {shape = "m16n8k8", ab_type = "tf32"}
      %88, %89, %90, %91 = lass_nv.mma_sync a(%56, %57, %58, %59) b(%66, %67) c(%43, %44, %45, %46) {shape = "m16n8k8", ab_type = "tf32"}
      %92, %93, %94, %95 = lass_nv.mma_sync a(%72, %73, %74, %75) b(%80, %81) c(%84, %85, %86, %87) {shape = "m16n8k8", ab_type = "tf32"}
      %96, %97, %98, %99 = lass_nv.mma_sync a(%72, %73, %74, %75) b(%82, %83) c(%88, %89, %90, %91) {shape = "m16n8k8", ab_type = "tf32"}
      lass_pipe.wait {pending = 1 : i64}
      lass_pipe.barrier
      scf.yield %92, %93, %94, %95, %96, %97, %98, %99 : f32, f32, f32, f32, f32, f32, f32, f32
    }
    lass_pipe.wait {pending = 0 : i64}
    %100 = arith.shrui %lane, %2 : i32
    %101 = arith.constant 3 : i32
    %102 = arith.andi %lane, %101 : i32
    %103 = arith.constant 4 : i32
    %104 = arith.muli %102, %103 : i32
    %105 = arith.addi %m0, %warp_m0 : i32
    %106 = arith.addi %105, %100 : i32
    %107 = arith.addi %n0, %warp_n0 : i32
    %108 = arith.addi %107, %104 : i32
    %109 = arith.constant true
    %110 = arith.andi %N, %28 : i32
    %111 = arith.cmpi eq, %110, %6 : i32
    %112 = arith.cmpf one, %beta, %23 : f32
    %113 = arith.addi %m0, %10 : i32
    %114 = arith.cmpi ule, %113, %M : i32
    %115 = arith.addi %n0, %10 : i32
    %116 = arith.cmpi ule, %115, %N : i32
    %117 = arith.andi %114, %116 : i1
    %118 = arith.andi %117, %111 : i1
    scf.if %112 {
      scf.if %118 {
        %119 = arith.muli %106, %N : i32
        %120 = arith.addi %119, %108 : i32
        %121 = arith.mulf %alpha, %31 : f32
        %122 = arith.mulf %alpha, %35 : f32
        %123, %124 = lass_nv.ld_global %D[%120] x 2 if %109 : memref<?x?xf32>
        %125 = arith.mulf %beta, %123 : f32
        %126 = arith.addf %121, %125 : f32
        %127 = arith.mulf %beta, %124 : f32
        %128 = arith.addf %122, %127 : f32
        lass_nv.st_global %D[%120], %126, %128 if %109 : memref<?x?xf32>, f32, f32
        %129 = arith.addi %108, %2 : i32
        %130 = arith.addi %119, %129 : i32
        %131 = arith.mulf %alpha, %32 : f32
        %132 = arith.mulf %alpha, %36 : f32
        %133, %134 = lass_nv.ld_global %D[%130] x 2 if %109 : memref<?x?xf32>
        %135 = arith.mulf %beta, %133 : f32
        %136 = arith.addf %131, %135 : f32
        %137 = arith.mulf %beta, %134 : f32
        %138 = arith.addf %132, %137 : f32
        lass_nv.st_global %D[%130], %136, %138 if %109 : memref<?x?xf32>, f32, f32
        %139 = arith.addi %106, %7 : i32
        %140 = arith.muli %139, %N : i32
        %141 = arith.addi %140, %108 : i32
        %142 = arith.mulf %alpha, %33 : f32
        %143 = arith.mulf %alpha, %37 : f32
        %144, %145 = lass_nv.ld_global %D[%141] x 2 if %109 : memref<?x?xf32>
        %146 = arith.mulf %beta, %144 : f32
        %147 = arith.addf %142, %146 : f32
        %148 = arith.mulf %beta, %145 : f32
        %149 = arith.addf %143, %148 : f32
        lass_nv.st_global %D[%141], %147, %149 if %109 : memref<?x?xf32>, f32, f32
        %150 = arith.addi %140, %129 : i32
        %151 = arith.mulf %alpha, %34 : f32
        %152 = arith.mulf %alpha, %38 : f32
        %153, %154 = lass_nv.ld_global %D[%150] x 2 if %109 : memref<?x?xf32>
        %155 = arith.mulf %beta, %153 : f32
        %156 = arith.addf %151, %155 : f32
        %157 = arith.mulf %beta, %154 : f32
        %158 = arith.addf %152, %157 : f32
        lass_nv.st_global %D[%150], %156, %158 if %109 : memref<?x?xf32>, f32, f32
      } else {
        %159 = arith.cmpi ult, %106, %M : i32
        %160 = arith.cmpi ult, %108, %N : i32
        %161 = arith.andi %159, %160 : i1
        %162 = arith.addi %108, %28 : i32
        %163 = arith.cmpi ult, %162, %N : i32
        %164 = arith.andi %159, %163 : i1
        %165 = arith.andi %164, %111 : i1
        %166 = arith.xori %165, %109 : i1
        %167 = arith.andi %161, %166 : i1
        %168 = arith.andi %164, %166 : i1
        %169 = arith.muli %106, %N : i32
        %170 = arith.addi %169, %108 : i32
        %171 = arith.addi %170, %28 : i32
        %172 = arith.mulf %alpha, %31 : f32
        %173 = arith.mulf %alpha, %35 : f32
        %174, %175 = lass_nv.ld_global %D[%170] x 2 if %165 : memref<?x?xf32>
        %176 = lass_nv.ld_global %D[%170] x 1 if %167 : memref<?x?xf32>
        %177 = lass_nv.ld_global %D[%171] x 1 if %168 : memref<?x?xf32>
        %178 = arith.select %165, %174, %176 : f32
        %179 = arith.select %165, %175, %177 : f32
        %180 = arith.mulf %beta, %178 : f32
        %181 = arith.addf %172, %180 : f32
        %182 = arith.mulf %beta, %179 : f32
        %183 = arith.addf %173, %182 : f32
        lass_nv.st_global %D[%170], %181, %183 if %165 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%170], %181 if %167 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%171], %183 if %168 : memref<?x?xf32>, f32
        %184 = arith.addi %108, %2 : i32
        %185 = arith.cmpi ult, %184, %N : i32
        %186 = arith.andi %159, %185 : i1
        %187 = arith.addi %184, %28 : i32
        %188 = arith.cmpi ult, %187, %N : i32
        %189 = arith.andi %159, %188 : i1
        %190 = arith.andi %189, %111 : i1
        %191 = arith.xori %190, %109 : i1
        %192 = arith.andi %186, %191 : i1
        %193 = arith.andi %189, %191 : i1
        %194 = arith.addi %169, %184 : i32
        %195 = arith.addi %194, %28 : i32
        %196 = arith.mulf %alpha, %32 : f32
        %197 = arith.mulf %alpha, %36 : f32
        %198, %199 = lass_nv.ld_global %D[%194] x 2 if %190 : memref<?x?xf32>
        %200 = lass_nv.ld_global %D[%194] x 1 if %192 : memref<?x?xf32>
        %201 = lass_nv.ld_global %D[%195] x 1 if %193 : memref<?x?xf32>
        %202 = arith.select %190, %198, %200 : f32
        %203 = arith.select %190, %199, %201 : f32
        %204 = arith.mulf %beta, %202 : f32
        %205 = arith.addf %196, %204 : f32
        %206 = arith.mulf %beta, %203 : f32
        %207 = arith.addf %197, %206 : f32
        lass_nv.st_global %D[%194], %205, %207 if %190 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%194], %205 if %192 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%195], %207 if %193 : memref<?x?xf32>, f32
        %208 = arith.addi %106, %7 : i32
        %209 = arith.cmpi ult, %208, %M : i32
        %210 = arith.andi %209, %160 : i1
        %211 = arith.andi %209, %163 : i1
        %212 = arith.andi %211, %111 : i1
        %213 = arith.xori %212, %109 : i1
        %214 = arith.andi %210, %213 : i1
        %215 = arith.andi %211, %213 : i1
        %216 = arith.muli %208, %N : i32
        %217 = arith.addi %216, %108 : i32
        %218 = arith.addi %217, %28 : i32
        %219 = arith.mulf %alpha, %33 : f32
        %220 = arith.mulf %alpha, %37 : f32
        %221, %222 = lass_nv.ld_global %D[%217] x 2 if %212 : memref<?x?xf32>
        %223 = lass_nv.ld_global %D[%217] x 1 if %214 : memref<?x?xf32>
        %224 = lass_nv.ld_global %D[%218] x 1 if %215 : memref<?x?xf32>
        %225 = arith.select %212, %221, %223 : f32
        %226 = arith.select %212, %222, %224 : f32
        %227 = arith.mulf %beta, %225 : f32
        %228 = arith.addf %219, %227 : f32
        %229 = arith.mulf %beta, %226 : f32
        %230 = arith.addf %220, %229 : f32
        lass_nv.st_global %D[%217], %228, %230 if %212 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%217], %228 if %214 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%218], %230 if %215 : memref<?x?xf32>, f32
        %231 = arith.andi %209, %185 : i1
        %232 = arith.andi %209, %188 : i1
        %233 = arith.andi %232, %111 : i1
        %234 = arith.xori %233, %109 : i1
        %235 = arith.andi %231, %234 : i1
        %236 = arith.andi %232, %234 : i1
        %237 = arith.addi %216, %184 : i32
        %238 = arith.addi %237, %28 : i32
        %239 = arith.mulf %alpha, %34 : f32
        %240 = arith.mulf %alpha, %38 : f32
        %241, %242 = lass_nv.ld_global %D[%237] x 2 if %233 : memref<?x?xf32>
        %243 = lass_nv.ld_global %D[%237] x 1 if %235 : memref<?x?xf32>
        %244 = lass_nv.ld_global %D[%238] x 1 if %236 : memref<?x?xf32>
        %245 = arith.select %233, %241, %243 : f32
        %246 = arith.select %233, %242, %244 : f32
        %247 = arith.mulf %beta, %245 : f32
        %248 = arith.addf %239, %247 : f32
        %249 = arith.mulf %beta, %246 : f32
        %250 = arith.addf %240, %249 : f32
        lass_nv.st_global %D[%237], %248, %250 if %233 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%237], %248 if %235 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%238], %250 if %236 : memref<?x?xf32>, f32
      }
    } else {
      scf.if %118 {
        %251 = arith.muli %106, %N : i32
        %252 = arith.addi %251, %108 : i32
        %253 = arith.mulf %alpha, %31 : f32
        %254 = arith.mulf %alpha, %35 : f32
        lass_nv.st_global %D[%252], %253, %254 if %109 : memref<?x?xf32>, f32, f32
        %255 = arith.addi %108, %2 : i32
        %256 = arith.addi %251, %255 : i32
        %257 = arith.mulf %alpha, %32 : f32
        %258 = arith.mulf %alpha, %36 : f32
        lass_nv.st_global %D[%256], %257, %258 if %109 : memref<?x?xf32>, f32, f32
        %259 = arith.addi %106, %7 : i32
        %260 = arith.muli %259, %N : i32
        %261 = arith.addi %260, %108 : i32
        %262 = arith.mulf %alpha, %33 : f32
        %263 = arith.mulf %alpha, %37 : f32
        lass_nv.st_global %D[%261], %262, %263 if %109 : memref<?x?xf32>, f32, f32
        %264 = arith.addi %260, %255 : i32
        %265 = arith.mulf %alpha, %34 : f32
        %266 = arith.mulf %alpha, %38 : f32
        lass_nv.st_global %D[%264], %265, %266 if %109 : memref<?x?xf32>, f32, f32
      } else {
        %267 = arith.cmpi ult, %106, %M : i32
        %268 = arith.cmpi ult, %108, %N : i32
        %269 = arith.andi %267, %268 : i1
        %270 = arith.addi %108, %28 : i32
        %271 = arith.cmpi ult, %270, %N : i32
        %272 = arith.andi %267, %271 : i1
        %273 = arith.andi %272, %111 : i1
        %274 = arith.xori %273, %109 : i1
        %275 = arith.andi %269, %274 : i1
        %276 = arith.andi %272, %274 : i1
        %277 = arith.muli %106, %N : i32
        %278 = arith.addi %277, %108 : i32
        %279 = arith.addi %278, %28 : i32
        %280 = arith.mulf %alpha, %31 : f32
        %281 = arith.mulf %alpha, %35 : f32
        lass_nv.st_global %D[%278], %280, %281 if %273 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%278], %280 if %275 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%279], %281 if %276 : memref<?x?xf32>, f32
        %282 = arith.addi %108, %2 : i32
        %283 = arith.cmpi ult, %282, %N : i32
        %284 = arith.andi %267, %283 : i1
        %285 = arith.addi %282, %28 : i32
        %286 = arith.cmpi ult, %285, %N : i32
        %287 = arith.andi %267, %286 : i1
        %288 = arith.andi %287, %111 : i1
        %289 = arith.xori %288, %109 : i1
        %290 = arith.andi %284, %289 : i1
        %291 = arith.andi %287, %289 : i1
        %292 = arith.addi %277, %282 : i32
        %293 = arith.addi %292, %28 : i32
        %294 = arith.mulf %alpha, %32 : f32
        %295 = arith.mulf %alpha, %36 : f32
        lass_nv.st_global %D[%292], %294, %295 if %288 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%292], %294 if %290 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%293], %295 if %291 : memref<?x?xf32>, f32
        %296 = arith.addi %106, %7 : i32
        %297 = arith.cmpi ult, %296, %M : i32
        %298 = arith.andi %297, %268 : i1
        %299 = arith.andi %297, %271 : i1
        %300 = arith.andi %299, %111 : i1
        %301 = arith.xori %300, %109 : i1
        %302 = arith.andi %298, %301 : i1
        %303 = arith.andi %299, %301 : i1
        %304 = arith.muli %296, %N : i32
        %305 = arith.addi %304, %108 : i32
        %306 = arith.addi %305, %28 : i32
        %307 = arith.mulf %alpha, %33 : f32
        %308 = arith.mulf %alpha, %37 : f32
        lass_nv.st_global %D[%305], %307, %308 if %300 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%305], %307 if %302 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%306], %308 if %303 : memref<?x?xf32>, f32
        %309 = arith.andi %297, %283 : i1
        %310 = arith.andi %297, %286 : i1
        %311 = arith.andi %310, %111 : i1
        %312 = arith.xori %311, %109 : i1
        %313 = arith.andi %309, %312 : i1
        %314 = arith.andi %310, %312 : i1
        %315 = arith.addi %304, %282 : i32
        %316 = arith.addi %315, %28 : i32
        %317 = arith.mulf %alpha, %34 : f32
        %318 = arith.mulf %alpha, %38 : f32
        lass_nv.st_global %D[%315], %317, %318 if %311 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%315], %317 if %313 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%316], %318 if %314 : memref<?x?xf32>, f32
      }
    }
    func.return
  }
}
