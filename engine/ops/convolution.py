"""The rows behind torch.nn's convolution, pooling and batch-norm layers: convolution
(ConvolutionBackward0), max_pool (MaxPool2DWithIndicesBackward0), avg_pool (AvgPool2DBackward0),
batch_norm (NativeBatchNormBackward0), max_unpool (MaxUnpool2DBackward0, 3D; F.max_unpool1d/2d/3d
in engine/nn/functional_pools.py), and the two linear rows their gradients are made of:
im2col (the sliding windows of an input, laid out as columns) and col2im (its adjoint: columns
added back into an input), which are F.unfold and F.fold too. The functions are in
engine/nn/functional_conv.py and engine/nn/functional_blocks.py.

Windows are over the last k dims of an array (k = len(kernel)); `padding` is one (before,
after) pair per dim, zeros there (or `fill` for im2col). A convolution is then a matrix product
of the weight with im2col(x): its input gradient is col2im(W^T g), a transposed convolution, and
its weight gradient g im2col(x)^T, a convolution of input and gradient. im2col and col2im are
each other's gradient, so every formula here has derivatives of every order."""
import itertools

import numpy

from .reductions import PutAlong, open_grid
from .table import Op, call

_ALL = slice(None)


def _product(values):
    n = 1
    for v in values:
        n *= v
    return n


def out_sizes(size, kernel, stride, padding, dilation):
    """The number of windows along each dim: (S + lo + hi - d (k - 1) - 1) // s + 1."""
    return tuple((n + lo + hi - d * (k - 1) - 1) // s + 1
                 for n, k, s, (lo, hi), d in zip(size, kernel, stride, padding, dilation))


def _window(offsets, stride, dilation, out):
    """The slices of a padded input that kernel position `offsets` sees over all windows."""
    return tuple(slice(o * d, o * d + s * (n - 1) + 1, s) for o, s, d, n in zip(offsets, stride, dilation, out))


def windows(xp, x, kernel, stride, padding, dilation, fill=0):
    """x (lead..., S...) as columns (lead..., kernel..., out...): one copy per kernel position."""
    k = len(kernel)
    lead, size = x.shape[:x.ndim - k], x.shape[x.ndim - k:]
    if any(lo or hi for lo, hi in padding):
        padded = xp.full(lead + tuple(n + lo + hi for n, (lo, hi) in zip(size, padding)), fill, dtype=x.dtype)
        padded[(Ellipsis,) + tuple(slice(lo, lo + n) for n, (lo, _) in zip(size, padding))] = x
        x = padded
    out = out_sizes(size, kernel, stride, padding, dilation)
    if xp is numpy and x.flags.c_contiguous and x.size:
        # every window at once: a view of x with a kernel dim and an out dim per spatial dim (made in C),
        # then one copy -- the same values as the loop below, in one call instead of one per kernel position
        spatial = x.strides[len(lead):]
        strides = x.strides[:len(lead)] + tuple(t * d for t, d in zip(spatial, dilation)) + \
            tuple(t * s for t, s in zip(spatial, stride))
        return numpy.ndarray(lead + tuple(kernel) + out, x.dtype, x, 0, strides).copy()
    cols = xp.empty(lead + tuple(kernel) + out, dtype=x.dtype)
    head = (_ALL,) * len(lead)
    for offsets in itertools.product(*(range(n) for n in kernel)):
        cols[head + offsets] = x[(Ellipsis,) + _window(offsets, stride, dilation, out)]
    return cols


def _blocks_shape(lead, kernel, out):
    """F.unfold's layout of columns: the channel dim (lead's last) and the kernel dims as one, the
    windows as another -- (lead[:-1]..., C * K, L)."""
    return tuple(lead[:-1]) + (lead[-1] * _product(kernel), _product(out))


class Im2Col(Op):
    """The sliding windows of x over its last len(kernel) dims, zero-padded: (lead..., kernel...,
    out...), or with `blocks` F.unfold's (lead[:-1]..., C * K, L). Linear; its gradient is col2im."""
    name = "im2col"
    node = "Im2ColBackward0"
    formula = call("kernel", "stride")

    def forward(xp, x, kernel, stride, padding, dilation, blocks=False):
        cols = windows(xp, x, kernel, stride, padding, dilation)
        if blocks:
            k = len(kernel)
            return cols.reshape(_blocks_shape(cols.shape[:cols.ndim - 2 * k], kernel, cols.shape[cols.ndim - k:]))
        return cols

    def backward(F, ctx, g, kernel, stride, padding, dilation, blocks=False):
        size = ctx.shapes[0][len(ctx.shapes[0]) - len(kernel):]
        return (F.col2im(g, size=size, kernel=kernel, stride=stride, padding=padding, dilation=dilation,
                         blocks=blocks),)


class Col2Im(Op):
    """Columns (lead..., kernel..., out...), or with `blocks` F.fold's (lead[:-1]..., C * K, L),
    added back into an input of spatial `size` (lead..., size...): each window's values summed into
    the places it covers, the padding dropped. The adjoint of im2col; its gradient is im2col."""
    name = "col2im"
    node = "Col2ImBackward0"
    formula = call("size", "kernel", "stride")

    def forward(xp, cols, size, kernel, stride, padding, dilation, blocks=False):
        k = len(kernel)
        if blocks:
            out = out_sizes(size, kernel, stride, padding, dilation)
            lead = cols.shape[:-2] + (cols.shape[-2] // _product(kernel),)
            cols = cols.reshape(lead + tuple(kernel) + out)
        lead = cols.shape[:cols.ndim - 2 * k]
        out = cols.shape[cols.ndim - k:]
        padded = xp.zeros(lead + tuple(n + lo + hi for n, (lo, hi) in zip(size, padding)), dtype=cols.dtype)
        head = (_ALL,) * len(lead)
        for offsets in itertools.product(*(range(n) for n in kernel)):
            padded[(Ellipsis,) + _window(offsets, stride, dilation, out)] += cols[head + offsets]
        return padded[(Ellipsis,) + tuple(slice(lo, lo + n) for n, (lo, _) in zip(size, padding))]

    def backward(F, ctx, g, size, kernel, stride, padding, dilation, blocks=False):
        return (F.im2col(g, kernel=kernel, stride=stride, padding=padding, dilation=dilation, blocks=blocks),)


class Convolution(Op):
    """x (N, C, S...) convolved with weight (O, C / groups, K...), plus bias (O,) when it is a
    tensor (the number 0 stands for none: no edge, as PyTorch's undefined bias): the windows of x
    (im2col) times the weight, group by group."""
    name = "convolution"
    node = "ConvolutionBackward0"
    formula = call("stride", "padding", "dilation", "groups")
    saves = (0, 1)
    save_for = ((1,), (0,))

    def forward(xp, x, weight, bias, stride, padding, dilation, groups):
        kernel = weight.shape[2:]
        n, c, o = x.shape[0], x.shape[1], weight.shape[0]
        cols = windows(xp, x, kernel, stride, padding, dilation)
        out = cols.shape[2 + len(kernel):]
        cols = cols.reshape(n, groups, c // groups * _product(kernel), _product(out))
        y = xp.matmul(weight.reshape(groups, o // groups, -1), cols).reshape((n, o) + out)
        if not isinstance(bias, (int, float)):
            y = y + bias.reshape((o,) + (1,) * len(kernel))
        return y

    def backward(F, ctx, g, x, weight, stride, padding, dilation, groups):
        xshape, wshape = ctx.shapes[0], ctx.shapes[1]
        kernel, n, c, o = wshape[2:], xshape[0], xshape[1], wshape[0]
        out = tuple(g.shape[2:])
        gm = F.reshape(g, shape=(n, groups, o // groups, _product(out)))
        gx = gw = gb = None
        params = dict(kernel=kernel, stride=stride, padding=padding, dilation=dilation)
        if ctx.needs[0]:
            wm = F.reshape(weight, shape=(groups, o // groups, c // groups * _product(kernel)))
            cols = F.matmul(F.transpose(wm, dim0=-1, dim1=-2), gm)
            gx = F.col2im(F.reshape(cols, shape=(n, c) + kernel + out), size=xshape[2:], **params)
        if ctx.needs[1]:
            cols = F.reshape(F.im2col(x, **params), shape=(n, groups, c // groups * _product(kernel), _product(out)))
            gw = F.reshape(F.sum(F.matmul(gm, F.transpose(cols, dim0=-1, dim1=-2)), dim=0), shape=wshape)
        if ctx.needs[2]:
            gb = F.sum(g, dim=(0,) + tuple(range(2, len(xshape))))
        return gx, gw, gb


def _spread(xp, g, indices, shape, dims=2):
    """Zeros of `shape` with g added at the flat `indices` of each plane (the last `dims` dims);
    overlapping windows add up."""
    lead = indices.shape[:indices.ndim - dims]
    windows = _product(indices.shape[indices.ndim - dims:])  # (no -1: an empty batch has no size to infer)
    flat = PutAlong.forward(xp, g.reshape(lead + (windows,)), indices.reshape(lead + (windows,)), -1,
                            lead + (_product(shape[len(shape) - dims:]),))
    return flat.reshape(shape)


def _avg_spread(xp, g, size, kernel, stride, padding, divisor):
    """Each window's share g / divisor added back over the window."""
    k = len(kernel)
    lead, out = g.shape[:g.ndim - k], g.shape[g.ndim - k:]
    share = xp.broadcast_to((g / divisor).reshape(lead + (1,) * k + out), lead + tuple(kernel) + out)
    return Col2Im.forward(xp, share.astype(g.dtype, copy=False), size, kernel, stride, padding, (1,) * k)


def _max_node(ctx, suffix=""):
    """PyTorch's node of a max pooling: MaxPool2DWithIndicesBackward0, MaxPool3D..., AdaptiveMaxPool2D..."""
    dims = ctx.params.get("dims", 2)
    if ctx.params.get("adaptive"):
        return f"AdaptiveMaxPool{dims}DBackward{suffix}0"
    return f"MaxPool{dims}DWithIndicesBackward{suffix}0"


class MaxPool(Op):
    """The input's values at `indices` (lead..., oH, oW): for each window the flat position, over
    the last two dims of x (`dims` of them: 3 for max_pool3d), of its maximum (found by the
    function). The gradient goes to those positions, added up where windows overlap (the row
    max_pool_backward). adaptive_max_pool2d's and 3d's windows are this row too, under PyTorch's
    names for those nodes (`adaptive`)."""
    name = "max_pool"
    node = staticmethod(_max_node)
    formula = call()
    saves = (0,)
    saves_params = True

    def forward(xp, x, indices, adaptive=False, dims=2):
        lead = indices.shape[:indices.ndim - dims]
        flat = x.reshape(lead + (_product(x.shape[x.ndim - dims:]),))  # (no -1: an empty batch has no size to infer)
        windows = _product(indices.shape[indices.ndim - dims:])
        return xp.take_along_axis(flat, indices.reshape(lead + (windows,)), axis=-1).reshape(indices.shape)

    def backward(F, ctx, g, x, indices, adaptive=False, dims=2):
        return (F.max_pool_backward(g, x, indices=indices, adaptive=adaptive, dims=dims),)


class MaxPoolBackward(Op):
    """max_pool's gradient, g(gradient, x), as a row of its own (PyTorch's
    max_pool2d_with_indices_backward): under create_graph it depends on x too, with a zero
    derivative, so a second derivative reaches x as PyTorch's zeros."""
    name = "max_pool_backward"
    node = staticmethod(lambda ctx: _max_node(ctx, "Backward"))
    formula = call()
    saves_params = True

    def forward(xp, g, x, indices, adaptive=False, dims=2):
        return _spread(xp, g, indices, x.shape, dims)

    def backward(F, ctx, gg, indices, adaptive=False, dims=2):
        return (F.max_pool(gg, indices=indices, adaptive=adaptive, dims=dims) if ctx.needs[0] else None,
                F.zeros_like(gg) if ctx.needs[1] else None)


def _avg_node(ctx):
    return "AdaptiveAvgPool2DBackward0" if ctx.params.get("adaptive") else \
        f"AvgPool{len(ctx.params['kernel'])}DBackward0"


class AvgPool(Op):
    """The sum of each window over the last two dims (three for avg_pool3d: len(kernel); zero-padded;
    `padding` may reach further right for ceil_mode) divided by `divisor`, an array of the output's
    spatial shape (PyTorch's
    count of each window's elements, as count_include_pad and divisor_override say).
    adaptive_avg_pool2d's equal windows are this row too, under PyTorch's name for that node."""
    name = "avg_pool"
    node = staticmethod(_avg_node)
    formula = call("kernel", "stride")
    saves = (0,)
    saves_params = True

    def forward(xp, x, kernel, stride, padding, divisor, adaptive=False):
        k = len(kernel)
        cols = windows(xp, x, kernel, stride, padding, (1,) * k)
        return (cols.sum(axis=tuple(range(-2 * k, -k))) / divisor).astype(x.dtype, copy=False)

    def backward(F, ctx, g, x, **params):
        return (F.avg_pool_backward(g, x, **params),)


class AvgPoolBackward(Op):
    """avg_pool's gradient, g(gradient, x): each window's share added back over it; a row of its
    own so that, as PyTorch's, a second derivative reaches x (zeros)."""
    name = "avg_pool_backward"
    node = staticmethod(lambda ctx: _avg_node(ctx).replace("Backward0", "BackwardBackward0"))
    formula = call("kernel", "stride")
    saves_params = True

    def forward(xp, g, x, kernel, stride, padding, divisor, adaptive=False):
        return _avg_spread(xp, g, x.shape[x.ndim - len(kernel):], kernel, stride, padding, divisor)

    def backward(F, ctx, gg, **params):
        return (F.avg_pool(gg, **params) if ctx.needs[0] else None,
                F.zeros_like(gg) if ctx.needs[1] else None)


def _channel_shape(ndim, c):
    return (1, c) + (1,) * (ndim - 2)


def batch_stats(xp, x):
    """(mean, sum of squared deviations, count) per channel (dim 1) over every other dim."""
    axes = (0,) + tuple(range(2, x.ndim))
    mean = xp.mean(x, axis=axes)
    xc = x - mean.reshape(_channel_shape(x.ndim, -1))
    return mean, xp.sum(xc * xc, axis=axes), x.size // x.shape[1]


class BatchNorm(Op):
    """x normalized per channel (dim 1) then times weight and plus bias (per channel; the numbers 1
    and 0 stand for none: no edge then). Training: by the batch's mean and biased variance over
    every dim but 1 (`mean` and `var` when given: batch_stats' of x); else by `mean` and `var` (the
    running statistics, arrays). As PyTorch's
    kernel: x * alpha + beta, alpha = weight / sqrt(var + eps), beta = bias - mean * alpha. The
    gradient is written in table ops from x, so it has derivatives of every order."""
    name = "batch_norm"
    node = "NativeBatchNormBackward0"
    formula = call("training", "eps")
    saves = (0, 1)
    save_for = ((0, 1), (0,))

    def forward(xp, x, weight, bias, training, eps, mean=None, var=None):
        if mean is None:  # (training: the batch's, unless the caller has them already -- batch_norm has)
            mean, squares, n = batch_stats(xp, x)
            var = squares / n
        alpha = 1 / xp.sqrt(var + eps) * weight
        beta = bias - mean * alpha
        shape = _channel_shape(x.ndim, -1)
        return x * alpha.reshape(shape).astype(x.dtype, copy=False) + beta.reshape(shape).astype(x.dtype, copy=False)

    def backward(F, ctx, g, x, weight, training, eps, mean=None, var=None):
        shape = ctx.shapes[0]
        nd = len(shape)
        axes = (0,) + tuple(range(2, nd))
        w = None if ctx.shapes[1] is None else F.reshape(weight, shape=_channel_shape(nd, shape[1]))
        gx = gw = gb = None
        if training:
            xc = x - F.mean(x, dim=axes, keepdim=True)
            rstd = 1.0 / F.sqrt(F.mean(xc * xc, dim=axes, keepdim=True) + eps)
            xhat = xc * rstd
            if ctx.needs[0]:
                gxhat = g if w is None else g * w
                gx = rstd * (gxhat - F.mean(gxhat, dim=axes, keepdim=True)
                             - xhat * F.mean(gxhat * xhat, dim=axes, keepdim=True))
        else:
            rstd = (1 / F.xp.sqrt(var + eps)).reshape(_channel_shape(nd, shape[1]))
            xhat = (x - mean.reshape(_channel_shape(nd, shape[1]))) * rstd
            if ctx.needs[0]:
                gx = g * rstd if w is None else g * (w * rstd)
        if ctx.needs[1]:
            gw = F.sum(g * xhat, dim=axes)
        if ctx.needs[2]:
            gb = F.sum(g, dim=axes)
        return gx, gw, gb


class MaxUnpool(Op):
    """max pooling undone: each value of x (lead..., positions...) written at its flat index
    (max_pool's return_indices) into zeros of spatial `size` (`dims` dims: 2 or 3). Linear; its
    gradient reads g back at the indices (take_along)."""
    name = "max_unpool"
    names = ()
    node = staticmethod(lambda ctx: f"MaxUnpool{ctx.params['dims']}DBackward0")
    formula = call("size")
    jvp = "linear"
    saves_params = True

    def forward(xp, x, indices, size, dims):
        lead = x.shape[:x.ndim - dims]
        out = xp.zeros(lead + (_product(size),), dtype=x.dtype)
        flat = lead + (_product(x.shape[len(lead):]),)
        where = open_grid(xp, flat)
        where[-1] = indices.reshape(flat)
        out[tuple(where)] = x.reshape(flat)  # (a repeated index: one of the values)
        return out.reshape(lead + tuple(size))

    def backward(F, ctx, g, indices, size, dims):
        shape = tuple(ctx.shapes[0])
        lead = shape[:len(shape) - dims]
        flat = F.reshape(g, shape=lead + (_product(size),))
        picked = F.take_along(flat, indices=indices.reshape(lead + (_product(shape[len(lead):]),)), dim=len(lead))
        return (F.reshape(picked, shape=shape),)
