"""det bit for bit as PyTorch 2.13 computes it (tests/golden/det_bits.json, written by
tests/golden/gen_det_bits.py): float64 and float32 batches of 1x1 to 16x16 matrices, normal
draws and small integers (pivot ties, singular matrices). numpy's det alone gives
det([[1, 2], [3, 4]]) = -2.0000000000000004, printed -2.0000 where PyTorch prints -2."""
import json
import pathlib

import numpy as np
import pytest

import autodiff.engine as ad
from tests.golden.gen_det_bits import SIZES, matrices

GOLDEN = json.loads(pathlib.Path(__file__).with_name("golden").joinpath("det_bits.json").read_text())["det"]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("kind", ["normal", "int"])
@pytest.mark.parametrize("n", SIZES)
def test_det_bits(dtype, kind, n):
    det = ad.linalg.det(ad.tensor(matrices(n, kind), dtype=getattr(ad, dtype)))
    assert [float(v).hex() for v in det.tolist()] == GOLDEN[f"{dtype}/{kind}/{n}"]


def test_det_prints_as_pytorch():
    assert str(ad.det(ad.tensor([[1., 2.], [3., 4.]]))) == "tensor(-2.)"
    assert np.isnan(ad.det(ad.tensor([[float("nan"), 1.], [1., 1.]])).item())
