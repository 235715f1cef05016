"""Forward-mode AD: torch.autograd.forward_ad's API and errors, dual tensors through views and
in-place ops, custom Functions' jvp, forward-over-reverse and reverse-over-forward second
derivatives, and torch.autograd.functional's forward-mode products -- against PyTorch's values
(tests/golden/forward_ad.json, from tests/golden/gen_forward_ad.py) and against our reverse mode.
The forward rule of every row is tests/engine/ops/test_forward_rules.py's."""
import json
import sys

import numpy as np
import pytest

import autodiff.engine as ad
from autodiff.engine.core import tensor as core_tensor
import locations
from tolerance import assert_close

sys.path.insert(0, str(locations.GOLDEN))
from forward_ad_cases import PROGRAMS  # noqa: E402

fwAD = ad.autograd.forward_ad
AF = ad.autograd.functional
GOLDEN = json.loads((locations.GOLDEN / "forward_ad.json").read_text())


# ------------------------------------------------------------------ PyTorch's values

def _run(text):
    result = {}
    previous = ad.get_default_dtype()
    ad.set_default_dtype(ad.float64)
    try:
        exec(text, {"T": ad, "fwAD": fwAD, "AF": AF, "result": result})
    finally:
        ad.set_default_dtype(previous)
    return result


def _compare(got, want, what):
    if want["kind"] == "none":
        assert got is None, f"{what}: {got!r}, PyTorch's None"
    elif want["kind"] == "tuple":
        assert isinstance(got, tuple) and len(got) == len(want["items"]), what
        for i, (g, w) in enumerate(zip(got, want["items"])):
            _compare(g, w, f"{what}[{i}]")
    else:
        assert isinstance(got, ad.Tensor), f"{what}: {got!r}"
        assert list(got.shape) == want["shape"], what
        assert_close(np.asarray(got.detach()), np.array(want["values"], dtype=np.float64), what=what)


@pytest.mark.parametrize("name", [n for n in PROGRAMS if not n.endswith("!")])
def test_values_match_pytorch(name):
    got = _run(PROGRAMS[name])
    want = GOLDEN[name]
    assert set(got) == set(want)
    for key in want:
        _compare(got[key], want[key], f"{name}: {key}")


@pytest.mark.parametrize("name", [n for n in PROGRAMS if n.endswith("!")])
def test_errors_match_pytorch(name):
    want = GOLDEN[name]
    with pytest.raises(Exception) as info:
        _run(PROGRAMS[name])
    assert type(info.value).__name__ == want["raises"]
    assert str(info.value) == want["message"]
    assert core_tensor.dual_run[0] is None, "a level was left open"


# ------------------------------------------------------------------ the API

def test_public_names_are_pytorchs():
    assert sorted(fwAD.__all__) == sorted(["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual",
                                           "unpack_dual", "dual_level"])
    for name in fwAD.__all__:
        assert hasattr(fwAD, name)


def test_unpack_gives_a_named_tuple_and_the_level_drops_tangents():
    x = ad.tensor([1.0, 2.0])
    v = ad.tensor([3.0, 4.0])
    with fwAD.dual_level() as level:
        assert level == 0
        d = fwAD.make_dual(x, v)
        unpacked = fwAD.unpack_dual(d)
        assert isinstance(unpacked, fwAD.UnpackedDualTensor) and isinstance(unpacked, tuple)
        assert unpacked.tangent is v and unpacked.primal._base is x
        assert d._base is x  # make_dual's result is a view of its primal
        assert fwAD.unpack_dual(x).tangent is None
        assert fwAD.unpack_dual(d * 2).tangent.tolist() == [6.0, 8.0]
    assert fwAD.unpack_dual(d).tangent is None
    assert core_tensor.dual_run[0] is None  # outside a level run_op takes its ordinary path
    level = fwAD.enter_dual_level()
    with pytest.raises(RuntimeError, match="not the last one"):
        fwAD.exit_dual_level(level=level + 1)
    fwAD.exit_dual_level(level=level)


def test_unpack_dual_of_a_non_tensor_is_pytorchs_type_error():
    with pytest.raises(TypeError, match="must be Tensor, not int"):
        fwAD.unpack_dual(3)


def test_a_tangent_flows_under_no_grad_and_is_none_for_integer_results():
    with fwAD.dual_level():
        d = fwAD.make_dual(ad.tensor([0.5, 1.5]), ad.tensor([1.0, -1.0]))
        with ad.no_grad():
            y = d.exp()
        assert np.allclose(fwAD.unpack_dual(y).tangent.numpy(), np.exp([0.5, 1.5]) * [1, -1])
        assert fwAD.unpack_dual(d.argmax()).tangent is None
        assert fwAD.unpack_dual(d > 1).tangent is None


def test_in_place_ops_and_views_keep_the_tangents_paired():
    with fwAD.dual_level():
        d = fwAD.make_dual(ad.tensor([1.0, 2.0, 3.0]), ad.tensor([1.0, 1.0, 1.0]))
        first = d[:2]
        assert fwAD.unpack_dual(first).tangent._base is not None  # a view's tangent: a view of d's
        first.mul_(10)
        assert fwAD.unpack_dual(d).tangent.tolist() == [10.0, 10.0, 1.0]
        d.add_(d)
        assert fwAD.unpack_dual(first).tangent.tolist() == [20.0, 20.0]
        m = fwAD.make_dual(ad.zeros(2, 3), ad.ones(2, 3))
        m.t_()
        assert fwAD.unpack_dual(m).tangent.shape == (3, 2)


def test_reverse_over_forward_and_forward_over_reverse_give_the_hessian_product():
    def f(x):
        return (x.sin() * x.pow(3)).sum() + (x[0] * x[1] * x[2]).exp()

    x0 = ad.tensor([0.3, -0.7, 1.1], dtype=ad.float64)
    v = ad.tensor([1.0, 0.5, -2.0], dtype=ad.float64)
    expected = AF.hessian(f, x0) @ v
    with fwAD.dual_level():
        x = x0.clone().requires_grad_(True)
        d = fwAD.make_dual(x, v)
        g, = ad.autograd.grad(f(d), d, create_graph=True)
        forward_over_reverse = fwAD.unpack_dual(g).tangent
        directional = fwAD.unpack_dual(f(d)).tangent
        reverse_over_forward, = ad.autograd.grad(directional, x)
    np.testing.assert_allclose(forward_over_reverse.detach().numpy(), expected.numpy(), rtol=1e-12)
    np.testing.assert_allclose(reverse_over_forward.numpy(), expected.numpy(), rtol=1e-12)


@pytest.mark.parametrize("f", [
    lambda x: (x.tanh() ** 2).sum(),
    lambda x: ad.logsumexp(x.reshape(2, 2) @ x.reshape(2, 2), dim=(0, 1)),
    lambda x: (x.softmax(0) * x.log_softmax(0)).sum() + x.norm(),
], ids=["tanh", "logsumexp_mm", "softmax_norm"])
def test_hvp_is_hessian_times_v(f):
    x = ad.tensor([0.4, -0.3, 0.8, 1.2], dtype=ad.float64)
    v = ad.tensor([1.0, -1.0, 0.5, 2.0], dtype=ad.float64)
    value, hv = AF.hvp(f, x, v)
    np.testing.assert_allclose(hv.numpy(), (AF.hessian(f, x) @ v).numpy(), rtol=1e-10, atol=1e-12)
    assert np.allclose(value.numpy(), f(x).numpy())


def test_functional_jvp_agrees_with_the_reverse_mode_jacobian():
    def f(a, b):
        return (a @ b).relu().cumsum(0), (a.exp() * 2).sum(1)

    a = ad.tensor(np.random.default_rng(1).standard_normal((3, 2)))
    b = ad.tensor(np.random.default_rng(2).standard_normal((2, 4)))
    va, vb = ad.ones(3, 2, dtype=ad.float64), ad.full((2, 4), 0.5, dtype=ad.float64)
    _, (j1, j2) = AF.jvp(f, (a, b), (va, vb))
    (ja1, jb1), (ja2, jb2) = AF.jacobian(f, (a, b))
    np.testing.assert_allclose(j1.numpy(), (ad.tensordot(ja1, va, 2) + ad.tensordot(jb1, vb, 2)).numpy(), rtol=1e-12)
    np.testing.assert_allclose(j2.numpy(), (ad.tensordot(ja2, va, 2) + ad.tensordot(jb2, vb, 2)).numpy(), rtol=1e-12)
    forward = AF.jacobian(f, (a, b), strategy="forward-mode", vectorize=True)
    for fr, rr in zip(forward, AF.jacobian(f, (a, b))):
        for x, y in zip(fr, rr):
            np.testing.assert_allclose(x.numpy(), y.numpy(), rtol=1e-12, atol=1e-14)


def test_functional_jvp_with_create_graph_is_differentiable():
    x = ad.tensor([0.5, 1.0], dtype=ad.float64, requires_grad=True)
    v = ad.tensor([1.0, 2.0], dtype=ad.float64)
    _, t = AF.jvp(lambda x: (x ** 3).sum(), x, v, create_graph=True)
    g, = ad.autograd.grad(t, x)  # d/dx (3 x^2 . v) = 6 x v
    np.testing.assert_allclose(g.numpy(), [3.0, 12.0])


def test_functional_jvp_inside_an_open_level_takes_the_reverse_way():
    with fwAD.dual_level():
        _, t = AF.jvp(lambda x: x.sin(), ad.tensor([0.0, 1.0]), ad.tensor([1.0, 1.0]))
    np.testing.assert_allclose(t.numpy(), np.cos([0.0, 1.0]), rtol=1e-6)


def test_custom_function_without_tangent_inputs_needs_no_jvp():
    class Double(ad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    with fwAD.dual_level():
        assert Double.apply(ad.ones(2)).tolist() == [2.0, 2.0]


def test_gradcheck_checks_forward_mode_and_forward_over_reverse():
    x = ad.tensor([0.5, 1.0, -0.3], dtype=ad.float64, requires_grad=True)
    y = ad.tensor([2.0, -1.0], dtype=ad.float64, requires_grad=True)

    def f(a, b):
        return (a.sin() * a.exp()).cumprod(0), ad.outer(a, b).tanh()

    assert ad.autograd.gradcheck(f, (x, y), check_forward_ad=True)
    assert ad.autograd.gradcheck(f, (x, y), check_forward_ad=True, check_backward_ad=False)
    assert ad.autograd.gradgradcheck(f, (x, y), check_fwd_over_rev=True)
