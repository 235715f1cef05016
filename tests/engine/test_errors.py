"""Every misuse is an error of the right type with a message that says what went
wrong (PyTorch's wording where PyTorch has one) -- never a numpy traceback or a hang.
"""
import re
import time

import pytest

import autodiff.engine as ad


def leaf(values):
    return ad.tensor(values, requires_grad=True)


# ------------------------------------------------------------------ backward / grad misuse

def test_non_scalar_backward_without_gradient():
    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        (x * 2).backward()
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        ad.grad(x * 2, x)
    assert x.grad is None


def test_gradient_shape_mismatch():
    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError, match=re.escape(
            "Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] has a shape "
            "of torch.Size([2])")):
        (x * 2).backward(ad.tensor([1.0, 1.0, 1.0]))
    with pytest.raises(RuntimeError, match="Mismatch in shape"):
        ad.grad(x * 2, x, grad_outputs=ad.ones(3))


def test_backward_on_tensor_not_requiring_grad():
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad and does not have a grad_fn"):
        ad.tensor([1.0, 2.0]).sum().backward()
    x = leaf(1.0)
    with pytest.raises(RuntimeError, match="element 1 of tensors does not require grad"):
        ad.backward([x * 2, ad.tensor(3.0)])


def test_backward_under_no_grad_result():
    x = leaf(1.0)
    with ad.no_grad():
        y = x * 2
    with pytest.raises(RuntimeError, match="does not require grad and does not have a grad_fn"):
        y.backward()


def test_grad_of_unused_input():
    x = leaf(1.0)
    z = leaf(2.0)
    with pytest.raises(RuntimeError, match=re.escape(
            "The differentiated Tensor at index 1 appears to not have been used in the graph. "
            "Set allow_unused=True if this is the desired behavior.")):
        ad.grad(x * 3, [x, z])


def test_grad_input_not_requiring_grad():
    x = leaf(1.0)
    with pytest.raises(RuntimeError, match="One of the differentiated Tensors does not require grad"):
        ad.grad(x * 3, [ad.tensor(1.0)])


def test_backward_empty_inputs():
    x = leaf(1.0)
    with pytest.raises(RuntimeError, match=re.escape("`inputs` argument to `backward()` cannot be empty.")):
        (x * 2).backward(inputs=[])
    assert x.grad is None


def test_grad_needs_inputs():
    x = leaf(1.0)
    with pytest.raises(RuntimeError):
        ad.grad(x * 2, [])


def test_second_backward_names_retain_graph():
    x = leaf(2.0)
    y = x * x
    y.backward()
    with pytest.raises(RuntimeError) as err:
        y.backward()
    message = str(err.value)
    assert "Trying to backward through the graph a second time" in message
    assert "retain_graph=True" in message


def test_non_float_scalar_backward():
    with pytest.raises(RuntimeError, match="only for real scalar outputs|does not require grad"):
        ad.tensor(3).backward()


# ------------------------------------------------------------------ in-place misuse

def test_inplace_on_leaf_requiring_grad():
    a = leaf([10.0, 5.0, 2.0, 3.0])
    message = re.escape("a leaf Variable that requires grad is being used in an in-place operation.")
    for op in (lambda: a.add_(10.0), lambda: a.mul_(2), lambda: a.zero_(), lambda: a.__iadd__(1)):
        with pytest.raises(RuntimeError, match=message):
            op()
    with pytest.raises(RuntimeError, match=message):
        a[0] = 1.0
    assert a.tolist() == [10.0, 5.0, 2.0, 3.0]
    assert a._version == 0


def test_inplace_on_view_of_leaf_requiring_grad():
    a = leaf([1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError, match=r"a view of a (leaf Variable|tensor) that requires grad"):
        a[0:2].add_(1)
    assert a.tolist() == [1.0, 2.0, 3.0]


def test_modified_saved_tensor():
    a = leaf([1.0, 3.0])
    b = a + 2
    loss = (b * b).mean()
    b[0] = 1000.0
    with pytest.raises(RuntimeError) as err:
        loss.backward()
    message = str(err.value)
    assert message.startswith("one of the variables needed for gradient computation has been modified by an "
                              "inplace operation: [torch.DoubleTensor [2]], which is output 0 of "
                              "torch::autograd::CopySlices, is at version 1; expected version 0 instead. Hint: "
                              "enable anomaly detection"), message  # PyTorch 2.x names b's node now
    assert isinstance(err.value, ad.InplaceModifiedError)
    assert a.grad is None


def test_modified_saved_output():
    a = leaf([1.0, 2.0, 3.0])
    e = a.exp()                  # exp saves its output
    s = e.sum()
    e.add_(1)
    with pytest.raises(RuntimeError, match=r"\[torch\.DoubleTensor \[3\]\], which is output 0 of Exp, "
                                           r"is at version 1; expected version 0"):
        s.backward()


def test_modified_saved_leaf_through_detach():
    a = leaf([[1.0, 2.0], [3.0, 4.0]])
    loss = (a * a).sum()
    a.detach().zero_()
    with pytest.raises(RuntimeError, match=r"\[torch\.DoubleTensor \[2, 2\]\].*is at version 1; expected version 0"):
        loss.backward()


def test_version_error_counts_every_modification():
    a = leaf([1.0])
    b = a * 1
    y = b * b
    b.add_(1)
    b.add_(1)
    with pytest.raises(RuntimeError, match="is at version 2; expected version 0"):
        y.backward()


# ------------------------------------------------------------------ devices

def test_mixing_devices(fake_cuda):
    a = ad.tensor([1.0, 2.0])
    b = ad.tensor([1.0, 2.0], device="cuda")
    for op in (lambda: a + b, lambda: b * a, lambda: ad.matmul(a, b), lambda: ad.cat([a, b])):
        with pytest.raises(RuntimeError) as err:
            op()
        message = str(err.value)
        assert "Expected all tensors to be on the same device" in message
        assert "cpu" in message and "cuda:0" in message


def test_unknown_device():
    with pytest.raises(ValueError, match="unknown device 'tpu'"):
        ad.tensor([1.0], device="tpu")


# ------------------------------------------------------------------ shapes

def test_matmul_shape_mismatch():
    with pytest.raises(RuntimeError, match=re.escape("mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)")):
        ad.mm(ad.ones(2, 3), ad.ones(2, 3))
    with pytest.raises(RuntimeError, match="mat1 and mat2 shapes cannot be multiplied"):
        ad.ones(2, 3) @ ad.ones(2, 3)


def test_reshape_invalid():
    with pytest.raises(RuntimeError, match=re.escape("shape '[4, 2]' is invalid for input of size 6")):
        ad.ones(2, 3).reshape(4, 2)
    with pytest.raises(RuntimeError, match="only one dimension can be inferred"):
        ad.ones(2, 3).view(-1, -1)
    with pytest.raises(RuntimeError, match=re.escape("shape '[-1, 4]' is invalid for input of size 6")):
        ad.ones(2, 3).view(-1, 4)


def test_broadcasting_mismatch():
    with pytest.raises(RuntimeError, match=re.escape(
            "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0")):
        ad.ones(2) + ad.ones(3)
    with pytest.raises(RuntimeError, match=re.escape(
            "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1")):
        ad.ones(2, 3) * ad.ones(3, 2)


def test_indexing_out_of_bounds():
    x = ad.ones(2, 3)
    with pytest.raises(IndexError, match="index 2 is out of bounds for dimension 0 with size 2"):
        x[2]
    with pytest.raises(IndexError, match="index 5 is out of bounds for dimension 1 with size 3"):
        x[0, 5]
    with pytest.raises(IndexError, match="too many indices for tensor of dimension 2"):
        x[0, 0, 0]
    with pytest.raises(IndexError, match="out of bounds"):
        x[-3]


def test_cat_with_mismatched_shapes():
    with pytest.raises(RuntimeError, match=re.escape(
            "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 2 for tensor "
            "number 1 in the list.")):
        ad.cat([ad.ones(2, 3), ad.ones(2, 2)])
    with pytest.raises(RuntimeError, match="Tensors must have same number of dimensions: got 2 and 1"):
        ad.cat([ad.ones(2, 3), ad.ones(3)])
    with pytest.raises(RuntimeError, match="stack expects each tensor to be equal size"):
        ad.stack([ad.ones(2, 3), ad.ones(2, 2)])


def test_dimension_out_of_range():
    with pytest.raises(IndexError, match=re.escape("Dimension out of range (expected to be in range of [-1, 0], "
                                                   "but got 3)")):
        ad.ones(2).sum(dim=3)


# ------------------------------------------------------------------ conversions and creation

def test_item_on_many_elements():
    with pytest.raises(RuntimeError, match="a Tensor with 2 elements cannot be converted to Scalar"):
        ad.ones(2).item()
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with more than one value is ambiguous"):
        bool(ad.ones(2))


def test_requires_grad_on_int_tensor():
    # PyTorch words it three ways: a factory, the method, the attribute
    with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex dtype can require "
                                           "gradients$"):
        ad.tensor([1, 2], requires_grad=True)
    with pytest.raises(RuntimeError, match="^only Tensors of floating point dtype can require gradients$"):
        ad.arange(3).requires_grad_()
    x = ad.tensor([1, 2])
    with pytest.raises(RuntimeError, match="^only Tensors of floating point and complex dtype can require "
                                           "gradients$"):
        x.requires_grad = True
    assert x.requires_grad is False


def test_register_hook_on_tensor_without_grad():
    with pytest.raises(RuntimeError, match="cannot register a hook on a tensor that doesn't require gradient"):
        ad.ones(2).register_hook(lambda g: g)


def test_retain_grad_on_tensor_without_grad():
    with pytest.raises(RuntimeError, match="can't retain_grad on Tensor that has requires_grad=False"):
        ad.ones(2).retain_grad()


def test_hook_returning_wrong_shape():
    x = leaf([1.0, 2.0])
    x.register_hook(lambda g: ad.ones(3))
    with pytest.raises(RuntimeError, match=r"hook returned a gradient of shape \[3\]"):
        (x * 2).sum().backward()


def test_ragged_list_tensor():
    with pytest.raises(ValueError, match=re.escape("expected sequence of length 2 at dim 1 (got 1)")):
        ad.tensor([[1, 2], [3]])
    with pytest.raises(ValueError, match=re.escape("expected sequence of length 2 at dim 1 (got 3)")):
        ad.tensor([[1.0, 2.0], [3.0, 4.0, 5.0]])


def test_absurd_allocation_is_a_quick_memory_error():
    start = time.perf_counter()
    for make in (lambda: ad.zeros(10 ** 7, 10 ** 7), lambda: ad.ones(10 ** 7, 10 ** 7),
                 lambda: ad.randn(10 ** 7, 10 ** 7), lambda: ad.full((10 ** 7, 10 ** 7), 2.0),
                 lambda: ad.eye(10 ** 7), lambda: ad.zeros((10 ** 7, 10 ** 7), requires_grad=True)):
        with pytest.raises(MemoryError):
            make()
    assert time.perf_counter() - start < 1.0


def test_negative_dimension():
    with pytest.raises(RuntimeError, match="Trying to create tensor with negative dimension -1"):
        ad.zeros(-1)


def test_numpy_of_tensor_requiring_grad():
    with pytest.raises(RuntimeError, match=re.escape("Can't call numpy() on Tensor that requires grad. "
                                                     "Use tensor.detach().numpy() instead.")):
        leaf([1.0]).numpy()


def test_grad_assignment_errors():
    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError, match=re.escape("attempting to assign a gradient of size '[3]' to a "
                                                     "tensor of size '[2]'. Please ensure that the gradient "
                                                     "and the tensor are the same size")):
        x.grad = ad.ones(3)
    with pytest.raises(RuntimeError, match="attempting to assign a gradient with dtype 'float' to a tensor "
                                           "with grad_dtype 'Double'"):
        x.grad = ad.ones(2, dtype=ad.float32)


def test_requires_grad_false_on_non_leaf():
    y = leaf(1.0) * 2
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf variables"):
        y.requires_grad = False


# ------------------------------------------------------------------ optimisers

def test_optimizer_on_non_leaf():
    x = leaf([1.0])
    for make in (ad.SGD, ad.Adam):
        with pytest.raises(ValueError, match="can't optimize a non-leaf Tensor"):
            make([x * 2], lr=0.1)


def test_optimizer_bad_arguments():
    x = leaf([1.0])
    with pytest.raises(ValueError, match="empty parameter list"):
        ad.SGD([], lr=0.1)
    with pytest.raises(ValueError, match="Invalid learning rate"):
        ad.SGD([x], lr=-1)
    with pytest.raises(ValueError, match="Nesterov momentum requires a momentum and zero dampening"):
        ad.SGD([x], lr=0.1, nesterov=True)
    with pytest.raises(ValueError, match="Invalid beta parameter at index 0: 1.0"):  # PyTorch 2.13's words
        ad.Adam([x], lr=0.1, betas=(1.0, 0.999))
    with pytest.raises(TypeError, match="optimizer can only optimize Tensors"):
        ad.SGD([1.0], lr=0.1)
