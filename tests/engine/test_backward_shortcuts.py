"""Two shortcuts of the backward pass that must not change a single bit:
a large root gradient that is one number repeated (ones_like(y)) takes the
one-number path of a sum's gradient, and two gradient contributions are added in
place into whichever array only the pass holds. Each result is compared bit for
bit with the pass that takes neither shortcut, and with the hand derivative."""
import numpy
import pytest

import autodiff.engine as E
from autodiff.engine.core import autograd

N = autograd.UNIFORM_CHECK + 7


def _grads(build, weights, shortcut, monkeypatch):
    """x.grad of build(x) with backward(weights), the uniform-root shortcut on or off."""
    with monkeypatch.context() as m:
        if not shortcut:
            m.setattr(autograd, "UNIFORM_CHECK", 1 << 62)
        x = E.from_numpy(numpy.linspace(-2.0, 3.0, N)).requires_grad_(True)
        y = build(x)
        y.backward(weights(y))
        return x.grad.numpy().copy()


POLYS = [
    lambda x: 1.5 * x ** 2 + 2.5 * x + 3.5,
    lambda x: E.sin(x) * x + E.exp(-x ** 2) / (1 + x ** 2),
    lambda x: (x * x).sqrt() + x.abs() - E.tanh(x) * 3,
    lambda x: E.stack([x, x * 2]).sum(0) * x,            # not only elementwise rows
]


@pytest.mark.parametrize("build", POLYS)
@pytest.mark.parametrize("value", [1.0, -0.5, 0.0, 3e-300])
def test_a_repeated_root_gradient_gives_the_same_bits(build, value, monkeypatch):
    weights = lambda y: E.full_like(y, value)
    fast = _grads(build, weights, True, monkeypatch)
    slow = _grads(build, weights, False, monkeypatch)
    assert fast.tobytes() == slow.tobytes()


def test_the_shortcut_is_taken_only_for_one_number_repeated():
    g = numpy.ones(N)
    assert autograd._uniform_root(g).strides == (0,)
    for i in (0, 5, N - 1):
        h = g.copy()
        h[i] = -1.0 if i else 0.5
        assert autograd._uniform_root(h) is h
    z = numpy.zeros(N)
    z[N // 2] = -0.0                                   # equal to 0.0, not the same bits
    assert autograd._uniform_root(z) is z
    nan = numpy.full(N, numpy.nan)
    assert autograd._uniform_root(nan).strides == (0,)   # the same NaN everywhere: one number
    small = numpy.ones(10)
    assert autograd._uniform_root(small) is small


def test_weights_that_differ_get_their_own_gradient(monkeypatch):
    w = numpy.ones(N)
    w[-1] = 2.0
    g = _grads(POLYS[0], lambda y: E.from_numpy(w), True, monkeypatch)
    x = numpy.linspace(-2.0, 3.0, N)
    assert numpy.array_equal(g, (2 * 1.5 * x + 2.5) * w)


def test_hooks_and_retained_gradients_see_ordinary_tensors():
    x = E.from_numpy(numpy.linspace(-1.0, 1.0, N)).requires_grad_(True)
    y = x * 3
    y.retain_grad()
    seen = []
    y.register_hook(lambda g: seen.append(g.clone()))
    y.backward(E.ones_like(y))
    assert numpy.array_equal(y.grad.numpy(), numpy.ones(N))
    y.grad.add_(1)                                      # a retained grad is the user's to change
    assert numpy.array_equal(y.grad.numpy(), numpy.full(N, 2.0))
    assert numpy.array_equal(seen[0].numpy(), numpy.ones(N))
    assert numpy.array_equal(x.grad.numpy(), numpy.full(N, 3.0))


def test_gradients_summed_in_place_leave_the_inputs_alone():
    """x used three times, one contribution a sum's broadcast: the sum lands in the
    pass's own array, never in the caller's weights or a retained gradient."""
    x = E.from_numpy(numpy.linspace(-1.0, 1.0, N)).requires_grad_(True)
    w = E.from_numpy(numpy.full(N, 2.0))
    a = x * 1.0
    a.retain_grad()
    y = (a * x + x).sum() + (x * w).sum()
    y.backward()
    xs = numpy.linspace(-1.0, 1.0, N)
    numpy.testing.assert_allclose(x.grad.numpy(), 2 * xs + 3, rtol=0, atol=1e-15)
    assert numpy.array_equal(a.grad.numpy(), xs)
    assert numpy.array_equal(w.numpy(), numpy.full(N, 2.0))


def test_the_second_derivative_is_untouched():
    x = E.from_numpy(numpy.linspace(-1.0, 1.0, N)).requires_grad_(True)
    y = x ** 3
    (g,) = E.grad(y, x, grad_outputs=E.ones_like(y), create_graph=True)
    (h,) = E.grad(g, x, grad_outputs=E.ones_like(g))
    assert numpy.array_equal(h.numpy(), 6 * numpy.linspace(-1.0, 1.0, N))


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmax_gradients_written_in_place_give_the_graphs_bits(name, dtype, dim):
    """softmax's and log_softmax's backward on arrays (kernels.*_backward, one array written in
    place) and recorded as engine ops (create_graph) are the same operations: the same bits."""
    rng = numpy.random.default_rng(3)
    data = rng.standard_normal((5, 7)).astype(dtype)
    weights = E.from_numpy(rng.standard_normal((5, 7)).astype(dtype))
    results = []
    for create_graph in (False, True):
        x = E.from_numpy(data.copy()).requires_grad_(True)
        (g,) = E.autograd.grad(getattr(E, name)(x, dim) * weights, x, E.ones_like(weights), create_graph=create_graph)
        results.append(g.detach().numpy())
    assert results[0].tobytes() == results[1].tobytes()
    # and the hand derivative: softmax y: (w - sum(w y)) y; log_softmax: w - softmax(x) sum(w)
    x, w = data.astype(numpy.float64), weights.numpy().astype(numpy.float64)
    y = numpy.exp(x - x.max(dim, keepdims=True))
    y /= y.sum(dim, keepdims=True)
    hand = (w - (w * y).sum(dim, keepdims=True)) * y if name == "softmax" else w - y * w.sum(dim, keepdims=True)
    numpy.testing.assert_allclose(results[0], hand, rtol=1e-5 if dtype == "float32" else 1e-12, atol=1e-6)


def test_a_training_steps_parameter_gradients_are_stored_as_computed(monkeypatch):
    # a leaf's gradient is copied only where others may hold it: the weights' matmul results and the
    # biases' sums are the pass's own. (A set of ids took a weight gradient for a borrowed pass-through
    # gradient that had died and left it its id -- every step of an MLP -- and a bias's sum, a reshaped
    # view, was copied too.)
    copies = []
    real = autograd._owned_array

    def spy(tensor, g, borrowed):
        out = real(tensor, g, borrowed)
        if out is not g:
            copies.append(tuple(tensor.shape))
        return out

    monkeypatch.setattr(autograd, "_owned_array", spy)
    rng = numpy.random.default_rng(3)
    model = E.nn.Sequential(E.nn.Linear(64, 32), E.nn.ReLU(), E.nn.Linear(32, 10))
    x = E.from_numpy(rng.standard_normal((16, 64)))
    t = E.from_numpy(rng.integers(0, 10, 16))
    for _ in range(3):
        model.zero_grad(set_to_none=True)
        loss = E.nn.functional.cross_entropy(model(x.to(E.float32)), t)
        loss.backward()
    assert copies == []
    w1, b1 = model[0].weight, model[0].bias
    assert tuple(w1.grad.shape) == (32, 64) and tuple(b1.grad.shape) == (32,)


def test_a_pass_through_gradient_is_still_copied_where_two_hold_it():
    # x + x: add passes its gradient to both inputs, the same array; the leaf stores its own copy
    x = E.from_numpy(numpy.linspace(-1.0, 1.0, N)).requires_grad_(True)
    y = x * 2
    (y + y).backward(E.ones_like(y) * 3)
    assert numpy.array_equal(x.grad.numpy(), numpy.full(N, 12.0))
