"""Statistics, scans and sorting written by hand: argsort, nonzero, count_nonzero, nanmean and
aminmax. The others (median, sort, topk, kthvalue, var, std, cumsum, cumprod, cummax, cummin,
logcumsumexp, nansum, round) are their rows' signatures (engine/ops/reductions.py, engine/ops/unary.py).
"""
import numpy

from ..ops import TABLE as _op
from ..ops.reductions import sort_indices as _sort_indices, indices_tensor as _indices_tensor
from ..ops.table import int_argument
from ..core.tensor import TensorBase as Tensor, apply, array_module, wrap_dim
from ..signature import result_type
from .. import dtypes as _dt
from .arguments import tensor_in
from .surface import made

div, _sum, nansum = (made(n) for n in ('div', 'sum', 'nansum'))  # (functions the rows give)

__all__ = ["argsort", "nonzero", "count_nonzero", "nanmean", "aminmax"]


AminmaxResult = result_type("aminmax", ("min", "max"))  # torch.return_types.aminmax


# ------------------------------------------------ sorting, counting, NaN-aware reductions

def argsort(input, dim=-1, descending=False, *, stable=False):
    """The indices that sort input along dim (sort's indices): NaN last (first when descending),
    equal values in their order (the stable order always, as PyTorch's CPU sort gives it)."""
    input = tensor_in(input)
    arr = input.array
    d = wrap_dim(int_argument(dim, "argsort", "dim", 2), arr.ndim)
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
        axes = tuple(wrap_dim(int_argument(d, "count_nonzero", "dim", 2), arr.ndim) for d in dims)
        for i, a in enumerate(axes):
            if a in axes[:i]:
                raise RuntimeError(f"dim {a} appears multiple times in the list of dims")
        axes = axes or None
        if arr.ndim == 0:
            axes = None
    xp = array_module(input.device)
    return _indices_tensor(xp.asarray(xp.sum(arr != 0, axis=axes)), input.device)


def nanmean(input, dim=None, keepdim=False, *, dtype=None):
    """The mean of the elements that are not NaN, as PyTorch composes it: nansum(x) divided by the
    count of non-NaN elements (DivBackward0 over NansumBackward0); NaN where all are NaN."""
    input = tensor_in(input)
    if input.array.dtype.kind != "f":
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex dtype but got "
                           f"{_dt.scalar_name(_dt.dtype_of(input.array))}")
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
        axes = wrap_dim(int_argument(dim, "aminmax", "dim", 2), arr.ndim)
        if arr.ndim == 0:
            axes = None
        elif arr.shape[axes] == 0:
            raise IndexError(f"aminmax: Expected reduction dim {axes} to have non-zero size.")
    return AminmaxResult(*(apply(_op[row], input, dim=axes, keepdim=bool(keepdim), name="AminmaxBackward0")
                           for row in ("amin", "amax")))


Tensor.argsort = argsort  # methods too (no rows of their own: the indices are computed here)
Tensor.nonzero = nonzero
Tensor.count_nonzero = count_nonzero
Tensor.nanmean = nanmean
Tensor.aminmax = aminmax
