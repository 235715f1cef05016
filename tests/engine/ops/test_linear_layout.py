"""linear(x, W, b) computes a batch smaller than its output features as (W x^T)^T, which numpy's
BLAS runs faster, and lays the result out row by row again in the bias's add: the result must be
what x W^T + b is (to the dtype's rounding, against float64 by hand), contiguous like PyTorch's (a
view of it works), and differentiable twice, whichever way it was computed."""
import numpy
import pytest

import autodiff.engine as E

RNG = numpy.random.default_rng(11)


@pytest.mark.parametrize("batch,features,outputs", [(3, 5, 7), (7, 5, 3), (4, 4, 4), (1, 9, 2), (2, 9, 1)])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("dtype,tol", [(numpy.float32, 2e-6), (numpy.float64, 1e-14)])
def test_linear_is_x_w_transposed_plus_b_and_contiguous(batch, features, outputs, bias, dtype, tol):
    x = RNG.standard_normal((batch, features)).astype(dtype)
    w = RNG.standard_normal((outputs, features)).astype(dtype)
    b = RNG.standard_normal(outputs).astype(dtype) if bias else None
    y = E.nn.functional.linear(E.tensor(x), E.tensor(w), None if b is None else E.tensor(b))
    expected = x.astype(numpy.float64) @ w.astype(numpy.float64).T + (0 if b is None else b.astype(numpy.float64))
    assert y.dtype == E.tensor(x).dtype and y.shape == (batch, outputs)
    numpy.testing.assert_allclose(y.numpy(), expected, rtol=tol, atol=tol * numpy.abs(expected).max())
    assert y.is_contiguous() and y.numpy().flags.c_contiguous
    assert y.view(-1).shape == (batch * outputs,)


@pytest.mark.parametrize("bias", [True, False])
def test_linear_of_a_small_batch_differentiates_twice(bias):
    x = E.tensor(RNG.standard_normal((2, 4)), requires_grad=True)
    w = E.tensor(RNG.standard_normal((6, 4)), requires_grad=True)
    inputs = (x, w) + ((E.tensor(RNG.standard_normal(6), requires_grad=True),) if bias else ())
    f = E.nn.functional.linear
    assert E.autograd.gradcheck(f, inputs)
    assert E.autograd.gradgradcheck(lambda *a: f(*a).tanh(), inputs)


def test_one_layer_gives_the_same_numbers_either_side_of_the_switch():
    # a batch of 6 rows (more than the 4 outputs: x W^T) against each row alone (one row: (W x^T)^T)
    layer = E.nn.Linear(5, 4)
    x = E.tensor(RNG.standard_normal((6, 5)), dtype=E.float32)
    whole = layer(x)
    rows = E.cat([layer(x[i:i + 1]) for i in range(6)])
    numpy.testing.assert_allclose(whole.detach().numpy(), rows.detach().numpy(), rtol=2e-6, atol=2e-6)
