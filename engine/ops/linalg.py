"""Linear algebra: matmul (mm, mv, dot, bmm), linear, addmm (and baddbmm), addbmm, einsum, kron, trace, cross, inverse,
linalg.solve, det, vdot, addmv, addr and slogdet; PyTorch's checks of their arguments, in its words (a
singular matrix is a `LinAlgError`, as PyTorch's torch.linalg.LinAlgError, a RuntimeError)."""
import math
import warnings

import numpy

from .. import dtypes as _dt
from .. import kernels
from ..core.tensor import NO_PARAMS, TensorBase, check_broadcastable, run_op, wrap_dim
from .arithmetic import tensor_operands
from .table import Op, dims_text, infix, call, refuse_dtype, type_name


def _matmul_name(ctx):
    a, b = len(ctx.shapes[0]), len(ctx.shapes[1])
    if a == 2 and b == 2:
        return "MmBackward0"
    if a == 1 and b == 1:
        return "DotBackward0"
    if a == 2 and b == 1:
        return "MvBackward0"
    if a == 3 and b == 3 and ctx.shapes[0][0] == ctx.shapes[1][0]:
        return "BmmBackward0"
    return "MatmulBackward0"


def _summed(*parts):
    """The sum of the parts that are not None (a forward rule's terms, one per dual input)."""
    total = None
    for p in parts:
        if p is not None:
            total = p if total is None else total + p
    return total


class Matmul(Op):
    """The matrix product a @ b (vectors, matrices, batches broadcast)."""
    name = "matmul"
    names = ("matmul", "mm", "mv", "dot", "bmm")
    method = True
    formula = infix("@")
    node = staticmethod(_matmul_name)
    saves = (0, 1)
    save_for = ((1,), (0,))

    def forward(xp, a, b):
        return kernels.matmul(xp, a, b)

    def jvp(F, ctx, tangents, a, b):  # bilinear: va @ b + a @ vb
        va, vb = tangents
        return _summed(F.matmul(va, b) if va is not None else None, F.matmul(a, vb) if vb is not None else None)

    def backward(F, ctx, g, a, b):
        na, nb = len(ctx.shapes[0]), len(ctx.shapes[1])
        ga = gb = None
        if na == 1 and nb == 1:
            return (g * b if ctx.needs[0] else None), (g * a if ctx.needs[1] else None)
        if na == 1:  # (n) @ (..., n, p) -> (..., p); the core sums batch axes away
            if ctx.needs[0]:
                ga = F.reshape(F.matmul(b, F.unsqueeze(g, dim=-1)), shape=tuple(g.shape[:-1]) + ctx.shapes[0])
            if ctx.needs[1]:
                gb = F.unsqueeze(a, dim=-1) * F.unsqueeze(g, dim=-2)
            return ga, gb
        if nb == 1:  # (..., m, n) @ (n) -> (..., m)
            if ctx.needs[0]:
                ga = F.unsqueeze(g, dim=-1) * b
            if ctx.needs[1]:
                gb = F.reshape(F.matmul(F.unsqueeze(g, dim=-2), a), shape=tuple(g.shape[:-1]) + ctx.shapes[1])
            return ga, gb
        if ctx.needs[0]:
            ga = F.matmul(g, F.transpose(b, dim0=-1, dim1=-2))
        if ctx.needs[1]:
            gb = F.matmul(F.transpose(a, dim0=-1, dim1=-2), g)
        return ga, gb

    def batched_backward(F, ctx, g, a, b):
        # the batch dim leads the matmul's own batch dims (broadcast); only a dot, whose g is
        # (B,), needs g as a column
        if len(ctx.shapes[0]) == 1 and len(ctx.shapes[1]) == 1:
            g = F.unsqueeze(g, dim=-1)
            return (g * b if ctx.needs[0] else None), (g * a if ctx.needs[1] else None)
        return Matmul.backward(F, ctx, g, a, b)


class Linear(Op):
    """linear(x, W, b) = x @ W.T + b, as torch.nn.functional.linear."""
    name = "linear"
    names = ("linear",)
    node = staticmethod(lambda ctx: "LinearBackward0" if len(ctx.shapes[0]) != 2 else
                        "AddmmBackward0" if len(ctx.shapes) == 3 else "MmBackward0")
    saves = (0, 1)
    save_for = ((1,), (0,))

    def forward(xp, x, w, b=None):
        if x.ndim == 2 and x.shape[0] < w.shape[0] and x.__class__ is numpy.ndarray and w.__class__ is numpy.ndarray:
            # fewer rows than output features: numpy's BLAS (OpenBLAS) makes (W x^T)^T faster than x W^T
            # (64x784 by 784x128: 151 us, not 170), the same sums; the bias's add (or a copy) lays it out
            # row by row again
            t = numpy.matmul(w, x.T).T
            if b is None:
                return numpy.ascontiguousarray(t)
            return numpy.add(t, b, out=numpy.empty(t.shape, numpy.result_type(t, b)))
        out = kernels.matmul(xp, x, w.T)
        return out if b is None else out + b

    def jvp(F, ctx, tangents, x, w):  # vx @ w.T + x @ vw.T + vb
        vx, vw = tangents[:2]
        vb = tangents[2] if len(tangents) > 2 else None
        return _summed(F.linear(vx, w) if vx is not None else None, F.linear(x, vw) if vw is not None else None, vb)

    def backward(F, ctx, g, x, w):
        return _linear_grads(F, ctx, g, x, w, ())

    def batched_backward(F, ctx, g, x, w):
        return _linear_grads(F, ctx, g, x, w, (g.shape[0],))


def _linear_grads(F, ctx, g, x, w, batch):
    """linear's gradients; `batch` is () or (B,), the batch dim g carries in front."""
    gx = F.matmul(g, w) if ctx.needs[0] else None
    gw = None
    if ctx.needs[1]:
        if len(ctx.shapes[0]) == 1:
            gw = F.unsqueeze(g, dim=-1) * x
        else:
            g2 = F.reshape(g, shape=batch + (-1, ctx.shapes[1][0]))
            x2 = F.reshape(x, shape=(-1, ctx.shapes[1][1]))
            gw = F.matmul(F.transpose(g2, dim0=-1, dim1=-2), x2)
    if len(ctx.shapes) == 3:
        return gx, gw, (g if ctx.needs[2] else None)
    return gx, gw


# ------------------------------------------------------------------ addmm, bmm

class Addmm(Op):
    """Beta * input + alpha * (mat1 @ mat2).

    beta * input + alpha * (mat1 @ mat2), as torch.addmm (input broadcasts to the product); of
    3-D batches of matrices, torch.baddbmm (BaddbmmBackward0)."""
    batched = True  # g (B, m, p) @ mat2.T and mat1.T @ g broadcast over the batch
    name = "addmm"
    signature = "addmm(Tensor input, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor"
    names = ("addmm", "baddbmm")
    method = inplace = True
    formula = call("beta", "alpha")
    node = staticmethod(lambda ctx: "BaddbmmBackward0" if len(ctx.shapes[1]) == 3 else "AddmmBackward0")
    saves = (1, 2)
    save_for = ((2,), (1,))

    def forward(xp, x, a, b, beta=1, alpha=1):
        out = kernels.matmul(xp, a, b)
        if alpha != 1:
            out = out * alpha
        if beta == 0:
            return out  # PyTorch ignores input then (its NaNs too)
        return out + (x if beta == 1 else x * beta)

    def backward(F, ctx, g, a, b, beta=1, alpha=1):
        # PyTorch's maybe_multiply: a factor of 1 is not applied at all
        gx = (g if beta == 1 else g * beta) if ctx.needs[0] else None
        ga = gb = None
        if ctx.needs[1]:
            ga = F.matmul(g, F.transpose(b, dim0=-1, dim1=-2))
            ga = ga if alpha == 1 else ga * alpha
        if ctx.needs[2]:
            gb = F.matmul(F.transpose(a, dim0=-1, dim1=-2), g)
            gb = gb if alpha == 1 else gb * alpha
        return gx, ga, gb

    def call(input, mat1, mat2, beta, alpha):
        """input broadcasts to the product's shape."""
        x, a, b = tensor_operands(input, mat1, mat2)
        for name, m in (("mat1", a), ("mat2", b)):
            if m.array.ndim != 2:
                raise RuntimeError(f"{name} must be a matrix, got {m.array.ndim}-D tensor")
        if a.array.shape[1] != b.array.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({dims_text(a)} and {dims_text(b)})")
        for name, m in (("mat1", a), ("self", x)):
            if m.array.dtype != b.array.dtype:
                raise RuntimeError(f"{name} and mat2 must have the same dtype, but got {scalar_name(m)} and "
                                   f"{scalar_name(b)}")
        check_expands(x, (a.array.shape[0], b.array.shape[1]))
        not_bool("addmm_impl_cpu_", x)
        return run_op(Addmm, (x, a, b), factors(x, beta, alpha))


class Addbmm(Op):
    """Beta * input + alpha * the sum of batch1[i] @ batch2[i].

    beta * input + alpha * sum_i batch1[i] @ batch2[i] for batches of matrices (b, n, m) and
    (b, m, p): input broadcasts to (n, p), and with beta 0 it is ignored (its NaNs too)."""
    name = "addbmm"
    signature = "addbmm(Tensor input, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor"
    method = inplace = True
    formula = call("beta", "alpha")
    node = "AddbmmBackward0"
    saves = (1, 2)
    save_for = ((2,), (1,))

    def forward(xp, x, a, b, beta=1, alpha=1):
        return _scaled_sum(x, kernels.matmul(xp, a, b).sum(axis=0), beta, alpha)

    def backward(F, ctx, g, a, b, beta=1, alpha=1):
        # PyTorch's: g expanded over the batch, times each batch2[i]^T (batch1[i]^T times it)
        ga = _times(F.matmul(g, F.transpose(b, dim0=-1, dim1=-2)), alpha) if ctx.needs[1] else None
        gb = _times(F.matmul(F.transpose(a, dim0=-1, dim1=-2), g), alpha) if ctx.needs[2] else None
        return (_times(g, beta) if ctx.needs[0] else None), ga, gb

    def call(input, batch1, batch2, beta, alpha):
        """PyTorch's checks: the expand of input, then addbmm's of the batches, then the dtypes."""
        x, a, b = tensor_operands(input, batch1, batch2)
        if a.array.ndim == 3 and b.array.ndim == 3:
            check_expands(x, (a.array.shape[1], b.array.shape[2]))
        for name, m in (("batch1", a), ("batch2", b)):
            if m.array.ndim != 3:
                raise RuntimeError(f"{name} must be a 3D tensor")
        if a.array.shape[0] != b.array.shape[0]:
            raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {a.array.shape[0]} and "
                               f"{b.array.shape[0]}")
        if a.array.shape[2] != b.array.shape[1]:
            raise RuntimeError(f"Incompatible matrix sizes for bmm ({dims_text(a)[2:]} and {dims_text(b)[2:]})")
        for name, m in (("self", x), ("mat1", a)):
            if m.array.dtype != b.array.dtype:
                raise RuntimeError(f"{name} and mat2 must have the same dtype, but got {scalar_name(m)} and "
                                   f"{scalar_name(b)}")
        not_bool("addmm_impl_cpu_", x)
        return run_op(Addbmm, (x, a, b), factors(x, beta, alpha))


# ------------------------------------------------------------------- einsum

def einsum_parts(equation):
    """('ij,jk->ik') -> (['ij', 'jk'], 'ik'): an equation as the public function normalizes it
    (explicit output, one letter per dimension, no spaces or ellipsis)."""
    inputs, out = equation.split("->")
    return inputs.split(","), out


def einsum_node_name(equation):
    """PyTorch's einsum is composite; its result is named after the last step it takes: a sum or a
    permute for one operand, a batched matmul's view (something is summed) or a mul for more."""
    inputs, out = einsum_parts(equation)
    summed = set("".join(inputs)) - set(out)
    if len(inputs) == 1:
        return "SumBackward1" if summed else "PermuteBackward0"
    return "ViewBackward0" if summed else "MulBackward0"


def _einsum_long_dot(xp, equation, a, b):
    """An einsum whose result is one number (every output letter of size 1) summed over more than
    kernels.LONG_DOT products, where one operand has every letter: the products, then their pairwise
    sum (numpy's optimized einsum would hand it to BLAS's dot, whose bits depend on the thread
    count). None for any other einsum."""
    if "." in equation or a.dtype.kind not in "fc":
        return None
    (sa, sb), out = einsum_parts(equation)
    sizes = dict(zip(sa, a.shape))
    sizes.update(zip(sb, b.shape))
    if any(sizes[c] != 1 for c in out) or not (set(sa) >= set(sb) or set(sb) >= set(sa)):
        return None
    letters = "".join(dict.fromkeys(sa + sb))
    if math.prod(sizes[c] for c in letters) <= kernels.LONG_DOT:
        return None
    products = xp.einsum(f"{sa},{sb}->{letters}", a, b)  # (each element one product: nothing summed)
    return kernels.total(xp, products).reshape((1,) * len(out))


def _einsum_name(ctx):
    return ctx.params.get("name") or einsum_node_name(ctx.params["equation"])


class Einsum(Op):
    """einsum of two operands, with an explicit equation ('ij,jk->ik'; torch.einsum in
    functions_linalg.py reduces every call to these, and to diagonal/permute/sum for one operand).

    The gradient of an operand is the einsum of the output's gradient with the other operand,
    onto the operand's own letters: a letter found nowhere else (summed within the operand) is
    broadcast back, and a repeated letter (a diagonal, 'ii') puts the gradient on that diagonal
    (index_grad) -- all ops of this table, so every order of derivative works."""
    name = "einsum"
    names = ("einsum",)
    formula = call("equation")
    node = staticmethod(_einsum_name)
    saves = (0, 1)
    save_for = ((1,), (0,))

    def forward(xp, a, b, equation, name=None):
        if getattr(xp, "__name__", None) == "numpy":
            long_dot = _einsum_long_dot(xp, equation, a, b)
            if long_dot is not None:
                return long_dot
            return xp.einsum(equation, a, b, optimize=True)  # through BLAS (as PyTorch's bmm), not loops
        return xp.einsum(equation, a, b)

    def backward(F, ctx, g, a, b, equation, name=None):
        (sa, sb), out = einsum_parts(equation)
        sizes = {}
        for subscripts, shape in zip((sa, sb), ctx.shapes):
            sizes.update(zip(subscripts, shape))
        ga = _einsum_operand_grad(F, g, out, b, sb, sa, sizes, ctx.shapes[0]) if ctx.needs[0] else None
        gb = _einsum_operand_grad(F, g, out, a, sa, sb, sizes, ctx.shapes[1]) if ctx.needs[1] else None
        return ga, gb

    def batched_backward(F, ctx, g, a, b, equation, name=None):
        (sa, sb), out = einsum_parts(equation)
        free = [c for c in _LETTERS if c not in equation]
        if not free:
            return NotImplemented
        z = free[0]  # a letter of its own for the batch dim
        sizes = {z: g.shape[0]}
        for subscripts, shape in zip((sa, sb), ctx.shapes):
            sizes.update(zip(subscripts, shape))
        ga = _einsum_operand_grad(F, g, z + out, b, sb, sa, sizes, ctx.shapes[0], z) if ctx.needs[0] else None
        gb = _einsum_operand_grad(F, g, z + out, a, sa, sb, sizes, ctx.shapes[1], z) if ctx.needs[1] else None
        return ga, gb


def _einsum_operand_grad(F, g, out, other, other_letters, target, sizes, shape, batch=""):
    """The gradient of the operand with letters `target`, given the output's gradient `g`
    (letters `out`) and the other operand; `batch`: the letter of g's leading batch dim
    (it leads the result too)."""
    if batch:
        shape = (sizes[batch],) + tuple(shape)
    target = batch + target
    unique = "".join(dict.fromkeys(target))
    present = set(out) | set(other_letters)
    kept = "".join(c for c in unique if c in present)
    grad = F.einsum(g, other, equation=f"{out},{other_letters}->{kept}")
    if len(kept) < len(unique):  # letters summed within this operand alone: the gradient is the same along them
        grad = F.reshape(grad, shape=tuple(sizes[c] if c in present else 1 for c in unique))
        grad = F.expand(grad, shape=tuple(sizes[c] for c in unique))
    if len(unique) < len(target):  # a repeated letter: onto the diagonal, zeros elsewhere
        xp = F.xp
        inner = unique[len(batch):]  # the batch dim is a full slice before the index arrays
        axes = {c: i for i, c in enumerate(inner)}
        key = tuple(xp.arange(sizes[c]).reshape(tuple(sizes[c] if j == axes[c] else 1 for j in range(len(inner))))
                    for c in target[len(batch):])
        grad = F.index_grad(grad, key=(slice(None),) * len(batch) + key, shape=shape)
    return grad


# --------------------------------------------------------------------- kron

class Kron(Op):
    """The Kronecker product.

    The Kronecker product (the inputs' dims aligned on the right, as torch.kron)."""
    name = "kron"
    signature = "kron(Tensor input, Tensor other) -> Tensor"
    method = True
    formula = call()
    node = "UnsafeViewBackward0"  # PyTorch's kron is a product of views, reshaped at the end
    saves = (0, 1)
    save_for = ((1,), (0,))

    def forward(xp, a, b):
        return xp.kron(a, b)

    def backward(F, ctx, g, a, b):
        sa, sb = ctx.shapes
        nd = max(len(sa), len(sb))
        pa, pb = (1,) * (nd - len(sa)) + tuple(sa), (1,) * (nd - len(sb)) + tuple(sb)
        la, lb = _LETTERS[:nd], _LETTERS[nd:2 * nd]
        blocks = F.reshape(g, shape=tuple(s for pair in zip(pa, pb) for s in pair))  # (a0, b0, a1, b1, ...)
        lg = "".join(x + y for x, y in zip(la, lb))
        ga = gb = None
        if ctx.needs[0]:
            ga = F.reshape(F.einsum(blocks, F.reshape(b, shape=pb), equation=f"{lg},{lb}->{la}"), shape=sa)
        if ctx.needs[1]:
            gb = F.reshape(F.einsum(blocks, F.reshape(a, shape=pa), equation=f"{lg},{la}->{lb}"), shape=sb)
        return ga, gb

    def call(input, other):
        return run_op(Kron, tensor_operands(input, other), NO_PARAMS)


_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


# ---------------------------------------------------------------- trace, cross

class Trace(Op):
    """The sum of a matrix's main diagonal.

    The sum of the main diagonal of a matrix (rectangular too)."""
    name = "trace"
    jvp = "linear"  # forward mode: the row applied to the tangents
    signature = "trace(Tensor input) -> Tensor"
    method = True
    formula = call()
    node = "TraceBackward0"

    def forward(xp, x):
        return xp.trace(x)

    def backward(F, ctx, g):
        shape = ctx.shapes[0]
        k = min(shape)
        diagonal = F.xp.arange(k)
        return (F.index_grad(F.expand(g, shape=(k,)), key=(diagonal, diagonal), shape=shape),)

    def batched_backward(F, ctx, g):
        shape = ctx.shapes[0]
        k = min(shape)
        b = g.shape[0]
        diagonal = F.xp.arange(k)
        spread = F.expand(F.reshape(g, shape=(b, 1)), shape=(b, k))
        return (F.index_grad(spread, key=(slice(None), diagonal, diagonal), shape=(b,) + tuple(shape)),)

    def call(input):
        if input.array.ndim != 2:
            raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.array.ndim}")
        not_bool("trace", input)
        return run_op(Trace, (input,), NO_PARAMS)


class Cross(Op):
    """The cross product of 3-vectors along dim.

    The cross product of 3-vectors along `dim` (the other dims broadcast); without dim, along the first
    dim of size 3 (deprecated in PyTorch)."""
    name = "cross"
    signature = "cross(Tensor input, Tensor other, int? dim=None) -> Tensor"
    wrap_dims = False  # (PyTorch's messages name dim as it was given)
    method = True
    formula = call("dim")
    node = "LinalgCrossBackward0"
    saves = (0, 1)
    save_for = ((1,), (0,))

    def forward(xp, a, b, dim):
        return xp.cross(a, b, axis=dim)

    def backward(F, ctx, g, a, b, dim):
        ga = F.cross(b, g, dim=dim) if ctx.needs[0] else None
        gb = F.cross(g, a, dim=dim) if ctx.needs[1] else None
        return ga, gb

    def batched_backward(F, ctx, g, a, b, dim):
        nd = len(g.shape) - 1  # the result's dims: a negative dim names the same axis in g
        return Cross.backward(F, ctx, g, a, b, dim - nd if dim >= 0 else dim)

    def call(input, other, dim):
        a, b = tensor_operands(input, other)
        if dim is None:
            warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim "
                          "explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to agree "
                          "with that of linalg.cross in a future release.", UserWarning, stacklevel=3)
            dim = next((d for d, s in enumerate(a.array.shape) if s == 3), None)
            if dim is None:
                raise RuntimeError("no dimension of size 3 in input")
        if a.array.ndim != b.array.ndim:
            raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
        if a.array.ndim == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        d = wrap_dim(dim, a.array.ndim)
        if a.array.shape[d] != 3 or b.array.shape[d] != 3:
            raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {a.array.shape[d]} and "
                               f"{b.array.shape[d]}")
        check_broadcastable(a.array.shape, b.array.shape)
        same_dtype(a, b)
        not_bool("cross", a)
        return run_op(Cross, (a, b), {"dim": d})


# ------------------------------------------------------ det, inverse, solve

class Inverse(Op):
    """The inverse of a square matrix (or a batch of them).

    The inverse of (a batch of) square matrices: torch.inverse, torch.linalg.inv."""
    batched = True  # matmuls that broadcast over a leading batch dim of g
    name = "inverse"
    signature = "inverse(Tensor input) -> Tensor"
    method = True
    formula = call()
    node = "LinalgInvExBackward0"
    saves = ("out",)

    def forward(xp, x):
        return _nan_tolerant(xp, xp.linalg.inv, x)

    def backward(F, ctx, g, inv):
        inv_t = F.transpose(inv, dim0=-1, dim1=-2)
        return (-F.matmul(inv_t, F.matmul(g, inv_t)),)  # PyTorch's -A^-H (g A^-H)

    def call(input):
        """A singular matrix is a LinAlgError."""
        square_matrices(input, "linalg.inv")
        try:
            return run_op(Inverse, (input,), NO_PARAMS)
        except numpy.linalg.LinAlgError:
            raise singular(input, "linalg.inv", _inverse_failed) from None


def _nan_tolerant(xp, solver, a, *rest):
    """solver(a, *rest) for a (batch of) matrices `a`, as PyTorch's LAPACK gives it where a matrix
    holds a NaN: NaNs, not numpy's LinAlgError (which the other matrices still raise, singular)."""
    try:
        return solver(a, *rest)
    except Exception as error:
        if type(error).__name__ != "LinAlgError" or not bool(xp.isnan(a).any()):
            raise
    nan = xp.isnan(a).any(axis=(-2, -1))
    clean = xp.where(nan[..., None, None], xp.eye(a.shape[-1], dtype=a.dtype), a)
    out = solver(clean, *rest)  # still raises for a singular matrix without NaNs
    return xp.where(nan.reshape(nan.shape + (1,) * (out.ndim - nan.ndim)), xp.nan, out)


def _inverse_failed(k):
    """linalg.inv's words for a matrix whose k-th pivot is zero."""
    return (f"The diagonal element {k} is zero, the inversion could not be completed because the input matrix is "
            f"singular.")


class LinalgSolve(Op):
    """X with A X = B (torch.linalg.solve); `vector`: B is a (batch of) vector(s), not matrices;
    `left=False`: X with X A = B."""
    name = "linalg_solve"  # torch.linalg.solve (functions_linalg.py); no torch.solve in PyTorch 2
    formula = call()
    node = "LinalgSolveExBackward0"
    saves = (0, "out")
    save_for = ((0, 1), (0,))
    batched = True  # a solve and matmuls that broadcast over a leading batch dim of g

    def forward(xp, a, b, vector=False, left=True):
        return solve_arrays(xp, a, b, vector, left, _nan_tolerant)

    def backward(F, ctx, g, a, x, vector=False, left=True):
        # PyTorch's linalg_solve_backward: gB = A^-H gX, gA = -gB X^H (left); for X A = B,
        # gB = gX A^-H and gA = -X^H gB (the core sums broadcast batches)
        gb = F.linalg_solve(F.transpose(a, dim0=-1, dim1=-2), g, vector=vector, left=left)
        return solve_grads(F, ctx, gb, x, vector, left)


def solve_arrays(xp, a, b, vector, left, solver):
    """linalg.solve's forward on arrays, the batched square solves made by solver(xp, A, B)."""
    if vector:
        b = b[..., None]
    if not left:  # X A = B is A^T X^T = B^T
        a, b = xp.swapaxes(a, -1, -2), xp.swapaxes(b, -1, -2)
    batch = _broadcast_batch(a.shape[:-2], b.shape[:-2])
    # the same number of dims on both sides: numpy's and cupy's rules for a vector b never apply
    x = solver(xp, xp.linalg.solve, xp.broadcast_to(a, batch + a.shape[-2:]), xp.broadcast_to(b, batch + b.shape[-2:]))
    if not left:
        x = xp.swapaxes(x, -1, -2)
    return x[..., 0] if vector else x


def solve_grads(F, ctx, gb, x, vector, left):
    """linalg.solve's (gA, gB) from gB: gA = -gB X^T (left=False: -X^T gB)."""
    ga = None
    if ctx.needs[0]:
        gb_m, x_m = (F.unsqueeze(gb, dim=-1), F.unsqueeze(x, dim=-1)) if vector else (gb, x)
        if left:
            ga = -F.matmul(gb_m, F.transpose(x_m, dim0=-1, dim1=-2))
        else:
            ga = -F.matmul(F.transpose(x_m, dim0=-1, dim1=-2), gb_m)
    return ga, (gb if ctx.needs[1] else None)


def _broadcast_batch(sa, sb):
    n = max(len(sa), len(sb))
    sa, sb = (1,) * (n - len(sa)) + tuple(sa), (1,) * (n - len(sb)) + tuple(sb)
    return tuple(max(x, y) if min(x, y) != 0 else 0 for x, y in zip(sa, sb))


class Det(Op):
    """The determinant of a square matrix (or a batch of them).

    The determinant of (a batch of) square matrices: torch.det, torch.linalg.det.

    The gradient is PyTorch's: grad * det * A^-T, as the solution of A^T G = grad det I, where
    |det| >= 100 eps; where the matrix is (nearly) singular, the cofactor matrix times grad,
    which needs no inverse (PyTorch's adjugate through the SVD; under create_graph here the
    cofactors are determinants of minors, so higher derivatives go through this row again)."""
    name = "det"
    signature = "det(Tensor input) -> Tensor"
    method = True
    formula = call()
    node = "LinalgDetBackward0"
    saves = (0, "out")

    def forward(xp, x):
        out = kernels.det(xp, x)
        nan = xp.isnan(x).any(axis=(-2, -1))
        if bool(nan.any()):  # numpy's det is 0 where LAPACK met a NaN pivot; PyTorch's is NaN
            out = xp.where(nan, xp.nan, out).astype(out.dtype)
        return out

    def backward(F, ctx, g, a, det):
        shape = ctx.shapes[0]
        if 0 in shape:
            return (F.expand(F.unsqueeze(F.unsqueeze(g, dim=-1), dim=-1), shape=shape),)
        xp = F.xp
        values = det.array if F.graph else det
        singular = xp.abs(values) < 100 * xp.finfo(values.dtype).eps
        if singular.ndim == 0 or bool(singular.all()) or not bool(singular.any()):
            near = bool(singular.all())
            return (_det_cofactors(F, a, g) if near else _det_regular(F, a, g * det),)
        regular = ~singular
        parts = (_det_cofactors(F, F.getitem(a, key=(singular,)), F.getitem(g, key=(singular,))),
                 _det_regular(F, F.getitem(a, key=(regular,)), F.getitem(g * det, key=(regular,))))
        return (F.index_grad(parts[0], key=(singular,), shape=shape)
                + F.index_grad(parts[1], key=(regular,), shape=shape),)

    def call(input):
        square_matrices(input, "linalg.det")
        return run_op(Det, (input,), NO_PARAMS)


def _det_regular(F, a, scale):
    """grad det A^-T, as PyTorch: the solution G of A^T G = (grad det) I."""
    n = a.shape[-1]
    d = F.where(F.eye_mask(n), F.unsqueeze(F.unsqueeze(scale, dim=-1), dim=-1), 0.0)
    return F.linalg_solve(F.transpose(a, dim0=-1, dim1=-2), d)


def _det_cofactors(F, a, g):
    """grad times the cofactor matrix of A: defined (and smooth) where A is singular."""
    xp = F.xp
    n = a.shape[-1]
    if not F.graph:  # PyTorch's formula: U diag(alpha prod_{j != i} s_j) Vh, alpha = det U det Vh grad
        u, s, vh = xp.linalg.svd(a)
        alpha = xp.linalg.det(u) * xp.linalg.det(vh) * g
        ones = xp.ones(s.shape[:-1] + (1,), dtype=s.dtype)
        before = xp.cumprod(xp.concatenate([ones, s[..., :-1]], axis=-1), axis=-1)
        after = xp.flip(xp.cumprod(xp.concatenate([ones, xp.flip(s[..., 1:], -1)], axis=-1), axis=-1), -1)
        return xp.matmul(u * (alpha[..., None] * before * after)[..., None, :], vh)
    scale = F.unsqueeze(F.unsqueeze(g, dim=-1), dim=-1)
    if n == 1:
        return F.expand(scale, shape=a.shape)
    j = xp.arange(n - 1)
    others = j[None, :] + (j[None, :] >= xp.arange(n)[:, None])  # (n, n - 1): row i lists every index but i
    minors = F.getitem(a, key=(Ellipsis, others[:, None, :, None], others[None, :, None, :]))  # (..., n, n, n-1, n-1)
    ij = xp.arange(n)
    sign = (1 - 2 * ((ij[:, None] + ij[None, :]) % 2)).astype(a.array.dtype)  # a Tensor here (create_graph)
    return F.mul(F.det(minors), sign) * scale


# ------------------------------------------------- vdot, addmv, addr, slogdet

class Vdot(Op):
    """The dot product of two vectors (the first conjugated).

    The dot product of two vectors, the first conjugated (torch.vdot; for real numbers, dot)."""
    name = "vdot"
    signature = "vdot(Tensor input, Tensor other) -> Tensor"
    method = True
    formula = call()
    node = "VdotBackward0"
    saves = (0, 1)
    save_for = ((1,), (0,))

    def forward(xp, a, b):
        return xp.asarray(kernels.matmul(xp, xp.conj(a) if a.dtype.kind == "c" else a, b))

    def backward(F, ctx, g, a, b):
        return (g * b if ctx.needs[0] else None), (g * a if ctx.needs[1] else None)

    def call(input, other):
        a, b = tensor_operands(input, other)
        if a.array.ndim != 1 or b.array.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {a.array.ndim}D and {b.array.ndim}D tensors")
        n, m = a.array.shape[0], b.array.shape[0]
        if n != m:
            raise RuntimeError(f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same number "
                               f"of elements, but got {n} and {m} elements respectively")
        if a.array.dtype != b.array.dtype:
            raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {scalar_name(a)} and "
                               f"{scalar_name(b)}")
        return run_op(Vdot, (a, b), NO_PARAMS)


class Addmv(Op):
    """Beta * input + alpha * (mat @ vec).

    beta * input + alpha * (mat @ vec), as torch.addmv (input broadcasts to the product; with
    beta 0 it is ignored, its NaNs too)."""
    name = "addmv"
    signature = "addmv(Tensor input, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor"
    method = inplace = True
    formula = call("beta", "alpha")
    node = "AddmvBackward0"
    saves = (1, 2)
    save_for = ((2,), (1,))

    def forward(xp, x, mat, vec, beta=1, alpha=1):
        return _scaled_sum(x, kernels.matmul(xp, mat, vec), beta, alpha)

    def backward(F, ctx, g, mat, vec, beta=1, alpha=1):
        # PyTorch's: maybe_multiply(grad.ger(vec), alpha), maybe_multiply(mat.t().mv(grad), alpha)
        gmat = _times(F.unsqueeze(g, dim=-1) * vec, alpha) if ctx.needs[1] else None
        gvec = _times(F.matmul(F.transpose(mat, dim0=0, dim1=1), g), alpha) if ctx.needs[2] else None
        return _times(g, beta) if ctx.needs[0] else None, gmat, gvec

    def call(input, mat, vec, beta, alpha):
        """input (a vector, or one element) broadcasts to the product."""
        x, m, v = tensor_operands(input, mat, vec)
        if not (m.array.ndim == 2 and v.array.ndim == 1 and x.array.ndim <= 1):
            raise RuntimeError(f"vector + matrix @ vector expected, got {x.array.ndim}, {m.array.ndim}, {v.array.ndim}")
        rows, cols = m.array.shape
        if cols != v.array.shape[0] or (x.array.size != rows and x.array.size != 1):
            raise RuntimeError(f"size mismatch, got input ({x.array.size}), mat ({rows}x{cols}), vec "
                               f"({v.array.shape[0]})")
        if not x.array.dtype == m.array.dtype == v.array.dtype:
            raise RuntimeError(f"addmv input tensors must have the same dtype, but got {scalar_name(x)}, "
                               f"{scalar_name(m)}, and {scalar_name(v)}")
        not_bool("addmv_impl_cpu", x)
        return run_op(Addmv, (x, m, v), factors(x, beta, alpha))


class Addr(Op):
    """Beta * input + alpha * outer(vec1, vec2).

    beta * input + alpha * outer(vec1, vec2), as torch.addr (input broadcasts to the outer
    product; with beta 0 it is ignored). PyTorch's kernel computes beta * x + (alpha * v1) * v2."""
    name = "addr"
    signature = "addr(Tensor input, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor"
    method = inplace = True
    formula = call("beta", "alpha")
    node = "AddrBackward0"
    saves = (1, 2)
    save_for = ((2,), (1,))

    def forward(xp, x, v1, v2, beta=1, alpha=1):
        outer = (alpha * v1)[:, None] * v2[None, :]
        return outer if beta == 0 else beta * x + outer

    def backward(F, ctx, g, v1, v2, beta=1, alpha=1):
        # PyTorch's: maybe_multiply(grad.mv(vec2), alpha), maybe_multiply(grad.t().mv(vec1), alpha)
        g1 = _times(F.matmul(g, v2), alpha) if ctx.needs[1] else None
        g2 = _times(F.matmul(F.transpose(g, dim0=0, dim1=1), v1), alpha) if ctx.needs[2] else None
        return _times(g, beta) if ctx.needs[0] else None, g1, g2

    def call(input, vec1, vec2, beta, alpha):
        x, v1, v2 = tensor_operands(input, vec1, vec2)
        for name, v in (("vec1", v1), ("vec2", v2)):
            if v.array.ndim != 1:
                raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v.array.ndim}-D")
        check_expands(x, (v1.array.shape[0], v2.array.shape[0]))
        if x.array.dtype.kind in "iub":
            for name, v in (("beta", beta), ("alpha", alpha)):
                if isinstance(_number(v), float):
                    raise RuntimeError(f"For integral input tensors, argument {name} must not be a floating point "
                                       f"number.")
        not_bool("addr_impl_cpu", x)
        return run_op(Addr, (x, v1, v2), factors(x, beta, alpha))


def _times(g, factor):
    """PyTorch's maybe_multiply: a factor of 1 is not applied at all."""
    return g if factor == 1 else g * factor


def _scaled_sum(x, product, beta, alpha):
    if alpha != 1:
        product = product * alpha
    if beta == 0:
        return product  # PyTorch ignores input then (its NaNs too)
    return product + (x if beta == 1 else x * beta)


class Slogdet(Op):
    """(sign, logabsdet): the sign of det A and log |det A|.

    (sign, logabsdet): the sign of det A (0 if singular) and log |det A| (-inf if singular).

    This row is the logabsdet of (a batch of) square matrices (the sign is the row below; both are
    PyTorch's one node LinalgSlogdetBackward0). The gradient is PyTorch's: grad A^-T, as the
    solution G of A^T G = grad I (the sign's gradient is ignored)."""
    name = "slogdet"
    signature = "slogdet(Tensor input) -> (Tensor sign, Tensor logabsdet)"
    method = True
    formula = call()
    node = "LinalgSlogdetBackward0"
    saves = (0,)
    batched = True  # a solve that broadcasts over a leading batch dim of g

    def forward(xp, x):
        with numpy.errstate(all="ignore"):  # (NaN, inf: PyTorch's, silently)
            return xp.linalg.slogdet(x)[1]

    def backward(F, ctx, g, a):
        xp = F.xp
        det = xp.linalg.det(a.array if F.graph else a)
        if bool((det == 0).any()):
            # a singular matrix: no solve; PyTorch's LU solve divides by the zero pivot, so
            # the gradient is the cofactors over that signed zero (inf, -inf, or NaN)
            with numpy.errstate(divide="ignore", invalid="ignore"):
                return (_det_cofactors(F, a, g) / det[..., None, None],)
        return (_det_regular(F, a, g),)

    def call(input):
        return slogdet_parts(input, "linalg.slogdet")


class SlogdetSign(Op):
    """The sign of det A (0 where A is singular): the first result of slogdet. PyTorch ignores
    the gradient that reaches it (the sign is piecewise constant): here zeros, also under
    create_graph."""
    name = "slogdet_sign"
    node = "LinalgSlogdetBackward0"
    formula = call()

    def forward(xp, x):
        with numpy.errstate(all="ignore"):
            sign, logabsdet = xp.linalg.slogdet(x)
        return xp.where(logabsdet != logabsdet, sign.dtype.type(0), sign)  # 0 where |det| is NaN, as PyTorch

    def backward(F, ctx, g):
        return (F.expand(F.unsqueeze(F.unsqueeze(g * 0.0, dim=-1), dim=-1), shape=ctx.shapes[0]),)


def slogdet_parts(A, fname):
    """(sign, logabsdet) of (a batch of) square matrices A, with the checks of `fname` (linalg.slogdet,
    logdet)."""
    square_matrices(A, fname, lu=False)
    if A.array.dtype == numpy.float16:
        raise RuntimeError(f"{fname}: Low precision dtypes not supported. Got Half")
    return run_op(SlogdetSign, (A,), NO_PARAMS), run_op(Slogdet, (A,), NO_PARAMS)


# ------------------------------------------------- PyTorch's checks of matrices, in its words

class _LinAlgError(RuntimeError):
    """A linear-algebra function met a singular matrix: torch.linalg.LinAlgError, whose class is
    torch._C._LinAlgError (the name its errors show)."""


LinAlgError = _LinAlgError


def scalar_name(t):
    """Float, Double, Long...: PyTorch's C++ name of a tensor's dtype, as its kernels' messages say it."""
    return type_name(t.array.dtype)


def same_dtype(a, b):
    if a.array.dtype != b.array.dtype:
        raise RuntimeError(f"expected scalar type {scalar_name(a)} but found {scalar_name(b)}")


def not_bool(kernel, t):
    """PyTorch's refusal of a bool tensor by a kernel that has no bool version (its CPU kernel's name)."""
    if t.array.dtype.kind == "b":
        refuse_dtype(kernel, t.array.dtype)


def lu_dtype(A, fname):
    """A float16 matrix: PyTorch has no LU (nor inverse) in half precision."""
    if A.array.dtype == numpy.float16:
        if fname == "linalg.inv":
            raise RuntimeError("linalg.inv: Low precision dtypes not supported. Got Half")
        raise NotImplementedError("\"lu_cpu\" not implemented for 'Half'")


def square_matrices(A, fname, lu=True, floating=True):
    """That tensor A is a (batch of) square float matrices, or PyTorch's error naming `fname`
    (linalg.det...); `lu`: refuse float16 here (solve does it after comparing A's and B's dtypes);
    `floating`: refuse other dtypes (matrix_power takes integers)."""
    shape = A.array.shape
    if len(shape) < 2:
        raise RuntimeError(f"{fname}: The input tensor A must have at least 2 dimensions.")
    if shape[-1] != shape[-2]:
        raise RuntimeError(f"{fname}: A must be batches of square matrices, but they are {shape[-2]} by "
                           f"{shape[-1]} matrices")
    if floating and A.array.dtype.kind != "f":
        raise RuntimeError(f"{fname}: Expected a floating point or complex tensor as input. Got {scalar_name(A)}")
    if lu:
        lu_dtype(A, fname)


def _zero_pivot(matrix):
    """LAPACK's getrf info for one matrix: the 1-based place of the first zero pivot of its LU
    factorization with partial pivoting, or 0 (for messages only; runs on the host)."""
    a = numpy.array(matrix, dtype=numpy.float64, copy=True)
    n = a.shape[0]
    for k in range(n):
        p = k + int(numpy.argmax(numpy.abs(a[k:, k])))
        if a[p, k] == 0:
            return k + 1
        if p != k:
            a[[k, p]] = a[[p, k]]
        a[k + 1:, k] /= a[k, k]
        a[k + 1:, k + 1:] -= numpy.outer(a[k + 1:, k], a[k, k + 1:])
    return 0


def singular(A, fname, what):
    """PyTorch's LinAlgError for the first singular matrix of A (by batch element)."""
    host = numpy.asarray(A)
    batch = host.shape[:-2]
    for flat, index in enumerate(numpy.ndindex(*batch)):
        pivot = _zero_pivot(host[index])
        if pivot:
            prefix = f"(Batch element {flat}): " if batch else ""
            return LinAlgError(f"{fname}: {prefix}{what(pivot)}")
    return LinAlgError(f"{fname}: {what(host.shape[-1])}")


def singular_diagonal(A, fname):
    """PyTorch's LinAlgError for a triangular factor with a zero on its diagonal: the first matrix
    of the batch with one, and that place (1-based)."""
    host = numpy.asarray(A)  # (on the host: the check reads every diagonal)
    zero = numpy.diagonal(host, axis1=-2, axis2=-1) == 0
    if not zero.any():
        return
    flat = zero.reshape((-1, zero.shape[-1]))
    element = int(numpy.argmax(flat.any(axis=-1)))
    prefix = f"(Batch element {element}): " if zero.ndim > 1 else ""
    raise LinAlgError(f"{fname}: {prefix}{_inverse_failed(int(numpy.argmax(flat[element])) + 1)}")


def check_expands(x, target):
    """PyTorch's expand checks of addmm's, baddbmm's and addr's input against the product's shape."""
    shape, n = x.array.shape, len(target)
    if len(shape) > n:
        raise RuntimeError(f"expand(torch.{_dt.as_dtype(x.array.dtype).tensor_type}{{{list(shape)}}}, "
                           f"size={list(target)}): the number of sizes provided ({n}) must be greater or equal to "
                           f"the number of dimensions in the tensor ({len(shape)})")
    for i in range(1, len(shape) + 1):
        if shape[-i] not in (1, target[-i]):
            raise RuntimeError(f"The expanded size of the tensor ({target[-i]}) must match the existing size "
                               f"({shape[-i]}) at non-singleton dimension {n - i}.  Target sizes: "
                               f"{list(target)}.  Tensor sizes: {list(shape)}")


def factors(x, beta, alpha):
    """beta= and alpha= as numbers; PyTorch converts them to the tensors' integer type."""
    beta, alpha = _number(beta), _number(alpha)
    if x.array.dtype.kind in "iu":
        beta, alpha = int(beta), int(alpha)
    return {"beta": beta, "alpha": alpha}


def _number(v):
    return v.item() if isinstance(v, TensorBase) else v
