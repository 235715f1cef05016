"""torch.native_layer_norm, torch.native_batch_norm, torch.native_group_norm and
torch._native_batch_norm_legit: ATen's normalization kernels as functions, each returning
(out, mean, rstd) -- the normalized result and the statistics the kernel saves for its backward --
and, under them, the kernels' checks and rows that nn.functional's layer_norm and batch_norm call
too (as PyTorch's F.layer_norm and F.batch_norm reach these kernels).

out is the normalization's own row (layer_norm, batch_norm, group_norm: engine/ops/), so its node
and its gradient are those of F.layer_norm / F.batch_norm / F.group_norm (NativeLayerNormBackward0,
NativeBatchNormBackward0, NativeGroupNormBackward0). The statistics of layer norm and batch norm are
computed from the input's values with no history: PyTorch's are outputs without a gradient. Group
norm's mean and rstd have one in PyTorch (its backward takes their gradients too), so they are
composed of ordinary ops here (mean, rsqrt: their nodes are those ops', where PyTorch's are
NativeGroupNormBackward0 too)."""
import numpy

from .. import dtypes as _dt
from ..core.inplace import assign
from ..core.tensor import TensorBase, apply, array_module, make_tensor
from ..ops import TABLE as _op
from ..ops.convolution import batch_stats
from .arguments import int_sequence

__all__ = ["native_layer_norm", "native_batch_norm", "native_group_norm", "_native_batch_norm_legit"]


def _no_history(x, array):
    """A result array as a tensor on x's device, of x's dtype."""
    return make_tensor(array.astype(x.array.dtype, copy=False), x.device)


def _float_kernel(x, kernel):
    if x.array.dtype.kind != "f":
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_dt.scalar_name(_dt.as_dtype(x.array.dtype))}'")


def _input(value, fname):
    if not isinstance(value, TensorBase):
        raise TypeError(f"{fname}(): argument 'input' (position 1) must be Tensor, not {type(value).__name__}")
    return value


# ------------------------------------------------------------------------------ layer norm

def layer_norm_checked(x, normalized_shape, weight, bias, eps, fname):
    """The layer_norm row on x after PyTorch's checks of its arguments (`fname` names the function
    in the message of a normalized_shape that is not a sequence)."""
    shape = normalized_shape_checked(x, normalized_shape, (("weight", weight), ("bias", bias)), fname, ", ")
    _float_kernel(x, "LayerNormKernelImpl")
    return apply(_op["layer_norm"], x, 1.0 if weight is None else weight, 0.0 if bias is None else bias,
                 normalized=len(shape), eps=float(eps))


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    """layer_norm over the last len(normalized_shape) dims, with its mean and 1 / sqrt(biased
    variance + eps), each of input's shape with those dims kept as 1: (out, mean, rstd)."""
    x = _input(input, "native_layer_norm")
    out = layer_norm_checked(x, normalized_shape, weight, bias, eps, "native_layer_norm")
    xp = array_module(x.device)
    axes = tuple(range(x.dim() - len(normalized_shape), x.dim()))
    mean = xp.mean(x.array, axis=axes, keepdims=True)
    centred = x.array - mean
    rstd = 1 / xp.sqrt(xp.mean(centred * centred, axis=axes, keepdims=True) + eps)
    return out, _no_history(x, mean), _no_history(x, rstd)


# ------------------------------------------------------------------------------ batch norm

def batch_norm_with_statistics(x, running_mean, running_var, weight, bias, training, momentum, eps):
    """The batch_norm row on x (N, C, *) after PyTorch's checks (F.batch_norm's and
    native_batch_norm's): (out, mean, biased variance), the statistics it normalized by (arrays: the
    batch's while training -- running_mean and running_var then move toward the batch's mean and
    unbiased variance by momentum, in place -- else the running ones; None for an empty batch)."""
    c = x.shape[1]
    for name, t in (("running_mean", running_mean), ("running_var", running_var)):
        if t is not None:
            if t.numel() != c:
                raise RuntimeError(f"{name} should contain {c} elements not {t.numel()}")
        elif not training:
            raise RuntimeError(f"{name} must be defined in evaluation mode")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and t.numel() != c:
            raise RuntimeError(f"{name} should contain {c} elements not {t.numel()}")
    if x.array.size == 0:  # an empty batch: no running statistics moved
        return empty_batch(x, weight, bias), None, None
    params = dict(training=bool(training), eps=float(eps))
    if training:
        xp = array_module(x.device)
        mean, squares, count = batch_stats(xp, x.array)
        if running_mean is not None:
            _blend(running_mean, mean, momentum)
        if running_var is not None:
            _blend(running_var, squares / (count - 1), momentum)
        params.update(mean=mean, var=squares / count)  # the row's own batch_stats, computed once
    else:
        params.update(mean=running_mean.array.copy(), var=running_var.array.copy())
    out = apply(_op["batch_norm"], x, 1.0 if weight is None else weight, 0.0 if bias is None else bias, **params)
    return out, params["mean"], params["var"]


def empty_batch(x, weight, bias):
    """batch_norm of an empty input, as PyTorch's: a copy (CloneBackward0), times weight[0], plus
    bias[0], so that weight and bias stay in the graph (their gradients zeros, not None)."""
    out = apply(_op["clone"], x)
    if weight is not None:
        out = out * weight[0]
    if bias is not None:
        out = out + bias[0]
    return out


def _blend(running, batch, momentum):
    """running = momentum * batch + (1 - momentum) * running, in place (PyTorch's update, which the
    graph does not record: one write and a version bump, not an in-place op's bookkeeping)."""
    assign(running, momentum * batch + (1 - momentum) * running.array)


def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    """batch_norm (running_mean and running_var move in place while training), with the batch's
    mean and 1 / sqrt(biased variance + eps) per channel while training, empty tensors otherwise
    (PyTorch's save_mean and save_invstd): (out, save_mean, save_invstd)."""
    x = _input(input, "native_batch_norm")
    _float_kernel(x, "batch_norm")
    if x.array.size == 0:
        raise RuntimeError(f"input tensor must have at least one element, but got input_sizes = {list(x.shape)}")
    if x.dim() < 2:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(x.dim(), 1)}, "
                         f"{max(x.dim(), 1) - 1}], but got 1)")
    out, mean, var = batch_norm_with_statistics(x, running_mean, running_var, weight, bias, bool(training), momentum,
                                                eps)
    xp = array_module(x.device)
    if not training:
        empty = xp.zeros((0,), dtype=x.array.dtype)
        return out, _no_history(x, empty), _no_history(x, empty)
    return out, _no_history(x, mean), _no_history(x, 1 / xp.sqrt(var + eps))


def _native_batch_norm_legit(input, weight, bias, running_mean, running_var, training=None, momentum=None,
                             eps=None):
    """native_batch_norm under its other ATen name; its no_stats overload (input, weight, bias,
    training, momentum, eps) has no running statistics."""
    if isinstance(running_mean, bool):  # the no_stats overload: the rest moved up two places
        running_mean, running_var, training, momentum, eps = None, None, running_mean, running_var, training
    return native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)


# ------------------------------------------------------------------------------ group norm

def native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    """group_norm of input, read as (N, C, HxW), in `group` groups of channels per sample, with each
    group's mean and 1 / sqrt(biased variance + eps), (N, group), both differentiable as PyTorch's:
    (out, mean, rstd)."""
    x = _input(input, "native_group_norm")
    n, c, hw, g = int(N), int(C), int(HxW), int(group)
    if x.array.size != n * c * hw:
        raise RuntimeError("Expected X.numel() == N * C * HxW to be true, but got false.  (Could this error message "
                           "be improved?  If so, please report an enhancement request to PyTorch.)")
    check_groups(c, g, weight, bias, list(x.shape))
    _float_kernel(x, "GroupNormKernelImpl")
    shaped = x.dim() >= 2 and tuple(x.shape[:2]) == (n, c)
    planes = x if shaped else x.reshape(n, c, hw)
    out = apply(_op["group_norm"], planes, 1.0 if weight is None else weight, 0.0 if bias is None else bias,
                groups=g, eps=float(eps))
    if not shaped:
        out = out.reshape(tuple(x.shape))
    grouped = x.reshape(n, g, (c // g) * hw)
    mean = grouped.mean(-1)
    centred = grouped - mean.unsqueeze(-1)
    return out, mean, ((centred * centred).mean(-1) + eps).rsqrt()


def check_groups(c, g, weight, bias, shape):
    """Group norm's checks of its groups and its affine vectors, in PyTorch's words (`shape`: the
    input's, as its messages show it); F.group_norm's and native_group_norm's."""
    if g <= 0 or c % g:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {shape} and num_groups={g}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != c):
            # PyTorch's message for the bias shows the weight's shape ([0] without one)
            shown = [0] if weight is None else list(weight.shape)
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, "
                               f"but got {name} of shape {shown} and input of shape {shape}")


def normalized_shape_checked(x, normalized_shape, affine, fname, star_gap):
    """layer_norm's and rms_norm's normalized_shape as a list, after PyTorch's checks: a sequence, not
    empty, the shape of each of the `affine` (name, tensor or None) pairs and of x's last dims
    (`star_gap`: how its message joins the * to the shape -- ", " for layer_norm, "" for rms_norm)."""
    if isinstance(normalized_shape, (int, numpy.integer)) and not isinstance(normalized_shape, bool):
        raise TypeError(f"{fname}(): argument 'normalized_shape' (position 2) must be tuple of ints, not "
                        f"{type(normalized_shape).__name__}")
    shape = int_sequence(normalized_shape, "normalized_shape")
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           "element, but got normalized_shape = []")
    for name, t in affine:
        if t is not None and list(t.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{list(t.shape)} and normalized_shape = {shape}")
    got = list(x.array.shape)
    if len(got) < len(shape) or got[len(got) - len(shape):] != shape:
        raise RuntimeError(f"Given normalized_shape={shape}, expected input with shape "
                           f"[*{star_gap}{', '.join(str(s) for s in shape)}], but got input of size{got}")
    return shape
