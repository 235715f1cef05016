"""PyTorch's own autograd tests (test/test_autograd.py) that issue 29 named as failing here, by hand:
the reference-cycle warning of backward(create_graph=True), split_with_sizes in the multi-output
in-place-on-view check, and Tensor.new. Messages and outcomes are PyTorch 2.13's, looked up with it.
(register_hook on a non-leaf: tests/engine/test_autograd.py::test_hook_on_non_leaf_*; nanmedian: its
op-table cases and tests/engine/test_opdb.py.)"""
import warnings

import pytest

import autodiff.engine as ad

CYCLE = "Using backward() with create_graph=True will create a reference cycle"
MULTI_VIEW = ("Output 0 of {} is a view and is being modified inplace. This view is the output of a function "
              "that returns multiple views. Such functions do not allow the output views to be modified inplace. "
              "You should replace the inplace operation by an out-of-place one.")


def _cycle_warnings(run):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run()
    return sum(CYCLE in str(w.message) for w in caught)


def test_backward_create_graph_warns():
    # PyTorch's test_backward_create_graph_warns: backward warns (also with inputs=, also through
    # torch.autograd.backward); autograd.grad, which writes no .grad, does not
    b = ad.tensor([0.5, -1.0, 2.0], requires_grad=True)
    c = b * b
    assert _cycle_warnings(lambda: c.backward(ad.ones_like(c), create_graph=True, retain_graph=True)) == 1
    b.grad = None
    assert _cycle_warnings(lambda: c.backward(ad.ones_like(c), create_graph=True, retain_graph=True,
                                              inputs=[b])) == 1
    assert _cycle_warnings(lambda: ad.autograd.backward([c.sum()], create_graph=True)) == 1
    assert _cycle_warnings(lambda: ad.autograd.grad(c.sum(), b, create_graph=True)) == 0
    assert _cycle_warnings(lambda: (b * 3).sum().backward()) == 0
    assert b.grad.tolist() == [5.0, -1.0, 11.0]   # after b.grad = None: 2b twice, plus 3


@pytest.mark.parametrize("name, split, node", [
    ("split", lambda t: t.split(1), "Split"),
    ("split_with_sizes", lambda t: t.split_with_sizes((1, 1, 1)), "SplitWithSizes"),
    ("chunk", lambda t: t.chunk(3), "Split"),
])
def test_inplace_on_view_multi_output_safe(name, split, node):
    # PyTorch's test_inplace_on_view_multi_output_safe
    a = ad.randn(3, 3, requires_grad=True)
    s1, s2, s3 = split(a + a)
    with pytest.raises(RuntimeError) as err:
        s1.mul_(s2)
    assert str(err.value) == MULTI_VIEW.format(node)
    assert s1.grad_fn.name() == f"{node}Backward0"


def test_tensor_new_forms():
    x = ad.tensor([[1.0, 2.0]], dtype=ad.float64)
    assert x.new([3, 4]).dtype is ad.float64 and x.new([3, 4]).tolist() == [3.0, 4.0]
    assert tuple(x.new(2, 3).shape) == (2, 3) and tuple(x.new(ad.Size([4])).shape) == (4,)
    assert tuple(x.new().shape) == (0,) and tuple(x.new((2, 3)).shape) == (2,)  # a tuple is data
    t = ad.tensor([1.0, 2.0], dtype=ad.float64, requires_grad=True)
    alias = x.new(t)   # an alias of a tensor of the same dtype, in the graph
    assert alias._base is t and alias.requires_grad and alias.grad_fn.name() == "AliasBackward0"
    with pytest.raises(TypeError, match=r"^expected TensorOptions\(dtype=double, .*\(got TensorOptions\(dtype=float,"):
        x.new(ad.tensor([1.0], dtype=ad.float32))
    for value, kind in ((2.5, "float"), (True, "bool"), (None, "NoneType")):   # x.new(3) is a size
        with pytest.raises(TypeError, match=rf"^new\(\): data must be a sequence \(got {kind}\)$"):
            x.new(value)
    with pytest.raises(TypeError, match=r"^new\(\): invalid data type 'str'$"):
        x.new("ab")


def test_to_with_copy_is_a_copy_under_pytorchs_node():
    """x.to(copy=True) and x.to(x.dtype, copy=True): a new array, ToCopyBackward0 (PyTorch 2.13's node),
    the gradient passed straight through; without copy=True, x itself."""
    import numpy as np
    import autodiff.engine as E
    x = E.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
    for y in (x.to(copy=True), x.to(E.float64, copy=True), x.to("cpu", E.float64, False, True)):
        assert y is not x and y.array is not x.array and not np.shares_memory(y.array, x.array)
        assert y.grad_fn.name() == "ToCopyBackward0"
        assert np.array_equal(y.detach().numpy(), x.detach().numpy())
    (y * 3).sum().backward()
    assert np.array_equal(x.grad.numpy(), np.full((2, 2), 3.0))
    assert x.to(E.float64) is x and x.to("cpu") is x


def test_a_conversion_to_integers_or_bools_has_no_history():
    """x.long(), x.int(), x.bool(), x.to(int32) of a tensor that requires grad: a tensor without
    grad_fn that does not require grad, as PyTorch's (integers carry no gradient); float casts keep
    ToCopyBackward0."""
    x = ad.tensor([1.5, -2.0], requires_grad=True)
    for y in (x.long(), x.int(), x.bool(), x.to(ad.int32), x.byte()):
        assert not y.requires_grad and y.grad_fn is None and y.is_leaf
    assert x.long().tolist() == [1, -2]
    assert x.to(ad.float32).grad_fn.name() == "ToCopyBackward0"
