"""torch.nn.functional's interpolate, conv_transpose1d/2d/3d, max_pool1d, avg_pool1d,
group_norm, instance_norm and rms_norm, with PyTorch's checks and messages (re-exported by
nn/functional.py).

interpolate, conv_transpose and group_norm are rows of engine/ops/nnlayers.py (PyTorch's kernels,
its node names); the rest are composed as PyTorch composes them, so the graph has PyTorch's nodes:
max_pool1d and avg_pool1d are the 2-d poolings of the input unsqueezed at -2 (SqueezeBackward1 on
top), instance_norm a batch_norm of the input viewed as one sample of N*C channels (ViewBackward0),
rms_norm x * rsqrt(mean(x^2) + eps) * weight (MulBackward0)."""
import numpy

from .. import dtypes as _dt
from ..functions.arguments import int_of, tensor_in
from ..functions.native_norms import check_groups, normalized_shape_checked
from ..functions import rsqrt as _rsqrt
from ..core.grad_mode import no_grad
from ..ops import TABLE as _op
from ..core.tensor import apply, array_module
from ..tensor_class import Tensor
from .functional_conv import _expand, max_pool2d, avg_pool2d, adaptive_avg_pool2d, batch_norm

__all__ = ["interpolate", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "max_pool1d", "avg_pool1d",
           "group_norm", "instance_norm", "rms_norm"]


# ------------------------------------------------------------------ interpolate

_KINDS = {("nearest", 3): "Nearest", ("nearest", 4): "Nearest", ("nearest", 5): "Nearest",
          ("nearest-exact", 3): "NearestExact", ("nearest-exact", 4): "NearestExact",
          ("nearest-exact", 5): "NearestExact",
          ("linear", 3): "Linear", ("bilinear", 4): "Bilinear", ("trilinear", 5): "Trilinear",
          ("bicubic", 4): "Bicubic"}
_NEEDS = {"linear": 3, "bilinear": 4, "trilinear": 5}
_DIM_NAMES = {1: ("W",), 2: ("H", "W"), 3: ("D", "H", "W")}


def _is_integer(v):
    return isinstance(v, (int, numpy.integer)) and not isinstance(v, bool)


def _output_size(x, dim, size, scale_factor, mode, recompute_scale_factor):
    """interpolate's output sizes (None until the scales give them) and scales (None where the size
    was given or recomputed), with PyTorch's checks of size and scale_factor."""
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        scales = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(f"Input and output must have the same number of spatial dimensions, but got input "
                                 f"with spatial dimensions of {list(x.shape[2:])} and output size of {size}. Please "
                                 f"provide input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, "
                                 f"...,oK) format.")
            if not all(_is_integer(s) for s in size):
                raise TypeError(f"expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, "
                                f"int], but got size with types {[type(s) for s in size]}")
            out = [int(s) for s in size]
        else:
            out = [int(size)] * dim
    elif scale_factor is not None:
        out = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(f"Input and scale_factor must have the same number of spatial dimensions, but got "
                                 f"input with spatial dimensions of {list(x.shape[2:])} and scale_factor of shape "
                                 f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                                 f"scale_factor in (s1, s2, ...,sK) format.")
            scales = [float(s) for s in scale_factor]
        else:
            scales = [float(scale_factor)] * dim
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and out is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        out = [int(n * s) for n, s in zip(x.shape[2:], scales)]
        scales = None
    return out, scales


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """input (N, C, S...) resized to `size` (or S * scale_factor) over its spatial dims: mode
    'nearest' (or 'nearest-exact') takes the nearest input value; 'linear', 'bilinear' and
    'trilinear' weigh the two neighbours along each dim (align_corners: the corner pixels' centres
    line up), 'bicubic' four with cubic weights; 'area' averages (adaptive average pooling)."""
    x = tensor_in(input)
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | "
                             "bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = x.dim() - 2
    out, scales = _output_size(x, dim, size, scale_factor, mode, recompute_scale_factor)
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and x.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D "
                         "tensor as input")
    kind = _KINDS.get((mode, x.dim()))
    if mode == "area" and x.dim() in (3, 4):
        return _area(x, out)
    if kind is None:
        if mode in _NEEDS and x.dim() in (3, 4, 5):
            raise NotImplementedError(f"Got {x.dim()}D input, but {mode} mode needs {_NEEDS[mode]}D input")
        if mode == "lanczos" or (mode == "area" and x.dim() == 5):
            raise NotImplementedError(f"interpolate(): mode={mode!r} is not available here; nearest, nearest-exact, "
                                      f"linear, bilinear, bicubic, trilinear and area (3-D and 4-D input) are")
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {x.dim()}D) for the "
                                  f"modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
                                  f"nearest-exact (got {mode})")
    if antialias:
        raise NotImplementedError("interpolate(): antialias=True is not available here")
    sizes = list(x.shape[2:])
    if out is None:
        out = [int(n * s) for n, s in zip(sizes, scales)]
    if any(n <= 0 for n in sizes) or any(o <= 0 for o in out):
        names = _DIM_NAMES[dim]
        given = ", ".join(f"{a}: {n}" for a, n in zip(names, sizes))
        wanted = ", ".join(f"{a}: {o}" for a, o in zip(names, out))
        joint = " and" if dim == 1 else ""
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input ({given}){joint} output "
                           f"({wanted})")
    if x.shape[1] == 0:
        raise RuntimeError(f"Non-empty {x.dim()}D data tensor expected but got a tensor with sizes {list(x.shape)}")
    nearest = "Nearest" in kind
    if x.array.dtype.kind != "f" and not (nearest and x.array.dtype == numpy.uint8):
        if not nearest and x.array.dtype == numpy.uint8 and kind == "Bilinear":
            raise NotImplementedError("interpolate(): bilinear mode on uint8 input (PyTorch's fixed-point kernel) is "
                                      "not available here")
        what = "compute_indices_weights_" + ("nearest" if nearest else "cubic" if kind == "Bicubic" else "linear")
        raise NotImplementedError(f"\"{what}\" not implemented for '{_dt.scalar_name(x.dtype)}'")
    xp = array_module(x.device)
    scales = scales or [None] * dim
    taps = tuple(_taps(xp, n, o, s, mode, align_corners, x.array.dtype) for n, o, s in zip(sizes, out, scales))
    return apply(_op["upsample"], x, taps=taps, kind=kind)


def _taps(xp, n, o, scale, mode, align_corners, dtype):
    """((index, weight), ...) of one dim: where each of the o outputs reads the n inputs (PyTorch's
    area_pixel_compute_source_index and nearest_idx, scale 1 / scale_factor when one is given)."""
    j = xp.arange(o)
    if mode in ("nearest", "nearest-exact"):
        # PyTorch computes the nearest source in single precision
        step = numpy.float32(1.0 / scale) if scale is not None and scale > 0 else numpy.float32(n) / numpy.float32(o)
        offset = numpy.float32(0.5 if mode == "nearest-exact" else 0.0)
        src = xp.floor((j.astype(numpy.float32) + offset) * step).astype(xp.int64)
        return ((xp.minimum(src, n - 1), None),)
    if align_corners:
        step = (n - 1) / (o - 1) if o > 1 else 0.0
        src = j.astype(dtype) * dtype.type(step)
    else:
        step = 1.0 / scale if scale is not None and scale > 0 else n / o
        src = dtype.type(step) * (j.astype(dtype) + dtype.type(0.5)) - dtype.type(0.5)
        if mode != "bicubic":  # cubic keeps a negative source (its taps are clamped instead)
            src = xp.maximum(src, 0)
    if mode == "bicubic":
        return _cubic_taps(xp, src, n, dtype)
    low = src.astype(xp.int64)
    high = low + (low < n - 1)
    frac = xp.minimum(src - low.astype(dtype), 1).astype(dtype)
    return ((low, (1 - frac).astype(dtype)), (high, frac))


def _cubic_taps(xp, src, n, dtype):
    """Four taps around each source coordinate, Keys' cubic convolution weights with A = -0.75
    (PyTorch's get_cubic_upsample_coefficients), the indices clamped into [0, n - 1]."""
    base = xp.minimum(xp.floor(src.astype(numpy.float32)).astype(xp.int64), n - 1)
    t = xp.clip(src - base.astype(dtype), 0, 1).astype(dtype)
    a = dtype.type(-0.75)

    def near(x):  # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):  # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    weights = (far(t + 1), near(t), near(1 - t), far(2 - t))
    return tuple((xp.clip(base - 1 + i, 0, n - 1), w.astype(dtype)) for i, w in enumerate(weights))


def _area(x, out):
    """mode='area': adaptive average pooling to `out` (a 1-d one through the 2-d pooling)."""
    if x.dim() == 4:
        return adaptive_avg_pool2d(x, out)
    return adaptive_avg_pool2d(x.unsqueeze(-2), [1] + list(out)).squeeze(-2)


# ------------------------------------------------------------------ transposed convolution

def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, k, fname):
    x = tensor_in(input)
    if x.dim() not in (k + 1, k + 2):
        raise RuntimeError(f"Expected {k + 1}D (unbatched) or {k + 2}D (batched) input to {fname}, but got input "
                           f"of size: {list(x.shape)}")
    if not isinstance(weight, Tensor):
        raise TypeError(f"{fname}(): argument 'weight' (position 2) must be Tensor, not {type(weight).__name__}")
    if bias is not None and not isinstance(bias, Tensor):
        raise TypeError(f"{fname}(): argument 'bias' (position 3) must be Tensor, not {type(bias).__name__}")
    if isinstance(padding, str):
        raise TypeError(f"{fname}(): argument 'padding' must be tuple of ints, not str")
    batched = x.dim() == k + 2
    if not batched:
        x = x.unsqueeze(0)
    stride, padding = _expand(stride, k, "stride"), _expand(padding, k, "padding")
    output_padding, dilation = _expand(output_padding, k, "output_padding"), _expand(dilation, k, "dilation")
    groups = int(groups)
    _check_transposed(x, weight, bias, stride, padding, output_padding, dilation, groups, k)
    y = apply(_op["conv_transpose"], x, weight, 0.0 if bias is None else bias, stride=stride, padding=padding,
              output_padding=output_padding, dilation=dilation, groups=groups)
    return y if batched else y.squeeze(0)


def _as_2d(values, fill):
    """PyTorch runs a 1-d convolution as a 2-d one: its messages show a leading dim of `fill`."""
    return (fill,) + tuple(values) if len(values) == 1 else tuple(values)


def _per_dim(what, values, fill, sep=" "):
    """PyTorch's naming of a setting's values in its messages: `what`_depth (3-d), _height, _width."""
    values = _as_2d(values, fill)
    return sep.join(f"{what}_{name}: {v}" for name, v in zip(("depth", "height", "width")[3 - len(values):], values))


def _check_transposed(x, weight, bias, stride, padding, output_padding, dilation, groups, k):
    """PyTorch's checks of a transposed convolution (check_shape_forward, transposed=1), in its order."""
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(p < 0 for p in output_padding):
        raise RuntimeError("negative output_padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got {_per_dim('dilation', dilation, 1, ', ')}")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    ws, xs = list(weight.shape), list(x.shape)
    if len(ws) != len(xs):
        raise RuntimeError(f"Expected {len(ws)}-dimensional input for {len(ws)}-dimensional weight {ws}, but got "
                           f"{len(xs)}-dimensional input of size {xs} instead")
    if ws[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
                           f"but got weight of size [{ws}] instead")
    if xs[1] != ws[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {ws}, expected input{xs} to have {ws[0]} channels, "
                           f"but got {xs[1]} channels instead")
    o = ws[1] * groups
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != o):
        raise RuntimeError(f"Given transposed=1, weight of size {ws}, expected bias to be 1-dimensional with {o} "
                           f"elements, but got bias of size {list(bias.shape)} instead")
    if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
        raise RuntimeError(f"output padding must be smaller than either stride or dilation, but got "
                           f"{_per_dim('output_padding', output_padding, 0)} {_per_dim('stride', stride, 1)} "
                           f"{_per_dim('dilation', dilation, 1)}")
    size = [(i - 1) * s - 2 * p + d * (kk - 1) + op + 1
            for i, s, p, d, kk, op in zip(xs[2:], stride, padding, dilation, ws[2:], output_padding)]
    if any(n <= 0 for n in size):
        given, got = _as_2d(xs[2:], 1), _as_2d(size, 1)
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, given))}). Calculated output size "
                           f"per channel: ({' x '.join(map(str, got))}). Output size is too small")
    for other in (weight, bias):
        if other is not None and other.dtype != x.dtype:
            raise RuntimeError(f"expected scalar type {_dt.scalar_name(x.dtype)} but found "
                               f"{_dt.scalar_name(other.dtype)}")


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """input (N, C, L) or (C, L) through a transposed convolution with weight (C, O / groups, K):
    output length (L - 1) stride - 2 padding + dilation (K - 1) + output_padding + 1; plus bias (O,)."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 1,
                           "conv_transpose1d")


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """input (N, C, H, W) or (C, H, W) through a transposed convolution with weight (C, O / groups, kH, kW)
    (the gradient of conv2d with respect to its input); plus bias (O,)."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 2,
                           "conv_transpose2d")


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """input (N, C, D, H, W) or (C, D, H, W) through a transposed convolution with weight (C, O / groups,
    kD, kH, kW) (the gradient of conv3d with respect to its input); plus bias (O,)."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 3,
                           "conv_transpose3d")


# ------------------------------------------------------------------ 1-d pooling

def _one(value, what, default=None):
    """One int from an int or a one-element sequence; None where `default` stands."""
    if value is None:
        return default
    if isinstance(value, (tuple, list)):
        if len(value) == 0 and default is not None:
            return default
        if len(value) != 1:
            raise RuntimeError(what.format(len(value)))
        return int(value[0])
    return int(value)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The maximum of each kernel_size window along the last dim (stride apart, dilated, padded with
    -inf); with return_indices also where each was."""
    x = tensor_in(input)
    if return_indices:  # PyTorch's max_pool1d_with_indices: avg_pool1d's checks, then max_pool2d's
        if x.dim() not in (2, 3):
            raise RuntimeError(f"Expected 2 to 3 dimensions, but got {x.dim()}-dimensional tensor for argument #1 "
                               f"'self' (while checking arguments for max_pool1d)")
        k = _one(kernel_size, "max_pool1d() argument 'kernel_size' should contain one int (got {})")
        s = _one(stride, "max_pool1d() argument 'stride' should contain one int (got {})", k)
        p = _one(padding, "max_pool1d() argument 'padding' should contain one int (got {})")
        d = _one(dilation, "max_pool1d() argument 'dilation' should contain one int (got {})")
        y, indices = max_pool2d(x.unsqueeze(-2), (1, k), (1, s), (0, p), (1, d), ceil_mode, True)
        return y.squeeze(-2), indices.squeeze(-2)
    if x.dim() not in (2, 3) or any(n == 0 for n in x.shape[1:]):
        raise RuntimeError(f"max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{list(x.shape)}")
    fn = "max_pool1d()"
    k = _one(kernel_size, fn + " kernel_size must be an int, list of ints or tuple of ints of size 1 but got size {}")
    s = _one(stride, fn + " stride must be None, an int, list of ints, or tuple of ints of size 1 but got size {}", k)
    p = _one(padding, fn + " padding must be an int, list of ints, or tuple of ints of size 1 but got size {}")
    d = _one(dilation, fn + " dilation must be an int, list of ints or tuple of ints of size 1 but got size {}")
    if k <= 0:
        raise RuntimeError(f"{fn} kernel_size must be greater than zero, but got {k}")
    if s <= 0:
        raise RuntimeError(f"{fn} stride must be greater than zero, but got {s}")
    if p < 0:
        raise RuntimeError(f"{fn} padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError(f"{fn} padding should be at most half of kernel size, but got padding={p} and "
                           f"kernel_size={k}")
    if d <= 0:
        raise RuntimeError(f"{fn} dilation must be greater than zero, but got {d}")
    n = x.shape[-1]
    out = (n + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= n + p:
        out -= 1
    if out < 1:
        raise RuntimeError(f"{fn} Invalid computed output size: {out}")
    return max_pool2d(x.unsqueeze(-2), (1, k), (1, s), (0, p), (1, d), ceil_mode).squeeze(-2)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """The mean of each kernel_size window along the last dim (stride apart, zero-padded): divided
    by the window's size with its padding (count_include_pad) or by its input elements only."""
    x = tensor_in(input)
    if x.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {x.dim()}-dimensional tensor for argument #1 'self' "
                           f"(while checking arguments for avg_pool1d)")
    k = _one(kernel_size, "avg_pool1d() argument 'kernel_size' should contain one int (got {})")
    s = _one(stride, "avg_pool1d() argument 'stride' should contain one int (got {})", k)
    p = _one(padding, "avg_pool1d() argument 'padding' should contain one int (got {})")
    return avg_pool2d(x.unsqueeze(-2), (1, k), (1, s), (0, p), ceil_mode, count_include_pad).squeeze(-2)


# ------------------------------------------------------------------ normalization

def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """input (N, C, *) normalized within each of num_groups groups of channels per sample (mean 0,
    biased variance 1, eps added), then times weight and plus bias (per channel) when given."""
    x = tensor_in(input)
    if x.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {x.dim()}")
    shape = list(x.shape)
    n, c = shape[0], shape[1]
    g = int_of(num_groups, "num_groups")
    if g == 0:  # PyTorch's _verify_batch_size divides by it first
        raise ZeroDivisionError("integer division or modulo by zero")
    count = n * c // g * g
    for size in shape[2:]:
        count *= size
    if count == g:  # PyTorch's _verify_batch_size over [N * C / G, G, *]
        raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                         f"{[n * c // g, g] + shape[2:]}")
    check_groups(c, g, weight, bias, shape)
    if x.array.dtype.kind != "f":
        raise NotImplementedError(f"\"GroupNormKernelImpl\" not implemented for '{_dt.scalar_name(x.dtype)}'")
    return apply(_op["group_norm"], x, 1.0 if weight is None else weight, 0.0 if bias is None else bias, groups=g,
                 eps=float(eps))


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """input (N, C, *) normalized per sample and channel over its spatial dims (use_input_stats),
    or by running_mean and running_var; then times weight and plus bias (per channel). With
    use_input_stats, running_mean and running_var (when given) move toward the mean over the batch
    of each instance's statistics, as PyTorch's batch_norm over N * C channels moves them."""
    x = tensor_in(input)
    if use_input_stats:
        shape = list(x.shape)
        count = 1
        for s in shape[2:]:
            count *= s
        if count == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input size {x.shape!r}")
    elif running_mean is None or running_var is None:
        raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
    n, c = x.shape[0], x.shape[1]
    repeated = [None if t is None else t.detach().repeat(n) for t in (running_mean, running_var)]
    w = None if weight is None else weight.repeat(n)
    b = None if bias is None else bias.repeat(n)
    y = batch_norm(x.reshape((1, n * c) + tuple(x.shape[2:])), repeated[0], repeated[1], w, b, bool(use_input_stats),
                   momentum, eps)
    with no_grad():
        for t, r in zip((running_mean, running_var), repeated):
            if t is not None and use_input_stats:
                t.copy_(r.reshape(n, c).mean(0))
    return y.view(tuple(x.shape))


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """input divided by the root mean square of its last dims (normalized_shape), eps added under
    the root (None: the dtype's machine epsilon), then times weight when given."""
    x = tensor_in(input)
    shape = normalized_shape_checked(x, normalized_shape, (("weight", weight),), "rms_norm", "")
    if eps is None:
        eps = float(numpy.finfo(x.array.dtype).eps) if x.array.dtype.kind == "f" else 0.0
    dims = tuple(range(x.dim() - len(shape), x.dim()))
    y = x * _rsqrt(x.pow(2).mean(dims, keepdim=True) + eps)
    return y if weight is None else y * weight

