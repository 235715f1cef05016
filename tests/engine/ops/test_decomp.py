"""The decompositions of torch.linalg beyond their op cases (tests/engine/ops/op_cases_decomp.py):
the identities that define them (Q R = A with Q orthonormal, L L^T = A, U diag(S) Vh = A, P L U = A,
exp(A) exp(-A) = I, the Penrose conditions...), on batches, rectangular shapes and float32; the
named results; PyTorch's errors in its words; and the names in the language."""
import math
import zlib

import numpy as np
import pytest

import autodiff.engine as ad
from programs import run_program

LA = ad.linalg
RNG = np.random.default_rng(29)


@pytest.fixture(autouse=True)
def _rng_of_this_test(request):
    """Each test draws from a generator of its own name: its matrices are the same whichever tests
    run before it (-k, -n, another order), so a draw that passed once passes every time."""
    global RNG
    RNG = np.random.default_rng([29, zlib.crc32(request.node.name.encode())])


def arr(t):
    return np.asarray(t.detach())


def close(a, b, tol=1e-10):
    np.testing.assert_allclose(arr(a) if isinstance(a, ad.Tensor) else a, arr(b) if isinstance(b, ad.Tensor) else b,
                               rtol=tol, atol=tol)


def eye_like(shape):
    return np.broadcast_to(np.eye(shape[-1]), shape)


@pytest.mark.parametrize("shape,mode", [((5, 3), "reduced"), ((3, 5), "reduced"), ((2, 5, 3), "complete"),
                                        ((2, 3, 3), "r")])
def test_qr_reconstructs_with_orthonormal_q_and_triangular_r(shape, mode):
    a = ad.tensor(RNG.standard_normal(shape))
    q, r = LA.qr(a, mode=mode)
    with pytest.warns(UserWarning, match="torch.qr is deprecated in favor of torch.linalg.qr"):
        assert type(LA.qr(a)).__name__ == "linalg_qr" and type(ad.qr(a)).__name__ == "qr"
    k = min(shape[-2:])
    assert tuple(r.shape) == shape[:-2] + ((shape[-2] if mode == "complete" else k), shape[-1])
    close(np.tril(arr(r), -1), 0 * np.tril(arr(r), -1))
    if mode == "r":
        assert tuple(q.shape) == (0,)
        close(abs(arr(r)), abs(np.linalg.qr(arr(a))[1]))
        return
    close(q @ r, a)
    close(q.transpose(-1, -2) @ q, eye_like(q.shape[:-2] + (q.shape[-1], q.shape[-1])))


def test_qr_derivative_refused_where_pytorch_refuses_it():
    a = ad.tensor(RNG.standard_normal((4, 3)), requires_grad=True)
    with pytest.raises(RuntimeError, match="not computed when mode='r'"):
        LA.qr(a, mode="r").R.sum().backward()
    with pytest.raises(RuntimeError, match="not differentiable when mode='complete' and nrows > ncols"):
        LA.qr(a, mode="complete").R.sum().backward()
    with pytest.raises(RuntimeError, match="qr received unrecognized mode 'bad'"):
        LA.qr(a, mode="bad")


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_reconstructs_and_reads_one_triangle(upper):
    x = RNG.standard_normal((2, 4, 4))
    a = x @ np.swapaxes(x, -1, -2) + 4 * np.eye(4)
    junk = a + (np.tril(np.ones((4, 4)), -1) if upper else np.triu(np.ones((4, 4)), 1))  # the unread triangle
    f = LA.cholesky(ad.tensor(junk), upper=upper)
    g = arr(f)
    if upper:
        close(np.triu(g), g)
        close(np.swapaxes(g, -1, -2) @ g, a)
    else:
        close(np.tril(g), g)
        close(g @ np.swapaxes(g, -1, -2), a)


def test_torch_cholesky_is_deprecated_as_in_pytorch():
    x = ad.tensor(np.eye(2) * 4)
    with pytest.warns(UserWarning, match="torch.cholesky is deprecated in favor of torch.linalg.cholesky"):
        close(ad.cholesky(x, upper=True), np.eye(2) * 2)


def test_cholesky_not_positive_definite_is_pytorchs_linalg_error():
    with pytest.raises(LA.LinAlgError, match=r"^linalg.cholesky: The factorization could not be completed because "
                                              r"the input is not positive-definite \(the leading minor of order 1 is "
                                              r"not positive-definite\).$"):
        LA.cholesky(-ad.eye(3, dtype=ad.float64))
    batch = ad.tensor(np.stack([np.eye(3), np.diag([1.0, -1.0, 2.0])]))
    with pytest.raises(RuntimeError, match=r"\(Batch element 1\): .* leading minor of order 2 is"):
        LA.cholesky(batch)
    with pytest.raises(RuntimeError, match="A must be batches of square matrices, but they are 2 by 3 matrices"):
        LA.cholesky(ad.ones(2, 3))
    # a NaN pivot is not positive-definite, as LAPACK's potrf (numpy's cholesky answers NaN); inf passes
    with pytest.raises(LA.LinAlgError, match=r"^linalg.cholesky: \(Batch element 1\): .* order 2 is not"):
        LA.cholesky(ad.tensor(np.stack([np.eye(2), [[4.0, 0.0], [np.nan, 1.0]]])))
    with pytest.raises(LA.LinAlgError, match=r"order 1 is not positive-definite"):
        LA.cholesky(ad.tensor([[np.nan, 0.0], [0.0, 1.0]]), upper=True)
    close(LA.cholesky(ad.tensor([[4.0, np.nan], [1.0, 1.0]])), [[2.0, 0.0], [0.5, 0.75 ** 0.5]])  # upper unread
    assert np.isinf(arr(LA.cholesky(ad.tensor([[np.inf, 0.0], [0.0, 1.0]])))[0, 0])


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
@pytest.mark.parametrize("full", [True, False])
def test_svd_reconstructs(shape, full):
    a = ad.tensor(RNG.standard_normal(shape))
    u, s, vh = LA.svd(a, full_matrices=full)
    m, n = shape[-2:]
    k = min(m, n)
    assert tuple(u.shape[-2:]) == ((m, m) if full else (m, k)) and tuple(vh.shape[-2:]) == ((n, n) if full else (k, n))
    close(u[..., :, :k] @ (s[..., :, None] * vh[..., :k, :]), a)
    close(u.transpose(-1, -2) @ u, eye_like(u.shape[:-2] + (u.shape[-1],) * 2))
    close(LA.svdvals(a), s)
    assert np.all(np.diff(arr(s), axis=-1) <= 0)
    U, S, V = ad.svd(a, some=not full)
    close(V, vh.transpose(-1, -2))


@pytest.mark.parametrize("full", [True, False])
def test_svd_decomposes_once_for_its_outputs_and_their_backward(monkeypatch, full):
    rng = np.random.default_rng(5)  # (its own: the module's RNG feeds the tests after it)
    A = ad.tensor(rng.standard_normal((2, 5, 3)), requires_grad=True)
    weights = [ad.tensor(rng.standard_normal(shape)) for shape in ((2, 5, 5 if full else 3), (2, 3),
                                                                   (2, 3, 3))]
    # the reference: a backward that builds a graph decomposes through the rows, as before the factors
    U, S, Vh = LA.svd(A, full_matrices=full)
    loss = sum((w * t).sum() for w, t in zip(weights, (U, S, Vh)))
    (expected,) = ad.autograd.grad(loss, A, create_graph=True)
    calls = []
    real = np.linalg.svd
    monkeypatch.setattr(np.linalg, "svd", lambda *a, **k: calls.append(k) or real(*a, **k))
    U, S, Vh = LA.svd(A, full_matrices=full)
    U2 = U.clone()
    U.mul_(3)  # the row's tensor is its own copy: the factors the backward reads stay as computed
    loss = sum((w * t).sum() for w, t in zip(weights, (U2, S, Vh)))
    loss.backward()
    assert len(calls) == 1  # not one per output, and none in backward (twelve before)
    close(A.grad, expected)
    close(U2[..., :, :3] @ (S[..., :, None] * Vh), A)  # the outputs of that one decomposition
    close(S, LA.svdvals(A))


def test_eigh_decomposes_once_for_its_outputs_and_their_backward(monkeypatch):
    rng = np.random.default_rng(6)
    B = rng.standard_normal((3, 4, 4))
    A = ad.tensor(B + np.swapaxes(B, -1, -2), requires_grad=True)
    wl, wv = ad.tensor(rng.standard_normal((3, 4))), ad.tensor(rng.standard_normal((3, 4, 4)))
    L, V = LA.eigh(A)
    (expected,) = ad.autograd.grad((wl * L).sum() + (wv * V).sum(), A, create_graph=True)
    calls = []
    real = np.linalg.eigh
    monkeypatch.setattr(np.linalg, "eigh", lambda *a, **k: calls.append(k) or real(*a, **k))
    monkeypatch.setattr(np.linalg, "eigvalsh", lambda *a, **k: calls.append(k) or real(*a, **k)[0])
    L, V = LA.eigh(A)
    ((wl * L).sum() + (wv * V).sum()).backward()
    assert len(calls) == 1
    close(A.grad, expected)
    close(L, LA.eigvalsh(A))


@pytest.mark.parametrize("shape", [(5, 3), (3, 5)])
def test_qr_factorises_once_for_its_outputs_and_their_backward(monkeypatch, shape):
    rng = np.random.default_rng(7)
    A = ad.tensor(rng.standard_normal(shape), requires_grad=True)
    wq, wr = (ad.tensor(rng.standard_normal(t.shape)) for t in LA.qr(A))
    Q, R = LA.qr(A)
    (expected,) = ad.autograd.grad((wq * Q).sum() + (wr * R).sum(), A, create_graph=True)
    calls = []
    real = np.linalg.qr
    monkeypatch.setattr(np.linalg, "qr", lambda *a, **k: calls.append(k) or real(*a, **k))
    Q, R = LA.qr(A)
    ((wq * Q).sum() + (wr * R).sum()).backward()
    assert len(calls) == 1
    close(A.grad, expected)
    close(Q @ R, A)


@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5)])
def test_lu_factorises_once_for_its_outputs_and_their_backward(monkeypatch, shape):
    from autodiff.engine.ops import decomp as rows
    from autodiff.engine.functions import decomp as functions
    rng = np.random.default_rng(8)
    A = ad.tensor(rng.standard_normal(shape), requires_grad=True)
    P, L, U = LA.lu(A)
    wl, wu = ad.tensor(rng.standard_normal(L.shape)), ad.tensor(rng.standard_normal(U.shape))
    (expected,) = ad.autograd.grad((wl * L).sum() + (wu * U).sum(), A, create_graph=True)
    LU, pivots = LA.lu_factor(A)
    (expected_packed,) = ad.autograd.grad((LU * LU).sum(), A, create_graph=True)
    calls = []
    real = rows.lu_kernel
    counting = lambda *a: calls.append(1) or real(*a)  # noqa: E731
    monkeypatch.setattr(rows, "lu_kernel", counting)
    monkeypatch.setattr(functions, "lu_kernel", counting)
    P2, L2, U2 = LA.lu(A)
    ((wl * L2).sum() + (wu * U2).sum()).backward()
    assert len(calls) == 1  # P, L, U and both backwards from one factorisation (seven before)
    close(A.grad, expected)
    close(P2 @ L2 @ U2, A)
    A.grad = None
    LU2, pivots2 = LA.lu_factor(A)
    (LU2 * LU2).sum().backward()
    assert len(calls) == 2
    close(A.grad, expected_packed)
    assert np.array_equal(arr(pivots2), arr(pivots)) and pivots2.dtype == ad.int32


def test_svd_gradient_at_repeated_singular_values_is_nan_as_pytorch():
    a = ad.eye(3, dtype=ad.float64, requires_grad=True)
    (g,) = ad.autograd.grad(LA.svd(a).U.sum(), a)
    assert np.isnan(arr(g)).all()
    (g,) = ad.autograd.grad(LA.svdvals(a).sum(), a)  # the singular values alone stay differentiable
    close(g, np.eye(3))


def test_svd_and_eigh_not_converging_are_pytorchs_linalg_error():
    """numpy's LinAlgError of a matrix holding NaN or inf is PyTorch's, naming the batch element."""
    a = RNG.standard_normal((3, 4, 4))
    a[1, 0, :3] = [np.nan, np.inf, -np.inf]
    a = ad.tensor(a)
    for f in (LA.svdvals, LA.pinv, LA.matrix_rank, LA.cond, lambda x: LA.svd(x).U):
        with pytest.raises(LA.LinAlgError, match=r"^linalg.svd: \(Batch element 1\): The algorithm failed to "
                                                  r"converge because the input matrix contained non-finite values.$"):
            f(a)
    for f in (LA.eigvalsh, lambda x: LA.eigh(x).eigenvectors, lambda x: LA.pinv(x, hermitian=True)):
        with pytest.raises(LA.LinAlgError, match=r"^linalg.eigh: \(Batch element 1\): The algorithm failed to "
                                                  r"converge because the input matrix is ill-conditioned"):
            f(a)
    assert not isinstance(LA.LinAlgError("x"), np.linalg.LinAlgError)


@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh_reconstructs_from_one_triangle(uplo):
    x = RNG.standard_normal((2, 4, 4))
    a = x + np.swapaxes(x, -1, -2)
    junk = (np.tril(a) if uplo == "L" else np.triu(a)) + (np.triu(np.ones((4, 4)), 1) if uplo == "L"
                                                          else np.tril(np.ones((4, 4)), -1))
    w, v = LA.eigh(ad.tensor(junk), UPLO=uplo)
    close(v @ (w[..., :, None] * v.transpose(-1, -2)), a)
    close(LA.eigvalsh(ad.tensor(junk), UPLO=uplo), w)
    assert type(LA.eigh(ad.tensor(a))).__name__ == "linalg_eigh"
    with pytest.raises(RuntimeError, match="Expected UPLO argument to be 'L' or 'U', but got X"):
        LA.eigh(ad.tensor(a), UPLO="X")
    with pytest.raises(NotImplementedError, match="\"linalg_eigh_cpu\" not implemented for 'Long'"):
        LA.eigh(ad.eye(3, dtype=ad.int64))


def test_solve_triangular_solves_and_checks():
    a = ad.tensor(RNG.standard_normal((2, 3, 3)) + 3 * np.eye(3))
    b = ad.tensor(RNG.standard_normal((3, 2)))
    x = LA.solve_triangular(a, b, upper=True)
    close(ad.triu(a) @ x, b.expand(2, 3, 2))
    x = LA.solve_triangular(a, b.T, upper=False, left=False, unitriangular=True)
    unit = np.tril(arr(a), -1) + np.eye(3)
    close(arr(x) @ unit, np.broadcast_to(arr(b).T, (2, 2, 3)))
    with pytest.raises(RuntimeError, match=r"Incompatible shapes of A and B for the equation AX = B \(3x3 and 4x2\)"):
        LA.solve_triangular(a, ad.ones(4, 2, dtype=ad.float64), upper=True)
    with pytest.raises(RuntimeError, match="The input tensor B must have at least 2 dimensions."):
        LA.solve_triangular(a, ad.ones(3, dtype=ad.float64), upper=True)
    assert LA.solve_triangular(a, ad.ones(3, 2), upper=True).dtype == ad.float64  # promoted, as PyTorch


@pytest.mark.parametrize("shape", [(4, 4), (2, 5, 3), (3, 5)])
def test_lu_factor_reconstructs_and_lu_solve_solves(shape):
    a = RNG.standard_normal(shape)
    lu, piv = LA.lu_factor(ad.tensor(a))
    assert piv.dtype == ad.int32 and tuple(piv.shape) == shape[:-2] + (min(shape[-2:]),)
    m, n = shape[-2:]
    k = min(m, n)
    packed = arr(lu)
    L = np.tril(packed[..., :, :k], -1) + np.eye(m, k)
    U = np.triu(packed[..., :k, :])
    assert np.all(np.abs(L) <= 1 + 1e-12)  # partial pivoting
    pa = (L @ U).reshape((-1, m, n))
    for b, p in zip(pa, arr(piv).reshape(-1, k)):
        for j in reversed(range(k)):
            b[[j, p[j] - 1]] = b[[p[j] - 1, j]]
    close(pa.reshape(shape), a)
    if m == n:
        rhs = RNG.standard_normal(shape[:-1] + (2,))
        close(LA.lu_solve(lu, piv, ad.tensor(rhs)), np.linalg.solve(a, rhs))
        close(LA.lu_solve(lu, piv, ad.tensor(rhs), adjoint=True), np.linalg.solve(np.swapaxes(a, -1, -2), rhs))


@pytest.mark.parametrize("shape", [(4, 4), (2, 5, 3), (3, 5)])
def test_lu_reconstructs(shape):
    a = RNG.standard_normal(shape)
    p, l, u = LA.lu(ad.tensor(a))
    assert type(LA.lu(ad.tensor(a))).__name__ == "linalg_lu" and p.dtype == ad.float64 and not p.requires_grad
    close(p @ l @ u, a)
    close(p.transpose(-1, -2) @ p, eye_like(p.shape))


def test_lu_errors():
    with pytest.raises(NotImplementedError, match="\"lu_cpu\" not implemented for 'Long'"):
        LA.lu_factor(ad.ones(2, 2, dtype=ad.int64))
    lu, piv = LA.lu_factor(ad.eye(3, dtype=ad.float64))
    with pytest.raises(RuntimeError, match="pivots should be a Tensor of scalar type torch.int32"):
        LA.lu_solve(lu, piv.long(), lu)
    with pytest.raises(RuntimeError, match=r"Incompatible shapes of A and B for the equation AX = B \(3x3 and 4x2\)"):
        LA.lu_solve(lu, piv, ad.ones(4, 2, dtype=ad.float64))
    # a zero pivot (getrf's info) is refused by lu_factor, as PyTorch's; lu (and a NaN pivot) answer
    singular = ad.tensor(np.stack([np.eye(3), [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 0.0, 1.0]]]))
    with pytest.raises(RuntimeError, match=r"^torch.linalg.lu_factor: \(Batch element 1\): U\[2,2\] is zero and "
                                           r"using it on lu_solve would result in a division by zero"):
        LA.lu_factor(singular)
    with pytest.raises(RuntimeError, match=r"^torch.linalg.lu_factor: U\[1,1\] is zero"):
        LA.lu_factor(ad.zeros(3, 2, dtype=ad.float64))
    close(LA.lu(singular).P @ LA.lu(singular).L @ LA.lu(singular).U, singular)
    assert np.isnan(arr(LA.lu_factor(ad.tensor([[np.nan, 2.0], [2.0, 4.0]])).LU)).any()


def test_matrix_exp_identities():
    a = RNG.standard_normal((3, 4, 4)) * np.array([0.1, 1.0, 3.0])[:, None, None]  # squared 0 to a few times
    e, f = LA.matrix_exp(ad.tensor(a)), ad.matrix_exp(ad.tensor(-a))
    close(e @ f, eye_like(a.shape), 1e-8)
    d = np.diag([1.0, -2.0, 0.5])
    close(LA.matrix_exp(ad.tensor(d)), np.diag(np.exp([1.0, -2.0, 0.5])))
    n = np.triu(RNG.standard_normal((3, 3)), 1)  # nilpotent: the series ends
    close(LA.matrix_exp(ad.tensor(n)), np.eye(3) + n + n @ n / 2)
    a32 = a[1].astype(np.float32)
    e32 = LA.matrix_exp(ad.tensor(a32))
    assert e32.dtype == ad.float32
    close(e32, arr(e)[1], 1e-4)
    # float64's exp of the same (rounded) input, rounded: compared with exp of the unrounded input, an
    # entry far below the largest failed 3e-7 for some draws (found when another test order drew it)
    np.testing.assert_allclose(arr(e32), arr(LA.matrix_exp(ad.tensor(a32.astype(np.float64)))).astype(np.float32),
                               rtol=3e-7)
    assert tuple(LA.matrix_exp(ad.zeros(0, 0)).shape) == (0, 0)
    with pytest.raises(RuntimeError, match="linalg.matrix_exp: A must be batches of square matrices"):
        LA.matrix_exp(ad.ones(2, 3))


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
def test_pinv_penrose_conditions(shape):
    a = ad.tensor(RNG.standard_normal(shape))
    p = LA.pinv(a)
    close(a @ p @ a, a)
    close(p @ a @ p, p)
    close((a @ p).transpose(-1, -2), a @ p)
    close((p @ a).transpose(-1, -2), p @ a)
    close(ad.pinverse(a), p)


def test_pinv_tolerances_and_hermitian():
    a = ad.tensor(np.diag([4.0, 1.0, 1e-3]))
    close(LA.pinv(a), np.diag([0.25, 1.0, 1e3]))
    close(LA.pinv(a, atol=0.01), np.diag([0.25, 1.0, 0.0]))
    close(LA.pinv(a, rtol=0.5), np.diag([0.25, 0.0, 0.0]))
    close(LA.pinv(-a, hermitian=True), -np.diag([0.25, 1.0, 1e3]))
    with pytest.raises(RuntimeError, match=r"linalg.pinv\(Float\{\[3\]\}\): expected a tensor with 2 or more"):
        LA.pinv(ad.ones(3, dtype=ad.float32))


def test_lstsq_results_by_driver():
    a = ad.tensor(RNG.standard_normal((5, 3)))
    b = ad.tensor(RNG.standard_normal((5, 2)))
    solution, residuals, rank, sv = LA.lstsq(a, b)
    expected = np.linalg.lstsq(arr(a), arr(b), rcond=None)
    close(solution, expected[0])
    assert tuple(residuals.shape) == (0,) and tuple(sv.shape) == (0,) and int(rank) == 3 and rank.dtype == ad.int64
    r = LA.lstsq(a, b, driver="gelsd")
    close(r.residuals, expected[1])
    close(r.singular_values, expected[3])
    assert tuple(LA.lstsq(a, b, driver="gels").rank.shape) == (0,)
    with pytest.raises(RuntimeError, match="parameter `driver` should be one of"):
        LA.lstsq(a, b, driver="bad")
    with pytest.raises(RuntimeError, match=r"input.size\(-2\) should match other.size\(-2\)"):
        LA.lstsq(a, ad.ones(4, 2, dtype=ad.float64))
    # gels (QR) refuses an exact zero on its triangular factor's diagonal, as LAPACK's; the others answer
    wide = ad.tensor([[0.0, 0.0, 0.0], [0.6, 0.0, 0.0]])
    with pytest.raises(LA.LinAlgError, match=r"^torch.linalg.lstsq: The least squares solution could not be computed "
                                              r"because the input matrix does not have full rank \(error code: 1\).$"):
        LA.lstsq(wide, ad.ones(2, 2, dtype=ad.float64), driver="gels")
    tall = ad.tensor(np.stack([np.eye(3)[:, :2], [[1.0, 0.0], [2.0, 0.0], [0.0, 0.0]]]))
    with pytest.raises(LA.LinAlgError, match=r"\(Batch element 1\): .* \(error code: 2\).$"):
        LA.lstsq(tall, ad.ones(2, 3, 1, dtype=ad.float64), driver="gels")
    close(LA.lstsq(wide, ad.ones(2, 2, dtype=ad.float64), driver="gelsd").solution, [[1 / 0.6] * 2, [0.0] * 2, [0.0] * 2])


def test_norm_nuc_is_matrix_norms():
    """torch.norm(p='nuc') is linalg.matrix_norm(A, 'nuc', dim or every dim), with its checks."""
    a = RNG.standard_normal((2, 3, 4))
    x = ad.tensor(a, requires_grad=True)
    close(ad.norm(x[0], p="nuc"), np.linalg.norm(a[0], "nuc"))
    y = x.norm(p="nuc", dim=(2, 0), keepdim=True)
    assert tuple(y.shape) == (1, 3, 1)
    close(y.reshape(3), np.linalg.norm(np.transpose(a, (1, 0, 2)), "nuc", axis=(1, 2)))
    z = ad.norm(x, p="nuc", dim=[1, 2])
    assert z.grad_fn.name() == "SumBackward1"
    (g,) = ad.autograd.grad(z.sum(), x)
    u, _, vh = np.linalg.svd(a, full_matrices=False)
    close(g, u @ vh)
    for t, kw, msg in ((ad.ones(2, 3, 4), {}, "dim must be a 2-tuple. Got 0 1 2"),
                       (ad.ones(3), {}, "The input tensor A must have at least 2 dimensions."),
                       (ad.ones(2, 3, dtype=ad.int64), {}, "Expected a floating point or complex tensor as input. Got Long")):
        with pytest.raises(RuntimeError, match="^linalg.matrix_norm: " + msg):
            ad.norm(t, p="nuc", **kw)


def test_composites():
    x = [ad.tensor(RNG.standard_normal(s)) for s in ((4,), (4, 2), (2, 6), (6, 3), (3,))]
    close(LA.multi_dot(x), np.linalg.multi_dot([arr(t) for t in x]))
    with pytest.raises(RuntimeError, match=r"tensors 0 and 1 with shapes \[4, 2\] and \[6, 3\] cannot be"):
        LA.multi_dot([x[1], x[3]])
    with pytest.raises(RuntimeError, match="expected at least 2 tensors but got 1"):
        LA.multi_dot([x[1]])
    a = ad.tensor(np.diag([3.0, 2.0, 0.0]))
    assert int(LA.matrix_rank(a)) == 2 and int(LA.matrix_rank(a, atol=2.5)) == 1
    assert int(LA.matrix_rank(-a, hermitian=True)) == 2
    assert LA.matrix_rank(ad.ones(2, 3, 3)).tolist() == [1, 1]
    assert math.isinf(float(LA.cond(ad.ones(2, 2, dtype=ad.float64), "fro")))
    mixed = ad.tensor(np.stack([np.ones((2, 2)), [[2.0, 1.0], [0.0, 3.0]]]), requires_grad=True)
    c = LA.cond(mixed, "fro")  # a singular matrix among regular ones: inf for it alone
    assert math.isinf(float(c[0].detach())) and abs(float(c[1].detach()) - np.linalg.cond([[2.0, 1.0], [0.0, 3.0]], "fro")) < 1e-12
    c[1].backward()
    assert np.isfinite(arr(mixed.grad)[1]).all()
    with pytest.raises(RuntimeError, match="linalg.cond got an invalid norm type: 3"):
        LA.cond(a, 3)
    with pytest.raises(RuntimeError, match="linalg.vecdot: Expected x and y to have the same dtype"):
        LA.vecdot(a, a.float())
    close(LA.matrix_norm(a, "nuc"), 5.0)
    close(LA.matrix_norm(a, 2), 3.0)
    close(LA.matrix_norm(a, -2), 0.0)


def test_decompositions_in_the_language():
    source = "\n".join([
        "A = torch.tensor([[4.0, 1.0], [1.0, 3.0]], requires_grad=True)",
        "r = torch.linalg.qr(A)",
        "e = torch.linalg.eigh(A)",
        "y = torch.linalg.cholesky(A).sum() + torch.linalg.svdvals(A).sum() + e.eigenvalues.sum() + r.R.sum()",
        "y = y + torch.linalg.matrix_exp(A).sum() + torch.linalg.pinv(A).sum() + torch.linalg.lstsq(A, A).solution.sum()",
        "f = torch.linalg.lu_factor(A)",
        "y = y + torch.linalg.lu_solve(f.LU, f.pivots, A).sum() + torch.linalg.solve_triangular(A, A, upper=True).sum()",
        "y = y + torch.linalg.multi_dot([A, A]).sum() + torch.linalg.vecdot(A, A).sum() + torch.linalg.cond(A)",
        "y.backward()",
        "print(A.grad.shape, torch.linalg.matrix_rank(A).item(), torch.linalg.svd(A).Vh.shape)",
    ])
    out, error = run_program(source, dtype="float64")
    assert error is None and out == "torch.Size([2, 2]) 2 torch.Size([2, 2])\n"
