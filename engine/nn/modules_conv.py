"""torch.nn's Conv1d, Conv2d, Conv3d, MaxPool2d, MaxPool3d, AvgPool2d, AvgPool3d, AdaptiveAvgPool2d,
BatchNorm1d, BatchNorm2d and Dropout2d (re-exported by nn/modules.py), with PyTorch's attributes,
checks and printing.
Initial conv weights follow PyTorch's rule over its generator, so they are PyTorch's numbers for
the same manual_seed."""
import math

from .. import dtypes as _dt
from .. import functions as _fn
from . import functional as F
from . import init
from .module import Module, Parameter

__all__ = ["Conv1d", "Conv2d", "Conv3d", "MaxPool2d", "MaxPool3d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool2d",
           "BatchNorm1d", "BatchNorm2d", "Dropout2d"]


def _tuple(value, k):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * k


class _ConvNd(Module):
    """What Conv1d and Conv2d share: PyTorch's checks, attributes, initial weights and printing."""
    _k = None
    _function = None

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        k = self._k
        kernel_size, stride, dilation = _tuple(kernel_size, k), _tuple(stride, k), _tuple(dilation, k)
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {{'valid', 'same'}}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        else:
            padding = _tuple(padding, k)
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError("padding_mode must be one of {'circular', 'zeros', 'reflect', 'replicate'}, but got "
                             f"padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride, self.padding, self.dilation = kernel_size, stride, padding, dilation
        self.transposed, self.output_padding = False, (0,) * k
        self.groups, self.padding_mode = groups, padding_mode
        self.weight = Parameter(_fn.empty(out_channels, in_channels // groups, *kernel_size, dtype=dtype,
                                          device=device))
        if bias:
            self.bias = Parameter(_fn.empty(out_channels, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """PyTorch's: kaiming_uniform_(weight, a=sqrt(5)), the bias uniform in +-1/sqrt(fan_in)."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.weight.shape[1] * math.prod(self.weight.shape[2:])
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        if self.padding_mode != "zeros":
            raise NotImplementedError(f"{type(self).__name__}: padding_mode={self.padding_mode!r} is not available "
                                      f"here; only 'zeros'")
        return type(self)._function(input, self.weight, self.bias, self.stride, self.padding, self.dilation,
                                    self.groups)

    def extra_repr(self):
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}")
        if self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class Conv1d(_ConvNd):
    """conv1d with a learnt weight (out_channels, in_channels / groups, kernel_size) and bias."""
    _k = 1
    _function = staticmethod(F.conv1d)


class Conv2d(_ConvNd):
    """conv2d with a learnt weight (out_channels, in_channels / groups, kH, kW) and bias."""
    _k = 2
    _function = staticmethod(F.conv2d)


class Conv3d(_ConvNd):
    """conv3d with a learnt weight (out_channels, in_channels / groups, kD, kH, kW) and bias."""
    _k = 3
    _function = staticmethod(F.conv3d)


class _MaxPoolNd(Module):
    """max pooling as a layer (stride defaults to kernel_size), over `_function`'s dims."""

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input):
        return self._function(input, self.kernel_size, self.stride, self.padding, self.dilation,
                              ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool2d(_MaxPoolNd):
    """max_pool2d as a layer (stride defaults to kernel_size)."""
    _function = staticmethod(F.max_pool2d)


class MaxPool3d(_MaxPoolNd):
    """max_pool3d as a layer (stride defaults to kernel_size)."""
    _function = staticmethod(F.max_pool3d)


class AvgPool2d(Module):
    """avg_pool2d as a layer (stride defaults to kernel_size)."""
    _function = staticmethod(F.avg_pool2d)

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input):
        return type(self)._function(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                    self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool3d(AvgPool2d):
    """avg_pool3d as a layer (stride defaults to kernel_size)."""
    _function = staticmethod(F.avg_pool3d)


class AdaptiveAvgPool2d(Module):
    """adaptive_avg_pool2d as a layer: each plane averaged down to output_size."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class _BatchNorm(Module):
    """What BatchNorm1d and BatchNorm2d share (PyTorch's _NormBase and _BatchNorm): a learnt
    weight (ones) and bias (zeros) per channel unless affine=False, and the buffers running_mean,
    running_var and num_batches_tracked unless track_running_stats=False."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None, *, bias=True):
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            self.weight = Parameter(_fn.empty(num_features, dtype=dtype, device=device))
            if bias:
                self.bias = Parameter(_fn.empty(num_features, dtype=dtype, device=device))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", _fn.zeros(num_features, dtype=dtype, device=device))
            self.register_buffer("running_var", _fn.ones(num_features, dtype=dtype, device=device))
            self.register_buffer("num_batches_tracked", _fn.tensor(0, dtype=_dt.int64, device=device))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)
        self.reset_parameters()

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            factor = 1.0 / float(self.num_batches_tracked) if self.momentum is None else self.momentum
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        keep = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if keep else None, self.running_var if keep else None,
                            self.weight, self.bias, use_batch, factor, self.eps)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """batch_norm over (N, C) or (N, C, L) inputs, as a layer."""

    def _check_input_dim(self, input):
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """batch_norm over (N, C, H, W) inputs, as a layer."""

    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class Dropout2d(Module):
    """dropout2d as a layer: while training, whole channels zeroed with probability p."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        F.check_dropout_p(p)
        self.p, self.inplace = p, inplace

    def forward(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"
