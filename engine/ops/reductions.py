"""Reductions: sum, mean, prod, max/min (whole tensor or along a dim), amax/amin, norm, logsumexp, softmax."""
import math

from .table import Op, _keepdim_shape, _reduced_count, _unreduce, call, custom, scatter_add


def _reduction_name(base):
    """PyTorch's names: ...Backward0 for a whole-tensor reduction, ...Backward1 with dim or keepdim."""
    return staticmethod(lambda ctx: f"{base}Backward0" if ctx.params.get("dim") is None
                        and not ctx.params.get("keepdim") else f"{base}Backward1")


class Sum(Op):
    name = "sum"
    names = ("sum",)
    method = True
    formula = custom("reduction")
    node = _reduction_name("Sum")

    def forward(xp, x, dim=None, keepdim=False):
        return xp.sum(x, axis=dim, keepdims=keepdim)

    def backward(F, ctx, g, dim=None, keepdim=False):
        return (F.expand(_unreduce(F, ctx, g, dim, keepdim), shape=ctx.shapes[0]),)


class Mean(Op):
    name = "mean"
    names = ("mean",)
    method = True
    formula = custom("reduction")
    node = _reduction_name("Mean")

    def forward(xp, x, dim=None, keepdim=False):
        return xp.mean(x, axis=dim, keepdims=keepdim)

    def backward(F, ctx, g, dim=None, keepdim=False):
        n = _reduced_count(ctx.shapes[0], dim)
        return (F.expand(_unreduce(F, ctx, g, dim, keepdim) / n, shape=ctx.shapes[0]),)


class SumTo(Op):
    """Sum a broadcast gradient back to a shape: the one place broadcasting is undone."""
    name = "sum_to"
    formula = custom("sum_to")
    node = "SumToBackward0"

    def forward(xp, x, shape):
        return sum_to_array(x, shape)

    def backward(F, ctx, g, shape):
        return (F.expand(g, shape=ctx.shapes[0]),)


def sum_to_array(x, shape):
    """Sum the leading and the stretched axes of array `x` so it has `shape`."""
    if x.shape == shape:
        return x
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape)
                                      if s == 1 and x.shape[i + lead] != 1)
    if axes:
        x = x.sum(axis=axes, keepdims=True)
    return x.reshape(shape) if lead else x


class Prod(Op):
    name = "prod"
    names = ("prod",)
    method = True
    formula = custom("reduction")
    node = staticmethod(lambda ctx: "ProdBackward0" if ctx.params.get("dim") is None else "ProdBackward1")
    saves = (0,)

    def forward(xp, x, dim=None, keepdim=False):
        return xp.prod(x, axis=dim, keepdims=keepdim)

    def backward(F, ctx, g, x, dim=None, keepdim=False):
        g = _unreduce(F, ctx, g, dim, keepdim)
        return (g * F.prod_others(x, dim=dim),)


class ProdOthers(Op):
    """For each element, the product of the others along `dim` (all, if None).

    The derivative of `prod`; computed with exclusive cumulative products so
    zeros are exact, and itself differentiable for higher orders."""
    name = "prod_others"
    node = "ProdBackward1"
    saves = (0,)

    def forward(xp, x, dim=None):
        if dim is None:
            return ProdOthers.forward(xp, x.reshape(-1), 0).reshape(x.shape)
        x = xp.moveaxis(x, dim, -1)
        ones = xp.ones(x.shape[:-1] + (1,), dtype=x.dtype)
        before = xp.cumprod(xp.concatenate([ones, x[..., :-1]], axis=-1), axis=-1)
        after = xp.flip(xp.cumprod(xp.concatenate([ones, xp.flip(x, -1)[..., :-1]], axis=-1), axis=-1), -1)
        return xp.moveaxis(before * after, -1, dim)

    def backward(F, ctx, g, x, dim=None):
        # d others_i / d x_j = product of all but i and j (i != j), 0 on i == j:
        # the others-products of the rows of a matrix whose row i has x_i set to 1.
        shape = ctx.shapes[0]
        if dim is None:
            flat = F.reshape(x, shape=(-1,))
            gf = F.reshape(g, shape=(-1,))
            return (F.reshape(ProdOthers._backward_last(F, gf, flat), shape=shape),)
        nd = len(shape)
        dim = dim % nd
        xl = F.transpose(x, dim0=dim, dim1=nd - 1)
        gl = F.transpose(g, dim0=dim, dim1=nd - 1)
        return (F.transpose(ProdOthers._backward_last(F, gl, xl), dim0=dim, dim1=nd - 1),)

    @staticmethod
    def _backward_last(F, g, x):
        n = x.shape[-1]
        eye = F.eye_mask(n)
        rows = F.where(eye, 1.0, F.unsqueeze(x, dim=-2))       # (..., n, n)
        pairs = F.where(eye, 0.0, F.prod_others(rows, dim=-1))  # (..., i, j)
        return F.sum(F.unsqueeze(g, dim=-1) * pairs, dim=-2)


class Amax(Op):
    """amax(x, dim): the largest values; tied elements share the gradient evenly."""
    name = "amax"
    names = ("amax",)
    method = True
    formula = custom("reduction")
    node = "AmaxBackward0"
    saves = (0, "out")

    def forward(xp, x, dim=None, keepdim=False):
        return xp.max(x, axis=dim, keepdims=keepdim)

    def backward(F, ctx, g, x, out, dim=None, keepdim=False):
        return (_share_among_ties(F, ctx, g, x, out, dim, keepdim),)


class Amin(Op):
    name = "amin"
    names = ("amin",)
    method = True
    formula = custom("reduction")
    node = "AminBackward0"
    saves = (0, "out")

    def forward(xp, x, dim=None, keepdim=False):
        return xp.min(x, axis=dim, keepdims=keepdim)

    def backward(F, ctx, g, x, out, dim=None, keepdim=False):
        return (_share_among_ties(F, ctx, g, x, out, dim, keepdim),)


def _share_among_ties(F, ctx, g, x, out, dim, keepdim):
    """The gradient of a largest (smallest) value, shared evenly among the elements tied for it."""
    g = _unreduce(F, ctx, g, dim, keepdim)
    out = _unreduce(F, ctx, out, dim, keepdim)
    mask = x == out
    return g * mask / F.sum(mask * 1.0, dim=dim, keepdim=True)


class MaxAll(Op):
    name = "max_all"
    names = ("max",)  # max(x); max(x, dim) and max(x, y) are other rows
    method = True
    formula = custom("extreme")
    node = "MaxBackward1"
    saves = (0, "out")

    def forward(xp, x):
        return xp.max(x)

    def backward(F, ctx, g, x, out):
        return (_share_among_ties(F, ctx, g, x, out, None, False),)


class MinAll(Op):
    name = "min_all"
    names = ("min",)
    method = True
    formula = custom("extreme")
    node = "MinBackward1"
    saves = (0, "out")

    def forward(xp, x):
        return xp.min(x)

    def backward(F, ctx, g, x, out):
        return (_share_among_ties(F, ctx, g, x, out, None, False),)


class ExtremeDim(Op):
    """max(x, dim) / min(x, dim) values; `indices` (from argmax/argmin) is a parameter."""
    name = "extreme_dim"
    saves_params = True
    node = staticmethod(lambda ctx: ctx.params["name"])

    def forward(xp, x, dim, keepdim, indices, name):
        idx = xp.expand_dims(indices, dim) if not keepdim else indices
        out = xp.take_along_axis(x, idx, axis=dim)
        return out if keepdim else xp.squeeze(out, axis=dim)

    def backward(F, ctx, g, dim, keepdim, indices, name):
        if not keepdim:
            g = F.unsqueeze(g, dim=dim)
            indices = indices.reshape(_keepdim_shape(ctx.shapes[0], dim))
        return (F.put_along(g, indices=indices, dim=dim, shape=ctx.shapes[0]),)


class TakeAlong(Op):
    """x gathered at `indices` along `dim` (same ndim)."""
    name = "take_along"
    saves_params = True
    node = "GatherBackward0"

    def forward(xp, x, indices, dim):
        return xp.take_along_axis(x, indices, axis=dim)

    def backward(F, ctx, g, indices, dim):
        return (F.put_along(g, indices=indices, dim=dim, shape=ctx.shapes[0]),)


class PutAlong(Op):
    """Zeros of `shape` with `g` added at `indices` along `dim`: the inverse of take_along."""
    name = "put_along"
    saves_params = True
    node = "ScatterAddBackward0"

    def forward(xp, g, indices, dim, shape):
        out = xp.zeros(shape, dtype=g.dtype)
        where = list(xp.indices(indices.shape, sparse=True))
        where[dim] = indices
        scatter_add(xp, out, tuple(where), g)  # repeated indices add up
        return out

    def backward(F, ctx, g, indices, dim, shape):
        return (F.take_along(g, indices=indices, dim=dim),)


class Norm(Op):
    """The p-norm over everything or over `dim`: p = 2 (default), 1, inf, or any p > 0."""
    name = "norm"
    names = ("norm",)
    method = True
    formula = custom("norm")
    node = "LinalgVectorNormBackward0"
    saves = (0, "out")

    def forward(xp, x, p=2, dim=None, keepdim=False):
        a = xp.abs(x)
        if p == 2:
            return xp.sqrt(xp.sum(a * a, axis=dim, keepdims=keepdim))
        if p == 1:
            return xp.sum(a, axis=dim, keepdims=keepdim)
        if p == math.inf:
            return xp.max(a, axis=dim, keepdims=keepdim)
        return xp.sum(a ** p, axis=dim, keepdims=keepdim) ** (1.0 / p)

    def backward(F, ctx, g, x, out, p=2, dim=None, keepdim=False):
        g = _unreduce(F, ctx, g, dim, keepdim)
        out = _unreduce(F, ctx, out, dim, keepdim)
        if p == 1:
            return (g * F.sign(x),)
        if p == math.inf:
            a = F.abs(x)
            mask = a == out
            count = F.sum(mask * 1.0, dim=dim, keepdim=True)
            return (g * F.sign(x) * mask / count,)
        if p == 2:
            return (F.where(out == 0, 0.0, g * x / out),)
        a = F.abs(x)
        return (F.where(out == 0, 0.0, g * x * F.pow_scalar(a, exponent=p - 2) /
                        F.pow_scalar(out, exponent=p - 1)),)


class Logsumexp(Op):
    name = "logsumexp"
    names = ("logsumexp",)
    method = True
    formula = custom("reduction")
    node = "LogsumexpBackward0"
    saves = (0, "out")

    def forward(xp, x, dim, keepdim=False):
        m = xp.max(x, axis=dim, keepdims=True)
        m = xp.where(xp.isfinite(m), m, 0)
        out = xp.log(xp.sum(xp.exp(x - m), axis=dim, keepdims=True)) + m
        return out if keepdim else xp.squeeze(out, axis=dim)

    def backward(F, ctx, g, x, out, dim, keepdim=False):
        g = _unreduce(F, ctx, g, dim, keepdim)
        out = _unreduce(F, ctx, out, dim, keepdim)
        return (g * F.exp(x - out),)


class Softmax(Op):
    name = "softmax"
    names = ("softmax",)
    method = True
    formula = call("dim")
    node = "SoftmaxBackward0"
    saves = ("out",)

    def forward(xp, x, dim):
        e = xp.exp(x - xp.max(x, axis=dim, keepdims=True))
        return e / xp.sum(e, axis=dim, keepdims=True)

    def backward(F, ctx, g, out, dim):
        gs = g * out
        return (gs - out * F.sum(gs, dim=dim, keepdim=True),)


class LogSoftmax(Op):
    name = "log_softmax"
    names = ("log_softmax",)
    method = True
    formula = call("dim")
    node = "LogSoftmaxBackward0"
    saves = ("out",)

    def forward(xp, x, dim):
        s = x - xp.max(x, axis=dim, keepdims=True)
        return s - xp.log(xp.sum(xp.exp(s), axis=dim, keepdims=True))

    def backward(F, ctx, g, out, dim):
        return (g - F.exp(out) * F.sum(g, dim=dim, keepdim=True),)
