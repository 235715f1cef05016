"""torch.autograd.functional.jacobian(..., strategy="forward-mode", vectorize=True) against its
reverse mode (within float64 rounding: the two are different sums) and against derivatives worked
by hand, for functions of one and of several inputs and outputs, 0-d and tensor, including an
output that does not depend on an input and an input with no element."""
import numpy as np
import pytest

import autodiff.engine as ad

AF = ad.autograd.functional

rng = np.random.default_rng(31)
A = rng.standard_normal((4, 3))
X = rng.standard_normal(3)


def t(a):
    return ad.tensor(np.asarray(a, dtype=np.float64))


CASES = {  # name -> (function, inputs, the Jacobian by hand: one block per input, or per (output, input))
    "sin of a scaled grid": (lambda x: ad.sin(x * t(np.linspace(0, 1, 6))), t(0.7),
                             np.linspace(0, 1, 6) * np.cos(0.7 * np.linspace(0, 1, 6))),
    "tanh of a matrix product": (lambda x: ad.tanh(t(A) @ x), t(X), (1 - np.tanh(A @ X) ** 2)[:, None] * A),
    "a softmax": (lambda x: ad.softmax(x, 0), t(X),
                  np.diag(np.exp(X) / np.exp(X).sum()) - np.outer(np.exp(X), np.exp(X)) / np.exp(X).sum() ** 2),
    "two inputs, two outputs": (lambda a, b: (a * b, (a ** 2).sum() + b.sum()), (t(X), t(2.0)),
                                ((np.diag(np.full(3, 2.0)), X), (2 * X, np.array(1.0)))),
    "an output free of an input": (lambda a, b: a.exp(), (t(X), t([1.0, 2.0])),
                                   (np.diag(np.exp(X)), np.zeros((3, 2)))),
    "an input with no element": (lambda a, b: a * 3, (t(X), t(np.zeros(0))), (3 * np.eye(3), np.zeros((3, 0)))),
}


def _blocks(j):
    return j if isinstance(j, tuple) else (j,)


@pytest.mark.parametrize("name", list(CASES))
def test_forward_mode_equals_reverse_mode_and_the_hand_derivative(name):
    func, inputs, by_hand = CASES[name]
    forward = AF.jacobian(func, inputs, strategy="forward-mode", vectorize=True)
    reverse = AF.jacobian(func, inputs)
    flat = lambda j: [b for row in _blocks(j) for b in _blocks(row)]  # noqa: E731
    got, want, hand = flat(forward), flat(reverse), flat(by_hand) if isinstance(by_hand, tuple) else [by_hand]
    assert len(got) == len(want) == len(hand)
    for f, r, h in zip(got, want, hand):
        assert tuple(f.shape) == tuple(r.shape) == np.shape(h) and f.dtype == r.dtype
        np.testing.assert_allclose(f.numpy(), r.numpy(), rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(f.numpy(), h, rtol=1e-12, atol=1e-15)
