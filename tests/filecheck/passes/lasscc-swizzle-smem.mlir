// lasscc-swizzle-smem (passes/swizzle_smem.py): logical ring addressing -> physical, XOR-swizzled
// shared-memory byte addresses; fragment loads -> ldmatrix.x4; tile copies -> 16-byte accesses.
// Config: threadblock 64x32x32, warp 32x16x32: 128 threads; K-major tile rows of 32 f16 = 64 bytes
// = 4 chunks of 16 bytes.  A tile 64x32: 4096 bytes, 256 chunks, 2 per thread; B tile 32x32: 2048
// bytes, 128 chunks, 1 per thread.
//
// RUN: %lasscc opt -p lasscc-swizzle-smem %s -o %t.once.mlir
// RUN: filecheck %s --input-file %t.once.mlir
// RUN: xdsl-opt -p lasscc-swizzle-smem %s | xdsl-opt -p cse,dce | filecheck %s
// With swizzle=false (through xdsl-opt: `lasscc opt -p` takes no pass options) the layout stays logical:
// RUN: xdsl-opt -p 'lasscc-swizzle-smem{swizzle=false}' %s | xdsl-opt -p cse,dce | filecheck %s --check-prefix=NOSWZ
//
// IR already past this pass is left alone: a second run changes nothing.
// RUN: %lasscc opt -p lasscc-swizzle-smem %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
//
// Rejected:
// RUN: not %lasscc opt -p lasscc-swizzle-smem %S/Inputs/lasscc-swizzle-smem-not-warp-level.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-MMA

// ---- positive: cp.async copies, a group, a barrier, fragment loads ----

// CHECK-LABEL: func.func @multistage(
// CHECK-NEXT:    %tid = lass_nv.thread_id
//                per-lane ldmatrix source rows (lasscc.layout.ldmatrix_a_lane_src / ldmatrix_b_lane_src):
//                A: row (lane & 7) + 8 ((lane >> 3) & 1), k 8 (lane >> 4); B: row (lane & 7) + 8 (lane >> 4),
//                k 8 ((lane >> 3) & 1)  (CSE shares the two equal terms, hence the names)
// CHECK-NEXT:    [[C31:%[0-9]+]] = arith.constant 31 : i32
// CHECK-NEXT:    [[LANE:%[0-9]+]] = arith.andi %tid, [[C31]] : i32
// CHECK-NEXT:    [[C7:%[0-9]+]] = arith.constant 7 : i32
// CHECK-NEXT:    [[L7:%[0-9]+]] = arith.andi [[LANE]], [[C7]] : i32
// CHECK-NEXT:    [[C3:%[0-9]+]] = arith.constant 3 : i32
// CHECK-NEXT:    [[L3:%[0-9]+]] = arith.shrui [[LANE]], [[C3]] : i32
// CHECK-NEXT:    [[C1:%[0-9]+]] = arith.constant 1 : i32
// CHECK-NEXT:    [[L31:%[0-9]+]] = arith.andi [[L3]], [[C1]] : i32
// CHECK-NEXT:    [[C8:%[0-9]+]] = arith.constant 8 : i32
// CHECK-NEXT:    %lds_b_k = arith.muli [[L31]], [[C8]] : i32
// CHECK-NEXT:    %lds_a_row = arith.addi [[L7]], %lds_b_k : i32
// CHECK-NEXT:    [[C4:%[0-9]+]] = arith.constant 4 : i32
// CHECK-NEXT:    [[L4:%[0-9]+]] = arith.shrui [[LANE]], [[C4]] : i32
// CHECK-NEXT:    %lds_a_k = arith.muli [[L4]], [[C8]] : i32
// CHECK-NEXT:    %lds_b_row = arith.addi [[L7]], %lds_a_k : i32
//                copy A: chunk (row, k) = (tid / 4 + 32 it, 8 (tid % 4)) for it = 0, 1
// CHECK-NEXT:    [[R0:%[0-9]+]] = arith.divui %tid, [[C4]] : i32
// CHECK-NEXT:    [[KQ:%[0-9]+]] = arith.remui %tid, [[C4]] : i32
// CHECK-NEXT:    [[K:%[0-9]+]] = arith.muli [[KQ]], [[C8]] : i32
// CHECK-NEXT:    [[C32:%[0-9]+]] = arith.constant 32 : i32
// CHECK-NEXT:    [[R1:%[0-9]+]] = arith.addi [[R0]], [[C32]] : i32
//                  chunk 0: global element (m0 + r) * K + k0 + k; shared swizzle(64 r + 2 k) + 4096 slot
//                  (ring A at offset 0); predicate: the copy's, k0 + k < K, m0 + r < M
// CHECK-NEXT:    [[GR0:%[0-9]+]] = arith.addi %m0, [[R0]] : i32
// CHECK-NEXT:    [[GRK0:%[0-9]+]] = arith.muli [[GR0]], %K : i32
// CHECK-NEXT:    [[GK:%[0-9]+]] = arith.addi %k0, [[K]] : i32
// CHECK-NEXT:    [[G0:%[0-9]+]] = arith.addi [[GRK0]], [[GK]] : i32
// CHECK-NEXT:    [[C64:%[0-9]+]] = arith.constant 64 : i32
// CHECK-NEXT:    [[SR0:%[0-9]+]] = arith.muli [[R0]], [[C64]] : i32
// CHECK-NEXT:    [[C2:%[0-9]+]] = arith.constant 2 : i32
// CHECK-NEXT:    [[SK:%[0-9]+]] = arith.muli [[K]], [[C2]] : i32
// CHECK-NEXT:    [[L0:%[0-9]+]] = arith.addi [[SR0]], [[SK]] : i32
// CHECK-NEXT:    [[P0:%[0-9]+]] = lass_smem.swizzle [[L0]] {bits = 3 : i64, base = 4 : i64, shift = 3 : i64}
// CHECK-NEXT:    [[C4096:%[0-9]+]] = arith.constant 4096 : i32
// CHECK-NEXT:    [[SLOTA:%[0-9]+]] = arith.muli %slot, [[C4096]] : i32
// CHECK-NEXT:    [[S0:%[0-9]+]] = arith.addi [[P0]], [[SLOTA]] : i32
// CHECK-NEXT:    [[ROK0:%[0-9]+]] = arith.cmpi ult, [[GR0]], %M : i32
// CHECK-NEXT:    [[KOK:%[0-9]+]] = arith.cmpi ult, [[GK]], %K : i32
// CHECK-NEXT:    [[PK:%[0-9]+]] = arith.andi %pred, [[KOK]] : i1
// CHECK-NEXT:    [[PRED0:%[0-9]+]] = arith.andi [[PK]], [[ROK0]] : i1
// CHECK-NEXT:    lass_nv.cp_async %A{{\[}}[[G0]]{{\]}}, [[S0]], [[PRED0]] {bytes = 16 : i64} : memref<?x?xf16>
//                  chunk 1: row r0 + 32, same k column
// CHECK-NEXT:    [[GR1:%[0-9]+]] = arith.addi %m0, [[R1]] : i32
// CHECK-NEXT:    [[GRK1:%[0-9]+]] = arith.muli [[GR1]], %K : i32
// CHECK-NEXT:    [[G1:%[0-9]+]] = arith.addi [[GRK1]], [[GK]] : i32
//                  32 rows further = 2048 bytes, a multiple of the swizzle's 1024-byte period: chunk 0's
//                  swizzled address plus a constant (lasscc.layout.swizzle_offset_split; the pass emits
//                  the swizzle again, the CSE after it reuses chunk 0's)
// CHECK-NEXT:    [[C2048:%[0-9]+]] = arith.constant 2048 : i32
// CHECK-NEXT:    [[S1:%[0-9]+]] = arith.addi [[S0]], [[C2048]] : i32
// CHECK-NEXT:    [[ROK1:%[0-9]+]] = arith.cmpi ult, [[GR1]], %M : i32
// CHECK-NEXT:    [[PRED1:%[0-9]+]] = arith.andi [[PK]], [[ROK1]] : i1
// CHECK-NEXT:    lass_nv.cp_async %A{{\[}}[[G1]]{{\]}}, [[S1]], [[PRED1]] {bytes = 16 : i64} : memref<?x?xf16>
//                copy B: one chunk per thread; rows bounded by N; ring B at 12288, 2048 bytes a slot
// CHECK-NOT:     lass_nv.cp_async %A
// CHECK:         [[SLOTB:%[0-9]+]] = arith.muli %slot, {{%[0-9]+}} : i32
// CHECK-NEXT:    [[C12288:%[0-9]+]] = arith.constant 12288 : i32
// CHECK-NEXT:    [[OB:%[0-9]+]] = arith.addi [[SLOTB]], [[C12288]] : i32
// CHECK-NEXT:    [[DB:%[0-9]+]] = arith.addi {{%[0-9]+}}, [[OB]] : i32
// CHECK-NEXT:    [[BROK:%[0-9]+]] = arith.cmpi ult, {{%[0-9]+}}, %N : i32
// CHECK:         lass_nv.cp_async %B[{{%[0-9]+}}], [[DB]], {{%[0-9]+}} {bytes = 16 : i64} : memref<?x?xf16, strided<[1, ?]>>
//                commit / wait / barrier
// CHECK-NEXT:    lass_nv.cp_async_commit
// CHECK-NEXT:    lass_nv.cp_async_wait {pending = 1 : i64}
// CHECK-NEXT:    lass_nv.bar_sync
//                load_frag_a -> ldmatrix.x4 at swizzle(64 (row + lds_a_row) + 2 (k + lds_a_k)) + 4096 slot
// CHECK-NEXT:    [[AR:%[0-9]+]] = arith.addi %row, %lds_a_row : i32
// CHECK-NEXT:    [[AK:%[0-9]+]] = arith.addi %kf, %lds_a_k : i32
// CHECK-NEXT:    [[ARB:%[0-9]+]] = arith.muli [[AR]], [[C64]] : i32
// CHECK-NEXT:    [[AKB:%[0-9]+]] = arith.muli [[AK]], [[C2]] : i32
// CHECK-NEXT:    [[AL:%[0-9]+]] = arith.addi [[ARB]], [[AKB]] : i32
// CHECK-NEXT:    [[AP:%[0-9]+]] = lass_smem.swizzle [[AL]] {bits = 3 : i64, base = 4 : i64, shift = 3 : i64}
// CHECK-NEXT:    [[AADDR:%[0-9]+]] = arith.addi [[AP]], [[SLOTA]] : i32
// CHECK-NEXT:    %a0, %a1, %a2, %a3 = lass_nv.ldmatrix_x4 [[AADDR]]
//                load_frag_b -> ldmatrix.x4 at swizzle(64 (n + lds_b_row) + 2 (k + lds_b_k)) + 2048 slot + 12288
// CHECK-NEXT:    [[BR:%[0-9]+]] = arith.addi %row, %lds_b_row : i32
// CHECK-NEXT:    [[BK:%[0-9]+]] = arith.addi %kf, %lds_b_k : i32
// CHECK-NEXT:    [[BRB:%[0-9]+]] = arith.muli [[BR]], [[C64]] : i32
// CHECK-NEXT:    [[BKB:%[0-9]+]] = arith.muli [[BK]], [[C2]] : i32
// CHECK-NEXT:    [[BL:%[0-9]+]] = arith.addi [[BRB]], [[BKB]] : i32
// CHECK-NEXT:    [[BP:%[0-9]+]] = lass_smem.swizzle [[BL]] {bits = 3 : i64, base = 4 : i64, shift = 3 : i64}
// CHECK-NEXT:    [[BADDR:%[0-9]+]] = arith.addi [[BP]], {{%[0-9]+}} : i32
// CHECK-NEXT:    %b0, %b1, %b2, %b3 = lass_nv.ldmatrix_x4 [[BADDR]]
// CHECK-NEXT:    func.return %a0, %b3 : i32, i32
// CHECK-NEXT:  }

// Without the swizzle: the same accesses, addresses = logical offset + slot offset (+ ring offset).
// NOSWZ-LABEL: func.func @multistage(
// NOSWZ-NOT:     lass_smem.swizzle
// NOSWZ-COUNT-2: lass_nv.cp_async %A[{{%[0-9]+}}], {{%[0-9]+}}, {{%[0-9]+}} {bytes = 16 : i64} : memref<?x?xf16>
// NOSWZ-NOT:     lass_smem.swizzle
// NOSWZ:         lass_nv.cp_async %B[{{%[0-9]+}}], {{%[0-9]+}}, {{%[0-9]+}} {bytes = 16 : i64} : memref<?x?xf16, strided<[1, ?]>>
// NOSWZ-NEXT:    lass_nv.cp_async_commit
// NOSWZ-NEXT:    lass_nv.cp_async_wait {pending = 1 : i64}
// NOSWZ-NEXT:    lass_nv.bar_sync
// NOSWZ-NEXT:    [[AR:%[0-9]+]] = arith.addi %row, %lds_a_row : i32
// NOSWZ-NEXT:    [[AK:%[0-9]+]] = arith.addi %kf, %lds_a_k : i32
// NOSWZ-NEXT:    [[ARB:%[0-9]+]] = arith.muli [[AR]], {{%[0-9]+}} : i32
// NOSWZ-NEXT:    [[AKB:%[0-9]+]] = arith.muli [[AK]], {{%[0-9]+}} : i32
// NOSWZ-NEXT:    [[AL:%[0-9]+]] = arith.addi [[ARB]], [[AKB]] : i32
// NOSWZ-NEXT:    [[AADDR:%[0-9]+]] = arith.addi [[AL]], {{%[0-9]+}} : i32
// NOSWZ-NEXT:    %a0, %a1, %a2, %a3 = lass_nv.ldmatrix_x4 [[AADDR]]
// NOSWZ-NOT:     lass_smem.swizzle
// NOSWZ:         lass_nv.ldmatrix_x4
// NOSWZ-NEXT:    func.return %a0, %b3 : i32, i32
// NOSWZ-LABEL: func.func @double_buffer(
// NOSWZ-NOT:     lass_smem.swizzle
// NOSWZ:         lass_nv.st_shared_v4
// NOSWZ-NOT:     lass_smem.swizzle
// NOSWZ:         lass_nv.st_shared_v4
// NOSWZ-NEXT:    lass_nv.bar_sync
// NOSWZ-LABEL: func.func @not_a_kernel(
func.func @multistage(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32,
                      %m0: i32, %n0: i32, %k0: i32, %slot: i32, %row: i32, %kf: i32, %pred: i1) -> (i32, i32)
    attributes {lass.kernel = #lass.kernel<config = {threadblock = [64, 32, 32], warp = [32, 16, 32], instruction = [16, 8, 16], stages = 3, raster = 2}>} {
  %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x64x32xf16>
  %ring_b = lass_pipe.ring {offset = 12288 : i64} : !lass_pipe.ring<3x32x32xf16>
  lass_pipe.copy_async A %A[%m0, %k0], %ring_a[%slot], %pred : memref<?x?xf16>, !lass_pipe.ring<3x64x32xf16>
  lass_pipe.copy_async B %B[%n0, %k0], %ring_b[%slot], %pred : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<3x32x32xf16>
  lass_pipe.commit
  lass_pipe.wait {pending = 1 : i64}
  lass_pipe.barrier
  %a0, %a1, %a2, %a3 = lass_warp.load_frag_a %ring_a[%slot], %row, %kf : !lass_pipe.ring<3x64x32xf16>
  %b0, %b1, %b2, %b3 = lass_warp.load_frag_b %ring_b[%slot], %row, %kf : !lass_pipe.ring<3x32x32xf16>
  func.return %a0, %b3 : i32, i32
}

// ---- positive: fragment loads at constant offsets (as lasscc-warp-mma writes them: warp row + 16 mi,
// k-group 16 g).  The constants leave the swizzle (lasscc.layout.swizzle_offset_split): k 16 = 32 bytes is
// an XOR of swizzle(32) = 32 on the lane's swizzled offset, row + 16 = 1024 bytes is added after it ----

// CHECK-LABEL: func.func @split_offsets(
// CHECK:         [[AR:%[0-9]+]] = arith.addi %row, %lds_a_row : i32
// CHECK-NEXT:    [[C64:%[0-9]+]] = arith.constant 64 : i32
// CHECK-NEXT:    [[ARB:%[0-9]+]] = arith.muli [[AR]], [[C64]] : i32
// CHECK-NEXT:    [[C2:%[0-9]+]] = arith.constant 2 : i32
// CHECK-NEXT:    [[AKB:%[0-9]+]] = arith.muli %lds_a_k, [[C2]] : i32
// CHECK-NEXT:    [[AL:%[0-9]+]] = arith.addi [[ARB]], [[AKB]] : i32
// CHECK-NEXT:    [[AP:%[0-9]+]] = lass_smem.swizzle [[AL]] {bits = 3 : i64, base = 4 : i64, shift = 3 : i64}
// CHECK-NEXT:    [[C32:%[0-9]+]] = arith.constant 32 : i32
// CHECK-NEXT:    [[AX:%[0-9]+]] = arith.xori [[AP]], [[C32]] : i32
// CHECK-NEXT:    [[C4096:%[0-9]+]] = arith.constant 4096 : i32
// CHECK-NEXT:    [[SLOTA:%[0-9]+]] = arith.muli %slot, [[C4096]] : i32
// CHECK-NEXT:    [[AS:%[0-9]+]] = arith.addi [[AX]], [[SLOTA]] : i32
// CHECK-NEXT:    [[C1024:%[0-9]+]] = arith.constant 1024 : i32
// CHECK-NEXT:    [[AADDR:%[0-9]+]] = arith.addi [[AS]], [[C1024]] : i32
// CHECK-NEXT:    %a0, %a1, %a2, %a3 = lass_nv.ldmatrix_x4 [[AADDR]]
//                a k that is not a constant keeps the whole offset inside the swizzle
// CHECK:         [[VK:%[0-9]+]] = arith.addi %kf, %lds_a_k : i32
// CHECK:         lass_smem.swizzle
// CHECK-NOT:     arith.xori
// CHECK:         %c0, %c1, %c2, %c3 = lass_nv.ldmatrix_x4
func.func @split_offsets(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32,
                         %slot: i32, %row: i32, %kf: i32) -> (i32, i32)
    attributes {lass.kernel = #lass.kernel<config = {threadblock = [64, 32, 32], warp = [32, 16, 32], instruction = [16, 8, 16], stages = 3, raster = 2}>} {
  %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x64x32xf16>
  %c16 = arith.constant 16 : i32
  %r16 = arith.addi %row, %c16 : i32
  %a0, %a1, %a2, %a3 = lass_warp.load_frag_a %ring_a[%slot], %r16, %c16 : !lass_pipe.ring<3x64x32xf16>
  %c0, %c1, %c2, %c3 = lass_warp.load_frag_a %ring_a[%slot], %r16, %kf : !lass_pipe.ring<3x64x32xf16>
  func.return %a0, %c0 : i32, i32
}

// ---- positive: stages = 2, a tile through registers: 16-byte global loads, then 16-byte shared
// stores at the swizzled addresses of the same chunks ----

// CHECK-LABEL: func.func @double_buffer(
// CHECK-NEXT:    %tid = lass_nv.thread_id
// CHECK-NOT:     lass_pipe.
// CHECK:         [[G0:%[0-9]+]], [[G1:%[0-9]+]], [[G2:%[0-9]+]], [[G3:%[0-9]+]] = lass_nv.ld_global_v4 %A[{{%[0-9]+}}], {{%[0-9]+}} : memref<?x?xf16>
// CHECK-NOT:     lass_pipe.
// CHECK:         [[H0:%[0-9]+]], [[H1:%[0-9]+]], [[H2:%[0-9]+]], [[H3:%[0-9]+]] = lass_nv.ld_global_v4 %A[{{%[0-9]+}}], {{%[0-9]+}} : memref<?x?xf16>
// CHECK-NOT:     lass_nv.ld_global_v4
// CHECK-NOT:     lass_pipe.
// CHECK:         [[P0:%[0-9]+]] = lass_smem.swizzle {{%[0-9]+}} {bits = 3 : i64, base = 4 : i64, shift = 3 : i64}
// CHECK-NEXT:    [[C4096:%[0-9]+]] = arith.constant 4096 : i32
// CHECK-NEXT:    [[SLOT:%[0-9]+]] = arith.muli %slot, [[C4096]] : i32
// CHECK-NEXT:    [[S0:%[0-9]+]] = arith.addi [[P0]], [[SLOT]] : i32
// CHECK-NEXT:    lass_nv.st_shared_v4 [[S0]], [[G0]], [[G1]], [[G2]], [[G3]]
// CHECK-NOT:     lass_pipe.
// CHECK:         [[C2048:%[0-9]+]] = arith.constant 2048 : i32
// CHECK-NEXT:    [[S1:%[0-9]+]] = arith.addi [[S0]], [[C2048]] : i32
// CHECK-NEXT:    lass_nv.st_shared_v4 [[S1]], [[H0]], [[H1]], [[H2]], [[H3]]
// CHECK-NEXT:    lass_nv.bar_sync
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @double_buffer(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32,
                         %m0: i32, %k0: i32, %slot: i32, %pred: i1)
    attributes {lass.kernel = #lass.kernel<config = {threadblock = [64, 32, 32], warp = [32, 16, 32], instruction = [16, 8, 16], stages = 2, raster = 2}>} {
  %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x64x32xf16>
  %staged = lass_pipe.load_regs A %A[%m0, %k0], %pred : memref<?x?xf16> -> !lass_pipe.staged<64x32xf16>
  lass_pipe.store_regs %staged, %ring_a[%slot] : !lass_pipe.staged<64x32xf16>, !lass_pipe.ring<2x64x32xf16>
  lass_pipe.barrier
  func.return
}

// ---- left alone: logical ops in a function that is not a kernel (no lass.kernel) ----

// CHECK-LABEL: func.func @not_a_kernel(%ra: !lass_pipe.ring<2x64x32xf16>, %s: i32, %r: i32, %k: i32) -> i32 {
// CHECK-NEXT:    lass_pipe.barrier
// CHECK-NEXT:    %a0, %a1, %a2, %a3 = lass_warp.load_frag_a %ra[%s], %r, %k : !lass_pipe.ring<2x64x32xf16>
// CHECK-NEXT:    func.return %a0 : i32
// CHECK-NEXT:  }
func.func @not_a_kernel(%ra: !lass_pipe.ring<2x64x32xf16>, %s: i32, %r: i32, %k: i32) -> i32 {
  lass_pipe.barrier
  %a0, %a1, %a2, %a3 = lass_warp.load_frag_a %ra[%s], %r, %k : !lass_pipe.ring<2x64x32xf16>
  func.return %a0 : i32
}

// ---- rejected: input under Inputs/ ----

// ERR-MMA: {{^.*}}Inputs/lasscc-swizzle-smem-not-warp-level.mlir.in:8:3: error: expected warp-level fragment loads (run lasscc-warp-mma first), got lass_pipe.mma{{$}}

// Element types: the same 16-byte ldmatrix rows; the second 8x16-byte matrix column is 16 bytes
// of K: 4 f32, 16 i8 (8 f16); copies move 16-byte chunks of 4 f32 / 16 i8:
// RUN: %lasscc opt -p lasscc-tile-threadblock,lasscc-pipeline,lasscc-warp-mma,lasscc-swizzle-smem %S/Inputs/dtypes.mlir.in | filecheck %s --check-prefix=DT
// DT-LABEL: func.func @tf32(
// DT:         [[C4:%[0-9]+]] = arith.constant 4 : i32
// DT:         %lds_a_k = arith.muli {{%[0-9]+}}, [[C4]] : i32
// DT:         lass_nv.ld_global_v4 {{.*}} : memref<?x?xf32>
// DT:         lass_nv.ldmatrix_x4
// DT-LABEL: func.func @int8(
// DT:         [[C16:%[0-9]+]] = arith.constant 16 : i32
// DT:         %lds_a_k = arith.muli {{%[0-9]+}}, [[C16]] : i32
// DT:         lass_nv.cp_async {{.*}} {bytes = 16 : i64} : memref<?x?xi8>
// DT:         lass_nv.ldmatrix_x4
