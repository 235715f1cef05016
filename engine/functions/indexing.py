"""index_add, index_copy, index_fill, scatter_add and masked_scatter: PyTorch's argument checks,
in its order and with its messages (each op's own: index_add_ takes int32 or int64 indices,
index_copy_ only int64, index_fill_ counts negative indices from the end), then the rows of
engine/ops/indexing.py. The in-place variants (index_add_, ...) are the same functions run
through engine/inplace.py, so a view's base gets CopySlices; index_add_, index_copy_ and
scatter_add_ refuse, as PyTorch, a source that shares memory with the tensor written, and
masked_scatter_ checks first that the mask expands to the tensor, which may not broadcast itself.
gather and scatter (functions_shapes.py) share scatter_add's index checks (`checked_index`).
"""
import numpy

from .. import backend as _backend
from ..host_data import is_number as _is_number
from ..core.inplace import inplace, type_word
from ..ops import TABLE
from ..core.tensor import TensorBase as Tensor, apply, broadcast_shapes, wrap_dim, host_array, storage_of, array_module

__all__ = ["index_add", "index_copy", "index_fill", "scatter_add", "masked_scatter", "index_add_", "index_copy_",
           "scatter_add_", "masked_scatter_"]

OVERLAP_MESSAGE = ("unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
                   "single memory location. Please clone() the tensor before performing the operation.")


def _need_tensor(value, fn, name, position):
    if not isinstance(value, Tensor):
        raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be Tensor, not {type(value).__name__}")
    return value


def _need_int(value, fn, name, position):
    if isinstance(value, Tensor) and value.array.ndim == 0 and value.array.dtype.kind in "iu":
        return int(value.item())
    if isinstance(value, (bool, numpy.bool_)) or not isinstance(value, (int, numpy.integer)):
        raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be int, not {type(value).__name__}")
    return int(value)


def _word(t):
    return type_word(t.array.dtype)


def _on_device(host, like):
    """A copy of a host index array (or mask) on `like`'s device: the node keeps the values of
    the call, whatever happens to the index tensor afterwards."""
    if like.device is _backend.CPU:
        return numpy.array(host)
    return _backend.backend_for(like.device).from_host(host)


def size_arg(shape, d):
    """shape[d], with PyTorch's error where the tensor has no such dim."""
    n = len(shape)
    if n == 0:
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    if not -n <= d < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    return shape[d]


def _first_outside(index, size, negative_ok=False):
    """The first index (in order) outside [0, size), or [-size, size) if negative_ok; None if all are in."""
    low = -size if negative_ok else 0
    bad = numpy.flatnonzero((index < low) | (index >= size))
    return int(index[bad[0]]) if bad.size else None


def _without(shape, d):
    return list(shape[:d]) + list(shape[d + 1:])


# ------------------------------------------------------------------ index_add

def index_add(input, dim, index, source, *, alpha=1):
    _need_tensor(input, "index_add", "input", 1)
    dim = _need_int(dim, "index_add", "dim", 2)
    _need_tensor(index, "index_add", "index", 3)
    _need_tensor(source, "index_add", "source", 4)
    x, idx, src = input.array, index.array, source.array
    d = wrap_dim(dim, x.ndim)
    if idx.ndim > 1:
        raise IndexError(f"index_add_(): Index is supposed to be a vector, but got dim: {idx.ndim} with type: "
                         f"{_word(index)} and size: {list(idx.shape)}")
    if idx.dtype not in (numpy.int32, numpy.int64):
        raise RuntimeError(f"index_add_(): Expected dtype int32/int64 for index but got: {_word(index)}")
    if x.dtype != src.dtype:
        raise RuntimeError(f"index_add_(): self ({_word(input)}) and source ({_word(source)}) must have the same "
                           f"scalar type")
    if d != 0 and d >= src.ndim:
        raise RuntimeError(f"index_add_(): Indexing dim {d} is out of bounds of the source tensor with dim "
                           f"{src.ndim}")
    n = idx.size
    if n != (1 if src.ndim == 0 else src.shape[d]):
        raise RuntimeError(f"index_add_(): Number of indices ({n}) should be equal to source.size(dim): "
                           f"({size_arg(src.shape, d)}), for dim: {d}")
    both = src.ndim and x.ndim
    if (_without(x.shape, d) if both else list(x.shape)) != (_without(src.shape, d) if both else list(src.shape)):
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the specified dimension. "
                           f"Got self.shape = {list(x.shape)} source.shape = {list(src.shape)}")
    host = host_array(index).reshape(-1)
    size = x.shape[d] if x.ndim else 1
    bad = _first_outside(host, size)
    if bad is not None:
        if x.ndim > 1:
            raise RuntimeError(f"index {bad} is out of bounds for dimension {d} with size {size}")
        raise IndexError("index out of range in self")
    if isinstance(alpha, Tensor):
        alpha = alpha.item()
    if isinstance(alpha, complex):
        kind = "double" if x.dtype.kind == "f" else "int64_t"
        raise RuntimeError(f"value cannot be converted to type {kind} without overflow")
    params = {"index": _on_device(host, input), "dim": d}
    if alpha != 1:
        params["alpha"] = alpha
    return apply(TABLE["index_add"], input, source, **params)


# ----------------------------------------------------------------- index_copy

def index_copy(input, dim, index, source):
    _need_tensor(input, "index_copy", "input", 1)
    dim = _need_int(dim, "index_copy", "dim", 2)
    _need_tensor(index, "index_copy", "index", 3)
    _need_tensor(source, "index_copy", "source", 4)
    x, idx, src = input.array, index.array, source.array
    d = wrap_dim(dim, x.ndim)
    if idx.ndim >= 2:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {idx.ndim})")
    n = idx.size
    if src.ndim == 0 and n != 1:
        raise IndexError(f"index_copy_(): When source is scalar, index should have one element (got {n})")
    if src.ndim != x.ndim and src.ndim and x.ndim:
        raise IndexError(f"index_copy_(): When source and destination are not scalars, their dimensionality must "
                         f"match. Source dimensionality ({src.ndim}), destination dimensionality ({x.ndim})")
    if idx.dtype != numpy.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got {_word(index)}")
    if x.dtype != src.dtype:
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, but got (self) "
                           f"{_word(input)} and (source) {_word(source)}")
    mine = _without(x.shape, d) if x.ndim else []
    theirs = _without(src.shape, d) if src.ndim else []
    if mine != theirs:
        raise RuntimeError(f"index_copy_(): Source/destination tensor must have same slice shapes. Destination "
                           f"slice shape: {' '.join(map(str, mine))} at dimension {d} and source slice shape: "
                           f"{' '.join(map(str, theirs))} at dimension 0.")
    if src.ndim and n != src.shape[d]:
        raise IndexError(f"index_copy_(): Number of indices ({n}) should be equal to source.size(dim) "
                         f"({src.shape[d]})")
    host = host_array(index).reshape(-1)
    size = x.shape[d] if x.ndim else 1
    bad = _first_outside(host, size)
    if bad is not None:
        raise IndexError(f"index_copy_(): index {bad} is out of bounds for dimension {d} with size {size}")
    return apply(TABLE["index_copy"], input, source, index=_on_device(host, input), dim=d)


# ----------------------------------------------------------------- index_fill

def index_fill(input, dim, index, value):
    _need_tensor(input, "index_fill", "input", 1)
    if not isinstance(value, (Tensor, complex)) and not _is_number(value):
        raise TypeError(_no_overload("index_fill", (input, dim, index, value)))
    dim = _need_int(dim, "index_fill", "dim", 2)
    _need_tensor(index, "index_fill", "index", 3)
    x, idx = input.array, index.array
    if isinstance(value, Tensor) and value.array.ndim != 0:
        raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                           f"{value.array.ndim} dimension(s).")
    if idx.dtype != numpy.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if isinstance(value, complex) and x.dtype.kind != "c":
        raise RuntimeError("index_fill_(): Converting complex Scalar to non-complex type is not supported")
    d = wrap_dim(dim, x.ndim)
    if idx.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    host = host_array(index).reshape(-1)
    size = x.shape[d] if x.ndim else 1
    bad = _first_outside(host, size, negative_ok=True)
    if bad is not None:
        raise IndexError(f"index {bad} is out of bounds for dimension {d} with size {size}")
    if isinstance(value, Tensor) and value.array.dtype != x.dtype and x.dtype.kind not in "fc":
        # the value is converted to x's (integral or bool) dtype, as PyTorch's value.item()
        if value.requires_grad:
            raise RuntimeError(f"Autograd not support dtype: {_word(input)}")
        value = value.item()
    return apply(TABLE["index_fill"], input, value, index=_on_device(host, input), dim=d)


def _no_overload(fn, args):
    """PyTorch's message for a call that matches neither index_fill overload (a value that is
    neither a tensor nor a number)."""
    got = ", ".join(_type_name(a) for a in args)
    marked = ", ".join(_type_name(a) for a in args[:-1]) + f", !{_type_name(args[-1])}!"
    return (f"{fn}() received an invalid combination of arguments - got ({got}), but expected one of:\n"
            f" * (Tensor input, int dim, Tensor index, Tensor value)\n"
            f"      didn't match because some of the arguments have invalid types: ({marked})\n"
            f" * (Tensor input, int dim, Tensor index, Number value)\n"
            f"      didn't match because some of the arguments have invalid types: ({marked})\n")


def _type_name(a):
    return "Tensor" if isinstance(a, Tensor) else type(a).__name__


# ---------------------------------------------------------------- scatter_add

def scatter_add(input, dim, index, src):
    _need_tensor(input, "scatter_add", "input", 1)
    dim = _need_int(dim, "scatter_add", "dim", 2)
    _need_tensor(index, "scatter_add", "index", 3)
    _need_tensor(src, "scatter_add", "src", 4)
    d = wrap_dim(dim, input.array.ndim)
    host = checked_index("scatter", input, d, index, src)
    index = index.array if host is None else _on_device(host, input)
    return apply(TABLE["scatter_add"], input, src, index=index, dim=d)


def checked_index(fn, input, d, index, src=None):
    """gather's, scatter's and scatter_add's checks of `index` (and of the tensor src), in PyTorch's
    order and words (`fn` names the op in them: "gather" or "scatter"): its host array, or None
    when it is empty (then nothing else is checked, and nothing is read or written)."""
    x, idx = input.array, index.array
    if idx.size and idx.dtype not in (numpy.int32, numpy.int64):
        raise RuntimeError(f"{fn}(): Expected dtype int32/int64 for index")
    if src is not None and x.dtype != src.array.dtype:
        raise RuntimeError(f"{fn}(): Expected self.dtype to be equal to src.dtype")
    if not idx.size:
        return None
    if fn == "gather":
        _gather_shape_check(x.shape, d, idx.shape)
    else:
        _scatter_shape_check(x.shape, d, idx.shape, None if src is None else src.array.shape)
    host = host_array(index)
    size = x.shape[d] if x.ndim else 1
    bad = _first_outside(host.reshape(-1), size)  # the first in C order, as PyTorch reports it
    if bad is not None:
        raise RuntimeError(f"index {bad} is out of bounds for dimension {d} with size {size}")
    return host


def _nonempty_size(shape, k):
    """PyTorch's ensure_nonempty_size: a 0-d tensor has size 1 in dim 0."""
    return 1 if not len(shape) else size_arg(shape, k)


def _gather_shape_check(self_shape, d, index_shape):
    nd = max(len(self_shape), 1)
    if nd != max(len(index_shape), 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    for k in range(nd):
        if k != d and _nonempty_size(index_shape, k) > _nonempty_size(self_shape, k):
            raise RuntimeError(f"Size does not match at dimension {k} expected index {list(index_shape)} to be no "
                               f"larger than self {list(self_shape)} apart from dimension {d}")


def _scatter_shape_check(self_shape, d, index_shape, src_shape):
    """PyTorch's scatter_shape_check; src_shape None for a scatter of a number."""
    nd = max(len(self_shape), 1)
    if nd != max(len(index_shape), 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    size = _nonempty_size
    wrong = any(k != d and size(index_shape, k) > size(self_shape, k) for k in range(nd))
    if src_shape is None:
        if wrong:
            raise RuntimeError(f"Expected index {list(index_shape)} to be no larger than self {list(self_shape)} "
                               f"apart from dimension {d}")
        return
    if not wrong:
        wrong = any(size(index_shape, k) > size(src_shape, k) for k in range(nd))
    if wrong:
        raise RuntimeError(f"Expected index {list(index_shape)} to be no larger than self {list(self_shape)} apart "
                           f"from dimension {d} and to be no larger size than src {list(src_shape)}")
    if max(len(src_shape), 1) != nd:
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")


# ------------------------------------------------------------------ in place

def _written_alone(function, name):
    """The in-place variant of `function`: as PyTorch's assert_no_overlap, the tensors it reads
    (index, source) may not share memory with the one it writes, once its own checks pass --
    judged, as PyTorch does, only between dense (contiguous) tensors, by their memory ranges."""
    def compute(target, dim, index, source, **kwargs):
        result = function(target, dim, index, source, **kwargs)
        written = storage_of(target)
        for t in (index, source):
            read = storage_of(t)
            if t.device is target.device and read.size and _dense(read) and _dense(written) \
                    and array_module(target.device).may_share_memory(read, written):
                raise RuntimeError(OVERLAP_MESSAGE)
        return result

    def variant(input, dim, index, source, **kwargs):
        return inplace(input, compute, dim, index, source, **kwargs)
    variant.__name__ = variant.__qualname__ = name
    variant.__doc__ = f"In-place {function.__name__}: the result is written into input."
    return variant


def _dense(a):
    return a.flags.c_contiguous or a.flags.f_contiguous


index_add_ = _written_alone(index_add, "index_add_")
index_copy_ = _written_alone(index_copy, "index_copy_")
scatter_add_ = _written_alone(scatter_add, "scatter_add_")


# ------------------------------------------------------------- masked_scatter

def masked_scatter(input, mask, source):
    _need_tensor(input, "masked_scatter", "input", 1)
    _need_tensor(mask, "masked_scatter", "mask", 2)
    _need_tensor(source, "masked_scatter", "source", 3)
    shape = broadcast_shapes((mask.array.shape, input.array.shape))
    return _masked_scatter(input, mask, source, shape)


def masked_scatter_(input, mask, source):
    """In place: the mask expands to the tensor (which keeps its shape), as PyTorch's expand_inplace."""
    _need_tensor(input, "masked_scatter_", "input", 1)
    _need_tensor(mask, "masked_scatter_", "mask", 2)
    _need_tensor(source, "masked_scatter_", "source", 3)
    _check_source_dtype(input, source)
    target, own = tuple(input.array.shape), tuple(mask.array.shape)
    if len(own) > len(target):
        device = "CUDA" if input.device.type == "cuda" else "CPU"
        raise RuntimeError(f"expand({device}{_word(mask)}Type{{{list(own)}}}, size={list(target)}): the number of "
                           f"sizes provided ({len(target)}) must be greater or equal to the number of dimensions in "
                           f"the tensor ({len(own)})")
    lead = len(target) - len(own)
    for i, (o, t) in enumerate(zip(own, target[lead:])):
        if o != t and o != 1:
            raise RuntimeError(f"The expanded size of the tensor ({t}) must match the existing size ({o}) at "
                               f"non-singleton dimension {i + lead}.  Target sizes: {list(target)}.  Tensor sizes: "
                               f"{list(own)}")
    return inplace(input, _masked_scatter, mask, source, target)


def _check_source_dtype(input, source):
    if input.array.dtype != source.array.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got{_word(input)} and "
                           f"{_word(source)}")


def _masked_scatter(input, mask, source, shape):
    _check_source_dtype(input, source)
    if mask.array.dtype != numpy.bool_:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype {_word(mask)}")
    m = host_array(mask)
    if m.shape != shape:
        m = numpy.broadcast_to(m, shape)
    count = int(numpy.count_nonzero(m))
    if count > source.array.size:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return apply(TABLE["masked_scatter"], input, source, mask=_on_device(m, input), count=count)
