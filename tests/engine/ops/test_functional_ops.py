"""The functions added to close gaps against PyTorch (F.mish, F.hardswish, F.hardsigmoid,
F.threshold, F.prelu, F.glu, F.cosine_similarity, F.kl_div, torch.xlogy, their modules, ...)
against PyTorch 2.13's own output: tests/golden/functional_ops.json, recorded by
tests/golden/gen_functional_ops.py from the same programs (tests/golden/functional_ops_cases.py).

For each case: the output's dtype and shape, its node's name and the names of the next
functions, the warnings the call gives, the values and the first and second derivatives --
within their dtype's tolerance (tests/support/tolerance.py) unless TOLERANCE says otherwise for the case. For each bad call: the exception's type and message.
"""
import json

import pytest

import autodiff.engine as ad
from tolerance import assert_recorded_close, recorded_values

from functional_ops_cases import CASES, ERRORS, record, run_error
import locations

GOLDEN = json.loads((locations.GOLDEN / "functional_ops.json").read_text())

# {"out" | "grad" | "grad2": (rtol, atol)}: where a case's numbers may be further from PyTorch's
# than their dtype's tolerance (tests/support/tolerance.py), and why.
TOLERANCE = {}


def namespace():
    return {"T": ad, "F": ad.nn.functional, "nn": ad.nn,
            "leaf": lambda data: ad.tensor(data, dtype=ad.float64, requires_grad=True)}


_floats = recorded_values


def assert_as_pytorch(got, want, same, second_order=True):
    """The checks every golden trio makes of one recorded case: its outputs, node, next functions,
    warnings, first and (unless PyTorch has none) second derivatives; same(kind, got, want, what)
    compares two recorded tensors of kind "out", "grad" or "grad2"."""
    assert len(got["out"]) == len(want["out"])
    for i, (g, w) in enumerate(zip(got["out"], want["out"])):
        same("out", g, w, f"output {i}")
    assert got.get("node") == want.get("node")
    assert got.get("next") == want.get("next")
    assert got["warnings"] == want["warnings"]
    assert ("grad" in got) == ("grad" in want)
    for i, (g, w) in enumerate(zip(got.get("grad", ()), want.get("grad", ()))):
        same("grad", g, w, f"gradient {i}")
    if not second_order:
        return
    assert (got.get("grad2") is None) == (want.get("grad2") is None)
    for i, (g, w) in enumerate(zip(got.get("grad2") or (), want.get("grad2") or ())):
        same("grad2", g, w, f"second derivative {i}")


def within(tolerances, name):
    """A same() comparing within the dtype's tolerance, or the case's own from `tolerances`."""
    return lambda kind, g, w, what: assert_recorded_close(g, w, *tolerances.get(name, {}).get(kind, (None, None)),
                                                          what=what)


@pytest.mark.parametrize("name, program", CASES, ids=[name for name, _ in CASES])
def test_as_pytorch(name, program):
    want = GOLDEN["cases"][name]
    got = record(program, namespace())
    assert_as_pytorch(got, want, within(TOLERANCE, name), second_order="grad2_error" not in want)
    if "grad2_error" in want:
        # PyTorch has no double backward there (hardsigmoid_backward's); the slope is piecewise
        # constant, so ours is zero
        assert all(g is None or not _floats(g["values"]).any() for g in got["grad2"] or ()), got["grad2"]


@pytest.mark.parametrize("name, program", ERRORS, ids=[name for name, _ in ERRORS])
def test_bad_calls_as_pytorch(name, program):
    assert run_error(program, namespace()) == GOLDEN["errors"][name]


def test_the_golden_file_has_every_case():
    assert set(GOLDEN["cases"]) == {name for name, _ in CASES}
    assert set(GOLDEN["errors"]) == {name for name, _ in ERRORS}


def test_dist_with_p_0_counts_the_differing_elements_and_passes_no_gradient():
    # the count is piecewise constant: its gradient is 0 (PyTorch 2.13's backward fails here, with
    # "Expected a proper Tensor but got None"; its value is 2.0 for these inputs)
    a = ad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = ad.tensor([1.0, 0.0, 0.0], requires_grad=True)
    d = ad.dist(a, b, 0)
    assert d.item() == 2.0 and d.grad_fn.name() == "DistBackward0"
    d.backward()
    assert a.grad.tolist() == [0.0, 0.0, 0.0] and b.grad.tolist() == [0.0, 0.0, 0.0]
