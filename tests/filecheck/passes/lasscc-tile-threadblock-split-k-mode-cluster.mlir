// Cluster split-K (`--split-k-mode cluster`, lasscc.cluster_splitk): the K partitions of a tile are
// the CTAs of one thread block cluster, reduced through distributed shared memory.
// lasscc-tile-threadblock: no workspace W, the K partition, lass_tb.cluster_reduce, the epilogue's
// column window; lasscc-warpgroup-mma: the rank from %cluster_ctarank, the tile from %clusterid.x,
// the partial to shared memory, the two cluster barriers around the DSMEM reads, the cluster dims.
// RUN: %lasscc opt -p lasscc-tile-threadblock --split-k-mode cluster --arch sm_90a %s | filecheck %s --check-prefix=TB
// RUN: %lasscc opt -p lasscc-tile-threadblock,lasscc-pipeline,lasscc-warpgroup-mma --split-k-mode cluster --arch sm_90a %s | filecheck %s --check-prefix=WG
//
// Left alone: split_k_mode serial keeps its semaphore epilogue (no cluster reduction).
// RUN: %lasscc opt -p lasscc-tile-threadblock --split-k-mode serial --arch sm_90a %s | filecheck %s --check-prefix=SERIAL
//
// Rejected, located (exit 2): more partitions than a portable cluster holds; an mma.sync kernel.
// RUN: not %lasscc opt -p lasscc-tile-threadblock --split-k-mode cluster --split-k 16 --arch sm_90a %s 2>&1 | filecheck %s --check-prefix=ERR-S
// RUN: not %lasscc opt -p lasscc-tile-threadblock --arch sm_90a %S/Inputs/lasscc-tile-threadblock-split-k-mode-cluster-mma-sync.mlir.in 2>&1 | filecheck %s --check-prefix=ERR-MMA

func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {alpha = 1.0 : f32, beta = 0.5 : f32,
             config = {mma = "wgmma", threadblock = [128, 64, 64], stages = 4, split_k = 2}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}

// TB-LABEL: func.func @gemm(
// TB-SAME:    %alpha: f32, %beta: f32)
// TB:         %part, %k_begin, %k_end = lass_tb.k_partition %K {split = 2 : i64, tile_k = 64 : i64}
// TB:         %sum = lass_tb.cluster_reduce %{{[0-9]+}} {split = 2 : i64} : !lass_tb.acc<128x64xf32> -> !lass_tb.acc<128x64xf32>
// TB-NEXT:    lass_tb.epilogue %sum, %D[%m0, %n0], %alpha, %beta {cluster_split = 2 : i64}

// WG-LABEL: func.func @gemm(
// WG-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
// WG:         %part = lass_cluster.ctarank
// WG:         %cluster_id = lass_cluster.cluster_id
// WG:         lass_nv.bar_sync
// WG:         lass_nv.st_shared
// WG:         lass_cluster.sync
// WG:         lass_cluster.ld_shared_remote
// WG:         lass_cluster.sync
// WG-NOT:     lass_cluster.sync
// WG:         func.return

// SERIAL-NOT: lass_tb.cluster_reduce
// SERIAL:     lass_tb.semaphore_wait

// ERR-S: option --split-k/--split-k-mode: config: split_k_mode = "cluster": expected split_k from 2 to 8
// ERR-MMA: lasscc-tile-threadblock-split-k-mode-cluster-mma-sync.mlir.in:3:3: error: config: split_k_mode = "cluster" needs mma = "wgmma"
