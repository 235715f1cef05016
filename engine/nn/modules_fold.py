"""torch.nn's Unfold and Fold (im2col and col2im), AdaptiveMaxPool1d and AdaptiveMaxPool2d,
MaxUnpool1d and MaxUnpool2d, as compositions: Unfold gathers the sliding blocks of a padded
(N, C, H, W) input by indexing (its gradient adds up where blocks overlap), Fold adds each block's
values into place (index_add) and crops the padding, the adaptive max pools take the max of each
of PyTorch's adaptive windows (gathered, a short window padded with a repeat of its last element),
the unpools scatter each value to its index in zeros. Their results' nodes are those ops' (PyTorch's
are Im2ColBackward0, Col2ImBackward0, AdaptiveMaxPool2DBackward0, MaxUnpool2DBackward0...)."""
import numpy

from .. import functions as _fn
from . import functional as F
from .module import Module
from .modules_conv import _tuple

__all__ = ["Unfold", "Fold", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "MaxUnpool1d", "MaxUnpool2d"]


def _pair(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value, value)


class _Blocks(Module):
    """The settings both share, and where each block's elements sit in the padded plane."""

    def _settings(self):
        return tuple(_pair(v) for v in (self.kernel_size, self.dilation, self.padding, self.stride))

    def _positions(self, height, width):
        """(rows (kh, out_h), cols (kw, out_w)) of every block element in the padded plane."""
        (kh, kw), (dh, dw), (ph, pw), (sh, sw) = self._settings()
        out_h = (height + 2 * ph - dh * (kh - 1) - 1) // sh + 1
        out_w = (width + 2 * pw - dw * (kw - 1) - 1) // sw + 1
        return (numpy.arange(kh)[:, None] * dh + numpy.arange(max(out_h, 0))[None, :] * sh,
                numpy.arange(kw)[:, None] * dw + numpy.arange(max(out_w, 0))[None, :] * sw, out_h, out_w)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
                f"stride={self.stride}")


class Unfold(_Blocks):
    """The sliding blocks of an (N, C, H, W) input as columns: (N, C * kh * kw, blocks)."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def forward(self, input):
        batched = input.dim() == 4
        x = input if batched else input.unsqueeze(0)
        n, c, h, w = x.shape
        rows, cols, out_h, out_w = self._positions(h, w)
        if out_h < 1 or out_w < 1:
            (kh, kw), (dh, dw), (ph, pw), _ = self._settings()
            raise RuntimeError(f"Given input with spatial size ({h}, {w}), kernel_size=({kh}, {kw}), "
                               f"dilation=({dh}, {dw}), padding=({ph}, {pw}), calculated shape of the array of "
                               f"sliding blocks as ({out_h}, {out_w}), but its components must be at least one.")
        ph, pw = self._settings()[2]
        padded = F.pad(x, (pw, pw, ph, ph))
        r = _fn.tensor(rows[:, None, :, None], device=x.device)
        q = _fn.tensor(cols[None, :, None, :], device=x.device)
        out = padded[:, :, r, q].reshape(n, c * rows.shape[0] * cols.shape[0], out_h * out_w)
        return out if batched else out.squeeze(0)


class Fold(_Blocks):
    """Columns of sliding blocks (N, C * kh * kw, blocks) added back into an (N, C, *output_size)
    plane (overlaps summed): Unfold's adjoint."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size = output_size
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def extra_repr(self):
        return f"output_size={self.output_size}, " + super().extra_repr()

    def forward(self, input):
        if input.dim() not in (2, 3):
            raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and "
                               f"non-zero dimensions for input, but got: {list(input.shape)}")
        batched = input.dim() == 3
        x = input if batched else input.unsqueeze(0)
        (kh, kw), (dh, dw), (ph, pw), (sh, sw) = self._settings()
        h, w = _pair(self.output_size)
        if x.shape[1] % (kh * kw):
            raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the product of kernel_size, "
                               f"but got input.size(1)={x.shape[1]} and kernel_size=({kh}, {kw}).")
        rows, cols, out_h, out_w = self._positions(h, w)
        if x.shape[2] != out_h * out_w:
            raise RuntimeError(f"Given output_size=({h}, {w}), kernel_size=({kh}, {kw}), dilation=({dh}, {dw}), "
                               f"padding=({ph}, {pw}), stride=({sh}, {sw}), expected size of input's dimension 2 to "
                               f"match the calculated number of sliding blocks {out_h} * {out_w} = {out_h * out_w}, "
                               f"but got input.size(2)={x.shape[2]}.")
        n, c = x.shape[0], x.shape[1] // (kh * kw)
        width = w + 2 * pw
        flat = (rows[:, None, :, None] * width + cols[None, :, None, :]).reshape(-1)  # (kh, kw, out_h, out_w)
        plane = _fn.zeros(n, c, (h + 2 * ph) * width, dtype=x.dtype, device=x.device)
        plane = plane.index_add(2, _fn.tensor(flat, device=x.device), x.reshape(n, c, -1))
        out = plane.reshape(n, c, h + 2 * ph, width)[:, :, ph:ph + h, pw:pw + w]
        return out if batched else out.squeeze(0)


def _bins(size, out):
    """PyTorch's adaptive windows over `size` positions into `out`: window i is [floor(i size / out),
    ceil((i + 1) size / out)); as an (out, widest) index matrix, short windows padded with their
    last index (a repeat does not change a max), and each window's length."""
    i = numpy.arange(out)
    start, end = (i * size) // out, -((-(i + 1) * size) // out)
    widest = int((end - start).max())
    return numpy.minimum(start[:, None] + numpy.arange(widest)[None, :], end[:, None] - 1)


class _AdaptiveMaxPool(Module):
    """The max of each adaptive window (PyTorch's bins) of the last `_k` dims; with
    return_indices, also where in the flattened plane each max is."""
    _k = None

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def extra_repr(self):
        return f"output_size={self.output_size}"

    def forward(self, input):
        k = self._k
        if input.dim() not in (k + 1, k + 2):
            if k == 1:
                raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor for "
                                   f"argument #1 'self' (while checking arguments for adaptive_max_pool1d)")
            raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {list(input.shape)}")
        sizes = tuple(input.shape[-k:])
        wanted = (self.output_size,) * k if isinstance(self.output_size, int) else tuple(self.output_size)
        outs = tuple(s if o is None else o for s, o in zip(sizes, wanted))
        bins = [_bins(s, o) for s, o in zip(sizes, outs)]
        lead = tuple(input.shape[:-k])
        if k == 1:
            windows = input[..., _fn.tensor(bins[0], device=input.device)]  # (..., out, width)
            flat = bins[0]
        else:
            rows, cols = bins
            r = _fn.tensor(rows[:, None, :, None], device=input.device)
            q = _fn.tensor(cols[None, :, None, :], device=input.device)
            windows = input[..., r, q]  # (..., out_h, out_w, height, width) of each window
            flat = (rows[:, None, :, None] * sizes[1] + cols[None, :, None, :])
        windows = windows.reshape(*lead, *outs, -1)
        values, where = windows.max(-1)
        if not self.return_indices:
            return values
        positions = _fn.tensor(flat.reshape(*outs, -1), device=input.device).expand(*lead, *outs, -1)
        return values, _fn.gather(positions, -1, where.unsqueeze(-1)).squeeze(-1)


class AdaptiveMaxPool1d(_AdaptiveMaxPool):
    """The max of each of output_size adaptive windows along the last dim of an (N, C, L) or (C, L) input."""
    _k = 1


class AdaptiveMaxPool2d(_AdaptiveMaxPool):
    """The max of each adaptive window of the last two dims (output_size (H, W); None keeps a dim)."""
    _k = 2


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
