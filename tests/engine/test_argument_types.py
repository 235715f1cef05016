"""Arguments of the wrong kind get PyTorch's TypeError naming the parameter -- not numpy's words
("could not convert string to float", "ufunc 'minimum' did not contain a loop") nor Python's
("'str' object has no attribute 'requires_grad'"). The messages are PyTorch 2.13's, checked there.
"""
import subprocess
import sys

import numpy as np
import pytest

import autodiff.engine as E

x = E.ones(2, 3)
_image = E.ones(1, 1, 4, 4)

CASES = [
    # a Scalar (Number) parameter given something else
    (lambda: E.add(x, x, alpha="s"), "add(): argument 'alpha' must be Number, not str"),
    (lambda: E.add(x, x, alpha=None), "add(): argument 'alpha' must be Number, not NoneType"),
    (lambda: E.add(x, x, alpha=[2]), "add(): argument 'alpha' must be Number, not list"),
    (lambda: E.full((2,), "s"), "full(): argument 'fill_value' (position 2) must be Number, not str"),
    (lambda: E.full((2,), None), "full(): argument 'fill_value' (position 2) must be Number, not NoneType"),
    (lambda: E.full_like(x, "s"), "full_like(): argument 'fill_value' (position 2) must be Number, not str"),
    (lambda: x.clone().fill_("s"), "fill_(): argument 'value' (position 2) must be Number, not str"),
    (lambda: E.clamp_max(x, "s"), "clamp_max(): argument 'max' (position 2) must be Number, not str"),
    (lambda: E.clamp_min(x, "s"), "clamp_min(): argument 'min' (position 2) must be Number, not str"),
    (lambda: E.bernoulli(x, "s"), "bernoulli(): argument 'p' (position 2) must be Number, not str"),
    (lambda: E.addcmul(x, x, x, value="v"), "addcmul(): argument 'value' must be Number, not str"),
    (lambda: E.allclose(x, x, "s"), "allclose(): argument 'rtol' must be float, not str"),
    (lambda: E.cdist(x, x, "s"), "cdist(): argument 'p' must be float, not str"),
    # a Tensor parameter given None or a string
    (lambda: E.atan2(x, None), "atan2(): argument 'other' (position 2) must be Tensor, not NoneType"),
    (lambda: E.hypot(x, "s"), "hypot(): argument 'other' (position 2) must be Tensor, not str"),
    (lambda: E.sin("s"), "sin(): argument 'input' (position 1) must be Tensor, not str"),
    (lambda: E.zeros_like("s"), "zeros_like(): argument 'input' (position 1) must be Tensor, not str"),
    (lambda: E.randn_like([1.0]), "randn_like(): argument 'input' (position 1) must be Tensor, not list"),
    (lambda: E.poisson("s"), "poisson(): argument 'input' (position 1) must be Tensor, not str"),
    # an in-place function's input that is not a tensor
    (lambda: E.abs_("s"), "abs_(): argument 'input' (position 1) must be Tensor, not str"),
    (lambda: E.add_(2.0, x), "add_(): argument 'input' (position 1) must be Tensor, not float"),
    (lambda: E.zero_([1.0]), "zero_(): argument 'input' (position 1) must be Tensor, not list"),
    # a list of tensors: a tensor, or anything but tensors in it
    (lambda: E.cat(x, 0), "cat(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"),
    (lambda: E.stack(x), "stack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"),
    (lambda: E.cat(iter([x, x])), "cat(): argument 'tensors' (position 1) must be tuple of Tensors, not list_iterator"),
    (lambda: E.cat([x, 1]), "expected Tensor as element 1 in argument 0, but got int"),
    (lambda: E.stack([x, x.numpy()]), "expected Tensor as element 1 in argument 0, but got ndarray"),
    (lambda: E.hstack(x), "hstack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"),
    # a dim, a count or a shape that is not whole numbers (int() took '2' and 2.5 before)
    (lambda: x.select("s", 0), "select(): argument 'dim' must be int, not str"),
    (lambda: x.unbind(None), "unbind(): argument 'dim' must be int, not NoneType"),
    (lambda: x.chunk(2.5), "chunk(): argument 'chunks' must be int, not float"),
    (lambda: x.split("2"), "split(): argument 'split_size' must be int, not str"),
    (lambda: x.split([1, "a"], 1), "split(): argument 'split_size' must be tuple of ints, but found element of type str"),
    (lambda: x.view(2.0, 3), "view(): argument 'size' must be tuple of ints, but found element of type float"),
    (lambda: x.tile("s"), "tile(): argument 'dims' must be tuple of ints, but found element of type str"),
    (lambda: x.sum_to_size("s"), "sum_to_size(): argument 'size' must be tuple of ints, but found element of type str"),
    (lambda: E.diff(x, 1, "s"), "diff(): argument 'dim' must be int, not str"),
    (lambda: x.index_select("0", E.tensor([0])), "index_select(): argument 'dim' must be int, not str"),
    (lambda: x.select(0, "s"), "select(): argument 'index' must be int, not str"),
    (lambda: x.var("s"), "argument 'dim' must be int, not str"),
    (lambda: x.sum([1, "a"]), "sum(): argument 'dim' must be tuple of ints, but found element of type str"),
    (lambda: x.movedim(0, "s"), "argument 'dim' must be int, not str"),
    (lambda: x.clone().transpose_(0, 1.5), "argument 'dim' must be int, not float"),
    (lambda: x.tensor_split("s"), "tensor_split(): argument 'sections' must be int, not str"),
    (lambda: x.diagflat("s"), "diagflat(): argument 'offset' must be int, not str"),
    (lambda: x.expand_as("s"), "expand_as(): argument 'other' (position 1) must be Tensor, not str"),
    (lambda: x.view_as(None), "view_as(): argument 'other' (position 1) must be Tensor, not NoneType"),
    (lambda: x.reshape_as([1]), "reshape_as(): argument 'other' (position 1) must be Tensor, not list"),
    (lambda: x.type_as(2.0), "type_as(): argument 'other' (position 1) must be Tensor, not float"),
    # the layers' sizes (int() took '2' and 2.5 here before)
    (lambda: E.nn.functional.max_pool2d(_image, "s"), "argument 'kernel_size' must be int or tuple of ints, not str"),
    (lambda: E.nn.functional.avg_pool3d(_image.unsqueeze(0), 2.5),
     "argument 'kernel_size' must be int or tuple of ints, not float"),
    (lambda: E.nn.functional.conv2d(_image, E.ones(1, 1, 2, 2), stride=(1, "a")),
     "argument 'stride' must be tuple of ints, but found element of type str"),
    (lambda: E.nn.functional.group_norm(_image, "1"), "argument 'num_groups' must be int, not str"),
    (lambda: E.nn.functional.layer_norm(_image, ["a"]),
     "argument 'normalized_shape' must be tuple of ints, but found element of type str"),
]


@pytest.mark.parametrize("call, message", CASES, ids=[m[:60] for _, m in CASES])
def test_a_wrong_kind_of_argument_is_a_type_error_in_pytorch_words(call, message):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value) == message


@pytest.mark.parametrize("call", [
    lambda: E.add(x, x, alpha=np.float32(2)),     # a numpy number
    lambda: E.add(x, x, alpha=E.tensor(2.0)),      # a tensor of one element
    lambda: E.add(x, x, alpha=2),
    lambda: E.clamp(x, E.zeros(3), E.ones(3)),     # clamp's tensor bounds (its Scalar? takes tensors too)
    lambda: E.full((2,), np.int64(3)),
    lambda: E.cat((x, x)),
    lambda: E.atan2(x, [1.0, 2.0, 3.0]),           # a list stands for a tensor, as in PyTorch
    lambda: E.atan2(x, 2.0),                       # a number too
    lambda: x.var(E.tensor(1)),                    # an integer tensor for a dim (its __index__)
    lambda: x.sum([np.int64(0), E.tensor(1)]),
], ids=["numpy number", "one-element tensor", "int", "clamp tensors", "numpy int fill", "tuple", "list", "number",
        "tensor dim", "dims of other kinds"])
def test_what_pytorch_accepts_still_goes_through(call):
    call()


def test_the_language_shows_the_message_at_the_call():
    """End to end: a user's script with a string where a number belongs gets PyTorch's words at the
    call, no numpy wording and no traceback."""
    done = subprocess.run([sys.executable, "-m", "autodiff.cli.main", "run", "-c",
                           "x = ones(2)\ny = clamp_max(x, 'a')"], capture_output=True, text=True)
    assert done.returncode != 0
    assert "error: clamp_max(): argument 'max' (position 2) must be Number, not str" in done.stderr
    assert "line 2" in done.stderr and "ufunc" not in done.stderr and "Traceback" not in done.stderr


def test_a_method_is_named_on_tensor_in_pythons_messages():
    """A method of the core's base class is the user's Tensor method: Python's own call errors name
    it so (it said TensorBase.item before)."""
    with pytest.raises(TypeError) as info:
        x.item(3)
    assert str(info.value) == "Tensor.item() takes 1 positional argument but 2 were given"
