"""Op cases of the rows added with vdot, addmv, addr, slogdet (and its sign), cdist, pdist,
euclidean_dist, at_norm and add_scalar (pairwise_distance's steps), layer_norm and embedding
(see tests/engine/ops/op_cases.py for what a case is); and the cases of other rows that inner,
matrix_power and logdet reach (tensordot's view of a dot or mm, matmul, clone, copy, inverse,
where), with PyTorch's node names."""
import numpy as np

import autodiff.engine as ad
from autodiff.engine.core import apply
from op_cases import C, INF, NAME, away, gen_all, gen_each, normal
from op_cases_linalg import well_conditioned

F = ad.nn.functional
LA = ad.linalg


# ------------------------------------------------------------------ generators

def positive_det(rng, shape):
    """Square matrices near n times the identity: det > 0, far from singular."""
    return well_conditioned(rng, shape)


def negative_det(rng, shape):
    """Well-conditioned matrices with the first row negated: det < 0."""
    a = well_conditioned(rng, shape)
    a[..., 0, :] *= -1
    return a


def spread_rows(rng, shape):
    """Rows whose differences are never near 0 in any column (no kinks of |d| or of the norm)."""
    return away(0.0, margin=0.3)(rng, shape) + np.arange(shape[-2])[:, None] * 5.0


def apart(rng, shapes):
    """Two (small) sets of rows (..., r, c) whose differences in every column stay 0.3 or more
    apart from 0 (drawn again until they do)."""
    while True:
        a, b = rng.uniform(-2, 2, shapes[0]), rng.uniform(-2, 2, shapes[1])
        d = a[..., :, None, :] - b[..., None, :, :]
        if np.min(np.abs(d)) > 0.3:
            return [a, b]


def indices(high, shape):
    return lambda rng, s: rng.integers(0, high, shape)


# ------------------------------------------------------------ numpy references

def np_cdist(a, b, p=2.0):
    d = np.abs(a[..., :, None, :] - b[..., None, :, :])
    if p == INF:
        return d.max(-1)
    if p == 0:
        return (d != 0).sum(-1).astype(a.dtype)
    return (d ** p).sum(-1) ** (1 / p)


def np_pdist(x, p=2.0):
    i, j = np.triu_indices(x.shape[0], 1)
    return np_cdist(x[i][:, None, :], x[j][:, None, :], p)[:, 0, 0]


def np_layer_norm(x, k, w=1.0, b=0.0, eps=1e-5):
    axes = tuple(range(x.ndim - k, x.ndim))
    m = x.mean(axes, keepdims=True)
    v = ((x - m) ** 2).mean(axes, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * w + b


def np_slogdet(x):
    return np.linalg.slogdet(x)[1]


# ========================================================================= vdot, inner

C("vdot", "vectors", lambda a, b: ad.vdot(a, b), [(4,), (4,)], lambda a, b: np.asarray(a @ b), "VdotBackward0")
C("vdot", "method_first_only", lambda a, b: a.vdot(b), [(3,), (3,)], lambda a, b: np.asarray(a @ b),
  "VdotBackward0", requires=(True, False))
C("matmul", "inner_vectors", lambda a, b: ad.inner(a, b), [(3,), (3,)], lambda a, b: np.asarray(a @ b),
  "ViewBackward0")
C("matmul", "inner_matrices", lambda a, b: ad.inner(a, b), [(2, 3), (4, 3)], lambda a, b: a @ b.T,
  "ViewBackward0")
C("matmul", "inner_3d_method", lambda a, b: a.inner(b), [(2, 2, 3), (3,)], lambda a, b: a @ b, "ViewBackward0")
C("mul", "inner_scalar", lambda a, b: ad.inner(a, b), [(), (2, 3)], np.multiply, "MulBackward0")

# ========================================================================= addmv, addr

C("addmv", "basic", lambda x, m, v: ad.addmv(x, m, v), [(2,), (2, 3), (3,)], lambda x, m, v: x + m @ v,
  "AddmvBackward0")
C("addmv", "beta_alpha_broadcast", lambda x, m, v: ad.addmv(x, m, v, beta=0.5, alpha=-2.0), [(1,), (3, 2), (2,)],
  lambda x, m, v: 0.5 * x - 2.0 * (m @ v), "AddmvBackward0")
C("addmv", "beta_zero_method", lambda x, m, v: x.addmv(m, v, beta=0), [(2,), (2, 2), (2,)],
  lambda x, m, v: m @ v, "AddmvBackward0")
C("addmv", "in_place", lambda x, m, v: (x * 1).addmv_(m, v, alpha=3), [(3,), (3, 2), (2,)],
  lambda x, m, v: x + 3 * (m @ v), "AddmvBackward0")
C("addmv", "vec_only", lambda x, m, v: ad.addmv(x, m, v), [(2,), (2, 3), (3,)], lambda x, m, v: x + m @ v,
  "AddmvBackward0", requires=(False, False, True))
C("addr", "basic", lambda x, a, b: ad.addr(x, a, b), [(2, 3), (2,), (3,)], lambda x, a, b: x + np.outer(a, b),
  "AddrBackward0")
C("addr", "beta_alpha_broadcast", lambda x, a, b: ad.addr(x, a, b, beta=2.0, alpha=-0.5), [(3,), (2,), (3,)],
  lambda x, a, b: 2 * x - 0.5 * np.outer(a, b), "AddrBackward0")
C("addr", "in_place_method", lambda x, a, b: (x * 1).addr_(a, b, beta=0.5), [(2, 2), (2,), (2,)],
  lambda x, a, b: 0.5 * x + np.outer(a, b), "AddrBackward0")
C("addr", "beta_zero", lambda x, a, b: x.addr(a, b, beta=0), [(2, 3), (2,), (3,)], lambda x, a, b: np.outer(a, b),
  "AddrBackward0")

# ========================================================================= matrix_power

C("matmul", "matrix_power_2", lambda x: ad.matrix_power(x, 2), [(3, 3)], lambda x: x @ x, "MmBackward0")
C("matmul", "matrix_power_5_method", lambda x: x.matrix_power(5), [(2, 2)],
  lambda x: np.linalg.matrix_power(x, 5), "MmBackward0", gen=gen_all(lambda rng, s: rng.uniform(-0.8, 0.8, s)))
C("matmul", "matrix_power_linalg_4", lambda x: LA.matrix_power(x, 4), [(2, 2)],
  lambda x: np.linalg.matrix_power(x, 4), "MmBackward0", gen=gen_all(lambda rng, s: rng.uniform(-0.8, 0.8, s)))
C("matmul", "matrix_power_minus_3", lambda x: ad.matrix_power(x, -3), [(2, 2)],
  lambda x: np.linalg.matrix_power(x, -3), "MmBackward0", gen=gen_all(well_conditioned))
C("matmul", "matrix_power_batched_3", lambda x: ad.matrix_power(x, 3), [(2, 2, 2)],
  lambda x: np.linalg.matrix_power(x, 3), "UnsafeViewBackward0",
  xfail={"node": NAME + " (batched matmul is UnsafeViewBackward0 in PyTorch)"})
C("inverse", "matrix_power_minus_1", lambda x: ad.matrix_power(x, -1), [(3, 3)], np.linalg.inv,
  "LinalgInvExBackward0", gen=gen_all(well_conditioned))
C("clone", "matrix_power_1", lambda x: ad.matrix_power(x, 1), [(2, 2)], lambda x: x.copy(), "CloneBackward0")
C("copy", "matrix_power_0", lambda x: ad.matrix_power(x, 0), [(2, 3, 3)], lambda x: np.broadcast_to(np.eye(3), x.shape),
  "torch::autograd::CopyBackwards")

# ========================================================================= slogdet, logdet

C("slogdet", "matrix", lambda x: ad.slogdet(x)[1], [(3, 3)], np_slogdet, "LinalgSlogdetBackward0",
  gen=gen_all(negative_det))
C("slogdet", "batched_method", lambda x: x.slogdet().logabsdet, [(2, 3, 3)], np_slogdet, "LinalgSlogdetBackward0",
  gen=gen_all(well_conditioned))
C("slogdet", "linalg", lambda x: LA.slogdet(x)[1], [(2, 2)], np_slogdet, "LinalgSlogdetBackward0",
  gen=gen_all(well_conditioned))
C("slogdet_sign", "sign", lambda x: ad.slogdet(x).sign, [(2, 3, 3)], lambda x: np.linalg.slogdet(x)[0],
  "LinalgSlogdetBackward0", gen=gen_all(negative_det))
C("where", "logdet", lambda x: ad.logdet(x), [(3, 3)], lambda x: np.log(np.linalg.det(x)), "WhereBackward0",
  gen=gen_all(positive_det))
C("where", "logdet_method_batched", lambda x: x.logdet(), [(2, 2, 2)], lambda x: np.log(np.linalg.det(x)),
  "WhereBackward0", gen=gen_all(positive_det))

# ========================================================================= distances

C("cdist", "p2", lambda a, b: ad.cdist(a, b), [(3, 2), (4, 2)], np_cdist, "CdistBackward0", gen=apart)
C("cdist", "p1", lambda a, b: ad.cdist(a, b, p=1), [(2, 3), (3, 3)], lambda a, b: np_cdist(a, b, 1),
  "CdistBackward0", gen=apart)
C("cdist", "p3_batch_broadcast", lambda a, b: ad.cdist(a, b, 3.0), [(2, 2, 2), (3, 2)],
  lambda a, b: np_cdist(a, b, 3), "CdistBackward0", gen=apart)
C("cdist", "p_half", lambda a, b: ad.cdist(a, b, 0.5), [(2, 2), (2, 2)], lambda a, b: np_cdist(a, b, 0.5),
  "CdistBackward0", gen=apart)
C("cdist", "inf", lambda a, b: ad.cdist(a, b, p=INF), [(2, 3), (2, 3)], lambda a, b: np_cdist(a, b, INF),
  "CdistBackward0", gen=lambda rng, s: [rng.uniform(-2, 2, s[0]), rng.uniform(-2, 2, s[1]) + np.array([0, 5, 10.0])])
C("cdist", "p0", lambda a, b: ad.cdist(a, b, p=0), [(2, 2), (3, 2)], lambda a, b: np_cdist(a, b, 0),
  "CdistBackward0", gen=apart)
C("cdist", "x2_only", lambda a, b: ad.cdist(a, b), [(3, 2), (2, 2)], np_cdist, "CdistBackward0", gen=apart,
  requires=(False, True))
C("euclidean_dist", "many_rows", lambda a, b: ad.cdist(a, b), [(26, 2), (3, 2)], np_cdist, "ViewBackward0")
C("euclidean_dist", "mm_mode_batched", lambda a, b: ad.cdist(a, b, compute_mode="use_mm_for_euclid_dist"),
  [(2, 3, 2), (1, 2, 2)], np_cdist, "ViewBackward0")
C("pdist", "p2", lambda x: F.pdist(x), [(4, 3)], np_pdist, "PdistBackward0", gen=gen_all(spread_rows))
C("pdist", "p1", lambda x: ad.pdist(x, 1), [(3, 2)], lambda x: np_pdist(x, 1), "PdistBackward0",
  gen=gen_all(spread_rows))
C("pdist", "p_1_5", lambda x: F.pdist(x, p=1.5), [(3, 3)], lambda x: np_pdist(x, 1.5), "PdistBackward0",
  gen=gen_all(spread_rows))
C("at_norm", "pairwise_distance", lambda a, b: F.pairwise_distance(a, b), [(2, 3), (2, 3)],
  lambda a, b: np.sqrt(((a - b + 1e-6) ** 2).sum(-1)), "NormBackward1")
C("at_norm", "pairwise_distance_p1_keepdim", lambda a, b: F.pairwise_distance(a, b, p=1, keepdim=True),
  [(3, 2), (2,)], lambda a, b: np.abs(a - b + 1e-6).sum(-1, keepdims=True), "NormBackward1",
  gen=lambda rng, s: [rng.uniform(1, 2, s[0]), rng.uniform(-2, -1, s[1])])
C("at_norm", "pairwise_distance_p3_vectors", lambda a, b: ad.pairwise_distance(a, b, 3.0, eps=0.0), [(4,), (4,)],
  lambda a, b: np.asarray((np.abs(a - b) ** 3).sum() ** (1 / 3)), "NormBackward1",
  gen=lambda rng, s: [rng.uniform(1, 2, s[0]), rng.uniform(-2, -1, s[1])])
# pairwise_distance's first step, x1 - x2 + eps, alone
C("add_scalar", "plus_number", lambda x: apply(ad.OPS["add_scalar"], x, value=0.25), [(2, 2)],
  lambda x: x + 0.25, "AddBackward1")


# ========================================================================= layer_norm, embedding

C("layer_norm", "last_dim", lambda x: F.layer_norm(x, (3,)), [(2, 3)], lambda x: np_layer_norm(x, 1),
  "NativeLayerNormBackward0")
C("layer_norm", "affine", lambda x, w, b: F.layer_norm(x, (3,), w, b), [(2, 3), (3,), (3,)],
  lambda x, w, b: np_layer_norm(x, 1, w, b), "NativeLayerNormBackward0")
C("layer_norm", "two_dims_eps_weight_only", lambda x, w: F.layer_norm(x, [2, 2], w, eps=0.1), [(3, 2, 2), (2, 2)],
  lambda x, w: np_layer_norm(x, 2, w, eps=0.1), "NativeLayerNormBackward0")
C("layer_norm", "bias_only_1d", lambda x, b: F.layer_norm(x, (4,), None, b), [(4,), (4,)],
  lambda x, b: np_layer_norm(x, 1, 1.0, b), "NativeLayerNormBackward0")
C("layer_norm", "module", lambda x: ad.nn.LayerNorm(3)(x), [(2, 2, 3)], lambda x: np_layer_norm(x, 1),
  "NativeLayerNormBackward0")
C("embedding", "matrix_of_indices", lambda w, i: F.embedding(i, w), [(5, 3), (2, 3)], lambda w, i: w[i],
  "EmbeddingBackward0", gen=gen_each(normal, indices(5, (2, 3))))
# No gradient reaches the padding row, whatever its values: the same function as one whose padding
# row is a constant (where(row 1, 0, w)), which differences can check
C("embedding", "padding_idx", lambda w, i: F.embedding(i, ad.where(_row(4, 1), 0.0, w), padding_idx=1),
  [(4, 2), (5,)], lambda w, i: np.where((np.arange(4) == 1)[:, None], 0.0, w)[i], "EmbeddingBackward0",
  gen=lambda rng, s: [rng.standard_normal(s[0]), np.array([0, 1, 3, 1, 0])])
# scale_grad_by_freq divides each row's gradient by its count in the call -- not a derivative, so
# differences check it where each index occurs once (tests/engine/ops/test_lin_ops.py: repeated, as PyTorch)
C("embedding", "scale_grad_by_freq_distinct", lambda w, i: F.embedding(i, w, scale_grad_by_freq=True), [(4, 2), (3,)],
  lambda w, i: w[i], "EmbeddingBackward0", gen=lambda rng, s: [rng.standard_normal(s[0]), np.array([2, 0, 3])])
C("embedding", "scalar_index_negative_padding", lambda w, i: F.embedding(i, w, padding_idx=-1), [(3, 2), ()],
  lambda w, i: w[i], "EmbeddingBackward0", gen=lambda rng, s: [rng.standard_normal(s[0]), np.array(1)])


def _row(n, r):
    """A (n, 1) bool column, true at row r."""
    return ad.tensor((np.arange(n) == r)[:, None])
