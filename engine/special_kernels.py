"""The kernels of torch.special's functions that numpy lacks: lgamma, digamma, polygamma, the Hurwitz
zeta, erfcx, the modified Bessel functions i0/i0e/i1/i1e, ndtri, log_ndtr, the incomplete gamma
functions, the Bessel functions J, Y, K, airy_ai and the orthogonal polynomials -- on any array module
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
- igamma/igammac: P's power series for x < a + 1, Q's continued fraction above, each run until every
  element has converged (about 9 sqrt(a) steps at x ~ a), times x^a e^-x / Gamma(a) (through
  Stirling's series from a = 10); for a < 1/2 below x = a + 1, Q from a series of its own (1 - P
  would lose its digits).
- J0, J1, Y0, Y1: their power series (Y's with the digamma weights) to |x| = 12, Hankel's asymptotic
  expansion above; K0, K1: the power series to 2, the integral of exp(-x cosh t) cosh(nu t) by the
  trapezoidal rule to 25, the asymptotic series above; airy_ai: its Maclaurin series on [-7, 1],
  K_1/3 above and the oscillating expansion below.
- the orthogonal polynomials: Chebyshev's through x = cos(theta) for |x| <= 1, else each family's
  three-term recurrence up to the largest degree asked for.
"""
import math

import numpy

from . import kernels

__all__ = ["lgamma", "digamma", "trigamma", "polygamma", "zeta", "erfcx", "i0", "i0e", "i1", "i1e", "ndtri",
           "log_ndtr", "entr", "xlog1py", "igamma", "igammac", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
           "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
           "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0", "airy_ai", "POLYNOMIALS"]

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


# ------------------------------------------------------------------- regularized incomplete gamma

def _until_converged(xp, step, state, most):
    """Runs `step(state, k) -> (state, done)` for k = 1, 2, ... over whole arrays until every
    element is done (checked every 16 steps) or `most` steps: a series or continued fraction that
    needs as many terms as its slowest element."""
    for k in range(1, most + 1):
        state, done = step(state, k)
        if k % 16 == 0 and bool(xp.all(done)):
            break
    return state


def _gamma_density(xp, a, x):
    """x^a e^-x / Gamma(a) (a, x > 0). From a = 10 up as sqrt(a / 2 pi) exp(a (log1p(d) - d) - S(a)),
    d = x / a - 1 and S Stirling's series: a log x - x - lgamma(a) would lose a eps in its cancellation."""
    large = a >= _SHIFT_TO
    al = xp.where(large, a, _SHIFT_TO)
    d = x / al - 1
    inv2 = 1 / (al * al)
    series = _STIRLING[-1]
    for c in _STIRLING[-2::-1]:
        series = series * inv2 + c
    near_mean = xp.sqrt(al / (2 * math.pi)) * xp.exp(al * (xp.log1p(d) - d) - series / al)
    small = xp.exp(a * xp.log(x) - x - _float(xp, lgamma(xp, xp.where(large, 1.0, a))))
    return xp.where(large, near_mean, small)


def _igamma_parts(xp, a, x):
    """(P, Q) for finite a > 0 and x > 0: the series of P where x < a + 1 (Q = 1 - P), the continued
    fraction of Q (modified Lentz) elsewhere (P = 1 - Q); both times x^a e^-x / Gamma(a)."""
    series = x < a + 1
    xs, xc = xp.where(series, x, 0.0), xp.where(series, a + 2, x)
    eps, tiny = 1e-17, 1e-300
    # both need about 9 sqrt(a) steps where x ~ a (the terms fall like exp(-k^2 / 2a)), far fewer elsewhere
    most = 64 + int(12 * math.sqrt(float(xp.concatenate([a.reshape(-1), xp.ones(1)]).max())))

    def series_step(state, k):  # sum_n x^n / (a (a+1) ... (a+n)), from 1/a
        term, total = state
        term = term * xs / (a + k)
        return (term, total + term), term <= eps * total

    _, total = _until_converged(xp, series_step, (1 / a, 1 / a), most)

    def fraction_step(state, k):  # 1 / (x+1-a - 1(1-a) / (x+3-a - 2(2-a) / ...))
        b, c, d, h = state
        an, b = -k * (k - a), b + 2
        d = an * d + b
        d = xp.where(xp.abs(d) < tiny, tiny, d)
        c = b + an / c
        c = xp.where(xp.abs(c) < tiny, tiny, c)
        d = 1 / d
        delta = d * c
        return (b, c, d, h * delta), xp.abs(delta - 1) <= eps

    b0 = xc + 1 - a
    d0 = 1 / xp.where(xp.abs(b0) < tiny, tiny, b0)
    fraction = _until_converged(xp, fraction_step, (b0, xp.full_like(b0, 1 / tiny), d0, d0), most)[3]
    scale = _gamma_density(xp, a, x)
    p, q = scale * total, scale * fraction
    p, q = xp.where(series, p, 1 - q), xp.where(series, 1 - p, q)
    small = series & (a < 0.5)
    p_small, q_small = _igamma_small_a(xp, xp.where(small, a, 0.25), xp.where(small, x, 0.5))
    return xp.where(small, p_small, p), xp.where(small, q_small, q)


def _igamma_small_a(xp, s, x):
    """(P, Q) for a = s < 1/2 and x < a + 1, where P is near 1 and 1 - P would lose Q's digits (for
    a = 1e-10 all but five): with r = x^a / Gamma(1 + a) and v = sum_(n >= 1) (-x)^n / ((a + n) n!),
    P = r (1 + a v) and Q = (1 - r) - r a v, 1 - r = -expm1(a log x - lgamma(1 + a)), lgamma(1 + a)
    from its Taylor series in a itself (1 + a would round a's digits away)."""
    lgamma_1p = -xp.log1p(s)  # lgamma(1 + s) = lgamma(2 + s) - log1p(s)
    series = xp.zeros_like(s)
    for c in _LGAMMA_AT_TWO[::-1]:
        series = (series + c) * s
    log_r = s * xp.log(x) - (series + lgamma_1p)
    term, total = xp.ones_like(x), xp.zeros_like(x)
    for n in range(1, 40):  # (x < 1.5: the 40th term is below 1e-40)
        term = term * (-x) / n
        total = total + term / (s + n)
    r = xp.exp(log_r)
    return r * (1 + s * total), -xp.expm1(log_r) - r * s * total


def _igamma(xp, a, x, upper):
    """P(a, x) (Q where `upper`) with PyTorch's edges: NaN for a < 0, x < 0 or a NaN, and at (0, 0)
    and (inf, inf); P(0, x > 0) = 1, P(a, 0) = 0, P(a, inf) = 1, P(inf, x) = 0."""
    with numpy.errstate(all="ignore"):
        a_, x_ = xp.broadcast_arrays(_float(xp, a), _float(xp, x))
        inner = (a_ > 0) & (x_ > 0) & xp.isfinite(a_) & xp.isfinite(x_)
        p, q = _igamma_parts(xp, xp.where(inner, a_, 1.0), xp.where(inner, x_, 1.0))
        out = q if upper else p
        one, zero = (0.0, 1.0) if upper else (1.0, 0.0)  # (the value where P is 1, where P is 0)
        out = xp.where((a_ == 0) & (x_ > 0), one, out)
        out = xp.where((x_ == 0) & (a_ > 0), zero, out)
        out = xp.where((x_ == numpy.inf) & (a_ > 0) & (a_ < numpy.inf), one, out)
        out = xp.where((a_ == numpy.inf) & (x_ < numpy.inf) & (x_ >= 0), zero, out)
        out = xp.where(xp.isnan(a_) | xp.isnan(x_) | (a_ < 0) | (x_ < 0) | ((a_ == 0) & (x_ == 0))
                       | ((a_ == numpy.inf) & (x_ == numpy.inf)), numpy.nan, out)
    return _out(xp, out, a if hasattr(a, "dtype") else x)


def igamma(xp, a, x):
    """The regularized lower incomplete gamma function P(a, x) = gamma(a, x) / Gamma(a)."""
    return _igamma(xp, a, x, upper=False)


def igammac(xp, a, x):
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    return _igamma(xp, a, x, upper=True)


# ----------------------------------------- Bessel J, Y, K of order 0 and 1, spherical j0, Airy Ai

_EULER_GAMMA = 0.57721566490153286061
_SERIES_TO = 12.0      # J and Y: the power series up to here (at most ~4 digits lost to cancellation), Hankel's above
_K_SERIES_TO = 2.0     # K: the power series up to here, the integral to _K_INTEGRAL_TO, the asymptotic series above
_K_INTEGRAL_TO = 25.0
_K_NODES = numpy.arange(71) * 0.1  # the trapezoidal rule on [0, 7], h = 0.1 (error ~ exp(x - pi^2 / h))


def _power_series(xp, q, nu, sign, terms=45):
    """(sum_k sign^k t_k, sum_k sign^k w_k t_k) with t_k = q^k / (k! (k + nu)!) and w_k = psi(k + 1) +
    psi(k + 1 + nu): the series behind J, I (plain) and Y, K (weighted), q = x^2 / 4."""
    term = xp.ones_like(q)
    w = -2 * _EULER_GAMMA + (1.0 if nu == 1 else 0.0)  # psi(1) + psi(1 + nu)
    plain, weighted = term, w * term
    for k in range(1, terms):
        term = term * (sign * q) / (k * (k + nu))
        w += 1 / k + 1 / (k + nu)
        plain, weighted = plain + term, weighted + w * term
    return plain, weighted


def _hankel_coefficients(nu, count):
    """a_k(nu) = (mu - 1)(mu - 9)...(mu - (2k - 1)^2) / (k! 8^k), mu = 4 nu^2, k < count."""
    mu, a = 4.0 * nu * nu, [1.0]
    for k in range(1, count):
        a.append(a[-1] * (mu - (2 * k - 1) ** 2) / (8 * k))
    return a


def _j_y(xp, v, nu):
    """(J_nu(v), Y_nu(v)) for nu 0 or 1 (float64 v; Y is NaN below 0)."""
    a = xp.abs(v)
    small = a <= _SERIES_TO
    s = xp.where(small, a, 1.0)
    plain, weighted = _power_series(xp, s * s / 4, nu, -1.0)
    half = (s / 2) ** nu
    j_small = half * plain
    y_small = 2 / math.pi * xp.log(s / 2) * j_small - half * weighted / math.pi - (2 / (math.pi * s) if nu else 0.0)
    big = xp.where(small, 2 * _SERIES_TO, a)
    p, q, power, inv = xp.zeros_like(big), xp.zeros_like(big), xp.ones_like(big), 1 / big
    for k, c in enumerate(_hankel_coefficients(nu, 24)):
        sign = -1.0 if (k // 2) % 2 else 1.0
        if k % 2:
            q = q + sign * c * power
        else:
            p = p + sign * c * power
        power = power * inv
    sin, cos = xp.sin(big), xp.cos(big)
    # chi = x - (nu / 2 + 1 / 4) pi: cos chi and sin chi from sin x and cos x (no rounding of x - chi)
    cos_chi, sin_chi = ((cos + sin), (sin - cos)) if nu == 0 else ((sin - cos), -(sin + cos))
    scale = xp.sqrt(1 / (math.pi * big))  # sqrt(2 / (pi x)) / sqrt(2)
    j_big = scale * (p * cos_chi - q * sin_chi)
    y_big = scale * (p * sin_chi + q * cos_chi)
    j = xp.where(small, j_small, j_big)
    if nu == 1:
        j = xp.where(v < 0, -j, j)
    y = xp.where(small, y_small, y_big)
    y = xp.where(v == 0, -numpy.inf, xp.where(v < 0, numpy.nan, y))
    return j, y


def _k_scaled_far(xp, z, nu):
    """e^z K_nu(z) for z >= 0.5, any real nu: integral_0^inf exp(-z (cosh t - 1)) cosh(nu t) dt by the
    trapezoidal rule up to 25 (exponentially exact for this analytic integrand), the asymptotic
    series sqrt(pi / (2z)) sum a_k(nu) / z^k above (30 terms: the smallest is ~exp(-50))."""
    near = z <= _K_INTEGRAL_TO
    zn = xp.where(near, z, 1.0)[..., None]
    t = xp.asarray(_K_NODES)
    weights = xp.where(t == 0, 0.5, 1.0) * 0.1
    integral = (xp.exp(-zn * (xp.cosh(t) - 1)) * xp.cosh(nu * t) * weights).sum(axis=-1)
    zf = xp.where(near, 2 * _K_INTEGRAL_TO, z)
    total, power = xp.zeros_like(zf), xp.ones_like(zf)
    for c in _hankel_coefficients(nu, 30):
        total, power = total + c * power, power / zf
    return xp.where(near, integral, xp.sqrt(math.pi / (2 * zf)) * total)


def _k(xp, v, nu, scaled):
    """K_nu(v) (nu 0 or 1), times e^v when `scaled`: NaN below 0, inf at 0, 0 at inf."""
    small = v <= _K_SERIES_TO
    s = xp.where(small & (v > 0), v, 1.0)
    plain, weighted = _power_series(xp, s * s / 4, nu, 1.0)
    half = (s / 2) ** nu
    sign = -1.0 if nu == 0 else 1.0
    near = sign * xp.log(s / 2) * half * plain - sign * half * weighted / 2 + (1 / s if nu else 0.0)
    if scaled:
        near = near * xp.exp(s)
    f = xp.where(small | ~(v < numpy.inf), 2 * _K_SERIES_TO, v)
    far = _k_scaled_far(xp, f, float(nu))
    if not scaled:
        far = far * xp.exp(-f)
    out = xp.where(small, near, far)
    out = xp.where(v == numpy.inf, 0.0, out)
    return xp.where(v == 0, numpy.inf, xp.where(v < 0, numpy.nan, out))


def _unary(kernel):
    """A kernel of one float64 array as a kernel of any input (PyTorch's dtype out, NaN in -> NaN)."""
    def run(xp, x):
        with numpy.errstate(all="ignore"):
            v = _float(xp, x)
            out = kernel(xp, v)
            out = xp.where(xp.isnan(v), numpy.nan, out)
        return _out(xp, out, x)
    run.__name__, run.__doc__ = kernel.__name__, kernel.__doc__
    return run


@_unary
def bessel_j0(xp, v):
    """The Bessel function of the first kind of order 0 (NaN at +-inf, as PyTorch)."""
    return _j_y(xp, v, 0)[0]


@_unary
def bessel_j1(xp, v):
    """The Bessel function of the first kind of order 1."""
    return _j_y(xp, v, 1)[0]


@_unary
def bessel_y0(xp, v):
    """The Bessel function of the second kind of order 0: -inf at 0, NaN below."""
    return _j_y(xp, v, 0)[1]


@_unary
def bessel_y1(xp, v):
    """The Bessel function of the second kind of order 1: -inf at 0, NaN below."""
    return _j_y(xp, v, 1)[1]


@_unary
def modified_bessel_k0(xp, v):
    """The modified Bessel function of the second kind of order 0."""
    return _k(xp, v, 0, scaled=False)


@_unary
def modified_bessel_k1(xp, v):
    """The modified Bessel function of the second kind of order 1."""
    return _k(xp, v, 1, scaled=False)


@_unary
def scaled_modified_bessel_k0(xp, v):
    """e^x K_0(x)."""
    return _k(xp, v, 0, scaled=True)


@_unary
def scaled_modified_bessel_k1(xp, v):
    """e^x K_1(x)."""
    return _k(xp, v, 1, scaled=True)


@_unary
def spherical_bessel_j0(xp, v):
    """sin(x) / x: 1 at 0 (its Taylor series below 1/2), 0 at +-inf."""
    small = xp.abs(v) < 0.5
    s = xp.where(small, v, 1.0)
    term = total = xp.ones_like(v)
    for k in range(1, 12):
        term = term * (-s * s) / ((2 * k) * (2 * k + 1))
        total = total + term
    out = xp.where(small, total, xp.sin(v) / xp.where(small, 1.0, v))
    return xp.where(xp.isinf(v), 0.0, out)


_AI_0 = 1 / (3 ** (2 / 3) * math.gamma(2 / 3))   # Ai(0)
_AI_PRIME_0 = 1 / (3 ** (1 / 3) * math.gamma(1 / 3))  # -Ai'(0)


@_unary
def airy_ai(xp, v):
    """The Airy function Ai: its Maclaurin series on [-7, 1]; above, (1/pi) sqrt(x/3) K_1/3(zeta) with
    zeta = 2/3 x^(3/2); below, the oscillating asymptotic expansion (error ~ exp(-2 zeta) < 1e-10).
    NaN at +-inf (PyTorch's)."""
    middle = (v >= -7) & (v <= 1)
    m = xp.where(middle, v, 0.0)
    cube = m * m * m
    f, g = xp.ones_like(m), m
    total_f, total_g = f, g
    for k in range(1, 40):
        f = f * cube / ((3 * k - 1) * (3 * k))
        g = g * cube / ((3 * k) * (3 * k + 1))
        total_f, total_g = total_f + f, total_g + g
    series = _AI_0 * total_f - _AI_PRIME_0 * total_g
    right = v > 1
    r = xp.where(right & (v < numpy.inf), v, 2.0)
    zeta = 2 / 3 * r * xp.sqrt(r)
    decaying = xp.sqrt(r / 3) / math.pi * xp.exp(-zeta) * _k_scaled_far(xp, zeta, 1 / 3)
    left = xp.where(v < -7, -v, 8.0)
    zeta = 2 / 3 * left * xp.sqrt(left)
    u = [1.0]
    for k in range(1, 24):  # u_k = (2k+1)(2k+3)...(6k-1) / (216^k k!)
        u.append(u[-1] * (6 * k - 5) * (6 * k - 3) * (6 * k - 1) / ((2 * k - 1) * 216 * k))
    p, q, power, inv = xp.zeros_like(zeta), xp.zeros_like(zeta), xp.ones_like(zeta), 1 / zeta
    for k, c in enumerate(u):
        sign = -1.0 if (k // 2) % 2 else 1.0
        if k % 2:
            q = q + sign * c * power
        else:
            p = p + sign * c * power
        power = power * inv
    sin, cos = xp.sin(zeta), xp.cos(zeta)  # sin(zeta + pi/4) and cos(zeta + pi/4), times sqrt 2
    oscillating = (p * (sin + cos) - q * (cos - sin)) / (math.sqrt(2 * math.pi) * left ** 0.25)
    out = xp.where(middle, series, xp.where(right, decaying, oscillating))
    return xp.where(xp.isinf(v), numpy.nan, out)


def modified_bessel_i0(xp, x):
    """I_0 (torch.special.modified_bessel_i0: i0 without a gradient)."""
    return _bessel(xp, x, 0, scaled=False)


def modified_bessel_i1(xp, x):
    """I_1."""
    return _bessel(xp, x, 1, scaled=False)


# ------------------------------------------------------------------------ orthogonal polynomials

def _three_term(first, step):
    """Degree n of the family p_0 = 1, p_1 = first(x), p_(k+1) = step(k, x, p_(k-1), p_k): the
    recurrence over whole arrays up to the largest degree asked for (stopping early once every
    element has its degree or has overflowed)."""
    def run(xp, x, n, todo):
        out = xp.where(n == 0, 1.0, xp.nan)
        before, now = xp.ones_like(x), first(x)
        out = xp.where(n == 1, now, out)
        most = int(xp.concatenate([xp.where(todo, n, 0.0).reshape(-1), xp.zeros(1)]).max())
        for k in range(1, most):
            before, now = now, step(k, x, before, now)
            out = xp.where(n == k + 1, now, out)
            if k % 16 == 0 and not bool(xp.any(todo & (n > k + 1) & xp.isfinite(now))):
                out = xp.where(n > k + 1, now, out)  # (what overflowed stays inf or NaN)
                break
        return out
    return run


_RECURRENCES = {
    "t": _three_term(lambda x: x, lambda k, x, a, b: 2 * x * b - a),
    "u": _three_term(lambda x: 2 * x, lambda k, x, a, b: 2 * x * b - a),
    "v": _three_term(lambda x: 2 * x - 1, lambda k, x, a, b: 2 * x * b - a),
    "w": _three_term(lambda x: 2 * x + 1, lambda k, x, a, b: 2 * x * b - a),
    "h": _three_term(lambda x: 2 * x, lambda k, x, a, b: 2 * x * b - 2 * k * a),
    "he": _three_term(lambda x: x, lambda k, x, a, b: x * b - k * a),
    "l": _three_term(lambda x: 1 - x, lambda k, x, a, b: ((2 * k + 1 - x) * b - k * a) / (k + 1)),
    "p": _three_term(lambda x: x, lambda k, x, a, b: ((2 * k + 1) * x * b - k * a) / (k + 1)),
}


def _chebyshev_closed(xp, kind, x, n):
    """Chebyshev's T, U, V, W for |x| < 1 through x = cos(theta) (DLMF 18.5.1-4), and their values
    at x = +-1 (T: 1, (-1)^n; U: n + 1, (-1)^n (n + 1); V: 1, (-1)^n (2n + 1); W: 2n + 1, (-1)^n)."""
    theta = xp.arccos(xp.clip(x, -1.0, 1.0))
    theta = xp.where((theta == 0) | (theta == math.pi), 1.0, theta)
    if kind == "t":
        inside = xp.cos(n * theta)
    elif kind == "u":
        inside = xp.sin((n + 1) * theta) / xp.sin(theta)
    elif kind == "v":
        inside = xp.cos((n + 0.5) * theta) / xp.cos(theta / 2)
    else:
        inside = xp.sin((n + 0.5) * theta) / xp.sin(theta / 2)
    sign = xp.where(n % 2 == 1, -1.0, 1.0)
    at_one, at_minus_one = {"t": (1.0, sign), "u": (n + 1, sign * (n + 1)), "v": (1.0, sign * (2 * n + 1)),
                            "w": (2 * n + 1, sign)}[kind]
    return xp.where(x == 1, at_one, xp.where(x == -1, at_minus_one, inside))


def _polynomial(kind, shifted=False):
    """The kernel of one family: n truncated to a whole number (PyTorch's int64 n), 0 below 0 and at
    a NaN or infinite n; Chebyshev's through cosines for |x| <= 1, the recurrence elsewhere."""
    recurrence = _RECURRENCES[kind]

    def kernel(xp, x, n, dtype):
        with numpy.errstate(all="ignore"):
            x_, n_ = xp.broadcast_arrays(_float(xp, x), _float(xp, n))
            if shifted:
                x_ = 2 * x_ - 1
            degree = xp.where(xp.isfinite(n_), xp.trunc(n_), -1.0)
            closed = (xp.abs(x_) <= 1) if kind in ("t", "u", "v", "w") else xp.zeros(x_.shape, dtype=bool)
            out = recurrence(xp, x_, degree, ~closed & (degree >= 0))
            if kind in ("t", "u", "v", "w"):
                out = xp.where(closed, _chebyshev_closed(xp, kind, x_, xp.maximum(degree, 0.0)), out)
            out = xp.where(degree < 0, 0.0, xp.where(degree == 0, 1.0, out))
            out = xp.where(xp.isnan(x_) & (degree > 0), numpy.nan, out)
        result = xp.asarray(out).astype(dtype, copy=False)
        return result if result.shape else result[()]
    return kernel


POLYNOMIALS = {
    "chebyshev_polynomial_t": _polynomial("t"), "chebyshev_polynomial_u": _polynomial("u"),
    "chebyshev_polynomial_v": _polynomial("v"), "chebyshev_polynomial_w": _polynomial("w"),
    "shifted_chebyshev_polynomial_t": _polynomial("t", True), "shifted_chebyshev_polynomial_u": _polynomial("u", True),
    "shifted_chebyshev_polynomial_v": _polynomial("v", True), "shifted_chebyshev_polynomial_w": _polynomial("w", True),
    "hermite_polynomial_h": _polynomial("h"), "hermite_polynomial_he": _polynomial("he"),
    "laguerre_polynomial_l": _polynomial("l"), "legendre_polynomial_p": _polynomial("p"),
}
