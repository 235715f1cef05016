"""torch.nn's ConvTranspose1d, ConvTranspose2d, ConvTranspose3d, MaxPool1d, AvgPool1d, GroupNorm, InstanceNorm1d,
InstanceNorm2d, RMSNorm and Upsample (re-exported by nn/modules.py), with PyTorch's attributes,
checks and printing. Initial transposed-conv weights follow PyTorch's rule over its generator
(kaiming_uniform_ with a = sqrt(5) on the (in, out / groups, K...) weight, the bias uniform in
+-1/sqrt(fan_in)), so they are PyTorch's numbers for the same manual_seed."""
import numbers
import warnings

from .. import functions as _fn
from . import functional as F
from . import init
from .module import Module, Parameter
from .modules_conv import _ConvNd, _BatchNorm, _MaxPoolNd, _tuple
from .modules_layers import affine_parameters, reset_affine

__all__ = ["ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "MaxPool1d", "AvgPool1d", "GroupNorm",
           "InstanceNorm1d", "InstanceNorm2d", "RMSNorm", "Upsample"]


class _ConvTransposeNd(_ConvNd):
    """What ConvTranspose1d and ConvTranspose2d share: a weight (in_channels, out_channels / groups,
    K...), output_padding, and forward's output_size (which picks the output_padding)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        if isinstance(padding, str):
            raise TypeError(f"{type(self).__name__}: padding must be an int or a tuple of ints, not a string")
        # _ConvNd makes an (out, in / groups, K...) weight: made here the other way round, then initialised again
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype)
        self.transposed, self.output_padding = True, _tuple(output_padding, self._k)
        self.weight = Parameter(_fn.empty(in_channels, out_channels // groups, *self.kernel_size, dtype=dtype,
                                          device=device))
        if bias:
            self.bias = Parameter(_fn.empty(out_channels, dtype=dtype, device=device))
        self.reset_parameters()

    def reset_parameters(self):
        """PyTorch's: kaiming_uniform_(weight, a=sqrt(5)), the bias uniform in +-1/sqrt(fan_in), fan_in
        = weight.shape[1] * the kernel's size."""
        if not self.transposed:  # _ConvNd's first (transient) weight: nothing to draw
            return
        super().reset_parameters()

    def _output_padding(self, input, output_size):
        if output_size is None:
            return self.output_padding
        k = self._k
        batched = input.dim() == k + 2
        lead = 2 if batched else 1
        output_size = list(output_size)
        if len(output_size) == lead + k:
            output_size = output_size[lead:]
        if len(output_size) != k:
            raise ValueError(f"ConvTranspose{k}D: for {input.dim()}D input, output_size must have {k} or {lead + k} "
                             f"elements (got {len(output_size)})")
        low = [(input.size(d + lead) - 1) * self.stride[d] - 2 * self.padding[d]
               + self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(k)]
        high = [low[d] + self.stride[d] - 1 for d in range(k)]
        for size, lo, hi in zip(output_size, low, high):
            if size < lo or size > hi:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes range from {low} to "
                                 f"{high} (for an input of {type(input.shape)(input.shape[2:])})")
        return tuple(size - lo for size, lo in zip(output_size, low))

    def forward(self, input, output_size=None):
        output_padding = self._output_padding(input, output_size)
        return type(self)._function(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                                    self.groups, self.dilation)

    def extra_repr(self):
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


class ConvTranspose1d(_ConvTransposeNd):
    """conv_transpose1d with a learnt weight (in_channels, out_channels / groups, kernel_size) and bias."""
    _k = 1
    _function = staticmethod(F.conv_transpose1d)


class ConvTranspose2d(_ConvTransposeNd):
    """conv_transpose2d with a learnt weight (in_channels, out_channels / groups, kH, kW) and bias."""
    _k = 2
    _function = staticmethod(F.conv_transpose2d)


class ConvTranspose3d(_ConvTransposeNd):
    """conv_transpose3d with a learnt weight (in_channels, out_channels / groups, kD, kH, kW) and bias."""
    _k = 3
    _function = staticmethod(F.conv_transpose3d)


class MaxPool1d(_MaxPoolNd):
    """max_pool1d as a layer (stride defaults to kernel_size)."""
    _function = staticmethod(F.max_pool1d)


class AvgPool1d(Module):
    """avg_pool1d as a layer (stride defaults to kernel_size); sizes kept as one-element tuples."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size = _tuple(kernel_size, 1)
        self.stride = _tuple(stride if stride is not None else kernel_size, 1)
        self.padding = _tuple(padding, 1)
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class GroupNorm(Module):
    """group_norm as a layer: num_channels split into num_groups groups, a learnt weight (ones) and
    bias (zeros) per channel unless affine=False."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        affine_parameters(self, affine, (num_channels,), bias, dtype, device)

    def reset_parameters(self):
        reset_affine(self)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


class _InstanceNorm(_BatchNorm):
    """What InstanceNorm1d and InstanceNorm2d share (PyTorch's _InstanceNorm): _NormBase's weight,
    bias and buffers, with affine and track_running_stats off by default."""
    _no_batch_dim = None
    _dims = None

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False, device=None,
                 dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)

    def _check_input_dim(self, input):
        if input.dim() not in self._dims:
            raise ValueError(f"expected {self._dims[0]}D or {self._dims[1]}D input (got {input.dim()}D input)")

    def _apply(self, input):
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                               self.training or not self.track_running_stats,
                               self.momentum if self.momentum is not None else 0.0, self.eps)

    def forward(self, input):
        self._check_input_dim(input)
        feature_dim = input.dim() - self._no_batch_dim
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match num_features "
                                 f"({self.num_features}), but got: {input.size(feature_dim)}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. You can silence this "
                          f"warning by not passing in num_features, which is not used because affine=False",
                          stacklevel=2)
        if input.dim() == self._no_batch_dim:
            return self._apply(input.unsqueeze(0)).squeeze(0)
        return self._apply(input)


class InstanceNorm1d(_InstanceNorm):
    """instance_norm over (N, C, L) or (C, L) inputs, as a layer."""
    _no_batch_dim = 2
    _dims = (2, 3)


class InstanceNorm2d(_InstanceNorm):
    """instance_norm over (N, C, H, W) or (C, H, W) inputs, as a layer."""
    _no_batch_dim = 3
    _dims = (3, 4)


class RMSNorm(Module):
    """rms_norm over the last dims (normalized_shape) as a layer, with a learnt weight (ones) unless
    elementwise_affine=False; eps None: the input dtype's machine epsilon."""

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(_fn.empty(*self.normalized_shape, dtype=dtype, device=device))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, input):
        return F.rms_norm(input, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class Upsample(Module):
    """interpolate as a layer: to `size`, or by scale_factor, in `mode`."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode, self.align_corners = mode, align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self):
        info = f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None else f"size={self.size!r}"
        return info + f", mode={self.mode!r}"
