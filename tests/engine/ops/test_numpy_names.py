"""numpy's argument names, which PyTorch's argument parser accepts too: axis for dim, keepdims
for keepdim, in functions and methods alike (values as PyTorch 2.13 gives them)."""
import pytest

import autodiff.engine as ad


def test_axis_and_keepdims():
    x = ad.arange(6.).reshape(2, 3)
    assert x.sum(axis=0).tolist() == [3., 5., 7.]
    assert ad.sum(x, axis=1).tolist() == [3., 12.]
    assert x.mean(axis=1, keepdims=True).tolist() == [[1.], [4.]]
    assert x.max(axis=1, keepdims=True).values.shape == (2, 1)
    assert ad.argmax(x, axis=0).tolist() == [1, 1, 1]
    assert ad.cat([x, x], axis=1).shape == (2, 6)
    assert x.cumsum(axis=1).tolist() == [[0., 1., 3.], [3., 7., 12.]]


def test_axis_keeps_gradients():
    x = ad.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    (x.sum(axis=0) * ad.tensor([1., 10.])).sum().backward()
    assert x.grad.tolist() == [[1., 10.], [1., 10.]]


def test_both_names_is_pytorchs_error():
    with pytest.raises(TypeError, match=r"sum\(\) got an unexpected keyword argument 'axis'"):
        ad.arange(6.).sum(dim=0, axis=0)
