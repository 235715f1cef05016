"""Statistics, scans and sorting: the public functions (argument checks in
PyTorch's words, then the op-table rows in engine/ops/reductions.py), and
round(), whose `decimals=` needs a hand-written function (its row is in
engine/ops/unary.py).

sort, topk, kthvalue and median(x, dim) compute their indices here, on the
arrays, and hand them to a gathering row (Sort, Topk: take_along; Kthvalue and
median's extreme_dim: one index per slice), whose gradient goes to those
indices. Among equal values the order is the stable one (PyTorch leaves it
unspecified, except for stable=True).
"""
import warnings
from collections import namedtuple

import numpy

from .. import dtypes as _dt
from ..ops import TABLE as _op
from ..ops.reductions import sort_indices as _sort_indices, median_indices as _median_indices
from ..ops.reductions import running_extreme_indices as _running_extreme_indices
from ..core.tensor import TensorBase as Tensor, apply, make_tensor, array_module, wrap_dim
from .arguments import tensor_in, reduction_dims
from .basic import _ValuesIndices
from .surface import made
from ..host_data import is_number as _is_number

div, _sum = (made(n) for n in ('div', 'sum'))  # (functions the rows give)

__all__ = ["cumsum", "cumprod", "median", "kthvalue", "sort", "topk", "var", "std", "round", "argsort", "nonzero",
           "count_nonzero", "nansum", "nanmean", "aminmax", "cummax", "cummin", "logcumsumexp"]


# ----------------------------------------------------------- (values, indices)

class MedianResult(_ValuesIndices):
    __slots__ = ()
    kind = "median"


class KthvalueResult(_ValuesIndices):
    __slots__ = ()
    kind = "kthvalue"


class SortResult(_ValuesIndices):
    __slots__ = ()
    kind = "sort"


class TopkResult(_ValuesIndices):
    __slots__ = ()
    kind = "topk"


class CummaxResult(_ValuesIndices):
    __slots__ = ()
    kind = "cummax"


class CumminResult(_ValuesIndices):
    __slots__ = ()
    kind = "cummin"


RESULT_TYPES = (MedianResult, KthvalueResult, SortResult, TopkResult, CummaxResult, CumminResult)


class AminmaxResult(namedtuple("_Aminmax", ["min", "max"])):
    """torch.return_types.aminmax: (min, max)."""
    __slots__ = ()

    def __repr__(self):
        return f"torch.return_types.aminmax(\nmin={self.min!r},\nmax={self.max!r})"


def _indices_tensor(indices, device):
    return make_tensor(indices.astype(numpy.int64, copy=False), device)


def _int_arg(name, what, value, position):
    """A whole-number argument, refused in PyTorch's words otherwise."""
    if isinstance(value, Tensor) and value.array.ndim == 0 and value.array.dtype.kind in "iu":
        value = value.item()
    if isinstance(value, (bool, numpy.bool_)) or not isinstance(value, (int, numpy.integer)):
        raise TypeError(f"{name}(): argument '{what}' (position {position}) must be int, "
                        f"not {type(value).__name__}")
    return int(value)


def _no_bool(name, input):
    if input.array.dtype.kind == "b":
        raise NotImplementedError(f"\"{name}_{input.device.type}\" not implemented for 'Bool'")


# ------------------------------------------------------------------- scans

def _scan(name, input, dim, dtype):
    input = tensor_in(input)
    d = wrap_dim(_int_arg(name, "dim", dim, 1), input.array.ndim)
    if dtype is not None:
        target = _dt.as_dtype(dtype).np
    elif input.array.dtype.kind in "biu":
        target = numpy.dtype(numpy.int64)  # PyTorch sums and multiplies integers and booleans as int64
    else:
        target = None
    if target is not None and target.kind == "b":
        raise NotImplementedError(f"\"{name}_out_{input.device.type}\" not implemented for 'Bool'")
    return apply(_op[name], input, dim=d, dtype=target)


def cumsum(input, dim, *, dtype=None):
    """Running sums along dim (integers and booleans sum as int64, or as `dtype`)."""
    return _scan("cumsum", input, dim, dtype)


def cumprod(input, dim, *, dtype=None):
    """Running products along dim; the gradient is exact where the input has zeros."""
    return _scan("cumprod", input, dim, dtype)


# ----------------------------------------------------------------- selection

def median(input, dim=None, keepdim=False):
    """median(x): the lower median of all elements (NaN if any is NaN); median(x, dim):
    (values, indices) of the lower median of each slice (the first NaN where one is)."""
    input = tensor_in(input)
    _no_bool("median", input)
    if dim is None:
        if keepdim:
            raise TypeError('median() missing 1 required positional arguments: "dim"')
        return apply(_op["median_all"], input)
    arr = input.array
    nd = arr.ndim
    d = wrap_dim(_int_arg("median", "dim", dim, 2), nd)
    xp = array_module(input.device)
    if nd == 0:
        indices = xp.zeros((), dtype=numpy.int64)
    else:
        if arr.shape[d] == 0:
            raise IndexError(f"median(): Expected reduction dim {d} to have non-zero size.")
        indices = _median_indices(xp, arr, d)
        if not keepdim:
            indices = xp.squeeze(indices, axis=d)
    values = apply(_op["extreme_dim"], input, dim=d, keepdim=bool(keepdim), indices=indices,
                   name="MedianBackward1")
    return MedianResult(values, _indices_tensor(indices, input.device))


def kthvalue(input, k, dim=-1, keepdim=False):
    """(values, indices) of the k-th smallest element of each slice along dim (NaN is the largest)."""
    input = tensor_in(input)
    _no_bool("kthvalue", input)
    k = _int_arg("kthvalue", "k", k, 2)
    arr = input.array
    nd = arr.ndim
    d = wrap_dim(_int_arg("kthvalue", "dim", dim, 3), nd)
    size = arr.shape[d] if nd else 1
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    xp = array_module(input.device)
    if nd == 0:
        indices = xp.zeros((), dtype=numpy.int64)
    else:
        indices = xp.take(_sort_indices(xp, arr, d), xp.asarray([k - 1]), axis=d)
        if not keepdim:
            indices = xp.squeeze(indices, axis=d)
    values = apply(_op["kthvalue"], input, dim=d, keepdim=bool(keepdim), indices=indices, k=k)
    return KthvalueResult(values, _indices_tensor(indices, input.device))


def sort(input, dim=-1, descending=False, stable=False):
    """(values, indices) sorted along dim, NaN last (first when descending); the order of
    equal values is always the stable one, so `stable` changes nothing."""
    input = tensor_in(input)
    arr = input.array
    nd = arr.ndim
    d = wrap_dim(_int_arg("sort", "dim", dim, 2), nd)
    xp = array_module(input.device)
    indices = xp.zeros((), dtype=numpy.int64) if nd == 0 else _sort_indices(xp, arr, d, bool(descending))
    values = apply(_op["sort"], input, indices=indices, dim=d, descending=True if descending else None)
    return SortResult(values, _indices_tensor(indices, input.device))


def topk(input, k, dim=-1, largest=True, sorted=True):
    """(values, indices) of the k largest (smallest) elements along dim, largest
    (smallest) first; with sorted=False too (PyTorch leaves that order unspecified)."""
    input = tensor_in(input)
    k = _int_arg("topk", "k", k, 2)
    arr = input.array
    nd = arr.ndim
    d = wrap_dim(_int_arg("topk", "dim", dim, 3), nd)
    size = arr.shape[d] if nd else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    xp = array_module(input.device)
    if nd == 0:
        indices = xp.zeros((), dtype=numpy.int64)
    else:
        order = _sort_indices(xp, arr, d, bool(largest))
        indices = xp.take(order, xp.arange(k), axis=d)
    values = apply(_op["topk"], input, indices=indices, dim=d, k=k, largest=None if largest else False)
    return TopkResult(values, _indices_tensor(indices, input.device))


# ---------------------------------------------------------------- var / std

def _spread(name, input, dim, unbiased, keepdim, correction):
    """var/std arguments as PyTorch 2.x takes them: (input, dim=None, *, correction=1,
    keepdim=False), or the older (input, dim, unbiased, keepdim) and (input, unbiased)."""
    input = tensor_in(input)
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
        if isinstance(correction, Tensor):
            correction = correction.item()
        if not _is_number(correction):
            raise TypeError(f"{name}(): argument 'correction' must be Number, not {type(correction).__name__}")
        correction = int(correction) if float(correction).is_integer() else float(correction)
    arr = input.array
    dims = None if arr.ndim == 0 else reduction_dims(dim, arr.ndim)
    reduced = arr.size
    if dims is not None:
        reduced = 1
        for a in (dims if isinstance(dims, tuple) else (dims,)):
            reduced *= arr.shape[a]
    if reduced - correction <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
                      f"reduction factor (input numel divided by output numel).", UserWarning, stacklevel=3)
    return apply(_op[name], input, dim=dims, correction=correction, keepdim=bool(keepdim))


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """The variance over dim (all if None; an axis or a tuple): sum((x - mean)**2) / (N - correction)."""
    return _spread("var", input, dim, unbiased, keepdim, correction)


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """The standard deviation: sqrt(var(...)), with var's arguments."""
    return _spread("std", input, dim, unbiased, keepdim, correction)


# ---------------------------------------------------------------- rounding

def round(input, *, decimals=None):
    """To the nearest integer, halves to even; decimals=d rounds to multiples of 10**-d."""
    input = tensor_in(input)
    if decimals is not None:
        decimals = _int_arg("round", "decimals", decimals, 2)
        if input.array.dtype.kind in "biu":
            raise NotImplementedError(f"\"round_{input.device.type}\" not implemented for "
                                      f"'{_scalar_type_name(input)}'")
    return apply(_op["round"], input, decimals=decimals)


def _scalar_type_name(t):
    """PyTorch's C++ name of a dtype (Long, Int, Bool...), as its kernels' messages say it."""
    return _dt.as_dtype(t.array.dtype).tensor_type.replace("Tensor", "")


# ------------------------------------------------ sorting, counting, NaN-aware reductions

def argsort(input, dim=-1, descending=False, *, stable=False):
    """The indices that sort input along dim (sort's indices): NaN last (first when descending),
    equal values in their order (the stable order always, as PyTorch's CPU sort gives it)."""
    input = tensor_in(input)
    arr = input.array
    d = wrap_dim(_int_arg("argsort", "dim", dim, 2), arr.ndim)
    xp = array_module(input.device)
    indices = xp.zeros((), dtype=numpy.int64) if arr.ndim == 0 else _sort_indices(xp, arr, d, bool(descending))
    return _indices_tensor(indices, input.device)


def nonzero(input, *, as_tuple=False):
    """The indices of the nonzero elements (NaN counts), one row per element, or (as_tuple) one
    tensor per dim; a 0-d input counts as one element."""
    input = tensor_in(input)
    arr = input.array
    xp = array_module(input.device)
    if as_tuple:
        return tuple(_indices_tensor(i, input.device) for i in xp.nonzero(arr.reshape(1) if arr.ndim == 0 else arr))
    if arr.ndim == 0:
        return _indices_tensor(xp.zeros((1 if bool(arr != 0) else 0, 0), dtype=numpy.int64), input.device)
    return _indices_tensor(xp.argwhere(arr), input.device)


def count_nonzero(input, dim=None):
    """How many elements are nonzero (NaN counts), in all or along dim (an int or several), as int64."""
    input = tensor_in(input)
    arr = input.array
    axes = None
    if dim is not None:
        dims = dim if isinstance(dim, (list, tuple)) else (dim,)
        axes = tuple(wrap_dim(_int_arg("count_nonzero", "dim", d, 2), arr.ndim) for d in dims)
        for i, a in enumerate(axes):
            if a in axes[:i]:
                raise RuntimeError(f"dim {a} appears multiple times in the list of dims")
        axes = axes or None
        if arr.ndim == 0:
            axes = None
    xp = array_module(input.device)
    return _indices_tensor(xp.asarray(xp.sum(arr != 0, axis=axes)), input.device)


def nansum(input, dim=None, keepdim=False, *, dtype=None):
    """The sum with NaN taken as 0 (integers and booleans sum as int64, or as `dtype`)."""
    input = tensor_in(input)
    if dtype is not None:
        target = _dt.as_dtype(dtype).np
    elif input.array.dtype.kind in "biu":
        target = numpy.dtype(numpy.int64)
    else:
        target = None
    return apply(_op["nansum"], input, dim=reduction_dims(dim, input.array.ndim), keepdim=bool(keepdim), dtype=target)


def nanmean(input, dim=None, keepdim=False, *, dtype=None):
    """The mean of the elements that are not NaN, as PyTorch composes it: nansum(x) divided by the
    count of non-NaN elements (DivBackward0 over NansumBackward0); NaN where all are NaN."""
    input = tensor_in(input)
    if input.array.dtype.kind != "f":
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex dtype but got "
                           f"{_scalar_type_name(input)}")
    count = _sum(apply(_op["logical_not"], apply(_op["isnan"], input)), dim, keepdim)
    with numpy.errstate(invalid="ignore"):  # 0 / 0 where all are NaN: NaN, silently as in PyTorch
        return div(nansum(input, dim, keepdim, dtype=dtype), count)


def aminmax(input, *, dim=None, keepdim=False):
    """(min, max) of all elements or along dim: amin and amax, whose ties share the gradient."""
    input = tensor_in(input)
    arr = input.array
    if dim is None:
        if arr.size == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
                               "identity.")
        axes = None
    else:
        axes = wrap_dim(_int_arg("aminmax", "dim", dim, 2), arr.ndim)
        if arr.ndim == 0:
            axes = None
        elif arr.shape[axes] == 0:
            raise IndexError(f"aminmax: Expected reduction dim {axes} to have non-zero size.")
    return AminmaxResult(*(apply(_op[row], input, dim=axes, keepdim=bool(keepdim), name="AminmaxBackward0")
                           for row in ("amin", "amax")))


def cummax(input, dim=None):
    """(values, indices): the running maximum along dim and where it was (the last of equal
    values; NaN, once met, is the maximum)."""
    return _running_extreme("cummax", input, dim)


def cummin(input, dim=None):
    """(values, indices): the running minimum along dim and where it was (the last of equal values)."""
    return _running_extreme("cummin", input, dim)


def _running_extreme(name, input, dim):
    if dim is None:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    input = tensor_in(input)
    arr = input.array
    d = wrap_dim(_int_arg(name, "dim", dim, 2), arr.ndim)
    xp = array_module(input.device)
    if arr.ndim == 0 or arr.size == 0:
        indices = xp.zeros(arr.shape, dtype=numpy.int64)
    else:
        indices = _running_extreme_indices(xp, arr, d, name == "cummax")
    values = apply(_op[name], input, indices=indices, dim=d)
    return (CummaxResult if name == "cummax" else CumminResult)(values, _indices_tensor(indices, input.device))


def logcumsumexp(input, dim=None):
    """log(cumsum(exp(input), dim)) computed without overflow; floating tensors only."""
    if dim is None:
        raise TypeError('logcumsumexp() missing 1 required positional arguments: "dim"')
    input = tensor_in(input)
    if input.array.dtype.kind != "f":
        raise NotImplementedError(f"\"logcumsumexp_out_{input.device.type}\" not implemented for "
                                  f"'{_scalar_type_name(input)}'")
    return apply(_op["logcumsumexp"], input, dim=wrap_dim(_int_arg("logcumsumexp", "dim", dim, 2), input.array.ndim))


Tensor.argsort = argsort  # methods too (no rows of their own: the indices are computed here)
Tensor.nonzero = nonzero
Tensor.count_nonzero = count_nonzero
Tensor.nanmean = nanmean
Tensor.aminmax = aminmax
