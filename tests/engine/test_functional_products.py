"""torch.autograd.functional's vjp, jvp, vhp and hvp: against central differences of the function
(jvp, vjp through <., v>) and of its gradient (vhp, hvp), by hand where the maths is short, and with
PyTorch's messages for a v of the wrong kind."""
import numpy as np
import pytest

import autodiff.engine as ad

F = ad.autograd.functional
EPS = 1e-6


def _g(x):
    return x.exp() * x


def _h(x, y):
    return (x ** 3 * y.exp()).sum()


def _numeric_directional(f, xs, vs):
    plus = f(*[x + EPS * v for x, v in zip(xs, vs)])
    minus = f(*[x - EPS * v for x, v in zip(xs, vs)])
    return (plus - minus) / (2 * EPS)


def test_jvp_is_the_directional_derivative():
    x = ad.tensor([1.0, 2.0, 3.0])
    v = ad.tensor([1.0, 0.5, 2.0])
    out, r = F.jvp(_g, x, v)
    assert np.allclose(out.numpy(), (x.exp() * x).numpy())
    # d/dx (x e^x) = (1 + x) e^x, times v elementwise
    assert np.allclose(r.numpy(), ((1 + x) * x.exp() * v).numpy(), rtol=1e-12)
    assert np.allclose(r.numpy(), _numeric_directional(_g, [x], [v]).numpy(), rtol=1e-6)
    assert not r.requires_grad


def test_vjp_of_a_function_of_two_inputs_and_two_outputs():
    x, y = ad.tensor([1.0, 2.0, 3.0]), ad.tensor([0.5, -1.0, 2.0])

    def f(x, y):
        return (x ** 2 * y).sum(), x.sin() * y
    (s, t), (gx, gy) = F.vjp(f, (x, y), (ad.tensor(1.0), ad.ones(3)))
    # d/dx: 2xy + cos(x) y ; d/dy: x^2 + sin(x)
    assert np.allclose(gx.numpy(), (2 * x * y + x.cos() * y).numpy(), rtol=1e-12)
    assert np.allclose(gy.numpy(), (x ** 2 + x.sin()).numpy(), rtol=1e-12)
    (_, _), (jx, jy) = F.jvp(f, (x, y), (ad.ones(3), ad.ones(3)))
    assert np.isclose(jx.item(), (2 * x * y + x ** 2).sum().item())
    assert np.allclose(jy.numpy(), (x.cos() * y + x.sin()).numpy(), rtol=1e-12)


def test_vhp_and_hvp_against_differences_of_the_gradient():
    x, y = ad.tensor([1.0, 2.0, 3.0]), ad.tensor([0.5, -1.0, 2.0])
    vx, vy = ad.ones(3), ad.tensor([1.0, 0.0, -1.0])
    value, (hx, hy) = F.hvp(_h, (x, y), (vx, vy))
    _, (wx, wy) = F.vhp(_h, (x, y), (vx, vy))
    assert np.isclose(value.item(), _h(x, y).item())

    def gradient(x, y):
        a, b = x.detach().requires_grad_(True), y.detach().requires_grad_(True)
        return ad.autograd.grad(_h(a, b), (a, b))
    plus = gradient(x + EPS * vx, y + EPS * vy)
    minus = gradient(x - EPS * vx, y - EPS * vy)
    for got, p, m in ((hx, plus[0], minus[0]), (hy, plus[1], minus[1])):
        assert np.allclose(got.numpy(), ((p - m) / (2 * EPS)).numpy(), rtol=1e-5, atol=1e-6)
    assert np.allclose(hx.numpy(), wx.numpy()) and np.allclose(hy.numpy(), wy.numpy())


def test_create_graph_keeps_the_product_differentiable():
    x = ad.tensor([1.0, 2.0], requires_grad=True)
    _, r = F.jvp(lambda a: a ** 3, x, ad.ones(2), create_graph=True)
    assert r.tolist() == [3.0, 12.0]            # 3x^2
    (second,) = ad.autograd.grad(r.sum(), x)
    assert second.tolist() == [6.0, 12.0]       # 6x


def test_v_may_be_left_out_only_for_one_element_and_must_fit():
    x = ad.tensor([1.0, 2.0, 3.0])
    assert F.jvp(lambda a: a * 2, ad.tensor([3.0]))[1].tolist() == [2.0]
    with pytest.raises(RuntimeError, match="function returns a single Tensor with a single element"):
        F.vjp(_g, x)
    with pytest.raises(RuntimeError, match="input to the user-provided function is a single Tensor"):
        F.jvp(_g, x)
    with pytest.raises(RuntimeError, match=r"v has invalid size: should be torch.Size\(\[3\]\) but got"):
        F.jvp(_g, x, ad.ones(2))
    with pytest.raises(RuntimeError, match="should contain a single element"):
        F.vhp(_g, x, x)
    with pytest.raises(RuntimeError, match="v is a tuple of invalid length: should be 2 but got 1"):
        F.jvp(_h, (x, x), (x,))


def test_an_output_that_does_not_depend_on_the_input_gives_zeros():
    x = ad.tensor([1.0, 2.0])
    assert F.jvp(lambda a: ad.zeros(2) + 1, x, ad.ones(2))[1].tolist() == [0.0, 0.0]
    assert F.vjp(lambda a: ad.zeros(2) + 1, x, ad.ones(2))[1].tolist() == [0.0, 0.0]
