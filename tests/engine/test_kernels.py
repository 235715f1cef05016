"""engine/kernels.py, the formulas that need care: erf, erfc and erfinv against 120-bit values
(tests/golden/kernels.json, written by tests/golden/gen_kernels.py with mpmath); powers by
products exact; every kernel giving a 0-d value, a one-element array, an n-d array and a
strided view the same bits (the same job on another path); the small determinants exact."""
import json
import math

import numpy
import pytest

from autodiff.engine import kernels
import locations

_DATA = json.loads((locations.GOLDEN / "kernels.json").read_text())
GOLDEN = _DATA["erf_erfc"]
INVERSE = _DATA["erfinv"]
X = numpy.array([c[0] for c in GOLDEN])
ULPS = 5  # measured: the worst of 2,409 points is 5 units in the last place (erfc near 10-20)


def _ulps(got, want):
    """How far apart in units in the last place of `want` (a subnormal's unit where want is tiny)."""
    return numpy.abs(got - want) / numpy.maximum(numpy.spacing(numpy.abs(want)), 5e-324)


@pytest.mark.parametrize("name, column", [("erf", 1), ("erfc", 2)])
def test_erf_and_erfc_within_a_few_units_of_the_exact_values(name, column):
    want = numpy.array([c[column] for c in GOLDEN])
    got = getattr(kernels, name)(numpy, X)
    assert _ulps(got, want).max() <= ULPS


def test_erfinv_within_a_few_units_of_the_exact_values():
    y = numpy.array([c[0] for c in INVERSE])
    want = numpy.array([c[1] for c in INVERSE])
    assert _ulps(kernels.erfinv(numpy, y), want).max() <= 2  # measured: 2, at 1 - y near 1e-16


def test_erfinv_at_its_special_points_and_back_through_erf():
    got = kernels.erfinv(numpy, numpy.array([0.0, -0.0, 1.0, -1.0, 1.5, -2.0, numpy.nan]))
    assert [repr(float(g)) for g in got] == ["0.0", "-0.0", "inf", "-inf", "nan", "nan", "nan"]
    y = numpy.linspace(-0.99, 0.99, 199)
    assert numpy.abs(kernels.erf(numpy, kernels.erfinv(numpy, y)) - y).max() <= 2.3e-16


@pytest.mark.parametrize("name", ["erf", "erfc"])
def test_erf_and_erfc_at_their_special_points(name):
    f = getattr(kernels, name)
    x = numpy.array([0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 27.3, -27.3, 1e-310, 40.0])
    got = f(numpy, x)
    want = [getattr(math, name)(v) for v in x.tolist()]
    assert [repr(float(g)) for g in got] == [repr(float(w)) for w in want]


@pytest.mark.parametrize("name", ["erf", "erfc"])
def test_float32_in_double_then_rounded(name):
    x32 = X.astype(numpy.float32)
    got = getattr(kernels, name)(numpy, x32)
    assert got.dtype == numpy.float32
    assert (got == getattr(kernels, name)(numpy, x32.astype(numpy.float64)).astype(numpy.float32)).all()


_SAMPLES = numpy.random.default_rng(4).standard_normal(257) * 3


@pytest.mark.parametrize("kernel", [
    lambda xp, x: kernels.erf(xp, x), lambda xp, x: kernels.erfc(xp, x),
    lambda xp, x: kernels.erfinv(xp, xp.tanh(x)),
    *[lambda xp, x, p=p: kernels.power(xp, xp.abs(x), p) for p in (2, 3, -1, -2, 0.5, -0.5, 2.5, 1.7, -3)],
    lambda xp, x: kernels.lerp(xp, x, x * 0.3 + 1, numpy.float64(0.7)),
    lambda xp, x: kernels.log_add_exp(xp, x, x * 0.5 - 1),
    lambda xp, x: kernels.log_add_exp(xp, x, x * 0.5 - 1, base2=True),
], ids=["erf", "erfc", "erfinv"] + [f"power{p}" for p in (2, 3, -1, -2, 0.5, -0.5, 2.5, 1.7, -3)] + ["lerp", "logaddexp", "logaddexp2"])
def test_a_0d_value_and_every_array_give_the_same_bits(kernel):
    x = _SAMPLES
    whole = kernel(numpy, x)
    ones = numpy.array([kernel(numpy, v) for v in x])                       # numpy float64 scalars
    zero_d = numpy.array([kernel(numpy, numpy.array(v))[()] for v in x])    # 0-d arrays
    single = numpy.array([kernel(numpy, x[i:i + 1])[0] for i in range(x.size)])
    wide = numpy.empty(2 * x.size)
    wide[::2] = x
    strided = kernel(numpy, wide[::2])
    for other in (ones, zero_d, single, strided):
        assert numpy.array_equal(other.view(numpy.int64), whole.view(numpy.int64))


def test_powers_by_products():
    x = _SAMPLES
    assert numpy.array_equal(kernels.power(numpy, x, 2), x * x)
    assert numpy.array_equal(kernels.power(numpy, x, 3), x * x * x)
    assert numpy.array_equal(kernels.power(numpy, x, -1), 1 / x)
    assert numpy.array_equal(kernels.power(numpy, numpy.abs(x), 0.5), numpy.sqrt(numpy.abs(x)))
    ints = numpy.arange(-5, 6)
    assert kernels.power(numpy, ints, 2).tolist() == [v * v for v in range(-5, 6)]


def test_variance_is_two_pass():
    # a large mean and a tiny spread: a one-pass sum of squares would lose every digit here
    x = 1e9 + numpy.array([1.0, 2.0, 3.0, 4.0])
    assert kernels.variance(numpy, x, None, 1, False, 4) == pytest.approx(5 / 3, rel=1e-12)


def test_logsumexp_and_softmax_do_not_overflow():
    x = numpy.array([1000.0, 1000.0, -numpy.inf])
    assert kernels.logsumexp(numpy, x, 0, False) == pytest.approx(1000 + math.log(2))
    assert kernels.softmax(numpy, x, 0).tolist() == [0.5, 0.5, 0.0]
    assert kernels.log_softmax(numpy, numpy.array([0.0, -800.0]), 0)[1] == -800.0  # not log(0)
    assert kernels.logsumexp(numpy, numpy.array([-numpy.inf, -numpy.inf]), 0, False) == -numpy.inf


def test_small_determinants_exact():
    assert kernels.det(numpy, numpy.array([[1.0, 2.0], [3.0, 4.0]])) == -2.0
    assert kernels.det(numpy, 2 * numpy.eye(3)) == 8.0
    assert kernels.det(numpy, numpy.zeros((0, 0))) == 1.0
