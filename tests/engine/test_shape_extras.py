"""The shape, view and scatter functions added beside the views (hsplit/vsplit/dsplit, diagflat,
sum_to_size, slice/select/diagonal_scatter, put, constant_pad_nd, the `_copy` twins, x.H, x.mH):
what their op cases (tests/engine/ops/op_cases_shape.py, op_cases_idx.py) do not check -- that the
copies share no memory, that the views do, PyTorch's messages (PyTorch 2.13's, copied), and
gradients worked by hand."""
import numpy as np
import pytest

import autodiff.engine as ad


def _x(*shape):
    return ad.tensor(np.arange(np.prod(shape), dtype=np.float64).reshape(shape), requires_grad=True)


# ------------------------------------------------------------------ copies are not views

COPIES = [
    lambda x: ad.view_copy(x, (6, 2)), lambda x: ad.t_copy(x[0]), lambda x: ad.permute_copy(x, (2, 0, 1)),
    lambda x: ad.transpose_copy(x, 0, 1), lambda x: ad.unsqueeze_copy(x, 0), lambda x: ad.squeeze_copy(x[:1]),
    lambda x: ad.expand_copy(x[:1], (2, 3, 2)), lambda x: ad.diagonal_copy(x, 0, 1, 2),
    lambda x: ad.unbind_copy(x, 1)[2], lambda x: ad.split_with_sizes_copy(x, [2, 1], 1)[0],
    lambda x: ad.alias_copy(x), lambda x: x.narrow_copy(1, 1, 2), lambda x: ad.unfold_copy(x, 1, 2, 1),
    lambda x: x.unsafe_chunk(2, 1)[0], lambda x: ad.unsafe_split(x, 1)[1],
    lambda x: ad.unsafe_split_with_sizes(x, [1, 1])[0],
]


@pytest.mark.parametrize("make", COPIES)
def test_a_copy_shares_no_memory_with_its_input(make):
    x = _x(2, 3, 2)
    y = x * 1
    z = make(y)
    before = y.detach().numpy().copy()
    assert z._base is None
    z.add_(100.0)  # in place on the copy: allowed, and the input is untouched
    assert y._version == 0
    np.testing.assert_array_equal(y.detach().numpy(), before)
    z.sum().backward()
    assert x.grad is not None


def test_a_copy_under_inference_mode_is_a_plain_copy():
    x = _x(2, 3)
    with ad.inference_mode():
        y = ad.t_copy(x)
        z = ad.unbind_copy(x)[1]
    np.testing.assert_array_equal(y.numpy(), np.arange(6.0).reshape(2, 3).T)
    np.testing.assert_array_equal(z.numpy(), [3.0, 4.0, 5.0])
    assert y._base is None and y.grad_fn is None


def test_copy_errors_are_the_views():
    x = _x(3, 4)
    with pytest.raises(RuntimeError, match=r"t\(\) expects a tensor with <= 2 dimensions, but self is 3D"):
        ad.t_copy(_x(2, 2, 2))
    with pytest.raises(RuntimeError, match=r"start \(3\) \+ length \(2\) exceeds dimension size \(4\)\."):
        ad.narrow_copy(x, 1, 3, 2)
    with pytest.raises(RuntimeError, match=r"shape '\[7\]' is invalid for input of size 12"):
        ad.view_copy(x, (7,))
    with pytest.raises(RuntimeError, match="maximum size for tensor at dimension 1 is 4 but size is 5"):
        ad.unfold_copy(x, 1, 5, 1)


def test_unsafe_split_takes_one_size():
    with pytest.raises(TypeError, match=r"unsafe_split\(\): argument 'split_size' \(position 2\) must be int, not list"):
        ad.unsafe_split(_x(3, 4), [1, 3], 1)


def test_view_copy_of_a_transposed_input():
    """view() would refuse this input; view_copy reads it in its logical order."""
    x = _x(3, 4)
    np.testing.assert_array_equal(ad.view_copy(x.mT, (12,)).detach().numpy(), np.arange(12.0).reshape(3, 4).T.ravel())


# ------------------------------------------------------------------ hsplit, vsplit, dsplit

def test_splits_are_views_written_through():
    y = _x(2, 4) * 1
    a, b = ad.hsplit(y, 2)
    b.mul_(0.0)
    np.testing.assert_array_equal(y.detach().numpy(), [[0, 1, 0, 0], [4, 5, 0, 0]])
    assert y.grad_fn.name() == "torch::autograd::CopySlices"


@pytest.mark.parametrize("call, message", [
    (lambda: ad.hsplit(ad.tensor(1.0), 2),
     "torch.hsplit requires a tensor with at least 1 dimension, but got a tensor with 0 dimensions!"),
    (lambda: ad.vsplit(ad.zeros(4), 2),
     "torch.vsplit requires a tensor with at least 2 dimension, but got a tensor with 1 dimensions!"),
    (lambda: ad.dsplit(ad.zeros(4, 2), 2),
     "torch.dsplit requires a tensor with at least 3 dimension, but got a tensor with 2 dimensions!"),
    (lambda: ad.hsplit(ad.zeros(3, 4, 5), 3), "torch.hsplit attempted to split along dimension 1, but the size of "
                                              "the dimension 4 is not divisible by the split_size 3!"),
    (lambda: ad.hsplit(ad.zeros(4), 0), "torch.hsplit attempted to split along dimension 0, but the size of the "
                                        "dimension 4 is not divisible by the split_size 0!"),
    (lambda: ad.dsplit(ad.zeros(3, 4, 5), 2), "torch.dsplit attempted to split along dimension 2, but the size of "
                                              "the dimension 5 is not divisible by the split_size 2!"),
])
def test_split_messages(call, message):
    with pytest.raises(RuntimeError) as e:
        call()
    assert str(e.value) == message


def test_hsplit_at_indices_past_the_end():
    parts = ad.hsplit(ad.zeros(3, 4, 5), [1, 10])
    assert [tuple(p.shape) for p in parts] == [(3, 1, 5), (3, 3, 5), (3, 0, 5)]


# ------------------------------------------------------------------ diagflat, sum_to_size

def test_diagflat_of_a_number_and_its_gradient():
    x = ad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = ad.diagflat(x, 1)
    np.testing.assert_array_equal(y.detach().numpy(), np.diagflat([1, 2, 3, 4], 1))
    (y * ad.arange(25.0).reshape(5, 5)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[1, 7], [13, 19]])  # the weights on the diagonal 1: 5i + i + 1
    np.testing.assert_array_equal(ad.diagflat(ad.tensor(2.0)).numpy(), [[2.0]])


def test_sum_to_size():
    x = _x(3, 4, 5)
    assert x.sum_to_size(3, 4, 5) is x
    np.testing.assert_array_equal(x.sum_to_size([1, 1, 5]).detach().numpy(),
                                  np.arange(60.0).reshape(3, 4, 5).sum((0, 1), keepdims=True))
    np.testing.assert_array_equal(x.sum_to_size(4, 1).detach().numpy(),
                                  np.arange(60.0).reshape(3, 4, 5).sum((0, 2))[:, None])
    for size in ((2, 5), (1, 3, 4, 5)):
        with pytest.raises(RuntimeError) as e:
            x.sum_to_size(*size)
        assert str(e.value) == f"size {{{list(size)}}} is not expandable to size {{[3, 4, 5]}}."


# ------------------------------------------------------------------ the scatters

def test_scatter_messages():
    x = ad.zeros(3, 4, 5, dtype=ad.float64)
    with pytest.raises(RuntimeError) as e:
        ad.slice_scatter(x, ad.zeros(3, 2, 5, dtype=ad.float64), 1, 0, 4, 1)
    assert str(e.value) == ("expected src to have a size equal to the slice of self. src size = [3, 2, 5], slice "
                            "size = [3, 4, 5]")
    with pytest.raises(RuntimeError, match="^slice step must be positive$"):
        ad.slice_scatter(x, x, 1, step=0)
    with pytest.raises(IndexError, match=r"select\(\): index 4 out of range for tensor of size \[3, 4, 5\] at "
                                         r"dimension 1"):
        ad.select_scatter(x, ad.zeros(3, 5, dtype=ad.float64), 1, 4)
    with pytest.raises(IndexError, match=r"select\(\) cannot be applied to a 0-dim tensor\."):
        ad.select_scatter(ad.tensor(1.0), ad.tensor(2.0), 0, 0)
    with pytest.raises(RuntimeError, match="diagonal dimensions cannot be identical 1, 1"):
        ad.diagonal_scatter(x, ad.zeros(3, 3), 0, 1, 1)


def test_scatter_takes_the_input_dtype_and_leaves_the_input():
    x = ad.zeros(2, 3, dtype=ad.float32)
    y = ad.slice_scatter(x, ad.ones(2, 1, dtype=ad.float64), 1, 1, 2)
    assert y.dtype == ad.float32
    np.testing.assert_array_equal(y.numpy(), [[0, 1, 0], [0, 1, 0]])
    assert x.sum().item() == 0.0


def test_select_scatter_gradients_by_hand():
    x, s = _x(2, 3), ad.tensor([5.0, 6.0, 7.0], requires_grad=True)
    w = ad.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    (ad.select_scatter(x, s, 0, 1) * w).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[1, 2, 3], [0, 0, 0]])  # the overwritten row gets none
    np.testing.assert_array_equal(s.grad.numpy(), [4, 5, 6])


# ------------------------------------------------------------------ put

def test_put_gradients_by_hand():
    x, s = _x(2, 3), ad.tensor([10.0, 20.0], requires_grad=True)
    w = ad.arange(1.0, 7.0).reshape(2, 3)
    (x.put(ad.tensor([4, 4]), s, accumulate=True) * w).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), w.numpy())  # accumulate: every element kept
    np.testing.assert_array_equal(s.grad.numpy(), [5, 5])
    x.grad = s.grad = None
    y = ad.put(x, ad.tensor([-1, 0]), s)
    np.testing.assert_array_equal(y.detach().numpy(), [[20, 1, 2], [3, 4, 10]])
    (y * w).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0, 2, 3], [4, 5, 0]])
    np.testing.assert_array_equal(s.grad.numpy(), [6, 1])


@pytest.mark.parametrize("call, kind, message", [
    (lambda x: x.put(ad.tensor([6]), ad.zeros(1, dtype=ad.float64)), IndexError,
     "out of range: tried to access index 6 on a tensor of 6 elements."),
    (lambda x: x.put(ad.tensor([-7]), ad.zeros(1, dtype=ad.float64)), IndexError,
     "out of range: tried to access index -7 on a tensor of 6 elements."),
    (lambda x: x.put(ad.tensor([0, 1]), ad.zeros(3, dtype=ad.float64)), IndexError,
     "put_(): Expected source and index to have the same number of elements, but got source.numel() = 3, "
     "index.numel() = 2"),
    (lambda x: x.put(ad.tensor([0.0], dtype=ad.float32), ad.zeros(1, dtype=ad.float64)), RuntimeError,
     "put_(): Expected a long tensor for index, but got Float"),
    (lambda x: x.put(ad.tensor([0]), ad.zeros(1, dtype=ad.float32)), RuntimeError,
     "put_(): self and source expected to have the same dtype, but got self.dtype = Double and source.dtype = "
     "Float"),
    (lambda x: ad.zeros(0, dtype=ad.float64).put(ad.tensor([0]), ad.zeros(1, dtype=ad.float64)), IndexError,
     "put_(): Tried to put elements into an empty tensor"),
])
def test_put_messages(call, kind, message):
    with pytest.raises(kind) as e:
        call(ad.zeros(2, 3, dtype=ad.float64))
    assert str(e.value) == message


def test_put_in_place_bumps_the_version():
    x = ad.zeros(2, 2)
    x.put_(ad.tensor([3]), ad.tensor([1.0]))
    assert x._version == 1 and x[1, 1].item() == 1.0


# ------------------------------------------------------------------ constant_pad_nd

@pytest.mark.parametrize("pad, message", [
    ((1, 2, 3), "Length of pad must be even but instead it equals 3"),
    ((1,) * 8, "Length of pad should be no more than twice the number of dimensions of the input. Pad length is "
               "8while the input has 3dimensions."),
    ((-3, -3), "narrow(): length must be non-negative."),
])
def test_constant_pad_nd_messages(pad, message):
    with pytest.raises(RuntimeError) as e:
        ad.constant_pad_nd(ad.zeros(3, 4, 5), pad)
    assert str(e.value) == message


def test_constant_pad_nd_of_integers_keeps_the_dtype():
    y = ad.constant_pad_nd(ad.arange(3), (1, 1), 2.5)
    assert y.dtype == ad.int64 and y.tolist() == [2, 0, 1, 2, 2]


# ------------------------------------------------------------------ x.H, x.mH

def test_conjugate_transposes_of_real_tensors_are_transposing_views():
    m = _x(2, 3) * 1
    h = m.H
    assert h.grad_fn.name() == "TransposeBackward0" and tuple(h.shape) == (3, 2)
    h[0, 1] = -1.0
    assert m[1, 0].item() == -1.0
    b = _x(4, 2, 3)
    np.testing.assert_array_equal(b.mH.detach().numpy(), np.swapaxes(np.arange(24.0).reshape(4, 2, 3), -1, -2))
    n = ad.tensor(3.0)
    assert n.H is n


def test_conjugate_transpose_messages():
    with pytest.raises(RuntimeError) as e:
        ad.zeros(3).H
    assert str(e.value) == "tensor.H is only supported on matrices (2-D tensors). Got 1-D tensor."
    with pytest.raises(RuntimeError) as e:
        ad.zeros(2, 2, 2).H
    assert str(e.value) == ("tensor.H is only supported on matrices (2-D tensors). Got 3-D tensor. For batches of "
                            "matrices, consider using tensor.mH")
    with pytest.raises(RuntimeError) as e:
        ad.zeros(3).mH
    assert str(e.value) == "tensor.mH is only supported on matrices or batches of matrices. Got 1-D tensor."
