"""Rearranging, composed as PyTorch composes them (so the nodes have its names): ravel, tile,
diff, fliplr, flipud, unflatten, tensor_split (and hsplit, vsplit, dsplit: its views), repeat_interleave
and take_along_dim. rot90 and
diag_embed, rows of their own, are their rows' signatures (engine/ops/shapes.py)."""
import numpy

from ..core.tensor import wrap_dim, array_module, check_broadcastable
from .arguments import checked, tensor_in, as_tensor_like, shape_args
from ..ops.shapes import infer_shape
from .creation import zeros_like, tensor
from .basic import view, flatten, copy_, getitem
from .surface import made
from .shapes import narrow, flip, repeat, gather, index_select, _along
from ..core.inplace import type_word
from ..core.tensor import TensorBase as Tensor

reshape, unsqueeze, expand, cat = (made(n) for n in ('reshape', 'unsqueeze', 'expand', 'cat'))  # (functions the rows give)

_clone, _logical_xor, sub = made("clone"), made("logical_xor"), made("sub")  # (functions the rows give)

__all__ = ["ravel", "tile", "diff", "fliplr", "flipud", "unflatten", "tensor_split", "hsplit", "vsplit", "dsplit",
           "repeat_interleave", "take_along_dim"]


def _contiguous(x):
    flags = getattr(x.array, "flags", None)
    return flags is None or flags.c_contiguous


def ravel(input):
    """The elements as a 1-D tensor (a view of a contiguous input).

    input.contiguous().view(-1), as PyTorch: a copy (CloneBackward0) first where it is not contiguous."""
    input = tensor_in(input)
    return reshape(input if _contiguous(input) else _clone(input), -1)


def tile(input, *sizes, dims=None):
    """Repeat with the counts padded with leading 1s.

    repeat() with dims padded with leading 1s to the input's number of dims (x.tile(2, 1) as
    x.tile((2, 1)), as the method allows)."""
    input = tensor_in(input)
    dims = shape_args(sizes if dims is None else (dims,), "tile", "dims")
    return repeat(input, (1,) * (input.array.ndim - len(dims)) + dims)


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """The n-th forward difference along dim (prepend=, append= joined first).

    The n-th forward difference along dim (prepend/append joined on first): narrow(1) - narrow(0)
    n times, logical_xor for bools; n = 0 is a copy of the input alone (CopyBackwards), as PyTorch's."""
    input = tensor_in(input)
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"diff(): argument 'n' must be int, not {type(n).__name__}")
    nd = input.array.ndim
    if nd < 1:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    d = wrap_dim(checked(dim, "int", "diff", "dim"), nd)
    joined = [input]
    for name, other in (("prepend", prepend), ("append", append)):
        if other is None:
            continue
        if not isinstance(other, Tensor):
            raise TypeError(f"diff(): argument '{name}' must be Tensor, not {type(other).__name__}")
        if other.array.ndim != nd:
            raise RuntimeError("diff expects prepend or append to be the same dimension as input")
        for i, (a, b) in enumerate(zip(input.array.shape, other.array.shape)):
            if i != d and a != b:
                raise RuntimeError(f"diff expects the shape of tensor to prepend or append to match that of input "
                                   f"except along the differencing dimension; input.size({i}) = {a}, but got "
                                   f"tensor.size({i}) = {b}")
        joined.insert(0 if name == "prepend" else len(joined), other)
    if n == 0:  # no difference: the input itself, prepend and append left out (PyTorch's)
        return copy_(zeros_like(input), input)
    result = cat(joined, d) if len(joined) > 1 else input
    step = _logical_xor if result.array.dtype.kind == "b" else sub
    length = result.array.shape[d] - 1
    for _ in range(min(n, result.array.shape[d])):
        result = step(narrow(result, d, 1, length), narrow(result, d, 0, length))
        length -= 1
    return result


def fliplr(input):
    """The order reversed along dim 1 (left-right)."""
    input = tensor_in(input)
    if input.array.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(input, (1,))


def flipud(input):
    """The order reversed along dim 0 (up-down)."""
    input = tensor_in(input)
    if input.array.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(input, (0,))


def unflatten(input, dim, sizes):
    """One dim split into the given sizes (a view).

    Dim `dim` split into `sizes` (one may be -1): a view (ViewBackward0)."""
    input = tensor_in(input)
    shape = input.array.shape
    if not shape:
        raise RuntimeError(f"unflatten got an unexpected error:\nDimension specified as {dim} but tensor has no "
                           f"dimensions")  # (PyTorch's message goes on with its C++ stack)
    d = wrap_dim(checked(dim, "int", "unflatten", "dim"), input.array.ndim)
    sizes = shape_args((sizes,), "unflatten", "sizes")
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    try:
        sizes = infer_shape(sizes, shape[d])
    except RuntimeError:
        if sizes.count(-1) > 1 or any(s < -1 for s in sizes):
            raise
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {d} "
                           f"({shape[d]}) in the input tensor") from None
    return view(input, shape[:d] + tuple(sizes) + shape[d + 1:])


def tensor_split(input, indices_or_sections, dim=0):
    """Views along dim: n (nearly) equal pieces, or the pieces between indices.

    Views along dim: `sections` pieces (the first size % sections one longer), or the pieces
    between `indices` (as Python slices: clamped, and empty where they cross)."""
    input = tensor_in(input)
    nd = input.array.ndim
    if nd == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    split = indices_or_sections
    if isinstance(split, Tensor):
        if split.array.dtype != numpy.int64:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                               f"{type_word(split.dtype)}")
        if split.array.ndim > 1:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                               f"one-dimensional tensor, but got a tensor with {split.array.ndim} dims")
        split = split.item() if split.array.ndim == 0 else split.tolist()
    d = wrap_dim(checked(dim, "int", "tensor_split", "dim"), nd)
    if isinstance(split, (list, tuple)):
        bounds = [0] + list(checked(split, "tuple of ints", "tensor_split", "indices")) + [None]
    else:
        sections = checked(split, "int", "tensor_split", "sections")
        if sections <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
        size = input.array.shape[d]
        small, extra = divmod(size, sections)
        bounds = [i * small + min(i, extra) for i in range(sections + 1)]
    return tuple(getitem(input, _along(d, slice(a, b))) for a, b in zip(bounds[:-1], bounds[1:]))



# ------------------------------------------------------------------ hsplit, vsplit, dsplit

def _split_at(name, input, sections, dim, least):
    """hsplit/vsplit/dsplit: tensor_split along `dim`, of a tensor of `least` dims or more; an int
    number of sections must divide that dim."""
    input = tensor_in(input)
    nd = input.array.ndim
    if nd < least:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {least} dimension, but got a tensor with "
                           f"{nd} dimensions!")
    if isinstance(sections, Tensor) or not isinstance(sections, (int, list, tuple)):
        raise TypeError(f"{name}(): argument 'sections' must be int or tuple of ints, not {type(sections).__name__}")
    if isinstance(sections, int) and (sections == 0 or input.array.shape[dim] % sections):
        raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the size of the dimension "
                           f"{input.array.shape[dim]} is not divisible by the split_size {sections}!")
    return tensor_split(input, sections, dim)


def hsplit(input, indices_or_sections):
    """Split along dim 1 (dim 0 of a vector), into equal sections or at indices (views)."""
    input = tensor_in(input)
    return _split_at("hsplit", input, indices_or_sections, 1 if input.array.ndim > 1 else 0, 1)


def vsplit(input, indices_or_sections):
    """Split along dim 0, into equal sections or at indices (views)."""
    return _split_at("vsplit", input, indices_or_sections, 0, 2)


def dsplit(input, indices_or_sections):
    """Split along dim 2, into equal sections or at indices (views)."""
    return _split_at("dsplit", input, indices_or_sections, 2, 3)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each element (or slice along dim) repeated, a count each or one for all.

    Each element (or slice along dim) repeated: an int count as unsqueeze, expand, clone and
    view; a tensor of counts as index_select; with only a tensor of counts, the indices so
    repeated. Without dim the input is flattened first."""
    input = tensor_in(input)
    if repeats is None:  # torch.repeat_interleave(repeats)
        counts = _counts(input)
        if counts.ndim != 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        return as_tensor_like(numpy.repeat(numpy.arange(counts.size), counts), input)
    if dim is None:
        input, dim = flatten(input), 0
    if isinstance(repeats, Tensor):
        counts = _counts(repeats)
        if counts.ndim > 1:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        d = wrap_dim(checked(dim, "int", "repeat_interleave", "dim"), input.array.ndim)
        n = input.array.shape[d]
        if counts.size == 1:
            counts = numpy.full(n, counts.reshape(-1)[0])
        elif counts.size != n:
            raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                               f"{counts.size} and input.size({d}) = {n}")
        if (counts < 0).any():
            raise RuntimeError("repeats can not be negative")
        _check_output_size(output_size, int(counts.sum()))
        index = tensor(numpy.repeat(numpy.arange(n), counts), device=input.device)
        return index_select(input, d, index)
    if not isinstance(repeats, int) or isinstance(repeats, bool):
        raise TypeError(f"repeat_interleave(): argument 'repeats' must be int or Tensor, not {type(repeats).__name__}")
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    d = wrap_dim(checked(dim, "int", "repeat_interleave", "dim"), input.array.ndim)
    expanded = unsqueeze(input, d + 1)
    shape = input.array.shape
    _check_output_size(output_size, shape[d] * repeats)
    expanded = _clone(expand(expanded, shape[:d + 1] + (repeats,) + shape[d + 1:]))
    return reshape(expanded, shape[:d] + (shape[d] * repeats,) + shape[d + 1:])


def _counts(repeats):
    """The counts of a repeats tensor as a host array (whole numbers only, as PyTorch's kernel)."""
    if repeats.array.dtype.kind not in "iu":
        raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for '{type_word(repeats.dtype)}'")
    return numpy.asarray(repeats.tolist(), dtype=numpy.int64)


def _check_output_size(output_size, size):
    if output_size is not None and int(output_size) != size:
        raise RuntimeError(f"repeat_interleave: Invalid output_size, expected {size} but got {output_size}")


def take_along_dim(input, indices, dim=None):
    """Values picked along dim at indices broadcast against the input (or of the flattened input).

    gather() after broadcasting input and indices against each other except along dim (the
    input through expand, as PyTorch); without dim, of the flattened input (a view of it)."""
    input = tensor_in(input)
    indices = indices if isinstance(indices, Tensor) else as_tensor_like(indices, input)
    if indices.array.dtype != numpy.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{type_word(indices.dtype)}")
    if dim is None:
        return gather(view(input, -1), 0, reshape(indices, -1))
    nd = input.array.ndim
    if indices.array.ndim != nd:
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same number of dimensions, "
                           f"but got {nd} dimensions for input, and {indices.array.ndim} dimensions for indices")
    d = wrap_dim(checked(dim, "int", "take_along_dim", "dim"), nd)
    shape, ishape = input.array.shape, indices.array.shape
    check_broadcastable(shape[:d] + (ishape[d],) + shape[d + 1:], ishape)
    index_shape = numpy.broadcast_shapes(shape[:d] + (ishape[d],) + shape[d + 1:], ishape)
    input_shape = numpy.broadcast_shapes(ishape[:d] + (shape[d],) + ishape[d + 1:], shape)
    xp = array_module(indices.device)
    index = xp.broadcast_to(indices.array, index_shape)
    if index.size and bool((index < 0).any()):  # take_along_dim counts from the end, as indexing does
        index = xp.where(index < 0, index + shape[d], index)
    return gather(expand(input, input_shape), d, as_tensor_like(index, input))
