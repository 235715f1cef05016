"""Op cases of the decomposition rows of engine/ops/decomp.py (see tests/engine/ops/op_cases.py for what a
case is): cholesky, qr, svd, eigh, solve_triangular, lu_factor, lu_solve, matrix_exp, pinv, lstsq,
cholesky_solve, cholesky_inverse, triangular_solve, lu_unpack, the torch.linalg _ex functions,
and the rows PyTorch's composites on them end in (multi_dot's view, vecdot's sum, cond's squeeze
and nan_to_num, the singular-value matrix norms' amax and sum). Inputs are well conditioned, with
distinct singular values and eigenvalues; a case of a result with sign freedom (U, Vh, the
eigenvectors) is differentiated as it is where LAPACK's choice is locally constant, and through a
gauge-invariant product otherwise, as PyTorch's own tests do. The references are numpy's, or
written here where numpy has none (LU, triangular solves, the exponential)."""
import warnings

import numpy as np

import autodiff.engine as ad
from op_cases import C, gen_all, gen_each, normal

LA = ad.linalg


# ------------------------------------------------------------------ generators

def well_conditioned(rng, shape):
    """Matrices (batches, rectangular too) near n times the identity: distinct, well separated
    singular values."""
    m, n = shape[-2:]
    return rng.standard_normal(shape) + max(m, n) * np.eye(m, n) * np.linspace(1.0, 2.0, min(m, n)).max()


def spread(rng, shape):
    """Matrices with singular values spread apart (a random orthogonal mix of 1..k scaled)."""
    m, n = shape[-2:]
    k = min(m, n)
    qa, _ = np.linalg.qr(rng.standard_normal(shape[:-2] + (m, m)))
    qb, _ = np.linalg.qr(rng.standard_normal(shape[:-2] + (n, n)))
    s = np.zeros(shape)
    idx = np.arange(k)
    s[..., idx, idx] = 1.0 + 1.5 * np.arange(k)[::-1] + rng.uniform(0, 0.3, k)
    return qa @ s @ qb


def big(rng, shape):
    """Square matrices of 1-norm well above Pade's theta_13: the exponential squares."""
    return 4.0 * rng.standard_normal(shape)


def lu_inputs(rng, shapes):
    """lu_solve's (LU, pivots, B) of a well-conditioned A."""
    sa, _, sb = shapes
    a = well_conditioned(rng, sa)
    lu, piv = np_lu(a)
    return [lu, piv, rng.standard_normal(sb)]


def quiet(f):
    """f without the deprecation warning of torch.cholesky and torch.qr (tests/engine/ops/test_decomp.py
    checks it)."""
    def run(*args):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return f(*args)
    return run


def sym(x):
    return x + x.transpose(-1, -2)


def spd(x):
    n = x.shape[-1]
    return x @ x.transpose(-1, -2) + n * ad.eye(n, dtype=x.dtype)


def np_sym(x):
    return x + np.swapaxes(x, -1, -2)


def np_spd(x):
    n = x.shape[-1]
    return x @ np.swapaxes(x, -1, -2) + n * np.eye(n)


# ------------------------------------------------------------ references


def np_lu(a):
    """(LU, pivots) by Doolittle's elimination with partial pivoting, a matrix at a time."""
    a = np.array(a, dtype=float)
    m, n = a.shape[-2:]
    k = min(m, n)
    flat = a.reshape(-1, m, n)
    pivots = np.zeros((flat.shape[0], k), dtype=np.int32)
    for b in range(flat.shape[0]):
        lu = flat[b]
        for j in range(k):
            p = j + int(np.argmax(np.abs(lu[j:, j])))
            pivots[b, j] = p + 1
            lu[[j, p]] = lu[[p, j]]
            if lu[j, j] != 0:
                lu[j + 1:, j] /= lu[j, j]
            lu[j + 1:, j + 1:] -= np.outer(lu[j + 1:, j], lu[j, j + 1:])
    return flat.reshape(a.shape), pivots.reshape(a.shape[:-2] + (k,))


def np_lu_parts(a):
    """(L, U) of np_lu's packed LU."""
    lu = np_lu(a)[0]
    m, n = lu.shape[-2:]
    k = min(m, n)
    return np.tril(lu[..., :, :k], -1) + np.eye(m, k), np.triu(lu[..., :k, :])


def np_expm(a):
    """exp(A) by a Taylor series of 40 terms on A / 2^s (1-norm at most 1/2), squared s times."""
    a = np.asarray(a, dtype=float)
    norm = max(np.abs(a).sum(axis=-2).max(), 1e-300)
    s = max(0, int(np.ceil(np.log2(norm))) + 1)
    x = a / 2.0 ** s
    term = np.broadcast_to(np.eye(a.shape[-1]), a.shape).copy()
    total = term.copy()
    for i in range(1, 40):
        term = term @ x / i
        total = total + term
    for _ in range(s):
        total = total @ total
    return total


def np_tri_solve(a, b, upper, left=True, unit=False):
    t = np.triu(a) if upper else np.tril(a)
    if unit:
        idx = np.arange(a.shape[-1])
        t[..., idx, idx] = 1.0
    if left:
        return np.linalg.solve(np.broadcast_to(t, np.broadcast_shapes(t.shape[:-2], b.shape[:-2]) + t.shape[-2:]),
                               np.broadcast_to(b, np.broadcast_shapes(t.shape[:-2], b.shape[:-2]) + b.shape[-2:]))
    return np.swapaxes(np.linalg.solve(np.swapaxes(t, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)


def np_usvh(x):
    u, s, vh = np.linalg.svd(x, full_matrices=False)
    return u @ vh


# ============================================================ solve_triangular

C("linalg_solve_triangular", "upper", lambda a, b: LA.solve_triangular(a, b, upper=True), [(3, 3), (3, 2)],
  lambda a, b: np_tri_solve(a, b, True), "LinalgSolveTriangularBackward0", gen=gen_all(well_conditioned))
C("linalg_solve_triangular", "lower_right", lambda a, b: LA.solve_triangular(a, b, upper=False, left=False),
  [(3, 3), (2, 3)], lambda a, b: np_tri_solve(a, b, False, left=False), "LinalgSolveTriangularBackward0",
  gen=gen_all(well_conditioned))
C("linalg_solve_triangular", "unitriangular_batched",
  lambda a, b: LA.solve_triangular(a, b, upper=False, unitriangular=True), [(2, 3, 3), (3, 2)],
  lambda a, b: np_tri_solve(a, b, False, unit=True), "LinalgSolveTriangularBackward0", gen=gen_all(well_conditioned))

# ==================================================================== cholesky

C("linalg_cholesky", "lower", lambda x: LA.cholesky(spd(x)), [(3, 3)], lambda x: np.linalg.cholesky(np_spd(x)),
  "LinalgCholeskyExBackward0")
C("linalg_cholesky", "upper_batched", lambda x: LA.cholesky(spd(x), upper=True), [(2, 3, 3)],
  lambda x: np.swapaxes(np.linalg.cholesky(np_spd(x)), -1, -2), "LinalgCholeskyExBackward0")
C("cholesky", "torch_upper", quiet(lambda x: ad.cholesky(spd(x), upper=True)), [(3, 3)],
  lambda x: np.linalg.cholesky(np_spd(x)).T, "CholeskyBackward0")
C("cholesky", "method", quiet(lambda x: spd(x).cholesky()), [(4, 4)], lambda x: np.linalg.cholesky(np_spd(x)),
  "CholeskyBackward0")

# ========================================================================== qr

C("linalg_qr_q", "tall", lambda x: LA.qr(x).Q, [(4, 3)], lambda x: np.linalg.qr(x)[0], "LinalgQrBackward0")
C("linalg_qr_q", "wide", lambda x: LA.qr(x).Q, [(3, 4)], lambda x: np.linalg.qr(x)[0], "LinalgQrBackward0")
C("linalg_qr_q", "torch_qr_batched", quiet(lambda x: ad.qr(x)[0]), [(2, 4, 3)], lambda x: np.linalg.qr(x)[0],
  "LinalgQrBackward0")
C("linalg_qr_r", "tall", lambda x: LA.qr(x).R, [(4, 3)], lambda x: np.linalg.qr(x)[1], "LinalgQrBackward0")
C("linalg_qr_r", "wide_batched", lambda x: LA.qr(x).R, [(2, 3, 4)], lambda x: np.linalg.qr(x)[1],
  "LinalgQrBackward0")
C("linalg_qr_r", "complete_square", lambda x: LA.qr(x, mode="complete").R, [(3, 3)],
  lambda x: np.linalg.qr(x, mode="complete")[1], "LinalgQrBackward0")

# ========================================================================= svd

C("linalg_svd_s", "svdvals", lambda x: LA.svdvals(x), [(4, 3)], lambda x: np.linalg.svd(x, compute_uv=False),
  "LinalgSvdBackward0", gen=gen_all(spread))
C("linalg_svd_s", "batched_wide", lambda x: LA.svd(x).S, [(2, 3, 4)], lambda x: np.linalg.svd(x, compute_uv=False),
  "LinalgSvdBackward0", gen=gen_all(spread))
C("linalg_svd_u", "tall", lambda x: LA.svd(x, full_matrices=False).U, [(4, 3)],
  lambda x: np.linalg.svd(x, full_matrices=False)[0], "LinalgSvdBackward0", gen=gen_all(spread), sign_gauge=-1)
C("linalg_svd_u", "wide", lambda x: LA.svd(x, full_matrices=False).U, [(3, 4)],
  lambda x: np.linalg.svd(x, full_matrices=False)[0], "LinalgSvdBackward0", gen=gen_all(spread), sign_gauge=-1)
C("linalg_svd_u", "full_gauge_invariant", lambda x: (lambda r: r.U[..., :, :3] @ r.Vh)(LA.svd(x)), [(4, 3)],
  np_usvh, "MmBackward0", gen=gen_all(spread))
C("linalg_svd_vh", "tall", lambda x: LA.svd(x, full_matrices=False).Vh, [(4, 3)],
  lambda x: np.linalg.svd(x, full_matrices=False)[2], "LinalgSvdBackward0", gen=gen_all(spread), sign_gauge=-2)
C("linalg_svd_vh", "wide_batched", lambda x: LA.svd(x, full_matrices=False).Vh, [(2, 3, 4)],
  lambda x: np.linalg.svd(x, full_matrices=False)[2], "LinalgSvdBackward0", gen=gen_all(spread), sign_gauge=-2)
C("linalg_svd_vh", "full_wide_gauge_invariant", lambda x: (lambda r: r.U @ r.Vh[..., :3, :])(LA.svd(x)), [(3, 4)],
  np_usvh, "MmBackward0", gen=gen_all(spread))
C("transpose", "torch_svd_v", lambda x: ad.svd(x).V, [(4, 3)], lambda x: np.linalg.svd(x, full_matrices=False)[2].T,
  "TransposeBackward0", gen=gen_all(spread), sign_gauge=-1)

# ======================================================================== eigh

C("linalg_eigh_values", "eigvalsh", lambda x: LA.eigvalsh(sym(x)), [(3, 3)], lambda x: np.linalg.eigvalsh(np_sym(x)),
  "LinalgEighBackward0", gen=gen_all(spread))
C("linalg_eigh_values", "upper_batched", lambda x: LA.eigh(sym(x), UPLO="U").eigenvalues, [(2, 3, 3)],
  lambda x: np.linalg.eigvalsh(np_sym(x), UPLO="U"), "LinalgEighBackward0", gen=gen_all(spread))
C("linalg_eigh_vectors", "vectors", lambda x: LA.eigh(sym(x)).eigenvectors, [(3, 3)],
  lambda x: np.linalg.eigh(np_sym(x))[1], "LinalgEighBackward0", gen=gen_all(spread), sign_gauge=-1)
C("linalg_eigh_vectors", "gauge_invariant_batched", lambda x: (lambda v: v * v)(LA.eigh(sym(x), UPLO="U")[1]),
  [(2, 4, 4)], lambda x: np.linalg.eigh(np_sym(x), UPLO="U")[1] ** 2, "MulBackward0", gen=gen_all(spread))

# ================================================================== matrix_exp

C("matrix_exp", "small", lambda x: LA.matrix_exp(x), [(3, 3)], np_expm, "LinalgMatrixExpBackward0")
C("matrix_exp", "squared_batched", lambda x: ad.matrix_exp(x), [(2, 3, 3)], lambda x: np.stack([np_expm(m) for m in x]),
  "LinalgMatrixExpBackward0", gen=gen_all(big))
C("matrix_exp", "method", lambda x: x.matrix_exp(), [(1, 1)], np.exp, "LinalgMatrixExpBackward0")

# ======================================================================== pinv

C("pinverse", "tall", lambda x: LA.pinv(x), [(4, 3)], np.linalg.pinv, "LinalgPinvBackward0", gen=gen_all(spread))
C("pinverse", "wide_batched", lambda x: ad.pinverse(x), [(2, 3, 4)], np.linalg.pinv, "LinalgPinvBackward0",
  gen=gen_all(spread))
C("pinverse", "hermitian", lambda x: LA.pinv(sym(x), hermitian=True), [(3, 3)],
  lambda x: np.linalg.pinv(np_sym(x), hermitian=True), "LinalgPinvBackward0", gen=gen_all(spread))

# ======================================================================= lstsq

C("linalg_lstsq", "matrix", lambda a, b: LA.lstsq(a, b).solution, [(5, 3), (5, 2)],
  lambda a, b: np.linalg.lstsq(a, b, rcond=None)[0], "LinalgLstsqBackward0", gen=gen_each(spread, normal))
C("linalg_lstsq", "vector_batched", lambda a, b: LA.lstsq(a, b, driver="gelsd")[0], [(2, 4, 3), (2, 4)],
  lambda a, b: np.stack([np.linalg.lstsq(x, y, rcond=None)[0] for x, y in zip(a, b)]), "LinalgLstsqBackward0",
  gen=gen_each(spread, normal))
C("linalg_lstsq_residuals", "gelsd", lambda a, b: LA.lstsq(a, b, driver="gelsd").residuals, [(5, 3), (5, 2)],
  lambda a, b: np.linalg.lstsq(a, b, rcond=None)[1], "LinalgLstsqBackward0", gen=gen_each(spread, normal))
C("linalg_lstsq_residuals", "vector_gelss", lambda a, b: LA.lstsq(a, b, driver="gelss").residuals, [(4, 2), (4,)],
  lambda a, b: np.linalg.lstsq(a, b, rcond=None)[1], "LinalgLstsqBackward0", gen=gen_each(spread, normal))

# ============================================================ lu_factor, lu_solve

C("linalg_lu_factor", "square", lambda x: LA.lu_factor(x).LU, [(3, 3)], lambda x: np_lu(x)[0],
  "LinalgLuFactorExBackward0")
C("linalg_lu_factor", "tall", lambda x: LA.lu_factor(x)[0], [(4, 3)], lambda x: np_lu(x)[0],
  "LinalgLuFactorExBackward0")
C("linalg_lu_factor", "wide_batched", lambda x: LA.lu_factor(x)[0], [(2, 3, 4)], lambda x: np_lu(x)[0],
  "LinalgLuFactorExBackward0")
C("linalg_lu_l", "square", lambda x: LA.lu(x).L, [(3, 3)], lambda x: np_lu_parts(x)[0], "LinalgLuBackward0")
C("linalg_lu_l", "tall_batched", lambda x: LA.lu(x)[1], [(2, 4, 3)], lambda x: np_lu_parts(x)[0], "LinalgLuBackward0")
C("linalg_lu_u", "square", lambda x: LA.lu(x).U, [(3, 3)], lambda x: np_lu_parts(x)[1], "LinalgLuBackward0")
C("linalg_lu_u", "wide", lambda x: LA.lu(x)[2], [(3, 4)], lambda x: np_lu_parts(x)[1], "LinalgLuBackward0")
C("linalg_lu_solve", "given_lu", lambda lu, piv, b: LA.lu_solve(lu, piv, b), [(3, 3), (3,), (3, 2)],
  lambda lu, piv, b: np.linalg.solve(_np_unpack(lu, piv), b), "LinalgLuSolveBackward0", gen=lu_inputs)
C("linalg_lu_solve", "adjoint_batched", lambda lu, piv, b: LA.lu_solve(lu, piv, b, adjoint=True),
  [(2, 3, 3), (2, 3), (2, 3, 1)], lambda lu, piv, b: np.linalg.solve(np.swapaxes(_np_unpack(lu, piv), -1, -2), b),
  "LinalgLuSolveBackward0", gen=lu_inputs)
C("linalg_lu_solve", "through_lu_factor_right", lambda a, b: LA.lu_solve(*LA.lu_factor(a), b, left=False),
  [(3, 3), (2, 3)], lambda a, b: np.swapaxes(np.linalg.solve(a.T, b.T), -1, -2), "LinalgLuSolveBackward0",
  gen=gen_all(well_conditioned))
C("linalg_lu_solve", "through_lu_factor_right_adjoint",
  lambda a, b: LA.lu_solve(*LA.lu_factor(a), b, left=False, adjoint=True),
  [(3, 3), (2, 3)], lambda a, b: np.swapaxes(np.linalg.solve(a, b.T), -1, -2), "LinalgLuSolveBackward0",
  gen=gen_all(well_conditioned))


def _np_unpack(lu, piv):
    """P L U of a packed LU and LAPACK's pivots."""
    lu = np.asarray(lu)
    n = lu.shape[-1]
    out = []
    for m, p in zip(lu.reshape(-1, n, n), np.asarray(piv).reshape(-1, n)):
        L = np.tril(m, -1) + np.eye(n)
        a = L @ np.triu(m)
        for j in reversed(range(n)):  # undo the swaps, last first
            a[[j, p[j] - 1]] = a[[p[j] - 1, j]]
        out.append(a)
    return np.stack(out).reshape(lu.shape)


# ============================================== composites: multi_dot, vecdot, cond, norms

C("reshape", "multi_dot", lambda a, b, c: LA.multi_dot([a, b, c]), [(2, 3), (3, 4), (4, 2)],
  lambda a, b, c: a @ b @ c, "ViewBackward0")
C("reshape", "multi_dot_vectors", lambda a, b, c, d: LA.multi_dot([a, b, c, d]), [(3,), (3, 4), (4, 2), (2,)],
  lambda a, b, c, d: a @ b @ c @ d, "ViewBackward0")
C("sum", "vecdot", lambda x, y: LA.vecdot(x, y), [(2, 3), (3,)], lambda x, y: (x * y).sum(-1), "SumBackward1")
C("sum", "vecdot_dim", lambda x, y: LA.vecdot(x, y, dim=0), [(3, 2), (3, 2)], lambda x, y: (x * y).sum(0),
  "SumBackward1")
C("squeeze", "cond", lambda x: LA.cond(x), [(3, 3)], lambda x: np.linalg.cond(x), "SqueezeBackward1",
  gen=gen_all(spread))
C("squeeze", "cond_minus_2", lambda x: LA.cond(x, -2), [(2, 4, 3)], lambda x: np.linalg.cond(x, -2),
  "SqueezeBackward1", gen=gen_all(spread))
C("nan_to_num", "cond_fro", lambda x: LA.cond(x, "fro"), [(3, 3)], lambda x: np.linalg.cond(x, "fro"),
  "NanToNumBackward0", gen=gen_all(spread))
C("nan_to_num", "cond_nuc", lambda x: LA.cond(x, "nuc"), [(3, 3)], lambda x: np.linalg.cond(x, "nuc"),
  "NanToNumBackward0", gen=gen_all(spread))
C("amax", "matrix_norm_2", lambda x: LA.matrix_norm(x, 2), [(2, 4, 3)], lambda x: np.linalg.norm(x, 2, axis=(-2, -1)),
  "AmaxBackward0", gen=gen_all(spread))
C("amin", "matrix_norm_minus_2", lambda x: LA.matrix_norm(x, -2, dim=(0, 2), keepdim=True), [(3, 2, 4)],
  lambda x: np.linalg.norm(x, -2, axis=(0, 2), keepdims=True), "PermuteBackward0",
  gen=lambda rng, shapes: [np.moveaxis(spread(rng, (2, 3, 4)), 0, 1)])
C("sum", "matrix_norm_nuc", lambda x: LA.norm(x, "nuc"), [(3, 4)], lambda x: np.linalg.norm(x, "nuc"),
  "SumBackward1", gen=gen_all(spread))


# ================================= cholesky_solve, cholesky_inverse, triangular_solve (torch.*)
# The factor goes through tril/triu: these rows read one triangle, and PyTorch's gradient (also
# ours) is that of the whole matrix L, which finite differences see only on the triangle read.

def lower_factor(l):
    """A well-conditioned lower-triangular factor made from any square l (differentiably)."""
    n = l.shape[-1]
    return l.tril() + 2 * n * ad.eye(n, dtype=l.dtype)


def np_lower_factor(l):
    n = l.shape[-1]
    return np.tril(l) + 2 * n * np.eye(n)


def np_chol_solve(b, l, upper=False):
    """(L L^T)^-1 B (upper: (U^T U)^-1 B), batches broadcast."""
    f = np.swapaxes(l, -1, -2) if upper else l
    a = f @ np.swapaxes(f, -1, -2)
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return np.linalg.solve(np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(b, batch + b.shape[-2:]))


C("cholesky_solve", "lower", lambda b, l: ad.cholesky_solve(b, lower_factor(l)), [(3, 2), (3, 3)],
  lambda b, l: np_chol_solve(b, np_lower_factor(l)), "CholeskySolveBackward0")
C("cholesky_solve", "upper_method_broadcast", lambda b, l: b.cholesky_solve(lower_factor(l).mT, upper=True),
  [(2, 1, 3, 2), (4, 3, 3)], lambda b, l: np_chol_solve(b, np.swapaxes(np_lower_factor(l), -1, -2), True),
  "CholeskySolveBackward0")
C("cholesky_inverse", "lower", lambda l: ad.cholesky_inverse(lower_factor(l)), [(3, 3)],
  lambda l: np.linalg.inv(np_lower_factor(l) @ np_lower_factor(l).T), "CholeskyInverseBackward0")
C("cholesky_inverse", "upper_method_batched", lambda l: lower_factor(l).mT.cholesky_inverse(True), [(2, 3, 3)],
  lambda l: np.linalg.inv(np_lower_factor(l) @ np.swapaxes(np_lower_factor(l), -1, -2)), "CholeskyInverseBackward0")
C("triangular_solve", "upper", quiet(lambda b, a: ad.triangular_solve(b, a).solution), [(3, 2), (3, 3)],
  lambda b, a: np_tri_solve(a, b, True), "TriangularSolveBackward0", gen=gen_all(well_conditioned))
C("triangular_solve", "lower_transpose_broadcast",
  quiet(lambda b, a: ad.triangular_solve(b, a, upper=False, transpose=True)[0]), [(2, 3, 2), (3, 3)],
  lambda b, a: np_tri_solve(np.swapaxes(np.tril(a), -1, -2), b, True), "TriangularSolveBackward0",
  gen=gen_all(well_conditioned))
C("triangular_solve", "unitriangular_method", quiet(lambda b, a: b.triangular_solve(a, unitriangular=True)[0]),
  [(3, 1), (2, 3, 3)], lambda b, a: np_tri_solve(a, b, True, unit=True), "TriangularSolveBackward0",
  gen=gen_all(well_conditioned))
C("triangular_solve_coefficient", "copy_broadcast",
  quiet(lambda b, a: ad.triangular_solve(b, a).cloned_coefficient), [(2, 3, 2), (3, 3)],
  lambda b, a: np.broadcast_to(a, (2, 3, 3)), "TriangularSolveBackward0", requires=[False, True])


# ============================== lu_unpack; the _ex functions, torch.lu, torch.lu_solve (their rows)

def packed_lu(rng, shapes):
    """lu_unpack's (LU, pivots): lu_factor's of a well-conditioned matrix (LU is any matrix to L and U)."""
    lu, piv = np_lu(well_conditioned(rng, shapes[0]))
    return [lu, piv]


def np_unpack_l(lu):
    m, n = lu.shape[-2:]
    return np.tril(lu[..., :, :min(m, n)], -1) + np.eye(m, min(m, n))


def np_unpack_u(lu):
    return np.triu(lu[..., :min(lu.shape[-2:]), :])


C("lu_unpack_l", "square", lambda lu, piv: ad.lu_unpack(lu, piv).L, [(3, 3), (3,)], lambda lu, piv: np_unpack_l(lu),
  "LuUnpackBackward0", gen=packed_lu)
C("lu_unpack_l", "wide_batched", lambda lu, piv: ad.lu_unpack(lu, piv)[1], [(2, 3, 4), (2, 3)],
  lambda lu, piv: np_unpack_l(lu), "LuUnpackBackward0", gen=packed_lu)
C("lu_unpack_u", "square", lambda lu, piv: ad.lu_unpack(lu, piv).U, [(3, 3), (3,)], lambda lu, piv: np_unpack_u(lu),
  "LuUnpackBackward0", gen=packed_lu)
C("lu_unpack_u", "tall", lambda lu, piv: ad.lu_unpack(lu, piv, unpack_pivots=False)[2], [(4, 3), (3,)],
  lambda lu, piv: np_unpack_u(lu), "LuUnpackBackward0", gen=packed_lu)
C("lu_unpack_u", "through_lu_factor_product", lambda a: (lambda p, l, u: p @ l @ u)(*ad.lu_unpack(*LA.lu_factor(a))),
  [(3, 3)], lambda a: a, "MmBackward0", gen=gen_all(well_conditioned))

C("linalg_solve_ex", "matrix", lambda a, b: LA.solve_ex(a, b).result, [(3, 3), (3, 2)],
  lambda a, b: np.linalg.solve(a, b), "LinalgSolveExBackward0", gen=gen_all(well_conditioned))
C("linalg_solve_ex", "right_batched", lambda a, b: LA.solve_ex(a, b, left=False)[0], [(2, 3, 3), (2, 2, 3)],
  lambda a, b: np.swapaxes(np.linalg.solve(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2)), -1, -2),
  "LinalgSolveExBackward0", gen=gen_all(well_conditioned))
C("linalg_solve_ex", "vector_broadcast", lambda a, b: LA.solve_ex(a, b).result, [(2, 3, 3), (3,)],
  lambda a, b: np.linalg.solve(a, np.broadcast_to(b, (2, 3))[..., None])[..., 0], "LinalgSolveExBackward0",
  gen=gen_each(well_conditioned, normal))
C("linalg_inv_ex", "batched", lambda x: LA.inv_ex(x).inverse, [(2, 3, 3)], np.linalg.inv, "LinalgInvExBackward0",
  gen=gen_all(well_conditioned))
C("linalg_cholesky", "cholesky_ex", lambda x: LA.cholesky_ex(spd(x)).L, [(3, 3)],
  lambda x: np.linalg.cholesky(np_spd(x)), "LinalgCholeskyExBackward0")
C("linalg_cholesky", "cholesky_ex_upper_batched", lambda x: LA.cholesky_ex(spd(x), upper=True)[0], [(2, 3, 3)],
  lambda x: np.swapaxes(np.linalg.cholesky(np_spd(x)), -1, -2), "LinalgCholeskyExBackward0")
C("linalg_lu_factor", "lu_factor_ex_wide", lambda x: LA.lu_factor_ex(x).LU, [(3, 4)], lambda x: np_lu(x)[0],
  "LinalgLuFactorExBackward0")
C("linalg_lu_factor", "torch_lu_method", quiet(lambda x: x.lu()[0]), [(2, 3, 3)], lambda x: np_lu(x)[0],
  "LinalgLuFactorExBackward0")
C("linalg_lu_solve", "torch_lu_solve", quiet(lambda a, b: ad.lu_solve(b, *LA.lu_factor(a))), [(3, 3), (3, 2)],
  lambda a, b: np.linalg.solve(a, b), "LinalgLuSolveBackward0", gen=gen_all(well_conditioned))
C("linalg_lu_solve", "method_batched", quiet(lambda a, b: b.lu_solve(*ad.lu(a))), [(2, 3, 3), (2, 3, 1)],
  lambda a, b: np.linalg.solve(a, b), "LinalgLuSolveBackward0", gen=gen_all(well_conditioned))

# ======================================= torch.linalg's composites: vander, diagonal, tensorsolve

C("cat", "vander", lambda x: LA.vander(x), [(4,)], lambda x: np.vander(x, increasing=True), "CatBackward0")
C("cat", "vander_n_batched", lambda x: LA.vander(x, N=3), [(2, 4)],
  lambda x: np.stack([np.vander(r, 3, increasing=True) for r in x]), "CatBackward0")
C("diagonal", "linalg_diagonal", lambda x: LA.diagonal(x, offset=-1, dim1=0, dim2=2), [(3, 2, 4)],
  lambda x: np.diagonal(x, -1, 0, 2), "DiagonalBackward0")
C("reshape", "tensorsolve", lambda a, b: LA.tensorsolve(a, b), [(2, 3, 6), (2, 3)],
  lambda a, b: np.linalg.tensorsolve(a, b), "ViewBackward0",
  gen=lambda rng, shapes: [well_conditioned(rng, (6, 6)).reshape(2, 3, 6), rng.standard_normal((2, 3))])
C("reshape", "tensorsolve_dims", lambda a, b: LA.tensorsolve(a, b, dims=(0,)), [(6, 2, 3), (2, 3)],
  lambda a, b: np.linalg.tensorsolve(a, b, axes=(0,)), "ViewBackward0",
  gen=lambda rng, shapes: [np.moveaxis(well_conditioned(rng, (6, 6)).reshape(2, 3, 6), 2, 0),
                           rng.standard_normal((2, 3))])
