"""Sums and means over dims, var and std, logsumexp, vector norms and gradients summed back
over broadcast dims (a bias's gradient) against PyTorch 2.13's (tests/golden/reductions.json,
written by tests/golden/gen_reductions.py), within each dtype's tolerance."""
import json

import numpy
import pytest

import autodiff.engine as ad
from gen_reductions import BROADCASTS, CASES, LOGSUMEXP, NORMS, SPREADS, values
from tolerance import assert_close
import locations

GOLDEN = json.loads((locations.GOLDEN / "reductions.json").read_text())


def _close(t, recorded, what):
    want = numpy.array([float.fromhex(v) for v in recorded])
    assert_close(t.numpy().reshape(-1), want, t.numpy().dtype, what=what)


@pytest.mark.parametrize("case", GOLDEN["sums"], ids=lambda c: f"{CASES[c['case']]}-{c['dtype']}")
def test_sum_and_mean_over_dims(case):
    shape, dims = CASES[case["case"]]
    x = ad.tensor(values(shape, case["case"]), dtype=getattr(ad, case["dtype"])).reshape(shape)
    _close(x.sum(dim=dims), case["sum"], "sum")
    _close(x.mean(dim=dims), case["mean"], "mean")


@pytest.mark.parametrize("k", range(len(BROADCASTS)))
def test_gradient_summed_over_broadcast_dims(k):
    shape, bshape = BROADCASTS[k]
    a = ad.tensor(values(shape, 100 + k)).reshape(shape)
    w = ad.tensor(values(shape, 200 + k)).reshape(shape)
    b = ad.tensor(values(bshape, 300 + k)).reshape(bshape).requires_grad_()
    ((a + b) * w).sum().backward()
    _close(b.grad, GOLDEN["broadcasts"][k]["grad"], "gradient")


@pytest.mark.parametrize("k", range(len(SPREADS)))
def test_var_and_std(k):
    shape, dtype, kwargs = SPREADS[k]
    x = ad.tensor(values(shape, 500 + k), dtype=getattr(ad, dtype)).reshape(shape)
    want = GOLDEN["spreads"][k]
    _close(x.var(**kwargs), want["var"], "var")
    _close(x.std(**kwargs), want["std"], "std")


@pytest.mark.parametrize("k", range(len(LOGSUMEXP)))
def test_logsumexp(k):
    shape, dims = LOGSUMEXP[k]
    x = ad.tensor(values(shape, 700 + k)).reshape(shape)
    _close(ad.logsumexp(x, dims), GOLDEN["logsumexp"][k], "logsumexp")


@pytest.mark.parametrize("k", range(len(NORMS)))
def test_vector_norms(k):
    shape, dtype, p, dim = NORMS[k]
    x = ad.tensor(values(shape, 800 + k), dtype=getattr(ad, dtype)).reshape(shape)
    _close(x.norm(p=p, dim=dim), GOLDEN["norms"][k], "norm")
