"""Everyday tensor functions composed as PyTorch composes them, so their nodes have its names:
broadcast_tensors and meshgrid (ExpandBackward0), atleast_1d/2d/3d (ViewBackward0,
UnsqueezeBackward0), hstack/vstack/row_stack/dstack/column_stack (CatBackward0), cartesian_prod
(StackBackward0); tril_indices/triu_indices make integer tensors. The hand-written fronts of the
rows in engine/ops/tensorops.py whose arguments a signature cannot say: block_diag (variadic),
index_put and index_put_ (a tuple of index tensors), Tensor.unfold (engine/tensor_class.py).
"""
import warnings

import numpy

from .. import backend as _backend
from .. import dtypes as _dt
from ..core.inplace import inplace
from ..core.tensor import TensorBase as Tensor, broadcast_shapes, make_tensor, run_op
from ..ops import TABLE
from ..ops.indexing import dtype_word
from ..ops.table import refuse_dtype
from .arguments import tensor_items, tensor_list
from .surface import made

reshape, unsqueeze, expand, cat, stack = (made(n) for n in ("reshape", "unsqueeze", "expand", "cat", "stack"))

__all__ = ["broadcast_tensors", "meshgrid", "atleast_1d", "atleast_2d", "atleast_3d", "hstack", "vstack",
           "row_stack", "dstack", "column_stack", "cartesian_prod", "block_diag", "tril_indices", "triu_indices",
           "index_put", "index_put_"]


def _tensors(args, fname):
    """f(a, b) or f([a, b]): the tensors, refused in PyTorch's words where one is not a tensor."""
    return tensor_items(args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args)


def _tensor_list(tensors, fname):
    """The `tensors` argument of hstack & co.: a list or tuple of tensors, not empty."""
    return tensor_list(tensors, fname, empty=RuntimeError(f"{fname} expects a non-empty TensorList"))


# ------------------------------------------------------------------------ broadcasting, grids

def broadcast_tensors(*tensors):
    """The tensors expanded to their common broadcast shape (views; one already of it stays itself)."""
    items = _tensors(tensors, "broadcast_tensors")
    shape = broadcast_shapes(tuple(t.array.shape for t in items))
    return tuple(t if t.array.shape == shape else expand(t, shape) for t in items)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids from 0-D or 1-D tensors: 'ij' (matrix) or 'xy' (Cartesian) indexing.

    Each result is a view of its input expanded to the grid's shape; without `indexing`, PyTorch's
    warning and 'ij'."""
    items = _tensors(tensors, "meshgrid")
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
                      UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    if not items:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in items:
        if t.array.ndim > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}")
    for t in items[1:]:
        if t.array.dtype != items[0].array.dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
        if t.device is not items[0].device:
            raise RuntimeError("meshgrid expects all tensors to have the same device")
    n = len(items)
    position = list(range(n))
    if indexing == "xy" and n >= 2:  # the first two dims swapped
        position[0], position[1] = 1, 0
    shape = [0] * n
    for t, p in zip(items, position):
        shape[p] = t.array.size
    grids = []
    for t, p in zip(items, position):
        view = [1] * n
        view[p] = -1
        grids.append(expand(reshape(t, tuple(view)), tuple(shape)))
    return tuple(grids)


def _atleast(args, fname, make):
    if len(args) == 1 and isinstance(args[0], Tensor):
        return make(args[0])
    if len(args) == 1 and not isinstance(args[0], (list, tuple)):
        raise TypeError(f"{fname}() received an invalid combination of arguments - got "
                        f"({type(args[0]).__name__}), but expected one of:\n * (Tensor input)\n"
                        f" * (tuple of Tensors tensors)\n")
    return tuple(make(t) for t in _tensors(args, fname))


def _1d(t):
    return reshape(t, (1,)) if t.array.ndim == 0 else t


def _2d(t):
    nd = t.array.ndim
    return reshape(t, (1, 1)) if nd == 0 else unsqueeze(t, 0) if nd == 1 else t


def _3d(t):
    nd = t.array.ndim
    if nd == 0:
        return reshape(t, (1, 1, 1))
    if nd == 1:
        return unsqueeze(unsqueeze(t, 0), -1)
    return unsqueeze(t, -1) if nd == 2 else t


def atleast_1d(*tensors):
    """The tensor (or each one) with at least one dim: a number becomes a 1-element vector."""
    return _atleast(tensors, "atleast_1d", _1d)


def atleast_2d(*tensors):
    """The tensor (or each one) with at least two dims: a vector becomes one row."""
    return _atleast(tensors, "atleast_2d", _2d)


def atleast_3d(*tensors):
    """The tensor (or each one) with at least three dims: a vector (n) is 1 x n x 1, a matrix m x n x 1."""
    return _atleast(tensors, "atleast_3d", _3d)


# ------------------------------------------------------------------------------------ stacking

def hstack(tensors):
    """Tensors joined column-wise: along dim 1, or dim 0 for vectors."""
    items = [_1d(t) for t in _tensor_list(tensors, "hstack")]
    return cat(items, 0 if items[0].array.ndim == 1 else 1)


def vstack(tensors):
    """Tensors joined row-wise (along dim 0), vectors as rows."""
    return cat([_2d(t) for t in _tensor_list(tensors, "vstack")], 0)


def row_stack(tensors):
    """The same as vstack: tensors joined row-wise."""
    return cat([_2d(t) for t in _tensor_list(tensors, "row_stack")], 0)


def dstack(tensors):
    """Tensors joined depth-wise (along dim 2), each made at least 3-D."""
    return cat([_3d(t) for t in _tensor_list(tensors, "dstack")], 2)


def column_stack(tensors):
    """Tensors joined as columns: numbers and vectors become columns, matrices stay."""
    items = _tensor_list(tensors, "column_stack")
    return cat([reshape(t, (t.array.size, 1)) if t.array.ndim <= 1 else t for t in items], 1)


def cartesian_prod(*tensors):
    """The Cartesian product of 1-D tensors: one row per combination (a single tensor is itself)."""
    items = _tensors(tensors, "cartesian_prod")
    for t in items:
        if t.array.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.array.shape)}")
    if len(items) == 1:
        return items[0]
    grids = meshgrid(*items, indexing="ij")
    return stack([reshape(g, (-1,)) for g in grids], 1)


def block_diag(*tensors):
    """The tensors (at most 2-D) as the diagonal blocks of one matrix."""
    items = _tensors(tensors, "block_diag")
    for i, t in enumerate(items):
        if t.array.ndim > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{t.array.ndim} dimensions")
        if t.device is not items[0].device:
            raise RuntimeError("torch.block_diag: input tensors must all be on the same device. Input 0 is on "
                               f"device {items[0].device} and input {i} is on device {t.device}.")
    if not items:
        return make_tensor(numpy.zeros((1, 0), dtype=_dt.get_default_dtype().np), _backend.CPU)
    dtype, nd = items[0].dtype, items[0].array.ndim  # PyTorch's result type of them all
    for t in items[1:]:
        dtype, nd = _dt.promote(dtype, nd, t.dtype, t.array.ndim), max(nd, t.array.ndim)
    return run_op(TABLE["block_diag"], tuple(items), {"dtype": dtype.np})


# ------------------------------------------------------------------------------ triangle indices

def _triangle_indices(fname, row, col, offset, dtype, device, lower):
    dtype = _dt.int64 if dtype is None else _dt.as_dtype(dtype)
    if dtype.np.kind not in "iu":
        refuse_dtype(fname, dtype.np)
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    rows, cols = numpy.indices((row, col))
    keep = (cols - rows <= offset) if lower else (cols - rows >= offset)
    out = numpy.stack([rows[keep], cols[keep]]).astype(dtype.np)  # row by row, as PyTorch orders them
    dev = _backend.device(device) if device is not None else _backend.get_default_device()
    return make_tensor(_backend.backend_for(dev).from_host(out), dev)


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The (row, column) indices of the lower triangle of a row x col matrix, as a 2 x N tensor."""
    return _triangle_indices("tril_indices", int(row), int(col), int(offset), dtype, device, True)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The (row, column) indices of the upper triangle of a row x col matrix, as a 2 x N tensor."""
    return _triangle_indices("triu_indices", int(row), int(col), int(offset), dtype, device, False)


# ------------------------------------------------------------------------------------ index_put

def _put_key(input, indices):
    """index_put's index tensors as an indexing key, checked in PyTorch's words."""
    if not isinstance(indices, (list, tuple)):
        raise TypeError(f"index_put(): argument 'indices' (position 1) must be tuple of Tensors, not "
                        f"{type(indices).__name__}")
    key = []
    used = 0
    for i, t in enumerate(indices):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
        a = t.array
        if a.dtype.kind not in "iub":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        if a.dtype == numpy.uint8:
            a = a.astype(bool)
        used += max(a.ndim, 1) if a.dtype.kind == "b" else 1
        key.append(a)
    nd = input.array.ndim
    if used > nd:
        raise IndexError(f"too many indices for tensor of dimension {nd} (got {used})")
    return tuple(key)


def _index_put(input, indices, values, accumulate):
    if not isinstance(input, Tensor):
        raise TypeError(f"index_put(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    key = _put_key(input, indices)
    if not isinstance(values, Tensor):
        raise TypeError(f"index_put(): argument 'values' (position 2) must be Tensor, not {type(values).__name__}")
    if values.array.dtype != input.array.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got {dtype_word(input)} "
                           f"for the destination and {dtype_word(values)} for the source.")
    try:
        region = input.array[key].shape
    except IndexError as e:
        raise IndexError(str(e).replace("axis", "dimension")) from None
    try:
        numpy.broadcast_shapes(region, values.array.shape)
        fits = len(values.array.shape) <= len(region) or all(n == 1 for n in values.array.shape[:-len(region) or None])
    except ValueError:
        fits = False
    if not fits:
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(values.array.shape)} cannot be broadcast "
                           f"to indexing result of shape {list(region)}")
    if values.array.ndim > len(region):
        values = reshape(values, values.array.shape[values.array.ndim - len(region):])
    return run_op(TABLE["index_put_values"], (input, values), {"key": key, "accumulate": bool(accumulate)})


def index_put(input, indices, values, accumulate=False):
    """Values put at the positions picked by a tuple of index tensors (or added, with accumulate=True)."""
    return _index_put(input, indices, values, accumulate)


def index_put_(input, indices, values, accumulate=False):
    """In-place index_put: the result is written into input."""
    return inplace(input, _index_put, indices, values, accumulate)

