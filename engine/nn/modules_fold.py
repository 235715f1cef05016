"""torch.nn.Unfold and Fold (im2col and col2im) as compositions: Unfold gathers the sliding blocks
of a padded (N, C, H, W) input by indexing (its gradient adds up where blocks overlap), Fold adds
each block's values into place (index_add) and crops the padding. Their results' nodes are those
ops' (PyTorch's are Im2ColBackward0 / Col2ImBackward0)."""
import numpy

from .. import functions as _fn
from . import functional as F
from .module import Module

__all__ = ["Unfold", "Fold"]


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
