"""Hand-written public functions of the strided family (rows in engine/ops/strided.py):

- as_strided, as_strided_, as_strided_copy, as_strided_scatter: a view of the memory a tensor
  lies in, chosen by size, strides and storage offset; every geometry is checked against that
  memory's size (PyTorch's setStorage message) before anything is made, so nothing outside it is
  ever read. Tensor.resize_ and resize_as_ are as_strided_ with a row-major geometry from the
  tensor's storage offset (memory of their own where the old is too small; no autograd, as
  PyTorch's; new elements are 0 here, uninitialised in PyTorch);
- gradient: numerical derivatives by central differences, composed of slicing and arithmetic as
  PyTorch composes it (so its derivatives are theirs and its nodes PyTorch's);
- nonzero_static: nonzero's rows, cut or padded to a fixed count;
- real, imag, conj, conj_physical(_), resolve_conj, resolve_neg, is_conj, is_neg on real tensors
  (this engine has no complex dtype): the input itself where PyTorch returns it, imag PyTorch's
  error (Tensor.real is the tensor; there is no Tensor.imag attribute, whose reading PyTorch
  refuses). angle is a row of its own (its signature's function).
"""
import math

import numpy

from .. import dtypes as _dt
from ..allocation import check_allocation
from ..backend import backend_for
from ..core.grad_mode import is_inference_mode_enabled
from ..core.inplace import inplace, INFERENCE_INPLACE_MESSAGE
from ..core.tensor import TensorBase as Tensor, apply, array_module, make_tensor, run_op, storage_of, \
    wrap_dim
from ..functions.inplace_views import _reshape_in_place
from ..ops import TABLE
from ..ops.arithmetic import not_a_tensor
from ..ops.strided import element_strides, same_layout, span, storage, strided_view, conj_physical_record, \
    StridedView, StridedOverlapView, AsStridedScatter
from ..host_data import is_number
from .arguments import tensor_list
from .arrange import diff as _diff
from .surface import made

__all__ = ["as_strided", "as_strided_", "as_strided_copy", "as_strided_scatter", "resize_as_", "gradient",
           "nonzero_static", "real", "imag", "conj", "conj_physical", "conj_physical_", "resolve_conj",
           "resolve_neg", "is_conj", "is_neg"]

_cat, _reshape = made("cat"), made("reshape")
_INT64_MAX = (1 << 63) - 1
_OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.")


# ------------------------------------------------------------------ arguments, in PyTorch's words

def _int_list(value, fname, name, position):
    """A `tuple of ints` argument (a list, tuple or torch.Size of whole numbers) as a tuple."""
    where = f" (position {position})" if position is not None else ""
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{fname}(): argument '{name}'{where} must be tuple of ints, not {type(value).__name__}")
    out = []
    for i, v in enumerate(value):
        if isinstance(v, Tensor) and v.array.dtype.kind in "iu" and v.array.size == 1:
            v = int(v.item())
        if isinstance(v, (bool, numpy.bool_)) or not isinstance(v, (int, numpy.integer)):
            raise TypeError(f"{fname}(): argument '{name}'{where} must be tuple of ints, but found element of type "
                            f"{type(v).__name__} at pos {i}")
        out.append(_int64(int(v), f"{fname}(): argument '{name}' failed to unpack the object at pos {i} with error ",
                          TypeError))
    return tuple(out)


def _int64(v, head="", error=ValueError):
    if not -_INT64_MAX - 1 <= v <= _INT64_MAX:
        raise error(head + ('"Overflow when unpacking long long"' if head else "Overflow when unpacking long long"))
    return v


def _int_arg(value, fname, name, position=None):
    """An `int` argument (a 0-d integer tensor too), or PyTorch's TypeError."""
    if isinstance(value, Tensor) and value.array.dtype.kind in "iu" and value.array.ndim == 0:
        value = int(value.item())
    if isinstance(value, (bool, numpy.bool_)) or not isinstance(value, (int, numpy.integer)):
        where = f" (position {position})" if position is not None else ""
        raise TypeError(f"{fname}(): argument '{name}'{where} must be int, not {type(value).__name__}")
    return _int64(int(value))


def _tensor(value, fname, name="input", position=1):
    if not isinstance(value, Tensor):
        raise not_a_tensor(value, fname, name, position)
    return value


# ------------------------------------------------------------------ geometry

def _block(input):
    """(flat, position, xp) of the memory the input lies in (ops/strided.storage). On the CPU only:
    the views are made over the host array's own buffer (CuPy's memory is not addressed so here)."""
    if input.device.type != "cpu":
        raise RuntimeError(f"as_strided and its kin (as_strided_, as_strided_copy, as_strided_scatter, resize_) run "
                           f"on the CPU only here; the tensor is on {input.device}: move it with .cpu() first")
    arr = storage_of(input)
    xp = array_module(input.device)
    block = storage(xp, arr)
    if block is None:  # (an array over a foreign buffer: none this engine makes)
        raise RuntimeError("as_strided: the tensor's memory is not one block this engine can address")
    return block + (xp,)


def _checked_geometry(input, size, stride, storage_offset, fname, position):
    """The (size, stride, storage_offset) of a call, checked as PyTorch checks them, in its order and
    words: types (`position`: the place of size in the call), then lengths, signs, the storage size
    the geometry needs against the memory the input lies in. Returns them with the offset filled in."""
    size = _int_list(size, fname, "size", position)
    stride = _int_list(stride, fname, "stride", position + 1)
    flat, here, _ = _block(input)
    offset = here if storage_offset is None else _int_arg(storage_offset, fname, "storage_offset", position + 2)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got strides: {list(stride)}")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    itemsize = flat.itemsize
    extent = span(size, stride)
    needed = 0 if extent is None else offset + extent + 1
    if any(n < 0 for n in size) or needed * itemsize > _INT64_MAX:
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and strides={list(stride)}")
    if needed > flat.size:
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, and "
                           f"itemsize {itemsize} requiring a storage size of {needed * itemsize} are out of bounds "
                           f"for storage of size {flat.size * itemsize}")
    check_allocation(size, numpy.dtype(numpy.int64))  # (the view allocates nothing; its index map does)
    return size, stride, offset


def _positions(shape, strides, offset):
    """The storage position of each element of a geometry, as a host int64 array of `shape`."""
    out = numpy.full(shape, offset, dtype=numpy.int64)
    for k, (n, s) in enumerate(zip(shape, strides)):
        out += (numpy.arange(n, dtype=numpy.int64) * s).reshape((n,) + (1,) * (len(shape) - k - 1))
    return out


def _locate(owned, wanted, last=False):
    """For each position in `wanted`: the flat index in `owned` (positions) of an element there --
    the first in order, or the last -- and -1 where none is; host int64 arrays."""
    flat = owned.reshape(-1)
    if flat.size == 0:
        return numpy.full(wanted.shape, -1, dtype=numpy.int64)
    order = numpy.argsort(flat, kind="stable")
    sorted_positions = flat[order]
    at = numpy.searchsorted(sorted_positions, wanted, side="right" if last else "left") - (1 if last else 0)
    at = numpy.clip(at, 0, flat.size - 1)
    return numpy.where(sorted_positions[at] == wanted, order[at], -1).astype(numpy.int64)


def _repeats(shape, strides, positions=None):
    """Whether a geometry selects some position twice: no where each dim's stride (smallest first)
    passes all the positions the smaller ones reach; else counted (`positions`, made when not given)."""
    reached = 0
    for s, n in sorted((s, n) for n, s in zip(shape, strides) if n > 1):
        if s <= reached:
            flat = (_positions(shape, strides, 0) if positions is None else positions).reshape(-1)
            return numpy.unique(flat).size < flat.size
        reached += (n - 1) * s
    return False


class _Selection:
    """What one as_strided call selects of its input: the geometry, the input's own (its strides,
    the positions of its elements), and for each selected position the input's element there."""

    def __init__(self, input, size, stride, offset):
        self.input, self.size, self.stride, self.offset = input, size, stride, offset
        arr = storage_of(input)
        _, self.here, self.xp = _block(input)
        self.shape, self.strides = arr.shape, element_strides(arr)
        self.dense = same_layout(arr.shape, self.strides, _contiguous_strides(arr.shape))  # (row-major)
        self.wanted = _positions(size, stride, offset)
        self.index = self.find(self.wanted)

    @property
    def owned(self):
        """The position of each of the input's elements."""
        return _positions(self.shape, self.strides, self.here)

    def find(self, positions):
        """For each position, the input's element there (its flat index in C order), -1 where none is."""
        if self.dense:  # (the commonest: a row-major input holds the positions here, here + 1, ...)
            at = positions - self.here
            return numpy.where((at >= 0) & (at < math.prod(self.shape)), at, -1)
        return _locate(self.owned, positions)

    def row(self):
        """The view row: StridedOverlapView where a position is selected twice."""
        return StridedOverlapView if _repeats(self.size, self.stride, self.wanted) else StridedView

    def on_device(self, host):
        return host if self.input.device.type == "cpu" else backend_for(self.input.device).from_host(host)

    def reach(self):
        """"own" when every selected position is one of the input's elements; "base" when the others
        lie in its base's memory, laid out row-major (a view's step then replays on a fresh base-shaped
        array); None otherwise."""
        if (self.index >= 0).all():
            return "own"
        base = self.input._base if self.input._base is not None else self.input
        arr = storage_of(base)
        if not getattr(arr, "flags", None) or not arr.flags.c_contiguous:
            return None
        start = storage(self.xp, arr)[1]
        return "base" if ((self.wanted >= start) & (self.wanted < start + arr.size)).all() else None

    def params(self, reach):
        """The as_strided_view row's parameters (ops/strided.py)."""
        params = {"size": self.size, "stride": self.stride, "delta": self.offset - self.here, "source": self.strides,
                  "index": self.on_device(self.index), "reach": reach}
        if self.input.dtype.is_floating_point and _repeats(self.shape, self.strides):
            # elements of the input share positions (it is expanded): the gradient at a position is
            # divided among them (the weight of each selected element), then spread to each of them
            owned = self.owned
            first = _locate(owned, owned)
            counts = numpy.bincount(first.reshape(-1), minlength=first.size).astype(float)
            weight = numpy.where(self.index >= 0, 1.0 / numpy.maximum(counts[numpy.maximum(self.index, 0)], 1), 0.0)
            params["weight"] = self.on_device(weight.astype(self.input.array.dtype))
            params["spread"] = self.on_device(first)
        return params


# ------------------------------------------------------------------ as_strided and its kin

def as_strided(input, size, stride, storage_offset=None):
    """A view of input's memory with the given size, strides and storage offset.

    A view of the memory input lies in (its storage): element i of the result is the one at
    position storage_offset + sum(i_k * stride_k) (storage_offset: input's own by default). A
    geometry reaching past the memory's end is refused (PyTorch's setStorage error), so nothing
    outside it is read; negative strides are refused as PyTorch refuses them. The gradient scatters
    back into input's elements, adding up where positions repeat (PyTorch's AsStridedBackward0).
    Where the view would reach memory beside input that lies outside a row-major base, the result
    is a copy (still AsStridedBackward0)."""
    return _as_strided(_tensor(input, "as_strided"), size, stride, storage_offset, 2)


def _as_strided(input, size, stride, storage_offset, position):
    selection = _Selection(input, *_checked_geometry(input, size, stride, storage_offset, "as_strided", position))
    reach = selection.reach()
    if reach is None:  # memory beside input, laid out otherwise than a replay would see it: a copy
        return apply(TABLE["view_copy"], input, view=selection.row().name, args=selection.params("base"),
                     node="AsStridedBackward0")
    return run_op(selection.row(), (input,), selection.params(reach))


def as_strided_copy(input, size, stride, storage_offset=None):
    """as_strided()'s elements as a tensor of its own (a copy, not a view)."""
    input = _tensor(input, "as_strided_copy")
    selection = _Selection(input, *_checked_geometry(input, size, stride, storage_offset, "as_strided_copy", 2))
    params = selection.params(selection.reach() or "base")
    return apply(TABLE["view_copy"], input, view=selection.row().name, args=params, node="AsStridedBackward0_copy")


def as_strided_(input, size, stride, storage_offset=None):
    """input made, in place, the view as_strided(input, size, stride, storage_offset) would be."""
    return _as_strided_inplace(_tensor(input, "as_strided_"), size, stride, storage_offset, 2)


def _as_strided_inplace(input, size, stride, storage_offset, position):
    size, stride, offset = _checked_geometry(input, size, stride, storage_offset, "as_strided_", position)
    return _restride(input, size, stride, offset, "as_strided_", "AsStridedBackward1")


def _restride(target, size, stride, offset, fname, node=None):
    """target <- its memory read with this geometry (checked to lie in it): a view of itself, as
    the in-place view methods make one (inplace_views.py). For a view the step goes on its chain;
    for a base, the step back is logged for the views made of it before (those whose elements are
    all in the new geometry still follow back to it)."""
    selection = _Selection(target, size, stride, offset)
    reach = selection.reach()
    if reach is None:
        if target._base is not None:  # (its step could not be replayed on a fresh array shaped like the base)
            raise RuntimeError(f"{fname}(): the new geometry reaches memory beside this view's elements that its "
                               f"base does not lay out row-major; not supported here")
        reach = "base"  # (a base's own step is never replayed: only the step back)
    params = dict(selection.params(reach), name=node)
    undo = None
    if target._base is None:  # the old elements, found among the new ones
        back = _locate(selection.wanted, selection.owned)
        undo = (StridedOverlapView if _repeats(selection.shape, selection.strides) else StridedView, {
            "size": tuple(target.shape), "stride": selection.strides, "delta": selection.here - offset,
            "source": stride, "index": selection.on_device(back), "reach": "own"})
    return _reshape_in_place(target, selection.row(), undo, params)


def as_strided_scatter(input, src, size, stride, storage_offset=None):
    """input with src written where as_strided(input, size, stride, storage_offset) would be.

    A copy of input whose elements at the positions storage_offset + sum(i_k * stride_k) of its
    memory are src's, in src's order (where a position repeats, the last of src's elements there;
    where it is no element of input, nothing is written). src must have the view's size; a size
    with a zero stride (one memory cell written twice) is PyTorch's error."""
    return _as_strided_scatter(_tensor(input, "as_strided_scatter"), src, size, stride, storage_offset, 2)


def _as_strided_scatter(input, src, size, stride, storage_offset, position):
    src = _tensor(src, "as_strided_scatter", "src", position)
    size, stride, offset = _checked_geometry(input, size, stride, storage_offset, "as_strided_scatter",
                                             position + 1)
    if any(s == 0 and n > 1 for n, s in zip(size, stride)):
        raise RuntimeError(_OVERLAP)
    if tuple(src.shape) != size:
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, "
                           f"slice size = {list(size)}")
    selection = _Selection(input, size, stride, offset)
    take = _locate(selection.wanted, selection.owned, last=True).reshape(-1)  # for each element, src's there
    keep = numpy.where(take < 0, numpy.arange(take.size), -1).reshape(storage_of(input).shape)
    if src.dtype != input.dtype:
        src = src.to(input.dtype)
    params = {"take": selection.on_device(take), "keep": selection.on_device(keep),
              "index": selection.on_device(selection.index)}
    return run_op(AsStridedScatter, (input, src), params)


# ------------------------------------------------------------------ resize_, resize_as_

def _resize(target, size, memory_format, fname):
    """target resized in place: its memory from its storage offset read row-major (or channels-last)
    with the new size; memory of its own (the old elements first, zeros after) where the old is
    too small. PyTorch refuses a tensor that requires grad; the same size changes nothing."""
    if target.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    n = 1
    for s in size:
        if s < 0 or n * max(s, 1) > _INT64_MAX:
            raise RuntimeError("numel: integer multiplication overflow")
        n *= s
    rank = _dt.check_memory_format(memory_format, fname, len(size))
    if memory_format is _dt.preserve_format:
        raise RuntimeError("Unsupported memory formatPreserve")
    if size == tuple(target.shape) and memory_format is None:
        return target
    check_allocation(size, target.array.dtype)
    stride = _contiguous_strides(size, rank)
    flat, offset, _ = _block(target)
    if stride == target.stride() and size == tuple(target.shape):
        return target
    if offset + n <= flat.size:
        return _restride(target, size, stride, offset, fname)
    return _regrow(target, flat, offset, size, stride, n)


def _contiguous_strides(size, rank=None):
    """Row-major strides of size, or channels-last ones (C fastest, then W, H, (D), N) for `rank`."""
    order = tuple(range(len(size) - 1, -1, -1)) if rank is None else (1,) + tuple(range(rank - 1, 1, -1)) + (0,)
    strides, step = [0] * len(size), 1
    for d in order:
        strides[d] = step
        step *= max(size[d], 1)
    return tuple(strides)


def _regrow(target, flat, offset, size, stride, n):
    """resize_ past the end of target's memory: memory of its own, the old memory's elements from
    the start (PyTorch's storage grows in place; here other tensors keep the old memory), zeros
    after; the tensor is no view of anything afterwards, and the views made of it before can no
    longer be followed back to it."""
    xp = array_module(target.device)
    grown = xp.zeros(offset + n, dtype=flat.dtype)
    grown[:flat.size] = flat
    old = target._vc
    if old.__class__ is not list and not is_inference_mode_enabled():
        raise RuntimeError(INFERENCE_INPLACE_MESSAGE)
    target.array = strided_view(xp, grown, offset, size, stride)
    old[0] += 1  # (the tensors left on the old memory see a change too)
    target._vc = old.__class__((old[0],))
    if target._base is not None:
        target._base = None
        target._view = None
    else:
        target._reshaped += ((StridedView, {"size": (), "stride": (), "delta": 0, "source": (), "index": None,
                                            "reach": "none"}),)
    return target


def _resize_method(self, *sizes, memory_format=None, **named):
    """resize_(*sizes, memory_format=None): this tensor, resized in place (see resize_as_)."""
    unknown = [k for k in named if k != "size"]
    if unknown:
        raise TypeError(f"resize_() got an unexpected keyword argument '{unknown[0]}'")
    if named:
        if sizes:
            raise TypeError("resize_() got multiple values for argument 'size'")
        sizes = (named["size"],)
    if not sizes:
        raise TypeError('resize_() missing 1 required positional arguments: "size"')
    return _resize(self, _size_of(sizes), memory_format, "resize_")


def _size_of(args):
    """resize_'s size: several whole numbers, one sequence of them, or one 0-d integer tensor."""
    if len(args) == 1:
        only = args[0]
        if isinstance(only, Tensor) and only.array.ndim == 0 and only.array.dtype.kind in "iu":
            return (int(only.item()),)
        if isinstance(only, (list, tuple)):
            return _int_list(only, "resize_", "size", 1)
        if isinstance(only, (bool, numpy.bool_)) or not isinstance(only, (int, numpy.integer)):
            raise TypeError(f"resize_(): argument 'size' (position 1) must be tuple of ints, not {type(only).__name__}")
        return (_int64(int(only)),)
    for i, v in enumerate(args):
        if isinstance(v, (list, tuple)):
            raise TypeError(f"resize_() takes 1 positional argument but {len(args)} were given")
        if isinstance(v, (bool, numpy.bool_)) or not isinstance(v, (int, numpy.integer, Tensor)):
            raise TypeError(f"resize_(): argument 'size' failed to unpack the object at pos {i + 1} with error "
                            f"\"type must be tuple of ints,but got {type(v).__name__}\"")
    return _int_list(list(args), "resize_", "size", 1)


def resize_as_(input, the_template, *, memory_format=None):
    """input resized in place to the_template's shape (its values, dtype and layout are not taken).

    input resized to the_template's size (resize_): its memory read row-major from its storage
    offset, or memory of its own where that is too small (the old memory's elements first; the new
    ones 0 here, uninitialised in PyTorch). preserve_format takes the_template's channels-last layout
    where it has one. PyTorch refuses a tensor that requires grad."""
    input = _tensor(input, "resize_as_")
    the_template = _tensor(the_template, "resize_as_", "the_template", 2)
    return _resize_as(input, the_template, memory_format)


def _resize_as(input, the_template, memory_format):
    _dt.check_memory_format(memory_format, "resize_as_")
    if memory_format is _dt.preserve_format:
        shape, strides = tuple(the_template.shape), the_template.stride()
        memory_format = None
        if len(shape) in (4, 5) and not the_template.is_contiguous() and _dt.is_channels_last_strided(shape, strides):
            memory_format = _dt.channels_last if len(shape) == 4 else _dt.channels_last_3d
        elif tuple(input.shape) == shape:
            memory_format = _dt.contiguous_format
    return _resize(input, tuple(the_template.shape), memory_format, "resize_as_")


def _resize_as_method(self, the_template, *, memory_format=None):
    return _resize_as(self, _tensor(the_template, "resize_as_", "the_template", 1), memory_format)


# ------------------------------------------------------------------ gradient

_GRADIENT_FORMS = ("Tensor input, *, tuple of ints dim, int edge_order = 1",
                   "Tensor input, *, Number spacing, tuple of ints dim, int edge_order = 1",
                   "Tensor input, *, Number spacing = None, int dim = None, int edge_order = 1",
                   "Tensor input, *, tuple of Scalars spacing, int dim = None, int edge_order = 1",
                   "Tensor input, *, tuple of Scalars spacing, tuple of ints dim, int edge_order = 1",
                   "Tensor input, *, tuple of Tensors spacing, int dim = None, int edge_order = 1",
                   "Tensor input, *, tuple of Tensors spacing, tuple of ints dim, int edge_order = 1")


def _gradient_misuse(args, kwargs):
    got = ", ".join([type(a).__name__ if not isinstance(a, Tensor) else "Tensor" for a in args] +
                    [f"{k}={'Tensor' if isinstance(v, Tensor) else type(v).__name__}" for k, v in kwargs.items()])
    return TypeError(f"gradient() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                     + "".join(f" * ({form})\n" for form in _GRADIENT_FORMS))


def _whole(v):
    return not isinstance(v, (bool, numpy.bool_)) and isinstance(v, (int, numpy.integer))


def _scalar(v):
    """A Number argument's value (a 0-d tensor's item), or None where v is not one."""
    if isinstance(v, Tensor):
        return v.item() if v.array.ndim == 0 else None
    return v if is_number(v) and not isinstance(v, (bool, numpy.bool_)) else None


def gradient(*args, **kwargs):
    """Numerical derivatives of input along each dim (or those in dim), by central differences.

    torch.gradient(input, *, spacing=1, dim=None, edge_order=1): for each dim, the second-order
    central difference inside and one-sided differences of order edge_order (1 or 2) at both ends,
    as a tuple of tensors of input's shape. spacing is one number (the step along every dim), a
    list of numbers (one per dim) or of 1-d coordinate tensors (the points' coordinates along each
    dim, unevenly spaced allowed). Composed of slices, scalar arithmetic and cat as PyTorch
    composes it, so it is differentiable through them (in input and in the coordinates)."""
    if len(args) == 1 and not isinstance(args[0], Tensor):
        raise not_a_tensor(args[0], "gradient", "input", 1)
    if len(args) != 1 or kwargs.keys() - {"spacing", "dim", "edge_order"}:
        raise _gradient_misuse(args, kwargs)
    input = args[0]
    spacing, dim, edge_order = kwargs.get("spacing"), kwargs.get("dim"), kwargs.get("edge_order", 1)
    if not _whole(edge_order) or not (dim is None or _whole(dim) or (
            isinstance(dim, (list, tuple)) and all(_whole(d) for d in dim))):
        raise _gradient_misuse(args, kwargs)
    dims = None if dim is None else [int(dim)] if _whole(dim) else [int(d) for d in dim]
    listed = isinstance(dim, (list, tuple))
    coordinates = None
    if spacing is None or _scalar(spacing) is not None:
        step = 1.0 if spacing is None else _scalar(spacing)
        steps = [step] * (len(dims) if listed else 1 if dims is not None else input.dim())
        given = len(steps) if spacing is not None or listed else None
    elif isinstance(spacing, (list, tuple)) and any(isinstance(s, Tensor) for s in spacing):
        coordinates = tensor_list(spacing, "gradient", "spacing", 2)
        given = len(coordinates)
    elif isinstance(spacing, (list, tuple)) and all(_scalar(s) is not None for s in spacing):
        steps = [_scalar(s) for s in spacing]
        given = len(steps)
    else:
        raise _gradient_misuse(args, kwargs)
    dims = _gradient_checks(input, given, dims, int(edge_order))
    if input.dtype.np.kind in "iu":  # (integers: as PyTorch's first division makes them, the default float dtype)
        input = input.to(_dt.get_default_dtype())
    if coordinates is None:
        return tuple(_even_gradient(input, d, steps[i], edge_order) for i, d in enumerate(dims))
    for c in coordinates:
        if c.device is not input.device:
            raise RuntimeError(f"torch.gradient expected each tensor to be on the same device, but got devices "
                               f"{input.device} and {c.device}!")
    return tuple(_coordinate_gradient(input, d, coordinates[i], edge_order) for i, d in enumerate(dims))


def _gradient_checks(input, given, dims, edge_order):
    """PyTorch's checks of gradient's arguments, in its order; the dims to differentiate along."""
    nd = input.dim()
    if input.dtype.np == numpy.uint8:
        raise RuntimeError("torch.gradient does not support uint8 input.")
    if given is not None and dims is None and given != nd:
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal "
                           f"to 'self.dim() = {nd}', since dim argument was not given, but got a list of length "
                           f"{given}")
    if given is not None and dims is not None and given != len(dims):
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
                           f"arguments to have the same length, but got a spacing argument of length {given} and a dim "
                           f"argument of length {len(dims)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    if dims is None:
        dims = list(range(nd))
    else:
        dims = [wrap_dim(d, nd) for d in dims]
        for i, d in enumerate(dims):
            if d in dims[:i]:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    for d in dims:
        if nd == 0:  # (a dim of a 0-d tensor wraps, but it has no size)
            raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
        if input.shape[d] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")
    return dims


def _slice(x, d, start, stop=None):
    """x sliced along dim d (PyTorch's at::slice: SliceBackward0)."""
    return x[(slice(None),) * d + (slice(start, stop),)]


def _scaled(x, value, divide=False):
    """x * value or x / value with a number, as PyTorch's C++ records it (MulBackward1, DivBackward1)."""
    return apply(TABLE["scalar_arith"], x, value=value, divide=divide)


def _even_gradient(x, d, h, edge_order):
    """The gradient along d with a step h (PyTorch's gradient_helper_float)."""
    center = _scaled(_slice(x, d, 2) - _slice(x, d, 0, -2), h, True)
    if edge_order == 1:
        first = _slice(x, d, 1, 2) - _slice(x, d, 0, 1)
        last = _slice(x, d, -1) - _slice(x, d, -2, -1)
    else:
        first = _scaled(_slice(x, d, 0, 1), -1.5) + _scaled(_slice(x, d, 1, 2), 2) - _scaled(_slice(x, d, 2, 3), 0.5)
        last = _scaled(_slice(x, d, -3, -2), 0.5) - _scaled(_slice(x, d, -2, -1), 2) + _scaled(_slice(x, d, -1), 1.5)
    return _cat([_scaled(first, h, True), _scaled(center, 2, True), _scaled(last, h, True)], d)


def _coordinate_gradient(x, d, coordinate, edge_order):
    """The gradient along d at points with these coordinates (PyTorch's gradient_helper): the
    second-order difference for uneven steps inside, one-sided ones at the ends."""
    if coordinate.dim() != 1:
        raise RuntimeError(f"torch.gradient expected each element of spacing to have one dimension, but got an "
                           f"element with {coordinate.dim()} dimensions!")
    shape = [1] * x.dim()
    shape[d] = -1
    dx = _diff(coordinate, 1, 0)
    dx1, dx2 = dx[0:-1], dx[1:]
    a = _reshape(-dx2 / (dx1 * (dx1 + dx2)), shape)
    b = _reshape((dx2 - dx1) / (dx1 * dx2), shape)
    c = _reshape(dx1 / (dx2 * (dx1 + dx2)), shape)
    center = a * _slice(x, d, 0, -2) + b * _slice(x, d, 1, -1) + c * _slice(x, d, 2)
    h0, h1, hl, hm = dx[0], dx[1], dx[-1], dx[-2]
    if edge_order == 1:
        first = (_slice(x, d, 1, 2) - _slice(x, d, 0, 1)) / h0
        last = (_slice(x, d, -1) - _slice(x, d, -2, -1)) / hl
    else:
        first = (-(_scaled(h0, 2.0) + h1) / (h0 * (h0 + h1)) * _slice(x, d, 0, 1)
                 + (h0 + h1) / (h0 * h1) * _slice(x, d, 1, 2)
                 + (-h0) / (h1 * (h0 + h1)) * _slice(x, d, 2, 3))
        last = (hl / (hm * (hl + hm)) * _slice(x, d, -3, -2)
                + (-(hl + hm) / (hl * hm)) * _slice(x, d, -2, -1)
                + (_scaled(hl, 2) + hm) / (hl * (hl + hm)) * _slice(x, d, -1))
    return _cat([first, center, last], d)


# ------------------------------------------------------------------ nonzero_static

_MISSING = object()


def nonzero_static(input, *args, size=_MISSING, fill_value=-1):
    """nonzero(input)'s rows, exactly size of them: the first size, or all padded with fill_value.

    The indices of input's nonzero elements (NaN counts), one row per element as nonzero gives
    them, cut to the first `size` rows or padded to `size` with rows of fill_value; int64, shape
    (size, input.dim()). No gradient."""
    if args:
        raise TypeError(f"nonzero_static() takes from 2 to 1 positional arguments but {1 + len(args)} were given")
    input = _tensor(input, "nonzero_static")
    if size is _MISSING:
        raise TypeError('nonzero_static() missing 1 required positional arguments: "size"')
    size = _int_arg(size, "nonzero_static", "size")
    fill_value = _int_arg(fill_value, "nonzero_static", "fill_value")
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    arr = input.array
    check_allocation((size, arr.ndim), numpy.dtype(numpy.int64))
    xp = array_module(input.device)
    found = xp.argwhere(arr).astype(numpy.int64, copy=False) if arr.ndim else xp.zeros((0, 0), dtype=numpy.int64)
    out = xp.full((size, arr.ndim), fill_value, dtype=numpy.int64)
    count = min(size, found.shape[0])
    out[:count] = found[:count]
    return make_tensor(out, input.device)


# ------------------------------------------------------------------ real tensors' complex views

def real(input):
    """The real part of input: for a real tensor, input itself (as PyTorch returns it)."""
    return _tensor(input, "real")


def imag(input):
    """The imaginary part of input: none for a real tensor (PyTorch's error; no complex dtype here)."""
    _tensor(input, "imag")
    raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")


def conj(input):
    """The complex conjugate of input: for a real tensor, input itself (as PyTorch returns it)."""
    return _tensor(input, "conj")


def conj_physical(input):
    """The complex conjugate of input, computed: for a real tensor, input itself (as PyTorch returns it)."""
    return _tensor(input, "conj_physical")


def conj_physical_(input):
    """conj_physical written into input: a real tensor keeps its values, its version moves on and
    its history gets PyTorch's ConjPhysicalBackward1 (a leaf that requires grad is refused)."""
    return inplace(_tensor(input, "conj_physical_"), conj_physical_record)


def resolve_conj(input):
    """input with a lazy conjugation carried out: for a real tensor, input itself (as PyTorch returns it)."""
    return _tensor(input, "resolve_conj")


def resolve_neg(input):
    """input with a lazy negation carried out: for a real tensor, input itself (as PyTorch returns it)."""
    return _tensor(input, "resolve_neg")


def is_conj(input):
    """Whether input's conjugate bit is set: never for a real tensor."""
    _tensor(input, "is_conj")
    return False


def is_neg(input):
    """Whether input's negative bit is set: never for a real tensor."""
    _tensor(input, "is_neg")
    return False


def _real_part(self):
    """The real part: a real tensor itself (x.real = v copies v into it)."""
    return self


def _set_real_part(self, value):
    self.copy_(value)


# ------------------------------------------------------------------ the methods

# PyTorch's Tensor has these; the positions in their messages count from the tensor's next argument
def _as_strided_method(self, size, stride, storage_offset=None):
    return _as_strided(self, size, stride, storage_offset, 1)


def _as_strided_inplace_method(self, size, stride, storage_offset=None):
    return _as_strided_inplace(self, size, stride, storage_offset, 1)


def _as_strided_scatter_method(self, src, size, stride, storage_offset=None):
    return _as_strided_scatter(self, src, size, stride, storage_offset, 1)


def _nonzero_static_method(self, *args, size=_MISSING, fill_value=-1):
    return nonzero_static(self, *args, size=size, fill_value=fill_value)


for _name, _method in (("as_strided", _as_strided_method), ("as_strided_", _as_strided_inplace_method),
                       ("as_strided_scatter", _as_strided_scatter_method), ("resize_", _resize_method),
                       ("resize_as_", _resize_as_method), ("nonzero_static", _nonzero_static_method)):
    _method.__name__ = _name
    _method.__qualname__ = "Tensor." + _name
    setattr(Tensor, _name, _method)
for _function in (conj, conj_physical, conj_physical_, resolve_conj, resolve_neg, is_conj, is_neg):
    setattr(Tensor, _function.__name__, _function)
Tensor.real = property(_real_part, _set_real_part)
# (no Tensor.imag: PyTorch's raises for a real tensor, and the language lists only attributes that read)
