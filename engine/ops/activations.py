"""torch.nn.functional's activations and losses: softplus, gelu, silu, leaky_relu, hardtanh (and
relu6), elu (with selu and celu), logsigmoid, mish, hardswish, hardsigmoid, threshold, prelu, glu;
mse_loss, smooth_l1_loss (and huber), binary_cross_entropy (and with logits), nll_loss; and the
scalar multiply/divide that PyTorch's C++ decompositions record (MulBackward1, DivBackward1).

These rows have no `torch.NAME` of their own (PyTorch has none): their public functions are
the hand-written ones of `engine/nn/functional.py` (argument checks in PyTorch's words, then
the row), so `names` is empty. Each backward is written in the table's ops, so second
derivatives come from the same formulas.

The losses take ``reduction`` ('none', 'sum' or 'mean') as a parameter. Weights that PyTorch
does not differentiate (the ``weight`` of binary_cross_entropy, ``weight`` and ``pos_weight``
of the logits form, nll_loss's class weights and targets) are parameters holding arrays, not
inputs: PyTorch's nodes have no edge for them either.
"""
import math

import numpy

from .. import kernels
from .activation_gradients import M_SQRT1_2, TANH_BETA, TANH_KAPPA, raw as _raw
from .table import MaskedGradient, Op, batch_dim, custom
from .unary import Clamp, Sigmoid

_BCE_EPS = 1e-12   # PyTorch's EPSILON in binary_cross_entropy_backward


def _reduce(xp, loss, reduction):
    if reduction == "none":
        return loss
    total = xp.sum(loss)
    return total / loss.size if reduction == "mean" else total


def _loss_g(F, ctx, g, reduction):
    """A batch of gradients of a reduced loss, (B,), as (B, 1, ...): the loss formulas then
    broadcast them to one gradient per batch element (an unreduced loss's is that already)."""
    nd = len(ctx.shapes[0])
    if reduction != "none" and nd:
        return F.reshape(g, shape=(g.shape[0],) + (1,) * nd)
    return g


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _weighted_mean(F, ctx, grad, weight, reduction):
    """A loss's input gradient as PyTorch finishes it: times the weight, then over n for 'mean'."""
    if weight is not None:
        grad = grad * weight
    if reduction == "mean":
        return grad / _numel(ctx.shapes[0])
    return grad


class _Activation(Op):
    elementwise = True


class Softplus(_Activation):
    """log(1 + exp(beta x)) / beta; x itself where beta x > threshold."""
    name = "softplus"
    node = "SoftplusBackward0"
    saves = (0,)

    def forward(xp, x, beta=1.0, threshold=20.0):
        z = x * beta
        return xp.where(z > threshold, x, xp.logaddexp(0, z) / beta)

    def backward(F, ctx, g, x, beta=1.0, threshold=20.0):
        return (F.softplus_backward(g, x, beta=beta, threshold=threshold),)


class Gelu(_Activation):
    """x Phi(x) ('none'), or PyTorch's tanh approximation ('tanh')."""
    name = "gelu"
    node = "GeluBackward0"
    saves = (0,)

    def forward(xp, x, approximate="none"):
        if approximate == "tanh":
            inner = (x + x * x * x * TANH_KAPPA) * TANH_BETA
            return 0.5 * x * (1 + xp.tanh(inner))
        return x * 0.5 * (1 + kernels.erf(xp, x * M_SQRT1_2))

    def backward(F, ctx, g, x, approximate="none"):
        return (F.gelu_backward(g, x, approximate=approximate),)


class Silu(_Activation):
    """x sigmoid(x)."""
    name = "silu"
    node = "SiluBackward0"  # in place too, as PyTorch's silu_
    saves = (0,)

    def forward(xp, x, inplace=False):
        with _errstate(xp):  # PyTorch's kernel, x / (1 + exp(-x)): exp(-x) overflows to inf below -709
            return x / (1 + xp.exp(-x))

    def backward(F, ctx, g, x, inplace=False):
        s = F.sigmoid(x)  # PyTorch's infinitely_differentiable_silu_backward
        return (g * s * (1 + x * (1 - s)),)


class LeakyRelu(_Activation):
    """x where x > 0, negative_slope * x elsewhere."""
    name = "leaky_relu"
    node = staticmethod(lambda ctx: "LeakyReluBackward1" if ctx.params.get("inplace") else "LeakyReluBackward0")
    saves = (0,)

    def forward(xp, x, negative_slope=0.01, inplace=False):
        return xp.where(x > 0, x, x * negative_slope)

    def backward(F, ctx, g, x, negative_slope=0.01, inplace=False):
        return (F.leaky_relu_backward(g, x, negative_slope=negative_slope),)


class LeakyReluBackward(MaskedGradient):
    """leaky_relu's gradient: g where x > 0, negative_slope * g elsewhere."""
    name = "leaky_relu_backward"
    node = "LeakyReluBackwardBackward0"

    def forward(xp, g, x, negative_slope=0.01):
        return xp.where(x > 0, g, g * negative_slope)


class Hardtanh(_Activation):
    """x clamped to [min_val, max_val] (relu6 is hardtanh(x, 0, 6))."""
    name = "hardtanh"
    node = "HardtanhBackward0"  # in place too, as PyTorch's hardtanh_
    saves = (0,)

    def forward(xp, x, min_val=-1.0, max_val=1.0, inplace=False):
        out = Clamp.forward(xp, x, min_val, max_val)
        return out if out.dtype == x.dtype else out.astype(x.dtype)  # an integer tensor stays integer

    def backward(F, ctx, g, x, min_val=-1.0, max_val=1.0, inplace=False):
        return (F.hardtanh_backward(g, x, min_val=min_val, max_val=max_val),)


class HardtanhBackward(MaskedGradient):
    """hardtanh's gradient: 0 where x <= min_val or x >= max_val, g elsewhere (NaN included)."""
    name = "hardtanh_backward"
    node = "HardtanhBackwardBackward0"

    def forward(xp, g, x, min_val=-1.0, max_val=1.0):
        return xp.where((x <= min_val) | (x >= max_val), 0, g)


class Elu(_Activation):
    """scale * x where x > 0, scale * alpha * (exp(input_scale * x) - 1) elsewhere: elu, selu
    (PyTorch's constants) and celu (input_scale 1/alpha) are all this row, as in PyTorch."""
    name = "elu"
    saves = (0,)

    @staticmethod
    def node(ctx):
        p = ctx.params
        if p.get("celu"):
            return "CeluBackward1" if p.get("inplace") else "CeluBackward0"
        return "EluBackward1" if p.get("inplace") else "EluBackward0"

    def forward(xp, x, alpha=1.0, scale=1.0, input_scale=1.0, celu=False, inplace=False):
        # PyTorch's kernel: expm1(x * input_scale) * (alpha * scale), the product in x's dtype
        negcoef = x.dtype.type(alpha) * x.dtype.type(scale)
        neg = xp.expm1(xp.minimum(x, 0) * input_scale) * negcoef
        return xp.where(x > 0, x * scale, neg)

    def backward(F, ctx, g, x, alpha=1.0, scale=1.0, input_scale=1.0, celu=False, inplace=False):
        if celu:  # derivatives.yaml's celu: input_scale 1 / alpha with alpha rounded to float32
            input_scale = 1.0 / float(numpy.float32(alpha))
        return (F.elu_backward(g, x, alpha=alpha, scale=scale, input_scale=input_scale),)


class LogSigmoid(_Activation):
    """log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|))."""
    name = "log_sigmoid"
    node = "LogSigmoidBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.minimum(x, 0) - xp.log1p(xp.exp(-xp.abs(x)))

    def backward(F, ctx, g, x):
        return (F.log_sigmoid_backward(g, x),)



class Mish(_Activation):
    """x tanh(softplus(x))."""
    name = "mish"
    node = "MishBackward0"  # in place too, as PyTorch's mish_
    saves = (0,)

    def forward(xp, x, inplace=False):
        # tanh(log1p(exp(x))) is 1 from x = 20 on (float32 long before): exp need not overflow there
        return x * xp.tanh(xp.log1p(xp.exp(xp.minimum(x, 20.0))))

    def backward(F, ctx, g, x, inplace=False):
        s = F.sigmoid(x)  # PyTorch's infinitely_differentiable_mish_backward
        t = F.tanh(F.softplus(x))
        return (g * (t + x * s * (1 - t * t)),)


class Hardswish(_Activation):
    """x (x + 3) / 6 between -3 and 3, 0 below, x above: x * min(max(x + 3, 0), 6) / 6."""
    name = "hardswish"
    node = "HardswishBackward0"  # in place too, as PyTorch's hardswish_
    saves = (0,)

    def forward(xp, x, inplace=False):
        return x * xp.minimum(xp.maximum(x + 3.0, 0.0), 6.0) / 6.0

    def backward(F, ctx, g, x, inplace=False):
        return (F.hardswish_backward(g, x),)


class HardswishBackward(Op):
    """hardswish's gradient, PyTorch's hardswish_backward(g, x): 0 up to -3 (included), g (x / 3 + 1/2)
    below 3, g from 3 on; a row of its own so that it depends on x under create_graph (its own
    derivative is g / 3 strictly between -3 and 3)."""
    name = "hardswish_backward"
    node = "HardswishBackwardBackward0"
    elementwise = True
    saves = (0, 1)
    save_for = ((1,), (0, 1))

    def forward(xp, g, x):
        return xp.where(x <= -3.0, 0.0, xp.where(x < 3.0, g * (x / 3.0 + 0.5), g))

    def backward(F, ctx, gg, g, x):
        raw = _raw(x)
        return (F.hardswish_backward(gg, x) if ctx.needs[0] else None,
                F.where((raw > -3.0) & (raw < 3.0), gg * g / 3.0, 0.0) if ctx.needs[1] else None)


class Hardsigmoid(_Activation):
    """x / 6 + 1/2 between -3 and 3, 0 below, 1 above: min(max(x + 3, 0), 6) / 6."""
    name = "hardsigmoid"
    node = "HardsigmoidBackward0"  # in place too, as PyTorch's hardsigmoid_
    saves = (0,)

    def forward(xp, x, inplace=False):
        return xp.minimum(xp.maximum(x + 3.0, 0.0), 6.0) / 6.0

    def backward(F, ctx, g, x, inplace=False):
        return (F.hardsigmoid_backward(g, x),)


class HardsigmoidBackward(MaskedGradient):
    """hardsigmoid's gradient: g / 6 strictly between -3 and 3, 0 elsewhere."""
    name = "hardsigmoid_backward"
    node = "HardsigmoidBackwardBackward0"

    def forward(xp, g, x):
        return xp.where((x > -3.0) & (x < 3.0), g / 6.0, 0.0)


class Threshold(_Activation):
    """value where x <= threshold, x elsewhere (NaN stays); an integer tensor stays integer."""
    name = "threshold"
    node = staticmethod(lambda ctx: "ThresholdBackward1" if ctx.params.get("inplace") else "ThresholdBackward0")
    saves = (0,)

    def forward(xp, x, threshold=0.0, value=0.0, inplace=False):
        out = xp.where(x <= threshold, value, x)
        return out if out.dtype == x.dtype else out.astype(x.dtype)

    def backward(F, ctx, g, x, threshold=0.0, value=0.0, inplace=False):
        return (F.threshold_backward(g, x, threshold=threshold),)


class Prelu(Op):
    """x where x > 0, weight * x elsewhere, the weight broadcast against x (F.prelu views it so):
    PyTorch's _prelu_kernel. The weight's gradient is summed back to its shape by the core."""
    name = "prelu"
    node = "PreluKernelBackward0"
    elementwise = True
    saves = (0, 1)
    save_for = ((0, 1), (0,))

    def forward(xp, x, weight):
        return xp.where(x > 0, x, weight * x)

    def backward(F, ctx, g, x, weight):
        # PyTorch's _prelu_kernel_backward: (x > 0 ? g : weight g, x > 0 ? 0 : x g)
        positive = _raw(x) > 0
        return (F.where(positive, g, weight * g) if ctx.needs[0] else None,
                F.where(positive, 0.0, x * g) if ctx.needs[1] else None)


class Glu(Op):
    """a sigmoid(b), a and b the two halves of x along dim: PyTorch's kernel, a times sigmoid's own
    1 / (1 + exp(-b))."""
    name = "glu"
    node = "GluBackward0"
    saves = (0,)

    def forward(xp, x, dim):
        a, b = xp.split(x, 2, axis=dim)
        return a * Sigmoid.forward(xp, b)

    def backward(F, ctx, g, x, dim):
        # PyTorch's glu_backward: s g for a, (1 - s) s a g for b, s = sigmoid(b)
        half = ctx.shapes[0][dim] // 2
        lead = (slice(None),) * dim
        a = F.getitem(x, key=lead + (slice(0, half),))
        s = F.sigmoid(F.getitem(x, key=lead + (slice(half, None),)))
        return (F.cat(s * g, (1 - s) * s * a * g, dim=dim),)

# ------------------------------------------------------------------------------ losses

class MseLoss(Op):
    """(input - target)**2, reduced; input and target have one shape (the function expands them)."""
    name = "mse_loss"
    node = "MseLossBackward0"
    saves = (0, 1)

    def forward(xp, x, t, reduction="mean"):
        d = x - t
        return _reduce(xp, d * d, reduction)

    def backward(F, ctx, g, x, t, reduction="mean"):
        # PyTorch's: the target's gradient is the same function with x and t swapped
        return (F.mse_loss_backward(g, x, t, reduction=reduction) if ctx.needs[0] else None,
                F.mse_loss_backward(g, t, x, reduction=reduction) if ctx.needs[1] else None)

    def batched_backward(F, ctx, g, x, t, reduction="mean"):
        return MseLoss.backward(F, ctx, _loss_g(F, ctx, g, reduction), x, t, reduction)


def mse_norm(shape, reduction):
    """PyTorch's factor in mse_loss_backward: 2, over the number of elements for 'mean'."""
    if reduction != "mean":
        return 2.0
    n = _numel(shape)
    return 2.0 / n if n else math.inf


class MseLossBackward(Op):
    """mse_loss's gradient, PyTorch's mse_loss_backward(g, x, t): norm * (x - t) * g, in that
    order (so the values are PyTorch's to the bit), norm as `mse_norm`."""
    name = "mse_loss_backward"
    node = "MseLossBackwardBackward0"
    formula = custom("mse_gradient")
    saves = (0, 1, 2)
    save_for = ((1, 2), (0,), (0,))

    def forward(xp, g, x, t, reduction="mean"):
        return mse_norm(x.shape, reduction) * (x - t) * g

    def backward(F, ctx, gg, g, x, t, reduction="mean"):
        g_grad = x_grad = t_grad = None
        if ctx.needs[0]:
            g_grad = mse_norm(ctx.shapes[1], reduction) * (x - t) * gg
            if reduction != "none":
                g_grad = F.sum(g_grad)
        if ctx.needs[1] or ctx.needs[2]:
            # PyTorch's mse_loss_double_backward: 2 * (gg * g), over the number of elements for 'mean'
            x_grad = 2 * (gg * g)
            if reduction == "mean":
                x_grad = x_grad / _numel(ctx.shapes[1])
            t_grad = -x_grad if ctx.needs[2] else None
        return g_grad, x_grad if ctx.needs[1] else None, t_grad


class SmoothL1Loss(Op):
    """0.5 d**2 / beta where |d| < beta, else |d| - 0.5 beta (d = input - target), reduced.
    huber=True: 0.5 d**2, else delta (|d| - 0.5 delta), with
    beta standing for delta (HuberLossBackward0)."""
    name = "smooth_l1_loss"
    node = staticmethod(lambda ctx: "HuberLossBackward0" if ctx.params.get("huber") else "SmoothL1LossBackward0")
    saves = (0, 1)

    def forward(xp, x, t, reduction="mean", beta=1.0, huber=False):
        z = xp.abs(x - t)
        if huber:
            loss = xp.where(z < beta, 0.5 * z * z, beta * (z - 0.5 * beta))
        else:
            loss = xp.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta)
        return _reduce(xp, loss, reduction)

    def backward(F, ctx, g, x, t, reduction="mean", beta=1.0, huber=False):
        # PyTorch's smooth_l1/huber_loss_backward: norm * g (times delta) with d's sign outside the
        # band, norm * d * g (/ beta) inside; the target's is the same with x and t swapped: its negation
        norm = 1.0 / _numel(ctx.shapes[0]) if reduction == "mean" else 1.0
        d = x - t
        raw = _raw(d)
        if huber:
            outside, inside = norm * beta * g, norm * d * g
            below = -norm * beta * g
        else:
            outside, inside = norm * g, norm * d * g / beta
            below = -norm * g
        gx = F.where(raw <= -beta, below, F.where(raw >= beta, outside, inside))
        return (gx if ctx.needs[0] else None), (-gx if ctx.needs[1] else None)

    def batched_backward(F, ctx, g, x, t, reduction="mean", beta=1.0, huber=False):
        return SmoothL1Loss.backward(F, ctx, _loss_g(F, ctx, g, reduction), x, t, reduction, beta, huber)


class BinaryCrossEntropy(Op):
    """-weight * (t log x + (1 - t) log(1 - x)), each log clamped at -100 as PyTorch does."""
    name = "binary_cross_entropy"
    node = "BinaryCrossEntropyBackward0"
    saves = (0, 1)

    def forward(xp, x, t, weight=None, reduction="mean"):
        loss = -(t * xp.maximum(xp.log(x), -100.0) + (1 - t) * xp.maximum(xp.log1p(-x), -100.0))
        if weight is not None:
            loss = loss * weight
        return _reduce(xp, loss, reduction)

    def backward(F, ctx, g, x, t, weight=None, reduction="mean"):
        # PyTorch's formulas: g (x - t) / max((1 - x) x, eps) for the input, -logit(x) g for the
        # target, each times the weight, over n for 'mean'
        gx = _weighted_mean(F, ctx, g * (x - t) / F.clamp((1 - x) * x, min=_BCE_EPS), weight, reduction) \
            if ctx.needs[0] else None
        gt = _weighted_mean(F, ctx, -F.log(x / (1 - x)) * g, weight, reduction) if ctx.needs[1] else None
        return gx, gt

    def batched_backward(F, ctx, g, x, t, weight=None, reduction="mean"):
        return BinaryCrossEntropy.backward(F, ctx, _loss_g(F, ctx, g, reduction), x, t, weight, reduction)


class BinaryCrossEntropyWithLogits(Op):
    """(1 - t) x - (1 + (pos_weight - 1) t) log sigmoid(x), times weight: PyTorch's form."""
    name = "binary_cross_entropy_with_logits"
    node = "BinaryCrossEntropyWithLogitsBackward0"
    saves = (0, 1)

    def forward(xp, x, t, weight=None, pos_weight=None, reduction="mean"):
        log_sig = xp.minimum(x, 0) - xp.log1p(xp.exp(-xp.abs(x)))
        if pos_weight is not None:
            log_sig = log_sig * ((pos_weight - 1) * t + 1)
        loss = (1 - t) * x - log_sig
        if weight is not None:
            loss = loss * weight
        return _reduce(xp, loss, reduction)

    def backward(F, ctx, g, x, t, weight=None, pos_weight=None, reduction="mean"):
        # PyTorch's formulas: the slope times g, times the weight, over n for 'mean'
        gx = gt = None
        if ctx.needs[0]:
            if pos_weight is None:
                gx = (F.sigmoid(x) - t) * g
            else:
                pt = pos_weight * t
                gx = ((pt + 1 - t) * F.sigmoid(x) - pt) * g
            gx = _weighted_mean(F, ctx, gx, weight, reduction)
        if ctx.needs[1]:
            if pos_weight is None:
                gt = -x * g
            else:
                gt = (F.log_sigmoid(-x) - F.log_sigmoid(x) * pos_weight) * g
            gt = _weighted_mean(F, ctx, gt, weight, reduction)
        return gx, gt

    def batched_backward(F, ctx, g, x, t, weight=None, pos_weight=None, reduction="mean"):
        return BinaryCrossEntropyWithLogits.backward(F, ctx, _loss_g(F, ctx, g, reduction), x, t, weight,
                                                     pos_weight, reduction)


class NllLoss(Op):
    """-weight[t] * x[..., t, ...] along the class dim `dim`, reduced: the sum over the total
    weight of the targets for 'mean'. `index` holds the targets (ignored ones as class 0) and
    `coef` -weight[t] (0 where ignored), both arrays of the target's shape."""
    name = "nll_loss"
    # PyTorch's nll_loss2d for inputs of 4 dims (the function views 3 or 5+ dims as 4)
    node = staticmethod(lambda ctx: "NllLoss2DBackward0" if len(ctx.shapes[0]) == 4 else "NllLossBackward0")
    saves_params = True

    def forward(xp, x, index, coef, dim, total=1.0, reduction="mean"):
        loss = _picked(xp, x, index, dim) * coef
        if reduction == "none":
            return loss
        s = xp.sum(loss)
        if reduction == "sum":
            return s
        with _errstate(xp):
            return s / total

    def backward(F, ctx, g, index, coef, dim, total=1.0, reduction="mean"):
        if reduction == "mean":
            g = g / total if total else g * 0.0
        gi = F.unsqueeze(g * coef, dim=dim)  # the target's shape (g is 0-d after a reduction)
        return (F.put_along(gi, indices=_expand_index(index, dim), dim=dim, shape=ctx.shapes[0]),)

    def batched_backward(F, ctx, g, index, coef, dim, total=1.0, reduction="mean"):
        if reduction == "mean":
            g = g / total if total else g * 0.0
        b = g.shape[0]
        if reduction != "none" and coef.ndim:
            g = F.reshape(g, shape=(b,) + (1,) * coef.ndim)  # one weight per batch element
        d = batch_dim(dim, len(ctx.shapes[0]))
        gi = F.unsqueeze(g * coef, dim=d)
        where = _expand_index(index, dim)
        return (F.put_along(gi, indices=F.xp.broadcast_to(where, (b,) + where.shape), dim=d,
                            shape=(b,) + tuple(ctx.shapes[0])),)


def _picked(xp, x, index, dim):
    """x's entries at `index` along `dim` (numpy's take_along_axis, squeezed); a batch of class
    scores, the commonest, by one fancy index (take_along_axis builds its index in Python)."""
    if x.ndim == 2 and dim == 1:
        return x[xp.arange(x.shape[0]), index]
    return xp.squeeze(xp.take_along_axis(x, xp.expand_dims(index, dim), axis=dim), axis=dim)


def _expand_index(index, dim):
    return index.reshape(index.shape[:dim] + (1,) + index.shape[dim:])


class _errstate:
    """numpy's errstate (0/0 is PyTorch's NaN, an overflow its inf, silently); nothing on other array
    modules."""

    def __init__(self, xp):
        self.inner = xp.errstate(invalid="ignore", divide="ignore", over="ignore") if hasattr(xp, "errstate") else None

    def __enter__(self):
        if self.inner is not None:
            self.inner.__enter__()

    def __exit__(self, *exc):
        if self.inner is not None:
            return self.inner.__exit__(*exc)


class ScalarArith(Op):
    """x * c or x / c with a number c, as PyTorch's C++ decompositions record them (mul and div
    with a Scalar: MulBackward1, DivBackward1); Python's `x * 2` is MulBackward0."""
    name = "scalar_arith"
    elementwise = True
    node = staticmethod(lambda ctx: "DivBackward1" if ctx.params.get("divide") else "MulBackward1")

    def forward(xp, x, value, divide=False):
        return x / value if divide else x * value

    def backward(F, ctx, g, value, divide=False):
        return (F.scalar_arith(g, value=value, divide=divide),)


class Alias(Op):
    """The same values as a view of the input (AliasBackward0): what the legacy constructor
    torch.Tensor(t) returns for a tensor t."""
    batched = True
    name = "alias"
    jvp = "linear"  # forward mode: the row applied to the tangents
    node = "AliasBackward0"
    is_view = True

    def forward(xp, x):
        return x.view()

    def backward(F, ctx, g):
        return (g,)
