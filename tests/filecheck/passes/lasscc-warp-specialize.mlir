// lasscc-warp-specialize (passes/warp_specialize.py): a `schedule = "cooperative"` wgmma kernel at
// the warpgroup level -> a producer warpgroup (0) and consumer warpgroups.  Config 128x16x32 f16,
// 2 stages: 128 + 256 threads; the consumers number themselves tid - 128; the producer lowers its
// registers to 40 and its thread 0 walks every k-tile (acquire slot kt % 2 with phase (kt / 2) % 2,
// TMA A and B); the consumers raise theirs to 232 and keep the K loop (wait, wgmma, release) and
// the epilogue, without the producer blocks.
//
// RUN: %lasscc opt -p lasscc-warp-specialize %s -o %t.once.mlir
// RUN: filecheck %s --input-file %t.once.mlir
// RUN: xdsl-opt -p lasscc-warp-specialize %s | xdsl-opt -p cse,dce | filecheck %s
//
// persistent = 1: both roles loop over the tiles blockIdx.x, + %nctaid.x, ... (the coordinates
// recomputed per tile), the k-tile numbers (slots, phases) carried across tiles; the consumers claim each tile.
// RUN: %lasscc opt -p lasscc-warp-specialize %S/Inputs/lasscc-warp-specialize-persistent.mlir.in | filecheck %s --check-prefix=PERSIST
// With epilogue = "tma" (128x64 f32 D: two subtiles): no wait for all stores at a tile's end; the
// next tile's first subtile waits (pending 0) before its named barrier, and consumer thread 0 waits
// once after the tile loop (the store tail, passes/tma_store.py store_tail).
// RUN: %lasscc opt -p lasscc-warp-specialize %S/Inputs/lasscc-warp-specialize-persistent-tma.mlir.in | filecheck %s --check-prefix=PTMA
//
// persistent = 1 with cluster = [2, 1] (lasscc.cluster): both roles walk cluster tiles from %clusterid.x
// to the cluster tiles (ceil(tiles_m / 2) x tiles_n) in steps of the clusters (%nctaid.x / 2), the
// rank's tile of each recomputed from the loop's cluster tile (rank_tile); the consumers claim tile
// number cluster tile x 2 + %cluster_ctarank.  Applied twice: left alone.  Rejected: a clustered
// persistent kernel with a grid z (a batch).
// RUN: %lasscc opt -p lasscc-warp-specialize %S/Inputs/lasscc-warp-specialize-persistent-cluster.mlir.in -o %t.cl.mlir
// RUN: filecheck %s --check-prefix=CLUSTER --input-file %t.cl.mlir
// RUN: %lasscc opt -p lasscc-warp-specialize %t.cl.mlir -o %t.cl2.mlir
// RUN: diff %t.cl.mlir %t.cl2.mlir
// RUN: not %lasscc opt -p lasscc-warp-specialize %S/Inputs/lasscc-warp-specialize-persistent-cluster-batch.mlir.in 2>&1 | filecheck %s --check-prefix=CLUSTER-ERR
//
// schedule = "pingpong" (64x16x32, 2 stages): the consumers number themselves tid % 128; thread 0
// initialises the ordering barrier's 4 mbarriers (128 arrivals each) after the ring's, then the
// block synchronises; the producer loads every tile of the CTA in order; consumer c = tid / 128 - 1
// walks tiles blockIdx.x + c * %ctas step 2 * %ctas with k-tiles from c * k_tiles on (step
// 2 * k_tiles) and the order parity (1 - min(c, 1), flipped per tile): wait its turn, the K loop
// (releasing k-tile kt - 1 only after the tile's first), arrive; wgmma wait {0}, release the last
// k-tile's slot, wait its turn, the epilogue, arrive.  The ring's empty barriers expect 128 arrivals.
// RUN: %lasscc opt -p lasscc-warp-specialize %S/Inputs/lasscc-warp-specialize-pingpong.mlir.in -o %t.ping.mlir
// RUN: filecheck %s --check-prefix=PING --input-file %t.ping.mlir
// RUN: %lasscc opt -p lasscc-warp-specialize %t.ping.mlir -o %t.ping2.mlir
// RUN: diff %t.ping.mlir %t.ping2.mlir
// A 128-row pingpong consumer tile with epilogue = "tma" (128x16x32): the TMA-store epilogue's block
// barriers become named barrier 1 of one consumer warpgroup (128 threads), inside the epilogue's
// turn of the ordering barrier, its last bulk wait before the arrive that hands the (shared)
// staging buffers to the other consumer.
// RUN: %lasscc opt -p lasscc-warp-specialize %S/Inputs/lasscc-warp-specialize-pingpong128-tma.mlir.in -o %t.pp128.mlir
// RUN: filecheck %s --check-prefix=PP128 --input-file %t.pp128.mlir
// RUN: %lasscc opt -p lasscc-warp-specialize %t.pp128.mlir -o %t.pp128b.mlir
// RUN: diff %t.pp128.mlir %t.pp128b.mlir
// Rejected (the config rule, at the first pass): a 128 x 256 pingpong consumer tile, whose f32
// accumulators do not fit the consumer's registers.
// RUN: not %lasscc opt -p lasscc-tile-threadblock --arch sm_90a %S/Inputs/lasscc-warp-specialize-pingpong128-regs.mlir.in 2>&1 | filecheck %s --check-prefix=PP128-ERR
// Rejected: a pingpong kernel whose 16-bit D epilogue stages through the ring.
// RUN: not %lasscc opt -p lasscc-warp-specialize %S/Inputs/lasscc-warp-specialize-pingpong-f16.mlir.in 2>&1 | filecheck %s --check-prefix=PING-ERR
//
// Left alone once applied, and on a wgmma kernel of the default schedule:
// RUN: %lasscc opt -p lasscc-warp-specialize %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: %lasscc opt -p lasscc-warp-specialize %S/Inputs/lasscc-warp-specialize-default.mlir.in -o %t.default.mlir
// RUN: filecheck %s --check-prefix=DEFAULT --input-file %t.default.mlir
//
// Rejected: a cooperative kernel whose block MMA is not at the warpgroup level yet.
// RUN: not %lasscc opt -p lasscc-warp-specialize %S/Inputs/lasscc-warp-specialize-not-lowered.mlir.in 2>&1 | filecheck %s --check-prefix=ERR

// CHECK-LABEL: func.func @gemm(
// CHECK-NEXT:    %tid = lass_nv.thread_id
// CHECK-NEXT:    [[C128:%[0-9]+]] = arith.constant 128 : i32
// CHECK-NEXT:    %ctid = arith.subi %tid, [[C128]] : i32
// CHECK:         %wg_m0 = arith.muli
// CHECK:         %lane = arith.andi %ctid
// CHECK:         %bars = lass_pipe.tma_pipeline {offset = 18432 : i64, arrivals = 256 : i64}
// CHECK:         [[ISP:%[0-9]+]] = arith.cmpi ult, %tid, {{%[0-9]+}} : i32
// CHECK-NEXT:    lass_wg.warp_specialize [[ISP]] producer {
// CHECK-NEXT:      lass_wg.setmaxnreg dec 40
// CHECK-NEXT:      [[EL:%[0-9]+]] = arith.cmpi eq, %tid, {{%[0-9]+}} : i32
// CHECK-NEXT:      scf.if [[EL]] {
// CHECK:             scf.for %kt = {{%[0-9]+}} to %k_tiles step
// CHECK:               lass_pipe.producer_acquire %bars[{{%[0-9]+}}], {{%[0-9]+}}, {{%[0-9]+}} {tx = 9216 : i64}
// CHECK-NEXT:          lass_pipe.tma_load A %A[%m0, {{%[0-9]+}}], %ring_a
// CHECK-NEXT:          lass_pipe.tma_load B %B[%n0, {{%[0-9]+}}], %ring_b
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:      lass_wg.setmaxnreg inc 232
// CHECK-NOT:       lass_pipe.producer_acquire
// CHECK:           lass_pipe.consumer_wait
// CHECK:           lass_wg.mma
// CHECK:           lass_pipe.consumer_release
// CHECK-NOT:       lass_pipe.producer_acquire
// CHECK-NOT:       lass_pipe.tma_load
// CHECK:           lass_wg.wait {pending = 0 : i64}
// CHECK:           lass_nv.st_global
// CHECK:       {{^    }}}
// CHECK-NEXT:  {{^    }}func.return

// PERSIST:      [[BID:%[0-9]+]] = lass_nv.block_id x
// PERSIST:      %tiles = arith.muli
// PERSIST-NEXT: %ctas = lass_sched.cta_count
// PERSIST-NEXT: lass_wg.warp_specialize {{%[0-9]+}} producer {
// PERSIST:        scf.for %tile = [[BID]] to %tiles step %ctas iter_args(%kt_base = [[Z:%[0-9]+]]) -> (i32) : i32 {
// PERSIST:          %m0 = arith.muli
// PERSIST:          %n0 = arith.muli
// PERSIST:          scf.for %kt = [[Z]] to %k_tiles step
// PERSIST-NEXT:       [[G:%[0-9]+]] = arith.addi %kt_base, %kt : i32
// PERSIST-NEXT:       {{%[0-9]+}} = arith.remui [[G]]
// PERSIST:            lass_pipe.producer_acquire
// PERSIST:            lass_pipe.tma_load A %A[%m0,
// PERSIST:            lass_pipe.tma_load B %B[%n0,
// PERSIST:          scf.yield {{%[0-9]+}} : i32
// PERSIST:      } consumer {
// PERSIST-NEXT:   lass_wg.setmaxnreg inc 232
// PERSIST:        scf.for %tile_1 = [[BID]] to %tiles step %ctas iter_args(%kt_base_1 = [[Z]]) -> (i32) : i32 {
// PERSIST:          lass_sched.claim %tile_1
// PERSIST:          [[LB:%[0-9]+]] = arith.addi %kt_base_1, [[Z]] : i32
// PERSIST-NEXT:     [[UB:%[0-9]+]] = arith.addi %kt_base_1, %k_tiles : i32
// PERSIST-NEXT:     {{.*}} = scf.for %kt_1 = [[LB]] to [[UB]] step
// PERSIST:            lass_pipe.consumer_wait
// PERSIST:          lass_nv.st_global
// PERSIST:          scf.yield {{%[0-9]+}} : i32

// PTMA:          [[IS0:%[0-9]+]] = arith.cmpi eq, %ctid, {{%[0-9]+}} : i32
// PTMA:        } consumer {
// PTMA:          scf.for %tile_1 = {{.*}} -> (i32) : i32 {
// PTMA:            lass_sched.claim %tile_1
// PTMA:                lass_nv.bulk_wait_group_read {pending = 0 : i64}
// PTMA-NEXT:         }
// PTMA-NEXT:         lass_wg.named_barrier {id = 1 : i64, threads = 256 : i64}
// PTMA:              lass_wg.tma_store %D[%m0_1, %n0_1]
// PTMA:              lass_nv.bulk_commit_group
// PTMA-NOT:          bulk_wait_group_read
// PTMA:              lass_wg.tma_store %D[%m0_1,
// PTMA-NOT:          bulk_wait_group_read
// PTMA:            scf.yield {{%[0-9]+}} : i32
// PTMA-NEXT:     }
// PTMA-NEXT:     scf.if [[IS0]] {
// PTMA-NEXT:       lass_nv.bulk_wait_group_read {pending = 0 : i64}
// PTMA-NEXT:     }
// PTMA-NEXT:   }
// PTMA-NEXT:   func.return

// CLUSTER:      %cluster_id = lass_cluster.cluster_id
// CLUSTER-NEXT: %cta_rank = lass_cluster.ctarank
// CLUSTER:      [[TWO:%[0-9]+]] = arith.constant 2 : i32
// CLUSTER:      %cluster_tiles = arith.muli
// CLUSTER-NEXT: %ctas = lass_sched.cta_count
// CLUSTER-NEXT: %clusters = arith.divui %ctas, [[TWO]] : i32
// CLUSTER-NEXT: lass_wg.warp_specialize {{%[0-9]+}} producer {
// CLUSTER:        scf.for %tile = %cluster_id to %cluster_tiles step %clusters iter_args(%kt_base = [[Z:%[0-9]+]]) -> (i32) : i32 {
// CLUSTER:          arith.divui %tile,
// CLUSTER:          %m0 = arith.muli
// CLUSTER:          %n0 = arith.muli
// CLUSTER:          scf.for %kt = [[Z]] to %k_tiles step
// CLUSTER:            lass_pipe.producer_acquire
// CLUSTER:            lass_pipe.tma_load A %A[%m0,
// CLUSTER:            lass_pipe.tma_load B %B[%n0,
// CLUSTER:      } consumer {
// CLUSTER:        scf.for %tile_1 = %cluster_id to %cluster_tiles step %clusters iter_args(%kt_base_1 = [[Z]]) -> (i32) : i32 {
// CLUSTER:          [[FIRST:%[0-9]+]] = arith.muli %tile_1, [[TWO]] : i32
// CLUSTER-NEXT:     [[MINE:%[0-9]+]] = arith.addi [[FIRST]], %cta_rank : i32
// CLUSTER-NEXT:     lass_sched.claim [[MINE]]
// CLUSTER:          lass_pipe.consumer_wait
// CLUSTER:          lass_nv.st_global

// CLUSTER-ERR: lasscc-warp-specialize-persistent-cluster-batch.mlir.in:{{[0-9]+}}:{{[0-9]+}}: error: persistent = 1: expected one grid dimension (%clusterid.x: no batch, no split-K)

// PING:      %ctid = arith.remui %tid, [[C128:%[0-9]+]] : i32
// PING:      [[BID:%[0-9]+]] = lass_nv.block_id x
// PING:      %bars = lass_pipe.tma_pipeline {offset = 10240 : i64, arrivals = 128 : i64}
// PING:      %ctas = lass_sched.cta_count
// PING:      scf.if
// PING-COUNT-4: lass_nv.mbarrier_init {{%[0-9]+}}, [[C128]]
// PING-NEXT:   lass_nv.fence_mbarrier_init
// PING:      lass_nv.bar_sync
// PING-NEXT: lass_wg.warp_specialize {{%[0-9]+}} producer {
// PING-NEXT:   lass_wg.setmaxnreg dec 40
// PING:          scf.for %tile = [[BID]] to %tiles step %ctas iter_args(%kt_base = {{%[0-9]+}}) -> (i32) : i32 {
// PING:            lass_pipe.producer_acquire
// PING:      } consumer {
// PING-NEXT:   lass_wg.setmaxnreg inc 232
// PING:        %consumer = arith.subi
// PING:        [[FIRST:%[0-9]+]] = arith.muli %consumer, %ctas : i32
// PING-NEXT:   [[START:%[0-9]+]] = arith.addi [[BID]], [[FIRST]] : i32
// PING-NEXT:   [[STEP:%[0-9]+]] = arith.muli %ctas, {{%[0-9]+}} : i32
// PING:        scf.for %tile_1 = [[START]] to %tiles step [[STEP]] iter_args(%kt_base_1 = {{%[0-9]+}}, %order = {{%[0-9]+}}) -> (i32, i32) : i32 {
// PING:          lass_sched.claim %tile_1
// PING:          [[LB:%[0-9]+]] = arith.addi %kt_base_1
// PING-NEXT:     [[UB:%[0-9]+]] = arith.addi %kt_base_1, %k_tiles : i32
// PING-NEXT:     lass_nv.mbarrier_wait_parity {{%[0-9]+}}, %order
// PING-NEXT:     {{.*}} = scf.for %kt_1 = [[LB]] to [[UB]] step
// PING:            lass_pipe.consumer_wait
// PING:            [[LATE:%[0-9]+]] = arith.cmpi ult, [[LB]], %kt_1 : i32
// PING-NEXT:       lass_pipe.consumer_release %bars[{{%[0-9]+}}], [[LATE]]
// PING:          }
// PING-NEXT:     lass_nv.mbarrier_arrive
// PING-NEXT:     lass_wg.wait {pending = 0 : i64}
// PING:          [[ANY:%[0-9]+]] = arith.cmpi ult, [[LB]], [[UB]] : i32
// PING-NEXT:     lass_pipe.consumer_release %bars[{{%[0-9]+}}], [[ANY]]
// PING-NEXT:     lass_nv.mbarrier_wait_parity {{%[0-9]+}}, %order
// PING:          lass_nv.st_global
// PING:          lass_nv.mbarrier_arrive
// PING:          [[FLIP:%[0-9]+]] = arith.xori %order
// PING-NEXT:     scf.yield {{%[0-9]+}}, [[FLIP]] : i32, i32
// PING:      } {independent_consumers}

// PING-ERR: lasscc-warp-specialize-pingpong-f16.mlir.in:{{[0-9]+}}:{{[0-9]+}}: error: schedule = "pingpong": the staged epilogue of a 16-bit D stages through the operand ring

// PP128:      %ctid = arith.remui %tid
// PP128:      } consumer {
// PP128:        scf.for %tile_1 =
// PP128:          lass_nv.mbarrier_wait_parity {{%[0-9]+}}, %order
// PP128:          lass_nv.stmatrix_x4
// PP128:          lass_nv.fence_proxy_async
// PP128-NEXT:     lass_wg.named_barrier {id = 1 : i64, threads = 128 : i64}
// PP128:          lass_wg.tma_store
// PP128:          lass_nv.bulk_wait_group_read {pending = 0 : i64}
// PP128:          lass_nv.mbarrier_arrive
// PP128-NEXT:     {{%[0-9]+}} = arith.addi %kt_base_1
// PP128:      } {independent_consumers}

// PP128-ERR: lasscc-warp-specialize-pingpong128-regs.mlir.in:3:3: error: config: schedule = "pingpong": threadblock = [128, 256, 64]: a consumer warpgroup's 128x256 accumulators need ~320 registers per thread (256 + ~64 others), more than its 232 after setmaxnreg; use a smaller threadblock N (at most 168)

// DEFAULT-NOT: lass_wg.warp_specialize
// DEFAULT-NOT: setmaxnreg
// DEFAULT:     scf.if
// DEFAULT-NEXT:  lass_pipe.producer_acquire

// ERR: lasscc-warp-specialize-not-lowered.mlir.in:{{[0-9]+}}:{{[0-9]+}}: error: expected lass_wg code (run lasscc-warpgroup-mma first), got lass_pipe.mma

builtin.module {
  func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %M: i32, %N: i32, %K: i32, %alpha: f32, %beta: f32) attributes {lass.kernel = #lass.kernel<ab = f16, acc = f32, d = f32, layouts = [row, col, row], alpha = 1.0, beta = 0.0, config = {threadblock = [128, 16, 32], warp = [64, 16, 32], instruction = [64, 16, 16], stages = 2, raster = 8, prefetch = 0, mma = "wgmma", schedule = "cooperative"}>} {
    %tid = lass_nv.thread_id
    %0 = arith.constant 7 : i32
    %1 = arith.shrui %tid, %0 : i32
    %2 = arith.constant 64 : i32
    %wg_m0 = arith.muli %1, %2 : i32
    %3 = arith.constant 31 : i32
    %lane = arith.andi %tid, %3 : i32
    %4 = arith.constant 5 : i32
    %warp = arith.shrui %tid, %4 : i32
    %5 = arith.constant 8 : i32
    %6 = arith.remui %warp, %5 : i32
    %7 = arith.divui %warp, %5 : i32
    %8 = arith.constant 16 : i32
    %warp_m0 = arith.muli %6, %8 : i32
    %warp_n0 = arith.muli %7, %8 : i32
    %9 = lass_nv.block_id x
    %10 = arith.constant 127 : i32
    %11 = arith.addi %M, %10 : i32
    %12 = arith.constant 128 : i32
    %13 = arith.divui %11, %12 : i32
    %14 = arith.constant 15 : i32
    %15 = arith.addi %N, %14 : i32
    %16 = arith.divui %15, %8 : i32
    %17 = arith.muli %16, %5 : i32
    %18 = arith.divui %9, %17 : i32
    %19 = arith.muli %18, %5 : i32
    %20 = arith.subi %13, %19 : i32
    %21 = arith.minui %20, %5 : i32
    %22 = arith.remui %9, %17 : i32
    %23 = arith.remui %22, %21 : i32
    %24 = arith.addi %19, %23 : i32
    %25 = arith.divui %22, %21 : i32
    %m0 = arith.muli %24, %12 : i32
    %n0 = arith.muli %25, %8 : i32
    %26 = arith.constant 0.000000e+00 : f32
    %ring_a = lass_pipe.ring {offset = 0 : i64} : !lass_pipe.ring<2x128x32xf16>
    %ring_b = lass_pipe.ring {offset = 16384 : i64} : !lass_pipe.ring<2x16x32xf16>
    %bars = lass_pipe.tma_pipeline {offset = 18432 : i64, arrivals = 256 : i64} : !lass_pipe.barriers<2>
    %27 = arith.addi %K, %3 : i32
    %28 = arith.constant 32 : i32
    %k_tiles = arith.divui %27, %28 : i32
    %29 = arith.constant 0 : i32
    %30 = arith.cmpi ult, %29, %k_tiles : i32
    %31 = arith.constant 2 : i32
    %32 = arith.remui %29, %31 : i32
    %33 = arith.divui %29, %31 : i32
    %34 = arith.remui %33, %31 : i32
    %35 = arith.muli %29, %28 : i32
    %36 = arith.cmpi eq, %tid, %29 : i32
    scf.if %36 {
      lass_pipe.producer_acquire %bars[%32], %34, %30 {tx = 9216 : i64} : !lass_pipe.barriers<2>
      lass_pipe.tma_load A %A[%m0, %35], %ring_a[%32], %bars, %30 : memref<?x?xf16>, !lass_pipe.ring<2x128x32xf16>, !lass_pipe.barriers<2>
      lass_pipe.tma_load B %B[%n0, %35], %ring_b[%32], %bars, %30 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<2x16x32xf16>, !lass_pipe.barriers<2>
    }
    %37 = arith.constant 1 : i32
    %38, %39, %40, %41, %42, %43, %44, %45 = scf.for %kt = %29 to %k_tiles step %37 iter_args(%46 = %26, %47 = %26, %48 = %26, %49 = %26, %50 = %26, %51 = %26, %52 = %26, %53 = %26) -> (f32, f32, f32, f32, f32, f32, f32, f32) : i32 {
      %slot = arith.remui %kt, %31 : i32
      %54 = arith.divui %kt, %31 : i32
      %phase = arith.remui %54, %31 : i32
      lass_pipe.consumer_wait %bars[%slot], %phase : !lass_pipe.barriers<2>
      lass_wg.fence
      %55, %56, %57, %58, %59, %60, %61, %62 = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 0 acc(%46, %47, %48, %49, %50, %51, %52, %53) : !lass_pipe.ring<2x128x32xf16>, !lass_pipe.ring<2x16x32xf16>, f32
      %63, %64, %65, %66, %67, %68, %69, %70 = lass_wg.mma %ring_a[%slot] rows %wg_m0, %ring_b[%slot] k 16 acc(%55, %56, %57, %58, %59, %60, %61, %62) : !lass_pipe.ring<2x128x32xf16>, !lass_pipe.ring<2x16x32xf16>, f32
      lass_wg.commit
      lass_wg.wait {pending = 1 : i64}
      %71 = arith.addi %kt, %37 : i32
      %72 = arith.remui %71, %31 : i32
      %73 = arith.cmpi ult, %29, %kt : i32
      lass_pipe.consumer_release %bars[%72], %73 : !lass_pipe.barriers<2>
      %74 = arith.cmpi ult, %71, %k_tiles : i32
      %75 = arith.remui %71, %31 : i32
      %76 = arith.divui %71, %31 : i32
      %77 = arith.remui %76, %31 : i32
      %78 = arith.muli %71, %28 : i32
      scf.if %36 {
        lass_pipe.producer_acquire %bars[%75], %77, %74 {tx = 9216 : i64} : !lass_pipe.barriers<2>
        lass_pipe.tma_load A %A[%m0, %78], %ring_a[%75], %bars, %74 : memref<?x?xf16>, !lass_pipe.ring<2x128x32xf16>, !lass_pipe.barriers<2>
        lass_pipe.tma_load B %B[%n0, %78], %ring_b[%75], %bars, %74 : memref<?x?xf16, strided<[1, ?]>>, !lass_pipe.ring<2x16x32xf16>, !lass_pipe.barriers<2>
      }
      scf.yield %63, %64, %65, %66, %67, %68, %69, %70 : f32, f32, f32, f32, f32, f32, f32, f32
    }
    lass_wg.wait {pending = 0 : i64}
    %79 = arith.shrui %lane, %31 : i32
    %80 = arith.constant 3 : i32
    %81 = arith.andi %lane, %80 : i32
    %82 = arith.muli %81, %31 : i32
    %83 = arith.addi %m0, %warp_m0 : i32
    %84 = arith.addi %83, %79 : i32
    %85 = arith.addi %n0, %warp_n0 : i32
    %86 = arith.addi %85, %82 : i32
    %87 = arith.constant true
    %88 = arith.andi %N, %37 : i32
    %89 = arith.cmpi eq, %88, %29 : i32
    %90 = arith.cmpf one, %beta, %26 : f32
    %91 = arith.addi %m0, %12 : i32
    %92 = arith.cmpi ule, %91, %M : i32
    %93 = arith.addi %n0, %8 : i32
    %94 = arith.cmpi ule, %93, %N : i32
    %95 = arith.andi %92, %94 : i1
    %96 = arith.andi %95, %89 : i1
    scf.if %90 {
      scf.if %96 {
        %97 = arith.muli %84, %N : i32
        %98 = arith.addi %97, %86 : i32
        %99 = arith.mulf %alpha, %38 : f32
        %100 = arith.mulf %alpha, %39 : f32
        %101, %102 = lass_nv.ld_global %D[%98] x 2 if %87 : memref<?x?xf32>
        %103 = arith.mulf %beta, %101 : f32
        %104 = arith.addf %99, %103 : f32
        %105 = arith.mulf %beta, %102 : f32
        %106 = arith.addf %100, %105 : f32
        lass_nv.st_global %D[%98], %104, %106 if %87 : memref<?x?xf32>, f32, f32
        %107 = arith.addi %84, %5 : i32
        %108 = arith.muli %107, %N : i32
        %109 = arith.addi %108, %86 : i32
        %110 = arith.mulf %alpha, %40 : f32
        %111 = arith.mulf %alpha, %41 : f32
        %112, %113 = lass_nv.ld_global %D[%109] x 2 if %87 : memref<?x?xf32>
        %114 = arith.mulf %beta, %112 : f32
        %115 = arith.addf %110, %114 : f32
        %116 = arith.mulf %beta, %113 : f32
        %117 = arith.addf %111, %116 : f32
        lass_nv.st_global %D[%109], %115, %117 if %87 : memref<?x?xf32>, f32, f32
        %118 = arith.addi %86, %5 : i32
        %119 = arith.addi %97, %118 : i32
        %120 = arith.mulf %alpha, %42 : f32
        %121 = arith.mulf %alpha, %43 : f32
        %122, %123 = lass_nv.ld_global %D[%119] x 2 if %87 : memref<?x?xf32>
        %124 = arith.mulf %beta, %122 : f32
        %125 = arith.addf %120, %124 : f32
        %126 = arith.mulf %beta, %123 : f32
        %127 = arith.addf %121, %126 : f32
        lass_nv.st_global %D[%119], %125, %127 if %87 : memref<?x?xf32>, f32, f32
        %128 = arith.addi %108, %118 : i32
        %129 = arith.mulf %alpha, %44 : f32
        %130 = arith.mulf %alpha, %45 : f32
        %131, %132 = lass_nv.ld_global %D[%128] x 2 if %87 : memref<?x?xf32>
        %133 = arith.mulf %beta, %131 : f32
        %134 = arith.addf %129, %133 : f32
        %135 = arith.mulf %beta, %132 : f32
        %136 = arith.addf %130, %135 : f32
        lass_nv.st_global %D[%128], %134, %136 if %87 : memref<?x?xf32>, f32, f32
      } else {
        %137 = arith.cmpi ult, %84, %M : i32
        %138 = arith.cmpi ult, %86, %N : i32
        %139 = arith.andi %137, %138 : i1
        %140 = arith.addi %86, %37 : i32
        %141 = arith.cmpi ult, %140, %N : i32
        %142 = arith.andi %137, %141 : i1
        %143 = arith.andi %142, %89 : i1
        %144 = arith.xori %143, %87 : i1
        %145 = arith.andi %139, %144 : i1
        %146 = arith.andi %142, %144 : i1
        %147 = arith.muli %84, %N : i32
        %148 = arith.addi %147, %86 : i32
        %149 = arith.addi %148, %37 : i32
        %150 = arith.mulf %alpha, %38 : f32
        %151 = arith.mulf %alpha, %39 : f32
        %152, %153 = lass_nv.ld_global %D[%148] x 2 if %143 : memref<?x?xf32>
        %154 = lass_nv.ld_global %D[%148] x 1 if %145 : memref<?x?xf32>
        %155 = lass_nv.ld_global %D[%149] x 1 if %146 : memref<?x?xf32>
        %156 = arith.select %143, %152, %154 : f32
        %157 = arith.select %143, %153, %155 : f32
        %158 = arith.mulf %beta, %156 : f32
        %159 = arith.addf %150, %158 : f32
        %160 = arith.mulf %beta, %157 : f32
        %161 = arith.addf %151, %160 : f32
        lass_nv.st_global %D[%148], %159, %161 if %143 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%148], %159 if %145 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%149], %161 if %146 : memref<?x?xf32>, f32
        %162 = arith.addi %84, %5 : i32
        %163 = arith.cmpi ult, %162, %M : i32
        %164 = arith.andi %163, %138 : i1
        %165 = arith.andi %163, %141 : i1
        %166 = arith.andi %165, %89 : i1
        %167 = arith.xori %166, %87 : i1
        %168 = arith.andi %164, %167 : i1
        %169 = arith.andi %165, %167 : i1
        %170 = arith.muli %162, %N : i32
        %171 = arith.addi %170, %86 : i32
        %172 = arith.addi %171, %37 : i32
        %173 = arith.mulf %alpha, %40 : f32
        %174 = arith.mulf %alpha, %41 : f32
        %175, %176 = lass_nv.ld_global %D[%171] x 2 if %166 : memref<?x?xf32>
        %177 = lass_nv.ld_global %D[%171] x 1 if %168 : memref<?x?xf32>
        %178 = lass_nv.ld_global %D[%172] x 1 if %169 : memref<?x?xf32>
        %179 = arith.select %166, %175, %177 : f32
        %180 = arith.select %166, %176, %178 : f32
        %181 = arith.mulf %beta, %179 : f32
        %182 = arith.addf %173, %181 : f32
        %183 = arith.mulf %beta, %180 : f32
        %184 = arith.addf %174, %183 : f32
        lass_nv.st_global %D[%171], %182, %184 if %166 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%171], %182 if %168 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%172], %184 if %169 : memref<?x?xf32>, f32
        %185 = arith.addi %86, %5 : i32
        %186 = arith.cmpi ult, %185, %N : i32
        %187 = arith.andi %137, %186 : i1
        %188 = arith.addi %185, %37 : i32
        %189 = arith.cmpi ult, %188, %N : i32
        %190 = arith.andi %137, %189 : i1
        %191 = arith.andi %190, %89 : i1
        %192 = arith.xori %191, %87 : i1
        %193 = arith.andi %187, %192 : i1
        %194 = arith.andi %190, %192 : i1
        %195 = arith.addi %147, %185 : i32
        %196 = arith.addi %195, %37 : i32
        %197 = arith.mulf %alpha, %42 : f32
        %198 = arith.mulf %alpha, %43 : f32
        %199, %200 = lass_nv.ld_global %D[%195] x 2 if %191 : memref<?x?xf32>
        %201 = lass_nv.ld_global %D[%195] x 1 if %193 : memref<?x?xf32>
        %202 = lass_nv.ld_global %D[%196] x 1 if %194 : memref<?x?xf32>
        %203 = arith.select %191, %199, %201 : f32
        %204 = arith.select %191, %200, %202 : f32
        %205 = arith.mulf %beta, %203 : f32
        %206 = arith.addf %197, %205 : f32
        %207 = arith.mulf %beta, %204 : f32
        %208 = arith.addf %198, %207 : f32
        lass_nv.st_global %D[%195], %206, %208 if %191 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%195], %206 if %193 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%196], %208 if %194 : memref<?x?xf32>, f32
        %209 = arith.andi %163, %186 : i1
        %210 = arith.andi %163, %189 : i1
        %211 = arith.andi %210, %89 : i1
        %212 = arith.xori %211, %87 : i1
        %213 = arith.andi %209, %212 : i1
        %214 = arith.andi %210, %212 : i1
        %215 = arith.addi %170, %185 : i32
        %216 = arith.addi %215, %37 : i32
        %217 = arith.mulf %alpha, %44 : f32
        %218 = arith.mulf %alpha, %45 : f32
        %219, %220 = lass_nv.ld_global %D[%215] x 2 if %211 : memref<?x?xf32>
        %221 = lass_nv.ld_global %D[%215] x 1 if %213 : memref<?x?xf32>
        %222 = lass_nv.ld_global %D[%216] x 1 if %214 : memref<?x?xf32>
        %223 = arith.select %211, %219, %221 : f32
        %224 = arith.select %211, %220, %222 : f32
        %225 = arith.mulf %beta, %223 : f32
        %226 = arith.addf %217, %225 : f32
        %227 = arith.mulf %beta, %224 : f32
        %228 = arith.addf %218, %227 : f32
        lass_nv.st_global %D[%215], %226, %228 if %211 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%215], %226 if %213 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%216], %228 if %214 : memref<?x?xf32>, f32
      }
    } else {
      scf.if %96 {
        %229 = arith.muli %84, %N : i32
        %230 = arith.addi %229, %86 : i32
        %231 = arith.mulf %alpha, %38 : f32
        %232 = arith.mulf %alpha, %39 : f32
        lass_nv.st_global %D[%230], %231, %232 if %87 : memref<?x?xf32>, f32, f32
        %233 = arith.addi %84, %5 : i32
        %234 = arith.muli %233, %N : i32
        %235 = arith.addi %234, %86 : i32
        %236 = arith.mulf %alpha, %40 : f32
        %237 = arith.mulf %alpha, %41 : f32
        lass_nv.st_global %D[%235], %236, %237 if %87 : memref<?x?xf32>, f32, f32
        %238 = arith.addi %86, %5 : i32
        %239 = arith.addi %229, %238 : i32
        %240 = arith.mulf %alpha, %42 : f32
        %241 = arith.mulf %alpha, %43 : f32
        lass_nv.st_global %D[%239], %240, %241 if %87 : memref<?x?xf32>, f32, f32
        %242 = arith.addi %234, %238 : i32
        %243 = arith.mulf %alpha, %44 : f32
        %244 = arith.mulf %alpha, %45 : f32
        lass_nv.st_global %D[%242], %243, %244 if %87 : memref<?x?xf32>, f32, f32
      } else {
        %245 = arith.cmpi ult, %84, %M : i32
        %246 = arith.cmpi ult, %86, %N : i32
        %247 = arith.andi %245, %246 : i1
        %248 = arith.addi %86, %37 : i32
        %249 = arith.cmpi ult, %248, %N : i32
        %250 = arith.andi %245, %249 : i1
        %251 = arith.andi %250, %89 : i1
        %252 = arith.xori %251, %87 : i1
        %253 = arith.andi %247, %252 : i1
        %254 = arith.andi %250, %252 : i1
        %255 = arith.muli %84, %N : i32
        %256 = arith.addi %255, %86 : i32
        %257 = arith.addi %256, %37 : i32
        %258 = arith.mulf %alpha, %38 : f32
        %259 = arith.mulf %alpha, %39 : f32
        lass_nv.st_global %D[%256], %258, %259 if %251 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%256], %258 if %253 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%257], %259 if %254 : memref<?x?xf32>, f32
        %260 = arith.addi %84, %5 : i32
        %261 = arith.cmpi ult, %260, %M : i32
        %262 = arith.andi %261, %246 : i1
        %263 = arith.andi %261, %249 : i1
        %264 = arith.andi %263, %89 : i1
        %265 = arith.xori %264, %87 : i1
        %266 = arith.andi %262, %265 : i1
        %267 = arith.andi %263, %265 : i1
        %268 = arith.muli %260, %N : i32
        %269 = arith.addi %268, %86 : i32
        %270 = arith.addi %269, %37 : i32
        %271 = arith.mulf %alpha, %40 : f32
        %272 = arith.mulf %alpha, %41 : f32
        lass_nv.st_global %D[%269], %271, %272 if %264 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%269], %271 if %266 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%270], %272 if %267 : memref<?x?xf32>, f32
        %273 = arith.addi %86, %5 : i32
        %274 = arith.cmpi ult, %273, %N : i32
        %275 = arith.andi %245, %274 : i1
        %276 = arith.addi %273, %37 : i32
        %277 = arith.cmpi ult, %276, %N : i32
        %278 = arith.andi %245, %277 : i1
        %279 = arith.andi %278, %89 : i1
        %280 = arith.xori %279, %87 : i1
        %281 = arith.andi %275, %280 : i1
        %282 = arith.andi %278, %280 : i1
        %283 = arith.addi %255, %273 : i32
        %284 = arith.addi %283, %37 : i32
        %285 = arith.mulf %alpha, %42 : f32
        %286 = arith.mulf %alpha, %43 : f32
        lass_nv.st_global %D[%283], %285, %286 if %279 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%283], %285 if %281 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%284], %286 if %282 : memref<?x?xf32>, f32
        %287 = arith.andi %261, %274 : i1
        %288 = arith.andi %261, %277 : i1
        %289 = arith.andi %288, %89 : i1
        %290 = arith.xori %289, %87 : i1
        %291 = arith.andi %287, %290 : i1
        %292 = arith.andi %288, %290 : i1
        %293 = arith.addi %268, %273 : i32
        %294 = arith.addi %293, %37 : i32
        %295 = arith.mulf %alpha, %44 : f32
        %296 = arith.mulf %alpha, %45 : f32
        lass_nv.st_global %D[%293], %295, %296 if %289 : memref<?x?xf32>, f32, f32
        lass_nv.st_global %D[%293], %295 if %291 : memref<?x?xf32>, f32
        lass_nv.st_global %D[%294], %296 if %292 : memref<?x?xf32>, f32
      }
    }
    func.return
  }
}
