"""Op cases of the statistics rows and composites (see tests/engine/ops/op_cases.py for what a case is):
var_mean, std_mean, fmax, fmin, bincount, histc, searchsorted, bucketize (rows of
engine/ops/statistics.py), and quantile, nanquantile, cov, corrcoef, trapezoid, trapz and
cumulative_trapezoid, composed of other rows as PyTorch composes them (each case names the row it
ends in, and PyTorch's node name). unique, unique_consecutive, NaN rules and errors:
tests/engine/ops/test_statistics.py."""
import numpy as np

import autodiff.engine as ad
from op_cases import C, distinct, gen_each, separated, positive

# ------------------------------------------------------------ numpy references


def np_cumulative_trapezoid(y, x=None, dx=1.0, axis=-1):
    """Running trapezoid sums: (y[i] + y[i+1]) / 2 times the step (x's 1-d differences, or dx)."""
    y = np.moveaxis(y, axis, -1)
    steps = dx if x is None else np.diff(x)
    return np.moveaxis(np.cumsum((y[..., 1:] + y[..., :-1]) * steps / 2.0, axis=-1), -1, axis)


def np_searchsorted(boundaries, values, side="left"):
    """Row by row for batched boundaries (the reference may loop)."""
    if boundaries.ndim == 1:
        return np.searchsorted(boundaries, values, side=side).astype(np.int64)
    rows = [np.searchsorted(b, v, side=side) for b, v in zip(boundaries.reshape(-1, boundaries.shape[-1]),
                                                              values.reshape(-1, values.shape[-1]))]
    return np.asarray(rows, dtype=np.int64).reshape(values.shape)


def np_histc(x, bins, lo, hi):
    return np.histogram(x, bins=bins, range=(lo, hi))[0].astype(x.dtype)


# ------------------------------------------------------------------ generators

def sorted_rows(rng, shape):
    return np.sort(rng.uniform(-2, 2, shape), axis=-1)


def counts(n, top):
    return lambda rng, shape: rng.integers(0, top, shape)


def fweights(rng, shape):
    return rng.integers(1, 4, shape)


def with_nan(rng, shape):
    a = distinct(rng, shape)
    a.reshape(-1)[[1, -2]] = np.nan
    return a


Q3 = np.array([0.15, 0.5, 0.85])

# ============================================================== var_mean, std_mean (VarMeanBackward0, StdMeanBackward0)

C("var_mean", "dim1", lambda x: ad.var_mean(x, 1)[0], [(3, 4)], lambda x: np.var(x, axis=1, ddof=1),
  "VarMeanBackward0")
C("var_mean", "all_correction0_keepdim", lambda x: ad.var_mean(x, correction=0, keepdim=True)[0], [(2, 3)],
  lambda x: np.var(x, keepdims=True), "VarMeanBackward0")
C("var_mean_mean", "dims", lambda x: ad.var_mean(x, (0, 2), unbiased=False)[1], [(2, 3, 2)],
  lambda x: np.mean(x, axis=(0, 2)), "VarMeanBackward0")
C("std_mean", "dim0_keepdim", lambda x: ad.std_mean(x, 0, keepdim=True)[0], [(3, 4)],
  lambda x: np.std(x, axis=0, ddof=1, keepdims=True), "StdMeanBackward0")
C("std_mean_mean", "all", lambda x: ad.std_mean(x)[1], [(3, 4)], np.mean, "StdMeanBackward0")

# ============================================================== fmax, fmin (away from ties: all to input there)

C("fmax", "broadcast", lambda a, b: ad.fmax(a, b), [(2, 3), (3,)], np.fmax, "FmaxBackward0", gen=separated)
C("fmax", "method", lambda a, b: a.fmax(b), [(3, 2), (3, 2)], np.fmax, "FmaxBackward0", gen=separated)
C("fmin", "broadcast", lambda a, b: ad.fmin(a, b), [(2, 3), (2, 1)], np.fmin, "FminBackward0", gen=separated)
C("fmin", "method", lambda a, b: a.fmin(b), [(4,), (4,)], np.fmin, "FminBackward0", gen=separated)

# ============================================================== counting and searching (never require grad)

C("bincount", "plain", lambda x: ad.bincount(x), [(12,)], np.bincount, gen=gen_each(counts(12, 6)))
C("bincount", "weights_minlength", lambda x, w: x.bincount(w, minlength=9), [(10,), (10,)],
  lambda x, w: np.bincount(x, weights=w, minlength=9), gen=gen_each(counts(10, 5), distinct))
C("histc", "range", lambda x: ad.histc(x, bins=5, min=-1, max=1), [(20,)], lambda x: np_histc(x, 5, -1, 1))
C("histc", "own_range", lambda x: x.histc(bins=4), [(3, 5)], lambda x: np_histc(x, 4, x.min(), x.max()),
  gen=gen_each(distinct))
C("searchsorted", "left", lambda b, v: ad.searchsorted(b, v), [(6,), (2, 3)], np_searchsorted,
  gen=gen_each(sorted_rows, distinct))
C("searchsorted", "right_batched", lambda b, v: ad.searchsorted(b, v, side="right"), [(2, 5), (2, 3)],
  lambda b, v: np_searchsorted(b, v, side="right"), gen=gen_each(sorted_rows, distinct))
C("searchsorted", "sorter_int32", lambda b, v, s: ad.searchsorted(b, v, sorter=s, out_int32=True),
  [(5,), (4,), (5,)], lambda b, v, s: np.searchsorted(b, v, sorter=s).astype(np.int32),
  gen=lambda rng, shapes: [b := distinct(rng, shapes[0]), distinct(rng, shapes[1]), np.argsort(b)])
C("bucketize", "right", lambda v, b: ad.bucketize(v, b, right=True), [(3, 4), (5,)],
  lambda v, b: np.searchsorted(b, v, side="right").astype(np.int64), gen=gen_each(distinct, sorted_rows))

# ============================================================== quantile, nanquantile: sort, gather, lerp

for mode, row in (("linear", "lerp"), ("lower", "take_along"), ("higher", "take_along"),
                  ("midpoint", "lerp"), ("nearest", "take_along")):
    C(row, f"quantile_{mode}", lambda x, mode=mode: ad.quantile(x, 0.3, dim=1, interpolation=mode), [(3, 6)],
      lambda x, mode=mode: np.quantile(x, 0.3, axis=1, method=mode), "SqueezeBackward4", gen=gen_each(distinct))
C("lerp", "quantile_all", lambda x: x.quantile(0.7), [(3, 4)], lambda x: np.quantile(x, 0.7), "SqueezeBackward4",
  gen=gen_each(distinct))
C("lerp", "quantile_q_tensor_dim0_keepdim", lambda x: ad.quantile(x, ad.tensor(Q3), dim=0, keepdim=True),
  [(5, 3)], lambda x: np.quantile(x, Q3, axis=0, keepdims=True), "SqueezeBackward4", gen=gen_each(distinct))
C("lerp", "quantile_grad_q", lambda x, q: ad.quantile(x, q, dim=1), [(2, 5), (3,)],
  lambda x, q: np.quantile(x, q, axis=1), "SqueezeBackward4",
  gen=lambda rng, shapes: [distinct(rng, shapes[0]), np.array([0.1, 0.4, 0.9])])
C("lerp", "nanquantile_dim", lambda x: ad.nanquantile(x, 0.4, dim=1), [(3, 6)],
  lambda x: np.nanquantile(x, 0.4, axis=1), "SqueezeBackward4", gen=gen_each(with_nan))
C("take_along", "nanquantile_nearest", lambda x: x.nanquantile(ad.tensor(Q3), interpolation="nearest"), [(4, 3)],
  lambda x: np.nanquantile(x, Q3, method="nearest"), "SqueezeBackward4", gen=gen_each(with_nan))

# ============================================================== cov, corrcoef

C("squeeze", "cov", lambda x: ad.cov(x), [(3, 5)], np.cov, "SqueezeBackward0")
C("squeeze", "cov_1d_correction0", lambda x: x.cov(correction=0), [(6,)], lambda x: np.cov(x, ddof=0),
  "SqueezeBackward0")
C("squeeze", "cov_weights", lambda x, f, a: ad.cov(x, correction=2, fweights=f, aweights=a), [(2, 6), (6,), (6,)],
  lambda x, f, a: np.cov(x, ddof=2, fweights=f, aweights=a), "SqueezeBackward0",
  gen=gen_each(distinct, fweights, positive()))
C("clamp", "corrcoef", lambda x: ad.corrcoef(x), [(3, 6)], np.corrcoef, "ClampBackward1")
C("div", "corrcoef_one_variable", lambda x: x.corrcoef(), [(5,)], lambda x: np.float64(1.0), "DivBackward0")

# ============================================================== trapezoid, trapz, cumulative_trapezoid

C("scalar_arith", "trapezoid", lambda y: ad.trapezoid(y), [(3, 5)], np.trapezoid, "MulBackward1")
C("scalar_arith", "trapezoid_dx_dim0", lambda y: ad.trapezoid(y, dx=0.5, dim=0), [(4, 3)],
  lambda y: np.trapezoid(y, dx=0.5, axis=0), "MulBackward1")
C("scalar_arith", "trapezoid_x1d", lambda y, x: ad.trapezoid(y, x), [(2, 5), (5,)],
  lambda y, x: np.trapezoid(y, x), "DivBackward1", gen=gen_each(distinct, sorted_rows))
C("scalar_arith", "trapezoid_x_same_shape", lambda y, x: ad.trapezoid(y, x=x, dim=0), [(4, 3), (4, 3)],
  lambda y, x: np.trapezoid(y, x, axis=0), "DivBackward1")
C("scalar_arith", "trapz", lambda y: ad.trapz(y, dx=2.0), [(5,)], lambda y: np.trapezoid(y, dx=2.0), "MulBackward1")
C("cumsum", "cumulative_trapezoid", lambda y: ad.cumulative_trapezoid(y), [(3, 5)], np_cumulative_trapezoid,
  "CumsumBackward0")
C("cumsum", "cumulative_trapezoid_dx_dim0", lambda y: ad.cumulative_trapezoid(y, dx=0.3, dim=0), [(4, 2)],
  lambda y: np_cumulative_trapezoid(y, dx=0.3, axis=0), "CumsumBackward0")
C("scalar_arith", "cumulative_trapezoid_x", lambda y, x: ad.cumulative_trapezoid(y, x), [(2, 5), (5,)],
  lambda y, x: np_cumulative_trapezoid(y, x), "DivBackward1", gen=gen_each(distinct, sorted_rows))
