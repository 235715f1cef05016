"""Op cases of the in-place view methods (t_, transpose_, swapdims_, squeeze_, unsqueeze_) and of
the rearranging functions (ravel, tile, diff, fliplr, flipud, rot90, unflatten, tensor_split,
repeat_interleave, take_along_dim, diag_embed); see tests/engine/ops/op_cases.py for what a case is.
Node names are PyTorch 2.13's for the same expression."""
import numpy as np

import autodiff.engine as ad
from op_cases import C, on_copy, np_on_copy

_I = ad.tensor  # index tensors (int64)


# ============================================================ in-place views

def _t_then_scale(x, w):
    """A view transposed in place, then written through: the base's gradient (CopySlices)."""
    y = x * 1
    v = y[:, 1:]
    v.t_()
    v.mul_(w)
    return y


def _np_t_then_scale(x, w):
    y = x.copy()
    y[:, 1:] *= w.T
    return y


def _view_after_base_t_(x):
    """A view made before its base was transposed in place still selects the same elements."""
    y = x * 1
    v = y[0]
    y.t_()
    return v


def _squeezed_view_written(x, w):
    y = x * 1
    v = y[1:]
    v.squeeze_(0)
    v.unsqueeze_(-1)
    v.add_(w)
    return y


C("transpose", "inplace_t_", on_copy(lambda y: y.t_()), [(2, 3)], lambda x: x.T, "TBackward1")
C("transpose", "inplace_t_vector", on_copy(lambda y: y.t_()), [(3,)], lambda x: x, "TBackward1")
C("transpose", "inplace_transpose_neg", on_copy(lambda y: y.transpose_(-1, 0)), [(2, 3, 4)],
  lambda x: np.swapaxes(x, -1, 0), "TransposeBackward1")
C("transpose", "inplace_swapdims_", on_copy(lambda y: y.swapdims_(0, 1)), [(2, 3)], lambda x: x.T,
  "TransposeBackward1")
C("transpose", "inplace_swapaxes_twice", on_copy(lambda y: y.swapaxes_(0, 2).swapaxes_(1, 2)), [(2, 3, 4)],
  lambda x: np.swapaxes(np.swapaxes(x, 0, 2), 1, 2), "TransposeBackward1")
C("transpose", "swapdims", lambda x: ad.swapdims(x, 0, 2), [(2, 3, 4)], lambda x: np.swapaxes(x, 0, 2),
  "TransposeBackward0")
C("transpose", "swapaxes_kw", lambda x: ad.swapaxes(x, axis0=-1, axis1=0), [(2, 3)], lambda x: x.T,
  "TransposeBackward0")
C("transpose", "t_vector", lambda x: x.t(), [(3,)], lambda x: x, "TBackward0")
C("transpose", "scalar", lambda x: x.transpose(0, -1), [()], lambda x: x, "TransposeBackward0")
C("transpose", "view_t_then_mul_", _t_then_scale, [(2, 3), (2, 2)], _np_t_then_scale,
  "torch::autograd::CopySlices")
C("as_strided", "view_after_base_t_", _view_after_base_t_, [(2, 3)], lambda x: x[0], "AsStridedBackward0")
C("squeeze", "inplace_all", on_copy(lambda y: y.squeeze_()), [(2, 1, 3, 1)], np.squeeze, "SqueezeBackward3")
C("squeeze", "inplace_dim", on_copy(lambda y: y.squeeze_(-1)), [(2, 3, 1)], lambda x: x[..., 0],
  "SqueezeBackward4")
C("squeeze", "inplace_dim_kept", on_copy(lambda y: y.squeeze_(0)), [(2, 3)], lambda x: x, "SqueezeBackward4")
C("squeeze", "inplace_dims", on_copy(lambda y: y.squeeze_((1, 3))), [(2, 1, 3, 1)], lambda x: x[:, 0, :, 0],
  "SqueezeBackward5")
C("squeeze", "dims", lambda x: x.squeeze((0, -1)), [(1, 2, 1)], lambda x: x[0, :, 0], "SqueezeBackward2")
C("squeeze", "scalar_dim", lambda x: ad.squeeze(x, 0), [()], lambda x: x, "SqueezeBackward1")
C("squeeze", "view_written_through", _squeezed_view_written, [(2, 3), (3, 1)],
  np_on_copy(lambda y, w: y[1:].__iadd__(w.T)), "torch::autograd::CopySlices")
C("unsqueeze", "inplace", on_copy(lambda y: y.unsqueeze_(1)), [(2, 3)], lambda x: x[:, None], "UnsqueezeBackward1")
C("unsqueeze", "inplace_neg", on_copy(lambda y: y.unsqueeze_(-1)), [()], lambda x: x[None], "UnsqueezeBackward1")


# ============================================================ rearranging

def _np_diff(x, n=1, axis=-1, prepend=None, append=None):
    parts = [p for p in (prepend, x, append) if p is not None]
    return np.diff(np.concatenate(parts, axis=axis), n=n, axis=axis)


def _np_repeat_index(counts):
    return np.repeat(np.arange(len(counts)), counts)


C("reshape", "ravel", lambda x: x.ravel(), [(2, 3)], np.ravel, "ViewBackward0")
C("reshape", "ravel_transposed", lambda x: ad.ravel(x.t()), [(2, 3)], lambda x: np.ravel(x.T), "ViewBackward0")
C("reshape", "unflatten", lambda x: x.unflatten(1, (2, -1)), [(2, 6)], lambda x: x.reshape(2, 2, 3), "ViewBackward0")
C("reshape", "unflatten_neg_dim", lambda x: ad.unflatten(x, -1, (2, 1, 2)), [(3, 4)], lambda x: x.reshape(3, 2, 1, 2),
  "ViewBackward0")
C("reshape", "repeat_interleave_flat", lambda x: x.repeat_interleave(2), [(2, 3)], lambda x: np.repeat(x, 2),
  "ViewBackward0")
C("reshape", "repeat_interleave_dim", lambda x: ad.repeat_interleave(x, 3, dim=-2), [(2, 2, 3)],
  lambda x: np.repeat(x, 3, axis=-2), "ViewBackward0")
C("getitem", "repeat_interleave_tensor", lambda x: x.repeat_interleave(_I([2, 0, 1]), dim=1), [(2, 3)],
  lambda x: np.repeat(x, [2, 0, 1], axis=1), "IndexSelectBackward0")
C("getitem", "repeat_interleave_one_count", lambda x: ad.repeat_interleave(x, _I([2])), [(2, 2)],
  lambda x: np.repeat(x, 2), "IndexSelectBackward0")
C("repeat", "tile_padded", lambda x: x.tile((2,)), [(2, 3)], lambda x: np.tile(x, (1, 2)), "RepeatBackward0")
C("repeat", "tile_longer", lambda x: ad.tile(x, (2, 1, 2)), [(2, 3)], lambda x: np.tile(x, (2, 1, 2)),
  "RepeatBackward0")
C("sub", "diff", lambda x: ad.diff(x), [(2, 4)], lambda x: np.diff(x), "SubBackward0")
C("sub", "diff_n2_dim0", lambda x: x.diff(n=2, dim=0), [(4, 3)], lambda x: np.diff(x, 2, axis=0), "SubBackward0")
C("sub", "diff_prepend_append", lambda x, p, a: ad.diff(x, dim=1, prepend=p, append=a), [(2, 3), (2, 1), (2, 2)],
  lambda x, p, a: _np_diff(x, 1, 1, p, a), "SubBackward0")
C("copy", "diff_n0", lambda x: ad.diff(x, n=0), [(3,)], lambda x: x, "torch::autograd::CopyBackwards")
C("flip", "fliplr", lambda x: x.fliplr(), [(2, 3, 2)], np.fliplr, "FlipBackward0")
C("flip", "flipud", lambda x: ad.flipud(x), [(3, 2)], np.flipud, "FlipBackward0")
C("rot90", "once", lambda x: x.rot90(), [(2, 3)], np.rot90, "Rot90Backward0")
C("rot90", "k3_dims", lambda x: ad.rot90(x, 3, [2, 0]), [(2, 3, 4)], lambda x: np.rot90(x, 3, (2, 0)),
  "Rot90Backward0")
C("rot90", "k_neg", lambda x: ad.rot90(x, -1, (-1, -2)), [(2, 3)], lambda x: np.rot90(x, -1, (1, 0)),
  "Rot90Backward0")
C("rot90", "k0", lambda x: x.rot90(4), [(2, 2)], lambda x: x, "Rot90Backward0")
C("getitem", "tensor_split_sections", lambda x: x.tensor_split(3, dim=1)[1], [(2, 5)], lambda x: x[:, 2:4],
  "SliceBackward0")
C("getitem", "tensor_split_indices", lambda x: ad.tensor_split(x, [1, -1])[1], [(4, 2)], lambda x: x[1:-1],
  "SliceBackward0")
C("getitem", "tensor_split_tensor", lambda x: ad.tensor_split(x, _I([2]), -1)[0], [(2, 3)], lambda x: x[:, :2],
  "SliceBackward0")
C("take_along", "take_along_dim", lambda x: ad.take_along_dim(x, _I([[2, 0], [1, 1]]), 1), [(2, 3)],
  lambda x: np.take_along_axis(x, np.array([[2, 0], [1, 1]]), 1), "GatherBackward0")
C("take_along", "take_along_dim_broadcast", lambda x: x.take_along_dim(_I([[[0], [2]]]), dim=-1), [(3, 2, 4)],
  lambda x: np.take_along_axis(x, np.broadcast_to(np.array([[[0], [2]]]), (3, 2, 1)), -1), "GatherBackward0")
C("take_along", "take_along_dim_flat", lambda x: ad.take_along_dim(x, _I([5, 0, 5])), [(2, 3)],
  lambda x: x.reshape(-1)[[5, 0, 5]], "GatherBackward0")
C("diag_embed", "last_dims", lambda x: ad.diag_embed(x), [(2, 3)], lambda x: np.stack([np.diag(r) for r in x]),
  "DiagEmbedBackward0")
C("diag_embed", "offset_dims", lambda x: x.diag_embed(1, 0, 2), [(2, 3)],
  lambda x: np.stack([np.diag(r, 1) for r in x], axis=1), "DiagEmbedBackward0")
C("diag_embed", "below", lambda x: ad.diag_embed(x, -2, -1, -2), [(3,)], lambda x: np.diag(x, 2),
  "DiagEmbedBackward0")


# ============================================================ splitting, diagflat, sum_to_size, constant_pad_nd

C("getitem", "hsplit_sections", lambda x: ad.hsplit(x, 2)[1], [(2, 4)], lambda x: x[:, 2:], "SliceBackward0")
C("getitem", "hsplit_vector", lambda x: x.hsplit(3)[2], [(6,)], lambda x: x[4:], "SliceBackward0")
C("getitem", "vsplit_indices", lambda x: x.vsplit([1, 3])[1], [(4, 2)], lambda x: x[1:3], "SliceBackward0")
C("getitem", "dsplit_indices", lambda x: ad.dsplit(x, [2])[0], [(2, 2, 3)], lambda x: x[:, :, :2], "SliceBackward0")
C("diag_matrix", "diagflat_below", lambda x: ad.diagflat(x, -1), [(2, 2)], lambda x: np.diagflat(x, -1),
  "DiagEmbedBackward0")
C("diag_matrix", "diagflat_method", lambda x: x.diagflat(2), [(3,)], lambda x: np.diagflat(x, 2), "DiagEmbedBackward0")
C("sum", "sum_to_size_ones", lambda x: x.sum_to_size(1, 3), [(2, 3)], lambda x: x.sum(0, keepdims=True),
  "SumBackward1")
C("reshape", "sum_to_size_leading", lambda x: x.sum_to_size((3, 1)), [(2, 3, 4)], lambda x: x.sum((0, 2))[:, None],
  "ViewBackward0")
C("sum", "sum_to_size_number", lambda x: x.sum_to_size(()), [(2, 3)], np.sum, "SumBackward0")
C("constant_pad_nd", "function", lambda x: ad.constant_pad_nd(x, (1, -1, 0, 2), 0.5), [(2, 3, 4)],
  lambda x: np.pad(x[..., :3], ((0, 0), (0, 2), (1, 0)), constant_values=0.5), "ConstantPadNdBackward0")


# ============================================================ slice_scatter, select_scatter, diagonal_scatter

def _np_diagonal_scatter_02(x, s):
    """diagonal_scatter(x, s, -1, 0, 2) of x (3, 2, 4): s[j, k] at x[k + 1, j, k]."""
    y = x.copy()
    k = np.arange(2)
    y[k + 1, :, k] = s.T
    return y


C("scatter_into", "slice_scatter_step", lambda x, s: ad.slice_scatter(x, s, 1, 0, 4, 2), [(3, 4), (3, 2)],
  np_on_copy(lambda y, s: y[:, 0:4:2].__setitem__(Ellipsis, s)), "SliceScatterBackward0")
C("scatter_into", "slice_scatter_method_neg", lambda x, s: x.slice_scatter(s, dim=-1, start=-2), [(3, 4), (3, 2)],
  np_on_copy(lambda y, s: y[:, -2:].__setitem__(Ellipsis, s)), "SliceScatterBackward0")
C("scatter_into", "slice_scatter_all", lambda x, s: ad.slice_scatter(x, s), [(2, 2), (2, 2)], lambda x, s: s,
  "SliceScatterBackward0")
C("scatter_into", "select_scatter_last", lambda x, s: ad.select_scatter(x, s, 0, -1), [(3, 4), (4,)],
  np_on_copy(lambda y, s: y.__setitem__(-1, s)), "SelectScatterBackward0")
C("scatter_into", "diagonal_scatter_above", lambda x, s: x.diagonal_scatter(s, 1), [(3, 4), (3,)],
  np_on_copy(lambda y, s: y.__setitem__((np.arange(3), np.arange(3) + 1), s)), "DiagonalScatterBackward0")
C("scatter_into", "diagonal_scatter_dims", lambda x, s: ad.diagonal_scatter(x, s, -1, 0, 2), [(3, 2, 4), (2, 2)],
  _np_diagonal_scatter_02, "DiagonalScatterBackward0")


# ============================================================ the _copy twins of the views (copies, not views)

C("view_copy", "view_copy_transposed", lambda x: ad.view_copy(x.mT, (12,)), [(3, 4)], lambda x: x.T.reshape(12),
  "ViewBackward0_copy")
C("view_copy", "t_copy", lambda x: ad.t_copy(x), [(2, 3)], lambda x: x.T, "TBackward0_copy")
C("view_copy", "permute_copy", lambda x: ad.permute_copy(x, (2, 0, 1)), [(2, 3, 4)],
  lambda x: np.transpose(x, (2, 0, 1)), "PermuteBackward0_copy")
C("view_copy", "transpose_copy", lambda x: ad.transpose_copy(x, 0, -1), [(2, 3, 4)], lambda x: np.swapaxes(x, 0, -1),
  "TransposeBackward0_copy")
C("view_copy", "unsqueeze_copy", lambda x: ad.unsqueeze_copy(x, -1), [(2, 3)], lambda x: x[..., None],
  "UnsqueezeBackward0_copy")
C("view_copy", "squeeze_copy_dim", lambda x: ad.squeeze_copy(x, 1), [(2, 1, 3)], lambda x: x[:, 0],
  "SqueezeBackward1_copy")
C("view_copy", "squeeze_copy_all", lambda x: ad.squeeze_copy(x), [(1, 3, 1)], np.squeeze, "SqueezeBackward0_copy")
C("view_copy", "squeeze_copy_dims", lambda x: ad.squeeze_copy(x, (0, 2)), [(1, 3, 1)], lambda x: x[0, :, 0],
  "SqueezeBackward2_copy")
C("view_copy", "expand_copy", lambda x: ad.expand_copy(x, (2, 3, 4)), [(3, 1)],
  lambda x: np.broadcast_to(x, (2, 3, 4)), "ExpandBackward0_copy")
C("view_copy", "diagonal_copy", lambda x: ad.diagonal_copy(x, 1, 0, 2), [(3, 2, 4)],
  lambda x: np.diagonal(x, 1, 0, 2), "DiagonalBackward0_copy")
C("view_copy", "unbind_copy", lambda x: ad.unbind_copy(x, 1)[1], [(2, 3)], lambda x: x[:, 1], "UnbindBackward0_copy")
C("view_copy", "split_with_sizes_copy", lambda x: ad.split_with_sizes_copy(x, [1, 2], -1)[1], [(2, 3)],
  lambda x: x[:, 1:], "SplitWithSizesBackward0_copy")
C("view_copy", "alias_copy", lambda x: ad.alias_copy(x), [(2, 3)], lambda x: x, "AliasBackward0_copy")
C("view_copy", "narrow_copy", lambda x: x.narrow_copy(1, 1, 2), [(2, 4)], lambda x: x[:, 1:3], "NarrowCopyBackward0")
C("view_copy", "unfold_copy_overlapping", lambda x: ad.unfold_copy(x, 1, 3, 2), [(2, 7)],
  lambda x: np.lib.stride_tricks.sliding_window_view(x, 3, axis=1)[:, ::2], "UnfoldBackward0_copy")
C("view_copy", "unsafe_chunk", lambda x: ad.unsafe_chunk(x, 2, 1)[1], [(2, 5)], lambda x: x[:, 3:],
  "UnsafeSplitBackward0")
C("view_copy", "unsafe_split_method", lambda x: x.unsafe_split(2)[0], [(3, 2)], lambda x: x[:2], "UnsafeSplitBackward0")
C("view_copy", "unsafe_split_with_sizes", lambda x: ad.unsafe_split_with_sizes(x, [1, 3])[1], [(4, 2)],
  lambda x: x[1:], "UnsafeSplitWithSizesBackward0")
