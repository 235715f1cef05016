"""Selecting and rearranging: the public functions written by hand (argument checks in
PyTorch's words, then the rows in engine/ops/shapes.py and reductions.py); diagonal, diag,
repeat, flip, roll, tril, triu and masked_fill are their rows' signatures.

narrow, select, unbind, split and chunk select with a basic key, so their
results are views of the input (unbind/split/chunk give several, which may
not be written to with history, as in PyTorch): the getitem row under their
node names, with the key built here. index_select and masked_select copy.
gather and scatter share scatter_add's index checks (engine/functions/indexing.py).
"""
import math

import numpy

from ..core.tensor import array_module, apply
from .arguments import tensor_in, as_tensor_like, index_key
from .surface import made
from ..core.tensor import wrap_dim
from ..host_data import is_number as _is_number
from ..ops import TABLE
from .indexing import checked_index
from ..core.tensor import TensorBase as Tensor, VIEW_DEFAULT, VIEW_MULTI_OUTPUT

# functions the rows give (arrange.py takes flip and repeat from here)
expand, permute, flip, repeat = (made(n) for n in ("expand", "permute", "flip", "repeat"))

__all__ = ["narrow", "select", "unbind", "split", "split_with_sizes", "chunk", "index_select", "masked_select", "movedim",
           "moveaxis", "gather", "scatter"]

_GETITEM = TABLE["getitem"]
_ALL = slice(None)


def _along(dim, step):
    """A key applying `step` (an int or a slice) to dimension `dim`."""
    return (_ALL,) * dim + (step,)


def narrow(input, dim, start, length):
    """Length elements from start along dim (a view)."""
    input = tensor_in(input)
    if input.array.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(int(dim), input.array.ndim)
    size = input.array.shape[d]
    start, length = int(start), int(length)
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    if start < 0:
        start += size
    if length < 0 or start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return apply(_GETITEM, input, key=_along(d, slice(start, start + length)))


def select(input, dim, index):
    """The slice at index along dim, that dim removed (a view)."""
    input = tensor_in(input)
    d = wrap_dim(int(dim), input.array.ndim)
    size = input.array.shape[d]
    index = int(index)
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size {list(input.shape)} at "
                         f"dimension {d}")
    return apply(_GETITEM, input, key=_along(d, index % size))


def _multi_views(input, d, steps, name):
    """Views of `input`, one per step along dim d, marked as the outputs of one call."""
    views = []
    for i, step in enumerate(steps):
        view = apply(_GETITEM, input, key=_along(d, step), name=name)
        if view._view is not None and view._view.meta == VIEW_DEFAULT:  # (a view made under no_grad stays one)
            view._view.meta = VIEW_MULTI_OUTPUT
            view._view.output = i
        if view._fn is not None:
            view._fn.output_nr = i
        views.append(view)
    return tuple(views)


def unbind(input, dim=0):
    """The slices along dim, as a tuple."""
    input = tensor_in(input)
    d = wrap_dim(int(dim), input.array.ndim)
    return _multi_views(input, d, range(input.array.shape[d]), "UnbindBackward0")


def split(tensor, split_size_or_sections, dim=0):
    """Pieces of the given size (or sizes) along dim."""
    input = tensor_in(tensor, "tensor")
    d = wrap_dim(int(dim), input.array.ndim)
    n = input.array.shape[d]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [int(s) for s in split_size_or_sections]
        if sum(sizes) != n or any(s < 0 for s in sizes):
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size "
                               f"at dimension {d}), but got split_sizes={sizes}")
        name = "SplitWithSizesBackward0"
    else:
        size = int(split_size_or_sections)
        if size <= 0 and n > 0:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}")
        sizes = [min(size, n - start) for start in range(0, n, size)] if size > 0 else [0]
        name = "SplitBackward0"
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    return _multi_views(input, d, [slice(a, a + s) for a, s in zip(starts, sizes)], name)


def split_with_sizes(input, split_sizes, dim=0):
    """Pieces of the given sizes along dim (split with a list)."""
    if not isinstance(split_sizes, (list, tuple)):
        raise TypeError(f"split_with_sizes(): argument 'split_sizes' must be tuple of ints, not "
                        f"{type(split_sizes).__name__}")
    return split(input, split_sizes, dim)


def chunk(input, chunks, dim=0):
    """The given number of (nearly) equal pieces along dim."""
    input = tensor_in(input)
    chunks = int(chunks)
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    d = wrap_dim(int(dim), input.array.ndim)
    n = input.array.shape[d]
    return split(input, max(math.ceil(n / chunks), 1) if n else 0, d)


def index_select(input, dim, index):
    """The slices at the given indices along dim."""
    input = tensor_in(input)
    d = wrap_dim(int(dim), input.array.ndim)
    index = index if isinstance(index, Tensor) else as_tensor_like(index, input)
    if index.array.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if index.array.dtype.kind not in "iu":
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    if input.array.ndim == 0:  # a scalar: one index, 0, picks it
        if index.array.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {index.array.size} value(s)")
        if int(index.array.reshape(-1)[0]) != 0:
            raise IndexError("index out of range in self")
        return apply(_GETITEM, input, key=(), name="IndexSelectBackward0")
    key = index_key(input, _along(d, index.reshape(-1)))
    return apply(_GETITEM, input, key=key, name="IndexSelectBackward0")


def masked_select(input, mask):
    """The elements where a bool mask is true, as a 1-D tensor."""
    input = tensor_in(input)
    mask = mask if isinstance(mask, Tensor) else as_tensor_like(mask, input)
    if mask.array.dtype.kind != "b":
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    shape = numpy.broadcast_shapes(input.array.shape, mask.array.shape)
    if input.array.shape != shape:
        input = expand(input, shape)
    m = mask.array if mask.array.shape == shape else array_module(mask.device).broadcast_to(mask.array, shape)
    return apply(_GETITEM, input, key=(m,), name="MaskedSelectBackward0")


def movedim(input, source, destination):
    """Dims moved from source to destination positions (a view)."""
    input = tensor_in(input)
    nd = input.array.ndim
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({src} dims) should contain the "
                           f"same number of dims as destination ({dst} dims)")
    src = [wrap_dim(int(s), nd) for s in src]
    dst = [wrap_dim(int(t), nd) for t in dst]
    order = [None] * nd
    for s, t in zip(src, dst):
        order[t] = s
    rest = iter(d for d in range(nd) if d not in src)
    return permute(input, tuple(o if o is not None else next(rest) for o in order))


moveaxis = movedim


def gather(input, dim, index):
    """Values picked along dim at index (same number of dims)."""
    input = tensor_in(input)
    d = wrap_dim(int(dim), input.array.ndim)
    index = index if isinstance(index, Tensor) else as_tensor_like(index, input)
    checked_index("gather", input, d, index)  # PyTorch's checks (functions_indexing)
    return apply(TABLE["take_along"], input, indices=index.array, dim=d)


def scatter(input, dim, index, src=None, value=None, reduce=None):
    """Values of src (or a number) put at index along dim."""
    input = tensor_in(input)
    if reduce is not None:
        raise RuntimeError("scatter: reduce= is not supported here; use scatter_add-style sums explicitly")
    d = wrap_dim(int(dim), input.array.ndim)
    index = index if isinstance(index, Tensor) else as_tensor_like(index, input)
    if src is None:
        src = value
    if src is None:
        raise TypeError("scatter() needs src (a tensor) or value (a number)")
    if not _is_number(src):
        src = as_tensor_like(src, input)
    checked_index("scatter", input, d, index, None if _is_number(src) else src)
    return apply(TABLE["scatter"], input, src, index=index.array, dim=d)


