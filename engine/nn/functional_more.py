"""torch.nn.functional's upsample, upsample_nearest and upsample_bilinear (interpolate under
PyTorch's deprecation warnings), dropout1d, dropout3d, alpha_dropout, feature_alpha_dropout, rrelu,
gumbel_softmax and lp_pool1d/2d/3d, with PyTorch's checks and messages (re-exported by
nn/functional.py). All but rrelu (engine/ops/nnlayers.py's row, RreluWithNoiseBackward0) are
composed as PyTorch composes them, so their graphs have its nodes. Random draws come from the
engine's generator: not PyTorch's numbers for a seed."""
import warnings

from .. import dtypes as _dt
from .. import functions as _fn
from ..functions.arguments import tensor_in
from ..ops import TABLE as _op
from ..core.inplace import inplace as _inplace
from ..core.tensor import apply
from .functional_conv import check_dropout_p, masked_dropout, warn_channel_dropout_rank, max_pool2d, avg_pool2d
from .functional_nnlayers import interpolate, max_pool1d, avg_pool1d
from .functional_blocks import max_pool3d, avg_pool3d

__all__ = ["upsample", "upsample_nearest", "upsample_bilinear", "dropout1d", "dropout3d", "alpha_dropout",
           "feature_alpha_dropout", "rrelu", "rrelu_", "gumbel_softmax", "lp_pool1d", "lp_pool2d", "lp_pool3d"]


# ------------------------------------------------------------------ interpolate's old names

def _deprecated(name):
    warnings.warn(f"`nn.functional.{name}` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=3)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """interpolate's old name."""
    _deprecated("upsample")
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """interpolate(mode='nearest') under its old name."""
    _deprecated("upsample_nearest")
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """interpolate(mode='bilinear', align_corners=True) under its old name."""
    _deprecated("upsample_bilinear")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# ------------------------------------------------------------------ dropout

def _channel_dropout(x, p, training, inplace, batched, alpha=False):
    """Whole (N, C) channels dropped; an unbatched input gets its batch dim for the draws (in place
    too, as PyTorch's unsqueeze_)."""
    if not batched:
        x = x.unsqueeze_(0) if inplace else x.unsqueeze(0)
    out = masked_dropout(x, p, training, inplace, per_channel=True, alpha=alpha)
    if not batched:
        out = out.squeeze_(0) if inplace else out.squeeze(0)
    return out


def dropout1d(input, p=0.5, training=True, inplace=False):
    """While training, whole channels of an (N, C, L) or (C, L) input zeroed with probability p, the
    rest scaled by 1/(1-p)."""
    check_dropout_p(p)
    x = tensor_in(input)
    if x.dim() not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {x.dim()}D input. Note that dropout1d "
                           f"exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel "
                           f"dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    return _channel_dropout(x, p, training, inplace, x.dim() == 3)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """While training, whole channels of an (N, C, D, H, W) or (C, D, H, W) input zeroed with
    probability p, the rest scaled by 1/(1-p)."""
    check_dropout_p(p)
    x = tensor_in(input)
    if x.dim() not in (4, 5):
        warn_channel_dropout_rank(3, x.dim(), stacklevel=3)
    return _channel_dropout(x, p, training, inplace, x.dim() == 5)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """SELU's dropout: while training, elements set with probability p to SELU's negative limit, then
    all scaled and shifted so that mean and variance stay."""
    check_dropout_p(p)
    return masked_dropout(tensor_in(input), p, training, inplace, alpha=True)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """alpha_dropout of whole channels (dims 0 and 1 of the input)."""
    check_dropout_p(p)
    return masked_dropout(tensor_in(input), p, training, inplace, per_channel=True, alpha=True)


# ------------------------------------------------------------------ rrelu

def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Randomized leaky ReLU: while training each x <= 0 times a slope drawn uniformly in [lower,
    upper], else times their mean."""
    x = tensor_in(input)
    if not x.is_floating_point():
        kernel = "rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_dt.scalar_name(_dt.as_dtype(x.array.dtype))}\'')
    if training:
        slope = _fn.empty(*x.shape, dtype=x.dtype, device=x.device).uniform_(lower, upper)
        noise = _fn.where(x > 0, 1.0, slope).to(x.dtype).array
    else:
        noise = (lower + upper) / 2
    if inplace:
        return _inplace(x, lambda t: apply(_op["rrelu"], t, noise=noise, inplace=True))
    return apply(_op["rrelu"], x, noise=noise)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    """rrelu in place."""
    return rrelu(input, lower, upper, training, inplace=True)


# ------------------------------------------------------------------ gumbel_softmax

def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """softmax((logits + Gumbel(0, 1) noise) / tau) along dim; `hard`: the one-hot of its argmax,
    with the soft sample's gradient (straight through)."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    logits = tensor_in(logits)
    gumbels = -_fn.empty_like(logits).exponential_().log()
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = _fn.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


# ------------------------------------------------------------------ lp_pool

def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, k, max_pool, avg_pool):
    """(sum of x^p over each window)^(1/p): PyTorch's avg_pool of x^p times the window's size (a
    max pool of |x| for p = +-inf)."""
    x = tensor_in(input)
    kernel = [int(v) for v in kernel_size] if isinstance(kernel_size, (list, tuple)) else [int(kernel_size)] * k
    if isinstance(norm_type, (int, float)):
        if norm_type == float("inf"):
            return max_pool(x.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -max_pool(-x.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool(x.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool(x.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    size = 1
    for v in kernel:
        size *= v
    return (_fn.sign(out) * _fn.relu(_fn.abs(out))).mul(size).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The p-norm of each window over the last dim."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1, max_pool1d, avg_pool1d)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The p-norm of each window over the last two dims."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2, max_pool2d, avg_pool2d)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The p-norm of each window over the last three dims."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3, max_pool3d, avg_pool3d)
