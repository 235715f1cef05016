"""torch.special's igamma/igammac (gammainc/gammaincc), Bessel functions of other kinds, airy_ai and
orthogonal polynomials beyond their op cases (tests/engine/ops/op_cases_special.py): PyTorch 2.13's
edge values and answers (printed by PyTorch, written here), its differentiability (a gradient in x
only for igamma; none at all for the rest) and refusals in its words, and identities the kernels do
not use (Wronskians, Poisson sums, hyperbolic forms, tabulated values)."""
import decimal
import math

import numpy as np
import pytest

import autodiff.engine as ad
from tolerance import assert_close

S = ad.special
INF, NAN = math.inf, math.nan


# ------------------------------------------------------------------------------------- igamma

def test_igamma_edges_are_pytorchs():
    a = ad.tensor([0., 0., 1., 1., -1., 1., INF, INF, 2., NAN, 1., 0., 1., -0., 3., 0., INF, 5.])
    x = ad.tensor([0., 1., 0., INF, 1., -1., 1., INF, NAN, 1., -0., INF, 1e-300, 2., 0., -1., 0., -INF])
    p = [NAN, 1., 0., 1., NAN, NAN, 0., NAN, NAN, NAN, 0., 1., 1e-300, 1., 0., NAN, 0., NAN]
    q = [NAN, 0., 1., 0., NAN, NAN, 1., NAN, NAN, NAN, 1., 0., 1., 0., 1., NAN, 1., NAN]
    assert_close(ad.igamma(a, x).numpy(), np.array(p))
    assert_close(ad.igammac(a, x).numpy(), np.array(q))


def test_igamma_far_out_matches_pytorch():
    """Large a (the series and continued fraction run thousands of steps) and tiny a: PyTorch 2.13's values."""
    a = ad.tensor([1e4, 1e4, 1e6, 0.01, 0.01, 200., 30., 5e3])
    x = ad.tensor([1e4 + 100, 9.5e3, 1e6 - 2e3, 0.001, 3., 180., 80., 4.8e3])
    p = [0.8413487504359474, 1.8624546517951916e-07, 0.022696114006483376, 0.9385706525261297, 0.9998670286434298,
         0.07485803498415958, 0.9999999999509677, 0.002102795480296734]
    q = [0.15865124956405266, 0.9999998137545348, 0.9773038859935166, 0.06142934747387101, 0.00013297135657015552,
         0.9251419650158405, 4.9032295558106654e-11, 0.9978972045197032]
    assert_close(ad.igamma(a, x).numpy(), np.array(p), rtol=1e-8)
    assert_close(S.gammaincc(a, x).numpy(), np.array(q), rtol=1e-8)


def _decimal_igamma(a, x):
    """P(a, x) for whole a: x^a e^-x / a! sum_n x^n / ((a+1)...(a+n)) in 50-digit decimals."""
    with decimal.localcontext() as context:
        context.prec = 50
        x = decimal.Decimal(x)
        term = total = decimal.Decimal(1)
        n = 0
        while term > total * decimal.Decimal(10) ** -40:
            n += 1
            term = term * x / (a + n)
            total += term
        return (x.ln() * a - x).exp() / math.factorial(a) * total


@pytest.mark.parametrize("a, x", [(5000, 4800.0), (10000, 10100.0), (10000, 9500.0), (200, 180.0), (30, 80.0),
                                  (3, 0.25)])
def test_igamma_against_decimals(a, x):
    """Our values to 1e-12 (PyTorch's at (5000, 4800) is 2e-10 off: 0.002102795480296734 against
    0.00210279548073047338)."""
    p = _decimal_igamma(a, x)
    assert_close(ad.igamma(ad.tensor([float(a)]), ad.tensor([x])).numpy(), np.array([float(p)]), rtol=1e-12, atol=0)
    assert_close(ad.igammac(ad.tensor([float(a)]), ad.tensor([x])).numpy(), np.array([float(1 - p)]), rtol=1e-10,
                 atol=0)


@pytest.mark.parametrize("n", [1, 2, 5, 17, 40])
def test_igammac_of_whole_a_is_a_poisson_sum(n):
    """Q(n, x) = e^-x sum_(k < n) x^k / k!, the chance of fewer than n Poisson(x) events."""
    xs = [0.1, 1.0, n - 0.5, n + 3.0, 2.5 * n + 4]
    want = [sum(math.exp(k * math.log(x) - x - math.lgamma(k + 1)) for k in range(n)) for x in xs]
    assert_close(ad.igammac(ad.tensor([float(n)] * len(xs)), ad.tensor(xs)).numpy(), np.array(want), rtol=1e-12,
                 atol=1e-300)


def test_igammac_of_a_tiny_a_keeps_its_digits():
    """Q(a, x) = a E1(x) (1 + O(a)) as a -> 0 (E1(1/2) = 0.55977359477616081175, A&S 5.1): computed as
    1 - P it would keep 5 digits at a = 1e-10 (PyTorch's is 8.5e-8 off there) and none at 1e-300."""
    a = ad.tensor([1e-10, 1e-14, 1e-300])
    q = ad.igammac(a, ad.tensor([0.5, 0.5, 0.5])).numpy()
    assert_close(q, 0.55977359477616081175 * a.numpy(), rtol=1e-8, atol=0)
    assert (ad.igamma(a, ad.tensor([0.5, 0.5, 0.5])).numpy() <= 1).all()


def test_igamma_of_one_half_is_erf():
    xs = np.array([1e-8, 0.01, 0.3, 1.0, 1.6, 4.0, 20.0, 300.0])
    got = ad.igamma(ad.tensor(np.full(xs.shape, 0.5)), ad.tensor(xs)).numpy()
    assert_close(got, np.array([math.erf(math.sqrt(x)) for x in xs]), rtol=1e-13, atol=0)
    got = ad.igammac(ad.tensor(np.full(xs.shape, 0.5)), ad.tensor(xs)).numpy()
    assert_close(got, np.array([math.erfc(math.sqrt(x)) for x in xs]), rtol=1e-12, atol=0)


def test_igamma_differentiates_in_x_only():
    a = ad.tensor([1.5, 2.0], requires_grad=True)
    x = ad.tensor([0.5, 3.0], requires_grad=True)
    for f, node, name in ((ad.igamma, "IgammaBackward0", "igamma"), (S.gammaincc, "IgammacBackward0", "igammac")):
        y = f(a, x)
        assert y.grad_fn.name() == node
        with pytest.raises(NotImplementedError, match=f"the derivative for '{name}: input' is not implemented."):
            y.sum().backward()
    x = ad.tensor([0.5, 3.0], requires_grad=True)
    (g,) = ad.grad(ad.igamma(a.detach(), x).sum(), x, create_graph=True)
    assert_close(g.detach().numpy(), np.array([0.48394144903828673, 0.14936120510359183]))  # x^(a-1) e^-x / Gamma(a)
    (gg,) = ad.grad(g.sum(), x)
    assert_close(gg.numpy(), np.array([0.0, -0.09957413673572789]))  # times ((a - 1) / x - 1)


def test_igamma_refusals_in_pytorchs_words():
    with pytest.raises(NotImplementedError, match="\"igamma_cpu\" not implemented for 'Long'"):
        ad.igamma(ad.tensor([1, 2]), ad.tensor([1, 2]))
    with pytest.raises(NotImplementedError, match="\"igammac_cpu\" not implemented for 'Long'"):
        ad.igammac(ad.tensor([1, 2]), ad.tensor([1, 2]))
    with pytest.raises(TypeError, match=r"igamma\(\): argument 'other' \(position 2\) must be Tensor, not float"):
        ad.igamma(ad.tensor([1.0]), 2.0)
    with pytest.raises(TypeError, match=r"special_gammainc\(\): argument 'input' \(position 1\) must be Tensor, "
                                        r"not float"):
        S.gammainc(2.0, ad.tensor([1.0]))
    assert ad.igamma(ad.tensor([1, 2]), ad.tensor([1.0, 2.0], dtype=ad.float32)).dtype == ad.float32
    assert ad.igamma(ad.tensor([1.0], dtype=ad.float32), ad.tensor(2.0, dtype=ad.float64)).dtype == ad.float32


def test_igamma_float32_is_float64_rounded():
    a, x = np.array([0.5, 3.0, 40.0]), np.array([0.2, 2.5, 45.0])
    got = ad.igamma(ad.tensor(a, dtype=ad.float32), ad.tensor(x, dtype=ad.float32))
    assert got.dtype == ad.float32
    a64, x64 = (ad.tensor(v.astype(np.float32).astype(np.float64)) for v in (a, x))
    want = ad.igamma(a64, x64)
    assert (got.numpy() == want.numpy().astype(np.float32)).all()


# -------------------------------------------------------------------- Bessel functions, Airy

BESSEL = ("bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0", "modified_bessel_i1",
          "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
          "spherical_bessel_j0", "airy_ai")
EDGE_X = [-INF, -3., -0., 0., 1e-300, 0.5, 3., 30., 1e3, INF, NAN]
# PyTorch 2.13's answers at EDGE_X
EDGES = {
    "bessel_j0": [NAN, -0.2600519549074645, 1.0, 1.0, 1.0, 0.938469807240813, -0.2600519549074645,
                  -0.08636798358104034, 0.024786686152420034, NAN, NAN],
    "bessel_j1": [NAN, -0.3390589585282922, -0.0, 0.0, 5.000000000000001e-301, 0.24226845767487387,
                  0.3390589585282922, -0.11875106261662309, 0.00472831190708902, NAN, NAN],
    "bessel_y0": [NAN, NAN, -INF, -INF, -439.8351636227653, -0.4445187335067066, 0.3768500100184375,
                  -0.11729573168666393, 0.004715917977623586, NAN, NAN],
    "bessel_y1": [NAN, NAN, -INF, -INF, -6.366197723675813e+299, -1.4714723926702433, 0.32467442479622594,
                  0.08442557066174709, -0.024784331292351868, NAN, NAN],
    "modified_bessel_i0": [NAN, 4.880792585865024, 1.0, 1.0, 1.0, 1.0634833707413236, 4.880792585865024,
                           781672297823.9775, INF, NAN, NAN],
    "modified_bessel_i1": [NAN, -3.9533702174026093, 0.0, 0.0, 5.000000000000001e-301, 0.25789430539089636,
                           3.9533702174026093, 768532038938.9569, INF, NAN, NAN],
    "modified_bessel_k0": [NAN, NAN, INF, INF, 690.8914594138721, 0.924419071227666, 0.03473950438627925,
                           2.1324774964630563e-14, 0.0, 0.0, NAN],
    "modified_bessel_k1": [NAN, NAN, INF, INF, 9.999999999999999e+299, 1.6564411200033007, 0.04015643112819419,
                           2.1677320018915495e-14, 0.0, 0.0, NAN],
    "scaled_modified_bessel_k0": [NAN, NAN, INF, INF, 690.8914594138721, 1.5241093857739099, 0.6977615980438517,
                                  0.22788666561625373, 0.03962832160075422, 0.0, NAN],
    "scaled_modified_bessel_k1": [NAN, NAN, INF, INF, 9.999999999999999e+299, 2.7310097082117855, 0.806563480128787,
                                  0.2316541293777118, 0.03964813081296021, 0.0, NAN],
    "spherical_bessel_j0": [0.0, 0.0470400026866224, 1.0, 1.0, 1.0, 0.958851077208406, 0.0470400026866224,
                            -0.03293438746976206, 0.0008268795405320025, 0.0, NAN],
    "airy_ai": [NAN, -0.3788142883304339, 0.3550280538878172, 0.3550280538878172, 0.3550280538878172,
                0.23169360648083345, 0.00659113935746072, 3.2082175915504806e-49, 0.0, NAN, NAN],
}


@pytest.mark.parametrize("name", BESSEL)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_bessel_edges_are_pytorchs(name, dtype):
    with np.errstate(over="ignore"):
        x = np.array(EDGE_X, dtype=dtype)
        want = np.array(EDGES[name], dtype=dtype)
    got = getattr(S, name)(ad.tensor(x))
    assert got.dtype == getattr(ad, dtype)
    if dtype == "float32":  # (1e-300 is 0 in float32: compare with PyTorch's answer at 0)
        want[4] = want[3] if name not in ("bessel_j1", "modified_bessel_i1") else 0.0
    assert_close(got.numpy(), want, dtype=dtype, what=name)


@pytest.mark.parametrize("name", BESSEL)
def test_bessel_functions_have_no_gradient(name):
    x = ad.tensor([0.5, 1.5], requires_grad=True)
    y = getattr(S, name)(x)
    assert not y.requires_grad and y.grad_fn is None
    assert getattr(S, name)(ad.tensor([1, 2])).dtype == ad.get_default_dtype()


def test_wronskians():
    """J1 Y0 - J0 Y1 = 2 / (pi x) and I0 K1 + I1 K0 = 1 / x (DLMF 10.5.2, 10.28.2), across every
    method's range (series, integral, asymptotic)."""
    x = np.geomspace(0.05, 80, 60)
    t = ad.tensor(x)
    j0, j1, y0, y1 = (getattr(S, f)(t).numpy() for f in ("bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1"))
    assert_close(j1 * y0 - j0 * y1, 2 / (math.pi * x), rtol=1e-12, atol=0)
    i0e, i1e = S.i0e(t).numpy(), S.i1e(t).numpy()
    k0e, k1e = S.scaled_modified_bessel_k0(t).numpy(), S.scaled_modified_bessel_k1(t).numpy()
    assert_close(i0e * k1e + i1e * k0e, 1 / x, rtol=1e-12, atol=0)


def test_tabulated_values():
    """Abramowitz & Stegun's tables (9.1, 9.8, 10.4) to their printed digits."""
    x = ad.tensor([1.0, 5.0, 10.0])
    assert_close(S.bessel_j0(x).numpy(), np.array([0.7651976866, -0.1775967713, -0.2459357645]), rtol=0, atol=1e-10)
    assert_close(S.bessel_y1(x).numpy(), np.array([-0.7812128213, 0.1478631434, 0.2490154242]), rtol=0, atol=1e-10)
    assert_close(S.modified_bessel_k0(x).numpy(), np.array([0.4210244382, 3.6910983340e-3, 1.7780062317e-5]),
                 rtol=1e-9, atol=0)
    assert_close(S.airy_ai(ad.tensor([-2.0, 1.0, 2.0])).numpy(), np.array([0.2274074282, 0.1352924163, 0.03492413042]),
                 rtol=1e-9, atol=0)


def test_airy_far_out_matches_pytorch():
    x = ad.tensor([-30., -12.5, -7.5, -7., -1., 0., 1., 1.5, 5., 10., 50., 100.])
    want = [-0.0879681884568426, -0.27627456138116, 0.3217757163806479, 0.18428083525050618, 0.5355608832923521,
            0.3550280538878172, 0.13529241631288144, 0.07174949700810533, 0.00010834442813607433,
            1.1047532552898654e-10, 4.5849417240747895e-104, 2.6344821520882847e-291]
    assert_close(S.airy_ai(x).numpy(), np.array(want), rtol=1e-11, atol=0)


# ------------------------------------------------------------------------ orthogonal polynomials

POLYNOMIALS = ("chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
               "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
               "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "hermite_polynomial_h",
               "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p")
POLY_X = [0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 1., -1., 2., -3., INF, -INF, 0.3, 0.3, 0.5, 0.5]
POLY_N = [0., 1., 2.9, -1., -2.5, 7., 5., 5., 3., 4., 2., 3., NAN, INF, 30., 100.]
# PyTorch 2.13's answers at (POLY_X, POLY_N): n truncated, 0 below 0 and at a NaN or infinite n
POLY = {
    "chebyshev_polynomial_t": [1.0, 0.3, -0.82, 0.0, 0.0, -0.8461632, 1.0, -1.0, 26.0, 577.0, INF, NAN, 0.0, 0.0,
                               1.0, -0.5],
    "chebyshev_polynomial_u": [1.0, 0.6, -0.64, 0.0, 0.0, -0.6785664, 6.0, -6.0, 56.0, 1189.0, INF, NAN, 0.0, 0.0,
                               1.0, -1.0],
    "chebyshev_polynomial_v": [1.0, -0.4, -1.24, 0.0, 0.0, -1.2372224, 1.0, -11.0, 41.0, 1393.0, INF, NAN, 0.0, 0.0,
                               1.0, 0.0],
    "chebyshev_polynomial_w": [1.0, 1.6, -0.04, 0.0, 0.0, -0.1199104, 11.0, -1.0, 71.0, 985.0, INF, NAN, 0.0, 0.0,
                               1.0, -2.0],
    "shifted_chebyshev_polynomial_t": [1.0, -0.4, -0.68, 0.0, 0.0, 0.2580224, 1.0, -3363.0, 99.0, 18817.0, INF, NAN,
                                       0.0, 0.0, -1.0, 1.0],
    "shifted_chebyshev_polynomial_u": [1.0, -0.8, -0.36, 0.0, 0.0, -0.1636352, 6.0, -6930.0, 204.0, 37829.0, INF,
                                       NAN, 0.0, 0.0, -1.0, 1.0],
    "shifted_chebyshev_polynomial_v": [1.0, -1.8, 0.44, 0.0, 0.0, -1.2177792, 1.0, -8119.0, 169.0, 40545.0, INF, NAN,
                                       0.0, 0.0, -1.0, 1.0],
    "shifted_chebyshev_polynomial_w": [1.0, 0.2, -1.16, 0.0, 0.0, 0.8905088, 11.0, -5741.0, 239.0, 35113.0, INF, NAN,
                                       0.0, 0.0, -1.0, 1.0],
    "hermite_polynomial_h": [1.0, 0.6, -1.64, 0.0, 0.0, -416.5179264, -8.0, 8.0, 40.0, 876.0, INF, NAN, 0.0, 0.0,
                             1.665969449994396e+20, 2.4129827902061037e+93],
    "hermite_polynomial_he": [1.0, 0.3, -0.91, 0.0, 0.0, -28.7158113, 6.0, -6.0, 2.0, 30.0, INF, NAN, 0.0, 0.0,
                              6120120771157320.0, 8.563963947693751e+77],
    "laguerre_polynomial_l": [1.0, 0.7, 0.445, 0.0, 0.0, -0.3011057058928569, -0.4666666666666667, 12.883333333333335,
                              -0.3333333333333333, 61.375, INF, NAN, 0.0, 0.0, 0.2754592304343055, 0.1868226036769227],
    "legendre_polynomial_p": [1.0, 0.3, -0.365, 0.0, 0.0, -0.22407298125, 1.0, -1.0, 17.0, 321.0, INF, NAN, 0.0, 0.0,
                              0.1498488149006108, -0.0605180259618612],
}


@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomial_values_are_pytorchs(name):
    got = getattr(S, name)(ad.tensor(POLY_X), ad.tensor(POLY_N))
    assert not got.requires_grad
    assert_close(got.numpy(), np.array(POLY[name]), what=name)


def test_polynomials_have_no_gradient_and_pytorchs_dtypes():
    x = ad.tensor([0.5, 2.0], requires_grad=True)
    n = ad.tensor([2.0, 3.0], requires_grad=True)
    for y in (S.chebyshev_polynomial_t(x, n), S.legendre_polynomial_p(x, 3), S.hermite_polynomial_h(0.5, n)):
        assert not y.requires_grad and y.grad_fn is None
    f32, f64 = ad.tensor([0.5], dtype=ad.float32), ad.tensor([2.0], dtype=ad.float64)
    assert S.laguerre_polynomial_l(f32, f64).dtype == ad.float64
    assert S.laguerre_polynomial_l(f32, ad.tensor(2.0, dtype=ad.float64)).dtype == ad.float32
    assert S.laguerre_polynomial_l(f32, 2.5).dtype == ad.float32
    assert S.laguerre_polynomial_l(ad.tensor([1, 2]), ad.tensor([2])).dtype == ad.get_default_dtype()
    assert S.laguerre_polynomial_l(0.5, ad.tensor([2])).dtype == ad.get_default_dtype()
    with pytest.raises(TypeError, match=r"special_legendre_polynomial_p\(\) received an invalid combination of "
                                        r"arguments - got \(float, int\)"):
        S.legendre_polynomial_p(0.5, 2)


def test_chebyshev_beyond_one_is_hyperbolic():
    """T_n(x) = cosh(n acosh x), U_n(x) = sinh((n + 1) t) / sinh t (x = cosh t > 1), the recurrence's
    answer; inside, T_n(cos t) = cos(n t) at a high degree."""
    x = np.array([1.0001, 1.3, 2.5, 7.0])
    t = np.arccosh(x)
    for n in (3, 20, 60):
        got_t = S.chebyshev_polynomial_t(ad.tensor(x), float(n)).numpy()
        assert_close(got_t, np.cosh(n * t), rtol=1e-12, atol=0)
        got_u = S.chebyshev_polynomial_u(ad.tensor(-x), float(n)).numpy()
        assert_close(got_u, (-1) ** n * np.sinh((n + 1) * t) / np.sinh(t), rtol=1e-12, atol=0)
    angle = np.array([0.1, 1.0, 2.0, 3.0])
    got = S.chebyshev_polynomial_t(ad.tensor(np.cos(angle)), 1000.0).numpy()
    assert_close(got, np.cos(1000 * angle), rtol=0, atol=1e-9)


def test_the_new_functions_in_the_language(cli):
    out = cli.run_ok("""
        a = torch.tensor([1.5, 2.0])
        x = torch.tensor([0.5, 3.0], requires_grad=True)
        y = torch.igamma(a, x) + a.igammac(x) + torch.special.gammainc(a, x)
        (g,) = torch.autograd.grad(y.sum(), x)
        j = torch.special.bessel_j0(x) + torch.special.chebyshev_polynomial_t(x, 3)
        print(y.grad_fn.name(), round(g[0].item(), 6), j.requires_grad, round(torch.special.airy_ai(torch.tensor(1.0)).item(), 6))
    """)
    assert out == "AddBackward0 0.483941 False 0.135292\n"
