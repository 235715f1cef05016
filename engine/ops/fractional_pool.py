"""fractional_max_pool2d and 3d (Graham's fractional max pooling): windows of a fixed kernel size
whose starts step pseudo-randomly, so that out windows cover an input of any larger size. Along a
dim of size n, with kernel k, out windows and a sample u (one per plane and dim, in [0, 1)), PyTorch's
starts are floor((i + u) alpha) - floor(u alpha) for i < out - 1, alpha = (n - k) / (out - 1)
computed in the input's dtype, and n - k for the last. `fractional_windows` finds each window's
maximum (its flat position in the plane); the rows are max_pool's (engine/ops/convolution.py: the
values at those positions, the gradient scattered back to them) under PyTorch's node names,
FractionalMaxPool2DBackward0 / 3D and, for the gradient's own node, FractionalMaxPool2DBackwardBackward0.
The functions are engine/nn/functional_pools.py's."""
import math

import numpy

from .convolution import MaxPool, MaxPoolBackward

__all__ = ["FractionalMaxPool", "FractionalMaxPoolBackward", "interval_starts", "fractional_windows"]


def interval_starts(xp, samples, size, kernel, out):
    """Each plane's window starts along one dim: samples (planes...) -> (planes..., out) int64,
    PyTorch's formula in the samples' dtype (float32 arithmetic for float32 inputs)."""
    dtype = samples.dtype.type
    starts = xp.full(samples.shape + (out,), size - kernel, dtype=numpy.int64)
    if out > 1:
        alpha = dtype(size - kernel) / dtype(out - 1)
        steps = xp.arange(out - 1).astype(samples.dtype)
        inner = ((steps + samples[..., None]) * alpha).astype(numpy.int64) - (samples * alpha).astype(numpy.int64)[..., None]
        starts[..., :out - 1] = inner
    # (a sample outside [0, 1) would put a window past the input: PyTorch reads outside the plane there)
    return xp.clip(starts, 0, max(size - kernel, 0))


def fractional_windows(xp, x, samples, kernel, out):
    """The flat position, in its plane (the last len(kernel) dims of x, (N, C, size...)), of each
    window's maximum: (N, C, out...) int64. samples (N, C, dims) holds each plane's u per dim, in
    PyTorch's order (2-d: width's first, then height's; 3-d: time, height, width). The maximum is
    PyTorch's scan's: the first of equal values, the last NaN."""
    k = len(kernel)
    lead, size = x.shape[:2], x.shape[x.ndim - k:]
    if not math.prod(kernel):  # (an empty window: PyTorch's scan leaves its start, and -inf)
        return xp.zeros(lead + tuple(out), dtype=numpy.int64)
    order = (1, 0) if k == 2 else (0, 1, 2)
    flat = 0  # (N, C, out..., window...): the flat position of every window element, row-major
    for d in range(k):
        starts = interval_starts(xp, samples[..., order[d]], size[d], kernel[d], out[d])   # (N, C, out_d)
        positions = starts[..., None] + xp.arange(kernel[d])                                # (N, C, out_d, k_d)
        axes = [1] * (2 * k)
        axes[d], axes[k + d] = out[d], kernel[d]
        flat = flat * size[d] + positions.reshape(lead + tuple(axes))
    flat = xp.broadcast_to(flat, lead + tuple(out) + tuple(kernel)).reshape(lead + (math.prod(out), math.prod(kernel)))
    planes = x.reshape(lead + (math.prod(size),))
    values = xp.take_along_axis(planes, flat.reshape(lead + (flat.shape[2] * flat.shape[3],)), axis=-1).reshape(flat.shape)
    pos = xp.argmax(values, axis=-1)
    nans = xp.isnan(values)
    pos = xp.where(nans.any(axis=-1), flat.shape[-1] - 1 - xp.argmax(nans[..., ::-1], axis=-1), pos)
    return xp.take_along_axis(flat, pos[..., None], axis=-1)[..., 0].reshape(lead + tuple(out))


def _node(ctx, suffix=""):
    return f"FractionalMaxPool{ctx.params.get('dims', 2)}DBackward{suffix}0"


class FractionalMaxPool(MaxPool):
    """The input's values at `indices` (N, C, out...): each fractional window's maximum, over the
    last `dims` dims (max_pool's forward). The gradient goes back to those positions."""
    name = "fractional_max_pool"
    names = ()
    node = staticmethod(_node)

    def backward(F, ctx, g, x, indices, adaptive=False, dims=2):
        return (F.fractional_max_pool_backward(g, x, indices=indices, dims=dims),)


class FractionalMaxPoolBackward(MaxPoolBackward):
    """fractional_max_pool's gradient g(gradient, x): g added at the windows' maxima (max_pool's
    backward), as PyTorch's fractional_max_pool2d_backward; its derivative is fractional_max_pool
    of the incoming gradient again, and zeros for x."""
    name = "fractional_max_pool_backward"
    names = ()
    node = staticmethod(lambda ctx: _node(ctx, "Backward"))

    def backward(F, ctx, gg, indices, adaptive=False, dims=2):
        return (F.fractional_max_pool(gg, indices=indices, dims=dims) if ctx.needs[0] else None,
                F.zeros_like(gg) if ctx.needs[1] else None)
