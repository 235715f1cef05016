"""torch.nn.functional's pixel_shuffle, pixel_unshuffle, channel_shuffle, unfold, fold, the adaptive
poolings of 1 and 3 dims and adaptive max pooling, conv3d, max_pool3d, avg_pool3d, bilinear and
local_response_norm, beyond their op
cases (tests/engine/ops/op_cases_conv.py, op_cases_nnlayers.py): PyTorch 2.13's errors and messages
(copied from it), which position adaptive max pooling reports for ties and NaNs (PyTorch's
`val > max || isnan(val)` rule, worked by hand), fold as unfold's adjoint, the layers as their
functions, and the nodes of second derivatives (PyTorch's names)."""
import math

import numpy as np
import pytest

import autodiff.engine as ad

F = ad.nn.functional


def _randn(*shape, dtype=ad.float64):
    return ad.tensor(np.random.default_rng(sum(shape) + len(shape)).standard_normal(shape), dtype=dtype)


# (call, exception type, PyTorch's message)
ERRORS = [
    (lambda: F.pixel_shuffle(_randn(3, 4), 2), RuntimeError,
     "pixel_shuffle expects input to have at least 3 dimensions, but got input with 2 dimension(s)"),
    (lambda: F.pixel_shuffle(_randn(3, 4, 5), 2), RuntimeError,
     "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but "
     "input.size(-3)=3 is not divisible by 4"),
    (lambda: ad.pixel_shuffle(_randn(4, 4, 5), -2), RuntimeError,
     "pixel_shuffle expects a positive upscale_factor, but got -2"),
    (lambda: F.pixel_unshuffle(_randn(4, 4, 5), 2), RuntimeError,
     "pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=5 is not divisible by 2"),
    (lambda: F.pixel_unshuffle(_randn(4, 5, 4), 2), RuntimeError,
     "pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=5 is not divisible by 2"),
    (lambda: F.pixel_unshuffle(_randn(4, 4, 4), 0), RuntimeError,
     "pixel_unshuffle expects a positive downscale_factor, but got 0"),
    (lambda: F.channel_shuffle(_randn(4, 4), 2), RuntimeError,
     "channel_shuffle expects input with > 2 dims, but got input with sizes [4, 4]"),
    (lambda: F.channel_shuffle(_randn(4, 6, 3), 4), RuntimeError,
     "Number of channels must be divisible by groups. Got 6 channels and 4 groups."),
    (lambda: F.channel_shuffle(_randn(4, 6, 3), 0), RuntimeError,
     "Number of groups to divide channels in must be positive. Value of groups:0"),
    (lambda: F.unfold(_randn(5, 5), 2), IndexError, "Dimension out of range (expected to be in range of [-2, 1], "
                                                    "but got 2)"),
    (lambda: F.unfold(_randn(1, 2, 3, 5, 5), 2), RuntimeError,
     "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but "
     "got: [1, 2, 3, 5, 5]"),
    (lambda: F.unfold(_randn(2, 3, 5, 5), 6), RuntimeError,
     "Given input with spatial size (5, 5), kernel_size=(6, 6), dilation=(1, 1), padding=(0, 0), calculated shape of "
     "the array of sliding blocks as (0, 0), but its components must be at least one."),
    (lambda: F.unfold(_randn(2, 3, 5, 5), (2, 2, 2)), RuntimeError,
     "It is expected kernel_size equals to 2, but got size 3"),
    (lambda: F.unfold(_randn(2, 3, 5, 5), 2.5), TypeError,
     "im2col(): argument 'kernel_size' (position 2) must be tuple of ints, but found element of type float at pos 0"),
    (lambda: F.unfold(_randn(3, 4, 4), 2, dilation=0, padding=-1, stride=0), RuntimeError,
     "dilation should be greater than zero, but got dilation_height: 0 dilation_width: 0"),
    (lambda: F.unfold(_randn(3, 4, 4), 2, padding=-1, stride=0), RuntimeError,
     "padding should be non-negative, but got pad_height: -1 pad_width: -1"),
    (lambda: F.unfold(ad.zeros(1, 1, 3, 3, dtype=ad.int64), 2), NotImplementedError,
     "\"im2col_out_cpu\" not implemented for 'Long'"),
    (lambda: F.fold(_randn(2, 13, 16), (5, 5), 2), RuntimeError,
     "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)=13 "
     "and kernel_size=(2, 2)."),
    (lambda: F.fold(_randn(2, 12, 15), (5, 5), 2), RuntimeError,
     "Given output_size=(5, 5), kernel_size=(2, 2), dilation=(1, 1), padding=(0, 0), stride=(1, 1), expected size "
     "of input's dimension 2 to match the calculated number of sliding blocks 4 * 4 = 16, but got input.size(2)=15."),
    (lambda: F.fold(_randn(2, 2, 12, 16), (5, 5), 2), RuntimeError,
     "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, "
     "but got: [2, 2, 12, 16]"),
    (lambda: F.fold(_randn(3, 4), 2, 2, dilation=0, padding=-1, stride=0), RuntimeError,
     "stride should be greater than zero, but got stride_height: 0 stride_width: 0"),
    (lambda: F.fold(_randn(25, 9), (1, 1), 5), RuntimeError,
     "Given output_size=(1, 1), kernel_size=(5, 5), dilation=(1, 1), padding=(0, 0), calculated shape of the array "
     "of sliding blocks as (-3, -3), which is too small (non-positive)"),
    (lambda: F.fold(_randn(2, 12, 16), (5, 5, 5), 2), RuntimeError,
     "It is expected output_size equals to 2, but got size 3"),
    (lambda: F.adaptive_avg_pool1d(_randn(7), 3), RuntimeError,
     "Expected 2 to 3 dimensions, but got 1-dimensional tensor for argument #1 'self' (while checking arguments for "
     "adaptive_avg_pool1d)"),
    (lambda: F.adaptive_avg_pool1d(_randn(2, 3, 7), (3, 3)), RuntimeError,
     "adaptive_avg_pool1d() argument 'output_size' should contain one int (got 2)"),
    (lambda: F.adaptive_avg_pool1d(_randn(2, 3, 7), None), TypeError,
     "adaptive_avg_pool1d(): argument 'output_size' (position 2) must be tuple of ints, not NoneType"),
    (lambda: F.adaptive_avg_pool1d(_randn(2, 7), -1), RuntimeError,
     "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {1, -1}"),
    (lambda: F.adaptive_avg_pool1d(_randn(2, 2, 0), 2), RuntimeError,
     "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
     "[2, 2, 1, 0] with dimension 3 being empty"),
    (lambda: F.adaptive_avg_pool1d(ad.zeros(2, 3, 5, dtype=ad.int64), 2), NotImplementedError,
     "\"adaptive_avg_pool2d\" not implemented for 'Long'"),
    (lambda: F.adaptive_max_pool1d(_randn(2, 0), 2), RuntimeError,
     "adaptive_max_pool1d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
     "[2, 0] with dimension 1 being empty"),
    (lambda: F.adaptive_max_pool1d(_randn(2, 3, 7), -1), RuntimeError,
     "Trying to create tensor with negative dimension -1: [2, 3, 1, -1]"),
    (lambda: F.adaptive_max_pool2d(_randn(5, 5), 3), RuntimeError,
     "adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: [5, 5]"),
    (lambda: F.adaptive_max_pool2d(_randn(2, 3, 5, 5), (3, 3, 3)), RuntimeError,
     "adaptive_max_pool2d(): internal error: output_size.size() must be 2"),
    (lambda: F.adaptive_max_pool2d(_randn(2, 5, 5), (None, 2, 2)), ValueError, "Input dimension should be at least 4"),
    (lambda: F.adaptive_max_pool2d(_randn(2, 0, 5, 5), 2), RuntimeError,
     "adaptive_max_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
     "[2, 0, 5, 5] with dimension 1 being empty"),
    (lambda: F.adaptive_max_pool2d(ad.zeros(2, 3, 5, 5, dtype=ad.int64), 2), NotImplementedError,
     "\"adaptive_max_pool2d\" not implemented for 'Long'"),
    (lambda: F.adaptive_max_pool3d(_randn(5, 5), 3), RuntimeError,
     "adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: [5, 5]"),
    (lambda: F.adaptive_max_pool3d(_randn(2, 3, 5, 5, 5), (3, 3)), RuntimeError,
     "adaptive_max_pool3d(): internal error: output_size.size() must be 3"),
    (lambda: F.adaptive_max_pool3d(_randn(2, 3, 5, 5, 5), -1), RuntimeError,
     "Trying to create tensor with negative dimension -1: [2, 3, -1, -1, -1]"),
    (lambda: F.adaptive_max_pool3d(ad.zeros(2, 3, 5, 5, 5, dtype=ad.int64), 2), NotImplementedError,
     "\"adaptive_max_pool3d_cpu\" not implemented for 'Long'"),
    (lambda: F.adaptive_avg_pool3d(_randn(3, 5, 5), 2), RuntimeError,
     "adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got [3, 5, 5]"),
    (lambda: F.adaptive_avg_pool3d(_randn(3, 5, 5), (2, 2)), RuntimeError,
     "adaptive_avg_pool3d: output_size must be 3"),
    (lambda: F.adaptive_avg_pool3d(_randn(3, 5, 5, 5), -1), RuntimeError,
     "adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 but received {-1, -1,-1}"),
    (lambda: F.adaptive_avg_pool3d(_randn(3, 0, 5, 5), 2), RuntimeError,
     "adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
     "[3, 0, 5, 5] with dimension 1 being empty"),
    (lambda: F.bilinear(_randn(2, 3), _randn(2, 2, 4), _randn(5, 3, 4)), RuntimeError,
     "bilinear(): input dimensions do not match: got 2 and 3"),
    (lambda: F.bilinear(_randn(2, 3), _randn(3, 4), _randn(5, 3, 4)), RuntimeError,
     "bilinear(): input batch dimensions do not match at dim 0: got 2 and 3"),
    (lambda: F.bilinear(_randn(2, 2), _randn(2, 4), _randn(5, 3, 4)), RuntimeError,
     "bilinear(): input1 size does not match weight size: got 2 but expected 3"),
    (lambda: F.bilinear(_randn(2, 3), _randn(2, 5), _randn(5, 3, 4)), RuntimeError,
     "bilinear(): input2 size does not match weight size: got 5 but expected 4"),
    (lambda: F.bilinear(_randn(2, 3), _randn(2, 4), _randn(5, 3, 4), _randn(4)), RuntimeError,
     "bilinear(): bias size does not match weight size: got 4 but expected 5"),
    (lambda: F.bilinear(_randn(2, 3, dtype=ad.float32), _randn(2, 4), _randn(5, 3, 4)), RuntimeError,
     "All tensors must have the same dtype, got input1: float, input2: double, weight: double"),
    (lambda: F.bilinear(_randn(2, 3), _randn(2, 4), _randn(5, 3)), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: F.max_pool3d(_randn(2, 3, 5, 6, 7), (2, 2)), RuntimeError,
     "max_pool3d: kernel_size must either be a single int, or a tuple of three ints"),
    (lambda: F.max_pool3d(_randn(2, 3, 5, 6, 7), 2, (1, 1)), RuntimeError,
     "max_pool3d: stride must either be omitted, a single int, or a tuple of three ints"),
    (lambda: F.max_pool3d(_randn(2, 3, 5, 6, 7), 0), RuntimeError, "stride should not be zero"),
    (lambda: F.max_pool3d(_randn(2, 3, 5, 6, 7), 2, 1, -1), RuntimeError, "pad must be non-negative, but got pad: -1"),
    (lambda: F.max_pool3d(_randn(5, 6, 7), 2), RuntimeError,
     "non-empty 4D or 5D (batch mode) tensor expected for input"),
    (lambda: F.max_pool3d(_randn(3, 5, 0, 5), 2), RuntimeError,
     "max_pool3d_with_indices_out_cpu_template(): Expected input's non-batch dimensions to have positive length, but "
     "input has a shape of [3, 5, 0, 5] and non-batch dimension 0 has length zero!"),
    (lambda: F.max_pool3d(_randn(2, 3, 1, 6, 7), 2), RuntimeError,
     "Given input size: (3x1x6x7). Calculated output size: (3x0x3x3). Output size is too small"),
    (lambda: F.max_pool3d(_randn(2, 3, 5, 6, 7), 2, 1, 0, 0), RuntimeError,
     "dilation should be greater than zero, but got dilationT: 0 dilationH: 0 dilationW: 0"),
    (lambda: F.avg_pool3d(_randn(2, 3, 5, 6, 7), (2, 2)), RuntimeError,
     "avg_pool3d: kernel_size must be a single int, or a tuple of three ints"),
    (lambda: F.avg_pool3d(_randn(2, 0, 5, 6, 7), 2), RuntimeError,
     "avg_pool3d(): Expected input's non-batch dimensions to have positive length, but input has a shape of "
     "[2, 0, 5, 6, 7] and non-batch dimension 0 has length zero!"),
    (lambda: F.avg_pool3d(_randn(2, 3, 1, 6, 7), 2), RuntimeError,
     "input image (T: 1 H: 6 W: 7) smaller than kernel size (kT: 2 kH: 2 kW: 2)"),
    (lambda: F.avg_pool3d(_randn(1, 2, 3, 4, 4), 2, 1, 0, False, False, 0), RuntimeError, "divisor must be not zero"),
    (lambda: F.conv3d(_randn(3, 5, 5), _randn(2, 3, 1, 1, 1)), RuntimeError,
     "Expected 4D (unbatched) or 5D (batched) input to conv3d, but got input of size: [3, 5, 5]"),
    (lambda: F.local_response_norm(_randn(2, 3), 2), ValueError,
     "Expected 3D or higher dimensionality                          input (got 2 dimensions)"),
]


@pytest.mark.parametrize("call, kind, message", ERRORS, ids=[f"{i}" for i in range(len(ERRORS))])
def test_pytorch_errors(call, kind, message):
    with pytest.raises(kind) as info:
        call()
    assert str(info.value) == message


def test_torch_level_functions_are_the_functional_ones():
    """torch.pixel_shuffle is F.pixel_shuffle, as in PyTorch; and each is in the language's namespaces."""
    from autodiff.grammar import names
    for name in ("pixel_shuffle", "pixel_unshuffle", "channel_shuffle"):
        assert getattr(ad, name) is getattr(F, name)
        assert name in names.TORCH
    functional = ad.nn.functional.FUNCTIONS
    for name in ("pixel_shuffle", "unfold", "fold", "adaptive_avg_pool1d", "adaptive_max_pool1d",
                 "adaptive_max_pool2d", "adaptive_avg_pool3d", "bilinear", "local_response_norm"):
        assert name in functional


def test_shuffles_undone_and_integer_dtypes_kept():
    x = ad.tensor(np.arange(2 * 12 * 2 * 3).reshape(2, 12, 2, 3))  # int64
    y = F.pixel_shuffle(x, 2)
    assert y.dtype == ad.int64 and tuple(y.shape) == (2, 3, 4, 6)
    assert np.array_equal(F.pixel_unshuffle(y, 2).numpy(), x.numpy())
    # 12 channels in 3 groups, then in 12 / 3 = 4 groups: the identity
    assert np.array_equal(F.channel_shuffle(F.channel_shuffle(x, 3), 4).numpy(), x.numpy())
    # pixel (0, 1) of the first 2 x 2 block of channel 0 is channel 1 (c r^2 + i r + j with i = 0, j = 1)
    assert y[0, 0, 0, 1].item() == x[0, 1, 0, 0].item()


def test_fold_is_the_adjoint_of_unfold():
    """<unfold(x), c> = <x, fold(c)>, and fold(unfold(ones)) counts the blocks covering each pixel."""
    rng = np.random.default_rng(3)
    x = ad.tensor(rng.standard_normal((2, 3, 5, 6)))
    params = dict(kernel_size=(2, 3), dilation=(2, 1), padding=(1, 2), stride=(1, 2))
    cols = F.unfold(x, **params)
    c = ad.tensor(rng.standard_normal(tuple(cols.shape)))
    assert math.isclose((cols * c).sum().item(), (x * F.fold(c, (5, 6), **params)).sum().item(), rel_tol=1e-12)
    counts = F.fold(F.unfold(ad.ones(1, 1, 3, 3), 2), (3, 3), 2)
    assert counts.numpy().tolist() == [[[[1, 2, 1], [2, 4, 2], [1, 2, 1]]]]


def test_adaptive_max_pool_positions_ties_and_nans():
    """The first maximum of a window, or its last NaN, as a flat position in the plane."""
    x = ad.tensor([[[1.0, 3.0, 3.0], [2.0, 0.0, 1.0]]])
    values, where = F.adaptive_max_pool2d(x, 1, return_indices=True)
    assert values.item() == 3.0 and where.item() == 1
    x = ad.tensor([[[1.0, math.nan, 3.0], [math.nan, 0.0, 1.0]]])
    values, where = F.adaptive_max_pool2d(x, (1, 1), return_indices=True)
    assert math.isnan(values.item()) and where.item() == 3
    # windows of a 5-long row into 3: [0, 2), [1, 4), [3, 5)
    values, where = F.adaptive_max_pool1d(ad.tensor([[5.0, 1.0, 4.0, 4.0, 0.0]]), 3, return_indices=True)
    assert values.numpy().tolist() == [[5.0, 4.0, 4.0]] and where.numpy().tolist() == [[0, 2, 3]]


def test_max_pool3d_positions_ties_and_nans():
    """max_pool3d's indices are flat positions in each (D, H, W) volume: the first maximum, or the
    last NaN; a window holding only padding's neighbours never reports the padding."""
    x = ad.tensor([[[[1.0, 4.0], [4.0, 0.0]], [[2.0, 3.0], [4.0, 1.0]]]])  # (1, 2, 2, 2): one window
    values, where = F.max_pool3d(x, 2, return_indices=True)
    assert values.item() == 4.0 and where.item() == 1
    x[0, 1, 0, 0] = math.nan
    x[0, 0, 1, 1] = math.nan
    values, where = F.max_pool3d(x, 2, return_indices=True)
    assert math.isnan(values.item()) and where.item() == 4
    # padding 1 around a 1 x 1 x 2 volume, windows of 2 with stride 2: each reports its one real element
    values, where = F.max_pool3d(ad.tensor([[[[-3.0, -5.0]]]]), 2, 2, 1, return_indices=True)
    assert values.numpy().ravel().tolist() == [-3.0, -5.0] and where.numpy().ravel().tolist() == [0, 1]


def test_second_derivative_nodes():
    """PyTorch's names of the double-backward nodes (its own graphs, 2.13)."""
    x = _randn(1, 2, 5, 5).requires_grad_()
    y = F.adaptive_max_pool2d(x, 3)
    v = ad.ones_like(y).requires_grad_()
    g, = ad.autograd.grad(y, x, v, create_graph=True)
    assert g.grad_fn.name() == "AdaptiveMaxPool2DBackwardBackward0"
    x = _randn(1, 2, 5, 5, 5).requires_grad_()
    y = F.adaptive_avg_pool3d(x, 3)
    g, = ad.autograd.grad(y, x, ad.ones_like(y).requires_grad_(), create_graph=True)
    assert g.grad_fn.name() == "AdaptiveAvgPool3DBackwardBackward0"
    y = F.pixel_shuffle(x, 1)
    g, = ad.autograd.grad(y, x, ad.ones_like(y).requires_grad_(), create_graph=True)
    assert g.grad_fn.name() == "PixelUnshuffleBackward0"


def test_layers_are_their_functions():
    x = _randn(2, 4, 6, 5)
    assert np.array_equal(ad.nn.PixelShuffle(2)(x).numpy(), F.pixel_shuffle(x, 2).numpy())
    assert np.array_equal(ad.nn.ChannelShuffle(2)(x).numpy(), F.channel_shuffle(x, 2).numpy())
    assert np.array_equal(ad.nn.Unfold(2, padding=1)(x).numpy(), F.unfold(x, 2, padding=1).numpy())
    values, where = ad.nn.AdaptiveMaxPool2d((2, None), return_indices=True)(x)
    want_values, want_where = F.adaptive_max_pool2d(x, (2, 5), return_indices=True)
    assert np.array_equal(values.numpy(), want_values.numpy()) and np.array_equal(where.numpy(), want_where.numpy())
    assert np.array_equal(ad.nn.AdaptiveAvgPool3d(2)(x).numpy(), F.adaptive_avg_pool3d(x, 2).numpy())
    assert np.array_equal(ad.nn.MaxPool3d(2, 1)(x).numpy(), F.max_pool3d(x, 2, 1).numpy())
    values, where = ad.nn.AdaptiveMaxPool3d(2, return_indices=True)(x)
    want_values, want_where = F.adaptive_max_pool3d(x, 2, return_indices=True)
    assert np.array_equal(values.numpy(), want_values.numpy()) and np.array_equal(where.numpy(), want_where.numpy())
    assert np.array_equal(ad.nn.AvgPool3d(2, 1, 1)(x).numpy(), F.avg_pool3d(x, 2, 1, 1).numpy())
    conv = ad.nn.Conv3d(2, 3, (2, 1, 3), padding=1).double()  # x is one (C, D, H, W) sample
    assert np.array_equal(conv(x).detach().numpy(), F.conv3d(x, conv.weight, conv.bias, padding=1).detach().numpy())
    layer = ad.nn.Bilinear(3, 2, 4).double()
    a, b = _randn(5, 3), _randn(5, 2)
    want = np.einsum("ni,oij,nj->no", a.numpy(), layer.weight.detach().numpy(), b.numpy()) + layer.bias.detach().numpy()
    assert np.allclose(layer(a, b).detach().numpy(), want, rtol=1e-12, atol=1e-12)
    # local response norm of one channel among zeros: x / (k + alpha x^2 / size)^beta
    x = ad.zeros(1, 3, 1)
    x[0, 1, 0] = 2.0
    y = ad.nn.LocalResponseNorm(3, alpha=0.3, beta=0.5, k=1.0)(x)
    assert math.isclose(y[0, 1, 0].item(), 2.0 / math.sqrt(1.0 + 0.3 * 4.0 / 3), rel_tol=1e-12)
    assert y[0, 0, 0].item() == 0.0
