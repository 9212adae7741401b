// Regression (issue 12 item 8): lasscc's pass errors printed `<unknown location>` under xdsl-opt,
// whose parser records no op positions.  Both drivers now name the op's file:line:col
// (Operation.location; lasscc.universe gives xdsl-opt lasscc.source.LocatingParser), and an
// explicit `loc(...)` in the input wins, as in mlir-opt.  xdsl-opt itself prints the exception
// with its traceback; the message line is what is checked.
// RUN: not %lasscc opt -p lasscc-tile-threadblock %s 2>&1 | filecheck %s
// RUN: not xdsl-opt -p lasscc-tile-threadblock %s 2>&1 | filecheck %s
// CHECK: lasscc-tile-threadblock-xdsl-opt-location.mlir:15:3: error: config: expected stages >= 2, got 1
// CHECK-NOT: unknown location
// RUN: sed 's|func.return$|func.return loc("user.mlir":7:5)|; s|^      ins(%a.*memref<?x?xf32>)$|& loc("user.mlir":3:9)|' %s > %t.loc.mlir
// RUN: not %lasscc opt -p lasscc-tile-threadblock %t.loc.mlir 2>&1 | filecheck %s --check-prefix=LOC
// RUN: not xdsl-opt -p lasscc-tile-threadblock %t.loc.mlir 2>&1 | filecheck %s --check-prefix=LOC
// LOC: user.mlir:3:9: error: config: expected stages >= 2, got 1
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[1, ?]>>, %d: memref<?x?xf32>) {
  lass.gemm {config = {threadblock = [64, 64, 32], warp = [32, 32, 32], stages = 1}}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[1, ?]>>) outs(%d : memref<?x?xf32>)
  func.return
}
