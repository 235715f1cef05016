"""torch.nn.functional's affine_grid, grid_sample, max_unpool1d/2d/3d, upsample*, dropout1d/3d,
alpha_dropout, feature_alpha_dropout, rrelu, gumbel_softmax and lp_pool1d/2d/3d beyond their op
cases (tests/engine/ops/op_cases_nnlayers.py, op_cases_conv.py): PyTorch 2.13's errors, messages
and warnings (copied from it), the random functions' laws (which values a draw may give, the
straight-through gradient), lp_pool against loops over windows, and the layers as their functions."""
import itertools
import warnings

import numpy as np
import pytest

import autodiff.engine as ad

F = ad.nn.functional


def _randn(*shape, seed=0):
    return ad.tensor(np.random.default_rng(seed + sum(shape)).standard_normal(shape))


def _long(*shape):
    return ad.zeros(*shape, dtype=ad.int64)


ERRORS = [
    (lambda: F.affine_grid(_long(2, 2, 3), (2, 1, 3, 3), align_corners=False), ValueError,
     "Expected theta to have floating point type, but got torch.int64"),
    (lambda: F.affine_grid(_randn(2, 2, 3), (3, 1, 3, 3), align_corners=False), RuntimeError,
     "Expected size for first two dimensions of batch2 tensor to be: [3, 3] but got: [2, 3]."),
    (lambda: F.affine_grid(_randn(2, 3, 3), (2, 1, 3, 3), align_corners=False), ValueError,
     "Expected a batch of 2D affine matrices of shape Nx2x3 for size (2, 1, 3, 3). Got torch.Size([2, 3, 3])."),
    (lambda: F.affine_grid(_randn(2, 2, 3), [2, 1, 3], align_corners=False), NotImplementedError,
     "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, respectively. Got size [2, 1, 3]."),
    (lambda: F.affine_grid(_randn(2, 2, 3), (2, 1, 0, 3), align_corners=False), ValueError,
     "Expected non-zero, positive output size. Got (2, 1, 0, 3)"),
    (lambda: F.grid_sample(_randn(1, 1, 3, 3), _randn(2, 2, 2, 2), align_corners=False), RuntimeError,
     "grid_sampler(): expected grid and input to have same batch size, but got input with sizes [1, 1, 3, 3] and "
     "grid with sizes [2, 2, 2, 2]"),
    (lambda: F.grid_sample(_randn(1, 1, 3, 3, 3), _randn(1, 2, 2, 2), align_corners=False), RuntimeError,
     "grid_sampler(): expected grid to have size 3 in last dimension, but got grid with sizes [1, 2, 2, 2]"),
    (lambda: F.grid_sample(_randn(1, 1, 3), _randn(1, 2, 1), align_corners=False), RuntimeError,
     "grid_sampler(): expected 5D input and grid with same number of dimensions, but got input with sizes [1, 1, 3] "
     "and grid with sizes [1, 2, 1]"),
    (lambda: F.grid_sample(_randn(1, 1, 3, 3), _randn(1, 2, 2, 2, 2), align_corners=False), RuntimeError,
     "grid_sampler(): expected 4D input and grid with same number of dimensions, but got input with sizes "
     "[1, 1, 3, 3] and grid with sizes [1, 2, 2, 2, 2]"),
    (lambda: F.grid_sample(_randn(1, 1, 0, 3), _randn(1, 2, 2, 2), align_corners=False), RuntimeError,
     "grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes [1, 1, 0, 3] with "
     "dimension 2 being empty"),
    (lambda: F.grid_sample(_randn(1, 1, 3, 3, 3), _randn(1, 2, 2, 2, 3), mode="bicubic", align_corners=False),
     RuntimeError, "grid_sampler(): bicubic interpolation only supports 4D input"),
    (lambda: F.grid_sample(_randn(1, 1, 3, 3), _randn(1, 2, 2, 2), mode="area"), ValueError,
     "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: 'area'"),
    (lambda: F.grid_sample(_randn(1, 1, 3, 3), _randn(1, 2, 2, 2), padding_mode="x"), ValueError,
     "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or 'reflection', but got: 'x'"),
    (lambda: F.grid_sample(_randn(1, 1, 3, 3).float(), _randn(1, 2, 2, 2), align_corners=False), RuntimeError,
     "expected scalar type Float but found Double"),
    (lambda: F.grid_sample(_long(1, 1, 3, 3), _long(1, 2, 2, 2), align_corners=False), NotImplementedError,
     "\"grid_sampler_2d_cpu_kernel_impl\" not implemented for 'Long'"),
    (lambda: F.max_unpool2d(_randn(1, 2, 2), _long(1, 2, 2).float(), 2), RuntimeError,
     "elements in indices should be type int64 but got: Float"),
    (lambda: F.max_unpool3d(_randn(1, 2, 2, 2), _long(1, 2, 2, 2).int(), 2), RuntimeError,
     "elements in indices should be type int64"),
    (lambda: F.max_unpool3d(_randn(1, 2, 2), _long(1, 2, 2), 2), RuntimeError,
     "Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with 3 dimensions."),
    (lambda: F.max_unpool2d(_randn(1, 2, 2, 2), _long(1, 1, 2, 2), 2), RuntimeError,
     "Expected shape of indices to be same as that of the input tensor ([1, 2, 2, 2]) but got indices tensor with "
     "shape: [1, 1, 2, 2]"),
    (lambda: F.max_unpool2d(_randn(1, 2, 2), _long(1, 2, 2) + 16, 2), RuntimeError,
     "Found an invalid max index: 16 (output volumes are of size 4x4)"),
    (lambda: F.max_unpool1d(_randn(1, 2), _long(1, 2) - 1, 2), RuntimeError,
     "Found an invalid max index: -1 (output volumes are of size 4x1)"),
    (lambda: F.max_unpool2d(_randn(1, 2, 2), _long(1, 2, 2), 2, output_size=(3, 3, 3)), ValueError,
     "output_size should be a sequence containing 2 or 4 elements, but it has a length of '3'"),
    (lambda: F.max_unpool2d(_randn(1, 2, 2), _long(1, 2, 2), 2, output_size=(6, 4)), ValueError,
     'invalid output_size "(6, 4)" (dim 0 must be between 2 and 6)'),
    (lambda: F.max_unpool2d(_randn(1, 2, 2), _long(1, 2, 2), 2, padding=3), ValueError,
     "max_unpooling: output_size must contain non-negative spatial dimensions, but got output_size[0]=-2"),
    (lambda: F.max_unpool3d(_randn(1, 2, 2, 2), _long(1, 2, 2, 2), 2, stride=0), RuntimeError,
     "strides should be greater than zero, but got stride: [0, 0, 0]"),
    (lambda: F.dropout1d(_randn(2, 3, 4, 5)), RuntimeError,
     "dropout1d: Expected 2D or 3D input, but received a 4D input. Note that dropout1d exists to provide "
     "channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an optional batch "
     "dimension (i.e. 2D or 3D inputs)."),
    (lambda: F.rrelu(ad.tensor([1, -2])), NotImplementedError, "\"leaky_relu_cpu\" not implemented for 'Long'"),
    (lambda: F.rrelu(ad.tensor([1, -2]), training=True), NotImplementedError,
     "\"rrelu_with_noise_out_cpu\" not implemented for 'Long'"),
    (lambda: F.alpha_dropout(_randn(3), 1.5), ValueError, "dropout probability has to be between 0 and 1, but got 1.5"),
]


@pytest.mark.parametrize("call, kind, message", ERRORS, ids=[m[:60] for _, _, m in ERRORS])
def test_pytorchs_errors(call, kind, message):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(kind) as info:
            call()
    assert str(info.value) == message


def test_align_corners_none_warns_and_means_false():
    x, grid = _randn(1, 1, 3, 3), _randn(1, 2, 2, 2)
    with pytest.warns(UserWarning, match="align_corners=False since 1.3.0"):
        out = F.grid_sample(x, grid)
    assert np.array_equal(out.numpy(), F.grid_sample(x, grid, align_corners=False).numpy())
    with pytest.warns(UserWarning, match="align_corners=False since 1.3.0"):
        F.affine_grid(_randn(1, 2, 3), (1, 1, 2, 2))


def test_grid_at_the_pixels_reads_them():
    """align_corners=True: grid points -1 and 1 are the corner pixels' centres, so a grid at the
    pixel positions gives the input back (every mode)."""
    x = _randn(1, 2, 3, 4)
    grid = F.affine_grid(ad.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]), (1, 2, 3, 4), align_corners=True)
    for mode in ("bilinear", "nearest", "bicubic"):
        assert np.allclose(F.grid_sample(x, grid, mode, align_corners=True).numpy(), x.numpy(), atol=1e-12)


def test_grid_sample_second_derivative_matches_differences():
    """The gradient is made of differentiable ops: second derivatives in input and grid both
    (gradgradcheck by finite differences), bilinear with reflection."""
    x = ad.tensor(np.random.default_rng(3).standard_normal((1, 1, 3, 3)), requires_grad=True)
    grid = ad.tensor([[[[0.31, -0.47], [1.63, 0.12]], [[-1.21, 0.83], [0.58, -0.69]]]], requires_grad=True)
    assert ad.autograd.gradgradcheck(lambda a, g: F.grid_sample(a, g, "bilinear", "reflection", False), (x, grid))


def test_max_unpool_layers_are_the_functions():
    x = _randn(1, 2, 2, 2, 2)
    index = ad.tensor(np.array([0, 3, 12, 15, 48, 51, 60, 63] * 2).reshape(1, 2, 2, 2, 2))
    out = ad.nn.MaxUnpool3d(2)(x, index)
    assert out.shape == (1, 2, 4, 4, 4)
    flat = out.numpy().reshape(2, -1)
    assert np.array_equal(flat[:, [0, 3, 12, 15, 48, 51, 60, 63]], x.numpy().reshape(2, -1))
    assert np.count_nonzero(flat) == 16
    assert repr(ad.nn.MaxUnpool3d(2)) == "MaxUnpool3d(kernel_size=(2, 2, 2), stride=(2, 2, 2), padding=(0, 0, 0))"


@pytest.mark.parametrize("name, mode", [("upsample", None), ("upsample_nearest", "nearest"),
                                        ("upsample_bilinear", "bilinear")])
def test_upsample_aliases_warn(name, mode):
    x = ad.tensor([[[[0.0, 1.0], [2.0, 3.0]]]])
    with pytest.warns(UserWarning, match=f"`nn.functional.{name}` is deprecated. Use `nn.functional.interpolate` "
                                         f"instead."):
        out = getattr(F, name)(x, size=3)
    if mode == "bilinear":  # align_corners=True: the corners stay, the middles are means (by hand)
        expected = [[0.0, 0.5, 1.0], [1.0, 1.5, 2.0], [2.0, 2.5, 3.0]]
    else:  # nearest: source floor(i * 2 / 3)
        expected = [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [2.0, 2.0, 3.0]]
    assert np.allclose(out.numpy()[0, 0], expected)


def _np_lp_pool(x, p, kernel, stride):
    k = len(kernel)
    out_shape = [(n - kk) // s + 1 for n, kk, s in zip(x.shape[-k:], kernel, stride)]
    out = np.zeros(x.shape[:-k] + tuple(out_shape))
    for pos in itertools.product(*(range(n) for n in out_shape)):
        window = x[(Ellipsis,) + tuple(slice(i * s, i * s + kk) for i, s, kk in zip(pos, stride, kernel))]
        out[(Ellipsis,) + pos] = (window ** p).sum(axis=tuple(range(-k, 0))) ** (1 / p)
    return out


@pytest.mark.parametrize("k, shape, kernel, stride", [(1, (2, 3, 7), (3,), (2,)), (2, (1, 2, 4, 5), (2, 3), (2, 1)),
                                                      (3, (1, 1, 4, 3, 4), (2, 2, 2), (2, 1, 2))])
def test_lp_pool_is_the_p_norm_of_each_window(k, shape, kernel, stride):
    x = ad.tensor(np.random.default_rng(k).uniform(0.2, 2.0, shape), requires_grad=True)
    fn = getattr(F, f"lp_pool{k}d")
    out = fn(x, 3, kernel if k > 1 else kernel[0], stride)
    assert np.allclose(out.detach().numpy(), _np_lp_pool(x.detach().numpy(), 3, kernel, stride))
    assert out.grad_fn.name() == "PowBackward0"
    assert ad.autograd.gradcheck(lambda a: fn(a, 3, kernel, stride), (x,))
    if k > 1:
        layer = getattr(ad.nn, f"LPPool{k}d")(3, kernel, stride)
        assert np.array_equal(layer(x).detach().numpy(), out.detach().numpy())
    infinite = fn(x, float("inf"), kernel, stride).detach().numpy()
    assert np.allclose(infinite, _np_lp_pool(x.detach().numpy(), 60, kernel, stride), rtol=0.05)


def test_channel_dropouts_drop_whole_channels():
    ad.manual_seed(0)
    x = ad.ones(4, 6, 5)
    out = F.dropout1d(x, 0.5).numpy()
    per_channel = out.reshape(24, 5)
    assert set(np.unique(per_channel)) <= {0.0, 2.0}
    assert (per_channel == per_channel[:, :1]).all() and 0 < (per_channel[:, 0] == 0).sum() < 24
    assert F.dropout1d(ad.ones(6, 5), 0.5).shape == (6, 5)
    assert F.dropout1d(x, 0.5, training=False) is x
    out = F.dropout3d(ad.ones(3, 4, 2, 2, 2), 0.25).numpy().reshape(12, 8)
    assert set(np.unique(out)) <= {0.0, 4 / 3} and (out == out[:, :1]).all()
    with pytest.warns(UserWarning, match="dropout3d: Received a 3-D input to dropout3d"):
        F.dropout3d(ad.ones(2, 3, 4))
    y = ad.ones(3, 4, 5)
    assert F.dropout1d(y, 0.5, inplace=True) is y and ad.nn.Dropout1d(0.5, inplace=True)(y) is y


def test_alpha_dropouts_keep_mean_and_variance():
    """Dropped values become a * (-1.7581) + b, kept ones a * x + b, a and b such that a standard
    normal input keeps mean 0 and variance 1."""
    p = 0.3
    a = 1 / np.sqrt((1.7580993408473766 ** 2 * p + 1) * (1 - p))
    b = 1.7580993408473766 * a * p
    x = _randn(200, 500)
    assert F.alpha_dropout(x, p) is x  # training=False by default
    ad.manual_seed(1)
    out = F.alpha_dropout(x, p, training=True).numpy()
    kept = np.isclose(out, a * x.numpy() + b)
    assert np.allclose(out[~kept], b - 1.7580993408473766 * a) and abs((~kept).mean() - p) < 0.01
    assert abs(out.mean()) < 0.02 and abs(out.var() - 1) < 0.02
    out = F.feature_alpha_dropout(ad.zeros(50, 40, 3), p, training=True).numpy().reshape(2000, 3)
    assert (out == out[:, :1]).all()
    assert set(np.round(np.unique(out), 12)) == set(np.round([b, b - 1.7580993408473766 * a], 12))
    assert ad.nn.AlphaDropout(p).eval()(x) is x


def test_rrelu_training_draws_slopes():
    ad.manual_seed(2)
    x = ad.tensor(np.linspace(-3, 3, 601), requires_grad=True)
    out = F.rrelu(x, 0.1, 0.3, training=True)
    assert out.grad_fn.name() == "RreluWithNoiseBackward0"
    xs, ys = x.detach().numpy(), out.detach().numpy()
    slopes = ys[xs < 0] / xs[xs < 0]
    assert np.array_equal(ys[xs > 0], xs[xs > 0])
    assert (slopes >= 0.1).all() and (slopes <= 0.3).all() and slopes.std() > 0.03
    out.sum().backward()
    grad = x.grad.numpy()
    assert np.allclose(grad[xs < 0], slopes) and (grad[xs > 0] == 1).all()
    assert 0.1 <= grad[300] <= 0.3  # at 0 itself: its drawn slope, as PyTorch (x <= 0 takes the noise)
    layer = ad.nn.RReLU(0.1, 0.3).eval()
    assert np.allclose(layer(x).detach().numpy(), np.where(xs > 0, xs, 0.2 * xs))


def test_gumbel_softmax():
    logits = ad.tensor(np.log([[1.0, 3.0]] * 4000), requires_grad=True)
    ad.manual_seed(3)
    soft = F.gumbel_softmax(logits, tau=0.5)
    assert np.allclose(soft.detach().numpy().sum(-1), 1) and soft.grad_fn.name() == "SoftmaxBackward0"
    ad.manual_seed(3)
    hard = F.gumbel_softmax(logits, tau=0.5, hard=True)
    picked = hard.detach().numpy()
    assert set(np.unique(picked)) == {0.0, 1.0} and (picked.sum(-1) == 1).all()
    assert np.array_equal(picked.argmax(-1), soft.detach().numpy().argmax(-1))  # the same draws
    assert abs(picked[:, 1].mean() - 0.75) < 0.03  # Gumbel-max: P(argmax = i) = softmax(logits)_i
    weights = ad.tensor(np.random.default_rng(4).standard_normal((4000, 2)))
    (g_soft,) = ad.autograd.grad((soft * weights).sum(), logits)
    (g_hard,) = ad.autograd.grad((hard * weights).sum(), logits)
    assert np.allclose(g_soft.numpy(), g_hard.numpy())  # straight through: the soft sample's gradient
    with pytest.warns(UserWarning, match="`eps` parameter is deprecated and has no effect."):
        F.gumbel_softmax(logits, eps=0.1)


def test_in_the_languages_functional_namespace():
    names = ("affine_grid", "grid_sample", "max_unpool1d", "max_unpool2d", "max_unpool3d", "upsample",
             "upsample_nearest", "upsample_bilinear", "dropout1d", "dropout3d", "alpha_dropout",
             "feature_alpha_dropout", "rrelu", "rrelu_", "gumbel_softmax", "lp_pool1d", "lp_pool2d", "lp_pool3d",
             "conv_transpose3d")
    assert set(names) <= set(F.FUNCTIONS) and len(set(F.FUNCTIONS)) == len(F.FUNCTIONS)
