"""torch.linalg: the linear-algebra namespace (`autodiff.engine.linalg`, `torch.linalg` in the
language), with PyTorch's signatures. det, inv, solve and cross are the rows behind torch.det,
torch.inverse, the solve row and torch.cross; the norms are built from the norm, amax and amin
rows as PyTorch builds them (matrix_norm's 1 and inf norms are an amax of vector 1-norms); vander,
diagonal, tensorinv and tensorsolve are PyTorch's composites too (a cumprod, a diagonal view, an
inverse or solve between reshapes).
"""
import math

import numpy

from . import dtypes as _dt
from .functions import linalg as _la
from .functions.arguments import tensor_in
from .functions import norm as _norm, amax as _amax, amin as _amin, to as _to
from .functions import ones as _ones
from .functions import det as _det, inverse as _inverse, slogdet as _slogdet, cross as _cross
from .functions.linalg import LinAlgError, solve_ex, inv_ex, cholesky_ex, lu_factor_ex  # noqa: F401
from .ops.linalg import scalar_name as _scalar_name
from .ops import TABLE as _op
from .core.tensor import apply, wrap_dim
from .tensor_class import Tensor
from .functions import decomp as _dc
from .functions.decomp import (cholesky, qr, svd, svdvals, eigh, eigvalsh, lstsq, pinv,  # noqa: F401
                               solve_triangular, lu_factor, lu, lu_solve, matrix_exp, multi_dot, vecdot,
                               matrix_rank)
from .functions.surface import made as _made
from .functions.householder import householder_product  # noqa: F401
from .ops.linalg import square_matrices as _square_matrices
from .core.tensor import make_tensor as _make_tensor

__all__ = ["det", "inv", "solve", "cross", "norm", "vector_norm", "matrix_norm", "matrix_power", "slogdet", "LinAlgError",
           "cholesky", "qr", "svd", "svdvals", "eigh", "eigvalsh", "lstsq", "pinv", "solve_triangular", "lu_factor",
           "lu", "lu_solve", "matrix_exp", "multi_dot", "vecdot", "matrix_rank", "cond", "solve_ex", "inv_ex",
           "cholesky_ex", "lu_factor_ex", "vander", "diagonal", "tensorinv", "tensorsolve", "householder_product"]
FUNCTIONS = ("det", "inv", "solve", "cross", "norm", "vector_norm", "matrix_norm", "matrix_power",
             "slogdet", "cholesky", "qr", "svd", "svdvals", "eigh", "eigvalsh", "lstsq", "pinv", "solve_triangular",
             "lu_factor", "lu", "lu_solve", "matrix_exp", "multi_dot", "vecdot", "matrix_rank", "cond", "solve_ex",
             "inv_ex", "cholesky_ex", "lu_factor_ex", "vander", "diagonal", "tensorinv",
             "tensorsolve", "householder_product")  # what the language sees


def det(A):
    """The determinant of a (batch of) square matrices."""
    return _det(A)


def inv(A):
    """The inverse of a (batch of) square matrices; a singular one is a LinAlgError."""
    return _inverse(A)


def solve(A, B, *, left=True):
    """X with A @ X = B (left=False: X @ A = B); B a (batch of) vector(s) or matrices, batch dims
    broadcast."""
    return _la._solve(A, B, left=bool(left))


def matrix_power(A, n):
    """The n-th power of a (batch of) square matrices (n < 0: of the inverse)."""
    return _la.matrix_power(A, n)


def slogdet(A):
    """(sign, logabsdet) of the determinant of a (batch of) square matrices."""
    return _la.LinalgSlogdetResult(*_slogdet(A))


def cross(input, other, *, dim=-1):
    """The cross product of 3-vectors along `dim` (the other dims broadcast)."""
    return _cross(input, other, dim)


def _float_input(x, fname):
    x = tensor_in(x)
    if x.array.dtype.kind != "f":
        raise RuntimeError(f"{fname}: Expected a floating point or complex tensor as input. Got "
                           f"{_scalar_name(x)}")
    return x


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """The ord-norm of x's elements (all, or along dim): any ord, inf and -inf (0 counts the nonzero
    ones; below 0, (sum |x|^ord)^(1/ord), 0 where an element is)."""
    if isinstance(ord, Tensor):
        ord = ord.item()
    if isinstance(ord, (str, bool)) or not isinstance(ord, (int, float)):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' must be Number, not {type(ord).__name__}")
    x = _float_input(x, "linalg.vector_norm")
    if dtype is not None:
        target = _dt.as_dtype(dtype)
        if not numpy.can_cast(x.array.dtype, target.np, "safe"):
            raise RuntimeError(f"linalg.vector_norm: the dtype of the input ({_scalar_name(x)}) should be "
                               f"convertible without narrowing to the specified dtype ({_dt.scalar_name(target)})")
        x = _to(x, dtype=target)
    if (ord < 0 or ord == math.inf) and x.array.size == 0:  # here, to name the dim as given
        _op["norm"]._check_identity(x.array.shape, ord, dim)
    return _norm(x, p=ord, dim=dim, keepdim=keepdim)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """A matrix norm over the two dims `dim`: 'fro', 'nuc' (the sum of the singular values), 2 (the
    largest), -2 (the smallest), 1, -1, inf or -inf."""
    A = tensor_in(A)
    nd = A.array.ndim
    if nd < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    A = _float_input(A, "linalg.matrix_norm")
    if isinstance(dim, int) or len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {dim}")
    d0, d1 = wrap_dim(dim[0], nd), wrap_dim(dim[1], nd)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, {dim[1]})")
    if ord == "fro":
        return vector_norm(A, 2, (d0, d1), keepdim, dtype=dtype)
    if ord in ("nuc", 2, -2):
        return _dc.singular_value_norm(A, ord, d0, d1, keepdim, dtype)
    if isinstance(ord, str) or ord not in (1, -1, math.inf, -math.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if abs(ord) == math.inf:
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:
        d1 -= 1
    sums = vector_norm(A, 1, d0, keepdim, dtype=dtype)  # PyTorch's: the largest (smallest) column sum
    return (_amax if ord > 0 else _amin)(sums, d1, keepdim)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """A vector norm, or a matrix norm when ord is given for a 2-D A or dim names two dims."""
    A = tensor_in(A)
    if isinstance(dim, int):
        dim = (dim,)
    if dim is not None:
        dim = tuple(dim)
        if len(dim) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {list(dim)}")
    elif ord is not None and A.array.ndim not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got "
                           f"{A.array.ndim}D.")
    if isinstance(ord, str) or (ord is not None and (len(dim) == 2 if dim is not None else A.array.ndim == 2)):
        return matrix_norm(A, ord, dim if dim is not None else (0, 1), keepdim, dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


_squeeze, _op_nan_to_num, _where = _made("squeeze"), _made("nan_to_num"), _made("where")


def cond(A, p=None):
    """The condition number of (a batch of) matrices in the matrix norm p.

    None or 2: the largest singular value over the smallest; -2: the reverse; 'fro', 'nuc', 1, -1,
    inf, -inf: |A| |A^-1| of square matrices, inf where A is singular. Known difference: PyTorch's backward of these last orders fails
    (it fills the inverse in place after saving it); here they are differentiable."""
    A = _dc._matrices(A, "linalg.cond")
    if p is None or (not isinstance(p, str) and abs(p) == 2):
        s = svdvals(A)
        first, last = s[..., :1], s[..., -1:]
        return _squeeze(last / first if p == -2 else first / last, -1)
    if isinstance(p, str) and p not in ("fro", "nuc") or not isinstance(p, str) and p not in (1, -1, math.inf,
                                                                                              -math.inf):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    _square_matrices(A, f"linalg.cond(ord={p})", lu=False)
    try:
        inverse = inv(A)
    except LinAlgError:  # PyTorch fills the inverse of a singular matrix with inf (the others stay)
        xp = _dc.array_module(A.device)
        packed = _dc.lu_kernel(xp, A.array)[0]
        singular = _make_tensor((xp.diagonal(packed, axis1=-2, axis2=-1) == 0).any(axis=-1)[..., None, None],
                                A.device)
        eye = _make_tensor(xp.eye(A.array.shape[-1], dtype=A.array.dtype), A.device)
        inverse = _where(singular, math.inf, inv(_where(singular, eye, A)))
    return _op_nan_to_num(matrix_norm(A, p) * matrix_norm(inverse, p), math.inf, math.inf, -math.inf)


_cumprod, _expand, _cat, _diagonal, _permute, _reshape = (_made(n) for n in (
    "cumprod", "expand", "cat", "diagonal", "permute", "reshape"))


def vander(x, N=None):
    """The Vandermonde matrix of x (the last dim): columns x^0 .. x^(N-1) (N defaults to x's length).

    PyTorch's composition: a column of ones next to the cumulative product of x repeated N - 1 times."""
    x = tensor_in(x)
    kind = x.array.dtype
    if kind.kind not in "iuf" or kind == numpy.float16:
        raise RuntimeError(f"linalg.vander supports floating point, complex, and integer tensors, but got "
                           f"{_scalar_name(x)}")
    if x.array.ndim == 0:
        x = x.reshape((1,))
    shape = tuple(x.array.shape)
    n = shape[-1] if N is None else int(N)
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    powers = _cumprod(_expand(x.unsqueeze(-1), shape + (n - 1,)), -1)
    return _cat([_ones(shape + (1,), dtype=powers.dtype, device=x.device), powers], -1)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """The diagonal (offset above it, below it when negative) of the matrices in dims dim1 and dim2: a
    view, torch.diagonal with other defaults."""
    return _diagonal(A, offset, dim1, dim2)


def tensorinv(A, ind=2):
    """The inverse of A for tensordot over the first `ind` dims: A reshaped to a square matrix
    (prod(shape[:ind]) rows), inverted, reshaped to shape[ind:] + shape[:ind]."""
    A = tensor_in(A)
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    head, tail = tuple(A.array.shape[:ind]), tuple(A.array.shape[ind:])
    rows, cols = math.prod(head), math.prod(tail)
    if rows != cols:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {cols} != {rows}")
    return _reshape(inv(_reshape(A, (cols, cols))), tail + head)


def tensorsolve(A, B, dims=None):
    """X with tensordot(A, X, X.ndim) = B: A's dims `dims` moved last, A reshaped to a square matrix
    (B.numel() rows), solved against B flattened, the result shaped as A's dims after B.ndim."""
    A = tensor_in(A)
    B = tensor_in(B)
    nd = A.array.ndim
    if dims is not None:
        dims = [wrap_dim(int(d), nd) for d in ([dims] if isinstance(dims, int) else dims)]
        A = _permute(A, [d for d in range(nd) if d not in dims] + dims)  # (movedim: those dims last, in order)
    shape = tuple(A.array.shape[B.array.ndim:])
    size, other = math.prod(shape), math.prod(B.array.shape)
    if size != other:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                           f"prod(self.shape[:other.ndim]), but got {size} != {other}")
    return _reshape(solve(_reshape(A, (size, size)), _reshape(B, (-1,))), shape)
