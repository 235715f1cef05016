"""Shapes and indexing: reshape, squeeze/unsqueeze, transpose/permute, expand, cat/stack, x[key], x[key] = v,
diagonal, diag (and diagflat), constant_pad_nd, repeat, flip, roll, tril/triu, scatter, masked_fill."""
import numpy

from ..allocation import check_allocation
from ..kernels import broadcast_to
from ..core.tensor import TensorBase, array_module, run_op, wrap_dim
from .arithmetic import tensor_operands
from .table import Op, batch_dim, batch_key, call, custom, is_basic_key, scatter_add
from .indexing import ScatterAdd, gather_back, grid_key, lift_0d


def _reshape_back(F, ctx, g, *args, **params):
    """The batch rule of the rows whose gradient is g reshaped to the input's shape."""
    return (F.reshape(g, shape=(g.shape[0],) + tuple(ctx.shapes[0])),)


class Reshape(Op):
    """The same elements in a new shape (a view when possible)."""
    batched_backward = _reshape_back
    name = "reshape"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "reshape(Tensor input, int[] shape) -> Tensor"
    names = ("reshape", "view", "flatten", "ravel", "unflatten")
    method = True
    formula = custom("reshape")
    # a reshape that has to copy (a transposed input) is PyTorch's _unsafe_view of a clone; an empty
    # one shares no memory here, but is a view in PyTorch
    node = staticmethod(lambda ctx: "UnsafeViewBackward0" if ctx.copied and 0 not in ctx.out_shape
                        else "ViewBackward0")
    is_view = True

    def forward(xp, x, shape):
        return xp.reshape(x, shape)

    def backward(F, ctx, g, shape):
        return (F.reshape(g, shape=ctx.shapes[0]),)

    def call(input, shape):
        return run_op(Reshape, (input,), {"shape": infer_shape(shape, input.array.size)})


class Unsqueeze(Op):
    """A new dim of size 1 inserted at dim."""
    batched_backward = _reshape_back
    name = "unsqueeze"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "unsqueeze(Tensor input, int dim) -> Tensor"
    wrap_dims = False  # (against one dim more than the input has)
    method = True
    formula = custom("reshape")
    node = staticmethod(lambda ctx: ctx.params.get("name") or "UnsqueezeBackward0")  # unsqueeze_: ...Backward1
    is_view = True

    def forward(xp, x, dim, name=None):
        shape = x.shape
        d = dim + len(shape) + 1 if dim < 0 else dim
        if 0 <= d <= len(shape):  # expand_dims's view, without its checks in Python (a few us a call)
            return x.reshape(shape[:d] + (1,) + shape[d:])
        return xp.expand_dims(x, dim)  # (its error)

    def backward(F, ctx, g, dim, name=None):
        return (F.reshape(g, shape=ctx.shapes[0]),)

    def call(input, dim):
        return run_op(Unsqueeze, (input,), {"dim": wrap_dim(dim, input.array.ndim + 1)})


def _squeeze_name(ctx):
    """SqueezeBackward0/1/2: no dim, one dim, a tuple of dims (squeeze_ names its own: 3/4/5)."""
    dim = ctx.params.get("dim")
    return ctx.params.get("name") or ("SqueezeBackward0" if dim is None else
                                      "SqueezeBackward2" if isinstance(dim, tuple) else "SqueezeBackward1")


class Squeeze(Op):
    """Dims of size 1 removed (all, or the given one)."""
    batched_backward = _reshape_back
    name = "squeeze"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "squeeze(Tensor input, int[1]? dim=None) -> Tensor"
    wrap_dims = False  # (an empty list of dims squeezes nothing)
    method = True
    formula = custom("reshape")
    node = staticmethod(_squeeze_name)
    is_view = True

    def forward(xp, x, dim=None, name=None):
        """dim: None (every size-1 dim), an int or a tuple of ints (those of them of size 1)."""
        if dim is None:
            return xp.squeeze(x)
        axes = tuple(d for d in ((dim,) if isinstance(dim, int) else dim) if x.ndim and x.shape[d] == 1)
        return xp.squeeze(x, axis=axes) if axes else x

    def backward(F, ctx, g, dim=None, name=None):
        return (F.reshape(g, shape=ctx.shapes[0]),)

    def call(input, dim):
        return run_op(Squeeze, (input,), {"dim": squeeze_dims(dim, input.array.ndim)})


class Transpose(Op):
    """Dims dim0 and dim1 swapped (a view)."""
    name = "transpose"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "transpose(Tensor input, int dim0, int dim1) -> Tensor"
    names = ("transpose", "swapaxes", "swapdims", "t")
    method = True
    formula = custom("transpose")
    node = staticmethod(lambda ctx: ctx.params.get("name") or "TransposeBackward0")
    is_view = True

    def forward(xp, x, dim0, dim1, name=None):
        return xp.swapaxes(x, dim0, dim1) if x.ndim else x[...]  # a 0-d input: a 0-d view of it

    def backward(F, ctx, g, dim0, dim1, name=None):
        return (F.transpose(g, dim0=dim0, dim1=dim1),)

    def batched_backward(F, ctx, g, dim0, dim1, name=None):
        nd = len(ctx.shapes[0])
        if nd == 0:
            return (g,)
        return (F.transpose(g, dim0=batch_dim(dim0, nd), dim1=batch_dim(dim1, nd)),)

    def call(input, dim0, dim1):
        nd = input.array.ndim
        return run_op(Transpose, (input,), {"dim0": wrap_dim(dim0, nd), "dim1": wrap_dim(dim1, nd)})


class Permute(Op):
    """The dims reordered (a view)."""
    name = "permute"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "permute(Tensor input, int[] dims) -> Tensor"
    names = ("permute", "movedim", "moveaxis")
    method = True
    formula = custom("permute")
    node = "PermuteBackward0"
    is_view = True

    def forward(xp, x, dims):
        return xp.transpose(x, dims)

    def backward(F, ctx, g, dims):
        inverse = [0] * len(dims)
        for i, d in enumerate(dims):
            inverse[d] = i
        return (F.permute(g, dims=tuple(inverse)),)

    def batched_backward(F, ctx, g, dims):
        nd = len(dims)
        inverse = [0] * nd
        for i, d in enumerate(dims):
            inverse[d % nd] = i
        return (F.permute(g, dims=(0,) + tuple(i + 1 for i in inverse)),)

    def call(input, dims):
        nd = input.array.ndim
        if len(dims) != nd:
            raise RuntimeError(f"permute(): number of dimensions in the tensor input does not match the length of "
                               f"the desired ordering of dimensions i.e. input.dim() = {nd} is not equal to "
                               f"len(dims) = {len(dims)}")
        dims = tuple(wrap_dim(d, nd) for d in dims)
        if len(set(dims)) != nd:
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        return run_op(Permute, (input,), {"dims": dims})


class Expand(Op):
    """Broadcast to a larger shape without copying (a read-only view).

    Broadcast to `shape` (a read-only view); the core sums the gradient back."""
    name = "expand"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "expand(Tensor input, int[] size) -> Tensor"
    names = ("expand", "broadcast_to")
    method = True
    formula = custom("reshape")
    elementwise = True
    node = "ExpandBackward0"
    is_view = True
    view_overlaps = True

    def forward(xp, x, shape):
        return broadcast_to(xp, x, shape)

    def backward(F, ctx, g, shape):
        return (g,)

    def call(input, size):
        shape = expanded_shape(input.array.shape, size)
        check_allocation(shape, input.array.dtype)  # a view allocates nothing, but every op on it touches each element
        return run_op(Expand, (input,), {"shape": shape})


class Cat(Op):
    """Tensors joined along an existing dim.

    Tensors joined along an existing dim. A 1-d empty tensor among others is skipped (PyTorch's
    legacy rule); unlike PyTorch's, its .grad stays None rather than an empty tensor."""
    name = "cat"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "cat(Tensor[] tensors, int dim=0) -> Tensor"
    names = ("cat", "concat", "concatenate")
    formula = custom("join")
    node = "CatBackward0"

    def forward(xp, *xs, dim=0):
        return xp.concatenate(xs, axis=dim)

    def backward(F, ctx, g, dim=0):
        grads, start = [], 0
        nd = len(ctx.shapes[0])
        d = dim % nd
        for shape, need in zip(ctx.shapes, ctx.needs):
            stop = start + shape[d]
            grads.append(F.getitem(g, key=(slice(None),) * d + (slice(start, stop),)) if need else None)
            start = stop
        return tuple(grads)

    def batched_backward(F, ctx, g, dim=0):
        grads, start = [], 0
        d = dim % len(ctx.shapes[0])
        for shape, need in zip(ctx.shapes, ctx.needs):
            stop = start + shape[d]
            grads.append(F.getitem(g, key=(slice(None),) * (d + 1) + (slice(start, stop),)) if need else None)
            start = stop
        return tuple(grads)

    def call(tensors, dim):
        kept = [x for x in tensors if x.array.shape != (0,)]
        if kept and len(kept) < len(tensors):  # PyTorch's legacy rule: 1-d empty tensors are skipped
            tensors = kept
        nd = tensors[0].array.ndim
        if nd == 0:
            raise RuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated")
        d = wrap_dim(dim, nd)
        for i, x in enumerate(tensors[1:], 1):
            if x.array.ndim != nd:
                raise RuntimeError(f"Tensors must have same number of dimensions: got {nd} and {x.array.ndim}")
            for k in range(nd):
                if k != d and x.array.shape[k] != tensors[0].array.shape[k]:
                    raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size "
                                       f"{tensors[0].array.shape[k]} but got size {x.array.shape[k]} for tensor "
                                       f"number {i} in the list.")
        return run_op(Cat, tuple(tensors), {"dim": d})


class Stack(Op):
    """Tensors stacked along a new dim."""
    name = "stack"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "stack(Tensor[] tensors, int dim=0) -> Tensor"
    formula = custom("join")
    node = "StackBackward0"

    def forward(xp, *xs, dim=0):
        return xp.stack(xs, axis=dim)

    def backward(F, ctx, g, dim=0):
        d = dim % (len(ctx.shapes[0]) + 1)
        return tuple(F.getitem(g, key=(slice(None),) * d + (i,)) if need else None
                     for i, need in enumerate(ctx.needs))

    def batched_backward(F, ctx, g, dim=0):
        d = dim % (len(ctx.shapes[0]) + 1)
        return tuple(F.getitem(g, key=(slice(None),) * (d + 1) + (i,)) if need else None
                     for i, need in enumerate(ctx.needs))

    def call(tensors, dim):
        for i, x in enumerate(tensors[1:], 1):
            if x.array.shape != tensors[0].array.shape:
                raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(tensors[0].shape)} at "
                                   f"entry 0 and {list(x.shape)} at entry {i}")
        return run_op(Stack, tuple(tensors), {"dim": wrap_dim(dim, tensors[0].array.ndim + 1)})


_FULL_SLICE = slice(None)


def _index_name(ctx):
    """PyTorch names an indexing result by the last step it applies (x[0, 1:3] is a
    slice), or by the function that indexed (`name`: unbind, index_select, ...)."""
    if ctx.params.get("name"):
        return ctx.params["name"]
    key = ctx.params["key"]
    if not is_basic_key(key):
        return "IndexBackward0"
    for k in reversed(key):
        if k is Ellipsis or k == _FULL_SLICE:
            continue
        if k is None:
            return "UnsqueezeBackward0"
        return "SelectBackward0" if isinstance(k, int) else "SliceBackward0"
    return "SliceBackward0" if _FULL_SLICE in key else "AliasBackward0"


class Getitem(Op):
    """x[key]; `key` is a tuple of ints, slices, None, Ellipsis and index arrays.
    The functions that select (narrow, select, unbind, ...) are this row under
    their own node names (`name`)."""
    name = "getitem"  # x[key] itself is reached through Tensor.__getitem__ and the language
    jvp = "linear"  # forward mode: the row applied to the tangents
    names = ("narrow", "select", "index_select", "masked_select", "unbind", "split", "chunk", "tensor_split", "diff",
             "repeat_interleave", "hsplit", "vsplit", "dsplit")
    method = True
    saves_params = staticmethod(lambda params: not is_basic_key(params["key"]))  # index arrays
    formula = custom("index")
    node = staticmethod(_index_name)
    is_view = True

    def forward(xp, x, key, name=None):
        if not any(k is Ellipsis for k in key):
            key = key + (Ellipsis,)  # x[1, 2] as a 0-d view, not a copied number
        return x[key]

    def backward(F, ctx, g, key, name=None):
        return (F.index_grad(g, key=key, shape=ctx.shapes[0]),)

    def batched_backward(F, ctx, g, key, name=None):
        bkey = batch_key(key)
        if bkey is None:
            return NotImplemented
        return (F.index_grad(g, key=bkey, shape=(g.shape[0],) + tuple(ctx.shapes[0])),)


class IndexGrad(Op):
    """Zeros of `shape` with `g` added at `key` (repeated indices accumulate)."""
    name = "index_grad"
    jvp = "linear"  # forward mode: the row applied to the tangents
    saves_params = staticmethod(lambda params: not is_basic_key(params["key"]))
    node = "IndexPutBackward0"

    def forward(xp, g, key, shape):
        out = xp.zeros(shape, dtype=g.dtype)
        if is_basic_key(key):
            out[key] = g
        else:
            scatter_add(xp, out, key, g)
        return out

    def backward(F, ctx, g, key, shape):
        return (F.getitem(g, key=key),)

    def batched_backward(F, ctx, g, key, shape):
        bkey = batch_key(key)
        return NotImplemented if bkey is None else (F.getitem(g, key=bkey),)


class IndexPut(Op):
    """x with x[key] = v, out of place, for a key with index arrays (a basic key
    makes a view, and writing through a view is CopySlices below)."""
    name = "index_put"
    jvp = "linear"  # forward mode: the row applied to the tangents
    saves_params = True
    node = "IndexPutBackward0"

    def forward(xp, x, v, key):
        out = xp.array(x, copy=True)
        out[key] = v
        return out

    def backward(F, ctx, g, key):
        gx = F.index_put(g, 0.0, key=key) if ctx.needs[0] else None
        gv = F.getitem(g, key=key) if ctx.needs[1] else None
        return gx, gv

    def batched_backward(F, ctx, g, key):
        bkey = batch_key(key)
        return NotImplemented if bkey is None else IndexPut.backward(F, ctx, g, bkey)


class Diagonal(Op):
    """A diagonal of the matrices in two dims (a view).

    A diagonal of the matrices in dims dim1, dim2 (a view: writing to it writes the input)."""
    name = "diagonal"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "diagonal(Tensor input, int offset=0, int dim1=0, int dim2=1) -> Tensor"
    method = True
    node = "DiagonalBackward0"
    is_view = True
    formula = call("offset", "dim1", "dim2")

    def forward(xp, x, offset=0, dim1=0, dim2=1):
        d = xp.diagonal(x, offset, dim1, dim2)
        # numpy hands out diagonals read-only; PyTorch's are views to write through (CuPy has no such flag)
        if not getattr(getattr(d, "flags", None), "writeable", True) and x.flags.writeable:
            d.flags.writeable = True
        return d

    def backward(F, ctx, g, offset=0, dim1=0, dim2=1):
        step = ((Diagonal, {"offset": offset, "dim1": dim1, "dim2": dim2}),)
        return (F.view_scatter(g, chain=step, shape=ctx.shapes[0]),)

    def batched_backward(F, ctx, g, offset=0, dim1=0, dim2=1):
        nd = len(ctx.shapes[0])
        step = ((Diagonal, {"offset": offset, "dim1": batch_dim(dim1, nd), "dim2": batch_dim(dim2, nd)}),)
        return (F.view_scatter(g, chain=step, shape=(g.shape[0],) + tuple(ctx.shapes[0])),)

    def call(input, offset, dim1, dim2):
        nd = input.array.ndim
        d1, d2 = wrap_dim(dim1, nd), wrap_dim(dim2, nd)
        if d1 == d2:
            raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
        return run_op(Diagonal, (input,), {"offset": offset, "dim1": d1, "dim2": d2})


class DiagCopy(Op):
    """torch.diag: of a matrix, its diagonal `diagonal` (0 the main one, >0 above, <0 below) as a 1-D
    tensor of its own (a copy, unlike diagonal()); of a vector, the square matrix with it on that
    diagonal.

    This row is the matrix's case (its parameter `offset`); DiagMatrix below is the vector's."""
    name = "diag_copy"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "diag(Tensor input, int diagonal=0) -> Tensor"
    method = True
    node = "DiagonalBackward0_copy"
    formula = call("offset")

    def forward(xp, x, offset=0):
        return xp.diagonal(x, offset).copy()

    def backward(F, ctx, g, offset=0):  # as the view's: g back in place on a zero matrix
        return Diagonal.backward(F, ctx, g, offset, 0, 1)

    def batched_backward(F, ctx, g, offset=0):
        return Diagonal.batched_backward(F, ctx, g, offset, 0, 1)

    def call(input, diagonal):
        nd = input.array.ndim
        if nd == 1:
            return run_op(DiagMatrix, (input,), {"offset": diagonal})
        if nd == 2:
            return run_op(DiagCopy, (input,), {"offset": diagonal})
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {nd}D")


class DiagMatrix(Op):
    """torch.diag of a vector: the square matrix with it on diagonal `offset`, zeros elsewhere; also
    torch.diagflat's, of the flattened input (engine/functions/shapes.py)."""
    name = "diag_matrix"
    names = ("diagflat",)
    method = True
    jvp = "linear"  # forward mode: the row applied to the tangents
    node = "DiagEmbedBackward0"
    formula = call("offset")

    def forward(xp, v, offset=0):
        return xp.diag(v, offset)

    def backward(F, ctx, g, offset=0):
        return (F.diag_copy(g, offset=offset),)

    def batched_backward(F, ctx, g, offset=0):
        return (F.diagonal(g, offset=offset, dim1=1, dim2=2),)


class ConstantPad(Op):
    """F.pad in constant mode: each dim from the last widened by its (before, after) pair, with
    `value` -- or, for a negative amount, narrowed. Its backward is itself with the amounts negated,
    so it differentiates again as it is."""
    batched = True  # the amounts count from the last dim: a leading batch dim is untouched
    name = "constant_pad_nd"
    signature = "constant_pad_nd(Tensor input, int[] pad, Scalar value=0) -> Tensor"
    node = "ConstantPadNdBackward0"
    formula = call("pad", "value")

    def call(input, pad, value):
        """PyTorch's checks of the amounts (F.pad's, engine/nn/functional_padding.py, word them otherwise)."""
        nd = input.array.ndim
        if len(pad) % 2:
            raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
        if len(pad) > 2 * nd:
            raise RuntimeError(f"Length of pad should be no more than twice the number of dimensions of the input. "
                               f"Pad length is {len(pad)}while the input has {nd}dimensions.")
        for i in range(len(pad) // 2):
            if input.array.shape[nd - 1 - i] + min(pad[2 * i], 0) + min(pad[2 * i + 1], 0) < 0:
                raise RuntimeError("narrow(): length must be non-negative.")
        return run_op(ConstantPad, (input,), {"pad": tuple(pad), "value": value})

    def forward(xp, x, pad, value=0):
        index, widths = [slice(None)] * x.ndim, [(0, 0)] * x.ndim
        for i in range(len(pad) // 2):
            d = x.ndim - 1 - i
            before, after = pad[2 * i], pad[2 * i + 1]
            index[d] = slice(max(-before, 0), x.shape[d] - max(-after, 0))
            widths[d] = (max(before, 0), max(after, 0))
        kept = x[tuple(index)]
        return xp.pad(kept, widths, constant_values=value) if any(map(any, widths)) else kept.copy()

    def backward(F, ctx, g, pad, value=0):
        return (F.constant_pad_nd(g, pad=tuple(-p for p in pad)),)


class Repeat(Op):
    """Tiled the given number of times along each dim.

    x tiled `sizes` times along each dim (new leading dims where sizes is longer)."""
    name = "repeat"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "repeat(Tensor input, int[] repeats) -> Tensor"
    names = ("repeat", "tile")
    method = True
    node = "RepeatBackward0"
    formula = call("sizes")

    def forward(xp, x, sizes):
        return xp.tile(x, sizes)

    def backward(F, ctx, g, sizes):
        shape = ctx.shapes[0]
        padded = (1,) * (len(sizes) - len(shape)) + tuple(shape)
        blocks = tuple(v for r, s in zip(sizes, padded) for v in (r, s))  # (r0, s0, r1, s1, ...)
        summed = F.sum(F.reshape(g, shape=blocks), dim=tuple(range(0, 2 * len(sizes), 2)))
        return (F.reshape(summed, shape=shape),)

    def batched_backward(F, ctx, g, sizes):
        shape = ctx.shapes[0]
        padded = (1,) * (len(sizes) - len(shape)) + tuple(shape)
        blocks = tuple(v for r, s in zip(sizes, padded) for v in (r, s))
        b = g.shape[0]
        summed = F.sum(F.reshape(g, shape=(b,) + blocks), dim=tuple(range(1, 2 * len(sizes), 2)))
        return (F.reshape(summed, shape=(b,) + tuple(shape)),)

    def call(input, repeats):
        sizes = (repeats,) if isinstance(repeats, int) else repeats
        nd = input.array.ndim
        if len(sizes) < nd:
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of "
                               "tensor")
        out = [r * s for r, s in zip(sizes, (1,) * (len(sizes) - nd) + input.array.shape)]
        if any(n < 0 for n in out):
            raise RuntimeError(f"Trying to create tensor with negative dimension {min(out, key=lambda n: n >= 0)}: "
                               f"{out}")
        return run_op(Repeat, (input,), {"sizes": sizes})


class Flip(Op):
    """The order of elements reversed along dims.

    x reversed along each of `dims` (a copy, not a view)."""
    name = "flip"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "flip(Tensor input, int[] dims) -> Tensor"
    names = ("flip", "fliplr", "flipud")
    method = True
    node = "FlipBackward0"
    formula = call("dims")

    def forward(xp, x, dims):
        return xp.flip(x, dims).copy()  # a copy, as PyTorch's flip (numpy's would be a view)

    def backward(F, ctx, g, dims):
        return (F.flip(g, dims=dims),)

    def batched_backward(F, ctx, g, dims):
        nd = len(ctx.shapes[0])
        if nd == 0:
            return (g,)
        dims = tuple(batch_dim(d, nd) for d in dims) if isinstance(dims, (tuple, list)) else batch_dim(dims, nd)
        return (F.flip(g, dims=dims),)

    def call(input, dims):
        nd = input.array.ndim
        dims = tuple(wrap_dim(d, nd) for d in _int_tuple(dims))
        return run_op(Flip, (input,), {"dims": dims if nd else ()})  # (a 0-d tensor's one dim: no axis)


class Roll(Op):
    """Shifted cyclically along dims.

    x shifted cyclically along `dims` (the flattened x when dims is None)."""
    name = "roll"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "roll(Tensor input, int[1] shifts, int[1]? dims=None) -> Tensor"
    method = True
    node = "RollBackward0"
    formula = call("shifts", "dims")

    def forward(xp, x, shifts, dims=None):
        return xp.roll(x, shifts, axis=dims)

    def backward(F, ctx, g, shifts, dims=None):
        back = tuple(-s for s in shifts) if isinstance(shifts, tuple) else -shifts
        return (F.roll(g, shifts=back, dims=dims),)

    def batched_backward(F, ctx, g, shifts, dims=None):
        nd = len(ctx.shapes[0])
        if dims is None or nd == 0:
            return NotImplemented  # a roll of the flattened input
        dims = tuple(batch_dim(d, nd) for d in dims) if isinstance(dims, (tuple, list)) else batch_dim(dims, nd)
        return Roll.backward(F, ctx, g, shifts, dims)

    def call(input, shifts, dims):
        if dims is None:  # the flattened input, by the first shift
            return run_op(Roll, (input,), {"shifts": _int_tuple(shifts)[0], "dims": None})
        shifts, dims = _int_tuple(shifts), _int_tuple(dims)
        if len(shifts) != len(dims):
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
        nd = input.array.ndim
        if nd == 0:
            raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
        return run_op(Roll, (input,), {"shifts": shifts, "dims": tuple(wrap_dim(d, nd) for d in dims)})


def _int_tuple(value):
    """An int[] argument as a tuple (PyTorch takes a bare int for one)."""
    return (value,) if isinstance(value, int) else value


class Tril(Op):
    """The lower triangle of a matrix, the rest zero.

    The matrices in the last two dims on and below their diagonal `diagonal`, zeros above it."""
    batched = True  # the last two dims
    name = "tril"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "tril(Tensor input, int diagonal=0) -> Tensor"
    method = inplace = True
    node = "TrilBackward0"
    formula = call("diagonal")

    def forward(xp, x, diagonal=0):
        return xp.tril(x, diagonal)

    def backward(F, ctx, g, diagonal=0):
        return (F.tril(g, diagonal=diagonal),)

    def call(input, diagonal):
        return _triangle(Tril, input, diagonal)


class Triu(Op):
    """The upper triangle of a matrix, the rest zero.

    The matrices in the last two dims on and above their diagonal `diagonal`, zeros below it."""
    batched = True
    name = "triu"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "triu(Tensor input, int diagonal=0) -> Tensor"
    method = inplace = True
    node = "TriuBackward0"
    formula = call("diagonal")

    def forward(xp, x, diagonal=0):
        return xp.triu(x, diagonal)

    def backward(F, ctx, g, diagonal=0):
        return (F.triu(g, diagonal=diagonal),)

    def call(input, diagonal):
        return _triangle(Triu, input, diagonal)


def _triangle(row, input, diagonal):
    """tril's and triu's check: matrices in the last two dims."""
    if input.array.ndim < 2:
        raise RuntimeError(f"{row.name}: input tensor must have at least 2 dimensions")
    return run_op(row, (input,), {"diagonal": diagonal})


class Scatter(Op):
    """x with the values of `src` (a tensor, or one number) put at `index` along
    `dim`: out[i][index[i][j]] = src[i][j] for dim 1."""
    name = "scatter"
    names = ("scatter",)
    method = inplace = True
    saves_params = True
    node = staticmethod(lambda ctx: "ScatterBackward1" if ctx.shapes[1] is None else "ScatterBackward0")
    number_right = "drop"  # scatter(dim, index, 2.0) is PyTorch's value overload: one edge

    def forward(xp, x, src, index, dim):
        out = xp.array(x, copy=True)
        if index.size:
            index = lift_0d(index)
            if not isinstance(src, (int, float)):
                src = lift_0d(src)[tuple(slice(0, n) for n in index.shape)]  # the part of src that index covers
            lift_0d(out)[grid_key(xp, index, dim)] = src  # in order: the last of repeated indices stays
        return out

    def backward(F, ctx, g, index, dim):
        gx = F.scatter(g, 0.0, index=index, dim=dim) if ctx.needs[0] else None
        return gx, (gather_back(F, g, ctx.shapes, index, dim) if ctx.needs[1] else None)

    def batched_backward(F, ctx, g, index, dim):
        shape = ctx.shapes[0]
        if not len(shape) or not index.size or (ctx.shapes[1] is not None and len(ctx.shapes[1]) != index.ndim):
            return NotImplemented
        every = F.xp.broadcast_to(index, (g.shape[0],) + tuple(index.shape))  # the same index for each element
        gx = F.scatter(g, 0.0, index=every, dim=batch_dim(dim, len(shape))) if ctx.needs[0] else None
        return gx, (ScatterAdd.batched_backward(F, ctx, g, index, dim)[1] if ctx.needs[1] else None)


class MaskedFill(Op):
    """Value put where a bool mask is true.

    x with `value` (a number or a 0-d tensor) where `mask` (a bool array) is True."""
    name = "masked_fill"
    signature = "masked_fill(Tensor input, Tensor mask, Scalar value) -> Tensor"
    method = inplace = True
    saves_params = True
    node = staticmethod(lambda ctx: "MaskedFillBackward0" if ctx.shapes[1] is None else "MaskedFillBackward1")
    number_right = "drop"  # masked_fill(mask, 0.0) is PyTorch's Scalar overload: one edge
    formula = call()

    def forward(xp, x, value, mask):
        return xp.where(mask, xp.asarray(value, dtype=x.dtype), x)

    def backward(F, ctx, g, mask):
        gx = F.where(mask, 0.0, g) if ctx.needs[0] else None
        gv = F.sum(F.where(mask, g, 0.0)) if ctx.needs[1] else None
        return gx, gv

    def batched_backward(F, ctx, g, mask):
        gx = F.where(mask, 0.0, g) if ctx.needs[0] else None
        gv = None
        if ctx.needs[1]:
            masked = F.where(mask, g, 0.0)
            nd = len(masked.shape)
            gv = F.sum(masked, dim=tuple(range(1, nd))) if nd > 1 else masked
        return gx, gv

    def call(input, mask, value):
        input, mask = tensor_operands(input, mask)
        if mask.array.dtype.kind != "b":
            raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype {mask.dtype.name}")
        if isinstance(value, TensorBase) and value.array.ndim != 0:
            raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.array.ndim} dimension(s).")
        m = mask.array
        if m.shape != input.array.shape:
            m = array_module(mask.device).broadcast_to(m, numpy.broadcast_shapes(input.array.shape, m.shape))
        return run_op(MaskedFill, (input, value), {"mask": m})


class Rot90(Op):
    """Rotated k quarter turns in the plane of dims.

    x rotated k quarter turns in the plane of dims (the first towards the second), a copy."""
    name = "rot90"
    jvp = "linear"  # forward mode: the row applied to the tangents
    # (k is Any: the call refuses a non-int in PyTorch's words, which give its position)
    signature = "rot90(Tensor input, Any k=1, int[] dims=(0, 1)) -> Tensor"
    method = True
    node = "Rot90Backward0"
    formula = call("k", "dims")

    def forward(xp, x, k, dims):
        return xp.rot90(x, k, axes=dims).copy()

    def backward(F, ctx, g, k, dims):
        return (F.rot90(g, k=-k, dims=dims),)

    def batched_backward(F, ctx, g, k, dims):
        return (F.rot90(g, k=-k, dims=(dims[0] + 1, dims[1] + 1)),)

    def call(input, k, dims):
        if not isinstance(k, int) or isinstance(k, bool):
            raise TypeError(f"rot90(): argument 'k' (position 2) must be int, not {type(k).__name__}")
        if dims.__class__ is int:  # (an int[] may be given as one int)
            dims = (dims,)
        nd = input.array.ndim
        if len(dims) != 2:
            raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
        if nd < 2:
            raise RuntimeError(f"expected total dims >= 2, but got total dims = {nd}")
        d0, d1 = wrap_dim(dims[0], nd), wrap_dim(dims[1], nd)
        if d0 == d1:
            raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} and dim1 = {dims[1]}")
        return run_op(Rot90, (input,), {"k": k % 4, "dims": (d0, d1)})


class DiagEmbed(Op):
    """The last dim put on a diagonal of new square matrices (dim1, dim2).

    The last dim of x put on diagonal `offset` of new square matrices in dims dim1 and dim2, zeros
    elsewhere (torch.diag_embed); its gradient is that diagonal of g."""
    name = "diag_embed"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "diag_embed(Tensor input, int offset=0, int dim1=-2, int dim2=-1) -> Tensor"
    method = True
    node = "DiagEmbedBackward0"
    formula = call("offset", "dim1", "dim2")

    def forward(xp, x, offset=0, dim1=-2, dim2=-1):
        n = x.shape[-1] + abs(offset)
        shape = list(x.shape[:-1])
        for d in sorted((dim1, dim2)):  # non-negative axes of the result
            shape.insert(d, n)
        out = xp.zeros(shape, dtype=x.dtype)
        diagonal = Diagonal.forward(xp, out, offset, dim1, dim2)
        diagonal[...] = x
        return out

    def backward(F, ctx, g, offset=0, dim1=-2, dim2=-1):
        return (F.diagonal(g, offset=offset, dim1=dim1, dim2=dim2),)

    def batched_backward(F, ctx, g, offset=0, dim1=-2, dim2=-1):
        return (F.diagonal(g, offset=offset, dim1=dim1 + 1, dim2=dim2 + 1),)

    def call(input, offset, dim1, dim2):
        nd = input.array.ndim + 1  # (the dims are the result's)
        d1, d2 = wrap_dim(dim1, nd), wrap_dim(dim2, nd)
        if d1 == d2:
            raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
        return run_op(DiagEmbed, (input,), {"offset": offset, "dim1": d1, "dim2": d2})


# ------------------------------------------------------------------ shapes, as PyTorch checks them

def infer_shape(shape, numel):
    """Resolve one -1 in `shape`; PyTorch's error when the sizes don't fit."""
    known = 1
    unknown = None
    for i, s in enumerate(shape):
        if s == -1:
            if unknown is not None:
                raise RuntimeError("only one dimension can be inferred")
            unknown = i
        elif s < 0:
            raise RuntimeError(f"invalid shape dimension {s}")
        else:
            known *= s
    if unknown is not None:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = shape[:unknown] + (numel // known,) + shape[unknown + 1:]
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return tuple(shape)


def squeeze_dims(dim, ndim):
    """squeeze's dim: None (all), one axis, or a tuple of axes (which may be empty)."""
    if isinstance(dim, (list, tuple)):
        if not dim:
            return ()
        axes = tuple(wrap_dim(d, ndim) for d in dim)
        for i, a in enumerate(axes):
            if a in axes[:i]:  # PyTorch names the first dim seen twice
                raise RuntimeError(f"dim {a} appears multiple times in the list of dims")
        return axes
    return None if dim is None else wrap_dim(dim, ndim)


def expanded_shape(old, sizes):
    """The shape expand(sizes) gives a tensor of shape `old` (-1 keeps a size), with PyTorch's messages."""
    if len(sizes) < len(old):
        raise RuntimeError(f"expand(torch.DoubleTensor{{{list(old)}}}, size={list(sizes)}): the number of "
                           f"sizes provided ({len(sizes)}) must be greater or equal to the number of "
                           f"dimensions in the tensor ({len(old)})")
    lead = len(sizes) - len(old)
    shape = []
    for i, s in enumerate(sizes):
        if i < lead:
            if s < 0:
                raise RuntimeError(f"The expanded size of the tensor ({s}) isn't allowed in a leading, "
                                   f"non-existing dimension {i}")
            shape.append(s)
            continue
        o = old[i - lead]
        if s == -1:
            s = o
        elif o != s and o != 1:
            raise RuntimeError(f"The expanded size of the tensor ({s}) must match the existing size ({o}) at "
                               f"non-singleton dimension {i}.  Target sizes: {list(sizes)}.  Tensor sizes: "
                               f"{list(old)}")
        shape.append(s)
    return tuple(shape)
