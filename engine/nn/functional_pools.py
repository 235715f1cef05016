"""torch.nn.functional's max_unpool1d/2d/3d, with PyTorch's checks and messages (re-exported by
nn/functional.py). 2-d and 3-d are the max_unpool row of engine/ops/convolution.py
(MaxUnpool2DBackward0, MaxUnpool3DBackward0); 1-d is, as in PyTorch, the 2-d one on the input
unsqueezed at -1 (SqueezeBackward1 on top)."""
import numpy

from .. import dtypes as _dt
from ..functions.arguments import tensor_in
from ..ops import TABLE as _op
from ..core.tensor import apply

__all__ = ["max_unpool1d", "max_unpool2d", "max_unpool3d"]


def _ints(value, k):
    return [int(v) for v in value] if isinstance(value, (list, tuple)) else [int(value)] * k


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
