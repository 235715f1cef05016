"""torch.special's functions that need rows of their own: lgamma, digamma, polygamma, mvlgamma
(special.multigammaln), erfcx, the modified Bessel functions i0, i0e, i1, i1e, ndtri, log_ndtr, entr,
xlog1py, the Hurwitz zeta, igamma and igammac (differentiable in x only, as PyTorch), and the rows
PyTorch gives no gradient: the Bessel functions of other kinds, airy_ai and the orthogonal
polynomials. Their kernels are engine/special_kernels.py; each backward is written in rows of the
table (d lgamma = digamma, d digamma = polygamma(1), d i0 = i1, ...), so every order of derivative
comes from the rows themselves. The namespace torch.special is engine/special.py."""
import math

import numpy

from .. import dtypes as _dt
from .. import special_kernels as K
from ..core.tensor import NO_PARAMS, TensorBase, run_op
from .table import TABLE, Elementwise, Op, call, int_argument, refuse_dtype, tensor_argument

_ROOT_2PI = math.sqrt(2 * math.pi)


class Lgamma(Elementwise):
    """The log of the absolute value of the gamma function; +inf at 0 and the negative integers."""
    to_float = True
    name = "lgamma"
    node = "LgammaBackward0"
    saves = (0,)

    def forward(xp, x):
        return K.lgamma(xp, x)

    def backward(F, ctx, g, x):
        return (g * F.digamma(x),)


class Digamma(Elementwise):
    """The digamma function psi, the derivative of lgamma (NaN at the negative integers)."""
    to_float = True
    name = "digamma"
    node = "DigammaBackward0"
    saves = (0,)

    def forward(xp, x):
        return K.digamma(xp, x)

    def backward(F, ctx, g, x):
        return (g * F.polygamma(x, n=1),)


class Polygamma(Op):
    """The n-th derivative of the digamma function (polygamma(0, x) is digamma(x))."""
    name = "polygamma"
    signature = "polygamma(int n, Tensor input) -> Tensor"
    to_float = True
    elementwise = True
    formula = call("n")
    node = "PolygammaBackward0"
    saves = (0,)

    def forward(xp, x, n):
        return K.polygamma(xp, n, x)

    def backward(F, ctx, g, x, n):
        return (g * F.polygamma(x, n=n + 1),)

    def call(n, input):
        n = int_argument(n, "polygamma", "n", 1)
        if n < 0:
            raise RuntimeError("polygamma(n, x) does not support negative n.")
        return run_op(Polygamma, (input,), {"n": n})


class Mvlgamma(Op):
    """The log of the multivariate gamma function of dimension p (torch.special.multigammaln).

    The sum over j < p of lgamma(x - j / 2), plus p (p - 1) / 4 log(pi)."""
    name = "mvlgamma"
    signature = "mvlgamma(Tensor input, int p) -> Tensor"
    to_float = True
    method = inplace = elementwise = True
    formula = call("p")
    node = "MvlgammaBackward0"
    saves = (0,)

    def forward(xp, x, p):
        out = K.lgamma(xp, x)
        for j in range(1, p):
            out = out + K.lgamma(xp, x - x.dtype.type(j / 2))
        return out + x.dtype.type(p * (p - 1) / 4 * math.log(math.pi))

    def backward(F, ctx, g, x, p):
        total = F.digamma(x)
        for j in range(1, p):
            total = total + F.digamma(x - j / 2)
        return (g * total,)

    def call(input, p):
        if p < 1:
            raise RuntimeError("p has to be greater than or equal to 1")
        return run_op(Mvlgamma, (input,), {"p": p})


class Erfcx(Elementwise):
    """The scaled complementary error function exp(x^2) erfc(x), without overflow for large x."""
    to_float = True
    name = "special_erfcx"
    method = inplace = False
    node = "SpecialErfcxBackward0"
    saves = (0, "out")

    def forward(xp, x):
        return K.erfcx(xp, x)

    def backward(F, ctx, g, x, out):
        return (((2.0 * x) * out - 2 / math.sqrt(math.pi)) * g,)


class I0(Elementwise):
    """The modified Bessel function of the first kind of order 0."""
    to_float = True
    name = "i0"
    node = "I0Backward0"
    saves = (0,)

    def forward(xp, x):
        return K.i0(xp, x)

    def backward(F, ctx, g, x):
        return (g * F.special_i1(x),)


class I0e(Elementwise):
    """The exponentially scaled modified Bessel function of order 0, exp(-|x|) i0(x)."""
    to_float = True
    name = "special_i0e"
    method = inplace = False
    node = "SpecialI0EBackward0"
    saves = (0, "out")

    def forward(xp, x):
        return K.i0e(xp, x)

    def backward(F, ctx, g, x, out):
        return (g * (F.special_i1e(x) - F.sign(x) * out),)


def _at_zero_half(F, x, slope):
    """PyTorch's i1 and i1e backward: slope(safe) where |x| > eps (the dtype's), 1/2 elsewhere (at 0,
    and at NaN), with safe = x there and eps elsewhere -- no 0/0 on the unused side, so the second
    derivative at 0 is 0, as PyTorch's."""
    raw = getattr(x, "array", x)
    not_tiny = numpy.abs(raw) > numpy.finfo(raw.dtype).eps
    return F.where(not_tiny, slope(F.where(not_tiny, x, float(numpy.finfo(raw.dtype).eps))), 0.5)


class I1(Elementwise):
    """The modified Bessel function of the first kind of order 1."""
    to_float = True
    name = "special_i1"
    method = inplace = False
    node = "SpecialI1Backward0"
    saves = (0, "out")

    def forward(xp, x):
        return K.i1(xp, x)

    def backward(F, ctx, g, x, out):
        return (g * _at_zero_half(F, x, lambda safe: F.i0(safe) - out / safe),)


class I1e(Elementwise):
    """The exponentially scaled modified Bessel function of order 1, exp(-|x|) i1(x)."""
    to_float = True
    name = "special_i1e"
    method = inplace = False
    node = "SpecialI1EBackward0"
    saves = (0, "out")

    def forward(xp, x):
        return K.i1e(xp, x)

    def backward(F, ctx, g, x, out):
        return (g * _at_zero_half(F, x, lambda safe: F.special_i0e(safe) - out * (F.sign(safe) + 1 / safe)),)


class Ndtri(Elementwise):
    """The inverse of the standard normal distribution function (the quantile of p)."""
    to_float = True
    name = "special_ndtri"
    method = inplace = False
    node = "SpecialNdtriBackward0"
    saves = ("out",)

    def forward(xp, p):
        return K.ndtri(xp, p)

    def backward(F, ctx, g, out):
        return (g * _ROOT_2PI * F.exp(out * out / 2),)


class LogNdtr(Elementwise):
    """The log of the standard normal distribution function, accurate far into both tails."""
    to_float = True
    name = "special_log_ndtr"
    method = inplace = False
    node = "SpecialLogNdtrBackward0"
    saves = (0, "out")

    def forward(xp, x):
        return K.log_ndtr(xp, x)

    def backward(F, ctx, g, x, out):
        # the normal density over the distribution function: exp(-(x^2 / 2 + log_ndtr(x))) / sqrt(2 pi)
        # (PyTorch's formula) from -1 up; below, where x^2 / 2 swamps log_ndtr(x) + x^2 / 2, the same
        # ratio as sqrt(2 / pi) / erfcx(-x / sqrt 2) (about -x far out, where PyTorch's gives inf or
        # 1 / sqrt(2 pi)). Each side is computed on safe arguments, so the unused one makes no NaN.
        left = getattr(x, "array", x) < -1
        x_left, x_right, out_right = F.where(left, x, -1.0), F.where(left, -1.0, x), F.where(left, 0.0, out)
        tail = math.sqrt(2 / math.pi) / F.special_erfcx(x_left * -math.sqrt(0.5))
        return (g * F.where(left, tail, F.exp(-(out_right + x_right * x_right / 2)) / _ROOT_2PI),)


class Entr(Elementwise):
    """The elementwise entropy -x log(x): 0 at 0, -inf for x < 0."""
    to_float = True
    name = "special_entr"
    method = inplace = False
    node = "SpecialEntrBackward0"
    saves = (0,)

    def forward(xp, x):
        return K.entr(xp, x)

    def backward(F, ctx, g, x):
        return (g * -(F.log(x) + 1),)


def _float_operands(xp, x, y):
    """x and y as arrays of their promoted dtype (a number weakly typed; integers and bools: the
    default float dtype)."""
    dtype = numpy.result_type(*(v if hasattr(v, "dtype") else type(v)(v) for v in (x, y)))
    if not hasattr(x, "dtype") or not hasattr(y, "dtype"):
        arrays = [v for v in (x, y) if hasattr(v, "dtype")]
        dtype = arrays[0].dtype if arrays and arrays[0].dtype.kind == "f" else numpy.result_type(x, y)
    if dtype.kind != "f":
        dtype = _dt.get_default_dtype().np
    return xp.asarray(x, dtype=dtype), xp.asarray(y, dtype=dtype)


def _binary_node(base):
    """PyTorch's node of a Tensor-Tensor function and its Scalar overloads: ...0, ...1 for a number
    first, ...2 for a number second."""
    return staticmethod(lambda ctx: base + ("1" if ctx.shapes[0] is None else "2" if ctx.shapes[1] is None else "0"))


class Xlog1py(Op):
    """x log1p(y), 0 where x is 0 (unless y is NaN)."""
    name = "special_xlog1py"
    signature = "special_xlog1py(Tensor input, Tensor other) -> Tensor"
    node = _binary_node("SpecialXlog1PyBackward")
    number_left = number_right = "drop"
    elementwise = True
    saves = (0, 1)

    def forward(xp, x, y):
        x, y = _float_operands(xp, x, y)
        return K.xlog1py(xp, x, y)

    def backward(F, ctx, g, x, y):
        # PyTorch's: g log1p(y), but 0 where x is 0 and y <= -1; g x / (1 + y) for y
        gx = g * F.special_xlog1py((x != 0) | (y > -1), y) if ctx.needs[0] else None
        return gx, (g * x / (y + 1) if ctx.needs[1] else None)


class Zeta(Op):
    """The Hurwitz zeta function sum over k >= 0 of (q + k)^-x; differentiable in q only (as PyTorch)."""
    name = "special_zeta"
    signature = "special_zeta(Tensor input, Tensor other) -> Tensor"
    node = _binary_node("SpecialZetaBackward")
    number_left = number_right = "drop"
    elementwise = True
    saves = (0, 1)

    def forward(xp, x, q):
        x, q = _float_operands(xp, x, q)
        return K.zeta(xp, x, q)

    def backward(F, ctx, g, x, q):
        if ctx.needs[0]:
            raise NotImplementedError("the derivative for 'zeta' is not implemented.")
        return None, (g * -x * F.special_zeta(x + 1.0, q) if ctx.needs[1] else None)


def tensor_pair(fname, input, other):
    """PyTorch's Tensor-only binary functions refuse numbers in its words."""
    return tensor_argument(input, fname, "input", 1), tensor_argument(other, fname, "other", 2)


def _float_only(kernel):
    """PyTorch's refusal of integral and bool operands (its kernel has float versions only)."""
    def forward(xp, a, x):
        if a.dtype.kind != "f":  # (both have the promoted dtype here)
            refuse_dtype(f"{kernel}_{'cpu' if xp is numpy else 'cuda'}", a.dtype)
        return getattr(K, kernel)(xp, a, x)
    return staticmethod(forward)


def _igamma_slope(F, a, x):
    """d P(a, x) / dx = x^(a-1) e^-x / Gamma(a), as PyTorch writes it (through exp of a log)."""
    return F.exp((a - 1) * F.log(x) - x - F.lgamma(a))


class Igamma(Op):
    """The regularized lower incomplete gamma function P(a, x); differentiable in x only (as PyTorch)."""
    name = "igamma"
    signature = "igamma(Tensor input, Tensor other) -> Tensor"
    node = "IgammaBackward0"
    method = inplace = elementwise = True
    saves = (0, 1)
    save_for = ((1,), (1,))
    forward = _float_only("igamma")

    def backward(F, ctx, g, a, x):
        if ctx.needs[0]:
            raise NotImplementedError("the derivative for 'igamma: input' is not implemented.")
        return None, g * _igamma_slope(F, a, x)

    def call(input, other):
        return run_op(Igamma, tensor_pair("igamma", input, other), NO_PARAMS)


class Igammac(Op):
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x); differentiable in x only."""
    name = "igammac"
    signature = "igammac(Tensor input, Tensor other) -> Tensor"
    node = "IgammacBackward0"
    method = inplace = elementwise = True
    saves = (0, 1)
    save_for = ((1,), (1,))
    forward = _float_only("igammac")

    def backward(F, ctx, g, a, x):
        if ctx.needs[0]:
            raise NotImplementedError("the derivative for 'igammac: input' is not implemented.")
        return None, -g * _igamma_slope(F, a, x)

    def call(input, other):
        return run_op(Igammac, tensor_pair("igammac", input, other), NO_PARAMS)


def _no_gradient_row(kernel, summary):
    """A row of torch.special's functions that PyTorch gives no gradient (their results never require
    grad): the Bessel functions of other kinds and airy_ai; named special_<kernel> as PyTorch's."""
    def forward(xp, x):
        return getattr(K, kernel)(xp, x)
    return type(kernel, (Elementwise,), {
        "__doc__": summary, "name": "special_" + kernel, "to_float": True, "method": False, "inplace": False,
        "differentiable": False, "forward": staticmethod(forward), "__module__": __name__})


NO_GRADIENT_UNARY = {
    "bessel_j0": "The Bessel function of the first kind of order 0.",
    "bessel_j1": "The Bessel function of the first kind of order 1.",
    "bessel_y0": "The Bessel function of the second kind of order 0 (-inf at 0, NaN below).",
    "bessel_y1": "The Bessel function of the second kind of order 1 (-inf at 0, NaN below).",
    "modified_bessel_i0": "The modified Bessel function of the first kind of order 0 (i0, without a gradient).",
    "modified_bessel_i1": "The modified Bessel function of the first kind of order 1 (i1, without a gradient).",
    "modified_bessel_k0": "The modified Bessel function of the second kind of order 0 (inf at 0, NaN below).",
    "modified_bessel_k1": "The modified Bessel function of the second kind of order 1 (inf at 0, NaN below).",
    "scaled_modified_bessel_k0": "exp(x) K_0(x), without overflow for large x.",
    "scaled_modified_bessel_k1": "exp(x) K_1(x), without overflow for large x.",
    "spherical_bessel_j0": "The spherical Bessel function of the first kind of order 0, sin(x) / x.",
    "airy_ai": "The Airy function Ai(x).",
}
for _kernel, _summary in NO_GRADIENT_UNARY.items():  # (rows alike but for their kernel: made, not written out)
    globals()[_kernel] = _no_gradient_row(_kernel, _summary)


def _polynomial_row(name, summary):
    """A row of the orthogonal polynomials p_n(x) (x and n tensors, or one of them a number; n taken
    as a whole number), without a gradient in PyTorch."""
    kernel = K.POLYNOMIALS[name]

    def forward(xp, x, n):
        arrays = [v for v in (x, n) if hasattr(v, "dtype")]  # (two tensors come promoted to one dtype)
        dtype = arrays[0].dtype if arrays[0].dtype.kind == "f" else _dt.get_default_dtype().np
        return kernel(xp, x, n, dtype)

    def call(x, n):  # (Tensor x, Tensor n), (Number x, Tensor n) or (Tensor x, Number n): PyTorch's overloads
        tensors = [isinstance(v, TensorBase) for v in (x, n)]
        if not any(tensors) or not all(t or isinstance(v, (int, float)) for t, v in zip(tensors, (x, n))):
            raise TypeError(f"special_{name}() received an invalid combination of arguments - got "
                            f"({type(x).__name__}, {type(n).__name__}), but expected one of:\n"
                            " * (Tensor x, Tensor n, *, Tensor out = None)\n"
                            " * (Number x, Tensor n, *, Tensor out = None)\n"
                            " * (Tensor x, Number n, *, Tensor out = None)\n")
        return run_op(TABLE["special_" + name], (x, n), NO_PARAMS)

    return type(name, (Op,), {
        "__doc__": summary, "name": "special_" + name, "signature": f"special_{name}(Any x, Any n) -> Tensor",
        "elementwise": True, "differentiable": False, "forward": staticmethod(forward), "call": staticmethod(call),
        "__module__": __name__})


POLYNOMIALS = {
    "chebyshev_polynomial_t": "The Chebyshev polynomial of the first kind T_n(x).",
    "chebyshev_polynomial_u": "The Chebyshev polynomial of the second kind U_n(x).",
    "chebyshev_polynomial_v": "The Chebyshev polynomial of the third kind V_n(x).",
    "chebyshev_polynomial_w": "The Chebyshev polynomial of the fourth kind W_n(x).",
    "shifted_chebyshev_polynomial_t": "The shifted Chebyshev polynomial of the first kind T_n(2x - 1).",
    "shifted_chebyshev_polynomial_u": "The shifted Chebyshev polynomial of the second kind U_n(2x - 1).",
    "shifted_chebyshev_polynomial_v": "The shifted Chebyshev polynomial of the third kind V_n(2x - 1).",
    "shifted_chebyshev_polynomial_w": "The shifted Chebyshev polynomial of the fourth kind W_n(2x - 1).",
    "hermite_polynomial_h": "The physicists' Hermite polynomial H_n(x).",
    "hermite_polynomial_he": "The probabilists' Hermite polynomial He_n(x).",
    "laguerre_polynomial_l": "The Laguerre polynomial L_n(x).",
    "legendre_polynomial_p": "The Legendre polynomial P_n(x).",
}
for _name, _summary in POLYNOMIALS.items():
    globals()[_name] = _polynomial_row(_name, _summary)
