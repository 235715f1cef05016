"""Op cases of torch.special's rows (engine/ops/special.py; see tests/engine/ops/op_cases.py for what a
case is): lgamma, digamma, polygamma, mvlgamma, erfcx, i0, i0e, i1, i1e, ndtri, log_ndtr, entr,
xlog1py, zeta, igamma, igammac, and the rows without a gradient (Bessel functions, airy_ai, the
orthogonal polynomials: forward only). The references are computed another way than the kernels:
math.lgamma and math.erfc; the digamma, polygamma and zeta functions as a direct sum of 1000 terms
plus the Euler-Maclaurin tail (three terms); i0 and i1 as their integrals over [0, pi], by the
trapezoidal rule (exact to rounding for a periodic integrand); ndtri by bisection on math.erfc;
igamma by its recurrence in a from erf and exp; the other Bessel functions and airy_ai by their power
series in 90-digit decimals; the polynomials by their explicit sums in exact fractions. Node names
are PyTorch 2.13's."""
import decimal
import fractions
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


def np_igamma(a, x):
    """P(a, x) for a a whole or half-whole number, from P(1/2, x) = erf(sqrt x) and P(1, x) = 1 - e^-x
    by the recurrence P(a + 1, x) = P(a, x) - x^a e^-x / Gamma(a + 1) (math.lgamma)."""
    a, x = np.broadcast_arrays(np.asarray(a, dtype=np.float64), np.asarray(x, dtype=np.float64))
    out = np.empty(a.shape)
    for i in np.ndindex(a.shape):
        b, y = float(a[i]), float(x[i])
        start = 0.5 if b % 1 else 1.0
        p = math.erf(math.sqrt(y)) if start == 0.5 else -math.expm1(-y)
        while start < b:
            p -= math.exp(start * math.log(y) - y - math.lgamma(start + 1))
            start += 1
        out[i] = p
    return out


def halves(lo, hi):
    """Whole and half-whole numbers in [lo, hi]: the shapes np_igamma takes."""
    return lambda rng, shape: rng.integers(int(2 * lo), int(2 * hi) + 1, shape) / 2.0


C("igamma", "op", lambda a, x: ad.igamma(a, x), [(2, 3), (2, 3)], np_igamma, "IgammaBackward0",
  gen=gen_each(halves(0.5, 6), uniform(0.1, 8.0)), requires=(False, True))
C("igamma", "bcast_method", lambda a, x: a.igamma(x), [(3,), (2, 3)], np_igamma, "IgammaBackward0",
  gen=gen_each(halves(0.5, 4), uniform(0.1, 6.0)), requires=(False, True))
C("igamma", "gammainc", lambda a, x: S.gammainc(a, x), [(4,), (4,)], np_igamma, "IgammaBackward0",
  gen=gen_each(halves(8, 20), uniform(5.0, 25.0)), requires=(False, True))
C("igamma", "inplace", on_copy(lambda a, x: a.igamma_(x)), [(4,), (4,)], np_igamma, "IgammaBackward0",
  gen=gen_each(halves(0.5, 4), uniform(0.1, 6.0)), requires=(False, True))
C("igammac", "op", lambda a, x: ad.igammac(a, x), [(2, 3), (2, 3)], lambda a, x: 1 - np_igamma(a, x),
  "IgammacBackward0", gen=gen_each(halves(0.5, 6), uniform(0.1, 8.0)), requires=(False, True))
C("igammac", "gammaincc", lambda a, x: S.gammaincc(a, x), [(4,), (1,)], lambda a, x: 1 - np_igamma(a, x),
  "IgammacBackward0", gen=gen_each(halves(0.5, 3), uniform(3.0, 9.0)), requires=(False, True))
C("igammac", "inplace", on_copy(lambda a, x: a.igammac_(x)), [(4,), (4,)], lambda a, x: 1 - np_igamma(a, x),
  "IgammacBackward0", gen=gen_each(halves(0.5, 4), uniform(0.1, 6.0)), requires=(False, True))
# igamma(a, x) with a requiring grad has no derivative: tests/engine/ops/test_special.py


# The Bessel functions and airy_ai (no gradient in PyTorch): their power series summed in 90-digit
# decimal arithmetic (no cancellation left at these arguments), the kernels' own ways being float64
# series only below 12 (J, Y) or 2 (K), and integrals and asymptotic expansions elsewhere.
_EULER = decimal.Decimal("0.57721566490153286060651209008240243104215933593992359880576723488486772677766467")
_AI_0 = decimal.Decimal("0.35502805388781723926006318600418317639797917419917724")  # Ai(0), DLMF 9.2.3
_AI_PRIME_0 = decimal.Decimal("0.25881940379280679840518356018920396347909113835493")  # -Ai'(0), DLMF 9.2.4


def _decimal(f):
    """f(Decimal x) -> Decimal at 90 digits, elementwise on an array (float64 out)."""
    def run(x):
        with decimal.localcontext() as context:
            context.prec = 90
            return np.vectorize(lambda v: float(f(decimal.Decimal(float(v)))), otypes=[np.float64])(x)
    return run


def _series(x, nu, sign):
    """(sum sign^k t_k, sum sign^k (psi(k+1) + psi(k+1+nu)) t_k), t_k = (x^2/4)^k / (k! (k+nu)!), 300 terms."""
    q = x * x / 4
    term = decimal.Decimal(1)
    w = -2 * _EULER + nu
    plain, weighted = term, w * term
    for k in range(1, 300):
        term = term * sign * q / (k * (k + nu))
        w += decimal.Decimal(1) / k + decimal.Decimal(1) / (k + nu)
        plain, weighted = plain + term, weighted + w * term
    return plain, weighted


def _dec_j(nu):
    return _decimal(lambda x: (x / 2) ** nu * _series(x, nu, -1)[0])


def _dec_y(nu):
    """Y_nu = (2/pi) ln(x/2) J_nu - (x/2)^nu / pi * sum (-1)^k w_k t_k - [nu = 1] 2 / (pi x) (DLMF 10.8.1)."""
    pi = decimal.Decimal(math.pi)  # (pi to float precision: its error 1e-17 relative carries through)

    def y(x):
        plain, weighted = _series(x, nu, -1)
        half = (x / 2) ** nu
        return 2 / pi * (x / 2).ln() * half * plain - half * weighted / pi - (2 / (pi * x) if nu else 0)
    return _decimal(y)


def _dec_k(nu, scaled=False):
    """K_nu = (-1)^(nu+1) ln(x/2) I_nu + (-1)^nu (x/2)^nu / 2 sum w_k t_k + [nu = 1] / x (DLMF 10.31.1-2)."""
    def k(x):
        plain, weighted = _series(x, nu, 1)
        half, sign = (x / 2) ** nu, (-1) ** nu
        out = -sign * (x / 2).ln() * half * plain + sign * half * weighted / 2 + (1 / x if nu else 0)
        return out * x.exp() if scaled else out
    return _decimal(k)


def _dec_airy(x):
    """Ai(x) = Ai(0) f(x) + Ai'(0) g(x), f and g the Maclaurin series (DLMF 9.4.1)."""
    cube, f, g = x * x * x, decimal.Decimal(1), x
    total_f, total_g = f, g
    for k in range(1, 160):
        f, g = f * cube / ((3 * k - 1) * (3 * k)), g * cube / ((3 * k) * (3 * k + 1))
        total_f, total_g = total_f + f, total_g + g
    return _AI_0 * total_f - _AI_PRIME_0 * total_g


for _name, _ref, _lo, _hi in [("bessel_j0", _dec_j(0), -30, 30), ("bessel_j1", _dec_j(1), -30, 30),
                              ("bessel_y0", _dec_y(0), 0.05, 30), ("bessel_y1", _dec_y(1), 0.05, 30),
                              ("modified_bessel_i0", _decimal(lambda x: _series(x, 0, 1)[0]), -20, 20),
                              ("modified_bessel_i1", _decimal(lambda x: x / 2 * _series(x, 1, 1)[0]), -20, 20),
                              ("modified_bessel_k0", _dec_k(0), 0.05, 40), ("modified_bessel_k1", _dec_k(1), 0.05, 40),
                              ("scaled_modified_bessel_k0", _dec_k(0, True), 0.05, 40),
                              ("scaled_modified_bessel_k1", _dec_k(1, True), 0.05, 40),
                              ("airy_ai", _decimal(_dec_airy), -6.5, 6.0)]:
    C("special_" + _name, "op", (lambda name: lambda x: getattr(S, name)(x))(_name), [(3, 4)], _ref,
      gen=gen_each(uniform(_lo, _hi)))


def _dec_sinc(x):
    """sin(x) / x = sum (-1)^k x^2k / (2k + 1)!."""
    term = total = decimal.Decimal(1)
    for k in range(1, 120):
        term = -term * x * x / ((2 * k) * (2 * k + 1))
        total += term
    return total


for _name, _ref, _lo, _hi in [("bessel_j0", _dec_j(0), 30, 60), ("bessel_y1", _dec_y(1), 30, 60),
                              ("modified_bessel_k0", _dec_k(0), 40, 60), ("airy_ai", _decimal(_dec_airy), -20, 12)]:
    C("special_" + _name, "far", (lambda name: lambda x: getattr(S, name)(x))(_name), [(6,)], _ref,
      gen=gen_each(uniform(_lo, _hi)))
C("special_spherical_bessel_j0", "op", lambda x: S.spherical_bessel_j0(x), [(2, 5)], _decimal(_dec_sinc),
  gen=gen_each(with_zeros(0, 3)))
C("special_spherical_bessel_j0", "wide", lambda x: S.spherical_bessel_j0(x), [(8,)], _decimal(_dec_sinc),
  gen=gen_each(uniform(-25, 25)))


# The orthogonal polynomials (no gradient in PyTorch): their explicit sums (DLMF 18.5.11-13, 18.9.9)
# in exact rational arithmetic from the float x, n truncated to a whole number (0 below 0).
def _binomial_sum(kind, x, n):
    x = fractions.Fraction(x)
    if kind == "t":
        return sum(math.comb(n, 2 * k) * (x * x - 1) ** k * x ** (n - 2 * k) for k in range(n // 2 + 1))
    if kind == "u":
        return sum(math.comb(n + 1, 2 * k + 1) * (x * x - 1) ** k * x ** (n - 2 * k) for k in range(n // 2 + 1))
    if kind in ("v", "w"):  # U_n -+ U_(n-1) (DLMF 18.9.9-10)
        lower = _binomial_sum("u", x, n - 1) if n else 0
        return _binomial_sum("u", x, n) + (lower if kind == "w" else -lower)
    if kind == "h":
        return math.factorial(n) * sum(fractions.Fraction((-1) ** m * (2 * x) ** (n - 2 * m),
                                                          math.factorial(m) * math.factorial(n - 2 * m))
                                       for m in range(n // 2 + 1))
    if kind == "he":
        return math.factorial(n) * sum(fractions.Fraction((-1) ** m * x ** (n - 2 * m),
                                                          math.factorial(m) * math.factorial(n - 2 * m) * 2 ** m)
                                       for m in range(n // 2 + 1))
    if kind == "l":
        return sum(fractions.Fraction(math.comb(n, k) * (-x) ** k, math.factorial(k)) for k in range(n + 1))
    return sum((-1) ** k * math.comb(n, k) * math.comb(2 * n - 2 * k, n) * x ** (n - 2 * k)
               for k in range(n // 2 + 1)) / 2 ** n  # Legendre


def np_polynomial(kind, shifted=False):
    def ref(x, n):
        x, n = np.broadcast_arrays(np.asarray(x, dtype=np.float64), np.asarray(n, dtype=np.float64))
        out = np.empty(x.shape)
        for i in np.ndindex(x.shape):
            degree, at = int(n[i]), fractions.Fraction(float(x[i]))
            out[i] = 0.0 if degree < 0 else float(_binomial_sum(kind, 2 * at - 1 if shifted else at, degree))
        return out
    return ref


def degrees(lo, hi):
    """Degrees as floats: whole numbers and (truncated toward 0) fractions in [lo, hi]."""
    return lambda rng, shape: np.round(rng.uniform(lo, hi, shape) * 4) / 4


def with_ends(lo, hi):
    """Uniform in [lo, hi] with the ends -1 and 1 (where Chebyshev's take their closed values) first."""
    def make(rng, shape):
        a = rng.uniform(lo, hi, shape)
        a.reshape(-1)[:2] = (1.0, -1.0)
        return a
    return make


for _kind, _family in [("t", "chebyshev_polynomial_t"), ("u", "chebyshev_polynomial_u"),
                       ("v", "chebyshev_polynomial_v"), ("w", "chebyshev_polynomial_w"),
                       ("h", "hermite_polynomial_h"), ("he", "hermite_polynomial_he"),
                       ("l", "laguerre_polynomial_l"), ("p", "legendre_polynomial_p")]:
    _call = (lambda family: lambda x, n: getattr(S, family)(x, n))(_family)
    C("special_" + _family, "op", _call, [(3, 4), (3, 4)], np_polynomial(_kind),
      gen=gen_each(with_ends(-1.5, 1.5), degrees(-2, 14)))
    C("special_" + _family, "bcast", _call, [(4, 1), (5,)], np_polynomial(_kind),
      gen=gen_each(with_ends(-3, 3), degrees(0, 9)))
    C("special_" + _family, "number_n", (lambda family: lambda x: getattr(S, family)(x, 5))(_family), [(6,)],
      lambda x, kind=_kind: np_polynomial(kind)(x, 5), gen=gen_each(with_ends(-2, 2)))
    C("special_" + _family, "number_x", (lambda family: lambda n: getattr(S, family)(0.375, n))(_family), [(6,)],
      lambda n, kind=_kind: np_polynomial(kind)(0.375, n), gen=gen_each(degrees(-1, 30)))
    if _kind in ("t", "u", "v", "w"):
        _shifted = "shifted_" + _family
        C("special_" + _shifted, "op", (lambda family: lambda x, n: getattr(S, family)(x, n))(_shifted),
          [(3, 4), (3, 4)], np_polynomial(_kind, shifted=True), gen=gen_each(with_ends(-0.5, 1.5), degrees(-2, 14)))
        C("special_" + _shifted, "number_n", (lambda family: lambda x: getattr(S, family)(x, 6))(_shifted), [(6,)],
          lambda x, kind=_kind: np_polynomial(kind, shifted=True)(x, 6), gen=gen_each(uniform(0, 1)))
