// lasscc-hopper-smem (passes/hopper_smem.py) of a batched kernel with a column-major D (config 64x16x32
// f16, 2 stages): its loads read lass_tb.batch_views, so the tensor maps are 3-d (batch outermost, the
// box one matrix deep: tensor_map<1x64x32xf16>, <1x16x32xf16>) and each load is a tma_load_3d at
// (k, row, %batch): TMA zero-fills past a matrix's edge instead of reading the next batch's rows.
// The kernel computes D^T = B^T . A^T: its A is the caller's B, so tmap_A is the map of that operand.
//
// RUN: %lasscc opt -p lasscc-hopper-smem %s -o %t.once.mlir
// RUN: filecheck %s --input-file %t.once.mlir
// RUN: xdsl-opt -p lasscc-hopper-smem %s | xdsl-opt -p cse,dce | filecheck %s
//
// Left alone once applied: a second run changes nothing.
// RUN: %lasscc opt -p lasscc-hopper-smem %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
//
// Rejected: a TMA load of a 3-d operand that no lass_tb.batch_view selects a matrix of.
// RUN: not %lasscc opt -p lasscc-hopper-smem %S/Inputs/lasscc-hopper-smem-batched-no-view.mlir.in 2>&1 | filecheck %s --check-prefix=ERR

// CHECK-LABEL: func.func @gemm(%A: memref<?x?x?xf16>, %B: memref<?x?x?xf16, strided<[?, 1, ?]>>, %D: memref<?x?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32, %tmap_A: !lass_nv.tensor_map<1x64x32xf16, swizzle_64b>, %tmap_B: !lass_nv.tensor_map<1x16x32xf16, swizzle_64b>)
// CHECK:         %batch = lass_nv.block_id z
// CHECK:         lass_nv.tma_load_3d %tmap_A[{{%[0-9]+}}, %m0, %batch], {{%[0-9]+}}, {{%[0-9]+}} : !lass_nv.tensor_map<1x64x32xf16, swizzle_64b>
// CHECK:         lass_nv.tma_load_3d %tmap_B[{{%[0-9]+}}, %n0, %batch], {{%[0-9]+}}, {{%[0-9]+}} : !lass_nv.tensor_map<1x16x32xf16, swizzle_64b>
// CHECK:         scf.for %kt =
// CHECK:           lass_nv.wgmma_mma_async
// CHECK:           lass_nv.tma_load_3d %tmap_A
// CHECK:           lass_nv.tma_load_3d %tmap_B
// CHECK-NOT:     lass_nv.tma_load_2d
// CHECK-NOT:     lass_pipe.
// CHECK:         func.return

// ERR: lasscc-hopper-smem-batched-no-view.mlir.in:{{[0-9]+}}:{{[0-9]+}}: error: expected the TMA load's source a kernel argument or a lass_tb.batch_view of one, got memref<?x?x?xf16>

builtin.module {
  func.func @gemm(%A: memref<?x?x?xf16>, %B: memref<?x?x?xf16, strided<[?, 1, ?]>>, %D: memref<?x?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32) attributes {lass.kernel = #lass.kernel<ab = f16, acc = f32, d = f32, layouts = [row, col, col], batched, alpha = 1.5, beta = 0.0, config = {threadblock = [64, 16, 32], warp = [64, 16, 32], instruction = [64, 16, 16], stages = 2, raster = 8, prefetch = 0, mma = "wgmma"}>} {
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
    %batch = lass_nv.block_id z
    %9 = arith.muli %M, %K : i32
    %A_b = lass_tb.batch_view %A[%batch], %9 : memref<?x?x?xf16> -> memref<?x?xf16>
    %10 = arith.muli %N, %K : i32
    %B_b = lass_tb.batch_view %B[%batch], %10 : memref<?x?x?xf16, strided<[?, 1, ?]>> -> memref<?x?xf16, strided<[1, ?]>>
    %11 = arith.muli %M, %N : i32
    %D_b = lass_tb.batch_view %D[%batch], %11 : memref<?x?x?xf32> -> memref<?x?xf32>
    %12 = lass_nv.block_id x
    %13 = arith.constant 63 : i32
    %14 = arith.addi %M, %13 : i32
    %15 = arith.divui %14, %2 : i32
    %16 = arith.constant 15 : i32
    %17 = arith.addi %N, %16 : i32
    %18 = arith.divui %17, %8 : i32
    %19 = arith.constant 8 : i32
    %20 = arith.muli %18, %19 : i32
    %21 = arith.divui %12, %20 : i32
    %22 = arith.muli %21, %19 : i32
    %23 = arith.subi %15, %22 : i32
    %24 = arith.minui %23, %19 : i32
    %25 = arith.remui %12, %20 : i32
    %26 = arith.remui %25, %24 : i32
    %27 = arith.addi %22, %26 : i32
    %28 = arith.divui %25, %24 : i32
    %m0 = arith.muli %27, %2 : i32
    %n0 = arith.muli %28, %8 : i32
    %29 = arith.constant 0.000000e+00 : f32
    %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x64x32xf16>
    %ring_b = lass_pipe.ring {offset = 8192 : i64} : !lass_pipe.ring<2x16x32xf16>
    %bars = lass_pipe.tma_pipeline {offset = 10240 : i64, arrivals = 128 : i64} : !lass_pipe.barriers<2>
    %30 = arith.addi %K, %3 : i32
    %31 = arith.constant 32 : i32
    %k_tiles = arith.divui %30, %31 : i32
    %32 = arith.constant 0 : i32
    %33 = arith.cmpi ult, %32, %k_tiles : i32
    %34 = arith.constant 2 : i32
    %35 = arith.remui %32, %34 : i32
    %36 = arith.divui %32, %34 : i32
    %37 = arith.remui %36, %34 : i32
    %38 = arith.muli %32, %31 : i32
    %39 = arith.cmpi eq, %tid, %32 : i32
    scf.if %39 {
      lass_pipe.producer_acquire %bars[%35], %37, %33 {tx = 5120 : i64} : !lass_pipe.barriers<2>
      lass_pipe.tma_load A %A_b[%m0, %38], %ring_a[%35], %bars, %33 : memref<?x?xf16>, !lass_pipe.ring<2x64x32xf16>, !lass_pipe.barriers<2>
      lass_pipe.tma_load B %B_b[%n0, %38], %ring_b[%35], %bars, %33 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<2x16x32xf16>, !lass_pipe.barriers<2>
    }
    %40 = arith.constant 1 : i32
    %41, %42, %43, %44, %45, %46, %47, %48 = scf.for %kt = %32 to %k_tiles step %40 iter_args(%49 = %29, %50 = %29, %51 = %29, %52 = %29, %53 = %29, %54 = %29, %55 = %29, %56 = %29) -> (f32, f32, f32, f32, f32, f32, f32, f32) : i32 {
      %slot = arith.remui %kt, %34 : i32
      %57 = arith.divui %kt, %34 : i32
      %phase = arith.remui %57, %34 : i32
      lass_pipe.consumer_wait %bars[%slot], %phase : !lass_pipe.barriers<2>
      lass_wg.fence
      %58, %59, %60, %61, %62, %63, %64, %65 = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 0 acc(%49, %50, %51, %52, %53, %54, %55, %56) : !lass_pipe.ring<2x64x32xf16>, !lass_pipe.ring<2x16x32xf16>, f32
      %66, %67, %68, %69, %70, %71, %72, %73 = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 16 acc(%58, %59, %60, %61, %62, %63, %64, %65) : !lass_pipe.ring<2x64x32xf16>, !lass_pipe.ring<2x16x32xf16>, f32
      lass_wg.commit
      lass_wg.wait {pending = 1 : i64}
      %74 = arith.addi %kt, %40 : i32
      %75 = arith.remui %74, %34 : i32
      %76 = arith.cmpi ult, %32, %kt : i32
      lass_pipe.consumer_release %bars[%75], %76 : !lass_pipe.barriers<2>
      %77 = arith.cmpi ult, %74, %k_tiles : i32
      %78 = arith.remui %74, %34 : i32
      %79 = arith.divui %74, %34 : i32
      %80 = arith.remui %79, %34 : i32
      %81 = arith.muli %74, %31 : i32
      scf.if %39 {
        lass_pipe.producer_acquire %bars[%78], %80, %77 {tx = 5120 : i64} : !lass_pipe.barriers<2>
        lass_pipe.tma_load A %A_b[%m0, %81], %ring_a[%78], %bars, %77 : memref<?x?xf16>, !lass_pipe.ring<2x64x32xf16>, !lass_pipe.barriers<2>
        lass_pipe.tma_load B %B_b[%n0, %81], %ring_b[%78], %bars, %77 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<2x16x32xf16>, !lass_pipe.barriers<2>
      }
      scf.yield %66, %67, %68, %69, %70, %71, %72, %73 : f32, f32, f32, f32, f32, f32, f32, f32
    }
    lass_wg.wait {pending = 0 : i64}
    %82 = arith.shrui %lane, %34 : i32
    %83 = arith.constant 3 : i32
    %84 = arith.andi %lane, %83 : i32
    %85 = arith.muli %84, %34 : i32
    %86 = arith.addi %m0, %warp_m0 : i32
    %87 = arith.addi %86, %82 : i32
    %88 = arith.addi %n0, %warp_n0 : i32
    %89 = arith.addi %88, %85 : i32
    %90 = arith.constant true
    %91 = arith.andi %N, %40 : i32
    %92 = arith.cmpi eq, %91, %32 : i32
    %93 = arith.cmpf one, %beta, %29 : f32
    %94 = arith.addi %m0, %2 : i32
    %95 = arith.cmpi ule, %94, %M : i32
    %96 = arith.addi %n0, %8 : i32
    %97 = arith.cmpi ule, %96, %N : i32
    %98 = arith.andi %95, %97 : i1
    %99 = arith.andi %98, %92 : i1
    scf.if %93 {
      scf.if %99 {
        %100 = arith.muli %87, %N : i32
        %101 = arith.addi %100, %89 : i32
        %102 = arith.mulf %alpha, %41 : f32
        %103 = arith.mulf %alpha, %42 : f32
        %104, %105 = lass_nv.ld_global %D_b[%101] x 2 if %90 : memref<?x?xf32>
        %106 = arith.mulf %beta, %104 : f32
        %107 = arith.addf %102, %106 : f32
        %108 = arith.mulf %beta, %105 : f32
        %109 = arith.addf %103, %108 : f32
        lass_nv.st_global %D_b[%101], %107, %109 if %90 : memref<?x?xf32>, f32, f32
        %110 = arith.addi %87, %19 : i32
        %111 = arith.muli %110, %N : i32
        %112 = arith.addi %111, %89 : i32
        %113 = arith.mulf %alpha, %43 : f32
        %114 = arith.mulf %alpha, %44 : f32
        %115, %116 = lass_nv.ld_global %D_b[%112] x 2 if %90 : memref<?x?xf32>
        %117 = arith.mulf %beta, %115 : f32
        %118 = arith.addf %113, %117 : f32
        %119 = arith.mulf %beta, %116 : f32
        %120 = arith.addf %114, %119 : f32
        lass_nv.st_global %D_b[%112], %118, %120 if %90 : memref<?x?xf32>, f32, f32
        %121 = arith.addi %89, %19 : i32
        %122 = arith.addi %100, %121 : i32
        %123 = arith.mulf %alpha, %45 : f32
        %124 = arith.mulf %alpha, %46 : f32
        %125, %126 = lass_nv.ld_global %D_b[%122] x 2 if %90 : memref<?x?xf32>
        %127 = arith.mulf %beta, %125 : f32
        %128 = arith.addf %123, %127 : f32
        %129 = arith.mulf %beta, %126 : f32
        %130 = arith.addf %124, %129 : f32
        lass_nv.st_global %D_b[%122], %128, %130 if %90 : memref<?x?xf32>, f32, f32
        %131 = arith.addi %111, %121 : i32
        %132 = arith.mulf %alpha, %47 : f32
        %133 = arith.mulf %alpha, %48 : f32
        %134, %135 = lass_nv.ld_global %D_b[%131] x 2 if %90 : memref<?x?xf32>
        %136 = arith.mulf %beta, %134 : f32
        %137 = arith.addf %132, %136 : f32
        %138 = arith.mulf %beta, %135 : f32
        %139 = arith.addf %133, %138 : f32
        lass_nv.st_global %D_b[%131], %137, %139 if %90 : memref<?x?xf32>, f32, f32
      } else {
        %140 = arith.cmpi ult, %87, %M : i32
        %141 = arith.cmpi ult, %89, %N : i32
        %142 = arith.andi %140, %141 : i1
        %143 = arith.addi %89, %40 : i32
        %144 = arith.cmpi ult, %143, %N : i32
        %145 = arith.andi %140, %144 : i1
        %146 = arith.andi %145, %92 : i1
        %147 = arith.xori %146, %90 : i1
        %148 = arith.andi %142, %147 : i1
        %149 = arith.andi %145, %147 : i1
        %150 = arith.muli %87, %N : i32
        %151 = arith.addi %150, %89 : i32
        %152 = arith.addi %151, %40 : i32
        %153 = arith.mulf %alpha, %41 : f32
        %154 = arith.mulf %alpha, %42 : f32
        %155, %156 = lass_nv.ld_global %D_b[%151] x 2 if %146 : memref<?x?xf32>
        %157 = lass_nv.ld_global %D_b[%151] x 1 if %148 : memref<?x?xf32>
        %158 = lass_nv.ld_global %D_b[%152] x 1 if %149 : memref<?x?xf32>
        %159 = arith.select %146, %155, %157 : f32
        %160 = arith.select %146, %156, %158 : f32
        %161 = arith.mulf %beta, %159 : f32
        %162 = arith.addf %153, %161 : f32
        %163 = arith.mulf %beta, %160 : f32
        %164 = arith.addf %154, %163 : f32
        lass_nv.st_global %D_b[%151], %162, %164 if %146 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D_b[%151], %162 if %148 : memref<?x?xf32>, f32
        lass_nv.st_global %D_b[%152], %164 if %149 : memref<?x?xf32>, f32
        %165 = arith.addi %87, %19 : i32
        %166 = arith.cmpi ult, %165, %M : i32
        %167 = arith.andi %166, %141 : i1
        %168 = arith.andi %166, %144 : i1
        %169 = arith.andi %168, %92 : i1
        %170 = arith.xori %169, %90 : i1
        %171 = arith.andi %167, %170 : i1
        %172 = arith.andi %168, %170 : i1
        %173 = arith.muli %165, %N : i32
        %174 = arith.addi %173, %89 : i32
        %175 = arith.addi %174, %40 : i32
        %176 = arith.mulf %alpha, %43 : f32
        %177 = arith.mulf %alpha, %44 : f32
        %178, %179 = lass_nv.ld_global %D_b[%174] x 2 if %169 : memref<?x?xf32>
        %180 = lass_nv.ld_global %D_b[%174] x 1 if %171 : memref<?x?xf32>
        %181 = lass_nv.ld_global %D_b[%175] x 1 if %172 : memref<?x?xf32>
        %182 = arith.select %169, %178, %180 : f32
        %183 = arith.select %169, %179, %181 : f32
        %184 = arith.mulf %beta, %182 : f32
        %185 = arith.addf %176, %184 : f32
        %186 = arith.mulf %beta, %183 : f32
        %187 = arith.addf %177, %186 : f32
        lass_nv.st_global %D_b[%174], %185, %187 if %169 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D_b[%174], %185 if %171 : memref<?x?xf32>, f32
        lass_nv.st_global %D_b[%175], %187 if %172 : memref<?x?xf32>, f32
        %188 = arith.addi %89, %19 : i32
        %189 = arith.cmpi ult, %188, %N : i32
        %190 = arith.andi %140, %189 : i1
        %191 = arith.addi %188, %40 : i32
        %192 = arith.cmpi ult, %191, %N : i32
        %193 = arith.andi %140, %192 : i1
        %194 = arith.andi %193, %92 : i1
        %195 = arith.xori %194, %90 : i1
        %196 = arith.andi %190, %195 : i1
        %197 = arith.andi %193, %195 : i1
        %198 = arith.addi %150, %188 : i32
        %199 = arith.addi %198, %40 : i32
        %200 = arith.mulf %alpha, %45 : f32
        %201 = arith.mulf %alpha, %46 : f32
        %202, %203 = lass_nv.ld_global %D_b[%198] x 2 if %194 : memref<?x?xf32>
        %204 = lass_nv.ld_global %D_b[%198] x 1 if %196 : memref<?x?xf32>
        %205 = lass_nv.ld_global %D_b[%199] x 1 if %197 : memref<?x?xf32>
        %206 = arith.select %194, %202, %204 : f32
        %207 = arith.select %194, %203, %205 : f32
        %208 = arith.mulf %beta, %206 : f32
        %209 = arith.addf %200, %208 : f32
        %210 = arith.mulf %beta, %207 : f32
        %211 = arith.addf %201, %210 : f32
        lass_nv.st_global %D_b[%198], %209, %211 if %194 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D_b[%198], %209 if %196 : memref<?x?xf32>, f32
        lass_nv.st_global %D_b[%199], %211 if %197 : memref<?x?xf32>, f32
        %212 = arith.andi %166, %189 : i1
        %213 = arith.andi %166, %192 : i1
        %214 = arith.andi %213, %92 : i1
        %215 = arith.xori %214, %90 : i1
        %216 = arith.andi %212, %215 : i1
        %217 = arith.andi %213, %215 : i1
        %218 = arith.addi %173, %188 : i32
        %219 = arith.addi %218, %40 : i32
        %220 = arith.mulf %alpha, %47 : f32
        %221 = arith.mulf %alpha, %48 : f32
        %222, %223 = lass_nv.ld_global %D_b[%218] x 2 if %214 : memref<?x?xf32>
        %224 = lass_nv.ld_global %D_b[%218] x 1 if %216 : memref<?x?xf32>
        %225 = lass_nv.ld_global %D_b[%219] x 1 if %217 : memref<?x?xf32>
        %226 = arith.select %214, %222, %224 : f32
        %227 = arith.select %214, %223, %225 : f32
        %228 = arith.mulf %beta, %226 : f32
        %229 = arith.addf %220, %228 : f32
        %230 = arith.mulf %beta, %227 : f32
        %231 = arith.addf %221, %230 : f32
        lass_nv.st_global %D_b[%218], %229, %231 if %214 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D_b[%218], %229 if %216 : memref<?x?xf32>, f32
        lass_nv.st_global %D_b[%219], %231 if %217 : memref<?x?xf32>, f32
      }
    } else {
      scf.if %99 {
        %232 = arith.muli %87, %N : i32
        %233 = arith.addi %232, %89 : i32
        %234 = arith.mulf %alpha, %41 : f32
        %235 = arith.mulf %alpha, %42 : f32
        lass_nv.st_global %D_b[%233], %234, %235 if %90 : memref<?x?xf32>, f32, f32
        %236 = arith.addi %87, %19 : i32
        %237 = arith.muli %236, %N : i32
        %238 = arith.addi %237, %89 : i32
        %239 = arith.mulf %alpha, %43 : f32
        %240 = arith.mulf %alpha, %44 : f32
        lass_nv.st_global %D_b[%238], %239, %240 if %90 : memref<?x?xf32>, f32, f32
        %241 = arith.addi %89, %19 : i32
        %242 = arith.addi %232, %241 : i32
        %243 = arith.mulf %alpha, %45 : f32
        %244 = arith.mulf %alpha, %46 : f32
        lass_nv.st_global %D_b[%242], %243, %244 if %90 : memref<?x?xf32>, f32, f32
        %245 = arith.addi %237, %241 : i32
        %246 = arith.mulf %alpha, %47 : f32
        %247 = arith.mulf %alpha, %48 : f32
        lass_nv.st_global %D_b[%245], %246, %247 if %90 : memref<?x?xf32>, f32, f32
      } else {
        %248 = arith.cmpi ult, %87, %M : i32
        %249 = arith.cmpi ult, %89, %N : i32
        %250 = arith.andi %248, %249 : i1
        %251 = arith.addi %89, %40 : i32
        %252 = arith.cmpi ult, %251, %N : i32
        %253 = arith.andi %248, %252 : i1
        %254 = arith.andi %253, %92 : i1
        %255 = arith.xori %254, %90 : i1
        %256 = arith.andi %250, %255 : i1
        %257 = arith.andi %253, %255 : i1
        %258 = arith.muli %87, %N : i32
        %259 = arith.addi %258, %89 : i32
        %260 = arith.addi %259, %40 : i32
        %261 = arith.mulf %alpha, %41 : f32
        %262 = arith.mulf %alpha, %42 : f32
        lass_nv.st_global %D_b[%259], %261, %262 if %254 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D_b[%259], %261 if %256 : memref<?x?xf32>, f32
        lass_nv.st_global %D_b[%260], %262 if %257 : memref<?x?xf32>, f32
        %263 = arith.addi %87, %19 : i32
        %264 = arith.cmpi ult, %263, %M : i32
        %265 = arith.andi %264, %249 : i1
        %266 = arith.andi %264, %252 : i1
        %267 = arith.andi %266, %92 : i1
        %268 = arith.xori %267, %90 : i1
        %269 = arith.andi %265, %268 : i1
        %270 = arith.andi %266, %268 : i1
        %271 = arith.muli %263, %N : i32
        %272 = arith.addi %271, %89 : i32
        %273 = arith.addi %272, %40 : i32
        %274 = arith.mulf %alpha, %43 : f32
        %275 = arith.mulf %alpha, %44 : f32
        lass_nv.st_global %D_b[%272], %274, %275 if %267 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D_b[%272], %274 if %269 : memref<?x?xf32>, f32
        lass_nv.st_global %D_b[%273], %275 if %270 : memref<?x?xf32>, f32
        %276 = arith.addi %89, %19 : i32
        %277 = arith.cmpi ult, %276, %N : i32
        %278 = arith.andi %248, %277 : i1
        %279 = arith.addi %276, %40 : i32
        %280 = arith.cmpi ult, %279, %N : i32
        %281 = arith.andi %248, %280 : i1
        %282 = arith.andi %281, %92 : i1
        %283 = arith.xori %282, %90 : i1
        %284 = arith.andi %278, %283 : i1
        %285 = arith.andi %281, %283 : i1
        %286 = arith.addi %258, %276 : i32
        %287 = arith.addi %286, %40 : i32
        %288 = arith.mulf %alpha, %45 : f32
        %289 = arith.mulf %alpha, %46 : f32
        lass_nv.st_global %D_b[%286], %288, %289 if %282 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D_b[%286], %288 if %284 : memref<?x?xf32>, f32
        lass_nv.st_global %D_b[%287], %289 if %285 : memref<?x?xf32>, f32
        %290 = arith.andi %264, %277 : i1
        %291 = arith.andi %264, %280 : i1
        %292 = arith.andi %291, %92 : i1
        %293 = arith.xori %292, %90 : i1
        %294 = arith.andi %290, %293 : i1
        %295 = arith.andi %291, %293 : i1
        %296 = arith.addi %271, %276 : i32
        %297 = arith.addi %296, %40 : i32
        %298 = arith.mulf %alpha, %47 : f32
        %299 = arith.mulf %alpha, %48 : f32
        lass_nv.st_global %D_b[%296], %298, %299 if %292 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D_b[%296], %298 if %294 : memref<?x?xf32>, f32
        lass_nv.st_global %D_b[%297], %299 if %295 : memref<?x?xf32>, f32
      }
    }
    func.return
  }
}
