"""mode and nanmedian where their cases cannot go (repeated values, NaN, an all-NaN slice): the
values and indices PyTorch 2.13 printed for the same calls, and the gradient that goes to the index."""
import math

import autodiff.engine as ad

NAN = math.nan


def test_mode_is_the_smallest_most_frequent_value_at_its_last_index():
    x = ad.tensor([[1.0, 2, 2, 3], [4, 4, 1, 1]], requires_grad=True)
    result = ad.mode(x)
    assert result.values.tolist() == [2.0, 1.0]
    assert result.indices.tolist() == [2, 3]
    assert result.values.grad_fn.name() == "ModeBackward0"
    result.values.sum().backward()
    assert x.grad.tolist() == [[0, 0, 1, 0], [0, 0, 0, 1]]


def test_mode_along_dim_0_keeping_it_and_of_bools_and_a_scalar():
    columns = ad.mode(ad.tensor([[1.0, 2, 2, 3], [4, 4, 1, 1]]), 0, keepdim=True)
    assert (columns.values.tolist(), columns.indices.tolist()) == ([[1.0, 2.0, 1.0, 1.0]], [[0, 0, 1, 1]])
    flags = ad.mode(ad.tensor([True, False, True]))
    assert (flags.values.item(), flags.indices.item()) == (True, 2)
    scalar = ad.mode(ad.tensor(2.0))
    assert (scalar.values.item(), scalar.indices.item()) == (2.0, 0)


def test_nanmedian_leaves_nan_out_and_an_all_nan_slice_gives_nan():
    x = ad.tensor([[NAN, 1.0, 3.0, 2.0], [NAN, NAN, NAN, NAN], [4.0, NAN, 2.0, NAN], [5.0, 6.0, 7.0, 8.0]],
                  requires_grad=True)
    result = ad.nanmedian(x, 1)
    values = result.values.tolist()
    assert values[0] == 2.0 and math.isnan(values[1]) and values[2:] == [2.0, 6.0]
    # the all-NaN row's index is the kernel's choice (PyTorch's gives 2; ours is the first NaN)
    assert [i for k, i in enumerate(result.indices.tolist()) if k != 1] == [3, 2, 1]
    result.values.sum().backward()
    assert [row for k, row in enumerate(x.grad.tolist()) if k != 1] == [[0, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0]]


def test_nanmedian_of_everything_shares_the_gradient_among_equal_values():
    y = ad.tensor([NAN, NAN, 3.0, 1.0], requires_grad=True)
    value = ad.nanmedian(y)
    value.backward()
    assert (value.item(), y.grad.tolist()) == (1.0, [0, 0, 0, 1])
    z = ad.tensor([NAN, NAN], requires_grad=True)
    value = ad.nanmedian(z)
    value.backward()
    assert math.isnan(value.item()) and z.grad.tolist() == [0.5, 0.5]
    assert ad.nanmedian(ad.tensor([1, 2, 3])).item() == 2


def test_their_refusals_in_pytorchs_words():
    import pytest
    with pytest.raises(NotImplementedError, match="\"median_cpu\" not implemented for 'Bool'"):
        ad.nanmedian(ad.tensor([True]))
    with pytest.raises(IndexError, match=r"median\(\): Expected reduction dim 0 to have non-zero size"):
        ad.nanmedian(ad.zeros(0, 3), 0)
    with pytest.raises(IndexError, match=r"mode\(\): Expected reduction dim 0 to have non-zero size"):
        ad.mode(ad.zeros(0))
