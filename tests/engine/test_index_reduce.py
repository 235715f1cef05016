"""index_reduce beyond the op cases: integer tensors (mean rounds down, as PyTorch's floor
division), include_self=False on untouched slices, the in-place variant, and PyTorch's refusals in
its order and words."""
import numpy as np
import pytest

import autodiff.engine as E

I = E.tensor


def test_integer_mean_rounds_down():
    x = I([-5, 7, 4])
    # (-5 + 2 - 4) / 3 = -2.33 -> -3; slot 1 untouched; (4 + 9) / 2 = 6.5 -> 6
    assert x.index_reduce(0, I([0, 0, 2]), I([2, -4, 9]), "mean").tolist() == [-3, 7, 6]
    # without self: (2 - 4) / 2 = -1, 9 / 1 = 9
    assert x.index_reduce(0, I([0, 0, 2]), I([2, -4, 9]), "mean", include_self=False).tolist() == [-1, 7, 9]


def test_without_self_untouched_slices_stay():
    x = E.tensor([[1.0, 5.0, -2.0], [0.5, 3.0, 4.0]], dtype=E.float64)
    src = E.tensor([[7.0, -1.0], [2.0, 6.0]], dtype=E.float64)
    got = E.index_reduce(x, 1, I([2, 2]), src, "amin", include_self=False)
    assert got.tolist() == [[1.0, 5.0, -1.0], [0.5, 3.0, 2.0]]
    got = x.index_reduce(1, I([0, 2], dtype=E.int32), src, "prod", include_self=False)
    assert got.tolist() == [[7.0, 5.0, -1.0], [2.0, 3.0, 6.0]]


def test_inplace_writes_and_returns_self():
    x = E.tensor([1.0, 2.0, 3.0], dtype=E.float64)
    out = x.index_reduce_(0, I([1, 1]), E.tensor([4.0, 0.5], dtype=E.float64), "amax")
    assert out is x and x.tolist() == [1.0, 4.0, 3.0]


def test_zero_dim_self_and_source():
    got = E.tensor(2.0, dtype=E.float64).index_reduce(0, I([0]), E.tensor(3.0, dtype=E.float64), "prod")
    assert tuple(got.shape) == () and got.item() == 6.0


X = E.zeros(3, 4, dtype=E.float64)
S = E.ones(3, 2, dtype=E.float64)


@pytest.mark.parametrize("call, error, message", [
    (lambda: X.index_reduce(1, I([3, 0]), S, "sum"), RuntimeError,
     "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got sum."),
    (lambda: X.index_reduce(1, I([3.0, 0.0]), S, "prod"), RuntimeError,
     "index_reduce_(): Expected dtype int32/int64 for index but got: Double"),
    (lambda: X.index_reduce(1, I([[3, 0]]), S, "prod"), IndexError,
     "index_reduce_(): Index is supposed to be a vector, but got dim: 2 with type: Long and size: [1, 2]"),
    (lambda: X.index_reduce(1, I([4, 0]), S, "prod"), IndexError, "index out of range in self"),
    (lambda: X.index_reduce(1, I([-1, 0]), S, "prod"), IndexError, "index out of range in self"),
    (lambda: X.index_reduce(1, I([3, 0, 1]), S, "prod"), RuntimeError,
     "index_reduce_(): Number of indices (3) should be equal to source.size(dim): (2), for dim: 1"),
    (lambda: X.index_reduce(1, I([3, 0]), S.float(), "prod"), RuntimeError,
     "index_reduce_(): self (Double) and source (Float) must have the same scalar type"),
    (lambda: X.index_reduce(1, I([3, 0]), E.ones(2, 2, dtype=E.float64), "prod"), RuntimeError,
     "source tensor shape must match self tensor shape, excluding the specified dimension. Got self.shape = "
     "[3, 4] source.shape = [2, 2]"),
    (lambda: X.index_reduce(2, I([3, 0]), S, "prod"), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: I([True, False]).index_reduce(0, I([0]), I([True]), "amax"), NotImplementedError,
     "\"index_func_\" not implemented for 'Bool'"),
    (lambda: E.index_reduce(X, 1, [3, 0], S, "prod"), TypeError,
     "index_reduce(): argument 'index' (position 3) must be Tensor, not list"),
    (lambda: E.index_reduce(X, 1, I([3, 0]), [[1.0, 1.0]] * 3, "prod"), TypeError,
     "index_reduce(): argument 'source' (position 4) must be Tensor, not list"),
])
def test_refusals(call, error, message):
    with pytest.raises(error) as e:
        call()
    assert str(e.value) == message


def test_empty_index_leaves_self():
    x = E.tensor(np.arange(6.0).reshape(2, 3))
    assert x.index_reduce(1, I([], dtype=E.int64), E.zeros(2, 0, dtype=x.dtype), "prod").tolist() == x.tolist()
