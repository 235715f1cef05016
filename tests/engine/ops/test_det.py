"""det against PyTorch 2.13's (tests/golden/det.json, written by tests/golden/gen_det.py) within
the dtype's tolerance: float64 and float32 batches of 1x1 to 16x16 matrices, normal draws and
small integers (pivot ties, singular matrices); and what our det keeps exact: up to 3x3 the
cofactor expansion, so det([[1, 2], [3, 4]]) is -2 (numpy's LU through exp(log|det|) gives
-2.0000000000000004, printed -2.0000 where PyTorch prints -2)."""
import json

import numpy as np
import pytest

import autodiff.engine as ad
from gen_det import SIZES, matrices
from tolerance import assert_close
import locations

GOLDEN = json.loads((locations.GOLDEN / "det.json").read_text())["det"]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("kind", ["normal", "int"])
@pytest.mark.parametrize("n", SIZES)
def test_det_as_pytorch(dtype, kind, n):
    det = ad.linalg.det(ad.tensor(matrices(n, kind), dtype=getattr(ad, dtype)))
    want = np.array([float.fromhex(v) for v in GOLDEN[f"{dtype}/{kind}/{n}"]])
    # a determinant is a sum of products of n numbers: an LU's rounding grows with n and with how far
    # the matrix is from singular, so the tolerance grows with n and is absolute at the scale of the
    # largest product (float32 12x12: PyTorch 5840043, ours 5840062)
    scale = np.prod(np.abs(matrices(n, kind)).max(axis=-1), axis=-1) if n else 1.0
    rtol, atol = (1e-7, 1e-12) if dtype == "float64" else (1.3e-6 * n, 1e-5)
    assert_close(det.numpy(), want, dtype, rtol=rtol, atol=np.max(atol * scale), what=f"det {dtype} {kind} {n}x{n}")


@pytest.mark.parametrize("matrix, value", [([[1., 2.], [3., 4.]], -2.0), ([[2., 0., 0.], [0., 2., 0.], [0., 0., 2.]], 8.0),
                                           ([[1., 2., 3.], [4., 5., 6.], [7., 8., 10.]], -3.0), ([[5.]], 5.0)])
def test_small_whole_number_determinants_are_exact(matrix, value):
    assert ad.det(ad.tensor(matrix)).item() == value
    assert ad.det(ad.tensor([matrix, matrix])).tolist() == [value, value]  # a batch gives the same


def test_det_prints_as_pytorch():
    assert str(ad.det(ad.tensor([[1., 2.], [3., 4.]]))) == "tensor(-2.)"
    assert np.isnan(ad.det(ad.tensor([[float("nan"), 1.], [1., 1.]])).item())


def test_an_overflowing_determinant_is_inf_without_a_warning():
    """10 I of 400x400: 10^400 overflows float64 -- PyTorch's inf, and no numpy RuntimeWarning (an
    error under -W error) from the Python API."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        det = ad.linalg.det(ad.eye(400, dtype=ad.float64) * 10)
        _, logabs = ad.linalg.slogdet(ad.eye(400, dtype=ad.float64) * 10)
    assert float(det) == np.inf
    assert float(logabs) == pytest.approx(400 * np.log(10), rel=1e-12)
