"""torch.nn.functional: activations and losses with PyTorch's signatures, argument checks and
messages (`autodiff.engine.nn.functional`; `torch.nn.functional` and `F` in the language).

The differentiable primitives are rows of engine/ops/activations.py, named as PyTorch's nodes
(SoftplusBackward0, MseLossBackward0, NllLossBackward0, ...). Where PyTorch composes a function
from other ops (l1_loss, cross_entropy, mse_loss with `weight`), it is composed here from the
same ops, so the graph has PyTorch's nodes: cross_entropy is log_softmax then nll_loss
(NllLossBackward0), l1_loss is |input - target| then mean or sum.
"""
import warnings

import numpy

from .. import dtypes as _dt
from ..functions.arguments import tensor_in
from ..functions import linear, relu_, sigmoid, tanh, expand, masked_fill, to as _to
from ..functions import relu as _relu
from ..functions import abs as _abs, sum as _sum, log_softmax as _log_softmax, softmax as _softmax
from ..functions import exp as _exp, xlogy as _xlogy
from ..functions import hardshrink  # torch.hardshrink is F.hardshrink
from ..functions import pixel_shuffle, pixel_unshuffle, channel_shuffle  # noqa: F401  (torch's, as in PyTorch)
from ..core.grad_mode import is_grad_enabled, no_grad as _no_grad
from ..core.inplace import inplace as _inplace
from ..ops import TABLE as _op
from ..core.tensor import apply, broadcast_shapes, array_module, make_tensor, wrap_dim
from ..tensor_class import Tensor
from ..functions import pairwise_distance, pdist  # noqa: F401  (F.pairwise_distance, F.pdist)
from .functional_layers import layer_norm, embedding  # noqa: F401
from .functional_conv import (conv1d, conv2d, conv3d, max_pool2d, avg_pool2d, adaptive_avg_pool2d,  # noqa: F401
                              batch_norm, dropout2d, check_dropout_p, masked_dropout, warn_channel_dropout_rank)
from .functional_padding import pad  # noqa: F401
from . import functional_blocks as _blocks
from .functional_blocks import *  # noqa: F401,F403  (unfold, fold, ...)
from .functional_nnlayers import (interpolate, conv_transpose1d, conv_transpose2d, conv_transpose3d,  # noqa: F401
                                  max_pool1d, avg_pool1d, group_norm, instance_norm, rms_norm)
from .functional_nnlayers import __all__ as _nnlayers
from . import functional_losses as _losses
from .functional_losses import _legacy as _reduction  # PyTorch's _Reduction, one for every loss
from .functional_losses import *  # noqa: F401,F403  (margin_ranking_loss, triplet_margin_loss, ...)
from . import functional_attention as _attention
from .functional_attention import *  # noqa: F401,F403  (scaled_dot_product_attention)
from . import functional_sampling as _sampling
from .functional_sampling import *  # noqa: F401,F403  (affine_grid, grid_sample)
from . import functional_pools as _pools
from .functional_pools import *  # noqa: F401,F403  (max_unpool1d, ...)
from . import functional_more as _more
from .functional_more import *  # noqa: F401,F403  (upsample, dropout1d, rrelu, gumbel_softmax, lp_pool1d, ...)

__all__ = ["relu", "relu_", "sigmoid", "tanh", "softmax", "log_softmax", "softplus", "gelu", "silu",
           "leaky_relu", "leaky_relu_", "hardtanh", "hardtanh_", "relu6", "elu", "elu_", "selu", "celu", "logsigmoid", "linear",
           "mse_loss", "l1_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
           "nll_loss", "cross_entropy", "dropout", "normalize", "one_hot", "softmin", "tanhshrink", "softshrink", "softsign", "hardshrink", "pad",
           "smooth_l1_loss", "huber_loss", "mish", "hardswish", "hardsigmoid", "threshold", "threshold_", "prelu",
           "glu", "cosine_similarity", "kl_div"]
FUNCTIONS = tuple(__all__)  # what the language's torch.nn.functional (and F) holds

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


# ------------------------------------------------------------------ argument helpers

def _scalar_name(t):
    return _dt.scalar_name(_dt.as_dtype(t.array.dtype))


def _floating(x, kernel):
    """PyTorch's refusal of integer and bool inputs to a float kernel ("softplus_cpu" ...)."""
    x = tensor_in(x)
    if x.array.dtype.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_name(x)}\'')
    return x


def _number(value, name, fname, position=None):
    if isinstance(value, Tensor):
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, (int, float, numpy.number)):
        where = "" if position is None else f" (position {position})"
        raise TypeError(f"{fname}(): argument '{name}'{where} must be Number, not {type(value).__name__}")
    return float(value)


def _not_differentiable(t, fname, argument):
    if isinstance(t, Tensor) and t.requires_grad and is_grad_enabled():
        raise RuntimeError(f"The function '{fname}' is not differentiable with respect to argument "
                           f"'{argument}'. This input cannot have requires_grad True.")


def _elementwise_loss_inputs(input, target, size_average, reduce, reduction):
    """(input, x, target, reduction) of an elementwise loss (mse, l1): tensors, PyTorch's size
    warning, the legacy size_average/reduce flags read, input and target broadcast together."""
    input, target = tensor_in(input), tensor_in(target, "target")
    if target.shape != input.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size "
                      f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
                      f"Please ensure they have the same size.", stacklevel=3)
    if size_average is not None or reduce is not None:
        reduction = _reduction(reduction, size_average, reduce)
    x, t = _broadcast_pair(input, target)
    return input, x, t, reduction


def _broadcast_pair(a, b):
    """torch.broadcast_tensors for two: a tensor already of the common shape is itself."""
    shape = broadcast_shapes([a.array.shape, b.array.shape])
    return (a if a.array.shape == shape else expand(a, shape)), (b if b.array.shape == shape else expand(b, shape))


def _with_inplace(x, row, params, inplace):
    if inplace:
        return _inplace(x, lambda t: apply(row, t, **params, inplace=True))
    return apply(row, x, **params)


# ------------------------------------------------------------------------ activations

def relu(input, inplace=False):
    """max(x, 0)."""
    return relu_(input) if inplace else _relu(input)


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold."""
    input = _floating(input, "softplus_cpu")
    return apply(_op["softplus"], input, beta=_number(beta, "beta", "softplus"),
                 threshold=_number(threshold, "threshold", "softplus"))


def gelu(input, approximate="none"):
    """x * Phi(x) (the normal CDF), or its tanh approximation with approximate='tanh'."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    input = _floating(input, "GeluKernelImpl")
    return apply(_op["gelu"], input, approximate=approximate)


def silu(input, inplace=False):
    """x * sigmoid(x) (swish)."""
    input = _floating(input, "silu_cpu")
    return _with_inplace(input, _op["silu"], {}, inplace)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """x where x > 0, negative_slope * x elsewhere."""
    input = _floating(input, "leaky_relu_cpu")
    return _with_inplace(input, _op["leaky_relu"],
                         {"negative_slope": _number(negative_slope, "negative_slope", "leaky_relu")}, inplace)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """x clamped to [min_val, max_val]; its gradient is 0 at the bounds themselves."""
    min_val, max_val = _number(min_val, "min_val", "hardtanh"), _number(max_val, "max_val", "hardtanh")
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    input = tensor_in(input)
    if input.array.dtype.kind == "b":
        raise RuntimeError("Bool inputs not supported for hardtanh")
    return _with_inplace(input, _op["hardtanh"], {"min_val": min_val, "max_val": max_val}, inplace)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input, inplace=False):
    """min(max(x, 0), 6): hardtanh(x, 0, 6), as PyTorch records it (HardtanhBackward0)."""
    return hardtanh(input, 0.0, 6.0, inplace)


def elu(input, alpha=1.0, inplace=False):
    """x where x > 0, alpha * (exp(x) - 1) elsewhere."""
    input = _floating(input, "elu_cpu")
    return _with_inplace(input, _op["elu"], {"alpha": _number(alpha, "alpha", "elu")}, inplace)


def elu_(input, alpha=1.0):
    return elu(input, alpha, inplace=True)


def selu(input, inplace=False):
    """scale * elu(x, alpha) with PyTorch's constants (node EluBackward0, as PyTorch's)."""
    input = _floating(input, "elu_cpu")
    return _with_inplace(input, _op["elu"], {"alpha": _SELU_ALPHA, "scale": _SELU_SCALE}, inplace)


def celu(input, alpha=1.0, inplace=False):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    alpha = _number(alpha, "alpha", "celu")
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    input = _floating(input, "elu_cpu")
    return _with_inplace(input, _op["elu"], {"alpha": alpha, "input_scale": 1.0 / alpha, "celu": True}, inplace)


def logsigmoid(input):
    """log(sigmoid(x)), computed without overflow."""
    input = _floating(input, "log_sigmoid_forward")
    return apply(_op["log_sigmoid"], input)


def mish(input, inplace=False):
    """x * tanh(softplus(x)): a smooth activation like relu that dips a little below 0."""
    input = _floating(input, "mish_cpu")
    return _with_inplace(input, _op["mish"], {}, inplace)


def hardswish(input, inplace=False):
    """x * relu6(x + 3) / 6: 0 up to -3, x from 3 on, x (x + 3) / 6 between (MobileNetV3's swish)."""
    input = _floating(input, "hardswish_cpu")
    return _with_inplace(input, _op["hardswish"], {}, inplace)


def hardsigmoid(input, inplace=False):
    """relu6(x + 3) / 6: 0 up to -3, 1 from 3 on, x / 6 + 1/2 between."""
    input = _floating(input, "hardsigmoid_cpu")
    return _with_inplace(input, _op["hardsigmoid"], {}, inplace)


def threshold(input, threshold, value, inplace=False):
    """value where x <= threshold, x elsewhere (an integer tensor compares with threshold
    truncated, as PyTorch casts it)."""
    threshold = _number(threshold, "threshold", "threshold", 2)
    value = _number(value, "value", "threshold", 3)
    input = tensor_in(input)
    kind = input.array.dtype.kind
    if kind == "b":
        raise NotImplementedError("\"threshold_cpu\" not implemented for 'Bool'")
    if kind != "f":
        threshold = float(int(threshold))
    return _with_inplace(input, _op["threshold"], {"threshold": threshold, "value": value}, inplace)


_threshold = threshold


def threshold_(input, threshold, value):
    """threshold in place: input itself becomes value where it is <= threshold."""
    return _threshold(input, threshold, value, inplace=True)


def prelu(input, weight):
    """x where x > 0, weight * x elsewhere: one learnt slope for all, or one per channel (dim 1)."""
    input, weight = tensor_in(input), tensor_in(weight, "weight")
    if input.array.dtype != weight.array.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {_scalar_name(input)} and "
                           f"{_scalar_name(weight)}")
    nd, count = input.array.ndim, weight.array.size
    if count != 1:
        if nd == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.array.shape[1] if nd > 1 else 1
        if channels != count:
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               f"{count} and channel size = {channels}.")
    if weight.array.ndim > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.array.ndim}")
    _floating(input, "prelu_cpu")
    if nd != weight.array.ndim:  # PyTorch's view: the weights along dim 1, ones elsewhere
        weight = weight.reshape([count if i == 1 else 1 for i in range(nd)])
    return apply(_op["prelu"], input, weight)


def glu(input, dim=-1):
    """a * sigmoid(b), a and b the first and second halves of input along dim (a gated linear unit)."""
    input = tensor_in(input)
    nd = input.array.ndim
    if nd == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    d = wrap_dim(dim, nd)
    size = input.array.shape[d]
    if size % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {size}")
    _floating(input, "glu_cpu")
    return apply(_op["glu"], input, dim=d)

def _along_dim(name, op, input, dim, dtype):
    """softmax-like `op(input, dim)`: no dim is PyTorch's implicit choice, with its warning."""
    input = tensor_in(input)
    if dim is None:
        warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
                      f"dim=X as an argument.", stacklevel=3)
        dim = 0 if input.array.ndim in (0, 1, 3) else 1
    if dtype is not None:
        input = _to(input, dtype=dtype)
    return op(input, dim)


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """exp(x) / sum(exp(x)) along dim (no dim: PyTorch's implicit choice, with its warning)."""
    return _along_dim("softmax", _softmax, input, dim, dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """x - logsumexp(x) along dim (no dim: PyTorch's implicit choice, with its warning)."""
    return _along_dim("log_softmax", _log_softmax, input, dim, dtype)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-x) along dim, as PyTorch composes it (no dim: its implicit choice, with its warning)."""
    return _along_dim("softmin", _softmax_of_negative, input, dim, dtype)


def _softmax_of_negative(input, dim):
    return _softmax(-input, dim)


def tanhshrink(input):
    """x - tanh(x), as PyTorch composes it."""
    input = tensor_in(input)
    return input - tanh(input)


def softshrink(input, lambd=0.5):
    """x - lambd above lambd, x + lambd below -lambd, 0 between (lambd >= 0); floating tensors only."""
    input = tensor_in(input)
    if input.array.dtype.kind != "f":
        raise NotImplementedError(f"\"softshrink_check\" not implemented for '{_scalar_name(input)}'")
    lambd = _number(lambd, "lambd", "softshrink", 2)
    if not lambd >= 0:
        top = float(numpy.finfo(input.array.dtype).max)
        raise RuntimeError(f"lambda must be in range [0, {top:g}] for input dtype {_scalar_name(input)}, "
                           f"but found {lambd:g}")
    return apply(_op["softshrink"], input, lambd=lambd)


def softsign(input):
    """x / (|x| + 1), as PyTorch composes it (DivBackward0 over AddBackward0)."""
    input = tensor_in(input)
    with numpy.errstate(invalid="ignore"):  # inf / inf: NaN, silently as in PyTorch
        return input / (_abs(input) + 1)


# ----------------------------------------------------------------------------- losses

def _weighted_mean(loss, weight, reduction):
    """mse_loss and l1_loss with `weight`: PyTorch's manual form (sum(w * loss) / sum(w))."""
    loss = loss * weight
    if reduction == "none":
        return loss
    if reduction == "sum":
        return _sum(loss)
    return _sum(loss) / _sum(weight)


def _check_loss_weight(weight, input):
    if weight is not None:
        weight = tensor_in(weight, "weight")
        if weight.shape != input.shape:
            raise ValueError("Weights and input must have the same size.")
    return weight


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """(input - target) ** 2, averaged ('mean'), summed ('sum') or per element ('none')."""
    input, x, t, reduction = _elementwise_loss_inputs(input, target, size_average, reduce, reduction)
    if weight is not None:
        weight = _check_loss_weight(weight, input)
        return _weighted_mean((x - t) ** 2, weight, _reduction(reduction))
    reduction = _reduction(reduction)
    if x.array.dtype.kind != "f" and t.array.dtype.kind != "f":
        raise NotImplementedError(f'"mse_cpu" not implemented for \'{_scalar_name(x)}\'')
    return apply(_op["mse_loss"], x, t, reduction=reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """|input - target|, averaged ('mean'), summed ('sum') or per element ('none'); composed from
    sub, abs and mean/sum, as PyTorch's is."""
    input, x, t, reduction = _elementwise_loss_inputs(input, target, size_average, reduce, reduction)
    if weight is not None:
        weight = _check_loss_weight(weight, input)
        return _weighted_mean(_abs(x - t), weight, _reduction(reduction))
    reduction = _reduction(reduction)
    loss = _abs(x - t)
    if reduction == "none":
        return loss
    return loss.sum() if reduction == "sum" else loss.mean()


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """0.5 (input - target)**2 / beta where |input - target| < beta, else |input - target| - beta/2,
    reduced (beta 0: l1_loss, as PyTorch)."""
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0:
        return l1_loss(input, target, size_average, reduce, reduction)
    input, x, t, reduction = _elementwise_loss_inputs(input, target, size_average, reduce, reduction)
    return apply(_op["smooth_l1_loss"], x, t, reduction=_reduction(reduction), beta=float(beta))


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """0.5 (input - target)**2 where |input - target| < delta, else delta (|input - target| - delta/2),
    reduced."""
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    input, x, t, reduction = _elementwise_loss_inputs(input, target, None, None, reduction)
    if weight is not None:  # PyTorch's Python form: the unreduced loss times weight, then reduced
        loss = apply(_op["smooth_l1_loss"], x, t, reduction="none", beta=float(delta), huber=True)
        return _losses.weighted_huber(loss, weight, input, reduction)
    return apply(_op["smooth_l1_loss"], x, t, reduction=_reduction(reduction), beta=float(delta), huber=True)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """The pointwise KL divergence target * (log(target) - input), input being log-probabilities
    (target too with log_target=True), reduced; 'batchmean' sums and divides by the batch size.
    Composed as PyTorch composes it (xlogy, or exp with log_target)."""
    input, target = tensor_in(input), tensor_in(target, "target")
    if size_average is not None or reduce is not None:
        enum = _reduction(reduction, size_average, reduce)
    else:
        if reduction == "mean":
            warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                          "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                          "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                          stacklevel=2)
        enum = "sum" if reduction == "batchmean" else _reduction(reduction)
    if input.array.dtype.kind != "f" or target.array.dtype.kind != "f":
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        loss = _exp(target) * (target - input)
    else:
        loss = _xlogy(target, target) - target * input
    if enum != "none":
        loss = loss.sum() if enum == "sum" else loss.mean()
    if reduction == "batchmean" and input.array.ndim != 0:
        loss = loss / input.array.shape[0]
    return loss

def _target_dtype(input, target):
    """A float target of another dtype than input's: PyTorch's 'Found dtype ... but expected ...'."""
    if target.array.dtype != input.array.dtype:
        raise RuntimeError(f"Found dtype {_scalar_name(target)} but expected {_scalar_name(input)}")


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """-(t log x + (1 - t) log(1 - x)), x in [0, 1] (each log clamped at -100), times weight."""
    input, target = tensor_in(input), tensor_in(target, "target")
    reduction = _reduction(reduction, size_average, reduce)
    if target.shape != input.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size "
                         f"({input.shape}) is deprecated. Please ensure they have the same size.")
    w = None
    if weight is not None:
        weight = tensor_in(weight, "weight")
        weight = expand(weight, broadcast_shapes([target.array.shape, weight.array.shape]))
        _not_differentiable(weight, "binary_cross_entropy", "weight")
        w = weight.array
    _floating(input, "binary_cross_entropy")
    _target_dtype(input, target)
    xp_array = input.array
    if not bool(((xp_array >= 0) & (xp_array <= 1)).all()):
        raise RuntimeError("all elements of input should be between 0 and 1")
    return apply(_op["binary_cross_entropy"], input, target, weight=w, reduction=reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """binary_cross_entropy(sigmoid(x), t) computed from the logits x without overflow; pos_weight
    weighs the positive term (broadcast along the last, class dim)."""
    input, target = tensor_in(input), tensor_in(target, "target")
    reduction = _reduction(reduction, size_average, reduce)
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    arrays = {}
    for name, value in (("weight", weight), ("pos_weight", pos_weight)):
        if value is not None:
            value = tensor_in(value, name)
            _not_differentiable(value, "binary_cross_entropy_with_logits", name)
            broadcast_shapes([input.array.shape, value.array.shape])
            arrays[name] = value.array
    _floating(input, "binary_cross_entropy_with_logits")
    return apply(_op["binary_cross_entropy_with_logits"], input, target, weight=arrays.get("weight"),
                 pos_weight=arrays.get("pos_weight"), reduction=reduction)


def _nll_checks(input, target, weight):
    """PyTorch's nll_loss_nd checks; (the class dim, the number of classes)."""
    nd, tnd = input.array.ndim, target.array.ndim
    if nd < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {nd})")
    if nd != 1 and (tnd == 0 or input.array.shape[0] != target.array.shape[0]):
        raise ValueError(f"Expected input batch_size ({input.array.shape[0]}) to match target batch_size "
                         f"({target.array.shape[0] if tnd else 1}).")
    if nd <= 2:
        if tnd > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        if nd == 1 and tnd != 0:
            raise RuntimeError(f"size mismatch (got input: {list(input.shape)}, target: {list(target.shape)})")
    elif target.array.shape[1:] != input.array.shape[2:]:
        expected = [input.array.shape[0]] + list(input.array.shape[2:])
        raise RuntimeError(f"Expected target size {expected}, got {list(target.shape)}")
    dim = 0 if nd == 1 else 1
    classes = input.array.shape[dim]
    if weight is not None and (weight.array.ndim != 1 or weight.array.shape[0] != classes):
        raise RuntimeError(f"weight tensor should be defined either for all {classes} classes or no classes but "
                           f"got weight tensor of shape: {list(weight.shape)}")
    if target.array.dtype.kind not in "iu" or (target.array.dtype.kind == "u" and target.array.dtype.itemsize != 1):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_scalar_name(target)}")
    return dim, classes


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """-weight[t] * input[n, t] for each target class t (input holds log-probabilities along dim 1,
    or dim 0 for one sample); 'mean' divides by the total weight of the targets. Targets equal to
    ignore_index count for nothing."""
    input, target = tensor_in(input), tensor_in(target, "target")
    reduction = _reduction(reduction, size_average, reduce)
    if weight is not None:
        weight = tensor_in(weight, "weight")
        _not_differentiable(weight, "nll_loss_forward", "weight")
    dim, classes = _nll_checks(input, target, weight)
    xp = array_module(input.device)
    t = target.array.astype(xp.int64)
    dtype = input.array.dtype
    if weight is None and not 0 <= ignore_index < classes and t.size and 0 <= t.min() and t.max() < classes:
        index, picked = t, xp.ones(t.shape, dtype=dtype)  # the commonest call: what the lines below give it
    else:
        ignored = t == ignore_index
        bad = (~ignored) & ((t < 0) | (t >= classes))
        if bool(bad.any()):
            raise IndexError(f"Target {int(t[bad].reshape(-1)[0])} is out of bounds.")
        index = xp.where(ignored, 0, t)
        w = xp.ones(classes, dtype=dtype) if weight is None else weight.array.astype(dtype)
        picked = xp.where(ignored, 0, w[index]).astype(dtype)
    total = float(picked.sum()) if reduction == "mean" else 1.0
    nd = input.array.ndim
    if nd == 3 or nd > 4:  # as PyTorch's nll_loss_nd: viewed as (N, C, 1, -1) for nll_loss2d
        n = input.array.shape[0]
        out_shape = (n,) + input.array.shape[2:]
        if input.array.size:
            input = input.view(n, classes, 1, -1)
        index, picked = index.reshape(n, 1, -1), picked.reshape(n, 1, -1)
        out = apply(_op["nll_loss"], input, index=index, coef=-picked, dim=dim, total=total, reduction=reduction)
        return out.view(out_shape) if reduction == "none" else out
    return apply(_op["nll_loss"], input, index=index, coef=-picked, dim=dim, total=total, reduction=reduction)


def _mul_scalar(x, value):
    return apply(_op["scalar_arith"], x, value=value)


def _div_scalar(x, value):
    return apply(_op["scalar_arith"], x, value=value, divide=True)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """nll_loss(log_softmax(input, class dim), target) for class-index targets; for class
    probabilities (target of input's shape) -(log_softmax(input) * target * weight) summed over
    classes; label_smoothing mixes in the uniform distribution, as PyTorch does."""
    input, target = tensor_in(input), tensor_in(target, "target")
    reduction = _reduction(reduction, size_average, reduce)
    if weight is not None:
        weight = tensor_in(weight, "weight")
    label_smoothing = float(label_smoothing)
    nd = input.array.ndim
    class_dim = 0 if nd == 1 else 1
    if nd == 0:
        raise ValueError("Expected 1 or more dimensions (got 0)")
    classes = input.array.shape[class_dim]
    if input.shape == target.shape:
        if target.array.dtype.kind != "f":
            raise RuntimeError(f"Expected floating point type for target with class probabilities, got "
                               f"{_scalar_name(target)}")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        if label_smoothing < 0.0 or label_smoothing > 1.0:
            raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
        if weight is not None and (weight.array.ndim != 1 or weight.array.shape[0] != classes):
            raise RuntimeError(f"cross_entropy: weight tensor should be defined either for all {classes} classes "
                               f"or no classes but got weight tensor of shape: {list(weight.shape)}")
        logp = _log_softmax(input, class_dim)
        if label_smoothing > 0.0:
            target = _mul_scalar(target, 1 - label_smoothing) + label_smoothing / classes
        prod = logp * target
        if weight is not None:
            prod = prod * weight.reshape([classes if i == class_dim else 1 for i in range(nd)])
        if reduction == "none":
            return -_sum(prod, class_dim)
        if reduction == "sum":
            return -_sum(prod)
        return _div_scalar(-_sum(prod), input.array.size // classes)
    if label_smoothing < 0.0 or label_smoothing > 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    logp = _log_softmax(input, class_dim)
    nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing <= 0.0:
        return nll
    # PyTorch's cross_entropy_loss_label_smoothing
    if weight is not None:
        smooth = -_sum(logp * weight.reshape([classes if i == class_dim else 1 for i in range(nd)]), class_dim)
    else:
        smooth = -_sum(logp, class_dim)
    ignored = target == ignore_index
    smooth = masked_fill(smooth, ignored, 0.0)
    if reduction == "mean":
        kept = ~ignored.array
        if weight is not None:
            denominator = float(weight.array[target.array[kept]].sum())
        else:
            denominator = float(kept.sum())
        smooth = _sum(smooth) / denominator
    elif reduction == "sum":
        smooth = _sum(smooth)
    return _mul_scalar(nll, 1 - label_smoothing) + _mul_scalar(smooth, label_smoothing / classes)


def dropout(input, p=0.5, training=True, inplace=False):
    """While training, each element zeroed with probability p and the rest scaled by 1/(1-p), so
    the expectation is the input's -- `input * mask`, the mask a constant (PyTorch: MulBackward0,
    no gradient to the mask); otherwise, or with p 0, the input itself. The draws are not PyTorch's
    numbers for a seed."""
    check_dropout_p(p)
    return masked_dropout(tensor_in(input), p, training, inplace)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """input divided by its p-norm along dim, the norm held at eps or more: PyTorch's composition
    (norm, clamp_min, expand_as, div), so the same nodes and the same gradient."""
    if out is not None:
        raise TypeError("normalize(): out= is not supported here; assign the result instead")
    input = tensor_in(input)
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denom


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """The cosine of the angle between x1 and x2 along dim: their dot product over the product of
    their norms (each held at eps or more), x1 and x2 broadcast together.
    PyTorch's composition: each divided by its norm first (so the result stays in [-1, 1]), the
    norms clamped at eps under no_grad -- the gradient flows as if they were not clamped."""
    x1, x2 = tensor_in(x1, "x1"), tensor_in(x2, "x2")
    common = _dt.promote(_dt.dtype_of(x1.array), x1.array.ndim, _dt.dtype_of(x2.array), x2.array.ndim)
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is {_dt.scalar_name(common)}")
    # integers (and bools) are converted; a float of another width is not, as in PyTorch
    x1, x2 = (x if x.array.dtype.kind == "f" else _to(x, dtype=common) for x in (x1, x2))
    x1, x2 = _broadcast_pair(x1, x2)
    return _sum(_over_clamped_norm(x1, dim, eps) * _over_clamped_norm(x2, dim, eps), dim)


def _over_clamped_norm(x, dim, eps):
    """x / max(norm(x, dim), eps), the clamp written in place under no_grad (PyTorch's way)."""
    norm = x.norm(2, dim, keepdim=True).clone()
    with _no_grad():
        norm.clamp_min_(eps)
    return x / norm

def one_hot(tensor, num_classes=-1):
    """int64 rows of zeros with a 1 at each class index (num_classes -1: one more than the largest);
    PyTorch's messages for other dtypes and for indices out of range."""
    tensor = tensor_in(tensor)
    values = tensor.array
    if values.dtype != numpy.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if values.size and int(values.min()) < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(values.max()) + 1 if values.size else 0
    elif values.size and int(values.max()) >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    xp = array_module(tensor.device)
    return make_tensor((values[..., None] == xp.arange(num_classes)).astype(numpy.int64), tensor.device)


# the functions kept in modules of their own (torch.pdist and torch.pairwise_distance are these too)


__all__ += ["pairwise_distance", "pdist", "layer_norm", "embedding", "conv1d", "conv2d", "conv3d", "max_pool2d",
            "avg_pool2d", "adaptive_avg_pool2d", "batch_norm", "dropout2d"]
__all__ += _nnlayers
__all__ += ["pixel_shuffle", "pixel_unshuffle", "channel_shuffle"]
__all__ += _blocks.__all__
__all__ += _losses.__all__
__all__ += _attention.__all__
__all__ += _sampling.__all__
__all__ += _pools.__all__
__all__ += _more.__all__
FUNCTIONS = tuple(__all__)
