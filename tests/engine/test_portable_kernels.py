"""kernels.accumulate and kernels.reduce_at off the CPU (their portable branch, run on the
stand-in GPU's array module) against numpy's ufunc.accumulate and ufunc.at, which the CPU
branch is: maximum and minimum exactly (NaN, ties and negative indices included), logaddexp and
multiply to rounding (another grouping). And the stand-in refuses what CuPy lacks, so a use
of it in the engine fails here, not first on a GPU."""
import numpy as np
import pytest

import fakecuda
from autodiff.engine import kernels

XP = fakecuda.FakeCupy()


def _device(a):
    return fakecuda.from_host(np.asarray(a))


def _with_nans(rng, shape):
    x = rng.standard_normal(shape).round(1)  # ties
    x[rng.random(shape) < 0.1] = np.nan
    return x


@pytest.mark.parametrize("name", ["maximum", "minimum"])
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_running_extreme_is_numpys(name, axis):
    x = _with_nans(np.random.default_rng(axis), (5, 9, 17))
    got = kernels.accumulate(XP, name, _device(x), axis)
    assert type(got) is fakecuda.FakeCudaArray
    np.testing.assert_array_equal(fakecuda.to_host(got), getattr(np, name).accumulate(x, axis=axis))


def test_running_logaddexp_to_rounding():
    x = np.random.default_rng(1).standard_normal((3, 100)) * 30
    x[0, :7] = -np.inf
    x[1, 50] = np.inf
    got = fakecuda.to_host(kernels.accumulate(XP, "logaddexp", _device(x), 1))
    np.testing.assert_allclose(got, np.logaddexp.accumulate(x, axis=1), rtol=1e-14, atol=0)


def test_running_extreme_of_integers_and_one_element():
    x = np.random.default_rng(2).integers(-5, 5, (4, 11))
    np.testing.assert_array_equal(fakecuda.to_host(kernels.accumulate(XP, "maximum", _device(x), 1)),
                                  np.maximum.accumulate(x, axis=1))
    one = np.array([[3.0]])
    np.testing.assert_array_equal(fakecuda.to_host(kernels.accumulate(XP, "minimum", _device(one), 0)), one)


def _scatter_inputs(rng, dtype=np.float64):
    target = rng.standard_normal((4, 5)).round(1).astype(dtype)
    rows = rng.integers(-4, 4, (30,))  # repeats, negatives
    cols = rng.integers(0, 5, (30,))
    values = rng.standard_normal(30).round(1).astype(dtype)
    return target, (rows, cols), values


@pytest.mark.parametrize("name", ["maximum", "minimum", "multiply", "add"])
def test_reduce_at_is_numpys(name):
    rng = np.random.default_rng(3)
    target, key, values = _scatter_inputs(rng)
    values[[2, 9]] = np.nan
    want = target.copy()
    getattr(np, name).at(want, key, values)
    got = _device(target)
    kernels.reduce_at(XP, name, got, tuple(_device(k) for k in key), _device(values))
    if name in ("maximum", "minimum"):
        np.testing.assert_array_equal(fakecuda.to_host(got), want)
    else:
        np.testing.assert_allclose(fakecuda.to_host(got), want, rtol=1e-14, atol=0)


def test_reduce_at_broadcast_key_and_integers():
    rng = np.random.default_rng(4)
    target = rng.integers(-9, 9, (3, 4))
    rows = rng.integers(0, 3, (6, 1))
    cols = np.arange(4)[None, :]  # broadcast against rows: a grid key, as scatter's
    values = rng.integers(-9, 9, (6, 4))
    for name in ("maximum", "multiply"):
        want = target.copy()
        getattr(np, name).at(want, (rows, cols), values)
        got = _device(target)
        kernels.reduce_at(XP, name, got, (_device(rows), _device(cols)), _device(values))
        np.testing.assert_array_equal(fakecuda.to_host(got), want)


# ------------------------------------------------------------- what the stand-in refuses, as CuPy

@pytest.mark.parametrize("refused", [
    lambda x: np.maximum.accumulate(x),
    lambda x: np.logaddexp.accumulate(x),
    lambda x: np.multiply.at(x, _device([0]), _device([2.0])),
    lambda x: np.maximum.at(x, _device([0]), _device([2.0])),
    lambda x: np.maximum.reduceat(x, _device([0, 1])),
    lambda x: np.maximum.reduce(x),
], ids=["maximum.accumulate", "logaddexp.accumulate", "multiply.at", "maximum.at", "maximum.reduceat",
        "maximum.reduce"])
def test_stand_in_refuses_ufunc_methods_cupy_lacks(refused):
    with pytest.raises(NotImplementedError):
        refused(_device([1.0, 2.0, 3.0]))


def test_stand_in_keeps_ufunc_methods_cupy_has():
    x = _device([1.0, 2.0, 3.0])
    assert type(np.add.accumulate(x)) is fakecuda.FakeCudaArray
    np.testing.assert_array_equal(fakecuda.to_host(np.multiply.accumulate(x)), [1.0, 2.0, 6.0])
    np.add.at(x, _device([0, 0]), _device([1.0, 1.0]))
    np.testing.assert_array_equal(fakecuda.to_host(x), [3.0, 2.0, 3.0])
    assert float(x.max()) == 3.0 and bool(x.any()) and float(XP.max(x)) == 3.0


@pytest.mark.parametrize("refused", [
    lambda x: x.max(initial=0.0), lambda x: x.min(axis=0, initial=0.0), lambda x: XP.max(x, initial=0.0),
    lambda x: x.sum(where=x > 1), lambda x: np.amax(x, initial=0.0)])
def test_stand_in_refuses_reduction_keywords_cupy_lacks(refused):
    with pytest.raises(TypeError):
        refused(_device([1.0, 2.0, 3.0]))


def test_stand_in_where_wants_an_array_condition():
    x = _device([1.0, 2.0])
    for where in (XP.where, np.where):
        with pytest.raises(AttributeError):
            where(True, 0.0, x)
    assert type(XP.where(x > 1, 0.0, x)) is fakecuda.FakeCudaArray


def test_stand_in_refuses_implicit_host_conversion():
    previous = fakecuda.install()
    try:
        x = _device([1.0, 2.0])
        for convert in (np.asarray, np.array, np.asanyarray, np.ascontiguousarray, lambda a: np.array([a, a])):
            with pytest.raises(TypeError):
                convert(x)
        np.testing.assert_array_equal(fakecuda.to_host(x), [1.0, 2.0])  # (the explicit copy: cupy.asnumpy)
        assert type(np.asarray([1.0])) is np.ndarray
    finally:
        fakecuda.uninstall(previous)
    assert type(np.asarray(x)) is np.ndarray  # numpy's own again once uninstalled


def test_stand_in_solvers_pick_other_signs_than_numpys():
    a = np.random.default_rng(5).standard_normal((4, 3))
    u, s, vh = XP.linalg.svd(_device(a), full_matrices=False)
    nu, ns, nvh = np.linalg.svd(a, full_matrices=False)
    np.testing.assert_allclose(fakecuda.to_host(u)[:, 1], -nu[:, 1])
    np.testing.assert_allclose(fakecuda.to_host((u * s[None, :]) @ vh), a, atol=1e-12)
    sym = a.T @ a
    w, v = XP.linalg.eigh(_device(sym))
    np.testing.assert_allclose(fakecuda.to_host((v * w[None, :]) @ v.T), sym, atol=1e-12)
    assert not np.allclose(fakecuda.to_host(v), np.linalg.eigh(sym)[1])
