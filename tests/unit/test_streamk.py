"""Stream-K (lasscc.streamk): the schedule's formulas (every iteration once, segments in K order,
the inverse owner), the CPU executor running the persistent grid with the real workspace fix-up
(partial slots, flags) in permuted CTA orders against float64, planted fix-up bugs (a partial read
before its flag or from the wrong slot: race; a flag never set: deadlock), ptxas on
the default-tile kernels, the launch facts (grid from the SM count, workspace) and explain.

Kernels are small (32 x 32 threadblock, one warp) and built once per (type, mode) by
test_splitk.stage_modules (each executable pass applied in turn, cloned after each)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from lasscc import streamk
from lasscc.config import GemmConfig, KernelSpec
from lasscc.diagnostics import LassError
from lasscc.dialects import lass_nv, lass_tb
from lasscc.interp import RaceError, run_check
from lasscc.interp.sync import DeadlockError
from test_splitk import EXEC_PASSES, check, stage_modules

MODES = streamk.MODES


def _segments(ctas, tiles, kt, mode):
    cov: dict[int, list] = {}
    for c, units in enumerate(streamk.schedule(ctas, tiles, kt, mode)):
        for t, lo, hi, s in units:
            cov.setdefault(t, []).append((lo, hi, s, c))
    return cov


@pytest.mark.parametrize("mode", MODES)
def test_schedule_covers_every_iteration_once_in_k_order(mode):
    for ctas, tiles, kt in itertools.product([1, 2, 3, 4, 7, 132], [1, 2, 3, 5, 8, 64, 133, 300], [1, 2, 3, 7, 16]):
        cov = _segments(ctas, tiles, kt, mode)
        assert sorted(cov) == list(range(tiles)), (ctas, tiles, kt)
        for t, segs in cov.items():
            segs.sort()
            assert segs[0][0] == 0 and segs[-1][1] == kt
            for i, (lo, hi, s, c) in enumerate(segs):
                assert s == i and lo < hi and (i == 0 or segs[i - 1][1] == lo)
                if i:  # segment s is the next CTA's: waits go to the previous CTA only
                    assert c == segs[i - 1][3] + 1


def test_shares_are_equal_and_owner_inverts_them():
    for ctas, iters in itertools.product([1, 3, 7, 132], [0, 1, 5, 131, 132, 133, 1000]):
        sizes = [e - b for b, e in (streamk.cta_range(c, ctas, iters) for c in range(ctas))]
        assert sum(sizes) == iters and max(sizes) - min(sizes) <= 1
        for i in range(iters):
            c = streamk.owner(i, ctas, iters)
            b, e = streamk.cta_range(c, ctas, iters)
            assert b <= i < e


def test_hybrid_leaves_one_stream_k_wave():
    # 10 tiles on 3 CTAs: 2 full waves data-parallel (6 tiles), 4 tiles stream-K
    assert streamk.dp_tiles(10, 3, "streamk-dp") == 6 and streamk.dp_tiles(10, 3, "streamk") == 0
    assert streamk.dp_tiles(9, 3, "streamk-dp") == 9  # whole waves: all data-parallel
    assert streamk.dp_tiles(5, 3, "streamk-dp") == 0  # under two waves: all stream-K
    units = streamk.schedule(3, 10, 4, "streamk-dp")
    assert [u[:2] for u in units[0][:2]] == [(0, 0), (3, 0)]  # CTA 0: tiles 0 and 3 whole, then its stream-K share
    assert all(u[1:3] == (0, 4) and u[3] == 0 for c in units for u in c[:2])


def test_tail_shares_only_the_part_wave():
    # 10 tiles on 3 CTAs: 3 full waves data-parallel (9 tiles), tile 9 split three ways
    assert streamk.dp_tiles(10, 3, "streamk-tail") == 9 and streamk.dp_tiles(9, 3, "streamk-tail") == 9
    assert streamk.dp_tiles(2, 3, "streamk-tail") == 0  # under one wave: all stream-K
    assert [u[-1] for u in streamk.schedule(3, 10, 6, "streamk-tail")] == [(9, 0, 2, 0), (9, 2, 4, 1), (9, 4, 6, 2)]
    # 4096^3 on 128 x 256 tiles and 132 CTAs: 3 waves data-parallel, 116 tiles' 7424 iterations shared
    # (56-57 per CTA, under a tile's 64): each CTA at most a head (from k-tile 0) and a tail
    sched = streamk.schedule(132, 512, 64, "streamk-tail")
    assert all(len(u) in (4, 5) and [x[1:3] for x in u[:3]] == [(0, 64)] * 3 for u in sched)
    assert max(sum(hi - lo for _, lo, hi, _ in u) for u in sched) == 3 * 64 + 57  # data-parallel: 4 x 64
    for units in sched:
        sk = units[3:]
        assert sk[0][1] == 0 or len(sk) == 1, "the first stream-K unit is a head (k-tile 0) or the CTA's only one"
        # the head's k-tile k runs at step k, a tail's at step k - (its lo - head's length): within one share
        if len(sk) == 2:
            head, tail = sk[0][2] - sk[0][1], sk[1]
            assert 0 <= tail[1] - head <= 64 - 56


# ---- the CPU executor: numerics in every order, every pass --------------------------------------

# (mode, stage, CTA order, grid): every order at the threadblock level, one each below (the CPU
# executor is slower per pass), the hybrid at both ends
RUNS = [("streamk", EXEC_PASSES[0], "forward", 3), ("streamk", EXEC_PASSES[0], "reverse", 4),
        ("streamk", EXEC_PASSES[1], "reverse", 3), ("streamk", EXEC_PASSES[2], "shuffle:1", 4),
        ("streamk", EXEC_PASSES[3], "forward", 3), ("streamk-dp", EXEC_PASSES[0], "shuffle:5", 3),
        ("streamk-dp", EXEC_PASSES[3], "reverse", 3), ("streamk-tail", EXEC_PASSES[0], "reverse", 3),
        ("streamk-tail", EXEC_PASSES[3], "shuffle:2", 4)]


@pytest.mark.parametrize("mode,stage,order,ctas", RUNS, ids=["-".join(map(str, r)) for r in RUNS])
def test_streamk_numerics_every_pass(mode, stage, order, ctas):
    # 150 x 45 on 32 x 32 tiles: 10 tiles; K = 304: 10 k-tiles, the last partial; 3 CTAs: the
    # hybrid runs 6 tiles data-parallel, then 4 tiles' 40 iterations split 14 / 13 / 13
    r = check("f16", 1, stage, 150, 45, 304, 0.75, 0.5, 3, order, mode=mode, ctas=ctas)
    ws = r["result"].workspace
    assert ws is not None and ws.size * 4 == streamk.workspace_bytes(ctas, (32, 32))
    assert not ws[streamk.flag_word(0, ctas, (32, 32)):].any(), "the finisher resets each flag"
    assert r["result"].grid == ctas


@pytest.mark.parametrize("dt", ["bf16", "tf32", "i8"])
def test_streamk_types(dt):
    """Other element types at the last executable stage (beta = 0: D NaN-poisoned before)."""
    check(dt, 1, "lasscc-swizzle-smem", 70, 64, 320, 1.0, 0.0, 4, "reverse", mode="streamk", ctas=5)


def test_i32_d_stays_exact_across_segments():
    r = check("i8", 1, "lasscc-swizzle-smem", 40, 40, 640, 1.0, 0.0, 1, "shuffle:2", mode="streamk", ctas=3)
    assert np.array_equal(np.asarray(r["d"], np.float64), r["ref"])


def test_more_ctas_than_iterations():
    """CTAs with no share run no unit; the rest still cover every tile."""
    check("f16", 1, "lasscc-tile-threadblock", 30, 30, 64, 1.0, 0.5, 2, mode="streamk", ctas=7)


def test_bad_grid_is_an_argument_error():
    with pytest.raises(LassError, match="expected a positive stream-K grid"):
        check("f16", 1, "lasscc-tile-threadblock", 30, 30, 64, 1.0, 0.0, 2, mode="streamk", ctas=0)


# ---- planted bugs -------------------------------------------------------------------------------

def _planted(stage: str, bug: str):
    mod = stage_modules("f16", 1, mode="streamk")[stage].clone()
    ops = list(mod.walk())
    if bug == "no-wait":  # the finisher reads a predecessor's partial before its flag is set
        w = next(o for o in ops if isinstance(o, (lass_tb.SemaphoreWaitOp, lass_nv.SpinAcquireOp)))
        w.detach()
        w.erase()
    elif bug == "no-flag":  # a partial's flag is never set: its finisher waits forever
        rel = next(o for o in ops if isinstance(o, (lass_tb.SemaphoreReleaseOp, lass_nv.StReleaseOp))
                   and o.value.owner.value.value.data == streamk.FLAG_SET)
        zero = next(o for o in ops if isinstance(o, (lass_tb.SemaphoreReleaseOp, lass_nv.StReleaseOp))
                    and o.value.owner.value.value.data == 0)
        rel.operands = [*rel.operands[:2], zero.value]
    elif bug == "wrong-slot":  # the finisher adds CTA 0's slot whoever its predecessor is
        add = next(o for o in ops if isinstance(o, lass_tb.PartialAddOp))
        loop = add.parent_op()
        add.operands = [*add.operands[:2], loop.lb]
    return mod


@pytest.mark.parametrize("stage,bug,error", [
    ("lasscc-tile-threadblock", "no-wait", RaceError),
    ("lasscc-swizzle-smem", "no-wait", RaceError),
    ("lasscc-tile-threadblock", "wrong-slot", RaceError),
    ("lasscc-pipeline", "wrong-slot", RaceError),
    ("lasscc-tile-threadblock", "no-flag", DeadlockError),
    ("lasscc-swizzle-smem", "no-flag", DeadlockError),
])
def test_planted_fixup_bug_is_caught_in_every_order(stage, bug, error):
    mod = _planted(stage, bug)
    for order in ("forward", "reverse", "shuffle:3"):
        with pytest.raises(error) as e:
            run_check(mod, 70, 45, 304, seed=1, alpha=0.75, beta=0.5, report_banks=False, order=order, ctas=4)
        msg = str(e.value)
        if error is RaceError:
            assert "of W" in msg and "a race between CTAs" in msg and "'lass_" in msg
        else:
            assert "waits for W[" in msg


def test_planted_tail_finisher_skipping_its_predecessors_is_caught():
    """"streamk-tail" with the finisher's partial_add loop cut to no trip (a wrong segment count): the
    split tile of the part-wave misses its predecessors' K ranges, which the float64 check sees; the
    intact kernel passes on the same launch (10 tiles on 3 CTAs: 9 data-parallel, tile 9 in 3 parts)."""
    from lasscc.interp.check import reference_scale
    from lasscc.interp.mma_math import elementwise_bound

    good = stage_modules("f16", 1, mode="streamk-tail")["lasscc-tile-threadblock"]
    bad = good.clone()
    add = next(o for o in bad.walk() if isinstance(o, lass_tb.PartialAddOp))
    loop = add.parent_op()
    loop.operands = [loop.lb, loop.lb, *loop.operands[2:]]
    for mod, ok in ((good, True), (bad, False)):
        r = run_check(mod, 150, 45, 304, seed=2, alpha=0.75, beta=0.5, report_banks=False, order="reverse", ctas=3)
        a, b, c = r["inputs"]
        d = np.asarray(r["d"], np.float64)
        bound = elementwise_bound(np.asarray(r["d"]).dtype, "f16", "f32", 304, reference_scale(a, b, c, 0.75, 0.5),
                                  r["ref"], 0.75, 0.5, 3)
        wrong = np.abs(d - r["ref"]) > bound
        assert wrong.any() != ok
        if not ok:  # only tile 9 (rows 128.., columns 32..44 on 32 x 32 tiles, 5 x 2 tiles) is off
            rows, cols = np.nonzero(wrong)
            assert rows.min() >= 128 and cols.min() >= 32


# ---- ptxas and the launch facts ------------------------------------------------------------------

@pytest.fixture(scope="module")
def default_tile_kernels():
    from lasscc.driver import compile_module
    from lasscc.source import parse_mlir
    from test_splitk import gemm_text

    return {mode: compile_module(parse_mlir(gemm_text("f16", 1, mode=mode, tile=(128, 128), warp=(64, 64)), "<sk>"),
                                 arch="sm_80", keep_stages=False) for mode in MODES[1:2]}  # the fuller hybrid


def test_default_tile_streamk_kernels_assemble_without_spills(default_tile_kernels):
    from lasscc.emit import ptxas_info

    for mode, res in default_tile_kernels.items():
        assert "%nctaid.x" in res.ptx and "ld.acquire.gpu.global.b32" in res.ptx
        spec = res.specs[0]
        assert spec.split_k_mode == mode and spec.params[-1] == "W" and spec.is_streamk
        for target in ("sm_80", "sm_90a"):
            info = ptxas_info(res.ptx.replace(".target sm_80", f".target {target}"), target)
            if info is None:
                pytest.skip("ptxas not on PATH")
            assert info.spill_stores == 0 and info.spill_loads == 0 and info.stack_bytes == 0, info.line


def test_spec_grid_is_persistent_and_workspace_per_tile():
    spec = KernelSpec("k", 128, 49152, 128, 128, 8, tile_k=32, split_k_mode="streamk",
                      params=KernelSpec.params + ("W",))
    per_sm = streamk.ctas_per_sm(128, 49152)
    assert per_sm == 2  # 128 threads x 255 registers: two CTAs' registers fit 65536
    assert spec.grid(16, 4096, sms=132) == (264, 1, 1) and spec.grid(16, 4096) == (264, 1, 1)
    assert spec.grid(1024, 1024, sms=114) == (228, 1, 1)
    # a 128 x 128 f32 partial slot and a flag word per CTA of the persistent grid
    assert spec.workspace_bytes(1024, 1024) == 264 * (128 * 128 * 4 + 4) == streamk.workspace_bytes(264, (128, 128))
    assert spec.workspace_bytes(16, 4096, sms=114) == 228 * (128 * 128 * 4 + 4)
    with pytest.raises(LassError, match="needs a zeroed workspace"):
        spec.launch_args(0, 0, 0, 16, 16, 16, 1.0, 0.0)


def test_config_validation():
    GemmConfig(split_k_mode="streamk").validate()
    with pytest.raises(LassError, match='expected split_k = 1 with split_k_mode = "streamk-dp"'):
        GemmConfig(split_k=2, split_k_mode="streamk-dp").validate()
    with pytest.raises(LassError, match='expected split_k = 1 with split_k_mode = "streamk-tail"'):
        GemmConfig(split_k=2, split_k_mode="streamk-tail").validate()
    assert GemmConfig(split_k_mode="streamk").has_workspace and not GemmConfig().has_workspace


def test_explain_decomposition_lines():
    lines = streamk.decomposition_lines("streamk-dp", (128, 128, 32), (3, 4), 1000, 5, sms=5)
    text = "\n".join(lines)
    # 12 tiles on 5 CTAs: one full wave data-parallel, 7 tiles (224 iterations) stream-K
    assert "data-parallel tiles: 5 (1 per CTA)" in text and "stream-K: 7 tiles, 224 iterations" in text
    assert "workspace: 327700 bytes (5 CTAs x (128 x 128 x 4 partial bytes + 4 flag bytes))" in text
    assert "persistent grid (5, 1, 1)" in text
    assert lines[4].split()[0] == "0" and "t0 [0,32)->K[0,1000) s0*" in lines[4]


def test_tune_tries_stream_k_where_tiles_leave_a_tail():
    from lasscc.tune import config_label, decomposition_candidates

    cfg = GemmConfig()  # 128 x 128 x 32: 2 CTAs per SM, 264 slots on 132 SMs
    modes = [(c.split_k, c.split_k_mode) for c in decomposition_candidates(cfg, 1024, 1024, 16384, 132)]
    assert (1, "streamk") in modes and (2, "serial") in modes and (4, "parallel") in modes
    assert (1, "streamk-dp") not in modes  # 64 tiles: no full wave to keep data-parallel
    tail = [c.split_k_mode for c in decomposition_candidates(cfg, 3000, 3000, 1000, 132)]  # 576 tiles, 2.2 waves
    assert tail == ["streamk", "streamk-dp"]
    assert decomposition_candidates(cfg, 4224, 2048, 4096, 132) == []  # 33 x 16 = 528 tiles: two whole waves
    assert config_label(GemmConfig(split_k_mode="streamk-dp")).endswith("/ streamk-dp")


def test_explain_cli_shows_the_stream_k_section(tmp_path, capsys):
    from lasscc.cli import main
    from test_splitk import gemm_text

    src = tmp_path / "sk.mlir"
    src.write_text(gemm_text("f16", 1, mode="streamk-dp", tile=(64, 64), warp=(32, 32)))
    assert main(["explain", str(src), "--stage", "threadblock", "--grid", "3x4", "--k", "1000", "--sms", "5"]) == 0
    out = capsys.readouterr().out
    assert "Stream-K (lasscc.streamk), split_k_mode = streamk-dp: 12 tiles of 64 x 64" in out
    assert "persistent grid (10, 1, 1) (5 SMs x 2 CTAs per SM" in out and "workspace: 163880 bytes" in out
    assert "     1  t2 [0,14)->K[0,448) s0; t1 [7,32)->K[224,1000) s1*" in out
    assert main(["explain", str(src), "--sms", "0"]) == 2
    assert "option --sms: expected a positive SM count, got 0" in capsys.readouterr().err


def test_runner_launches_the_persistent_grid(monkeypatch):
    """run_gemm on a fake driver with 2 SMs: grid (2 x CTAs per SM, 1, 1), W zeroed: a partial slot
    and a flag per CTA; the launch runs on the CPU executor with that grid (in reverse order)."""
    from lasscc.driver import compile_module
    from lasscc.interp import execute_kernel
    from lasscc.runtime import cuda, gemm_runner
    from lasscc.source import parse_mlir
    from test_splitk import _FakeBuffer

    stages = stage_modules("f16", 1, mode="streamk-dp")
    res = compile_module(parse_mlir(str(stages["lasscc-swizzle-smem"]), "<stage>"), keep_stages=False)
    (spec,) = res.specs
    launches = []

    def launch(func, grid, block, smem, args):
        launches.append(tuple(grid))
        A, B, D, M, N, K, alpha, beta, W = args
        assert not W.mem.any() and W.mem.size == spec.workspace_bytes(int(M), int(N), sms=2)
        execute_kernel(stages["lasscc-swizzle-smem"], int(M), int(N), int(K), A.mem.view(np.float16),
                       B.mem.view(np.float16), D.mem.view(np.float32), float(alpha), float(beta),
                       workspace=W.mem.view(np.int32), order="reverse", ctas=grid[0])

    for name, fn in {"context": lambda: None, "load_module": lambda ptx: "module", "get_function": lambda mod, n: n,
                     "set_dynamic_smem": lambda f, b: None, "synchronize": lambda: None, "unload_module": lambda m: None,
                     "func_attributes": lambda f: {"regs": 1, "local_bytes": 0, "static_smem_bytes": 0},
                     "pack_args": lambda a: a, "launch": launch, "DeviceBuffer": _FakeBuffer,
                     "sm_count": lambda: 2}.items():
        monkeypatch.setattr(cuda, name, fn)
    r = gemm_runner.run_gemm(res.ptx, spec, 150, 45, 200, alpha=0.5, beta=1.5, check=True, cublas=False, seed=3)
    assert r["ok"], r["rel_err"]
    per_sm = streamk.ctas_per_sm(spec.threads, spec.smem_bytes)
    # a 32 x 32 partial slot and a flag per CTA of the grid
    assert launches == [(2 * per_sm, 1, 1)] and r["workspace_bytes"] == 2 * per_sm * (32 * 32 * 4 + 4)


def test_column_major_d():
    """A column-major D: the kernel computes D^T (M and N swapped), the schedule over its tiles."""
    check("f16", 1, "lasscc-swizzle-smem", 70, 100, 256, 0.5, 1.5, 6, "shuffle:4", d_col=True, mode="streamk-dp",
          ctas=3)


# ---- the workspace fix-up: accumulator and D types, beta, odd shapes ------------------------------

@pytest.mark.parametrize("acc,d", [("f16", "f16"), ("f32", "f16")])
def test_workspace_fixup_f16_types_beta_odd_shape(acc, d):
    """f16 accumulators (partials widened to f32 in the workspace, rounded once per add) and a 16-bit
    D with beta != 0 on an odd shape, at the last executable stage, against float64."""
    from lasscc.driver import make_pass, run_pass
    from lasscc.interp.check import reference_scale
    from lasscc.interp.mma_math import elementwise_bound
    from lasscc.source import parse_mlir
    from test_splitk import EXEC_PASSES

    a_t, b_t, d_t = "memref<?x?xf16>", "memref<?x?xf16, strided<[1, ?]>>", f"memref<?x?x{d}>"
    text = (f"func.func @gemm(%a: {a_t}, %b: {b_t}, %d: {d_t}) {{\n"
            f"  lass.gemm {{alpha = 1.0 : f32, beta = 0.0 : f32, acc = {acc}, config = {{threadblock = [32, 32, 32], "
            f"warp = [32, 32, 32], stages = 3, split_k_mode = \"streamk\"}}}}\n"
            f"      ins(%a, %b : {a_t}, {b_t}) outs(%d : {d_t})\n  func.return\n}}\n")
    mod = parse_mlir(text, "<sk-f16>")
    for name in EXEC_PASSES:
        run_pass(mod, make_pass(name, "sm_80"))
    m, n, k, ctas = 67, 45, 296, 5  # 6 tiles, 10 k-tiles (the last partial): 60 iterations on 5 CTAs
    r = run_check(mod, m, n, k, seed=7, alpha=0.75, beta=0.5, report_banks=False, order="shuffle:2", ctas=ctas)
    a, b, c = r["inputs"]
    out = np.asarray(r["d"], np.float64)
    bound = elementwise_bound(np.asarray(r["d"]).dtype, "f16", acc, k, reference_scale(a, b, c, 0.75, 0.5), r["ref"],
                              0.75, 0.5, ctas)
    assert np.isfinite(out).all() and (np.abs(out - r["ref"]) <= bound).all()
    assert not r["result"].workspace[streamk.flag_word(0, ctas, (32, 32)):].any()
    assert any(s > 0 for units in streamk.schedule(ctas, 6, 10, "streamk") for _, _, _, s in units)  # tiles were split
