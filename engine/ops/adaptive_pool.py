"""adaptive_avg_pool2d to output sizes that do not divide the input's (the equal windows of one that
does are avg_pool's row), and adaptive_avg_pool3d to any (the row works over the last
len(output_size) dims): window i of o along a dim of size n spans [floor(i n / o), ceil((i + 1) n / o)),
so windows differ in size and may overlap. Two linear rows, each the other's derivative, under
PyTorch's node names: the windows' means, and the gradient spread back over them."""
import numpy

from .table import Op, call, scatter_add

__all__ = ["AdaptiveAvgPool", "AdaptiveAvgPoolBackward"]


def _windows(n, o):
    """Every window's positions, padded to the longest by repeating the last element, the mask of
    the real ones (o x longest), and each window's size."""
    start = (numpy.arange(o) * n) // o
    end = -((-(numpy.arange(o) + 1) * n) // o)
    longest = int((end - start).max()) if o else 0
    positions = start[:, None] + numpy.arange(longest)[None, :]
    return numpy.minimum(positions, n - 1), positions < end[:, None], end - start


def _means(xp, x, axis, o):
    """The o windows' means along `axis`: each window gathered and masked, so that an inf or a NaN
    reaches only the windows it is in."""
    t = xp.moveaxis(x, axis, 0)
    positions, inside, count = _windows(t.shape[0], o)
    lead = (1,) * (t.ndim - 1)
    picked = t[xp.asarray(positions)]                                   # (o, longest, rest...)
    total = xp.where(xp.asarray(inside.reshape(inside.shape + lead)), picked, 0).sum(axis=1)
    return xp.moveaxis(total / xp.asarray(count.reshape((o,) + lead).astype(x.dtype)), 0, axis)


def _spread(xp, g, axis, n):
    """Each window's share of g (g / its size) added back over its n positions along `axis`."""
    t = xp.moveaxis(g, axis, 0)
    o, rest = t.shape[0], t.shape[1:]
    positions, inside, count = _windows(n, o)
    share = t / xp.asarray(count.reshape((o,) + (1,) * len(rest)).astype(g.dtype))
    values = xp.where(xp.asarray(inside.reshape(inside.shape + (1,) * len(rest))), share[:, None], 0)
    out = xp.zeros((n,) + rest, dtype=g.dtype)
    values = values.reshape((positions.size,) + rest)  # (no -1: an empty batch has no size to infer)
    scatter_add(xp, out, xp.asarray(positions.reshape(-1)), values)
    return xp.moveaxis(out, 0, axis)


def _node(ctx, suffix="Backward0"):
    """PyTorch's node names the number of pooled dims (2 or 3)."""
    params = ctx.params
    return f"AdaptiveAvgPool{len(params['output_size']) if 'output_size' in params else params.get('dims', 2)}D{suffix}"


class AdaptiveAvgPool(Op):
    """The means of output_size (oH, oW) or (oD, oH, oW) adaptive windows over the last two or three dims."""
    name = "adaptive_avg_pool"
    names = ()
    node = staticmethod(_node)
    formula = call("output_size")
    jvp = "linear"  # forward mode: the row applied to the tangents
    saves = (0,)

    def forward(xp, x, output_size):
        for axis, o in zip(range(-len(output_size), 0), output_size):
            x = _means(xp, x, axis, o)
        return x

    def backward(F, ctx, g, x, output_size):
        return (F.adaptive_avg_pool_backward(g, x, dims=len(output_size)),)


class AdaptiveAvgPoolBackward(Op):
    """adaptive_avg_pool's gradient g(gradient, x): each window's share spread back over x's last
    `dims` dims; its own derivative is adaptive_avg_pool again, and, as PyTorch's, zeros for x."""
    name = "adaptive_avg_pool_backward"
    names = ()
    node = staticmethod(lambda ctx: _node(ctx, "BackwardBackward0"))
    formula = call()

    def forward(xp, g, x, dims=2):
        for axis, n in zip(range(-dims, 0), x.shape[x.ndim - dims:]):
            g = _spread(xp, g, axis, n)
        return g

    def backward(F, ctx, gg, dims=2):
        return (F.adaptive_avg_pool(gg, output_size=tuple(ctx.shapes[0][len(ctx.shapes[0]) - dims:]))
                if ctx.needs[0] else None,
                F.zeros_like(gg) if ctx.needs[1] else None)
