"""The rows of the strided family: as_strided (a view of the memory a tensor lies in, with a size,
strides and storage offset of one's choosing; also as_strided_, resize_ and as_strided_copy), the
pair of rows its gradient is written in (strided_gather, strided_scatter), as_strided_scatter,
angle of a real tensor, and conj_physical_'s record. The public functions, and the geometry each
call works out before a row runs, are engine/functions/strided.py's.

Memory and positions. A tensor's storage is the block of memory its array lies in (the outermost
array numpy's `.base` links lead to: what `Tensor.storage_offset()` counts from). A position is
an element's place in that block. as_strided selects the elements at offset + sum(i_k * stride_k),
checked against the block's size before any array is made, so no element outside it is ever read.

A view row must also select the same elements when the engine replays its step on a fresh array
shaped like its base (core/tensor.py's view chains: a view's node re-derived after an in-place
change, the base's CopySlices after a write through the view) or on a gradient. So the call
records, beside the geometry, `index`: for each selected position the element of the input that
sits there (its C-order flat index; -1 where none does), and `reach`: "own" when every position is
one of the input's elements (the step is then a function of the input's elements alone, replayed
by gathering where the layout differs), "base" when some lie elsewhere in its base, whose memory is
then row-major (a fresh base-shaped array is laid out the same), or "none" for a step that can no
longer be replayed (the step back over a resize_ that gave a tensor new memory): replaying it raises.
"""
import math

import numpy

from ..core.tensor import NO_PARAMS, run_op
from .table import Elementwise, Op, scatter_add


def storage(xp, arr):
    """(flat, position): the block of memory `arr` lies in, as one flat array of arr's dtype in
    memory order, and where arr's first element is in it; None where the block is not one
    contiguous array of that dtype (an array over a foreign buffer: not made by this engine)."""
    root = arr
    while isinstance(root.base, xp.ndarray):
        root = root.base
    if root.dtype != arr.dtype:
        return None
    if root.flags.c_contiguous:
        flat = root.reshape(-1)
    elif root.flags.f_contiguous:
        flat = root.T.reshape(-1)
    else:
        return None
    if arr.size == 0 or flat.size == 0:
        return flat, 0
    step = arr.itemsize
    gap = _address(arr) - _address(flat)
    if gap % step:
        return None
    return flat, gap // step


def _address(arr):
    interface = getattr(arr, "__array_interface__", None) or arr.__cuda_array_interface__
    return interface["data"][0]


def element_strides(arr):
    """arr's strides counted in elements (None where one is not a whole number of them)."""
    step = arr.itemsize
    if any(s % step for s in arr.strides):
        return None
    return tuple(s // step for s in arr.strides)


def same_layout(shape, strides, recorded):
    """Whether strides agree with the recorded ones along every dim of more than one element."""
    return strides is not None and all(n <= 1 or s == r for n, s, r in zip(shape, strides, recorded))


def span(size, stride):
    """How many positions past the first the selection reaches (0 for one element); None when empty."""
    if 0 in size:
        return None
    return sum((n - 1) * s for n, s in zip(size, stride))


def strided_view(xp, flat, start, size, stride):
    """The view of `flat` (a flat array) starting at position `start` with these element strides;
    the caller has checked that every position lies in it."""
    step = flat.itemsize
    if xp is numpy:  # (a view whose .base is flat's owner: Tensor.storage_offset() finds its block)
        return numpy.ndarray(size, flat.dtype, buffer=flat, offset=start * step,
                             strides=tuple(s * step for s in stride))
    return xp.lib.stride_tricks.as_strided(flat[start:], shape=size, strides=tuple(s * step for s in stride))


def _relative_view(xp, x, size, stride, delta, source):
    """The selection as a view of x's memory, positions counted from x's first element (`delta`
    the first selected one), where x is laid out as at the call (`source`, its element strides)
    and the positions lie in its memory; None otherwise."""
    if not isinstance(x, xp.ndarray) or not same_layout(x.shape, element_strides(x), source):
        return None
    block = storage(xp, x)
    if block is None:
        return None
    flat, position = block
    extent = span(size, stride)
    if extent is None:  # (no element: empty memory of its own, with the strides asked for)
        return strided_view(xp, xp.empty(0, dtype=x.dtype), 0, size, stride)
    start = position + delta
    if start < 0 or start + extent >= flat.size:  # (never read past the memory's ends)
        return None
    return strided_view(xp, flat, start, size, stride)


def gather(xp, x, index, weight=None, hole=0):
    """x's elements at flat indices `index` (an array of the result's shape), `hole` where it is -1."""
    flat = x.reshape(-1)
    if flat.size == 0:
        return xp.full(index.shape, hole, dtype=x.dtype)
    inside = index >= 0
    out = xp.where(inside, flat[xp.where(inside, index, 0)], x.dtype.type(hole))
    return out if weight is None else out * weight


class StridedView(Op):
    """The elements of the input's storage at storage_offset + sum(i_k * stride_k): a view.

    A view of the memory the input lies in: element i of the result is the one at position
    storage_offset + sum(i_k * stride_k) of that memory (PyTorch's storage). Positions are checked
    against the memory's size first, so none outside it is read. The gradient of the input adds up
    the gradients of the result's elements at each of its positions (those beside the input: none)."""
    name = "as_strided_view"  # (the table's "as_strided" is the core's re-derived view: views.py)
    jvp = "linear"  # forward mode: the row applied to the tangents
    node = staticmethod(lambda ctx: ctx.params.get("name") or "AsStridedBackward0")  # as_strided_: ...Backward1
    is_view = True

    def forward(xp, x, size, stride, delta, source, index, reach, weight=None, spread=None, name=None):
        if reach == "none":
            raise RuntimeError("as_strided: this view was made of a tensor that resize_ has since given memory of "
                               "its own; it can no longer be followed back to that tensor")
        view = _relative_view(xp, x, size, stride, delta, source)
        if view is not None:
            return view
        if reach != "own":
            raise RuntimeError("as_strided: the view reaches memory beside its input that is laid out otherwise "
                               "here; it cannot be re-derived")
        # (-1 only in the step back of a base's resize: an element the new geometry left out. Never
        # selected by a view whose own elements remain; one that is gets NaN, or in a replay through
        # indices (int64) an index out of range)
        hole = math.nan if x.dtype.kind == "f" else x.size if x.dtype == numpy.int64 else 0
        return gather(xp, x, index, hole=hole)

    def backward(F, ctx, g, size, stride, delta, source, index, reach, weight=None, spread=None, name=None):
        shape = tuple(ctx.shapes[0])
        if spread is None:
            return (F.strided_scatter(g, index=index, shape=shape),)
        # an input whose elements share positions (expanded): each gets the sum at its position,
        # divided among them (`weight`), as PyTorch's
        summed = F.strided_scatter(g, index=index, shape=(math.prod(shape),), weight=weight)
        return (F.strided_gather(summed, index=spread),)


class StridedOverlapView(StridedView):
    """as_strided where some positions repeat (a zero stride, or strides that make two indices one
    position): written through, one memory cell would take two values (PyTorch refuses that for a
    zero stride; here any repeat), and its replays go through indices, so the gradients of the
    elements at one position add up."""
    name = "as_strided_overlap_view"
    view_overlaps = True


class StridedGather(Op):
    """The input's elements at flat indices `index`, times `weight` (0 where the index is -1)."""
    name = "strided_gather"  # (the gradient of strided_scatter: PyTorch's node there is AsStridedBackward0)
    jvp = "linear"  # forward mode: the row applied to the tangents
    node = "AsStridedBackward0"

    def forward(xp, x, index, weight=None):
        return gather(xp, x, index, weight)

    def backward(F, ctx, g, index, weight=None):
        return (F.strided_scatter(g, index=index, shape=tuple(ctx.shapes[0]), weight=weight),)


class StridedScatter(Op):
    """Zeros of `shape` with g (times `weight`) added at flat indices `index` (none where it is -1):
    as_strided's gradient, as PyTorch's AsStridedBackward0 scatters it."""
    name = "strided_scatter"
    jvp = "linear"  # forward mode: the row applied to the tangents
    node = "AsStridedBackward0"

    def forward(xp, g, index, shape, weight=None):
        out = xp.zeros(math.prod(shape), dtype=g.dtype)
        values = xp.broadcast_to(g if weight is None else g * weight, index.shape)
        inside = index >= 0
        scatter_add(xp, out, (index[inside],), values[inside])
        return out.reshape(shape)

    def backward(F, ctx, g, index, shape, weight=None):
        return (F.strided_gather(g, index=index, weight=weight),)


class AsStridedScatter(Op):
    """The input with src written over its elements at the positions as_strided would select.

    A copy of input whose elements at the positions storage_offset + sum(i_k * stride_k) of its
    storage are src's (where a position is none of input's elements, nothing is written). The
    gradient of input is zero at the written elements; src's is the gradient at its positions."""
    name = "as_strided_scatter"
    jvp = "linear"  # forward mode: the row applied to the tangents
    node = "AsStridedScatterBackward0"

    def forward(xp, x, src, take, keep, index):
        out = xp.array(x, copy=True, order="C")  # (row-major: its flat view is its elements in order)
        written = take >= 0
        out.reshape(-1)[written] = src.reshape(-1)[take[written]]
        return out

    def backward(F, ctx, g, take, keep, index):
        gx = F.strided_gather(g, index=keep) if ctx.needs[0] else None
        gs = F.strided_gather(g, index=index) if ctx.needs[1] else None
        return gx, gs


class Angle(Elementwise):
    """The angle of each element as a complex number: pi for a negative one, else 0 (NaN kept).

    The argument of each element in the complex plane: pi where it is negative, 0 where it is
    not (-0 too), NaN where it is NaN; integers give the default float dtype. Its gradient is 0
    for a real input, as PyTorch's."""
    to_float = True
    inplace = False  # (PyTorch has no angle_)
    name = "angle"
    node = "AngleBackward0"

    def forward(xp, x):
        kind = x.dtype.type
        return xp.where(x < 0, kind(math.pi), xp.where(x == x, kind(0), x))

    def backward(F, ctx, g):
        return (F.zeros_like(g),)


class ConjPhysicalInPlace(Op):
    """What x.conj_physical_() records on a real tensor: its values, unchanged (ConjPhysicalBackward1)."""
    name = "conj_physical_record"
    jvp = "linear"  # forward mode: the row applied to the tangents
    node = "ConjPhysicalBackward1"
    elementwise = True

    def forward(xp, x):
        return x.copy()

    def backward(F, ctx, g):
        return (g,)


def conj_physical_record(input):
    """The conj_physical_record row on `input` (for conj_physical_'s in-place write)."""
    return run_op(ConjPhysicalInPlace, (input,), NO_PARAMS)
