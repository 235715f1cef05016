"""index_add, index_copy, index_fill, scatter_add and masked_scatter against PyTorch 2.13's own
output: tests/golden/idx_ops.json, recorded by tests/golden/gen_idx_ops.py from the programs of
tests/golden/idx_ops_cases.py.

For each case: every output's dtype, shape and values (the version counters the in-place cases
return among them), the node's name and the names of its next functions, and the first and
second derivatives -- within their dtype's tolerance (tests/support/tolerance.py). For each bad call: the exception's type and message.
"""
import json

import numpy as np
import pytest

import autodiff.engine as ad

from idx_ops_cases import CASES, ERRORS, record, run_error, values
from test_functional_ops import assert_as_pytorch, within
import locations

GOLDEN = json.loads((locations.GOLDEN / "idx_ops.json").read_text())

def namespace():
    return {"T": ad, "R": values,
            "leaf": lambda data: ad.tensor(data, dtype=ad.float64, requires_grad=True),
            "V": lambda *ints: ad.tensor(list(ints), dtype=ad.int64)}


@pytest.mark.parametrize("name, program", CASES, ids=[name for name, _ in CASES])
def test_as_pytorch(name, program):
    want = GOLDEN["cases"][name]
    got = record(program, namespace())
    assert_as_pytorch(got, want, within({}, name))


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
