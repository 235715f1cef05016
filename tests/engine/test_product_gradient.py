"""The gradient of one number spread over a product (`b * x`, a parameter times the data): the
product g * x summed back to the factor's shape by the core's pairwise sum, as exact as PyTorch's
cascade sum -- not a BLAS dot product, whose float32 sum (OpenBLAS's sdot) is faster but on the
polynomial tutorial's data 50x (AVX-512 kernel) to 1000x (Haswell kernel) less exact, and whose
float64 sum changes its bits with the thread count. Checked against hand derivations in float64;
op_cases' gradcheck and gradgradcheck cover the row's broadcast cases."""
import math

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
    rtol = 1e-6 if dtype == np.float32 else 1e-14
    assert abs(float(b.grad) - want) <= rtol * np.dot(np.abs(g_np), np.abs(x_np))
    # the other side: x's gradient is g * b, elementwise, of x's shape
    x2 = ad.tensor(x_np, requires_grad=True)
    (x2 * b.detach()).backward(ad.tensor(g_np))
    np.testing.assert_array_equal(x2.grad.numpy(), g_np * dtype(0.5))


def test_the_polynomial_tutorials_gradients_are_as_exact_as_a_pairwise_sum():
    """The tutorial's step at n = 2*10^6 in float32: each parameter's gradient within 1e-6 of the
    float64 sum of the same float32 products (pairwise: ~1.5e-7; a BLAS sdot gave 8e-6 here and
    1.4e-4 with OpenBLAS's Haswell kernel)."""
    n = 2_000_000
    x_np = np.linspace(-math.pi, math.pi, n, dtype=np.float32)
    y_np = np.sin(x_np)
    init = [np.float32(v) for v in np.random.RandomState(0).randn(4)]
    x, y = ad.tensor(x_np), ad.tensor(y_np)
    a, b, c, d = (ad.tensor(v, requires_grad=True) for v in init)
    loss = (a + b * x + c * x ** 2 + d * x ** 3 - y).pow(2).sum()
    loss.backward()
    a0, b0, c0, d0 = init
    x2 = x_np * x_np
    x3 = x2 * x_np
    g = 2 * (a0 + b0 * x_np + c0 * x2 + d0 * x3 - y_np)  # float32, as the engine's
    g64 = g.astype(np.float64)
    for p, factor in ((b, x_np), (c, x2), (d, x3)):
        want = float(np.dot(g64, factor.astype(np.float64)))
        assert abs(float(p.grad) - want) <= 1e-6 * abs(want), (float(p.grad), want)
    assert abs(float(a.grad) - g64.sum()) <= 1e-6 * abs(g64.sum())


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
def test_factors_of_other_dtypes(dtypes):
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
