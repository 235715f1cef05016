"""Statistics and search rows: var_mean and std_mean (both results under PyTorch's one node name),
fmax and fmin (NaN-ignoring maximum and minimum), and the counting and searching ops whose
results never require grad: bincount, histc, searchsorted, bucketize. The composites (quantile,
cov, corrcoef, trapezoid, unique...) are engine/functions/statistics.py."""
import numpy

from ..core.tensor import NO_PARAMS, TensorBase, array_module, run_op
from .reductions import Mean, Std, Var, spread
from .table import Op, reduction_dims, tensor_of, type_name


# ------------------------------------------------------------------ var_mean, std_mean

def _mean_dims(input, dim):
    """The dims the mean half reduces, as spread gives them to var (a bool in dim's place: all)."""
    shape = input.array.shape
    if isinstance(dim, (bool, numpy.bool_)):
        return None
    return None if not shape else reduction_dims(dim, len(shape))


def _both(var_row, mean_row, input, dim, unbiased, keepdim, correction):
    if input.array.dtype.kind != "f":
        raise RuntimeError(f"{var_row.name} only support floating point and complex dtypes")
    first = spread(var_row, input, dim, unbiased, keepdim, correction)
    return first, run_op(mean_row, (input,), {"dim": _mean_dims(input, dim), "keepdim": bool(keepdim)})


class VarMean(Var):
    """The variance and the mean along dim, as a tuple (var, mean), with var's arguments.

    Unlike PyTorch, whose two results share one VarMeanBackward0 node, each result here has a node
    of its own under that name (this row and var_mean_mean): the same names, values and gradients.
    The mean of a slice holding +-inf (no NaN) is that +-inf, as mean's; PyTorch's is NaN there (its
    running Welford update meets inf - inf)."""
    name = "var_mean"
    # PyTorch returns a plain tuple, (Tensor, Tensor): the signature's one result stands for it
    signature = ("var_mean(Tensor input, Any dim=None, bool? unbiased=None, bool keepdim=False, *, "
                 "Scalar? correction=None) -> Tensor")
    method = False  # (torch.Tensor has no var_mean)
    node = "VarMeanBackward0"

    def call(input, dim, unbiased, keepdim, correction):
        return _both(VarMean, VarMeanMean, input, dim, unbiased, keepdim, correction)


class VarMeanMean(Mean):
    """var_mean's second result: the mean, under var_mean's node name."""
    name = "var_mean_mean"
    names = ()
    signature = None
    method = False
    node = "VarMeanBackward0"


class StdMean(Std):
    """The standard deviation and the mean along dim, as a tuple (std, mean), with std's arguments.

    The mean of a slice holding +-inf (no NaN) is that +-inf, as mean's; PyTorch's is NaN there (its
    running Welford update meets inf - inf)."""
    name = "std_mean"
    signature = ("std_mean(Tensor input, Any dim=None, bool? unbiased=None, bool keepdim=False, *, "
                 "Scalar? correction=None) -> Tensor")
    method = False
    node = "StdMeanBackward0"

    def call(input, dim, unbiased, keepdim, correction):
        return _both(StdMean, StdMeanMean, input, dim, unbiased, keepdim, correction)


class StdMeanMean(Mean):
    """std_mean's second result: the mean, under std_mean's node name."""
    name = "std_mean_mean"
    names = ()
    signature = None
    method = False
    node = "StdMeanBackward0"


# ------------------------------------------------------------------ fmax, fmin

class Fmax(Op):
    """The larger of two tensors elementwise, ignoring NaN: NaN only where both are NaN.

    The larger of input and other, elementwise; where one is NaN, the other. The gradient goes to
    input where input >= other or other is NaN (ties: all to input), to other elsewhere."""
    name = "fmax"
    signature = "fmax(Tensor input, Tensor other) -> Tensor"
    method = True
    elementwise = True
    node = "FmaxBackward0"
    saves = (0, 1)

    def forward(xp, a, b):
        return xp.fmax(a, b)

    def backward(F, ctx, g, a, b):
        return _nan_pick(F, ctx, g, F.logical_or(a >= b, F.isnan(b)))

    def call(input, other):
        return run_op(Fmax, _tensors("fmax", input, other), NO_PARAMS)


class Fmin(Op):
    """The smaller of two tensors elementwise, ignoring NaN: NaN only where both are NaN.

    The smaller of input and other, elementwise; where one is NaN, the other. The gradient goes to
    input where input <= other or other is NaN (ties: all to input), to other elsewhere."""
    name = "fmin"
    signature = "fmin(Tensor input, Tensor other) -> Tensor"
    method = True
    elementwise = True
    node = "FminBackward0"
    saves = (0, 1)

    def forward(xp, a, b):
        return xp.fmin(a, b)

    def backward(F, ctx, g, a, b):
        return _nan_pick(F, ctx, g, F.logical_or(a <= b, F.isnan(b)))

    def call(input, other):
        return run_op(Fmin, _tensors("fmin", input, other), NO_PARAMS)


def _tensors(fname, input, other):
    """fmax's and fmin's operands: tensors only (PyTorch has no Scalar overload)."""
    for value, what, position in ((input, "input", 1), (other, "other", 2)):
        if not isinstance(value, TensorBase):
            raise TypeError(f"{fname}(): argument '{what}' (position {position}) must be Tensor, "
                            f"not {type(value).__name__}")
    return input, other


def _nan_pick(F, ctx, g, to_a):
    """PyTorch's fmax/fmin backward: g where picked, a masked +0 elsewhere (no product)."""
    return (F.where(to_a, g, 0.0) if ctx.needs[0] else None,
            F.where(to_a, 0.0, g) if ctx.needs[1] else None)


# ------------------------------------------------------------------ counting and searching

class Counting(Op):
    """Results that never require grad: counts and positions."""
    differentiable = False


class Bincount(Counting):
    """How often each non-negative integer occurs in a 1-d tensor (or the sum of its weights), in at
    least minlength bins.

    Never requires grad (PyTorch records a node there that cannot be differentiated)."""
    name = "bincount"
    signature = "bincount(Tensor input, Tensor? weights=None, int minlength=0) -> Tensor"
    method = True

    def forward(xp, x, weights=None, minlength=0):
        if weights is None:
            return xp.bincount(x, minlength=minlength).astype(numpy.int64)
        dtype = weights.dtype if weights.dtype.kind == "f" else numpy.float64
        return xp.bincount(x, weights=weights, minlength=minlength).astype(dtype)

    def call(input, weights, minlength):
        x = input.array
        if x.dtype.kind not in "iu":
            raise NotImplementedError(f"\"bincount_{input.device.type}\" not implemented for "
                                      f"'{type_name(x.dtype)}'")
        if x.ndim != 1 or (x.size and x.min() < 0):
            raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
        if minlength < 0:
            raise RuntimeError("minlength should be >= 0")
        if weights is not None and (weights.array.ndim != 1 or weights.array.shape[0] != x.shape[0]):
            raise RuntimeError("weights should be 1-d and have the same length as input")
        # (the weights are a parameter: no promotion of the input to their dtype)
        return run_op(Bincount, (input,), {"weights": None if weights is None else weights.array,
                                          "minlength": minlength})


class Histc(Counting):
    """A histogram: the counts of the elements in `bins` equal bins between min and max (the data's
    own range where both are 0); elements outside are left out, max counts in the last bin."""
    name = "histc"
    signature = "histc(Tensor input, int bins=100, Scalar min=0, Scalar max=0) -> Tensor"
    method = True

    def forward(xp, x, bins, lo, hi):
        inside = (x >= lo) & (x <= hi)  # (NaN is neither)
        v = x[inside]
        pos = ((v - lo) * (bins / (hi - lo))).astype(numpy.int64)
        pos = xp.minimum(pos, bins - 1)  # max itself: the last bin
        return xp.bincount(pos, minlength=bins).astype(x.dtype)

    def call(input, bins, min, max):
        x = input.array
        if x.dtype.kind != "f":
            raise NotImplementedError(f"\"histogram_{input.device.type}\" not implemented for "
                                      f"'{type_name(x.dtype)}'")
        if bins <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
        lo, hi = float(min), float(max)
        if lo > hi:
            raise RuntimeError("torch.histc: max must be larger than min")
        if lo == hi and x.size:
            xp = array_module(input.device)
            lo, hi = float(xp.min(x)), float(xp.max(x))
        if lo == hi:
            lo, hi = lo - 1, hi + 1
        if not (numpy.isfinite(lo) and numpy.isfinite(hi)):
            raise RuntimeError(f"torch.histc: range of [{lo}, {hi}] is not finite")
        return run_op(Histc, (input,), {"bins": bins, "lo": lo, "hi": hi})


def _positions(xp, boundaries, values, right):
    """Where each value goes in its row of boundaries (the last dim): PyTorch's binary search (lower
    bound; right: upper bound), run for every value at once, one halving a step. On sorted rows it
    is the count of boundaries below each value (right: at or below); a NaN value goes last. Each
    value's answer depends on its row alone, also where the row is not sorted (PyTorch's answer
    there, which the documentation leaves undefined) or holds a NaN (a NaN boundary counts as below
    every value, as in PyTorch's search)."""
    n = boundaries.shape[-1]
    rows = boundaries.reshape(-1, n) if boundaries.ndim > 1 else boundaries.reshape(1, n)
    v = values.reshape(rows.shape[0], -1) if boundaries.ndim > 1 else values.reshape(1, -1)
    start = xp.zeros(v.shape, dtype=numpy.int64)
    end = xp.full(v.shape, n, dtype=numpy.int64)
    while True:
        open_ = start < end
        if not open_.any():
            break
        mid = start + ((end - start) >> 1)
        at = xp.take_along_axis(rows, xp.minimum(mid, n - 1), axis=-1)
        # lower bound: go right unless at >= v; upper bound: unless at > v (NaN compares false: right)
        go_right = ~(at > v) if right else ~(at >= v)
        start = xp.where(open_ & go_right, mid + 1, start)
        end = xp.where(open_ & ~go_right, mid, end)
    return start.reshape(values.shape)


class Searchsorted(Counting):
    """The index at which each value would go into sorted_sequence's sorted last dim to keep it
    sorted: before the equal ones, or after them (right=True, side='right'); sorter sorts it.

    PyTorch's binary search: a NaN value goes last, and on boundaries that are not sorted (or hold a
    NaN) each value gets PyTorch's answer, which depends on its own row only."""
    name = "searchsorted"
    signature = ("searchsorted(Tensor sorted_sequence, Tensor input, *, bool out_int32=False, bool right=False, "
                 "str? side=None, Tensor? sorter=None) -> Tensor")

    def forward(xp, boundaries, values, right=False, out_int32=False, sorter=None):
        if sorter is not None:
            boundaries = xp.take_along_axis(boundaries, sorter, axis=-1)
        flat = values.ndim == 0
        out = _positions(xp, boundaries, values.reshape(1) if flat else values, right)
        out = out.reshape(()) if flat else out
        return out.astype(numpy.int32 if out_int32 else numpy.int64)

    def call(sorted_sequence, input, out_int32, right, side, sorter):
        fn = "torch.searchsorted()"
        if side is not None:
            if side not in ("left", "right"):
                raise RuntimeError(f"{fn}: side can only be 'left' or 'right' but got {side}")
            if right and side == "left":
                raise RuntimeError(f"{fn}: side and right can't be set to opposites, got side of left while "
                                   f"right was True")
            right = side == "right"
        return _search(Searchsorted, fn, sorted_sequence, input, out_int32, right, sorter)


def _search(row, fn, boundaries, values, out_int32, right, sorter=None):
    if not isinstance(values, TensorBase):  # a number: PyTorch's Scalar overload, a 0-d result
        values = tensor_of(values, boundaries.device)
    b, v = boundaries.array, values.array
    if b.ndim == 0:
        raise RuntimeError(f"{fn}: boundaries tensor should have positive dimension, but got 0 dimension")
    if b.ndim > 1 and (v.ndim != b.ndim or v.shape[:-1] != b.shape[:-1]):
        raise RuntimeError(f"{fn}: boundaries tensor should be 1 dimension or the first N-1 dimensions of "
                           f"boundaries tensor and input value tensor must match, but we got boundaries tensor "
                           f"{list(b.shape)} and input value tensor {list(v.shape)}")
    if sorter is not None:
        s = sorter.array
        if s.dtype.kind not in "iu":
            raise RuntimeError(f"{fn}: sorter must be a tensor of long dtype but got {type_name(s.dtype)}")
        if s.shape != b.shape:
            raise RuntimeError(f"{fn}: boundary and sorter must have the same size, but got boundary tensor "
                               f"{list(b.shape)}and got sorter tensor {list(s.shape)}")
        if s.size and (s.min() < 0 or s.max() >= b.shape[-1]):
            raise RuntimeError(f"{fn}: sorter index out of range")
        # (the sorter is a parameter: an index array, not promoted with the operands)
        return run_op(row, (boundaries, values), {"right": bool(right), "out_int32": bool(out_int32), "sorter": s})
    return run_op(row, (boundaries, values), {"right": bool(right), "out_int32": bool(out_int32)})


class Bucketize(Counting):
    """The index of the bucket each element falls in, given sorted 1-d boundaries: the count of the
    boundaries below it (right=True: at or below it)."""
    name = "bucketize"
    signature = "bucketize(Tensor input, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor"

    def forward(xp, values, boundaries, right=False, out_int32=False):
        return Searchsorted.forward(xp, boundaries, values, right, out_int32)

    def call(input, boundaries, out_int32, right):
        if not isinstance(input, TensorBase):
            input = tensor_of(input, boundaries.device)
        if boundaries.array.ndim != 1:
            raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.array.ndim})")
        return run_op(Bucketize, (input, boundaries), {"right": bool(right), "out_int32": bool(out_int32)})
