"""The gradients of softplus, gelu, elu (selu, celu) and logsigmoid as rows of their own, as
PyTorch has them: softplus_backward, gelu_backward, elu_backward, log_sigmoid_backward.

Why rows: a first derivative recorded under create_graph is one node, as in PyTorch, and its
own backward is the double-backward formula of PyTorch's derivatives.yaml, so second
derivatives and their nodes (SoftplusBackwardBackward0 ...) are PyTorch's; without a graph the
gradient is one array expression instead of a chain of table ops.

The forwards see the gradient `g` and the activation's input `x`; numpy's warnings for an
overflowing exp are off during a backward (the branch that overflows is the one not taken).
"""
from .. import kernels
from .table import Op, custom

# the constants of the formulas, as C's math.h spells them
M_SQRT1_2 = 0.7071067811865476
M_2_SQRTPI = 1.1283791670955126
M_SQRT2 = 1.4142135623730951
GELU_PDF = M_2_SQRTPI * M_SQRT1_2 * 0.5    # 1/sqrt(2 pi), gelu_backward's kBeta
TANH_BETA = M_SQRT2 * M_2_SQRTPI * 0.5     # sqrt(2/pi), the tanh approximation's kBeta
TANH_KAPPA = 0.044715


def _mask(cond, like):
    """PyTorch's `cond.type_as(grad)`: 1 and 0 in like's dtype, multiplied in (so -0 and NaN
    pass as a product does)."""
    return cond.astype(like.dtype)


def raw(t):
    """The array behind a saved value: the tensor's under create_graph, else itself."""
    return getattr(t, "array", t)


class _Gradient(Op):
    elementwise = True
    saves = (0, 1)
    formula = custom("activation_gradient")


class SoftplusBackward(_Gradient):
    """softplus's gradient: g where beta x > threshold, else g * z / (z + 1) with z = exp(beta x)."""
    name = "softplus_backward"
    node = "SoftplusBackwardBackward0"

    def forward(xp, g, x, beta=1.0, threshold=20.0):
        z = x * beta
        e = xp.exp(z)
        return xp.where(z > threshold, g, g * e / (e + 1))

    def backward(F, ctx, gg, g, x, beta=1.0, threshold=20.0):
        dg = F.softplus_backward(gg, x, beta=beta, threshold=threshold) if ctx.needs[0] else None
        dx = None
        if ctx.needs[1]:  # softplus_double_backward(gg * g, x): sigmoid's slope below the threshold
            z = x * beta
            dx = F.sigmoid_backward(gg * g, F.sigmoid(z)) * _mask(raw(z) < threshold, raw(z)) * beta
        return dg, dx


class GeluBackward(_Gradient):
    """gelu's gradient: g * (cdf + x * pdf), or the tanh approximation's."""
    name = "gelu_backward"
    node = "GeluBackwardBackward0"

    def forward(xp, g, x, approximate="none"):
        if approximate == "tanh":
            x_sq = x * x
            t = xp.tanh((x + x_sq * x * TANH_KAPPA) * TANH_BETA)
            inner_derivative = (x_sq * (3 * TANH_KAPPA) + 1) * TANH_BETA
            return g * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * inner_derivative)
        cdf = 0.5 * (1 + kernels.erf(xp, x * M_SQRT1_2))
        pdf = GELU_PDF * xp.exp(x * x * -0.5)
        return g * (cdf + x * pdf)

    def backward(F, ctx, gg, g, x, approximate="none"):
        dg = F.gelu_backward(gg, x, approximate=approximate) if ctx.needs[0] else None
        dx = None
        if ctx.needs[1]:  # PyTorch's gelu_double_backward
            if approximate == "tanh":
                # gelu = x/2 (1 + t), t = tanh(u), u = beta (x + kappa x^3): the second derivative
                # is (1 - t^2) (u' + x/2 (u'' - 2 t u'^2))
                x_sq = x * x
                t = F.tanh((x + x_sq * x * TANH_KAPPA) * TANH_BETA)
                du = (x_sq * (3 * TANH_KAPPA) + 1) * TANH_BETA
                ddu = x * (6 * TANH_KAPPA * TANH_BETA)
                dx = gg * g * ((1 - t * t) * (du + x * 0.5 * (ddu - t * 2 * du * du)))
            else:
                x_sq = x * x
                pdf = F.exp(x_sq * -0.5) * GELU_PDF
                dx = gg * g * (pdf * 2 - x_sq * pdf)
        return dg, dx


class EluBackward(_Gradient):
    """elu's gradient from its input: ((g * input_scale) * alpha * scale) * exp(x * input_scale)
    where x <= 0, g * scale elsewhere."""
    name = "elu_backward"
    node = "EluBackwardBackward0"

    def forward(xp, g, x, alpha=1.0, scale=1.0, input_scale=1.0):
        dtype = xp.result_type(g, x)
        negcoef = dtype.type(alpha) * dtype.type(scale)
        return xp.where(x > 0, g * scale, g * input_scale * negcoef * xp.exp(xp.minimum(x, 0) * input_scale))

    def backward(F, ctx, gg, g, x, alpha=1.0, scale=1.0, input_scale=1.0):
        p = dict(alpha=alpha, scale=scale, input_scale=input_scale)
        dg = F.elu_backward(gg, x, **p) if ctx.needs[0] else None
        dx = None
        if ctx.needs[1]:  # elu_double_backward: elu_backward(gg * g * input_scale, x) where x < 0
            dx = F.elu_backward(gg * g * input_scale, x, **p) * _mask(raw(x) < 0, raw(x))
        return dg, dx


class LogSigmoidBackward(_Gradient):
    """logsigmoid's gradient from the kernel's buffer b = exp(-|x|): g * (1 - b/(1 + b)) where
    x < 0, g * b/(1 + b) elsewhere."""
    name = "log_sigmoid_backward"
    node = "LogSigmoidBackwardBackward0"

    def forward(xp, g, x):
        b = xp.exp(-xp.abs(x))
        q = b / (1 + b)
        return xp.where(x < 0, 1 - q, q) * g

    def backward(F, ctx, gg, g, x):
        dg = F.log_sigmoid_backward(gg, x) if ctx.needs[0] else None
        dx = None
        if ctx.needs[1]:  # log_sigmoid_double_backward(gg * g, x)
            z = F.sigmoid(x)
            dx = gg * g * (z - 1) * z
        return dg, dx
