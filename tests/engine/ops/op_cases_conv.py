"""Op cases of the convolution rows (see tests/engine/ops/op_cases.py for what a case is): convolution
(conv1d, conv2d and their layers), max_pool, avg_pool, batch_norm, and the internal rows im2col
and col2im their gradients are made of. The numpy references are plain loops over windows,
written from the definitions, not from the engine's im2col."""
import itertools

import numpy as np

import autodiff.engine as ad
from op_cases import C, apply, distinct, gen_all

F = ad.nn.functional


# ------------------------------------------------------------ numpy references

def np_conv(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    """out[n, o, p...] = b[o] + sum over c in o's group and kernel offsets k of
    w[o, c, k] x_padded[n, g c, p s + k d]."""
    k = w.ndim - 2
    stride, padding, dilation = ((v,) * k if isinstance(v, int) else tuple(v) for v in (stride, padding, dilation))
    xp = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
    out = [(n - d * (kk - 1) - 1) // s + 1 for n, kk, s, d in zip(xp.shape[2:], w.shape[2:], stride, dilation)]
    o_per, c_per = w.shape[0] // groups, w.shape[1]
    y = np.zeros((x.shape[0], w.shape[0]) + tuple(out))
    for o in range(w.shape[0]):
        g = o // o_per
        for pos in itertools.product(*(range(n) for n in out)):
            for off in itertools.product(*(range(kk) for kk in w.shape[2:])):
                idx = tuple(p * s + q * d for p, s, q, d in zip(pos, stride, off, dilation))
                patch = xp[(slice(None), slice(g * c_per, (g + 1) * c_per)) + idx]
                y[(slice(None), o) + pos] += patch @ w[(o, slice(None)) + off]
        if b is not None:
            y[:, o] += b[o]
    return y


def _out2d(x, kernel, stride, padding, dilation, ceil_mode):
    """The number of windows along each of the last two dims (PyTorch's rule for ceil_mode)."""
    h, w = x.shape[-2:]
    sizes = []
    for n, k, s, p, d in zip((h, w), kernel, stride, padding, dilation):
        o = (n + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
        if ceil_mode and (o - 1) * s >= n + p:
            o -= 1
        sizes.append(o)
    return sizes


def np_max_pool(x, kernel, stride=None, padding=0, dilation=1, ceil_mode=False):
    kernel, stride, padding, dilation = (((v, v) if isinstance(v, int) else tuple(v))
                                         for v in (kernel, stride or kernel, padding, dilation))
    out = _out2d(x, kernel, stride, padding, dilation, ceil_mode)
    y = np.empty(x.shape[:-2] + tuple(out))
    for i, j in itertools.product(range(out[0]), range(out[1])):
        rows = [i * stride[0] - padding[0] + a * dilation[0] for a in range(kernel[0])]
        cols = [j * stride[1] - padding[1] + a * dilation[1] for a in range(kernel[1])]
        rows = [r for r in rows if 0 <= r < x.shape[-2]]
        cols = [c for c in cols if 0 <= c < x.shape[-1]]
        y[..., i, j] = x[..., rows, :][..., cols].max(axis=(-1, -2))
    return y


def np_avg_pool(x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor=None):
    kernel, stride, padding = (((v, v) if isinstance(v, int) else tuple(v)) for v in (kernel, stride or kernel, padding))
    out = _out2d(x, kernel, stride, padding, (1, 1), ceil_mode)
    y = np.empty(x.shape[:-2] + tuple(out))
    h, w = x.shape[-2:]
    for i, j in itertools.product(range(out[0]), range(out[1])):
        r0, c0 = i * stride[0] - padding[0], j * stride[1] - padding[1]
        r1, c1 = min(r0 + kernel[0], h + padding[0]), min(c0 + kernel[1], w + padding[1])
        padded_count = (r1 - r0) * (c1 - c0)
        r0, c0, r1, c1 = max(r0, 0), max(c0, 0), min(r1, h), min(c1, w)
        total = x[..., r0:r1, c0:c1].sum(axis=(-1, -2))
        y[..., i, j] = total / (divisor or (padded_count if count_include_pad else (r1 - r0) * (c1 - c0)))
    return y


def np_batch_norm(x, w=None, b=None, mean=None, var=None, eps=1e-5):
    axes = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    if mean is None:
        mean, var = x.mean(axis=axes), x.var(axis=axes)
    y = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps)
    if w is not None:
        y = y * w.reshape(shape)
    if b is not None:
        y = y + b.reshape(shape)
    return y


def np_im2col(x, kernel, stride, padding, dilation):
    k = len(kernel)
    xp = np.pad(x, [(0, 0)] * (x.ndim - k) + list(padding))
    out = [(n - d * (kk - 1) - 1) // s + 1 for n, kk, s, d in zip(xp.shape[x.ndim - k:], kernel, stride, dilation)]
    cols = np.empty(x.shape[:x.ndim - k] + tuple(kernel) + tuple(out))
    for off in itertools.product(*(range(kk) for kk in kernel)):
        for pos in itertools.product(*(range(n) for n in out)):
            idx = tuple(p * s + q * d for p, s, q, d in zip(pos, stride, off, dilation))
            cols[(Ellipsis,) + off + pos] = xp[(Ellipsis,) + idx]
    return cols


def np_col2im(cols, size, kernel, stride, padding, dilation):
    """The adjoint of np_im2col: <np_im2col(x), c> = <x, np_col2im(c)> for every x."""
    k = len(kernel)
    lead = cols.shape[:cols.ndim - 2 * k]
    x = np.zeros(lead + tuple(size))
    for i in np.ndindex(*size):
        e = np.zeros(tuple(size))
        e[i] = 1.0
        x[(Ellipsis,) + i] = (np_im2col(e, kernel, stride, padding, dilation) * cols).sum(
            axis=tuple(range(len(lead), cols.ndim)))
    return x


ND = "ConvolutionBackward0"

# ============================================================== convolution
C("convolution", "conv2d", lambda x, w, b: F.conv2d(x, w, b), [(2, 2, 4, 4), (3, 2, 2, 2), (3,)],
  lambda x, w, b: np_conv(x, w, b), ND)
C("convolution", "conv2d_no_bias_stride_padding", lambda x, w: F.conv2d(x, w, stride=2, padding=1),
  [(1, 2, 5, 4), (2, 2, 3, 2)], lambda x, w: np_conv(x, w, stride=2, padding=1), ND)
C("convolution", "conv2d_dilation_groups", lambda x, w, b: F.conv2d(x, w, b, dilation=(2, 1), groups=2, padding=(1, 0)),
  [(2, 4, 5, 3), (4, 2, 2, 2), (4,)], lambda x, w, b: np_conv(x, w, b, padding=(1, 0), dilation=(2, 1), groups=2), ND)
C("convolution", "conv2d_same_odd", lambda x, w: F.conv2d(x, w, padding="same"), [(1, 1, 4, 3), (2, 1, 3, 3)],
  lambda x, w: np_conv(x, w, padding=1), ND)
C("convolution", "conv2d_unbatched", lambda x, w, b: F.conv2d(x, w, b), [(2, 3, 3), (2, 2, 2, 2), (2,)],
  lambda x, w, b: np_conv(x[None], w, b)[0], "SqueezeBackward1")
C("convolution", "conv1d", lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=2, dilation=2), [(2, 3, 7), (2, 3, 3), (2,)],
  lambda x, w, b: np_conv(x, w, b, stride=2, padding=2, dilation=2), ND)
C("convolution", "conv1d_groups_no_bias", lambda x, w: F.conv1d(x, w, groups=3), [(1, 3, 5), (6, 1, 2)],
  lambda x, w: np_conv(x, w, groups=3), ND)
C("convolution", "conv2d_weight_only", lambda w: F.conv2d(ad.tensor(np.linspace(-1, 1, 32).reshape(1, 2, 4, 4)), w),
  [(2, 2, 3, 3)], lambda w: np_conv(np.linspace(-1, 1, 32).reshape(1, 2, 4, 4), w), ND)

# ============================================================== im2col, col2im (internal)
_P = dict(kernel=(2, 2), stride=(2, 1), padding=((1, 0), (0, 1)), dilation=(1, 2))
C("im2col", "2d", lambda x: apply("im2col", x, **_P), [(2, 1, 4, 4)], lambda x: np_im2col(x, **_P),
  "Im2ColBackward0", internal=True)
C("im2col", "1d", lambda x: apply("im2col", x, kernel=(3,), stride=(1,), padding=((1, 1),), dilation=(1,)), [(2, 5)],
  lambda x: np_im2col(x, (3,), (1,), ((1, 1),), (1,)), "Im2ColBackward0", internal=True)
C("col2im", "2d", lambda c: apply("col2im", c, size=(4, 4), **_P), [(2, 1, 2, 2, 2, 3)],
  lambda c: np_col2im(c, (4, 4), **_P), "Col2ImBackward0", internal=True)
C("col2im", "1d_overlapping", lambda c: apply("col2im", c, size=(5,), kernel=(3,), stride=(1,), padding=((1, 1),),
                                              dilation=(1,)),
  [(2, 3, 5)], lambda c: np_col2im(c, (5,), (3,), (1,), ((1, 1),), (1,)), "Col2ImBackward0", internal=True)


def np_unfold(x, kernel, dilation=(1, 1), padding=(0, 0), stride=(1, 1)):
    """F.unfold's layout of np_im2col: (lead..., C * kh * kw, L)."""
    cols = np_im2col(x, kernel, stride, tuple((p, p) for p in padding), dilation)
    return cols.reshape(cols.shape[:-5] + (-1, cols.shape[-2] * cols.shape[-1]))


def np_fold(c, size, kernel, dilation=(1, 1), padding=(0, 0), stride=(1, 1)):
    """F.fold: np_col2im of the columns in F.unfold's layout."""
    pads = tuple((p, p) for p in padding)
    out = np_im2col(np.zeros(size), kernel, stride, pads, dilation).shape[-2:]
    cols = c.reshape(c.shape[:-2] + (c.shape[-2] // (kernel[0] * kernel[1]),) + tuple(kernel) + out)
    return np_col2im(cols, size, kernel, stride, pads, dilation)


_U = dict(kernel=(2, 3), dilation=(1, 2), padding=(1, 0), stride=(2, 1))
C("im2col", "unfold", lambda x: F.unfold(x, (2, 3), (1, 2), (1, 0), (2, 1)), [(2, 2, 5, 6)],
  lambda x: np_unfold(x, **_U), "Im2ColBackward0")
C("im2col", "unfold_unbatched_int_args", lambda x: F.unfold(x, 2, padding=1), [(3, 3, 2)],
  lambda x: np_unfold(x, (2, 2), padding=(1, 1)), "Im2ColBackward0")
C("im2col", "unfold_layer", lambda x: ad.nn.Unfold(2, stride=2)(x), [(1, 2, 4, 4)],
  lambda x: np_unfold(x, (2, 2), stride=(2, 2)), "Im2ColBackward0")
C("col2im", "fold", lambda c: F.fold(c, (5, 6), (2, 3), (1, 2), (1, 0), (2, 1)), [(2, 12, 6)],
  lambda c: np_fold(c, (5, 6), **_U), "Col2ImBackward0")
C("col2im", "fold_unbatched_overlapping", lambda c: F.fold(c, 3, 2), [(8, 4)], lambda c: np_fold(c, (3, 3), (2, 2)),
  "Col2ImBackward0")
C("col2im", "fold_layer_padding", lambda c: ad.nn.Fold((4, 3), 3, padding=1, stride=(2, 1))(c), [(1, 9, 6)],
  lambda c: np_fold(c, (4, 3), (3, 3), padding=(1, 1), stride=(2, 1)), "Col2ImBackward0")

# ============================================================== pooling
MP = "MaxPool2DWithIndicesBackward0"
C("max_pool", "2x2", lambda x: F.max_pool2d(x, 2), [(2, 2, 4, 4)], lambda x: np_max_pool(x, 2), MP,
  gen=gen_all(distinct))
C("max_pool", "overlapping_padding_ceil", lambda x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True), [(1, 2, 6, 5)],
  lambda x: np_max_pool(x, 3, 2, 1, ceil_mode=True), MP, gen=gen_all(distinct))
C("max_pool", "dilation_unbatched", lambda x: F.max_pool2d(x, (2, 3), 1, (1, 0), dilation=(2, 1)), [(2, 5, 4)],
  lambda x: np_max_pool(x, (2, 3), 1, (1, 0), (2, 1)), MP, gen=gen_all(distinct))
AP = "AvgPool2DBackward0"
C("avg_pool", "2x2", lambda x: F.avg_pool2d(x, 2), [(2, 2, 4, 4)], lambda x: np_avg_pool(x, 2), AP)
C("avg_pool", "padding_ceil", lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True), [(1, 2, 6, 5)],
  lambda x: np_avg_pool(x, 3, 2, 1, ceil_mode=True), AP)
C("avg_pool", "exclude_pad_unbatched", lambda x: F.avg_pool2d(x, (2, 3), (1, 2), 1, count_include_pad=False),
  [(2, 4, 5)], lambda x: np_avg_pool(x, (2, 3), (1, 2), 1, count_include_pad=False), AP)
C("avg_pool", "divisor_override", lambda x: F.avg_pool2d(x, 2, 1, ceil_mode=True, divisor_override=3), [(1, 1, 3, 4)],
  lambda x: np_avg_pool(x, 2, 1, ceil_mode=True, divisor=3), AP)
C("avg_pool", "adaptive", lambda x: F.adaptive_avg_pool2d(x, (2, 3)), [(1, 2, 4, 6)],
  lambda x: np_avg_pool(x, (2, 2)), "AdaptiveAvgPool2DBackward0")

# ============================================================== batch_norm
BN = "NativeBatchNormBackward0"
C("batch_norm", "training_affine", lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
  [(3, 2, 2, 2), (2,), (2,)], lambda x, w, b: np_batch_norm(x, w, b), BN)
C("batch_norm", "training_1d_no_affine", lambda x: F.batch_norm(x, None, None, training=True, eps=0.1), [(4, 3)],
  lambda x: np_batch_norm(x, eps=0.1), BN)
C("batch_norm", "training_3d_weight_only", lambda x, w: F.batch_norm(x, None, None, w, training=True), [(2, 3, 3), (3,)],
  lambda x, w: np_batch_norm(x, w), BN)
_RM, _RV = np.array([0.5, -0.25]), np.array([2.0, 0.75])
C("batch_norm", "eval", lambda x, w, b: F.batch_norm(x, ad.tensor(_RM), ad.tensor(_RV), w, b), [(2, 2, 3), (2,), (2,)],
  lambda x, w, b: np_batch_norm(x, w, b, _RM, _RV), BN)
C("batch_norm", "eval_bias_only", lambda x, b: F.batch_norm(x, ad.tensor(_RM), ad.tensor(_RV), None, b, eps=0.5),
  [(3, 2), (2,)], lambda x, b: np_batch_norm(x, None, b, _RM, _RV, eps=0.5), BN)

# ============================================================== the poolings' gradients (internal rows)
_IDX = np.array([[[0, 3], [8, 6]]])  # flat positions in a 3x3 plane; windows may share one


def np_spread(g, shape, idx):
    out = np.zeros(shape[:-2] + (shape[-2] * shape[-1],))
    for pos in np.ndindex(*idx.shape):
        out[pos[:-2] + (idx[pos],)] += g[pos]
    return out.reshape(shape)


C("max_pool_backward", "spread", lambda g, x: apply("max_pool_backward", g, x, indices=_IDX), [(1, 2, 2), (1, 3, 3)],
  lambda g, x: np_spread(g, x.shape, _IDX), "MaxPool2DWithIndicesBackwardBackward0", internal=True)
_AVG = dict(kernel=(2, 2), stride=(1, 1), padding=((0, 0), (0, 0)), divisor=np.array([[4.0, 4.0], [4.0, 2.0]]))
C("avg_pool_backward", "spread", lambda g, x: apply("avg_pool_backward", g, x, **_AVG), [(2, 2, 2), (2, 3, 3)],
  lambda g, x: np_col2im(np.broadcast_to((g / _AVG["divisor"])[:, None, None], (2, 2, 2, 2, 2)), (3, 3), (2, 2),
                         (1, 1), ((0, 0), (0, 0)), (1, 1)),
  "AvgPool2DBackwardBackward0", internal=True)

# ======================================== adaptive_avg_pool2d to sizes that do not divide the input's


def _adaptive_windows(n, o):
    """Window i of o over n elements: [floor(i n / o), ceil((i + 1) n / o)), PyTorch's documented rule."""
    return [(i * n // o, -(-(i + 1) * n // o)) for i in range(o)]


def np_adaptive_avg(x, size):
    oh, ow = (n if o is None else o for n, o in zip(x.shape[-2:], size))
    y = np.empty(x.shape[:-2] + (oh, ow))
    for (i, (r0, r1)), (j, (c0, c1)) in itertools.product(enumerate(_adaptive_windows(x.shape[-2], oh)),
                                                          enumerate(_adaptive_windows(x.shape[-1], ow))):
        y[..., i, j] = x[..., r0:r1, c0:c1].mean(axis=(-1, -2))
    return y


def np_adaptive_spread(g, size):
    out = np.zeros(g.shape[:-2] + tuple(size))
    for (i, (r0, r1)), (j, (c0, c1)) in itertools.product(enumerate(_adaptive_windows(size[0], g.shape[-2])),
                                                          enumerate(_adaptive_windows(size[1], g.shape[-1]))):
        out[..., r0:r1, c0:c1] += g[..., i, j][..., None, None] / ((r1 - r0) * (c1 - c0))
    return out


AAP = "AdaptiveAvgPool2DBackward0"
C("adaptive_avg_pool", "unequal_windows", lambda x: F.adaptive_avg_pool2d(x, (3, 4)), [(2, 5, 7)],
  lambda x: np_adaptive_avg(x, (3, 4)), AAP)
C("adaptive_avg_pool", "one_size_kept", lambda x: F.adaptive_avg_pool2d(x, (None, 3)), [(1, 2, 3, 5)],
  lambda x: np_adaptive_avg(x, (None, 3)), AAP)
C("adaptive_avg_pool", "larger_output", lambda x: F.adaptive_avg_pool2d(x, (4, 3)), [(1, 1, 3, 2)],
  lambda x: np_adaptive_avg(x, (4, 3)), AAP)
C("adaptive_avg_pool", "layer", lambda x: ad.nn.AdaptiveAvgPool2d((2, 3))(x), [(1, 3, 5, 4)],
  lambda x: np_adaptive_avg(x, (2, 3)), AAP)
C("adaptive_avg_pool_backward", "spread", lambda g, x: apply("adaptive_avg_pool_backward", g, x),
  [(2, 3, 4), (2, 5, 7)], lambda g, x: np_adaptive_spread(g, x.shape[-2:]), "AdaptiveAvgPool2DBackwardBackward0",
  internal=True)


# ======================================== adaptive poolings of 1 and 3 dims, adaptive max pooling

def np_adaptive(x, size, reduce):
    """`reduce` (np.mean, np.max) of each of PyTorch's adaptive windows over the last len(size) dims."""
    k = len(size)
    size = tuple(n if o is None else o for n, o in zip(x.shape[-k:], size))
    spans = [_adaptive_windows(n, o) for n, o in zip(x.shape[-k:], size)]
    y = np.empty(x.shape[:-k] + size)
    for pos in itertools.product(*(range(o) for o in size)):
        window = x[(Ellipsis,) + tuple(slice(*spans[d][p]) for d, p in enumerate(pos))]
        y[(Ellipsis,) + pos] = reduce(window.reshape(window.shape[:-k] + (-1,)), axis=-1)
    return y


AAP3 = "AdaptiveAvgPool3DBackward0"
C("adaptive_avg_pool", "3d_unequal", lambda x: F.adaptive_avg_pool3d(x, (2, 3, 2)), [(1, 2, 3, 5, 4)],
  lambda x: np_adaptive(x, (2, 3, 2), np.mean), AAP3)
C("adaptive_avg_pool", "3d_layer_unbatched_none", lambda x: ad.nn.AdaptiveAvgPool3d((None, 2, 3))(x), [(2, 3, 4, 5)],
  lambda x: np_adaptive(x, (None, 2, 3), np.mean), AAP3)
C("adaptive_avg_pool", "1d", lambda x: F.adaptive_avg_pool1d(x, 3), [(2, 3, 7)],
  lambda x: np_adaptive(x, (3,), np.mean), "SqueezeBackward1")
C("adaptive_avg_pool", "1d_layer_unbatched", lambda x: ad.nn.AdaptiveAvgPool1d((4,))(x), [(2, 6)],
  lambda x: np_adaptive(x, (4,), np.mean), "SqueezeBackward1")
C("adaptive_avg_pool_backward", "spread_3d", lambda g, x: apply("adaptive_avg_pool_backward", g, x, dims=3),
  [(1, 2, 3, 2), (1, 3, 5, 4)], lambda g, x: np_adaptive_spread_3d(g, x.shape[-3:]),
  "AdaptiveAvgPool3DBackwardBackward0", internal=True)


def np_adaptive_spread_3d(g, size):
    """Each window's share of g (g / its size) added back over it."""
    spans = [_adaptive_windows(n, o) for n, o in zip(size, g.shape[-3:])]
    out = np.zeros(g.shape[:-3] + tuple(size))
    for pos in itertools.product(*(range(o) for o in g.shape[-3:])):
        box = tuple(slice(*spans[d][p]) for d, p in enumerate(pos))
        count = np.prod([s.stop - s.start for s in box])
        out[(Ellipsis,) + box] += g[(Ellipsis,) + pos][..., None, None, None] / count
    return out


AMP = "AdaptiveMaxPool2DBackward0"
C("max_pool", "adaptive_max_pool2d", lambda x: F.adaptive_max_pool2d(x, (3, 4)), [(2, 2, 5, 7)],
  lambda x: np_adaptive(x, (3, 4), np.max), AMP, gen=gen_all(distinct))
C("max_pool", "adaptive_max_pool2d_layer_none", lambda x: ad.nn.AdaptiveMaxPool2d((None, 3), True)(x)[0], [(2, 4, 5)],
  lambda x: np_adaptive(x, (None, 3), np.max), AMP, gen=gen_all(distinct))
C("max_pool", "adaptive_max_pool3d", lambda x: F.adaptive_max_pool3d(x, (2, 3, 2)), [(1, 2, 3, 5, 4)],
  lambda x: np_adaptive(x, (2, 3, 2), np.max), "AdaptiveMaxPool3DBackward0", gen=gen_all(distinct))
C("max_pool", "adaptive_max_pool3d_layer_unbatched", lambda x: ad.nn.AdaptiveMaxPool3d((None, 2, 3))(x), [(2, 3, 4, 5)],
  lambda x: np_adaptive(x, (None, 2, 3), np.max), "AdaptiveMaxPool3DBackward0", gen=gen_all(distinct))
C("max_pool", "adaptive_max_pool1d", lambda x: F.adaptive_max_pool1d(x, 3), [(2, 3, 7)],
  lambda x: np_adaptive(x, (3,), np.max), "SqueezeBackward1", gen=gen_all(distinct))
C("max_pool_backward", "adaptive", lambda g, x: apply("max_pool_backward", g, x, indices=_IDX, adaptive=True),
  [(1, 2, 2), (1, 3, 3)], lambda g, x: np_spread(g, x.shape, _IDX), "AdaptiveMaxPool2DBackwardBackward0", internal=True)
C("max_pool_backward", "adaptive_3d", lambda g, x: apply("max_pool_backward", g, x, indices=_IDX[None], adaptive=True,
                                                         dims=3),
  [(1, 1, 2, 2), (1, 1, 3, 3)], lambda g, x: np_spread(g, x.shape, _IDX[None]), "AdaptiveMaxPool3DBackwardBackward0",
  internal=True)


# ======================================== conv3d, max_pool3d, avg_pool3d

def _out_nd(size, kernel, stride, padding, dilation, ceil_mode):
    """The number of windows along each dim (PyTorch's rule for ceil_mode)."""
    sizes = []
    for n, k, s, p, d in zip(size, kernel, stride, padding, dilation):
        o = (n + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
        if ceil_mode and (o - 1) * s >= n + p:
            o -= 1
        sizes.append(o)
    return sizes


def np_pool3d(x, kernel, stride, padding=(0, 0, 0), dilation=(1, 1, 1), ceil_mode=False, reduce="max",
              count_include_pad=True):
    """The max, or the mean, of each window over the last three dims (padding never counted by max;
    for the mean, counted up to the padded edge when count_include_pad)."""
    size = x.shape[-3:]
    out = _out_nd(size, kernel, stride, padding, dilation, ceil_mode)
    y = np.empty(x.shape[:-3] + tuple(out))
    for pos in itertools.product(*(range(o) for o in out)):
        axes = [[q * s - p + a * d for a in range(k)] for q, s, p, d, k in zip(pos, stride, padding, dilation, kernel)]
        inside = [[i for i in ax if 0 <= i < n] for ax, n in zip(axes, size)]
        window = x[..., inside[0], :, :][..., inside[1], :][..., inside[2]]
        if reduce == "max":
            y[(Ellipsis,) + pos] = window.max(axis=(-1, -2, -3))
        else:
            spans = [min(ax[-1] + 1, n + p) - ax[0] for ax, n, p in zip(axes, size, padding)]
            count = np.prod(spans) if count_include_pad else np.prod(window.shape[-3:])
            y[(Ellipsis,) + pos] = window.sum(axis=(-1, -2, -3)) / count
    return y


C("convolution", "conv3d", lambda x, w, b: F.conv3d(x, w, b, stride=(1, 2, 1), padding=1), [(2, 2, 3, 4, 3),
                                                                                          (3, 2, 2, 2, 2), (3,)],
  lambda x, w, b: np_conv(x, w, b, stride=(1, 2, 1), padding=1), ND)
C("convolution", "conv3d_groups_dilation_layer_unbatched",
  lambda x, w: F.conv3d(x, w, groups=2, dilation=(2, 1, 1)), [(4, 4, 3, 3), (2, 2, 2, 2, 1)],
  lambda x, w: np_conv(x[None], w, groups=2, dilation=(2, 1, 1))[0], "SqueezeBackward1")
MP3 = "MaxPool3DWithIndicesBackward0"
C("max_pool", "max_pool3d", lambda x: F.max_pool3d(x, 2), [(2, 2, 4, 4, 5)],
  lambda x: np_pool3d(x, (2, 2, 2), (2, 2, 2)), MP3, gen=gen_all(distinct))
C("max_pool", "max_pool3d_overlapping_padding_ceil_dilation",
  lambda x: F.max_pool3d(x, (3, 2, 2), (2, 1, 2), (1, 0, 1), dilation=(1, 2, 1), ceil_mode=True), [(1, 2, 5, 5, 4)],
  lambda x: np_pool3d(x, (3, 2, 2), (2, 1, 2), (1, 0, 1), (1, 2, 1), True), MP3, gen=gen_all(distinct))
C("max_pool", "max_pool3d_layer_unbatched", lambda x: ad.nn.MaxPool3d(2, 1)(x), [(2, 3, 3, 3)],
  lambda x: np_pool3d(x, (2, 2, 2), (1, 1, 1)), MP3, gen=gen_all(distinct))
C("max_pool_backward", "3d", lambda g, x: apply("max_pool_backward", g, x, indices=_IDX[None], dims=3),
  [(1, 1, 2, 2), (1, 1, 3, 3)], lambda g, x: np_spread(g, x.shape, _IDX[None]),
  "MaxPool3DWithIndicesBackwardBackward0", internal=True)
AP3 = "AvgPool3DBackward0"
C("avg_pool", "avg_pool3d", lambda x: F.avg_pool3d(x, 2), [(2, 2, 4, 4, 5)],
  lambda x: np_pool3d(x, (2, 2, 2), (2, 2, 2), reduce="mean"), AP3)
C("avg_pool", "avg_pool3d_padding_ceil", lambda x: F.avg_pool3d(x, (3, 2, 2), (2, 1, 2), (1, 0, 1), ceil_mode=True),
  [(1, 2, 5, 4, 4)], lambda x: np_pool3d(x, (3, 2, 2), (2, 1, 2), (1, 0, 1), ceil_mode=True, reduce="mean"), AP3)
C("avg_pool", "avg_pool3d_exclude_pad_layer", lambda x: ad.nn.AvgPool3d(2, 1, 1, count_include_pad=False)(x),
  [(2, 3, 2, 3)], lambda x: np_pool3d(x, (2, 2, 2), (1, 1, 1), (1, 1, 1), reduce="mean", count_include_pad=False),
  AP3)
C("avg_pool", "avg_pool3d_divisor_override", lambda x: F.avg_pool3d(x, 2, 1, divisor_override=3), [(1, 1, 3, 3, 2)],
  lambda x: np_pool3d(x, (2, 2, 2), (1, 1, 1), reduce="mean") * 8 / 3, AP3)


# ------------------------------------------------------------ max_unpool

def np_unpool(x, indices, size):
    """Zeros of spatial `size` with each value of x written at its flat index in its plane."""
    k = len(size)
    lead = x.shape[:x.ndim - k]
    out = np.zeros(lead + (int(np.prod(size)),))
    for pos in itertools.product(*(range(n) for n in x.shape)):
        out[pos[:len(lead)] + (indices[pos],)] = x[pos]
    return out.reshape(lead + tuple(size))


def unpool_indices(size, window):
    """Inputs and distinct flat indices, one inside each window of `window` cells: what a max
    pooling of an input of spatial `size` returns."""
    def gen(rng, shapes):
        x = rng.standard_normal(shapes[0])
        k = len(size)
        spatial = shapes[0][len(shapes[0]) - k:]
        index = np.zeros(shapes[0], dtype=np.int64)
        for pos in itertools.product(*(range(n) for n in shapes[0])):
            cell = [p * w + rng.integers(w) for p, w in zip(pos[-k:], window)]
            index[pos] = np.ravel_multi_index(cell, size)
        assert all(n * w <= s for n, w, s in zip(spatial, window, size))
        return [x, index]
    return gen


C("max_unpool", "max_unpool2d", lambda x, i: F.max_unpool2d(x, i, 2), [(2, 2, 2, 3), (2, 2, 2, 3)],
  lambda x, i: np_unpool(x, i, (4, 6)), "MaxUnpool2DBackward0", gen=unpool_indices((4, 6), (2, 2)))
C("max_unpool", "max_unpool2d_output_size_unbatched_layer",
  lambda x, i: ad.nn.MaxUnpool2d(2)(x, i, output_size=[5, 7]), [(2, 2, 3), (2, 2, 3)],
  lambda x, i: np_unpool(x, i, (5, 7)), "MaxUnpool2DBackward0", gen=unpool_indices((5, 7), (2, 2)))
C("max_unpool", "max_unpool1d", lambda x, i: F.max_unpool1d(x, i, 3, stride=2, padding=1), [(2, 3, 4), (2, 3, 4)],
  lambda x, i: np_unpool(x, i, (7,)), "SqueezeBackward1", gen=unpool_indices((7,), (1,)))
C("max_unpool", "max_unpool1d_layer", lambda x, i: ad.nn.MaxUnpool1d(2)(x, i), [(3, 3), (3, 3)],
  lambda x, i: np_unpool(x, i, (6,)), "SqueezeBackward1", gen=unpool_indices((6,), (2,)))
C("max_unpool", "max_unpool3d", lambda x, i: F.max_unpool3d(x, i, 2), [(1, 2, 2, 1, 2), (1, 2, 2, 1, 2)],
  lambda x, i: np_unpool(x, i, (4, 2, 4)), "MaxUnpool3DBackward0", gen=unpool_indices((4, 2, 4), (2, 2, 2)))
C("max_unpool", "max_unpool3d_layer_unbatched", lambda x, i: ad.nn.MaxUnpool3d((1, 2, 2))(x, i),
  [(2, 2, 2, 1), (2, 2, 2, 1)],
  lambda x, i: np_unpool(x, i, (2, 4, 2)), "MaxUnpool3DBackward0", gen=unpool_indices((2, 4, 2), (1, 2, 2)))
