"""Shared check of the per-pass numerics tests (test_dtypes, test_dtype_layouts): every pass
keeps D bit for bit, except where tf32's float32 K sum re-associates."""

import numpy as np

PAIRS = [("input", "lasscc-tile-threadblock"), ("lasscc-tile-threadblock", "lasscc-pipeline"),
         ("lasscc-pipeline", "lasscc-warp-mma"), ("lasscc-warp-mma", "lasscc-swizzle-smem")]


def assert_passes_keep_d(ds: dict, dtype: str, label: str, pairs=PAIRS) -> None:
    """ds: D after each stage (by pass name); label names the case in the failure message."""
    for before, after in pairs:
        x, y = ds[before], ds[after]
        if dtype == "tf32" and after in ("lasscc-tile-threadblock", "lasscc-warp-mma"):
            # the float32 K sum re-associates (tiles of BK; k-groups of 8): float32 rounding
            np.testing.assert_allclose(y, x, rtol=0, atol=1e-5 * float(np.abs(x).max()), err_msg=after)
        else:
            assert (x == y).all(), f"{label}: {after} changed {(x != y).sum()} elements"
