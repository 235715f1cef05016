"""The decompositions against PyTorch 2.13 (tests/golden/decomp.json, written by
tests/golden/gen_decomp.py): the value, the gradient and a second-order product of each loss of
tests/golden/decomp_cases.py, in float64. The losses are gauge-invariant (singular vectors and
eigenvectors enter squared), so LAPACK's choice of signs does not matter."""
import json

import numpy as np
import pytest

import autodiff.engine as ad
from decomp_cases import CASES, directions
import locations

GOLDEN = json.loads((locations.GOLDEN / "decomp.json").read_text())
RTOL, ATOL = 1e-7, 1e-9


def test_every_case_is_recorded():
    assert GOLDEN["torch"].startswith("2.13")
    assert sorted(GOLDEN["cases"]) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_value_gradient_and_second_order_as_pytorch(name):
    record = GOLDEN["cases"][name]
    xs = [ad.tensor(np.array(a, dtype=np.float64), requires_grad=True) for a in record["inputs"]]
    y = CASES[name][0](ad.linalg, ad, *xs)
    np.testing.assert_allclose(y.item(), record["value"], rtol=RTOL, atol=ATOL)
    grads = ad.autograd.grad(y, xs, create_graph=True)
    for g, want in zip(grads, record["grads"]):
        np.testing.assert_allclose(np.asarray(g.detach()), np.array(want), rtol=RTOL, atol=ATOL)
    v = directions([np.asarray(g.detach()) for g in grads])
    total = sum((g * ad.tensor(d)).sum() for g, d in zip(grads, v))
    second = ad.autograd.grad(total, xs, allow_unused=True)
    for s, want, x in zip(second, record["second"], xs):
        got = np.zeros(tuple(x.shape)) if s is None else np.asarray(s)
        np.testing.assert_allclose(got, np.zeros(got.shape) if want is None else np.array(want), rtol=1e-6, atol=1e-8)
