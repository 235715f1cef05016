"""torch.nn.functional's unfold and fold (im2col and col2im), adaptive_avg_pool1d and 3d,
adaptive_max_pool1d, 2d and 3d, max_pool3d and avg_pool3d, bilinear and local_response_norm, with
PyTorch's checks and messages (re-exported by nn/functional.py).

unfold and fold are rows of engine/ops/convolution.py in F.unfold's layout (`blocks`), so the nodes
are PyTorch's Im2ColBackward0 and Col2ImBackward0, each the other's gradient. Adaptive max pooling
is max_pool's row at the position of each adaptive window's maximum (AdaptiveMaxPool2DBackward0,
...3D...), adaptive_avg_pool3d the adaptive_avg_pool row over three dims, max_pool3d and avg_pool3d
the 2d poolings' rows over three dims (MaxPool3DWithIndicesBackward0, AvgPool3DBackward0); the 1d
poolings are the 2d ones of the input unsqueezed at -2, as PyTorch composes them (SqueezeBackward1
on top), and bilinear and local_response_norm PyTorch's compositions too (ViewBackward0 or
AddBackward0, DivBackward0)."""
import math

import numpy

from ..functions.arguments import int_sequence, tensor_in
from ..functions import mean as _mean, einsum as _einsum
from .. import dtypes as _dt
from ..ops import TABLE as _op
from ..ops.adaptive_pool import _windows
from ..core.tensor import apply, array_module, make_tensor, wrap_dim
from .functional_conv import (adaptive_avg_pool2d, avg_pool2d, avg_divisor, floating_kernel, nonempty, _max_indices,
                              _pool_out, _window_padding)
from .functional_padding import pad

__all__ = ["unfold", "fold", "adaptive_avg_pool1d", "adaptive_max_pool1d", "adaptive_max_pool1d_with_indices",
           "adaptive_max_pool2d", "adaptive_max_pool2d_with_indices", "adaptive_max_pool3d",
           "adaptive_max_pool3d_with_indices", "adaptive_avg_pool3d", "max_pool3d",
           "max_pool3d_with_indices", "avg_pool3d", "bilinear", "local_response_norm"]


def _int_pair(value, name, position, fname):
    """PyTorch's _pair then its int[2] argument: one int for both, else two ints."""
    values = tuple(value) if isinstance(value, (tuple, list)) else (value, value)
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, numpy.integer)):
            raise TypeError(f"{fname}(): argument '{name}' (position {position}) must be tuple of ints, but found "
                            f"element of type {type(v).__name__} at pos {i}")
    if len(values) != 2:
        raise RuntimeError(f"It is expected {name} equals to 2, but got size {len(values)}")
    return tuple(int(v) for v in values)


def _check_positive(kernel, dilation, padding, stride, order):
    """The shape checks of PyTorch's im2col/col2im on the parameters, in `order`."""
    checks = {"kernel": (kernel, "kernel size should be greater than zero, but got kernel_height: {} kernel_width: {}"),
              "dilation": (dilation, "dilation should be greater than zero, but got dilation_height: {} "
                                     "dilation_width: {}"),
              "padding": (padding, "padding should be non-negative, but got pad_height: {} pad_width: {}"),
              "stride": (stride, "stride should be greater than zero, but got stride_height: {} stride_width: {}")}
    for name in order:
        values, message = checks[name]
        if any(v < (0 if name == "padding" else 1) for v in values):
            raise RuntimeError(message.format(*values))


def _size(x, dim):
    """x.size(dim), with PyTorch's IndexError where x has no such dim."""
    if x.dim() == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return x.shape[wrap_dim(dim, x.dim())]


def _blocks(size, kernel, dilation, padding, stride):
    return tuple((n + 2 * p - d * (k - 1) - 1) // s + 1
                 for n, k, d, p, s in zip(size, kernel, dilation, padding, stride))


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """The sliding kernel_size blocks of an (N, C, H, W) or (C, H, W) input as columns:
    (N, C * kh * kw, L), L the number of blocks (im2col)."""
    x = tensor_in(input)
    kernel, dilation, padding, stride = (_int_pair(v, name, i, "im2col") for i, (v, name) in enumerate(
        ((kernel_size, "kernel_size"), (dilation, "dilation"), (padding, "padding"), (stride, "stride")), 2))
    _check_positive(kernel, dilation, padding, stride, ("kernel", "dilation", "padding", "stride"))
    nd = x.dim()
    # PyTorch reads sizes 1 and 2 (the second only when the first is not 0) before it checks the dims
    valid = _size(x, 1) != 0 and _size(x, 2) != 0
    if not ((nd == 3 and x.shape[0] and valid) or (nd == 4 and valid and x.shape[3])):
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           f"dimensions for input, but got: {list(x.shape)}")
    size = tuple(x.shape[-2:])
    out = _blocks(size, kernel, dilation, padding, stride)
    if out[0] < 1 or out[1] < 1:
        raise RuntimeError(f"Given input with spatial size {size}, kernel_size={kernel}, dilation={dilation}, "
                           f"padding={padding}, calculated shape of the array of sliding blocks as {out}, but its "
                           f"components must be at least one.")
    floating_kernel(x, "im2col_out_cpu")
    return apply(_op["im2col"], x, kernel=kernel, stride=stride, padding=tuple((p, p) for p in padding),
                 dilation=dilation, blocks=True)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Columns of sliding blocks (N, C * kh * kw, L) or (C * kh * kw, L) summed back into an
    (N, C, *output_size) plane, overlaps added (col2im): unfold's adjoint."""
    x = tensor_in(input)
    size, kernel, dilation, padding, stride = (_int_pair(v, name, i, "col2im") for i, (v, name) in enumerate(
        ((output_size, "output_size"), (kernel_size, "kernel_size"), (dilation, "dilation"), (padding, "padding"),
         (stride, "stride")), 2))
    _check_positive(kernel, dilation, padding, stride, ("kernel", "stride", "dilation", "padding"))
    nd = x.dim()
    if not ((nd == 2 and x.shape[0] and x.shape[1]) or (nd == 3 and x.shape[1] and x.shape[2])):
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                           f"dimensions for input, but got: {list(x.shape)}")
    planes, length = x.shape[-2:]
    if planes % (kernel[0] * kernel[1]):
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           f"got input.size(1)={planes} and kernel_size={kernel}.")
    out = _blocks(size, kernel, dilation, padding, stride)
    if length != out[0] * out[1]:
        raise RuntimeError(f"Given output_size={size}, kernel_size={kernel}, dilation={dilation}, padding={padding}, "
                           f"stride={stride}, expected size of input's dimension 2 to match the calculated number of "
                           f"sliding blocks {out[0]} * {out[1]} = {out[0] * out[1]}, but got input.size(2)={length}.")
    if out[0] < 1 or out[1] < 1:
        raise RuntimeError(f"Given output_size={size}, kernel_size={kernel}, dilation={dilation}, padding={padding}, "
                           f"calculated shape of the array of sliding blocks as {out}, which is too small "
                           f"(non-positive)")
    floating_kernel(x, "col2im_out_cpu")
    return apply(_op["col2im"], x, size=size, kernel=kernel, stride=stride, padding=tuple((p, p) for p in padding),
                 dilation=dilation, blocks=True)


# ------------------------------------------------------------------ adaptive pooling

def _one_int(output_size, fname):
    """A 1d pooling's output_size: an int or a sequence of one (PyTorch's int[1])."""
    values = list(output_size) if isinstance(output_size, (tuple, list)) else [output_size]
    if any(isinstance(v, bool) or not isinstance(v, (int, numpy.integer)) for v in values):
        raise TypeError(f"{fname}(): argument 'output_size' (position 2) must be tuple of ints, not "
                        f"{type(output_size).__name__}")
    if len(values) != 1:
        raise RuntimeError(f"{fname}() argument 'output_size' should contain one int (got {len(values)})")
    return int(values[0])


def _check_1d(x, fname):
    if x.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {x.dim()}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for {fname})")


def _with_default(output_size, sizes):
    """PyTorch's _list_with_default: an int stays, a None in a sequence takes the input's size."""
    if isinstance(output_size, (int, numpy.integer)):
        return output_size
    if len(sizes) <= len(output_size):
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
    return [d if v is None else v for v, d in zip(output_size, sizes[len(sizes) - len(output_size):])]


def adaptive_avg_pool1d(input, output_size):
    """The mean of each of output_size adaptive windows along the last dim of an (N, C, L) or (C, L)
    input: adaptive_avg_pool2d over a height of 1."""
    x = tensor_in(input)
    o = _one_int(output_size, "adaptive_avg_pool1d")
    _check_1d(x, "adaptive_avg_pool1d")
    return adaptive_avg_pool2d(x.unsqueeze(-2), (1, o)).squeeze(-2)


def _own_positions(n, o):
    """Each adaptive window's positions (o x longest), a short one padded with its own last position."""
    positions, _, count = _windows(n, o)
    return numpy.minimum(positions, (positions[:, :1] + count[:, None] - 1) if o else positions)


def _max_positions(xp, a, out):
    """The flat position in its plane (the last len(out) dims) of each adaptive window's maximum:
    the first, or the last NaN (PyTorch's `val > max || isnan(val)` scan). Windows are gathered
    padded with a repeat of their last element, which never changes which position wins."""
    k = len(out)
    size, lead = a.shape[a.ndim - k:], a.shape[:a.ndim - k]
    flat = 0  # (out..., window...): the flat position of each window element, row-major
    for d, (n, o) in enumerate(zip(size, out)):
        positions = _own_positions(n, o)
        flat = flat * n + positions.reshape(tuple(o if i == d else positions.shape[1] if i == k + d else 1
                                                  for i in range(2 * k)))
    longest = math.prod(flat.shape[k:])
    flat = xp.asarray(flat.reshape(tuple(out) + (longest,)))
    values = a.reshape(lead + (math.prod(size),))[..., flat]            # (lead..., out..., longest)
    pos = xp.argmax(values, axis=-1) if longest else xp.zeros(values.shape[:-1], dtype=xp.int64)
    if a.dtype.kind == "f" and longest:
        nans = xp.isnan(values)
        pos = xp.where(nans.any(axis=-1), longest - 1 - xp.argmax(nans[..., ::-1], axis=-1), pos)
    return xp.take_along_axis(xp.broadcast_to(flat, values.shape), pos[..., None], axis=-1)[..., 0].astype(xp.int64)


def _adaptive_max(x, output_size, return_indices, k, kernel):
    """adaptive_max_pool2d and 3d over the last k dims, with PyTorch's checks in its order."""
    fname = f"adaptive_max_pool{k}d"
    out = _with_default(output_size, tuple(x.shape))
    out = (out,) * k if isinstance(out, (int, numpy.integer)) else tuple(out)
    if x.dim() not in (k + 1, k + 2):
        raise RuntimeError(f"{fname}(): Expected {k + 1}D or {k + 2}D tensor, but got: {list(x.shape)}")
    nonempty(x, fname)
    if len(out) != k:
        raise RuntimeError(f"{fname}(): internal error: output_size.size() must be {k}")
    if any(o < 0 for o in out):
        shape = list(x.shape[:-k]) + [int(o) for o in out]
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(out)}: {shape}")
    floating_kernel(x, kernel)
    indices = _max_positions(array_module(x.device), x.array, tuple(int(o) for o in out))
    y = apply(_op["max_pool"], x, indices=indices, adaptive=True, dims=k)
    return (y, make_tensor(indices, x.device)) if return_indices else y


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """The maximum of each adaptive window of the last two dims (output_size (H, W); None keeps a
    dim); with return_indices also where each was (flat positions in each input plane)."""
    return _adaptive_max(tensor_in(input), output_size, return_indices, 2, "adaptive_max_pool2d")


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """The maximum of each adaptive window of the last three dims (output_size (D, H, W); None keeps
    a dim); with return_indices also where each was (flat positions in each input volume)."""
    return _adaptive_max(tensor_in(input), output_size, return_indices, 3, "adaptive_max_pool3d_cpu")


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    """adaptive_max_pool3d with its indices: (values, indices)."""
    return adaptive_max_pool3d(input, output_size, True)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    """adaptive_max_pool2d with its indices: (values, indices)."""
    return adaptive_max_pool2d(input, output_size, True)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """The maximum of each of output_size adaptive windows along the last dim of an (N, C, L) or
    (C, L) input; with return_indices also where each was."""
    x = tensor_in(input)
    _check_1d(x, "adaptive_max_pool1d")
    o = _one_int(output_size, "adaptive_max_pool1d")
    nonempty(x, "adaptive_max_pool1d")
    y, indices = adaptive_max_pool2d(x.unsqueeze(-2), (1, o), True)
    y = y.squeeze(-2)
    return (y, indices.squeeze(-2)) if return_indices else y


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    """adaptive_max_pool1d with its indices: (values, indices)."""
    return adaptive_max_pool1d(input, output_size, True)


def adaptive_avg_pool3d(input, output_size):
    """The mean of output_size (D, H, W) adaptive windows over the last three dims (None keeps a
    dim); output_size 1 is a mean over them (PyTorch's shortcut: MeanBackward1)."""
    x = tensor_in(input)
    out = _with_default(output_size, tuple(x.shape))
    out = (out,) * 3 if isinstance(out, (int, numpy.integer)) else tuple(out)
    if len(out) != 3:
        raise RuntimeError("adaptive_avg_pool3d: output_size must be 3")
    if any(o < 0 for o in out):
        raise RuntimeError(f"adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{out[0]}, {out[1]},{out[2]}}}")
    if out == (1, 1, 1):
        return _mean(x, (-1, -2, -3), keepdim=True)
    if x.dim() not in (4, 5):
        raise RuntimeError(f"adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got {list(x.shape)}")
    nonempty(x, "adaptive_avg_pool3d")
    floating_kernel(x, "adaptive_avg_pool3d_cpu")
    return apply(_op["adaptive_avg_pool"], x, output_size=tuple(int(o) for o in out))


# ------------------------------------------------------------------ max_pool3d, avg_pool3d

def _triple(value, message, default=None):
    """Three ints from one or three (PyTorch's pool3d arguments); None or () where `default` stands."""
    if value is None or (isinstance(value, (tuple, list)) and len(value) == 0 and default is not None):
        return default
    values = int_sequence(value, "kernel_size")
    if len(values) not in (1, 3):
        raise RuntimeError(message)
    return tuple(values * (3 // len(values)))


def _pool3d(x, kernel, stride, padding, dilation, ceil_mode, fname, check_input_size):
    """The output sizes of a 3d pooling, after PyTorch's checks in its order (pooling_output_shape,
    then pool3d_shape_check)."""
    if x.dim() not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    size = tuple(x.shape[-3:])
    out = tuple(_pool_out(n, k, p, s, d, ceil_mode) for n, k, p, s, d in zip(size, kernel, padding, stride, dilation))
    for name, values in (("kernel size", kernel), ("stride", stride), ("dilation", dilation)):
        if min(values) <= 0:
            letters = ("kT", "kH", "kW") if name == "kernel size" else ("dT", "dH", "dW") if name == "stride" else \
                ("dilationT", "dilationH", "dilationW")
            raise RuntimeError(f"{name} should be greater than zero, but got " +
                               " ".join(f"{a}: {v}" for a, v in zip(letters, values)))
    if any(n == 0 for n in x.shape[x.dim() - 4:]):  # (PyTorch's message names dimension 0 whichever it is)
        raise RuntimeError(f"{fname}: Expected input's non-batch dimensions to have positive length, but input has a "
                           f"shape of {list(x.shape)} and non-batch dimension 0 has length zero!")
    if check_input_size and any(n < k for n, k in zip(size, kernel)):
        raise RuntimeError(f"input image (T: {size[0]} H: {size[1]} W: {size[2]}) smaller than kernel size "
                           f"(kT: {kernel[0]} kH: {kernel[1]} kW: {kernel[2]})")
    if min(out) < 1:
        c = x.shape[-4]
        raise RuntimeError(f"Given input size: ({c}x{'x'.join(map(str, size))}). Calculated output size: "
                           f"({c}x{'x'.join(map(str, out))}). Output size is too small")
    return size, out


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The maximum of each kernel_size window over the last three dims (stride apart, dilated, padded
    with -inf); with return_indices also where each was (flat positions in each input volume)."""
    x = tensor_in(input)
    kernel = _triple(kernel_size, "max_pool3d: kernel_size must either be a single int, or a tuple of three ints")
    stride = _triple(stride, "max_pool3d: stride must either be omitted, a single int, or a tuple of three ints",
                     kernel)
    padding = _triple(padding, "max_pool3d: padding must either be a single int, or a tuple of three ints")
    dilation = _triple(dilation, "max_pool3d: dilation must be either a single int, or a tuple of three ints")
    size, out = _pool3d(x, kernel, stride, padding, dilation, ceil_mode, "max_pool3d_with_indices_out_cpu_template()",
                        False)
    indices = _max_indices(array_module(x.device), x.array, kernel, stride,
                           _window_padding(size, kernel, stride, padding, dilation, out), dilation)
    y = apply(_op["max_pool"], x, indices=indices, dims=3)
    return (y, make_tensor(indices, x.device)) if return_indices else y


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    """max_pool3d with its indices: (values, indices)."""
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each kernel_size window over the last three dims (stride apart, zero-padded):
    divided by the window's size with its padding (count_include_pad), or by its input elements
    only, or by divisor_override."""
    x = tensor_in(input)
    kernel = _triple(kernel_size, "avg_pool3d: kernel_size must be a single int, or a tuple of three ints")
    stride = _triple(stride, "avg_pool3d: stride must be omitted, a single int, or a tuple of three ints", kernel)
    padding = _triple(padding, "avg_pool3d: padding must be a single int, or a tuple of three ints")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    size, out = _pool3d(x, kernel, stride, padding, (1, 1, 1), ceil_mode, "avg_pool3d()", True)
    divisor = avg_divisor(array_module(x.device), x.array.dtype, size, kernel, stride, padding, out,
                          count_include_pad, divisor_override)
    return apply(_op["avg_pool"], x, kernel=kernel, stride=stride,
                 padding=_window_padding(size, kernel, stride, padding, (1, 1, 1), out), divisor=divisor)


# ------------------------------------------------------------------ bilinear, local_response_norm

def bilinear(input1, input2, weight, bias=None):
    """y[..., o] = x1[..., i] A[o, i, j] x2[..., j] (+ b[o]): PyTorch's composition, the batch dims
    flattened, the product, the result viewed back (ViewBackward0), then the bias added."""
    x1, x2, w = tensor_in(input1, "input1"), tensor_in(input2, "input2"), tensor_in(weight, "weight")
    named = [("input1", x1), ("input2", x2), ("weight", w)] + ([("bias", tensor_in(bias, "bias"))] if bias is not None
                                                              else [])
    if len({t.dtype for _, t in named}) > 1:
        raise RuntimeError("All tensors must have the same dtype, got " +
                           ", ".join(f"{name}: {_dt.cpp_name(t.dtype)}" for name, t in named))
    if x1.dim() != x2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {x1.dim()} and {x2.dim()}")
    for d in range(x1.dim() - 1):
        if x1.shape[d] != x2.shape[d]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {d}: got {x1.shape[d]} and "
                               f"{x2.shape[d]}")
    for name, x, dim in (("input1", x1, 1), ("input2", x2, 2)):
        if _size(x, -1) != _size(w, dim):
            raise RuntimeError(f"bilinear(): {name} size does not match weight size: got {x.shape[-1]} but expected "
                               f"{w.shape[dim]}")
    if bias is not None and _size(named[3][1], 0) != w.shape[0]:
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got {named[3][1].shape[0]} but "
                           f"expected {w.shape[0]}")
    flat1, flat2 = x1.reshape(-1, x1.shape[-1]), x2.reshape(-1, x2.shape[-1])
    out = _einsum("bi,oij,bj->bo", flat1, w, flat2).reshape(*x1.shape[:-1], w.shape[0])
    return out if bias is None else out + named[3][1]


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """Each value divided by (k + alpha * the mean of the squares of `size` neighbouring channels)^beta,
    the channels beyond the edges zeros: PyTorch's composition (an average pool of the squares)."""
    x = tensor_in(input)
    if x.dim() < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {x.dim()} "
                         f"dimensions)")
    if x.numel() == 0:
        return x
    shape = tuple(x.shape)
    square = (x * x).reshape(shape[0], 1, shape[1], -1)  # the dims after the channels as one
    square = pad(square, (0, 0, size // 2, (size - 1) // 2))
    mean = avg_pool2d(square, (size, 1), stride=1).reshape(shape)
    return x / mean.mul(alpha).add(k).pow(beta)
