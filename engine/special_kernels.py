"""The kernels of torch.special's functions that numpy lacks: lgamma, digamma, polygamma, the Hurwitz
zeta, erfcx, the modified Bessel functions i0/i0e/i1/i1e, ndtri and log_ndtr -- on any array module
`xp` (numpy or cupy), vectorised (a fixed number of recurrence or series steps over whole arrays, no
loop over elements). Each computes in float64 and returns the input's dtype (float32 and float16
too), a 0-d input as a numpy scalar. The edge values (poles, infinities, NaN) are PyTorch's.

How each is computed:
- lgamma: shifted up to x >= 10 by the recurrence (the log of a product of at most 10 factors) and
  Stirling's series there; x < 0.5 by the reflection formula.
- digamma: the recurrence up to x >= 10 and the asymptotic series; x < 0 by reflection through the
  fractional part (PyTorch's: NaN at the negative integers, -inf at +0, +inf at -0).
- zeta(s, q): the Hurwitz zeta by Euler-Maclaurin summation: a direct sum up to q + N >= 10 + s (s
  capped at 60), then the integral, half the last term and twelve Bernoulli corrections; polygamma(n,
  x) for n >= 2 is (-1)^(n+1) n! zeta(n + 1, x), trigamma the same with the reflection for x < 0.5.
- erfcx: exp(x^2) erfc(x) below 0.5; from 0.5 to 27.25 the Taylor polynomials of erfcx that
  kernels.erfc is built on; beyond, the asymptotic series.
- i0, i1 (and the scaled i0e, i1e): the power series for |x| <= 25, the asymptotic expansion
  e^x / sqrt(2 pi x) sum (-1)^k a_k(nu) / x^k above.
- ndtri(p): sqrt(2) erfinv(2p - 1) for p >= 1/4; below, -sqrt(2) erfcinv(2p) by Halley's method on
  erfc, written through erfcx so that nothing underflows down to the smallest subnormal p.
- log_ndtr: log(erfcx(-x / sqrt 2) / 2) - x^2 / 2 for x < -1, log1p(-erfc(x / sqrt 2) / 2) above.
"""
import math

import numpy

from . import kernels

__all__ = ["lgamma", "digamma", "trigamma", "polygamma", "zeta", "erfcx", "i0", "i0e", "i1", "i1e", "ndtri",
           "log_ndtr", "entr", "xlog1py"]

# B_2k for k = 1..12, as (numerator, denominator): each series coefficient below is one correctly
# rounded division of integers (Python's int / int), as exact as a fraction made first
_BERNOULLI = [(1, 6), (-1, 30), (1, 42), (-1, 30), (5, 66), (-691, 2730), (7, 6), (-3617, 510), (43867, 798),
              (-174611, 330), (854513, 138), (-236364091, 2730)]
# Stirling's series of lgamma: B_2k / (2k (2k - 1) x^(2k - 1)), k = 1..8
_STIRLING = [n / (d * 2 * k * (2 * k - 1)) for k, (n, d) in enumerate(_BERNOULLI[:8], start=1)]
# digamma's asymptotic series: log x - 1 / (2x) - sum B_2k / (2k x^2k), k = 1..8
_DIGAMMA = [n / (d * 2 * k) for k, (n, d) in enumerate(_BERNOULLI[:8], start=1)]
# Euler-Maclaurin's corrections: B_2j / (2j)!, j = 1..12
_EULER_MACLAURIN = [n / (d * math.factorial(2 * j)) for j, (n, d) in enumerate(_BERNOULLI, start=1)]
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)
_SHIFT_TO = 10.0


def _float(xp, x):
    return xp.asarray(x, dtype=numpy.float64)


def _out(xp, result, like):
    """The float64 result in the input's dtype (a float for a Python number), 0-d as a scalar."""
    dtype = getattr(like, "dtype", None)
    result = xp.asarray(result)
    if dtype is not None and dtype.kind == "f":
        result = result.astype(dtype, copy=False)
    return result if result.shape else result[()]


def _shift_up(xp, x, target=_SHIFT_TO, most=10):
    """(x + n, the product x (x + 1) ... (x + n - 1)) with n = ceil(target - x) for x in
    [target - most, target), n = 0 for x >= target (and NaN): at most `most` whole-array steps."""
    n = xp.where(x < target, xp.ceil(target - x), 0.0)
    n = xp.where(xp.isnan(n), 0.0, xp.minimum(n, most))
    product = xp.ones_like(x)
    for k in range(most):
        product = product * xp.where(k < n, x + k, 1.0)
    return x + n, product


def _lgamma_near_one_and_two(xp, z):
    """lgamma for z in [0.5, 2.5], exact at 1 and 2 (its zeros): with t = z - 2 (or z - 1, then minus
    log1p(t)), lgamma(2 + t) = (1 - gamma) t + sum_(k >= 2) (-1)^k (zeta(k) - 1) t^k / k, |t| <= 1/2."""
    low = z < 1.5
    t = xp.where(low, z - 1, z - 2)
    series = xp.zeros_like(t)
    for c in _LGAMMA_AT_TWO[::-1]:
        series = (series + c) * t
    return xp.where(low, series - xp.log1p(t), series)


def _lgamma_positive(xp, z):
    """lgamma for z >= 0.5 (NaN passes)."""
    near = z <= 2.5
    return xp.where(near, _lgamma_near_one_and_two(xp, xp.where(near, z, 2.0)),
                    _lgamma_stirling(xp, xp.where(near, 3.0, z)))


def _lgamma_stirling(xp, z):
    """lgamma by Stirling's series after the recurrence up to 10."""
    y, product = _shift_up(xp, z)
    inv = 1 / y
    inv2 = inv * inv
    series = _STIRLING[-1]
    for c in _STIRLING[-2::-1]:
        series = series * inv2 + c
    stirling = (y - 0.5) * xp.log(y) - y + _HALF_LOG_2PI + series * inv
    return stirling - xp.log(product)


def lgamma(xp, x):
    """log |Gamma(x)|: +inf at the poles (0 and the negative integers) and at +-inf."""
    with numpy.errstate(all="ignore"):
        v = _float(xp, x)
        reflect = v < 0.5
        z = xp.where(reflect, 1 - v, v)
        positive = _lgamma_positive(xp, xp.where(xp.isinf(z), 1.0, z))
        finite = xp.where(xp.isinf(v), 0.0, v)
        r = xp.abs(finite - xp.rint(finite))
        # log(pi / |sin(pi r)|); below 1e-8 it is -log(r) + (pi r)^2 / 6 (sin loses its digits in subnormals)
        log_ratio = xp.where(r < 1e-8, -xp.log(r) + (math.pi * r) ** 2 / 6,
                             math.log(math.pi) - xp.log(xp.sin(math.pi * r)))
        reflected = log_ratio - positive
        out = xp.where(reflect, reflected, positive)
        out = xp.where(xp.isinf(v), numpy.inf, out)
    return _out(xp, out, x)


def _digamma_positive(xp, z):
    """digamma for z > 0 (NaN passes)."""
    n = xp.where(z < _SHIFT_TO, xp.ceil(_SHIFT_TO - z), 0.0)
    n = xp.where(xp.isnan(n), 0.0, xp.minimum(n, _SHIFT_TO))
    total = xp.zeros_like(z)
    for k in range(int(_SHIFT_TO)):
        total = total - xp.where(k < n, 1 / (z + k), 0.0)
    y = z + n
    inv2 = 1 / (y * y)
    series = _DIGAMMA[-1]
    for c in _DIGAMMA[-2::-1]:
        series = series * inv2 + c
    return total + xp.log(y) - 0.5 / y - series * inv2


def digamma(xp, x):
    """The logarithmic derivative of Gamma: NaN at the negative integers and at -inf, -inf at +0 and
    +inf at -0 (PyTorch's), +inf at +inf."""
    with numpy.errstate(all="ignore"):
        v = _float(xp, x)
        negative = v < 0
        z = xp.where(negative, 1 - v, v)
        positive = _digamma_positive(xp, xp.where(xp.isinf(z) | (z == 0), 1.0, z))
        positive = xp.where(z == numpy.inf, numpy.inf, positive)
        frac = v - xp.trunc(xp.where(xp.isinf(v), 0.0, v))
        reflected = positive - math.pi / xp.tan(math.pi * frac)
        out = xp.where(negative, xp.where(frac == 0, numpy.nan, reflected), positive)
        out = xp.where(v == 0, xp.copysign(numpy.inf, -v), out)
    return _out(xp, out, x)


def _zeta_positive(xp, s, q):
    """sum_k (q + k)^-s for finite s > 1 and finite q > 0 (float64 arrays of one shape)."""
    target = _SHIFT_TO + xp.minimum(s, 60.0)
    n = xp.maximum(xp.ceil(target - q), 0.0)
    total = xp.zeros_like(s)
    steps = int(xp.concatenate([n.reshape(-1), xp.zeros(1)]).max())  # (0 for an empty array)
    for k in range(steps):  # at most 70 whole-array steps (n <= 70 - q)
        total = total + xp.where(k < n, (q + k) ** -s, 0.0)
    a = q + n
    w = a ** -s
    total = total + a ** (1 - s) / (s - 1) + 0.5 * w
    term = w * s / a
    inv2 = 1 / (a * a)
    for j, c in enumerate(_EULER_MACLAURIN, start=1):
        if j > 1:
            term = term * (s + 2 * j - 3) * (s + 2 * j - 2) * inv2
        total = total + c * term
    return total


def zeta(xp, s, q):
    """The Hurwitz zeta function sum_k (q + k)^-s with PyTorch's (cephes') edges: inf at s = 1,
    NaN for s < 1; for q <= 0, inf at the integers q (-inf too) and NaN unless s is an integer;
    at s = +inf, q^-inf (inf below 1, 1 at 1) and NaN above 1. A negative q (s an integer) sums its
    terms below 0 apart: they are (-1)^s sum_(j=0..m-1) (d + j)^-s = (-1)^s (zeta(s, d) -
    zeta(s, 1 - q)), d = ceil(q) - q, and the rest zeta(s, q - floor(q)) -- all at positive q."""
    with numpy.errstate(all="ignore"):
        s_, q_ = xp.broadcast_arrays(_float(xp, s), _float(xp, q))
        bad = ~xp.isfinite(s_) | ~xp.isfinite(q_) | (s_ <= 1)
        ss = xp.where(bad, 2.0, s_)
        qq = xp.where(bad, 1.0, q_)
        negative = qq <= 0
        rest = xp.where(negative, qq - xp.floor(qq), qq)
        d = xp.ceil(qq) - qq
        qs = xp.concatenate([rest.reshape(-1), d.reshape(-1), (1 - qq).reshape(-1)])
        parts = _zeta_positive(xp, xp.concatenate([ss.reshape(-1)] * 3), xp.where(qs > 0, qs, 1.0))
        direct, low, high = (p.reshape(ss.shape) for p in xp.split(parts, 3))
        low = xp.where(d > 0, low, numpy.inf)
        sign = xp.where(ss % 2 == 1, -1.0, 1.0)
        out = xp.where(negative, direct + sign * (low - high), direct)
        out = xp.where(bad, numpy.nan, out)
        at_inf = (s_ == numpy.inf) & (q_ < numpy.inf)
        out = xp.where(at_inf, xp.where(q_ < 1, numpy.inf, xp.where(q_ == 1, 1.0, numpy.nan)), out)
        not_positive = q_ <= 0
        out = xp.where(not_positive & (s_ != xp.floor(s_)), numpy.nan, out)
        out = xp.where(not_positive & (q_ == xp.floor(q_)), numpy.inf, out)
        out = xp.where(s_ < 1, numpy.nan, out)
        out = xp.where(s_ == 1, numpy.inf, out)
    return _out(xp, out, s if hasattr(s, "dtype") else q)


# lgamma's Taylor coefficients at 2: 1 - Euler's gamma, then (-1)^k (zeta(k) - 1) / k for k = 2..27
_ZETA_MINUS_ONE = _zeta_positive(numpy, numpy.arange(2.0, 28.0), numpy.full(26, 2.0))
_LGAMMA_AT_TWO = [1 - 0.57721566490153286061] + [(-1) ** k * float(_ZETA_MINUS_ONE[k - 2]) / k for k in range(2, 28)]


def trigamma(xp, x):
    """polygamma(1, x): zeta(2, x) for x >= 0.5, pi^2 / sin^2(pi x) - trigamma(1 - x) below (as
    PyTorch's, with sin(pi x) as rounded: huge, not inf, at the negative integers; inf at 0)."""
    with numpy.errstate(all="ignore"):
        v = _float(xp, x)
        reflect = v < 0.5
        z = xp.where(reflect, 1 - v, v)
        positive = _zeta_of(xp, 2.0, z)
        sin = xp.sin(math.pi * v)
        out = xp.where(reflect, (math.pi * math.pi) / (sin * sin) - positive, positive)
        out = xp.where(v == numpy.inf, 0.0, xp.where(v == -numpy.inf, numpy.nan, out))
    return _out(xp, out, x)


def _zeta_of(xp, s, z):
    return zeta(xp, xp.full_like(z, s), xp.where(xp.isinf(z), 1.0, z))


def polygamma(xp, n, x):
    """The n-th derivative of digamma (n >= 0)."""
    if n == 0:
        return digamma(xp, x)
    if n == 1:
        return trigamma(xp, x)
    with numpy.errstate(all="ignore"):
        v = _float(xp, x)
        sign_factorial = (1.0 if n % 2 else -1.0) * math.exp(math.lgamma(n + 1.0))
        out = sign_factorial * zeta(xp, xp.full_like(v, n + 1.0), v)
    return _out(xp, out, x)


# ------------------------------------------------------------------------------------------- erfcx

_ROOT_PI = math.sqrt(math.pi)


def _erfcx_table_part(xp, a):
    """erfcx(a) for a in [0.5, 27.25]: the Taylor polynomial around the nearest centre of the table
    kernels.erfc is built on (whose product with exp(-a^2) is erfc)."""
    centres, coefficients, _ = kernels._erfc_table(xp)
    k = xp.rint((a - kernels._ERF_SERIES_BELOW) * (1 / kernels._ERFC_STEP)).astype(xp.intp)
    h = a - xp.take(centres, k)
    p = xp.take(coefficients[kernels._ERFCX_TERMS - 1], k)
    for power in range(kernels._ERFCX_TERMS - 2, -1, -1):
        p = p * h + xp.take(coefficients[power], k)
    return p


def _erfcx_asymptotic(xp, a):
    """erfcx(a) for a > 27: 1 / (a sqrt(pi)) sum (-1)^n (2n - 1)!! / (2 a^2)^n, ten terms."""
    u = 1 / (2 * a * a)
    term = total = xp.ones_like(a)
    for n in range(1, 11):
        term = term * (-(2 * n - 1) * u)
        total = total + term
    return total / (a * _ROOT_PI)


def erfcx(xp, x):
    """The scaled complementary error function exp(x^2) erfc(x): 0 at +inf, inf from about -26.6 down."""
    with numpy.errstate(all="ignore"):
        v = _float(xp, x)
        low = v < kernels._ERF_SERIES_BELOW
        table = (v >= kernels._ERF_SERIES_BELOW) & (v <= kernels._ERFC_LAST)
        out = xp.exp(v * v) * kernels.erfc(xp, xp.where(low, v, 0.0))
        out = xp.where(table, _erfcx_table_part(xp, xp.where(table, v, 1.0)), out)
        high = v > kernels._ERFC_LAST
        out = xp.where(high, _erfcx_asymptotic(xp, xp.where(high, v, 30.0)), out)
        out = xp.where(xp.isnan(v), numpy.nan, out)
    return _out(xp, out, x)


# ---------------------------------------------------------------------------------- Bessel i0, i1

_BESSEL_SERIES_TO = 25.0
_BESSEL_SERIES_TERMS = 80
_BESSEL_ASYMPTOTIC_TERMS = 40


def _bessel(xp, x, nu, scaled):
    """I_nu(x) (nu 0 or 1), times exp(-|x|) when `scaled`."""
    with numpy.errstate(all="ignore"):
        v = _float(xp, x)
        a = xp.abs(v)
        small = a <= _BESSEL_SERIES_TO
        s = xp.where(small, a, 1.0)
        quarter = (s * s) / 4
        term = s / 2 if nu == 1 else xp.ones_like(s)
        total = term
        for k in range(1, _BESSEL_SERIES_TERMS):
            term = term * quarter / (k * (k + nu))
            total = total + term
        if scaled:
            total = total * xp.exp(-s)
        big = xp.where(small | xp.isnan(a), 2 * _BESSEL_SERIES_TO, a)
        mu = 4.0 * nu * nu
        term = xp.ones_like(big)
        expansion = term
        for k in range(1, _BESSEL_ASYMPTOTIC_TERMS + 1):
            term = term * (-(mu - (2 * k - 1) ** 2) / (8 * k)) / big
            expansion = expansion + term
        if scaled:
            large = expansion / xp.sqrt(2 * math.pi * big)
        else:
            large = xp.exp(big) * (expansion / xp.sqrt(2 * math.pi * big))  # (inf from 709.8 on, NaN at inf)
        out = xp.where(small, total, large)
        out = xp.where(xp.isnan(v), numpy.nan, out)
        if nu == 1:
            out = xp.where(v < 0, -out, out)
    return _out(xp, out, x)


def i0(xp, x):
    """The modified Bessel function of the first kind of order 0."""
    return _bessel(xp, x, 0, scaled=False)


def i0e(xp, x):
    """exp(-|x|) i0(x)."""
    return _bessel(xp, x, 0, scaled=True)


def i1(xp, x):
    """The modified Bessel function of the first kind of order 1."""
    return _bessel(xp, x, 1, scaled=False)


def i1e(xp, x):
    """exp(-|x|) i1(x)."""
    return _bessel(xp, x, 1, scaled=True)


# ----------------------------------------------------------------------------- ndtri and log_ndtr

def _erfcinv_small(xp, q):
    """x with erfc(x) = q for 0 < q <= 1/2 (float64): a start from erfinv(1 - q) (from erfc's
    asymptote where 1 - q rounds to 1), then Halley's steps on erfc(x) - q through erfcx:
    erfc(x) - q = exp(-x^2) (erfcx(x) - exp(log q + x^2)), so nothing underflows."""
    log_q = xp.log(q)
    start = kernels.erfinv(xp, 1 - q)
    far = q < 1e-12
    x_far = xp.sqrt(-log_q)
    for _ in range(3):
        x_far = xp.sqrt(xp.maximum(-log_q - xp.log(_ROOT_PI * x_far), 0.25))
    x = xp.where(far | ~xp.isfinite(start), x_far, start)
    for _ in range(4):
        u = (erfcx(xp, x) - xp.exp(log_q + x * x)) * (-_ROOT_PI / 2)  # (erfc(x) - q) / erfc'(x)
        x = x - u / (1 + x * u)
    return x


def ndtri(xp, p):
    """The inverse of the standard normal distribution function: -inf at 0, inf at 1, NaN outside."""
    with numpy.errstate(all="ignore"):
        v = _float(xp, p)
        upper = v >= 0.25
        centre = math.sqrt(2) * kernels.erfinv(xp, xp.where(upper, 2 * v - 1, 0.0))
        lower = (v > 0) & ~upper
        tail = -math.sqrt(2) * _erfcinv_small(xp, xp.where(lower, 2 * v, 0.5))
        out = xp.where(upper, centre, tail)
        out = xp.where(v == 0, -numpy.inf, out)
        out = xp.where((v < 0) | (v > 1) | xp.isnan(v), numpy.nan, out)
    return _out(xp, out, p)


def log_ndtr(xp, x):
    """log of the standard normal distribution function, accurate in both tails."""
    with numpy.errstate(all="ignore"):
        v = _float(xp, x)
        t = v * (1 / math.sqrt(2))
        left = v < -1
        low = xp.log(erfcx(xp, -xp.where(left, t, -1.0)) / 2) - v * v / 2
        high = xp.log1p(-kernels.erfc(xp, xp.where(left, 0.0, t)) / 2)
        out = xp.where(left, low, high)
        out = xp.where(v == -numpy.inf, -numpy.inf, out)
    return _out(xp, out, x)


def entr(xp, x):
    """-x log x elementwise: 0 at 0, -inf below 0."""
    with numpy.errstate(all="ignore"):
        out = xp.where(x > 0, -x * xp.log(xp.where(x > 0, x, 1)), xp.where(x == 0, 0, xp.where(x < 0, -numpy.inf, x)))
    return out.astype(x.dtype, copy=False) if out.shape else out.astype(x.dtype)[()]


def xlog1py(xp, x, y):
    """x log1p(y), 0 where x is 0 and y is not NaN."""
    with numpy.errstate(all="ignore"):
        out = x * xp.log1p(y)
        return xp.where((x == 0) & ~xp.isnan(y), 0, out)
