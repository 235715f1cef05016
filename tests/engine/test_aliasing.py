"""Memory shared between a tensor and numpy, as PyTorch shares it (its docs: numpy(), from_numpy,
as_tensor): a write through either side shows in the other, and the version counter follows the
engine's own writes. Values by hand."""
import numpy as np
import pytest

import autodiff.engine as ad


def test_numpy_of_a_cpu_tensor_shares_its_memory():
    a = ad.tensor([1.0, 2.0])
    n = a.numpy()
    n += 1
    assert a.tolist() == [2.0, 3.0]
    a.add_(10)
    assert n.tolist() == [12.0, 13.0]


def test_numpy_of_a_view_shares_the_base():
    a = ad.tensor([[1.0, 2.0], [3.0, 4.0]])
    col = a.t()[1].numpy()   # a.t()[1] is a's second column: strided memory of a
    col *= -1
    assert a.tolist() == [[1.0, -2.0], [3.0, -4.0]]


def test_numpy_refuses_a_tensor_that_requires_grad_unless_forced():
    x = ad.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="Use tensor.detach"):
        x.numpy()
    forced = x.numpy(force=True)
    assert forced.tolist() == [1.0, 2.0]
    detached = x.detach().numpy()
    detached[0] = 5.0
    assert x.tolist() == [5.0, 2.0]   # detach() shares x's memory too


def test_from_numpy_and_as_tensor_share_where_no_conversion_is_needed():
    arr = np.array([1.0, 2.0])
    f = ad.from_numpy(arr)
    g = ad.as_tensor(arr)
    arr[0] = 7.0
    assert f.tolist() == [7.0, 2.0] and g.tolist() == [7.0, 2.0]
    f.add_(1)
    assert arr.tolist() == [8.0, 3.0] and f._version == 1
    ints = np.array([1, 2], dtype=np.int32)
    assert ad.as_tensor(ints).dtype == ad.int32
    converted = ad.as_tensor(arr, dtype=ad.float32)   # a conversion copies
    arr[1] = 9.0
    assert converted.tolist() == [8.0, 3.0]


def test_as_tensor_of_a_tensor_is_itself_or_its_recorded_conversion():
    y = ad.tensor([1.0, 2.0], requires_grad=True)
    assert ad.as_tensor(y) is y
    z = ad.as_tensor(y, dtype=ad.float32)
    assert z.dtype == ad.float32 and z.grad_fn.name() == "ToCopyBackward0"


def test_equal_allclose_isclose_are_methods_too():
    a = ad.tensor([1.0, 2.0])
    assert a.equal(a.clone()) and not a.equal(ad.tensor([1.0, 2.5])) and not a.equal(ad.tensor([1.0]))
    assert a.allclose(a + 1e-9) and not a.allclose(a + 1e-3)
    assert a.isclose(ad.tensor([1.0, 3.0])).tolist() == [True, False]


@pytest.mark.parametrize("value, dtype", [(np.float32(0.3), "float32"), (np.float16(1), "float16"),
                                          (np.int32(1), "int32"), (np.int8(-2), "int8"), (np.bool_(True), "bool"),
                                          (np.float64(1), "float64"), (0.3, "float64"), (2, "int64")])
def test_a_numpy_scalar_keeps_its_dtype(value, dtype):
    # PyTorch 2.13: torch.tensor(np.float32(0.3)).dtype is torch.float32 (a Python float takes the default)
    assert str(ad.tensor(value).dtype) == f"torch.{dtype}"
    assert str(ad.as_tensor(value).dtype) == f"torch.{dtype}"


def test_comparing_with_none_or_a_string_is_by_identity():
    # PyTorch 2.13: t == None and t == "a" are False, t != None is True (its TypeError becomes NotImplemented)
    t = ad.tensor([1.0, 2.0])
    assert (t == None) is False and (t != None) is True  # noqa: E711
    assert (t == "a") is False and (t != "a") is True
    assert (t == 1.0).tolist() == [True, False] and (t != [1.0, 3.0]).tolist() == [False, True]
