"""Distances: torch.cdist (its own kernel, CdistBackward0, and for p = 2 with many rows the
matrix-product formula, EuclideanDistBackward0), torch.pdist, and the two steps of
pairwise_distance as PyTorch's C++ records them (x + eps: AddBackward1; at::norm over a dim:
NormBackward1).

Every gradient here is the p-norm's (the norm row's formula) of the differences, summed over
the rows of the other side; it is written in table ops, so it has second derivatives -- where
PyTorch's _cdist_backward and _pdist_backward have none."""
import math

import numpy

from .. import kernels
from ..core.tensor import run_op
from .table import Op, Elementwise, call
from .reductions import Norm


def _norm_last(xp, d, p, keepdims=False, axis=-1, nan_is_nan=False):
    """The p-norm of d along an axis, the last by default (p = 0: the count of non-zeros; -inf:
    the smallest |d|; an empty axis: 0)."""
    if d.shape[axis] == 0:
        return xp.sum(xp.abs(d), axis=axis, keepdims=keepdims)
    if p == 0:
        count = xp.sum(d != 0, axis=axis, keepdims=keepdims).astype(d.dtype)
        if nan_is_nan:  # cdist's and pdist's count: NaN where a difference is NaN (at::norm counts it)
            return xp.where(xp.isnan(d).any(axis=axis, keepdims=keepdims), d.dtype.type(math.nan), count)
        return count
    if p == -math.inf:
        return xp.min(xp.abs(d), axis=axis, keepdims=keepdims)
    with numpy.errstate(divide="ignore"):  # p < 0 with a zero: |0| ** p is inf, as PyTorch's
        return Norm.forward(xp, d, p, axis, keepdims)


def _norm_last_grad(F, g, d, out, p):
    """The gradient of _norm_last(d) given g (both with the last axis kept as 1)."""
    if p == 0:
        return F.zeros_like(d) * g
    if p == math.inf:  # PyTorch's cdist: sign(d) where |d| is the largest, ties not shared
        return g * F.sign(d) * (F.abs(d) == out)
    return Norm._grad(F, None, g, d, out, p, -1, True)[0]


class Cdist(Op):
    """The p-norm distance between each row of x1 (..., r1, c) and each row of x2 (..., r2, c):
    (..., r1, r2); batch dims broadcast."""
    name = "cdist"
    names = ("cdist",)
    formula = call("p")
    node = "CdistBackward0"
    saves = (0, 1, "out")

    def forward(xp, x1, x2, p=2.0):
        return _norm_last(xp, x1[..., :, None, :] - x2[..., None, :, :], p, nan_is_nan=True)

    def backward(F, ctx, g, x1, x2, out, p=2.0):
        d = F.unsqueeze(x1, dim=-2) - F.unsqueeze(x2, dim=-3)
        gd = _norm_last_grad(F, F.unsqueeze(g, dim=-1), d, F.unsqueeze(out, dim=-1), p)
        return (F.sum(gd, dim=-2) if ctx.needs[0] else None), (-F.sum(gd, dim=-3) if ctx.needs[1] else None)


def _pairs(xp, n):
    """The row indices (i, j), i < j, of pdist's pairs, in its order."""
    return xp.triu_indices(n, 1)


class Pdist(Op):
    """The p-norm distance between each pair of rows of a matrix (i < j).

    The p-norm distance between each pair of rows i < j of x (n, c), in row-major order: n (n - 1) / 2."""
    name = "pdist"
    signature = "pdist(Tensor input, float p=2) -> Tensor"
    formula = call("p")
    node = "PdistBackward0"
    saves = (0, "out")

    def forward(xp, x, p=2.0):
        i, j = _pairs(xp, x.shape[0])
        return _norm_last(xp, x[i] - x[j], p, nan_is_nan=True)

    def backward(F, ctx, g, x, out, p=2.0):
        shape = ctx.shapes[0]
        i, j = _pairs(F.xp, shape[0])
        d = F.getitem(x, key=(i,)) - F.getitem(x, key=(j,))
        gd = _norm_last_grad(F, F.unsqueeze(g, dim=-1), d, F.unsqueeze(out, dim=-1), p)
        return (F.index_grad(gd, key=(i,), shape=shape) - F.index_grad(gd, key=(j,), shape=shape),)

    def call(input, p):
        if input.array.ndim != 2:
            raise RuntimeError(f"pdist only supports 2D tensors, got: {input.array.ndim}D")
        if input.array.dtype.kind != "f":
            raise RuntimeError("pdist only supports floating-point dtypes")
        if not p >= 0:
            raise RuntimeError("pdist only supports non-negative p values")
        return run_op(Pdist, (input,), {"p": p})


class EuclideanDist(Op):
    """cdist for p = 2 through a matrix product, as PyTorch's _euclidean_dist: [-2 x1, |x1|^2, 1]
    times [x2, 1, |x2|^2]^T, held at 1e-30 or more, square-rooted (faster for many rows, less
    exact: a distance of 0 comes out as 1e-15)."""
    name = "euclidean_dist"
    node = "EuclideanDistBackward0"
    formula = call()
    saves = (0, 1, "out")

    def forward(xp, x1, x2):
        n1 = xp.sum(x1 ** 2, axis=-1, keepdims=True)
        n2 = xp.sum(x2 ** 2, axis=-1, keepdims=True)
        a = xp.concatenate([x1 * -2, n1, xp.ones_like(n1)], axis=-1)
        b = xp.concatenate([x2, xp.ones_like(n2), n2], axis=-1)
        return xp.sqrt(xp.maximum(kernels.matmul(xp, a, xp.swapaxes(b, -1, -2)), 1e-30))

    def backward(F, ctx, g, x1, x2, out):
        # PyTorch's _euclidean_dist_backward
        ratio = F.where(out == 0, 0.0, g / out)
        g1 = g2 = None
        if ctx.needs[0]:
            g1 = x1 * F.sum(ratio, dim=-1, keepdim=True) - F.matmul(ratio, x2)
        if ctx.needs[1]:
            g2 = (x2 * F.unsqueeze(F.sum(ratio, dim=-2), dim=-1)
                  - F.matmul(F.transpose(ratio, dim0=-1, dim1=-2), x1))
        return g1, g2


class AtNorm(Op):
    """at::norm(x, p, dim, keepdim) as PyTorch's C++ functions call it (pairwise_distance):
    NormBackward1, where torch.norm from Python records LinalgVectorNormBackward0. p = 0 counts
    the non-zeros (no gradient); -inf is the smallest |x|."""
    name = "at_norm"
    formula = call("p", "dim", "keepdim")
    node = "NormBackward1"
    saves = (0, "out")

    def forward(xp, x, p, dim, keepdim=False):
        return _norm_last(xp, x, p, keepdim, axis=dim)

    def backward(F, ctx, g, x, out, p, dim, keepdim=False):
        if not keepdim:
            g, out = F.unsqueeze(g, dim=dim), F.unsqueeze(out, dim=dim)
        if p == 0:
            return (F.zeros_like(x) * g,)
        return Norm._grad(F, None, g, x, out, p, dim, True)  # at::norm's: ties share an inf-norm's gradient


class AddScalar(Elementwise):
    """x + c with a number c, as PyTorch's C++ records it (add with a Scalar: AddBackward1;
    Python's `x + 1.0` is AddBackward0)."""
    name = "add_scalar"
    names = ()
    method = inplace = False
    formula = call("value")
    node = "AddBackward1"

    def forward(xp, x, value):
        return x + value

    def backward(F, ctx, g, value):
        return (g,)
