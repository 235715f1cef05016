"""Writing into a copy of a tensor at indices along a dim, or where a mask is true: index_add,
index_copy, index_fill, scatter_add, masked_scatter (their in-place variants run these rows
through engine/inplace.py). The index arrays and masks are parameters, checked beforehand by
engine/functions_indexing.py in PyTorch's words. A 0-d input is handled as one of shape (1,),
as PyTorch's kernels do; the gradient comes back in the input's own shape.
"""
import math

from .reductions import open_grid
from .table import Op, batch_key, call, scatter_add

_ALL = slice(None)


def _along(dim, index):
    """The key selecting `index` (a 1-d array) along axis `dim`."""
    return (_ALL,) * dim + (index,)


def lift_0d(a):
    """An array of shape (1,) for a 0-d one (a view: writes reach `a`)."""
    return a.reshape(1) if a.ndim == 0 else a


def _lifted(shape):
    return tuple(shape) or (1,)


def _with(shape, dim, n):
    """`shape` with n at `dim`."""
    return shape[:dim] + (n,) + shape[dim + 1:]


def _select(F, g, shape, index, dim):
    """g.index_select(dim, index) for a gradient `g` of an input of `shape`."""
    if not len(shape):
        g = F.reshape(g, shape=(1,))
    return F.getitem(g, key=_along(dim, index))


def _shaped(F, g, shape):
    """`g` in the input's shape (a 0-d source takes a gradient of shape (1,))."""
    return g if tuple(g.shape) == tuple(shape) else F.reshape(g, shape=tuple(shape))


def grid_key(xp, index, dim):
    """The advanced key that reads or writes, for each element of `index`, the element at
    its own position but `index`'s value along `dim` (gather's and scatter's addressing)."""
    where = open_grid(xp, index.shape)
    where[dim] = index
    return tuple(where)


def _scalar(alpha, dtype):
    """alpha in `dtype`, as PyTorch's kernels convert it (integers truncate)."""
    if dtype.kind == "b":
        return bool(alpha)
    if dtype.kind in "iu":
        return dtype.type(int(alpha))
    return dtype.type(alpha)


class IndexAdd(Op):
    """x with alpha * source added at `index` along `dim` (repeated indices add up, in order)."""
    name = "index_add"
    names = ("index_add",)
    method = inplace = True
    saves_params = True
    node = "IndexAddBackward0"
    formula = call("dim", "alpha")

    def forward(xp, x, source, index, dim, alpha=1):
        out = xp.array(x, copy=True)
        flat = lift_0d(out)
        target = xp.moveaxis(flat, dim, 0)
        values = xp.moveaxis(source.reshape(_with(flat.shape, dim, index.size)), dim, 0)
        scatter_add(xp, target, (index,), values if alpha == 1 else values * _scalar(alpha, out.dtype))
        return out

    def backward(F, ctx, g, index, dim, alpha=1):
        gx = g if ctx.needs[0] else None
        gs = None
        if ctx.needs[1]:
            gs = _select(F, g, ctx.shapes[0], index, dim)
            if alpha != 1:
                gs = gs * alpha
            gs = _shaped(F, gs, ctx.shapes[1])
        return gx, gs

    def batched_backward(F, ctx, g, index, dim, alpha=1):
        if len(ctx.shapes[1]) != len(ctx.shapes[0]) or not len(ctx.shapes[0]):
            return NotImplemented
        gs = None
        if ctx.needs[1]:
            gs = F.getitem(g, key=batch_key(_along(dim, index)))
            if alpha != 1:
                gs = gs * alpha
        return (g if ctx.needs[0] else None), gs


class IndexCopy(Op):
    """x with the slices of source put at `index` along `dim` (the last of repeated indices
    stays, as PyTorch's CPU loop leaves it)."""
    name = "index_copy"
    names = ("index_copy",)
    method = inplace = True
    saves_params = True
    node = "IndexCopyBackward0"
    formula = call("dim")

    def forward(xp, x, source, index, dim):
        out = xp.array(x, copy=True)
        flat = lift_0d(out)
        values = source.reshape(_with(flat.shape, dim, index.size))
        xp.moveaxis(flat, dim, 0)[index] = xp.moveaxis(values, dim, 0)
        return out

    def backward(F, ctx, g, index, dim):
        # PyTorch's formula: every slice of source gets its gradient, even one a repeated index
        # overwrote
        gx = F.index_fill(g, 0.0, index=index, dim=dim) if ctx.needs[0] else None
        gs = _shaped(F, _select(F, g, ctx.shapes[0], index, dim), ctx.shapes[1]) if ctx.needs[1] else None
        return gx, gs

    def batched_backward(F, ctx, g, index, dim):
        if len(ctx.shapes[1]) != len(ctx.shapes[0]) or not len(ctx.shapes[0]):
            return NotImplemented
        gx = F.index_fill(g, 0.0, index=index, dim=dim + 1) if ctx.needs[0] else None
        gs = F.getitem(g, key=batch_key(_along(dim, index))) if ctx.needs[1] else None
        return gx, gs


class IndexFill(Op):
    """x with `value` (a number, or a 0-d tensor) in the slices at `index` along `dim`
    (negative indices count from the end)."""
    name = "index_fill"
    names = ("index_fill",)
    method = inplace = True
    saves_params = True
    node = staticmethod(lambda ctx: "IndexFillBackward0" if ctx.shapes[1] is None else "IndexFillBackward1")
    number_right = "drop"  # index_fill(dim, index, 0.0) is PyTorch's Scalar overload: one edge
    formula = call("dim")

    def forward(xp, x, value, index, dim):
        out = xp.array(x, copy=True)
        xp.moveaxis(lift_0d(out), dim, 0)[index] = value
        return out

    def backward(F, ctx, g, index, dim):
        gx = F.index_fill(g, 0.0, index=index, dim=dim) if ctx.needs[0] else None
        gv = None
        if ctx.needs[1]:
            # PyTorch's grad.index_select(dim, unique(index)).sum(): each filled slice once, a
            # contiguous selection summed in order
            unique = F.xp.unique(index % _lifted(ctx.shapes[0])[dim])
            gv = F.sum(F.clone(_select(F, g, ctx.shapes[0], unique, dim)))
        return gx, gv

    def batched_backward(F, ctx, g, index, dim):
        shape = ctx.shapes[0]
        if not len(shape):
            return NotImplemented
        gx = F.index_fill(g, 0.0, index=index, dim=dim + 1) if ctx.needs[0] else None
        gv = None
        if ctx.needs[1]:
            picked = F.getitem(g, key=batch_key(_along(dim, F.xp.unique(index % shape[dim]))))
            gv = F.sum(picked, dim=tuple(range(1, len(shape) + 1)))
        return gx, gv


class ScatterAdd(Op):
    """x with src added at `index` along `dim`: out[index[i][j]][j] += src[i][j] for dim 0
    (src may be larger than index: only the part index covers is read)."""
    name = "scatter_add"
    names = ("scatter_add",)
    method = inplace = True
    saves_params = True
    node = "ScatterAddBackward0"
    formula = call("dim")

    def forward(xp, x, src, index, dim):
        out = xp.array(x, copy=True)
        if index.size:
            index = lift_0d(index)
            part = lift_0d(src)[tuple(slice(0, n) for n in index.shape)]
            scatter_add(xp, lift_0d(out), grid_key(xp, index, dim), part)  # in order, as PyTorch's loop
        return out

    def backward(F, ctx, g, index, dim):
        gx = g if ctx.needs[0] else None
        return gx, (gather_back(F, g, ctx.shapes, index, dim) if ctx.needs[1] else None)

    def batched_backward(F, ctx, g, index, dim):
        shape, src = ctx.shapes[0], ctx.shapes[1]
        if not len(shape) or not index.size or len(src) != index.ndim:
            return NotImplemented
        gs = None
        if ctx.needs[1]:
            gs = F.getitem(g, key=batch_key(grid_key(F.xp, index, dim)))
            if tuple(index.shape) != tuple(src):
                gs = F.index_grad(gs, key=(_ALL,) + tuple(slice(0, n) for n in index.shape),
                                  shape=(g.shape[0],) + tuple(src))
        return (g if ctx.needs[0] else None), gs


def gather_back(F, g, shapes, index, dim):
    """src's gradient: g gathered at `index` (PyTorch's grad.gather(dim, index)), with zeros
    where src is larger than index (where PyTorch's backward stops with a shape error)."""
    src = shapes[1]
    if not index.size:
        return F.expand(F.zeros_like(F.sum(g)), shape=tuple(src))
    index = lift_0d(index)
    g = F.reshape(g, shape=(1,)) if not len(shapes[0]) else g
    gs = F.getitem(g, key=grid_key(F.xp, index, dim))
    if tuple(index.shape) != _lifted(src):
        gs = F.index_grad(gs, key=tuple(slice(0, n) for n in index.shape), shape=_lifted(src))
    return _shaped(F, gs, src)


class MaskedScatter(Op):
    """x (broadcast against `mask`) with the first `count` elements of source, in order, put
    where `mask` is True."""
    name = "masked_scatter"
    names = ("masked_scatter",)
    method = inplace = True
    saves_params = True
    node = "MaskedScatterBackward0"
    formula = call()

    def forward(xp, x, source, mask, count):
        out = xp.array(xp.broadcast_to(x, mask.shape), copy=True)
        out[mask] = source.reshape(-1)[:count]
        return out

    def backward(F, ctx, g, mask, count):
        gx = F.where(mask, 0.0, g) if ctx.needs[0] else None
        gs = None
        if ctx.needs[1]:
            # PyTorch's masked_scatter_backward: the masked elements, then zeros, in source's shape
            shape = tuple(ctx.shapes[1])
            n = math.prod(shape)
            gs = F.getitem(g, key=(mask,))
            if count < n:
                gs = F.index_grad(gs, key=(slice(0, count),), shape=(n,))
            gs = F.reshape(gs, shape=shape)
        return gx, gs

    def batched_backward(F, ctx, g, mask, count):
        if not mask.ndim:
            return NotImplemented
        gx = F.where(mask, 0.0, g) if ctx.needs[0] else None
        gs = None
        if ctx.needs[1]:
            shape = tuple(ctx.shapes[1])
            b, n = g.shape[0], math.prod(shape)
            gs = F.getitem(g, key=(_ALL, mask))
            if count < n:
                gs = F.index_grad(gs, key=(_ALL, slice(0, count)), shape=(b, n))
            gs = F.reshape(gs, shape=(b,) + shape)
        return gx, gs
