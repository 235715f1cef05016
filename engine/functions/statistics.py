"""Statistics that PyTorch composes from other ops, composed here the same way so the nodes of the
graph are PyTorch's: quantile and nanquantile (sort, gather, lerp: SqueezeBackward4 on top), cov
and corrcoef (mm of the centred observations; corrcoef's clip: ClampBackward1), trapezoid, trapz
and cumulative_trapezoid (slices, sums and scalar products), unique and unique_consecutive (never
differentiable), and histogram and histogramdd (no gradient; PyTorch's histogramdd kernel, its bins
found by the edges' upper bound). The rows of this family (var_mean, std_mean, fmax, fmin, bincount,
histc, searchsorted, bucketize) are engine/ops/statistics.py's.
"""
import math
import warnings

import numpy

from .. import dtypes as _dt
from ..core.tensor import TensorBase as Tensor, apply, array_module, make_tensor, wrap_dim
from ..host_data import is_number
from ..ops import TABLE as _op
from ..ops.statistics import _positions
from ..ops.table import scatter_add, type_name
from ..signature import result_type
from .arguments import tensor_in
from .creation import linspace, tensor
from .surface import made

from .basic import mm as _mm

_sort, _where, _clamp, _sqrt, _cumsum = (made(n) for n in ("sort", "where", "clamp", "sqrt", "cumsum"))

__all__ = ["quantile", "nanquantile", "cov", "corrcoef", "trapezoid", "trapz", "cumulative_trapezoid", "unique",
           "unique_consecutive", "histogram", "histogramdd"]


# ------------------------------------------------------------------------- quantile

_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    """The q-th quantiles (q a number or a 1-d tensor in [0, 1]) of all elements or along dim,
    interpolating between the two nearest sorted values (linear, lower, higher, midpoint,
    nearest); NaN where a slice holds a NaN. The quantiles lead the result's dims when q is a tensor."""
    return _quantile(input, q, dim, keepdim, interpolation, ignore_nan=False)


def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    """quantile of the elements that are not NaN (NaN where a slice has nothing else)."""
    return _quantile(input, q, dim, keepdim, interpolation, ignore_nan=True)


def _quantile(input, q, dim, keepdim, interpolation, ignore_nan):
    input = tensor_in(input)
    if interpolation not in _MODES:
        raise RuntimeError(f"quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, "
                           f"but got {interpolation}")
    x = input.array
    xp = array_module(input.device)
    if is_number(q) and not isinstance(q, bool):
        if not 0 <= q <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q}")
        q_arr, q_tensor, scalar = xp.asarray([q], dtype=x.dtype if x.dtype.kind == "f" else None), None, True
    elif isinstance(q, Tensor):
        q_arr, q_tensor, scalar = q.array, q, q.array.ndim == 0
    else:
        raise TypeError(f"quantile() received an invalid combination of arguments - got q of type "
                        f"{type(q).__name__}, but expected a float or a Tensor")
    if x.size == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if q_arr.ndim > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if x.dtype not in (numpy.float32, numpy.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if q_tensor is not None:
        if q_arr.dtype != x.dtype:
            raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
        if not bool(xp.all((q_arr >= 0) & (q_arr <= 1))):
            raise RuntimeError("quantile() q values must be in the range [0, 1]")
    nd = x.ndim
    # sort each slice along the last dim, viewed as the result's shape plus that dim
    if dim is None or nd == 0:
        if dim is not None:
            wrap_dim(dim, nd)
        base = (1,) * nd if keepdim and dim is None else ()
        ordered = _sort(input.reshape(-1)).values
    else:
        d = wrap_dim(dim, nd)
        base = tuple(1 if keepdim and k == d else s for k, s in enumerate(x.shape) if keepdim or k != d)
        moved = input if d == nd - 1 else input.unsqueeze(-1).transpose(d, -1)
        ordered = _sort(moved).values
    n = ordered.shape[-1]
    ordered = ordered.reshape(base + (n,))
    axis = len(base)
    nq = q_arr.reshape(-1)
    data = ordered.array
    if ignore_nan:  # the rank among the values that are not NaN (0 where all are)
        scale = xp.sum(~xp.isnan(data), axis=-1, keepdims=True) - 1
        fixed = scale < 0
    else:  # the last (a NaN's) where the slice holds one
        scale = xp.full(base + (1,), n - 1)
        fixed = xp.any(xp.isnan(data), axis=-1, keepdims=True)
    ranks = xp.where(fixed, xp.where(scale < 0, 0, n - 1), nq * scale)
    ranks = {"lower": xp.floor, "higher": xp.ceil, "nearest": xp.rint}.get(interpolation, lambda r: r)(ranks)
    below = ranks.astype(numpy.int64)
    result = apply(_op["take_along"], ordered, indices=below, dim=axis)
    if interpolation in ("linear", "midpoint"):
        above = xp.ceil(ranks).astype(numpy.int64)
        upper = apply(_op["take_along"], ordered, indices=above, dim=axis)
        if interpolation == "midpoint":
            weights = make_tensor(xp.where(above == below, 0.0, 0.5).astype(x.dtype), input.device)
        elif q_tensor is not None and q_tensor.requires_grad:  # the weights are a function of q
            spread = q_tensor.reshape(-1) * make_tensor(scale.astype(x.dtype), input.device)
            weights = _where(make_tensor(fixed, input.device), 0.0,
                             spread - make_tensor(below.astype(x.dtype), input.device))
        else:
            weights = make_tensor((ranks - below).astype(x.dtype), input.device)
        result = made("lerp")(result, upper, weights)
    if scalar:
        return apply(_op["squeeze"], result, dim=(result.ndim - 1,), name="SqueezeBackward4")
    result = apply(_op["unsqueeze"], result, dim=0, name="UnsqueezeBackward1")
    result = apply(_op["transpose"], result, dim0=0, dim1=result.ndim - 1, name="TransposeBackward1")
    return apply(_op["squeeze"], result, dim=(result.ndim - 1,), name="SqueezeBackward4")


# ------------------------------------------------------------------------- cov, corrcoef

def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in input's rows (observations in its columns), with
    integer frequency weights and/or float observation weights; correction=1: the sample covariance."""
    input = tensor_in(input)
    x = input.array
    if x.ndim > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an input with {x.ndim} "
                           f"dimensions")
    if x.dtype.kind == "b":
        raise RuntimeError("cov(): bool dtype is not supported for input")
    rows = input.reshape(1, -1) if x.ndim < 2 else input
    n = rows.shape[1]
    w = None
    if fweights is not None:
        fw = tensor_in(fweights).array
        if fw.ndim > 1:
            raise RuntimeError(f"cov(): expected fweights to have one or fewer dimensions but got fweights with "
                               f"{fw.ndim} dimensions")
        if fw.dtype.kind not in "iu":
            raise RuntimeError(f"cov(): expected fweights to have integral dtype but got fweights with "
                               f"{type_name(fw.dtype)} dtype")
        if fw.size != n:
            raise RuntimeError(f"cov(): expected fweights to have the same numel as there are observations in the "
                               f"input but got {fw.size} != {n}")
        if n and fw.min() < 0:
            raise RuntimeError("cov(): fweights cannot be negative")
        w = tensor_in(fweights)
    if aweights is not None:
        aweights = tensor_in(aweights)
        aw = aweights.array
        if aw.ndim > 1:
            raise RuntimeError(f"cov(): expected aweights to have one or fewer dimensions but got aweights with "
                               f"{aw.ndim} dimensions")
        if aw.dtype.kind != "f":
            raise RuntimeError(f"cov(): expected aweights to have floating point dtype but got aweights with "
                               f"{type_name(aw.dtype)} dtype")
        if aw.size != n:
            raise RuntimeError(f"cov(): expected aweights to have the same numel as there are observations in the "
                               f"input but got {aw.size} != {n}")
        if n and aw.min() < 0:
            raise RuntimeError("cov(): aweights cannot be negative")
        w = aweights if w is None else w * aweights
    if w is None:
        w_sum = tensor(n, dtype=_dt.int64, device=input.device)
    else:
        w_sum = w.sum()
        if not bool(w_sum.array != 0):
            raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (rows * w if w is not None else rows).sum(1) / w_sum
    if w is not None and correction != 0 and aweights is not None:
        norm = w_sum - correction * (w * aweights).sum() / w_sum
    else:
        norm = w_sum - correction
    if bool(norm.array <= 0):
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
                      "observations.", UserWarning, stacklevel=2)
        norm = norm * 0
    centred = rows - avg.unsqueeze(1)
    with numpy.errstate(divide="ignore", invalid="ignore"):
        return (_mm(centred, (centred * w if w is not None else centred).t()) / norm).squeeze()


def corrcoef(input):
    """Pearson's correlation coefficients of the variables in input's rows: cov scaled by the
    standard deviations, clipped to [-1, 1]."""
    input = tensor_in(input)
    if input.array.ndim > 2:
        raise RuntimeError(f"corrcoef(): expected input to have two or fewer dimensions but got an input with "
                           f"{input.array.ndim} dimensions")
    c = cov(input)
    with numpy.errstate(divide="ignore", invalid="ignore"):
        if c.ndim == 0:  # one variable: 1, or NaN where its variance is 0, inf or NaN
            return c / c
        stddev = _sqrt(c.diagonal())
        c = c / stddev.view(-1, 1)
        c = c / stddev.view(1, -1)
    return _clamp(c, -1, 1)


# ------------------------------------------------------------------------- trapezoid

def _overloads(fname, got):
    return TypeError(f"{fname}() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                     f" * (Tensor y, Tensor x, *, int dim = -1)\n * (Tensor y, *, Number dx = 1, int dim = -1)\n")


def _along(t, d, part):
    """t[..., part] at dim d: a slice (SliceBackward0)."""
    return t[(slice(None),) * d + (part,)]


def _integrate(fname, y, x, dx, dim, cumulative):
    if x is not None and dx is not None:
        raise _overloads(fname, f"Tensor, x=Tensor, dx={type(dx).__name__}")
    if x is not None and not isinstance(x, Tensor):
        raise _overloads(fname, f"Tensor, {type(x).__name__}")
    y = tensor_in(y)
    if y.array.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = wrap_dim(dim, y.array.ndim)
    if y.array.dtype.kind == "b":
        raise RuntimeError(f"{fname}: received a bool input for `y`, but bool is not supported")
    n = y.shape[d]
    if n == 0:  # no samples: 0 (NumPy's answer); the cumulative one is as empty as y
        shape = y.shape if cumulative else tuple(s for k, s in enumerate(y.shape) if k != d)
        return make_tensor(array_module(y.device).zeros(shape, dtype=y.array.dtype), y.device)
    if y.array.dtype.kind != "f":
        y = y.to(_dt.get_default_dtype())
    left, right = _along(y, d, slice(0, -1)), _along(y, d, slice(1, None))
    if x is None:
        dx = 1 if dx is None else dx
        if isinstance(dx, (bool, numpy.bool_, complex)) or not is_number(dx):
            raise RuntimeError(f"{fname}: Currently, we only support dx as a real number.")
        if cumulative:  # (dx / 2) * (left + right), summed up
            return _cumsum(apply(_op["scalar_arith"], left + right, value=dx / 2.0), d)
        ends = apply(_op["scalar_arith"], y.select(d, 0) + y.select(d, -1), value=0.5)
        return apply(_op["scalar_arith"], y.sum(d) - ends, value=float(dx))
    if x.array.dtype.kind == "b":
        raise RuntimeError(f"{fname}: received a bool input for `x`, but bool is not supported")
    if x.ndim == 1:
        if x.shape[0] != n:
            raise RuntimeError(f"{fname}: There must be one `x` value for each sample point")
        x = x.view(*(n if k == d else 1 for k in range(y.ndim)))
    elif x.ndim < y.ndim:
        x = x.view(*((1,) * (y.ndim - x.ndim) + tuple(x.shape)))
    dxs = _along(x, d, slice(1, None)) - _along(x, d, slice(0, -1))
    areas = (left + right) * dxs
    total = _cumsum(areas, d) if cumulative else areas.sum(d)
    return apply(_op["scalar_arith"], total, value=2.0, divide=True)


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """The trapezoidal rule's integral of y along dim, at sample points x (or spaced dx apart)."""
    return _integrate("trapezoid", y, x, dx, dim, cumulative=False)


def trapz(y, x=None, *, dx=None, dim=-1):
    """trapezoid (its older name)."""
    return _integrate("trapz", y, x, dx, dim, cumulative=False)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running trapezoidal-rule integrals of y along dim (one fewer than y has), at sample
    points x (or spaced dx apart)."""
    return _integrate("cumulative_trapezoid", y, x, dx, dim, cumulative=True)


# ------------------------------------------------------------------------- unique

def _rows(xp, arr, dim):
    """arr with dim moved first and the rest flattened: one row per index of dim."""
    moved = xp.moveaxis(arr, dim, 0)
    return moved.reshape(moved.shape[0], -1), moved.shape[1:]


def _unique_results(input, values, inverse, counts, return_inverse, return_counts):
    device = input.device
    out = make_tensor(values, device)
    if not (return_inverse or return_counts):
        return out
    extra = []
    if return_inverse:
        extra.append(make_tensor(inverse.astype(numpy.int64), device))
    if return_counts:
        extra.append(make_tensor(counts.astype(numpy.int64), device))
    return (out, *extra)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct elements in ascending order (each NaN its own), or the distinct slices along
    dim, with the index of each element's (slice's) value and the counts if asked. The result
    never requires grad (PyTorch's node cannot be differentiated); sorted=False sorts too, as
    PyTorch's CPU kernel does."""
    input = tensor_in(input)
    arr = input.array
    xp = array_module(input.device)
    if dim is None:
        flat = arr.reshape(-1)
        kw = {"equal_nan": False} if xp is numpy else {}
        values, inverse, counts = xp.unique(flat, return_inverse=True, return_counts=True, **kw)
        return _unique_results(input, values, inverse.reshape(arr.shape), counts, return_inverse, return_counts)
    d = wrap_dim(dim, arr.ndim)
    rows, rest = _rows(xp, arr, d)
    if rows.shape[0] == 0 or rows.shape[1] == 0:
        keep = min(rows.shape[0], 1) if rows.shape[1] == 0 else 0
        values = rows[:keep]
        inverse = xp.zeros(rows.shape[0], dtype=numpy.int64)
        counts = xp.asarray([rows.shape[0]] * keep, dtype=numpy.int64)
    else:
        order = xp.lexsort(rows.T[::-1])  # rows in lexicographic order
        ranked = rows[order]
        starts = xp.concatenate([xp.ones(1, dtype=bool), xp.any(ranked[1:] != ranked[:-1], axis=1)])
        group = xp.cumsum(starts) - 1
        values = ranked[starts]
        inverse = xp.empty_like(group)
        inverse[order] = group
        counts = xp.diff(xp.concatenate([xp.nonzero(starts)[0], xp.asarray([rows.shape[0]])]))
    values = xp.moveaxis(values.reshape((values.shape[0],) + tuple(rest)), 0, d)
    return _unique_results(input, values, inverse, counts, return_inverse, return_counts)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """The first element of each run of equal consecutive elements (slices along dim), with the
    index of each element's run and the runs' lengths if asked. Never requires grad."""
    input = tensor_in(input)
    arr = input.array
    xp = array_module(input.device)
    if dim is None:
        rows, rest, shape = arr.reshape(-1, 1), (), arr.shape
    else:
        d = wrap_dim(dim, arr.ndim)
        rows, rest = _rows(xp, arr, d)
        shape = (rows.shape[0],)
    n = rows.shape[0]
    starts = xp.concatenate([xp.ones(min(n, 1), dtype=bool), xp.any(rows[1:] != rows[:-1], axis=1)])
    values = rows[starts]
    inverse = (xp.cumsum(starts) - 1).reshape(shape)
    counts = xp.diff(xp.concatenate([xp.nonzero(starts)[0], xp.asarray([n])]))
    if dim is None:
        values = values.reshape(-1)
    else:
        values = xp.moveaxis(values.reshape((values.shape[0],) + tuple(rest)), 0, d)
    return _unique_results(input, values, inverse, counts, return_inverse, return_counts)


Tensor.quantile = quantile  # methods too (PyTorch's Tensor has these; trapezoid it has not)
Tensor.nanquantile = nanquantile
Tensor.cov = cov
Tensor.corrcoef = corrcoef
Tensor.unique = unique
Tensor.unique_consecutive = unique_consecutive


# ------------------------------------------------------------------- histogram, histogramdd

HistogramResult = result_type("histogram", ("hist", "bin_edges"))
HistogramddResult = result_type("histogramdd", ("hist", "bin_edges"))


def histogram(input, bins=100, *, range=None, weight=None, density=False):
    """The histogram of input's elements: `bins` equal bins over `range` (the data's own by default),
    or the bins between the edges of a 1-d tensor; (hist, bin_edges), no gradient."""
    input = tensor_in(input)
    if not isinstance(bins, Tensor) and not _is_int(bins):
        raise TypeError(f"histogram(): argument 'bins' must be Tensor or int, not {type(bins).__name__}")
    weight = None if weight is None else tensor_in(weight).reshape(-1)
    hist, edges = _histogramdd(input.reshape(-1, 1), [bins], range, weight,
                               density, tensors=isinstance(bins, Tensor), counts_first=True)
    return HistogramResult(hist, edges[0])


def histogramdd(input, bins=10, *, range=None, weight=None, density=False):
    """The N-dimensional histogram of the points along input's last dim (of size N): bins an int, N
    ints (equal bins over `range`, the data's own by default) or N 1-d tensors of edges;
    (hist, bin_edges), no gradient."""
    input = tensor_in(input)
    if isinstance(bins, Tensor) or not (_is_int(bins) or isinstance(bins, (list, tuple))):
        raise TypeError(f"histogramdd(): argument 'bins' must be int, tuple of ints or tuple of Tensors, not "
                        f"{type(bins).__name__}")
    n = input.shape[-1] if input.dim() else 0
    tensors = isinstance(bins, (list, tuple)) and len(bins) and isinstance(bins[0], Tensor)
    if _is_int(bins):
        bins = [bins] * n
    elif not tensors and len(bins) != n:
        raise RuntimeError("histogramdd: The size of bins must be equal to the innermost dimension of the input.")
    hist, edges = _histogramdd(input, list(bins), range, None if weight is None else tensor_in(weight), density,
                               tensors)
    return HistogramddResult(hist, tuple(edges))


def _is_int(v):
    return isinstance(v, (int, numpy.integer)) and not isinstance(v, bool)


def _histogramdd(input, bins, range, weight, density, tensors, counts_first=False):
    """PyTorch's histogramdd on input of shape (..., N): its checks in its order and words (torch.histogram
    checks the bin count first: `counts_first`), then each point's bin along every dim (the edges'
    upper bound, the last edge counting in the last bin), points outside any dim's edges left out,
    the weights added up per bin (in input's dtype)."""
    counts = [b.numel() - 1 for b in bins] if tensors else [int(b) for b in bins]
    if counts_first:
        _check_counts(counts)
    x = input.array
    if x.ndim < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    n = x.shape[-1]
    points = x.reshape(math.prod(x.shape[:-1]), n)
    if tensors:
        _check_edges(input, bins, n)
        edges = [b.detach() for b in bins]
    else:
        outer = _outer_edges(input, points, range)
    if not counts_first:
        _check_counts(counts)
    if not tensors:
        edges = [linspace(lo, hi, c + 1, dtype=input.dtype, device=input.device) for (lo, hi), c in zip(outer, counts)]
    if weight is not None:
        if weight.dtype != input.dtype:
            raise RuntimeError(f"torch.histogramdd: if weight tensor is provided, input tensor and weight tensor "
                               f"should have the same dtype, but got input({_dt.cpp_name(input.dtype)}), and "
                               f"weight({_dt.cpp_name(weight.dtype)})")
        if list(x.shape[:-1]) != (list(weight.shape) or [1]):
            raise RuntimeError(f"torch.histogramdd: if weight tensor is provided it should have the same shape as the "
                               f"input tensor excluding its innermost dimension, but got input with shape "
                               f"{list(x.shape)} and weight with shape {list(weight.shape)}")
    if x.dtype.kind != "f":
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for '{type_name(x.dtype)}'")
    xp = array_module(input.device)
    place, inside = xp.zeros(points.shape[0], dtype=numpy.int64), xp.full(points.shape[0], n > 0)  # (N = 0: no bin)
    for d, e in enumerate(edges):  # (one step a dim, each over every point at once)
        v, a = points[:, d], e.array
        pos = _positions(xp, a, v, right=True) - 1
        if not tensors:  # PyTorch's linear guess, then the upper bound among the edges next to it
            guess = ((v - a[0]) * x.dtype.type(counts[d]) / (a[-1] - a[0]))
            guess = xp.clip(xp.where(xp.isfinite(guess), guess, 0), -1, counts[d] + 1).astype(numpy.int64)
            pos = xp.clip(pos + 1, xp.maximum(guess - 1, 0), xp.minimum(guess + 2, counts[d] + 1)) - 1
        inside &= (v >= a[0]) & (v <= a[-1])
        place = place * counts[d] + xp.minimum(xp.maximum(pos, 0), counts[d] - 1)
    hist = xp.zeros(int(numpy.prod(counts)), dtype=x.dtype)
    values = xp.ones(points.shape[0], dtype=x.dtype) if weight is None else weight.array.reshape(-1)
    scatter_add(xp, hist, (place[inside],), values[inside])
    hist = hist.reshape(tuple(counts))
    if density:
        with numpy.errstate(invalid="ignore", divide="ignore"):
            hist = hist / hist.sum()
            for d, e in enumerate(edges):
                hist = hist / xp.diff(e.array).reshape((1,) * d + (-1,) + (1,) * (n - d - 1))
    return make_tensor(hist, input.device), edges


def _check_counts(counts):
    for d, c in enumerate(counts):
        if c <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {c} for dimension {d}")


def _check_edges(input, bins, n):
    """histogramdd_check_inputs on the tensors of edges."""
    if len(bins) != n:
        raise RuntimeError(f"torch.histogramdd: expected {n} sequences of bin edges for a {n}-dimensional histogram "
                           f"but got {len(bins)}")
    for d, b in enumerate(bins):
        if b.dtype != input.dtype:
            raise RuntimeError(f"torch.histogramdd: input tensor and bins tensors should have the same dtype, but got "
                               f"input with dtype {_dt.cpp_name(input.dtype)} and bins for dimension {d} with dtype "
                               f"{_dt.cpp_name(b.dtype)}")
        if b.dim() != 1:
            raise RuntimeError(f"torch.histogramdd: bins tensor should have one dimension, but got {b.dim()} "
                               f"dimensions in the bins tensor for dimension {d}")
        if not b.numel():
            raise RuntimeError(f"torch.histogramdd: bins tensor should have at least 1 element, but got 0 elements in "
                               f"the bins tensor for dimension {d}")


def _outer_edges(input, points, range):
    """PyTorch's select_outer_bin_edges: each dim's (first, last) edge, from `range` (2 numbers a dim)
    or the data's min and max (0 and 1 without data), widened by 1/2 each way where they meet."""
    n = points.shape[1]
    if range is not None:
        range = [float(r) for r in range]
        if len(range) != 2 * n:
            raise RuntimeError(f"torch.histogramdd: for a {n}-dimensional histogram range should have {2 * n} "
                               f"elements, but got {len(range)}")
        lows, highs = range[0::2], range[1::2]
    elif points.size:
        if points.dtype.kind != "f":
            raise NotImplementedError(f"\"histogramdd\" not implemented for '{type_name(points.dtype)}'")
        xp = array_module(input.device)
        lows, highs = xp.min(points, axis=0).tolist(), xp.max(points, axis=0).tolist()
    else:
        lows, highs = [0.0] * n, [1.0] * n
    outer = []
    for d, (lo, hi) in enumerate(zip(lows, highs)):
        if not (numpy.isfinite(lo) and numpy.isfinite(hi)):
            raise RuntimeError(f"torch.histogramdd: dimension {d}'s range [{lo:g}, {hi:g}] is not finite")
        if lo > hi:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {lo:g} max {hi:g} for "
                               f"dimension {d}")
        outer.append((lo - 0.5, hi + 0.5) if lo == hi else (lo, hi))
    return outer


Tensor.histogram = histogram  # a method too (PyTorch has no Tensor.histogramdd)
