"""The few formulas that need numerical care, on any array module `xp` (numpy or cupy).

Everything else a row computes is one call of the array module. These are here because the
obvious expression loses accuracy or range, not to follow another library's order of operations:
every function is vectorised (no Python loop over elements), and gives the same bits for the same
input whatever its shape -- a 0-d value and a one-element array alike -- because it calls the
same ufuncs either way (never Python's `**`, which numpy routes through C's pow for a scalar and
through its own vectorised power for an array).
"""
import math

import numpy

__all__ = ["broadcast_to", "total", "product", "mean", "power", "matmul", "variance", "logsumexp", "softmax", "log_softmax", "softmax_backward",
           "log_softmax_backward", "lerp", "log_add_exp", "erf", "erfc", "erfinv", "det", "accumulate",
           "reduce_at"]

def _cube(xp, x):
    """(x * x) * x, the second product written over the first's new array (x * x * x makes another)."""
    t = x * x
    t *= x  # (a numpy scalar, immutable, just makes a new one)
    return t


# exponents a product (or a square root) computes better than a general power: exact to the last
# bit on every CPU (a general power is as exact as this machine's library makes it). PyTorch's CPU
# kernel picks the same ones.
_BY_PRODUCTS = {2: lambda xp, x: x * x,
                3: _cube,
                -1: lambda xp, x: 1 / x,
                -2: lambda xp, x: 1 / (x * x),
                0.5: lambda xp, x: xp.sqrt(x),
                -0.5: lambda xp, x: 1 / xp.sqrt(x)}


def broadcast_to(xp, x, shape):
    """xp.broadcast_to(x, shape), a read-only view; one number (a 0-d array or a numpy scalar)
    spread over `shape` is made directly as an array of zero strides over it, in C (numpy's
    broadcast_to goes through Python and an nditer: a few microseconds, the most of a small
    gradient's spread)."""
    if xp is numpy and x.ndim == 0 and (x.__class__ is numpy.ndarray or isinstance(x, numpy.generic)):
        view = numpy.ndarray(shape, x.dtype, x if x.__class__ is numpy.ndarray else numpy.asarray(x), 0,
                             (0,) * len(shape))
        view.flags.writeable = False
        return view
    return xp.broadcast_to(x, shape)


# Reductions on numpy arrays call the ufuncs' reduce directly. The same sums as the methods (x.sum()
# is add.reduce), but a warning numpy raises (inf - inf is invalid) then comes from the engine's own
# code, which engine/__init__.py's filter keeps quiet, as PyTorch is; through the method it would
# come from numpy's Python wrapper and reach the user, with numpy's file and line.
_ADD_REDUCE = numpy.add.reduce
_MULTIPLY_REDUCE = numpy.multiply.reduce


def total(xp, x, axis=None, keepdims=False):
    """x.sum(axis=axis, keepdims=keepdims), quietly (see above)."""
    if xp is numpy:
        return _ADD_REDUCE(x, axis, None, None, keepdims)
    return x.sum(axis=axis, keepdims=keepdims)


def product(xp, x, axis=None, keepdims=False):
    """xp.prod(x, axis=axis, keepdims=keepdims), quietly (see above)."""
    if xp is numpy:
        return _MULTIPLY_REDUCE(x, axis, None, None, keepdims)
    return xp.prod(x, axis=axis, keepdims=keepdims)


def mean(xp, x, axis, keepdims, count):
    """x.mean(axis=axis, keepdims=keepdims), quietly (see above), `count` the number of elements each
    mean takes: for float32 and float64 numpy's own steps -- the sum, then a division by the count as
    numpy's intp (through float64, as numpy's mean does) -- so the same bits; other dtypes through the
    method."""
    dtype = x.dtype
    if xp is not numpy or dtype.kind != "f" or dtype.itemsize < 4:
        return x.mean(axis=axis, keepdims=keepdims)
    count = numpy.intp(count)
    out = _ADD_REDUCE(x, axis, None, None, keepdims)
    if out.__class__ is numpy.ndarray:
        return numpy.true_divide(out, count, out=out, casting="unsafe", subok=False)
    return out.dtype.type(out / count)


def power(xp, x, exponent):
    """x ** exponent for an array (or numpy scalar) x and a Python number exponent: small integer
    powers and square roots by products, the rest by the array module's power ufunc."""
    if exponent.__class__ is not bool and x.dtype.kind in "fc":
        by_products = _BY_PRODUCTS.get(exponent)
        if by_products is not None:
            return by_products(xp, x)
    return xp.power(x, exponent)


# The longest dot product left to BLAS. numpy hands every product whose result is one number per
# pair (vector @ vector, (1, n) @ (n, 1), a stack of them) to BLAS's dot, which OpenBLAS splits among
# its threads above 10,000 elements -- so its bits depend on the thread count (a Dask worker runs
# one thread) -- and whose float32 sum is a few running sums (on the polynomial tutorial's data at
# 2*10^6: 8e-6 off with the AVX-512 kernel, 1.4e-4 with the Haswell one). Longer ones are summed
# here: the products, then the array module's pairwise sum, as `sum` does.
LONG_DOT = 8192


def matmul(xp, a, b):
    """xp.matmul(a, b), except that a long dot product (see LONG_DOT) is the pairwise sum of the
    products: the same bits on any thread count, as exact as a sum."""
    n = a.shape[-1] if a.ndim else 0
    if n > LONG_DOT and b.ndim and a.dtype.kind in "fc" and (a.ndim == 1 or a.shape[-2] == 1) \
            and (b.ndim == 1 or b.shape[-1] == 1):
        rows = a[None, :] if a.ndim == 1 else a              # (..., 1, n)
        columns = b[:, None] if b.ndim == 1 else b           # (..., n, 1)
        out = total(xp, rows * xp.swapaxes(columns, -1, -2), -1, True)  # (..., 1, 1)
        if a.ndim == 1:
            out = out[..., 0, :]
        if b.ndim == 1:
            out = out[..., 0]
        return out
    return xp.matmul(a, b)


def variance(xp, x, dims, correction, keepdim, count):
    """The sum of squared deviations from the mean over `dims` (None: all), divided by
    max(0, count - correction): two passes (the mean first), which keeps the cancellation of a
    one-pass sum of squares away; each pass is the array module's pairwise sum."""
    with numpy.errstate(divide="ignore", invalid="ignore"):
        d = x - x.sum(axis=dims, keepdims=True) / count
        if isinstance(d, xp.ndarray):
            xp.multiply(d, d, out=d)  # squared in place: one temporary, not two (a 10^6 var 5x faster)
        else:  # (a numpy scalar)
            d = d * d
        return d.sum(axis=dims, keepdims=keepdim) / max(0, count - correction)


def _largest(xp, x, dim):
    """The largest value along dim (an int, a tuple of them, or None: all), keepdims; -inf along an
    empty dim (the largest of nothing)."""
    if x.size:
        return x.max(axis=dim, keepdims=True)
    dims = range(x.ndim) if dim is None else (dim,) if isinstance(dim, int) else dim
    return xp.full(tuple(1 if k in dims else n for k, n in enumerate(x.shape)), -numpy.inf, dtype=x.dtype)


def _shift(xp, x, dim):
    """The largest value along dim (keepdims), 0 where it is not finite: subtracted before exp so
    that nothing overflows, and an all -inf or +inf slice still gives -inf or +inf (not NaN)."""
    m = _largest(xp, x, dim)
    return xp.where(xp.isfinite(m), m, 0)


def logsumexp(xp, x, dim, keepdim):
    """log(sum(exp(x))) along dim without overflow: the largest value shifted out first."""
    m = _shift(xp, x, dim)
    with numpy.errstate(divide="ignore", invalid="ignore"):
        out = xp.log(xp.exp(x - m).sum(axis=dim, keepdims=True)) + m
    return out if keepdim else xp.squeeze(out, axis=dim)


def softmax(xp, x, dim):
    """exp(x) / sum(exp(x)) along dim, the largest value shifted out first; one array, written in
    place (on 10^6 elements each new array costs as much as a pass: fresh memory is faulted in)."""
    e = x - _largest(xp, x, dim)
    if isinstance(e, numpy.generic):  # (a 0-d input's number: nothing to write into)
        e = xp.exp(e)
        return e / e.sum(axis=dim, keepdims=True)
    xp.exp(e, out=e)
    e /= e.sum(axis=dim, keepdims=True)
    return e


def log_softmax(xp, x, dim):
    """x - logsumexp(x) along dim, as (x - max) - log(sum(exp(x - max))): exact where one term
    dominates, where log(softmax(x)) would give log(0) = -inf. The shifted x is written in place."""
    s = x - _largest(xp, x, dim)
    t = xp.log(xp.exp(s).sum(axis=dim, keepdims=True))
    if isinstance(s, numpy.generic):
        return s - t
    s -= t
    return s


def softmax_backward(xp, g, out, dim):
    """(g - sum(g * out)) * out along dim, the gradient of softmax's output `out` -- the same
    operations as the row's formula in engine ops, in one new array."""
    t = g * out
    s = t.sum(axis=dim, keepdims=True)
    if isinstance(t, numpy.generic) or t.dtype != g.dtype:
        return (g - s) * out
    xp.subtract(g, s, out=t)
    t *= out
    return t


def log_softmax_backward(xp, g, out, dim):
    """g - exp(out) * sum(g) along dim, the gradient of log_softmax's output `out` -- the same
    operations as the row's formula in engine ops, in one new array."""
    e = xp.exp(out)
    s = g.sum(axis=dim, keepdims=True)
    if isinstance(e, numpy.generic) or e.dtype != g.dtype or e.shape != g.shape:
        return g - e * s
    e *= s
    return xp.subtract(g, e, out=e)


def lerp(xp, a, b, w):
    """a + w (b - a), computed from the nearer end (b - (1 - w)(b - a) for w >= 0.5), so that
    w = 1 gives b exactly and the result is monotone in w."""
    d = b - a
    near = xp.abs(w) < 0.5
    return xp.where(near, a + w * d, b - (1 - w) * d)


def log_add_exp(xp, a, b, base2=False):
    """log(exp(a) + exp(b)) (log2(2**a + 2**b) with `base2`): the larger one plus the log1p of the
    smaller's share, so nothing overflows; the same infinity twice gives itself (not inf - inf)."""
    with numpy.errstate(all="ignore"):
        d = -xp.abs(a - b)
        share = xp.log1p(xp.exp2(d)) * (1 / math.log(2)) if base2 else xp.log1p(xp.exp(d))
        return xp.where(xp.isinf(a) & (a == b), a, xp.maximum(a, b) + share)


# Reductions call the arrays' own methods (x.sum(...), not xp.sum(x, ...)): numpy's module
# functions add a Python-level dispatch of about 2 µs per call, the cost of summing 5,000 numbers.

# ---------------------------------------------------------------------------------- erf and erfc
# numpy has no erf. Near 0, erf is its Taylor series; from |x| = 0.5 on, erfc(x) = exp(-x^2) erfcx(x)
# with erfcx (the scaled complement, smooth and slowly varying) as a Taylor polynomial around the
# nearest of a grid of centres c (every 1/8), and exp(-x^2) as exp(-c^2) exp(-(2c + h) h), h = x - c,
# so that no rounding of x^2 is magnified by the exponential. Measured against 120-bit references:
# within 5 units in the last place over the whole range (tests/test_kernels.py).

_ERF_SERIES_BELOW = 0.5
_ERFC_STEP = 0.125
_ERFC_LAST = 27.25        # erfc is below the smallest double from about 27.2 on: 0 after the last centre
_ERFCX_TERMS = 12         # |h| <= 1/16: twelve terms reach double precision at every centre
_TWO_OVER_ROOT_PI = 2 / math.sqrt(math.pi)
# erf(x) = x * sum_n ERF_SERIES[n] x^(2n) for |x| < 0.5: 13 terms reach double precision there
_ERF_SERIES = [_TWO_OVER_ROOT_PI * (-1) ** n / (math.factorial(n) * (2 * n + 1)) for n in range(13)]
_erfc_tables = {}         # array module -> (centres, coefficients by power, exp(-centre^2))


def _erfcx_at(c):
    """erfcx(c) = exp(c^2) erfc(c) for a centre c (c^2 exact): from libm's erfc below 10, and from
    the asymptotic series (which reaches double precision there) above, where erfc underflows."""
    if c < 10:
        return math.erfc(c) * math.exp(c * c)
    term = total = 1.0
    n = 1
    while abs(term) > 1e-18:
        term *= -(2 * n - 1) / (2 * c * c)
        total += term
        n += 1
    return total / (c * math.sqrt(math.pi))


def _erfcx_taylor(c):
    """The Taylor coefficients a_n = erfcx^(n)(c) / n! around c. erfcx' = 2x erfcx - 2/sqrt(pi) gives
    a_(n+1) = (2c a_n + 2 a_(n-1)) / (n + 1). erfcx is the recurrence's decaying solution, so above
    c = 2 it is run downwards from far out (Miller's method) and scaled to a_0; below, upwards."""
    a0 = _erfcx_at(c)
    if c < 2:
        a = [a0, 2 * c * a0 - _TWO_OVER_ROOT_PI]
        for n in range(1, _ERFCX_TERMS - 1):
            a.append((2 * c * a[n] + 2 * a[n - 1]) / (n + 1))
        return a
    top = _ERFCX_TERMS + 40
    a = [0.0] * (top + 2)
    a[top] = 1e-300
    for n in range(top, 0, -1):
        a[n - 1] = ((n + 1) * a[n + 1] - 2 * c * a[n]) / 2
        if abs(a[n - 1]) > 1e200:  # rescale before it overflows (only the ratios matter)
            a = [v * 1e-200 for v in a]
    return [v * (a0 / a[0]) for v in a[:_ERFCX_TERMS]]


def _erfc_table(xp):
    table = _erfc_tables.get(xp)
    if table is None:
        centres = numpy.arange(_ERF_SERIES_BELOW, _ERFC_LAST + _ERFC_STEP / 2, _ERFC_STEP)
        coefficients = numpy.array([_erfcx_taylor(float(c)) for c in centres]).T.copy()
        table = _erfc_tables[xp] = tuple(xp.asarray(t) for t in (centres, coefficients, numpy.exp(-centres * centres)))
    return table


def _erfc_of_large(xp, a):
    """erfc(a) for a 1-d float64 array of a >= 0.5 (inf and nan included)."""
    centres, coefficients, exp_centres = _erfc_table(xp)
    clean = xp.minimum(a, _ERFC_LAST)  # nan stays nan; past the last centre: 0, below
    k = xp.rint((clean - _ERF_SERIES_BELOW) * (1 / _ERFC_STEP))
    k = xp.nan_to_num(k, nan=0.0).astype(xp.intp)
    h = clean - xp.take(centres, k)
    p = xp.take(coefficients[_ERFCX_TERMS - 1], k)
    term = xp.empty_like(p)
    for power in range(_ERFCX_TERMS - 2, -1, -1):  # Horner's rule, in place
        p *= h
        p += xp.take(coefficients[power], k, out=term)
    scale = xp.take(centres, k, out=term)
    scale *= 2
    scale += h
    scale *= h
    xp.negative(scale, out=scale)
    xp.exp(scale, out=scale)      # exp(-(2c + h) h)
    p *= scale
    p *= xp.take(exp_centres, k, out=term)
    p[a > _ERFC_LAST] = 0.0
    return p


def _erf_or_erfc(xp, x, complement):
    flat = xp.asarray(x).astype(xp.float64).reshape(-1)
    out = xp.empty_like(flat)
    a = xp.abs(flat)
    small = a < _ERF_SERIES_BELOW
    if bool(small.any()):
        v = flat[small]
        s = v * v
        p = _ERF_SERIES[-1]
        for coefficient in _ERF_SERIES[-2::-1]:
            p = p * s + coefficient
        out[small] = 1 - v * p if complement else v * p
    large = ~small
    if bool(large.any()):
        tail = _erfc_of_large(xp, a[large])
        negative = flat[large] < 0
        out[large] = xp.where(negative, 2 - tail, tail) if complement else xp.where(negative, tail - 1, 1 - tail)
    result = out.reshape(getattr(x, "shape", ())).astype(x.dtype, copy=False)
    return result if result.shape else result[()]


def erf(xp, x):
    """The error function of a floating array (float32 and float16 computed in double)."""
    return _erf_or_erfc(xp, x, complement=False)


def erfc(xp, x):
    """1 - erf(x), without the cancellation: accurate where erf(x) is close to 1."""
    return _erf_or_erfc(xp, x, complement=True)


# Giles's single-precision approximation of erfinv(y) / y ("Approximating the erfinv function",
# GPU Computing Gems, 2011), in w = -log(1 - y^2): a start that three Halley steps make exact
_ERFINV_CENTRE = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                  -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_ERFINV_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)


def _horner(coefficients, w):
    p = coefficients[0]
    for c in coefficients[1:]:
        p = c + p * w
    return p


def erfinv(xp, y):
    """The inverse of erf on [-1, 1] (+-inf at +-1, NaN outside), float32 and float16 computed in
    double. Each Halley step solves erf(x) = |y| through erfc(x) = 1 - |y| where |y| > 0.5, so the
    tail keeps its digits (1 - |y| is exact there)."""
    dtype = y.dtype
    a = xp.abs(xp.asarray(y, dtype=numpy.float64))
    inside = a < 1
    a_in = xp.where(inside, a, 0.0)
    w = -xp.log((1 - a_in) * (1 + a_in))
    x = a_in * xp.where(w < 5, _horner(_ERFINV_CENTRE, w - 2.5), _horner(_ERFINV_TAIL, xp.sqrt(w) - 3))
    # beyond single precision's range (1 - |y| < 1e-7) the start is erfc's asymptote, x^2 = -log(
    # sqrt(pi) x (1 - |y|)), iterated twice
    far = w > 16
    if bool(far.any()):
        log_q = xp.log(xp.where(far, 1 - a_in, 0.5))
        x_far = xp.sqrt(-log_q)
        for _ in range(2):
            x_far = xp.sqrt(-log_q - xp.log(math.sqrt(math.pi) * x_far))
        x = xp.where(far, x_far, x)
    tail = a_in > 0.5
    for _ in range(3):
        f = xp.where(tail, (1 - a_in) - erfc(xp, x), erf(xp, x) - a_in)
        u = f / ((2 / math.sqrt(math.pi)) * xp.exp(-(x * x)))
        x = x - u / (1 + x * u)
    x = xp.where(inside, x, xp.where(a == 1, numpy.inf, numpy.nan))
    result = xp.copysign(x, y).astype(dtype, copy=False)
    return result if result.shape else result[()]


def det(xp, x):
    """The determinant of a batch of square matrices (..., n, n). For n <= 3 the cofactor
    expansion, which is exact for small whole numbers (det([[1, 2], [3, 4]]) is -2, where LAPACK's
    LU through exp(log|det|), numpy's way, gives -2.0000000000000004); larger ones numpy's, whose
    overflow and NaN are PyTorch's inf and NaN, silently."""
    n = x.shape[-1]
    if n == 0:
        return xp.ones(x.shape[:-2], dtype=x.dtype)
    if n == 1:
        return x[..., 0, 0].copy()
    if n == 2:
        return x[..., 0, 0] * x[..., 1, 1] - x[..., 0, 1] * x[..., 1, 0]
    if n == 3:
        a, b, c = x[..., 0, 0], x[..., 0, 1], x[..., 0, 2]
        d, e, f = x[..., 1, 0], x[..., 1, 1], x[..., 1, 2]
        g, h, i = x[..., 2, 0], x[..., 2, 1], x[..., 2, 2]
        return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    with numpy.errstate(all="ignore"):
        return xp.linalg.det(x)


# ---------------------------------------------------------------- scans and scatters on any module
# numpy's ufunc methods accumulate and at serve every ufunc; CuPy's accumulate serves only add and
# multiply (cumsum, cumprod), and its `at` only some ufuncs (add exactly; maximum and minimum round
# float64 through float32 on CuPy 14, multiply is refused). The two helpers below take numpy's
# method on the CPU (one pass, in order: the CPU's bits) and a portable form of vectorised passes
# elsewhere.

def _along(axis, ndim, part):
    return (slice(None),) * axis + (part,) + (slice(None),) * (ndim - axis - 1)


def accumulate(xp, name, x, axis):
    """getattr(xp, name).accumulate(x, axis) for the binary ufunc `name` (maximum, minimum,
    logaddexp...): numpy's own on the CPU; elsewhere a doubling scan (Hillis and Steele): the
    pass of shift s makes each position the ufunc of the 2s values ending there, the earlier ones
    as the first operand, so ceil(log2 n) vectorised passes. For maximum and minimum both give
    the same values (a max is exact in any grouping, NaN carries on, ties keep the earlier
    operand); for logaddexp the grouping is a tree, not the CPU's left-to-right order, so a result
    may differ from the CPU's in its last bits (each is within a few units in the last place)."""
    if xp is numpy:
        return getattr(numpy, name).accumulate(x, axis=axis)
    ufunc = getattr(xp, name)
    out = x.copy()
    n, shift = x.shape[axis], 1
    while shift < n:
        out[_along(axis, x.ndim, slice(shift, None))] = ufunc(out[_along(axis, x.ndim, slice(None, n - shift))],
                                                             out[_along(axis, x.ndim, slice(shift, None))])
        shift *= 2
    return out


_AT_FROM_RUNS = ("multiply", "maximum", "minimum")


def reduce_at(xp, name, target, key, values):
    """getattr(xp, name).at(target, key, values), in place: each element of `values` reduced into
    target[key] (a repeated position takes every one of them) by the ufunc `name` (add, multiply,
    maximum or minimum); `key` one integer array per axis of the target, broadcasting together,
    `values` to their shape. numpy's ufunc.at on the CPU, and the module's add.at for add.
    Elsewhere multiply, maximum and minimum reduce each position's values first, by a segmented
    doubling scan over them sorted (stably) by position, then into the target once: for maximum
    and minimum the same values as the CPU's (NaN carries on as there); a product is grouped as a
    tree, target * (v1 v2 ...), not the CPU's ((target v1) v2)..., so it may differ in its last bits."""
    if xp is numpy or name not in _AT_FROM_RUNS:
        getattr(xp, name).at(target, key, values)
        return
    ufunc = getattr(xp, name)
    shape = numpy.broadcast_shapes(*(k.shape for k in key), values.shape)
    coords = [xp.broadcast_to(k, shape).reshape(-1) for k in key]
    position = 0
    for c, n in zip(coords, target.shape):  # the flat (C order) place in the target, negatives wrapped
        position = position * n + xp.where(c < 0, c + n, c).astype(numpy.int64)
    order = xp.argsort(position, kind="stable")
    position = position[order]
    run = xp.broadcast_to(values, shape).reshape(-1)[order]
    m, shift = position.shape[0], 1
    while shift < m:  # run[i] becomes the ufunc of its segment's values up to i
        same = position[shift:] == position[:m - shift]
        run[shift:] = xp.where(same, ufunc(run[:m - shift], run[shift:]), run[shift:])
        shift *= 2
    last = xp.ones(m, dtype=bool)
    last[:-1] = position[1:] != position[:-1]
    where = tuple(c[order][last] for c in coords)
    target[where] = ufunc(target[where], run[last])
