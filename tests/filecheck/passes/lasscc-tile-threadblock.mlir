// lasscc-tile-threadblock (passes/tile_threadblock.py): lass.gemm -> threadblock-level lass_tb kernel.
//
// Positive cases and leave-alone cases, through the lasscc driver and through xdsl-opt's entry
// point (the pass alone, then cse/dce as the driver does after every pass):
// RUN: %lasscc opt -p lasscc-tile-threadblock %s -o %t.once.mlir
// RUN: filecheck %s --input-file %t.once.mlir
// RUN: xdsl-opt -p lasscc-tile-threadblock %s | xdsl-opt -p cse,dce | filecheck %s
//
// IR already past this pass is left alone: a second run changes nothing.
// RUN: %lasscc opt -p lasscc-tile-threadblock %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
//
// Rejected, each with the place of the offending op:
// RUN: not %lasscc opt -p lasscc-tile-threadblock --warp 48x32x32 %s 2>&1 | filecheck %s --check-prefix=ERR-WARP
// RUN: not %lasscc opt -p lasscc-tile-threadblock --stages 8 --threadblock 128x128x64 --warp 64x64x64 %s 2>&1 | filecheck %s --check-prefix=ERR-SMEM
// RUN: not %lasscc opt -p lasscc-tile-threadblock %S/Inputs/lasscc-tile-threadblock-other-layout.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-LAYOUT
// RUN: not %lasscc opt -p lasscc-tile-threadblock %S/Inputs/lasscc-tile-threadblock-f64-ab.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-F64
// RUN: not %lasscc opt -p lasscc-tile-threadblock %S/Inputs/lasscc-tile-threadblock-bf16-f16-d.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-DTYPE
// RUN: not %lasscc opt -p lasscc-tile-threadblock %S/Inputs/lasscc-tile-threadblock-bad-config-key.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-KEY
// RUN: not %lasscc opt -p lasscc-tile-threadblock %S/Inputs/lasscc-tile-threadblock-not-on-args.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-ARGS
// RUN: not %lasscc opt -p lasscc-tile-threadblock %S/Inputs/lasscc-tile-threadblock-extra-op.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-EXTRA
// RUN: not %lasscc opt -p lasscc-tile-threadblock %S/Inputs/lasscc-tile-threadblock-two-gemms.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-TWO

// ---- positive: f32 D, partial config (the pass writes the whole validated config; keys added
// after raster are allowed by the checks) ----

// CHECK-LABEL: func.func @gemm(
// CHECK-SAME:    %A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32)
// CHECK-SAME:    attributes {lass.kernel = #lass.kernel<ab = f16, acc = f32, d = f32, layouts = [row, col, row], alpha = 1.0, beta = 0.5, config = {threadblock = [64, 64, 32], warp = [32, 32, 32], instruction = [16, 8, 16], stages = 3, raster = 4{{(, [a-z_]+ = [0-9]+)*}}}>} {
// CHECK-NEXT:    %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64 : i64, 64 : i64], raster = 4 : i64}
// CHECK-NEXT:    [[ACC0:%[0-9]+]] = lass_tb.zero_acc : !lass_tb.acc<64x64xf32>
// CHECK-NEXT:    [[C0:%[0-9]+]] = arith.constant 0 : i32
// CHECK-NEXT:    [[BK:%[0-9]+]] = arith.constant 32 : i32
// CHECK-NEXT:    [[R:%[0-9]+]] = scf.for %k0 = [[C0]] to %K step [[BK]] iter_args(%acc = [[ACC0]]) -> (!lass_tb.acc<64x64xf32>) : i32 {
// CHECK-NEXT:      [[TA:%[0-9]+]] = lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16> -> !lass_tb.tile<64x32xf16>
// CHECK-NEXT:      [[TB:%[0-9]+]] = lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<64x32xf16>
// CHECK-NEXT:      [[ACC1:%[0-9]+]] = lass_tb.mma [[TA]], [[TB]], %acc : !lass_tb.tile<64x32xf16>, !lass_tb.tile<64x32xf16>, !lass_tb.acc<64x64xf32>
// CHECK-NEXT:      scf.yield [[ACC1]] : !lass_tb.acc<64x64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    lass_tb.epilogue [[R]], %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x64xf32>, memref<?x?xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.5 : f32, config = {threadblock = [64, 64, 32], warp = [32, 32, 32], raster = 4}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}

// ---- positive: f16 D, no alpha/beta/config on the op (defaults: alpha 1, beta 0, 128x128x32) ----

// CHECK-LABEL: func.func @gemm_f16_defaults(
// CHECK-SAME:    %A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf16>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32)
// CHECK-SAME:    attributes {lass.kernel = #lass.kernel<ab = f16, acc = f32, d = f16, layouts = [row, col, row], alpha = 1.0, beta = 0.0, config = {threadblock = [128, 128, 32], warp = [64, 64, 32], instruction = [16, 8, 16], stages = 3, raster = 8{{(, [a-z_]+ = [0-9]+)*}}}>} {
// CHECK-NEXT:    %m0, %n0 = lass_tb.block_tile %M, %N {tile = [128 : i64, 128 : i64], raster = 8 : i64}
// CHECK-NEXT:    {{%[0-9]+}} = lass_tb.zero_acc : !lass_tb.acc<128x128xf32>
// CHECK:         scf.for %k0 = {{%[0-9]+}} to %K step {{%[0-9]+}} iter_args
// CHECK-NEXT:      lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xf16> -> !lass_tb.tile<128x32xf16>
// CHECK-NEXT:      lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xf16, strided<[1, ?]>> -> !lass_tb.tile<128x32xf16>
// CHECK-NEXT:      lass_tb.mma
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    lass_tb.epilogue {{%[0-9]+}}, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<128x128xf32>, memref<?x?xf16>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @gemm_f16_defaults(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf16>) {
  lass.gemm ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf16>)
  func.return
}

// ---- positive: the other element types.  tf32 (f32 A and B): the default tiling has BK = 16
// (64-byte rows) and the m16n8k8 instruction; int8: BK = 64, m16n8k32, an i32 accumulator;
// f16 accumulation (acc = f16): an f16 accumulator, acc = f16 in #lass.kernel ----

// CHECK-LABEL: func.func @gemm_tf32(
// CHECK-SAME:    attributes {lass.kernel = #lass.kernel<ab = f32, acc = f32, d = f32, layouts = [row, col, row], alpha = 1.0, beta = 0.0,
// CHECK-SAME:    config = {threadblock = [128, 128, 16], warp = [64, 64, 16], instruction = [16, 8, 8], {{.*}}}>} {
// CHECK:         lass_tb.zero_acc : !lass_tb.acc<128x128xf32>
// CHECK:           lass_tb.mma {{.*}} : !lass_tb.tile<128x16xf32>, !lass_tb.tile<128x16xf32>, !lass_tb.acc<128x128xf32>
func.func @gemm_tf32(%a: memref<?x?xf32>, %b: memref<?x?xf32, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm ins(%a, %b : memref<?x?xf32>, memref<?x?xf32, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}

// CHECK-LABEL: func.func @gemm_int8(
// CHECK-SAME:    attributes {lass.kernel = #lass.kernel<ab = i8, acc = i32, d = i32, layouts = [row, col, row], alpha = 1.0, beta = 0.0,
// CHECK-SAME:    config = {threadblock = [128, 128, 64], warp = [64, 64, 64], instruction = [16, 8, 32], stages = 4, {{.*}}}>} {
// CHECK:         lass_tb.zero_acc : !lass_tb.acc<128x128xi32>
// CHECK:           lass_tb.mma {{.*}} : !lass_tb.tile<128x64xi8>, !lass_tb.tile<128x64xi8>, !lass_tb.acc<128x128xi32>
// CHECK:         lass_tb.epilogue {{.*}} : !lass_tb.acc<128x128xi32>, memref<?x?xi32>
func.func @gemm_int8(%a: memref<?x?xi8>, %b: memref<?x?xi8, strided<[1, ?]>>, %d: memref<?x?xi32>) {
  lass.gemm {config = {stages = 4}} ins(%a, %b : memref<?x?xi8>, memref<?x?xi8, strided<[1, ?]>>) outs(%d : memref<?x?xi32>)
  func.return
}

// CHECK-LABEL: func.func @gemm_f16_acc(
// CHECK-SAME:    attributes {lass.kernel = #lass.kernel<ab = f16, acc = f16, d = f32, layouts = [row, col, row], {{.*}}>} {
// CHECK:         lass_tb.zero_acc : !lass_tb.acc<64x64xf16>
// CHECK:         lass_tb.epilogue {{.*}} : !lass_tb.acc<64x64xf16>, memref<?x?xf32>
func.func @gemm_f16_acc(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {acc = f16, config = {threadblock = [64, 64, 32], warp = [32, 32, 32]}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}

// ---- positive: bf16 A, B and D ----

// CHECK-LABEL: func.func @gemm_bf16(
// CHECK-SAME:    %A: memref<?x?xbf16>, %B: memref<?x?xbf16, strided<[1, ?]>>, %D: memref<?x?xbf16>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32)
// CHECK-SAME:    attributes {lass.kernel = #lass.kernel<ab = bf16, acc = f32, d = bf16, layouts = [row, col, row], {{.*}}>} {
// CHECK:           lass_tb.load_tile A %A[%m0, %k0] : memref<?x?xbf16> -> !lass_tb.tile<64x32xbf16>
// CHECK-NEXT:      lass_tb.load_tile B %B[%n0, %k0] : memref<?x?xbf16, strided<[1, ?]>> -> !lass_tb.tile<64x32xbf16>
// CHECK:         lass_tb.epilogue {{%[0-9]+}}, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x64xf32>, memref<?x?xbf16>
func.func @gemm_bf16(%a: memref<?x?xbf16>, %b: memref<?x?xbf16, strided<[1, ?]>>, %d: memref<?x?xbf16>) {
  lass.gemm {config = {threadblock = [64, 64, 32], warp = [32, 32, 32]}}
      ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16, strided<[1, ?]>>) outs(%d : memref<?x?xbf16>)
  func.return
}

// ---- left alone: a function without lass.gemm comes out verbatim ----

// CHECK-LABEL: func.func @no_gemm(%x: i32, %y: i32) -> i32 {
// CHECK-NEXT:    %s = arith.addi %x, %y : i32
// CHECK-NEXT:    func.return %s : i32
// CHECK-NEXT:  }
// CHECK-NOT:   lass.gemm
func.func @no_gemm(%x: i32, %y: i32) -> i32 {
  %s = arith.addi %x, %y : i32
  func.return %s : i32
}

// ---- rejected: a config GemmConfig.validate refuses (--warp/--stages rewrite the ops' config) ----
// The options are to blame, not the file: the message names them (KernelFacts.validate).

// ERR-WARP: {{^}}option --warp: config: expected warp tile 48x32 to divide threadblock tile 64x64{{$}}
// ERR-SMEM: {{^}}option --threadblock/--warp/--stages: config: stages=8 needs 256 KB of shared memory; sm_80 allows 163 KB; stages <= 5 fit{{$}}

// ---- rejected: inputs under Inputs/ ----

// ERR-LAYOUT: {{^.*}}Inputs/lasscc-tile-threadblock-other-layout.mlir.in:4:3: error: expected B row-major (identity layout) or column-major (strided<[1, ?]>), got strided<[?, 2]>{{$}}
// ERR-F64: {{^.*}}Inputs/lasscc-tile-threadblock-f64-ab.mlir.in:3:3: error: expected f16, bf16, f32 (tf32) or i8 A and B, got f64{{$}}
// ERR-I8-D: {{^.*}}Inputs/lasscc-tile-threadblock-i8-f16-d.mlir.in:3:3: error: expected i32 or f32 D for i8 A and B with i32 accumulation, got f16{{$}}
// ERR-DTYPE: {{^.*}}Inputs/lasscc-tile-threadblock-bf16-f16-d.mlir.in:3:3: error: expected f32 or bf16 D for bf16 A and B with f32 accumulation, got f16{{$}}
// ERR-KEY: {{^.*}}Inputs/lasscc-tile-threadblock-bad-config-key.mlir.in:3:3: error: config key 'stagez': unknown; expected one of threadblock, warp, instruction, stages, raster{{(, [a-z_]+)*$}}
// ERR-ARGS: {{^.*}}Inputs/lasscc-tile-threadblock-not-on-args.mlir.in:3:3: error: expected lass.gemm on the function's three arguments (A, B, D) in order{{$}}
// ERR-EXTRA: {{^.*}}Inputs/lasscc-tile-threadblock-extra-op.mlir.in:4:3: error: expected only lass.gemm and func.return in the function, got 'arith.constant'{{$}}
// ERR-TWO: {{^.*}}Inputs/lasscc-tile-threadblock-two-gemms.mlir.in:4:3: error: expected one lass.gemm per function, got 2{{$}}

// Rejected element types of issue "General GEMM" (element types):
// RUN: not %lasscc opt -p lasscc-tile-threadblock %S/Inputs/lasscc-tile-threadblock-i8-f16-d.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-I8-D
