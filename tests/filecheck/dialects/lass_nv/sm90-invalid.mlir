// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s

// The sm_90a ops of lass_nv and the tensor-map type: one case per verifier message.

func.func @n_not_a_shape(%x: i64, %f: f32, %p: i1) {
  %r:4 = lass_nv.wgmma_mma_async a(%x) b(%x) c(%f, %f, %f, %f) scale_d %p {n = 12 : i64} : f32
  func.return
}
// CHECK: Operation does not verify: expected n one of 8, 16, 24, {{.*}}, 256 for ab_type f16, got 12

// -----

func.func @s8_n40(%x: i64, %f: i32, %p: i1) {
  %r:20 = lass_nv.wgmma_mma_async a(%x) b(%x) c(%f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f) scale_d %p {n = 40 : i64, ab_type = "s8"} : i32
  func.return
}
// CHECK: Operation does not verify: expected n one of 8, 16, 24, 32, 48, {{.*}} for ab_type s8, got 40

// -----

func.func @few_accumulators(%x: i64, %f: f32, %p: i1) {
  %r:2 = lass_nv.wgmma_mma_async a(%x) b(%x) c(%f, %f) scale_d %p {n = 8 : i64} : f32
  func.return
}
// CHECK: Operation does not verify: expected 4 accumulator values of one type for m64n8, got 2: ['f32']

// -----

func.func @bf16_f16_acc(%x: i64, %f: f16, %p: i1) {
  %r:4 = lass_nv.wgmma_mma_async a(%x) b(%x) c(%f, %f, %f, %f) scale_d %p {n = 8 : i64, ab_type = "bf16"} : f16
  func.return
}
// CHECK: Operation does not verify: expected a f32 accumulator for ab_type bf16, got f16

// -----

func.func @three_a_registers(%x: i64, %r0: i32, %f: f32, %p: i1) {
  %r:4 = "lass_nv.wgmma_mma_async"(%r0, %r0, %r0, %x, %f, %f, %f, %f, %p) <{operandSegmentSizes = array<i32: 3, 1, 4, 1>}> {n = 8 : i64} : (i32, i32, i32, i64, f32, f32, f32, f32, i1) -> (f32, f32, f32, f32)
  func.return
}
// CHECK: Operation does not verify: expected a = one i64 descriptor (SS) or 4 i32 registers (RS), got ['i32', 'i32', 'i32']

// -----

func.func @tf32_transposed(%x: i64, %f: f32, %p: i1) {
  %r:4 = lass_nv.wgmma_mma_async a(%x) b(%x) c(%f, %f, %f, %f) scale_d %p {n = 8 : i64, ab_type = "tf32", trans_b = 1 : i64} : f32
  func.return
}
// CHECK: Operation does not verify: expected trans_b = 0 (transpose is for f16/bf16 only), got 1

// -----

func.func @rs_trans_a(%r0: i32, %x: i64, %f: f32, %p: i1) {
  %r:4 = lass_nv.wgmma_mma_async a(%r0, %r0, %r0, %r0) b(%x) c(%f, %f, %f, %f) scale_d %p {n = 8 : i64, trans_a = 1 : i64} : f32
  func.return
}
// CHECK: Operation does not verify: expected trans_a = 0 with A from registers (RS: A is K-major), got 1

// -----

func.func @s8_scale(%x: i64, %f: i32, %p: i1) {
  %r:4 = lass_nv.wgmma_mma_async a(%x) b(%x) c(%f, %f, %f, %f) scale_d %p {n = 8 : i64, ab_type = "s8", scale_a = -1 : i64} : i32
  func.return
}
// CHECK: Operation does not verify: expected scale_a = 1 (s8 has no imm-scale), got -1

// -----

func.func @wait_group_8() {
  lass_nv.wgmma_wait_group {pending = 8 : i64}
  func.return
}
// CHECK: Operation does not verify: expected pending in 0..7, got 8

// -----

func.func @box_too_wide(%t: !lass_nv.tensor_map<64x128xf16, swizzle_128b>) {
  func.return
}
// CHECK: expected a TMA box: the inner box dimension is 256 bytes: with the 128B swizzle it must be at most 128 bytes (use several boxes)

// -----

func.func @bad_swizzle(%t: !lass_nv.tensor_map<64x64xf16, swizzle_16b>) {
  func.return
}
// CHECK: expected swizzle_none, swizzle_32b, swizzle_64b or swizzle_128b, got swizzle_16b

// -----

func.func @batch_box_deeper_than_one(%t: !lass_nv.tensor_map<2x64x64xf16, swizzle_128b>) {
  func.return
}
// CHECK: expected a 2-d box (rows x cols) or a 3-d one 1 matrix deep (batch x rows x cols), got [2, 64, 64]

// -----

func.func @load_2d_of_batched_map(%t: !lass_nv.tensor_map<1x64x64xf16, swizzle_128b>, %c: i32) {
  lass_nv.tma_load_2d %t[%c, %c], %c, %c : !lass_nv.tensor_map<1x64x64xf16, swizzle_128b>
  func.return
}
// CHECK: Operation does not verify: expected a 2-d tensor map, got !lass_nv.tensor_map<1x64x64xf16, swizzle_128b> (tma_load_3d loads a 3-d one)

// -----

func.func @load_3d_of_2d_map(%t: !lass_nv.tensor_map<64x64xf16, swizzle_128b>, %c: i32) {
  lass_nv.tma_load_3d %t[%c, %c, %c], %c, %c : !lass_nv.tensor_map<64x64xf16, swizzle_128b>
  func.return
}
// CHECK: Operation does not verify: expected a 3-d (batched) tensor map, got !lass_nv.tensor_map<64x64xf16, swizzle_128b>
