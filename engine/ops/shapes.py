"""Shapes and indexing: reshape, squeeze/unsqueeze, transpose/permute, expand, cat/stack, x[key], x[key] = v."""
from .table import Op, custom, is_basic_key, scatter_add


class Reshape(Op):
    name = "reshape"
    names = ("reshape", "view", "flatten")
    method = True
    formula = custom("reshape")
    # a reshape that has to copy (a transposed input) is PyTorch's _unsafe_view of a clone
    node = staticmethod(lambda ctx: "UnsafeViewBackward0" if ctx.copied else "ViewBackward0")
    is_view = True

    def forward(xp, x, shape):
        return xp.reshape(x, shape)

    def backward(F, ctx, g, shape):
        return (F.reshape(g, shape=ctx.shapes[0]),)


class Unsqueeze(Op):
    name = "unsqueeze"
    names = ("unsqueeze",)
    method = True
    formula = custom("reshape")
    node = "UnsqueezeBackward0"
    is_view = True

    def forward(xp, x, dim):
        return xp.expand_dims(x, dim)

    def backward(F, ctx, g, dim):
        return (F.reshape(g, shape=ctx.shapes[0]),)


class Squeeze(Op):
    name = "squeeze"
    names = ("squeeze",)
    method = True
    formula = custom("reshape")
    node = staticmethod(lambda ctx: "SqueezeBackward0" if ctx.params.get("dim") is None else "SqueezeBackward1")
    is_view = True

    def forward(xp, x, dim=None):
        if dim is None:
            return xp.squeeze(x)
        return xp.squeeze(x, axis=dim) if x.shape[dim] == 1 else x

    def backward(F, ctx, g, dim=None):
        return (F.reshape(g, shape=ctx.shapes[0]),)


class Transpose(Op):
    name = "transpose"
    names = ("transpose", "swapaxes", "t")
    method = True
    formula = custom("transpose")
    node = staticmethod(lambda ctx: ctx.params.get("name") or "TransposeBackward0")
    is_view = True

    def forward(xp, x, dim0, dim1, name=None):
        return xp.swapaxes(x, dim0, dim1)

    def backward(F, ctx, g, dim0, dim1, name=None):
        return (F.transpose(g, dim0=dim0, dim1=dim1),)


class Permute(Op):
    name = "permute"
    names = ("permute",)
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


class Expand(Op):
    """Broadcast to `shape` (a read-only view); the core sums the gradient back."""
    name = "expand"
    names = ("expand", "broadcast_to")
    method = True
    formula = custom("reshape")
    elementwise = True
    node = "ExpandBackward0"
    is_view = True
    view_overlaps = True

    def forward(xp, x, shape):
        return xp.broadcast_to(x, shape)

    def backward(F, ctx, g, shape):
        return (g,)


class Cat(Op):
    name = "cat"
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


class Stack(Op):
    name = "stack"
    names = ("stack",)
    formula = custom("join")
    node = "StackBackward0"

    def forward(xp, *xs, dim=0):
        return xp.stack(xs, axis=dim)

    def backward(F, ctx, g, dim=0):
        d = dim % (len(ctx.shapes[0]) + 1)
        return tuple(F.getitem(g, key=(slice(None),) * d + (i,)) if need else None
                     for i, need in enumerate(ctx.needs))


_FULL_SLICE = slice(None)


def _index_name(ctx):
    """PyTorch names an indexing result by the last step it applies (x[0, 1:3] is a slice)."""
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
    """x[key]; `key` is a tuple of ints, slices, None, Ellipsis and index arrays."""
    name = "getitem"  # x[key]; the language and Tensor.__getitem__ reach it
    saves_params = staticmethod(lambda params: not is_basic_key(params["key"]))  # index arrays
    formula = custom("index")
    node = staticmethod(_index_name)
    is_view = True

    def forward(xp, x, key):
        if not any(k is Ellipsis for k in key):
            key = key + (Ellipsis,)  # x[1, 2] as a 0-d view, not a copied number
        return x[key]

    def backward(F, ctx, g, key):
        return (F.index_grad(g, key=key, shape=ctx.shapes[0]),)


class IndexGrad(Op):
    """Zeros of `shape` with `g` added at `key` (repeated indices accumulate)."""
    name = "index_grad"
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


class IndexPut(Op):
    """x with x[key] = v, out of place, for a key with index arrays (a basic key
    makes a view, and writing through a view is CopySlices below)."""
    name = "index_put"
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
