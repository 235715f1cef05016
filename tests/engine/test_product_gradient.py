"""The gradient of one number spread over a product (`b * x`, a parameter times the data): mul's row
computes it as the dot product of the incoming gradient and the other factor, not as their product
summed back. Checked against hand derivations in float64 and finite differences (op_cases' gradcheck
and gradgradcheck cover the row's broadcast cases), and for being one path: the same bits with and
without create_graph, forward mode by the product rule."""
import numpy as np
import pytest

import autodiff.engine as ad


def _data(n, dtype):
    return np.linspace(-3.0, 3.0, n).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_gradient_of_a_spread_factor_is_the_sum_of_products(dtype):
    x_np = _data(100_000, dtype)
    g_np = np.cos(x_np).astype(dtype)
    x = ad.tensor(x_np)
    b = ad.tensor(0.5, dtype=x.dtype, requires_grad=True)
    (b * x).backward(ad.tensor(g_np))
    want = np.dot(g_np.astype(np.float64), x_np.astype(np.float64))
    assert b.grad.dtype == x.dtype and b.grad.shape == ()
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    assert abs(float(b.grad) - want) <= rtol * np.dot(np.abs(g_np), np.abs(x_np))
    # the other side: x's gradient is g * b, elementwise, of x's shape
    x2 = ad.tensor(x_np, requires_grad=True)
    (x2 * b.detach()).backward(ad.tensor(g_np))
    np.testing.assert_array_equal(x2.grad.numpy(), g_np * dtype(0.5))


@pytest.mark.parametrize("order", ["b_times_x", "x_times_b"])
def test_create_graph_gives_the_same_bits_and_a_second_derivative(order):
    """d/db sum((b x)^2) = 2 b sum(x^2); d2/db2 = 2 sum(x^2): the first derivative has the same bits
    with create_graph as without, and differentiates again."""
    x_np = _data(5_000, np.float32)
    x = ad.tensor(x_np)

    def loss(b):
        p = b * x if order == "b_times_x" else x * b
        return p.pow(2).sum()

    b = ad.tensor(0.75, dtype=ad.float32, requires_grad=True)
    plain, = ad.autograd.grad(loss(b), b)
    first, = ad.autograd.grad(loss(b), b, create_graph=True)
    assert first.detach().numpy().tobytes() == plain.numpy().tobytes()
    assert first.grad_fn.name() == "VdotBackward0"
    second, = ad.autograd.grad(first, b)
    squares = float(np.dot(x_np.astype(np.float64), x_np.astype(np.float64)))
    assert float(plain) == pytest.approx(2 * 0.75 * squares, rel=1e-5)
    assert float(second) == pytest.approx(2 * squares, rel=1e-5)


def test_a_one_element_factor_of_any_rank_keeps_its_shape():
    rng = np.random.default_rng(3)
    w_np, x_np, g_np = rng.standard_normal((1, 1)), rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    w = ad.tensor(w_np, requires_grad=True)
    (w * ad.tensor(x_np)).backward(ad.tensor(g_np))
    assert w.grad.shape == (1, 1)
    assert float(w.grad[0, 0]) == pytest.approx(float((g_np * x_np).sum()), rel=1e-12)


@pytest.mark.parametrize("dtypes", [("float16", "float16"), ("float32", "float64"), ("float64", "int64")])
def test_other_dtypes_take_the_product_and_the_sum(dtypes):
    """float16, and factors of two dtypes: the product then the sum, each value as before."""
    b = ad.tensor(1.5, dtype=getattr(ad, dtypes[0]), requires_grad=True)
    x = ad.tensor(np.arange(1, 9).reshape(2, 4), dtype=getattr(ad, dtypes[1]))
    (b * x).sum().backward()
    assert b.grad.dtype == b.dtype
    assert float(b.grad) == 36.0


def test_forward_mode_is_the_product_rule():
    """A dual factor b (tangent vb) and a dual x (tangent vx): the tangent of b x is vb x + b vx."""
    fwAD = ad.autograd.forward_ad
    x_np = _data(7, np.float64)
    vx_np = np.arange(7.0)
    with fwAD.dual_level():
        b = fwAD.make_dual(ad.tensor(2.0, dtype=ad.float64), ad.tensor(0.5, dtype=ad.float64))
        x = fwAD.make_dual(ad.tensor(x_np), ad.tensor(vx_np))
        tangent = fwAD.unpack_dual(b * x).tangent
        only_b = fwAD.unpack_dual(b * ad.tensor(x_np)).tangent
    np.testing.assert_allclose(tangent.numpy(), 0.5 * x_np + 2.0 * vx_np, rtol=1e-15)
    np.testing.assert_array_equal(only_b.numpy(), 0.5 * x_np)
