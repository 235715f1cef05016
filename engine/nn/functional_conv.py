"""torch.nn.functional's conv1d, conv2d, conv3d, max_pool2d, avg_pool2d, adaptive_avg_pool2d,
batch_norm and dropout2d, with PyTorch's checks and messages, over the rows of engine/ops/convolution.py
(re-exported by nn/functional.py). Unbatched inputs are unsqueezed and the result squeezed, as
PyTorch does for convolutions (SqueezeBackward1 on top)."""
import math
import warnings

from .. import dtypes as _dt
from ..functions.arguments import int_sequence, tensor_in
from ..functions import mean as _mean, empty, bernoulli_, matmul as _matmul, transpose as _transpose
from ..functions.native_norms import batch_norm_with_statistics, empty_batch
from ..ops import TABLE as _op
from ..ops.convolution import windows
from ..core.tensor import apply, array_module, make_tensor
from ..tensor_class import Tensor
from .functional_padding import pad

__all__ = ["conv1d", "conv2d", "conv3d", "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d", "batch_norm", "dropout2d"]


# ------------------------------------------------------------------ convolution

def _expand(value, k, name):
    """A convolution parameter as k ints (one int stands for all), PyTorch's message otherwise."""
    values = int_sequence(value, name)
    if len(values) == 1:
        values = values * k
    if len(values) != k:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {k} values to match the "
                           f"convolution dimensions, but got {name}={values}")
    return tuple(values)


def _conv(input, weight, bias, stride, padding, dilation, groups, k, fname):
    x = tensor_in(input)
    if x.dim() not in (k + 1, k + 2):
        raise RuntimeError(f"Expected {k + 1}D (unbatched) or {k + 2}D (batched) input to {fname}, but got input "
                           f"of size: {list(x.shape)}")
    if not isinstance(weight, Tensor):
        raise TypeError(f"{fname}(): argument 'weight' (position 2) must be Tensor, not {type(weight).__name__}")
    if bias is not None and not isinstance(bias, Tensor):
        raise TypeError(f"{fname}(): argument 'bias' (position 3) must be Tensor, not {type(bias).__name__}")
    batched = x.dim() == k + 2
    if not batched:
        x = x.unsqueeze(0)
    n = weight.dim() - 2
    # the ints PyTorch's parser makes k of, then checked against the weight's dims (stride, padding, dilation)
    stride = _expand(_expand(stride, k, "stride"), n, "stride")
    if not isinstance(padding, str):
        padding = _expand(_expand(padding, k, "padding"), n, "padding")
    dilation = _expand(_expand(dilation, k, "dilation"), n, "dilation")
    pad_input = None
    if padding == "valid":
        padding = (0,) * n
    elif padding == "same":
        if any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        total = [d * (s - 1) for d, s in zip(dilation, weight.shape[2:])]
        padding = tuple(t // 2 for t in total)
        if any(t % 2 for t in total):
            # PyTorch's TORCH_WARN_ONCE text, the place in its sources included
            warnings.warn("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded "
                          "copy of the input be created (Triggered internally at "
                          "/__w/pytorch/pytorch/aten/src/ATen/native/Convolution.cpp:1101.)", stacklevel=3)
            pad_input = []
            for t in reversed(total):  # F.pad goes from the last dim to the first
                pad_input += [0, t % 2]
    elif isinstance(padding, str):
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    _check_conv(x, weight, bias, stride, padding, dilation, groups)
    if pad_input is not None:
        x = pad(x, pad_input)
    y = apply(_op["convolution"], x, weight, 0.0 if bias is None else bias, stride=stride,
              padding=tuple((p, p) for p in padding), dilation=dilation, groups=int(groups))
    return y if batched else y.squeeze(0)


def _check_conv(x, weight, bias, stride, padding, dilation, groups):
    """PyTorch's check_shape_forward (and its dtype checks), in its order."""
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got {list(dilation)}")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    ws, xs = list(weight.shape), list(x.shape)
    if len(ws) != len(xs):
        raise RuntimeError(f"Expected {len(ws)}-dimensional input for {len(ws)}-dimensional weight {ws}, but got "
                           f"{len(xs)}-dimensional input of size {xs} instead")
    if ws[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
                           f"but got weight of size [{ws}] instead")
    if xs[1] != ws[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {ws}, expected input{xs} to have "
                           f"{ws[1] * groups} channels, but got {xs[1]} channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != ws[0]):
        raise RuntimeError(f"Given weight of size {ws}, expected bias to be 1-dimensional with {ws[0]} elements, "
                           f"but got bias of size {list(bias.shape)} instead")
    padded = [n + 2 * p for n, p in zip(xs[2:], padding)]
    kernel = [d * (k - 1) + 1 for d, k in zip(dilation, ws[2:])]
    if any(p < k for p, k in zip(padded, kernel)):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel "
                           f"size: ({' x '.join(map(str, kernel))}). Kernel size can't be greater than actual input "
                           f"size")
    for other in (weight, bias):
        if other is not None and other.dtype != x.dtype:
            raise RuntimeError(f"expected scalar type {_dt.scalar_name(x.dtype)} but found "
                               f"{_dt.scalar_name(other.dtype)}")


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """input (N, C, L) or (C, L) convolved with weight (O, C / groups, K), plus bias (O,)."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """input (N, C, H, W) or (C, H, W) convolved with weight (O, C / groups, kH, kW), plus bias (O,)."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """input (N, C, D, H, W) or (C, D, H, W) convolved with weight (O, C / groups, kD, kH, kW), plus bias (O,)."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


# ------------------------------------------------------------------ pooling

def _pool_pair(value, what, fname, default=None):
    if value is None or (isinstance(value, (tuple, list)) and len(value) == 0 and default is not None):
        return default
    values = int_sequence(value, "kernel_size")
    if len(values) not in (1, 2):
        raise RuntimeError(f"{fname}: {what}")
    return (values[0], values[-1])


def _pool_out(size, k, pad, stride, dilation, ceil_mode):
    """PyTorch's pooling_output_shape, with its checks."""
    if stride == 0:
        raise RuntimeError("stride should not be zero")
    if pad < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {pad}")
    if pad > ((k - 1) * dilation + 1) // 2:
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={pad}, "
                           f"kernel_size={k} and dilation={dilation}")
    out = (size + 2 * pad - dilation * (k - 1) - 1 + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def _pool_args(x, kernel_size, stride, padding, dilation, ceil_mode, fname):
    kernel = _pool_pair(kernel_size, "kernel_size must either be a single int, or a tuple of two ints", fname)
    stride = _pool_pair(stride, "stride must either be omitted, a single int, or a tuple of two ints", fname, kernel)
    padding = _pool_pair(padding, "padding must either be a single int, or a tuple of two ints", fname)
    dilation = _pool_pair(dilation, "dilation must be either a single int, or a tuple of two ints", fname)
    if stride is None:
        stride = kernel
    return kernel, stride, padding, dilation


def _pool_shape_check(x, kernel, stride, padding, dilation, out):
    """PyTorch's pool2d_shape_check."""
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = kernel, stride, padding, dilation
    if kh <= 0 or kw <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kh} kW: {kw}")
    if sh <= 0 or sw <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {sh} dW: {sw}")
    if dh <= 0 or dw <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dh} dilationW: {dw}")
    shape = list(x.shape)
    if not ((len(shape) == 3 and all(shape)) or (len(shape) == 4 and all(shape[1:]))):
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
                           f"got:{list(shape)}")
    if kw // 2 < pw or kh // 2 < ph:
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got padW = {pw}, "
                           f"padH = {ph}, kW = {kw}, kH = {kh}")
    if out[0] < 1 or out[1] < 1:
        raise RuntimeError(f"Given input size: ({shape[-3]}x{shape[-2]}x{shape[-1]}). Calculated output size: "
                           f"({shape[-3]}x{out[0]}x{out[1]}). Output size is too small")


def _window_padding(size, kernel, stride, padding, dilation, out):
    """(before, after) per dim: `padding` before, and after whatever the last window needs."""
    return tuple((p, max(p, (o - 1) * s + d * (k - 1) + 1 - n - p))
                 for n, k, s, p, d, o in zip(size, kernel, stride, padding, dilation, out))


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The maximum of each kernel_size window (stride apart, dilated, padded with -inf); with
    return_indices also where each was (flat positions in each input plane)."""
    x = tensor_in(input)
    kernel, stride, padding, dilation = _pool_args(x, kernel_size, stride, padding, dilation, ceil_mode,
                                                   "max_pool2d")
    if x.dim() not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    size = tuple(x.shape[-2:])
    out = tuple(_pool_out(n, k, p, s, d, ceil_mode) for n, k, p, s, d in zip(size, kernel, padding, stride, dilation))
    _pool_shape_check(x, kernel, stride, padding, dilation, out)
    indices = _max_indices(array_module(x.device), x.array, kernel, stride, _window_padding(size, kernel, stride, padding,
                                                                                      dilation, out), dilation)
    y = apply(_op["max_pool"], x, indices=indices)
    return (y, make_tensor(indices, x.device)) if return_indices else y


def _max_indices(xp, a, kernel, stride, padding, dilation):
    """The flat position in its plane (the last len(kernel) dims) of each window's maximum: the
    first, or the last NaN (PyTorch's `val > max || isnan(val)` scan); padding never wins."""
    k = len(kernel)
    size = a.shape[a.ndim - k:]
    if k == 2 and tuple(stride) == tuple(kernel) and tuple(dilation) == (1, 1) and padding == ((0, 0), (0, 0)) and \
            (a.dtype.kind != "f" or not xp.isnan(a).any()):
        return _tiled_max_indices(xp, a, kernel)
    low = -xp.inf if a.dtype.kind == "f" else (False if a.dtype.kind == "b" else xp.iinfo(a.dtype).min)
    cols = windows(xp, a, kernel, stride, padding, dilation, fill=low)
    lead, out = cols.shape[:cols.ndim - 2 * k], cols.shape[cols.ndim - k:]
    count = math.prod(kernel)
    cols = cols.reshape(lead + (count,) + out)  # (no -1: an empty batch has no size to infer)
    # the input position of each (kernel position, window) along each dim, and its flat position in the plane
    valid, flat = True, 0
    for d in range(k):
        position = (xp.arange(kernel[d])[:, None] * dilation[d] + xp.arange(out[d])[None, :] * stride[d]
                    - padding[d][0]).reshape(tuple(kernel[d] if i == d else out[d] if i == k + d else 1
                                                   for i in range(2 * k)))
        valid = valid & (position >= 0) & (position < size[d])
        flat = flat * size[d] + position
    valid = xp.broadcast_to(valid, tuple(kernel) + out).reshape((count,) + out)
    flat = xp.broadcast_to(flat, tuple(kernel) + out).reshape((count,) + out)
    axis = -k - 1
    best = xp.max(xp.where(valid, cols, low), axis=axis, keepdims=True)
    pos = xp.argmax(valid & (cols == best), axis=axis)
    if a.dtype.kind == "f":
        nans = valid & xp.isnan(cols)
        pos = xp.where(nans.any(axis=axis), count - 1 - xp.argmax(xp.flip(nans, axis=axis), axis=axis), pos)
    return xp.take_along_axis(xp.broadcast_to(flat, lead + flat.shape), xp.expand_dims(pos, axis), axis=axis) \
        .squeeze(axis).astype(xp.int64)


def _tiled_max_indices(xp, a, kernel):
    """_max_indices where the windows tile the plane (stride = kernel, no padding, no dilation) and
    nothing is NaN: each window's first maximum, as numpy's argmax picks it, over the planes cut
    into (kH, kW) tiles -- one copy and one argmax instead of a search over every window position."""
    (kh, kw), (h, w) = kernel, a.shape[-2:]
    oh, ow = h // kh, w // kw
    lead = a.shape[:-2]
    tiles = a[..., :oh * kh, :ow * kw].reshape(lead + (oh, kh, ow, kw))
    k = xp.argmax(xp.moveaxis(tiles, -3, -2).reshape(lead + (oh, ow, kh * kw)), axis=-1)
    return ((xp.arange(oh)[:, None] * kh + k // kw) * w + xp.arange(ow)[None, :] * kw + k % kw).astype(xp.int64)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each kernel_size window (stride apart, zero-padded): divided by the window's size
    with its padding (count_include_pad), or by its input elements only, or by divisor_override."""
    x = tensor_in(input)
    kernel, stride, padding, _ = _pool_args(x, kernel_size, stride, padding, 1, ceil_mode, "avg_pool2d")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    x.size(-3)  # PyTorch's IndexError for fewer than 3 dims
    size = tuple(x.shape[-2:])
    out = tuple(_pool_out(n, k, p, s, 1, ceil_mode) for n, k, p, s in zip(size, kernel, padding, stride))
    _pool_shape_check(x, kernel, stride, padding, (1, 1), out)
    divisor = avg_divisor(array_module(x.device), x.array.dtype, size, kernel, stride, padding, out,
                          count_include_pad, divisor_override)
    return apply(_op["avg_pool"], x, kernel=kernel, stride=stride,
                 padding=_window_padding(size, kernel, stride, padding, (1, 1), out), divisor=divisor)


def avg_divisor(xp, dtype, size, kernel, stride, padding, out, count_include_pad, divisor_override):
    """What each window's sum is divided by (an array of the output's spatial shape): its size with
    the padding it covers (count_include_pad), or its input elements only, or divisor_override."""
    if divisor_override is not None:
        divisor = xp.full(out, int(divisor_override))
    else:
        divisor = 1
        for d, (n, k, p, s, o) in enumerate(zip(size, kernel, padding, stride, out)):
            start = xp.arange(o) * s - p
            end = xp.minimum(start + k, n + p)
            count = end - start if count_include_pad else xp.minimum(end, n) - xp.maximum(start, 0)
            divisor = divisor * count.reshape((-1,) + (1,) * (len(out) - 1 - d))
    return divisor.astype(dtype) if dtype.kind == "f" else divisor


def adaptive_avg_pool2d(input, output_size):
    """The mean of output_size windows over each plane, window i of n over a dim of size S
    spanning [floor(i S / n), ceil((i + 1) S / n)); output_size 1 is a mean over the last two dims."""
    x = tensor_in(input)
    sizes = [output_size] * 2 if isinstance(output_size, int) or output_size is None else list(output_size)
    if any(o is not None and o < 0 for o in sizes):
        raise RuntimeError(f"adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{sizes[0]}, {sizes[1]}}}")
    if x.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(x.shape)}")
    size = tuple(x.shape[-2:])
    out = tuple(n if o is None else int(o) for n, o in zip(size, sizes))
    if out == (1, 1):
        return _mean(x, (-1, -2), keepdim=True)  # PyTorch's shortcut: MeanBackward1
    nonempty(x, "adaptive_avg_pool2d")
    floating_kernel(x, "adaptive_avg_pool2d")
    if all(n % o == 0 for n, o in zip(size, out)):
        kernel = tuple(n // o for n, o in zip(size, out))
        return apply(_op["avg_pool"], x, kernel=kernel, stride=kernel, padding=((0, 0), (0, 0)),
                     divisor=array_module(x.device).full(out, kernel[0] * kernel[1], dtype=x.array.dtype), adaptive=True)
    # windows that overlap or differ in size (engine/ops/adaptive_pool.py)
    return apply(_op["adaptive_avg_pool"], x, output_size=out)


def nonempty(x, fname):
    """PyTorch's check (of the adaptive poolings) that every dim but the first is non-empty."""
    for i in range(1, x.dim()):
        if x.shape[i] == 0:
            raise RuntimeError(f"{fname}(): Expected input to have non-zero size for non-batch dimensions, but input "
                               f"has sizes {list(x.shape)} with dimension {i} being empty")


def floating_kernel(x, kernel):
    """PyTorch's refusal of integer inputs to a float kernel ("adaptive_avg_pool2d" ...)."""
    if x.array.dtype.kind in "iu":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_dt.scalar_name(_dt.as_dtype(x.array.dtype))}\'')


# ------------------------------------------------------------------ batch norm

def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05):
    """input normalized per channel (dim 1): while training by the batch's mean and biased variance
    (running_mean and running_var, when given, move toward the batch's mean and unbiased variance
    by momentum, in place), else by running_mean and running_var; then times weight, plus bias."""
    x = tensor_in(input)
    if training:
        size = x.shape
        n = size[0]
        for s in size[2:]:
            n *= s
        if n == 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size {size!r}")
    if x.array.size == 0 and x.array.ndim < 2:  # PyTorch answers a copy of an empty input before any check
        return empty_batch(x, weight, bias)    # of its channels (a 1-d one has none)
    return batch_norm_with_statistics(x, running_mean, running_var, weight, bias, training, momentum, eps)[0]


def dropout2d(input, p=0.5, training=True, inplace=False):
    """While training, each channel (a whole plane) zeroed with probability p and the rest scaled
    by 1/(1-p). The draws are not PyTorch's numbers for a seed."""
    check_dropout_p(p)
    x = tensor_in(input)
    if x.dim() not in (3, 4):
        warn_channel_dropout_rank(2, x.dim(), stacklevel=3)
    if x.dim() == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
                      "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel dim. "
                      "This behavior will change in a future release to interpret the input as one without a "
                      "batch dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout behavior, "
                      "please switch to using dropout1d instead.", stacklevel=2)
    return masked_dropout(x, p, training, inplace, per_channel=True)


def warn_channel_dropout_rank(k, dim, stacklevel):
    """PyTorch's deprecation warning of dropout{k}d (2 or 3) given an input of another rank."""
    warnings.warn(f"dropout{k}d: Received a {dim}-D input to dropout{k}d, which is deprecated and will result in an "
                  f"error in a future release. To retain the behavior and silence this warning, please use dropout "
                  f"instead. Note that dropout{k}d exists to provide channel-wise dropout on inputs with {k} spatial "
                  f"dimensions, a channel dimension, and an optional batch dimension (i.e. {k + 1}D or {k + 2}D "
                  f"inputs).", stacklevel=stacklevel)


_SELU_NEG = 1.7580993408473766  # -(SELU's scale * alpha): where alpha dropout sets a dropped value


def masked_dropout(x, p, training, inplace, per_channel=False, alpha=False):
    """Every dropout: x times a constant mask of keep-draws (probability 1 - p) over its elements or
    whole (N, C) channels, scaled by 1/(1-p) -- or, alpha (SELU's), scaled and shifted so that mean
    and variance stay -- PyTorch's MulBackward0 (and AddBackward0), no gradient to the mask. In place,
    the same ops written into x (mul_, add_), so that the graph records the mask. The input itself
    when not training, or for p 0 or an empty input; x times 0 for p 1, as PyTorch."""
    if not training or p == 0 or x.numel() == 0:
        return x
    shape = tuple(x.shape[:2]) + (1,) * (x.dim() - 2) if per_channel else tuple(x.shape)
    keep = bernoulli_(empty(*shape, dtype=x.dtype, device=x.device), 1.0 - p)  # 1 where a value stays
    if p == 1:
        mask, shift = keep * 0.0, None
    elif alpha:
        a = 1.0 / math.sqrt((_SELU_NEG ** 2 * p + 1) * (1 - p))
        mask, shift = keep * a, (keep - 1) * (_SELU_NEG * a) + _SELU_NEG * a * p
    else:
        mask, shift = keep / (1.0 - p), None
    out = x.mul_(mask) if inplace else x * mask
    if shift is None:
        return out
    return out.add_(shift) if inplace else out + shift


def check_dropout_p(p):
    """PyTorch's refusal of a dropout probability outside [0, 1] (F.dropout's and nn.Dropout's)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
