"""Elementwise math of one tensor: abs, exp, log, the trigonometric and hyperbolic functions, erf, sigmoid, relu,
clamp, logit, nan_to_num; floor, ceil, round, trunc, frac."""
import math

import numpy

from .. import dtypes as _dt
from .. import kernels
from ..core.tensor import TensorBase, run_op
from ..host_data import is_number
from .table import Elementwise, MaskedGradient, Op, call, custom, tensor_of


class Abs(Elementwise):
    """The absolute value, elementwise."""
    name = "abs"
    names = ("abs", "absolute")
    node = "AbsBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.abs(x)

    def backward(F, ctx, g, x):
        return (g * F.sign(x),)


class Sign(Elementwise):
    """-1, 0 or 1 by the sign of each element.

    -1, 0 or 1 by the sign of each element; 0 for NaN, as PyTorch."""
    name = "sign"
    node = "SignBackward0"

    def forward(xp, x):
        if x.dtype.kind == "b":
            return x.copy()  # a bool's sign is itself (numpy has none)
        return xp.where(x != x, x.dtype.type(0), xp.sign(x))  # sign(NaN) is 0, as PyTorch's

    def backward(F, ctx, g):
        return (F.zeros_like(g),)  # +0 everywhere, as PyTorch's zeros_like(grad)


class Exp(Elementwise):
    """The exponential e**x, elementwise."""
    to_float = True
    name = "exp"
    node = "ExpBackward0"
    saves = ("out",)

    def forward(xp, x):
        return xp.exp(x)

    def backward(F, ctx, g, out):
        return (g * out,)


class Log(Elementwise):
    """The natural logarithm, elementwise."""
    to_float = True
    name = "log"
    node = "LogBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.log(x)

    def backward(F, ctx, g, x):
        return (g / x,)


class Sqrt(Elementwise):
    """The square root, elementwise."""
    to_float = True
    name = "sqrt"
    node = "SqrtBackward0"
    saves = ("out",)

    def forward(xp, x):
        return xp.sqrt(x)

    def backward(F, ctx, g, out):
        return (g / (out * 2),)


class Rsqrt(Elementwise):
    """1 / sqrt(x), elementwise."""
    to_float = True
    """1 / sqrt(x), both steps rounded (no reciprocal square root approximation)."""
    name = "rsqrt"
    node = "RsqrtBackward0"
    saves = ("out",)

    def forward(xp, x):
        return 1 / xp.sqrt(x)

    def backward(F, ctx, g, out):
        return ((g * -0.5) * (out * out * out),)  # PyTorch: -0.5 * grad * result.pow(3), its pow(3) two products


class Sin(Elementwise):
    """The sine (radians), elementwise."""
    to_float = True
    name = "sin"
    node = "SinBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.sin(x)

    def backward(F, ctx, g, x):
        return (g * F.cos(x),)


class Cos(Elementwise):
    """The cosine (radians), elementwise."""
    to_float = True
    name = "cos"
    node = "CosBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.cos(x)

    def backward(F, ctx, g, x):
        return (-(g * F.sin(x)),)

    batched = False

    def batched_backward(F, ctx, g, x):
        return (g * -F.sin(x),)  # the same bits, one pass over the batch


class Tan(Elementwise):
    """The tangent (radians), elementwise."""
    to_float = True
    name = "tan"
    node = "TanBackward0"
    saves = ("out",)

    def forward(xp, x):
        return xp.tan(x)

    def backward(F, ctx, g, out):
        return (g * (out * out + 1),)


class Tanh(Elementwise):
    """The hyperbolic tangent, elementwise."""
    to_float = True
    name = "tanh"
    node = "TanhBackward0"
    saves = ("out",)

    def forward(xp, x):
        return xp.tanh(x)

    def backward(F, ctx, g, out):
        return (F.tanh_backward(g, out),)


class TanhBackward(Op):
    """tanh's gradient g * (1 - y * y) as a row of its own, PyTorch's tanh_backward, whose own
    derivative gives the second order PyTorch's node (TanhBackwardBackward0)."""
    name = "tanh_backward"
    node = "TanhBackwardBackward0"
    elementwise = True
    saves = (0, 1)
    formula = custom("activation_gradient")

    def forward(xp, g, y):
        return g * (1 - y * y)

    def backward(F, ctx, gg, g, y):
        return (F.tanh_backward(gg, y) if ctx.needs[0] else None,
                gg * (-2 * y * g) if ctx.needs[1] else None)


class Sigmoid(Elementwise):
    """The logistic sigmoid 1 / (1 + exp(-x)), elementwise."""
    to_float = True
    name = "sigmoid"
    node = "SigmoidBackward0"
    saves = ("out",)

    def forward(xp, x):
        # PyTorch's kernel, 1 / (1 + exp(-x)); exp(-x) overflows to inf below about -709 (-88 in
        # float32), where 1 / inf is the right 0: numpy is only kept from warning of it
        low = x < -80
        if low.any() if low.shape else low:
            with xp.errstate(over="ignore"):
                return 1 / (1 + xp.exp(-x))
        return 1 / (1 + xp.exp(-x))

    def backward(F, ctx, g, out):
        return (F.sigmoid_backward(g, out),)


class SigmoidBackward(Op):
    """sigmoid's gradient (g * (1 - y)) * y as a row of its own, PyTorch's sigmoid_backward (its
    kernel's order of rounding), with that op's own derivative for the second order."""
    name = "sigmoid_backward"
    node = "SigmoidBackwardBackward0"
    elementwise = True
    saves = (0, 1)
    formula = custom("activation_gradient")

    def forward(xp, g, y):
        return g * (1 - y) * y

    def backward(F, ctx, gg, g, y):
        return (F.sigmoid_backward(gg, y) if ctx.needs[0] else None,
                gg * g * (-2 * y + 1) if ctx.needs[1] else None)


class Relu(Elementwise):
    """Max(x, 0), elementwise."""
    name = "relu"
    node = "ReluBackward0"
    saves = ("out",)

    def forward(xp, x):
        return xp.maximum(x, 0)

    def backward(F, ctx, g, out):
        return (F.threshold_backward(g, out),)


class ThresholdBackward(MaskedGradient):
    """relu's (and threshold's) gradient: 0 where x <= threshold, g elsewhere -- NaN included, as
    PyTorch's kernel."""
    name = "threshold_backward"
    node = "ThresholdBackwardBackward0"

    def forward(xp, g, x, threshold=0.0):
        return xp.where(x <= threshold, 0, g)


class Sinh(Elementwise):
    """The hyperbolic sine, elementwise."""
    to_float = True
    name = "sinh"
    node = "SinhBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.sinh(x)

    def backward(F, ctx, g, x):
        return (g * F.cosh(x),)


class Cosh(Elementwise):
    """The hyperbolic cosine, elementwise."""
    to_float = True
    name = "cosh"
    node = "CoshBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.cosh(x)

    def backward(F, ctx, g, x):
        return (g * F.sinh(x),)


class Log1p(Elementwise):
    """Log(1 + x), accurate near 0."""
    to_float = True
    name = "log1p"
    node = "Log1PBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.log1p(x)

    def backward(F, ctx, g, x):
        return (g / (x + 1),)


class Expm1(Elementwise):
    """Exp(x) - 1, accurate near 0."""
    to_float = True
    name = "expm1"
    node = "Expm1Backward0"
    saves = ("out",)

    def forward(xp, x):
        return xp.expm1(x)

    def backward(F, ctx, g, out):
        return (g * (out + 1),)


class Atan(Elementwise):
    """The inverse tangent (arctangent), elementwise."""
    to_float = True
    name = "atan"
    names = ("atan", "arctan")
    node = "AtanBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.arctan(x)

    def backward(F, ctx, g, x):
        return (g / (x * x + 1),)


class Asin(Elementwise):
    """The inverse sine (arcsine), elementwise."""
    to_float = True
    name = "asin"
    names = ("asin", "arcsin")
    node = "AsinBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.arcsin(x)

    def backward(F, ctx, g, x):
        return (g * F.rsqrt(-x * x + 1),)  # derivatives.yaml's expression and rounding


class Acos(Elementwise):
    """The inverse cosine (arccosine), elementwise."""
    to_float = True
    name = "acos"
    names = ("acos", "arccos")
    node = "AcosBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.arccos(x)

    def backward(F, ctx, g, x):
        return (g * -F.rsqrt(-x * x + 1),)  # derivatives.yaml's expression and rounding


class Erf(Elementwise):
    """The error function, elementwise."""
    to_float = True
    name = "erf"
    node = "ErfBackward0"
    saves = (0,)

    def forward(xp, x):
        return kernels.erf(xp, x)

    def backward(F, ctx, g, x):
        return ((2 / math.sqrt(math.pi)) * F.exp(-(x * x)) * g,)  # derivatives.yaml's order


class Erfinv(Elementwise):
    """The inverse error function: erfinv(erf(x)) is x; +-inf at +-1, NaN outside [-1, 1]."""
    to_float = True
    name = "erfinv"
    node = "ErfinvBackward0"
    saves = ("out",)

    def forward(xp, x):
        return kernels.erfinv(xp, x)

    def backward(F, ctx, g, out):
        return ((math.sqrt(math.pi) / 2) * F.exp(out * out) * g,)


class Acosh(Elementwise):
    """The inverse hyperbolic cosine, elementwise."""
    name = "acosh"
    names = ("acosh", "arccosh")
    to_float = True
    node = "AcoshBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.arccosh(x)

    def backward(F, ctx, g, x):
        return (g * F.rsqrt(x * x - 1),)


class Asinh(Elementwise):
    """The inverse hyperbolic sine, elementwise."""
    name = "asinh"
    names = ("asinh", "arcsinh")
    to_float = True
    node = "AsinhBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.arcsinh(x)

    def backward(F, ctx, g, x):
        return (g * F.rsqrt(x * x + 1),)


class Atanh(Elementwise):
    """The inverse hyperbolic tangent, elementwise."""
    name = "atanh"
    names = ("atanh", "arctanh")
    to_float = True
    node = "AtanhBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.arctanh(x)

    def backward(F, ctx, g, x):
        return (g / (1 - x * x),)


class Log2(Elementwise):
    """The base-2 logarithm, elementwise."""
    name = "log2"
    to_float = True
    node = "Log2Backward0"
    saves = (0,)

    def forward(xp, x):
        return xp.log2(x)

    def backward(F, ctx, g, x):
        return (g / (x * 0.6931471805599453),)  # PyTorch's constant


class Log10(Elementwise):
    """The base-10 logarithm, elementwise."""
    name = "log10"
    to_float = True
    node = "Log10Backward0"
    saves = (0,)

    def forward(xp, x):
        return xp.log10(x)

    def backward(F, ctx, g, x):
        return (g / (x * 2.3025850929940456),)  # PyTorch's constant (math.log(10) is one bit above)


class Exp2(Elementwise):
    """2 ** x, elementwise."""
    name = "exp2"
    to_float = True
    node = "Exp2Backward0"
    saves = ("out",)

    def forward(xp, x):
        return xp.exp2(x)

    def backward(F, ctx, g, out):
        return (g * out * math.log(2),)


class Erfc(Elementwise):
    """The complementary error function 1 - erf(x), elementwise."""
    name = "erfc"
    to_float = True
    node = "ErfcBackward0"
    saves = (0,)

    def forward(xp, x):
        return kernels.erfc(xp, x)

    def backward(F, ctx, g, x):
        return ((-2 / math.sqrt(math.pi)) * F.exp(-(x * x)) * g,)


class Sinc(Elementwise):
    """The normalized sinc sin(pi x) / (pi x), 1 at 0.

    sin(pi x) / (pi x), 1 at 0."""
    name = "sinc"
    to_float = True
    node = "SincBackward0"
    saves = (0,)

    def forward(xp, x):
        product = x * math.pi
        return xp.where(x == 0, 1, xp.sin(product) / xp.where(x == 0, 1, product))

    def backward(F, ctx, g, x):
        # PyTorch's sinc_backward: g * ((pi x cos(pi x) - sin(pi x)) / (x * x * pi)), 0 where that
        # denominator is 0 (x = 0, or so small that x * x underflows) -- so a second derivative there
        # meets 0/0 and is nan, as PyTorch's is
        product = x * math.pi
        squared = x * x * math.pi
        out = g * ((product * F.cos(product) - F.sin(product)) / squared)
        return (F.where(squared == 0, 0.0, out),)


class Deg2rad(Elementwise):
    """Degrees to radians, elementwise."""
    name = "deg2rad"
    to_float = True
    node = "Deg2RadBackward0"

    def forward(xp, x):
        return x * (math.pi / 180)

    def backward(F, ctx, g):
        return (g * (math.pi / 180),)


class Rad2deg(Elementwise):
    """Radians to degrees, elementwise."""
    name = "rad2deg"
    to_float = True
    node = "Rad2DegBackward0"

    def forward(xp, x):
        return x * (180 / math.pi)

    def backward(F, ctx, g):
        return (g * (180 / math.pi),)


class Logit(Op):
    """Log(p / (1 - p)), p clamped to [eps, 1 - eps] when eps is given.

    log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps is given (PyTorch's kernel:
    x < eps ? eps : x > 1 - eps ? 1 - eps : x, so NaN stays)."""
    name = "logit"
    signature = "logit(Tensor input, float? eps=None) -> Tensor"
    to_float = True  # integers and bools give the default float
    method = inplace = elementwise = True
    formula = call("eps")
    node = "LogitBackward0"
    saves = (0,)

    def forward(xp, x, eps=None):
        if eps is not None:
            lo, hi = x.dtype.type(eps), x.dtype.type(1) - x.dtype.type(eps)
            x = xp.where(x < lo, lo, xp.where(x > hi, hi, x))
        with numpy.errstate(divide="ignore", invalid="ignore"):
            return xp.log(x / (1 - x))

    def backward(F, ctx, g, x, eps=None):
        # PyTorch's (infinitely differentiable) logit_backward: g / (x (1 - x)) inside [eps, 1 - eps],
        # 0 outside; without eps, inside [0, 1] and NaN outside
        raw = getattr(x, "array", x)
        lo, hi = (0.0, 1.0) if eps is None else (eps, 1.0 - eps)
        with numpy.errstate(divide="ignore", invalid="ignore"):
            return (F.where((raw >= lo) & (raw <= hi), g / (x * (1.0 - x)), math.nan if eps is None else 0.0),)


class NanToNum(Op):
    """NaN, inf and -inf replaced by numbers (the dtype's extremes by default).

    NaN, +inf and -inf replaced by numbers (the dtype's largest and lowest by default); an
    integral tensor is copied as it is. The gradient is 0 where the input was not finite."""
    name = "nan_to_num"
    signature = "nan_to_num(Tensor input, float? nan=0.0, float? posinf=None, float? neginf=None) -> Tensor"
    method = inplace = elementwise = True
    formula = call("nan", "posinf", "neginf")
    node = "NanToNumBackward0"
    saves = (0,)

    def forward(xp, x, nan=None, posinf=None, neginf=None):
        if _integral(x):
            return x.copy()
        info = xp.finfo(x.dtype)
        with numpy.errstate(over="ignore"):  # a replacement beyond the dtype becomes inf, as PyTorch's cast
            fills = [x.dtype.type(v) for v in (0.0 if nan is None else nan, info.max if posinf is None else posinf,
                                               info.min if neginf is None else neginf)]
        out = xp.where(xp.isnan(x), fills[0], x)
        out = xp.where(x == math.inf, fills[1], out)
        return xp.where(x == -math.inf, fills[2], out)

    def backward(F, ctx, g, x, nan=None, posinf=None, neginf=None):
        return (g * F.isfinite(x),)  # PyTorch's grad * isfinite(self)


def _integral(x):
    return x.dtype.kind in "biu"


class Floor(Elementwise):
    """Rounded down to a whole number, elementwise."""
    name = "floor"
    node = "FloorBackward0"

    def forward(xp, x):
        return x.copy() if _integral(x) else xp.floor(x)

    def backward(F, ctx, g):
        return (F.zeros_like(g),)  # +0 everywhere, as PyTorch's zeros_like(grad)


class Ceil(Elementwise):
    """Rounded up to a whole number, elementwise."""
    name = "ceil"
    node = "CeilBackward0"

    def forward(xp, x):
        return x.copy() if _integral(x) else xp.ceil(x)

    def backward(F, ctx, g):
        return (F.zeros_like(g),)  # +0 everywhere, as PyTorch's zeros_like(grad)


class Trunc(Elementwise):
    """Rounded towards zero, elementwise."""
    name = "trunc"
    names = ("trunc", "fix")
    node = "TruncBackward0"

    def forward(xp, x):
        return x.copy() if _integral(x) else xp.trunc(x)

    def backward(F, ctx, g):
        return (F.zeros_like(g),)  # +0 everywhere, as PyTorch's zeros_like(grad)


class Frac(Elementwise):
    """The fractional part x - trunc(x), elementwise.

    x - trunc(x): the derivative is 1."""
    name = "frac"
    node = "FracBackward0"

    def forward(xp, x):
        return x - (x if _integral(x) else xp.trunc(x))

    def backward(F, ctx, g):
        return (g,)


class Round(Op):
    """round(x, decimals=None): to the nearest integer, halves to even (decimals=d: to
    multiples of 10**-d, scaled as PyTorch does, in float32 for float16)."""
    name = "round"
    signature = "round(Tensor input, *, int? decimals=None) -> Tensor"
    method = inplace = True
    elementwise = True
    formula = call("decimals")
    node = staticmethod(lambda ctx: "RoundBackward0" if ctx.params.get("decimals") is None else "RoundBackward1")

    def forward(xp, x, decimals=None):
        if _integral(x):
            return x.copy()
        if decimals is None:
            return xp.rint(x)
        work = x.astype(xp.float32) if x.dtype == xp.float16 else x
        scale = work.dtype.type(10.0 ** abs(decimals))
        out = xp.rint(work * scale) / scale if decimals >= 0 else xp.rint(work / scale) * scale
        return out.astype(x.dtype, copy=False)

    def backward(F, ctx, g, decimals=None):
        return (F.zeros_like(g),)  # +0 everywhere, as PyTorch's zeros_like(grad)

    def call(input, decimals):
        if decimals is not None and input.array.dtype.kind in "biu":  # (without decimals an integer is itself)
            raise NotImplementedError(f"\"round_{input.device.type}\" not implemented for "
                                      f"'{_dt.scalar_name(_dt.dtype_of(input.array))}'")
        return run_op(Round, (input,), {"decimals": decimals})


class Clamp(Op):
    """Each element limited to [min, max] (either bound may be left out).

    Each element held between min and max (either may be None; a tensor bound broadcasts)."""
    name = "clamp"
    signature = "clamp(Tensor input, Scalar? min=None, Scalar? max=None) -> Tensor"
    names = ("clamp", "clip", "clamp_min", "clamp_max")
    method = inplace = True
    formula = call("min", "max")
    elementwise = True
    node = staticmethod(lambda ctx: ctx.params.get("name") or "ClampBackward1")
    saves = (0,)

    def forward(xp, x, min=None, max=None, name=None):
        return xp.clip(x, min, max)

    def backward(F, ctx, g, x, min=None, max=None, name=None):
        # a masked fill as PyTorch's (+0 outside, not g * 0)
        if min is not None and max is not None:
            return (F.where((x >= min) & (x <= max), g, 0.0),)
        if min is not None:
            return (F.where(x >= min, g, 0.0),)
        return (F.where(x <= max, g, 0.0),)

    def call(input, min, max):
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        if (min is None or is_number(min)) and (max is None or is_number(max)):
            return run_op(Clamp, (input,), {"min": min, "max": max})
        return ClampTensors.call(input, min, max, "ClampBackward0")


class ClampTensors(Op):
    """clamp with tensor bounds (either may be None): each element held between its bounds, and
    where a lower bound is above its upper one, the upper. The gradient goes to x where it is within
    them (ties too), to a bound where it is the result -- PyTorch's rules, ties included."""
    name = "clamp_tensors"
    names = ()
    elementwise = True
    saves = (0, 1, 2)
    node = staticmethod(lambda ctx: ctx.params["name"])
    formula = call("name")

    def forward(xp, x, lo, hi, name):
        return xp.clip(x, lo, hi) if lo is None or hi is None else xp.minimum(xp.maximum(x, lo), hi)

    def backward(F, ctx, g, x, lo, hi, name):
        inside = x >= lo if hi is None else x <= hi if lo is None else (x >= lo) & (x <= hi)
        return (F.where(inside, g, 0.0) if ctx.needs[0] else None,
                F.where((x < lo) if hi is None else (x < lo) & (lo < hi), g, 0.0) if ctx.needs[1] else None,
                F.where((x > hi) if lo is None else (x > hi) | (lo > hi), g, 0.0) if ctx.needs[2] else None)

    def call(input, min, max, name):
        bounds = [None if b is None else b if isinstance(b, TensorBase) else tensor_of(b, input.device)
                  for b in (min, max)]
        return run_op(ClampTensors, (input, *bounds), {"name": name})


# ------------------------------------------------------------------ random draws (their draws a parameter)

class Normal(Op):
    """Normal draws of the given means and standard deviations: mean + std * `draws` (standard normals
    of the result's shape, drawn by the public function), in the first tensor's dtype. No gradient
    reaches mean or std: PyTorch's are zeros, not the reparameterised derivative."""
    name = "normal"
    names = ("normal",)
    batched = True

    @staticmethod
    def node(ctx):
        """NormalBackward1 for (Tensor, float), 2 for (float, Tensor), 3 for two tensors, as PyTorch's."""
        return "NormalBackward1" if ctx.shapes[1] is None else "NormalBackward2" if ctx.shapes[0] is None \
            else "NormalBackward3"

    def forward(xp, mean, std, draws):
        dtype = mean.dtype if hasattr(mean, "dtype") else std.dtype
        return (mean + std * draws.astype(dtype, copy=False)).astype(dtype, copy=False)

    def backward(F, ctx, g, draws):
        return tuple(F.zeros_like(g) if need else None for need in ctx.needs)


class Poisson(Op):
    """Poisson counts for the rates `rate`: the `samples` the public function drew for them, in the
    rates' dtype (no gradient reaches the rates: PyTorch's are zeros)."""
    name = "poisson"
    names = ("poisson",)
    node = "PoissonBackward0"
    batched = True

    def forward(xp, rate, samples):
        return samples.astype(rate.dtype)

    def backward(F, ctx, g, samples):
        return (F.zeros_like(g),)
