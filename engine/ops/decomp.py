"""Matrix decompositions and the functions built on them: cholesky, qr, svd, eigh, solve_triangular,
lu_factor, lu_solve, matrix_exp, pinv and lstsq (torch.linalg's, engine/linalg.py, and the torch.*
ones: torch.cholesky, torch.matrix_exp, torch.pinverse, cholesky_solve, cholesky_inverse,
triangular_solve and lu_unpack's L and U).

The engine's node has one result, so a decomposition with several differentiable results is one row
per result, each with PyTorch's node name (Q and R are both LinalgQrBackward0): each row's backward
is PyTorch's formula with the other results' gradients zero, and the gradients of the results add
up at the input as PyTorch's one formula would. A row's backward computes the other results of the
decomposition again through their rows (LAPACK gives the same bits for the same input), so under
create_graph every quantity in the formula is differentiable and higher derivatives follow.

numpy has no LU factorization, triangular solve or matrix exponential: they are written here (LU
with partial pivoting by columns, vectorized over the batch; substitution by rows; scaling and
squaring with the degree-13 Pade approximant), and every formula is real (no complex dtypes).
"""
import warnings

import numpy

from ..core.tensor import NO_PARAMS, array_module, check_broadcastable, host_array, run_op
from .table import Op, call, refuse_dtype


def _swap(xp, x):
    return xp.swapaxes(x, -1, -2)


def _T(F, x):
    return F.transpose(x, dim0=-1, dim1=-2)


def _raw(F, x):
    """The array behind x (a Tensor under create_graph)."""
    return x.array if F.graph else x


def _const(F, array):
    """A constant (an array that wants no gradient) in F's kind of value."""
    return F.make_tensor(array, F.device) if F.graph else array


def _cols(F, x, start, stop):
    return F.getitem(x, key=(Ellipsis, slice(start, stop)))


def _rows(F, x, start, stop):
    return F.getitem(x, key=(Ellipsis, slice(start, stop), slice(None)))


def _batch_of(*shapes):
    return numpy.broadcast_shapes(*(tuple(s) for s in shapes))


# ---------------------------------------------------------------------------- kernels

def triangular_solve_kernel(xp, a, b, upper, unitriangular=False):
    """X with tri(A) X = B by substitution, a row at a time (vectorized over the batch and B's
    columns); tri(A) is A's upper or lower triangle (its diagonal ones when unitriangular). A zero
    on the diagonal gives inf/NaN, as LAPACK's trsm (no error)."""
    n = a.shape[-1]
    batch = _batch_of(a.shape[:-2], b.shape[:-2])
    dtype = numpy.result_type(a.dtype, b.dtype)
    a = xp.broadcast_to(a, batch + a.shape[-2:])
    x = xp.array(xp.broadcast_to(b, batch + b.shape[-2:]), dtype=dtype)
    order = range(n - 1, -1, -1) if upper else range(n)
    with numpy.errstate(divide="ignore", invalid="ignore"):
        for i in order:
            done = slice(i + 1, n) if upper else slice(0, i)
            row = x[..., i, :] - xp.matmul(a[..., i:i + 1, done], x[..., done, :])[..., 0, :]
            x[..., i, :] = row if unitriangular else row / a[..., i, i][..., None]
    return x


def lu_kernel(xp, a):
    """(LU, pivots) of (a batch of) m x n matrices by Gaussian elimination with partial pivoting,
    as LAPACK's getrf: L (unit diagonal, below) and U packed in one matrix, and the 1-based int32
    row each step swapped in. A zero pivot column is left as it is (no division), as getrf."""
    shape = a.shape
    m, n = shape[-2:]
    k = min(m, n)
    lu = xp.array(a.reshape((int(numpy.prod(shape[:-2], dtype=numpy.int64)), m, n)), dtype=a.dtype)
    count = lu.shape[0]
    every = xp.arange(count)
    pivots = xp.zeros((count, k), dtype=numpy.int32)
    for j in range(k):
        p = j + xp.argmax(xp.abs(lu[:, j:, j]), axis=1)
        pivots[:, j] = p + 1
        row = lu[every, j, :].copy()
        lu[every, j, :] = lu[every, p, :]
        lu[every, p, :] = row
        pivot = lu[:, j:j + 1, j]
        with numpy.errstate(divide="ignore", invalid="ignore"):
            lu[:, j + 1:, j] = xp.where(pivot != 0, lu[:, j + 1:, j] / pivot, lu[:, j + 1:, j])
        lu[:, j + 1:, j + 1:] -= lu[:, j + 1:, j:j + 1] * lu[:, j:j + 1, j + 1:]
    return lu.reshape(shape), pivots.reshape(shape[:-2] + (k,))


def permutation_of(xp, pivots, m):
    """The row order `perm` of LAPACK's pivots (1-based swaps, in order): P^T A is A[..., perm, :]."""
    batch = pivots.shape[:-1]
    flat = pivots.reshape((int(numpy.prod(batch, dtype=numpy.int64)), pivots.shape[-1])).astype(numpy.int64) - 1
    perm = xp.broadcast_to(xp.arange(m), (flat.shape[0], m)).copy()
    every = xp.arange(flat.shape[0])
    for j in range(flat.shape[1]):
        p = flat[:, j]
        here = perm[every, j].copy()
        perm[every, j] = perm[every, p]
        perm[every, p] = here
    return perm.reshape(batch + (m,))


def permutation_matrix(xp, pivots, m, dtype):
    """P (m x m, of dtype) with A = P L U for LAPACK's pivots."""
    perm = permutation_of(xp, pivots, m)
    eye = xp.eye(m, dtype=dtype)
    return _swap(xp, eye[perm])  # (P^T)[i] = e_perm[i]


_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0, 129060195264000.0,
           10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0,
           1.0)
_THETA13 = 5.371920351148152


def matrix_exp_kernel(xp, a):
    """exp(A) of (a batch of) square matrices: scaled by 2^-s so that its 1-norm is at most theta_13,
    the degree-13 Pade approximant, squared s times (each matrix of the batch its own s)."""
    if a.size == 0:
        return a.copy()
    if a.dtype == numpy.float32:  # squaring multiplies float32's rounding by the norm: worked in float64
        return matrix_exp_kernel(xp, a.astype(numpy.float64)).astype(numpy.float32)
    b = _PADE13
    n = a.shape[-1]
    norm = xp.abs(a).sum(axis=-2).max(axis=-1)
    with numpy.errstate(divide="ignore", invalid="ignore"):
        s = xp.ceil(xp.log2(norm / _THETA13))
    s = xp.where(xp.isfinite(s) & (s > 0), s, 0).astype(numpy.int64)
    a = a / (2.0 ** s).astype(a.dtype)[..., None, None]
    eye = xp.eye(n, dtype=a.dtype)
    a2 = xp.matmul(a, a)
    a4 = xp.matmul(a2, a2)
    a6 = xp.matmul(a4, a2)
    u = xp.matmul(a, xp.matmul(a6, b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2
                  + b[1] * eye)
    v = xp.matmul(a6, b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * eye
    try:
        r = xp.linalg.solve(v - u, v + u)
    except numpy.linalg.LinAlgError:  # NaN or inf entries: PyTorch's result is NaN there
        r = xp.full(a.shape, xp.nan, dtype=a.dtype)
    for i in range(int(s.max()) if s.size else 0):
        r = xp.where((i < s)[..., None, None], xp.matmul(r, r), r)
    return r.astype(a.dtype, copy=False)


def _not_converged(xp, a, fname, what):
    """PyTorch's LinAlgError where LAPACK's SVD or symmetric eigensolver did not converge (numpy
    raised its LinAlgError; in practice a matrix holding NaN or inf): it names the first matrix of
    the batch with a non-finite entry (LAPACK's error code, which PyTorch adds, numpy does not give)."""
    from .linalg import LinAlgError
    bad = ~xp.isfinite(a).all(axis=(-2, -1))
    first = int(xp.argmax(bad.reshape(-1))) if bad.size else 0
    prefix = f"(Batch element {first}): " if a.ndim > 2 else ""
    if fname == "linalg.svd" and bool(bad.any()):
        what = "The algorithm failed to converge because the input matrix contained non-finite values."
    return LinAlgError(f"{fname}: {prefix}{what}")


def svd_kernel(xp, a, **options):
    """numpy's SVD of (a batch of) matrices, PyTorch's LinAlgError where it does not converge."""
    try:
        return xp.linalg.svd(a, **options)
    except numpy.linalg.LinAlgError:
        raise _not_converged(xp, a, "linalg.svd", "The algorithm failed to converge because the input matrix is "
                             "ill-conditioned or has too many repeated singular values.") from None


def eigh_kernel(xp, a, UPLO="L", vectors=True):
    """numpy's eigh (eigvalsh without vectors) of (a batch of) symmetric matrices, PyTorch's
    LinAlgError where it does not converge."""
    try:
        return xp.linalg.eigh(a, UPLO=UPLO) if vectors else xp.linalg.eigvalsh(a, UPLO=UPLO)
    except numpy.linalg.LinAlgError:
        raise _not_converged(xp, a, "linalg.eigh", "The algorithm failed to converge because the input matrix is "
                             "ill-conditioned or has too many repeated eigenvalues.") from None


def pinv_kernel(xp, a, rtol=None, atol=None, hermitian=False):
    """The pseudo-inverse with PyTorch's tolerance: singular values at most max(atol, rtol * the
    largest) count as zero; rtol defaults to eps * max(m, n) when atol is not given, else to 0."""
    m, n = a.shape[-2:]
    if rtol is None:
        rtol = numpy.finfo(a.dtype).eps * max(m, n) if atol is None else 0.0
    atol = 0.0 if atol is None else atol
    if min(m, n) == 0:
        return xp.zeros(a.shape[:-2] + (n, m), dtype=a.dtype)
    if hermitian:
        w, v = eigh_kernel(xp, a)
        big = xp.abs(w).max(axis=-1, keepdims=True)
        keep = xp.abs(w) > xp.maximum(atol, rtol * big)
        inv = xp.where(keep, 1 / xp.where(keep, w, 1), 0)
        return xp.matmul(v * inv[..., None, :], _swap(xp, v)).astype(a.dtype, copy=False)
    u, s, vh = svd_kernel(xp, a, full_matrices=False)
    keep = s > xp.maximum(atol, rtol * s[..., :1])
    inv = xp.where(keep, 1 / xp.where(keep, s, 1), 0)
    return xp.matmul(_swap(xp, vh), inv[..., :, None] * _swap(xp, u)).astype(a.dtype, copy=False)


# ------------------------------------------------------------------- solve_triangular

class LinalgSolveTriangular(Op):
    """X with A X = B for a triangular A (left=False: X A = B): only A's upper (or lower) triangle
    is read, its diagonal taken as ones when unitriangular."""
    name = "linalg_solve_triangular"
    names = ()
    node = "LinalgSolveTriangularBackward0"
    formula = call("upper", "left", "unitriangular")
    saves = (0, "out")
    save_for = ((0, 1), (0,))

    def forward(xp, a, b, upper, left=True, unitriangular=False):
        if left:
            return triangular_solve_kernel(xp, a, b, upper, unitriangular)
        return _swap(xp, triangular_solve_kernel(xp, _swap(xp, a), _swap(xp, b), not upper, unitriangular))

    def backward(F, ctx, g, a, x, upper, left=True, unitriangular=False):
        # PyTorch's: gB = A^-H gX (or gX A^-H), gA = -gB X^H (or -X^H gB) on A's triangle
        gb = F.linalg_solve_triangular(_T(F, a), g, upper=not upper, left=left, unitriangular=unitriangular)
        ga = None
        if ctx.needs[0]:
            ga = -F.matmul(gb, _T(F, x)) if left else -F.matmul(_T(F, x), gb)
            ga = F.triu(ga, diagonal=int(unitriangular)) if upper else F.tril(ga, diagonal=-int(unitriangular))
        return ga, (gb if ctx.needs[1] else None)


def solve_triangular(F, a, b, upper, left=True, unitriangular=False):
    return F.linalg_solve_triangular(a, b, upper=upper, left=left, unitriangular=unitriangular)


# ---------------------------------------------------------------------------- cholesky

class LinalgCholesky(Op):
    """L with A = L L^T (upper=True: U with A = U^T U) of (a batch of) symmetric positive-definite
    matrices; only the lower (upper) triangle of A is read."""
    name = "linalg_cholesky"
    names = ()
    node = "LinalgCholeskyExBackward0"
    formula = call("upper")
    saves = ("out",)

    def forward(xp, a, upper=False, factors=None):
        if factors is not None:  # (torch.linalg.cholesky_ex's, with its info)
            return factors[0].copy()
        if upper:
            return _swap(xp, xp.linalg.cholesky(_swap(xp, a)))
        return xp.linalg.cholesky(a)

    def backward(F, ctx, g, factor, upper=False, factors=None):
        return (cholesky_grad(F, g, factor, upper),)


class Cholesky(LinalgCholesky):
    """The Cholesky factor of symmetric positive-definite matrices.

    L with A = L L^T (upper=True: U with A = U^T U) of (a batch of) symmetric positive-definite
    matrices, as torch.cholesky (deprecated in PyTorch for torch.linalg.cholesky)."""
    name = "cholesky"
    signature = "cholesky(Tensor input, bool upper=False) -> Tensor"
    method = True
    node = "CholeskyBackward0"

    def call(input, upper):
        warnings.warn("torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future "
                      "PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = torch.linalg.cholesky(A)\n"
                      "and\nU = torch.cholesky(A, upper=True)\nshould be replaced with\nU = torch.linalg.cholesky(A).mH\n"
                      "This transform will produce equivalent results for all valid (symmetric positive definite) "
                      "inputs.", UserWarning, stacklevel=3)
        return cholesky_checked(Cholesky, input, upper, "cholesky")


def cholesky_ex_kernel(xp, a, upper=False):
    """(L, info) of (a batch of) matrices, as LAPACK's potrf: numpy's factor where every pivot is
    positive (info 0); else the column-by-column factorization (vectorized over the batch), each
    matrix stopping at its first pivot that is not positive (or NaN): that pivot left on the
    diagonal, the columns after it A's own, info its place (1-based)."""
    low = _swap(xp, a) if upper else a
    n = a.shape[-1]
    try:
        factor = xp.linalg.cholesky(low)
        if bool((xp.diagonal(factor, 0, -2, -1) > 0).all()):
            return (_swap(xp, factor) if upper else factor), xp.zeros(a.shape[:-2], dtype=numpy.int32)
    except numpy.linalg.LinAlgError:
        pass
    L = xp.tril(low).copy()
    info = xp.zeros(a.shape[:-2], dtype=numpy.int32)
    for j in range(n):
        d = L[..., j, j] - (L[..., j, :j] ** 2).sum(axis=-1)
        active = info == 0
        failed = active & ~(d > 0)
        info = xp.where(failed, numpy.int32(j + 1), info)
        active = info == 0
        root = xp.sqrt(xp.where(active, d, 1))
        L[..., j, j] = xp.where(active, root, xp.where(failed, d, L[..., j, j]))
        column = (L[..., j + 1:, j] - xp.matmul(L[..., j + 1:, :j], L[..., j, :j, None])[..., 0]) / root[..., None]
        L[..., j + 1:, j] = xp.where(active[..., None], column, L[..., j + 1:, j])
    return (_swap(xp, L) if upper else L), info


def cholesky_grad(F, g, factor, upper):
    """PyTorch's cholesky_backward: A^-grad = L^-H Phi(L^H gL) L^-1, Phi the lower triangle with half
    its diagonal, made symmetric."""
    L, gL = (_T(F, factor), _T(F, g)) if upper else (factor, g)
    ga = F.tril(F.matmul(_T(F, L), gL))
    ga = 0.5 * (ga + _T(F, F.tril(ga, diagonal=-1)))
    ga = solve_triangular(F, _T(F, L), ga, upper=True, left=True)
    return solve_triangular(F, L, ga, upper=False, left=False)


def cholesky_checked(row, A, upper, fname):
    """The row on A, with PyTorch's checks and its LinAlgError naming the first leading minor that
    is not positive-definite: a pivot that is not positive, or NaN, as LAPACK's potrf (numpy's
    cholesky carries a NaN pivot through as NaN instead of refusing it)."""
    from .linalg import square_matrices, LinAlgError
    square_matrices(A, fname, lu=False)
    try:
        out = run_op(row, (A,), {"upper": bool(upper)} if upper else NO_PARAMS)
        xp = array_module(out.device)  # checked where the factor is: one number read back
        nd = out.array.ndim
        if bool((xp.diagonal(out.array, 0, nd - 2, nd - 1) > 0).all()):
            return out
    except numpy.linalg.LinAlgError:
        pass
    host = host_array(A)
    if upper:
        host = numpy.swapaxes(host, -1, -2)
    batch = host.shape[:-2]
    for flat, index in enumerate(numpy.ndindex(*batch)):
        matrix = host[index]
        for k in range(1, matrix.shape[-1] + 1):  # LAPACK's potrf info: a pivot not positive, or NaN
            try:
                factor = numpy.linalg.cholesky(matrix[:k, :k])
            except numpy.linalg.LinAlgError:
                factor = None
            if factor is None or not factor[k - 1, k - 1] > 0:
                prefix = f"(Batch element {flat}): " if batch else ""
                raise LinAlgError(f"{fname}: {prefix}The factorization could not be completed because the input is "
                                  f"not positive-definite (the leading minor of order {k} is not positive-definite).")
    raise LinAlgError(f"{fname}: The factorization could not be completed because the input is not positive-definite.")


# ---------------------------------------------------------------------------------- qr

class LinalgQrQ(Op):
    """Q of A = Q R (mode 'reduced': m x k, 'complete': m x m), Householder's as LAPACK's."""
    name = "linalg_qr_q"
    names = ()
    node = "LinalgQrBackward0"
    formula = call("mode")
    saves = (0, "out")

    def forward(xp, a, mode="reduced", factors=None):
        return factors[0].copy() if factors is not None else xp.linalg.qr(a, mode=mode)[0]

    def backward(F, ctx, g, a, q, mode="reduced", factors=None):
        computed = _computed(F, factors)
        r = computed[1] if computed is not None else F.linalg_qr_r(a, mode=mode)
        return (qr_grad(F, a, q, r, g, None, mode),)


class LinalgQrR(Op):
    """R of A = Q R (upper triangular; mode 'reduced' and 'r': k x n, 'complete': m x n)."""
    name = "linalg_qr_r"
    names = ()
    node = "LinalgQrBackward0"
    formula = call("mode")
    saves = (0, "out")

    def forward(xp, a, mode="reduced", factors=None):
        if factors is not None:
            return factors[1].copy()
        if mode == "r":
            return xp.linalg.qr(a, mode="r")
        return xp.linalg.qr(a, mode=mode)[1]

    def backward(F, ctx, g, a, r, mode="reduced", factors=None):
        if mode == "r":
            raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please "
                               "use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.")
        computed = _computed(F, factors)
        q = computed[0] if computed is not None else F.linalg_qr_q(a, mode=mode)
        return (qr_grad(F, a, q, r, None, g, mode),)


def qr_grad(F, a, q, r, gq, gr, mode):
    """The gradient of A = Q R from gQ and/or gR. m >= n: (gQ + Q copyltu(M)) R^-T with
    M = R gR^T - gQ^T Q (copyltu: the lower triangle mirrored onto the upper); m < n: A = [X | Y],
    R = [U | V], the square case for X with gQ + Y gV^T, and Q gV for Y."""
    m, n = a.shape[-2:]
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
    if m >= n:
        return _qr_grad_tall(F, q, r, gq, gr)
    y = _cols(F, a, m, n)
    u = _cols(F, r, 0, m)
    gu = gv = None
    if gr is not None:
        gu, gv = _cols(F, gr, 0, m), _cols(F, gr, m, n)
        gq = F.matmul(y, _T(F, gv)) if gq is None else gq + F.matmul(y, _T(F, gv))
    gx = _qr_grad_tall(F, q, u, gq, gu)
    gy = F.matmul(q, gv) if gv is not None else F.zeros_like(y)
    return F.cat(gx, gy, dim=-1)


def _qr_grad_tall(F, q, r, gq, gr):
    terms = []
    if gr is not None:
        terms.append(F.matmul(r, _T(F, gr)))
    if gq is not None:
        terms.append(-F.matmul(_T(F, gq), q))
    mm = terms[0] if len(terms) == 1 else terms[0] + terms[1]
    sym = F.tril(mm) + _T(F, F.tril(mm, diagonal=-1))
    b = F.matmul(q, sym) if gq is None else gq + F.matmul(q, sym)
    return solve_triangular(F, _T(F, r), b, upper=False, left=False)


# ----------------------------------------------------------------- one decomposition, several outputs

class Factors(tuple):
    """A decomposition's arrays (svd: U, S, Vh; eigh: eigenvalues, eigenvectors; qr: Q, R; lu: the
    packed LU and the pivots), computed once by the public function and handed to each of its
    outputs' rows as the parameter `factors`: a row would otherwise decompose A again, each output
    once in forward and again in backward (twelve SVDs for U, S and Vh with a gradient into each).
    A row's forward copies its factor out (its tensor may be changed in place; these stay as
    computed); its backward on arrays reads them instead of decomposing again. A backward that builds a graph (create_graph, forward mode)
    still decomposes through the rows, so that the result differentiates on."""

    def __new__(cls, arrays, full=False):
        self = super().__new__(cls, arrays)
        self.full = full  # svd's full_matrices
        return self

    def __str__(self):  # how a graph shows the parameter (not the arrays)
        return "<computed once>"

    __repr__ = __str__


def _computed(F, factors):
    """The factors a backward may read: on arrays only (see Factors)."""
    return None if factors is None or F.graph else factors


# --------------------------------------------------------------------------------- svd

class LinalgSvdU(Op):
    """U of A = U diag(S) Vh (full_matrices: m x m, else m x k)."""
    name = "linalg_svd_u"
    names = ()
    node = "LinalgSvdBackward0"
    formula = call("full_matrices")
    saves = (0,)

    def forward(xp, a, full_matrices=True, factors=None):
        return factors[0].copy() if factors is not None else svd_kernel(xp, a, full_matrices=full_matrices)[0]

    def backward(F, ctx, g, a, full_matrices=True, factors=None):
        return (svd_grad(F, a, g, None, None, full_matrices, _computed(F, factors)),)


class LinalgSvdS(Op):
    """The singular values of A, largest first (torch.linalg.svdvals)."""
    name = "linalg_svd_s"
    names = ()
    node = "LinalgSvdBackward0"
    formula = call()
    saves = (0,)

    def forward(xp, a, factors=None):
        return factors[1].copy() if factors is not None else svd_kernel(xp, a, compute_uv=False)

    def backward(F, ctx, g, a, factors=None):
        return (svd_grad(F, a, None, g, None, False, _computed(F, factors)),)


class LinalgSvdVh(Op):
    """Vh of A = U diag(S) Vh (full_matrices: n x n, else k x n)."""
    name = "linalg_svd_vh"
    names = ()
    node = "LinalgSvdBackward0"
    formula = call("full_matrices")
    saves = (0,)

    def forward(xp, a, full_matrices=True, factors=None):
        return factors[2].copy() if factors is not None else svd_kernel(xp, a, full_matrices=full_matrices)[2]

    def backward(F, ctx, g, a, full_matrices=True, factors=None):
        return (svd_grad(F, a, None, None, g, full_matrices, _computed(F, factors)),)


def svd_grad(F, a, gu, gs, gvh, full, factors=None):
    """PyTorch's svd_backward (real): with E_ij = s_j^2 - s_i^2 (1 on the diagonal),
    gA = U [(skew(U^T gU) S + S skew(Vh gVh^T)) / E + diag(gS)] Vh, plus the parts of gU (m > n)
    or gVh (m < n) outside the span of U (V). Repeated singular values divide by zero, as PyTorch.
    `factors`: the forward's (U, S, Vh), else A is decomposed here (through the rows)."""
    m, n = a.shape[-2:]
    k = min(m, n)
    if factors is not None:
        (u, s, vh), full = factors, factors.full
    else:
        s = F.linalg_svd_s(a)
        u = F.linalg_svd_u(a, full_matrices=full) if gu is not None or gs is not None else None
        vh = F.linalg_svd_vh(a, full_matrices=full)
    if full:  # the columns of U (rows of Vh) past k take no part (PyTorch narrows them away)
        u = _cols(F, u, 0, k) if u is not None else None
        vh = _rows(F, vh, 0, k)
        gu = _cols(F, gu, 0, k) if gu is not None else None
        gvh = _rows(F, gvh, 0, k) if gvh is not None else None
    if gu is None and gvh is None:
        return F.matmul(u, F.unsqueeze(gs, dim=-1) * vh)
    if u is None:
        u = F.linalg_svd_u(a, full_matrices=full)
        u = _cols(F, u, 0, k) if full else u
    s2 = s * s
    e = F.unsqueeze(s2, dim=-2) - F.unsqueeze(s2, dim=-1)
    e = F.where(F.eye_mask(k), 1.0, e)
    if gu is not None:
        uhgu = F.matmul(_T(F, u), gu)
        uhgu = uhgu - _T(F, uhgu)
        ga = uhgu / e * F.unsqueeze(s, dim=-2)
    else:
        vhgv = F.matmul(vh, _T(F, gvh))
        vhgv = vhgv - _T(F, vhgv)
        ga = F.unsqueeze(s, dim=-1) * vhgv / e
    if m > n and gu is not None:
        ga = F.matmul(u, ga)
        gus = gu / F.unsqueeze(s, dim=-2)
        ga = ga + gus - F.matmul(u, F.matmul(_T(F, u), gus))
        return F.matmul(ga, vh)
    if m < n and gvh is not None:
        ga = F.matmul(ga, vh)
        sgvh = gvh / F.unsqueeze(s, dim=-1)
        ga = ga + sgvh - F.matmul(F.matmul(sgvh, _T(F, vh)), vh)
        return F.matmul(u, ga)
    return F.matmul(u, F.matmul(ga, vh))


# -------------------------------------------------------------------------------- eigh

class LinalgEighValues(Op):
    """The eigenvalues of a symmetric matrix, ascending (only the UPLO triangle is read)."""
    name = "linalg_eigh_values"
    names = ()
    node = "LinalgEighBackward0"
    formula = call("UPLO")
    saves = (0,)

    def forward(xp, a, UPLO="L", factors=None):
        return factors[0].copy() if factors is not None else eigh_kernel(xp, a, UPLO, vectors=False)

    def backward(F, ctx, g, a, UPLO="L", factors=None):
        return (eigh_grad(F, a, g, None, UPLO, factors=_computed(F, factors)),)


class LinalgEighVectors(Op):
    """The eigenvectors (columns) of a symmetric matrix, in the order of its ascending eigenvalues."""
    name = "linalg_eigh_vectors"
    names = ()
    node = "LinalgEighBackward0"
    formula = call("UPLO")
    saves = (0, "out")

    def forward(xp, a, UPLO="L", factors=None):
        return factors[1].copy() if factors is not None else eigh_kernel(xp, a, UPLO)[1]

    def backward(F, ctx, g, a, v, UPLO="L", factors=None):
        return (eigh_grad(F, a, None, g, UPLO, v, _computed(F, factors)),)


def eigh_grad(F, a, gl, gv, uplo, v=None, factors=None):
    """PyTorch's (real, hermitian): gA = V (skew(V^T gV) / 2E + diag(gL)) V^T, E_ij = l_j - l_i (1 on the
    diagonal): symmetric. Repeated eigenvalues divide by zero, as PyTorch. `factors`: the forward's
    (eigenvalues, eigenvectors), else A is decomposed here (through the rows)."""
    if v is None:
        v = factors[1] if factors is not None else F.linalg_eigh_vectors(a, UPLO=uplo)
    if gv is None:
        return F.matmul(v * F.unsqueeze(gl, dim=-2), _T(F, v))
    lam = factors[0] if factors is not None else F.linalg_eigh_values(a, UPLO=uplo)
    n = a.shape[-1]
    e = F.unsqueeze(lam, dim=-2) - F.unsqueeze(lam, dim=-1)
    e = F.where(F.eye_mask(n), 1.0, e)
    vhgv = F.matmul(_T(F, v), gv)
    inner = 0.5 * (vhgv - _T(F, vhgv)) / e
    return F.matmul(v, F.matmul(inner, _T(F, v)))


# -------------------------------------------------------------------------- matrix_exp

class MatrixExp(Op):
    """The matrix exponential.

    The matrix exponential of (a batch of) square matrices: scaling and squaring with the
    degree-13 Pade approximant. The gradient is PyTorch's: the top-right block of the
    exponential of [[A^T, G], [0, A^T]] -- this row again, so every order follows."""
    name = "matrix_exp"
    signature = "matrix_exp(Tensor input) -> Tensor"
    method = True
    formula = call()
    node = "LinalgMatrixExpBackward0"
    saves = (0,)

    def forward(xp, a):
        return matrix_exp_kernel(xp, a)

    def backward(F, ctx, g, a):
        n = a.shape[-1]
        at = _T(F, a)
        top = F.cat(at, g, dim=-1)
        bottom = F.cat(F.zeros_like(at), at, dim=-1)
        big = F.matrix_exp(F.cat(top, bottom, dim=-2))
        return (F.getitem(big, key=(Ellipsis, slice(0, n), slice(n, 2 * n))),)

    def call(input):
        from .linalg import square_matrices
        square_matrices(input, "linalg.matrix_exp", lu=False)
        return run_op(MatrixExp, (input,), NO_PARAMS)


# -------------------------------------------------------------------------------- pinv

class Pinverse(Op):
    """The Moore-Penrose pseudo-inverse.

    The pseudo-inverse of (a batch of) matrices, from the SVD (singular values at most rcond
    times the largest count as zero), as torch.pinverse; torch.linalg.pinv's atol, rtol and
    hermitian (through eigh) are its parameters too."""
    name = "pinverse"
    signature = "pinverse(Tensor input, float rcond=1e-15) -> Tensor"
    method = True
    formula = call()
    node = "LinalgPinvBackward0"
    saves = (0, "out")

    def forward(xp, a, rcond=None, atol=None, hermitian=False):
        return pinv_kernel(xp, a, rcond, atol, hermitian)

    def backward(F, ctx, g, a, p, rcond=None, atol=None, hermitian=False):
        return (pinv_grad(F, g, p, a),)

    def call(input, rcond):
        from .linalg import scalar_name
        if input.array.ndim < 2:
            raise RuntimeError("linalg.pinv(" + scalar_name(input) + "{" + str(list(input.array.shape))[1:-1]
                               + "}): expected a tensor with 2 or more dimensions of float, double, cfloat or "
                               "cdouble types")
        return run_op(Pinverse, (input,), {"rcond": float(rcond), "atol": 0.0})


def pinv_grad(F, g, p, a):
    """PyTorch's pinv_backward, arranged for the smaller of m and n."""
    m, n = a.shape[-2:]
    ph, gh = _T(F, p), _T(F, g)
    if m <= n:
        k = F.matmul(gh, p)
        kph = F.matmul(k, ph)
        return (-_T(F, F.matmul(p, k)) + kph - F.matmul(F.matmul(a, p), kph)
                + F.matmul(F.matmul(ph, p), gh - F.matmul(k, a)))
    k = F.matmul(p, gh)
    phk = F.matmul(ph, k)
    return (-_T(F, F.matmul(k, p)) + F.matmul(F.matmul(gh - F.matmul(a, k), p), ph) + phk
            - F.matmul(F.matmul(phk, p), a))


# ------------------------------------------------------------------------------- lstsq

class LinalgLstsq(Op):
    """The least-squares solution X of min ||A X - B|| (the minimum-norm one, through the
    pseudo-inverse; B a (batch of) vector(s) when `vector`)."""
    name = "linalg_lstsq"
    names = ()
    node = "LinalgLstsqBackward0"
    formula = call()
    saves = (0, 1)

    def forward(xp, a, b, rcond=None, vector=False):
        p = pinv_kernel(xp, a, rcond)
        if vector:
            return xp.matmul(p, b[..., None])[..., 0]
        return xp.matmul(p, b)

    def backward(F, ctx, g, a, b, rcond=None, vector=False):
        # PyTorch's linalg_lstsq_backward: the gradient of pinv(A) B
        p = F.pinverse(a, rcond=rcond)
        gm, bm = (F.unsqueeze(g, dim=-1), F.unsqueeze(b, dim=-1)) if vector else (g, b)
        ga = pinv_grad(F, F.matmul(gm, _T(F, bm)), p, a) if ctx.needs[0] else None
        gb = None
        if ctx.needs[1]:
            gb = F.matmul(_T(F, p), gm)
            gb = F.squeeze(gb, dim=-1) if vector else gb
        return ga, gb


class LinalgLstsqResiduals(Op):
    """The squared residuals ||A X - B||^2 of each column of B at the least-squares solution X."""
    name = "linalg_lstsq_residuals"
    names = ()
    node = "LinalgLstsqBackward0"
    formula = call()
    saves = (0, 1)

    def forward(xp, a, b, rcond=None, vector=False):
        x = LinalgLstsq.forward(xp, a, b, rcond, vector)
        if vector:  # (PyTorch's residuals of a vector b keep a dim of 1)
            x, b = x[..., None], b[..., None]
        r = xp.matmul(a, x) - b
        return (r * r).sum(axis=-2)

    def backward(F, ctx, g, a, b, rcond=None, vector=False):
        # X minimizes the residual: its own change adds nothing (d/dA = 2 r X^T, d/dB = -2 r)
        x = F.linalg_lstsq(a, b, rcond=rcond, vector=vector)
        xm, bm = (F.unsqueeze(x, dim=-1), F.unsqueeze(b, dim=-1)) if vector else (x, b)
        r = (F.matmul(a, xm) - bm) * F.unsqueeze(g, dim=-2)
        ga = 2.0 * F.matmul(r, _T(F, xm)) if ctx.needs[0] else None
        gb = None
        if ctx.needs[1]:
            gb = -2.0 * r
            gb = F.squeeze(gb, dim=-1) if vector else gb
        return ga, gb


# ---------------------------------------------------------------------- lu_factor, lu_solve

class LinalgLuFactor(Op):
    """LU of A = P L U, packed (L's unit diagonal left out), by partial pivoting as LAPACK's getrf."""
    name = "linalg_lu_factor"
    names = ()
    node = "LinalgLuFactorExBackward0"
    formula = call()
    saves = (0, "out")

    def forward(xp, a, factors=None):
        return factors[0].copy() if factors is not None else lu_kernel(xp, a)[0]

    def backward(F, ctx, g, a, lu, factors=None):
        m, n = a.shape[-2:]
        pivots = factors[1] if factors is not None else lu_kernel(F.xp, _raw(F, a))[1]  # (integers: any F)
        p = _const(F, permutation_matrix(F.xp, pivots, m, _raw(F, a).dtype))
        return (lu_grad(F, lu, p, F.tril(g, diagonal=-1), F.triu(g), m, n),)


def lu_parts(F, lu, m, n):
    """L (m x k, unit diagonal) and U (k x n) of a packed LU."""
    k = min(m, n)
    ones = _const(F, F.xp.eye(m, k, dtype=_raw(F, lu).dtype))
    L = F.tril(_cols(F, lu, 0, k), diagonal=-1) + ones
    U = F.triu(_rows(F, lu, 0, k))
    return L, U


def lu_grad(F, lu, p, gl, gu, m, n):
    """PyTorch's linalg_lu_backward for A = P L U from gL (m x k) and gU (k x n), here as parts of
    packed ones: square, P L^-T [tril(L^T gL, -1) + triu(gU U^T)] U^-T; tall, the square one for the
    top rows and gL2 U^-T for the rest; wide, the square one for the left columns and L^-T gU2."""
    k = min(m, n)
    L, U = lu_parts(F, lu, m, n)
    gl, gu = _cols(F, gl, 0, k), _rows(F, gu, 0, k)
    if m == n:
        gr = F.tril(F.matmul(_T(F, L), gl), diagonal=-1) + F.triu(F.matmul(gu, _T(F, U)))
        ga = solve_triangular(F, _T(F, L), gr, upper=True, left=True, unitriangular=True)
        return F.matmul(p, solve_triangular(F, _T(F, U), ga, upper=False, left=False))
    if m > n:
        l1, l2 = _rows(F, L, 0, n), _rows(F, L, n, m)
        gl1, gl2 = _rows(F, gl, 0, n), _rows(F, gl, n, m)
        gr = F.tril(F.matmul(_T(F, l1), gl1), diagonal=-1) + F.triu(F.matmul(gu, _T(F, U))
                                                                     - F.matmul(_T(F, l2), gl2))
        ga1 = solve_triangular(F, _T(F, l1), gr, upper=True, left=True, unitriangular=True)
        ga = F.cat(ga1, gl2, dim=-2)
        return F.matmul(p, solve_triangular(F, _T(F, U), ga, upper=False, left=False))
    u1, u2 = _cols(F, U, 0, m), _cols(F, U, m, n)
    gu1, gu2 = _cols(F, gu, 0, m), _cols(F, gu, m, n)
    gr = F.tril(F.matmul(_T(F, L), gl) - F.matmul(gu2, _T(F, u2)), diagonal=-1) + F.triu(F.matmul(gu1, _T(F, u1)))
    ga1 = solve_triangular(F, _T(F, u1), gr, upper=False, left=False)
    ga = F.cat(ga1, gu2, dim=-1)
    return F.matmul(p, solve_triangular(F, _T(F, L), ga, upper=True, left=True, unitriangular=True))


class LinalgLuL(Op):
    """L of A = P L U (m x k, unit diagonal): torch.linalg.lu's second result."""
    name = "linalg_lu_l"
    names = ()
    node = "LinalgLuBackward0"
    formula = call()
    saves = (0,)

    def forward(xp, a, factors=None):
        m, n = a.shape[-2:]
        k = min(m, n)
        lu = factors[0] if factors is not None else lu_kernel(xp, a)[0]
        return xp.tril(lu[..., :, :k], -1) + xp.eye(m, k, dtype=a.dtype)

    def backward(F, ctx, g, a, factors=None):
        return (_lu_result_grad(F, a, g, None, factors),)


class LinalgLuU(Op):
    """U of A = P L U (k x n, upper triangular): torch.linalg.lu's third result."""
    name = "linalg_lu_u"
    names = ()
    node = "LinalgLuBackward0"
    formula = call()
    saves = (0,)

    def forward(xp, a, factors=None):
        k = min(a.shape[-2:])
        lu = factors[0] if factors is not None else lu_kernel(xp, a)[0]
        return xp.triu(lu[..., :k, :])

    def backward(F, ctx, g, a, factors=None):
        return (_lu_result_grad(F, a, None, g, factors),)


def _lu_result_grad(F, a, gl, gu, factors=None):
    """linalg.lu's gradient from gL or gU: lu_factor's formula, the other gradient zero. `factors`:
    the forward's (LU, pivots); the pivots serve any F (integers), the LU only a backward on arrays."""
    m, n = a.shape[-2:]
    k = min(m, n)
    computed = _computed(F, factors)
    lu = computed[0] if computed is not None else F.linalg_lu_factor(a)
    pivots = factors[1] if factors is not None else lu_kernel(F.xp, _raw(F, a))[1]
    p = _const(F, permutation_matrix(F.xp, pivots, m, _raw(F, a).dtype))
    zeros = F.xp.zeros(tuple(a.shape[:-2]) + ((m, k) if gl is None else (k, n)), dtype=_raw(F, a).dtype)
    gl = _const(F, zeros) if gl is None else gl
    gu = _const(F, zeros) if gu is None else gu
    return lu_grad(F, lu, p, gl, gu, m, n)


class LinalgLuSolve(Op):
    """X with A X = B (adjoint: A^T X = B; left=False: X A = B, X A^T = B) for A = P L U given by
    lu_factor's LU and pivots."""
    name = "linalg_lu_solve"
    names = ()
    node = "LinalgLuSolveBackward0"
    formula = call("left", "adjoint")
    saves = (0, 1, "out")
    save_for = ((0, 2), (0, 2), (0,))

    def forward(xp, lu, pivots, b, left=True, adjoint=False):
        if not left:  # X op(A) = B is op(A)^T X^T = B^T
            return _swap(xp, LinalgLuSolve.forward(xp, lu, pivots, _swap(xp, b), True, not adjoint))
        n = lu.shape[-1]
        batch = _batch_of(lu.shape[:-2], pivots.shape[:-1], b.shape[:-2])
        lu = xp.broadcast_to(lu, batch + lu.shape[-2:])
        b = xp.broadcast_to(b, batch + b.shape[-2:])
        perm = xp.broadcast_to(permutation_of(xp, pivots, n), batch + (n,))
        if not adjoint:  # X = U^-1 L^-1 P^T B
            pb = xp.take_along_axis(b, perm[..., None], axis=-2)
            y = triangular_solve_kernel(xp, lu, pb, upper=False, unitriangular=True)
            return triangular_solve_kernel(xp, lu, y, upper=True)
        y = triangular_solve_kernel(xp, _swap(xp, lu), b, upper=False)  # U^T y = B
        z = triangular_solve_kernel(xp, _swap(xp, lu), y, upper=True, unitriangular=True)  # L^T z = y
        back = xp.argsort(perm, axis=-1)  # X = P z: row perm[i] of X is row i of z
        return xp.take_along_axis(z, back[..., None], axis=-2)

    def backward(F, ctx, g, lu, pivots, x, left=True, adjoint=False):
        gb = F.linalg_lu_solve(lu, pivots, g, left=left, adjoint=not adjoint)
        glu = None
        if ctx.needs[0]:
            gop = -F.matmul(gb, _T(F, x)) if left else -F.matmul(_T(F, x), gb)
            ga = _T(F, gop) if adjoint else gop
            n = lu.shape[-1]
            p = _const(F, permutation_matrix(F.xp, _raw(F, pivots), n, _raw(F, lu).dtype))
            L, U = lu_parts(F, lu, n, n)
            ptga = F.matmul(_T(F, p), ga)
            glu = F.tril(F.matmul(ptga, _T(F, U)), diagonal=-1) + F.triu(F.matmul(_T(F, L), ptga))
        return glu, None, (gb if ctx.needs[2] else None)



# ------------------------------------------------- cholesky_solve, cholesky_inverse, triangular_solve

def _solve_checks(b, a, fname, kernel):
    """PyTorch's checks of (b, A) for torch.cholesky_solve and torch.triangular_solve (its
    linearSolveCheckInputs, then the batch broadcast and the kernel's dtypes)."""
    from .linalg import scalar_name
    if b.array.dtype != a.array.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {scalar_name(b)} and A of "
                           f"type {scalar_name(a)} instead.")
    (m, n), (rows, cols) = a.array.shape[-2:], b.array.shape[-2:]
    if m != n:
        raise RuntimeError(f"A must be batches of square matrices, but they are {m} by {n} matrices")
    if rows != n:
        raise RuntimeError(f"Incompatible matrix sizes for {fname}: each A matrix is {n} by {n} but each b matrix is "
                           f"{rows} by {cols}")
    check_broadcastable(b.array.shape[:-2], a.array.shape[:-2])
    if a.array.dtype.kind != "f" or a.array.dtype == numpy.float16:
        refuse_dtype(kernel, a.array.dtype)


def _cholesky_solve_kernel(xp, b, factor, upper):
    """(L L^T)^-1 B (upper: (U^T U)^-1 B) by two triangular solves, only the factor's triangle read."""
    low = _swap(xp, factor) if upper else factor
    return triangular_solve_kernel(xp, _swap(xp, low), triangular_solve_kernel(xp, low, b, False), True)


class CholeskySolve(Op):
    """Solves A X = B given the Cholesky factor of A.

    X with A X = B for A = L L^T given L (upper=True: A = U^T U given U); only the factor's
    triangle is read, batch dims broadcast. The gradient is PyTorch's: that of (L L^T)^-1 B for
    the whole matrix L (so it reaches L's other triangle too)."""
    name = "cholesky_solve"
    signature = "cholesky_solve(Tensor input, Tensor input2, bool upper=False) -> Tensor"
    method = True
    formula = call("upper")
    node = "CholeskySolveBackward0"
    saves = (1, "out")
    save_for = ((0, 1), (1,))

    def forward(xp, b, factor, upper=False):
        return _cholesky_solve_kernel(xp, b, factor, upper)

    def backward(F, ctx, g, factor, x, upper=False):
        gb = F.cholesky_solve(g, factor, upper=upper)
        gl = None
        if ctx.needs[1]:
            common = F.matmul(gb, _T(F, x))
            common = common + _T(F, common)
            gl = -F.matmul(factor, common) if upper else -F.matmul(common, factor)
        return (gb if ctx.needs[0] else None), gl

    def call(input, input2, upper):
        for name, t in (("b", input), ("u", input2)):
            if t.array.ndim < 2:
                raise RuntimeError(f"{name} should have at least 2 dimensions, but has {t.array.ndim} dimensions "
                                   f"instead")
        _solve_checks(input, input2, "cholesky_solve", "cholesky_solve_cpu")
        return run_op(CholeskySolve, (input, input2), {"upper": True} if upper else NO_PARAMS)


class CholeskyInverse(Op):
    """The inverse of A given its Cholesky factor.

    A^-1 for A = L L^T given L (upper=True: A = U^T U given U), only the factor's triangle read;
    a zero on the factor's diagonal is a LinAlgError. The gradient is PyTorch's, for the whole
    matrix L."""
    name = "cholesky_inverse"
    signature = "cholesky_inverse(Tensor input, bool upper=False) -> Tensor"
    method = True
    formula = call("upper")
    node = "CholeskyInverseBackward0"
    saves = (0, "out")

    def forward(xp, factor, upper=False):
        low = _swap(xp, factor) if upper else factor
        inv = triangular_solve_kernel(xp, low, xp.eye(factor.shape[-1], dtype=factor.dtype), False)  # L^-1
        return xp.matmul(_swap(xp, inv), inv)

    def backward(F, ctx, g, factor, inv, upper=False):
        common = F.matmul(inv, F.matmul(g + _T(F, g), inv))
        return (-F.matmul(factor, common) if upper else -F.matmul(common, factor),)

    def call(input, upper):
        from .linalg import square_matrices, singular_diagonal
        square_matrices(input, "cholesky_inverse", lu=False, floating=False)
        if input.array.dtype.kind != "f" or input.array.dtype == numpy.float16:
            refuse_dtype("cholesky_inverse_out_cpu", input.array.dtype)
        singular_diagonal(input, "cholesky_inverse")
        return run_op(CholeskyInverse, (input,), {"upper": True} if upper else NO_PARAMS)


class TriangularSolve(Op):
    """Solves a triangular system (deprecated for torch.linalg.solve_triangular).

    (solution, cloned_coefficient): X with A X = B (transpose: A^T X = B) for the upper
    (upper=False: lower) triangle of A, its diagonal ones when unitriangular, and a copy of A
    (broadcast to the batch); batch dims broadcast. This row is the solution; the copy is the
    row below (both are PyTorch's one node)."""
    name = "triangular_solve"
    signature = ("triangular_solve(Tensor input, Tensor A, bool upper=True, bool transpose=False, "
                 "bool unitriangular=False) -> (Tensor solution, Tensor cloned_coefficient)")
    method = True
    formula = call("upper", "transpose", "unitriangular")
    node = "TriangularSolveBackward0"
    saves = (1, "out")
    save_for = ((0, 1), (1,))

    def forward(xp, b, a, upper=True, transpose=False, unitriangular=False):
        if transpose:
            return triangular_solve_kernel(xp, _swap(xp, a), b, not upper, unitriangular)
        return triangular_solve_kernel(xp, a, b, upper, unitriangular)

    def backward(F, ctx, g, a, x, upper=True, transpose=False, unitriangular=False):
        # PyTorch's triangular_solve_backward: gB = op(A)^-T gX, gA = -gB X^T (transposed: -X gB^T)
        gb = F.triangular_solve(g, a, upper=upper, transpose=not transpose, unitriangular=unitriangular)
        ga = None
        if ctx.needs[1]:
            ga = -F.matmul(x, _T(F, gb)) if transpose else -F.matmul(gb, _T(F, x))
            ga = F.triu(ga, diagonal=int(unitriangular)) if upper else F.tril(ga, diagonal=-int(unitriangular))
        return (gb if ctx.needs[0] else None), ga

    def call(input, A, upper, transpose, unitriangular):
        for name, t in (("b", input), ("A", A)):
            if t.array.ndim < 2:
                raise RuntimeError(f"torch.triangular_solve: Expected {name} to have at least 2 dimensions, but it "
                                   f"has {t.array.ndim} dimensions instead")
        _solve_checks(input, A, "triangular_solve", "triangular_solve_cpu")
        warnings.warn("torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be "
                      "removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments reversed "
                      "and does not return a copy of one of the inputs.\nX = torch.triangular_solve(B, A).solution\n"
                      "should be replaced with\nX = torch.linalg.solve_triangular(A, B).", UserWarning, stacklevel=3)
        params = {"upper": bool(upper), "transpose": bool(transpose), "unitriangular": bool(unitriangular)}
        solution = run_op(TriangularSolve, (input, A), params)
        shape = solution.array.shape[:-2] + A.array.shape[-2:]
        return solution, run_op(TriangularSolveCoefficient, (A,), {"shape": shape})


class TriangularSolveCoefficient(Op):
    """triangular_solve's copy of A, broadcast to the batch: its gradient passes to A whole (PyTorch's)."""
    name = "triangular_solve_coefficient"
    names = ()
    node = "TriangularSolveBackward0"
    formula = call()
    jvp = "linear"

    def forward(xp, a, shape):
        return xp.array(xp.broadcast_to(a, shape))

    def backward(F, ctx, g, shape):
        return (g,)


# ---------------------------------------------------------------------------- lu_unpack

class LuUnpackL(Op):
    """L (m x k, unit diagonal) of a packed LU: torch.lu_unpack's second result."""
    name = "lu_unpack_l"
    names = ()
    node = "LuUnpackBackward0"
    formula = call()

    def jvp(F, ctx, tangents):  # (affine: the unit diagonal has no tangent)
        return F.tril(_cols(F, tangents[0], 0, min(ctx.shapes[0][-2:])), diagonal=-1)

    def forward(xp, lu):
        m, n = lu.shape[-2:]
        k = min(m, n)
        return xp.tril(lu[..., :, :k], -1) + xp.eye(m, k, dtype=lu.dtype)

    def backward(F, ctx, g):
        m, n = ctx.shapes[0][-2:]
        glu = F.tril(g, diagonal=-1)
        if m < n:  # (the columns past k are U's alone)
            glu = F.cat(glu, _const(F, F.xp.zeros(tuple(ctx.shapes[0][:-1]) + (n - m,), dtype=_raw(F, g).dtype)),
                        dim=-1)
        return (glu,)


class LuUnpackU(Op):
    """U (k x n, upper triangular) of a packed LU: torch.lu_unpack's third result."""
    name = "lu_unpack_u"
    names = ()
    node = "LuUnpackBackward0"
    formula = call()
    jvp = "linear"

    def forward(xp, lu):
        k = min(lu.shape[-2:])
        return xp.triu(lu[..., :k, :])

    def backward(F, ctx, g):
        m, n = ctx.shapes[0][-2:]
        glu = F.triu(g)
        if m > n:  # (the rows past k are L's alone)
            glu = F.cat(glu, _const(F, F.xp.zeros(tuple(ctx.shapes[0][:-2]) + (m - n, n), dtype=_raw(F, g).dtype)),
                        dim=-2)
        return (glu,)



# ------------------------------------------------------------------------ inv_ex, solve_ex

def solve_or_lu(xp, solver, a, b=None):
    """solver(a[, b]) where it succeeds; else X with A X = B (B the identity when None) through LU with
    partial pivoting, as LAPACK's getrf and getrs: a singular A gives inf/NaN, no error (the _ex
    functions)."""
    from .linalg import _nan_tolerant
    try:
        return _nan_tolerant(xp, solver, a, *(() if b is None else (b,)))
    except Exception as error:
        if type(error).__name__ != "LinAlgError":
            raise
    with numpy.errstate(all="ignore"):
        lu, pivots = lu_kernel(xp, a)
        return LinalgLuSolve.forward(xp, lu, pivots, xp.eye(a.shape[-1], dtype=a.dtype) if b is None else b)


class LinalgInvEx(Op):
    """torch.linalg.inv_ex's inverse: a singular matrix gives LAPACK's inf/NaN, not an error."""
    name = "linalg_inv_ex"
    names = ()
    node = "LinalgInvExBackward0"
    formula = call()
    saves = ("out",)
    batched = True

    def forward(xp, x):
        return solve_or_lu(xp, xp.linalg.inv, x)

    def backward(F, ctx, g, inv):
        from .linalg import Inverse
        return Inverse.backward(F, ctx, g, inv)


class LinalgSolveEx(Op):
    """torch.linalg.solve_ex's result: a singular A gives LAPACK's inf/NaN, not an error; the gradient
    solves with A's LU (PyTorch's way, so its inf/NaN too)."""
    name = "linalg_solve_ex"
    names = ()
    node = "LinalgSolveExBackward0"
    formula = call()
    saves = (0, "out")
    save_for = ((0, 1), (0,))

    def forward(xp, a, b, vector=False, left=True):
        from .linalg import solve_arrays
        return solve_arrays(xp, a, b, vector, left, solve_or_lu)

    def backward(F, ctx, g, a, x, vector=False, left=True):
        from .linalg import solve_grads
        raw = _raw(F, a)
        with numpy.errstate(all="ignore"):
            pivots = _const(F, lu_kernel(F.xp, raw)[1])
        gm = F.unsqueeze(g, dim=-1 if left else -2) if vector else g
        gb = F.linalg_lu_solve(F.linalg_lu_factor(a), pivots, gm, left=left, adjoint=True)  # A^-T gX (gX A^-T)
        gb = F.squeeze(gb, dim=-1 if left else -2) if vector else gb
        return solve_grads(F, ctx, gb, x, vector, left)
