"""Elementwise math of one tensor: abs, exp, log, the trigonometric and hyperbolic functions, erf, sigmoid, relu,
clamp; floor, ceil, round, trunc, frac."""
import math

from ..backend import special
from .table import Elementwise, MaskedGradient, Op, call


class Abs(Elementwise):
    name = "abs"
    names = ("abs", "absolute")
    node = "AbsBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.abs(x)

    def backward(F, ctx, g, x):
        return (g * F.sign(x),)


class Sign(Elementwise):
    name = "sign"
    node = "SignBackward0"

    def forward(xp, x):
        return xp.sign(x)

    def backward(F, ctx, g):
        return (g * 0,)


class Exp(Elementwise):
    name = "exp"
    node = "ExpBackward0"
    saves = ("out",)

    def forward(xp, x):
        return xp.exp(x)

    def backward(F, ctx, g, out):
        return (g * out,)


class Log(Elementwise):
    name = "log"
    node = "LogBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.log(x)

    def backward(F, ctx, g, x):
        return (g / x,)


class Sqrt(Elementwise):
    name = "sqrt"
    node = "SqrtBackward0"
    saves = ("out",)

    def forward(xp, x):
        return xp.sqrt(x)

    def backward(F, ctx, g, out):
        return (g / (out * 2),)


class Rsqrt(Elementwise):
    """1 / sqrt(x), both steps rounded as PyTorch's kernel rounds them."""
    name = "rsqrt"
    node = "RsqrtBackward0"
    saves = ("out",)

    def forward(xp, x):
        return 1 / xp.sqrt(x)

    def backward(F, ctx, g, out):
        return ((g * -0.5) * (out * out * out),)  # PyTorch: -0.5 * grad * result.pow(3), its pow(3) two products


class Sin(Elementwise):
    name = "sin"
    node = "SinBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.sin(x)

    def backward(F, ctx, g, x):
        return (g * F.cos(x),)


class Cos(Elementwise):
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
    name = "tan"
    node = "TanBackward0"
    saves = ("out",)

    def forward(xp, x):
        return xp.tan(x)

    def backward(F, ctx, g, out):
        return (g * (out * out + 1),)


class Tanh(Elementwise):
    name = "tanh"
    node = "TanhBackward0"
    saves = ("out",)

    def forward(xp, x):
        return xp.tanh(x)

    def backward(F, ctx, g, out):
        return (g * (1 - out * out),)


class Sigmoid(Elementwise):
    name = "sigmoid"
    node = "SigmoidBackward0"
    saves = ("out",)

    def forward(xp, x):
        # split by sign so that exp never overflows
        e = xp.exp(-xp.abs(x))
        return xp.where(x >= 0, 1 / (1 + e), e / (1 + e))

    def backward(F, ctx, g, out):
        return (g * (out * (1 - out)),)


class Relu(Elementwise):
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
    name = "sinh"
    node = "SinhBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.sinh(x)

    def backward(F, ctx, g, x):
        return (g * F.cosh(x),)


class Cosh(Elementwise):
    name = "cosh"
    node = "CoshBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.cosh(x)

    def backward(F, ctx, g, x):
        return (g * F.sinh(x),)


class Log1p(Elementwise):
    name = "log1p"
    node = "Log1PBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.log1p(x)

    def backward(F, ctx, g, x):
        return (g / (x + 1),)


class Expm1(Elementwise):
    name = "expm1"
    node = "Expm1Backward0"
    saves = ("out",)

    def forward(xp, x):
        return xp.expm1(x)

    def backward(F, ctx, g, out):
        return (g * (out + 1),)


class Atan(Elementwise):
    name = "atan"
    names = ("atan", "arctan")
    node = "AtanBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.arctan(x)

    def backward(F, ctx, g, x):
        return (g / (x * x + 1),)


class Asin(Elementwise):
    name = "asin"
    names = ("asin", "arcsin")
    node = "AsinBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.arcsin(x)

    def backward(F, ctx, g, x):
        return (g / F.sqrt(1 - x * x),)


class Acos(Elementwise):
    name = "acos"
    names = ("acos", "arccos")
    node = "AcosBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.arccos(x)

    def backward(F, ctx, g, x):
        return (-g / F.sqrt(1 - x * x),)


class Erf(Elementwise):
    name = "erf"
    node = "ErfBackward0"
    saves = (0,)

    def forward(xp, x):
        return special(xp, "erf")(x)

    def backward(F, ctx, g, x):
        return (g * (2 / math.sqrt(math.pi)) * F.exp(-(x * x)),)


def _integral(x):
    return x.dtype.kind in "biu"


class Floor(Elementwise):
    name = "floor"
    node = "FloorBackward0"

    def forward(xp, x):
        return x.copy() if _integral(x) else xp.floor(x)

    def backward(F, ctx, g):
        return (g * 0,)


class Ceil(Elementwise):
    name = "ceil"
    node = "CeilBackward0"

    def forward(xp, x):
        return x.copy() if _integral(x) else xp.ceil(x)

    def backward(F, ctx, g):
        return (g * 0,)


class Trunc(Elementwise):
    name = "trunc"
    names = ("trunc", "fix")
    node = "TruncBackward0"

    def forward(xp, x):
        return x.copy() if _integral(x) else xp.trunc(x)

    def backward(F, ctx, g):
        return (g * 0,)


class Frac(Elementwise):
    """x - trunc(x): the derivative is 1."""
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
    names = ("round",)
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
        return (g * 0,)


class Clamp(Op):
    """clamp(x, min, max) with number bounds (either may be None)."""
    name = "clamp"
    names = ("clamp", "clip", "clamp_min", "clamp_max")
    method = inplace = True
    formula = call("min", "max")
    elementwise = True
    node = staticmethod(lambda ctx: ctx.params.get("name") or "ClampBackward1")
    saves = (0,)

    def forward(xp, x, min=None, max=None, name=None):
        return xp.clip(x, min, max)

    def backward(F, ctx, g, x, min=None, max=None, name=None):
        if min is not None and max is not None:
            return (g * ((x >= min) & (x <= max)),)
        if min is not None:
            return (g * (x >= min),)
        return (g * (x <= max),)
