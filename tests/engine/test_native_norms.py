"""torch.native_layer_norm, native_batch_norm, native_group_norm and _native_batch_norm_legit
(engine/functions/native_norms.py): the statistics against numpy written from the definitions,
the first output's node and gradient the same as F.layer_norm / batch_norm / group_norm's, group
norm's differentiable statistics (gradcheck and gradgradcheck), the running statistics' update, and
PyTorch 2.13's messages. The functions are taken from their module (the engine's namespace lists
them once the family is registered)."""
import numpy as np
import pytest

import autodiff.engine as ad
from autodiff.engine.functions import native_norms as nn_

F = ad.nn.functional


def data(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def test_layer_norm_statistics_and_output():
    x = data((2, 3, 4))
    w, b = data((3, 4), 1), data((3, 4), 2)
    xt, wt, bt = (ad.tensor(a, requires_grad=True) for a in (x, w, b))
    out, mean, rstd = nn_.native_layer_norm(xt, [3, 4], wt, bt, 0.5)
    want_mean = x.reshape(2, -1).mean(1).reshape(2, 1, 1)
    want_var = ((x - want_mean) ** 2).reshape(2, -1).mean(1).reshape(2, 1, 1)
    np.testing.assert_allclose(mean.numpy(), want_mean, rtol=1e-12)
    np.testing.assert_allclose(rstd.numpy(), 1 / np.sqrt(want_var + 0.5), rtol=1e-12)
    np.testing.assert_allclose(out.detach().numpy(), (x - want_mean) * rstd.numpy() * w + b, rtol=1e-12)
    assert out.grad_fn.name() == "NativeLayerNormBackward0"
    assert not mean.requires_grad and not rstd.requires_grad  # PyTorch's are not differentiable either
    reference = F.layer_norm(xt, [3, 4], wt, bt, 0.5)
    g = ad.tensor(data((2, 3, 4), 3))
    for got, want in zip(ad.autograd.grad(out, (xt, wt, bt), g), ad.autograd.grad(reference, (xt, wt, bt), g)):
        np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_batch_norm_training_moves_the_running_statistics():
    x = data((4, 3, 5))
    xt = ad.tensor(x, requires_grad=True)
    running_mean, running_var = ad.tensor(np.zeros(3)), ad.tensor(np.ones(3))
    out, mean, invstd = nn_.native_batch_norm(xt, None, None, running_mean, running_var, True, 0.25, 1e-5)
    batch_mean = x.mean((0, 2))
    biased = x.var((0, 2))
    np.testing.assert_allclose(mean.numpy(), batch_mean, rtol=1e-12)
    np.testing.assert_allclose(invstd.numpy(), 1 / np.sqrt(biased + 1e-5), rtol=1e-12)
    np.testing.assert_allclose(running_mean.numpy(), 0.25 * batch_mean, rtol=1e-12)
    np.testing.assert_allclose(running_var.numpy(), 0.75 + 0.25 * x.var((0, 2), ddof=1), rtol=1e-12)
    np.testing.assert_allclose(out.detach().numpy(), (x - batch_mean[:, None]) * invstd.numpy()[:, None], rtol=1e-10)
    assert out.grad_fn.name() == "NativeBatchNormBackward0"
    assert not mean.requires_grad


def test_batch_norm_evaluation_saves_nothing():
    x = ad.tensor(data((2, 3)), requires_grad=True)
    out, mean, invstd = nn_.native_batch_norm(x, None, None, ad.tensor(np.full(3, 0.5)), ad.tensor(np.full(3, 4.0)),
                                              False, 0.1, 0.0)
    assert mean.shape == (0,) and invstd.shape == (0,)
    np.testing.assert_allclose(out.detach().numpy(), (data((2, 3)) - 0.5) / 2, rtol=1e-12)


def test_batch_norm_one_value_per_channel_is_not_refused():
    # F.batch_norm refuses it (its Python check); the kernel does not: the variance is 0
    x = ad.tensor(data((1, 3, 1)))
    out, _, invstd = nn_.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-5)
    np.testing.assert_allclose(out.numpy(), np.zeros((1, 3, 1)))
    np.testing.assert_allclose(invstd.numpy(), np.full(3, 1e-5 ** -0.5))


def test_legit_overloads():
    x = ad.tensor(data((3, 2, 4)))
    a = nn_._native_batch_norm_legit(x, None, None, True, 0.1, 1e-5)
    b = nn_.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-5)
    for p, q in zip(a, b):
        np.testing.assert_array_equal(p.numpy(), q.numpy())


def test_group_norm_statistics_node_and_gradient():
    x = data((2, 6, 3))
    xt = ad.tensor(x, requires_grad=True)
    out, mean, rstd = nn_.native_group_norm(xt, None, None, 2, 6, 3, 3, 1e-5)
    groups = x.reshape(2, 3, 6)
    np.testing.assert_allclose(mean.detach().numpy(), groups.mean(-1), rtol=1e-12)
    np.testing.assert_allclose(rstd.detach().numpy(), 1 / np.sqrt(groups.var(-1) + 1e-5), rtol=1e-12)
    assert out.grad_fn.name() == "NativeGroupNormBackward0"
    g = ad.tensor(data((2, 6, 3), 4))
    np.testing.assert_array_equal(ad.autograd.grad(out, xt, g)[0].numpy(),
                                  ad.autograd.grad(F.group_norm(xt, 3), xt, g)[0].numpy())


def test_group_norm_of_any_shape_with_the_sizes_given():
    x = ad.tensor(data((2, 3, 4)))
    flat = nn_.native_group_norm(x.reshape(-1), None, None, 2, 3, 4, 3, 1e-5)
    shaped = nn_.native_group_norm(x, None, None, 2, 3, 4, 3, 1e-5)
    assert flat[0].shape == (24,)
    np.testing.assert_allclose(flat[0].numpy().reshape(2, 3, 4), shaped[0].numpy(), rtol=1e-14)


def test_derivatives():
    x = ad.tensor(data((2, 4, 3)), requires_grad=True)
    w, b = ad.tensor(data(4, 1), requires_grad=True), ad.tensor(data(4, 2), requires_grad=True)
    group = lambda x, w, b: nn_.native_group_norm(x, w, b, 2, 4, 3, 2, 1e-3)  # noqa: E731
    layer = lambda x, w, b: nn_.native_layer_norm(x, [3], w[:3], b[:3], 1e-3)[0]  # noqa: E731
    batch = lambda x, w, b: nn_.native_batch_norm(x, w, b, None, None, True, 0.1, 1e-3)[0]  # noqa: E731
    for fn in (group, layer, batch):
        assert ad.autograd.gradcheck(fn, (x, w, b))
        assert ad.autograd.gradgradcheck(fn, (x, w, b))


@pytest.mark.parametrize("call, error, message", [
    (lambda: nn_.native_batch_norm(ad.zeros(0, 3, 4), None, None, None, None, True, 0.1, 1e-5), RuntimeError,
     r"input tensor must have at least one element, but got input_sizes = \[0, 3, 4\]"),
    (lambda: nn_.native_batch_norm(ad.zeros(2, 3, dtype=ad.int64), None, None, None, None, True, 0.1, 1e-5),
     NotImplementedError, "\"batch_norm\" not implemented for 'Long'"),
    (lambda: nn_.native_batch_norm(ad.zeros(4), None, None, None, None, True, 0.1, 1e-5), IndexError,
     r"Dimension out of range \(expected to be in range of \[-1, 0\], but got 1\)"),
    (lambda: nn_.native_layer_norm(ad.zeros(2, 3), 3, None, None, 1e-5), TypeError,
     r"native_layer_norm\(\): argument 'normalized_shape' \(position 2\) must be tuple of ints, not int"),
    (lambda: nn_.native_layer_norm(ad.zeros(2, 3), [2], None, None, 1e-5), RuntimeError,
     r"Given normalized_shape=\[2\], expected input with shape \[\*, 2\], but got input of size\[2, 3\]"),
    (lambda: nn_.native_group_norm(ad.zeros(2, 3, 4), None, None, 2, 3, 5, 3, 1e-5), RuntimeError,
     r"Expected X.numel\(\) == N \* C \* HxW to be true, but got false."),
    (lambda: nn_.native_group_norm(ad.zeros(2, 3, 4), None, None, 2, 3, 4, 2, 1e-5), RuntimeError,
     r"Expected number of channels in input to be divisible by num_groups, but got input of shape \[2, 3, 4\] and "
     r"num_groups=2"),
])
def test_errors_in_pytorchs_words(call, error, message):
    with pytest.raises(error, match=message):
        call()
