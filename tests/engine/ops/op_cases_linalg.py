"""Op cases of the linalg rows (see tests/engine/ops/op_cases.py for what a case is):
addmm, bmm (the matmul row), addbmm, einsum, kron, trace, cross, inverse, linalg_solve,
det; and the cases of other rows that the linear-algebra functions reach (outer
is a mul; one-operand einsums are diagonal/permute/sum, as in PyTorch; the
torch.linalg norms are norm/amax/amin)."""
import warnings

import numpy as np

import autodiff.engine as ad
from op_cases import C, INF, away, distinct_abs, gen_all, gen_each, normal

LA = ad.linalg

# ------------------------------------------------------------------ generators


def well_conditioned(rng, shape):
    """Square matrices (batches too) near n times the identity: far from singular."""
    n = shape[-1]
    return rng.standard_normal(shape) + n * np.eye(n)


def singular(rng, shape):
    """Square matrices of rank n - 1 (the last row the sum of the others, exactly)."""
    a = rng.integers(-3, 4, shape).astype(np.float64)
    a[..., -1, :] = a[..., :-1, :].sum(axis=-2)
    return a


def rank_one(rng, shape):
    """Square matrices of rank 1: every 2 x 2 minor is singular too."""
    u = rng.integers(-3, 4, shape[:-1] + (1,)).astype(np.float64)
    v = rng.integers(1, 4, shape[:-2] + (1, shape[-1])).astype(np.float64)
    return u * v


def one_singular(rng, shape):
    """A batch of two: a singular matrix and a regular one (both det formulas in one call)."""
    return np.stack([singular(rng, shape[1:]), well_conditioned(rng, shape[1:])])


# ------------------------------------------------------------ numpy references


def np_addmm(x, a, b, beta=1, alpha=1):
    return beta * x + alpha * (a @ b)


def np_solve(a, b):
    vector = b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])
    if vector:
        return np.linalg.solve(a, b[..., None])[..., 0]
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return np.linalg.solve(np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(b, batch + b.shape[-2:]))


def np_solve_right(a, b):
    """X with X A = B: (A^T X^T = B^T)^T."""
    return np.swapaxes(np_solve(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)


def np_trace(x):
    return np.asarray(np.trace(x))


def np_vector_norm(x, p=2, axis=None, keepdims=False):
    a = np.abs(x)
    if p == INF:
        return np.max(a, axis=axis, keepdims=keepdims)
    if p == -INF:
        return np.min(a, axis=axis, keepdims=keepdims)
    return np.sum(a ** p, axis=axis, keepdims=keepdims) ** (1.0 / p)


def torch_cross_without_dim(a, b):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # PyTorch's deprecation warning: expected
        return ad.cross(a, b)


# ======================================================================= addmm

C("addmm", "basic", lambda x, a, b: ad.addmm(x, a, b), [(2, 2), (2, 3), (3, 2)], np_addmm, "AddmmBackward0")
C("addmm", "beta_alpha", lambda x, a, b: ad.addmm(x, a, b, beta=0.5, alpha=2.0), [(2, 4), (2, 3), (3, 4)],
  lambda x, a, b: np_addmm(x, a, b, 0.5, 2.0), "AddmmBackward0")
C("addmm", "bias_row", lambda x, a, b: ad.addmm(x, a, b), [(2,), (3, 4), (4, 2)], np_addmm, "AddmmBackward0")
C("addmm", "bias_number_like", lambda x, a, b: ad.addmm(x, a, b, alpha=-1.5), [(), (2, 3), (3, 2)],
  lambda x, a, b: np_addmm(x, a, b, 1, -1.5), "AddmmBackward0")
C("addmm", "beta_zero", lambda x, a, b: ad.addmm(x, a, b, beta=0), [(2, 2), (2, 3), (3, 2)],
  lambda x, a, b: a @ b, "AddmmBackward0")
C("addmm", "method", lambda x, a, b: x.addmm(a, b, beta=-1.0), [(3, 2), (3, 3), (3, 2)],
  lambda x, a, b: np_addmm(x, a, b, -1.0), "AddmmBackward0")
C("addmm", "in_place", lambda x, a, b: (x * 1).addmm_(a, b, alpha=0.5), [(2, 2), (2, 3), (3, 2)],
  lambda x, a, b: np_addmm(x, a, b, 1, 0.5), "AddmmBackward0")
C("addmm", "mats_only", lambda x, a, b: ad.addmm(x, a, b), [(2, 2), (2, 3), (3, 2)], np_addmm, "AddmmBackward0",
  requires=(False, True, True))
C("addmm", "mat2_only", lambda x, a, b: ad.addmm(x, a, b, alpha=3.0), [(2, 2), (2, 3), (3, 2)],
  lambda x, a, b: np_addmm(x, a, b, 1, 3.0), "AddmmBackward0", requires=(False, False, True))
# addbmm: the products of the batch summed (its own row)
C("addbmm", "basic", lambda x, a, b: ad.addbmm(x, a, b), [(3, 2), (4, 3, 5), (4, 5, 2)],
  lambda x, a, b: x + (a @ b).sum(0), "AddbmmBackward0")
C("addbmm", "factors_broadcast_method", lambda x, a, b: x.addbmm(a, b, beta=0.5, alpha=-2.0),
  [(2,), (3, 2, 3), (3, 3, 2)], lambda x, a, b: 0.5 * x - 2.0 * (a @ b).sum(0), "AddbmmBackward0")
C("addbmm", "in_place", lambda x, a, b: (x * 1).addbmm_(a, b, alpha=1.5), [(2, 2), (1, 2, 3), (1, 3, 2)],
  lambda x, a, b: x + 1.5 * (a @ b).sum(0), "AddbmmBackward0")
C("addbmm", "beta_zero_batches_only", lambda x, a, b: ad.addbmm(x, a, b, beta=0), [(2, 2), (2, 2, 3), (2, 3, 2)],
  lambda x, a, b: (a @ b).sum(0), "AddbmmBackward0", requires=(False, True, True))
# baddbmm: the same row over batches of matrices
C("addmm", "baddbmm", lambda x, a, b: ad.baddbmm(x, a, b), [(2, 3, 2), (2, 3, 4), (2, 4, 2)], np_addmm,
  "BaddbmmBackward0")
C("addmm", "baddbmm_factors_broadcast", lambda x, a, b: x.baddbmm(a, b, beta=0.5, alpha=-2.0), [(2,), (3, 2, 3), (3, 3, 2)],
  lambda x, a, b: np_addmm(x, a, b, 0.5, -2.0), "BaddbmmBackward0")
C("addmm", "baddbmm_in_place", lambda x, a, b: (x * 1).baddbmm_(a, b, alpha=3), [(2, 2, 2), (2, 2, 3), (2, 3, 2)],
  lambda x, a, b: np_addmm(x, a, b, 1, 3), "BaddbmmBackward0")

# ======================================================================= bmm

C("matmul", "bmm", lambda a, b: ad.bmm(a, b), [(2, 2, 3), (2, 3, 4)], np.matmul, "BmmBackward0")
C("matmul", "bmm_method", lambda a, b: a.bmm(b), [(3, 1, 2), (3, 2, 2)], np.matmul, "BmmBackward0")

# ======================================================================= einsum

C("einsum", "matmul", lambda a, b: ad.einsum("ij,jk->ik", a, b), [(2, 3), (3, 2)],
  lambda a, b: np.einsum("ij,jk->ik", a, b), "ViewBackward0")
C("einsum", "transposed", lambda a, b: ad.einsum("ij,kj->ik", a, b), [(2, 3), (4, 3)],
  lambda a, b: a @ b.T, "ViewBackward0")
C("einsum", "output_order", lambda a, b: ad.einsum("ij,jk->ki", a, b), [(2, 3), (3, 4)],
  lambda a, b: (a @ b).T, "ViewBackward0")
C("einsum", "outer", lambda a, b: ad.einsum("i,j->ij", a, b), [(3,), (2,)], np.outer, "MulBackward0")
C("einsum", "elementwise", lambda a, b: ad.einsum("ij,ij->ij", a, b), [(2, 3), (2, 3)], np.multiply,
  "MulBackward0")
C("einsum", "frobenius", lambda a, b: ad.einsum("ij,ij->", a, b), [(2, 3), (2, 3)],
  lambda a, b: np.asarray(np.sum(a * b)), "ViewBackward0")
C("einsum", "dot_implicit", lambda a, b: ad.einsum("i,i", a, b), [(4,), (4,)],
  lambda a, b: np.asarray(a @ b), "ViewBackward0")
C("einsum", "implicit_list", lambda a, b: ad.einsum("ij,jk", [a, b]), [(2, 3), (3, 2)], np.matmul,
  "ViewBackward0")
C("einsum", "diagonal_operand", lambda a, b: ad.einsum("ii,i->i", a, b), [(3, 3), (3,)],
  lambda a, b: np.diagonal(a) * b, "MulBackward0")
C("einsum", "diagonal_contracted", lambda a, b: ad.einsum("iij,jk->ik", a, b), [(2, 2, 3), (3, 2)],
  lambda a, b: np.einsum("iij,jk->ik", a, b), "ViewBackward0")
C("einsum", "trace_of_product", lambda a, b: ad.einsum("ij,ji->", a, b), [(2, 3), (3, 2)],
  lambda a, b: np.asarray(np.trace(a @ b)), "ViewBackward0")
C("einsum", "summed_alone", lambda a, b: ad.einsum("ij,k->ik", a, b), [(2, 3), (4,)],
  lambda a, b: np.einsum("ij,k->ik", a, b), "ViewBackward0")
C("einsum", "batched", lambda a, b: ad.einsum("bij,bjk->bik", a, b), [(2, 2, 3), (2, 3, 2)], np.matmul,
  "ViewBackward0")
C("einsum", "ellipsis_broadcast", lambda a, b: ad.einsum("...ij,...jk->...ik", a, b), [(2, 2, 3), (3, 2)],
  np.matmul, "ViewBackward0")
C("einsum", "ellipsis_summed", lambda a, b: ad.einsum("...i,i->i", a, b), [(2, 3), (3,)],
  lambda a, b: a.sum(0) * b, "ViewBackward0")
C("einsum", "size_one_broadcast", lambda a, b: ad.einsum("ij,ij->ij", a, b), [(1, 3), (2, 3)], np.multiply,
  "MulBackward0")
C("einsum", "scalar_operand", lambda a, b: ad.einsum("i,->i", a, b), [(3,), ()], np.multiply, "MulBackward0")
C("einsum", "three_operands", lambda a, b, c: ad.einsum("ij,jk,kl->il", a, b, c), [(2, 3), (3, 2), (2, 2)],
  lambda a, b, c: a @ b @ c, "ViewBackward0")
C("einsum", "bilinear", lambda a, m, b: ad.einsum("i,ij,j->", a, m, b), [(2,), (2, 3), (3,)],
  lambda a, m, b: np.asarray(a @ m @ b), "ViewBackward0")
C("einsum", "contracted_early", lambda a, b, c: ad.einsum("ij,jk,k->ik", a, b, c), [(2, 3), (3, 2), (2,)],
  lambda a, b, c: (a @ b) * c, "ViewBackward0")
C("einsum", "same_operand_twice", lambda a: ad.einsum("ij,ij->i", a, a), [(2, 3)],
  lambda a: np.sum(a * a, axis=1), "ViewBackward0")
C("einsum", "sublists", lambda a, b: ad.einsum(a, [0, 1], b, [1, 2], [0, 2]), [(2, 3), (3, 2)], np.matmul,
  "ViewBackward0")
C("einsum", "second_only", lambda a, b: ad.einsum("ij,jk->ik", a, b), [(2, 3), (3, 2)], np.matmul,
  "ViewBackward0", requires=(False, True))
# one operand: PyTorch's diagonal / permute / sum (so these are cases of those rows)
C("sum", "einsum_trace", lambda a: ad.einsum("ii", a), [(3, 3)], lambda a: np.asarray(np.trace(a)),
  "SumBackward1")
C("sum", "einsum_column_sums", lambda a: ad.einsum("ij->j", a), [(2, 3)], lambda a: a.sum(0), "SumBackward1")
C("permute", "einsum_transpose", lambda a: ad.einsum("ij->ji", a), [(2, 3)], np.transpose, "PermuteBackward0")
C("permute", "einsum_identity", lambda a: ad.einsum("...", a), [(2, 3)], lambda a: a.copy(), "PermuteBackward0")
C("diagonal", "einsum_diagonal", lambda a: ad.einsum("ii->i", a), [(3, 3)], lambda a: np.diagonal(a).copy(),
  "PermuteBackward0")

# ======================================================================= kron

C("kron", "matrices", lambda a, b: ad.kron(a, b), [(2, 2), (1, 3)], np.kron, "UnsafeViewBackward0")
C("kron", "vectors", lambda a, b: ad.kron(a, b), [(3,), (2,)], np.kron, "UnsafeViewBackward0")
C("kron", "mixed_dims", lambda a, b: a.kron(b), [(3,), (2, 2)], np.kron, "UnsafeViewBackward0")
C("kron", "scalar", lambda a, b: ad.kron(a, b), [(), (2, 3)], np.kron, "UnsafeViewBackward0")
C("kron", "three_dims", lambda a, b: ad.kron(a, b), [(2, 1, 2), (1, 2, 2)], np.kron, "UnsafeViewBackward0",
  requires=(True, False))

# ======================================================================= trace

C("trace", "square", lambda x: ad.trace(x), [(3, 3)], np_trace, "TraceBackward0")
C("trace", "tall", lambda x: x.trace(), [(4, 2)], np_trace, "TraceBackward0")
C("trace", "wide", lambda x: ad.trace(x), [(2, 4)], np_trace, "TraceBackward0")
C("trace", "row", lambda x: ad.trace(x), [(1, 3)], np_trace, "TraceBackward0")

# ======================================================================= cross

C("cross", "dim1", lambda a, b: ad.cross(a, b, dim=1), [(2, 3), (2, 3)], lambda a, b: np.cross(a, b, axis=1),
  "LinalgCrossBackward0")
C("cross", "dim0_method", lambda a, b: a.cross(b, dim=0), [(3, 2), (3, 2)], lambda a, b: np.cross(a, b, axis=0),
  "LinalgCrossBackward0")
C("cross", "linalg", lambda a, b: LA.cross(a, b), [(2, 3), (2, 3)], np.cross, "LinalgCrossBackward0")
C("cross", "linalg_broadcast", lambda a, b: LA.cross(a, b), [(1, 3), (4, 3)], np.cross, "LinalgCrossBackward0")
C("cross", "no_dim", torch_cross_without_dim, [(3, 2), (3, 2)], lambda a, b: np.cross(a, b, axis=0),
  "LinalgCrossBackward0")
C("cross", "vectors_second_only", lambda a, b: ad.cross(a, b, dim=0), [(3,), (3,)], np.cross,
  "LinalgCrossBackward0", requires=(False, True))

# ======================================================================= outer (a mul)

C("mul", "outer_method", lambda a, b: a.outer(b), [(3,), (2,)], np.outer, "MulBackward0")
C("mul", "ger", lambda a, b: ad.ger(a, b), [(2,), (3,)], np.outer, "MulBackward0")
C("mul", "ger_method", lambda a, b: a.ger(b), [(3,), (3,)], np.outer, "MulBackward0")

# ===================================================================== inverse

C("inverse", "matrix", lambda x: ad.inverse(x), [(3, 3)], np.linalg.inv, "LinalgInvExBackward0",
  gen=gen_all(well_conditioned))
C("inverse", "batched_method", lambda x: x.inverse(), [(2, 3, 3)], np.linalg.inv, "LinalgInvExBackward0",
  gen=gen_all(well_conditioned))
C("inverse", "linalg_inv", lambda x: LA.inv(x), [(2, 2)], np.linalg.inv, "LinalgInvExBackward0",
  gen=gen_all(well_conditioned))

# ================================================================= linalg.solve

C("linalg_solve", "matrix_rhs", lambda a, b: LA.solve(a, b), [(3, 3), (3, 2)], np_solve,
  "LinalgSolveExBackward0", gen=gen_each(well_conditioned, normal))
C("linalg_solve", "vector_rhs", lambda a, b: LA.solve(a, b), [(3, 3), (3,)], np_solve,
  "LinalgSolveExBackward0", gen=gen_each(well_conditioned, normal))
C("linalg_solve", "batched_vectors", lambda a, b: LA.solve(a, b), [(2, 3, 3), (2, 3)], np_solve,
  "LinalgSolveExBackward0", gen=gen_each(well_conditioned, normal))
C("linalg_solve", "vector_over_batch", lambda a, b: LA.solve(a, b), [(2, 2, 2), (2,)], np_solve,
  "LinalgSolveExBackward0", gen=gen_each(well_conditioned, normal))
C("linalg_solve", "rhs_over_batch", lambda a, b: LA.solve(a, b), [(2, 3, 3), (3, 2)], np_solve,
  "LinalgSolveExBackward0", gen=gen_each(well_conditioned, normal))
C("linalg_solve", "matrix_over_batch", lambda a, b: LA.solve(a, b), [(2, 2), (3, 2, 1)], np_solve,
  "LinalgSolveExBackward0", gen=gen_each(well_conditioned, normal))
C("linalg_solve", "rhs_only", lambda a, b: LA.solve(a, b), [(3, 3), (3, 2)], np_solve,
  "LinalgSolveExBackward0", gen=gen_each(well_conditioned, normal), requires=(False, True))
C("linalg_solve", "matrix_only", lambda a, b: LA.solve(a, b), [(3, 3), (3,)], np_solve,
  "LinalgSolveExBackward0", gen=gen_each(well_conditioned, normal), requires=(True, False))
C("linalg_solve", "right", lambda a, b: LA.solve(a, b, left=False), [(3, 3), (2, 3)], np_solve_right,
  "LinalgSolveExBackward0", gen=gen_each(well_conditioned, normal))
C("linalg_solve", "right_over_batch", lambda a, b: LA.solve(a, b, left=False), [(2, 3, 3), (4, 3)],
  np_solve_right, "LinalgSolveExBackward0", gen=gen_each(well_conditioned, normal))
C("linalg_solve", "right_matrix_only", lambda a, b: LA.solve(a, b, left=False), [(2, 2), (3, 2)],
  np_solve_right, "LinalgSolveExBackward0", gen=gen_each(well_conditioned, normal), requires=(True, False))

# ========================================================================= det

C("det", "matrix", lambda x: ad.det(x), [(3, 3)], np.linalg.det, "LinalgDetBackward0")
C("det", "batched_method", lambda x: x.det(), [(2, 3, 3)], np.linalg.det, "LinalgDetBackward0")
C("det", "one_by_one", lambda x: ad.det(x), [(1, 1)], np.linalg.det, "LinalgDetBackward0")
C("det", "linalg_det", lambda x: LA.det(x), [(2, 2)], np.linalg.det, "LinalgDetBackward0")
# At a singular matrix the gradient is the cofactor matrix; a step of 1e-6 away from it the
# gradient is det A^-T, whose rounding (about 1e-10 there) the differences would blow up to 1e-4.
# det is a polynomial of degree n, its gradient of degree n - 1 <= 2: central differences with a
# step of 1e-3 are exact for it but for rounding.
NEAR_SINGULAR = {"eps": 1e-3}
C("det", "singular", lambda x: ad.det(x), [(3, 3)], np.linalg.det, "LinalgDetBackward0", gen=gen_all(singular),
  check_kw=NEAR_SINGULAR)
C("det", "rank_one", lambda x: ad.det(x), [(3, 3)], np.linalg.det, "LinalgDetBackward0", gen=gen_all(rank_one),
  check_kw=NEAR_SINGULAR)
C("det", "zero_2x2", lambda x: ad.det(x), [(2, 2)], np.linalg.det, "LinalgDetBackward0",
  gen=lambda rng, s: [np.zeros(s[0])], check_kw=NEAR_SINGULAR)
C("det", "one_singular_in_batch", lambda x: ad.det(x), [(2, 3, 3)], np.linalg.det, "LinalgDetBackward0",
  gen=gen_all(one_singular), check_kw=NEAR_SINGULAR)

# ============================================================ torch.linalg norms

C("norm", "linalg_vector_norm", lambda x: LA.vector_norm(x), [(2, 3)], np_vector_norm,
  "LinalgVectorNormBackward0")
C("norm", "linalg_vector_norm_dim", lambda x: LA.vector_norm(x, ord=3, dim=1, keepdim=True), [(2, 3)],
  lambda x: np_vector_norm(x, 3, 1, True), "LinalgVectorNormBackward0", gen=gen_all(away(0.0)))
C("norm", "linalg_vector_norm_neg_inf", lambda x: LA.vector_norm(x, ord=-INF, dim=0), [(3, 2)],
  lambda x: np_vector_norm(x, -INF, 0), "LinalgVectorNormBackward0", gen=gen_all(distinct_abs))
C("norm", "linalg_matrix_norm_fro", lambda x: LA.matrix_norm(x), [(2, 3, 2)],
  lambda x: np_vector_norm(x, 2, (1, 2)), "LinalgVectorNormBackward0")
C("amax", "linalg_matrix_norm_1", lambda x: LA.matrix_norm(x, ord=1), [(3, 2)],
  lambda x: np.asarray(np.abs(x).sum(0).max()), "AmaxBackward0", gen=gen_all(distinct_abs))
C("amax", "linalg_matrix_norm_inf_keepdim", lambda x: LA.matrix_norm(x, ord=INF, keepdim=True), [(2, 2, 3)],
  lambda x: np.abs(x).sum(2, keepdims=True).max(1, keepdims=True), "AmaxBackward0", gen=gen_all(distinct_abs))
C("amin", "linalg_matrix_norm_neg_1", lambda x: LA.matrix_norm(x, ord=-1, dim=(1, 0)), [(2, 3)],
  lambda x: np.asarray(np.abs(x).sum(1).min()), "AminBackward0", gen=gen_all(distinct_abs))
C("norm", "linalg_norm", lambda x: LA.norm(x), [(2, 2, 2)], np_vector_norm, "LinalgVectorNormBackward0")
C("norm", "linalg_norm_dim", lambda x: LA.norm(x, dim=-1), [(2, 3)], lambda x: np_vector_norm(x, 2, -1),
  "LinalgVectorNormBackward0")
C("amax", "linalg_norm_matrix_inf", lambda x: LA.norm(x, ord=INF), [(3, 3)],
  lambda x: np.asarray(np.abs(x).sum(1).max()), "AmaxBackward0", gen=gen_all(distinct_abs))
