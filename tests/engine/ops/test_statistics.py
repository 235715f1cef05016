"""The statistics family beyond its op cases (tests/engine/ops/op_cases_statistics.py): unique and
unique_consecutive against numpy, fmax's and fmin's NaN and tie rules, results that never require
grad, the shapes of the composites at their edges, PyTorch's errors and warnings, and the names in
the language."""
import numpy as np
import pytest

import autodiff.engine as ad

NAN = float("nan")


def arr(t):
    return np.asarray(t.detach())


# ------------------------------------------------------------------ var_mean, std_mean

def test_var_mean_and_std_mean_return_plain_tuples_under_one_node_name():
    x = ad.tensor([[1.0, 2.0, 4.0], [0.0, 3.0, 3.0]], requires_grad=True)
    out = ad.var_mean(x, 1)
    assert type(out) is tuple and len(out) == 2
    np.testing.assert_allclose(arr(out[0]), np.var(arr(x), axis=1, ddof=1))
    np.testing.assert_allclose(arr(out[1]), np.mean(arr(x), axis=1))
    assert {t.grad_fn.name() for t in out} == {"VarMeanBackward0"}
    s, m = ad.std_mean(x, True)  # var's old overload: unbiased in dim's place
    np.testing.assert_allclose(arr(s), np.std(arr(x), ddof=1))
    assert s.grad_fn.name() == m.grad_fn.name() == "StdMeanBackward0"
    (s + m).backward()
    n = x.numel()
    expected = (arr(x) - arr(x).mean()) / ((n - 1) * np.std(arr(x), ddof=1)) + 1 / n
    np.testing.assert_allclose(np.asarray(x.grad), expected)


def test_var_mean_refuses_integers_and_warns_of_no_degrees_of_freedom():
    with pytest.raises(RuntimeError, match="^var_mean only support floating point and complex dtypes$"):
        ad.var_mean(ad.tensor([1, 2]))
    with pytest.raises(RuntimeError, match="^std_mean only support floating point and complex dtypes$"):
        ad.std_mean(ad.tensor([1, 2]))
    with pytest.warns(UserWarning, match=r"^std_mean\(\): degrees of freedom is <= 0"):
        ad.std_mean(ad.tensor([1.0]))


# ------------------------------------------------------------------ fmax, fmin

def test_fmax_fmin_take_the_number_beside_a_nan_and_give_it_the_gradient():
    a = ad.tensor([1.0, 2.0, NAN, NAN, 5.0], requires_grad=True)
    b = ad.tensor([1.0, 3.0, 1.0, NAN, NAN], requires_grad=True)
    hi = ad.fmax(a, b)
    np.testing.assert_array_equal(arr(hi), [1.0, 3.0, 1.0, NAN, 5.0])
    ga, gb = ad.grad(hi.sum(), (a, b))
    # ties and two NaNs: all to input (PyTorch's masks: input >= other, or other is NaN)
    np.testing.assert_array_equal(np.asarray(ga), [1, 0, 0, 1, 1])
    np.testing.assert_array_equal(np.asarray(gb), [0, 1, 1, 0, 0])
    lo = a.fmin(b)
    np.testing.assert_array_equal(arr(lo), [1.0, 2.0, 1.0, NAN, 5.0])
    ga, gb = ad.grad(lo.sum(), (a, b))
    np.testing.assert_array_equal(np.asarray(ga), [1, 1, 0, 1, 1])
    np.testing.assert_array_equal(np.asarray(gb), [0, 0, 1, 0, 0])


def test_fmax_with_an_infinite_gradient_gives_the_other_a_plain_zero():
    a = ad.tensor([1.0, 5.0], requires_grad=True)
    b = ad.tensor([2.0, 0.0], requires_grad=True)
    ga, gb = ad.grad(ad.fmax(a, b), (a, b), grad_outputs=ad.tensor([float("inf"), float("inf")]))
    np.testing.assert_array_equal(np.asarray(ga), [0.0, np.inf])
    np.testing.assert_array_equal(np.asarray(gb), [np.inf, 0.0])


def test_fmax_refuses_a_number():
    with pytest.raises(TypeError, match=r"^fmax\(\): argument 'other' \(position 2\) must be Tensor, not float$"):
        ad.fmax(ad.tensor([1.0]), 2.0)


# ------------------------------------------------------------------ counting and searching

def test_counting_results_never_require_grad():
    x = ad.tensor([0.5, 1.5, 1.7], requires_grad=True)
    for out in (ad.histc(x, bins=3, min=0, max=3), ad.bucketize(x, ad.tensor([1.0, 2.0])),
                ad.searchsorted(ad.tensor([1.0, 2.0]), x), ad.bincount(ad.tensor([0, 2]), weights=x[:2]),
                ad.unique(x), ad.unique_consecutive(x)):
        assert not out.requires_grad and out.grad_fn is None


def test_bincount_dtypes_and_errors():
    assert ad.bincount(ad.tensor([], dtype=ad.int64)).shape == (0,)
    assert ad.bincount(ad.tensor([1, 1]), weights=ad.tensor([1, 2])).dtype == ad.float64
    assert ad.bincount(ad.tensor([1, 1]), weights=ad.tensor([1, 2], dtype=ad.float32)).dtype == ad.float32
    with pytest.raises(RuntimeError, match=r"^bincount only supports 1-d non-negative integral inputs\.$"):
        ad.bincount(ad.tensor([-1, 2]))
    with pytest.raises(RuntimeError, match=r"^bincount only supports 1-d non-negative integral inputs\.$"):
        ad.bincount(ad.tensor([[1, 2]]))
    with pytest.raises(NotImplementedError, match="^\"bincount_cpu\" not implemented for 'Float'$"):
        ad.bincount(ad.tensor([1.0], dtype=ad.float32))
    with pytest.raises(RuntimeError, match="^minlength should be >= 0$"):
        ad.bincount(ad.tensor([1]), minlength=-1)
    with pytest.raises(RuntimeError, match="^weights should be 1-d and have the same length as input$"):
        ad.bincount(ad.tensor([1, 2]), weights=ad.tensor([1.0]))


def test_histc_edges_and_errors():
    # max counts in the last bin; outside and NaN are left out
    np.testing.assert_array_equal(arr(ad.histc(ad.tensor([0.0, 1, 2, 3, 3, 4, NAN]), bins=4, min=0, max=3)),
                                  [1, 1, 1, 2])
    # one value only: the range is value -+ 1
    np.testing.assert_array_equal(arr(ad.histc(ad.tensor([1.0, 1.0]), bins=4)), [0, 0, 2, 0])
    with pytest.raises(NotImplementedError, match="^\"histogram_cpu\" not implemented for 'Long'$"):
        ad.histc(ad.tensor([1, 2]), bins=4)
    with pytest.raises(RuntimeError, match=r"^torch.histogram\(\): bins must be > 0, but got 0 for dimension 0$"):
        ad.histc(ad.tensor([1.0]), bins=0)
    with pytest.raises(RuntimeError, match="^torch.histc: max must be larger than min$"):
        ad.histc(ad.tensor([1.0]), bins=3, min=2, max=1)
    with pytest.raises(RuntimeError, match=r"^torch.histc: range of \[nan, nan\] is not finite$"):
        ad.histc(ad.tensor([NAN]), bins=3)


def test_searchsorted_scalar_nan_and_errors():
    s = ad.tensor([1.0, 3.0, 5.0, 7.0])
    out = ad.searchsorted(s, 3.0)
    assert out.shape == () and out.item() == 1 and out.dtype == ad.int64
    assert ad.searchsorted(s, 3.0, right=True).item() == 2
    assert ad.bucketize(3.0, s).item() == 1
    np.testing.assert_array_equal(arr(ad.searchsorted(s, ad.tensor([NAN, 2.0]))), [4, 1])  # NaN sorts last
    batched = ad.searchsorted(ad.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]]), ad.tensor([[2.0, NAN], [2.0, 6.0]]),
                              right=True)
    np.testing.assert_array_equal(arr(batched), [[2, 3], [1, 3]])
    with pytest.raises(RuntimeError, match=r"side can only be 'left' or 'right' but got lft$"):
        ad.searchsorted(s, s, side="lft")
    with pytest.raises(RuntimeError, match="side and right can't be set to opposites"):
        ad.searchsorted(s, s, side="left", right=True)
    with pytest.raises(RuntimeError, match="boundaries tensor should be 1 dimension or the first N-1 dimensions"):
        ad.searchsorted(ad.ones(2, 3), ad.tensor([1.0]))
    with pytest.raises(RuntimeError, match="boundaries tensor should have positive dimension, but got 0 dimension"):
        ad.searchsorted(ad.tensor(1.0), ad.tensor([1.0]))
    with pytest.raises(RuntimeError, match="boundary and sorter must have the same size"):
        ad.searchsorted(ad.tensor([5.0, 1, 3]), ad.tensor([2.0]), sorter=ad.tensor([1, 2]))
    with pytest.raises(RuntimeError, match=r"^boundaries tensor must be 1 dimension, but got dim\(2\)$"):
        ad.bucketize(ad.tensor([1.0]), ad.ones(1, 2))


# ------------------------------------------------------------------ unique, unique_consecutive

def test_unique_against_numpy():
    rng = np.random.default_rng(3)
    data = rng.integers(0, 5, (4, 6))
    values, inverse, counts = ad.unique(ad.tensor(data), return_inverse=True, return_counts=True)
    want = np.unique(data, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(arr(values), want[0])
    np.testing.assert_array_equal(arr(inverse), want[1].reshape(data.shape))
    np.testing.assert_array_equal(arr(counts), want[2])
    for dim in (0, 1, -1):
        values, inverse, counts = ad.tensor(data[:, :2] % 2).unique(dim=dim, return_inverse=True,
                                                                    return_counts=True)
        want = np.unique(data[:, :2] % 2, axis=dim, return_inverse=True, return_counts=True)
        np.testing.assert_array_equal(arr(values), want[0])
        np.testing.assert_array_equal(arr(inverse), want[1].reshape(-1))
        np.testing.assert_array_equal(arr(counts), want[2])


def test_unique_keeps_each_nan_and_what_it_returns():
    np.testing.assert_array_equal(arr(ad.unique(ad.tensor([3.0, NAN, 1.0, NAN, 3.0]))), [1.0, 3.0, NAN, NAN])
    out = ad.unique(ad.tensor([2, 1, 2]), return_counts=True)
    assert isinstance(out, tuple) and len(out) == 2
    values, inverse = ad.unique(ad.tensor(3), return_inverse=True)
    assert values.shape == (1,) and inverse.shape == ()
    with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range of \[-2, 1\], but got 3\)$"):
        ad.unique(ad.tensor([[1, 2]]), dim=3)


def test_unique_consecutive():
    values, inverse, counts = ad.unique_consecutive(ad.tensor([1, 1, 2, 2, 3, 1, 1, 2]), return_inverse=True,
                                                    return_counts=True)
    np.testing.assert_array_equal(arr(values), [1, 2, 3, 1, 2])
    np.testing.assert_array_equal(arr(inverse), [0, 0, 1, 1, 2, 3, 3, 4])
    np.testing.assert_array_equal(arr(counts), [2, 2, 1, 2, 1])
    values, counts = ad.tensor([[1, 2], [1, 2], [0, 5], [1, 2]]).unique_consecutive(dim=0, return_counts=True)
    np.testing.assert_array_equal(arr(values), [[1, 2], [0, 5], [1, 2]])
    np.testing.assert_array_equal(arr(counts), [2, 1, 1])
    np.testing.assert_array_equal(arr(ad.unique_consecutive(ad.tensor([NAN, NAN, 1.0]))), [NAN, NAN, 1.0])


# ------------------------------------------------------------------ quantile

def test_quantile_nan_rules_and_shapes():
    x = ad.tensor([[NAN, 1.0, 2.0], [3.0, 1.0, 2.0], [NAN, NAN, NAN]])
    np.testing.assert_array_equal(arr(ad.quantile(x, 0.5, dim=1)), [NAN, 2.0, NAN])
    np.testing.assert_array_equal(arr(ad.nanquantile(x, 0.5, dim=1)), [1.5, 2.0, NAN])
    y = ad.ones(3, 4)
    assert ad.quantile(y, ad.tensor([0.2, 0.5]), dim=0, keepdim=True).shape == (2, 1, 4)
    assert ad.quantile(y, ad.tensor([0.2, 0.5]), keepdim=True).shape == (2, 1, 1)
    assert ad.quantile(y, 0.5, dim=1, keepdim=True).shape == (3, 1)
    assert ad.quantile(ad.tensor(2.0), 0.5, dim=0).item() == 2.0


def test_quantile_errors():
    x = ad.ones(2, 3)
    with pytest.raises(RuntimeError, match=r"^quantile\(\) q must be in the range \[0, 1\] but got 1.5$"):
        ad.quantile(x, 1.5)
    with pytest.raises(RuntimeError, match=r"^quantile\(\) q values must be in the range \[0, 1\]$"):
        ad.nanquantile(x, ad.tensor([0.5, -0.1]))
    with pytest.raises(RuntimeError, match=r"^quantile\(\) q tensor must be same dtype as the input tensor$"):
        ad.quantile(x, ad.tensor([0.5], dtype=ad.float32))
    with pytest.raises(RuntimeError, match=r"^quantile\(\) q must be a scalar or 1D tensor$"):
        ad.quantile(x, ad.tensor([[0.5]]))
    with pytest.raises(RuntimeError, match=r"^quantile\(\) input tensor must be either float or double dtype$"):
        ad.quantile(ad.tensor([1, 2]), 0.5)
    with pytest.raises(RuntimeError, match=r"^quantile\(\) input tensor must be non-empty$"):
        ad.quantile(ad.ones(0), 0.5)
    with pytest.raises(RuntimeError, match=r"^quantile\(\) interpolation must be one of linear, lower, higher, "
                                           r"midpoint or nearest, but got foo$"):
        ad.quantile(x, 0.5, interpolation="foo")
    with pytest.raises(IndexError, match=r"^Dimension out of range"):
        ad.quantile(x, 0.5, 5)


# ------------------------------------------------------------------ cov, corrcoef

def test_cov_errors_and_warning():
    x = ad.ones(2, 5)
    with pytest.raises(RuntimeError, match="^cov\\(\\): expected input to have two or fewer dimensions but got an "
                                           "input with 3 dimensions$"):
        ad.cov(ad.ones(2, 2, 2))
    with pytest.raises(RuntimeError, match=r"^cov\(\): bool dtype is not supported for input$"):
        ad.cov(ad.ones(2, 2, dtype=ad.bool))
    with pytest.raises(RuntimeError, match=r"fweights to have integral dtype but got fweights with Double dtype$"):
        ad.cov(x, fweights=ad.ones(5))
    with pytest.raises(RuntimeError, match=r"fweights to have the same numel as there are observations in the input "
                                           r"but got 2 != 5$"):
        ad.cov(x, fweights=ad.tensor([1, 2]))
    with pytest.raises(RuntimeError, match=r"^cov\(\): fweights cannot be negative$"):
        ad.cov(x, fweights=ad.tensor([1, 2, -1, 1, 1]))
    with pytest.raises(RuntimeError, match=r"aweights to have floating point dtype but got aweights with Long dtype$"):
        ad.cov(x, aweights=ad.tensor([1, 2, 1, 1, 1]))
    with pytest.raises(RuntimeError, match=r"^cov\(\): weights sum to zero, can't be normalized$"):
        ad.cov(x, aweights=ad.zeros(5))
    with pytest.raises(RuntimeError, match=r"^corrcoef\(\): expected input to have two or fewer dimensions"):
        ad.corrcoef(ad.ones(2, 2, 2))
    with pytest.warns(UserWarning, match=r"^cov\(\): degrees of freedom is <= 0"):
        out = ad.cov(ad.ones(3, 1))
    assert np.isnan(arr(out)).all()


def test_cov_gradient_reaches_the_observation_weights():
    x = ad.tensor([[1.0, 2.0, 4.0], [0.0, 1.0, 5.0]])
    w = ad.tensor([1.0, 2.0, 0.5], requires_grad=True)
    assert ad.gradcheck(lambda w: ad.cov(x, aweights=w), (w,))
    assert ad.gradgradcheck(lambda w: ad.cov(x, aweights=w), (w,))


# ------------------------------------------------------------------ trapezoid

def test_trapezoid_edges_and_errors():
    assert ad.trapezoid(ad.zeros(3, 0)).shape == (3,)
    assert ad.cumulative_trapezoid(ad.zeros(3, 0)).shape == (3, 0)
    assert ad.cumulative_trapezoid(ad.zeros(3, 1)).shape == (3, 0)
    np.testing.assert_array_equal(arr(ad.trapezoid(ad.ones(3, 4, dtype=ad.int64), dx=2)), [6.0, 6.0, 6.0])
    with pytest.raises(RuntimeError, match=r"^trapezoid: There must be one `x` value for each sample point$"):
        ad.trapezoid(ad.ones(3, 4), x=ad.ones(3))
    with pytest.raises(RuntimeError, match=r"^trapezoid: received a bool input for `y`, but bool is not supported$"):
        ad.trapezoid(ad.ones(3, dtype=ad.bool))
    with pytest.raises(IndexError, match=r"^Dimension specified as -1 but tensor has no dimensions$"):
        ad.trapezoid(ad.tensor(1.0))
    with pytest.raises(TypeError, match=r"^trapezoid\(\) received an invalid combination of arguments"):
        ad.trapezoid(ad.ones(3, 4), dx=0.5, x=ad.ones(4))
    with pytest.raises(TypeError, match=r"^trapezoid\(\) received an invalid combination of arguments"):
        ad.trapezoid(ad.ones(3, 4), 0.5)


# ------------------------------------------------------------------ the language

def test_the_family_in_the_language(cli):
    program = ("x = torch.tensor([[1., 5, 2, 4], [3, 0, 6, 1]]); "
               "v, m = torch.var_mean(x, 1); s, m2 = torch.std_mean(x); "
               "q = x.quantile(torch.tensor([0.25, 0.5]), dim=1, interpolation='midpoint'); "
               "n = torch.nanquantile(x, 0.5); c = torch.cov(x); r = x.corrcoef(); "
               "f = torch.fmax(x, x * 0 + 2) + torch.fmin(x, x * 0 + 2); "
               "t = torch.trapezoid(x, dx=0.5) + torch.trapz(x) + torch.cumulative_trapezoid(x).sum(1); "
               "b = torch.bincount(torch.tensor([0, 2, 2]), minlength=4); u = torch.unique(torch.tensor([3, 1, 3])); "
               "uc = torch.unique_consecutive(torch.tensor([1, 1, 2])); "
               "k = torch.searchsorted(torch.tensor([1., 3]), torch.tensor([2.]), side='right') + "
               "torch.bucketize(torch.tensor([2.]), torch.tensor([1., 3])); h = torch.histc(x, bins=3, min=0, max=6); "
               "v.sum() + m.sum() + s + m2 + q.sum() + n + c.sum() + r.sum() + f.sum() + t.sum() + b.sum() + u.sum() "
               "+ uc.sum() + k.sum() + h.sum()")
    out = cli.job(program)
    x = np.array([[1.0, 5, 2, 4], [3, 0, 6, 1]])
    want = (np.var(x, 1, ddof=1).sum() + x.mean(1).sum() + np.std(x, ddof=1) + x.mean()
            + np.quantile(x, [0.25, 0.5], axis=1, method="midpoint").sum() + np.median(x) + np.cov(x).sum()
            + np.corrcoef(x).sum() + (np.fmax(x, 2) + np.fmin(x, 2)).sum()
            + (np.trapezoid(x, dx=0.5) + np.trapezoid(x) + np.cumsum((x[:, 1:] + x[:, :-1]) / 2, 1).sum(1)).sum()
            + 3 + 4 + 3 + 2 + 8)  # bincount, unique, unique_consecutive, searchsorted + bucketize, histc
    assert out["value"] == pytest.approx(want)


def test_search_is_pytorchs_binary_search():
    """Each value's place depends on its own row only (NumPy's searchsorted narrows each search by
    the previous value's answer), also on unsorted boundaries and NaN ones (PyTorch's answers)."""
    b = ad.tensor([-4.8, -7.6, -0.6, -4.1, 7.4])
    assert ad.bucketize(ad.tensor([-4.8, -4.8, -0.6, -1.5, -2.0]), b).tolist() == [2, 2, 2, 2, 2]
    assert ad.bucketize(ad.tensor([-0.6]), b).tolist() == [2]
    s = ad.tensor([1.0, 2.0, NAN])
    for right in (False, True):
        assert ad.searchsorted(s, ad.tensor([5.0, 1.5, NAN]), right=right).tolist() == [3, 1, 3]
        assert ad.searchsorted(s[None].expand(2, 3), ad.tensor([[5.0, 1.5], [NAN, 0.0]]), right=right).tolist() \
            == [[3, 1], [3, 0]]
