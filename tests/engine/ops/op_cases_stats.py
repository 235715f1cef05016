"""Op cases of the stats rows (see tests/engine/ops/op_cases.py for what a case is):
cumsum, cumprod, median, nanmedian, mode, kthvalue, sort, topk, var, std, and the rounding rows
floor, ceil, trunc, frac, round."""
import numpy as np

import autodiff.engine as ad
from op_cases import C, away, distinct, gen_all, on_copy, with_zeros

# ------------------------------------------------------------ numpy references


def np_lower_median(x, axis=None, keepdims=False):
    if axis is None:
        flat = np.sort(x.reshape(-1))
        return flat[(flat.size - 1) // 2]
    s = np.sort(x, axis=axis)
    return np.take(s, [(x.shape[axis] - 1) // 2], axis=axis) if keepdims else \
        np.take(s, (x.shape[axis] - 1) // 2, axis=axis)


def np_mode(x, axis=-1):
    """The smallest of the most frequent values of each slice."""
    return np.apply_along_axis(lambda r: min(r.tolist(), key=lambda v: (-r.tolist().count(v), v)), axis, x)


def np_kth(x, k, axis=-1, keepdims=False):
    s = np.sort(x, axis=axis)
    return np.take(s, [k - 1], axis=axis) if keepdims else np.take(s, k - 1, axis=axis)


def np_topk(x, k, axis=-1, largest=True):
    s = -np.sort(-x, axis=axis) if largest else np.sort(x, axis=axis)
    return np.take(s, np.arange(k), axis=axis)


def np_frac(x):
    return x - np.trunc(x)


# ------------------------------------------------------------------ generators

_INTEGERS = tuple(range(-2, 3))
off_integers = away(*_INTEGERS, margin=0.1)                            # floor, ceil, trunc, frac jump there
off_halves = away(-1.5, -0.5, 0.5, 1.5, margin=0.1)                    # round jumps there


def near_tenths(rng, shape):
    """Within 0.03 of a multiple of 0.1: round(x, decimals=1) is far from its jumps."""
    return rng.integers(-20, 21, shape) / 10.0 + rng.uniform(-0.03, 0.03, shape)


def near_tens(rng, shape):
    """Within 3 of a multiple of 10: round(x, decimals=-1) is far from its jumps."""
    return rng.integers(-3, 4, shape) * 10.0 + rng.uniform(-3.0, 3.0, shape)


# ============================================================== rounding rows

# ---- floor / ceil / trunc / frac / round: zero derivative (frac: 1), checked off the jumps
C("floor", "fn", lambda x: ad.floor(x), [(2, 3)], np.floor, "FloorBackward0", gen=gen_all(off_integers))
C("floor", "method", lambda x: x.floor(), [(4,)], np.floor, "FloorBackward0", gen=gen_all(off_integers))
C("floor", "inplace_floor_", on_copy(lambda y: y.floor_()), [(2, 2)], np.floor, "FloorBackward0",
  gen=gen_all(off_integers))
C("ceil", "fn", lambda x: ad.ceil(x), [(2, 3)], np.ceil, "CeilBackward0", gen=gen_all(off_integers))
C("ceil", "method_scalar", lambda x: x.ceil(), [()], np.ceil, "CeilBackward0", gen=gen_all(off_integers))
C("ceil", "inplace_ceil_", on_copy(lambda y: y.ceil_()), [(3,)], np.ceil, "CeilBackward0",
  gen=gen_all(off_integers))
C("trunc", "fn", lambda x: ad.trunc(x), [(2, 3)], np.trunc, "TruncBackward0", gen=gen_all(off_integers))
C("trunc", "fix_alias", lambda x: x.fix(), [(4,)], np.trunc, "TruncBackward0", gen=gen_all(off_integers))
C("trunc", "inplace_trunc_", on_copy(lambda y: y.trunc_()), [(2, 2)], np.trunc, "TruncBackward0",
  gen=gen_all(off_integers))
C("frac", "fn", lambda x: ad.frac(x), [(2, 3)], np_frac, "FracBackward0", gen=gen_all(off_integers))
C("frac", "method", lambda x: x.frac(), [(4,)], np_frac, "FracBackward0", gen=gen_all(off_integers))
C("frac", "inplace_frac_", on_copy(lambda y: y.frac_()), [(3,)], np_frac, "FracBackward0",
  gen=gen_all(off_integers))
C("round", "fn", lambda x: ad.round(x), [(2, 3)], np.round, "RoundBackward0", gen=gen_all(off_halves))
C("round", "method", lambda x: x.round(), [(4,)], np.round, "RoundBackward0", gen=gen_all(off_halves))
C("round", "decimals_1", lambda x: ad.round(x, decimals=1), [(2, 3)], lambda x: np.round(x, 1),
  "RoundBackward1", gen=gen_all(near_tenths))
C("round", "decimals_0", lambda x: x.round(decimals=0), [(4,)], np.round, "RoundBackward1",
  gen=gen_all(off_halves))
C("round", "decimals_neg", lambda x: ad.round(x, decimals=-1), [(5,)], lambda x: np.round(x, -1),
  "RoundBackward1", gen=gen_all(near_tens))
C("round", "inplace_round_", on_copy(lambda y: y.round_()), [(2, 2)], np.round, "RoundBackward0",
  gen=gen_all(off_halves))
C("round", "inplace_round_decimals", on_copy(lambda y: y.round_(decimals=1)), [(3,)],
  lambda x: np.round(x, 1), "RoundBackward1", gen=gen_all(near_tenths))

# ======================================================================= scans

# ---- cumsum: the derivative is the running sum from the end
C("cumsum", "dim1", lambda x: x.cumsum(1), [(3, 4)], lambda x: np.cumsum(x, axis=1), "CumsumBackward0")
C("cumsum", "fn_dim0", lambda x: ad.cumsum(x, dim=0), [(3, 2)], lambda x: np.cumsum(x, axis=0),
  "CumsumBackward0")
C("cumsum", "dim_neg_3d", lambda x: ad.cumsum(x, -1), [(2, 2, 3)], lambda x: np.cumsum(x, axis=-1),
  "CumsumBackward0")
C("cumsum", "middle_3d", lambda x: x.cumsum(dim=1), [(2, 3, 2)], lambda x: np.cumsum(x, axis=1),
  "CumsumBackward0")
C("cumsum", "scalar", lambda x: x.cumsum(0), [()], lambda x: x.copy(), "CumsumBackward0")
C("cumsum", "dtype_same", lambda x: x.cumsum(0, dtype=ad.float64), [(4,)], lambda x: np.cumsum(x),
  "CumsumBackward0")

# ---- cumprod: out / x without zeros, exact formulas with them
C("cumprod", "dim1", lambda x: x.cumprod(1), [(3, 4)], lambda x: np.cumprod(x, axis=1), "CumprodBackward0")
C("cumprod", "fn_dim0", lambda x: ad.cumprod(x, 0), [(3, 2)], lambda x: np.cumprod(x, axis=0),
  "CumprodBackward0")
C("cumprod", "dim_neg_3d", lambda x: x.cumprod(-1), [(2, 2, 3)], lambda x: np.cumprod(x, axis=-1),
  "CumprodBackward0")
C("cumprod", "one_zero", lambda x: x.cumprod(0), [(5,)], lambda x: np.cumprod(x), "CumprodBackward0",
  gen=gen_all(with_zeros(2)))
C("cumprod", "zero_first", lambda x: x.cumprod(0), [(4,)], lambda x: np.cumprod(x), "CumprodBackward0",
  gen=gen_all(with_zeros(0)))
C("cumprod", "zero_last", lambda x: x.cumprod(0), [(4,)], lambda x: np.cumprod(x), "CumprodBackward0",
  gen=gen_all(with_zeros(3)))
C("cumprod", "two_zeros", lambda x: x.cumprod(0), [(6,)], lambda x: np.cumprod(x), "CumprodBackward0",
  gen=gen_all(with_zeros(1, 4)))
C("cumprod", "zeros_some_rows_dim1", lambda x: x.cumprod(1), [(3, 4)], lambda x: np.cumprod(x, axis=1),
  "CumprodBackward0", gen=gen_all(with_zeros(1, 6, 7)))
C("cumprod", "zeros_dim0", lambda x: ad.cumprod(x, dim=0), [(4, 2)], lambda x: np.cumprod(x, axis=0),
  "CumprodBackward0", gen=gen_all(with_zeros(2, 3)))
C("cumprod", "length_one", lambda x: x.cumprod(1), [(3, 1)], lambda x: np.cumprod(x, axis=1),
  "CumprodBackward0", gen=gen_all(with_zeros(1)))
C("cumprod", "scalar", lambda x: x.cumprod(0), [()], lambda x: x.copy(), "CumprodBackward0")

# ================================================================== selection

# ---- median over everything (lower median; ties share the gradient)
C("median_all", "odd", lambda x: x.median(), [(5,)], np_lower_median, "MedianBackward0", gen=gen_all(distinct))
C("median_all", "even_lower", lambda x: ad.median(x), [(2, 3)], np_lower_median, "MedianBackward0",
  gen=gen_all(distinct))
C("median_all", "scalar", lambda x: x.median(), [()], np_lower_median, "MedianBackward0")
C("median_all", "ties", lambda x: x.median(), [(5,)], np_lower_median, "MedianBackward0",
  gen=lambda rng, s: [np.array([2.0, 0.5, 0.5, -1.0, 3.0])], gradgrad="a tie: the first derivative jumps there")

# ---- median along a dim: extreme_dim with the index of each lower median
C("median_dim", "median_dim1", lambda x: x.median(1).values, [(3, 4)], lambda x: np_lower_median(x, 1),
  "MedianBackward1", gen=gen_all(distinct))
C("median_dim", "median_dim0_keepdim", lambda x: ad.median(x, 0, keepdim=True).values, [(3, 2)],
  lambda x: np_lower_median(x, 0, True), "MedianBackward1", gen=gen_all(distinct))
C("median_dim", "median_dim_neg_3d", lambda x: x.median(dim=-1)[0], [(2, 2, 5)],
  lambda x: np_lower_median(x, -1), "MedianBackward1", gen=gen_all(distinct))
C("median_dim", "median_scalar", lambda x: x.median(0).values, [()], lambda x: x.copy(), "MedianBackward1")

# ---- nanmedian: median of what is not NaN (a NaN input's gradient is 0)
C("nanmedian_all", "nan_left_out", lambda x: x.nanmedian(), [(5,)], np.nanmedian, "NanmedianBackward0",
  gen=lambda rng, s: [np.array([0.7, np.nan, -1.2, np.nan, 0.3])])
C("nanmedian_dim", "dim1_keepdim", lambda x: ad.nanmedian(x, 1, keepdim=True).values, [(2, 4)],
  lambda x: np.nanmedian(x, axis=1, keepdims=True), "NanmedianBackward1",
  gen=lambda rng, s: [np.array([[0.7, np.nan, -1.2, 0.3], [np.nan, 2.0, np.nan, np.nan]])])

# ---- mode (distinct values: the smallest; tests/engine/ops/test_selection.py has repeats)
C("mode", "distinct", lambda x: x.mode(1).values, [(3, 4)], lambda x: np_mode(x, 1), "ModeBackward0",
  gen=gen_all(distinct))

# ---- kthvalue
C("kthvalue", "k2", lambda x: x.kthvalue(2).values, [(5,)], lambda x: np_kth(x, 2), "KthvalueBackward0",
  gen=gen_all(distinct))
C("kthvalue", "dim0_keepdim", lambda x: ad.kthvalue(x, 3, 0, True)[0], [(3, 2)],
  lambda x: np_kth(x, 3, 0, True), "KthvalueBackward0", gen=gen_all(distinct))
C("kthvalue", "dim1_3d", lambda x: ad.kthvalue(x, 1, dim=1).values, [(2, 3, 2)], lambda x: np_kth(x, 1, 1),
  "KthvalueBackward0", gen=gen_all(distinct))
C("kthvalue", "scalar", lambda x: x.kthvalue(1).values, [()], lambda x: x.copy(), "KthvalueBackward0")

# ---- sort (values: x at the sorting permutation)
C("sort", "last_dim", lambda x: x.sort().values, [(3, 4)], lambda x: np.sort(x, axis=-1), "SortBackward0",
  gen=gen_all(distinct))
C("sort", "dim0_descending", lambda x: ad.sort(x, dim=0, descending=True)[0], [(3, 2)],
  lambda x: -np.sort(-x, axis=0), "SortBackward0", gen=gen_all(distinct))
C("sort", "positional_3d", lambda x: ad.sort(x, 1, True).values, [(2, 3, 2)], lambda x: -np.sort(-x, axis=1),
  "SortBackward0", gen=gen_all(distinct))
C("sort", "stable_1d", lambda x: x.sort(stable=True).values, [(5,)], np.sort, "SortBackward0",
  gen=gen_all(distinct))
C("sort", "scalar", lambda x: x.sort().values, [()], lambda x: x.copy(), "SortBackward0")

# ---- topk
C("topk", "k2_last_dim", lambda x: x.topk(2).values, [(3, 4)], lambda x: np_topk(x, 2), "TopkBackward0",
  gen=gen_all(distinct))
C("topk", "smallest_dim0", lambda x: ad.topk(x, 1, dim=0, largest=False)[0], [(3, 4)],
  lambda x: np_topk(x, 1, 0, False), "TopkBackward0", gen=gen_all(distinct))
C("topk", "unsorted_1d", lambda x: ad.topk(x, 3, sorted=False).values, [(5,)], lambda x: np_topk(x, 3),
  "TopkBackward0", gen=gen_all(distinct))
C("topk", "all_3d", lambda x: x.topk(3, 1).values, [(2, 3, 2)], lambda x: np_topk(x, 3, 1), "TopkBackward0",
  gen=gen_all(distinct))
C("topk", "scalar", lambda x: x.topk(1).values, [()], lambda x: x.copy(), "TopkBackward0")

# ================================================================ var and std

C("var", "all", lambda x: x.var(), [(3, 4)], lambda x: np.var(x, ddof=1), "VarBackward0")
C("var", "dim1", lambda x: ad.var(x, 1), [(3, 4)], lambda x: np.var(x, axis=1, ddof=1), "VarBackward0")
C("var", "dims_keepdim", lambda x: x.var((0, 2), keepdim=True), [(2, 3, 2)],
  lambda x: np.var(x, axis=(0, 2), ddof=1, keepdims=True), "VarBackward0")
C("var", "correction0", lambda x: ad.var(x, 0, correction=0), [(3, 2)], lambda x: np.var(x, axis=0),
  "VarBackward0")
C("var", "correction_fraction", lambda x: x.var(1, correction=0.5), [(2, 4)],
  lambda x: np.var(x, axis=1, ddof=0.5), "VarBackward0")
C("var", "unbiased_false", lambda x: x.var(unbiased=False), [(5,)], np.var, "VarBackward0")
C("var", "unbiased_positional", lambda x: ad.var(x, 1, False, True), [(2, 3)],
  lambda x: np.var(x, axis=1, keepdims=True), "VarBackward0")
C("var", "unbiased_only", lambda x: x.var(False), [(2, 2)], np.var, "VarBackward0")
C("var", "all_keepdim", lambda x: x.var(keepdim=True), [(2, 3)], lambda x: np.var(x, ddof=1, keepdims=True),
  "VarBackward0")
C("std", "all", lambda x: x.std(), [(3, 4)], lambda x: np.std(x, ddof=1), "StdBackward0")
C("std", "dim0", lambda x: ad.std(x, 0), [(3, 4)], lambda x: np.std(x, axis=0, ddof=1), "StdBackward0")
C("std", "correction0_keepdim", lambda x: x.std(1, correction=0, keepdim=True), [(2, 3)],
  lambda x: np.std(x, axis=1, keepdims=True), "StdBackward0")
C("std", "dims_unbiased_false", lambda x: ad.std(x, (0, 1), unbiased=False), [(2, 2, 2)],
  lambda x: np.std(x, axis=(0, 1)), "StdBackward0")
