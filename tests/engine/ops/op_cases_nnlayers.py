"""Op cases of the rows behind interpolate, conv_transpose1d/2d and group_norm (engine/ops/nnlayers.py),
and of the functions composed from other rows as PyTorch composes them: max_pool1d and avg_pool1d
(the 2-d poolings' rows under a squeeze), instance_norm (batch_norm's row under a view) and
rms_norm (mul). See tests/engine/ops/op_cases.py for what a case is.

The numpy references are loops over output positions written from the definitions (PyTorch's
documented source-index rules for interpolation; the scatter definition of a transposed
convolution), not from the engine's taps or col2im."""
import itertools
import math

import numpy as np

import autodiff.engine as ad
from op_cases import C, apply, away, distinct, gen_all, gen_each, uniform

F = ad.nn.functional


# ------------------------------------------------------------ numpy references

def _src_linear(j, n, o, scale, align_corners):
    """The real source coordinate of output j (PyTorch's area_pixel_compute_source_index)."""
    if align_corners:
        return j * ((n - 1) / (o - 1) if o > 1 else 0.0)
    step = 1.0 / scale if scale else n / o
    return max(step * (j + 0.5) - 0.5, 0.0)


def np_interp_1d(x, axis, o, mode, scale=None, align_corners=False):
    """x resized to o along `axis`, one output position at a time."""
    n = x.shape[axis]
    x = np.moveaxis(x, axis, -1)
    y = np.empty(x.shape[:-1] + (o,))
    for j in range(o):
        if mode in ("nearest", "nearest-exact"):
            step = np.float32(1.0 / scale) if scale else np.float32(n) / np.float32(o)
            shift = 0.5 if mode == "nearest-exact" else 0.0
            i = min(int(math.floor(np.float32(j + shift) * step)), n - 1)
            y[..., j] = x[..., i]
        elif mode == "cubic":
            y[..., j] = _np_cubic_at(x, j, n, o, scale, align_corners)
        else:
            src = _src_linear(j, n, o, scale, align_corners)
            i0 = int(src)
            i1 = min(i0 + 1, n - 1)
            t = src - i0
            y[..., j] = (1 - t) * x[..., i0] + t * x[..., i1]
    return np.moveaxis(y, -1, axis)


def _np_cubic_at(x, j, n, o, scale, align_corners):
    """Keys' cubic convolution (a = -0.75) at output j from the four inputs around its source,
    positions past the ends reading the end value."""
    if align_corners:
        src = j * ((n - 1) / (o - 1) if o > 1 else 0.0)
    else:
        src = (1.0 / scale if scale else n / o) * (j + 0.5) - 0.5
    base = min(int(math.floor(src)), n - 1)
    t = min(max(src - base, 0.0), 1.0)
    a = -0.75

    def kernel(d):
        d = abs(d)
        if d <= 1:
            return (a + 2) * d ** 3 - (a + 3) * d ** 2 + 1
        return a * d ** 3 - 5 * a * d ** 2 + 8 * a * d - 4 * a if d < 2 else 0.0

    return sum(kernel(t - i) * x[..., min(max(base + i, 0), n - 1)] for i in (-1, 0, 1, 2))


def np_interp(x, out, mode, scales=None, align_corners=False):
    k = len(out)
    scales = scales or [None] * k
    for d in range(k):
        x = np_interp_1d(x, x.ndim - k + d, out[d], mode, scales[d], align_corners)
    return x


def np_conv_transpose(x, w, b=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Each input value x[n, c, i...] adds x * w[c, o, k...] at output position i s + k d - p."""
    k = w.ndim - 2
    stride, padding, output_padding, dilation = (
        (v,) * k if isinstance(v, int) else tuple(v) for v in (stride, padding, output_padding, dilation))
    cin, opg = w.shape[0], w.shape[1]
    cpg = cin // groups
    size = [(i - 1) * s - 2 * p + d * (kk - 1) + op + 1
            for i, s, p, d, kk, op in zip(x.shape[2:], stride, padding, dilation, w.shape[2:], output_padding)]
    y = np.zeros((x.shape[0], opg * groups) + tuple(size))
    for c in range(cin):
        g = c // cpg
        for pos in itertools.product(*(range(n) for n in x.shape[2:])):
            for off in itertools.product(*(range(kk) for kk in w.shape[2:])):
                at = tuple(i * s + q * d - p for i, s, q, d, p in zip(pos, stride, off, dilation, padding))
                if all(0 <= a < n for a, n in zip(at, size)):
                    for o in range(opg):
                        y[(slice(None), g * opg + o) + at] += x[(slice(None), c) + pos] * w[(c, o) + off]
    if b is not None:
        y += b.reshape((1, -1) + (1,) * k)
    return y


def np_group_norm(x, groups, w=None, b=None, eps=1e-5):
    n, c = x.shape[:2]
    y = np.empty_like(x)
    for i in range(n):
        for g in range(groups):
            part = x[i, g * (c // groups):(g + 1) * (c // groups)]
            y[i, g * (c // groups):(g + 1) * (c // groups)] = (part - part.mean()) / np.sqrt(part.var() + eps)
    shape = (1, c) + (1,) * (x.ndim - 2)
    if w is not None:
        y = y * w.reshape(shape)
    if b is not None:
        y = y + b.reshape(shape)
    return y


def np_instance_norm(x, w=None, b=None, mean=None, var=None, eps=1e-5):
    n, c = x.shape[:2]
    y = np.empty_like(x)
    for i in range(n):
        for j in range(c):
            m, v = (x[i, j].mean(), x[i, j].var()) if mean is None else (mean[j], var[j])
            y[i, j] = (x[i, j] - m) / np.sqrt(v + eps)
    shape = (1, c) + (1,) * (x.ndim - 2)
    if w is not None:
        y = y * w.reshape(shape)
    if b is not None:
        y = y + b.reshape(shape)
    return y


def np_rms_norm(x, k, w=None, eps=None):
    eps = np.finfo(x.dtype).eps if eps is None else eps
    axes = tuple(range(x.ndim - k, x.ndim))
    y = x / np.sqrt((x * x).mean(axis=axes, keepdims=True) + eps)
    return y if w is None else y * w


def _pool_windows(n, k, s, p, d, ceil_mode):
    o = (n + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (o - 1) * s >= n + p:
        o -= 1
    return o


def np_max_pool1d(x, k, s=None, p=0, d=1, ceil_mode=False):
    s = s or k
    n = x.shape[-1]
    o = _pool_windows(n, k, s, p, d, ceil_mode)
    y = np.empty(x.shape[:-1] + (o,))
    for j in range(o):
        idx = [j * s - p + a * d for a in range(k)]
        y[..., j] = x[..., [i for i in idx if 0 <= i < n]].max(axis=-1)
    return y


def np_avg_pool1d(x, k, s=None, p=0, ceil_mode=False, count_include_pad=True):
    s = s or k
    n = x.shape[-1]
    o = _pool_windows(n, k, s, p, 1, ceil_mode)
    y = np.empty(x.shape[:-1] + (o,))
    for j in range(o):
        lo, hi = j * s - p, min(j * s - p + k, n + p)
        count = hi - lo
        lo, hi = max(lo, 0), min(hi, n)
        y[..., j] = x[..., lo:hi].sum(axis=-1) / (count if count_include_pad else hi - lo)
    return y


# ============================================================== interpolate (upsample)
C("upsample", "nearest_1d_scale", lambda x: F.interpolate(x, scale_factor=2), [(2, 3, 4)],
  lambda x: np_interp(x, [8], "nearest", [2.0]), "UpsampleNearest1DBackward0")
C("upsample", "nearest_1d_down_size", lambda x: F.interpolate(x, size=3), [(1, 2, 7)],
  lambda x: np_interp(x, [3], "nearest"), "UpsampleNearest1DBackward0")
C("upsample", "nearest_2d_fraction", lambda x: F.interpolate(x, scale_factor=(1.7, 0.6)), [(1, 2, 3, 5)],
  lambda x: np_interp(x, [5, 3], "nearest", [1.7, 0.6]), "UpsampleNearest2DBackward0")
C("upsample", "nearest_exact_1d", lambda x: F.interpolate(x, size=7, mode="nearest-exact"), [(2, 1, 5)],
  lambda x: np_interp(x, [7], "nearest-exact"), "UpsampleNearestExact1DBackward0")
C("upsample", "nearest_3d", lambda x: F.interpolate(x, size=(3, 2, 4)), [(1, 1, 2, 3, 2)],
  lambda x: np_interp(x, [3, 2, 4], "nearest"), "UpsampleNearest3DBackward0")
C("upsample", "linear_size", lambda x: F.interpolate(x, size=7, mode="linear"), [(2, 3, 4)],
  lambda x: np_interp(x, [7], "linear"), "UpsampleLinear1DBackward0")
C("upsample", "linear_down_scale", lambda x: F.interpolate(x, scale_factor=0.6, mode="linear"), [(1, 2, 7)],
  lambda x: np_interp(x, [4], "linear", [0.6]), "UpsampleLinear1DBackward0")
C("upsample", "linear_align_corners", lambda x: F.interpolate(x, size=6, mode="linear", align_corners=True),
  [(1, 2, 4)], lambda x: np_interp(x, [6], "linear", align_corners=True), "UpsampleLinear1DBackward0")
C("upsample", "linear_align_corners_to_one", lambda x: F.interpolate(x, size=1, mode="linear", align_corners=True),
  [(1, 2, 4)], lambda x: np_interp(x, [1], "linear", align_corners=True), "UpsampleLinear1DBackward0")
C("upsample", "linear_recompute_scale", lambda x: F.interpolate(x, scale_factor=2.3, mode="linear",
                                                                recompute_scale_factor=True),
  [(1, 1, 3)], lambda x: np_interp(x, [6], "linear"), "UpsampleLinear1DBackward0")
C("upsample", "bilinear_size", lambda x: F.interpolate(x, size=(5, 3), mode="bilinear"), [(2, 2, 3, 4)],
  lambda x: np_interp(x, [5, 3], "linear"), "UpsampleBilinear2DBackward0")
C("upsample", "bilinear_scale_align_corners",
  lambda x: F.interpolate(x, scale_factor=(1.5, 2), mode="bilinear", align_corners=True), [(1, 2, 4, 3)],
  lambda x: np_interp(x, [6, 6], "linear", align_corners=True), "UpsampleBilinear2DBackward0")
C("upsample", "bilinear_unbatched_layer", lambda x: ad.nn.Upsample(scale_factor=1.5, mode="bilinear")(x),
  [(1, 3, 4, 2)], lambda x: np_interp(x, [6, 3], "linear", [1.5, 1.5]), "UpsampleBilinear2DBackward0")
C("upsample", "bicubic", lambda x: F.interpolate(x, size=(5, 3), mode="bicubic"), [(1, 2, 3, 4)],
  lambda x: np_interp(x, [5, 3], "cubic"), "UpsampleBicubic2DBackward0")
C("upsample", "bicubic_align_corners", lambda x: F.interpolate(x, scale_factor=(2, 0.5), mode="bicubic",
                                                               align_corners=True),
  [(1, 1, 3, 4)], lambda x: np_interp(x, [6, 2], "cubic", align_corners=True), "UpsampleBicubic2DBackward0")
C("upsample", "trilinear", lambda x: F.interpolate(x, size=(3, 2, 5), mode="trilinear"), [(1, 1, 2, 3, 3)],
  lambda x: np_interp(x, [3, 2, 5], "linear"), "UpsampleTrilinear3DBackward0")

_TAPS = ((np.array([0, 0, 1, 2]), np.array([1.0, 0.75, 0.5, 0.0])), (np.array([1, 1, 2, 2]), np.array([0.0, 0.25, 0.5, 1.0])))


def np_upsample_backward(g, n, taps):
    out = np.zeros(g.shape[:-1] + (n,))
    for j in range(g.shape[-1]):
        for index, weight in taps:
            out[..., index[j]] += g[..., j] * weight[j]
    return out


C("upsample_backward", "linear_taps", lambda g: apply("upsample_backward", g, size=(3,), taps=(_TAPS,), kind="Linear"),
  [(2, 1, 4)], lambda g: np_upsample_backward(g, 3, _TAPS), "UpsampleLinear1DBackwardBackward0", internal=True)
def _np_nearest_back(g):
    """Output (i, j) read input (rows[i], cols[j]): its gradient goes back there."""
    out = np.zeros(g.shape[:-2] + (2, 3))
    rows, cols = [0, 1, 1], [2, 0]
    for i in range(3):
        for j in range(2):
            out[..., rows[i], cols[j]] += g[..., i, j]
    return out


C("upsample_backward", "nearest_taps",
  lambda g: apply("upsample_backward", g, size=(2, 3), taps=(((np.array([0, 1, 1]), None),),
                                                              ((np.array([2, 0]), None),)), kind="Nearest"),
  [(1, 1, 3, 2)], lambda g: _np_nearest_back(g), "UpsampleNearest2DBackwardBackward0", internal=True)


# ============================================================== conv_transpose
CT = "ConvolutionBackward0"
C("conv_transpose", "1d", lambda x, w, b: F.conv_transpose1d(x, w, b), [(2, 3, 4), (3, 2, 3), (2,)],
  lambda x, w, b: np_conv_transpose(x, w, b), CT)
C("conv_transpose", "1d_stride_padding_output_padding",
  lambda x, w, b: F.conv_transpose1d(x, w, b, stride=2, padding=1, output_padding=1), [(1, 2, 4), (2, 3, 3), (3,)],
  lambda x, w, b: np_conv_transpose(x, w, b, 2, 1, 1), CT)
C("conv_transpose", "1d_groups_dilation",
  lambda x, w: F.conv_transpose1d(x, w, stride=3, padding=2, output_padding=2, groups=2, dilation=2),
  [(2, 4, 3), (4, 1, 3)], lambda x, w: np_conv_transpose(x, w, None, 3, 2, 2, 2, 2), CT)
C("conv_transpose", "1d_output_padding_past_padding",
  lambda x, w: F.conv_transpose1d(x, w, output_padding=2, dilation=3), [(1, 2, 3), (2, 1, 2)],
  lambda x, w: np_conv_transpose(x, w, None, 1, 0, 2, 1, 3), CT)
C("conv_transpose", "1d_unbatched", lambda x, w: F.conv_transpose1d(x, w, stride=2), [(2, 3), (2, 2, 2)],
  lambda x, w: np_conv_transpose(x[None], w, stride=2)[0], "SqueezeBackward1")
C("conv_transpose", "2d", lambda x, w, b: F.conv_transpose2d(x, w, b, stride=(2, 1), padding=(1, 0),
                                                             output_padding=(1, 0)),
  [(1, 2, 3, 3), (2, 2, 3, 2), (2,)], lambda x, w, b: np_conv_transpose(x, w, b, (2, 1), (1, 0), (1, 0)), CT)
C("conv_transpose", "2d_groups_dilation", lambda x, w: F.conv_transpose2d(x, w, stride=2, padding=1, dilation=(1, 2),
                                                                          groups=2),
  [(1, 4, 2, 3), (4, 1, 2, 2)], lambda x, w: np_conv_transpose(x, w, None, 2, 1, 0, 2, (1, 2)), CT)
C("conv_transpose", "2d_layer_output_size", lambda x, w, b: _layer(w, b)(x, output_size=(6, 5)),
  [(1, 2, 3, 2), (2, 1, 2, 2), (1,)], lambda x, w, b: np_conv_transpose(x, w, b, 2, 0, (0, 1)), CT)
C("conv_transpose", "2d_weight_only", lambda w: F.conv_transpose2d(ad.tensor(np.linspace(-1, 1, 18).reshape(1, 2, 3, 3)),
                                                                   w, padding=1),
  [(2, 3, 2, 2)], lambda w: np_conv_transpose(np.linspace(-1, 1, 18).reshape(1, 2, 3, 3), w, padding=1), CT)


def _layer(w, b):
    m = ad.nn.ConvTranspose2d(2, 1, 2, stride=2).double()
    del m.weight, m.bias  # the case's own tensors instead, so the check differentiates with respect to them
    m.weight, m.bias = w, b
    return m


# ============================================================== group_norm
GN = "NativeGroupNormBackward0"
C("group_norm", "affine", lambda x, w, b: F.group_norm(x, 2, w, b), [(2, 4, 3), (4,), (4,)],
  lambda x, w, b: np_group_norm(x, 2, w, b), GN)
C("group_norm", "no_affine_4d_eps", lambda x: F.group_norm(x, 3, eps=0.1), [(2, 6, 2, 2)],
  lambda x: np_group_norm(x, 3, eps=0.1), GN)
C("group_norm", "one_group_2d_weight_only", lambda x, w: F.group_norm(x, 1, w), [(3, 4), (4,)],
  lambda x, w: np_group_norm(x, 1, w), GN)
C("group_norm", "per_channel_bias_only", lambda x, b: F.group_norm(x, 3, None, b), [(2, 3, 4), (3,)],
  lambda x, b: np_group_norm(x, 3, None, b), GN)
C("group_norm", "layer", lambda x: ad.nn.GroupNorm(2, 4).double()(x), [(1, 4, 2, 3)],
  lambda x: np_group_norm(x, 2), GN)

# ============================================================== composed: instance_norm, rms_norm, 1-d pools
C("batch_norm", "instance_norm", lambda x: F.instance_norm(x), [(2, 3, 4)], lambda x: np_instance_norm(x),
  "ViewBackward0")
C("batch_norm", "instance_norm_affine_2d", lambda x, w, b: F.instance_norm(x, weight=w, bias=b, eps=0.01),
  [(2, 2, 3, 2), (2,), (2,)], lambda x, w, b: np_instance_norm(x, w, b, eps=0.01), "ViewBackward0")
_RM, _RV = np.array([0.5, -0.25, 0.0]), np.array([2.0, 0.75, 1.5])
C("batch_norm", "instance_norm_running_stats", lambda x, w: F.instance_norm(x, ad.tensor(_RM), ad.tensor(_RV), w,
                                                                            use_input_stats=False),
  [(2, 3, 4), (3,)], lambda x, w: np_instance_norm(x, w, None, _RM, _RV), "ViewBackward0")
C("batch_norm", "instance_norm_layer_unbatched", lambda x: ad.nn.InstanceNorm1d(3).double()(x), [(3, 5)],
  lambda x: np_instance_norm(x[None])[0], "SqueezeBackward1")
C("mul", "rms_norm", lambda x: F.rms_norm(x, (4,)), [(2, 3, 4)], lambda x: np_rms_norm(x, 1), "MulBackward0")
C("mul", "rms_norm_weight_eps", lambda x, w: F.rms_norm(x, (2, 3), w, eps=0.1), [(2, 2, 3), (2, 3)],
  lambda x, w: np_rms_norm(x, 2, w, 0.1), "MulBackward0")
C("mul", "rms_norm_layer", lambda x: ad.nn.RMSNorm(3).double()(x), [(4, 3)],
  lambda x: np_rms_norm(x, 1), "MulBackward0")
C("max_pool", "max_pool1d", lambda x: F.max_pool1d(x, 2), [(2, 3, 6)], lambda x: np_max_pool1d(x, 2),
  "SqueezeBackward1", gen=gen_all(distinct))
C("max_pool", "max_pool1d_padding_ceil_dilation", lambda x: F.max_pool1d(x, 3, 2, 1, 2, ceil_mode=True),
  [(2, 7)], lambda x: np_max_pool1d(x, 3, 2, 1, 2, True), "SqueezeBackward1", gen=gen_all(distinct))
C("max_pool", "max_pool1d_indices_layer", lambda x: ad.nn.MaxPool1d(3, 1, return_indices=True)(x)[0], [(1, 2, 5)],
  lambda x: np_max_pool1d(x, 3, 1), "SqueezeBackward1", gen=gen_all(distinct))
C("avg_pool", "avg_pool1d", lambda x: F.avg_pool1d(x, 2), [(2, 3, 6)], lambda x: np_avg_pool1d(x, 2),
  "SqueezeBackward1")
C("avg_pool", "avg_pool1d_padding_ceil_exclude", lambda x: F.avg_pool1d(x, 3, 2, 1, True, False), [(2, 6)],
  lambda x: np_avg_pool1d(x, 3, 2, 1, True, False), "SqueezeBackward1")
C("avg_pool", "avg_pool1d_layer", lambda x: ad.nn.AvgPool1d(3, 2, 1)(x), [(1, 2, 7)],
  lambda x: np_avg_pool1d(x, 3, 2, 1), "SqueezeBackward1")



# ------------------------------------------------ pixel_shuffle, pixel_unshuffle, channel_shuffle

def np_pixel_shuffle(x, r):
    """out[..., c, h r + i, w r + j] = x[..., c r^2 + i r + j, h, w] (PyTorch's documented layout)."""
    *lead, c, h, w = x.shape
    out = np.empty(tuple(lead) + (c // (r * r), h * r, w * r))
    for k, i, j in itertools.product(range(c // (r * r)), range(r), range(r)):
        out[..., k, i::r, j::r] = x[..., k * r * r + i * r + j, :, :]
    return out


def np_pixel_unshuffle(x, r):
    """pixel_shuffle's inverse: out[..., c r^2 + i r + j, h, w] = x[..., c, h r + i, w r + j]."""
    *lead, c, h, w = x.shape
    out = np.empty(tuple(lead) + (c * r * r, h // r, w // r))
    for k, i, j in itertools.product(range(c), range(r), range(r)):
        out[..., k * r * r + i * r + j, :, :] = x[..., k, i::r, j::r]
    return out


def np_channel_shuffle(x, g):
    """Channel j g + i of the result is channel i (C / g) + j of x."""
    c = x.shape[1]
    out = np.empty_like(x)
    for i, j in itertools.product(range(g), range(c // g)):
        out[:, j * g + i] = x[:, i * (c // g) + j]
    return out


C("pixel_shuffle", "r2", lambda x: F.pixel_shuffle(x, 2), [(2, 8, 2, 3)], lambda x: np_pixel_shuffle(x, 2),
  "PixelShuffleBackward0")
C("pixel_shuffle", "r3_unbatched_torch", lambda x: ad.pixel_shuffle(x, 3), [(9, 2, 1)],
  lambda x: np_pixel_shuffle(x, 3), "PixelShuffleBackward0")
C("pixel_shuffle", "layer_5d", lambda x: ad.nn.PixelShuffle(2)(x), [(2, 1, 4, 2, 2)],
  lambda x: np_pixel_shuffle(x, 2), "PixelShuffleBackward0")
C("pixel_unshuffle", "r2", lambda x: F.pixel_unshuffle(x, 2), [(2, 2, 4, 6)], lambda x: np_pixel_unshuffle(x, 2),
  "PixelUnshuffleBackward0")
C("pixel_unshuffle", "r3_unbatched_layer", lambda x: ad.nn.PixelUnshuffle(3)(x), [(1, 3, 6)],
  lambda x: np_pixel_unshuffle(x, 3), "PixelUnshuffleBackward0")
C("channel_shuffle", "groups2", lambda x: F.channel_shuffle(x, 2), [(2, 6, 3)], lambda x: np_channel_shuffle(x, 2),
  "ChannelShuffleBackward0")
C("channel_shuffle", "groups3_4d_layer", lambda x: ad.nn.ChannelShuffle(3)(x), [(1, 6, 2, 2)],
  lambda x: np_channel_shuffle(x, 3), "ChannelShuffleBackward0")
C("channel_shuffle", "torch_groups4", lambda x: ad.channel_shuffle(x, 4), [(1, 8, 1)],
  lambda x: np_channel_shuffle(x, 4), "ChannelShuffleBackward0")


# ------------------------------------------------ bilinear, local_response_norm

def np_bilinear(x1, x2, w, b=None):
    """y[..., o] = sum over i, j of x1[..., i] w[o, i, j] x2[..., j], plus b[o]."""
    y = np.einsum("...i,oij,...j->...o", x1, w, x2)
    return y if b is None else y + b


def np_local_response_norm(x, size, alpha=1e-4, beta=0.75, k=1.0):
    """x[:, c] / (k + alpha / size * the sum of x^2 over channels c - size // 2 .. c + (size - 1) // 2)^beta."""
    c = x.shape[1]
    out = np.empty_like(x)
    for ch in range(c):
        lo, hi = max(ch - size // 2, 0), min(ch + (size - 1) // 2, c - 1)
        total = (x[:, lo:hi + 1] ** 2).sum(axis=1)
        out[:, ch] = x[:, ch] / (k + alpha * total / size) ** beta
    return out


C("reshape", "bilinear", lambda a, b, w: F.bilinear(a, b, w), [(2, 3), (2, 4), (5, 3, 4)], np_bilinear,
  "ViewBackward0")
C("reshape", "bilinear_unbatched", lambda a, b, w: F.bilinear(a, b, w), [(3,), (2,), (2, 3, 2)], np_bilinear,
  "ViewBackward0")
C("add", "bilinear_bias_3d", lambda a, b, w, c: F.bilinear(a, b, w, c), [(2, 2, 3), (2, 2, 4), (3, 3, 4), (3,)],
  np_bilinear, "AddBackward0")
C("div", "local_response_norm_3d", lambda x: F.local_response_norm(x, 3, alpha=0.5, beta=0.75, k=2.0), [(2, 5, 3)],
  lambda x: np_local_response_norm(x, 3, 0.5, 0.75, 2.0), "DivBackward0")
C("div", "local_response_norm_4d_even", lambda x: F.local_response_norm(x, 2, alpha=1.0, beta=0.5), [(1, 4, 2, 3)],
  lambda x: np_local_response_norm(x, 2, 1.0, 0.5), "DivBackward0")
C("div", "local_response_norm_layer_5d", lambda x: ad.nn.LocalResponseNorm(4, 0.3, 1.5, 0.5)(x), [(1, 3, 2, 1, 2)],
  lambda x: np_local_response_norm(x, 4, 0.3, 1.5, 0.5), "DivBackward0")


# ------------------------------------------------------------ affine_grid and grid_sample

def np_affine_grid(theta, size, align_corners):
    """grid[n, p..., :] = theta[n] @ (x, y[, z], 1) at each output position, the coordinates being
    -1 ... 1 in equal steps (their pixel centres' without align_corners), x along the last dim."""
    spatial = size[2:]
    grid = np.zeros((theta.shape[0],) + tuple(spatial) + (len(spatial),))
    for pos in itertools.product(*(range(n) for n in spatial)):
        point = []
        for i, n in zip(reversed(pos), reversed(spatial)):
            point.append(0.0 if n == 1 else (-1 + 2 * i / (n - 1)) * (1 if align_corners else (n - 1) / n))
        grid[(slice(None),) + pos] = theta @ np.array(point + [1.0])
    return grid


def _fold(s, lo, hi):
    """s reflected back and forth into [lo, hi] (a triangle wave of period 2 (hi - lo))."""
    span = hi - lo
    if span == 0:
        return 0.0
    m = (s - lo) % (2 * span)
    return lo + (m if m <= span else 2 * span - m)


def _padded(s, n, padding_mode, align_corners):
    if padding_mode == "reflection":
        s = _fold(s, 0, n - 1) if align_corners else _fold(s, -0.5, n - 0.5)
    if padding_mode != "zeros":
        s = min(max(s, 0), n - 1)
    return s


def _keys(d, a=-0.75):
    """Keys' cubic convolution kernel at distance d."""
    d = abs(d)
    return ((a + 2) * d - (a + 3)) * d * d + 1 if d <= 1 else (((d - 5) * d + 8) * d - 4) * a if d < 2 else 0.0


def np_grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=False):
    """Each output the sum over the taps around its source position (grid unnormalised to pixels,
    padded) of the tap's weight times x there (0 outside): nearest rounds half to even, bilinear
    weighs by 1 - distance per dim, bicubic by Keys' kernel with each tap's index padded."""
    size, k = x.shape[2:], grid.shape[-1]
    out = np.zeros(x.shape[:2] + grid.shape[1:-1])
    for b in range(x.shape[0]):
        for pos in itertools.product(*(range(n) for n in grid.shape[1:-1])):
            coords = grid[(b,) + pos][::-1]  # (.., y, x) in the input's dim order
            src = [((c + 1) / 2) * (n - 1) if align_corners else ((c + 1) * n - 1) / 2 for c, n in zip(coords, size)]
            if mode != "bicubic":
                src = [_padded(s, n, padding_mode, align_corners) for s, n in zip(src, size)]
            if mode == "nearest":
                choices = [[(int(np.rint(s)), 1.0)] for s in src]
            elif mode == "bilinear":
                choices = [[(int(np.floor(s)) + i, 1 - abs(s - np.floor(s) - i)) for i in (0, 1)] for s in src]
            else:
                choices = [[(int(np.floor(s)) + i, _keys(s - np.floor(s) - i)) for i in (-1, 0, 1, 2)] for s in src]
            total = 0.0
            for taps in itertools.product(*choices):
                index = [i for i, _ in taps]
                if mode == "bicubic" and padding_mode != "zeros":
                    index = [int(_padded(i, n, padding_mode, align_corners)) for i, n in zip(index, size)]
                if all(0 <= i < n for i, n in zip(index, size)):
                    total = total + np.prod([w for _, w in taps]) * x[(b, slice(None)) + tuple(index)]
            out[(b, slice(None)) + pos] = total
    return out


def sampling_grid(align_corners, low=0.15, high=0.35):
    """x and a grid whose source positions lie from 2 pixels before to 2 after the input, each at a
    fraction (low..high or 1 - high..1 - low) past an integer: away from the kinks (integers, half
    integers) of the weights, the clipping and the reflections."""
    def gen(rng, shapes):
        x = rng.standard_normal(shapes[0])
        size = shapes[0][2:][::-1]
        frac = rng.uniform(low, high, shapes[1]) * rng.choice([1, -1], shapes[1]) % 1
        s = np.stack([rng.integers(-2, n + 2, shapes[1][:-1]) for n in size], -1) + frac
        n = np.array(size, dtype=float)
        return [x, 2 * s / (n - 1) - 1 if align_corners else (2 * s + 1) / n - 1]
    return gen


AG = "AffineGridGeneratorBackward0"
C("affine_grid", "2d", lambda t: F.affine_grid(t, [2, 3, 4, 3], align_corners=False), [(2, 2, 3)],
  lambda t: np_affine_grid(t, [2, 3, 4, 3], False), AG)
C("affine_grid", "3d_align_corners", lambda t: F.affine_grid(t, (1, 1, 2, 3, 3), align_corners=True),
  [(1, 3, 4)], lambda t: np_affine_grid(t, (1, 1, 2, 3, 3), True), AG)
C("affine_grid", "3d_unit_dim", lambda t: F.affine_grid(t, (2, 1, 2, 1, 3), align_corners=False),
  [(2, 3, 4)], lambda t: np_affine_grid(t, (2, 1, 2, 1, 3), False), AG)
GS2, GS3 = "GridSampler2DBackward0", "GridSampler3DBackward0"
for mode, padding_mode, align_corners, node, shapes in (
        ("bilinear", "zeros", False, GS2, [(2, 2, 3, 4), (2, 3, 2, 2)]),
        ("bilinear", "border", True, GS2, [(1, 2, 3, 4), (1, 2, 3, 2)]),
        ("bilinear", "reflection", False, GS2, [(1, 2, 4, 3), (1, 3, 2, 2)]),
        ("bilinear", "reflection", True, GS2, [(1, 1, 3, 4), (1, 3, 2, 2)]),
        ("nearest", "reflection", True, GS2, [(1, 2, 3, 4), (1, 2, 3, 2)]),
        ("nearest", "zeros", False, GS2, [(2, 1, 3, 3), (2, 2, 2, 2)]),
        ("bicubic", "zeros", False, GS2, [(1, 2, 3, 4), (1, 2, 2, 2)]),
        ("bicubic", "border", True, GS2, [(1, 1, 4, 3), (1, 2, 2, 2)]),
        ("bicubic", "reflection", False, GS2, [(1, 1, 3, 4), (1, 2, 2, 2)]),
        ("bilinear", "border", False, GS3, [(1, 2, 2, 3, 2), (1, 2, 1, 2, 3)]),
        ("bilinear", "zeros", True, GS3, [(2, 1, 2, 2, 3), (2, 1, 2, 2, 3)]),
        ("nearest", "reflection", False, GS3, [(1, 1, 2, 3, 2), (1, 2, 2, 1, 3)])):
    C("grid_sample", f"{len(shapes[0]) - 2}d_{mode}_{padding_mode}_{'align' if align_corners else 'noalign'}",
      lambda x, g, m=mode, p=padding_mode, a=align_corners: F.grid_sample(x, g, m, p, a), shapes,
      lambda x, g, m=mode, p=padding_mode, a=align_corners: np_grid_sample(x, g, m, p, a), node,
      gen=sampling_grid(align_corners, *((0.1, 0.35) if mode == "nearest" else (0.15, 0.35))))
C("grid_sample", "affine_grid_into_grid_sample",
  lambda x, t: F.grid_sample(x, F.affine_grid(t, [1, 2, 3, 3], align_corners=False), align_corners=False),
  [(1, 2, 4, 4), (1, 2, 3)], lambda x, t: np_grid_sample(x, np_affine_grid(t, [1, 2, 3, 3], False)), GS2,
  gen=lambda rng, shapes: [rng.standard_normal(shapes[0]), np.array([[[0.61, 0.23, 0.07], [-0.19, 0.52, 0.11]]])])


# ------------------------------------------------------------ rrelu

RR = "RreluWithNoiseBackward0"
C("rrelu", "eval", lambda x: F.rrelu(x, 0.1, 0.3), [(3, 4)], lambda x: np.where(x > 0, x, x * 0.2), RR,
  gen=gen_all(away(0.0)))
C("rrelu", "eval_layer", lambda x: ad.nn.RReLU().eval()(x), [(2, 5)], lambda x: np.where(x > 0, x, x * (11 / 48)),
  RR, gen=gen_all(away(0.0)))
C("rrelu", "in_place", lambda x: F.rrelu_(x * 1.0, 0.2, 0.4), [(6,)], lambda x: np.where(x > 0, x, x * 0.3),
  "RreluWithNoiseBackward1", gen=gen_all(away(0.0)))
# training's drawn slopes, here an input's values (no gradient), given to the row as its noise
C("rrelu", "noise", lambda x, s: apply("rrelu", x, noise=s.detach().array), [(3, 4), (3, 4)],
  lambda x, s: np.where(x > 0, x, x * s), RR, gen=gen_each(away(0.0), uniform(0.125, 0.34)), requires=(True, False),
  internal=True)


# ------------------------------------------------------------ conv_transpose3d

C("conv_transpose", "3d", lambda x, w, b: F.conv_transpose3d(x, w, b, stride=(2, 1, 2), padding=(1, 0, 0),
                                                             output_padding=(1, 0, 1)),
  [(1, 2, 2, 3, 2), (2, 2, 2, 2, 2), (2,)], lambda x, w, b: np_conv_transpose(x, w, b, (2, 1, 2), (1, 0, 0), (1, 0, 1)),
  CT)
C("conv_transpose", "3d_groups_dilation_layer_unbatched",
  lambda x, w: _layer3d(w)(x), [(4, 2, 2, 2), (4, 1, 1, 2, 2)],
  lambda x, w: np_conv_transpose(x[None], w, None, 1, 0, 0, 2, (1, 1, 2))[0], "SqueezeBackward1")


def _layer3d(w):
    m = ad.nn.ConvTranspose3d(4, 2, (1, 2, 2), groups=2, dilation=(1, 1, 2), bias=False).double()
    del m.weight
    m.weight = w
    return m
