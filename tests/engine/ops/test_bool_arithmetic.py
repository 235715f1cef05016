"""Subtraction and negation refuse bool tensors with PyTorch's messages (the texts
below are what PyTorch 2.13 raises for the same calls)."""
import pytest

import autodiff.engine as torch

TWO = ("Subtraction, the `-` operator, with two bool tensors is not supported. "
       "Use the `^` or `logical_xor()` operator instead.")
ONE = ("Subtraction, the `-` operator, with a bool tensor is not supported. "
       "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
NEG = ("Negation, the `-` operator, on a bool tensor is not supported. "
       "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")

t = torch.tensor([True, False])


@pytest.mark.parametrize("call, message", [
    (lambda: t - t, TWO), (lambda: t - True, TWO), (lambda: torch.sub(t, t), TWO), (lambda: t.sub_(t), TWO),
    (lambda: 1 - t, ONE), (lambda: t - 1, ONE),
    # a float operand does not make it allowed, whichever side either is on
    (lambda: torch.tensor([1.0, 2.0]) - t, ONE), (lambda: t - torch.tensor([1.0, 2.0]), ONE),
    (lambda: torch.tensor([1.0]) - True, ONE), (lambda: True - torch.tensor([1.0]), ONE),
    (lambda: torch.tensor([1.0, 2.0]).sub_(t), ONE), (lambda: torch.sub(torch.tensor(3), t), ONE),
    (lambda: -t, NEG), (lambda: t.neg(), NEG),
])
def test_bool_subtraction_and_negation_are_refused(call, message):
    with pytest.raises(RuntimeError) as info:
        call()
    assert str(info.value) == message


def test_logical_xor_and_not_still_work():
    assert torch.logical_xor(t, torch.tensor([True, True])).tolist() == [False, True]
    assert (~t).tolist() == [False, True]
