"""Op cases of the Householder-QR rows (see tests/engine/ops/op_cases.py for what a case is): geqrf's
a and tau, householder_product (torch.orgqr, torch.linalg.householder_product) and ormqr.

The references are written here, another way than the kernels: geqrf is Householder's QR column by
column with LAPACK's dlarfg convention (beta = -sign(alpha) |x|, tau = (beta - alpha) / beta,
v = x / (alpha - beta), tau = 0 where nothing is below the diagonal), each matrix of a batch in
turn; Q is the explicit product of the reflector matrices I - tau_i v_i v_i^T, multiplied from the
first (the kernels apply them to a matrix, from the last). Node names are PyTorch 2.13's. PyTorch
has no derivative for geqrf: its cases' gradient checks fail as PyTorch's (tests/engine/test_householder.py
checks the message)."""
import numpy as np

import autodiff.engine as ad
from op_cases import C

_NO_DERIVATIVE = ("PyTorch has no derivative for geqrf (GeqrfBackward0 raises \"the derivative for 'geqrf' is not "
                  "implemented.\"), nor has the engine (tests/engine/test_householder.py checks the message)")


# ----------------------------------------------------------------------------- references

def _householder_qr(a):
    """(a, tau) of one matrix: LAPACK's geqrf written out, a column at a time."""
    a = np.array(a, dtype=np.float64)
    m, n = a.shape
    k = min(m, n)
    tau = np.zeros(k)
    for i in range(k):
        alpha, x = a[i, i], a[i + 1:, i]
        norm = np.sqrt(np.sum(x * x))
        if norm == 0.0:
            continue  # H_i = I: tau 0, the column as it is
        beta = -np.copysign(np.hypot(alpha, norm), alpha)
        tau[i] = (beta - alpha) / beta
        v = np.concatenate([[1.0], x / (alpha - beta)])
        a[i, i] = beta
        a[i + 1:, i] = v[1:]
        a[i:, i + 1:] -= tau[i] * np.outer(v, v @ a[i:, i + 1:])
    return a, tau


def _each_matrix(f, *arrays):
    """f on each matrix of a batch (the arrays' leading dims), results stacked back."""
    batch = arrays[0].shape[:-2]
    parts = [f(*(x[index] for x in arrays)) for index in np.ndindex(*batch)]
    if isinstance(parts[0], tuple):
        return tuple(np.stack(p).reshape(batch + p[0].shape) for p in zip(*parts))
    return np.stack(parts).reshape(batch + parts[0].shape)


def np_geqrf(a):
    return _each_matrix(_householder_qr, a) if a.ndim > 2 else _householder_qr(a)


def _full_q(a, tau):
    """H_1 H_2 ... H_k (m x m) of one matrix's reflectors, multiplied out from the first."""
    m = a.shape[0]
    q = np.eye(m)
    for i in range(tau.shape[0]):
        v = np.zeros(m)
        v[i] = 1.0
        v[i + 1:] = a[i + 1:, i]
        q = q @ (np.eye(m) - tau[i] * np.outer(v, v))
    return q


def np_full_q(a, tau):
    """Q (mn x mn) of reflectors (a, tau), batched over leading dims."""
    return _each_matrix(_full_q, a, tau) if a.ndim > 2 else _full_q(a, tau)


def np_householder_product(a, tau):
    return np_full_q(a, tau)[..., :, :a.shape[-1]]


def np_ormqr(a, tau, c, left=True, transpose=False):
    q = np_full_q(a, tau)
    if transpose:
        q = np.swapaxes(q, -1, -2)
    return q @ c if left else c @ q


# ----------------------------------------------------------------------------------- cases

C("geqrf", "a_tall", lambda x: ad.geqrf(x).a, [(5, 3)], lambda x: np_geqrf(x)[0], "GeqrfBackward0",
  xfail={"grad": _NO_DERIVATIVE, "gradgrad": _NO_DERIVATIVE})
C("geqrf", "a_wide_method", lambda x: x.geqrf()[0], [(3, 5)], lambda x: np_geqrf(x)[0], "GeqrfBackward0",
  xfail={"grad": _NO_DERIVATIVE, "gradgrad": _NO_DERIVATIVE})
C("geqrf", "a_batched", lambda x: ad.geqrf(x)[0], [(2, 3, 4, 4)], lambda x: np_geqrf(x)[0], "GeqrfBackward0",
  xfail={"grad": _NO_DERIVATIVE, "gradgrad": _NO_DERIVATIVE})
C("geqrf_tau", "tall", lambda x: ad.geqrf(x).tau, [(5, 3)], lambda x: np_geqrf(x)[1], "GeqrfBackward0",
  xfail={"grad": _NO_DERIVATIVE, "gradgrad": _NO_DERIVATIVE})
C("geqrf_tau", "square_batched_method", lambda x: x.geqrf()[1], [(2, 4, 4)], lambda x: np_geqrf(x)[1],
  "GeqrfBackward0", xfail={"grad": _NO_DERIVATIVE, "gradgrad": _NO_DERIVATIVE})

_HP = "LinalgHouseholderProductBackward0"
C("linalg_householder_product", "linalg", lambda a, t: ad.linalg.householder_product(a, t), [(5, 3), (3,)],
  np_householder_product, _HP)
C("linalg_householder_product", "fewer_reflectors", lambda a, t: ad.orgqr(a, t), [(5, 4), (2,)],
  np_householder_product, _HP)
C("linalg_householder_product", "square_method", lambda a, t: a.orgqr(t), [(4, 4), (4,)], np_householder_product,
  _HP)
C("linalg_householder_product", "batched", lambda a, t: ad.linalg.householder_product(a, t), [(2, 4, 3), (2, 3)],
  np_householder_product, _HP)
C("linalg_householder_product", "of_geqrf", lambda a, t: ad.linalg.householder_product(a, t), [(4, 3), (3,)],
  np_householder_product, _HP, gen=lambda rng, s: list(np_geqrf(rng.standard_normal(s[0]))))
C("linalg_householder_product", "tau_only", lambda a, t: ad.orgqr(a, t), [(4, 3), (3,)], np_householder_product,
  _HP, requires=(False, True))

C("ormqr", "left", lambda a, t, c: ad.ormqr(a, t, c), [(4, 3), (3,), (4, 2)], np_ormqr, "OrmqrBackward0")
C("ormqr", "left_transpose_method", lambda a, t, c: a.ormqr(t, c, transpose=True), [(4, 3), (3,), (4, 2)],
  lambda a, t, c: np_ormqr(a, t, c, transpose=True), "OrmqrBackward0")
C("ormqr", "right", lambda a, t, c: ad.ormqr(a, t, c, left=False), [(4, 2), (2,), (3, 4)],
  lambda a, t, c: np_ormqr(a, t, c, left=False), "OrmqrBackward0")
C("ormqr", "right_transpose", lambda a, t, c: ad.ormqr(a, t, c, False, True), [(3, 3), (3,), (2, 3)],
  lambda a, t, c: np_ormqr(a, t, c, left=False, transpose=True), "OrmqrBackward0")
C("ormqr", "wide_input", lambda a, t, c: ad.ormqr(a, t, c), [(3, 5), (3,), (3, 2)], np_ormqr, "OrmqrBackward0")
C("ormqr", "batched", lambda a, t, c: ad.ormqr(a, t, c, transpose=True), [(2, 4, 3), (2, 3), (2, 4, 3)],
  lambda a, t, c: np_ormqr(a, t, c, transpose=True), "OrmqrBackward0")
C("ormqr", "other_only", lambda a, t, c: ad.ormqr(a, t, c, left=False), [(4, 3), (3,), (2, 4)],
  lambda a, t, c: np_ormqr(a, t, c, left=False), "OrmqrBackward0", requires=(False, False, True))
