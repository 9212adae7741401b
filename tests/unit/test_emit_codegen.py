"""The NVPTX codegen pipeline of `lasscc.emit.to_ptx` (issue 16): LLVM's straight-line strength
reduction (`slsr`, ~85% of the NVPTX emit on the mma.sync kernels' long epilogue block) is left out
through LLVM's pass gate (`-opt-disable`), and the codegen runs at level 2 (`CODEGEN_OPT_LEVEL`).  BENCHMARKS.md "Compile time (session 10)" has what it
changes in the examples' PTX (the pipeline prologue's address arithmetic; the K loops alike)."""

from __future__ import annotations

import re

from lasscc.emit import CODEGEN_PASSES_SKIPPED, to_ptx

# b * s, (b + 1) * s and (b + 2) * s: SLSR rewrites the last as (b + 1) * s + s (one `mul.lo`, then
# two `add`); without it (b + 2) * s stays a multiply (the optimizer folds only (b + 1) * s into b * s + s).
_SLSR_CANDIDATES = """
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr addrspace(1) %p, i32 %b, i32 %s) {
  %b1 = add i32 %b, 1
  %b2 = add i32 %b, 2
  %m0 = mul i32 %b, %s
  %m1 = mul i32 %b1, %s
  %m2 = mul i32 %b2, %s
  store volatile i32 %m0, ptr addrspace(1) %p
  store volatile i32 %m1, ptr addrspace(1) %p
  store volatile i32 %m2, ptr addrspace(1) %p
  ret void
}
"""


def test_straight_line_strength_reduction_is_left_out():
    assert "slsr" in CODEGEN_PASSES_SKIPPED
    ptx = to_ptx(_SLSR_CANDIDATES, "sm_80")
    muls = re.findall(r"^\s*mul\.lo\.s32\s", ptx, re.M)
    assert len(muls) == 2, ptx


def test_the_rest_of_the_pipeline_still_optimizes():
    """The IR pipeline still runs: a value computed twice is computed once."""
    ir = _SLSR_CANDIDATES.replace("%m2 = mul i32 %b2, %s", "%m2 = mul i32 %b1, %s")
    ptx = to_ptx(ir, "sm_80")
    assert len(re.findall(r"^\s*mul\.lo\.s32\s", ptx, re.M)) == 1, ptx


def _pass_gate_log() -> str:
    """What LLVM's pass gate says it runs and skips in one to_ptx (`-opt-disable-enable-verbosity`, a
    process-wide option: a fresh process), the IR pipeline's passes first (emit._optimize), then the
    codegen's IR passes."""
    import subprocess
    import sys

    code = ("import llvmlite.binding as b; b.set_option('', '-opt-disable-enable-verbosity'); "
            "from lasscc.emit import to_ptx; import sys; to_ptx(sys.stdin.read(), 'sm_80')")
    r = subprocess.run([sys.executable, "-c", code], input=_SLSR_CANDIDATES, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stderr


def test_the_pass_gate_skips_exactly_the_listed_passes():
    """The pass gate skips each pass of CODEGEN_PASSES_SKIPPED (slsr; nary-reassociate and the IR
    pipeline's correlated-propagation, sccp and bdce, which changed no example's PTX under O3:
    scripts/codegen_skip_check.py) and nothing else."""
    log = _pass_gate_log()
    skipped = set(re.findall(r"OptDisable: NOT running pass (\S+)", log))
    assert skipped == set(CODEGEN_PASSES_SKIPPED) == {"slsr", "nary-reassociate", "correlated-propagation",
                                                      "sccp", "bdce"}, log[-2000:]
    assert "OptDisable: running pass instcombine" in log  # the rest runs


def test_the_codegen_runs_at_level_2_early_cse_not_gvn():
    """CODEGEN_OPT_LEVEL = 2: the NVPTX codegen's IR passes (from SeparateConstOffsetFromGEP on, after
    the IR pipeline) clean up with EarlyCSE; at level 3 they run GVN twice (~0.01 s, the same PTX on
    every example).  The IR pipeline's own GVN still runs."""
    log = _pass_gate_log()
    ir, _, codegen = log.partition("running pass separate-const-offset-from-gep")
    assert codegen, log[-2000:]
    assert "running pass gvn" in ir, ir[-2000:]
    assert "running pass gvn" not in codegen and "running pass early-cse" in codegen, codegen


# Passes of O3's module pipeline outside its function simplification pipeline (pass-gate names):
# the interprocedural ones and the late optimization pipeline's
_MODULE_PIPELINE_ONLY = ("ipsccp", "globalopt", "function-attrs", "rpo-function-attrs", "globaldce",
                         "loop-vectorize", "loop-distribute", "loop-load-elim", "div-rem-pairs",
                         "loop-sink", "constmerge")


def test_the_ir_pipeline_is_function_simplification_not_the_module_pipeline():
    """emit._optimize runs LLVM's function simplification pipeline on each function (SROA, EarlyCSE,
    InstCombine, the loop passes, GVN ...), at IR_SPEED_LEVEL, not O3's whole module pipeline: its
    interprocedural passes and late optimization pipeline cost ~40 % of the IR pipeline's time and
    change the SASS of 15 of 50 example kernels each way by a few % (BENCHMARKS.md "Session 15 -- LLVM
    pipeline")."""
    from lasscc.emit import IR_SPEED_LEVEL

    assert IR_SPEED_LEVEL in (2, 3)
    ir, _, _ = _pass_gate_log().partition("running pass separate-const-offset-from-gep")
    ran = set(re.findall(r"OptDisable: running pass (\S+)", ir))
    assert {"sroa", "early-cse", "instcombine", "gvn", "dse", "adce"} <= ran, sorted(ran)
    assert not ran & set(_MODULE_PIPELINE_ONLY), sorted(ran & set(_MODULE_PIPELINE_ONLY))


_NAMED = """
target triple = "nvptx64-nvidia-cuda"
@"lass_smem" = external addrspace(3) global [0 x i8]
define ptx_kernel void @"kern"(ptr addrspace(1) %".1", i32 %".2") {
.3:
  %".4" = add i32 %".2", 7
  %".5" = load i32, ptr addrspace(3) @"lass_smem"
  %".6" = add i32 %".4", %".5"
  store volatile i32 %".6", ptr addrspace(1) %".1"
  ret void
}
"""


def test_value_names_are_dropped_before_the_ir_pipeline_but_not_symbols():
    """emit._optimize strips the function-local value names before its pipeline (they only cost LLVM time
    when it clones and renames instructions); the kernel and the external shared-memory symbol keep
    theirs, so the PTX names them as before."""
    import llvmlite.binding as llvm_b

    from lasscc.emit import NVPTX_TRIPLE, _optimize

    llvm_b.initialize_all_targets()
    llvm_b.initialize_all_asmprinters()
    mod = llvm_b.parse_assembly(_NAMED)
    tm = llvm_b.Target.from_triple(NVPTX_TRIPLE).create_target_machine(cpu="sm_80", opt=3)
    _optimize(mod, tm)
    text = str(mod)
    assert '%".' not in text and ".3:" not in text, text
    assert "@kern(" in text and "@lass_smem" in text, text
    ptx = to_ptx(_NAMED, "sm_80")
    assert re.search(r"\.entry kern\(", ptx) and re.search(r"\.extern \.shared .*lass_smem\[\]", ptx), ptx


def _wide_struct_kernel(n: int) -> str:
    fields = ", ".join(["f32"] * n)
    return f"""
builtin.module {{
  llvm.func @k(%p : !llvm.ptr<1>) {{
    %s = "llvm.inline_asm"() <{{asm_string = "mov.b32 $0, 0f3F800000;", constraints = "{",".join(["=f"] * n)}", has_side_effects}}> : () -> !llvm.struct<({fields})>
    %x = llvm.extractvalue %s[3] : !llvm.struct<({fields})>
    llvm.store %x, %p : f32, !llvm.ptr<1>
    llvm.return
  }}
}}
"""


def test_wide_uniform_structs_are_named_once_in_the_llvm_ir():
    """A struct of >= NAMED_STRUCT_MIN_FIELDS fields of one scalar type (the wgmma accumulators) is
    declared once as `%"floatxN"` and used by name; the PTX is that of the IR with the struct spelled
    out.  A narrower struct stays literal."""
    from lasscc.emit import NAMED_STRUCT_MIN_FIELDS, to_llvm_ir
    from lasscc.source import parse_mlir

    n = NAMED_STRUCT_MIN_FIELDS
    ir = to_llvm_ir(parse_mlir(_wide_struct_kernel(n), "t.mlir"))
    literal = "{" + ", ".join(["float"] * n) + "}"
    assert ir.count(literal) == 1 and f'%"floatx{n}" = type {literal}\n' in ir, ir
    assert f'call %"floatx{n}" asm' in ir and f'extractvalue %"floatx{n}" %' in ir, ir
    spelled = ir.replace(f'%"floatx{n}" = type {literal}\n', "").replace(f'%"floatx{n}"', literal)
    assert to_ptx(ir, "sm_80") == to_ptx(spelled, "sm_80")
    narrow = to_llvm_ir(parse_mlir(_wide_struct_kernel(n - 1), "t.mlir"))
    assert "type {" not in narrow and "extractvalue {float" in narrow, narrow


# gemm_odd_k's per-k-tile copy loop (its LLVM IR after the function pipeline, cut down): 32 trips of one
# predicated 16-bit global load and shared store, ~25 instructions
_COPY_LOOP = """
target triple = "nvptx64-nvidia-cuda"
@"lass_smem" = external addrspace(3) global [0 x i8]
define ptx_kernel void @"copy"(ptr addrspace(1) %a, i32 %m, i32 %k, i32 %row0, i32 %tid) {
entry:
  %w = lshr i32 %tid, 5
  %l = and i32 %tid, 31
  %inb = icmp ult i32 %l, %k
  %l2 = shl nuw nsw i32 %l, 1
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %i4 = shl i32 %i, 2
  %r = add nuw nsw i32 %i4, %w
  %row = add i32 %r, %row0
  %rk = mul i32 %row, %k
  %idx = add i32 %rk, %l
  %s6 = shl i32 %r, 6
  %so = or disjoint i32 %s6, %l2
  %sw0 = lshr exact i32 %s6, 3
  %sw = and i32 %sw0, 112
  %soff = xor i32 %sw, %so
  %rowin = icmp ult i32 %row, %m
  %p = and i1 %inb, %rowin
  %idx64 = sext i32 %idx to i64
  %g = getelementptr half, ptr addrspace(1) %a, i64 %idx64
  %gi = ptrtoint ptr addrspace(1) %g to i64
  %pi = zext i1 %p to i32
  %v = call i32 asm sideeffect "{\\0A .reg .pred p;\\0A setp.ne.b32 p, $2, 0;\\0A mov.b32 $0, 0;\\0A @p ld.global.u16 $0, [$1];\\0A}", "=r,l,r"(i64 %gi, i32 %pi)
  %sp = getelementptr i8, ptr addrspace(3) @"lass_smem", i32 %soff
  %v16 = trunc i32 %v to i16
  store i16 %v16, ptr addrspace(3) %sp, align 2
  %next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %next, 32
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
"""


def test_the_late_partial_unroll_unrolls_the_odd_k_copy_loop_by_2():
    """After the function pipeline, _optimize runs O3's late LoopUnroll at O3's partial threshold
    (LATE_UNROLL_PARTIAL_THRESHOLD): gemm_odd_k's copy loops (32 trips, ~25 instructions) come out
    unrolled by 2, as under O3's module pipeline; without it (or at llvmlite's O2 threshold, 37) they are
    not, and gemm_odd_k ran 3-4 % slower on the GPU (BENCHMARKS.md "Session 15 -- gemm_odd_k and the
    function pipeline")."""
    from lasscc.emit import LATE_UNROLL_PARTIAL_THRESHOLD

    assert LATE_UNROLL_PARTIAL_THRESHOLD == 300 // 4  # UnrollThresholdAggressive / 4 (NVPTX's TTI)
    ptx = to_ptx(_COPY_LOOP, "sm_80")
    assert ptx.count("ld.global.u16") == 2, ptx  # one loop, its body twice
    assert len(re.findall(r"^\s*@%p\d+ bra\s", ptx, re.M)) == 1, ptx
