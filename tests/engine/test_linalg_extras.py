"""torch.cholesky_solve, cholesky_inverse, triangular_solve, addbmm, the torch.linalg _ex functions,
torch.lu, lu_unpack, lu_solve, and torch.linalg's vander, diagonal, tensorinv, tensorsolve beyond their op
cases (tests/engine/ops/op_cases_decomp.py, op_cases_linalg.py): singular and non-positive-definite
matrices (the info, LAPACK's inf/NaN), PyTorch's errors in its words, the named results, the
deprecation warnings, gradients PyTorch defines on the whole factor, and the names in the language."""
import warnings

import numpy as np
import pytest

import autodiff.engine as ad
from programs import run_program

LA = ad.linalg
RNG = np.random.default_rng(41)


def arr(t):
    return np.asarray(t.detach())


def t64(a, requires_grad=False):
    return ad.tensor(np.asarray(a, dtype=np.float64), requires_grad=requires_grad)


def quiet(f, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args, **kw)


def spd(n, batch=()):
    a = RNG.standard_normal(batch + (n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


# ------------------------------------------------------------ cholesky_solve, cholesky_inverse

def test_cholesky_solve_and_inverse_use_one_triangle():
    a = spd(3)
    low = np.linalg.cholesky(a)
    junk = low + np.triu(RNG.standard_normal((3, 3)), 1)  # the other triangle is never read
    b = RNG.standard_normal((3, 2))
    np.testing.assert_allclose(arr(ad.cholesky_solve(t64(b), t64(junk))), np.linalg.solve(a, b), atol=1e-12)
    np.testing.assert_allclose(arr(ad.cholesky_solve(t64(b), t64(junk.T), upper=True)), np.linalg.solve(a, b),
                               atol=1e-12)
    np.testing.assert_allclose(arr(ad.cholesky_inverse(t64(junk))), np.linalg.inv(a), atol=1e-12)
    np.testing.assert_allclose(arr(t64(junk.T).cholesky_inverse(upper=True)), np.linalg.inv(a), atol=1e-12)


def test_cholesky_gradients_are_of_the_whole_factor():
    """PyTorch's gradient of cholesky_solve (and cholesky_inverse) is that of (L L^T)^-1 B for the full
    matrix L: checked against finite differences of that expression on every entry, upper ones too."""
    low = np.linalg.cholesky(spd(3))
    b = RNG.standard_normal((3, 2))
    w = RNG.standard_normal((3, 2))

    def f(m):
        return (np.linalg.solve(m @ m.T, b) * w).sum()

    numeric = np.zeros((3, 3))
    for i in range(3):
        for j in range(3):
            e = np.zeros((3, 3))
            e[i, j] = 1e-6
            numeric[i, j] = (f(low + e) - f(low - e)) / 2e-6
    L = t64(low, requires_grad=True)
    (ad.cholesky_solve(t64(b), L) * t64(w)).sum().backward()
    np.testing.assert_allclose(arr(L.grad), numeric, atol=1e-6)
    assert np.abs(np.triu(numeric, 1)).max() > 1e-3  # (the upper triangle gets a gradient)
    w3 = RNG.standard_normal((3, 3))
    numeric = np.zeros((3, 3))
    for i in range(3):
        for j in range(3):
            e = np.zeros((3, 3))
            e[i, j] = 1e-6
            numeric[i, j] = ((np.linalg.inv((low + e) @ (low + e).T) - np.linalg.inv((low - e) @ (low - e).T))
                             * w3).sum() / 2e-6
    L = t64(low, requires_grad=True)
    (ad.cholesky_inverse(L) * t64(w3)).sum().backward()
    np.testing.assert_allclose(arr(L.grad), numeric, atol=1e-6)


def test_cholesky_solve_and_inverse_errors():
    f32 = ad.ones(3, 3, dtype=ad.float32)
    cases = [
        (lambda: ad.cholesky_solve(ad.ones(3), ad.ones(3, 3)), "b should have at least 2 dimensions, but has 1 "
                                                               "dimensions instead"),
        (lambda: ad.cholesky_solve(ad.ones(3, 2), ad.ones(3)), "u should have at least 2 dimensions, but has 1 "
                                                               "dimensions instead"),
        (lambda: ad.cholesky_solve(ad.ones(3, 2), ad.ones(3, 4)), "A must be batches of square matrices, but they are "
                                                                  "3 by 4 matrices"),
        (lambda: ad.cholesky_solve(ad.ones(4, 2), ad.ones(3, 3)),
         "Incompatible matrix sizes for cholesky_solve: each A matrix is 3 by 3 but each b matrix is 4 by 2"),
        (lambda: ad.cholesky_solve(ad.ones(3, 2), f32), "Expected b and A to have the same dtype, "
                                                                          "but found b of type Double and A of type "
                                                                          "Float instead."),
        (lambda: ad.cholesky_solve(ad.ones(2, 3, 2), ad.ones(5, 3, 3)), "The size of tensor a (2) must match the size "
                                                                        "of tensor b (5) at non-singleton dimension 0"),
        (lambda: ad.cholesky_inverse(ad.ones(3)), "cholesky_inverse: The input tensor A must have at least 2 "
                                                  "dimensions."),
        (lambda: ad.cholesky_inverse(ad.ones(3, 4)), "cholesky_inverse: A must be batches of square matrices, but "
                                                     "they are 3 by 4 matrices"),
    ]
    for call, message in cases:
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == message
    with pytest.raises(NotImplementedError, match="\"cholesky_solve_cpu\" not implemented for 'Long'"):
        ad.cholesky_solve(ad.ones(3, 2, dtype=ad.long), ad.ones(3, 3, dtype=ad.long))
    with pytest.raises(NotImplementedError, match="\"cholesky_inverse_out_cpu\" not implemented for 'Long'"):
        ad.cholesky_inverse(ad.ones(3, 3, dtype=ad.long))
    factors = np.stack([np.eye(2), np.diag([1.0, 0.0])])
    with pytest.raises(LA.LinAlgError) as info:
        ad.cholesky_inverse(t64(factors))
    assert str(info.value) == ("cholesky_inverse: (Batch element 1): The diagonal element 2 is zero, the inversion "
                               "could not be completed because the input matrix is singular.")
    assert ad.cholesky_solve(ad.ones(2, 1, 3, 2), ad.ones(5, 3, 3) + 2 * ad.eye(3)).shape == (2, 5, 3, 2)


# ------------------------------------------------------------------------------ triangular_solve

def test_triangular_solve_results_and_warning():
    a = RNG.standard_normal((2, 3, 3)) + 3 * np.eye(3)
    b = RNG.standard_normal((3, 2))
    with pytest.warns(UserWarning, match="torch.triangular_solve is deprecated"):
        r = ad.triangular_solve(t64(b), t64(a), upper=False, transpose=True)
    assert type(r).__module__ == "torch.return_types" and type(r).__name__ == "triangular_solve"
    np.testing.assert_allclose(arr(r.solution), np.linalg.solve(np.swapaxes(np.tril(a), -1, -2), b), atol=1e-12)
    assert r.cloned_coefficient.shape == (2, 3, 3)
    np.testing.assert_array_equal(arr(r.cloned_coefficient), a)


def test_triangular_solve_gradient_of_the_coefficient_is_whole():
    """The copy's gradient reaches all of A (PyTorch's), the solution's only A's triangle; A broadcast
    over b's batch sums it."""
    a = t64(RNG.standard_normal((3, 3)) + 3 * np.eye(3), requires_grad=True)
    b = t64(RNG.standard_normal((2, 3, 1)))
    quiet(ad.triangular_solve, b, a)[1].sum().backward()
    np.testing.assert_array_equal(arr(a.grad), np.full((3, 3), 2.0))
    a.grad = None
    quiet(ad.triangular_solve, b, a)[0].sum().backward()
    g = arr(a.grad)
    assert (np.tril(g, -1) == 0).all() and (np.abs(g[np.triu_indices(3)]) > 1e-6).all()


def test_triangular_solve_errors():
    cases = [
        (lambda: ad.triangular_solve(ad.ones(3), ad.ones(3, 3)), "torch.triangular_solve: Expected b to have at least "
                                                                "2 dimensions, but it has 1 dimensions instead"),
        (lambda: ad.triangular_solve(ad.ones(3, 2), ad.ones(3)), "torch.triangular_solve: Expected A to have at least "
                                                                "2 dimensions, but it has 1 dimensions instead"),
        (lambda: ad.triangular_solve(ad.ones(4, 2), ad.ones(3, 3)), "Incompatible matrix sizes for triangular_solve: "
                                                                    "each A matrix is 3 by 3 but each b matrix is 4 "
                                                                    "by 2"),
    ]
    for call, message in cases:
        with pytest.raises(RuntimeError) as info:
            quiet(call)
        assert str(info.value) == message
    with pytest.raises(NotImplementedError, match="\"triangular_solve_cpu\" not implemented for 'Long'"):
        quiet(ad.triangular_solve, ad.ones(3, 2, dtype=ad.long), ad.ones(3, 3, dtype=ad.long))


# ---------------------------------------------------------------------------------- the _ex functions

def singular_batch():
    """A batch of a zero matrix, a regular one, and one whose second pivot is zero (by hand: row 2
    is the pivot of column 1, and both rows left are zero in column 2 then)."""
    second = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 7.0], [0.0, 0.0, 1.0]])
    return np.stack([np.zeros((3, 3)), np.eye(3) * 2, second])


def test_ex_functions_info_and_no_error():
    a = singular_batch()
    r = LA.inv_ex(t64(a))
    assert type(r).__name__ == "linalg_inv_ex" and r.info.dtype == ad.int32
    np.testing.assert_array_equal(arr(r.info), [1, 0, 2])
    np.testing.assert_array_equal(arr(r.inverse[1]), np.eye(3) / 2)
    assert not np.isfinite(arr(r.inverse[0])).all() and not np.isfinite(arr(r.inverse[2])).all()
    s = LA.solve_ex(t64(a), t64(np.ones((3, 1))))
    assert type(s).__name__ == "linalg_solve_ex" and s.info.shape == (3,)
    np.testing.assert_array_equal(arr(s.info), [1, 0, 2])
    np.testing.assert_array_equal(arr(s.result[1]), np.full((3, 1), 0.5))
    f = LA.lu_factor_ex(t64(a))
    np.testing.assert_array_equal(arr(f.info), [1, 0, 2])
    assert f.pivots.dtype == ad.int32 and type(f).__name__ == "linalg_lu_factor_ex"
    assert LA.solve_ex(t64(np.eye(3)), t64(np.ones((2, 3, 1)))).info.shape == ()  # (A's batch only)


def test_ex_functions_check_errors():
    a = t64(singular_batch())
    with pytest.raises(LA.LinAlgError) as info:
        LA.inv_ex(a, check_errors=True)
    assert str(info.value) == ("linalg.inv_ex: (Batch element 0): The diagonal element 1 is zero, the inversion "
                               "could not be completed because the input matrix is singular.")
    with pytest.raises(LA.LinAlgError) as info:
        LA.solve_ex(a[2], t64(np.ones((3, 1))), check_errors=True)
    assert str(info.value) == "torch.linalg.solve_ex: The solver failed because the input matrix is singular."
    with pytest.raises(RuntimeError) as info:
        LA.lu_factor_ex(a[1:], check_errors=True)
    assert str(info.value).startswith("torch.linalg.lu_factor_ex: (Batch element 1): U[2,2] is zero")
    with pytest.raises(LA.LinAlgError) as info:
        LA.cholesky_ex(t64(np.stack([np.eye(3), -np.eye(3)])), check_errors=True)
    assert str(info.value) == ("linalg.cholesky_ex: (Batch element 1): The factorization could not be completed "
                               "because the input is not positive-definite (the leading minor of order 1 is not "
                               "positive-definite).")


def test_cholesky_ex_unfinished_factor():
    """potrf's result where it stops (worked by hand): [[4, 2, 1], [2, 1, 0], [1, 0, 5]] has l11 = 2,
    l21 = 1, l31 = 1/2, then the pivot 1 - 1^2 = 0 fails at order 2: it stays on the diagonal, and the
    later columns are A's own."""
    a = np.array([[4.0, 2.0, 1.0], [2.0, 1.0, 0.0], [1.0, 0.0, 5.0]])
    r = LA.cholesky_ex(t64(np.stack([a, spd(3)])))
    np.testing.assert_array_equal(arr(r.info), [2, 0])
    np.testing.assert_array_equal(arr(r.L[0]), [[2.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 0.0, 5.0]])
    u = LA.cholesky_ex(t64(a), upper=True)
    np.testing.assert_array_equal(arr(u.L), [[2.0, 1.0, 0.5], [0.0, 0.0, 0.0], [0.0, 0.0, 5.0]])
    assert int(u.info) == 2
    nan = LA.cholesky_ex(t64([[np.nan, 0.0], [0.0, 1.0]]))
    assert int(nan.info) == 1


# ------------------------------------------------------------------- torch.lu, lu_unpack, lu_solve

def test_lu_and_lu_unpack():
    a = RNG.standard_normal((2, 4, 3))
    with pytest.warns(UserWarning, match="torch.lu is deprecated"):
        lu, piv = ad.lu(t64(a))
    p, l, u = ad.lu_unpack(lu, piv)
    assert type(ad.lu_unpack(lu, piv)).__name__ == "lu_unpack"
    np.testing.assert_allclose(arr(p @ l @ u), a, atol=1e-12)
    assert p.dtype == ad.float64 and l.shape == (2, 4, 3) and u.shape == (2, 3, 3)
    infos = quiet(t64(np.zeros((3, 3))).lu, get_infos=True)
    assert type(infos).__name__ == "_lu_with_info" and int(infos.info) == 1
    p2, l2, u2 = ad.lu_unpack(lu, piv, unpack_data=False)
    assert l2.shape == (0,) and u2.shape == (0,) and np.array_equal(arr(p2), arr(p))
    assert ad.lu_unpack(lu, piv, unpack_pivots=False).P.shape == (0,)


def test_lu_unpack_errors():
    with pytest.raises(RuntimeError, match="torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of "
                                           "torch.int32 dtype."):
        ad.lu_unpack(ad.ones(3, 3), ad.ones(3))
    with pytest.raises(RuntimeError, match=r"torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: "
                                           r"\[3\] instead"):
        ad.lu_unpack(ad.ones(3), ad.ones(3, dtype=ad.int32))
    with pytest.raises(RuntimeError, match="pivots passed to lu_unpack must be between 1 and LU.size"):
        ad.lu_unpack(ad.ones(3, 3), ad.tensor([4, 1, 1], dtype=ad.int32))


def test_lu_solve_old_argument_order():
    a, b = RNG.standard_normal((3, 3)) + 3 * np.eye(3), RNG.standard_normal((3, 2))
    lu, piv = LA.lu_factor(t64(a))
    with pytest.warns(UserWarning, match="torch.lu_solve is deprecated"):
        x = ad.lu_solve(t64(b), lu, piv)
    np.testing.assert_allclose(arr(x), np.linalg.solve(a, b), atol=1e-12)
    np.testing.assert_allclose(arr(quiet(t64(b).lu_solve, lu, piv)), np.linalg.solve(a, b), atol=1e-12)


# ---------------------------------------------------------------------------------------- addbmm

def test_addbmm_errors_and_integers():
    cases = [
        (lambda: ad.addbmm(ad.ones(3, 2), ad.ones(4, 3, 5), ad.ones(3, 5, 2)), "batch1 and batch2 must have same "
                                                                             "number of batches, got 4 and 3"),
        (lambda: ad.addbmm(ad.ones(3, 2), ad.ones(4, 3, 5), ad.ones(4, 4, 2)), "Incompatible matrix sizes for bmm "
                                                                             "(3x5 and 4x2)"),
        (lambda: ad.addbmm(ad.ones(3, 3), ad.ones(4, 3, 5), ad.ones(4, 5, 2)),
         "The expanded size of the tensor (2) must match the existing size (3) at non-singleton dimension 1.  Target "
         "sizes: [3, 2].  Tensor sizes: [3, 3]"),
        (lambda: ad.addbmm(ad.ones(3, 2), ad.ones(4, 3, 5, dtype=ad.float32), ad.ones(4, 5, 2, dtype=ad.float32)),
         "self and mat2 must have the same dtype, but got Double and Float"),
        (lambda: ad.addbmm(ad.ones(3, 2, dtype=ad.float32), ad.ones(4, 3, 5), ad.ones(4, 5, 2, dtype=ad.float32)),
         "mat1 and mat2 must have the same dtype, but got Double and Float"),
    ]
    for call, message in cases:
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == message
    out = ad.addbmm(ad.ones(3, 2, dtype=ad.long), ad.ones(4, 3, 5, dtype=ad.long), ad.ones(4, 5, 2, dtype=ad.long),
                    beta=2, alpha=3)
    assert out.dtype == ad.long and (arr(out) == 2 + 3 * 4 * 5).all()
    nan = ad.addbmm(ad.full((3, 2), float("nan")), ad.ones(4, 3, 5), ad.ones(4, 5, 2), beta=0)
    assert (arr(nan) == 20).all()


# ------------------------------------------------------------- vander, diagonal, tensorinv, tensorsolve

def test_vander_dtypes_and_errors():
    v = LA.vander(ad.tensor([1, 2, 3], dtype=ad.int32), N=4)
    assert v.dtype == ad.long and arr(v).tolist() == [[1, 1, 1, 1], [1, 2, 4, 8], [1, 3, 9, 27]]
    for x, n in ((ad.tensor(2.0), None), (ad.ones(0), None), (ad.ones(2), 1)):
        with pytest.raises(RuntimeError, match="N must be greater than 1."):
            LA.vander(x, N=n)
    with pytest.raises(RuntimeError, match="linalg.vander supports floating point, complex, and integer tensors, but "
                                           "got Bool"):
        LA.vander(ad.tensor([True]))


def test_diagonal_is_a_keyword_view():
    a = ad.arange(12.0).reshape(3, 4).clone()
    d = LA.diagonal(a, offset=1)
    assert arr(d).tolist() == [1.0, 6.0, 11.0]
    d.zero_()
    assert arr(a)[[0, 1, 2], [1, 2, 3]].tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(TypeError):
        LA.diagonal(a, 1)


def test_tensorinv_and_tensorsolve():
    a = RNG.standard_normal((4, 6, 8, 3))
    inv = LA.tensorinv(t64(a), ind=2)
    np.testing.assert_allclose(arr(inv), np.linalg.tensorinv(a, ind=2), atol=1e-10)
    x = t64(RNG.standard_normal((2, 3, 6)), requires_grad=True)
    assert ad.gradcheck(lambda t: LA.tensorinv(t + 6 * ad.eye(6).reshape(2, 3, 6), ind=2), [x])
    with pytest.raises(RuntimeError, match="Expected a strictly positive integer for 'ind', but got 0"):
        LA.tensorinv(ad.ones(2, 3), ind=0)
    with pytest.raises(RuntimeError, match=r"requirement prod\(self.shape\[ind:\]\) == prod\(self.shape\[:ind\]\), "
                                           r"but got 3 != 2"):
        LA.tensorinv(ad.ones(2, 3), ind=1)
    with pytest.raises(RuntimeError, match=r"prod\(self.shape\[other.ndim:\]\) == prod\(self.shape\[:other.ndim\]\), "
                                           r"but got 5 != 6"):
        LA.tensorsolve(ad.ones(2, 3, 5), ad.ones(2, 3))
    with pytest.raises(LA.LinAlgError, match="linalg.inv: The diagonal element 1 is zero"):
        LA.tensorinv(ad.zeros(2, 2), ind=1)


def test_in_the_language():
    source = "\n".join([
        "A = torch.tensor([[4.0, 1.0], [1.0, 3.0]], requires_grad=True)",
        "L = torch.linalg.cholesky(A)",
        "y = torch.cholesky_solve(A, L).sum() + torch.cholesky_inverse(L).sum()",
        "y = y + torch.addbmm(A, A[None], A[None]).sum()",
        "y = y + torch.linalg.solve_ex(A, A).result.sum() + torch.linalg.inv_ex(A).inverse.sum()",
        "y = y + torch.linalg.cholesky_ex(A).L.sum() + torch.linalg.lu_factor_ex(A).LU.sum()",
        "y = y + torch.linalg.vander(A[0]).sum() + torch.linalg.diagonal(A).sum()",
        "y = y + torch.linalg.tensorinv(A, ind=1).sum()",
        "y = y + torch.linalg.tensorsolve(A, A[0]).sum() + torch.triangular_solve(A, A).solution.sum()",
        "f = torch.lu(A)",
        "y = y + torch.lu_unpack(f[0], f[1]).U.sum() + torch.lu_solve(A, f[0], f[1]).sum()",
        "y.backward()",
        "print(A.grad.shape, torch.linalg.inv_ex(A).info.item())",
    ])
    out, error = quiet(run_program, source, dtype="float64")  # (torch.lu's and the others' deprecation warnings)
    assert error is None and out == "torch.Size([2, 2]) 0\n", (out, error)
