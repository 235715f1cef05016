"""Integral and bool tensors through PyTorch's floating ops: the result is the default dtype
(numpy's own promotion would give float16 for bool and 8-bit integers); what PyTorch 2.13
printed for each call is written beside it."""
import numpy as np
import pytest

import autodiff.engine as ad


@pytest.fixture
def float32_default():
    ad.set_default_dtype(ad.float32)
    try:
        yield
    finally:
        ad.set_default_dtype(ad.float64)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "int32", "int64"])
@pytest.mark.parametrize("name", ["sin", "exp", "sqrt", "sigmoid", "tanh", "log1p", "erf", "reciprocal", "rsqrt",
                                  "asinh", "log2", "deg2rad"])
def test_a_floating_op_of_integers_gives_the_default_dtype(name, dtype):
    x = ad.tensor([1, 0], dtype=getattr(ad, dtype))
    assert getattr(ad, name)(x).dtype is ad.float64
    assert getattr(x, name)().dtype is ad.float64


def test_under_a_float32_default_the_values_are_float32s(float32_default):
    # PyTorch: torch.tensor([1, 2, 3], dtype=torch.uint8).sqrt() is float32: the integers' float32 square
    # roots (sqrt is correctly rounded, so numpy's float32 sqrt has their bits on any CPU)
    y = ad.tensor([1, 2, 3], dtype=ad.uint8).sqrt()
    assert y.dtype is ad.float32
    assert np.array_equal(y.numpy(), np.sqrt(np.array([1, 2, 3], dtype=np.float32)))
    assert ad.tensor([True, False]).exp().dtype is ad.float32


def test_in_place_on_integers_is_refused_in_pytorchs_words(float32_default):
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        ad.tensor([1, 2, 3]).sin_()


def test_ops_that_keep_integers_keep_them():
    x = ad.tensor([-2, 3])
    assert x.abs().dtype is ad.int64 and x.floor().dtype is ad.int64 and x.sign().dtype is ad.int64


def test_the_sign_of_bools_is_bools():
    # PyTorch: tensor([ True, False]) and tensor(True)
    assert ad.tensor([True, False]).sign().tolist() == [True, False]
    assert ad.tensor([True, False]).sign().dtype is ad.bool
    assert ad.tensor(True).sign().item() is True


def test_integers_to_a_negative_float_power_are_floats():
    # PyTorch: torch.tensor([1, 2]) ** -1.0 -> tensor([1.0000, 0.5000]); ** -1 is an error
    assert (ad.tensor([1, 2]) ** -1.0).tolist() == [1.0, 0.5]
    with pytest.raises(RuntimeError, match="Integers to negative integer powers are not allowed."):
        ad.tensor([1, 2]) ** -1
