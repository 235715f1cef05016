"""The rows behind torch.nn.functional's interpolate, conv_transpose1d/2d/3d and group_norm:
upsample (Upsample{Nearest,NearestExact,Linear,Bilinear,Trilinear}{1,2,3}DBackward0) and its
adjoint upsample_backward, conv_transpose (ConvolutionBackward0, PyTorch's convolution node with
transposed=True) and group_norm (NativeGroupNormBackward0). The functions, with PyTorch's checks,
are in engine/nn/functional_nnlayers.py. And the rearranging rows pixel_shuffle, pixel_unshuffle
(each the other's gradient) and channel_shuffle (its gradient the inverse shuffle), under
PyTorch's nodes (PixelShuffleBackward0, ...), with torch.pixel_shuffle's checks and messages. And
affine_grid (AffineGridGeneratorBackward0), grid_sample (GridSampler2DBackward0 / 3D: nearest,
bilinear, bicubic taps gathered, its gradient written in table ops) and rrelu
(RreluWithNoiseBackward0), behind engine/nn/functional_sampling.py and functional_more.py.

Interpolation is separable: along each spatial dim an output position reads one input position
(nearest) or two with weights (linear), the `taps` the function works out. upsample gathers and
weighs; upsample_backward adds each output's gradient back to the positions it read (a product
with the transposed interpolation matrix). Each is the other's gradient, so both have derivatives
of every order. A transposed convolution is col2im of W^T x (the input gradient of a convolution);
its gradients are a convolution of the output gradient with W (for x) and with x (for W), written
with im2col and matmul."""
import itertools

from ..core.tensor import run_op
from .activations import _errstate
from .convolution import Col2Im
from .table import Op, call


def _product(values):
    n = 1
    for v in values:
        n *= v
    return n


# ------------------------------------------------------------------ interpolation

def _upsample_node(ctx):
    return f"Upsample{ctx.params['kind']}{len(ctx.params['taps'])}DBackward0"


def _along(xp, a, axis, ndim):
    """A 1-d array shaped to broadcast along `axis` of an ndim array."""
    return a.reshape((-1,) + (1,) * (ndim - 1 - axis))


def interpolate_array(xp, x, taps):
    """x with its last len(taps) dims interpolated: along each, output j is the sum over the dim's
    taps (index, weight) of x[index[j]] * weight[j] (a weight None: the value itself)."""
    k = len(taps)
    for d, dim_taps in enumerate(taps):
        axis = x.ndim - k + d
        out = None
        for index, weight in dim_taps:
            part = xp.take(x, index, axis=axis)
            if weight is not None:
                part = part * _along(xp, weight, axis, x.ndim).astype(x.dtype, copy=False)
            out = part if out is None else out + part
        x = out
    return x


def _spread_matrix(xp, dim_taps, n, dtype):
    """(n, m): column j holds output j's weights at the input positions it reads."""
    rows = xp.arange(n)[:, None]
    matrix = None
    for index, weight in dim_taps:
        part = (index[None, :] == rows).astype(dtype)
        if weight is not None:
            part = part * weight[None, :].astype(dtype, copy=False)
        matrix = part if matrix is None else matrix + part
    return matrix


class Upsample(Op):
    """x (N, C, S...) interpolated along its last len(taps) dims: along each, output j is x at
    index[j] (nearest) or the weighted sum of x at two indices (linear), as `taps` says; `kind`
    names the mode in the node (Nearest, NearestExact, Linear, Bilinear, Trilinear)."""
    name = "upsample"
    batched = True  # both directions work on the last len(taps) dims: a leading batch dim is untouched
    node = staticmethod(_upsample_node)
    formula = call("kind")
    saves_params = True

    def forward(xp, x, taps, kind):
        with _errstate(xp):  # a zero weight on an infinity is PyTorch's NaN, silently
            return interpolate_array(xp, x, taps)

    def backward(F, ctx, g, taps, kind):
        return (F.upsample_backward(g, size=tuple(ctx.shapes[0][len(ctx.shapes[0]) - len(taps):]), taps=taps,
                                    kind=kind),)


class UpsampleBackward(Op):
    """upsample's gradient: each output's gradient added back, weighted, at the input positions it
    read (input spatial `size`); linear in g, its own gradient is upsample."""
    name = "upsample_backward"
    batched = True
    node = staticmethod(lambda ctx: _upsample_node(ctx).replace("Backward0", "BackwardBackward0"))
    formula = call("kind")
    saves_params = True

    def forward(xp, g, size, taps, kind):
        k = len(taps)
        for d, (dim_taps, n) in enumerate(zip(taps, size)):
            axis = g.ndim - k + d
            matrix = _spread_matrix(xp, dim_taps, n, g.dtype)
            with _errstate(xp):
                g = xp.moveaxis(xp.tensordot(g, matrix, axes=([axis], [1])), -1, axis)
        return xp.ascontiguousarray(g)

    def backward(F, ctx, gg, size, taps, kind):
        return (F.upsample(gg, taps=taps, kind=kind),)


# ------------------------------------------------------------------ transposed convolution

class ConvTranspose(Op):
    """x (N, C, S...) through the transpose of a convolution with weight (C, O / groups, K...):
    each input position adds weight * x into its window of the output, windows `stride` apart,
    `dilation` inside, `padding` cropped from each side and `output_padding` more on the far side;
    plus bias (O,) when it is a tensor (the number 0: none, no edge)."""
    name = "conv_transpose"
    node = "ConvolutionBackward0"
    formula = call("stride", "padding", "output_padding", "dilation", "groups")
    saves = (0, 1)
    save_for = ((1,), (0,))

    def forward(xp, x, weight, bias, stride, padding, output_padding, dilation, groups):
        kernel = weight.shape[2:]
        n, c = x.shape[0], x.shape[1]
        o = weight.shape[1] * groups
        insize = x.shape[2:]
        xm = x.reshape(n, groups, c // groups, _product(insize))
        wm = weight.reshape(groups, c // groups, o // groups * _product(kernel))
        cols = xp.matmul(xp.swapaxes(wm, -1, -2), xm).reshape((n, o) + tuple(kernel) + tuple(insize))
        size = tuple((i - 1) * s - 2 * p + d * (k - 1) + op + 1
                     for i, s, p, d, k, op in zip(insize, stride, padding, dilation, kernel, output_padding))
        pads = tuple((p, max(p - op, 0)) for p, op in zip(padding, output_padding))
        y = Col2Im.forward(xp, cols, size, kernel, stride, pads, dilation)
        if not isinstance(bias, (int, float)):
            y = y + bias.reshape((o,) + (1,) * len(kernel))
        return xp.ascontiguousarray(y)

    def backward(F, ctx, g, x, weight, stride, padding, output_padding, dilation, groups):
        xshape, wshape = ctx.shapes[0], ctx.shapes[1]
        kernel, n, c = tuple(wshape[2:]), xshape[0], xshape[1]
        o = wshape[1] * groups
        insize = tuple(xshape[2:])
        # g widened (or cropped) to the full span of the windows: p before, p - output_padding after
        amounts = []
        for p, op in reversed(tuple(zip(padding, output_padding))):
            amounts += [p, p - op]
        full = F.constant_pad_nd(g, pad=tuple(amounts)) if any(amounts) else g
        cols = F.im2col(full, kernel=kernel, stride=stride, padding=((0, 0),) * len(kernel), dilation=dilation)
        cols = F.reshape(cols, shape=(n, groups, o // groups * _product(kernel), _product(insize)))
        gx = gw = gb = None
        if ctx.needs[0]:
            wm = F.reshape(weight, shape=(groups, c // groups, o // groups * _product(kernel)))
            gx = F.reshape(F.matmul(wm, cols), shape=xshape)
        if ctx.needs[1]:
            xm = F.reshape(x, shape=(n, groups, c // groups, _product(insize)))
            gw = F.reshape(F.sum(F.matmul(xm, F.transpose(cols, dim0=-1, dim1=-2)), dim=0), shape=wshape)
        if ctx.needs[2]:
            gb = F.sum(g, dim=(0,) + tuple(range(2, len(xshape))))
        return gx, gw, gb


# ------------------------------------------------------------------ group norm

def _channel_shape(ndim, c):
    return (1, c) + (1,) * (ndim - 2)


class GroupNorm(Op):
    """x (N, C, *) normalized within each of `groups` groups of channels per sample (mean 0,
    biased variance 1, eps added), then times weight and plus bias per channel (the numbers 1 and 0
    stand for none: no edge). The gradient is written in table ops from x, so it has derivatives of
    every order."""
    name = "group_norm"
    node = "NativeGroupNormBackward0"
    formula = call("groups", "eps")
    saves = (0, 1)
    save_for = ((0, 1), (0,))

    def forward(xp, x, weight, bias, groups, eps):
        n, c = x.shape[0], x.shape[1]
        xg = x.reshape(n, groups, _product(x.shape[1:]) // groups)  # (no -1: an empty batch has no size to infer)
        mean = xg.mean(axis=-1, keepdims=True)
        xc = xg - mean
        rstd = 1 / xp.sqrt((xc * xc).mean(axis=-1, keepdims=True) + eps)
        y = (xc * rstd).reshape(x.shape)
        shape = _channel_shape(x.ndim, c)
        if not isinstance(weight, (int, float)):
            y = y * weight.reshape(shape)
        if not isinstance(bias, (int, float)):
            y = y + bias.reshape(shape)
        return y.astype(x.dtype, copy=False)

    def backward(F, ctx, g, x, weight, groups, eps):
        shape = tuple(ctx.shapes[0])
        n, c, nd = shape[0], shape[1], len(shape)
        axes = (0,) + tuple(range(2, nd))
        group = (n, groups, _product(shape[1:]) // groups)
        xg = F.reshape(x, shape=group)
        xc = xg - F.mean(xg, dim=-1, keepdim=True)
        rstd = 1.0 / F.sqrt(F.mean(xc * xc, dim=-1, keepdim=True) + eps)
        xhat = xc * rstd
        gx = gw = gb = None
        if ctx.needs[0]:
            gxhat = g if ctx.shapes[1] is None else g * F.reshape(weight, shape=_channel_shape(nd, c))
            gh = F.reshape(gxhat, shape=group)
            gx = F.reshape(rstd * (gh - F.mean(gh, dim=-1, keepdim=True)
                                   - xhat * F.mean(gh * xhat, dim=-1, keepdim=True)), shape=shape)
        if ctx.needs[1]:
            gw = F.sum(g * F.reshape(xhat, shape=shape), dim=axes)
        if ctx.needs[2]:
            gb = F.sum(g, dim=axes)
        return gx, gw, gb


# ------------------------------------------------------------------ rearranging channels and pixels

def _at_least_3d(name, input):
    if input.array.ndim < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input with "
                           f"{input.array.ndim} dimension(s)")


def _positive(name, what, factor):
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {what}, but got {factor}")


def _moved(x, lead, shape, order, out):
    """x (lead..., C, H, W) reshaped to lead + shape, its last five dims put in `order`, reshaped to lead + out."""
    n = len(lead)
    return x.reshape(lead + shape).transpose(tuple(range(n)) + tuple(n + i for i in order)).reshape(lead + out)


class PixelShuffle(Op):
    """Channels rearranged into blocks of pixels.

    (*, C r^2, H, W) to (*, C, H r, W r): channel c r^2 + i r + j becomes pixel (i, j) of each r x r
    block of channel c; its gradient is pixel_unshuffle."""
    name = "pixel_shuffle"
    signature = "pixel_shuffle(Tensor input, int upscale_factor) -> Tensor"
    node = "PixelShuffleBackward0"
    formula = call("upscale_factor")
    jvp = "linear"

    def forward(xp, x, upscale_factor):
        r = upscale_factor
        *lead, c, h, w = x.shape
        return _moved(x, tuple(lead), (c // (r * r), r, r, h, w), (0, 3, 1, 4, 2), (c // (r * r), h * r, w * r))

    def backward(F, ctx, g, upscale_factor):
        return (F.pixel_unshuffle(g, downscale_factor=upscale_factor),)

    def call(input, upscale_factor):
        name, r = "pixel_shuffle", upscale_factor
        _at_least_3d(name, input)
        _positive(name, "upscale_factor", r)
        c = input.array.shape[-3]
        if c % (r * r):
            raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square "
                               f"of upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
        return run_op(PixelShuffle, (input,), {"upscale_factor": r})


class PixelUnshuffle(Op):
    """Blocks of pixels rearranged into channels.

    (*, C, H r, W r) to (*, C r^2, H, W): pixel_shuffle undone; its gradient is pixel_shuffle."""
    name = "pixel_unshuffle"
    signature = "pixel_unshuffle(Tensor input, int downscale_factor) -> Tensor"
    node = "PixelUnshuffleBackward0"
    formula = call("downscale_factor")
    jvp = "linear"

    def forward(xp, x, downscale_factor):
        r = downscale_factor
        *lead, c, h, w = x.shape
        return _moved(x, tuple(lead), (c, h // r, r, w // r, r), (0, 2, 4, 1, 3), (c * r * r, h // r, w // r))

    def backward(F, ctx, g, downscale_factor):
        return (F.pixel_shuffle(g, upscale_factor=downscale_factor),)

    def call(input, downscale_factor):
        name, r = "pixel_unshuffle", downscale_factor
        _at_least_3d(name, input)
        _positive(name, "downscale_factor", r)
        for what, dim in (("height", -2), ("width", -1)):
            size = input.array.shape[dim]
            if size % r:
                raise RuntimeError(f"pixel_unshuffle expects {what} to be divisible by downscale_factor, but "
                                   f"input.size({dim})={size} is not divisible by {r}")
        return run_op(PixelUnshuffle, (input,), {"downscale_factor": r})


class ChannelShuffle(Op):
    """The channels interleaved across groups.

    The channels (dim 1) of an (N, C, *) input in `groups` groups, interleaved: (groups, C / groups)
    read as (C / groups, groups); its gradient is the inverse shuffle, C / groups groups."""
    name = "channel_shuffle"
    signature = "channel_shuffle(Tensor input, int groups) -> Tensor"
    node = "ChannelShuffleBackward0"
    formula = call("groups")
    jvp = "linear"

    def forward(xp, x, groups):
        n, c, *rest = x.shape
        return xp.ascontiguousarray(xp.swapaxes(x.reshape((n, groups, c // groups) + tuple(rest)), 1, 2)).reshape(
            x.shape)

    def backward(F, ctx, g, groups):
        return (F.channel_shuffle(g, groups=ctx.shapes[0][1] // groups or 1),)  # (no channels: any groups)

    def call(input, groups):
        if input.array.ndim <= 2:
            raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes "
                               f"{list(input.array.shape)}")
        if groups <= 0:
            raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
        c = input.array.shape[1]
        if c % groups:
            raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels and {groups} "
                               f"groups.")
        return run_op(ChannelShuffle, (input,), {"groups": groups})


# ------------------------------------------------------------------ affine_grid and grid_sample

def _base_coords(xp, n, align_corners, dtype):
    """PyTorch's n sample positions in [-1, 1] (0 for one; pulled in by (n - 1) / n without align_corners)."""
    if n <= 1:
        return xp.zeros(n, dtype=dtype)
    line = xp.linspace(-1, 1, n, dtype=dtype)
    return line if align_corners else line * ((n - 1) / n)


def _base_grid(xp, spatial, align_corners, dtype):
    """(prod spatial, k + 1): every output position's (x, y[, z], 1), x along the last dim."""
    k = len(spatial)
    axes = xp.meshgrid(*(_base_coords(xp, n, align_corners, dtype) for n in spatial), indexing="ij")
    columns = [axes[k - 1 - d].reshape(-1) for d in range(k)] + [xp.ones(_product(spatial), dtype=dtype)]
    return xp.stack(columns, axis=-1)


class AffineGrid(Op):
    """The sampling grid (N, spatial..., k) of a batch of affine maps theta (N, k, k + 1): each output
    position's base coordinates (x, y[, z], 1) times theta^T. Linear in theta."""
    name = "affine_grid"
    names = ()
    node = "AffineGridGeneratorBackward0"
    formula = call("size", "align_corners")
    jvp = "linear"

    def forward(xp, theta, size, align_corners):
        spatial = tuple(size[2:])
        base = _base_grid(xp, spatial, align_corners, theta.dtype)
        return xp.matmul(base, xp.swapaxes(theta, -1, -2)).reshape((theta.shape[0],) + spatial + (len(spatial),))

    def backward(F, ctx, g, size, align_corners):
        spatial = tuple(size[2:])
        n, k = ctx.shapes[0][0], len(spatial)
        base = _base_grid(F.xp, spatial, align_corners, getattr(g, "array", g).dtype)
        if F.graph:
            base = F.make_tensor(base, F.device)
        gm = F.transpose(F.reshape(g, shape=(n, _product(spatial), k)), dim0=-1, dim1=-2)
        return (F.matmul(gm, base),)


_CUBIC_A = -0.75


def _cubic(t):
    """The bicubic convolution weights of the four taps floor(s) - 1 ... floor(s) + 2, t = s - floor(s)."""
    a, u = _CUBIC_A, 1 - t
    near = lambda v: ((a + 2) * v - (a + 3)) * v * v + 1            # noqa: E731  |v| <= 1
    far = lambda v: ((a * v - 5 * a) * v + 8 * a) * v - 4 * a       # noqa: E731  1 < |v| < 2
    return [far(t + 1), near(t), near(u), far(u + 1)]


def _cubic_slopes(t):
    """d/dt of _cubic's weights."""
    a, u = _CUBIC_A, 1 - t
    near = lambda v: (3 * (a + 2) * v - 2 * (a + 3)) * v           # noqa: E731
    far = lambda v: (3 * a * v - 10 * a) * v + 8 * a                # noqa: E731
    return [far(t + 1), near(t), -near(u), -far(u + 1)]


def _reflect(xp, s, low2, high2):
    """PyTorch's reflect_coordinates: s folded into [low2 / 2, high2 / 2], and the sign of ds'/ds."""
    if low2 == high2:
        return xp.zeros_like(s), xp.zeros_like(s)
    lo, span = low2 / 2, (high2 - low2) / 2
    sign = xp.where(s < lo, -1.0, 1.0)
    d = xp.abs(s - lo)
    extra, flips = xp.fmod(d, span), xp.floor(d / span)
    odd = flips % 2 == 1
    return xp.where(odd, span - extra + lo, extra + lo), xp.where(odd, -sign, sign)


def _pad_coordinates(xp, s, n, padding_mode, align_corners):
    """PyTorch's source index after padding (border: clipped; reflection: reflected, then clipped),
    and its derivative in s (0 where clipped, -1 where reflected an odd number of times)."""
    slope = xp.ones_like(s)
    if padding_mode == "reflection":
        s, slope = _reflect(xp, s, 0, 2 * (n - 1)) if align_corners else _reflect(xp, s, -1, 2 * n - 1)
    if padding_mode in ("border", "reflection"):
        inside = (s > 0) & (s < n - 1)
        s, slope = xp.clip(s, 0, n - 1), xp.where(inside, slope, 0.0)
    return s, slope


def _sample_taps(xp, grid, size, mode, padding_mode, align_corners):
    """Per spatial dim (x, y[, z] of the grid's last dim, dims -1, -2[, -3] of the input): the
    source coordinate's fraction t past its floor, ds/dgrid, and the taps (index, in bounds)."""
    taps = []
    for d, n in enumerate(reversed(size)):
        g = grid[..., d]
        s = ((g + 1) / 2) * (n - 1) if align_corners else ((g + 1) * n - 1) / 2
        scale = (n - 1) / 2 if align_corners else n / 2
        if mode == "bicubic":
            base = xp.floor(s)
            slope = xp.full(s.shape, scale, dtype=s.dtype)
            index = [base + i - 1 for i in range(4)]
            if padding_mode != "zeros":  # each tap's own index padded (PyTorch's get_value_bounded)
                index = [_pad_coordinates(xp, i, n, padding_mode, align_corners)[0] for i in index]
        else:
            s, pad_slope = _pad_coordinates(xp, s, n, padding_mode, align_corners)
            slope = pad_slope * scale
            base = xp.rint(s) if mode == "nearest" else xp.floor(s)
            index = [base] if mode == "nearest" else [base, base + 1]
        inside = [(i >= 0) & (i <= n - 1) for i in index]
        index = [xp.where(ok, i, 0).astype(xp.int64) for i, ok in zip(index, inside)]
        taps.append((s - base, slope, list(zip(index, inside))))
    return taps[::-1]  # in the input's dim order


def _weights(mode, t):
    return [1] if mode == "nearest" else [1 - t, t] if mode == "bilinear" else _cubic(t)


def _slopes(mode, t):
    return [-1, 1] if mode == "bilinear" else _cubic_slopes(t)


def _combinations(taps, size):
    """Every choice of one tap per dim: its per-dim tap numbers, flat index into the spatial dims, and mask."""
    for choice in itertools.product(*(range(len(dim_taps)) for _, _, dim_taps in taps)):
        flat, inside = 0, True
        for (_, _, dim_taps), n, c in zip(taps, size, choice):
            index, ok = dim_taps[c]
            flat, inside = flat * n + index, inside & ok
        yield choice, flat, inside


def _flat(shape, a):
    """(N, 1, P) from (N, out...) for a per-position array (P: the grid's positions)."""
    return a.reshape(shape[0], 1, _product(shape[1:-1]))


def _column(F, v, shape):
    """A per-position value as `shape` (N, 1, P): a number stays, a constant array is reshaped, a
    value of F's (which may be in the graph) goes through F.reshape."""
    if isinstance(v, (int, float)):
        return v
    return v.reshape(shape) if isinstance(v, F.xp.ndarray) else F.reshape(v, shape=shape)


def _grid_node(ctx):
    return f"GridSampler{ctx.shapes[1][-1]}DBackward0"


class GridSample(Op):
    """x (N, C, S...) sampled at grid (N, out..., k) (k = len(S), coordinates in [-1, 1], x first):
    each output the weighted sum of x at the taps around its source position -- nearest (one), bilinear
    (2^k) or bicubic (16, 2-d only) -- out-of-range taps zero or padded as `padding_mode` says.
    The gradient, written in table ops, scatters g back to x and differentiates the weights in the grid,
    so it has derivatives of every order."""
    name = "grid_sample"
    names = ()
    node = staticmethod(_grid_node)
    formula = call("mode", "padding_mode", "align_corners")
    saves = (0, 1)

    def forward(xp, x, grid, mode, padding_mode, align_corners):
        n, c, size = x.shape[0], x.shape[1], x.shape[2:]
        taps = _sample_taps(xp, grid, size, mode, padding_mode, align_corners)
        weights = [_weights(mode, t) for t, _, _ in taps]
        values = x.reshape(n, c, _product(size))
        out = xp.zeros((n, c) + (_product(grid.shape[1:-1]),), dtype=x.dtype)
        for choice, flat, inside in _combinations(taps, size):
            w = xp.ones(grid.shape[:-1], dtype=x.dtype)
            for dim_weights, k in zip(weights, choice):
                w = w * dim_weights[k]
            picked = xp.take_along_axis(values, xp.broadcast_to(_flat(grid.shape, flat), out.shape), axis=-1)
            out += xp.where(_flat(grid.shape, inside), picked * _flat(grid.shape, w), 0).astype(x.dtype, copy=False)
        return out.reshape((n, c) + grid.shape[1:-1])

    def backward(F, ctx, g, x, grid, mode, padding_mode, align_corners):
        xshape, gshape = tuple(ctx.shapes[0]), tuple(ctx.shapes[1])
        n, c, size, k = xshape[0], xshape[1], xshape[2:], gshape[-1]
        raw_grid = grid.array if F.graph else grid
        taps = _sample_taps(F.xp, raw_grid, size, mode, padding_mode, align_corners)
        # t as a function of the grid: its value here, its slope ds/dgrid (the floors are constants)
        ts = [F.getitem(grid, key=(Ellipsis, k - 1 - d)) * slope + (t - raw_grid[..., k - 1 - d] * slope)
              for d, (t, slope, _) in enumerate(taps)]
        positions = _product(gshape[1:-1])
        column = (n, 1, positions)
        # per dim and tap: its weight, and the weight's derivative in the grid (dw/dt ds/dgrid)
        weights = [[_column(F, w, column) for w in _weights(mode, t)] for t in ts]
        slopes = [[_column(F, v * slope, column) for v in _slopes(mode, t)] if mode != "nearest" else None
                  for t, (_, slope, _) in zip(ts, taps)]
        gm = F.reshape(g, shape=(n, c, positions))
        values = F.reshape(x, shape=(n, c, _product(size)))
        gx, per_dim = None, [None] * k
        for choice, flat, inside in _combinations(taps, size):
            index = F.xp.broadcast_to(_flat(gshape, flat), (n, c, positions))
            mask = F.xp.broadcast_to(_flat(gshape, inside), (n, c, positions))
            factors = [dim_weights[j] for dim_weights, j in zip(weights, choice)]
            if ctx.needs[0]:
                part = F.put_along(F.where(mask, gm * _product(factors), 0.0), indices=index, dim=2,
                                   shape=(n, c, _product(size)))
                gx = part if gx is None else gx + part
            if ctx.needs[1] and mode != "nearest":
                picked = F.sum(F.where(mask, gm * F.take_along(values, indices=index, dim=2), 0.0), dim=1,
                               keepdim=True)
                for d in range(k):
                    term = picked * slopes[d][choice[d]] * _product(f for e, f in enumerate(factors) if e != d)
                    per_dim[d] = term if per_dim[d] is None else per_dim[d] + term
        gx = F.reshape(gx, shape=xshape) if ctx.needs[0] else None
        ggrid = None
        if ctx.needs[1]:
            if mode == "nearest":
                ggrid = F.zeros_like(grid)
            else:  # the grid's last dim is x, y[, z]: the input's dims reversed
                ggrid = F.reshape(F.stack(*[per_dim[d] for d in reversed(range(k))], dim=-1), shape=gshape)
        return gx, ggrid


# ------------------------------------------------------------------ rrelu

class RRelu(Op):
    """x where x > 0, x * noise elsewhere: `noise` a number (eval: the mean slope (lower + upper) / 2)
    or an array of x's shape (training: slopes drawn in [lower, upper] where x <= 0, 1 elsewhere)."""
    name = "rrelu"
    names = ()
    node = staticmethod(lambda ctx: "RreluWithNoiseBackward1" if ctx.params.get("inplace") else
                        "RreluWithNoiseBackward0")
    formula = call()
    saves = (0,)
    saves_params = True

    def forward(xp, x, noise, inplace=False):
        return xp.where(x > 0, x, x * noise)

    def backward(F, ctx, g, x, noise, inplace=False):
        return (F.leaky_relu_backward(g, x, negative_slope=noise),)
