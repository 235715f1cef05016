"""The strided family beyond the op cases (engine/ops/strided.py, engine/functions/strided.py):
as_strided and its kin over memory a view shares with its base (PyTorch's storage), the checks that
keep every geometry inside that memory, writes through these views and the views made before an
in-place reshape; resize_ and resize_as_; torch.gradient against numpy.gradient and hand-worked
differences, with its derivatives by finite differences and PyTorch's nodes; nonzero_static
against numpy; angle and the conjugation functions of real tensors.

Expected values that depend on PyTorch's choices (errors, which elements a view of a view
reaches, the gradient of a view reaching beside its input) were looked up in PyTorch 2.13 and are
written here as plain numbers, with the reasoning that gives them."""
import math

import numpy as np
import pytest

import autodiff.engine as ad


def _raises(kind, text, f, *args, **kwargs):
    with pytest.raises(kind) as info:
        f(*args, **kwargs)
    assert str(info.value) == text


def _positions(size, stride, offset):
    """offset + sum(i_k * stride_k) for every index tuple of size (np.indices)."""
    grids = np.indices(size, dtype=np.int64)
    return offset + sum((g * s for g, s in zip(grids, stride)), np.zeros(size, dtype=np.int64))


# ------------------------------------------------------------------ as_strided: geometry checks

def test_a_geometry_past_the_memory_is_pytorchs_set_storage_error():
    x = ad.arange(6.0)
    _raises(RuntimeError, "setStorage: sizes [2, 3], strides [3, 1], storage offset 1, and itemsize 8 requiring a "
                          "storage size of 56 are out of bounds for storage of size 48",
            x.as_strided, (2, 3), (3, 1), 1)
    _raises(RuntimeError, "setStorage: sizes [2], strides [1], storage offset 5, and itemsize 4 requiring a storage "
                          "size of 28 are out of bounds for storage of size 24",
            ad.as_strided, ad.arange(6, dtype=ad.int32), (2,), (1,), 5)
    _raises(RuntimeError, "setStorage: sizes [2], strides [1], storage offset 5, and itemsize 1 requiring a storage "
                          "size of 7 are out of bounds for storage of size 1",
            ad.as_strided, ad.tensor([True]), (2,), (1,), 5)
    _raises(RuntimeError, "setStorage: sizes [1], strides [1], storage offset 0, and itemsize 8 requiring a storage "
                          "size of 8 are out of bounds for storage of size 0", ad.zeros(0).as_strided, (1,), (1,), 0)


def test_the_memory_of_a_view_is_its_bases_and_no_more():
    base = ad.arange(10.0)
    view = base[6:]
    assert view.as_strided((4,), (1,)).tolist() == [6.0, 7.0, 8.0, 9.0]  # (its own offset, 6, by default)
    assert view.as_strided((2,), (1,), 0).tolist() == [0.0, 1.0]  # (offsets count from the memory's start)
    _raises(RuntimeError, "setStorage: sizes [5], strides [1], storage offset 6, and itemsize 8 requiring a storage "
                          "size of 88 are out of bounds for storage of size 80", view.as_strided, (5,), (1,))
    _raises(RuntimeError, "setStorage: sizes [2], strides [1000000], storage offset 0, and itemsize 8 requiring a "
                          "storage size of 8000008 are out of bounds for storage of size 80",
            view.as_strided, (2,), (10 ** 6,), 0)


def test_as_strided_refuses_in_pytorchs_words_and_order():
    x = ad.arange(6.0)
    _raises(RuntimeError, "mismatch in length of strides and shape", x.as_strided, (2, 3), (-1,))
    _raises(RuntimeError, "as_strided: Negative strides are not supported at the moment, got strides: [-1, 1]",
            x.as_strided, (2, 3), (-1, 1))
    _raises(RuntimeError, "as_strided: Negative strides are not supported at the moment, got strides: [-1]",
            x.as_strided, (2,), (-1,), -1)
    _raises(RuntimeError, "Tensor: invalid storage offset -2", x.as_strided, (2,), (1,), -2)
    _raises(RuntimeError, "Storage size calculation overflowed with sizes=[2, -3] and strides=[1, 1]",
            x.as_strided, (2, -3), (1, 1))
    _raises(RuntimeError, "Storage size calculation overflowed with sizes=[4611686018427387904, 4] and strides=[1, 1]",
            x.as_strided, (2 ** 62, 4), (1, 1))
    _raises(RuntimeError, "Storage size calculation overflowed with sizes=[2] and strides=[1]",
            x.as_strided, (2,), (1,), 2 ** 63 - 1)


def test_as_strided_argument_types_in_pytorchs_words():
    x = ad.arange(6.0)
    _raises(TypeError, "as_strided(): argument 'size' (position 2) must be tuple of ints, but found element of type "
                       "float at pos 0", ad.as_strided, x, [2.5], (1,))
    _raises(TypeError, "as_strided(): argument 'size' (position 1) must be tuple of ints, but found element of type "
                       "float at pos 0", x.as_strided, [2.5], (1,))
    _raises(TypeError, "as_strided(): argument 'stride' (position 3) must be tuple of ints, but found element of type "
                       "bool at pos 0", ad.as_strided, x, (2,), [True])
    _raises(TypeError, "as_strided(): argument 'size' (position 2) must be tuple of ints, not int",
            ad.as_strided, x, 2, 1)
    _raises(TypeError, "as_strided(): argument 'storage_offset' (position 4) must be int, not float",
            ad.as_strided, x, (2,), (1,), 1.5)
    _raises(TypeError, "as_strided(): argument 'storage_offset' (position 3) must be int, not bool",
            x.as_strided, (2,), (1,), True)
    _raises(TypeError, "as_strided(): argument 'input' (position 1) must be Tensor, not list",
            ad.as_strided, [1.0], (1,), (1,))
    assert ad.as_strided(x, ad.Size([2]), (1,), ad.tensor(2)).tolist() == [2.0, 3.0]
    assert x.as_strided(size=(2,), stride=(2,), storage_offset=1).tolist() == [1.0, 3.0]


def test_empty_and_zero_dim_geometries():
    x = ad.arange(6.0)
    assert x.as_strided((0,), (1,), 100).shape == (0,)  # (no element: no storage needed, as PyTorch)
    assert x.as_strided((0, 3), (3, 1)).stride() == (3, 1)
    assert x.as_strided((), (), 5).item() == 5.0
    assert ad.tensor(5.0).as_strided((3,), (0,)).tolist() == [5.0, 5.0, 5.0]


# ------------------------------------------------------------------ as_strided: values, views, gradients

@pytest.mark.parametrize("size, stride, offset", [((2, 2), (1, 2), 1), ((3, 2), (2, 3), 0), ((2, 1, 3), (4, 9, 1), 1),
                                                  ((3, 3), (1, 1), 0), ((4,), (0,), 7)])
def test_as_strided_picks_the_elements_at_the_positions(size, stride, offset):
    x = np.random.default_rng(3).standard_normal((3, 4))
    y = ad.tensor(x).as_strided(size, stride, offset)
    assert np.array_equal(y.numpy(), x.reshape(-1)[_positions(size, stride, offset)])
    assert y.stride() == stride and y.storage_offset() == offset


def test_as_strided_is_a_view_that_writes_through():
    x = ad.arange(9.0)
    y = x.as_strided((2, 2), (1, 3), 1)
    assert y._base is x and y._version == x._version
    y[0, 1] = 100.0
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0, 100.0, 5.0, 6.0, 7.0, 8.0]
    x[2] = -1.0
    assert y.tolist() == [[1.0, 100.0], [-1.0, 5.0]]
    assert y.as_strided((2,), (4,), 0).tolist() == [0.0, 100.0] and y.as_strided((2,), (4,), 0)._base is x


def test_the_gradient_goes_to_each_position_and_adds_up_where_positions_repeat():
    x = ad.arange(1.0, 10.0, requires_grad=True)
    w = ad.tensor([[1.0, 2.0], [3.0, 4.0]])
    (x.as_strided((2, 2), (1, 1), 1) * w).sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 5.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0]


def test_a_view_reaching_beside_its_input_passes_no_gradient_there():
    # as PyTorch: the view of y[2:4] reads y[0:6], but only y[2] and y[3] are its input's elements
    x = ad.arange(6.0, requires_grad=True)
    y = (x * 1)[2:4].as_strided((6,), (1,), 0)
    assert y.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] and y.grad_fn.name() == "AsStridedBackward0"
    y.backward(ad.arange(6.0) + 1)
    assert x.grad.tolist() == [0.0, 0.0, 3.0, 4.0, 0.0, 0.0]


def test_an_expanded_input_shares_the_gradient_of_its_positions():
    x = ad.arange(6.0, requires_grad=True)
    e = x[:3].expand(2, 3)
    e.retain_grad()
    y = e.as_strided((2, 2), (0, 1), 1)  # positions 1, 2 twice
    y.backward(ad.tensor([[1.0, 2.0], [3.0, 4.0]]))
    assert e.grad.tolist() == [[0.0, 2.0, 3.0], [0.0, 2.0, 3.0]]  # (4 and 6 at the two positions, halved)
    assert x.grad.tolist() == [0.0, 4.0, 6.0, 0.0, 0.0, 0.0]


def test_a_write_through_a_view_beside_its_input_reaches_the_base():
    x = ad.arange(1.0, 10.0, requires_grad=True)
    y = x * 1
    v = y[3:5].as_strided((5,), (1,), 1)  # y[1:6]
    v.mul_(2.0)
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    (y * (ad.arange(9.0) + 1)).sum().backward()
    assert y.tolist() == [1.0, 4.0, 6.0, 8.0, 10.0, 12.0, 7.0, 8.0, 9.0]
    assert x.grad.tolist() == [1.0, 4.0, 6.0, 8.0, 10.0, 12.0, 7.0, 8.0, 9.0]


def test_a_view_follows_its_base_changed_in_place():
    x = ad.arange(1.0, 10.0, requires_grad=True)
    y = x * 1
    v = y.as_strided((2, 2), (1, 3), 1)
    y.mul_(3.0)
    assert v.grad_fn.name() == "AsStridedBackward0"
    (v * ad.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    assert v.tolist() == [[6.0, 15.0], [9.0, 18.0]]
    assert x.grad.tolist() == [0.0, 3.0, 9.0, 0.0, 6.0, 12.0, 0.0, 0.0, 0.0]


def test_views_of_views_and_their_writes():
    x = ad.arange(1.0, 13.0, requires_grad=True)
    y = x * 1
    v = y.as_strided((3, 2), (2, 1), 1)
    w = v.as_strided((2,), (3,), 2)  # positions 2 and 5 of y's memory
    assert w.storage_offset() == 2 and w._base is y
    w.add_(100.0)
    (y * (ad.arange(12.0) + 1)).sum().backward()
    assert y.tolist()[:6] == [1.0, 2.0, 103.0, 4.0, 5.0, 106.0]
    assert x.grad.tolist() == [float(i) for i in range(1, 13)]


def test_a_view_whose_positions_repeat_is_not_written_through():
    x = ad.arange(6.0)
    _raises(RuntimeError, "unsupported operation: more than one element of the written-to tensor refers to a single "
                          "memory location. Please clone() the tensor before performing the operation.",
            x.as_strided((2, 2), (0, 1)).add_, 1.0)


def test_second_order_and_forward_mode_through_as_strided():
    x = ad.arange(1.0, 10.0, dtype=ad.float64, requires_grad=True)
    w = ad.ones(2, 2, dtype=ad.float64, requires_grad=True)
    g, = ad.autograd.grad(x.as_strided((2, 2), (1, 1), 1), x, w, create_graph=True)
    assert g.grad_fn.name() == "AsStridedBackward0" and g.tolist()[:4] == [0.0, 1.0, 2.0, 1.0]
    (g * (ad.arange(9.0) + 1)).sum().backward()
    assert w.grad.tolist() == [[2.0, 3.0], [3.0, 4.0]]
    fa = ad.autograd.forward_ad
    with fa.dual_level():
        d = fa.make_dual(ad.arange(1.0, 10.0), ad.arange(9.0) * 0.5)
        tangent = fa.unpack_dual(d.as_strided((2, 2), (1, 3), 1)).tangent
    assert tangent.tolist() == [[0.5, 2.0], [1.0, 2.5]]


def test_gradcheck_through_views_of_as_strided():
    x = ad.tensor(np.random.default_rng(0).standard_normal(12), requires_grad=True)
    f = lambda x: (x * 1).as_strided((3, 3), (3, 1), 1)[1:].as_strided((2, 2), (1, 2), 4).t()  # noqa: E731
    assert ad.gradcheck(f, (x,)) and ad.gradgradcheck(f, (x,))


def test_as_strided_copy_is_no_view():
    x = ad.arange(9.0, requires_grad=True)
    c = ad.as_strided_copy(x, (2, 2), (1, 3), 1)
    assert c._base is None and c.grad_fn.name() == "AsStridedBackward0_copy"
    assert c.tolist() == [[1.0, 4.0], [2.0, 5.0]]
    assert ad.as_strided_copy(ad.arange(10.0)[2:7], (2,), (1,), 0).tolist() == [0.0, 1.0]


# ------------------------------------------------------------------ as_strided_

def test_as_strided_in_place_on_a_non_leaf():
    x = ad.arange(1.0, 10.0, requires_grad=True)
    y = x * 1
    z = y.as_strided_((2, 2), (1, 3), 1)
    assert z is y and y.grad_fn.name() == "AsStridedBackward1" and y._version == 1
    assert y.stride() == (1, 3) and y.storage_offset() == 1
    (y * ad.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 3.0, 0.0, 2.0, 4.0, 0.0, 0.0, 0.0]
    _raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place operation.",
            ad.ones(3, requires_grad=True).as_strided_, (2,), (1,))
    _raises(TypeError, "as_strided_(): argument 'storage_offset' (position 3) must be int, not float",
            ad.zeros(3).as_strided_, (2,), (1,), 1.5)
    assert ad.as_strided_(ad.zeros(3), (2,), (1,)).shape == (2,)


def test_views_made_before_as_strided_follow_back_when_their_elements_remain():
    x = ad.arange(1.0, 13.0, requires_grad=True)
    y = x * 1
    old = y[2:6]
    y.as_strided_((3, 3), (3, 1), 1)  # positions 1..9: old's 2..5 among them
    y[1].mul_(2.0)
    (y.sum() + (old * ad.arange(4.0)).sum()).backward()
    assert old.tolist() == [3.0, 4.0, 10.0, 12.0]
    assert x.grad.tolist() == [0.0, 1.0, 1.0, 2.0, 6.0, 8.0, 2.0, 1.0, 1.0, 1.0, 0.0, 0.0]


def test_as_strided_in_place_on_a_view_extends_its_chain():
    x = ad.arange(1.0, 10.0, requires_grad=True)
    y = x * 1
    v = y[2:]
    v.as_strided_((3,), (2,), 0)  # y's positions 0, 2, 4
    v.mul_(10.0)
    (y * (ad.arange(9.0) + 1)).sum().backward()
    assert v.tolist() == [10.0, 30.0, 50.0] and v.grad_fn.name() == "AsStridedBackward0"
    assert x.grad.tolist() == [10.0, 2.0, 30.0, 4.0, 50.0, 6.0, 7.0, 8.0, 9.0]


# ------------------------------------------------------------------ as_strided_scatter

@pytest.mark.parametrize("offset, expected", [(None, [-1.0, -2.0, 4.0, 5.0, 6.0]), (1, [-2.0, 3.0, 4.0, 5.0, 6.0]),
                                              (3, [2.0, -1.0, -2.0, 5.0, 6.0]), (0, [2.0, 3.0, 4.0, 5.0, 6.0])])
def test_as_strided_scatter_counts_positions_in_the_inputs_memory(offset, expected):
    # PyTorch's: the input is a[2:7] (its memory a's, its offset 2); a position that is none of its
    # elements is not written (PyTorch writes it outside the result's memory)
    a = ad.arange(10.0)
    out = ad.as_strided_scatter(a[2:7], ad.tensor([-1.0, -2.0]), (2,), (1,), offset)
    assert out.tolist() == expected and a.tolist() == [float(i) for i in range(10)]


def test_as_strided_scatter_on_strided_inputs():
    t = ad.arange(6.0).reshape(2, 3).t()  # positions [[0, 3], [1, 4], [2, 5]]
    assert ad.as_strided_scatter(t, ad.tensor([-1.0, -2.0]), (2,), (1,), 0).tolist() == [[-1.0, 3.0], [-2.0, 4.0],
                                                                                         [2.0, 5.0]]
    gaps = ad.arange(6.0)[::2]  # positions 0, 2, 4: position 1 is none of its elements
    assert ad.as_strided_scatter(gaps, ad.tensor([-1.0, -2.0]), (2,), (1,), 0).tolist() == [-1.0, 2.0, 4.0]
    # positions 1 and 2 written twice: the last of src's elements there (as PyTorch's copy leaves them)
    src = ad.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert ad.as_strided_scatter(ad.arange(6.0), src, (2, 2), (1, 1), 0).tolist() == [1.0, 3.0, 4.0, 3.0, 4.0, 5.0]


def test_as_strided_scatter_checks():
    x = ad.arange(6.0)
    _raises(RuntimeError, "expected src to have a size equal to the slice of self. src size = [1], slice size = [2]",
            ad.as_strided_scatter, x, ad.zeros(1), (2,), (1,))
    _raises(RuntimeError, "unsupported operation: more than one element of the written-to tensor refers to a single "
                          "memory location. Please clone() the tensor before performing the operation.",
            ad.as_strided_scatter, x, ad.zeros(2), (2,), (0,))
    _raises(TypeError, "as_strided_scatter(): argument 'src' (position 2) must be Tensor, not float",
            ad.as_strided_scatter, x, 1.0, (2,), (1,))
    _raises(TypeError, "as_strided_scatter(): argument 'src' (position 1) must be Tensor, not float",
            x.as_strided_scatter, 1.0, (2,), (1,))
    _raises(TypeError, "as_strided_scatter(): argument 'size' (position 2) must be tuple of ints, but found element "
                       "of type float at pos 0", x.as_strided_scatter, ad.zeros(2), [2.5], (1,))
    out = ad.as_strided_scatter(x.to(ad.float32), ad.tensor([7, 8]), (2,), (1,))
    assert out.dtype == ad.float32 and out.tolist()[:3] == [7.0, 8.0, 2.0]


def test_as_strided_scatters_gradient_is_zero_where_input_is_overwritten():
    # the derivative: d out / d input is 1 where input is kept, 0 where src is written. PyTorch 2.13's
    # gives the opposite (its as_strided_scatter_backward copies the gradient into the written slice;
    # its own gradcheck fails there, and its OpInfo skips the gradient tests)
    x = ad.arange(1.0, 10.0, requires_grad=True)
    s = ad.ones(2, 2, requires_grad=True)
    y = ad.as_strided_scatter(x, s, (2, 2), (1, 3), 2)
    (y * (ad.arange(9.0) + 1)).sum().backward()
    assert x.grad.tolist() == [1.0, 2.0, 0.0, 0.0, 5.0, 0.0, 0.0, 8.0, 9.0]
    assert s.grad.tolist() == [[3.0, 6.0], [4.0, 7.0]]
    f = lambda x, s: ad.as_strided_scatter(x, s, (2, 2), (1, 1), 2)  # noqa: E731  (a repeated position)
    x64, s64 = ad.randn(9, dtype=ad.float64, requires_grad=True), ad.randn(2, 2, dtype=ad.float64, requires_grad=True)
    assert ad.gradcheck(lambda x: f(x, s64.detach()), (x64,)) and ad.gradgradcheck(f, (x64, s64))


# ------------------------------------------------------------------ resize_, resize_as_

def test_resize_reads_the_memory_row_major_from_the_offset():
    x = ad.arange(6.0)
    assert x.resize_(2, 2) is x and x.tolist() == [[0.0, 1.0], [2.0, 3.0]] and x._version == 1
    assert x.resize_((3, 2)).tolist() == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]] and x._version == 2
    assert x.resize_(3, 2)._version == 2  # the same size: nothing happens
    assert x.resize_([6]).stride() == (1,) and x.resize_(ad.Size([2, 3])).shape == (2, 3)
    assert x.resize_(size=(3,)).tolist() == [0.0, 1.0, 2.0] and x.resize_(ad.tensor(4)).shape == (4,)


def test_resize_past_the_memory_gives_new_memory_with_zeros():
    x = ad.arange(6.0)
    x.resize_(3, 4)
    assert x.tolist() == [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]
    w = ad.arange(6.0)
    v = w[1:3]
    v.resize_(7)  # the old memory's elements from v's offset on, then zeros
    assert v.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 0.0, 0.0] and v.storage_offset() == 1 and v._base is None


def test_resize_of_a_view_within_the_memory_stays_a_view():
    w = ad.arange(6.0)
    v = w[1:3]
    v.resize_(4)
    v[0] = 100.0
    assert v._base is w and v.tolist() == [100.0, 2.0, 3.0, 4.0] and w.tolist()[:3] == [0.0, 100.0, 2.0]
    u = ad.arange(6.0)
    kept = u[2:4]
    u.resize_(2, 2)
    kept[0] = 50.0
    assert u.tolist() == [[0.0, 1.0], [50.0, 3.0]]


def test_resize_layouts():
    assert ad.zeros(3, 3).t().resize_(3, 3).stride() == (1, 3)  # the same size keeps the layout
    assert ad.zeros(3, 3).t().resize_(3, 3, memory_format=ad.contiguous_format).stride() == (3, 1)
    assert ad.zeros(3, 3).t().resize_(2, 2).stride() == (2, 1)
    assert ad.zeros(2, 3, 4, 5).resize_(2, 3, 4, 5, memory_format=ad.channels_last).stride() == (60, 1, 15, 3)
    assert ad.zeros(2, 3, 4, 5, 6).resize_(2, 3, 4, 5, 6, memory_format=ad.channels_last_3d).stride() == \
        (360, 1, 90, 18, 3)
    assert ad.zeros(3, 3).t().resize_as_(ad.zeros(2, 2).t()).stride() == (2, 1)
    template = ad.zeros(2, 4, 5, 3).permute(0, 3, 1, 2)  # channels-last strides
    assert ad.zeros(6).resize_as_(template, memory_format=ad.preserve_format).stride() == (60, 1, 15, 3)
    assert ad.resize_as_(ad.zeros(3), ad.zeros(2, 2, dtype=ad.int64)).dtype == ad.float64


def test_resize_refusals():
    _raises(RuntimeError, "cannot resize variables that require grad", ad.ones(3, requires_grad=True).resize_, 2)
    _raises(RuntimeError, "cannot resize variables that require grad", (ad.ones(3, requires_grad=True) * 2).resize_, 3)
    with ad.no_grad():
        _raises(RuntimeError, "cannot resize variables that require grad", ad.ones(3, requires_grad=True).resize_, 2)
    _raises(RuntimeError, "cannot resize variables that require grad",
            ad.zeros(3, requires_grad=True).resize_as_, ad.zeros(3))
    x = ad.zeros(2)
    _raises(RuntimeError, "numel: integer multiplication overflow", x.resize_, 2, -1)
    _raises(RuntimeError, "numel: integer multiplication overflow", x.resize_, 2 ** 62, 4)
    _raises(TypeError, "resize_(): argument 'size' (position 1) must be tuple of ints, not float", x.resize_, 2.5)
    _raises(TypeError, "resize_(): argument 'size' (position 1) must be tuple of ints, but found element of type "
                       "bool at pos 0", x.resize_, [True])
    _raises(TypeError, 'resize_() missing 1 required positional arguments: "size"', x.resize_)
    _raises(RuntimeError, "required rank 4 tensor to use channels_last format", x.resize_, 2, 3,
            memory_format=ad.channels_last)
    _raises(RuntimeError, "Unsupported memory formatPreserve", x.resize_, 3, memory_format=ad.preserve_format)
    _raises(TypeError, "resize_as_(): argument 'the_template' (position 1) must be Tensor, not list", x.resize_as_, [2])
    _raises(TypeError, "resize_as_(): argument 'the_template' (position 2) must be Tensor, not list",
            ad.resize_as_, x, [2])


def test_views_of_memory_that_resize_replaced_are_not_followed_back():
    u = ad.arange(6.0)
    old = u[2:4]
    u.resize_(12)  # new memory for u; old keeps the old memory
    assert old.tolist() == [2.0, 3.0] and u.tolist()[:7] == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 0.0]
    old.mul_(2.0)  # (unrecorded: fine)
    assert old.tolist() == [4.0, 6.0] and u.tolist()[2:4] == [2.0, 3.0]
    w = ad.ones(2, requires_grad=True)
    old.mul_(w)  # recorded: u's CopySlices, whose gradient would follow old back to u
    with pytest.raises(RuntimeError, match="given memory of its own"):
        u.sum().backward()


# ------------------------------------------------------------------ gradient

def _grid(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


@pytest.mark.parametrize("edge_order", [1, 2])
@pytest.mark.parametrize("spacing", [None, 2.0, [0.5, 3]])
def test_gradient_matches_numpy_on_even_grids(spacing, edge_order):
    x = _grid((4, 5))
    kwargs = {} if spacing is None else {"spacing": spacing}
    ours = ad.gradient(ad.tensor(x), edge_order=edge_order, **kwargs)
    steps = () if spacing is None else (spacing,) if not isinstance(spacing, list) else tuple(spacing)
    theirs = np.gradient(x, *steps, edge_order=edge_order)
    assert isinstance(ours, tuple) and len(ours) == 2
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.numpy(), b, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_matches_numpy_on_coordinates(edge_order):
    x = _grid((4, 5, 3), 1)
    c0, c2 = np.array([0.0, 0.5, 1.75, 2.0]), np.array([-1.0, 0.25, 3.0])
    ours = ad.gradient(ad.tensor(x), spacing=[ad.tensor(c0), ad.tensor(c2)], dim=[0, -1], edge_order=edge_order)
    theirs = np.gradient(x, c0, c2, axis=(0, 2), edge_order=edge_order)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.numpy(), b, rtol=1e-12, atol=1e-12)


def test_gradient_of_a_quadratic_is_exact_inside_and_at_second_order_ends():
    x = ad.tensor([1.0, 4.0, 9.0, 16.0, 25.0])  # (i + 1)^2: derivative 2(i + 1)
    assert ad.gradient(x)[0].tolist() == [3.0, 4.0, 6.0, 8.0, 9.0]  # the ends by one-sided first differences
    assert ad.gradient(x, edge_order=2)[0].tolist() == [2.0, 4.0, 6.0, 8.0, 10.0]
    assert ad.gradient(x, spacing=2.0)[0].tolist() == [1.5, 2.0, 3.0, 4.0, 4.5]
    assert ad.gradient(ad.arange(5) ** 2)[0].dtype == ad.get_default_dtype()  # integers: the default float dtype
    assert ad.gradient(ad.tensor(3.0)) == ()


def test_gradient_arguments():
    x = ad.arange(12.0).reshape(3, 4) ** 2
    one = ad.gradient(x, dim=1)
    assert len(one) == 1 and one[0].tolist() == ad.gradient(x)[1].tolist()
    assert [g.tolist() for g in ad.gradient(x, dim=[1, 0], spacing=2)] == \
        [(ad.gradient(x)[1] / 2).tolist(), (ad.gradient(x)[0] / 2).tolist()]
    assert ad.gradient(x, spacing=ad.tensor(2.0))[0].tolist() == (ad.gradient(x)[0] / 2).tolist()
    assert ad.gradient(x, spacing=(2, 3))[1].tolist() == (ad.gradient(x)[1] / 3).tolist()
    assert ad.gradient(x, dim=()) == ()
    assert ad.gradient(ad.zeros(1, 3), dim=1)[0].shape == (1, 3)  # (only the dims asked for are checked)


def test_gradient_refusals_in_pytorchs_words():
    x = ad.arange(12.0).reshape(3, 4)
    _raises(RuntimeError, "torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal to "
                          "'self.dim() = 2', since dim argument was not given, but got a list of length 1",
            ad.gradient, x, spacing=[2.0])
    _raises(RuntimeError, "torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
                          "arguments to have the same length, but got a spacing argument of length 2 and a dim "
                          "argument of length 1.", ad.gradient, x, spacing=[2.0, 3.0], dim=0)
    _raises(RuntimeError, "torch.gradient only supports edge_order=1 and edge_order=2.", ad.gradient, x, edge_order=3)
    _raises(RuntimeError, "torch.gradient expected each dimension size to be at least edge_order+1",
            ad.gradient, ad.zeros(2, 3), edge_order=2)
    _raises(RuntimeError, "torch.gradient does not support uint8 input.", ad.gradient, ad.zeros(3, dtype=ad.uint8))
    _raises(RuntimeError, "dim 0 appears multiple times in the list of dims", ad.gradient, x, dim=[0, 0])
    _raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 2)", ad.gradient, x, dim=2)
    _raises(IndexError, "Dimension specified as 0 but tensor has no dimensions", ad.gradient, ad.tensor(3.0), dim=0)
    _raises(RuntimeError, "torch.gradient expected each element of spacing to have one dimension, but got an element "
                          "with 0 dimensions!", ad.gradient, x, spacing=[ad.tensor(2.0), ad.tensor(3.0)])
    _raises(TypeError, "expected Tensor as element 0 in argument 1, but got float", ad.gradient, x,
            spacing=[2.0, ad.arange(4.0)])
    _raises(TypeError, "gradient(): argument 'input' (position 1) must be Tensor, not list", ad.gradient, [1.0, 2.0])
    with pytest.raises(TypeError, match=r"gradient\(\) received an invalid combination of arguments - got \(Tensor, "
                                        r"float\), but expected one of:\n \* \(Tensor input, \*, tuple of ints dim"):
        ad.gradient(x, 2.0)
    with pytest.raises(TypeError, match=r"got \(Tensor, dim=float\)"):
        ad.gradient(x, dim=1.5)
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with two bool tensors is not supported"):
        ad.gradient(ad.tensor([True, False, True]))


def test_gradient_nodes_are_pytorchs():
    x = ad.tensor(_grid(5), requires_grad=True)
    g = ad.gradient(x, edge_order=2)[0].grad_fn
    assert g.name() == "CatBackward0"
    first, center, last = (n for n, _ in g.next_functions)
    assert (first.name(), center.name(), last.name()) == ("DivBackward1", "DivBackward1", "DivBackward1")
    assert first.next_functions[0][0].name() == "SubBackward0"
    assert [n.name() for n, _ in first.next_functions[0][0].next_functions] == ["AddBackward0", "MulBackward1"]
    assert last.next_functions[0][0].name() == "AddBackward0"
    c = ad.gradient(x, spacing=[ad.arange(5.0) ** 2], edge_order=1)[0].grad_fn
    assert [n.name() for n, _ in c.next_functions] == ["DivBackward0", "AddBackward0", "DivBackward0"]


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_derivatives_by_finite_differences(edge_order):
    x = ad.tensor(_grid((4, 3), 2), requires_grad=True)
    c = ad.tensor([0.0, 0.7, 1.1, 2.5], requires_grad=True)
    even = lambda x: ad.gradient(x, spacing=0.5, edge_order=edge_order)  # noqa: E731
    uneven = lambda x, c: ad.gradient(x, spacing=[c], dim=0, edge_order=edge_order)[0]  # noqa: E731
    assert ad.gradcheck(even, (x,)) and ad.gradgradcheck(even, (x,))
    assert ad.gradcheck(uneven, (x, c)) and ad.gradgradcheck(uneven, (x, c))


# ------------------------------------------------------------------ nonzero_static

def test_nonzero_static_cuts_and_pads_nonzeros_rows():
    x = np.array([[0.0, 1.5], [np.nan, 0.0], [2.0, 0.0]])
    rows = np.argwhere(x)
    for size in (0, 2, 3, 5):
        got = ad.nonzero_static(ad.tensor(x), size=size, fill_value=7)
        want = np.concatenate([rows[:size], np.full((max(size - len(rows), 0), 2), 7)])
        assert got.dtype == ad.int64 and got.tolist() == want.tolist()
    assert ad.tensor(x).nonzero_static(size=2).tolist() == rows[:2].tolist()
    assert ad.nonzero_static(ad.tensor(3.0), size=2).shape == (2, 0)
    assert ad.nonzero_static(ad.zeros(0, 3), size=2).tolist() == [[-1, -1], [-1, -1]]
    assert not ad.nonzero_static(ad.ones(2, requires_grad=True), size=2).requires_grad


def test_nonzero_static_refusals():
    x = ad.ones(2)
    _raises(RuntimeError, "nonzero_static: 'size' must be an non-negative integer", ad.nonzero_static, x, size=-1)
    _raises(TypeError, "nonzero_static() takes from 2 to 1 positional arguments but 2 were given",
            ad.nonzero_static, x, 2)
    _raises(TypeError, 'nonzero_static() missing 1 required positional arguments: "size"', ad.nonzero_static, x)
    _raises(TypeError, "nonzero_static(): argument 'size' must be int, not float", ad.nonzero_static, x, size=2.5)
    _raises(TypeError, "nonzero_static(): argument 'fill_value' must be int, not bool", ad.nonzero_static, x, size=2,
            fill_value=True)
    _raises(ValueError, "Overflow when unpacking long long", ad.nonzero_static, x, size=2, fill_value=2 ** 63)
    _raises(TypeError, "nonzero_static(): argument 'input' (position 1) must be Tensor, not list",
            ad.nonzero_static, [1.0], size=2)


# ------------------------------------------------------------------ angle and the conjugation functions

def test_angle_of_real_numbers():
    x = ad.tensor([-1.5, 0.0, -0.0, 2.0, math.nan, -math.inf, math.inf])
    got = ad.angle(x).tolist()
    assert got[:4] + got[5:] == [math.pi, 0.0, 0.0, 0.0, math.pi, 0.0] and math.isnan(got[4])
    assert ad.angle(ad.tensor([-2, 0, 3])).dtype == ad.get_default_dtype()
    assert ad.angle(ad.tensor([-2.0], dtype=ad.float16)).dtype == ad.float16
    x = ad.tensor([-1.0, 2.0], requires_grad=True)
    g, = ad.autograd.grad(ad.angle(x).sum(), x, create_graph=True)
    assert g.tolist() == [0.0, 0.0] and not g.requires_grad
    assert not hasattr(x, "angle_")


@pytest.mark.parametrize("name", ["real", "conj", "conj_physical", "resolve_conj", "resolve_neg"])
def test_the_conjugation_functions_return_a_real_input_itself(name):
    x = ad.tensor([1.0, -2.0], requires_grad=True)
    assert getattr(ad, name)(x) is x
    if name != "real":
        assert getattr(x, name)() is x
    _raises(TypeError, f"{name}(): argument 'input' (position 1) must be Tensor, not int", getattr(ad, name), 3)


def test_real_and_imag_attributes():
    x = ad.zeros(2)
    assert x.real is x and not ad.is_conj(x) and not x.is_conj() and not ad.is_neg(x) and not x.is_neg()
    x.real = ad.tensor([5.0, 6.0])
    assert x.tolist() == [5.0, 6.0] and x._version == 1
    message = "imag is not implemented for tensors with non-complex dtypes."
    _raises(RuntimeError, message, ad.imag, x)
    assert not hasattr(x, "imag")  # (PyTorch's attribute raises that message; the language lists none)
    leaf = ad.zeros(2, requires_grad=True)
    _raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place operation.",
            setattr, leaf, "real", ad.ones(2))


def test_conj_physical_in_place_is_recorded():
    x = ad.zeros(3)
    assert x.conj_physical_() is x and x._version == 1
    y = ad.arange(3.0, requires_grad=True)
    z = y * 2
    z.conj_physical_()
    assert z.grad_fn.name() == "ConjPhysicalBackward1"
    z.sum().backward()
    assert y.grad.tolist() == [2.0, 2.0, 2.0]
    _raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place operation.",
            ad.conj_physical_, ad.zeros(2, requires_grad=True))


def test_as_strided_and_its_kin_refuse_a_device_tensor_with_a_message(cuda):
    """The views are made over the host array's buffer: on a GPU (here also the stand-in) each of
    them refuses in words that say what to do, rather than reading device memory as host memory."""
    x = ad.arange(6.0, device=cuda)
    wanted = ("as_strided and its kin (as_strided_, as_strided_copy, as_strided_scatter, resize_) run on the CPU "
              "only here; the tensor is on cuda:0: move it with .cpu() first")
    for call in (lambda: ad.as_strided(x, (2, 2), (1, 2)), lambda: x.as_strided((2,), (2,)),
                 lambda: ad.as_strided_copy(x, (2,), (1,)), lambda: ad.as_strided_scatter(x, ad.zeros(2, device=cuda),
                                                                                          (2,), (1,))):
        _raises(RuntimeError, wanted, call)
    assert ad.as_strided(x.cpu(), (2, 2), (1, 2)).tolist() == [[0.0, 2.0], [1.0, 3.0]]
