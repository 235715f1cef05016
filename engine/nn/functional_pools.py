"""torch.nn.functional's max_unpool1d/2d/3d and fractional_max_pool2d/3d, with PyTorch's checks
and messages (re-exported by nn/functional.py). 2-d and 3-d unpooling are the max_unpool row of
engine/ops/convolution.py (MaxUnpool2DBackward0, MaxUnpool3DBackward0); 1-d is, as in PyTorch, the
2-d one on the input unsqueezed at -1 (SqueezeBackward1 on top). Fractional max pooling is the
fractional_max_pool row of engine/ops/fractional_pool.py at the windows' maxima
(FractionalMaxPool2DBackward0, 3D); the random samples, when not given, are the engine's draws
(not PyTorch's numbers for a seed)."""

import numpy

from .. import dtypes as _dt
from ..functions.arguments import int_sequence, tensor_in
from ..functions import rand as _rand
from ..ops import TABLE as _op
from ..ops.fractional_pool import fractional_windows
from ..core.tensor import apply, array_module, make_tensor

__all__ = ["max_unpool1d", "max_unpool2d", "max_unpool3d", "fractional_max_pool2d", "fractional_max_pool3d",
           "fractional_max_pool2d_with_indices", "fractional_max_pool3d_with_indices"]


def _ints(value, k, name="kernel_size"):
    values = int_sequence(value, name)
    return values if isinstance(value, (list, tuple)) else values * k


def _unpool_output_size(x, kernel, stride, padding, output_size):
    """PyTorch's _unpool_output_size: the size the pooling came from, or output_size checked against it."""
    k = len(kernel)
    default = [(x.shape[d - k] - 1) * stride[d] + kernel[d] - 2 * padding[d] for d in range(k)]
    if output_size is None:
        sizes = default
    else:
        if len(output_size) == k + 2:
            output_size = output_size[2:]
        if len(output_size) != k:
            raise ValueError(f"output_size should be a sequence containing {k} or {k + 2} elements, but it has a "
                             f"length of '{len(output_size)}'")
        for d in range(k):
            low, high = default[d] - stride[d], default[d] + stride[d]
            if not low < output_size[d] < high:
                raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {low} and {high})')
        sizes = list(output_size)
    for d, n in enumerate(sizes):
        if n < 0:
            raise ValueError(f"max_unpooling: output_size must contain non-negative spatial dimensions, but got "
                             f"output_size[{d}]={n}")
    return [int(n) for n in sizes]


def _max_unpool(x, indices, sizes, k, shown=None):
    """The row on x (N, C, S...) or (C, S...), after PyTorch's kernel's checks; `shown`: the
    sizes its message names (1-d's have the trailing 1 of its 2-d run)."""
    if x.dim() not in (k + 1, k + 2):
        raise RuntimeError(f"Input to max_unpooling{k}d should be a {k + 1}d or {k + 2}d Tensor, but got a tensor "
                           f"with {x.dim()} dimensions.")
    if indices.array.dtype != numpy.int64:  # (PyTorch's 2-d kernel names the type, its 3-d one does not)
        got = f" but got: {_dt.scalar_name(_dt.as_dtype(indices.array.dtype))}" if k == 2 else ""
        raise RuntimeError(f"elements in indices should be type int64{got}")
    if list(indices.shape) != list(x.shape):
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor ({list(x.shape)}) but "
                           f"got indices tensor with shape: {list(indices.shape)}")
    index = indices.array
    bad = (index < 0) | (index >= int(numpy.prod(sizes)))
    if bad.any():
        first = int(index.reshape(-1)[int(numpy.argmax(bad.reshape(-1)))])
        raise RuntimeError(f"Found an invalid max index: {first} (output volumes are of size "
                           f"{'x'.join(str(n) for n in (shown or sizes))})")
    return apply(_op["max_unpool"], x, indices=index, size=tuple(sizes), dims=k)


def _arguments(input, indices, kernel_size, stride, padding, output_size, k):
    x, indices = tensor_in(input), tensor_in(indices)
    kernel = _ints(kernel_size, k)
    stride = _ints(stride, k) if stride is not None else kernel
    padding = _ints(padding, k)
    return x, indices, kernel, stride, padding, _unpool_output_size(x, kernel, stride, padding, output_size)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """max_pool1d undone: each value put at its index in zeros of the size the pooling came from."""
    x, indices, _, _, _, sizes = _arguments(input, indices, kernel_size, stride, padding, output_size, 1)
    return _max_unpool(x.unsqueeze(-1), indices.unsqueeze(-1), sizes + [1], 2).squeeze(-1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """max_pool2d undone: each value put at its index in zeros of the size the pooling came from."""
    x, indices, _, _, _, sizes = _arguments(input, indices, kernel_size, stride, padding, output_size, 2)
    return _max_unpool(x, indices, sizes, 2)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """max_pool3d undone: each value put at its index in zeros of the size the pooling came from."""
    x, indices, _, stride, _, sizes = _arguments(input, indices, kernel_size, stride, padding, output_size, 3)
    if x.dim() in (4, 5) and min(stride) <= 0:
        raise RuntimeError(f"strides should be greater than zero, but got stride: {stride}")
    return _max_unpool(x, indices, sizes, 3)


# ------------------------------------------------------------------ fractional max pooling

def _ntuple(value, k):
    """PyTorch's _pair/_triple: a sequence as it is, one value repeated."""
    return tuple(value) if isinstance(value, (list, tuple)) else (value,) * k


def _int_list(value, k, name, position, fname, words):
    """An int[k] argument of the kernel (an int is repeated), refused in PyTorch's words."""
    values = list(value) if isinstance(value, (list, tuple)) else [value]
    if any(isinstance(v, bool) or not isinstance(v, (int, numpy.integer)) for v in values):
        raise TypeError(f"{fname}(): argument '{name}' (position {position}) must be tuple of ints, not "
                        f"{type(value).__name__}")
    if len(values) == 1:
        values = values * k
    if len(values) != k:
        raise RuntimeError(f"{fname}: {name} must either be a single Int or tuple of {words}")
    return tuple(int(v) for v in values)


def _fractional_checks(x, kernel, out, samples, k):
    """The kernel's checks of input, sizes and samples, in PyTorch's order and words."""
    fname = "fractional_max_pool2d()" if k == 2 else "fractional_max_pool3d_out()"
    if x.dim() not in (k + 1, k + 2):
        raise RuntimeError(f"{fname}: Expected {k + 1}D or {k + 2}D tensor, but got: {list(x.shape)}")
    for i in range(1, x.dim()):
        if x.shape[i] == 0:
            raise RuntimeError(f"{fname}: Expected input to have non-zero size for non-batch dimensions, but got"
                               f"{list(x.shape)} with dimension {i} being empty.")
    size = tuple(x.shape[x.dim() - k:])
    names = ("height", "width") if k == 2 else ("time", "height", "width")
    for d in ((0, 1) if k == 2 else (0, 2, 1)):  # (3-d: PyTorch's order, and its strict bound)
        too_large = out[d] + kernel[d] - 1 > size[d] if k == 2 else out[d] + kernel[d] - 1 >= size[d]
        if too_large:
            raise RuntimeError(f"{fname}: pool {names[d]} {kernel[d]} too large relative to input {names[d]} "
                               f"{size[d]}")
    if min(out) < 0:
        shape = list(x.shape[:x.dim() - k]) + list(out)
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(out)}: {shape}")
    if min(kernel) <= 0:  # (PyTorch reads an empty or negative window's start, or past the plane)
        raise RuntimeError(f"{fname}: kernel_size must be greater than zero, but got {list(kernel)}")
    if samples.array.dtype != x.array.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.dim() != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {samples.dim()}")
    batch, channels = (1, x.shape[0]) if x.dim() == k + 1 else (x.shape[0], x.shape[1])
    if samples.shape[0] < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if samples.shape[1] != channels:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if samples.shape[2] != k:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {k}; got {samples.shape[2]}.")
    if x.array.dtype.kind != "f":
        name = _dt.scalar_name(_dt.as_dtype(x.array.dtype))
        kernel_name = "fractional_max_pool2d_out_frame" if k == 2 else "fractional_max_pool3d_out_frame"
        raise NotImplementedError(f"\"{kernel_name}\" not implemented for '{name}'")


def _fractional(input, kernel_size, output_size, output_ratio, return_indices, _random_samples, k):
    """fractional_max_pool2d / 3d: F's own steps (the output size from output_ratio, the samples
    drawn when not given), then the kernel's checks and the row at each window's maximum."""
    fname = f"fractional_max_pool{k}d"
    x = tensor_in(input)
    if output_size is None and output_ratio is None:
        raise ValueError(f"{fname} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if k == 2 and len(output_ratio) > 2:
            raise ValueError("fractional_max_pool2d requires output_ratio to either be a single Int or tuple of Ints.")
        ratio = _ntuple(output_ratio, k)
        output_size = [int(x.size(i - k) * ratio[i]) for i in range(k)]
    if _random_samples is None:
        batch = 1 if x.dim() == k + 1 else x.size(0)
        _random_samples = _rand(batch, x.size(-(k + 1)), k, dtype=x.dtype, device=x.device)
    words = "Ints" if k == 2 else "three Ints"
    kernel = _int_list(kernel_size, k, "kernel_size", 2, fname, words)
    out = _int_list(output_size, k, "output_size", 3, fname, words)
    samples = tensor_in(_random_samples, "_random_samples")
    _fractional_checks(x, kernel, out, samples, k)
    batched = x.dim() == k + 2
    planes = x if batched else x.unsqueeze(0)
    xp = array_module(x.device)
    chosen = samples.array[:planes.shape[0]]
    indices = fractional_windows(xp, planes.array, chosen, kernel, out)
    if not batched:
        indices = indices[0]
    y = apply(_op["fractional_max_pool"], x, indices=indices, dims=k)
    return (y, make_tensor(indices, x.device)) if return_indices else y


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """The maximum of kernel_size windows over the last two dims whose starts step pseudo-randomly
    (Graham's fractional max pooling) to output_size (oH, oW), or output_ratio times the input's
    size; with return_indices also each maximum's flat position in its plane. _random_samples
    (N, C, 2), in [0, 1), fixes the steps (each plane's width sample first, then its height's)."""
    return _fractional(input, kernel_size, output_size, output_ratio, return_indices, _random_samples, 2)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """Fractional max pooling over the last three dims (see fractional_max_pool2d): output_size
    (oT, oH, oW) or output_ratio; _random_samples (N, C, 3), one sample per dim (time, height, width)."""
    return _fractional(input, kernel_size, output_size, output_ratio, return_indices, _random_samples, 3)


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    """fractional_max_pool2d with its indices: (values, indices)."""
    return _fractional(input, kernel_size, output_size, output_ratio, True, _random_samples, 2)


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    """fractional_max_pool3d with its indices: (values, indices)."""
    return _fractional(input, kernel_size, output_size, output_ratio, True, _random_samples, 3)
