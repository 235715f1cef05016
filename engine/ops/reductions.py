"""Reductions: sum, nansum, mean, prod, max/min (whole tensor or along a dim), amax/amin, norm, logsumexp,
softmax; statistics, scans and sorting: var, std, median, cumsum, cumprod, cummax, cummin, logcumsumexp,
sort, topk, kthvalue."""
import math
import warnings

import numpy

from .. import dtypes as _dt
from ..dtypes import as_dtype
from .. import kernels
from ..core.tensor import NO_PARAMS, TensorBase, array_module, check_broadcastable, make_tensor, run_op
from ..host_data import is_number
from .table import (Op, require_floating, keepdim_shape, reduced_count, reduction_dims, unreduce, unreduce_batched,
                    batch_dim, call, custom, scatter_add)


def _reduction_name(base):
    """PyTorch's names: ...Backward0 for a whole-tensor reduction, ...Backward1 with dim or keepdim."""
    return staticmethod(lambda ctx: f"{base}Backward0" if ctx.params.get("dim") is None
                        and not ctx.params.get("keepdim") else f"{base}Backward1")


class Sum(Op):
    """The sum of the elements, over every dim or over `dim`."""
    name = "sum"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "sum(Tensor input, int[1]? dim=None, bool keepdim=False) -> Tensor"
    method = True
    formula = custom("reduction")
    node = _reduction_name("Sum")

    def forward(xp, x, dim=None, keepdim=False):
        return kernels.total(xp, x, dim, keepdim)

    def backward(F, ctx, g, dim=None, keepdim=False):
        return (F.expand(unreduce(F, ctx, g, dim, keepdim), shape=ctx.shapes[0]),)

    def batched_backward(F, ctx, g, dim=None, keepdim=False):
        g = unreduce_batched(F, ctx, g, dim, keepdim)
        return (F.expand(g, shape=(g.shape[0],) + tuple(ctx.shapes[0])),)


class Mean(Op):
    """The mean of all elements, or along dim.

    The mean of the elements, over every dim or over `dim` (a floating tensor's)."""
    name = "mean"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "mean(Tensor input, int[1]? dim=None, bool keepdim=False) -> Tensor"
    method = True
    formula = custom("reduction")
    node = _reduction_name("Mean")

    def call(input, dim, keepdim):
        require_floating(input, "mean")
        return run_op(Mean, (input,), {"dim": dim, "keepdim": keepdim})

    def forward(xp, x, dim=None, keepdim=False):
        return kernels.mean(xp, x, dim, keepdim, reduced_count(x.shape, dim))

    def backward(F, ctx, g, dim=None, keepdim=False):
        n = reduced_count(ctx.shapes[0], dim)
        return (F.expand(unreduce(F, ctx, g, dim, keepdim) / n, shape=ctx.shapes[0]),)

    def batched_backward(F, ctx, g, dim=None, keepdim=False):
        n = reduced_count(ctx.shapes[0], dim)
        g = unreduce_batched(F, ctx, g, dim, keepdim)
        return (F.expand(g / n, shape=(g.shape[0],) + tuple(ctx.shapes[0])),)


class Nansum(Op):
    """The sum with NaN taken as 0 (of all, or along dim).

    The sum with NaN taken as 0 (integers and booleans sum as int64, or as `dtype`); the
    gradient is 0 where x was NaN."""
    name = "nansum"
    signature = "nansum(Tensor input, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"
    method = True
    formula = call("dim", "keepdim")
    node = "NansumBackward0"
    saves = (0,)

    def forward(xp, x, dim=None, keepdim=False, dtype=None):
        if dtype is not None and x.dtype != dtype:
            x = x.astype(dtype)
        if x.dtype.kind == "f":
            x = xp.where(xp.isnan(x), x.dtype.type(0), x)
        return Sum.forward(xp, x, dim, keepdim)

    def backward(F, ctx, g, x, dim=None, keepdim=False, dtype=None):
        # PyTorch's nansum_backward: the gradient, unsqueezed, times isnan(x).logical_not()
        return (unreduce(F, ctx, g, dim, keepdim) * F.logical_not(F.isnan(x)),)

    def call(input, dim, keepdim, dtype):
        return run_op(Nansum, (input,), {"dim": dim, "keepdim": keepdim, "dtype": summed_dtype(input, dtype)})


_INT64 = numpy.dtype(numpy.int64)


def summed_dtype(input, dtype):
    """The dtype a sum or a product of `input`'s elements works in: `dtype` where given, int64 for integers
    and booleans (PyTorch's), else None (the input's own)."""
    if dtype is None and input.array.dtype.kind in "biu":
        return _INT64
    return dtype


class SumTo(Op):
    """Sum a broadcast gradient back to a shape: the one place broadcasting is undone."""
    name = "sum_to"
    jvp = "linear"  # forward mode: the row applied to the tangents
    formula = custom("sum_to")
    node = "SumToBackward0"

    def forward(xp, x, shape):
        return sum_to_array(xp, x, shape)

    def backward(F, ctx, g, shape):
        return (F.expand(g, shape=ctx.shapes[0]),)

    def batched_backward(F, ctx, g, shape):
        source = tuple(ctx.shapes[0])
        b = g.shape[0]
        lead = len(source) - len(shape)
        if lead:  # the summed leading axes come back as 1s after the batch dim
            g = F.reshape(g, shape=(b,) + (1,) * lead + tuple(shape))
        return (F.expand(g, shape=(b,) + source),)


def sum_to_array(xp, x, shape):
    """Sum the leading and the stretched axes of array `x` (of array module xp) so it has `shape`."""
    if x.shape == shape:
        return x
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape)
                                      if s == 1 and x.shape[i + lead] != 1)
    if lead and shape and len(axes) == lead:  # only leading axes (a bias's gradient): summed away, an
        return kernels.total(xp, x, axes)  # array of its own, not a reshaped view (which the leaf's .grad copies)
    if axes:
        x = kernels.total(xp, x, axes, True)
    return x.reshape(shape) if lead else x


class Prod(Op):
    """The product of all elements, or along dim.

    The product of the elements, over every dim or along `dim`."""
    name = "prod"
    signature = "prod(Tensor input, int? dim=None, bool keepdim=False) -> Tensor"
    method = True
    formula = custom("reduction")
    node = staticmethod(lambda ctx: "ProdBackward0" if ctx.params.get("dim") is None else "ProdBackward1")
    saves = (0,)

    def call(input, dim, keepdim):
        if dim is not None and input.array.ndim == 0:
            dim = ()  # a 0-d tensor's one dim (PyTorch's): no axis of the array
        return run_op(Prod, (input,), {"dim": dim, "keepdim": keepdim})

    def forward(xp, x, dim=None, keepdim=False):
        return kernels.product(xp, x, dim, keepdim)

    def backward(F, ctx, g, x, dim=None, keepdim=False):
        g = unreduce(F, ctx, g, dim, keepdim)
        return (g * F.prod_others(x, dim=dim),)

    def batched_backward(F, ctx, g, x, dim=None, keepdim=False):
        g = unreduce_batched(F, ctx, g, dim, keepdim)
        return (g * F.prod_others(x, dim=dim),)


class ProdOthers(Op):
    """For each element, the product of the others along `dim` (all, if None).

    The derivative of `prod`; computed with exclusive cumulative products so
    zeros are exact, and itself differentiable for higher orders."""
    name = "prod_others"
    node = "ProdBackward1"
    saves = (0,)

    def forward(xp, x, dim=None):
        if dim == () or (dim is not None and x.shape[dim] == 0):  # a 0-d input's product of no others: 1
            return xp.ones_like(x)
        if dim is None:
            return ProdOthers.forward(xp, x.reshape(-1), 0).reshape(x.shape)
        x = xp.moveaxis(x, dim, -1)
        ones = xp.ones(x.shape[:-1] + (1,), dtype=x.dtype)
        before = xp.cumprod(xp.concatenate([ones, x[..., :-1]], axis=-1), axis=-1)
        after = xp.flip(xp.cumprod(xp.concatenate([ones, xp.flip(x, -1)[..., :-1]], axis=-1), axis=-1), -1)
        return xp.moveaxis(before * after, -1, dim)

    def backward(F, ctx, g, x, dim=None):
        # d others_i / d x_j = product of all but i and j (i != j), 0 on i == j:
        # the others-products of the rows of a matrix whose row i has x_i set to 1.
        shape = ctx.shapes[0]
        if dim == ():
            return (F.zeros_like(g),)
        if dim is None:
            flat = F.reshape(x, shape=(-1,))
            gf = F.reshape(g, shape=(-1,))
            return (F.reshape(ProdOthers._backward_last(F, gf, flat), shape=shape),)
        nd = len(shape)
        dim = dim % nd
        xl = F.transpose(x, dim0=dim, dim1=nd - 1)
        gl = F.transpose(g, dim0=dim, dim1=nd - 1)
        return (F.transpose(ProdOthers._backward_last(F, gl, xl), dim0=dim, dim1=nd - 1),)

    def batched_backward(F, ctx, g, x, dim=None):
        # _backward_last broadcasts over leading dims of g: only the reshapes and the axes move
        shape = ctx.shapes[0]
        b = g.shape[0]
        if dim is None:
            flat = F.reshape(x, shape=(-1,))
            gf = F.reshape(g, shape=(b, -1))
            return (F.reshape(ProdOthers._backward_last(F, gf, flat), shape=(b,) + tuple(shape)),)
        nd = len(shape)
        dim = dim % nd
        xl = F.transpose(x, dim0=dim, dim1=nd - 1)
        gl = F.transpose(g, dim0=dim + 1, dim1=nd)
        return (F.transpose(ProdOthers._backward_last(F, gl, xl), dim0=dim + 1, dim1=nd),)

    @staticmethod
    def _backward_last(F, g, x):
        n = x.shape[-1]
        eye = F.eye_mask(n)
        rows = F.where(eye, 1.0, F.unsqueeze(x, dim=-2))       # (..., n, n)
        pairs = F.where(eye, 0.0, F.prod_others(rows, dim=-1))  # (..., i, j)
        return F.sum(F.unsqueeze(g, dim=-1) * pairs, dim=-2)


class Amax(Op):
    """The largest values along dim(s); ties share the gradient evenly.

    amax(x, dim): the largest values; tied elements share the gradient evenly."""
    name = "amax"
    signature = "amax(Tensor input, int[1]? dim=None, bool keepdim=False) -> Tensor"
    method = True
    formula = custom("reduction")
    node = staticmethod(lambda ctx: ctx.params.get("name") or "AmaxBackward0")  # aminmax's: AminmaxBackward0
    saves = (0, "out")

    def forward(xp, x, dim=None, keepdim=False, name=None):
        return xp.max(x, axis=dim, keepdims=keepdim)

    def backward(F, ctx, g, x, out, dim=None, keepdim=False, name=None):
        return (_share_among_ties(F, ctx, g, x, out, dim, keepdim),)

    def batched_backward(F, ctx, g, x, out, dim=None, keepdim=False, name=None):
        return (_share_among_ties(F, ctx, g, x, out, dim, keepdim, batched=True),)


class Amin(Op):
    """The smallest values along dim(s); ties share the gradient evenly."""
    name = "amin"
    signature = "amin(Tensor input, int[1]? dim=None, bool keepdim=False) -> Tensor"
    method = True
    formula = custom("reduction")
    node = staticmethod(lambda ctx: ctx.params.get("name") or "AminBackward0")  # aminmax's: AminmaxBackward0
    saves = (0, "out")

    def forward(xp, x, dim=None, keepdim=False, name=None):
        return xp.min(x, axis=dim, keepdims=keepdim)

    def backward(F, ctx, g, x, out, dim=None, keepdim=False, name=None):
        return (_share_among_ties(F, ctx, g, x, out, dim, keepdim),)

    def batched_backward(F, ctx, g, x, out, dim=None, keepdim=False, name=None):
        return (_share_among_ties(F, ctx, g, x, out, dim, keepdim, batched=True),)


def _share_among_ties(F, ctx, g, x, out, dim, keepdim, batched=False):
    """The gradient of a largest (smallest) value, shared evenly among the elements tied for it."""
    g = (unreduce_batched if batched else unreduce)(F, ctx, g, dim, keepdim)
    out = unreduce(F, ctx, out, dim, keepdim)
    mask = x == out
    return g * mask / F.sum(mask * 1.0, dim=dim, keepdim=True)


def _batch_scalar(F, ctx, g):
    """A batch of gradients of a 0-d result, (B,), as (B, 1, ...): one per batch element that
    broadcasts against the input."""
    nd = len(ctx.shapes[0])
    return F.reshape(g, shape=(g.shape[0],) + (1,) * nd) if nd else g


def _evenly_distribute(F, g, x, out):
    """The gradient of a value picked from the whole tensor (max(), min(), median()), shared
    evenly among the elements equal to it -- or among the NaNs when it is NaN (PyTorch's
    evenly_distribute_backward)."""
    mask = (x == out) | ((x != x) & (out != out))
    return F.where(mask, g / F.sum(mask * 1.0), 0.0)  # +0 elsewhere: PyTorch's masked_fill_ of zeros


def _whole_extreme(row, input):
    if input.array.size == 0:
        raise RuntimeError(f"{row.names[0]}(): Expected reduction dim to be specified for input.numel() == 0. "
                           "Specify the reduction dim with the 'dim' argument.")
    return run_op(row, (input,), NO_PARAMS)


class MaxAll(Op):
    """The largest element (NaN if any is); the gradient is shared among the elements equal to it."""
    name = "max_all"
    signature = "max(Tensor input) -> Tensor"  # max(x, dim) and max(x, y) are other rows
    method = True
    formula = custom("extreme")
    node = "MaxBackward1"
    saves = (0, "out")

    def call(input):
        return _whole_extreme(MaxAll, input)

    def forward(xp, x):
        return xp.max(x)

    def backward(F, ctx, g, x, out):
        return (_evenly_distribute(F, g, x, out),)

    def batched_backward(F, ctx, g, x, out):
        return (_evenly_distribute(F, _batch_scalar(F, ctx, g), x, out),)


class MinAll(Op):
    """The smallest element (NaN if any is); the gradient is shared among the elements equal to it."""
    name = "min_all"
    signature = "min(Tensor input) -> Tensor"
    method = True
    formula = custom("extreme")
    node = "MinBackward1"
    saves = (0, "out")

    def call(input):
        return _whole_extreme(MinAll, input)

    def forward(xp, x):
        return xp.min(x)

    def backward(F, ctx, g, x, out):
        return (_evenly_distribute(F, g, x, out),)

    def batched_backward(F, ctx, g, x, out):
        return (_evenly_distribute(F, _batch_scalar(F, ctx, g), x, out),)


class MedianAll(Op):
    """The lower median of all elements; median(x, dim) gives (values, indices).

    median(x): the lower median of all elements (NaN if any is NaN); the gradient is
    shared evenly among the elements equal to it (among the NaNs when it is NaN)."""
    name = "median_all"
    signature = "median(Tensor input) -> Tensor"  # median(x, dim) is MedianDim
    method = True
    formula = custom("extreme")
    node = "MedianBackward0"
    saves = (0, "out")

    @classmethod
    def call(cls, input):
        refuse_bool(input, "median")
        return run_op(cls, (input,), NO_PARAMS)

    def forward(xp, x):
        flat = x.reshape(-1)
        if flat.size == 0:
            return xp.full((), xp.nan, dtype=x.dtype)
        if x.dtype.kind == "f" and bool(xp.isnan(flat).any()):
            return xp.full((), xp.nan, dtype=x.dtype)
        k = (flat.size - 1) // 2
        return xp.partition(flat, k)[k]

    def backward(F, ctx, g, x, out):
        return (_evenly_distribute(F, g, x, out),)

    def batched_backward(F, ctx, g, x, out):
        return (_evenly_distribute(F, _batch_scalar(F, ctx, g), x, out),)


def sort_indices(xp, x, dim, descending=False):
    """The stable sorting permutation of array `x` along `dim`, NaN counted as the largest
    value (PyTorch's order): equal values keep their order, descending too."""
    if not descending:
        return xp.argsort(x, axis=dim, kind="stable")
    # stable and descending: sort the reversed slices ascending, then reverse that order
    n = x.shape[dim]
    order = xp.argsort(xp.flip(x, axis=dim), axis=dim, kind="stable")
    return (n - 1) - xp.flip(order, axis=dim)


def median_indices(xp, x, dim):
    """For each slice along `dim` (kept as size 1), the index of its lower median -- of its
    first NaN when it has one (PyTorch's choice)."""
    n = x.shape[dim]
    order = sort_indices(xp, x, dim)
    shape = list(x.shape)
    shape[dim] = 1
    pos = xp.full(tuple(shape), (n - 1) // 2, dtype=order.dtype)
    if x.dtype.kind == "f":
        nans = xp.sum(xp.isnan(x), axis=dim, keepdims=True)
        pos = xp.where(nans > 0, n - nans, pos).astype(order.dtype)  # stable order: NaNs last, in order
    return xp.take_along_axis(order, pos, axis=dim)


class PickAlongDim(Op):
    """A base for the rows that pick one element of each slice along `dim` (max, min, median and
    mode by dim, kthvalue): the value at `indices` (one per slice; reduced shape unless `keepdim`),
    which the row's `find(xp, x, dim)` gives with dim kept, of size 1. The gradient goes to the index
    only."""
    saves_params = True
    wrap_dims = True
    formula = custom("values_along")
    method = True
    empty_error = RuntimeError  # what an empty slice raises (PyTorch's kernels differ)
    refuses_bool = None         # the kernel whose name the refusal of a bool input gives (median)
    find = None

    def forward(xp, x, dim, keepdim, indices):
        if x.ndim == 0:
            return x.copy()
        idx = xp.expand_dims(indices, dim) if not keepdim else indices
        out = xp.take_along_axis(x, idx, axis=dim)
        return out if keepdim else xp.squeeze(out, axis=dim)

    def backward(F, ctx, g, dim, keepdim, indices):
        if not ctx.shapes[0]:
            return (g,)  # a 0-d input is its own (only) value
        if not keepdim:
            g = F.unsqueeze(g, dim=dim)
            indices = indices.reshape(keepdim_shape(ctx.shapes[0], dim))
        return (F.put_along(g, indices=indices, dim=dim, shape=ctx.shapes[0]),)

    def batched_backward(F, ctx, g, dim, keepdim, indices):
        shape = ctx.shapes[0]
        if not shape:
            return (g,)
        d = batch_dim(dim, len(shape))
        if not keepdim:
            g = F.unsqueeze(g, dim=d)
            indices = indices.reshape(keepdim_shape(shape, dim))
        return (_put_along_batched(F, g, indices, d, shape),)

    @classmethod
    def call(cls, input, dim, keepdim):
        return cls.pick(input, dim, keepdim, cls.find)

    @classmethod
    def pick(cls, input, dim, keepdim, find, **shown):
        """(values, indices) at what `find` picks; `shown` are parameters only formulas show (k)."""
        if cls.refuses_bool is not None:
            refuse_bool(input, cls.refuses_bool)
        x = input.array
        if x.ndim and x.shape[dim] == 0:
            raise cls.empty_error(f"{cls.refuses_bool or cls.names[0]}(): Expected reduction dim {dim} to have "
                                  "non-zero size.")
        xp = array_module(input.device)
        if x.ndim == 0:  # its own (only) value, at index 0
            indices = xp.zeros((), dtype=numpy.int64)
        else:
            indices = find(xp, x, dim)
            if not keepdim:
                indices = xp.squeeze(indices, axis=dim)
        values = run_op(cls, (input,), {"dim": dim, "keepdim": keepdim, "indices": indices, **shown})
        return values, indices_tensor(indices, input.device)


class MaxDim(PickAlongDim):
    """The largest value of each slice along dim, and its index (the first; a NaN's where one is)."""
    name = "max_dim"
    signature = "max(Tensor input, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"
    node = "MaxBackward0"
    find = staticmethod(lambda xp, x, dim: xp.argmax(x, axis=dim, keepdims=True))


class MinDim(PickAlongDim):
    """The smallest value of each slice along dim, and its index (the first; a NaN's where one is)."""
    name = "min_dim"
    signature = "min(Tensor input, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"
    node = "MinBackward0"
    find = staticmethod(lambda xp, x, dim: xp.argmin(x, axis=dim, keepdims=True))


class MedianDim(PickAlongDim):
    """The lower median of each slice along dim, and its index (the first NaN's where one is)."""
    name = "median_dim"
    signature = "median(Tensor input, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"
    node = "MedianBackward1"
    empty_error = IndexError
    refuses_bool = "median"
    find = staticmethod(lambda xp, x, dim: median_indices(xp, x, dim))


class NanmedianAll(MedianAll):
    """The lower median of all elements that are not NaN (NaN if all are); the gradient is shared
    evenly among the elements equal to it."""
    name = "nanmedian_all"
    signature = "nanmedian(Tensor input) -> Tensor"
    node = "NanmedianBackward0"

    def forward(xp, x):
        flat = x.reshape(-1)
        if x.dtype.kind == "f":
            flat = flat[~xp.isnan(flat)]
        if flat.size == 0:
            return xp.full((), xp.nan, dtype=x.dtype)
        k = (flat.size - 1) // 2
        return xp.partition(flat, k)[k]


class NanmedianDim(PickAlongDim):
    """The lower median of the values that are not NaN in each slice along dim, and its index."""
    name = "nanmedian_dim"
    signature = "nanmedian(Tensor input, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"
    node = "NanmedianBackward1"
    empty_error = IndexError
    refuses_bool = "median"

    def find(xp, x, dim):
        order = sort_indices(xp, x, dim)  # NaN last
        counted = x.shape[dim] - (xp.isnan(x).sum(axis=dim, keepdims=True) if x.dtype.kind == "f" else 0)
        return xp.take_along_axis(order, xp.maximum(counted - 1, 0) // 2, axis=dim)


class Mode(PickAlongDim):
    """The most frequent value of each slice along dim (the smallest of those as frequent), and the
    index of its last occurrence."""
    name = "mode"
    signature = "mode(Tensor input, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)"
    node = "ModeBackward0"
    empty_error = IndexError

    def find(xp, x, dim):
        order = sort_indices(xp, x, dim)  # stable: equal values in their order, so a run ends at the last
        ordered = xp.moveaxis(xp.take_along_axis(x, order, axis=dim), dim, -1)
        n = ordered.shape[-1]
        starts = xp.ones(ordered.shape, dtype=bool)
        starts[..., 1:] = ordered[..., 1:] != ordered[..., :-1]
        position = xp.arange(n)
        # where each run starts: the starts' positions in order (a sort leaves the others, n, last)
        run_starts = xp.sort(xp.where(starts, position, n), axis=-1)
        run_start = xp.take_along_axis(run_starts, xp.cumsum(starts, axis=-1) - 1, axis=-1)
        end = xp.argmax(position - run_start, axis=-1)  # the end of the first longest run
        return xp.take_along_axis(order, xp.moveaxis(end[..., None], -1, dim), axis=dim)


class Kthvalue(PickAlongDim):
    """The k-th smallest element along dim, as (values, indices).

    (values, indices) of the k-th smallest element of each slice along dim (NaN is the largest).

    The row gathers the values at `indices`, which its call finds (`k` is only shown in formulas)."""
    name = "kthvalue"
    signature = "kthvalue(Tensor input, int k, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)"
    method = True
    formula = call("k", "dim")
    node = "KthvalueBackward0"
    refuses_bool = "kthvalue"

    def forward(xp, x, dim, keepdim, indices, k=None):
        return PickAlongDim.forward(xp, x, dim, keepdim, indices)

    def backward(F, ctx, g, dim, keepdim, indices, k=None):
        return PickAlongDim.backward(F, ctx, g, dim, keepdim, indices)

    def batched_backward(F, ctx, g, dim, keepdim, indices, k=None):
        return PickAlongDim.batched_backward(F, ctx, g, dim, keepdim, indices)

    def call(input, k, dim, keepdim):
        if not 1 <= k <= (input.array.shape[dim] if input.array.ndim else 1) and input.array.dtype.kind != "b":
            raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {dim}")
        return Kthvalue.pick(input, dim, keepdim, lambda xp, x, d: xp.take(sort_indices(xp, x, d), xp.asarray([k - 1]),
                                                                           axis=d), k=k)


def refuse_bool(input, name):
    """PyTorch's refusal of a bool tensor where its kernel has no bool version (median, kthvalue)."""
    if input.array.dtype.kind == "b":
        raise NotImplementedError(f"\"{name}_{input.device.type}\" not implemented for 'Bool'")


def indices_tensor(indices, device):
    """An index array as the int64 tensor a function returns beside its values."""
    return make_tensor(indices.astype(numpy.int64, copy=False), device)


class TakeAlong(Op):
    """x gathered at `indices` along `dim` (same ndim); the subclasses Sort, Topk, Cummax and Cummin
    are those functions' values, at the indices their calls find."""
    name = "take_along"
    jvp = "linear"  # forward mode: the row applied to the tangents
    names = ("gather", "take_along_dim")  # functions_shapes.gather: PyTorch's argument checks, then this row
    method = True
    saves_params = True
    node = "GatherBackward0"

    def forward(xp, x, indices, dim):
        if indices.size == 0:  # PyTorch checks nothing more of an empty index: the result has its shape
            return xp.zeros(indices.shape, dtype=x.dtype)
        if x.ndim == 0:  # index zeros of at most one dim: x at each
            return xp.broadcast_to(x, indices.shape).copy()
        if any(k != dim and n < m for k, (n, m) in enumerate(zip(indices.shape, x.shape))):
            # gather reads only the part of x that indices cover (its gradient has zeros elsewhere)
            x = x[tuple(slice(None) if k == dim else slice(0, n) for k, n in enumerate(indices.shape))]
        return xp.take_along_axis(x, indices, axis=dim)

    def backward(F, ctx, g, indices, dim):
        if not ctx.shapes[0] or indices.size == 0:  # a 0-d x (read at each index) or nothing read
            total = F.sum(g)
            return (total if not ctx.shapes[0] else F.expand(total * 0, shape=ctx.shapes[0]),)
        return (F.put_along(g, indices=indices, dim=dim, shape=ctx.shapes[0]),)

    def batched_backward(F, ctx, g, indices, dim):
        shape = ctx.shapes[0]
        if not shape:
            return (g,)
        return (_put_along_batched(F, g, indices, batch_dim(dim, len(shape)), shape),)


class Sort(TakeAlong):
    """Sorted along dim, as (values, indices).

    (values, indices) sorted along dim, NaN last (first when descending); equal values keep their
    order (PyTorch's stable one), so `stable` changes nothing.

    The row gathers the values at the sorting permutation `indices`, which its call finds
    (`descending` is only shown in formulas)."""
    name = "sort"
    signature = ("sort(Tensor input, int dim=-1, bool descending=False, bool stable=False) "
                 "-> (Tensor values, Tensor indices)")
    method = True
    formula = call("dim", "descending")
    node = "SortBackward0"

    def forward(xp, x, indices, dim, descending=None):
        return TakeAlong.forward(xp, x, indices, dim)

    def backward(F, ctx, g, indices, dim, descending=None):
        return TakeAlong.backward(F, ctx, g, indices, dim)

    def batched_backward(F, ctx, g, indices, dim, descending=None):
        return TakeAlong.batched_backward(F, ctx, g, indices, dim)

    def call(input, dim, descending, stable):
        arr = input.array
        xp = array_module(input.device)
        indices = xp.zeros((), dtype=numpy.int64) if arr.ndim == 0 else sort_indices(xp, arr, dim, descending)
        values = run_op(Sort, (input,), {"indices": indices, "dim": dim, "descending": True if descending else None})
        return values, indices_tensor(indices, input.device)


class Topk(TakeAlong):
    """The k largest (or smallest) elements along dim, as (values, indices).

    (values, indices) of the k largest (smallest) elements along dim, largest (smallest) first;
    with sorted=False too (PyTorch leaves that order unspecified).

    The row gathers the values at the `indices` its call finds."""
    name = "topk"
    signature = ("topk(Tensor input, int k, int dim=-1, bool largest=True, bool sorted=True) "
                 "-> (Tensor values, Tensor indices)")
    method = True
    formula = call("k", "dim", "largest")
    node = "TopkBackward0"

    def forward(xp, x, indices, dim, k=None, largest=None):
        return TakeAlong.forward(xp, x, indices, dim)

    def backward(F, ctx, g, indices, dim, k=None, largest=None):
        return TakeAlong.backward(F, ctx, g, indices, dim)

    def batched_backward(F, ctx, g, indices, dim, k=None, largest=None):
        return TakeAlong.batched_backward(F, ctx, g, indices, dim)

    def call(input, k, dim, largest, sorted):
        arr = input.array
        if not 0 <= k <= (arr.shape[dim] if arr.ndim else 1):
            raise RuntimeError("selected index k out of range")
        xp = array_module(input.device)
        if arr.ndim == 0:
            indices = xp.zeros((), dtype=numpy.int64)
        else:
            indices = xp.take(sort_indices(xp, arr, dim, largest), xp.arange(k), axis=dim)
        values = run_op(Topk, (input,), {"indices": indices, "dim": dim, "k": k, "largest": None if largest else False})
        return values, indices_tensor(indices, input.device)


class Cummax(TakeAlong):
    """(values, indices) of the running maximum along dim (ties: the last index).

    (values, indices): the running maximum along dim and where it was (the last of equal values;
    NaN, once met, is the maximum).

    The row gathers the values at the running maximum's `indices`, which its call finds; the
    gradient of each value goes to its index, so an element that stays the maximum collects several.
    (`dim` is optional only for PyTorch's message when it is missing.)"""
    name = "cummax"
    signature = "cummax(Tensor input, int? dim=None) -> (Tensor values, Tensor indices)"
    method = True
    formula = call("dim")
    node = "CummaxBackward0"

    def call(input, dim):
        return running_extreme(Cummax, input, dim)


class Cummin(TakeAlong):
    """(values, indices) of the running minimum along dim (ties: the last index).

    (values, indices): the running minimum along dim and where it was (the last of equal values)."""
    name = "cummin"
    signature = "cummin(Tensor input, int? dim=None) -> (Tensor values, Tensor indices)"
    method = True
    formula = call("dim")
    node = "CumminBackward0"

    def call(input, dim):
        return running_extreme(Cummin, input, dim)


def running_extreme(row, input, dim):
    """cummax's and cummin's work: the indices of the running maximum (minimum), then the values there."""
    if dim is None:
        raise TypeError(f'{row.name}() missing 1 required positional arguments: "dim"')
    arr = input.array
    xp = array_module(input.device)
    if arr.ndim == 0 or arr.size == 0:
        indices = xp.zeros(arr.shape, dtype=numpy.int64)
    else:
        indices = running_extreme_indices(xp, arr, dim, row is Cummax)
    return run_op(row, (input,), {"indices": indices, "dim": dim}), indices_tensor(indices, input.device)


def running_extreme_indices(xp, x, dim, largest):
    """For each position along `dim`, the index of the running maximum (minimum) so far, as
    PyTorch's CPU kernel picks it: the last of equal values (it compares with >= or <=), and once
    there is a NaN the last NaN so far."""
    running = kernels.accumulate(xp, "maximum" if largest else "minimum", x, dim)  # NaN carries on
    takes = x == running
    if x.dtype.kind == "f":
        takes |= xp.isnan(x)
    n = x.shape[dim]
    position = xp.arange(n).reshape((n,) + (1,) * (x.ndim - 1 - dim))
    return kernels.accumulate(xp, "maximum", xp.where(takes, position, 0), dim)


def open_grid(xp, shape):
    """numpy.indices(shape, sparse=True) as a list, on any array module (CuPy's has no `sparse`):
    along each axis an arange, shaped to broadcast against the others."""
    ndim = len(shape)
    return [xp.arange(n).reshape((1,) * d + (n,) + (1,) * (ndim - d - 1)) for d, n in enumerate(shape)]


class PutAlong(Op):
    """Zeros of `shape` with `g` added at `indices` along `dim`: the inverse of take_along."""
    name = "put_along"
    jvp = "linear"  # forward mode: the row applied to the tangents
    saves_params = True
    node = "ScatterAddBackward0"

    def forward(xp, g, indices, dim, shape):
        out = xp.zeros(shape, dtype=g.dtype)
        where = open_grid(xp, indices.shape)
        where[dim] = indices
        scatter_add(xp, out, tuple(where), g)  # repeated indices add up
        return out

    def backward(F, ctx, g, indices, dim, shape):
        return (F.take_along(g, indices=indices, dim=dim),)

    def batched_backward(F, ctx, g, indices, dim, shape):
        if not len(shape):
            return NotImplemented
        b = g.shape[0]
        return (F.take_along(g, indices=F.xp.broadcast_to(indices, (b,) + indices.shape),
                             dim=batch_dim(dim, len(shape))),)


def _put_along_batched(F, g, indices, dim, shape):
    """put_along for a batched `g` ((B,) + indices' shape; `dim` already an axis of g)."""
    b = g.shape[0]
    return F.put_along(g, indices=F.xp.broadcast_to(indices, (b,) + indices.shape), dim=dim,
                       shape=(b,) + tuple(shape))


class Var(Op):
    """The variance along dim (correction=1 by default: the sample variance).

    The variance over dim (all if None; an axis or a tuple): sum((x - mean)**2) / (N - correction).

    PyTorch's overloads, told apart here: var(x, dim=None, *, correction=1, keepdim=False), the older
    var(x, dim, unbiased, keepdim) and var(x, unbiased) (a bool in dim's place)."""
    name = "var"
    signature = ("var(Tensor input, Any dim=None, bool? unbiased=None, bool keepdim=False, *, "
                 "Scalar? correction=None) -> Tensor")
    method = True
    formula = call("dim", "correction", "keepdim")
    node = "VarBackward0"
    saves = (0,)

    def forward(xp, x, dim=None, correction=1, keepdim=False):
        return kernels.variance(xp, x, dim, correction, keepdim, reduced_count(x.shape, dim))

    def backward(F, ctx, g, x, dim=None, correction=1, keepdim=False):
        return (_var_grad(F, ctx, g, x, dim, correction, keepdim),)

    def batched_backward(F, ctx, g, x, dim=None, correction=1, keepdim=False):
        return (_var_grad(F, ctx, g, x, dim, correction, keepdim, batched=True),)

    def call(input, dim, unbiased, keepdim, correction):
        return spread(Var, input, dim, unbiased, keepdim, correction)


class Std(Op):
    """The standard deviation: the square root of var.

    The standard deviation: sqrt(var(...)), with var's arguments."""
    name = "std"
    signature = ("std(Tensor input, Any dim=None, bool? unbiased=None, bool keepdim=False, *, "
                 "Scalar? correction=None) -> Tensor")
    method = True
    formula = call("dim", "correction", "keepdim")
    node = "StdBackward0"
    saves = (0, "out")

    def forward(xp, x, dim=None, correction=1, keepdim=False):
        return xp.sqrt(kernels.variance(xp, x, dim, correction, keepdim, reduced_count(x.shape, dim)))

    def backward(F, ctx, g, x, out, dim=None, correction=1, keepdim=False):
        # PyTorch's std_backward: var's gradient of g / (2 std), 0 where std is 0
        gv = F.where(out == 0, 0.0, g / (out * 2))
        return (_var_grad(F, ctx, gv, x, dim, correction, keepdim),)

    def batched_backward(F, ctx, g, x, out, dim=None, correction=1, keepdim=False):
        gv = F.where(out == 0, 0.0, g / (out * 2))
        return (_var_grad(F, ctx, gv, x, dim, correction, keepdim, batched=True),)

    def call(input, dim, unbiased, keepdim, correction):
        return spread(Std, input, dim, unbiased, keepdim, correction)


def spread(row, input, dim, unbiased, keepdim, correction):
    """var's and std's arguments, as PyTorch 2.x takes them (see Var), applied to `row`."""
    name = row.name
    if input.array.dtype.kind != "f":
        raise RuntimeError("std and var only support floating point and complex dtypes")
    if isinstance(dim, (bool, numpy.bool_)):
        if unbiased is not None:
            raise TypeError(f"{name}() received an invalid combination of arguments: unbiased given twice")
        dim, unbiased = None, bool(dim)
    if unbiased is not None and correction is not None:
        raise TypeError(f"{name}() received an invalid combination of arguments: give unbiased or "
                        f"correction, not both")
    if correction is None:
        correction = 0 if unbiased is not None and not unbiased else 1
    else:
        if isinstance(correction, TensorBase):
            correction = correction.item()
        if not is_number(correction):
            raise TypeError(f"{name}(): argument 'correction' must be Number, not {type(correction).__name__}")
        correction = int(correction) if float(correction).is_integer() else float(correction)
    shape = input.array.shape
    dims = None if not shape else reduction_dims(dim, len(shape))
    if reduced_count(shape, dims) - correction <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
                      f"reduction factor (input numel divided by output numel).", UserWarning, stacklevel=4)
    return run_op(row, (input,), {"dim": dims, "correction": correction, "keepdim": keepdim})


def _var_grad(F, ctx, g, x, dim, correction, keepdim, batched=False):
    """PyTorch's var_backward (`batched`: g has a leading batch dim)."""
    shape = ctx.shapes[0]
    if batched:
        g = unreduce_batched(F, ctx, g, None if not shape else dim, keepdim)
    if not shape or dim is None:
        dof = reduced_count(shape, None) - correction
        centered = x - F.mean(x)
        if dof <= 0:  # 2 / dof is infinite: NaN where x is the mean (inf * 0), inf elsewhere
            return F.where(centered == 0, g * math.nan, g * math.inf)
        return g * centered * (2.0 / dof)
    if not batched:
        g = unreduce(F, ctx, g, dim, keepdim)
    n = reduced_count(shape, dim)
    scale = 2.0 / (n - correction) if n != correction else math.inf
    return g * (x - F.mean(x, dim=dim, keepdim=True)) * scale


class Cumsum(Op):
    """Running sums along dim.

    Running sums along dim (integers and booleans sum as int64, or as `dtype`).

    The row casts the input to `dtype` first, and sums from the end when `reverse` (the
    derivative's form)."""
    name = "cumsum"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "cumsum(Tensor input, int dim, *, ScalarType? dtype=None) -> Tensor"
    method = True
    formula = call("dim", "reverse")
    node = "CumsumBackward0"

    def forward(xp, x, dim, dtype=None, reverse=None):
        if dtype is not None and x.dtype != dtype:
            x = x.astype(dtype)
        if x.ndim == 0:
            return x.copy()
        if reverse:
            return xp.flip(xp.cumsum(xp.flip(x, axis=dim), axis=dim), axis=dim)
        return xp.cumsum(x, axis=dim)

    def backward(F, ctx, g, dim, dtype=None, reverse=None):
        return (F.cumsum(g, dim=dim, reverse=None if reverse else True),)

    def batched_backward(F, ctx, g, dim, dtype=None, reverse=None):
        d = batch_dim(dim, len(ctx.shapes[0]))
        if d is None:
            return (g,)  # a 0-d input: the running sum is the value itself
        return (F.cumsum(g, dim=d, reverse=None if reverse else True),)

    def call(input, dim, dtype):
        return scan(Cumsum, input, dim, dtype)


def scan(row, input, dim, dtype):
    """cumsum or cumprod (`row`) in the dtype PyTorch works in: `dtype`, else int64 for integers and
    booleans; never bool."""
    dtype = summed_dtype(input, dtype)
    if dtype is not None and dtype.kind == "b":
        raise NotImplementedError(f"\"{row.name}_out_{input.device.type}\" not implemented for 'Bool'")
    return run_op(row, (input,), {"dim": dim, "dtype": dtype})


class Cumprod(Op):
    """Running products along dim.

    Running products along dim (integers and booleans multiply as int64, or as `dtype`); the
    gradient is exact where the input has zeros.

    The row casts the input to `dtype` first."""
    name = "cumprod"
    signature = "cumprod(Tensor input, int dim, *, ScalarType? dtype=None) -> Tensor"
    method = True
    formula = call("dim")
    node = "CumprodBackward0"
    saves = (0, "out")

    def forward(xp, x, dim, dtype=None):
        if dtype is not None and x.dtype != dtype:
            x = x.astype(dtype)
        if x.ndim == 0:
            return x.copy()
        return xp.cumprod(x, axis=dim)

    def backward(F, ctx, g, x, out, dim, dtype=None):
        # PyTorch's cumprod_backward: d out_j / d x_k = prod_{i <= j, i != k} x_i for j >= k
        shape = ctx.shapes[0]
        if not shape or shape[dim] == 1 or reduced_count(shape, None) <= 1:
            return (g,)
        values = x.array if F.graph else x
        if not bool((values == 0).any()):
            # without zeros that product is out_j / x_k
            return (F.cumsum(g * out, dim=dim, reverse=True) / x,)
        if not F.graph:
            return (_cumprod_grad_zeros(F.xp, g, x, out, dim),)
        return (_cumprod_grad_exact(F, g, x, dim),)

    def batched_backward(F, ctx, g, x, out, dim, dtype=None):
        shape = ctx.shapes[0]
        if not shape or shape[dim] == 1 or reduced_count(shape, None) <= 1:
            return (g,)
        values = x.array if F.graph else x
        if bool((values == 0).any()):
            return NotImplemented  # zeros: one batch element at a time
        return (F.cumsum(g * out, dim=batch_dim(dim, len(shape)), reverse=True) / x,)

    def call(input, dim, dtype):
        return scan(Cumprod, input, dim, dtype)


def _cumprod_grad_zeros(xp, g, x, out, dim):
    """cumprod's gradient on arrays with zeros, in O(n) (not differentiable: a plain backward).

    Along each slice, with z1 its first zero and z2 its second (or the end): before z1 the
    formula without zeros holds; at z1 the gradient is prod(x[:z1]) * sum_{z1 <= j < z2}
    g_j * prod(x[z1+1 .. j]); after z1 it is 0."""
    x, g, out = (xp.moveaxis(a, dim, -1) for a in (x, g, out))
    zeros_so_far = xp.cumsum(x == 0, axis=-1)
    before = zeros_so_far == 0
    first = (x == 0) & (zeros_so_far == 1)
    w = xp.where(before, out * g, 0)
    suffix = xp.flip(xp.cumsum(xp.flip(w, axis=-1), axis=-1), axis=-1)
    grad = xp.where(before, suffix / xp.where(before, x, 1), 0)
    between = (zeros_so_far == 1) & ~first
    runs = xp.cumprod(xp.where(between, x, 1), axis=-1)          # prod(x[z1+1 .. j]) for z1 <= j < z2
    tail = xp.sum(runs * xp.where(zeros_so_far == 1, g, 0), axis=-1, keepdims=True)
    head = xp.prod(xp.where(before, x, 1), axis=-1, keepdims=True)  # prod(x[:z1])
    grad = xp.where(first, head * tail, grad)
    return xp.moveaxis(grad, -1, dim)


def _cumprod_grad_exact(F, g, x, dim):
    """cumprod's gradient in the table's ops, exact with zeros and differentiable (as
    PyTorch under create_graph: O(n^2) along dim). Row k of an (n, n) matrix is x with x_k
    set to 1; its running products are prod_{i <= j, i != k} x_i, kept where j >= k."""
    nd = len(x.shape)
    last = nd - 1
    if dim != last:
        x = F.transpose(x, dim0=dim, dim1=last)
        g = F.transpose(g, dim0=dim, dim1=last)
    n = x.shape[-1]
    rows = F.where(F.eye_mask(n), 1.0, F.unsqueeze(x, dim=-2))          # (..., k, i)
    later = F.xp.triu(F.xp.ones((n, n), dtype=bool))                       # j >= k
    products = F.where(later, F.cumprod(rows, dim=nd), 0.0)                # (..., k, j)
    grad = F.sum(F.unsqueeze(g, dim=-2) * products, dim=nd)                # (..., k)
    return grad if dim == last else F.transpose(grad, dim0=dim, dim1=last)


class Logcumsumexp(Op):
    """Log(cumsum(exp(x))) along dim, computed stably.

    log(cumsum(exp(input), dim)) computed without overflow; floating tensors only.

    On the CPU as PyTorch's kernel: one element at a time, max + log1p(exp(min - max)) (numpy's
    logaddexp, the same steps), float32 in double (from the end when `reverse`, the derivative's
    form); on a GPU the same logaddexp by doubling (kernels.accumulate: CuPy has no
    logaddexp.accumulate), which may differ from the CPU's in the last bits.
    (`dim` is optional only for PyTorch's message when it is missing.)"""
    name = "logcumsumexp"
    signature = "logcumsumexp(Tensor input, int? dim=None) -> Tensor"
    method = True
    formula = call("dim")
    node = "LogcumsumexpBackward0"
    saves = (0, "out")

    def forward(xp, x, dim, reverse=None):
        if x.ndim == 0:
            return x.copy()
        work = x.astype(xp.float64) if x.dtype == xp.float32 else x  # PyTorch's accumulate type
        if reverse:
            work = xp.flip(work, axis=dim)
        with numpy.errstate(all="ignore"):
            out = kernels.accumulate(xp, "logaddexp", work, dim)
        if reverse:
            out = xp.flip(out, axis=dim)
        return out.astype(x.dtype, copy=False)

    def backward(F, ctx, g, x, out, dim, reverse=None):
        # PyTorch's logcumsumexp_backward: the positive and negative parts of the gradient in log
        # space (the dtype's lowest number standing for log 0), summed from the other end
        if not ctx.shapes[0]:
            return (g,)
        lowest = float(numpy.finfo(getattr(g, "array", g).dtype).min)
        log_abs = F.log(F.abs(g))
        back = None if reverse else True
        parts = [F.exp(F.logcumsumexp(F.where(side, log_abs, lowest) - out, dim=dim, reverse=back) + x)
                 for side in (g > 0, g < 0)]
        return (parts[0] - parts[1],)

    def call(input, dim):
        if dim is None:
            raise TypeError('logcumsumexp() missing 1 required positional arguments: "dim"')
        if input.array.dtype.kind != "f":
            raise NotImplementedError(f"\"logcumsumexp_out_{input.device.type}\" not implemented for "
                                      f"'{_dt.scalar_name(_dt.dtype_of(input.array))}'")
        return run_op(Logcumsumexp, (input,), {"dim": dim})


class Norm(Op):
    """The p-norm (2 by default) of all elements, or along dim.

    The p-norm over everything or over `dim`: p = 2 (default), 1, inf, or any p > 0."""
    name = "norm"
    signature = "norm(Tensor input, Any p='fro', int[1]? dim=None, bool keepdim=False) -> Tensor"
    method = True
    formula = custom("norm")
    node = "LinalgVectorNormBackward0"
    saves = (0, "out")

    def forward(xp, x, p=2, dim=None, keepdim=False):
        if p == 2:
            return xp.sqrt((x * x).sum(axis=dim, keepdims=keepdim))
        a = xp.abs(x)
        if p == 1:
            return a.sum(axis=dim, keepdims=keepdim)
        if p == math.inf:
            return a.max(axis=dim, keepdims=keepdim)
        if p == -math.inf:
            return a.min(axis=dim, keepdims=keepdim)
        if p == 0:  # how many are not zero
            return (x != 0).sum(axis=dim, keepdims=keepdim).astype(x.dtype)
        with numpy.errstate(divide="ignore"):  # p < 0: a zero's |x|^p is inf, and the norm 0
            return kernels.power(xp, kernels.power(xp, a, p).sum(axis=dim, keepdims=keepdim), 1.0 / p)

    def backward(F, ctx, g, x, out, p=2, dim=None, keepdim=False):
        return Norm._grad(F, ctx, unreduce(F, ctx, g, dim, keepdim), x, out, p, dim, keepdim)

    def batched_backward(F, ctx, g, x, out, p=2, dim=None, keepdim=False):
        return Norm._grad(F, ctx, unreduce_batched(F, ctx, g, dim, keepdim), x, out, p, dim, keepdim)

    @staticmethod
    def _grad(F, ctx, g, x, out, p, dim, keepdim):
        """PyTorch's norm_backward. Where it masks a 0/0 or an inf, the masked value is computed from
        a safe stand-in (1), so that no NaN reaches a higher derivative through the other branch."""
        out = unreduce(F, ctx, out, dim, keepdim)
        if p == 0:
            return (F.zeros_like(x * g),)  # a count: no gradient
        if p == 1:
            return (g * F.sign(x),)
        if abs(p) == math.inf:  # the largest |x| (the smallest for -inf): shared among ties
            a = F.abs(x)
            mask = a == out
            count = F.sum(mask * 1.0, dim=dim, keepdim=True)  # 0 where the norm is NaN: then 0, as PyTorch's
            return (g * F.sign(x) * mask / F.where(count == 0, 1.0, count),)
        if p == 2:
            return (F.where(out == 0, 0.0, g * x / F.where(out == 0, 1.0, out)),)
        zero = x == 0
        a = F.where(zero, 1.0, F.abs(x))
        if p < 1:  # sign(x) |x|^(p-1) (0 at x = 0) times the norm^(1-p)
            return (F.where(zero, 0.0, F.sign(x) * F.pow_scalar(a, exponent=p - 1)) * g *
                    F.pow_scalar(out, exponent=1 - p),)
        scale = F.where(out == 0, 1.0, out)
        return (F.where((out == 0) | zero, 0.0, g * x * F.pow_scalar(a, exponent=p - 2) /
                        F.pow_scalar(scale, exponent=p - 1)),)

    def call(input, p, dim, keepdim):
        if p == "nuc":
            return Norm._nuclear(input, dim, keepdim)
        if input.array.dtype.kind != "f":
            raise RuntimeError(f"norm(): expected a floating point tensor, got {input.dtype.name}")
        if p in ("fro", None):
            p = 2
        if isinstance(p, str):
            if p not in ("inf", "Inf", "-inf", "-Inf"):
                raise RuntimeError(f"norm: p={p!r} is not supported here; use a number, 'fro', 'nuc' or inf")
            p = -math.inf if p[0] == "-" else math.inf
        p = float(p)
        if abs(p) != math.inf and p == int(p):
            p = int(p)
        if (p < 0 or p == math.inf) and input.array.size == 0:
            Norm._check_identity(input.array.shape, p, dim)
        return run_op(Norm, (input,), {"p": p, "dim": dim, "keepdim": keepdim})

    @staticmethod
    def _check_identity(shape, p, dim):
        """PyTorch's refusal of a norm with no identity (p < 0 or inf: a max or a min) over no element."""
        name = "inf" if p == math.inf else "-inf" if p == -math.inf else repr(int(p) if p == int(p) else p)
        head = f"linalg.vector_norm cannot compute the {name} norm on "
        if dim is None or isinstance(dim, (tuple, list)) and not dim:
            raise RuntimeError(head + "an empty tensor because the operation does not have an identity")
        for d in (dim,) if isinstance(dim, int) else dim:
            if shape[d] == 0:  # (PyTorch's message has no space before "because")
                raise RuntimeError(head + f"the dimension {d}because this dimension is empty and the operation "
                                          f"does not have an identity")


    @staticmethod
    def _nuclear(input, dim, keepdim):
        """p='nuc': PyTorch's torch.norm calls linalg.matrix_norm(input, 'nuc', dim or every dim): the
        sum of the singular values over the two dims (moved to the back), with its checks."""
        from .table import TABLE  # (rows of engine/ops/shapes.py and decomp.py: importing them is a cycle)
        nd = input.array.ndim
        if nd < 2:
            raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
        if input.array.dtype.kind != "f":
            raise RuntimeError(f"linalg.matrix_norm: Expected a floating point or complex tensor as input. Got "
                               f"{_dt.scalar_name(as_dtype(input.array.dtype))}")
        dims = list(range(nd)) if dim is None else [dim] if isinstance(dim, int) else list(dim)
        if len(dims) != 2:
            raise RuntimeError("linalg.matrix_norm: dim must be a 2-tuple. Got " + " ".join(str(d) for d in dims))
        d0, d1 = (d + nd if d < 0 else d for d in dims)
        if d0 == d1:
            raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dims[0]}, {dims[1]})")
        order = [d for d in range(nd) if d not in (d0, d1)] + [d0, d1]
        x = input if order == list(range(nd)) else run_op(TABLE["permute"], (input,), {"dims": tuple(order)})
        out = run_op(Sum, (run_op(TABLE["linalg_svd_s"], (x,), NO_PARAMS),), {"dim": (-1,), "keepdim": False})
        if keepdim:
            shape = tuple(1 if d in (d0, d1) else n for d, n in enumerate(input.array.shape))
            out = run_op(TABLE["reshape"], (out,), {"shape": shape})
        return out


class Dist(Op):
    """torch.dist: the p-norm of a - b over all their elements (they broadcast); p = 0 counts the
    elements that differ (no gradient), -inf is the smallest |a - b|. The gradient is norm's of
    a - b (PyTorch's norm_backward), and its negation for b."""
    name = "dist"
    signature = "dist(Tensor input, Tensor other, Any p=2) -> Tensor"
    method = True
    formula = call("p")
    node = "DistBackward0"
    saves = (0, 1, "out")

    def forward(xp, a, b, p=2):
        d = a - b
        if p == 0:
            return xp.sum(d != 0).astype(d.dtype)
        if p == -math.inf:
            return xp.min(xp.abs(d))
        with numpy.errstate(divide="ignore"):  # p < 0 with equal elements: |0| ** p is inf, as PyTorch's
            return Norm.forward(xp, d, p)

    def backward(F, ctx, g, a, b, out, p=2):
        d = a - b
        grad = F.zeros_like(d) if p == 0 else Norm._grad(F, ctx, g, d, out, p, None, False)[0]
        return (grad if ctx.needs[0] else None), (-grad if ctx.needs[1] else None)

    def call(input, other, p):
        for position, (what, value) in enumerate((("input", input), ("other", other)), 1):
            if not isinstance(value, TensorBase):
                raise TypeError(f"dist(): argument '{what}' (position {position}) must be Tensor, not "
                                f"{type(value).__name__}")
        if isinstance(p, TensorBase):
            p = p.item()
        if not is_number(p) or isinstance(p, (bool, numpy.bool_)):
            raise TypeError(f"dist(): argument 'p' (position 3) must be Number, not {type(p).__name__}")
        check_broadcastable(input.array.shape, other.array.shape)
        for t in (input, other):
            if t.array.dtype.kind != "f":
                raise RuntimeError(f"norm(): input dtype should be either floating point or complex. Got "
                                   f"{_dt.scalar_name(_dt.dtype_of(t.array))} instead.")
        return run_op(Dist, (input, other), {"p": float(p)})


class Logsumexp(Op):
    """Log(sum(exp(x))) along dim, computed stably.

    log(sum(exp(x))) along `dim`, without overflow."""
    name = "logsumexp"
    signature = "logsumexp(Tensor input, int[1]? dim=None, bool keepdim=False) -> Tensor"
    method = True
    formula = custom("reduction")
    node = "LogsumexpBackward0"
    saves = (0, "out")

    def forward(xp, x, dim, keepdim=False):
        return kernels.logsumexp(xp, x, dim, keepdim)

    def backward(F, ctx, g, x, out, dim, keepdim=False):
        g = unreduce(F, ctx, g, dim, keepdim)
        out = unreduce(F, ctx, out, dim, keepdim)
        return (g * F.exp(x - out),)

    def batched_backward(F, ctx, g, x, out, dim, keepdim=False):
        g = unreduce_batched(F, ctx, g, dim, keepdim)
        out = unreduce(F, ctx, out, dim, keepdim)
        return (g * F.exp(x - out),)

    def call(input, dim, keepdim):
        _along_a_dim(input, dim, "logsumexp", "the axis or axes to reduce")
        return run_op(Logsumexp, (input,), {"dim": dim, "keepdim": keepdim})


def _along_a_dim(input, dim, fname, what):
    """softmax's, log_softmax's and logsumexp's checks: a dim given, a floating input."""
    if dim is None:
        raise TypeError(f"{fname}() needs dim= ({what})")
    if input.array.dtype.kind != "f":
        raise RuntimeError(f"{fname}(): expected a floating point tensor, got {input.dtype.name}")


class Softmax(Op):
    """Exp(x) / sum(exp(x)) along dim.

    exp(x) / sum(exp(x)) along `dim`."""
    name = "softmax"
    signature = "softmax(Tensor input, int? dim=None, ScalarType? dtype=None) -> Tensor"
    method = True
    formula = call("dim")
    node = "SoftmaxBackward0"
    saves = ("out",)

    def forward(xp, x, dim):
        return kernels.softmax(xp, x, dim)

    def backward(F, ctx, g, out, dim):
        # PyTorch's softmax_backward_data: (g - sum(g * y)) * y (on arrays: the same, in one array)
        if not F.graph:
            return (kernels.softmax_backward(F.xp, g, out, dim),)
        return ((g - F.sum(g * out, dim=dim, keepdim=True)) * out,)

    def jvp(F, ctx, tangents, out, dim):  # the Jacobian diag(y) - y y^T is symmetric: J v = J^T v
        return Softmax.backward(F, ctx, tangents[0], out, dim)[0]

    def batched_backward(F, ctx, g, out, dim):
        d = batch_dim(dim, len(ctx.shapes[0]))
        return NotImplemented if d is None else Softmax.backward(F, ctx, g, out, d)

    def call(input, dim, dtype):
        _along_a_dim(input, dim, "softmax", "the axis to work along")
        if dtype is not None and input.array.dtype != dtype:  # the input cast first, as PyTorch's
            input = input.to(dtype=as_dtype(dtype))
        return run_op(Softmax, (input,), {"dim": dim})


class LogSoftmax(Op):
    """Log(softmax(x)) along dim, computed stably.

    log(softmax(x)) along `dim`, computed without its log(0)."""
    name = "log_softmax"
    signature = "log_softmax(Tensor input, int? dim=None, ScalarType? dtype=None) -> Tensor"
    method = True
    formula = call("dim")
    node = "LogSoftmaxBackward0"
    saves = ("out",)

    def forward(xp, x, dim):
        return kernels.log_softmax(xp, x, dim)

    def backward(F, ctx, g, out, dim):
        # PyTorch's log_softmax_backward_data: g - exp(y) * sum(g) (on arrays: the same, in one array)
        if not F.graph:
            return (kernels.log_softmax_backward(F.xp, g, out, dim),)
        return (g - F.exp(out) * F.sum(g, dim=dim, keepdim=True),)

    def jvp(F, ctx, tangents, out, dim):  # v - sum(softmax * v)
        v = tangents[0]
        return v - F.sum(F.exp(out) * v, dim=dim, keepdim=True)

    def batched_backward(F, ctx, g, out, dim):
        d = batch_dim(dim, len(ctx.shapes[0]))
        return NotImplemented if d is None else LogSoftmax.backward(F, ctx, g, out, d)

    def call(input, dim, dtype):
        _along_a_dim(input, dim, "log_softmax", "the axis to work along")
        if dtype is not None and input.array.dtype != dtype:  # the input cast first, as PyTorch's
            input = input.to(dtype=as_dtype(dtype))
        return run_op(LogSoftmax, (input,), {"dim": dim})


