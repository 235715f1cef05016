"""Writing into a copy of a tensor at indices along a dim, or where a mask is true: index_add,
index_reduce, index_copy, index_fill, scatter_add, masked_scatter, put (their in-place variants run these rows
through engine/inplace.py). The index arrays and masks are parameters, checked beforehand by the
rows' calls in PyTorch's order and words -- each op's own: index_add_ takes int32 or int64
indices, index_copy_ only int64, index_fill_ counts negative indices from the end. Their
signatures type the operands Any: a call checks them itself, as PyTorch does (a list is not a
tensor) and with its messages, which give the argument's position. gather and scatter share
scatter_add's index checks (`checked_index`).

A 0-d input is handled as one of shape (1,), as PyTorch's kernels do; the gradient comes back in
the input's own shape.
"""
import math

import numpy

from .. import backend as _backend
from ..core.inplace import type_word
from ..core.tensor import TensorBase, broadcast_shapes, host_array, run_op, wrap_dim
from ..host_data import is_number
from .reductions import open_grid
from .table import TABLE, Op, batch_key, call, int_argument, scatter_add, tensor_argument

_ALL = slice(None)


def _along(dim, index):
    """The key selecting `index` (a 1-d array) along axis `dim`."""
    return (_ALL,) * dim + (index,)


def lift_0d(a):
    """An array of shape (1,) for a 0-d one (a view: writes reach `a`)."""
    return a.reshape(1) if a.ndim == 0 else a


def _lifted(shape):
    return tuple(shape) or (1,)


def _with(shape, dim, n):
    """`shape` with n at `dim`."""
    return shape[:dim] + (n,) + shape[dim + 1:]


def _select(F, g, shape, index, dim):
    """g.index_select(dim, index) for a gradient `g` of an input of `shape`."""
    if not len(shape):
        g = F.reshape(g, shape=(1,))
    return F.getitem(g, key=_along(dim, index))


def _shaped(F, g, shape):
    """`g` in the input's shape (a 0-d source takes a gradient of shape (1,))."""
    return g if tuple(g.shape) == tuple(shape) else F.reshape(g, shape=tuple(shape))


def grid_key(xp, index, dim):
    """The advanced key that reads or writes, for each element of `index`, the element at
    its own position but `index`'s value along `dim` (gather's and scatter's addressing)."""
    where = open_grid(xp, index.shape)
    where[dim] = index
    return tuple(where)


# ------------------------------------------------------- the arguments, as PyTorch checks them

def dtype_word(t):
    """PyTorch's name of a tensor's dtype in its messages (Long, Double...)."""
    return type_word(t.array.dtype)


def _on_device(host, like):
    """A copy of a host index array (or mask) on `like`'s device: the node keeps the values of
    the call, whatever happens to the index tensor afterwards."""
    if like.device is _backend.CPU:
        return numpy.array(host)
    return _backend.backend_for(like.device).from_host(host)


def _size_arg(shape, d):
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


def _scalar(alpha, dtype):
    """alpha in `dtype`, as PyTorch's kernels convert it (integers truncate)."""
    if dtype.kind == "b":
        return bool(alpha)
    if dtype.kind in "iu":
        return dtype.type(int(alpha))
    return dtype.type(alpha)


class IndexAdd(Op):
    """Slices of source (times alpha=) added at index along dim (repeats add up, in order).

    x with alpha * source added at `index` along `dim` (repeated indices add up, in order)."""
    name = "index_add"
    signature = "index_add(Any input, Any dim, Any index, Any source, *, Scalar alpha=1) -> Tensor"
    method = inplace = True
    saves_params = True
    node = "IndexAddBackward0"
    formula = call("dim", "alpha")

    def forward(xp, x, source, index, dim, alpha=1):
        out = xp.array(x, copy=True)
        flat = lift_0d(out)
        target = xp.moveaxis(flat, dim, 0)
        values = xp.moveaxis(source.reshape(_with(flat.shape, dim, index.size)), dim, 0)
        scatter_add(xp, target, (index,), values if alpha == 1 else values * _scalar(alpha, out.dtype))
        return out

    def backward(F, ctx, g, index, dim, alpha=1):
        gx = g if ctx.needs[0] else None
        gs = None
        if ctx.needs[1]:
            gs = _select(F, g, ctx.shapes[0], index, dim)
            if alpha != 1:
                gs = gs * alpha
            gs = _shaped(F, gs, ctx.shapes[1])
        return gx, gs

    def batched_backward(F, ctx, g, index, dim, alpha=1):
        if len(ctx.shapes[1]) != len(ctx.shapes[0]) or not len(ctx.shapes[0]):
            return NotImplemented
        gs = None
        if ctx.needs[1]:
            gs = F.getitem(g, key=batch_key(_along(dim, index)))
            if alpha != 1:
                gs = gs * alpha
        return (g if ctx.needs[0] else None), gs

    def call(input, dim, index, source, alpha):
        tensor_argument(input, "index_add", "input", 1)
        dim = int_argument(dim, "index_add", "dim", 2)
        tensor_argument(index, "index_add", "index", 3)
        tensor_argument(source, "index_add", "source", 4)
        d = wrap_dim(dim, input.array.ndim)
        host = _checked_slices("index_add_", input, d, index, source)
        size = _lifted(input.array.shape)[d]
        bad = _first_outside(host, size)
        if bad is not None:
            if input.array.ndim > 1:
                raise RuntimeError(f"index {bad} is out of bounds for dimension {d} with size {size}")
            raise IndexError("index out of range in self")
        x = input.array
        if isinstance(alpha, TensorBase):
            alpha = alpha.item()
        if isinstance(alpha, complex):
            kind = "double" if x.dtype.kind == "f" else "int64_t"
            raise RuntimeError(f"value cannot be converted to type {kind} without overflow")
        params = {"index": _on_device(host, input), "dim": d}
        if alpha != 1:
            params["alpha"] = alpha
        return run_op(IndexAdd, (input, source), params)


def _checked_slices(fn, input, d, index, source):
    """index_add_'s and index_reduce_'s checks of index and source (`fn` names the op in their
    words), in PyTorch's order: the index's host array, as a vector."""
    x, idx, src = input.array, index.array, source.array
    if idx.ndim > 1:
        raise IndexError(f"{fn}(): Index is supposed to be a vector, but got dim: {idx.ndim} with type: "
                         f"{dtype_word(index)} and size: {list(idx.shape)}")
    if idx.dtype not in (numpy.int32, numpy.int64):
        raise RuntimeError(f"{fn}(): Expected dtype int32/int64 for index but got: {dtype_word(index)}")
    if x.dtype != src.dtype:
        raise RuntimeError(f"{fn}(): self ({dtype_word(input)}) and source ({dtype_word(source)}) must have "
                           f"the same scalar type")
    if d != 0 and d >= src.ndim:
        raise RuntimeError(f"{fn}(): Indexing dim {d} is out of bounds of the source tensor with dim {src.ndim}")
    n = idx.size
    if n != (1 if src.ndim == 0 else src.shape[d]):
        raise RuntimeError(f"{fn}(): Number of indices ({n}) should be equal to source.size(dim): "
                           f"({_size_arg(src.shape, d)}), for dim: {d}")
    both = src.ndim and x.ndim
    if (_without(x.shape, d) if both else list(x.shape)) != (_without(src.shape, d) if both else list(src.shape)):
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the specified dimension. "
                           f"Got self.shape = {list(x.shape)} source.shape = {list(src.shape)}")
    return host_array(index).reshape(-1)


class IndexReduce(Op):
    """Slices of source reduced into input at index along dim: prod, mean, amax or amin.

    x with each slice source[..., i, ...] reduced by `reduce` into x[..., index[i], ...];
    include_self=False leaves x's own value out where anything is reduced in. It is scatter_reduce
    with the index spread over source's shape, so the forward and the gradients (PyTorch's
    index_reduce_backward: the same rules, ties of amax/amin sharing) are that row's."""
    name = "index_reduce"
    signature = ("index_reduce(Tensor input, int dim, Any index, Any source, str reduce, *, "
                 "bool include_self=True) -> Tensor")
    method = inplace = True
    saves = (0, 1, "out")
    saves_params = True
    node = "IndexReduceBackward0"
    wrap_dims = False
    formula = call("dim", "reduce", "include_self")

    def forward(xp, x, source, index, dim, reduce, include_self):
        return TABLE["scatter_reduce"].forward(xp, x, source, _spread(xp, index, source.shape, dim), dim, reduce,
                                               include_self)

    def backward(F, ctx, g, x, source, out, index, dim, reduce, include_self):
        spread = _spread(F.xp, index, ctx.shapes[1], dim)
        return TABLE["scatter_reduce"].backward(F, ctx, g, x, source, out, spread, dim, reduce, include_self)

    def call(input, dim, index, source, reduce, include_self):
        tensor_argument(index, "index_reduce", "index", 3)  # (a list is not a tensor to PyTorch here)
        tensor_argument(source, "index_reduce", "source", 4)
        if reduce not in ("prod", "mean", "amax", "amin"):
            raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got "
                               f"{reduce}.")
        d = wrap_dim(dim, input.array.ndim)
        host = _checked_slices("index_reduce_", input, d, index, source)
        if _first_outside(host, _lifted(input.array.shape)[d]) is not None:
            raise IndexError("index out of range in self")
        if input.array.dtype.kind == "b":
            raise NotImplementedError('"index_func_" not implemented for \'Bool\'')
        return run_op(IndexReduce, (input, source), {"index": _on_device(host, input), "dim": d, "reduce": reduce,
                                                     "include_self": include_self})


def _spread(xp, index, shape, dim):
    """The 1-d `index` along `dim`, broadcast to source's `shape` (a 0-d source as one of shape
    (1,)): scatter_reduce's index for the same writes."""
    shape = _lifted(shape)
    return xp.broadcast_to(index.reshape((1,) * dim + (-1,) + (1,) * (len(shape) - dim - 1)), shape)


class IndexCopy(Op):
    """Slices of source copied to index along dim.

    x with the slices of source put at `index` along `dim` (the last of repeated indices
    stays, as PyTorch's CPU loop leaves it)."""
    name = "index_copy"
    signature = "index_copy(Any input, Any dim, Any index, Any source) -> Tensor"
    method = inplace = True
    saves_params = True
    node = "IndexCopyBackward0"
    formula = call("dim")

    def forward(xp, x, source, index, dim):
        out = xp.array(x, copy=True)
        flat = lift_0d(out)
        values = source.reshape(_with(flat.shape, dim, index.size))
        xp.moveaxis(flat, dim, 0)[index] = xp.moveaxis(values, dim, 0)
        return out

    def backward(F, ctx, g, index, dim):
        # PyTorch's formula: every slice of source gets its gradient, even one a repeated index
        # overwrote
        gx = F.index_fill(g, 0.0, index=index, dim=dim) if ctx.needs[0] else None
        gs = _shaped(F, _select(F, g, ctx.shapes[0], index, dim), ctx.shapes[1]) if ctx.needs[1] else None
        return gx, gs

    def batched_backward(F, ctx, g, index, dim):
        if len(ctx.shapes[1]) != len(ctx.shapes[0]) or not len(ctx.shapes[0]):
            return NotImplemented
        gx = F.index_fill(g, 0.0, index=index, dim=dim + 1) if ctx.needs[0] else None
        gs = F.getitem(g, key=batch_key(_along(dim, index))) if ctx.needs[1] else None
        return gx, gs

    def call(input, dim, index, source):
        tensor_argument(input, "index_copy", "input", 1)
        dim = int_argument(dim, "index_copy", "dim", 2)
        tensor_argument(index, "index_copy", "index", 3)
        tensor_argument(source, "index_copy", "source", 4)
        x, idx, src = input.array, index.array, source.array
        d = wrap_dim(dim, x.ndim)
        if idx.ndim >= 2:
            raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {idx.ndim})")
        n = idx.size
        if src.ndim == 0 and n != 1:
            raise IndexError(f"index_copy_(): When source is scalar, index should have one element (got {n})")
        if src.ndim != x.ndim and src.ndim and x.ndim:
            raise IndexError(f"index_copy_(): When source and destination are not scalars, their dimensionality "
                             f"must match. Source dimensionality ({src.ndim}), destination dimensionality ({x.ndim})")
        if idx.dtype != numpy.int64:
            raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got {dtype_word(index)}")
        if x.dtype != src.dtype:
            raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, but got (self) "
                               f"{dtype_word(input)} and (source) {dtype_word(source)}")
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
        return run_op(IndexCopy, (input, source), {"index": _on_device(host, input), "dim": d})


class IndexFill(Op):
    """Value (a number or 0-d tensor) put in the slices at index along dim.

    x with `value` (a number, or a 0-d tensor) in the slices at `index` along `dim`
    (negative indices count from the end)."""
    name = "index_fill"
    signature = "index_fill(Any input, Any dim, Any index, Any value) -> Tensor"
    method = inplace = True
    saves_params = True
    node = staticmethod(lambda ctx: "IndexFillBackward0" if ctx.shapes[1] is None else "IndexFillBackward1")
    number_right = "drop"  # index_fill(dim, index, 0.0) is PyTorch's Scalar overload: one edge
    formula = call("dim")

    def forward(xp, x, value, index, dim):
        out = xp.array(x, copy=True)
        xp.moveaxis(lift_0d(out), dim, 0)[index] = value
        return out

    def backward(F, ctx, g, index, dim):
        gx = F.index_fill(g, 0.0, index=index, dim=dim) if ctx.needs[0] else None
        gv = None
        if ctx.needs[1]:
            # PyTorch's grad.index_select(dim, unique(index)).sum(): each filled slice once, a
            # contiguous selection summed in order
            unique = F.xp.unique(index % _lifted(ctx.shapes[0])[dim])
            gv = F.sum(F.clone(_select(F, g, ctx.shapes[0], unique, dim)))
        return gx, gv

    def batched_backward(F, ctx, g, index, dim):
        shape = ctx.shapes[0]
        if not len(shape):
            return NotImplemented
        gx = F.index_fill(g, 0.0, index=index, dim=dim + 1) if ctx.needs[0] else None
        gv = None
        if ctx.needs[1]:
            picked = F.getitem(g, key=batch_key(_along(dim, F.xp.unique(index % shape[dim]))))
            gv = F.sum(picked, dim=tuple(range(1, len(shape) + 1)))
        return gx, gv

    def call(input, dim, index, value):
        tensor_argument(input, "index_fill", "input", 1)
        if not isinstance(value, (TensorBase, complex)) and not is_number(value):
            raise TypeError(_no_index_fill_overload((input, dim, index, value)))
        dim = int_argument(dim, "index_fill", "dim", 2)
        tensor_argument(index, "index_fill", "index", 3)
        x, idx = input.array, index.array
        if isinstance(value, TensorBase) and value.array.ndim != 0:
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
        if isinstance(value, TensorBase) and value.array.dtype != x.dtype and x.dtype.kind not in "fc":
            # the value is converted to x's (integral or bool) dtype, as PyTorch's value.item()
            if value.requires_grad:
                raise RuntimeError(f"Autograd not support dtype: {dtype_word(input)}")
            value = value.item()
        return run_op(IndexFill, (input, value), {"index": _on_device(host, input), "dim": d})


def _no_index_fill_overload(args):
    """PyTorch's message for a call that matches neither index_fill overload (a value that is
    neither a tensor nor a number)."""
    def type_name(a):
        return "Tensor" if isinstance(a, TensorBase) else type(a).__name__
    got = ", ".join(type_name(a) for a in args)
    marked = ", ".join(type_name(a) for a in args[:-1]) + f", !{type_name(args[-1])}!"
    return (f"index_fill() received an invalid combination of arguments - got ({got}), but expected one of:\n"
            f" * (Tensor input, int dim, Tensor index, Tensor value)\n"
            f"      didn't match because some of the arguments have invalid types: ({marked})\n"
            f" * (Tensor input, int dim, Tensor index, Number value)\n"
            f"      didn't match because some of the arguments have invalid types: ({marked})\n")


class ScatterAdd(Op):
    """Values of src added at index along dim (repeated indices add up).

    x with src added at `index` along `dim`: out[index[i][j]][j] += src[i][j] for dim 0
    (src may be larger than index: only the part index covers is read)."""
    name = "scatter_add"
    signature = "scatter_add(Any input, Any dim, Any index, Any src) -> Tensor"
    method = inplace = True
    saves_params = True
    node = "ScatterAddBackward0"
    formula = call("dim")

    def forward(xp, x, src, index, dim):
        out = xp.array(x, copy=True)
        if index.size:
            index = lift_0d(index)
            part = lift_0d(src)[tuple(slice(0, n) for n in index.shape)]
            scatter_add(xp, lift_0d(out), grid_key(xp, index, dim), part)  # in order, as PyTorch's loop
        return out

    def backward(F, ctx, g, index, dim):
        gx = g if ctx.needs[0] else None
        return gx, (gather_back(F, g, ctx.shapes, index, dim) if ctx.needs[1] else None)

    def batched_backward(F, ctx, g, index, dim):
        shape, src = ctx.shapes[0], ctx.shapes[1]
        if not len(shape) or not index.size or len(src) != index.ndim:
            return NotImplemented
        gs = None
        if ctx.needs[1]:
            gs = F.getitem(g, key=batch_key(grid_key(F.xp, index, dim)))
            if tuple(index.shape) != tuple(src):
                gs = F.index_grad(gs, key=(_ALL,) + tuple(slice(0, n) for n in index.shape),
                                  shape=(g.shape[0],) + tuple(src))
        return (g if ctx.needs[0] else None), gs

    def call(input, dim, index, src):
        tensor_argument(input, "scatter_add", "input", 1)
        dim = int_argument(dim, "scatter_add", "dim", 2)
        tensor_argument(index, "scatter_add", "index", 3)
        tensor_argument(src, "scatter_add", "src", 4)
        d = wrap_dim(dim, input.array.ndim)
        host = checked_index("scatter", input, d, index, src)
        index = index.array if host is None else _on_device(host, input)
        return run_op(ScatterAdd, (input, src), {"index": index, "dim": d})


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
    return 1 if not len(shape) else _size_arg(shape, k)


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


def gather_back(F, g, shapes, index, dim):
    """src's gradient: g gathered at `index` (PyTorch's grad.gather(dim, index)), with zeros
    where src is larger than index (where PyTorch's backward stops with a shape error)."""
    src = shapes[1]
    if not index.size:
        return F.expand(F.zeros_like(F.sum(g)), shape=tuple(src))
    index = lift_0d(index)
    g = F.reshape(g, shape=(1,)) if not len(shapes[0]) else g
    gs = F.getitem(g, key=grid_key(F.xp, index, dim))
    if tuple(index.shape) != _lifted(src):
        gs = F.index_grad(gs, key=tuple(slice(0, n) for n in index.shape), shape=_lifted(src))
    return _shaped(F, gs, src)


class MaskedScatter(Op):
    """Elements of source, in order, put where a bool mask is true.

    x (broadcast against `mask`) with the first `count` elements of source, in order, put
    where `mask` is True."""
    name = "masked_scatter"
    signature = "masked_scatter(Any input, Any mask, Any source) -> Tensor"
    method = inplace = True
    saves_params = True
    node = "MaskedScatterBackward0"
    formula = call()

    def forward(xp, x, source, mask, count):
        out = xp.array(xp.broadcast_to(x, mask.shape), copy=True)
        out[mask] = source.reshape(-1)[:count]
        return out

    def backward(F, ctx, g, mask, count):
        gx = F.where(mask, 0.0, g) if ctx.needs[0] else None
        gs = None
        if ctx.needs[1]:
            # PyTorch's masked_scatter_backward: the masked elements, then zeros, in source's shape
            shape = tuple(ctx.shapes[1])
            n = math.prod(shape)
            gs = F.getitem(g, key=(mask,))
            if count < n:
                gs = F.index_grad(gs, key=(slice(0, count),), shape=(n,))
            gs = F.reshape(gs, shape=shape)
        return gx, gs

    def batched_backward(F, ctx, g, mask, count):
        if not mask.ndim:
            return NotImplemented
        gx = F.where(mask, 0.0, g) if ctx.needs[0] else None
        gs = None
        if ctx.needs[1]:
            shape = tuple(ctx.shapes[1])
            b, n = g.shape[0], math.prod(shape)
            gs = F.getitem(g, key=(_ALL, mask))
            if count < n:
                gs = F.index_grad(gs, key=(_ALL, slice(0, count)), shape=(b, n))
            gs = F.reshape(gs, shape=(b,) + shape)
        return gx, gs

    def call(input, mask, source):
        tensor_argument(input, "masked_scatter", "input", 1)
        tensor_argument(mask, "masked_scatter", "mask", 2)
        tensor_argument(source, "masked_scatter", "source", 3)
        return scatter_masked(input, mask, source, broadcast_shapes((mask.array.shape, input.array.shape)))


def same_dtype_source(input, source):
    """masked_scatter's first check of its source (masked_scatter_ makes it before its own)."""
    if input.array.dtype != source.array.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                           f"{dtype_word(input)} and {dtype_word(source)}")


def scatter_masked(input, mask, source, shape):
    """masked_scatter's (and masked_scatter_'s) checks and the row, with `mask` broadcast to `shape`."""
    same_dtype_source(input, source)
    if mask.array.dtype != numpy.bool_:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype {dtype_word(mask)}")
    m = host_array(mask)
    if m.shape != shape:
        m = numpy.broadcast_to(m, shape)
    count = int(numpy.count_nonzero(m))
    if count > source.array.size:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return run_op(MaskedScatter, (input, source), {"mask": _on_device(m, input), "count": count})


class Put(Op):
    """Source's values written at flat indices of x read as 1-D (added up, with accumulate).

    x with x.reshape(-1)[index] = source (or += it, repeated indices adding up with accumulate;
    without it the last of repeated indices stays, as PyTorch's CPU loop leaves it)."""
    name = "put"
    signature = "put(Any input, Any index, Any source, bool accumulate=False) -> Tensor"  # (no promotion: checked)
    method = inplace = True
    jvp = "linear"  # forward mode: the row applied to the tangents
    saves_params = True
    node = "PutBackward0"
    formula = call("accumulate")

    def forward(xp, x, source, index, accumulate=False):
        out = xp.array(x, copy=True)
        flat = out.reshape(-1)  # (a view: the copy is contiguous)
        values = source if is_number(source) else source.reshape(-1)
        if accumulate:
            scatter_add(xp, flat, (index,), xp.broadcast_to(values, index.shape))
        else:
            flat[index] = values
        return out

    def backward(F, ctx, g, index, accumulate=False):
        gx = None
        if ctx.needs[0]:  # (PyTorch's: g.put(index, zeros_like(source), accumulate))
            gx = g if accumulate else F.put(g, 0.0, index=index)
        gs = F.reshape(F.take(g, index=index), shape=ctx.shapes[1]) if ctx.needs[1] else None
        return gx, gs

    def call(input, index, source, accumulate):
        for position, (value, name) in enumerate(((input, "input"), (index, "index"), (source, "source")), 1):
            tensor_argument(value, "put", name, position)
        if index.array.dtype != numpy.int64:
            raise RuntimeError(f"put_(): Expected a long tensor for index, but got {dtype_word(index)}")
        if input.array.dtype != source.array.dtype:
            raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got self.dtype = "
                               f"{dtype_word(input)} and source.dtype = {dtype_word(source)}")
        if source.array.size != index.array.size:
            raise IndexError(f"put_(): Expected source and index to have the same number of elements, but got "
                             f"source.numel() = {source.array.size}, index.numel() = {index.array.size}")
        n = input.array.size
        if n == 0 and index.array.size:
            raise IndexError("put_(): Tried to put elements into an empty tensor")
        host = host_array(index).reshape(-1)
        bad = _first_outside(host, n, negative_ok=True)
        if bad is not None:
            raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} elements.")
        return run_op(Put, (input, source), {"index": _on_device(host, input), "accumulate": bool(accumulate)})
