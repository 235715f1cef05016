"""torch.linalg's decompositions and the functions built on them (engine/linalg.py gives them to the
namespace): cholesky, qr, svd, svdvals, eigh, eigvalsh, lstsq, pinv, solve_triangular, lu_factor,
lu, lu_solve, matrix_exp (rows of engine/ops/decomp.py, one a result), and PyTorch's composites
multi_dot (mm in the cheapest order, then a view), vecdot (a mul and a sum), matrix_rank (a count of
singular values, no gradient) and the singular-value matrix norms ('nuc', 2, -2); cond is in
engine/linalg.py, beside the matrix norms it uses. Checks and messages are PyTorch's.
"""

import numpy

from .. import dtypes as _dt
from ..ops import TABLE as _op
from ..ops.linalg import scalar_name, square_matrices, lu_dtype, LinAlgError
from ..ops.decomp import Factors, cholesky_checked, eigh_kernel, lu_kernel, permutation_matrix, svd_kernel
from ..core.tensor import TensorBase as Tensor, apply, array_module, host_array, make_tensor
from ..core.grad_mode import no_grad
from ..signature import result_type
from .arguments import tensor_in, as_tensor_like
from .surface import made
from .basic import mm as _mm

_sum, _squeeze, _amax, _amin, _permute, _unsqueeze, _reshape, _nan_to_num, _mul, _transpose = (made(n) for n in (
    "sum", "squeeze", "amax", "amin", "permute", "unsqueeze", "reshape", "nan_to_num", "mul", "transpose"))

LinalgQrResult = result_type("linalg_qr", ("Q", "R"))
LinalgSvdResult = result_type("linalg_svd", ("U", "S", "Vh"))
LinalgEighResult = result_type("linalg_eigh", ("eigenvalues", "eigenvectors"))
LinalgLstsqResult = result_type("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))
LinalgLuFactorResult = result_type("linalg_lu_factor", ("LU", "pivots"))
LinalgLuResult = result_type("linalg_lu", ("P", "L", "U"))
QrResult = result_type("qr", ("Q", "R"))
SvdResult = result_type("svd", ("U", "S", "V"))


def _matrices(A, fname, floating=True):
    """A as a tensor of (a batch of) matrices, float, or PyTorch's error naming fname."""
    A = tensor_in(A)
    if A.array.ndim < 2:
        raise RuntimeError(f"{fname}: The input tensor A must have at least 2 dimensions.")
    if floating and A.array.dtype.kind != "f":
        raise RuntimeError(f"{fname}: Expected a floating point or complex tensor as input. Got {scalar_name(A)}")
    return A


def _empty(like, dtype=None):
    return make_tensor(numpy.zeros((0,), dtype=dtype or like.array.dtype), like.device)


def cholesky(A, *, upper=False):
    """The Cholesky factor L with A = L L^T of symmetric positive-definite matrices.

    upper=True: U = L^T. Only the lower triangle of A is read; batches of matrices too."""
    return cholesky_checked(_op["linalg_cholesky"], tensor_in(A), upper, "linalg.cholesky")


def qr(A, mode="reduced"):
    """The QR decomposition (Q, R): A = Q R, Q orthonormal columns, R upper triangular.

    mode 'reduced' (k = min(m, n) columns of Q), 'complete' (Q square) or 'r' (R alone, Q
    empty; no derivative then, as PyTorch)."""
    A = _matrices(A, "linalg.qr")
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', or "
                           f"'complete'")
    params = {"mode": mode}
    if mode != "r":  # Q and R of one factorisation (ops/decomp.py's Factors)
        params["factors"] = Factors(array_module(A.device).linalg.qr(A.array, mode=mode))
    R = apply(_op["linalg_qr_r"], A, **params)
    Q = _empty(A) if mode == "r" else apply(_op["linalg_qr_q"], A, **params)
    return LinalgQrResult(Q, R)


def svd(A, full_matrices=True, *, driver=None):
    """The singular value decomposition (U, S, Vh): A = U diag(S) Vh, S descending.

    full_matrices=False: U m x k and Vh k x n. The gradient through U or Vh needs distinct
    singular values (PyTorch's formula: inf/NaN at repeated ones)."""
    A = _matrices(A, "linalg.svd")
    _driver(driver)
    full = bool(full_matrices)
    factors = Factors(svd_kernel(array_module(A.device), A.array, full_matrices=full), full)  # once for all three
    params = {"full_matrices": full, "factors": factors}
    return LinalgSvdResult(apply(_op["linalg_svd_u"], A, **params), apply(_op["linalg_svd_s"], A, factors=factors),
                           apply(_op["linalg_svd_vh"], A, **params))


def _driver(driver):
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with "
                           "cuSOLVER backend.")


def svdvals(A, *, driver=None):
    """The singular values of (a batch of) matrices, descending."""
    A = _matrices(A, "linalg.svd")
    _driver(driver)
    return apply(_op["linalg_svd_s"], A)


def _symmetric(A, UPLO, fname):
    A = tensor_in(A)
    square_matrices(A, fname, lu=False, floating=False)
    if A.array.dtype.kind != "f":
        raise NotImplementedError(f"\"linalg_eigh_cpu\" not implemented for '{scalar_name(A)}'")
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    return A


def eigh(A, UPLO="L"):
    """The eigenvalues (ascending) and eigenvectors (columns) of symmetric matrices.

    Only the UPLO ('L' or 'U') triangle is read. The gradient through the eigenvectors needs
    distinct eigenvalues (PyTorch's formula)."""
    A = _symmetric(A, UPLO, "linalg.eigh")
    factors = Factors(eigh_kernel(array_module(A.device), A.array, UPLO))  # once for both
    return LinalgEighResult(apply(_op["linalg_eigh_values"], A, UPLO=UPLO, factors=factors),
                            apply(_op["linalg_eigh_vectors"], A, UPLO=UPLO, factors=factors))


def eigvalsh(A, UPLO="L"):
    """The eigenvalues of (a batch of) symmetric matrices, ascending."""
    A = _symmetric(A, UPLO, "linalg.eigvalsh")
    return apply(_op["linalg_eigh_values"], A, UPLO=UPLO)


_DRIVERS = (None, "gels", "gelsy", "gelsd", "gelss")


def lstsq(A, B, rcond=None, *, driver=None):
    """The least-squares solution of A X = B: (solution, residuals, rank, singular_values).

    B matrices, or vectors of A's batch; the solution is computed through the pseudo-inverse
    (the minimum-norm one) whatever the driver. As PyTorch: residuals (the squared residual of each column) only for
    drivers other than gelsy when m > n and A has full rank, else empty; rank except for gels;
    singular_values for gelsd and gelss."""
    A = _matrices(A, "linalg.lstsq")
    B = as_tensor_like(B, A)
    if driver not in _DRIVERS:
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    if B.array.ndim < 1 or A.array.ndim < B.array.ndim or A.array.ndim - B.array.ndim > 1:
        raise RuntimeError("torch.linalg.lstsq: input.dim() must be greater or equal to other.dim() and "
                           "(input.dim() - other.dim()) <= 1")
    if A.array.dtype != B.array.dtype:
        raise RuntimeError(f"torch.linalg.lstsq: Expected input and other to have the same dtype, but got "
                           f"input's dtype {scalar_name(A)} and other's dtype {scalar_name(B)}")
    vector = B.array.ndim == A.array.ndim - 1
    m, n = A.array.shape[-2:]
    rows = B.array.shape[-1] if vector else B.array.shape[-2]
    if rows != m:
        raise RuntimeError(f"torch.linalg.lstsq: input.size(-2) should match other.size(-{1 if vector else 2})")
    if driver == "gels":
        _full_rank_check(A)
    params = {"rcond": rcond, "vector": vector} if rcond is not None else {"vector": vector}
    solution = apply(_op["linalg_lstsq"], A, B, **params)
    with no_grad():
        s = apply(_op["linalg_svd_s"], A.detach())
    rank = _rank_of(s, m, n, None, rcond)
    full = bool((rank.array == n).all()) if rank.array.size else True
    if driver not in (None, "gelsy") and m > n and full:
        residuals = apply(_op["linalg_lstsq_residuals"], A, B, **params)
    else:
        residuals = _empty(A)
    if driver == "gels":
        rank = _empty(A, numpy.int64)
    singular_values = s if driver in ("gelsd", "gelss") else _empty(A)
    return LinalgLstsqResult(solution, residuals, rank, singular_values)


def _full_rank_check(A):
    """The driver gels (QR of A, of A^T when wide) refuses a triangular factor with a zero on its
    diagonal, as LAPACK's: PyTorch's LinAlgError with the first one's place (1-based) as the code."""
    host = host_array(A)
    if host.size == 0:
        return
    m, n = host.shape[-2:]
    r = numpy.linalg.qr(host if m >= n else numpy.swapaxes(host, -1, -2), mode="r")
    with numpy.errstate(invalid="ignore"):
        zero = numpy.diagonal(r, axis1=-2, axis2=-1)[..., :min(m, n)] == 0
    if not zero.any():
        return
    flat = zero.reshape((-1, zero.shape[-1]))
    element = int(numpy.argmax(flat.any(axis=-1)))
    prefix = f"(Batch element {element}): " if zero.ndim > 1 else ""
    raise LinAlgError(f"torch.linalg.lstsq: {prefix}The least squares solution could not be computed because the "
                      f"input matrix does not have full rank (error code: {int(numpy.argmax(flat[element])) + 1}).")


def _rank_of(s, m, n, atol, rtol):
    """How many of the singular values s (last dim) exceed max(atol, rtol * the largest)
    (PyTorch's: rtol defaults to eps * max(m, n) when atol is not given, else to 0)."""
    values = s.array
    if rtol is None:
        rtol = numpy.finfo(values.dtype).eps * max(m, n) if atol is None else 0.0
    atol = 0.0 if atol is None else atol
    xp = array_module(s.device)
    if values.shape[-1] == 0:
        count = xp.zeros(values.shape[:-1], dtype=numpy.int64)
    else:
        tol = xp.maximum(atol, rtol * values.max(axis=-1, keepdims=True))
        count = (values > tol).sum(axis=-1).astype(numpy.int64)
    return make_tensor(xp.asarray(count), s.device)


def _tolerance(v, name):
    if isinstance(v, Tensor):
        v = v.item()
    if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
        raise TypeError(f"linalg_pinv(): argument '{name}' must be float, not {type(v).__name__}")
    return None if v is None else float(v)


def pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None):
    """The Moore-Penrose pseudo-inverse of (a batch of) matrices.

    Singular values at most max(atol, rtol * the largest) count as zero (rtol defaults to eps * max(m, n) without atol; the older rcond is rtol);
    hermitian=True: through eigh, for symmetric A."""
    A = tensor_in(A)
    if A.array.ndim < 2 or A.array.dtype.kind != "f":
        raise RuntimeError("linalg.pinv(" + scalar_name(A) + "{" + str(list(A.array.shape)) + "}): expected a "
                           "tensor with 2 or more dimensions of float, double, cfloat or cdouble types")
    rtol = _tolerance(rcond if rcond is not None else rtol, "rtol")
    atol = _tolerance(atol, "atol")
    params = {"rcond": rtol, "atol": atol}
    if hermitian:
        square_matrices(A, "linalg.pinv", lu=False)
        params["hermitian"] = True
    return apply(_op["pinverse"], A, **params)


def solve_triangular(A, B, *, upper, left=True, unitriangular=False):
    """X with A X = B (left=False: X A = B) for a triangular A.

    upper=True: A's upper triangle (else its lower) is read, and only that (its diagonal taken as ones when unitriangular); batches broadcast."""
    A = tensor_in(A)
    B = as_tensor_like(B, A)
    for name, t in (("A", A), ("B", B)):
        if t.array.ndim < 2:
            raise RuntimeError(f"linalg.solve_triangular: The input tensor {name} must have at least 2 dimensions.")
    square_matrices(A, "linalg.solve_triangular", lu=False)
    if A.array.dtype != B.array.dtype:  # PyTorch promotes them
        common = numpy.promote_types(A.array.dtype, B.array.dtype)
        A, B = (t if t.array.dtype == common else t.to(_dt.as_dtype(common)) for t in (A, B))
    n = A.array.shape[-1]
    rows, cols = B.array.shape[-2:]
    if (rows if left else cols) != n:
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {rows}x{cols})")
    numpy.broadcast_shapes(A.array.shape[:-2], B.array.shape[:-2])
    return apply(_op["linalg_solve_triangular"], A, B, upper=bool(upper), left=bool(left),
                 unitriangular=bool(unitriangular))


def lu_factor(A, *, pivot=True):
    """The LU factorization with partial pivoting, packed: (LU, pivots) with A = P L U.

    L (unit diagonal, not stored) and U packed in LU, pivots the 1-based rows swapped in at each
    step (int32), as LAPACK's getrf; rectangular and batched matrices too."""
    A = _matrices(A, "linalg.lu_factor", floating=False)
    if A.array.dtype.kind != "f":
        raise NotImplementedError(f"\"lu_cpu\" not implemented for '{scalar_name(A)}'")
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    lu_dtype(A, "linalg.lu_factor")
    factors = Factors(lu_kernel(array_module(A.device), A.array))  # (LU, pivots): one factorisation
    lu = apply(_op["linalg_lu_factor"], A, factors=factors)
    _zero_pivot_check(lu)
    return LinalgLuFactorResult(lu, make_tensor(factors[1].copy(), A.device))


def _zero_pivot_check(lu):
    """PyTorch's lu_factor refuses a factorization with a zero on U's diagonal (getrf's info: the
    first one, 1-based), naming the first such matrix of a batch; NaN passes."""
    nd = lu.array.ndim
    if not bool((array_module(lu.device).diagonal(lu.array, 0, nd - 2, nd - 1) == 0).any()):
        return  # (checked on lu's device: one number read back)
    zero = numpy.diagonal(host_array(lu), axis1=-2, axis2=-1) == 0
    flat = zero.reshape((-1, zero.shape[-1]))
    element = int(numpy.argmax(flat.any(axis=-1)))
    k = int(numpy.argmax(flat[element])) + 1
    prefix = f"(Batch element {element}): " if zero.ndim > 1 else ""
    raise RuntimeError(f"torch.linalg.lu_factor: {prefix}U[{k},{k}] is zero and using it on lu_solve would result in "
                       f"a division by zero. If you still want to perform the factorization, consider calling "
                       f"linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")


def lu(A, *, pivot=True):
    """The LU factorization with partial pivoting: (P, L, U) with A = P L U.

    P a permutation matrix (of A's dtype, no gradient), L m x k with a unit diagonal, U k x n."""
    A = _matrices(A, "linalg.lu", floating=False)
    if A.array.dtype.kind != "f":
        raise NotImplementedError(f"\"lu_cpu\" not implemented for '{scalar_name(A)}'")
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    lu_dtype(A, "linalg.lu")
    xp = array_module(A.device)
    factors = Factors(lu_kernel(xp, A.array))  # (LU, pivots): one factorisation for P, L and U
    p = permutation_matrix(xp, factors[1], A.array.shape[-2], A.array.dtype)
    return LinalgLuResult(make_tensor(p, A.device), apply(_op["linalg_lu_l"], A, factors=factors),
                          apply(_op["linalg_lu_u"], A, factors=factors))


def lu_solve(LU, pivots, B, *, left=True, adjoint=False):
    """X with A X = B for A given by lu_factor's (LU, pivots).

    adjoint=True: A^T X = B; left=False: X A = B."""
    LU = tensor_in(LU)
    B = as_tensor_like(B, LU)
    pivots = as_tensor_like(pivots, LU)
    square_matrices(LU, "linalg.lu_solve", lu=False)
    if B.array.ndim < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor B must have at least 2 dimensions.")
    if pivots.array.dtype != numpy.int32:
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32")
    if LU.array.dtype != B.array.dtype:
        raise RuntimeError(f"linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type "
                           f"{scalar_name(LU)} and B of type {scalar_name(B)} instead")
    n = LU.array.shape[-1]
    rows, cols = B.array.shape[-2:]
    if (rows if left else cols) != n:
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {rows}x{cols})")
    if pivots.array.shape[-1:] != (n,):
        raise RuntimeError(f"linalg.lu_solve: Expected pivots.size(-1) == {n}")
    return apply(_op["linalg_lu_solve"], LU, pivots, B, left=bool(left), adjoint=bool(adjoint))


def matrix_exp(A):
    """The matrix exponential of (a batch of) square matrices."""
    return made("matrix_exp")(A)


def multi_dot(tensors):
    """The product of a chain of matrices, multiplied in the cheapest order.

    The first may be a row vector and the last a column vector (1-D); as PyTorch: mm steps, then
    a view to the result's shape."""
    tensors = [tensor_in(t) for t in tensors]
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    dims = [t.array.ndim for t in tensors]
    if dims[0] not in (1, 2):
        raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got {dims[0]}D")
    if dims[-1] not in (1, 2):
        raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got {dims[-1]}D")
    for i in range(1, n - 1):
        if dims[i] != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {dims[i]}D")
    for i in range(1, n):
        if tensors[i].array.dtype != tensors[0].array.dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                               f"{scalar_name(tensors[0])} and tensor {i} is {scalar_name(tensors[i])}")
    out_shape = []
    if dims[0] == 2:
        out_shape.append(tensors[0].array.shape[0])
    if dims[-1] == 2:
        out_shape.append(tensors[-1].array.shape[1])
    if dims[0] == 1:
        tensors[0] = _unsqueeze(tensors[0], 0)
    if dims[-1] == 1:
        tensors[-1] = _unsqueeze(tensors[-1], -1)
    for i in range(1, n):
        a, b = tensors[i - 1].array.shape, tensors[i].array.shape
        if a[1] != b[0]:
            raise RuntimeError(f"multi_dot(): tensors {i - 1} and {i} with shapes {list(a)} and {list(b)} cannot be "
                               f"multiplied")
    sizes = [tensors[0].array.shape[0]] + [t.array.shape[1] for t in tensors]
    return _reshape(_chain(tensors, _chain_order(sizes), 0, n - 1), out_shape)


def _chain_order(p):
    """The split of each sub-chain i..j with the fewest multiplications (the matrix-chain problem;
    for three matrices PyTorch's comparison, ties to (A B) C)."""
    n = len(p) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            best = None
            for k in range(j - 1, i - 1, -1):
                c = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if best is None or c < best:
                    best, split[i][j] = c, k
            cost[i][j] = best
    return split


def _chain(tensors, split, i, j):
    if i == j:
        return tensors[i]
    k = split[i][j]
    return _mm(_chain(tensors, split, i, k), _chain(tensors, split, k + 1, j))


def vecdot(x, y, *, dim=-1):
    """The dot product of vectors along dim (the other dims broadcast): (x * y).sum(dim)."""
    x = tensor_in(x)
    y = as_tensor_like(y, x)
    if x.array.dtype != y.array.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
                           f"{scalar_name(x)} and y of type {scalar_name(y)} instead")
    return _sum(_mul(x, y), dim)


def matrix_rank(A, *, atol=None, rtol=None, hermitian=False, tol=None):
    """The numerical rank of (a batch of) matrices (int64, no gradient).

    The number of singular values (hermitian: absolute eigenvalues) above max(atol, rtol * the
    largest); rtol defaults to eps * max(m, n) when atol is not given."""
    A = tensor_in(A)
    if A.array.ndim < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.")
    A = _matrices(A, "linalg.matrix_rank")
    if tol is not None:
        atol, rtol = tol, 0.0
    m, n = A.array.shape[-2:]
    with no_grad():
        if hermitian:
            square_matrices(A, "linalg.matrix_rank", lu=False)
            s = made("abs")(apply(_op["linalg_eigh_values"], A.detach()))
        else:
            s = apply(_op["linalg_svd_s"], A.detach())
    return _rank_of(s, m, n, _tolerance(atol, "atol"), _tolerance(rtol, "rtol"))


def singular_value_norm(A, ord, d0, d1, keepdim, dtype):
    """matrix_norm's 'nuc' (the sum of the singular values), 2 (the largest) and -2 (the smallest),
    over dims d0 and d1 (wrapped)."""
    nd = A.array.ndim
    if dtype is not None:
        A = A.to(dtype)
    order = [d for d in range(nd) if d not in (d0, d1)] + [d0, d1]  # PyTorch's: the two dims to the back
    s = svdvals(_permute(A, order))
    out = _sum(s, -1) if ord == "nuc" else (_amax if ord == 2 else _amin)(s, -1)
    if keepdim:  # and back
        out = _permute(_unsqueeze(_unsqueeze(out, -1), -1), [order.index(d) for d in range(nd)])
    return out

