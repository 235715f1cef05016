"""copy.deepcopy of tensors, devices and modules, as PyTorch 2.13 does it (its Tensor.__deepcopy__:
leaves only, with the message below; a copy has its own memory, its requires_grad, a copy of its
grad and of the attributes set on it; an nn.Parameter stays one). Observed with torch 2.13.0 CPU."""
import copy
import pickle

import numpy as np
import pytest

import autodiff.engine as E
from autodiff.engine import nn

MESSAGE = ("Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the "
           "moment.  If you were attempting to deepcopy a module, this may be because of a "
           "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001")


def test_a_leaf_copies_with_its_grad_into_memory_of_its_own():
    x = E.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).sum().backward()
    y = copy.deepcopy(x)
    assert y.requires_grad and y.is_leaf and y.grad_fn is None
    assert y.tolist() == [1.0, 2.0] and y.grad.tolist() == [2.0, 2.0]
    assert y.grad is not x.grad
    y.data.mul_(10)
    assert x.tolist() == [1.0, 2.0]  # nothing shared


def test_a_tensor_inside_a_graph_refuses():
    x = E.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError) as e:
        copy.deepcopy(x * 2)
    assert str(e.value) == MESSAGE


def test_a_views_copy_is_no_view_and_attributes_come_along():
    base = E.tensor([1.0, 2.0, 3.0])
    v = base[0:2]
    w = copy.deepcopy(v)
    assert w._base is None and w.tolist() == [1.0, 2.0]
    base.foo = 3
    assert copy.deepcopy(base).foo == 3


def test_one_tensor_twice_in_a_structure_stays_one():
    x = E.tensor([1.0])
    a, b = copy.deepcopy([x, x])
    assert a is b and a is not x


def test_modules_parameters_and_state_dicts():
    m = nn.Linear(2, 3)
    m2 = copy.deepcopy(m)
    assert m2.weight is not m.weight and isinstance(m2.weight, nn.Parameter)
    assert np.array_equal(m2.weight.detach().numpy(), m.weight.detach().numpy())
    assert repr(copy.deepcopy(nn.Parameter(E.ones(2)))).startswith("Parameter containing:")
    state = copy.deepcopy(m.state_dict())
    assert list(state) == ["weight", "bias"]
    with E.no_grad():
        m.weight.add_(1.0)
    assert not np.array_equal(state["weight"].numpy(), m.weight.detach().numpy())


def test_devices_copy_and_pickle_to_the_same_device():
    d = E.tensor(1.0).device
    assert copy.deepcopy(d) is d and copy.copy(d) is d and pickle.loads(pickle.dumps(d)) is d
