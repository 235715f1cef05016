"""PyTorch's CPU kernels bit for bit where the order or fusion of their arithmetic matters
(engine/fma.py, engine/summation.py): add and sub with alpha, lerp, whole-tensor sums and
means, rand and a new Linear layer after manual_seed (engine/generator.py), and SGD and Adam
in every variant over 40 steps of the same gradients, against
tests/golden/fused.json (written by PyTorch 2.13: tests/golden/gen_fused.py)."""
import json
import pathlib
import sys

import numpy
import pytest

import autodiff.engine as E

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))
import gen_fused  # noqa: E402  (the generator's cases, run here by the engine; it imports torch only when run)

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "fused.json").read_text("utf-8"))


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: f"{c['dtype']}-{c['name']}-{c.get('settings', '')}")
def test_the_same_bits_as_pytorch(case):
    if case["kind"] == "kernel":
        got = gen_fused.kernels(E, case["dtype"])[case["name"]].numpy()
    else:
        got = gen_fused.train(E, E, case["dtype"], case["name"], case["settings"])
    assert gen_fused.digest(got) == case["sha256"]


def test_rounding_twice_would_differ():
    """What the tests guard: a + alpha * b rounded twice is not PyTorch's add."""
    a, b, _ = gen_fused.inputs(numpy.float32)
    twice = a + numpy.float32(-0.1) * b
    case = next(c for c in GOLDEN["cases"] if c["name"] == "add alpha -0.1" and c["dtype"] == "float32")
    assert gen_fused.digest(twice) != case["sha256"]


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


def test_numpys_own_sum_would_differ():
    """What the sum cases guard: numpy's pairwise order is not PyTorch's for some of them."""
    a, _, _ = gen_fused.inputs(numpy.float32)
    cases = {c["name"]: c["sha256"] for c in GOLDEN["cases"] if c["dtype"] == "float32"}
    differ = [n for n in (13, 100, 257, 1003) if gen_fused.digest(numpy.sum(a[:n])) != cases[f"sum {n}"]]
    assert differ
