"""The number ops and their utilities (engine/ops/numbers.py, engine/functions/numbers.py) beyond the
op cases: dtypes and promotion, edge values, PyTorch's refusals in its words (PyTorch 2.13's
messages), and the hand-written functions -- isin, broadcast_shapes, unravel_index, combinations,
msort, fill, scalar_tensor -- against numpy, itertools and hand-worked values, with their
derivatives checked by finite differences."""
import itertools
import math

import numpy as np
import pytest

import autodiff.engine as ad


def _raises(kind, text, f, *args, **kwargs):
    with pytest.raises(kind) as info:
        f(*args, **kwargs)
    assert str(info.value) == text


# ------------------------------------------------------------------ gcd, lcm

@pytest.mark.parametrize("dtype", [ad.uint8, ad.int8, ad.int16, ad.int32, ad.int64])
def test_gcd_and_lcm_keep_an_integer_dtype(dtype):
    a, b = ad.tensor([4, 6, 0, 9], dtype=dtype), ad.tensor([6, 9, 5, 0], dtype=dtype)
    assert ad.gcd(a, b).dtype == dtype and ad.gcd(a, b).tolist() == [2, 3, 5, 9]
    assert ad.lcm(a, b).dtype == dtype and ad.lcm(a, b).tolist() == [12, 18, 0, 0]


def test_gcd_and_lcm_of_signed_numbers_are_non_negative():
    a, b = [12, -18, 0, 0, -7], [-8, 12, 0, -5, -21]
    assert ad.gcd(ad.tensor(a), ad.tensor(b)).tolist() == [math.gcd(x, y) for x, y in zip(a, b)]
    assert ad.lcm(ad.tensor(a), ad.tensor(b)).tolist() == [math.lcm(x, y) for x, y in zip(a, b)]


def test_gcd_promotes_as_pytorch():
    assert ad.gcd(ad.tensor([4], dtype=ad.int8), ad.tensor([6])).dtype == ad.int64
    assert ad.gcd(ad.tensor([4], dtype=ad.int32), ad.tensor(6)).dtype == ad.int32  # a 0-d tensor does not widen
    assert ad.gcd(ad.tensor([4], dtype=ad.uint8), ad.tensor([6], dtype=ad.int8)).dtype == ad.int16


def test_gcd_refuses_floats_bools_and_numbers():
    _raises(NotImplementedError, "\"gcd_cpu\" not implemented for 'Float'", ad.gcd,
            ad.tensor([4], dtype=ad.int32), ad.tensor(4.0, dtype=ad.float32))
    _raises(NotImplementedError, "\"lcm_cpu\" not implemented for 'Bool'", ad.lcm, ad.tensor([True]), ad.tensor([True]))
    _raises(TypeError, "gcd(): argument 'other' (position 2) must be Tensor, not int", ad.gcd, ad.tensor([4]), 2)


def test_gcd_and_lcm_in_place_keep_the_target_dtype():
    a = ad.tensor([4, 6], dtype=ad.int32)
    assert a.gcd_(ad.tensor([6, 9])) is a and a.tolist() == [2, 3] and a.dtype == ad.int32
    assert ad.lcm_(a, ad.tensor([5, 5], dtype=ad.int32)).tolist() == [10, 15]


# ------------------------------------------------------------------ sgn

def test_sgn_is_the_sign_of_real_tensors():
    x = ad.tensor([2.5, -0.5, 0.0, -0.0, math.nan, math.inf, -math.inf])
    assert ad.sgn(x).tolist()[:4] + ad.sgn(x).tolist()[5:] == [1.0, -1.0, 0.0, 0.0, 1.0, -1.0]
    assert ad.sgn(x).tolist()[4] == 0.0  # sign(NaN) is 0, as PyTorch's
    assert ad.sgn(ad.tensor([-3, 0, 4])).tolist() == [-1, 0, 1]
    assert ad.sgn(ad.tensor([True, False])).tolist() == [True, False]


def test_sgn_gradient_is_zero_and_constant():
    x = ad.tensor([1.5, -2.0], requires_grad=True)
    y = ad.sgn(x)
    assert y.grad_fn.name() == "SgnBackward0"
    (g,) = ad.grad(y.sum(), x, create_graph=True)
    assert g.tolist() == [0.0, 0.0] and not g.requires_grad  # PyTorch's too: no graph behind it


# ------------------------------------------------------------------ ldexp

@pytest.mark.parametrize("x, e, dtype", [
    (ad.tensor([1, 2]), ad.tensor([1, 2]), ad.float64),                       # integers: the default dtype
    (ad.tensor([True]), ad.tensor([True]), ad.float64),
    (ad.tensor([1.0], dtype=ad.float16), ad.tensor([1, 2]), ad.float16),
    (ad.tensor([1, 2]), ad.tensor(1.0, dtype=ad.float64), ad.float64),         # a 0-d float widens integers
    (ad.tensor([1.0], dtype=ad.float32), ad.tensor([1.0], dtype=ad.float64), ad.float64),
    (ad.tensor([1.0], dtype=ad.float32), ad.tensor(3), ad.float32),
])
def test_ldexp_result_dtype(x, e, dtype):
    assert ad.ldexp(x, e).dtype == dtype


def test_ldexp_float32_result_dtype_under_a_float32_default():
    old = ad.get_default_dtype()
    ad.set_default_dtype(ad.float32)
    try:
        assert ad.ldexp(ad.tensor([1, 2]), ad.tensor([1, 2])).dtype == ad.float32
    finally:
        ad.set_default_dtype(old)


def test_ldexp_values_and_overflow():
    assert ad.ldexp(ad.tensor([1.5, -3.0]), ad.tensor([2, -1])).tolist() == [6.0, -1.5]
    assert ad.ldexp(ad.tensor([1.5]), ad.tensor([1.5])).item() == pytest.approx(1.5 * 2 ** 1.5, rel=1e-15)
    small = ad.ldexp(ad.tensor([1.0, 2.0], dtype=ad.float32), ad.tensor([1000, -1000]))
    assert small.tolist() == [math.inf, 0.0]
    # PyTorch's definition is the product input * 2 ** other: 2 ** 1024 overflows first
    assert ad.ldexp(ad.tensor([0.5]), ad.tensor([1024])).item() == math.inf
    assert ad.ldexp(ad.tensor([2.0]), ad.tensor([-1074])).item() == 2.0 ** -1073


def test_ldexp_gradients_by_hand():
    x = ad.tensor([1.5, -2.0, 0.0], requires_grad=True)
    e = ad.tensor([0.5, 2.0, -1.0], requires_grad=True)
    y = ad.ldexp(x, e)
    assert y.grad_fn.name() == "LdexpBackward0"
    gx, ge = ad.grad(y.sum(), (x, e))
    np.testing.assert_allclose(gx.numpy(), 2.0 ** np.array([0.5, 2.0, -1.0]), rtol=1e-15)
    np.testing.assert_allclose(ge.numpy(), np.array([1.5, -2.0, 0.0]) * math.log(2) * 2.0 ** np.array([0.5, 2, -1]),
                               rtol=1e-15)


def test_ldexp_refusals():
    _raises(TypeError, "ldexp(): argument 'other' (position 2) must be Tensor, not int", ad.ldexp, ad.tensor([1.0]), 2)
    with pytest.raises(RuntimeError):
        ad.tensor([1, 2]).ldexp_(ad.tensor([1, 2]))  # a float result cannot be written into int64


# ------------------------------------------------------------------ nextafter

def test_nextafter_steps_one_float():
    x = ad.tensor([1.0, 1.0, 0.0, 2.0, math.nan], dtype=ad.float32)
    y = ad.tensor([2.0, 0.0, 1.0, 2.0, 1.0], dtype=ad.float32)
    out = ad.nextafter(x, y).tolist()
    assert out[:4] == [1.0 + 2.0 ** -23, 1.0 - 2.0 ** -24, 2.0 ** -149, 2.0] and math.isnan(out[4])
    assert ad.nextafter(ad.tensor([1.0], dtype=ad.float32), ad.tensor([2.0])).dtype == ad.float64


def test_nextafter_refuses_integers_and_numbers():
    _raises(NotImplementedError, "\"nextafter_cpu\" not implemented for 'Long'", ad.nextafter,
            ad.tensor([1, 2]), ad.tensor([1, 2]))
    _raises(TypeError, "nextafter(): argument 'other' (position 2) must be Tensor, not float", ad.nextafter,
            ad.tensor([1.0]), 2.0)


def test_nextafter_gradient_is_pytorchs():
    """The identity for input, zeros for other (PyTorch's NextafterBackward0)."""
    x = ad.tensor([1.5, -2.0], requires_grad=True)
    y = ad.tensor([0.5, 2.0], requires_grad=True)
    gx, gy = ad.grad((ad.nextafter(x, y) * ad.tensor([3.0, 4.0])).sum(), (x, y))
    assert gx.tolist() == [3.0, 4.0] and gy.tolist() == [0.0, 0.0]


# ------------------------------------------------------------------ frexp

def test_frexp_parts_rebuild_the_input():
    values = [3.0, -0.3, 1e-310, 5e300, 1.0, 0.5]
    m, e = ad.frexp(ad.tensor(values))
    assert e.dtype == ad.int32 and m.dtype == ad.float64
    for v, mv, ev in zip(values, m.tolist(), e.tolist()):
        assert 0.5 <= abs(mv) < 1 and math.ldexp(mv, ev) == v
    assert e.tolist()[2] == -1029  # a subnormal: its exponent as if normalised


def test_frexp_of_zeros_infinities_and_nan():
    m, e = ad.frexp(ad.tensor([0.0, -0.0, math.inf, -math.inf, math.nan], dtype=ad.float32))
    assert e.tolist() == [0, 0, 0, 0, 0] and m.dtype == ad.float32
    assert m.tolist()[:4] == [0.0, 0.0, math.inf, -math.inf] and math.copysign(1, m.tolist()[1]) == -1
    assert math.isnan(m.tolist()[4])


def test_frexp_result_and_gradient():
    x = ad.tensor([3.0, -0.3], requires_grad=True)
    result = x.frexp()
    assert repr(result).startswith("torch.return_types.frexp(\nmantissa=")
    assert result.mantissa.grad_fn.name() == "FrexpBackward0" and not result.exponent.requires_grad
    (g,) = ad.grad(result.mantissa.sum(), x)
    assert g.tolist() == [0.25, 2.0]  # 2 ** -exponent: 3 = 0.75 * 2**2, -0.3 = -0.6 * 2**-1
    _raises(RuntimeError, "torch.frexp() only supports floating-point dtypes", ad.frexp, ad.tensor([1, 2]))


# ------------------------------------------------------------------ isin

def test_isin_against_numpy():
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 10, (4, 5)), rng.integers(0, 10, 6)
    np.testing.assert_array_equal(ad.isin(ad.tensor(a), ad.tensor(b)).numpy(), np.isin(a, b))
    np.testing.assert_array_equal(ad.isin(ad.tensor(a), ad.tensor(b), invert=True).numpy(), ~np.isin(a, b))


def test_isin_numbers_either_side_and_promotion():
    assert ad.isin(ad.tensor([1.5, 2.0]), 2).tolist() == [False, True]
    r = ad.isin(2, ad.tensor([1, 2]))
    assert r.shape == () and r.item() is True
    assert ad.isin(ad.tensor([1, 2, 3]), ad.tensor([2.0, 3.5])).tolist() == [False, True, False]
    # compared in PyTorch's promoted dtype, float32: 16777217 rounds to 16777216 there
    assert ad.isin(ad.tensor([16777217]), ad.tensor([16777216.0], dtype=ad.float32)).tolist() == [True]


def test_isin_nan_is_never_in_and_zeros_are_equal():
    assert ad.isin(ad.tensor([math.nan, 0.0]), ad.tensor([math.nan, -0.0])).tolist() == [False, True]


def test_isin_refusals():
    _raises(RuntimeError, "Unsupported input type encountered for isin(): Bool", ad.isin,
            ad.tensor([1]), ad.tensor([True]))
    with pytest.raises(TypeError, match=r"^isin\(\) received an invalid combination of arguments - got \(int, int\)"):
        ad.isin(2, 3)


# ------------------------------------------------------------------ isreal, argwhere

def test_isreal_is_true_for_every_real_element():
    assert ad.isreal(ad.tensor([[1.0, math.nan], [math.inf, 0.0]])).tolist() == [[True, True], [True, True]]
    assert ad.tensor([1, 2]).isreal().dtype == ad.bool_


def test_argwhere_counts_nan_and_handles_zero_dims():
    assert ad.argwhere(ad.tensor([math.nan, 0.0, -0.0, 2.0])).tolist() == [[0], [3]]
    assert ad.argwhere(ad.tensor(3.0)).shape == (1, 0) and ad.argwhere(ad.tensor(0.0)).shape == (0, 0)
    assert ad.tensor([[True, False], [False, True]]).argwhere().tolist() == [[0, 0], [1, 1]]
    assert ad.argwhere(ad.tensor([1.0])).dtype == ad.int64


# ------------------------------------------------------------------ unravel_index

def test_unravel_index_against_numpy():
    flat = np.array([[0, 7, 23], [11, 5, 18]])
    got = ad.unravel_index(ad.tensor(flat), (2, 3, 4))
    assert isinstance(got, tuple) and len(got) == 3
    for g, want in zip(got, np.unravel_index(flat, (2, 3, 4))):
        assert g.dtype == ad.int64
        np.testing.assert_array_equal(g.numpy(), want)


def test_unravel_index_wraps_as_pytorch():
    """(index // stride) % size: -1 is the last element, 6 of a 2 x 3 wraps to the first."""
    rows, cols = ad.unravel_index(ad.tensor([-1, -7, 6], dtype=ad.int32), (2, 3))
    assert rows.tolist() == [1, 1, 0] and cols.tolist() == [2, 2, 0]
    r, c = ad.unravel_index(ad.tensor(4), (2, 3))
    assert r.shape == () and (r.item(), c.item()) == (1, 1)
    (only,) = ad.unravel_index(ad.tensor([4, 5]), 6)
    assert only.tolist() == [4, 5]


def test_unravel_index_refusals():
    _raises(TypeError, "expected 'indices' to be integer dtype, but got torch.float64", ad.unravel_index,
            ad.tensor([1.0]), (2, 3))
    _raises(TypeError, "expected 'indices' to be integer dtype, but got torch.bool", ad.unravel_index,
            ad.tensor([True]), (2, 3))
    _raises(ValueError, "'shape' cannot have negative values, but got (2, -3)", ad.unravel_index,
            ad.tensor([1]), (2, -3))
    _raises(TypeError, "expected 'shape' sequence to only contain ints, but got <class 'float'>", ad.unravel_index,
            ad.tensor([1]), (2.0, 3))
    _raises(RuntimeError, "ZeroDivisionError", ad.unravel_index, ad.tensor([0]), (2, 0))


# ------------------------------------------------------------------ broadcast_shapes

@pytest.mark.parametrize("shapes", [((2, 1), (3,)), ((2,), (3, 1), (1, 1, 1)), ((0, 1), (3,)), ((5,),), ()])
def test_broadcast_shapes_against_numpy(shapes):
    got = ad.broadcast_shapes(*shapes)
    assert isinstance(got, ad.Size) and got == np.broadcast_shapes(*shapes)


def test_broadcast_shapes_takes_ints_and_lists():
    assert ad.broadcast_shapes(5, [2, 1]) == (2, 5)


def test_broadcast_shapes_refusals():
    _raises(RuntimeError, "Attempting to broadcast a dimension of length 5 at -1! Mismatching argument at index 1 had "
                          "(2, 5); but expected shape should be broadcastable to [1, 3]",
            ad.broadcast_shapes, (3,), (2, 5))
    _raises(ValueError, "Attempting to broadcast a dimension with negative length!", ad.broadcast_shapes, (1,), (-1,))
    _raises(RuntimeError, "Input shapes should be of type ints, a tuple of ints, or a list of ints, got 2.0",
            ad.broadcast_shapes, 2.0)


# ------------------------------------------------------------------ combinations

@pytest.mark.parametrize("r", [1, 2, 3])
@pytest.mark.parametrize("with_replacement", [False, True])
def test_combinations_against_itertools(r, with_replacement):
    values = [3.0, 1.0, 4.0, 1.5]
    make = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    got = ad.combinations(ad.tensor(values), r=r, with_replacement=with_replacement)
    assert got.tolist() == [list(c) for c in make(values, r)]


def test_combinations_edges():
    x = ad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    empty = ad.combinations(x, r=0)
    assert empty.shape == (0,) and not empty.requires_grad
    assert ad.combinations(x, r=4).shape == (0, 4)
    assert ad.combinations(ad.tensor([1, 2, 3])).tolist() == [[1, 2], [1, 3], [2, 3]]
    assert ad.combinations(x).grad_fn.name() == "StackBackward0"
    _raises(RuntimeError, "Expect a 1D vector, but got shape [2, 2]", ad.combinations, ad.tensor([[1.0, 2.0]] * 2))
    _raises(RuntimeError, "Expect a non-negative number, but got -1", ad.combinations, x, r=-1)


@pytest.mark.parametrize("r, with_replacement", [(2, False), (3, True)])
def test_combinations_derivatives(r, with_replacement):
    x = ad.tensor(np.random.default_rng(5).standard_normal(4), requires_grad=True)
    f = lambda t: ad.combinations(t, r=r, with_replacement=with_replacement) ** 2  # noqa: E731
    assert ad.gradcheck(f, (x,))
    assert ad.gradgradcheck(f, (x,))


# ------------------------------------------------------------------ msort

def test_msort_sorts_the_first_dim():
    a = np.random.default_rng(7).standard_normal((4, 3, 2))
    x = ad.tensor(a, requires_grad=True)
    y = ad.msort(x)
    np.testing.assert_array_equal(y.detach().numpy(), np.sort(a, axis=0))
    assert y.grad_fn.name() == "SortBackward0" and x.msort().tolist() == y.tolist()
    assert ad.gradcheck(ad.msort, (x,)) and ad.gradgradcheck(ad.msort, (x,))
    assert ad.msort(ad.tensor(3.0)).item() == 3.0


# ------------------------------------------------------------------ fill

def test_fill_with_a_number():
    x = ad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = ad.fill(x, 2.5)
    assert y.tolist() == [[2.5, 2.5], [2.5, 2.5]] and y.grad_fn.name() == "FillBackward0"
    (g,) = ad.grad(y.sum(), x)
    assert g.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert x.tolist() == [[1.0, 2.0], [3.0, 4.0]]  # out of place
    assert ad.fill(ad.tensor([1, 2]), 2.7).tolist() == [2, 2] and ad.fill(ad.tensor([1.0]), True).tolist() == [1.0]


def test_fill_with_a_tensor_value():
    x = ad.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    v = ad.tensor(1.5, requires_grad=True)
    y = ad.fill(x, v)
    assert y.tolist() == [[1.5, 1.5, 1.5]] and y.grad_fn.name() == "FillBackward1"
    gx, gv = ad.grad((y * ad.tensor([[1.0, 2.0, 4.0]])).sum(), (x, v))
    assert gx.tolist() == [[0.0, 0.0, 0.0]] and gv.item() == 7.0
    y.add_(1)  # its own memory
    assert y.tolist() == [[2.5, 2.5, 2.5]]
    assert ad.fill(ad.tensor([1, 2]), ad.tensor(2.7)).tolist() == [2, 2]


def test_fill_refusals():
    _raises(RuntimeError, "fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.",
            ad.fill, ad.tensor([1.0]), ad.tensor([2.0]))
    _raises(RuntimeError, "Autograd not support dtype: Long", ad.fill, ad.tensor([1, 2]),
            ad.tensor(3.0, requires_grad=True))
    with pytest.raises(TypeError, match=r"^fill\(\) received an invalid combination of arguments - "
                                        r"got \(Tensor, str\)"):
        ad.fill(ad.tensor([1.0]), "a")


# ------------------------------------------------------------------ scalar_tensor

def test_scalar_tensor():
    t = ad.scalar_tensor(3)
    assert t.shape == () and t.dtype == ad.get_default_dtype() and t.item() == 3.0
    assert ad.scalar_tensor(2.5, dtype=ad.int64).item() == 2 and ad.scalar_tensor(True).item() == 1.0
    assert ad.scalar_tensor(2.5, requires_grad=True).requires_grad
    assert ad.scalar_tensor(ad.tensor(2)).dtype == ad.get_default_dtype()
    _raises(TypeError, "scalar_tensor(): argument 's' (position 1) must be Number, not list", ad.scalar_tensor, [3.0])
    _raises(TypeError, "scalar_tensor(): argument 's' (position 1) must be Number, not Tensor", ad.scalar_tensor,
            ad.tensor([2.0, 3.0]))
