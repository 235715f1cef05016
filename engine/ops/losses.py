"""The margin losses PyTorch computes with kernels of their own: soft_margin_loss (with its
backward as a row, SoftMarginLossBackwardBackward0, as PyTorch has one), multi_margin_loss and
multilabel_margin_loss. Their public functions are engine/nn/functional_losses.py's (the checks in
PyTorch's words), so `names` is empty.

multi_margin_loss and multilabel_margin_loss take the targets as constant arrays (a one-hot mask of
each sample's class, the count of each class among a sample's targets), not as inputs: PyTorch's
nodes have no edge for them either. Their backward is written in the table's ops, so a second
derivative exists (PyTorch raises "derivative for aten::multi_margin_loss_backward is not
implemented" there): zero with p 1, as the loss is piecewise linear, and p 2's curvature with p 2.
"""
from .table import Op
from .activation_gradients import raw as _raw
from .unary import Sigmoid


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _reduce(xp, loss, reduction):
    if reduction == "none":
        return loss
    total = xp.sum(loss)
    return total / loss.size if reduction == "mean" else total


class SoftMarginLoss(Op):
    """log(1 + exp(-target * input)), reduced; input and target have one shape (the function
    expands them)."""
    name = "soft_margin_loss"
    node = "SoftMarginLossBackward0"
    saves = (0, 1)

    def forward(xp, x, t, reduction="mean"):
        return _reduce(xp, xp.logaddexp(0, -t * x), reduction)

    def backward(F, ctx, g, x, t, reduction="mean"):
        return (F.soft_margin_loss_backward(g, x, t, reduction=reduction) if ctx.needs[0] else None), None


class SoftMarginLossBackward(Op):
    """soft_margin_loss's input gradient, PyTorch's soft_margin_loss_backward(g, x, t):
    -norm * t * sigmoid(-t x) * g, norm 1/n for 'mean' (else 1). At -t x = +inf it is the limit
    -norm * t * g; PyTorch's (exp(z) / (1 + exp(z))) is NaN there."""
    name = "soft_margin_loss_backward"
    node = "SoftMarginLossBackwardBackward0"
    saves = (0, 1, 2)

    def forward(xp, g, x, t, reduction="mean"):
        norm = 1.0 / x.size if reduction == "mean" else 1.0
        return -norm * t * Sigmoid.forward(xp, -t * x) * g

    def backward(F, ctx, gg, g, x, t, reduction="mean"):
        norm = 1.0 / _numel(ctx.shapes[1]) if reduction == "mean" else 1.0
        s = F.sigmoid(-t * x)
        g_grad = x_grad = None
        if ctx.needs[0]:
            g_grad = -norm * t * s * gg
            if reduction != "none":
                g_grad = F.sum(g_grad)
        if ctx.needs[1]:
            x_grad = norm * t * t * s * (1 - s) * g * gg
        return g_grad, x_grad, None


def _per_sample(F, g, reduction, n):
    """The loss's gradient as one number a sample, shaped (n, 1), or the one number of a reduced loss."""
    if reduction == "none":
        return F.reshape(g, shape=(n, 1))
    return g / n if reduction == "mean" else g


class MultiMarginLoss(Op):
    """sum over i != y of max(0, margin - x[y] + x[i]) ** p, times weight[y], over the number of
    classes, for each sample (y its target class); reduced over the samples. `onehot` marks each
    sample's class, `coef` is weight[y] / C; `rows` is (N, C), `out_shape` the unreduced result's."""
    name = "multi_margin_loss"
    node = "MultiMarginLossBackward0"
    saves = (0,)

    def forward(xp, x, onehot=None, coef=None, p=1, margin=1.0, rows=None, out_shape=None, reduction="mean"):
        x2 = x.reshape(rows)
        # x[y] picked out, not multiplied by the one-hot mask (inf * 0 would make it NaN); a hinge
        # counts where z > 0 only, so a NaN z adds nothing (PyTorch's kernel's rule)
        z = margin - xp.where(onehot, x2, 0).sum(1, keepdims=True) + x2
        hinge = xp.where(onehot | ~(z > 0), 0, z)
        loss = ((hinge if p == 1 else hinge * hinge).sum(1) * coef).astype(x.dtype, copy=False)
        return _reduce(xp, loss, reduction).reshape(out_shape) if reduction == "none" else _reduce(xp, loss, reduction)

    def backward(F, ctx, g, x, onehot=None, coef=None, p=1, margin=1.0, rows=None, out_shape=None, reduction="mean"):
        x2 = F.reshape(x, shape=rows)
        z = margin - F.sum(F.where(onehot, x2, 0.0), dim=1, keepdim=True) + x2
        active = (_raw(z) > 0) & ~onehot
        k = F.xp.where(active, coef[:, None], 0).astype(_raw(x).dtype)
        d = _per_sample(F, g, reduction, rows[0]) * k
        if p == 2:
            d = d * F.where(active, z, 0.0) * 2
        grad = d - F.sum(d, dim=1, keepdim=True) * onehot
        return (F.reshape(grad, shape=ctx.shapes[0]),)


class MultilabelMarginLoss(Op):
    """For each sample, the sum over its target classes j and its other classes i of max(0, 1 -
    (x[j] - x[i])), over the number of classes; reduced over the samples. `count` holds how often
    each class is among a sample's targets (the targets before the first -1); `rows` is (N, C)."""
    name = "multilabel_margin_loss"
    node = "MultilabelMarginLossBackward0"
    saves = (0,)

    def forward(xp, x, count=None, rows=None, out_shape=None, reduction="mean"):
        x2 = x.reshape(rows)
        weight = count[:, :, None] * (count == 0)[:, None, :]  # (N, target j, other i)
        z = 1 - x2[:, :, None] + x2[:, None, :]
        # a pair counts where z > 0 only (a NaN z adds nothing: PyTorch's kernel's rule), and only a
        # weighted pair (an infinite z of an unweighted one would make inf * 0 = NaN)
        pairs = xp.where((z > 0) & (weight > 0), z, 0) * weight
        loss = (pairs.sum((1, 2)) / rows[1]).astype(x.dtype, copy=False)
        return _reduce(xp, loss, reduction).reshape(out_shape) if reduction == "none" else _reduce(xp, loss, reduction)

    def backward(F, ctx, g, x, count=None, rows=None, out_shape=None, reduction="mean"):
        x2 = _raw(x).reshape(rows)
        weight = count[:, :, None] * (count == 0)[:, None, :]
        active = F.xp.where(1 - x2[:, :, None] + x2[:, None, :] > 0, weight, 0) / rows[1]
        # d/dx[i] gains the weight of each active pair (j, i); d/dx[j] loses it
        k = (active.sum(1) - active.sum(2)).astype(x2.dtype)
        grad = _per_sample(F, g, reduction, rows[0]) * k
        return (F.reshape(grad, shape=ctx.shapes[0]),)
