"""index_add, index_copy, index_fill, scatter_add and masked_scatter against PyTorch 2.13's own
output: tests/golden/idx_ops.json, recorded by tests/golden/gen_idx_ops.py from the programs of
tests/golden/idx_ops_cases.py.

For each case: every output's dtype, shape and values (the version counters the in-place cases
return among them), the node's name and the names of its next functions, and the first and
second derivatives -- PyTorch's bits. For each bad call: the exception's type and message.
"""
import json
import pathlib
import sys

import numpy as np
import pytest

import autodiff.engine as ad

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "golden"))
from idx_ops_cases import CASES, ERRORS, record, run_error, values  # noqa: E402
from test_functional_ops import _floats, assert_as_pytorch  # noqa: E402

GOLDEN = json.loads((HERE / "golden" / "idx_ops.json").read_text())

# {case: units in the last place}: how far a case's numbers may be from PyTorch's; none listed:
# PyTorch's bits (the recorded float.hex strings, signs of zeros included).
ULPS = {
    # the gradient of the broadcast input is summed over dim 0 by the engine's sum_to, numpy's
    # sum(axis=0), which adds in another order than PyTorch's kernel (wm.sum(0) differs the same)
    "masked_scatter_broadcast_self_gradient_sums_in_order": 2,
}



def namespace():
    return {"T": ad, "R": values,
            "leaf": lambda data: ad.tensor(data, dtype=ad.float64, requires_grad=True),
            "V": lambda *ints: ad.tensor(list(ints), dtype=ad.int64)}


def _ordered(values):
    """Recorded floats as integers ordered as the floats are (-0.0 and 0.0 both 0), exact: Python
    ints, not floats (test_functional_ops._ulps casts them to float64, which rounds a difference of
    a few units in the last place away)."""
    i = _floats(values).view(np.int64)
    return [int(v) for v in np.where(i < 0, np.int64(-2 ** 63) - i, i)]


def _same_bits(got, want, ulps, what):
    if want is None:
        assert got is None, f"{what}: PyTorch has None"
        return
    assert got is not None, f"{what}: PyTorch has a tensor"
    assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"]), what
    if got["values"] == want["values"]:
        return
    assert ulps and "float" in want["dtype"], f"{what}: {got['values']} where PyTorch has {want['values']}"
    nan = np.isnan(_floats(want["values"]))
    assert (np.isnan(_floats(got["values"])) == nan).all(), what
    distance = max([abs(g - w) for g, w, n in zip(_ordered(got["values"]), _ordered(want["values"]), nan)
                    if not n] or [0])
    assert distance <= ulps, f"{what}: {distance} units in the last place from PyTorch's"


@pytest.mark.parametrize("name, program", CASES, ids=[name for name, _ in CASES])
def test_as_pytorch(name, program):
    want = GOLDEN["cases"][name]
    got = record(program, namespace())
    ulps = ULPS.get(name, 0)
    assert_as_pytorch(got, want, lambda kind, g, w, what: _same_bits(g, w, ulps, what))


def test_ulps_are_counted_exactly():
    one_ulp = [(1.0 / 3).hex(), np.nextafter(1.0 / 3, 1.0).hex()]
    _same_bits({"dtype": "torch.float64", "shape": [1], "values": one_ulp[1:]},
               {"dtype": "torch.float64", "shape": [1], "values": one_ulp[:1]}, 1, "one unit")
    with pytest.raises(AssertionError, match="1 units in the last place"):
        _same_bits({"dtype": "torch.float64", "shape": [1], "values": [(-2.5).hex()]},
                   {"dtype": "torch.float64", "shape": [1], "values": [np.nextafter(-2.5, 0.0).hex()]}, 0.5, "x")


@pytest.mark.parametrize("name, program", ERRORS, ids=[name for name, _ in ERRORS])
def test_bad_calls_as_pytorch(name, program):
    assert run_error(program, namespace()) == GOLDEN["errors"][name]


def test_the_golden_file_has_every_case():
    assert set(GOLDEN["cases"]) == {name for name, _ in CASES}
    assert set(GOLDEN["errors"]) == {name for name, _ in ERRORS}


# ------------------------------------------------ the language: bare, torch.NAME, method, in place

_SETUP = "x = tensor([[1.5, -2.0, 0.25], [3.0, 0.5, -1.0]], requires_grad=True)\n" \
         "s = tensor([[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]], requires_grad=True)\n"
_CALLS = {  # name: the arguments after the tensor, written once for the language and Python
    "index_add": "1, tensor([2, 2]), s[:, :2], alpha=0.5",
    "index_copy": "0, tensor([1]), s[:1]",
    "index_fill": "1, tensor([0, -1]), -7.0",
    "scatter_add": "0, tensor([[1, 0, 1]]), s",
    "masked_scatter": "x > 0, s",
}


def _expected(name):
    ns = {"tensor": ad.tensor, "ad": ad}
    exec(_SETUP, ns)
    return eval(f"ad.{name}(x, {_CALLS[name]})", ns).detach().numpy()


@pytest.mark.parametrize("name", sorted(_CALLS))
@pytest.mark.parametrize("form", ["{name}(x, {args})", "torch.{name}(x, {args})", "x.{name}({args})",
                                  "y = x * 1\ny.{name}_({args})\ny", "y = x * 1\ntorch.{name}_(y, {args})\ny"])
def test_reachable_from_the_language(name, form):
    from autodiff.grammar.program import Session
    session = Session()
    try:
        got = session.run(_SETUP + form.format(name=name, args=_CALLS[name]), echo=True)
    finally:
        session.close()
    assert got.requires_grad
    np.testing.assert_array_equal(got.detach().numpy(), _expected(name))
