// lasscc-warp-mma (passes/warp_mma.py): pipelined threadblock MMA -> the program of one thread:
// warp coordinates, rasterized tile origin, unrolled serpentine mma.sync on double-buffered
// fragments, per-thread epilogue (16-bit D without C: staged through shared memory; one copy of the
// per-thread stores for C and the blocks it cannot take).
// Config: threadblock 64x32x32, warp 32x16x32 (2 x 2 warps = 128 threads), mma m16n8k16:
//   mma.sync per lass_pipe.mma = (WM/16) * (WN/8) * (BK/16) = 2 * 2 * 2 = 8,
//   load_frag_a per k-group = WM/16 = 2, load_frag_b per k-group = WN/16 = 1 (two n8 blocks each),
//   accumulator = 2 * 2 * 4 = 16 f32 per thread; epilogue: 2 * 2 * 2 = 8 positions, each a
//   predicated pair plus two predicated single-element fallbacks (one path for every block).
//
// RUN: %lasscc opt -p lasscc-warp-mma %s -o %t.once.mlir
// RUN: filecheck %s --input-file %t.once.mlir
// RUN: xdsl-opt -p lasscc-warp-mma %s | xdsl-opt -p cse,dce | filecheck %s
//
// IR already past this pass is left alone: a second run changes nothing.
// RUN: %lasscc opt -p lasscc-warp-mma %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
//
// Rejected:
// RUN: not %lasscc opt -p lasscc-warp-mma %S/Inputs/lasscc-warp-mma-not-pipelined.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-TB
// RUN: not %lasscc opt -p lasscc-warp-mma %S/Inputs/lasscc-warp-mma-acc-from-if.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-ACC

// ---- positive: with config `prefetch = 1`, a loop that ends `mma; wait; barrier; yield` with
// slot = kt % S (lasscc-pipeline's multistage form): k-group 0 of the next slot is loaded after
// the barrier and carried by the loop.  f16 D, C read when beta != 0.

// CHECK-LABEL: func.func @multistage(
//                warp coordinates: warp = tid / 32, warp_m = warp % (BM/WM), warp_n = warp / (BM/WM)
// CHECK-NEXT:    %tid = lass_nv.thread_id
// CHECK-NEXT:    [[C31:%[0-9]+]] = arith.constant 31 : i32
// CHECK-NEXT:    %lane = arith.andi %tid, [[C31]] : i32
// CHECK-NEXT:    [[C5:%[0-9]+]] = arith.constant 5 : i32
// CHECK-NEXT:    %warp = arith.shrui %tid, [[C5]] : i32
// CHECK-NEXT:    [[C2:%[0-9]+]] = arith.constant 2 : i32
// CHECK-NEXT:    [[WM:%[0-9]+]] = arith.remui %warp, [[C2]] : i32
// CHECK-NEXT:    [[WN:%[0-9]+]] = arith.divui %warp, [[C2]] : i32
// CHECK-NEXT:    [[C32:%[0-9]+]] = arith.constant 32 : i32
// CHECK-NEXT:    %warp_m0 = arith.muli [[WM]], [[C32]] : i32
// CHECK-NEXT:    [[C16:%[0-9]+]] = arith.constant 16 : i32
// CHECK-NEXT:    %warp_n0 = arith.muli [[WN]], [[C16]] : i32
// CHECK-NEXT:    [[ROW1:%[0-9]+]] = arith.addi %warp_m0, [[C16]] : i32
// CHECK-NEXT:    [[K0:%[0-9a-z]+]] = arith.constant 0 : i32
//                block_tile -> grouped rasterization (lasscc.layout.raster_tile) on the block id, group 2
// CHECK-NEXT:    [[PID:%[0-9]+]] = lass_nv.block_id x
// CHECK-NEXT:    [[C63:%[0-9]+]] = arith.constant 63 : i32
// CHECK-NEXT:    [[MP:%[0-9]+]] = arith.addi %M, [[C63]] : i32
// CHECK-NEXT:    [[C64:%[0-9]+]] = arith.constant 64 : i32
// CHECK-NEXT:    [[TM:%[0-9]+]] = arith.divui [[MP]], [[C64]] : i32
// CHECK-NEXT:    [[NP:%[0-9]+]] = arith.addi %N, [[C31]] : i32
// CHECK-NEXT:    [[TN:%[0-9]+]] = arith.divui [[NP]], [[C32]] : i32
// CHECK-NEXT:    [[PERG:%[0-9]+]] = arith.muli [[TN]], [[C2]] : i32
// CHECK-NEXT:    [[GID:%[0-9]+]] = arith.divui [[PID]], [[PERG]] : i32
// CHECK-NEXT:    [[FIRSTM:%[0-9]+]] = arith.muli [[GID]], [[C2]] : i32
// CHECK-NEXT:    [[LEFT:%[0-9]+]] = arith.subi [[TM]], [[FIRSTM]] : i32
// CHECK-NEXT:    [[SIZEM:%[0-9]+]] = arith.minui [[LEFT]], [[C2]] : i32
// CHECK-NEXT:    [[ING:%[0-9]+]] = arith.remui [[PID]], [[PERG]] : i32
// CHECK-NEXT:    [[MOFF:%[0-9]+]] = arith.remui [[ING]], [[SIZEM]] : i32
// CHECK-NEXT:    [[TILEM:%[0-9]+]] = arith.addi [[FIRSTM]], [[MOFF]] : i32
// CHECK-NEXT:    [[TILEN:%[0-9]+]] = arith.divui [[ING]], [[SIZEM]] : i32
// CHECK-NEXT:    %m0 = arith.muli [[TILEM]], [[C64]] : i32
// CHECK-NEXT:    %n0 = arith.muli [[TILEN]], [[C32]] : i32
//                zero_acc -> f32 zeros
// CHECK-NEXT:    [[ZERO:%[0-9]+]] = arith.constant 0.000000e+00 : f32
//                rings, copies, groups and barriers are left to lasscc-swizzle-smem
// CHECK-NEXT:    %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x64x32xf16>
// CHECK-NEXT:    %ring_b = lass_pipe.ring {offset = 12288 : i64} : !lass_pipe.ring<3x32x32xf16>
// CHECK-NEXT:    %c1 = arith.constant 1 : i32
// CHECK-NEXT:    %c3 = arith.constant 3 : i32
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    lass_pipe.copy_async A %A[%m0, [[K0]]], %ring_a{{\[}}[[K0]]{{\]}}, %true
// CHECK-NEXT:    lass_pipe.copy_async B %B[%n0, [[K0]]], %ring_b{{\[}}[[K0]]{{\]}}, %true
// CHECK-NEXT:    lass_pipe.commit
// CHECK-NEXT:    lass_pipe.wait {pending = 0 : i64}
// CHECK-NEXT:    lass_pipe.barrier
//                prefetch of k-group 0 of slot lb % S, carried into the loop
// CHECK-NEXT:    [[PS:%[0-9]+]] = arith.remui [[K0]], %c3 : i32
// CHECK-NEXT:    [[PA0:%[0-9]+]], [[PA1:%[0-9]+]], [[PA2:%[0-9]+]], [[PA3:%[0-9]+]] = lass_warp.load_frag_a %ring_a{{\[}}[[PS]]{{\]}}, %warp_m0, [[K0]] : !lass_pipe.ring<3x64x32xf16>
// CHECK-NEXT:    {{%[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+}} = lass_warp.load_frag_a %ring_a{{\[}}[[PS]]{{\]}}, [[ROW1]], [[K0]] : !lass_pipe.ring<3x64x32xf16>
// CHECK-NEXT:    [[PB0:%[0-9]+]], [[PB1:%[0-9]+]], {{%[0-9]+, %[0-9]+}} = lass_warp.load_frag_b %ring_b{{\[}}[[PS]]{{\]}}, %warp_n0, [[K0]] : !lass_pipe.ring<3x32x32xf16>
//                the loop carries 16 accumulator f32 and 12 fragment registers (2 A x 4 + 1 B x 4)
// CHECK-NEXT:    [[ACC0:%[0-9]+]], [[ACC1:%[0-9]+]], [[ACC2:%[0-9]+]], {{(%[0-9]+, ){24}%[0-9]+}} = scf.for %kt = [[K0]] to %K step %c1 iter_args(
// CHECK-SAME:      [[FA0:%[0-9]+]] = [[PA0]], [[FA1:%[0-9]+]] = [[PA1]], [[FA2:%[0-9]+]] = [[PA2]], [[FA3:%[0-9]+]] = [[PA3]],
// CHECK-SAME:      [[FB0:%[0-9]+]] = [[PB0]], [[FB1:%[0-9]+]] = [[PB1]],
// CHECK-SAME:      -> ({{(f32, ){16}(i32, ){11}i32}}) : i32 {
// CHECK-NEXT:      %slot = arith.remui %kt, %c3 : i32
//                  k-group 1 of this slot is loaded before k-group 0's mma.sync
// CHECK-NEXT:      [[G1A0:%[0-9]+]], {{%[0-9]+, %[0-9]+, %[0-9]+}} = lass_warp.load_frag_a %ring_a[%slot], %warp_m0, [[C16]] : !lass_pipe.ring<3x64x32xf16>
// CHECK-NEXT:      [[G1A1:%[0-9]+]], {{%[0-9]+, %[0-9]+, %[0-9]+}} = lass_warp.load_frag_a %ring_a[%slot], [[ROW1]], [[C16]] : !lass_pipe.ring<3x64x32xf16>
// CHECK-NEXT:      [[G1B0:%[0-9]+]], {{%[0-9]+}}, [[G1B1:%[0-9]+]], {{%[0-9]+}} = lass_warp.load_frag_b %ring_b[%slot], %warp_n0, [[C16]] : !lass_pipe.ring<3x32x32xf16>
//                  k-group 0 from the carried fragments, rolled (passes/_rolled.py): a loop over the
//                  4 mma tiles in serpentine order (m0,n0) (m0,n1) (m1,n1) (m1,n0), carrying each
//                  tile's A registers, then B registers, then accumulators, rotated by one tile
// CHECK-NEXT:      [[C4:%[0-9]+]] = arith.constant 4 : i32
// CHECK-NEXT:      {{(%[0-9]+, ){24} ?}}[[R24:%[0-9]+]], {{(%[0-9]+, ){14}%[0-9]+}} = scf.for %tile = [[K0]] to [[C4]] step %c1 iter_args(
// CHECK-SAME:        [[TA0:%[0-9]+]] = [[FA0]], [[TA1:%[0-9]+]] = [[FA1]], [[TA2:%[0-9]+]] = [[FA2]], [[TA3:%[0-9]+]] = [[FA3]], {{%[0-9]+}} = [[FA0]], {{%[0-9]+}} = [[FA1]], {{%[0-9]+}} = [[FA2]], {{%[0-9]+}} = [[FA3]],
// CHECK-SAME:        {{%[0-9]+}} = [[GA:%[0-9]+]], {{(%[0-9]+ = %[0-9]+, ){3} ?}}{{%[0-9]+}} = [[GA]], {{(%[0-9]+ = %[0-9]+, ){3} ?}}
// CHECK-SAME:        [[TB0:%[0-9]+]] = [[FB0]], [[TB1:%[0-9]+]] = [[FB1]], {{%[0-9]+}} = [[GB:%[0-9]+]], {{%[0-9]+ = %[0-9]+}}, {{%[0-9]+}} = [[GB]], {{%[0-9]+ = %[0-9]+}}, {{%[0-9]+}} = [[FB0]], {{%[0-9]+}} = [[FB1]],
// CHECK-SAME:        [[TC0:%[0-9]+]] = {{%[0-9]+}}, {{.*}}) -> ({{(i32, ){24}(f32, ){15}f32}}) : i32 {
// CHECK-NEXT:        [[D:%[0-9]+]], {{%[0-9]+, %[0-9]+, %[0-9]+}} = lass_nv.mma_sync a([[TA0]], [[TA1]], [[TA2]], [[TA3]]) b([[TB0]], [[TB1]]) c([[TC0]], {{%[0-9]+, %[0-9]+, %[0-9]+}}) {shape = "m16n8k16"}
// CHECK-NEXT:        scf.yield {{(%[0-9]+, ){12} ?}}[[TA0]], {{(%[0-9]+, ){9} ?}}[[TB0]], [[TB1]], {{(%[0-9]+, ){12} ?}}[[D]], {{%[0-9]+, %[0-9]+, %[0-9]+}} :
// CHECK-NEXT:      } {lass.unroll_full}
// CHECK-NEXT:      lass_pipe.wait {pending = 1 : i64}
// CHECK-NEXT:      lass_pipe.barrier
//                  after the barrier: k-group 0 of slot (kt + 1) % S, then this slot's last k-group
//                  (its fragments, onto the accumulators of k-group 0's loop)
// CHECK-NEXT:      [[NX:%[0-9]+]] = arith.addi %kt, %c1 : i32
// CHECK-NEXT:      [[NS:%[0-9]+]] = arith.remui [[NX]], %c3 : i32
// CHECK-NEXT:      [[NA0:%[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+]] = lass_warp.load_frag_a %ring_a{{\[}}[[NS]]{{\]}}, %warp_m0, [[K0]]
// CHECK-NEXT:      [[NA1:%[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+]] = lass_warp.load_frag_a %ring_a{{\[}}[[NS]]{{\]}}, [[ROW1]], [[K0]]
// CHECK-NEXT:      [[NB:%[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+]] = lass_warp.load_frag_b %ring_b{{\[}}[[NS]]{{\]}}, %warp_n0, [[K0]]
// CHECK-NEXT:      scf.for %tile_1 = [[K0]] to [[C4]] step %c1 iter_args({{%[0-9]+}} = [[G1A0]], {{(%[0-9]+ = %[0-9]+, ){7} ?}}{{%[0-9]+}} = [[G1A1]], {{(%[0-9]+ = %[0-9]+, ){7} ?}}
// CHECK-SAME:        {{%[0-9]+}} = [[G1B0]], {{%[0-9]+ = %[0-9]+}}, {{%[0-9]+}} = [[G1B1]], {{%[0-9]+ = %[0-9]+}}, {{%[0-9]+}} = [[G1B1]], {{%[0-9]+ = %[0-9]+}}, {{%[0-9]+}} = [[G1B0]], {{%[0-9]+ = %[0-9]+}}, {{%[0-9]+}} = [[R24]],
// CHECK-NEXT:        lass_nv.mma_sync
// CHECK-NEXT:        scf.yield
// CHECK-NEXT:      } {lass.unroll_full}
// CHECK-NEXT:      scf.yield {{(%[0-9]+, ){15}%[0-9]+}}, [[NA0]], [[NA1]], [[NB]] : {{(f32, ){16}(i32, ){11}i32$}}
// CHECK-NEXT:    }
// CHECK-NEXT:    lass_pipe.wait {pending = 0 : i64}
//                epilogue: C is read only when beta != 0 (a uniform branch); predicated stores for
//                every block.  f16 D: extf / truncf.
// CHECK:         [[HASC:%[0-9]+]] = arith.cmpf one, %beta, [[ZERO]] : f32
// CHECK-NEXT:    [[MEND:%[0-9]+]] = arith.addi %m0, [[C64]] : i32
// CHECK-NEXT:    [[MIN:%[0-9]+]] = arith.cmpi ule, [[MEND]], %M : i32
// CHECK-NEXT:    [[NEND:%[0-9]+]] = arith.addi %n0, [[C32]] : i32
// CHECK-NEXT:    [[NIN:%[0-9]+]] = arith.cmpi ule, [[NEND]], %N : i32
// CHECK-NEXT:    [[BOTH:%[0-9]+]] = arith.andi [[MIN]], [[NIN]] : i1
// CHECK-NEXT:    [[FULL:%[0-9]+]] = arith.andi [[BOTH]], {{%[0-9]+}} : i1
//                16-bit D without C goes through shared memory (the staged epilogue) when the block
//                is whole, N a multiple of 8 (16-byte row pieces) and D 16-byte aligned
// CHECK-NEXT:    [[C8:%[0-9]+]] = arith.constant 8 : i32
// CHECK-NEXT:    [[NR:%[0-9]+]] = arith.remui %N, [[C8]] : i32
// CHECK-NEXT:    [[NV:%[0-9]+]] = arith.cmpi eq, [[NR]], %c0 : i32
// CHECK-NEXT:    [[AL:%[0-9]+]] = lass_nv.aligned %D {bytes = 16 : i64} : memref<?x?xf16>
// CHECK-NEXT:    [[F1:%[0-9]+]] = arith.andi [[FULL]], [[NV]] : i1
// CHECK-NEXT:    [[STAGE:%[0-9]+]] = arith.andi [[F1]], [[AL]] : i1
//                one copy of the per-thread stores for C and for a block the staged path cannot take
//                (warp_mma.SHARED_DIRECT): C read where beta != 0, times beta there, -0.0 elsewhere
//                (alpha * acc + -0.0 is alpha * acc, -0.0 too)
// CHECK-NEXT:    [[NST:%[0-9]+]] = arith.xori [[STAGE]], %true : i1
// CHECK-NEXT:    [[DIRECT:%[0-9]+]] = arith.ori [[HASC]], [[NST]] : i1
// CHECK-NEXT:    [[MZERO:%[0-9]+]] = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:    [[BETA:%[0-9]+]] = arith.select [[HASC]], %beta, [[MZERO]] : f32
// CHECK-NEXT:    scf.if [[DIRECT]] {
//                  one predicated path for every block (no unguarded copy for whole blocks), written
//                  once: a loop over the thread's 8 accumulator pairs (passes/_rolled.py), which LLVM
//                  unrolls fully (lass.unroll_full).  Loop-carried: the pairs' 16 values in pair
//                  order (here the accumulator's), then the pairs' rows and columns (mma_c_coord of
//                  the (mi, ni) tiles: rows 0 8 0 8 16 24 16 24, columns 0 0 8 8 0 0 8 8)
// CHECK-NEXT:      [[C24:%[0-9]+]] = arith.constant 24 : i32
// CHECK-NEXT:      {{(%[0-9]+, ){31}%[0-9]+}} = scf.for %pair = %c0 to [[C8]] step %c1 iter_args(
// CHECK-SAME:        [[A0:%[0-9]+]] = [[ACC0]], [[A1:%[0-9]+]] = [[ACC1]], [[A2:%[0-9]+]] = [[ACC2]], {{(%[0-9]+ = %[0-9]+, ){13} ?}}
// CHECK-SAME:        [[ROW:%[0-9]+]] = %c0, {{%[0-9]+}} = [[C8]], {{%[0-9]+}} = %c0, {{%[0-9]+}} = [[C8]], {{%[0-9]+}} = [[C16]], {{%[0-9]+}} = [[C24]], {{%[0-9]+}} = [[C16]], [[ROW7:%[0-9]+]] = [[C24]],
// CHECK-SAME:        [[COL:%[0-9]+]] = %c0, {{%[0-9]+}} = %c0, {{%[0-9]+}} = [[C8]], {{%[0-9]+}} = [[C8]], {{%[0-9]+}} = %c0, {{%[0-9]+}} = %c0, {{%[0-9]+}} = [[C8]], [[COL7:%[0-9]+]] = [[C8]])
// CHECK-SAME:        -> ({{(f32, ){16}(i32, ){15}i32}}) : i32 {
//                  pair q: the first values, at (row0 + row, col0 + col); C by a predicated pair
//                  load, two single-element fallbacks and selects, each predicate also beta != 0
// CHECK-NEXT:        [[R:%[0-9]+]] = arith.addi {{%[0-9]+}}, [[ROW]] : i32
// CHECK-NEXT:        [[C:%[0-9]+]] = arith.addi {{%[0-9]+}}, [[COL]] : i32
// CHECK-NEXT:        [[P0:%[0-9]+]] = arith.cmpi ult, [[R]], %M : i32
// CHECK:             [[OFF:%[0-9]+]] = arith.addi {{%[0-9]+}}, [[C]] : i32
// CHECK:             arith.mulf %alpha, [[A0]] : f32
// CHECK-NEXT:        arith.mulf %alpha, [[A1]] : f32
// CHECK-NEXT:        [[PC:%[0-9]+]] = arith.andi {{%[0-9]+}}, [[HASC]] : i1
// CHECK:             {{%[0-9]+, %[0-9]+}} = lass_nv.ld_global %D{{\[}}[[OFF]]{{\]}} x 2 if [[PC]] : memref<?x?xf16>
// CHECK:             lass_nv.ld_global %D[{{%[0-9]+}}] x 1 if {{%[0-9]+}} : memref<?x?xf16>
// CHECK:             arith.select
// CHECK:             arith.extf {{%[0-9]+}} : f16 to f32
// CHECK-NEXT:        arith.mulf [[BETA]], {{%[0-9]+}} : f32
// CHECK:             arith.truncf {{%[0-9]+}} : f32 to f16
// CHECK:             lass_nv.st_global %D{{\[}}[[OFF]]{{\]}}, {{%[0-9]+}}, {{%[0-9]+}} if {{%[0-9]+}} : memref<?x?xf16>, f16, f16
// CHECK-NOT:         lass_nv.st_global %D[{{%[0-9]+}}], {{%[0-9]+}}, {{%[0-9]+}} if
//                  rotated by one pair: the next pair's values and offsets come first
// CHECK:             scf.yield [[A2]], {{(%[0-9]+, ){13} ?}}[[A0]], [[A1]], {{(%[0-9]+, ){7} ?}}[[ROW]], {{(%[0-9]+, ){7} ?}}[[COL]] :
// CHECK-NEXT:      } {lass.unroll_full}
// CHECK-NEXT:    } else {
//                  staged: bar.sync (every warp is done with the rings), this warp's buffer of
//                  32 rows x 48 bytes (32 bytes of D + 16 of padding: lasscc.layout.epilogue_stage_stride)
// CHECK-NEXT:        lass_nv.bar_sync
// CHECK-NEXT:        [[C1536:%[0-9]+]] = arith.constant 1536 : i32
// CHECK-NEXT:        [[WB:%[0-9]+]] = arith.muli %warp, [[C1536]] : i32
// CHECK-NEXT:        [[C48:%[0-9]+]] = arith.constant 48 : i32
// CHECK-NEXT:        [[GR:%[0-9]+]] = arith.muli {{%[0-9]+}}, [[C48]] : i32
// CHECK-NEXT:        [[TB:%[0-9]+]] = arith.muli {{%[0-9]+}}, {{%[0-9a-z]+}} : i32
// CHECK-NEXT:        [[LO:%[0-9]+]] = arith.addi [[GR]], [[TB]] : i32
// CHECK-NEXT:        [[WR:%[0-9]+]] = arith.addi [[WB]], [[LO]] : i32
//                  read map: 2 lanes per 32-byte row (lasscc.layout.epilogue_read_map)
// CHECK-NEXT:        [[LR:%[0-9]+]] = arith.divui %lane, {{%[0-9a-z]+}} : i32
// CHECK-NEXT:        [[LC:%[0-9]+]] = arith.remui %lane, {{%[0-9a-z]+}} : i32
// CHECK:             [[RD:%[0-9]+]] = arith.addi [[WB]], {{%[0-9]+}} : i32
// CHECK:             [[GRN:%[0-9]+]] = arith.muli {{%[0-9]+}}, %N : i32
// CHECK-NEXT:        [[G0:%[0-9]+]] = arith.addi [[GRN]], {{%[0-9]+}} : i32
//                  8 pairs of alpha * acc (f16) into the buffer, rolled like the direct stores
//                  (the pair's loop-carried row and column): slot = row x 48 + column x 2 bytes
// CHECK:             scf.for %pair_1 = %c0 to [[C8]] step %c1 iter_args(
// CHECK:               arith.truncf {{%[0-9]+}} : f32 to f16
// CHECK-NEXT:          arith.truncf {{%[0-9]+}} : f32 to f16
// CHECK-NEXT:          [[SR:%[0-9]+]] = arith.muli {{%[0-9]+}}, [[C48]] : i32
// CHECK-NEXT:          [[SC:%[0-9]+]] = arith.muli {{%[0-9]+}}, {{%[0-9a-z]+}} : i32
// CHECK-NEXT:          [[SL:%[0-9]+]] = arith.addi [[SR]], [[SC]] : i32
// CHECK-NEXT:          [[SA:%[0-9]+]] = arith.addi [[WR]], [[SL]] : i32
// CHECK-NEXT:          lass_nv.st_shared [[SA]], {{%[0-9]+}}, {{%[0-9]+}} : f16, f16
// CHECK-NEXT:          scf.yield
// CHECK-NEXT:        } {lass.unroll_full}
// CHECK-NEXT:        lass_nv.bar_sync
//                  back in 2 passes of 16 bytes a lane (16 rows each), stored 16 bytes a lane
// CHECK-NEXT:        [[V0:%[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+]] = lass_nv.ld_shared [[RD]] x 4
// CHECK-NEXT:        lass_nv.st_global_v4 %D{{\[}}[[G0]]{{\]}}, [[V0]] if %true : memref<?x?xf16>
// CHECK:             [[RD1:%[0-9]+]] = arith.addi [[RD]], {{%[0-9]+}} : i32
// CHECK-NEXT:        [[V1:%[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+]] = lass_nv.ld_shared [[RD1]] x 4
// CHECK-NEXT:        [[S16:%[0-9]+]] = arith.muli %N, {{%[0-9a-z]+}} : i32
// CHECK-NEXT:        [[G1:%[0-9]+]] = arith.addi [[G0]], [[S16]] : i32
// CHECK-NEXT:        lass_nv.st_global_v4 %D{{\[}}[[G1]]{{\]}}, [[V1]] if %true : memref<?x?xf16>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @multistage(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf16>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32)
    attributes {lass.kernel = #lass.kernel<config = {threadblock = [64, 32, 32], warp = [32, 16, 32], instruction = [16, 8, 16], stages = 3, raster = 2, prefetch = 1}>} {
  %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64, 32], raster = 2}
  %acc0 = lass_tb.zero_acc : !lass_tb.acc<64x32xf32>
  %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<3x64x32xf16>
  %ring_b = lass_pipe.ring {offset = 12288 : i64} : !lass_pipe.ring<3x32x32xf16>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %true = arith.constant true
  lass_pipe.copy_async A %A[%m0, %c0], %ring_a[%c0], %true : memref<?x?xf16>, !lass_pipe.ring<3x64x32xf16>
  lass_pipe.copy_async B %B[%n0, %c0], %ring_b[%c0], %true : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<3x32x32xf16>
  lass_pipe.commit
  lass_pipe.wait {pending = 0 : i64}
  lass_pipe.barrier
  %r = scf.for %kt = %c0 to %K step %c1 iter_args(%acc = %acc0) -> (!lass_tb.acc<64x32xf32>) : i32 {
    %slot = arith.remui %kt, %c3 : i32
    %acc1 = lass_pipe.mma %ring_a[%slot], %ring_b[%slot], %acc : !lass_pipe.ring<3x64x32xf16>, !lass_pipe.ring<3x32x32xf16>, !lass_tb.acc<64x32xf32>
    lass_pipe.wait {pending = 1 : i64}
    lass_pipe.barrier
    scf.yield %acc1 : !lass_tb.acc<64x32xf32>
  }
  lass_pipe.wait {pending = 0 : i64}
  lass_tb.epilogue %r, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x32xf32>, memref<?x?xf16>
  func.return
}

// ---- positive: the same loop form (mma; barrier; yield on slot = kt % S) without `prefetch = 1`
// in the config: no cross-stage prefetch; both k-groups are loaded in the iteration, k-group 1's
// loads before k-group 0's mma.sync.  f32 D: the stores pin the mma.m16n8k16 C/D
// fragment coordinates (row0 + 16 mi + 8 h, col0 + 8 ni), which accumulators go there, and the
// predicates of the guarded (any M, N) stores at the edges.

// CHECK-LABEL: func.func @in_iteration(
// CHECK:         [[C16:%[0-9]+]] = arith.constant 16 : i32
// CHECK-NEXT:    %warp_n0 = arith.muli {{%[0-9]+}}, [[C16]] : i32
// CHECK-NEXT:    [[ROW1:%[0-9]+]] = arith.addi %warp_m0, [[C16]] : i32
// CHECK:         [[ZERO:%[0-9]+]] = arith.constant 0.000000e+00 : f32
// CHECK-NOT:     lass_warp.load_frag
// CHECK:         [[R0:%[0-9]+]], [[R1:%[0-9]+]], [[R2:%[0-9]+]], [[R3:%[0-9]+]], [[R4:%[0-9]+]], [[R5:%[0-9]+]], [[R6:%[0-9]+]], [[R7:%[0-9]+]], [[R8:%[0-9]+]], [[R9:%[0-9]+]], [[R10:%[0-9]+]], [[R11:%[0-9]+]], [[R12:%[0-9]+]], [[R13:%[0-9]+]], [[R14:%[0-9]+]], [[R15:%[0-9]+]] = scf.for %kt = %c0 to %K step %c1 iter_args(
// CHECK-SAME:      [[I0:%[0-9]+]] = [[ZERO]], [[I1:%[0-9]+]] = [[ZERO]], [[I2:%[0-9]+]] = [[ZERO]], [[I3:%[0-9]+]] = [[ZERO]], [[I4:%[0-9]+]] = [[ZERO]], [[I5:%[0-9]+]] = [[ZERO]], [[I6:%[0-9]+]] = [[ZERO]], [[I7:%[0-9]+]] = [[ZERO]], [[I8:%[0-9]+]] = [[ZERO]], [[I9:%[0-9]+]] = [[ZERO]], [[I10:%[0-9]+]] = [[ZERO]], [[I11:%[0-9]+]] = [[ZERO]], [[I12:%[0-9]+]] = [[ZERO]], [[I13:%[0-9]+]] = [[ZERO]], [[I14:%[0-9]+]] = [[ZERO]], [[I15:%[0-9]+]] = [[ZERO]])
// CHECK-SAME:      -> ({{(f32, ){15}f32}}) : i32 {
// CHECK-NEXT:      %slot = arith.remui %kt, %c2 : i32
// CHECK-NEXT:      [[A00:%[0-9]+]], {{%[0-9]+, %[0-9]+, %[0-9]+}} = lass_warp.load_frag_a %ring_a[%slot], %warp_m0, %c0 : !lass_pipe.ring<2x64x32xf16>
// CHECK-NEXT:      [[A01:%[0-9]+]], {{%[0-9]+, %[0-9]+, %[0-9]+}} = lass_warp.load_frag_a %ring_a[%slot], [[ROW1]], %c0 : !lass_pipe.ring<2x64x32xf16>
// CHECK-NEXT:      [[B00:%[0-9]+]], {{%[0-9]+}}, [[B01:%[0-9]+]], {{%[0-9]+}} = lass_warp.load_frag_b %ring_b[%slot], %warp_n0, %c0 : !lass_pipe.ring<2x32x32xf16>
// CHECK-NEXT:      [[A10:%[0-9]+]], {{%[0-9]+, %[0-9]+, %[0-9]+}} = lass_warp.load_frag_a %ring_a[%slot], %warp_m0, [[C16]] : !lass_pipe.ring<2x64x32xf16>
// CHECK-NEXT:      [[A11:%[0-9]+]], {{%[0-9]+, %[0-9]+, %[0-9]+}} = lass_warp.load_frag_a %ring_a[%slot], [[ROW1]], [[C16]] : !lass_pipe.ring<2x64x32xf16>
// CHECK-NEXT:      [[B10:%[0-9]+]], {{%[0-9]+}}, [[B11:%[0-9]+]], {{%[0-9]+}} = lass_warp.load_frag_b %ring_b[%slot], %warp_n0, [[C16]] : !lass_pipe.ring<2x32x32xf16>
//                  k-group 0, rolled (passes/_rolled.py): the tiles in serpentine order (m0,n0) (m0,n1)
//                  (m1,n1) (m1,n0) carry A of m0 m0 m1 m1, B of n0 n1 n1 n0 and the accumulator of
//                  (mi, ni) = registers 4 * (2 mi + ni) .. + 3: I0-3, I4-7, I12-15, I8-11
// CHECK-NEXT:      [[C4:%[0-9]+]] = arith.constant 4 : i32
// CHECK-NEXT:      {{(%[0-9]+, ){24} ?}}[[D0:%[0-9]+]], {{%[0-9]+, %[0-9]+, %[0-9]+}}, [[D1:%[0-9]+]], {{%[0-9]+, %[0-9]+, %[0-9]+}}, [[D3:%[0-9]+]], {{%[0-9]+, %[0-9]+, %[0-9]+}}, [[D2:%[0-9]+]], {{%[0-9]+, %[0-9]+, %[0-9]+}} = scf.for %tile = %c0 to [[C4]] step %c1 iter_args(
// CHECK-SAME:        {{%[0-9]+}} = [[A00]], {{(%[0-9]+ = %[0-9]+, ){3} ?}}{{%[0-9]+}} = [[A00]], {{(%[0-9]+ = %[0-9]+, ){3} ?}}{{%[0-9]+}} = [[A01]], {{(%[0-9]+ = %[0-9]+, ){3} ?}}{{%[0-9]+}} = [[A01]], {{(%[0-9]+ = %[0-9]+, ){3} ?}}
// CHECK-SAME:        {{%[0-9]+}} = [[B00]], {{%[0-9]+ = %[0-9]+}}, {{%[0-9]+}} = [[B01]], {{%[0-9]+ = %[0-9]+}}, {{%[0-9]+}} = [[B01]], {{%[0-9]+ = %[0-9]+}}, {{%[0-9]+}} = [[B00]], {{%[0-9]+ = %[0-9]+}},
// CHECK-SAME:        {{%[0-9]+}} = [[I0]], {{%[0-9]+}} = [[I1]], {{%[0-9]+}} = [[I2]], {{%[0-9]+}} = [[I3]], {{%[0-9]+}} = [[I4]], {{%[0-9]+}} = [[I5]], {{%[0-9]+}} = [[I6]], {{%[0-9]+}} = [[I7]], {{%[0-9]+}} = [[I12]], {{%[0-9]+}} = [[I13]], {{%[0-9]+}} = [[I14]], {{%[0-9]+}} = [[I15]], {{%[0-9]+}} = [[I8]], {{%[0-9]+}} = [[I9]], {{%[0-9]+}} = [[I10]], {{%[0-9]+}} = [[I11]])
// CHECK-NEXT:        lass_nv.mma_sync
// CHECK-NEXT:        scf.yield
// CHECK-NEXT:      } {lass.unroll_full}
//                  k-group 1, same serpentine order, accumulating onto k-group 0's results
// CHECK-NEXT:      {{(%[0-9]+, ){24} ?}}[[E0:%[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+]], [[E1:%[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+]], [[E3:%[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+]], [[E2:%[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+]] = scf.for %tile_1 = %c0 to [[C4]] step %c1 iter_args(
// CHECK-SAME:        {{%[0-9]+}} = [[A10]], {{(%[0-9]+ = %[0-9]+, ){3} ?}}{{%[0-9]+}} = [[A10]], {{(%[0-9]+ = %[0-9]+, ){3} ?}}{{%[0-9]+}} = [[A11]], {{(%[0-9]+ = %[0-9]+, ){3} ?}}{{%[0-9]+}} = [[A11]], {{(%[0-9]+ = %[0-9]+, ){3} ?}}
// CHECK-SAME:        {{%[0-9]+}} = [[B10]], {{%[0-9]+ = %[0-9]+}}, {{%[0-9]+}} = [[B11]], {{%[0-9]+ = %[0-9]+}}, {{%[0-9]+}} = [[B11]], {{%[0-9]+ = %[0-9]+}}, {{%[0-9]+}} = [[B10]], {{%[0-9]+ = %[0-9]+}},
// CHECK-SAME:        {{%[0-9]+}} = [[D0]], {{(%[0-9]+ = %[0-9]+, ){3} ?}}{{%[0-9]+}} = [[D1]], {{(%[0-9]+ = %[0-9]+, ){3} ?}}{{%[0-9]+}} = [[D3]], {{(%[0-9]+ = %[0-9]+, ){3} ?}}{{%[0-9]+}} = [[D2]], {{(%[0-9]+ = %[0-9]+, ){2} ?}}{{%[0-9]+ = %[0-9]+}})
// CHECK-NEXT:        lass_nv.mma_sync
// CHECK-NEXT:        scf.yield
// CHECK-NEXT:      } {lass.unroll_full}
// CHECK-NEXT:      lass_pipe.barrier
// CHECK-NEXT:      scf.yield [[E0]], [[E1]], [[E2]], [[E3]] : {{(f32, ){15}f32$}}
// CHECK-NEXT:    }
//                row0 = m0 + warp_m0 + lane / 4, col0 = n0 + warp_n0 + 2 * (lane % 4)
// CHECK-NEXT:    [[GRP:%[0-9]+]] = arith.shrui %lane, %c2 : i32
// CHECK-NEXT:    [[C3:%[0-9]+]] = arith.constant 3 : i32
// CHECK-NEXT:    [[TIG:%[0-9]+]] = arith.andi %lane, [[C3]] : i32
// CHECK-NEXT:    [[TIG2:%[0-9]+]] = arith.muli [[TIG]], %c2 : i32
// CHECK-NEXT:    [[MW:%[0-9]+]] = arith.addi %m0, %warp_m0 : i32
// CHECK-NEXT:    [[ROW0:%[0-9]+]] = arith.addi [[MW]], [[GRP]] : i32
// CHECK-NEXT:    [[NW:%[0-9]+]] = arith.addi %n0, %warp_n0 : i32
// CHECK-NEXT:    [[COL0:%[0-9]+]] = arith.addi [[NW]], [[TIG2]] : i32
// CHECK-NEXT:    [[TRUE:%[0-9a-z_]+]] = arith.constant true
// CHECK-NEXT:    [[NODD:%[0-9]+]] = arith.andi %N, %c1 : i32
// CHECK-NEXT:    [[NEVEN:%[0-9]+]] = arith.cmpi eq, [[NODD]], %c0 : i32
// CHECK-NEXT:    [[HASC:%[0-9]+]] = arith.cmpf one, %beta, [[ZERO]] : f32
//                beta != 0, one predicated path for every block (no unguarded copy for whole
//                blocks), written once in a loop over the thread's 8 accumulator pairs
//                (passes/_rolled.py; LLVM unrolls it fully: lass.unroll_full).  Loop-carried, in
//                pair order (mi, ni, h): the values 4 (2 mi + ni) + 2 h and + 1, then the pairs'
//                rows 16 mi + 8 h and columns 8 ni (mma.m16n8k16's C fragment)
// CHECK-NEXT:    scf.if [[HASC]] {
// CHECK-NEXT:      [[C8:%[0-9]+]] = arith.constant 8 : i32
// CHECK-NEXT:      [[C24:%[0-9]+]] = arith.constant 24 : i32
// CHECK-NEXT:      {{(%[0-9]+, ){31}%[0-9]+}} = scf.for %pair = %c0 to [[C8]] step %c1 iter_args(
// CHECK-SAME:        [[X0:%[0-9]+]] = [[R0]], [[X1:%[0-9]+]] = [[R1]], [[X2:%[0-9]+]] = [[R2]], {{%[0-9]+}} = [[R3]], {{%[0-9]+}} = [[R4]], {{%[0-9]+}} = [[R5]], {{%[0-9]+}} = [[R6]], {{%[0-9]+}} = [[R7]],
// CHECK-SAME:        {{%[0-9]+}} = [[R8]], {{%[0-9]+}} = [[R9]], {{%[0-9]+}} = [[R10]], {{%[0-9]+}} = [[R11]], {{%[0-9]+}} = [[R12]], {{%[0-9]+}} = [[R13]], {{%[0-9]+}} = [[R14]], [[X15:%[0-9]+]] = [[R15]],
// CHECK-SAME:        [[ROWQ:%[0-9]+]] = %c0, {{%[0-9]+}} = [[C8]], {{%[0-9]+}} = %c0, {{%[0-9]+}} = [[C8]], {{%[0-9]+}} = [[C16]], {{%[0-9]+}} = [[C24]], {{%[0-9]+}} = [[C16]], {{%[0-9]+}} = [[C24]],
// CHECK-SAME:        [[COLQ:%[0-9]+]] = %c0, {{%[0-9]+}} = %c0, {{%[0-9]+}} = [[C8]], {{%[0-9]+}} = [[C8]], {{%[0-9]+}} = %c0, {{%[0-9]+}} = %c0, {{%[0-9]+}} = [[C8]], {{%[0-9]+}} = [[C8]])
// CHECK-SAME:        -> ({{(f32, ){16}(i32, ){15}i32}}) : i32 {
//                  pair q at (row0 + row, col0 + col): a predicated pair load plus two predicated
//                  single-element fallbacks, merged by selects on the pair predicate
// CHECK-NEXT:        [[GROW:%[0-9]+]] = arith.addi [[ROW0]], [[ROWQ]] : i32
// CHECK-NEXT:        [[GCOL:%[0-9]+]] = arith.addi [[COL0]], [[COLQ]] : i32
// CHECK-NEXT:        [[GROWOK:%[0-9]+]] = arith.cmpi ult, [[GROW]], %M : i32
// CHECK-NEXT:        [[GCOLOK:%[0-9]+]] = arith.cmpi ult, [[GCOL]], %N : i32
// CHECK-NEXT:        [[GOK0:%[0-9]+]] = arith.andi [[GROWOK]], [[GCOLOK]] : i1
// CHECK-NEXT:        [[GCOL1:%[0-9]+]] = arith.addi [[GCOL]], %c1 : i32
// CHECK-NEXT:        [[GCOL1OK:%[0-9]+]] = arith.cmpi ult, [[GCOL1]], %N : i32
// CHECK-NEXT:        [[GOK1:%[0-9]+]] = arith.andi [[GROWOK]], [[GCOL1OK]] : i1
// CHECK-NEXT:        [[GPAIR:%[0-9]+]] = arith.andi [[GOK1]], [[NEVEN]] : i1
// CHECK-NEXT:        [[GNOTPAIR:%[0-9]+]] = arith.xori [[GPAIR]], [[TRUE]] : i1
// CHECK-NEXT:        [[GSINGLE0:%[0-9]+]] = arith.andi [[GOK0]], [[GNOTPAIR]] : i1
// CHECK-NEXT:        [[GSINGLE1:%[0-9]+]] = arith.andi [[GOK1]], [[GNOTPAIR]] : i1
// CHECK-NEXT:        [[GRN0:%[0-9]+]] = arith.muli [[GROW]], %N : i32
// CHECK-NEXT:        [[G000:%[0-9]+]] = arith.addi [[GRN0]], [[GCOL]] : i32
// CHECK-NEXT:        [[G000B:%[0-9]+]] = arith.addi [[G000]], %c1 : i32
// CHECK-NEXT:        [[GX0:%[0-9]+]] = arith.mulf %alpha, [[X0]] : f32
// CHECK-NEXT:        [[GX1:%[0-9]+]] = arith.mulf %alpha, [[X1]] : f32
// CHECK-NEXT:        [[GP0:%[0-9]+]], [[GP1:%[0-9]+]] = lass_nv.ld_global %D{{\[}}[[G000]]{{\]}} x 2 if [[GPAIR]] : memref<?x?xf32>
// CHECK-NEXT:        [[GS0:%[0-9]+]] = lass_nv.ld_global %D{{\[}}[[G000]]{{\]}} x 1 if [[GSINGLE0]] : memref<?x?xf32>
// CHECK-NEXT:        [[GS1:%[0-9]+]] = lass_nv.ld_global %D{{\[}}[[G000B]]{{\]}} x 1 if [[GSINGLE1]] : memref<?x?xf32>
// CHECK-NEXT:        [[GC0:%[0-9]+]] = arith.select [[GPAIR]], [[GP0]], [[GS0]] : f32
// CHECK-NEXT:        [[GC1:%[0-9]+]] = arith.select [[GPAIR]], [[GP1]], [[GS1]] : f32
// CHECK-NEXT:        [[GB0:%[0-9]+]] = arith.mulf %beta, [[GC0]] : f32
// CHECK-NEXT:        [[GY0:%[0-9]+]] = arith.addf [[GX0]], [[GB0]] : f32
// CHECK-NEXT:        [[GB1:%[0-9]+]] = arith.mulf %beta, [[GC1]] : f32
// CHECK-NEXT:        [[GY1:%[0-9]+]] = arith.addf [[GX1]], [[GB1]] : f32
// CHECK-NEXT:        lass_nv.st_global %D{{\[}}[[G000]]{{\]}}, [[GY0]], [[GY1]] if [[GPAIR]] : memref<?x?xf32>, f32, f32
// CHECK-NEXT:        lass_nv.st_global %D{{\[}}[[G000]]{{\]}}, [[GY0]] if [[GSINGLE0]] : memref<?x?xf32>, f32
// CHECK-NEXT:        lass_nv.st_global %D{{\[}}[[G000B]]{{\]}}, [[GY1]] if [[GSINGLE1]] : memref<?x?xf32>, f32
//                  the next iteration's pair first: every list rotated by one pair
// CHECK-NEXT:        scf.yield [[X2]], {{(%[0-9]+, ){12} ?}}[[X15]], [[X0]], [[X1]], {{(%[0-9]+, ){7} ?}}[[ROWQ]], {{(%[0-9]+, ){7} ?}}[[COLQ]] : {{(f32, ){16}(i32, ){15}i32$}}
// CHECK-NEXT:      } {lass.unroll_full}
// CHECK-NEXT:    } else {
//                  beta == 0: the same loop, the 2-element store of alpha * acc where (row, col + 1)
//                  is inside D and N is even, else each element where it is inside D
// CHECK-NEXT:      [[D8:%[0-9]+]] = arith.constant 8 : i32
// CHECK-NEXT:      [[D24:%[0-9]+]] = arith.constant 24 : i32
// CHECK-NEXT:      {{(%[0-9]+, ){31}%[0-9]+}} = scf.for %pair_1 = %c0 to [[D8]] step %c1 iter_args(
// CHECK-SAME:        [[Y0:%[0-9]+]] = [[R0]], [[Y1:%[0-9]+]] = [[R1]], {{(%[0-9]+ = %[0-9]+, ){14} ?}}
// CHECK-SAME:        [[ROWQ1:%[0-9]+]] = %c0, {{(%[0-9]+ = %[0-9a-z]+, ){7} ?}}[[COLQ1:%[0-9]+]] = %c0,
// CHECK-NEXT:        [[ROW:%[0-9]+]] = arith.addi [[ROW0]], [[ROWQ1]] : i32
// CHECK-NEXT:        [[COL:%[0-9]+]] = arith.addi [[COL0]], [[COLQ1]] : i32
// CHECK-NEXT:        [[ROWOK:%[0-9]+]] = arith.cmpi ult, [[ROW]], %M : i32
// CHECK-NEXT:        [[COLOK:%[0-9]+]] = arith.cmpi ult, [[COL]], %N : i32
// CHECK-NEXT:        [[OK0:%[0-9]+]] = arith.andi [[ROWOK]], [[COLOK]] : i1
// CHECK-NEXT:        [[COL1:%[0-9]+]] = arith.addi [[COL]], %c1 : i32
// CHECK-NEXT:        [[COL1OK:%[0-9]+]] = arith.cmpi ult, [[COL1]], %N : i32
// CHECK-NEXT:        [[OK1:%[0-9]+]] = arith.andi [[ROWOK]], [[COL1OK]] : i1
// CHECK-NEXT:        [[PAIR:%[0-9]+]] = arith.andi [[OK1]], [[NEVEN]] : i1
// CHECK-NEXT:        [[NOTPAIR:%[0-9]+]] = arith.xori [[PAIR]], [[TRUE]] : i1
// CHECK-NEXT:        [[SINGLE0:%[0-9]+]] = arith.andi [[OK0]], [[NOTPAIR]] : i1
// CHECK-NEXT:        [[SINGLE1:%[0-9]+]] = arith.andi [[OK1]], [[NOTPAIR]] : i1
// CHECK-NEXT:        [[ERN0:%[0-9]+]] = arith.muli [[ROW]], %N : i32
// CHECK-NEXT:        [[E000:%[0-9]+]] = arith.addi [[ERN0]], [[COL]] : i32
// CHECK-NEXT:        [[E000B:%[0-9]+]] = arith.addi [[E000]], %c1 : i32
// CHECK-NEXT:        [[W0:%[0-9]+]] = arith.mulf %alpha, [[Y0]] : f32
// CHECK-NEXT:        [[W1:%[0-9]+]] = arith.mulf %alpha, [[Y1]] : f32
// CHECK-NEXT:        lass_nv.st_global %D{{\[}}[[E000]]{{\]}}, [[W0]], [[W1]] if [[PAIR]] : memref<?x?xf32>, f32, f32
// CHECK-NEXT:        lass_nv.st_global %D{{\[}}[[E000]]{{\]}}, [[W0]] if [[SINGLE0]] : memref<?x?xf32>, f32
// CHECK-NEXT:        lass_nv.st_global %D{{\[}}[[E000B]]{{\]}}, [[W1]] if [[SINGLE1]] : memref<?x?xf32>, f32
// CHECK-NEXT:        scf.yield
// CHECK-NEXT:      } {lass.unroll_full}
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @in_iteration(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32)
    attributes {lass.kernel = #lass.kernel<config = {threadblock = [64, 32, 32], warp = [32, 16, 32], instruction = [16, 8, 16], stages = 2, raster = 2}>} {
  %m0, %n0 = lass_tb.block_tile %M, %N {tile = [64, 32], raster = 2}
  %acc0 = lass_tb.zero_acc : !lass_tb.acc<64x32xf32>
  %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x64x32xf16>
  %ring_b = lass_pipe.ring {offset = 8192 : i64} : !lass_pipe.ring<2x32x32xf16>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %r = scf.for %kt = %c0 to %K step %c1 iter_args(%acc = %acc0) -> (!lass_tb.acc<64x32xf32>) : i32 {
    %slot = arith.remui %kt, %c2 : i32
    %acc1 = lass_pipe.mma %ring_a[%slot], %ring_b[%slot], %acc : !lass_pipe.ring<2x64x32xf16>, !lass_pipe.ring<2x32x32xf16>, !lass_tb.acc<64x32xf32>
    lass_pipe.barrier
    scf.yield %acc1 : !lass_tb.acc<64x32xf32>
  }
  lass_tb.epilogue %r, %D[%m0, %n0], %alpha, %beta : !lass_tb.acc<64x32xf32>, memref<?x?xf32>
  func.return
}

// ---- left alone: lass_pipe.mma in a function that is not a kernel (no lass.kernel) ----

// CHECK-LABEL: func.func @not_a_kernel(%ra: !lass_pipe.ring<2x64x32xf16>, %rb: !lass_pipe.ring<2x32x32xf16>, %s: i32, %acc: !lass_tb.acc<64x32xf32>) -> !lass_tb.acc<64x32xf32> {
// CHECK-NEXT:    %acc1 = lass_pipe.mma %ra[%s], %rb[%s], %acc : !lass_pipe.ring<2x64x32xf16>, !lass_pipe.ring<2x32x32xf16>, !lass_tb.acc<64x32xf32>
// CHECK-NEXT:    func.return %acc1 : !lass_tb.acc<64x32xf32>
// CHECK-NEXT:  }
func.func @not_a_kernel(%ra: !lass_pipe.ring<2x64x32xf16>, %rb: !lass_pipe.ring<2x32x32xf16>, %s: i32,
                        %acc: !lass_tb.acc<64x32xf32>) -> !lass_tb.acc<64x32xf32> {
  %acc1 = lass_pipe.mma %ra[%s], %rb[%s], %acc : !lass_pipe.ring<2x64x32xf16>, !lass_pipe.ring<2x32x32xf16>, !lass_tb.acc<64x32xf32>
  func.return %acc1 : !lass_tb.acc<64x32xf32>
}

// ---- left alone: a kernel without lass_pipe.mma (no thread code is added) ----

// CHECK-LABEL: func.func @kernel_without_mma(%x: i32) -> i32
// CHECK-NEXT:    %y = arith.addi %x, %x : i32
// CHECK-NEXT:    func.return %y : i32
// CHECK-NEXT:  }
func.func @kernel_without_mma(%x: i32) -> i32 attributes {lass.kernel = #lass.kernel<config = {threadblock = [64, 32, 32], warp = [32, 16, 32]}>} {
  %y = arith.addi %x, %x : i32
  func.return %y : i32
}

// ---- rejected: inputs under Inputs/ ----

// ERR-TB: {{^.*}}Inputs/lasscc-warp-mma-not-pipelined.mlir.in:12:5: error: expected lass_pipe.mma on ring slots (run lasscc-pipeline first), got lass_tb.mma{{$}}
// ERR-ACC: {{^.*}}Inputs/lasscc-warp-mma-acc-from-if.mlir.in:16:3: error: expected an accumulator made by lass_tb.zero_acc, an scf.for or an mma inside this kernel, got one from 'scf.if'{{$}}
// ERR-ACC-NOT: Traceback

// Element types: k-groups of the instruction's K (8 tf32, 32 i8), tf32 fragments rounded by
// cvt.rna before the mma, accumulators of the accumulator type, the i32 / f16 epilogue:
// RUN: %lasscc opt -p lasscc-tile-threadblock,lasscc-pipeline,lasscc-warp-mma %S/Inputs/dtypes.mlir.in | filecheck %s --check-prefix=DT
// DT-LABEL: func.func @tf32(
//              one warp along m (warp_tile_coord: warp % 1 == 0): the row of the first fragment is a constant 0
// DT:           [[A0:%[0-9]+]], {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}} = lass_warp.load_frag_a %ring_a[%slot], [[ROW0:%[0-9a-z_]+]], [[ROW0]] : !lass_pipe.ring<2x32x16xf32>
// DT-NEXT:      [[T0:%[0-9]+]] = lass_nv.cvt_rna_tf32 [[A0]]
// DT:           lass_warp.load_frag_a %ring_a[%slot], [[ROW0]], [[K8:%[0-9]+]] : !lass_pipe.ring<2x32x16xf32>
// DT:           lass_nv.mma_sync a([[T0]], {{.*}}) b({{.*}}) c({{.*}}) {shape = "m16n8k8", ab_type = "tf32"}{{$}}
// DT-LABEL: func.func @int8(
// DT:         [[Z:%[0-9]+]] = arith.constant 0 : i32
// DT:         scf.for %kt = {{.*}} iter_args({{%[0-9]+}} = [[Z]], {{%[0-9]+}} = [[Z]], {{.*}}) -> (i32, i32,
// DT:           lass_nv.mma_sync a({{.*}}) b({{.*}}) c({{.*}}) {shape = "m16n8k32", ab_type = "s8"} : i32
// DT:         arith.cmpf oeq, %alpha
// DT:         arith.sitofp
// DT:         lass_nv.cvt_rni_s32
// DT:         arith.select
// DT-LABEL: func.func @f16acc(
// DT:         [[ZH:%[0-9]+]] = arith.constant 0.000000e+00 : f16
// DT:           lass_nv.mma_sync a({{.*}}) b({{.*}}) c({{.*}}) {shape = "m16n8k16"} : f16
// DT:         arith.extf {{%[0-9]+}} : f16 to f32
// DT:         arith.truncf {{%[0-9]+}} : f32 to f16

// ---- positive: a fused epilogue (an [n] bias, an [m] f16 scale, an [mn] f16 residual, f32 D;
// 32 x 32 warp tile: 4 column pairs x 4 rows a thread).  The region is written once, in two nested
// loops (passes/_rolled.rolled_columns, each marked for LLVM's full unroll): over the warp tile's
// column pairs (carrying the accumulators and the column offset), which reads the column's bias
// once (a pair + the two edge singles), then over its rows (carrying the column's accumulators,
// the row offset and the row's scale, read once per row ahead of both loops); C and the residual
// are read per pair; a pair's stores are the pair + two edge singles.
// RUN: %lasscc opt -p lasscc-tile-threadblock,lasscc-pipeline,lasscc-warp-mma %S/Inputs/lasscc-warp-mma-fused.mlir.in | filecheck %s --check-prefix=FUSED
// FUSED-LABEL: func.func @fused(
//                with C
// FUSED:         scf.if {{%[0-9]+}} {
// FUSED-COUNT-4:   = lass_nv.ld_global %scale[{{%[0-9]+}}] x 1 if {{%[0-9]+}} : memref<?xf16>
// FUSED-NEXT:      [[C4:%[0-9]+]] = arith.constant 4 : i32
// FUSED-NEXT:      {{(%[0-9]+, ){35}%[0-9]+}} = scf.for %column = {{%[0-9a-z]+}} to [[C4]] step {{%[0-9a-z]+}} iter_args({{(%[0-9]+ = %[0-9]+, ){31}%[0-9]+ = %[0-9]+}}, [[COL:%[0-9]+]] = {{%[0-9a-z]+}}, {{(%[0-9]+ = %[0-9]+, ){2}%[0-9]+ = %[0-9]+}}) -> ({{(f32, ){31}f32}}, i32, i32, i32, i32) : i32 {
// FUSED-NEXT:        [[CN:%[0-9]+]] = arith.addi {{%[0-9]+}}, [[COL]] : i32
// FUSED:             lass_nv.ld_global %bias[[[CN]]] x 2 if {{%[0-9]+}} : memref<?xf32>
// FUSED-NEXT:        lass_nv.ld_global %bias[[[CN]]] x 1 if
// FUSED-NEXT:        lass_nv.ld_global %bias[{{%[0-9]+}}] x 1 if
// FUSED:             {{(%[0-9]+, ){15}%[0-9]+}} = scf.for %row = {{%[0-9a-z]+}} to [[C4]] step {{%[0-9a-z]+}} iter_args([[A0:%[0-9]+]] = {{%[0-9]+}}, [[A1:%[0-9]+]] = {{%[0-9]+}}, {{(%[0-9]+ = %[0-9]+, ){5}%[0-9]+ = %[0-9]+}}, [[ROW:%[0-9]+]] = {{%[0-9a-z]+}}, {{(%[0-9]+ = %[0-9]+, ){2}%[0-9]+ = %[0-9]+}}, [[SC:%[0-9]+]] = {{%[0-9]+}}, {{(%[0-9]+ = %[0-9]+, ){2}%[0-9]+ = %[0-9]+}}) -> ({{(f32, ){7}f32}}, i32, i32, i32, i32, f16, f16, f16, f16) : i32 {
// FUSED-NEXT:          [[R:%[0-9]+]] = arith.addi {{%[0-9]+}}, [[ROW]] : i32
// FUSED-NOT:           %bias
// FUSED-NOT:           %scale
// FUSED:               lass_nv.ld_global %D[{{%[0-9]+}}] x 2 if
// FUSED:               lass_nv.ld_global %res[{{%[0-9]+}}] x 2 if
// FUSED:               %sm = arith.extf [[SC]] : f16 to f32
// FUSED:               lass_nv.st_global %D[{{%[0-9]+}}], %w, %w_1 if
// FUSED-NEXT:          lass_nv.st_global %D
// FUSED-NEXT:          lass_nv.st_global %D
//                    rotated by one row: the next row's two accumulators, offset and scale come first
// FUSED-NEXT:          scf.yield {{(%[0-9]+, ){5}%[0-9]+}}, [[A0]], [[A1]], {{(%[0-9]+, ){2}%[0-9]+}}, [[ROW]], {{(%[0-9]+, ){2}%[0-9]+}}, [[SC]] :
// FUSED-NEXT:        } {lass.unroll_full}
// FUSED-NEXT:        scf.yield
// FUSED-NEXT:      } {lass.unroll_full}
//                without C: the same loops
// FUSED-NEXT:    } else {
// FUSED-COUNT-4:   = lass_nv.ld_global %scale[{{%[0-9]+}}] x 1 if {{%[0-9]+}} : memref<?xf16>
// FUSED:           scf.for %column_1 =
// FUSED:             scf.for %row_1 =
// FUSED-NOT:           lass_nv.ld_global %D
// FUSED:             } {lass.unroll_full}
// FUSED-NEXT:        scf.yield
// FUSED-NEXT:      } {lass.unroll_full}
// FUSED-NEXT:    }
// FUSED-NEXT:    func.return
