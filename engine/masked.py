"""torch.masked: reductions and normalizations that skip masked-out elements (`autodiff.engine.masked`,
`torch.masked` in the language), PyTorch 2.13's dense (strided) forms with its signatures.

PyTorch writes these in Python out of ordinary ops, and so do we, out of our public functions: a
masked-out element is replaced (torch.where) by the reduction's identity -- 0 for sum, cumsum, norm
and normalize, 1 for prod and cumprod, -inf for amax, argmax, logsumexp, logaddexp, softmax and
log_softmax, +inf for amin, argmin and softmin, NaN for median (reduced by nanmedian) -- and then
reduced with the plain op. mean, var and std divide by the count of unmasked elements, so a fully
masked slice gives NaN there, as PyTorch's does; amax of one gives -inf, sum 0, prod 1, softmax NaN.
The autograd graph, its node names (WhereBackward0 under SumBackward1, ...) and the higher
derivatives are then those of the ops composed.

A mask is broadcast to the input's shape (it may not have more dims) and taken as bool (nonzero is
True), as PyTorch takes it; mask=None keeps every element (no where in the graph).
"""
import math

import numpy

from . import dtypes as _dt
from . import functions as _f
from . import linalg as _linalg
from .core.tensor import TensorBase as _Tensor
from .nn import functional as _nnf

__all__ = ["amax", "amin", "argmax", "argmin", "cumprod", "cumsum", "log_softmax", "logaddexp", "logsumexp",
           "mean", "median", "norm", "normalize", "prod", "softmax", "softmin", "std", "sum", "var"]

_WIDENED = ("uint8", "bool", "int8", "int16", "int32")  # integer dtypes that sum and prod count in int64


def _checked(x, fname, name):
    """`x` must be a tensor (PyTorch's functions read its attributes and fail otherwise)."""
    if not isinstance(x, _Tensor):
        raise TypeError(f"masked {fname}(): argument '{name}' must be Tensor, not {type(x).__name__}")
    return x


def _dtype_or(dtype, input):
    """The dtype asked for, or the input's."""
    return input.dtype if dtype is None else _dt.as_dtype(dtype)


def _canonical_dims(dim, ndim):
    """`dim` (None, () -- every dim --, an int or a sequence) as a sorted tuple of dims in [0, ndim),
    checked in PyTorch's words (a 0-d tensor takes dims 0 and -1)."""
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return tuple(range(ndim))
    rank = max(ndim, 1)
    seen = []
    for d in ((dim,) if isinstance(dim, (int, numpy.integer)) else dim):
        if d in seen:  # (as PyTorch: the given dim against those already wrapped)
            raise RuntimeError(f"dim={d} appears multiple times in the list of dims")
        if d >= rank or d < -rank:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], "
                             f"but got {d})")
        seen.append(d % rank)
    return tuple(sorted(seen))


def _reduced(dims):
    """Dims for a reducing op: a 0-d tensor's () (every dim) spelled (0,), the same reduction."""
    return dims or (0,)


def _input_mask(input, mask, name="mask"):
    """The mask broadcast to the input's shape, as bool (PyTorch's canonical input mask)."""
    if not isinstance(mask, _Tensor):
        raise TypeError(f"masked operation: argument '{name}' must be Tensor, not {type(mask).__name__}")
    if tuple(mask.shape) != tuple(input.shape):
        if mask.dim() > input.dim():
            raise IndexError("_input_mask expected broadcastable mask (got mask dimensionality higher than of "
                             "the input)")
        mask = _f.broadcast_to(mask, tuple(input.shape))
    return _f.to(mask, dtype=_dt.bool_)


def _extreme(d, largest):
    """+-inf for a floating dtype, the largest or smallest integer of an integer one (none for bool)."""
    if d.is_floating_point:
        return math.inf if largest else -math.inf
    if d is _dt.bool_:
        return None
    info = numpy.iinfo(d.np)
    return int(info.max if largest else info.min)


def _identity(op, input, ord=None):
    """The value a masked-out element takes for reduction `op`: one that leaves the result unchanged."""
    d = input.dtype
    if op in ("sum", "cumsum"):
        value = 0
    elif op in ("prod", "cumprod"):
        value = 1
    elif op in ("amax", "argmax", "logaddexp", "logsumexp"):
        value = _extreme(d, largest=False)
    elif op in ("amin", "argmin"):
        value = _extreme(d, largest=True)
    elif op == "norm":
        if ord == -math.inf and not d.is_floating_point:
            raise AssertionError(f"input must be floating point, got {d}")
        value = math.inf if ord == -math.inf else 0
    elif op == "median":
        value = math.nan
    else:
        value = None
    if value is None:
        raise NotImplementedError(f"identity of {op} on {d} input")
    return _f.tensor(value, dtype=d)


def _combined(op, input, mask, ord=None, name="mask"):
    """The input with its masked-out elements replaced by `op`'s identity (the input itself without a mask)."""
    if mask is None:
        return input
    return _f.where(_input_mask(input, mask, name), input, _identity(op, input, ord))


def _count_dtype(input, dtype):
    """The dtype sum and prod work in: `dtype`, else the input's, with small integers and bool as int64."""
    if dtype is not None:
        return _dt.as_dtype(dtype)
    return _dt.int64 if input.dtype.name in _WIDENED else input.dtype


def sum(input, dim=None, *, keepdim=False, dtype=None, mask=None):  # noqa: A001  (PyTorch's name)
    """The sum of the unmasked elements (0 where none is)."""
    input = _checked(input, "sum", "input")
    dtype = _count_dtype(input, dtype)
    dims = _canonical_dims(dim, input.dim())
    x = _f.to(_combined("sum", input, mask), dtype=dtype)
    return _f.sum(x, _reduced(dims), bool(keepdim))


def prod(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The product of the unmasked elements (1 where none is), one dim at a time, the last first."""
    input = _checked(input, "prod", "input")
    dtype = _count_dtype(input, dtype)
    dims = _canonical_dims(dim, input.dim())
    result = _f.to(_combined("prod", input, mask), dtype=dtype)
    for d in reversed(dims):
        result = _f.prod(result, d, bool(keepdim))
    return result


def _scan(op, fill, name, input, dim, dtype, mask):
    """cumsum / cumprod along dim with masked-out elements taken as `fill`'s identity."""
    input = _checked(input, name, "input")
    dtype = _dtype_or(dtype, input)
    d = _canonical_dims(dim, input.dim())[0]
    return _f.to(op(_combined(fill, input, mask), d, dtype=dtype), dtype=dtype)


def cumsum(input, dim, *, dtype=None, mask=None):
    """Running sums along dim, masked-out elements counting as 0."""
    return _scan(_f.cumsum, "sum", "cumsum", input, dim, dtype, mask)


def cumprod(input, dim, *, dtype=None, mask=None):
    """Running products along dim, masked-out elements counting as 1."""
    return _scan(_f.cumprod, "prod", "cumprod", input, dim, dtype, mask)


def _extremum(op, name, input, dim, keepdim, dtype, mask):
    """amax / amin of the unmasked elements (-inf / +inf where none is)."""
    input = _checked(input, name, "input")
    dtype = _dtype_or(dtype, input)
    x = _combined(name, input, mask)
    return _f.to(op(x, _reduced(_canonical_dims(dim, x.dim())), bool(keepdim)), dtype=dtype)


def amax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The largest unmasked element (-inf, or the dtype's least integer, where none is)."""
    return _extremum(_f.amax, "amax", input, dim, keepdim, dtype, mask)


def amin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The smallest unmasked element (+inf, or the dtype's greatest integer, where none is)."""
    return _extremum(_f.amin, "amin", input, dim, keepdim, dtype, mask)


def _arg(op, name, input, dim, keepdim, dtype, mask):
    """argmax / argmin over the unmasked elements, in the input's dtype as PyTorch gives it."""
    input = _checked(input, name, "input")
    dtype = _dtype_or(dtype, input)
    return _f.to(op(_combined(name, input, mask), dim, bool(keepdim)), dtype=dtype)


def argmax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The index of the largest unmasked element (0 where none is)."""
    return _arg(_f.argmax, "argmax", input, dim, keepdim, dtype, mask)


def argmin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The index of the smallest unmasked element (0 where none is)."""
    return _arg(_f.argmin, "argmin", input, dim, keepdim, dtype, mask)


def _counted(input, dim, keepdim, dtype, mask):
    """(the masked sum in `dtype`, the count of unmasked elements, int64) over dim."""
    dims = _reduced(_canonical_dims(dim, input.dim()))
    if mask is None:
        count = sum(_f.ones(tuple(input.shape), dtype=_dt.int64), dim, keepdim=keepdim)
        return sum(input, dim, keepdim=keepdim, dtype=dtype), count
    inmask = _input_mask(input, mask)
    count = _f.sum(inmask, dims, bool(keepdim))
    return sum(input, dim, keepdim=keepdim, dtype=dtype, mask=inmask), count


def mean(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The mean of the unmasked elements: their sum over their count (NaN where none is)."""
    input = _checked(input, "mean", "input")
    source = "Input" if dtype is None else "Optional"
    dtype = _dtype_or(dtype, input)
    if not dtype.is_floating_point:
        raise ValueError(f"mean(): Could not infer output dtype. {source} dtype must be either a floating point "
                         f"or complex dtype. Got: {dtype}")
    total, count = _counted(input, dim, keepdim, dtype, mask)
    return _f.divide(total, count)


def median(input, dim=-1, *, keepdim=False, dtype=None, mask=None):
    """The median of the unmasked elements along dim (nanmedian with masked-out ones NaN; NaN where none is)."""
    input = _checked(input, "median", "input")
    dtype = _dtype_or(dtype, input)
    d = _canonical_dims(dim, input.dim())[0]
    floating = input.dtype.is_floating_point
    if not floating:
        input = _f.to(input, dtype=_dt.float32)
    output = _f.nanmedian(_combined("median", input, mask), d, keepdim).values
    if floating:
        return output
    if bool(_f.any(_f.isnan(output))):
        raise ValueError("masked median expects no fully masked out rows if dtype is not floating point")
    return _f.to(output, dtype=dtype)


def logsumexp(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """log(sum(exp(x))) over the unmasked elements (-inf where none is)."""
    input = _checked(input, "logsumexp", "input")
    dtype = _dtype_or(dtype, input)
    dims = _canonical_dims(dim, input.dim())
    x = _combined("logsumexp", input, mask)
    if not x.dtype.is_floating_point:  # torch.logsumexp works integers in the default float dtype
        x = _f.to(x, dtype=_dt.get_default_dtype())
    return _f.to(_f.logsumexp(x, _reduced(dims), keepdim=keepdim), dtype=dtype)


def logaddexp(input, other, *, dtype=None, input_mask=None, other_mask=None):
    """log(exp(input) + exp(other)), each side's masked-out elements taken as -inf."""
    input = _checked(input, "logaddexp", "input")
    other = _checked(other, "logaddexp", "other")
    dtype = _dtype_or(dtype, input)
    a = _combined("logaddexp", input, input_mask, name="input_mask")
    b = _combined("logaddexp", other, other_mask, name="other_mask")
    return _f.to(_f.logaddexp(a, b), dtype=dtype)


def norm(input, ord=2.0, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The vector ord-norm of the unmasked elements (masked-out ones 0; +inf for ord=-inf)."""
    input = _checked(input, "norm", "input")
    dtype = _dtype_or(dtype, input)
    x = _combined("norm", input, mask, ord)
    dims = _reduced(_canonical_dims(dim, input.dim()))
    return _linalg.vector_norm(x, ord, dims, bool(keepdim), dtype=dtype)


def _std_var(input, dim, unbiased, correction, keepdim, dtype, mask, root):
    """The variance (or its root) of the unmasked elements: squared deviations from their mean, summed,
    over their count less `correction` (not below 0; NaN where none is)."""
    input = _checked(input, "std" if root else "var", "input")
    if unbiased is not None and correction is not None:
        raise AssertionError("Only one of unbiased and correction may be given")
    shift = 1.0
    if unbiased is not None:
        shift = 1.0 if unbiased else 0.0
    if correction is not None:
        shift = float(correction)
    dtype = _dtype_or(dtype, input)
    if not dtype.is_floating_point:
        dtype = _dt.float32
    inmask = None if mask is None else _input_mask(input, mask)
    total, count = _counted(input, dim, True, dtype, inmask)
    deviation = _f.subtract(input, _f.divide(total, count))
    squares = sum(deviation * deviation, dim, keepdim=keepdim, dtype=dtype, mask=inmask)
    if not keepdim:
        count = _f.reshape(count, tuple(squares.shape))
    if shift != 0:
        count = _f.subtract(_f.to(count, dtype=dtype), shift)
        count = _f.maximum(count, _f.zeros((), dtype=count.dtype))
    output = _f.to(_f.divide(squares, count), dtype=dtype)
    return _f.sqrt(output) if root else output


def var(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None, mask=None):
    """The variance of the unmasked elements (NaN where none is, or where none is left after correction)."""
    return _std_var(input, dim, unbiased, correction, keepdim, dtype, mask, root=False)


def std(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None, mask=None):
    """The standard deviation of the unmasked elements (NaN where none is)."""
    return _std_var(input, dim, unbiased, correction, keepdim, dtype, mask, root=True)


def _normalization(op, fill, name, input, dim, dtype, mask):
    """softmax / log_softmax / softmin along dim with masked-out elements at `fill`'s identity (+-inf), so
    they get 0 (-inf for log_softmax); a fully masked slice gives NaN."""
    input = _checked(input, name, "input")
    dtype = _dtype_or(dtype, input)
    d = _canonical_dims(dim, input.dim())[0]
    return op(_combined(fill, input, mask), d, dtype=dtype)


def softmax(input, dim, *, dtype=None, mask=None):
    """softmax along dim over the unmasked elements (0 at the masked-out ones)."""
    return _normalization(_nnf.softmax, "amax", "softmax", input, dim, dtype, mask)


def log_softmax(input, dim, *, dtype=None, mask=None):
    """log_softmax along dim over the unmasked elements (-inf at the masked-out ones)."""
    return _normalization(_nnf.log_softmax, "amax", "log_softmax", input, dim, dtype, mask)


def softmin(input, dim, *, dtype=None, mask=None):
    """softmin along dim over the unmasked elements (0 at the masked-out ones)."""
    return _normalization(_nnf.softmin, "amin", "softmin", input, dim, dtype, mask)


def normalize(input, ord, dim, *, eps=1e-12, dtype=None, mask=None):
    """The input over its masked ord-norm along dim (at least eps); masked-out elements give 0."""
    input = _checked(input, "normalize", "input")
    dtype = _dtype_or(dtype, input)
    x = _combined("sum", input, mask)
    size = norm(input, ord, dim, keepdim=True, dtype=dtype, mask=mask)
    return _f.divide(x, _f.maximum(size, _f.full((), eps, dtype=size.dtype)))
