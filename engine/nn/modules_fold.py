"""torch.nn's Unfold and Fold (F.unfold and F.fold: im2col and col2im), AdaptiveMaxPool1d,
AdaptiveMaxPool2d, AdaptiveMaxPool3d and AdaptiveAvgPool3d (their F functions as layers), MaxUnpool1d and
MaxUnpool2d. The unpools are compositions: each value scattered to its index in zeros, so their
results' nodes are those ops' (PyTorch's is MaxUnpool2DBackward0)."""
import numpy

from .. import functions as _fn
from . import functional as F
from .module import Module
from .modules_conv import _tuple

__all__ = ["Unfold", "Fold", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "AdaptiveAvgPool3d",
           "MaxUnpool1d", "MaxUnpool2d"]


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


_SCALAR_TYPES = {"float16": "Half", "bfloat16": "BFloat16", "float32": "Float", "float64": "Double", "int8": "Char",
                 "uint8": "Byte", "int16": "Short", "int32": "Int", "bool": "Bool"}


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

    def _sizes(self, input, output_size):
        k = self._k
        default = [(input.shape[d - k] - 1) * self.stride[d] - 2 * self.padding[d] + self.kernel_size[d]
                   for d in range(k)]
        if output_size is None:
            return default
        output_size = tuple(output_size)[-k:] if len(output_size) == k + 2 else tuple(output_size)
        for d in range(k):
            low, high = default[d] - self.stride[d], default[d] + self.stride[d]
            if not low <= output_size[d] <= high:
                raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {low} and {high})')
        return list(output_size)

    def forward(self, input, indices, output_size=None):
        k = self._k
        if input.dim() not in (k + 1, k + 2):
            raise RuntimeError(f"Input to max_unpooling{k}d should be a {k + 1}d or {k + 2}d Tensor, but got a tensor "
                               f"with {input.dim()} dimensions.")
        name = str(indices.dtype).replace("torch.", "")
        if name != "int64":
            raise RuntimeError(f"elements in indices should be type int64 but got: {_SCALAR_TYPES.get(name, name)}")
        sizes = self._sizes(input, output_size)
        lead = tuple(input.shape[:-k])
        total = int(numpy.prod(sizes))
        flat = indices.reshape(*lead, -1)
        if flat.numel() and (int(flat.max()) >= total or int(flat.min()) < 0):
            bad = int(flat.max()) if int(flat.max()) >= total else int(flat.min())
            shown = "x".join(str(s) for s in (sizes + [1] if k == 1 else sizes))
            raise RuntimeError(f"Found an invalid max index: {bad} (output volumes are of size {shown})")
        out = _fn.zeros(*lead, total, dtype=input.dtype, device=input.device)
        return out.scatter(-1, flat, input.reshape(*lead, -1)).reshape(*lead, *sizes)


class MaxUnpool1d(_MaxUnpool):
    """max_pool1d undone: each value of an (N, C, L) or (C, L) input put at its index in zeros."""
    _k = 1


class MaxUnpool2d(_MaxUnpool):
    """max_pool2d undone: each value of an (N, C, H, W) or (C, H, W) input put at its index in zeros."""
    _k = 2
