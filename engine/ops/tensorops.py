"""Everyday tensor ops with nodes of their own (issue 29): rsub, take, Tensor.unfold, renorm,
block_diag, index_put and scatter_reduce. The composites PyTorch builds from other ops (hstack,
meshgrid, atleast_2d, cartesian_prod, ...) are functions in engine/functions/tensorops.py.

Index arrays are parameters (checked by the rows' calls, in PyTorch's order and words), as in
indexing.py.
"""
import math

import numpy

from .. import kernels
from ..core.tensor import TensorBase, host_array, run_op, wrap_dim
from .arithmetic import Sub, _scaled
from .indexing import _on_device, checked_index, dtype_word, grid_key, lift_0d
from .table import Op, scatter_add, tensor_argument

_ALL = slice(None)


# ------------------------------------------------------------------------------------------ rsub

class Rsub(Op):
    """Other - alpha * input: sub with its operands swapped.

    other - alpha * input (RsubBackward0; with a number for other it is sub(other, input):
    RsubBackward1, as PyTorch names both)."""
    name = "rsub"
    signature = "rsub(Tensor input, Tensor other, *, Scalar alpha=1) -> Tensor"
    elementwise = True
    node = "RsubBackward0"

    def check_mixed(arrays):
        Sub.check_mixed(arrays)

    def forward(xp, x, other, alpha=1):
        return Sub.forward(xp, other, x, alpha)

    def backward(F, ctx, g, alpha=1):
        gx = (-g if alpha == 1 else -g * alpha) if ctx.needs[0] else None
        return gx, (g if ctx.needs[1] else None)

    def call(input, other, alpha):
        if not isinstance(input, TensorBase):
            got = ", ".join("Tensor" if isinstance(a, TensorBase) else type(a).__name__ for a in (input, other))
            raise TypeError(f"rsub() received an invalid combination of arguments - got ({got}), but expected one "
                            f"of:\n * (Tensor input, Tensor other, *, Number alpha = 1)\n * (Tensor input, Number "
                            f"other, Number alpha = 1)\n")
        if not isinstance(other, TensorBase):  # rsub(x, 2): PyTorch's Scalar overload, sub(2, x)
            return _scaled(Sub, other, input, alpha)
        return _scaled(Rsub, input, other, alpha)


# ------------------------------------------------------------------------------------------ take

class Take(Op):
    """The elements at the given indices of the input read as 1-D (negative ones from the end).

    input.reshape(-1)[index], in index's shape."""
    name = "take"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "take(Tensor input, Tensor index) -> Tensor"
    method = True
    saves_params = True
    node = "TakeBackward0"

    def forward(xp, x, index):
        return x.reshape(-1)[index]

    def backward(F, ctx, g, index):
        shape = tuple(ctx.shapes[0])
        flat = F.index_grad(g, key=(index,), shape=(math.prod(shape),))
        return (F.reshape(flat, shape=shape),)

    def call(input, index):
        if index.array.dtype != numpy.int64:
            raise RuntimeError(f"take(): Expected a long tensor for index, but got {dtype_word(index)}")
        n = input.array.size
        host = host_array(index)
        bad = numpy.flatnonzero((host < -n) | (host >= n))
        if bad.size:
            if n == 0:
                raise IndexError("take(): tried to take from an empty tensor")
            raise IndexError(f"out of range: tried to access index {int(host.reshape(-1)[bad[0]])} on a tensor of "
                             f"{n} elements.")
        return run_op(Take, (input,), {"index": _on_device(host % max(n, 1), input)})


# ---------------------------------------------------------------------------------------- unfold

def _windows(n, size, step):
    """The positions, along a dim of n elements, of each window's elements: (count, size) indices."""
    count = (n - size) // step + 1
    return numpy.arange(count)[:, None] * step + numpy.arange(size)[None, :]


class Unfold(Op):
    """Every slice of `size` elements along `dimension`, `step` apart, as a new last dim (a view).

    x.unfold(dimension, size, step): the windows along `dim` in place of that dim, their elements
    in a new last dim."""
    name = "unfold"
    jvp = "linear"  # forward mode: the row applied to the tangents
    names = ()  # Tensor.unfold only (torch.unfold is not PyTorch's); engine/tensor_class.py calls `unfold_view`
    node = "UnfoldBackward0"
    is_view = True

    def forward(xp, x, dim, size, step):
        if x.ndim == 0:
            return x.reshape(1)
        n = x.shape[dim]
        count = (n - size) // step + 1
        strides = x.strides[:dim] + (x.strides[dim] * step,) + x.strides[dim + 1:] + (x.strides[dim],)
        shape = x.shape[:dim] + (count,) + x.shape[dim + 1:] + (size,)
        if isinstance(x, numpy.ndarray):  # (numpy's, or an array type built on it: kept)
            windows = numpy.lib.stride_tricks.as_strided(x.view(numpy.ndarray), shape=shape, strides=strides)
            return windows if type(x) is numpy.ndarray else windows.view(type(x))
        return xp.lib.stride_tricks.as_strided(x, shape=shape, strides=strides)  # CuPy's

    def backward(F, ctx, g, dim, size, step):
        shape = tuple(ctx.shapes[0])
        if not shape:
            return (F.reshape(g, shape=()),)
        nd = len(shape)
        # the window's elements next to the window index, then each added at its position
        order = tuple(range(dim + 1)) + (nd,) + tuple(range(dim + 1, nd))
        moved = F.permute(g, dims=order)
        key = (_ALL,) * dim + (F.xp.asarray(_windows(shape[dim], size, step)),)
        return (F.index_grad(moved, key=key, shape=shape),)


class UnfoldOverlapping(Unfold):
    """Tensor.unfold with windows that overlap (step < size): a view that may not be written to.

    The same view as unfold's, but its elements repeat the input's, so an in-place op on it is
    refused with PyTorch's message for such a view (where PyTorch writes each repeated element
    more than once, in an order of its own: a known difference)."""
    name = "unfold_overlapping"
    jvp = "linear"  # forward mode: the row applied to the tangents
    view_overlaps = True


def unfold_view(input, dimension, size, step):
    """Tensor.unfold's checks, in PyTorch's words, then the row."""
    nd = input.array.ndim
    d = wrap_dim(int(dimension), nd)
    size, step = int(size), int(step)
    n = input.array.shape[d] if nd else 1
    if size > n:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {n} but size is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    row = UnfoldOverlapping if step < size and nd else Unfold
    return run_op(row, (input,), {"dim": d, "size": size, "step": step})


# ---------------------------------------------------------------------------------------- renorm

def _norm_direction(F, x, n, p, dims):
    """d n / d x for n the p-norm of x over `dims` (kept), as PyTorch's norm_backward: ties of
    p = inf share the gradient evenly."""
    if p == 2:
        return x / n
    if p == 1:
        return F.sign(x)
    if p == math.inf:
        at_max = F.eq(F.abs(x), n)
        ties = F.sum(at_max * 1.0, dim=dims, keepdim=True)
        return F.sign(x) * at_max / ties
    return F.sign(x) * F.pow(F.abs(x), p - 1) / F.pow(n, p - 1)


class Renorm(Op):
    """Each slice along dim whose p-norm exceeds maxnorm scaled down to norm maxnorm.

    x with every sub-tensor x.select(dim, i) whose p-norm exceeds maxnorm multiplied by
    maxnorm / (norm + 1e-7), PyTorch's factor."""
    name = "renorm"
    signature = "renorm(Tensor input, Scalar p, int dim, Scalar maxnorm) -> Tensor"
    method = inplace = True
    saves = (0,)
    node = "RenormBackward0"

    def forward(xp, x, p, dim, maxnorm):
        dims = tuple(k for k in range(x.ndim) if k != dim)
        a = xp.abs(x.astype(numpy.float64) if x.dtype == numpy.float16 else x)
        if p == math.inf:  # (the largest of no elements: 0)
            n = a.max(axis=dims, keepdims=True) if a.size else xp.zeros(
                tuple(1 if k in dims else n for k, n in enumerate(a.shape)), dtype=a.dtype)
        else:
            n = (a ** p).sum(axis=dims, keepdims=True) ** (1 / p)
        factor = xp.where(n > maxnorm, maxnorm / (n + 1e-7), 1.0).astype(x.dtype)
        return x * factor

    def backward(F, ctx, g, x, p, dim, maxnorm):
        dims = tuple(k for k in range(len(ctx.shapes[0])) if k != dim)
        n = F.norm(x, p=p, dim=dims, keepdim=True)
        inv = 1.0 / (n + 1e-7)
        s = F.sum(x * g, dim=dims, keepdim=True)
        scaled = maxnorm * inv * (g - inv * s * _norm_direction(F, x, n, p, dims))
        return (F.where(_raw(n) > maxnorm, scaled, g),)

    def call(input, p, dim, maxnorm):
        nd = input.array.ndim
        if nd <= 1:
            raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {nd} dimensions")
        if input.array.dtype.kind not in "fc":
            raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                               f"{dtype_word(input)}")
        if isinstance(p, TensorBase):
            p = p.item()
        if isinstance(maxnorm, TensorBase):
            maxnorm = maxnorm.item()
        if not p > 0:
            raise RuntimeError("renorm: non-positive-norm not supported")
        if maxnorm < 0:
            raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm}")
        p = float(p)
        return run_op(Renorm, (input,), {"p": int(p) if p.is_integer() else p, "dim": wrap_dim(dim, nd),
                                         "maxnorm": maxnorm})


# ------------------------------------------------------------------------------------ block_diag

def _as_matrix_shape(shape):
    shape = tuple(shape)
    return shape if len(shape) == 2 else ((1,) + shape if len(shape) == 1 else (1, 1))


class BlockDiag(Op):
    """The tensors (at most 2-D: a number is 1x1, a vector one row) as the diagonal blocks of a matrix.

    The blocks placed along the diagonal of a zero matrix, in the promoted dtype."""
    name = "block_diag"
    jvp = "linear"  # forward mode: the row applied to the tangents
    names = ("block_diag",)  # the function (variadic) is engine/functions/tensorops.py's
    node = "BlockDiagBackward0"

    def forward(xp, *xs, dtype):
        shapes = [_as_matrix_shape(x.shape) for x in xs]
        out = xp.zeros((sum(s[0] for s in shapes), sum(s[1] for s in shapes)), dtype=dtype)
        r = c = 0
        for x, (h, w) in zip(xs, shapes):
            out[r:r + h, c:c + w] = x.reshape(h, w)
            r, c = r + h, c + w
        return out

    def backward(F, ctx, g, dtype):
        grads, r, c = [], 0, 0
        for shape, need in zip(ctx.shapes, ctx.needs):
            h, w = _as_matrix_shape(shape)
            if need:
                block = F.getitem(g, key=(slice(r, r + h), slice(c, c + w)))
                grads.append(block if len(shape) == 2 else F.reshape(block, shape=tuple(shape)))
            else:
                grads.append(None)
            r, c = r + h, c + w
        return tuple(grads)


# ------------------------------------------------------------------------------------- index_put

class IndexPutValues(Op):
    """Values put (or with accumulate=True added) at the positions the index tensors pick.

    x with x[indices] = values (out of place), or += values with accumulate=True (repeated
    indices then add up)."""
    name = "index_put_values"  # ("index_put" is the internal row of x[key] = v)
    names = ("index_put",)  # the function is engine/functions/tensorops.py's
    method = inplace = True
    saves_params = True
    node = "IndexPutBackward0"

    def forward(xp, x, v, key, accumulate):
        out = xp.array(x, copy=True)
        if accumulate:
            scatter_add(xp, out, key, xp.broadcast_to(v, out[key].shape))
        else:
            out[key] = v
        return out

    def backward(F, ctx, g, key, accumulate):
        gx = None
        if ctx.needs[0]:
            gx = g if accumulate else F.index_put(g, 0.0, key=key)
        return gx, (F.getitem(g, key=key) if ctx.needs[1] else None)


# -------------------------------------------------------------------------------- scatter_reduce

_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")


def _identity(xp, dtype, reduce):
    """What a reduction starts from where include_self=False leaves the input out."""
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype.kind == "f":
        return -math.inf if reduce == "amax" else math.inf
    if dtype.kind == "b":
        return reduce == "amin"
    info = numpy.iinfo(dtype)
    return info.min if reduce == "amax" else info.max


def _reduce_at(xp, reduce, target, key, values):
    """target[key] reduced with values, in place (repeated positions each reduce in): numpy's
    ufunc.at on the CPU, kernels.reduce_at's sorted runs on a GPU (a product there may differ from
    the CPU's in its last bits: another grouping)."""
    ufunc = {"sum": "add", "mean": "add", "prod": "multiply", "amax": "maximum", "amin": "minimum"}[reduce]
    kernels.reduce_at(xp, ufunc, target, key, values)


class ScatterReduce(Op):
    """Values of src reduced into input at index along dim: sum, prod, mean, amax or amin.

    out = input with each src[i][j] (dim 1: at out[i][index[i][j]]) reduced in by `reduce`;
    include_self=False leaves input's own value out where anything is scattered."""
    name = "scatter_reduce"
    signature = ("scatter_reduce(Tensor input, int dim, Tensor index, Tensor src, str reduce, *, "
                 "bool include_self=True) -> Tensor")
    method = inplace = True
    saves = (0, 1, "out")
    saves_params = True
    node = "ScatterReduceBackward0"
    wrap_dims = False

    def forward(xp, x, src, index, dim, reduce, include_self):
        out = xp.array(x, copy=True)
        if not index.size:
            return out
        flat = lift_0d(out)
        index = lift_0d(index)
        part = lift_0d(src)[tuple(slice(0, n) for n in index.shape)]
        key = grid_key(xp, index, dim)
        if not include_self:
            flat[key] = _identity(xp, out.dtype, reduce)
        _reduce_at(xp, reduce, flat, key, part)
        if reduce == "mean":
            count = xp.full(flat.shape, 1 if include_self else 0, dtype=numpy.int64)
            _reduce_at(xp, "sum", count, key, xp.ones(index.shape, dtype=numpy.int64))
            count = xp.maximum(count, 1)
            if out.dtype.kind == "f":
                flat[...] = flat / count.astype(out.dtype)
            else:
                flat[...] = flat // count
        return out

    def backward(F, ctx, g, x, src, out, index, dim, reduce, include_self):
        xshape, sshape = tuple(ctx.shapes[0]), tuple(ctx.shapes[1])
        if not index.size:
            return (g if ctx.needs[0] else None), (F.zeros_like(src) if ctx.needs[1] else None)
        if not xshape:  # as one of shape (1,)
            x, out, g = (F.reshape(t, shape=(1,)) for t in (x, out, g))
        index = lift_0d(index)
        if tuple(index.shape) != (sshape or (1,)):
            src = F.getitem(F.reshape(src, shape=sshape or (1,)), key=tuple(slice(0, n) for n in index.shape))
        elif not sshape:
            src = F.reshape(src, shape=(1,))

        def gather(t):
            return F.take_along(t, indices=index, dim=dim)

        if reduce == "sum":
            gx, gs = g, gather(g)
        elif reduce == "mean":
            n = F.xp.full(tuple(g.shape), 1 if include_self else 0, dtype=_raw(g).dtype)
            _reduce_at(F.xp, "sum", n, grid_key(F.xp, index, dim), F.xp.ones(index.shape, dtype=n.dtype))
            n = F.xp.maximum(n, 1)
            gx, gs = g / n, gather(g) / _gather_raw(F.xp, n, index, dim)
        elif reduce == "prod":
            zero_x = _zero_mask(x)
            masked_x = F.masked_fill(x, 1.0, mask=zero_x)
            masked_result = F.scatter_reduce(masked_x, src, index=index, dim=dim, reduce="prod",
                                             include_self=include_self)
            gx = g * masked_result / masked_x
            zero_s = _zero_mask(src)
            zeros_here = F.xp.zeros(tuple(x.shape), dtype=numpy.int64)
            _reduce_at(F.xp, "sum", zeros_here, grid_key(F.xp, index, dim), zero_s.astype(numpy.int64))
            single = zero_s & (_gather_raw(F.xp, zeros_here, index, dim) == 1)
            masked_src = F.masked_fill(src, 1.0, mask=single)
            masked_src_result = F.scatter_reduce(x, masked_src, index=index, dim=dim, reduce="prod",
                                                 include_self=include_self)
            gs = F.where(single, gather(g * masked_src_result),
                         gather(g * out) / F.masked_fill(src, 1.0, mask=zero_s))
        else:  # amax, amin: ties share the gradient evenly
            # (where the result is NaN nothing equals it: n = 0 and the gradient there is NaN, to x
            # and to the src elements reduced into it, as PyTorch's and as amax's at a NaN)
            xa, oa = _raw(x), _raw(out)
            x_is, s_is = xa == oa, _raw(src) == _gather_raw(F.xp, oa, index, dim)
            n = x_is.astype(oa.dtype)
            _reduce_at(F.xp, "sum", n, grid_key(F.xp, index, dim), s_is.astype(oa.dtype))
            share = g / n
            gx, gs = share * x_is.astype(oa.dtype), gather(share) * s_is.astype(oa.dtype)
        if not include_self:
            gx = F.scatter(gx, 0.0, index=index, dim=dim)
        if not xshape:
            gx = F.reshape(gx, shape=())
        if tuple(gs.shape) != sshape:
            if len(sshape) and tuple(index.shape) != sshape:
                gs = F.index_grad(gs, key=tuple(slice(0, n) for n in index.shape), shape=sshape)
            else:
                gs = F.reshape(gs, shape=sshape)
        return (gx if ctx.needs[0] else None), (gs if ctx.needs[1] else None)

    def call(input, dim, index, src, reduce, include_self):
        tensor_argument(index, "scatter_reduce", "index", 3)
        tensor_argument(src, "scatter_reduce", "src", 4)
        d = wrap_dim(dim, input.array.ndim)
        if reduce not in _REDUCTIONS:
            raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
        host = checked_index("scatter", input, d, index, src)
        index = index.array if host is None else _on_device(host, input)
        return run_op(ScatterReduce, (input, src), {"index": index, "dim": d, "reduce": reduce,
                                                    "include_self": include_self})


def _gather_raw(xp, a, index, dim):
    """a gathered at `index` along `dim`, reading only the part of `a` index covers (gather's rule)."""
    part = a[tuple(_ALL if k == dim else slice(0, n) for k, n in enumerate(index.shape))]
    return xp.take_along_axis(part, index, axis=dim)


def _raw(t):
    """The array of a tensor (under create_graph, F's results are tensors), or the array itself."""
    return t.array if isinstance(t, TensorBase) else t


def _zero_mask(t):
    """Where t is 0, as a bool array (a parameter, not differentiated)."""
    return _raw(t) == 0
