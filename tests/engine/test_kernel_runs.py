"""add and sub with alpha, lerp, whole-tensor sums and means, rand and a new Linear layer after
manual_seed (engine/generator.py: PyTorch's generator, so the same numbers), and SGD and Adam in
every variant over 40 steps of the same gradients, against PyTorch 2.13's values
(tests/golden/kernel_runs.json, written by tests/golden/gen_kernel_runs.py) within tolerance."""
import json

import numpy
import pytest

import autodiff.engine as E
from tolerance import assert_close

import gen_kernel_runs  # (the generator's cases, run here by the engine; it imports torch only when run)
import locations

GOLDEN = json.loads((locations.GOLDEN / "kernel_runs.json").read_text("utf-8"))

@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: f"{c['dtype']}-{c['name']}-{c.get('settings', '')}")
def test_as_pytorch(case):
    if case["kind"] == "kernel":
        got = gen_kernel_runs.kernels(E, case["dtype"])[case["name"]].numpy()
    else:
        got = gen_kernel_runs.train(E, E, case["dtype"], case["name"], case["settings"])
    want = numpy.array(case["values"], dtype=case["dtype"])
    assert_close(got.reshape(-1), want, case["dtype"], what=case["name"])


def test_seeded_draws_are_pytorchs_numbers():
    """Not merely close: the generator is PyTorch's, so rand after manual_seed gives its draws (a
    different generator would be nowhere near)."""
    case = next(c for c in GOLDEN["cases"] if c["name"] == "rand seed 1234" and c["dtype"] == "float64")
    got = gen_kernel_runs.kernels(E, "float64")["rand seed 1234"].numpy()
    assert numpy.abs(got - numpy.array(case["values"])).max() < 1e-15


def test_alpha_gives_one_node_and_its_gradient():
    a = E.tensor([1.0, 2.0], requires_grad=True)
    b = E.tensor([3.0, 4.0], requires_grad=True)
    y = E.sub(a, b, alpha=0.5)
    assert y.grad_fn.name() == "SubBackward0" and E.add(a, b, alpha=2).grad_fn.name() == "AddBackward0"
    y.sum().backward()
    assert a.grad.tolist() == [1.0, 1.0] and b.grad.tolist() == [-0.5, -0.5]
    with pytest.raises(RuntimeError, match="For integral input tensors, argument alpha must not be a floating"):
        E.add(E.tensor([1, 2]), E.tensor([3, 4]), alpha=0.5)
    with pytest.raises(RuntimeError, match="Boolean alpha only supported for Boolean results."):
        E.add(E.tensor([1.0]), E.tensor([2.0]), alpha=True)


def test_lerp_meets_the_end_exactly_at_weight_one():
    a, b = E.tensor([0.1, -3.7, 1e10]), E.tensor([0.3, 2.9, -1e-10])
    assert E.lerp(a, b, 1.0).tolist() == b.tolist() and E.lerp(a, b, 0.0).tolist() == a.tolist()
