"""torch.nn.functional's affine_grid and grid_sample, with PyTorch's checks, messages and warnings
(re-exported by nn/functional.py); their rows are engine/ops/nnlayers.py's affine_grid and
grid_sample (AffineGridGeneratorBackward0, GridSampler2DBackward0 / 3D)."""
import warnings

from .. import dtypes as _dt
from ..functions.arguments import tensor_in
from ..ops import TABLE as _op
from ..core.tensor import apply

__all__ = ["affine_grid", "grid_sample"]


def _default_align_corners(align_corners):
    """None: PyTorch's warning that the default is now False."""
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                      "Please specify align_corners=True if the old behavior is desired. See the documentation of "
                      "grid_sample for details.", stacklevel=3)
        return False
    return bool(align_corners)


def affine_grid(theta, size, align_corners=None):
    """The sampling grid of affine maps theta (N, 2, 3) or (N, 3, 4) for an output of `size`."""
    align_corners = _default_align_corners(align_corners)
    theta = tensor_in(theta)
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {_dt.as_dtype(theta.array.dtype)}")
    shape = tuple(theta.shape)
    if len(size) == 4:
        if theta.dim() != 3 or shape[-2] != 2 or shape[-1] != 3:
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. Got "
                             f"{theta.shape}.")
    elif len(size) == 5:
        if theta.dim() != 3 or shape[-2] != 3 or shape[-1] != 4:
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. Got "
                             f"{theta.shape}.")
    else:
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  f"respectively. Got size {size}.")
    if align_corners and min(size[2:]) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
                      "align_corners=True. This is not an intended use case of affine_grid. See the documentation "
                      "of affine_grid for details.", stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    if shape[0] != size[0]:  # (PyTorch's message: the batched product of its base grid and theta)
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{size[0]}, "
                           f"{shape[-1]}] but got: [{shape[0]}, {shape[-1]}].")
    return apply(_op["affine_grid"], theta, size=tuple(int(s) for s in size), align_corners=align_corners)


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """input (N, C, H, W) or (N, C, D, H, W) sampled at the grid's (x, y[, z]) positions in [-1, 1]."""
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
                         f"but got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    align_corners = _default_align_corners(align_corners)
    x, grid = tensor_in(input), tensor_in(grid)
    xs, gs = list(x.shape), list(grid.shape)
    # (in the order of PyTorch's checks: the common ones, then its 2-d or 3-d kernel's)
    if xs[0] != gs[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, but got input with "
                           f"sizes {xs} and grid with sizes {gs}")
    if gs[-1] != x.dim() - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {x.dim() - 2} in last dimension, but got "
                           f"grid with sizes {gs}")
    for d in range(2, x.dim()):
        if xs[d] <= 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial dimensions, but input has "
                               f"sizes {xs} with dimension {d} being empty")
    k = 2 if x.dim() == 4 else 3
    if x.dim() != k + 2 or grid.dim() != k + 2:
        raise RuntimeError(f"grid_sampler(): expected {k + 2}D input and grid with same number of dimensions, but "
                           f"got input with sizes {xs} and grid with sizes {gs}")
    if mode == "bicubic" and k == 3:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    names = [_dt.scalar_name(_dt.as_dtype(t.array.dtype)) for t in (x, grid)]
    if not x.is_floating_point():
        raise NotImplementedError(f'"grid_sampler_{k}d_cpu_kernel_impl" not implemented for \'{names[0]}\'')
    if names[0] != names[1]:
        raise RuntimeError(f"expected scalar type {names[0]} but found {names[1]}")
    return apply(_op["grid_sample"], x, grid, mode=mode, padding_mode=padding_mode, align_corners=align_corners)
