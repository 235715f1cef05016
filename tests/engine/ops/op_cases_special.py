"""Op cases of torch.special's rows (engine/ops/special.py; see tests/engine/ops/op_cases.py for what a
case is): lgamma, digamma, polygamma, mvlgamma, erfcx, i0, i0e, i1, i1e, ndtri, log_ndtr, entr,
xlog1py, zeta. The references are computed another way than the kernels: math.lgamma and math.erfc;
the digamma, polygamma and zeta functions as a direct sum of 1000 terms plus the Euler-Maclaurin tail
(three terms); the Bessel functions as their integrals over [0, pi], by the trapezoidal rule (exact to
rounding for a periodic integrand); ndtri by bisection on math.erfc. Node names are PyTorch 2.13's."""
import math

import numpy as np

import autodiff.engine as ad
from op_cases import C, away, gen_each, on_copy, uniform, with_zeros

S = ad.special
_lgamma = np.vectorize(math.lgamma, otypes=[np.float64])
_erfc = np.vectorize(math.erfc, otypes=[np.float64])
_TERMS = 1000


def _direct_sum(x, s):
    """sum_(k < 1000) (x + k)^-s over a new last axis."""
    k = np.arange(_TERMS, dtype=np.float64)
    x, s = np.broadcast_arrays(np.asarray(x, dtype=np.float64), np.asarray(s, dtype=np.float64))
    return ((x[..., None] + k) ** -s[..., None]).sum(axis=-1)


def np_digamma(x):
    """psi(x) = psi(x + N) - sum_(k < N) 1 / (x + k) (negative x: the reflection psi(1 - x) - pi cot(pi x)),
    psi(y) = log y - 1 / (2y) - 1 / (12 y^2) + O(y^-4)."""
    x = np.asarray(x, dtype=np.float64)
    z = np.where(x < 0.5, 1 - x, x)
    y = z + _TERMS
    positive = np.log(y) - 1 / (2 * y) - 1 / (12 * y * y) + 1 / (120 * y ** 4) - _direct_sum(z, 1)
    return np.where(x < 0.5, positive - math.pi / np.tan(math.pi * x), positive)


def np_zeta(s, q):
    """The Hurwitz zeta by 1000 terms and the Euler-Maclaurin tail (q > 0)."""
    y = np.asarray(q, dtype=np.float64) + _TERMS
    return _direct_sum(q, s) + y ** (1 - s) / (s - 1) + y ** -s / 2 + s * y ** (-s - 1) / 12


def np_polygamma(n, x):
    """(-1)^(n+1) n! zeta(n + 1, x); x < 0.5 for n = 1 by the reflection pi^2 / sin^2(pi x) - psi1(1 - x)."""
    if n == 0:
        return np_digamma(x)
    x = np.asarray(x, dtype=np.float64)
    if n == 1:
        z = np.where(x < 0.5, 1 - x, x)
        positive = np_zeta(2.0, z)
        return np.where(x < 0.5, math.pi ** 2 / np.sin(math.pi * x) ** 2 - positive, positive)
    return (-1) ** (n + 1) * math.factorial(n) * np_zeta(n + 1.0, x)


def _bessel(x, nu):
    """I_nu(x) = (1/pi) integral_0^pi exp(x cos t) cos(nu t) dt, the trapezoidal rule on 128 panels."""
    t = np.linspace(0, math.pi, 129)
    w = np.full(129, 1.0)
    w[0] = w[-1] = 0.5
    values = np.exp(np.asarray(x, dtype=np.float64)[..., None] * np.cos(t)) * np.cos(nu * t)
    return (values * w).sum(axis=-1) / 128


def _ndtr(x):
    return 0.5 * _erfc(-np.asarray(x) / math.sqrt(2))


def np_ndtri(p):
    lo, hi = np.full(np.shape(p), -40.0), np.full(np.shape(p), 40.0)
    for _ in range(200):
        mid = (lo + hi) / 2
        below = _ndtr(mid) < p
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    return (lo + hi) / 2


def np_mvlgamma(x, p):
    return sum(_lgamma(x - j / 2) for j in range(p)) + p * (p - 1) / 4 * math.log(math.pi)


positive = uniform(0.3, 4.0)
negative = away(-3.0, -2.0, -1.0, 0.0, margin=0.15, lo=-3.0, hi=-0.05)

C("lgamma", "op", lambda x: ad.lgamma(x), [(2, 3)], _lgamma, "LgammaBackward0", gen=gen_each(positive))
C("lgamma", "negative", lambda x: x.lgamma(), [(5,)], _lgamma, "LgammaBackward0", gen=gen_each(negative))
C("lgamma", "inplace", on_copy(lambda y: y.lgamma_()), [(4,)], _lgamma, "LgammaBackward0", gen=gen_each(positive))
C("digamma", "op", lambda x: ad.digamma(x), [(2, 3)], np_digamma, "DigammaBackward0", gen=gen_each(positive))
C("digamma", "negative", lambda x: S.psi(x), [(5,)], np_digamma, "DigammaBackward0", gen=gen_each(negative))
C("digamma", "inplace", on_copy(lambda y: y.digamma_()), [(4,)], np_digamma, "DigammaBackward0",
  gen=gen_each(positive))
for _n in (0, 1, 2, 3):
    C("polygamma", f"n{_n}", (lambda n: lambda x: ad.polygamma(n, x))(_n), [(2, 3)],
      (lambda n: lambda x: np_polygamma(n, x))(_n), "PolygammaBackward0", gen=gen_each(positive))
C("polygamma", "negative_n1", lambda x: S.polygamma(1, x), [(5,)], lambda x: np_polygamma(1, x),
  "PolygammaBackward0", gen=gen_each(negative))
C("polygamma", "method", lambda x: x.polygamma(2), [(4,)], lambda x: np_polygamma(2, x), "PolygammaBackward0",
  gen=gen_each(positive))
C("polygamma", "inplace", on_copy(lambda y: y.polygamma_(1)), [(4,)], lambda x: np_polygamma(1, x),
  "PolygammaBackward0", gen=gen_each(positive))
C("mvlgamma", "p1", lambda x: ad.mvlgamma(x, 1), [(2, 3)], lambda x: np_mvlgamma(x, 1), "MvlgammaBackward0",
  gen=gen_each(uniform(1.5, 4.0)))
C("mvlgamma", "multigammaln_p3", lambda x: S.multigammaln(x, 3), [(2, 3)], lambda x: np_mvlgamma(x, 3),
  "MvlgammaBackward0", gen=gen_each(uniform(1.5, 4.0)))
C("mvlgamma", "inplace", on_copy(lambda y: y.mvlgamma_(p=2)), [(4,)], lambda x: np_mvlgamma(x, 2),
  "MvlgammaBackward0", gen=gen_each(uniform(1.5, 4.0)))
C("special_erfcx", "op", lambda x: S.erfcx(x), [(2, 3)], lambda x: np.exp(x * x) * _erfc(x), "SpecialErfcxBackward0")
C("special_erfcx", "wide", lambda x: S.erfcx(x), [(6,)], lambda x: np.exp(x * x) * _erfc(x), "SpecialErfcxBackward0",
  gen=gen_each(uniform(-2.0, 6.0)))
C("i0", "op", lambda x: ad.i0(x), [(2, 3)], lambda x: _bessel(x, 0), "I0Backward0")
C("i0", "special", lambda x: S.i0(x), [(5,)], lambda x: _bessel(x, 0), "I0Backward0", gen=gen_each(uniform(-8, 8)))
C("i0", "inplace", on_copy(lambda y: y.i0_()), [(4,)], lambda x: _bessel(x, 0), "I0Backward0")
C("special_i0e", "op", lambda x: S.i0e(x), [(2, 3)], lambda x: np.exp(-np.abs(x)) * _bessel(x, 0),
  "SpecialI0EBackward0", gen=gen_each(away(0.0, margin=0.1, lo=-6, hi=6)))
C("special_i1", "op", lambda x: S.i1(x), [(2, 3)], lambda x: _bessel(x, 1), "SpecialI1Backward0",
  gen=gen_each(uniform(-8, 8)))
C("special_i1", "at_zero", lambda x: S.i1(x), [(4,)], lambda x: _bessel(x, 1), "SpecialI1Backward0",
  gen=gen_each(with_zeros(1)))
C("special_i1e", "op", lambda x: S.i1e(x), [(2, 3)], lambda x: np.exp(-np.abs(x)) * _bessel(x, 1),
  "SpecialI1EBackward0", gen=gen_each(away(0.0, margin=0.1, lo=-6, hi=6)))
C("special_i1e", "at_zero", lambda x: S.i1e(x), [(4,)], lambda x: np.exp(-np.abs(x)) * _bessel(x, 1),
  "SpecialI1EBackward0", gen=gen_each(with_zeros(1)), gradgrad="i1e's second derivative jumps at 0 (-sign(x))")
C("special_ndtri", "op", lambda p: S.ndtri(p), [(2, 3)], np_ndtri, "SpecialNdtriBackward0",
  gen=gen_each(uniform(0.05, 0.95)))
C("special_log_ndtr", "op", lambda x: S.log_ndtr(x), [(2, 3)], lambda x: np.log(_ndtr(x)), "SpecialLogNdtrBackward0",
  gen=gen_each(uniform(-5, 5)))
C("special_log_ndtr", "left_tail", lambda x: S.log_ndtr(x), [(4,)], lambda x: np.log(_ndtr(x)),
  "SpecialLogNdtrBackward0", gen=gen_each(uniform(-30, -5)))
C("special_entr", "op", lambda x: S.entr(x), [(2, 3)], lambda x: -x * np.log(x), "SpecialEntrBackward0",
  gen=gen_each(uniform(0.2, 2.0)))
C("special_xlog1py", "op", lambda x, y: S.xlog1py(x, y), [(2, 3), (2, 3)], lambda x, y: x * np.log1p(y),
  "SpecialXlog1PyBackward0", gen=gen_each(away(0.0), uniform(-0.5, 2.0)))
C("special_xlog1py", "bcast", lambda x, y: S.xlog1py(x, y), [(2, 3), (3,)], lambda x, y: x * np.log1p(y),
  "SpecialXlog1PyBackward0", gen=gen_each(away(0.0), uniform(-0.5, 2.0)))
C("special_xlog1py", "x_at_zero", lambda x, y: S.xlog1py(x, y), [(3,), (3,)], lambda x, y: x * np.log1p(y),
  "SpecialXlog1PyBackward0", gen=gen_each(with_zeros(0, 2), uniform(-0.5, 2.0)))
C("special_xlog1py", "number_x", lambda y: S.xlog1py(1.5, y), [(4,)], lambda y: 1.5 * np.log1p(y),
  "SpecialXlog1PyBackward1", gen=gen_each(uniform(-0.5, 2.0)))
C("special_xlog1py", "number_y", lambda x: S.xlog1py(x, 2.5), [(4,)], lambda x: x * np.log1p(2.5),
  "SpecialXlog1PyBackward2")
C("special_zeta", "op", lambda x, q: S.zeta(x, q), [(2, 3), (2, 3)], np_zeta, "SpecialZetaBackward0",
  gen=gen_each(uniform(1.5, 4.0), uniform(0.5, 3.0)), requires=(False, True))
C("special_zeta", "number_x", lambda q: S.zeta(2.0, q), [(4,)], lambda q: np_zeta(2.0, q), "SpecialZetaBackward1",
  gen=gen_each(uniform(0.5, 3.0)))
# zeta(x, 2.0) with x requiring grad (SpecialZetaBackward2) has no derivative: tests/engine/ops/test_special.py
