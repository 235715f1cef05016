"""torch.nn's Unfold and Fold (F.unfold and F.fold: im2col and col2im), AdaptiveMaxPool1d,
AdaptiveMaxPool2d, AdaptiveMaxPool3d and AdaptiveAvgPool3d (their F functions as layers), MaxUnpool1d,
MaxUnpool2d and MaxUnpool3d (F.max_unpool1d/2d/3d as layers), FractionalMaxPool2d and
FractionalMaxPool3d (F.fractional_max_pool2d/3d as layers)."""

from . import functional as F
from .module import Module
from .modules_conv import _tuple

__all__ = ["Unfold", "Fold", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "AdaptiveAvgPool3d",
           "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "FractionalMaxPool2d", "FractionalMaxPool3d"]


class _Blocks(Module):
    """The settings Unfold and Fold share."""

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
                f"stride={self.stride}")


class Unfold(_Blocks):
    """The sliding blocks of an (N, C, H, W) input as columns: (N, C * kh * kw, blocks) (F.unfold)."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def forward(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)


class Fold(_Blocks):
    """Columns of sliding blocks (N, C * kh * kw, blocks) added back into an (N, C, *output_size)
    plane (overlaps summed): Unfold's adjoint (F.fold)."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size = output_size
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def extra_repr(self):
        return f"output_size={self.output_size}, " + super().extra_repr()

    def forward(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)


class _AdaptiveMaxPool(Module):
    """F.adaptive_max_pool1d/2d as a layer; with return_indices, also where each max is."""
    _function = None

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def extra_repr(self):
        return f"output_size={self.output_size}"

    def forward(self, input):
        return type(self)._function(input, self.output_size, self.return_indices)


class AdaptiveMaxPool1d(_AdaptiveMaxPool):
    """The max of each of output_size adaptive windows along the last dim of an (N, C, L) or (C, L) input."""
    _function = staticmethod(F.adaptive_max_pool1d)


class AdaptiveMaxPool2d(_AdaptiveMaxPool):
    """The max of each adaptive window of the last two dims (output_size (H, W); None keeps a dim)."""
    _function = staticmethod(F.adaptive_max_pool2d)


class AdaptiveMaxPool3d(_AdaptiveMaxPool):
    """The max of each adaptive window of the last three dims (output_size (D, H, W); None keeps a dim)."""
    _function = staticmethod(F.adaptive_max_pool3d)


class AdaptiveAvgPool3d(Module):
    """adaptive_avg_pool3d as a layer: each volume averaged down to output_size (D, H, W)."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return F.adaptive_avg_pool3d(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class _MaxUnpool(Module):
    """max pooling undone: each value put at its index (max_pool's return_indices) in a zero plane
    of the size the pooling came from (or output_size)."""
    _k = None

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        k = self._k
        self.kernel_size = _tuple(kernel_size, k)
        self.stride = _tuple(stride if stride is not None else kernel_size, k)
        self.padding = _tuple(padding, k)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"

    def forward(self, input, indices, output_size=None):
        return getattr(F, f"max_unpool{self._k}d")(input, indices, self.kernel_size, self.stride, self.padding,
                                                   output_size)


class MaxUnpool1d(_MaxUnpool):
    """max_pool1d undone: each value of an (N, C, L) or (C, L) input put at its index in zeros."""
    _k = 1


class MaxUnpool2d(_MaxUnpool):
    """max_pool2d undone: each value of an (N, C, H, W) or (C, H, W) input put at its index in zeros."""
    _k = 2


class MaxUnpool3d(_MaxUnpool):
    """max_pool3d undone: each value of an (N, C, D, H, W) or (C, D, H, W) input put at its index in zeros."""
    _k = 3


class _FractionalMaxPool(Module):
    """F.fractional_max_pool2d/3d as a layer: kernel_size, and output_size or output_ratio (one of
    them, each ratio in (0, 1)); _random_samples, when given, a buffer that fixes the windows."""
    _k = None

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None):
        super().__init__()
        k, name = self._k, type(self).__name__
        if k == 3 and any(v <= 0 for v in (kernel_size if isinstance(kernel_size, (tuple, list)) else (kernel_size,))):
            raise ValueError(f"kernel_size must be greater than 0, but got {kernel_size}")
        self.kernel_size = _tuple(kernel_size, k)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = _tuple(output_size, k) if output_size is not None else None
        self.output_ratio = _tuple(output_ratio, k) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(f"{name} requires specifying either an output size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input):
        return getattr(F, f"fractional_max_pool{self._k}d")(input, self.kernel_size, self.output_size,
                                                          self.output_ratio, self.return_indices,
                                                          _random_samples=self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPool):
    """Fractional max pooling over the last two dims of an (N, C, H, W) or (C, H, W) input."""
    _k = 2


class FractionalMaxPool3d(_FractionalMaxPool):
    """Fractional max pooling over the last three dims of an (N, C, T, H, W) or (C, T, H, W) input."""
    _k = 3
