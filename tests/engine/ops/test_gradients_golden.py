"""Values and first derivatives of everyday elementwise ops, torch.nn.functional's activations
and losses against PyTorch 2.13's (tests/golden/gradients.json, written by
tests/golden/gen_gradients.py), within float64's tolerance; and the sign of every zero gradient,
exactly (a masked fill gives +0 where g * 0 would give -0, which shows when printed)."""
import json

import numpy as np
import pytest

import autodiff.engine as ad
from gen_gradients import (ACTIVATIONS, BINARY, LOSSES, UNARY, ZERO_INPUT, ZEROS, binary_case,
                                        zero_case)
from tolerance import assert_close
import locations

GOLDEN = json.loads((locations.GOLDEN / "gradients.json").read_text())
W = np.array([float.fromhex(v) for v in GOLDEN["w"]])


def _floats(hexes):
    return np.array([float.fromhex(v) for v in hexes])


def _close(t, recorded, what):
    assert_close(np.array(t.tolist()), _floats(recorded), "float64", what=what)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_gradients(name):
    case = GOLDEN["unary"][name]
    x = ad.tensor(_floats(case["x"]), requires_grad=True)
    y = getattr(ad, name)(x)
    (y * ad.tensor(W)).sum().backward()
    _close(y, case["y"], name)
    _close(x.grad, case["grad"], f"{name}'s gradient")


@pytest.mark.parametrize("name", BINARY)
def test_binary_gradients(name):
    case = GOLDEN["binary"][name]
    a = ad.tensor(_floats(GOLDEN["a"]), requires_grad=True)
    b = ad.tensor(_floats(GOLDEN["b"]), requires_grad=True)
    y = binary_case(ad, name, a, b)
    (y * ad.tensor(W)).sum().backward()
    _close(y, case["y"], name)
    _close(a.grad, case["grad_a"], f"{name}'s first gradient")
    _close(b.grad, case["grad_b"], f"{name}'s second gradient")


@pytest.mark.parametrize("name", ZEROS)
def test_zero_gradients_have_pytorchs_sign(name):
    # masked and constant gradients are +0 (a masked fill or zeros_like in PyTorch), not g * 0
    x = ad.tensor(ZERO_INPUT, requires_grad=True)
    (zero_case(ad, name, x) * -3).sum().backward()
    assert [float(v).hex() for v in x.grad.tolist()] == GOLDEN["zeros"][name]


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activation_gradients(name):
    case = GOLDEN["activations"][name]
    x = ad.tensor(_floats(case["x"]), requires_grad=True)
    y = ACTIVATIONS[name][1](ad.nn.functional, x)
    (y * ad.tensor(W)).sum().backward()
    _close(y, case["y"], name)
    _close(x.grad, case["grad"], f"{name}'s gradient")


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_loss_gradients(name):
    case = GOLDEN["losses"][name]
    x = ad.tensor(_floats(GOLDEN["z" if "logits" in name else "p"]), requires_grad=True)
    t = ad.tensor(_floats(GOLDEN["t"]), requires_grad=True)
    y = LOSSES[name](ad.nn.functional, x, t, ad.tensor(_floats(GOLDEN["v"])))
    (y * ad.tensor(W) if y.dim() else y).sum().backward()
    _close(y.reshape(-1), case["y"], name)  # (recorded flat)
    _close(x.grad, case["grad_x"], f"{name}'s input gradient")
    _close(t.grad, case["grad_t"], f"{name}'s target gradient")
