"""torch.special: the special-functions namespace (`autodiff.engine.special`, `torch.special` in the
language): PyTorch 2.13's torch.special, with PyTorch's names and node names. Most are the rows of
engine/ops/special.py (special_erfcx, special_zeta, ...) or aliases of torch's own functions (psi is
digamma, gammaln is lgamma, expit is sigmoid, multigammaln is mvlgamma, gammainc and gammaincc are
igamma and igammac, refusing numbers in special_gammainc's words); ndtr is composed as PyTorch
composes it, (1 + erf(x / sqrt 2)) * 0.5, so its node is MulBackward1 and its far left tail is 0
(log_ndtr keeps that tail).

The Bessel functions of other kinds (bessel_j0, ..., modified_bessel_k0, ..., spherical_bessel_j0),
airy_ai and the orthogonal polynomials (chebyshev_polynomial_t, ..., legendre_polynomial_p) are rows
with no gradient, as in PyTorch (their results never require grad).
"""
import math

from . import dtypes as _dt
from . import functions as _f
from .functions.arguments import tensor_in
from .ops import special as _special_rows
from .ops.special import tensor_pair
from .core.tensor import apply
from .ops import TABLE as _op

_NO_GRADIENT = tuple(_special_rows.NO_GRADIENT_UNARY) + tuple(_special_rows.POLYNOMIALS)
FUNCTIONS = _NO_GRADIENT + (
    "digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammainc", "gammaincc", "gammaln",
    "i0", "i0e", "i1", "i1e", "log1p", "log_ndtr", "log_softmax", "logit", "logsumexp", "multigammaln", "ndtr", "ndtri",
    "polygamma", "psi", "round", "sinc", "softmax", "xlog1py", "xlogy", "zeta")  # what the language sees
__all__ = list(FUNCTIONS)
ROWS = ("special_erfcx", "special_i0e", "special_i1", "special_i1e", "special_ndtri", "special_log_ndtr",
        "special_entr", "special_xlog1py", "special_zeta") + tuple("special_" + name for name in _NO_GRADIENT)
# (ROWS: the functions only this namespace shows)

digamma = psi = _f.digamma
gammaln = _f.lgamma
polygamma = _f.polygamma
multigammaln = _f.mvlgamma
i0 = _f.i0
erf, erfc, erfinv, exp2, expm1, log1p = _f.erf, _f.erfc, _f.erfinv, _f.exp2, _f.expm1, _f.log1p
expit = _f.sigmoid
logit, sinc, xlogy = _f.logit, _f.sinc, _f.xlogy
softmax, log_softmax, logsumexp = _f.softmax, _f.log_softmax, _f.logsumexp
erfcx = _f.special_erfcx
i0e, i1, i1e = _f.special_i0e, _f.special_i1, _f.special_i1e
ndtri, log_ndtr, entr = _f.special_ndtri, _f.special_log_ndtr, _f.special_entr
xlog1py, zeta = _f.special_xlog1py, _f.special_zeta
globals().update({name: getattr(_f, "special_" + name) for name in _NO_GRADIENT})


def ndtr(input):
    """The standard normal distribution function, (1 + erf(x / sqrt(2))) / 2."""
    x = tensor_in(input, "input")
    if x.array.dtype.kind in "biu":
        x = _f.to(x, dtype=_dt.get_default_dtype())
    scaled = apply(_op["scalar_arith"], x, value=math.sqrt(0.5))
    return apply(_op["scalar_arith"], apply(_op["add_scalar"], _f.erf(scaled), value=1), value=0.5)


def round(input, *, decimals=0):  # noqa: A001  (PyTorch's name)
    """Rounded to `decimals` decimal places (0: to whole numbers, halves to even)."""
    return _f.round(input, decimals=decimals)


def gammainc(input, other):
    """The regularized lower incomplete gamma function P(a, x) (torch.igamma)."""
    return _f.igamma(*tensor_pair("special_gammainc", input, other))


def gammaincc(input, other):
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x) (torch.igammac)."""
    return _f.igammac(*tensor_pair("special_gammaincc", input, other))
