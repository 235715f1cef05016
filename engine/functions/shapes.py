"""Selecting and rearranging: the public functions written by hand (argument checks in
PyTorch's words, then the rows in engine/ops/shapes.py and reductions.py); diagonal, diag,
repeat, flip, roll, tril, triu and masked_fill are their rows' signatures.

narrow, select, unbind, split and chunk select with a basic key, so their
results are views of the input (unbind/split/chunk give several, which may
not be written to with history, as in PyTorch): the getitem row under their
node names, with the key built here. index_select and masked_select copy.
gather and scatter share scatter_add's index checks (engine/functions/indexing.py).
slice_scatter, select_scatter and diagonal_scatter write src over a view of a copy (the
scatter_into row); the `_copy` functions (view_copy, narrow_copy, unsafe_split, ...) are a
view's result copied (the view_copy row), so they share no memory.
"""
import inspect
import math

import numpy

from ..core.tensor import array_module, apply
from .arguments import checked, tensor_in, as_tensor_like, index_key
from .surface import made
from ..core.tensor import wrap_dim
from ..host_data import is_number as _is_number
from ..ops import TABLE
from .indexing import checked_index
from ..core.tensor import TensorBase as Tensor, VIEW_DEFAULT, VIEW_MULTI_OUTPUT, make_tensor
from ..core.grad_mode import enable_grad
from ..ops.tensorops import unfold_view
from .arguments import shape_args
from .basic import flatten, t as _t

# functions the rows give (arrange.py takes flip and repeat from here)
expand, permute, flip, repeat = (made(n) for n in ("expand", "permute", "flip", "repeat"))
reshape, transpose, unsqueeze, squeeze, diagonal, clone, _sum = (
    made(n) for n in ("reshape", "transpose", "unsqueeze", "squeeze", "diagonal", "clone", "sum"))

__all__ = ["narrow", "select", "unbind", "split", "split_with_sizes", "chunk", "index_select", "masked_select", "movedim",
           "moveaxis", "gather", "scatter", "diagflat", "slice_scatter", "select_scatter",
           "diagonal_scatter", "view_copy", "t_copy", "permute_copy", "transpose_copy", "unsqueeze_copy",
           "squeeze_copy", "expand_copy", "diagonal_copy", "unbind_copy", "split_with_sizes_copy", "alias_copy",
           "narrow_copy", "unfold_copy", "unsafe_chunk", "unsafe_split", "unsafe_split_with_sizes"]

_GETITEM = TABLE["getitem"]
_VIEW_COPY, _SCATTER_INTO, _DIAG_MATRIX = TABLE["view_copy"], TABLE["scatter_into"], TABLE["diag_matrix"]
_ALL = slice(None)


def _along(dim, step):
    """A key applying `step` (an int or a slice) to dimension `dim`."""
    return (_ALL,) * dim + (step,)


def narrow(input, dim, start, length):
    """Length elements from start along dim (a view)."""
    input = tensor_in(input)
    if input.array.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(checked(dim, "int", "narrow", "dim"), input.array.ndim)
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
    d = wrap_dim(checked(dim, "int", "select", "dim"), input.array.ndim)
    size = input.array.shape[d]
    index = checked(index, "int", "select", "index")
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
    d = wrap_dim(checked(dim, "int", "unbind", "dim"), input.array.ndim)
    return _multi_views(input, d, range(input.array.shape[d]), "UnbindBackward0")


def split(tensor, split_size_or_sections, dim=0):
    """Pieces of the given size (or sizes) along dim."""
    input = tensor_in(tensor, "tensor")
    d = wrap_dim(checked(dim, "int", "split", "dim"), input.array.ndim)
    n = input.array.shape[d]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = list(checked(split_size_or_sections, "tuple of ints", "split", "split_size"))
        if sum(sizes) != n or any(s < 0 for s in sizes):
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size "
                               f"at dimension {d}), but got split_sizes={sizes}")
        name = "SplitWithSizesBackward0"
    else:
        size = checked(split_size_or_sections, "int", "split", "split_size")
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
    chunks = checked(chunks, "int", "chunk", "chunks")
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    d = wrap_dim(checked(dim, "int", "chunk", "dim"), input.array.ndim)
    n = input.array.shape[d]
    return split(input, max(math.ceil(n / chunks), 1) if n else 0, d)


def index_select(input, dim, index):
    """The slices at the given indices along dim."""
    input = tensor_in(input)
    d = wrap_dim(checked(dim, "int", "index_select", "dim"), input.array.ndim)
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
    src = [wrap_dim(s, nd) for s in src]
    dst = [wrap_dim(t, nd) for t in dst]
    order = [None] * nd
    for s, t in zip(src, dst):
        order[t] = s
    rest = iter(d for d in range(nd) if d not in src)
    return permute(input, tuple(o if o is not None else next(rest) for o in order))


moveaxis = movedim


def gather(input, dim, index):
    """Values picked along dim at index (same number of dims)."""
    input = tensor_in(input)
    d = wrap_dim(checked(dim, "int", "gather", "dim"), input.array.ndim)
    index = index if isinstance(index, Tensor) else as_tensor_like(index, input)
    checked_index("gather", input, d, index)  # PyTorch's checks (functions_indexing)
    return apply(TABLE["take_along"], input, indices=index.array, dim=d)


def scatter(input, dim, index, src=None, value=None, reduce=None):
    """Values of src (or a number) put at index along dim."""
    input = tensor_in(input)
    if reduce is not None:
        raise RuntimeError("scatter: reduce= is not supported here; use scatter_add-style sums explicitly")
    d = wrap_dim(checked(dim, "int", "scatter", "dim"), input.array.ndim)
    index = index if isinstance(index, Tensor) else as_tensor_like(index, input)
    if src is None:
        src = value
    if src is None:
        raise TypeError("scatter() needs src (a tensor) or value (a number)")
    if not _is_number(src):
        src = as_tensor_like(src, input)
    checked_index("scatter", input, d, index, None if _is_number(src) else src)
    return apply(TABLE["scatter"], input, src, index=index.array, dim=d)


def diagflat(input, offset=0):
    """The flattened input on diagonal `offset` of a new square matrix."""
    return apply(_DIAG_MATRIX, flatten(tensor_in(input)), offset=checked(offset, "int", "diagflat", "offset"))


def sum_to_size(input, *size):
    """Summed down to `size`, which must expand to the input's shape (Tensor.sum_to_size): summed over
    the leading dims and those where size is 1, as PyTorch's sum_to (the input itself when it fits)."""
    shape, size = tuple(input.array.shape), shape_args(size, "sum_to_size")
    lead = len(shape) - len(size)
    if lead < 0 or any(s != n and s != 1 for s, n in zip(size, shape[lead:])):
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(shape)}}}.")
    if size == shape:
        return input
    if not size:
        return _sum(input)
    dims = tuple(range(lead)) + tuple(lead + i for i, (s, n) in enumerate(zip(size, shape[lead:])) if s == 1 != n)
    summed = _sum(input, dims, keepdim=True)
    return reshape(summed, size) if lead else summed


# ------------------------------------------------------------------ slice_scatter, select_scatter, diagonal_scatter

def _scatter_into(input, src, step, node):
    """input with src written over the view `step` (a (row, params) pair) selects; src must have its shape."""
    input = tensor_in(input)
    src = src if isinstance(src, Tensor) else as_tensor_like(src, input)
    region = step[0].forward(array_module(input.device), input.array, **step[1])
    if tuple(src.array.shape) != tuple(region.shape):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, "
                           f"slice size = {list(region.shape)}")
    if src.dtype != input.dtype:
        src = src.to(input.dtype)
    return apply(_SCATTER_INTO, input, src, view=step[0].name, args=step[1], node=node)


def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    """A copy of input with src over input[start:end:step] along dim."""
    input = tensor_in(input)
    if int(step) <= 0:
        raise RuntimeError("slice step must be positive")
    d = wrap_dim(checked(dim, "int", "slice_scatter", "dim"), input.array.ndim)
    key = _along(d, slice(None if start is None else int(start), None if end is None else int(end), int(step)))
    return _scatter_into(input, src, (_GETITEM, {"key": key}), "SliceScatterBackward0")


def select_scatter(input, src, dim, index):
    """A copy of input with src over its slice at index along dim."""
    input = tensor_in(input)
    if input.array.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    select(make_tensor(input.array, input.device), dim, index)  # (select's checks, on a stand-in)
    d = wrap_dim(checked(dim, "int", "select_scatter", "dim"), input.array.ndim)
    key = _along(d, int(index) % input.array.shape[d])
    return _scatter_into(input, src, (_GETITEM, {"key": key}), "SelectScatterBackward0")


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """A copy of input with src over its diagonal `offset` in dims dim1, dim2."""
    input = tensor_in(input)
    nd = input.array.ndim
    d1, d2 = wrap_dim(int(dim1), nd), wrap_dim(int(dim2), nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    step = (TABLE["diagonal"], {"offset": int(offset), "dim1": d1, "dim2": d2})
    return _scatter_into(input, src, step, "DiagonalScatterBackward0")


# ------------------------------------------------------------------ the _copy twins of the views

def _copied(view, node, name, doc=None):
    """PyTorch's `<view>_copy`: the view made by `view` (its checks, its row and parameters), as a
    tensor of its own (the view_copy row) under node name `node` (a function of the arguments where
    PyTorch's name depends on them). The step is read off the node `view` records on a stand-in for
    the input (a leaf over the same memory, so no view or version counter is touched)."""
    def copy(input, *args, **kwargs):
        input = tensor_in(input)
        with enable_grad():
            step = view(make_tensor(input.array, input.device, True), *args, **kwargs)
        label = node(*args, **kwargs) if callable(node) else node
        if isinstance(step, tuple):
            return tuple(_copy_of(input, v._fn, view, label, args, kwargs, i) for i, v in enumerate(step))
        return _copy_of(input, step._fn, view, label, args, kwargs)
    copy.__name__ = copy.__qualname__ = name
    copy.__signature__ = inspect.signature(view)
    copy.__doc__ = doc or f"{name[:-len('_copy')]}()'s result as a tensor of its own (a copy, not a view)."
    return copy


def _copy_of(input, step, view, node, args, kwargs, i=None):
    """The view_copy row for one recorded view step (under inference mode, where none is recorded, a plain copy)."""
    if step is None:
        out = view(input, *args, **kwargs)
        return clone(out if i is None else out[i])
    return apply(_VIEW_COPY, input, view=step.op.name, args=step.params, node=node)


def _squeeze_copy_name(dim=None):
    return ("SqueezeBackward0" if dim is None else
            "SqueezeBackward2" if isinstance(dim, (list, tuple)) else "SqueezeBackward1") + "_copy"


view_copy = _copied(lambda input, *size: reshape(input, shape_args(size)), "ViewBackward0_copy", "view_copy")
t_copy = _copied(_t, "TBackward0_copy", "t_copy")
permute_copy = _copied(permute, "PermuteBackward0_copy", "permute_copy")
transpose_copy = _copied(transpose, "TransposeBackward0_copy", "transpose_copy")
unsqueeze_copy = _copied(unsqueeze, "UnsqueezeBackward0_copy", "unsqueeze_copy")
squeeze_copy = _copied(squeeze, _squeeze_copy_name, "squeeze_copy")
expand_copy = _copied(expand, "ExpandBackward0_copy", "expand_copy")
diagonal_copy = _copied(diagonal, "DiagonalBackward0_copy", "diagonal_copy")
unbind_copy = _copied(unbind, "UnbindBackward0_copy", "unbind_copy")
split_with_sizes_copy = _copied(split_with_sizes, "SplitWithSizesBackward0_copy", "split_with_sizes_copy")
alias_copy = _copied(lambda input: apply(_GETITEM, input, key=()), "AliasBackward0_copy", "alias_copy",
                     "A copy of the input that keeps the graph (PyTorch's alias, copied).")
narrow_copy = _copied(narrow, "NarrowCopyBackward0", "narrow_copy")
unfold_copy = _copied(lambda input, dimension, size, step: unfold_view(input, dimension, size, step),
                      "UnfoldBackward0_copy", "unfold_copy",
                      "Tensor.unfold's windows (size elements along dimension, step apart) as a tensor of its own.")
unsafe_chunk = _copied(chunk, "UnsafeSplitBackward0", "unsafe_chunk",
                       "chunk()'s pieces, as copies here (PyTorch's share memory without being tracked as views).")
def _split_by_size(input, split_size, dim=0):
    """split() with one size (unsafe_split's; a list is unsafe_split_with_sizes')."""
    if isinstance(split_size, (list, tuple)):
        raise TypeError(f"unsafe_split(): argument 'split_size' (position 2) must be int, not "
                        f"{type(split_size).__name__}")
    return split(input, split_size, dim)


unsafe_split = _copied(_split_by_size, "UnsafeSplitBackward0", "unsafe_split",
                       "split()'s pieces, as copies here (PyTorch's share memory without being tracked as views).")
unsafe_split_with_sizes = _copied(split_with_sizes, "UnsafeSplitWithSizesBackward0", "unsafe_split_with_sizes",
                                  "split_with_sizes()'s pieces, as copies here (PyTorch's share memory untracked).")
