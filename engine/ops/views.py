"""Views written through in place (CopySlices, AsStrided), copies (of views too: view_copy; over views:
scatter_into), fills, dtype and device moves.

A view records how it was made from its base as a `chain`: a tuple of
(view row, params) steps. Replaying the chain on an array shaped like the
base selects the same elements. That is all three view rows below need: the
view's own node once its base changed (AsStrided), the gradient that node
sends back (ViewScatter), and the base's node after an in-place op on the
view (CopySlices)."""
from ..backend import backend_for
from ..core.op import TABLE
from ..core.tensor import NO_PARAMS, run_op
from ..dtypes import check_memory_format
from .table import Op, SAME, custom, scatter_add



def view_region(xp, array, chain):
    """The elements of `array` (shaped like the base) that `chain` selects: a
    writable alias where the steps alias, else None and an index array into
    `array.reshape(-1)` (when a reshape step had to copy, or a step
    repeats elements, as expand does)."""
    region = array
    overlapping = False
    for op, params in chain:
        region = op.forward(xp, region, **params)
        overlapping = overlapping or op.view_overlaps
    if not overlapping and xp.may_share_memory(region, array):
        return region, None
    flat = xp.arange(array.size).reshape(array.shape)
    for op, params in chain:
        flat = op.forward(xp, flat, **params)
    return None, flat


def _write_region(xp, array, chain, value, add=False):
    """array[chain] = value (or += value, repeated elements adding up); `array` is C-contiguous."""
    region, index = view_region(xp, array, chain)
    if region is not None:
        if add:
            region += value
        else:
            region[...] = value
    elif add:
        scatter_add(xp, array.reshape(-1), index, xp.broadcast_to(value, index.shape))
    else:
        array.reshape(-1)[index] = value


class AsStrided(Op):
    """A view re-derived from its base (after either was changed in place)."""
    name = "as_strided"
    jvp = "linear"  # forward mode: the row applied to the tangents
    node = "AsStridedBackward0"

    def forward(xp, x, chain):
        for op, params in chain:
            x = op.forward(xp, x, **params)
        return x

    def backward(F, ctx, g, chain):
        return (F.view_scatter(g, chain=chain, shape=ctx.shapes[0]),)


class ViewScatter(Op):
    """Zeros shaped like the base, with `g` added where the view's elements are."""
    name = "view_scatter"
    jvp = "linear"  # forward mode: the row applied to the tangents
    node = "AsStridedScatterBackward0"

    def forward(xp, g, chain, shape):
        out = xp.zeros(shape, dtype=g.dtype)
        _write_region(xp, out, chain, g, add=True)
        return out

    def backward(F, ctx, g, chain, shape):
        return (F.as_strided(g, chain=chain),)


class CopySlices(Op):
    """The base after an in-place op on one of its views: `value` (the op's
    result) written over the view's elements."""
    name = "copy_slices"
    jvp = "linear"  # forward mode: the row applied to the tangents
    node = "torch::autograd::CopySlices"
    holds_op_node = True

    def forward(xp, base, value, chain):
        out = xp.array(base, copy=True)
        _write_region(xp, out, chain, value)
        return out

    def backward(F, ctx, g, chain):
        gb = F.copy_slices(g, 0.0, chain=chain) if ctx.needs[0] else None
        gv = F.as_strided(g, chain=chain) if ctx.needs[1] else None
        return gb, gv


class ViewCopy(Op):
    """A view op's result as a tensor of its own (torch.view_copy, permute_copy, ...: PyTorch's
    copying twins of its views, which share no memory): the view row named `view` with its
    parameters `args`, copied; its gradient is the view row's. `node` is PyTorch's name
    (PermuteBackward0_copy)."""
    name = "view_copy"
    jvp = "linear"  # forward mode: the row applied to the tangents
    # the public functions, written in engine/functions/shapes.py (each makes one view step, then this row)
    names = ("view_copy", "t_copy", "permute_copy", "transpose_copy", "unsqueeze_copy", "squeeze_copy",
             "expand_copy", "diagonal_copy", "unbind_copy", "split_with_sizes_copy", "alias_copy", "narrow_copy",
             "unfold_copy", "unsafe_chunk", "unsafe_split", "unsafe_split_with_sizes")
    node = staticmethod(lambda ctx: ctx.params["node"])
    formula = custom("view_copy")  # printed as the view it copies

    def forward(xp, x, view, args, node):
        return TABLE[view].forward(xp, x, **args).copy()

    def backward(F, ctx, g, view, args, node):
        return TABLE[view].backward(F, ctx, g, **args)

    def batched_backward(F, ctx, g, view, args, node):
        row = TABLE[view]
        if row.batched:
            return row.backward(F, ctx, g, **args)
        return NotImplemented if row.batched_backward is None else row.batched_backward(F, ctx, g, **args)


class ScatterInto(Op):
    """A copy of `base` with `src` written over the elements that the view row named `view` (with
    `args`) selects (torch.slice_scatter, select_scatter, diagonal_scatter): CopySlices as an op of
    its own, under PyTorch's node name `node`."""
    name = "scatter_into"
    jvp = "linear"  # forward mode: the row applied to the tangents
    names = ("slice_scatter", "select_scatter", "diagonal_scatter")  # engine/functions/shapes.py
    method = True
    node = staticmethod(lambda ctx: ctx.params["node"])

    def forward(xp, base, src, view, args, node):
        return CopySlices.forward(xp, base, src, ((TABLE[view], args),))

    def backward(F, ctx, g, view, args, node):
        return CopySlices.backward(F, ctx, g, ((TABLE[view], args),))


class Clone(Op):
    """A copy that keeps the graph (the gradient flows back)."""
    name = "clone"
    signature = "clone(Tensor input, *, Any memory_format=None) -> Tensor"
    names = ("clone",)
    method = True
    formula = SAME
    elementwise = True
    node = "CloneBackward0"

    def forward(xp, x):
        return x.copy()

    def backward(F, ctx, g):
        return (g,)

    def call(input, memory_format):
        check_memory_format(memory_format, "clone", input.array.ndim)
        return run_op(Clone, (input,), NO_PARAMS)


class Fill(Op):
    """What `x.fill_(v)` / `x.zero_()` record: the old values no longer matter."""
    batched = True
    name = "fill"  # x.fill_(v), x.zero_(): in-place only, written in tensor_class.py
    formula = custom("fill")
    node = staticmethod(lambda ctx: ctx.params.get("name") or "FillBackward2")

    def forward(xp, x, value, name=None):
        return xp.full_like(x, value)

    def backward(F, ctx, g, value, name=None):
        return (F.zeros_like(g),)


class Copy(Op):
    """What `x.copy_(src)` records: the gradient goes to `src`."""
    batched = True  # src broadcasts to x: the core sums its gradient back
    name = "copy"  # x.copy_(src)
    jvp = "linear"  # forward mode: the row applied to the tangents
    node = staticmethod(lambda ctx: ctx.params.get("name") or "torch::autograd::CopyBackwards")

    def forward(xp, x, src, name=None):
        return xp.broadcast_to(xp.asarray(src, dtype=x.dtype), x.shape)

    def backward(F, ctx, g, name=None):
        return (F.zeros_like(g) if ctx.needs[0] else None), (g if ctx.needs[1] else None)


class ToDevice(Op):
    """A copy on another device; the gradient goes back to the source device."""
    name = "to_device"
    jvp = "linear"  # forward mode: the row applied to the tangents
    formula = SAME
    node = "ToCopyBackward0"
    moves_device = True
    batched = True

    def forward(xp, x, device, source):
        return backend_for(device).from_host(backend_for(source).to_host(x))

    def backward(F, ctx, g, device, source):
        return (F.to_device(g, device=source, source=device),)


class ToDtype(Op):
    name = "to_dtype"
    jvp = "linear"  # forward mode: the row applied to the tangents
    formula = SAME
    elementwise = True
    node = "ToCopyBackward0"

    def forward(xp, x, dtype):
        return x.astype(dtype)

    def backward(F, ctx, g, dtype):
        return (g,)  # the core casts the gradient to the input's dtype
