"""lasscc.options.Options (the options the CLI and the API share) and lasscc.interop's array reader."""

import argparse
import dataclasses

import numpy as np
import pytest

from lasscc.diagnostics import LassError
from lasscc.options import Options


def test_api_values_and_cli_text_give_the_same_options():
    cli = Options(arch="sm_90a", threadblock="128x64x32", warp="64x32x32", stages=4, raster=2, prefetch=1, align="8,4")
    api = Options(arch="sm_90a", threadblock=(128, 64, 32), warp=[64, 32, 32.0], stages=4, raster=2, prefetch=True,
                  align=(8, 4))
    assert cli == api and api.threadblock == (128, 64, 32) and api.prefetch == 1 and api.align == (8, 4)
    assert Options(align=8).align == (8, 8) and Options(align="4").align == (4, 4)
    assert api.tiling_given and not Options(align=8).tiling_given
    assert list(api.overrides) == ["threadblock", "warp", "stages", "raster", "prefetch", "align"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        api.stages = 2


@pytest.mark.parametrize("kwargs,msg", [
    ({"arch": "sm_70"}, "option --arch: expected one of sm_80, sm_90a, got 'sm_70'"),
    ({"threadblock": "128x128"}, "option --threadblock: expected 3 positive integers below 2^31 joined by 'x'"),
    ({"warp": 64}, "option --warp: expected 3 positive integers, e.g. (128, 128, 32), got 64"),
    ({"stages": 0}, "option --stages: expected a positive integer below 2^31, got 0"),
    ({"raster": 2**31}, "option --raster: expected a positive integer below 2^31, got 2147483648"),
    ({"stages": True}, "option --stages: expected a positive integer, got True"),
    ({"prefetch": 2}, "option --prefetch: expected 0 or 1 (or a bool), got 2"),
    ({"align": "8,x"}, "option --align: expected A,B elements per access as two positive integers"),
    ({"align": (8, 8, 8)}, "option --align: expected (A, B) elements per access as two integers"),
    ({"alpha": float("inf")}, "option --alpha: expected a finite value an f32 holds"),
    ({"beta": 1e39}, "option --beta: expected a finite value an f32 holds"),
    ({"seed": -1}, "option --seed: expected a non-negative integer, got -1"),
])
def test_bad_values_name_the_option(kwargs, msg):
    with pytest.raises(LassError) as e:
        Options(**kwargs)
    assert str(e.value).startswith(msg), str(e.value)


def test_from_args_maps_an_argparse_namespace():
    """An option the subcommand lacks reads as not given; an unset --arch is sm_80."""
    args = argparse.Namespace(file="x.mlir", arch=None, threadblock="64x64x32", warp=None, stages=3, raster=None,
                              prefetch=None, align=None, no_cache=False)
    assert Options.from_args(args) == Options(threadblock=(64, 64, 32), stages=3)


def test_interop_reads_dlpack_shape_dtype_and_strides():
    """The DLPack reader (ctypes over the `dltensor` capsule) on numpy's own __dlpack__: a transposed
    view has the element strides of its layout; the data pointer is the array's."""
    from lasscc import interop

    x = np.zeros((6, 4), np.float16)
    op = interop.from_dlpack("b", x.T)
    assert op.shape == (4, 6) and op.dtype == "f16" and op.strides == (1, 4) and op.ptr == x.ctypes.data
    assert interop.same_strides(op.strides, (1, 4), op.shape) and not interop.same_strides(op.strides, (6, 1), op.shape)
    assert interop.from_dlpack("a", np.zeros((2, 3), np.int8)).dtype == "i8"
    host = interop.operand("d", np.zeros((2, 3), np.float32))
    assert not host.on_device and host.dtype == "f32" and host.shape == (2, 3)
    with pytest.raises(LassError, match="d: expected a numpy array or a CUDA array"):
        interop.operand("d", [[1.0]])


def test_tiling_options_on_sm90a_without_config_stay_wgmma(tmp_path, capsys):
    """On sm_90a a lass.gemm without config takes --threadblock / --stages as its own config would
    (lasscc.family decomposes them into a wgmma tile), not merged into the mma.sync default (which
    failed: 'expected warp K (32) to equal threadblock K (64)'); a tile wgmma cannot take is an error
    naming the option and both families' rules, exit 2, no output file."""
    from pathlib import Path

    from lasscc.cli import main

    src = str(Path(__file__).resolve().parents[2] / "examples" / "gemm_tuned.mlir")
    out = tmp_path / "k.ptx"
    assert main(["compile", src, "--arch", "sm_90a", "--threadblock", "128x128x64", "--stages", "4",
                 "-o", str(out)]) == 0
    ptx = out.read_text()
    assert "wgmma.mma_async.sync.aligned.m64n128k16" in ptx and "cp.async.bulk.tensor" in ptx
    bad = tmp_path / "bad.ptx"
    assert main(["compile", src, "--arch", "sm_90a", "--threadblock", "128x512x64", "-o", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("option --threadblock: config:") and "wgmma cannot take it either: threadblock N = 512" in err
    assert "Traceback" not in err and not bad.exists()


def test_interop_takes_bf16_through_dlpack_when_cai_says_raw_bytes():
    """torch's __cuda_array_interface__ names bfloat16 "<V2" (two raw bytes); the operand then comes
    from DLPack, whose dtype code says bf16 (was: "expected dtype bf16, got void16").  A capsule made
    here by hand: DLManagedTensor starts with the DLTensor the reader reads."""
    import ctypes

    from lasscc import interop

    shape = (ctypes.c_int64 * 2)(3, 5)
    t = interop._DLTensor(data=0x7F0000000000, device=interop._DLDevice(interop._DL_CUDA, 0), ndim=2,
                          dtype=interop._DLDataType(interop._DL_BFLOAT, 16, 1), shape=shape, strides=None, byte_offset=0)
    new = ctypes.pythonapi.PyCapsule_New
    new.restype, new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]

    class TorchLikeBF16:
        __cuda_array_interface__ = {"shape": (3, 5), "typestr": "<V2", "data": (0x7F0000000000, False),
                                    "strides": None, "version": 3}

        def __dlpack__(self, stream=None):
            return new(ctypes.addressof(t), b"dltensor", None)

        def __dlpack_device__(self):
            return (interop._DL_CUDA, 0)

    op = interop.operand("a", TorchLikeBF16())
    assert op.dtype == "bf16" and op.shape == (3, 5) and op.on_device and op.ptr == 0x7F0000000000
    # a raw-bytes array without DLPack keeps its own (unsupported) name, for the dtype check's message
    del TorchLikeBF16.__dlpack__
    assert interop.operand("a", TorchLikeBF16()).dtype == "void16"
