"""torch.special against PyTorch: the values of tests/golden/special.json (PyTorch 2.13's, on grids with
large, tiny and negative arguments, the poles, nan and +-inf; written by tests/golden/gen_special.py)
in float64 and float32 and the first derivative in float64, within tests/support/tolerance.py's
tolerances; the namespace's names (PyTorch's), the aliases' node names, the errors in PyTorch's words,
and the namespace in the language. The derivatives to second order are checked by the op cases
(tests/engine/ops/op_cases_special.py)."""
import json
import math

import numpy as np
import pytest

import autodiff.engine as ad
import locations
from tolerance import assert_close

S = ad.special
GOLDEN = json.loads((locations.GOLDEN / "special.json").read_text())

UNARY = {"lgamma": ad.lgamma, "digamma": S.digamma, "erfcx": S.erfcx, "i0": S.i0, "i0e": S.i0e, "i1": S.i1,
         "i1e": S.i1e, "ndtr": S.ndtr, "ndtri": S.ndtri, "log_ndtr": S.log_ndtr, "entr": S.entr}
UNARY.update({f"polygamma{n}": (lambda n: lambda x: S.polygamma(n, x))(n) for n in (1, 2, 3, 5)})
UNARY.update({f"multigammaln{p}": (lambda p: lambda x: S.multigammaln(x, p))(p) for p in (1, 3)})
BINARY = {"zeta": S.zeta, "xlog1py": S.xlog1py}


def _float32_points(name, x):
    """The points of a float32 comparison. polygamma(1, x) below 0: PyTorch's float32 kernel reflects
    with sin(pi x) computed in float32, which loses digits as |x| grows (-29.75: 19.70638 against
    the exact 19.70615, which we give), and its poles are where that rounded sine is smallest (at
    -1: 1.3e15 in float32, 6.6e32 in float64); so only x > -1 there."""
    if name == "polygamma1":
        return x > -1
    return np.ones(x.shape, dtype=bool)


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_unary_values_match_pytorch(name, dtype):
    case = GOLDEN["unary"][name]
    with np.errstate(over="ignore"):  # (1e300 is inf in float32, as in PyTorch's golden)
        x = np.array(case["x"], dtype=dtype)
    got = UNARY[name](ad.tensor(x)).numpy()
    want = np.array(case[dtype], dtype=dtype)
    assert got.dtype == np.dtype(dtype)
    keep = _float32_points(name, x) if dtype == "float32" else np.ones(x.shape, dtype=bool)
    assert_close(got[keep], want[keep], dtype=dtype, what=f"{name} {dtype}")


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_gradients_match_pytorch(name):
    case = GOLDEN["unary"][name]
    x = np.array(case["x"])
    t = ad.tensor(x, requires_grad=True)
    (g,) = ad.grad(UNARY[name](t), t, ad.ones_like(t))  # (a sum of inf and -inf would warn)
    g, want = g.numpy(), np.array(case["grad"])
    if name == "log_ndtr":
        # A known difference: far left (x < -1e10) PyTorch's exp(-(log_ndtr(x) + x^2 / 2)) / sqrt(2 pi) has
        # lost every digit to x^2 / 2 (it gives 1 / sqrt(2 pi), inf or NaN); ours there is
        # sqrt(2 / pi) / erfcx(-x / sqrt 2), the ratio of the density to the distribution, about -x.
        far = x < -1e10
        assert_close(g[far], -x[far], dtype="float64", what="d log_ndtr far left")
        g, want = g[~far], want[~far]
    assert_close(g, want, dtype="float64", what=f"d {name}")


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_binary_values_match_pytorch(name, dtype):
    case = GOLDEN["binary"][name]
    with np.errstate(over="ignore"):
        ab = np.array(case["x"], dtype=dtype)
    got = BINARY[name](ad.tensor(ab[:, 0]), ad.tensor(ab[:, 1])).numpy()
    assert got.dtype == np.dtype(dtype)
    assert_close(got, np.array(case[dtype], dtype=dtype), dtype=dtype, what=f"{name} {dtype}")


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_gradients_in_the_second_argument_match_pytorch(name):
    case = GOLDEN["binary"][name]
    ab = np.array(case["x"])
    other = ad.tensor(ab[:, 1], requires_grad=True)
    (g,) = ad.grad(BINARY[name](ad.tensor(ab[:, 0]), other), other, ad.ones_like(other))
    assert_close(g.numpy(), np.array(case["grad_other"]), dtype="float64", what=f"d {name} / d other")


# PyTorch 2.13's torch.special.__all__ (the Bessel functions of other kinds, airy_ai and the orthogonal
# polynomials have no gradient there, nor here: tests/engine/test_special_more.py)
PYTORCH_SPECIAL = ("airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "chebyshev_polynomial_t",
                   "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w", "digamma", "entr",
                   "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammainc", "gammaincc", "gammaln",
                   "hermite_polynomial_h", "hermite_polynomial_he", "i0", "i0e", "i1", "i1e", "laguerre_polynomial_l",
                   "legendre_polynomial_p", "log1p", "log_ndtr", "log_softmax", "logit", "logsumexp",
                   "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
                   "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round", "scaled_modified_bessel_k0",
                   "scaled_modified_bessel_k1", "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
                   "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "sinc", "softmax",
                   "spherical_bessel_j0", "xlog1py", "xlogy", "zeta")


def test_the_namespace_has_pytorchs_names():
    assert sorted(S.FUNCTIONS) == sorted(PYTORCH_SPECIAL)
    assert all(callable(getattr(S, name)) for name in PYTORCH_SPECIAL)
    assert not hasattr(S, "lgamma")  # torch.special has gammaln, not lgamma


@pytest.mark.parametrize("call, node", [
    (lambda x: S.psi(x), "DigammaBackward0"), (lambda x: S.gammaln(x), "LgammaBackward0"),
    (lambda x: S.expit(x), "SigmoidBackward0"), (lambda x: S.ndtr(x), "MulBackward1"),
    (lambda x: S.round(x), "RoundBackward1"), (lambda x: S.multigammaln(x + 2, 2), "MvlgammaBackward0"),
    (lambda x: S.erfinv(x / 4), "ErfinvBackward0"), (lambda x: S.sinc(x), "SincBackward0"),
    (lambda x: S.log1p(x), "Log1PBackward0"), (lambda x: S.xlogy(x, 2.0), "XlogyBackward2"),
    (lambda x: S.logsumexp(x, 0), "LogsumexpBackward0"), (lambda x: S.softmax(x, 0), "SoftmaxBackward0"),
    (lambda x: x.i0(), "I0Backward0"), (lambda x: x.polygamma(3), "PolygammaBackward0"),
])
def test_the_aliases_give_pytorchs_nodes(call, node):
    x = ad.tensor([0.5, 1.5], requires_grad=True)
    assert call(x).grad_fn.name() == node


def test_ndtr_is_composed_as_pytorch_composes_it():
    x = ad.tensor([0.5], requires_grad=True)
    chain, f = [], S.ndtr(x).grad_fn
    while f is not None and f.next_functions:
        chain.append(f.name())
        f = f.next_functions[0][0]
    assert chain == ["MulBackward1", "AddBackward1", "ErfBackward0", "MulBackward1"]
    assert S.ndtr(ad.tensor([1, 2])).dtype == ad.get_default_dtype()


def test_integers_give_the_default_float():
    assert ad.lgamma(ad.tensor([3, 4])).dtype == ad.get_default_dtype()
    assert S.zeta(ad.tensor([3, 4]), ad.tensor([1, 2])).dtype == ad.get_default_dtype()
    assert S.xlog1py(ad.tensor([3, 4]), ad.tensor([1, 2])).dtype == ad.get_default_dtype()
    assert S.polygamma(1, ad.tensor([3, 4])).dtype == ad.get_default_dtype()
    assert S.zeta(ad.tensor(3.0, dtype=ad.float32), ad.tensor([1.0, 2.0], dtype=ad.float64)).dtype == ad.float64


def test_zeta_has_no_derivative_in_x():
    x = ad.tensor([2.5], requires_grad=True)
    y = S.zeta(x, 2.0)
    assert y.grad_fn.name() == "SpecialZetaBackward2"
    with pytest.raises(NotImplementedError, match="the derivative for 'zeta' is not implemented."):
        y.backward()


def test_errors_in_pytorchs_words():
    with pytest.raises(RuntimeError, match=r"polygamma\(n, x\) does not support negative n."):
        S.polygamma(-1, ad.tensor([1.0]))
    with pytest.raises(RuntimeError, match="p has to be greater than or equal to 1"):
        S.multigammaln(ad.tensor([3.0]), 0)


def test_second_order_at_zero_of_i1_is_pytorchs():
    for f in (S.i1, S.i1e):
        x = ad.tensor([0.0], requires_grad=True)
        (g,) = ad.grad(f(x).sum(), x, create_graph=True)
        assert g.item() == 0.5
        (gg,) = ad.grad(g.sum(), x)
        assert gg.item() == 0.0


def test_in_place_variants():
    x = ad.tensor([0.5, 2.5])
    y = x.clone()
    y.polygamma_(1)
    assert_close(y.numpy(), S.polygamma(1, x).numpy())
    y = x.clone()
    y.lgamma_()
    assert_close(y.numpy(), ad.lgamma(x).numpy())


def test_the_namespace_in_the_language(cli):
    out = cli.run_ok("""
        x = torch.tensor([0.5, 1.5, 3.0], requires_grad=True)
        y = torch.special.gammaln(x) + torch.special.zeta(2.0, x) + torch.lgamma(x) + x.digamma()
        (g,) = torch.autograd.grad(y.sum(), x)
        print(y.grad_fn.name(), torch.special.erfcx(torch.tensor(30.0)).item() > 0, g.shape)
    """)
    assert out == "AddBackward0 True torch.Size([3])\n"
    job = cli.job("torch.special.i0(torch.tensor(1.0))")
    assert math.isclose(float(job["value"] if "value" in job else job["result"]), 1.2660658777520082, rel_tol=1e-6)
